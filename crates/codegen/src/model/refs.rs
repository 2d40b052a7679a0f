//! References: every `$ref` resolves locally and ends somewhere, and the one
//! way components are looked up through them.

use std::collections::BTreeSet;

use openapiv3::ReferenceOr;
use serde_json::Value;

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::load::LoadedSpec;

/// Where named schemas live; a body or property `$ref` must point here.
pub const SCHEMA_REF_PREFIX: &str = "#/components/schemas/";

/// The component schema name a `$ref` points at, if it points into
/// `components/schemas`.
pub fn schema_name(reference: &str) -> Option<&str> {
    reference.strip_prefix(SCHEMA_REF_PREFIX)
}

/// Resolves a `$ref` to a component of `kind` (already checked to exist by
/// [`check_references`], but a ref may point at the wrong kind of component).
pub(crate) fn lookup<T: Clone>(
    spec: &LoadedSpec,
    pointer: &str,
    reference: &str,
    kind: &str,
    components: &indexmap::IndexMap<String, ReferenceOr<T>>,
) -> Result<T, Diagnostic> {
    let prefix = format!("#/components/{kind}/");
    let mut current = reference.to_string();
    for _ in 0..=components.len() {
        let found = current
            .strip_prefix(&prefix)
            .and_then(|name| components.get(name));
        match found {
            Some(ReferenceOr::Item(item)) => return Ok(item.clone()),
            Some(ReferenceOr::Reference { reference }) => current = reference.clone(),
            None => break,
        }
    }
    Err(spec.error_at(
        &pointer_join(pointer, "$ref"),
        format!("`{reference}` must refer to an entry of components/{kind}"),
    ))
}

/// Every `$ref` in the document must be local and resolve, and following
/// references must end at something other than another reference.
pub(crate) fn check_references(spec: &LoadedSpec) -> Result<(), Diagnostic> {
    let mut references = Vec::new();
    collect_references(&spec.document, String::new(), &mut references);
    for (pointer, reference) in &references {
        let mut seen = BTreeSet::new();
        let mut current = reference.clone();
        loop {
            let Some(target_pointer) = current.strip_prefix('#') else {
                return Err(spec.error_at(
                    pointer,
                    format!("`$ref: {current}` is not a local reference; references to other files are not supported"),
                ));
            };
            if !seen.insert(target_pointer.to_string()) {
                return Err(spec.error_at(
                    pointer,
                    format!("`$ref: {reference}` is part of a reference cycle that never reaches a definition"),
                ));
            }
            let Some(target) = spec.document.pointer(target_pointer) else {
                return Err(spec.error_at(
                    pointer,
                    format!(
                        "`$ref: {current}` does not resolve: nothing is defined at {target_pointer}"
                    ),
                ));
            };
            match target.get("$ref") {
                Some(Value::String(next)) => current = next.clone(),
                _ => break,
            }
        }
    }
    Ok(())
}

fn collect_references(value: &Value, pointer: String, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                let child_pointer = pointer_join(&pointer, key);
                if key == "$ref" {
                    if let Value::String(reference) = child {
                        out.push((child_pointer, reference.clone()));
                    }
                } else if !key.starts_with("x-") && key != "example" && key != "default" {
                    collect_references(child, child_pointer, out);
                }
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                collect_references(child, pointer_join(&pointer, &index.to_string()), out);
            }
        }
        _ => {}
    }
}
