//! Stage 2: check the loaded spec against what the generators support and
//! distil it into an [`ApiModel`], the view the emitters work from.
//!
//! Every rule the emitters (and progenitor underneath them) rely on is checked
//! here, once, with a message that points into the spec. Emitters may then
//! assume a well-formed model instead of panicking on surprises.

use std::collections::{BTreeMap, BTreeSet};

use openapiv3::{
    Components, OpenAPI, Operation as OaOperation, Parameter as OaParameter,
    ParameterSchemaOrContent, ReferenceOr, RequestBody as OaRequestBody, Response as OaResponse,
    StatusCode,
};
use serde_json::Value;

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::load::LoadedSpec;

/// Media type of JSON bodies; every body and every response uses it.
pub const JSON: &str = "application/json";
/// Media type of form bodies, accepted besides JSON on request bodies.
pub const FORM: &str = "application/x-www-form-urlencoded";

const SCHEMA_REF_PREFIX: &str = "#/components/schemas/";

/// The API as the emitters see it.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiModel {
    /// The whole document as typed OpenAPI, for emitters built on progenitor.
    pub openapi: OpenAPI,
    pub title: String,
    pub version: String,
    pub description: Option<String>,
    /// The path of the first server URL, e.g. `/api/v2`; empty when none.
    pub base_path: String,
    /// Operations in document order.
    pub operations: Vec<Operation>,
    /// Names of the component schemas in document order.
    pub schema_names: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Method {
    Get,
    Put,
    Post,
    Delete,
    Patch,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Put => "PUT",
            Method::Post => "POST",
            Method::Delete => "DELETE",
            Method::Patch => "PATCH",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// The `operationId`, already snake_case.
    pub id: String,
    pub method: Method,
    /// The path template relative to the server URL, e.g. `/actions/modules/{id}`.
    pub path: String,
    /// JSON pointer to the operation in the spec.
    pub pointer: String,
    pub summary: Option<String>,
    pub description: Option<String>,
    pub tags: Vec<String>,
    pub parameters: Vec<Parameter>,
    pub request_body: Option<RequestBody>,
    /// Responses sorted by status code.
    pub responses: Vec<Response>,
    /// Alternative security requirements; any one satisfies the operation.
    /// Empty when the operation is public.
    pub security: Vec<SecurityRequirement>,
    /// The `x-release-lifecycle` label, when the operation has one.
    pub release_lifecycle: Option<String>,
}

impl Operation {
    /// The OAuth scopes the operation requires, from its oauth2 requirement.
    pub fn required_scopes(&self) -> Vec<String> {
        let mut scopes: Vec<String> = self
            .security
            .iter()
            .flat_map(|requirement| requirement.scopes.iter().cloned())
            .collect();
        scopes.sort();
        scopes.dedup();
        scopes
    }

    pub fn success(&self) -> &Response {
        self.responses
            .iter()
            .find(|response| response.is_success())
            .expect("the model guarantees one success response")
    }
}

/// A path parameter; the only kind of parameter the generators support.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameter {
    pub name: String,
    pub description: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RequestBody {
    /// Name of the component schema describing the body.
    pub schema: String,
    /// Accepted media types, JSON first.
    pub content_types: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub status: u16,
    pub description: String,
    /// Name of the component schema of the JSON body, if the response has one.
    pub schema: Option<String>,
    pub headers: Vec<ResponseHeader>,
}

impl Response {
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ResponseHeader {
    pub name: String,
    pub required: bool,
    pub description: Option<String>,
    pub kind: HeaderKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderKind {
    Integer,
    String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SecurityRequirement {
    pub scheme: String,
    pub scopes: Vec<String>,
}

/// Checks `spec` and builds its model, or reports the first problem found.
pub fn build_model(spec: &LoadedSpec) -> Result<ApiModel, Diagnostic> {
    // The generic checks run on the JSON first: they explain problems that
    // would otherwise surface as a vaguer deserialization error.
    check_references(spec)?;
    check_schemas(spec)?;
    let openapi = parse_openapi(spec)?;
    let openapi = &openapi;
    let components = openapi.components.clone().unwrap_or_default();
    if openapi.paths.paths.is_empty() {
        return Err(spec.error_at(
            "/paths",
            "the spec defines no paths; there is nothing to generate",
        ));
    }

    let mut operations = Vec::new();
    let mut seen_ids: BTreeMap<String, String> = BTreeMap::new();
    for (path, item) in &openapi.paths.paths {
        let path_pointer = pointer_join("/paths", path);
        let ReferenceOr::Item(item) = item else {
            return Err(spec.error_at(
                &path_pointer,
                "path items given by `$ref` are not supported",
            ));
        };
        if !path.starts_with('/') {
            return Err(spec.error_at(&path_pointer, format!("path `{path}` must start with `/`")));
        }
        for (method_name, operation) in item.iter() {
            let pointer = pointer_join(&path_pointer, method_name);
            let method = match method_name {
                "get" => Method::Get,
                "put" => Method::Put,
                "post" => Method::Post,
                "delete" => Method::Delete,
                "patch" => Method::Patch,
                other => {
                    return Err(spec.error_at(
                        &pointer,
                        format!("the `{other}` method is not supported by the generator"),
                    ));
                }
            };
            let mut parameters = item.parameters.clone();
            parameters.extend(operation.parameters.iter().cloned());
            let operation = build_operation(
                spec,
                openapi,
                &components,
                OperationSite {
                    path,
                    method,
                    pointer: &pointer,
                },
                operation,
                &parameters,
            )?;
            if let Some(first) = seen_ids.insert(operation.id.clone(), pointer.clone()) {
                return Err(spec.error_at(
                    &pointer_join(&pointer, "operationId"),
                    format!(
                        "duplicate operationId `{}`, already used at {first}",
                        operation.id
                    ),
                ));
            }
            operations.push(operation);
        }
    }
    if operations.is_empty() {
        return Err(spec.error_at("/paths", "the spec's paths hold no operations"));
    }

    Ok(ApiModel {
        openapi: openapi.clone(),
        title: openapi.info.title.clone(),
        version: openapi.info.version.clone(),
        description: openapi.info.description.clone(),
        base_path: base_path(spec, openapi)?,
        operations,
        schema_names: components.schemas.keys().cloned().collect(),
    })
}

/// The path part of the first server URL (`https://{host}/api/v2` gives
/// `/api/v2`), under which the server crate mounts its routes.
fn base_path(spec: &LoadedSpec, openapi: &OpenAPI) -> Result<String, Diagnostic> {
    let Some(server) = openapi.servers.first() else {
        return Ok(String::new());
    };
    let url = server.url.as_str();
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = if url.starts_with('/') {
        url
    } else {
        after_scheme
            .find('/')
            .map_or("", |slash| &after_scheme[slash..])
    };
    if path.contains(['{', '}', '?', '#']) {
        return Err(spec.error_at(
            "/servers/0/url",
            format!("the path of the server URL `{url}` must be fixed, without variables or query"),
        ));
    }
    Ok(path.trim_end_matches('/').to_string())
}

/// Deserializes the document into `openapiv3` types, reporting the node
/// deserialization stopped at.
pub fn parse_openapi(spec: &LoadedSpec) -> Result<OpenAPI, Diagnostic> {
    serde_path_to_error::deserialize(&spec.document).map_err(|err| {
        let pointer = pointer_of(err.path());
        let cause = format!("not a valid OpenAPI 3.0 document: {}", err.inner());
        spec.error_at(&pointer, cause)
    })
}

/// Turns the path `serde_path_to_error` reports into a JSON pointer.
fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => pointer = pointer_join(&pointer, &index.to_string()),
            Segment::Map { key } => pointer = pointer_join(&pointer, key),
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    pointer
}

struct OperationSite<'a> {
    path: &'a str,
    method: Method,
    pointer: &'a str,
}

fn build_operation(
    spec: &LoadedSpec,
    openapi: &OpenAPI,
    components: &Components,
    site: OperationSite<'_>,
    operation: &OaOperation,
    parameters: &[ReferenceOr<OaParameter>],
) -> Result<Operation, Diagnostic> {
    let pointer = site.pointer;
    let id = operation
        .operation_id
        .clone()
        .ok_or_else(|| spec.error_at(pointer, "the operation has no operationId"))?;
    if !is_snake_case(&id) {
        return Err(spec.error_at(
            &pointer_join(pointer, "operationId"),
            format!(
                "operationId `{id}` must be snake_case (lowercase letters, digits and `_`, \
                 starting with a letter): it names the generated functions"
            ),
        ));
    }

    let parameters = build_parameters(spec, components, &site, operation, parameters)?;
    let request_body = match &operation.request_body {
        None => None,
        Some(body) => {
            let body_pointer = pointer_join(pointer, "requestBody");
            Some(build_request_body(spec, components, &body_pointer, body)?)
        }
    };
    let responses = build_responses(spec, components, pointer, operation)?;
    let security = build_security(spec, openapi, pointer, operation)?;

    let release_lifecycle = match operation.extensions.get("x-release-lifecycle") {
        None => None,
        Some(Value::String(label)) => Some(label.clone()),
        Some(_) => {
            return Err(spec.error_at(
                &pointer_join(pointer, "x-release-lifecycle"),
                "`x-release-lifecycle` must be a string label",
            ));
        }
    };

    Ok(Operation {
        id,
        method: site.method,
        path: site.path.to_string(),
        pointer: pointer.to_string(),
        summary: operation.summary.clone(),
        description: operation.description.clone(),
        tags: operation.tags.clone(),
        parameters,
        request_body,
        responses,
        security,
        release_lifecycle,
    })
}

fn build_parameters(
    spec: &LoadedSpec,
    components: &Components,
    site: &OperationSite<'_>,
    operation: &OaOperation,
    parameters: &[ReferenceOr<OaParameter>],
) -> Result<Vec<Parameter>, Diagnostic> {
    let _ = operation;
    let template_names = match path_template_names(site.path) {
        Ok(names) => names,
        Err(cause) => {
            return Err(spec.error_at(&pointer_join("/paths", site.path), cause));
        }
    };

    let mut result: Vec<Parameter> = Vec::new();
    for (index, parameter) in parameters.iter().enumerate() {
        let parameter_pointer = pointer_join(
            &pointer_join(site.pointer, "parameters"),
            &index.to_string(),
        );
        let parameter = match parameter {
            ReferenceOr::Item(parameter) => parameter.clone(),
            ReferenceOr::Reference { reference } => lookup(
                spec,
                &parameter_pointer,
                reference,
                "parameters",
                &components.parameters,
            )?,
        };
        let data = match &parameter {
            OaParameter::Path { parameter_data, .. } => parameter_data,
            OaParameter::Query { parameter_data, .. }
            | OaParameter::Header { parameter_data, .. }
            | OaParameter::Cookie { parameter_data, .. } => {
                let location = match parameter {
                    OaParameter::Query { .. } => "query",
                    OaParameter::Header { .. } => "header",
                    _ => "cookie",
                };
                return Err(spec.error_at(
                    &pointer_join(&parameter_pointer, "in"),
                    format!(
                        "parameter `{}` is in the {location}; only path parameters are supported",
                        parameter_data.name
                    ),
                ));
            }
        };
        let is_string = matches!(
            &data.format,
            ParameterSchemaOrContent::Schema(ReferenceOr::Item(schema))
                if matches!(schema.schema_kind, openapiv3::SchemaKind::Type(openapiv3::Type::String(_)))
        );
        if !is_string {
            return Err(spec.error_at(
                &parameter_pointer,
                format!(
                    "path parameter `{}` must have an inline `schema` of `type: string`",
                    data.name
                ),
            ));
        }
        if !data.required {
            return Err(spec.error_at(
                &parameter_pointer,
                format!("path parameter `{}` must be `required: true`", data.name),
            ));
        }
        if !template_names.contains(&data.name) {
            return Err(spec.error_at(
                &parameter_pointer,
                format!(
                    "path parameter `{}` does not appear in the path `{}`",
                    data.name, site.path
                ),
            ));
        }
        if result.iter().any(|seen| seen.name == data.name) {
            return Err(spec.error_at(
                &parameter_pointer,
                format!("parameter `{}` is declared twice", data.name),
            ));
        }
        result.push(Parameter {
            name: data.name.clone(),
            description: data.description.clone(),
        });
    }
    for name in &template_names {
        if !result.iter().any(|parameter| &parameter.name == name) {
            return Err(spec.error_at(
                site.pointer,
                format!("the path `{}` has `{{{name}}}` but the operation declares no path parameter `{name}`", site.path),
            ));
        }
    }
    // Handlers receive parameters in path order.
    result.sort_by_key(|parameter| {
        template_names
            .iter()
            .position(|name| *name == parameter.name)
    });
    Ok(result)
}

/// The `{name}` segments of a path template, in order.
fn path_template_names(path: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find(['{', '}']) {
        if rest.as_bytes()[open] == b'}' {
            return Err(format!("unbalanced `}}` in path `{path}`"));
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("unclosed `{{` in path `{path}`"))?;
        let name = &after[..close];
        if name.is_empty() || name.contains('{') {
            return Err(format!("malformed parameter in path `{path}`"));
        }
        if names.iter().any(|seen| seen == name) {
            return Err(format!("parameter `{name}` appears twice in path `{path}`"));
        }
        names.push(name.to_string());
        rest = &after[close + 1..];
    }
    Ok(names)
}

fn build_request_body(
    spec: &LoadedSpec,
    components: &Components,
    pointer: &str,
    body: &ReferenceOr<OaRequestBody>,
) -> Result<RequestBody, Diagnostic> {
    let body = match body {
        ReferenceOr::Item(body) => body.clone(),
        ReferenceOr::Reference { reference } => lookup(
            spec,
            pointer,
            reference,
            "requestBodies",
            &components.request_bodies,
        )?,
    };
    if !body.required {
        return Err(spec.error_at(
            pointer,
            "request bodies must be `required: true`; optional bodies are not supported",
        ));
    }
    if !body.content.contains_key(JSON) {
        return Err(spec.error_at(
            &pointer_join(pointer, "content"),
            format!("the request body must offer `{JSON}`"),
        ));
    }
    let mut schema: Option<String> = None;
    let mut content_types = Vec::new();
    for (media_type, content) in &body.content {
        let content_pointer = pointer_join(&pointer_join(pointer, "content"), media_type);
        if media_type != JSON && media_type != FORM {
            return Err(spec.error_at(
                &content_pointer,
                format!(
                    "request content type `{media_type}` is not supported; use `{JSON}` or `{FORM}`"
                ),
            ));
        }
        let name = named_schema(spec, &content_pointer, content.schema.as_ref())?;
        match &schema {
            Some(first) if *first != name => {
                return Err(spec.error_at(
                    &pointer_join(&content_pointer, "schema"),
                    format!("every content type of a request body must use the same schema; found `{first}` and `{name}`"),
                ));
            }
            _ => schema = Some(name),
        }
        content_types.push(media_type.clone());
    }
    content_types.sort_by_key(|media_type| media_type != JSON);
    let schema = schema.expect("the body offers JSON, so it has a schema");
    if content_types.iter().any(|media_type| media_type == FORM) {
        check_form_fields(
            spec,
            &format!("/components/schemas/{schema}"),
            &mut BTreeSet::new(),
        )?;
    }
    Ok(RequestBody {
        schema,
        content_types,
    })
}

/// Form fields arrive as text, so a schema offered as a form body may hold
/// only strings (in objects and lists at any depth). A number or boolean
/// would be refused at run time; it is refused here, where it can be fixed.
fn check_form_fields(
    spec: &LoadedSpec,
    pointer: &str,
    visited: &mut BTreeSet<String>,
) -> Result<(), Diagnostic> {
    if !visited.insert(pointer.to_string()) {
        return Ok(());
    }
    let Some(Value::Object(schema)) = spec.document.pointer(pointer) else {
        return Ok(());
    };
    if let Some(Value::String(reference)) = schema.get("$ref") {
        let target = reference.trim_start_matches('#').to_string();
        return check_form_fields(spec, &target, visited);
    }
    if let Some(Value::String(kind)) = schema.get("type")
        && matches!(kind.as_str(), "integer" | "number" | "boolean")
    {
        return Err(spec.error_at(
            pointer,
            format!(
                "this {kind} is part of a body offered as `{FORM}`, whose fields are text; \
                 make it a string or offer the body as `{JSON}` only"
            ),
        ));
    }
    if let Some(Value::Object(properties)) = schema.get("properties") {
        for name in properties.keys() {
            check_form_fields(
                spec,
                &pointer_join(&pointer_join(pointer, "properties"), name),
                visited,
            )?;
        }
    }
    for keyword in ["items", "additionalProperties"] {
        if schema.get(keyword).is_some_and(Value::is_object) {
            check_form_fields(spec, &pointer_join(pointer, keyword), visited)?;
        }
    }
    for keyword in SUBSCHEMA_LIST_KEYWORDS {
        if let Some(Value::Array(variants)) = schema.get(*keyword) {
            for index in 0..variants.len() {
                check_form_fields(
                    spec,
                    &pointer_join(&pointer_join(pointer, keyword), &index.to_string()),
                    visited,
                )?;
            }
        }
    }
    Ok(())
}

fn build_responses(
    spec: &LoadedSpec,
    components: &Components,
    operation_pointer: &str,
    operation: &OaOperation,
) -> Result<Vec<Response>, Diagnostic> {
    let responses_pointer = pointer_join(operation_pointer, "responses");
    if operation.responses.default.is_some() {
        return Err(spec.error_at(
            &pointer_join(&responses_pointer, "default"),
            "`default` responses are not supported; list each status code",
        ));
    }
    let mut result = Vec::new();
    for (status, response) in &operation.responses.responses {
        let status_text = status.to_string();
        let pointer = pointer_join(&responses_pointer, &status_text);
        let code = match status {
            StatusCode::Code(code) if (100..600).contains(code) => *code,
            _ => {
                return Err(spec.error_at(
                    &pointer,
                    format!("response status `{status_text}` is not supported; use a single status code from 100 to 599"),
                ));
            }
        };
        let response = match response {
            ReferenceOr::Item(response) => response.clone(),
            ReferenceOr::Reference { reference } => lookup(
                spec,
                &pointer,
                reference,
                "responses",
                &components.responses,
            )?,
        };
        result.push(build_response(spec, components, &pointer, code, &response)?);
    }
    let successes: Vec<&Response> = result
        .iter()
        .filter(|response| response.is_success())
        .collect();
    if successes.len() != 1 {
        return Err(spec.error_at(
            &responses_pointer,
            format!(
                "an operation needs exactly one 2xx response, found {}",
                successes.len()
            ),
        ));
    }
    let errors: Vec<&Response> = result
        .iter()
        .filter(|response| response.status >= 400)
        .collect();
    if let Some(first) = errors.first() {
        for other in &errors[1..] {
            if other.schema != first.schema {
                return Err(spec.error_at(
                    &pointer_join(&responses_pointer, &other.status.to_string()),
                    format!(
                        "every error response of an operation must use the same schema; \
                         {} uses {} and {} uses {}",
                        first.status,
                        describe_schema(&first.schema),
                        other.status,
                        describe_schema(&other.schema)
                    ),
                ));
            }
        }
    }
    if let Some(other) = result
        .iter()
        .find(|response| response.status < 200 || (300..400).contains(&response.status))
    {
        return Err(spec.error_at(
            &pointer_join(&responses_pointer, &other.status.to_string()),
            "only 2xx, 4xx and 5xx responses are supported",
        ));
    }
    result.sort_by_key(|response| response.status);
    Ok(result)
}

fn describe_schema(schema: &Option<String>) -> String {
    match schema {
        Some(name) => format!("`{name}`"),
        None => "no body".to_string(),
    }
}

fn build_response(
    spec: &LoadedSpec,
    components: &Components,
    pointer: &str,
    status: u16,
    response: &OaResponse,
) -> Result<Response, Diagnostic> {
    let mut schema = None;
    for (media_type, content) in &response.content {
        let content_pointer = pointer_join(&pointer_join(pointer, "content"), media_type);
        if media_type != JSON {
            return Err(spec.error_at(
                &content_pointer,
                format!("response content type `{media_type}` is not supported; use `{JSON}`"),
            ));
        }
        schema = Some(named_schema(
            spec,
            &content_pointer,
            content.schema.as_ref(),
        )?);
    }
    let mut headers = Vec::new();
    for (name, header) in &response.headers {
        let header_pointer = pointer_join(&pointer_join(pointer, "headers"), name);
        let header = match header {
            ReferenceOr::Item(header) => header.clone(),
            ReferenceOr::Reference { reference } => lookup(
                spec,
                &header_pointer,
                reference,
                "headers",
                &components.headers,
            )?,
        };
        let kind = match &header.format {
            ParameterSchemaOrContent::Schema(ReferenceOr::Item(schema)) => {
                match &schema.schema_kind {
                    openapiv3::SchemaKind::Type(openapiv3::Type::Integer(_)) => {
                        Some(HeaderKind::Integer)
                    }
                    openapiv3::SchemaKind::Type(openapiv3::Type::String(_)) => {
                        Some(HeaderKind::String)
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let kind = kind.ok_or_else(|| {
            spec.error_at(
                &header_pointer,
                format!("response header `{name}` must have an inline integer or string schema"),
            )
        })?;
        headers.push(ResponseHeader {
            name: name.clone(),
            required: header.required,
            description: header.description.clone(),
            kind,
        });
    }
    Ok(Response {
        status,
        description: response.description.clone(),
        schema,
        headers,
    })
}

fn build_security(
    spec: &LoadedSpec,
    openapi: &OpenAPI,
    operation_pointer: &str,
    operation: &OaOperation,
) -> Result<Vec<SecurityRequirement>, Diagnostic> {
    let (requirements, pointer) = match &operation.security {
        Some(requirements) => (
            requirements.clone(),
            pointer_join(operation_pointer, "security"),
        ),
        None => (
            openapi.security.clone().unwrap_or_default(),
            "/security".to_string(),
        ),
    };
    let schemes = openapi
        .components
        .as_ref()
        .map(|components| components.security_schemes.clone())
        .unwrap_or_default();
    let mut result = Vec::new();
    for (index, requirement) in requirements.iter().enumerate() {
        for (scheme, scopes) in requirement {
            if !schemes.contains_key(scheme) {
                return Err(spec.error_at(
                    &pointer_join(&pointer_join(&pointer, &index.to_string()), scheme),
                    format!("security scheme `{scheme}` is not declared under components/securitySchemes"),
                ));
            }
            result.push(SecurityRequirement {
                scheme: scheme.clone(),
                scopes: scopes.clone(),
            });
        }
    }
    Ok(result)
}

/// The component name a body's `schema` refers to. Bodies must name their
/// schema so that the client and the server share one generated type for it.
fn named_schema(
    spec: &LoadedSpec,
    content_pointer: &str,
    schema: Option<&ReferenceOr<openapiv3::Schema>>,
) -> Result<String, Diagnostic> {
    match schema {
        Some(ReferenceOr::Reference { reference }) => reference
            .strip_prefix(SCHEMA_REF_PREFIX)
            .map(str::to_string)
            .ok_or_else(|| {
                spec.error_at(
                    &pointer_join(&pointer_join(content_pointer, "schema"), "$ref"),
                    format!("`{reference}` must point into {SCHEMA_REF_PREFIX}"),
                )
            }),
        Some(ReferenceOr::Item(_)) => Err(spec.error_at(
            &pointer_join(content_pointer, "schema"),
            "body schemas must be a `$ref` to a named schema under components/schemas, \
             so that client and server share one type",
        )),
        None => Err(spec.error_at(content_pointer, "the media type has no schema")),
    }
}

/// Resolves a `$ref` to a component of `kind` (already checked to exist by
/// [`check_references`], but a ref may point at the wrong kind of component).
fn lookup<T: Clone>(
    spec: &LoadedSpec,
    pointer: &str,
    reference: &str,
    kind: &str,
    components: &indexmap::IndexMap<String, ReferenceOr<T>>,
) -> Result<T, Diagnostic> {
    let prefix = format!("#/components/{kind}/");
    let mut current = reference.to_string();
    for _ in 0..=components.len() {
        let found = current
            .strip_prefix(&prefix)
            .and_then(|name| components.get(name));
        match found {
            Some(ReferenceOr::Item(item)) => return Ok(item.clone()),
            Some(ReferenceOr::Reference { reference }) => current = reference.clone(),
            None => break,
        }
    }
    Err(spec.error_at(
        &pointer_join(pointer, "$ref"),
        format!("`{reference}` must refer to an entry of components/{kind}"),
    ))
}

fn is_snake_case(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|first| first.is_ascii_lowercase())
        && bytes.all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'_')
}

/// Every `$ref` in the document must be local and resolve, and following
/// references must end at something other than another reference.
fn check_references(spec: &LoadedSpec) -> Result<(), Diagnostic> {
    let mut references = Vec::new();
    collect_references(&spec.document, String::new(), &mut references);
    for (pointer, reference) in &references {
        let mut seen = BTreeSet::new();
        let mut current = reference.clone();
        loop {
            let Some(target_pointer) = current.strip_prefix('#') else {
                return Err(spec.error_at(
                    pointer,
                    format!("`$ref: {current}` is not a local reference; references to other files are not supported"),
                ));
            };
            if !seen.insert(target_pointer.to_string()) {
                return Err(spec.error_at(
                    pointer,
                    format!("`$ref: {reference}` is part of a reference cycle that never reaches a definition"),
                ));
            }
            let Some(target) = spec.document.pointer(target_pointer) else {
                return Err(spec.error_at(
                    pointer,
                    format!(
                        "`$ref: {current}` does not resolve: nothing is defined at {target_pointer}"
                    ),
                ));
            };
            match target.get("$ref") {
                Some(Value::String(next)) => current = next.clone(),
                _ => break,
            }
        }
    }
    Ok(())
}

fn collect_references(value: &Value, pointer: String, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                let child_pointer = pointer_join(&pointer, key);
                if key == "$ref" {
                    if let Value::String(reference) = child {
                        out.push((child_pointer, reference.clone()));
                    }
                } else if !key.starts_with("x-") && key != "example" && key != "default" {
                    collect_references(child, child_pointer, out);
                }
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                collect_references(child, pointer_join(&pointer, &index.to_string()), out);
            }
        }
        _ => {}
    }
}

/// Schema keywords whose value is a schema, and those whose value is a list
/// or map of schemas; used to find every schema in the document.
const SUBSCHEMA_KEYWORDS: &[&str] = &["items", "not", "additionalProperties"];
const SUBSCHEMA_LIST_KEYWORDS: &[&str] = &["allOf", "oneOf", "anyOf"];
const SCHEMA_TYPES: &[&str] = &["string", "number", "integer", "boolean", "array", "object"];

/// Checks every schema for constructs the type generator cannot handle,
/// reporting them here instead of letting typify panic or guess.
fn check_schemas(spec: &LoadedSpec) -> Result<(), Diagnostic> {
    let mut schemas = Vec::new();
    if let Some(Value::Object(named)) = spec.document.pointer("/components/schemas") {
        for name in named.keys() {
            schemas.push(pointer_join("/components/schemas", name));
        }
    }
    collect_schema_sites(&spec.document, String::new(), &mut schemas);
    for pointer in schemas {
        check_schema(spec, &pointer)?;
    }
    Ok(())
}

/// Finds `schema` members of parameters, media types and headers.
fn collect_schema_sites(value: &Value, pointer: String, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                let child_pointer = pointer_join(&pointer, key);
                if key == "schema" && child.is_object() {
                    out.push(child_pointer);
                } else if key != "schemas" && !key.starts_with("x-") && key != "example" {
                    collect_schema_sites(child, child_pointer, out);
                }
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                collect_schema_sites(child, pointer_join(&pointer, &index.to_string()), out);
            }
        }
        _ => {}
    }
}

fn check_schema(spec: &LoadedSpec, pointer: &str) -> Result<(), Diagnostic> {
    let Some(Value::Object(schema)) = spec.document.pointer(pointer) else {
        return match spec.document.pointer(pointer) {
            Some(Value::Bool(_)) if pointer.ends_with("/additionalProperties") => Ok(()),
            _ => Err(spec.error_at(pointer, "a schema must be a mapping")),
        };
    };
    if schema.contains_key("$ref") {
        return Ok(());
    }
    match schema.get("type") {
        None => {}
        Some(Value::String(kind)) if SCHEMA_TYPES.contains(&kind.as_str()) => {}
        Some(Value::String(kind)) => {
            return Err(spec.error_at(
                &pointer_join(pointer, "type"),
                format!(
                    "unknown schema type `{kind}`; expected one of {}",
                    SCHEMA_TYPES.join(", ")
                ),
            ));
        }
        Some(other) => {
            return Err(spec.error_at(
                &pointer_join(pointer, "type"),
                format!("schema `type` must be a single string in OpenAPI 3.0, found {other}"),
            ));
        }
    }
    for (exclusive, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if schema.get(exclusive) == Some(&Value::Bool(true)) && !schema.contains_key(bound) {
            return Err(spec.error_at(
                &pointer_join(pointer, exclusive),
                format!("`{exclusive}: true` needs a `{bound}`"),
            ));
        }
    }
    if let Some(Value::Object(properties)) = schema.get("properties") {
        for name in properties.keys() {
            check_schema(
                spec,
                &pointer_join(&pointer_join(pointer, "properties"), name),
            )?;
        }
    }
    for keyword in SUBSCHEMA_KEYWORDS {
        if schema.contains_key(*keyword) {
            check_schema(spec, &pointer_join(pointer, keyword))?;
        }
    }
    for keyword in SUBSCHEMA_LIST_KEYWORDS {
        match schema.get(*keyword) {
            None => {}
            Some(Value::Array(items)) if !items.is_empty() => {
                for index in 0..items.len() {
                    check_schema(
                        spec,
                        &pointer_join(&pointer_join(pointer, keyword), &index.to_string()),
                    )?;
                }
            }
            Some(_) => {
                return Err(spec.error_at(
                    &pointer_join(pointer, keyword),
                    format!("`{keyword}` must be a non-empty list of schemas"),
                ));
            }
        }
    }
    Ok(())
}
