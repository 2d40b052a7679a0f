//! The one progenitor run behind the types and client crates.
//!
//! Progenitor converts the schemas with typify and builds the client in one
//! pass. Its client puts every type in a `types` module; the types crate is
//! exactly that module's contents (the run's type space), and the client
//! crate re-exports the types crate in its place. One run, so the two cannot
//! disagree, and no type is named twice: not the component schemas, nor the
//! types typify derives from parameters or inline schemas.

use openapiv3::OpenAPI;
use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use serde_json::Value;

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::emit::run_generator;
use crate::load::LoadedSpec;
use crate::model::parameters::{non_null, resolve};
use crate::model::{
    ApiModel, FORM, JSON, Operation, Parameter, ParameterLocation, Scalar, ValueType,
    essence, is_json, json_response_body, parse_openapi, sent_media_type,
};

/// What the types crate needs from its dependencies, as typify reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TypeDependencies {
    pub chrono: bool,
    pub regress: bool,
    pub serde_json: bool,
    pub uuid: bool,
}

pub struct ProgenitorOutput {
    /// The client, with an empty `types` module where the types were.
    pub client: TokenStream,
    /// The contents of that `types` module.
    pub types: TokenStream,
    pub dependencies: TypeDependencies,
}

/// Settings of the run: builder-style methods, derived `PartialEq`, ordered
/// maps (so open maps such as vendor keys serialize in a stable order), and
/// the client's inner value, where hooks keep their state.
fn settings() -> progenitor::GenerationSettings {
    let mut settings = progenitor::GenerationSettings::default();
    settings
        .with_interface(progenitor::InterfaceStyle::Builder)
        .with_tag(progenitor::TagStyle::Merged)
        .with_derive("PartialEq")
        .with_map_type("::std::collections::BTreeMap")
        .with_inner_type(quote::quote!(crate::hooks::Hooks))
        .with_hooks(progenitor::HooksMode::Expected);
    settings
}

/// The document progenitor is run on ([`progenitor_view`], with the
/// parameters its builders take, `client_parameters`), typed.
pub fn openapi_view(spec: &LoadedSpec, model: &ApiModel) -> Result<OpenAPI, Diagnostic> {
    let mut document = progenitor_view(&spec.document);
    client_parameters(&mut document, &model.operations);
    parse_openapi(&LoadedSpec {
        document,
        ..spec.clone()
    })
}

/// Progenitor's builders write a parameter only as a scalar in the path or
/// a header, or a scalar or repeated pairs in the query, and panic on a
/// parameter whose type is a struct. Every other parameter
/// ([`Parameter::sent_by_progenitor`]) is shown to progenitor as one it
/// takes, so that its builder still has a typed setter: a query parameter
/// stays in the query, a path parameter in the path, a header or a cookie
/// becomes a header, the value's schema is the one of `schema` or of
/// `content`, without the `null` a parameter says by being absent, and an
/// object's is plain text, whose type `emit::client` replaces with the
/// object's. `emit::client` then takes progenitor's writing of those
/// parameters out of `send` and writes them itself.
///
/// A scalar in the path or a header that may be `null` is shown without the
/// `null` too ([`scalar_without_null`]). The parameters of such an
/// operation are listed in full on the operation (a path item's own list is
/// copied to each of its operations), so that each can be shown its own way.
pub(crate) fn client_parameters(document: &mut Value, operations: &[Operation]) {
    let Some(Value::Object(paths)) = document.get("paths") else {
        return;
    };
    // Per path item, each operation's (method's) parameters as shown.
    type Listed = Vec<(String, Vec<Value>)>;
    let mut rewritten: Vec<(String, Listed)> = Vec::new();
    for (path, item) in paths {
        let Some(item) = item.as_object() else {
            continue;
        };
        let shared = item
            .get("parameters")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut changed = false;
        let mut views = Vec::new();
        for (method, operation) in item {
            let Some(model) = operations.iter().find(|model| {
                model.path == *path && model.method.as_str().eq_ignore_ascii_case(method)
            }) else {
                continue;
            };
            let own = operation
                .get("parameters")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let mut listed: Vec<Value> = Vec::new();
            for parameter in shared.iter().chain(&own) {
                let key = parameter_key(document, parameter);
                listed.retain(|seen| parameter_key(document, seen) != key);
                listed.push(parameter.clone());
            }
            let listed: Vec<Value> = listed
                .into_iter()
                .map(|parameter| {
                    let view = parameter_key(document, &parameter).and_then(|(name, location)| {
                        let found = model.parameters.iter().find(|candidate| {
                            candidate.name == name && candidate.location.as_str() == location
                        })?;
                        if !found.sent_by_progenitor() {
                            Some(parameter_view(document, &parameter, found))
                        } else {
                            scalar_without_null(document, &parameter, found)
                        }
                    });
                    changed |= view.is_some();
                    view.unwrap_or(parameter)
                })
                .collect();
            views.push((method.clone(), listed));
        }
        if changed {
            rewritten.push((pointer_join("/paths", path), views));
        }
    }
    for (item_pointer, views) in rewritten {
        let Some(Value::Object(item)) = document.pointer_mut(&item_pointer) else {
            continue;
        };
        item.shift_remove("parameters");
        for (method, listed) in views {
            if let Some(Value::Object(operation)) = item.get_mut(&method) {
                operation.insert("parameters".into(), Value::Array(listed));
            }
        }
    }
}

/// A scalar in the path or a header whose schema allows `null`, which
/// typify types as an `Option` that progenitor's builders write with
/// `to_string` (it has none): shown without the `null`, which a parameter
/// says by its absence. `None` for every other parameter.
fn scalar_without_null(document: &Value, parameter: &Value, model: &Parameter) -> Option<Value> {
    if !matches!(
        model.location,
        ParameterLocation::Path | ParameterLocation::Header
    ) {
        return None;
    }
    let mut raw = resolve(document, parameter)?.clone();
    let schema = raw.get("schema")?;
    let (inner, unwrapped) = non_null(document, schema);
    let nullable = inner.get("nullable") == Some(&Value::Bool(true));
    if unwrapped.is_empty() && !nullable {
        return None;
    }
    let mut inner = inner.clone();
    if let Value::Object(object) = &mut inner {
        object.shift_remove("nullable");
    }
    raw.insert("schema".into(), inner);
    Some(Value::Object(raw))
}

/// A parameter's `name` and `in`, through its `$ref`.
fn parameter_key(document: &Value, parameter: &Value) -> Option<(String, String)> {
    let parameter = resolve(document, parameter)?;
    Some((
        parameter.get("name")?.as_str()?.to_string(),
        parameter.get("in")?.as_str()?.to_string(),
    ))
}

/// The parameter as progenitor is shown it (see [`client_parameters`]).
fn parameter_view(document: &Value, parameter: &Value, model: &Parameter) -> Value {
    let raw = resolve(document, parameter).cloned().unwrap_or_default();
    let location = match model.location {
        ParameterLocation::Cookie => ParameterLocation::Header,
        other => other,
    };
    let schema = raw.get("schema").or_else(|| {
        raw.get("content")
            .and_then(Value::as_object)
            .and_then(|content| content.values().next())
            .and_then(|media| media.get("schema"))
    });
    let schema = match (&model.value, schema) {
        (ValueType::Named(_) | ValueType::Scalar(Scalar::Json), _) | (_, None) => {
            serde_json::json!({"type": "string"})
        }
        (_, Some(schema)) => {
            let mut schema = non_null(document, schema).0.clone();
            if let Value::Object(object) = &mut schema
                && !object.contains_key("$ref")
            {
                object.shift_remove("nullable");
            }
            schema
        }
    };
    let mut view = serde_json::Map::new();
    view.insert("name".into(), Value::String(model.name.clone()));
    view.insert("in".into(), Value::String(location.as_str().into()));
    view.insert("required".into(), Value::Bool(model.required));
    if let Some(description) = &model.description {
        view.insert("description".into(), Value::String(description.clone()));
    }
    view.insert("schema".into(), schema);
    Value::Object(view)
}

/// Runs progenitor on the [`openapi_view`] of `spec`, which it consumes so
/// that the document is gone before progenitor's output peaks.
pub fn run(spec: &LoadedSpec, openapi: OpenAPI) -> Result<ProgenitorOutput, Diagnostic> {
    run_generator(spec, "generating the types and the client", || {
        let mut generator = progenitor::Generator::new(&settings());
        let client = generator
            .generate_tokens(&openapi)
            .map_err(|err| err.to_string())?;
        // The client already holds the type space's tokens: rendering them a
        // second time (`to_stream`) would cost as much again.
        let (client, types) = take_types_module(client)
            .ok_or_else(|| "progenitor output has no `types` module".to_string())?;
        let type_space = generator.get_type_space();
        Ok(ProgenitorOutput {
            client,
            types,
            dependencies: TypeDependencies {
                chrono: type_space.uses_chrono(),
                regress: type_space.uses_regress(),
                serde_json: type_space.uses_serde_json(),
                uuid: type_space.uses_uuid(),
            },
        })
    })
}

/// Splits progenitor's client into the client with an empty `pub mod types {}`
/// and that module's contents, at the token level, so the types (most of
/// the code) are never parsed as part of the client.
fn take_types_module(client: TokenStream) -> Option<(TokenStream, TokenStream)> {
    let mut tokens: Vec<TokenTree> = client.into_iter().collect();
    let position = tokens.windows(3).position(|window| {
        matches!(window, [TokenTree::Ident(keyword), TokenTree::Ident(name), TokenTree::Group(body)]
            if keyword == "mod" && name == "types" && body.delimiter() == Delimiter::Brace)
    })?;
    let TokenTree::Group(body) = &mut tokens[position + 2] else {
        return None;
    };
    let types = body.stream();
    let span = body.span();
    *body = Group::new(Delimiter::Brace, TokenStream::new());
    body.set_span(span);
    Some((tokens.into_iter().collect(), types))
}

/// The document as progenitor gets it, with adaptations that do not
/// change what the spec means:
/// - request bodies keep the one media type the client sends
///   ([`crate::model::sent_media_type`]): progenitor can send one per
///   operation, and the server accepts each. Any JSON is progenitor's
///   `application/json`, any other body passed as bytes its
///   `application/octet-stream` (a `multipart/form-data` upload becomes a
///   form the client crate encodes); `emit::client` restores the media type
///   on the wire;
/// - a response body is `application/json` where the model types it (any
///   JSON media type, [`crate::model::json_response_body`]), else bytes; a
///   response to `HEAD` has none;
/// - the keywords the 3.0 dialect cannot carry (`prefixItems`,
///   `patternProperties`, `if`, ...) are loosened so the types accept every
///   value they allow; the server checks them (`lower::loosen_for_types`);
/// - `minLength: 0` and `minItems: 0` hold for every value, and typify would
///   render them as comparisons with zero that clippy rejects;
/// - a `readOnly` property is not required of a schema sent in requests, nor
///   a `writeOnly` one of a schema returned in responses: requests never
///   carry the first, responses never the second. A schema used both ways has
///   one type, in which such a field is an `Option`;
/// - the properties of PATCH bodies have no `default`: leaving a field out of
///   a PATCH means "keep the value", so no default may stand in for it
///   (typify would otherwise fill the field with its default and the client
///   would send it, overwriting the stored value, on every PATCH).
pub fn progenitor_view(document: &Value) -> Value {
    let mut document = document.clone();
    if let Some(Value::Object(paths)) = document.get_mut("paths") {
        for item in paths.values_mut().filter_map(Value::as_object_mut) {
            for body in item
                .values_mut()
                .filter_map(|operation| operation.get_mut("requestBody"))
            {
                client_body(body);
            }
        }
    }
    if let Some(Value::Object(bodies)) = document.pointer_mut("/components/requestBodies") {
        for body in bodies.values_mut() {
            client_body(body);
        }
    }
    crate::lower::loosen_for_types(&mut document);
    drop_zero_minimums(&mut document);
    type_untyped_string_enums(&mut document);
    relax_one_way_properties(&mut document);
    response_bodies(&mut document);
    raw_mixed_responses(&mut document);
    patch_bodies_without_defaults(&mut document);
    document
}

/// Removes `default` from the properties of every schema a PATCH operation
/// takes as its body (named ones: inline bodies have been named by then).
pub(crate) fn patch_bodies_without_defaults(document: &mut Value) {
    let mut names = Vec::new();
    if let Some(Value::Object(paths)) = document.get("paths") {
        for item in paths.values() {
            let Some(body) = item.pointer("/patch/requestBody") else {
                continue;
            };
            let Ok((body, _)) = crate::model::refs::follow(document, body, "") else {
                continue;
            };
            let Some(Value::Object(content)) = body.get("content") else {
                continue;
            };
            for media in content.values() {
                if let Some(name) = media
                    .pointer("/schema/$ref")
                    .and_then(Value::as_str)
                    .and_then(crate::model::refs::schema_name)
                {
                    names.push(name.to_string());
                }
            }
        }
    }
    let Some(Value::Object(schemas)) = document.pointer_mut("/components/schemas") else {
        return;
    };
    for name in names {
        if let Some(Value::Object(properties)) = schemas
            .get_mut(&name)
            .and_then(|schema| schema.get_mut("properties"))
        {
            for property in properties.values_mut().filter_map(Value::as_object_mut) {
                property.shift_remove("default");
            }
        }
    }
}

/// The body as the client sends it ([`crate::model::sent_media_type`]): JSON
/// as progenitor's `application/json`, a form as it is, any other as bytes,
/// progenitor's `application/octet-stream` (or `text/plain`) with the schema
/// it requires. A `multipart/form-data` upload, which progenitor cannot send,
/// is given to it as bytes too; the client's builder then takes a form
/// instead (`emit::client`).
fn client_body(body: &mut Value) {
    let Some(Value::Object(content)) = body.get_mut("content") else {
        return;
    };
    let offered: Vec<&str> = content.keys().map(String::as_str).collect();
    let Some(sent) = sent_media_type(&offered).map(str::to_string) else {
        return;
    };
    let entry = content.shift_remove(&sent).unwrap_or_default();
    content.clear();
    let essence = essence(&sent);
    let (key, entry) = if is_json(&essence) {
        (JSON, entry)
    } else if essence == FORM {
        (sent.as_str(), entry)
    } else if essence == "text/plain" {
        (
            "text/plain",
            serde_json::json!({"schema": {"type": "string"}}),
        )
    } else {
        (
            "application/octet-stream",
            serde_json::json!({"schema": {"type": "string", "format": "binary"}}),
        )
    };
    content.insert(key.to_string(), entry);
}

/// Every response's body as progenitor reads it: `application/json` with its
/// schema where the model types it, `application/octet-stream` (bytes)
/// otherwise, in `paths` and in `components/responses`. Progenitor would
/// type only `application/json` and read several media types by the first.
/// A response to `HEAD` has no body (its `$ref`s are resolved so the shared
/// response keeps its own).
fn response_bodies(document: &mut Value) {
    let shared = document
        .pointer("/components/responses")
        .cloned()
        .unwrap_or_default();
    if let Some(Value::Object(responses)) = document.pointer_mut("/components/responses") {
        responses.values_mut().for_each(response_body);
    }
    let Some(Value::Object(paths)) = document.get_mut("paths") else {
        return;
    };
    for item in paths.values_mut().filter_map(Value::as_object_mut) {
        for (method, operation) in item.iter_mut() {
            let Some(Value::Object(responses)) = operation.get_mut("responses") else {
                continue;
            };
            for response in responses.values_mut() {
                if method == "head" {
                    if let Some(name) = response
                        .get("$ref")
                        .and_then(Value::as_str)
                        .and_then(|reference| reference.strip_prefix("#/components/responses/"))
                    {
                        *response = shared.get(name).cloned().unwrap_or_default();
                    }
                    if let Value::Object(response) = response {
                        response.shift_remove("content");
                    }
                } else {
                    response_body(response);
                }
            }
        }
    }
}

fn response_body(response: &mut Value) {
    let Some(Value::Object(content)) = response.get_mut("content") else {
        return;
    };
    if content.is_empty() {
        return;
    }
    let body = match json_response_body(content) {
        Some((_, schema)) => serde_json::json!({JSON: {"schema": schema}}),
        None => serde_json::json!({
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}
        }),
    };
    *content = match body {
        Value::Object(body) => body,
        _ => unreachable!("a JSON object"),
    };
}

/// Progenitor gives each operation one success type and one error type. Where
/// the spec's 2xx responses (or its 4xx/5xx ones) carry different bodies (a
/// 200 with a body beside a 204 without, or one error schema per status), the
/// client receives that group as raw bytes with the status: its view of those
/// responses is `application/octet-stream`. The server keeps one variant per
/// status, each with its own type.
fn raw_mixed_responses(document: &mut Value) {
    // Responses refer to `components/responses` only (bundling saw to it):
    // a copy of that section is all references are followed in while the
    // document changes.
    let shared = serde_json::json!({"components": {"responses": document
        .pointer("/components/responses")
        .cloned()
        .unwrap_or_default()}});
    let resolve = |response: &Value| -> Value {
        crate::model::refs::follow(&shared, response, "")
            .map(|(response, _)| response.clone())
            .unwrap_or_default()
    };
    let Some(Value::Object(paths)) = document.get_mut("paths") else {
        return;
    };
    for item in paths.values_mut().filter_map(Value::as_object_mut) {
        for operation in item.values_mut() {
            let Some(Value::Object(responses)) = operation.get_mut("responses") else {
                continue;
            };
            for success in [true, false] {
                let group: Vec<String> = responses
                    .keys()
                    .filter(|status| {
                        let is_success = status.starts_with('2');
                        // Progenitor decodes `default` as an error (`_`).
                        let is_error = status.starts_with('4')
                            || status.starts_with('5')
                            || *status == "default";
                        if success { is_success } else { is_error }
                    })
                    .cloned()
                    .collect();
                // A JSON body by its schema, bytes, or none.
                let mut kinds: Vec<Value> = group
                    .iter()
                    .map(|status| {
                        let response = resolve(&responses[status]);
                        match response.pointer("/content/application~1json/schema") {
                            Some(schema) => schema.clone(),
                            None if response
                                .get("content")
                                .and_then(Value::as_object)
                                .is_some_and(|content| !content.is_empty()) =>
                            {
                                Value::String("bytes".into())
                            }
                            None => Value::Null,
                        }
                    })
                    .collect();
                kinds.dedup();
                kinds.sort_by_key(Value::to_string);
                kinds.dedup();
                if kinds.len() <= 1 {
                    continue;
                }
                for status in group {
                    let mut response = resolve(&responses[&status]);
                    if let Some(object) = response.as_object_mut() {
                        object.insert(
                            "content".into(),
                            serde_json::json!({
                                "application/octet-stream": {
                                    "schema": {"type": "string", "format": "binary"}
                                }
                            }),
                        );
                        object.shift_remove("headers");
                    }
                    responses.insert(status, response);
                }
            }
            // A redirect is followed by the HTTP client itself (or, like a
            // 304, answers a conditional request): progenitor has no
            // place for 3xx bodies, and the client reports such a status
            // as unexpected, with the response.
            responses.retain(|status, _| !status.starts_with('3'));
            one_success_beside_default(responses);
        }
    }
}

/// Progenitor counts a `default` response among both the successes and the
/// errors, and panics when its body differs from the successes' body, unless
/// a `2XX` range comes right before it. Beside a `default` (which the server
/// answers with errors only), the 2xx responses, one body kind by now, become
/// that one `2XX`: the client decodes every 2xx as the success type, and every
/// unlisted status as the `default` error.
fn one_success_beside_default(responses: &mut serde_json::Map<String, Value>) {
    if !responses.contains_key("default") {
        return;
    }
    let successes: Vec<String> = responses
        .keys()
        .filter(|status| status.starts_with('2'))
        .cloned()
        .collect();
    let Some(first) = successes
        .first()
        .and_then(|status| responses.get(status))
        .cloned()
    else {
        return;
    };
    for status in &successes {
        responses.shift_remove(status);
    }
    responses.insert("2XX".into(), first);
}

/// Typify refuses an enum without `type` once `null` is among its values
/// (`enum: [eu, null]`, or a nullable one): an enum of strings is given
/// `type: string`, which says the same.
fn type_untyped_string_enums(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if !object.contains_key("type")
                && let Some(Value::Array(values)) = object.get("enum")
                && values.iter().any(Value::is_string)
                && values
                    .iter()
                    .all(|value| value.is_string() || value.is_null())
            {
                object.insert("type".into(), Value::String("string".into()));
            }
            for (key, child) in object.iter_mut() {
                if !key.starts_with("x-") && key != "example" && key != "default" && key != "enum" {
                    type_untyped_string_enums(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(type_untyped_string_enums),
        _ => {}
    }
}

fn drop_zero_minimums(value: &mut Value) {
    match value {
        Value::Object(object) => {
            for keyword in ["minLength", "minItems"] {
                if object.get(keyword).and_then(Value::as_u64) == Some(0) {
                    object.shift_remove(keyword);
                }
            }
            for (key, child) in object.iter_mut() {
                if !key.starts_with("x-") && key != "example" && key != "default" {
                    drop_zero_minimums(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(drop_zero_minimums),
        _ => {}
    }
}

/// Which ways a schema travels: in requests, in responses, or both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Ways {
    request: bool,
    response: bool,
}

/// Drops from `required` the properties a schema never carries the way it
/// travels: read-only ones of schemas sent in requests, write-only ones of
/// schemas returned in responses. A schema used both ways loses both.
fn relax_one_way_properties(document: &mut Value) {
    let mut ways: std::collections::BTreeMap<String, Ways> = Default::default();
    let mut roots: Vec<(String, bool)> = Vec::new();
    collect_roots(document, "", None, &mut roots);
    let schemas = document
        .pointer("/components/schemas")
        .cloned()
        .unwrap_or_default();
    let mut pending = roots;
    while let Some((name, request)) = pending.pop() {
        let entry = ways.entry(name.clone()).or_default();
        let seen = if request {
            entry.request
        } else {
            entry.response
        };
        if seen {
            continue;
        }
        if request {
            entry.request = true;
        } else {
            entry.response = true;
        }
        if let Some(schema) = schemas.get(&name) {
            let mut names = Vec::new();
            crate::model::validation::collect_schema_refs(schema, &mut names);
            pending.extend(names.into_iter().map(|name| (name, request)));
        }
    }
    if let Some(Value::Object(schemas)) = document.pointer_mut("/components/schemas") {
        for (name, schema) in schemas.iter_mut() {
            relax(schema, ways.get(name).copied().unwrap_or_default());
        }
    }
    relax_inline(document, None);
}

/// The component schemas request bodies and parameters (`true`) and
/// responses (`false`) refer to directly.
fn collect_roots(value: &Value, key: &str, request: Option<bool>, out: &mut Vec<(String, bool)>) {
    let request = match key {
        "requestBody" | "requestBodies" | "parameters" => Some(true),
        "responses" => Some(false),
        _ => request,
    };
    match value {
        Value::Object(object) => {
            if let (Some(request), Some(Value::String(reference))) = (request, object.get("$ref"))
                && let Some(name) = crate::model::refs::schema_name(reference)
            {
                out.push((name.to_string(), request));
            }
            for (child_key, child) in object {
                if child_key != "schemas" && !child_key.starts_with("x-") && child_key != "example"
                {
                    collect_roots(child, child_key, request, out);
                }
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| collect_roots(item, key, request, out)),
        _ => {}
    }
}

/// Inline schemas under `paths` travel the way their place says.
fn relax_inline(value: &mut Value, ways: Option<Ways>) {
    let Value::Object(object) = value else {
        if let Value::Array(items) = value {
            items.iter_mut().for_each(|item| relax_inline(item, ways));
        }
        return;
    };
    for (key, child) in object.iter_mut() {
        let ways = match key.as_str() {
            "requestBody" | "parameters" => Some(Ways {
                request: true,
                response: false,
            }),
            "responses" => Some(Ways {
                request: false,
                response: true,
            }),
            "components" => continue,
            _ => ways,
        };
        match (key.as_str(), ways) {
            ("schema", Some(ways)) => relax(child, ways),
            _ if !key.starts_with("x-") && key != "example" => relax_inline(child, ways),
            _ => {}
        }
    }
}

fn relax(schema: &mut Value, ways: Ways) {
    match schema {
        Value::Object(object) => {
            let dropped: Vec<String> = object
                .get("properties")
                .and_then(Value::as_object)
                .map(|properties| {
                    properties
                        .iter()
                        .filter(|(_, property)| {
                            (ways.request && flag(property, "readOnly"))
                                || (ways.response && flag(property, "writeOnly"))
                        })
                        .map(|(name, _)| name.clone())
                        .collect()
                })
                .unwrap_or_default();
            if let Some(Value::Array(required)) = object.get_mut("required") {
                required.retain(|name| {
                    !name
                        .as_str()
                        .is_some_and(|name| dropped.iter().any(|one| one == name))
                });
            }
            for (key, child) in object.iter_mut() {
                if !key.starts_with("x-") && key != "example" && key != "default" && key != "$ref" {
                    relax(child, ways);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| relax(item, ways)),
        _ => {}
    }
}

fn flag(property: &Value, keyword: &str) -> bool {
    property.get(keyword) == Some(&Value::Bool(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_way_properties_are_required_only_the_way_they_travel() {
        let one_way = json!({
            "type": "object", "required": ["id", "secret", "name"],
            "properties": {
                "id": {"type": "string", "readOnly": true},
                "secret": {"type": "string", "writeOnly": true},
                "name": {"type": "string"},
            },
        });
        let body = |name: &str| json!({"content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{name}")}}}});
        let view = progenitor_view(&json!({
            "paths": {"/a": {"post": {
                "requestBody": body("In"),
                "responses": {"200": body("Out"), "201": body("Both")},
            }, "put": {"requestBody": body("Both")}}},
            "components": {"schemas": {
                "In": {"$ref": "#/components/schemas/InInner"},
                "InInner": one_way, "Out": one_way, "Both": one_way,
            }},
        }));
        let required = |name: &str| view["components"]["schemas"][name]["required"].clone();
        assert_eq!(
            required("InInner"),
            json!(["secret", "name"]),
            "requests carry write-only"
        );
        assert_eq!(
            required("Out"),
            json!(["id", "name"]),
            "responses carry read-only"
        );
        assert_eq!(required("Both"), json!(["name"]));
    }

    #[test]
    fn beside_a_default_the_successes_are_one_range_and_uploads_are_bytes() {
        let ok = json!({"description": "ok", "content": {"application/json": {"schema": {"type": "string"}}}});
        let view = progenitor_view(&json!({"paths": {"/a": {"post": {
            "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object"}}}},
            "responses": {"200": ok, "201": ok, "404": {"description": "gone"}, "default": {"description": "other"}},
        }}}}));
        let operation = &view["paths"]["/a"]["post"];
        assert_eq!(
            operation["requestBody"]["content"],
            json!({"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}})
        );
        let statuses: Vec<&String> = operation["responses"].as_object().unwrap().keys().collect();
        assert_eq!(statuses, ["404", "default", "2XX"]);
        assert_eq!(operation["responses"]["2XX"], ok);
    }

    #[test]
    fn progenitor_sees_the_sent_body_and_typed_or_raw_responses() {
        let note = json!({"$ref": "#/components/schemas/Note"});
        let csv = json!({"schema": {"type": "string"}});
        let view = progenitor_view(&json!({
            "paths": {"/a": {
                "patch": {
                    "requestBody": {"content": {
                        "multipart/form-data": {"schema": {"type": "object"}},
                        "application/merge-patch+json": {"schema": note},
                    }},
                    "responses": {
                        "200": {"description": "ok", "content": {"application/vnd.a+json": {"schema": note}}},
                        "404": {"$ref": "#/components/responses/Missing"},
                    },
                },
                "put": {
                    "requestBody": {"content": {"text/csv": csv}},
                    "responses": {"200": {"description": "ok", "content": {"text/csv": csv, "application/json": {"schema": note}}}},
                },
                "head": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": note}}}, "404": {"$ref": "#/components/responses/Missing"}}},
            }},
            "components": {"responses": {"Missing": {"description": "gone", "content": {"application/problem+json": {"schema": note}}}}},
        }));
        let binary =
            json!({"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}});
        let patch = &view["paths"]["/a"]["patch"];
        assert_eq!(
            patch["requestBody"]["content"],
            json!({"application/json": {"schema": note}})
        );
        assert_eq!(
            patch["responses"]["200"]["content"],
            json!({"application/json": {"schema": note}})
        );
        let put = &view["paths"]["/a"]["put"];
        assert_eq!(put["requestBody"]["content"], binary);
        assert_eq!(
            put["responses"]["200"]["content"], binary,
            "several media types are bytes"
        );
        assert_eq!(
            view["components"]["responses"]["Missing"]["content"],
            json!({"application/json": {"schema": note}})
        );
        let head = &view["paths"]["/a"]["head"]["responses"];
        assert_eq!(head["200"], json!({"description": "ok"}));
        assert_eq!(
            head["404"],
            json!({"description": "gone"}),
            "its own copy, without a body"
        );
    }

    #[test]
    fn a_body_beside_bytes_or_none_makes_the_group_raw() {
        let view = progenitor_view(&json!({"paths": {"/a": {"get": {"responses": {
            "200": {"description": "image", "content": {"image/png": {}}},
            "204": {"description": "none"},
        }}}}}));
        let responses = &view["paths"]["/a"]["get"]["responses"];
        assert_eq!(responses["200"]["content"], responses["204"]["content"]);
    }

    #[test]
    fn progenitor_sees_json_bodies_and_no_zero_minimums() {
        let document = json!({
            "paths": {"/a": {"post": {"requestBody": {"content": {
                "application/json": {"schema": {"type": "string", "minLength": 0, "maxLength": 3}},
                "application/x-www-form-urlencoded": {"schema": {"type": "string"}},
            }}}}},
            "components": {"requestBodies": {"B": {"content": {
                "application/x-www-form-urlencoded": {}, "application/json": {}}}},
                "schemas": {"L": {"type": "array", "minItems": 0, "example": {"minItems": 0}}}},
        });
        let view = progenitor_view(&document);
        assert_eq!(
            view["paths"]["/a"]["post"]["requestBody"]["content"],
            json!({"application/json": {"schema": {"type": "string", "maxLength": 3}}})
        );
        assert_eq!(
            view["components"]["requestBodies"]["B"]["content"],
            json!({"application/json": {}})
        );
        assert_eq!(
            view["components"]["schemas"]["L"],
            json!({"type": "array", "example": {"minItems": 0}}),
            "examples are data, not schemas"
        );
    }
    #[test]
    fn progenitor_sees_parameters_it_can_take_and_the_rest_as_text() {
        let spec = crate::load::parse_spec(
            std::path::Path::new("spec.yaml"),
            br##"
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /things/{id}:
    parameters:
      - {name: id, in: path, required: true, style: label, schema: {type: integer}}
    get:
      operationId: get_thing
      parameters:
        - {name: session, in: cookie, schema: {type: string, nullable: true}}
        - {name: filter, in: query, style: deepObject, schema: {$ref: "#/components/schemas/Filter"}}
        - {name: take, in: query, schema: {type: integer}}
      responses: {"200": {description: ok}}
    delete:
      operationId: delete_thing
      responses: {"204": {description: gone}}
components:
  schemas:
    Filter: {type: object, properties: {a: {type: string}}}
"##,
        )
        .unwrap();
        let model = crate::model::build_model(&spec).unwrap();
        let mut view = progenitor_view(&spec.document);
        client_parameters(&mut view, &model.operations);
        let item = &view["paths"]["/things/{id}"];
        assert!(item.get("parameters").is_none(), "{item}");
        let id =
            json!({"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}});
        assert_eq!(
            item["get"]["parameters"],
            json!([
                id,
                {"name": "session", "in": "header", "required": false, "schema": {"type": "string"}},
                {"name": "filter", "in": "query", "required": false, "schema": {"type": "string"}},
                {"name": "take", "in": "query", "schema": {"type": "integer"}},
            ])
        );
        assert_eq!(item["delete"]["parameters"], json!([id]));
    }
}
