//! The generated server, served on a real socket with a trivial
//! implementation, driven by the generated client and by raw HTTP: both
//! content types, every constraint, authentication, and the router's own
//! 404/405/413/415 answers, all with the spec's JSON error body.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tenant_api_server::{
    AuthError, AuthorizationRequest, CreateEventStreamResponse, CreateTokenExchangeProfileResponse,
    GetActionModuleResponse, GetPushNotificationApnsProviderResponse,
    GetUserAttributeProfileTemplateResponse, RequestContext, RouterOptions, TenantManagementApi,
    responses, types,
};
use workspace_tests::samples;

/// Tokens the test implementation accepts, with the scopes each carries.
const ALL_SCOPES: &str = "token-with-every-scope";
const NO_SCOPES: &str = "token-without-scopes";

/// A trivial implementation that echoes bodies back and counts its calls.
#[derive(Default, Clone)]
struct EchoApi {
    calls: Arc<AtomicUsize>,
}

fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("valid test value")
}

fn error(status: u16, message: &str) -> types::Error {
    from_json(json!({"statusCode": status, "error": "Error", "message": message}))
}

impl TenantManagementApi for EchoApi {
    type Caller = String;

    async fn authorize(&self, request: AuthorizationRequest<'_>) -> Result<String, AuthError> {
        match request.token {
            ALL_SCOPES => Ok("tester".to_string()),
            NO_SCOPES => Err(AuthError::Forbidden(format!(
                "Insufficient scope; expected any of: {}",
                request.required_scopes.join(", ")
            ))),
            _ => Err(AuthError::Unauthenticated("Invalid token".to_string())),
        }
    }

    async fn create_token_exchange_profile(
        &self,
        context: RequestContext<String>,
        body: types::CreateTokenExchangeProfileRequest,
    ) -> CreateTokenExchangeProfileResponse {
        self.calls.fetch_add(1, Ordering::SeqCst);
        assert_eq!(context.caller, "tester");
        if body.name.as_str() == "Rate limited" {
            return CreateTokenExchangeProfileResponse::TooManyRequests(
                responses::TooManyRequests {
                    body: error(429, "Too many requests"),
                    x_rate_limit_limit: 10,
                    x_rate_limit_remaining: 0,
                    x_rate_limit_reset: 1_700_000_000,
                },
            );
        }
        let mut profile = serde_json::to_value(&body).unwrap();
        profile["id"] = json!("tep_1");
        profile["created_at"] = json!("2026-01-02T03:04:05Z");
        profile["updated_at"] = json!("2026-01-02T03:04:05Z");
        CreateTokenExchangeProfileResponse::Created(from_json(profile))
    }

    async fn get_user_attribute_profile_template(
        &self,
        _context: RequestContext<String>,
        id: String,
    ) -> GetUserAttributeProfileTemplateResponse {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if id != "tmpl_1" {
            return GetUserAttributeProfileTemplateResponse::NotFound(error(
                404,
                "No such template",
            ));
        }
        GetUserAttributeProfileTemplateResponse::Ok(from_json(template_json()))
    }

    async fn get_action_module(
        &self,
        _context: RequestContext<String>,
        id: String,
    ) -> GetActionModuleResponse {
        self.calls.fetch_add(1, Ordering::SeqCst);
        GetActionModuleResponse::Ok(from_json(module_json(&id)))
    }

    async fn create_event_stream(
        &self,
        _context: RequestContext<String>,
        body: types::CreateEventStreamRequest,
    ) -> CreateEventStreamResponse {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let mut stream = serde_json::to_value(&body).unwrap();
        stream["id"] = json!("01HZX3Y5Q7R9T1V3W5X7Y9Z1A2");
        stream["status"] = json!(
            body.status
                .map_or("enabled".to_string(), |status| status.to_string())
        );
        stream["destination"]["configuration"]["webhook_authorization"]
            .as_object_mut()
            .unwrap()
            .remove("password");
        stream["created_at"] = json!("2026-01-02T03:04:05Z");
        stream["updated_at"] = json!("2026-01-02T03:04:05Z");
        CreateEventStreamResponse::Created(from_json(stream))
    }

    async fn get_push_notification_apns_provider(
        &self,
        _context: RequestContext<String>,
    ) -> GetPushNotificationApnsProviderResponse {
        self.calls.fetch_add(1, Ordering::SeqCst);
        GetPushNotificationApnsProviderResponse::Ok(from_json(json!({
            "bundle_id": "com.example.app", "sandbox": false, "enabled": true
        })))
    }
}

fn template_json() -> Value {
    json!({
        "id": "tmpl_1",
        "display_name": "Workforce",
        "template": {
            "name": "workforce",
            "user_id": {
                "oidc_mapping": "sub",
                "saml_mapping": ["nameid"],
                "scim_mapping": "externalId",
                "strategy_overrides": {
                    "ad": {"scim_mapping": "objectGUID"},
                    "vendor-federation": {"saml_mapping": ["upn"]}
                }
            },
            "user_attributes": {"email": {
                "description": "Email address", "label": "Email",
                "profile_required": true, "auth0_mapping": "email",
                "oidc_mapping": {"mapping": "email"}
            }}
        }
    })
}

fn module_json(id: &str) -> Value {
    json!({
        "id": id,
        "name": "shared-helpers",
        "code": "module.exports = {};",
        "dependencies": [{"name": "lodash", "version": "4.17.21"}],
        "secrets": [{"name": "API_KEY", "updated_at": "2026-01-02T03:04:05Z"}],
        "actions_using_module_total": 2,
        "all_changes_published": true,
        "latest_version_number": 3,
        "created_at": "2026-01-02T03:04:05Z",
        "updated_at": "2026-01-02T03:04:05Z",
        "latest_version": {
            "id": "ver_3", "version_number": 3, "code": "module.exports = {};",
            "dependencies": [], "secrets": [], "created_at": "2026-01-02T03:04:05Z"
        }
    })
}

fn profile_json() -> Value {
    samples::profile_request("urn:partner:token", "act_1")
}

fn stream_json() -> Value {
    samples::stream_request("s3cret")
}

struct TestServer {
    base: String,
    api: EchoApi,
    http: reqwest::Client,
}

impl TestServer {
    async fn start() -> Self {
        Self::start_with(RouterOptions::default()).await
    }

    async fn start_with(options: RouterOptions) -> Self {
        let api = EchoApi::default();
        let app = tenant_api_server::router_with_options(api.clone(), options);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self {
            base: format!("http://{address}/api/v2"),
            api,
            http: workspace_tests::http(),
        }
    }

    fn client(&self, token: &str) -> tenant_api_client::Client {
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(
            reqwest::header::AUTHORIZATION,
            format!("Bearer {token}").parse().unwrap(),
        );
        let http = workspace_tests::http_builder()
            .default_headers(headers)
            .build()
            .unwrap();
        tenant_api_client::Client::new_with_client(
            &self.base,
            http,
            tenant_api_client::Hooks::default(),
        )
    }

    fn calls(&self) -> usize {
        self.api.calls.load(Ordering::SeqCst)
    }

    /// A raw request with the given content type and body, authenticated.
    async fn post(
        &self,
        path: &str,
        content_type: &str,
        body: impl Into<reqwest::Body>,
    ) -> (u16, Value) {
        workspace_tests::post_raw(
            &self.http,
            &format!("{}{path}", self.base),
            ALL_SCOPES,
            content_type,
            body,
        )
        .await
    }

    async fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post(path, "application/json", body.to_string()).await
    }
}

/// Asserts a JSON error body of the spec's shape and returns its message.
fn error_message(status: u16, body: &Value) -> String {
    assert_eq!(body["statusCode"], status, "{body}");
    assert!(body["error"].is_string(), "{body}");
    body["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no message in {body}"))
        .to_string()
}

#[tokio::test]
async fn the_generated_client_and_server_agree_on_all_five_operations() {
    let server = TestServer::start().await;
    let client = server.client(ALL_SCOPES);

    let request: types::CreateTokenExchangeProfileRequest = from_json(profile_json());
    let created = client
        .create_token_exchange_profile()
        .body(request.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    assert_eq!(created.name, request.name);
    assert_eq!(created.id, "tep_1");

    let template = client
        .get_user_attribute_profile_template()
        .id("tmpl_1")
        .send()
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(template.into_inner()).unwrap(),
        template_json()
    );

    let module = client.get_action_module().id("mod_9").send().await.unwrap();
    assert_eq!(
        serde_json::to_value(module.into_inner()).unwrap(),
        module_json("mod_9")
    );

    let stream = client
        .create_event_stream()
        .body(from_json::<types::CreateEventStreamRequest>(stream_json()))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 201);
    assert_eq!(stream.status, types::EventStreamStatus::Enabled);
    let returned = serde_json::to_value(stream.into_inner()).unwrap();
    assert!(
        returned["destination"]["configuration"]["webhook_authorization"]
            .get("password")
            .is_none()
    );

    let provider = client
        .get_push_notification_apns_provider()
        .send()
        .await
        .unwrap();
    assert_eq!(provider.bundle_id.as_deref(), Some("com.example.app"));
    assert_eq!(server.calls(), 5);
}

#[tokio::test]
async fn unknown_ids_give_the_typed_404() {
    let server = TestServer::start().await;
    let err = server
        .client(ALL_SCOPES)
        .get_user_attribute_profile_template()
        .id("nope")
        .send()
        .await
        .unwrap_err();
    match err {
        tenant_api_client::Error::ErrorResponse(response) => {
            assert_eq!(response.status(), 404);
            assert_eq!(response.message, "No such template");
        }
        other => panic!("expected a 404, got {other:?}"),
    }
}

#[tokio::test]
async fn rate_limit_headers_are_typed_on_the_server_and_on_the_wire() {
    let server = TestServer::start().await;
    let mut body = profile_json();
    body["name"] = json!("Rate limited");
    let err = server
        .client(ALL_SCOPES)
        .create_token_exchange_profile()
        .body(from_json::<types::CreateTokenExchangeProfileRequest>(body))
        .send()
        .await
        .unwrap_err();
    let tenant_api_client::Error::ErrorResponse(response) = err else {
        panic!("expected an error response");
    };
    assert_eq!(response.status(), 429);
    let header = |name: &str| response.headers()[name].to_str().unwrap().to_string();
    assert_eq!(header("x-ratelimit-limit"), "10");
    assert_eq!(header("x-ratelimit-remaining"), "0");
    assert_eq!(header("x-ratelimit-reset"), "1700000000");
}

#[tokio::test]
async fn both_posts_accept_form_bodies() {
    let server = TestServer::start().await;
    let form = "name=Partner+tokens&subject_token_type=urn%3Apartner%3Atoken&action_id=act_1&type=custom_authentication";
    let (status, body) = server
        .post(
            "/token-exchange-profiles",
            "application/x-www-form-urlencoded",
            form,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["subject_token_type"], "urn:partner:token");

    let form = "name=audit&subscriptions%5B0%5D%5Bevent_type%5D=user.created\
        &subscriptions[1][event_type]=user.deleted&status=disabled\
        &destination[type]=webhook\
        &destination[configuration][webhook_endpoint]=https%3A%2F%2Fhooks.example.com%2Fevents\
        &destination[configuration][webhook_authorization][method]=basic\
        &destination[configuration][webhook_authorization][username]=hook\
        &destination[configuration][webhook_authorization][password]=s3cret";
    let (status, body) = server
        .post(
            "/event-streams",
            "application/x-www-form-urlencoded; charset=utf-8",
            form,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        body["subscriptions"],
        json!([{"event_type": "user.created"}, {"event_type": "user.deleted"}])
    );
    assert_eq!(body["status"], "disabled");
    assert_eq!(server.calls(), 2);
}

#[tokio::test]
async fn every_constraint_is_enforced_before_the_trait_is_called() {
    let server = TestServer::start().await;
    let profile = |field: &str, value: Value| {
        let mut body = profile_json();
        if value.is_null() {
            body.as_object_mut().unwrap().remove(field);
        } else {
            body[field] = value;
        }
        body
    };
    let stream = |pointer: &str, value: Value| {
        let mut body = stream_json();
        *body.pointer_mut(pointer).unwrap() = value;
        body
    };
    let cases = [
        (
            "/token-exchange-profiles",
            profile("name", json!("ab")),
            "'name' must be at least 3 characters long",
        ),
        (
            "/token-exchange-profiles",
            profile("name", json!("x".repeat(51))),
            "'name' must be at most 50 characters long",
        ),
        (
            "/token-exchange-profiles",
            profile("name", Value::Null),
            "'name' is required",
        ),
        (
            "/token-exchange-profiles",
            profile("name", json!(42)),
            "'name' must be a string, not a number",
        ),
        (
            "/token-exchange-profiles",
            profile("subject_token_type", json!("not a uri")),
            "'subject_token_type' must be a valid url",
        ),
        (
            "/token-exchange-profiles",
            profile("subject_token_type", json!("urn:partner:with space")),
            "'subject_token_type' must be a valid url",
        ),
        (
            "/token-exchange-profiles",
            profile("subject_token_type", json!("urn:partner:tab\there")),
            "'subject_token_type' must be a valid url",
        ),
        (
            "/token-exchange-profiles",
            profile("subject_token_type", json!("urn:partner:ctl\u{7f}x")),
            "'subject_token_type' must be a valid url",
        ),
        (
            "/token-exchange-profiles",
            profile("subject_token_type", json!("urn:partner:<angle>")),
            "'subject_token_type' must be a valid url",
        ),
        (
            "/token-exchange-profiles",
            profile("subject_token_type", json!("urn:partner:bad%zz")),
            "'subject_token_type' must be a valid url",
        ),
        (
            "/token-exchange-profiles",
            profile("subject_token_type", json!("urn:partner:caf\u{e9}")),
            "'subject_token_type' must be a valid url",
        ),
        (
            "/token-exchange-profiles",
            profile("subject_token_type", json!("urn:partner:{brace}")),
            "'subject_token_type' must be a valid url",
        ),
        (
            "/token-exchange-profiles",
            profile("subject_token_type", json!("urn:x")),
            "'subject_token_type' must be at least 8 characters long",
        ),
        (
            "/token-exchange-profiles",
            profile("action_id", json!("")),
            "'action_id' must be at least 1 characters long",
        ),
        (
            "/token-exchange-profiles",
            profile("action_id", json!("a".repeat(37))),
            "'action_id' must be at most 36 characters long",
        ),
        (
            "/token-exchange-profiles",
            profile("type", json!("passthrough")),
            "the type field must be custom",
        ),
        (
            "/token-exchange-profiles",
            profile("extra", json!(true)),
            "'extra' is not an allowed property",
        ),
        (
            "/token-exchange-profiles",
            profile("", json!(true)),
            "'\"\"' is not an allowed property",
        ),
        (
            "/event-streams",
            stream("/subscriptions", json!([])),
            "'subscriptions' must contain at least 1 item",
        ),
        (
            "/event-streams",
            stream("/name", json!("")),
            "'name' must be at least 1 characters long",
        ),
        (
            "/event-streams",
            stream("/name", json!("n".repeat(129))),
            "'name' must be at most 128 characters long",
        ),
        (
            "/event-streams",
            stream("/subscriptions/0", json!({})),
            "'subscriptions[0].event_type' is required",
        ),
        (
            "/event-streams",
            stream("/destination/type", json!("queue")),
            "'destination.type' must be one of: webhook, eventbridge, action",
        ),
        (
            "/event-streams",
            stream(
                "/destination/configuration/webhook_authorization/method",
                json!("digest"),
            ),
            "'destination.configuration.webhook_authorization.method' must be one of: basic, bearer, custom_header",
        ),
        (
            "/event-streams",
            {
                let mut body = stream_json();
                body["status"] = json!("paused");
                body
            },
            "'status' must be one of: enabled, disabled",
        ),
        (
            "/event-streams",
            json!([1, 2]),
            "the body must be an object, not a list",
        ),
    ];
    for (path, body, expected) in cases {
        let (status, response) = server.post_json(path, &body).await;
        assert_eq!(status, 400, "{path} {body}: {response}");
        let message = error_message(400, &response);
        assert!(
            message.contains(expected),
            "{path} {body}: expected {expected:?} in {message:?}"
        );
    }
    assert_eq!(
        server.calls(),
        0,
        "no invalid request reaches the implementation"
    );
}

#[tokio::test]
async fn malformed_bodies_are_400_with_the_error_shape() {
    let server = TestServer::start().await;
    let (status, body) = server
        .post("/token-exchange-profiles", "application/json", "{not json")
        .await;
    assert!(error_message(status, &body).starts_with("Invalid JSON body"));
    assert_eq!(status, 400);
    let (status, body) = server
        .post(
            "/event-streams",
            "application/x-www-form-urlencoded",
            "name=a&name=b",
        )
        .await;
    // A key given twice is a list (OpenAPI's default encoding of one),
    // which `name`, a string, is not.
    assert_eq!(status, 400);
    assert!(
        error_message(status, &body).contains("'name' must be a string, not a list"),
        "{body}"
    );
    let (status, body) = server
        .post(
            "/event-streams",
            "application/x-www-form-urlencoded",
            "name=a&name[x]=b",
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        error_message(status, &body).contains("`name[x]` mixes a value with nested fields"),
        "{body}"
    );
}

#[tokio::test]
async fn authentication_is_checked_before_anything_else() {
    let server = TestServer::start().await;
    let url = format!("{}/actions/modules/mod_1", server.base);

    let response = server.http.get(&url).send().await.unwrap();
    assert_eq!(response.status(), 401);
    let body: Value = response.json().await.unwrap();
    assert!(error_message(401, &body).contains("Missing authentication"));

    let response = server
        .http
        .get(&url)
        .header("authorization", "Basic dXNlcjpwYXNz")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    let body: Value = response.json().await.unwrap();
    assert!(error_message(401, &body).contains("Bad HTTP authentication header format"));

    let err = server
        .client("forged")
        .get_action_module()
        .id("mod_1")
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.status().map(|status| status.as_u16()), Some(401));

    let err = server
        .client(NO_SCOPES)
        .create_token_exchange_profile()
        .body(from_json::<types::CreateTokenExchangeProfileRequest>(
            profile_json(),
        ))
        .send()
        .await
        .unwrap_err();
    let tenant_api_client::Error::ErrorResponse(response) = err else {
        panic!("expected 403")
    };
    assert_eq!(response.status(), 403);
    assert_eq!(
        response.message,
        "Insufficient scope; expected any of: create:token_exchange_profiles"
    );

    // An invalid body from an unauthenticated caller is refused as unauthenticated.
    let response = server
        .http
        .post(format!("{}/event-streams", server.base))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    assert_eq!(server.calls(), 0);
}

/// RFC 6750 section 3: every 401 names the `Bearer` scheme, with an error
/// code once credentials were sent; a missing scope gets 403 with
/// `insufficient_scope`.
#[tokio::test]
async fn refusals_carry_the_bearer_challenge() {
    let server = TestServer::start().await;
    let url = format!("{}/actions/modules/mod_1", server.base);
    for (authorization, status, challenge) in [
        (None, 401, "Bearer"),
        (
            Some("Basic dXNlcjpwYXNz"),
            401,
            "Bearer error=\"invalid_request\"",
        ),
        (Some("Bearer forged"), 401, "Bearer error=\"invalid_token\""),
        (
            Some(&*format!("bearer {NO_SCOPES}")),
            403,
            "Bearer error=\"insufficient_scope\"",
        ),
    ] {
        let mut request = server.http.get(&url);
        if let Some(authorization) = authorization {
            request = request.header("authorization", authorization);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), status, "{authorization:?}");
        assert_eq!(
            response.headers()["www-authenticate"],
            challenge,
            "{authorization:?}"
        );
    }
}

#[tokio::test]
async fn unsupported_media_types_get_415() {
    let server = TestServer::start().await;
    for content_type in ["text/plain", "multipart/form-data; boundary=x"] {
        let (status, body) = server
            .post(
                "/token-exchange-profiles",
                content_type,
                profile_json().to_string(),
            )
            .await;
        assert_eq!(status, 415, "{content_type}");
        assert!(
            error_message(415, &body)
                .contains("application/json, application/x-www-form-urlencoded")
        );
    }
    let response = server
        .http
        .post(format!("{}/event-streams", server.base))
        .bearer_auth(ALL_SCOPES)
        .body(stream_json().to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 415, "a body without Content-Type");
    assert_eq!(server.calls(), 0);
}

#[tokio::test]
async fn a_missing_required_body_gets_400() {
    let server = TestServer::start().await;
    let response = server
        .http
        .post(format!("{}/event-streams", server.base))
        .bearer_auth(ALL_SCOPES)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400, "no body and no Content-Type");
    let body: serde_json::Value = response.json().await.unwrap();
    assert!(
        error_message(400, &body).contains("the request body is required"),
        "{body}"
    );
    assert_eq!(server.calls(), 0);
}

#[tokio::test]
async fn bodies_over_the_limit_get_413() {
    let server = TestServer::start_with(RouterOptions {
        body_limit: 256,
        ..RouterOptions::default()
    })
    .await;
    let mut body = stream_json();
    body["name"] = json!("n".repeat(300));
    let (status, response) = server.post_json("/event-streams", &body).await;
    assert_eq!(status, 413);
    error_message(413, &response);
    assert_eq!(server.calls(), 0);
}

#[tokio::test]
async fn unknown_paths_and_wrong_methods_get_json_404_and_405() {
    let server = TestServer::start().await;
    let response = server
        .http
        .get(format!("{}/no-such-resource", server.base))
        .bearer_auth(ALL_SCOPES)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let body: Value = response.json().await.unwrap();
    error_message(404, &body);

    let response = server
        .http
        .delete(format!("{}/event-streams", server.base))
        .bearer_auth(ALL_SCOPES)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 405);
    let body: Value = response.json().await.unwrap();
    error_message(405, &body);
}

/// Client and server share one definition of each type; a value serialized by
/// either side deserializes on the other into an equal value.
#[test]
fn every_request_and_response_type_round_trips() {
    fn round_trip<T>(sample: Value)
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let parsed: T = serde_json::from_value(sample.clone()).expect("sample parses");
        let serialized = serde_json::to_value(&parsed).unwrap();
        assert_eq!(serialized, sample, "{}", std::any::type_name::<T>());
        assert_eq!(serde_json::from_value::<T>(serialized).unwrap(), parsed);
    }
    round_trip::<types::CreateTokenExchangeProfileRequest>(profile_json());
    let mut profile = profile_json();
    profile["id"] = json!("tep_1");
    profile["created_at"] = json!("2026-01-02T03:04:05Z");
    profile["updated_at"] = json!("2026-01-02T03:04:05Z");
    round_trip::<types::TokenExchangeProfile>(profile);
    round_trip::<types::UserAttributeProfileTemplate>(template_json());
    round_trip::<types::ActionModule>(module_json("mod_1"));
    let mut unpublished = module_json("mod_2");
    unpublished
        .as_object_mut()
        .unwrap()
        .remove("latest_version");
    unpublished
        .as_object_mut()
        .unwrap()
        .remove("latest_version_number");
    round_trip::<types::ActionModule>(unpublished);
    round_trip::<types::CreateEventStreamRequest>(stream_json());
    let mut stream = stream_json();
    stream["id"] = json!("01HZX3Y5Q7R9T1V3W5X7Y9Z1A2");
    stream["status"] = json!("enabled");
    stream["created_at"] = json!("2026-01-02T03:04:05Z");
    stream["updated_at"] = json!("2026-01-02T03:04:05Z");
    stream["destination"]["configuration"]["webhook_authorization"]
        .as_object_mut()
        .unwrap()
        .remove("password");
    round_trip::<types::EventStream>(stream);
    round_trip::<types::PushNotificationApnsProvider>(json!({"sandbox": true, "enabled": false}));
    round_trip::<types::Error>(
        json!({"statusCode": 409, "error": "Conflict", "message": "exists", "errorCode": "conflict"}),
    );
}

/// An implementation written before any operation existed: it overrides
/// none, yet compiles, because every operation has a default body.
struct ImplementsNothing;

impl TenantManagementApi for ImplementsNothing {
    type Caller = ();

    async fn authorize(&self, _request: AuthorizationRequest<'_>) -> Result<(), AuthError> {
        Ok(())
    }
}

#[tokio::test]
async fn operations_a_server_does_not_implement_answer_501() {
    let app = tenant_api_server::router(ImplementsNothing);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let response = workspace_tests::http()
        .get(format!("http://{address}/api/v2/actions/modules/mod_1"))
        .bearer_auth("any")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 501);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["statusCode"], 501);
    assert_eq!(body["error"], "Not Implemented");
    assert_eq!(body["errorCode"], "not_implemented");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("get_action_module"),
        "{body}"
    );

    // A body is still validated before the (default) method is reached.
    let (status, _) = workspace_tests::post_raw(
        &workspace_tests::http(),
        &format!("http://{address}/api/v2/token-exchange-profiles"),
        "any",
        "application/json",
        r#"{"name": "x"}"#,
    )
    .await;
    assert_eq!(status, 400);
}

/// A rejected body lists every broken rule under `errors`, each with a JSON
/// Pointer into the body and a rule code, without repeating what was sent.
#[tokio::test]
async fn validation_errors_are_structured_with_pointers() {
    let server = TestServer::start().await;
    let secret_name = "x";
    let (status, body) = workspace_tests::post_raw(
        &server.http,
        &format!("{}/token-exchange-profiles", server.base),
        ALL_SCOPES,
        "application/json",
        json!({
            "name": secret_name,
            "subject_token_type": "not a uri",
            "type": "other",
            "": "unnamed",
        })
        .to_string(),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["statusCode"], 400);
    assert_eq!(body["errorCode"], "invalid_body");
    let found: Vec<(String, String)> = body["errors"]
        .as_array()
        .expect("an errors list")
        .iter()
        .map(|item| {
            (
                item["pointer"].as_str().unwrap().to_string(),
                item["code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected = [
        ("/action_id", "required"),
        ("/name", "min_length"),
        ("/subject_token_type", "format"),
        ("/type", "enum"),
        ("/", "additional_property"),
    ];
    for (pointer, code) in expected {
        assert!(
            found.contains(&(pointer.to_string(), code.to_string())),
            "missing ({pointer}, {code}) in {found:?}"
        );
    }
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains("the type field must be custom"),
        "{message}"
    );
    assert!(
        message.contains(r#"'""' is not an allowed property"#),
        "{message}"
    );
    assert!(
        !body.to_string().contains("unnamed"),
        "a submitted value is echoed: {body}"
    );
    assert_eq!(server.api.calls.load(Ordering::SeqCst), 0);
}

/// The generated client reads `errors` as a typed field.
#[tokio::test]
async fn the_client_reads_structured_errors_as_typed_fields() {
    let server = TestServer::start().await;
    // The subject token type's pattern is checked by its type now, so the
    // rule only the server checks is `minItems` (the list type cannot say it).
    let mut request: types::CreateEventStreamRequest =
        serde_json::from_value(stream_json()).unwrap();
    request.subscriptions = Some(types::EventStreamSubscriptions(Vec::new()));
    let error = server
        .client(ALL_SCOPES)
        .create_event_stream()
        .body(request)
        .send()
        .await
        .unwrap_err();
    let tenant_api_client::Error::ErrorResponse(response) = error else {
        panic!("expected an error response, got {error:?}")
    };
    assert_eq!(response.status(), 400);
    let items: Vec<(&str, &str)> = response
        .errors
        .iter()
        .map(|item| {
            (
                item.pointer.as_deref().unwrap_or_default(),
                item.code.as_str(),
            )
        })
        .collect();
    assert_eq!(items, [("/subscriptions", "min_items")]);
}
