//! The recommended way to serve a generated router: HTTP/1.1 (no HTTP/2)
//! over TCP with the limits a router cannot set by itself, since they concern
//! the connection rather than a request.
//!
//! `axum::serve` waits for a client for ever: one sending a byte a second
//! holds its connection and its task indefinitely, and any number of idle
//! connections are accepted. [`serve`] bounds each of those:
//!
//! - the request head (request line and headers) must arrive within
//!   [`ServeOptions::header_timeout`] (10 s by default), also on a kept-alive
//!   connection waiting for its next request; the connection is closed
//!   otherwise;
//! - the whole request, body included, must be received and answered within
//!   [`ServeOptions::request_timeout`] (30 s by default): the client gets 408
//!   with the platform's error body ([`crate::ErrorBody`], `errorCode`
//!   `request_timeout`; it is answered outside the router, so its
//!   `router_error` hook does not see it) and the connection closes;
//! - at most [`ServeOptions::max_connections`] connections are open at once
//!   (1,024 by default); one more is closed as soon as it is accepted, and
//!   the next is accepted once an open one closes.
//!
//! It also lets the router answer request heads past its own limits
//! ([`crate::MAX_URI_LENGTH`], [`crate::MAX_HEADERS`],
//! [`crate::MAX_HEADER_BYTES`]) with 414 and 431 through its `router_error`
//! hook, in the API's error body: the HTTP layer's limits (more than 1,024
//! headers, or about 400 KiB of head) still close the connection with an
//! empty 431 first.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::http::{HeaderValue, Request, StatusCode, header};
use axum::response::Response;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

/// How [`serve`] bounds slow and numerous clients (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServeOptions {
    /// How long the request line and headers may take to arrive, and a
    /// kept-alive connection may stay idle before its next request.
    pub header_timeout: Duration,
    /// How long a request may take, from its head to the end of the
    /// response's head: reading the body and the operation included.
    pub request_timeout: Duration,
    /// How many connections may be open at once.
    pub max_connections: usize,
}

impl Default for ServeOptions {
    fn default() -> Self {
        Self {
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_connections: 1024,
        }
    }
}

impl ServeOptions {
    pub fn header_timeout(mut self, timeout: Duration) -> Self {
        self.header_timeout = timeout;
        self
    }

    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    pub fn max_connections(mut self, connections: usize) -> Self {
        self.max_connections = connections;
        self
    }
}

/// The head limit of the HTTP layer: above the router's
/// [`crate::MAX_HEADERS`], so that the router answers in the API's body.
const HTTP_MAX_HEADERS: usize = 1024;

/// Serves `router` on `listener` with `options` until the process ends (see
/// the module docs).
pub async fn serve(
    listener: TcpListener,
    router: axum::Router,
    options: ServeOptions,
) -> std::io::Result<()> {
    serve_with_shutdown(listener, router, options, std::future::pending()).await
}

/// [`serve`] until `shutdown` completes: then no connection is accepted, each
/// open one finishes the request it is serving, and this returns once all are
/// closed.
pub async fn serve_with_shutdown(
    listener: TcpListener,
    router: axum::Router,
    options: ServeOptions,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    // Every open connection holds one slot; the limit is at most what one
    // `acquire_many` can wait for.
    let limit = options.max_connections.min(u32::MAX as usize);
    let slots = Arc::new(Semaphore::new(limit));
    let (stop, stopping) = watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(options.header_timeout)
        .max_headers(HTTP_MAX_HEADERS);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, _peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) if is_connection_error(&err) => continue,
                Err(_) => {
                    // Out of file descriptors or the like: accepting again at
                    // once would spin; a connection closing frees one.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            // Past the limit: closed at once, before anything is read, so a
            // flood of idle connections costs one accept each.
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let timeout = options.request_timeout;
        let service = hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
            let answer = tower_service::Service::call(&mut router.clone(), request);
            async move {
                Ok::<_, Infallible>(match tokio::time::timeout(timeout, answer).await {
                    Ok(Ok(response)) => response,
                    Ok(Err(never)) => match never {},
                    Err(_) => request_timed_out(timeout),
                })
            }
        });
        // With upgrades, an operation answering 101 takes the connection
        // over (a WebSocket); its slot is freed when it is handed over.
        let connection = http
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            let stopped = tokio::select! {
                _ = connection.as_mut() => false,
                stopped = stopping.wait_for(|stop| *stop) => stopped.is_ok(),
            };
            if stopped {
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            }
            drop(slot);
        });
    }
    drop(listener);
    let _ = stop.send(true);
    // Every connection holds a slot until it closes.
    let all = u32::try_from(limit).unwrap_or(u32::MAX);
    let _ = slots.acquire_many(all).await;
    Ok(())
}

/// Errors of one connection being accepted (the client gave up first), after
/// which the listener is fine.
fn is_connection_error(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}

/// The 408 for a request not received and answered in time; the connection
/// closes after it, since the rest of the body may still be on its way.
fn request_timed_out(timeout: Duration) -> Response {
    let mut response = crate::error_response(
        StatusCode::REQUEST_TIMEOUT,
        format!(
            "The request was not received and answered within {} s",
            timeout.as_secs_f64()
        ),
        "request_timeout",
    );
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
