//! Parameters: their Rust types, the struct that carries an operation's
//! query, header and cookie parameters to the trait method, the code that
//! reads them (in their style, with `runtime::params`), and the checks of
//! their schemas.
//!
//! Path parameters are arguments of the trait method, in path order (an
//! operation has few, and they name the resource). Query, header and cookie
//! parameters travel together in one `{Operation}Params` struct, since a list
//! operation may have a dozen of them. An object's type is the types crate's,
//! named after the operation where the spec wrote it in place.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::emit::bake::Bake;
use crate::model::validation::Check;
use crate::model::{In, Operation, Parameter, Scalar, Shape, Style, ValueType};
use crate::naming;

/// The Rust name of a parameter: a trait method argument or a struct field.
pub(super) fn parameter_ident(parameter: &Parameter) -> Ident {
    naming::ident(&naming::field_name(&parameter.code_name))
}

/// The name a path parameter is bound and passed under: its field name, with
/// a `_` where the handler or the trait method has a name of its own
/// (`context`), which the binding would shadow.
pub(super) fn argument_ident(parameter: &Parameter) -> Ident {
    const TAKEN: &[&str] = &[
        "context", "params", "body", "upgrade", "api", "request", "path", "state",
    ];
    let name = parameter_ident(parameter);
    if TAKEN.contains(&name.to_string().as_str()) {
        quote::format_ident!("{name}_")
    } else {
        name
    }
}

/// The parameters passed as arguments: those in the path.
pub(super) fn path_parameters(operation: &Operation) -> impl Iterator<Item = &Parameter> {
    operation
        .parameters
        .iter()
        .filter(|parameter| parameter.location == In::Path)
}

/// The parameters carried by the operation's params struct.
fn other_parameters(operation: &Operation) -> impl Iterator<Item = &Parameter> {
    operation
        .parameters
        .iter()
        .filter(|parameter| parameter.location != In::Path)
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
        Scalar::Json => quote!(runtime::params::Json),
    }
}

/// The type the handler reads the parameter as: required values as they
/// are, optional ones as `Option`, lists as `Vec` (absent is empty).
pub(super) fn rust_type(parameter: &Parameter) -> TokenStream {
    let value = match &parameter.value {
        ValueType::List(scalar) => {
            let item = scalar_type(*scalar);
            return quote!(Vec<#item>);
        }
        ValueType::NamedList(name) => {
            let item = super::schema_type(name);
            return quote!(Vec<#item>);
        }
        ValueType::Scalar(scalar) => scalar_type(*scalar),
        ValueType::Named(name) => super::schema_type(name),
    };
    if parameter.required {
        value
    } else {
        quote!(Option<#value>)
    }
}

/// Whether the handler can take the path parameters with axum's `Path` as
/// plain strings: every parameter is an unconstrained string in the path,
/// in the `simple` style.
pub(super) fn path_strings_only(operation: &Operation) -> bool {
    operation.parameters.iter().all(|parameter| {
        parameter.location == In::Path
            && parameter.shape == Shape::STRING
            && parameter.has_default_style()
            && parameter.check.is_any()
    })
}

/// The struct of an operation's query, header and cookie parameters.
pub(super) fn params_struct(operation: &Operation) -> TokenStream {
    let Some(ident) = params_struct_ident(operation) else {
        return quote!();
    };
    let carried = if other_parameters(operation).any(|parameter| parameter.location == In::Cookie) {
        "query, header and cookie"
    } else {
        "query and header"
    };
    let doc = format!(
        " The {carried} parameters of [`{}`]({}Response), read and checked by the router.",
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
            text.push_str(&crate::format::spec_text(description));
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

/// The parameters with rules of their own, each with its check function
/// for the `validate` module.
pub(super) fn checked_parameters<'a>(
    operations: impl Iterator<Item = &'a Operation>,
) -> Vec<(&'a Operation, &'a Parameter, Ident)> {
    operations
        .flat_map(|operation| {
            operation
                .parameters
                .iter()
                .filter(|parameter| !matches!(parameter.check, Check::Any | Check::Schema(_)))
                .map(move |parameter| (operation, parameter, check_ident(operation, parameter)))
        })
        .collect()
}

/// The statements that read, check and type every parameter of an
/// operation, leaving one binding per path parameter and `params` for the
/// others; they answer 400 with every broken parameter. `None` when the
/// handler takes plain path strings instead.
pub(super) fn read_parameters(operation: &Operation) -> Option<TokenStream> {
    if path_strings_only(operation) {
        return None;
    }
    let wire = quote!(runtime::params);
    let read = |parameter: &Parameter| {
        let shape = parameter.shape.bake(&wire);
        let check = check_argument(operation, parameter);
        // `HeaderMap` looks names up without regard to case.
        let name = &parameter.name;
        if !parameter.has_default_style() {
            let location = parameter.location.bake(&wire);
            let style = parameter.style.bake(&wire);
            let method = if parameter.required {
                format_ident!("required_styled")
            } else {
                format_ident!("styled")
            };
            return quote!(raw.#method(#location, #name, #style, &#shape, #check));
        }
        let method = format_ident!(
            "{}",
            match (parameter.location, parameter.required) {
                (In::Path, _) => "path",
                (In::Query, false) => "query",
                (In::Query, true) => "required_query",
                (In::Header, false) => "header",
                (In::Header, true) => "required_header",
                (In::Cookie, false) => "cookie",
                (In::Cookie, true) => "required_cookie",
            }
        );
        quote!(raw.#method(#name, &#shape, #check))
    };
    // A required object has no `Default` to stand in while a broken
    // request is read to the end: it is read as an `Option`, taken out once
    // `finish` found every parameter well.
    let unwrapped = |parameter: &Parameter| {
        parameter.required && matches!(parameter.value, ValueType::Named(_))
    };
    let binding = |ident: &Ident, parameter: &Parameter| {
        let kind = rust_type(parameter);
        let value = read(parameter);
        if unwrapped(parameter) {
            quote!(let #ident: Option<#kind> = #value;)
        } else {
            quote!(let #ident: #kind = #value;)
        }
    };
    let unwrap = |ident: &Ident, parameter: &Parameter| {
        let location = format_ident!("{}", format!("{:?}", parameter.location));
        let name = &parameter.name;
        unwrapped(parameter).then(|| {
            quote! {
                let Some(#ident) = #ident else {
                    return runtime::params::unread(runtime::params::In::#location, #name);
                };
            }
        })
    };
    let mut bindings: Vec<TokenStream> = Vec::new();
    let mut unwraps: Vec<TokenStream> = Vec::new();
    for parameter in path_parameters(operation) {
        let ident = argument_ident(parameter);
        bindings.push(binding(&ident, parameter));
        unwraps.extend(unwrap(&ident, parameter));
    }
    let mut params = None;
    if let Some(ident) = params_struct_ident(operation) {
        if other_parameters(operation).any(unwrapped) {
            // Read in order into bindings, so that the 400 lists the
            // parameters in the order of the struct.
            let mut fields = Vec::new();
            for parameter in other_parameters(operation) {
                let field = parameter_ident(parameter);
                bindings.push(binding(&field, parameter));
                unwraps.extend(unwrap(&field, parameter));
                fields.push(field);
            }
            unwraps.push(quote!(let params = #ident { #(#fields,)* };));
        } else {
            let fields = other_parameters(operation).map(|parameter| {
                let field = parameter_ident(parameter);
                let value = read(parameter);
                quote!(#field: #value,)
            });
            params = Some(quote!(let params = #ident { #(#fields)* };));
        }
    }
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
    // Lists, objects and the `label` and `matrix` styles are split before
    // they are decoded, which needs the path as it came.
    let raw_path = path_parameters(operation)
        .any(|parameter| {
            !matches!(parameter.style, Style::Simple { .. })
                || !matches!(parameter.shape, Shape::Scalar(_))
        })
        .then(|| {
            let template = &operation.path;
            quote!(.with_raw_path(request.uri().path(), #template))
        });
    Some(quote! {
        #path_source
        let mut raw = runtime::params::Parameters::new(path, request.uri().query(), request.headers())#raw_path;
        #(#bindings)*
        #params
        if let Err(response) = raw.finish() {
            return response;
        }
        #(#unwraps)*
    })
}
