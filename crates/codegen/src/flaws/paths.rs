//! Path parameters that do not match their path template, the most common
//! flaw of hand-written descriptions: each operation's `in: path`
//! parameters are read against the `{name}`s of its path.
//!
//! - A path parameter the template does not name is left out of the
//!   operation (the list entry goes; a shared component stays for others).
//! - A `{name}` no parameter declares is read as a required string path
//!   parameter of that name, added to the operation.
//! - A path parameter without `required: true` is read as required: a path
//!   always carries it.
//!
//! A template that cannot be read (`/a/{id`, a name twice) is left to
//! [`crate::contain`], which leaves its operations out.

use serde_json::{Value, json};

use crate::diagnostic::pointer_join;
use crate::load::LoadedSpec;
use crate::model::paths::{path_template_names, split_path_key};
use crate::model::refs;
use crate::readings::Reading;
use crate::vocabulary::METHODS;
use crate::walk;

/// One change to a parameter list.
enum Fix {
    /// The entry at this pointer goes.
    Remove(String),
    /// `required: true` on the parameter object at this pointer.
    Require(String),
    /// A parameter appended to the list at this pointer (created if need be).
    Declare(String, Value),
}

/// Reads every mismatch of path parameters and templates as the module
/// docs say, with a warning each.
pub(crate) fn read_path_parameters(spec: &mut LoadedSpec) {
    let mut fixes = Vec::new();
    for site in walk::path_items(&spec.document) {
        if site.webhook {
            continue;
        }
        let Ok(key) = split_path_key(site.key) else {
            continue;
        };
        let Ok(names) = path_template_names(&key.path) else {
            continue;
        };
        for method in METHODS {
            if !site.item.get(method).is_some_and(Value::is_object) {
                continue;
            }
            let operation = pointer_join(&site.pointer, method);
            operation_fixes(spec, &operation, &key.path, &names, &mut fixes);
        }
    }
    apply(&mut spec.document, fixes);
}

fn operation_fixes(
    spec: &LoadedSpec,
    operation: &str,
    path: &str,
    names: &[String],
    fixes: &mut Vec<Fix>,
) {
    let listed = refs::operation_parameters(&spec.document, operation);
    let mut declared = Vec::new();
    for parameter in &listed {
        let Some(("path", name)) = parameter.key().map(|(name, at)| (at, name)) else {
            continue;
        };
        if !names.iter().any(|wanted| wanted == name) {
            // A path item's list serves each of its operations: warned once.
            if !fixes
                .iter()
                .any(|fix| matches!(fix, Fix::Remove(at) if *at == parameter.pointer))
            {
                spec.warn_at(
                    Reading::PathParameterUnplaced,
                    &parameter.pointer,
                    format!(
                        "path parameter `{name}` does not appear in the path `{path}`; left out \
                         of the operation"
                    ),
                );
                fixes.push(Fix::Remove(parameter.pointer.clone()));
            }
            continue;
        }
        declared.push(name.to_string());
        if let Some((object, at)) = &parameter.followed
            && object.get("required") != Some(&Value::Bool(true))
        {
            let at = at.clone();
            if !fixes
                .iter()
                .any(|fix| matches!(fix, Fix::Require(seen) if *seen == at))
            {
                spec.warn_at(
                    Reading::PathParameterOptional,
                    &at,
                    format!(
                        "path parameter `{name}` is not `required: true`; read as required, \
                         since a path always carries it"
                    ),
                );
                fixes.push(Fix::Require(at));
            }
        }
    }
    let list = pointer_join(operation, "parameters");
    for name in names {
        if declared.contains(name) {
            continue;
        }
        spec.warn_at(
            Reading::PathParameterUndeclared,
            operation,
            format!(
                "the path `{path}` names `{{{name}}}`, which no parameter of the operation \
                 declares; read as a required string path parameter"
            ),
        );
        let parameter = json!({
            "name": name,
            "in": "path",
            "required": true,
            "schema": {"type": "string"},
        });
        fixes.push(Fix::Declare(list.clone(), parameter));
    }
}

fn apply(document: &mut Value, fixes: Vec<Fix>) {
    // Removals last, from the highest index down, so pointers stay true.
    let mut removals = Vec::new();
    for fix in fixes {
        match fix {
            Fix::Remove(pointer) => removals.push(pointer),
            Fix::Require(pointer) => {
                if let Some(Value::Object(parameter)) = document.pointer_mut(&pointer) {
                    parameter.insert("required".into(), Value::Bool(true));
                }
            }
            Fix::Declare(list, parameter) => {
                let (owner, _) = list.rsplit_once('/').unwrap_or_default();
                let Some(Value::Object(operation)) = document.pointer_mut(owner) else {
                    continue;
                };
                let entry = operation
                    .entry("parameters")
                    .or_insert_with(|| Value::Array(Vec::new()));
                if !entry.is_array() {
                    *entry = Value::Array(Vec::new());
                }
                if let Value::Array(parameters) = entry {
                    parameters.push(parameter);
                }
            }
        }
    }
    crate::structure::remove_entries(document, removals);
}
