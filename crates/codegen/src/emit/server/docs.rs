//! The server crate's documentation: what the router does, and a complete
//! implementation of the trait that runs as a doctest, so the example cannot
//! go stale.

use super::Service;
use super::responses::response_enum_ident;
use crate::emit::crate_ident;
use crate::emit::features::{ALL, Features};
use crate::model::{ApiModel, Operation, Status};
use crate::naming;

/// `services` are the API's trait and the webhooks' (each where the spec
/// has operations for it); `views` are the operations another serves
/// (their path keys differ by a fragment only).
pub(super) fn crate_docs(
    model: &ApiModel,
    services: &[&Service<'_>],
    views: &[&Operation],
) -> Vec<String> {
    let crate_name = crate_ident(&model.crates.server);
    // The examples implement every method, which exist together only under
    // `all`: a team that enables some tags still runs the crate's doctests.
    // Under `all` they run, so building the router is tested too.
    let (open, close) = if Features::of(model).gated() {
        let gate = format!("# #[cfg(feature = \"{ALL}\")]\n");
        (
            format!("{gate}# fn example() {{\n"),
            format!("# }}\n{gate}# example();\n"),
        )
    } else {
        (String::new(), String::new())
    };
    let mut text = format!(
        "Server of the {title} (version {version}).",
        title = crate::format::spec_text(&model.title),
        version = crate::format::spec_text(&model.version),
    );
    let api = services.iter().find(|service| !service.webhooks);
    if let Some(api) = api {
        let trait_ident = &api.trait_ident;
        let (methods, imports) = example_methods(api);
        text.push_str(&format!(
            "

Implement [`{trait_ident}`] and serve it with [`router`]. The router mounts
every operation under `{base}` ([`BASE_PATH`]; [`RouterOptions::base_path`]
moves it), {authentication} decodes the body by `Content-Type` (JSON, and form-urlencoded where
the spec offers it; 415 otherwise; 413 past the size limit), validates it
against every constraint of the spec (400 naming the field and the rule), and
only then calls your method. Unknown paths under the base path get 404 and
wrong methods 405, all with the API's JSON error body; `axum::Router::merge`
puts the router beside other routes (see [`RouterOptions::fallback`]). Each
method's [`RequestContext`] carries the request's headers and the extensions
the layers in front attached; a [`RouterOptions::middleware`] layer runs once
the operation is chosen, with its [`Served`] (see [`operations`]) among them.

```rust
{open}use {crate_name}::{{{imports}, types}};

struct Service;

impl {trait_ident} for Service {{
{authorize}
{methods}}}

let app: axum::Router = {crate_name}::router(Service);
# let _ = app;
{close}```",
            base = if model.base_path.is_empty() {
                "/"
            } else {
                &model.base_path
            },
            imports = imports.join(", "),
            authorize = EXAMPLE_AUTHORIZE,
            authentication = authentication(model, trait_ident),
        ));
    }
    if let Some(webhooks) = services.iter().find(|service| service.webhooks) {
        let trait_ident = &webhooks.trait_ident;
        let (methods, imports) = example_methods(webhooks);
        let routes: Vec<String> = webhooks
            .operations
            .iter()
            .map(|operation| format!("`{} {}`", operation.method.as_str(), operation.path))
            .collect();
        let introduction = if api.is_some() {
            "The API also sends webhooks, requests to the URL each of its subscribers\n\
             registered."
        } else {
            "The spec describes webhooks only: requests the API sends to the URL each of\n\
             its subscribers registered."
        };
        let checks = if webhooks.authorizes() {
            format!(
                "authenticated with [`{trait_ident}::authorize`] where the webhook has\n\
                 security requirements, decoded and validated"
            )
        } else {
            "decoded and validated".to_string()
        };
        text.push_str(&format!(
            "

{introduction}
A subscriber implements [`{trait_ident}`] and serves it with [`webhooks_router`],
which serves each webhook at `/` and its name: nest it under the registered
URL, where the client crate's `Subscriber` sends them. Each request is
{checks}
as the API's operations are (the same 400, 413 and 415 answers, through
[`{trait_ident}::router_error`]), and each webhook answers with its response
enum. Routes: {routes}.

```rust
{open}use {crate_name}::{{{imports}, types}};

struct Subscriber;

impl {trait_ident} for Subscriber {{
{authorize}{methods}}}

// The webhooks arrive at `https://subscriber.example/hooks/{{name}}`.
let app = axum::Router::new().nest(\"/hooks\", {crate_name}::webhooks_router(Subscriber));
# let _: axum::Router = app;
{close}```",
            routes = routes.join(", "),
            imports = imports.join(", "),
            authorize = if webhooks.authorizes() {
                format!("{EXAMPLE_AUTHORIZE}\n")
            } else {
                String::new()
            },
        ));
    }
    let answering = |keep: &dyn Fn(&Operation) -> bool| -> Option<String> {
        let enums: Vec<String> = model
            .operations
            .iter()
            .chain(&model.webhooks)
            .filter(|operation| keep(operation))
            .map(|operation| format!("[`{}`]", response_enum_ident(operation)))
            .collect();
        (!enums.is_empty()).then(|| enums.join(", "))
    };
    if let Some(enums) = answering(&|operation| operation.default_response.is_some()) {
        text.push_str(&format!(
            "

The spec gives a `default` response to the operations answering {enums}:
their `Default {{ status, .. }}` variant answers, with the `default` body, any
status the operation neither lists nor covers with a range, except a 2xx
when it documents a success. Any other status is answered as 500 instead:
clients decode a listed status with its own type and every 2xx as the
documented success, so the body would be misread."
        ));
    }
    if let Some(enums) = answering(&|operation| {
        operation
            .responses
            .iter()
            .any(|response| matches!(response.status, Status::Range(_)))
    }) {
        text.push_str(&format!(
            "

The spec gives status ranges (such as `4XX`) to the operations answering
{enums}: a range's variant (`Success`, `Redirection`, `ClientError`,
`ServerError`) takes the `status` to answer, any of the range the operation
does not list; another is answered as 500 instead."
        ));
    }
    if let Some(enums) = answering(&|operation| operation.documents_no_response()) {
        text.push_str(&format!(
            "

The operations answering {enums} document no response (OpenAPI 3.1 allows
it): their `Any` variant holds any response the implementation builds."
        ));
    }
    let alternatives: Vec<String> = model
        .operations
        .iter()
        .chain(&model.webhooks)
        .filter(|operation| {
            operation
                .request_body
                .as_ref()
                .is_some_and(|body| body.single().is_none())
        })
        .map(|operation| format!("[`{}`]", super::body_enum_ident(operation)))
        .collect();
    if !alternatives.is_empty() {
        text.push_str(&format!(
            "

Some bodies come in media types with schemas of their own (JSON beside an
upload, say): the method takes an enum ({}) with one variant per kind,
picked by the request's `Content-Type`; JSON and forms are decoded and
validated by their own schema, other media types arrive as their bytes.",
            alternatives.join(", ")
        ));
    }
    if !views.is_empty() {
        let served: Vec<String> = views
            .iter()
            .map(|view| {
                format!(
                    "`{}` (served by `{}`)",
                    view.id,
                    view.served_by.as_deref().unwrap_or_default()
                )
            })
            .collect();
        text.push_str(&format!(
            "

Some operations differ from another only by the fragment of their path key
(such as `/oauth2/token#refresh` beside `/oauth2/token`), which no request
carries, and by nothing in their requests: the other operation serves them.
The client has a method for each; the trait has none of their own: {}.",
            served.join(", ")
        ));
    }
    crate::format::doc_lines(&text)
}

/// The example's `Caller` and `authorize`, which take one token.
const EXAMPLE_AUTHORIZE: &str = "    type Caller = String;

    async fn authorize(&self, request: AuthorizationRequest<'_>) -> Result<String, AuthError> {
        match request.token {
            \"let-me-in\" => Ok(\"developer\".to_string()),
            _ => Err(AuthError::Unauthenticated(\"Invalid token\".to_string())),
        }
    }
";

/// The example's methods, each `todo!()`, and what the example imports.
fn example_methods(service: &Service<'_>) -> (String, Vec<String>) {
    let mut methods = String::new();
    let mut imports = vec![service.trait_ident.to_string()];
    if service.authorizes() {
        imports.extend(["AuthError".into(), "AuthorizationRequest".into()]);
    }
    imports.push("RequestContext".into());
    for operation in service.operations {
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
            if body.single().is_none() {
                imports.push(super::body_enum_ident(operation).to_string());
            }
            let kind = super::body_type(operation, body)
                .to_string()
                .replace(' ', "");
            if kind.contains("stream::") && !imports.iter().any(|import| import == "stream") {
                imports.push("stream".into());
            }
            parameters.push(format!("_body: {kind}"));
        }
        if operation.upgrades() {
            if !imports.iter().any(|import| import == "websocket") {
                imports.push("websocket".into());
            }
            parameters.push("_upgrade: websocket::WebSocketUpgrade".into());
        }
        let parameters = if parameters.is_empty() {
            String::new()
        } else {
            format!(", {}", parameters.join(", "))
        };
        let caller = operation.caller().rust_type("String");
        methods.push_str(&format!(
            "    async fn {method}(&self, _context: RequestContext<{caller}>{parameters}) -> {response} {{\n        \
                     todo!(\"{id}\")\n    }}\n",
            method = naming::method_name(&operation.id),
            id = operation.id,
        ));
        imports.push(response);
    }
    (methods, imports)
}

/// What the router does about credentials, in the crate docs (its lines end
/// where the next clause starts).
fn authentication(model: &ApiModel, trait_ident: &proc_macro2::Ident) -> String {
    if model
        .operations
        .iter()
        .all(|operation| operation.security.is_empty())
    {
        format!(
            "asks for no credentials (the spec\n\
             requires none, so [`{trait_ident}::authorize`] is never called),\n"
        )
    } else if super::router::bearer_only(&model.operations) {
        format!(
            "checks the `Authorization: Bearer` header and\n\
             asks [`{trait_ident}::authorize`] about the token and the scopes the spec\n\
             requires,"
        )
    } else {
        format!(
            "reads the credential the request carries for\n\
             one of the operation's security schemes (a bearer token or another\n\
             `Authorization` scheme, an API key in a header, the query or a cookie), asks\n\
             [`{trait_ident}::authorize`] about it and the scopes the spec requires,\n"
        )
    }
}
