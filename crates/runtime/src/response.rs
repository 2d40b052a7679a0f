//! JSON response bodies.

use std::cell::RefCell;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A serialization buffer larger than this is not kept for the next
/// response, so one huge body does not pin its memory to the thread.
const KEPT_CAPACITY: usize = 64 * 1024;

thread_local! {
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// `body` as an `application/json` response with `status`: what
/// `(status, axum::Json(body))` answers, byte for byte. A `body` that cannot
/// be serialized gets axum's `text/plain` error message with status 500,
/// where `(status, axum::Json(body))` would send it with `status`.
///
/// `axum::Json` writes into a 128-byte buffer that grows by reallocating
/// and copying; a typical resource crosses that size two or three times.
/// Here it is written into a buffer the thread keeps from one response to
/// the next and copied once into an allocation of its exact size.
pub fn json_response<T: Serialize + ?Sized>(status: StatusCode, body: &T) -> Response {
    json_written(status, None, &mut |buffer| {
        serde_json::to_writer(buffer, body)
    })
}

/// [`json_response`] in another JSON media type the spec documents, such as
/// `application/problem+json`.
pub fn json_response_as<T: Serialize + ?Sized>(
    status: StatusCode,
    media_type: &'static str,
    body: &T,
) -> Response {
    json_written(status, Some(media_type), &mut |buffer| {
        serde_json::to_writer(buffer, body)
    })
}

/// The response of [`json_response`] and [`json_response_as`], which `write`
/// serializes the body for. Not generic, so a crate with many body types
/// compiles the buffer handling and the response once, not once per type.
fn json_written(
    status: StatusCode,
    media_type: Option<&'static str>,
    write: &mut dyn FnMut(&mut Vec<u8>) -> serde_json::Result<()>,
) -> Response {
    match write_body(write) {
        Ok(bytes) => {
            let mut response = json_bytes(status, bytes);
            if let Some(media_type) = media_type {
                response
                    .headers_mut()
                    .insert(header::CONTENT_TYPE, HeaderValue::from_static(media_type));
            }
            response
        }
        Err(err) => unserializable(&err),
    }
}

/// axum's answer for a body that cannot be serialized.
fn unserializable(err: &serde_json::Error) -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        )],
        err.to_string(),
    )
        .into_response()
}

/// `bytes`, which hold a JSON document, as a response with `status`.
pub(crate) fn json_bytes(status: StatusCode, bytes: Bytes) -> Response {
    // Built directly: the `(status, [(name, value)], bytes)` tuple costs
    // about 400 instructions more per response, in header conversions.
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// The bytes `write` writes, written into a buffer the thread keeps from one
/// response to the next and copied once into an allocation of their exact
/// size.
pub(crate) fn write_body<E>(write: impl FnOnce(&mut Vec<u8>) -> Result<(), E>) -> Result<Bytes, E> {
    BUFFER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buffer) => {
            buffer.clear();
            let written = write(&mut buffer).map(|()| Bytes::copy_from_slice(&buffer));
            if buffer.capacity() > KEPT_CAPACITY {
                *buffer = Vec::new();
            }
            written
        }
        // Only a `write` that itself answers a request could get here; it
        // gets a buffer of its own.
        Err(_) => {
            let mut buffer = Vec::new();
            write(&mut buffer).map(|()| Bytes::from(buffer))
        }
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    async fn parts(response: Response) -> (StatusCode, Option<String>, Bytes) {
        let status = response.status();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|value| value.to_str().unwrap().to_owned());
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, content_type, body)
    }

    #[tokio::test]
    async fn answers_what_axum_json_answers() {
        let small = serde_json::json!({"id": "a"});
        let large: BTreeMap<String, String> = (0..2000)
            .map(|index| (format!("key{index}"), "é\"\n".repeat(index % 7)))
            .collect();
        // The large body first, so the small one reuses a longer buffer.
        for status in [StatusCode::OK, StatusCode::CREATED] {
            let large_value = serde_json::to_value(&large).unwrap();
            for body in [&large_value, &small] {
                let ours = parts(json_response(status, body)).await;
                let axums = parts((status, axum::Json(body)).into_response()).await;
                assert_eq!(ours, axums);
            }
        }
    }

    #[tokio::test]
    async fn a_body_that_cannot_be_serialized_is_a_500_with_axums_message() {
        // JSON object keys must be strings.
        let body: BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into_iter().collect();
        let (status, content_type, message) = parts(json_response(StatusCode::OK, &body)).await;
        let axums = parts(axum::Json(&body).into_response()).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!((status, content_type, message), axums);
    }

    #[tokio::test]
    async fn another_json_media_type_is_the_content_type() {
        let (status, content_type, body) = parts(json_response_as(
            StatusCode::NOT_FOUND,
            "application/problem+json",
            &serde_json::json!({"title": "gone"}),
        ))
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(content_type.as_deref(), Some("application/problem+json"));
        assert_eq!(body, r#"{"title":"gone"}"#);
    }

    #[test]
    fn a_huge_body_does_not_stay_in_the_thread() {
        let huge = "x".repeat(2 * KEPT_CAPACITY);
        let _ = json_response(StatusCode::OK, &huge);
        BUFFER.with_borrow(|buffer| assert!(buffer.capacity() <= KEPT_CAPACITY));
        let _ = json_response(StatusCode::OK, "small");
        BUFFER.with_borrow(|buffer| assert!(buffer.capacity() > 0));
    }
}
