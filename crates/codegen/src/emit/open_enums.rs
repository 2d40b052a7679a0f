//! String enums that survive a value the description adds later.
//!
//! Typify makes a string `enum` a Rust enum of unit variants, and a value
//! it does not list fails the decoding of the whole response: one value a
//! server adds would be an error for every client until it regenerates.
//! Here each such enum gets a catch-all variant holding the runtime's
//! `UnknownValue`, which only decoding makes (`FromStr` and `TryFrom` stay
//! typify's, accepting the listed values only), so a request carries an
//! unlisted value only by sending back one it received, and the generated
//! server, which checks every request against its schema before typing it,
//! never receives one. `Display` and `Serialize` write the value as
//! received, as does the enum's new `as_str`.
//!
//! Two kinds of enum stay closed:
//! - a one-value enum: it is a constant (a 3.1 `const`, an object's kind
//!   tag), and another value is another kind of object, not a new value of
//!   this one;
//! - an enum a union's variant reaches: typify's untagged union takes the
//!   first variant that decodes, and what tells its variants apart is what
//!   each refuses, often just such an enum. Opening it would change which
//!   variant a union decodes to; unions keep their behaviour. A union
//!   decided by its discriminator ([`super::discriminated`], which runs
//!   first) is no longer untagged, so what it reaches may open.
//!
//! The enum is no longer `Copy`, and a `match` on it needs the catch-all
//! arm: that is the point, and why [`crate::StringEnums::Closed`] keeps
//! typify's enums for teams that want them strict.
//!
//! Runs before [`super::deserialize::written_out`]: an opened enum keeps
//! no serde derive for it to write out. Its `Deserialize` reads the listed
//! values with typify's `FromStr`, so that the match over the values is not
//! written twice.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{TokenStream, TokenTree};
use quote::{format_ident, quote};
use syn::punctuated::Punctuated;

use super::deserialize::{unit_variant_names, without_derives};
use crate::format::split_items;

/// The variant names tried in turn for the catch-all, then the last with
/// a number: a description may list a value called "unknown".
const CATCH_ALL: [&str; 2] = ["Unknown", "UnknownValue"];

/// `types` with every string enum (unit variants, serde's derives) opened
/// but those the module's documentation keeps closed.
pub fn opened(types: TokenStream) -> TokenStream {
    let items = split_items(types);
    let in_unions = reached_from_unions(&items);
    let mut out = TokenStream::new();
    let mut opened = BTreeSet::new();
    for item in items {
        if displays(&item, &opened) {
            // Replaced by the opened enum's own.
            continue;
        }
        if defined(&item).is_some_and(|(kind, name)| kind == "enum" && !in_unions.contains(&name))
            && let Ok(syn::Item::Enum(mut parsed)) =
                syn::parse2::<syn::Item>(item.iter().cloned().collect())
            && parsed.variants.len() > 1
            && let Some(impls) = open(&mut parsed)
        {
            opened.insert(parsed.ident.to_string());
            out.extend(quote!(#parsed #impls));
        } else {
            out.extend(item);
        }
    }
    out
}

/// The types the variants of the untagged unions among `items` reach,
/// transitively, by name (a name can only link too much, which keeps an
/// enum closed that could have been opened).
fn reached_from_unions(items: &[Vec<TokenTree>]) -> BTreeSet<String> {
    let mut mentions: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut pending = Vec::new();
    for item in items {
        let Some((kind, name)) = defined(item) else {
            continue;
        };
        let mut named = BTreeSet::new();
        for token in item {
            if let TokenTree::Group(group) = token {
                idents(group.stream(), &mut named);
            }
        }
        if kind == "enum" && untagged(item) {
            pending.extend(named.iter().cloned());
        }
        mentions.insert(name, named);
    }
    let mut reached = BTreeSet::new();
    while let Some(name) = pending.pop() {
        if let Some(named) = mentions.get(&name)
            && reached.insert(name)
        {
            pending.extend(named.iter().cloned());
        }
    }
    reached
}

/// The keyword (`struct`, `enum`, ..) and name of the type `item` defines.
fn defined(item: &[TokenTree]) -> Option<(String, String)> {
    let mut tokens = item.iter();
    while let Some(token) = tokens.next() {
        if let TokenTree::Ident(keyword) = token {
            let keyword = keyword.to_string();
            if ["struct", "enum", "type"].contains(&keyword.as_str()) {
                let Some(TokenTree::Ident(name)) = tokens.next() else {
                    return None;
                };
                return Some((keyword, name.to_string()));
            }
            if ["impl", "fn", "mod", "use", "const", "static"].contains(&keyword.as_str()) {
                return None;
            }
        }
    }
    None
}

/// Whether `item`'s attributes say `#[serde(untagged)]`.
fn untagged(item: &[TokenTree]) -> bool {
    item.iter().any(|token| {
        let TokenTree::Group(attribute) = token else {
            return false;
        };
        let tokens: Vec<TokenTree> = attribute.stream().into_iter().collect();
        matches!(&tokens[..], [TokenTree::Ident(serde), TokenTree::Group(arguments)]
            if serde == "serde" && arguments.stream().into_iter().any(|argument|
                matches!(argument, TokenTree::Ident(ident) if ident == "untagged")))
    })
}

fn idents(tokens: TokenStream, out: &mut BTreeSet<String>) {
    for token in tokens {
        match token {
            TokenTree::Ident(ident) => {
                out.insert(ident.to_string());
            }
            TokenTree::Group(group) => idents(group.stream(), out),
            _ => {}
        }
    }
}

/// Whether `item` is typify's `impl Display for X` of an enum in `opened`.
fn displays(item: &[TokenTree], opened: &BTreeSet<String>) -> bool {
    let mut idents = item.iter().filter_map(|token| match token {
        TokenTree::Ident(ident) => Some(ident.to_string()),
        _ => None,
    });
    idents.next().as_deref() == Some("impl")
        && idents.any(|ident| ident == "Display")
        && idents.next().as_deref() == Some("for")
        && idents.next().is_some_and(|name| opened.contains(&name))
}

/// Adds the catch-all variant to a string enum and returns its serde and
/// `Display` impls; `None`, and `item` unchanged, for another enum.
fn open(item: &mut syn::ItemEnum) -> Option<TokenStream> {
    let derives = derive_paths(&item.attrs)?;
    let derives_serde = ["Deserialize", "Serialize"]
        .iter()
        .all(|name| derives.iter().any(|path| ends_with(path, name)));
    if !derives_serde || item.attrs.iter().any(|attr| attr.path().is_ident("repr")) {
        return None;
    }
    let wire_names = unit_variant_names(item)?;
    let taken: BTreeSet<String> = item
        .variants
        .iter()
        .map(|variant| variant.ident.to_string())
        .collect();
    let catch_all = catch_all_name(&taken);
    let name = &item.ident;
    let name_text = name.to_string();
    let listed: Vec<&syn::Ident> = item.variants.iter().map(|variant| &variant.ident).collect();
    let cfg = super::deserialize::cfg_attributes(&item.attrs);
    let impls = quote! {
        #(#cfg)*
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<__D: ::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                crate::__checked::open_enum(
                    deserializer,
                    #name_text,
                    <Self as ::std::str::FromStr>::from_str,
                    Self::#catch_all,
                )
            }
        }

        #(#cfg)*
        impl #name {
            /// The value as the description lists it, or as received.
            pub fn as_str(&self) -> &str {
                match self {
                    #(Self::#listed => #wire_names,)*
                    Self::#catch_all(value) => value.as_str(),
                }
            }
        }

        #(#cfg)*
        impl ::serde::Serialize for #name {
            fn serialize<__S: ::serde::Serializer>(
                &self,
                serializer: __S,
            ) -> ::std::result::Result<__S::Ok, __S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        #(#cfg)*
        impl ::std::fmt::Display for #name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
    without_derives(&mut item.attrs, &["Copy", "Deserialize", "Serialize"])?;
    for variant in &mut item.variants {
        variant.attrs.retain(|attr| !attr.path().is_ident("serde"));
    }
    item.variants.push(syn::parse_quote! {
        /// A value this crate's description did not list, kept as received
        /// (a newer server's, say).
        #catch_all(crate::__checked::UnknownValue)
    });
    Some(impls)
}

/// The paths `attrs` derive, `None` when a derive does not parse.
fn derive_paths(attrs: &[syn::Attribute]) -> Option<Vec<syn::Path>> {
    let mut paths = Vec::new();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("derive")) {
        paths.extend(
            attr.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                .ok()?,
        );
    }
    Some(paths)
}

fn ends_with(path: &syn::Path, name: &str) -> bool {
    path.segments.last().is_some_and(|last| last.ident == name)
}

/// The first of [`CATCH_ALL`] no listed value took, else the last numbered.
fn catch_all_name(taken: &BTreeSet<String>) -> syn::Ident {
    let free = |name: &String| !taken.contains(name);
    let name = CATCH_ALL
        .iter()
        .map(|name| name.to_string())
        .find(free)
        .or_else(|| {
            (2..)
                .map(|number| format!("{}{number}", CATCH_ALL[CATCH_ALL.len() - 1]))
                .find(free)
        })
        .expect("an unbounded range has a free name");
    format_ident!("{name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typify_enum(variants: TokenStream) -> TokenStream {
        quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Copy, Debug, Eq, PartialEq)]
            pub enum Kind { #variants }

            impl ::std::fmt::Display for Kind {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    match *self { Self::Cat => f.write_str("cat"), Self::Dog => f.write_str("dog") }
                }
            }

            impl ::std::str::FromStr for Kind {
                type Err = self::error::ConversionError;
                fn from_str(value: &str) -> Result<Self, Self::Err> {
                    match value { "cat" => Ok(Self::Cat), _ => Err("invalid value".into()) }
                }
            }
        }
    }

    #[test]
    fn a_string_enum_gets_a_catch_all_and_keeps_its_strict_from_str() {
        let out = opened(typify_enum(quote! {
            #[serde(rename = "cat")]
            Cat,
            #[serde(rename = "dog")]
            Dog,
        }))
        .to_string();
        assert!(
            out.contains("# [derive (Clone , Debug , Eq , PartialEq)]"),
            "{out}"
        );
        assert!(
            out.contains("Unknown (crate :: __checked :: UnknownValue)"),
            "{out}"
        );
        assert!(!out.contains("serde (rename"), "{out}");
        // One `Display`, the opened enum's; typify's `FromStr` stays.
        assert_eq!(out.matches("Display for Kind").count(), 1, "{out}");
        assert!(
            out.contains("Self :: Unknown (value) => value . as_str ()"),
            "{out}"
        );
        assert!(out.contains(r#""cat" => Ok (Self :: Cat)"#), "{out}");
        assert!(out.contains(r#"Self :: Dog => "dog""#), "{out}");
        assert!(
            out.contains("< Self as :: std :: str :: FromStr > :: from_str , Self :: Unknown"),
            "{out}"
        );
    }

    #[test]
    fn the_catch_all_takes_a_name_no_value_has() {
        let out = opened(typify_enum(quote! {
            #[serde(rename = "unknown")]
            Unknown,
            #[serde(rename = "unknown value")]
            UnknownValue,
        }))
        .to_string();
        assert!(out.contains("UnknownValue2 (crate :: __checked"), "{out}");
    }

    #[test]
    fn enums_a_union_reaches_stay_closed() {
        let code = quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Copy)]
            pub enum Colour { #[serde(rename = "red")] Red, #[serde(rename = "blue")] Blue }

            #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Copy)]
            pub enum Size { #[serde(rename = "s")] Small, #[serde(rename = "l")] Large }

            #[derive(::serde::Deserialize, ::serde::Serialize, Clone)]
            pub struct Paint { pub colour: Colour }

            #[derive(::serde::Deserialize, ::serde::Serialize, Clone)]
            #[serde(untagged)]
            pub enum Product { Paint(Paint), Other(::std::string::String) }

            #[derive(::serde::Deserialize, ::serde::Serialize, Clone)]
            pub struct Shirt { pub size: Size }
        };
        let out = opened(code).to_string();
        assert_eq!(out.matches("UnknownValue)").count(), 1, "{out}");
        assert!(out.contains("pub enum Size { Small , Large , #"), "{out}");
        assert!(out.contains("pub enum Colour { # [serde (rename"), "{out}");
    }

    #[test]
    fn other_enums_stay_as_typify_wrote_them() {
        for code in [
            quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Copy)]
                #[serde(untagged)]
                pub enum Either { A, B }
            },
            quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize, Clone)]
                pub enum Shape { Circle(f64) }
            },
            // A constant: another value is another kind of object.
            quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Copy)]
                pub enum Kind { #[serde(rename = "webhook")] Webhook }
            },
            quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Copy)]
                #[repr(i64)]
                pub enum Level { One = 1 }
            },
        ] {
            assert_eq!(opened(code.clone()).to_string(), code.to_string());
        }
    }
}
