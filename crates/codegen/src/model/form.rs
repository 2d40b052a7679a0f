//! How a form body's text becomes the JSON its schema describes.
//!
//! An `application/x-www-form-urlencoded` body is a list of text fields.
//! OpenAPI's default encoding for it (each property as a query parameter
//! of `style: form, explode: true`) spreads an object property's fields at
//! the top level and repeats an array property's key once per item; the
//! runtime also reads bracket notation (`window[seconds]=60`,
//! `weights[]=1`). Neither says which text is a number, a boolean or null,
//! nor where a spread field belongs: only the schema does. A [`FormShape`]
//! is the part of a schema that answers, derived here once from the
//! validation's [`Check`]s; the server emitter renders the shapes as
//! statics and the mock builds them at run time, so both read a form alike.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::validation::{Additional, Check, ObjectCheck};

/// What the runtime does with a form field of a schema.
#[derive(Debug, Clone, PartialEq)]
pub enum FormShape {
    /// Text, or anything a form's text is not read as (left as it is).
    Text,
    /// Text read as a number or a boolean when it is one.
    Scalar(FormScalar),
    /// A file (`format: binary`) of at most this many bytes (its
    /// `maxLength`): a multipart part of this shape streams to the server's
    /// method; a form's field is text.
    File(Option<u64>),
    /// The text `null` is null (a form has no other way to say it); other
    /// text is read by the inner shape.
    Nullable(Box<FormShape>),
    Object(FormObject),
    /// A list: a key given once is a list of one.
    List(Box<FormShape>),
    /// The shape of a named schema, in [`FormShapes::named`].
    Schema(String),
}

/// An object's declared properties, and how the others are read.
#[derive(Debug, Clone, PartialEq)]
pub struct FormObject {
    /// Every declared property, in spec order.
    pub properties: Vec<(String, FormShape)>,
    /// The shape of any other property; `None` where the schema accepts no
    /// other property, which is where a spread field may not stay.
    pub other: Option<Box<FormShape>>,
}

/// The shapes of the schemas that form bodies reach.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FormShapes {
    /// Every schema a form body reaches whose shape is more than text, by
    /// name.
    pub named: BTreeMap<String, FormShape>,
}

/// What a form's text field is read as, where its schema says number or
/// boolean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormScalar {
    Integer,
    Number,
    Boolean,
}

/// The scalar an `enum`'s values share, if they are all integers, numbers
/// or booleans.
fn values_scalar(values: &[Value]) -> Option<FormScalar> {
    if values.is_empty() {
        None
    } else if values.iter().all(|value| value.is_i64() || value.is_u64()) {
        Some(FormScalar::Integer)
    } else if values.iter().all(Value::is_number) {
        Some(FormScalar::Number)
    } else if values.iter().all(Value::is_boolean) {
        Some(FormScalar::Boolean)
    } else {
        None
    }
}

/// How deep `$ref`s are followed without reaching a shape: a schema that
/// is only an `allOf` of itself has none.
const MAX_DEPTH: usize = 64;

impl FormShapes {
    /// The shapes of `roots` (the schemas of form bodies) and of every
    /// schema they reach; `validator` gives the check of a named schema.
    pub fn new<'c>(
        roots: impl IntoIterator<Item = &'c str>,
        validator: &impl Fn(&str) -> Option<&'c Check>,
    ) -> Self {
        let roots: Vec<String> = roots.into_iter().map(str::to_owned).collect();
        let mut pending = roots.clone();
        let mut named = BTreeMap::new();
        while let Some(name) = pending.pop() {
            if named.contains_key(&name) {
                continue;
            }
            let shape = match validator(&name) {
                Some(check) => shape_of(check, validator, 0),
                None => FormShape::Text,
            };
            shape.refs(&mut |reached| pending.push(reached.to_owned()));
            named.insert(name, shape);
        }
        // A schema that is another's (an `allOf` of one `$ref`) takes its
        // shape: a static cannot be another static by value.
        let aliases: Vec<(String, FormShape)> = named
            .iter()
            .filter_map(|(name, shape)| {
                let mut shape = shape;
                for _ in 0..=named.len() {
                    match shape {
                        FormShape::Schema(target) => shape = named.get(target)?,
                        shape => return Some((name.clone(), shape.clone())),
                    }
                }
                None
            })
            .collect();
        for (name, shape) in aliases {
            named.insert(name, shape);
        }
        // A schema whose fields are all text needs no shape: its uses read
        // as text. Except an object property of a body: its declared names
        // say where spread fields go.
        let declarers: BTreeSet<&str> = roots
            .iter()
            .filter_map(|root| match named.get(root) {
                Some(FormShape::Object(object)) => Some(&object.properties),
                _ => None,
            })
            .flatten()
            .filter_map(|(_, shape)| shape.schema_through_null())
            .filter(|name| matches!(named.get(*name), Some(FormShape::Object(_))))
            .collect();
        let mut text: BTreeSet<String> = BTreeSet::new();
        loop {
            let found: Vec<String> = named
                .iter()
                .filter(|(name, shape)| {
                    !text.contains(*name)
                        && !declarers.contains(name.as_str())
                        && shape.is_text(&text, &named)
                })
                .map(|(name, _)| name.clone())
                .collect();
            if found.is_empty() {
                break;
            }
            text.extend(found);
        }
        let mut named: BTreeMap<String, FormShape> = named
            .into_iter()
            .filter(|(name, _)| !text.contains(name))
            .collect();
        for shape in named.values_mut() {
            shape.forget(&text);
        }
        // Only the shapes the bodies use, through references: one an alias
        // took the place of is left unused.
        let mut used: BTreeSet<String> = BTreeSet::new();
        let mut pending: Vec<String> = roots
            .into_iter()
            .filter(|root| named.contains_key(root))
            .collect();
        while let Some(name) = pending.pop() {
            if used.insert(name.clone())
                && let Some(shape) = named.get(&name)
            {
                shape.refs(&mut |reached| pending.push(reached.to_owned()));
            }
        }
        named.retain(|name, _| used.contains(name));
        Self { named }
    }

    /// The shape of the form body of schema `name`, `None` for text.
    pub fn root(&self, name: &str) -> Option<&FormShape> {
        self.named.get(name)
    }
}

impl FormShape {
    /// Whether the runtime has nothing to do with a value of this shape,
    /// the schemas in `text` being text: text, or an object of text fields
    /// alone (an object field's declared names may be needed where the
    /// object is spread, so an object of objects is not).
    fn is_text(&self, text: &BTreeSet<String>, named: &BTreeMap<String, FormShape>) -> bool {
        let leaf = |shape: &FormShape| match shape {
            FormShape::Text => true,
            FormShape::Schema(target) => text.contains(target) || !named.contains_key(target),
            _ => false,
        };
        match self {
            FormShape::Object(object) => {
                object.properties.iter().all(|(_, shape)| leaf(shape))
                    && object.other.as_deref().is_none_or(leaf)
            }
            shape => leaf(shape),
        }
    }

    /// The schema this shape is, `null` allowed or not.
    fn schema_through_null(&self) -> Option<&str> {
        match self {
            FormShape::Schema(name) => Some(name),
            FormShape::Nullable(inner) => inner.schema_through_null(),
            _ => None,
        }
    }

    fn refs(&self, found: &mut impl FnMut(&str)) {
        match self {
            FormShape::Schema(name) => found(name),
            FormShape::Nullable(inner) | FormShape::List(inner) => inner.refs(found),
            FormShape::Object(object) => {
                for (_, shape) in &object.properties {
                    shape.refs(found);
                }
                if let Some(other) = &object.other {
                    other.refs(found);
                }
            }
            FormShape::Text | FormShape::Scalar(_) | FormShape::File(_) => {}
        }
    }

    /// Turns references to the schemas in `text` into text.
    fn forget(&mut self, text: &BTreeSet<String>) {
        match self {
            FormShape::Schema(name) if text.contains(name) => *self = FormShape::Text,
            FormShape::Nullable(inner) | FormShape::List(inner) => inner.forget(text),
            FormShape::Object(object) => {
                for (_, shape) in &mut object.properties {
                    shape.forget(text);
                }
                if let Some(other) = &mut object.other {
                    other.forget(text);
                }
            }
            _ => {}
        }
    }
}

fn shape_of<'c>(
    check: &'c Check,
    validator: &impl Fn(&str) -> Option<&'c Check>,
    depth: usize,
) -> FormShape {
    if depth > MAX_DEPTH {
        return FormShape::Text;
    }
    let recurse = |check: &'c Check| shape_of(check, validator, depth + 1);
    match check {
        Check::Number(number) if number.integer => FormShape::Scalar(FormScalar::Integer),
        Check::Number(_) => FormShape::Scalar(FormScalar::Number),
        Check::Boolean => FormShape::Scalar(FormScalar::Boolean),
        Check::String(string) if string.format.as_deref() == Some("binary") => {
            FormShape::File(string.max_length.map(|max| max as u64))
        }
        Check::Values(values) => {
            let (nulls, others): (Vec<Value>, Vec<Value>) = values
                .texts()
                .iter()
                .filter_map(|text| serde_json::from_str(text).ok())
                .partition(Value::is_null);
            let scalar = values_scalar(&others).map_or(FormShape::Text, FormShape::Scalar);
            if nulls.is_empty() {
                scalar
            } else {
                FormShape::Nullable(Box::new(scalar))
            }
        }
        Check::Schema(name) => FormShape::Schema(name.clone()),
        Check::Nullable(inner) => FormShape::Nullable(Box::new(recurse(inner))),
        Check::WithMessage { check, .. } | Check::IfType(check) => recurse(check),
        Check::Object(object) => FormShape::Object(object_shape(object, &recurse)),
        Check::Array(array) => FormShape::List(Box::new(recurse(&array.items))),
        // `allOf`: the parts are read as one object, or as the one part
        // that is more than text; parts that are not objects (`{type:
        // integer, enum: [1, 2], allOf: [{$ref: Kind}]}`) say what the
        // value is, so the first of them is.
        Check::All(parts) => {
            let shapes: Vec<(&Check, FormShape)> = parts
                .iter()
                .map(|part| (part, recurse(part)))
                .filter(|(_, shape)| *shape != FormShape::Text)
                .collect();
            let not_object = shapes
                .iter()
                .find(|(part, _)| object_of(part, validator, depth + 1).is_none());
            match (&shapes[..], not_object) {
                ([], _) => FormShape::Text,
                ([(_, one)], _) | (_, Some((_, one))) => one.clone(),
                _ => {
                    let mut merged = FormObject {
                        properties: Vec::new(),
                        other: Some(Box::new(FormShape::Text)),
                    };
                    for part in parts {
                        merge_object(part, validator, &mut merged, depth + 1);
                    }
                    FormShape::Object(merged)
                }
            }
        }
        // `oneOf: [X, null]` (3.1's nullable X), or a choice of objects: a
        // form's fields may belong to any of them, so they are read as one
        // object declaring every variant's properties (the first
        // variant's shape where two declare one name).
        Check::Alternatives { variants, .. } => {
            let (nulls, others): (Vec<&Check>, Vec<&Check>) =
                variants.iter().partition(|variant| variant.is_only_null());
            let shape = match &others[..] {
                [one] => recurse(one),
                several => union(several.iter().copied(), validator, depth + 1),
            };
            if nulls.is_empty() {
                shape
            } else {
                FormShape::Nullable(Box::new(shape))
            }
        }
        Check::Discriminated { mapping, .. } => {
            let mut names: Vec<&str> = mapping
                .iter()
                .filter_map(|(_, check)| match check {
                    Check::Schema(name) => Some(name.as_str()),
                    _ => None,
                })
                .collect();
            names.dedup();
            union(
                names.into_iter().filter_map(validator),
                validator,
                depth + 1,
            )
        }
        // The server's own rules (`not`, `if`, ...), which typing and so
        // the form's reading do not follow.
        Check::Any
        | Check::Never
        | Check::String(_)
        | Check::Not(_)
        | Check::Conditional { .. }
        | Check::UnevaluatedProperties { .. }
        | Check::UnevaluatedItems { .. } => FormShape::Text,
        // The model names its schemas; only generated code links them.
        Check::Linked(_) => FormShape::Text,
    }
}

/// The variants of a choice read as one object, or text where one of them
/// is not an object.
fn union<'c>(
    variants: impl Iterator<Item = &'c Check>,
    validator: &impl Fn(&str) -> Option<&'c Check>,
    depth: usize,
) -> FormShape {
    let mut merged = FormObject {
        properties: Vec::new(),
        other: None,
    };
    for variant in variants {
        let Some(object) = object_of(variant, validator, depth) else {
            return FormShape::Text;
        };
        merge_into(&mut merged, object);
    }
    FormShape::Object(merged)
}

/// Adds `object`'s properties to `merged`; a name both declare keeps
/// `merged`'s shape, `null` allowed where either allows it, unless that
/// shape is text.
fn merge_into(merged: &mut FormObject, object: FormObject) {
    for (name, shape) in object.properties {
        match merged
            .properties
            .iter_mut()
            .find(|(known, _)| *known == name)
        {
            Some((_, known)) => *known = merge(std::mem::replace(known, FormShape::Text), shape),
            None => merged.properties.push((name, shape)),
        }
    }
    if merged.other.is_none() {
        merged.other = object.other;
    }
}

fn merge(first: FormShape, second: FormShape) -> FormShape {
    match (first, second) {
        // Text is read as it is: any variant reading the field (as a
        // number, null or a list) is one the value can match.
        (FormShape::Text, second) => second,
        (FormShape::Nullable(first), FormShape::Nullable(second)) => {
            FormShape::Nullable(Box::new(merge(*first, *second)))
        }
        (FormShape::Nullable(first), second) => {
            FormShape::Nullable(Box::new(merge(*first, second)))
        }
        (first, FormShape::Nullable(second)) => {
            FormShape::Nullable(Box::new(merge(first, *second)))
        }
        (FormShape::Object(mut first), FormShape::Object(second)) => {
            merge_into(&mut first, second);
            FormShape::Object(first)
        }
        (first, _) => first,
    }
}

/// The object shape of `check`, through `$ref`s; `None` if it is not one.
fn object_of<'c>(
    check: &'c Check,
    validator: &impl Fn(&str) -> Option<&'c Check>,
    depth: usize,
) -> Option<FormObject> {
    if depth > MAX_DEPTH {
        return None;
    }
    match shape_of(check, validator, depth) {
        FormShape::Object(object) => Some(object),
        FormShape::Schema(name) => object_of(validator(&name)?, validator, depth + 1),
        _ => None,
    }
}

fn object_shape<'c>(
    object: &'c ObjectCheck,
    shape: &impl Fn(&'c Check) -> FormShape,
) -> FormObject {
    let properties = object
        .known
        .iter()
        .map(|name| {
            let checked = object.properties.iter().find(|(known, _)| known == name);
            let form = checked.map_or(FormShape::Text, |(_, check)| shape(check));
            (name.clone(), form)
        })
        .collect();
    let other = match &object.additional {
        Additional::Allowed => Some(Box::new(FormShape::Text)),
        Additional::Checked(check) => Some(Box::new(shape(check))),
        Additional::Forbidden if object.patterns.is_empty() => None,
        Additional::Forbidden => Some(Box::new(FormShape::Text)),
    };
    FormObject { properties, other }
}

/// Adds the properties of an `allOf` part (through `$ref`s) to `merged`;
/// a part that forbids other properties closes the merged object.
fn merge_object<'c>(
    check: &'c Check,
    validator: &impl Fn(&str) -> Option<&'c Check>,
    merged: &mut FormObject,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match check {
        Check::Object(object) => {
            let part = object_shape(object, &|check| shape_of(check, validator, depth + 1));
            for (name, shape) in part.properties {
                if !merged.properties.iter().any(|(known, _)| *known == name) {
                    merged.properties.push((name, shape));
                }
            }
            if part.other.is_none() {
                merged.other = None;
            }
        }
        Check::Schema(name) => {
            if let Some(check) = validator(name) {
                merge_object(check, validator, merged, depth + 1);
            }
        }
        Check::All(parts) => {
            for part in parts {
                merge_object(part, validator, merged, depth + 1);
            }
        }
        Check::WithMessage { check, .. } | Check::IfType(check) => {
            merge_object(check, validator, merged, depth + 1);
        }
        // A choice of objects beside an object's own keywords (`{type:
        // object, oneOf: [...]}`): its variants' properties.
        Check::Alternatives { .. } | Check::Discriminated { .. } => {
            if let FormShape::Object(part) = shape_of(check, validator, depth + 1) {
                for (name, shape) in part.properties {
                    if !merged.properties.iter().any(|(known, _)| *known == name) {
                        merged.properties.push((name, shape));
                    }
                }
                if part.other.is_none() {
                    merged.other = None;
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::validation::compile_schemas;
    use serde_json::json;

    fn shapes(schemas: &[(&str, serde_json::Value)], root: &str) -> FormShapes {
        let components: serde_json::Map<String, serde_json::Value> = schemas
            .iter()
            .map(|(name, schema)| (name.to_string(), schema.clone()))
            .collect();
        let document = json!({
            "openapi": "3.0.3",
            "info": {"title": "t", "version": "1"},
            "paths": {},
            "components": {"schemas": components},
        });
        let spec = crate::load::parse_spec(
            std::path::Path::new("test.yaml"),
            document.to_string().as_bytes(),
        )
        .unwrap();
        let validators = compile_schemas(&spec, [root.to_owned()]).unwrap();
        let checks: BTreeMap<&str, &Check> = validators
            .iter()
            .map(|validator| (validator.schema.as_str(), &validator.check))
            .collect();
        FormShapes::new([root], &|name| checks.get(name).copied())
    }

    #[test]
    fn declared_properties_other_properties_and_null() {
        let found = shapes(
            &[
                (
                    "Body",
                    json!({
                        "type": "object",
                        "additionalProperties": false,
                        "properties": {
                            "name": {"type": "string"},
                            "count": {"type": "integer", "nullable": true},
                            "tags": {"type": "array", "items": {"type": "string"}},
                            "mode": {"enum": ["a", null], "nullable": true},
                            "inner": {"$ref": "#/components/schemas/Inner"},
                            "label": {"$ref": "#/components/schemas/Label"}
                        }
                    }),
                ),
                (
                    "Inner",
                    json!({"type": "object", "additionalProperties": {"type": "boolean"}}),
                ),
                ("Label", json!({"type": "string"})),
            ],
            "Body",
        );
        let FormShape::Object(body) = found.root("Body").unwrap() else {
            panic!("{found:?}");
        };
        assert_eq!(body.other, None);
        let property = |name: &str| {
            &body
                .properties
                .iter()
                .find(|(known, _)| known == name)
                .unwrap()
                .1
        };
        assert_eq!(property("name"), &FormShape::Text);
        assert_eq!(
            property("count"),
            &FormShape::Nullable(Box::new(FormShape::Scalar(FormScalar::Integer)))
        );
        assert_eq!(
            property("tags"),
            &FormShape::List(Box::new(FormShape::Text))
        );
        assert_eq!(
            property("mode"),
            &FormShape::Nullable(Box::new(FormShape::Text))
        );
        assert_eq!(property("inner"), &FormShape::Schema("Inner".into()));
        // A schema of text needs no shape of its own.
        assert_eq!(property("label"), &FormShape::Text);
        assert_eq!(found.root("Label"), None);
        assert_eq!(
            found.root("Inner"),
            Some(&FormShape::Object(FormObject {
                properties: Vec::new(),
                other: Some(Box::new(FormShape::Scalar(FormScalar::Boolean))),
            }))
        );
    }

    #[test]
    fn a_one_of_with_null_is_nullable_and_all_of_merges() {
        let found = shapes(
            &[(
                "Body",
                json!({
                    "allOf": [
                        {"type": "object", "properties": {
                            "at": {"oneOf": [{"type": "integer"}, {"nullable": true}]}
                        }},
                        {"type": "object", "additionalProperties": false, "properties": {
                            "on": {"type": "boolean"}
                        }}
                    ]
                }),
            )],
            "Body",
        );
        assert_eq!(
            found.root("Body"),
            Some(&FormShape::Object(FormObject {
                properties: vec![
                    (
                        "at".into(),
                        FormShape::Nullable(Box::new(FormShape::Scalar(FormScalar::Integer)))
                    ),
                    ("on".into(), FormShape::Scalar(FormScalar::Boolean)),
                ],
                other: None,
            }))
        );
    }

    #[test]
    fn an_all_of_beside_a_scalar_is_that_scalar() {
        let found = shapes(
            &[
                (
                    "Body",
                    json!({"type": "object", "properties": {
                        "kind": {"oneOf": [
                            {"type": "integer", "enum": [1, 2],
                             "allOf": [{"$ref": "#/components/schemas/Kind"}]},
                            {"nullable": true}
                        ]}
                    }}),
                ),
                ("Kind", json!({"type": "integer", "enum": [1, 2]})),
            ],
            "Body",
        );
        let FormShape::Object(body) = found.root("Body").unwrap() else {
            panic!("{found:?}");
        };
        assert_eq!(
            body.properties,
            [(
                "kind".to_string(),
                FormShape::Nullable(Box::new(FormShape::Schema("Kind".into())))
            )],
            "not an object merging `Kind`'s properties"
        );
        assert_eq!(
            found.root("Kind"),
            Some(&FormShape::Scalar(FormScalar::Integer))
        );
    }

    #[test]
    fn objects_of_text_have_no_shape_unless_a_body_may_spread_them() {
        let text = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let found = shapes(
            &[
                (
                    "Body",
                    json!({"type": "object", "properties": {
                        "spread": {"$ref": "#/components/schemas/Spread"},
                        "items": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}
                    }}),
                ),
                ("Spread", text.clone()),
                ("Item", text.clone()),
                (
                    "Alias",
                    json!({"allOf": [{"$ref": "#/components/schemas/Body"}]}),
                ),
                ("Flat", text),
            ],
            "Body",
        );
        assert_eq!(found.named.keys().collect::<Vec<_>>(), ["Body", "Spread"]);
        let FormShape::Object(body) = found.root("Body").unwrap() else {
            panic!("{found:?}");
        };
        assert_eq!(
            body.properties[1].1,
            FormShape::List(Box::new(FormShape::Text))
        );
        let flat = shapes(
            &[(
                "Flat",
                json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            )],
            "Flat",
        );
        assert_eq!(flat.named, BTreeMap::new());
        // An `allOf` of one `$ref` is the shape of its target.
        let alias = shapes(
            &[
                (
                    "Alias",
                    json!({"allOf": [{"$ref": "#/components/schemas/Limit"}]}),
                ),
                (
                    "Limit",
                    json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
                ),
            ],
            "Alias",
        );
        assert!(alias.root("Alias").is_some());
        // ...and the target, used by no body, has no static of its own.
        assert_eq!(alias.named.keys().collect::<Vec<_>>(), ["Alias"]);
    }

    #[test]
    fn a_choice_of_objects_is_read_as_one_object() {
        let found = shapes(
            &[
                (
                    "Body",
                    json!({"type": "object", "additionalProperties": false, "properties": {
                        "setup": {"oneOf": [
                            {"$ref": "#/components/schemas/Key"},
                            {"type": "object", "additionalProperties": false, "properties": {
                                "url": {"type": "string"},
                                "port": {"type": "integer", "nullable": true}
                            }}
                        ]},
                        "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                        "configuration": {"type": "object", "oneOf": [
                            {"type": "object", "additionalProperties": false, "properties": {
                                "action": {"enum": ["allow"]}
                            }},
                            {"type": "object", "additionalProperties": false, "properties": {
                                "action": {"enum": ["block"]}, "limit": {"type": "integer"}
                            }}
                        ]}
                    }}),
                ),
                (
                    "Key",
                    json!({"type": "object", "additionalProperties": false, "properties": {
                        "key": {"type": "string"}, "port": {"type": "string"}
                    }}),
                ),
            ],
            "Body",
        );
        let FormShape::Object(body) = found.root("Body").unwrap() else {
            panic!("{found:?}");
        };
        assert_eq!(
            body.properties[0].1,
            FormShape::Object(FormObject {
                properties: vec![
                    ("key".into(), FormShape::Text),
                    // The variant that reads the text, not the text one.
                    (
                        "port".into(),
                        FormShape::Nullable(Box::new(FormShape::Scalar(FormScalar::Integer)))
                    ),
                    ("url".into(), FormShape::Text),
                ],
                other: None,
            })
        );
        // A choice that is not of objects alone is left as text.
        assert_eq!(body.properties[1].1, FormShape::Text);
        // A choice beside an object's own keywords.
        assert_eq!(
            body.properties[2].1,
            FormShape::Object(FormObject {
                properties: vec![
                    ("action".into(), FormShape::Text),
                    ("limit".into(), FormShape::Scalar(FormScalar::Integer)),
                ],
                other: None,
            })
        );
    }

    #[test]
    fn a_schema_that_refers_to_itself_is_one_shape() {
        let found = shapes(
            &[(
                "Node",
                json!({"type": "object", "properties": {
                    "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}
                }}),
            )],
            "Node",
        );
        assert_eq!(found.named.len(), 1);
        let FormShape::Object(node) = found.root("Node").unwrap() else {
            panic!("{found:?}");
        };
        assert_eq!(
            node.properties[0].1,
            FormShape::List(Box::new(FormShape::Schema("Node".into())))
        );
    }
}
