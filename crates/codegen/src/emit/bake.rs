//! The runtime's values as the Rust expressions that build them.
//!
//! The model lowers each parameter into `openapi_crates_runtime::wire`'s
//! values and each schema's rules into `openapi_crates_runtime::rules`'
//! values once; generated code holds those values, written here, so an
//! emitter never decides a style, a shape or a check again. A wire value's
//! expression builds it in a constant (names are `Cow::Borrowed`); a rule's
//! builds it in a `LazyLock`, since rules own their boxes and strings.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::model::validation::{
    Additional, ArrayCheck, Bound, Check, Contains, Evaluated, IntegerFormat, NumberCheck,
    ObjectCheck, PatternRule, StringCheck, Values,
};
use crate::model::{Entries, In, Scalar, Shape, Style};
use crate::naming;

/// A runtime value as the expression that builds it, its types named under
/// `path` (the generated crate's path to the runtime's `wire` items).
pub(crate) trait Bake {
    fn bake(&self, path: &TokenStream) -> TokenStream;
}

impl Bake for In {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        let variant = format_ident!("{self:?}");
        quote!(#path::In::#variant)
    }
}

impl Bake for Style {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        match *self {
            Style::Form { explode } => quote!(#path::Style::Form { explode: #explode }),
            Style::SpaceDelimited => quote!(#path::Style::SpaceDelimited),
            Style::PipeDelimited => quote!(#path::Style::PipeDelimited),
            Style::DeepObject => quote!(#path::Style::DeepObject),
            Style::Simple { explode } => quote!(#path::Style::Simple { explode: #explode }),
            Style::Label { explode } => quote!(#path::Style::Label { explode: #explode }),
            Style::Matrix { explode } => quote!(#path::Style::Matrix { explode: #explode }),
        }
    }
}

impl Bake for Scalar {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        let variant = format_ident!("{self:?}");
        quote!(#path::Scalar::#variant)
    }
}

impl Bake for Shape {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        match self {
            // The constants read best: `Shape::INTEGER`.
            Shape::Scalar(scalar) => {
                let constant = format_ident!("{}", format!("{scalar:?}").to_ascii_uppercase());
                quote!(#path::Shape::#constant)
            }
            Shape::List(scalar) => {
                let scalar = scalar.bake(path);
                quote!(#path::Shape::List(#scalar))
            }
            Shape::Object(entries) => {
                let entries = entries.bake(path);
                quote!(#path::Shape::Object(#entries))
            }
        }
    }
}

impl Bake for Entries {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        let borrowed = quote!(::std::borrow::Cow::Borrowed);
        let properties = self.properties.iter().map(|(name, scalar)| {
            let (name, scalar) = (name.as_ref(), scalar.bake(path));
            quote!((#borrowed(#name), #scalar))
        });
        let others = match self.others {
            Some(scalar) => {
                let scalar = scalar.bake(path);
                quote!(Some(#scalar))
            }
            None => quote!(None),
        };
        let except = self.except.iter().map(|name| {
            let name = name.as_ref();
            quote!(#borrowed(#name))
        });
        quote! {
            #path::Entries {
                properties: #borrowed(&[#(#properties),*]),
                others: #others,
                except: #borrowed(&[#(#except),*]),
            }
        }
    }
}

impl Bake for Check {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        let boxed = |check: &Check| {
            let check = check.bake(path);
            quote!(Box::new(#check))
        };
        match self {
            Check::Any => quote!(#path::Check::Any),
            Check::Never => quote!(#path::Check::Never),
            // Linked, not named: a schema's static is then an item the
            // feature gates see used, and no table of names is needed.
            Check::Schema(name) => {
                let rules = schema_rules(name);
                quote!(#path::Check::Linked(#path::Link(|| &#rules)))
            }
            Check::Linked(_) => unreachable!("the model names schemas; only generated code links"),
            Check::All(parts) => {
                let parts = checks(parts, path);
                quote!(#path::Check::All(#parts))
            }
            Check::Object(object) => {
                let object = object.bake(path);
                quote!(#path::Check::Object(#object))
            }
            Check::Array(array) => {
                let array = array.bake(path);
                quote!(#path::Check::Array(#array))
            }
            Check::String(string) => {
                let string = string.bake(path);
                quote!(#path::Check::String(#string))
            }
            Check::Number(number) => {
                let number = number.bake(path);
                quote!(#path::Check::Number(#number))
            }
            Check::Boolean => quote!(#path::Check::Boolean),
            Check::IfType(check) => {
                let check = boxed(check);
                quote!(#path::Check::IfType(#check))
            }
            Check::Values(values) => {
                let values = values.bake(path);
                quote!(#path::Check::Values(#values))
            }
            Check::Not(check) => {
                let check = boxed(check);
                quote!(#path::Check::Not(#check))
            }
            Check::Conditional {
                condition,
                then,
                otherwise,
            } => {
                let (condition, then, otherwise) =
                    (boxed(condition), boxed(then), boxed(otherwise));
                quote! {
                    #path::Check::Conditional {
                        condition: #condition,
                        then: #then,
                        otherwise: #otherwise,
                    }
                }
            }
            Check::UnevaluatedProperties { evaluated, rest } => {
                let (evaluated, rest) = (evaluated.bake(path), rest.bake(path));
                quote!(#path::Check::UnevaluatedProperties { evaluated: #evaluated, rest: #rest })
            }
            Check::UnevaluatedItems { evaluated, rest } => {
                let (evaluated, rest) = (evaluated.bake(path), rest.bake(path));
                quote!(#path::Check::UnevaluatedItems { evaluated: #evaluated, rest: #rest })
            }
            Check::Discriminated { property, mapping } => {
                let mapping = mapping.iter().map(|(value, check)| {
                    let check = check.bake(path);
                    quote!((#value.into(), #check))
                });
                quote! {
                    #path::Check::Discriminated {
                        property: #property.into(),
                        mapping: Vec::from([#(#mapping),*]),
                    }
                }
            }
            Check::Alternatives {
                exactly_one,
                variants,
            } => {
                let variants = checks(variants, path);
                quote! {
                    #path::Check::Alternatives {
                        exactly_one: #exactly_one,
                        variants: #variants,
                    }
                }
            }
            Check::WithMessage { check, message } => {
                let check = boxed(check);
                quote!(#path::Check::WithMessage { check: #check, message: #message.into() })
            }
            Check::Nullable(check) => {
                let check = boxed(check);
                quote!(#path::Check::Nullable(#check))
            }
        }
    }
}

/// The static holding the rules of component schema `schema` in the
/// generated server's `validate` module.
pub(crate) fn schema_rules(schema: &str) -> Ident {
    format_ident!(
        "{}",
        naming::method_name(&naming::type_name(schema)).to_ascii_uppercase()
    )
}

/// The struct `ty` with `field: value,` for each field whose value is not
/// its default, then `..Default::default()` when one was left out: the
/// rules read as the spec wrote them, without the keywords it did not.
fn fields(ty: TokenStream, fields: Vec<(&str, Option<TokenStream>)>) -> TokenStream {
    if fields.iter().all(|(_, value)| value.is_none()) {
        return quote!(#ty::default());
    }
    let omitted = fields.iter().any(|(_, value)| value.is_none());
    let written = fields.into_iter().filter_map(|(name, value)| {
        let name = format_ident!("{name}");
        value.map(|value| quote!(#name: #value,))
    });
    let rest = omitted.then(|| quote!(..Default::default()));
    quote!(#ty { #(#written)* #rest })
}

fn strings(values: &[String], path: &TokenStream) -> TokenStream {
    quote!(#path::names(&[#(#values),*]))
}

fn checks(list: &[Check], path: &TokenStream) -> TokenStream {
    let checks = list.iter().map(|check| check.bake(path));
    quote!(Vec::from([#(#checks),*]))
}

fn some<T>(value: &Option<T>, bake: impl Fn(&T) -> TokenStream) -> Option<TokenStream> {
    value.as_ref().map(|value| {
        let value = bake(value);
        quote!(Some(#value))
    })
}

fn nonempty<T>(list: &[T], bake: impl Fn(&[T]) -> TokenStream) -> Option<TokenStream> {
    (!list.is_empty()).then(|| bake(list))
}

impl Bake for ObjectCheck {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        let checks = |list: &[(String, Check)]| {
            let entries = list.iter().map(|(name, check)| {
                let check = check.bake(path);
                quote!((#name.into(), #check))
            });
            quote!(Vec::from([#(#entries),*]))
        };
        fields(
            quote!(#path::ObjectCheck),
            vec![
                (
                    "required",
                    nonempty(&self.required, |names| strings(names, path)),
                ),
                ("properties", nonempty(&self.properties, checks)),
                ("known", nonempty(&self.known, |names| strings(names, path))),
                (
                    "patterns",
                    nonempty(&self.patterns, |patterns| {
                        let entries = patterns.iter().map(|(pattern, check)| {
                            let (pattern, check) = (pattern.bake(path), check.bake(path));
                            quote!((#pattern, #check))
                        });
                        quote!(Vec::from([#(#entries),*]))
                    }),
                ),
                (
                    "additional",
                    (self.additional != Additional::Allowed).then(|| self.additional.bake(path)),
                ),
                (
                    "min_properties",
                    some(&self.min_properties, |min| quote!(#min)),
                ),
                (
                    "max_properties",
                    some(&self.max_properties, |max| quote!(#max)),
                ),
                (
                    "property_names",
                    some(&self.property_names, |check| {
                        let check = check.bake(path);
                        quote!(Box::new(#check))
                    }),
                ),
                (
                    "dependent_required",
                    nonempty(&self.dependent_required, |list| {
                        let entries = list.iter().map(|(name, required)| {
                            let required = strings(required, path);
                            quote!((#name.into(), #required))
                        });
                        quote!(Vec::from([#(#entries),*]))
                    }),
                ),
                (
                    "dependent_schemas",
                    nonempty(&self.dependent_schemas, checks),
                ),
            ],
        )
    }
}

impl Bake for Additional {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        match self {
            Additional::Allowed => quote!(#path::Additional::Allowed),
            Additional::Forbidden => quote!(#path::Additional::Forbidden),
            Additional::Checked(check) => {
                let check = check.bake(path);
                quote!(#path::Additional::Checked(Box::new(#check)))
            }
        }
    }
}

impl Bake for ArrayCheck {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        fields(
            quote!(#path::ArrayCheck),
            vec![
                ("min_items", some(&self.min_items, |min| quote!(#min))),
                ("max_items", some(&self.max_items, |max| quote!(#max))),
                (
                    "prefix",
                    nonempty(&self.prefix, |prefix| checks(prefix, path)),
                ),
                (
                    "items",
                    (!self.items.is_any()).then(|| {
                        let items = self.items.bake(path);
                        quote!(Box::new(#items))
                    }),
                ),
                ("unique", self.unique.then(|| quote!(true))),
                (
                    "contains",
                    some(&self.contains, |contains| contains.bake(path)),
                ),
            ],
        )
    }
}

impl Bake for Contains {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        let check = self.check.bake(path);
        let min = self.min;
        let max = match self.max {
            Some(max) => quote!(Some(#max)),
            None => quote!(None),
        };
        quote!(#path::Contains { check: Box::new(#check), min: #min, max: #max })
    }
}

impl Bake for StringCheck {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        fields(
            quote!(#path::StringCheck),
            vec![
                (
                    "allowed",
                    some(&self.allowed, |allowed| strings(allowed, path)),
                ),
                ("min_length", some(&self.min_length, |min| quote!(#min))),
                ("max_length", some(&self.max_length, |max| quote!(#max))),
                (
                    "format",
                    some(&self.format, |format| quote!(#format.into())),
                ),
                ("pattern", some(&self.pattern, |pattern| pattern.bake(path))),
            ],
        )
    }
}

impl Bake for NumberCheck {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        fields(
            quote!(#path::NumberCheck),
            vec![
                ("integer", self.integer.then(|| quote!(true))),
                ("minimum", some(&self.minimum, |bound| bound.bake(path))),
                ("maximum", some(&self.maximum, |bound| bound.bake(path))),
                (
                    "multiple_of",
                    some(&self.multiple_of, |divisor| quote!(#divisor)),
                ),
                ("format", some(&self.format, |format| format.bake(path))),
            ],
        )
    }
}

impl Bake for Bound {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        let (value, exclusive) = (self.value, self.exclusive);
        let exact = match self.exact {
            Some(exact) => quote!(Some(#exact)),
            None => quote!(None),
        };
        quote!(#path::Bound { value: #value, exclusive: #exclusive, exact: #exact })
    }
}

impl Bake for IntegerFormat {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        let (name, min, max) = (&self.name, self.min, self.max);
        quote!(#path::IntegerFormat { name: #name.into(), min: #min, max: #max })
    }
}

impl Bake for PatternRule {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        let source = self.source();
        let translated = match self.translated() {
            Some(translated) => quote!(Some(#translated.into())),
            None => quote!(None),
        };
        quote!(#path::PatternRule::new(#source, #translated))
    }
}

impl Bake for Values {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        let texts = strings(self.texts(), path);
        quote!(#path::Values::new(#texts))
    }
}

impl Bake for Evaluated {
    fn bake(&self, path: &TokenStream) -> TokenStream {
        match self {
            Evaluated::Everything => quote!(#path::Evaluated::Everything),
            Evaluated::Names(names) => {
                let names = strings(names, path);
                quote!(#path::Evaluated::Names(#names))
            }
            Evaluated::Patterns(patterns) => {
                let patterns = patterns.iter().map(|pattern| pattern.bake(path));
                quote!(#path::Evaluated::Patterns(Vec::from([#(#patterns),*])))
            }
            Evaluated::Prefix(length) => quote!(#path::Evaluated::Prefix(#length)),
            Evaluated::Matching(check) => {
                let check = check.bake(path);
                quote!(#path::Evaluated::Matching(Box::new(#check)))
            }
            Evaluated::When {
                condition,
                evaluated,
            } => {
                let (condition, evaluated) = (condition.bake(path), evaluated.bake(path));
                quote! {
                    #path::Evaluated::When {
                        condition: Box::new(#condition),
                        evaluated: Box::new(#evaluated),
                    }
                }
            }
            Evaluated::Union(parts) => {
                let parts = parts.iter().map(|part| part.bake(path));
                quote!(#path::Evaluated::Union(Vec::from([#(#parts),*])))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

    #[test]
    fn values_are_written_as_the_expressions_that_build_them() {
        let path = quote!(runtime::params);
        assert_eq!(
            Style::Form { explode: false }.bake(&path).to_string(),
            quote!(runtime::params::Style::Form { explode: false }).to_string()
        );
        assert_eq!(
            Shape::INTEGER.bake(&path).to_string(),
            quote!(runtime::params::Shape::INTEGER).to_string()
        );
        let object = Shape::Object(Entries {
            properties: Cow::Owned(vec![(Cow::Owned("x".into()), Scalar::Number)]),
            others: None,
            except: Cow::Owned(vec![Cow::Owned("page".into())]),
        });
        let expected = quote! {
            runtime::params::Shape::Object(runtime::params::Entries {
                properties: ::std::borrow::Cow::Borrowed(&[(
                    ::std::borrow::Cow::Borrowed("x"),
                    runtime::params::Scalar::Number
                )]),
                others: None,
                except: ::std::borrow::Cow::Borrowed(&[::std::borrow::Cow::Borrowed("page")]),
            })
        };
        assert_eq!(object.bake(&path).to_string(), expected.to_string());
    }
}
