//! The server crate's documentation: what the router does, and a complete
//! implementation of the trait that runs as a doctest, so the example cannot
//! go stale.

use proc_macro2::Ident;

use super::responses::response_enum_ident;
use crate::emit::{SERVER_CRATE, crate_ident};
use crate::model::ApiModel;
use crate::naming;

pub(super) fn crate_docs(model: &ApiModel, trait_ident: &Ident) -> Vec<String> {
    let crate_name = crate_ident(SERVER_CRATE);
    let mut methods = String::new();
    let mut imports = vec![
        trait_ident.to_string(),
        "AuthError".into(),
        "AuthorizationRequest".into(),
        "RequestContext".into(),
    ];
    for operation in &model.operations {
        let response = response_enum_ident(operation).to_string();
        let mut parameters: Vec<String> = super::params::path_parameters(operation)
            .map(|parameter| {
                format!(
                    "_{}: {}",
                    naming::field_name(&parameter.code_name),
                    super::params::rust_type(parameter)
                        .to_string()
                        .replace(' ', "")
                )
            })
            .collect();
        if let Some(params) = super::params::params_struct_ident(operation) {
            parameters.push(format!("_params: {params}"));
            imports.push(params.to_string());
        }
        if let Some(body) = &operation.request_body {
            let kind = match &body.schema {
                Some(schema) => format!("types::{}", naming::type_name(schema)),
                None => "axum::body::Bytes".to_string(),
            };
            parameters.push(if body.required {
                format!("_body: {kind}")
            } else {
                format!("_body: Option<{kind}>")
            });
        }
        let parameters = if parameters.is_empty() {
            String::new()
        } else {
            format!(", {}", parameters.join(", "))
        };
        let caller = if operation.security.is_empty() {
            "()"
        } else {
            "String"
        };
        methods.push_str(&format!(
            "    async fn {method}(&self, _context: RequestContext<{caller}>{parameters}) -> {response} {{\n        \
                     todo!(\"{id}\")\n    }}\n",
            method = naming::method_name(&operation.id),
            id = operation.id,
        ));
        imports.push(response);
    }
    let text = format!(
        "Server of the {title} (version {version}).

Implement [`{trait_ident}`] and serve it with [`router`]. The router mounts
every operation under `{base}`, checks the `Authorization: Bearer` header and
asks [`{trait_ident}::authorize`] about the token and the scopes the spec
requires, decodes the body by `Content-Type` (JSON, and form-urlencoded where
the spec offers it; 415 otherwise; 413 past the size limit), validates it
against every constraint of the spec (400 naming the field and the rule), and
only then calls your method. Unknown paths get 404 and wrong methods 405, all
with the API's JSON error body.

```rust
use {crate_name}::{{{imports}, types}};

struct Service;

impl {trait_ident} for Service {{
    type Caller = String;

    async fn authorize(&self, request: AuthorizationRequest<'_>) -> Result<String, AuthError> {{
        match request.token {{
            \"let-me-in\" => Ok(\"developer\".to_string()),
            _ => Err(AuthError::Unauthenticated(\"Invalid token\".to_string())),
        }}
    }}

{methods}}}

let app: axum::Router = {crate_name}::router(Service);
# let _ = app;
```",
        title = model.title,
        version = model.version,
        base = if model.base_path.is_empty() {
            "/"
        } else {
            &model.base_path
        },
        imports = imports.join(", "),
    );
    let mut text = text;
    let defaults: Vec<String> = model
        .operations
        .iter()
        .filter(|operation| operation.default_response.is_some())
        .map(|operation| format!("[`{}`]", response_enum_ident(operation)))
        .collect();
    if !defaults.is_empty() {
        text.push_str(&format!(
            "

The spec gives a `default` response to the operations answering {}: their
`Default {{ status, .. }}` variant answers any 4xx or 5xx status the operation
does not list, with the `default` body. A listed status, or one that is not an
error, is answered as 500 instead: clients decode a listed status with its
own type and a 2xx as a success, so the body would be misread.",
            defaults.join(", ")
        ));
    }
    crate::format::doc_lines(&text)
}
