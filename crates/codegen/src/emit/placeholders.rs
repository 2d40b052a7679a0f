//! Stand-ins for wire names in progenitor's view of the spec.
//!
//! Progenitor and typify make an identifier from a property's, a parameter's
//! or an enum value's spelling, and write the spelling itself where the wire
//! needs it (a serde `rename`, a query key, `Display`). Where two spellings
//! become one identifier, or one that rustc refuses, the view gets a
//! placeholder instead: a string that converts to the identifier chosen for
//! it (by the same rule, from its `source`) and that carries the wire name,
//! which [`Placeholders::restore`] puts back in every string literal of the
//! generated code. The placeholder is made of characters from a private-use
//! block of Unicode that the document does not use, so it cannot be
//! mistaken for anything the spec wrote, and cannot survive as part of an
//! identifier (it is no identifier character: case conversion drops it).
//!
//! A placeholder is `OPEN`, the wire name's UTF-8 bytes each as one
//! character, `SEPARATOR`, the source, `CLOSE`.

use std::borrow::Cow;

use proc_macro2::{Group, Literal, TokenStream, TokenTree};
use serde_json::Value;

/// Candidate blocks of private-use characters: the first the document does
/// not use is the placeholders' alphabet.
const BLOCK_SIZE: u32 = 0x110;
const CANDIDATES: &[u32] = &[
    0xE000, 0xE200, 0xE400, 0xE600, 0xE800, 0xEA00, 0xEC00, 0xEE00, 0xF000, 0xF200, 0xF400, 0xF600,
    0xF0000, 0xF0200, 0xF0400, 0x100000, 0x100200,
];
const OPEN: u32 = 0;
const SEPARATOR: u32 = 1;
const CLOSE: u32 = 2;
const BYTES: u32 = 0x10;

/// The placeholder alphabet of one document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placeholders {
    base: u32,
}

impl Placeholders {
    /// The alphabet for `document`: a block none of its strings (keys
    /// included) touches. `None` only for a document that uses them all.
    pub fn for_document(document: &Value) -> Option<Self> {
        let mut used = std::collections::BTreeSet::new();
        collect_private_use(document, &mut used);
        CANDIDATES
            .iter()
            .find(|base| used.range(**base..**base + BLOCK_SIZE).next().is_none())
            .map(|base| Placeholders { base: *base })
    }

    fn char(&self, offset: u32) -> char {
        char::from_u32(self.base + offset).expect("private-use code points are chars")
    }

    /// The placeholder that converts like `source` and stands for `wire`.
    pub fn wrap(&self, source: &str, wire: &str) -> String {
        let mut text = String::new();
        text.push(self.char(OPEN));
        for byte in wire.bytes() {
            text.push(self.char(BYTES + u32::from(byte)));
        }
        text.push(self.char(SEPARATOR));
        text.push_str(source);
        text.push(self.char(CLOSE));
        text
    }

    /// The wire name a whole placeholder stands for; `None` for any other
    /// text.
    pub fn wire_name(&self, text: &str) -> Option<String> {
        let restored = self.restore(text)?;
        let whole = text.starts_with(self.char(OPEN)) && text.ends_with(self.char(CLOSE));
        let single = text.matches(self.char(OPEN)).count() == 1;
        (whole && single).then(|| restored.into_owned())
    }

    /// `text` with every placeholder in it replaced by its wire name; `None`
    /// when it holds none.
    pub fn restore<'a>(&self, text: &'a str) -> Option<Cow<'a, str>> {
        let open = self.char(OPEN);
        if !text.contains(open) {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find(open) {
            out.push_str(&rest[..start]);
            let after = &rest[start + open.len_utf8()..];
            match self.decode(after) {
                Some((wire, consumed)) => {
                    out.push_str(&wire);
                    rest = &after[consumed..];
                }
                None => {
                    out.push(open);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        Some(Cow::Owned(out))
    }

    /// The wire name at the start of `text` (just after `OPEN`), and the
    /// length of the placeholder's rest.
    fn decode(&self, text: &str) -> Option<(String, usize)> {
        let mut bytes = Vec::new();
        let mut chars = text.char_indices();
        loop {
            let (_, c) = chars.next()?;
            let offset = u32::from(c).checked_sub(self.base)?;
            if offset == SEPARATOR {
                break;
            }
            bytes.push(u8::try_from(offset.checked_sub(BYTES)?).ok()?);
        }
        let close = self.char(CLOSE);
        let (end, _) = chars.find(|(_, c)| *c == close)?;
        Some((String::from_utf8(bytes).ok()?, end + close.len_utf8()))
    }

    /// `tokens` with the placeholders in every string literal restored.
    pub fn restore_tokens(&self, tokens: TokenStream) -> TokenStream {
        tokens
            .into_iter()
            .map(|tree| match tree {
                TokenTree::Group(group) => {
                    let mut restored =
                        Group::new(group.delimiter(), self.restore_tokens(group.stream()));
                    restored.set_span(group.span());
                    TokenTree::Group(restored)
                }
                TokenTree::Literal(literal) => TokenTree::Literal(self.restore_literal(literal)),
                other => other,
            })
            .collect()
    }

    fn restore_literal(&self, literal: Literal) -> Literal {
        // Only string literals can hold one; their text shows the
        // placeholder's characters escaped or not, as the printer chose.
        let text = literal.to_string();
        if !text.starts_with('"') {
            return literal;
        }
        let Ok(parsed) = syn::parse_str::<syn::LitStr>(&text) else {
            return literal;
        };
        let value = parsed.value();
        match self.restore(&value) {
            Some(restored) => {
                let mut replaced = Literal::string(&restored);
                replaced.set_span(literal.span());
                replaced
            }
            None => literal,
        }
    }
}

fn note_private_use(text: &str, used: &mut std::collections::BTreeSet<u32>) {
    used.extend(
        text.chars()
            .map(u32::from)
            .filter(|code| (0xE000..=0xF8FF).contains(code) || *code >= 0xF0000),
    );
}

fn collect_private_use(value: &Value, used: &mut std::collections::BTreeSet<u32>) {
    match value {
        Value::String(text) => note_private_use(text, used),
        Value::Array(items) => items
            .iter()
            .for_each(|item| collect_private_use(item, used)),
        Value::Object(object) => {
            for (key, child) in object {
                note_private_use(key, used);
                collect_private_use(child, used);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn placeholders_convert_like_their_source_and_restore_the_wire_name() {
        let placeholders = Placeholders::for_document(&json!({"a": "b"})).unwrap();
        for (source, wire) in [
            ("foo_bar-2", "foo_bar"),
            ("Dot", "."),
            ("Empty", ""),
            ("a-Plus-1", "+1"),
        ] {
            let placeholder = placeholders.wrap(source, wire);
            assert_eq!(
                crate::naming::field_name(&placeholder),
                crate::naming::field_name(source)
            );
            assert_eq!(
                crate::naming::type_name(&placeholder),
                crate::naming::type_name(source)
            );
            assert_eq!(placeholders.wire_name(&placeholder).as_deref(), Some(wire));
            let doc = format!("Sends a `GET` request to `/w/{{{placeholder}}}/x`");
            assert_eq!(
                placeholders.restore(&doc).unwrap(),
                format!("Sends a `GET` request to `/w/{{{wire}}}/x`")
            );
        }
        assert_eq!(placeholders.restore("plain"), None);
        assert_eq!(placeholders.wire_name("plain"), None);
    }

    #[test]
    fn the_alphabet_avoids_what_the_document_uses() {
        let first = Placeholders::for_document(&json!({})).unwrap();
        let taken = first.wrap("x", "y");
        let second = Placeholders::for_document(&json!({ taken.clone(): "" })).unwrap();
        assert_ne!(first, second);
        assert_eq!(second.restore(&taken), None);
    }

    #[test]
    fn string_literals_in_tokens_are_restored() {
        let placeholders = Placeholders::for_document(&json!({})).unwrap();
        let placeholder = placeholders.wrap("Asc-2", "asc");
        let tokens = quote::quote! {
            enum E { #[serde(rename = #placeholder)] Asc2 }
            fn f() { g(#placeholder, 1, b"x", 'c') }
        };
        let restored = placeholders.restore_tokens(tokens).to_string();
        assert_eq!(
            restored,
            quote::quote! {
                enum E { #[serde(rename = "asc")] Asc2 }
                fn f() { g("asc", 1, b"x", 'c') }
            }
            .to_string()
        );
    }
}
