//! The client crate: progenitor's builder-style `reqwest` client.
//!
//! Two adaptations make the spec fit progenitor without weakening it:
//! - Request bodies offered as JSON and as a form keep only JSON in the copy
//!   handed to progenitor (which cannot choose between media types); the
//!   client always sends JSON, which the service accepts.
//! - Every component schema is replaced by the types crate's definition, and
//!   the client's `types` module becomes a re-export of that crate, so there
//!   is one definition of each type.

use proc_macro2::TokenStream;
use quote::quote;

use crate::diagnostic::Diagnostic;
use crate::emit::types::progenitor_settings;
use crate::emit::{TYPES_CRATE, crate_ident, parse_template, run_generator};
use crate::load::LoadedSpec;
use crate::model::{ApiModel, FORM};

const HOOKS: &str = include_str!("../../templates/client_hooks.rs");

pub fn emit_client(spec: &LoadedSpec, model: &ApiModel) -> Result<TokenStream, Diagnostic> {
    let types_crate = crate_ident(TYPES_CRATE);
    let mut settings = progenitor_settings();
    settings
        .with_inner_type(quote!(crate::hooks::Hooks))
        .with_hooks(progenitor::HooksMode::Expected);
    for name in &model.schema_names {
        settings.with_replacement(name, format!("::{types_crate}::{name}"), std::iter::empty());
    }
    let json_only = json_only_bodies(&model.openapi);
    let client = run_generator(spec, "generating the client", || {
        progenitor::Generator::new(&settings)
            .generate_tokens(&json_only)
            .map_err(|err| err.to_string())
    })?;
    let client = reexport_types(spec, client)?;

    let hooks = parse_template(spec, "client_hooks.rs", HOOKS)?;
    let hooks_items = &hooks.items;

    let docs = crate_docs(model);
    Ok(quote! {
        #(#![doc = #docs])*
        #![allow(clippy::needless_lifetimes, clippy::too_many_arguments)]

        #client

        pub use hooks::{Hooks, Transport};

        pub mod hooks {
            #(#hooks_items)*
        }
    })
}

/// The spec as progenitor gets it: every request body JSON only.
fn json_only_bodies(openapi: &openapiv3::OpenAPI) -> openapiv3::OpenAPI {
    let mut openapi = openapi.clone();
    let strip = |body: &mut openapiv3::RequestBody| {
        body.content.shift_remove(FORM);
    };
    for item in openapi.paths.paths.values_mut() {
        if let openapiv3::ReferenceOr::Item(item) = item {
            for operation in [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ]
            .into_iter()
            .flatten()
            {
                if let Some(openapiv3::ReferenceOr::Item(body)) = &mut operation.request_body {
                    strip(body);
                }
            }
        }
    }
    if let Some(components) = &mut openapi.components {
        for body in components.request_bodies.values_mut() {
            if let openapiv3::ReferenceOr::Item(body) = body {
                strip(body);
            }
        }
    }
    openapi
}

/// Replaces progenitor's `pub mod types { .. }` with a re-export of the types
/// crate. With every schema replaced, the module holds only typify's
/// `error` helpers, which the types crate has too; anything else would be a
/// second definition of a type, so it is reported instead.
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
    let syn::Item::Mod(module) = &file.items[position] else {
        unreachable!("position() matched a module");
    };
    let extra: Vec<String> = module
        .content
        .iter()
        .flat_map(|(_, items)| items)
        .filter_map(|item| match item {
            syn::Item::Mod(inner) if inner.ident == "error" => None,
            syn::Item::Use(_) => None,
            other => Some(quote!(#other).to_string().chars().take(80).collect()),
        })
        .collect();
    if !extra.is_empty() {
        return Err(Diagnostic::new(
            &spec.path,
            format!(
                "the client would define types of its own ({}); give every schema used by an \
                 operation a name under components/schemas",
                extra.join("; ")
            ),
        ));
    }
    file.items[position] = syn::parse_quote! {
        /// The API's types, defined once in the types crate and shared with the server.
        pub use ::#types_crate as types;
    };
    for item in &mut file.items {
        if let syn::Item::Mod(module) = item {
            drop_unused_types_import(module);
        }
    }
    Ok(quote!(#file))
}

/// Progenitor's modules import `super::types`; once every type is replaced by
/// an absolute path into the types crate, the import is unused and would warn.
fn drop_unused_types_import(module: &mut syn::ItemMod) {
    let Some((_, items)) = &mut module.content else {
        return;
    };
    let is_types_import = |item: &syn::Item| matches!(item, syn::Item::Use(import) if quote!(#import).to_string() == "use super :: types ;");
    let uses_types = items
        .iter()
        .filter(|item| !is_types_import(item))
        .any(|item| mentions_ident(quote!(#item), "types"));
    if !uses_types {
        items.retain(|item| !is_types_import(item));
    }
}

fn mentions_ident(tokens: TokenStream, name: &str) -> bool {
    tokens.into_iter().any(|token| match token {
        proc_macro2::TokenTree::Ident(ident) => ident == name,
        proc_macro2::TokenTree::Group(group) => mentions_ident(group.stream(), name),
        _ => false,
    })
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

/// A call of the first operation that needs no body, e.g.
/// `.get_thing().id("id")`, for the crate docs.
fn example_call(model: &ApiModel) -> Option<String> {
    let operation = model
        .operations
        .iter()
        .find(|operation| operation.request_body.is_none())?;
    let mut call = format!(".{}()", operation.id);
    for parameter in &operation.parameters {
        call.push_str(&format!(".{name}(\"{name}\")", name = parameter.name));
    }
    Some(call)
}
