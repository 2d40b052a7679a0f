//! The one progenitor run behind the types and client crates.
//!
//! Progenitor converts the schemas with typify and builds the client in one
//! pass. Its client puts every type in a `types` module; the types crate is
//! exactly that module's contents (the run's type space), and the client
//! crate re-exports the types crate in its place. One run, so the two cannot
//! disagree, and no type is named twice: not the component schemas, nor the
//! types typify derives from parameters or inline schemas.

use proc_macro2::TokenStream;
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::emit::run_generator;
use crate::load::LoadedSpec;
use crate::model::{FORM, parse_openapi};

/// What the types crate needs from its dependencies, as typify reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TypeDependencies {
    pub chrono: bool,
    pub regress: bool,
    pub serde_json: bool,
    pub uuid: bool,
}

pub struct ProgenitorOutput {
    /// The client, with its `types` module.
    pub client: TokenStream,
    /// The contents of that `types` module.
    pub types: TokenStream,
    pub dependencies: TypeDependencies,
}

/// Settings of the run: builder-style methods, derived `PartialEq`, ordered
/// maps (so open maps such as vendor keys serialize in a stable order), and
/// the client's inner value, where hooks keep their state.
fn settings() -> progenitor::GenerationSettings {
    let mut settings = progenitor::GenerationSettings::default();
    settings
        .with_interface(progenitor::InterfaceStyle::Builder)
        .with_tag(progenitor::TagStyle::Merged)
        .with_derive("PartialEq")
        .with_map_type("::std::collections::BTreeMap")
        .with_inner_type(quote::quote!(crate::hooks::Hooks))
        .with_hooks(progenitor::HooksMode::Expected);
    settings
}

pub fn run(spec: &LoadedSpec) -> Result<ProgenitorOutput, Diagnostic> {
    let openapi = parse_openapi(&LoadedSpec {
        document: progenitor_view(&spec.document),
        ..spec.clone()
    })?;
    run_generator(spec, "generating the types and the client", || {
        let mut generator = progenitor::Generator::new(&settings());
        let client = generator
            .generate_tokens(&openapi)
            .map_err(|err| err.to_string())?;
        let type_space = generator.get_type_space();
        Ok(ProgenitorOutput {
            client,
            types: type_space.to_stream(),
            dependencies: TypeDependencies {
                chrono: type_space.uses_chrono(),
                regress: type_space.uses_regress(),
                serde_json: type_space.uses_serde_json(),
                uuid: type_space.uses_uuid(),
            },
        })
    })
}

/// The document as progenitor gets it, with two adaptations that do not
/// change what the spec means:
/// - request bodies keep JSON only: progenitor can send one media type per
///   operation, and the service accepts JSON wherever it accepts a form;
/// - `minLength: 0` and `minItems: 0` hold for every value, and typify would
///   render them as comparisons with zero that clippy rejects.
fn progenitor_view(document: &Value) -> Value {
    let mut document = document.clone();
    if let Some(Value::Object(paths)) = document.get_mut("paths") {
        for item in paths.values_mut().filter_map(Value::as_object_mut) {
            for operation in item.values_mut() {
                if let Some(Value::Object(content)) = operation.pointer_mut("/requestBody/content")
                {
                    content.shift_remove(FORM);
                }
            }
        }
    }
    if let Some(Value::Object(bodies)) = document.pointer_mut("/components/requestBodies") {
        for body in bodies.values_mut() {
            if let Some(Value::Object(content)) = body.get_mut("content") {
                content.shift_remove(FORM);
            }
        }
    }
    drop_zero_minimums(&mut document);
    document
}

fn drop_zero_minimums(value: &mut Value) {
    match value {
        Value::Object(object) => {
            for keyword in ["minLength", "minItems"] {
                if object.get(keyword).and_then(Value::as_u64) == Some(0) {
                    object.shift_remove(keyword);
                }
            }
            for (key, child) in object.iter_mut() {
                if !key.starts_with("x-") && key != "example" && key != "default" {
                    drop_zero_minimums(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(drop_zero_minimums),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn progenitor_sees_json_bodies_and_no_zero_minimums() {
        let document = json!({
            "paths": {"/a": {"post": {"requestBody": {"content": {
                "application/json": {"schema": {"type": "string", "minLength": 0, "maxLength": 3}},
                "application/x-www-form-urlencoded": {"schema": {"type": "string"}},
            }}}}},
            "components": {"requestBodies": {"B": {"content": {
                "application/x-www-form-urlencoded": {}, "application/json": {}}}},
                "schemas": {"L": {"type": "array", "minItems": 0, "example": {"minItems": 0}}}},
        });
        let view = progenitor_view(&document);
        assert_eq!(
            view["paths"]["/a"]["post"]["requestBody"]["content"],
            json!({"application/json": {"schema": {"type": "string", "maxLength": 3}}})
        );
        assert_eq!(
            view["components"]["requestBodies"]["B"]["content"],
            json!({"application/json": {}})
        );
        assert_eq!(
            view["components"]["schemas"]["L"],
            json!({"type": "array", "example": {"minItems": 0}}),
            "examples are data, not schemas"
        );
    }
}
