//! The server crate: a trait with one method per operation, and an `axum`
//! router that authenticates, decodes and validates each request before it
//! calls the trait. The webhooks of an OpenAPI 3.1 description get a second
//! trait and router, which their subscribers serve, from the same emitters
//! (`Service`).
//!
//! Only what depends on the spec is generated; the plumbing (error bodies,
//! bearer tokens, body decoding, the rule checks) is the
//! `openapi-crates-runtime` crate, which the generated crate depends on. One
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

use crate::emit::features::Features;
use crate::emit::{RUNTIME_CRATE, crate_ident};
use crate::model::{ApiModel, BodyKind, Operation, RequestBody};
use crate::naming;

/// A trait and the router serving it: the API's operations, or the
/// webhooks it sends, which its subscribers serve. Both are emitted by the
/// same functions, so a webhook is validated, answered and documented as an
/// operation is.
pub(super) struct Service<'a> {
    pub(super) operations: &'a [Operation],
    pub(super) trait_ident: Ident,
    /// Whether the operations are the webhooks.
    pub(super) webhooks: bool,
    /// The API's cargo features, which mark each operation's entry points.
    pub(super) features: &'a Features,
}

impl Service<'_> {
    /// `router` or `webhooks_router`, and its `_with_options` variant.
    pub(super) fn router_idents(&self) -> (Ident, Ident) {
        let base = if self.webhooks {
            "webhooks_router"
        } else {
            "router"
        };
        (
            quote::format_ident!("{base}"),
            quote::format_ident!("{base}_with_options"),
        )
    }

    /// Whether the trait has `authorize` and a `Caller`: the API's always,
    /// the webhooks' where one of them has security requirements of its own.
    pub(super) fn authorizes(&self) -> bool {
        !self.webhooks
            || self
                .operations
                .iter()
                .any(|operation| !operation.security.is_empty())
    }

    /// The router's helper authenticating a request for the trait.
    pub(super) fn authenticate_ident(&self) -> Ident {
        if self.webhooks {
            quote::format_ident!("authenticate_webhook")
        } else {
            quote::format_ident!("authenticate")
        }
    }
}

pub fn emit_server(model: &ApiModel) -> TokenStream {
    let features = Features::of(model);
    // Operations another one serves (path keys differing by a fragment only)
    // have client methods but no handler: the server has the others only.
    let views: Vec<&Operation> = model
        .operations
        .iter()
        .filter(|operation| operation.served_by.is_some())
        .collect();
    let served_only;
    let model = if views.is_empty() {
        model
    } else {
        served_only = ApiModel {
            operations: model
                .operations
                .iter()
                .filter(|operation| operation.served_by.is_none())
                .cloned()
                .collect(),
            ..model.clone()
        };
        &served_only
    };
    let api = Service {
        operations: &model.operations,
        trait_ident: trait_ident(model),
        webhooks: false,
        features: &features,
    };
    let webhooks = Service {
        operations: &model.webhooks,
        trait_ident: webhooks_trait_ident(model),
        webhooks: true,
        features: &features,
    };
    // A description of webhooks alone has no API to implement.
    let services: Vec<&Service> = [&api, &webhooks]
        .into_iter()
        .filter(|service| !service.operations.is_empty())
        .collect();
    let every_operation = || model.operations.iter().chain(&model.webhooks);
    let types_crate = crate_ident(&model.crates.types);
    let runtime_crate = crate_ident(RUNTIME_CRATE);

    let docs = docs::crate_docs(model, &services, &views);
    let base_path = crate::model::route_path(&model.base_path);
    let base_path_doc = [
        " The path of the description's server URL: the router serves the API",
        " under it unless `RouterOptions::base_path` says otherwise.",
    ];
    let shared_responses = responses::shared_responses(model);
    let response_enums = every_operation().map(responses::response_enum);
    let body_enums = every_operation().map(body_enum);
    let params_structs = every_operation().map(params::params_struct);
    let traits = services
        .iter()
        .map(|service| api_trait::api_trait(model, service));
    // The helpers every router shares go with the first.
    let routers = services
        .iter()
        .enumerate()
        .map(|(index, service)| router::router(model, service, index == 0));
    let operations = router::operations_module(every_operation());
    let validate = validate::validate_module(model);
    let form = form::form_module(model);

    let extract = if every_operation().any(router::takes_request) {
        quote!(
            use axum::extract::{Request, State};
        )
    } else {
        quote!(
            use axum::extract::State;
        )
    };
    // Only response enums name statuses; an API whose operations document
    // no response has none.
    let status_code = every_operation()
        .any(|operation| !operation.documents_no_response())
        .then(|| {
            quote!(
                use axum::http::StatusCode;
            )
        });
    // The items of streamed responses, and the streams that send them.
    let stream = every_operation().any(streams_a_body).then(|| {
        quote! {
            /// Bodies that stream: responses sent as a series of items
            /// ([`stream::EventStream`], [`stream::LineStream`], each event's
            /// [`stream::Event`]), binary request bodies
            /// ([`stream::BodyStream`]) and multipart ones
            /// ([`stream::Multipart`]).
            pub use #runtime_crate::stream;
        }
    });
    let websocket = every_operation().any(Operation::upgrades).then(|| {
        quote! {
            /// WebSocket connections: the operations answering `101 Switching
            /// Protocols` get a [`websocket::WebSocketUpgrade`] and answer
            /// with what its `on_upgrade` returns.
            pub use #runtime_crate::websocket::server as websocket;
        }
    });
    quote! {
        #(#![doc = #docs])*
        // Responses are built once per request and moved, never stored: boxing
        // them (or the bodies inside the response enums) would buy nothing.
        #![allow(clippy::result_large_err, clippy::large_enum_variant)]
        // A trait method takes each path parameter the operation declares,
        // and a route's extractor spells their tuple: the API's shape; a
        // bound of `3.1416` is the description's number, not a constant.
        #![allow(clippy::too_many_arguments, clippy::type_complexity)]
        #![allow(clippy::approx_constant, clippy::excessive_precision)]

        use std::future::Future;
        use std::sync::Arc;

        #extract
        #status_code
        use axum::response::{IntoResponse, Response};
        use #runtime_crate as runtime;

        pub use #runtime_crate::{AuthError, AuthorizationRequest, Middleware, RequestContext, RouterError, RouterOptions, Served};
        #stream
        #websocket

        #(#[doc = #base_path_doc])*
        pub const BASE_PATH: &str = #base_path;

        /// The API's types, defined once in the types crate and shared with the client.
        pub use ::#types_crate as types;

        #shared_responses

        #(#response_enums)*

        #(#body_enums)*

        #(#params_structs)*

        #(#traits)*

        #(#routers)*

        #operations

        #validate

        #form
    }
}

/// Whether a body of `operation` streams: a response sent as a series of
/// items, or a binary request body.
fn streams_a_body(operation: &Operation) -> bool {
    operation
        .responses
        .iter()
        .chain(&operation.default_response)
        .any(|response| response.stream.is_some())
        || operation
            .request_body
            .iter()
            .flat_map(|body| &body.kinds)
            .any(BodyKind::streams)
}

/// The trait's name: the API's title in UpperCamelCase.
fn trait_ident(model: &ApiModel) -> Ident {
    let name = naming::type_name(&model.title);
    naming::ident(&name)
}

/// The webhooks' trait: the API's title and `Webhooks`, in UpperCamelCase.
fn webhooks_trait_ident(model: &ApiModel) -> Ident {
    naming::ident(&naming::type_name(&format!("{} Webhooks", model.title)))
}

/// The trait method's type for a request body: its one kind's type, or the
/// operation's body enum; an `Option` when the body may be absent.
fn body_type(operation: &Operation, body: &RequestBody) -> TokenStream {
    let kind = match body.single() {
        Some(kind) => kind_type(kind),
        None => {
            let ident = body_enum_ident(operation);
            quote!(#ident)
        }
    };
    if body.required {
        kind
    } else {
        quote!(Option<#kind>)
    }
}

/// The type of one kind of body: its schema's type, the bytes, a binary
/// body's stream, or a multipart body's parts.
fn kind_type(kind: &BodyKind) -> TokenStream {
    match &kind.schema {
        Some(schema) => schema_type(schema),
        None if kind.streamed() => quote!(stream::BodyStream),
        None if kind.is_multipart() => quote!(stream::Multipart),
        None => quote!(axum::body::Bytes),
    }
}

/// `CreateMessageBody`: the enum of a body offered in several kinds.
fn body_enum_ident(operation: &Operation) -> Ident {
    naming::ident(&naming::operation_type_name(&operation.id, "Body"))
}

/// The variant of each kind of a body: its media type's name (`Json`,
/// `Form`, `Multipart`, `MergePatchJson`, `Xml`), `Bytes` for several
/// media types passed as bytes; the whole media type's name where two
/// subtypes would give one name.
fn body_variants(body: &RequestBody) -> Vec<(Ident, &BodyKind)> {
    let short = |kind: &BodyKind| -> String {
        let media_type = kind.media_types[0].as_str();
        match media_type {
            crate::model::JSON => "Json".into(),
            crate::model::FORM => "Form".into(),
            crate::model::MULTIPART if kind.media_types.len() == 1 => "Multipart".into(),
            "text/plain" if kind.media_types.len() == 1 => "Text".into(),
            _ if kind.schema.is_none() && kind.media_types.len() > 1 => "Bytes".into(),
            _ => {
                let (kind, subtype) = media_type.split_once('/').unwrap_or((media_type, ""));
                naming::type_name(if subtype.is_empty() || subtype == "*" {
                    kind
                } else {
                    subtype
                })
            }
        }
    };
    let mut names: Vec<String> = body.kinds.iter().map(short).collect();
    for index in 0..names.len() {
        if names.iter().filter(|name| **name == names[index]).count() > 1 {
            let clashing = names[index].clone();
            for (name, kind) in names.iter_mut().zip(&body.kinds) {
                if *name == clashing {
                    *name = naming::type_name(&kind.media_types[0]);
                }
            }
        }
    }
    let mut seen: Vec<String> = Vec::new();
    for name in &mut names {
        let base = name.clone();
        let mut suffix = 1;
        while seen.contains(name) {
            suffix += 1;
            *name = format!("{base}{suffix}");
        }
        seen.push(name.clone());
    }
    names
        .into_iter()
        .zip(&body.kinds)
        .map(|(name, kind)| (naming::ident(&name), kind))
        .collect()
}

/// The enum of an operation whose body comes in several kinds (JSON beside
/// an upload, or different schemas per media type): one variant per kind.
fn body_enum(operation: &Operation) -> TokenStream {
    let Some(body) = operation
        .request_body
        .as_ref()
        .filter(|body| body.single().is_none())
    else {
        return quote!();
    };
    let ident = body_enum_ident(operation);
    let doc = format!(
        " The request body of the `{}` operation, by the media type it came in.",
        operation.id
    );
    let variants = body_variants(body).into_iter().map(|(variant, kind)| {
        let kind_type = kind_type(kind);
        let media_types = kind
            .media_types
            .iter()
            .map(|media_type| format!("`{media_type}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let docs = crate::format::doc_lines(&match kind.schema {
            Some(_) => format!("A body sent as {media_types}, decoded and validated."),
            None if kind.streamed() => {
                format!("A body sent as {media_types}, as a stream of its bytes as they arrive.")
            }
            None if kind.is_multipart() => {
                format!("A body sent as {media_types}, as its parts as they arrive.")
            }
            None => format!(
                "A body sent as {media_types}, as its bytes (the `Content-Type` is in the \
                 request context's headers)."
            ),
        });
        quote! {
            #(#[doc = #docs])*
            #variant(#kind_type),
        }
    });
    // A stream can be neither cloned nor compared.
    let derives = if body.kinds.iter().any(BodyKind::streams) {
        quote!(#[derive(Debug)])
    } else {
        quote!(#[derive(Debug, Clone, PartialEq)])
    };
    quote! {
        #[doc = #doc]
        #derives
        pub enum #ident {
            #(#variants)*
        }
    }
}

/// The types crate's type for component schema `name`.
fn schema_type(name: &str) -> TokenStream {
    let ident = naming::ident(&naming::type_name(name));
    quote!(types::#ident)
}
