//! Sequential media types: a response that is a series of items sent one
//! after another (server-sent events, JSON Lines, JSON text sequences)
//! rather than one value. This module is the one reading of such a
//! response: which media type is the stream, and where the schema of each
//! item is. The inline-schema pass names that schema, the model types the
//! stream by it, and every emitter reads the model.
//!
//! Where the item's schema is:
//!
//! - OpenAPI 3.2's `itemSchema` describes one item. For a JSON Lines or JSON
//!   text sequence stream that is the item. For server-sent events it is
//!   the event object (`data`, `event`, `id`, `retry`): the item is its
//!   `data`, typed by `data`'s `contentSchema` where `data` is a string of
//!   JSON (as the specification's own example writes it), by `data` itself
//!   where that is a `$ref` or a schema that is not a string, and as text
//!   where `data` is a plain string or is not described.
//! - Before 3.2, the media type's `schema` is read as the type of each item
//!   (of each event's `data`, for events): that is what every description
//!   of an event stream written for 3.0 or 3.1 means by it. A `schema` that
//!   is an array is read as the stream of its items (the whole stream, as
//!   one array), and one that is an inline string (`type: string`, with
//!   `format: binary` or without) as text. A media type without `schema`
//!   sends text events, or JSON Lines of any JSON value.

use serde_json::{Map, Value};

use crate::diagnostic::pointer_join;
use crate::model::essence;
use crate::model::refs;

/// How the items of a stream are framed on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `text/event-stream`: server-sent events, each item an event's `data`.
    Events,
    /// `application/jsonl`, `application/x-ndjson`: one JSON value per line.
    JsonLines,
    /// `application/json-seq` (RFC 7464): each JSON value after a record
    /// separator (0x1E), ended by a line feed.
    JsonSeq,
}

impl Framing {
    /// The framing of `media_type` (parameters aside), if it is sequential.
    pub fn of(media_type: &str) -> Option<Framing> {
        match essence(media_type).as_str() {
            "text/event-stream" => Some(Framing::Events),
            "application/jsonl" | "application/x-ndjson" => Some(Framing::JsonLines),
            "application/json-seq" => Some(Framing::JsonSeq),
            _ => None,
        }
    }

    /// The suffix of the name an inline item schema is given
    /// (`{operationId}-event`, `{operationId}-item`).
    pub fn item_suffix(self) -> &'static str {
        match self {
            Framing::Events => "event",
            Framing::JsonLines | Framing::JsonSeq => "item",
        }
    }
}

/// The stream of a response's `content`: its one sequential media type,
/// where every other media type is JSON. A response offering two streams,
/// or a stream beside a body passed as bytes (a CSV file), is bytes as a
/// whole, as before streams were typed: the implementation picks among
/// those media types.
pub fn stream_entry(content: &Map<String, Value>) -> Option<(&str, Framing)> {
    let mut streams = content
        .keys()
        .filter_map(|media_type| Some((media_type.as_str(), Framing::of(media_type)?)));
    let stream = streams.next()?;
    if streams.next().is_some() {
        return None;
    }
    content
        .keys()
        .filter(|media_type| Framing::of(media_type).is_none())
        .all(|media_type| crate::model::is_json(media_type))
        .then_some(stream)
}

/// Where the schema of each item of a stream is ([`item_schema`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemSchema {
    /// The schema at this pointer of the document (a `$ref` once inline
    /// schemas are named).
    At(String),
    /// Each item is text: an event's `data` as it is.
    Text,
    /// Each item is any JSON value.
    Json,
}

/// Where the schema of each item is, for the stream of `framing` whose
/// media type object is at `pointer` of `document` (see the module's
/// rules).
pub fn item_schema(document: &Value, pointer: &str, framing: Framing) -> ItemSchema {
    let Some(media) = document.pointer(pointer) else {
        return ItemSchema::Text;
    };
    if let Some(item) = media.get("itemSchema") {
        let item_pointer = pointer_join(pointer, "itemSchema");
        if framing != Framing::Events {
            return ItemSchema::At(item_pointer);
        }
        let (event, event_pointer) = refs::follow_leniently(document, item, &item_pointer);
        let Some(data) = event
            .get("properties")
            .and_then(|properties| properties.get("data"))
        else {
            return ItemSchema::Text;
        };
        let data_pointer = pointer_join(&pointer_join(&event_pointer, "properties"), "data");
        if data.get("contentSchema").is_some() {
            return ItemSchema::At(pointer_join(&data_pointer, "contentSchema"));
        }
        if data.get("$ref").is_some() || !is_string(data) {
            return ItemSchema::At(data_pointer);
        }
        return ItemSchema::Text;
    }
    let Some(schema) = media.get("schema") else {
        return match framing {
            Framing::Events => ItemSchema::Text,
            Framing::JsonLines | Framing::JsonSeq => ItemSchema::Json,
        };
    };
    let schema_pointer = pointer_join(pointer, "schema");
    let (followed, followed_pointer) = refs::follow_leniently(document, schema, &schema_pointer);
    if followed.get("type").and_then(Value::as_str) == Some("array")
        && followed.get("items").is_some()
    {
        return ItemSchema::At(pointer_join(&followed_pointer, "items"));
    }
    if schema.get("$ref").is_none() && is_string(schema) {
        return ItemSchema::Text;
    }
    ItemSchema::At(schema_pointer)
}

/// Whether `schema` is written as a string (and nothing else).
fn is_string(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("string")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn sequential_media_types_are_read_by_their_essence() {
        assert_eq!(Framing::of("text/event-stream"), Some(Framing::Events));
        assert_eq!(
            Framing::of("Text/Event-Stream; charset=utf-8"),
            Some(Framing::Events)
        );
        assert_eq!(Framing::of("application/jsonl"), Some(Framing::JsonLines));
        assert_eq!(
            Framing::of("application/x-ndjson"),
            Some(Framing::JsonLines)
        );
        assert_eq!(Framing::of("application/json-seq"), Some(Framing::JsonSeq));
        assert_eq!(Framing::of("application/json"), None);
        assert_eq!(Framing::of("text/plain"), None);
    }

    fn content(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(content) => content,
            _ => unreachable!(),
        }
    }

    #[test]
    fn a_stream_is_typed_beside_json_only() {
        let json_or_events = content(json!({
            "application/json": {"schema": {}},
            "text/event-stream": {"schema": {}}
        }));
        assert_eq!(
            stream_entry(&json_or_events),
            Some(("text/event-stream", Framing::Events))
        );
        let lines = content(json!({"application/x-ndjson": {}}));
        assert_eq!(
            stream_entry(&lines),
            Some(("application/x-ndjson", Framing::JsonLines))
        );
        for bytes in [
            json!({"text/event-stream": {}, "application/jsonl": {}}),
            json!({"text/event-stream": {}, "text/csv": {}}),
            json!({"application/json": {}}),
        ] {
            assert_eq!(stream_entry(&content(bytes.clone())), None, "{bytes}");
        }
    }

    fn read(media: Value, framing: Framing) -> ItemSchema {
        let document = json!({
            "paths": {"/chat": {"post": {"responses": {"200": {"content": {"m": media}}}}}},
            "components": {"schemas": {
                "Event": {"type": "object", "properties": {
                    "event": {"type": "string"},
                    "data": {"$ref": "#/components/schemas/Chunk"}
                }},
                "Chunks": {"type": "array", "items": {"$ref": "#/components/schemas/Chunk"}},
                "Chunk": {"type": "object"}
            }}
        });
        item_schema(
            &document,
            "/paths/~1chat/post/responses/200/content/m",
            framing,
        )
    }

    const MEDIA: &str = "/paths/~1chat/post/responses/200/content/m";

    #[test]
    fn the_schema_before_3_2_types_each_item() {
        let chunk = json!({"schema": {"$ref": "#/components/schemas/Chunk"}});
        assert_eq!(
            read(chunk.clone(), Framing::Events),
            ItemSchema::At(format!("{MEDIA}/schema"))
        );
        assert_eq!(
            read(chunk, Framing::JsonLines),
            ItemSchema::At(format!("{MEDIA}/schema"))
        );
        // An array is the stream of its items, inline or behind a `$ref`.
        assert_eq!(
            read(
                json!({"schema": {"type": "array", "items": {"type": "object"}}}),
                Framing::JsonLines
            ),
            ItemSchema::At(format!("{MEDIA}/schema/items"))
        );
        assert_eq!(
            read(
                json!({"schema": {"$ref": "#/components/schemas/Chunks"}}),
                Framing::Events
            ),
            ItemSchema::At("/components/schemas/Chunks/items".into())
        );
        let text = json!({"schema": {"type": "string", "format": "binary"}});
        assert_eq!(read(text, Framing::Events), ItemSchema::Text);
        assert_eq!(read(json!({}), Framing::Events), ItemSchema::Text);
        assert_eq!(read(json!({}), Framing::JsonSeq), ItemSchema::Json);
    }

    #[test]
    fn an_item_schema_types_the_item_or_the_events_data() {
        let item = json!({"itemSchema": {"$ref": "#/components/schemas/Chunk"}});
        assert_eq!(
            read(item, Framing::JsonLines),
            ItemSchema::At(format!("{MEDIA}/itemSchema"))
        );
        // The event object's `data`, by `$ref` ...
        let event = json!({"itemSchema": {"$ref": "#/components/schemas/Event"}});
        assert_eq!(
            read(event, Framing::Events),
            ItemSchema::At("/components/schemas/Event/properties/data".into())
        );
        // ... or as a string whose JSON `contentSchema` describes.
        let described = json!({"itemSchema": {"type": "object", "properties": {
            "data": {"type": "string", "contentMediaType": "application/json",
                     "contentSchema": {"$ref": "#/components/schemas/Chunk"}}
        }}});
        assert_eq!(
            read(described, Framing::Events),
            ItemSchema::At(format!("{MEDIA}/itemSchema/properties/data/contentSchema"))
        );
        let text = json!({"itemSchema": {"properties": {"data": {"type": "string"}}}});
        assert_eq!(read(text, Framing::Events), ItemSchema::Text);
        let undescribed = json!({"itemSchema": {"properties": {"id": {"type": "string"}}}});
        assert_eq!(read(undescribed, Framing::Events), ItemSchema::Text);
    }
}
