//! The document progenitor is shown ([`progenitor_view`]): the description
//! with adaptations that do not change what it means, each made because
//! progenitor or typify cannot take the description as written. This list is
//! the passes' documentation; [`openapi_view`] and `view_document` run them
//! in this order, and each function says the details.
//!
//! - `client_parameters`: progenitor's builders write a parameter only as a
//!   scalar in the path or a header, or a scalar or repeated pairs in the
//!   query, and panic on a struct; every other parameter is shown as one they
//!   take, and `emit::client` writes it itself.
//! - `client_upgrades`: an operation answering `101 Switching Protocols`
//!   shows progenitor a `101` without a body as its one success, without
//!   `x-dropshot-websocket`; `emit::client` writes the WebSocket handshake.
//! - `webhooks_into_paths`: progenitor reads `paths` only; each webhook is
//!   shown as a path at its route, so the client crate can send it (to a
//!   subscriber's URL) with the types the rest of the API uses.
//! - `parameters_under_code_names`, `properties_under_field_names`,
//!   `enum_values_under_variant_names`: wire names that would become one
//!   identifier (two properties of an object, two parameters of an
//!   operation, enum values such as `asc` and `ASC`) or an identifier rustc
//!   refuses (the variant typify makes of `+1`) are placeholders
//!   ([`super::placeholders`]) that convert to the names `naming` chose; the
//!   output gets the wire names back.
//! - `client_body`: request bodies keep the one media type the client sends
//!   ([`crate::model::sent_media_type`]): progenitor can send one per
//!   operation, and the server accepts each. Any JSON is progenitor's
//!   `application/json`, any other body passed as bytes its
//!   `application/octet-stream` (a `multipart/form-data` upload becomes a
//!   form the client crate encodes); `emit::client` restores the media type
//!   on the wire.
//! - `lower::loosen_for_types`: the keywords the 3.0 dialect cannot carry
//!   (`prefixItems`, `patternProperties`, `if`, ...) are loosened so the
//!   types accept every value they allow; the server checks them.
//! - `encoding` goes: progenitor sends JSON or a plain form, and stops at any
//!   `encoding`.
//! - `drop_zero_minimums`: `minLength: 0` and `minItems: 0` hold for every
//!   value, and typify would render them as comparisons with zero that
//!   clippy rejects.
//! - `formats_only_where_typed`: `format` is an annotation of strings and
//!   numbers; elsewhere (an object, a list, a schema without `type`) typify
//!   cannot read it.
//! - `type_untyped_string_enums`, `nullable_instead_of_null_values`,
//!   `enum_without_all_of`, `annotations_out_of_all_of`, `TitlesApart`,
//!   `untitled_nullable_components`, `nullable_components_with_an_inner_type`,
//!   `inline_type_names_apart`: typify would define some types twice, or make
//!   two schemas one type: an enum listing `null` is `nullable` instead, a
//!   nullable component with `oneOf`/`anyOf`/`allOf`/`not` holds its
//!   non-null part in a component of its own, and an inline schema's `title`
//!   that would name another schema's type is dropped.
//! - `OneWayProperties`: a `readOnly` property is not required of a schema
//!   sent in requests, nor a `writeOnly` one of a schema returned in
//!   responses: requests never carry the first, responses never the second.
//!   A schema used both ways has one type, in which such a field is an
//!   `Option`.
//! - `response_bodies`, `raw_mixed_responses`: a response body is
//!   `application/json` where the model types it (any JSON media type,
//!   [`crate::model::json_response_body`]), else bytes; a response to `HEAD`
//!   has none; progenitor gives each operation one success type and one
//!   error type, so a group whose responses carry different bodies is raw
//!   bytes with the status.
//! - `patch_bodies_without_defaults`: leaving a field out of a PATCH means
//!   "keep the value", so no default may stand in for it (typify would fill
//!   the field with its default and the client would send it, overwriting
//!   the stored value, on every PATCH).
//! - `defaults_that_conform`: a `default` that its own schema refuses cannot
//!   fill a field (typify refuses the whole run).

use std::collections::BTreeMap;

use openapiv3::OpenAPI;
use serde_json::Value;

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::emit::placeholders::Placeholders;
use crate::load::LoadedSpec;
use crate::model::parameters::{non_null, resolve};
use crate::model::refs;
use crate::model::{
    ApiModel, FORM, In, JSON, Operation, Parameter, Scalar, ValueType, essence, is_json,
    json_response_body, names, parse_openapi, sent_media_type,
};
use crate::naming;
use crate::vocabulary::{DEPRECATED, DIRECTIONS, DOCUMENTATION, METHODS, XML};
use crate::walk::{self, Direction};

/// The document progenitor is run on ([`progenitor_view`]), typed, with
/// the placeholders it holds in place of wire names.
pub struct View {
    pub openapi: OpenAPI,
    pub(super) placeholders: Option<Placeholders>,
    /// Where each component schema was written (a message without its
    /// cause), by name: the spec's document is gone when progenitor runs,
    /// and a schema it cannot take is reported there ([`run`](super::progenitor::run)).
    pub(super) schema_places: Vec<(String, Diagnostic)>,
}

/// The document progenitor is run on ([`progenitor_view`], with the
/// parameters its builders take, `client_parameters`), typed.
pub fn openapi_view(spec: &LoadedSpec, model: &ApiModel) -> Result<View, Diagnostic> {
    let mut document = spec.document.clone();
    client_parameters(
        &mut document,
        model.operations.iter().chain(&model.webhooks),
    );
    client_upgrades(
        &mut document,
        model.operations.iter().chain(&model.webhooks),
    );
    let (mut document, placeholders) = view_document(&document);
    // Typify and progenitor write the spec's texts into docs of their own:
    // marked, the formatter knows which text is the spec's.
    crate::format::mark_spec_texts(&mut document);
    let openapi = parse_openapi(&LoadedSpec {
        document,
        ..spec.clone()
    })?;
    let schema_places = spec
        .document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|schemas| {
            schemas
                .keys()
                .map(|name| {
                    let pointer = pointer_join("/components/schemas", name);
                    (name.clone(), spec.error_at(&pointer, String::new()))
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(View {
        openapi,
        placeholders,
        schema_places,
    })
}

/// Progenitor sees an operation's `101` as the model reads it
/// ([`Operation::upgrades`]): a `101` without a body, as the one success
/// (progenitor gives an operation one success type, and the client asks
/// for the upgrade), where dropshot's older form wrote a `default`; no
/// `101` the model left out. `x-dropshot-websocket` goes everywhere:
/// progenitor would write the handshake with crates a generated client does
/// not depend on, and `emit::client` writes it through the runtime.
fn client_upgrades<'a>(document: &mut Value, operations: impl Iterator<Item = &'a Operation>) {
    for operation in operations {
        let Some(Value::Object(view)) = document.pointer_mut(&operation.pointer) else {
            continue;
        };
        view.shift_remove("x-dropshot-websocket");
        let Some(Value::Object(responses)) = view.get_mut("responses") else {
            continue;
        };
        if !operation.upgrades() {
            responses.shift_remove("101");
            continue;
        }
        if !responses.contains_key("101") {
            // Dropshot's older form: its `default` is the `101`.
            responses.shift_remove("default");
        }
        responses.retain(|status, _| !status.starts_with('2'));
        responses.insert(
            "101".into(),
            serde_json::json!({"description": "Switching to WebSocket"}),
        );
    }
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
pub(crate) fn client_parameters<'a>(
    document: &mut Value,
    operations: impl Iterator<Item = &'a Operation>,
) {
    let operations: Vec<&Operation> = operations.collect();
    // Per path item, each operation's (method's) parameters as shown.
    type Listed = Vec<(String, Vec<Value>)>;
    let mut rewritten: Vec<(String, Listed)> = Vec::new();
    for site in walk::path_items(document) {
        let item = site.item;
        let mut changed = false;
        let mut views = Vec::new();
        for method in item.keys() {
            let pointer = pointer_join(&site.pointer, method);
            let Some(model) = operations.iter().find(|model| model.pointer == pointer) else {
                continue;
            };
            let listed: Vec<Value> = refs::operation_parameters(document, &pointer)
                .into_iter()
                .map(|parameter| {
                    let view = parameter.key().and_then(|(name, location)| {
                        let found = model.parameters.iter().find(|candidate| {
                            candidate.name == name && candidate.location.as_str() == location
                        })?;
                        if !found.sent_by_progenitor() {
                            Some(parameter_view(document, parameter.listed, found))
                        } else {
                            scalar_without_null(document, parameter.listed, found)
                        }
                    });
                    changed |= view.is_some();
                    view.unwrap_or_else(|| parameter.listed.clone())
                })
                .collect();
            views.push((method.clone(), listed));
        }
        if changed {
            rewritten.push((site.pointer.clone(), views));
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
    if !matches!(model.location, In::Path | In::Header) {
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

/// The parameter as progenitor is shown it (see [`client_parameters`]).
fn parameter_view(document: &Value, parameter: &Value, model: &Parameter) -> Value {
    let raw = resolve(document, parameter).cloned().unwrap_or_default();
    let location = match model.location {
        In::Cookie => In::Header,
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

/// [`View`]'s document: see the module's list of passes.
pub fn progenitor_view(document: &Value) -> Value {
    view_document(document).0
}

pub(super) fn view_document(original: &Value) -> (Value, Option<Placeholders>) {
    let mut document = original.clone();
    webhooks_into_paths(&mut document);
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
    crate::lower::loosen_for_types(&mut document);
    // `encoding` says how to write the parts of a multipart or form body;
    // progenitor sends JSON or a plain form, and stops at any `encoding`.
    walk::for_each_media_type_mut(&mut document, |_, media| {
        if let Value::Object(media) = media {
            media.shift_remove("encoding");
        }
    });
    // One walk for the passes that look at one schema at a time.
    let mut titles = TitlesApart::new(&document);
    let mut one_way = OneWayProperties::default();
    let component_properties = component_properties(&document);
    walk::for_each_schema_mut(&mut document, |site, schema| {
        all_of_properties_apart(schema, &component_properties, &mut alphabet);
        drop_zero_minimums(schema);
        formats_only_where_typed(site.pointer, schema);
        type_untyped_string_enums(schema);
        nullable_instead_of_null_values(schema);
        enum_without_all_of(schema);
        annotations_out_of_all_of(schema);
        properties_under_field_names(schema, &mut alphabet);
        enum_values_under_variant_names(schema, &mut alphabet);
        titles.visit(site, schema);
        one_way.visit(site, schema);
    });
    untitled_nullable_components(&mut document);
    nullable_components_with_an_inner_type(&mut document);
    inline_type_names_apart(&mut document);
    one_way.relax_components(&mut document);
    response_bodies(&mut document);
    raw_mixed_responses(&mut document);
    patch_bodies_without_defaults(&mut document);
    defaults_that_conform(&mut document, alphabet.used());
    (document, alphabet.used())
}

/// The key of each webhook among the view's paths, by name: its route
/// ([`walk::webhook_route`]), or where a path key of the API is that route
/// already, the route with a fragment (`/events#webhook`), which no request
/// carries and `emit::client` takes out of the client's URLs and docs.
pub(crate) fn webhook_view_keys(document: &Value) -> Vec<(String, String)> {
    let Some(Value::Object(webhooks)) = document.get("webhooks") else {
        return Vec::new();
    };
    let paths = document.get("paths").and_then(Value::as_object);
    let taken = |key: &str| paths.is_some_and(|paths| paths.contains_key(key));
    webhooks
        .keys()
        .map(|name| {
            let route = walk::webhook_route(name);
            let mut key = route.clone();
            let mut suffix = 1;
            while taken(&key) {
                key = match suffix {
                    1 => format!("{route}{WEBHOOK_FRAGMENT}"),
                    _ => format!("{route}{WEBHOOK_FRAGMENT}-{suffix}"),
                };
                suffix += 1;
            }
            (name.clone(), key)
        })
        .collect()
}

/// What tells a webhook's key in the view from a path key of the API.
pub(crate) const WEBHOOK_FRAGMENT: &str = "#webhook";

/// Progenitor reads `paths` only: each webhook becomes the path item at its
/// [`webhook_view_keys`], so the client crate can send it (to a
/// subscriber's URL) with the types the rest of the API uses.
fn webhooks_into_paths(document: &mut Value) {
    let keys = webhook_view_keys(document);
    let Some(Value::Object(mut webhooks)) = document
        .as_object_mut()
        .and_then(|root| root.shift_remove("webhooks"))
    else {
        return;
    };
    let Some(Value::Object(paths)) = document.get_mut("paths") else {
        return;
    };
    for (name, key) in keys {
        if let Some(item) = webhooks.shift_remove(&name) {
            paths.insert(key, item);
        }
    }
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
    let mut plans: Vec<PathPlan> = Vec::new();
    for (path, item) in paths {
        let Some(item_object) = item.as_object() else {
            continue;
        };
        let item_pointer = pointer_join("/paths", path);
        let operations: Vec<(&String, Vec<names::ParameterCodeName>)> = item_object
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
            .any(names::ParameterCodeName::is_renamed);
        if !renamed {
            continue;
        }
        let Some(placeholders) = alphabet.get() else {
            continue;
        };
        let mut plan = PathPlan {
            path: path.clone(),
            lists: Vec::new(),
            template: Vec::new(),
        };
        for (method, codes) in operations {
            let pointer = pointer_join(&item_pointer, method);
            let raw = refs::operation_parameters(document, &pointer);
            let list = codes
                .iter()
                .filter_map(|named| {
                    let found = raw.iter().find(|parameter| {
                        parameter.key() == Some((&named.name, &named.location))
                    })?;
                    let mut parameter = found.followed.as_ref()?.0.clone();
                    if named.is_renamed() {
                        let placeholder = placeholders.wrap(&named.code_name, &named.name);
                        if named.location == "path"
                            && !plan.template.iter().any(|(old, _)| *old == named.name)
                        {
                            plan.template
                                .push((named.name.clone(), placeholder.clone()));
                        }
                        parameter["name"] = Value::String(placeholder);
                    }
                    Some(parameter)
                })
                .collect();
            plan.lists.push((method.clone(), list));
        }
        plans.push(plan);
    }
    if plans.is_empty() {
        return;
    }
    let Some(Value::Object(paths)) = document.get_mut("paths") else {
        return;
    };
    for plan in &plans {
        if let Some(Value::Object(item)) = paths.get_mut(&plan.path) {
            item.shift_remove("parameters");
            for (method, list) in &plan.lists {
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
                .find(|plan| plan.path == path)
                .map(|plan| plan.template.as_slice())
                .unwrap_or_default();
            let path = template.iter().fold(path, |path, (old, new)| {
                path.replace(&format!("{{{old}}}"), &format!("{{{new}}}"))
            });
            (path, item)
        })
        .collect();
}

/// The parameters of one path's operations as progenitor gets them.
struct PathPlan {
    path: String,
    /// Each operation's whole list, by method.
    lists: Vec<(String, Vec<Value>)>,
    /// Path parameters renamed in the template: (spec name, placeholder).
    template: Vec<(String, String)>,
}

/// `format` only says more about a string, an integer or a number; typify
/// cannot read one anywhere else (`type: object, format: metadata`, or a
/// schema without `type` standing alone) and stops, so it goes there. A
/// member of an `allOf`, or of a `oneOf`/`anyOf` under a `type`, keeps it:
/// typify merges it with the type it gets from there.
fn formats_only_where_typed(pointer: &str, schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    let scalar = |schema: &serde_json::Map<String, Value>| {
        matches!(
            schema.get("type").and_then(Value::as_str),
            Some("string" | "integer" | "number")
        )
    };
    let member = pointer
        .rsplit('/')
        .nth(1)
        .is_some_and(|parent| walk::SCHEMA_LIST_KEYWORDS.contains(&parent));
    if !scalar(object) && (object.contains_key("type") || !member) {
        object.shift_remove("format");
    }
    let typed = object.contains_key("type");
    for keyword in ["oneOf", "anyOf"] {
        if let Some(Value::Array(members)) = object.get_mut(keyword) {
            for member in members.iter_mut().filter_map(Value::as_object_mut) {
                if !typed && !member.contains_key("type") {
                    member.shift_remove("format");
                }
            }
        }
    }
}

/// Drops every `default` its schema refuses (`default: null` on an object
/// that is not nullable, `default: "20 - 100"` on an integer, a value the
/// enum does not list, an object without a required property): typify
/// checks each and refuses the whole run over one. Where the view renamed
/// a property or an enum value, a conforming default follows the rename.
/// The check follows typify's where typify's is stricter than JSON Schema
/// (an object's unknown property is refused unless `additionalProperties`
/// allows it) and lets pass what it cannot judge.
fn defaults_that_conform(document: &mut Value, placeholders: Option<Placeholders>) {
    let mut verdicts: Vec<(String, Option<Value>)> = Vec::new();
    walk::for_each_schema(document, |site, schema| {
        if let Some(default) = schema.get("default") {
            let conforming = Conformance {
                document,
                placeholders,
            }
            .of(schema, default, 0);
            if conforming.as_ref() != Some(default) {
                verdicts.push((site.pointer.to_string(), conforming));
            }
        }
    });
    for (pointer, conforming) in verdicts {
        if let Some(Value::Object(schema)) = document.pointer_mut(&pointer) {
            match conforming {
                Some(value) => {
                    schema.insert("default".into(), value);
                }
                None => {
                    schema.shift_remove("default");
                }
            }
        }
    }
}

/// Whether `text` parses as the Rust type typify gives a string of `format`
/// (a UUID, a date, a date-time, an IP address); typify writes a default of
/// such a type as a parse that panics when the text does not parse.
pub(crate) fn native_text_parses(format: Option<&str>, text: &str) -> bool {
    let digits = |text: &str, count: usize| {
        text.len() == count && text.bytes().all(|byte| byte.is_ascii_digit())
    };
    let date = |text: &str| -> bool {
        let parts: Vec<&str> = text.split('-').collect();
        let [year, month, day] = parts.as_slice() else {
            return false;
        };
        if !(digits(year, 4) && digits(month, 2) && digits(day, 2)) {
            return false;
        }
        let (year, month, day): (u32, u32, u32) = (
            year.parse().unwrap_or(0),
            month.parse().unwrap_or(0),
            day.parse().unwrap_or(0),
        );
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return false,
        };
        (1..=days).contains(&day)
    };
    match format {
        Some("uuid") => {
            let bare = text
                .strip_prefix("urn:uuid:")
                .or_else(|| {
                    text.strip_prefix('{')
                        .and_then(|rest| rest.strip_suffix('}'))
                })
                .unwrap_or(text);
            let hex = |part: &str, count: usize| {
                part.len() == count && part.bytes().all(|byte| byte.is_ascii_hexdigit())
            };
            let groups: Vec<&str> = bare.split('-').collect();
            match groups.as_slice() {
                [simple] => hex(simple, 32),
                [a, b, c, d, e] => hex(a, 8) && hex(b, 4) && hex(c, 4) && hex(d, 4) && hex(e, 12),
                _ => false,
            }
        }
        Some("date") => date(text),
        Some("date-time") => {
            let Some((day, time)) = text.split_once(['T', 't', ' ']) else {
                return false;
            };
            let zone_at = time.find(['Z', 'z', '+', '-']).unwrap_or(time.len());
            let (clock, zone) = time.split_at(zone_at);
            let clock_ok = {
                let (whole, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
                let parts: Vec<&str> = whole.split(':').collect();
                parts.len() == 3
                    && parts.iter().all(|part| digits(part, 2))
                    && !fraction.is_empty()
                    && fraction.bytes().all(|byte| byte.is_ascii_digit())
            };
            let zone_ok = matches!(zone, "Z" | "z")
                || (zone.len() == 6
                    && zone.as_bytes()[3] == b':'
                    && digits(&zone[1..3], 2)
                    && digits(&zone[4..], 2));
            date(day) && clock_ok && zone_ok
        }
        Some("ip") => text.parse::<std::net::IpAddr>().is_ok(),
        Some("ipv4") => text.parse::<std::net::Ipv4Addr>().is_ok(),
        Some("ipv6") => text.parse::<std::net::Ipv6Addr>().is_ok(),
        _ => true,
    }
}

/// Whether a value conforms to a schema of the view, as typify judges a
/// default.
struct Conformance<'a> {
    document: &'a Value,
    placeholders: Option<Placeholders>,
}

impl Conformance<'_> {
    /// `value` as the view spells it (renamed properties and enum values as
    /// their placeholders) when it conforms to `schema`; `None` otherwise.
    fn of(&self, schema: &Value, value: &Value, depth: usize) -> Option<Value> {
        // Past this depth (a recursive schema), nothing more is checked.
        if depth > 32 {
            return Some(value.clone());
        }
        let Value::Object(object) = schema else {
            return Some(value.clone());
        };
        if let Some(target) = object.get("$ref").and_then(Value::as_str) {
            return match target
                .strip_prefix('#')
                .and_then(|pointer| self.document.pointer(pointer))
            {
                Some(resolved) => self.of(resolved, value, depth + 1),
                None => Some(value.clone()),
            };
        }
        if value.is_null() && object.get("nullable") == Some(&Value::Bool(true)) {
            return Some(Value::Null);
        }
        if let Some(Value::Array(values)) = object.get("enum") {
            return values
                .iter()
                .find(|listed| *listed == value || self.wire(listed).as_ref() == Some(value))
                .cloned();
        }
        for keyword in ["oneOf", "anyOf"] {
            if let Some(Value::Array(members)) = object.get(keyword) {
                return members
                    .iter()
                    .find_map(|member| self.of(member, value, depth + 1));
            }
        }
        if let Some(Value::Array(members)) = object.get("allOf") {
            let mut merged = serde_json::Map::new();
            let mut required = Vec::new();
            let mut open = false;
            for member in members {
                let member = self.resolve(member);
                if member.get("properties").is_none()
                    && member.get("type") != Some(&"object".into())
                {
                    // A member that is no object shape: the value must be it.
                    return self.of(member, value, depth + 1);
                }
                if let Some(Value::Object(properties)) = member.get("properties") {
                    merged.extend(properties.clone());
                }
                if let Some(Value::Array(names)) = member.get("required") {
                    required.extend(names.iter().cloned());
                }
                open |= matches!(
                    member.get("additionalProperties"),
                    Some(Value::Object(_) | Value::Bool(true))
                );
            }
            let shape = serde_json::json!({
                "type": "object",
                "properties": merged,
                "required": required,
                "additionalProperties": open,
            });
            return self.object(&shape, value, depth);
        }
        match object.get("type").and_then(Value::as_str) {
            Some("string") => {
                let text = value.as_str()?;
                let format = object.get("format").and_then(Value::as_str);
                native_text_parses(format, text).then(|| value.clone())
            }
            Some("integer") => {
                (value.as_i64().is_some() || value.as_u64().is_some()).then(|| value.clone())
            }
            Some("number") => value.is_number().then(|| value.clone()),
            Some("boolean") => value.is_boolean().then(|| value.clone()),
            Some("array") => {
                let items = value.as_array()?;
                let schema = object.get("items");
                let checked: Option<Vec<Value>> = items
                    .iter()
                    .map(|item| match schema {
                        Some(schema) => self.of(schema, item, depth + 1),
                        None => Some(item.clone()),
                    })
                    .collect();
                checked.map(Value::Array)
            }
            Some("object") => self.object(schema, value, depth),
            None if object.contains_key("properties") => self.object(schema, value, depth),
            _ => Some(value.clone()),
        }
    }

    fn object(&self, schema: &Value, value: &Value, depth: usize) -> Option<Value> {
        let entries = value.as_object()?;
        let properties = schema.get("properties").and_then(Value::as_object);
        let extra = schema.get("additionalProperties");
        if properties.is_none_or(|properties| properties.is_empty()) {
            // A map: each value must be of its schema.
            return match extra {
                Some(extra @ Value::Object(_)) => {
                    let checked: Option<serde_json::Map<String, Value>> = entries
                        .iter()
                        .map(|(key, entry)| Some((key.clone(), self.of(extra, entry, depth + 1)?)))
                        .collect();
                    checked.map(Value::Object)
                }
                _ => Some(value.clone()),
            };
        }
        let properties = properties?;
        let mut checked = serde_json::Map::new();
        for (key, entry) in entries {
            let property = properties.iter().find(|(name, _)| {
                *name == key
                    || self.wire(&Value::String(name.to_string())).as_ref()
                        == Some(&Value::String(key.clone()))
            });
            match (property, extra) {
                (Some((name, property)), _) => {
                    checked.insert(name.clone(), self.of(property, entry, depth + 1)?);
                }
                (None, Some(extra @ Value::Object(_))) => {
                    checked.insert(key.clone(), self.of(extra, entry, depth + 1)?);
                }
                (None, Some(Value::Bool(true))) => {
                    checked.insert(key.clone(), entry.clone());
                }
                (None, _) => return None,
            }
        }
        let required = schema.get("required").and_then(Value::as_array);
        let complete = required.is_none_or(|required| {
            required
                .iter()
                .filter_map(Value::as_str)
                .all(|name| checked.contains_key(name))
        });
        complete.then_some(Value::Object(checked))
    }

    fn resolve<'s>(&'s self, schema: &'s Value) -> &'s Value {
        match schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|target| target.strip_prefix('#'))
            .and_then(|pointer| self.document.pointer(pointer))
        {
            Some(resolved) => resolved,
            None => schema,
        }
    }

    /// The wire value a placeholder of the view stands for.
    fn wire(&self, value: &Value) -> Option<Value> {
        let placeholders = self.placeholders?;
        placeholders.wire_name(value.as_str()?).map(Value::String)
    }
}

/// An `enum` lists every value its schema allows; an `allOf` beside it
/// (`enum: [bot], allOf: [$ref: Scopes]`, Discord's way of naming the type
/// the values come from) can only refuse some of them, which the server
/// checks, and typify cannot merge the two (it stops at unreachable code):
/// the types keep the enum.
fn enum_without_all_of(schema: &mut Value) {
    if let Value::Object(object) = schema
        && object.contains_key("enum")
    {
        object.shift_remove("allOf");
    }
}

/// Whether `keyword` only describes a schema, so an `allOf` member with
/// nothing else adds no constraint: every annotation counts here.
fn annotates(keyword: &str) -> bool {
    DOCUMENTATION.contains(&keyword)
        || DIRECTIONS.contains(&keyword)
        || [DEPRECATED, XML].contains(&keyword)
        || keyword.starts_with("x-")
}

/// In a nullable schema, an `allOf` member that only describes (`allOf:
/// [$ref: Item, {description: ..}]`, a common way to document a reference)
/// goes: typify would merge it with the reference into a copy of the
/// referenced type, named after the place, which may well be the referenced
/// type's own name (rustc's E0428), and no `title` can rename it (typify
/// reads a nullable schema's title as its `Option`'s). With the reference
/// alone, the place has the referenced type. (Elsewhere the copy stays, and
/// [`inline_type_names_apart`] names it.)
fn annotations_out_of_all_of(schema: &mut Value) {
    if schema.get("nullable") != Some(&Value::Bool(true)) {
        return;
    }
    let Some(Value::Array(members)) = schema.get_mut("allOf") else {
        return;
    };
    let describes_only = |member: &Value| {
        member
            .as_object()
            .is_some_and(|member| member.keys().all(|key| annotates(key)))
    };
    if members.len() > 1 && members.iter().any(|member| !describes_only(member)) {
        members.retain(|member| !describes_only(member));
    }
}

/// A component's `title` names nothing (typify names a component by its
/// key), except the inner type of a nullable component, which then takes
/// the title's name (`File--Base` titled `File (Base)`: `FileBase` inside
/// `FileBase`). There, it goes: the inner type is `{Name}Inner`.
fn untitled_nullable_components(document: &mut Value) {
    if let Some(Value::Object(schemas)) = document.pointer_mut("/components/schemas") {
        for schema in schemas.values_mut().filter_map(Value::as_object_mut) {
            if schema.get("nullable") == Some(&Value::Bool(true)) {
                schema.shift_remove("title");
            }
        }
    }
}

/// An enum listing `null` beside other values is a nullable enum of the
/// others, as 3.1's lowering writes it: typify turns the first into an
/// `Option` around a type of the same name, which a component's wrapper
/// type then takes again (rustc's E0428); a nullable schema's inner type is
/// `{Name}Inner`.
fn nullable_instead_of_null_values(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    let Some(Value::Array(values)) = object.get_mut("enum") else {
        return;
    };
    if values.iter().any(Value::is_null) && !values.iter().all(Value::is_null) {
        values.retain(|value| !value.is_null());
        object.insert("nullable".into(), Value::Bool(true));
    }
}

/// A nullable component schema with `oneOf`, `anyOf`, `not` or an `allOf`
/// beyond one reference keeps its non-null part in a component of its own,
/// `{name}-inner`, and refers to it. Typify reads such a schema as `null` or
/// the rest, names the rest by the component's name and then its `Option`
/// too, defining the type twice (rustc's E0428); by reference, the
/// component is `Name(Option<NameInner>)`, as typify makes any other
/// nullable component.
fn nullable_components_with_an_inner_type(document: &mut Value) {
    let Some(Value::Object(schemas)) = document.pointer_mut("/components/schemas") else {
        return;
    };
    let mut taken: std::collections::BTreeSet<String> =
        schemas.keys().map(|name| naming::type_name(name)).collect();
    let mut split = Vec::new();
    for (name, schema) in schemas.iter() {
        let Value::Object(object) = schema else {
            continue;
        };
        let one_reference = matches!(
            object.get("allOf"),
            Some(Value::Array(members)) if members.len() == 1 && members[0].get("$ref").is_some()
        ) && !["oneOf", "anyOf", "not"]
            .iter()
            .any(|keyword| object.contains_key(*keyword));
        let composed = ["oneOf", "anyOf", "allOf", "not"]
            .iter()
            .any(|keyword| object.contains_key(*keyword));
        if object.get("nullable") == Some(&Value::Bool(true)) && composed && !one_reference {
            let mut inner = format!("{name}-inner");
            let mut suffix = 1;
            while !taken.insert(naming::type_name(&inner)) {
                suffix += 1;
                inner = format!("{name}-inner-{suffix}");
            }
            split.push((name.clone(), inner));
        }
    }
    for (name, inner_name) in split {
        let Some(Value::Object(object)) = schemas.get_mut(&name) else {
            continue;
        };
        let mut inner = std::mem::take(object);
        inner.shift_remove("nullable");
        for annotation in ["description", "title", "default", "example"] {
            if let Some(value) = inner.get(annotation) {
                object.insert(annotation.into(), value.clone());
            }
        }
        inner.shift_remove("default");
        object.insert("nullable".into(), Value::Bool(true));
        object.insert(
            "allOf".into(),
            serde_json::json!([{ "$ref": format!("#{}", pointer_join("/components/schemas", &inner_name)) }]),
        );
        schemas.insert(inner_name, Value::Object(inner));
    }
}

/// Typify names an inline schema's type by its `title`, and takes two types
/// of one name for one: a title naming a component schema, or naming an
/// earlier inline schema that differs, would define a type twice (rustc's
/// E0428) or give a field another schema's type. Such a title is dropped,
/// and the type is named by its place (`HolderOrigin`), as untitled ones are.
struct TitlesApart {
    components: std::collections::BTreeSet<String>,
    /// The titles kept so far, by type name, with their schema.
    titled: std::collections::BTreeMap<String, Value>,
}

impl TitlesApart {
    fn new(document: &Value) -> Self {
        TitlesApart {
            components: document
                .pointer("/components/schemas")
                .and_then(Value::as_object)
                .map(|schemas| schemas.keys().map(|name| naming::type_name(name)).collect())
                .unwrap_or_default(),
            titled: Default::default(),
        }
    }

    /// One schema of the document's walk.
    fn visit(&mut self, site: walk::Site<'_>, schema: &mut Value) {
        let is_component = site.top_level && site.pointer.starts_with("/components/schemas/");
        let Some(title) = schema.get("title").and_then(Value::as_str) else {
            return;
        };
        if is_component {
            return;
        }
        let name = naming::type_name(title);
        let keep = !self.components.contains(&name)
            && match self.titled.get(&name) {
                Some(first) => first == schema,
                None => {
                    self.titled.insert(name, schema.clone());
                    true
                }
            };
        if !keep && let Value::Object(object) = schema {
            object.shift_remove("title");
        }
    }
}

/// Typify names the type of an inline schema after its place (property
/// `template` of `Classification` is `ClassificationTemplate`, the items of
/// `Tags` are `TagsItem`), whatever else has that name: a component schema
/// of that name is then defined twice (rustc's E0428), and another inline
/// schema of that name silently takes the first one's type. Following
/// typify's rules (properties, list items, maps, merged `allOf`s, nullable
/// components' `Inner`), each such schema gets a `title` with a suffix
/// (`ClassificationTemplate2`), which typify names it by instead.
fn inline_type_names_apart(document: &mut Value) {
    let Some(Value::Object(schemas)) = document.pointer("/components/schemas") else {
        return;
    };
    let mut names = InlineNames {
        document,
        given: schemas
            .keys()
            .map(|name| (naming::type_name(name), None))
            .collect(),
        titles: Vec::new(),
    };
    for (name, schema) in schemas {
        let pointer = pointer_join("/components/schemas", name);
        let mut base = naming::type_name(name);
        if schema.get("nullable") == Some(&Value::Bool(true)) {
            base.push_str("Inner");
        }
        names.children(schema, &pointer, &base);
    }
    let titles = names.titles;
    for (pointer, title) in titles {
        if let Some(Value::Object(schema)) = document.pointer_mut(&pointer) {
            schema.insert("title".into(), Value::String(title));
        }
    }
}

/// The type names typify gives inline schemas, as [`inline_type_names_apart`]
/// follows them.
struct InlineNames<'a> {
    document: &'a Value,
    /// Names given so far, with the pointer of the schema each was given to
    /// (`None` where no shape can share it: a component's).
    given: std::collections::BTreeMap<String, Option<String>>,
    /// The titles to set: (pointer, title).
    titles: Vec<(String, String)>,
}

impl InlineNames<'_> {
    /// Names the inline `schema` at `pointer`, which typify would call
    /// `suggested` unless it has a title, then its subschemas.
    fn schema(&mut self, schema: &Value, pointer: &str, suggested: &str) {
        let Value::Object(object) = schema else {
            return;
        };
        if object.contains_key("$ref") {
            return;
        }
        let mut name = match object.get("title").and_then(Value::as_str) {
            Some(title) => naming::type_name(title),
            None => naming::type_name(suggested),
        };
        let same_shape = |first: &str| self.document.pointer(first) == Some(schema);
        match self.given.get(&name) {
            Some(Some(first)) if same_shape(first) => {}
            Some(_) => {
                let base = name.clone();
                name = (2..)
                    .map(|suffix| format!("{base}{suffix}"))
                    .find(|candidate| !self.given.contains_key(candidate))
                    .expect("some suffix is free");
                self.titles.push((pointer.to_string(), name.clone()));
                self.given.insert(name.clone(), Some(pointer.to_string()));
            }
            None => {
                self.given.insert(name.clone(), Some(pointer.to_string()));
            }
        }
        self.children(schema, pointer, &name);
    }

    /// Names the subschemas of `schema`, whose type typify calls `name`.
    fn children(&mut self, schema: &Value, pointer: &str, name: &str) {
        let Value::Object(object) = schema else {
            return;
        };
        if object.contains_key("$ref") {
            return;
        }
        // The members of an `allOf` merge into one shape of this name.
        let mut shapes = vec![(pointer.to_string(), schema)];
        if let Some(Value::Array(members)) = object.get("allOf") {
            for (index, member) in members.iter().enumerate() {
                if member.get("$ref").is_none() {
                    let member_pointer =
                        pointer_join(&pointer_join(pointer, "allOf"), &index.to_string());
                    shapes.push((member_pointer, member));
                }
            }
        }
        for (pointer, shape) in shapes {
            let has_properties =
                matches!(shape.get("properties"), Some(Value::Object(p)) if !p.is_empty());
            if let Some(Value::Object(properties)) = shape.get("properties") {
                for (property, subschema) in properties {
                    let property_pointer =
                        pointer_join(&pointer_join(&pointer, "properties"), property);
                    let suggested = format!(
                        "{name}_{}",
                        heck::ToSnakeCase::to_snake_case(property.as_str())
                    );
                    self.schema(subschema, &property_pointer, &suggested);
                }
            }
            if let Some(items @ Value::Object(_)) = shape.get("items") {
                self.schema(
                    items,
                    &pointer_join(&pointer, "items"),
                    &format!("{name}Item"),
                );
            }
            if let Some(extra @ Value::Object(_)) = shape.get("additionalProperties") {
                let map = if has_properties {
                    format!("{name}_extra")
                } else {
                    name.to_string()
                };
                self.schema(
                    extra,
                    &pointer_join(&pointer, "additionalProperties"),
                    &format!("{map}Value"),
                );
            }
        }
    }
}

/// The property names of each component schema (and of the inline members
/// of its `allOf`), which typify merges into the schemas combining it.
fn component_properties(document: &Value) -> BTreeMap<String, Vec<String>> {
    let mut found = BTreeMap::new();
    let Some(Value::Object(schemas)) = document.pointer("/components/schemas") else {
        return found;
    };
    for (name, schema) in schemas {
        let members = schema.get("allOf").and_then(Value::as_array);
        let names: Vec<String> = std::iter::once(schema)
            .chain(members.into_iter().flatten())
            .filter_map(|part| part.get("properties").and_then(Value::as_object))
            .flat_map(|properties| properties.keys().cloned())
            .collect();
        found.insert(name.clone(), names);
    }
    found
}

/// The properties of an `allOf`'s inline members whose field names clash
/// with another member's (`createdAt` beside a `$ref`'s `created_at`), which
/// typify would merge into one struct of two fields of one name, are
/// placeholders as in [`properties_under_field_names`]. The same wire name
/// in two members is one property, which typify merges.
fn all_of_properties_apart(
    schema: &mut Value,
    components: &BTreeMap<String, Vec<String>>,
    alphabet: &mut Alphabet<'_>,
) {
    let Some(Value::Array(members)) = schema.get("allOf") else {
        return;
    };
    // Each wire name once, with the inline member that declares it.
    let mut names: Vec<(Option<usize>, String)> = Vec::new();
    let add = |member: Option<usize>, name: &str, names: &mut Vec<(Option<usize>, String)>| {
        if !names.iter().any(|(_, seen)| seen == name) {
            names.push((member, name.to_string()));
        }
    };
    if let Some(Value::Object(own)) = schema.get("properties") {
        for name in own.keys() {
            add(None, name, &mut names);
        }
    }
    for (index, member) in members.iter().enumerate() {
        let referred = member
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(crate::model::refs::schema_name);
        match referred {
            Some(component) => {
                for name in components.get(component.as_ref()).into_iter().flatten() {
                    add(None, name, &mut names);
                }
            }
            None => {
                if let Some(Value::Object(properties)) = member.get("properties") {
                    for name in properties.keys() {
                        add(Some(index), name, &mut names);
                    }
                }
            }
        }
    }
    let list: Vec<&str> = names.iter().map(|(_, name)| name.as_str()).collect();
    let chosen = naming::distinct(&list, &[naming::field_name]);
    let renames: Vec<(usize, String, String)> = names
        .iter()
        .zip(chosen)
        .filter_map(|((member, name), chosen)| Some((member.to_owned()?, name.clone(), chosen)))
        .filter(|(_, name, chosen)| name != chosen)
        .collect();
    if renames.is_empty() {
        return;
    }
    let Some(placeholders) = alphabet.get() else {
        return;
    };
    let Some(Value::Array(members)) = schema.get_mut("allOf") else {
        return;
    };
    for (index, name, source) in renames {
        let placeholder = placeholders.wrap(&source, &name);
        let Some(Value::Object(member)) = members.get_mut(index) else {
            continue;
        };
        if let Some(Value::Object(properties)) = member.get_mut("properties") {
            *properties = std::mem::take(properties)
                .into_iter()
                .map(|(key, value)| {
                    if key == name {
                        (placeholder.clone(), value)
                    } else {
                        (key, value)
                    }
                })
                .collect();
        }
        if let Some(Value::Array(required)) = member.get_mut("required") {
            for entry in required.iter_mut() {
                if entry.as_str() == Some(name.as_str()) {
                    *entry = Value::String(placeholder.clone());
                }
            }
        }
    }
}

/// The properties of `schema` whose field names clash are placeholders that
/// convert to the names [`naming::distinct`] gives them (`required` and a
/// discriminator's `propertyName` follow); serde renames them back. A name
/// `required` lists without declaring it is a field too (typify's reading),
/// so it takes part (`name` beside a declared `Name`).
fn properties_under_field_names(schema: &mut Value, alphabet: &mut Alphabet<'_>) {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return;
    };
    let mut names: Vec<&str> = properties.keys().map(String::as_str).collect();
    if let Some(Value::Array(required)) = schema.get("required") {
        for name in required.iter().filter_map(Value::as_str) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
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
    let Some(Value::Array(values)) = schema.get_mut("enum") else {
        return;
    };
    if !values
        .iter()
        .all(|value| value.is_string() || value.is_null())
    {
        return;
    }
    // A value listed twice is one value (and would be two variants).
    let mut seen = Vec::new();
    values.retain(|value| {
        let first = !seen.contains(value);
        if first {
            seen.push(value.clone());
        }
        first
    });
    let Some(Value::Array(values)) = schema.get("enum") else {
        return;
    };
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
                    .map(|status| response_kind(&resolve(&responses[status])))
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

/// What progenitor makes of a response, as it tells them apart: the schema
/// of its JSON body (`application/json`, with parameters or not), bytes for
/// any other content, or nothing.
fn response_kind(response: &Value) -> Value {
    let Some(Value::Object(content)) = response.get("content") else {
        return serde_json::json!(["none"]);
    };
    let json = content
        .iter()
        .find(|(media_type, _)| *media_type == JSON || media_type.starts_with("application/json;"));
    match json {
        Some((_, media)) => serde_json::json!(["json", media.get("schema")]),
        None if content.is_empty() => serde_json::json!(["none"]),
        None => serde_json::json!(["raw"]),
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
/// Inline schemas under `paths` travel the way their place says; component
/// schemas the ways of the places that refer to them, directly or through
/// other components.
#[derive(Default)]
struct OneWayProperties {
    /// The component schemas parameters and request bodies (`true`) and
    /// responses (`false`) refer to, directly or from an inline schema.
    roots: Vec<(String, bool)>,
}

impl OneWayProperties {
    /// One schema of the document's walk: an inline one under `paths` is
    /// relaxed, a reference from a place noted.
    fn visit(&mut self, site: walk::Site<'_>, schema: &mut Value) {
        let Some(direction) = site.direction else {
            return;
        };
        if let Some(name) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(walk::component_schema)
        {
            self.roots.push((name, direction == Direction::Request));
        }
        if site.pointer.starts_with("/paths/") {
            let ways = Ways {
                request: direction == Direction::Request,
                response: direction == Direction::Response,
            };
            relax(schema, ways);
        }
    }

    /// Relaxes each component schema for the ways it travels.
    fn relax_components(self, document: &mut Value) {
        let Some(Value::Object(schemas)) = document.pointer_mut("/components/schemas") else {
            return;
        };
        let refs: std::collections::BTreeMap<&String, Vec<String>> = schemas
            .iter()
            .map(|(name, schema)| (name, walk::schema_refs(schema)))
            .collect();
        let mut ways: std::collections::BTreeMap<String, Ways> = Default::default();
        let mut pending = self.roots;
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
            if let Some(names) = refs.get(&name) {
                pending.extend(names.iter().map(|name| (name.clone(), request)));
            }
        }
        for (name, schema) in schemas.iter_mut() {
            let ways = ways.get(name).copied().unwrap_or_default();
            walk::for_each_subschema_mut(schema, "", |_, schema| relax(schema, ways));
        }
    }
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
    fn progenitor_sees_webhooks_as_paths_at_their_routes_told_apart_from_the_apis() {
        let operation = json!({"post": {"operationId": "x", "responses": {}}});
        let document = json!({
            "paths": {"/events": {"get": {"responses": {}}}, "/events#webhook": {}},
            "webhooks": {"events": operation, "pet/adopted": operation},
        });
        assert_eq!(
            webhook_view_keys(&document),
            [
                ("events".to_string(), "/events#webhook-2".to_string()),
                ("pet/adopted".to_string(), "/pet%2Fadopted".to_string()),
            ]
        );
        let view = progenitor_view(&document);
        assert!(view.get("webhooks").is_none());
        let keys: Vec<&String> = view["paths"].as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "/events",
                "/events#webhook",
                "/events#webhook-2",
                "/pet%2Fadopted"
            ]
        );
        assert_eq!(view["paths"]["/pet%2Fadopted"]["post"]["operationId"], "x");
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
        client_parameters(&mut view, model.operations.iter());
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

    /// The view of a document, and the wire names its placeholders stand for.
    fn view_and_wire(document: &Value) -> (Value, impl Fn(&Value) -> Value) {
        let (view, placeholders) = view_document(document);
        let restore = move |value: &Value| -> Value {
            let text = value.as_str().unwrap();
            match placeholders.and_then(|placeholders| placeholders.wire_name(text)) {
                Some(wire) => Value::String(wire),
                None => value.clone(),
            }
        };
        (view, restore)
    }

    #[test]
    fn clashing_wire_names_are_placeholders_that_convert_to_distinct_names() {
        let document = json!({
            "paths": {"/w/{widgetId}/{widget_id}": {
                "parameters": [{"name": "widgetId", "in": "path", "required": true, "schema": {"type": "string"}}],
                "get": {"parameters": [
                    {"name": "widget_id", "in": "path", "required": true, "schema": {"type": "string"}},
                    {"name": "q", "in": "query", "schema": {"type": "string"}},
                ]},
                "put": {"parameters": [
                    {"name": "widget_id", "in": "path", "required": true, "schema": {"type": "string"}},
                ]},
            }},
            "components": {"schemas": {
                "W": {"type": "object", "required": ["foo_bar"], "properties": {
                    "fooBar": {"type": "string"}, "foo_bar": {"type": "string"},
                }},
                "Order": {"type": "string", "maxLength": 3, "enum": ["asc", "ASC"], "default": "ASC"},
                "Plain": {"type": "string", "enum": ["a", "b"]},
                "Twice": {"type": "string", "enum": ["a", "b", "a"]},
            }},
        });
        let (view, wire) = view_and_wire(&document);
        let paths = view["paths"].as_object().unwrap();
        let (path, item) = paths.iter().next().unwrap();
        assert!(path.starts_with("/w/{widgetId}/{"), "{path}");
        assert!(
            item.get("parameters").is_none(),
            "moved into each operation"
        );
        for method in ["get", "put"] {
            let names: Vec<Value> = item[method]["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .map(|parameter| parameter["name"].clone())
                .collect();
            assert_eq!(names.len(), 2 + usize::from(method == "get"));
            assert_eq!(names[0], "widgetId");
            assert_eq!(wire(&names[1]), "widget_id");
            assert_eq!(
                naming::method_name(names[1].as_str().unwrap()),
                "widget_id_2"
            );
            assert!(
                path.contains(names[1].as_str().unwrap()),
                "the template follows"
            );
        }

        let properties: Vec<&String> = view["components"]["schemas"]["W"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(properties[0], "fooBar");
        assert_eq!(naming::field_name(properties[1]), "foo_bar_2");
        assert_eq!(wire(&json!(properties[1])), "foo_bar");
        assert_eq!(
            view["components"]["schemas"]["W"]["required"],
            json!([properties[1]])
        );

        let order = &view["components"]["schemas"]["Order"];
        assert_eq!(order["enum"][0], "asc", "the first keeps its value");
        let second = order["enum"][1].as_str().unwrap();
        assert_eq!(naming::type_name(second), "Asc2");
        assert_eq!(wire(&order["enum"][1]), "ASC");
        assert_eq!(order["default"], order["enum"][1], "the default follows");
        assert!(
            order.get("maxLength").is_none(),
            "no rule refuses the placeholder"
        );
        assert_eq!(
            view["components"]["schemas"]["Plain"],
            document["components"]["schemas"]["Plain"]
        );
        assert_eq!(
            view["components"]["schemas"]["Twice"]["enum"],
            json!(["a", "b"])
        );
    }

    #[test]
    fn an_aliased_component_parameter_stays_beside_a_renamed_one() {
        // `Alias` is itself a `$ref`: the parameter is `limit`, whatever the
        // number of hops, and progenitor must still send it when another
        // parameter of the operation is renamed.
        let limit = json!({"name": "limit", "in": "query", "schema": {"type": "integer"}});
        let document = json!({
            "paths": {"/w/{widgetId}": {"get": {"parameters": [
                {"name": "widgetId", "in": "path", "required": true, "schema": {"type": "string"}},
                {"name": "widget_id", "in": "query", "schema": {"type": "string"}},
                {"$ref": "#/components/parameters/Alias"},
            ]}}},
            "components": {"parameters": {
                "Alias": {"$ref": "#/components/parameters/Limit"},
                "Limit": limit,
            }},
        });
        let (view, wire) = view_and_wire(&document);
        let (_, item) = view["paths"].as_object().unwrap().iter().next().unwrap();
        let parameters = item["get"]["parameters"].as_array().unwrap();
        assert_eq!(parameters.len(), 3, "{parameters:?}");
        assert_eq!(parameters[0]["name"], "widgetId");
        assert_eq!(wire(&parameters[1]["name"]), "widget_id");
        assert_eq!(parameters[2], limit);
    }

    #[test]
    fn a_document_without_clashes_gets_no_placeholders() {
        let document = json!({"components": {"schemas": {
            "A": {"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}}},
        }}});
        assert_eq!(view_document(&document).1, None);
    }

    #[test]
    fn types_typify_would_define_twice_are_told_apart() {
        let document = json!({"components": {"schemas": {
            "Holder": {"type": "object", "properties": {
                "same": {"title": "Region", "type": "object"},
                "home": {"title": "Address", "type": "object", "properties": {"street": {}}},
                "work": {"title": "Address", "type": "object", "properties": {"building": {}}},
                "again": {"title": "Address", "type": "object", "properties": {"street": {}}},
            }},
            "Region": {"title": "Zone", "type": "object"},
            "Zone": {"enum": ["eu", null]},
            "When": {"nullable": true, "description": "d", "oneOf": [{"type": "string"}, {"type": "object"}]},
            "When-inner": {"type": "string"},
            "Alias": {"nullable": true, "allOf": [{"$ref": "#/components/schemas/Region"}]},
        }}});
        let view = progenitor_view(&document);
        let schemas = &view["components"]["schemas"];
        let holder = &schemas["Holder"]["properties"];
        assert!(holder["same"].get("title").is_none(), "names a component");
        assert_eq!(holder["home"]["title"], "Address");
        assert!(holder["work"].get("title").is_none(), "names another shape");
        assert_eq!(holder["again"]["title"], "Address", "the same shape");
        assert_eq!(
            schemas["Region"]["title"], "Zone",
            "component titles name nothing"
        );
        assert_eq!(
            schemas["Zone"],
            json!({"enum": ["eu"], "type": "string", "nullable": true})
        );
        assert_eq!(
            schemas["When"],
            json!({"description": "d", "nullable": true,
                "allOf": [{"$ref": "#/components/schemas/When-inner-2"}]})
        );
        assert_eq!(
            schemas["When-inner-2"],
            json!({"description": "d", "oneOf": [{"type": "string"}, {"type": "object"}]})
        );
        assert_eq!(schemas["Alias"], document["components"]["schemas"]["Alias"]);
    }

    #[test]
    fn formats_stay_where_typify_reads_them() {
        let view = progenitor_view(&json!({"components": {"schemas": {
            "O": {"type": "object", "format": "settings"},
            "T": {"format": "uuid"},
            "S": {"type": "string", "format": "uuid"},
            "I": {"type": "integer", "format": "count"},
            "M": {"allOf": [{"$ref": "#/components/schemas/S"}, {"format": "uuid"}]},
            "U": {"type": "string", "anyOf": [{"format": "uuid"}]},
            "V": {"oneOf": [{"format": "uuid"}]},
        }}}));
        let format = |name: &str, pointer: &str| {
            view["components"]["schemas"][name]
                .pointer(pointer)
                .and_then(|schema| schema.get("format"))
                .cloned()
        };
        assert_eq!(format("O", ""), None);
        assert_eq!(format("T", ""), None);
        assert_eq!(format("S", ""), Some(json!("uuid")));
        assert_eq!(format("I", ""), Some(json!("count")));
        assert_eq!(format("M", "/allOf/1"), Some(json!("uuid")));
        assert_eq!(format("U", "/anyOf/0"), Some(json!("uuid")));
        assert_eq!(format("V", "/oneOf/0"), None);
    }

    #[test]
    fn defaults_go_where_their_schema_refuses_them() {
        let view = progenitor_view(&json!({"components": {"schemas": {
            "S": {"type": "object", "properties": {
                "range": {"type": "integer", "default": "20 - 100"},
                "limit": {"type": "integer", "default": 20},
                "order": {"type": "string", "enum": ["a", "b"], "default": "c"},
                "owner": {"$ref": "#/components/schemas/Owner"},
                "nullable": {"type": "object", "nullable": true, "default": null},
                "window": {"type": "object", "required": ["from"],
                    "properties": {"from": {"type": "integer"}}, "default": {}},
                "open": {"type": "object", "additionalProperties": {"type": "integer"},
                    "default": {"a": 1}},
                "closed": {"type": "object", "properties": {"a": {"type": "integer"}},
                    "default": {"b": 1}},
                "list": {"type": "array", "items": {"type": "integer"}, "default": [1, "x"]},
                "either": {"oneOf": [{"type": "integer"}, {"type": "string"}], "default": "x"},
                "merged": {"allOf": [{"$ref": "#/components/schemas/Owner"},
                    {"properties": {"age": {"type": "integer"}}}],
                    "default": {"name": "n", "age": 3}},
            }},
            "Owner": {"type": "object", "required": ["name"],
                "properties": {"name": {"type": "string"}}, "default": null},
        }}}));
        let properties = &view["components"]["schemas"]["S"]["properties"];
        let default = |name: &str| properties[name].get("default").cloned();
        assert_eq!(default("range"), None);
        assert_eq!(default("limit"), Some(json!(20)));
        assert_eq!(default("order"), None);
        assert_eq!(default("nullable"), Some(Value::Null));
        assert_eq!(default("window"), None);
        assert_eq!(default("open"), Some(json!({"a": 1})));
        assert_eq!(default("closed"), None);
        assert_eq!(default("list"), None);
        assert_eq!(default("either"), Some(json!("x")));
        assert_eq!(default("merged"), Some(json!({"name": "n", "age": 3})));
        assert_eq!(view["components"]["schemas"]["Owner"].get("default"), None);
    }

    #[test]
    fn defaults_of_native_types_must_parse() {
        for (format, good, bad) in [
            ("uuid", "67e55044-10b1-426f-9247-bb680e5fe0c8", "not-a-uuid"),
            (
                "uuid",
                "67e5504410b1426f9247bb680e5fe0c8",
                "67e55044-10b1-426f-9247",
            ),
            ("date", "2024-02-29", "2023-02-29"),
            ("date-time", "2024-05-01T10:00:00Z", "now"),
            ("date-time", "2024-05-01T10:00:00.123+02:00", "2024-05-01"),
            ("ipv4", "10.0.0.1", "10.0.0.256"),
            ("ipv6", "::1", "10.0.0.1"),
            ("ip", "::1", "localhost"),
        ] {
            assert!(native_text_parses(Some(format), good), "{format} {good}");
            assert!(!native_text_parses(Some(format), bad), "{format} {bad}");
        }
        assert!(native_text_parses(Some("hostname"), "anything"));
        assert!(native_text_parses(None, ""));
    }

    #[test]
    fn successes_of_different_kinds_are_bytes() {
        let response = |content: Value| json!({"description": "d", "content": content});
        let view = progenitor_view(&json!({"paths": {"/a": {"get": {"responses": {
            "200": response(json!({"image/png": {"schema": {"type": "string"}}})),
            "202": {"description": "accepted"},
        }}, "put": {"responses": {
            "200": response(json!({"application/json; charset=utf-8": {"schema": {"type": "string"}}})),
            "201": response(json!({"application/json": {"schema": {"type": "string"}}})),
        }}}}}));
        let octets =
            json!({"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}});
        let get = &view["paths"]["/a"]["get"]["responses"];
        assert_eq!(get["200"]["content"], octets);
        assert_eq!(get["202"]["content"], octets);
        let put = &view["paths"]["/a"]["put"]["responses"];
        assert_eq!(
            put["201"]["content"]["application/json"]["schema"]["type"],
            "string"
        );
    }

    #[test]
    fn inline_types_named_like_another_get_a_title() {
        let document = json!({"components": {"schemas": {
            "Holder": {"type": "object", "properties": {
                "template": {"type": "string", "enum": ["a"]},
                "tags": {"type": "array", "items": {"type": "object", "properties": {"x": {}}}},
                "copy": {"allOf": [{"$ref": "#/components/schemas/HolderTemplate"}, {"description": "d"}]},
                "item": {"nullable": true, "allOf": [{"$ref": "#/components/schemas/HolderTemplate"}, {"description": "d"}]},
            }},
            "Other": {"type": "object", "properties": {"tags": {"type": "string", "enum": ["b"]}}},
            "HolderTemplate": {"type": "object"},
            "HolderTagsItem": {"type": "string"},
            "HolderCopy": {"type": "string"},
            "File--Base": {"title": "File (Base)", "type": "object", "nullable": true},
        }}});
        let view = progenitor_view(&document);
        let schemas = &view["components"]["schemas"];
        let holder = &schemas["Holder"]["properties"];
        assert_eq!(holder["template"]["title"], "HolderTemplate2");
        assert_eq!(holder["tags"]["items"]["title"], "HolderTagsItem2");
        assert_eq!(
            holder["copy"]["title"], "HolderCopy2",
            "a merged copy is a type"
        );
        assert_eq!(
            holder["item"],
            json!({"nullable": true, "allOf": [{"$ref": "#/components/schemas/HolderTemplate"}]}),
            "a nullable reference with a description is the reference"
        );
        assert!(
            schemas["Other"]["properties"]["tags"]
                .get("title")
                .is_none()
        );
        assert!(schemas["File--Base"].get("title").is_none());
    }
}
