//! The runtime's values as the Rust expressions that build them.
//!
//! The model lowers each parameter into `openapi_crates_runtime::wire`'s
//! values once; generated code holds those values, written here, so an
//! emitter never decides a style or a shape again. A value's expression
//! builds it in a constant: names are `Cow::Borrowed`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{Entries, In, Scalar, Shape, Style};

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
