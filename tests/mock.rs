//! The mock (`openapi-crates-mock`, `cargo xtask mock`) over a real socket: the
//! project's spec, whose generated server answers every broken request
//! beside it so the two answers can be compared byte for byte; a construct
//! fixture with checked parameters; and the platform's whole definition.

use std::path::Path;
use std::time::Instant;

use openapi_crates_mock::{Mock, Options};
use serde_json::{Value, json};
use tenant_api_server::{AuthError, AuthorizationRequest, RouterOptions, TenantManagementApi};
use workspace_tests::samples;

const TOKEN: &str = "any-well-formed-token";

/// The generated server with an implementation that accepts any token and
/// implements nothing: it answers what its router answers by itself.
#[derive(Clone)]
struct RouterOnly;

impl TenantManagementApi for RouterOnly {
    type Caller = ();

    async fn authorize(&self, _request: AuthorizationRequest<'_>) -> Result<(), AuthError> {
        Ok(())
    }
}

async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!("http://{address}")
}

/// The mock of `spec` (relative to the workspace root), served; its URL
/// with the server URL's path.
async fn start_mock(spec: &str, seed: u64) -> String {
    start_mock_with(
        spec,
        Options {
            seed,
            check_scopes: false,
        },
    )
    .await
}

async fn start_mock_with(spec: &str, options: Options) -> String {
    let root = workspace_tests::workspace_root();
    let mock = Mock::load(&root, Path::new(spec), options)
        .unwrap_or_else(|problems| panic!("{spec}: {problems}"));
    let router = mock.router(mock.router_options()).unwrap();
    format!("{}{}", serve(router).await, mock.base_path())
}

async fn start_generated() -> String {
    let router = tenant_api_server::router(RouterOnly);
    format!("{}/api/v2", serve(router).await)
}

struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Value,
}

async fn send(request: reqwest::RequestBuilder) -> Answer {
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.unwrap();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Answer {
        status,
        headers,
        body,
    }
}

fn profile(field: &str, value: Value) -> Value {
    let mut body = samples::profile_request("urn:partner:token", "act_1");
    if value.is_null() {
        body.as_object_mut().unwrap().remove(field);
    } else {
        body[field] = value;
    }
    body
}

fn stream(pointer: &str, value: Value) -> Value {
    let mut body = samples::stream_request("hunter22");
    *body.pointer_mut(pointer).unwrap() = value;
    body
}

/// Each of the five operations, called as a client would: a valid request
/// gets the documented success with a body of the operation's type (the
/// generated types refuse what breaks their schema: lengths, enums, closed
/// objects), and the mock found a value passing the schema's checks.
#[tokio::test]
async fn each_operation_answers_its_documented_success() {
    let mock = start_mock("spec/tenant-management.yaml", 7).await;
    let http = workspace_tests::http();
    let calls = [
        (
            "create_token_exchange_profile",
            http.post(format!("{mock}/token-exchange-profiles"))
                .json(&samples::profile_request("urn:partner:token", "act_1")),
            201,
        ),
        (
            "get_user_attribute_profile_template",
            http.get(format!("{mock}/user-attribute-profiles/templates/tmpl_1")),
            200,
        ),
        (
            "get_action_module",
            http.get(format!("{mock}/actions/modules/mod_1")),
            200,
        ),
        (
            "create_event_stream",
            http.post(format!("{mock}/event-streams"))
                .json(&samples::stream_request("hunter22")),
            201,
        ),
        (
            "get_push_notification_apns_provider",
            http.get(format!(
                "{mock}/guardian/factors/push-notification/providers/apns"
            )),
            200,
        ),
    ];
    for (operation, request, expected) in calls {
        let answer = send(request.bearer_auth(TOKEN)).await;
        assert_eq!(answer.status, expected, "{operation}: {}", answer.body);
        assert_eq!(
            answer.headers[reqwest::header::CONTENT_TYPE],
            "application/json",
            "{operation}"
        );
        assert!(
            !answer.headers.contains_key("x-mock-warning"),
            "{operation}: {}",
            answer.body
        );
        let typed = match operation {
            "create_token_exchange_profile" => serde_json::from_value::<
                tenant_api_types::TokenExchangeProfile,
            >(answer.body.clone())
            .map(drop),
            "get_user_attribute_profile_template" => serde_json::from_value::<
                tenant_api_types::UserAttributeProfileTemplate,
            >(answer.body.clone())
            .map(drop),
            "get_action_module" => {
                serde_json::from_value::<tenant_api_types::ActionModule>(answer.body.clone())
                    .map(drop)
            }
            "create_event_stream" => {
                serde_json::from_value::<tenant_api_types::EventStream>(answer.body.clone())
                    .map(drop)
            }
            _ => serde_json::from_value::<tenant_api_types::PushNotificationApnsProvider>(
                answer.body.clone(),
            )
            .map(drop),
        };
        typed.unwrap_or_else(|err| panic!("{operation}: {err}: {}", answer.body));
    }
    // The same bodies as forms, read and checked as the generated server
    // reads them (bracket notation, text fields).
    let forms = [
        (
            "/token-exchange-profiles",
            "name=Partner+tokens&subject_token_type=urn%3Apartner%3Atoken&action_id=act_1\
             &type=custom_authentication",
        ),
        (
            "/event-streams",
            "name=audit&subscriptions[0][event_type]=user.created&destination[type]=webhook\
             &destination[configuration][webhook_endpoint]=https%3A%2F%2Fhooks.example.com%2Fe\
             &destination[configuration][webhook_authorization][method]=bearer\
             &destination[configuration][webhook_authorization][token]=secret",
        ),
    ];
    for (path, form) in forms {
        let answer = send(
            http.post(format!("{mock}{path}"))
                .bearer_auth(TOKEN)
                .header(
                    reqwest::header::CONTENT_TYPE,
                    "application/x-www-form-urlencoded",
                )
                .body(form),
        )
        .await;
        assert_eq!(answer.status, 201, "{path}: {}", answer.body);
    }
}

/// Requests breaking the spec's rules get exactly the generated server's
/// 400 (status, message, and `errors[]` with each field's pointer and
/// rule), JSON and form bodies alike; so do a body of a media type the
/// operation does not take (415) and a malformed one.
#[tokio::test]
async fn broken_requests_get_the_generated_servers_answer() {
    let mock = start_mock("spec/tenant-management.yaml", 0).await;
    let generated = start_generated().await;
    let http = workspace_tests::http();
    let json_cases = [
        (
            "/token-exchange-profiles",
            profile("name", json!("ab")),
            "/name",
        ),
        ("/token-exchange-profiles", profile("name", Value::Null), ""),
        (
            "/token-exchange-profiles",
            profile("name", json!(42)),
            "/name",
        ),
        (
            "/token-exchange-profiles",
            profile("subject_token_type", json!("not a uri")),
            "/subject_token_type",
        ),
        (
            "/token-exchange-profiles",
            profile("action_id", json!("")),
            "/action_id",
        ),
        (
            "/token-exchange-profiles",
            profile("type", json!("passthrough")),
            "/type",
        ),
        (
            "/token-exchange-profiles",
            profile("extra", json!(true)),
            "/extra",
        ),
        (
            "/event-streams",
            stream("/subscriptions", json!([])),
            "/subscriptions",
        ),
        (
            "/event-streams",
            stream("/subscriptions/0", json!({})),
            "/subscriptions/0",
        ),
        (
            "/event-streams",
            stream("/destination/type", json!("queue")),
            "/destination/type",
        ),
        (
            "/event-streams",
            stream(
                "/destination/configuration/webhook_authorization/method",
                json!("digest"),
            ),
            "/destination/configuration/webhook_authorization",
        ),
        (
            "/event-streams",
            stream(
                "/destination/configuration/webhook_endpoint",
                json!("http://x"),
            ),
            "/destination/configuration/webhook_endpoint",
        ),
        ("/event-streams", json!([1, 2]), ""),
    ];
    for (path, body, pointer) in json_cases {
        let [from_mock, from_generated] = [&mock, &generated].map(|base| {
            http.post(format!("{base}{path}"))
                .bearer_auth(TOKEN)
                .json(&body)
        });
        let (from_mock, from_generated) = (send(from_mock).await, send(from_generated).await);
        assert_eq!(from_mock.status, 400, "{path} {body}: {}", from_mock.body);
        assert_eq!(from_mock.body, from_generated.body, "{path} {body}");
        let pointers: Vec<&str> = from_mock.body["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("{path} {body}: {}", from_mock.body))
            .iter()
            .filter_map(|item| item["pointer"].as_str())
            .collect();
        assert!(
            pointers.iter().any(|found| found.starts_with(pointer)),
            "{path} {body}: no error at {pointer} in {}",
            from_mock.body
        );
    }
    let raw_cases: [(&str, &str, &str); 5] = [
        (
            "/token-exchange-profiles",
            "application/x-www-form-urlencoded",
            "name=ab&subject_token_type=urn%3Apartner%3Atoken&action_id=a&type=custom_authentication",
        ),
        (
            "/event-streams",
            "application/x-www-form-urlencoded",
            "name=audit&destination[type]=queue",
        ),
        ("/event-streams", "text/plain", "hello"),
        ("/event-streams", "application/json", "{\"name\": "),
        ("/token-exchange-profiles", "application/json", "\u{feff}{}"),
    ];
    for (path, content_type, body) in raw_cases {
        let [from_mock, from_generated] = [&mock, &generated].map(|base| {
            http.post(format!("{base}{path}"))
                .bearer_auth(TOKEN)
                .header(reqwest::header::CONTENT_TYPE, content_type)
                .body(body)
        });
        let (from_mock, from_generated) = (send(from_mock).await, send(from_generated).await);
        assert!(
            [400, 415].contains(&from_mock.status),
            "{path} {body}: {}",
            from_mock.body
        );
        assert_eq!(
            (from_mock.status, &from_mock.body),
            (from_generated.status, &from_generated.body),
            "{path} {content_type} {body}"
        );
    }
}

/// Without a credential, or with a malformed one, every operation is
/// refused with the generated server's 401 and its challenge.
#[tokio::test]
async fn no_credential_gets_the_generated_servers_401() {
    let mock = start_mock("spec/tenant-management.yaml", 0).await;
    let generated = start_generated().await;
    let http = workspace_tests::http();
    let requests: [(&str, &str); 5] = [
        ("POST", "/token-exchange-profiles"),
        ("GET", "/user-attribute-profiles/templates/tmpl_1"),
        ("GET", "/actions/modules/mod_1"),
        ("POST", "/event-streams"),
        ("GET", "/guardian/factors/push-notification/providers/apns"),
    ];
    for (method, path) in requests {
        for authorization in [None, Some("Basic abc"), Some("Bearer")] {
            let [from_mock, from_generated] = [&mock, &generated].map(|base| {
                let request = http.request(method.parse().unwrap(), format!("{base}{path}"));
                match authorization {
                    Some(value) => request.header(reqwest::header::AUTHORIZATION, value),
                    None => request,
                }
            });
            let (from_mock, from_generated) = (send(from_mock).await, send(from_generated).await);
            assert_eq!(from_mock.status, 401, "{method} {path} {authorization:?}");
            assert_eq!(from_mock.body, from_generated.body, "{method} {path}");
            assert_eq!(
                from_mock.headers.get(reqwest::header::WWW_AUTHENTICATE),
                from_generated
                    .headers
                    .get(reqwest::header::WWW_AUTHENTICATE),
                "{method} {path}"
            );
        }
    }
}

/// An API with an error body of its own gets the mock's own errors (400,
/// 401, 415) in that body, the router's message in its `message`, where
/// the operation documents one for the status; elsewhere they stay RFC 9457
/// problem details.
#[tokio::test]
async fn the_mocks_own_errors_take_the_documented_error_body() {
    let mock = start_mock("tests/fixtures/constructs/own-error-shape.yaml", 0).await;
    let http = workspace_tests::http();
    let answer = send(
        http.post(format!("{mock}/pets"))
            .bearer_auth(TOKEN)
            .json(&json!({"name": "far too long a name"})),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(
        answer.headers[reqwest::header::CONTENT_TYPE],
        "application/json"
    );
    let message = answer.body["message"].as_str().unwrap();
    assert!(message.contains("'name'"), "{}", answer.body);
    assert!(answer.body["code"].is_i64(), "{}", answer.body);
    let answer = send(
        http.post(format!("{mock}/pets"))
            .json(&json!({"name": "rex"})),
    )
    .await;
    assert_eq!(answer.status, 401, "{}", answer.body);
    assert!(
        answer.body["message"]
            .as_str()
            .unwrap()
            .contains("Missing authentication")
    );
    assert!(
        answer
            .headers
            .contains_key(reqwest::header::WWW_AUTHENTICATE)
    );
    // `find_pet_by_id` documents 404 alone: its 401 stays problem details.
    let answer = send(http.get(format!("{mock}/pets/1"))).await;
    assert_eq!(answer.status, 401, "{}", answer.body);
    assert_eq!(
        answer.headers[reqwest::header::CONTENT_TYPE],
        "application/problem+json"
    );
}

/// With `check_scopes`, a bearer token must claim the scope an operation
/// requires (read from the JWT, unverified); without it any token passes.
#[tokio::test]
async fn scopes_are_checked_when_asked() {
    let strict = start_mock_with(
        "spec/tenant-management.yaml",
        Options {
            seed: 0,
            check_scopes: true,
        },
    )
    .await;
    let lenient = start_mock("spec/tenant-management.yaml", 0).await;
    let token = |claims: Value| {
        jsonwebtoken::encode(
            &jsonwebtoken::Header::default(),
            &claims,
            &jsonwebtoken::EncodingKey::from_secret(b"a key the mock never sees"),
        )
        .unwrap()
    };
    let http = workspace_tests::http();
    let path = "/actions/modules/mod_1";
    let read = token(json!({"scope": "read:actions other"}));
    let other = token(json!({"permissions": ["read:users"]}));
    for (base, bearer, status) in [
        (&strict, read.as_str(), 200),
        (&strict, other.as_str(), 403),
        (&strict, "opaque-token", 401),
        (&lenient, other.as_str(), 200),
        (&lenient, "opaque-token", 200),
    ] {
        let answer = send(http.get(format!("{base}{path}")).bearer_auth(bearer)).await;
        assert_eq!(answer.status, status, "{bearer}: {}", answer.body);
        if status == 403 {
            assert_eq!(answer.body["errorCode"], "insufficient_scope");
            assert_eq!(
                answer
                    .headers
                    .get(reqwest::header::WWW_AUTHENTICATE)
                    .unwrap(),
                r#"Bearer error="insufficient_scope""#
            );
        }
    }
}

/// `Prefer: code=N` picks a documented status, with its documented body and
/// headers; a status the operation does not document is refused with a 400
/// saying which it documents; an unknown path is the router's 404.
#[tokio::test]
async fn prefer_picks_a_documented_status() {
    let mock = start_mock("spec/tenant-management.yaml", 0).await;
    let http = workspace_tests::http();
    let module = format!("{mock}/actions/modules/mod_1");
    let answer = send(
        http.get(&module)
            .bearer_auth(TOKEN)
            .header("prefer", "code=404"),
    )
    .await;
    assert_eq!(answer.status, 404, "{}", answer.body);
    serde_json::from_value::<tenant_api_types::Error>(answer.body.clone())
        .unwrap_or_else(|err| panic!("{err}: {}", answer.body));

    // A shared response with required rate-limit headers.
    let answer = send(
        http.post(format!("{mock}/event-streams"))
            .bearer_auth(TOKEN)
            .header("Prefer", "code=429")
            .json(&samples::stream_request("hunter22")),
    )
    .await;
    assert_eq!(answer.status, 429, "{}", answer.body);
    for header in [
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
    ] {
        let value = answer.headers.get(header);
        assert!(
            value.is_some_and(|value| value.to_str().unwrap().parse::<i64>().is_ok()),
            "{header} in {:?}",
            answer.headers
        );
    }

    // Validation comes first, as in the generated server.
    let answer = send(
        http.post(format!("{mock}/event-streams"))
            .bearer_auth(TOKEN)
            .header("Prefer", "code=201")
            .json(&stream("/name", json!(""))),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);

    let answer = send(
        http.get(&module)
            .bearer_auth(TOKEN)
            .header("prefer", "code=418"),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(answer.body["errorCode"], "unsupported_preference");
    let message = answer.body["message"].as_str().unwrap();
    assert!(
        message.contains("418") && message.contains("200, 400, 401, 403, 404, 429"),
        "{message}"
    );

    let answer = send(http.get(format!("{mock}/nowhere")).bearer_auth(TOKEN)).await;
    assert_eq!(answer.status, 404, "{}", answer.body);
    assert_eq!(answer.body["statusCode"], 404);
}

/// The same seed gives the same responses, whatever came before; another
/// seed other values.
#[tokio::test]
async fn responses_are_deterministic_for_a_seed() {
    let http = workspace_tests::http();
    let fetch = |base: String| {
        let http = http.clone();
        async move {
            send(
                http.get(format!("{base}/actions/modules/mod_1"))
                    .bearer_auth(TOKEN),
            )
            .await
            .body
        }
    };
    let first = start_mock("spec/tenant-management.yaml", 1).await;
    let again = start_mock("spec/tenant-management.yaml", 1).await;
    let other = start_mock("spec/tenant-management.yaml", 2).await;
    // A request to another operation first changes nothing.
    send(
        http.get(format!("{again}/user-attribute-profiles/templates/t"))
            .bearer_auth(TOKEN),
    )
    .await;
    let one = fetch(first.clone()).await;
    assert_eq!(one, fetch(first).await);
    assert_eq!(one, fetch(again).await);
    assert_ne!(one, fetch(other).await);
}

/// Parameters of every location are read in their style and checked by
/// their schemas' rules: one 400 names each broken parameter with its `in`
/// and `name`.
#[tokio::test]
async fn broken_parameters_are_named() {
    let mock = start_mock("tests/fixtures/constructs/parameters.yaml", 0).await;
    let http = workspace_tests::http();
    let answer = send(http.get(format!("{mock}/widgets?q=ab&take=5&ids=a&ids=b&sort=asc"))).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(answer.body["widgets"].is_array(), "{}", answer.body);

    let answer = send(
        http.get(format!(
            "{mock}/widgets?take=500&sort=sideways&ids=a&ids=b&ids=c&ids=d&min_weight=-1"
        ))
        .header("X-Request-Id", "x".repeat(40)),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    let mut named: Vec<(String, String, String)> = answer.body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            (
                item["in"].as_str().unwrap_or_default().to_string(),
                item["name"].as_str().unwrap_or_default().to_string(),
                item["code"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    named.sort();
    let expected = [
        ("header", "X-Request-Id", "max_length"),
        ("query", "ids", "max_items"),
        ("query", "min_weight", "minimum"),
        ("query", "q", "required"),
        ("query", "sort", "enum"),
        ("query", "take", "maximum"),
    ]
    .map(|(location, name, code)| (location.to_string(), name.to_string(), code.to_string()));
    assert_eq!(named, expected, "{}", answer.body);

    let answer = send(http.get(format!("{mock}/widgets/0"))).await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(answer.body["errors"][0]["name"], "widget_id");
    let answer = send(http.get(format!("{mock}/widgets/seven"))).await;
    assert_eq!(answer.status, 400, "{}", answer.body);
}

/// Integer formats hold their type's range in the mock as in the generated
/// server (`tests/fixtures/roundtrips/integer-formats.rs`): parameters, JSON
/// bodies and multipart parts, whose object parts are JSON without saying so.
#[tokio::test]
async fn integer_formats_hold_their_range() {
    let mock = start_mock("tests/fixtures/constructs/integer-formats.yaml", 0).await;
    let http = workspace_tests::http();
    let codes = |answer: &Answer| -> Vec<(String, String)> {
        answer.body["errors"]
            .as_array()
            .unwrap_or_else(|| panic!("{}", answer.body))
            .iter()
            .map(|item| {
                let at = item["pointer"].as_str().or(item["name"].as_str());
                (
                    at.unwrap_or_default().to_string(),
                    item["code"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect()
    };
    let answer = send(http.get(format!("{mock}/counters?limit=2147483647&level=255"))).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let answer = send(http.get(format!("{mock}/counters?limit=2147483648&level=256"))).await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(
        codes(&answer),
        [("limit", "format"), ("level", "format")].map(|(a, b)| (a.to_string(), b.to_string()))
    );
    let answer = send(
        http.post(format!("{mock}/counters"))
            .json(&json!({"value": 2_147_483_648_u64})),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(
        codes(&answer),
        [("/value".to_string(), "format".to_string())]
    );
    let part = |counter: &str| {
        http.post(format!("{mock}/counters/imports"))
            .header("content-type", "multipart/form-data; boundary=XyZ")
            .body(format!(
                "--XyZ\r\nContent-Disposition: form-data; name=\"counter\"\r\n\r\n\
                 {counter}\r\n--XyZ--\r\n"
            ))
    };
    let answer = send(part(r#"{"value": 7}"#)).await;
    assert_eq!(answer.status, 204, "{}", answer.body);
    let answer = send(part(r#"{"value": 2147483648}"#)).await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(
        codes(&answer),
        [("/counter/value".to_string(), "format".to_string())]
    );
}

/// The platform's whole definition (read from `../shared/specs`): it loads
/// in seconds, and serves a few operations: a list, a get, a create with a
/// broken body, a broken query parameter and a missing token.
#[tokio::test]
async fn the_platforms_definition_is_served() {
    let spec = "../shared/specs/platform-management-api.oas.json";
    let started = Instant::now();
    let mock = start_mock(spec, 0).await;
    println!("the platform's mock started in {:?}", started.elapsed());
    let http = workspace_tests::http();
    for path in [
        "/clients",
        "/users",
        "/roles",
        "/actions/actions",
        "/clients/abc",
    ] {
        let answer = send(http.get(format!("{mock}{path}")).bearer_auth(TOKEN)).await;
        assert_eq!(answer.status, 200, "{path}: {}", answer.body);
        assert!(
            !answer.headers.contains_key("x-mock-warning"),
            "{path}: {:?} {}",
            answer.headers.get("x-mock-warning"),
            answer.body
        );
    }
    let answer = send(
        http.get(format!("{mock}/clients?per_page=1000"))
            .bearer_auth(TOKEN),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(
        answer.body["errors"][0]["name"], "per_page",
        "{}",
        answer.body
    );
    let answer = send(
        http.post(format!("{mock}/roles"))
            .bearer_auth(TOKEN)
            .json(&json!({"name": 7})),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(
        answer.body["errors"][0]["pointer"], "/name",
        "{}",
        answer.body
    );
    let answer = send(http.get(format!("{mock}/clients"))).await;
    assert_eq!(answer.status, 401, "{}", answer.body);

    // `oneOf: [{$ref}, {type: "null"}]`: the referenced schema's rules
    // apply, and its valid values match one branch only.
    for (branding, status) in [
        (json!({"colors": {"primary": "#fff"}}), 200),
        (Value::Null, 200),
        (json!({"colors": {"primary": ""}}), 400),
        (json!({"colors": 5}), 400),
    ] {
        let answer = send(
            http.patch(format!("{mock}/self-service-profiles/ssp_1"))
                .bearer_auth(TOKEN)
                .json(&json!({"branding": branding})),
        )
        .await;
        assert_eq!(answer.status, status, "{branding}: {}", answer.body);
    }

    // `code` may hold 65,536 characters: past the runtime's default body
    // limit once they are escaped, yet the spec allows them, so the body
    // is read and checked (the longest string, too long by one, is a 400
    // naming it, not a 413).
    let code = "\u{1F600}".repeat(65_536);
    let body = |code: &str| json!({"name": "m", "code": code}).to_string();
    let escaped = body(&code).replace('\u{1F600}', "\\ud83d\\ude00");
    assert!(escaped.len() > RouterOptions::default().body_limit);
    let answer = send(
        http.post(format!("{mock}/actions/modules"))
            .bearer_auth(TOKEN)
            .header("content-type", "application/json")
            .body(escaped),
    )
    .await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    let answer = send(
        http.post(format!("{mock}/actions/modules"))
            .bearer_auth(TOKEN)
            .header("content-type", "application/json")
            .body(body(&format!("{code}x"))),
    )
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(
        answer.body["errors"][0]["pointer"], "/code",
        "{}",
        answer.body
    );

    // Forms in OpenAPI's default encoding: a map's field (`dependencies`,
    // which the body does not declare) at the top level, a list's key once
    // per item or once; bracket notation still reads as ever.
    let form = |method: reqwest::Method, path: &str, body: &'static str| {
        http.request(method, format!("{mock}{path}"))
            .bearer_auth(TOKEN)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
    };
    for (method, path, body, status) in [
        (
            reqwest::Method::PATCH,
            "/hooks/h1",
            "name=my-hook&lodash=4.17.21&enabled=true",
            201,
        ),
        (
            reqwest::Method::PATCH,
            "/hooks/h1",
            "name=my-hook&dependencies[lodash]=4",
            201,
        ),
        (reqwest::Method::POST, "/users/u1/roles", "roles=rol_1", 204),
        (
            reqwest::Method::POST,
            "/users/u1/roles",
            "roles=rol_1&roles=rol_2",
            204,
        ),
    ] {
        let answer = send(form(method, path, body)).await;
        assert_eq!(answer.status, status, "{body}: {}", answer.body);
    }
    let answer = send(form(
        reqwest::Method::PATCH,
        "/hooks/h1",
        "name=my-hook&enabled=maybe",
    ))
    .await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(
        answer.body["errors"][0]["pointer"], "/enabled",
        "{}",
        answer.body
    );

    // Multipart parts are checked against the upload's schema: a boolean
    // part that is not one is named.
    let upload = |flag: &str| {
        format!(
            "--b\r\nContent-Disposition: form-data; name=\"connection_id\"\r\n\r\n\
             con_0000000000000001\r\n\
             --b\r\nContent-Disposition: form-data; name=\"upsert\"\r\n\r\n{flag}\r\n\
             --b\r\nContent-Disposition: form-data; name=\"users\"; filename=\"u.json\"\r\n\
             Content-Type: application/json\r\n\r\n[]\r\n--b--\r\n"
        )
    };
    for (flag, status) in [("true", 202), ("{}", 400)] {
        let answer = send(
            http.post(format!("{mock}/jobs/users-imports"))
                .bearer_auth(TOKEN)
                .header("content-type", "multipart/form-data; boundary=b")
                .body(upload(flag)),
        )
        .await;
        assert_eq!(answer.status, status, "{flag}: {}", answer.body);
    }
    let answer = send(
        http.post(format!("{mock}/jobs/users-imports"))
            .bearer_auth(TOKEN)
            .header("content-type", "multipart/form-data; boundary=b")
            .body(upload("{}")),
    )
    .await;
    assert_eq!(
        answer.body["errors"][0]["pointer"], "/upsert",
        "{}",
        answer.body
    );
}

/// The codegen's copy of the runtime's default body limit, from which
/// `ApiModel::body_limit` decides whether a spec needs more, is the
/// runtime's.
#[test]
fn the_default_body_limit_is_the_runtimes() {
    assert_eq!(
        openapi_crates_codegen::model::DEFAULT_BODY_LIMIT,
        RouterOptions::default().body_limit
    );
}

/// Every documented JSON response of every operation, of the project's spec
/// and of the platform's whole definition, has a body the mock makes pass
/// its schema's checks.
#[test]
fn every_documented_response_passes_its_schema() {
    // The platform's phone provider requires `credentials` and allows no
    // property it does not declare, and it does not declare `credentials`:
    // no object passes as written (an independent validator agrees), so
    // the generator reads it as not required, with a warning, and the mock
    // says so of each body in `x-mock-warning` (see
    // `a_response_read_otherwise_says_so`).
    let impossible: [&str; 0] = [];
    let root = workspace_tests::workspace_root();
    for (spec, expected) in [
        ("spec/tenant-management.yaml", &[][..]),
        (
            "../shared/specs/platform-management-api.oas.json",
            &impossible[..],
        ),
    ] {
        for seed in [0, 1, 2] {
            let mock = Mock::load(
                &root,
                Path::new(spec),
                Options {
                    seed,
                    check_scopes: false,
                },
            )
            .unwrap();
            let broken = mock.responses_breaking_their_schemas();
            assert_eq!(broken, expected, "{spec} seed {seed}");
        }
    }
}

/// The spec's own examples are what the mock sends where a response has
/// them (`api-with-examples` writes named ones and no schema); `Prefer:
/// example=NAME` picks one by name, and a name the response lacks is
/// refused with those it has.
#[tokio::test]
async fn examples_are_sent_and_picked_by_name() {
    let spec = "../shared/specs/public/oai-examples/api-with-examples.yaml";
    let mock = start_mock(spec, 0).await;
    let http = workspace_tests::http();
    let root = workspace_tests::workspace_root();
    let written: Value = {
        let text = std::fs::read_to_string(root.join(spec)).unwrap();
        let start = text.find("{").unwrap();
        // The first example is the JSON text of the first response.
        let mut depth = 0;
        let mut end = start;
        for (index, c) in text[start..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = start + index + 1;
                break;
            }
        }
        serde_json::from_str(&text[start..end]).unwrap()
    };
    let answer = send(http.get(format!("{mock}/"))).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body, written);
    let answer = send(http.get(format!("{mock}/")).header("prefer", "example=foo")).await;
    assert_eq!(answer.body, written);
    let answer = send(http.get(format!("{mock}/")).header("prefer", "code=300")).await;
    assert_eq!((answer.status, &answer.body), (300, &written));
    let answer = send(http.get(format!("{mock}/")).header("prefer", "example=bar")).await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    let message = answer.body["detail"]
        .as_str()
        .or(answer.body["message"].as_str())
        .unwrap_or_default();
    assert!(
        message.contains("example=bar") && message.ends_with("foo"),
        "{}",
        answer.body
    );
}

/// A response whose schema the generator read otherwise than written (the
/// phone provider's `required: [credentials]`, which its closed object
/// refuses) says so, naming the reading, so that a check against the
/// description as written knows why the body differs.
#[tokio::test]
async fn a_response_read_otherwise_says_so() {
    let spec = "../shared/specs/platform-management-api.oas.json";
    if !workspace_tests::workspace_root().join(spec).exists() {
        assert!(std::env::var_os("CI").is_none(), "{spec} is missing");
        return;
    }
    let base = start_mock(spec, 0).await;
    let http = reqwest::Client::new();
    let answer = http
        .get(format!("{base}/branding/phone/providers/provider_1"))
        .bearer_auth("any-token")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let warning = answer.headers()["x-mock-warning"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        warning.contains("as the generator reads it") && warning.contains("credentials"),
        "{warning}"
    );
    // A response whose schema no reading touched carries no warning.
    let answer = http
        .get(format!("{base}/branding"))
        .bearer_auth("any-token")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    assert!(answer.headers().get("x-mock-warning").is_none());
}

/// A streamed response is mocked item by item: text events, typed events
/// (to a request asking for them with `Accept`, where JSON is offered
/// too), JSON Lines and a JSON text sequence; `Prefer: items=N` and
/// `interval=MS` set how many and how far apart, and each item passes its
/// schema, as the generated client decodes it.
#[tokio::test]
async fn streams_are_mocked_item_by_item() {
    use futures_util::StreamExt;
    use openapi_crates_runtime::stream::{ReceivedEvents, ReceivedLines, Text};

    let base = start_mock("tests/fixtures/constructs/event-streams.yaml", 0).await;
    let http = reqwest::Client::new();

    let logs = http.get(format!("{base}/logs")).send().await.unwrap();
    assert_eq!(logs.headers()["content-type"], "text/event-stream");
    let lines: Vec<String> = ReceivedEvents::<String, Text>::new(logs.bytes_stream())
        .map(|event| event.unwrap().data)
        .collect()
        .await;
    assert_eq!(lines, ["mock", "mock", "mock"]);

    let completion = || {
        http.post(format!("{base}/chat/completions"))
            .json(&json!({"prompt": "hi"}))
    };
    let whole = send(completion()).await;
    assert_eq!(whole.status, 200);
    assert!(whole.body["text"].is_string(), "{}", whole.body);
    let started = Instant::now();
    let streamed = completion()
        .header("accept", "text/event-stream")
        .header("prefer", "items=5, interval=40")
        .send()
        .await
        .unwrap();
    assert_eq!(streamed.headers()["content-type"], "text/event-stream");
    assert!(streamed.headers().get("x-mock-warning").is_none());
    let chunks: Vec<Value> = ReceivedEvents::<Value>::new(streamed.bytes_stream())
        .map(|event| event.unwrap().data)
        .collect()
        .await;
    assert_eq!(chunks.len(), 5);
    assert!(
        started.elapsed().as_millis() >= 200,
        "paced by the interval"
    );
    for chunk in &chunks {
        assert!(
            chunk["index"].is_i64() && chunk["delta"].is_string(),
            "{chunk}"
        );
    }

    for (path, media_type) in [
        ("/exports/e1", "application/x-ndjson"),
        ("/feed", "application/json-seq"),
    ] {
        let answer = http
            .get(format!("{base}{path}"))
            .header("prefer", "items=2")
            .send()
            .await
            .unwrap();
        assert_eq!(answer.headers()["content-type"], media_type);
        let body = answer.bytes_stream();
        let items = if media_type == "application/json-seq" {
            ReceivedLines::<Value>::json_seq(body)
        } else {
            ReceivedLines::<Value>::json_lines(body)
        };
        let items: Vec<Value> = items.map(|item| item.unwrap()).collect().await;
        assert_eq!(items.len(), 2, "{path}");
        let key = if path == "/feed" { "seq" } else { "id" };
        assert!(items.iter().all(|item| item[key].is_i64()), "{items:?}");
    }
}

/// Every response of the public descriptions sent as a stream is mocked
/// with items that pass the item's schema (DigitalOcean's chat completions
/// among them).
#[test]
fn the_public_descriptions_streams_are_mocked_with_valid_items() {
    let public = workspace_tests::workspace_root().join("../shared/specs/public");
    if !public.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is missing",
            public.display()
        );
        return;
    }
    let mut streamed = Vec::new();
    for spec in [
        "digitalocean/specification/DigitalOcean-public.v2.yaml",
        "discord.json",
        "box.json",
    ] {
        let mock = Mock::load(&public, Path::new(spec), Options::default())
            .unwrap_or_else(|problems| panic!("{spec}: {problems}"));
        let broken: Vec<String> = mock
            .responses_breaking_their_schemas()
            .into_iter()
            .filter(|problem| problem.contains("a streamed item"))
            .collect();
        assert_eq!(broken, Vec::<String>::new(), "{spec}");
        streamed.extend(mock.streamed_responses());
    }
    assert!(
        streamed
            .iter()
            .any(|response| response == "inference_create_chat_completion 200: text/event-stream"),
        "{streamed:#?}"
    );
}

/// An operation answering `101` upgrades the connection once the request
/// passes its checks, and the mock echoes each message; `Prefer: code=N`
/// still picks a documented error.
#[tokio::test]
async fn the_mock_upgrades_to_a_websocket_that_echoes() {
    use futures_util::{SinkExt, StreamExt};
    use openapi_crates_runtime::websocket::client::{Handshake, Message};

    let mock = start_mock("tests/fixtures/constructs/websockets.yaml", 0).await;
    let http = reqwest::Client::new();
    let console = format!("{mock}/instances/vm-1/console?most_recent=16");

    let mut request = http.get(&console).bearer_auth(TOKEN).build().unwrap();
    let handshake = Handshake::ask(&mut request);
    let response = http.execute(request).await.unwrap();
    assert_eq!(response.status(), 101);
    let mut socket = handshake.open(response).await.unwrap();
    for message in [Message::text("ls"), Message::binary(vec![0u8, 1, 2])] {
        socket.send(message.clone()).await.unwrap();
        assert_eq!(socket.next().await.unwrap().unwrap(), message);
    }
    socket.close(None).await.unwrap();

    // The checks come first: no token, a parameter out of bounds.
    let mut anonymous = http.get(&console).build().unwrap();
    Handshake::ask(&mut anonymous);
    assert_eq!(http.execute(anonymous).await.unwrap().status(), 401);
    let mut out_of_bounds = http
        .get(format!("{mock}/instances/vm-1/console?most_recent=70000"))
        .bearer_auth(TOKEN)
        .build()
        .unwrap();
    Handshake::ask(&mut out_of_bounds);
    assert_eq!(http.execute(out_of_bounds).await.unwrap().status(), 400);

    // Not asking for the upgrade: the router's 400, naming the cause.
    let plain = send(http.get(&console).bearer_auth(TOKEN)).await;
    assert_eq!(plain.status, 400);
    assert!(
        plain.body.to_string().contains("Connection header"),
        "{}",
        plain.body
    );

    // A documented error instead of the upgrade.
    let refused = send(
        http.get(&console)
            .bearer_auth(TOKEN)
            .header("prefer", "code=404"),
    )
    .await;
    assert_eq!(refused.status, 404);
    assert!(refused.body["message"].is_string(), "{}", refused.body);
}

/// A server URL's variables are read at their defaults
/// (`https://{tenant}.example.com/{version}/{region}` with `v2` and `eu`,
/// `tenant` undefined): the mock serves under `/v2/eu`, over a socket, and
/// nothing under the URL's written path.
#[tokio::test]
async fn server_url_variables_are_served_at_their_defaults() {
    let root = workspace_tests::workspace_root();
    let spec = "tests/fixtures/flawed/17-server-variables.yaml";
    let mock = Mock::load(&root, Path::new(spec), Options::default()).unwrap();
    assert_eq!(mock.base_path(), "/v2/eu");
    let base = start_mock(spec, 0).await;
    assert!(base.ends_with("/v2/eu"), "{base}");
    let health = send(workspace_tests::http().get(format!("{base}/health"))).await;
    assert_eq!(health.status, 204);
    let origin = base.trim_end_matches("/v2/eu");
    let written =
        send(workspace_tests::http().get(format!("{origin}/{{version}}/{{region}}/health"))).await;
    assert_eq!(written.status, 404);
}

/// Two path templates that differ only in their parameter's name
/// (`/users/{id}/login`, `/users/{user}/login`) are one route serving
/// both operations by method, where axum would refuse the second route.
#[tokio::test]
async fn paths_alike_but_for_a_parameters_name_are_both_served() {
    let base = start_mock("tests/fixtures/flawed/19-routes-alike.yaml", 0).await;
    let page = send(workspace_tests::http().get(format!("{base}/users/ann/login"))).await;
    assert_eq!(page.status, 204);
    let login = send(workspace_tests::http().post(format!("{base}/users/ann/login"))).await;
    assert_eq!(login.status, 204);
    let other = send(workspace_tests::http().delete(format!("{base}/users/ann/login"))).await;
    assert_eq!(other.status, 405);
}
