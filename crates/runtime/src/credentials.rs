//! Credentials a generated client sends, one per security scheme of the
//! description, on the operations that require that scheme.
//!
//! A generated client declares its schemes ([`Scheme`]: the name under
//! `components/securitySchemes` and how the credential travels) and, per
//! operation, the schemes that satisfy it. Given credentials by
//! `Client::builder(..).credential(name, ..)`, it sends on each call the
//! credential of the first of the operation's schemes it holds one for, and
//! nothing on an operation that requires none.

use base64::Engine as _;
use reqwest::header::{AUTHORIZATION, COOKIE, HeaderName, HeaderValue};

/// How a security scheme's credential travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// `Authorization: Bearer <token>`: an `http` `bearer` scheme, `oauth2`
    /// or `openIdConnect`.
    Bearer,
    /// `Authorization: Basic <base64 of user:password>`.
    Basic,
    /// `Authorization: <scheme> <value>` for another `http` scheme.
    Http(&'static str),
    /// An `apiKey` in this header.
    Header(&'static str),
    /// An `apiKey` in this query parameter.
    Query(&'static str),
    /// An `apiKey` in this cookie.
    Cookie(&'static str),
}

/// A security scheme of the description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scheme {
    /// Its name under `components/securitySchemes`.
    pub name: &'static str,
    pub carrier: Carrier,
}

/// A credential for one scheme. Its `Debug` never shows the secret.
#[derive(Clone, PartialEq, Eq)]
pub enum Credential {
    /// A bearer token, an API key, or another `http` scheme's value.
    Token(String),
    /// HTTP basic's user and password.
    Basic { user: String, password: String },
}

impl Credential {
    /// A bearer token, an API key, or another `http` scheme's value.
    pub fn token(token: impl Into<String>) -> Self {
        Credential::Token(token.into())
    }

    /// HTTP basic's user and password.
    pub fn basic(user: impl Into<String>, password: impl Into<String>) -> Self {
        Credential::Basic {
            user: user.into(),
            password: password.into(),
        }
    }
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credential::Token(_) => f.write_str("Token(..)"),
            Credential::Basic { user, .. } => write!(f, "Basic {{ user: {user:?}, .. }}"),
        }
    }
}

/// Why a credential cannot be given to a scheme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CredentialError {
    /// No operation of the description requires a scheme of this name.
    UnknownScheme { scheme: String, declared: Vec<&'static str> },
    /// The scheme takes a token and was given basic credentials, or the
    /// other way round.
    WrongKind { scheme: String, expected: &'static str },
    /// The credential (or the scheme's header name) cannot be written in a
    /// header.
    NotAHeaderValue { scheme: String },
}

impl std::fmt::Display for CredentialError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CredentialError::UnknownScheme { scheme, declared } => {
                write!(f, "no operation requires a security scheme `{scheme}`; the schemes are: ")?;
                if declared.is_empty() {
                    f.write_str("none")
                } else {
                    f.write_str(&declared.join(", "))
                }
            }
            CredentialError::WrongKind { scheme, expected } => {
                write!(f, "security scheme `{scheme}` takes {expected}")
            }
            CredentialError::NotAHeaderValue { scheme } => {
                write!(f, "the credential for `{scheme}` holds characters a header cannot carry")
            }
        }
    }
}

impl std::error::Error for CredentialError {}

/// A credential checked against its scheme and written as it travels.
#[derive(Clone)]
pub(crate) struct Bound {
    scheme: Scheme,
    /// The header it travels in, when it does.
    header: Option<HeaderName>,
    /// The header value (marked sensitive), or the query or cookie value.
    value: HeaderValue,
}

impl std::fmt::Debug for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bound({:?}, ..)", self.scheme.name)
    }
}

impl Bound {
    /// `credential` for the scheme named `name` among `schemes`.
    pub(crate) fn new(schemes: &[Scheme], name: &str, credential: Credential) -> Result<Self, CredentialError> {
        let scheme = *schemes
            .iter()
            .find(|scheme| scheme.name == name)
            .ok_or_else(|| CredentialError::UnknownScheme {
                scheme: name.to_string(),
                declared: schemes.iter().map(|scheme| scheme.name).collect(),
            })?;
        let text = match (scheme.carrier, credential) {
            (Carrier::Basic, Credential::Basic { user, password }) => {
                let encoded = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
                format!("Basic {encoded}")
            }
            (Carrier::Basic, Credential::Token(_)) => {
                return Err(CredentialError::WrongKind {
                    scheme: name.to_string(),
                    expected: "a user and password (`Credential::basic`)",
                });
            }
            (_, Credential::Basic { .. }) => {
                return Err(CredentialError::WrongKind {
                    scheme: name.to_string(),
                    expected: "a token or key (`Credential::token`)",
                });
            }
            (Carrier::Bearer, Credential::Token(token)) => format!("Bearer {token}"),
            (Carrier::Http(http), Credential::Token(token)) => format!("{http} {token}"),
            (Carrier::Header(_) | Carrier::Query(_) | Carrier::Cookie(_), Credential::Token(token)) => token,
        };
        let mut value = HeaderValue::from_str(&text).map_err(|_| CredentialError::NotAHeaderValue {
            scheme: name.to_string(),
        })?;
        value.set_sensitive(true);
        let header = match scheme.carrier {
            Carrier::Bearer | Carrier::Basic | Carrier::Http(_) => Some(AUTHORIZATION),
            // Descriptions spell header names in any case; `from_bytes`
            // lowers it.
            Carrier::Header(header) => Some(HeaderName::from_bytes(header.as_bytes()).map_err(|_| {
                CredentialError::NotAHeaderValue {
                    scheme: name.to_string(),
                }
            })?),
            Carrier::Query(_) | Carrier::Cookie(_) => None,
        };
        Ok(Self { scheme, header, value })
    }

    pub(crate) fn name(&self) -> &'static str {
        self.scheme.name
    }

    /// Writes the credential into `request`, where its scheme says.
    pub(crate) fn apply(&self, request: &mut reqwest::Request) {
        if let Some(header) = &self.header {
            request.headers_mut().insert(header.clone(), self.value.clone());
            return;
        }
        match self.scheme.carrier {
            Carrier::Bearer | Carrier::Basic | Carrier::Http(_) | Carrier::Header(_) => {}
            Carrier::Query(name) => {
                let value = self.value.to_str().unwrap_or_default();
                request.url_mut().query_pairs_mut().append_pair(name, value);
            }
            Carrier::Cookie(name) => {
                let value = self.value.to_str().unwrap_or_default();
                let pair = format!("{name}={value}");
                let cookie = match request.headers().get(COOKIE).and_then(|value| value.to_str().ok()) {
                    Some(cookies) if !cookies.is_empty() => format!("{cookies}; {pair}"),
                    _ => pair,
                };
                if let Ok(mut cookie) = HeaderValue::from_str(&cookie) {
                    cookie.set_sensitive(true);
                    request.headers_mut().insert(COOKIE, cookie);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMES: &[Scheme] = &[
        Scheme { name: "basicAuth", carrier: Carrier::Basic },
        Scheme { name: "bearerAuth", carrier: Carrier::Bearer },
        Scheme { name: "headerKey", carrier: Carrier::Header("X-API-Key") },
        Scheme { name: "queryKey", carrier: Carrier::Query("api_key") },
        Scheme { name: "cookieKey", carrier: Carrier::Cookie("session") },
    ];

    fn sent(name: &str, credential: Credential) -> reqwest::Request {
        let url = "http://api.test/items?page=2".parse().unwrap();
        let mut request = reqwest::Request::new(reqwest::Method::GET, url);
        request.headers_mut().insert(COOKIE, HeaderValue::from_static("theme=dark"));
        Bound::new(SCHEMES, name, credential).unwrap().apply(&mut request);
        request
    }

    #[test]
    fn each_credential_travels_where_its_scheme_says() {
        let basic = sent("basicAuth", Credential::basic("Aladdin", "open sesame"));
        // RFC 7617's example.
        assert_eq!(basic.headers()[AUTHORIZATION], "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
        assert!(basic.headers()[AUTHORIZATION].is_sensitive());
        let bearer = sent("bearerAuth", Credential::token("t-1"));
        assert_eq!(bearer.headers()[AUTHORIZATION], "Bearer t-1");
        let header = sent("headerKey", Credential::token("k-1"));
        assert_eq!(header.headers()["x-api-key"], "k-1");
        let query = sent("queryKey", Credential::token("k 2&"));
        assert_eq!(query.url().query(), Some("page=2&api_key=k+2%26"));
        let cookie = sent("cookieKey", Credential::token("s-3"));
        assert_eq!(cookie.headers()[COOKIE], "theme=dark; session=s-3");
    }

    #[test]
    fn a_credential_must_fit_a_declared_scheme() {
        let unknown = Bound::new(SCHEMES, "basic", Credential::basic("a", "b")).unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "no operation requires a security scheme `basic`; the schemes are: \
             basicAuth, bearerAuth, headerKey, queryKey, cookieKey"
        );
        let wrong = Bound::new(SCHEMES, "basicAuth", Credential::token("t")).unwrap_err();
        assert!(matches!(wrong, CredentialError::WrongKind { .. }), "{wrong}");
        let wrong = Bound::new(SCHEMES, "headerKey", Credential::basic("a", "b")).unwrap_err();
        assert!(matches!(wrong, CredentialError::WrongKind { .. }), "{wrong}");
        let broken = Bound::new(SCHEMES, "headerKey", Credential::token("a\nb")).unwrap_err();
        assert!(matches!(broken, CredentialError::NotAHeaderValue { .. }), "{broken}");
    }

    #[test]
    fn debug_output_keeps_secrets_out() {
        let shown = format!("{:?}", Credential::basic("ann", "hunter2"));
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(!format!("{:?}", Credential::token("t-secret")).contains("t-secret"));
    }
}
