//! The generated client's [`Transport`]: adds the bearer token. Retries,
//! timeouts and the span per call are the generated client's own hooks.

use tenant_api_client::hooks::{BoxFuture, Transport};

use crate::token::TokenSource;

#[derive(Debug)]
pub(crate) struct BearerTransport {
    pub(crate) tokens: TokenSource,
}

impl BearerTransport {
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
}

impl Transport for BearerTransport {
    /// Runs before the first attempt and again before each retry, so a
    /// token that expired during the wait is refreshed.
    fn prepare<'a>(
        &'a self,
        request: &'a mut reqwest::Request,
        _operation_id: &'static str,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(self.authorize(request))
    }
}
