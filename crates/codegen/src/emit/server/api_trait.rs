//! The trait a server implements: `authorize`, then one method per operation.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::responses::response_enum_ident;
use crate::model::{ApiModel, Operation};
use crate::naming;

pub(super) fn api_trait(model: &ApiModel, trait_ident: &Ident) -> TokenStream {
    let docs = crate::format::doc_lines(&format!(
        "The {} as a trait: implement it and serve it with [`router`].\n\n\
         Every request is authenticated with [`{trait_ident}::authorize`], decoded and \
         validated against the spec before the operation's method is called.\n\n\
         Every operation has a default body answering 501 Not Implemented with the \
         API's error body (the `Unimplemented` variant of its response), so an \
         operation added to the spec does not break an implementation built before \
         it. Override each operation the server serves.",
        model.title
    ));
    let methods = model.operations.iter().map(trait_method);
    quote! {
        #(#[doc = #docs])*
        pub trait #trait_ident: Send + Sync + 'static {
            /// The verified identity [`Self::authorize`] returns; each operation gets it
            /// in its [`RequestContext`].
            type Caller: Send + Sync + 'static;

            /// Verifies the bearer token and decides whether it may call the
            /// operation, which requires `request.required_scopes`. Called before
            /// the body is read; a refusal becomes a 401 or 403 error response.
            fn authorize(
                &self,
                request: AuthorizationRequest<'_>,
            ) -> impl Future<Output = Result<Self::Caller, AuthError>> + Send;

            #(#methods)*
        }
    }
}

fn trait_method(operation: &Operation) -> TokenStream {
    let method = naming::ident(&naming::method_name(&operation.id));
    let response = response_enum_ident(operation);
    let mut text = String::new();
    for part in [&operation.summary, &operation.description]
        .into_iter()
        .flatten()
    {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(part);
    }
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(&format!(
        "`{} {}`",
        operation.method.as_str(),
        operation.path
    ));
    let docs = crate::format::doc_lines(&text);
    let mut parameters: Vec<TokenStream> = super::params::path_parameters(operation)
        .map(|parameter| {
            let name = super::params::parameter_ident(parameter);
            let kind = super::params::rust_type(parameter);
            quote!(#name: #kind,)
        })
        .collect();
    let params_struct = super::params::params_struct_ident(operation);
    if let Some(params) = &params_struct {
        parameters.push(quote!(params: #params,));
    }
    let body = operation.request_body.as_ref().map(|body| {
        let kind = super::body_type(body);
        quote!(body: #kind,)
    });
    // Public operations (no security requirement) have no caller to verify.
    let caller = if operation.security.is_empty() {
        quote!(())
    } else {
        quote!(Self::Caller)
    };
    let mut unused: Vec<TokenStream> = vec![quote!(context)];
    unused.extend(super::params::path_parameters(operation).map(|parameter| {
        let name = super::params::parameter_ident(parameter);
        quote!(#name)
    }));
    if params_struct.is_some() {
        unused.push(quote!(params));
    }
    if operation.request_body.is_some() {
        unused.push(quote!(body));
    }
    let unused = if unused.len() == 1 {
        quote!(let _ = context;)
    } else {
        quote!(let _ = (#(#unused),*);)
    };
    let operation_id = &operation.id;
    quote! {
        #(#[doc = #docs])*
        fn #method(
            &self,
            context: RequestContext<#caller>,
            #(#parameters)*
            #body
        ) -> impl Future<Output = #response> + Send {
            #unused
            std::future::ready(#response::Unimplemented(runtime::ErrorBody::not_implemented(
                #operation_id,
            )))
        }
    }
}
