//! Response types: one enum per operation with one variant per documented
//! status, and one struct per shared response with headers (the 429 every
//! operation may return is one type, not one copy per operation).

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

use super::schema_type;
use crate::format::{doc_lines, spec_text};
use crate::model::streams::Framing;
use crate::model::{
    ApiModel, BodyKind, HeaderKind, ItemStream, ItemType, JSON, Operation, Response,
    ResponseHeader, Status,
};
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
        let docs = doc_lines(&spec_text(&shared.description));
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
        let body = match shared.media_types.first() {
            Some(media_type) if shared.schema.is_some() => {
                json_body(media_type, &quote!(status), &quote!(&self.body))
            }
            _ => quote!(status.into_response()),
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
    let doc = match &operation.webhook {
        None => format!(
            " The responses of the `{}` operation: one variant per documented status.",
            operation.id
        ),
        Some(webhook) => {
            format!(" The responses to the `{webhook}` webhook: one variant per documented status.")
        }
    };
    let variants = operation
        .responses
        .iter()
        .chain(&operation.default_response)
        .map(|response| variant(operation, response));
    let arms = operation
        .responses
        .iter()
        .chain(&operation.default_response)
        .map(|response| arm(operation, response));
    let any = operation.documents_no_response().then(|| {
        (
            quote! {
                /// The spec documents no response: any response the server
                /// builds, with any final status, headers and body.
                Any(Response),
            },
            quote!(Self::Any(response) => runtime::any_response(response),),
        )
    });
    let (any_variant, any_arm) = any.unzip();
    // A body that streams can break off, run past its limit or (a
    // multipart form) break the schema's rules after the method was
    // called: the method answers that as the router would, whatever the
    // spec documents.
    let rejected = operation
        .request_body
        .iter()
        .flat_map(|body| &body.kinds)
        .any(BodyKind::streams)
        .then(|| {
            (
                quote! {
                    /// The router's answer to a request body that broke off, ran past its
                    /// limit or broke the schema's rules as it streamed (400 or 413, shaped
                    /// by the trait's `router_error` like every error the router answers).
                    BodyRejected(stream::BodyError),
                },
                quote!(Self::BodyRejected(error) => error.into_response(),),
            )
        });
    let (rejected_variant, rejected_arm) = rejected.unzip();
    // A body passed through as bytes (`axum::body::Body`) is a stream, and
    // so are a stream of items and a whole `Response` (an upgrade's): none can be cloned
    // or compared.
    let derives = if any_variant.is_some()
        || rejected_variant.is_some()
        || operation
            .responses
            .iter()
            .chain(&operation.default_response)
            .any(|response| response.is_raw() || response.stream.is_some() || response.is_upgrade())
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
            #any_variant
            #rejected_variant
            /// 501 from the trait's default method: the server does not
            /// implement the operation (yet).
            Unimplemented(runtime::ErrorBody),
        }

        impl IntoResponse for #ident {
            fn into_response(self) -> Response {
                match self {
                    #(#arms)*
                    #any_arm
                    #rejected_arm
                    Self::Unimplemented(body) => body.into_router_error_response(),
                }
            }
        }
    }
}

fn variant_ident(response: &Response) -> Ident {
    naming::ident(&match response.status {
        Status::Code(code) => naming::status_variant(code),
        Status::Range(class) => naming::range_variant(class),
        Status::Default => "Default".to_string(),
    })
}

/// The type of the response's body in its variant, if it has one.
fn body_type(response: &Response) -> Option<TokenStream> {
    if response.is_upgrade() {
        return Some(quote!(Response));
    }
    let stream = response.stream.as_ref().map(stream_type);
    match (&response.schema, stream) {
        (Some(schema), Some(stream)) => {
            let schema = schema_type(schema);
            Some(quote!(runtime::stream::JsonOrStream<#schema, #stream>))
        }
        (Some(schema), None) => Some(schema_type(schema)),
        (None, Some(stream)) => Some(stream),
        (None, None) => response.is_raw().then(|| quote!(axum::body::Body)),
    }
}

/// The runtime's stream of `stream`'s items, which the router sends as
/// they come.
fn stream_type(stream: &ItemStream) -> TokenStream {
    let item = match &stream.item {
        ItemType::Named(schema) => schema_type(schema),
        ItemType::Text => quote!(String),
        ItemType::Json => quote!(runtime::stream::AnyValue),
    };
    match (stream.framing, &stream.item) {
        (Framing::Events, ItemType::Text) => {
            quote!(runtime::stream::EventStream<#item, runtime::stream::Text>)
        }
        (Framing::Events, _) => quote!(runtime::stream::EventStream<#item>),
        (Framing::JsonLines | Framing::JsonSeq, _) => quote!(runtime::stream::LineStream<#item>),
    }
}

/// The response with `status` sending the stream bound to `body`.
fn stream_response(stream: &ItemStream, status: &TokenStream) -> TokenStream {
    match stream.framing {
        Framing::Events => quote!(body.into_response_with(#status)),
        Framing::JsonLines | Framing::JsonSeq => {
            let media_type = &stream.media_type;
            quote!(body.into_response_with(#status, #media_type))
        }
    }
}

/// Whether the implementation picks the `Content-Type` of a body passed as
/// bytes: the spec offers several media types, or a range (`image/*`).
fn picks_content_type(response: &Response) -> bool {
    response.is_raw() && response.fixed_content_type().is_none()
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
    let content_type = picks_content_type(response).then(|| {
        let docs = doc_lines(&format!(
            "The body's `Content-Type`, one the spec documents: {}.",
            documented(response)
        ));
        quote! {
            #(#[doc = #docs])*
            content_type: axum::http::HeaderValue,
        }
    });
    let header_fields = response.headers.iter().map(|header| {
        let field = header_field(header);
        let kind = header_type(header);
        let docs = header_docs(header);
        quote! { #(#[doc = #docs])* #field: #kind, }
    });
    quote! { #body_field #content_type #(#header_fields)* }
}

/// The response's media types as the docs list them: `image/png`, `text/csv`.
fn documented(response: &Response) -> String {
    response
        .media_types
        .iter()
        .map(|media_type| format!("`{media_type}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn variant(operation: &Operation, response: &Response) -> TokenStream {
    let variant = variant_ident(response);
    let status_field = match response.status {
        Status::Code(_) => None,
        Status::Range(class) => Some(format!(
            "The status to answer: a {class}xx the operation does not list."
        )),
        Status::Default => Some(format!(
            "The status to answer: one the operation {}{}.",
            if has_ranges(operation) {
                "neither lists nor covers with a range"
            } else {
                "does not list"
            },
            if operation.documents_success() {
                ", and not a 2xx"
            } else {
                ""
            }
        )),
    };
    let mut docs = variant_docs(operation, response);
    if let Some(stream) = &response.stream {
        docs.push_str(&stream_docs(response, stream));
    }
    if response.is_upgrade() {
        docs.push_str(
            "\n\nThe response `websocket::WebSocketUpgrade::on_upgrade` returns: the \
             connection switches to WebSocket, and its callback gets the socket.",
        );
    }
    let docs = doc_lines(&docs);
    if let Some(status_doc) = status_field {
        let fields = variant_fields(response);
        return quote! {
            #(#[doc = #docs])*
            #variant {
                #[doc = #status_doc]
                status: StatusCode,
                #fields
            },
        };
    }
    if let Some(shared) = &response.shared {
        let shared = naming::ident(&naming::type_name(shared));
        return quote! { #(#[doc = #docs])* #variant(responses::#shared), };
    }
    if response.headers.is_empty() && !picks_content_type(response) {
        return match body_type(response) {
            Some(body) => quote! { #(#[doc = #docs])* #variant(#body), },
            None => quote! { #(#[doc = #docs])* #variant, },
        };
    }
    let fields = variant_fields(response);
    quote! { #(#[doc = #docs])* #variant { #fields }, }
}

/// What a variant's docs add about its stream.
fn stream_docs(response: &Response, stream: &ItemStream) -> String {
    let media_type = &stream.media_type;
    let items = match stream.framing {
        Framing::Events => "one event per item, the item its `data`",
        Framing::JsonLines | Framing::JsonSeq => "one JSON value per item",
    };
    if response.schema.is_some() {
        format!(
            "\n\nThe body is the JSON value, or a stream sent as `{media_type}` as its items \
             come, {items}: the implementation picks, by the request's `Accept` \
             (`RequestContext::accepts`) or what the operation's description says."
        )
    } else {
        format!("\n\nThe stream is sent as `{media_type}` as its items come, {items}.")
    }
}

fn has_ranges(operation: &Operation) -> bool {
    operation
        .responses
        .iter()
        .any(|response| matches!(response.status, Status::Range(_)))
}

fn variant_docs(operation: &Operation, response: &Response) -> String {
    let covered = if has_ranges(operation) {
        " nor covered by a range"
    } else {
        ""
    };
    let description = spec_text(&response.description);
    match response.status {
        Status::Code(code) => format!("{code}: {description}"),
        Status::Range(class) => format!(
            "Any {class}xx status not listed above (the spec's `{class}XX` response): {description}\n\n\
             A listed status, or one outside the range, is answered as 500 instead: clients \
             decode a listed status with its own type.",
        ),
        Status::Default if operation.documents_success() => format!(
            "Any status not listed above{covered}, other than a 2xx (the spec's `default` \
             response): {description}\n\n\
             Any other status is answered as 500 instead: clients decode a listed status with \
             its own type, and every 2xx as the documented success.",
        ),
        Status::Default if operation.responses.is_empty() => format!(
            "Any final status, a 2xx included (the spec's `default` response, the only one): \
             {description}\n\n\
             A 1xx is answered as 500 instead: it cannot be the answer.",
        ),
        Status::Default => format!(
            "Any status not listed above{covered}, a 2xx included since the operation \
             documents no success (the spec's `default` response): {description}\n\n\
             Any other status is answered as 500 instead: clients decode a listed status with \
             its own type.",
        ),
    }
}

/// The field names a variant's pattern binds (body, content type, headers,
/// or the shared response).
fn bindings(response: &Response) -> Vec<Ident> {
    if response.shared.is_some() {
        return vec![naming::ident("response")];
    }
    let body = body_type(response).map(|_| naming::ident("body"));
    let content_type = picks_content_type(response).then(|| naming::ident("content_type"));
    body.into_iter()
        .chain(content_type)
        .chain(response.headers.iter().map(header_field))
        .collect()
}

/// A JSON body, bound to `body`, as a response with `status`, in the JSON
/// media type the spec documents.
fn json_body(media_type: &str, status: &TokenStream, body: &TokenStream) -> TokenStream {
    if media_type == JSON {
        quote!(runtime::json_response(#status, #body))
    } else {
        quote!(runtime::json_response_as(#status, #media_type, #body))
    }
}

/// The expression answering `response` with `status`, once its fields are
/// bound by [`bindings`].
fn respond(response: &Response, status: &TokenStream) -> TokenStream {
    if response.shared.is_some() {
        return quote!(response.into_response_with(#status));
    }
    let body_response = if response.is_upgrade() {
        quote!(body)
    } else if let Some(stream) = &response.stream {
        let streamed = stream_response(stream, status);
        match &response.schema {
            Some(_) => {
                let json = json_body(&response.media_types[0], status, &quote!(&body));
                quote! {
                    match body {
                        runtime::stream::JsonOrStream::Json(body) => #json,
                        runtime::stream::JsonOrStream::Stream(body) => #streamed,
                    }
                }
            }
            None => streamed,
        }
    } else if response.schema.is_some() {
        json_body(&response.media_types[0], status, &quote!(&body))
    } else if let Some(media_type) = response.fixed_content_type() {
        quote! {
            (#status, [(axum::http::header::CONTENT_TYPE, #media_type)], body).into_response()
        }
    } else if response.is_raw() {
        let media_types = &response.media_types;
        quote!(runtime::raw_response(#status, content_type, &[#(#media_types),*], body))
    } else {
        quote!(#status.into_response())
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

fn arm(operation: &Operation, response: &Response) -> TokenStream {
    let variant = variant_ident(response);
    let bindings = bindings(response);
    let listed = operation
        .responses
        .iter()
        .filter_map(|response| match response.status {
            Status::Code(code) => Some(code),
            _ => None,
        });
    match response.status {
        Status::Code(code) => {
            let value = respond(response, &status_code(code));
            if response.shared.is_some()
                || (response.headers.is_empty()
                    && !picks_content_type(response)
                    && !bindings.is_empty())
            {
                let binding = &bindings[0];
                return quote! { Self::#variant(#binding) => #value, };
            }
            if bindings.is_empty() {
                return quote! { Self::#variant => #value, };
            }
            quote! { Self::#variant { #(#bindings,)* } => #value, }
        }
        Status::Range(class) => {
            let value = respond(response, &quote!(status));
            let listed = listed.filter(|code| code / 100 == class);
            quote! {
                Self::#variant { status, #(#bindings,)* } => {
                    runtime::range_response(status, #class, &[#(#listed),*], |status| #value)
                }
            }
        }
        Status::Default => {
            let value = respond(response, &quote!(status));
            let ranges = operation
                .responses
                .iter()
                .filter_map(|response| match response.status {
                    Status::Range(class) => Some(class),
                    _ => None,
                });
            quote! {
                Self::#variant { status, #(#bindings,)* } => {
                    runtime::default_response(status, &[#(#listed),*], &[#(#ranges),*], |status| #value)
                }
            }
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
        header
            .description
            .as_deref()
            .map_or_else(|| "response header".to_string(), spec_text)
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
