//! Generation from a build script, as progenitor offers it: a crate's
//! `build.rs` turns a description into one Rust file under `OUT_DIR`,
//! which the crate includes at its root.
//!
//! ```no_run
//! // build.rs, in `fn main`:
//! let generated = openapi_crates_codegen::build::Builder::new("openapi.yaml")
//!     .generate()
//!     .unwrap_or_else(|problems| {
//!         eprintln!("{problems}");
//!         std::process::exit(1)
//!     });
//! // `generated.file()` is `$OUT_DIR/openapi.rs`.
//! # let _ = generated;
//! ```
//!
//! ```ignore
//! // src/lib.rs: at the crate root, since the code names its modules from it.
//! include!(concat!(env!("OUT_DIR"), "/openapi.rs"));
//! ```
//!
//! The file holds what the three generated crates hold, as modules: `types`,
//! `client` and, with [`Builder::server`], `server`. Every operation is
//! compiled (tags are not features of a crate the generator does not
//! write), the client's TLS is whatever the crate's `reqwest` enables, and
//! the crate depends on what the code names ([`Generated::dependencies`]:
//! `serde`, `reqwest`, `progenitor-client`, ..., for the server `axum` and
//! `openapi-crates-runtime`, whose `client` feature a client needs where it
//! writes parameters progenitor does not). The diagnostics are the
//! command's: errors fail the build script, warnings reach cargo as
//! `cargo::warning`. Cargo reruns the script when any file of the
//! description changes.

use std::path::{Path, PathBuf};

use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream, TokenTree};

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::emit::{RUNTIME_CRATE, crate_ident};
use crate::{Options, Output, Runtime, StringEnums, TagFeatures, format, generate_loaded, load};

/// What a build script generates, from which description.
#[derive(Debug, Clone)]
pub struct Builder {
    spec: PathBuf,
    server: bool,
    strict: bool,
    string_enums: StringEnums,
    out_dir: Option<PathBuf>,
    file_name: Option<String>,
}

/// What a build script generated.
#[derive(Debug, Clone)]
pub struct Generated {
    file: PathBuf,
    dependencies: Vec<&'static str>,
    runtime_features: Vec<String>,
    warnings: Diagnostics,
}

impl Generated {
    /// The file written, for `include!`.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The crates the generated code names, which the including crate must
    /// depend on (with the features this workspace's own manifests give
    /// them; see the generated crates' manifests of `openapi-crates
    /// codegen` for the versions).
    pub fn dependencies(&self) -> &[&'static str] {
        &self.dependencies
    }

    /// The features of `openapi-crates-runtime` the generated code uses,
    /// which the including crate's dependency on it must enable (`client`,
    /// `types`, `server`, `patterns`).
    pub fn runtime_features(&self) -> &[String] {
        &self.runtime_features
    }

    /// What the generator read otherwise than written (also printed for
    /// cargo).
    pub fn warnings(&self) -> &Diagnostics {
        &self.warnings
    }
}

impl Builder {
    /// The description at `spec`, relative to the build script's directory
    /// (the package root) unless absolute.
    pub fn new(spec: impl Into<PathBuf>) -> Self {
        Self {
            spec: spec.into(),
            server: false,
            strict: false,
            string_enums: StringEnums::Open,
            out_dir: None,
            file_name: None,
        }
    }

    /// Also generate the `server` module: a trait to implement and an axum
    /// router (the crate then depends on `axum` and
    /// `openapi-crates-runtime` too).
    pub fn server(mut self, server: bool) -> Self {
        self.server = server;
        self
    }

    /// Refuse the description on any warning.
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Whether string enums keep a value they do not list (the default) or
    /// refuse it ([`StringEnums`]).
    pub fn string_enums(mut self, string_enums: StringEnums) -> Self {
        self.string_enums = string_enums;
        self
    }

    /// Write into `dir` instead of `$OUT_DIR`.
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Name the file `name` [default: the description's file stem, `.rs`].
    pub fn file_name(mut self, name: impl Into<String>) -> Self {
        self.file_name = Some(name.into());
        self
    }

    /// Generates the file, prints what cargo needs (the files to watch, the
    /// warnings) and returns it; every problem otherwise, nothing written.
    pub fn generate(self) -> Result<Generated, Diagnostics> {
        let spec = load::load_spec(Path::new(""), &self.spec)?;
        for file in spec.source_map.files() {
            println!("cargo::rerun-if-changed={}", file.display());
        }
        let options = Options {
            crate_prefix: Some("api".into()),
            output: Output {
                runtime: Runtime::Path(PathBuf::from(RUNTIME_CRATE)),
                ..Output::default()
            },
            strict: self.strict,
            tag_features: TagFeatures::None,
            string_enums: self.string_enums,
            ..Options::default()
        };
        let tree = generate_loaded(spec, &options, &|failure| failure)?;
        for warning in &tree.warnings {
            println!("cargo::warning={}", warning.to_string().replace('\n', " "));
        }
        let lib = |package: &str| -> Result<&str, Diagnostic> {
            let path = options.output.dir.join(package).join("src/lib.rs");
            tree.get(&path)
                .map(|file| file.contents.as_str())
                .ok_or_else(|| Diagnostic::new(&self.spec, format!("internal error: no {package}")))
        };
        let types_crate = crate_ident("api-types");
        let mut modules = vec![("types", lib("api-types")?), ("client", lib("api-client")?)];
        if self.server {
            modules.push(("server", lib("api-server")?));
        }
        let mut items = TokenStream::new();
        for (name, code) in modules {
            let file: syn::File =
                syn::parse_str(code).map_err(|err| format::unparsable(&self.spec, &err))?;
            items.extend(as_module(file, name, &types_crate));
        }
        let file: syn::File =
            syn::parse2(items).map_err(|err| format::unparsable(&self.spec, &err))?;
        let text = format::format_file(&self.spec, file);

        let out_dir = match self.out_dir {
            Some(dir) => dir,
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or_else(|| {
                Diagnostic::new(
                    &self.spec,
                    "OUT_DIR is not set: call `generate` from a build script, or name a directory \
                     with `out_dir`",
                )
            })?,
        };
        let file_name = self.file_name.unwrap_or_else(|| {
            let stem = self.spec.file_stem().unwrap_or_default().to_string_lossy();
            format!("{stem}.rs")
        });
        let path = out_dir.join(file_name);
        std::fs::write(&path, text).map_err(|err| {
            Diagnostic::new(
                &self.spec,
                format!("cannot write {}: {err}", path.display()),
            )
        })?;
        let manifests: Vec<&crate::GeneratedFile> = tree
            .files
            .iter()
            .filter(|file| file.path.ends_with("Cargo.toml"))
            .filter(|file| {
                self.server || !file.path.starts_with(options.output.dir.join("api-server"))
            })
            .collect();
        let mut dependencies: Vec<&'static str> = manifests
            .iter()
            .flat_map(|file| {
                crate::emit::manifest::RUNTIME_CRATES
                    .iter()
                    .copied()
                    .filter(|name| {
                        *name != "rustls" && file.contents.contains(&format!("\n{name} "))
                    })
            })
            .collect();
        dependencies.sort_unstable();
        dependencies.dedup();
        let mut runtime_features: Vec<String> = manifests
            .iter()
            .flat_map(|file| runtime_features(&file.contents))
            .collect();
        runtime_features.sort_unstable();
        runtime_features.dedup();
        Ok(Generated {
            file: path,
            dependencies,
            runtime_features,
            warnings: tree.warnings,
        })
    }
}

/// The runtime features a generated manifest asks for (the server's
/// default `server` included).
fn runtime_features(manifest: &str) -> Vec<String> {
    let manifest: toml::Table = manifest
        .parse()
        .expect("the generator writes manifests that parse");
    let Some(runtime) = manifest["dependencies"].get(RUNTIME_CRATE) else {
        return Vec::new();
    };
    let mut features: Vec<String> = runtime
        .get("features")
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(toml::Value::as_str)
        .map(str::to_string)
        .collect();
    if runtime
        .get("default-features")
        .and_then(toml::Value::as_bool)
        != Some(false)
    {
        features.push("server".to_string());
    }
    features
}

/// A generated crate's code as `pub mod name { ... }` at the root of the
/// including crate: its paths from its own root (`crate::x`) go through the
/// module (`crate::name::x`), the types crate is `crate::types`, and what
/// its features would have compiled in is left out (the including crate
/// has none of them).
fn as_module(mut file: syn::File, name: &str, types_crate: &Ident) -> TokenStream {
    features_off(&mut file.items);
    // The crate's documentation shows its use as a crate, in doctests that
    // would run in the including crate's `cargo test`; the module says what
    // it is instead.
    file.attrs
        .retain(|attribute| !attribute.path().is_ident("doc"));
    let doc = format!(
        " The `{name}` of the generated crates, generated by openapi-crates from the \
         description this crate's build script names."
    );
    let module = Ident::new(name, Span::call_site());
    let code = rooted(quote::quote!(#file), &module, types_crate);
    quote::quote!(#[doc = #doc] pub mod #module { #code })
}

/// `tokens` with `crate ::` followed by `module ::`, and `types_crate` (as
/// `::types_crate` or bare) as `crate :: types`; inside macros too, which
/// a syntax tree does not open. Attributes that features alone decide
/// (with every feature off) are dropped where they hold: the items they
/// would leave out are gone already ([`features_off`]).
fn rooted(tokens: TokenStream, module: &Ident, types_crate: &Ident) -> TokenStream {
    let mut out: Vec<TokenTree> = Vec::new();
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match token {
            TokenTree::Punct(pound) if pound.as_char() == '#' => {
                let bang = match tokens.peek() {
                    Some(TokenTree::Punct(bang)) if bang.as_char() == '!' => tokens.next(),
                    _ => None,
                };
                match tokens.peek() {
                    Some(TokenTree::Group(group))
                        if group.delimiter() == proc_macro2::Delimiter::Bracket
                            && decided_by_features(group.stream()) =>
                    {
                        tokens.next();
                    }
                    _ => {
                        out.push(TokenTree::Punct(pound));
                        out.extend(bang);
                    }
                }
            }
            TokenTree::Group(group) => {
                let mut inner = proc_macro2::Group::new(
                    group.delimiter(),
                    rooted(group.stream(), module, types_crate),
                );
                inner.set_span(group.span());
                out.push(TokenTree::Group(inner));
            }
            TokenTree::Ident(ident) if ident == "crate" => {
                out.push(TokenTree::Ident(ident));
                // `crate::x` goes through the module; `pub(crate)` stays.
                if matches!(tokens.peek(), Some(TokenTree::Punct(punct)) if punct.as_char() == ':')
                {
                    let first = tokens.next();
                    let second = tokens.next();
                    out.extend(first);
                    out.extend(second);
                    out.push(TokenTree::Ident(module.clone()));
                    out.extend(path_separator());
                }
            }
            TokenTree::Ident(ident) if &ident == types_crate => {
                // A crate's name is never reached through another path: a
                // `::` before it is the leading one, which goes.
                if out.len() >= 2
                    && matches!(&out[out.len() - 1], TokenTree::Punct(p) if p.as_char() == ':')
                    && matches!(&out[out.len() - 2], TokenTree::Punct(p) if p.as_char() == ':')
                {
                    out.truncate(out.len() - 2);
                }
                out.push(TokenTree::Ident(Ident::new("crate", ident.span())));
                out.extend(path_separator());
                out.push(TokenTree::Ident(Ident::new("types", ident.span())));
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

fn path_separator() -> [TokenTree; 2] {
    [
        TokenTree::Punct(Punct::new(':', Spacing::Joint)),
        TokenTree::Punct(Punct::new(':', Spacing::Alone)),
    ]
}

/// Removes the items and statements compiled only with a cargo feature,
/// and the `cfg_attr`s that name one: with every feature off, as in a crate
/// that declares none of them.
fn features_off(items: &mut Vec<syn::Item>) {
    struct Off;
    impl syn::visit_mut::VisitMut for Off {
        fn visit_block_mut(&mut self, block: &mut syn::Block) {
            block.stmts.retain(|stmt| {
                let attributes = match stmt {
                    syn::Stmt::Item(item) => item_attributes(item),
                    syn::Stmt::Expr(syn::Expr::Call(call), _) => &call.attrs[..],
                    syn::Stmt::Expr(syn::Expr::MethodCall(call), _) => &call.attrs[..],
                    syn::Stmt::Expr(syn::Expr::Macro(call), _) => &call.attrs[..],
                    syn::Stmt::Local(local) => &local.attrs[..],
                    syn::Stmt::Macro(call) => &call.attrs[..],
                    _ => &[],
                };
                !only_with_a_feature(attributes)
            });
            syn::visit_mut::visit_block_mut(self, block);
        }

        fn visit_item_mod_mut(&mut self, module: &mut syn::ItemMod) {
            if let Some((_, items)) = &mut module.content {
                features_off(items);
            }
        }

        fn visit_item_impl_mut(&mut self, item: &mut syn::ItemImpl) {
            item.items.retain(|item| {
                let attributes = match item {
                    syn::ImplItem::Fn(item) => &item.attrs[..],
                    syn::ImplItem::Const(item) => &item.attrs[..],
                    syn::ImplItem::Type(item) => &item.attrs[..],
                    _ => &[],
                };
                !only_with_a_feature(attributes)
            });
            syn::visit_mut::visit_item_impl_mut(self, item);
        }
    }
    items.retain(|item| !only_with_a_feature(item_attributes(item)));
    for item in items.iter_mut() {
        syn::visit_mut::VisitMut::visit_item_mut(&mut Off, item);
    }
}

fn item_attributes(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Fn(item) => &item.attrs,
        syn::Item::Struct(item) => &item.attrs,
        syn::Item::Enum(item) => &item.attrs,
        syn::Item::Impl(item) => &item.attrs,
        syn::Item::Mod(item) => &item.attrs,
        syn::Item::Use(item) => &item.attrs,
        syn::Item::Const(item) => &item.attrs,
        syn::Item::Static(item) => &item.attrs,
        syn::Item::Trait(item) => &item.attrs,
        syn::Item::Type(item) => &item.attrs,
        _ => &[],
    }
}

fn is_cfg(attribute: &syn::Attribute) -> bool {
    attribute.path().is_ident("cfg")
}

/// A `#[cfg(...)]` that holds only when some feature is on (`feature =
/// "x"`, or `all`/`any` of such): false with every feature off.
fn only_with_a_feature(attributes: &[syn::Attribute]) -> bool {
    attributes
        .iter()
        .filter(|attribute| is_cfg(attribute))
        .any(|attribute| {
            attribute
                .parse_args::<syn::Meta>()
                .is_ok_and(|meta| evaluates(&meta) == Some(false))
        })
}

/// A `cfg` predicate with every feature off: `Some` when features alone
/// decide it.
fn evaluates(meta: &syn::Meta) -> Option<bool> {
    match meta {
        syn::Meta::NameValue(pair) if pair.path.is_ident("feature") => Some(false),
        syn::Meta::List(list) => {
            let inner: Vec<syn::Meta> = list
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                )
                .ok()?
                .into_iter()
                .collect();
            let values: Vec<Option<bool>> = inner.iter().map(evaluates).collect();
            if list.path.is_ident("not") {
                values.first().copied().flatten().map(|value| !value)
            } else if list.path.is_ident("all") {
                if values.contains(&Some(false)) {
                    Some(false)
                } else {
                    values.into_iter().collect::<Option<Vec<_>>>().map(|_| true)
                }
            } else if list.path.is_ident("any") {
                if values.contains(&Some(true)) {
                    Some(true)
                } else {
                    values
                        .into_iter()
                        .collect::<Option<Vec<_>>>()
                        .map(|_| false)
                }
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Whether the attribute `[content]` is decided by features alone so that
/// it can go: a `cfg` that holds with every feature off, or a `cfg_attr`
/// whose predicate does not (`cfg_attr(not(feature = "all"), ...)` holds:
/// its attributes are kept only when they allow something, see
/// [`features_off`], and here it is simply dropped as the crate compiles
/// every operation).
fn decided_by_features(content: TokenStream) -> bool {
    let Ok(meta) = syn::parse2::<syn::Meta>(content) else {
        return false;
    };
    match &meta {
        syn::Meta::List(list) if list.path.is_ident("cfg") => list
            .parse_args::<syn::Meta>()
            .is_ok_and(|predicate| evaluates(&predicate) == Some(true)),
        syn::Meta::List(list) if list.path.is_ident("cfg_attr") => list
            .parse_args_with(
                syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
            )
            .ok()
            .and_then(|parts| parts.first().and_then(evaluates))
            .is_some(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(code: &str, name: &str) -> String {
        let file: syn::File = syn::parse_str(code).unwrap();
        as_module(file, name, &Ident::new("api_types", Span::call_site())).to_string()
    }

    #[test]
    fn paths_from_the_root_go_through_the_module() {
        let out = module(
            "pub use ::api_types as types; pub(crate) fn f() { crate::hooks::run(); x!(crate::a); }",
            "client",
        );
        assert_eq!(
            out,
            "# [doc = \" The `client` of the generated crates, generated by openapi-crates from the description this crate's build script names.\"] pub mod client { pub use crate :: types as types ; pub (crate) fn f () { crate :: client :: hooks :: run () ; x ! (crate :: client :: a) ; } }"
        );
    }

    #[test]
    fn what_a_feature_compiles_in_is_left_out() {
        let out = module(
            "#![cfg_attr(not(feature = \"all\"), allow(dead_code))]\n\
             #[cfg(feature = \"rustls\")] fn tls() {}\n\
             #[cfg(not(feature = \"rustls\"))] fn plain() {}\n\
             #[cfg(target_arch = \"wasm32\")] fn wasm() {}\n\
             fn new() { #[cfg(feature = \"rustls\")] tls(); plain(); }",
            "client",
        );
        assert!(!out.contains("fn tls"), "{out}");
        assert!(!out.contains("tls ()"), "{out}");
        assert!(!out.contains("feature"), "{out}");
        assert!(out.contains("fn plain"), "{out}");
        assert!(out.contains("target_arch"), "{out}");
    }
}
