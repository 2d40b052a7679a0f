//! The mock's answer to a valid request: which documented response, and
//! its body (the spec's example, else one synthesized from the schema).

use axum::body::Body;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::Response;
use openapi_crates_codegen::diagnostic::pointer_join;
use openapi_crates_codegen::model::{
    self, ErrorShape, HeaderKind, Method, Operation, Status, refs,
};
use openapi_crates_runtime::RouterError;
use openapi_crates_runtime::checks::{Location, Violations};
use serde_json::Value;

use crate::State;
use crate::synthesize::Synthesizer;

/// The header naming a response whose body no candidate made to pass the
/// schema's checks.
pub(crate) const WARNING: &str = "x-mock-warning";
/// The header naming the operation that answered, as a JSON pointer into
/// the spec (`/paths/~1pets~1{id}/get`): where several operations share a
/// path and method (a fixed query, a path key's `#fragment`), it says
/// which one the request was taken for.
pub(crate) const OPERATION: &str = "x-mock-operation";

/// How many synthesized candidates are tried (examples, then the variants
/// of each `oneOf` in turn) before the mock gives up on passing the checks.
const ATTEMPTS: usize = 4;

/// What a `Prefer` header asks for: a status (`code=404`) or a named example
/// (`example=minimal`), Prism's conventions; for a streamed response, how
/// many items (`items=5`) and the pause before each, in milliseconds
/// (`interval=100`).
#[derive(Default)]
struct Prefer<'h> {
    code: Option<&'h str>,
    example: Option<&'h str>,
    items: Option<u32>,
    interval: Option<u64>,
}

/// The items of a streamed response unless `Prefer: items=N` says.
const STREAM_ITEMS: u32 = 3;
/// The most items `Prefer: items=N` gets.
const MOST_STREAM_ITEMS: u32 = 100_000;

/// Whether a `Prefer` header names the status to answer (`code=N`).
pub(crate) fn prefers_a_code(headers: &HeaderMap) -> bool {
    prefer(headers).code.is_some()
}

fn prefer(headers: &HeaderMap) -> Prefer<'_> {
    let mut prefer = Prefer::default();
    for value in headers.get_all("prefer") {
        let Ok(value) = value.to_str() else { continue };
        for preference in value.split([',', ';']) {
            let Some((key, value)) = preference.split_once('=') else {
                continue;
            };
            let value = value.trim().trim_matches('"');
            match key.trim().to_ascii_lowercase().as_str() {
                "code" => prefer.code = Some(value),
                "example" => prefer.example = Some(value),
                "items" => prefer.items = value.parse().ok(),
                "interval" => prefer.interval = value.parse().ok(),
                _ => {}
            }
        }
    }
    prefer
}

/// The mock's own refusal of what a `Prefer` header asks, in the shape of
/// the router's errors.
fn refused(state: &State, message: String) -> Response {
    let error = RouterError::new(StatusCode::BAD_REQUEST, "unsupported_preference", message);
    match state.spec.model.error_shape {
        ErrorShape::Platform => error.into_platform_response(),
        ErrorShape::Problem => error.into_problem_response(),
    }
}

/// The status to answer and the response documenting it (`None` for an
/// operation that documents none).
fn choose(
    state: &State,
    operation: &'static Operation,
    code: Option<&str>,
) -> Result<(u16, Option<&'static model::Response>), Response> {
    let status_of = |response: &model::Response| match response.status {
        Status::Code(code) => code,
        Status::Range(class) => class * 100,
        Status::Default => 200,
    };
    let Some(code) = code else {
        // The first documented success (codes before their range), else
        // the `default` response as a 200, else what the operation lists
        // first.
        let chosen = operation
            .responses
            .iter()
            .find(|response| response.is_success())
            .or(operation.default_response.as_ref())
            .or(operation.responses.first());
        return Ok(match chosen {
            Some(response) => (status_of(response), Some(response)),
            None => (204, None),
        });
    };
    let documented = || {
        operation
            .responses
            .iter()
            .chain(&operation.default_response)
            .map(|response| response.status.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some(code) = code
        .parse::<u16>()
        .ok()
        .filter(|code| (200..=599).contains(code))
    else {
        return Err(refused(
            state,
            format!(
                "Prefer: code={code} is not a status from 200 to 599; `{}` documents {}",
                operation.id,
                documented()
            ),
        ));
    };
    let listed = listed(operation, code);
    if let Some(response) = listed {
        return Ok((code, Some(response)));
    }
    // `default` covers what the operation neither lists nor covers with a
    // range, a 2xx only when it documents no success.
    if let Some(response) = &operation.default_response
        && (code / 100 != 2 || !operation.documents_success())
    {
        return Ok((code, Some(response)));
    }
    if operation.documents_no_response() {
        return Ok((code, None));
    }
    Err(refused(
        state,
        format!(
            "Prefer: code={code} names a status `{}` does not document; it documents {}",
            operation.id,
            documented()
        ),
    ))
}

pub(crate) fn respond(
    state: &'static State,
    operation: &'static Operation,
    headers: &HeaderMap,
) -> Response {
    let prefer = prefer(headers);
    let (code, response) = match choose(state, operation, prefer.code) {
        Ok(chosen) => chosen,
        Err(refusal) => return refusal,
    };
    let status = openapi_crates_runtime::status(code);
    let Some(response) = response else {
        return reply(status, Body::empty());
    };
    let node = response_node(state, operation, response.status);
    let content = node
        .and_then(|node| node.get("content"))
        .and_then(Value::as_object);
    let stream = response
        .stream
        .as_ref()
        .filter(|stream| response.schema.is_none() || asks_for(headers, &stream.media_type));
    let mut answer = if operation.method == Method::Head {
        reply(status, Body::empty())
    } else if let Some(stream) = stream {
        streamed(state, operation, code, stream, &prefer)
    } else if let Some(schema) = &response.schema {
        let media = content.and_then(|content| {
            content
                .iter()
                .find(|(media_type, _)| model::is_json(media_type))
                .map(|(_, media)| media)
        });
        let examples = match examples(state, media, prefer.example) {
            Ok(examples) => examples,
            Err(names) => {
                return refused(
                    state,
                    format!(
                        "Prefer: example={} names no example of the {} response of `{}`; it has: {}",
                        prefer.example.unwrap_or_default(),
                        response.status,
                        operation.id,
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                );
            }
        };
        let key = (
            operation.pointer.as_str(),
            code,
            prefer.example.map(str::to_string),
        );
        let made = state
            .bodies
            .get_or_make(key, || json_body(state, operation, code, schema, examples));
        let (body, broken) = (&made.0, made.1.as_ref());
        let media_type = response
            .media_types
            .first()
            .map_or("application/json", String::as_str);
        let mut built = reply(
            status,
            Body::from(serde_json::to_vec(body).unwrap_or_default()),
        );
        if let Ok(value) = HeaderValue::from_str(media_type) {
            built.headers_mut().insert(header::CONTENT_TYPE, value);
        }
        let warning = match (broken, read_otherwise(state, schema)) {
            (Some(broken), _) => Some(format!("the body breaks its schema: {broken}")),
            (None, Some(reading)) => Some(format!(
                "the body passes the schema as the generator reads it, not as written: {reading}"
            )),
            (None, None) => None,
        };
        if let Some(warning) = warning {
            let warning = HeaderValue::from_str(&warning)
                .unwrap_or(HeaderValue::from_static("the body breaks its schema"));
            built
                .headers_mut()
                .insert(HeaderName::from_static(WARNING), warning);
        }
        built
    } else if let Some((media_type, schema)) = raw_json(&state.spec.document, operation, response) {
        let media = content.and_then(|content| content.get(media_type));
        let examples = examples(state, media, None).unwrap_or_default();
        let made = state
            .bodies
            .get_or_make((operation.pointer.as_str(), code, None), || {
                json_body(state, operation, code, &schema, examples)
            });
        let mut built = reply(
            status,
            Body::from(serde_json::to_vec(&made.0).unwrap_or_default()),
        );
        if let Ok(value) = HeaderValue::from_str(media_type) {
            built.headers_mut().insert(header::CONTENT_TYPE, value);
        }
        built
    } else if response.is_raw() {
        let (media_type, media) = content
            .and_then(|content| content.iter().next())
            .map_or(("application/octet-stream", None), |(media_type, media)| {
                (media_type.as_str(), Some(media))
            });
        let text = media
            .and_then(|media| media.get("example"))
            .map(|example| match example {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            })
            .unwrap_or_default();
        let media_type = if media_type.contains('*') {
            "application/octet-stream"
        } else {
            media_type
        };
        let mut built = reply(status, Body::from(text));
        if let Ok(value) = HeaderValue::from_str(media_type) {
            built.headers_mut().insert(header::CONTENT_TYPE, value);
        }
        built
    } else {
        reply(status, Body::empty())
    };
    for documented in response.headers.iter().filter(|header| header.required) {
        let value = match documented.kind {
            HeaderKind::Integer => "1",
            HeaderKind::Number => "1.5",
            HeaderKind::Boolean => "true",
            HeaderKind::String => "mock",
        };
        if let Ok(name) = HeaderName::from_bytes(documented.name.as_bytes()) {
            answer
                .headers_mut()
                .insert(name, HeaderValue::from_static(value));
        }
    }
    answer
}

/// Whether the request's `Accept` names `media_type` itself: a response
/// offering JSON or a stream is streamed only to a client asking for it.
fn asks_for(headers: &HeaderMap, media_type: &str) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|range| {
            range
                .split(';')
                .next()
                .is_some_and(|essence| essence.trim().eq_ignore_ascii_case(media_type))
        })
}

/// A streamed response: `Prefer: items=N` items (3 unless it says), each
/// after `Prefer: interval=MS` milliseconds, each the item made as a JSON
/// body is (an example, else synthesized) and checked against the item's
/// schema; a text event's data is `mock`.
fn streamed(
    state: &'static State,
    operation: &'static Operation,
    code: u16,
    stream: &'static model::ItemStream,
    prefer: &Prefer<'_>,
) -> Response {
    use futures_util::StreamExt;
    use model::streams::Framing;
    use openapi_crates_runtime::stream::{Event, EventStream, LineStream, Text};

    let status = openapi_crates_runtime::status(code);
    let count = prefer.items.unwrap_or(STREAM_ITEMS).min(MOST_STREAM_ITEMS);
    let interval = std::time::Duration::from_millis(prefer.interval.unwrap_or(0));
    let paced = move |index: u32| async move {
        if !interval.is_zero() {
            tokio::time::sleep(interval).await;
        }
        index
    };
    let indexes = futures_util::stream::iter(0..count).then(paced);
    let (item, broken) = match &stream.item {
        model::ItemType::Text if stream.framing == Framing::Events => {
            let events = indexes.map(|index| Event::new("mock".to_string()).id(index.to_string()));
            return EventStream::<String, Text>::new(events).into_response_with(status);
        }
        // A line's text is a JSON string.
        model::ItemType::Text => (Value::String("mock".into()), None),
        model::ItemType::Json => (Value::Object(Default::default()), None),
        model::ItemType::Named(schema) => {
            let made = stream_item(state, operation, code, stream, schema);
            (made.0.clone(), made.1.clone())
        }
    };
    let mut answer = match stream.framing {
        Framing::Events => {
            let events = indexes.map(move |index| Event::new(item.clone()).id(index.to_string()));
            EventStream::<Value>::new(events).into_response_with(status)
        }
        Framing::JsonLines | Framing::JsonSeq => {
            let items = indexes.map(move |_| item.clone());
            LineStream::new(items).into_response_with(status, &stream.media_type)
        }
    };
    if let Some(broken) = broken {
        let warning = HeaderValue::from_str(&format!("an item breaks its schema: {broken}"))
            .unwrap_or(HeaderValue::from_static("an item breaks its schema"));
        answer
            .headers_mut()
            .insert(HeaderName::from_static(WARNING), warning);
    }
    answer
}

/// The item of `stream` (of component schema `schema`) the mock sends,
/// made once, and the first rule it breaks if none passed.
fn stream_item(
    state: &'static State,
    operation: &'static Operation,
    code: u16,
    stream: &'static model::ItemStream,
    schema: &str,
) -> Made {
    // Keyed apart from the JSON body of the same status: no example's
    // name starts with a NUL.
    state.bodies.get_or_make(
        (
            operation.pointer.as_str(),
            code,
            Some(format!("\0{}", stream.media_type)),
        ),
        || json_body(state, operation, code, schema, Vec::new()),
    )
}

/// The first rule the body the mock sends for `response` of `operation`
/// (or an item of its stream) breaks, if it breaks one.
pub(crate) fn check_response(
    state: &'static State,
    operation: &'static Operation,
    response: &'static model::Response,
) -> Option<String> {
    let code = match response.status {
        Status::Code(code) => code,
        Status::Range(class) => class * 100,
        Status::Default => 500,
    };
    if let Some(stream) = &response.stream
        && let model::ItemType::Named(schema) = &stream.item
        && let Some(broken) = stream_item(state, operation, code, stream, schema)
            .1
            .clone()
    {
        return Some(format!("a streamed item: {broken}"));
    }
    let schema = response.schema.as_deref()?;
    let media = response_node(state, operation, response.status)
        .and_then(|node| node.get("content"))
        .and_then(Value::as_object)
        .and_then(|content| {
            content
                .iter()
                .find(|(media_type, _)| model::is_json(media_type))
                .map(|(_, media)| media)
        });
    let examples = examples(state, media, None).unwrap_or_default();
    json_body(state, operation, code, schema, examples).1
}

/// The response an operation lists for `code`: its own, else its range's.
fn listed(operation: &'static Operation, code: u16) -> Option<&'static model::Response> {
    operation
        .responses
        .iter()
        .find(|response| response.status == Status::Code(code))
        .or_else(|| {
            operation
                .responses
                .iter()
                .find(|response| response.status == Status::Range(code / 100))
        })
}

/// An error the mock's router answers by itself (a refused parameter or
/// body, a missing token, ...), in the operation's documented error body
/// where the spec documents one in JSON for the status and the router's
/// default shape is not it: the example, or a value made from the schema,
/// with the router's message in its `message`, `detail`, `error_description`
/// or `error` text where the schema has one and takes it. So a client reads
/// the mock's errors with the type the spec documents, as it would the
/// server's once its `router_error` answers in the API's shape.
pub(crate) fn router_error(
    state: &'static State,
    operation: &'static Operation,
    error: RouterError,
) -> Response {
    let default = |error: RouterError| match state.spec.model.error_shape {
        ErrorShape::Platform => error.into_platform_response(),
        ErrorShape::Problem => error.into_problem_response(),
    };
    if state.spec.model.error_shape == ErrorShape::Platform {
        return default(error);
    }
    let code = error.status().as_u16();
    let documented = listed(operation, code).or(operation.default_response.as_ref());
    if let Some(response) = documented
        && let Some(text) = text_error(state, operation, response, error.status(), &error.message())
    {
        return text;
    }
    let Some((response, schema)) =
        documented.and_then(|response| Some((response, response.schema.as_deref()?)))
    else {
        return default(error);
    };
    let media_type = response
        .media_types
        .iter()
        .find(|media_type| model::is_json(media_type))
        .map_or("application/json", String::as_str);
    if media_type == "application/problem+json" {
        return default(error);
    }
    let media = response_node(state, operation, response.status)
        .and_then(|node| node.get("content"))
        .and_then(|content| content.get(media_type));
    let examples = examples(state, media, None).unwrap_or_default();
    let (mut body, broken) = json_body(state, operation, code, schema, examples);
    if broken.is_some() {
        return default(error);
    }
    let passes = |value: &Value| rules_broken(state, schema, value).is_empty();
    let message = error.message();
    for field in ["message", "detail", "error_description", "error"] {
        if let Some(Value::String(text)) = body.get(field) {
            let kept = text.clone();
            body[field] = Value::String(message.clone());
            if !passes(&body) {
                body[field] = Value::String(kept);
            }
        }
    }
    let mut built = reply(
        error.status(),
        Body::from(serde_json::to_vec(&body).unwrap_or_default()),
    );
    if let Ok(value) = HeaderValue::from_str(media_type) {
        built.headers_mut().insert(header::CONTENT_TYPE, value);
    }
    built
}

/// A router error whose documented body is text (`text/plain`,
/// `text/html`, ...): the message itself, cut to the text schema's
/// `maxLength`.
fn text_error(
    state: &'static State,
    operation: &'static Operation,
    response: &'static model::Response,
    status: StatusCode,
    message: &str,
) -> Option<Response> {
    if !response.is_raw() {
        return None;
    }
    let media_type = response
        .media_types
        .iter()
        .find(|media_type| media_type.starts_with("text/") && !media_type.contains('*'))?;
    let document = &state.spec.document;
    let max_length = response_node(state, operation, response.status)
        .and_then(|node| node.get("content")?.get(media_type)?.get("schema"))
        .and_then(|schema| refs::follow(document, schema, "").ok())
        .and_then(|(schema, _)| schema.get("maxLength")?.as_u64())
        .and_then(|max| usize::try_from(max).ok());
    let text: String = match max_length {
        Some(max) => message.chars().take(max).collect(),
        None => message.to_string(),
    };
    let mut built = reply(status, Body::from(text));
    built.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(media_type).ok()?,
    );
    Some(built)
}

fn reply(status: StatusCode, body: Body) -> Response {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response
}

/// The response object of the spec for `status`, followed through `$ref`s.
fn response_node(
    state: &'static State,
    operation: &Operation,
    status: Status,
) -> Option<&'static Value> {
    response_node_in(&state.spec.document, operation, status)
}

/// A body passed as bytes that offers JSON beside other media types (JSON
/// or an event stream, say): its JSON media type and component schema,
/// which the mock answers with, as a client asking for JSON would get.
pub(crate) fn raw_json<'d>(
    document: &'d Value,
    operation: &Operation,
    response: &model::Response,
) -> Option<(&'d str, std::borrow::Cow<'d, str>)> {
    if !response.is_raw() {
        return None;
    }
    let content = response_node_in(document, operation, response.status)?
        .get("content")?
        .as_object()?;
    content.iter().find_map(|(media_type, media)| {
        let reference = media.get("schema")?.get("$ref")?.as_str()?;
        (model::is_json(media_type) && !media_type.contains('*'))
            .then_some((media_type.as_str(), refs::schema_name(reference)?))
    })
}

fn response_node_in<'d>(
    document: &'d Value,
    operation: &Operation,
    status: Status,
) -> Option<&'d Value> {
    let responses = pointer_join(&operation.pointer, "responses");
    let keys: Vec<String> = match status {
        Status::Code(code) => vec![code.to_string()],
        Status::Range(class) => vec![format!("{class}XX"), format!("{class}xx")],
        Status::Default => vec!["default".to_string()],
    };
    keys.iter().find_map(|key| {
        let pointer = pointer_join(&responses, key);
        refs::follow_pointer(document, &pointer)
            .ok()
            .map(|(node, _)| node)
    })
}

/// The examples a media type object gives, the one `Prefer: example=`
/// names alone (or the names there are, when it names none of them).
fn examples(
    state: &'static State,
    media: Option<&'static Value>,
    named: Option<&str>,
) -> Result<Vec<&'static Value>, Vec<String>> {
    let document = &state.spec.document;
    let listed: Vec<(&'static str, &'static Value)> = media
        .and_then(|media| media.get("examples"))
        .and_then(Value::as_object)
        .map(|examples| {
            examples
                .iter()
                .filter_map(|(name, example)| {
                    let (example, _) = refs::follow(document, example, "").ok()?;
                    Some((name.as_str(), example.get("value")?))
                })
                .collect()
        })
        .unwrap_or_default();
    if let Some(named) = named {
        return match listed.iter().find(|(name, _)| *name == named) {
            Some((_, value)) => Ok(vec![value]),
            None => Err(listed.iter().map(|(name, _)| name.to_string()).collect()),
        };
    }
    let mut examples: Vec<&'static Value> = media
        .and_then(|media| media.get("example"))
        .into_iter()
        .collect();
    examples.extend(listed.into_iter().map(|(_, value)| value));
    Ok(examples)
}

/// The rules `value` breaks under the checks of component schema `schema`.
fn rules_broken(state: &'static State, schema: &str, value: &Value) -> Violations {
    let mut out = Violations::new();
    if let Some(check) = state.checks.validator(schema) {
        let value = openapi_crates_runtime::json::Value::from(value.clone());
        state.checks.run(check, &value, &Location::Body, &mut out);
    }
    out
}

/// Made-up response bodies, kept: see `State::bodies`.
#[derive(Default)]
pub(crate) struct Bodies {
    made: std::sync::RwLock<std::collections::HashMap<BodyKey, Made>>,
}

/// An operation's pointer, a status, the example `Prefer` names.
type BodyKey = (&'static str, u16, Option<String>);

/// A body and the first rule it breaks, if none passed.
type Made = std::sync::Arc<(Value, Option<String>)>;

impl Bodies {
    /// The body `make` makes for `key`, made once.
    fn get_or_make(&self, key: BodyKey, make: impl FnOnce() -> (Value, Option<String>)) -> Made {
        if let Some(made) = self
            .made
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&key)
        {
            return made.clone();
        }
        let made = std::sync::Arc::new(make());
        self.made
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(key)
            .or_insert(made)
            .clone()
    }
}

/// The first warning of the generator's about a schema that the component
/// schema `schema` is or reaches by `$ref`: a body made for the schema as
/// read (a `required` name dropped where no value could pass it) may not
/// pass it as written, which the response then says.
fn read_otherwise(state: &State, schema: &str) -> Option<String> {
    let warnings = &state.warnings;
    if warnings.is_empty() {
        return None;
    }
    let document = &state.spec.document;
    let mut pending = vec![refs::schema_pointer(schema)];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(pointer) = pending.pop() {
        if !seen.insert(pointer.clone()) {
            continue;
        }
        // Dropped examples and defaults change no value's validity.
        let under = |warned: &str| {
            warned
                .strip_prefix(pointer.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                && !warned
                    .split('/')
                    .any(|token| matches!(token, "example" | "examples" | "default"))
        };
        if let Some(warning) = warnings
            .iter()
            .find(|warning| warning.pointer.as_deref().is_some_and(under))
        {
            return Some(warning.cause.clone());
        }
        let mut stack = vec![document.pointer(&pointer)?];
        while let Some(node) = stack.pop() {
            match node {
                Value::Object(object) => {
                    if let Some(target) = object
                        .get("$ref")
                        .and_then(Value::as_str)
                        .and_then(refs::target_pointer)
                    {
                        pending.push(target.to_string());
                    }
                    stack.extend(object.values());
                }
                Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }
    None
}

/// The body of a JSON response of component schema `schema`: the first of
/// the examples, then of the synthesized candidates, that passes the
/// schema's checks, and the first rule the body breaks when none did.
fn json_body(
    state: &'static State,
    operation: &Operation,
    code: u16,
    schema: &str,
    examples: Vec<&'static Value>,
) -> (Value, Option<String>) {
    let violations = |value: &Value| rules_broken(state, schema, value);
    let broken = |value: &Value| {
        violations(value)
            .into_iter()
            .next()
            .map(|violation| violation.detail)
    };
    let passes = |value: &Value| broken(value).is_none();
    for example in examples {
        if passes(example) {
            return (example.clone(), None);
        }
    }
    let Some(node) = state.spec.document.pointer(&refs::schema_pointer(schema)) else {
        return (Value::Null, None);
    };
    let mut last = Value::Null;
    for attempt in 0..ATTEMPTS {
        let seed = seed_of(state.seed, &operation.id, code, attempt);
        let mut synthesizer =
            Synthesizer::new(&state.spec.document, &state.checks, &state.derived, seed);
        synthesizer.use_examples = attempt == 0;
        synthesizer.variant = attempt.saturating_sub(1);
        let mut value = synthesizer.value(node, 0);
        if prune(&mut value, &violations) {
            return (value, None);
        }
        last = value;
    }
    let broken = broken(&last);
    (last, broken)
}

/// A seed per operation and status (FNV-1a: stable across Rust releases,
/// unlike the standard hasher), so a response does not depend on which
/// requests came before it.
fn seed_of(seed: u64, operation: &str, code: u16, attempt: usize) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = seed
        .to_le_bytes()
        .into_iter()
        .chain(operation.bytes())
        .chain(code.to_le_bytes())
        .chain((attempt as u64).to_le_bytes());
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// How many parts of a made-up value `prune` may take out.
const PRUNINGS: usize = 32;

/// Makes `value` pass by taking out what breaks a rule, where that leaves
/// fewer broken rules: an optional property or a list item whose schema no
/// value can pass (a `oneOf` of formats the server does not check, which
/// every string matches at once) goes, and the rest of the value stays.
/// Whether the value passes in the end.
fn prune(value: &mut Value, violations: &dyn Fn(&Value) -> Violations) -> bool {
    for _ in 0..PRUNINGS {
        let found = violations(value);
        let Some(first) = found.iter().next() else {
            return true;
        };
        let before = found.len();
        let mut pointer = first.pointer.clone();
        let mut pruned = false;
        while !pointer.is_empty() {
            let mut candidate = value.clone();
            if remove_at(&mut candidate, &pointer) && violations(&candidate).len() < before {
                *value = candidate;
                pruned = true;
                break;
            }
            pointer.truncate(pointer.rfind('/').unwrap_or(0));
        }
        if !pruned {
            return false;
        }
    }
    violations(value).is_empty()
}

/// Takes the member at JSON pointer `pointer` out of `value`.
fn remove_at(value: &mut Value, pointer: &str) -> bool {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return false;
    };
    let last = last.replace("~1", "/").replace("~0", "~");
    match value.pointer_mut(parent) {
        Some(Value::Object(object)) => object.remove(&last).is_some(),
        Some(Value::Array(items)) => match last.parse::<usize>() {
            Ok(index) if index < items.len() => {
                items.remove(index);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// The mock's side of a WebSocket connection: each text or binary message
/// is sent back as it came, until the client closes (the socket answers
/// the close itself, and the next read ends the loop).
pub(crate) async fn echo(mut socket: openapi_crates_runtime::websocket::server::WebSocket) {
    use openapi_crates_runtime::websocket::server::Message;
    while let Some(Ok(message)) = socket.recv().await {
        if matches!(message, Message::Text(_) | Message::Binary(_))
            && socket.send(message).await.is_err()
        {
            return;
        }
    }
}
