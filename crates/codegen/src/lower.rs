//! Stage 1b: an OpenAPI 3.1 or 3.2 document lowered to the 3.0 dialect the
//! model and progenitor read.
//!
//! 3.1 schemas are JSON Schema 2020-12; most of what a real API writes with
//! them has an exact 3.0 spelling, so the document is rewritten in place:
//!
//! | 3.1 | 3.0 |
//! |-----|-----|
//! | `type: [T, "null"]` | `type: T`, `nullable: true` |
//! | `type: [A, B]` | `anyOf: [{type: A}, {type: B}]` |
//! | `enum: [.., null]` | the enum without `null`, `nullable: true` |
//! | `const: x` | `enum: [x]` |
//! | `exclusiveMinimum: n` | `minimum: n`, `exclusiveMinimum: true` (and maximum) |
//! | `examples: [x, ..]` | `example: x` |
//! | `$ref` beside other keywords | `allOf: [{$ref}]` beside them; annotations alone are dropped |
//! | `true` / `false` as a schema | `{}` / `{not: {}}` |
//! | `contentMediaType`, or `contentEncoding: binary`, on a string | `format: binary` |
//!
//! Keywords 3.0 has no spelling for (`prefixItems`, `if`/`then`/`else`,
//! `dependentSchemas`, `dependentRequired`, `patternProperties`,
//! `propertyNames`, `unevaluated*`, `contains` with `minContains`/
//! `maxContains`) stay as they are, their subschemas lowered too: the
//! server's validation (`model::validation`) checks every one of them, and
//! the copy of the document typify reads is loosened around them
//! ([`loosen_for_types`]) so the types accept every value they allow.
//! Keywords neither JSON Schema nor OpenAPI knows are left alone. Positions
//! stay those of the original nodes, so later messages still point into the
//! 3.1 file.

use serde_json::{Map, Value, json};

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::load::document::LoadedSpec;
use crate::readings::Reading;
use crate::vocabulary::{DEPRECATED, DOCUMENTATION};

/// Keywords whose value is one schema.
const SUBSCHEMA: &[&str] = &[
    "items",
    "contentSchema",
    "additionalProperties",
    "not",
    "contains",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
];

/// Keywords whose value is a list of schemas.
const SUBSCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// Keywords whose value maps names (or patterns) to schemas.
const SUBSCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
];

/// Keywords that apply subschemas to the value in place: where none is
/// present, `unevaluatedProperties` says what `additionalProperties` would
/// (and `unevaluatedItems`, without `contains` either, what `items` would).
const IN_PLACE_APPLICATORS: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
    "$ref",
];

/// Whether `version` is an OpenAPI 3.1 or 3.2 version string: a document
/// this module lowers.
pub fn is_openapi_31(version: &str) -> bool {
    ["3.1.", "3.2."].iter().any(|minor| {
        version
            .strip_prefix(minor)
            .is_some_and(|patch| !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Rewrites the 3.1 or 3.2 document of `spec` as 3.0. Nothing is refused
/// here: a keyword 3.0 cannot carry is kept for the server and loosened for
/// the types, and an operation of 3.2 that cannot be generated is left
/// out with a warning (`beyond_methods`).
pub fn lower(spec: &mut LoadedSpec) -> Result<(), Diagnostic> {
    beyond_methods(spec);
    lower_document(&mut spec.document);
    Ok(())
}

/// OpenAPI 3.2's operations beyond the eight methods of 3.0 (`query`, and
/// `additionalOperations` of any method) and those taking the whole query
/// string as one parameter (`in: querystring`) are left out, each with a
/// located warning: a path item holds the eight methods only in every stage
/// after this one, and the parameter has no reading yet. The rest of the
/// API is generated. A tag's `parent` only groups tags in documentation,
/// and 3.2's `itemSchema` is read by `model::streams`.
fn beyond_methods(spec: &mut LoadedSpec) {
    let mut left_out: Vec<(String, String, &'static str)> = Vec::new();
    for section in ["paths", "webhooks"] {
        let Some(Value::Object(items)) = spec.document.get(section) else {
            continue;
        };
        for (key, item) in items {
            let item_pointer = pointer_join(&pointer_join("", section), key);
            for extra in ["query", "additionalOperations"] {
                if item.get(extra).is_some() {
                    let why = if extra == "query" {
                        "the `query` method of OpenAPI 3.2 is not generated yet: this operation \
                         is left out"
                    } else {
                        "`additionalOperations` of OpenAPI 3.2 are not generated yet: these \
                         operations are left out"
                    };
                    left_out.push((item_pointer.clone(), extra.to_string(), why));
                }
            }
            for method in crate::vocabulary::METHODS {
                let Some(operation) = item.get(method) else {
                    continue;
                };
                let takes_query_string = |parameters: Option<&Value>| {
                    parameters
                        .and_then(Value::as_array)
                        .is_some_and(|parameters| {
                            parameters.iter().any(|parameter| {
                                parameter.get("in").and_then(Value::as_str) == Some("querystring")
                            })
                        })
                };
                if takes_query_string(operation.get("parameters"))
                    || takes_query_string(item.get("parameters"))
                {
                    left_out.push((
                        item_pointer.clone(),
                        method.to_string(),
                        "a parameter `in: querystring` (OpenAPI 3.2) is not generated yet: \
                         this operation is left out",
                    ));
                }
            }
        }
    }
    for (item, key, why) in left_out {
        spec.warn_at(Reading::MethodUnsupported, &pointer_join(&item, &key), why);
        if let Some(Value::Object(item)) = spec.document.pointer_mut(&item) {
            item.shift_remove(&key);
        }
    }
}

fn lower_document(document: &mut Value) {
    let Value::Object(root) = document else {
        return;
    };
    root.insert("openapi".into(), Value::String("3.0.3".into()));
    // `webhooks` stays: its schemas are lowered like the others, and the
    // model reads it beside `paths` (a 3.1 document may have either alone).
    root.shift_remove("jsonSchemaDialect");
    root.entry("paths").or_insert_with(|| json!({}));
    document_undocumented_responses(root);
    if let Some(Value::Object(license)) = root
        .get_mut("info")
        .and_then(|info| info.get_mut("license"))
    {
        license.shift_remove("identifier");
    }
    visit_schemas(document, &mut |schema, pointer| {
        lower_schema(schema, pointer)
    });
}

/// Calls `visit` on every schema of `document`: the component schemas, the
/// `schema` of parameters, media types and headers, and every subschema of
/// those, each before its subschemas (so `visit` may turn a boolean schema
/// into an object first). Examples and extensions are data, not schemas.
pub(crate) fn visit_schemas(document: &mut Value, visit: &mut impl FnMut(&mut Value, &str)) {
    let Value::Object(root) = document else {
        return;
    };
    for (key, child) in root.iter_mut() {
        if key != "components" {
            visit_schema_sites(child, pointer_join("", key), visit);
            continue;
        }
        let Value::Object(components) = child else {
            continue;
        };
        for (kind, entries) in components.iter_mut() {
            let pointer = pointer_join("/components", kind);
            match (kind.as_str(), entries) {
                // Data, not schemas.
                ("examples", _) => {}
                (kind, _) if kind.starts_with("x-") => {}
                ("schemas", Value::Object(schemas)) => {
                    for (name, schema) in schemas.iter_mut() {
                        visit_schema(schema, &pointer_join(&pointer, name), visit);
                    }
                }
                (_, entries) => visit_schema_sites(entries, pointer, visit),
            }
        }
    }
}

/// 3.1 lets an operation leave `responses` out, which 3.0 requires: such an
/// operation documents no response, and gets an empty `responses`, which
/// the model reads as "anything may be answered".
fn document_undocumented_responses(root: &mut Map<String, Value>) {
    for section in ["paths", "webhooks"] {
        let Some(Value::Object(items)) = root.get_mut(section) else {
            continue;
        };
        for item in items.values_mut().filter_map(Value::as_object_mut) {
            for (method, operation) in item.iter_mut() {
                if crate::vocabulary::Method::from_key(method).is_some()
                    && let Value::Object(operation) = operation
                {
                    operation.entry("responses").or_insert_with(|| json!({}));
                }
            }
        }
    }
}

/// Visits every `schema` member (of parameters, media types, headers)
/// below `value`.
fn visit_schema_sites(
    value: &mut Value,
    pointer: String,
    visit: &mut impl FnMut(&mut Value, &str),
) {
    match value {
        Value::Object(object) => {
            for (key, child) in object.iter_mut() {
                let child_pointer = pointer_join(&pointer, key);
                if key == "schema" || key == "itemSchema" {
                    visit_schema(child, &child_pointer, visit);
                } else if !key.starts_with("x-") && key != "example" && key != "examples" {
                    visit_schema_sites(child, child_pointer, visit);
                }
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter_mut().enumerate() {
                visit_schema_sites(child, pointer_join(&pointer, &index.to_string()), visit);
            }
        }
        _ => {}
    }
}

/// Visits `schema`, then each of its subschemas.
fn visit_schema(schema: &mut Value, pointer: &str, visit: &mut impl FnMut(&mut Value, &str)) {
    visit(schema, pointer);
    let Value::Object(object) = schema else {
        return;
    };
    for keyword in SUBSCHEMA {
        if let Some(child) = object.get_mut(*keyword) {
            visit_schema(child, &pointer_join(pointer, keyword), visit);
        }
    }
    for keyword in SUBSCHEMA_LISTS {
        if let Some(Value::Array(children)) = object.get_mut(*keyword) {
            let pointer = pointer_join(pointer, keyword);
            for (index, child) in children.iter_mut().enumerate() {
                visit_schema(child, &pointer_join(&pointer, &index.to_string()), visit);
            }
        }
    }
    for keyword in SUBSCHEMA_MAPS {
        if let Some(Value::Object(children)) = object.get_mut(*keyword) {
            let pointer = pointer_join(pointer, keyword);
            for (name, child) in children.iter_mut() {
                visit_schema(child, &pointer_join(&pointer, name), visit);
            }
        }
    }
}

fn lower_schema(schema: &mut Value, pointer: &str) {
    match schema {
        // 3.0 takes a boolean `additionalProperties` as it is.
        Value::Bool(_) if pointer.ends_with("/additionalProperties") => {}
        Value::Bool(true) => *schema = json!({}),
        Value::Bool(false) => *schema = json!({"not": {}}),
        Value::Object(object) => lower_object(object),
        _ => {}
    }
}

fn lower_object(object: &mut Map<String, Value>) {
    let mut nullable = false;
    match object.get("type").cloned() {
        Some(Value::Array(types)) => {
            object.shift_remove("type");
            let mut named: Vec<Value> = Vec::new();
            for kind in types {
                if kind == "null" {
                    nullable = true;
                } else {
                    named.push(kind);
                }
            }
            match named.len() {
                0 => {}
                1 => {
                    object.insert("type".into(), named.remove(0));
                }
                _ => {
                    let variants = named
                        .into_iter()
                        .map(|kind| json!({"type": kind}))
                        .collect();
                    object.insert("anyOf".into(), Value::Array(variants));
                }
            }
        }
        Some(Value::String(kind)) if kind == "null" => {
            object.shift_remove("type");
            nullable = true;
        }
        _ => {}
    }
    if let Some(value) = object.shift_remove("const") {
        object.insert("enum".into(), Value::Array(vec![value]));
    }
    if let Some(Value::Array(values)) = object.get_mut("enum")
        && values.iter().any(Value::is_null)
    {
        values.retain(|value| !value.is_null());
        nullable = true;
    }
    for (exclusive, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if let Some(number @ Value::Number(_)) = object.get(exclusive).cloned() {
            object.insert(bound.into(), number);
            object.insert(exclusive.into(), Value::Bool(true));
        }
    }
    if let Some(Value::Array(mut examples)) = object.shift_remove("examples")
        && !examples.is_empty()
        && !object.contains_key("example")
    {
        object.insert("example".into(), examples.swap_remove(0));
    }
    let media_type = object.shift_remove("contentMediaType");
    let encoding = object.shift_remove("contentEncoding");
    // RFC 2045's `binary` encoding is the raw bytes, as `format: binary`
    // says (Discord writes its files so); `base64` is text.
    let raw = encoding.as_ref().and_then(Value::as_str) == Some("binary");
    if (media_type.is_some() || raw) && !object.contains_key("format") {
        object.insert("format".into(), Value::String("binary".into()));
    }
    object.shift_remove("$schema");
    object.shift_remove("$id");
    if nullable {
        object.insert("nullable".into(), Value::Bool(true));
    }
    if object.contains_key("$ref") && object.len() > 1 {
        let reference = object.shift_remove("$ref").expect("checked above");
        // Annotations beside a reference change nothing the generated code
        // shows, but for direction (a `readOnly` reference leaves the
        // request's type), and the XML form; those keep the `allOf`.
        for annotation in DOCUMENTATION.iter().chain([&DEPRECATED]) {
            object.shift_remove(*annotation);
        }
        // Extensions alone (`x-release-lifecycle`, say) describe the
        // reference's use, not the schema: like annotations, they do not
        // need an `allOf`.
        if object.keys().all(|key| key.starts_with("x-")) {
            object.clear();
        }
        if !object.is_empty() {
            object.insert("allOf".into(), json!([{ "$ref": reference }]));
        } else {
            object.insert("$ref".into(), reference);
        }
    }
}

/// The keywords a type generated from the 3.0 dialect does not express, in
/// the order the note on a loosened type names them.
const SERVER_ONLY: &[&str] = &[
    "prefixItems",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedItems",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "if",
    "then",
    "else",
];

/// Loosens the copy of `document` typify reads around the keywords the
/// 3.0 dialect cannot carry, so each generated type accepts every value the
/// schema allows (it may accept more; the server's validation checks the
/// keywords exactly):
/// - `prefixItems`: a list of JSON values (typify's `items` is one schema
///   for every item);
/// - `patternProperties`: the properties no declared one names are a map
///   whose values have the patterns' schema when there is one (and
///   `additionalProperties` agrees or is `false`), JSON values otherwise;
/// - `unevaluatedProperties` (`unevaluatedItems`) beside no keyword that
///   applies subschemas in place is `additionalProperties` (`items`),
///   which it then means exactly;
/// - `if`/`then`/`else`, `dependentSchemas`, `propertyNames`, ...: the
///   schema around them (typify ignores them).
///
/// The type's documentation says which keywords only the server checks.
pub fn loosen_for_types(document: &mut Value) {
    visit_schemas(document, &mut |schema, _| {
        if let Value::Object(object) = schema {
            loosen_object(object);
        }
    });
}

fn loosen_object(object: &mut Map<String, Value>) {
    let mut server_only: Vec<&str> = SERVER_ONLY
        .iter()
        .copied()
        .filter(|keyword| object.contains_key(*keyword))
        .collect();
    if server_only.is_empty() {
        return;
    }
    let applies_in_place = IN_PLACE_APPLICATORS
        .iter()
        .any(|keyword| object.contains_key(*keyword));
    // The type says exactly what these say: no note for them.
    if let Some(rest) = object.shift_remove("unevaluatedProperties")
        && !applies_in_place
        && !object.contains_key("additionalProperties")
    {
        object.insert("additionalProperties".into(), rest);
        server_only.retain(|keyword| *keyword != "unevaluatedProperties");
    }
    if let Some(rest) = object.shift_remove("unevaluatedItems")
        && !applies_in_place
        && !object.contains_key("contains")
        && !object.contains_key("items")
        && !object.contains_key("prefixItems")
    {
        object.insert("items".into(), rest);
        server_only.retain(|keyword| *keyword != "unevaluatedItems");
    }
    if object.shift_remove("prefixItems").is_some() {
        object.shift_remove("items");
    }
    if let Some(Value::Object(patterns)) = object.shift_remove("patternProperties") {
        let mut values: Vec<Value> = patterns.into_iter().map(|(_, schema)| schema).collect();
        match object.get("additionalProperties") {
            Some(Value::Bool(false)) => {}
            Some(Value::Object(schema)) => values.push(Value::Object(schema.clone())),
            // Names no pattern matches may hold anything.
            _ => values.push(json!({})),
        }
        let mut distinct: Vec<Value> = Vec::new();
        for value in values {
            if !distinct.contains(&value) {
                distinct.push(value);
            }
        }
        let extra = match distinct.as_slice() {
            [one] => one.clone(),
            _ => json!({}),
        };
        object.insert("additionalProperties".into(), extra);
    }
    for keyword in SERVER_ONLY {
        object.shift_remove(*keyword);
    }
    if server_only.is_empty() {
        return;
    }
    let names: Vec<String> = server_only
        .iter()
        .map(|keyword| format!("`{keyword}`"))
        .collect();
    let note = format!(
        "{} {} checked by the generated server in requests, not by this type, which accepts more.",
        join_names(&names),
        if names.len() == 1 { "is" } else { "are" },
    );
    let description = match object.get("description").and_then(Value::as_str) {
        Some(text) if !text.trim().is_empty() => format!("{}\n\n{note}", text.trim_end()),
        _ => note,
    };
    object.insert("description".into(), Value::String(description));
}

/// `a`, `a and b`, `a, b and c`.
fn join_names(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(schema: Value) -> Result<Value, String> {
        let text = serde_json::to_string(&json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1", "license": {"name": "MIT", "identifier": "MIT"}},
            "components": {"schemas": {"S": schema, "T": {"type": "object"}}},
        }))
        .unwrap();
        let spec = crate::load::parse_spec(std::path::Path::new("t.json"), text.as_bytes())
            .map_err(|err| err.to_string())?;
        assert_eq!(spec.document["openapi"], "3.0.3");
        assert!(spec.document["paths"].is_object());
        assert!(spec.document["info"]["license"].get("identifier").is_none());
        Ok(spec.document["components"]["schemas"]["S"].clone())
    }

    #[test]
    fn webhooks_stay_lowered_like_paths() {
        let text = serde_json::to_string(&json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "webhooks": {"newPet": {"post": {"requestBody": {"content": {"application/json": {
                "schema": {"type": ["string", "null"]},
            }}}}}},
        }))
        .unwrap();
        let spec =
            crate::load::parse_spec(std::path::Path::new("t.json"), text.as_bytes()).unwrap();
        let operation = &spec.document["webhooks"]["newPet"]["post"];
        assert_eq!(
            operation["requestBody"]["content"]["application/json"]["schema"],
            json!({"type": "string", "nullable": true})
        );
        assert_eq!(operation["responses"], json!({}));
        assert_eq!(spec.document["paths"], json!({}));
    }

    #[test]
    fn type_lists_with_null_become_nullable() {
        assert_eq!(
            lowered(json!({"type": ["string", "null"], "maxLength": 3})).unwrap(),
            json!({"type": "string", "maxLength": 3, "nullable": true})
        );
        assert_eq!(
            lowered(json!({"type": ["string", "integer"]})).unwrap(),
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})
        );
    }

    #[test]
    fn enums_consts_and_numeric_exclusive_bounds() {
        assert_eq!(
            lowered(json!({"type": "string", "enum": ["a", null]})).unwrap(),
            json!({"type": "string", "enum": ["a"], "nullable": true})
        );
        assert_eq!(
            lowered(json!({"const": "x"})).unwrap(),
            json!({"enum": ["x"]})
        );
        assert_eq!(
            lowered(json!({"type": "integer", "exclusiveMinimum": 0, "examples": [5, 6]})).unwrap(),
            json!({"type": "integer", "exclusiveMinimum": true, "minimum": 0, "example": 5})
        );
    }

    #[test]
    fn refs_with_only_extensions_stay_references() {
        assert_eq!(
            lowered(json!({"$ref": "#/components/schemas/T", "x-release-lifecycle": "GA"}))
                .unwrap(),
            json!({"$ref": "#/components/schemas/T"})
        );
    }

    #[test]
    fn refs_with_siblings() {
        assert_eq!(
            lowered(json!({"$ref": "#/components/schemas/T", "description": "d"})).unwrap(),
            json!({"$ref": "#/components/schemas/T"})
        );
        assert_eq!(
            lowered(json!({"$ref": "#/components/schemas/T", "type": ["object", "null"]})).unwrap(),
            json!({"type": "object", "nullable": true, "allOf": [{"$ref": "#/components/schemas/T"}]})
        );
    }

    #[test]
    fn nested_schemas_and_boolean_schemas() {
        assert_eq!(
            lowered(
                json!({"type": "object", "properties": {"a": {"type": ["null", "boolean"]}},
                "additionalProperties": false, "items": true})
            )
            .unwrap(),
            json!({"type": "object", "properties": {"a": {"type": "boolean", "nullable": true}},
                "additionalProperties": false, "items": {}})
        );
    }

    /// Keywords 3.0 cannot carry stay for the server, with their
    /// subschemas lowered (and a `$ref` among them kept, to resolve later).
    #[test]
    fn keywords_without_a_3_0_spelling_stay_with_lowered_subschemas() {
        let schema = json!({
            "type": "array",
            "prefixItems": [{"type": ["string", "null"]}, {"$ref": "#/components/schemas/S"}],
            "items": false,
            "contains": {"const": 1},
            "minContains": 2,
            "unevaluatedItems": false,
        });
        assert_eq!(
            lowered(schema).unwrap(),
            json!({
                "type": "array",
                "prefixItems": [{"type": "string", "nullable": true}, {"$ref": "#/components/schemas/S"}],
                "items": {"not": {}},
                "contains": {"enum": [1]},
                "minContains": 2,
                "unevaluatedItems": {"not": {}},
            })
        );
        let schema = json!({
            "type": "object",
            "patternProperties": {"^x-": {"type": ["integer", "null"]}},
            "propertyNames": {"maxLength": 3},
            "dependentRequired": {"a": ["b"]},
            "dependentSchemas": {"a": {"properties": {"b": {"const": "c"}}}},
            "if": {"properties": {"kind": {"const": "k"}}},
            "then": {"required": ["k"]},
            "else": true,
            "unevaluatedProperties": false,
            "x-vendor": {"type": ["string", "null"]},
            "$anchor": "unknown-to-3-0",
        });
        assert_eq!(
            lowered(schema).unwrap(),
            json!({
                "type": "object",
                "patternProperties": {"^x-": {"type": "integer", "nullable": true}},
                "propertyNames": {"maxLength": 3},
                "dependentRequired": {"a": ["b"]},
                "dependentSchemas": {"a": {"properties": {"b": {"enum": ["c"]}}}},
                "if": {"properties": {"kind": {"enum": ["k"]}}},
                "then": {"required": ["k"]},
                "else": {},
                "unevaluatedProperties": {"not": {}},
                "x-vendor": {"type": ["string", "null"]},
                "$anchor": "unknown-to-3-0",
            }),
            "extensions are data; unknown keywords stay"
        );
    }

    /// Schemas under parameters, headers and media types are lowered, down
    /// to those under the keywords 3.0 cannot carry.
    #[test]
    fn schemas_everywhere_are_lowered() {
        let text = serde_json::to_string(&json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"post": {
                "parameters": [{"name": "p", "in": "query", "schema": {"type": ["integer", "null"]}}],
                "requestBody": {"content": {"application/json": {"schema": {
                    "type": "array", "prefixItems": [{"const": 1}]}}}},
                "responses": {"200": {"description": "ok", "headers": {"h": {"schema": {
                    "if": {"const": "a"}, "then": {"examples": ["a"]}}}}}}
            }}},
        }))
        .unwrap();
        let spec =
            crate::load::parse_spec(std::path::Path::new("t.json"), text.as_bytes()).unwrap();
        let operation = &spec.document["paths"]["/a"]["post"];
        assert_eq!(
            operation["parameters"][0]["schema"],
            json!({"type": "integer", "nullable": true})
        );
        assert_eq!(
            operation["requestBody"]["content"]["application/json"]["schema"]["prefixItems"],
            json!([{"enum": [1]}])
        );
        assert_eq!(
            operation["responses"]["200"]["headers"]["h"]["schema"],
            json!({"if": {"enum": ["a"]}, "then": {"example": "a"}})
        );
    }

    fn loosened(schema: Value) -> Value {
        let mut document = json!({"components": {"schemas": {"S": schema}}});
        loosen_for_types(&mut document);
        document["components"]["schemas"]["S"].take()
    }

    #[test]
    fn types_accept_what_the_keywords_allow_and_say_what_the_server_checks() {
        assert_eq!(
            loosened(
                json!({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}})
            ),
            json!({"type": "array", "description":
                "`prefixItems` is checked by the generated server in requests, not by this type, which accepts more."})
        );
        // One schema for every name a pattern matches, and nothing else.
        let map = loosened(json!({
            "type": "object",
            "description": "Labels.",
            "properties": {"id": {"type": "string"}},
            "patternProperties": {"^a": {"type": "integer"}, "^b": {"type": "integer"}},
            "additionalProperties": false,
        }));
        assert_eq!(map["additionalProperties"], json!({"type": "integer"}));
        assert_eq!(
            map["description"],
            "Labels.\n\n`patternProperties` is checked by the generated server in requests, not by this type, which accepts more."
        );
        assert!(map.get("patternProperties").is_none());
        // Two schemas, or names no pattern matches: any JSON value.
        for schema in [
            json!({"patternProperties": {"^a": {"type": "integer"}, "^b": {"type": "string"}}, "additionalProperties": false}),
            json!({"patternProperties": {"^a": {"type": "integer"}}}),
            json!({"patternProperties": {"^a": {"type": "integer"}}, "additionalProperties": {"type": "string"}}),
        ] {
            assert_eq!(loosened(schema)["additionalProperties"], json!({}));
        }
        // Exact where nothing else evaluates properties or items.
        let closed = loosened(
            json!({"type": "object", "properties": {"a": {}}, "unevaluatedProperties": false}),
        );
        assert_eq!(
            closed,
            json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}),
            "no note where the type is exact"
        );
        let composed = loosened(
            json!({"allOf": [{"$ref": "#/components/schemas/B"}], "unevaluatedProperties": false}),
        );
        assert!(composed.get("additionalProperties").is_none());
        let conditional = loosened(json!({
            "type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]},
            "dependentRequired": {"a": ["c"]}, "propertyNames": {"maxLength": 2},
        }));
        assert_eq!(
            conditional,
            json!({"type": "object", "description": "`propertyNames`, `dependentRequired`, `if` and `then` are checked by the generated server in requests, not by this type, which accepts more."})
        );
        let plain = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert_eq!(
            loosened(plain.clone()),
            plain,
            "other schemas are untouched"
        );
    }
}
