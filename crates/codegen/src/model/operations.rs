//! Lowering of each operation: its parameters, body, responses and security,
//! checked against what the generators support.

use openapiv3::{
    Components, OpenAPI, Operation as OaOperation, Parameter as OaParameter,
    ParameterSchemaOrContent, ReferenceOr, RequestBody as OaRequestBody, Response as OaResponse,
    StatusCode,
};
use serde_json::Value;

use super::paths::path_template_names;
use super::refs::{SCHEMA_REF_PREFIX, lookup, schema_name};
use super::validation;
use super::*;
use crate::diagnostic::{Diagnostic, pointer_join};
use crate::load::LoadedSpec;

pub(crate) struct OperationSite<'a> {
    pub(crate) path: &'a str,
    pub(crate) method: Method,
    pub(crate) pointer: &'a str,
}

pub(crate) fn build_operation(
    spec: &LoadedSpec,
    openapi: &OpenAPI,
    components: &Components,
    site: OperationSite<'_>,
    operation: &OaOperation,
    parameters: &[(String, ReferenceOr<OaParameter>)],
) -> Result<Operation, Diagnostic> {
    let pointer = site.pointer;
    let id = operation
        .operation_id
        .clone()
        .ok_or_else(|| spec.error_at(pointer, "the operation has no operationId"))?;
    let parameters = build_parameters(spec, components, &site, parameters)?;
    let request_body = match &operation.request_body {
        None => None,
        Some(body) => {
            let body_pointer = pointer_join(pointer, "requestBody");
            Some(build_request_body(spec, components, &body_pointer, body)?)
        }
    };
    let (responses, default_response) = build_responses(spec, components, pointer, operation)?;
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
        default_response,
        security,
        release_lifecycle,
    })
}

fn build_parameters(
    spec: &LoadedSpec,
    components: &Components,
    site: &OperationSite<'_>,
    parameters: &[(String, ReferenceOr<OaParameter>)],
) -> Result<Vec<Parameter>, Diagnostic> {
    let template_names = match path_template_names(site.path) {
        Ok(names) => names,
        Err(cause) => {
            return Err(spec.error_at(&pointer_join("/paths", site.path), cause));
        }
    };

    let mut result: Vec<Parameter> = Vec::new();
    for (parameter_pointer, parameter) in parameters {
        let (parameter, raw_pointer) = match parameter {
            ReferenceOr::Item(parameter) => (parameter.clone(), parameter_pointer.clone()),
            ReferenceOr::Reference { reference } => (
                lookup(
                    spec,
                    parameter_pointer,
                    reference,
                    "parameters",
                    &components.parameters,
                )?,
                reference.trim_start_matches('#').to_string(),
            ),
        };
        let refuse = |cause: String| Err(spec.error_at(parameter_pointer, cause));
        let (data, location, list_ok) = match &parameter {
            OaParameter::Path {
                parameter_data,
                style: openapiv3::PathStyle::Simple,
            } => (parameter_data, ParameterLocation::Path, false),
            OaParameter::Query {
                parameter_data,
                style: openapiv3::QueryStyle::Form,
                ..
            } => (
                parameter_data,
                ParameterLocation::Query,
                parameter_data.explode != Some(false),
            ),
            OaParameter::Header {
                parameter_data,
                style: openapiv3::HeaderStyle::Simple,
            } => (parameter_data, ParameterLocation::Header, false),
            OaParameter::Cookie { parameter_data, .. } => {
                return Err(spec.error_at(&pointer_join(&raw_pointer, "in"), format!(
                    "cookie parameter `{}` is not supported: the generated client (progenitor) cannot send cookies",
                    parameter_data.name
                )));
            }
            other => {
                return Err(spec.error_at(&pointer_join(&raw_pointer, "style"), format!(
                    "parameter `{}` has a style the generated client cannot send; use `style: form` in the query, `simple` in the path or a header",
                    other.parameter_data_ref().name
                )));
            }
        };
        if !matches!(data.format, ParameterSchemaOrContent::Schema(_)) {
            return refuse(format!(
                "parameter `{}` must describe its value with `schema`, not `content`",
                data.name
            ));
        }
        let schema_pointer = pointer_join(&raw_pointer, "schema");
        let shape = parameter_shape(spec, &schema_pointer, list_ok).map_err(|cause| {
            spec.error_at(
                &schema_pointer,
                format!("parameter `{}`: {cause}", data.name),
            )
        })?;
        let check = match spec.document.pointer(&schema_pointer) {
            Some(schema) => validation::compile_inline(spec, schema, &schema_pointer)?,
            None => validation::Check::Any,
        };
        let check = if check.is_type_only() {
            validation::Check::Any
        } else {
            check
        };
        if location == ParameterLocation::Path {
            if !data.required {
                return refuse(format!(
                    "path parameter `{}` must be `required: true`",
                    data.name
                ));
            }
            if !template_names.contains(&data.name) {
                return refuse(format!(
                    "path parameter `{}` does not appear in the path `{}`",
                    data.name, site.path
                ));
            }
        }
        if result
            .iter()
            .any(|seen| seen.name == data.name && seen.location == location)
        {
            return refuse(format!("parameter `{}` is declared twice", data.name));
        }
        result.push(Parameter {
            name: data.name.clone(),
            code_name: data.name.clone(),
            location,
            required: data.required,
            description: data.description.clone(),
            shape,
            check,
        });
    }
    for name in &template_names {
        if !result.iter().any(|parameter| {
            parameter.location == ParameterLocation::Path && &parameter.name == name
        }) {
            return Err(spec.error_at(
                site.pointer,
                format!("the path `{}` has `{{{name}}}` but the operation declares no path parameter `{name}`", site.path),
            ));
        }
    }
    // Path parameters first, in path order (handlers receive them so), then
    // the others in document order.
    result.sort_by_key(|parameter| {
        template_names
            .iter()
            .position(|name| {
                parameter.location == ParameterLocation::Path && *name == parameter.name
            })
            .unwrap_or(usize::MAX)
    });
    Ok(result)
}

/// What a parameter's text is read as, from its schema (following `$ref`s).
fn parameter_shape(
    spec: &LoadedSpec,
    schema_pointer: &str,
    list_ok: bool,
) -> Result<ParameterShape, String> {
    let schema = resolved_schema(spec, schema_pointer)?;
    match schema_kind(schema) {
        Some("array") => {
            if !list_ok {
                return Err("lists are supported in the query only, as repeated `name=value` pairs (`style: form`, `explode: true`)".into());
            }
            let items = match schema.get("items") {
                Some(Value::Object(items)) if items.contains_key("$ref") => {
                    let reference = items["$ref"].as_str().unwrap_or_default();
                    resolved_schema(spec, reference.trim_start_matches('#'))?
                }
                Some(Value::Object(items)) => items,
                _ => return Ok(ParameterShape::List(Scalar::String)),
            };
            match schema_kind(items).map(scalar) {
                Some(Some(item)) => Ok(ParameterShape::List(item)),
                None => Ok(ParameterShape::List(Scalar::String)),
                Some(None) => Err("the items of a list parameter must be strings, numbers or booleans".into()),
            }
        }
        Some(kind) => scalar(kind).map(ParameterShape::Scalar).ok_or_else(|| {
            format!("a `{kind}` parameter is not supported; use a string, number, boolean or a list of them")
        }),
        // No type: the text as it is.
        None => Ok(ParameterShape::Scalar(Scalar::String)),
    }
}

fn resolved_schema<'a>(
    spec: &'a LoadedSpec,
    pointer: &str,
) -> Result<&'a serde_json::Map<String, Value>, String> {
    let mut pointer = pointer.to_string();
    for _ in 0..32 {
        match spec.document.pointer(&pointer) {
            Some(Value::Object(schema)) => match schema.get("$ref").and_then(Value::as_str) {
                Some(reference) => pointer = reference.trim_start_matches('#').to_string(),
                None => return Ok(schema),
            },
            _ => return Err("the schema must be a mapping".into()),
        }
    }
    Err("the schema's references do not end".into())
}

/// The schema's `type`, or `string` for an untyped enum of strings.
fn schema_kind(schema: &serde_json::Map<String, Value>) -> Option<&str> {
    schema.get("type").and_then(Value::as_str).or_else(|| {
        schema
            .get("enum")
            .and_then(Value::as_array)
            .filter(|values| {
                values
                    .iter()
                    .all(|value| value.is_string() || value.is_null())
            })
            .map(|_| "string")
    })
}

fn scalar(kind: &str) -> Option<Scalar> {
    match kind {
        "string" => Some(Scalar::String),
        "integer" => Some(Scalar::Integer),
        "number" => Some(Scalar::Number),
        "boolean" => Some(Scalar::Boolean),
        _ => None,
    }
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
    if !body.content.contains_key(JSON) && !body.content.contains_key(FORM) {
        // A file or an upload: the server gets the bytes as they came.
        let raw: Vec<String> = body
            .content
            .keys()
            .filter(|media_type| RAW.contains(&media_type.as_str()))
            .cloned()
            .collect();
        if raw.is_empty() || raw.len() != body.content.len() {
            return Err(spec.error_at(
                &pointer_join(pointer, "content"),
                format!(
                    "the request body must offer `{JSON}` or `{FORM}`, or only media types passed as bytes ({})",
                    RAW.join(", ")
                ),
            ));
        }
        return Ok(RequestBody {
            required: body.required,
            schema: None,
            content_types: raw,
        });
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
    let schema = schema.expect("the body offers JSON or a form, so it has a schema");
    Ok(RequestBody {
        required: body.required,
        schema: Some(schema),
        content_types,
    })
}

fn build_responses(
    spec: &LoadedSpec,
    components: &Components,
    operation_pointer: &str,
    operation: &OaOperation,
) -> Result<(Vec<Response>, Option<Response>), Diagnostic> {
    let responses_pointer = pointer_join(operation_pointer, "responses");
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
        result.push(listed_response(spec, components, &pointer, code, response)?);
    }
    let successes: Vec<&Response> = result
        .iter()
        .filter(|response| response.is_success())
        .collect();
    if successes.is_empty() {
        return Err(spec.error_at(&responses_pointer, "an operation needs a 2xx response"));
    }
    // A 1xx is an interim answer before the final one: a handler cannot
    // return it as the operation's response.
    if let Some(other) = result.iter().find(|response| response.status < 200) {
        return Err(spec.error_at(
            &pointer_join(&responses_pointer, &other.status.to_string()),
            "a 1xx status is an interim response, which a server cannot answer as the \
             operation's result; document the final status instead",
        ));
    }
    result.sort_by_key(|response| response.status);
    let default = match &operation.responses.default {
        Some(response) => {
            let pointer = pointer_join(&responses_pointer, "default");
            Some(listed_response(
                spec,
                components,
                &pointer,
                DEFAULT_STATUS,
                response,
            )?)
        }
        None => None,
    };
    Ok((result, default))
}

/// One response of `responses`, following a `$ref` into `components/responses`.
fn listed_response(
    spec: &LoadedSpec,
    components: &Components,
    pointer: &str,
    status: u16,
    response: &ReferenceOr<OaResponse>,
) -> Result<Response, Diagnostic> {
    let (response, shared, written_at) = match response {
        ReferenceOr::Item(response) => (response.clone(), None, pointer.to_string()),
        ReferenceOr::Reference { reference } => (
            lookup(spec, pointer, reference, "responses", &components.responses)?,
            reference
                .strip_prefix("#/components/responses/")
                .map(str::to_string),
            reference.trim_start_matches('#').to_string(),
        ),
    };
    let mut response = build_response(spec, components, pointer, &written_at, status, &response)?;
    // Only responses with headers need a type of their own; the others
    // are a body or nothing, as compact inline as by name.
    if !response.headers.is_empty() && response.raw_media_type.is_none() {
        response.shared = shared;
    }
    Ok(response)
}

/// `pointer` is where the operation lists the response, `written_at` where
/// its definition is (under `components/responses` for a `$ref`).
fn build_response(
    spec: &LoadedSpec,
    components: &Components,
    pointer: &str,
    written_at: &str,
    status: u16,
    response: &OaResponse,
) -> Result<Response, Diagnostic> {
    // A JSON body is typed by its schema; any other media type (an event
    // stream, a file) is passed through as bytes.
    let mut schema = None;
    let mut raw_media_type = None;
    for (media_type, content) in &response.content {
        let content_pointer = pointer_join(&pointer_join(pointer, "content"), media_type);
        if media_type == JSON {
            schema = Some(named_schema(
                spec,
                &content_pointer,
                content.schema.as_ref(),
            )?);
        } else if raw_media_type.is_none() {
            raw_media_type = Some(media_type.clone());
        }
    }
    if schema.is_some() {
        raw_media_type = None;
    }
    let mut headers = Vec::new();
    for (name, header) in &response.headers {
        let header_pointer = pointer_join(&pointer_join(pointer, "headers"), name);
        let header_written_at = pointer_join(&pointer_join(written_at, "headers"), name);
        let (header, raw_pointer) = match header {
            ReferenceOr::Item(header) => (header.clone(), header_written_at),
            ReferenceOr::Reference { reference } => (
                lookup(
                    spec,
                    &header_pointer,
                    reference,
                    "headers",
                    &components.headers,
                )?,
                reference.trim_start_matches('#').to_string(),
            ),
        };
        // A header is text on the wire: integers, numbers and booleans are
        // typed, and anything else (a string, a list in `simple` style, no
        // schema at all) is the text as it is.
        let kind = resolved_schema(spec, &pointer_join(&raw_pointer, "schema"))
            .ok()
            .and_then(schema_kind)
            .map_or(HeaderKind::String, |kind| match kind {
                "integer" => HeaderKind::Integer,
                "number" => HeaderKind::Number,
                "boolean" => HeaderKind::Boolean,
                _ => HeaderKind::String,
            });
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
        raw_media_type,
        headers,
        shared: None,
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
        Some(ReferenceOr::Reference { reference }) => {
            schema_name(reference).map(str::to_string).ok_or_else(|| {
                spec.error_at(
                    &pointer_join(&pointer_join(content_pointer, "schema"), "$ref"),
                    format!("`{reference}` must point into {SCHEMA_REF_PREFIX}"),
                )
            })
        }
        Some(ReferenceOr::Item(_)) => Err(spec.error_at(
            &pointer_join(content_pointer, "schema"),
            "body schemas must be a `$ref` to a named schema under components/schemas, \
             so that client and server share one type",
        )),
        None => Err(spec.error_at(content_pointer, "the media type has no schema")),
    }
}

/// The shape of the router's own errors (401, 404, 415, ...) by default:
/// the platform's body when every error response of the spec documents it
/// (`statusCode`, `error`, `message`), RFC 9457 problem details otherwise.
/// Implementations answer in any other shape through the trait's
/// `router_error` hook.
pub(crate) fn error_shape(spec: &LoadedSpec, operations: &[Operation]) -> ErrorShape {
    const PLATFORM_PROPERTIES: &[&str] = &["statusCode", "error", "message"];
    let mut schemas = operations
        .iter()
        .flat_map(|operation| {
            operation
                .responses
                .iter()
                .chain(&operation.default_response)
        })
        .filter(|response| response.is_error())
        .filter_map(|response| response.schema.as_deref())
        .peekable();
    if schemas.peek().is_none() {
        return ErrorShape::Problem;
    }
    let platform = schemas.all(|schema| {
        let properties = spec
            .document
            .pointer(&pointer_join(
                &pointer_join("/components/schemas", schema),
                "properties",
            ))
            .and_then(Value::as_object);
        properties.is_some_and(|properties| {
            PLATFORM_PROPERTIES
                .iter()
                .all(|name| properties.contains_key(*name))
        })
    });
    if platform {
        ErrorShape::Platform
    } else {
        ErrorShape::Problem
    }
}

/// The `components/responses` entries with headers that operations use, in
/// order of first use (their Rust names are distinct: `model::names`).
pub(crate) fn shared_responses(operations: &[Operation]) -> Vec<SharedResponse> {
    let mut shared: Vec<SharedResponse> = Vec::new();
    for response in operations.iter().flat_map(|operation| {
        operation
            .responses
            .iter()
            .chain(&operation.default_response)
    }) {
        let Some(name) = &response.shared else {
            continue;
        };
        if shared.iter().any(|seen| &seen.name == name) {
            continue;
        }
        shared.push(SharedResponse {
            name: name.clone(),
            description: response.description.clone(),
            schema: response.schema.clone(),
            headers: response.headers.clone(),
        });
    }
    shared
}
