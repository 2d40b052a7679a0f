//! When to retry a request, and how long to wait first.

use std::time::Duration;

use reqwest::header::HeaderMap;
use reqwest::{Method, StatusCode};

/// How failed requests are retried.
///
/// Only two kinds of failure are retried: `429 Too Many Requests` for every
/// method, and `5xx` for `GET`. Other `4xx` are never retried: the request
/// itself is wrong. A `POST` is not retried on `5xx` or on a lost
/// connection, because the service may have created the resource already;
/// a `429` is answered before the request is processed, so retrying it
/// cannot create a duplicate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included; 1 turns retries off.
    pub max_attempts: u32,
    /// The longest wait before one retry, whatever the server asks for.
    pub max_wait: Duration,
    /// The first backoff step when the server gives no hint; it doubles per attempt.
    pub base_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 4,
            max_wait: Duration::from_secs(30),
            base_delay: Duration::from_millis(250),
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

    /// Whether a response with `status` to a `method` request may be retried.
    pub fn is_retryable(method: &Method, status: StatusCode) -> bool {
        status == StatusCode::TOO_MANY_REQUESTS
            || (status.is_server_error() && *method == Method::GET)
    }

    /// How long to wait before attempt number `attempt + 1` (`attempt` >= 1),
    /// given the failed response's headers and the time `now` (Unix seconds).
    /// `Retry-After` wins, then `X-RateLimit-Reset`, then exponential backoff
    /// with jitter; the result never exceeds `max_wait`.
    pub fn wait(&self, attempt: u32, headers: &HeaderMap, now: i64) -> Duration {
        let hinted = retry_after(headers).or_else(|| rate_limit_reset(headers, now));
        let wait = hinted.unwrap_or_else(|| self.backoff(attempt));
        wait.min(self.max_wait)
    }

    /// `base_delay * 2^(attempt-1)`, scaled by a random factor in [0.5, 1.0)
    /// so that clients that failed together do not retry together.
    fn backoff(&self, attempt: u32) -> Duration {
        let exponential = self
            .base_delay
            .saturating_mul(1u32 << attempt.saturating_sub(1).min(16));
        exponential.mul_f64(0.5 + fastrand::f64() / 2.0)
    }
}

/// `Retry-After` in seconds (the HTTP-date form is read too).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let seconds = (date.timestamp() - chrono::Utc::now().timestamp()).max(0);
    Some(Duration::from_secs(seconds as u64))
}

/// The time until `X-RateLimit-Reset` (Unix seconds).
fn rate_limit_reset(headers: &HeaderMap, now: i64) -> Option<Duration> {
    let reset: i64 = headers
        .get("x-ratelimit-reset")?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs((reset - now).max(0) as u64))
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
    fn only_429_and_get_5xx_are_retryable() {
        assert!(RetryPolicy::is_retryable(
            &Method::POST,
            StatusCode::TOO_MANY_REQUESTS
        ));
        assert!(RetryPolicy::is_retryable(
            &Method::GET,
            StatusCode::SERVICE_UNAVAILABLE
        ));
        assert!(!RetryPolicy::is_retryable(
            &Method::POST,
            StatusCode::SERVICE_UNAVAILABLE
        ));
        assert!(!RetryPolicy::is_retryable(
            &Method::GET,
            StatusCode::BAD_REQUEST
        ));
        assert!(!RetryPolicy::is_retryable(
            &Method::POST,
            StatusCode::CONFLICT
        ));
    }

    #[test]
    fn retry_after_beats_the_reset_header_and_both_are_capped() {
        let policy = RetryPolicy::default();
        let both = headers(&[("retry-after", "3"), ("x-ratelimit-reset", "1010")]);
        assert_eq!(policy.wait(1, &both, 1000), Duration::from_secs(3));
        let reset = headers(&[("x-ratelimit-reset", "1010")]);
        assert_eq!(policy.wait(1, &reset, 1000), Duration::from_secs(10));
        assert_eq!(
            policy.wait(1, &reset, 1020),
            Duration::ZERO,
            "a reset in the past means now"
        );
        let far = headers(&[("retry-after", "3600")]);
        assert_eq!(policy.wait(1, &far, 0), policy.max_wait);
    }

    #[test]
    fn backoff_doubles_with_jitter_when_there_is_no_hint() {
        let policy = RetryPolicy {
            base_delay: Duration::from_millis(100),
            ..RetryPolicy::default()
        };
        for attempt in 1..=4u32 {
            let full = Duration::from_millis(100 * (1 << (attempt - 1)));
            let wait = policy.wait(attempt, &HeaderMap::new(), 0);
            assert!(
                wait >= full / 2 && wait < full,
                "attempt {attempt}: {wait:?}"
            );
        }
    }
}
