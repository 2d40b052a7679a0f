//! `Deserialize` and `Serialize` for typify's plain structs and string
//! enums, written out instead of derived.
//!
//! serde's derives were most of the types crate's compile time: for the
//! platform's definition, 55 of its 86 s and 2 of its 4.3 GiB went to the
//! per-type field visitor, `visit_seq` and the duplicate and missing checks
//! `Deserialize` writes inline for every field, and `Serialize`'s `?` per
//! field. The impls written here keep serde's behaviour for maps (the same
//! messages for a missing, duplicate or unknown field, `Option`s absent as
//! `None`, defaults), for string enums (the same `deserialize_enum` call,
//! messages and variant indices) and for writing (the same fields, names,
//! order and length, `skip_serializing_if` asked once rather than twice),
//! while each field is one call to a shared generic function of the
//! runtime's `types` module (the types crate's `__checked`), instantiated
//! once per field type rather than written out per field. A struct is no longer read from a JSON array
//! (serde's positional form, which no OpenAPI object allows). Anything with
//! another serde attribute (`flatten`, `untagged`, `transparent`;
//! `deserialize_with` for reading) keeps the derive. A type left with no
//! serde derive loses serde's attributes, which nothing would then name.

use std::collections::BTreeSet;

use proc_macro2::{TokenStream, TokenTree};
use quote::{format_ident, quote};
use syn::ext::IdentExt;
use syn::punctuated::Punctuated;

use crate::format::split_items;

/// `types` with the derived `Deserialize` and `Serialize` of each plain
/// struct (named fields whose only serde attributes are `rename`, `default`
/// and `skip_serializing_if`, and `deserialize_with` for `Serialize`; at
/// most `deny_unknown_fields` on the struct) and each `Copy` enum of unit
/// variants replaced by impls written out. `skipped`: structs whose fields
/// a later rewrite changes.
pub fn written_out(types: TokenStream, skipped: &BTreeSet<String>) -> TokenStream {
    // Top-level items only: typify's modules (`builder`, `error`) hold no
    // serde type.
    let mut out = TokenStream::new();
    for item in split_items(types) {
        if (derives(&item, "Deserialize") || derives(&item, "Serialize"))
            && let Ok(mut parsed) = syn::parse2::<syn::Item>(item.iter().cloned().collect())
            && let Some(written) = write_out(&mut parsed, skipped)
        {
            out.extend(quote!(#parsed #written));
        } else {
            out.extend(item);
        }
    }
    out
}

/// Whether the item's attributes derive `trait_name`, read from the tokens
/// so that only those items are parsed.
fn derives(item: &[TokenTree], trait_name: &str) -> bool {
    item.iter().any(|token| {
        let TokenTree::Group(group) = token else {
            return false;
        };
        let mut tokens = group.stream().into_iter();
        matches!(tokens.next(), Some(TokenTree::Ident(derive)) if derive == "derive")
            && matches!(tokens.next(), Some(TokenTree::Group(paths))
                if paths.stream().into_iter().any(|token|
                    matches!(token, TokenTree::Ident(name) if name == trait_name)))
    })
}

/// The impls for `item`, `Deserialize` and `Serialize` then taken out of its
/// derive where written; `None` (and `item` unchanged) for a shape left to
/// serde's derive.
fn write_out(item: &mut syn::Item, skipped: &BTreeSet<String>) -> Option<TokenStream> {
    let (attrs, written) = match item {
        syn::Item::Struct(item) if !skipped.contains(&item.ident.to_string()) => {
            let written = [
                derived(&item.attrs, "Deserialize").then(|| struct_impl(item)),
                derived(&item.attrs, "Serialize").then(|| struct_serialize(item)),
            ];
            (&mut item.attrs, written)
        }
        syn::Item::Enum(item) => {
            let written = [
                derived(&item.attrs, "Deserialize").then(|| enum_impl(item)),
                derived(&item.attrs, "Serialize").then(|| enum_serialize(item)),
            ];
            (&mut item.attrs, written)
        }
        _ => return None,
    };
    let [deserialize, serialize] = written.map(Option::flatten);
    if deserialize.is_none() && serialize.is_none() {
        return None;
    }
    let cfg = cfg_attributes(attrs);
    let written = quote!(#(#cfg)* #deserialize #(#cfg)* #serialize);
    let written_traits = [
        deserialize.is_some().then_some("Deserialize"),
        serialize.is_some().then_some("Serialize"),
    ];
    let derive_left = (derived(attrs, "Deserialize") && deserialize.is_none())
        || (derived(attrs, "Serialize") && serialize.is_none());
    let written_traits: Vec<&str> = written_traits.into_iter().flatten().collect();
    without_derives(attrs, &written_traits)?;
    if !derive_left {
        // Without serde's derive, its attributes name nothing.
        without_serde_attributes(item);
    }
    Some(written)
}

/// The `#[cfg]`s of an item, for the impls written beside it: they compile
/// where the item does.
pub(super) fn cfg_attributes(attrs: &[syn::Attribute]) -> Vec<&syn::Attribute> {
    attrs
        .iter()
        .filter(|attr| attr.path().is_ident("cfg"))
        .collect()
}

/// Takes the traits named `names` (by their last segment) out of `attrs`'
/// derives; `None` when a derive does not parse.
pub(super) fn without_derives(attrs: &mut [syn::Attribute], names: &[&str]) -> Option<()> {
    for attr in attrs.iter_mut() {
        if !attr.path().is_ident("derive") {
            continue;
        }
        let paths = attr
            .parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
            .ok()?;
        let kept = paths.into_iter().filter(|path| {
            path.segments
                .last()
                .is_none_or(|last| !names.iter().any(|name| last.ident == name))
        });
        *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
    }
    Some(())
}

fn without_serde_attributes(item: &mut syn::Item) {
    let keep =
        |attrs: &mut Vec<syn::Attribute>| attrs.retain(|attr| !attr.path().is_ident("serde"));
    match item {
        syn::Item::Struct(item) => {
            keep(&mut item.attrs);
            item.fields
                .iter_mut()
                .for_each(|field| keep(&mut field.attrs));
        }
        syn::Item::Enum(item) => {
            keep(&mut item.attrs);
            item.variants
                .iter_mut()
                .for_each(|variant| keep(&mut variant.attrs));
        }
        _ => {}
    }
}

/// Whether `attrs` derive `trait_name` (as `::serde::X` or `X`).
fn derived(attrs: &[syn::Attribute], trait_name: &str) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("derive")
            && attr
                .parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                .is_ok_and(|paths| {
                    paths.iter().any(|path| {
                        path.segments
                            .last()
                            .is_some_and(|last| last.ident == trait_name)
                    })
                })
    })
}

/// The serde attributes' settings of a struct or field, `None` when one is
/// not among those [`struct_impl`] writes out.
fn serde_settings(
    attrs: &[syn::Attribute],
    mut setting: impl FnMut(&syn::meta::ParseNestedMeta) -> syn::Result<bool>,
) -> Option<()> {
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        let mut known = true;
        attr.parse_nested_meta(|meta| {
            known &= setting(&meta)?;
            if !known && meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            }
            Ok(())
        })
        .ok()?;
        if !known {
            return None;
        }
    }
    Some(())
}

fn struct_impl(item: &syn::ItemStruct) -> Option<TokenStream> {
    if !item.generics.params.is_empty() {
        return None;
    }
    let syn::Fields::Named(fields) = &item.fields else {
        return None;
    };
    let mut deny = false;
    serde_settings(&item.attrs, |meta| {
        Ok(meta.path.is_ident("deny_unknown_fields") && {
            deny = true;
            true
        })
    })?;
    let name = &item.ident;
    let mut wire_names = Vec::new();
    let mut slots = Vec::new();
    let mut arms = Vec::new();
    let mut values = Vec::new();
    for (index, field) in fields.named.iter().enumerate() {
        let ident = field.ident.as_ref()?;
        let mut wire = ident.unraw().to_string();
        let mut default = None;
        serde_settings(&field.attrs, |meta| {
            if meta.path.is_ident("rename") {
                wire = meta.value()?.parse::<syn::LitStr>()?.value();
            } else if meta.path.is_ident("default") {
                default = Some(if meta.input.peek(syn::Token![=]) {
                    let path: syn::ExprPath = meta.value()?.parse::<syn::LitStr>()?.parse()?;
                    quote!(.unwrap_or_else(#path))
                } else {
                    quote!(.unwrap_or_default())
                });
            } else if meta.path.is_ident("skip_serializing_if") {
                meta.value()?.parse::<syn::LitStr>()?;
            } else {
                return Ok(false);
            }
            Ok(true)
        })?;
        let slot = format_ident!("__f{}", index);
        let ty = &field.ty;
        let index = proc_macro2::Literal::usize_unsuffixed(index);
        slots
            .push(quote!(let mut #slot: ::std::option::Option<#ty> = ::std::option::Option::None;));
        arms.push(quote!(#index => crate::__checked::field(&mut #slot, #wire, &mut __map),));
        values.push(match default {
            Some(default) => quote!(#ident: #slot #default,),
            // Absent, an `Option` is `None` (serde's derive reads it so):
            // no call through `required` for the most common field.
            None if is_option(ty) => quote!(#ident: #slot.flatten(),),
            None => quote!(#ident: crate::__checked::required(#slot, #wire)?,),
        });
        wire_names.push(wire);
    }
    let expecting = format!("struct {name}");
    let keys = quote!(__map.next_key_seed(crate::__checked::Identifier::field(__FIELDS, #deny))?);
    let read = if arms.is_empty() {
        quote! {
            while #keys.is_some() {
                crate::__checked::ignore(&mut __map)?;
            }
        }
    } else {
        // One `?` for the field read, rather than one per field.
        quote! {
            while let ::std::option::Option::Some(__key) = #keys {
                match __key {
                    #(#arms)*
                    _ => crate::__checked::ignore(&mut __map),
                }?;
            }
        }
    };
    let name_text = name.to_string();
    Some(quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<__D: ::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                const __FIELDS: &[&str] = &[#(#wire_names),*];
                struct __Visitor;
                impl<'de> ::serde::de::Visitor<'de> for __Visitor {
                    type Value = #name;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(#expecting)
                    }
                    fn visit_map<__M: ::serde::de::MapAccess<'de>>(
                        self,
                        mut __map: __M,
                    ) -> ::std::result::Result<#name, __M::Error> {
                        #(#slots)*
                        #read
                        ::std::result::Result::Ok(#name { #(#values)* })
                    }
                }
                deserializer.deserialize_struct(#name_text, __FIELDS, __Visitor)
            }
        }
    })
}

/// A field typify types as a UTC timestamp, which the written-out
/// `Serialize` writes through the runtime's `Rfc3339` (the same text as
/// chrono's own impl, at a fraction of the cost).
enum Timestamp {
    Required,
    Optional,
}

fn timestamp(ty: &syn::Type) -> Option<Timestamp> {
    const UTC: &str = "::chrono::DateTime<::chrono::offset::Utc>";
    let written = quote!(#ty).to_string().replace(' ', "");
    if written == UTC {
        Some(Timestamp::Required)
    } else if written == format!("::std::option::Option<{UTC}>") {
        Some(Timestamp::Optional)
    } else {
        None
    }
}

/// `Serialize` of a plain struct: serde's derive as one call per field to
/// a shared `__checked::Object`, which keeps the first error (and then
/// writes nothing more) instead of a `?` per field. `skip_serializing_if`
/// is asked once per field, where serde's derive asks twice (for the
/// length, then for the field).
fn struct_serialize(item: &syn::ItemStruct) -> Option<TokenStream> {
    if !item.generics.params.is_empty() {
        return None;
    }
    let syn::Fields::Named(fields) = &item.fields else {
        return None;
    };
    serde_settings(&item.attrs, |meta| {
        Ok(meta.path.is_ident("deny_unknown_fields"))
    })?;
    let mut skips = Vec::new();
    let mut writes = Vec::new();
    for field in &fields.named {
        let ident = field.ident.as_ref()?;
        let mut wire = ident.unraw().to_string();
        let mut skip = None;
        serde_settings(&field.attrs, |meta| {
            if meta.path.is_ident("rename") {
                wire = meta.value()?.parse::<syn::LitStr>()?.value();
            } else if meta.path.is_ident("default") {
                if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse::<syn::LitStr>()?;
                }
            } else if meta.path.is_ident("skip_serializing_if") {
                skip = Some(
                    meta.value()?
                        .parse::<syn::LitStr>()?
                        .parse::<syn::ExprPath>()?,
                );
            } else if meta.path.is_ident("deserialize_with") {
                // Reading only.
                meta.value()?.parse::<syn::LitStr>()?;
            } else {
                return Ok(false);
            }
            Ok(true)
        })?;
        let value = match timestamp(&field.ty) {
            Some(Timestamp::Required) => quote!(&crate::__checked::Rfc3339(&self.#ident)),
            Some(Timestamp::Optional) => {
                quote!(&self.#ident.as_ref().map(crate::__checked::Rfc3339))
            }
            None => quote!(&self.#ident),
        };
        writes.push(match skip {
            Some(path) => {
                let index = proc_macro2::Literal::usize_unsuffixed(skips.len());
                skips.push(quote!(#path(&self.#ident)));
                quote!(__object.field_unless(__skip[#index], #wire, #value);)
            }
            None => quote!(__object.field(#wire, #value);),
        });
    }
    let name = &item.ident;
    let name_text = name.to_string();
    let count = proc_macro2::Literal::usize_unsuffixed(fields.named.len());
    let (skip, skipped) = if skips.is_empty() {
        (quote!(), quote!(&[]))
    } else {
        (quote!(let __skip = [#(#skips),*];), quote!(&__skip))
    };
    Some(quote! {
        impl ::serde::Serialize for #name {
            fn serialize<__S: ::serde::Serializer>(
                &self,
                serializer: __S,
            ) -> ::std::result::Result<__S::Ok, __S::Error> {
                #skip
                let mut __object =
                    crate::__checked::Object::new(serializer, #name_text, #count, #skipped)?;
                #(#writes)*
                __object.end()
            }
        }
    })
}

/// The wire names of an enum of unit variants (`None` for another enum or
/// one with serde attributes other than a variant's `rename`).
pub(super) fn unit_variant_names(item: &syn::ItemEnum) -> Option<Vec<String>> {
    let copy = item.attrs.iter().any(|attr| {
        attr.path().is_ident("derive")
            && attr
                .parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                .is_ok_and(|paths| paths.iter().any(|path| path.is_ident("Copy")))
    });
    if !copy || !item.generics.params.is_empty() || item.variants.is_empty() {
        return None;
    }
    serde_settings(&item.attrs, |_| Ok(false))?;
    let mut wire_names = Vec::new();
    for variant in &item.variants {
        if !matches!(variant.fields, syn::Fields::Unit) || variant.discriminant.is_some() {
            return None;
        }
        let mut wire = variant.ident.unraw().to_string();
        serde_settings(&variant.attrs, |meta| {
            Ok(meta.path.is_ident("rename") && {
                wire = meta.value()?.parse::<syn::LitStr>()?.value();
                true
            })
        })?;
        wire_names.push(wire);
    }
    Some(wire_names)
}

/// `Serialize` of an enum of unit variants: serde's derive writes a match
/// arm per variant; the variant's index is its discriminant (the enum has
/// no explicit one).
fn enum_serialize(item: &syn::ItemEnum) -> Option<TokenStream> {
    if item.attrs.iter().any(|attr| attr.path().is_ident("repr")) {
        return None;
    }
    let wire_names = unit_variant_names(item)?;
    let name = &item.ident;
    let name_text = name.to_string();
    Some(quote! {
        impl ::serde::Serialize for #name {
            fn serialize<__S: ::serde::Serializer>(
                &self,
                serializer: __S,
            ) -> ::std::result::Result<__S::Ok, __S::Error> {
                const __VARIANTS: &[&str] = &[#(#wire_names),*];
                let index = *self as usize;
                serializer.serialize_unit_variant(#name_text, index as u32, __VARIANTS[index])
            }
        }
    })
}

/// Whether `ty` is spelled as `Option` (typify writes
/// `::std::option::Option<T>`).
fn is_option(ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    let names: Vec<String> = path
        .path
        .segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect();
    path.qself.is_none()
        && matches!(
            names.iter().map(String::as_str).collect::<Vec<_>>()[..],
            ["Option"] | ["std", "option", "Option"] | ["core", "option", "Option"]
        )
}

fn enum_impl(item: &syn::ItemEnum) -> Option<TokenStream> {
    let wire_names = unit_variant_names(item)?;
    let name = &item.ident;
    let name_text = name.to_string();
    let variants = item.variants.iter().map(|variant| &variant.ident);
    Some(quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<__D: ::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                const __VARIANTS: &[&str] = &[#(#wire_names),*];
                let index = crate::__checked::unit_variant(deserializer, #name_text, __VARIANTS)?;
                ::std::result::Result::Ok([#(Self::#variants),*][index])
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(code: TokenStream) -> String {
        written_out(code, &BTreeSet::new()).to_string()
    }

    #[test]
    fn a_plain_struct_loses_its_derive_for_a_written_impl() {
        let out = written(quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize, Clone)]
            #[serde(deny_unknown_fields)]
            pub struct Pet {
                #[serde(rename = "type")]
                pub type_: String,
                #[serde(default = "defaults::pet_name")]
                pub name: String,
                #[serde(default, skip_serializing_if = "Vec::is_empty")]
                pub tags: Vec<String>,
                pub nick: ::std::option::Option<String>,
            }
        });
        // Both derives written out, serde's attributes name nothing.
        assert!(out.contains("# [derive (Clone)] pub struct Pet"), "{out}");
        assert!(!out.contains("# [serde"), "{out}");
        assert!(
            out.contains("impl < 'de > :: serde :: Deserialize < 'de > for Pet"),
            "{out}"
        );
        assert!(
            out.contains(r#"& ["type" , "name" , "tags" , "nick"]"#),
            "{out}"
        );
        assert!(
            out.contains("Identifier :: field (__FIELDS , true)"),
            "{out}"
        );
        assert!(
            out.contains("unwrap_or_else (defaults :: pet_name)"),
            "{out}"
        );
        assert!(
            out.contains(r#"type_ : crate :: __checked :: required (__f0 , "type") ?"#),
            "{out}"
        );
        assert!(out.contains("tags : __f2 . unwrap_or_default ()"), "{out}");
        // Absent, an `Option` is `None` without a call through `required`.
        assert!(out.contains("nick : __f3 . flatten ()"), "{out}");
        // Serialized: the length leaves out the fields skipped, each
        // predicate asked once.
        assert!(
            out.contains(r#"let __skip = [Vec :: is_empty (& self . tags)] ;"#),
            "{out}"
        );
        assert!(
            out.contains(r#"Object :: new (serializer , "Pet" , 4 , & __skip) ?"#),
            "{out}"
        );
        assert!(
            out.contains(r#"__object . field ("type" , & self . type_) ;"#),
            "{out}"
        );
        assert!(
            out.contains(r#"__object . field_unless (__skip [0] , "tags" , & self . tags) ;"#),
            "{out}"
        );
    }

    #[test]
    fn a_derive_left_keeps_the_serde_attributes() {
        // `deserialize_with` keeps `Deserialize` derived; `Serialize` is
        // written.
        let out = written(quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            pub struct Template {
                #[serde(rename = "kind", deserialize_with = "Option::deserialize")]
                pub kind_: Option<String>,
            }
        });
        assert!(
            out.contains("# [derive (:: serde :: Deserialize)]"),
            "{out}"
        );
        assert!(out.contains(r#"# [serde (rename = "kind" ,"#), "{out}");
        assert!(
            out.contains(r#"__object . field ("kind" , & self . kind_) ;"#),
            "{out}"
        );
        let out = written(quote! {
            #[derive(::serde::Serialize, Clone)]
            #[serde(transparent)]
            pub struct Id(String);
        });
        assert!(out.contains("# [serde (transparent)]"), "{out}");
    }

    #[test]
    fn other_serde_attributes_keep_the_derive() {
        for code in [
            quote! {
                #[derive(::serde::Deserialize)]
                pub struct Open { #[serde(flatten)] pub extra: Map }
            },
            quote! {
                #[derive(::serde::Deserialize, Clone, Copy)]
                #[serde(untagged)]
                pub enum Either { A, B }
            },
            quote! {
                #[derive(::serde::Deserialize)]
                #[serde(transparent)]
                pub struct Id(String);
            },
            // Not `Copy`: an enum of data variants.
            quote! {
                #[derive(::serde::Deserialize, Clone)]
                pub enum Shape { Circle(f64) }
            },
        ] {
            let out = written(code.clone());
            assert_eq!(out, code.to_string());
        }
        let skipped = BTreeSet::from(["Patch".to_owned()]);
        let patch = quote! {
            #[derive(::serde::Deserialize)]
            pub struct Patch { pub name: Option<String> }
        };
        assert_eq!(
            written_out(patch.clone(), &skipped).to_string(),
            patch.to_string()
        );
    }

    #[test]
    fn a_string_enum_reads_its_variants_by_index() {
        let out = written(quote! {
            #[cfg(feature = "pets")]
            #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Copy)]
            pub enum Kind {
                #[serde(rename = "cat")]
                Cat,
                Dog,
            }
        });
        assert!(out.contains(r#"& ["cat" , "Dog"]"#), "{out}");
        assert!(out.contains("[Self :: Cat , Self :: Dog] [index]"), "{out}");
        assert!(
            out.contains(r#"serialize_unit_variant ("Kind" , index as u32 , __VARIANTS [index])"#),
            "{out}"
        );
        // The impls are compiled where the type is.
        assert_eq!(
            out.matches(r#"# [cfg (feature = "pets")]"#).count(),
            3,
            "{out}"
        );
    }
}
