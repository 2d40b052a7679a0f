//! The API's error body and the responses the router itself produces.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::checks::Violations;

/// The API's error body: `statusCode`, `error` (the reason phrase), `message`
/// and `errorCode`, in that order on the wire, and for a request that broke
/// the spec's rules, `errors`: every broken rule, each with its place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorBody {
    #[serde(rename = "statusCode")]
    pub status_code: u16,
    pub error: String,
    pub message: String,
    #[serde(rename = "errorCode")]
    pub error_code: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ErrorItem>,
}

/// One broken rule (RFC 9457 style): a JSON Pointer into the body, a stable
/// `code` naming the rule, and a `detail` naming the field and the rule
/// without repeating the submitted value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorItem {
    /// Where in the body; absent for a parameter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// Where the broken parameter travels: `path`, `query` or `header`.
    #[serde(rename = "in", skip_serializing_if = "Option::is_none")]
    pub location: Option<&'static str>,
    /// The broken parameter's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub code: String,
    pub detail: String,
}

impl ErrorBody {
    pub fn new(status: StatusCode, message: impl Into<String>, error_code: &str) -> Self {
        Self {
            status_code: status.as_u16(),
            error: status.canonical_reason().unwrap_or("Error").to_string(),
            message: message.into(),
            error_code: error_code.to_string(),
            errors: Vec::new(),
        }
    }
}

impl ErrorBody {
    /// The 501 of an operation the server does not implement, as the
    /// router's own error: the implementation's `router_error` hook shapes it.
    pub fn into_router_error_response(self) -> Response {
        let code = if self.error_code == "not_implemented" {
            "not_implemented"
        } else {
            "router_error"
        };
        let message = self.message.clone();
        let violations = Violations::new();
        crate::router_error::mark(self.into_response(), code, message, violations)
    }

    /// The 501 a generated trait's default method answers for an operation
    /// the server does not implement.
    pub fn not_implemented(operation_id: &str) -> Self {
        Self::new(
            StatusCode::NOT_IMPLEMENTED,
            format!("The operation `{operation_id}` is not implemented by this server"),
            "not_implemented",
        )
    }
}

impl IntoResponse for ErrorBody {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status_code).unwrap_or(StatusCode::BAD_REQUEST);
        crate::json_response(status, &self)
    }
}

/// The router's own error: the API's error body, marked for the
/// implementation's `router_error` hook ([`crate::RouterError`]).
pub(crate) fn router_error_response(
    status: StatusCode,
    message: impl Into<String>,
    error_code: &'static str,
) -> Response {
    let message = message.into();
    let response = error_response(status, message.clone(), error_code);
    crate::router_error::mark(response, error_code, message, Violations::new())
}

/// A response with the API's error body.
pub fn error_response(
    status: StatusCode,
    message: impl Into<String>,
    error_code: &str,
) -> Response {
    ErrorBody::new(status, message, error_code).into_response()
}

/// The status code `code`, for documented statuses without a constant in
/// `http` (such as 420). Codes outside 100-999 cannot be documented in a spec
/// the generator accepts; they fall back to 500 rather than panic.
pub fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The 400 response for a body that broke the spec's rules: the message
/// lists every detail, and `errors` every violation with its pointer.
pub fn validation_failed(violations: Violations) -> Response {
    rejected(violations, "Payload validation error", "invalid_body")
}

/// The 400 for parameters (path, query or headers) that broke the spec's
/// rules: every violation, each with its `in` and `name`.
pub fn parameters_rejected(violations: Violations) -> Response {
    rejected(
        violations,
        "Parameter validation error",
        "invalid_parameters",
    )
}

/// The [`ErrorBody`] of a rejected request, written straight as JSON: the
/// bytes serde writes for it (a test compares them), without building the
/// body's strings and items first. Rejections are the one error a client
/// can cause at volume, so their cost is the server's.
fn rejected(violations: Violations, title: &'static str, error_code: &'static str) -> Response {
    let status = StatusCode::BAD_REQUEST;
    let Ok(json) = crate::response::write_body(|json| {
        json.extend_from_slice(b"{\"statusCode\":");
        json.extend_from_slice(status.as_str().as_bytes());
        json.extend_from_slice(b",\"error\":");
        json_string(json, status.canonical_reason().unwrap_or("Error"));
        json.extend_from_slice(b",\"message\":\"");
        json_escaped(json, title);
        json.extend_from_slice(b": ");
        for (index, violation) in violations.iter().enumerate() {
            if index > 0 {
                json.extend_from_slice(b"; ");
            }
            json_escaped(json, &violation.detail);
        }
        json.extend_from_slice(b"\",\"errorCode\":");
        json_string(json, error_code);
        if !violations.is_empty() {
            json.extend_from_slice(b",\"errors\":[");
            for (index, violation) in violations.iter().enumerate() {
                if index > 0 {
                    json.push(b',');
                }
                match &violation.parameter {
                    Some((location, name)) => {
                        json.extend_from_slice(b"{\"in\":");
                        json_string(json, location);
                        json.extend_from_slice(b",\"name\":");
                        json_string(json, name);
                    }
                    None => {
                        json.extend_from_slice(b"{\"pointer\":");
                        json_string(json, &violation.pointer);
                    }
                }
                json.extend_from_slice(b",\"code\":");
                json_string(json, violation.code);
                json.extend_from_slice(b",\"detail\":");
                json_string(json, &violation.detail);
                json.push(b'}');
            }
            json.push(b']');
        }
        json.push(b'}');
        Ok::<(), std::convert::Infallible>(())
    });
    crate::router_error::mark(
        crate::response::json_bytes(status, json),
        error_code,
        title,
        violations,
    )
}

/// `text` as a JSON string, quoted.
fn json_string(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    json_escaped(out, text);
    out.push(b'"');
}

/// `text` escaped as serde_json escapes it: quotes, backslashes and control
/// characters (the short forms where JSON has them, else `\u00XX` in lower
/// case hex); everything else, non-ASCII text included, as it is.
fn json_escaped(out: &mut Vec<u8>, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = text.as_bytes();
    let mut start = 0;
    for (index, &byte) in bytes.iter().enumerate() {
        let short: &[u8] = match byte {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0x00..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..index]);
        if short.is_empty() {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(byte >> 4)]);
            out.push(HEX[usize::from(byte & 0xf)]);
        } else {
            out.extend_from_slice(short);
        }
        start = index + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// The response for a path whose parameters could not be extracted.
pub fn path_rejected(rejection: axum::extract::rejection::PathRejection) -> Response {
    router_error_response(rejection.status(), rejection.body_text(), "invalid_path")
}

/// The response for a path whose parameters could not be read (not UTF-8
/// once percent-decoded).
pub fn raw_path_rejected(rejection: &axum::extract::rejection::RawPathParamsRejection) -> Response {
    router_error_response(rejection.status(), rejection.body_text(), "invalid_path")
}

/// The 404 for paths the API does not have.
pub async fn not_found() -> Response {
    router_error_response(
        StatusCode::NOT_FOUND,
        "Not Found: no such path",
        "not_found",
    )
}

/// The 405 for paths the API has, called with another method.
pub async fn method_not_allowed() -> Response {
    router_error_response(
        StatusCode::METHOD_NOT_ALLOWED,
        "Method Not Allowed for this path",
        "method_not_allowed",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn json_of(response: Response) -> (StatusCode, serde_json::Value) {
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn error_body_has_the_four_fields_in_order() {
        let response = error_response(StatusCode::CONFLICT, "exists", "conflict");
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "clients parse the body as JSON"
        );
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        assert_eq!(
            std::str::from_utf8(&bytes).unwrap(),
            r#"{"statusCode":409,"error":"Conflict","message":"exists","errorCode":"conflict"}"#
        );
    }

    #[tokio::test]
    async fn a_status_without_reason_phrase_is_kept_exactly() {
        assert_eq!(status(420).as_u16(), 420);
        let (code, body) = json_of(error_response(status(420), "calm down", "enhance")).await;
        assert_eq!(code.as_u16(), 420);
        assert_eq!(body["statusCode"], 420);
        assert_eq!(body["error"], "Error");
    }

    #[test]
    fn out_of_range_codes_do_not_panic() {
        assert_eq!(status(42), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[tokio::test]
    async fn validation_failures_list_every_violation_with_its_pointer() {
        use crate::checks::{Location, max_length, required};
        let mut violations = Violations::new();
        let body = crate::json::Value::from(serde_json::json!({}));
        required(
            body.as_object().unwrap(),
            &Location::Body,
            &["a"],
            &mut violations,
        );
        max_length(
            "secret value",
            3,
            &Location::Body.property("b"),
            &mut violations,
        );
        let (code, body) = json_of(validation_failed(violations)).await;
        assert_eq!(code, StatusCode::BAD_REQUEST);
        assert_eq!(
            body["message"],
            "Payload validation error: 'a' is required; 'b' must be at most 3 characters long"
        );
        assert_eq!(body["errorCode"], "invalid_body");
        assert_eq!(
            body["errors"],
            serde_json::json!([
                {"pointer": "/a", "code": "required", "detail": "'a' is required"},
                {"pointer": "/b", "code": "max_length", "detail": "'b' must be at most 3 characters long"},
            ])
        );
        assert!(
            !body.to_string().contains("secret value"),
            "the submitted value is echoed"
        );
    }

    /// The body as `ErrorBody` and serde would write it.
    fn through_serde(violations: Violations, title: &str, error_code: &str) -> Vec<u8> {
        let details: Vec<&str> = violations.iter().map(|v| v.detail.as_str()).collect();
        let mut body = ErrorBody::new(
            StatusCode::BAD_REQUEST,
            format!("{title}: {}", details.join("; ")),
            error_code,
        );
        body.errors = violations
            .into_iter()
            .map(|violation| {
                let (pointer, location, name) = match violation.parameter {
                    Some((location, name)) => (None, Some(location), Some(name)),
                    None => (Some(violation.pointer), None, None),
                };
                ErrorItem {
                    pointer,
                    location,
                    name,
                    code: violation.code.to_string(),
                    detail: violation.detail,
                }
            })
            .collect();
        serde_json::to_vec(&body).unwrap()
    }

    #[tokio::test]
    async fn rejections_are_written_as_serde_writes_the_error_body() {
        use crate::checks::Location;
        let tricky = "q\"b\\s/\u{0}\u{1f}\u{7f}\u{8}\u{c}\n\r\t é 😀 </script>";
        let mut all = Violations::new();
        all.add(
            &Location::Body.property(tricky),
            "required",
            format!("{tricky} is required"),
        );
        all.add(
            &Location::Body.property("a").item(2),
            "enum",
            "plain".into(),
        );
        all.add(&Location::Parameter("query", tricky), "type", tricky.into());
        let cases = [
            (all, "Payload validation error", "invalid_body"),
            (Violations::new(), "T\"", "c\\"),
        ];
        for (violations, title, code) in cases {
            let expected = through_serde(violations.clone(), title, code);
            let response = rejected(violations, title, code);
            assert_eq!(response.status(), StatusCode::BAD_REQUEST);
            assert_eq!(response.headers().len(), 1);
            assert_eq!(response.headers()["content-type"], "application/json");
            let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap();
            assert_eq!(
                String::from_utf8_lossy(&bytes),
                String::from_utf8_lossy(&expected)
            );
        }
    }

    #[tokio::test]
    async fn fallbacks_answer_with_the_error_body() {
        let (code, body) = json_of(not_found().await).await;
        assert_eq!(
            (code, &body["errorCode"]),
            (StatusCode::NOT_FOUND, &"not_found".into())
        );
        let (code, body) = json_of(method_not_allowed().await).await;
        assert_eq!(code, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(body["statusCode"], 405);
    }
}
