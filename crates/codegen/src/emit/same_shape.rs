//! One type per shape. An API repeats an inline schema (a string of 1 to 255
//! characters, the `asc` or `desc` of a sort order) under every property that
//! has it, and typify writes a type for each, with its derives, conversions
//! and serde impls. Every copy costs the types crate's build (and each crate
//! after it waits for that build), so the second and later copies of a shape
//! become aliases of the first (`pub type B = A;`), with their own names and
//! docs: in the published definition, 1,207 of 1,962 newtypes and 304 of 887
//! enums.
//!
//! Only types an alias stands for without a change to the API are merged:
//! - tuple structs whose field is private (typify's constrained strings):
//!   built by `TryFrom` and `FromStr`, read by `Deref`, which an alias offers
//!   alike (the generated code's own `B(..)` calls become `A(..)`);
//! - enums: an alias names their variants (`B::Asc`) as the enum does.
//!
//! What an alias changes: `Debug` prints the first type's name, and the
//! names of one shape are one type to the compiler. Which names share a type
//! is not part of the API: a change to one schema's rules parts it from the
//! others (`spec-diff` compares each name's own definition, through its
//! alias), so code should not hand one name's value to another.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Delimiter, Group, Ident, TokenStream, TokenTree};
use quote::quote;

use crate::emit::features::{is_impl, item_key};
use crate::format::{module_body, split_items, without_outer_attributes};

/// Typify's top-level items with every later copy of a shape replaced by an
/// alias of the first, and the impls the merge makes twice (`From<A> for X`
/// and `From<B> for X`) left once.
pub fn one_type_per_shape(types: TokenStream) -> TokenStream {
    let items = split_items(types);
    let defined: BTreeSet<String> = items
        .iter()
        .filter(|item| !is_impl(item))
        .filter_map(|item| item_key(item))
        .collect();
    let candidates: BTreeMap<String, Candidate> = items
        .iter()
        .filter_map(|item| candidate(item))
        .map(|candidate| (candidate.name.clone(), candidate))
        .collect();
    let owners: Vec<Option<String>> = items
        .iter()
        .map(|item| owner(item, &defined, &candidates))
        .collect();

    // A shape: a candidate's definition and its impls, its own name blanked.
    let mut shapes: BTreeMap<String, String> = BTreeMap::new();
    for (item, owner) in items.iter().zip(&owners) {
        if let Some(name) = owner {
            let rename = |ident: &str| (ident == name).then_some("__Shape");
            let text = normalized(item, &rename);
            let shape = shapes.entry(name.clone()).or_default();
            shape.push_str(&text);
            shape.push('\n');
        }
    }
    let mut first_of_shape: BTreeMap<&str, &str> = BTreeMap::new();
    let mut aliases: BTreeMap<String, String> = BTreeMap::new();
    for item in &items {
        let Some(name) = item_key(item) else { continue };
        if !candidates.contains_key(&name) || is_impl(item) {
            continue;
        }
        let shape = &shapes[&name];
        match first_of_shape.get(shape.as_str()) {
            Some(first) => {
                aliases.insert(name.clone(), (*first).to_owned());
            }
            None => {
                first_of_shape.insert(shape, &candidates[&name].name);
            }
        }
    }

    // The impls of the types that stay, read with every alias as its type:
    // two that then agree are one (the second is left out); two that clash
    // (one header, different bodies) keep their types apart.
    let dropped = loop {
        let mut dropped = BTreeSet::new();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut clashes = BTreeSet::new();
        let as_first = |ident: &str| aliases.get(ident).map(String::as_str);
        for (index, (item, owner)) in items.iter().zip(&owners).enumerate() {
            if !is_impl(item)
                || owner
                    .as_ref()
                    .is_some_and(|owner| aliases.contains_key(owner))
            {
                continue;
            }
            let header = normalized(impl_header(item), &as_first);
            let Some(&earlier) = seen.get(&header) else {
                seen.insert(header, index);
                continue;
            };
            if normalized(&items[earlier], &as_first) == normalized(item, &as_first) {
                dropped.insert(index);
            } else {
                clashes.extend(mentioned(&items[earlier], &aliases));
                clashes.extend(mentioned(item, &aliases));
            }
        }
        if clashes.is_empty() {
            break dropped;
        }
        aliases.retain(|alias, _| !clashes.contains(alias));
    };

    let constructors: BTreeMap<&str, &str> = aliases
        .iter()
        .filter(|(alias, _)| candidates[*alias].tuple)
        .map(|(alias, first)| (alias.as_str(), first.as_str()))
        .collect();
    let mut out = TokenStream::new();
    for (index, (item, owner)) in items.into_iter().zip(owners).enumerate() {
        if dropped.contains(&index) {
            continue;
        }
        match owner.and_then(|owner| aliases.get(&owner).map(|first| (owner, first))) {
            Some((owner, first)) => {
                if item_key(&item).as_deref() == Some(&owner) && !is_impl(&item) {
                    out.extend(alias_item(&item, &owner, first));
                }
            }
            None => out.extend(with_constructors(item, &constructors)),
        }
    }
    out
}

/// A type an alias may stand for.
struct Candidate {
    name: String,
    /// A tuple struct (built as `Name(..)`), not an enum.
    tuple: bool,
}

/// `pub struct Name(Field);` with a private field, or `pub enum Name { .. }`.
fn candidate(item: &[TokenTree]) -> Option<Candidate> {
    let rest = without_outer_attributes(item);
    let (keyword, name, after) = match rest {
        [
            TokenTree::Ident(public),
            TokenTree::Ident(keyword),
            TokenTree::Ident(name),
            after @ ..,
        ] if public == "pub" => (keyword, name, after),
        _ => return None,
    };
    let tuple = match (keyword.to_string().as_str(), after) {
        ("struct", [TokenTree::Group(field), TokenTree::Punct(semicolon)])
            if field.delimiter() == Delimiter::Parenthesis && semicolon.as_char() == ';' =>
        {
            let private = !field
                .stream()
                .into_iter()
                .any(|token| matches!(&token, TokenTree::Ident(ident) if ident == "pub"));
            let one_field = !field
                .stream()
                .into_iter()
                .any(|token| matches!(&token, TokenTree::Punct(comma) if comma.as_char() == ','));
            if !(private && one_field) {
                return None;
            }
            true
        }
        ("enum", [TokenTree::Group(body)]) if body.delimiter() == Delimiter::Brace => false,
        _ => return None,
    };
    Some(Candidate {
        name: name.to_string(),
        tuple,
    })
}

/// The candidate an item belongs to: its definition, an impl for it, or an
/// impl for a type of another crate that names it (`From<A> for String`).
fn owner(
    item: &[TokenTree],
    defined: &BTreeSet<String>,
    candidates: &BTreeMap<String, Candidate>,
) -> Option<String> {
    let key = item_key(item)?;
    if candidates.contains_key(&key) {
        return Some(key);
    }
    if !is_impl(item) || defined.contains(&key) {
        return None;
    }
    idents(impl_header(item))
        .into_iter()
        .find(|ident| candidates.contains_key(ident))
}

/// The item with its doc attributes and `#[derive]`s, `#[serde]`s dropped,
/// as `pub type Alias = First;`.
fn alias_item(item: &[TokenTree], alias: &str, first: &str) -> TokenStream {
    let mut docs = TokenStream::new();
    let mut tokens = item.iter();
    while let Some(TokenTree::Punct(pound)) = tokens.next() {
        if pound.as_char() != '#' {
            break;
        }
        let Some(TokenTree::Group(attribute)) = tokens.next() else {
            break;
        };
        if is_doc(attribute) {
            docs.extend([
                TokenTree::Punct(pound.clone()),
                TokenTree::Group(attribute.clone()),
            ]);
        }
    }
    let alias = Ident::new(alias, proc_macro2::Span::call_site());
    let first = Ident::new(first, proc_macro2::Span::call_site());
    let note = format!(
        " One type with [`{first}`], whose schema has the same shape, so that \
         the crate builds faster; code should not rely on it, as a change to \
         either schema parts them."
    );
    quote! {
        #docs
        #[doc = ""]
        #[doc = #note]
        pub type #alias = #first;
    }
}

/// `Alias(..)` calls (a constructor, or a pattern) made `First(..)`: a type
/// alias names a tuple struct's type, not its constructor.
fn with_constructors(item: Vec<TokenTree>, constructors: &BTreeMap<&str, &str>) -> TokenStream {
    fn rewrite(tokens: TokenStream, constructors: &BTreeMap<&str, &str>) -> TokenStream {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut out = Vec::with_capacity(tokens.len());
        for (index, token) in tokens.iter().enumerate() {
            out.push(match token {
                TokenTree::Ident(ident)
                    if matches!(tokens.get(index + 1), Some(TokenTree::Group(arguments))
                        if arguments.delimiter() == Delimiter::Parenthesis) =>
                {
                    match constructors.get(ident.to_string().as_str()) {
                        Some(first) => TokenTree::Ident(Ident::new(first, ident.span())),
                        None => token.clone(),
                    }
                }
                TokenTree::Group(group) => {
                    let mut rewritten =
                        Group::new(group.delimiter(), rewrite(group.stream(), constructors));
                    rewritten.set_span(group.span());
                    TokenTree::Group(rewritten)
                }
                _ => token.clone(),
            });
        }
        out.into_iter().collect()
    }
    fn calls(tokens: &[TokenTree], constructors: &BTreeMap<&str, &str>) -> bool {
        tokens.iter().any(|token| match token {
            TokenTree::Ident(ident) => constructors.contains_key(ident.to_string().as_str()),
            TokenTree::Group(group) => calls(
                &group.stream().into_iter().collect::<Vec<_>>(),
                constructors,
            ),
            _ => false,
        })
    }
    // Most items name no alias's constructor: they are passed on untouched
    // rather than rebuilt.
    if !calls(&item, constructors) {
        return item.into_iter().collect();
    }
    match module_body(item) {
        Ok((header, body)) => {
            let body = rewrite(body.into_iter().flatten().collect(), constructors);
            let mut out: TokenStream = header.into_iter().collect();
            out.extend([TokenTree::Group(Group::new(Delimiter::Brace, body))]);
            out
        }
        Err(item) => rewrite(item.into_iter().collect(), constructors),
    }
}

/// An impl's tokens before its body.
fn impl_header(item: &[TokenTree]) -> &[TokenTree] {
    match item.iter().rposition(
        |token| matches!(token, TokenTree::Group(body) if body.delimiter() == Delimiter::Brace),
    ) {
        Some(body) => &item[..body],
        None => item,
    }
}

fn is_doc(attribute: &Group) -> bool {
    matches!(attribute.stream().into_iter().next(), Some(TokenTree::Ident(doc)) if doc == "doc")
}

/// Every identifier of some tokens, groups included.
fn idents(tokens: &[TokenTree]) -> Vec<String> {
    fn walk(tokens: &[TokenTree], out: &mut Vec<String>) {
        for token in tokens {
            match token {
                TokenTree::Ident(ident) => out.push(ident.to_string()),
                TokenTree::Group(group) => {
                    walk(&group.stream().into_iter().collect::<Vec<_>>(), out);
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(tokens, &mut out);
    out
}

fn mentioned(item: &[TokenTree], aliases: &BTreeMap<String, String>) -> BTreeSet<String> {
    idents(item)
        .into_iter()
        .filter(|ident| aliases.contains_key(ident))
        .collect()
}

/// The tokens as text, words apart, without doc attributes, each identifier
/// (and a string literal that is one, as serde's impls name their type)
/// through `rename`.
fn normalized<'a>(tokens: &[TokenTree], rename: &dyn Fn(&str) -> Option<&'a str>) -> String {
    fn walk<'a>(tokens: &[TokenTree], rename: &dyn Fn(&str) -> Option<&'a str>, out: &mut String) {
        let mut index = 0;
        while index < tokens.len() {
            let token = &tokens[index];
            index += 1;
            match token {
                TokenTree::Punct(pound)
                    if pound.as_char() == '#'
                        && matches!(tokens.get(index), Some(TokenTree::Group(attribute)) if is_doc(attribute)) =>
                {
                    index += 1;
                }
                TokenTree::Punct(punct) => {
                    out.push(punct.as_char());
                    out.push(' ');
                }
                TokenTree::Ident(ident) => {
                    let text = ident.to_string();
                    out.push_str(rename(&text).unwrap_or(&text));
                    out.push(' ');
                }
                TokenTree::Literal(literal) => {
                    let text = literal.to_string();
                    let renamed = text
                        .strip_prefix('"')
                        .and_then(|text| text.strip_suffix('"'))
                        .and_then(rename);
                    match renamed {
                        Some(name) => out.push_str(&format!("\"{name}\"")),
                        None => out.push_str(&text),
                    }
                    out.push(' ');
                }
                TokenTree::Group(group) => {
                    let (open, close) = match group.delimiter() {
                        Delimiter::Parenthesis => ("( ", ") "),
                        Delimiter::Brace => ("{ ", "} "),
                        Delimiter::Bracket => ("[ ", "] "),
                        Delimiter::None => ("", ""),
                    };
                    out.push_str(open);
                    walk(&group.stream().into_iter().collect::<Vec<_>>(), rename, out);
                    out.push_str(close);
                }
            }
        }
    }
    let mut out = String::new();
    walk(tokens, rename, &mut out);
    out.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn merged(code: TokenStream) -> String {
        let file: syn::File = syn::parse2(one_type_per_shape(code)).expect("parses");
        prettyplease::unparse(&file)
    }

    #[test]
    fn a_second_string_of_one_shape_is_an_alias_of_the_first() {
        let out = merged(quote! {
            #[doc = " A name."]
            #[derive(Clone, Debug)]
            pub struct ClientName(::std::string::String);
            impl ::std::str::FromStr for ClientName {
                type Err = Error;
                fn from_str(value: &str) -> Result<Self, Error> {
                    if value.len() > 255usize { return Err("longer than 255 characters".into()); }
                    Ok(Self(value.to_string()))
                }
            }
            impl ::std::convert::From<ClientName> for ::std::string::String {
                fn from(value: ClientName) -> Self { value.0 }
            }
            #[doc = " A role's name."]
            #[derive(Clone, Debug)]
            pub struct RoleName(::std::string::String);
            impl ::std::str::FromStr for RoleName {
                type Err = Error;
                fn from_str(value: &str) -> Result<Self, Error> {
                    if value.len() > 255usize { return Err("longer than 255 characters".into()); }
                    Ok(Self(value.to_string()))
                }
            }
            impl ::std::convert::From<RoleName> for ::std::string::String {
                fn from(value: RoleName) -> Self { value.0 }
            }
            pub struct Role { pub name: RoleName }
            impl ::std::convert::From<ClientName> for Role {
                fn from(value: ClientName) -> Self { Self { name: value } }
            }
            impl ::std::convert::From<RoleName> for Role {
                fn from(value: RoleName) -> Self { Self { name: value } }
            }
            mod defaults {
                pub(super) fn role_name() -> super::RoleName {
                    super::RoleName("admin".to_string())
                }
            }
        });
        assert_eq!(out.matches("pub struct").count(), 2, "{out}");
        assert!(
            out.contains("/// A role's name.\n///\n/// One type with [`ClientName`]"),
            "{out}"
        );
        assert!(out.contains("pub type RoleName = ClientName;"), "{out}");
        // Its impls go with it; the second `From` for `Role` is the first.
        assert_eq!(out.matches("impl ::std::str::FromStr").count(), 1, "{out}");
        assert_eq!(out.matches("for Role {").count(), 1, "{out}");
        assert!(out.contains("pub name: RoleName"), "{out}");
        assert!(
            out.contains("super::ClientName(\"admin\".to_string())"),
            "{out}"
        );
    }

    #[test]
    fn strings_of_different_rules_or_public_fields_stay_apart() {
        let out = merged(quote! {
            pub struct Short(::std::string::String);
            impl ::std::str::FromStr for Short {
                type Err = Error;
                fn from_str(value: &str) -> Result<Self, Error> {
                    if value.len() > 10usize { return Err("long".into()); }
                    Ok(Self(value.to_string()))
                }
            }
            pub struct Long(::std::string::String);
            impl ::std::str::FromStr for Long {
                type Err = Error;
                fn from_str(value: &str) -> Result<Self, Error> {
                    if value.len() > 20usize { return Err("long".into()); }
                    Ok(Self(value.to_string()))
                }
            }
            pub struct Open(pub ::std::string::String);
            pub struct Free(pub ::std::string::String);
        });
        assert!(!out.contains("pub type"), "{out}");
    }

    #[test]
    fn enums_of_one_shape_merge_and_a_conversion_from_each_is_left_once() {
        let out = merged(quote! {
            #[derive(Clone, Copy)]
            pub enum OrderA { Asc, Desc }
            impl ::serde::Serialize for OrderA {
                fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.serialize_unit_variant("OrderA", *self as u32, ["asc", "desc"][*self as usize])
                }
            }
            #[derive(Clone, Copy)]
            pub enum OrderB { Asc, Desc }
            impl ::serde::Serialize for OrderB {
                fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.serialize_unit_variant("OrderB", *self as u32, ["asc", "desc"][*self as usize])
                }
            }
            #[derive(Clone, Copy)]
            pub enum Kind { Asc, Desc, Both }
            pub struct Sort { pub order: OrderB }
            impl ::std::convert::From<OrderA> for Sort {
                fn from(order: OrderA) -> Self { Self { order } }
            }
            impl ::std::convert::From<OrderB> for Sort {
                fn from(order: OrderB) -> Self { Self { order } }
            }
        });
        assert!(out.contains("pub type OrderB = OrderA;"), "{out}");
        assert!(out.contains("pub enum Kind"), "{out}");
        assert!(
            out.contains("From<OrderA> for Sort") && !out.contains("From<OrderB>"),
            "{out}"
        );
        assert_eq!(out.matches("impl ::serde::Serialize").count(), 1, "{out}");
    }

    #[test]
    fn impls_that_clash_once_merged_keep_their_types_apart() {
        let out = merged(quote! {
            pub struct A(::std::string::String);
            pub struct B(::std::string::String);
            pub struct Holder(::std::vec::Vec<u8>, u8);
            impl ::std::convert::From<A> for Holder {
                fn from(value: A) -> Self { one(value) }
            }
            impl ::std::convert::From<B> for Holder {
                fn from(value: B) -> Self { another(value) }
            }
        });
        assert!(!out.contains("pub type"), "{out}");
        assert!(
            out.contains("From<A> for Holder") && out.contains("From<B> for Holder"),
            "{out}"
        );
    }
}
