//! The server crate: a trait with one method per operation, and an `axum`
//! router that authenticates, decodes and validates each request before it
//! calls the trait.
//!
//! Only what depends on the spec is generated; the plumbing (error bodies,
//! bearer tokens, body decoding, the rule checks) is the
//! `tenant-server-runtime` crate, which the generated crate depends on. One
//! module per part of the generated crate:
//!
//! - `responses`: one enum per operation, one variant per status, and one
//!   type per shared response with headers;
//! - `params`: the parameters' types, their struct, reading and checks;
//! - `api_trait`: the trait to implement;
//! - `router`: the handlers and the routes;
//! - `form`: the number and boolean fields of form bodies;
//! - `validate`: the request-body checks, rendered from the model's
//!   [`crate::model::validation::Check`]s;
//! - `docs`: the crate documentation with its compiled example.

mod api_trait;
mod docs;
mod form;
mod params;
mod responses;
mod router;
mod validate;

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use crate::emit::{RUNTIME_CRATE, crate_ident};
use crate::model::ApiModel;
use crate::naming;

pub fn emit_server(model: &ApiModel) -> TokenStream {
    let trait_ident = trait_ident(model);
    let types_crate = crate_ident(&model.crates.types);
    let runtime_crate = crate_ident(RUNTIME_CRATE);

    let docs = docs::crate_docs(model, &trait_ident);
    let shared_responses = responses::shared_responses(model);
    let response_enums = model.operations.iter().map(responses::response_enum);
    let params_structs = model.operations.iter().map(params::params_struct);
    let api_trait = api_trait::api_trait(model, &trait_ident);
    let router = router::router(model, &trait_ident);
    let validate = validate::validate_module(model);
    let form = form::form_module(model);

    let extract = if model.operations.iter().any(router::takes_request) {
        quote!(
            use axum::extract::{Request, State};
        )
    } else {
        quote!(
            use axum::extract::State;
        )
    };
    quote! {
        #(#![doc = #docs])*
        // Responses are built once per request and moved, never stored: boxing
        // them (or the bodies inside the response enums) would buy nothing.
        #![allow(clippy::result_large_err, clippy::large_enum_variant)]

        use std::future::Future;
        use std::sync::Arc;

        #extract
        use axum::http::StatusCode;
        use axum::response::{IntoResponse, Response};
        use #runtime_crate as runtime;

        pub use #runtime_crate::{AuthError, AuthorizationRequest, RequestContext, RouterError, RouterOptions};

        /// The API's types, defined once in the types crate and shared with the client.
        pub use ::#types_crate as types;

        #shared_responses

        #(#response_enums)*

        #(#params_structs)*

        #api_trait

        #router

        #validate

        #form
    }
}

/// The trait's name: the API's title in UpperCamelCase.
fn trait_ident(model: &ApiModel) -> Ident {
    let name = naming::type_name(&model.title);
    naming::ident(&name)
}

/// The trait method's type for a request body: `Option` when it may be absent.
fn body_type(body: &crate::model::RequestBody) -> TokenStream {
    let kind = match &body.schema {
        Some(schema) => schema_type(schema),
        None => quote!(axum::body::Bytes),
    };
    if body.required {
        kind
    } else {
        quote!(Option<#kind>)
    }
}

/// The types crate's type for component schema `name`.
fn schema_type(name: &str) -> TokenStream {
    let ident = naming::ident(&naming::type_name(name));
    quote!(types::#ident)
}
