//! The hand-written baseline: an axum 0.8 server doing the same work as the
//! generated router on the benchmarked routes, the way an engineer would
//! write it by hand. Serde decodes the body straight into a struct
//! (JSON or form), the rules of the spec are checked on the struct, every
//! broken rule is listed with the same messages, and errors use the same
//! body. It is the yardstick the generated code must meet.

use axum::Router;
use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use tenant_api_server::types;

use crate::work;

fn error(status: StatusCode, message: String, code: &str) -> Response {
    tenant_server_runtime::error_response(status, message, code)
}

// The refusal is returned straight to axum, as a hand-written handler would.
#[allow(clippy::result_large_err)]
fn authorize(headers: &HeaderMap) -> Result<(), Response> {
    let token = tenant_server_runtime::bearer_token(headers)?;
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

fn length(text: &str, min: usize, max: usize, field: &str, out: &mut Vec<String>) {
    let count = text.chars().count();
    if count < min {
        out.push(format!("'{field}' must be at least {min} characters long"));
    }
    if count > max {
        out.push(format!("'{field}' must be at most {max} characters long"));
    }
}

fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && !rest.is_empty()
        && !text.chars().any(char::is_whitespace)
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
        if essence.eq_ignore_ascii_case(tenant_server_runtime::JSON) {
            serde_json::from_slice(&body).map_err(|err| format!("Invalid JSON body: {err}"))
        } else if essence.eq_ignore_ascii_case(tenant_server_runtime::FORM) {
            serde_urlencoded::from_bytes(&body).map_err(|err| format!("Invalid form body: {err}"))
        } else {
            return error(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "Content-Type {content_type} is not supported; send one of: {}, {}",
                    tenant_server_runtime::JSON,
                    tenant_server_runtime::FORM
                ),
                "unsupported_media_type",
            );
        };
    let request = match decoded {
        Ok(request) => request,
        Err(message) => return error(StatusCode::BAD_REQUEST, message, "invalid_body"),
    };
    let mut broken = Vec::new();
    length(&request.name, 3, 50, "name", &mut broken);
    if !is_uri(&request.subject_token_type) {
        broken.push("'subject_token_type' must be a valid url".into());
    }
    length(
        &request.subject_token_type,
        8,
        100,
        "subject_token_type",
        &mut broken,
    );
    length(&request.action_id, 1, 36, "action_id", &mut broken);
    if request.kind != "custom_authentication" {
        broken.push("the type field must be custom".into());
    }
    if !broken.is_empty() {
        return error(
            StatusCode::BAD_REQUEST,
            format!("Payload validation error: {}", broken.join("; ")),
            "invalid_body",
        );
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
