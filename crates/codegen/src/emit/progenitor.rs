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
use crate::emit::placeholders::Placeholders;
use crate::emit::run_generator;
use crate::load::LoadedSpec;
use crate::model::{JSON, MULTIPART, names, parse_openapi};
use crate::naming;
use crate::walk::{self, Direction};

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

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

/// The document progenitor is run on ([`progenitor_view`]), typed, with
/// the placeholders it holds in place of wire names.
pub struct View {
    pub openapi: OpenAPI,
    placeholders: Option<Placeholders>,
}

/// The document progenitor is run on ([`progenitor_view`]), typed.
pub fn openapi_view(spec: &LoadedSpec) -> Result<View, Diagnostic> {
    let (document, placeholders) = view_document(&spec.document);
    let openapi = parse_openapi(&LoadedSpec {
        document,
        ..spec.clone()
    })?;
    Ok(View {
        openapi,
        placeholders,
    })
}

/// Runs progenitor on the [`openapi_view`] of `spec`, which it consumes so
/// that the document is gone before progenitor's output peaks. The wire
/// names the view replaced are back in the output.
pub fn run(spec: &LoadedSpec, view: View) -> Result<ProgenitorOutput, Diagnostic> {
    let View {
        openapi,
        placeholders,
    } = view;
    let mut output = generate(spec, openapi)?;
    if let Some(placeholders) = placeholders {
        output.client = placeholders.restore_tokens(output.client);
        output.types = placeholders.restore_tokens(output.types);
    }
    Ok(output)
}

fn generate(spec: &LoadedSpec, openapi: OpenAPI) -> Result<ProgenitorOutput, Diagnostic> {
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

/// The document as progenitor gets it, with adaptations that do not change
/// what the spec means:
/// - request bodies keep JSON only: progenitor can send one media type per
///   operation, and the service accepts JSON wherever it accepts a form; a
///   body without JSON is sent as bytes (a `multipart/form-data` upload as a
///   form the client crate encodes);
/// - `minLength: 0` and `minItems: 0` hold for every value, and typify would
///   render them as comparisons with zero that clippy rejects;
/// - a `readOnly` property is not required of a schema sent in requests, nor
///   a `writeOnly` one of a schema returned in responses: requests never
///   carry the first, responses never the second. A schema used both ways has
///   one type, in which such a field is an `Option`;
/// - the properties of PATCH bodies have no `default`: leaving a field out of
///   a PATCH means "keep the value", so no default may stand in for it
///   (typify would otherwise fill the field with its default and the client
///   would send it, overwriting the stored value, on every PATCH);
/// - wire names that would become one identifier (two properties of an
///   object, two parameters of an operation, enum values such as `asc` and
///   `ASC`) or an identifier rustc refuses (the variant typify makes of
///   `+1`) are placeholders ([`super::placeholders`]) that convert to the
///   names `naming` chose; the output gets the wire names back.
pub fn progenitor_view(document: &Value) -> Value {
    view_document(document).0
}

fn view_document(original: &Value) -> (Value, Option<Placeholders>) {
    let mut document = original.clone();
    let mut alphabet = Alphabet::new(original);
    parameters_under_code_names(&mut document, &mut alphabet);
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
    walk::for_each_schema_mut(&mut document, |_, schema| {
        drop_zero_minimums(schema);
        type_untyped_string_enums(schema);
        properties_under_field_names(schema, &mut alphabet);
        enum_values_under_variant_names(schema, &mut alphabet);
    });
    relax_one_way_properties(&mut document);
    raw_mixed_responses(&mut document);
    patch_bodies_without_defaults(&mut document);
    (document, alphabet.used())
}

/// The placeholder alphabet, chosen the first time one is needed.
struct Alphabet<'a> {
    document: &'a Value,
    chosen: Option<Option<Placeholders>>,
}

impl<'a> Alphabet<'a> {
    fn new(document: &'a Value) -> Self {
        Alphabet {
            document,
            chosen: None,
        }
    }

    fn get(&mut self) -> Option<Placeholders> {
        *self
            .chosen
            .get_or_insert_with(|| Placeholders::for_document(self.document))
    }

    fn used(&self) -> Option<Placeholders> {
        self.chosen.flatten()
    }
}

/// Parameters whose code name ([`crate::model::names::parameter_code_names`])
/// is not their spec name are placeholders, in the operation's own list
/// (the path item's parameters are copied into each of its operations, so
/// each operation can rename its own), and in the path template for path
/// parameters (which every operation of the path renames alike).
fn parameters_under_code_names(document: &mut Value, alphabet: &mut Alphabet<'_>) {
    let Some(Value::Object(paths)) = document.get("paths") else {
        return;
    };
    let mut plans: Vec<(String, Vec<(String, Vec<Value>)>, Vec<(String, String)>)> = Vec::new();
    for (path, item) in paths {
        let Some(item_object) = item.as_object() else {
            continue;
        };
        let item_pointer = pointer_join("/paths", path);
        let operations: Vec<(&String, Vec<(String, String, String)>)> = item_object
            .keys()
            .filter(|method| METHODS.contains(&method.as_str()))
            .map(|method| {
                let pointer = pointer_join(&item_pointer, method);
                (method, names::parameter_code_names(document, &pointer))
            })
            .collect();
        let renamed = operations
            .iter()
            .flat_map(|(_, codes)| codes)
            .any(|(name, _, code)| name != code);
        if !renamed {
            continue;
        }
        let Some(placeholders) = alphabet.get() else {
            continue;
        };
        let mut template = Vec::new();
        let mut lists = Vec::new();
        for (method, codes) in operations {
            let raw = effective_parameters(document, item, &item_object[method.as_str()]);
            let list = codes
                .iter()
                .filter_map(|(name, location, code)| {
                    let mut parameter = raw
                        .iter()
                        .find(|parameter| {
                            parameter.get("name").and_then(Value::as_str) == Some(name)
                                && parameter.get("in").and_then(Value::as_str) == Some(location)
                        })?
                        .clone();
                    if name != code {
                        let placeholder = placeholders.wrap(code, name);
                        if location == "path" && !template.iter().any(|(old, _)| old == name) {
                            template.push((name.clone(), placeholder.clone()));
                        }
                        parameter["name"] = Value::String(placeholder);
                    }
                    Some(parameter)
                })
                .collect();
            lists.push((method.clone(), list));
        }
        plans.push((path.clone(), lists, template));
    }
    if plans.is_empty() {
        return;
    }
    let Some(Value::Object(paths)) = document.get_mut("paths") else {
        return;
    };
    for (path, lists, _) in &plans {
        if let Some(Value::Object(item)) = paths.get_mut(path) {
            item.shift_remove("parameters");
            for (method, list) in lists {
                if let Some(Value::Object(operation)) = item.get_mut(method) {
                    operation.insert("parameters".into(), Value::Array(list.clone()));
                }
            }
        }
    }
    *paths = std::mem::take(paths)
        .into_iter()
        .map(|(path, item)| {
            let template = plans
                .iter()
                .find(|(planned, _, _)| *planned == path)
                .map(|(_, _, template)| template.as_slice())
                .unwrap_or_default();
            let path = template.iter().fold(path, |path, (old, new)| {
                path.replace(&format!("{{{old}}}"), &format!("{{{new}}}"))
            });
            (path, item)
        })
        .collect();
}

/// The parameters of `operation` with those of its path `item` it does not
/// override (by name and location), `$ref`s resolved.
fn effective_parameters(document: &Value, item: &Value, operation: &Value) -> Vec<Value> {
    let resolve = |parameter: &Value| -> Value {
        match parameter
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|target| target.strip_prefix('#'))
            .and_then(|pointer| document.pointer(pointer))
        {
            Some(resolved) => resolved.clone(),
            None => parameter.clone(),
        }
    };
    let key = |parameter: &Value| (parameter.get("name").cloned(), parameter.get("in").cloned());
    let mut found: Vec<Value> = Vec::new();
    for owner in [item, operation] {
        if let Some(Value::Array(parameters)) = owner.get("parameters") {
            for parameter in parameters.iter().map(resolve) {
                found.retain(|seen| key(seen) != key(&parameter));
                found.push(parameter);
            }
        }
    }
    found
}

/// The properties of `schema` whose field names clash are placeholders that
/// convert to the names [`naming::distinct`] gives them (`required` and a
/// discriminator's `propertyName` follow); serde renames them back.
fn properties_under_field_names(schema: &mut Value, alphabet: &mut Alphabet<'_>) {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return;
    };
    let names: Vec<&str> = properties.keys().map(String::as_str).collect();
    let sources = naming::distinct(&names, &[naming::field_name]);
    let renames: Vec<(String, String)> = names
        .iter()
        .zip(&sources)
        .filter(|(name, source)| **name != source.as_str())
        .map(|(name, source)| (name.to_string(), source.clone()))
        .collect();
    if renames.is_empty() {
        return;
    }
    let Some(placeholders) = alphabet.get() else {
        return;
    };
    let renamed = |name: &str| -> Option<String> {
        renames
            .iter()
            .find(|(old, _)| old == name)
            .map(|(old, source)| placeholders.wrap(source, old))
    };
    let Value::Object(object) = schema else {
        return;
    };
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        *properties = std::mem::take(properties)
            .into_iter()
            .map(|(name, property)| (renamed(&name).unwrap_or(name), property))
            .collect();
    }
    if let Some(Value::Array(required)) = object.get_mut("required") {
        for name in required.iter_mut() {
            if let Some(new) = name.as_str().and_then(renamed) {
                *name = Value::String(new);
            }
        }
    }
    if let Some(Value::String(name)) = object
        .get_mut("discriminator")
        .and_then(|discriminator| discriminator.get_mut("propertyName"))
        && let Some(new) = renamed(name.as_str())
    {
        *name = new;
    }
}

/// The values of a string enum whose variant names typify cannot make
/// ([`naming::variant_sources`]) are placeholders that convert to the names
/// chosen; `Display`, `FromStr` and serde get the values back. The enum's
/// own `default` follows, and string rules go, as typify would drop the
/// placeholders they refuse (the enum says all they could).
fn enum_values_under_variant_names(schema: &mut Value, alphabet: &mut Alphabet<'_>) {
    let Some(Value::Array(values)) = schema.get("enum") else {
        return;
    };
    if !values
        .iter()
        .all(|value| value.is_string() || value.is_null())
    {
        return;
    }
    let texts: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
    let Some(sources) = naming::variant_sources(&texts) else {
        return;
    };
    let Some(placeholders) = alphabet.get() else {
        return;
    };
    let renames: Vec<(String, String)> = texts
        .iter()
        .zip(&sources)
        .filter(|(text, source)| **text != source.as_str())
        .map(|(text, source)| (text.to_string(), placeholders.wrap(source, text)))
        .collect();
    let renamed = |value: &mut Value| {
        if let Some((_, new)) = renames
            .iter()
            .find(|(old, _)| value.as_str() == Some(old.as_str()))
        {
            *value = Value::String(new.clone());
        }
    };
    let Value::Object(object) = schema else {
        return;
    };
    if let Some(Value::Array(values)) = object.get_mut("enum") {
        values.iter_mut().for_each(renamed);
    }
    if let Some(default) = object.get_mut("default") {
        renamed(default);
    }
    for rule in ["minLength", "maxLength", "pattern"] {
        object.shift_remove(rule);
    }
}

/// Removes `default` from the properties of every schema a PATCH operation
/// takes as its body (named ones: inline bodies have been named by then).
pub(crate) fn patch_bodies_without_defaults(document: &mut Value) {
    let mut names = Vec::new();
    if let Some(Value::Object(paths)) = document.get("paths") {
        for item in paths.values() {
            let Some(mut body) = item.pointer("/patch/requestBody") else {
                continue;
            };
            if let Some(target) = body.get("$ref").and_then(Value::as_str) {
                match target
                    .strip_prefix('#')
                    .and_then(|pointer| document.pointer(pointer))
                {
                    Some(resolved) => body = resolved,
                    None => continue,
                }
            }
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

/// The body as the client sends it: JSON when offered (forms carry the same
/// fields), else a form when offered; otherwise raw bytes, as progenitor's `application/octet-stream`
/// (or `text/plain`) body with the schema it requires. A `multipart/form-data`
/// upload, which progenitor cannot send, is given to it as bytes too; the
/// client's builder then takes a form instead (`emit::client`).
fn client_body(body: &mut Value) {
    let Some(Value::Object(content)) = body.get_mut("content") else {
        return;
    };
    for typed in [JSON, crate::model::FORM] {
        if content.contains_key(typed) {
            content.retain(|media_type, _| media_type == typed);
            return;
        }
    }
    let binary = serde_json::json!({"type": "string", "format": "binary"});
    for (offered, sent, schema) in [
        (
            "application/octet-stream",
            "application/octet-stream",
            binary.clone(),
        ),
        (
            "text/plain",
            "text/plain",
            serde_json::json!({"type": "string"}),
        ),
        (MULTIPART, "application/octet-stream", binary),
    ] {
        if content.contains_key(offered) {
            content.clear();
            content.insert(sent.to_string(), serde_json::json!({ "schema": schema }));
            return;
        }
    }
}

/// Progenitor gives each operation one success type and one error type. Where
/// the spec's 2xx responses (or its 4xx/5xx ones) carry different bodies (a
/// 200 with a body beside a 204 without, or one error schema per status), the
/// client receives that group as raw bytes with the status: its view of those
/// responses is `application/octet-stream`. The server keeps one variant per
/// status, each with its own type.
fn raw_mixed_responses(document: &mut Value) {
    let shared = document
        .pointer("/components/responses")
        .cloned()
        .unwrap_or_default();
    let resolve = |response: &Value| -> Value {
        match response
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|reference| reference.strip_prefix("#/components/responses/"))
        {
            Some(name) => shared.get(name).cloned().unwrap_or_default(),
            None => response.clone(),
        }
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
                let mut kinds: Vec<Value> = group
                    .iter()
                    .map(|status| {
                        resolve(&responses[status])
                            .pointer("/content/application~1json/schema")
                            .cloned()
                            .unwrap_or(Value::Null)
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
fn type_untyped_string_enums(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    if !object.contains_key("type")
        && let Some(Value::Array(values)) = object.get("enum")
        && values.iter().any(Value::is_string)
        && values
            .iter()
            .all(|value| value.is_string() || value.is_null())
    {
        object.insert("type".into(), Value::String("string".into()));
    }
}

fn drop_zero_minimums(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    for keyword in ["minLength", "minItems"] {
        if object.get(keyword).and_then(Value::as_u64) == Some(0) {
            object.shift_remove(keyword);
        }
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
    // The component schemas parameters and request bodies (`true`) and
    // responses (`false`) refer to, directly or from inside an inline schema.
    let mut roots: Vec<(String, bool)> = Vec::new();
    walk::for_each_schema(document, |site, schema| {
        if let (Some(direction), Some(name)) = (
            site.direction,
            schema
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(walk::component_schema),
        ) {
            roots.push((name, direction == Direction::Request));
        }
    });
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
            let names = walk::schema_refs(schema);
            pending.extend(names.into_iter().map(|name| (name, request)));
        }
    }
    if let Some(Value::Object(schemas)) = document.pointer_mut("/components/schemas") {
        for (name, schema) in schemas.iter_mut() {
            let ways = ways.get(name).copied().unwrap_or_default();
            walk::for_each_subschema_mut(schema, "", |_, schema| relax(schema, ways));
        }
    }
    // Inline schemas under `paths` travel the way their place says.
    walk::for_each_schema_mut(document, |site, schema| {
        if let (true, Some(direction)) = (site.pointer.starts_with("/paths/"), site.direction) {
            let ways = Ways {
                request: direction == Direction::Request,
                response: direction == Direction::Response,
            };
            relax(schema, ways);
        }
    });
}

/// Drops from the `required` of one schema its properties that never travel
/// the `ways` it does.
fn relax(schema: &mut Value, ways: Ways) {
    let Value::Object(object) = schema else {
        return;
    };
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
}
