//! Streamed responses in the client: an operation whose success is a
//! stream of items ([`crate::model::streams`]) returns them typed, as they
//! arrive, instead of progenitor's bytes.
//!
//! Progenitor's view of the response is the JSON body where the spec
//! offers one beside the stream, and bytes otherwise
//! (`emit::view::response_bodies`). So:
//!
//! - a success that is only a stream: `send` itself returns the runtime's
//!   `ReceivedEvents` or `ReceivedLines` of the item type, and asks for the
//!   stream's media type with `Accept`;
//! - a success offering JSON or a stream: `send` keeps the JSON, sent with
//!   `Accept: application/json`, and a `send_stream` beside it (a copy of
//!   `send`, errors and all) asks for the stream and returns it.
//!
//! An operation with several successes of different bodies stays bytes, as
//! progenitor gives each operation one success type.

use proc_macro2::TokenStream;
use quote::quote;

use super::{arm_codes, builder_send, builder_send_impl};
use crate::emit::crate_ident;
use crate::model::streams::Framing;
use crate::model::{ItemStream, ItemType, Operation, Response, Status};
use crate::naming;

/// The streamed success of `operation`, when its one success response has
/// a stream.
pub(super) fn streamed_success(operation: &Operation) -> Option<&Response> {
    let mut successes = operation
        .responses
        .iter()
        .filter(|response| response.is_success());
    let success = successes.next()?;
    (successes.next().is_none() && success.stream.is_some()).then_some(success)
}

/// Makes the client of `operation` return its streamed success typed
/// (see the module's docs).
pub(super) fn typed_stream(file: &mut syn::File, operation: &Operation) -> Result<(), String> {
    let Some(success) = streamed_success(operation) else {
        return Ok(());
    };
    let stream = success.stream.as_ref().expect("a streamed success");
    if success.schema.is_none() {
        let send = builder_send(file, operation)?;
        return stream_in_send(send, operation, success, stream);
    }
    let mut copy = builder_send(file, operation)?.clone();
    copy.sig.ident = syn::Ident::new("send_stream", copy.sig.ident.span());
    let media_type = &stream.media_type;
    let item = match &stream.item {
        ItemType::Named(schema) => format!("[`types::{}`]", naming::type_name(schema)),
        ItemType::Text => "text".to_string(),
        ItemType::Json => "any JSON value".to_string(),
    };
    let docs = [
        format!(
            " Sends the request asking for `{media_type}` (`Accept`), and returns the items as \
             they arrive, each decoded as {item}."
        ),
        String::new(),
        " The spec offers JSON or this stream for the same status: [`Self::send`] asks for \
         the JSON. Which one the server sends may also depend on the request (a field of its \
         body): see the operation's description."
            .to_string(),
    ];
    copy.attrs
        .retain(|attribute| !attribute.path().is_ident("doc"));
    for doc in docs {
        copy.attrs.push(syn::parse_quote!(#[doc = #doc]));
    }
    stream_in_send(&mut copy, operation, success, stream)?;
    builder_send_impl(file, operation)?
        .items
        .push(syn::ImplItem::Fn(copy));
    Ok(())
}

/// The client's type of `stream`'s items, as a runtime stream.
fn received_type(stream: &ItemStream) -> TokenStream {
    let runtime = crate_ident(crate::emit::RUNTIME_CRATE);
    let item = match &stream.item {
        ItemType::Named(schema) => {
            let ident = naming::ident(&naming::type_name(schema));
            quote!(types::#ident)
        }
        ItemType::Text => quote!(::std::string::String),
        ItemType::Json => quote!(#runtime::stream::AnyValue),
    };
    match (stream.framing, &stream.item) {
        (Framing::Events, ItemType::Text) => {
            quote!(#runtime::stream::ReceivedEvents<#item, #runtime::stream::Text>)
        }
        (Framing::Events, _) => quote!(#runtime::stream::ReceivedEvents<#item>),
        (Framing::JsonLines | Framing::JsonSeq, _) => {
            quote!(#runtime::stream::ReceivedLines<#item>)
        }
    }
}

/// Rewrites `send` to ask for the stream and return it typed: its success
/// type, its success arm, and an `Accept` header set on the request.
fn stream_in_send(
    send: &mut syn::ImplItemFn,
    operation: &Operation,
    success: &Response,
    stream: &ItemStream,
) -> Result<(), String> {
    let received = received_type(stream);
    let syn::ReturnType::Type(_, output) = &mut send.sig.output else {
        return Err(format!("`{}`'s `send` returns nothing", operation.id));
    };
    let ok_type = result_ok_type(output)
        .ok_or_else(|| format!("`{}`'s `send` returns no `Result`", operation.id))?;
    *ok_type = syn::parse_quote!(ResponseValue<#received>);
    let constructor = match stream.framing {
        Framing::Events => quote!(new),
        Framing::JsonLines => quote!(json_lines),
        Framing::JsonSeq => quote!(json_seq),
    };
    let mut arms = SuccessArm {
        status: success.status,
        body: syn::parse_quote! {
            ResponseValue::stream(response)
                .map(|body| <#received>::#constructor(body.into_inner()))
        },
        done: false,
    };
    syn::visit_mut::VisitMut::visit_block_mut(&mut arms, &mut send.block);
    if !arms.done {
        return Err(format!(
            "progenitor's `send` of `{}` has no arm for its {} response",
            operation.id, success.status
        ));
    }
    let media_type = &stream.media_type;
    let accept: syn::Stmt = syn::parse_quote! {
        request.headers_mut().insert(
            ::reqwest::header::ACCEPT,
            ::reqwest::header::HeaderValue::from_static(#media_type),
        );
    };
    once_request_is_built(send, operation, accept)
}

/// Inserts `statement` into `send` right after progenitor builds the
/// request, before the hooks see it.
pub(super) fn once_request_is_built(
    send: &mut syn::ImplItemFn,
    operation: &Operation,
    statement: syn::Stmt,
) -> Result<(), String> {
    let built = send
        .block
        .stmts
        .iter()
        .position(|statement| {
            matches!(statement, syn::Stmt::Local(local)
                if quote!(#local).to_string().contains("let mut request"))
        })
        .ok_or_else(|| {
            format!(
                "progenitor's `send` of `{}` builds no request",
                operation.id
            )
        })?;
    send.block.stmts.insert(built + 1, statement);
    Ok(())
}

/// The `T` of a `Result<T, E>` type.
pub(super) fn result_ok_type(ty: &mut syn::Type) -> Option<&mut syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let segment = path.path.segments.last_mut()?;
    let syn::PathArguments::AngleBracketed(arguments) = &mut segment.arguments else {
        return None;
    };
    match arguments.args.first_mut()? {
        syn::GenericArgument::Type(ok) => Some(ok),
        _ => None,
    }
}

/// Replaces the body of the arm answering `status` with `body`.
pub(super) struct SuccessArm {
    pub(super) status: Status,
    pub(super) body: syn::Expr,
    pub(super) done: bool,
}

impl syn::visit_mut::VisitMut for SuccessArm {
    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        // The first arm taking the status: its own, or the range the view
        // merged it into (`2XX`, beside a `default` response).
        let answers = match (self.status, arm_codes(arm)) {
            (Status::Code(code), Some(codes)) => codes.contains(&code),
            (Status::Range(class), Some(codes)) => codes.contains(&(class * 100)),
            _ => false,
        };
        if answers && !self.done {
            *arm.body = self.body.clone();
            self.done = true;
            return;
        }
        syn::visit_mut::visit_arm_mut(self, arm);
    }
}
