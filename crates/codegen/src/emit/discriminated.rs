//! Unions decided by their discriminator.
//!
//! Typify makes a `oneOf` of `$ref`s a `#[serde(untagged)]` enum, which
//! takes the first variant that decodes: with `Cat` and `Dog` whose `type`
//! is a plain string, `{"type": "dog", "bark": true}` is a `Cat`, silently,
//! in the client and in the server's handler. Where the description gives
//! the union a discriminator ([`crate::model::discriminator`] reads which
//! value picks which member), the enum's serde impls are written here
//! instead: reading looks at the property first and types the value as the
//! member it names (the runtime's `types::discriminated`, with an error
//! naming the property and the values allowed when it names none), and
//! writing sets the property to the variant's value (`with_discriminator`).
//!
//! Runs before [`super::open_enums`]: a union decided here no longer tells
//! its variants apart by what they refuse, so the enums they reach may open.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::quote;

use crate::format::split_items;
use crate::model::discriminator::Union;
use crate::naming;

/// `types` with each untagged enum that is one of `unions` decided by its
/// discriminator.
pub fn decided(types: TokenStream, unions: &[Union]) -> TokenStream {
    if unions.is_empty() {
        return types;
    }
    let mut out = TokenStream::new();
    for item in split_items(types) {
        match decide(&item, unions) {
            Some(written) => out.extend(written),
            None => out.extend(item),
        }
    }
    out
}

fn decide(item: &[TokenTree], unions: &[Union]) -> Option<TokenStream> {
    let untagged = item.iter().any(|token| {
        matches!(token, TokenTree::Group(group) if group.delimiter() == Delimiter::Bracket
            && group.stream().to_string().replace(' ', "") == "serde(untagged)")
    });
    if !untagged {
        return None;
    }
    let syn::Item::Enum(mut parsed) =
        syn::parse2::<syn::Item>(item.iter().cloned().collect()).ok()?
    else {
        return None;
    };
    let payloads: Vec<String> = parsed
        .variants
        .iter()
        .map(|variant| match &variant.fields {
            syn::Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                match &fields.unnamed[0].ty {
                    syn::Type::Path(path) if path.qself.is_none() => {
                        Some(path.path.segments.last()?.ident.to_string())
                    }
                    _ => None,
                }
            }
            _ => None,
        })
        .collect::<Option<_>>()?;
    let union = union_of(&parsed.ident.to_string(), &payloads, unions)?;
    let name = &parsed.ident;
    let name_text = name.to_string();
    let property = &union.property;
    let values: Vec<&str> = union
        .values
        .iter()
        .map(|(value, _)| value.as_str())
        .collect();
    let variants: Vec<&syn::Ident> = parsed
        .variants
        .iter()
        .map(|variant| &variant.ident)
        .collect();
    let (last, others) = variants.split_last()?;
    // A member's values are consecutive in `values`: its indices a range.
    let patterns = (0..others.len()).map(|member| {
        let mut indices = union
            .values
            .iter()
            .enumerate()
            .filter(|(_, (_, of))| *of == member)
            .map(|(index, _)| index);
        let first = indices.next().unwrap_or_default();
        match indices.next_back() {
            Some(last) => quote!(#first..=#last),
            None => quote!(#first),
        }
    });
    let member_values = (0..variants.len()).map(|member| {
        let values = union
            .values
            .iter()
            .filter(|(_, of)| *of == member)
            .map(|(value, _)| value);
        quote!(&[#(#values),*])
    });
    let cfg = super::deserialize::cfg_attributes(&parsed.attrs);
    let impls = quote! {
        #(#cfg)*
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<__D: ::serde::Deserializer<'de>>(
                deserializer: __D,
            ) -> ::std::result::Result<Self, __D::Error> {
                const __VALUES: &[&str] = &[#(#values),*];
                let (index, variant) =
                    crate::__checked::discriminated(deserializer, #name_text, #property, __VALUES)?;
                ::std::result::Result::Ok(match index {
                    #(#patterns => Self::#others(variant.read()?),)*
                    _ => Self::#last(variant.read()?),
                })
            }
        }

        #(#cfg)*
        impl ::serde::Serialize for #name {
            fn serialize<__S: ::serde::Serializer>(
                &self,
                serializer: __S,
            ) -> ::std::result::Result<__S::Ok, __S::Error> {
                match self {
                    #(Self::#variants(value) => crate::__checked::with_discriminator(
                        value, #property, #member_values, serializer,
                    ),)*
                }
            }
        }
    };
    super::deserialize::without_derives(&mut parsed.attrs, &["Deserialize", "Serialize"])?;
    parsed.attrs.retain(|attr| !attr.path().is_ident("serde"));
    Some(quote!(#parsed #impls))
}

/// The union `name`, of members typed `payloads`, is: the component of that
/// name, else the one reading every inline union of those members shares
/// (typify names an inline union after where it is, which the model does
/// not know).
fn union_of<'a>(name: &str, payloads: &[String], unions: &'a [Union]) -> Option<&'a Union> {
    let candidates: Vec<&Union> = unions
        .iter()
        .filter(|union| {
            union.members.len() == payloads.len()
                && union
                    .members
                    .iter()
                    .zip(payloads)
                    .all(|(member, payload)| naming::type_name(member) == *payload)
        })
        .collect();
    if let Some(component) = candidates.iter().find(|union| {
        union
            .component
            .as_deref()
            .is_some_and(|component| naming::type_name(component) == name)
    }) {
        return Some(component);
    }
    // A component's union is typed under its own name, so an enum of
    // another name is one of the inline unions.
    let inline: Vec<&Union> = candidates
        .into_iter()
        .filter(|union| union.component.is_none())
        .collect();
    let first = inline.first()?;
    inline
        .iter()
        .all(|union| union.property == first.property && union.values == first.values)
        .then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pets() -> Union {
        Union {
            component: Some("Pet".into()),
            property: "type".into(),
            members: vec!["Cat".into(), "Dog".into()],
            values: vec![("cat".into(), 0), ("kitty".into(), 0), ("dog".into(), 1)],
        }
    }

    #[test]
    fn a_discriminated_union_reads_by_its_property() {
        let code = quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
            #[serde(untagged)]
            pub enum Pet { Cat(Cat), Dog(Dog) }
        };
        let out = decided(code, &[pets()]).to_string();
        assert!(out.contains("# [derive (Clone , Debug)]"), "{out}");
        assert!(!out.contains("untagged"), "{out}");
        assert!(
            out.contains(r#"discriminated (deserializer , "Pet" , "type" , __VALUES)"#),
            "{out}"
        );
        assert!(
            out.contains("0usize ..= 1usize => Self :: Cat (variant . read () ?)"),
            "{out}"
        );
        assert!(
            out.contains("_ => Self :: Dog (variant . read () ?)"),
            "{out}"
        );
        assert!(
            out.contains(r#"Self :: Cat (value) => crate :: __checked :: with_discriminator (value , "type" , & ["cat" , "kitty"] , serializer ,)"#),
            "{out}"
        );
    }

    #[test]
    fn other_unions_stay_untagged() {
        let code = quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug)]
            #[serde(untagged)]
            pub enum Either { Cat(Cat), Text(::std::string::String) }
        };
        assert_eq!(
            decided(code.clone(), &[pets()]).to_string(),
            code.to_string()
        );
    }
}
