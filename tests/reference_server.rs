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

/// A stream request to `destination`, as JSON.
fn stream_to(destination: Value) -> Value {
    json!({
        "subscriptions": [{"event_type": "user.created"}],
        "destination": destination,
    })
}

fn webhook(authorization: Value) -> Value {
    json!({
        "type": "webhook",
        "configuration": {
            "webhook_endpoint": "https://hooks.example.com/events",
            "webhook_authorization": authorization,
        }
    })
}

/// Every destination variant and every authorization method of the
/// platform's published definition, sent through the generated client and
/// returned in its shapes; the raw responses never carry a credential.
#[tokio::test]
async fn every_destination_variant_and_authorization_method_round_trips_without_secrets() {
    let server = start_default().await;
    let token = server.global_token().await;
    let client = server.client(&token);
    let cases = [
        (
            webhook(json!({"method": "basic", "username": "hook", "password": "basic-secret-41"})),
            Some("basic-secret-41"),
            json!({"method": "basic", "username": "hook"}),
        ),
        (
            webhook(json!({"method": "bearer", "token": "bearer-secret-42"})),
            Some("bearer-secret-42"),
            json!({"method": "bearer"}),
        ),
        (
            webhook(json!({
                "method": "custom_header", "header_key": "X-Hook-Key", "header_value": "header-secret-43"
            })),
            Some("header-secret-43"),
            json!({"method": "custom_header", "header_key": "X-Hook-Key"}),
        ),
    ];
    for (destination, secret, echoed) in cases {
        let request: types::CreateEventStreamRequest =
            serde_json::from_value(stream_to(destination.clone())).unwrap();
        let stream = client
            .create_event_stream()
            .body(request)
            .send()
            .await
            .unwrap()
            .into_inner();
        let types::EventStreamDestination::WebhookDestination(webhook) = &stream.destination else {
            panic!("{:?}", stream.destination)
        };
        assert_eq!(
            webhook.configuration.webhook_endpoint.as_str(),
            "https://hooks.example.com/events"
        );
        assert_eq!(
            serde_json::to_value(&webhook.configuration.webhook_authorization).unwrap(),
            echoed
        );

        // The raw response text, and form bodies too.
        for (content_type, body) in [
            (
                "application/json",
                stream_to(destination.clone()).to_string(),
            ),
            (
                "application/x-www-form-urlencoded",
                form_of(&stream_to(destination.clone())),
            ),
        ] {
            let response = server
                .http
                .post(format!("{}/event-streams", server.base))
                .bearer_auth(&token)
                .header("content-type", content_type)
                .body(body)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 201, "{content_type}");
            let text = response.text().await.unwrap();
            let secret = secret.unwrap();
            assert!(!text.contains(secret), "{content_type}: {text}");
            let returned: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(
                returned["destination"]["configuration"]["webhook_authorization"], echoed,
                "{content_type}"
            );
        }
    }

    // EventBridge: the service sets the partner event source, whatever the
    // request says.
    let eventbridge = json!({
        "type": "eventbridge",
        "configuration": {
            "aws_account_id": "123456789012",
            "aws_region": "eu-central-1",
            "aws_partner_event_source": "aws.partner/spoofed/by-the-caller",
        }
    });
    let stream = client
        .create_event_stream()
        .body(
            serde_json::from_value::<types::CreateEventStreamRequest>(stream_to(eventbridge))
                .unwrap(),
        )
        .send()
        .await
        .unwrap()
        .into_inner();
    let types::EventStreamDestination::EventBridgeDestination(eventbridge) = &stream.destination
    else {
        panic!("{:?}", stream.destination)
    };
    assert_eq!(
        eventbridge.configuration.aws_account_id.as_str(),
        "123456789012"
    );
    assert_eq!(
        eventbridge.configuration.aws_region,
        types::AwsRegion::EuCentral1
    );
    assert_eq!(
        eventbridge
            .configuration
            .aws_partner_event_source
            .as_deref(),
        Some(tenant_reference_server::store::partner_event_source(&stream.id).as_str())
    );

    // Action: the action receives the events.
    let stream = client
        .create_event_stream()
        .body(
            serde_json::from_value::<types::CreateEventStreamRequest>(stream_to(json!({
                "type": "action", "configuration": {"action_id": "act_post_login"}
            })))
            .unwrap(),
        )
        .send()
        .await
        .unwrap()
        .into_inner();
    let types::EventStreamDestination::ActionDestination(action) = &stream.destination else {
        panic!("{:?}", stream.destination)
    };
    assert_eq!(action.configuration.action_id, "act_post_login");
}

/// `application/x-www-form-urlencoded` with bracket notation, from JSON
/// objects, lists and strings.
fn form_of(value: &Value) -> String {
    fn walk(prefix: &str, value: &Value, out: &mut form_urlencoded::Serializer<'_, String>) {
        match value {
            Value::Object(object) => {
                for (key, child) in object {
                    let name = if prefix.is_empty() {
                        key.clone()
                    } else {
                        format!("{prefix}[{key}]")
                    };
                    walk(&name, child, out);
                }
            }
            Value::Array(items) => {
                for (index, child) in items.iter().enumerate() {
                    walk(&format!("{prefix}[{index}]"), child, out);
                }
            }
            Value::String(text) => {
                out.append_pair(prefix, text);
            }
            other => panic!("form bodies hold text only: {other}"),
        }
    }
    let mut out = form_urlencoded::Serializer::new(String::new());
    walk("", value, &mut out);
    out.finish()
}

/// A bad destination is refused with every broken rule under `errors`, each
/// with a JSON Pointer into the body, and no submitted value repeated.
#[tokio::test]
async fn a_bad_destination_lists_every_broken_rule_with_its_pointer() {
    let server = start_default().await;
    let token = server.global_token().await;
    let cases = [
        (
            json!({"type": "eventbridge", "configuration": {
                "aws_account_id": "12345-secretish", "aws_region": "mars-north-1"
            }}),
            vec![
                ("/destination/configuration/aws_account_id", "pattern"),
                ("/destination/configuration/aws_region", "enum"),
            ],
        ),
        (
            webhook(json!({"method": "basic", "username": "a:b"})),
            vec![
                (
                    "/destination/configuration/webhook_authorization/password",
                    "required",
                ),
                (
                    "/destination/configuration/webhook_authorization/username",
                    "pattern",
                ),
            ],
        ),
        (
            json!({"type": "webhook", "configuration": {
                "webhook_endpoint": "http://plain.example/hook",
                "webhook_authorization": {"method": "custom_header", "header_key": "Bad Header"}
            }}),
            vec![
                ("/destination/configuration/webhook_endpoint", "pattern"),
                (
                    "/destination/configuration/webhook_authorization/header_value",
                    "required",
                ),
                (
                    "/destination/configuration/webhook_authorization/header_key",
                    "pattern",
                ),
            ],
        ),
        (
            webhook(json!({"method": "digest", "username": "hook"})),
            vec![(
                "/destination/configuration/webhook_authorization/method",
                "enum",
            )],
        ),
        (
            json!({"type": "kafka", "configuration": {}}),
            vec![("/destination/type", "enum")],
        ),
        (
            json!({"type": "action", "configuration": {}}),
            vec![("/destination/configuration/action_id", "required")],
        ),
    ];
    for (destination, expected) in cases {
        let body = stream_to(destination.clone());
        let (status, error) = server
            .post_raw(
                &token,
                "/event-streams",
                "application/json",
                body.to_string(),
            )
            .await;
        assert_eq!(status, 400, "{destination}: {error}");
        let found: Vec<(&str, &str)> = error["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("{error}"))
            .iter()
            .map(|item| {
                (
                    item["pointer"].as_str().unwrap(),
                    item["code"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(found, expected, "{destination}");
        let text = error.to_string();
        for secretish in [
            "12345-secretish",
            "mars-north-1",
            "plain.example",
            "Bad Header",
        ] {
            assert!(!text.contains(secretish), "{text}");
        }
    }

    // The generated client reads the same list as typed fields.
    let client = server.client(&token);
    let mut request: types::CreateEventStreamRequest = serde_json::from_value(stream_to(webhook(
        json!({"method": "bearer", "token": "t"}),
    )))
    .unwrap();
    request.name = Some("taken".parse().unwrap());
    client
        .create_event_stream()
        .body(request.clone())
        .send()
        .await
        .unwrap();
    match client.create_event_stream().body(request).send().await {
        Err(Error::ErrorResponse(response)) => {
            assert_eq!(response.status(), 409);
            assert!(
                response.errors.is_empty(),
                "a conflict is not a broken rule"
            );
        }
        other => panic!("{other:?}"),
    }
    let response = server
        .http
        .post(format!("{}/event-streams", server.base))
        .bearer_auth(&token)
        .json(&stream_to(json!({"type": "eventbridge", "configuration": {
            "aws_account_id": "1234567890123", "aws_region": "us-east-1"
        }})))
        .send()
        .await
        .unwrap();
    let error: types::Error = response.json().await.unwrap();
    assert_eq!(error.errors.len(), 1, "{error:?}");
    assert_eq!(
        (
            error.errors[0].pointer.as_deref().unwrap_or_default(),
            error.errors[0].code.as_str()
        ),
        ("/destination/configuration/aws_account_id", "pattern")
    );
    assert_eq!(
        error.errors[0].detail,
        "'destination.configuration.aws_account_id' must match the pattern ^[0-9]{12}$"
    );
}

/// The URI rule: an absolute URI of RFC 3986, `urn:` values included, and
/// nothing with spaces, controls or characters a URI cannot hold.
#[tokio::test]
async fn subject_token_types_follow_the_stricter_uri_rule() {
    let server = start_default().await;
    let token = server.global_token().await;
    for accepted in [
        "urn:partner:token",
        "https://partner.example/token-type?v=%2F",
    ] {
        let (status, body) = server
            .post_raw(
                &token,
                "/token-exchange-profiles",
                "application/json",
                samples::profile_request(accepted, "act_token_exchange").to_string(),
            )
            .await;
        assert_eq!(status, 201, "{accepted}: {body}");
        assert_eq!(body["subject_token_type"], accepted);
    }
    for refused in [
        "urn:partner token",
        "urn:partner\u{7}token",
        "urn:partner:token\n",
        "urn:partner<token>",
        "https://a/{tenant}",
        "partner-token-type",
        "https://a/%zz-token",
    ] {
        let (status, body) = server
            .post_raw(
                &token,
                "/token-exchange-profiles",
                "application/json",
                samples::profile_request(refused, "act_token_exchange").to_string(),
            )
            .await;
        assert_eq!(status, 400, "{refused:?}: {body}");
        let codes: Vec<(&str, &str)> = body["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| {
                (
                    item["pointer"].as_str().unwrap(),
                    item["code"].as_str().unwrap(),
                )
            })
            .collect();
        // The seed's format and the pattern beside it agree.
        assert_eq!(
            codes,
            [
                ("/subject_token_type", "format"),
                ("/subject_token_type", "pattern")
            ],
            "{refused:?}"
        );
    }
}

/// Templates arrive in the platform's real shape: typed attribute
/// definitions, the vendor keys, and OIDC overrides.
#[tokio::test]
async fn templates_carry_real_user_attributes() {
    let server = start_default().await;
    let client = server.client(&server.global_token().await);
    let template = client
        .get_user_attribute_profile_template()
        .id("uapt_workforce")
        .send()
        .await
        .unwrap()
        .into_inner();
    let profile = &template.template;
    assert_eq!(
        profile.user_id.oidc_mapping,
        Some(types::UserIdMappingOidcMapping::Sub)
    );
    let overrides = profile.user_id.strategy_overrides.as_ref().unwrap();
    assert_eq!(
        overrides.waad.as_ref().unwrap().oidc_mapping,
        Some(types::StrategyOverrideOidcMapping::Oid)
    );
    let attributes = profile.user_attributes.as_ref().unwrap();
    assert!((1..=64).contains(&attributes.len()));
    let email = &attributes["email"];
    assert!(email.profile_required);
    assert_eq!(email.auth0_mapping.as_str(), "email");
    assert_eq!(
        email
            .oidc_mapping
            .as_ref()
            .map(|oidc| oidc.mapping.as_str()),
        Some("email")
    );
    let vendor = email.strategy_overrides.as_ref().unwrap();
    assert!(vendor.okta.is_some() && vendor.google_apps.is_some());
    assert!(vendor.extra.is_empty(), "{:?}", vendor.extra);
    assert!(attributes["department"].oidc_mapping.is_none());

    let customer = client
        .get_user_attribute_profile_template()
        .id("uapt_customer")
        .send()
        .await
        .unwrap();
    assert!(
        customer
            .template
            .user_attributes
            .as_ref()
            .unwrap()
            .contains_key("phone_number")
    );
}
