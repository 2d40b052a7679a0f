//! Responses whose status or media type the implementation picks: a
//! `default` response, a range such as `4XX`, a body in one of several media
//! types, an operation that documents nothing. Each is checked against what
//! the spec documents, since a client decodes by status and media type: a
//! choice the spec does not allow would be misread, so it is answered as a
//! 500 naming the mistake instead.

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::errors::router_error_response;

/// The answer of an operation's `default` variant: `respond(status)` when
/// the operation documents nothing else for `status`. It must not be a 1xx
/// (an interim status), a status the operation lists (`listed`), one in a
/// range it documents (`ranges`, by first digit: `4` for `4XX`), nor a 2xx
/// when the operation documents a success (by a code or `2XX`), since
/// clients read every 2xx as that success.
pub fn default_response(
    status: StatusCode,
    listed: &[u16],
    ranges: &[u16],
    respond: impl FnOnce(StatusCode) -> Response,
) -> Response {
    let code = status.as_u16();
    let class = code / 100;
    let refusal = if status.is_informational() {
        Some("a 1xx status is interim and cannot be the answer")
    } else if listed.contains(&code) {
        Some("the operation lists that status")
    } else if ranges.contains(&class) {
        Some("a range the operation documents covers that status")
    } else if class == 2 && (listed.iter().any(|listed| listed / 100 == 2) || ranges.contains(&2)) {
        Some("the operation documents its success, as which clients read every 2xx")
    } else {
        None
    };
    match refusal {
        Some(reason) => mistake(
            format!("The server answered {status} as the `default` response, but {reason}"),
            "invalid_default_status",
        ),
        None => respond(status),
    }
}

/// The answer of an operation's range variant (`4XX` is `class` 4):
/// `respond(status)` when `status` is in the range and not one the operation
/// lists (`listed`), which clients decode with that status's own type.
pub fn range_response(
    status: StatusCode,
    class: u16,
    listed: &[u16],
    respond: impl FnOnce(StatusCode) -> Response,
) -> Response {
    let code = status.as_u16();
    let refusal = if code / 100 != class {
        Some(format!("which carries {class}xx statuses only"))
    } else if listed.contains(&code) {
        Some("but the operation lists that status".to_string())
    } else {
        None
    };
    match refusal {
        Some(reason) => mistake(
            format!("The server answered {status} as the `{class}XX` response, {reason}"),
            "invalid_range_status",
        ),
        None => respond(status),
    }
}

/// The answer of an operation that documents no response (OpenAPI 3.1 lets
/// `responses` be left out): `response` as the implementation built it,
/// unless its status is a 1xx, which cannot be the answer.
pub fn any_response(response: Response) -> Response {
    if response.status().is_informational() {
        return mistake(
            format!(
                "The server answered {}, but a 1xx status is interim and cannot be the answer",
                response.status()
            ),
            "invalid_status",
        );
    }
    response
}

/// A body passed as bytes with the `Content-Type` the implementation picked
/// among the spec's `documented` media types (parameters aside; a documented
/// range such as `image/*` takes any of its kind).
pub fn raw_response(
    status: StatusCode,
    content_type: HeaderValue,
    documented: &[&str],
    body: Body,
) -> Response {
    let text = content_type.to_str().unwrap_or_default();
    if !documented
        .iter()
        .any(|media_type| media_type_matches(media_type, text))
    {
        return mistake(
            format!(
                "The server answered with Content-Type {}, which the operation does not \
                 document for {status}; it documents: {}",
                String::from_utf8_lossy(content_type.as_bytes()),
                documented.join(", ")
            ),
            "invalid_content_type",
        );
    }
    (status, [(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// Whether `content_type` (a header's text, parameters allowed) is of
/// `media_type`, a media type or a range (`image/*`, `*/*`) from the spec.
pub(crate) fn media_type_matches(media_type: &str, content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    if media_type == "*/*" {
        return !essence.is_empty();
    }
    match media_type.strip_suffix("/*") {
        Some(kind) => essence
            .split_once('/')
            .is_some_and(|(found, _)| found.eq_ignore_ascii_case(kind)),
        None => essence.eq_ignore_ascii_case(media_type),
    }
}

/// The 500 for a response the implementation got wrong. It is the server's
/// own error, so the implementation's `router_error` hook shapes it.
fn mistake(message: String, error_code: &'static str) -> Response {
    router_error_response(StatusCode::INTERNAL_SERVER_ERROR, message, error_code)
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

    fn answered(status: StatusCode) -> Response {
        crate::error_response(status, "answered", "answered")
    }

    async fn refused(response: Response, error_code: &str, says: &str) {
        let (status, body) = json_of(response).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(body["errorCode"], error_code);
        let message = body["message"].as_str().unwrap();
        assert!(message.contains(says), "{message}");
    }

    #[tokio::test]
    async fn a_default_response_carries_what_nothing_else_documents() {
        for (status, listed, ranges) in [
            (StatusCode::CONFLICT, &[200, 404][..], &[][..]),
            (StatusCode::SERVICE_UNAVAILABLE, &[200], &[4]),
            (StatusCode::OK, &[404], &[]),
            (StatusCode::OK, &[], &[]),
            (StatusCode::FOUND, &[200], &[]),
        ] {
            let response = default_response(status, listed, ranges, answered);
            assert_eq!(response.status(), status, "{status} beside {listed:?}");
        }
        for (status, listed, ranges, says) in [
            (
                StatusCode::NOT_FOUND,
                &[200, 404][..],
                &[][..],
                "lists that status",
            ),
            (StatusCode::CREATED, &[200], &[], "documents its success"),
            (
                StatusCode::CREATED,
                &[404],
                &[2],
                "range the operation documents",
            ),
            (
                StatusCode::IM_A_TEAPOT,
                &[200],
                &[4],
                "range the operation documents",
            ),
            (StatusCode::CONTINUE, &[], &[], "1xx"),
        ] {
            let response = default_response(status, listed, ranges, |_| {
                unreachable!("{status} is never answered as `default`")
            });
            refused(response, "invalid_default_status", says).await;
        }
    }

    #[tokio::test]
    async fn a_range_response_carries_its_unlisted_statuses() {
        let response = range_response(StatusCode::IM_A_TEAPOT, 4, &[404, 429], answered);
        assert_eq!(response.status(), StatusCode::IM_A_TEAPOT);
        for (status, says) in [
            (StatusCode::TOO_MANY_REQUESTS, "lists that status"),
            (StatusCode::INTERNAL_SERVER_ERROR, "4xx statuses only"),
            (StatusCode::OK, "4xx statuses only"),
        ] {
            let response = range_response(status, 4, &[404, 429], |_| {
                unreachable!("{status} is never answered as `4XX`")
            });
            refused(response, "invalid_range_status", says).await;
        }
    }

    #[tokio::test]
    async fn an_undocumented_operation_answers_anything_final() {
        let response = any_response(answered(StatusCode::ACCEPTED));
        assert_eq!(response.status(), StatusCode::ACCEPTED);
        let interim = any_response(StatusCode::CONTINUE.into_response());
        refused(interim, "invalid_status", "1xx").await;
    }

    #[tokio::test]
    async fn a_raw_body_goes_with_a_documented_content_type() {
        let documented = ["image/png", "text/*"];
        for content_type in ["image/png", "IMAGE/PNG", "text/csv; charset=utf-8"] {
            let response = raw_response(
                StatusCode::OK,
                HeaderValue::from_static(content_type),
                &documented,
                Body::from("x"),
            );
            assert_eq!(response.status(), StatusCode::OK);
            assert_eq!(response.headers()[header::CONTENT_TYPE], content_type);
        }
        let response = raw_response(
            StatusCode::OK,
            HeaderValue::from_static("image/jpeg"),
            &documented,
            Body::from("x"),
        );
        refused(response, "invalid_content_type", "image/png, text/*").await;
    }

    #[test]
    fn media_type_ranges_match_their_kind() {
        assert!(media_type_matches("*/*", "application/xml"));
        assert!(media_type_matches("image/*", "image/webp"));
        assert!(!media_type_matches("image/*", "imagex/webp"));
        assert!(!media_type_matches("image/png", "image/pngx"));
        assert!(!media_type_matches("*/*", ""));
    }
}
