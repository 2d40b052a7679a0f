//! Stage 2: check the loaded spec against what the generators support and
//! distil it into an [`ApiModel`], the view the emitters work from.
//!
//! Every rule the emitters (and progenitor underneath them) rely on is checked
//! here, once, with a message that points into the spec. Emitters may then
//! assume a well-formed model instead of panicking on surprises.
//!
//! - [`refs`]: every `$ref` resolves; the one lookup of components.
//! - `schemas`: raw-JSON checks of every schema.
//! - `paths`: path templates and the server URL's path.
//! - `operations`: each operation's parameters, body, responses, security.
//! - `names`: spec names that would become one Rust identifier.
//! - [`pattern`]: which `pattern`s the `regex` crate may run, and how.
//! - [`validation`]: the request-body rules the server checks, compiled from
//!   the schemas into [`validation::Check`]s.

pub mod names;
mod operations;
mod paths;
pub mod pattern;
pub mod refs;
mod schemas;
pub mod validation;

use std::collections::BTreeMap;

use openapiv3::{OpenAPI, ReferenceOr};

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::load::LoadedSpec;

/// Media type of JSON bodies; every body and every response uses it.
pub const JSON: &str = "application/json";
/// Media type of form bodies, accepted besides JSON on request bodies.
pub const FORM: &str = "application/x-www-form-urlencoded";
/// Media type of uploads, received as bytes and sent as a multipart form.
pub const MULTIPART: &str = "multipart/form-data";
/// Request media types passed to the server as bytes, when a body offers
/// neither JSON nor a form.
pub const RAW: &[&str] = &["application/octet-stream", "text/plain", MULTIPART];

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
    /// Responses declared under `components/responses` and used by an
    /// operation, with headers: each becomes one type, whichever operations
    /// return it.
    pub shared_responses: Vec<SharedResponse>,
    /// The checks of every schema a request body uses, by schema name.
    pub validators: Vec<validation::Validator>,
    /// How the router's own errors are answered unless the implementation
    /// says otherwise.
    pub error_shape: ErrorShape,
}

/// The default body of the router's own errors (400, 401, 404, 415, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorShape {
    /// `{statusCode, error, message, errorCode, errors}`: the spec's error
    /// schemas document it.
    Platform,
    /// RFC 9457 `application/problem+json`.
    Problem,
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
    /// The `operationId` as the spec spells it (the Rust name is
    /// [`crate::naming::method_name`] of it).
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
    /// The `default` response: the body (and headers) of any 4xx or 5xx
    /// status `responses` does not list. Its `status` is [`DEFAULT_STATUS`].
    pub default_response: Option<Response>,
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
}

/// A parameter of an operation: in the path, the query or a header.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameter {
    /// The name as the spec spells it, on the wire.
    pub name: String,
    /// The name its identifiers are made from ([`crate::naming::field_name`],
    /// [`crate::naming::method_name`] of it): `name`, or `name` with a suffix where
    /// another parameter of the operation has the same identifier
    /// ([`names::parameter_code_names`]).
    pub code_name: String,
    pub location: ParameterLocation,
    /// Path parameters are always required.
    pub required: bool,
    pub description: Option<String>,
    /// What the text of the parameter is read as.
    pub shape: ParameterShape,
    /// The rules of its schema the server checks once the text is read
    /// (lengths, enums, bounds, patterns); `Check::Any` when there are none.
    pub check: validation::Check,
}

/// Where a parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ParameterLocation {
    Path,
    Query,
    Header,
}

impl ParameterLocation {
    /// The spelling of OpenAPI's `in`.
    pub fn as_str(self) -> &'static str {
        match self {
            ParameterLocation::Path => "path",
            ParameterLocation::Query => "query",
            ParameterLocation::Header => "header",
        }
    }
}

/// The type a parameter's text is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParameterShape {
    Scalar(Scalar),
    /// A list, in the query as repeated `name=value` pairs (`style: form`,
    /// `explode: true`).
    List(Scalar),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    String,
    Integer,
    Number,
    Boolean,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RequestBody {
    /// `required: true`; an optional body reaches the trait as an `Option`,
    /// `None` when the request has no body.
    pub required: bool,
    /// Name of the component schema describing the body; `None` for a body
    /// passed through as bytes (a file, `multipart/form-data`), which only
    /// media types without a typed schema offer.
    pub schema: Option<String>,
    /// Accepted media types, JSON first.
    pub content_types: Vec<String>,
}

/// The [`Response::status`] of an operation's `default` response, which
/// stands for every error status the operation does not list.
pub const DEFAULT_STATUS: u16 = 0;

#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The status code, or [`DEFAULT_STATUS`] for the `default` response.
    pub status: u16,
    pub description: String,
    /// Name of the component schema of the JSON body, if the response has one.
    pub schema: Option<String>,
    /// The media type of a body passed through as bytes (not JSON), if the
    /// response has one.
    pub raw_media_type: Option<String>,
    pub headers: Vec<ResponseHeader>,
    /// The `components/responses` entry this response refers to, when it is
    /// one of [`ApiModel::shared_responses`].
    pub shared: Option<String>,
}

impl Response {
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// Whether the response answers errors: a 4xx or 5xx, or the `default`
    /// response (which carries only errors the operation does not list).
    pub fn is_error(&self) -> bool {
        self.status >= 400 || self.is_default()
    }

    pub fn is_default(&self) -> bool {
        self.status == DEFAULT_STATUS
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
    Number,
    Boolean,
    String,
}

/// A response under `components/responses` with headers, generated once.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedResponse {
    /// The component's name (the Rust name is [`crate::naming::type_name`] of it).
    pub name: String,
    pub description: String,
    pub schema: Option<String>,
    pub headers: Vec<ResponseHeader>,
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
    refs::check_references(spec)?;
    schemas::check_schemas(spec)?;
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
            // Operation parameters override path-item ones of the same name
            // and location; each keeps its pointer.
            let mut parameters: Vec<(String, ReferenceOr<openapiv3::Parameter>)> = Vec::new();
            let listed = pointed(&path_pointer, &item.parameters)
                .chain(pointed(&pointer, &operation.parameters));
            for (parameter_pointer, parameter) in listed {
                let key = parameter_key(spec, &parameter_pointer, parameter);
                parameters.retain(|(seen_pointer, seen)| {
                    key.is_none() || parameter_key(spec, seen_pointer, seen) != key
                });
                parameters.push((parameter_pointer, parameter.clone()));
            }
            let mut operation = operations::build_operation(
                spec,
                openapi,
                &components,
                operations::OperationSite {
                    path,
                    method,
                    pointer: &pointer,
                },
                operation,
                &parameters,
            )?;
            let id_pointer = pointer_join(&pointer, "operationId");
            if let Some(first) = seen_ids.insert(operation.id.clone(), pointer.clone()) {
                return Err(spec.error_at(
                    &id_pointer,
                    format!(
                        "duplicate operationId `{}`, already used at {first}",
                        operation.id
                    ),
                ));
            }
            let code_names = names::parameter_code_names(&spec.document, &pointer);
            for parameter in &mut operation.parameters {
                if let Some(named) = code_names.iter().find(|named| {
                    named.name == parameter.name && named.location == parameter.location.as_str()
                }) {
                    parameter.code_name = named.code_name.clone();
                }
            }
            operations.push(operation);
        }
    }
    if operations.is_empty() {
        return Err(spec.error_at("/paths", "the spec's paths hold no operations"));
    }
    let error_shape = operations::error_shape(spec, &operations);
    let shared_responses = operations::shared_responses(&operations);
    let validators = validation::compile(spec, &operations)?;

    Ok(ApiModel {
        openapi: openapi.clone(),
        title: openapi.info.title.clone(),
        version: openapi.info.version.clone(),
        description: openapi.info.description.clone(),
        base_path: paths::base_path(spec, openapi)?,
        operations,
        schema_names: components.schemas.keys().cloned().collect(),
        shared_responses,
        validators,
        error_shape,
    })
}

/// Each parameter of `parameters` with its pointer, under `owner`.
fn pointed<'a, T>(owner: &str, parameters: &'a [T]) -> impl Iterator<Item = (String, &'a T)> {
    let list = pointer_join(owner, "parameters");
    parameters
        .iter()
        .enumerate()
        .map(move |(index, parameter)| (pointer_join(&list, &index.to_string()), parameter))
}

/// A parameter's name and location, read from the raw document (following a
/// `$ref`), to tell an override from a new parameter.
fn parameter_key(
    spec: &LoadedSpec,
    pointer: &str,
    parameter: &ReferenceOr<openapiv3::Parameter>,
) -> Option<(String, String)> {
    let raw = match parameter {
        ReferenceOr::Item(_) => spec.document.pointer(pointer)?,
        ReferenceOr::Reference { reference } => {
            spec.document.pointer(reference.trim_start_matches('#'))?
        }
    };
    Some((
        raw.get("name")?.as_str()?.to_string(),
        raw.get("in")?.as_str()?.to_string(),
    ))
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
