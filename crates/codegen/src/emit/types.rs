//! The types crate: every type of the API, generated once.
//!
//! Its contents are the type space of the one progenitor run
//! ([`super::progenitor`]): each component schema, and the types typify
//! derives from parameters and inline schemas. The client crate re-exports
//! it, and the server names its types from it.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{ApiModel, Method};
use crate::naming;

/// The types crate as a parsed file, handed to the formatter as it is, so
/// typify's output (most of the generated code) is parsed once.
pub fn emit_types(model: &ApiModel, types: TokenStream) -> Result<syn::File, syn::Error> {
    let docs = crate_docs(model);
    let fields = patch_nullable_fields(model);
    let mut file: syn::File = syn::parse2(types)?;
    let head: syn::File = syn::parse_quote! {
        #(#![doc = #docs])*
        #![allow(clippy::clone_on_copy, clippy::derivable_impls, clippy::to_string_trait_impl)]
        // Typify sizes each `oneOf` variant as the spec shapes it; boxing
        // the large ones would change the types' API.
        #![allow(clippy::large_enum_variant)]
    };
    let mut attrs = head.attrs;
    attrs.append(&mut file.attrs);
    file.attrs = attrs;
    drop_unused_default_helpers(&mut file);
    take_checked_text(&mut file);
    if !fields.is_empty() {
        tell_null_from_absent(&mut file, &fields);
        file.items.push(syn::parse_quote! {
            /// Reads a present field, `null` included, as `Some`: with
            /// `#[serde(default)]`, an absent field stays `None`.
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
        });
    }
    file.items.push(checked_module());
    Ok(file)
}

/// Typify's generic default helpers (`defaults::default_i64::<T, V>` and
/// kin). It registers one for every integer or boolean default it meets,
/// even where the field then takes no default (an `Option`, a required
/// field), and an unused helper is dead code that `-D warnings` rejects.
const GENERIC_DEFAULT_HELPERS: [&str; 4] = [
    "default_bool",
    "default_i64",
    "default_u64",
    "default_nzu64",
];

/// Removes the generic default helpers nothing names: serde attributes name
/// them in string literals, `Default` impls and builders as paths.
fn drop_unused_default_helpers(file: &mut syn::File) {
    use syn::visit_mut::VisitMut;
    struct Uses([bool; GENERIC_DEFAULT_HELPERS.len()]);
    impl Uses {
        fn mark(&mut self, text: &str) {
            for (name, used) in GENERIC_DEFAULT_HELPERS.iter().zip(&mut self.0) {
                *used |= text == *name;
            }
        }
    }
    // `VisitMut` because the crate enables syn's `visit-mut` only; nothing
    // is changed.
    impl VisitMut for Uses {
        fn visit_path_segment_mut(&mut self, segment: &mut syn::PathSegment) {
            for (name, used) in GENERIC_DEFAULT_HELPERS.iter().zip(&mut self.0) {
                *used |= segment.ident == name;
            }
            syn::visit_mut::visit_path_segment_mut(self, segment);
        }
        // Only `serde` attributes can name a helper; doc attributes, the
        // bulk of the text, are not looked into.
        fn visit_attribute_mut(&mut self, attr: &mut syn::Attribute) {
            if attr.path().is_ident("serde") {
                let text = quote!(#attr).to_string();
                for path in text.split("\"defaults::").skip(1) {
                    let name = path
                        .split(|c: char| !c.is_alphanumeric() && c != '_')
                        .next();
                    self.mark(name.unwrap_or_default());
                }
            }
        }
    }
    let mut uses = Uses([false; GENERIC_DEFAULT_HELPERS.len()]);
    uses.visit_file_mut(file);
    for item in &mut file.items {
        if let syn::Item::Mod(module) = item
            && module.ident == "defaults"
            && let Some((_, helpers)) = &mut module.content
        {
            helpers.retain(|item| match item {
                syn::Item::Fn(function) => GENERIC_DEFAULT_HELPERS
                    .iter()
                    .zip(uses.0)
                    .all(|(name, used)| used || function.sig.ident != name),
                _ => true,
            });
        }
    }
}

/// The switch [`take_checked_text`]'s newtypes read. The generated server
/// turns it on while it types a request body its validator (compiled from
/// the same schemas) found no fault with, so a constrained string's rules
/// (lengths, a `pattern` run by regress) are checked once, not twice; client
/// code never turns it on, so everything else deserializes with every check.
fn checked_module() -> syn::Item {
    syn::parse_quote! {
            /// For the generated server only: typing a request body it has
            /// already checked against the spec's rules.
            #[doc(hidden)]
            pub mod __checked {
                ::std::thread_local! {
                    static CHECKED: ::std::cell::Cell<bool> = const { ::std::cell::Cell::new(false) };
                }

                /// Runs `typing` with constrained-string newtypes taking their
                /// text without checking it again. Only sound where every
                /// string `typing` reads was checked against its newtype's
                /// rules: the generated server calls it on a validated body.
                pub fn assume_checked<R>(typing: impl FnOnce() -> R) -> R {
                    struct Restore(bool);
                    impl Drop for Restore {
                        fn drop(&mut self) {
                            CHECKED.with(|checked| checked.set(self.0));
                        }
                    }
                    let _restore = Restore(CHECKED.with(|checked| checked.replace(true)));
                    typing()
                }

                /// Whether the text being deserialized was checked already.
                pub fn assumed() -> bool {
                    CHECKED.with(::std::cell::Cell::get)
                }
            }
    }
}

/// Typify's constrained-string newtypes deserialize a `String` and parse it
/// (lengths, pattern). Within [`checked_module`]'s `assume_checked` they keep
/// the deserialized text as it is; elsewhere they parse it as before. An
/// impl of another shape is left alone.
fn take_checked_text(file: &mut syn::File) {
    let typify_body: syn::Block = syn::parse_quote!({
        ::std::string::String::deserialize(deserializer)?
            .parse()
            .map_err(|e: self::error::ConversionError| {
                <D::Error as ::serde::de::Error>::custom(e.to_string())
            })
    });
    // Trailing commas in calls come and go with typify's versions.
    let body_text = |block: &syn::Block| quote!(#block).to_string().replace(" ,)", ")");
    let typify_body = body_text(&typify_body);
    for item in &mut file.items {
        let syn::Item::Impl(block) = item else {
            continue;
        };
        let is_deserialize = block.trait_.as_ref().is_some_and(|(path, _)| {
            path.segments
                .last()
                .is_some_and(|segment| segment.ident == "Deserialize")
        });
        if !is_deserialize {
            continue;
        }
        for member in &mut block.items {
            if let syn::ImplItem::Fn(method) = member
                && method.sig.ident == "deserialize"
                && body_text(&method.block) == typify_body
            {
                method.block = syn::parse_quote!({
                    let text = ::std::string::String::deserialize(deserializer)?;
                    if crate::__checked::assumed() {
                        return Ok(Self(text));
                    }
                    text.parse().map_err(|e: self::error::ConversionError| {
                        <D::Error as ::serde::de::Error>::custom(e.to_string())
                    })
                });
            }
        }
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
    for operation in &model.operations {
        let (Method::Patch, Some(body)) = (operation.method, &operation.request_body) else {
            continue;
        };
        let Some(body_schema) = &body.schema else {
            continue;
        };
        let Some(openapiv3::ReferenceOr::Item(schema)) =
            schemas.and_then(|schemas| schemas.get(body_schema))
        else {
            continue;
        };
        let openapiv3::SchemaKind::Type(openapiv3::Type::Object(object)) = &schema.schema_kind
        else {
            continue;
        };
        for (name, property) in &object.properties {
            // A `default` does not count: progenitor's view of the spec has
            // none in PATCH bodies (absent means "keep the value").
            let nullable = matches!(
                property,
                openapiv3::ReferenceOr::Item(property) if property.schema_data.nullable
            );
            let pair = (naming::type_name(body_schema), naming::field_name(name));
            if nullable && !object.required.contains(name) && !fields.contains(&pair) {
                fields.push(pair);
            }
        }
    }
    fields
}

/// Turns each listed field from `Option<T>` into `Option<Option<T>>`:
/// `None` when absent, `Some(None)` for `null`, `Some(Some(value))`
/// otherwise, in the struct and in its builder alike.
fn tell_null_from_absent(file: &mut syn::File, fields: &[(String, String)]) {
    for item in &mut file.items {
        match item {
            syn::Item::Struct(item) => {
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
            syn::Item::Mod(module) if module.ident == "builder" => {
                if let Some((_, items)) = &mut module.content {
                    for item in items {
                        widen_builder(item, fields);
                    }
                }
            }
            _ => {}
        }
    }
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

fn crate_docs(model: &ApiModel) -> Vec<String> {
    let text = format!(
        "Types of the {title} (version {version}).

One Rust type per schema under `components/schemas` of the spec, shared by
the generated client and server crates. Constrained strings are newtypes
that can only hold valid values: build them with `TryFrom`/`FromStr`, and
deserializing an invalid value fails with a message naming the rule.

Each struct also has a builder under [`builder`], which checks required
fields when converted into the struct.",
        title = model.title,
        version = model.version,
    );
    crate::format::doc_lines(&text)
}
