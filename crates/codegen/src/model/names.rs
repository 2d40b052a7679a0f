//! Spec names that would become one Rust identifier: two schemas, two
//! properties of one object, two operations or two parameters of one
//! operation. Reported with both places here; otherwise rustc would report a
//! duplicate definition in generated code, far from the cause.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::load::LoadedSpec;
use crate::naming::{self, NameTable};

/// Records `name` (at `pointer`) as `identifier` in `table`, or reports the
/// collision with the earlier name, giving the earlier place's line too.
pub(crate) fn insert(
    spec: &LoadedSpec,
    table: &mut NameTable,
    identifier: String,
    name: &str,
    pointer: &str,
    what: &str,
) -> Result<(), Diagnostic> {
    table
        .insert(identifier, name, pointer)
        .map_err(|collision| {
            let first_place = spec
                .place(&collision.first_pointer)
                .unwrap_or_else(|| collision.first_pointer.clone());
            spec.error_at(
                pointer,
                format!(
                    "{what} `{}` and {what} `{}` (at {first_place}) both become the Rust name \
                     `{}`; rename one of them",
                    collision.second_name, collision.first_name, collision.identifier
                ),
            )
        })
}

/// Schema names, property names and enum values, on the raw document.
pub(crate) fn check_schema_names(spec: &LoadedSpec) -> Result<(), Diagnostic> {
    let Some(Value::Object(schemas)) = spec.document.pointer("/components/schemas") else {
        return Ok(());
    };
    let mut type_names = NameTable::default();
    for name in schemas.keys() {
        let pointer = pointer_join("/components/schemas", name);
        insert(
            spec,
            &mut type_names,
            naming::type_name(name),
            name,
            &pointer,
            "schema",
        )?;
    }
    let mut objects = Vec::new();
    collect_schema_objects(&spec.document, String::new(), &mut objects);
    for pointer in objects {
        check_one_schema(spec, &pointer)?;
    }
    Ok(())
}

fn check_one_schema(spec: &LoadedSpec, pointer: &str) -> Result<(), Diagnostic> {
    let Some(schema) = spec.document.pointer(pointer) else {
        return Ok(());
    };
    if let Some(Value::Object(properties)) = schema.get("properties") {
        let mut fields = NameTable::default();
        for name in properties.keys() {
            let property_pointer = pointer_join(&pointer_join(pointer, "properties"), name);
            insert(
                spec,
                &mut fields,
                naming::field_name(name),
                name,
                &property_pointer,
                "property",
            )?;
        }
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        let texts: Vec<(usize, &str)> = values
            .iter()
            .enumerate()
            .filter_map(|(index, value)| value.as_str().map(|text| (index, text)))
            .collect();
        // Typify's own fallback: when the plain names clash, it spells the
        // characters it dropped as `X`; only a clash after that is fatal.
        let plain = |text: &str| naming::type_name(text);
        let spelled = |text: &str| {
            naming::type_name(&text.replace(
                |c: char| c == '_' || !unicode_ident::is_xid_continue(c),
                "X",
            ))
        };
        let mut result = Ok(());
        for variant_name in [&plain as &dyn Fn(&str) -> String, &spelled] {
            let mut variants = NameTable::default();
            result = texts.iter().try_for_each(|(index, text)| {
                let value_pointer =
                    pointer_join(&pointer_join(pointer, "enum"), &index.to_string());
                insert(
                    spec,
                    &mut variants,
                    variant_name(text),
                    text,
                    &value_pointer,
                    "enum value",
                )
            });
            if result.is_ok() {
                break;
            }
        }
        result?;
    }
    Ok(())
}

/// Pointers of every mapping in the document that looks like a schema (has
/// `properties` or `enum`), outside examples and extensions.
fn collect_schema_objects(value: &Value, pointer: String, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            if object.contains_key("properties") || object.contains_key("enum") {
                out.push(pointer.clone());
            }
            for (key, child) in object {
                if key.starts_with("x-")
                    || key == "example"
                    || key == "examples"
                    || key == "default"
                {
                    continue;
                }
                collect_schema_objects(child, pointer_join(&pointer, key), out);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                collect_schema_objects(child, pointer_join(&pointer, &index.to_string()), out);
            }
        }
        _ => {}
    }
}
