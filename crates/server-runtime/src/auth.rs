//! Bearer tokens and the types the generated `authorize` hook works with.

use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::errors::router_error_response;

/// Why a server's `authorize` hook refused a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthError {
    /// The token is not acceptable (invalid, expired, badly signed, wrong
    /// client): the caller gets 401 with this message.
    Unauthenticated(String),
    /// The token is valid but may not call the operation (for example a
    /// missing scope): the caller gets 403 with this message.
    Forbidden(String),
}

impl IntoResponse for AuthError {
    fn into_response(self) -> Response {
        match self {
            AuthError::Unauthenticated(message) => challenge(
                router_error_response(StatusCode::UNAUTHORIZED, message, "invalid_token"),
                Some("invalid_token"),
            ),
            AuthError::Forbidden(message) => challenge(
                router_error_response(StatusCode::FORBIDDEN, message, "insufficient_scope"),
                Some("insufficient_scope"),
            ),
        }
    }
}

/// Adds the `WWW-Authenticate: Bearer` challenge of RFC 6750 (section 3),
/// with its `error` code when the request carried a token.
fn challenge(mut response: Response, error: Option<&'static str>) -> Response {
    let value = match error {
        Some("invalid_request") => r#"Bearer error="invalid_request""#,
        Some("invalid_token") => r#"Bearer error="invalid_token""#,
        Some("insufficient_scope") => r#"Bearer error="insufficient_scope""#,
        _ => "Bearer",
    };
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        axum::http::HeaderValue::from_static(value),
    );
    response
}

/// What a server's `authorize` hook decides on.
#[derive(Debug, Clone, Copy)]
pub struct AuthorizationRequest<'a> {
    /// The bearer token of the `Authorization` header.
    pub token: &'a str,
    /// The `operationId` of the operation being called.
    pub operation_id: &'static str,
    /// The OAuth 2.0 scopes the spec requires for the operation.
    pub required_scopes: &'static [&'static str],
    /// All request headers.
    pub headers: &'a HeaderMap,
}

impl<'a> AuthorizationRequest<'a> {
    /// The request to authorize a call of `operation_id`, or the 401 response
    /// when the headers carry no well-formed bearer token.
    pub fn from_headers(
        headers: &'a HeaderMap,
        operation_id: &'static str,
        required_scopes: &'static [&'static str],
    ) -> Result<Self, Response> {
        Ok(Self {
            token: bearer_token(headers)?,
            operation_id,
            required_scopes,
            headers,
        })
    }
}

/// What every operation receives besides its parameters and body.
#[derive(Debug, Clone)]
pub struct RequestContext<C> {
    /// The caller, as verified by the server's `authorize` hook.
    pub caller: C,
    /// The request headers.
    pub headers: HeaderMap,
}

/// The token of an `Authorization` header value `Bearer <token>`. The scheme
/// is case-insensitive (RFC 7235); `None` when the value is not of that form.
/// Anything that keys on the caller (a rate limiter, a log) must use this
/// same parser, or a differently spelled header would slip past it.
pub fn parse_bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() && !token.contains(' '))
        .then_some(token)
}

/// The token of the request's `Authorization: Bearer <token>` header, or the
/// 401 response naming what is wrong with it.
pub fn bearer_token(headers: &HeaderMap) -> Result<&str, Response> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        // No credentials at all: the challenge carries no error code.
        return Err(challenge(
            router_error_response(
                StatusCode::UNAUTHORIZED,
                "Missing authentication: send an Authorization: Bearer <token> header",
                "missing_token",
            ),
            None,
        ));
    };
    value.to_str().ok().and_then(parse_bearer).ok_or_else(|| {
        challenge(
            router_error_response(
                StatusCode::UNAUTHORIZED,
                "Bad HTTP authentication header format: expected Authorization: Bearer <token>",
                "malformed_token",
            ),
            Some("invalid_request"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(authorization: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(value) = authorization {
            headers.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    fn error_code(response: Response) -> (StatusCode, String) {
        let status = response.status();
        let body = json_body(response);
        (status, body["errorCode"].as_str().unwrap().to_string())
    }

    fn json_body(response: Response) -> serde_json::Value {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap();
            serde_json::from_slice(&bytes).unwrap()
        })
    }

    #[test]
    fn the_scheme_is_case_insensitive() {
        for value in ["Bearer abc", "bearer abc", "BEARER abc", "Bearer   abc  "] {
            assert_eq!(parse_bearer(value), Some("abc"), "{value:?}");
        }
    }

    #[test]
    fn other_schemes_and_malformed_values_are_refused() {
        for value in [
            "Basic abc",
            "Bearer",
            "Bearer ",
            "Bearer a b",
            "Bearerabc",
            "abc",
        ] {
            assert_eq!(parse_bearer(value), None, "{value:?}");
        }
    }

    #[test]
    fn a_missing_header_is_told_apart_from_a_malformed_one() {
        assert_eq!(bearer_token(&headers(Some("Bearer t"))).ok(), Some("t"));
        let missing = bearer_token(&headers(None)).unwrap_err();
        assert_eq!(
            error_code(missing),
            (StatusCode::UNAUTHORIZED, "missing_token".to_string())
        );
        let malformed = bearer_token(&headers(Some("Token t"))).unwrap_err();
        assert_eq!(
            error_code(malformed),
            (StatusCode::UNAUTHORIZED, "malformed_token".to_string())
        );
    }

    #[test]
    fn refusals_carry_the_bearer_challenge_of_rfc_6750() {
        let challenge_of = |response: Response| {
            response.headers()[header::WWW_AUTHENTICATE]
                .to_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(
            challenge_of(bearer_token(&headers(None)).unwrap_err()),
            "Bearer"
        );
        assert_eq!(
            challenge_of(bearer_token(&headers(Some("Basic x"))).unwrap_err()),
            r#"Bearer error="invalid_request""#
        );
        assert_eq!(
            challenge_of(AuthError::Unauthenticated("expired".into()).into_response()),
            r#"Bearer error="invalid_token""#
        );
        assert_eq!(
            challenge_of(AuthError::Forbidden("scope".into()).into_response()),
            r#"Bearer error="insufficient_scope""#
        );
    }

    #[test]
    fn auth_errors_become_401_and_403() {
        let unauthenticated = AuthError::Unauthenticated("expired".into()).into_response();
        assert_eq!(
            error_code(unauthenticated),
            (StatusCode::UNAUTHORIZED, "invalid_token".to_string())
        );
        let forbidden = AuthError::Forbidden("no scope".into()).into_response();
        assert_eq!(
            error_code(forbidden),
            (StatusCode::FORBIDDEN, "insufficient_scope".to_string())
        );
    }

    #[test]
    fn authorization_requests_carry_the_token_and_the_operation() {
        let headers = headers(Some("Bearer tok"));
        let request =
            AuthorizationRequest::from_headers(&headers, "get_thing", &["read:things"]).unwrap();
        assert_eq!(request.token, "tok");
        assert_eq!(request.operation_id, "get_thing");
        assert_eq!(request.required_scopes, ["read:things"]);
    }
}
