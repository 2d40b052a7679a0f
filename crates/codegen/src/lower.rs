//! Stage 1b: an OpenAPI 3.1 document lowered to the 3.0 dialect the model and
//! progenitor read.
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
//! | `contentMediaType` on a string | `format: binary` |
//! | `contains: S` | `x-contains: S`, which the server's validation checks |
//!
//! Keywords with no 3.0 meaning that would change what a value may be
//! (`prefixItems`, `if`/`then`/`else`, `dependentSchemas`, `unevaluatedProperties`,
//! `patternProperties`) are refused with their place. Positions stay those of
//! the original nodes, so later messages still point into the 3.1 file.

use serde_json::{Map, Value, json};

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::load::LoadedSpec;

/// Keywords that only annotate a schema; beside a `$ref` they change nothing.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "summary",
    "example",
    "examples",
    "deprecated",
    "$comment",
];

/// Keywords whose meaning 3.0 cannot carry.
const INEXPRESSIBLE: &[&str] = &[
    "prefixItems",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "patternProperties",
    "propertyNames",
    "minContains",
    "maxContains",
];

/// Whether `version` is an OpenAPI 3.1 version string.
pub fn is_openapi_31(version: &str) -> bool {
    version
        .strip_prefix("3.1.")
        .is_some_and(|patch| !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()))
}

/// Rewrites the 3.1 document of `spec` as 3.0.
pub fn lower(spec: &mut LoadedSpec) -> Result<(), Diagnostic> {
    let mut document = std::mem::take(&mut spec.document);
    let outcome = lower_document(spec, &mut document);
    spec.document = document;
    outcome
}

fn lower_document(spec: &LoadedSpec, document: &mut Value) -> Result<(), Diagnostic> {
    let Value::Object(root) = document else {
        return Ok(());
    };
    root.insert("openapi".into(), Value::String("3.0.3".into()));
    // 3.1 lets a document have webhooks or path items only under components;
    // the generators serve `paths`.
    root.shift_remove("webhooks");
    root.shift_remove("jsonSchemaDialect");
    root.entry("paths").or_insert_with(|| json!({}));
    document_undocumented_responses(root);
    if let Some(Value::Object(license)) = root
        .get_mut("info")
        .and_then(|info| info.get_mut("license"))
    {
        license.shift_remove("identifier");
    }
    if let Some(Value::Object(schemas)) = root
        .get_mut("components")
        .and_then(|components| components.get_mut("schemas"))
    {
        for (name, schema) in schemas.iter_mut() {
            lower_schema(spec, schema, &pointer_join("/components/schemas", name))?;
        }
    }
    for (key, child) in root.iter_mut() {
        if key != "components" {
            lower_schema_sites(spec, child, pointer_join("", key))?;
        } else if let Value::Object(components) = child {
            for (kind, entries) in components.iter_mut() {
                if kind != "schemas" {
                    lower_schema_sites(spec, entries, pointer_join("/components", kind))?;
                }
            }
        }
    }
    Ok(())
}

/// 3.1 lets an operation leave `responses` out, which 3.0 requires: such an
/// operation documents no response, and gets an empty `responses`, which
/// the model reads as "anything may be answered".
fn document_undocumented_responses(root: &mut Map<String, Value>) {
    let Some(Value::Object(paths)) = root.get_mut("paths") else {
        return;
    };
    for item in paths.values_mut().filter_map(Value::as_object_mut) {
        for (method, operation) in item.iter_mut() {
            if crate::model::Method::from_key(method).is_some()
                && let Value::Object(operation) = operation
            {
                operation.entry("responses").or_insert_with(|| json!({}));
            }
        }
    }
}

/// Lowers every `schema` member (of parameters, media types, headers) below
/// `value`.
fn lower_schema_sites(
    spec: &LoadedSpec,
    value: &mut Value,
    pointer: String,
) -> Result<(), Diagnostic> {
    match value {
        Value::Object(object) => {
            for (key, child) in object.iter_mut() {
                let child_pointer = pointer_join(&pointer, key);
                if key == "schema" {
                    lower_schema(spec, child, &child_pointer)?;
                } else if !key.starts_with("x-") && key != "example" && key != "examples" {
                    lower_schema_sites(spec, child, child_pointer)?;
                }
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter_mut().enumerate() {
                lower_schema_sites(spec, child, pointer_join(&pointer, &index.to_string()))?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn lower_schema(spec: &LoadedSpec, schema: &mut Value, pointer: &str) -> Result<(), Diagnostic> {
    match schema {
        Value::Bool(true) => *schema = json!({}),
        Value::Bool(false) => *schema = json!({"not": {}}),
        Value::Object(object) => lower_object(spec, object, pointer)?,
        _ => {}
    }
    Ok(())
}

fn lower_object(
    spec: &LoadedSpec,
    object: &mut Map<String, Value>,
    pointer: &str,
) -> Result<(), Diagnostic> {
    if let Some(keyword) = INEXPRESSIBLE
        .iter()
        .find(|keyword| object.contains_key(**keyword))
    {
        return Err(spec.error_at(
            &pointer_join(pointer, keyword),
            format!(
                "`{keyword}` has no OpenAPI 3.0 equivalent, so the generators cannot honour it"
            ),
        ));
    }
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
    if object.shift_remove("contentMediaType").is_some() && !object.contains_key("format") {
        object.insert("format".into(), Value::String("binary".into()));
    }
    if let Some(contains) = object.shift_remove("contains") {
        object.insert("x-contains".into(), contains);
    }
    object.shift_remove("contentEncoding");
    object.shift_remove("$schema");
    object.shift_remove("$id");
    if nullable {
        object.insert("nullable".into(), Value::Bool(true));
    }
    if object.contains_key("$ref") && object.len() > 1 {
        let reference = object.shift_remove("$ref").expect("checked above");
        for annotation in ANNOTATIONS {
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

    for keyword in ["items", "additionalProperties", "not", "x-contains"] {
        // 3.0 takes a boolean `additionalProperties` as it is.
        if let Some(child) = object
            .get_mut(keyword)
            .filter(|child| !child.is_boolean() || keyword != "additionalProperties")
        {
            lower_schema(spec, child, &pointer_join(pointer, keyword))?;
        }
    }
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for (name, child) in properties.iter_mut() {
            lower_schema(
                spec,
                child,
                &pointer_join(&pointer_join(pointer, "properties"), name),
            )?;
        }
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(children)) = object.get_mut(keyword) {
            for (index, child) in children.iter_mut().enumerate() {
                lower_schema(
                    spec,
                    child,
                    &pointer_join(&pointer_join(pointer, keyword), &index.to_string()),
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(schema: Value) -> Result<Value, String> {
        let text = serde_json::to_string(&json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1", "license": {"name": "MIT", "identifier": "MIT"}},
            "components": {"schemas": {"S": schema}},
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
            lowered(json!({"$ref": "#/components/schemas/S", "x-release-lifecycle": "GA"}))
                .unwrap(),
            json!({"$ref": "#/components/schemas/S"})
        );
    }

    #[test]
    fn refs_with_siblings() {
        assert_eq!(
            lowered(json!({"$ref": "#/components/schemas/S", "description": "d"})).unwrap(),
            json!({"$ref": "#/components/schemas/S"})
        );
        assert_eq!(
            lowered(json!({"$ref": "#/components/schemas/S", "type": ["object", "null"]})).unwrap(),
            json!({"type": "object", "nullable": true, "allOf": [{"$ref": "#/components/schemas/S"}]})
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

    #[test]
    fn inexpressible_keywords_are_refused_with_their_place() {
        let error =
            lowered(json!({"type": "array", "prefixItems": [{"type": "string"}]})).unwrap_err();
        assert!(
            error.contains("`prefixItems` has no OpenAPI 3.0 equivalent")
                && error.contains("(at /components/schemas/S/prefixItems)"),
            "{error}"
        );
    }
}
