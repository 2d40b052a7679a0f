//! Creation throughput of the reference server as its store grows: token
//! exchange profiles created over loopback HTTP/1.1 (keep-alive connections,
//! the server as the binary serves it) with about 1,000 and with 50,000
//! profiles already stored. Uniqueness is checked in an index, so the second
//! figure should be at least 0.8 of the first; a scan of the store would make
//! it fall with its size.
//!
//! `cargo bench -p tenant-reference-server --bench creation_load`
//! (bounded: 12,000 requests and 56,000 entities in memory). Each figure is
//! the median of three runs of 2,000 creates, which add to the store: the
//! first is measured between 1,000 and 7,000 stored profiles, the second
//! between 50,000 and 56,000.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use openapi_crates_runtime::ServeOptions;
use tenant_api_server::types;
use tenant_reference_server::{AppState, Config, TokenIssuer, app};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const TENANT: &str = "bench.test";
const CONNECTIONS: usize = 8;
/// Requests of one measurement; each figure is the median of three.
const REQUESTS: usize = 2_000;
const FEW: usize = 1_000;
const MANY: usize = 50_000;

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(run());
}

async fn run() {
    let state = Arc::new(AppState::new(Config {
        entity_limit: MANY + 10 * REQUESTS,
        ..Config::development(TENANT)
    }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(openapi_crates_runtime::serve(
        listener,
        app(Arc::clone(&state)),
        ServeOptions::default(),
    ));
    let token = TokenIssuer::new(TENANT, tenant_reference_server::DEVELOPMENT_KEY).issue(
        "dev-global",
        &["create:token_exchange_profiles".to_string()],
        Duration::from_secs(3600),
    );

    fill(&state, FEW);
    let few = median_rate(address, &token, "few").await;
    fill(&state, MANY);
    let many = median_rate(address, &token, "many").await;
    println!(
        "creation throughput: {few:.0} req/s with ~{FEW} profiles stored, \
         {many:.0} req/s with ~{MANY} ({:.2}x)",
        many / few
    );
    if many / few < 0.8 {
        println!("WARNING: throughput falls as the store grows (below 0.8x)");
    }
}

/// Creates profiles straight in the store until it holds `count`.
fn fill(state: &AppState, count: usize) {
    let mut index = 0;
    while stored(state) < count {
        let request: types::CreateTokenExchangeProfileRequest =
            serde_json::from_value(serde_json::json!({
                "name": "Filler",
                "subject_token_type": format!("urn:fill:{index}"),
                "action_id": "act_token_exchange",
                "type": "custom_authentication",
            }))
            .unwrap();
        let _ = state.store.create_token_exchange_profile(request);
        index += 1;
    }
}

fn stored(state: &AppState) -> usize {
    state.store.token_exchange_profiles()
}

/// Requests per second of [`REQUESTS`] creates over [`CONNECTIONS`]
/// connections, the median of three runs.
async fn median_rate(address: SocketAddr, token: &str, label: &str) -> f64 {
    let mut rates = Vec::new();
    for run in 0..3 {
        let started = Instant::now();
        let mut clients = Vec::new();
        for connection in 0..CONNECTIONS {
            let token = token.to_string();
            let prefix = format!("urn:load:{label}:{run}:{connection}");
            clients.push(tokio::spawn(async move {
                create_many(address, &token, &prefix, REQUESTS / CONNECTIONS).await
            }));
        }
        for client in clients {
            client.await.unwrap();
        }
        rates.push(REQUESTS as f64 / started.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    rates[1]
}

/// `count` creates, one after the other on one keep-alive connection.
async fn create_many(address: SocketAddr, token: &str, prefix: &str, count: usize) {
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.set_nodelay(true).unwrap();
    let mut buffer = Vec::with_capacity(4096);
    for index in 0..count {
        let body = format!(
            r#"{{"name":"Partner tokens","subject_token_type":"{prefix}:{index}","action_id":"act_token_exchange","type":"custom_authentication"}}"#
        );
        let request = format!(
            "POST /api/v2/token-exchange-profiles HTTP/1.1\r\nHost: {TENANT}\r\n\
             Authorization: Bearer {token}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let status = read_response(&mut stream, &mut buffer).await;
        assert_eq!(status, 201, "{}", String::from_utf8_lossy(&buffer));
    }
}

/// Reads one response (head and `Content-Length` body); its status.
async fn read_response(stream: &mut TcpStream, buffer: &mut Vec<u8>) -> u16 {
    buffer.clear();
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = buffer.windows(4).position(|window| window == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buffer[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|length| length.trim().parse().ok())
                .unwrap_or(0);
            if buffer.len() >= end + 4 + length {
                return head
                    .split(' ')
                    .nth(1)
                    .and_then(|code| code.parse().ok())
                    .unwrap_or(0);
            }
        }
        let read = stream.read(&mut chunk).await.unwrap();
        assert!(read > 0, "the server closed the connection");
        buffer.extend_from_slice(&chunk[..read]);
    }
}
