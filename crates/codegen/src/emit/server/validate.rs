//! Writes the model's [`Check`]s into the crate's private `validate`
//! module: each schema's (and each parameter's) rules as a static built on
//! first use ([`Bake`]), and one function per schema a request reaches,
//! which hands its rules to the runtime's one reading of them
//! (`openapi_crates_runtime::rules::Check::run`, the mock's too). The
//! functions keep the signature the router and the parameter readers call:
//! `value: &Value` (the runtime's JSON tree, borrowing from the body), `at:
//! &Location` (where in the body the value is) and `out: &mut Violations`.

use std::collections::BTreeSet;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::emit::bake::{Bake, schema_rules};
use crate::emit::{RUNTIME_CRATE, crate_ident};
use crate::model::ApiModel;
use crate::model::validation::Check;
use crate::naming;

/// The validator function of component schema `schema`.
pub(super) fn validator_ident(schema: &str) -> Ident {
    naming::ident(&naming::method_name(&naming::type_name(schema)))
}

/// The static holding the rules of a parameter's check function.
fn rules_ident(function: &Ident) -> Ident {
    let name = function.to_string();
    format_ident!("{}", name.trim_start_matches("r#").to_ascii_uppercase())
}

/// The static `rules` holding `check`, and the function applying it when
/// the router or a parameter reader calls one (`function`); a schema only
/// other rules link to has its static alone.
fn checking_function(
    rules: &Ident,
    function: &Ident,
    doc: &str,
    check: &Check,
    called: bool,
) -> TokenStream {
    let value = check.bake(&quote!(rule));
    let function = called.then(|| {
        quote! {
            #[doc = #doc]
            pub(crate) fn #function(value: &Value, at: &Location, out: &mut Violations) {
                #rules.run(&(), value, at, out);
            }
        }
    });
    quote! {
        static #rules: LazyLock<rule::Check> = LazyLock::new(|| #value);

        #function
    }
}

pub(super) fn validate_module(model: &ApiModel) -> TokenStream {
    let parameters =
        super::params::checked_parameters(model.operations.iter().chain(&model.webhooks));
    if model.validators.is_empty() && parameters.is_empty() {
        return quote!();
    }
    let runtime = crate_ident(RUNTIME_CRATE);
    let operations = || model.operations.iter().chain(&model.webhooks);
    let called: BTreeSet<&str> = operations()
        .filter_map(|operation| operation.request_body.as_ref())
        .flat_map(|body| body.checked_schemas())
        .chain(operations().flat_map(|operation| {
            operation
                .parameters
                .iter()
                .filter_map(|parameter| match &parameter.check {
                    Check::Schema(schema) => Some(schema.as_str()),
                    _ => None,
                })
        }))
        .collect();
    let mut schemas: Vec<(Ident, bool, TokenStream)> = model
        .validators
        .iter()
        .map(|validator| {
            let function = validator_ident(&validator.schema);
            let doc = format!(" Checks a value against the `{}` schema.", validator.schema);
            let called = called.contains(validator.schema.as_str());
            let rules = schema_rules(&validator.schema);
            let tokens = checking_function(&rules, &function, &doc, &validator.check, called);
            (rules, called, tokens)
        })
        .collect();
    let parameters: Vec<TokenStream> = parameters
        .iter()
        .map(|(operation, parameter, function)| {
            let doc = format!(
                " Checks the {} parameter `{}` of `{}`.",
                parameter.location.as_str(),
                parameter.name,
                operation.id
            );
            checking_function(
                &rules_ident(function),
                function,
                &doc,
                &parameter.check,
                true,
            )
        })
        .collect();
    linked_from_somewhere(&mut schemas, &parameters);
    let schemas = schemas.into_iter().map(|(_, _, tokens)| tokens);
    quote! {
        /// Checks of request bodies and parameters against the spec's
        /// schemas: each schema's rules, built on first use, and a function
        /// applying them.
        mod validate {
            use std::sync::LazyLock;

            use #runtime::checks::{Location, Violations};
            use #runtime::json::Value;
            use #runtime::rules as rule;

            #(#schemas)*

            #(#parameters)*
        }
    }
}

/// Keeps the statics of schemas only other rules link to where a kept
/// static or function still names them: a keyword its holder's type
/// ignores (`items` of an object) compiles to no check, and would leave
/// the static it linked to unused.
fn linked_from_somewhere(
    schemas: &mut Vec<(Ident, bool, TokenStream)>,
    parameters: &[TokenStream],
) {
    fn names(tokens: TokenStream, out: &mut std::collections::HashMap<String, usize>) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Ident(ident) => {
                    *out.entry(ident.to_string()).or_default() += 1
                }
                proc_macro2::TokenTree::Group(group) => names(group.stream(), out),
                _ => {}
            }
        }
    }
    loop {
        let mut mentioned = std::collections::HashMap::new();
        for tokens in schemas
            .iter()
            .map(|(_, _, tokens)| tokens)
            .chain(parameters)
        {
            names(tokens.clone(), &mut mentioned);
        }
        let before = schemas.len();
        // Its own definition names it once.
        schemas.retain(|(rules, called, _)| {
            *called || mentioned.get(&rules.to_string()).copied().unwrap_or(0) > 1
        });
        if schemas.len() == before {
            return;
        }
    }
}
