//! Parameters: their Rust types, the struct that carries an operation's query
//! and header parameters to the trait method, the code that reads them, and
//! the checks of their schemas.
//!
//! Path parameters are arguments of the trait method, in path order (an
//! operation has few, and they name the resource). Query and header
//! parameters travel together in one `{Operation}Params` struct, since a list
//! operation may have a dozen of them.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::model::validation::Check;
use crate::model::{Operation, Parameter, ParameterLocation, ParameterShape, Scalar};
use crate::naming;

/// The Rust name of a parameter: a trait method argument or a struct field.
pub(super) fn parameter_ident(parameter: &Parameter) -> Ident {
    naming::ident(&naming::field_name(&parameter.code_name))
}

/// The parameters passed as arguments: those in the path.
pub(super) fn path_parameters(operation: &Operation) -> impl Iterator<Item = &Parameter> {
    operation
        .parameters
        .iter()
        .filter(|parameter| parameter.location == ParameterLocation::Path)
}

/// The parameters carried by the operation's params struct.
fn other_parameters(operation: &Operation) -> impl Iterator<Item = &Parameter> {
    operation
        .parameters
        .iter()
        .filter(|parameter| parameter.location != ParameterLocation::Path)
}

/// `GetClientsParams`, when the operation has query or header parameters.
pub(super) fn params_struct_ident(operation: &Operation) -> Option<Ident> {
    other_parameters(operation)
        .next()
        .map(|_| naming::ident(&naming::operation_type_name(&operation.id, "params")))
}

fn scalar_type(scalar: Scalar) -> TokenStream {
    match scalar {
        Scalar::String => quote!(String),
        Scalar::Integer => quote!(i64),
        Scalar::Number => quote!(f64),
        Scalar::Boolean => quote!(bool),
    }
}

/// The type the handler reads the parameter as: required scalars as they
/// are, optional ones as `Option`, lists as `Vec` (absent is empty).
pub(super) fn rust_type(parameter: &Parameter) -> TokenStream {
    match parameter.shape {
        ParameterShape::List(scalar) => {
            let item = scalar_type(scalar);
            quote!(Vec<#item>)
        }
        ParameterShape::Scalar(scalar) if parameter.required => scalar_type(scalar),
        ParameterShape::Scalar(scalar) => {
            let inner = scalar_type(scalar);
            quote!(Option<#inner>)
        }
    }
}

/// Whether the handler can take the path parameters with axum's `Path` as
/// plain strings: every parameter is an unconstrained string in the path.
pub(super) fn path_strings_only(operation: &Operation) -> bool {
    operation.parameters.iter().all(|parameter| {
        parameter.location == ParameterLocation::Path
            && parameter.shape == ParameterShape::Scalar(Scalar::String)
            && parameter.check.is_any()
    })
}

/// The struct of an operation's query and header parameters.
pub(super) fn params_struct(operation: &Operation) -> TokenStream {
    let Some(ident) = params_struct_ident(operation) else {
        return quote!();
    };
    let doc = format!(
        " The query and header parameters of [`{}`](crate::{}Response), read and checked by the router.",
        operation.id,
        naming::operation_type_name(&operation.id, ""),
    );
    let fields = other_parameters(operation).map(|parameter| {
        let name = parameter_ident(parameter);
        let kind = rust_type(parameter);
        let mut text = format!("`{}` ({}", parameter.name, parameter.location.as_str());
        if parameter.required {
            text.push_str(", required");
        }
        text.push(')');
        if let Some(description) = &parameter.description {
            text.push_str(": ");
            text.push_str(description);
        }
        let docs = crate::format::doc_lines(&text);
        quote! {
            #(#[doc = #docs])*
            pub #name: #kind,
        }
    });
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq)]
        pub struct #ident {
            #(#fields)*
        }
    }
}

/// The validator function of one parameter's own rules.
fn check_ident(operation: &Operation, parameter: &Parameter) -> Ident {
    naming::ident(&naming::method_name(&format!(
        "{}-{}-param",
        operation.id, parameter.code_name
    )))
}

/// The check the handler passes for a parameter, if its schema has rules.
fn check_argument(operation: &Operation, parameter: &Parameter) -> TokenStream {
    match &parameter.check {
        Check::Any => quote!(None),
        Check::Schema(schema) => {
            let ident = super::validate::validator_ident(schema);
            quote!(Some(validate::#ident))
        }
        _ => {
            let ident = check_ident(operation, parameter);
            quote!(Some(validate::#ident))
        }
    }
}

/// The parameters' own check functions, for the `validate` module.
pub(super) fn check_functions(operations: &[Operation]) -> Vec<TokenStream> {
    let mut functions = Vec::new();
    for operation in operations {
        for parameter in &operation.parameters {
            if matches!(parameter.check, Check::Any | Check::Schema(_)) {
                continue;
            }
            let ident = check_ident(operation, parameter);
            let checks = super::validate::render(&parameter.check);
            let doc = format!(
                " Checks the {} parameter `{}` of `{}`.",
                parameter.location.as_str(),
                parameter.name,
                operation.id
            );
            functions.push(quote! {
                #[doc = #doc]
                pub(crate) fn #ident(value: &Value, at: &Location, out: &mut Violations) {
                    #checks
                }
            });
        }
    }
    functions
}

/// The statements that read, check and type every parameter of an
/// operation, leaving one binding per path parameter and `params` for the
/// others; they answer 400 with every broken parameter. `None` when the
/// handler takes plain path strings instead.
pub(super) fn read_parameters(operation: &Operation) -> Option<TokenStream> {
    if path_strings_only(operation) {
        return None;
    }
    let read = |parameter: &Parameter| {
        let method = format_ident!(
            "{}",
            match (parameter.location, parameter.required) {
                (ParameterLocation::Path, _) => "path",
                (ParameterLocation::Query, false) => "query",
                (ParameterLocation::Query, true) => "required_query",
                (ParameterLocation::Header, false) => "header",
                (ParameterLocation::Header, true) => "required_header",
            }
        );
        let shape = match parameter.shape {
            ParameterShape::Scalar(scalar) => {
                let name = format_ident!("{}", format!("{scalar:?}").to_ascii_uppercase());
                quote!(Shape::#name)
            }
            ParameterShape::List(scalar) => {
                let name = format_ident!("{scalar:?}");
                quote!(Shape::List(runtime::params::Scalar::#name))
            }
        };
        let check = check_argument(operation, parameter);
        // `HeaderMap` looks names up without regard to case.
        let name = &parameter.name;
        quote!(raw.#method(#name, #shape, #check))
    };
    let path_bindings = path_parameters(operation).map(|parameter| {
        let ident = parameter_ident(parameter);
        let kind = rust_type(parameter);
        let value = read(parameter);
        quote!(let #ident: #kind = #value;)
    });
    let params = params_struct_ident(operation).map(|ident| {
        let fields = other_parameters(operation).map(|parameter| {
            let field = parameter_ident(parameter);
            let value = read(parameter);
            quote!(#field: #value,)
        });
        quote!(let params = #ident { #(#fields)* };)
    });
    let path_source = if path_parameters(operation).next().is_some() {
        quote! {
            let path = match &path {
                Ok(path) => Some(path),
                Err(rejection) => return runtime::raw_path_rejected(rejection),
            };
        }
    } else {
        quote!(let path = None;)
    };
    Some(quote! {
        #path_source
        use runtime::params::Shape;
        let mut raw = runtime::params::Parameters::new(path, request.uri().query(), request.headers());
        #(#path_bindings)*
        #params
        if let Err(response) = raw.finish() {
            return response;
        }
    })
}
