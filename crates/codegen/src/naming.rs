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
//! `foo_bar`); [`NameTable`] finds those collisions so the model stage can
//! report both places instead of letting rustc find a duplicate later.

use std::collections::BTreeMap;

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

/// Names already given within one scope (the schemas of a spec, the
/// properties of an object, the parameters of an operation), to find two
/// spec names that convert to the same identifier.
#[derive(Debug, Default)]
pub struct NameTable {
    given: BTreeMap<String, (String, String)>,
}

/// Two spec names, at two JSON pointers, that convert to one identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collision {
    pub identifier: String,
    pub first_name: String,
    pub first_pointer: String,
    pub second_name: String,
}

impl NameTable {
    /// Records that `name` (at `pointer`) becomes `identifier`; the earlier
    /// name when another one already became it.
    pub fn insert(
        &mut self,
        identifier: String,
        name: &str,
        pointer: &str,
    ) -> Result<(), Collision> {
        match self.given.get(&identifier) {
            Some((first_name, first_pointer)) if first_name != name => Err(Collision {
                identifier,
                first_name: first_name.clone(),
                first_pointer: first_pointer.clone(),
                second_name: name.to_string(),
            }),
            Some(_) => Ok(()),
            None => {
                self.given
                    .insert(identifier, (name.to_string(), pointer.to_string()));
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn collisions_name_both_spellings() {
        let mut table = NameTable::default();
        table.insert(field_name("fooBar"), "fooBar", "/a").unwrap();
        table
            .insert(field_name("fooBar"), "fooBar", "/a")
            .expect("the same name twice is no collision");
        let collision = table
            .insert(field_name("foo_bar"), "foo_bar", "/b")
            .unwrap_err();
        assert_eq!(collision.identifier, "foo_bar");
        assert_eq!(collision.first_name, "fooBar");
        assert_eq!(collision.first_pointer, "/a");
        assert_eq!(collision.second_name, "foo_bar");
    }
}
