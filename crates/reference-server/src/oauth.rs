//! `POST /oauth/token`: the OAuth 2.0 client credentials grant, so the whole
//! flow (get a token, call the API) works against the reference server.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::AppState;

#[derive(Debug, Deserialize)]
struct TokenRequest {
    grant_type: String,
    client_id: String,
    client_secret: String,
    audience: String,
    /// Space-separated subset of the client's scopes; all of them when absent.
    scope: Option<String>,
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        Json(json!({"error": error, "error_description": description})),
    )
        .into_response()
}

/// Accepts the request as a form (the standard) or as JSON.
pub async fn token(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    let request: Result<TokenRequest, String> = if is_json {
        serde_json::from_slice(&body).map_err(|err| err.to_string())
    } else {
        parse_form(&body)
    };
    let request = match request {
        Ok(request) => request,
        Err(err) => return oauth_error(StatusCode::BAD_REQUEST, "invalid_request", &err),
    };
    if request.grant_type != "client_credentials" {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "Only the client_credentials grant is supported",
        );
    }
    let Some(client) = state
        .fixtures
        .client(&request.client_id)
        .filter(|client| client.client_secret == request.client_secret)
    else {
        return oauth_error(StatusCode::UNAUTHORIZED, "access_denied", "Unauthorized");
    };
    if request.audience != state.issuer.audience() {
        return oauth_error(
            StatusCode::FORBIDDEN,
            "access_denied",
            &format!("Service not enabled within domain: {}", request.audience),
        );
    }
    let scopes: Vec<String> = match &request.scope {
        None => client.scopes.clone(),
        Some(asked) => asked
            .split_whitespace()
            .filter(|scope| client.scopes.iter().any(|granted| granted == scope))
            .map(str::to_string)
            .collect(),
    };
    let lifetime = state.token_lifetime;
    let access_token = state.issuer.issue(&client.client_id, &scopes, lifetime);
    Json(json!({
        "access_token": access_token,
        "token_type": "Bearer",
        "expires_in": lifetime.as_secs(),
        "scope": scopes.join(" "),
    }))
    .into_response()
}

fn parse_form(body: &[u8]) -> Result<TokenRequest, String> {
    let fields: serde_json::Map<String, serde_json::Value> = form_urlencoded::parse(body)
        .map(|(key, value)| {
            (
                key.into_owned(),
                serde_json::Value::String(value.into_owned()),
            )
        })
        .collect();
    serde_json::from_value(serde_json::Value::Object(fields)).map_err(|err| err.to_string())
}
