//! What a bad or slow client gets from a generated server (the reference
//! server, served as the runtime recommends with `openapi_crates_runtime::serve`),
//! over a real socket with hand-written HTTP/1.1: for each kind of bad input,
//! the documented status, a JSON error body naming the problem, no echo of a
//! submitted secret, and a server that still answers afterwards.
//!
//! Every request is bounded (large bodies are declared, and only their start
//! sent), so the suite runs in seconds and little memory.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use openapi_crates_runtime::ServeOptions;
use serde_json::{Value, json};
use tenant_reference_server::{AppState, Config, DEVELOPMENT_KEY, TokenIssuer, app};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const TENANT: &str = "tenant.test";
const PROFILES: &str = "/api/v2/token-exchange-profiles";
const TEMPLATE: &str = "/api/v2/user-attribute-profiles/templates/uapt_workforce";

/// How long any one exchange may take before the test calls the server hung.
const PATIENCE: Duration = Duration::from_secs(10);

async fn start_with(options: ServeOptions) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let router = app(Arc::new(AppState::new(Config::development(TENANT))));
    tokio::spawn(openapi_crates_runtime::serve(listener, router, options));
    address
}

async fn start() -> SocketAddr {
    start_with(ServeOptions::default()).await
}

fn token(client_id: &str, scopes: &[&str]) -> String {
    let scopes: Vec<String> = scopes.iter().map(|scope| scope.to_string()).collect();
    TokenIssuer::new(TENANT, DEVELOPMENT_KEY).issue(client_id, &scopes, Duration::from_secs(600))
}

fn global_token() -> String {
    token(
        "dev-global",
        &[
            "create:token_exchange_profiles",
            "create:event_streams",
            "read:user_attribute_profiles",
        ],
    )
}

/// One response as read off the wire.
#[derive(Debug)]
struct Reply {
    status: u16,
    head: String,
    body: Value,
    raw_body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name).then(|| value.trim())
        })
    }

    fn message(&self) -> &str {
        self.body["message"].as_str().unwrap_or_default()
    }

    /// The status, `errorCode` and message, checking the body is the API's
    /// JSON error body.
    fn error(&self) -> (u16, &str, &str) {
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "{self:?}"
        );
        assert_eq!(self.body["statusCode"], self.status, "{self:?}");
        (
            self.status,
            self.body["errorCode"].as_str().unwrap_or_default(),
            self.message(),
        )
    }
}

/// Parses the responses in `bytes`, in order.
fn replies(bytes: &[u8]) -> Vec<Reply> {
    let mut replies = Vec::new();
    let mut rest = bytes;
    while let Some(end) = rest.windows(4).position(|window| window == b"\r\n\r\n") {
        let head = String::from_utf8_lossy(&rest[..end]).into_owned();
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0);
        let mut reply = Reply {
            status,
            head,
            body: Value::Null,
            raw_body: String::new(),
        };
        let length: usize = reply
            .header("content-length")
            .and_then(|length| length.parse().ok())
            .unwrap_or(0);
        let body = &rest[end + 4..(end + 4 + length).min(rest.len())];
        reply.raw_body = String::from_utf8_lossy(body).into_owned();
        reply.body = serde_json::from_slice(body).unwrap_or(Value::Null);
        rest = &rest[end + 4 + body.len()..];
        replies.push(reply);
    }
    replies
}

/// Sends `request` (the whole of it, or its first `send` bytes) and reads
/// until the server closes the connection or `expected` responses are in.
async fn exchange(address: SocketAddr, request: &[u8], expected: usize) -> Vec<Reply> {
    let mut stream = TcpStream::connect(address).await.unwrap();
    let (mut reader, mut writer) = stream.split();
    let mut received = Vec::new();
    let write = async {
        // The server may answer and close before it has read everything.
        let _ = writer.write_all(request).await;
        let _ = writer.flush().await;
    };
    let read = async {
        let mut buffer = [0u8; 16 * 1024];
        loop {
            match reader.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(read) => received.extend_from_slice(&buffer[..read]),
            }
            if replies(&received).len() >= expected && complete(&received, expected) {
                break;
            }
        }
    };
    tokio::time::timeout(PATIENCE, async { tokio::join!(write, read) })
        .await
        .expect("the server answers in time");
    replies(&received)
}

/// Whether the `expected`-th response's body is all in.
fn complete(bytes: &[u8], expected: usize) -> bool {
    let replies = replies(bytes);
    replies.len() >= expected
        && replies[..expected].iter().all(|reply| {
            let length: usize = reply
                .header("content-length")
                .and_then(|length| length.parse().ok())
                .unwrap_or(0);
            reply.raw_body.len() >= length
        })
}

async fn one(address: SocketAddr, request: &[u8]) -> Reply {
    exchange(address, request, 1)
        .await
        .into_iter()
        .next()
        .expect("a response")
}

/// An HTTP/1.1 request closing the connection after it.
fn request(method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut request =
        format!("{method} {path} HTTP/1.1\r\nHost: {TENANT}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        request.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    request.push_str("\r\n");
    let mut bytes = request.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

fn post(path: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let bearer = format!("Bearer {}", global_token());
    request(
        "POST",
        path,
        &[("Authorization", &bearer), ("Content-Type", content_type)],
        body,
    )
}

/// The server still serves an ordinary request.
async fn still_answers(address: SocketAddr) {
    let bearer = format!("Bearer {}", global_token());
    let reply = one(
        address,
        &request("GET", TEMPLATE, &[("Authorization", &bearer)], b""),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["id"], "uapt_workforce");
}

fn profile_json(subject_token_type: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "name": "Partner tokens",
        "subject_token_type": subject_token_type,
        "action_id": "act_token_exchange",
        "type": "custom_authentication",
    }))
    .unwrap()
}

#[tokio::test]
async fn a_form_field_that_is_not_utf8_is_refused_by_name() {
    let address = start().await;
    let form = b"name=caf%E9&subject_token_type=urn%3Aacme%3Aa&action_id=act_token_exchange\
                 &type=custom_authentication";
    let reply = one(
        address,
        &post(PROFILES, "application/x-www-form-urlencoded", form),
    )
    .await;
    assert_eq!(
        reply.error(),
        (
            400,
            "invalid_body",
            "Invalid form body: `name` is not valid UTF-8"
        )
    );
    // The same bytes in JSON are refused too.
    let mut json_body = profile_json("urn:acme:a");
    let at = json_body.windows(5).position(|w| w == b"Partn").unwrap();
    json_body[at] = 0xE9;
    let reply = one(address, &post(PROFILES, "application/json", &json_body)).await;
    assert_eq!(reply.error().0, 400);
    still_answers(address).await;
}

#[tokio::test]
async fn two_authorization_headers_are_refused_not_served_with_the_first() {
    let address = start().await;
    let good = format!("Bearer {}", global_token());
    for pair in [
        [good.as_str(), "Bearer forged"],
        ["Bearer forged", good.as_str()],
    ] {
        let reply = one(
            address,
            &request(
                "GET",
                TEMPLATE,
                &[("Authorization", pair[0]), ("Authorization", pair[1])],
                b"",
            ),
        )
        .await;
        assert_eq!(
            reply.error(),
            (
                400,
                "invalid_request",
                "The request carries more than one Authorization header; send exactly one"
            )
        );
        assert!(!reply.raw_body.contains("forged"), "{reply:?}");
    }
    still_answers(address).await;
}

#[tokio::test]
async fn json_in_another_encoding_than_utf8_is_named() {
    let address = start().await;
    let utf8 = profile_json("urn:acme:encoded");
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(&utf8);
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(utf8.iter().flat_map(|byte| [*byte, 0]));
    let bare_utf16: Vec<u8> = utf8.iter().flat_map(|byte| [*byte, 0]).collect();
    for (body, found) in [
        (bom, "without a byte order mark; found the UTF-8 one"),
        (utf16, "found UTF-16 with a byte order mark"),
        (bare_utf16, "found UTF-16 or UTF-32"),
    ] {
        let reply = one(address, &post(PROFILES, "application/json", &body)).await;
        assert_eq!(
            reply.error(),
            (
                400,
                "invalid_body",
                format!("Invalid JSON body: the body must be UTF-8 JSON ({found})").as_str()
            )
        );
    }
    still_answers(address).await;
}

#[tokio::test]
async fn long_targets_and_header_floods_get_json_414_and_431() {
    let address = start().await;
    let bearer = format!("Bearer {}", global_token());
    let long = format!("{TEMPLATE}?q={}", "a".repeat(10_000));
    let reply = one(
        address,
        &request("GET", &long, &[("Authorization", &bearer)], b""),
    )
    .await;
    assert_eq!(reply.error().0, 414);
    assert_eq!(reply.error().1, "uri_too_long");
    assert!(reply.message().contains("at most 8192"), "{reply:?}");

    let names: Vec<String> = (0..150).map(|index| format!("X-Flood-{index}")).collect();
    let mut flood: Vec<(&str, &str)> = names.iter().map(|name| (name.as_str(), "1")).collect();
    flood.push(("Authorization", &bearer));
    let reply = one(address, &request("GET", TEMPLATE, &flood, b"")).await;
    assert_eq!(
        reply.error(),
        (
            431,
            "headers_too_large",
            "The request has 153 headers; the server reads at most 100"
        )
    );

    let big = "v".repeat(40 * 1024);
    let reply = one(
        address,
        &request(
            "GET",
            TEMPLATE,
            &[("Authorization", &bearer), ("X-Big", &big)],
            b"",
        ),
    )
    .await;
    assert_eq!(reply.error().0, 431);
    assert!(reply.message().contains("at most 32768"), "{reply:?}");

    // Past the HTTP layer's own limit, hyper answers before any router can,
    // with an empty body (documented in the runtime's `serve`).
    let names: Vec<String> = (0..1_100).map(|index| format!("X-F-{index}")).collect();
    let flood: Vec<(&str, &str)> = names.iter().map(|name| (name.as_str(), "1")).collect();
    let reply = one(address, &request("GET", TEMPLATE, &flood, b"")).await;
    assert_eq!((reply.status, reply.raw_body.as_str()), (431, ""));
    still_answers(address).await;
}

fn short_timeouts() -> ServeOptions {
    ServeOptions::default()
        .header_timeout(Duration::from_secs(1))
        .request_timeout(Duration::from_secs(2))
}

/// Sends `bytes` one a second on a new connection; returns what the server
/// answered and how long it kept the connection.
async fn trickle(address: SocketAddr, bytes: &[u8]) -> (Vec<u8>, Duration) {
    let started = Instant::now();
    trickle_on(TcpStream::connect(address).await.unwrap(), bytes, started).await
}

#[tokio::test]
async fn a_client_sending_its_headers_a_byte_a_second_is_cut_off() {
    let address = start_with(short_timeouts()).await;
    let head = request("GET", TEMPLATE, &[("X-Slow", "yes")], b"");
    let (received, held) = trickle(address, &head).await;
    assert!(
        received.is_empty(),
        "{}",
        String::from_utf8_lossy(&received)
    );
    assert!(held < Duration::from_secs(4), "held for {held:?}");
    still_answers(address).await;
}

#[tokio::test]
async fn a_client_sending_its_body_a_byte_a_second_gets_408() {
    let address = start_with(short_timeouts()).await;
    let body = profile_json("urn:acme:slow");
    let whole = post(PROFILES, "application/json", &body);
    let head_length = whole.len() - body.len();
    let started = Instant::now();
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(&whole[..head_length]).await.unwrap();
    let (received, held) = trickle_on(stream, &body, started).await;
    let reply = replies(&received).into_iter().next().expect("a 408");
    assert_eq!(
        reply.error(),
        (
            408,
            "request_timeout",
            "The request was not received and answered within 2 s"
        )
    );
    assert!(held < Duration::from_secs(5), "held for {held:?}");
    still_answers(address).await;
}

/// Sends `bytes` one a second on `stream`, opened at `started`.
async fn trickle_on(mut stream: TcpStream, bytes: &[u8], started: Instant) -> (Vec<u8>, Duration) {
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    for byte in bytes {
        tokio::select! {
            read = stream.read(&mut buffer) => match read {
                Ok(0) | Err(_) => return (received, started.elapsed()),
                Ok(read) => received.extend_from_slice(&buffer[..read]),
            },
            () = tokio::time::sleep(Duration::from_secs(1)) => {
                if stream.write_all(std::slice::from_ref(byte)).await.is_err() {
                    break;
                }
            }
        }
        assert!(started.elapsed() < PATIENCE, "never cut off");
    }
    let _ = tokio::time::timeout(PATIENCE, stream.read_to_end(&mut received)).await;
    (received, started.elapsed())
}

#[tokio::test]
async fn an_idle_connection_is_closed_after_the_header_timeout() {
    let address = start_with(short_timeouts()).await;
    let started = Instant::now();
    let mut idle = TcpStream::connect(address).await.unwrap();
    let mut buffer = Vec::new();
    let read = tokio::time::timeout(PATIENCE, idle.read_to_end(&mut buffer)).await;
    assert!(read.is_ok(), "still open after {PATIENCE:?}");
    assert!(started.elapsed() < Duration::from_secs(4));
}

#[tokio::test]
async fn connections_past_the_limit_are_closed_and_served_again_once_others_close() {
    let address = start_with(ServeOptions::default().max_connections(4)).await;
    let mut open = Vec::new();
    for _ in 0..4 {
        open.push(TcpStream::connect(address).await.unwrap());
    }
    // The four are accepted: each gets its answer.
    let bearer = format!("Bearer {}", global_token());
    let ask = request("GET", TEMPLATE, &[("Authorization", &bearer)], b"");
    let ask_again = String::from_utf8(ask.clone())
        .unwrap()
        .replace("Connection: close\r\n", "");
    for stream in &mut open {
        stream.write_all(ask_again.as_bytes()).await.unwrap();
        let mut buffer = [0u8; 64];
        let read = tokio::time::timeout(PATIENCE, stream.read(&mut buffer))
            .await
            .unwrap()
            .unwrap();
        assert!(buffer[..read].starts_with(b"HTTP/1.1 200"));
    }
    for _ in 0..3 {
        let mut extra = TcpStream::connect(address).await.unwrap();
        let _ = extra.write_all(&ask).await;
        let mut buffer = Vec::new();
        let read = tokio::time::timeout(PATIENCE, extra.read_to_end(&mut buffer))
            .await
            .expect("closed at once");
        assert!(
            read.is_err() || buffer.is_empty(),
            "{}",
            String::from_utf8_lossy(&buffer)
        );
    }
    drop(open);
    // The slots come back as the server notices the closes.
    let deadline = Instant::now() + PATIENCE;
    loop {
        let replies = exchange(address, &ask, 1).await;
        if replies.first().is_some_and(|reply| reply.status == 200) {
            break;
        }
        assert!(Instant::now() < deadline, "never served again");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A token signed with the tenant's key carrying `claims` over the valid
/// ones of a global client.
fn token_with(claims: Value) -> String {
    let now = chrono::Utc::now().timestamp();
    let mut all = json!({
        "iss": format!("https://{TENANT}/"),
        "sub": "dev-global@clients",
        "aud": format!("https://{TENANT}/api/v2/"),
        "iat": now,
        "exp": now + 600,
        "scope": "create:token_exchange_profiles create:event_streams read:user_attribute_profiles read:actions read:guardian_factors",
        "azp": "dev-global",
        "gty": "client-credentials",
    });
    for (claim, value) in claims.as_object().unwrap() {
        all[claim] = value.clone();
    }
    TokenIssuer::new(TENANT, DEVELOPMENT_KEY).sign(&all)
}

/// Every operation of the API, as raw requests with `token`.
fn every_operation(token: &str) -> Vec<Vec<u8>> {
    let bearer = format!("Bearer {token}");
    let auth = [("Authorization", bearer.as_str())];
    let with_body = [
        ("Authorization", bearer.as_str()),
        ("Content-Type", "application/json"),
    ];
    vec![
        request("GET", TEMPLATE, &auth, b""),
        request("GET", "/api/v2/actions/modules/mod_1", &auth, b""),
        request(
            "GET",
            "/api/v2/guardian/factors/push-notification/providers/apns",
            &auth,
            b"",
        ),
        request("POST", PROFILES, &with_body, &profile_json("urn:acme:azp")),
        request(
            "POST",
            "/api/v2/event-streams",
            &with_body,
            br#"{"destination":{"type":"action","configuration":{"action_id":"act_post_login"}}}"#,
        ),
    ]
}

#[tokio::test]
async fn tokens_are_refused_each_with_its_own_reason() {
    let address = start().await;
    let now = chrono::Utc::now().timestamp();
    let header_and_claims = |header: &str| {
        let encode = |text: &str| -> String {
            const ALPHABET: &[u8] =
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
            let mut out = String::new();
            for chunk in text.as_bytes().chunks(3) {
                let mut bits = 0u32;
                for (index, byte) in chunk.iter().enumerate() {
                    bits |= u32::from(*byte) << (16 - 8 * index);
                }
                for index in 0..=chunk.len() {
                    out.push(ALPHABET[((bits >> (18 - 6 * index)) & 63) as usize] as char);
                }
            }
            out
        };
        let signed = token_with(json!({}));
        let claims = signed.split('.').nth(1).unwrap().to_string();
        format!(
            "{}.{claims}.{}",
            encode(header),
            signed.split('.').nth(2).unwrap()
        )
    };
    let cases = [
        (
            token_with(json!({"nbf": now + 3600})),
            "Invalid token: not valid yet (its nbf is in the future)",
        ),
        (
            header_and_claims(r#"{"alg":"none","typ":"JWT"}"#),
            "Invalid token: unsigned tokens (alg none) are not accepted; tokens are signed with HS256",
        ),
        (
            header_and_claims(r#"{"alg":"HS512","typ":"JWT"}"#),
            "Invalid token: signed with HS512; tokens are signed with HS256",
        ),
        (
            token_with(json!({"aud": [format!("https://{TENANT}/api/v2/")]})),
            "Invalid token: `aud` is a list; tokens carry one audience, this API's URL, as a string",
        ),
        (
            token_with(json!({"azp": "ghost", "sub": "ghost@clients"})),
            "Invalid token: it was issued to a client this tenant does not know",
        ),
    ];
    for (token, message) in cases {
        for operation in every_operation(&token) {
            let reply = one(address, &operation).await;
            assert_eq!(
                reply.error(),
                (401, "invalid_token", message),
                "{}",
                String::from_utf8_lossy(&operation)
            );
        }
    }
    // The same operations with a good token are served.
    for operation in every_operation(&token_with(json!({}))) {
        let reply = one(address, &operation).await;
        assert!(
            [200, 201, 404].contains(&reply.status),
            "{reply:?} for {}",
            String::from_utf8_lossy(&operation)
        );
    }
}

fn token_request(content_type: &str, body: &[u8]) -> Vec<u8> {
    request(
        "POST",
        "/oauth/token",
        &[("Content-Type", content_type)],
        body,
    )
}

#[tokio::test]
async fn the_token_endpoint_never_echoes_a_secret_and_answers_in_json() {
    let address = start().await;
    let audience = format!("https://{TENANT}/api/v2/");
    let numeric_secret = json!({
        "grant_type": "client_credentials", "client_id": "dev-global",
        "client_secret": 987_654_321, "audience": audience,
    });
    let reply = one(
        address,
        &token_request("application/json", numeric_secret.to_string().as_bytes()),
    )
    .await;
    assert_eq!(reply.status, 400);
    assert_eq!(reply.body["error"], "invalid_request");
    assert_eq!(
        reply.body["error_description"],
        "`client_secret` must be a string"
    );
    assert!(!reply.raw_body.contains("987654321"), "{reply:?}");

    let wrong = format!(
        "grant_type=client_credentials&client_id=dev-global&client_secret=s3cr3t-guess&audience={audience}"
    );
    let reply = one(
        address,
        &token_request("application/x-www-form-urlencoded", wrong.as_bytes()),
    )
    .await;
    assert_eq!(reply.status, 401);
    assert!(!reply.raw_body.contains("s3cr3t-guess"), "{reply:?}");

    let twice = format!(
        "grant_type=client_credentials&client_id=dev-global&client_secret=a1&client_secret=dev-global-secret&audience={audience}"
    );
    let reply = one(
        address,
        &token_request("application/x-www-form-urlencoded", twice.as_bytes()),
    )
    .await;
    assert_eq!(reply.status, 400);
    assert!(!reply.raw_body.contains("dev-global-secret"), "{reply:?}");

    // A body past the limit: declared, its start sent.
    let mut huge = format!(
        "POST /oauth/token HTTP/1.1\r\nHost: {TENANT}\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        4 * 1024 * 1024
    )
    .into_bytes();
    huge.extend(std::iter::repeat_n(b'a', 64 * 1024));
    let reply = one(address, &huge).await;
    assert_eq!(reply.status, 413, "{reply:?}");
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.body["error"], "invalid_request");
    still_answers(address).await;
}

#[tokio::test]
async fn a_scope_the_client_was_not_granted_is_refused_not_dropped() {
    let address = start().await;
    let audience = format!("https://{TENANT}/api/v2/");
    let ask = |scope: &str| {
        format!(
            "grant_type=client_credentials&client_id=dev-reader&client_secret=dev-reader-secret\
             &audience={audience}&scope={scope}"
        )
    };
    let reply = one(
        address,
        &token_request(
            "application/x-www-form-urlencoded",
            ask("read:actions+create:event_streams").as_bytes(),
        ),
    )
    .await;
    assert_eq!(reply.status, 403, "{reply:?}");
    assert_eq!(reply.body["error"], "access_denied");
    assert_eq!(
        reply.body["error_description"],
        "Client has not been granted scopes: create:event_streams"
    );
    let reply = one(
        address,
        &token_request(
            "application/x-www-form-urlencoded",
            ask("read:actions").as_bytes(),
        ),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["scope"], "read:actions");
}

fn stream_to(endpoint: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "destination": {"type": "webhook", "configuration": {
            "webhook_endpoint": endpoint,
            "webhook_authorization": {"method": "bearer", "token": "bearer-secret-1"}
        }}
    }))
    .unwrap()
}

#[tokio::test]
async fn a_webhook_endpoint_must_name_a_host() {
    let address = start().await;
    for endpoint in [
        "https://",
        "https:///events",
        "https://?x=1",
        "https://hook:pw-secret-9@hooks.example.com/events",
        "https://hooks.example.com/a b",
        "http://hooks.example.com/events",
    ] {
        let reply = one(
            address,
            &post(
                "/api/v2/event-streams",
                "application/json",
                &stream_to(endpoint),
            ),
        )
        .await;
        assert_eq!(reply.error().0, 400, "{endpoint}: {reply:?}");
        assert_eq!(
            reply.body["errors"][0]["pointer"], "/destination/configuration/webhook_endpoint",
            "{endpoint}"
        );
        assert_eq!(reply.body["errors"][0]["code"], "pattern", "{endpoint}");
        for secret in ["pw-secret-9", "bearer-secret-1"] {
            assert!(!reply.raw_body.contains(secret), "{reply:?}");
        }
    }
    for endpoint in [
        "https://hooks.example.com",
        "https://hooks.example.com:8443/events?tenant=a#x",
        "https://[::1]:9000/h",
    ] {
        let reply = one(
            address,
            &post(
                "/api/v2/event-streams",
                "application/json",
                &stream_to(endpoint),
            ),
        )
        .await;
        assert_eq!(reply.status, 201, "{endpoint}: {reply:?}");
        assert_eq!(
            reply.body["destination"]["configuration"]["webhook_endpoint"],
            endpoint
        );
        assert!(!reply.raw_body.contains("bearer-secret-1"), "{reply:?}");
    }
}

/// A request declaring a `length`-byte body of which only the first 64 KiB
/// (past the router's limit) are sent.
fn declared_body(path: &str, length: usize) -> Vec<u8> {
    let bearer = format!("Bearer {}", global_token());
    let mut bytes = format!(
        "POST {path} HTTP/1.1\r\nHost: {TENANT}\r\nConnection: close\r\n\
         Authorization: {bearer}\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\n\r\n"
    )
    .into_bytes();
    bytes.push(b'[');
    bytes.extend(std::iter::repeat_n(b' ', 96 * 1024));
    bytes
}

#[tokio::test]
async fn bodies_from_one_to_a_hundred_mebibytes_get_json_413() {
    let address = start().await;
    for length in [1 << 20, 10 << 20, 100 << 20] {
        let reply = one(address, &declared_body(PROFILES, length)).await;
        assert_eq!(reply.error().0, 413, "{length}: {reply:?}");
        assert_eq!(reply.error().1, "invalid_body");
        assert!(reply.message().contains("length limit"), "{reply:?}");
    }
    still_answers(address).await;
}

#[tokio::test]
async fn hostile_json_gets_a_named_400() {
    let address = start().await;
    let deep = format!(
        r#"{{"name":{}1{}}}"#,
        "[".repeat(20_000),
        "]".repeat(20_000)
    );
    let huge_number = br#"{"name":1e999,"subject_token_type":"urn:x:n","action_id":"act_token_exchange","type":"custom_authentication"}"#;
    let not_json = b"{\"name\": \"abc\", oops}";
    for (body, expected) in [
        (
            deep.as_bytes(),
            "Invalid JSON body: recursion limit exceeded at line 1 column 135",
        ),
        (
            &huge_number[..],
            "Invalid JSON body: number out of range at line 1 column 13",
        ),
        (
            &not_json[..],
            "Invalid JSON body: key must be a string at line 1 column 17",
        ),
    ] {
        let reply = one(address, &post(PROFILES, "application/json", body)).await;
        assert_eq!(reply.error(), (400, "invalid_body", expected), "{reply:?}");
    }
    // A repeated key is read as serde_json reads it (documented in the
    // runtime's `json` module): its last value counts, once.
    let twice = br#"{"name":"abc","subject_token_type":"urn:x:first","subject_token_type":"urn:x:second","action_id":"act_token_exchange","type":"custom_authentication"}"#;
    let reply = one(address, &post(PROFILES, "application/json", twice)).await;
    assert_eq!(reply.status, 201, "{reply:?}");
    assert_eq!(reply.body["subject_token_type"], "urn:x:second");
    still_answers(address).await;
}

#[tokio::test]
async fn a_query_flood_within_the_limit_is_served_and_past_it_refused() {
    let address = start().await;
    let bearer = format!("Bearer {}", global_token());
    let flood: String = (0..2_000).map(|index| format!("p{index}=1&")).collect();
    let within = format!("{TEMPLATE}?{}", &flood[..8_000]);
    let reply = one(
        address,
        &request("GET", &within, &[("Authorization", &bearer)], b""),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let past = format!("{TEMPLATE}?{flood}");
    let reply = one(
        address,
        &request("GET", &past, &[("Authorization", &bearer)], b""),
    )
    .await;
    assert_eq!(reply.error().1, "uri_too_long");
    still_answers(address).await;
}

#[tokio::test]
async fn pipelined_requests_are_answered_in_order() {
    let address = start().await;
    let bearer = format!("Bearer {}", global_token());
    let keep = |path: &str| {
        format!("GET {path} HTTP/1.1\r\nHost: {TENANT}\r\nAuthorization: {bearer}\r\n\r\n")
    };
    let mut pipelined = String::new();
    for path in [TEMPLATE, "/api/v2/nowhere", TEMPLATE] {
        pipelined.push_str(&keep(path));
    }
    pipelined.push_str(
        &String::from_utf8(request(
            "GET",
            "/api/v2/user-attribute-profiles/templates/none",
            &[("Authorization", &bearer)],
            b"",
        ))
        .unwrap(),
    );
    let replies = exchange(address, pipelined.as_bytes(), 4).await;
    let statuses: Vec<u16> = replies.iter().map(|reply| reply.status).collect();
    assert_eq!(statuses, [200, 404, 200, 404]);
    assert_eq!(replies[1].error().1, "not_found");
    still_answers(address).await;
}
