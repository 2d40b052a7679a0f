//! The client crate: progenitor's builder-style `reqwest` client.
//!
//! The client comes from the same progenitor run as the types crate
//! ([`super::progenitor`]); its `types` module becomes a re-export of that
//! crate, so there is one definition of each type. Request bodies offered as
//! JSON and as a form are sent as JSON (progenitor sends one media type per
//! operation, and the service accepts JSON wherever it accepts a form).
//! The webhooks of an OpenAPI 3.1 description are methods of a `Subscriber`
//! (`subscriber`), built from the same run.

mod streams;
mod upgrades;

use proc_macro2::{TokenStream, TokenTree};
use quote::{format_ident, quote};

use crate::diagnostic::Diagnostic;
use crate::emit::bake::Bake;
use crate::emit::features::Features;
use crate::emit::{crate_ident, parse_template};
use crate::load::LoadedSpec;
use crate::model::{
    ApiModel, Credential, FORM, In, JSON, MULTIPART, Method, Operation, Parameter, Response,
    Scalar, Shape, Status, ValueType, is_json,
};
use crate::naming;

const HOOKS: &str = include_str!("../../../templates/client_hooks.rs");

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
    mark_entry_points(&mut client, model);
    reexport_types(&mut client, &model.crates.types).map_err(internal)?;
    timeouts_in_new(&mut client).map_err(internal)?;
    syn::visit_mut::VisitMut::visit_file_mut(&mut StatusArms, &mut client);
    let uploads = upload_operations(model);
    for operation in &uploads {
        multipart_body(&mut client, operation).map_err(internal)?;
    }
    for operation in model.operations.iter().chain(&model.webhooks) {
        sent_as_specified(&mut client, operation).map_err(internal)?;
    }
    let mut error_enums = Vec::new();
    let (mut with_body, mut without_body) = (false, false);
    for operation in model.operations.iter().chain(&model.webhooks) {
        if let Some(errors) = typed_errors(operation)
            && errors_by_status(&mut client, operation, &errors).map_err(internal)?
        {
            error_enums.push(error_enum(operation, &errors));
            with_body |= errors.iter().any(|response| response.schema.is_some());
            without_body |= errors.iter().any(|response| response.schema.is_none());
        }
    }
    let errors: Option<syn::Item> =
        (!error_enums.is_empty()).then(|| error_module(&error_enums, with_body, without_body));
    let styled = operations_writing_parameters(model);
    for operation in &styled {
        write_parameters(&mut client, operation).map_err(internal)?;
    }
    for operation in model.operations.iter().chain(&model.webhooks) {
        streams::typed_stream(&mut client, operation).map_err(internal)?;
        upgrades::websocket_in_send(&mut client, operation).map_err(internal)?;
    }
    // Once every edit has named what it needs (a stream's item type).
    builder_without_unused_types(&mut client);
    let runtime = crate_ident(crate::emit::RUNTIME_CRATE);
    let stream: Option<syn::Item> = model
        .operations
        .iter()
        .chain(&model.webhooks)
        .any(|operation| streams::streamed_success(operation).is_some())
        .then(|| {
            syn::parse_quote! {
                /// Responses received as a series of items:
                /// [`stream::ReceivedEvents`], [`stream::ReceivedLines`], each
                /// event's [`stream::Event`] and [`stream::StreamError`].
                pub use #runtime::stream;
            }
        });
    let websocket: Option<syn::Item> =
        model.operations.iter().any(Operation::upgrades).then(|| {
            syn::parse_quote! {
                /// WebSocket connections, which the operations answering `101
                /// Switching Protocols` return: [`websocket::WebSocket`] and
                /// its [`websocket::Message`]s.
                pub use #runtime::websocket::client as websocket;
            }
        });
    let multipart: Option<syn::Item> = (!uploads.is_empty()).then(|| {
        syn::parse_quote! {
            /// `multipart/form-data` bodies, which progenitor cannot send.
            pub mod multipart {
                pub use #runtime::multipart::Form;
            }
        }
    });

    if !model.webhooks.is_empty() {
        subscriber(&mut client, model).map_err(internal)?;
    }

    let hooks = parse_template(spec, "client_hooks.rs", HOOKS)?;
    let hooks_items = &hooks.items;
    let operations = operation_table(&client, model).map_err(internal)?;
    let operation_items = &operations.items;

    let docs = crate_docs(model);
    let head: syn::File = syn::parse_quote! {
        #(#![doc = #docs])*
        #![allow(clippy::needless_lifetimes, clippy::too_many_arguments)]
        // An operation's errors are one variant per documented status, each
        // its body as the description shapes it (boxing changes the API).
        #![allow(clippy::large_enum_variant, clippy::type_complexity)]
    };
    let tail: syn::File = syn::parse_quote! {
        pub use hooks::{Credential, Hooks, RetryPolicy, Transport};

        /// Builds a [`Client`] from production defaults; see [`Client::builder`].
        pub type ClientBuilder = hooks::ClientBuilder<Client>;

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
            #(#operation_items)*
        }
    };
    let mut file = head;
    file.attrs.append(&mut client.attrs);
    file.items = client.items;
    file.items.extend(tail.items);
    file.items.extend(errors);
    file.items.extend(multipart);
    file.items.extend(stream);
    file.items.extend(websocket);
    Ok(file)
}

/// The error responses of `operation` when they carry different JSON bodies
/// (a rate limit's beside the API's error, or a body and none): progenitor
/// gives an operation one error type, so its view of them is bytes
/// (`emit::view`), and the client decodes each status with its own
/// type into an enum instead. `None` where they share one body, or where one
/// is not JSON (bytes are what the caller gets then).
fn typed_errors(operation: &Operation) -> Option<Vec<&Response>> {
    let errors: Vec<&Response> = operation
        .responses
        .iter()
        .chain(&operation.default_response)
        .filter(|response| response.is_error())
        .collect();
    let mut bodies: Vec<&Option<String>> = errors.iter().map(|response| &response.schema).collect();
    bodies.sort();
    bodies.dedup();
    (bodies.len() > 1 && !errors.iter().any(|response| response.is_raw())).then_some(errors)
}

/// The name of the enum of `operation`'s error responses.
fn error_enum_ident(operation: &Operation) -> syn::Ident {
    format_ident!("{}Error", naming::type_name(&operation.id))
}

/// The variant of the error enum for `response`, named as the server's
/// response enum names it (`TooManyRequests`, `ClientError` for `4XX`,
/// `Default`).
fn error_variant(response: &Response) -> syn::Ident {
    naming::ident(&match response.status {
        Status::Code(code) => naming::status_variant(code),
        Status::Range(class) => naming::range_variant(class),
        Status::Default => "Default".to_string(),
    })
}

fn error_enum(operation: &Operation, errors: &[&Response]) -> TokenStream {
    let ident = error_enum_ident(operation);
    let owner = match operation.webhook {
        Some(_) => "Subscriber",
        None => "Client",
    };
    let doc = format!(
        " The error responses of [`{owner}::{method}`](crate::{owner}::{method}), one variant \
         per status.",
        method = naming::method_name(&operation.id),
    );
    let variants = errors.iter().map(|response| {
        let variant = error_variant(response);
        let doc = format!(
            " {}: {}",
            response.status,
            crate::format::spec_text(&response.description)
        );
        let doc = crate::format::doc_lines(&doc).join(" ");
        match &response.schema {
            Some(schema) => {
                let ty = naming::ident(&naming::type_name(schema));
                quote!(#[doc = #doc] #variant(types::#ty))
            }
            None => quote!(#[doc = #doc] #variant),
        }
    });
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq)]
        pub enum #ident {
            #(#variants,)*
        }
    }
}

/// The `errors` module: the enums of [`typed_errors`] and how a response
/// becomes one of their variants (the functions some variant needs: one
/// with a body, one without).
fn error_module(enums: &[TokenStream], with_body: bool, without_body: bool) -> syn::Item {
    let decode = with_body.then(|| {
        quote! {
            /// The error response whose JSON body is a `T`, as the operation's
            /// `variant`.
            pub(crate) async fn decode<T, E>(
                response: reqwest::Response,
                variant: impl FnOnce(T) -> E,
            ) -> Error<E>
            where
                T: serde::de::DeserializeOwned,
            {
                match ResponseValue::<T>::from_response::<E>(response).await {
                    Ok(value) => {
                        let (status, headers) = (value.status(), value.headers().clone());
                        Error::ErrorResponse(ResponseValue::new(variant(value.into_inner()), status, headers))
                    }
                    Err(error) => error,
                }
            }
        }
    });
    let empty = without_body.then(|| {
        quote! {
            /// The error response without a body, as the operation's `variant`.
            pub(crate) fn empty<E>(response: reqwest::Response, variant: E) -> Error<E> {
                Error::ErrorResponse(ResponseValue::new(
                    variant,
                    response.status(),
                    response.headers().clone(),
                ))
            }
        }
    });
    // Variants without a body name no type.
    let types = with_body.then(|| {
        quote!(
            use super::types;
        )
    });
    syn::parse_quote! {
        /// The errors of the operations whose error responses carry different
        /// bodies: an enum per operation, one variant per documented status,
        /// each decoded with its own type.
        pub mod errors {
            #types
            use progenitor_client::{Error, ResponseValue};

            #(#enums)*

            #decode

            #empty
        }
    }
}

/// Makes `operation`'s `send` decode each error status with its own type:
/// its error type becomes the operation's enum (`errors::{Operation}Error`)
/// and each arm progenitor wrote as bytes decodes its status's body. Whether
/// progenitor's `send` was written that way (it was, unless the view kept
/// the errors typed).
fn errors_by_status(
    file: &mut syn::File,
    operation: &Operation,
    errors: &[&Response],
) -> Result<bool, String> {
    let send = builder_send(file, operation)?;
    let syn::ReturnType::Type(_, output) = &mut send.sig.output else {
        return Err(format!("`{}`'s `send` returns nothing", operation.id));
    };
    let byte_stream = quote!(Error<ByteStream>).to_string();
    let Some(error_type) = result_error_type(output)
        .filter(|ty| quote::ToTokens::to_token_stream(&**ty).to_string() == byte_stream)
    else {
        return Ok(false);
    };
    let ident = error_enum_ident(operation);
    *error_type = syn::parse_quote!(Error<crate::errors::#ident>);
    let mut arms = ErrorArms {
        operation,
        errors,
        ident,
        failure: None,
    };
    syn::visit_mut::VisitMut::visit_block_mut(&mut arms, &mut send.block);
    match arms.failure {
        Some(failure) => Err(failure),
        None => Ok(true),
    }
}

/// The `E` of a `Result<T, E>` type.
fn result_error_type(ty: &mut syn::Type) -> Option<&mut syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let segment = path.path.segments.last_mut()?;
    let syn::PathArguments::AngleBracketed(arguments) = &mut segment.arguments else {
        return None;
    };
    match arguments.args.iter_mut().nth(1)? {
        syn::GenericArgument::Type(error) => Some(error),
        _ => None,
    }
}

/// Rewrites the arms `status => Err(Error::ErrorResponse(ResponseValue::stream(response)))`
/// of a `send` (see [`errors_by_status`]).
struct ErrorArms<'a> {
    operation: &'a Operation,
    errors: &'a [&'a Response],
    ident: syn::Ident,
    failure: Option<String>,
}

impl syn::visit_mut::VisitMut for ErrorArms<'_> {
    fn visit_arm_mut(&mut self, arm: &mut syn::Arm) {
        // Progenitor writes the arm's body in a block.
        let raw = quote!(Err(Error::ErrorResponse(ResponseValue::stream(response))));
        let body = quote::ToTokens::to_token_stream(&*arm.body).to_string();
        if body != raw.to_string() && body != quote!({ #raw }).to_string() {
            return syn::visit_mut::visit_arm_mut(self, arm);
        }
        let status = match (&arm.pat, arm_codes(arm)) {
            (syn::Pat::Wild(_), _) => Status::Default,
            (syn::Pat::Lit(_), Some(codes)) => Status::Code(*codes.start()),
            (syn::Pat::Range(_), Some(codes)) => Status::Range(*codes.start() / 100),
            _ => {
                self.failure = Some(format!(
                    "`{}`: an error arm of no status",
                    self.operation.id
                ));
                return;
            }
        };
        let Some(response) = self
            .errors
            .iter()
            .find(|response| response.status == status)
        else {
            self.failure = Some(format!(
                "`{}`: progenitor answers {status}, which the spec does not list",
                self.operation.id
            ));
            return;
        };
        let ident = &self.ident;
        let variant = error_variant(response);
        *arm.body = match response.schema {
            Some(_) => syn::parse_quote! {
                Err(crate::errors::decode(response, crate::errors::#ident::#variant).await)
            },
            None => syn::parse_quote! {
                Err(crate::errors::empty(response, crate::errors::#ident::#variant))
            },
        };
    }
}

/// Replaces progenitor's `pub mod types { .. }` with a re-export of the types
/// crate, whose contents are that module's (the same run's type space).
fn reexport_types(file: &mut syn::File, types_package: &str) -> Result<(), String> {
    let types_crate = crate_ident(types_package);
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

/// Drops progenitor's `use super::types;` from its `builder` module where no
/// builder names a type (an API whose operations take and return no typed
/// value), which rustc reports as an unused import.
fn builder_without_unused_types(file: &mut syn::File) {
    let Some((_, items)) = file.items.iter_mut().find_map(|item| match item {
        syn::Item::Mod(module) if module.ident == "builder" => module.content.as_mut(),
        _ => None,
    }) else {
        return;
    };
    let is_types_import = |item: &syn::Item| {
        matches!(item, syn::Item::Use(import)
            if quote::quote!(#import).to_string() == "use super :: types ;")
    };
    let names_types = items
        .iter()
        .filter(|item| !is_types_import(item))
        .any(|item| {
            quote::quote!(#item)
                .into_iter()
                .any(|token| names_ident(&token, "types"))
        });
    if !names_types {
        items.retain(|item| !is_types_import(item));
    }
}

/// Whether `token` is, or holds, the identifier `name`.
fn names_ident(token: &proc_macro2::TokenTree, name: &str) -> bool {
    match token {
        proc_macro2::TokenTree::Ident(ident) => ident == name,
        proc_macro2::TokenTree::Group(group) => group
            .stream()
            .into_iter()
            .any(|token| names_ident(&token, name)),
        _ => false,
    }
}

/// The inherent `impl` blocks of `ident` among `items`.
fn impls_of<'a>(
    items: &'a mut [syn::Item],
    ident: &str,
) -> impl Iterator<Item = &'a mut syn::ItemImpl> + use<'a> {
    let ident = ident.to_string();
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

/// The hooks' table of operations, sorted by progenitor's `operation_id`:
/// each one's route template (relative to the base URL, as spans name it),
/// whether the description marks it `x-idempotent`, and the security
/// schemes that satisfy it; and the schemes, which the client builder
/// checks credentials against. Every id progenitor's calls hand the hooks
/// must be in the table.
fn operation_table(client: &syn::File, model: &ApiModel) -> Result<syn::File, String> {
    let runtime = crate_ident(crate::emit::RUNTIME_CRATE);
    let mut rows: Vec<(String, &Operation)> = model
        .operations
        .iter()
        .chain(&model.webhooks)
        .map(|operation| (naming::method_name(&operation.id), operation))
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    struct Ids(Vec<String>);
    impl<'ast> syn::visit::Visit<'ast> for Ids {
        fn visit_expr_struct(&mut self, node: &'ast syn::ExprStruct) {
            if node
                .path
                .segments
                .last()
                .is_some_and(|segment| segment.ident == "OperationInfo")
            {
                for field in &node.fields {
                    if let syn::Member::Named(name) = &field.member
                        && name == "operation_id"
                        && let syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(id),
                            ..
                        }) = &field.expr
                    {
                        self.0.push(id.value());
                    }
                }
            }
            syn::visit::visit_expr_struct(self, node);
        }
    }
    let mut ids = Ids(Vec::new());
    syn::visit::Visit::visit_file(&mut ids, client);
    if let Some(missing) = ids
        .0
        .iter()
        .find(|id| rows.binary_search_by(|row| row.0.as_str().cmp(id)).is_err())
    {
        return Err(format!(
            "progenitor's operation `{missing}` has no entry in the hooks' table"
        ));
    }
    let entries = rows.iter().map(|(id, operation)| {
        let route = &operation.path;
        let idempotent = operation.idempotent;
        let security = operation.requirements().into_iter().map(|requirement| {
            let names = requirement.iter().map(|scheme| &scheme.scheme);
            quote!(&[#(#names),*])
        });
        quote! {
            Operation { id: #id, route: #route, idempotent: #idempotent, security: &[#(#security),*] }
        }
    });
    let mut schemes: Vec<(&str, TokenStream)> = Vec::new();
    for requirement in model
        .operations
        .iter()
        .chain(&model.webhooks)
        .flat_map(|operation| &operation.security)
    {
        if schemes.iter().any(|(name, _)| *name == requirement.scheme) {
            continue;
        }
        let carrier = match &requirement.credential {
            Credential::Bearer => match &requirement.token_url {
                Some(url) => quote!(Carrier::ClientCredentials(#url)),
                None => quote!(Carrier::Bearer),
            },
            Credential::Http(scheme) if scheme == "basic" => quote!(Carrier::Basic),
            Credential::Http(scheme) => quote!(Carrier::Http(#scheme)),
            Credential::Header(name) => quote!(Carrier::Header(#name)),
            Credential::Query(name) => quote!(Carrier::Query(#name)),
            Credential::Cookie(name) => quote!(Carrier::Cookie(#name)),
        };
        schemes.push((&requirement.scheme, carrier));
    }
    schemes.sort_by(|a, b| a.0.cmp(b.0));
    // An API without security names no carrier.
    let carrier: Option<syn::Item> =
        (!schemes.is_empty()).then(|| syn::parse_quote!(use #runtime::credentials::Carrier;));
    let schemes = schemes
        .iter()
        .map(|(name, carrier)| quote!(Scheme { name: #name, carrier: #carrier }));
    Ok(syn::parse_quote! {
        use #runtime::credentials::Scheme;
        #carrier

        impl GeneratedClient for Client {
            const SCHEMES: &'static [Scheme] = &[#(#schemes),*];

            fn with_timeouts(baseurl: &str, hooks: Hooks, timeouts: crate::Timeouts) -> Self {
                Client::with_timeouts(baseurl, hooks, timeouts)
            }
        }

        /// Each operation's route, whether the description marks it
        /// idempotent, and the security schemes that satisfy it, by
        /// progenitor's `operation_id`.
        const OPERATIONS: &[Operation] = &[#(#entries),*];
    })
}

/// Replaces progenitor's `Client::new`, whose `reqwest::Client` has a total
/// timeout of 15 s that cuts any streamed response, by one taking the
/// runtime's `timeouts::Timeouts` (`Client::with_timeouts`, the type
/// re-exported beside the client); both install
/// the crypto provider first, so building the `reqwest::Client` cannot panic.
fn timeouts_in_new(file: &mut syn::File) -> Result<(), String> {
    let runtime = crate_ident(crate::emit::RUNTIME_CRATE);
    let block = impls_of(&mut file.items, "Client")
        .find(|block| {
            block.items.iter().any(
                |item| matches!(item, syn::ImplItem::Fn(function) if function.sig.ident == "new"),
            )
        })
        .ok_or("progenitor output has no `Client::new`")?;
    let at = block
        .items
        .iter()
        .position(|item| matches!(item, syn::ImplItem::Fn(function) if function.sig.ident == "new"))
        .ok_or("progenitor output has no `Client::new`")?;
    let new: syn::ImplItem = syn::parse_quote! {
        /// A client of the API at `baseurl` (a scheme, a host, and the
        /// port and path stem when there are any), with the default
        /// [`Timeouts`]: 15 s to connect, 60 s between reads, no total, so
        /// a streamed response is not cut.
        pub fn new(baseurl: &str, inner: crate::hooks::Hooks) -> Self {
            Self::with_timeouts(baseurl, inner, Timeouts::default())
        }
    };
    let builder: syn::ImplItem = syn::parse_quote! {
        /// A builder of the client of the API at `baseurl`, from production
        /// defaults: the default [`Timeouts`], and the default
        /// [`RetryPolicy`], which retries what cannot be applied twice (a
        /// refused connection, a 429, and a 5xx or a lost connection when the
        /// request is idempotent), honouring `Retry-After`. Give it a
        /// [`Credential`] per security scheme, and each call sends the one
        /// its operation requires.
        pub fn builder(baseurl: &str) -> crate::ClientBuilder {
            crate::ClientBuilder::new(baseurl)
        }
    };
    let with_timeouts: syn::ImplItem = syn::parse_quote! {
        /// A client of the API at `baseurl` whose connections have
        /// `timeouts`. For anything else a `reqwest::Client` can be set
        /// to, build one and pass it to [`Client::new_with_client`].
        pub fn with_timeouts(baseurl: &str, inner: crate::hooks::Hooks, timeouts: Timeouts) -> Self {
            #[cfg(feature = "rustls")]
            install_crypto_provider();
            let client = timeouts
                .apply(reqwest::ClientBuilder::new())
                .build()
                .expect("a reqwest::Client with these timeouts");
            Self::new_with_client(baseurl, client, inner)
        }
    };
    block.items.splice(at..=at, [new, builder, with_timeouts]);
    let position = file
        .items
        .iter()
        .position(|item| matches!(item, syn::Item::Impl(_)))
        .unwrap_or(file.items.len());
    file.items.insert(
        position,
        syn::parse_quote! {
            pub use #runtime::timeouts::Timeouts;
        },
    );
    Ok(())
}

/// Puts each single code of progenitor's matches on a status before a range
/// arm that holds it, and drops the arms after the first catch-all `_`.
/// Progenitor orders a range by its first code (`4XX` as 400, before a 429
/// beside it), which would leave the code unreachable, and after the `_` of
/// a `default` response it adds its own `_` for unexpected statuses.
struct StatusArms;

/// The code of a literal arm, or the codes of a range arm.
fn arm_codes(arm: &syn::Arm) -> Option<std::ops::RangeInclusive<u16>> {
    let code = |expr: &syn::Expr| match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(code),
            ..
        }) => code.base10_parse::<u16>().ok(),
        _ => None,
    };
    match &arm.pat {
        syn::Pat::Lit(literal) => {
            let code = code(&syn::Expr::Lit(literal.clone()))?;
            Some(code..=code)
        }
        syn::Pat::Range(range) => {
            Some(code(range.start.as_deref()?)?..=code(range.end.as_deref()?)?)
        }
        _ => None,
    }
}

impl syn::visit_mut::VisitMut for StatusArms {
    fn visit_expr_match_mut(&mut self, node: &mut syn::ExprMatch) {
        if let Some(wild) = node
            .arms
            .iter()
            .position(|arm| matches!(arm.pat, syn::Pat::Wild(_)))
        {
            node.arms.truncate(wild + 1);
        }
        let mut ordered: Vec<syn::Arm> = Vec::with_capacity(node.arms.len());
        for arm in node.arms.drain(..) {
            let covering = arm_codes(&arm)
                .filter(|codes| codes.start() == codes.end())
                .and_then(|codes| {
                    ordered.iter().position(|earlier| {
                        matches!(earlier.pat, syn::Pat::Range(_))
                            && arm_codes(earlier).is_some_and(|range| range.contains(codes.start()))
                    })
                });
            match covering {
                Some(position) => ordered.insert(position, arm),
                None => ordered.push(arm),
            }
        }
        node.arms = ordered;
        syn::visit_mut::visit_expr_match_mut(self, node);
    }
}

/// The operations whose body is `multipart/form-data` only, which the
/// client sends as a `multipart::Form` (the runtime's).
fn upload_operations(model: &ApiModel) -> Vec<&Operation> {
    model
        .operations
        .iter()
        .chain(&model.webhooks)
        .filter(|operation| {
            operation
                .request_body
                .as_ref()
                .is_some_and(|body| body.sent == MULTIPART)
        })
        .collect()
}

/// The `send` method of the builder of `operation`, in progenitor's
/// `builder` module.
fn builder_send<'a>(
    file: &'a mut syn::File,
    operation: &Operation,
) -> Result<&'a mut syn::ImplItemFn, String> {
    builder_send_impl(file, operation)?
        .items
        .iter_mut()
        .find_map(|item| match item {
            syn::ImplItem::Fn(function) if function.sig.ident == "send" => Some(function),
            _ => None,
        })
        .ok_or_else(|| format!("progenitor's builder of `{}` has no `send`", operation.id))
}

/// The `impl` block of `operation`'s builder that holds its `send`, in
/// progenitor's `builder` module.
fn builder_send_impl<'a>(
    file: &'a mut syn::File,
    operation: &Operation,
) -> Result<&'a mut syn::ItemImpl, String> {
    let builder = naming::type_name(&operation.id);
    let module = file
        .items
        .iter_mut()
        .find_map(|item| match item {
            syn::Item::Mod(module) if module.ident == "builder" => module.content.as_mut(),
            _ => None,
        })
        .ok_or("progenitor output has no `builder` module")?;
    impls_of(&mut module.1, &builder)
        .find(|block| {
            block.items.iter().any(
                |item| matches!(item, syn::ImplItem::Fn(function) if function.sig.ident == "send"),
            )
        })
        .ok_or_else(|| format!("progenitor's builder `{builder}` has no `send`"))
}

/// Makes the request of `operation` go as the spec says where progenitor
/// cannot: with the `OPTIONS` or `TRACE` method (reqwest's client has no
/// method for them), and with the body's media type when it is another JSON
/// (`application/merge-patch+json`) or another one passed as bytes
/// (`application/xml`, `text/csv`), which progenitor's view of the spec sends
/// as `application/json` or `application/octet-stream`
/// (`emit::view::progenitor_view`).
fn sent_as_specified(file: &mut syn::File, operation: &Operation) -> Result<(), String> {
    let method = match operation.method {
        Method::Options => Some(quote::quote!(OPTIONS)),
        Method::Trace => Some(quote::quote!(TRACE)),
        _ => None,
    };
    let sent = operation
        .request_body
        .as_ref()
        .map(|body| body.sent.as_str())
        .filter(|sent| {
            ![
                JSON,
                FORM,
                MULTIPART,
                "application/octet-stream",
                "text/plain",
            ]
            .contains(sent)
        });
    if method.is_none() && sent.is_none() {
        return Ok(());
    }
    let send = builder_send(file, operation)?;
    let mut rewrite = SentAsSpecified {
        method,
        json: sent.filter(|sent| is_json(sent)),
        raw: sent.filter(|sent| !is_json(sent)),
        done: 0,
    };
    syn::visit_mut::VisitMut::visit_block_mut(&mut rewrite, &mut send.block);
    let expected = usize::from(rewrite.method.is_some()) + usize::from(sent.is_some());
    if rewrite.done != expected {
        return Err(format!(
            "progenitor's `send` of `{}` is not as expected (a method call or a content type \
             to rewrite is missing)",
            operation.id
        ));
    }
    Ok(())
}

/// The rewrites of [`sent_as_specified`]; `done` counts those made.
struct SentAsSpecified<'a> {
    method: Option<proc_macro2::TokenStream>,
    json: Option<&'a str>,
    raw: Option<&'a str>,
    done: usize,
}

impl syn::visit_mut::VisitMut for SentAsSpecified<'_> {
    fn visit_expr_mut(&mut self, node: &mut syn::Expr) {
        syn::visit_mut::visit_expr_mut(self, node);
        match node {
            // `client.client.options(url)`: reqwest's `request(OPTIONS, url)`.
            syn::Expr::MethodCall(call)
                if (call.method == "options" || call.method == "trace")
                    && matches!(&*call.receiver, syn::Expr::Field(field)
                        if matches!(&field.member, syn::Member::Named(name) if name == "client")) =>
            {
                if let Some(method) = &self.method {
                    let receiver = &call.receiver;
                    let arguments = &call.args;
                    *node = syn::parse_quote! {
                        #receiver.request(::reqwest::Method::#method, #arguments)
                    };
                    self.done += 1;
                }
            }
            // `.json(&body)` sets `application/json` unless a type is set.
            syn::Expr::MethodCall(call) if call.method == "json" => {
                if let Some(media_type) = self.json.take() {
                    let receiver = &call.receiver;
                    let arguments = &call.args;
                    *node = syn::parse_quote! {
                        #receiver
                            .header(
                                ::reqwest::header::CONTENT_TYPE,
                                ::reqwest::header::HeaderValue::from_static(#media_type),
                            )
                            .json(#arguments)
                    };
                    self.done += 1;
                }
            }
            syn::Expr::Call(call) => {
                if let [
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }),
                ] = call.args.iter().collect::<Vec<_>>()[..]
                    && text.value() == "application/octet-stream"
                    && let Some(media_type) = self.raw.take()
                {
                    let literal = syn::LitStr::new(media_type, text.span());
                    call.args = syn::parse_quote!(#literal);
                    self.done += 1;
                }
            }
            _ => {}
        }
    }
}

/// Makes the builder of `operation`, which progenitor generated for an
/// `application/octet-stream` body (`emit::view::progenitor_view`),
/// take a `multipart::Form` and send it with the form's content type.
fn multipart_body(file: &mut syn::File, operation: &Operation) -> Result<(), String> {
    let builder = naming::type_name(&operation.id);
    let missing = |what: &str| format!("progenitor's builder `{builder}` has no {what}");
    let module = builder_module(file)?;
    let field = module
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
    for item in impls_of(module, &builder).flat_map(|block| block.items.iter_mut()) {
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

/// Marks each operation's and webhook's method of progenitor's `Client`
/// with its features (see [`Features::marker`]), which gate it and what it
/// reaches.
fn mark_entry_points(file: &mut syn::File, model: &ApiModel) {
    let features = Features::of(model);
    if !features.gated() {
        return;
    }
    for item in &mut file.items {
        let syn::Item::Impl(block) = item else {
            continue;
        };
        let is_client = block.trait_.is_none()
            && matches!(&*block.self_ty, syn::Type::Path(path) if path.path.is_ident("Client"));
        if !is_client {
            continue;
        }
        for member in &mut block.items {
            let syn::ImplItem::Fn(function) = member else {
                continue;
            };
            let Some(operation) = model
                .operations
                .iter()
                .chain(&model.webhooks)
                .find(|operation| function.sig.ident == naming::method_name(&operation.id))
            else {
                continue;
            };
            let marker = features.marker([operation]);
            let marker: syn::Attribute = syn::parse_quote!(#marker);
            function.attrs.push(marker);
        }
    }
}

/// Moves the webhooks' methods from progenitor's `Client` (where its view
/// of the spec put them, as operations at their routes) to a `Subscriber`,
/// which wraps a `Client` whose base URL is the one a subscriber registered:
/// the API's client keeps the API's operations only, and each webhook's
/// builder, types and hooks are progenitor's, as the operations' are.
fn subscriber(file: &mut syn::File, model: &ApiModel) -> Result<(), String> {
    let names: Vec<String> = model
        .webhooks
        .iter()
        .map(|webhook| naming::method_name(&webhook.id))
        .collect();
    let mut methods: Vec<syn::ImplItem> = Vec::new();
    for item in &mut file.items {
        let syn::Item::Impl(block) = item else {
            continue;
        };
        let is_client = block.trait_.is_none()
            && matches!(&*block.self_ty, syn::Type::Path(path) if path.path.is_ident("Client"));
        if !is_client {
            continue;
        }
        let (moved, kept): (Vec<syn::ImplItem>, Vec<syn::ImplItem>) =
            std::mem::take(&mut block.items)
                .into_iter()
                .partition(|item| {
                    matches!(item, syn::ImplItem::Fn(function)
                    if names.iter().any(|name| function.sig.ident == name))
                });
        block.items = kept;
        methods.extend(moved);
    }
    if methods.len() != names.len() {
        return Err("progenitor's `Client` lacks a webhook's method".into());
    }
    for method in &mut methods {
        if let syn::ImplItem::Fn(function) = method {
            // Progenitor's `builder::NewPet::new(self)`: the builder takes
            // the `Client`.
            let Some(webhook) = model
                .webhooks
                .iter()
                .find(|webhook| function.sig.ident == naming::method_name(&webhook.id))
            else {
                continue;
            };
            let builder = naming::ident(&naming::type_name(&webhook.id));
            function.block = syn::parse_quote!({
                builder::#builder::new(&self.client)
            });
        }
    }
    let methods: Vec<TokenStream> = methods
        .iter()
        .map(|method| {
            // The doc's example call.
            let tokens = quote!(#method);
            let tokens = replace_in_literals(tokens, "= client.", "= subscriber.");
            model.webhooks.iter().fold(tokens, |tokens, webhook| {
                without_view_fragment(tokens, &webhook.path)
            })
        })
        .collect();
    // An impl block left empty (an API of webhooks only) goes.
    file.items.retain(|item| {
        !matches!(item, syn::Item::Impl(block)
            if block.trait_.is_none() && block.items.is_empty()
                && matches!(&*block.self_ty, syn::Type::Path(path) if path.path.is_ident("Client")))
    });
    let builders = builder_module(file)?;
    for webhook in &model.webhooks {
        let builder = naming::type_name(&webhook.id);
        let method = naming::method_name(&webhook.id);
        for item in builders.iter_mut() {
            let owned = match item {
                syn::Item::Struct(item) => item.ident == builder,
                syn::Item::Impl(block) => matches!(&*block.self_ty, syn::Type::Path(path)
                    if path.path.segments.last().is_some_and(|segment| segment.ident == builder)),
                _ => false,
            };
            if !owned {
                continue;
            }
            let tokens = quote!(#item);
            let tokens = replace_in_literals(
                tokens,
                &format!("Client::{method}`"),
                &format!("Subscriber::{method}`"),
            );
            let tokens = replace_in_literals(
                tokens,
                &format!("super::Client::{method}"),
                &format!("super::Subscriber::{method}"),
            );
            let tokens = without_view_fragment(tokens, &webhook.path);
            *item = syn::parse2(tokens).map_err(|err| err.to_string())?;
        }
    }
    let title = crate::format::spec_text(&model.title);
    let docs = crate::format::doc_lines(&format!(
        "Sends the webhooks of the {title} to one subscriber: each to the URL the\n\
         subscriber registered followed by `/` and the webhook's name,\n\
         percent-encoded (each method's documentation names the path), where the\n\
         server crate's `webhooks_router`, nested at that URL, serves it.\n\n\
         Each webhook is a method returning a builder, as the operations of\n\
         [`Client`] are: set its parameters and body, then `send()` it; the\n\
         response is the subscriber's."
    ));
    let items: syn::File = syn::parse_quote! {
        #(#[doc = #docs])*
        #[derive(Clone, Debug)]
        pub struct Subscriber {
            client: Client,
        }

        impl Subscriber {
            /// The subscriber that registered `url`, reached with an HTTP
            /// client built as [`Client::new`] builds one; `hooks` prepare and
            /// execute every request (a [`Transport`] may sign them).
            pub fn new(url: &str, hooks: crate::hooks::Hooks) -> Self {
                Self {
                    client: Client::new(url, hooks),
                }
            }

            /// The subscriber that registered `url`, reached with `client`.
            pub fn new_with_client(
                url: &str,
                client: reqwest::Client,
                hooks: crate::hooks::Hooks,
            ) -> Self {
                Self {
                    client: Client::new_with_client(url, client, hooks),
                }
            }

            #(#methods)*
        }
    };
    // Beside the `Client`, before the builders.
    let at = file
        .items
        .iter()
        .position(|item| matches!(item, syn::Item::Mod(module) if module.ident == "builder"))
        .unwrap_or(file.items.len());
    file.items.splice(at..at, items.items);
    // The prelude offers it beside the `Client`.
    for item in &mut file.items {
        if let syn::Item::Mod(module) = item
            && module.ident == "prelude"
            && let Some((_, items)) = &mut module.content
        {
            items.push(syn::parse_quote!(
                pub use self::super::Subscriber;
            ));
        }
    }
    Ok(())
}

/// `tokens` with `from` replaced by `to` in every string literal (docs
/// included).
fn replace_in_literals(tokens: TokenStream, from: &str, to: &str) -> TokenStream {
    map_literals(tokens, &|text| text.replace(from, to))
}

/// `tokens` with the fragment the view gave a webhook's key where an API
/// path key is its route (`/events#webhook`, `emit::view`) taken out
/// of string literals: no request carries it, and the docs name the route.
fn without_view_fragment(tokens: TokenStream, route: &str) -> TokenStream {
    let marked = format!("{route}{}", crate::emit::view::WEBHOOK_FRAGMENT);
    map_literals(tokens, &|text| {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find(&marked) {
            out.push_str(&rest[..start]);
            out.push_str(route);
            rest = &rest[start + marked.len()..];
            // The `-2` of a second fragment.
            if let Some(number) = rest.strip_prefix('-') {
                let digits = number.len()
                    - number
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .len();
                if digits > 0 {
                    rest = &number[digits..];
                }
            }
        }
        out.push_str(rest);
        out
    })
}

/// `tokens` with `edit` applied to the text of every literal, through
/// groups (macro arguments such as `format!`'s included).
fn map_literals(tokens: TokenStream, edit: &dyn Fn(&str) -> String) -> TokenStream {
    tokens
        .into_iter()
        .map(|token| match token {
            TokenTree::Group(group) => {
                let mut edited =
                    proc_macro2::Group::new(group.delimiter(), map_literals(group.stream(), edit));
                edited.set_span(group.span());
                TokenTree::Group(edited)
            }
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                let edited = edit(&text);
                if edited == text {
                    return TokenTree::Literal(literal);
                }
                match edited.parse::<proc_macro2::Literal>() {
                    Ok(mut edited) => {
                        edited.set_span(literal.span());
                        TokenTree::Literal(edited)
                    }
                    Err(_) => TokenTree::Literal(literal),
                }
            }
            other => other,
        })
        .collect()
}

/// The items of progenitor's `builder` module.
fn builder_module(file: &mut syn::File) -> Result<&mut Vec<syn::Item>, String> {
    file.items
        .iter_mut()
        .find_map(|item| match item {
            syn::Item::Mod(module) if module.ident == "builder" => module.content.as_mut(),
            _ => None,
        })
        .map(|content| &mut content.1)
        .ok_or_else(|| "progenitor output has no `builder` module".to_string())
}

/// Whether the client writes some parameters itself.
pub fn writes_parameters(model: &ApiModel) -> bool {
    !operations_writing_parameters(model).is_empty()
}

/// The operations with a parameter progenitor does not write as the spec
/// says, which the client crate writes itself (`openapi_crates_runtime::client`).
fn operations_writing_parameters(model: &ApiModel) -> Vec<&Operation> {
    model
        .operations
        .iter()
        .chain(&model.webhooks)
        .filter(|operation| {
            !operation
                .parameters
                .iter()
                .all(Parameter::sent_by_progenitor)
        })
        .collect()
}

/// The type of an object-valued parameter, which progenitor was shown as
/// text (`emit::view::client_parameters`).
fn object_type(parameter: &Parameter) -> Option<TokenStream> {
    match &parameter.value {
        ValueType::Named(name) => {
            let ident = naming::ident(&naming::type_name(name));
            Some(quote!(types::#ident))
        }
        ValueType::Scalar(Scalar::Json) => Some(quote!(::serde_json::Value)),
        _ => None,
    }
}

/// The template's argument for how a parameter is written: its style, or
/// `None` for JSON text (`content: application/json`).
fn style_tokens(parameter: &Parameter) -> TokenStream {
    if parameter.shape.is_json() {
        return quote!(None);
    }
    let runtime = crate_ident(crate::emit::RUNTIME_CRATE);
    let style = parameter.style.bake(&quote!(#runtime::wire));
    quote!(Some(#style))
}

/// Makes the builder of `operation` write the parameters progenitor does
/// not write as the spec says: an object's setter takes the object's type,
/// and `send` writes each such parameter with the runtime's `client` in place of
/// progenitor's writing (a query pair, a header, a path segment).
fn write_parameters(file: &mut syn::File, operation: &Operation) -> Result<(), String> {
    let builder = naming::type_name(&operation.id);
    let missing = |what: &str| format!("progenitor's builder `{builder}` has no {what}");
    let ours: Vec<&Parameter> = operation
        .parameters
        .iter()
        .filter(|parameter| !parameter.sent_by_progenitor())
        .collect();
    let module = builder_module(file)?;
    let fields = module
        .iter_mut()
        .find_map(|item| match item {
            syn::Item::Struct(item) if item.ident == builder => Some(&mut item.fields),
            _ => None,
        })
        .ok_or_else(|| missing("struct"))?;
    for parameter in &ours {
        let Some(kind) = object_type(parameter) else {
            continue;
        };
        let ident = naming::ident(&naming::method_name(&parameter.name));
        let field = fields
            .iter_mut()
            .find(|field| field.ident.as_ref() == Some(&ident))
            .ok_or_else(|| missing(&format!("field `{ident}`")))?;
        field.ty = if parameter.required {
            syn::parse_quote!(Result<#kind, String>)
        } else {
            syn::parse_quote!(Result<Option<#kind>, String>)
        };
    }
    let mut sent = false;
    for item in impls_of(module, &builder).flat_map(|block| block.items.iter_mut()) {
        let syn::ImplItem::Fn(function) = item else {
            continue;
        };
        if function.sig.ident == "send" {
            write_in_send(&mut function.block, &ours).map_err(|what| missing(&what))?;
            sent = true;
            continue;
        }
        let Some(parameter) = ours
            .iter()
            .find(|parameter| function.sig.ident == naming::method_name(&parameter.name))
        else {
            continue;
        };
        let Some(kind) = object_type(parameter) else {
            continue;
        };
        let ident = &function.sig.ident;
        let type_name = quote!(#kind).to_string();
        let failed = format!(
            "conversion to `{}` for {ident} failed",
            type_name.rsplit(' ').next().unwrap_or_default()
        );
        let some = (!parameter.required).then(|| quote!(.map(Some)));
        *function = syn::parse_quote! {
            pub fn #ident<V>(mut self, value: V) -> Self
            where
                V: std::convert::TryInto<#kind>,
            {
                self.#ident = value.try_into()#some.map_err(|_| #failed.to_string());
                self
            }
        };
    }
    if !sent {
        return Err(missing("`send`"));
    }
    Ok(())
}

/// Takes progenitor's writing of `ours` out of `send` and writes them with
/// the runtime's `client`: a path segment before the URL is formatted, the query,
/// headers and cookies once the request is built.
fn write_in_send(block: &mut syn::Block, ours: &[&Parameter]) -> Result<(), String> {
    let runtime = crate_ident(crate::emit::RUNTIME_CRATE);
    let in_location = |location: In| {
        ours.iter()
            .filter(move |parameter| parameter.location == location)
            .copied()
    };
    let query_names: Vec<String> = in_location(In::Query)
        .map(|parameter| parameter.name.clone())
        .collect();
    let mut queries = QueryCalls {
        names: query_names,
        removed: 0,
    };
    syn::visit_mut::VisitMut::visit_block_mut(&mut queries, block);
    if queries.removed != queries.names.len() {
        return Err("query parameter written as `QueryParam`".into());
    }
    let header_names: Vec<&str> = ours
        .iter()
        .filter(|parameter| matches!(parameter.location, In::Header | In::Cookie))
        .map(|parameter| parameter.name.as_str())
        .collect();
    let before = block.stmts.len();
    block.stmts.retain(|statement| {
        !header_names
            .iter()
            .any(|name| appends_header(statement, name))
    });
    if before - block.stmts.len() != header_names.len() {
        return Err("header appended to `header_map`".into());
    }

    let path: Vec<&Parameter> = in_location(In::Path).collect();
    if !path.is_empty() {
        let url = block
            .stmts
            .iter()
            .position(|statement| local_named(statement, "url"))
            .ok_or("`url`")?;
        let syn::Stmt::Local(local) = &mut block.stmts[url] else {
            unreachable!("found as a `let`");
        };
        let Some(syn::LocalInit { expr, .. }) = &mut local.init else {
            return Err("`url` value".into());
        };
        let syn::Expr::Macro(format) = &mut **expr else {
            return Err("`url` formatted".into());
        };
        let mut tokens = format.mac.tokens.clone();
        let mut statements: Vec<syn::Stmt> = Vec::new();
        for parameter in &path {
            let ident = naming::ident(&naming::method_name(&parameter.name));
            let (replaced, found) = unencoded_path(tokens, &ident);
            if !found {
                return Err(format!("`encode_path` of `{ident}`"));
            }
            tokens = replaced;
            let name = &parameter.name;
            let style = style_tokens(parameter);
            statements.push(syn::parse_quote! {
                let #ident = #runtime::client::path(#name, #style, &#ident).map_err(Error::InvalidRequest)?;
            });
        }
        format.mac.tokens = tokens;
        block.stmts.splice(url..url, statements);
    }

    let others: Vec<TokenStream> = ours
        .iter()
        .filter(|parameter| parameter.location != In::Path)
        .map(|parameter| {
            let ident = naming::ident(&naming::method_name(&parameter.name));
            let name = &parameter.name;
            let style = style_tokens(parameter);
            let method = format_ident!("{}", parameter.location.as_str());
            quote!(.#method(#name, #style, &#ident))
        })
        .collect();
    if !others.is_empty() {
        let (position, request) = block
            .stmts
            .iter()
            .enumerate()
            .find_map(|(position, statement)| {
                let syn::Stmt::Local(local) = statement else {
                    return None;
                };
                let syn::Pat::Ident(pattern) = &local.pat else {
                    return None;
                };
                (pattern.mutability.is_some() && pattern.ident.to_string().starts_with("request"))
                    .then(|| (position, pattern.ident.clone()))
            })
            .ok_or("`let mut request`")?;
        block.stmts.insert(
            position + 1,
            syn::parse_quote! {
                #runtime::client::Params::default()
                    #(#others)*
                    .apply(&mut #request)
                    .map_err(Error::InvalidRequest)?;
            },
        );
    }
    Ok(())
}

/// Whether `statement` is `let {name} = ..`.
fn local_named(statement: &syn::Stmt, name: &str) -> bool {
    matches!(statement, syn::Stmt::Local(syn::Local { pat: syn::Pat::Ident(pattern), .. })
        if pattern.ident == name)
}

/// `tokens` with `encode_path(&ident.to_string())` replaced by `ident`, the
/// path segment the runtime's `client::path` wrote; and whether it was there.
fn unencoded_path(tokens: TokenStream, ident: &syn::Ident) -> (TokenStream, bool) {
    let mut found = false;
    let mut out: Vec<TokenTree> = Vec::new();
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        if let TokenTree::Ident(name) = &token
            && name == "encode_path"
            && let Some(TokenTree::Group(arguments)) = tokens.peek()
            && arguments
                .stream()
                .into_iter()
                .any(|inner| matches!(&inner, TokenTree::Ident(inner) if inner == ident))
        {
            tokens.next();
            out.push(TokenTree::Ident(ident.clone()));
            found = true;
            continue;
        }
        out.push(token);
    }
    (out.into_iter().collect(), found)
}

/// Whether `statement` appends header `name` to progenitor's `header_map`,
/// as such or under `if let Some(value) = ..`.
fn appends_header(statement: &syn::Stmt, name: &str) -> bool {
    struct Finder<'a> {
        name: &'a str,
        found: bool,
    }
    // syn's read-only visitor is not compiled in; the statement is small.
    impl syn::visit_mut::VisitMut for Finder<'_> {
        fn visit_expr_method_call_mut(&mut self, call: &mut syn::ExprMethodCall) {
            if call.method == "append"
                && matches!(&*call.receiver, syn::Expr::Path(path) if path.path.is_ident("header_map"))
                && matches!(call.args.first(), Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(text), .. })) if text.value() == self.name)
            {
                self.found = true;
            }
            syn::visit_mut::visit_expr_method_call_mut(self, call);
        }
    }
    let mut finder = Finder { name, found: false };
    syn::visit_mut::VisitMut::visit_stmt_mut(&mut finder, &mut statement.clone());
    finder.found
}

/// Takes `.query(&progenitor_client::QueryParam::new("name", ..))` out of
/// the request's chain for each of `names`, counting them.
struct QueryCalls {
    names: Vec<String>,
    removed: usize,
}

impl syn::visit_mut::VisitMut for QueryCalls {
    fn visit_expr_mut(&mut self, node: &mut syn::Expr) {
        while let syn::Expr::MethodCall(call) = node {
            let named = call.method == "query"
                && call.args.iter().any(|argument| {
                    let mut finder = QueryName(None);
                    syn::visit_mut::VisitMut::visit_expr_mut(&mut finder, &mut argument.clone());
                    finder.0.is_some_and(|name| self.names.contains(&name))
                });
            if !named {
                break;
            }
            *node = (*call.receiver).clone();
            self.removed += 1;
        }
        syn::visit_mut::visit_expr_mut(self, node);
    }
}

/// The first string literal of an expression: the name given to
/// `QueryParam::new`.
struct QueryName(Option<String>);

impl syn::visit_mut::VisitMut for QueryName {
    fn visit_lit_str_mut(&mut self, text: &mut syn::LitStr) {
        if self.0.is_none() {
            self.0 = Some(text.value());
        }
    }
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
    let crate_name = crate_ident(&model.crates.client);
    let mut text = if model.operations.is_empty() {
        format!(
            "Client of the {title} (version {version}).

Built by progenitor from the spec, which describes webhooks only: the
requests the API sends to its subscribers. [`Subscriber`] sends each to the
URL a subscriber registered, a method returning a builder: set the parameters
and the body, then `send()` it.
",
            title = crate::format::spec_text(&model.title),
            version = crate::format::spec_text(&model.version),
        )
    } else {
        format!(
            "Client of the {title} (version {version}).

Built by progenitor from the spec. Each operation is a method of [`Client`]
returning a builder: set the parameters and the body, then `send()` it.
",
            title = crate::format::spec_text(&model.title),
            version = crate::format::spec_text(&model.version),
        )
    };
    if let Some((example, operation)) = example_call(model) {
        // A byte stream cannot be printed: its status can.
        let shown = if success_is_bytes(operation) {
            "response.status()"
        } else {
            "response.into_inner()"
        };
        // The example's method exists only under its operation's features:
        // a team that enables other tags still runs the crate's doctests.
        let features = Features::of(model);
        let gate = match features.of_operation(&operation.id) {
            Some(enabling) if features.gated() => {
                let enabling: Vec<String> = enabling
                    .iter()
                    .map(|feature| format!("feature = \"{feature}\""))
                    .collect();
                format!("# #[cfg(any({}))]\n", enabling.join(", "))
            }
            _ => String::new(),
        };
        text.push_str(&format!(
            "
```no_run
{gate}# async fn example() -> Result<(), Box<dyn std::error::Error>> {{
let client = {crate_name}::Client::new(\"https://api.example.com\", {crate_name}::Hooks::default());
let response = client{example}.send().await?;
println!(\"{{:?}}\", {shown});
# Ok(())
# }}
```
"
        ));
    }
    if !model.webhooks.is_empty() {
        let also = if model.operations.is_empty() {
            "Each webhook"
        } else {
            "The API also sends webhooks, requests to the URL each of its subscribers\n\
             registered: each"
        };
        let webhooks: Vec<String> = model
            .webhooks
            .iter()
            .map(|webhook| format!("[`Subscriber::{}`]", naming::method_name(&webhook.id)))
            .collect();
        text.push_str(&format!(
            "
{also} is a method of [`Subscriber`], built with the subscriber's URL and
sent to it followed by `/` and the webhook's name, where the server crate's
`webhooks_router`, nested at that URL, serves it ({}):

```no_run
let subscriber = {crate_name}::Subscriber::new(
    \"https://subscriber.example/hooks\",
    {crate_name}::Hooks::default(),
);
# let _ = subscriber;
```
",
            webhooks.join(", ")
        ));
    }
    let method = |operation: &Operation| format!("`{}`", naming::method_name(&operation.id));
    let listed = |keep: &dyn Fn(&Operation) -> bool| -> Vec<String> {
        model
            .operations
            .iter()
            .chain(&model.webhooks)
            .filter(|operation| keep(operation))
            .map(method)
            .collect()
    };
    let raw_successes = listed(&|operation| has_mixed_bodies(operation, true));
    let raw_errors = listed(&|operation| {
        has_mixed_bodies(operation, false) && typed_errors(operation).is_none()
    });
    let typed_errors = listed(&|operation| typed_errors(operation).is_some());
    let uploads: Vec<String> = upload_operations(model)
        .into_iter()
        .map(|operation| {
            let owner = match operation.webhook {
                Some(_) => "Subscriber",
                None => "Client",
            };
            format!("[`{owner}::{}`]", naming::method_name(&operation.id))
        })
        .collect();
    if !uploads.is_empty() {
        text.push_str(&format!(
            "
The body of {} is a `multipart/form-data` upload, which progenitor cannot
send: its builder's `body` takes a [`multipart::Form`] of text fields and
files (a file may be a stream, sent as it is read), sent with the form's
content type and boundary.
",
            uploads.join(", ")
        ));
    }
    if writes_parameters(model) {
        text.push_str(
            "
Parameters progenitor does not write as the spec says (lists other than
repeated query pairs, objects, the `label` and `matrix` path styles, cookies,
values given as JSON with `content`) are written by this crate itself, in
their spec's style; their setters take the parameter's own type.
",
        );
    }
    if !raw_successes.is_empty() {
        text.push_str(&format!(
            "
The 2xx responses of {} carry different bodies (or a body and none);
progenitor gives each operation one success type, so they arrive as raw bytes
with their status, to decode by status (the server's response enum has one
typed variant per status).
",
            raw_successes.join(", ")
        ));
    }
    if !raw_errors.is_empty() {
        text.push_str(&format!(
            "
The error responses of {} carry different bodies, one of them not JSON: they
arrive as raw bytes with their status, to decode by status.
",
            raw_errors.join(", ")
        ));
    }
    if !typed_errors.is_empty() {
        text.push_str(&format!(
            "
The error responses of {} carry different bodies (a rate limit's beside the
API's error, say): their error is an enum of [`errors`], one variant per
documented status, each decoded with its own type.
",
            typed_errors.join(", ")
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
/// bodies, which progenitor's view gives it as bytes (`emit::view`).
fn has_mixed_bodies(operation: &crate::model::Operation, success: bool) -> bool {
    // A JSON body by its schema, bytes, or none.
    let mut schemas: Vec<(&Option<String>, bool)> = operation
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
        .map(|response| (&response.schema, response.is_raw()))
        .collect();
    schemas.sort();
    schemas.dedup();
    schemas.len() > 1
}

/// Whether the client returns the operation's success as a byte stream: a
/// body passed as bytes, successes with different bodies, or none documented
/// (progenitor's generic success).
fn success_is_bytes(operation: &Operation) -> bool {
    let successes: Vec<&crate::model::Response> = if operation.documents_success() {
        operation
            .responses
            .iter()
            .filter(|response| response.is_success())
            .collect()
    } else {
        operation.default_response.iter().collect()
    };
    successes.is_empty()
        || successes.iter().any(|response| response.is_raw())
        || successes
            .iter()
            .any(|response| response.schema != successes[0].schema)
}

/// A call of the first operation that needs no body, e.g.
/// `.get_thing().id("id")`, for the crate docs, and the operation.
fn example_call(model: &ApiModel) -> Option<(String, &Operation)> {
    // Strings are the one type a literal can give every parameter.
    let operation = model.operations.iter().find(|operation| {
        operation.request_body.is_none()
            && operation.parameters.iter().all(|parameter| {
                !parameter.required || parameter.shape == Shape::STRING && parameter.check.is_any()
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
    Some((call, operation))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status_arms(block: syn::Expr) -> String {
        let mut block = block;
        syn::visit_mut::VisitMut::visit_expr_mut(&mut StatusArms, &mut block);
        quote::quote!(#block).to_string()
    }

    #[test]
    fn a_webhooks_view_fragment_leaves_its_urls_and_docs() {
        let tokens = quote! {
            #[doc = "Sends a `POST` request to `/events#webhook-2`"]
            fn send() {
                let url = format!("{}/events#webhook", client.baseurl);
                let other = "/eventsource#webhook";
            }
        };
        let cleaned = without_view_fragment(tokens, "/events").to_string();
        assert!(
            cleaned.contains(r#""Sends a `POST` request to `/events`""#),
            "{cleaned}"
        );
        assert!(cleaned.contains(r#""{}/events""#), "{cleaned}");
        assert!(cleaned.contains(r#""/eventsource#webhook""#), "{cleaned}");
    }

    #[test]
    fn codes_go_before_the_range_holding_them_and_nothing_after_a_catch_all() {
        let reordered = status_arms(syn::parse_quote! {
            match status {
                200u16 => a,
                400u16..=499u16 => b,
                404u16 => c,
                429u16 => d,
                500u16..=599u16 => e,
                503u16 => f,
                _ => g,
                _ => h,
            }
        });
        let expected = quote::quote! {
            match status {
                200u16 => a,
                404u16 => c,
                429u16 => d,
                400u16..=499u16 => b,
                503u16 => f,
                500u16..=599u16 => e,
                _ => g,
            }
        };
        assert_eq!(reordered, expected.to_string());
        let kept = quote::quote! { match status { 200..=299 => a, 404u16 => b, _ => c } };
        assert_eq!(
            status_arms(syn::parse2(kept.clone()).unwrap()),
            kept.to_string(),
            "arms in no range stay where they are"
        );
    }
}
