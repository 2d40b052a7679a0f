//! The shapes of form bodies: where a body offered as
//! `application/x-www-form-urlencoded` has numbers or booleans, a static
//! `runtime::form::Shape` per schema tells the runtime which text fields to
//! read as such (form values are all text). Built from the same `Check`s as
//! validation; schemas with text only get none.

use std::collections::BTreeMap;

use heck::ToShoutySnakeCase;
use proc_macro2::{Ident, TokenStream};
use quote::quote;

use crate::emit::{RUNTIME_CRATE, crate_ident};
use crate::model::validation::{self, Additional, Check, FormScalar};
use crate::model::{ApiModel, FORM};
use crate::naming;

struct Shapes<'a> {
    checks: BTreeMap<&'a str, &'a Check>,
}

impl<'a> Shapes<'a> {
    fn new(model: &'a ApiModel) -> Self {
        Self {
            checks: model
                .validators
                .iter()
                .map(|validator| (validator.schema.as_str(), &validator.check))
                .collect(),
        }
    }

    /// Whether a value passing `check` may hold a number or a boolean.
    fn has_typed_fields(&self, check: &Check) -> bool {
        let validator =
            |name: &str| -> Option<&Check> { self.checks.get(name).map(|check| &**check) };
        validation::has_typed_fields(check, &validator, &mut Vec::new())
    }

    fn schema_has_typed_fields(&self, schema: &str) -> bool {
        self.checks
            .get(schema)
            .is_some_and(|check| self.has_typed_fields(check))
    }

    /// The shape of `check` as an expression; `None` for text only.
    fn shape(&self, check: &Check) -> Option<TokenStream> {
        if !self.has_typed_fields(check) {
            return None;
        }
        match check {
            Check::Number(number) if number.integer => Some(quote!(Shape::Integer)),
            Check::Number(_) => Some(quote!(Shape::Number)),
            Check::Boolean => Some(quote!(Shape::Boolean)),
            Check::Values(values) => value_shape(values),
            Check::Schema(name) => {
                let ident = static_ident(name);
                Some(quote!(#ident))
            }
            Check::Object(object) => {
                let properties = object.properties.iter().filter_map(|(name, check)| {
                    let shape = self.shape(check)?;
                    Some(quote!((#name, &#shape)))
                });
                let other = match &object.additional {
                    Additional::Checked(check) => match self.shape(check) {
                        Some(shape) => quote!(Some(&#shape)),
                        None => quote!(None),
                    },
                    _ => quote!(None),
                };
                Some(quote!(Shape::Object(&[#(#properties),*], #other)))
            }
            Check::Array(array) => {
                let item = self.shape(&array.items)?;
                Some(quote!(Shape::List(&#item)))
            }
            // `allOf`: the parts are read as one object.
            Check::All(checks) => {
                let parts: Vec<TokenStream> = checks
                    .iter()
                    .filter_map(|check| self.shape(check))
                    .collect();
                match parts.len() {
                    1 => parts.into_iter().next(),
                    _ => {
                        let properties = checks
                            .iter()
                            .flat_map(|check| self.object_properties(check));
                        Some(quote!(Shape::Object(&[#(#properties),*], None)))
                    }
                }
            }
            Check::WithMessage { check, .. } | Check::Nullable(check) | Check::IfType(check) => {
                self.shape(check)
            }
            _ => None,
        }
    }

    /// The typed properties of an object check (through `$ref`s), for
    /// merging the parts of an `allOf`.
    fn object_properties(&self, check: &Check) -> Vec<TokenStream> {
        match check {
            Check::Object(object) => object
                .properties
                .iter()
                .filter_map(|(name, check)| {
                    let shape = self.shape(check)?;
                    Some(quote!((#name, &#shape)))
                })
                .collect(),
            Check::Schema(name) => self
                .checks
                .get(name.as_str())
                .map(|check| self.object_properties(check))
                .unwrap_or_default(),
            Check::All(checks) => checks
                .iter()
                .flat_map(|check| self.object_properties(check))
                .collect(),
            Check::WithMessage { check, .. } | Check::Nullable(check) | Check::IfType(check) => {
                self.object_properties(check)
            }
            _ => Vec::new(),
        }
    }
}

/// How a form's text is read for an `enum` of numbers or booleans.
fn value_shape(values: &[serde_json::Value]) -> Option<TokenStream> {
    Some(match validation::values_scalar(values)? {
        FormScalar::Integer => quote!(Shape::Integer),
        FormScalar::Number => quote!(Shape::Number),
        FormScalar::Boolean => quote!(Shape::Boolean),
    })
}

fn static_ident(schema: &str) -> Ident {
    naming::ident(&naming::type_name(schema).to_shouty_snake_case())
}

/// The `form` argument of the body reader for a body with `schema`.
pub(super) fn form_argument(model: &ApiModel, schema: &str, media_types: &[String]) -> TokenStream {
    if media_types.iter().any(|media_type| media_type == FORM)
        && Shapes::new(model).schema_has_typed_fields(schema)
    {
        let ident = static_ident(schema);
        quote!(Some(&form::#ident))
    } else {
        quote!(None)
    }
}

/// The `form` module: one static shape per schema a form body reaches that
/// has numbers or booleans.
pub(super) fn form_module(model: &ApiModel) -> TokenStream {
    let shapes = Shapes::new(model);
    let mut roots: Vec<&str> = model
        .operations
        .iter()
        .chain(&model.webhooks)
        .filter_map(|operation| operation.request_body.as_ref())
        .flat_map(|body| &body.kinds)
        .filter(|kind| kind.media_types.iter().any(|media_type| media_type == FORM))
        .filter_map(|kind| kind.schema.as_deref())
        .collect();
    // Every schema the roots reach, in name order.
    let mut reached: Vec<&str> = Vec::new();
    while let Some(name) = roots.pop() {
        if reached.contains(&name) {
            continue;
        }
        reached.push(name);
        if let Some(check) = shapes.checks.get(name) {
            let mut refs = Vec::new();
            check_refs(check, &mut refs);
            roots.extend(refs.into_iter().filter_map(|name| {
                shapes
                    .checks
                    .get_key_value(name.as_str())
                    .map(|(name, _)| *name)
            }));
        }
    }
    reached.sort_unstable();
    let statics: Vec<TokenStream> = reached
        .into_iter()
        .filter_map(|name| {
            let shape = shapes.shape(shapes.checks.get(name)?)?;
            let ident = static_ident(name);
            let doc = format!(" Where a `{name}` sent as a form has numbers or booleans.");
            Some(quote! {
                #[doc = #doc]
                pub(crate) static #ident: Shape = #shape;
            })
        })
        .collect();
    if statics.is_empty() {
        return quote!();
    }
    let runtime = crate_ident(RUNTIME_CRATE);
    quote! {
        /// The number and boolean fields of form bodies, read from text
        /// before validation.
        mod form {
            use #runtime::form::Shape;

            #(#statics)*
        }
    }
}

fn check_refs(check: &Check, out: &mut Vec<String>) {
    match check {
        Check::Schema(name) => out.push(name.clone()),
        Check::All(checks) => checks.iter().for_each(|check| check_refs(check, out)),
        Check::Object(object) => {
            object
                .properties
                .iter()
                .for_each(|(_, check)| check_refs(check, out));
            if let Additional::Checked(check) = &object.additional {
                check_refs(check, out);
            }
        }
        Check::Array(array) => check_refs(&array.items, out),
        Check::WithMessage { check, .. } | Check::Nullable(check) | Check::IfType(check) => {
            check_refs(check, out)
        }
        _ => {}
    }
}
