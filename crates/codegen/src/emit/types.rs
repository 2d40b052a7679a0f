//! The types crate: every component schema as a Rust type, generated once.
//!
//! The schemas go through progenitor's own OpenAPI-to-JSON-Schema conversion
//! and typify (by generating a client for the spec with its paths removed),
//! so the types are exactly those progenitor would have put in the client;
//! the client crate then refers to them instead of generating copies.

use proc_macro2::TokenStream;
use quote::quote;

use crate::diagnostic::Diagnostic;
use crate::emit::run_generator;
use crate::load::LoadedSpec;
use crate::model::ApiModel;

/// What the types crate needs from its dependencies, as typify reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TypeDependencies {
    pub chrono: bool,
    pub regress: bool,
    pub serde_json: bool,
    pub uuid: bool,
}

pub struct TypesOutput {
    pub tokens: TokenStream,
    pub dependencies: TypeDependencies,
}

/// Settings shared by every progenitor run, so types and client agree.
pub(crate) fn progenitor_settings() -> progenitor::GenerationSettings {
    let mut settings = progenitor::GenerationSettings::default();
    settings
        .with_interface(progenitor::InterfaceStyle::Builder)
        .with_tag(progenitor::TagStyle::Merged)
        .with_derive("PartialEq")
        // Ordered maps, so open maps (vendor keys) serialize in a stable order.
        .with_map_type("::std::collections::BTreeMap");
    settings
}

pub fn emit_types(spec: &LoadedSpec, model: &ApiModel) -> Result<TypesOutput, Diagnostic> {
    let mut schemas_only = model.openapi.clone();
    schemas_only.paths.paths.clear();
    let (types, dependencies) = run_generator(spec, "generating the schema types", || {
        let mut generator = progenitor::Generator::new(&progenitor_settings());
        generator
            .generate_tokens(&schemas_only)
            .map_err(|err| err.to_string())?;
        let type_space = generator.get_type_space();
        Ok((
            type_space.to_stream(),
            TypeDependencies {
                chrono: type_space.uses_chrono(),
                regress: type_space.uses_regress(),
                serde_json: type_space.uses_serde_json(),
                uuid: type_space.uses_uuid(),
            },
        ))
    })?;

    let docs = crate_docs(model);
    let tokens = quote! {
        #(#![doc = #docs])*
        #![allow(clippy::clone_on_copy, clippy::derivable_impls, clippy::to_string_trait_impl)]

        #types
    };
    Ok(TypesOutput {
        tokens,
        dependencies,
    })
}

fn crate_docs(model: &ApiModel) -> Vec<String> {
    let text = format!(
        "Types of the {title} (version {version}).

One Rust type per schema under `components/schemas` of the spec, shared by
the generated client and server crates. Constrained strings are newtypes
that can only hold valid values: build them with `TryFrom`/`FromStr`, and
deserializing an invalid value fails with a message naming the rule.

Each struct also has a builder under [`builder`], which checks required
fields when converted into the struct.",
        title = model.title,
        version = model.version,
    );
    crate::format::doc_lines(&text)
}
