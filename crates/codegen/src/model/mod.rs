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
//! - `operations`: each operation's body, responses, security.
//! - `parameters`: each operation's parameters: location, style, shape.
//! - `names`: spec names that would become one Rust identifier.
//! - [`pattern`]: which `pattern`s the `regex` crate may run, and how.
//! - [`validation`]: the request-body rules the server checks, compiled from
//!   the schemas into [`validation::Check`]s.

mod names;
mod operations;
pub(crate) mod parameters;
mod paths;
pub mod pattern;
pub mod refs;
mod schemas;
pub mod validation;

use std::collections::BTreeMap;

use openapiv3::{OpenAPI, ReferenceOr};

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::load::LoadedSpec;
use crate::naming;

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
    /// [`naming::method_name`] of it).
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

/// A parameter of an operation: in the path, the query, a header or a cookie.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameter {
    /// The name as the spec spells it (the Rust name is [`naming::method_name`] of it).
    pub name: String,
    pub location: ParameterLocation,
    /// Path parameters are always required.
    pub required: bool,
    pub description: Option<String>,
    /// How the value is written as text (`style`; a parameter described
    /// with `content` has its location's default).
    pub style: ParameterStyle,
    /// `explode`, or its default: `true` for `form`, `false` otherwise.
    pub explode: bool,
    /// What the text of the parameter is read as.
    pub shape: ParameterShape,
    /// The Rust type the server gives the value.
    pub value: ValueType,
    /// The rules of its schema the server checks once the text is read
    /// (lengths, enums, bounds, patterns); `Check::Any` when there are none.
    pub check: validation::Check,
}

impl Parameter {
    /// Whether progenitor's client writes the parameter exactly as the spec
    /// says: a scalar in the path or a header (`simple`), or a scalar or a
    /// list of scalars in the query (`form`, exploded), of a type that is not
    /// an object or a combination of schemas. The client crate writes every
    /// other parameter itself (`emit::client`).
    pub fn sent_by_progenitor(&self) -> bool {
        // Objects and combinations are typed by name, which progenitor's
        // builders cannot take (`model::parameters::combines_several`).
        if matches!(
            self.value,
            ValueType::Named(_) | ValueType::Scalar(Scalar::Json)
        ) {
            return false;
        }
        let scalar = matches!(&self.shape, ParameterShape::Scalar(kind) if *kind != Scalar::Json);
        let list = matches!(&self.shape, ParameterShape::List(kind) if *kind != Scalar::Json);
        match self.location {
            ParameterLocation::Path | ParameterLocation::Header => {
                self.style == ParameterStyle::Simple && scalar
            }
            ParameterLocation::Query => {
                self.style == ParameterStyle::Form && self.explode && (scalar || list)
            }
            ParameterLocation::Cookie => false,
        }
    }

    /// Whether the parameter keeps its location's default style (and
    /// `explode`).
    pub fn has_default_style(&self) -> bool {
        self.style == ParameterStyle::default_for(self.location)
            && self.explode == (self.style == ParameterStyle::Form)
    }
}

/// Where a parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ParameterLocation {
    Path,
    Query,
    Header,
    Cookie,
}

impl ParameterLocation {
    /// The spelling of OpenAPI's `in`.
    pub fn as_str(self) -> &'static str {
        match self {
            ParameterLocation::Path => "path",
            ParameterLocation::Query => "query",
            ParameterLocation::Header => "header",
            ParameterLocation::Cookie => "cookie",
        }
    }
}

/// OpenAPI's `style`: how a value, a list or an object is written as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParameterStyle {
    /// `name=value`; lists `name=a,b` or repeated, objects `name=k,v` or
    /// `k=v&..` (query, cookie).
    Form,
    /// `name=a%20b` (query).
    SpaceDelimited,
    /// `name=a|b` (query).
    PipeDelimited,
    /// `name[k]=v` (query).
    DeepObject,
    /// `a,b`, objects `k,v` or `k=v,..` (path, header).
    Simple,
    /// `.a.b` or `.a,b` (path).
    Label,
    /// `;name=a;name=b` or `;name=a,b` (path).
    Matrix,
}

impl ParameterStyle {
    /// The style of a parameter that names none (or is described with
    /// `content`).
    pub fn default_for(location: ParameterLocation) -> Self {
        match location {
            ParameterLocation::Path | ParameterLocation::Header => ParameterStyle::Simple,
            ParameterLocation::Query | ParameterLocation::Cookie => ParameterStyle::Form,
        }
    }
}

/// The type a parameter's text is read as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParameterShape {
    Scalar(Scalar),
    /// A list, its items written as the style says.
    List(Scalar),
    /// An object, its entries written as the style says.
    Object(ObjectShape),
}

/// The entries an object-valued parameter may have, and how each is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectShape {
    /// Declared properties, in spec order.
    pub properties: Vec<(String, Scalar)>,
    /// How other entries are read; `None` when the object takes only its
    /// declared properties.
    pub others: Option<Scalar>,
}

/// How one piece of text (a value, an item, an entry's value) is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    String,
    Integer,
    Number,
    Boolean,
    /// JSON text: a `content: application/json` parameter, or a list item or
    /// an entry whose schema is itself a list or an object, which no style
    /// can write (the client writes them as JSON, a widespread convention).
    Json,
}

/// The Rust type the server reads a parameter's value as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueType {
    /// `String`, `i64`, `f64`, `bool`, or any JSON value for
    /// [`Scalar::Json`].
    Scalar(Scalar),
    /// A `Vec` of them.
    List(Scalar),
    /// The types crate's type of this component schema.
    Named(String),
    /// A `Vec` of it.
    NamedList(String),
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
    /// The component's name (the Rust name is [`naming::type_name`] of it).
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
    names::check_schema_names(spec)?;
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
    let mut method_names = naming::NameTable::default();
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
            let operation = operations::build_operation(
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
            names::insert(
                spec,
                &mut method_names,
                naming::method_name(&operation.id),
                &operation.id,
                &id_pointer,
                "operationId",
            )?;
            operations.push(operation);
        }
    }
    if operations.is_empty() {
        return Err(spec.error_at("/paths", "the spec's paths hold no operations"));
    }
    let error_shape = operations::error_shape(spec, &operations);
    let shared_responses = operations::shared_responses(spec, &operations)?;
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
