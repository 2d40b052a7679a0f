//! Per-client rate limiting: a fixed window of `requests` per `window`,
//! answered with 429 and the `X-RateLimit-*` headers the spec documents.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use tenant_api_server::responses;

use crate::AppState;
use crate::service::error_body;

/// How many requests a client may make per window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    pub requests: u32,
    pub window: Duration,
}

/// The state of every client's current window.
pub struct RateLimiter {
    limit: RateLimit,
    windows: Mutex<HashMap<String, Window>>,
}

#[derive(Clone, Copy)]
struct Window {
    /// Unix seconds at which the window ends.
    reset: i64,
    used: u32,
}

/// A request refused by the limiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limited {
    pub limit: u32,
    /// Unix seconds at which the client may call again.
    pub reset: i64,
}

impl RateLimiter {
    pub fn new(limit: RateLimit) -> Self {
        Self {
            limit,
            windows: Mutex::default(),
        }
    }

    /// Counts a request of `client` at `now` (Unix seconds), or refuses it.
    pub fn check(&self, client: &str, now: i64) -> Result<u32, Limited> {
        let window_seconds = i64::try_from(self.limit.window.as_secs().max(1)).unwrap_or(i64::MAX);
        let mut windows = self.windows.lock().expect("rate limiter lock");
        let window = windows.entry(client.to_string()).or_insert(Window {
            reset: now + window_seconds,
            used: 0,
        });
        if now >= window.reset {
            *window = Window {
                reset: now + window_seconds,
                used: 0,
            };
        }
        if window.used >= self.limit.requests {
            return Err(Limited {
                limit: self.limit.requests,
                reset: window.reset,
            });
        }
        window.used += 1;
        Ok(self.limit.requests - window.used)
    }
}

/// Middleware in front of the API routes. Requests without a valid token
/// pass through untouched: the router answers them with 401.
pub async fn enforce(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let Some(limiter) = &state.rate_limiter else {
        return next.run(request).await;
    };
    // The router's own parser, so every spelling it accepts is limited too.
    let client = openapi_crates_runtime::bearer_token(request.headers())
        .ok()
        .and_then(|token| state.issuer.verify(token).ok())
        .map(|claims| claims.azp);
    let Some(client) = client else {
        return next.run(request).await;
    };
    match limiter.check(&client, chrono::Utc::now().timestamp()) {
        Ok(_) => next.run(request).await,
        Err(limited) => too_many_requests(limited),
    }
}

/// The spec's shared 429 response, built by the generated type so the
/// headers are exactly the ones the spec documents.
fn too_many_requests(limited: Limited) -> Response {
    responses::TooManyRequests {
        body: error_body(
            StatusCode::TOO_MANY_REQUESTS,
            "Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.",
            "too_many_requests",
        ),
        x_rate_limit_limit: i64::from(limited.limit),
        x_rate_limit_remaining: 0,
        x_rate_limit_reset: limited.reset,
    }
    .into_response_with(StatusCode::TOO_MANY_REQUESTS)
}
