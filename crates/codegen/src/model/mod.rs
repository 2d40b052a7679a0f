//! Stage 2: check the loaded spec against what the generators support and
//! distil it into an [`ApiModel`], the view the emitters work from.
//!
//! Every rule the emitters (and progenitor underneath them) rely on is checked
//! here, once, with a message that points into the spec. Emitters may then
//! assume a well-formed model instead of panicking on surprises.
//!
//! - [`refs`]: the one way a `$ref` is followed, to a value or a component.
//! - `schemas`: raw-JSON checks of every schema.
//! - `paths`: path templates and the server URL's path.
//! - `operations`: each operation's body, responses, security.
//! - `parameters`: each operation's parameters: location, style, shape.
//! - `names`: spec names that would become one Rust identifier.
//! - [`pattern`]: which `pattern`s the `regex` crate may run, and how.
//! - [`streams`]: responses sent as a series of items, and their items'
//!   schemas.
//! - [`validation`]: the request-body rules the server checks, compiled from
//!   the schemas into [`validation::Check`]s.

pub mod discriminator;
pub mod form;
mod license;
pub mod names;
mod operations;
pub(crate) mod parameters;
pub mod paths;
pub mod pattern;
pub mod refs;
mod schemas;
pub mod streams;
pub mod validation;

use std::collections::BTreeMap;

use openapiv3::{OpenAPI, ReferenceOr};
use serde_json::Value;

use crate::diagnostic::{Diagnostic, Diagnostics, pointer_join};
use crate::load::LoadedSpec;

/// Media type of JSON bodies.
pub const JSON: &str = "application/json";
/// Media type of form bodies.
pub const FORM: &str = "application/x-www-form-urlencoded";
/// Media type of uploads, received as bytes and sent as a multipart form.
pub const MULTIPART: &str = "multipart/form-data";

/// A media type without its parameters, in lower case
/// (`Application/JSON; charset=utf-8` is `application/json`).
pub fn essence(media_type: &str) -> String {
    media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// Whether bodies of `media_type` are JSON: `application/json` or any
/// structured syntax `+json` suffix (`application/merge-patch+json`,
/// `application/problem+json`), parameters aside.
pub fn is_json(media_type: &str) -> bool {
    let essence = essence(media_type);
    essence == JSON || essence.ends_with("+json")
}

/// The media type a request body is sent in by the generated client, among
/// the spec's `offered` ones: JSON when offered (plain `application/json`
/// first), else a form, else the first one passed as bytes (a file before
/// text before an upload, since those are what progenitor sends itself).
/// The server accepts each of them.
pub fn sent_media_type<'a>(offered: &[&'a str]) -> Option<&'a str> {
    let rank = |media_type: &str| {
        let essence = essence(media_type);
        match essence.as_str() {
            JSON => 0,
            _ if is_json(&essence) => 1,
            FORM => 2,
            "application/octet-stream" => 3,
            "text/plain" => 4,
            MULTIPART => 5,
            _ => 6,
        }
    };
    offered
        .iter()
        .copied()
        .min_by_key(|media_type| rank(media_type))
}

/// How a response's body travels, read from its `content` (as the document
/// has it, media type to media type object): JSON typed by its schema when
/// every media type is JSON with one schema, and the media type and schema
/// to send; `None` otherwise (no body, or bytes). The one rule for the
/// model and for progenitor's view of the spec.
pub fn json_response_body(
    content: &serde_json::Map<String, serde_json::Value>,
) -> Option<(&str, &serde_json::Value)> {
    // A stream beside the JSON is typed apart (`streams::stream_entry`).
    let stream = streams::stream_entry(content).map(|(media_type, _)| media_type);
    let mut bodies = content
        .iter()
        .filter(|(media_type, _)| Some(media_type.as_str()) != stream);
    let (first_type, first) = bodies.next()?;
    let schema = first.get("schema")?;
    (is_json(first_type)
        && bodies
            .all(|(media_type, entry)| is_json(media_type) && entry.get("schema") == Some(schema)))
    .then_some((first_type.as_str(), schema))
}

/// The API as the emitters see it.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiModel {
    /// The whole document as typed OpenAPI, for emitters built on progenitor.
    pub openapi: OpenAPI,
    pub title: String,
    pub version: String,
    /// The SPDX expression of `info.license`, when it gives one
    /// (`model::license`).
    pub license: Option<String>,
    pub description: Option<String>,
    /// The path of the first server URL, e.g. `/api/v2`; empty when none.
    pub base_path: String,
    /// Operations in document order.
    pub operations: Vec<Operation>,
    /// The webhooks (OpenAPI 3.1): requests the API sends to its
    /// subscribers, each operation of each in document order, served at
    /// [`crate::walk::webhook_route`] of its name. Their names are distinct
    /// from the operations'.
    pub webhooks: Vec<Operation>,
    /// Names of the component schemas in document order.
    pub schema_names: Vec<String>,
    /// Responses declared under `components/responses` and used by an
    /// operation, with headers: each becomes one type, whichever operations
    /// return it.
    pub shared_responses: Vec<SharedResponse>,
    /// The checks of every schema a request body uses, by schema name.
    pub validators: Vec<validation::Validator>,
    /// How the text fields of the form bodies become their schemas' JSON.
    pub form_shapes: form::FormShapes,
    /// How the router's own errors are answered unless the implementation
    /// says otherwise.
    pub error_shape: ErrorShape,
    /// The generated crates' package names: from `info.x-rust-crate-prefix`,
    /// else from the title (the command line may override both).
    pub crates: crate::naming::CrateNames,
    /// The unions whose discriminator decides their member.
    pub unions: Vec<discriminator::Union>,
}

/// The body limit of a generated router unless a spec's bounds need more:
/// `openapi_crates_runtime::RouterOptions::default().body_limit` (the mock's
/// tests check the two agree).
pub const DEFAULT_BODY_LIMIT: usize = 64 * 1024;

/// The most bytes one character of a JSON string can take: a character
/// beyond the Basic Multilingual Plane written as two `\uXXXX` escapes.
const JSON_BYTES_PER_CHAR: usize = 12;

impl ApiModel {
    /// The body limit the router needs where [`DEFAULT_BODY_LIMIT`] would
    /// refuse, with 413, a body the spec allows: twice the longest string
    /// of a request body (`maxLength` characters of up to
    /// 12 bytes each, two `\uXXXX` escapes), room for that string and as
    /// much again of other fields. `None` when the default is enough.
    /// (Many strings or long arrays can add up past any limit; the limit
    /// stays a guard against hostile clients, raised only as far as the
    /// spec's own longest string needs.)
    pub fn body_limit(&self) -> Option<usize> {
        self.validators
            .iter()
            .filter_map(|validator| validator.check.largest_max_length())
            .max()
            .map(|chars| chars.saturating_mul(2 * JSON_BYTES_PER_CHAR))
            .filter(|&bytes| bytes > DEFAULT_BODY_LIMIT)
    }
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

pub use crate::vocabulary::Method;

#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// The `operationId` as the spec spells it (the Rust name is
    /// [`crate::naming::method_name`] of it).
    pub id: String,
    pub method: Method,
    /// The path template relative to the server URL, e.g. `/actions/modules/{id}`;
    /// without the query of a path key such as `/responses?beta=true`.
    pub path: String,
    /// The fixed query of a path key such as `/responses?beta=true`
    /// (`beta=true`), as written; empty for most. The operation answers the
    /// requests to [`Operation::path`] whose query has each of its pairs, so
    /// several operations may share a path and method.
    pub fixed_query: String,
    /// The fragment of a path key such as `/oauth2/token#refresh`, which no
    /// request carries: it names a view of the requests another operation
    /// answers.
    pub fragment: String,
    /// The operation whose handler answers this one's requests, when they
    /// cannot be told apart from its (their path keys differ by a fragment
    /// only). The client has a method for each; the server serves the one.
    pub served_by: Option<String>,
    /// JSON pointer to the operation in the spec.
    pub pointer: String,
    /// The webhook's name, for an operation of `webhooks` (its `path` is
    /// then the route the webhooks router serves it at).
    pub webhook: Option<String>,
    pub summary: Option<String>,
    pub description: Option<String>,
    pub tags: Vec<String>,
    pub parameters: Vec<Parameter>,
    pub request_body: Option<RequestBody>,
    /// Responses of one status or of a range (`4XX`), by status class, each
    /// class's codes before its range. The one 1xx among them is the `101`
    /// of an operation that upgrades to WebSocket ([`Operation::upgrades`]).
    pub responses: Vec<Response>,
    /// The `default` response: the body (and headers) of any status
    /// `responses` neither lists nor covers with a range, a 2xx only when
    /// they document no success. Its `status` is [`Status::Default`].
    pub default_response: Option<Response>,
    /// Alternative security requirements; any one satisfies the operation.
    /// Empty when the operation is public.
    pub security: Vec<SecurityRequirement>,
    /// Whether the operation may also be called without a credential: one
    /// of its `security` requirements beside others is empty (`{}`). The
    /// server then hands its method an optional caller, which is `None`
    /// for a request carrying no credential of its schemes.
    pub anonymous: bool,
    /// The `x-release-lifecycle` label, when the operation has one.
    pub release_lifecycle: Option<String>,
    /// `x-idempotent: true`: the operation may be applied twice with the
    /// effect of once, whatever its method, so the client retries it as it
    /// retries a `PUT`.
    pub idempotent: bool,
}

/// `path` (a path template, base path included) as a router matches it:
/// literal characters a URI path cannot hold as they are (`<`, a space,
/// non-ASCII) percent-encoded, as RFC 3986 has clients send them
/// (`/<upload_url>` is matched as `/%3Cupload_url%3E`); `{parameters}`
/// kept.
pub fn route_path(path: &str) -> String {
    let mut route = String::with_capacity(path.len());
    let mut in_parameter = false;
    for character in path.chars() {
        match character {
            '{' => in_parameter = true,
            '}' => in_parameter = false,
            _ => {}
        }
        let kept = in_parameter
            || character.is_ascii_alphanumeric()
            || "-._~!$&'()*+,;=:@/%{}".contains(character);
        if kept {
            route.push(character);
        } else {
            let mut bytes = [0; 4];
            for byte in character.encode_utf8(&mut bytes).bytes() {
                route.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    route
}

impl Operation {
    /// The path key as the spec writes it: the path and its fixed query.
    pub fn path_key(&self) -> String {
        let mut key = self.path.clone();
        if !self.fixed_query.is_empty() {
            key.push('?');
            key.push_str(&self.fixed_query);
        }
        if !self.fragment.is_empty() {
            key.push('#');
            key.push_str(&self.fragment);
        }
        key
    }

    /// The pairs of the fixed query, in a canonical order (`b=2&a=1` and
    /// `a=1&b=2` are one query).
    pub fn fixed_query_pairs(&self) -> Vec<&str> {
        let mut pairs: Vec<&str> = self
            .fixed_query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// Whether the spec documents no response at all (OpenAPI 3.1 lets an
    /// operation leave `responses` out): the implementation may answer
    /// anything.
    pub fn documents_no_response(&self) -> bool {
        self.responses.is_empty() && self.default_response.is_none()
    }

    /// Whether the operation may answer `101 Switching Protocols`, turning
    /// the request's connection into a WebSocket connection.
    pub fn upgrades(&self) -> bool {
        self.responses.iter().any(Response::is_upgrade)
    }

    /// Whether a 2xx is documented, by its code or by `2XX`.
    pub fn documents_success(&self) -> bool {
        self.responses.iter().any(Response::is_success)
    }

    /// The operation's security requirements, each the schemes needed
    /// together, in the spec's order (an empty one, see `anonymous`, left
    /// out); repeated requirements once.
    pub fn requirements(&self) -> Vec<Vec<&SecurityRequirement>> {
        let mut requirements: Vec<Vec<&SecurityRequirement>> = Vec::new();
        let mut index = None;
        for scheme in &self.security {
            if index != Some(scheme.requirement) {
                requirements.push(Vec::new());
                index = Some(scheme.requirement);
            }
            requirements.last_mut().expect("pushed").push(scheme);
        }
        let schemes = |requirement: &[&SecurityRequirement]| -> Vec<(String, Vec<String>)> {
            requirement
                .iter()
                .map(|scheme| (scheme.scheme.clone(), scheme.scopes.clone()))
                .collect()
        };
        let mut distinct: Vec<Vec<&SecurityRequirement>> = Vec::new();
        for requirement in requirements {
            if !distinct
                .iter()
                .any(|known| schemes(known) == schemes(&requirement))
            {
                distinct.push(requirement);
            }
        }
        distinct
    }

    /// Who calls the operation, as its server method receives the caller.
    pub fn caller(&self) -> Caller {
        if self.security.is_empty() {
            Caller::Nobody
        } else if self.anonymous {
            Caller::Optional
        } else {
            Caller::Required
        }
    }

    /// The limit of a body that streams ([`BodyKind::streams`]): the
    /// spec's `maxLength` where every streamed kind has one, else
    /// `None`, for the runtime's `STREAMED_BODY_LIMIT`. `Some(None)`
    /// stands for that default; `None` when no kind streams.
    pub fn streamed_body_limit(&self) -> Option<Option<u64>> {
        let kinds: Vec<&BodyKind> = self
            .request_body
            .as_ref()?
            .kinds
            .iter()
            .filter(|kind| kind.streams())
            .collect();
        if kinds.is_empty() {
            return None;
        }
        Some(
            kinds
                .iter()
                .map(|kind| kind.max_bytes)
                .collect::<Option<Vec<u64>>>()
                .and_then(|limits| limits.into_iter().max()),
        )
    }

    /// Whether a requirement needs several schemes together.
    pub fn needs_schemes_together(&self) -> bool {
        self.requirements()
            .iter()
            .any(|requirement| requirement.len() > 1)
    }

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

/// Who calls an operation ([`Operation::caller`]): the server method's
/// context holds `()`, the verified caller, or an optional one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caller {
    /// The operation is public: there is no caller to verify.
    Nobody,
    /// Every request carries credentials `authorize` verifies.
    Required,
    /// An empty requirement lets a request without credentials in: `None`.
    Optional,
}

impl Caller {
    /// The caller type of the server method's `RequestContext`, for a
    /// trait whose verified identity is `identity`.
    pub fn rust_type(self, identity: &str) -> String {
        match self {
            Caller::Nobody => "()".to_string(),
            Caller::Required => identity.to_string(),
            Caller::Optional => format!("Option<{identity}>"),
        }
    }
}

/// A parameter of an operation: in the path, the query, a header or a cookie.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameter {
    /// The name as the spec spells it, on the wire.
    pub name: String,
    /// The name its identifiers are made from ([`crate::naming::field_name`],
    /// [`crate::naming::method_name`] of it): `name`, or `name` with a suffix where
    /// another parameter of the operation has the same identifier
    /// ([`names::parameter_code_names`]).
    pub code_name: String,
    pub location: In,
    /// Path parameters are always required.
    pub required: bool,
    pub description: Option<String>,
    /// How the value is written as text: `style` and `explode` lowered to
    /// the text they write (a parameter described with `content` has its
    /// location's default).
    pub style: Style,
    /// What the text of the parameter is read as.
    pub shape: Shape,
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
        let scalar = matches!(&self.shape, Shape::Scalar(kind) if *kind != Scalar::Json);
        let list = matches!(&self.shape, Shape::List(kind) if *kind != Scalar::Json);
        match self.location {
            In::Path | In::Header => matches!(self.style, Style::Simple { .. }) && scalar,
            In::Query => self.style == Style::Form { explode: true } && (scalar || list),
            In::Cookie => false,
        }
    }

    /// Whether the parameter is written in its location's default style.
    pub fn has_default_style(&self) -> bool {
        self.style == self.location.default_style()
    }
}

/// A parameter's serialization is the runtime's own values: the model lowers
/// each parameter into them once, and every consumer reads them as they are.
pub use openapi_crates_runtime::wire::{Entries, In, Name, Scalar, Shape, Style};

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
    /// What the body may be: one kind per schema (media types with the same
    /// schema share one), JSON first, then forms, then one kind passed as
    /// bytes for every other media type, then `multipart/form-data`, passed
    /// as its parts. The trait takes the one kind's type,
    /// or an enum with a variant per kind.
    pub kinds: Vec<BodyKind>,
    /// The media type the generated client sends ([`sent_media_type`]).
    pub sent: String,
}

impl RequestBody {
    /// The schemas of the typed kinds.
    pub fn schemas(&self) -> impl Iterator<Item = &str> {
        self.kinds.iter().filter_map(|kind| kind.schema.as_deref())
    }

    /// The schemas the server checks a body against: the typed kinds' and
    /// those of multipart parts.
    pub fn checked_schemas(&self) -> impl Iterator<Item = &str> {
        self.kinds.iter().flat_map(|kind| {
            kind.schema
                .as_deref()
                .into_iter()
                .chain(kind.parts.as_deref())
        })
    }

    /// The body's kind when it has one only.
    pub fn single(&self) -> Option<&BodyKind> {
        match &self.kinds[..] {
            [kind] => Some(kind),
            _ => None,
        }
    }
}

/// One kind of request body: a schema and the media types that carry it.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyKind {
    /// Name of the component schema describing the body (JSON or a form);
    /// `None` for a body passed through as bytes (a file, an upload, XML,
    /// text), its media type checked.
    pub schema: Option<String>,
    /// Accepted media types, without parameters ([`essence`]), JSON first.
    pub media_types: Vec<String>,
    /// For the `multipart/form-data` kind with a named schema: that schema,
    /// which the parts are checked against (each part a field, its text
    /// read as a form's).
    pub parts: Option<String>,
    /// For a kind passed as bytes, the most bytes the spec allows: the
    /// `maxLength` of a media type's binary string (of the largest, where
    /// each has one).
    pub max_bytes: Option<u64>,
}

impl BodyKind {
    /// Whether the body reaches the server's method as a stream of bytes,
    /// never whole in memory: a kind passed as bytes whose every media type
    /// is binary (a file, an image, `application/octet-stream`, `*/*`).
    /// Text (`text/*`, XML) is read whole under the router's limit.
    pub fn streamed(&self) -> bool {
        self.schema.is_none()
            && self
                .media_types
                .iter()
                .all(|media_type| is_binary(media_type))
    }

    /// Whether this is the `multipart/form-data` kind, which reaches the
    /// server's method as its parts, as they arrive.
    pub fn is_multipart(&self) -> bool {
        self.schema.is_none() && self.media_types == [MULTIPART]
    }

    /// Whether the body is never whole in memory: its bytes stream
    /// ([`BodyKind::streamed`]), or its parts do (multipart), under the
    /// operation's streamed limit.
    pub fn streams(&self) -> bool {
        self.streamed() || self.is_multipart()
    }
}

/// Whether bodies of `media_type` are binary: not text, XML, JSON, a form
/// or multipart.
pub fn is_binary(media_type: &str) -> bool {
    let essence = essence(media_type);
    !(essence.starts_with("text/")
        || essence.starts_with("multipart/")
        || essence == FORM
        || essence == "application/xml"
        || essence.ends_with("+xml")
        || is_json(&essence)
        || streams::Framing::of(&essence).is_some())
}

/// The status of a response: one code, a range, or `default`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A code from 200 to 599, or 101 (an upgrade, [`Response::is_upgrade`]).
    Code(u16),
    /// A range such as `4XX`, by its first digit (2 to 5): every status of
    /// the class the operation does not list.
    Range(u16),
    /// The `default` response.
    Default,
}

impl Status {
    /// The status class (4 for 404 and for `4XX`); 0 for `default`.
    pub fn class(self) -> u16 {
        match self {
            Status::Code(code) => code / 100,
            Status::Range(class) => class,
            Status::Default => 0,
        }
    }

    /// The order of an operation's responses: by class, each class's codes
    /// before its range, `default` last.
    pub fn sort_key(self) -> (u16, u16) {
        match self {
            Status::Code(code) => (code / 100, code),
            Status::Range(class) => (class, u16::MAX),
            Status::Default => (u16::MAX, u16::MAX),
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Status::Code(code) => write!(f, "{code}"),
            Status::Range(class) => write!(f, "{class}XX"),
            Status::Default => f.write_str("default"),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub status: Status,
    pub description: String,
    /// Name of the component schema of the JSON body, if the response has one.
    pub schema: Option<String>,
    /// The media types of the body, without parameters: the one JSON media
    /// type a typed body is sent in, or those of a body passed through as
    /// bytes (an image, a CSV file, or several media types among which the
    /// implementation picks). Empty without a body, and for a response that
    /// is only a [`Response::stream`].
    pub media_types: Vec<String>,
    pub headers: Vec<ResponseHeader>,
    /// The `components/responses` entry this response refers to, when it is
    /// one of [`ApiModel::shared_responses`].
    pub shared: Option<String>,
    /// The series of items the response may send instead of (or besides)
    /// the body of `schema` ([`streams`]).
    pub stream: Option<ItemStream>,
}

/// A response sent as a series of items ([`streams`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ItemStream {
    pub framing: streams::Framing,
    /// The sequential media type, without parameters.
    pub media_type: String,
    /// What each item is (each event's `data`, for events).
    pub item: ItemType,
}

/// The type of each item of an [`ItemStream`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemType {
    /// The types crate's type of this component schema.
    Named(String),
    /// Text, as it is sent.
    Text,
    /// Any JSON value.
    Json,
}

impl Response {
    pub fn is_success(&self) -> bool {
        self.status.class() == 2
    }

    /// Whether the response answers errors: a 4xx or 5xx, or the `default`
    /// response (which carries the errors the operation does not list).
    pub fn is_error(&self) -> bool {
        self.status.class() >= 4 || self.is_default()
    }

    pub fn is_default(&self) -> bool {
        self.status == Status::Default
    }

    /// Whether the response is a `101 Switching Protocols`: the request's
    /// connection becomes a WebSocket connection, and the response has no
    /// body.
    pub fn is_upgrade(&self) -> bool {
        self.status == Status::Code(101)
    }

    /// Whether the response has a body: one value, bytes, or a stream.
    pub fn has_body(&self) -> bool {
        !self.media_types.is_empty() || self.stream.is_some()
    }

    /// Whether the body is passed through as bytes.
    pub fn is_raw(&self) -> bool {
        self.schema.is_none() && !self.media_types.is_empty()
    }

    /// The `Content-Type` of a body passed as bytes when the spec fixes it:
    /// one media type, not a range such as `image/*`. Otherwise the
    /// implementation picks it among [`Response::media_types`].
    pub fn fixed_content_type(&self) -> Option<&str> {
        match &self.media_types[..] {
            [media_type] if self.is_raw() && !media_type.contains('*') => Some(media_type),
            _ => None,
        }
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
    /// The JSON media type of the body, when it has one.
    pub media_types: Vec<String>,
    pub headers: Vec<ResponseHeader>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SecurityRequirement {
    pub scheme: String,
    pub scopes: Vec<String>,
    /// Which requirement object of the operation's `security` this scheme
    /// is in: schemes of one object are needed together.
    pub requirement: usize,
    /// Where the scheme's credential travels.
    pub credential: Credential,
    /// The `tokenUrl` of an `oauth2` scheme's client credentials flow, as
    /// written: where a client exchanges its id and secret for tokens.
    pub token_url: Option<String>,
}

/// Where a security scheme's credential travels (`operations::credential`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credential {
    /// `Authorization: Bearer`: an `http` `bearer` scheme, `oauth2`,
    /// `openIdConnect`.
    Bearer,
    /// `Authorization: <scheme> ..` for another `http` scheme, lowercase.
    Http(String),
    /// An `apiKey` in the named header.
    Header(String),
    /// An `apiKey` in the named query parameter.
    Query(String),
    /// An `apiKey` in the named cookie.
    Cookie(String),
}

/// Checks `spec` and builds its model, or reports the first problem found.
pub fn build_model(spec: &LoadedSpec) -> Result<ApiModel, Diagnostics> {
    // The generic checks run on the JSON first: they explain problems that
    // would otherwise surface as a vaguer deserialization error.
    let mut problems = Diagnostics::default();
    problems.keep(schemas::check_schemas(spec));
    // A document that does not deserialize stops here; where the schema
    // checks found problems, they explain it better than serde's message.
    let openapi = match parse_openapi(spec) {
        Ok(openapi) => openapi,
        Err(failure) => {
            if problems.is_empty() {
                problems.push(failure);
            }
            return Err(problems);
        }
    };
    let openapi = &openapi;
    let components = openapi.components.clone().unwrap_or_default();
    let webhook_items = operations::webhook_items(spec)?;

    // Each operation is built even when another is broken, so one run
    // reports every problem of the spec.
    let mut operations = Vec::new();
    let mut webhooks = Vec::new();
    let mut seen_ids: BTreeMap<String, String> = BTreeMap::new();
    for (webhook, path, path_pointer, item) in operations::path_items(openapi, &webhook_items) {
        let path = &path;
        let ReferenceOr::Item(item) = item else {
            problems.push(spec.error_at(
                &path_pointer,
                "path items given by `$ref` are not supported",
            ));
            continue;
        };
        if !path.starts_with('/') {
            problems
                .push(spec.error_at(&path_pointer, format!("path `{path}` must start with `/`")));
            continue;
        }
        let Some(key) = problems
            .keep(paths::split_path_key(path).map_err(|cause| spec.error_at(&path_pointer, cause)))
        else {
            continue;
        };
        for (method_name, operation) in item.iter() {
            let pointer = pointer_join(&path_pointer, method_name);
            let Some(method) = Method::from_key(method_name) else {
                problems.push(spec.error_at(
                    &pointer,
                    format!("the `{method_name}` method is not an HTTP method OpenAPI knows"),
                ));
                continue;
            };
            // The typed parameters the raw document's merge keeps, each
            // with the pointer where it is listed.
            let typed: Vec<(String, &ReferenceOr<openapiv3::Parameter>)> =
                pointed(&path_pointer, &item.parameters)
                    .chain(pointed(&pointer, &operation.parameters))
                    .collect();
            let parameters: Vec<(String, ReferenceOr<openapiv3::Parameter>)> =
                refs::operation_parameters(&spec.document, &pointer)
                    .into_iter()
                    .filter_map(|listed| {
                        let (_, parameter) =
                            typed.iter().find(|(seen, _)| *seen == listed.pointer)?;
                        Some((listed.pointer, (*parameter).clone()))
                    })
                    .collect();
            let built = operations::build_operation(
                spec,
                openapi,
                &components,
                operations::OperationSite {
                    path: &key.path,
                    key: &key,
                    method,
                    pointer: &pointer,
                    webhook,
                },
                operation,
                &parameters,
            );
            let Some(mut operation) = problems.keep(built) else {
                continue;
            };
            let id_pointer = pointer_join(&pointer, "operationId");
            if let Some(first) = seen_ids.insert(operation.id.clone(), pointer.clone()) {
                problems.push(spec.error_at(
                    &id_pointer,
                    format!(
                        "duplicate operationId `{}`, already used at {first}",
                        operation.id
                    ),
                ));
                continue;
            }
            let code_names = names::parameter_code_names(&spec.document, &pointer);
            for parameter in &mut operation.parameters {
                if let Some(named) = code_names.iter().find(|named| {
                    named.name == parameter.name && named.location == parameter.location.as_str()
                }) {
                    parameter.code_name = named.code_name.clone();
                }
            }
            match webhook {
                Some(_) => webhooks.push(operation),
                None => operations.push(operation),
            }
        }
    }
    problems.keep(paths::resolve_shared_keys(spec, &mut operations));
    problems.extend(paths::unroutable(spec, &operations));
    // The server serves the operations no other one serves, and the webhooks.
    let served: Vec<&Operation> = operations
        .iter()
        .filter(|operation| operation.served_by.is_none())
        .chain(&webhooks)
        .collect();
    let error_shape = operations::error_shape(spec, operations.iter().chain(&webhooks));
    let shared_responses = operations::shared_responses(&served);
    let validators = problems.keep(validation::compile(spec, &served));
    let crates = problems.keep(crate_names(spec, &openapi.info));
    let base_path = problems.keep(paths::base_path(spec, openapi));
    let (Some(validators), Some(crates), Some(base_path)) = (validators, crates, base_path) else {
        return Err(problems);
    };

    let form_shapes = form_shapes(&served, &validators);
    problems.or_value(ApiModel {
        openapi: openapi.clone(),
        title: openapi.info.title.clone(),
        version: openapi.info.version.clone(),
        license: license::spdx_license(
            spec.document
                .pointer("/info/license/identifier")
                .and_then(serde_json::Value::as_str),
            openapi
                .info
                .license
                .as_ref()
                .map(|license| license.name.as_str()),
        ),
        description: openapi.info.description.clone(),
        base_path,
        operations,
        webhooks,
        schema_names: components.schemas.keys().cloned().collect(),
        shared_responses,
        validators,
        form_shapes,
        error_shape,
        crates,
        unions: discriminator::unions(&spec.document),
    })
}

/// The shapes of the schemas of the bodies `served` accepts as forms, and
/// of multipart parts.
fn form_shapes(served: &[&Operation], validators: &[validation::Validator]) -> form::FormShapes {
    let roots = served
        .iter()
        .filter_map(|operation| operation.request_body.as_ref())
        .flat_map(|body| &body.kinds)
        .filter_map(|kind| {
            let form = kind.media_types.iter().any(|media_type| media_type == FORM);
            kind.schema
                .as_deref()
                .filter(|_| form)
                .or(kind.parts.as_deref())
        });
    let checks: std::collections::BTreeMap<&str, &validation::Check> = validators
        .iter()
        .map(|validator| (validator.schema.as_str(), &validator.check))
        .collect();
    form::FormShapes::new(roots, &|name| checks.get(name).copied())
}

/// The crates' names: `info.x-rust-crate-prefix` when the spec sets it,
/// else the title's.
fn crate_names(
    spec: &LoadedSpec,
    info: &openapiv3::Info,
) -> Result<crate::naming::CrateNames, Diagnostic> {
    const PREFIX: &str = "x-rust-crate-prefix";
    match info.extensions.get(PREFIX) {
        None => Ok(crate::naming::CrateNames::from_title(&info.title)),
        Some(serde_json::Value::String(prefix)) => {
            match crate::naming::crate_prefix_error(prefix) {
                None => Ok(crate::naming::CrateNames::with_prefix(prefix)),
                Some(cause) => Err(spec.error_at(&pointer_join("/info", PREFIX), cause)),
            }
        }
        Some(_) => Err(spec.error_at(
            &pointer_join("/info", PREFIX),
            format!("`{PREFIX}` must be a string, such as `my-api`"),
        )),
    }
}

/// Each parameter of `parameters` with its pointer, under `owner`.
fn pointed<'a, T>(owner: &str, parameters: &'a [T]) -> impl Iterator<Item = (String, &'a T)> {
    let list = pointer_join(owner, "parameters");
    parameters
        .iter()
        .enumerate()
        .map(move |(index, parameter)| (pointer_join(&list, &index.to_string()), parameter))
}

/// Deserializes the document into `openapiv3` types, reporting the node
/// deserialization stopped at.
pub fn parse_openapi(spec: &LoadedSpec) -> Result<OpenAPI, Diagnostic> {
    serde_path_to_error::deserialize(&spec.document).map_err(|err| {
        let pointer = pointer_of(err.path());
        let (pointer, message) = narrowed(&spec.document, pointer, err.inner().to_string());
        let cause = format!("not a valid OpenAPI 3.0 document: {message}");
        spec.error_at(&pointer, cause)
    })
}

/// The smallest part of the document under `pointer` that fails to
/// deserialize alone, with its message: serde loses the path inside
/// untagged and flattened types (`ReferenceOr`, a map with extensions),
/// so a broken response deep in `paths` is reported at `/paths`. Each part
/// of the document's structure under it is tried alone, down to the
/// smallest that fails ([`crate::structure`] says what each node is).
fn narrowed(document: &Value, mut pointer: String, mut message: String) -> (String, String) {
    use crate::structure::{Slot, kinds_along, slot};
    // Each step goes one level deeper into a finite document.
    while let Some((at, kind)) = kinds_along(&pointer).pop() {
        let mut children = Vec::new();
        if at != pointer {
            // A map or list of nodes (`/paths`, a `parameters` list): its
            // entries are the children.
            let key = pointer.rsplit_once('/').map_or("", |(_, key)| key);
            let key = crate::model::refs::unescape_pointer_token(key);
            let entries = match (slot(kind, &key), document.pointer(&pointer)) {
                (Slot::Map(child), Some(Value::Object(entries))) => entries
                    .keys()
                    .map(|name| (pointer_join(&pointer, name), child))
                    .collect(),
                (Slot::List(child), Some(Value::Array(items))) => (0..items.len())
                    .map(|index| (pointer_join(&pointer, &index.to_string()), child))
                    .collect(),
                _ => Vec::new(),
            };
            children = entries;
        }
        let node = match document.pointer(&pointer) {
            Some(Value::Object(node)) if at == pointer => node.iter().collect(),
            _ => Vec::new(),
        };
        for (key, value) in node {
            let at = pointer_join(&pointer, key);
            match (slot(kind, key), value) {
                (Slot::One(child) | Slot::OneOrList(child), _) => children.push((at, child)),
                (Slot::Map(child), Value::Object(entries)) => {
                    children.extend(entries.keys().map(|name| (pointer_join(&at, name), child)))
                }
                (Slot::List(child), Value::Array(items)) => children.extend(
                    (0..items.len()).map(|index| (pointer_join(&at, &index.to_string()), child)),
                ),
                _ => {}
            }
        }
        let failing = children.into_iter().find_map(|(at, child)| {
            let value = document.pointer(&at)?;
            let (inner, failure) = typed_failure(child, value)?;
            Some((format!("{at}{inner}"), failure))
        });
        match failing {
            Some((at, failure)) if at != pointer => {
                pointer = at;
                message = failure;
            }
            _ => break,
        }
    }
    (pointer, message)
}

/// Why `value` does not deserialize as a node of `kind`, with the pointer
/// serde found inside it; `None` where it does, or `kind` has no type.
fn typed_failure(kind: crate::structure::Kind, value: &Value) -> Option<(String, String)> {
    use crate::structure::Kind;
    fn check<T: serde::de::DeserializeOwned>(value: &Value) -> Option<(String, String)> {
        serde_path_to_error::deserialize::<_, T>(value)
            .err()
            .map(|err| (pointer_of(err.path()), err.inner().to_string()))
    }
    match kind {
        Kind::PathItem => check::<ReferenceOr<openapiv3::PathItem>>(value),
        Kind::Operation => check::<openapiv3::Operation>(value),
        Kind::Responses => check::<openapiv3::Responses>(value),
        Kind::Response => check::<ReferenceOr<openapiv3::Response>>(value),
        Kind::RequestBody => check::<ReferenceOr<openapiv3::RequestBody>>(value),
        Kind::MediaType => check::<openapiv3::MediaType>(value),
        Kind::Encoding => check::<openapiv3::Encoding>(value),
        Kind::Parameter => check::<ReferenceOr<openapiv3::Parameter>>(value),
        Kind::Header => check::<ReferenceOr<openapiv3::Header>>(value),
        Kind::Example => check::<ReferenceOr<openapiv3::Example>>(value),
        Kind::Link => check::<ReferenceOr<openapiv3::Link>>(value),
        Kind::Callback => check::<ReferenceOr<openapiv3::Callback>>(value),
        Kind::SecurityScheme => check::<ReferenceOr<openapiv3::SecurityScheme>>(value),
        Kind::Schema => check::<ReferenceOr<openapiv3::Schema>>(value),
        Kind::Components => check::<openapiv3::Components>(value),
        _ => None,
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn routes_hold_literal_characters_percent_encoded() {
        assert_eq!(route_path("/<upload_url>"), "/%3Cupload_url%3E");
        assert_eq!(route_path("/a b/é/{the id}"), "/a%20b/%C3%A9/{the id}");
        assert_eq!(
            route_path("/v2/pets/{id}:cancel;x=1@y"),
            "/v2/pets/{id}:cancel;x=1@y"
        );
    }

    #[test]
    fn json_is_any_json_media_type() {
        for media_type in [
            "application/json",
            "Application/JSON; charset=utf-8",
            "application/merge-patch+json",
            "application/problem+json",
            "application/vnd.api+json; ext=bulk",
        ] {
            assert!(is_json(media_type), "{media_type}");
        }
        for media_type in [
            "application/jsonl",
            "text/json-seq",
            FORM,
            "application/xml",
        ] {
            assert!(!is_json(media_type), "{media_type}");
        }
        assert_eq!(essence(" Text/CSV ; header=present"), "text/csv");
    }

    #[test]
    fn the_client_sends_json_then_a_form_then_bytes() {
        let sent = |offered: &[&'static str]| sent_media_type(offered);
        assert_eq!(sent(&[MULTIPART, FORM, JSON]), Some(JSON));
        assert_eq!(
            sent(&[MULTIPART, "application/merge-patch+json", FORM]),
            Some("application/merge-patch+json")
        );
        assert_eq!(sent(&[MULTIPART, FORM]), Some(FORM));
        assert_eq!(sent(&[MULTIPART, "text/plain"]), Some("text/plain"));
        assert_eq!(sent(&["image/png", "image/jpeg"]), Some("image/png"));
        assert_eq!(sent(&[]), None);
    }

    #[test]
    fn a_response_is_typed_when_every_media_type_is_json_with_one_schema() {
        let schema = json!({"$ref": "#/components/schemas/Note"});
        let content = |entries: serde_json::Value| entries.as_object().unwrap().clone();
        let typed = content(json!({
            "application/problem+json": {"schema": schema},
            "application/json": {"schema": schema},
        }));
        assert_eq!(
            json_response_body(&typed),
            Some(("application/problem+json", &schema))
        );
        for bytes in [
            json!({"application/json": {"schema": schema}, "text/csv": {"schema": {"type": "string"}}}),
            json!({"application/json": {"schema": schema}, "application/vnd.a+json": {"schema": {}}}),
            json!({"image/png": {}}),
            json!({"image/png": {"schema": schema}}),
            json!({"text/event-stream": {"schema": schema}}),
            json!({"application/json": {}}),
            json!({}),
        ] {
            assert_eq!(json_response_body(&content(bytes.clone())), None, "{bytes}");
        }
    }

    #[test]
    fn statuses_order_by_class_with_codes_before_their_range() {
        let mut statuses = [
            Status::Default,
            Status::Range(4),
            Status::Code(503),
            Status::Code(429),
            Status::Range(5),
            Status::Code(200),
        ];
        statuses.sort_by_key(|status| status.sort_key());
        let shown: Vec<String> = statuses.iter().map(Status::to_string).collect();
        assert_eq!(shown, ["200", "429", "4XX", "503", "5XX", "default"]);
        assert_eq!(Method::from_key("head"), Some(Method::Head));
        assert_eq!(
            Method::from_key("HEAD"),
            None,
            "path item keys are lower case"
        );
    }
}
