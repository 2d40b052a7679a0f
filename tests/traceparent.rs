//! W3C trace context over a socket, with the generated crates'
//! `opentelemetry` feature: the tenant client sends its call's span as
//! `traceparent`, and the tenant server's operation span continues it, so
//! an exporter sees one trace across both. The application installs the
//! propagator and `tracing-opentelemetry`'s layer, as a team would; spans
//! are exported to memory.

use std::time::Duration;

use opentelemetry::trace::{SpanId, SpanKind, TraceId, TracerProvider as _};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use tenant_api_client::{Client, RetryPolicy};
use tracing_subscriber::layer::SubscriberExt;

/// Answers every operation with the trait's 501, to any caller.
struct Unimplemented;

impl tenant_api_server::TenantManagementApi for Unimplemented {
    type Caller = ();

    async fn authorize(
        &self,
        _request: tenant_api_server::AuthorizationRequest<'_>,
    ) -> Result<(), tenant_api_server::AuthError> {
        Ok(())
    }
}

/// The finished spans, once there are `count` (a server span ends when its
/// response has gone, a moment after the client has it).
async fn finished(
    provider: &SdkTracerProvider,
    exporter: &InMemorySpanExporter,
    count: usize,
) -> Vec<SpanData> {
    for _ in 0..500 {
        provider.force_flush().unwrap();
        let spans = exporter.get_finished_spans().unwrap();
        if spans.len() >= count {
            return spans;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "fewer than {count} spans: {:?}",
        exporter.get_finished_spans()
    );
}

#[tokio::test]
async fn the_server_continues_the_trace_the_client_sends() {
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let subscriber = tracing_subscriber::registry()
        .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("tests")));
    tracing::subscriber::set_global_default(subscriber).unwrap();

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let router = tenant_api_server::router(Unimplemented);
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let base = format!("http://{address}/api/v2");

    let client = Client::builder(&base)
        .credential("bearerAuth", tenant_api_client::Credential::token("t-1"))
        .retry(RetryPolicy::disabled())
        .build()
        .unwrap();
    let error = client
        .get_action_module()
        .id("mod_1")
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.status().map(|status| status.as_u16()), Some(501));
    // A caller this crate did not generate, with a trace of its own, and
    // one with none.
    let http = reqwest::Client::new();
    let url = format!("{base}/actions/modules/mod_2");
    let remote = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    let continued = http
        .get(&url)
        .bearer_auth("t-2")
        .header("traceparent", remote)
        .send()
        .await
        .unwrap();
    assert_eq!(continued.status(), 501);
    let fresh = http.get(&url).bearer_auth("t-3").send().await.unwrap();
    assert_eq!(fresh.status(), 501);

    let spans = finished(&provider, &exporter, 4).await;
    let of_kind = |kind: SpanKind| -> Vec<&SpanData> {
        spans.iter().filter(|span| span.span_kind == kind).collect()
    };
    let [call] = of_kind(SpanKind::Client)[..] else {
        panic!("one client span: {spans:#?}");
    };
    assert_eq!(call.name, "GET /actions/modules/{id}");
    let served = of_kind(SpanKind::Server);
    assert_eq!(served.len(), 3, "{spans:#?}");
    for span in &served {
        assert_eq!(span.name, "GET /actions/modules/{id}");
    }
    let under = |trace: TraceId, parent: SpanId| {
        served.iter().any(|span| {
            span.span_context.trace_id() == trace
                && span.parent_span_id == parent
                && span.parent_span_is_remote
        })
    };
    assert!(
        under(call.span_context.trace_id(), call.span_context.span_id()),
        "the generated client's trace is continued: {served:#?}"
    );
    assert!(
        under(
            TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap(),
            SpanId::from_hex("00f067aa0ba902b7").unwrap()
        ),
        "another caller's trace is continued: {served:#?}"
    );
    let roots: Vec<_> = served
        .iter()
        .filter(|span| span.parent_span_id == SpanId::INVALID)
        .collect();
    assert_eq!(roots.len(), 1, "a request without a trace starts one");
    assert_ne!(
        roots[0].span_context.trace_id(),
        call.span_context.trace_id()
    );
}
