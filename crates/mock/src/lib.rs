//! A mock server of any API description the generator accepts, for teams
//! that test their code against the API before (or without) a server.
//!
//! `cargo xtask mock --spec FILE --listen ADDR [--seed N]` serves it
//! ([`cli::mock`]); tests may start one in-process with [`Mock::load`] and
//! [`Mock::router`].
//!
//! It reads the spec as the generator does (`load`, `prepare_document`,
//! `build_model`) and serves the generator's [`ApiModel`] as it is,
//! interpreting it per request instead of compiling an implementation of the
//! generated trait: compiling the server crate of the platform's 452
//! operations takes minutes, reading its model seconds. Requests go through
//! the steps of a generated handler, in its order, with the server
//! runtime's own functions: the credential (401 without one; any
//! well-formed credential is accepted), every parameter read in its style
//! and checked ([`openapi_crates_runtime::params`]), the body read, decoded
//! and checked; the model's validation [`Check`] trees are applied by the
//! runtime's `rules::Check::run`, which the generated validators call on the
//! same trees, so a broken request gets the same 400 with the same
//! `errors[]`.
//! Errors the router answers itself take the shape the generated router
//! gives them by default ([`ApiModel::error_shape`]).
//!
//! A valid request gets the first documented 2xx (a `Prefer: code=N` header,
//! Prism's convention, picks another documented status; `Prefer:
//! example=NAME` a named example), with the spec's example of that response
//! where it has one and passes the response schema's checks, else a value
//! synthesized from the schema (`synthesize`), deterministic for the seed.
//! Every JSON body the mock sends passes the schema's checks (the request
//! rules, applied to the response) unless no candidate did, which a
//! response header says (`x-mock-warning`). A streamed response (events,
//! JSON Lines) sends such an item `Prefer: items=N` times (3 by default),
//! `Prefer: interval=MS` apart; one offered beside JSON is streamed to a
//! request whose `Accept` names the stream's media type. An operation
//! answering `101 Switching Protocols` upgrades the connection (unless
//! `Prefer: code=N` picks another status) and echoes each message.

// The error of a request step is the response refusing it, as in the
// server runtime: built once and returned straight to axum, never stored.
#![allow(clippy::result_large_err)]

mod checks;
mod form;
mod respond;
mod scopes;
mod synthesize;

pub mod cli;

use std::collections::BTreeMap;
use std::path::Path;

use axum::extract::{FromRequestParts, RawPathParams, Request};
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodFilter;
use openapi_crates_codegen::model::validation::{Check, Validator};
use openapi_crates_codegen::model::{
    ApiModel, BodyKind, Caller, Credential, ErrorShape, In, Method, Operation, Parameter, Shape,
};
use openapi_crates_codegen::{Diagnostic, Diagnostics};
use openapi_crates_runtime::checks::{Location, Violations};
use openapi_crates_runtime::json::Value;
use openapi_crates_runtime::params::{self as runtime_params, RuleCheck};
use openapi_crates_runtime::{
    CredentialIn, PartRules, RouterError, RouterErrorLayer, RouterOptions, SecurityScheme,
    Validate, bearer_token,
};

use checks::Checks;

/// What the command line may say beyond the spec.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// The seed of synthesized values: the same seed, the same responses.
    pub seed: u64,
    /// Whether a bearer token must hold one of the scopes an operation
    /// lists (read, unverified, from the claims of a JWT: `scope`, or a
    /// `scp` or `permissions` list); by default any well-formed token is
    /// accepted.
    pub check_scopes: bool,
}

/// A mock of one API description, ready to serve.
#[derive(Clone, Copy)]
pub struct Mock {
    state: &'static State,
}

/// The spec as the mock reads it: the generator's model, and the prepared
/// document its examples and response schemas are read from.
struct Spec {
    /// The spec's path as the command line gave it, for messages.
    path: std::path::PathBuf,
    model: ApiModel,
    document: serde_json::Value,
    /// The request bodies' validators (the model's) and those of every
    /// schema a JSON response uses.
    validators: Vec<Validator>,
}

struct State {
    spec: &'static Spec,
    checks: Checks,
    forms: form::Forms,
    /// The rules of each multipart body with a schema, by its name, as the
    /// generated server passes them to `runtime::read_multipart`.
    part_rules: BTreeMap<&'static str, PartRules>,
    derived: synthesize::Derived,
    plans: Vec<Plan>,
    seed: u64,
    check_scopes: bool,
    /// The JSON bodies made for responses, by operation (its pointer),
    /// status and media type: the same for a seed whatever came before
    /// (see `respond::json_body`), so each is made once.
    bodies: respond::Bodies,
    /// The generator's warnings about the description: a response whose
    /// schema one concerns says so (`respond::read_otherwise`).
    warnings: Diagnostics,
}

/// How one served operation's requests are read: what a generated handler
/// is compiled to.
struct Plan {
    operation: &'static Operation,
    /// Read (and checked) in the handler's order: path parameters, then the
    /// others; empty when every parameter is an unchecked path string.
    parameters: Vec<ParameterPlan>,
    /// Whether path parameters are split before they are decoded.
    raw_path: bool,
    has_path_parameters: bool,
    security: Security,
    /// The scopes checked when the mock checks scopes.
    required_scopes: Vec<String>,
}

struct ParameterPlan {
    /// Its location, style and shape, as the model lowered them.
    parameter: &'static Parameter,
    check: Option<&'static Check>,
}

enum Security {
    Public,
    /// Every scheme of the API takes a bearer token: only that is read.
    Bearer,
    /// The operation's schemes, in the spec's order, and its requirements
    /// (the names of the schemes each needs) where one needs several.
    Schemes(
        &'static [SecurityScheme],
        Option<&'static [&'static [&'static str]]>,
    ),
}

impl Mock {
    /// Reads the spec at `spec` (relative to `root` unless absolute) as the
    /// generator reads it, or gives every problem it has, located.
    pub fn load(root: &Path, spec: &Path, options: Options) -> Result<Mock, Diagnostics> {
        openapi_crates_codegen::on_deep_stack(|| Self::load_here(root, spec, options))
    }

    fn load_here(root: &Path, spec: &Path, options: Options) -> Result<Mock, Diagnostics> {
        let mut loaded = openapi_crates_codegen::load::load_spec(root, spec)?;
        openapi_crates_codegen::prepare_document(&mut loaded);
        let mut model = openapi_crates_codegen::contain::build_model(&mut loaded)?;
        // The typed document is the progenitor emitters'; the mock reads the
        // raw one.
        model.openapi = Default::default();
        let mut validators = model.validators.clone();
        let mut response_schemas: Vec<String> = model
            .operations
            .iter()
            .flat_map(|operation| {
                operation
                    .responses
                    .iter()
                    .chain(&operation.default_response)
            })
            .flat_map(|response| {
                let item = response
                    .stream
                    .as_ref()
                    .and_then(|stream| match &stream.item {
                        openapi_crates_codegen::model::ItemType::Named(schema) => {
                            Some(schema.clone())
                        }
                        _ => None,
                    });
                response.schema.clone().into_iter().chain(item)
            })
            .collect();
        // The JSON schemas of bodies passed as bytes that offer JSON too,
        // which the mock answers with.
        for operation in &model.operations {
            for response in operation
                .responses
                .iter()
                .chain(&operation.default_response)
            {
                if let Some((_, schema)) = respond::raw_json(&loaded.document, operation, response)
                {
                    response_schemas.push(schema.to_string());
                }
            }
        }
        response_schemas.retain(|name| !validators.iter().any(|known| known.schema == *name));
        response_schemas.sort_unstable();
        response_schemas.dedup();
        // A schema only responses use is compiled here, not by the model: a
        // flaw in it is contained as the model's are (read as any value).
        let mut contained = Default::default();
        let compiled = loop {
            match openapi_crates_codegen::model::validation::compile_schemas(
                &loaded,
                response_schemas.clone(),
            ) {
                Ok(compiled) => break compiled,
                Err(problem) => {
                    if !openapi_crates_codegen::contain::contain(
                        &mut loaded,
                        &problem,
                        &mut contained,
                    ) {
                        return Err(problem.into());
                    }
                }
            }
        };
        for validator in compiled {
            if !validators
                .iter()
                .any(|known| known.schema == validator.schema)
            {
                validators.push(validator);
            }
        }
        // The runtime finds a schema's rules by name in the sorted list.
        validators.sort_unstable_by(|a, b| a.schema.cmp(&b.schema));
        // A mock serves one description for the life of its process, as a
        // generated server's statics live for its: the runtime's `'static`
        // tables (security schemes, parameter shapes, patterns) are built
        // from this one copy, made once.
        let spec: &'static Spec = Box::leak(Box::new(Spec {
            path: spec.to_path_buf(),
            model,
            document: loaded.document,
            validators,
        }));
        let served: Vec<&'static Operation> = spec
            .model
            .operations
            .iter()
            .filter(|operation| operation.served_by.is_none())
            .collect();
        // As `emit::server::router::bearer_only`.
        let bearer_only = served
            .iter()
            .flat_map(|operation| &operation.security)
            .all(|requirement| requirement.credential == Credential::Bearer)
            && !served
                .iter()
                .any(|operation| operation.needs_schemes_together());
        let plans = served
            .iter()
            .map(|operation| plan(operation, bearer_only))
            .collect();
        let forms = form::Forms::new(&spec.model.form_shapes);
        let part_rules = part_rules(&served, spec, &forms);
        let state = Box::leak(Box::new(State {
            spec,
            checks: Checks::new(&spec.validators),
            forms,
            part_rules,
            derived: synthesize::Derived::default(),
            plans,
            seed: options.seed,
            check_scopes: options.check_scopes,
            bodies: respond::Bodies::default(),
            warnings: loaded.warnings.take(),
        }));
        Ok(Mock { state })
    }

    /// What the generator read otherwise than written, as `codegen`
    /// warns of it: the mock serves the same reading.
    pub fn warnings(&self) -> &Diagnostics {
        &self.state.warnings
    }

    /// The API's title.
    pub fn title(&self) -> &str {
        &self.state.spec.model.title
    }

    /// How many operations it serves.
    pub fn operations(&self) -> usize {
        self.state.plans.len()
    }

    /// The path every route is under (the first server URL's), e.g. `/api/v2`.
    pub fn base_path(&self) -> &str {
        &self.state.spec.model.base_path
    }

    /// The options the spec's generated router takes by default: the
    /// runtime's, with the body limit the spec's strings need
    /// (`ApiModel::body_limit`).
    pub fn router_options(&self) -> RouterOptions {
        match self.state.spec.model.body_limit() {
            Some(body_limit) => RouterOptions {
                body_limit,
                ..RouterOptions::default()
            },
            None => RouterOptions::default(),
        }
    }

    /// Every documented JSON response of every operation whose body the
    /// mock cannot make pass its schema's checks, as `operationId status:
    /// the first rule it breaks` (such a response is sent with an
    /// `x-mock-warning` header). Empty when every response the mock can
    /// send is valid.
    pub fn responses_breaking_their_schemas(&self) -> Vec<String> {
        let state = self.state;
        let mut broken = Vec::new();
        for plan in &state.plans {
            let operation = plan.operation;
            for response in operation
                .responses
                .iter()
                .chain(&operation.default_response)
            {
                if let Some(problem) = respond::check_response(state, operation, response) {
                    broken.push(format!("{} {}: {problem}", operation.id, response.status));
                }
            }
        }
        broken
    }

    /// The responses the mock streams, item by item: `{operationId}
    /// {status}: {media type}`, in document order.
    pub fn streamed_responses(&self) -> Vec<String> {
        let mut streamed = Vec::new();
        for plan in &self.state.plans {
            let operation = plan.operation;
            for response in operation
                .responses
                .iter()
                .chain(&operation.default_response)
            {
                if let Some(stream) = &response.stream {
                    streamed.push(format!(
                        "{} {}: {}",
                        operation.id, response.status, stream.media_type
                    ));
                }
            }
        }
        streamed
    }

    /// The router serving every operation at its path under the server
    /// URL's (or `options.base_path`), mounted as the generated router is
    /// (`openapi_crates_runtime::mount`): its answers to unknown paths
    /// (404), methods (405) and bodies past `options.body_limit` (413).
    pub fn router(&self, options: RouterOptions) -> Result<axum::Router, Diagnostic> {
        let state = self.state;
        let mut paths: Vec<&str> = Vec::new();
        for plan in &state.plans {
            if !paths.contains(&plan.operation.path.as_str()) {
                paths.push(&plan.operation.path);
            }
        }
        // The routes for `mount`, each tried first beside the others.
        let mut routes = Vec::new();
        let mut known = axum::Router::new().without_v07_checks();
        for path in paths {
            let full = openapi_crates_codegen::model::route_path(path);
            let on_path: Vec<&'static Plan> = state
                .plans
                .iter()
                .filter(|plan| plan.operation.path == path)
                .collect();
            let mut methods: Vec<Method> = Vec::new();
            for plan in &on_path {
                if !methods.contains(&plan.operation.method) {
                    methods.push(plan.operation.method);
                }
            }
            let mut routing: Option<axum::routing::MethodRouter> = None;
            for method in methods {
                let mut plans: Vec<&'static Plan> = on_path
                    .iter()
                    .copied()
                    .filter(|plan| plan.operation.method == method)
                    .collect();
                plans.sort_by_key(|plan| {
                    std::cmp::Reverse(plan.operation.fixed_query_pairs().len())
                });
                // The router's own errors of these operations, in their
                // documented error body (the first operation's, where a
                // fixed query tells several apart).
                let operation = plans[0].operation;
                let handler = move |request: Request| async move {
                    match dispatch(&plans, &request) {
                        Some(plan) => {
                            let mut response = state.handle(plan, request).await;
                            if let Ok(pointer) = HeaderValue::from_str(&plan.operation.pointer) {
                                response
                                    .headers_mut()
                                    .insert(HeaderName::from_static(respond::OPERATION), pointer);
                            }
                            response
                        }
                        None => openapi_crates_runtime::not_found().await,
                    }
                };
                let one =
                    axum::routing::on(method_filter(method), handler).layer(RouterErrorLayer::new(
                        move |error: RouterError| respond::router_error(state, operation, error),
                    ));
                routing = Some(match routing {
                    None => one,
                    Some(routing) => routing.merge(one),
                });
            }
            let Some(routing) = routing else { continue };
            // axum refuses a route it cannot tell from another; the
            // generated router has the same routes, so a spec the generator
            // accepts does not reach this, but the mock says so rather
            // than panic.
            let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                known.clone().route(&full, routing.clone())
            }));
            known = attempt.map_err(|_| {
                Diagnostic::new(
                    &state.spec.path,
                    format!("the mock cannot route `{full}` beside the other paths"),
                )
            })?;
            routes.push((full, routing));
        }
        let shape = state.spec.model.error_shape;
        let base_path = openapi_crates_codegen::model::route_path(&state.spec.model.base_path);
        Ok(openapi_crates_runtime::mount(
            routes,
            (),
            &options,
            &base_path,
            move |error: RouterError| match shape {
                ErrorShape::Platform => error.into_platform_response(),
                ErrorShape::Problem => error.into_problem_response(),
            },
        ))
    }
}

/// The operation of `plans` (one path and method, most fixed query pairs
/// first) a request is for, as the generated dispatcher picks it.
fn dispatch(plans: &[&'static Plan], request: &Request) -> Option<&'static Plan> {
    let query = request.uri().query();
    let headers = request.headers();
    let last = plans.len() - 1;
    for (index, plan) in plans.iter().enumerate() {
        let operation = plan.operation;
        let mut fits = operation.fixed_query.is_empty()
            || openapi_crates_runtime::query_has(query, &operation.fixed_query);
        let siblings = plans
            .iter()
            .filter(|other| other.operation.fixed_query_pairs() == operation.fixed_query_pairs())
            .count();
        if siblings > 1 {
            fits &= match &operation.request_body {
                None => openapi_crates_runtime::has_no_body(headers),
                Some(body) => {
                    let media_types: Vec<&str> = body
                        .kinds
                        .iter()
                        .flat_map(|kind| &kind.media_types)
                        .map(String::as_str)
                        .collect();
                    openapi_crates_runtime::has_content_type(headers, &media_types)
                        || !body.required && openapi_crates_runtime::has_no_body(headers)
                }
            };
        }
        if index == last && operation.fixed_query.is_empty() {
            return Some(plan);
        }
        if fits {
            return Some(plan);
        }
    }
    None
}

fn method_filter(method: Method) -> MethodFilter {
    match method {
        Method::Get => MethodFilter::GET,
        Method::Put => MethodFilter::PUT,
        Method::Post => MethodFilter::POST,
        Method::Delete => MethodFilter::DELETE,
        Method::Options => MethodFilter::OPTIONS,
        Method::Head => MethodFilter::HEAD,
        Method::Patch => MethodFilter::PATCH,
        Method::Trace => MethodFilter::TRACE,
    }
}

/// The plan of a generated handler for `operation` (`emit::server::router`
/// and `emit::server::params` say what each part is compiled to).
fn plan(operation: &'static Operation, bearer_only: bool) -> Plan {
    let path_strings_only = operation.parameters.iter().all(|parameter| {
        parameter.location == In::Path
            && parameter.shape == Shape::STRING
            && parameter.has_default_style()
            && parameter.check.is_any()
    });
    let in_order = operation
        .parameters
        .iter()
        .filter(|parameter| parameter.location == In::Path)
        .chain(
            operation
                .parameters
                .iter()
                .filter(|parameter| parameter.location != In::Path),
        );
    let parameters = if path_strings_only {
        Vec::new()
    } else {
        in_order
            .map(|parameter| ParameterPlan {
                parameter,
                check: (!parameter.check.is_any()).then_some(&parameter.check),
            })
            .collect()
    };
    let path_parameters = || {
        operation
            .parameters
            .iter()
            .filter(|parameter| parameter.location == In::Path)
    };
    let raw_path = path_parameters().any(|parameter| {
        !matches!(
            parameter.style,
            openapi_crates_runtime::wire::Style::Simple { .. }
        ) || !matches!(parameter.shape, Shape::Scalar(_))
    });
    let security = if operation.security.is_empty() {
        Security::Public
    } else if bearer_only {
        Security::Bearer
    } else {
        let together = operation.needs_schemes_together().then(|| {
            let requirements: Vec<&'static [&'static str]> = operation
                .requirements()
                .into_iter()
                .map(|requirement| {
                    let names: Vec<&'static str> = requirement
                        .iter()
                        .map(|scheme| scheme.scheme.as_str())
                        .collect();
                    &*Box::leak(names.into_boxed_slice())
                })
                .collect();
            &*Box::leak(requirements.into_boxed_slice())
        });
        Security::Schemes(security_schemes(operation), together)
    };
    Plan {
        operation,
        parameters,
        raw_path,
        has_path_parameters: path_parameters().next().is_some(),
        security,
        required_scopes: operation.required_scopes(),
    }
}

/// `emit::server::router::security_schemes`, as a value made once.
fn security_schemes(operation: &'static Operation) -> &'static [SecurityScheme] {
    let mut schemes: Vec<(&'static str, &'static Credential, Vec<&'static str>)> = Vec::new();
    for requirement in &operation.security {
        let scopes = requirement.scopes.iter().map(String::as_str);
        match schemes
            .iter_mut()
            .find(|(name, ..)| *name == requirement.scheme)
        {
            Some((.., known)) => {
                for scope in scopes {
                    if !known.contains(&scope) {
                        known.push(scope);
                    }
                }
            }
            None => schemes.push((
                &requirement.scheme,
                &requirement.credential,
                scopes.collect(),
            )),
        }
    }
    let schemes: Vec<SecurityScheme> = schemes
        .into_iter()
        .map(|(name, credential, scopes)| SecurityScheme {
            name,
            credential: match credential {
                Credential::Bearer => CredentialIn::Bearer,
                Credential::Http(scheme) => CredentialIn::Http(scheme),
                Credential::Header(header) => CredentialIn::Header(header),
                Credential::Query(parameter) => CredentialIn::Query(parameter),
                Credential::Cookie(cookie) => CredentialIn::Cookie(cookie),
            },
            scopes: Box::leak(scopes.into_boxed_slice()),
        })
        .collect();
    Box::leak(schemes.into_boxed_slice())
}

/// `check` as the function the runtime's parameter readers take.
fn rule(
    checks: &'static Checks,
    check: &'static Check,
) -> impl Fn(&Value<'_>, &Location<'_>, &mut Violations) + Sync {
    move |value, at, out| checks.run(check, value, at, out)
}

impl State {
    /// A generated handler's steps: path, credential, parameters, body;
    /// then the mock's answer.
    async fn handle(&'static self, plan: &'static Plan, request: Request) -> Response {
        let operation = plan.operation;
        let (mut parts, body) = request.into_parts();
        let path = RawPathParams::from_request_parts(&mut parts, &()).await;
        if plan.has_path_parameters
            && let Err(rejection) = &path
        {
            return openapi_crates_runtime::raw_path_rejected(rejection);
        }
        // An operation that may also be called without credentials
        // authenticates only a request carrying some.
        let anonymous = operation.caller() == Caller::Optional
            && match plan.security {
                Security::Public => true,
                Security::Bearer => !parts
                    .headers
                    .contains_key(axum::http::header::AUTHORIZATION),
                Security::Schemes(schemes, _) => !openapi_crates_runtime::carries_credential(
                    &parts.headers,
                    parts.uri.query(),
                    schemes,
                ),
            };
        let token = match plan.security {
            _ if anonymous => None,
            Security::Public => None,
            Security::Bearer => match bearer_token(&parts.headers) {
                Ok(token) => Some(token),
                Err(response) => return response,
            },
            Security::Schemes(schemes, together) => {
                let (headers, query) = (&parts.headers, parts.uri.query());
                let found = match together {
                    Some(requirements) => openapi_crates_runtime::Credential::find_together(
                        headers,
                        query,
                        schemes,
                        requirements,
                    )
                    .map(drop),
                    None => {
                        openapi_crates_runtime::Credential::find(headers, query, schemes).map(drop)
                    }
                };
                if let Err(response) = found {
                    return response;
                }
                // Scopes travel in bearer tokens only.
                parts
                    .headers
                    .get(axum::http::header::AUTHORIZATION)
                    .and_then(|value| value.to_str().ok())
                    .and_then(openapi_crates_runtime::parse_bearer)
            }
        };
        if self.check_scopes
            && !anonymous
            && let Err(refusal) = scopes::check(&plan.required_scopes, token)
        {
            return refusal.into_response();
        }
        if !plan.parameters.is_empty() {
            let mut raw = runtime_params::Parameters::new(
                path.as_ref().ok(),
                parts.uri.query(),
                &parts.headers,
            );
            if plan.raw_path {
                raw = raw.with_raw_path(parts.uri.path(), &operation.path);
            }
            for ParameterPlan { parameter, check } in &plan.parameters {
                let run = check.map(|check| rule(&self.checks, check));
                let check: Option<RuleCheck<'_>> = run.as_ref().map(|run| run as RuleCheck<'_>);
                raw.json(
                    parameter.location,
                    &parameter.name,
                    parameter.style,
                    &parameter.shape,
                    parameter.required,
                    check,
                );
            }
            if let Err(response) = raw.finish() {
                return response;
            }
        }
        // An operation that upgrades answers its 101 unless `Prefer` names
        // another status: the connection becomes a WebSocket echoing each
        // message.
        if operation.upgrades() && !respond::prefers_a_code(&parts.headers) {
            use openapi_crates_runtime::websocket::server::{WebSocketUpgrade, upgrade_rejected};
            return match WebSocketUpgrade::from_request_parts(&mut parts, &()).await {
                Ok(upgrade) => upgrade.on_upgrade(respond::echo),
                Err(rejection) => upgrade_rejected(rejection),
            };
        }
        let request = Request::from_parts(parts, body);
        let headers = match &operation.request_body {
            None => request.into_parts().0.headers,
            Some(body) => {
                if !body.required && openapi_crates_runtime::has_no_body(request.headers()) {
                    request.into_parts().0.headers
                } else {
                    let kind = match body.single() {
                        Some(kind) => kind,
                        None => {
                            let kinds: Vec<Vec<&str>> = body
                                .kinds
                                .iter()
                                .map(|kind| kind.media_types.iter().map(String::as_str).collect())
                                .collect();
                            let kinds: Vec<&[&str]> = kinds.iter().map(Vec::as_slice).collect();
                            match openapi_crates_runtime::body_kind(request.headers(), &kinds) {
                                Ok(index) => &body.kinds[index],
                                Err(response) => return response,
                            }
                        }
                    };
                    match self.read_body(kind, request).await {
                        Ok(headers) => headers,
                        Err(response) => return response,
                    }
                }
            }
        };
        respond::respond(self, operation, &headers)
    }

    /// `runtime::read_body` (or `read_raw_body`, `read_streamed_body`,
    /// `read_multipart`) of one kind of body, with the model's checks
    /// interpreted; the value is not kept.
    async fn read_body(
        &'static self,
        kind: &'static BodyKind,
        request: Request,
    ) -> Result<HeaderMap, Response> {
        let accepted: Vec<&str> = kind.media_types.iter().map(String::as_str).collect();
        if kind.streamed() {
            // Read as the generated server reads it: as it arrives, under
            // the spec's limit, and let go.
            use futures_util::StreamExt;
            let mut request = request;
            let limit = kind
                .max_bytes
                .unwrap_or(openapi_crates_runtime::STREAMED_BODY_LIMIT);
            request
                .extensions_mut()
                .insert(openapi_crates_runtime::StreamedBodyLimit(limit));
            let (head, mut body) =
                openapi_crates_runtime::read_streamed_body(request, &accepted).await?;
            while let Some(chunk) = body.next().await {
                if let Err(error) = chunk {
                    return Err(axum::response::IntoResponse::into_response(error));
                }
            }
            return Ok(head.headers);
        }
        if kind.is_multipart() {
            // Read as the generated server reads it, parts as they arrive,
            // the form judged at its end, and let go.
            let rules = kind
                .parts
                .as_deref()
                .and_then(|parts| self.part_rules.get(parts))
                .copied();
            let (head, parts) = openapi_crates_runtime::read_multipart(request, rules).await?;
            parts.finish().await.map_err(IntoResponse::into_response)?;
            return Ok(head.headers);
        }
        let Some(schema) = &kind.schema else {
            let (head, _) = openapi_crates_runtime::read_raw_body(request, &accepted).await?;
            return Ok(head.headers);
        };
        let (head, bytes) = openapi_crates_runtime::read_bytes(request).await?;
        let headers = head.headers;
        let value = openapi_crates_runtime::decode_shaped_body(
            &headers,
            &bytes,
            &accepted,
            self.forms.root(schema),
        )?;
        let Some(check) = self.checks.validator(schema) else {
            return Ok(headers);
        };
        self.check_body(check, &value)?;
        Ok(headers)
    }

    /// The 400 of a body breaking `check`'s rules.
    fn check_body(&self, check: &'static Check, value: &Value<'_>) -> Result<(), Response> {
        let mut violations = Violations::new();
        self.checks
            .run(check, value, &Location::Body, &mut violations);
        if !violations.is_empty() {
            return Err(openapi_crates_runtime::validation_failed(violations));
        }
        Ok(())
    }
}

/// The rules of each multipart body `served` takes with a schema, as a
/// generated server has them: the model's checks of the schema, run by the
/// runtime's one reading of them, and its form shape. Leaked once, as the
/// mock's other tables are.
fn part_rules(
    served: &[&'static Operation],
    spec: &'static Spec,
    forms: &form::Forms,
) -> BTreeMap<&'static str, PartRules> {
    let validators: &'static [Validator] = &spec.validators;
    served
        .iter()
        .flat_map(|operation| &operation.request_body)
        .flat_map(|body| &body.kinds)
        .filter(|kind| kind.is_multipart())
        .filter_map(|kind| kind.parts.as_deref())
        .filter_map(|parts| {
            let check = Validator::find(validators, parts)?;
            let validate = move |value: &Value<'_>, at: &Location<'_>, out: &mut Violations| {
                check.run(&validators, value, at, out);
            };
            let validate: &'static Validate = Box::leak(Box::new(validate));
            let shape = forms.root(parts);
            Some((parts, PartRules { validate, shape }))
        })
        .collect()
}
