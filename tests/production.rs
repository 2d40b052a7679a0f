//! What the generated crates give any API for production, over sockets,
//! without a hand-written layer: the client's retries, timeouts and span per
//! call (`Client::builder`), enums that keep a value a newer server sends,
//! and the server's span per operation, its middleware and request context. A scripted
//! server answers each connection as the test says (a status, a dropped
//! connection, a stall), so every attempt the client makes is counted.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tenant_api_client::{Client, RetryPolicy, Timeouts};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tracing_subscriber::layer::SubscriberExt;

/// How the scripted server answers one connection.
#[derive(Debug, Clone, Copy)]
enum Reply {
    /// This status, with `Retry-After: 0` and an empty JSON object.
    Status(u16),
    /// The action module the GET asks for.
    Module,
    /// This status and body.
    Body(u16, &'static str),
    /// Reads the request and closes the connection without answering.
    Drop,
    /// Reads the request and answers nothing for longer than any test waits.
    Stall,
}

/// A server answering its connections by `script`, one reply each (every
/// response closes its connection, so one attempt is one connection), and
/// the count of requests it read.
async fn scripted(script: &[Reply]) -> (String, Arc<Mutex<usize>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let script = Arc::new(Mutex::new(script.iter().copied().collect::<VecDeque<_>>()));
    let requests = Arc::new(Mutex::new(0));
    let counted = Arc::clone(&requests);
    tokio::spawn(async move {
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            let reply = script
                .lock()
                .unwrap()
                .pop_front()
                .expect("a reply for each attempt");
            let counted = Arc::clone(&counted);
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buffer = [0u8; 4096];
                while !request.windows(4).any(|window| window == b"\r\n\r\n") {
                    let read = socket.read(&mut buffer).await.unwrap();
                    assert!(read > 0, "the request ended before its headers");
                    request.extend_from_slice(&buffer[..read]);
                }
                *counted.lock().unwrap() += 1;
                let (status, body) = match reply {
                    Reply::Drop => return,
                    Reply::Stall => {
                        tokio::time::sleep(Duration::from_secs(30)).await;
                        return;
                    }
                    Reply::Status(status) => (status, "{}".to_string()),
                    Reply::Module => (200, MODULE.to_string()),
                    Reply::Body(status, body) => (status, body.to_string()),
                };
                let response = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\nretry-after: 0\r\n\
                     connection: close\r\ncontent-length: {}\r\n\r\n{body}",
                    body.len()
                );
                socket.write_all(response.as_bytes()).await.unwrap();
            });
        }
    });
    (format!("http://{address}/api/v2"), requests)
}

const MODULE: &str = r#"{"id":"mod_1","name":"m","code":"","dependencies":[],"secrets":[],
    "actions_using_module_total":0,"all_changes_published":true,
    "created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}"#;

fn fast_retries() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 4,
        max_wait: Duration::from_millis(50),
        base_delay: Duration::from_millis(5),
    }
}

fn stream() -> tenant_api_client::types::CreateEventStreamRequest {
    serde_json::from_value(workspace_tests::samples::stream_request("p")).unwrap()
}

fn client(base: &str) -> Client {
    Client::builder(base).retry(fast_retries()).build().unwrap()
}

#[tokio::test]
async fn a_get_is_retried_after_a_503_a_dropped_connection_and_a_429() {
    let script = [
        Reply::Status(503),
        Reply::Drop,
        Reply::Status(429),
        Reply::Module,
    ];
    let (base, requests) = scripted(&script).await;
    let module = client(&base)
        .get_action_module()
        .id("mod_1")
        .send()
        .await
        .unwrap();
    assert_eq!(module.id, "mod_1");
    assert_eq!(*requests.lock().unwrap(), 4);
}

#[tokio::test]
async fn a_get_gives_up_when_its_attempts_are_spent() {
    let script = [Reply::Status(503); 4];
    let (base, requests) = scripted(&script).await;
    let error = client(&base)
        .get_action_module()
        .id("mod_1")
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.status().map(|status| status.as_u16()), Some(503));
    assert_eq!(*requests.lock().unwrap(), 4, "the policy's four attempts");
}

#[tokio::test]
async fn a_post_that_may_have_been_applied_is_sent_once() {
    for reply in [Reply::Status(503), Reply::Drop] {
        let (base, requests) = scripted(&[reply]).await;
        let sent = client(&base)
            .create_event_stream()
            .body(stream())
            .send()
            .await;
        assert!(sent.is_err(), "{reply:?}");
        assert_eq!(*requests.lock().unwrap(), 1, "{reply:?} is not retried");
    }
}

#[tokio::test]
async fn a_post_refused_with_429_is_sent_again() {
    let (base, requests) = scripted(&[Reply::Status(429), Reply::Status(418)]).await;
    let error = client(&base)
        .create_event_stream()
        .body(stream())
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.status().map(|status| status.as_u16()), Some(418));
    assert_eq!(*requests.lock().unwrap(), 2);
}

/// An event stream whose `status` is a value the description does not list.
const PAUSED_STREAM: &str = r#"{"id":"est_0123456789abcdefghijkl","name":"audit",
    "status":"paused","subscriptions":[{"event_type":"user.created"}],
    "destination":{"type":"webhook","configuration":{
        "webhook_endpoint":"https://hooks.example.com/events",
        "webhook_authorization":{"method":"basic","username":"hook"}}},
    "created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}"#;

#[tokio::test]
async fn a_value_a_newer_server_added_to_an_enum_is_decoded_and_kept() {
    use tenant_api_client::types::EventStreamStatus;
    let (base, _) = scripted(&[Reply::Body(201, PAUSED_STREAM)]).await;
    let created = client(&base)
        .create_event_stream()
        .body(stream())
        .send()
        .await
        .expect("one unlisted value does not fail the response")
        .into_inner();
    let EventStreamStatus::Unknown(value) = &created.status else {
        panic!("decoded as a listed value: {:?}", created.status);
    };
    assert_eq!(value.as_str(), "paused");
    assert_eq!(created.status.to_string(), "paused");
    let written = serde_json::to_value(&created).unwrap();
    assert_eq!(written["status"], "paused", "written back as received");
    // A value is only ever made by decoding: the listed values parse, the
    // unlisted one does not, so a request cannot invent one.
    assert_eq!(
        "enabled".parse::<EventStreamStatus>().unwrap(),
        EventStreamStatus::Enabled
    );
    assert!("paused".parse::<EventStreamStatus>().is_err());
}

#[tokio::test]
async fn a_read_timeout_is_honoured() {
    let (base, requests) = scripted(&[Reply::Stall]).await;
    let client = Client::builder(&base)
        .retry(RetryPolicy::disabled())
        .timeouts(Timeouts {
            read: Some(Duration::from_millis(200)),
            ..Timeouts::default()
        })
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let error = client
        .get_action_module()
        .id("mod_1")
        .send()
        .await
        .unwrap_err();
    let tenant_api_client::Error::CommunicationError(error) = error else {
        panic!("a communication error, not {error:?}");
    };
    assert!(error.is_timeout(), "{error:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(*requests.lock().unwrap(), 1);
}

/// A span's name (with its id) and the fields recorded on it, in order.
type Recorded = (String, Vec<(String, String)>);

/// The spans a test's calls opened.
#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<Recorded>>>);

struct Fields<'a>(&'a mut Vec<(String, String)>);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0
            .push((field.name().to_string(), format!("{value:?}")));
    }

    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.push((field.name().to_string(), value.to_string()));
    }
}

impl<S> tracing_subscriber::Layer<S> for Spans
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    fn on_new_span(
        &self,
        attributes: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        _context: tracing_subscriber::layer::Context<'_, S>,
    ) {
        let mut fields = Vec::new();
        attributes.record(&mut Fields(&mut fields));
        let name = attributes.metadata().name().to_string();
        self.0
            .lock()
            .unwrap()
            .push((format!("{}#{}", name, id.into_u64()), fields));
    }

    fn on_record(
        &self,
        id: &tracing::span::Id,
        values: &tracing::span::Record<'_>,
        _context: tracing_subscriber::layer::Context<'_, S>,
    ) {
        let mut spans = self.0.lock().unwrap();
        let suffix = format!("#{}", id.into_u64());
        if let Some((_, fields)) = spans
            .iter_mut()
            .rev()
            .find(|(name, _)| name.ends_with(&suffix))
        {
            values.record(&mut Fields(fields));
        }
    }
}

impl Spans {
    /// The spans of every test of this binary. The subscriber is global:
    /// tracing caches whether a callsite is enabled, and a thread-local one
    /// races with the other tests' threads, which have none.
    fn global() -> &'static Spans {
        static SPANS: std::sync::OnceLock<Spans> = std::sync::OnceLock::new();
        SPANS.get_or_init(|| {
            let spans = Spans::default();
            tracing::subscriber::set_global_default(
                tracing_subscriber::registry().with(spans.clone()),
            )
            .expect("no other global subscriber");
            spans
        })
    }

    /// The last value of each field of the one span named `name` whose
    /// `url.full` starts with `base` (one test's server).
    fn only(&self, name: &str, base: &str) -> std::collections::BTreeMap<String, String> {
        let spans = self.0.lock().unwrap();
        let mut named = spans.iter().filter(|(span, fields)| {
            span.split('#').next() == Some(name)
                && fields
                    .iter()
                    .any(|(field, value)| field == "url.full" && value.starts_with(base))
        });
        let (_, fields) = named.next().unwrap_or_else(|| panic!("no span {name}"));
        assert!(named.next().is_none(), "one span {name} per call");
        fields.iter().cloned().collect()
    }
}

#[tokio::test]
async fn each_call_runs_in_a_span_with_opentelemetrys_fields() {
    let spans = Spans::global();
    let (base, _) = scripted(&[Reply::Status(503), Reply::Module]).await;
    client(&base)
        .get_action_module()
        .id("mod_1")
        .send()
        .await
        .unwrap();
    let fields = spans.only("http.client.request", &base);
    let expected = [
        ("otel.name", "GET /actions/modules/{id}"),
        ("otel.kind", "client"),
        ("operation.id", "get_action_module"),
        ("http.request.method", "GET"),
        ("http.route", "/actions/modules/{id}"),
        ("http.response.status_code", "200"),
        ("http.request.resend_count", "1"),
    ];
    for (field, value) in expected {
        assert_eq!(
            fields.get(field).map(String::as_str),
            Some(value),
            "{field} in {fields:?}"
        );
    }
    assert!(
        fields["url.full"].ends_with("/api/v2/actions/modules/mod_1"),
        "{fields:?}"
    );
    assert!(
        !fields.contains_key("error.type"),
        "a call that succeeded: {fields:?}"
    );

    let (base, _) = scripted(&[Reply::Status(503)]).await;
    let client = Client::builder(&base)
        .retry(RetryPolicy::disabled())
        .build()
        .unwrap();
    client
        .get_action_module()
        .id("mod_1")
        .send()
        .await
        .unwrap_err();
    let fields = spans.only("http.client.request", &base);
    assert_eq!(
        fields.get("error.type").map(String::as_str),
        Some("503"),
        "{fields:?}"
    );
    assert_eq!(
        fields.get("otel.status_code").map(String::as_str),
        Some("ERROR")
    );
}

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

#[tokio::test]
async fn the_server_runs_each_operation_in_a_span_and_the_client_each_call() {
    let spans = Spans::global();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
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

    let client_side = spans.only("http.client.request", &base);
    assert_eq!(client_side["http.response.status_code"], "501");
    // The server's span has no URL: it is the one of this operation.
    let server = spans.0.lock().unwrap();
    let served: Vec<_> = server
        .iter()
        .filter(|(span, fields)| {
            span.starts_with("http.server.request#")
                && fields
                    .iter()
                    .any(|(field, value)| field == "operation.id" && value == "get_action_module")
        })
        .collect();
    assert_eq!(served.len(), 1, "one span for the one request: {served:?}");
    let fields: std::collections::BTreeMap<_, _> = served[0].1.iter().cloned().collect();
    let expected = [
        ("otel.name", "GET /actions/modules/{id}"),
        ("otel.kind", "server"),
        ("http.request.method", "GET"),
        ("http.route", "/actions/modules/{id}"),
        ("http.response.status_code", "501"),
        ("error.type", "501"),
        ("otel.status_code", "ERROR"),
    ];
    for (field, value) in expected {
        assert_eq!(
            fields.get(field).map(String::as_str),
            Some(value),
            "{field} in {fields:?}"
        );
    }
}

/// What a layer in front of the router attaches to each request.
#[derive(Debug, Clone, PartialEq)]
struct RequestId(String);

/// Answers `get_user_attribute_profile_template` with what reached the method: the request
/// id middleware attached, the operation and the caller.
struct Echoes;

impl tenant_api_server::TenantManagementApi for Echoes {
    type Caller = String;

    async fn authorize(
        &self,
        request: tenant_api_server::AuthorizationRequest<'_>,
    ) -> Result<String, tenant_api_server::AuthError> {
        Ok(request.token.to_string())
    }

    async fn get_user_attribute_profile_template(
        &self,
        context: tenant_api_server::RequestContext<String>,
        id: String,
    ) -> tenant_api_server::GetUserAttributeProfileTemplateResponse {
        let seen = [
            context
                .extensions
                .get::<RequestId>()
                .map(|id| id.0.as_str()),
            context
                .extensions
                .get::<tenant_api_server::Served>()
                .map(|operation| operation.id),
            Some(context.operation.id),
            Some(context.caller.as_str()),
            Some(id.as_str()),
        ];
        let text = seen.map(|seen| seen.unwrap_or("-")).join(" ");
        tenant_api_server::GetUserAttributeProfileTemplateResponse::Unauthorized(
            tenant_api_server::types::Error {
                error: "Unauthorized".to_string(),
                error_code: None,
                errors: Vec::new(),
                message: text,
                status_code: 401,
            },
        )
    }
}

#[tokio::test]
async fn middleware_sees_the_operation_and_the_method_what_middleware_attached() {
    use tenant_api_server::{Middleware, RouterOptions, Served, operations};
    let before_routing: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = Arc::clone(&before_routing);
    // Runs once routing has chosen the operation: refuses one by its
    // `Served`, and tags the others with a request id.
    let middleware = axum::middleware::from_fn(
        |mut request: axum::extract::Request, next: axum::middleware::Next| async move {
            let operation = *request.extensions().get::<Served>().unwrap();
            if operation == operations::GET_PUSH_NOTIFICATION_APNS_PROVIDER {
                return axum::response::IntoResponse::into_response(
                    axum::http::StatusCode::TOO_MANY_REQUESTS,
                );
            }
            request
                .extensions_mut()
                .insert(RequestId(format!("req-{}", operation.method)));
            next.run(request).await
        },
    );
    let router = tenant_api_server::router_with_options(
        Echoes,
        RouterOptions {
            middleware: Some(Middleware::new(middleware)),
            ..RouterOptions::default()
        },
    )
    // Runs before the operation is known: it sees the route only.
    .layer(axum::middleware::from_fn(
        move |request: axum::extract::Request, next: axum::middleware::Next| {
            let seen = Arc::clone(&seen);
            async move {
                let route = request
                    .extensions()
                    .get::<axum::extract::MatchedPath>()
                    .map(|path| path.as_str().to_string());
                let operation = request.extensions().get::<Served>().map(|op| op.id);
                seen.lock()
                    .unwrap()
                    .push(format!("{route:?} {operation:?}"));
                next.run(request).await
            }
        },
    ));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let http = reqwest::Client::new();
    let get = |path: &str| {
        http.get(format!("http://{address}/api/v2{path}"))
            .bearer_auth("t-1")
            .send()
    };

    let echoed: serde_json::Value = get("/user-attribute-profiles/templates/tpl_1")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        echoed["message"],
        "req-GET get_user_attribute_profile_template get_user_attribute_profile_template t-1 tpl_1"
    );
    let refused = get("/guardian/factors/push-notification/providers/apns")
        .await
        .unwrap();
    assert_eq!(refused.status(), 429);
    assert_eq!(
        *before_routing.lock().unwrap(),
        [
            r#"Some("/api/v2/user-attribute-profiles/templates/{id}") None"#,
            r#"Some("/api/v2/guardian/factors/push-notification/providers/apns") None"#,
        ]
    );
}
