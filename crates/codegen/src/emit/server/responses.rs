//! Response types: one enum per operation with one variant per documented
//! status, and one struct per shared response with headers (the 429 every
//! operation may return is one type, not one copy per operation).

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

use super::schema_type;
use crate::format::doc_lines;
use crate::model::{ApiModel, HeaderKind, Operation, Response, ResponseHeader};
use crate::naming;

pub(super) fn response_enum_ident(operation: &Operation) -> Ident {
    naming::ident(&naming::operation_type_name(&operation.id, "Response"))
}

/// The `StatusCode` of `status`: its constant when `http` has one.
fn status_code(status: u16) -> TokenStream {
    match http::StatusCode::from_u16(status)
        .ok()
        .and_then(|code| code.canonical_reason())
    {
        Some(reason) => {
            let constant =
                heck::ToShoutySnakeCase::to_shouty_snake_case(reason.replace('\'', "").as_str());
            let constant = naming::ident(&constant);
            quote!(StatusCode::#constant)
        }
        None => quote!(runtime::status(#status)),
    }
}

/// `pub mod responses { .. }` with the shared responses, if any.
pub(super) fn shared_responses(model: &ApiModel) -> TokenStream {
    if model.shared_responses.is_empty() {
        return quote!();
    }
    let structs = model.shared_responses.iter().map(|shared| {
        let ident = naming::ident(&naming::type_name(&shared.name));
        let docs = doc_lines(&shared.description);
        let body_field = shared.schema.as_deref().map(|schema| {
            let kind = schema_type(schema);
            quote! {
                /// The response body.
                pub body: #kind,
            }
        });
        let header_fields = shared.headers.iter().map(|header| {
            let field = header_field(header);
            let kind = header_type(header);
            let docs = header_docs(header);
            quote! { #(#[doc = #docs])* pub #field: #kind, }
        });
        let body = if shared.schema.is_some() {
            quote!(runtime::json_response(status, &self.body))
        } else {
            quote!(status.into_response())
        };
        let inserts = shared.headers.iter().map(|header| {
            let field = header_field(header);
            insert_header(header, quote!(self.#field))
        });
        quote! {
            #(#[doc = #docs])*
            #[derive(Debug, Clone, PartialEq)]
            pub struct #ident {
                #body_field
                #(#header_fields)*
            }

            impl #ident {
                /// The response, with `status` (the one the operation documents for it).
                pub fn into_response_with(self, status: StatusCode) -> Response {
                    let mut response = #body;
                    let headers = response.headers_mut();
                    #(#inserts)*
                    response
                }
            }
        }
    });
    quote! {
        /// Responses the spec declares once under `components/responses` and
        /// operations share, each with its headers.
        pub mod responses {
            use super::*;

            #(#structs)*
        }
    }
}

pub(super) fn response_enum(operation: &Operation) -> TokenStream {
    let ident = response_enum_ident(operation);
    let doc = format!(
        " The responses of the `{}` operation: one variant per documented status.",
        operation.id
    );
    let variants = operation.responses.iter().map(variant);
    let arms = operation.responses.iter().map(arm);
    let default_variant = operation.default_response.as_ref().map(default_variant);
    let default_arm = operation
        .default_response
        .as_ref()
        .map(|default| default_arm(operation, default));
    // A body passed through as bytes (`axum::body::Body`) is a stream: it
    // can be neither cloned nor compared.
    let derives = if operation
        .responses
        .iter()
        .chain(&operation.default_response)
        .any(|response| response.raw_media_type.is_some())
    {
        quote!(#[derive(Debug)])
    } else {
        quote!(#[derive(Debug, Clone, PartialEq)])
    };
    quote! {
        #[doc = #doc]
        #derives
        pub enum #ident {
            #(#variants)*
            #default_variant
            /// 501 from the trait's default method: the server does not
            /// implement the operation (yet).
            Unimplemented(runtime::ErrorBody),
        }

        impl IntoResponse for #ident {
            fn into_response(self) -> Response {
                match self {
                    #(#arms)*
                    #default_arm
                    Self::Unimplemented(body) => body.into_router_error_response(),
                }
            }
        }
    }
}

fn variant_ident(response: &Response) -> Ident {
    naming::ident(&naming::status_variant(response.status))
}

/// The type of the response's body in its variant, if it has one.
fn body_type(response: &Response) -> Option<TokenStream> {
    response.schema.as_deref().map(schema_type).or_else(|| {
        response
            .raw_media_type
            .as_ref()
            .map(|_| quote!(axum::body::Body))
    })
}

/// The named fields of a variant carrying a body (or a shared response) and
/// headers.
fn variant_fields(response: &Response) -> TokenStream {
    if let Some(shared) = &response.shared {
        let shared = naming::ident(&naming::type_name(shared));
        return quote! {
            /// The response body and headers.
            response: responses::#shared,
        };
    }
    let body_field = body_type(response).map(|body| {
        quote! {
            /// The response body.
            body: #body,
        }
    });
    let header_fields = response.headers.iter().map(|header| {
        let field = header_field(header);
        let kind = header_type(header);
        let docs = header_docs(header);
        quote! { #(#[doc = #docs])* #field: #kind, }
    });
    quote! { #body_field #(#header_fields)* }
}

fn variant(response: &Response) -> TokenStream {
    let variant = variant_ident(response);
    let docs = doc_lines(&format!("{}: {}", response.status, response.description));
    if let Some(shared) = &response.shared {
        let shared = naming::ident(&naming::type_name(shared));
        return quote! { #(#[doc = #docs])* #variant(responses::#shared), };
    }
    if response.headers.is_empty() {
        return match body_type(response) {
            Some(body) => quote! { #(#[doc = #docs])* #variant(#body), },
            None => quote! { #(#[doc = #docs])* #variant, },
        };
    }
    let fields = variant_fields(response);
    quote! { #(#[doc = #docs])* #variant { #fields }, }
}

/// The spec's `default` response: any error status the operation does not
/// list, chosen by the implementation, with the `default` body and headers.
fn default_variant(response: &Response) -> TokenStream {
    let docs = doc_lines(&format!(
        "Any 4xx or 5xx status not listed above (the spec's `default` response): {}\n\n\
         A listed status, or one that is not an error, is answered as 500 instead: \
         clients decode a listed status with its own type, and a 2xx as a success.",
        response.description
    ));
    let fields = variant_fields(response);
    quote! {
        #(#[doc = #docs])*
        Default {
            /// The status to answer: a 4xx or 5xx the operation does not list.
            status: StatusCode,
            #fields
        },
    }
}

/// The field names a variant's pattern binds (body, headers, or the shared
/// response).
fn bindings(response: &Response) -> Vec<Ident> {
    if response.shared.is_some() {
        return vec![naming::ident("response")];
    }
    let body = body_type(response).map(|_| naming::ident("body"));
    body.into_iter()
        .chain(response.headers.iter().map(header_field))
        .collect()
}

/// The expression answering `response` with `status`, once its fields are
/// bound by [`bindings`].
fn respond(response: &Response, status: &TokenStream) -> TokenStream {
    if response.shared.is_some() {
        return quote!(response.into_response_with(#status));
    }
    let body_response = match (&response.schema, &response.raw_media_type) {
        (Some(_), _) => quote!(runtime::json_response(#status, &body)),
        (None, Some(media_type)) => quote! {
            (#status, [(axum::http::header::CONTENT_TYPE, #media_type)], body).into_response()
        },
        (None, None) => quote!(#status.into_response()),
    };
    if response.headers.is_empty() {
        return body_response;
    }
    let inserts = response.headers.iter().map(|header| {
        let field = header_field(header);
        insert_header(header, quote!(#field))
    });
    quote! {{
        let mut response = #body_response;
        let headers = response.headers_mut();
        #(#inserts)*
        response
    }}
}

fn arm(response: &Response) -> TokenStream {
    let variant = variant_ident(response);
    let value = respond(response, &status_code(response.status));
    let bindings = bindings(response);
    if response.shared.is_some() || (response.headers.is_empty() && !bindings.is_empty()) {
        let binding = &bindings[0];
        return quote! { Self::#variant(#binding) => #value, };
    }
    if bindings.is_empty() {
        return quote! { Self::#variant => #value, };
    }
    quote! { Self::#variant { #(#bindings,)* } => #value, }
}

fn default_arm(operation: &Operation, response: &Response) -> TokenStream {
    let listed = operation.responses.iter().map(|response| response.status);
    let bindings = bindings(response);
    let value = respond(response, &quote!(status));
    quote! {
        Self::Default { status, #(#bindings,)* } => {
            runtime::default_response(status, &[#(#listed),*], |status| #value)
        }
    }
}

fn header_field(header: &ResponseHeader) -> Ident {
    naming::ident(&naming::field_name(&header.name))
}

fn header_type(header: &ResponseHeader) -> TokenStream {
    let kind = match header.kind {
        HeaderKind::Integer => quote!(i64),
        HeaderKind::Number => quote!(f64),
        HeaderKind::Boolean => quote!(bool),
        HeaderKind::String => quote!(String),
    };
    if header.required {
        kind
    } else {
        quote!(Option<#kind>)
    }
}

fn header_docs(header: &ResponseHeader) -> Vec<String> {
    doc_lines(&format!(
        "`{}`: {}",
        header.name,
        header.description.as_deref().unwrap_or("response header")
    ))
}

/// Sets header `header` from `value` (the field holding it) on `headers`.
/// A string that is not a valid header value is left out rather than sent
/// mangled.
fn insert_header(header: &ResponseHeader, value: TokenStream) -> TokenStream {
    let name = Literal::string(&header.name.to_ascii_lowercase());
    let name = quote!(axum::http::HeaderName::from_static(#name));
    match (header.kind, header.required) {
        (HeaderKind::Integer, true) => quote! {
            headers.insert(#name, axum::http::HeaderValue::from(#value));
        },
        (HeaderKind::Integer, false) => quote! {
            if let Some(value) = #value {
                headers.insert(#name, axum::http::HeaderValue::from(value));
            }
        },
        (HeaderKind::Number | HeaderKind::Boolean, true) => quote! {
            if let Ok(value) = axum::http::HeaderValue::from_str(&#value.to_string()) {
                headers.insert(#name, value);
            }
        },
        (HeaderKind::Number | HeaderKind::Boolean, false) => quote! {
            if let Some(value) = #value.and_then(|value| axum::http::HeaderValue::from_str(&value.to_string()).ok()) {
                headers.insert(#name, value);
            }
        },
        (HeaderKind::String, true) => quote! {
            if let Ok(value) = axum::http::HeaderValue::from_str(&#value) {
                headers.insert(#name, value);
            }
        },
        (HeaderKind::String, false) => quote! {
            if let Some(value) = #value.as_deref().and_then(|value| axum::http::HeaderValue::from_str(value).ok()) {
                headers.insert(#name, value);
            }
        },
    }
}
