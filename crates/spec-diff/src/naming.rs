//! The Rust names the generators give to spec names, in one place so that
//! they can follow the generator's own naming rules when it exposes them.

use heck::{ToSnakeCase, ToUpperCamelCase};

/// A method, field or parameter name: `operationId`, property or parameter name.
pub fn method_name(spec_name: &str) -> String {
    spec_name.to_snake_case()
}

/// A struct field name: snake case, with a trailing underscore for Rust
/// keywords (`type` -> `type_`), as typify writes them.
pub fn field_name(spec_name: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else",
        "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod",
        "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait",
        "true", "type", "unsafe", "use", "where", "while", "yield",
    ];
    let name = spec_name.to_snake_case();
    if KEYWORDS.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}

/// A type or variant name: schema names, enum values, status reasons.
pub fn type_name(spec_name: &str) -> String {
    let name = spec_name.to_upper_camel_case();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("X{name}")
    } else {
        name
    }
}

/// The server's response variant for a status: its reason phrase
/// (`429` -> `TooManyRequests`), or `Status{code}` when it has none.
pub fn status_variant(status: &str) -> String {
    status
        .parse::<u16>()
        .ok()
        .and_then(|code| http::StatusCode::from_u16(code).ok())
        .and_then(|code| code.canonical_reason())
        .map(type_name)
        .unwrap_or_else(|| format!("Status{}", type_name(status)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_rust_conventions() {
        assert_eq!(method_name("createEventStream"), "create_event_stream");
        assert_eq!(type_name("event_stream"), "EventStream");
        assert_eq!(field_name("type"), "type_");
        assert_eq!(field_name("createdAt"), "created_at");
        assert_eq!(type_name("2fa"), "X2fa");
        assert_eq!(status_variant("429"), "TooManyRequests");
        assert_eq!(status_variant("201"), "Created");
        assert_eq!(status_variant("default"), "StatusDefault");
    }
}
