//! When a generated client sends a request again, and how long it waits
//! first.
//!
//! A request is retried only when sending it again cannot apply it twice:
//!
//! - a connection that could not be opened: nothing reached the server;
//! - `429 Too Many Requests`: the server refused the request before
//!   processing it (RFC 6585);
//! - a `5xx`, a timeout or a connection lost mid-exchange, only for an
//!   idempotent request: one whose method is idempotent (RFC 9110 §9.2.2:
//!   `GET`, `HEAD`, `OPTIONS`, `TRACE`, `PUT`, `DELETE`), that carries an
//!   `Idempotency-Key` header (the server deduplicates it), or whose
//!   operation the description marks `x-idempotent: true`.
//!
//! A `POST` that may have been applied is never sent twice. Nor is a request
//! whose body cannot be replayed (a stream): it has one attempt.
//!
//! The wait before a retry is the server's `Retry-After` (seconds or an
//! HTTP date) or `X-RateLimit-Reset` (Unix seconds) when it gives one, else
//! an exponential backoff with jitter (backon's), and never more than
//! [`RetryPolicy::max_wait`].

use std::time::{Duration, SystemTime};

use backon::{BackoffBuilder, ExponentialBuilder};
use reqwest::header::{HeaderMap, RETRY_AFTER};
use reqwest::{Method, StatusCode};

/// The header by which a request declares itself safe to repeat.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";

/// How failed requests are retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included; 1 turns retries off.
    pub max_attempts: u32,
    /// The longest wait before one retry, whatever the server asks for.
    pub max_wait: Duration,
    /// The first backoff step when the server gives no hint; it doubles per
    /// retry, and a random jitter adds up to as much again.
    pub base_delay: Duration,
}

impl Default for RetryPolicy {
    /// Four attempts, waits from 250 ms, at most 30 s each.
    fn default() -> Self {
        Self {
            max_attempts: 4,
            max_wait: Duration::from_secs(30),
            base_delay: Duration::from_millis(250),
        }
    }
}

/// What came of one attempt, as far as retrying is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A response with this status.
    Status(StatusCode),
    /// No connection could be opened: the request never left.
    NotConnected,
    /// The request may have reached the server (a timeout, a connection
    /// closed before the response, a broken body).
    Lost,
}

impl Outcome {
    /// The outcome of a `reqwest` error.
    pub fn of_error(error: &reqwest::Error) -> Self {
        if error.is_connect() {
            Outcome::NotConnected
        } else {
            Outcome::Lost
        }
    }
}

impl RetryPolicy {
    /// Send every request once.
    pub const fn disabled() -> Self {
        Self {
            max_attempts: 1,
            max_wait: Duration::ZERO,
            base_delay: Duration::ZERO,
        }
    }

    /// Whether a request that came to `outcome` may be sent again.
    /// `idempotent` is [`is_idempotent`] of the request, or the
    /// description's word for its operation.
    pub fn is_retryable(outcome: Outcome, idempotent: bool) -> bool {
        match outcome {
            Outcome::NotConnected => true,
            Outcome::Status(StatusCode::TOO_MANY_REQUESTS) => true,
            Outcome::Status(status) => idempotent && status.is_server_error(),
            Outcome::Lost => idempotent,
        }
    }

    /// The waits before each retry when the server gives no hint, in turn;
    /// it ends when the attempts are spent.
    pub fn backoff(&self) -> impl Iterator<Item = Duration> + use<> {
        let max_wait = self.max_wait;
        ExponentialBuilder::new()
            .with_jitter()
            .with_factor(2.0)
            .with_min_delay(self.base_delay)
            .with_max_delay(max_wait)
            .with_max_times(self.max_attempts.saturating_sub(1) as usize)
            .build()
            .map(move |wait| wait.min(max_wait))
    }

    /// The wait before a retry: the server's hint in `headers` (capped at
    /// `max_wait`) when there is one, else `backoff`.
    pub fn wait(&self, headers: Option<&HeaderMap>, backoff: Duration) -> Duration {
        let hinted = headers.and_then(|headers| {
            retry_after(headers, SystemTime::now()).or_else(|| rate_limit_reset(headers, SystemTime::now()))
        });
        hinted.unwrap_or(backoff).min(self.max_wait)
    }
}

/// Whether `method` is idempotent (RFC 9110 §9.2.2) or the request carries
/// an `Idempotency-Key`.
pub fn is_idempotent(method: &Method, headers: &HeaderMap) -> bool {
    matches!(
        *method,
        Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE | Method::PUT | Method::DELETE
    ) || headers.contains_key(IDEMPOTENCY_KEY)
}

/// `Retry-After` (RFC 9110 §10.2.3): delay seconds or an HTTP date.
fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The time until `X-RateLimit-Reset` (Unix seconds), as many APIs send
/// with a 429 instead of `Retry-After`.
fn rate_limit_reset(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let reset: u64 = headers.get("x-ratelimit-reset")?.to_str().ok()?.trim().parse().ok()?;
    let reset = SystemTime::UNIX_EPOCH + Duration::from_secs(reset);
    Some(reset.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn only_what_cannot_apply_twice_is_retried() {
        let status = |code: u16| Outcome::Status(StatusCode::from_u16(code).unwrap());
        for idempotent in [true, false] {
            assert!(RetryPolicy::is_retryable(Outcome::NotConnected, idempotent));
            assert!(RetryPolicy::is_retryable(status(429), idempotent));
            assert!(!RetryPolicy::is_retryable(status(400), idempotent));
            assert!(!RetryPolicy::is_retryable(status(409), idempotent));
            assert!(!RetryPolicy::is_retryable(status(200), idempotent));
        }
        assert!(RetryPolicy::is_retryable(status(503), true));
        assert!(RetryPolicy::is_retryable(Outcome::Lost, true));
        assert!(!RetryPolicy::is_retryable(status(503), false));
        assert!(!RetryPolicy::is_retryable(Outcome::Lost, false));
    }

    #[test]
    fn idempotence_is_the_methods_or_the_requests_key() {
        let none = HeaderMap::new();
        for method in [Method::GET, Method::PUT, Method::DELETE, Method::HEAD] {
            assert!(is_idempotent(&method, &none), "{method}");
        }
        assert!(!is_idempotent(&Method::POST, &none));
        assert!(!is_idempotent(&Method::PATCH, &none));
        let keyed = headers(&[("Idempotency-Key", "8e03978e")]);
        assert!(is_idempotent(&Method::POST, &keyed));
    }

    #[test]
    fn the_servers_hint_wins_and_every_wait_is_capped() {
        let policy = RetryPolicy::default();
        let backoff = Duration::from_millis(300);
        let both = headers(&[("retry-after", "3"), ("x-ratelimit-reset", "1")]);
        assert_eq!(policy.wait(Some(&both), backoff), Duration::from_secs(3));
        let past = headers(&[("x-ratelimit-reset", "1")]);
        assert_eq!(policy.wait(Some(&past), backoff), Duration::ZERO, "a reset in the past means now");
        let far = headers(&[("retry-after", "3600")]);
        assert_eq!(policy.wait(Some(&far), backoff), policy.max_wait);
        let date = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(120));
        let dated = headers(&[("retry-after", &date)]);
        let wait = policy.wait(Some(&dated), backoff);
        assert!(wait > Duration::from_secs(28) && wait <= policy.max_wait, "{wait:?}");
        assert_eq!(policy.wait(None, backoff), backoff);
        assert_eq!(policy.wait(Some(&HeaderMap::new()), backoff), backoff);
    }

    #[test]
    fn backoff_doubles_with_jitter_until_the_attempts_are_spent() {
        let policy = RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(100),
            max_wait: Duration::from_millis(350),
        };
        let waits: Vec<Duration> = policy.backoff().collect();
        assert_eq!(waits.len(), 3, "three retries after the first attempt");
        for (retry, wait) in waits.iter().enumerate() {
            let step = Duration::from_millis(100 << retry);
            assert!(*wait >= step.min(policy.max_wait), "retry {retry}: {wait:?}");
            assert!(*wait <= (step * 2).min(policy.max_wait), "retry {retry}: {wait:?}");
        }
        assert_eq!(RetryPolicy::disabled().backoff().count(), 0);
    }
}
