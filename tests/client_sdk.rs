//! The hand-written client (`tenant-client`) against the reference server
//! and a scripted local server: token caching and refresh, retries, and
//! forward compatibility, as its users rely on them.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tenant_client::{Error, RetryPolicy, TenantClient, types};
use tenant_reference_server::{AppState, Config, RateLimit, app};
use workspace_tests::samples;

/// Every request a server saw, as `METHOD /path`.
#[derive(Clone, Default)]
struct RequestLog(Arc<Mutex<Vec<String>>>);

impl RequestLog {
    fn count(&self, line: &str) -> usize {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|seen| seen.as_str() == line)
            .count()
    }

    fn api_requests(&self) -> usize {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|seen| seen.contains("/api/v2/"))
            .count()
    }
}

/// Middleware that appends each request to the log.
async fn record(
    axum::extract::State(log): axum::extract::State<RequestLog>,
    request: Request,
    next: Next,
) -> Response {
    log.0
        .lock()
        .unwrap()
        .push(format!("{} {}", request.method(), request.uri().path()));
    next.run(request).await
}

const TOKEN_REQUEST: &str = "POST /oauth/token";

/// The reference server, logging requests; its tenant is its own address,
/// so the client's default audience is the right one.
async fn reference_server(configure: impl FnOnce(&mut Config)) -> (String, RequestLog) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let mut config = Config::development(&address.to_string());
    configure(&mut config);
    let log = RequestLog::default();
    let router = app(Arc::new(AppState::new(config)))
        .layer(axum::middleware::from_fn_with_state(log.clone(), record));
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (format!("http://{address}"), log)
}

/// The reference server allowing each client `requests` per `window_seconds`.
async fn rate_limited_server(requests: u32, window_seconds: u64) -> (String, RequestLog) {
    let limit = RateLimit {
        requests,
        window: Duration::from_secs(window_seconds),
    };
    reference_server(|config| config.rate_limit = Some(limit)).await
}

/// Creates a token exchange profile.
async fn create(
    client: &TenantClient,
    subject_token_type: &str,
    action_id: &str,
) -> Result<tenant_client::ResponseValue<types::TokenExchangeProfile>, Error<types::Error>> {
    client
        .create_token_exchange_profile()
        .body(profile(subject_token_type, action_id))
        .send()
        .await
}

fn client(origin: &str, retry: RetryPolicy) -> TenantClient {
    TenantClient::builder(origin)
        .client_credentials("dev-global", "dev-global-secret")
        .retry_policy(retry)
        .build()
        .unwrap()
}

fn fast_retries() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 3,
        max_wait: Duration::from_secs(3),
        base_delay: Duration::from_millis(10),
    }
}

fn profile(subject_token_type: &str, action_id: &str) -> types::CreateTokenExchangeProfileRequest {
    serde_json::from_value(samples::profile_request(subject_token_type, action_id)).unwrap()
}

fn status_of<T: std::fmt::Debug>(result: Result<T, Error<types::Error>>) -> u16 {
    match result {
        Err(err) => err.status().map_or(0, |status| status.as_u16()),
        Ok(value) => panic!("expected an error, got {value:?}"),
    }
}

#[tokio::test]
async fn the_token_is_fetched_once_and_reused() {
    let (origin, log) = reference_server(|_| {}).await;
    let client = client(&origin, fast_retries());
    client
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
    client
        .get_action_module()
        .id("mod_draft")
        .send()
        .await
        .unwrap();
    client
        .get_user_attribute_profile_template()
        .id("uapt_workforce")
        .send()
        .await
        .unwrap();
    assert_eq!(log.count(TOKEN_REQUEST), 1);
    assert_eq!(log.api_requests(), 3);
}

#[tokio::test]
async fn the_token_is_refreshed_after_it_expires() {
    // Tokens carry whole seconds, so a 2-second token may be accepted for
    // just over one second; the calls below fit well inside that.
    let (origin, log) =
        reference_server(|config| config.token_lifetime = Duration::from_secs(2)).await;
    let client = client(&origin, fast_retries());
    client
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
    client
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
    assert_eq!(log.count(TOKEN_REQUEST), 1, "still fresh");
    tokio::time::sleep(Duration::from_millis(2100)).await;
    client
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
    assert_eq!(
        log.count(TOKEN_REQUEST),
        2,
        "refreshed after expiry, no 401 on the way"
    );
}

#[tokio::test]
async fn concurrent_calls_share_one_token_request() {
    let (origin, log) = reference_server(|_| {}).await;
    let client = client(&origin, fast_retries());
    let calls = (0..32).map(|_| {
        let client = client.clone();
        tokio::spawn(async move {
            client
                .get_push_notification_apns_provider()
                .send()
                .await
                .map(|_| ())
        })
    });
    for call in calls {
        call.await.unwrap().unwrap();
    }
    assert_eq!(log.count(TOKEN_REQUEST), 1);
    assert_eq!(log.api_requests(), 32);
}

#[tokio::test]
async fn a_429_is_retried_after_the_reset_time() {
    // Two seconds, so the second call cannot fall into a fresh window even
    // when the clock turns a second between the two calls.
    let (origin, log) = rate_limited_server(1, 2).await;
    let client = client(&origin, fast_retries());
    client
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
    let started = Instant::now();
    let created = create(&client, "urn:retry:token", "act_token_exchange").await;
    assert_eq!(
        created.unwrap().status(),
        201,
        "retried once the window reset"
    );
    assert_eq!(log.api_requests(), 3, "one call, then a 429 and its retry");
    assert!(started.elapsed() <= Duration::from_secs(4));
}

#[tokio::test]
async fn client_errors_are_not_retried() {
    let (origin, log) = reference_server(|_| {}).await;
    let client = client(&origin, fast_retries());
    create(&client, "urn:dup:token", "act_token_exchange")
        .await
        .unwrap();
    let duplicate = create(&client, "urn:dup:token", "act_token_exchange").await;
    assert_eq!(status_of(duplicate), 409);
    let missing_action = create(&client, "urn:other:token", "act_missing").await;
    assert_eq!(status_of(missing_action), 400);
    assert_eq!(log.api_requests(), 3, "each call went out exactly once");
}

#[tokio::test]
async fn retries_give_up_at_the_cap_with_the_last_error() {
    let (origin, log) = rate_limited_server(1, 60).await;
    let policy = RetryPolicy {
        max_attempts: 3,
        max_wait: Duration::from_millis(20),
        base_delay: Duration::from_millis(5),
    };
    let client = client(&origin, policy);
    client
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
    let started = Instant::now();
    let err = client
        .get_action_module()
        .id("mod_draft")
        .send()
        .await
        .unwrap_err();
    let Error::ErrorResponse(response) = err else {
        panic!("expected the typed 429")
    };
    assert_eq!(response.status(), 429);
    assert!(response.headers().contains_key("x-ratelimit-reset"));
    assert_eq!(
        log.api_requests(),
        1 + 3,
        "three attempts for the limited call"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "waits are capped at max_wait"
    );
}

#[tokio::test]
async fn retries_can_be_turned_off() {
    let (origin, log) = rate_limited_server(1, 60).await;
    let client = client(&origin, RetryPolicy::disabled());
    client
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
    assert_eq!(
        status_of(client.get_push_notification_apns_provider().send().await),
        429
    );
    assert_eq!(log.api_requests(), 2);
}

#[tokio::test]
async fn a_static_token_is_sent_as_it_is() {
    let (origin, log) = reference_server(|_| {}).await;
    let host = origin.trim_start_matches("http://");
    let issuer =
        tenant_reference_server::TokenIssuer::new(host, tenant_reference_server::DEVELOPMENT_KEY);
    let token = issuer.issue(
        "dev-reader",
        &["read:guardian_factors".to_string()],
        Duration::from_secs(60),
    );
    let client = TenantClient::builder(&origin)
        .access_token(token)
        .build()
        .unwrap();
    client
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
    assert_eq!(log.count(TOKEN_REQUEST), 0);
}

#[tokio::test]
async fn a_refused_token_request_is_reported() {
    let (origin, _) = reference_server(|_| {}).await;
    let client = TenantClient::builder(&origin)
        .client_credentials("dev-global", "wrong")
        .build()
        .unwrap();
    match client.get_push_notification_apns_provider().send().await {
        Err(Error::Custom(message)) => assert!(
            message.contains("was refused (401 Unauthorized)"),
            "{message}"
        ),
        other => panic!("expected the token failure, got {other:?}"),
    }
}

/// A scripted server: the APNs provider fails twice with 503 then answers
/// with fields the spec does not know; event stream creation always fails.
async fn scripted_server() -> (String, RequestLog, Arc<Mutex<Vec<String>>>) {
    use axum::routing::{get, post};
    let user_agents = Arc::new(Mutex::new(Vec::new()));
    let apns_calls = Arc::new(Mutex::new(0));
    let agents = user_agents.clone();
    let router = axum::Router::new()
        .route(
            "/oauth/token",
            post(|| async {
                axum::Json(
                    json!({"access_token": "scripted", "token_type": "Bearer", "expires_in": 3600}),
                )
            }),
        )
        .route(
            "/api/v2/guardian/factors/push-notification/providers/apns",
            get(move |headers: axum::http::HeaderMap| {
                let apns_calls = apns_calls.clone();
                let agents = agents.clone();
                async move {
                    let agent = headers
                        .get("user-agent")
                        .and_then(|value| value.to_str().ok())
                        .unwrap_or_default();
                    agents.lock().unwrap().push(agent.to_string());
                    let mut calls = apns_calls.lock().unwrap();
                    *calls += 1;
                    if *calls <= 2 {
                        return axum::http::StatusCode::SERVICE_UNAVAILABLE.into_response();
                    }
                    axum::Json(json!({
                        "bundle_id": "com.example.app", "sandbox": false, "enabled": true,
                        "added_in_a_later_version": {"anything": [1, 2, 3]}
                    }))
                    .into_response()
                }
            }),
        )
        .route(
            "/api/v2/event-streams",
            post(|| async { axum::http::StatusCode::SERVICE_UNAVAILABLE }),
        );
    let log = RequestLog::default();
    let router = router.layer(axum::middleware::from_fn_with_state(log.clone(), record));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (format!("http://{address}"), log, user_agents)
}

#[tokio::test]
async fn gets_are_retried_on_5xx_and_tolerate_new_fields() {
    let (origin, log, user_agents) = scripted_server().await;
    let client = client(&origin, fast_retries());
    let provider = client
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
    assert!(
        provider.enabled,
        "a response with unknown fields still parses"
    );
    assert_eq!(log.api_requests(), 3, "two 503s, then success");
    let agents = user_agents.lock().unwrap();
    assert!(
        agents
            .iter()
            .all(|agent| agent == tenant_client::USER_AGENT),
        "{agents:?}"
    );
    assert!(tenant_client::USER_AGENT.starts_with("tenant-client/"));
}

#[tokio::test]
async fn posts_are_not_retried_on_5xx() {
    let (origin, log, _) = scripted_server().await;
    let client = client(&origin, fast_retries());
    let stream: types::CreateEventStreamRequest =
        serde_json::from_value(samples::stream_request("p")).unwrap();
    let result = client.create_event_stream().body(stream).send().await;
    assert_eq!(status_of(result), 503);
    assert_eq!(
        log.api_requests(),
        1,
        "a POST that may have been applied is not sent again"
    );
}
