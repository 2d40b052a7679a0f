//! Reading request bodies: the size limit, the media type, JSON or form
//! decoding, validation and the typed value.

use axum::extract::{FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap, StatusCode, header};
use axum::response::Response;
use std::borrow::Cow;
use std::convert::Infallible;

use crate::checks::{Location, Violations};
use crate::errors::{router_error_response, validation_failed};
use crate::form::{self, Shape};
use crate::json::{Object, Value};

/// Media type of JSON bodies.
pub const JSON: &str = "application/json";
/// Media type of form bodies.
pub const FORM: &str = "application/x-www-form-urlencoded";

/// What a handler keeps of a request besides its path, query and body:
/// the headers, and the extensions the layers in front of the router put
/// there (a request id, a span, a tenant), moved out of it for the
/// operation's [`RequestContext`](crate::RequestContext). axum's own
/// `HeaderMap` extractor clones the headers, and taking the whole `Request`
/// keeps it (a few hundred bytes) in every handler future, which then
/// outgrows the allocator's cache of small blocks. It leaves the request
/// without headers or extensions (the path's parameters are among them),
/// so it comes last.
#[derive(Debug, Default)]
pub struct Head {
    /// The request headers.
    pub headers: HeaderMap,
    /// The request extensions.
    pub extensions: Extensions,
}

impl From<Parts> for Head {
    fn from(parts: Parts) -> Self {
        Self {
            headers: parts.headers,
            extensions: parts.extensions,
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Head {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Infallible> {
        Ok(Self {
            headers: std::mem::take(&mut parts.headers),
            extensions: std::mem::take(&mut parts.extensions),
        })
    }
}

/// Settings of a generated router. Set the fields to change and take the
/// rest from `Default` (`RouterOptions { base_path: Some("/tenants".into()),
/// ..RouterOptions::default() }`).
#[derive(Debug, Clone)]
pub struct RouterOptions {
    /// The largest request body accepted, in bytes; larger ones get 413.
    pub body_limit: usize,
    /// The path the API's routes are served under: `None` for the path of
    /// the description's server URL (the server crate's `BASE_PATH`),
    /// `Some("")` for the root. The router is nested there, so it can be
    /// merged into an application beside other routes.
    pub base_path: Option<String>,
    /// Whether a path the API does not serve gets the API's 404 body. Under
    /// a base path this answers the paths under it only; at the root it
    /// answers every path, so an application merging the router beside a
    /// fallback of its own sets this to `false` (axum refuses two). A
    /// served path asked with a method it does not serve gets the API's 405
    /// either way.
    pub fallback: bool,
    /// A layer run in front of each operation, once routing has chosen it,
    /// with the operation in the request's extensions (see [`Middleware`](crate::Middleware)).
    pub middleware: Option<crate::Middleware>,
    /// The body limit of an operation, by `operationId`, in bytes: for a
    /// body read whole, in place of `body_limit`; for one that streams, in
    /// place of the spec's (see [`STREAMED_BODY_LIMIT`]).
    pub operation_body_limits: std::collections::BTreeMap<String, u64>,
}

/// The limit of a binary body that reaches the method as a stream
/// ([`read_streamed_body`]) where the spec does not bound it (a
/// `maxLength` of its `format: binary` string, in bytes): 4 GiB, past any
/// upload the method would otherwise see whole, yet a limit. Set another
/// per operation with [`RouterOptions::operation_body_limits`].
pub const STREAMED_BODY_LIMIT: u64 = 4 << 30;

impl Default for RouterOptions {
    fn default() -> Self {
        Self {
            body_limit: 64 * 1024,
            base_path: None,
            fallback: true,
            middleware: None,
            operation_body_limits: Default::default(),
        }
    }
}

/// How a body `validate` found no fault with becomes its type: `None` when
/// it does not fit (see [`into_typed_by`]). [`Value::deserialize_into`]
/// checks everything again; a generated server passes its own where every
/// rule the type checks was just checked on the same tree.
pub type Typing<T> = fn(&Value) -> Option<T>;

/// Reads the body of `request`, decodes it by `Content-Type` (one of
/// `accepted`) into a tree borrowing from the bytes, checks it with
/// `validate` and converts it to `T` with `typing`. A form body is first
/// read by `form`, its shape (see [`crate::form`]), when it has one.
/// Returns the request headers with it, since the body consumes the
/// request.
pub async fn read_body<T: serde::de::DeserializeOwned>(
    request: Request,
    accepted: &[&str],
    validate: fn(&Value, &Location, &mut Violations),
    form: Option<&Shape>,
    typing: Typing<T>,
) -> Result<(Head, T), Response> {
    let (head, bytes) = read_bytes(request).await?;
    let value = decode_shaped_body(&head.headers, &bytes, accepted, form)?;
    let mut violations = Violations::new();
    validate(&value, &Location::Body, &mut violations);
    if !violations.is_empty() {
        return Err(validation_failed(violations));
    }
    Ok((head, into_typed_by(&value, typing)?))
}

/// [`read_body`] for an optional body: a request without a body (no
/// `Content-Type` and no content) gives `None`; any other is read, checked
/// and typed as a required one would be.
pub async fn read_optional_body<T: serde::de::DeserializeOwned>(
    request: Request,
    accepted: &[&str],
    validate: fn(&Value, &Location, &mut Violations),
    form: Option<&Shape>,
    typing: Typing<T>,
) -> Result<(Head, Option<T>), Response> {
    if has_no_body(request.headers()) {
        return Ok((Head::from(request.into_parts().0), None));
    }
    let (head, body) = read_body(request, accepted, validate, form, typing).await?;
    Ok((head, Some(body)))
}

/// Reads a body passed to the server as bytes (a file, an upload), whose
/// `Content-Type` must be one of `accepted` (a media type, or a range such as
/// `image/*`; 415 otherwise; 413 past the size limit). The headers come back
/// with it: a `multipart/form-data` body needs its `boundary`.
pub async fn read_raw_body(
    request: Request,
    accepted: &[&str],
) -> Result<(Head, axum::body::Bytes), Response> {
    check_raw_media_type(request.headers(), accepted)?;
    read_bytes(request).await
}

/// The 415 (or, without a body, the 400) of a raw body whose
/// `Content-Type` is none of `accepted`.
fn check_raw_media_type(headers: &HeaderMap, accepted: &[&str]) -> Result<(), Response> {
    if accepted
        .iter()
        .any(|media_type| media_type_is(headers, media_type))
    {
        return Ok(());
    }
    if has_no_body(headers) {
        return Err(body_required());
    }
    let found = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("(none)");
    Err(unsupported_media_type(found, accepted))
}

/// The limit of a streamed body in force on a route: the operation's
/// (the spec's, or [`RouterOptions::operation_body_limits`]), which
/// `operation_route` puts in the request's extensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamedBodyLimit(pub u64);

/// Reads a binary body (a file, an upload) as a stream the method consumes
/// as it arrives, never whole in memory. Its `Content-Type` must be one of
/// `accepted` (415 otherwise). A `Content-Length` past the operation's
/// limit ([`StreamedBodyLimit`], else [`STREAMED_BODY_LIMIT`]) gets 413
/// before the method is called; a body without one that runs past it ends
/// the stream with an error whose [`BodyError::is_too_large`] says so.
pub async fn read_streamed_body(
    request: Request,
    accepted: &[&str],
) -> Result<(Head, BodyStream), Response> {
    let (head, body, _) = streamed_request(request, accepted)?;
    Ok((head, BodyStream(body)))
}

/// A request whose body streams, split: its head, its body limited to the
/// operation's limit (see [`read_streamed_body`]), and that limit.
pub(crate) fn streamed_request(
    request: Request,
    accepted: &[&str],
) -> Result<(Head, axum::body::BodyDataStream, usize), Response> {
    use axum::body::HttpBody as _;
    check_raw_media_type(request.headers(), accepted)?;
    let limit = request
        .extensions()
        .get::<StreamedBodyLimit>()
        .map_or(STREAMED_BODY_LIMIT, |limit| limit.0);
    let (parts, body) = request.into_parts();
    if body.size_hint().lower() > limit {
        return Err(router_error_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than this operation's limit of {limit} bytes"),
            "invalid_body",
        ));
    }
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let body = axum::body::Body::new(http_body_util::Limited::new(body, limit));
    Ok((Head::from(parts), body.into_data_stream(), limit))
}

/// [`read_streamed_body`] for an optional body: none (no `Content-Type`
/// and no content) gives `None`.
pub async fn read_optional_streamed_body(
    request: Request,
    accepted: &[&str],
) -> Result<(Head, Option<BodyStream>), Response> {
    if has_no_body(request.headers()) {
        return Ok((Head::from(request.into_parts().0), None));
    }
    let (head, body) = read_streamed_body(request, accepted).await?;
    Ok((head, Some(body)))
}

/// A request body as it arrives ([`read_streamed_body`]): a `Stream` of
/// its chunks.
pub struct BodyStream(axum::body::BodyDataStream);

impl BodyStream {
    /// The whole body, for a method that needs it at once after all.
    pub async fn collect(self) -> Result<axum::body::Bytes, BodyError> {
        use http_body_util::BodyExt;
        let body = axum::body::Body::from_stream(self.0);
        Ok(body.collect().await.map_err(BodyError::transport)?.to_bytes())
    }
}

impl futures_util::Stream for BodyStream {
    type Item = Result<axum::body::Bytes, BodyError>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        std::pin::Pin::new(&mut self.0)
            .poll_next(cx)
            .map(|item| item.map(|chunk| chunk.map_err(BodyError::transport)))
    }
}

impl std::fmt::Debug for BodyStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BodyStream").finish_non_exhaustive()
    }
}

/// A request body that could not be read to its end: the connection broke,
/// the body ran past the operation's limit, or (a multipart body's parts,
/// [`Multipart`](crate::stream::Multipart)) it is not well-formed or breaks
/// the schema's rules. As a response it is the router's own answer: 413
/// past a limit, else 400 naming the broken rules.
#[derive(Debug)]
pub struct BodyError(Cause);

#[derive(Debug)]
enum Cause {
    /// Reading the body failed (axum's `Limited` error past the limit).
    Transport(axum::Error),
    /// A multipart body that is not well-formed.
    Malformed(String),
    /// The text parts of a multipart body together ran past the router's
    /// limit of a body read whole.
    TextTooLarge(usize),
    /// The parts broke the schema's rules.
    Rejected(Violations),
}

impl BodyError {
    pub(crate) fn transport(error: axum::Error) -> Self {
        Self(Cause::Transport(error))
    }

    pub(crate) fn malformed(message: impl Into<String>) -> Self {
        Self(Cause::Malformed(message.into()))
    }

    pub(crate) fn text_too_large(limit: usize) -> Self {
        Self(Cause::TextTooLarge(limit))
    }

    pub(crate) fn rejected(violations: Violations) -> Self {
        Self(Cause::Rejected(violations))
    }

    /// Whether the body ran past a limit (answer 413).
    pub fn is_too_large(&self) -> bool {
        let error: &(dyn std::error::Error + 'static) = match &self.0 {
            Cause::Transport(error) => error,
            Cause::TextTooLarge(_) => return true,
            Cause::Malformed(_) | Cause::Rejected(_) => return false,
        };
        let mut source = Some(error);
        while let Some(error) = source {
            if error.is::<http_body_util::LengthLimitError>() {
                return true;
            }
            source = error.source();
        }
        false
    }

    /// The schema's rules the body broke, if that is why it was refused.
    pub fn violations(&self) -> Option<&Violations> {
        match &self.0 {
            Cause::Rejected(violations) => Some(violations),
            _ => None,
        }
    }
}

impl axum::response::IntoResponse for BodyError {
    /// The router's answer to a body it could not read: 413 past a limit,
    /// else 400, naming the broken rules where the body broke some.
    fn into_response(self) -> Response {
        match self.0 {
            Cause::Transport(error) => unreadable_body(Box::new(error)),
            Cause::Malformed(message) => router_error_response(
                StatusCode::BAD_REQUEST,
                format!("Invalid multipart body: {message}"),
                "invalid_body",
            ),
            Cause::TextTooLarge(limit) => router_error_response(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the text parts of the body are larger than the limit of {limit} bytes"),
                "invalid_body",
            ),
            Cause::Rejected(violations) => validation_failed(violations),
        }
    }
}

impl std::fmt::Display for BodyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Cause::Transport(error) => write!(f, "the request body could not be read: {error}"),
            Cause::Malformed(message) => write!(f, "invalid multipart body: {message}"),
            Cause::TextTooLarge(limit) => write!(
                f,
                "the text parts of the body are larger than the limit of {limit} bytes"
            ),
            Cause::Rejected(violations) => {
                f.write_str("the request body breaks the schema: ")?;
                let details: Vec<&str> = violations.iter().map(|v| v.detail.as_str()).collect();
                f.write_str(&details.join("; "))
            }
        }
    }
}

impl std::error::Error for BodyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0 {
            Cause::Transport(error) => Some(error),
            _ => None,
        }
    }
}

/// Adds field `key` to a form's (or multipart body's) top level: given
/// again, it is a list (OpenAPI's default encoding of a list: the key once
/// per item).
pub(crate) fn add_field<'a>(
    object: &mut Object<'a>,
    key: Cow<'a, str>,
    value: Value<'a>,
) -> Result<(), String> {
    match object.get_mut(&key) {
        None => object.push(key, value),
        Some(slot @ Value::String(_)) => {
            let first = std::mem::replace(slot, Value::Null);
            *slot = Value::Array(vec![first, value]);
        }
        Some(Value::Array(items)) => items.push(value),
        Some(_) => return Err(format!("`{key}` mixes a value with nested fields")),
    }
    Ok(())
}

/// The body's bytes, and the request's [`Head`], which the handler needs
/// after the body has consumed the request: taken out rather than cloned.
/// The body honours the router's `DefaultBodyLimit`, as axum's `Bytes`
/// extractor does (an oversized body gets 413), but that extractor would
/// consume the extensions with the request. [`read_body`] is this,
/// [`decode_body`], the form's reading and validation; a server
/// interpreting the spec at run time (`openapi-crates-mock`) takes the same
/// steps with its own checks.
pub async fn read_bytes(request: Request) -> Result<(Head, axum::body::Bytes), Response> {
    use axum::RequestExt;
    use http_body_util::BodyExt;
    let (parts, body) = request.with_limited_body().into_parts();
    let bytes = body
        .collect()
        .await
        .map_err(|error| unreadable_body(error.into_inner()))?
        .to_bytes();
    Ok((Head::from(parts), bytes))
}

/// The response to a body that could not be read: 413 past the size limit
/// (axum's `Limited` error, boxed once more by `Body` on the way), else
/// 400, with axum's own words for either.
fn unreadable_body(error: axum::BoxError) -> Response {
    let error = match error.downcast::<axum::Error>() {
        Ok(inner) => inner.into_inner(),
        Err(error) => error,
    };
    let (status, text) = if error.is::<http_body_util::LengthLimitError>() {
        (StatusCode::PAYLOAD_TOO_LARGE, error.to_string())
    } else {
        (StatusCode::BAD_REQUEST, error.to_string())
    };
    router_error_response(
        status,
        format!("Failed to buffer the request body: {text}"),
        "invalid_body",
    )
}

/// The 415 for a `Content-Type` (`found`) none of `accepted`.
fn unsupported_media_type(found: &str, accepted: &[&str]) -> Response {
    router_error_response(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        format!(
            "Content-Type {found} is not supported; send one of: {}",
            accepted.join(", ")
        ),
        "unsupported_media_type",
    )
}

/// [`read_raw_body`] for an optional body: none (no `Content-Type` and no
/// content) gives `None`.
pub async fn read_optional_raw_body(
    request: Request,
    accepted: &[&str],
) -> Result<(Head, Option<axum::body::Bytes>), Response> {
    if has_no_body(request.headers()) {
        return Ok((Head::from(request.into_parts().0), None));
    }
    let (head, bytes) = read_raw_body(request, accepted).await?;
    Ok((head, Some(bytes)))
}

/// Which of an operation's body `kinds` (each a list of media types, as
/// [`read_body`] and [`read_raw_body`] take them) the request's
/// `Content-Type` is: its index, or the 415 naming every media type offered.
/// The first kind taking it wins.
pub fn body_kind(headers: &HeaderMap, kinds: &[&[&str]]) -> Result<usize, Response> {
    kinds
        .iter()
        .position(|kind| {
            kind.iter()
                .any(|media_type| media_type_is(headers, media_type))
        })
        .ok_or_else(|| {
            if has_no_body(headers) {
                return body_required();
            }
            let found = headers
                .get(header::CONTENT_TYPE)
                .and_then(|value| value.to_str().ok())
                .unwrap_or("(none)");
            let offered: Vec<&str> = kinds.iter().flat_map(|kind| kind.iter().copied()).collect();
            unsupported_media_type(found, &offered)
        })
}

/// Whether the request's `Content-Type` is one of `accepted` (media types,
/// or ranges such as `image/*`): how a router tells apart operations on one
/// path and method that take bodies of different media types.
pub fn has_content_type(headers: &HeaderMap, accepted: &[&str]) -> bool {
    accepted
        .iter()
        .any(|media_type| media_type_is(headers, media_type))
}

/// The 400 of a request without the body its operation requires: a
/// broken request, not one in a media type the operation does not take.
fn body_required() -> Response {
    router_error_response(
        StatusCode::BAD_REQUEST,
        "Payload validation error: the request body is required".to_owned(),
        "invalid_body",
    )
}

/// Whether a request says it has no body: no `Content-Type`, and a zero
/// `Content-Length` or none (and no chunked body).
pub fn has_no_body(headers: &HeaderMap) -> bool {
    let no_content = match headers.get(header::CONTENT_LENGTH) {
        Some(length) => length.as_bytes() == b"0",
        None => !headers.contains_key(header::TRANSFER_ENCODING),
    };
    no_content && !headers.contains_key(header::CONTENT_TYPE)
}

/// Whether the request's `Content-Type` is `media_type` (parameters aside),
/// or of its kind for a range such as `image/*`.
fn media_type_is(headers: &HeaderMap, media_type: &str) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| crate::chosen::media_type_matches(media_type, value))
}

/// [`decode_body`], a form's fields then read by `form`, the body's shape
/// (see [`crate::form`]), when it has one.
pub fn decode_shaped_body<'a>(
    headers: &HeaderMap,
    body: &'a [u8],
    accepted: &[&str],
    form: Option<&Shape>,
) -> Result<Value<'a>, Response> {
    let mut value = decode_body(headers, body, accepted)?;
    if let Some(shape) = form
        && media_type_is(headers, FORM)
    {
        form::read(&mut value, shape);
    }
    Ok(value)
}

/// The body as JSON, whichever of the `accepted` media types it came in.
pub fn decode_body<'a>(
    headers: &HeaderMap,
    body: &'a [u8],
    accepted: &[&str],
) -> Result<Value<'a>, Response> {
    let unsupported = |found: &str| unsupported_media_type(found, accepted);
    let Some(content_type) = headers.get(header::CONTENT_TYPE) else {
        if body.is_empty() {
            return Err(body_required());
        }
        return Err(unsupported("(none)"));
    };
    let content_type = content_type.to_str().unwrap_or_default();
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    let Some(media_type) = accepted
        .iter()
        .find(|accepted| accepted.eq_ignore_ascii_case(essence))
    else {
        return Err(unsupported(content_type));
    };
    let invalid =
        |message: String| router_error_response(StatusCode::BAD_REQUEST, message, "invalid_body");
    if *media_type == FORM {
        form_to_value(body).map_err(|err| invalid(format!("Invalid form body: {err}")))
    } else {
        if let Some(problem) = not_utf8_json(body) {
            return Err(invalid(format!(
                "Invalid JSON body: the body must be UTF-8 JSON ({problem})"
            )));
        }
        Value::from_slice(body).map_err(|err| invalid(format!("Invalid JSON body: {err}")))
    }
}

/// What gives a body away as another encoding than the UTF-8 RFC 8259
/// requires, which the parser would only report as an unexpected character
/// at column 1: a byte order mark, or the zero bytes UTF-16 and UTF-32 put
/// beside every ASCII character (JSON text starts with one).
fn not_utf8_json(body: &[u8]) -> Option<&'static str> {
    match body {
        [0xEF, 0xBB, 0xBF, ..] => Some("without a byte order mark; found the UTF-8 one"),
        [0x00, 0x00, 0xFE, 0xFF, ..] | [0xFF, 0xFE, 0x00, 0x00, ..] => {
            Some("found UTF-32 with a byte order mark")
        }
        [0xFE, 0xFF, ..] | [0xFF, 0xFE, ..] => Some("found UTF-16 with a byte order mark"),
        [0x00, _, ..] | [_, 0x00, ..] => Some("found UTF-16 or UTF-32"),
        _ => None,
    }
}

/// Converts the validated JSON into the typed body. Validation has already
/// checked the spec's rules, so this fails only on something it cannot see.
/// The typed value is read straight from the tree; only when that fails is
/// the tree read again, as a `serde_json::Value` and tracking the path, for
/// the message naming the field.
pub fn into_typed<T: serde::de::DeserializeOwned>(value: &Value) -> Result<T, Response> {
    into_typed_by(value, |value| value.deserialize_into())
}

/// [`into_typed`], with `typing` for the fast path. The slow path, which
/// names the field, reads the tree as [`into_typed`] does, so a failure is
/// reported alike whichever `typing` missed it.
pub fn into_typed_by<T: serde::de::DeserializeOwned>(
    value: &Value,
    typing: Typing<T>,
) -> Result<T, Response> {
    if let Some(typed) = typing(value) {
        return Ok(typed);
    }
    serde_path_to_error::deserialize(value.to_json()).map_err(|err| {
        let path = err.path().to_string();
        let message = if path == "." {
            format!("Payload validation error: {}", err.inner())
        } else {
            format!("Payload validation error: '{path}': {}", err.inner())
        };
        router_error_response(StatusCode::BAD_REQUEST, message, "invalid_body")
    })
}

/// Decodes `application/x-www-form-urlencoded` into JSON. Nested fields use
/// bracket notation: `a[b]=1` is `{"a": {"b": "1"}}`, `a[0][b]=1` is
/// `{"a": [{"b": "1"}]}` and `a[]=1&a[]=2` is `{"a": ["1", "2"]}`; a
/// key given several times is a list too (`a=1&a=2`, OpenAPI's default
/// encoding of a list). Values stay strings, borrowed from `body` when they
/// needed no decoding; [`crate::form::read`] reads them by the schema.
///
/// Text must be UTF-8 once percent-decoded: a field that is not is refused by
/// name (as a JSON body with such bytes is), never stored with replacement
/// characters.
pub fn form_to_value(body: &[u8]) -> Result<Value<'_>, String> {
    let mut root = Value::Object(Object::new());
    for pair in body.split(|byte| *byte == b'&') {
        if pair.is_empty() {
            continue;
        }
        let (key, value) = match pair.iter().position(|byte| *byte == b'=') {
            Some(equals) => (&pair[..equals], &pair[equals + 1..]),
            None => (pair, &b""[..]),
        };
        let key = form_text(key).map_err(|_| {
            format!(
                "a field name is not valid UTF-8 (`{}`)",
                String::from_utf8_lossy(&percent_decode(key))
            )
        })?;
        let value = form_text(value).map_err(|_| format!("`{key}` is not valid UTF-8"))?;
        if let (Value::Object(object), false) = (&mut root, key.contains('[')) {
            // A plain field, the common case: no path to walk.
            if key.is_empty() {
                return Err(format!("field name missing in `{key}`"));
            }
            add_field(object, key, Value::String(value))?;
            continue;
        }
        let segments = match &key {
            Cow::Borrowed(key) => key_segments(key)?.into_iter().map(Cow::Borrowed).collect(),
            Cow::Owned(key) => key_segments(key)?
                .into_iter()
                .map(|segment| Cow::Owned(segment.to_string()))
                .collect(),
        };
        insert(&mut root, &key, segments, Value::String(value))?;
    }
    Ok(root)
}

/// A form's key or value as text: `+` is a space and `%XX` the byte XX (a `%`
/// not followed by two hex digits stays as it is, as browsers do), and the
/// bytes must be UTF-8. Borrowed when there was nothing to decode.
fn form_text(raw: &[u8]) -> Result<Cow<'_, str>, std::str::Utf8Error> {
    match percent_decode(raw) {
        Cow::Borrowed(bytes) => std::str::from_utf8(bytes).map(Cow::Borrowed),
        Cow::Owned(bytes) => String::from_utf8(bytes)
            .map(Cow::Owned)
            .map_err(|err| err.utf8_error()),
    }
}

fn percent_decode(raw: &[u8]) -> Cow<'_, [u8]> {
    if !raw.iter().any(|byte| matches!(byte, b'+' | b'%')) {
        return Cow::Borrowed(raw);
    }
    let hex = |byte: u8| (byte as char).to_digit(16).map(|digit| digit as u8);
    let mut decoded = Vec::with_capacity(raw.len());
    let mut index = 0;
    while index < raw.len() {
        let byte = raw[index];
        let escaped = (byte == b'%')
            .then(|| Some(hex(*raw.get(index + 1)?)? << 4 | hex(*raw.get(index + 2)?)?))
            .flatten();
        match (byte, escaped) {
            (_, Some(escaped)) => {
                decoded.push(escaped);
                index += 3;
                continue;
            }
            (b'+', None) => decoded.push(b' '),
            (byte, None) => decoded.push(byte),
        }
        index += 1;
    }
    Cow::Owned(decoded)
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

fn insert<'a>(
    root: &mut Value<'a>,
    key: &str,
    segments: Vec<Cow<'a, str>>,
    leaf: Value<'a>,
) -> Result<(), String> {
    let mut node = root;
    let mut leaf = Some(leaf);
    let mut segments = segments.into_iter().peekable();
    while let Some(segment) = segments.next() {
        let next = segments.peek();
        let last = next.is_none();
        let mut fresh = || match next {
            None => leaf.take().unwrap_or(Value::Null),
            Some(next) if next.is_empty() || next.parse::<usize>().is_ok() => {
                Value::Array(Vec::new())
            }
            Some(_) => Value::Object(Object::new()),
        };
        node = match node {
            Value::Object(object) => {
                if last && object.contains_key(&segment) {
                    // Given again, a field is a list, at any depth.
                    return add_field(object, segment, leaf.take().unwrap_or(Value::Null))
                        .map_err(|_| format!("`{key}` mixes a value with nested fields"));
                }
                object.get_or_insert_with(segment, fresh)
            }
            Value::Array(items) => {
                let index = if segment.is_empty() {
                    items.len()
                } else {
                    segment
                        .parse::<usize>()
                        .map_err(|_| format!("`{key}` mixes list and field syntax"))?
                };
                if index > items.len() {
                    return Err(format!("`{key}`: list indexes must count up from 0"));
                }
                if index == items.len() {
                    items.push(fresh());
                } else if last {
                    return Err(format!("`{key}` is given twice"));
                }
                &mut items[index]
            }
            _ => return Err(format!("`{key}` mixes a value with nested fields")),
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;
    use serde_json::json;

    #[tokio::test]
    async fn the_head_extractor_moves_every_header_and_extension_out() {
        let request = Request::builder()
            .uri("/x?a=1")
            .header("authorization", "Bearer t")
            .header("x-many", "1")
            .header("x-many", "2")
            .extension(RequestId(7))
            .body(axum::body::Body::empty())
            .unwrap();
        let (mut parts, _body) = request.into_parts();
        let Head {
            headers,
            extensions,
        } = Head::from_request_parts(&mut parts, &()).await.unwrap();
        assert_eq!(headers["authorization"], "Bearer t");
        let many: Vec<&HeaderValue> = headers.get_all("x-many").iter().collect();
        assert_eq!(many, ["1", "2"]);
        assert_eq!(extensions.get::<RequestId>(), Some(&RequestId(7)));
        assert!(parts.headers.is_empty());
        assert!(parts.extensions.is_empty());
        assert_eq!(parts.uri, "/x?a=1");
    }

    /// What a layer in front of the router attaches.
    #[derive(Debug, Clone, PartialEq)]
    struct RequestId(u32);

    #[tokio::test]
    async fn reading_the_bytes_keeps_the_extensions_and_honours_the_limit() {
        use axum::response::IntoResponse;
        use tower_service::Service;
        let mut router = axum::Router::new()
            .route(
                "/",
                axum::routing::post(|request: Request| async move {
                    match read_bytes(request).await {
                        Ok((head, bytes)) => {
                            let id = head.extensions.get::<RequestId>().map_or(0, |id| id.0);
                            format!("{id} {}", bytes.len()).into_response()
                        }
                        Err(response) => response,
                    }
                }),
            )
            .layer(axum::extract::DefaultBodyLimit::max(8));
        let mut post = |body: &'static str| {
            let request = Request::builder()
                .method("POST")
                .uri("/")
                .extension(RequestId(7))
                .body(axum::body::Body::from(body))
                .unwrap();
            router.call(request)
        };
        let kept = post("12345678").await.unwrap();
        assert_eq!(kept.status(), StatusCode::OK);
        let text = axum::body::to_bytes(kept.into_body(), 100).await.unwrap();
        assert_eq!(text, "7 8");
        let refused = post("123456789").await.unwrap();
        assert_eq!(refused.status(), StatusCode::PAYLOAD_TOO_LARGE);
        let text = axum::body::to_bytes(refused.into_body(), 1000).await.unwrap();
        let text = String::from_utf8_lossy(&text);
        assert!(text.contains("length limit exceeded"), "{text}");
    }

    #[tokio::test]
    async fn a_body_kind_is_picked_by_content_type() {
        let headers = |content_type: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
            headers
        };
        let kinds: &[&[&str]] = &[&[JSON, FORM], &["image/*"], &["multipart/form-data"]];
        let kind = |content_type| body_kind(&headers(content_type), kinds).ok();
        assert_eq!(kind("application/x-www-form-urlencoded"), Some(0));
        assert_eq!(kind("image/png"), Some(1));
        assert_eq!(kind("multipart/form-data; boundary=x"), Some(2));
        let refused = body_kind(&headers("text/plain"), kinds).unwrap_err();
        assert_eq!(refused.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let body = axum::body::to_bytes(refused.into_body(), usize::MAX)
            .await
            .unwrap();
        let message = String::from_utf8_lossy(&body);
        assert!(
            message.contains("image/*, multipart/form-data"),
            "{message}"
        );
        assert!(has_content_type(
            &headers("Application/JSON; charset=utf-8"),
            &[JSON]
        ));
        assert!(!has_content_type(&HeaderMap::new(), &[JSON]));
    }

    fn form(body: &str) -> Result<serde_json::Value, String> {
        form_to_value(body.as_bytes()).map(|value| value.to_json())
    }

    #[test]
    fn flat_fields_stay_strings() {
        assert_eq!(
            form("a=1&b=x+y&c=%C3%A9").unwrap(),
            json!({"a": "1", "b": "x y", "c": "é"})
        );
    }

    #[test]
    fn brackets_build_objects_and_lists() {
        assert_eq!(
            form("a[b]=1&a[c][d]=2&l[]=x&l[]=y&o[0][k]=v&o[1][k]=w").unwrap(),
            json!({
                "a": {"b": "1", "c": {"d": "2"}},
                "l": ["x", "y"],
                "o": [{"k": "v"}, {"k": "w"}],
            })
        );
    }

    #[test]
    fn a_key_given_several_times_is_a_list() {
        assert_eq!(
            form("tag=a&n=1&tag=b&tag=c").unwrap(),
            json!({"tag": ["a", "b", "c"], "n": "1"})
        );
        assert_eq!(form("l[]=x&l=y").unwrap(), json!({"l": ["x", "y"]}));
        assert_eq!(
            form("o[k]=1&o[k]=2&o[j]=3").unwrap(),
            json!({"o": {"k": ["1", "2"], "j": "3"}})
        );
    }

    #[test]
    fn form_text_is_percent_decoded_as_browsers_send_it() {
        assert_eq!(
            form("a=%41%zz%4&b=1+2%2B3&c&d=").unwrap(),
            json!({"a": "A%zz%4", "b": "1 2+3", "c": "", "d": ""})
        );
    }

    #[test]
    fn text_that_is_not_utf8_is_refused_by_field() {
        assert_eq!(
            form("name=ok&bio=caf%E9").unwrap_err(),
            "`bio` is not valid UTF-8"
        );
        assert_eq!(
            form_to_value(b"bio=caf\xE9").unwrap_err(),
            "`bio` is not valid UTF-8"
        );
        assert_eq!(
            form("n%FFme=1").unwrap_err(),
            "a field name is not valid UTF-8 (`n\u{FFFD}me`)"
        );
    }

    #[test]
    fn json_in_another_encoding_is_named() {
        let message = |body: &[u8]| {
            let refused = decode_body(&with_content_type(JSON), body, &[JSON]).unwrap_err();
            assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
            not_utf8_json(body).unwrap()
        };
        assert_eq!(
            message(b"\xEF\xBB\xBF{}"),
            "without a byte order mark; found the UTF-8 one"
        );
        assert_eq!(
            message(b"\xFF\xFE{\x00}\x00"),
            "found UTF-16 with a byte order mark"
        );
        assert_eq!(message(b"{\x00}\x00"), "found UTF-16 or UTF-32");
        assert_eq!(not_utf8_json(br#"{"a":"\u0000"}"#), None);
        assert_eq!(not_utf8_json(b"1"), None);
    }

    #[test]
    fn malformed_keys_are_refused_with_the_key() {
        for (body, message) in [
            ("a[k]=1&a=2", "`a` mixes a value with nested fields"),
            ("[x]=1", "field name missing in `[x]`"),
            ("a[b=1", "unbalanced brackets in `a[b`"),
            ("a[2]=1", "`a[2]`: list indexes must count up from 0"),
            ("a[]=1&a[k]=2", "`a[k]` mixes list and field syntax"),
            ("a=1&a[k]=2", "`a[k]` mixes a value with nested fields"),
        ] {
            assert_eq!(form(body).unwrap_err(), message, "{body}");
        }
    }

    fn with_content_type(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn bodies_are_decoded_by_media_type() {
        let accepted = [JSON, FORM];
        let json_body = decode_body(
            &with_content_type("application/json; charset=utf-8"),
            br#"{"a":1}"#,
            &accepted,
        );
        assert_eq!(json_body.unwrap().to_json(), json!({"a": 1}));
        let form_body = decode_body(
            &with_content_type("Application/X-WWW-Form-Urlencoded"),
            b"a=1",
            &accepted,
        );
        assert_eq!(form_body.unwrap().to_json(), json!({"a": "1"}));
    }

    #[test]
    fn other_media_types_get_415_and_bad_bodies_400() {
        let refused = decode_body(&with_content_type("text/plain"), b"a", &[JSON]).unwrap_err();
        assert_eq!(refused.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let missing = decode_body(&HeaderMap::new(), b"{}", &[JSON]).unwrap_err();
        assert_eq!(missing.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let broken = decode_body(&with_content_type(JSON), b"{", &[JSON]).unwrap_err();
        assert_eq!(broken.status(), StatusCode::BAD_REQUEST);
        let form_only = decode_body(&with_content_type(JSON), b"{}", &[FORM]).unwrap_err();
        assert_eq!(form_only.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    }

    #[derive(Debug, serde::Deserialize)]
    struct Named {
        name: String,
    }

    #[tokio::test]
    async fn typing_failures_name_the_field() {
        let failed = into_typed::<Named>(&Value::from(json!({"name": 3}))).unwrap_err();
        assert_eq!(failed.status(), StatusCode::BAD_REQUEST);
        let body = axum::body::to_bytes(failed.into_body(), usize::MAX)
            .await
            .unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            body["message"],
            "Payload validation error: 'name': invalid type: integer `3`, expected a string"
        );
        assert!(into_typed::<Named>(&Value::from(json!({"name": "x"}))).is_ok());
    }

    fn reject_all(_: &Value, _: &Location, out: &mut Violations) {
        out.add(
            &Location::Body.property("name"),
            "required",
            "'name' is required".into(),
        );
    }

    fn accept_all(_: &Value, _: &Location, _: &mut Violations) {}

    fn request(content_type: &str, body: &'static str) -> Request {
        axum::http::Request::builder()
            .header(header::CONTENT_TYPE, content_type)
            .header("x-kept", "yes")
            .body(axum::body::Body::from(body))
            .unwrap()
    }

    #[tokio::test]
    async fn read_body_validates_before_typing_and_keeps_the_headers() {
        let refused = read_body::<Named>(
            request(JSON, r#"{"name":"x"}"#),
            &[JSON],
            reject_all,
            None,
            |_| panic!("a refused body is never typed"),
        )
        .await
        .unwrap_err();
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
        let (head, _named) = read_body::<Named>(
            request(FORM, "name=x"),
            &[JSON, FORM],
            accept_all,
            None,
            |value| value.deserialize_into(),
        )
        .await
        .unwrap();
        assert_eq!(head.headers["x-kept"], "yes");
    }

    /// Whatever the fast typing misses, the slow path types or reports as
    /// [`into_typed`] does.
    #[tokio::test]
    async fn the_slow_path_stands_behind_any_typing() {
        let valid = Value::from(json!({"name": "x"}));
        let typed: Named = into_typed_by(&valid, |_| None).unwrap();
        assert_eq!(typed.name, "x");
        let invalid = Value::from(json!({"name": 3}));
        let ours = into_typed_by::<Named>(&invalid, |_| None).unwrap_err();
        let theirs = into_typed::<Named>(&invalid).unwrap_err();
        let body = |response: Response| async {
            axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap()
        };
        assert_eq!(body(ours).await, body(theirs).await);
    }
}
