//! WebSocket upgrades in the client: an operation answering `101
//! Switching Protocols` ([`Operation::upgrades`]) returns the connection
//! as a WebSocket, instead of progenitor's `reqwest::Upgraded`.
//!
//! Progenitor writes the opening handshake only for `x-dropshot-websocket`,
//! with `base64` and `rand`, which a generated client does not depend on,
//! and never checks the server's answer; the view shows it a plain `101`
//! (`emit::view::client_upgrades`). `send` then asks for the upgrade through
//! the runtime's `Handshake`, which checks the server's
//! `Sec-WebSocket-Accept` before the connection is handed over.

use super::builder_send;
use super::streams::{SuccessArm, once_request_is_built, result_ok_type};
use crate::emit::crate_ident;
use crate::model::{Operation, Status};

/// Makes the client of `operation` open a WebSocket (see the module's
/// docs).
pub(super) fn websocket_in_send(file: &mut syn::File, operation: &Operation) -> Result<(), String> {
    if !operation.upgrades() {
        return Ok(());
    }
    let runtime = crate_ident(crate::emit::RUNTIME_CRATE);
    let send = builder_send(file, operation)?;
    let syn::ReturnType::Type(_, output) = &mut send.sig.output else {
        return Err(format!("`{}`'s `send` returns nothing", operation.id));
    };
    let ok_type = result_ok_type(output)
        .ok_or_else(|| format!("`{}`'s `send` returns no `Result`", operation.id))?;
    *ok_type = syn::parse_quote!(ResponseValue<#runtime::websocket::client::WebSocket>);
    let mut arms = SuccessArm {
        status: Status::Code(101),
        body: syn::parse_quote! {{
            let status = response.status();
            let headers = response.headers().clone();
            let socket = handshake.open(response).await.map_err(Error::Custom)?;
            Ok(ResponseValue::new(socket, status, headers))
        }},
        done: false,
    };
    syn::visit_mut::VisitMut::visit_block_mut(&mut arms, &mut send.block);
    if !arms.done {
        return Err(format!(
            "progenitor's `send` of `{}` has no arm for its 101 response",
            operation.id
        ));
    }
    let ask: syn::Stmt = syn::parse_quote! {
        let handshake = #runtime::websocket::client::Handshake::ask(&mut request);
    };
    once_request_is_built(send, operation, ask)?;
    let doc = " Asks the server to switch the connection to the WebSocket protocol, and \
               returns it once the server has: a `Stream` of the messages it sends and a \
               `Sink` of those to send it (`websocket::WebSocket`).";
    send.attrs.push(syn::parse_quote!(#[doc = ""]));
    send.attrs.push(syn::parse_quote!(#[doc = #doc]));
    Ok(())
}
