//! References: the one way the pipeline follows a `$ref`, to a raw value or
//! to a typed component.
//!
//! Bundling ([`crate::bundle`]) has checked every reference with its place and
//! left each in the form `#/components/{section}/{name}`; what is left here
//! is following them (through a component that is itself a `$ref` to
//! another) to the node where they end, and its pointer, which is where
//! messages about that node point.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;

use openapiv3::ReferenceOr;
use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, escape_pointer_token, pointer_join};
use crate::load::LoadedSpec;

/// Where named schemas live; a body or property `$ref` must point here.
pub const SCHEMA_REF_PREFIX: &str = "#/components/schemas/";

/// The component schema name a `$ref` points at, if it points into
/// `components/schemas`.
pub fn schema_name(reference: &str) -> Option<Cow<'_, str>> {
    component_name(reference, "schemas")
}

/// The name of the entry of `components/{section}` a `$ref` points at: the
/// pointer's last token, decoded (RFC 6901), so a name holding `/` or `~`
/// (`repos/create-body`, named after an operationId) is the component's
/// key (`#/components/schemas/repos~1create-body` names `repos/create-body`).
pub fn component_name<'a>(reference: &'a str, section: &str) -> Option<Cow<'a, str>> {
    let token = reference
        .strip_prefix("#/components/")?
        .strip_prefix(section)?
        .strip_prefix('/')?;
    Some(if token.contains('~') {
        Cow::Owned(unescape_pointer_token(token))
    } else {
        Cow::Borrowed(token)
    })
}

/// One reference token of a JSON pointer, decoded (RFC 6901, section 4).
pub fn unescape_pointer_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// The pointer of the component schema `name`.
pub fn schema_pointer(name: &str) -> String {
    format!("/components/schemas/{}", escape_pointer_token(name))
}

/// The JSON pointer a local `$ref` names: `#/a/b` is `/a/b`.
pub fn target_pointer(reference: &str) -> Option<&str> {
    reference.strip_prefix('#')
}

/// Why a `$ref` could not be followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unresolved {
    /// Not `#/...`: bundling leaves none, so only a document that did not
    /// come through it has one.
    NotLocal(String),
    /// Nothing is defined where it points.
    Dangling(String),
    /// References that lead back to one another and never to a node.
    Cycle(String),
}

impl fmt::Display for Unresolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unresolved::NotLocal(reference) => {
                write!(
                    f,
                    "`$ref: {reference}` is not a reference into this document"
                )
            }
            Unresolved::Dangling(reference) => write!(
                f,
                "`$ref: {reference}` does not resolve: nothing is defined at {}",
                target_pointer(reference).unwrap_or(reference)
            ),
            Unresolved::Cycle(reference) => write!(
                f,
                "`$ref: {reference}` is part of a reference cycle that never reaches a definition"
            ),
        }
    }
}

/// Follows `node`, found at `pointer` of `document`, through `$ref`s to the
/// node they end at, and returns it with its pointer (`node` and `pointer`
/// themselves when `node` is no reference).
pub fn follow<'a>(
    document: &'a Value,
    node: &'a Value,
    pointer: &str,
) -> Result<(&'a Value, String), Unresolved> {
    let mut current = (node, pointer.to_string());
    let mut seen = BTreeSet::new();
    while let Some(reference) = current.0.get("$ref").and_then(Value::as_str) {
        let target =
            target_pointer(reference).ok_or_else(|| Unresolved::NotLocal(reference.to_string()))?;
        if !seen.insert(target) {
            return Err(Unresolved::Cycle(reference.to_string()));
        }
        let found = document
            .pointer(target)
            .ok_or_else(|| Unresolved::Dangling(reference.to_string()))?;
        current = (found, target.to_string());
    }
    Ok(current)
}

/// Follows `node` as [`follow`] does, but where a reference dangles or loops
/// stops at the last node reached (for tools that report on any document,
/// such as a diff of two versions).
pub fn follow_leniently<'a>(
    document: &'a Value,
    node: &'a Value,
    pointer: &str,
) -> (&'a Value, String) {
    let mut current = (node, pointer.to_string());
    let mut seen = BTreeSet::new();
    while let Some(target) = current
        .0
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(target_pointer)
    {
        let Some(found) = document.pointer(target) else {
            break;
        };
        if !seen.insert(target) {
            break;
        }
        current = (found, target.to_string());
    }
    current
}

/// The node at `pointer` of `document`, followed through `$ref`s.
pub fn follow_pointer<'a>(
    document: &'a Value,
    pointer: &str,
) -> Result<(&'a Value, String), Unresolved> {
    let node = document
        .pointer(pointer)
        .ok_or_else(|| Unresolved::Dangling(format!("#{pointer}")))?;
    follow(document, node, pointer)
}

/// The object `node` is or refers to (a schema, a parameter, a header).
pub fn followed_object<'a>(
    document: &'a Value,
    node: &'a Value,
) -> Result<&'a Map<String, Value>, String> {
    match follow(document, node, "") {
        Ok((Value::Object(object), _)) => Ok(object),
        Ok(_) => Err("the schema must be a mapping".into()),
        Err(unresolved) => Err(unresolved.to_string()),
    }
}

/// The object at `pointer` of `document`, followed through `$ref`s.
pub fn object_at<'a>(document: &'a Value, pointer: &str) -> Result<&'a Map<String, Value>, String> {
    match document.pointer(pointer) {
        Some(node) => followed_object(document, node),
        None => Err("the schema must be a mapping".into()),
    }
}

/// One parameter an operation takes, as its path item or the operation
/// itself lists it.
#[derive(Debug, Clone)]
pub struct ListedParameter<'a> {
    /// Where it is listed: `{path item}/parameters/{i}` or
    /// `{operation}/parameters/{i}`.
    pub pointer: String,
    /// The entry as written there, a `$ref` or the parameter itself.
    pub listed: &'a Value,
    /// The parameter, followed through `$ref`s (a component that is itself
    /// a `$ref` to another included), with its pointer; `None` where a
    /// reference does not resolve (the model reports it).
    pub followed: Option<(&'a Value, String)>,
}

impl<'a> ListedParameter<'a> {
    /// The parameter's `name`.
    pub fn name(&self) -> Option<&'a str> {
        self.followed.as_ref()?.0.get("name")?.as_str()
    }

    /// The parameter's `in`.
    pub fn location(&self) -> Option<&'a str> {
        self.followed.as_ref()?.0.get("in")?.as_str()
    }

    /// Its name and `in`, which an operation's parameter overrides a path
    /// item's by; `None` for an entry without them (the model reports it).
    pub fn key(&self) -> Option<(&'a str, &'a str)> {
        Some((self.name()?, self.location()?))
    }
}

/// The parameters the operation at `operation` (a pointer into `document`,
/// `{path item}/{method}`) takes: its path item's, then its own, an
/// operation's parameter overriding a path item's of the same name and `in`
/// (and a later entry an earlier one), each in the place of the one listed
/// last. An entry without a name and `in` overrides none and is kept.
pub fn operation_parameters<'a>(document: &'a Value, operation: &str) -> Vec<ListedParameter<'a>> {
    let item = &operation[..operation.rfind('/').unwrap_or(0)];
    let mut found: Vec<ListedParameter<'a>> = Vec::new();
    for owner in [item, operation] {
        let list = pointer_join(owner, "parameters");
        let Some(Value::Array(parameters)) = document.pointer(&list) else {
            continue;
        };
        for (index, listed) in parameters.iter().enumerate() {
            let pointer = pointer_join(&list, &index.to_string());
            let followed = follow(document, listed, &pointer).ok();
            let parameter = ListedParameter {
                pointer,
                listed,
                followed,
            };
            if let Some(key) = parameter.key() {
                found.retain(|seen| seen.key() != Some(key));
            }
            found.push(parameter);
        }
    }
    found
}

/// A component of `section` (`parameters`, `responses`, ...) that
/// `reference`, written at `pointer`, names, followed through components that
/// are references themselves, with the pointer where it is defined.
pub(crate) fn component<T: Clone>(
    spec: &LoadedSpec,
    pointer: &str,
    reference: &str,
    section: &str,
    components: &indexmap::IndexMap<String, ReferenceOr<T>>,
) -> Result<(T, String), Diagnostic> {
    let mut current = reference.to_string();
    for _ in 0..=components.len() {
        let Some(name) = component_name(&current, section) else {
            break;
        };
        match components.get(name.as_ref()) {
            Some(ReferenceOr::Item(item)) => {
                return Ok((
                    item.clone(),
                    pointer_join(&format!("/components/{section}"), &name),
                ));
            }
            Some(ReferenceOr::Reference { reference }) => current = reference.clone(),
            None => break,
        }
    }
    Err(spec.error_at(
        &pointer_join(pointer, "$ref"),
        format!("`{reference}` must refer to an entry of components/{section}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn document() -> Value {
        json!({"components": {"schemas": {
            "A": {"$ref": "#/components/schemas/B"},
            "B": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/A"}}},
            "Loop": {"$ref": "#/components/schemas/Loop2"},
            "Loop2": {"$ref": "#/components/schemas/Loop"},
            "Dangling": {"$ref": "#/components/schemas/Nothing"},
            "Far": {"$ref": "other.yaml#/x"},
            "a/b": {"type": "string"}
        }}})
    }

    #[test]
    fn references_are_followed_to_the_node_with_its_pointer() {
        let document = document();
        let (node, pointer) = follow_pointer(&document, "/components/schemas/A").unwrap();
        assert_eq!(pointer, "/components/schemas/B");
        assert_eq!(node["type"], "object");
        // A node that is no reference is itself, at its own pointer.
        let (_, pointer) = follow_pointer(&document, "/components/schemas/B/properties").unwrap();
        assert_eq!(pointer, "/components/schemas/B/properties");
        // A reference inside a schema is followed, not the schema.
        let (_, pointer) = follow_pointer(&document, "/components/schemas/B/properties/b").unwrap();
        assert_eq!(pointer, "/components/schemas/B");
        let escaped = json!({"$ref": "#/components/schemas/a~1b"});
        assert_eq!(follow(&document, &escaped, "").unwrap().0["type"], "string");
    }

    #[test]
    fn dangling_looping_and_outside_references_say_so() {
        let document = document();
        let error = |pointer: &str| follow_pointer(&document, pointer).unwrap_err().to_string();
        assert_eq!(
            error("/components/schemas/Loop"),
            "`$ref: #/components/schemas/Loop2` is part of a reference cycle that never reaches a definition"
        );
        assert_eq!(
            error("/components/schemas/Dangling"),
            "`$ref: #/components/schemas/Nothing` does not resolve: nothing is defined at /components/schemas/Nothing"
        );
        assert_eq!(
            error("/components/schemas/Far"),
            "`$ref: other.yaml#/x` is not a reference into this document"
        );
        let (_, stopped) =
            follow_leniently(&document, &document["components"]["schemas"]["Loop"], "/l");
        assert!(stopped.starts_with("/components/schemas/Loop"), "{stopped}");
        assert_eq!(
            object_at(&document, "/components/schemas/B/type").unwrap_err(),
            "the schema must be a mapping"
        );
    }

    #[test]
    fn component_names_come_from_their_section_only() {
        assert_eq!(
            schema_name("#/components/schemas/Pet").as_deref(),
            Some("Pet")
        );
        assert_eq!(schema_name("#/components/schemasX/Pet"), None);
        assert_eq!(
            component_name("#/components/responses/R", "responses").as_deref(),
            Some("R")
        );
        assert_eq!(
            schema_name("#/components/schemas/repos~1create~0x-body").as_deref(),
            Some("repos/create~x-body")
        );
        assert_eq!(component_name("#/components/responses/R", "schemas"), None);
        assert_eq!(schema_pointer("a/b"), "/components/schemas/a~1b");
    }

    #[test]
    fn an_operation_overrides_its_path_items_parameters_by_name_and_in() {
        let document = json!({
            "paths": {"/a": {
                "parameters": [
                    {"name": "id", "in": "query"},
                    {"name": "id", "in": "header"},
                    {"$ref": "#/components/parameters/Alias"},
                ],
                "get": {"parameters": [
                    {"name": "limit", "in": "query", "description": "own"},
                    {"name": "id", "in": "query", "description": "own"},
                    {"description": "no name"},
                ]},
            }},
            "components": {"parameters": {
                "Alias": {"$ref": "#/components/parameters/Limit"},
                "Limit": {"name": "limit", "in": "query"},
            }},
        });
        let listed: Vec<(String, Option<(&str, &str)>)> =
            operation_parameters(&document, "/paths/~1a/get")
                .iter()
                .map(|parameter| (parameter.pointer.clone(), parameter.key()))
                .collect();
        assert_eq!(
            listed,
            [
                ("/paths/~1a/parameters/1".into(), Some(("id", "header"))),
                (
                    "/paths/~1a/get/parameters/0".into(),
                    Some(("limit", "query"))
                ),
                ("/paths/~1a/get/parameters/1".into(), Some(("id", "query"))),
                ("/paths/~1a/get/parameters/2".into(), None),
            ]
        );
        let alias = &operation_parameters(&document, "/paths/~1a/post")[2];
        assert_eq!(alias.listed["$ref"], "#/components/parameters/Alias");
        assert_eq!(
            alias.followed.as_ref().unwrap().1,
            "/components/parameters/Limit"
        );
    }

    #[test]
    fn typed_components_are_followed_through_aliases() {
        let spec = crate::load::parse_spec(
            std::path::Path::new("spec.yaml"),
            br##"
openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  parameters:
    Alias: {$ref: "#/components/parameters/Limit"}
    Limit: {name: limit, in: query, schema: {type: integer}}
  schemas:
    Limit: {type: string}
"##,
        )
        .unwrap();
        let openapi = crate::model::parse_openapi(&spec).unwrap();
        let parameters = openapi.components.unwrap().parameters;
        let (parameter, pointer) = component(
            &spec,
            "/x",
            "#/components/parameters/Alias",
            "parameters",
            &parameters,
        )
        .unwrap();
        assert_eq!(parameter.parameter_data_ref().name, "limit");
        assert_eq!(pointer, "/components/parameters/Limit");
        let error = component(
            &spec,
            "/components/parameters/Alias",
            "#/components/schemas/Limit",
            "parameters",
            &parameters,
        )
        .unwrap_err();
        assert!(
            error.to_string().contains(
                "`#/components/schemas/Limit` must refer to an entry of components/parameters"
            ),
            "{error}"
        );
    }
}
