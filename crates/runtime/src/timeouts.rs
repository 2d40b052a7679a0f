//! The timeouts of a generated client's connections.
//!
//! A total timeout cuts a response however steadily it flows: a stream of
//! server-sent events or a large download ends when it expires. So by
//! default there is none; a connection must open within `connect`, and each
//! read of a response must come within `read` of the one before, which is
//! what tells a stalled server from a slow stream.

use std::time::Duration;

/// The timeouts a generated client's `reqwest::Client` is built with
/// (`Client::with_timeouts`; `Client::new` takes the defaults). `None`
/// sets no timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// Opening a connection (TCP, then TLS): 15 s by default, as progenitor's
    /// clients have.
    pub connect: Option<Duration>,
    /// Waiting for the next bytes of a response, its headers or its body:
    /// 60 s by default.
    pub read: Option<Duration>,
    /// The whole exchange, until the response's body is read: none by
    /// default, so streamed responses are not cut.
    pub total: Option<Duration>,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self {
            connect: Some(Duration::from_secs(15)),
            read: Some(Duration::from_secs(60)),
            total: None,
        }
    }
}

impl Timeouts {
    /// `builder` with these timeouts. On WebAssembly, where the browser's
    /// `fetch` does the connecting and reading, only `total` applies.
    pub fn apply(&self, builder: reqwest::ClientBuilder) -> reqwest::ClientBuilder {
        let mut builder = builder;
        #[cfg(not(target_arch = "wasm32"))]
        {
            if let Some(connect) = self.connect {
                builder = builder.connect_timeout(connect);
            }
            if let Some(read) = self.read {
                builder = builder.read_timeout(read);
            }
        }
        if let Some(total) = self.total {
            builder = builder.timeout(total);
        }
        builder
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server that answers at once, then sends a body in pieces `gap`
    /// apart: a stream, as far as the client can tell.
    async fn trickling_server(pieces: usize, gap: Duration) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = [0u8; 1024];
            let _ = socket.read(&mut request).await;
            let head = format!("HTTP/1.1 200 OK\r\ncontent-length: {pieces}\r\n\r\n");
            socket.write_all(head.as_bytes()).await.unwrap();
            for _ in 0..pieces {
                tokio::time::sleep(gap).await;
                if socket.write_all(b"x").await.is_err() {
                    return;
                }
            }
        });
        format!("http://{address}/")
    }

    async fn fetch(timeouts: Timeouts, url: &str) -> reqwest::Result<String> {
        let client = timeouts.apply(reqwest::ClientBuilder::new()).build()?;
        client.get(url).send().await?.text().await
    }

    #[tokio::test]
    async fn a_read_timeout_lets_a_steady_stream_outlast_it() {
        let url = trickling_server(6, Duration::from_millis(50)).await;
        let timeouts = Timeouts {
            read: Some(Duration::from_millis(200)),
            ..Timeouts::default()
        };
        assert_eq!(fetch(timeouts, &url).await.unwrap(), "xxxxxx");
    }

    #[tokio::test]
    async fn a_total_timeout_cuts_the_same_stream() {
        let url = trickling_server(6, Duration::from_millis(50)).await;
        let timeouts = Timeouts {
            total: Some(Duration::from_millis(150)),
            ..Timeouts::default()
        };
        assert!(fetch(timeouts, &url).await.unwrap_err().is_timeout());
    }

    #[tokio::test]
    async fn a_read_timeout_ends_a_stalled_response() {
        let url = trickling_server(2, Duration::from_millis(500)).await;
        let timeouts = Timeouts {
            read: Some(Duration::from_millis(100)),
            ..Timeouts::default()
        };
        assert!(fetch(timeouts, &url).await.unwrap_err().is_timeout());
    }
}
