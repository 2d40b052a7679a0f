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
            quote!((status, axum::Json(self.body)).into_response())
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
    // A body passed through as bytes (`axum::body::Body`) is a stream: it
    // can be neither cloned nor compared.
    let derives = if operation
        .responses
        .iter()
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
            /// 501 from the trait's default method: the server does not
            /// implement the operation (yet).
            Unimplemented(runtime::ErrorBody),
        }

        impl IntoResponse for #ident {
            fn into_response(self) -> Response {
                match self {
                    #(#arms)*
                    Self::Unimplemented(body) => body.into_response(),
                }
            }
        }
    }
}

fn variant_ident(response: &Response) -> Ident {
    naming::ident(&naming::status_variant(response.status))
}

fn variant(response: &Response) -> TokenStream {
    let variant = variant_ident(response);
    let docs = doc_lines(&format!("{}: {}", response.status, response.description));
    if let Some(shared) = &response.shared {
        let shared = naming::ident(&naming::type_name(shared));
        return quote! { #(#[doc = #docs])* #variant(responses::#shared), };
    }
    let body = response.schema.as_deref().map(schema_type).or_else(|| {
        response
            .raw_media_type
            .as_ref()
            .map(|_| quote!(axum::body::Body))
    });
    if response.headers.is_empty() {
        return match body {
            Some(body) => quote! { #(#[doc = #docs])* #variant(#body), },
            None => quote! { #(#[doc = #docs])* #variant, },
        };
    }
    let body_field = body.map(|body| {
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
    quote! { #(#[doc = #docs])* #variant { #body_field #(#header_fields)* }, }
}

fn arm(response: &Response) -> TokenStream {
    let variant = variant_ident(response);
    let status = status_code(response.status);
    if response.shared.is_some() {
        return quote! { Self::#variant(response) => response.into_response_with(#status), };
    }
    let has_body = response.schema.is_some() || response.raw_media_type.is_some();
    let body_response = match (&response.schema, &response.raw_media_type) {
        (Some(_), _) => quote!((#status, axum::Json(body)).into_response()),
        (None, Some(media_type)) => quote! {
            (#status, [(axum::http::header::CONTENT_TYPE, #media_type)], body).into_response()
        },
        (None, None) => quote!(#status.into_response()),
    };
    if response.headers.is_empty() {
        return if has_body {
            quote! { Self::#variant(body) => #body_response, }
        } else {
            quote! { Self::#variant => #body_response, }
        };
    }
    let fields = response.headers.iter().map(header_field);
    let body_binding = has_body.then(|| quote!(body,));
    let inserts = response.headers.iter().map(|header| {
        let field = header_field(header);
        insert_header(header, quote!(#field))
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

fn header_field(header: &ResponseHeader) -> Ident {
    naming::ident(&naming::field_name(&header.name))
}

fn header_type(header: &ResponseHeader) -> TokenStream {
    let kind = match header.kind {
        HeaderKind::Integer => quote!(i64),
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
