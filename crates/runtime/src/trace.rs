//! The span a generated server runs each operation in.

use std::future::Future;

use axum::response::Response;
use tracing::Instrument;

/// An operation of a generated server, as its span names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Served {
    /// The `operationId`.
    pub id: &'static str,
    /// The HTTP method, upper case.
    pub method: &'static str,
    /// The path template, relative to the API's base path.
    pub route: &'static str,
}

/// Runs `handler`, which answers a request for `operation`, in an
/// `http.server.request` span with OpenTelemetry's HTTP server fields
/// (`tracing-opentelemetry` exports them as they are): the operation id,
/// method, route template and response status, and `error.type` for a
/// `5xx` (a `4xx` is the client's error, not the server's). With no
/// subscriber interested, the span is disabled and nothing is recorded.
pub async fn traced<F>(operation: &'static Served, handler: F) -> Response
where
    F: Future<Output = Response>,
{
    let span = tracing::info_span!(
        "http.server.request",
        otel.name = %format_args!("{} {}", operation.method, operation.route),
        otel.kind = "server",
        otel.status_code = tracing::field::Empty,
        operation.id = operation.id,
        http.request.method = operation.method,
        http.route = operation.route,
        http.response.status_code = tracing::field::Empty,
        error.type = tracing::field::Empty,
    );
    if span.is_disabled() {
        return handler.await;
    }
    let response = handler.instrument(span.clone()).await;
    let status = response.status();
    span.record("http.response.status_code", status.as_u16());
    if status.is_server_error() {
        span.record("error.type", status.as_str());
        span.record("otel.status_code", "ERROR");
    }
    response
}
