//! The hand-written baseline: an axum 0.8 server doing the same work as the
//! generated router on the benchmarked routes, the way an engineer would
//! write it by hand. Serde decodes the body straight into a struct
//! (JSON or form), the rules of the spec are checked on the struct, every
//! broken rule is listed with the same messages, pointers and rule codes, and
//! errors use the same body: the responses are byte for byte the generated
//! router's (`crate::parity` checks it). It is the yardstick the generated code must meet.

use axum::Router;
use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use openapi_crates_runtime::{ErrorBody, ErrorItem};
use serde::Deserialize;
use tenant_api_server::types;

use crate::work;

// Error bodies go out through `axum::Json`, as a hand-written server sends
// them; the runtime's own writer is part of what the generated side brings.
fn error(status: StatusCode, message: String, code: &str) -> Response {
    (status, axum::Json(ErrorBody::new(status, message, code))).into_response()
}

// The refusal is returned straight to axum, as a hand-written handler would.
#[allow(clippy::result_large_err)]
fn authorize(headers: &HeaderMap) -> Result<(), Response> {
    let token = openapi_crates_runtime::bearer_token(headers)?;
    if token == work::TOKEN {
        Ok(())
    } else {
        Err(error(
            StatusCode::UNAUTHORIZED,
            "Invalid token".into(),
            "invalid_token",
        ))
    }
}

async fn get_action_module(Path(id): Path<String>, headers: HeaderMap) -> Response {
    if let Err(response) = authorize(&headers) {
        return response;
    }
    (StatusCode::OK, axum::Json(work::action_module(id))).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateProfile {
    name: String,
    subject_token_type: String,
    action_id: String,
    #[serde(rename = "type")]
    kind: String,
}

/// One broken rule, as the API contract lists it under `errors`.
struct Broken {
    pointer: &'static str,
    code: &'static str,
    detail: String,
}

fn length(
    text: &str,
    (min, max): (usize, usize),
    (field, pointer): (&str, &'static str),
    out: &mut Vec<Broken>,
) {
    let count = text.chars().count();
    if count < min {
        out.push(Broken {
            pointer,
            code: "min_length",
            detail: format!("'{field}' must be at least {min} characters long"),
        });
    }
    if count > max {
        out.push(Broken {
            pointer,
            code: "max_length",
            detail: format!("'{field}' must be at most {max} characters long"),
        });
    }
}

/// An absolute URI (RFC 3986): a scheme, a colon and a non-empty rest of
/// URI characters (`%` followed by two hex digits).
fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    let scheme_ok = chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    if !scheme_ok || rest.is_empty() {
        return false;
    }
    let bytes = rest.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(index + 1) && hex(index + 2)) {
                return false;
            }
            index += 3;
        } else if bytes[index].is_ascii_alphanumeric()
            || b"-._~:/?#[]@!$&'()*+,;=".contains(&bytes[index])
        {
            index += 1;
        } else {
            return false;
        }
    }
    true
}

async fn create_token_exchange_profile(headers: HeaderMap, body: Bytes) -> Response {
    if let Err(response) = authorize(&headers) {
        return response;
    }
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    let decoded: Result<CreateProfile, String> =
        if essence.eq_ignore_ascii_case(openapi_crates_runtime::JSON) {
            serde_json::from_slice(&body).map_err(|err| format!("Invalid JSON body: {err}"))
        } else if essence.eq_ignore_ascii_case(openapi_crates_runtime::FORM) {
            serde_urlencoded::from_bytes(&body).map_err(|err| format!("Invalid form body: {err}"))
        } else {
            return error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "Content-Type {content_type} is not supported; send one of: {}, {}",
                    openapi_crates_runtime::JSON,
                    openapi_crates_runtime::FORM
                ),
                "unsupported_media_type",
            );
        };
    let request = match decoded {
        Ok(request) => request,
        Err(message) => return error(StatusCode::BAD_REQUEST, message, "invalid_body"),
    };
    // The rules in the order of the schema's properties, each property's
    // rules in the order the contract lists them.
    let mut broken = Vec::new();
    length(&request.name, (3, 50), ("name", "/name"), &mut broken);
    length(
        &request.subject_token_type,
        (8, 100),
        ("subject_token_type", "/subject_token_type"),
        &mut broken,
    );
    if !is_uri(&request.subject_token_type) {
        broken.push(Broken {
            pointer: "/subject_token_type",
            code: "format",
            detail: "'subject_token_type' must be a valid url".into(),
        });
    }
    length(
        &request.action_id,
        (1, 36),
        ("action_id", "/action_id"),
        &mut broken,
    );
    if request.kind != "custom_authentication" {
        broken.push(Broken {
            pointer: "/type",
            code: "enum",
            detail: "the type field must be custom".into(),
        });
    }
    if !broken.is_empty() {
        let details: Vec<&str> = broken.iter().map(|b| b.detail.as_str()).collect();
        let mut body = ErrorBody::new(
            StatusCode::BAD_REQUEST,
            format!("Payload validation error: {}", details.join("; ")),
            "invalid_body",
        );
        body.errors = broken
            .into_iter()
            .map(|b| ErrorItem {
                pointer: Some(b.pointer.into()),
                location: None,
                name: None,
                code: b.code.into(),
                detail: b.detail,
            })
            .collect();
        return (StatusCode::BAD_REQUEST, axum::Json(body)).into_response();
    }
    let typed = types::CreateTokenExchangeProfileRequest {
        action_id: request.action_id.parse().expect("checked above"),
        name: request.name.parse().expect("checked above"),
        subject_token_type: request.subject_token_type.parse().expect("checked above"),
        type_: types::TokenExchangeProfileType::CustomAuthentication,
    };
    (
        StatusCode::CREATED,
        axum::Json(work::created_profile(typed)),
    )
        .into_response()
}

pub fn router() -> Router {
    Router::new()
        .route("/api/v2/actions/modules/{id}", get(get_action_module))
        .route(
            "/api/v2/token-exchange-profiles",
            post(create_token_exchange_profile),
        )
        .layer(axum::extract::DefaultBodyLimit::max(64 * 1024))
}
