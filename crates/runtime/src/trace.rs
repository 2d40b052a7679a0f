//! The span a generated server runs each operation in.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use axum::http::HeaderMap;
use axum::response::Response;

/// An operation of a generated server, as its span names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Served {
    /// The `operationId`.
    pub id: &'static str,
    /// The HTTP method, upper case.
    pub method: &'static str,
    /// The path template, relative to the API's base path.
    pub route: &'static str,
    /// For an operation whose body streams (a binary upload), the most
    /// bytes the spec allows (its `maxLength`), else the runtime's
    /// [`STREAMED_BODY_LIMIT`](crate::STREAMED_BODY_LIMIT); `None` for a
    /// body read whole, under the router's limit.
    pub body_limit: Option<u64>,
}

/// The span a handler answering a request for `operation` runs in (see
/// [`Tracing::run`]): an `http.server.request` span with OpenTelemetry's
/// HTTP server fields (`tracing-opentelemetry` exports them as they are):
/// the operation id, method, route template and response status, and
/// `error.type` for a `5xx` (a `4xx` is the client's error, not the
/// server's). With the `opentelemetry` feature it continues the trace the
/// request's `headers` carry (`traceparent`).
///
/// With no subscriber interested the span is disabled: each poll is then
/// one branch more than the handler's own. (With no subscriber set at all
/// there is no span, so a `log` logger does not see it.)
pub fn traced(operation: &'static Served, headers: &HeaderMap) -> Tracing {
    // Before any subscriber is set, tracing with its `log` feature (which
    // axum turns on) still builds every disabled span's fields to offer
    // them to `log`: hundreds of instructions per request for nothing.
    let span = if tracing::dispatcher::has_been_set() {
        operation_span(operation)
    } else {
        tracing::Span::none()
    };
    #[cfg(feature = "opentelemetry")]
    if !span.is_disabled() {
        crate::propagation::continue_trace(&span, headers);
    }
    #[cfg(not(feature = "opentelemetry"))]
    let _ = headers;
    Tracing { span }
}

/// The span of a request, before its handler runs in it.
#[derive(Debug)]
pub struct Tracing {
    span: tracing::Span,
}

impl Tracing {
    /// `handler` run in the span. A generated handler returns this future
    /// itself rather than awaiting it in an `async fn`, which would copy
    /// the handler's state into a second one.
    pub fn run<F>(self, handler: F) -> Traced<F>
    where
        F: Future<Output = Response>,
    {
        Traced {
            handler,
            span: self.span,
        }
    }
}

/// The span of `operation`, apart from [`traced`] so that a handler's code
/// stays as small as it was without one.
#[inline(never)]
fn operation_span(operation: &'static Served) -> tracing::Span {
    tracing::info_span!(
        "http.server.request",
        otel.name = %format_args!("{} {}", operation.method, operation.route),
        otel.kind = "server",
        otel.status_code = tracing::field::Empty,
        operation.id = operation.id,
        http.request.method = operation.method,
        http.route = operation.route,
        http.response.status_code = tracing::field::Empty,
        error.type = tracing::field::Empty,
    )
}

/// Records the status of `response` on `span`.
#[inline(never)]
fn record_status(span: &tracing::Span, response: &Response) {
    let status = response.status();
    span.record("http.response.status_code", status.as_u16());
    if status.is_server_error() {
        span.record("error.type", status.as_str());
        span.record("otel.status_code", "ERROR");
    }
}

pin_project_lite::pin_project! {
    /// The future of [`Tracing::run`].
    pub struct Traced<F> {
        #[pin]
        handler: F,
        span: tracing::Span,
    }
}

impl<F: Future<Output = Response>> Future for Traced<F> {
    type Output = Response;

    fn poll(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<Response> {
        let this = self.project();
        if this.span.is_disabled() {
            return this.handler.poll(context);
        }
        let _entered = this.span.enter();
        let response = ready!(this.handler.poll(context));
        record_status(this.span, &response);
        Poll::Ready(response)
    }
}
