//! Lowering of each operation: its body, responses and security, checked
//! against what the generators support (its parameters: `parameters`).

use std::borrow::Cow;

use openapiv3::{
    Components, OpenAPI, Operation as OaOperation, Parameter as OaParameter, ReferenceOr,
    RequestBody as OaRequestBody, Response as OaResponse, StatusCode,
};
use serde_json::Value;

use super::refs::{self, SCHEMA_REF_PREFIX, schema_name};
use super::*;
use crate::diagnostic::{Diagnostic, Diagnostics, pointer_join};
use crate::load::LoadedSpec;
use crate::readings::Reading;

pub(crate) struct OperationSite<'a> {
    /// The path of the path key (without its query or fragment).
    pub(crate) path: &'a str,
    /// The path key, split into path, fixed query and fragment.
    pub(crate) key: &'a super::paths::PathKey,
    pub(crate) method: Method,
    pub(crate) pointer: &'a str,
    /// The webhook's name, for an operation of `webhooks`.
    pub(crate) webhook: Option<&'a str>,
}

/// A path item the model reads: the webhook's name (for one of
/// `webhooks`), the path its operations are served at (a webhook's
/// [`crate::walk::webhook_route`]), its pointer and the item.
pub(crate) type PathItemEntry<'a> = (
    Option<&'a str>,
    String,
    String,
    &'a ReferenceOr<openapiv3::PathItem>,
);

/// Every path item: those of `paths`, then the `webhooks`.
pub(crate) fn path_items<'a>(
    openapi: &'a OpenAPI,
    webhooks: &'a [(String, ReferenceOr<openapiv3::PathItem>)],
) -> Vec<PathItemEntry<'a>> {
    let paths = openapi
        .paths
        .paths
        .iter()
        .map(|(path, item)| (None, path.clone(), pointer_join("/paths", path), item));
    let webhooks = webhooks.iter().map(|(name, item)| {
        let route = crate::walk::webhook_route(name);
        (
            Some(name.as_str()),
            route,
            pointer_join("/webhooks", name),
            item,
        )
    });
    paths.chain(webhooks).collect()
}

/// The entries of `webhooks` (OpenAPI 3.1), typed, in document order.
pub(crate) fn webhook_items(
    spec: &LoadedSpec,
) -> Result<Vec<(String, ReferenceOr<openapiv3::PathItem>)>, Diagnostic> {
    let Some(webhooks) = spec.document.get("webhooks") else {
        return Ok(Vec::new());
    };
    let items: indexmap::IndexMap<String, ReferenceOr<openapiv3::PathItem>> =
        serde_path_to_error::deserialize(webhooks).map_err(|err| {
            let pointer = format!("/webhooks{}", super::pointer_of(err.path()));
            spec.error_at(
                &pointer,
                format!(
                    "not a valid OpenAPI 3.1 `webhooks` map of path items: {}",
                    err.inner()
                ),
            )
        })?;
    Ok(items.into_iter().collect())
}

pub(crate) fn build_operation(
    spec: &LoadedSpec,
    openapi: &OpenAPI,
    components: &Components,
    site: OperationSite<'_>,
    operation: &OaOperation,
    parameters: &[(String, ReferenceOr<OaParameter>)],
) -> Result<Operation, Diagnostics> {
    let pointer = site.pointer;
    // Each part is checked even when another is broken, so one run reports
    // every problem of the operation.
    let mut problems = Diagnostics::default();
    let id = problems.keep(
        operation
            .operation_id
            .clone()
            .ok_or_else(|| spec.error_at(pointer, "the operation has no operationId")),
    );
    let parameters = problems.keep(super::parameters::build_parameters(
        spec, components, &site, parameters,
    ));
    let request_body = match &operation.request_body {
        None => Some(None),
        Some(body) => {
            let body_pointer = pointer_join(pointer, "requestBody");
            problems.keep(build_request_body(spec, components, &body_pointer, body))
        }
    };
    let responses = problems.keep(build_responses(
        spec,
        components,
        pointer,
        site.method,
        operation,
    ));
    let security = problems.keep(build_security(
        spec,
        openapi,
        pointer,
        operation,
        site.webhook.is_none(),
    ));
    let release_lifecycle = match operation.extensions.get("x-release-lifecycle") {
        None => None,
        Some(Value::String(label)) => Some(label.clone()),
        Some(_) => {
            problems.push(spec.error_at(
                &pointer_join(pointer, "x-release-lifecycle"),
                "`x-release-lifecycle` must be a string label",
            ));
            None
        }
    };
    let idempotent = match operation.extensions.get("x-idempotent") {
        None => false,
        Some(Value::Bool(idempotent)) => *idempotent,
        Some(_) => {
            spec.warn_at(
                Reading::ExtensionInvalid,
                &pointer_join(pointer, "x-idempotent"),
                "`x-idempotent` is not a boolean: read as absent, so the client retries \
                 the operation only as its method allows",
            );
            false
        }
    };
    let (
        Some(id),
        Some(parameters),
        Some(request_body),
        Some((responses, default_response)),
        Some((security, anonymous)),
    ) = (id, parameters, request_body, responses, security)
    else {
        return Err(problems);
    };
    if !problems.is_empty() {
        return Err(problems);
    }

    Ok(Operation {
        id,
        method: site.method,
        path: site.path.to_string(),
        fixed_query: site.key.query.clone(),
        fragment: site.key.fragment.clone(),
        served_by: None,
        pointer: pointer.to_string(),
        webhook: site.webhook.map(str::to_string),
        summary: operation.summary.clone(),
        description: operation.description.clone(),
        tags: operation.tags.clone(),
        parameters,
        request_body,
        responses,
        default_response,
        security,
        anonymous,
        release_lifecycle,
        idempotent,
    })
}

fn resolved_schema<'a>(
    spec: &'a LoadedSpec,
    pointer: &str,
) -> Result<&'a serde_json::Map<String, Value>, String> {
    refs::object_at(&spec.document, pointer)
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

/// The operation's request body; `None` when it documents no media type,
/// which leaves nothing to send or read.
fn build_request_body(
    spec: &LoadedSpec,
    components: &Components,
    pointer: &str,
    body: &ReferenceOr<OaRequestBody>,
) -> Result<Option<RequestBody>, Diagnostic> {
    let body = match body {
        ReferenceOr::Item(body) => body.clone(),
        ReferenceOr::Reference { reference } => {
            refs::component(
                spec,
                pointer,
                reference,
                "requestBodies",
                &components.request_bodies,
            )?
            .0
        }
    };
    let content_pointer = pointer_join(pointer, "content");
    if body.content.is_empty() {
        return Err(spec.error_at(&content_pointer, "the request body offers no media type"));
    }
    // JSON (of any `+json` flavour) and forms are typed by their schema;
    // every other media type reaches the server as bytes, its type checked.
    let mut typed: Vec<(String, String)> = Vec::new();
    let mut raw: Vec<String> = Vec::new();
    let mut parts = None;
    let mut multipart = false;
    // Each raw media type's `maxLength`, `None` where one has none.
    let mut max_bytes: Option<Vec<u64>> = Some(Vec::new());
    for (media_type, content) in &body.content {
        let essence = essence(media_type);
        if is_json(&essence) || essence == FORM {
            let pointer = pointer_join(&content_pointer, media_type);
            typed.push((
                essence,
                named_schema(spec, &pointer, content.schema.as_ref())?,
            ));
        } else if essence == MULTIPART {
            // A multipart body reaches the handler as its parts; they are
            // checked against the schema when it names one.
            if let Some(ReferenceOr::Reference { reference }) = &content.schema {
                parts = schema_name(reference).map(Cow::into_owned);
            }
            multipart = true;
        } else if !raw.contains(&essence) {
            let max_length = resolved_schema(
                spec,
                &pointer_join(&pointer_join(&content_pointer, media_type), "schema"),
            )
            .ok()
            .and_then(|schema| schema.get("maxLength"))
            .and_then(Value::as_u64);
            match (max_bytes.as_mut(), max_length) {
                (Some(limits), Some(limit)) => limits.push(limit),
                _ => max_bytes = None,
            }
            raw.push(essence);
        }
    }
    let rank = |media_type: &str| match media_type {
        JSON => 0,
        FORM => 2,
        _ => 1,
    };
    typed.sort_by_key(|(media_type, _)| rank(media_type));
    let mut kinds: Vec<BodyKind> = Vec::new();
    for (media_type, schema) in typed {
        match kinds
            .iter_mut()
            .find(|kind| kind.schema.as_ref() == Some(&schema))
        {
            Some(kind) if !kind.media_types.contains(&media_type) => {
                kind.media_types.push(media_type)
            }
            Some(_) => {}
            None => kinds.push(BodyKind {
                schema: Some(schema),
                media_types: vec![media_type],
                parts: None,
                max_bytes: None,
            }),
        }
    }
    if !raw.is_empty() {
        kinds.push(BodyKind {
            schema: None,
            media_types: raw,
            parts: None,
            max_bytes: max_bytes.and_then(|limits| limits.into_iter().max()),
        });
    }
    if multipart {
        kinds.push(BodyKind {
            schema: None,
            media_types: vec![MULTIPART.to_owned()],
            parts,
            max_bytes: None,
        });
    }
    let offered: Vec<&str> = body.content.keys().map(String::as_str).collect();
    let sent = essence(sent_media_type(&offered).unwrap_or_default());
    Ok(Some(RequestBody {
        required: body.required,
        kinds,
        sent,
    }))
}

fn build_responses(
    spec: &LoadedSpec,
    components: &Components,
    operation_pointer: &str,
    method: Method,
    operation: &OaOperation,
) -> Result<(Vec<Response>, Option<Response>), Diagnostic> {
    let responses_pointer = pointer_join(operation_pointer, "responses");
    let mut result = Vec::new();
    for (status, response) in &operation.responses.responses {
        let status_text = status.to_string();
        let pointer = pointer_join(&responses_pointer, &status_text);
        let status = match status {
            StatusCode::Code(code) if (100..600).contains(code) => Status::Code(*code),
            StatusCode::Range(class) if (1..6).contains(class) => Status::Range(*class),
            _ => {
                return Err(spec.error_at(
                    &pointer,
                    format!(
                        "response status `{status_text}` is not an HTTP status; use a code from \
                         100 to 599 or a range from `1XX` to `5XX`"
                    ),
                ));
            }
        };
        if status == Status::Code(101) {
            if let Some(upgrade) = upgrade_response(spec, components, &pointer, method, response)? {
                result.push(upgrade);
            }
            continue;
        }
        // Any other 1xx is an interim answer before the final one: a handler
        // cannot return it as the operation's response.
        if status.class() == 1 {
            return Err(spec.error_at(
                &pointer,
                "a 1xx status is an interim response, which a server cannot answer as the \
                 operation's result; document the final status instead",
            ));
        }
        result.push(listed_response(
            spec, components, &pointer, method, status, response,
        )?);
    }
    result.sort_by_key(|response| response.status.sort_key());
    let default = match &operation.responses.default {
        // Dropshot described its WebSocket endpoints with a `default`
        // response before it wrote their `101`: read as the `101`.
        Some(response)
            if operation.extensions.contains_key("x-dropshot-websocket")
                && !result.iter().any(Response::is_upgrade) =>
        {
            let pointer = pointer_join(&responses_pointer, "default");
            if let Some(upgrade) = upgrade_response(spec, components, &pointer, method, response)? {
                result.insert(0, upgrade);
            }
            None
        }
        Some(response) => {
            let pointer = pointer_join(&responses_pointer, "default");
            Some(listed_response(
                spec,
                components,
                &pointer,
                method,
                Status::Default,
                response,
            )?)
        }
        None => None,
    };
    Ok((result, default))
}

/// The `101 Switching Protocols` of an operation that opens a WebSocket
/// connection: the only upgrade the generated crates make (progenitor's
/// reading too). It has no body, whatever its `content` says (dropshot
/// wrote `*/*`): the connection speaks WebSocket after it. `None`, with a
/// warning, on a method other than `GET`, by which HTTP/1.1 alone opens
/// a WebSocket (RFC 6455, section 4.1).
fn upgrade_response(
    spec: &LoadedSpec,
    components: &Components,
    pointer: &str,
    method: Method,
    response: &ReferenceOr<OaResponse>,
) -> Result<Option<Response>, Diagnostic> {
    if method != Method::Get {
        spec.warn_at(
            Reading::UpgradeNotGet,
            pointer,
            format!(
                "a 101 switches the connection to WebSocket, which a client opens with `GET` \
                 only, not `{}`: the 101 is left out",
                method.as_str()
            ),
        );
        return Ok(None);
    }
    let mut upgrade = listed_response(
        spec,
        components,
        pointer,
        method,
        Status::Code(101),
        response,
    )?;
    upgrade.schema = None;
    upgrade.media_types.clear();
    upgrade.stream = None;
    upgrade.headers.clear();
    upgrade.shared = None;
    Ok(Some(upgrade))
}

/// One response of `responses`, following a `$ref` into `components/responses`.
fn listed_response(
    spec: &LoadedSpec,
    components: &Components,
    pointer: &str,
    method: Method,
    status: Status,
    response: &ReferenceOr<OaResponse>,
) -> Result<Response, Diagnostic> {
    let (response, shared, written_at) = match response {
        ReferenceOr::Item(response) => (response.clone(), None, pointer.to_string()),
        ReferenceOr::Reference { reference } => {
            let (response, written_at) =
                refs::component(spec, pointer, reference, "responses", &components.responses)?;
            let shared = refs::component_name(reference, "responses").map(Cow::into_owned);
            (response, shared, written_at)
        }
    };
    let mut response = build_response(spec, components, pointer, &written_at, status, &response)?;
    // A response to HEAD has no body (RFC 9110, 9.3.2), whatever the spec
    // says the GET beside it returns.
    if method == Method::Head {
        response.schema = None;
        response.media_types.clear();
        response.stream = None;
    }
    // Only responses with headers need a type of their own; the others
    // are a body or nothing, as compact inline as by name.
    if !response.headers.is_empty()
        && !response.is_raw()
        && response.stream.is_none()
        && method != Method::Head
    {
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
    status: Status,
    response: &OaResponse,
) -> Result<Response, Diagnostic> {
    // A JSON body is typed by its schema; any other (an event stream, a
    // file, or several media types) is passed through as bytes.
    let content = spec
        .document
        .pointer(&pointer_join(written_at, "content"))
        .and_then(Value::as_object);
    let stream = match content.and_then(streams::stream_entry) {
        Some((media_type, framing)) => Some(item_stream(
            spec,
            &pointer_join(&pointer_join(written_at, "content"), media_type),
            media_type,
            framing,
        )?),
        None => None,
    };
    let (schema, media_types) = match content.and_then(json_response_body) {
        Some((media_type, _)) => {
            let content_pointer = pointer_join(&pointer_join(pointer, "content"), media_type);
            let content = &response.content[media_type];
            (
                Some(named_schema(
                    spec,
                    &content_pointer,
                    content.schema.as_ref(),
                )?),
                vec![essence(media_type)],
            )
        }
        None => {
            let mut media_types: Vec<String> = Vec::new();
            for media_type in response
                .content
                .keys()
                .map(|media_type| essence(media_type))
                .filter(|media_type| {
                    stream
                        .as_ref()
                        .is_none_or(|stream| stream.media_type != *media_type)
                })
            {
                if !media_types.contains(&media_type) {
                    media_types.push(media_type);
                }
            }
            (None, media_types)
        }
    };
    let mut headers: Vec<ResponseHeader> = Vec::new();
    for (name, header) in &response.headers {
        // OpenAPI: a response header named `Content-Type` "SHALL be
        // ignored" (the media type says it); header names are one whatever
        // their case, so a second spelling is the first header.
        if name.eq_ignore_ascii_case("content-type")
            || headers
                .iter()
                .any(|seen| seen.name.eq_ignore_ascii_case(name))
        {
            continue;
        }
        let header_pointer = pointer_join(&pointer_join(pointer, "headers"), name);
        let header_written_at = pointer_join(&pointer_join(written_at, "headers"), name);
        let (header, raw_pointer) = match header {
            ReferenceOr::Item(header) => (header.clone(), header_written_at),
            ReferenceOr::Reference { reference } => refs::component(
                spec,
                &header_pointer,
                reference,
                "headers",
                &components.headers,
            )?,
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
        media_types,
        headers,
        shared: None,
        stream,
    })
}

/// The stream of the media type object at `pointer` ([`streams`]), its item
/// typed by the schema the inline pass named.
fn item_stream(
    spec: &LoadedSpec,
    pointer: &str,
    media_type: &str,
    framing: streams::Framing,
) -> Result<ItemStream, Diagnostic> {
    let item = match streams::item_schema(&spec.document, pointer, framing) {
        streams::ItemSchema::Text => ItemType::Text,
        streams::ItemSchema::Json => ItemType::Json,
        streams::ItemSchema::At(schema) => {
            let reference = spec
                .document
                .pointer(&schema)
                .and_then(|schema| schema.get("$ref"))
                .and_then(Value::as_str);
            match reference.and_then(schema_name) {
                Some(name) => ItemType::Named(name.into_owned()),
                None => {
                    return Err(spec.error_at(
                        &schema,
                        "a stream's item schema must be a `$ref` to a named schema under \
                         components/schemas, so that client and server share one type",
                    ));
                }
            }
        }
    };
    Ok(ItemStream {
        framing,
        media_type: essence(media_type),
        item,
    })
}

/// The operation's security requirements: its own, else (`api_default`)
/// the document's, and whether an empty one (`{}`) among them lets a
/// request without credentials through. A webhook has its own only: the
/// document's say how clients authenticate to the API, not how the API
/// proves itself to the subscribers it sends webhooks to.
fn build_security(
    spec: &LoadedSpec,
    openapi: &OpenAPI,
    operation_pointer: &str,
    operation: &OaOperation,
    api_default: bool,
) -> Result<(Vec<SecurityRequirement>, bool), Diagnostic> {
    let (requirements, pointer) = match &operation.security {
        Some(requirements) => (
            requirements.clone(),
            pointer_join(operation_pointer, "security"),
        ),
        None if api_default => (
            openapi.security.clone().unwrap_or_default(),
            "/security".to_string(),
        ),
        None => (Vec::new(), String::new()),
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
            let declared = match &schemes[scheme] {
                ReferenceOr::Item(declared) => declared.clone(),
                ReferenceOr::Reference { reference } => {
                    let at = pointer_join("/components/securitySchemes", scheme);
                    refs::component(spec, &at, reference, "securitySchemes", &schemes)?.0
                }
            };
            let token_url = match &declared {
                openapiv3::SecurityScheme::OAuth2 { flows, .. } => flows
                    .client_credentials
                    .as_ref()
                    .map(|flow| flow.token_url.clone()),
                _ => None,
            };
            result.push(SecurityRequirement {
                scheme: scheme.clone(),
                scopes: scopes.clone(),
                requirement: index,
                credential: credential(&declared),
                token_url,
            });
        }
    }
    let anonymous = !result.is_empty()
        && requirements
            .iter()
            .any(|requirement| requirement.is_empty());
    Ok((result, anonymous))
}

/// Where the credential of `scheme` travels: OAuth 2.0 and OpenID Connect
/// give bearer tokens.
fn credential(scheme: &openapiv3::SecurityScheme) -> Credential {
    use openapiv3::{APIKeyLocation, SecurityScheme};
    match scheme {
        SecurityScheme::HTTP { scheme, .. } if !scheme.eq_ignore_ascii_case("bearer") => {
            Credential::Http(scheme.to_ascii_lowercase())
        }
        SecurityScheme::APIKey { location, name, .. } => match location {
            APIKeyLocation::Header => Credential::Header(name.clone()),
            APIKeyLocation::Query => Credential::Query(name.clone()),
            APIKeyLocation::Cookie => Credential::Cookie(name.clone()),
        },
        SecurityScheme::HTTP { .. }
        | SecurityScheme::OAuth2 { .. }
        | SecurityScheme::OpenIDConnect { .. } => Credential::Bearer,
    }
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
            schema_name(reference).map(Cow::into_owned).ok_or_else(|| {
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
pub(crate) fn error_shape<'a>(
    spec: &LoadedSpec,
    operations: impl Iterator<Item = &'a Operation>,
) -> ErrorShape {
    const PLATFORM_PROPERTIES: &[&str] = &["statusCode", "error", "message"];
    let mut schemas = operations
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
        let properties = refs::object_at(&spec.document, &refs::schema_pointer(schema))
            .ok()
            .and_then(|schema| schema.get("properties"))
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
pub(crate) fn shared_responses(operations: &[&Operation]) -> Vec<SharedResponse> {
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
            media_types: response.media_types.clone(),
            headers: response.headers.clone(),
        });
    }
    shared
}
