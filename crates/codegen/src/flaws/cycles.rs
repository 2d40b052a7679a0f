//! Schemas that lead back to themselves through compositions alone
//! (`A: {allOf: [{$ref: A}, ...]}`, or `B` one of `C` any of `B`): no
//! value is described by such a loop that the rest of the schema does not
//! describe, and the generators would follow it for ever (typify merges
//! `allOf` members by recursion, and overflows the stack).
//!
//! Each component schema's composition members (`allOf`, `anyOf`, `oneOf`,
//! `not`, and a component that is only a `$ref`), followed through inline
//! members, are edges between components; the member that closes a loop,
//! in document order, is dropped with a warning (an `allOf` or `oneOf`
//! left empty goes too). A loop through `properties` or `items` is a
//! recursive type, which the generators box, and is kept.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::diagnostic::pointer_join;
use crate::load::LoadedSpec;
use crate::model::refs;
use crate::readings::Reading;

const COMPOSITIONS: [&str; 3] = ["allOf", "anyOf", "oneOf"];

/// A member of a composition that names a component: where it is written
/// and which component it names.
struct Edge {
    member: String,
    target: String,
}

/// Drops every member that closes a loop of compositions, as the module
/// docs say.
pub(crate) fn read_composition_cycles(spec: &mut LoadedSpec) {
    let Some(Value::Object(schemas)) = spec.document.pointer("/components/schemas") else {
        return;
    };
    let names: Vec<String> = schemas.keys().cloned().collect();
    let mut edges: BTreeMap<String, Vec<Edge>> = BTreeMap::new();
    for name in &names {
        let pointer = refs::schema_pointer(name);
        let mut found = Vec::new();
        if let Some(schema) = spec.document.pointer(&pointer) {
            composition_edges(schema, &pointer, true, &mut found);
        }
        edges.insert(name.clone(), found);
    }
    let mut closing = Vec::new();
    let mut done = BTreeSet::new();
    for name in &names {
        let mut on_path = Vec::new();
        visit(name, &edges, &mut on_path, &mut done, &mut closing);
    }
    for (member, from, target) in &closing {
        let named = if from == target {
            format!("`{from}` itself")
        } else {
            format!("`{target}`, whose compositions lead back to `{from}`")
        };
        spec.warn_at(
            Reading::CompositionCycle,
            member,
            format!(
                "this member of `{from}` names {named}: a loop of compositions alone; read \
                 without it (it says nothing the rest of the schema does not)"
            ),
        );
    }
    let members: Vec<String> = closing.into_iter().map(|(member, _, _)| member).collect();
    crate::structure::remove_entries(&mut spec.document, members.clone());
    for member in members {
        drop_if_empty(&mut spec.document, &member);
    }
}

/// The members of `schema` (at `pointer`) that name a component, through
/// inline members; `root` where a `$ref` of the schema itself is one.
fn composition_edges(schema: &Value, pointer: &str, root: bool, found: &mut Vec<Edge>) {
    let Value::Object(object) = schema else {
        return;
    };
    if let Some(target) = object
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(refs::schema_name)
    {
        if !root {
            found.push(Edge {
                member: pointer.to_string(),
                target: target.into_owned(),
            });
            return;
        }
        found.push(Edge {
            member: pointer_join(pointer, "$ref"),
            target: target.into_owned(),
        });
    }
    for keyword in COMPOSITIONS {
        let Some(Value::Array(members)) = object.get(keyword) else {
            continue;
        };
        let list = pointer_join(pointer, keyword);
        for (index, member) in members.iter().enumerate() {
            composition_edges(
                member,
                &pointer_join(&list, &index.to_string()),
                false,
                found,
            );
        }
    }
    if let Some(not) = object.get("not") {
        composition_edges(not, &pointer_join(pointer, "not"), false, found);
    }
}

/// Depth first from `name`: an edge to a component on the current path
/// closes a loop.
fn visit(
    name: &str,
    edges: &BTreeMap<String, Vec<Edge>>,
    on_path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
    closing: &mut Vec<(String, String, String)>,
) {
    if done.contains(name) {
        return;
    }
    on_path.push(name.to_string());
    for edge in edges.get(name).map(Vec::as_slice).unwrap_or_default() {
        if on_path.contains(&edge.target) {
            closing.push((edge.member.clone(), name.to_string(), edge.target.clone()));
        } else if edges.contains_key(&edge.target) {
            visit(&edge.target, edges, on_path, done, closing);
        }
    }
    on_path.pop();
    done.insert(name.to_string());
}

/// Removes the composition keyword that held `member` when no member is
/// left in it.
fn drop_if_empty(document: &mut Value, member: &str) {
    let Some((list, _)) = member.rsplit_once('/') else {
        return;
    };
    let Some((owner, keyword)) = list.rsplit_once('/') else {
        return;
    };
    if !COMPOSITIONS.contains(&keyword) {
        return;
    }
    if let Some(Value::Object(object)) = document.pointer_mut(owner)
        && object
            .get(keyword)
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty)
    {
        object.shift_remove(keyword);
    }
}
