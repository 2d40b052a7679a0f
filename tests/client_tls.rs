//! HTTPS works out of the box with the generated client's default features
//! (the platform's TLS library): a TLS server on loopback with a
//! certificate from a test CA (`fixtures/tls`: `ca.pem` signs `server.pem`
//! for `localhost`; test-only keys, never used elsewhere).

use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;
use workspace_tests::fixture;

const NOT_FOUND: &str =
    r#"{"statusCode":404,"error":"Not Found","message":"No module mod_1","errorCode":"not_found"}"#;

/// A TLS server answering every request with a 404 error body. Each
/// finished handshake is reported on the channel, each failed one too.
async fn tls_server() -> (u16, mpsc::UnboundedReceiver<Result<(), String>>) {
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_file_iter(fixture("tls/server.pem"))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
    let key = PrivateKeyDer::from_pem_file(fixture("tls/server.key")).unwrap();
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (handshakes, reports) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let acceptor = acceptor.clone();
            let handshakes = handshakes.clone();
            tokio::spawn(async move {
                let mut stream = match acceptor.accept(stream).await {
                    Ok(stream) => {
                        let _ = handshakes.send(Ok(()));
                        stream
                    }
                    Err(err) => {
                        let _ = handshakes.send(Err(err.to_string()));
                        return;
                    }
                };
                let mut request = Vec::new();
                let mut buffer = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buffer).await {
                        Ok(0) | Err(_) => return,
                        Ok(read) => request.extend_from_slice(&buffer[..read]),
                    }
                }
                let response = format!(
                    "HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{NOT_FOUND}",
                    NOT_FOUND.len()
                );
                let _ = stream.write_all(response.as_bytes()).await;
                let _ = stream.shutdown().await;
            });
        }
    });
    (port, reports)
}

/// `Client::new` with default features builds without any set-up (no
/// crypto provider installed by the caller) and speaks TLS: the handshake
/// reaches the server, which the platform verifier then refuses, since the
/// test CA is not a root of this machine.
#[tokio::test]
async fn client_new_speaks_tls_without_set_up() {
    let (port, mut handshakes) = tls_server().await;
    let client = tenant_api_client::Client::new(
        &format!("https://localhost:{port}/api/v2"),
        tenant_api_client::Hooks::default(),
    );
    let error = client
        .get_action_module()
        .id("mod_1")
        .send()
        .await
        .unwrap_err();
    let mut chain = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        chain.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    assert!(
        chain.contains("certificate") || chain.contains("Certificate"),
        "expected a certificate error, got {chain}"
    );
    let server_side = handshakes.recv().await.unwrap();
    assert!(server_side.is_err(), "the client refused the unknown CA");
}

/// With the test CA trusted, a request goes through over TLS and the
/// generated client reads the answer.
#[tokio::test]
async fn requests_go_through_over_tls_with_a_trusted_root() {
    let (port, mut handshakes) = tls_server().await;
    let root =
        reqwest::Certificate::from_pem(&std::fs::read(fixture("tls/ca.pem")).unwrap()).unwrap();
    let http = workspace_tests::http_builder()
        .add_root_certificate(root)
        .build()
        .unwrap();
    let client = tenant_api_client::Client::new_with_client(
        &format!("https://localhost:{port}/api/v2"),
        http,
        tenant_api_client::Hooks::default(),
    );
    let error = client
        .get_action_module()
        .id("mod_1")
        .send()
        .await
        .unwrap_err();
    match error {
        tenant_api_client::Error::ErrorResponse(response) => {
            assert_eq!(response.status(), 404);
            assert_eq!(response.message, "No module mod_1");
        }
        other => panic!("expected the server's 404, got {other:?}"),
    }
    assert_eq!(handshakes.recv().await.unwrap(), Ok(()));
}
