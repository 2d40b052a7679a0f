//! Reading one version of the document: its operations and webhooks,
//! parameters, references, and where each component schema is used.

use super::*;

/// An operation of one version, found under `/paths`.
#[derive(Debug, Clone)]
pub struct OperationView<'a> {
    pub path: String,
    pub method: String,
    pub id: Option<String>,
    pub pointer: String,
    pub value: &'a Value,
    /// Path-level parameters, shared by every operation of the path.
    pub path_parameters: Option<(&'a Value, String)>,
    /// Where the security that applies is written (the operation's or the root's).
    pub security_pointer: String,
}

/// Every operation by (path, method).
pub fn operations(doc: &Value) -> BTreeMap<(String, String), OperationView<'_>> {
    operations_under(doc, "paths")
}

/// Every webhook (3.1) by (name, method): requests the API sends.
pub fn webhooks(doc: &Value) -> BTreeMap<(String, String), OperationView<'_>> {
    operations_under(doc, "webhooks")
}

pub(super) fn operations_under<'d>(
    doc: &'d Value,
    section: &str,
) -> BTreeMap<(String, String), OperationView<'d>> {
    let mut found = BTreeMap::new();
    let Some(paths) = doc.get(section).and_then(Value::as_object) else {
        return found;
    };
    for (path, item) in paths {
        let item_pointer = pointer_join(&format!("/{section}"), path);
        // A path item given by `$ref` is the one it names.
        let (item, _) = resolve(doc, item, item_pointer.clone());
        let path_parameters = item
            .get("parameters")
            .map(|p| (p, pointer_join(&item_pointer, "parameters")));
        for method in METHODS {
            let Some(operation) = item.get(method) else {
                continue;
            };
            let pointer = pointer_join(&item_pointer, method);
            let security_pointer = if operation.get("security").is_some() {
                pointer_join(&pointer, "security")
            } else {
                "/security".to_string()
            };
            found.insert(
                (path.clone(), method.to_string()),
                OperationView {
                    path: path.clone(),
                    method: method.to_string(),
                    id: operation
                        .get("operationId")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    pointer,
                    value: operation,
                    path_parameters: path_parameters.clone(),
                    security_pointer,
                },
            );
        }
    }
    found
}

/// The parameters of an operation (path-level ones first, overridden by the
/// operation's), resolved, by (location, name), with their use-site pointers.
pub fn parameters<'a>(
    doc: &'a Value,
    op: &OperationView<'a>,
) -> BTreeMap<(String, String), Node<'a>> {
    let mut found = BTreeMap::new();
    let own = op
        .value
        .get("parameters")
        .map(|p| (p, pointer_join(&op.pointer, "parameters")));
    for (list, pointer) in op.path_parameters.iter().cloned().chain(own) {
        let Some(list) = list.as_array() else {
            continue;
        };
        for (i, param) in list.iter().enumerate() {
            let (param, _) = resolve(doc, param, String::new());
            let location = param.get("in").and_then(Value::as_str).unwrap_or_default();
            let name = param
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            found.insert(
                (location.to_string(), name.to_string()),
                (param, format!("{pointer}/{i}")),
            );
        }
    }
    found
}

/// The names of a path template's parameters, in the order they appear.
pub(super) fn template_names(path: &str) -> Vec<&str> {
    path.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
        .collect()
}

/// A path template with its parameters' names left out (`/items/{}`): two
/// paths alike but for those names match the same requests.
pub(super) fn template_shape(path: &str) -> String {
    let mut shape = String::with_capacity(path.len());
    for (i, part) in path.split('{').enumerate() {
        match part.split_once('}') {
            Some((_, rest)) if i > 0 => {
                shape.push_str("{}");
                shape.push_str(rest);
            }
            _ => {
                if i > 0 {
                    shape.push('{');
                }
                shape.push_str(part);
            }
        }
    }
    shape
}

/// Follows `$ref`s from `value` (found at `pointer`) to the node they name
/// (the generator's one resolver); a dangling or looping reference stops
/// where it is.
pub fn resolve<'a>(doc: &'a Value, value: &'a Value, pointer: String) -> Node<'a> {
    refs::follow_leniently(doc, value, &pointer)
}

/// The `schema` (or 3.2's `itemSchema`: `keyword`) of a media-type entry
/// found at `pointer`.
pub(super) fn schema_node<'a>(pointer: &str, entry: &'a Value, keyword: &str) -> Option<Node<'a>> {
    entry
        .get(keyword)
        .map(|schema| (schema, pointer_join(pointer, keyword)))
}

pub(super) fn object_at<'a>(
    doc: &'a Value,
    pointer: &str,
) -> Option<&'a serde_json::Map<String, Value>> {
    doc.pointer(pointer).and_then(Value::as_object)
}

/// The pointer of `keyword` in schema `v` at `p` when present, else of the schema itself.
pub(super) fn keyword_pointer(v: &Value, p: &str, keyword: &str) -> String {
    if v.get(keyword).is_some() {
        pointer_join(p, keyword)
    } else {
        p.to_string()
    }
}

/// The last reference token of a JSON pointer, unescaped: the name of the node.
pub(super) fn last_token(pointer: &str) -> String {
    let token = pointer.rsplit('/').next().unwrap_or_default();
    token.replace("~1", "/").replace("~0", "~")
}

pub(super) fn show(value: Option<&Value>) -> String {
    show_or(value, "none")
}

pub(super) fn show_or(value: Option<&Value>, absent: &str) -> String {
    match value {
        None => absent.to_string(),
        Some(Value::String(s)) => format!("`{s}`"),
        Some(other) => format!("`{other}`"),
    }
}

/// Component schemas reachable from requests and from responses.
pub fn schema_usage(doc: &Value) -> BTreeMap<String, Usage> {
    let mut request = BTreeSet::new();
    let mut response = BTreeSet::new();
    // What a webhook carries, callers receive; what they answer, they send.
    for hook in webhooks(doc).values() {
        if let Some(body) = hook.value.get("requestBody") {
            collect_refs(doc, body, &mut response);
        }
        if let Some(responses) = hook.value.get("responses") {
            collect_refs(doc, responses, &mut request);
        }
    }
    for op in operations(doc).values() {
        for (param, _) in parameters(doc, op).values() {
            collect_refs(doc, param, &mut request);
        }
        if let Some(body) = op.value.get("requestBody") {
            collect_refs(doc, body, &mut request);
        }
        if let Some(responses) = op.value.get("responses") {
            collect_refs(doc, responses, &mut response);
        }
    }
    let mut usage: BTreeMap<String, Usage> = BTreeMap::new();
    for name in request {
        usage.entry(name).or_default().request = true;
    }
    for name in response {
        usage.entry(name).or_default().response = true;
    }
    usage
}

/// The name of the component schema a `$ref` names, as the key is written
/// in `components/schemas` (its pointer token unescaped here, once, so the
/// name matches the key whatever `refs::schema_name` does with escapes).
pub fn component_schema(reference: &str) -> Option<String> {
    let token = refs::target_pointer(reference)?.strip_prefix("/components/schemas/")?;
    (!token.contains('/')).then(|| token.replace("~1", "/").replace("~0", "~"))
}

/// Adds to `found` every component schema `value` refers to, transitively.
/// Responses, parameters and headers named by `$ref` are followed too.
pub(super) fn collect_refs(doc: &Value, value: &Value, found: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(target) = map.get("$ref").and_then(Value::as_str) {
                if let Some(name) = component_schema(target) {
                    if found.insert(name)
                        && let Some(schema) =
                            refs::target_pointer(target).and_then(|p| doc.pointer(p))
                    {
                        collect_refs(doc, schema, found);
                    }
                } else if let Ok((node, _)) = refs::follow(doc, value, "")
                    && !std::ptr::eq(node, value)
                {
                    collect_refs(doc, node, found);
                }
            }
            for (key, child) in map {
                if key != "$ref" {
                    collect_refs(doc, child, found);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_refs(doc, item, found)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_resolve_and_cycles_stop() {
        let doc = serde_json::json!({
            "components": {"schemas": {
                "A": {"$ref": "#/components/schemas/B"},
                "B": {"$ref": "#/components/schemas/A"},
                "C": {"type": "string"}
            }}
        });
        let c = serde_json::json!({"$ref": "#/components/schemas/C"});
        let (node, pointer) = resolve(&doc, &c, "/x".into());
        assert_eq!(node["type"], "string");
        assert_eq!(pointer, "/components/schemas/C");
        let a = serde_json::json!({"$ref": "#/components/schemas/A"});
        let (_, pointer) = resolve(&doc, &a, "/y".into());
        assert!(pointer.starts_with("/components/schemas/"));
    }

    #[test]
    fn a_template_is_its_shape_and_its_parameters_in_order() {
        assert_eq!(template_names("/a/{x}/b/{y}.json"), ["x", "y"]);
        assert_eq!(template_shape("/a/{x}/b/{y}.json"), "/a/{}/b/{}.json");
        assert_eq!(template_shape("/a/{itemId}"), template_shape("/a/{id}"));
        assert_ne!(template_shape("/a/{id}"), template_shape("/a/{id}/b"));
        assert_eq!(template_shape("/plain"), "/plain");
        assert!(template_names("/plain").is_empty());
    }

    #[test]
    fn usage_follows_references_through_responses() {
        let doc = serde_json::json!({
            "paths": {"/x": {"post": {
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/In"}}}},
                "responses": {"200": {"$ref": "#/components/responses/Ok"}}
            }}},
            "components": {
                "responses": {"Ok": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Out"}}}}},
                "schemas": {
                    "In": {"properties": {"s": {"$ref": "#/components/schemas/Shared"}}},
                    "Out": {"properties": {"s": {"$ref": "#/components/schemas/Shared"}, "me": {"$ref": "#/components/schemas/Out"}}},
                    "Shared": {"type": "string"}
                }
            }
        });
        let usage = schema_usage(&doc);
        assert_eq!(usage["In"], Usage::REQUEST);
        assert_eq!(usage["Out"], Usage::RESPONSE);
        assert_eq!(usage["Shared"], Usage::REQUEST.union(Usage::RESPONSE));
    }
}
