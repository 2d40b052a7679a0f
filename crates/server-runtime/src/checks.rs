//! The rule checks generated validators call, one function per rule of
//! JSON Schema the generator supports. Each takes the [`Location`] of the
//! value in the body and adds a message naming it and the rule to `out` when
//! the value breaks it.

use std::fmt;

use crate::json::{Object, Value};

/// One broken rule: where (a JSON Pointer into the body), which rule (a
/// stable code) and a sentence naming the field and the rule. The submitted
/// value is never repeated in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The JSON Pointer into the body; empty for a parameter.
    pub pointer: String,
    /// The broken parameter (`in` and `name`), when it is not the body.
    pub parameter: Option<(&'static str, String)>,
    pub code: &'static str,
    pub detail: String,
}

/// The rules a body broke, in the order they were found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Violations(Vec<Violation>);

impl Violations {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many rules were broken so far.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Records that the value at `at` broke rule `code`.
    pub fn add(&mut self, at: &Location, code: &'static str, detail: String) {
        let parameter = at.parameter();
        self.0.push(Violation {
            pointer: match parameter {
                Some(_) => String::new(),
                None => at.pointer(),
            },
            parameter,
            code,
            detail,
        });
    }

    /// Records `broken` as one violation with the spec's own `message`
    /// (`x-validation-message`), at the place and rule of the first.
    pub fn add_with_message(&mut self, broken: Violations, message: &str) {
        if let Some(first) = broken.0.into_iter().next() {
            self.0.push(Violation {
                detail: message.to_string(),
                ..first
            });
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Violation> {
        self.0.iter()
    }
}

impl IntoIterator for Violations {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// Where a value is in the body: a chain of property names and list
/// positions, kept on the stack as validation descends. It is spelled out
/// (`destination.configuration.url`, `list[2]`) only when a rule is broken,
/// so a valid body costs no allocation for it.
#[derive(Debug, Clone, Copy)]
pub enum Location<'a> {
    /// The body itself.
    Body,
    /// The parameter `name` in the path, the query or a header (`in`).
    Parameter(&'static str, &'a str),
    /// Property `name` of the value at the first location.
    Property(&'a Location<'a>, &'a str),
    /// Item `position` of the list at the first location.
    Item(&'a Location<'a>, usize),
}

impl<'a> Location<'a> {
    /// Property `name` of the value here.
    pub fn property(&'a self, name: &'a str) -> Location<'a> {
        Location::Property(self, name)
    }

    /// Item `position` of the list here.
    pub fn item(&'a self, position: usize) -> Location<'a> {
        Location::Item(self, position)
    }

    /// The JSON Pointer (RFC 6901) of the value: `/destination/url`, `/list/2`.
    pub fn pointer(&self) -> String {
        let mut pointer = String::new();
        self.write_pointer(&mut pointer);
        pointer
    }

    fn write_pointer(&self, out: &mut String) {
        match self {
            Location::Body | Location::Parameter(..) => {}
            Location::Property(parent, name) => {
                parent.write_pointer(out);
                out.push('/');
                for c in name.chars() {
                    match c {
                        '~' => out.push_str("~0"),
                        '/' => out.push_str("~1"),
                        c => out.push(c),
                    }
                }
            }
            Location::Item(parent, position) => {
                parent.write_pointer(out);
                out.push('/');
                out.push_str(&position.to_string());
            }
        }
    }

    /// Where the parameter the value is part of travels, if it is one.
    fn parameter_location(&self) -> Option<&'static str> {
        match self {
            Location::Body => None,
            Location::Parameter(location, _) => Some(location),
            Location::Property(parent, _) | Location::Item(parent, _) => {
                parent.parameter_location()
            }
        }
    }

    /// The parameter (`in` and `name`) the value is part of, if any.
    pub fn parameter(&self) -> Option<(&'static str, String)> {
        match self {
            Location::Body => None,
            Location::Parameter(location, name) => Some((location, name.to_string())),
            Location::Property(parent, _) | Location::Item(parent, _) => parent.parameter(),
        }
    }
}

/// `destination.configuration.url`, `list[2]`; empty for the body.
impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Body => Ok(()),
            Location::Parameter(_, name) => f.write_str(name),
            // A property may be named "": spelled as such, not as nothing.
            Location::Property(Location::Body, "") => f.write_str("\"\""),
            Location::Property(parent, "") => write!(f, "{parent}.\"\""),
            Location::Property(Location::Body, name) => f.write_str(name),
            Location::Property(parent, name) => write!(f, "{parent}.{name}"),
            Location::Item(parent, position) => write!(f, "{parent}[{position}]"),
        }
    }
}

/// `the body`, the quoted path, or for a parameter `query parameter 'take'`:
/// written straight into the message.
pub(crate) fn describe<'a>(at: &'a Location<'a>) -> impl fmt::Display + 'a {
    struct Described<'a>(&'a Location<'a>);
    impl fmt::Display for Described<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match (self.0, self.0.parameter_location()) {
                (Location::Body, _) => f.write_str("the body"),
                (at, Some(location)) => write!(f, "{location} parameter '{at}'"),
                (at, None) => write!(f, "'{at}'"),
            }
        }
    }
    Described(at)
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn wrong_kind(value: &Value, at: &Location, expected: &str, out: &mut Violations) {
    out.add(
        at,
        "type",
        format!(
            "{} must be {expected}, not {}",
            describe(at),
            kind_of(value)
        ),
    );
}

pub fn expect_object<'v, 'a>(
    value: &'v Value<'a>,
    at: &Location,
    out: &mut Violations,
) -> Option<&'v Object<'a>> {
    let object = value.as_object();
    if object.is_none() {
        wrong_kind(value, at, "an object", out);
    }
    object
}

pub fn expect_array<'v, 'a>(
    value: &'v Value<'a>,
    at: &Location,
    out: &mut Violations,
) -> Option<&'v [Value<'a>]> {
    let items = value.as_array();
    if items.is_none() {
        wrong_kind(value, at, "a list", out);
    }
    items
}

pub fn expect_string<'v>(value: &'v Value, at: &Location, out: &mut Violations) -> Option<&'v str> {
    let text = value.as_str();
    if text.is_none() {
        wrong_kind(value, at, "a string", out);
    }
    text
}

pub fn expect_integer(value: &Value, at: &Location, out: &mut Violations) -> Option<f64> {
    let number = match value {
        Value::Number(number) => number
            .as_i64()
            .map(|n| n as f64)
            .or_else(|| number.as_u64().map(|n| n as f64)),
        _ => None,
    };
    if number.is_none() {
        wrong_kind(value, at, "an integer", out);
    }
    number
}

pub fn expect_number(value: &Value, at: &Location, out: &mut Violations) -> Option<f64> {
    let number = match value {
        Value::Number(number) => number.as_f64(),
        _ => None,
    };
    if number.is_none() {
        wrong_kind(value, at, "a number", out);
    }
    number
}

pub fn expect_boolean(value: &Value, at: &Location, out: &mut Violations) {
    if !matches!(value, Value::Bool(_)) {
        wrong_kind(value, at, "a boolean", out);
    }
}

pub fn required(object: &Object, at: &Location, names: &[&str], out: &mut Violations) {
    for name in names {
        if !object.contains_key(name) {
            let at = at.property(name);
            out.add(&at, "required", format!("{} is required", describe(&at)));
        }
    }
}

pub fn no_other_properties(object: &Object, at: &Location, known: &[&str], out: &mut Violations) {
    for name in object.keys() {
        if !known.contains(&name) {
            let at = at.property(name);
            out.add(
                &at,
                "additional_property",
                format!("{} is not an allowed property", describe(&at)),
            );
        }
    }
}

// Lengths count characters, stopping as soon as the answer is known: a
// string of `n` bytes has at most `n` characters.

pub fn min_length(text: &str, min: usize, at: &Location, out: &mut Violations) {
    let short = min > 0 && (text.len() < min || text.chars().nth(min - 1).is_none());
    if short {
        out.add(
            at,
            "min_length",
            format!("{} must be at least {min} characters long", describe(at)),
        );
    }
}

pub fn max_length(text: &str, max: usize, at: &Location, out: &mut Violations) {
    if text.len() > max && text.chars().nth(max).is_some() {
        out.add(
            at,
            "max_length",
            format!("{} must be at most {max} characters long", describe(at)),
        );
    }
}

pub fn one_of_values(text: &str, allowed: &[&str], at: &Location, out: &mut Violations) {
    if !allowed.contains(&text) {
        out.add(
            at,
            "enum",
            format!("{} must be one of: {}", describe(at), allowed.join(", ")),
        );
    }
}

pub fn min_properties(object: &Object, min: usize, at: &Location, out: &mut Violations) {
    if object.len() < min {
        let noun = if min == 1 { "property" } else { "properties" };
        out.add(
            at,
            "min_properties",
            format!("{} must have at least {min} {noun}", describe(at)),
        );
    }
}

pub fn max_properties(object: &Object, max: usize, at: &Location, out: &mut Violations) {
    if object.len() > max {
        let noun = if max == 1 { "property" } else { "properties" };
        out.add(
            at,
            "max_properties",
            format!("{} must have at most {max} {noun}", describe(at)),
        );
    }
}

pub fn min_items(items: &[Value], min: usize, at: &Location, out: &mut Violations) {
    if items.len() < min {
        let noun = if min == 1 { "item" } else { "items" };
        out.add(
            at,
            "min_items",
            format!("{} must contain at least {min} {noun}", describe(at)),
        );
    }
}

pub fn max_items(items: &[Value], max: usize, at: &Location, out: &mut Violations) {
    if items.len() > max {
        let noun = if max == 1 { "item" } else { "items" };
        out.add(
            at,
            "max_items",
            format!("{} must contain at most {max} {noun}", describe(at)),
        );
    }
}

pub fn minimum(number: f64, min: f64, at: &Location, out: &mut Violations) {
    if number < min {
        out.add(
            at,
            "minimum",
            format!("{} must be at least {min}", describe(at)),
        );
    }
}

pub fn maximum(number: f64, max: f64, at: &Location, out: &mut Violations) {
    if number > max {
        out.add(
            at,
            "maximum",
            format!("{} must be at most {max}", describe(at)),
        );
    }
}

pub fn exclusive_minimum(number: f64, min: f64, at: &Location, out: &mut Violations) {
    if number <= min {
        out.add(
            at,
            "exclusive_minimum",
            format!("{} must be greater than {min}", describe(at)),
        );
    }
}

pub fn exclusive_maximum(number: f64, max: f64, at: &Location, out: &mut Violations) {
    if number >= max {
        out.add(
            at,
            "exclusive_maximum",
            format!("{} must be less than {max}", describe(at)),
        );
    }
}

/// A compiled `pattern` (an ECMA-262 regular expression, as JSON Schema and
/// the generated types read it). Generated validators keep one in a static.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    engine: Engine,
}

#[derive(Debug)]
enum Engine {
    /// ECMA-262 itself, by backtracking.
    Regress(regress::Regex),
    /// An automaton, several times cheaper per match, for the patterns the
    /// generator translated.
    Regex(regex::Regex),
}

impl Pattern {
    /// Compiles `source` with regress. The generator refuses a spec whose
    /// pattern does not compile, so generated code never reaches the panic.
    pub fn new(source: &'static str) -> Self {
        let regex = regress::Regex::new(source)
            .unwrap_or_else(|err| panic!("invalid pattern {source:?}: {err}"));
        Self {
            source,
            engine: Engine::Regress(regex),
        }
    }

    /// The pattern `source`, matched by `translated`, its spelling in the
    /// syntax of the `regex` crate. The caller vouches that both accept
    /// exactly the same strings: the generator translates only a grammar
    /// whose meaning is the same in both (`model::pattern` in the generator).
    /// `source` is still what messages name.
    pub fn translated(source: &'static str, translated: &str) -> Self {
        let regex = regex::Regex::new(translated)
            .unwrap_or_else(|err| panic!("invalid pattern {translated:?}: {err}"));
        Self {
            source,
            engine: Engine::Regex(regex),
        }
    }

    /// Whether the pattern matches somewhere in `text` (JSON Schema's
    /// `pattern` is not anchored; a spec anchors it with `^` and `$`).
    pub fn matches(&self, text: &str) -> bool {
        match &self.engine {
            Engine::Regress(regex) => regex.find(text).is_some(),
            Engine::Regex(regex) => regex.is_match(text),
        }
    }
}

/// The string must match the `pattern`. The detail names the pattern, which
/// comes from the spec, never the submitted text.
pub fn pattern(text: &str, pattern: &Pattern, at: &Location, out: &mut Violations) {
    if !pattern.matches(text) {
        out.add(
            at,
            "pattern",
            format!("{} must match the pattern {}", describe(at), pattern.source),
        );
    }
}

/// Checks the formats with a defined syntax; others are documentation only.
pub fn format(text: &str, format: &str, at: &Location, out: &mut Violations) {
    let valid = match format {
        "url" | "uri" => is_uri(text),
        "date-time" => chrono::DateTime::parse_from_rfc3339(text).is_ok(),
        _ => true,
    };
    if !valid {
        out.add(
            at,
            "format",
            format!("{} must be a valid {format}", describe(at)),
        );
    }
}

/// An absolute URI (RFC 3986, section 4.3): a scheme (a letter, then
/// letters, digits, `+`, `-` or `.`), a colon, and a non-empty rest made only
/// of the characters a URI may hold (unreserved, reserved, and `%` with two
/// hex digits). Spaces, control characters, non-ASCII text and characters
/// such as `<`, `>`, `"`, `{`, `}`, `|`, `\` and `^`
/// are refused.
fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    let scheme_ok = chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    if !scheme_ok || rest.is_empty() {
        return false;
    }
    let bytes = rest.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        if byte == b'%' {
            let hex = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(index + 1) && hex(index + 2)) {
                return false;
            }
            index += 3;
            continue;
        }
        let allowed = byte.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&byte);
        if !allowed {
            return false;
        }
        index += 1;
    }
    true
}

/// A discriminator property that is missing or not a string.
pub fn required_string(object: &Object, at: &Location, name: &str, out: &mut Violations) {
    let at = at.property(name);
    match object.get(name) {
        None => out.add(&at, "required", format!("{} is required", describe(&at))),
        Some(value) => wrong_kind(value, &at, "a string", out),
    }
}

/// A list none of whose items has the shape `contains` asks for.
pub fn no_item_matches(at: &Location, out: &mut Violations) {
    out.add(
        at,
        "contains",
        format!(
            "{} must contain an item of the required shape",
            describe(at)
        ),
    );
}

/// A value that matches too few (or too many) of a `oneOf`/`anyOf`'s shapes.
pub fn shape_mismatch(at: &Location, expectation: &str, out: &mut Violations) {
    out.add(
        at,
        "shape",
        format!(
            "{} must match {expectation} of the allowed shapes",
            describe(at)
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The body tree of a `json!` literal.
    fn tree(value: serde_json::Value) -> Value<'static> {
        Value::from(value)
    }

    /// The details `check` reports.
    fn messages(check: impl FnOnce(&mut Violations)) -> Vec<String> {
        let mut out = Violations::new();
        check(&mut out);
        out.iter()
            .map(|violation| violation.detail.clone())
            .collect()
    }

    #[test]
    fn violations_carry_a_pointer_and_a_code() {
        let mut out = Violations::new();
        let parent = field("a");
        max_length("toolong", 3, &parent.property("b").item(1), &mut out);
        let object = tree(json!({}));
        required(object.as_object().unwrap(), &parent, &["c"], &mut out);
        let found: Vec<(&str, &str)> = out.iter().map(|v| (v.pointer.as_str(), v.code)).collect();
        assert_eq!(found, [("/a/b/1", "max_length"), ("/a/c", "required")]);

        let mut outer = Violations::new();
        outer.add_with_message(out, "custom message");
        let only: Vec<&Violation> = outer.iter().collect();
        assert_eq!(only.len(), 1);
        assert_eq!(
            (
                only[0].pointer.as_str(),
                only[0].code,
                only[0].detail.as_str()
            ),
            ("/a/b/1", "max_length", "custom message")
        );
    }

    /// Property `name` of the body.
    fn field(name: &'static str) -> Location<'static> {
        Location::Property(&Location::Body, name)
    }

    #[test]
    fn locations_read_like_paths_and_pointers() {
        let a = field("a");
        let b = a.property("b/c");
        let item = b.item(2);
        assert_eq!(a.to_string(), "a");
        assert_eq!(item.to_string(), "a.b/c[2]");
        assert_eq!(item.pointer(), "/a/b~1c/2");
        assert_eq!(Location::Body.pointer(), "");
        assert_eq!(field("").to_string(), "\"\"");
        assert_eq!(field("").pointer(), "/");
        assert_eq!(a.property("").to_string(), "a.\"\"");
        assert_eq!(
            messages(|out| {
                expect_string(&tree(json!(1)), &Location::Body, out);
            }),
            ["the body must be a string, not a number"]
        );
    }

    #[test]
    fn kinds_are_checked_and_named() {
        let at = &field("field");
        assert_eq!(
            messages(|out| {
                expect_object(&tree(json!([])), at, out);
            }),
            ["'field' must be an object, not a list"]
        );
        assert_eq!(
            messages(|out| {
                expect_array(&tree(json!({})), at, out);
            }),
            ["'field' must be a list, not an object"]
        );
        assert_eq!(
            messages(|out| {
                expect_integer(&tree(json!(1.5)), at, out);
            }),
            ["'field' must be an integer, not a number"]
        );
        assert_eq!(
            messages(|out| {
                expect_number(&tree(json!("1")), at, out);
            }),
            ["'field' must be a number, not a string"]
        );
        assert_eq!(
            messages(|out| expect_boolean(&tree(json!(null)), at, out)),
            ["'field' must be a boolean, not null"]
        );
        assert_eq!(
            expect_integer(&tree(json!(7)), at, &mut Violations::new()),
            Some(7.0)
        );
        assert!(
            messages(|out| {
                expect_object(&tree(json!({})), at, out);
            })
            .is_empty()
        );
    }

    #[test]
    fn required_and_unknown_properties() {
        let object = tree(json!({"a": 1, "z": 2}));
        let object = object.as_object().unwrap();
        assert_eq!(
            messages(|out| required(object, &field("p"), &["a", "b"], out)),
            ["'p.b' is required"]
        );
        assert_eq!(
            messages(|out| no_other_properties(object, &Location::Body, &["a"], out)),
            ["'z' is not an allowed property"]
        );
    }

    #[test]
    fn property_counts_name_the_object() {
        let object = tree(json!({"a": 1, "b": 2}));
        let object = object.as_object().unwrap();
        let at = Location::Body;
        let at = at.property("user_attributes");
        assert_eq!(
            messages(|out| {
                min_properties(object, 3, &at, out);
                max_properties(object, 1, &at, out);
                min_properties(object, 2, &at, out);
                max_properties(object, 2, &at, out);
            }),
            [
                "'user_attributes' must have at least 3 properties",
                "'user_attributes' must have at most 1 property"
            ]
        );
    }

    #[test]
    fn lengths_count_characters_not_bytes() {
        assert!(messages(|out| max_length("ééé", 3, &field("n"), out)).is_empty());
        assert_eq!(
            messages(|out| max_length("éééé", 3, &field("n"), out)),
            ["'n' must be at most 3 characters long"]
        );
        assert_eq!(
            messages(|out| min_length("ab", 3, &field("n"), out)),
            ["'n' must be at least 3 characters long"]
        );
        assert!(messages(|out| min_length("abc", 3, &field("n"), out)).is_empty());
        // Two bytes, one character.
        assert_eq!(
            messages(|out| min_length("é", 2, &field("n"), out)),
            ["'n' must be at least 2 characters long"]
        );
        assert!(messages(|out| min_length("éé", 2, &field("n"), out)).is_empty());
        assert!(messages(|out| min_length("", 0, &field("n"), out)).is_empty());
        assert!(messages(|out| max_length("", 0, &field("n"), out)).is_empty());
        assert_eq!(
            messages(|out| max_length("a", 0, &field("n"), out)),
            ["'n' must be at most 0 characters long"]
        );
    }

    #[test]
    fn enums_list_the_allowed_values() {
        assert_eq!(
            messages(|out| one_of_values("x", &["a", "b"], &field("t"), out)),
            ["'t' must be one of: a, b"]
        );
        assert!(messages(|out| one_of_values("a", &["a", "b"], &field("t"), out)).is_empty());
    }

    #[test]
    fn item_counts() {
        let items = [tree(json!(1)), tree(json!(2))];
        assert_eq!(
            messages(|out| min_items(&items, 3, &field("l"), out)),
            ["'l' must contain at least 3 items"]
        );
        assert_eq!(
            messages(|out| max_items(&items, 1, &field("l"), out)),
            ["'l' must contain at most 1 item"]
        );
        assert!(messages(|out| min_items(&items, 2, &field("l"), out)).is_empty());
    }

    #[test]
    fn number_bounds_inclusive_and_exclusive() {
        assert!(messages(|out| minimum(1.0, 1.0, &field("n"), out)).is_empty());
        assert_eq!(
            messages(|out| exclusive_minimum(1.0, 1.0, &field("n"), out)),
            ["'n' must be greater than 1"]
        );
        assert!(messages(|out| maximum(2.0, 2.0, &field("n"), out)).is_empty());
        assert_eq!(
            messages(|out| exclusive_maximum(2.0, 2.0, &field("n"), out)),
            ["'n' must be less than 2"]
        );
        assert_eq!(
            messages(|out| minimum(0.5, 1.0, &field("n"), out)),
            ["'n' must be at least 1"]
        );
        assert_eq!(
            messages(|out| maximum(3.0, 2.0, &field("n"), out)),
            ["'n' must be at most 2"]
        );
    }

    #[test]
    fn formats_with_a_syntax_are_checked() {
        for valid in [
            "https://example.com/a",
            "urn:partner:token",
            "mailto:a@b.c",
            "https://a/b?c=d&e=%2F#frag",
            "urn:ietf:params:oauth:token-type:jwt",
        ] {
            assert!(
                messages(|out| format(valid, "url", &field("u"), out)).is_empty(),
                "{valid}"
            );
        }
        for invalid in [
            "example.com",
            "1http://x",
            "https://a b",
            "https:",
            "https://a\u{7}b",
            "https://a\tb",
            "urn:a<b>",
            "https://a/{x}",
            "https://é.example",
            "https://a/%zz",
            "https://a/%4",
        ] {
            assert_eq!(
                messages(|out| format(invalid, "url", &field("u"), out)),
                ["'u' must be a valid url"],
                "{invalid}"
            );
        }
        assert!(
            messages(|out| format("2026-01-02T03:04:05Z", "date-time", &field("d"), out))
                .is_empty()
        );
        assert_eq!(
            messages(|out| format("2026-01-02", "date-time", &field("d"), out)),
            ["'d' must be a valid date-time"]
        );
        assert!(
            messages(|out| format("anything", "token-exchange-profile-id", &field("i"), out))
                .is_empty()
        );
    }

    #[test]
    fn patterns_search_the_text_and_name_the_rule_not_the_value() {
        let https = Pattern::new("^https://");
        assert!(
            messages(|out| pattern("https://hooks.example/x", &https, &field("e"), out)).is_empty()
        );
        assert_eq!(
            messages(|out| pattern("http://hooks.example/secret-path", &https, &field("e"), out)),
            ["'e' must match the pattern ^https://"]
        );
        // Not anchored unless the pattern says so, as in JSON Schema.
        let digits = Pattern::new("[0-9]{3}");
        assert!(digits.matches("ab123cd"));
        let exact = Pattern::new("^[0-9]{12}$");
        assert!(exact.matches("123456789012"));
        for wrong in [
            "12345678901",
            "1234567890123",
            "12345678901a",
            "123456789012\n",
        ] {
            assert!(!exact.matches(wrong), "{wrong:?}");
        }
        let mut out = Violations::new();
        pattern("x", &exact, &field("id"), &mut out);
        let found: Vec<(&str, &str)> = out.iter().map(|v| (v.pointer.as_str(), v.code)).collect();
        assert_eq!(found, [("/id", "pattern")]);
    }

    #[test]
    fn a_translated_pattern_is_named_by_its_source_and_matched_by_regex() {
        // `\d` is Unicode-aware in `regex`: the generator writes `[0-9]`.
        let exact = Pattern::translated(r"^\d{3}$", "^[0-9]{3}$");
        assert!(exact.matches("123"));
        for wrong in ["12", "1234", "١٢٣", "123\n"] {
            assert!(!exact.matches(wrong), "{wrong:?}");
        }
        assert!(Pattern::translated("[0-9]{3}", "[0-9]{3}").matches("ab123cd"));
        assert_eq!(
            messages(|out| pattern("12", &exact, &field("e"), out)),
            [r"'e' must match the pattern ^\d{3}$"]
        );
    }

    #[test]
    fn discriminators_and_shapes() {
        let object = tree(json!({"type": 1}));
        let object = object.as_object().unwrap();
        assert_eq!(
            messages(|out| required_string(object, &field("d"), "type", out)),
            ["'d.type' must be a string, not a number"]
        );
        assert_eq!(
            messages(|out| required_string(object, &field("d"), "kind", out)),
            ["'d.kind' is required"]
        );
        assert_eq!(
            messages(|out| no_item_matches(&field("l"), out)),
            ["'l' must contain an item of the required shape"]
        );
        assert_eq!(
            messages(|out| shape_mismatch(&field("d"), "exactly one", out)),
            ["'d' must match exactly one of the allowed shapes"]
        );
    }
}
