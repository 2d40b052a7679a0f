//! End-to-end: the reference server on a real socket, the generated client
//! (and raw HTTP where the client cannot go) against it. Covers the five
//! operations, every error the seed lists for creating a token exchange
//! profile, form bodies, and uniqueness under concurrency.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tenant_api_client::{Client, Error};
use tenant_api_server::types;
use tenant_reference_server::{AppState, Claims, Config, RateLimit, TokenIssuer, app};
use workspace_tests::samples;

const TENANT: &str = "tenant.test";

struct Server {
    base: String,
    root: String,
    http: reqwest::Client,
}

async fn start(config: Config) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let router = app(Arc::new(AppState::new(config)));
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    Server {
        base: format!("http://{address}/api/v2"),
        root: format!("http://{address}"),
        http: workspace_tests::http(),
    }
}

async fn start_default() -> Server {
    start(Config::development(TENANT)).await
}

impl Server {
    /// A token from the server's own `/oauth/token` endpoint.
    async fn token(&self, client_id: &str, secret: &str) -> String {
        let response = self
            .http
            .post(format!("{}/oauth/token", self.root))
            .form(&[
                ("grant_type", "client_credentials"),
                ("client_id", client_id),
                ("client_secret", secret),
                ("audience", &format!("https://{TENANT}/api/v2/")),
            ])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["token_type"], "Bearer");
        body["access_token"].as_str().unwrap().to_string()
    }

    async fn global_token(&self) -> String {
        self.token("dev-global", "dev-global-secret").await
    }

    fn client(&self, token: &str) -> Client {
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(
            reqwest::header::AUTHORIZATION,
            format!("Bearer {token}").parse().unwrap(),
        );
        Client::new_with_client(
            &self.base,
            workspace_tests::http_builder()
                .default_headers(headers)
                .build()
                .unwrap(),
            tenant_api_client::Hooks::default(),
        )
    }

    async fn post_raw(
        &self,
        token: &str,
        path: &str,
        content_type: &str,
        body: String,
    ) -> (u16, Value) {
        workspace_tests::post_raw(
            &self.http,
            &format!("{}{path}", self.base),
            token,
            content_type,
            body,
        )
        .await
    }
}

fn profile(subject_token_type: &str, action_id: &str) -> types::CreateTokenExchangeProfileRequest {
    serde_json::from_value(samples::profile_request(subject_token_type, action_id)).unwrap()
}

fn stream_request() -> types::CreateEventStreamRequest {
    serde_json::from_value(samples::stream_request("webhook-password-42")).unwrap()
}

/// The status and message of a typed error response.
fn rejection<T: std::fmt::Debug>(result: Result<T, Error<types::Error>>) -> (u16, String) {
    match result {
        Err(Error::ErrorResponse(response)) => {
            assert_eq!(
                i64::from(response.status().as_u16()),
                response.status_code,
                "statusCode repeats the status"
            );
            (response.status().as_u16(), response.message.clone())
        }
        other => panic!("expected an error response, got {other:?}"),
    }
}

#[tokio::test]
async fn all_five_operations_through_the_generated_client() {
    let server = start_default().await;
    let client = server.client(&server.global_token().await);

    let created = client
        .create_token_exchange_profile()
        .body(profile("urn:partner:token", "act_token_exchange"))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    assert!(created.id.starts_with("tep_"));
    assert_eq!(created.created_at, created.updated_at);

    let template = client
        .get_user_attribute_profile_template()
        .id("uapt_workforce")
        .send()
        .await
        .unwrap();
    let overrides = template
        .template
        .user_id
        .strategy_overrides
        .as_ref()
        .unwrap();
    assert!(overrides.ad.is_some() && overrides.samlp.is_some());
    // The platform's vendor keys arrive as typed fields, not as extras.
    assert!(overrides.extra.is_empty(), "{:?}", overrides.extra);
    assert_eq!(
        overrides
            .pingfederate
            .as_ref()
            .and_then(|vendor| vendor.scim_mapping.as_deref()),
        Some("userName")
    );
    assert!(overrides.okta.is_some() && overrides.google_apps.is_some());
    assert!(
        template
            .template
            .user_attributes
            .as_ref()
            .unwrap()
            .contains_key("email")
    );

    let published = client
        .get_action_module()
        .id("mod_published")
        .send()
        .await
        .unwrap();
    assert_eq!(
        published
            .latest_version
            .as_ref()
            .map(|version| version.version_number),
        Some(3)
    );
    let draft = client
        .get_action_module()
        .id("mod_draft")
        .send()
        .await
        .unwrap();
    assert!(draft.latest_version.is_none() && draft.latest_version_number.is_none());

    let stream = client
        .create_event_stream()
        .body(stream_request())
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 201);
    assert_eq!(stream.id.len(), 26);
    assert_eq!(
        stream.status,
        types::EventStreamStatus::Enabled,
        "status defaults to enabled"
    );

    let provider = client
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
    assert_eq!(
        provider.bundle_id.as_deref(),
        Some("com.example.authenticator")
    );
}

#[tokio::test]
async fn secrets_and_credentials_never_appear_in_responses() {
    let server = start_default().await;
    let token = server.global_token().await;
    let module = server
        .http
        .get(format!("{}/actions/modules/mod_published", server.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let text = module.text().await.unwrap();
    assert!(text.contains("API_KEY"), "{text}");
    assert!(
        !text.contains("fixture-secret-value-never-returned"),
        "{text}"
    );

    let (status, body) = server
        .post_raw(
            &token,
            "/event-streams",
            "application/json",
            serde_json::to_string(&stream_request()).unwrap(),
        )
        .await;
    assert_eq!(status, 201);
    assert!(!body.to_string().contains("webhook-password-42"), "{body}");
    assert_eq!(
        body["destination"]["configuration"]["webhook_authorization"],
        json!({"method": "basic", "username": "hook"})
    );
}

#[tokio::test]
async fn event_stream_needs_only_a_destination_and_names_are_unique() {
    let server = start_default().await;
    let token = server.global_token().await;
    let only_destination = json!({
        "destination": serde_json::to_value(stream_request()).unwrap()["destination"].clone()
    });
    let (status, body) = server
        .post_raw(
            &token,
            "/event-streams",
            "application/json",
            only_destination.to_string(),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["status"], "enabled");
    assert!(
        body.get("name").is_none() && body.get("subscriptions").is_none(),
        "{body}"
    );

    let named = serde_json::to_string(&stream_request()).unwrap();
    let (first, _) = server
        .post_raw(&token, "/event-streams", "application/json", named.clone())
        .await;
    assert_eq!(first, 201);
    let (second, body) = server
        .post_raw(&token, "/event-streams", "application/json", named)
        .await;
    assert_eq!(second, 409, "{body}");
    assert_eq!(body["errorCode"], "event_stream_conflict");
}

#[tokio::test]
async fn every_listed_error_of_profile_creation() {
    let server = start(Config {
        entity_limit: 2,
        ..Config::development(TENANT)
    })
    .await;
    let global = server.global_token().await;
    let client = server.client(&global);
    let create = |request| client.create_token_exchange_profile().body(request).send();

    // 400: body invalid, type not custom, action not deployed / lacking the trigger / not found.
    let (status, body) = server
        .post_raw(
            &global,
            "/token-exchange-profiles",
            "application/json",
            json!({"name": "Partner tokens"}).to_string(),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("'subject_token_type' is required"),
        "{body}"
    );
    let mut wrong_type =
        serde_json::to_value(profile("urn:partner:one", "act_token_exchange")).unwrap();
    wrong_type["type"] = json!("passthrough");
    let (status, body) = server
        .post_raw(
            &global,
            "/token-exchange-profiles",
            "application/json",
            wrong_type.to_string(),
        )
        .await;
    assert_eq!(
        (status, body["message"].as_str().unwrap()),
        (
            400,
            "Payload validation error: the type field must be custom"
        )
    );
    assert_eq!(
        rejection(create(profile("urn:partner:one", "act_draft")).await),
        (400, "The referenced action is not deployed".into())
    );
    assert_eq!(
        rejection(create(profile("urn:partner:one", "act_post_login")).await),
        (
            400,
            "The referenced action does not support the custom-token-exchange trigger".into()
        )
    );
    assert_eq!(
        rejection(create(profile("urn:partner:one", "act_missing")).await),
        (400, "The referenced action was not found".into())
    );

    // 401: invalid token, bad signature, expired, client not global.
    let (status, message) = rejection(
        server
            .client("not-a-jwt")
            .create_token_exchange_profile()
            .body(profile("urn:partner:one", "act_token_exchange"))
            .send()
            .await,
    );
    assert_eq!(status, 401);
    assert!(message.starts_with("Invalid token"), "{message}");
    let forged = TokenIssuer::new(TENANT, b"some other key").issue(
        "dev-global",
        &["create:token_exchange_profiles".into()],
        Duration::from_secs(60),
    );
    let (status, message) = rejection(
        server
            .client(&forged)
            .create_token_exchange_profile()
            .body(profile("urn:partner:one", "act_token_exchange"))
            .send()
            .await,
    );
    assert_eq!(
        (status, message.as_str()),
        (
            401,
            "Invalid signature received for JSON Web Token validation"
        )
    );
    let issuer = TokenIssuer::new(TENANT, tenant_reference_server::DEVELOPMENT_KEY);
    let now = chrono::Utc::now().timestamp();
    let expired = issuer.sign(&Claims {
        iss: format!("https://{TENANT}/"),
        sub: "dev-global@clients".into(),
        aud: format!("https://{TENANT}/api/v2/"),
        iat: now - 7200,
        exp: now - 3600,
        scope: "create:token_exchange_profiles".into(),
        azp: "dev-global".into(),
        gty: "client-credentials".into(),
    });
    assert_eq!(
        rejection(
            server
                .client(&expired)
                .get_push_notification_apns_provider()
                .send()
                .await
        ),
        (401, "Expired token".into())
    );
    let app_token = server.token("dev-app", "dev-app-secret").await;
    assert_eq!(
        rejection(
            server
                .client(&app_token)
                .create_token_exchange_profile()
                .body(profile("urn:partner:one", "act_token_exchange"))
                .send()
                .await
        ),
        (401, "Client is not global".into())
    );
    // The same non-global token may use the other operations.
    server
        .client(&app_token)
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();

    // 403: insufficient scope.
    let reader = server.token("dev-reader", "dev-reader-secret").await;
    assert_eq!(
        rejection(
            server
                .client(&reader)
                .create_token_exchange_profile()
                .body(profile("urn:partner:one", "act_token_exchange"))
                .send()
                .await
        ),
        (
            403,
            "Insufficient scope; expected any of: create:token_exchange_profiles".into()
        )
    );

    // 409: duplicate subject_token_type; 403: the entity limit (2 here).
    create(profile("urn:partner:one", "act_token_exchange"))
        .await
        .unwrap();
    let (status, message) =
        rejection(create(profile("urn:partner:one", "act_token_exchange")).await);
    assert_eq!(status, 409);
    assert!(message.contains("already exists"), "{message}");
    create(profile("urn:partner:two", "act_token_exchange"))
        .await
        .unwrap();
    assert_eq!(
        rejection(create(profile("urn:partner:three", "act_token_exchange")).await),
        (
            403,
            "The tenant has reached its limit of 2 token exchange profiles".into()
        )
    );
}

#[tokio::test]
async fn rate_limited_clients_get_429_with_the_reset_header() {
    let limit = RateLimit {
        requests: 2,
        window: Duration::from_secs(60),
    };
    let server = start(Config {
        rate_limit: Some(limit),
        ..Config::development(TENANT)
    })
    .await;
    let client = server.client(&server.global_token().await);
    for _ in 0..2 {
        client
            .get_push_notification_apns_provider()
            .send()
            .await
            .unwrap();
    }
    let before = chrono::Utc::now().timestamp();
    let err = client
        .create_token_exchange_profile()
        .body(profile("urn:partner:rl", "act_token_exchange"))
        .send()
        .await
        .unwrap_err();
    let Error::ErrorResponse(response) = err else {
        panic!("expected 429")
    };
    assert_eq!(response.status(), 429);
    let header = |name: &str| {
        response.headers()[name]
            .to_str()
            .unwrap()
            .parse::<i64>()
            .unwrap()
    };
    assert_eq!(header("x-ratelimit-limit"), 2);
    assert_eq!(header("x-ratelimit-remaining"), 0);
    assert!((before..=before + 61).contains(&header("x-ratelimit-reset")));
    // Another client has its own budget.
    let other = server.client(&server.token("dev-reader", "dev-reader-secret").await);
    other
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
}

#[tokio::test]
async fn form_bodies_unknown_fields_and_wrong_content_types() {
    let server = start_default().await;
    let token = server.global_token().await;
    let form = "name=Form+profile&subject_token_type=urn%3Aform%3Atoken&action_id=act_token_exchange&type=custom_authentication";
    let (status, body) = server
        .post_raw(
            &token,
            "/token-exchange-profiles",
            "application/x-www-form-urlencoded",
            form.into(),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["subject_token_type"], "urn:form:token");

    let form = "name=form-stream&subscriptions[0][event_type]=user.created&status=disabled\
        &destination[type]=webhook&destination[configuration][webhook_endpoint]=https%3A%2F%2Fhooks.example.com\
        &destination[configuration][webhook_authorization][method]=basic\
        &destination[configuration][webhook_authorization][username]=hook\
        &destination[configuration][webhook_authorization][password]=pw";
    let (status, body) = server
        .post_raw(
            &token,
            "/event-streams",
            "application/x-www-form-urlencoded",
            form.into(),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["status"], "disabled");

    let mut unknown = serde_json::to_value(profile("urn:partner:x", "act_token_exchange")).unwrap();
    unknown["enabled"] = json!(true);
    let (status, body) = server
        .post_raw(
            &token,
            "/token-exchange-profiles",
            "application/json",
            unknown.to_string(),
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("'enabled' is not an allowed property"),
        "{body}"
    );

    let (status, body) = server
        .post_raw(&token, "/event-streams", "text/xml", "<stream/>".into())
        .await;
    assert_eq!(status, 415);
    assert_eq!(body["statusCode"], 415);
}

#[tokio::test]
async fn concurrent_identical_creates_make_exactly_one_profile() {
    let server = start_default().await;
    let client = Arc::new(server.client(&server.global_token().await));
    let attempts = (0..64).map(|_| {
        let client = client.clone();
        tokio::spawn(async move {
            match client
                .create_token_exchange_profile()
                .body(profile("urn:race:token", "act_token_exchange"))
                .send()
                .await
            {
                Ok(created) => created.status().as_u16(),
                Err(err) => err.status().map_or(0, |status| status.as_u16()),
            }
        })
    });
    let mut statuses = Vec::new();
    for attempt in attempts {
        statuses.push(attempt.await.unwrap());
    }
    assert_eq!(
        statuses.iter().filter(|status| **status == 201).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|status| **status == 409).count(),
        63,
        "{statuses:?}"
    );
}

#[tokio::test]
async fn the_token_endpoint_refuses_bad_credentials_and_audiences() {
    let server = start_default().await;
    let request = |secret: &str, audience: &str| {
        server
            .http
            .post(format!("{}/oauth/token", server.root))
            .form(&[
                ("grant_type", "client_credentials"),
                ("client_id", "dev-global"),
                ("client_secret", secret),
                ("audience", audience),
            ])
    };
    let wrong_secret = request("nope", &format!("https://{TENANT}/api/v2/"))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_secret.status(), 401);
    let wrong_audience = request("dev-global-secret", "https://elsewhere/api/v2/")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_audience.status(), 403);
}

/// The limiter reads the token exactly as the router does: a scheme spelled
/// `bearer` (which RFC 7235 makes case-insensitive, and the router accepts)
/// does not slip past it.
#[tokio::test]
async fn any_spelling_of_the_bearer_scheme_is_rate_limited() {
    let server = start(Config {
        rate_limit: Some(RateLimit {
            requests: 1,
            window: Duration::from_secs(60),
        }),
        ..Config::development(TENANT)
    })
    .await;
    let token = server.global_token().await;
    let url = format!(
        "{}/guardian/factors/push-notification/providers/apns",
        server.base
    );
    let mut statuses = Vec::new();
    for scheme in ["bearer", "BEARER", "Bearer"] {
        let response = server
            .http
            .get(&url)
            .header("authorization", format!("{scheme} {token}"))
            .send()
            .await
            .unwrap();
        statuses.push(response.status().as_u16());
    }
    assert_eq!(statuses, [200, 429, 429]);
}

/// Refusals of the token carry the RFC 6750 challenge.
#[tokio::test]
async fn unauthenticated_requests_get_a_bearer_challenge() {
    let server = start_default().await;
    let url = format!(
        "{}/guardian/factors/push-notification/providers/apns",
        server.base
    );
    let missing = server.http.get(&url).send().await.unwrap();
    assert_eq!(missing.status(), 401);
    assert_eq!(missing.headers()["www-authenticate"], "Bearer");
    let invalid = server
        .http
        .get(&url)
        .bearer_auth("not-a-jwt")
        .send()
        .await
        .unwrap();
    assert_eq!(invalid.status(), 401);
    assert_eq!(
        invalid.headers()["www-authenticate"],
        r#"Bearer error="invalid_token""#
    );
}
