//! Every schema of an OpenAPI document, with its JSON pointer.
//!
//! A schema can sit in many places: under `components/schemas`, as the
//! `schema` of a parameter, a header or a media type (in operations, path
//! items, callbacks and the matching `components` sections), and inside other
//! schemas under the keywords that hold schemas (`properties`, `items`,
//! `allOf`, ...). Everything else is not a schema, however much it looks like
//! one: the values under `example`, `examples`, `default`, `enum`, `const` and
//! `x-` extensions are data (an example may well have a `type` or `properties`
//! member), and a property *named* `example` is still a schema. So the
//! document is walked by its structure, never by looking for schema-like
//! keys, and every pass that visits schemas goes through this module.

use serde_json::Value;

use crate::diagnostic::pointer_join;
use crate::vocabulary::METHODS;

/// Schema keywords whose value is one schema. `x-contains` is this project's
/// own: [`crate::lower`] moves a 3.1 `contains` there, which the server checks.
pub const SCHEMA_KEYWORDS: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "additionalItems",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
    "x-contains",
];

/// Schema keywords whose value is a list of schemas.
pub const SCHEMA_LIST_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// Schema keywords whose value maps names to schemas.
pub const SCHEMA_MAP_KEYWORDS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];

/// A path item holding operations: an entry of `paths`, or of `webhooks`
/// (OpenAPI 3.1: the requests the API sends to its subscribers).
#[derive(Debug, Clone)]
pub struct PathItemSite<'a> {
    /// JSON pointer of the path item (`/paths/~1pets`, `/webhooks/newPet`).
    pub pointer: String,
    /// The path key, or the webhook's name.
    pub key: &'a str,
    /// Whether the item is a webhook.
    pub webhook: bool,
    pub item: &'a serde_json::Map<String, Value>,
}

impl PathItemSite<'_> {
    /// The path its operations are served at: the path key, or a
    /// webhook's [`webhook_route`].
    pub fn path(&self) -> String {
        if self.webhook {
            webhook_route(self.key)
        } else {
            self.key.to_string()
        }
    }
}

/// Every path item of `document` that holds operations, in document order:
/// those of `paths`, then those of `webhooks`.
pub fn path_items(document: &Value) -> Vec<PathItemSite<'_>> {
    let mut sites = Vec::new();
    for (section, webhook) in [("paths", false), ("webhooks", true)] {
        let Some(Value::Object(items)) = document.get(section) else {
            continue;
        };
        let section_pointer = pointer_join("", section);
        for (key, item) in items {
            if let Value::Object(item) = item {
                sites.push(PathItemSite {
                    pointer: pointer_join(&section_pointer, key),
                    key,
                    webhook,
                    item,
                });
            }
        }
    }
    sites
}

/// The path a webhook is served at by the server crate's webhooks router,
/// and sent to by the client under a subscriber's URL: `/` and its name,
/// each byte outside URL's unreserved characters percent-encoded (so no
/// name reads as a template, a query or another segment), `newPet` at
/// `/newPet`, `pet created` at `/pet%20created`.
pub fn webhook_route(name: &str) -> String {
    let mut route = String::from("/");
    // `.` and `..` alone are segments a URL resolves away.
    let dots_only = !name.is_empty() && name.bytes().all(|byte| byte == b'.');
    for byte in name.bytes() {
        if (byte.is_ascii_alphanumeric() || b"-._~".contains(&byte)) && !dots_only {
            route.push(byte as char);
        } else {
            route.push_str(&format!("%{byte:02X}"));
        }
    }
    route
}

/// Which way the values of a schema travel, as its place in the document
/// says: parameters and request bodies are sent by clients, responses (and
/// their headers) by servers. Component schemas have no place of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Request,
    Response,
}

/// One schema found by the walk.
#[derive(Debug, Clone, Copy)]
pub struct Site<'a> {
    /// JSON pointer of the schema.
    pub pointer: &'a str,
    /// The way the schema's values travel, inherited from the nearest
    /// parameter, request body or response above it.
    pub direction: Option<Direction>,
    /// Whether the schema is a top-level one: a component schema or the
    /// `schema` of a parameter, header or media type (not inside another).
    pub top_level: bool,
}

/// The kinds of OpenAPI objects the walk passes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    Document,
    Components,
    PathItem,
    Operation,
    Callback,
    Parameter,
    Header,
    RequestBody,
    Response,
    MediaType,
    Schema,
}

/// A child of a node: the tokens leading to it and what it is.
struct Child {
    tokens: Vec<String>,
    node: Node,
    direction: Option<Direction>,
}

fn child(tokens: &[&str], node: Node, direction: Option<Direction>) -> Child {
    Child {
        tokens: tokens.iter().map(|token| token.to_string()).collect(),
        node,
        direction,
    }
}

/// The members of a mapping under `key` of `value`, each as a child.
fn map_children(
    value: &Value,
    key: &str,
    node: Node,
    direction: Option<Direction>,
    out: &mut Vec<Child>,
) {
    if let Some(Value::Object(entries)) = value.get(key) {
        for name in entries.keys() {
            out.push(child(&[key, name], node, direction));
        }
    }
}

/// The items of a list under `key` of `value`, each as a child.
fn list_children(
    value: &Value,
    key: &str,
    node: Node,
    direction: Option<Direction>,
    out: &mut Vec<Child>,
) {
    if let Some(Value::Array(items)) = value.get(key) {
        for index in 0..items.len() {
            out.push(child(&[key, &index.to_string()], node, direction));
        }
    }
}

/// The children of `value`, a `node`, that hold schemas (or are schemas), in
/// document order.
fn children(node: Node, value: &Value, direction: Option<Direction>) -> Vec<Child> {
    let mut out = Vec::new();
    let Value::Object(object) = value else {
        return out;
    };
    // A reference object stands for a node elsewhere, walked there. Beside
    // a schema's `$ref`, OpenAPI 3.0 ignores every other keyword (3.1's
    // siblings are an `allOf` once lowered), so they hold no schemas.
    if object.contains_key("$ref") {
        return out;
    }
    let request = Some(Direction::Request);
    let response = Some(Direction::Response);
    match node {
        Node::Document => {
            for key in ["paths", "webhooks"] {
                map_children(value, key, Node::PathItem, None, &mut out);
            }
            if object.contains_key("components") {
                out.push(child(&["components"], Node::Components, None));
            }
        }
        Node::Components => {
            map_children(value, "schemas", Node::Schema, None, &mut out);
            map_children(value, "parameters", Node::Parameter, request, &mut out);
            map_children(value, "headers", Node::Header, response, &mut out);
            map_children(value, "requestBodies", Node::RequestBody, request, &mut out);
            map_children(value, "responses", Node::Response, response, &mut out);
            map_children(value, "callbacks", Node::Callback, None, &mut out);
            map_children(value, "pathItems", Node::PathItem, None, &mut out);
        }
        Node::PathItem => {
            list_children(value, "parameters", Node::Parameter, request, &mut out);
            for method in &METHODS {
                if object.contains_key(*method) {
                    out.push(child(&[method], Node::Operation, None));
                }
            }
        }
        Node::Operation => {
            list_children(value, "parameters", Node::Parameter, request, &mut out);
            if object.contains_key("requestBody") {
                out.push(child(&["requestBody"], Node::RequestBody, request));
            }
            map_children(value, "responses", Node::Response, response, &mut out);
            map_children(value, "callbacks", Node::Callback, None, &mut out);
        }
        Node::Callback => {
            for expression in object.keys() {
                if !expression.starts_with("x-") {
                    out.push(child(&[expression], Node::PathItem, None));
                }
            }
        }
        Node::Parameter | Node::Header => {
            if object.contains_key("schema") {
                out.push(child(&["schema"], Node::Schema, direction));
            }
            map_children(value, "content", Node::MediaType, direction, &mut out);
        }
        Node::RequestBody => {
            map_children(value, "content", Node::MediaType, direction, &mut out);
        }
        Node::Response => {
            map_children(value, "headers", Node::Header, direction, &mut out);
            map_children(value, "content", Node::MediaType, direction, &mut out);
        }
        Node::MediaType => {
            if object.contains_key("schema") {
                out.push(child(&["schema"], Node::Schema, direction));
            }
            if let Some(Value::Object(encodings)) = object.get("encoding") {
                for (name, encoding) in encodings {
                    if let Some(Value::Object(headers)) = encoding.get("headers") {
                        for header in headers.keys() {
                            out.push(child(
                                &["encoding", name, "headers", header],
                                Node::Header,
                                direction,
                            ));
                        }
                    }
                }
            }
        }
        Node::Schema => {
            for (key, member) in object {
                if SCHEMA_KEYWORDS.contains(&key.as_str()) {
                    // `items` was a list of schemas before 2020-12.
                    if member.is_array() {
                        list_children(value, key, Node::Schema, direction, &mut out);
                    } else {
                        out.push(child(&[key], Node::Schema, direction));
                    }
                } else if SCHEMA_LIST_KEYWORDS.contains(&key.as_str()) {
                    list_children(value, key, Node::Schema, direction, &mut out);
                } else if SCHEMA_MAP_KEYWORDS.contains(&key.as_str()) {
                    map_children(value, key, Node::Schema, direction, &mut out);
                }
            }
        }
    }
    out
}

fn descend<'a>(value: &'a Value, tokens: &[String]) -> Option<&'a Value> {
    tokens.iter().try_fold(value, |value, token| match value {
        Value::Object(object) => object.get(token),
        Value::Array(items) => items.get(token.parse::<usize>().ok()?),
        _ => None,
    })
}

fn descend_mut<'a>(value: &'a mut Value, tokens: &[String]) -> Option<&'a mut Value> {
    tokens.iter().try_fold(value, |value, token| match value {
        Value::Object(object) => object.get_mut(token),
        Value::Array(items) => items.get_mut(token.parse::<usize>().ok()?),
        _ => None,
    })
}

fn pointer_of(base: &str, tokens: &[String]) -> String {
    tokens.iter().fold(base.to_string(), |pointer, token| {
        pointer_join(&pointer, token)
    })
}

/// Calls `visit` with every schema of `document` (boolean schemas included),
/// parents before their subschemas, in document order.
pub fn for_each_schema(document: &Value, mut visit: impl FnMut(Site<'_>, &Value)) {
    walk(
        Node::Document,
        document,
        "",
        None,
        false,
        &mut |node, site, value| {
            if node == Node::Schema {
                visit(site, value);
            }
        },
    );
}

/// Calls `visit` with `schema` (at `pointer`) and every schema inside it.
pub fn for_each_subschema(schema: &Value, pointer: &str, mut visit: impl FnMut(Site<'_>, &Value)) {
    walk(
        Node::Schema,
        schema,
        pointer,
        None,
        false,
        &mut |_, site, value| {
            visit(site, value);
        },
    );
}

fn walk(
    node: Node,
    value: &Value,
    pointer: &str,
    direction: Option<Direction>,
    nested: bool,
    visit: &mut dyn FnMut(Node, Site<'_>, &Value),
) {
    let site = Site {
        pointer,
        direction,
        top_level: !nested,
    };
    visit(node, site, value);
    for child in children(node, value, direction) {
        if let Some(inner) = descend(value, &child.tokens) {
            let child_pointer = pointer_of(pointer, &child.tokens);
            let nested = node == Node::Schema;
            walk(
                child.node,
                inner,
                &child_pointer,
                child.direction,
                nested,
                visit,
            );
        }
    }
}

/// Calls `visit` with every schema of `document`, parents before their
/// subschemas, in document order. A visit may change the schema: its
/// subschemas are found after it returns (a property renamed by the visit
/// is walked under its new name).
pub fn for_each_schema_mut(document: &mut Value, mut visit: impl FnMut(Site<'_>, &mut Value)) {
    walk_mut(
        Node::Document,
        document,
        "",
        None,
        false,
        &mut |node, site, value| {
            if node == Node::Schema {
                visit(site, value);
            }
        },
    );
}

/// [`for_each_schema_mut`] for `schema` (at `pointer`) and every schema
/// inside it.
pub fn for_each_subschema_mut(
    schema: &mut Value,
    pointer: &str,
    mut visit: impl FnMut(Site<'_>, &mut Value),
) {
    walk_mut(
        Node::Schema,
        schema,
        pointer,
        None,
        false,
        &mut |_, site, value| {
            visit(site, value);
        },
    );
}

/// Calls `visit` with every media type object (`content/{type}` of a
/// request body, a response, a parameter or a header) and its media type.
pub fn for_each_media_type_mut(document: &mut Value, mut visit: impl FnMut(&str, &mut Value)) {
    walk_mut(
        Node::Document,
        document,
        "",
        None,
        false,
        &mut |node, site, value| {
            if node == Node::MediaType {
                let media_type = site.pointer.rsplit('/').next().unwrap_or_default();
                visit(&media_type.replace("~1", "/").replace("~0", "~"), value);
            }
        },
    );
}

/// Calls `visit` with every object of the document's structure, parents
/// first: the document, path items, operations, callbacks, parameters,
/// headers, request bodies, responses, media types and schemas (those under
/// `components` too); never data such as examples, defaults and extensions.
pub fn for_each_node_mut(document: &mut Value, mut visit: impl FnMut(&mut Value)) {
    walk_mut(
        Node::Document,
        document,
        "",
        None,
        false,
        &mut |_, _, value| visit(value),
    );
}

/// Calls `visit` with the target of every `$ref` the document's structure
/// holds (schemas, parameters, request bodies, responses, headers, path
/// items), at the pointer of the object holding it; `$ref`s inside data
/// (examples, extensions) are not references and are not visited.
pub fn for_each_reference_mut(document: &mut Value, mut visit: impl FnMut(&str, &mut String)) {
    walk_mut(
        Node::Document,
        document,
        "",
        None,
        false,
        &mut |_, site, value| {
            if let Some(Value::String(target)) = value.get_mut("$ref") {
                visit(site.pointer, target);
            }
        },
    );
}

/// Calls `visit` with every `$ref` the document's structure holds, as
/// [`for_each_reference_mut`] finds them, and the section of `components`
/// a reference at that place must name: `schemas` for a schema,
/// `parameters`, `headers`, `requestBodies`, `responses`, `callbacks` or
/// `pathItems` for the others.
pub fn for_each_reference(document: &Value, mut visit: impl FnMut(&str, &'static str, &str)) {
    walk(
        Node::Document,
        document,
        "",
        None,
        false,
        &mut |node, site, value| {
            let section = match node {
                Node::Schema => "schemas",
                Node::Parameter => "parameters",
                Node::Header => "headers",
                Node::RequestBody => "requestBodies",
                Node::Response => "responses",
                Node::Callback => "callbacks",
                Node::PathItem => "pathItems",
                Node::Document | Node::Components | Node::Operation | Node::MediaType => return,
            };
            if let Some(Value::String(target)) = value.get("$ref") {
                visit(site.pointer, section, target);
            }
        },
    );
}

fn walk_mut(
    node: Node,
    value: &mut Value,
    pointer: &str,
    direction: Option<Direction>,
    nested: bool,
    visit: &mut dyn FnMut(Node, Site<'_>, &mut Value),
) {
    let site = Site {
        pointer,
        direction,
        top_level: !nested,
    };
    visit(node, site, value);
    for child in children(node, value, direction) {
        if let Some(inner) = descend_mut(value, &child.tokens) {
            let child_pointer = pointer_of(pointer, &child.tokens);
            let nested = node == Node::Schema;
            walk_mut(
                child.node,
                inner,
                &child_pointer,
                child.direction,
                nested,
                visit,
            );
        }
    }
}

/// The names of the component schemas `schema` refers to (`$ref:
/// '#/components/schemas/Name'`, or a pointer inside one), in order, with
/// repeats; `$ref`s inside data such as examples are not references.
pub fn schema_refs(schema: &Value) -> Vec<String> {
    let mut names = Vec::new();
    for_each_subschema(schema, "", |_, subschema| {
        if let Some(name) = subschema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(component_schema)
        {
            names.push(name);
        }
    });
    names
}

/// The name of the component schema a `$ref` points at or into
/// (`#/components/schemas/A~1B/properties/x` is `A/B`).
pub fn component_schema(reference: &str) -> Option<String> {
    let rest = reference.strip_prefix("#/components/schemas/")?;
    let token = rest.split('/').next()?;
    Some(token.replace("~1", "/").replace("~0", "~"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pointers(document: &Value) -> Vec<String> {
        let mut found = Vec::new();
        for_each_schema(document, |site, _| found.push(site.pointer.to_string()));
        found
    }

    #[test]
    fn a_webhook_is_served_at_its_name_percent_encoded() {
        assert_eq!(webhook_route("newPet"), "/newPet");
        assert_eq!(webhook_route("pet.created_v2~x"), "/pet.created_v2~x");
        assert_eq!(webhook_route("pet/adopted"), "/pet%2Fadopted");
        assert_eq!(webhook_route("{id} ?#%"), "/%7Bid%7D%20%3F%23%25");
        assert_eq!(webhook_route("né"), "/n%C3%A9");
        // Dot segments would be resolved away by any URL parser.
        assert_eq!(webhook_route(".."), "/%2E%2E");
        assert_eq!(webhook_route("..a"), "/..a");
        assert_eq!(webhook_route(""), "/");
    }

    #[test]
    fn path_items_are_the_paths_then_the_webhooks() {
        let document = json!({
            "webhooks": {"b/c": {"post": {}}, "skipped": "not an item"},
            "paths": {"/a": {"get": {}}},
        });
        let found: Vec<(String, String, bool)> = path_items(&document)
            .iter()
            .map(|site| (site.pointer.clone(), site.path(), site.webhook))
            .collect();
        assert_eq!(
            found,
            [
                ("/paths/~1a".to_string(), "/a".to_string(), false),
                ("/webhooks/b~1c".to_string(), "/b%2Fc".to_string(), true),
            ]
        );
    }

    #[test]
    fn schemas_are_found_by_structure_not_by_shape() {
        let document = json!({
            "paths": {"/a": {
                "parameters": [{"name": "p", "in": "query", "schema": {"type": "string"}}],
                "post": {
                    "requestBody": {"content": {"application/json": {
                        "schema": {"type": "object", "properties": {
                            "example": {"type": "string", "example": {"type": "object", "properties": {}}},
                            "default": {"type": "integer", "default": {"properties": {"x": {}}}},
                        }},
                        "examples": {"one": {"value": {"type": "object", "properties": {"a": {}}}}},
                    }}},
                    "responses": {"200": {
                        "headers": {"X-Rate": {"schema": {"type": "integer"}}},
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S"}}},
                    }},
                    "x-extension": {"schema": {"type": "string"}},
                },
            }},
            "components": {"schemas": {"S": {
                "allOf": [{"type": "object"}],
                "items": [{"type": "string"}],
                "additionalProperties": true,
                "enum": [{"type": "string"}],
                "x-data": {"properties": {"y": {}}},
            }}},
        });
        assert_eq!(
            pointers(&document),
            [
                "/paths/~1a/parameters/0/schema",
                "/paths/~1a/post/requestBody/content/application~1json/schema",
                "/paths/~1a/post/requestBody/content/application~1json/schema/properties/example",
                "/paths/~1a/post/requestBody/content/application~1json/schema/properties/default",
                "/paths/~1a/post/responses/200/headers/X-Rate/schema",
                "/paths/~1a/post/responses/200/content/application~1json/schema",
                "/components/schemas/S",
                "/components/schemas/S/allOf/0",
                "/components/schemas/S/items/0",
                "/components/schemas/S/additionalProperties",
            ]
        );
    }

    #[test]
    fn sites_know_their_direction_and_depth() {
        let document = json!({
            "paths": {"/a": {"get": {
                "parameters": [{"$ref": "#/components/parameters/P"}],
                "responses": {"200": {"content": {"application/json": {"schema": {
                    "type": "array", "items": {"type": "string"},
                }}}}},
            }}},
            "components": {
                "parameters": {"P": {"name": "p", "in": "query", "schema": {"type": "string"}}},
                "schemas": {"S": {"properties": {"a": {}}}},
            },
        });
        let mut sites = Vec::new();
        for_each_schema(&document, |site, _| {
            sites.push((site.pointer.to_string(), site.direction, site.top_level));
        });
        let schema = "/paths/~1a/get/responses/200/content/application~1json/schema";
        assert_eq!(
            sites,
            [
                (schema.to_string(), Some(Direction::Response), true),
                (format!("{schema}/items"), Some(Direction::Response), false),
                ("/components/schemas/S".to_string(), None, true),
                (
                    "/components/schemas/S/properties/a".to_string(),
                    None,
                    false
                ),
                (
                    "/components/parameters/P/schema".to_string(),
                    Some(Direction::Request),
                    true
                ),
            ]
        );
    }

    #[test]
    fn a_visit_may_rename_what_is_walked_next() {
        let mut document = json!({"components": {"schemas": {"S": {
            "properties": {"old": {"properties": {"inner": {}}}},
        }}}});
        let mut seen = Vec::new();
        for_each_schema_mut(&mut document, |site, schema| {
            seen.push(site.pointer.to_string());
            if let Some(Value::Object(properties)) = schema.get_mut("properties")
                && let Some(old) = properties.shift_remove("old")
            {
                properties.insert("new".into(), old);
            }
        });
        assert_eq!(
            seen,
            [
                "/components/schemas/S",
                "/components/schemas/S/properties/new",
                "/components/schemas/S/properties/new/properties/inner",
            ]
        );
    }

    #[test]
    fn refs_inside_data_are_not_references() {
        let schema = json!({
            "allOf": [{"$ref": "#/components/schemas/A"}],
            "properties": {"b": {"$ref": "#/components/schemas/B/properties/x"}},
            "example": {"$ref": "#/components/schemas/C"},
            "x-links": {"$ref": "#/components/schemas/D"},
        });
        assert_eq!(schema_refs(&schema), ["A", "B"]);
    }
}
