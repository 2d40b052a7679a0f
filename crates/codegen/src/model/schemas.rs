//! Checks on the raw JSON of every schema, for constructs the type generator
//! cannot handle: reported here, with a line, instead of letting typify panic
//! or guess.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::load::LoadedSpec;

/// Schema keywords whose value is a schema, and those whose value is a list
/// or map of schemas; used to find every schema in the document.
const SUBSCHEMA_KEYWORDS: &[&str] = &["items", "not", "additionalProperties"];
/// JSON Schema keywords 3.0 has no spelling for, whose value is a schema, a
/// list or a map of schemas; only the server reads them (so a boolean
/// schema there is fine).
const JSON_SCHEMA_SUBSCHEMAS: &[&str] = &[
    "contains",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
];
const JSON_SCHEMA_SUBSCHEMA_LISTS: &[&str] = &["prefixItems"];
const JSON_SCHEMA_SUBSCHEMA_MAPS: &[&str] = &["patternProperties", "dependentSchemas"];
pub(crate) const SUBSCHEMA_LIST_KEYWORDS: &[&str] = &["allOf", "oneOf", "anyOf"];
const SCHEMA_TYPES: &[&str] = &["string", "number", "integer", "boolean", "array", "object"];

/// Checks every schema for constructs the type generator cannot handle,
/// reporting them here instead of letting typify panic or guess.
pub(crate) fn check_schemas(spec: &LoadedSpec) -> Result<(), Diagnostic> {
    let mut schemas = Vec::new();
    if let Some(Value::Object(named)) = spec.document.pointer("/components/schemas") {
        for name in named.keys() {
            schemas.push(pointer_join("/components/schemas", name));
        }
    }
    collect_schema_sites(&spec.document, String::new(), &mut schemas);
    for pointer in schemas {
        check_schema(spec, &pointer)?;
    }
    Ok(())
}

/// Finds `schema` members of parameters, media types and headers.
fn collect_schema_sites(value: &Value, pointer: String, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                let child_pointer = pointer_join(&pointer, key);
                if key == "schema" && child.is_object() {
                    out.push(child_pointer);
                } else if key != "schemas" && !key.starts_with("x-") && key != "example" {
                    collect_schema_sites(child, child_pointer, out);
                }
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                collect_schema_sites(child, pointer_join(&pointer, &index.to_string()), out);
            }
        }
        _ => {}
    }
}

fn check_schema(spec: &LoadedSpec, pointer: &str) -> Result<(), Diagnostic> {
    let Some(Value::Object(schema)) = spec.document.pointer(pointer) else {
        return match spec.document.pointer(pointer) {
            Some(Value::Bool(_)) if pointer.ends_with("/additionalProperties") => Ok(()),
            _ => Err(spec.error_at(pointer, "a schema must be a mapping")),
        };
    };
    if schema.contains_key("$ref") {
        return Ok(());
    }
    match schema.get("type") {
        None => {}
        Some(Value::String(kind)) if SCHEMA_TYPES.contains(&kind.as_str()) => {}
        Some(Value::String(kind)) => {
            return Err(spec.error_at(
                &pointer_join(pointer, "type"),
                format!(
                    "unknown schema type `{kind}`; expected one of {}",
                    SCHEMA_TYPES.join(", ")
                ),
            ));
        }
        Some(other) => {
            return Err(spec.error_at(
                &pointer_join(pointer, "type"),
                format!("schema `type` must be a single string in OpenAPI 3.0, found {other}"),
            ));
        }
    }
    for (exclusive, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if schema.get(exclusive) == Some(&Value::Bool(true)) && !schema.contains_key(bound) {
            return Err(spec.error_at(
                &pointer_join(pointer, exclusive),
                format!("`{exclusive}: true` needs a `{bound}`"),
            ));
        }
    }
    match schema.get("pattern") {
        None => {}
        // The generated types and the server compile it with regress at run
        // time; a pattern it cannot compile would panic there.
        Some(Value::String(pattern)) => {
            if let Err(err) = regress::Regex::new(pattern) {
                return Err(spec.error_at(
                    &pointer_join(pointer, "pattern"),
                    format!("`pattern` is not a valid ECMA-262 regular expression: {err}"),
                ));
            }
        }
        Some(_) => {
            return Err(spec.error_at(
                &pointer_join(pointer, "pattern"),
                "`pattern` must be a string",
            ));
        }
    }
    if let Some(Value::Object(patterns)) = schema.get("patternProperties") {
        for pattern in patterns.keys() {
            // Compiled by the server as `pattern` is.
            if let Err(err) = regress::Regex::new(pattern) {
                return Err(spec.error_at(
                    &pointer_join(&pointer_join(pointer, "patternProperties"), pattern),
                    format!("`{pattern}` is not a valid ECMA-262 regular expression: {err}"),
                ));
            }
        }
    }
    let nested = |keyword: &str| pointer_join(pointer, keyword);
    let mut json_schema_children: Vec<String> = JSON_SCHEMA_SUBSCHEMAS
        .iter()
        .filter(|keyword| schema.get(**keyword).is_some_and(Value::is_object))
        .map(|keyword| nested(keyword))
        .collect();
    for keyword in JSON_SCHEMA_SUBSCHEMA_LISTS {
        if let Some(Value::Array(items)) = schema.get(*keyword) {
            json_schema_children.extend(
                (0..items.len())
                    .filter(|index| items[*index].is_object())
                    .map(|index| pointer_join(&nested(keyword), &index.to_string())),
            );
        }
    }
    for keyword in JSON_SCHEMA_SUBSCHEMA_MAPS {
        if let Some(Value::Object(map)) = schema.get(*keyword) {
            json_schema_children.extend(
                map.iter()
                    .filter(|(_, child)| child.is_object())
                    .map(|(name, _)| pointer_join(&nested(keyword), name)),
            );
        }
    }
    for child in json_schema_children {
        check_schema(spec, &child)?;
    }
    if let Some(Value::Object(properties)) = schema.get("properties") {
        for name in properties.keys() {
            check_schema(
                spec,
                &pointer_join(&pointer_join(pointer, "properties"), name),
            )?;
        }
    }
    for keyword in SUBSCHEMA_KEYWORDS {
        if schema.contains_key(*keyword) {
            check_schema(spec, &pointer_join(pointer, keyword))?;
        }
    }
    for keyword in SUBSCHEMA_LIST_KEYWORDS {
        match schema.get(*keyword) {
            None => {}
            Some(Value::Array(items)) if !items.is_empty() => {
                for index in 0..items.len() {
                    check_schema(
                        spec,
                        &pointer_join(&pointer_join(pointer, keyword), &index.to_string()),
                    )?;
                }
            }
            Some(_) => {
                return Err(spec.error_at(
                    &pointer_join(pointer, keyword),
                    format!("`{keyword}` must be a non-empty list of schemas"),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    fn checked(schema: serde_json::Value) -> Result<(), String> {
        let text = serde_json::to_string(&json!({
            "openapi": "3.1.0",
            "info": {"title": "t", "version": "1"},
            "components": {"schemas": {"S": schema}},
        }))
        .unwrap();
        let spec =
            crate::load::parse_spec(std::path::Path::new("t.json"), text.as_bytes()).unwrap();
        super::check_schemas(&spec).map_err(|err| err.to_string())
    }

    /// The keywords 3.0 cannot spell are read as schemas too: their
    /// patterns must compile, and so must those of their subschemas.
    #[test]
    fn patterns_under_json_schema_keywords_are_checked_with_their_place() {
        let error = checked(json!({"patternProperties": {"^(x": {}}})).unwrap_err();
        assert!(
            error.contains("`^(x` is not a valid ECMA-262 regular expression")
                && error.contains("(at /components/schemas/S/patternProperties/^(x)"),
            "{error}"
        );
        let error = checked(json!({"prefixItems": [true, {"pattern": "["}]})).unwrap_err();
        assert!(
            error.contains("(at /components/schemas/S/prefixItems/1/pattern)"),
            "{error}"
        );
        let error = checked(json!({"if": {"properties": {"a": {"type": "text"}}}})).unwrap_err();
        assert!(error.contains("unknown schema type `text`"), "{error}");
        assert_eq!(
            checked(json!({
                "patternProperties": {"^x-": {"type": "string"}},
                "unevaluatedProperties": false,
                "dependentSchemas": {"a": {"required": ["b"]}},
                "contains": {"pattern": "^a"},
                "unknownKeyword": {"type": "not-a-type"},
            })),
            Ok(())
        );
    }
}
