//! The router: one handler per operation (path parameters, authentication,
//! body, then the trait method) and the routes under the server URL's path.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::{Service, schema_type};
use crate::model::validation::{Check, has_variants};
use crate::model::{
    ApiModel, BodyKind, Caller, Credential, FORM, JSON, Method, Operation, RequestBody,
};
use crate::naming;

/// The router of `service`; `helpers` for the first router emitted, which
/// carries the helpers every router shares.
pub(super) fn router(model: &ApiModel, service: &Service<'_>, helpers: bool) -> TokenStream {
    let trait_ident = &service.trait_ident;
    let (routes, dispatchers) = routes(service);
    let handlers = service
        .operations
        .iter()
        .map(|operation| handler(model, service, operation));
    let authenticate_ident = service.authenticate_ident();
    // A spec whose strings may outgrow the runtime's default body limit
    // gets a router whose default lets them in (`ApiModel::body_limit`).
    let (default_options, default_options_doc) = match model.body_limit() {
        Some(limit) => {
            let doc = format!(
                " The body limit is {limit} bytes, not the default's: twice what a string \
                 of the spec's longest `maxLength` can take in JSON."
            );
            (
                quote!(RouterOptions { body_limit: #limit, ..RouterOptions::default() }),
                quote!(#[doc = ""] #[doc = #doc]),
            )
        }
        None => (quote!(RouterOptions::default()), TokenStream::new()),
    };
    let authenticate = service
        .operations
        .iter()
        .any(|operation| !operation.security.is_empty() && !operation.needs_schemes_together())
        .then(|| if bearer_only(service.operations) {
            quote! {
                /// Authenticates a request for `operation_id`, or gives the response refusing it.
                async fn #authenticate_ident<A: #trait_ident>(
                    api: &A,
                    headers: &axum::http::HeaderMap,
                    operation_id: &'static str,
                    required_scopes: &'static [&'static str],
                ) -> Result<A::Caller, Response> {
                    let request = AuthorizationRequest::from_headers(headers, operation_id, required_scopes)?;
                    api.authorize(request).await.map_err(IntoResponse::into_response)
                }
            }
        } else {
            quote! {
                /// Authenticates a request for `operation_id` by the first of its security
                /// `schemes` whose credential it carries (with the scopes the operation
                /// requires with that scheme), or gives the response refusing it.
                async fn #authenticate_ident<A: #trait_ident>(
                    api: &A,
                    headers: &axum::http::HeaderMap,
                    query: Option<&str>,
                    operation_id: &'static str,
                    schemes: &'static [runtime::SecurityScheme],
                ) -> Result<A::Caller, Response> {
                    let credential = runtime::Credential::find(headers, query, schemes)?;
                    let request = credential.authorization_request(headers, operation_id);
                    api.authorize(request).await.map_err(IntoResponse::into_response)
                }
            }
        });
    // Where a requirement needs several schemes, `authorize` decides on each
    // of their credentials; the caller is the first's.
    let authenticate_together = service
        .operations
        .iter()
        .any(Operation::needs_schemes_together)
        .then(|| {
            let together = format_ident!("{authenticate_ident}_together");
            quote! {
                /// Authenticates a request for `operation_id` by the first of its security
                /// `requirements` (each the names of schemes needed together) whose
                /// credentials it carries: `authorize` decides on each credential, and the
                /// caller is the first's. Gives the response refusing it otherwise.
                async fn #together<A: #trait_ident>(
                    api: &A,
                    headers: &axum::http::HeaderMap,
                    query: Option<&str>,
                    operation_id: &'static str,
                    schemes: &'static [runtime::SecurityScheme],
                    requirements: &'static [&'static [&'static str]],
                ) -> Result<A::Caller, Response> {
                    let (first, others) =
                        runtime::Credential::find_together(headers, query, schemes, requirements)?;
                    let request = first.authorization_request(headers, operation_id);
                    let caller = api.authorize(request).await.map_err(IntoResponse::into_response)?;
                    for credential in &others {
                        let request = credential.authorization_request(headers, operation_id);
                        api.authorize(request).await.map_err(IntoResponse::into_response)?;
                    }
                    Ok(caller)
                }
            }
        });
    let typed_checked = (helpers
        && model
            .operations
            .iter()
            .chain(&model.webhooks)
            .filter_map(|operation| operation.request_body.as_ref())
            .flat_map(RequestBody::schemas)
            .any(|schema| typed_checked(model, schema)))
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
    let (router_ident, with_options_ident) = service.router_idents();
    // Gated routes are elements of a `Vec`, whose type holds when every
    // feature is off.
    let routed = if service.features.gated() {
        quote! {
            let routes: Vec<(&str, axum::routing::MethodRouter<Arc<A>>)> = Vec::from([#(#routes),*]);
        }
    } else {
        quote!(let routes = [#(#routes),*];)
    };
    let functions = if service.webhooks {
        let text = format!(
            "The router serving `webhooks`: each webhook of the spec at `/` and its name, \
             percent-encoded (the routes are below), plus error bodies for unknown paths \
             (404) and wrong methods (405). Every error the router answers by itself goes \
             through the trait's `router_error`.\n\n\
             The client crate's `Subscriber` sends each webhook to the URL a subscriber \
             registered followed by that path: nest this router there \
             (`axum::Router::new().nest(\"/hooks\", ..)` for `https://example.com/hooks`), \
             or merge it into the subscriber's own router to serve the webhooks at its root.\n\n\
             Routes: {}.",
            service
                .operations
                .iter()
                .map(|operation| format!("`{} {}`", operation.method.as_str(), operation.path))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let docs = crate::format::doc_lines(&text);
        let short = format!(
            " The router serving `webhooks` with default [`RouterOptions`] (see \
             [`{with_options_ident}`])."
        );
        quote! {
            #[doc = #short]
            #default_options_doc
            pub fn #router_ident<A: #trait_ident>(webhooks: A) -> axum::Router {
                #with_options_ident(webhooks, #default_options)
            }

            #(#[doc = #docs])*
            pub fn #with_options_ident<A: #trait_ident>(webhooks: A, options: RouterOptions) -> axum::Router {
                let api = Arc::new(webhooks);
                let shaper = Arc::clone(&api);
                #routed
                runtime::mount(routes, api, &options, "", move |error| shaper.router_error(error))
            }
        }
    } else {
        quote! {
            /// The router serving `api` with default [`RouterOptions`].
            #default_options_doc
            pub fn #router_ident<A: #trait_ident>(api: A) -> axum::Router {
                #with_options_ident(api, #default_options)
            }

            /// The router serving `api`: every operation of the spec under the
            /// base path ([`BASE_PATH`] unless `options` sets one), plus error
            /// bodies for unknown paths under it (404) and wrong methods (405).
            /// Every error the router answers by itself goes through the trait's
            /// `router_error`.
            pub fn #with_options_ident<A: #trait_ident>(api: A, options: RouterOptions) -> axum::Router {
                let api = Arc::new(api);
                let shaper = Arc::clone(&api);
                #routed
                runtime::mount(routes, api, &options, BASE_PATH, move |error| shaper.router_error(error))
            }
        }
    };
    quote! {
        #functions

        #authenticate

        #authenticate_together

        #typed_checked

        #(#handlers)*

        #(#dispatchers)*
    }
}

/// Whether the operation's body is typed with `typed_checked`: a body with
/// no `oneOf` or `anyOf` anywhere (see [`has_variants`]), where every
/// string typed as a newtype was checked against the same rules by the
/// body's validator.
fn typed_checked(model: &ApiModel, schema: &str) -> bool {
    !has_variants(&Check::Schema(schema.to_string()), &model.validators)
}

/// Whether the handler needs the request beyond its headers (a body, or
/// parameters read from the query). Other handlers take only the headers
/// (`runtime::Headers`), which keeps their futures small.
pub(super) fn takes_request(operation: &Operation) -> bool {
    operation.request_body.is_some()
        || super::params::read_parameters(operation).is_some()
        || operation
            .security
            .iter()
            .any(|requirement| matches!(requirement.credential, Credential::Query(_)))
}

/// Whether every security scheme the operations accept takes a bearer
/// token, which is all the router then reads (`AuthorizationRequest::from_headers`).
pub(super) fn bearer_only(operations: &[Operation]) -> bool {
    operations
        .iter()
        .flat_map(|operation| &operation.security)
        .all(|requirement| requirement.credential == Credential::Bearer)
        && !operations.iter().any(Operation::needs_schemes_together)
}

/// The names of the schemes of each of `operation`'s requirements, for
/// `runtime::Credential::find_together`.
fn requirements(operation: &Operation) -> TokenStream {
    let requirements = operation.requirements().into_iter().map(|requirement| {
        let names = requirement.iter().map(|scheme| &scheme.scheme);
        quote!(&[#(#names),*])
    });
    quote!(&[#(#requirements),*])
}

/// The security schemes `operation` accepts, in the spec's order, as the
/// runtime reads their credentials, each with the scopes required with it.
fn security_schemes(operation: &Operation) -> TokenStream {
    let mut schemes: Vec<(&str, &Credential, Vec<&str>)> = Vec::new();
    for requirement in &operation.security {
        let scopes = requirement.scopes.iter().map(String::as_str);
        match schemes
            .iter_mut()
            .find(|(name, ..)| *name == requirement.scheme)
        {
            Some((.., known)) => known.extend(
                scopes
                    .filter(|scope| !known.contains(scope))
                    .collect::<Vec<_>>(),
            ),
            None => schemes.push((
                &requirement.scheme,
                &requirement.credential,
                scopes.collect(),
            )),
        }
    }
    let schemes = schemes.iter().map(|(name, credential, scopes)| {
        let credential = match credential {
            Credential::Bearer => quote!(Bearer),
            Credential::Http(scheme) => quote!(Http(#scheme)),
            Credential::Header(header) => quote!(Header(#header)),
            Credential::Query(parameter) => quote!(Query(#parameter)),
            Credential::Cookie(cookie) => quote!(Cookie(#cookie)),
        };
        quote! {
            runtime::SecurityScheme {
                name: #name,
                credential: runtime::CredentialIn::#credential,
                scopes: &[#(#scopes),*],
            }
        }
    });
    quote!(&[#(#schemes),*])
}

fn handler_ident(operation: &Operation) -> Ident {
    // A method name may start with `_` (an id that starts with a digit):
    // `handle_5e32`, never `handle__5e32`, which is not snake case.
    let name = naming::method_name(&operation.id);
    match name.strip_prefix('_') {
        Some(rest) => format_ident!("handle_{rest}_"),
        None => format_ident!("handle_{name}"),
    }
}

/// The name of `operation`'s [`runtime::Served`] in the `operations` module.
fn served_ident(operation: &Operation) -> Ident {
    format_ident!("{}", naming::method_name(&operation.id).to_uppercase())
}

/// The `operations` module: each operation as its span names it and as a
/// router's middleware finds it in the request's extensions, defined once
/// for the handler and the route.
pub(super) fn operations_module<'a>(
    operations: impl Iterator<Item = &'a Operation>,
) -> TokenStream {
    let statics = operations.map(|operation| {
        let ident = served_ident(operation);
        let id = &operation.id;
        let method = operation.method.as_str();
        let route = &operation.path;
        let doc = format!(" `{method} {route}`.");
        let body_limit = match operation.streamed_body_limit() {
            None => quote!(None),
            Some(Some(limit)) => quote!(Some(#limit)),
            Some(None) => quote!(Some(super::runtime::STREAMED_BODY_LIMIT)),
        };
        quote! {
            #[doc = #doc]
            pub static #ident: Served = Served { id: #id, method: #method, route: #route, body_limit: #body_limit };
        }
    });
    quote! {
        /// Every operation, as its tracing span names it and as a
        /// [`Middleware`] finds it in the request's extensions
        /// (`request.extensions().get::<Served>()`).
        pub mod operations {
            use super::Served;

            #(#statics)*
        }
    }
}

fn handler(model: &ApiModel, service: &Service<'_>, operation: &Operation) -> TokenStream {
    let trait_ident = &service.trait_ident;
    let authenticate = service.authenticate_ident();
    let ident = handler_ident(operation);
    let method = naming::ident(&naming::method_name(&operation.id));
    let served = served_ident(operation);
    let scopes = operation.required_scopes();
    let names: Vec<Ident> = super::params::path_parameters(operation)
        .map(super::params::argument_ident)
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
        quote!(&head.headers)
    };
    let authentication = if operation.security.is_empty() {
        quote! { let caller = (); }
    } else {
        let (authenticated, carried) = if bearer_only(service.operations) {
            (
                quote!(#authenticate(&*api, #headers, operations::#served.id, &[#(#scopes),*])),
                quote!(#headers.contains_key(axum::http::header::AUTHORIZATION)),
            )
        } else {
            let query = if whole_request {
                quote!(request.uri().query())
            } else {
                quote!(None)
            };
            let schemes = security_schemes(operation);
            let authenticated = if operation.needs_schemes_together() {
                let together = format_ident!("{authenticate}_together");
                let requirements = requirements(operation);
                quote!(#together(&*api, #headers, #query, operations::#served.id, #schemes, #requirements))
            } else {
                quote!(#authenticate(&*api, #headers, #query, operations::#served.id, #schemes))
            };
            (
                authenticated,
                quote!(runtime::carries_credential(#headers, #query, #schemes)),
            )
        };
        if operation.caller() == Caller::Optional {
            // A request without credentials goes through with no caller;
            // one carrying any is authenticated as for any operation.
            quote! {
                let caller = if #carried {
                    match #authenticated.await {
                        Ok(caller) => Some(caller),
                        Err(response) => return response,
                    }
                } else {
                    None
                };
            }
        } else {
            quote! {
                let caller = match #authenticated.await {
                    Ok(caller) => caller,
                    Err(response) => return response,
                };
            }
        }
    };
    let (body_binding, body_argument) = match &operation.request_body {
        Some(body) => (read_body(model, operation, body), quote!(body)),
        None if whole_request => (
            quote! { let head = runtime::Head::from(request.into_parts().0); },
            quote!(),
        ),
        None => (quote!(), quote!()),
    };
    let request_argument = if whole_request {
        quote!(request: Request)
    } else {
        quote!(head: runtime::Head)
    };
    // The upgrade is taken from the request before anything else, and
    // refused only once the request has passed every check an operation's
    // request passes.
    let (upgrade_argument, upgrade_binding, upgrade_passed) = if operation.upgrades() {
        (
            quote!(upgrade: Result<runtime::websocket::server::WebSocketUpgrade, runtime::websocket::server::WebSocketUpgradeRejection>,),
            quote! {
                let upgrade = match upgrade {
                    Ok(upgrade) => upgrade,
                    Err(rejection) => return runtime::websocket::server::upgrade_rejected(rejection),
                };
            },
            quote!(upgrade),
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    quote! {
        fn #ident<A: #trait_ident>(
            State(api): State<Arc<A>>,
            #path_argument
            #upgrade_argument
            #request_argument,
        ) -> impl ::std::future::Future<Output = Response> + Send {
            runtime::traced(&operations::#served, #headers).run(async move {
                #path_binding
                #authentication
                #read_parameters
                #body_binding
                #upgrade_binding
                let context = RequestContext {
                    caller,
                    headers: head.headers,
                    extensions: head.extensions,
                    operation: &operations::#served,
                };
                api.#method(context, #(#names,)* #params_argument #body_argument #upgrade_passed).await.into_response()
            })
        }
    }
}

/// The reading of an operation's body into `(head, body)`, or the
/// handler's return of the response refusing it.
fn read_body(model: &ApiModel, operation: &Operation, body: &RequestBody) -> TokenStream {
    if let Some(kind) = body.single() {
        let (reader, typed, arguments) = kind_reader(model, kind);
        let reader = if body.required {
            reader
        } else {
            format_ident!(
                "read_optional_{}",
                reader.to_string().trim_start_matches("read_")
            )
        };
        // (Named as they always were, so regenerated servers do not change.)
        let read = if kind.schema.is_some() {
            format_ident!("decoded")
        } else {
            format_ident!("read")
        };
        return quote! {
            let (head, body) = match runtime::#reader #typed(request, #arguments).await {
                Ok(#read) => #read,
                Err(response) => return response,
            };
        };
    }
    // Several kinds: the `Content-Type` picks one, read as its own.
    let enum_ident = super::body_enum_ident(operation);
    let variants = super::body_variants(body);
    let kinds = variants.iter().map(|(_, kind)| {
        let accepted = accepted(kind);
        quote!(&[#(#accepted),*])
    });
    let last = variants.len() - 1;
    let arms = variants.iter().enumerate().map(|(index, (variant, kind))| {
        let (reader, typed, arguments) = kind_reader(model, kind);
        let pattern = if index == last {
            quote!(Ok(_))
        } else {
            let index = proc_macro2::Literal::usize_unsuffixed(index);
            quote!(Ok(#index))
        };
        quote! {
            #pattern => match runtime::#reader #typed(request, #arguments).await {
                Ok((head, body)) => (head, #enum_ident::#variant(body)),
                Err(response) => return response,
            },
        }
    });
    let read = quote! {
        match runtime::body_kind(request.headers(), &[#(#kinds),*]) {
            #(#arms)*
            Err(response) => return response,
        }
    };
    if body.required {
        quote! { let (head, body) = #read; }
    } else {
        quote! {
            let (head, body) = if runtime::has_no_body(request.headers()) {
                (runtime::Head::from(request.into_parts().0), None)
            } else {
                let (head, body) = #read;
                (head, Some(body))
            };
        }
    }
}

/// The media types a kind accepts, as the runtime's constants where it has
/// them.
fn accepted(kind: &BodyKind) -> Vec<TokenStream> {
    kind.media_types
        .iter()
        .map(|media_type| match media_type.as_str() {
            JSON if kind.schema.is_some() => quote!(runtime::JSON),
            FORM if kind.schema.is_some() => quote!(runtime::FORM),
            other => quote!(#other),
        })
        .collect()
}

/// The runtime's reader of one kind of body (`read_body`; for bytes
/// `read_raw_body` or, binary, `read_streamed_body`; `read_multipart`), the
/// type it reads (`::<T>`) and its arguments after the request.
fn kind_reader(model: &ApiModel, kind: &BodyKind) -> (Ident, TokenStream, TokenStream) {
    let accepted = accepted(kind);
    let Some(schema) = &kind.schema else {
        if kind.streamed() {
            return (
                format_ident!("read_streamed_body"),
                quote!(),
                quote!(&[#(#accepted),*]),
            );
        }
        if kind.is_multipart() {
            let rules = match &kind.parts {
                Some(parts) => {
                    let validate = super::validate::validator_ident(parts);
                    let shape = super::form::parts_form_argument(model, parts);
                    quote!(Some(runtime::PartRules { validate: &validate::#validate, shape: #shape }))
                }
                None => quote!(None),
            };
            return (format_ident!("read_multipart"), quote!(), rules);
        }
        return (
            format_ident!("read_raw_body"),
            quote!(),
            quote!(&[#(#accepted),*]),
        );
    };
    let kind_type = schema_type(schema);
    let validate = super::validate::validator_ident(schema);
    let form = super::form::form_argument(model, schema, &kind.media_types);
    let typing = if typed_checked(model, schema) {
        quote!(typed_checked)
    } else {
        quote!(|value| value.deserialize_into())
    };
    (
        format_ident!("read_body"),
        quote!(::<#kind_type>),
        quote!(&[#(#accepted),*], validate::#validate, #form, #typing),
    )
}

/// The routes, in document order, and the handlers dispatching by fixed
/// query where a path and method serve several operations
/// (`/responses?beta=true` beside `/responses`). Routes are `(path, ..)`
/// pairs for `runtime::mount`, one per path and method (axum merges a
/// path's methods), each behind the router's middleware; where the API has
/// features, each under its operations' features.
fn routes(service: &Service<'_>) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let trait_ident = &service.trait_ident;
    let mut paths: Vec<&str> = Vec::new();
    for operation in service.operations {
        if !paths.contains(&operation.path.as_str()) {
            paths.push(&operation.path);
        }
    }
    let mut dispatchers = Vec::new();
    let mut routes = Vec::new();
    for path in paths {
        let full = crate::model::route_path(path);
        let on_path: Vec<&Operation> = service
            .operations
            .iter()
            .filter(|operation| operation.path == path)
            .collect();
        let mut methods: Vec<Method> = Vec::new();
        for operation in &on_path {
            if !methods.contains(&operation.method) {
                methods.push(operation.method);
            }
        }
        let methods: Vec<(TokenStream, Vec<&Operation>)> = methods
            .into_iter()
            .map(|method| {
                let routing = format_ident!("{}", method.as_str().to_ascii_lowercase());
                let operations: Vec<&Operation> = on_path
                    .iter()
                    .copied()
                    .filter(|operation| operation.method == method)
                    .collect();
                let (handler, served) = match &operations[..] {
                    [operation] if operation.fixed_query.is_empty() => {
                        let served = served_ident(operation);
                        (handler_ident(operation), quote!(Some(&operations::#served)))
                    }
                    _ => {
                        let (ident, dispatcher) =
                            dispatcher(trait_ident, method, path, operations.clone());
                        dispatchers.push(dispatcher);
                        (ident, quote!(None))
                    }
                };
                let route = quote! {
                    runtime::operation_route(axum::routing::#routing(#handler::<A>), #served, &options)
                };
                (route, operations)
            })
            .collect();
        for (route, operations) in methods {
            routes.push(if service.features.gated() {
                let marker = service.features.marker(operations);
                quote!(#marker (#full, #route))
            } else {
                quote!((#full, #route))
            });
        }
    }
    (routes, dispatchers)
}

/// The handler of a path and method serving several operations, told
/// apart by their fixed query, and among operations with one query by the
/// media type of the request's body: each is tried, most query pairs first,
/// and the last one without a fixed query takes the rest (a 404 when there
/// is none).
fn dispatcher(
    trait_ident: &Ident,
    method: Method,
    path: &str,
    mut operations: Vec<&Operation>,
) -> (Ident, TokenStream) {
    operations.sort_by_key(|operation| std::cmp::Reverse(operation.fixed_query_pairs().len()));
    let ident = format_ident!(
        "dispatch_{}",
        naming::method_name(&format!("{} {path}", method.as_str()))
    );
    let doc = format!(
        " `{} {path}`: the operation whose fixed query (and body's media type) the request has \
         ({}).",
        method.as_str(),
        operations
            .iter()
            .map(|operation| format!("`{}`", operation.id))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let call = |operation: &Operation| {
        let handler = handler_ident(operation);
        quote!(axum::handler::Handler::call(#handler::<A>, request, api).await)
    };
    let last = operations.len() - 1;
    let mut rest = quote!(runtime::not_found().await);
    let mut tries = Vec::new();
    for (index, operation) in operations.iter().enumerate() {
        let mut conditions = Vec::new();
        if !operation.fixed_query.is_empty() {
            let fixed = &operation.fixed_query;
            conditions.push(quote!(runtime::query_has(request.uri().query(), #fixed)));
        }
        let siblings = operations
            .iter()
            .filter(|other| other.fixed_query_pairs() == operation.fixed_query_pairs())
            .count();
        if siblings > 1 {
            conditions.push(match &operation.request_body {
                None => quote!(runtime::has_no_body(request.headers())),
                Some(body) => {
                    let media_types = body.kinds.iter().flat_map(|kind| &kind.media_types);
                    let typed =
                        quote!(runtime::has_content_type(request.headers(), &[#(#media_types),*]));
                    match (body.required, conditions.is_empty()) {
                        (true, _) => typed,
                        (false, true) => quote!(#typed || runtime::has_no_body(request.headers())),
                        (false, false) => {
                            quote!((#typed || runtime::has_no_body(request.headers())))
                        }
                    }
                }
            });
        }
        if index == last && operation.fixed_query.is_empty() {
            rest = call(operation);
            continue;
        }
        let call = call(operation);
        tries.push(quote! {
            if #(#conditions)&&* {
                return #call;
            }
        });
    }
    let dispatcher = quote! {
        #[doc = #doc]
        async fn #ident<A: #trait_ident>(
            State(api): State<Arc<A>>,
            request: axum::extract::Request,
        ) -> Response {
            #(#tries)*
            #rest
        }
    };
    (ident, dispatcher)
}
