//! The generated client's [`Transport`]: adds the bearer token, retries per
//! [`RetryPolicy`], and traces each call.

use tenant_api_client::hooks::{BoxFuture, Transport};
use tracing::Instrument;

use crate::retry::RetryPolicy;
use crate::token::TokenSource;

#[derive(Debug)]
pub(crate) struct ManagedTransport {
    pub(crate) tokens: TokenSource,
    pub(crate) retry: RetryPolicy,
}

impl ManagedTransport {
    async fn authorize(&self, request: &mut reqwest::Request) -> Result<(), String> {
        let token = self.tokens.token().await?;
        let value = format!("Bearer {token}")
            .parse()
            .map_err(|_| "the access token is not a valid header value".to_string())?;
        request
            .headers_mut()
            .insert(reqwest::header::AUTHORIZATION, value);
        Ok(())
    }

    async fn send_with_retries(
        &self,
        http: &reqwest::Client,
        mut request: reqwest::Request,
    ) -> reqwest::Result<reqwest::Response> {
        let method = request.method().clone();
        let mut attempt = 1;
        loop {
            // A body that cannot be replayed (a stream) gets one attempt.
            let replay = if attempt < self.retry.max_attempts {
                request.try_clone()
            } else {
                None
            };
            let response = http.execute(request).await?;
            let status = response.status();
            let Some(next) = replay.filter(|_| RetryPolicy::is_retryable(&method, status)) else {
                tracing::debug!(status = status.as_u16(), attempt, "response");
                return Ok(response);
            };
            let wait = self
                .retry
                .wait(attempt, response.headers(), chrono::Utc::now().timestamp());
            tracing::info!(
                status = status.as_u16(),
                attempt,
                wait_ms = wait.as_millis() as u64,
                "retrying"
            );
            drop(response);
            tokio::time::sleep(wait).await;
            request = next;
            // The wait may have outlived the token.
            if let Err(err) = self.authorize(&mut request).await {
                tracing::warn!(error = %err, "could not refresh the token before retrying");
            }
            attempt += 1;
        }
    }
}

impl Transport for ManagedTransport {
    fn prepare<'a>(
        &'a self,
        request: &'a mut reqwest::Request,
        _operation_id: &'static str,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(self.authorize(request))
    }

    fn execute<'a>(
        &'a self,
        http: &'a reqwest::Client,
        request: reqwest::Request,
        operation_id: &'static str,
    ) -> BoxFuture<'a, reqwest::Result<reqwest::Response>> {
        let span = tracing::info_span!(
            "tenant_api.call",
            operation = operation_id,
            method = %request.method(),
            url = %request.url(),
        );
        Box::pin(self.send_with_retries(http, request).instrument(span))
    }
}
