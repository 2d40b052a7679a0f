//! The model's form shapes (`openapi_crates_codegen::model::form`), which the
//! generated server renders as statics, built at start-up as the runtime's
//! `form::Shape`s, so the mock reads a form's fields as the server does.
//! A schema that refers to itself is a cycle, which run-time values reach
//! through a `Shape::Deferred` per schema. They live as long as the mock,
//! like its checks, so they are leaked once.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use openapi_crates_codegen::model::form::{FormScalar, FormShape, FormShapes};
use openapi_crates_runtime::form::Shape;

/// The shape of each schema a form body reaches, by name.
pub(crate) struct Forms {
    named: BTreeMap<&'static str, &'static Shape>,
}

impl Forms {
    pub(crate) fn new(shapes: &'static FormShapes) -> Self {
        let slots: BTreeMap<&'static str, &'static OnceLock<Shape>> = shapes
            .named
            .keys()
            .map(|name| (name.as_str(), &*Box::leak(Box::new(OnceLock::new()))))
            .collect();
        for (name, form) in &shapes.named {
            // Each slot is set once, here.
            let _ = slots[name.as_str()].set(build(form, &slots));
        }
        let named = slots
            .iter()
            .map(|(name, slot)| (*name, leak(Shape::Deferred(slot))))
            .collect();
        Self { named }
    }

    /// The shape of a form body of schema `name`, `None` for text only.
    pub(crate) fn root(&self, name: &str) -> Option<&'static Shape> {
        self.named.get(name).copied()
    }
}

fn leak(shape: Shape) -> &'static Shape {
    Box::leak(Box::new(shape))
}

fn build(
    form: &'static FormShape,
    slots: &BTreeMap<&'static str, &'static OnceLock<Shape>>,
) -> Shape {
    let inner = |form: &'static FormShape| leak(build(form, slots));
    match form {
        FormShape::Text => Shape::Text,
        FormShape::Scalar(FormScalar::Integer) => Shape::Integer,
        FormShape::Scalar(FormScalar::Number) => Shape::Number,
        FormShape::Scalar(FormScalar::Boolean) => Shape::Boolean,
        FormShape::File(max) => Shape::File(*max),
        FormShape::Nullable(form) => Shape::Nullable(inner(form)),
        FormShape::List(form) => Shape::List(inner(form)),
        FormShape::Object(object) => {
            let properties: Vec<(&'static str, &'static Shape)> = object
                .properties
                .iter()
                .map(|(name, form)| (name.as_str(), inner(form)))
                .collect();
            Shape::Object(
                Box::leak(properties.into_boxed_slice()),
                object.other.as_deref().map(inner),
            )
        }
        // A schema the model has no shape for is text.
        FormShape::Schema(name) => slots
            .get(name.as_str())
            .map_or(Shape::Text, |slot| Shape::Deferred(slot)),
    }
}
