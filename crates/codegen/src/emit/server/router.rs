//! The router: one handler per operation (path parameters, authentication,
//! body, then the trait method) and the routes under the server URL's path.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::schema_type;
use crate::model::validation::Check;
use crate::model::{ApiModel, FORM, JSON, Operation};
use crate::naming;

pub(super) fn router(model: &ApiModel, trait_ident: &Ident) -> TokenStream {
    let routes = routes(model);
    let handlers = model
        .operations
        .iter()
        .map(|operation| handler(model, trait_ident, operation));
    let authenticate = model
        .operations
        .iter()
        .any(|operation| !operation.security.is_empty())
        .then(|| {
            quote! {
                /// Authenticates a request for `operation_id`, or gives the response refusing it.
                async fn authenticate<A: #trait_ident>(
                    api: &A,
                    headers: &axum::http::HeaderMap,
                    operation_id: &'static str,
                    required_scopes: &'static [&'static str],
                ) -> Result<A::Caller, Response> {
                    let request = AuthorizationRequest::from_headers(headers, operation_id, required_scopes)?;
                    api.authorize(request).await.map_err(IntoResponse::into_response)
                }
            }
        });
    let typed_checked = model
        .operations
        .iter()
        .any(|operation| typed_checked(model, operation))
        .then(|| {
            quote! {
                /// Types a body its validator found no fault with, the
                /// constrained strings without checking them again: the
                /// validator, compiled from the same schemas, has checked
                /// each against the rules of its type.
                fn typed_checked<T: runtime::json::Typed>(value: &runtime::json::Value) -> Option<T> {
                    types::__checked::assume_checked(|| value.deserialize_into())
                }
            }
        });
    quote! {
        /// The router serving `api` with default [`RouterOptions`].
        pub fn router<A: #trait_ident>(api: A) -> axum::Router {
            router_with_options(api, RouterOptions::default())
        }

        /// The router serving `api`: every operation of the spec, plus error
        /// bodies for unknown paths (404) and wrong methods (405). Every error
        /// the router answers by itself goes through the trait's `router_error`.
        pub fn router_with_options<A: #trait_ident>(api: A, options: RouterOptions) -> axum::Router {
            let api = Arc::new(api);
            let shaper = Arc::clone(&api);
            axum::Router::new()
                #(#routes)*
                .fallback(runtime::not_found)
                .method_not_allowed_fallback(runtime::method_not_allowed)
                .layer(axum::extract::DefaultBodyLimit::max(options.body_limit))
                .with_state(api)
                .layer(runtime::RouterErrorLayer::new(move |error| shaper.router_error(error)))
        }

        #authenticate

        #typed_checked

        #(#handlers)*
    }
}

/// Whether the operation's body is typed with `typed_checked`: a body with
/// no `oneOf` or `anyOf` anywhere (see [`Check::has_variants`]), where every
/// string typed as a newtype was checked against the same rules by the
/// body's validator.
fn typed_checked(model: &ApiModel, operation: &Operation) -> bool {
    let Some(schema) = operation
        .request_body
        .as_ref()
        .and_then(|body| body.schema.as_ref())
    else {
        return false;
    };
    !Check::Schema(schema.clone()).has_variants(&model.validators)
}

/// Whether the handler needs the request beyond its headers (a body, or
/// parameters read from the query). Other handlers take only the headers
/// (`runtime::Headers`), which keeps their futures small.
pub(super) fn takes_request(operation: &Operation) -> bool {
    operation.request_body.is_some() || super::params::read_parameters(operation).is_some()
}

fn handler_ident(operation: &Operation) -> Ident {
    format_ident!("handle_{}", naming::method_name(&operation.id))
}

fn handler(model: &ApiModel, trait_ident: &Ident, operation: &Operation) -> TokenStream {
    let ident = handler_ident(operation);
    let method = naming::ident(&naming::method_name(&operation.id));
    let operation_id = &operation.id;
    let scopes = operation.required_scopes();
    let names: Vec<Ident> = super::params::path_parameters(operation)
        .map(super::params::parameter_ident)
        .collect();
    let read_parameters = super::params::read_parameters(operation);
    let (path_argument, path_binding) = match (names.len(), &read_parameters) {
        (0, _) => (quote!(), quote!()),
        (_, Some(_)) => (
            quote!(path: Result<axum::extract::RawPathParams, axum::extract::rejection::RawPathParamsRejection>,),
            quote!(),
        ),
        (1, None) => {
            let name = &names[0];
            (
                quote!(path: Result<axum::extract::Path<String>, axum::extract::rejection::PathRejection>,),
                quote! {
                    let #name = match path {
                        Ok(axum::extract::Path(value)) => value,
                        Err(rejection) => return runtime::path_rejected(rejection),
                    };
                },
            )
        }
        (count, None) => {
            let strings = (0..count).map(|_| quote!(String));
            (
                quote!(path: Result<axum::extract::Path<(#(#strings,)*)>, axum::extract::rejection::PathRejection>,),
                quote! {
                    let (#(#names,)*) = match path {
                        Ok(axum::extract::Path(values)) => values,
                        Err(rejection) => return runtime::path_rejected(rejection),
                    };
                },
            )
        }
    };
    let params_argument = super::params::params_struct_ident(operation).map(|_| quote!(params,));
    let whole_request = takes_request(operation);
    let headers = if whole_request {
        quote!(request.headers())
    } else {
        quote!(&headers)
    };
    let authentication = if operation.security.is_empty() {
        quote! { let caller = (); }
    } else {
        quote! {
            let caller = match authenticate(&*api, #headers, #operation_id, &[#(#scopes),*]).await {
                Ok(caller) => caller,
                Err(response) => return response,
            };
        }
    };
    let (body_binding, body_argument) = match &operation.request_body {
        Some(body) if body.schema.is_none() => {
            let media_types = &body.content_types;
            let reader = if body.required {
                format_ident!("read_raw_body")
            } else {
                format_ident!("read_optional_raw_body")
            };
            (
                quote! {
                    let (headers, body) = match runtime::#reader(request, &[#(#media_types),*]).await {
                        Ok(read) => read,
                        Err(response) => return response,
                    };
                },
                quote!(body),
            )
        }
        Some(body) => {
            let schema = body.schema.as_deref().unwrap_or_default();
            let kind = schema_type(schema);
            let validate = super::validate::validator_ident(schema);
            let form = super::form::form_argument(model, schema, &body.content_types);
            let reader = if body.required {
                format_ident!("read_body")
            } else {
                format_ident!("read_optional_body")
            };
            let accepted = body
                .content_types
                .iter()
                .map(|media_type| match media_type.as_str() {
                    JSON => quote!(runtime::JSON),
                    FORM => quote!(runtime::FORM),
                    other => quote!(#other),
                });
            let typing = if typed_checked(model, operation) {
                quote!(typed_checked)
            } else {
                quote!(|value| value.deserialize_into())
            };
            (
                quote! {
                    let (headers, body) = match runtime::#reader::<#kind>(request, &[#(#accepted),*], validate::#validate, #form, #typing).await {
                        Ok(decoded) => decoded,
                        Err(response) => return response,
                    };
                },
                quote!(body),
            )
        }
        None if whole_request => (
            quote! { let headers = request.into_parts().0.headers; },
            quote!(),
        ),
        None => (quote!(), quote!()),
    };
    let request_argument = if whole_request {
        quote!(request: Request)
    } else {
        quote!(runtime::Headers(headers): runtime::Headers)
    };
    quote! {
        async fn #ident<A: #trait_ident>(
            State(api): State<Arc<A>>,
            #path_argument
            #request_argument,
        ) -> Response {
            #path_binding
            #authentication
            #read_parameters
            #body_binding
            let context = RequestContext { caller, headers };
            api.#method(context, #(#names,)* #params_argument #body_argument).await.into_response()
        }
    }
}

/// `.route(path, get(..).post(..))` per path, in document order.
fn routes(model: &ApiModel) -> Vec<TokenStream> {
    let mut paths: Vec<&str> = Vec::new();
    for operation in &model.operations {
        if !paths.contains(&operation.path.as_str()) {
            paths.push(&operation.path);
        }
    }
    paths
        .into_iter()
        .map(|path| {
            let full = format!("{}{path}", model.base_path);
            let mut methods = model
                .operations
                .iter()
                .filter(|operation| operation.path == path)
                .map(|operation| {
                    let method =
                        format_ident!("{}", operation.method.as_str().to_ascii_lowercase());
                    let handler = handler_ident(operation);
                    quote!(#method(#handler::<A>))
                });
            let first = methods.next();
            quote!(.route(#full, axum::routing::#first #(.#methods)*))
        })
        .collect()
}
