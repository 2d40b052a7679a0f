//! The types crate: every type of the API, generated once.
//!
//! Its contents are the type space of the one progenitor run
//! ([`super::progenitor`]): each component schema, and the types typify
//! derives from parameters and inline schemas. The client crate re-exports
//! it, and the server names its types from it.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::ApiModel;

pub fn emit_types(model: &ApiModel, types: TokenStream) -> TokenStream {
    let docs = crate_docs(model);
    quote! {
        #(#![doc = #docs])*
        #![allow(clippy::clone_on_copy, clippy::derivable_impls, clippy::to_string_trait_impl)]

        #types
    }
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
