//! WebSocket connections: an operation answering `101 Switching Protocols`
//! hands its request's connection over to the WebSocket protocol (RFC 6455).
//!
//! The client (`client`) asks for the upgrade with the opening
//! handshake's headers, checks the server's answer and returns the
//! connection as tokio-tungstenite's `WebSocketStream`. The server
//! (`server`) gives the operation's method axum's `WebSocketUpgrade`, once
//! the router has checked the request's parameters and credentials as for
//! any operation. Both sides speak through the same library (axum's `ws`
//! is built on tokio-tungstenite), each with its own `Message` type.

/// The client's side: [`client::Handshake`] and the [`client::WebSocket`]
/// it opens.
#[cfg(feature = "client")]
pub mod client {
    use reqwest::header::{self, HeaderValue};
    use tokio_tungstenite::WebSocketStream;
    use tokio_tungstenite::tungstenite::handshake::client::generate_key;
    use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
    use tokio_tungstenite::tungstenite::protocol::Role;

    pub use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
    pub use tokio_tungstenite::tungstenite::{Bytes, Error, Message, Utf8Bytes};

    /// The connection an operation's `101` switched to: a `Stream` of
    /// received [`Message`]s and a `Sink` of those to send (split it with
    /// `futures_util::StreamExt::split` to read and write from two tasks).
    pub type WebSocket = WebSocketStream<reqwest::Upgraded>;

    /// The client's half of the opening handshake (RFC 6455, section 4.1):
    /// the key it sent, which the server's `Sec-WebSocket-Accept` must
    /// answer.
    #[derive(Debug)]
    pub struct Handshake {
        key: String,
    }

    impl Handshake {
        /// Asks `request` to switch to the WebSocket protocol: `Connection:
        /// Upgrade`, `Upgrade: websocket`, version 13 and a fresh random key.
        pub fn ask(request: &mut reqwest::Request) -> Self {
            let key = generate_key();
            let headers = request.headers_mut();
            headers.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
            headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
            headers.insert(
                header::SEC_WEBSOCKET_VERSION,
                HeaderValue::from_static("13"),
            );
            headers.insert(
                header::SEC_WEBSOCKET_KEY,
                HeaderValue::from_str(&key).expect("a base64 key is a header value"),
            );
            Self { key }
        }

        /// Opens the connection `response` (a `101`) switched to, after
        /// checking that the server answered this handshake: a server that
        /// does not speak WebSocket, or answers another request's key, is
        /// refused before a frame is read or written.
        pub async fn open(self, response: reqwest::Response) -> Result<WebSocket, String> {
            self.open_with(response, None).await
        }

        /// [`Self::open`] with tungstenite's settings (the largest message
        /// or frame accepted, the write buffer).
        pub async fn open_with(
            self,
            response: reqwest::Response,
            config: Option<WebSocketConfig>,
        ) -> Result<WebSocket, String> {
            self.check(response.headers())?;
            let upgraded = response
                .upgrade()
                .await
                .map_err(|err| format!("the connection could not be upgraded: {err}"))?;
            Ok(WebSocketStream::from_raw_socket(upgraded, Role::Client, config).await)
        }

        /// Whether `headers` (of a `101`) accept this handshake.
        fn check(&self, headers: &reqwest::header::HeaderMap) -> Result<(), String> {
            let says = |name: header::HeaderName, token: &str| {
                headers.get_all(name).iter().any(|value| {
                    value.to_str().is_ok_and(|value| {
                        value
                            .split(',')
                            .any(|item| item.trim().eq_ignore_ascii_case(token))
                    })
                })
            };
            if !says(header::UPGRADE, "websocket") {
                return Err("the server switched to a protocol other than WebSocket \
                            (its `Upgrade` header does not say `websocket`)"
                    .to_string());
            }
            if !says(header::CONNECTION, "upgrade") {
                return Err("the server's `Connection` header does not say `Upgrade`".to_string());
            }
            let expected = derive_accept_key(self.key.as_bytes());
            match headers.get(header::SEC_WEBSOCKET_ACCEPT) {
                Some(accept) if accept.as_bytes() == expected.as_bytes() => Ok(()),
                Some(_) => Err(
                    "the server's `Sec-WebSocket-Accept` does not answer the request's key"
                        .to_string(),
                ),
                None => Err("the server's answer has no `Sec-WebSocket-Accept`".to_string()),
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn request() -> reqwest::Request {
            reqwest::Request::new(
                reqwest::Method::GET,
                "http://localhost/socket".parse().unwrap(),
            )
        }

        fn answer(accept: &str) -> reqwest::header::HeaderMap {
            let mut headers = reqwest::header::HeaderMap::new();
            headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
            headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
            headers.insert(
                header::SEC_WEBSOCKET_ACCEPT,
                HeaderValue::from_str(accept).unwrap(),
            );
            headers
        }

        #[test]
        fn the_request_asks_for_websocket_with_a_fresh_key() {
            let (mut first, mut second) = (request(), request());
            let (one, two) = (Handshake::ask(&mut first), Handshake::ask(&mut second));
            assert_eq!(first.headers()[header::UPGRADE], "websocket");
            assert_eq!(first.headers()[header::CONNECTION], "Upgrade");
            assert_eq!(first.headers()[header::SEC_WEBSOCKET_VERSION], "13");
            assert_eq!(first.headers()[header::SEC_WEBSOCKET_KEY], one.key.as_str());
            assert_ne!(one.key, two.key);
        }

        #[test]
        fn only_the_answer_to_this_key_is_accepted() {
            // RFC 6455's own example: this key is answered by this accept.
            let handshake = Handshake {
                key: "dGhlIHNhbXBsZSBub25jZQ==".to_string(),
            };
            assert_eq!(
                handshake.check(&answer("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")),
                Ok(())
            );
            let refused = handshake
                .check(&answer("x3JJHMbDL1EzLkh9GBhXDw=="))
                .unwrap_err();
            assert!(refused.contains("does not answer"), "{refused}");
            let mut other_protocol = answer("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
            other_protocol.insert(header::UPGRADE, HeaderValue::from_static("h2c"));
            assert!(handshake.check(&other_protocol).is_err());
        }
    }
}

/// The server's side: the method of an operation that upgrades receives
/// [`server::WebSocketUpgrade`] and answers with what its `on_upgrade`
/// returns.
#[cfg(feature = "server")]
pub mod server {
    use axum::response::Response;

    pub use axum::extract::ws::rejection::WebSocketUpgradeRejection;
    pub use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};

    /// The router's answer to a request for an operation that upgrades
    /// but not asking for a WebSocket (no `Upgrade: websocket`, no key, a
    /// version other than 13): axum's status (400, or 426 where the
    /// connection cannot be upgraded) with the router's error body.
    pub fn upgrade_rejected(rejection: WebSocketUpgradeRejection) -> Response {
        crate::errors::router_error_response(
            rejection.status(),
            rejection.body_text(),
            "websocket_upgrade",
        )
    }
}

/// Both sides over a socket, served by [`crate::serve`], which hands an
/// upgraded connection over to the route that upgraded it.
#[cfg(all(test, feature = "client", feature = "server"))]
mod tests {
    use futures_util::{SinkExt, StreamExt};

    use super::{client, server};

    #[tokio::test]
    async fn serve_hands_the_connection_over_and_messages_flow() {
        let echo = axum::routing::get(|upgrade: server::WebSocketUpgrade| async move {
            upgrade.on_upgrade(|mut socket| async move {
                while let Some(Ok(message)) = socket.recv().await {
                    if let server::Message::Text(text) = message {
                        let reply = format!("echo: {}", text.as_str());
                        if socket
                            .send(server::Message::Text(reply.into()))
                            .await
                            .is_err()
                        {
                            return;
                        }
                    }
                }
            })
        });
        let app = axum::Router::new().route("/socket", echo);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(crate::serve(listener, app, crate::ServeOptions::default()));

        let http = reqwest::Client::new();
        let mut request = http
            .get(format!("http://{address}/socket"))
            .build()
            .unwrap();
        let handshake = client::Handshake::ask(&mut request);
        let response = http.execute(request).await.unwrap();
        assert_eq!(response.status(), 101);
        let mut socket = handshake.open(response).await.unwrap();
        for text in ["one", "two"] {
            socket.send(client::Message::text(text)).await.unwrap();
            let reply = socket.next().await.unwrap().unwrap();
            assert_eq!(reply, client::Message::text(format!("echo: {text}")));
        }
        socket.close(None).await.unwrap();
        // The server answers the close, and the stream ends cleanly.
        while let Some(message) = socket.next().await {
            assert!(
                matches!(message, Ok(client::Message::Close(_))),
                "{message:?}"
            );
        }
    }
}
