//! Both routers driven in-process, without sockets: the check that they
//! answer alike, and a loop for profilers (`repeat`), which sees only the
//! routers' own work.

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{Request, StatusCode, header};
use tower::ServiceExt;

use crate::Server;
use crate::load::{KINDS, Kind};
use crate::work::TOKEN;

pub fn router(server: Server) -> Router {
    match server {
        Server::Generated => crate::generated::router(),
        Server::Baseline => crate::baseline::router(),
    }
}

/// The request `kind` stands for.
pub fn request(kind: &Kind) -> Request<Body> {
    let builder = Request::builder()
        .method(kind.method)
        .uri(kind.path)
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"));
    match (kind.content_type, kind.body) {
        (Some(content_type), Some(body)) => builder
            .header(header::CONTENT_TYPE, content_type)
            .body(Body::from(body)),
        _ => builder.body(Body::empty()),
    }
    .expect("a valid request")
}

/// What a client sees of an answer: status, content type and body bytes.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    pub status: StatusCode,
    pub content_type: Option<String>,
    pub body: Bytes,
}

pub async fn answer(router: Router, kind: &Kind) -> Answer {
    let response = router
        .oneshot(request(kind))
        .await
        .expect("routers are infallible");
    let status = response.status();
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|value| value.to_str().expect("ASCII").to_string());
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a readable body");
    Answer {
        status,
        content_type,
        body,
    }
}

/// Sends `requests` requests of the kind named `slug` to `server`, in
/// process, on one thread: a steady workload for `perf` or callgrind.
pub fn repeat(server: Server, slug: &str, requests: u64) -> Result<(), String> {
    let kind = KINDS
        .iter()
        .find(|kind| kind.slug() == slug)
        .ok_or_else(|| {
            let known: Vec<String> = KINDS.iter().map(Kind::slug).collect();
            format!("no kind `{slug}`; known: {}", known.join(", "))
        })?;
    let router = router(server);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|err| err.to_string())?;
    runtime.block_on(async {
        for _ in 0..requests {
            let answer = answer(router.clone(), kind).await;
            if answer.status.as_u16() != kind.expected_status {
                return Err(format!("{} answered {}", kind.name, answer.status));
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The baseline is a fair yardstick only if it meets the same contract:
    /// for every kind the benchmark sends, both answer with the same status,
    /// content type and body, byte for byte.
    #[tokio::test]
    async fn both_routers_answer_every_kind_identically() {
        for kind in KINDS {
            let generated = answer(router(Server::Generated), kind).await;
            let baseline = answer(router(Server::Baseline), kind).await;
            assert_eq!(
                generated.status.as_u16(),
                kind.expected_status,
                "{}",
                kind.name
            );
            assert_eq!(
                generated.content_type.as_deref(),
                Some("application/json"),
                "{}",
                kind.name
            );
            assert_eq!(generated, baseline, "{}", kind.name);
        }
    }

    /// The rejected kind exercises the structured error list, not just the
    /// message.
    #[tokio::test]
    async fn the_rejected_kind_lists_every_broken_rule() {
        let kind = KINDS
            .iter()
            .find(|kind| kind.expected_status == 400)
            .unwrap();
        let answer = answer(router(Server::Baseline), kind).await;
        let body: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
        assert_eq!(
            body["errors"],
            serde_json::json!([
                {"pointer": "/name", "code": "min_length", "detail": "'name' must be at least 3 characters long"},
                {"pointer": "/type", "code": "enum", "detail": "the type field must be custom"},
            ])
        );
    }

    #[test]
    fn kinds_are_named_on_the_command_line_by_slug() {
        let slugs: Vec<String> = KINDS.iter().map(Kind::slug).collect();
        assert_eq!(slugs, ["get", "post-json", "post-form", "post-rejected"]);
        assert!(repeat(Server::Baseline, "nope", 1).is_err());
        assert!(repeat(Server::Generated, "post-form", 3).is_ok());
    }
}
