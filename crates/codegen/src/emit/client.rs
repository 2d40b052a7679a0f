//! The client crate: progenitor's builder-style `reqwest` client.
//!
//! The client comes from the same progenitor run as the types crate
//! ([`super::progenitor`]); its `types` module becomes a re-export of that
//! crate, so there is one definition of each type. Request bodies offered as
//! JSON and as a form are sent as JSON (progenitor sends one media type per
//! operation, and the service accepts JSON wherever it accepts a form).

use proc_macro2::TokenStream;
use quote::quote;

use crate::diagnostic::Diagnostic;
use crate::emit::{TYPES_CRATE, crate_ident, parse_template};
use crate::load::LoadedSpec;
use crate::model::{ApiModel, ParameterShape, Scalar};
use crate::naming;

const HOOKS: &str = include_str!("../../templates/client_hooks.rs");

pub fn emit_client(
    spec: &LoadedSpec,
    model: &ApiModel,
    client: TokenStream,
) -> Result<TokenStream, Diagnostic> {
    let client = reexport_types(spec, client)?;
    let client = provider_before_new(spec, client)?;

    let hooks = parse_template(spec, "client_hooks.rs", HOOKS)?;
    let hooks_items = &hooks.items;

    let docs = crate_docs(model);
    Ok(quote! {
        #(#![doc = #docs])*
        #![allow(clippy::needless_lifetimes, clippy::too_many_arguments)]

        #client

        pub use hooks::{Hooks, Transport};

        /// Makes rustls's `ring` provider the process's default, unless a
        /// provider is installed already; calling it again does nothing.
        ///
        /// With the default `rustls` feature, reqwest has no built-in crypto
        /// provider and refuses to build a client (it panics) while none is
        /// installed. [`Client::new`] calls this first, so it always works;
        /// call it yourself before building any other `reqwest::Client` in
        /// the same program (for [`Client::new_with_client`], say), or enable
        /// the `rustls-aws-lc` feature instead.
        #[cfg(feature = "rustls")]
        pub fn install_crypto_provider() {
            if rustls::crypto::CryptoProvider::get_default().is_none() {
                // Another thread may install one first: either way, one is.
                let _ = rustls::crypto::ring::default_provider().install_default();
            }
        }

        pub mod hooks {
            #(#hooks_items)*
        }
    })
}

/// Replaces progenitor's `pub mod types { .. }` with a re-export of the types
/// crate, whose contents are that module's (the same run's type space).
fn reexport_types(spec: &LoadedSpec, client: TokenStream) -> Result<TokenStream, Diagnostic> {
    let internal = |cause: String| Diagnostic::new(&spec.path, format!("internal error: {cause}"));
    let mut file: syn::File = syn::parse2(client)
        .map_err(|err| internal(format!("progenitor output does not parse: {err}")))?;
    let types_crate = crate_ident(TYPES_CRATE);
    let position = file
        .items
        .iter()
        .position(|item| matches!(item, syn::Item::Mod(module) if module.ident == "types"))
        .ok_or_else(|| internal("progenitor output has no `types` module".into()))?;
    file.items[position] = syn::parse_quote! {
        /// The API's types, defined once in the types crate and shared with the server.
        pub use ::#types_crate as types;
    };
    Ok(quote!(#file))
}

/// Makes progenitor's `Client::new` install the crypto provider before it
/// builds its `reqwest::Client`, so building one cannot panic.
fn provider_before_new(spec: &LoadedSpec, client: TokenStream) -> Result<TokenStream, Diagnostic> {
    let internal = |cause: &str| Diagnostic::new(&spec.path, format!("internal error: {cause}"));
    let mut file: syn::File = syn::parse2(client)
        .map_err(|err| internal(&format!("progenitor output does not parse: {err}")))?;
    let new = file
        .items
        .iter_mut()
        .filter_map(|item| match item {
            syn::Item::Impl(block) if block.trait_.is_none() => Some(block),
            _ => None,
        })
        .filter(|block| matches!(&*block.self_ty, syn::Type::Path(path) if path.path.is_ident("Client")))
        .flat_map(|block| block.items.iter_mut())
        .find_map(|item| match item {
            syn::ImplItem::Fn(function) if function.sig.ident == "new" => Some(function),
            _ => None,
        })
        .ok_or_else(|| internal("progenitor output has no `Client::new`"))?;
    new.block.stmts.insert(
        0,
        syn::parse_quote! {
            #[cfg(feature = "rustls")]
            install_crypto_provider();
        },
    );
    Ok(quote!(#file))
}

fn crate_docs(model: &ApiModel) -> Vec<String> {
    let crate_name = crate_ident(crate::emit::CLIENT_CRATE);
    let mut text = format!(
        "Client of the {title} (version {version}).

Built by progenitor from the spec. Each operation is a method of [`Client`]
returning a builder: set the parameters and the body, then `send()` it.
",
        title = model.title,
        version = model.version,
    );
    if let Some(example) = example_call(model) {
        text.push_str(&format!(
            "
```no_run
# async fn example() -> Result<(), Box<dyn std::error::Error>> {{
let client = {crate_name}::Client::new(\"https://api.example.com\", {crate_name}::Hooks::default());
let response = client{example}.send().await?;
println!(\"{{:?}}\", response.into_inner());
# Ok(())
# }}
```
"
        ));
    }
    let mixed: Vec<String> = model
        .operations
        .iter()
        .filter(|operation| has_mixed_bodies(operation))
        .map(|operation| format!("`{}`", naming::method_name(&operation.id)))
        .collect();
    let uploads: Vec<String> = model
        .operations
        .iter()
        .filter(|operation| {
            operation.request_body.as_ref().is_some_and(|body| {
                body.schema.is_none()
                    && body
                        .content_types
                        .iter()
                        .all(|media_type| media_type == "multipart/form-data")
            })
        })
        .map(|operation| format!("`{}`", naming::method_name(&operation.id)))
        .collect();
    if !uploads.is_empty() {
        text.push_str(&format!(
            "
The body of {} is `multipart/form-data`, which progenitor cannot send: the
method sends none. Build the upload with `reqwest`'s multipart support and
send it to `{{baseurl}}` plus the operation's path.
",
            uploads.join(", ")
        ));
    }
    if !mixed.is_empty() {
        text.push_str(&format!(
            "
The 2xx (or the 4xx and 5xx) responses of {} carry different bodies (or a
body and none); progenitor gives each operation one success and one error
type, so those responses arrive as raw bytes with their status, to decode by
status (the server's response enum has one typed variant per status).
",
            mixed.join(", ")
        ));
    }
    text.push_str(
        "
Request bodies are always sent as `application/json`: where the spec also
offers `application/x-www-form-urlencoded`, the JSON form carries the same
fields and progenitor can send only one media type per operation.

Authentication and retries are not generated: [`Client::new`] takes
[`Hooks`], and a [`Transport`] given to them can add the `Authorization`
header and retry for every operation at once (the hand-written client crate
of this workspace does exactly that).",
    );
    crate::format::doc_lines(&text)
}

/// Whether the operation's success (or error) responses carry different
/// bodies, which the client receives raw (`emit::progenitor`).
fn has_mixed_bodies(operation: &crate::model::Operation) -> bool {
    [true, false].into_iter().any(|success| {
        let mut schemas: Vec<&Option<String>> = operation
            .responses
            .iter()
            .filter(|response| response.is_success() == success && response.status >= 200)
            .map(|response| &response.schema)
            .collect();
        schemas.sort();
        schemas.dedup();
        schemas.len() > 1
    })
}

/// A call of the first operation that needs no body, e.g.
/// `.get_thing().id("id")`, for the crate docs.
fn example_call(model: &ApiModel) -> Option<String> {
    // Strings are the one type a literal can give every parameter.
    let operation = model.operations.iter().find(|operation| {
        operation.request_body.is_none()
            && operation.parameters.iter().all(|parameter| {
                !parameter.required
                    || parameter.shape == ParameterShape::Scalar(Scalar::String)
                        && parameter.check.is_any()
            })
    })?;
    let mut call = format!(".{}()", naming::method_name(&operation.id));
    for parameter in operation
        .parameters
        .iter()
        .filter(|parameter| parameter.required)
    {
        call.push_str(&format!(
            ".{}(\"{}\")",
            naming::method_name(&parameter.name),
            parameter.name
        ));
    }
    Some(call)
}
