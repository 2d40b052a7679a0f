//! Containment: a problem the model finds is read at the smallest unit of
//! the description it touches, so that one flaw never refuses the whole
//! API. [`build_model`] builds the model; where it refuses, each located
//! problem's unit is edited out of the document (or read another way) with
//! a warning stating the reading ([`Reading`]), and the model is built
//! again, until it builds or no problem can be contained.
//!
//! The units, smallest first, and what each becomes ([`crate::structure`]
//! says which node is which):
//!
//! | unit | read as |
//! |---|---|
//! | a schema | any JSON value (`{}`), keeping its description |
//! | a parameter, a header | left out |
//! | a media type of a body or response | left out; a body left without any goes |
//! | a request body, a response | left out |
//! | a security scheme | an OAuth flow's missing `scopes` as none, else an HTTP bearer token of its name |
//! | an operation, a path item, a callback | left out |
//! | a component of another kind (example, link) | left out |
//! | `info` | its `title` and `version` read as `API` and `0` where they are not text |
//!
//! A unit contained once whose problem stays climbs to the unit around it;
//! a component left out takes every reference to it along. What is not
//! located, or located at the document itself, stays an error: a document
//! that is not OpenAPI at all.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::load::LoadedSpec;
use crate::model::{self, ApiModel};
use crate::readings::Reading;
use crate::structure::{Kind, kinds_along};

/// Rounds of containment before giving up: each contains at least one
/// more unit, and a description has few flaws next to its units.
const ROUNDS: usize = 1000;

/// The model of `spec`, its problems contained as the module docs say.
/// The prepared document ([`crate::prepare_document`]) is edited in place,
/// so that every later reader (progenitor's view, the mock) reads what the
/// model read.
pub fn build_model(spec: &mut LoadedSpec) -> Result<ApiModel, Diagnostics> {
    let mut contained = BTreeSet::new();
    let mut rounds = 0;
    loop {
        let problems = match model::build_model(spec) {
            Ok(model) => return Ok(model),
            Err(problems) => problems,
        };
        rounds += 1;
        let mut any = false;
        for problem in &problems {
            any |= contain(spec, problem, &mut contained);
        }
        if !any || rounds >= ROUNDS {
            return Err(problems);
        }
    }
}

/// Contains `problem` at the smallest unit around its place that was not
/// contained before, with a warning; `false` where there is none.
pub fn contain(
    spec: &mut LoadedSpec,
    problem: &Diagnostic,
    contained: &mut BTreeSet<String>,
) -> bool {
    let Some(pointer) = problem
        .document_pointer
        .as_deref()
        .or(problem.pointer.as_deref())
    else {
        return false;
    };
    if let Some(reading) = empty_section(&mut spec.document, pointer) {
        if !contained.insert(pointer.to_string()) {
            return false;
        }
        let mut warning = problem.clone();
        warning.cause = format!("{}; read as empty", problem.cause);
        spec.warnings.push(warning.read_as(reading));
        return true;
    }
    let along = kinds_along(pointer);
    for (at, kind) in along.iter().rev() {
        if contained.contains(at) || spec.document.pointer(at).is_none() {
            continue;
        }
        let Some(reading) = contain_unit(&mut spec.document, at, *kind) else {
            continue;
        };
        contained.insert(at.clone());
        let (reading, how) = reading;
        let mut warning = problem.clone();
        warning.cause = format!("{}; {how}", problem.cause);
        spec.warnings.push(warning.read_as(reading));
        return true;
    }
    false
}

/// Edits the unit of `kind` at `at` as the module docs say, giving the
/// reading and how it reads; `None` where `kind` is no unit (or nothing
/// there can be edited).
fn contain_unit(document: &mut Value, at: &str, kind: Kind) -> Option<(Reading, &'static str)> {
    Some(match kind {
        Kind::Schema => {
            let node = document.pointer_mut(at)?;
            let mut any = Map::new();
            if let Some(description) = node.get("description").filter(|d| d.is_string()) {
                any.insert("description".into(), description.clone());
            }
            *node = Value::Object(any);
            (
                Reading::SchemaUnreadable,
                "this schema is read as any JSON value",
            )
        }
        Kind::Parameter => {
            remove_unit(document, at);
            (Reading::ParameterUnreadable, "this parameter is left out")
        }
        Kind::Header => {
            remove_unit(document, at);
            (Reading::ResponseUnreadable, "this header is left out")
        }
        Kind::MediaType => {
            let along = kinds_along(at);
            let owner = along.iter().rev().nth(1)?;
            remove_unit(document, at);
            match owner.1 {
                Kind::RequestBody => {
                    let empty = document
                        .pointer(&format!("{}/content", owner.0))
                        .and_then(Value::as_object)
                        .is_none_or(Map::is_empty);
                    if empty {
                        remove_unit(document, &owner.0);
                        (
                            Reading::BodyUnreadable,
                            "this media type is left out, and with it the request body",
                        )
                    } else {
                        (
                            Reading::BodyUnreadable,
                            "this media type of the request body is left out",
                        )
                    }
                }
                _ => (Reading::ResponseUnreadable, "this media type is left out"),
            }
        }
        Kind::RequestBody => {
            remove_unit(document, at);
            (Reading::BodyUnreadable, "this request body is left out")
        }
        Kind::Response => {
            remove_unit(document, at);
            (Reading::ResponseUnreadable, "this response is left out")
        }
        Kind::SecurityScheme => {
            if fill_scopes(document.pointer_mut(at)?) {
                (
                    Reading::SchemeUnreadable,
                    "its flows' missing `scopes` are read as none",
                )
            } else {
                let node = document.pointer_mut(at)?;
                let mut bearer = json!({"type": "http", "scheme": "bearer"});
                if let Some(description) = node.get("description").filter(|d| d.is_string()) {
                    bearer["description"] = description.clone();
                }
                *node = bearer;
                (
                    Reading::SchemeUnreadable,
                    "this scheme is read as an HTTP bearer token: its operations accept any \
                     credential of that name",
                )
            }
        }
        Kind::Operation => {
            let operation = document.pointer_mut(at)?.as_object_mut()?;
            if !operation.get("responses").is_some_and(Value::is_object) {
                operation.insert("responses".into(), Value::Object(Map::new()));
                return Some((
                    Reading::OperationUnreadable,
                    "its `responses` are read as none documented (any response)",
                ));
            }
            remove_unit(document, at);
            (Reading::OperationUnreadable, "this operation is left out")
        }
        Kind::PathItem | Kind::Callback => {
            remove_unit(document, at);
            (Reading::PathUnreadable, "its operations are left out")
        }
        Kind::Example | Kind::Link | Kind::Encoding => {
            remove_unit(document, at);
            (Reading::ComponentUnreadable, "it is left out")
        }
        Kind::Other if at == "/info" => {
            let node = document.pointer_mut(at)?;
            if !node.is_object() {
                *node = Value::Object(Map::new());
            }
            let info = node.as_object_mut()?;
            let mut changed = false;
            for (key, default) in [("title", "API"), ("version", "0")] {
                if !info.get(key).is_some_and(Value::is_string) {
                    info.insert(key.into(), Value::String(default.into()));
                    changed = true;
                }
            }
            if !changed {
                return None;
            }
            (
                Reading::ComponentUnreadable,
                "`info` is read with a `title` and `version` of text",
            )
        }
        Kind::Other if is_removable_annotation(at) => {
            remove_unit(document, at);
            (Reading::ComponentUnreadable, "it is left out")
        }
        Kind::Components if at == "/components" => {
            // A `components` that is not an object holds nothing to read.
            let node = document.pointer_mut(at)?;
            if node.is_object() {
                return None;
            }
            *node = Value::Object(Map::new());
            (
                Reading::ComponentUnreadable,
                "`components` is read as empty",
            )
        }
        _ => return None,
    })
}

/// A section of the document that holds units (`paths`, `webhooks`, a
/// section of `components`, `tags`, `servers`) but is not the map or list
/// it must be, made an empty one; `None` where `pointer` is no such
/// section or it has the right type (its problem is in a unit).
fn empty_section(document: &mut Value, pointer: &str) -> Option<Reading> {
    let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
    let list = match tokens.as_slice() {
        ["paths"] | ["webhooks"] | ["components", _] => false,
        ["tags"] | ["servers"] => true,
        _ => return None,
    };
    let node = document.pointer_mut(pointer)?;
    if node.is_array() == list && (list || node.is_object()) {
        return None;
    }
    *node = if list {
        Value::Array(Vec::new())
    } else {
        Value::Object(Map::new())
    };
    Some(if tokens[0] == "paths" || tokens[0] == "webhooks" {
        Reading::PathUnreadable
    } else {
        Reading::ComponentUnreadable
    })
}

/// Parts of the document that only describe: a server, a tag, external
/// documents. A security requirement is never one: leaving it out could
/// make what it protects public.
fn is_removable_annotation(at: &str) -> bool {
    let tokens: Vec<&str> = at.split('/').skip(1).collect();
    matches!(
        tokens.as_slice(),
        ["servers", _] | ["tags", _] | ["tags"] | ["externalDocs"] | ["servers"]
    ) || tokens.ends_with(&["externalDocs"])
        || matches!(tokens.as_slice(), [.., "servers", index] if index.parse::<usize>().is_ok())
}

/// Fills the `scopes` an OAuth scheme's flows lack (or hold as something
/// other than a map) with none; whether anything changed.
fn fill_scopes(scheme: &mut Value) -> bool {
    let Some(Value::Object(flows)) = scheme.get_mut("flows") else {
        return false;
    };
    let mut changed = false;
    for flow in flows.values_mut() {
        if let Value::Object(flow) = flow
            && !flow.get("scopes").is_some_and(Value::is_object)
        {
            flow.insert("scopes".into(), Value::Object(Map::new()));
            changed = true;
        }
    }
    changed
}

/// Removes the node at `at` from its list or object; a component goes with
/// every reference to it (each removed where it stands).
fn remove_unit(document: &mut Value, at: &str) {
    crate::structure::remove_entry(document, at);
    let tokens: Vec<&str> = at.split('/').skip(1).collect();
    if let ["components", _, _] = tokens.as_slice() {
        let reference = format!("#{at}");
        let mut sites = Vec::new();
        references_to(document, &reference, &mut String::new(), &mut sites);
        crate::structure::remove_entries(document, sites);
    }
}

/// The pointers of every object whose `$ref` is `reference`.
fn references_to(node: &Value, reference: &str, at: &mut String, sites: &mut Vec<String>) {
    match node {
        Value::Object(object) => {
            if object.get("$ref").and_then(Value::as_str) == Some(reference) {
                sites.push(at.clone());
                return;
            }
            for (key, value) in object {
                let length = at.len();
                at.push('/');
                at.push_str(&crate::diagnostic::escape_pointer_token(key));
                references_to(value, reference, at, sites);
                at.truncate(length);
            }
        }
        Value::Array(items) => {
            for (index, value) in items.iter().enumerate() {
                let length = at.len();
                at.push('/');
                at.push_str(&index.to_string());
                references_to(value, reference, at, sites);
                at.truncate(length);
            }
        }
        _ => {}
    }
}

/// `problem` when it is the generators' refusal of one operation (located
/// at it by [`crate::emit::progenitor::locate_failure`]), which the next
/// run leaves out.
pub fn refused_operation(problem: &Diagnostic) -> Option<Diagnostic> {
    let pointer = problem.document_pointer.as_deref()?;
    let (_, kind) = kinds_along(pointer).pop()?;
    // A reading refused (`--strict`, `--deny`) is no generator's failure.
    (kind == Kind::Operation && !problem.is_warning() && problem.reading.is_none())
        .then(|| problem.clone())
}
