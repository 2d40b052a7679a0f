//! A reference implementation of the tenant management API: the generated
//! server trait backed by an in-memory store and fixture data, with a local
//! OAuth 2.0 token endpoint and optional per-client rate limiting.
//!
//! Other teams run it (`cargo run -p tenant-reference-server`) to try the
//! client against something real; the workspace's end-to-end tests start it
//! in-process with [`app`].

pub mod auth;
pub mod fixtures;
pub mod oauth;
pub mod rate_limit;
pub mod service;
pub mod store;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::post;

pub use auth::{Claims, TokenIssuer};
pub use fixtures::Fixtures;
pub use rate_limit::RateLimit;
pub use service::ReferenceService;

/// How the server is set up.
#[derive(Debug, Clone)]
pub struct Config {
    /// The tenant host (and port), e.g. `localhost:8080`: tokens are issued
    /// for the audience `https://{tenant_domain}/api/v2/`.
    pub tenant_domain: String,
    /// The HS256 key that signs and verifies access tokens.
    pub signing_key: Vec<u8>,
    pub fixtures: Fixtures,
    /// How many resources of each type the tenant may create.
    pub entity_limit: usize,
    /// Per-client rate limit; none by default.
    pub rate_limit: Option<RateLimit>,
    /// Lifetime of tokens issued by `/oauth/token`.
    pub token_lifetime: Duration,
}

impl Config {
    /// A configuration with the shipped fixtures and a development key.
    pub fn development(tenant_domain: &str) -> Self {
        Self {
            tenant_domain: tenant_domain.to_string(),
            signing_key: DEVELOPMENT_KEY.to_vec(),
            fixtures: Fixtures::builtin(),
            entity_limit: 100,
            rate_limit: None,
            token_lifetime: Duration::from_secs(86_400),
        }
    }
}

/// The signing key used when none is configured. Local use only.
pub const DEVELOPMENT_KEY: &[u8] = b"reference-server-development-key-not-for-production";

/// Everything the handlers share.
pub struct AppState {
    pub issuer: TokenIssuer,
    pub fixtures: Fixtures,
    pub store: store::Store,
    pub rate_limiter: Option<rate_limit::RateLimiter>,
    pub token_lifetime: Duration,
}

impl AppState {
    pub fn new(config: Config) -> Self {
        Self {
            issuer: TokenIssuer::new(&config.tenant_domain, &config.signing_key),
            fixtures: config.fixtures,
            store: store::Store::new(config.entity_limit),
            rate_limiter: config.rate_limit.map(rate_limit::RateLimiter::new),
            token_lifetime: config.token_lifetime,
        }
    }
}

/// The whole server: the generated API router (rate limited when
/// configured) and the token endpoint.
pub fn app(state: Arc<AppState>) -> Router {
    let api = tenant_api_server::router(ReferenceService {
        state: state.clone(),
    })
    .layer(axum::middleware::from_fn_with_state(
        state.clone(),
        rate_limit::enforce,
    ));
    Router::new()
        .route("/oauth/token", post(oauth::token))
        .route("/oauth/token/", post(oauth::token))
        // A token request is a few fields: a larger body is refused early.
        .layer(axum::extract::DefaultBodyLimit::max(oauth::BODY_LIMIT))
        .with_state(state)
        .merge(api)
        .layer(tower_http::trace::TraceLayer::new_for_http())
}
