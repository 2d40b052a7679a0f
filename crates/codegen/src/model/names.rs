//! Spec names that would become one Rust identifier get distinct names.
//!
//! Two schemas (`event_stream`, `eventStream`), two operations
//! (`listWidgets`, `list_widgets`), two shared responses, two parameters of
//! one operation (`widgetId`, `widget_id`) or two properties of one object
//! (`fooBar`, `foo_bar`) are different in the spec and one identifier in
//! Rust. Each gets a name of its own, by [`naming::distinct`]: the first in
//! document order keeps its identifier, a later one gets a suffix
//! (`eventStream-2`, so `EventStream2`).
//!
//! Schema, response and operation names never reach the wire, so they are
//! renamed in the document itself, before anything reads it
//! ([`distinct_operation_ids`], [`distinct_component_names`]): the model, the
//! server and progenitor's view all see the new name, and messages still
//! point where the spec wrote the old one. Parameter and property names are
//! wire names: the document keeps them, the model gives each parameter the
//! name its identifiers are made from ([`parameter_code_names`]), and
//! `emit::view` gives progenitor the same names while the wire keeps
//! the spec's.

use serde_json::{Map, Value};

use crate::diagnostic::pointer_join;
use crate::load::LoadedSpec;
use crate::model::refs;
use crate::naming::{self, Conversion};
use crate::readings::Reading;
use crate::vocabulary::METHODS;
use crate::walk;

/// The client's methods that are no operation's: `Client::new` and
/// `Client::new_with_client` (`Subscriber`'s alike).
const CONSTRUCTORS: &[&str] = &["new", "new_with_client"];

/// Types of Rust's prelude: a schema of such a name gets a suffix
/// (`Option-2`, so `Option2`).
const PRELUDE_TYPES: &[&str] = &["Option", "Result", "Vec", "String", "Box"];

/// Gives every operation, webhooks included, an operationId whose method
/// and type names (`list_widgets`, `ListWidgets`) no other operation shares,
/// nor the client's constructors (an operation `new` is `new-2`).
/// The same operationId written twice is a flaw of the spec (OpenAPI wants
/// them unique): the first in document order keeps it, a later one is read
/// with a suffix like any other clash (`list_widgets-2`), with a warning.
pub fn distinct_operation_ids(spec: &mut LoadedSpec) {
    let mut operations: Vec<(String, String)> = Vec::new();
    for site in walk::path_items(&spec.document) {
        for (method, operation) in site.item {
            if !METHODS.contains(&method.as_str()) {
                continue;
            }
            if let Some(id) = operation.get("operationId").and_then(Value::as_str) {
                operations.push((pointer_join(&site.pointer, method), id.to_string()));
            }
        }
    }
    // The constructors of the client's `Client` and `Subscriber`, beside
    // which an operation's method of the same name would not compile.
    // The prelude's types too: an operation's builder is a type of its
    // name, which generated code would read for `Result`.
    let mut ids: Vec<&str> = CONSTRUCTORS.to_vec();
    ids.extend(PRELUDE_TYPES);
    ids.extend(operations.iter().map(|(_, id)| id.as_str()));
    let conversions: &[Conversion] = &[naming::method_name, naming::type_name];
    let chosen = naming::distinct(&ids, conversions);
    let chosen = &chosen[CONSTRUCTORS.len() + PRELUDE_TYPES.len()..];
    let mut renames: Vec<(String, String)> = Vec::new();
    for (index, ((pointer, id), chosen)) in operations.iter().zip(chosen).enumerate() {
        if id == chosen {
            continue;
        }
        if let Some((first, _)) = operations[..index].iter().find(|(_, seen)| seen == id) {
            let first = spec.place(first).unwrap_or_else(|| first.clone());
            spec.warn_at(
                Reading::OperationIdRepeated,
                &pointer_join(pointer, "operationId"),
                format!(
                    "duplicate operationId `{id}`, already used at {first}; this operation's \
                     is read as `{chosen}`"
                ),
            );
        }
        renames.push((pointer.clone(), chosen.clone()));
    }
    for (pointer, chosen) in renames {
        if let Some(Value::Object(operation)) = spec.document.pointer_mut(&pointer) {
            operation.insert("operationId".into(), Value::String(chosen));
        }
    }
}

/// Gives every component schema a type name and every shared response a
/// type name no other one of its kind shares, renaming the entry under
/// `components` and every reference to it.
pub fn distinct_component_names(spec: &mut LoadedSpec) {
    for section in ["schemas", "responses"] {
        let section_pointer = pointer_join("/components", section);
        let Some(Value::Object(entries)) = spec.document.pointer(&section_pointer) else {
            continue;
        };
        // The prelude's types, which generated code names unqualified
        // beside the schemas' (`Option<Option>` would not read as meant).
        let mut names: Vec<&str> = PRELUDE_TYPES.to_vec();
        names.extend(entries.keys().map(String::as_str));
        let chosen = naming::distinct(&names, &[naming::type_name]);
        let names = &names[PRELUDE_TYPES.len()..];
        let chosen = chosen[PRELUDE_TYPES.len()..].to_vec();
        let renames: Vec<(String, String)> = names
            .iter()
            .zip(chosen)
            .filter(|(name, chosen)| **name != chosen)
            .map(|(name, chosen)| (name.to_string(), chosen))
            .collect();
        if renames.is_empty() {
            continue;
        }
        if let Some(Value::Object(entries)) = spec.document.pointer_mut(&section_pointer) {
            let renamed: Map<String, Value> = std::mem::take(entries)
                .into_iter()
                .map(
                    |(name, entry)| match renames.iter().find(|(old, _)| *old == name) {
                        Some((_, new)) => (new.clone(), entry),
                        None => (name, entry),
                    },
                )
                .collect();
            *entries = renamed;
        }
        for (old, new) in &renames {
            let written = spec
                .source_map
                .original(&pointer_join(&section_pointer, old));
            spec.source_map
                .alias(&pointer_join(&section_pointer, new), &written);
        }
        let prefix = format!("#{section_pointer}/");
        let retarget = |target: &mut String| {
            let Some(rest) = target.strip_prefix(&prefix) else {
                return;
            };
            let (token, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            let name = token.replace("~1", "/").replace("~0", "~");
            if let Some((_, new)) = renames.iter().find(|(old, _)| *old == name) {
                *target = format!(
                    "{}{tail}",
                    pointer_join(&format!("#{section_pointer}"), new)
                );
            }
        };
        walk::for_each_reference_mut(&mut spec.document, |_, target| retarget(target));
        if section == "schemas" {
            // A discriminator maps values to schemas by reference or by name.
            walk::for_each_schema_mut(&mut spec.document, |_, schema| {
                let Some(Value::Object(mapping)) = schema.pointer_mut("/discriminator/mapping")
                else {
                    return;
                };
                for target in mapping.values_mut() {
                    if let Value::String(target) = target {
                        match renames.iter().find(|(old, _)| old == target) {
                            Some((_, new)) => *target = new.clone(),
                            None => retarget(target),
                        }
                    }
                }
            });
        }
    }
}

/// The parameters of the operation at `operation` (a pointer) as the server
/// and progenitor both see them ([`refs::operation_parameters`]), each as
/// its name, its `in` and the name its Rust
/// identifiers are made from: [`naming::distinct`] over the path parameters
/// in template order (which every operation of the path shares), then the
/// others in order, under progenitor's method rule and the server's field
/// rule. Malformed entries are skipped (the model reports them).
pub fn parameter_code_names(document: &Value, operation: &str) -> Vec<ParameterCodeName> {
    let found: Vec<(String, String)> = refs::operation_parameters(document, operation)
        .iter()
        .filter_map(|parameter| {
            let (name, location) = parameter.key()?;
            Some((name.to_string(), location.to_string()))
        })
        .collect();
    let item_pointer = &operation[..operation.rfind('/').unwrap_or(0)];
    let template = item_pointer
        .rsplit('/')
        .next()
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
        .unwrap_or_default();
    let mut ordered: Vec<(String, String)> = Vec::new();
    for segment in template.split('/') {
        if let Some(name) = segment
            .strip_prefix('{')
            .and_then(|rest| rest.strip_suffix('}'))
            && let Some(entry) = found
                .iter()
                .find(|(seen, location)| seen == name && location == "path")
        {
            ordered.push(entry.clone());
        }
    }
    for entry in &found {
        if !ordered.contains(entry) {
            ordered.push(entry.clone());
        }
    }
    let names: Vec<&str> = ordered.iter().map(|(name, _)| name.as_str()).collect();
    let code_names = naming::distinct(&names, &[naming::method_name, naming::field_name]);
    ordered
        .into_iter()
        .zip(code_names)
        .map(|((name, location), code_name)| ParameterCodeName {
            name,
            location,
            code_name,
        })
        .collect()
}

/// A parameter's name, its `in`, and the name its identifiers are made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParameterCodeName {
    pub name: String,
    pub location: String,
    pub code_name: String,
}

impl ParameterCodeName {
    pub fn is_renamed(&self) -> bool {
        self.name != self.code_name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn spec(text: &str) -> LoadedSpec {
        crate::load::parse_spec(Path::new("spec.yaml"), text.as_bytes()).unwrap()
    }

    const SPEC: &str = r##"
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /streams/{streamId}/{stream_id}:
    parameters:
      - {name: stream_id, in: path, required: true, schema: {type: string}}
    get:
      operationId: listStreams
      parameters:
        - {name: streamId, in: path, required: true, schema: {type: string}}
        - {name: stream-id, in: query, schema: {type: string}}
        - $ref: "#/components/parameters/Id"
      responses:
        "200":
          $ref: "#/components/responses/Streams"
        "201":
          $ref: "#/components/responses/streams"
    post:
      operationId: list_streams
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/eventStream/properties/name"
components:
  parameters:
    Id: {name: id, in: header, schema: {type: string}}
  responses:
    Streams: {description: many}
    streams: {description: also many}
  schemas:
    event_stream:
      type: object
      properties:
        name: {type: string}
    eventStream:
      type: object
      properties:
        name: {type: string}
      example: {$ref: "#/components/schemas/eventStream"}
    Pet:
      oneOf:
        - $ref: "#/components/schemas/eventStream"
      discriminator:
        propertyName: kind
        mapping:
          a: eventStream
          b: "#/components/schemas/eventStream"
"##;

    #[test]
    fn operations_schemas_and_responses_are_renamed_with_their_references() {
        let mut spec = spec(SPEC);
        distinct_operation_ids(&mut spec);
        distinct_component_names(&mut spec);
        let document = &spec.document;
        let item = &document["paths"]["/streams/{streamId}/{stream_id}"];
        assert_eq!(item["get"]["operationId"], "listStreams");
        assert_eq!(item["post"]["operationId"], "list_streams-2");
        let names: Vec<&String> = document["components"]["schemas"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        // Bundling has hoisted the property the deep reference named.
        assert_eq!(
            names,
            ["event_stream", "eventStream-2", "Pet", "eventStream_name"]
        );
        assert_eq!(
            item["post"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/eventStream_name"
        );
        assert_eq!(
            document["components"]["schemas"]["eventStream-2"]["properties"]["name"]["$ref"],
            "#/components/schemas/eventStream_name"
        );
        let pet = &document["components"]["schemas"]["Pet"];
        assert_eq!(
            pet["oneOf"][0]["$ref"],
            "#/components/schemas/eventStream-2"
        );
        assert_eq!(
            pet["discriminator"]["mapping"],
            serde_json::json!({"a": "eventStream-2", "b": "#/components/schemas/eventStream-2"})
        );
        // An example is data: its `$ref` is not a reference.
        assert_eq!(
            document["components"]["schemas"]["eventStream-2"]["example"]["$ref"],
            "#/components/schemas/eventStream"
        );
        assert_eq!(
            item["get"]["responses"]["201"]["$ref"],
            "#/components/responses/streams-2"
        );
        // Messages about a renamed schema point where it was written.
        let error = spec.error_at("/components/schemas/eventStream-2/properties/name", "x");
        assert_eq!(
            error.to_string(),
            "spec.yaml:42:9: error: x (at /components/schemas/eventStream/properties/name)"
        );
    }

    #[test]
    fn operations_and_webhooks_are_named_apart_from_each_other_and_the_constructors() {
        let mut spec = spec(
            r##"
openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /a:
    get: {operationId: new, responses: {}}
    post: {operationId: petAdded, responses: {}}
webhooks:
  pets:
    post: {operationId: pet_added, responses: {}}
  clients:
    post: {operationId: newWithClient, responses: {}}
"##,
        );
        distinct_operation_ids(&mut spec);
        let document = &spec.document;
        assert_eq!(document["paths"]["/a"]["get"]["operationId"], "new-2");
        assert_eq!(document["paths"]["/a"]["post"]["operationId"], "petAdded");
        assert_eq!(
            document["webhooks"]["pets"]["post"]["operationId"],
            "pet_added-2"
        );
        assert_eq!(
            document["webhooks"]["clients"]["post"]["operationId"],
            "newWithClient-2"
        );
    }

    #[test]
    fn an_operation_id_written_twice_is_read_with_a_suffix_and_a_warning() {
        let mut spec = spec(
            r##"
openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get: {operationId: repos/get, responses: {}}
    put: {operationId: repos_get, responses: {}}
  /b:
    get: {operationId: repos/get, responses: {}}
"##,
        );
        distinct_operation_ids(&mut spec);
        let document = &spec.document;
        assert_eq!(document["paths"]["/a"]["get"]["operationId"], "repos/get");
        assert_eq!(document["paths"]["/a"]["put"]["operationId"], "repos_get-2");
        assert_eq!(document["paths"]["/b"]["get"]["operationId"], "repos/get-3");
        // A clash of Rust names is the generator's business; the same
        // operationId twice is the spec's flaw.
        let warnings: Vec<String> = spec
            .warnings
            .take()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            warnings,
            [
                "spec.yaml:9:24: warning[operation-id-repeated]: duplicate operationId `repos/get`, already used at \
              spec.yaml:6:5; this operation's is read as `repos/get-3` (at /paths/~1b/get/operationId)"
            ]
        );
    }

    #[test]
    fn parameters_get_code_names_path_ones_first() {
        let spec = spec(SPEC);
        let names = parameter_code_names(
            &spec.document,
            "/paths/~1streams~1{streamId}~1{stream_id}/get",
        );
        let expected = [
            ("streamId", "path", "streamId"),
            ("stream_id", "path", "stream_id-2"),
            ("stream-id", "query", "stream-id-3"),
            ("id", "header", "id"),
        ];
        let expected: Vec<ParameterCodeName> = expected
            .iter()
            .map(|(name, location, code_name)| ParameterCodeName {
                name: name.to_string(),
                location: location.to_string(),
                code_name: code_name.to_string(),
            })
            .collect();
        assert_eq!(names, expected);
    }
}
