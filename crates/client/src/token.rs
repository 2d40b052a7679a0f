//! Access tokens: a fixed one, or one obtained with the client credentials
//! grant, cached until shortly before it expires and refreshed once however
//! many calls need it at the same moment.

use std::time::{Duration, Instant};

use serde::Deserialize;
use tokio::sync::Mutex;
use tracing::Instrument;

/// Where the client's access token comes from.
#[derive(Clone)]
pub enum Credentials {
    /// A token obtained elsewhere, sent as it is.
    AccessToken(String),
    /// An OAuth 2.0 client of the tenant; tokens are fetched as needed.
    ClientCredentials {
        client_id: String,
        client_secret: String,
    },
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::AccessToken(_) => f.write_str("AccessToken(..)"),
            Credentials::ClientCredentials { client_id, .. } => {
                write!(f, "ClientCredentials {{ client_id: {client_id:?}, .. }}")
            }
        }
    }
}

/// A token is replaced this long before it expires (or after nine tenths
/// of its lifetime, for short-lived tokens), so no request carries a token
/// that expires in flight.
const REFRESH_MARGIN: Duration = Duration::from_secs(60);

struct CachedToken {
    value: String,
    refresh_at: Instant,
}

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    expires_in: u64,
}

/// Hands out the current token, fetching a new one when needed.
pub(crate) struct TokenSource {
    credentials: Credentials,
    token_url: String,
    audience: String,
    http: reqwest::Client,
    cache: Mutex<Option<CachedToken>>,
}

impl std::fmt::Debug for TokenSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenSource")
            .field("credentials", &self.credentials)
            .field("token_url", &self.token_url)
            .field("audience", &self.audience)
            .finish_non_exhaustive()
    }
}

impl TokenSource {
    pub(crate) fn new(
        credentials: Credentials,
        token_url: String,
        audience: String,
        http: reqwest::Client,
    ) -> Self {
        Self {
            credentials,
            token_url,
            audience,
            http,
            cache: Mutex::new(None),
        }
    }

    /// The token to send now. Concurrent callers wait on one lock, so when
    /// the cached token is stale exactly one of them fetches a new one and
    /// the others reuse it.
    pub(crate) async fn token(&self) -> Result<String, String> {
        let (client_id, client_secret) = match &self.credentials {
            Credentials::AccessToken(token) => return Ok(token.clone()),
            Credentials::ClientCredentials {
                client_id,
                client_secret,
            } => (client_id, client_secret),
        };
        let mut cache = self.cache.lock().await;
        if let Some(cached) = cache
            .as_ref()
            .filter(|cached| Instant::now() < cached.refresh_at)
        {
            return Ok(cached.value.clone());
        }
        let fetched = self.fetch(client_id, client_secret).await?;
        let lifetime = Duration::from_secs(fetched.expires_in);
        let margin = REFRESH_MARGIN.min(lifetime / 10);
        let value = fetched.access_token;
        *cache = Some(CachedToken {
            value: value.clone(),
            refresh_at: Instant::now() + lifetime - margin,
        });
        Ok(value)
    }

    async fn fetch(&self, client_id: &str, client_secret: &str) -> Result<TokenResponse, String> {
        let span = tracing::info_span!("tenant_api.token", url = %self.token_url);
        self.fetch_untraced(client_id, client_secret)
            .instrument(span)
            .await
    }

    async fn fetch_untraced(
        &self,
        client_id: &str,
        client_secret: &str,
    ) -> Result<TokenResponse, String> {
        let response = self
            .http
            .post(&self.token_url)
            .form(&[
                ("grant_type", "client_credentials"),
                ("client_id", client_id),
                ("client_secret", client_secret),
                ("audience", self.audience.as_str()),
            ])
            .send()
            .await
            .map_err(|err| format!("token request to {} failed: {err}", self.token_url))?;
        let status = response.status();
        if !status.is_success() {
            let body = response.text().await.unwrap_or_default();
            return Err(format!(
                "token request to {} was refused ({status}): {body}",
                self.token_url
            ));
        }
        response.json().await.map_err(|err| {
            format!(
                "token response from {} is not understood: {err}",
                self.token_url
            )
        })
    }
}
