//! What each node of an OpenAPI document is, by where it stands: the one
//! description of the document's structure that the bundler (which
//! members hold more of the document, which hold data) and containment
//! (which unit a problem touches) both read; and the removal of entries,
//! which every reading that leaves a unit out makes.

use serde_json::Value;

use crate::vocabulary::METHODS;

/// What an object is, by where it stands in an OpenAPI document; it decides
/// which of its members hold more of the document and which hold data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Root,
    Components,
    PathItem,
    Operation,
    Responses,
    Response,
    RequestBody,
    MediaType,
    Encoding,
    Parameter,
    Header,
    Example,
    Link,
    Callback,
    SecurityScheme,
    Schema,
    /// `properties` and the like: schemas by name. Descriptions write one
    /// as a `$ref` to a map of properties in another file.
    SchemaMap,
    Discriminator,
    /// Anything else outside data: walked for `$ref`s, which are copied in.
    Other,
}

impl Kind {
    /// The `components` section where a referenced node of this kind lives;
    /// `None` for kinds copied where they are referred to.
    pub fn section(self) -> Option<&'static str> {
        Some(match self {
            Kind::Schema => "schemas",
            Kind::Response => "responses",
            Kind::Parameter => "parameters",
            Kind::Example => "examples",
            Kind::RequestBody => "requestBodies",
            Kind::Header => "headers",
            Kind::SecurityScheme => "securitySchemes",
            Kind::Link => "links",
            Kind::Callback => "callbacks",
            _ => return None,
        })
    }
}

/// What a member of an object of some kind holds.
#[derive(Debug, Clone, Copy)]
pub enum Slot {
    One(Kind),
    Map(Kind),
    List(Kind),
    /// `items`: a schema, or a list of them in old drafts.
    OneOrList(Kind),
    /// Values, not document: examples, defaults, extensions, text.
    Data,
}

/// Which kind of node the member `key` of an object of `kind` holds.
pub fn slot(kind: Kind, key: &str) -> Slot {
    use Kind::*;
    if key.starts_with("x-") && kind != SchemaMap {
        return Slot::Data;
    }
    match kind {
        Root => match key {
            "paths" | "webhooks" => Slot::Map(PathItem),
            "components" => Slot::One(Components),
            _ => Slot::One(Other),
        },
        Components => match key {
            "schemas" => Slot::Map(Schema),
            "responses" => Slot::Map(Response),
            "parameters" => Slot::Map(Parameter),
            "examples" => Slot::Map(Example),
            "requestBodies" => Slot::Map(RequestBody),
            "headers" => Slot::Map(Header),
            "securitySchemes" => Slot::Map(SecurityScheme),
            "links" => Slot::Map(Link),
            "callbacks" => Slot::Map(Callback),
            "pathItems" => Slot::Map(PathItem),
            _ => Slot::Data,
        },
        PathItem => match key {
            _ if METHODS.contains(&key) => Slot::One(Operation),
            "parameters" => Slot::List(Parameter),
            "servers" => Slot::One(Other),
            _ => Slot::Data,
        },
        Operation => match key {
            "parameters" => Slot::List(Parameter),
            "requestBody" => Slot::One(RequestBody),
            "responses" => Slot::One(Responses),
            "callbacks" => Slot::Map(Callback),
            "security" | "servers" | "externalDocs" => Slot::One(Other),
            _ => Slot::Data,
        },
        Responses => Slot::One(Response),
        Callback => Slot::One(PathItem),
        Response => match key {
            "headers" => Slot::Map(Header),
            "content" => Slot::Map(MediaType),
            "links" => Slot::Map(Link),
            _ => Slot::Data,
        },
        RequestBody => match key {
            "content" => Slot::Map(MediaType),
            _ => Slot::Data,
        },
        Parameter | Header => match key {
            "schema" => Slot::One(Schema),
            "content" => Slot::Map(MediaType),
            "examples" => Slot::Map(Example),
            _ => Slot::Data,
        },
        MediaType => match key {
            "schema" => Slot::One(Schema),
            "examples" => Slot::Map(Example),
            "encoding" => Slot::Map(Encoding),
            _ => Slot::Data,
        },
        Encoding => match key {
            "headers" => Slot::Map(Header),
            _ => Slot::Data,
        },
        Schema => match key {
            "properties" | "patternProperties" | "dependentSchemas" | "$defs" | "definitions" => {
                Slot::One(SchemaMap)
            }
            "items" => Slot::OneOrList(Schema),
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => Slot::List(Schema),
            "additionalProperties"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "propertyNames"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "additionalItems"
            | "contentSchema" => Slot::One(Schema),
            "discriminator" => Slot::One(Discriminator),
            _ => Slot::Data,
        },
        SchemaMap => Slot::One(Schema),
        Example | Link | SecurityScheme | Discriminator => Slot::Data,
        Other => match key {
            "example" | "examples" | "default" | "enum" | "const" => Slot::Data,
            _ => Slot::One(Other),
        },
    }
}

/// Each node on the way to the node at `pointer` that is an object of the
/// document (not data), with its pointer and kind, from the root down:
/// `/paths/~1a/get/responses/200` passes the root, a path item, an
/// operation, its responses and a response. The walk stops where data
/// begins (an example, an extension).
pub fn kinds_along(pointer: &str) -> Vec<(String, Kind)> {
    let tokens: Vec<&str> = if pointer.is_empty() {
        Vec::new()
    } else {
        pointer.split('/').skip(1).collect()
    };
    let mut along = vec![(String::new(), Kind::Root)];
    let mut kind = Kind::Root;
    let mut at = String::new();
    let mut index = 0;
    while index < tokens.len() {
        let key = tokens[index].replace("~1", "/").replace("~0", "~");
        at = format!("{at}/{}", tokens[index]);
        index += 1;
        let next = match slot(kind, &key) {
            Slot::One(next) => next,
            Slot::OneOrList(next)
                if tokens
                    .get(index)
                    .is_some_and(|t| t.parse::<usize>().is_ok()) =>
            {
                at = format!("{at}/{}", tokens[index]);
                index += 1;
                next
            }
            Slot::OneOrList(next) => next,
            Slot::Map(next) | Slot::List(next) => {
                let Some(member) = tokens.get(index) else {
                    break;
                };
                at = format!("{at}/{member}");
                index += 1;
                next
            }
            Slot::Data => break,
        };
        kind = next;
        along.push((at.clone(), kind));
    }
    along
}

/// Makes the schema `node` any JSON value (`{}`), keeping its description:
/// the reading of a schema that cannot be read or expressed, wherever it is
/// made (containment, the bundler, progenitor's retries).
pub fn read_as_any(node: &mut Value) {
    let mut any = serde_json::Map::new();
    if let Some(description) = node.get("description").filter(|d| d.is_string()) {
        any.insert("description".into(), description.clone());
    }
    *node = Value::Object(any);
}

/// Removes the entry of a list (or member of an object) at `pointer`.
pub(crate) fn remove_entry(document: &mut Value, pointer: &str) {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return;
    };
    match document.pointer_mut(parent) {
        Some(Value::Array(items)) => {
            if let Ok(index) = last.parse::<usize>()
                && index < items.len()
            {
                items.remove(index);
            }
        }
        Some(Value::Object(members)) => {
            members.shift_remove(&last.replace("~1", "/").replace("~0", "~"));
        }
        _ => {}
    }
}

/// Removes the entries at `pointers`, the deepest and the last of each
/// list first, so that each pointer still names its entry when its turn
/// comes.
pub(crate) fn remove_entries(document: &mut Value, mut pointers: Vec<String>) {
    let order = |pointer: &String| -> Vec<Result<usize, String>> {
        pointer
            .split('/')
            .map(|token| token.parse::<usize>().map_err(|_| token.to_string()))
            .collect()
    };
    pointers.sort_by_key(|pointer| std::cmp::Reverse(order(pointer)));
    pointers.dedup();
    for pointer in pointers {
        remove_entry(document, &pointer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_along_a_pointer_stop_at_data() {
        let kinds: Vec<Kind> = kinds_along(
            "/paths/~1a/get/responses/200/content/application~1json/schema/properties/id/example/x",
        )
        .into_iter()
        .map(|(_, kind)| kind)
        .collect();
        assert_eq!(
            kinds,
            [
                Kind::Root,
                Kind::PathItem,
                Kind::Operation,
                Kind::Responses,
                Kind::Response,
                Kind::MediaType,
                Kind::Schema,
                Kind::SchemaMap,
                Kind::Schema,
            ]
        );
        let along = kinds_along("/components/schemas/A/allOf/1");
        assert_eq!(
            along.last().unwrap(),
            &("/components/schemas/A/allOf/1".to_string(), Kind::Schema)
        );
        assert_eq!(
            along[2],
            ("/components/schemas/A".to_string(), Kind::Schema)
        );
    }
}
