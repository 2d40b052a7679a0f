//! Renders the model's request-body [`Check`]s as the crate's private
//! `validate` module: one function per schema a request body reaches. The
//! generated code has `value: &Value` (the runtime's JSON tree, borrowing
//! from the body), `at: &Location` (where in the body the value is, spelled
//! out only when a rule is broken) and `out: &mut Violations` in scope, and
//! calls the rule checks of `tenant_server_runtime::checks`.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::emit::{RUNTIME_CRATE, crate_ident};
use crate::model::ApiModel;
use crate::model::validation::{
    Additional, ArrayCheck, Bound, Check, NumberCheck, ObjectCheck, StringCheck,
};
use crate::naming;

/// The validator function of component schema `schema`.
pub(super) fn validator_ident(schema: &str) -> Ident {
    naming::ident(&naming::method_name(&naming::type_name(schema)))
}

pub(super) fn validate_module(model: &ApiModel) -> TokenStream {
    let parameter_checks = super::params::check_functions(&model.operations);
    if model.validators.is_empty() && parameter_checks.is_empty() {
        return quote!();
    }
    let runtime = crate_ident(RUNTIME_CRATE);
    let functions = model.validators.iter().map(|validator| {
        let ident = validator_ident(&validator.schema);
        let doc = format!(" Checks a value against the `{}` schema.", validator.schema);
        let checks = if validator.check.is_any() {
            quote!(let _ = (value, at, out);)
        } else {
            render(&validator.check)
        };
        quote! {
            #[doc = #doc]
            pub(crate) fn #ident(value: &Value, at: &Location, out: &mut Violations) {
                #checks
            }
        }
    });
    quote! {
        /// Checks of request bodies against the spec's schemas, one function per
        /// schema a request body uses.
        mod validate {
            use #runtime::checks::{self as check, Location, Violations};
            use #runtime::json::Value;

            #(#functions)*

            #(#parameter_checks)*
        }
    }
}

pub(super) fn render(check: &Check) -> TokenStream {
    match check {
        Check::Any => quote!(),
        Check::Schema(name) => {
            let ident = validator_ident(name);
            quote!(#ident(value, at, out);)
        }
        Check::All(checks) => {
            let checks = checks.iter().map(render);
            quote!(#(#checks)*)
        }
        Check::Object(object) => render_object(object),
        Check::Array(array) => render_array(array),
        Check::String(string) => render_string(string),
        Check::Number(number) => render_number(number),
        Check::Boolean => quote!(check::expect_boolean(value, at, out);),
        Check::Discriminated { property, mapping } => {
            let keys = mapping.iter().map(|(key, _)| key);
            let arms = mapping.iter().map(|(key, schema)| {
                let ident = validator_ident(schema);
                quote!(#key => #ident(value, at, out),)
            });
            quote! {
                if let Some(object) = check::expect_object(value, at, out) {
                    match object.get(#property) {
                        Some(Value::String(kind)) => match kind.as_ref() {
                            #(#arms)*
                            other => check::one_of_values(other, &[#(#keys),*], &at.property(#property), out),
                        },
                        _ => check::required_string(object, at, #property, out),
                    }
                }
            }
        }
        Check::Alternatives {
            exactly_one,
            variants,
        } => {
            let attempts = variants.iter().map(|variant| {
                let checks = render(variant);
                quote!({
                    let out = &mut Violations::new();
                    #checks
                    out.is_empty()
                })
            });
            let (broken, expectation) = if *exactly_one {
                (quote!(matched != 1), "exactly one")
            } else {
                (quote!(matched == 0), "at least one")
            };
            quote! {
                let matched = [#(#attempts),*].into_iter().filter(|ok| *ok).count();
                if #broken {
                    check::shape_mismatch(at, #expectation, out);
                }
            }
        }
        Check::WithMessage { check, message } => {
            let checks = render(check);
            quote! {
                let mut broken = Violations::new();
                {
                    let out = &mut broken;
                    #checks
                }
                out.add_with_message(broken, #message);
            }
        }
        // A `match`, not `if !value.is_null() { if let .. }`, which clippy
        // would ask to collapse.
        Check::Nullable(check) => {
            let checks = render(check);
            quote! {
                match value {
                    Value::Null => {}
                    value => { #checks }
                }
            }
        }
    }
}

fn render_object(object: &ObjectCheck) -> TokenStream {
    // One optional property and nothing else to check: nesting its `if let`
    // inside the object's would be a collapsible `if` to clippy.
    if let [(name, property)] = object.properties.as_slice()
        && object.min_properties.is_none()
        && object.max_properties.is_none()
        && object.required.is_empty()
        && matches!(object.additional, Additional::Allowed)
    {
        let inner = render(property);
        return quote! {
            if let Some(object) = check::expect_object(value, at, out)
                && let Some(value) = object.get(#name)
            {
                let at = &at.property(#name);
                #inner
            }
        };
    }
    let mut checks = Vec::new();
    if let Some(min) = object.min_properties {
        checks.push(quote!(check::min_properties(object, #min, at, out);));
    }
    if let Some(max) = object.max_properties {
        checks.push(quote!(check::max_properties(object, #max, at, out);));
    }
    if !object.required.is_empty() {
        let required = &object.required;
        checks.push(quote!(check::required(object, at, &[#(#required),*], out);));
    }
    for (name, property) in &object.properties {
        let inner = render(property);
        checks.push(quote! {
            if let Some(value) = object.get(#name) {
                let at = &at.property(#name);
                #inner
            }
        });
    }
    let known = &object.known;
    match &object.additional {
        Additional::Allowed => {}
        Additional::Forbidden => {
            checks.push(quote!(check::no_other_properties(object, at, &[#(#known),*], out);));
        }
        Additional::Checked(extra) => {
            let inner = render(extra);
            checks.push(quote! {
                for (name, value) in object {
                    if ![#(#known),*].contains(&name) {
                        let at = &at.property(name);
                        #inner
                    }
                }
            });
        }
    }
    if checks.is_empty() {
        quote!(check::expect_object(value, at, out);)
    } else {
        quote! {
            if let Some(object) = check::expect_object(value, at, out) {
                #(#checks)*
            }
        }
    }
}

fn render_array(array: &ArrayCheck) -> TokenStream {
    let mut checks = Vec::new();
    if let Some(min) = array.min_items {
        checks.push(quote!(check::min_items(items, #min, at, out);));
    }
    if let Some(max) = array.max_items {
        checks.push(quote!(check::max_items(items, #max, at, out);));
    }
    if array.contains.as_deref().is_some_and(Check::is_any) {
        // Any item will do: the list must only have one.
        checks.push(quote! {
            if items.is_empty() {
                check::no_item_matches(at, out);
            }
        });
    } else if let Some(contains) = &array.contains {
        let inner = render(contains);
        checks.push(quote! {
            let matched = items.iter().any(|value| {
                let out = &mut Violations::new();
                #inner
                out.is_empty()
            });
            if !matched {
                check::no_item_matches(at, out);
            }
        });
    }
    if !array.items.is_any() {
        let inner = render(&array.items);
        checks.push(quote! {
            for (position, value) in items.iter().enumerate() {
                let at = &at.item(position);
                #inner
            }
        });
    }
    if checks.is_empty() {
        quote!(check::expect_array(value, at, out);)
    } else {
        quote! {
            if let Some(items) = check::expect_array(value, at, out) {
                #(#checks)*
            }
        }
    }
}

fn render_string(string: &StringCheck) -> TokenStream {
    let mut checks = Vec::new();
    if let Some(allowed) = &string.allowed {
        checks.push(quote!(check::one_of_values(text, &[#(#allowed),*], at, out);));
    }
    if let Some(min) = string.min_length {
        checks.push(quote!(check::min_length(text, #min, at, out);));
    }
    if let Some(max) = string.max_length {
        checks.push(quote!(check::max_length(text, #max, at, out);));
    }
    if let Some(format) = &string.format {
        checks.push(quote!(check::format(text, #format, at, out);));
    }
    if let Some(pattern) = &string.pattern {
        let compile = match crate::model::pattern::to_regex(pattern) {
            Some(translated) => quote!(check::Pattern::translated(#pattern, #translated)),
            None => quote!(check::Pattern::new(#pattern)),
        };
        checks.push(quote! {
            {
                static PATTERN: ::std::sync::LazyLock<check::Pattern> =
                    ::std::sync::LazyLock::new(|| #compile);
                check::pattern(text, &PATTERN, at, out);
            }
        });
    }
    if checks.is_empty() {
        quote!(check::expect_string(value, at, out);)
    } else {
        quote! {
            if let Some(text) = check::expect_string(value, at, out) {
                #(#checks)*
            }
        }
    }
}

fn render_number(number: &NumberCheck) -> TokenStream {
    let expect = if number.integer {
        quote!(expect_integer)
    } else {
        quote!(expect_number)
    };
    let bound = |bound: &Option<Bound>, inclusive: &str, exclusive: &str| {
        bound.map(
            |Bound {
                 value,
                 exclusive: strict,
             }| {
                let check = format_ident!("{}", if strict { exclusive } else { inclusive });
                quote!(check::#check(number, #value, at, out);)
            },
        )
    };
    let checks: Vec<TokenStream> = [
        bound(&number.minimum, "minimum", "exclusive_minimum"),
        bound(&number.maximum, "maximum", "exclusive_maximum"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if checks.is_empty() {
        quote!(check::#expect(value, at, out);)
    } else {
        quote! {
            if let Some(number) = check::#expect(value, at, out) {
                #(#checks)*
            }
        }
    }
}
