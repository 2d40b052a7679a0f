//! The client crate: progenitor's builder-style `reqwest` client.
//!
//! The client comes from the same progenitor run as the types crate
//! ([`super::progenitor`]); its `types` module becomes a re-export of that
//! crate, so there is one definition of each type. Request bodies offered as
//! JSON and as a form are sent as JSON (progenitor sends one media type per
//! operation, and the service accepts JSON wherever it accepts a form).

use proc_macro2::TokenStream;

use crate::diagnostic::Diagnostic;
use crate::emit::{TYPES_CRATE, crate_ident, parse_template};
use crate::load::LoadedSpec;
use crate::model::{ApiModel, MULTIPART, Operation, ParameterShape, Scalar};
use crate::naming;

const HOOKS: &str = include_str!("../../templates/client_hooks.rs");
const MULTIPART_TEMPLATE: &str = include_str!("../../templates/client_multipart.rs");

/// The client crate as a parsed file, handed to the formatter as it is, so
/// the code is parsed once.
pub fn emit_client(
    spec: &LoadedSpec,
    model: &ApiModel,
    client: TokenStream,
) -> Result<syn::File, Diagnostic> {
    let internal = |cause: String| Diagnostic::new(&spec.path, format!("internal error: {cause}"));
    let mut client: syn::File = syn::parse2(client)
        .map_err(|err| internal(format!("progenitor output does not parse: {err}")))?;
    reexport_types(&mut client).map_err(internal)?;
    provider_before_new(&mut client).map_err(internal)?;
    // Only a `default` response makes progenitor write a second catch-all.
    if model
        .operations
        .iter()
        .any(|operation| operation.default_response.is_some())
    {
        syn::visit_mut::VisitMut::visit_file_mut(&mut UnreachableArms, &mut client);
    }
    let uploads = upload_operations(model);
    for operation in &uploads {
        multipart_body(&mut client, operation).map_err(internal)?;
    }
    let multipart: Option<syn::Item> = if uploads.is_empty() {
        None
    } else {
        let items = parse_template(spec, "client_multipart.rs", MULTIPART_TEMPLATE)?.items;
        Some(syn::parse_quote! {
            pub mod multipart {
                #(#items)*
            }
        })
    };

    let hooks = parse_template(spec, "client_hooks.rs", HOOKS)?;
    let hooks_items = &hooks.items;

    let docs = crate_docs(model);
    let head: syn::File = syn::parse_quote! {
        #(#![doc = #docs])*
        #![allow(clippy::needless_lifetimes, clippy::too_many_arguments)]
    };
    let tail: syn::File = syn::parse_quote! {
        pub use hooks::{Hooks, Transport};

        /// Makes rustls's `ring` provider the process's default, unless a
        /// provider is installed already; calling it again does nothing.
        ///
        /// With the `rustls` feature, reqwest has no built-in crypto
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
    };
    let mut file = head;
    file.attrs.append(&mut client.attrs);
    file.items = client.items;
    file.items.extend(tail.items);
    file.items.extend(multipart);
    Ok(file)
}

/// Replaces progenitor's `pub mod types { .. }` with a re-export of the types
/// crate, whose contents are that module's (the same run's type space).
fn reexport_types(file: &mut syn::File) -> Result<(), String> {
    let types_crate = crate_ident(TYPES_CRATE);
    let position = file
        .items
        .iter()
        .position(|item| matches!(item, syn::Item::Mod(module) if module.ident == "types"))
        .ok_or("progenitor output has no `types` module")?;
    file.items[position] = syn::parse_quote! {
        /// The API's types, defined once in the types crate and shared with the server.
        pub use ::#types_crate as types;
    };
    Ok(())
}

/// The inherent `impl` blocks of `ident` among `items`.
fn impls_of<'a>(
    items: &'a mut [syn::Item],
    ident: &'a str,
) -> impl Iterator<Item = &'a mut syn::ItemImpl> + 'a {
    items
        .iter_mut()
        .filter_map(|item| match item {
            syn::Item::Impl(block) if block.trait_.is_none() => Some(block),
            _ => None,
        })
        .filter(move |block| {
            matches!(&*block.self_ty, syn::Type::Path(path)
                if path.path.segments.last().is_some_and(|segment| segment.ident == ident))
        })
}

/// Makes progenitor's `Client::new` install the crypto provider before it
/// builds its `reqwest::Client`, so building one cannot panic.
fn provider_before_new(file: &mut syn::File) -> Result<(), String> {
    let new = impls_of(&mut file.items, "Client")
        .flat_map(|block| block.items.iter_mut())
        .find_map(|item| match item {
            syn::ImplItem::Fn(function) if function.sig.ident == "new" => Some(function),
            _ => None,
        })
        .ok_or("progenitor output has no `Client::new`")?;
    new.block.stmts.insert(
        0,
        syn::parse_quote! {
            #[cfg(feature = "rustls")]
            install_crypto_provider();
        },
    );
    Ok(())
}

/// Drops the match arms after a catch-all `_`. Progenitor matches the
/// `default` response with `_` and then adds its own `_` for unexpected
/// statuses, which rustc reports as unreachable.
struct UnreachableArms;

impl syn::visit_mut::VisitMut for UnreachableArms {
    fn visit_expr_match_mut(&mut self, node: &mut syn::ExprMatch) {
        if let Some(position) = node
            .arms
            .iter()
            .position(|arm| matches!(arm.pat, syn::Pat::Wild(_)))
        {
            node.arms.truncate(position + 1);
        }
        syn::visit_mut::visit_expr_match_mut(self, node);
    }
}

/// The operations whose body is `multipart/form-data` only, which the
/// client sends as a `multipart::Form` (`templates/client_multipart.rs`).
fn upload_operations(model: &ApiModel) -> Vec<&Operation> {
    model
        .operations
        .iter()
        .filter(|operation| {
            operation.request_body.as_ref().is_some_and(|body| {
                body.schema.is_none()
                    && body
                        .content_types
                        .iter()
                        .all(|media_type| media_type == MULTIPART)
            })
        })
        .collect()
}

/// Makes the builder of `operation`, which progenitor generated for an
/// `application/octet-stream` body (`emit::progenitor::progenitor_view`),
/// take a `multipart::Form` and send it with the form's content type.
fn multipart_body(file: &mut syn::File, operation: &Operation) -> Result<(), String> {
    let builder = naming::type_name(&operation.id);
    let missing = |what: &str| format!("progenitor's builder `{builder}` has no {what}");
    let module = file
        .items
        .iter_mut()
        .find_map(|item| match item {
            syn::Item::Mod(module) if module.ident == "builder" => module.content.as_mut(),
            _ => None,
        })
        .ok_or("progenitor output has no `builder` module")?;
    let field = module
        .1
        .iter_mut()
        .find_map(|item| match item {
            syn::Item::Struct(item) if item.ident == builder => Some(item),
            _ => None,
        })
        .and_then(|item| {
            item.fields
                .iter_mut()
                .find(|field| field.ident.as_ref().is_some_and(|ident| ident == "body"))
        })
        .ok_or_else(|| missing("`body` field"))?;
    field.ty = syn::parse_quote!(Result<crate::multipart::Form, String>);
    let mut setter = false;
    let mut content_type = false;
    for item in impls_of(&mut module.1, &builder).flat_map(|block| block.items.iter_mut()) {
        let syn::ImplItem::Fn(function) = item else {
            continue;
        };
        if function.sig.ident == "body" {
            *function = syn::parse_quote! {
                /// The `multipart/form-data` body.
                pub fn body(mut self, value: crate::multipart::Form) -> Self {
                    self.body = Ok(value);
                    self
                }
            };
            setter = true;
        } else if function.sig.ident == "send" {
            let mut visitor = FormContentType(false);
            syn::visit_mut::VisitMut::visit_block_mut(&mut visitor, &mut function.block);
            content_type = visitor.0;
        }
    }
    if !setter {
        return Err(missing("`body` method"));
    }
    if !content_type {
        return Err(missing("`application/octet-stream` content type in `send`"));
    }
    Ok(())
}

/// Replaces the `application/octet-stream` content type progenitor sets with
/// the form's own (which names its boundary); records whether it did.
struct FormContentType(bool);

impl syn::visit_mut::VisitMut for FormContentType {
    fn visit_expr_mut(&mut self, node: &mut syn::Expr) {
        if let syn::Expr::Call(call) = node
            && let [
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }),
            ] = call.args.iter().collect::<Vec<_>>()[..]
            && text.value() == "application/octet-stream"
        {
            *node = syn::parse_quote!(body.content_type());
            self.0 = true;
            return;
        }
        syn::visit_mut::visit_expr_mut(self, node);
    }
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
    let uploads: Vec<String> = upload_operations(model)
        .into_iter()
        .map(|operation| format!("[`Client::{}`]", naming::method_name(&operation.id)))
        .collect();
    if !uploads.is_empty() {
        text.push_str(&format!(
            "
The body of {} is a `multipart/form-data` upload, which progenitor cannot
send: its builder's `body` takes a [`multipart::Form`] of text fields and
files, sent with the form's content type and boundary.
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
            .chain(&operation.default_response)
            .filter(|response| {
                if success {
                    response.is_success()
                } else {
                    response.is_error()
                }
            })
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
            naming::method_name(&parameter.code_name),
            parameter.name
        ));
    }
    Some(call)
}
