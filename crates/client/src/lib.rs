//! A client of the tenant management API for production use.
//!
//! It sets up the generated [`tenant_api_client::Client`] (every operation,
//! with its typed builders, is available through `Deref`) as callers of the
//! platform's SDKs expect; the machinery is the generated client's own
//! hooks, which every generated client has:
//!
//! - **Credentials**: a fixed access token, or client credentials exchanged
//!   at the tenant's `/oauth/token` for a token (audience: the management
//!   API's `/api/v2/` URL), cached until shortly before it expires and
//!   refreshed once however many calls need it at the same moment.
//! - **Retries** per [`RetryPolicy`]: a refused
//!   connection and `429` always, `5xx` and lost connections for idempotent
//!   requests (`GET`, `PUT`, `DELETE`, ...), waiting as `Retry-After` or
//!   `X-RateLimit-Reset` say, else exponential backoff with jitter, capped.
//!   Never other `4xx`, and never a `POST` that may have been applied, so a
//!   retry cannot create a duplicate.
//! - **Timeouts** (10 s to connect, 30 s per request by default), a
//!   `User-Agent` naming this crate and version, and a `tracing` span per call.
//! - **Forward compatibility**: unknown response fields are ignored, and
//!   where the spec allows extra members (further `strategy_overrides`
//!   keys, attribute names in `user_attributes`) they are kept.
//!
//! With client credentials:
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use tenant_client::TenantClient;
//!
//! let client = TenantClient::builder("tenant.example.com")
//!     .client_credentials("my-client-id", "my-client-secret")
//!     .build()?;
//! let provider = client.get_push_notification_apns_provider().send().await?;
//! println!("APNs enabled: {}", provider.enabled);
//! # Ok(())
//! # }
//! ```
//!
//! With an access token obtained elsewhere, and custom retries:
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use tenant_client::{RetryPolicy, TenantClient};
//!
//! let client = TenantClient::builder("tenant.example.com")
//!     .access_token(std::env::var("TENANT_API_TOKEN")?)
//!     .retry_policy(RetryPolicy { max_attempts: 2, max_wait: Duration::from_secs(5), ..RetryPolicy::default() })
//!     .build()?;
//! let module = client.get_action_module().id("mod_123").send().await?;
//! println!("{} uses {} dependencies", module.name, module.dependencies.len());
//! # Ok(())
//! # }
//! ```

mod token;

use std::fmt;
use std::ops::Deref;
use std::time::Duration;

pub use tenant_api_client::{Error, ResponseValue, RetryPolicy, types};
pub use token::Credentials;

use tenant_api_client::hooks::{Credential, GeneratedClient, Hooks};

/// `User-Agent` of every request.
pub const USER_AGENT: &str = concat!(env!("CARGO_PKG_NAME"), "/", env!("CARGO_PKG_VERSION"));

/// Connect timeout unless [`TenantClientBuilder::connect_timeout`] says otherwise.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Whole-request timeout unless [`TenantClientBuilder::timeout`] says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The tenant management API client. Every operation of the generated
/// client is available on it.
#[derive(Debug, Clone)]
pub struct TenantClient {
    api: tenant_api_client::Client,
}

impl TenantClient {
    /// Starts building a client for the tenant at `domain`: a host name
    /// (`tenant.example.com`, reached over HTTPS) or a base URL
    /// (`http://127.0.0.1:8080` for a local server).
    pub fn builder(domain: impl Into<String>) -> TenantClientBuilder {
        TenantClientBuilder {
            domain: domain.into(),
            credentials: None,
            audience: None,
            retry: RetryPolicy::default(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// The generated client underneath.
    pub fn api(&self) -> &tenant_api_client::Client {
        &self.api
    }
}

impl Deref for TenantClient {
    type Target = tenant_api_client::Client;

    fn deref(&self) -> &Self::Target {
        &self.api
    }
}

/// Settings of a [`TenantClient`].
#[derive(Debug, Clone)]
pub struct TenantClientBuilder {
    domain: String,
    credentials: Option<Credentials>,
    audience: Option<String>,
    retry: RetryPolicy,
    connect_timeout: Duration,
    timeout: Duration,
}

impl TenantClientBuilder {
    /// Sends `token` as it is with every request.
    pub fn access_token(mut self, token: impl Into<String>) -> Self {
        self.credentials = Some(Credentials::AccessToken(token.into()));
        self
    }

    /// Obtains tokens with the client credentials grant.
    pub fn client_credentials(
        mut self,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        self.credentials = Some(Credentials::ClientCredentials {
            client_id: client_id.into(),
            client_secret: client_secret.into(),
        });
        self
    }

    /// The `audience` asked for with client credentials; by default
    /// `https://{host}/api/v2/`, the management API's identifier.
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.audience = Some(audience.into());
        self
    }

    pub fn retry_policy(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Sends every request once.
    pub fn without_retries(self) -> Self {
        self.retry_policy(RetryPolicy::disabled())
    }

    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// The limit for one attempt of a request, response body included.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    pub fn build(self) -> Result<TenantClient, BuildError> {
        let credentials = self.credentials.ok_or(BuildError::MissingCredentials)?;
        let origin = origin(&self.domain)?;
        let host = origin
            .split_once("://")
            .map_or(origin.as_str(), |(_, host)| host);
        let audience = self
            .audience
            .unwrap_or_else(|| format!("https://{host}/api/v2/"));
        let http = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .connect_timeout(self.connect_timeout)
            .timeout(self.timeout)
            .build()
            .map_err(|err| BuildError::Http(err.to_string()))?;
        let (scheme, credential): (&str, Credential) = match credentials {
            Credentials::AccessToken(token) => ("bearerAuth", Credential::token(token)),
            Credentials::ClientCredentials {
                client_id,
                client_secret,
            } => (
                "oAuth2ClientCredentials",
                Credential::client_credentials(client_id, client_secret)
                    .token_url(format!("{origin}/oauth/token"))
                    .param("audience", audience)
                    .into(),
            ),
        };
        let base = format!("{origin}/api/v2");
        let schemes = <tenant_api_client::Client as GeneratedClient>::SCHEMES;
        let hooks = Hooks::default()
            .with_retry(self.retry)
            .with_credential(schemes, scheme, credential, &base)
            .map_err(|err| BuildError::Credential(err.to_string()))?;
        let api = tenant_api_client::Client::new_with_client(&base, http, hooks);
        Ok(TenantClient { api })
    }
}

/// `scheme://host[:port]` of the tenant, HTTPS unless the domain names a scheme.
fn origin(domain: &str) -> Result<String, BuildError> {
    let domain = domain.trim().trim_end_matches('/');
    let origin = if domain.contains("://") {
        domain.to_string()
    } else {
        format!("https://{domain}")
    };
    let url = reqwest::Url::parse(&origin)
        .map_err(|err| BuildError::InvalidDomain(format!("{domain}: {err}")))?;
    if url.host_str().is_none() || !matches!(url.scheme(), "http" | "https") || url.path() != "/" {
        return Err(BuildError::InvalidDomain(format!(
            "{domain}: expected a host name or an http(s) URL without a path"
        )));
    }
    Ok(origin)
}

/// Why a [`TenantClient`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// Neither an access token nor client credentials were given.
    MissingCredentials,
    InvalidDomain(String),
    /// The HTTP client could not be set up (for example, no TLS backend).
    Http(String),
    /// The credentials do not fit the API's security schemes (a token URL
    /// that is not a URL, say).
    Credential(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::MissingCredentials => {
                write!(
                    f,
                    "no credentials: call access_token() or client_credentials()"
                )
            }
            BuildError::InvalidDomain(reason) => write!(f, "invalid tenant domain {reason}"),
            BuildError::Http(reason) => write!(f, "cannot set up the HTTP client: {reason}"),
            BuildError::Credential(reason) => write!(f, "cannot use the credentials: {reason}"),
        }
    }
}

impl std::error::Error for BuildError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_become_origins() {
        assert_eq!(
            origin("tenant.example.com").unwrap(),
            "https://tenant.example.com"
        );
        assert_eq!(
            origin("http://127.0.0.1:8080/").unwrap(),
            "http://127.0.0.1:8080"
        );
        assert!(origin("ftp://tenant.example.com").is_err());
        assert!(origin("https://tenant.example.com/api/v2").is_err());
    }

    #[test]
    fn credentials_are_required() {
        assert_eq!(
            TenantClient::builder("tenant.example.com")
                .build()
                .unwrap_err(),
            BuildError::MissingCredentials
        );
    }
}
