//! Path templates that differ only in their parameters' names
//! (`/auth/{a}/login` beside `/auth/{b}/login`): OpenAPI says they must not
//! both exist, since they match the same requests, and a router cannot
//! hold both. The later is read as the earlier, with its path parameters
//! renamed by position (`{b}` read as `{a}`: a path parameter's name is
//! never on the wire), and its operations join the earlier path item, so
//! one route serves both and tells them apart by method. An operation
//! whose method the earlier path already has is left out, with the
//! warning.

use serde_json::{Map, Value};

use crate::diagnostic::pointer_join;
use crate::load::LoadedSpec;
use crate::model::paths::{path_template_names, split_path_key};
use crate::model::refs;
use crate::readings::Reading;
use crate::vocabulary::METHODS;

/// Reads every pair of path keys alike as the module docs say.
pub(crate) fn read_routes_alike(spec: &mut LoadedSpec) {
    let Some(Value::Object(paths)) = spec.document.get("paths") else {
        return;
    };
    let keys: Vec<String> = paths.keys().cloned().collect();
    let mut first_of_shape: Vec<(String, String)> = Vec::new();
    let mut merges: Vec<(String, String)> = Vec::new();
    for key in keys {
        let Some(shape) = shape(&key) else {
            continue;
        };
        match first_of_shape.iter().find(|(seen, _)| *seen == shape) {
            Some((_, first)) => merges.push((key, first.clone())),
            None => first_of_shape.push((shape, key)),
        }
    }
    for (later, first) in merges {
        merge(spec, &later, &first);
    }
}

/// A path key with each template's name left out: keys of one shape match
/// the same requests.
fn shape(key: &str) -> Option<String> {
    let split = split_path_key(key).ok()?;
    let names = path_template_names(&split.path).ok()?;
    if names.is_empty() {
        return None;
    }
    let mut shape = split.path.clone();
    for name in &names {
        shape = shape.replacen(&format!("{{{name}}}"), "{}", 1);
    }
    Some(format!("{shape}?{}#{}", split.query, split.fragment))
}

fn merge(spec: &mut LoadedSpec, later: &str, first: &str) {
    let (Ok(later_split), Ok(first_split)) = (split_path_key(later), split_path_key(first)) else {
        return;
    };
    let (Ok(later_names), Ok(first_names)) = (
        path_template_names(&later_split.path),
        path_template_names(&first_split.path),
    ) else {
        return;
    };
    let later_pointer = pointer_join("/paths", later);
    let first_pointer = pointer_join("/paths", first);
    // Each operation takes its path item's parameters along, since the
    // item it joins has others.
    for pointer in [&first_pointer, &later_pointer] {
        push_parameters_down(&mut spec.document, pointer);
    }
    let Some(Value::Object(item)) = spec.document.pointer(&later_pointer).cloned() else {
        return;
    };
    for method in METHODS {
        let Some(Value::Object(mut operation)) = item.get(method).cloned() else {
            continue;
        };
        let from = pointer_join(&later_pointer, method);
        let to = pointer_join(&first_pointer, method);
        if spec.document.pointer(&to).is_some() {
            spec.warn_at(
                Reading::RouteShadowed,
                &from,
                format!(
                    "`{later}` differs from `{first}` only in its parameters' names, so both \
                     match the same requests, and `{first}` has a `{method}` already; this \
                     operation is left out"
                ),
            );
            continue;
        }
        rename_path_parameters(&spec.document, &mut operation, &later_names, &first_names);
        spec.warn_at(
            Reading::RouteShadowed,
            &from,
            format!(
                "`{later}` differs from `{first}` only in its parameters' names, so both match \
                 the same requests; read as `{first}`, one route serving both"
            ),
        );
        if let Some(Value::Object(target)) = spec.document.pointer_mut(&first_pointer) {
            target.insert(method.to_string(), Value::Object(operation));
        }
        spec.source_map.alias(&to, &from);
    }
    crate::structure::remove_entry(&mut spec.document, &later_pointer);
}

/// Moves the path item's `parameters` into each of its operations (where
/// the operation does not declare one of the same name and place).
fn push_parameters_down(document: &mut Value, item_pointer: &str) {
    let Some(Value::Object(item)) = document.pointer_mut(item_pointer) else {
        return;
    };
    let Some(Value::Array(shared)) = item.shift_remove("parameters") else {
        return;
    };
    for method in METHODS {
        let Some(Value::Object(operation)) = item.get_mut(method) else {
            continue;
        };
        let own = operation
            .entry("parameters")
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(own) = own else {
            continue;
        };
        for parameter in &shared {
            let key = parameter_key(parameter);
            if key.is_none() || !own.iter().any(|listed| parameter_key(listed) == key) {
                own.push(parameter.clone());
            }
        }
    }
}

fn parameter_key(parameter: &Value) -> Option<(String, String)> {
    Some((
        parameter.get("name")?.as_str()?.to_string(),
        parameter.get("in")?.as_str()?.to_string(),
    ))
}

/// Renames `operation`'s path parameters from `from` to `to`, by position;
/// a parameter given by `$ref` is copied in to be renamed.
fn rename_path_parameters(
    document: &Value,
    operation: &mut Map<String, Value>,
    from: &[String],
    to: &[String],
) {
    let Some(Value::Array(parameters)) = operation.get_mut("parameters") else {
        return;
    };
    for listed in parameters.iter_mut() {
        let followed = refs::follow(document, listed, "").map(|(value, _)| value.clone());
        let Ok(Value::Object(mut parameter)) = followed else {
            continue;
        };
        if parameter.get("in").and_then(Value::as_str) != Some("path") {
            continue;
        }
        let Some(position) = parameter
            .get("name")
            .and_then(Value::as_str)
            .and_then(|name| from.iter().position(|seen| seen == name))
        else {
            continue;
        };
        let Some(name) = to.get(position) else {
            continue;
        };
        parameter.insert("name".into(), Value::String(name.clone()));
        *listed = Value::Object(parameter);
    }
}
