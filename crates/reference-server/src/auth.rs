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
        // A token may say when it starts to be valid; before then it is not.
        validation.validate_nbf = true;
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

    /// Signs arbitrary claims (tests use it for expired or foreign tokens,
    /// or claims [`Claims`] has no field for, such as `nbf`).
    pub fn sign(&self, claims: &impl Serialize) -> String {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.encoding)
            .expect("HS256 signing does not fail")
    }

    pub fn verify(&self, token: &str) -> Result<Claims, TokenError> {
        if let Some(refusal) = unaccepted_algorithm(token) {
            return Err(TokenError::Invalid(refusal));
        }
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|err| match err.kind() {
                ErrorKind::ExpiredSignature => TokenError::Expired,
                ErrorKind::InvalidSignature => TokenError::BadSignature,
                ErrorKind::ImmatureSignature => {
                    TokenError::Invalid("not valid yet (its nbf is in the future)".into())
                }
                ErrorKind::InvalidAudience => TokenError::Invalid("wrong audience".into()),
                ErrorKind::InvalidIssuer => TokenError::Invalid("wrong issuer".into()),
                ErrorKind::MissingRequiredClaim(claim) => {
                    TokenError::Invalid(format!("the `{claim}` claim is missing"))
                }
                ErrorKind::Json(_) => TokenError::Invalid(
                    claims_problem(token).unwrap_or_else(|| "malformed JSON Web Token".to_string()),
                ),
                _ => TokenError::Invalid("malformed JSON Web Token".into()),
            })
    }
}

/// Why the token's header names an algorithm other than the one the tenant
/// signs with, if it does: an unsigned token (`none`) or another algorithm
/// are told apart from a token that is not a JSON Web Token at all. Only
/// algorithm names JSON Web Tokens define are repeated back.
fn unaccepted_algorithm(token: &str) -> Option<String> {
    let header = token.split('.').next().and_then(segment_json)?;
    let algorithm = header.get("alg")?.as_str()?;
    if algorithm == "HS256" {
        return None;
    }
    Some(if algorithm.eq_ignore_ascii_case("none") {
        "unsigned tokens (alg none) are not accepted; tokens are signed with HS256".to_string()
    } else if algorithm.parse::<Algorithm>().is_ok() {
        format!("signed with {algorithm}; tokens are signed with HS256")
    } else {
        "signed with an unknown algorithm; tokens are signed with HS256".to_string()
    })
}

/// What is wrong with the token's claims, when they are JSON the claims type
/// does not read: a claim of the wrong type (an array of audiences, a
/// numeric subject), named without repeating its value.
fn claims_problem(token: &str) -> Option<String> {
    let claims = token.split('.').nth(1).and_then(segment_json)?;
    let claims = claims.as_object()?;
    if claims.get("aud").is_some_and(serde_json::Value::is_array) {
        return Some(
            "`aud` is a list; tokens carry one audience, this API's URL, as a string".into(),
        );
    }
    let expected = [
        ("iss", "a string"),
        ("sub", "a string"),
        ("aud", "a string"),
        ("scope", "a string"),
        ("azp", "a string"),
        ("gty", "a string"),
        ("iat", "a number"),
        ("exp", "a number"),
    ];
    expected.iter().find_map(|(claim, kind)| {
        let value = claims.get(*claim)?;
        let fits = if *kind == "a number" {
            value.is_i64()
        } else {
            value.is_string()
        };
        (!fits).then(|| format!("the `{claim}` claim must be {kind}"))
    })
}

/// A segment of a token (base64url, no padding) read as JSON.
fn segment_json(segment: &str) -> Option<serde_json::Value> {
    let mut bytes = Vec::with_capacity(segment.len() * 3 / 4);
    let mut bits = 0u32;
    let mut count = 0;
    for character in segment.bytes() {
        let sextet = match character {
            b'A'..=b'Z' => character - b'A',
            b'a'..=b'z' => character - b'a' + 26,
            b'0'..=b'9' => character - b'0' + 52,
            b'-' => 62,
            b'_' => 63,
            _ => return None,
        };
        bits = bits << 6 | u32::from(sextet);
        count += 6;
        if count >= 8 {
            count -= 8;
            bytes.push((bits >> count) as u8);
        }
    }
    serde_json::from_slice(&bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unsigned(header: &str, claims: &serde_json::Value) -> String {
        let encode = |text: &str| {
            const ALPHABET: &[u8] =
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
            let mut out = String::new();
            for chunk in text.as_bytes().chunks(3) {
                let mut bits = 0u32;
                for (index, byte) in chunk.iter().enumerate() {
                    bits |= u32::from(*byte) << (16 - 8 * index);
                }
                for index in 0..=chunk.len() {
                    out.push(ALPHABET[(bits >> (18 - 6 * index) & 63) as usize] as char);
                }
            }
            out
        };
        format!("{}.{}.", encode(header), encode(&claims.to_string()))
    }

    #[test]
    fn segments_decode_as_base64url() {
        let token = unsigned(r#"{"alg":"none"}"#, &serde_json::json!({"a": "b?~"}));
        let mut parts = token.split('.');
        assert_eq!(
            segment_json(parts.next().unwrap()),
            Some(serde_json::json!({"alg": "none"}))
        );
        assert_eq!(
            segment_json(parts.next().unwrap()),
            Some(serde_json::json!({"a": "b?~"}))
        );
        assert_eq!(segment_json("not base64!"), None);
    }

    #[test]
    fn each_unaccepted_token_says_why() {
        let issuer = TokenIssuer::new("t.test", b"key");
        let claims = serde_json::json!({
            "iss": "https://t.test/", "sub": "c@clients", "aud": "https://t.test/api/v2/",
            "iat": 0, "exp": i64::MAX / 2, "scope": "", "azp": "c", "gty": "client-credentials",
        });
        let refusal = |token: &str| issuer.verify(token).unwrap_err().to_string();
        assert_eq!(
            refusal(&unsigned(r#"{"alg":"none","typ":"JWT"}"#, &claims)),
            "Invalid token: unsigned tokens (alg none) are not accepted; tokens are signed with HS256"
        );
        let hs512 = jsonwebtoken::encode(
            &Header::new(Algorithm::HS512),
            &claims,
            &EncodingKey::from_secret(b"key"),
        )
        .unwrap();
        assert_eq!(
            refusal(&hs512),
            "Invalid token: signed with HS512; tokens are signed with HS256"
        );
        let mut listed = claims.clone();
        listed["aud"] = serde_json::json!(["https://t.test/api/v2/"]);
        assert_eq!(
            refusal(&issuer.sign(&listed)),
            "Invalid token: `aud` is a list; tokens carry one audience, this API's URL, as a string"
        );
        let mut early = claims.clone();
        early["nbf"] = serde_json::json!(chrono::Utc::now().timestamp() + 3600);
        assert_eq!(
            refusal(&issuer.sign(&early)),
            "Invalid token: not valid yet (its nbf is in the future)"
        );
        let mut started = claims.clone();
        started["nbf"] = serde_json::json!(chrono::Utc::now().timestamp() - 10);
        assert!(issuer.verify(&issuer.sign(&started)).is_ok());
        assert_eq!(refusal("abc"), "Invalid token: malformed JSON Web Token");
    }
}
