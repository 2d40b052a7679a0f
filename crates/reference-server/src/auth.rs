//! Access tokens: HS256 JSON Web Tokens issued by `/oauth/token` (or
//! `mint-token`) and verified on every API call.

use std::time::Duration;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

/// The claims of an access token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    pub iss: String,
    pub sub: String,
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
    /// Granted scopes, space-separated.
    pub scope: String,
    /// The client the token was issued to.
    pub azp: String,
    pub gty: String,
}

impl Claims {
    pub fn scopes(&self) -> impl Iterator<Item = &str> {
        self.scope.split_whitespace()
    }
}

/// Why a token was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenError {
    Expired,
    BadSignature,
    Invalid(String),
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenError::Expired => write!(f, "Expired token"),
            TokenError::BadSignature => write!(
                f,
                "Invalid signature received for JSON Web Token validation"
            ),
            TokenError::Invalid(reason) => write!(f, "Invalid token: {reason}"),
        }
    }
}

/// Issues and verifies the tenant's tokens.
pub struct TokenIssuer {
    issuer: String,
    audience: String,
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

impl TokenIssuer {
    /// An issuer for `tenant_domain` (host and optional port) signing with `secret`.
    pub fn new(tenant_domain: &str, secret: &[u8]) -> Self {
        let issuer = format!("https://{tenant_domain}/");
        let audience = format!("https://{tenant_domain}/api/v2/");
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_audience(&[&audience]);
        validation.set_issuer(&[&issuer]);
        validation.set_required_spec_claims(&["exp", "aud", "iss", "sub"]);
        // Expiry is exact: clock skew is not an issue for a local server.
        validation.leeway = 0;
        Self {
            issuer,
            audience,
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
        }
    }

    /// The audience tokens must carry: the management API's `/api/v2/` URL.
    pub fn audience(&self) -> &str {
        &self.audience
    }

    /// A token for `client_id` with `scopes`, valid for `lifetime` from now.
    pub fn issue(&self, client_id: &str, scopes: &[String], lifetime: Duration) -> String {
        let now = chrono::Utc::now().timestamp();
        let claims = Claims {
            iss: self.issuer.clone(),
            sub: format!("{client_id}@clients"),
            aud: self.audience.clone(),
            iat: now,
            exp: now + i64::try_from(lifetime.as_secs()).unwrap_or(i64::MAX / 2),
            scope: scopes.join(" "),
            azp: client_id.to_string(),
            gty: "client-credentials".to_string(),
        };
        self.sign(&claims)
    }

    /// Signs arbitrary claims (tests use it for expired or foreign tokens).
    pub fn sign(&self, claims: &Claims) -> String {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.encoding)
            .expect("HS256 signing does not fail")
    }

    pub fn verify(&self, token: &str) -> Result<Claims, TokenError> {
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|err| match err.kind() {
                ErrorKind::ExpiredSignature => TokenError::Expired,
                ErrorKind::InvalidSignature => TokenError::BadSignature,
                ErrorKind::InvalidAudience => TokenError::Invalid("wrong audience".into()),
                ErrorKind::InvalidIssuer => TokenError::Invalid("wrong issuer".into()),
                _ => TokenError::Invalid("malformed JSON Web Token".into()),
            })
    }
}
