//! The server crate: a trait with one method per operation, and an `axum`
//! router that authenticates, decodes and validates each request before it
//! calls the trait.
//!
//! The crate is built with `quote` from the model. Its fixed plumbing (error
//! bodies, body decoding, the checks behind validation) is plain Rust in
//! `templates/server_runtime.rs`, copied in as the private `runtime` module;
//! the `validate` module is generated from the spec's schemas, so every
//! constraint the spec states is checked, including those the types cannot
//! express (`minItems`, formats).

use std::collections::BTreeSet;

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::emit::{SERVER_CRATE, TYPES_CRATE, crate_ident, parse_template};
use crate::load::LoadedSpec;
use crate::model::{ApiModel, HeaderKind, Operation, Response};

const RUNTIME: &str = include_str!("../../templates/server_runtime.rs");
const SCHEMA_REF_PREFIX: &str = "#/components/schemas/";
/// The properties of the error body the router itself produces.
const ERROR_BODY_PROPERTIES: &[&str] = &["statusCode", "error", "message"];

pub fn emit_server(spec: &LoadedSpec, model: &ApiModel) -> Result<TokenStream, Diagnostic> {
    check_server_support(spec, model)?;
    let trait_ident = trait_ident(model);
    let types_crate = crate_ident(TYPES_CRATE);

    let runtime = parse_template(spec, "server_runtime.rs", RUNTIME)?;
    let runtime_items = &runtime.items;

    let response_enums = model.operations.iter().map(response_enum);
    let trait_methods = model.operations.iter().map(trait_method);
    let handlers = model
        .operations
        .iter()
        .map(|operation| handler(&trait_ident, operation));
    let routes = routes(model);
    let validators = validators(spec, model)?;
    let docs = crate_docs(model, &trait_ident);
    let any_body = model
        .operations
        .iter()
        .any(|operation| operation.request_body.is_some());
    let any_path = model
        .operations
        .iter()
        .any(|operation| !operation.parameters.is_empty());
    let body_helpers = if any_body {
        quote! {
        /// Reads, decodes and validates a request body.
        async fn read_body<T: serde::de::DeserializeOwned>(
            request: Request,
            accepted: &[&str],
            validate: fn(&serde_json::Value, &str, &mut runtime::Violations),
        ) -> Result<(HeaderMap, T), Response> {
            let headers = request.headers().clone();
            let bytes = <axum::body::Bytes as axum::extract::FromRequest<()>>::from_request(request, &())
                .await
                .map_err(|rejection| {
                    runtime::error_response(rejection.status(), rejection.body_text(), "invalid_body")
                })?;
            let value = runtime::decode_body(&headers, &bytes, accepted)?;
            let mut violations = runtime::Violations::new();
            validate(&value, "", &mut violations);
            if !violations.is_empty() {
                return Err(runtime::validation_failed(&violations));
            }
            Ok((headers, runtime::into_typed(value)?))
        }

        }
    } else {
        quote!()
    };
    let path_helpers = if any_path {
        quote! {
        fn path_rejected(rejection: axum::extract::rejection::PathRejection) -> Response {
            runtime::error_response(rejection.status(), rejection.body_text(), "invalid_path")
        }

        }
    } else {
        quote!()
    };
    let validate_module = if any_body {
        quote! {
            /// Checks of request bodies against the spec's schemas, one function per
            /// schema a request body uses.
            mod validate {
                use super::runtime::{self, Violations};
                use serde_json::Value;

                #validators
            }
        }
    } else {
        quote!()
    };
    let trait_docs = format!(
        " The {} as a trait: implement it and serve it with [`router`].\n\n Every \
         request is authenticated with [`{trait_ident}::authorize`], decoded and validated \
         against the spec before the operation's method is called.",
        model.title
    );

    Ok(quote! {
        #(#![doc = #docs])*
        // Responses are built once per request and moved, never stored: boxing
        // them (or the bodies inside the response enums) would buy nothing.
        #![allow(clippy::result_large_err, clippy::large_enum_variant)]

        use std::future::Future;
        use std::sync::Arc;

        use axum::extract::{Request, State};
        use axum::http::{HeaderMap, StatusCode};
        use axum::response::{IntoResponse, Response};

        /// The API's types, defined once in the types crate and shared with the client.
        pub use ::#types_crate as types;

        /// Why [`#trait_ident::authorize`] refused a request.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum AuthError {
            /// The token is not acceptable (invalid, expired, badly signed, wrong
            /// client): the caller gets 401 with this message.
            Unauthenticated(String),
            /// The token is valid but may not call the operation (for example a
            /// missing scope): the caller gets 403 with this message.
            Forbidden(String),
        }

        impl IntoResponse for AuthError {
            fn into_response(self) -> Response {
                match self {
                    AuthError::Unauthenticated(message) => {
                        runtime::error_response(StatusCode::UNAUTHORIZED, message, "invalid_token")
                    }
                    AuthError::Forbidden(message) => {
                        runtime::error_response(StatusCode::FORBIDDEN, message, "insufficient_scope")
                    }
                }
            }
        }

        /// What [`#trait_ident::authorize`] decides on.
        #[derive(Debug, Clone, Copy)]
        pub struct AuthorizationRequest<'a> {
            /// The bearer token of the `Authorization` header.
            pub token: &'a str,
            /// The `operationId` of the operation being called.
            pub operation_id: &'static str,
            /// The OAuth 2.0 scopes the spec requires for the operation.
            pub required_scopes: &'static [&'static str],
            /// All request headers.
            pub headers: &'a HeaderMap,
        }

        /// What every operation receives besides its parameters and body.
        #[derive(Debug, Clone)]
        pub struct RequestContext<C> {
            /// The caller, as verified by [`#trait_ident::authorize`].
            pub caller: C,
            /// The request headers.
            pub headers: HeaderMap,
        }

        #(#response_enums)*

        #[doc = #trait_docs]
        pub trait #trait_ident: Send + Sync + 'static {
            /// The verified identity [`Self::authorize`] returns; each operation gets it
            /// in its [`RequestContext`].
            type Caller: Send + Sync + 'static;

            /// Verifies the bearer token and decides whether it may call the
            /// operation, which requires `request.required_scopes`. Called before
            /// the body is read; a refusal becomes a 401 or 403 error response.
            fn authorize(
                &self,
                request: AuthorizationRequest<'_>,
            ) -> impl Future<Output = Result<Self::Caller, AuthError>> + Send;

            #(#trait_methods)*
        }

        /// Settings of the router.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct RouterOptions {
            /// The largest request body accepted, in bytes; larger ones get 413.
            pub body_limit: usize,
        }

        impl Default for RouterOptions {
            fn default() -> Self {
                Self { body_limit: 64 * 1024 }
            }
        }

        /// The router serving `api` with default [`RouterOptions`].
        pub fn router<A: #trait_ident>(api: A) -> axum::Router {
            router_with_options(api, RouterOptions::default())
        }

        /// The router serving `api`: every operation of the spec, plus JSON
        /// error bodies for unknown paths (404) and wrong methods (405).
        pub fn router_with_options<A: #trait_ident>(api: A, options: RouterOptions) -> axum::Router {
            axum::Router::new()
                #(#routes)*
                .fallback(runtime::not_found)
                .method_not_allowed_fallback(runtime::method_not_allowed)
                .layer(axum::extract::DefaultBodyLimit::max(options.body_limit))
                .with_state(Arc::new(api))
        }

        /// Authenticates a request for `operation_id`, or gives the response refusing it.
        async fn authenticate<A: #trait_ident>(
            api: &A,
            headers: &HeaderMap,
            operation_id: &'static str,
            required_scopes: &'static [&'static str],
        ) -> Result<A::Caller, Response> {
            let token = runtime::bearer_token(headers)?;
            let request = AuthorizationRequest { token, operation_id, required_scopes, headers };
            api.authorize(request).await.map_err(IntoResponse::into_response)
        }

        #body_helpers
        #path_helpers

        #(#handlers)*

        #validate_module

        // A fixed set of helpers, of which a given spec uses a subset.
        #[allow(dead_code)]
        mod runtime {
            #(#runtime_items)*
        }
    })
}

/// Rules of the spec the server generator relies on beyond the model's.
fn check_server_support(spec: &LoadedSpec, model: &ApiModel) -> Result<(), Diagnostic> {
    for operation in &model.operations {
        for response in operation
            .responses
            .iter()
            .filter(|response| response.status >= 400)
        {
            let Some(schema) = &response.schema else {
                continue;
            };
            let pointer = format!("/components/schemas/{schema}/properties");
            let properties = spec.document.pointer(&pointer).and_then(Value::as_object);
            let missing: Vec<&str> = ERROR_BODY_PROPERTIES
                .iter()
                .copied()
                .filter(|name| properties.is_none_or(|properties| !properties.contains_key(*name)))
                .collect();
            if !missing.is_empty() {
                return Err(spec.error_at(
                    &format!("/components/schemas/{schema}"),
                    format!(
                        "error schema `{schema}` lacks {}: the server's own errors (401, 404, 415, ...) \
                         use the body {{statusCode, error, message, errorCode}}",
                        missing.join(", ")
                    ),
                ));
            }
        }
        if reason_phrase(operation.success().status).is_none() {
            return Err(spec.error_at(&operation.pointer, "unsupported success status code"));
        }
    }
    Ok(())
}

fn trait_ident(model: &ApiModel) -> Ident {
    let name = model.title.to_upper_camel_case();
    let name = if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("Api{name}")
    } else {
        name
    };
    format_ident!("{}", name)
}

fn reason_phrase(status: u16) -> Option<&'static str> {
    http::StatusCode::from_u16(status).ok()?.canonical_reason()
}

fn response_enum_ident(operation: &Operation) -> Ident {
    format_ident!("{}Response", operation.id.to_upper_camel_case())
}

fn variant_ident(response: &Response) -> Ident {
    let reason = reason_phrase(response.status).unwrap_or("Status");
    format_ident!("{}", reason.to_upper_camel_case())
}

fn status_const(response: &Response) -> TokenStream {
    let name = format_ident!(
        "{}",
        reason_phrase(response.status)
            .unwrap_or("OK")
            .to_shouty_snake_case()
    );
    quote!(StatusCode::#name)
}

fn header_field(name: &str) -> Ident {
    format_ident!("{}", name.to_snake_case())
}

fn schema_type(name: &str) -> TokenStream {
    let ident = format_ident!("{}", name);
    quote!(types::#ident)
}

fn doc_text(summary: &Option<String>, description: &Option<String>) -> Vec<String> {
    let mut text = String::new();
    if let Some(summary) = summary {
        text.push_str(summary);
    }
    if let Some(description) = description {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(description);
    }
    crate::format::doc_lines(&text)
}

fn response_enum(operation: &Operation) -> TokenStream {
    let ident = response_enum_ident(operation);
    let doc = format!(
        " The responses of the `{}` operation: one variant per documented status.",
        operation.id
    );
    let variants = operation.responses.iter().map(|response| {
        let variant = variant_ident(response);
        let docs =
            crate::format::doc_lines(&format!("{}: {}", response.status, response.description));
        let body = response.schema.as_deref().map(schema_type);
        if response.headers.is_empty() {
            match body {
                Some(body) => quote! { #(#[doc = #docs])* #variant(#body), },
                None => quote! { #(#[doc = #docs])* #variant, },
            }
        } else {
            let body_field = body.map(|body| {
                quote! { /// The response body.
                body: #body, }
            });
            let header_fields = response.headers.iter().map(|header| {
                let field = header_field(&header.name);
                let kind = match header.kind {
                    HeaderKind::Integer => quote!(i64),
                    HeaderKind::String => quote!(String),
                };
                let kind = if header.required {
                    kind
                } else {
                    quote!(Option<#kind>)
                };
                let docs = crate::format::doc_lines(&format!(
                    "`{}`: {}",
                    header.name,
                    header.description.as_deref().unwrap_or("response header")
                ));
                quote! { #(#[doc = #docs])* #field: #kind, }
            });
            quote! { #(#[doc = #docs])* #variant { #body_field #(#header_fields)* }, }
        }
    });
    let arms = operation.responses.iter().map(|response| {
        let variant = variant_ident(response);
        let status = status_const(response);
        let body_response = if response.schema.is_some() {
            quote!((#status, axum::Json(body)).into_response())
        } else {
            quote!(#status.into_response())
        };
        if response.headers.is_empty() {
            if response.schema.is_some() {
                quote! { Self::#variant(body) => #body_response, }
            } else {
                quote! { Self::#variant => #body_response, }
            }
        } else {
            let fields = response
                .headers
                .iter()
                .map(|header| header_field(&header.name));
            let body_binding = response.schema.as_ref().map(|_| quote!(body,));
            let inserts = response.headers.iter().map(|header| {
                let field = header_field(&header.name);
                let name = Literal::string(&header.name.to_ascii_lowercase());
                let value = match header.kind {
                    HeaderKind::Integer => quote!(Some(axum::http::HeaderValue::from(value))),
                    HeaderKind::String => quote!(axum::http::HeaderValue::from_str(&value).ok()),
                };
                let insert = quote! {
                    if let Some(value) = #value {
                        headers.insert(axum::http::HeaderName::from_static(#name), value);
                    }
                };
                if header.required {
                    quote! { { let value = #field; #insert } }
                } else {
                    quote! { if let Some(value) = #field { #insert } }
                }
            });
            quote! {
                Self::#variant { #body_binding #(#fields,)* } => {
                    let mut response = #body_response;
                    let headers = response.headers_mut();
                    #(#inserts)*
                    response
                }
            }
        }
    });
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq)]
        pub enum #ident {
            #(#variants)*
        }

        impl IntoResponse for #ident {
            fn into_response(self) -> Response {
                match self {
                    #(#arms)*
                }
            }
        }
    }
}

fn trait_method(operation: &Operation) -> TokenStream {
    let method = format_ident!("{}", operation.id);
    let response = response_enum_ident(operation);
    let mut docs = doc_text(&operation.summary, &operation.description);
    docs.push(String::new());
    docs.push(format!(
        " `{} {}`",
        operation.method.as_str(),
        operation.path
    ));
    let parameters = operation.parameters.iter().map(|parameter| {
        let name = format_ident!("{}", parameter.name.to_snake_case());
        quote!(#name: String,)
    });
    let body = operation.request_body.as_ref().map(|body| {
        let kind = schema_type(&body.schema);
        quote!(body: #kind,)
    });
    // Public operations (no security requirement) have no caller to verify.
    let caller = if operation.security.is_empty() {
        quote!(())
    } else {
        quote!(Self::Caller)
    };
    quote! {
        #(#[doc = #docs])*
        fn #method(
            &self,
            context: RequestContext<#caller>,
            #(#parameters)*
            #body
        ) -> impl Future<Output = #response> + Send;
    }
}

fn handler_ident(operation: &Operation) -> Ident {
    format_ident!("handle_{}", operation.id)
}

fn handler(trait_ident: &Ident, operation: &Operation) -> TokenStream {
    let ident = handler_ident(operation);
    let method = format_ident!("{}", operation.id);
    let operation_id = &operation.id;
    let scopes = operation.required_scopes();
    let names: Vec<Ident> = operation
        .parameters
        .iter()
        .map(|parameter| format_ident!("{}", parameter.name.to_snake_case()))
        .collect();
    let (path_argument, path_binding) = match names.len() {
        0 => (quote!(), quote!()),
        1 => {
            let name = &names[0];
            (
                quote!(path: Result<axum::extract::Path<String>, axum::extract::rejection::PathRejection>,),
                quote! {
                    let #name = match path {
                        Ok(axum::extract::Path(value)) => value,
                        Err(rejection) => return path_rejected(rejection),
                    };
                },
            )
        }
        count => {
            let strings = (0..count).map(|_| quote!(String));
            (
                quote!(path: Result<axum::extract::Path<(#(#strings,)*)>, axum::extract::rejection::PathRejection>,),
                quote! {
                    let (#(#names,)*) = match path {
                        Ok(axum::extract::Path(values)) => values,
                        Err(rejection) => return path_rejected(rejection),
                    };
                },
            )
        }
    };
    let authentication = if operation.security.is_empty() {
        quote! { let caller = (); }
    } else {
        quote! {
            let caller = match authenticate(&*api, request.headers(), #operation_id, &[#(#scopes),*]).await {
                Ok(caller) => caller,
                Err(response) => return response,
            };
        }
    };
    let (body_binding, body_argument) = match &operation.request_body {
        Some(body) => {
            let kind = schema_type(&body.schema);
            let validate = format_ident!("{}", body.schema.to_snake_case());
            let accepted = body
                .content_types
                .iter()
                .map(|media_type| match media_type.as_str() {
                    crate::model::JSON => quote!(runtime::JSON),
                    crate::model::FORM => quote!(runtime::FORM),
                    other => quote!(#other),
                });
            (
                quote! {
                    let (headers, body) = match read_body::<#kind>(request, &[#(#accepted),*], validate::#validate).await {
                        Ok(decoded) => decoded,
                        Err(response) => return response,
                    };
                },
                quote!(body),
            )
        }
        None => (
            quote! { let headers = request.headers().clone(); },
            quote!(),
        ),
    };
    quote! {
        async fn #ident<A: #trait_ident>(
            State(api): State<Arc<A>>,
            #path_argument
            request: Request,
        ) -> Response {
            #path_binding
            #authentication
            #body_binding
            let context = RequestContext { caller, headers };
            api.#method(context, #(#names,)* #body_argument).await.into_response()
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
            let methods = model
                .operations
                .iter()
                .filter(|operation| operation.path == path)
                .map(|operation| {
                    let method =
                        format_ident!("{}", operation.method.as_str().to_ascii_lowercase());
                    let handler = handler_ident(operation);
                    quote!(#method(#handler::<A>))
                });
            let mut chain = quote!();
            for (index, method) in methods.enumerate() {
                if index == 0 {
                    chain = quote!(axum::routing::#method);
                } else {
                    chain = quote!(#chain.#method);
                }
            }
            quote!(.route(#full, #chain))
        })
        .collect()
}

/// One validation function per schema reachable from a request body.
fn validators(spec: &LoadedSpec, model: &ApiModel) -> Result<TokenStream, Diagnostic> {
    let mut pending: Vec<String> = model
        .operations
        .iter()
        .filter_map(|operation| {
            operation
                .request_body
                .as_ref()
                .map(|body| body.schema.clone())
        })
        .collect();
    let mut reachable = BTreeSet::new();
    while let Some(name) = pending.pop() {
        if !reachable.insert(name.clone()) {
            continue;
        }
        let schema = component_schema(spec, &name)?;
        collect_schema_refs(schema, &mut pending);
    }
    let mut functions = Vec::new();
    for name in &reachable {
        let pointer = format!("/components/schemas/{name}");
        let schema = component_schema(spec, name)?;
        let checks = ValidatorBuilder { spec }.checks(schema, &pointer)?;
        let ident = format_ident!("{}", name.to_snake_case());
        let doc = format!(" Checks a value against the `{name}` schema.");
        let checks = if checks.is_empty() {
            quote!(let _ = (value, at, out);)
        } else {
            checks
        };
        functions.push(quote! {
            #[doc = #doc]
            pub(crate) fn #ident(value: &Value, at: &str, out: &mut Violations) {
                #checks
            }
        });
    }
    Ok(quote!(#(#functions)*))
}

fn component_schema<'a>(spec: &'a LoadedSpec, name: &str) -> Result<&'a Value, Diagnostic> {
    spec.document
        .pointer(&pointer_join("/components/schemas", name))
        .ok_or_else(|| {
            spec.error_at(
                "/components/schemas",
                format!("schema `{name}` is not defined"),
            )
        })
}

fn collect_schema_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                if key == "$ref" {
                    if let Some(name) = child
                        .as_str()
                        .and_then(|r| r.strip_prefix(SCHEMA_REF_PREFIX))
                    {
                        out.push(name.to_string());
                    }
                } else if !key.starts_with("x-") && key != "example" && key != "default" {
                    collect_schema_refs(child, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_schema_refs(item, out)),
        _ => {}
    }
}

/// Builds the checks of one schema. The generated code has `value: &Value`,
/// `at: &str` (where in the body the value is) and `out: &mut Violations` in scope.
struct ValidatorBuilder<'a> {
    spec: &'a LoadedSpec,
}

impl ValidatorBuilder<'_> {
    fn checks(&self, schema: &Value, pointer: &str) -> Result<TokenStream, Diagnostic> {
        let Some(object) = schema.as_object() else {
            return Ok(quote!());
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            let name = reference.strip_prefix(SCHEMA_REF_PREFIX).ok_or_else(|| {
                self.spec.error_at(
                    pointer,
                    format!("`{reference}` must point into {SCHEMA_REF_PREFIX}"),
                )
            })?;
            let ident = format_ident!("{}", name.to_snake_case());
            return Ok(quote!(#ident(value, at, out);));
        }
        let mut checks = Vec::new();
        if let Some(parts) = object.get("allOf").and_then(Value::as_array) {
            for (index, part) in parts.iter().enumerate() {
                checks.push(self.checks(part, &format!("{pointer}/allOf/{index}"))?);
            }
        }
        if let Some(variants) = object.get("oneOf").and_then(Value::as_array) {
            checks.push(self.one_of(object, variants, pointer, true)?);
        }
        if let Some(variants) = object.get("anyOf").and_then(Value::as_array) {
            checks.push(self.one_of(object, variants, pointer, false)?);
        }
        let kind = object.get("type").and_then(Value::as_str).or_else(|| {
            (object.contains_key("properties") || object.contains_key("additionalProperties"))
                .then_some("object")
        });
        match kind {
            Some("object") => checks.push(self.object(object, pointer)?),
            Some("array") => checks.push(self.array(object, pointer)?),
            Some("string") => checks.push(string_checks(object)),
            Some(kind @ ("integer" | "number")) => checks.push(number_checks(object, kind)),
            Some("boolean") => checks.push(quote!(runtime::expect_boolean(value, at, out);)),
            _ => {}
        }
        let mut checks = quote!(#(#checks)*);
        // `x-validation-message` replaces whatever this schema's own checks
        // report with the message the spec gives for the rule.
        if let Some(message) = object.get("x-validation-message").and_then(Value::as_str)
            && !checks.is_empty()
        {
            checks = quote! {
                let mut broken = Violations::new();
                {
                    let out = &mut broken;
                    #checks
                }
                if !broken.is_empty() {
                    out.push(#message.to_string());
                }
            };
        }
        if object.get("nullable") == Some(&Value::Bool(true)) && !checks.is_empty() {
            Ok(quote!(if !value.is_null() { #checks }))
        } else {
            Ok(checks)
        }
    }

    fn one_of(
        &self,
        schema: &serde_json::Map<String, Value>,
        variants: &[Value],
        pointer: &str,
        exactly_one: bool,
    ) -> Result<TokenStream, Diagnostic> {
        let keyword = if exactly_one { "oneOf" } else { "anyOf" };
        if variants.len() == 1 {
            return self.checks(&variants[0], &format!("{pointer}/{keyword}/0"));
        }
        let discriminator = schema.get("discriminator");
        let property = discriminator
            .and_then(|d| d.get("propertyName"))
            .and_then(Value::as_str);
        let mapping = discriminator
            .and_then(|d| d.get("mapping"))
            .and_then(Value::as_object);
        if let (Some(property), Some(mapping)) = (property, mapping) {
            let keys: Vec<&str> = mapping.keys().map(String::as_str).collect();
            let mut arms = Vec::new();
            for (key, target) in mapping {
                let target = serde_json::json!({ "$ref": target });
                let checks =
                    self.checks(&target, &format!("{pointer}/discriminator/mapping/{key}"))?;
                arms.push(quote!(#key => { #checks }));
            }
            return Ok(quote! {
                if let Some(object) = runtime::expect_object(value, at, out) {
                    match object.get(#property) {
                        Some(Value::String(kind)) => match kind.as_str() {
                            #(#arms)*
                            other => runtime::one_of_values(other, &[#(#keys),*], &runtime::child(at, #property), out),
                        },
                        _ => runtime::required_string(object, at, #property, out),
                    }
                }
            });
        }
        let mut attempts = Vec::new();
        for (index, variant) in variants.iter().enumerate() {
            let checks = self.checks(variant, &format!("{pointer}/{keyword}/{index}"))?;
            attempts.push(quote!({
                let out = &mut Violations::new();
                #checks
                out.is_empty()
            }));
        }
        let rule = if exactly_one {
            quote!(matched == 1)
        } else {
            quote!(matched >= 1)
        };
        let expectation = if exactly_one {
            "exactly one"
        } else {
            "at least one"
        };
        Ok(quote! {
            let matched = [#(#attempts),*].into_iter().filter(|ok| *ok).count();
            if !(#rule) {
                runtime::shape_mismatch(at, #expectation, out);
            }
        })
    }

    fn object(
        &self,
        schema: &serde_json::Map<String, Value>,
        pointer: &str,
    ) -> Result<TokenStream, Diagnostic> {
        let properties = schema.get("properties").and_then(Value::as_object);
        let known: Vec<&str> = properties
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut checks = Vec::new();
        if !required.is_empty() {
            checks.push(quote!(runtime::required(object, at, &[#(#required),*], out);));
        }
        for (name, property) in properties.into_iter().flatten() {
            let inner = self.checks(property, &format!("{pointer}/properties/{name}"))?;
            if !inner.is_empty() {
                checks.push(quote! {
                    if let Some(value) = object.get(#name) {
                        let at = &runtime::child(at, #name);
                        #inner
                    }
                });
            }
        }
        match schema.get("additionalProperties") {
            Some(Value::Bool(false)) => {
                checks.push(quote!(runtime::no_other_properties(object, at, &[#(#known),*], out);));
            }
            Some(extra @ Value::Object(_)) => {
                let inner = self.checks(extra, &format!("{pointer}/additionalProperties"))?;
                if !inner.is_empty() {
                    checks.push(quote! {
                        for (name, value) in object {
                            if ![#(#known),*].contains(&name.as_str()) {
                                let at = &runtime::child(at, name);
                                #inner
                            }
                        }
                    });
                }
            }
            _ => {}
        }
        if checks.is_empty() {
            Ok(quote!(runtime::expect_object(value, at, out);))
        } else {
            Ok(quote! {
                if let Some(object) = runtime::expect_object(value, at, out) {
                    #(#checks)*
                }
            })
        }
    }

    fn array(
        &self,
        schema: &serde_json::Map<String, Value>,
        pointer: &str,
    ) -> Result<TokenStream, Diagnostic> {
        let mut checks: Vec<TokenStream> = [("minItems", "min_items"), ("maxItems", "max_items")]
            .into_iter()
            .filter_map(|(keyword, check)| count_bound(schema, keyword, check, quote!(items)))
            .collect();
        if let Some(item_schema) = schema.get("items") {
            let inner = self.checks(item_schema, &format!("{pointer}/items"))?;
            if !inner.is_empty() {
                checks.push(quote! {
                    for (position, value) in items.iter().enumerate() {
                        let at = &runtime::index(at, position);
                        #inner
                    }
                });
            }
        }
        if checks.is_empty() {
            Ok(quote!(runtime::expect_array(value, at, out);))
        } else {
            Ok(quote! {
                if let Some(items) = runtime::expect_array(value, at, out) {
                    #(#checks)*
                }
            })
        }
    }
}

/// `runtime::<check>(<subject>, <bound>, at, out);` when the schema has `keyword`.
fn count_bound(
    schema: &serde_json::Map<String, Value>,
    keyword: &str,
    check: &str,
    subject: TokenStream,
) -> Option<TokenStream> {
    let bound = usize::try_from(schema.get(keyword)?.as_u64()?).ok()?;
    let check = format_ident!("{}", check);
    Some(quote!(runtime::#check(#subject, #bound, at, out);))
}

fn string_checks(schema: &serde_json::Map<String, Value>) -> TokenStream {
    let mut checks = Vec::new();
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let allowed: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
        checks.push(quote!(runtime::one_of_values(text, &[#(#allowed),*], at, out);));
    } else {
        // An enum already pins the exact values; lengths add nothing to it.
        checks.extend(
            [("minLength", "min_length"), ("maxLength", "max_length")]
                .into_iter()
                .filter_map(|(keyword, check)| count_bound(schema, keyword, check, quote!(text))),
        );
    }
    if let Some(format) = schema.get("format").and_then(Value::as_str) {
        checks.push(quote!(runtime::format(text, #format, at, out);));
    }
    if checks.is_empty() {
        quote!(runtime::expect_string(value, at, out);)
    } else {
        quote! {
            if let Some(text) = runtime::expect_string(value, at, out) {
                #(#checks)*
            }
        }
    }
}

fn number_checks(schema: &serde_json::Map<String, Value>, kind: &str) -> TokenStream {
    let expect = if kind == "integer" {
        quote!(expect_integer)
    } else {
        quote!(expect_number)
    };
    let exclusive = |keyword: &str| schema.get(keyword) == Some(&Value::Bool(true));
    let mut checks = Vec::new();
    if let Some(min) = schema.get("minimum").and_then(Value::as_f64) {
        let check = if exclusive("exclusiveMinimum") {
            quote!(exclusive_minimum)
        } else {
            quote!(minimum)
        };
        checks.push(quote!(runtime::#check(number, #min, at, out);));
    }
    if let Some(max) = schema.get("maximum").and_then(Value::as_f64) {
        let check = if exclusive("exclusiveMaximum") {
            quote!(exclusive_maximum)
        } else {
            quote!(maximum)
        };
        checks.push(quote!(runtime::#check(number, #max, at, out);));
    }
    if checks.is_empty() {
        quote!(runtime::#expect(value, at, out);)
    } else {
        quote! {
            if let Some(number) = runtime::#expect(value, at, out) {
                #(#checks)*
            }
        }
    }
}

fn crate_docs(model: &ApiModel, trait_ident: &Ident) -> Vec<String> {
    let crate_name = crate_ident(SERVER_CRATE);
    let mut methods = String::new();
    let mut imports = vec![
        trait_ident.to_string(),
        "AuthError".into(),
        "AuthorizationRequest".into(),
        "RequestContext".into(),
    ];
    for operation in &model.operations {
        let response = response_enum_ident(operation).to_string();
        let mut parameters: Vec<String> = operation
            .parameters
            .iter()
            .map(|parameter| format!("_{}: String", parameter.name.to_snake_case()))
            .collect();
        if let Some(body) = &operation.request_body {
            parameters.push(format!("_body: types::{}", body.schema));
        }
        let parameters = if parameters.is_empty() {
            String::new()
        } else {
            format!(", {}", parameters.join(", "))
        };
        let caller = if operation.security.is_empty() {
            "()"
        } else {
            "String"
        };
        methods.push_str(&format!(
            "    async fn {id}(&self, _context: RequestContext<{caller}>{parameters}) -> {response} {{\n        \
                     todo!(\"{id}\")\n    }}\n",
            id = operation.id,
        ));
        imports.push(response);
    }
    let text = format!(
        "Server of the {title} (version {version}).

Implement [`{trait_ident}`] and serve it with [`router`]. The router mounts
every operation under `{base}`, checks the `Authorization: Bearer` header and
asks [`{trait_ident}::authorize`] about the token and the scopes the spec
requires, decodes the body by `Content-Type` (JSON, and form-urlencoded where
the spec offers it; 415 otherwise; 413 past the size limit), validates it
against every constraint of the spec (400 naming the field and the rule), and
only then calls your method. Unknown paths get 404 and wrong methods 405, all
with the API's JSON error body.

```
use {crate_name}::{{{imports}, types}};

struct Service;

impl {trait_ident} for Service {{
    type Caller = String;

    async fn authorize(&self, request: AuthorizationRequest<'_>) -> Result<String, AuthError> {{
        match request.token {{
            \"let-me-in\" => Ok(\"developer\".to_string()),
            _ => Err(AuthError::Unauthenticated(\"Invalid token\".to_string())),
        }}
    }}

{methods}}}

let app: axum::Router = {crate_name}::router(Service);
# let _ = app;
```",
        title = model.title,
        version = model.version,
        base = if model.base_path.is_empty() {
            "/"
        } else {
            &model.base_path
        },
        imports = imports.join(", "),
    );
    crate::format::doc_lines(&text)
}
