//! A form body is text fields. Where a body is offered as a form, the
//! generated server gives the runtime a [`Shape`] of it (derived from the
//! same schemas as its checks), and [`read`] turns the decoded fields into
//! the JSON the schema describes before validation:
//!
//! - OpenAPI's default encoding of a form (each property as a query
//!   parameter of `style: form, explode: true`) spreads an object
//!   property's fields at the top level; a top-level field that the body
//!   does not declare goes back into the object property that declares it
//!   (or, where the body accepts no other property, into the one that
//!   accepts others). Bracket notation (`window[seconds]=60`) needs none of
//!   this.
//! - A list's key given once is a list of one (given several times, the
//!   decoder has made it a list already).
//! - A number's or a boolean's text is read as one: `count=3` is checked
//!   and typed as the number 3. Text that is not of the type stays text,
//!   and validation then names the field and its type.
//! - Where the schema allows null, the text `null` is null: a form has no
//!   other way to say it.
//! - In a `multipart/form-data` body ([`read_parts`]), a part for an object
//!   or a list of objects is JSON (OpenAPI's default `contentType` for
//!   one), whether or not the part says so; one object given for a list
//!   is a list of one.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::json::{Object, Value};

/// How the fields of a form body are read.
#[derive(Debug)]
pub enum Shape {
    /// Text, or anything not read from text (it is left as it is).
    Text,
    Integer,
    Number,
    Boolean,
    /// A file (a `format: binary` string), of at most this many bytes (its
    /// `maxLength`): a multipart part of this shape streams to the method
    /// ([`Multipart`](crate::stream::Multipart)); a form's field is text.
    File(Option<u64>),
    /// The text `null` is null; other values are read by the inner shape.
    Nullable(&'static Shape),
    /// Every declared property, and the shape of any other property
    /// (`None`: the object accepts no other property).
    Object(
        &'static [(&'static str, &'static Shape)],
        Option<&'static Shape>,
    ),
    /// Every item has this shape.
    List(&'static Shape),
    /// A shape built at run time (the mock's), where a schema that refers
    /// to itself cannot be a cycle of statics.
    Deferred(&'static OnceLock<Shape>),
}

type Properties = &'static [(&'static str, &'static Shape)];

/// Whether a multipart part named `name` of a body of `shape` is a file,
/// and its most bytes: a file property, a list of files, or an undeclared
/// part where the other properties are files.
pub(crate) fn file_part(shape: &Shape, name: &str) -> Option<Option<u64>> {
    let (properties, other) = shape.object()?;
    let property = properties
        .iter()
        .find(|(declared, _)| *declared == name)
        .map(|(_, shape)| *shape)
        .or(other)?;
    match property.resolved() {
        Shape::File(max) => Some(*max),
        Shape::List(item) => match item.resolved() {
            Shape::File(max) => Some(*max),
            _ => None,
        },
        _ => None,
    }
}

impl Shape {
    /// The shape itself, through [`Shape::Deferred`].
    fn resolved(&self) -> &Shape {
        match self {
            Shape::Deferred(lock) => lock.get().map_or(&Shape::Text, Shape::resolved),
            shape => shape,
        }
    }

    /// The properties of an object shape, through `null`.
    fn object(&self) -> Option<(Properties, Option<&'static Shape>)> {
        match self.resolved() {
            Shape::Object(properties, other) => Some((properties, *other)),
            Shape::Nullable(inner) => inner.object(),
            _ => None,
        }
    }
}

/// What the fields are: a form's, or a multipart body's parts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fields {
    Form,
    /// A part for an object (or a list of objects) is JSON, OpenAPI's
    /// default `contentType` for one, whether or not the part says so.
    Parts,
}

/// Reads the decoded fields of a form body as `shape` says (see the module
/// documentation).
pub fn read(value: &mut Value<'_>, shape: &Shape) {
    read_fields(value, shape, Fields::Form);
}

/// [`read`] for the parts of a `multipart/form-data` body: text given for
/// an object, or a list of objects, is read as JSON (OpenAPI's default
/// `contentType` of such a part is `application/json`; clients often leave
/// the part's own `Content-Type` out).
pub fn read_parts(value: &mut Value<'_>, shape: &Shape) {
    read_fields(value, shape, Fields::Parts);
}

fn read_fields(value: &mut Value<'_>, shape: &Shape, fields: Fields) {
    if let (Value::Object(object), Some((properties, other))) = (&mut *value, shape.object()) {
        gather(object, properties, other);
    }
    coerce(value, shape, fields);
}

/// Moves each top-level field the body does not declare into the object
/// property it was spread from: the one declaring it, or where several do,
/// the one declaring most of the fields to place (objects spread side by
/// side often share a name or two, `id`, `active`, but not all of them).
fn gather<'a>(fields: &mut Object<'a>, properties: Properties, other: Option<&Shape>) {
    let undeclared: Vec<String> = fields
        .keys()
        .filter(|key| !properties.iter().any(|(name, _)| name == key))
        .map(str::to_owned)
        .collect();
    if undeclared.is_empty() {
        return;
    }
    let declares = |shape: &Shape, key: &str| {
        shape
            .object()
            .is_some_and(|(inner, _)| inner.iter().any(|(name, _)| *name == key))
    };
    let claims: Vec<usize> = properties
        .iter()
        .map(|(_, shape)| undeclared.iter().filter(|key| declares(shape, key)).count())
        .collect();
    // Where no object declares the field, a map (an object declaring
    // nothing) is likelier its home than an open object that declares
    // other fields.
    let accepts = |shape: &Shape| match shape.object() {
        Some((declared, Some(_))) => Some(!declared.is_empty()),
        _ => None,
    };
    let free = |fields: &Object<'_>, home: &str, key: &str| match fields.get(home) {
        None => true,
        Some(Value::Object(object)) => !object.contains_key(key),
        Some(_) => false,
    };
    for key in undeclared.iter() {
        // The objects declaring the field, those declaring most first (in
        // declaration order among equals), the first that can take it.
        let mut declaring: Vec<(&(&'static str, &'static Shape), usize)> = properties
            .iter()
            .zip(claims.iter().copied())
            .filter(|((_, shape), _)| declares(shape, key))
            .collect();
        declaring.sort_by_key(|(_, claims)| std::cmp::Reverse(*claims));
        let declared = !declaring.is_empty();
        let declared_home = declaring
            .into_iter()
            .map(|(property, _)| property)
            .find(|(home, _)| free(fields, home, key));
        let home = declared_home.or_else(|| {
            (!declared && other.is_none())
                .then(|| {
                    properties
                        .iter()
                        .filter_map(|property| Some((accepts(property.1)?, property)))
                        .min_by_key(|(declares_others, _)| *declares_others)
                        .map(|(_, property)| property)
                })
                .flatten()
                .filter(|(home, _)| free(fields, home, key))
        });
        let Some((home, _)) = home else {
            continue;
        };
        let Some((name, field)) = fields.remove(key) else {
            continue;
        };
        if let Value::Object(object) =
            fields.get_or_insert_with(Cow::Borrowed(home), || Value::Object(Object::new()))
        {
            object.push(name, field);
        }
    }
}

/// Whether a value of `shape` is an object or a list of objects (`null`
/// aside).
fn holds_objects(shape: &Shape) -> bool {
    match shape.resolved() {
        Shape::Nullable(inner) => holds_objects(inner),
        Shape::List(item) => item.object().is_some(),
        shape => shape.object().is_some(),
    }
}

/// Whether a value of `shape` is a list (`null` aside).
fn is_list(shape: &Shape) -> bool {
    match shape.resolved() {
        Shape::Nullable(inner) => is_list(inner),
        shape => matches!(shape, Shape::List(_)),
    }
}

/// Reads the text fields of `value` as `shape` says.
fn coerce(value: &mut Value<'_>, shape: &Shape, fields: Fields) {
    let coerce = |value: &mut Value<'_>, shape: &Shape| coerce(value, shape, fields);
    if fields == Fields::Parts
        && holds_objects(shape)
        && let Value::String(text) = &*value
        && let Ok(json @ (serde_json::Value::Object(_) | serde_json::Value::Array(_))) =
            serde_json::from_str::<serde_json::Value>(text)
    {
        // One item's part, given once, is a list of one, as any list's is.
        *value = Value::from(match json {
            object @ serde_json::Value::Object(_) if is_list(shape) => {
                serde_json::Value::Array(vec![object])
            }
            json => json,
        });
        return;
    }
    match (shape.resolved(), value) {
        (Shape::Nullable(_), value @ Value::String(_)) if value.as_str() == Some("null") => {
            *value = Value::Null;
        }
        (Shape::Nullable(inner), value) => coerce(value, inner),
        (Shape::Integer, value @ Value::String(_)) => {
            let text = value.as_str().unwrap_or_default();
            if let Some(number) = text
                .parse::<i64>()
                .ok()
                .map(serde_json::Number::from)
                .or_else(|| text.parse::<u64>().ok().map(serde_json::Number::from))
            {
                *value = Value::Number(number);
            }
        }
        (Shape::Number, value @ Value::String(_)) => {
            let text = value.as_str().unwrap_or_default();
            let number = text
                .parse::<i64>()
                .ok()
                .map(serde_json::Number::from)
                .or_else(|| {
                    text.parse::<f64>()
                        .ok()
                        .and_then(serde_json::Number::from_f64)
                });
            if let Some(number) = number {
                *value = Value::Number(number);
            }
        }
        (Shape::Boolean, value @ Value::String(_)) => match value.as_str() {
            Some("true") => *value = Value::Bool(true),
            Some("false") => *value = Value::Bool(false),
            _ => {}
        },
        (Shape::Object(properties, other), Value::Object(object)) => {
            for (name, child) in object.iter_mut() {
                match properties.iter().find(|(known, _)| *known == name) {
                    Some((_, shape)) => coerce(child, shape),
                    None => {
                        if let Some(shape) = other {
                            coerce(child, shape);
                        }
                    }
                }
            }
        }
        (Shape::List(_), value @ Value::String(_)) => {
            let mut one = Value::Array(vec![std::mem::replace(value, Value::Null)]);
            coerce(&mut one, shape);
            *value = one;
        }
        (Shape::List(item), Value::Array(items)) => {
            for child in items {
                coerce(child, item);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::form_to_value;

    static LIMITS: Shape =
        Shape::Object(&[("max", &Shape::Integer), ("ratio", &Shape::Number)], None);
    static NODE: Shape = Shape::Object(
        &[
            ("count", &Shape::Integer),
            ("enabled", &Shape::Boolean),
            ("name", &Shape::Text),
            ("limits", &LIMITS),
            ("scores", &Shape::List(&Shape::Number)),
            ("tags", &Shape::List(&Shape::Text)),
            ("at", &Shape::Nullable(&Shape::Integer)),
            ("note", &Shape::Nullable(&Shape::Text)),
            // A schema that refers to itself.
            ("children", &Shape::List(&NODE)),
        ],
        Some(&Shape::Boolean),
    );
    static CLOSED: Shape = Shape::Object(
        &[
            ("name", &Shape::Text),
            ("limits", &LIMITS),
            (
                "window",
                &Shape::Object(&[("seconds", &Shape::Integer)], Some(&Shape::Text)),
            ),
            ("labels", &Shape::Object(&[], Some(&Shape::Text))),
        ],
        None,
    );

    static SHARED: Shape = Shape::Object(
        &[
            ("name", &Shape::Text),
            ("limits", &LIMITS),
            (
                "window",
                &Shape::Object(
                    &[("max", &Shape::Integer), ("seconds", &Shape::Integer)],
                    None,
                ),
            ),
        ],
        None,
    );

    fn read_form(body: &str, shape: &Shape) -> serde_json::Value {
        let mut value = form_to_value(body.as_bytes()).unwrap();
        read(&mut value, shape);
        value.to_json()
    }

    #[test]
    fn form_fields_are_read_as_their_type() {
        let body = "count=3&enabled=true&name=7&limits[max]=10&limits[ratio]=0.5\
                    &scores[]=1&scores[]=2.5&children[0][count]=4&extra=false";
        assert_eq!(
            read_form(body, &NODE),
            serde_json::json!({
                "count": 3, "enabled": true, "name": "7",
                "limits": {"max": 10, "ratio": 0.5},
                "scores": [1, 2.5], "children": [{"count": 4}], "extra": false
            })
        );
    }

    #[test]
    fn text_not_of_the_type_stays_text_for_validation_to_name() {
        assert_eq!(
            read_form("count=three&enabled=yes", &NODE),
            serde_json::json!({"count": "three", "enabled": "yes"})
        );
    }

    #[test]
    fn openapi_default_encoding_lists_and_spread_objects() {
        // `style: form, explode: true`: a list's key once per item (once is
        // a list of one), an object's fields at the top level.
        assert_eq!(
            read_form("scores=1&scores=2.5&tags=a&max=10&ratio=0.5", &NODE),
            serde_json::json!({
                "scores": [1, 2.5], "tags": ["a"], "limits": {"max": 10, "ratio": 0.5}
            })
        );
        // A field spread beside bracket notation of the same object.
        assert_eq!(
            read_form("limits[max]=10&ratio=0.5", &NODE),
            serde_json::json!({"limits": {"max": 10, "ratio": 0.5}})
        );
        // An undeclared field stays where the body accepts it...
        assert_eq!(
            read_form("extra=true", &NODE),
            serde_json::json!({"extra": true})
        );
        // ...and goes to the object that accepts any field where the body
        // accepts none, a map rather than an open object.
        assert_eq!(
            read_form("name=n&region=eu&seconds=5", &CLOSED),
            serde_json::json!({
                "name": "n", "labels": {"region": "eu"}, "window": {"seconds": 5}
            })
        );
        // Objects sharing a field name: each field goes with the object
        // declaring most of those sent.
        assert_eq!(
            read_form("max=3&seconds=4&name=n", &SHARED),
            serde_json::json!({"name": "n", "window": {"max": 3, "seconds": 4}})
        );
        assert_eq!(
            read_form("max=3&ratio=0.5", &SHARED),
            serde_json::json!({"limits": {"max": 3, "ratio": 0.5}})
        );
        // An object that cannot take the field (it was sent as text) leaves
        // it to the next that declares it.
        assert_eq!(
            read_form("window=null&max=3", &SHARED),
            serde_json::json!({"window": "null", "limits": {"max": 3}})
        );
        // A field given both ways is left for validation to name.
        assert_eq!(
            read_form("limits[max]=1&max=2", &CLOSED),
            serde_json::json!({"limits": {"max": 1}, "max": "2", })
        );
    }

    #[test]
    fn null_text_is_null_where_the_schema_allows_null() {
        assert_eq!(
            read_form("at=null&note=null&name=null", &NODE),
            serde_json::json!({"at": null, "note": null, "name": "null"})
        );
        assert_eq!(read_form("at=5", &NODE), serde_json::json!({"at": 5}));
    }

    #[test]
    fn parts_for_objects_are_json_and_form_fields_are_not() {
        static ITEM: Shape = Shape::Object(&[("count", &Shape::Integer)], None);
        static BODY: Shape = Shape::Object(
            &[
                ("poll", &Shape::Nullable(&ITEM)),
                ("items", &Shape::List(&ITEM)),
                ("note", &Shape::Text),
                ("more", &Shape::Nullable(&Shape::List(&ITEM))),
            ],
            None,
        );
        let fields = || {
            let mut object = Object::new();
            for (name, text) in [
                ("poll", r#"{"count": 1}"#),
                ("items", r#"[{"count": 2}]"#),
                ("note", r#"{"count": 3}"#),
                ("more", r#"{"count": 4}"#),
            ] {
                object.push(Cow::Borrowed(name), Value::String(Cow::Borrowed(text)));
            }
            Value::Object(object)
        };
        let mut parts = fields();
        read_parts(&mut parts, &BODY);
        assert_eq!(
            parts.to_json(),
            serde_json::json!({
                "poll": {"count": 1},
                "items": [{"count": 2}],
                "note": r#"{"count": 3}"#,
                "more": [{"count": 4}],
            })
        );
        let mut form = fields();
        read(&mut form, &BODY);
        assert_eq!(form.to_json()["poll"], r#"{"count": 1}"#);
        let mut null = Value::Object(Object::new());
        if let Value::Object(object) = &mut null {
            object.push(Cow::Borrowed("poll"), Value::String(Cow::Borrowed("null")));
        }
        read_parts(&mut null, &BODY);
        assert_eq!(null.to_json(), serde_json::json!({"poll": null}));
    }

    #[test]
    fn deferred_shapes_are_read_as_their_target() {
        static LATER: OnceLock<Shape> = OnceLock::new();
        static ROOT: Shape = Shape::Deferred(&LATER);
        LATER
            .set(Shape::Object(&[("count", &Shape::Integer)], None))
            .unwrap();
        assert_eq!(read_form("count=2", &ROOT), serde_json::json!({"count": 2}));
    }
}
