//! The types crate: every type of the API, generated once.
//!
//! Its contents are the type space of the one progenitor run
//! ([`super::progenitor`]): each component schema, and the types typify
//! derives from parameters and inline schemas. The client crate re-exports
//! it, and the server names its types from it.

use std::collections::BTreeSet;

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::quote;

use crate::emit::features::item_key;
use crate::format::{module_body, split_items};

use crate::model::{ApiModel, Method};
use crate::naming;

/// The types crate as tokens, to be rewritten by [`TypesRewrite`] as it is
/// parsed: typify's output is most of the generated code, so it is parsed
/// once, a few items at a time ([`crate::format::cut`]).
/// `builders`: whether typify's `builder` module is left (see
/// [`without_unused_builders`]).
pub fn emit_types(
    model: &ApiModel,
    types: TokenStream,
    rewrite: &TypesRewrite,
    builders: bool,
) -> TokenStream {
    let docs = crate_docs(model, builders);
    let nullable_module = if rewrite.nullable.is_empty() {
        quote!()
    } else {
        quote! {
            /// Reads a present field, `null` included, as `Some`: with
            /// `#[serde(default)]`, an absent field stays `None`. For the
            /// types whose serde impls stay derived (a written-out one reads
            /// `null` itself), so it may have no caller.
            #[allow(dead_code)]
            mod nullable {
                pub(crate) fn deserialize<'de, D, T>(
                    deserializer: D,
                ) -> Result<Option<Option<T>>, D::Error>
                where
                    D: ::serde::Deserializer<'de>,
                    T: ::serde::Deserialize<'de>,
                {
                    <Option<T> as ::serde::Deserialize>::deserialize(deserializer).map(Some)
                }
            }
        }
    };
    let checked_module = checked_module();
    quote! {
        #(#![doc = #docs])*
        #![allow(clippy::clone_on_copy, clippy::derivable_impls, clippy::to_string_trait_impl)]
        // Typify sizes each `oneOf` variant as the spec shapes it; boxing
        // the large ones would change the types' API.
        #![allow(clippy::large_enum_variant)]
        // The description's shapes, spelled out: a map of lists of maps is
        // its schema, not a type to name; a default or an example of
        // `3.14159` or of more digits than `f32` holds is its data.
        #![allow(clippy::type_complexity, clippy::approx_constant, clippy::excessive_precision)]

        #types

        #nullable_module

        #checked_module
    }
}

/// The types whose builders the client names (`types::builder::X`): the
/// request bodies its builders take.
pub fn builders_used(client: TokenStream) -> BTreeSet<String> {
    fn scan(tokens: TokenStream, used: &mut BTreeSet<String>) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        for (index, token) in tokens.iter().enumerate() {
            match token {
                TokenTree::Group(group) => scan(group.stream(), used),
                TokenTree::Ident(ident) if ident == "types" => {
                    if let [
                        TokenTree::Punct(_),
                        TokenTree::Punct(_),
                        TokenTree::Ident(module),
                        TokenTree::Punct(_),
                        TokenTree::Punct(_),
                        TokenTree::Ident(name),
                        ..,
                    ] = &tokens[index + 1..]
                        && module == "builder"
                    {
                        used.insert(name.to_string());
                    }
                }
                _ => {}
            }
        }
    }
    let mut used = BTreeSet::new();
    scan(client, &mut used);
    used
}

/// Typify's output without the builders of types other than `used`
/// (`builder::X`, its impls, and `X::builder()`): a builder is half of a
/// struct's code, and only those of request bodies are ever used (the
/// client's body builders take them); every other type is built with its
/// public fields.
pub fn without_unused_builders(types: TokenStream, used: &BTreeSet<String>) -> TokenStream {
    let is_used = |item: &[TokenTree]| item_key(item).is_some_and(|key| used.contains(&key));
    let mut out = TokenStream::new();
    for item in split_items(types) {
        match module_body(item) {
            Ok((header, body)) => {
                let is_builder =
                    matches!(header.last(), Some(TokenTree::Ident(name)) if name == "builder");
                let body: TokenStream = body
                    .into_iter()
                    .filter(|item| !is_builder || is_used(item))
                    .flatten()
                    .collect();
                if is_builder && body.is_empty() {
                    continue;
                }
                out.extend(header);
                out.extend([TokenTree::Group(Group::new(Delimiter::Brace, body))]);
            }
            Err(item) => {
                if is_builder_constructor(&item) && !is_used(&item) {
                    continue;
                }
                out.extend(item);
            }
        }
    }
    out
}

/// `impl X { pub fn builder() -> builder::X { .. } }`, as typify writes it.
fn is_builder_constructor(item: &[TokenTree]) -> bool {
    let Some(TokenTree::Group(body)) = item.last() else {
        return false;
    };
    let opens_impl = item
        .iter()
        .any(|token| matches!(token, TokenTree::Ident(ident) if ident == "impl"));
    let names_for = item
        .iter()
        .any(|token| matches!(token, TokenTree::Ident(ident) if ident == "for"));
    let members: Vec<TokenTree> = body.stream().into_iter().take(3).collect();
    opens_impl
        && !names_for
        && matches!(members.as_slice(), [TokenTree::Ident(public), TokenTree::Ident(function), TokenTree::Ident(name)]
            if public == "pub" && function == "fn" && name == "builder")
}

/// Typify's generic default helpers (`defaults::default_i64::<T, V>` and
/// kin). It registers one for every integer or boolean default it meets,
/// even where the field then takes no default (an `Option`, a number), and an
/// unused helper is dead code that `-D warnings` rejects.
const GENERIC_DEFAULT_HELPERS: [&str; 4] = [
    "default_bool",
    "default_i64",
    "default_u64",
    "default_nzu64",
];

/// The changes typify's items need once parsed, made item by item as the
/// formatter parses them (so the crate is never one syntax tree).
pub struct TypesRewrite {
    /// The (struct, field) pairs whose `null` must stay apart from absent.
    nullable: Vec<(String, String)>,
    /// The generic default helpers nothing names, to leave out.
    unused_helpers: Vec<&'static str>,
    /// Typify's `Deserialize` body for a constrained string, as text.
    checked_string_body: String,
}

impl TypesRewrite {
    pub fn of(model: &ApiModel) -> Self {
        let body: syn::Block = syn::parse_quote!({
            ::std::string::String::deserialize(deserializer)?
                .parse()
                .map_err(|e: self::error::ConversionError| {
                    <D::Error as ::serde::de::Error>::custom(e.to_string())
                })
        });
        TypesRewrite {
            nullable: patch_nullable_fields(model),
            unused_helpers: Vec::new(),
            checked_string_body: block_text(&body),
        }
    }

    /// The structs whose fields [`TypesRewrite::rewrite`] changes: their
    /// `Deserialize` stays derived ([`super::deserialize`]).
    pub fn rewritten_structs(&self) -> BTreeSet<String> {
        self.nullable.iter().map(|(name, _)| name.clone()).collect()
    }

    /// Notes the generic default helpers `code` names only where it defines
    /// them: serde attributes name a helper in a string, `Default` impls and
    /// builders as a path, and both show in the text.
    pub fn find_unused_default_helpers(&mut self, code: &crate::format::Cut) {
        self.unused_helpers = GENERIC_DEFAULT_HELPERS
            .into_iter()
            .filter(|name| code.occurrences(name) <= 1)
            .collect();
    }

    /// Rewrites `item` (held by `module`, `None` at the top level); `false`
    /// when the item is to be left out.
    pub fn rewrite(&self, module: Option<&syn::Ident>, item: &mut syn::Item) -> bool {
        match (module, item) {
            (None, syn::Item::Struct(item)) => tell_null_from_absent(item, &self.nullable),
            (None, syn::Item::Impl(block)) => {
                take_checked_text(block, &self.checked_string_body);
                shared_pattern_check(block);
                inline_conversions(block);
            }
            (None, syn::Item::Mod(module)) if module.ident == "builder" => {
                if let Some((_, items)) = &mut module.content {
                    for item in items {
                        widen_builder(item, &self.nullable);
                        setters_named_like_operators(item);
                        if let syn::Item::Impl(block) = item {
                            inline_conversions(block);
                        }
                    }
                }
            }
            (Some(module), item) if module == "builder" => {
                widen_builder(item, &self.nullable);
                setters_named_like_operators(item);
                if let syn::Item::Impl(block) = item {
                    inline_conversions(block);
                }
            }
            (None, syn::Item::Mod(module)) if module.ident == "defaults" => {
                if let Some((_, items)) = &mut module.content {
                    items.retain(|item| !self.is_unused_helper(item));
                }
            }
            (Some(module), item) if module == "defaults" => return !self.is_unused_helper(item),
            _ => {}
        }
        true
    }

    fn is_unused_helper(&self, item: &syn::Item) -> bool {
        matches!(item, syn::Item::Fn(function)
            if self.unused_helpers.iter().any(|name| function.sig.ident == name))
    }
}

/// The runtime's `types` module, under the name the rewritten impls call
/// (`crate::__checked::text`, the written-out serde impls' helpers) and the
/// generated server reaches (`types::__checked::assume_checked`). A `use`
/// is compiled whatever the features, as its users are added after gating.
fn checked_module() -> TokenStream {
    let runtime = super::crate_ident(super::RUNTIME_CRATE);
    quote! {
        #[doc(hidden)]
        pub use ::#runtime::types as __checked;
    }
}

/// Typify's constrained-string newtypes deserialize a `String` and parse it
/// (lengths, pattern). Within the runtime's `types::assume_checked` they keep
/// the deserialized text as it is; elsewhere they parse it as before. An
/// impl of another shape is left alone.
fn take_checked_text(block: &mut syn::ItemImpl, typify_body: &str) {
    let is_deserialize = block.trait_.as_ref().is_some_and(|(path, _)| {
        path.segments
            .last()
            .is_some_and(|segment| segment.ident == "Deserialize")
    });
    if !is_deserialize {
        return;
    }
    for member in &mut block.items {
        if let syn::ImplItem::Fn(method) = member
            && method.sig.ident == "deserialize"
            && block_text(&method.block) == typify_body
        {
            method.block = syn::parse_quote!({ crate::__checked::text(deserializer, Self) });
        }
    }
}

/// Typify's `FromStr` of a string with a `pattern` compiles it into a
/// `static PATTERN: LazyLock<Regex>` of its own, a closure and a `LazyLock`
/// for rustc to instantiate per type; the same check goes through
/// `__checked::matches` instead, with a `OnceLock` per type. An impl of
/// another shape is left alone.
fn shared_pattern_check(block: &mut syn::ItemImpl) {
    let is_from_str = block.trait_.as_ref().is_some_and(|(path, _)| {
        path.segments
            .last()
            .is_some_and(|segment| segment.ident == "FromStr")
    });
    if !is_from_str {
        return;
    }
    let typify_check = quote!(PATTERN.find(value).is_none()).to_string();
    for member in &mut block.items {
        let syn::ImplItem::Fn(method) = member else {
            continue;
        };
        let statements = &mut method.block.stmts;
        let pattern =
            statements
                .iter()
                .enumerate()
                .find_map(|(index, statement)| match statement {
                    syn::Stmt::Item(syn::Item::Static(pattern)) if pattern.ident == "PATTERN" => {
                        Some((index, first_string(quote!(#pattern))?))
                    }
                    _ => None,
                });
        let check = statements.iter().position(|statement| {
            matches!(statement, syn::Stmt::Expr(syn::Expr::If(check), _)
                if { let condition = &check.cond; quote!(#condition).to_string() == typify_check })
        });
        // Both or neither: a `OnceLock` has no `find`.
        let (Some((at, source)), Some(check)) = (pattern, check) else {
            continue;
        };
        statements[at] = syn::parse_quote! {
            static PATTERN: ::std::sync::OnceLock<::regress::Regex> = ::std::sync::OnceLock::new();
        };
        if let syn::Stmt::Expr(syn::Expr::If(check), _) = &mut statements[check] {
            check.cond = syn::parse_quote! {
                !crate::__checked::matches(&PATTERN, #source, value)
            };
        }
    }
}

/// The traits of typify's conversions: one impl or more per type (a string
/// enum has `Display`, `FromStr` and three `TryFrom`s), few of them called.
const CONVERSION_TRAITS: &[&str] = &["Default", "Deref", "Display", "From", "FromStr", "TryFrom"];

/// Marks the methods of typify's conversions `#[inline]`. A debug build
/// compiles an `#[inline]` function in the crates that call it, not in the
/// crate that defines it: the types crate stops compiling thousands of
/// conversions nobody calls (most of its machine code, after its metadata,
/// where the client waits for it), and a crate that calls one compiles that
/// one. An optimized build may inline them, as they are small.
fn inline_conversions(block: &mut syn::ItemImpl) {
    let is_conversion = block.trait_.as_ref().is_some_and(|(path, _)| {
        path.segments
            .last()
            .is_some_and(|segment| CONVERSION_TRAITS.iter().any(|name| segment.ident == name))
    });
    if !is_conversion {
        return;
    }
    for member in &mut block.items {
        if let syn::ImplItem::Fn(method) = member
            && !method
                .attrs
                .iter()
                .any(|attr| attr.path().is_ident("inline"))
        {
            method.attrs.push(syn::parse_quote!(#[inline]));
        }
    }
}

/// The first string literal in `tokens`.
fn first_string(tokens: TokenStream) -> Option<syn::LitStr> {
    tokens.into_iter().find_map(|token| match token {
        TokenTree::Group(group) => first_string(group.stream()),
        TokenTree::Literal(literal) => syn::parse2(TokenTree::Literal(literal).into()).ok(),
        _ => None,
    })
}

/// A block as text, for comparison; trailing commas in calls come and go
/// with typify's versions.
fn block_text(block: &syn::Block) -> String {
    quote!(#block).to_string().replace(" ,)", ")")
}

/// The methods of `std::ops` traits that take `self` and one value and
/// return `Self`, as a builder's setter does.
const OPERATOR_METHODS: &[&str] = &[
    "add", "sub", "mul", "div", "rem", "shl", "shr", "bitand", "bitor", "bitxor",
];

/// A builder's setter is named after its property: one named `sub` (a JSON
/// Web Token's subject, say) looks to clippy like `Sub::sub` done by hand.
/// It is a setter, and keeps the property's name.
fn setters_named_like_operators(item: &mut syn::Item) {
    let syn::Item::Impl(block) = item else {
        return;
    };
    for member in &mut block.items {
        if let syn::ImplItem::Fn(method) = member
            && OPERATOR_METHODS.iter().any(|name| method.sig.ident == name)
        {
            method
                .attrs
                .push(syn::parse_quote!(#[allow(clippy::should_implement_trait)]));
        }
    }
}

/// Turns each listed field of `item` from `Option<T>` into
/// `Option<Option<T>>`: `None` when absent, `Some(None)` for `null`,
/// `Some(Some(value))` otherwise ([`widen_builder`] does its builder).
fn tell_null_from_absent(item: &mut syn::ItemStruct, fields: &[(String, String)]) {
    if fields.is_empty() {
        return;
    }
    for field in &mut item.fields {
        let Some(ident) = &field.ident else { continue };
        if !fields.contains(&(item.ident.to_string(), ident.to_string())) {
            continue;
        }
        let inner = field.ty.clone();
        field.ty = syn::parse_quote!(::std::option::Option<#inner>);
        field.attrs.retain(|attr| !attr.path().is_ident("serde"));
        field.attrs.push(syn::parse_quote!(#[serde(
            default,
            skip_serializing_if = "::std::option::Option::is_none",
            deserialize_with = "nullable::deserialize"
        )]));
    }
}

/// The (struct, field) pairs whose `null` must stay apart from absent: the
/// optional nullable properties of PATCH bodies, where `null` clears a value
/// and leaving the field out keeps it.
fn patch_nullable_fields(model: &ApiModel) -> Vec<(String, String)> {
    let schemas = model
        .openapi
        .components
        .as_ref()
        .map(|components| &components.schemas);
    let mut fields = Vec::new();
    let patch_schemas = model
        .operations
        .iter()
        .chain(&model.webhooks)
        .filter(|operation| operation.method == Method::Patch)
        .filter_map(|operation| operation.request_body.as_ref())
        .flat_map(|body| body.schemas());
    for body_schema in patch_schemas {
        let Some(openapiv3::ReferenceOr::Item(schema)) =
            schemas.and_then(|schemas| schemas.get(body_schema))
        else {
            continue;
        };
        let openapiv3::SchemaKind::Type(openapiv3::Type::Object(object)) = &schema.schema_kind
        else {
            continue;
        };
        // The field names typify gives, clashing spellings told apart.
        let names: Vec<&str> = object.properties.keys().map(String::as_str).collect();
        let sources = naming::distinct(&names, &[naming::field_name]);
        for ((name, property), source) in object.properties.iter().zip(&sources) {
            // A `default` does not count: progenitor's view of the spec has
            // none in PATCH bodies (absent means "keep the value").
            let nullable = matches!(
                property,
                openapiv3::ReferenceOr::Item(property) if property.schema_data.nullable
            );
            let pair = (naming::type_name(body_schema), naming::field_name(source));
            if nullable && !object.required.contains(name) && !fields.contains(&pair) {
                fields.push(pair);
            }
        }
    }
    fields
}

/// In the builder of a listed struct, the field's type and its setter's
/// bound get the extra `Option` too.
fn widen_builder(item: &mut syn::Item, fields: &[(String, String)]) {
    use syn::visit_mut::VisitMut;
    struct Widen(String);
    impl VisitMut for Widen {
        fn visit_type_mut(&mut self, ty: &mut syn::Type) {
            if quote!(#ty).to_string() == self.0 {
                let inner = ty.clone();
                *ty = syn::parse_quote!(::std::option::Option<#inner>);
            } else {
                syn::visit_mut::visit_type_mut(self, ty);
            }
        }
    }
    match item {
        syn::Item::Struct(item) => {
            let name = item.ident.to_string();
            for field in &mut item.fields {
                let Some(ident) = &field.ident else { continue };
                if !fields.contains(&(name.clone(), ident.to_string())) {
                    continue;
                }
                // `Result<Option<T>, String>`: widen its `Option<T>`.
                if let syn::Type::Path(path) = &mut field.ty
                    && let Some(segment) = path.path.segments.last_mut()
                    && let syn::PathArguments::AngleBracketed(arguments) = &mut segment.arguments
                    && let Some(syn::GenericArgument::Type(inner)) = arguments.args.first_mut()
                {
                    let old = inner.clone();
                    *inner = syn::parse_quote!(::std::option::Option<#old>);
                }
            }
        }
        syn::Item::Impl(block) => {
            let syn::Type::Path(self_type) = &*block.self_ty else {
                return;
            };
            let Some(name) = self_type.path.segments.last().map(|s| s.ident.to_string()) else {
                return;
            };
            for member in &mut block.items {
                let syn::ImplItem::Fn(method) = member else {
                    continue;
                };
                let setter = method.sig.ident.to_string();
                if !fields.contains(&(name.clone(), setter)) {
                    continue;
                }
                // The setter's `T: TryInto<Option<X>>` bound.
                if let Some(clause) = &mut method.sig.generics.where_clause {
                    for predicate in &mut clause.predicates {
                        if let syn::WherePredicate::Type(predicate) = predicate {
                            for bound in &mut predicate.bounds {
                                if let syn::TypeParamBound::Trait(bound) = bound
                                    && let Some(segment) = bound.path.segments.last_mut()
                                    && let syn::PathArguments::AngleBracketed(arguments) =
                                        &mut segment.arguments
                                    && let Some(syn::GenericArgument::Type(inner)) =
                                        arguments.args.first_mut()
                                {
                                    let old = quote!(#inner).to_string();
                                    Widen(old).visit_type_mut(inner);
                                }
                            }
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

fn crate_docs(model: &ApiModel, builders: bool) -> Vec<String> {
    let mut text = format!(
        "Types of the {title} (version {version}).

One Rust type per schema under `components/schemas` of the spec, shared by
the generated client and server crates. Constrained strings are newtypes
that can only hold valid values: build them with `TryFrom`/`FromStr`, and
deserializing an invalid value fails with a message naming the rule.",
        title = crate::format::spec_text(&model.title),
        version = crate::format::spec_text(&model.version),
    );
    if builders {
        text.push_str(
            "\n\nEach struct a request body takes also has a builder under [`builder`]
(the client's body builders use them), which checks required fields when
converted into the struct; every other type is built from its public
fields.",
        );
    }
    crate::format::doc_lines(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inlined(block: syn::ItemImpl) -> Vec<usize> {
        let mut block = block;
        inline_conversions(&mut block);
        block
            .items
            .iter()
            .map(|member| match member {
                syn::ImplItem::Fn(method) => method
                    .attrs
                    .iter()
                    .filter(|attr| attr.path().is_ident("inline"))
                    .count(),
                _ => 0,
            })
            .collect()
    }

    #[test]
    fn conversions_are_inline_once_and_nothing_else_is() {
        let from_str: syn::ItemImpl = syn::parse_quote! {
            impl ::std::str::FromStr for Kind {
                type Err = self::error::ConversionError;
                fn from_str(value: &str) -> Result<Self, Self::Err> { todo!() }
            }
        };
        assert_eq!(inlined(from_str), [0, 1]);
        let already: syn::ItemImpl = syn::parse_quote! {
            impl ::std::convert::TryFrom<&str> for Kind {
                type Error = self::error::ConversionError;
                #[inline]
                fn try_from(value: &str) -> Result<Self, Self::Error> { value.parse() }
            }
        };
        assert_eq!(inlined(already), [0, 1]);
        let serialize: syn::ItemImpl = syn::parse_quote! {
            impl ::serde::Serialize for Kind {
                fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> { todo!() }
            }
        };
        assert_eq!(inlined(serialize), [0]);
        let inherent: syn::ItemImpl = syn::parse_quote! {
            impl Kind { pub fn builder() -> builder::Kind { Default::default() } }
        };
        assert_eq!(inlined(inherent), [0]);
    }
}
