//! Names for inline body schemas: a request or response body whose schema is
//! written in place (not a `$ref`) is moved under `components/schemas` with a
//! name derived from its operation, and the body refers to it. So is the
//! schema of an object-valued parameter (`{operationId}-{name}`).
//!
//! Client and server must agree on one Rust type per body; a named schema is
//! how the rest of the pipeline guarantees that, so giving inline schemas a
//! name here is all it takes. The names follow progenitor's own for inline
//! types: `{operationId}-body` for a request, `{operationId}-response` for
//! the success response, and `{operationId}-{status}-response` for each
//! other one, all converted by [`naming::type_name`]. Messages about a moved
//! schema still point at the place it was written (the source map gets an
//! alias).

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::diagnostic::pointer_join;
use crate::load::LoadedSpec;
use crate::model::Scalar;
use crate::model::parameters::{self, Kind};
use crate::model::streams;
use crate::naming;
use crate::readings::Reading;
use crate::vocabulary::METHODS;
use crate::walk;

/// Media types whose bodies are typed by their schema; other media types
/// (`application/octet-stream`, `text/plain`, `multipart/form-data`) keep
/// their schema where it is.
fn is_typed_media_type(media_type: &str) -> bool {
    let essence = media_type.split(';').next().unwrap_or_default().trim();
    essence == "application/json"
        || essence.ends_with("+json")
        || essence == "application/x-www-form-urlencoded"
}

/// Gives every operation without an `operationId` one derived from its method
/// and path, as other generators do: `GET /users/{id}/roles` is
/// `get_users_by_id_roles`, `GET /` is `get_root`. A webhook's is its name
/// (`newPet` is `new_pet`), with its method in front where the webhook has
/// several (`post_new_pet`). A derived name already taken (by the spec or an
/// earlier derivation) gets `_2`, `_3`, ... in document order, so the names
/// are stable while the paths are.
/// Whether an `operationId` can name the operation's Rust items: one
/// with no letter or digit (`""`, `-`) cannot.
fn usable_id(id: &str) -> bool {
    id.chars().any(char::is_alphanumeric)
}

pub fn name_operations(spec: &mut LoadedSpec) {
    let items = walk::path_items(&spec.document);
    let mut taken: std::collections::BTreeSet<String> = items
        .iter()
        .flat_map(|site| METHODS.iter().filter_map(|method| site.item.get(*method)))
        .filter_map(|operation| operation.get("operationId")?.as_str())
        .filter(|id| usable_id(id))
        .map(str::to_string)
        .collect();
    let mut derived = Vec::new();
    for site in &items {
        let methods: Vec<&str> = METHODS
            .iter()
            .copied()
            .filter(|method| site.item.get(*method).is_some_and(Value::is_object))
            .collect();
        for method in &methods {
            let pointer = pointer_join(&site.pointer, method);
            match site.item[*method].get("operationId") {
                None => {}
                Some(Value::String(id)) if usable_id(id) => continue,
                Some(unusable) => spec.warn_at(
                    Reading::OperationIdUnusable,
                    &pointer_join(&pointer, "operationId"),
                    format!(
                        "`operationId: {unusable}` names nothing in Rust; read as none: the \
                         operation is named from its method and path"
                    ),
                ),
            }
            let base = if !site.webhook {
                derived_operation_id(method, site.key)
            } else if methods.len() == 1 {
                derived_webhook_id(None, site.key)
            } else {
                derived_webhook_id(Some(method), site.key)
            };
            let mut name = base.clone();
            let mut suffix = 1;
            while !taken.insert(name.clone()) {
                suffix += 1;
                name = format!("{base}_{suffix}");
            }
            derived.push((pointer, name));
        }
    }
    for (pointer, name) in derived {
        if let Some(Value::Object(operation)) = spec.document.pointer_mut(&pointer) {
            operation.insert("operationId".into(), Value::String(name));
        }
    }
}

/// A webhook's name in snake case, after its method where one is given.
fn derived_webhook_id(method: Option<&str>, name: &str) -> String {
    match method {
        Some(method) => naming::method_name(&format!("{method}_{name}")),
        None => naming::method_name(name),
    }
}

/// `{method}_{segment}_..._by_{parameter}` for the path, in snake case.
fn derived_operation_id(method: &str, path: &str) -> String {
    let mut words = vec![method.to_string()];
    for segment in path.split('/').filter(|segment| !segment.is_empty()) {
        match segment
            .strip_prefix('{')
            .and_then(|inner| inner.strip_suffix('}'))
        {
            Some(parameter) => {
                words.push("by".into());
                words.push(parameter.to_string());
            }
            None => words.push(segment.to_string()),
        }
    }
    if words.len() == 1 {
        words.push("root".into());
    }
    naming::method_name(&words.join("_"))
}

/// One inline schema to move: where it is, and the name it gets.
struct Move {
    pointers: Vec<String>,
    name: String,
    /// A parameter's value: `null` is how a parameter is absent, not a
    /// value its type needs (`nullable` is dropped).
    parameter: bool,
}

/// Moves every inline body schema under `components/schemas`.
pub fn name_inline_schemas(spec: &mut LoadedSpec) {
    any_value_where_no_schema(spec);
    let mut moves = find_moves(spec);
    if moves.is_empty() {
        return;
    }
    // A derived name whose type name is taken (by a schema, or by an earlier
    // derived name) gets the first free suffix: `{operationId}-body-2`.
    let mut taken: BTreeSet<String> = spec
        .document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|schemas| schemas.keys().map(|name| naming::type_name(name)).collect())
        .unwrap_or_default();
    for entry in &mut moves {
        let base = entry.name.clone();
        let mut suffix = 1;
        while !taken.insert(naming::type_name(&entry.name)) {
            suffix += 1;
            entry.name = format!("{base}-{suffix}");
        }
    }
    for entry in moves {
        let schema = spec
            .document
            .pointer(&entry.pointers[0])
            .cloned()
            .expect("found above");
        let mut schema = schema;
        if entry.parameter
            && let Value::Object(object) = &mut schema
        {
            object.shift_remove("nullable");
            for keyword in ["anyOf", "oneOf"] {
                if let Some(Value::Array(branches)) = object.get_mut(keyword) {
                    branches.retain(|branch| !parameters::only_null(&spec.document, branch));
                }
            }
        }
        let target = pointer_join("/components/schemas", &entry.name);
        spec.source_map.alias(&target, &entry.pointers[0]);
        let reference = Value::Object(Map::from_iter([(
            "$ref".to_string(),
            Value::String(format!("#{target}")),
        )]));
        for pointer in &entry.pointers {
            *spec.document.pointer_mut(pointer).expect("found above") = reference.clone();
        }
        let root = spec
            .document
            .as_object_mut()
            .expect("an OpenAPI document is a mapping");
        let components = root
            .entry("components")
            .or_insert_with(|| Value::Object(Map::new()));
        let schemas = components
            .as_object_mut()
            .map(|components| {
                components
                    .entry("schemas")
                    .or_insert_with(|| Value::Object(Map::new()))
            })
            .and_then(Value::as_object_mut);
        if let Some(schemas) = schemas {
            schemas.insert(entry.name, schema);
        }
    }
}

/// A typed media type without a `schema` (`application/json: {}`) allows any
/// value of its media type: it gets the empty schema, which says so, and is
/// then named like any other inline body schema.
fn any_value_where_no_schema(spec: &mut LoadedSpec) {
    let mut bodies: Vec<String> = Vec::new();
    for site in walk::path_items(&spec.document) {
        for method in &METHODS {
            let Some(operation) = site.item.get(*method).and_then(Value::as_object) else {
                continue;
            };
            let operation_pointer = pointer_join(&site.pointer, method);
            bodies.push(pointer_join(&operation_pointer, "requestBody"));
            if let Some(responses) = operation.get("responses").and_then(Value::as_object) {
                let responses_pointer = pointer_join(&operation_pointer, "responses");
                bodies.extend(
                    responses
                        .keys()
                        .map(|status| pointer_join(&responses_pointer, status)),
                );
            }
        }
    }
    for section in ["responses", "requestBodies"] {
        let section_pointer = pointer_join("/components", section);
        if let Some(entries) = spec
            .document
            .pointer(&section_pointer)
            .and_then(Value::as_object)
        {
            bodies.extend(
                entries
                    .keys()
                    .map(|name| pointer_join(&section_pointer, name)),
            );
        }
    }
    for body in bodies {
        let Some(Value::Object(content)) =
            spec.document.pointer_mut(&pointer_join(&body, "content"))
        else {
            continue;
        };
        for (media_type, entry) in content.iter_mut() {
            if let Value::Object(entry) = entry
                && is_typed_media_type(media_type)
                && !entry.contains_key("schema")
            {
                entry.insert("schema".into(), Value::Object(Map::new()));
            }
        }
    }
}

fn find_moves(spec: &LoadedSpec) -> Vec<Move> {
    let mut moves = Vec::new();
    parameter_moves(spec, &mut moves);
    for site in walk::path_items(&spec.document) {
        for method in &METHODS {
            let Some(operation) = site.item.get(*method).and_then(Value::as_object) else {
                continue;
            };
            let Some(id) = operation.get("operationId").and_then(Value::as_str) else {
                continue;
            };
            let operation_pointer = pointer_join(&site.pointer, method);
            if let Some(body) = operation.get("requestBody") {
                let pointer = pointer_join(&operation_pointer, "requestBody");
                moves.extend(body_move(body, &pointer, format!("{id}-body")));
                moves.extend(parts_move(body, &pointer, format!("{id}-parts")));
            }
            let Some(responses) = operation.get("responses").and_then(Value::as_object) else {
                continue;
            };
            let inline_successes = responses
                .iter()
                .filter(|(status, response)| {
                    status.starts_with('2') && !inline_schemas(response).is_empty()
                })
                .count();
            for (status, response) in responses {
                let name = if status.starts_with('2') && inline_successes == 1 {
                    format!("{id}-response")
                } else {
                    format!("{id}-{status}-response")
                };
                let pointer = pointer_join(&pointer_join(&operation_pointer, "responses"), status);
                moves.extend(body_move(response, &pointer, name));
                let base = if status.starts_with('2') {
                    id.to_string()
                } else {
                    format!("{id}-{status}")
                };
                moves.extend(item_move(&spec.document, response, &pointer, &base));
            }
        }
    }
    for (section, suffix) in [("responses", "body"), ("requestBodies", "request-body")] {
        let section_pointer = pointer_join("/components", section);
        let Some(entries) = spec
            .document
            .pointer(&section_pointer)
            .and_then(Value::as_object)
        else {
            continue;
        };
        for (name, entry) in entries {
            let pointer = pointer_join(&section_pointer, name);
            moves.extend(body_move(entry, &pointer, format!("{name}-{suffix}")));
            if section == "responses" {
                moves.extend(item_move(&spec.document, entry, &pointer, name));
            }
            if section == "requestBodies" {
                moves.extend(parts_move(entry, &pointer, format!("{name}-parts")));
            }
        }
    }
    // An item schema inside a component is met once per response using it.
    let mut seen = BTreeSet::new();
    moves.retain(|entry| seen.insert(entry.pointers.clone()));
    moves
}

/// The move of a stream's inline item schema ([`streams::item_schema`]),
/// named `{base}-event` or `{base}-item`.
fn item_move(document: &Value, response: &Value, pointer: &str, base: &str) -> Option<Move> {
    let content = response.get("content")?.as_object()?;
    let (media_type, framing) = streams::stream_entry(content)?;
    let media_pointer = pointer_join(&pointer_join(pointer, "content"), media_type);
    let streams::ItemSchema::At(item) = streams::item_schema(document, &media_pointer, framing)
    else {
        return None;
    };
    let schema = document.pointer(&item)?;
    (schema.is_object() && schema.get("$ref").is_none()).then(|| Move {
        pointers: vec![item],
        name: format!("{base}-{}", framing.item_suffix()),
        parameter: false,
    })
}

/// The inline schemas of a body or response's typed media types.
fn inline_schemas(body: &Value) -> Vec<(&str, &Value)> {
    let Some(content) = body.get("content").and_then(Value::as_object) else {
        return Vec::new();
    };
    content
        .iter()
        .filter(|(media_type, _)| is_typed_media_type(media_type))
        .filter_map(|(media_type, entry)| {
            let schema = entry.get("schema")?;
            (schema.is_object() && schema.get("$ref").is_none())
                .then_some((media_type.as_str(), schema))
        })
        .collect()
}

/// The move of a request body's inline `multipart/form-data` schema, under
/// a name of its own: the server checks the parts against it (the body
/// itself stays bytes), so the model needs it named as it needs a JSON
/// body's. A `$ref` needs no move.
fn parts_move(body: &Value, pointer: &str, name: String) -> Option<Move> {
    let content = body.get("content")?.as_object()?;
    let (media_type, entry) = content.iter().find(|(media_type, _)| {
        media_type.split(';').next().unwrap_or_default().trim() == "multipart/form-data"
    })?;
    let schema = entry.get("schema")?;
    (schema.is_object() && schema.get("$ref").is_none()).then(|| Move {
        pointers: vec![pointer_join(
            &pointer_join(&pointer_join(pointer, "content"), media_type),
            "schema",
        )],
        name,
        parameter: false,
    })
}

/// The move of a body's inline schema; media types with the same schema
/// share it (a body offered as JSON and as a form).
fn body_move(body: &Value, pointer: &str, name: String) -> Option<Move> {
    let schemas = inline_schemas(body);
    let (_, first) = schemas.first()?;
    let pointers = schemas
        .iter()
        .filter(|(_, schema)| schema == first)
        .map(|(media_type, _)| {
            pointer_join(
                &pointer_join(&pointer_join(pointer, "content"), media_type),
                "schema",
            )
        })
        .collect();
    Some(Move {
        pointers,
        name,
        parameter: false,
    })
}

/// The inline object schemas of parameters (and those combining several
/// schemas, `anyOf`/`allOf`), named as progenitor names the types of inline
/// parameters: `{operationId}-{name}`, and `-item` for the
/// objects of a list. A parameter of a path item takes the name of its
/// first operation, one under `components/parameters` is `{key}-parameter`.
/// Client and server share the type, and progenitor's builders cannot take
/// objects (the client crate sets them itself, `emit::client`).
fn parameter_moves(spec: &LoadedSpec, moves: &mut Vec<Move>) {
    let document = &spec.document;
    let mut lists: Vec<(String, String)> = Vec::new();
    for site in walk::path_items(document) {
        let mut first = None;
        for method in &METHODS {
            let Some(id) = site
                .item
                .get(*method)
                .and_then(|operation| operation.get("operationId"))
                .and_then(Value::as_str)
            else {
                continue;
            };
            first.get_or_insert(id);
            let operation_pointer = pointer_join(&site.pointer, method);
            lists.push((
                pointer_join(&operation_pointer, "parameters"),
                format!("{id}-"),
            ));
        }
        if let Some(id) = first {
            lists.push((pointer_join(&site.pointer, "parameters"), format!("{id}-")));
        }
    }
    let mut parameters: Vec<(String, String)> = Vec::new();
    for (list, prefix) in lists {
        if let Some(Value::Array(entries)) = document.pointer(&list) {
            for (index, entry) in entries.iter().enumerate() {
                if let Some(name) = entry.get("name").and_then(Value::as_str) {
                    parameters.push((
                        pointer_join(&list, &index.to_string()),
                        format!("{prefix}{name}"),
                    ));
                }
            }
        }
    }
    if let Some(Value::Object(entries)) = document.pointer("/components/parameters") {
        for key in entries.keys() {
            parameters.push((
                pointer_join("/components/parameters", key),
                format!("{key}-parameter"),
            ));
        }
    }
    for (pointer, name) in parameters {
        let Some(parameter) = document.pointer(&pointer) else {
            continue;
        };
        let mut schemas = vec![pointer_join(&pointer, "schema")];
        if let Some(Value::Object(content)) = parameter.get("content") {
            schemas.extend(content.keys().map(|media_type| {
                pointer_join(
                    &pointer_join(&pointer_join(&pointer, "content"), media_type),
                    "schema",
                )
            }));
        }
        for schema_pointer in schemas {
            let Some(schema) = document.pointer(&schema_pointer) else {
                continue;
            };
            let (value, inner) = parameters::non_null(document, schema);
            let value_pointer = format!("{schema_pointer}{inner}");
            let kind = parameters::value_kind(document, value);
            let structured = kind == Kind::Object || parameters::combines_several(document, value);
            match kind {
                _ if structured && value.get("$ref").is_none() => moves.push(Move {
                    pointers: vec![value_pointer],
                    name: name.clone(),
                    parameter: true,
                }),
                Kind::List(Scalar::Json) => {
                    let Some(items) = value.get("items") else {
                        continue;
                    };
                    let (items, inner) = parameters::non_null(document, items);
                    if items.get("$ref").is_none()
                        && parameters::value_kind(document, items) == Kind::Object
                    {
                        moves.push(Move {
                            pointers: vec![format!("{value_pointer}/items{inner}")],
                            name: format!("{name}-item"),
                            parameter: true,
                        });
                    }
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn webhooks_are_named_by_their_name_and_method_where_they_have_several() {
        let mut spec = spec(
            r##"
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /pets:
    post: {operationId: new_pet, responses: {}}
webhooks:
  newPet:
    post: {responses: {}}
  pet.adopted:
    post: {responses: {}}
    put: {responses: {}}
  "!":
    post: {operationId: kept, responses: {}}
    get: {responses: {}}
"##,
        );
        name_operations(&mut spec);
        let id = |pointer: &str| {
            spec.document
                .pointer(&format!("{pointer}/operationId"))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        assert_eq!(id("/webhooks/newPet/post").as_deref(), Some("new_pet_2"));
        assert_eq!(
            id("/webhooks/pet.adopted/post").as_deref(),
            Some("post_pet_adopted")
        );
        assert_eq!(
            id("/webhooks/pet.adopted/put").as_deref(),
            Some("put_pet_adopted")
        );
        assert_eq!(id("/webhooks/!/post").as_deref(), Some("kept"));
        assert_eq!(id("/webhooks/!/get").as_deref(), Some("get"));
    }

    #[test]
    fn operation_ids_are_derived_from_method_and_path() {
        assert_eq!(
            super::derived_operation_id("get", "/users/{id}/roles"),
            "get_users_by_id_roles"
        );
        assert_eq!(super::derived_operation_id("post", "/"), "post_root");
        assert_eq!(
            super::derived_operation_id("delete", "/v1.0/pet-store/{petId}"),
            "delete_v1_0_pet_store_by_pet_id"
        );
    }

    use super::*;
    use std::path::Path;

    fn spec(text: &str) -> LoadedSpec {
        crate::load::parse_spec(Path::new("spec.yaml"), text.as_bytes()).unwrap()
    }

    const SPEC: &str = r##"
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /things:
    post:
      operationId: create_thing
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {name: {type: string}}}
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {name: {type: string}}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Thing"}}
        "400":
          description: bad
          content:
            application/json:
              schema: {type: object, properties: {message: {type: string}}}
components:
  schemas:
    Thing: {type: object}
"##;

    #[test]
    fn inline_bodies_get_names_from_their_operation() {
        let mut spec = spec(SPEC);
        name_inline_schemas(&mut spec);
        let document = &spec.document;
        let body = "/paths/~1things/post/requestBody/content";
        assert_eq!(
            document.pointer(&format!("{body}/application~1json/schema/$ref")),
            Some(&Value::from("#/components/schemas/create_thing-body"))
        );
        assert_eq!(
            document.pointer(&format!(
                "{body}/application~1x-www-form-urlencoded/schema/$ref"
            )),
            Some(&Value::from("#/components/schemas/create_thing-body"))
        );
        let schemas = document["components"]["schemas"].as_object().unwrap();
        let names: Vec<&str> = schemas.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "Thing",
                "create_thing-body",
                "create_thing-response",
                "create_thing-400-response"
            ]
        );
        // Messages about a moved schema point where it was written.
        let error = spec.error_at("/components/schemas/create_thing-body/properties/name", "x");
        assert!(error.to_string().starts_with("spec.yaml:11:"), "{error}");
    }

    #[test]
    fn a_name_already_taken_gets_a_suffix() {
        let text = SPEC.replace(
            "Thing: {type: object}",
            "Thing: {type: object}\n    CreateThingBody: {type: string}",
        );
        let mut spec = spec(&text);
        name_inline_schemas(&mut spec);
        assert_eq!(
            spec.document
                .pointer("/paths/~1things/post/requestBody/content/application~1json/schema/$ref"),
            Some(&Value::from("#/components/schemas/create_thing-body-2"))
        );
        assert_eq!(
            spec.document["components"]["schemas"]["CreateThingBody"],
            serde_json::json!({"type": "string"})
        );
    }
    #[test]
    fn object_valued_parameters_get_names_from_their_operation() {
        let mut spec = spec(
            r##"
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /things:
    parameters:
      - {name: shared, in: query, schema: {type: object, properties: {a: {type: string}}}}
    get:
      operationId: list_things
      parameters:
        - {name: filter, in: query, style: deepObject, schema: {type: object, properties: {a: {type: string}}}}
        - name: labels
          in: query
          schema: {anyOf: [{type: object, additionalProperties: {type: string}}, {nullable: true}]}
        - {name: order, in: query, schema: {type: array, items: {type: object}}}
        - {name: plain, in: query, schema: {type: array, items: {type: string}}}
        - $ref: "#/components/parameters/Page"
      responses: {"200": {description: ok}}
components:
  parameters:
    Page: {name: page, in: query, content: {application/json: {schema: {type: object}}}}
"##,
        );
        name_inline_schemas(&mut spec);
        let document = &spec.document;
        let reference = |pointer: &str| document.pointer(pointer).and_then(Value::as_str);
        let parameters = "/paths/~1things/get/parameters";
        assert_eq!(
            reference(&format!("{parameters}/0/schema/$ref")),
            Some("#/components/schemas/list_things-filter")
        );
        assert_eq!(
            reference(&format!("{parameters}/1/schema/anyOf/0/$ref")),
            Some("#/components/schemas/list_things-labels"),
            "the null beside the map stays where it is"
        );
        assert_eq!(
            reference(&format!("{parameters}/2/schema/items/$ref")),
            Some("#/components/schemas/list_things-order-item")
        );
        assert_eq!(
            document.pointer(&format!("{parameters}/3/schema/items")),
            Some(&serde_json::json!({"type": "string"}))
        );
        assert_eq!(
            reference("/paths/~1things/parameters/0/schema/$ref"),
            Some("#/components/schemas/list_things-shared")
        );
        assert_eq!(
            reference("/components/parameters/Page/content/application~1json/schema/$ref"),
            Some("#/components/schemas/Page-parameter")
        );
    }
}
