//! Request plumbing shared by every generated handler: error bodies, bearer
//! tokens, body decoding by content type, and the checks behind validation.
//! Not generated from the spec: copied verbatim into each server crate.

use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value};

pub(crate) const JSON: &str = "application/json";
pub(crate) const FORM: &str = "application/x-www-form-urlencoded";

/// A response with the API's error body: `statusCode`, `error` (the reason
/// phrase), `message` and `errorCode`.
pub(crate) fn error_response(status: StatusCode, message: impl Into<String>, error_code: &str) -> Response {
    let body = serde_json::json!({
        "statusCode": status.as_u16(),
        "error": status.canonical_reason().unwrap_or("Error"),
        "message": message.into(),
        "errorCode": error_code,
    });
    (status, axum::Json(body)).into_response()
}

/// The token of an `Authorization: Bearer <token>` header.
pub(crate) fn bearer_token(headers: &HeaderMap) -> Result<&str, Response> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(error_response(
            StatusCode::UNAUTHORIZED,
            "Missing authentication: send an Authorization: Bearer <token> header",
            "missing_token",
        ));
    };
    let malformed = || {
        error_response(
            StatusCode::UNAUTHORIZED,
            "Bad HTTP authentication header format: expected Authorization: Bearer <token>",
            "malformed_token",
        )
    };
    let value = value.to_str().map_err(|_| malformed())?;
    let (scheme, token) = value.split_once(' ').ok_or_else(malformed)?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() || token.contains(' ') {
        return Err(malformed());
    }
    Ok(token)
}

/// The body as JSON, whichever of the `accepted` media types it came in.
pub(crate) fn decode_body(headers: &HeaderMap, body: &[u8], accepted: &[&str]) -> Result<Value, Response> {
    let unsupported = |found: &str| {
        error_response(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("Content-Type {found} is not supported; send one of: {}", accepted.join(", ")),
            "unsupported_media_type",
        )
    };
    let Some(content_type) = headers.get(header::CONTENT_TYPE) else {
        return Err(unsupported("(none)"));
    };
    let content_type = content_type.to_str().unwrap_or_default();
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    if !accepted.contains(&essence.as_str()) {
        return Err(unsupported(content_type));
    }
    let invalid = |message: String| error_response(StatusCode::BAD_REQUEST, message, "invalid_body");
    if essence == FORM {
        form_to_value(body).map_err(|err| invalid(format!("Invalid form body: {err}")))
    } else {
        serde_json::from_slice(body).map_err(|err| invalid(format!("Invalid JSON body: {err}")))
    }
}

/// Converts the validated JSON into the typed body. Validation has already
/// checked the spec's rules, so this fails only on something it cannot see.
pub(crate) fn into_typed<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, Response> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        let message = if path == "." {
            format!("Payload validation error: {}", err.inner())
        } else {
            format!("Payload validation error: '{path}': {}", err.inner())
        };
        error_response(StatusCode::BAD_REQUEST, message, "invalid_body")
    })
}

/// The 400 response for a body that broke the spec's rules.
pub(crate) fn validation_failed(violations: &[String]) -> Response {
    error_response(
        StatusCode::BAD_REQUEST,
        format!("Payload validation error: {}", violations.join("; ")),
        "invalid_body",
    )
}

/// Decodes `application/x-www-form-urlencoded` into JSON. Nested fields use
/// bracket notation: `a[b]=1` is `{"a": {"b": "1"}}`, `a[0][b]=1` is
/// `{"a": [{"b": "1"}]}` and `a[]=1&a[]=2` is `{"a": ["1", "2"]}`. Values
/// stay strings.
pub(crate) fn form_to_value(body: &[u8]) -> Result<Value, String> {
    let mut root = Value::Object(Map::new());
    for (key, value) in form_urlencoded::parse(body) {
        let segments = key_segments(&key)?;
        insert(&mut root, &key, &segments, Value::String(value.into_owned()))?;
    }
    Ok(root)
}

fn key_segments(key: &str) -> Result<Vec<&str>, String> {
    let (first, mut rest) = match key.find('[') {
        Some(open) => (&key[..open], &key[open..]),
        None => (key, ""),
    };
    if first.is_empty() {
        return Err(format!("field name missing in `{key}`"));
    }
    let mut segments = vec![first];
    while !rest.is_empty() {
        let close = rest
            .strip_prefix('[')
            .and_then(|inner| inner.find(']'))
            .ok_or_else(|| format!("unbalanced brackets in `{key}`"))?;
        segments.push(&rest[1..=close]);
        rest = &rest[close + 2..];
    }
    Ok(segments)
}

fn insert(node: &mut Value, key: &str, segments: &[&str], leaf: Value) -> Result<(), String> {
    let Some((segment, rest)) = segments.split_first() else {
        return Err(format!("`{key}` is given twice"));
    };
    let fresh = || match rest.first() {
        None => leaf.clone(),
        Some(next) if next.is_empty() || next.parse::<usize>().is_ok() => Value::Array(Vec::new()),
        Some(_) => Value::Object(Map::new()),
    };
    let child = match node {
        Value::Object(object) => {
            if rest.is_empty() && object.contains_key(*segment) {
                return Err(format!("`{key}` is given twice"));
            }
            object.entry(segment.to_string()).or_insert_with(fresh)
        }
        Value::Array(items) => {
            let index = if segment.is_empty() {
                items.len()
            } else {
                segment.parse::<usize>().map_err(|_| format!("`{key}` mixes list and field syntax"))?
            };
            if index > items.len() {
                return Err(format!("`{key}`: list indexes must count up from 0"));
            }
            if index == items.len() {
                items.push(fresh());
            } else if rest.is_empty() {
                return Err(format!("`{key}` is given twice"));
            }
            &mut items[index]
        }
        _ => return Err(format!("`{key}` mixes a value with nested fields")),
    };
    if rest.is_empty() {
        return Ok(());
    }
    insert(child, key, rest, leaf)
}

/// Rules a body broke, each naming the field and the rule.
pub(crate) type Violations = Vec<String>;

pub(crate) fn child(at: &str, name: &str) -> String {
    if at.is_empty() { name.to_string() } else { format!("{at}.{name}") }
}

pub(crate) fn index(at: &str, position: usize) -> String {
    format!("{at}[{position}]")
}

fn describe(at: &str) -> String {
    if at.is_empty() { "the body".to_string() } else { format!("'{at}'") }
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

fn wrong_kind(value: &Value, at: &str, expected: &str, out: &mut Violations) {
    out.push(format!("{} must be {expected}, not {}", describe(at), kind_of(value)));
}

pub(crate) fn expect_object<'v>(value: &'v Value, at: &str, out: &mut Violations) -> Option<&'v Map<String, Value>> {
    let object = value.as_object();
    if object.is_none() {
        wrong_kind(value, at, "an object", out);
    }
    object
}

pub(crate) fn expect_array<'v>(value: &'v Value, at: &str, out: &mut Violations) -> Option<&'v Vec<Value>> {
    let items = value.as_array();
    if items.is_none() {
        wrong_kind(value, at, "a list", out);
    }
    items
}

pub(crate) fn expect_string<'v>(value: &'v Value, at: &str, out: &mut Violations) -> Option<&'v str> {
    let text = value.as_str();
    if text.is_none() {
        wrong_kind(value, at, "a string", out);
    }
    text
}

pub(crate) fn expect_integer(value: &Value, at: &str, out: &mut Violations) -> Option<f64> {
    let number = value.as_i64().map(|n| n as f64).or_else(|| value.as_u64().map(|n| n as f64));
    if number.is_none() {
        wrong_kind(value, at, "an integer", out);
    }
    number
}

pub(crate) fn expect_number(value: &Value, at: &str, out: &mut Violations) -> Option<f64> {
    let number = value.as_f64();
    if number.is_none() {
        wrong_kind(value, at, "a number", out);
    }
    number
}

pub(crate) fn expect_boolean(value: &Value, at: &str, out: &mut Violations) {
    if !value.is_boolean() {
        wrong_kind(value, at, "a boolean", out);
    }
}

pub(crate) fn required(object: &Map<String, Value>, at: &str, names: &[&str], out: &mut Violations) {
    for name in names {
        if !object.contains_key(*name) {
            out.push(format!("{} is required", describe(&child(at, name))));
        }
    }
}

pub(crate) fn no_other_properties(object: &Map<String, Value>, at: &str, known: &[&str], out: &mut Violations) {
    for name in object.keys() {
        if !known.contains(&name.as_str()) {
            out.push(format!("{} is not an allowed property", describe(&child(at, name))));
        }
    }
}

pub(crate) fn min_length(text: &str, min: usize, at: &str, out: &mut Violations) {
    if text.chars().count() < min {
        out.push(format!("{} must be at least {min} characters long", describe(at)));
    }
}

pub(crate) fn max_length(text: &str, max: usize, at: &str, out: &mut Violations) {
    if text.chars().count() > max {
        out.push(format!("{} must be at most {max} characters long", describe(at)));
    }
}

pub(crate) fn one_of_values(text: &str, allowed: &[&str], at: &str, out: &mut Violations) {
    if !allowed.contains(&text) {
        out.push(format!("{} must be one of: {}", describe(at), allowed.join(", ")));
    }
}

pub(crate) fn min_items(items: &[Value], min: usize, at: &str, out: &mut Violations) {
    if items.len() < min {
        let noun = if min == 1 { "item" } else { "items" };
        out.push(format!("{} must contain at least {min} {noun}", describe(at)));
    }
}

pub(crate) fn max_items(items: &[Value], max: usize, at: &str, out: &mut Violations) {
    if items.len() > max {
        let noun = if max == 1 { "item" } else { "items" };
        out.push(format!("{} must contain at most {max} {noun}", describe(at)));
    }
}

pub(crate) fn minimum(number: f64, min: f64, at: &str, out: &mut Violations) {
    if number < min {
        out.push(format!("{} must be at least {min}", describe(at)));
    }
}

pub(crate) fn maximum(number: f64, max: f64, at: &str, out: &mut Violations) {
    if number > max {
        out.push(format!("{} must be at most {max}", describe(at)));
    }
}

/// Checks the formats with a defined syntax; others are documentation only.
pub(crate) fn format(text: &str, format: &str, at: &str, out: &mut Violations) {
    let valid = match format {
        "url" | "uri" => is_uri(text),
        "date-time" => chrono::DateTime::parse_from_rfc3339(text).is_ok(),
        _ => true,
    };
    if !valid {
        out.push(format!("{} must be a valid {format}", describe(at)));
    }
}

/// An absolute URI (RFC 3986): a scheme, a colon, and no whitespace.
fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|first| first.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && !rest.is_empty()
        && !text.chars().any(char::is_whitespace)
}

/// The 404 for paths the API does not have.
pub(crate) async fn not_found() -> Response {
    error_response(StatusCode::NOT_FOUND, "Not Found: no such path", "not_found")
}

/// The 405 for paths the API has, called with another method.
pub(crate) async fn method_not_allowed() -> Response {
    error_response(
        StatusCode::METHOD_NOT_ALLOWED,
        "Method Not Allowed for this path",
        "method_not_allowed",
    )
}

/// A discriminator property that is missing or not a string.
pub(crate) fn required_string(object: &Map<String, Value>, at: &str, name: &str, out: &mut Violations) {
    let at = child(at, name);
    match object.get(name) {
        None => out.push(format!("{} is required", describe(&at))),
        Some(value) => wrong_kind(value, &at, "a string", out),
    }
}

/// A value that matches too few (or too many) of a `oneOf`/`anyOf`'s shapes.
pub(crate) fn shape_mismatch(at: &str, expectation: &str, out: &mut Violations) {
    out.push(format!("{} must match {expectation} of the allowed shapes", describe(at)));
}

pub(crate) fn exclusive_minimum(number: f64, min: f64, at: &str, out: &mut Violations) {
    if number <= min {
        out.push(format!("{} must be greater than {min}", describe(at)));
    }
}

pub(crate) fn exclusive_maximum(number: f64, max: f64, at: &str, out: &mut Violations) {
    if number >= max {
        out.push(format!("{} must be less than {max}", describe(at)));
    }
}
