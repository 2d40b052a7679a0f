//! Checks on the raw JSON of every schema, for constructs the type generator
//! cannot handle: reported here, with a line, instead of letting typify panic
//! or guess.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Diagnostics, pointer_join};
use crate::load::LoadedSpec;
use crate::walk;

pub(crate) const SUBSCHEMA_LIST_KEYWORDS: &[&str] = &["allOf", "oneOf", "anyOf"];
const SCHEMA_TYPES: &[&str] = &["string", "number", "integer", "boolean", "array", "object"];

/// Checks every schema for constructs the type generator cannot handle,
/// reporting them here instead of letting typify panic or guess.
pub(crate) fn check_schemas(spec: &LoadedSpec) -> Result<(), Diagnostics> {
    let mut problems = Diagnostics::default();
    walk::for_each_schema(&spec.document, |site, schema| {
        problems.keep(check_schema(spec, site.pointer, schema));
    });
    problems.or_value(())
}

/// The checks of one schema; the walk visits its subschemas on its own.
fn check_schema(spec: &LoadedSpec, pointer: &str, schema: &Value) -> Result<(), Diagnostic> {
    let Value::Object(schema) = schema else {
        return match schema {
            Value::Bool(_) if boolean_allowed(pointer) => Ok(()),
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
    for keyword in SUBSCHEMA_LIST_KEYWORDS {
        match schema.get(*keyword) {
            None => {}
            Some(Value::Array(items)) if !items.is_empty() => {}
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

/// Where a boolean schema may stand: `additionalProperties` in 3.0, and
/// under the JSON Schema keywords 3.0 has no spelling for, which only the
/// server reads.
fn boolean_allowed(pointer: &str) -> bool {
    const SERVER_ONLY: &[&str] = &[
        "contains",
        "if",
        "then",
        "else",
        "propertyNames",
        "unevaluatedProperties",
        "unevaluatedItems",
        "prefixItems",
        "patternProperties",
        "dependentSchemas",
    ];
    let mut tokens = pointer.rsplit('/');
    let last = tokens.next().unwrap_or_default();
    let parent = tokens.next().unwrap_or_default();
    last == "additionalProperties"
        || SERVER_ONLY.contains(&last)
        || (SERVER_ONLY.contains(&parent)
            && matches!(
                parent,
                "prefixItems" | "patternProperties" | "dependentSchemas"
            ))
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
