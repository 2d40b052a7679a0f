//! The one naming rule of the generated code.
//!
//! Schema names, property names, operationIds and parameter names come from
//! the spec in any spelling (`widget-v2`, `eventStream`, `Client.Addon`,
//! `type`). Progenitor and typify turn them into Rust identifiers with their
//! own rule; the server emitter must name the same things the same way, or a
//! body type or a method would not be found. So every emitter goes through
//! this module, which applies that rule: heck's case conversion after turning
//! characters that cannot continue an identifier into word breaks, a prefix
//! when the result cannot start one, and a trailing `_` for the keywords
//! typify lists (`type` becomes `type_`).
//!
//! Different spec names can convert to one identifier (`fooBar` and
//! `foo_bar`, enum values `asc` and `ASC`). [`distinct`] and
//! [`variant_names`] give them distinct names, deterministically in document
//! order, which every side then converts by the same rule; where the spec
//! name is a wire name, it stays the wire name (see `emit::view`).

use std::collections::BTreeSet;

use heck::{ToPascalCase, ToSnakeCase};
use proc_macro2::Ident;
use unicode_ident::{is_xid_continue, is_xid_start};

/// The name typify gives the type of schema `name` (also used for enum
/// variants): `widget-v2` is `WidgetV2`, `Client.Addon` is `ClientAddon`.
pub fn type_name(name: &str) -> String {
    sanitize(name, Case::Pascal, "X")
}

/// The name typify gives a struct field for property `name`: `fooBar` is
/// `foo_bar`, `type` is `type_`.
pub fn field_name(name: &str) -> String {
    sanitize(name, Case::Snake, "x")
}

/// The name progenitor gives the method of an operation or the builder
/// method of a parameter; the server uses it too, so both sides read alike.
pub fn method_name(name: &str) -> String {
    sanitize(name, Case::Snake, "_")
}

/// The cargo feature of tag `name`: kebab case, ASCII letters and digits
/// only (`Token Exchange Profiles` and `token_exchange_profiles` are
/// `token-exchange-profiles`), an acronym's plural or version one word with
/// it (`Floating IPs` is `floating-ips`, `Reserved IPv6` `reserved-ipv6`),
/// `tag` when nothing is left.
pub fn feature_name(name: &str) -> String {
    use heck::ToKebabCase;
    let ascii: Vec<char> = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
        .collect();
    let kebab = plural_acronyms_as_words(&ascii).to_kebab_case();
    if kebab.is_empty() {
        "tag".to_string()
    } else {
        kebab
    }
}

/// `IPs` as `Ips`, `IPv6` as `Ipv6`: heck splits an upper-case run before a
/// lower-case letter (`HTTPServer` is `http-server`), which cuts an
/// acronym's plural `s` or version letter off as a word of its own (`i-ps`,
/// `i-pv6`). A run of two or more capitals keeps the lower-case letters
/// after it when they are a lone `s` or are followed by a digit.
fn plural_acronyms_as_words(text: &[char]) -> String {
    let mut out: Vec<char> = text.to_vec();
    let mut run_start = None;
    for (index, &c) in text.iter().enumerate() {
        if c.is_ascii_uppercase() {
            run_start.get_or_insert(index);
            continue;
        }
        let Some(start) = run_start.take() else {
            continue;
        };
        let tail = text[index..]
            .iter()
            .take_while(|c| c.is_ascii_lowercase())
            .count();
        let after = text.get(index + tail);
        let kept = (tail == 1 && c == 's') || (tail > 0 && after.is_some_and(char::is_ascii_digit));
        if index - start >= 2 && kept {
            for letter in &mut out[start + 1..index] {
                *letter = letter.to_ascii_lowercase();
            }
        }
    }
    out.into_iter().collect()
}

/// The name of a type the server emitter derives from an operation, such as
/// its response enum (`get_widget` and `Response` give `GetWidgetResponse`).
pub fn operation_type_name(operation: &str, suffix: &str) -> String {
    type_name(&format!("{operation}-{suffix}"))
}

/// The response-enum variant of a status: its reason phrase
/// (`TooManyRequests`) when it has a standard one, else `Status420`, so every
/// code from 100 to 599 has a distinct variant.
pub fn status_variant(status: u16) -> String {
    match http::StatusCode::from_u16(status)
        .ok()
        .and_then(|code| code.canonical_reason())
    {
        Some(reason) => type_name(reason),
        None => format!("Status{status}"),
    }
}

/// The response-enum variant of a status range (`4XX` is class 4): the
/// class's name in RFC 9110 (`ClientError`), which no reason phrase is.
pub fn range_variant(class: u16) -> String {
    match class {
        1 => "Informational".into(),
        2 => "Success".into(),
        3 => "Redirection".into(),
        4 => "ClientError".into(),
        5 => "ServerError".into(),
        other => format!("Status{other}XX"),
    }
}

/// The identifier for a name this module produced.
pub fn ident(name: &str) -> Ident {
    quote::format_ident!("{}", name)
}

#[derive(Clone, Copy)]
enum Case {
    Pascal,
    Snake,
}

/// Typify's and progenitor's `sanitize` (they differ only in `prefix`).
fn sanitize(input: &str, case: Case, prefix: &str) -> String {
    let to_case = |text: &str| match case {
        Case::Pascal => text.to_pascal_case(),
        Case::Snake => text.to_snake_case(),
    };
    let out = match input {
        "+1" => "plus1".to_string(),
        "-1" => "minus1".to_string(),
        _ => to_case(
            &input
                .replace('\'', "")
                .replace(|c: char| !is_xid_continue(c), "-"),
        ),
    };
    let out = match out.chars().next() {
        None => to_case("x"),
        Some(c) if is_xid_start(c) => out,
        Some(_) => format!("{prefix}{out}"),
    };
    if typify::accept_as_ident(&out) {
        out
    } else {
        format!("{out}_")
    }
}

/// A rule turning a spec name into an identifier ([`type_name`],
/// [`field_name`], [`method_name`]).
pub type Conversion = fn(&str) -> String;

/// The names to make identifiers from, for the spec names of one scope (the
/// schemas of a spec, the properties of an object, the parameters of an
/// operation), so that no two become one identifier under any of
/// `conversions`. Each name is kept unless an earlier one of the scope
/// already converts to its identifier; then it gets the first suffix `-2`,
/// `-3`, ... whose identifiers are free (`foo_bar` after `fooBar` is
/// `foo_bar-2`, so `foo_bar_2` and `FooBar2`). Identifiers that a later name
/// converts to as it is are never given to a suffixed one, so the result
/// depends on the names and their order only.
///
/// Identifiers are ASCII whatever the description's script: a name whose
/// identifier would not be is read through [`ascii_source`] first (`с`,
/// Cyrillic, is `u0441`, which no Latin `c` can be mistaken for).
pub fn distinct(names: &[&str], conversions: &[Conversion]) -> Vec<String> {
    let identifiers = |name: &str| -> Vec<String> {
        conversions
            .iter()
            .map(|conversion| conversion(name))
            .collect()
    };
    let sources: Vec<String> = names
        .iter()
        .map(|name| {
            if identifiers(name).iter().all(|id| id.is_ascii()) {
                name.to_string()
            } else {
                ascii_source(name)
            }
        })
        .collect();
    let names: Vec<&str> = sources.iter().map(String::as_str).collect();
    let names = names.as_slice();
    let plain: Vec<Vec<String>> = names.iter().map(|name| identifiers(name)).collect();
    let mut given: Vec<BTreeSet<String>> = vec![BTreeSet::new(); conversions.len()];
    let is_free = |given: &[BTreeSet<String>], ids: &[String]| {
        ids.iter().zip(given).all(|(id, given)| !given.contains(id))
    };
    let mut result = Vec::with_capacity(names.len());
    for (index, name) in names.iter().enumerate() {
        let chosen = if is_free(&given, &plain[index]) {
            name.to_string()
        } else {
            (2..)
                .map(|suffix| format!("{name}-{suffix}"))
                .find(|candidate| {
                    let ids = identifiers(candidate);
                    is_free(&given, &ids)
                        && !plain[index + 1..]
                            .iter()
                            .any(|later| later.iter().zip(&ids).any(|(a, b)| a == b))
                })
                .expect("some suffix is free")
        };
        for (set, id) in given.iter_mut().zip(identifiers(&chosen)) {
            set.insert(id);
        }
        result.push(chosen);
    }
    result
}

/// `name` with each character outside ASCII spelled by its code point
/// between word breaks (`имя` is `-u0438-u043c-u044f-`): a name every
/// conversion turns into an ASCII identifier, one per spelling.
pub fn ascii_source(name: &str) -> String {
    let mut source = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii() {
            source.push(c);
        } else {
            source.push_str(&format!("-u{:04x}-", u32::from(c)));
        }
    }
    source
}

/// The variant names typify gives a string enum's values: each value in
/// UpperCamelCase, or, when two of those clash, with the characters that
/// case conversion drops spelled `X`; `None` when they still clash (typify
/// panics then, and [`variant_names`] names the variants instead).
pub fn typify_variant_names(values: &[&str]) -> Option<Vec<String>> {
    let plain: Vec<String> = values.iter().map(|value| type_name(value)).collect();
    if all_distinct(&plain) {
        return Some(plain);
    }
    let spelled: Vec<String> = values
        .iter()
        .map(|value| type_name(&value.replace(|c: char| c == '_' || !is_xid_continue(c), "X")))
        .collect();
    all_distinct(&spelled).then_some(spelled)
}

/// Distinct, readable variant names for the values of a string enum whose
/// names typify cannot make, as the text each name is converted from by
/// [`type_name`]; `None` when typify's own names ([`typify_variant_names`])
/// are distinct and UpperCamelCase. Each value in UpperCamelCase, where that
/// clashes the punctuation spelled as words (`.` is `Dot`, `""` is `Empty`,
/// `a-b` is `AMinusB`), and where values still clash (`asc` beside `ASC`)
/// every later one with a number (`Asc2`), in document order. Typify's rule
/// turns `+1` and `-1` into `plus1` and `minus1`, which rustc rejects as
/// variant names: they are `Plus1` and `Minus1`.
pub fn variant_sources(values: &[&str]) -> Option<Vec<String>> {
    let signed_one = |value: &&str| matches!(*value, "+1" | "-1");
    let ascii = |value: &&str| type_name(value).is_ascii();
    if typify_variant_names(values).is_some()
        && !values.iter().any(signed_one)
        && values.iter().all(ascii)
    {
        return None;
    }
    let plain: Vec<String> = values.iter().map(|value| type_name(value)).collect();
    let mut sources: Vec<String> = values
        .iter()
        .zip(&plain)
        .map(|(value, name)| {
            // Identifiers are ASCII whatever the description's script.
            if !name.is_ascii() {
                return ascii_source(value);
            }
            let clashes = plain.iter().filter(|other| *other == name).count() > 1;
            let has_punctuation =
                value.is_empty() || value.chars().any(|c| !c.is_alphanumeric() && c != '_');
            if (clashes && has_punctuation) || signed_one(value) {
                spelled(value)
            } else {
                value.to_string()
            }
        })
        .collect();
    let names: Vec<String> = sources.iter().map(|source| type_name(source)).collect();
    let mut given = BTreeSet::new();
    for index in 0..sources.len() {
        if given.insert(names[index].clone()) {
            continue;
        }
        let later = &names[index + 1..];
        let (source, name) = (2..)
            .map(|suffix| {
                let source = format!("{}-{suffix}", sources[index]);
                let name = type_name(&source);
                (source, name)
            })
            .find(|(_, name)| !given.contains(name) && !later.contains(name))
            .expect("some suffix is free");
        given.insert(name);
        sources[index] = source;
    }
    Some(sources)
}

/// The variant names of a string enum's values: [`variant_sources`]
/// converted, or typify's own.
pub fn variant_names(values: &[&str]) -> Vec<String> {
    match variant_sources(values) {
        Some(sources) => sources.iter().map(|source| type_name(source)).collect(),
        None => typify_variant_names(values).unwrap_or_default(),
    }
}

/// A value with its punctuation spelled as words, between word breaks
/// (`a.b` is `a-Dot-b`), or `Empty`.
fn spelled(value: &str) -> String {
    if value.is_empty() {
        return "Empty".to_string();
    }
    let mut words = String::new();
    for c in value.chars() {
        if c.is_alphanumeric() || c == '_' {
            words.push(c);
        } else {
            words.push('-');
            match punctuation_word(c) {
                Some(word) => words.push_str(word),
                None => words.push_str(&format!("U{:04X}", u32::from(c))),
            }
            words.push('-');
        }
    }
    words
}

fn punctuation_word(c: char) -> Option<&'static str> {
    Some(match c {
        '.' => "Dot",
        ',' => "Comma",
        ':' => "Colon",
        ';' => "Semicolon",
        '+' => "Plus",
        '-' => "Minus",
        '*' => "Star",
        '/' => "Slash",
        '\\' => "Backslash",
        '|' => "Pipe",
        '&' => "Ampersand",
        '=' => "Equals",
        '<' => "LessThan",
        '>' => "GreaterThan",
        '!' => "Bang",
        '?' => "Question",
        '#' => "Hash",
        '@' => "At",
        '$' => "Dollar",
        '%' => "Percent",
        '^' => "Caret",
        '~' => "Tilde",
        '`' => "Backtick",
        '\'' => "Apostrophe",
        '"' => "Quote",
        '(' => "OpenParen",
        ')' => "CloseParen",
        '[' => "OpenBracket",
        ']' => "CloseBracket",
        '{' => "OpenBrace",
        '}' => "CloseBrace",
        ' ' => "Space",
        _ => return None,
    })
}

fn all_distinct(names: &[String]) -> bool {
    let mut seen = BTreeSet::new();
    names.iter().all(|name| seen.insert(name))
}

/// The package names of the three generated crates: `{prefix}-types`,
/// `{prefix}-client` and `{prefix}-server`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrateNames {
    pub types: String,
    pub client: String,
    pub server: String,
}

impl CrateNames {
    /// The names for `prefix`, which [`crate_prefix_error`] accepts.
    pub fn with_prefix(prefix: &str) -> Self {
        Self {
            types: format!("{prefix}-types"),
            client: format!("{prefix}-client"),
            server: format!("{prefix}-server"),
        }
    }

    /// The names an API titled `title` gets when nothing else is said: the
    /// title's words (runs of ASCII letters and digits) in lower case, joined
    /// by `-`. A word is not split at its capitals, so a brand reads as
    /// written: `Swagger Petstore` gives `swagger-petstore-types`, `GitHub
    /// v3 REST API` gives `github-v3-rest-api-types`.
    pub fn from_title(title: &str) -> Self {
        // A word with other letters is left out rather than mangled.
        let words: Vec<String> = title
            .split(|c: char| c.is_whitespace() || (c.is_ascii_punctuation() && c != '\''))
            .map(|word| word.replace('\'', ""))
            .filter(|word| !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric()))
            .map(|word| word.to_ascii_lowercase())
            .collect();
        let mut prefix = words.join("-");
        // A package name starts with a letter.
        if !prefix.starts_with(|c: char| c.is_ascii_alphabetic()) {
            prefix = if prefix.is_empty() {
                "api".to_string()
            } else {
                format!("api-{prefix}")
            };
        }
        Self::with_prefix(&prefix)
    }
}

/// Why `prefix` cannot start a package name, if it cannot: ASCII letters,
/// digits, `-` and `_`, starting with a letter.
pub fn crate_prefix_error(prefix: &str) -> Option<String> {
    let valid = prefix.starts_with(|c: char| c.is_ascii_alphabetic())
        && prefix
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    (!valid).then(|| {
        format!(
            "the crate prefix `{prefix}` must start with an ASCII letter and hold only \
             ASCII letters, digits, `-` and `_`"
        )
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn crate_names_follow_the_title() {
        for (title, types) in [
            ("Swagger Petstore", "swagger-petstore-types"),
            (
                "Discord HTTP API (Preview)",
                "discord-http-api-preview-types",
            ),
            ("USPTO Data Set API", "uspto-data-set-api-types"),
            ("GitHub v3 REST API", "github-v3-rest-api-types"),
            ("DigitalOcean API", "digitalocean-api-types"),
            ("Let's Encrypt ACME", "lets-encrypt-acme-types"),
            ("petstore_api", "petstore-api-types"),
            ("1Password Connect", "api-1password-connect-types"),
            ("Café API", "api-types"),
            ("Ünïcode ✓", "api-types"),
            ("", "api-types"),
        ] {
            assert_eq!(CrateNames::from_title(title).types, types, "{title:?}");
        }
        let names = CrateNames::with_prefix("tenant-api");
        assert_eq!(
            [names.types, names.client, names.server],
            ["tenant-api-types", "tenant-api-client", "tenant-api-server"]
        );
        assert!(crate_prefix_error("my_api-2").is_none());
        for bad in ["", "2api", "my api", "my/api", "ä"] {
            assert!(crate_prefix_error(bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn feature_names_keep_plural_acronyms_whole() {
        for (tag, feature) in [
            ("Floating IPs", "floating-ips"),
            ("ReservedIPs", "reserved-ips"),
            ("APIs", "apis"),
            ("SSHKeys", "ssh-keys"),
            ("HTTPServer", "http-server"),
            ("OAuth Clients", "o-auth-clients"),
            ("IPsec", "i-psec"),
            ("Reserved IPv6 Actions", "reserved-ipv6-actions"),
            ("APIv2Keys", "apiv2-keys"),
            ("VPC NAT Gateways", "vpc-nat-gateways"),
            ("1-Click Applications", "1-click-applications"),
            ("Token Exchange Profiles", "token-exchange-profiles"),
            ("!!", "tag"),
        ] {
            assert_eq!(feature_name(tag), feature, "{tag}");
        }
    }

    #[test]
    fn type_names_of_any_spelling() {
        for (name, expected) in [
            ("Widget", "Widget"),
            ("widget-v2", "WidgetV2"),
            ("event_stream", "EventStream"),
            ("eventStream", "EventStream"),
            ("Client.Addon", "ClientAddon"),
            ("ClientAddonAWS", "ClientAddonAws"),
            ("2fa", "X2fa"),
            ("", "X"),
            ("Self", "Self_"),
            ("type", "Type"),
        ] {
            assert_eq!(type_name(name), expected, "{name}");
        }
    }

    #[test]
    fn keywords_get_a_trailing_underscore() {
        for keyword in ["type", "match", "ref", "self", "crate", "async", "gen"] {
            assert_eq!(method_name(keyword), format!("{keyword}_"));
            assert_eq!(field_name(keyword), format!("{keyword}_"));
        }
        assert_eq!(method_name("get_bot-detection"), "get_bot_detection");
        assert_eq!(method_name("getBotDetection"), "get_bot_detection");
        assert_eq!(method_name("2fa"), "_2fa");
        assert_eq!(field_name("2fa"), "x2fa");
    }

    #[test]
    fn every_name_is_an_identifier() {
        for name in [
            "type", "a b", "ü-x", "+1", "-1", "x'y", "Self", "_", "1", "",
        ] {
            for converted in [type_name(name), field_name(name), method_name(name)] {
                assert!(
                    syn::parse_str::<syn::Ident>(&converted).is_ok(),
                    "{name:?} became {converted:?}"
                );
            }
        }
    }

    #[test]
    fn every_status_has_a_distinct_variant() {
        let mut seen = BTreeMap::new();
        for status in 100..=599 {
            let variant = status_variant(status);
            assert!(syn::parse_str::<syn::Ident>(&variant).is_ok(), "{variant}");
            if let Some(other) = seen.insert(variant.clone(), status) {
                panic!("{status} and {other} both become {variant}");
            }
        }
        for class in 1..=5 {
            let variant = range_variant(class);
            assert!(
                !seen.contains_key(&variant),
                "{class}XX is {variant}, a status's name"
            );
            assert!(variant != "Default" && variant != "Unimplemented" && variant != "Any");
        }
        assert_eq!(status_variant(429), "TooManyRequests");
        assert_eq!(status_variant(420), "Status420");
        assert_eq!(status_variant(200), "Ok");
        assert_eq!(range_variant(4), "ClientError");
    }

    #[test]
    fn operation_types_follow_the_type_rule() {
        assert_eq!(
            operation_type_name("get_widget", "Response"),
            "GetWidgetResponse"
        );
        assert_eq!(operation_type_name("match", "Response"), "MatchResponse");
    }

    #[test]
    fn colliding_names_get_the_first_free_suffix_in_order() {
        let fields: &[Conversion] = &[field_name];
        assert_eq!(
            distinct(&["fooBar", "foo_bar", "other"], fields),
            ["fooBar", "foo_bar-2", "other"]
        );
        // A later name keeps its own identifier: the suffix skips it.
        assert_eq!(
            distinct(&["fooBar", "foo_bar", "foo_bar_2"], fields),
            ["fooBar", "foo_bar-3", "foo_bar_2"]
        );
        // The same spelling twice (a query and a header parameter) is two names.
        assert_eq!(distinct(&["id", "id"], fields), ["id", "id-2"]);
        // Under several rules, a clash under any of them counts.
        let both: &[Conversion] = &[method_name, type_name];
        assert_eq!(distinct(&["a_b2", "a_b_2"], both), ["a_b2", "a_b_2-2"]);
        let converted: Vec<String> = distinct(&["widgetId", "widget_id", "WidgetId"], fields)
            .iter()
            .map(|name| field_name(name))
            .collect();
        assert_eq!(converted, ["widget_id", "widget_id_2", "widget_id_3"]);
        assert_eq!(type_name("eventStream-2"), "EventStream2");
    }

    #[test]
    fn enum_variants_keep_typify_names_where_typify_copes() {
        assert_eq!(variant_names(&["exact", "prefix"]), ["Exact", "Prefix"]);
        // Typify's own fallback spells the dropped characters `X`.
        assert_eq!(
            typify_variant_names(&["foo_bar", "fooBar"]),
            Some(vec!["FooXbar".to_string(), "FooBar".to_string()])
        );
        assert_eq!(typify_variant_names(&["X", "O", "."]), None);
        // Typify's `plus1` is no variant name rustc accepts.
        assert_eq!(
            typify_variant_names(&["+1", "-1", "laugh"]),
            Some(vec!["plus1".into(), "minus1".into(), "Laugh".into()])
        );
        assert_eq!(
            variant_names(&["+1", "-1", "laugh"]),
            ["Plus1", "Minus1", "Laugh"]
        );
    }

    #[test]
    fn clashing_enum_values_get_readable_distinct_variants() {
        assert_eq!(
            variant_names(&["X", "O", ".", ""]),
            ["X", "O", "Dot", "Empty"]
        );
        assert_eq!(
            variant_names(&["ASC", "DESC", "asc", "desc"]),
            ["Asc", "Desc", "Asc2", "Desc2"]
        );
        assert_eq!(
            variant_names(&["a-b", "a b", "a_b", "a.b", ">=", "+"]),
            [
                "AMinusB",
                "ASpaceB",
                "AB",
                "ADotB",
                "GreaterThanEquals",
                "Plus"
            ]
        );
        // A number never takes a name another value has as it is; a name
        // is ASCII whatever the value's script.
        assert_eq!(
            variant_names(&["a", "A", "a2", "é"]),
            ["A", "A3", "A2", "U00e9"]
        );
        for names in [
            variant_names(&["", "_", "-", "ü", "\u{1F600}", "Self", "self"]),
            variant_names(&["1", "+1", "-1", "1.0", "1_0"]),
        ] {
            let unique: BTreeSet<&String> = names.iter().collect();
            assert_eq!(unique.len(), names.len(), "{names:?}");
            for name in &names {
                assert!(syn::parse_str::<syn::Ident>(name).is_ok(), "{name}");
            }
        }
    }
}
