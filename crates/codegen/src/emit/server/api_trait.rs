//! The trait a server implements: `authorize`, then one method per operation
//! (or per webhook, for the trait a subscriber implements).

use proc_macro2::TokenStream;
use quote::quote;

use super::Service;
use super::responses::response_enum_ident;
use crate::model::{ApiModel, Caller, ErrorShape, Operation};
use crate::naming;

pub(super) fn api_trait(model: &ApiModel, service: &Service<'_>) -> TokenStream {
    let trait_ident = &service.trait_ident;
    let (router, _) = service.router_idents();
    let text = if service.webhooks {
        let authorized = if service.authorizes() {
            format!(
                "Every request is authenticated with [`{trait_ident}::authorize`] where the \
                 webhook has security requirements, then decoded and validated"
            )
        } else {
            "Every request is decoded and validated".to_string()
        };
        format!(
            "The webhooks of the {title}, the requests it sends to its subscribers, as a \
             trait: a subscriber implements it and serves it with [`{router}`], which \
             serves each webhook at `/` and its name (nest it under the URL registered \
             with the API).\n\n\
             {authorized} against the spec before the webhook's method is called.\n\n\
             Every webhook has a default body answering 501 Not Implemented (the \
             `Unimplemented` variant of its response, shaped by \
             [`{trait_ident}::router_error`] like every error the router answers by \
             itself), so a webhook added to the spec does not break an implementation \
             built before it. Override each webhook the subscriber receives.",
            title = crate::format::spec_text(&model.title)
        )
    } else {
        format!(
            "The {} as a trait: implement it and serve it with [`{router}`].\n\n\
             Every request is authenticated with [`{trait_ident}::authorize`], decoded and \
             validated against the spec before the operation's method is called.\n\n\
             Every operation has a default body answering 501 Not Implemented (the \
             `Unimplemented` variant of its response, shaped by \
             [`{trait_ident}::router_error`] like every error the router answers by \
             itself), so an operation added to the spec does not break an implementation \
             built before it. Override each operation the server serves.",
            crate::format::spec_text(&model.title)
        )
    };
    let docs = crate::format::doc_lines(&text);
    let methods = service
        .operations
        .iter()
        .map(|operation| trait_method(service, operation));
    let router_error = router_error_method(model.error_shape);
    let authorize = service.authorizes().then(|| {
        let operation = if service.webhooks {
            "webhook"
        } else {
            "operation"
        };
        let caller_doc =
            format!(" The verified identity [`Self::authorize`] returns; each {operation} gets it");
        let may = if service.webhooks {
            "its sender may deliver the\n webhook"
        } else {
            "it may call the\n operation"
        };
        let credential = if super::router::bearer_only(service.operations) {
            "the bearer token"
        } else {
            "the credential (`request.token`, carried as the security\n scheme \
             `request.scheme` says)"
        };
        let authorize_doc = format!(
            " Verifies {credential} and decides whether {may}, which requires \
             `request.required_scopes`. Called before\n the body is read; a refusal becomes \
             a 401 or 403 error response."
        );
        let authorize_docs = authorize_doc.split('\n');
        quote! {
            #[doc = #caller_doc]
            /// in its [`RequestContext`].
            type Caller: Send + Sync + 'static;

            #(#[doc = #authorize_docs])*
            fn authorize(
                &self,
                request: AuthorizationRequest<'_>,
            ) -> impl Future<Output = Result<Self::Caller, AuthError>> + Send;
        }
    });
    quote! {
        #(#[doc = #docs])*
        pub trait #trait_ident: Send + Sync + 'static {
            #authorize

            #router_error

            #(#methods)*
        }
    }
}

/// The hook through which the router's own errors take the API's shape.
fn router_error_method(shape: ErrorShape) -> TokenStream {
    let (said, render) = match shape {
        ErrorShape::Platform => (
            "the API's error body (`statusCode`, `error`, `message`, `errorCode` and, for a \
             refused request, `errors`)",
            quote!(into_platform_response),
        ),
        ErrorShape::Problem => (
            "RFC 9457 problem details (`application/problem+json`), since the spec documents \
             no error body of the router's shape",
            quote!(into_problem_response),
        ),
    };
    let docs = crate::format::doc_lines(&format!(
        "Answers an error the router finds by itself: a request the spec's rules refuse \
         (400, naming every broken rule), a missing or refused token (401, 403), an unknown \
         path or method (404, 405), a body too large or of a media type the operation does \
         not take (413, 415), a URI or headers too long (414, 431), an operation this \
         server does not implement (501).\n\n\
         The default answers with {said}. Override it to answer in the API's own error \
         schema, built from the error's status, code, message and violations; a \
         `WWW-Authenticate` challenge the router set is kept unless the response sets one."
    ));
    quote! {
        #(#[doc = #docs])*
        fn router_error(&self, error: RouterError) -> Response {
            error.#render()
        }
    }
}

fn trait_method(service: &Service<'_>, operation: &Operation) -> TokenStream {
    let marker = service.features.marker([operation]);
    let method = naming::ident(&naming::method_name(&operation.id));
    let response = response_enum_ident(operation);
    let mut text = String::new();
    for part in [&operation.summary, &operation.description]
        .into_iter()
        .flatten()
    {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(&crate::format::spec_text(part));
    }
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(&format!(
        "`{} {}`",
        operation.method.as_str(),
        operation.path_key()
    ));
    if let Some(webhook) = &operation.webhook {
        text.push_str(&format!(" (the `{webhook}` webhook)"));
    }
    if operation.caller() == Caller::Optional {
        text.push_str(
            "\n\nThe description lets a request without credentials call it: the\n\
             caller is `None` then; one carrying a credential is authenticated.",
        );
    }
    let docs = crate::format::doc_lines(&text);
    let path_ident = super::params::argument_ident;
    let mut parameters: Vec<TokenStream> = super::params::path_parameters(operation)
        .map(|parameter| {
            let name = path_ident(parameter);
            let kind = super::params::rust_type(parameter);
            quote!(#name: #kind,)
        })
        .collect();
    let params_struct = super::params::params_struct_ident(operation);
    if let Some(params) = &params_struct {
        parameters.push(quote!(params: #params,));
    }
    let body = operation.request_body.as_ref().map(|body| {
        let kind = super::body_type(operation, body);
        quote!(body: #kind,)
    });
    let upgrade = operation
        .upgrades()
        .then(|| quote!(upgrade: websocket::WebSocketUpgrade,));
    // Public operations (no security requirement) have no caller to verify.
    let caller: syn::Type = syn::parse_str(&operation.caller().rust_type("Self::Caller"))
        .expect("a caller type parses");
    let mut unused: Vec<TokenStream> = vec![quote!(context)];
    unused.extend(super::params::path_parameters(operation).map(|parameter| {
        let name = path_ident(parameter);
        quote!(#name)
    }));
    if params_struct.is_some() {
        unused.push(quote!(params));
    }
    if operation.request_body.is_some() {
        unused.push(quote!(body));
    }
    if operation.upgrades() {
        unused.push(quote!(upgrade));
    }
    let unused = if unused.len() == 1 {
        quote!(let _ = context;)
    } else {
        quote!(let _ = (#(#unused),*);)
    };
    let operation_id = &operation.id;
    quote! {
        #(#[doc = #docs])*
        #marker
        fn #method(
            &self,
            context: RequestContext<#caller>,
            #(#parameters)*
            #body
            #upgrade
        ) -> impl Future<Output = #response> + Send {
            #unused
            std::future::ready(#response::Unimplemented(runtime::ErrorBody::not_implemented(
                #operation_id,
            )))
        }
    }
}
