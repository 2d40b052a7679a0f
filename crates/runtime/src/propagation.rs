//! W3C trace context (`traceparent`, `tracestate`) across the wire, with
//! the `opentelemetry` feature: a generated client sends the context of its
//! call's span, and a generated server's operation span continues the one
//! a request carries. OpenTelemetry's propagator (the one the application
//! installs with `opentelemetry::global::set_text_map_propagator`) reads
//! and writes the headers; the spans are `tracing`'s, bridged by
//! `tracing-opentelemetry`. Without that propagator, or without the bridge's
//! layer in the subscriber, nothing is sent and nothing continued.

use tracing_opentelemetry::OpenTelemetrySpanExt;

/// Writes the trace context of `span` into `headers`.
#[cfg(feature = "client")]
pub(crate) fn inject(span: &tracing::Span, headers: &mut reqwest::header::HeaderMap) {
    let context = span.context();
    opentelemetry::global::get_text_map_propagator(|propagator| {
        propagator.inject_context(&context, &mut opentelemetry_http::HeaderInjector(headers));
    });
}

/// Makes `span` continue the trace the request's `headers` carry. A
/// request carrying none leaves the span where `tracing` put it (under the
/// span of a layer in front of the router, if there is one).
#[cfg(feature = "server")]
pub(crate) fn continue_trace(span: &tracing::Span, headers: &axum::http::HeaderMap) {
    use opentelemetry::trace::TraceContextExt;
    let parent = opentelemetry::global::get_text_map_propagator(|propagator| {
        propagator.extract(&opentelemetry_http::HeaderExtractor(headers))
    });
    if parent.span().span_context().is_valid() {
        // Fails only where the subscriber has no OpenTelemetry layer, which
        // then has no trace to continue either.
        let _ = span.set_parent(parent);
    }
}
