//! Checks on the raw JSON of every schema, for constructs the type generator
//! cannot handle: reported here, with a line, instead of letting typify panic
//! or guess.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::load::LoadedSpec;
use crate::walk;

pub(crate) const SUBSCHEMA_LIST_KEYWORDS: &[&str] = &["allOf", "oneOf", "anyOf"];
const SCHEMA_TYPES: &[&str] = &["string", "number", "integer", "boolean", "array", "object"];

/// Checks every schema for constructs the type generator cannot handle,
/// reporting them here instead of letting typify panic or guess.
pub(crate) fn check_schemas(spec: &LoadedSpec) -> Result<(), Diagnostic> {
    let mut outcome = Ok(());
    walk::for_each_schema(&spec.document, |site, schema| {
        if outcome.is_ok() {
            outcome = check_schema(spec, site.pointer, schema);
        }
    });
    outcome
}

/// The checks of one schema; the walk visits its subschemas on its own.
fn check_schema(spec: &LoadedSpec, pointer: &str, schema: &Value) -> Result<(), Diagnostic> {
    let Value::Object(schema) = schema else {
        return match schema {
            Value::Bool(_) if pointer.ends_with("/additionalProperties") => Ok(()),
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
