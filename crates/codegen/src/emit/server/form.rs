//! The shapes of form bodies ([`crate::model::form`]) as statics: one
//! `runtime::form::Shape` per schema a form body reaches whose fields are
//! more than text, which the runtime reads the form's fields by before
//! validation.

use heck::ToShoutySnakeCase;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

use crate::emit::{RUNTIME_CRATE, crate_ident};
use crate::model::form::{FormScalar, FormShape};
use crate::model::{ApiModel, FORM};
use crate::naming;

/// `shape` as an expression of type `Shape`.
fn shape(shape: &FormShape) -> TokenStream {
    match shape {
        FormShape::Text => quote!(Shape::Text),
        FormShape::Scalar(FormScalar::Integer) => quote!(Shape::Integer),
        FormShape::Scalar(FormScalar::Number) => quote!(Shape::Number),
        FormShape::Scalar(FormScalar::Boolean) => quote!(Shape::Boolean),
        FormShape::File(None) => quote!(Shape::File(None)),
        FormShape::File(Some(max)) => quote!(Shape::File(Some(#max))),
        FormShape::Nullable(inner) => {
            let inner = self::shape(inner);
            quote!(Shape::Nullable(&#inner))
        }
        FormShape::List(item) => {
            let item = self::shape(item);
            quote!(Shape::List(&#item))
        }
        FormShape::Object(object) => {
            let properties = object.properties.iter().map(|(name, property)| {
                let property = self::shape(property);
                quote!((#name, &#property))
            });
            let other = match &object.other {
                Some(other) => {
                    let other = self::shape(other);
                    quote!(Some(&#other))
                }
                None => quote!(None),
            };
            quote!(Shape::Object(&[#(#properties),*], #other))
        }
        FormShape::Schema(name) => {
            let ident = static_ident(name);
            quote!(#ident)
        }
    }
}

fn static_ident(schema: &str) -> Ident {
    naming::ident(&naming::type_name(schema).to_shouty_snake_case())
}

/// The `form` argument of the body reader for a body with `schema`.
pub(super) fn form_argument(model: &ApiModel, schema: &str, media_types: &[String]) -> TokenStream {
    if media_types.iter().any(|media_type| media_type == FORM)
        && model.form_shapes.root(schema).is_some()
    {
        let ident = static_ident(schema);
        quote!(Some(&form::#ident))
    } else {
        quote!(None)
    }
}

/// The `form` argument of the reader of a multipart body whose parts are
/// checked against `schema`.
pub(super) fn parts_form_argument(model: &ApiModel, schema: &str) -> TokenStream {
    if model.form_shapes.root(schema).is_some() {
        let ident = static_ident(schema);
        quote!(Some(&form::#ident))
    } else {
        quote!(None)
    }
}

/// The `form` module: one static shape per schema a form body reaches that
/// is more than text.
pub(super) fn form_module(model: &ApiModel) -> TokenStream {
    let statics: Vec<TokenStream> = model
        .form_shapes
        .named
        .iter()
        .map(|(name, form)| {
            let shape = shape(form);
            let ident = static_ident(name);
            let doc = format!(" The form shape of `{name}`.");
            quote! {
                #[doc = #doc]
                pub(crate) static #ident: Shape = #shape;
            }
        })
        .collect();
    if statics.is_empty() {
        return quote!();
    }
    let runtime = crate_ident(RUNTIME_CRATE);
    quote! {
        /// How the text fields of form bodies (and multipart parts) are
        /// read before validation: numbers, booleans, null, lists and
        /// spread objects.
        mod form {
            use #runtime::form::Shape;

            #(#statics)*
        }
    }
}
