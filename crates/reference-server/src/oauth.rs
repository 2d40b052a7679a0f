//! `POST /oauth/token`: the OAuth 2.0 client credentials grant, so the whole
//! flow (get a token, call the API) works against the reference server.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::AppState;

/// The largest token request read, in bytes.
pub const BODY_LIMIT: usize = 16 * 1024;

#[derive(Debug)]
struct TokenRequest {
    grant_type: String,
    client_id: String,
    client_secret: String,
    audience: String,
    /// Space-separated subset of the client's scopes; all of them when absent.
    scope: Option<String>,
}

impl TokenRequest {
    /// Reads the request's fields. A message never repeats a value: the
    /// wrong one may be the secret.
    fn from_fields(fields: &serde_json::Map<String, serde_json::Value>) -> Result<Self, String> {
        let text = |name: &str| match fields.get(name) {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(text)) => Ok(Some(text.clone())),
            Some(_) => Err(format!("`{name}` must be a string")),
        };
        let required = |name: &str| text(name)?.ok_or_else(|| format!("`{name}` is required"));
        Ok(Self {
            grant_type: required("grant_type")?,
            client_id: required("client_id")?,
            client_secret: required("client_secret")?,
            audience: required("audience")?,
            scope: text("scope")?,
        })
    }
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
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let body = match body {
        Ok(body) => body,
        // Past the body limit (413) or a broken upload: the OAuth error
        // body, not axum's plain text.
        Err(rejection) => {
            return oauth_error(
                rejection.status(),
                "invalid_request",
                &rejection.body_text(),
            );
        }
    };
    let is_json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    let request: Result<TokenRequest, String> = if is_json {
        match serde_json::from_slice(&body) {
            Ok(serde_json::Value::Object(fields)) => TokenRequest::from_fields(&fields),
            Ok(_) => Err("The body must be a JSON object".to_string()),
            // serde_json's messages name the offending character, never the
            // submitted text.
            Err(err) => Err(format!("The body is not JSON: {err}")),
        }
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
        Some(asked) => asked.split_whitespace().map(str::to_string).collect(),
    };
    // As the platform does: a scope the client was not granted refuses the
    // request rather than leaving the scope out of the token.
    let ungranted: Vec<&str> = scopes
        .iter()
        .filter(|scope| !client.scopes.contains(scope))
        .map(String::as_str)
        .collect();
    if !ungranted.is_empty() {
        return oauth_error(
            StatusCode::FORBIDDEN,
            "access_denied",
            &format!(
                "Client has not been granted scopes: {}",
                ungranted.join(", ")
            ),
        );
    }
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
    let fields = openapi_crates_runtime::form_to_value(body)
        .map_err(|err| format!("Invalid form body: {err}"))?
        .to_json();
    let serde_json::Value::Object(fields) = fields else {
        return Err("Invalid form body".to_string());
    };
    TokenRequest::from_fields(&fields)
}
