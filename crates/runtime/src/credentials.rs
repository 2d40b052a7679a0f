//! Credentials a generated client sends, one per security scheme of the
//! description, on the operations that require that scheme.
//!
//! A generated client declares its schemes ([`Scheme`]: the name under
//! `components/securitySchemes` and how the credential travels) and, per
//! operation, the schemes that satisfy it. Given credentials by
//! `Client::builder(..).credential(name, ..)`, it sends on each call the
//! credential of the first of the operation's schemes it holds one for, and
//! nothing on an operation that requires none.
//!
//! An OAuth 2.0 scheme with a client credentials flow also takes the
//! client's id and secret ([`Credential::client_credentials`]): the client
//! then obtains tokens from the flow's `tokenUrl` (RFC 6749 §4.4, the
//! client authenticating with `client_id` and `client_secret` in the form
//! body), caches each until shortly before it expires, and fetches a new
//! one once however many calls need it at the same moment.

use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, COOKIE, HeaderName, HeaderValue};

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
    /// OAuth 2.0 with a client credentials flow: a bearer token, fetched
    /// from this token URL (as the description writes it; a relative one
    /// is resolved against the client's base URL) when the credential is
    /// the client's id and secret.
    ClientCredentials(&'static str),
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
    /// An OAuth 2.0 client's id and secret, exchanged for tokens.
    ClientCredentials(ClientCredentials),
}

/// An OAuth 2.0 client's id and secret, and what else its token requests
/// carry.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientCredentials {
    client_id: String,
    client_secret: String,
    token_url: Option<String>,
    scopes: Vec<String>,
    params: Vec<(String, String)>,
}

impl ClientCredentials {
    /// Requests tokens from `url` rather than the description's `tokenUrl`
    /// (a tenant's own host, say).
    pub fn token_url(mut self, url: impl Into<String>) -> Self {
        self.token_url = Some(url.into());
        self
    }

    /// Asks for `scope` in each token request (`scope`, space-separated).
    pub fn scope(mut self, scope: impl Into<String>) -> Self {
        self.scopes.push(scope.into());
        self
    }

    /// Adds a form parameter to each token request (`audience`, say).
    pub fn param(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.params.push((name.into(), value.into()));
        self
    }
}

impl From<ClientCredentials> for Credential {
    fn from(credentials: ClientCredentials) -> Self {
        Credential::ClientCredentials(credentials)
    }
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

    /// An OAuth 2.0 client's id and secret, for a scheme with a client
    /// credentials flow; set its token URL, scopes or extra parameters on
    /// the value returned.
    pub fn client_credentials(client_id: impl Into<String>, client_secret: impl Into<String>) -> ClientCredentials {
        ClientCredentials {
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            token_url: None,
            scopes: Vec::new(),
            params: Vec::new(),
        }
    }
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credential::Token(_) => f.write_str("Token(..)"),
            Credential::Basic { user, .. } => write!(f, "Basic {{ user: {user:?}, .. }}"),
            Credential::ClientCredentials(credentials) => credentials.fmt(f),
        }
    }
}

impl std::fmt::Debug for ClientCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientCredentials")
            .field("client_id", &self.client_id)
            .field("token_url", &self.token_url)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
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
    /// The token URL, resolved against the base URL, is not a URL.
    TokenUrl { scheme: String, url: String },
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
            CredentialError::TokenUrl { scheme, url } => write!(
                f,
                "the token URL of `{scheme}`, `{url}`, is not a URL; give one with `ClientCredentials::token_url`"
            ),
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
    value: Value,
}

#[derive(Clone)]
enum Value {
    /// The header value (marked sensitive), or the query or cookie value.
    Fixed(HeaderValue),
    /// Bearer tokens from a token endpoint.
    Fetched(Arc<Tokens>),
}

impl std::fmt::Debug for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bound({:?}, ..)", self.scheme.name)
    }
}

impl Bound {
    /// `credential` for the scheme named `name` among `schemes`, for a
    /// client of the API at `base_url`.
    pub(crate) fn new(
        schemes: &[Scheme],
        name: &str,
        credential: Credential,
        base_url: &str,
    ) -> Result<Self, CredentialError> {
        let scheme = *schemes
            .iter()
            .find(|scheme| scheme.name == name)
            .ok_or_else(|| CredentialError::UnknownScheme {
                scheme: name.to_string(),
                declared: schemes.iter().map(|scheme| scheme.name).collect(),
            })?;
        let wrong = |expected| CredentialError::WrongKind {
            scheme: name.to_string(),
            expected,
        };
        let text = match (scheme.carrier, credential) {
            (Carrier::ClientCredentials(declared), Credential::ClientCredentials(credentials)) => {
                let written = credentials.token_url.as_deref().unwrap_or(declared);
                let url = reqwest::Url::parse(base_url)
                    .and_then(|base| base.join(written))
                    .map_err(|_| CredentialError::TokenUrl {
                        scheme: name.to_string(),
                        url: written.to_string(),
                    })?;
                let tokens = Tokens {
                    url,
                    credentials,
                    cached: tokio::sync::Mutex::new(None),
                };
                return Ok(Self {
                    scheme,
                    header: Some(AUTHORIZATION),
                    value: Value::Fetched(Arc::new(tokens)),
                });
            }
            (_, Credential::ClientCredentials(_)) => {
                return Err(wrong("no client credentials: its description has no such flow"));
            }
            (Carrier::Basic, Credential::Basic { user, password }) => {
                let encoded = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
                format!("Basic {encoded}")
            }
            (Carrier::Basic, Credential::Token(_)) => {
                return Err(wrong("a user and password (`Credential::basic`)"));
            }
            (_, Credential::Basic { .. }) => {
                return Err(wrong("a token or key (`Credential::token`)"));
            }
            (Carrier::Bearer | Carrier::ClientCredentials(_), Credential::Token(token)) => format!("Bearer {token}"),
            (Carrier::Http(http), Credential::Token(token)) => format!("{http} {token}"),
            (Carrier::Header(_) | Carrier::Query(_) | Carrier::Cookie(_), Credential::Token(token)) => token,
        };
        let mut value = HeaderValue::from_str(&text).map_err(|_| CredentialError::NotAHeaderValue {
            scheme: name.to_string(),
        })?;
        value.set_sensitive(true);
        let header = match scheme.carrier {
            Carrier::Bearer | Carrier::Basic | Carrier::Http(_) | Carrier::ClientCredentials(_) => Some(AUTHORIZATION),
            // Descriptions spell header names in any case; `from_bytes`
            // lowers it.
            Carrier::Header(header) => Some(HeaderName::from_bytes(header.as_bytes()).map_err(|_| {
                CredentialError::NotAHeaderValue {
                    scheme: name.to_string(),
                }
            })?),
            Carrier::Query(_) | Carrier::Cookie(_) => None,
        };
        Ok(Self {
            scheme,
            header,
            value: Value::Fixed(value),
        })
    }

    pub(crate) fn name(&self) -> &'static str {
        self.scheme.name
    }

    /// Whether it travels in a header, so that writing it again replaces it.
    pub(crate) fn in_header(&self) -> bool {
        self.header.is_some()
    }

    /// Writes the credential into `request`, where its scheme says,
    /// fetching a token with `http` first if it needs one.
    pub(crate) async fn apply(&self, http: &reqwest::Client, request: &mut reqwest::Request) -> Result<(), String> {
        let value = match &self.value {
            Value::Fixed(value) => value.clone(),
            Value::Fetched(tokens) => tokens.authorization(http).await?,
        };
        if let Some(header) = &self.header {
            request.headers_mut().insert(header.clone(), value);
            return Ok(());
        }
        let value = value.to_str().unwrap_or_default();
        match self.scheme.carrier {
            Carrier::Query(name) => {
                request.url_mut().query_pairs_mut().append_pair(name, value);
            }
            Carrier::Cookie(name) => {
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
            _ => {}
        }
        Ok(())
    }
}

/// A token is replaced this long before it expires (or after nine tenths
/// of its lifetime, for short-lived tokens), so that no request carries a
/// token expiring in flight.
const REFRESH_MARGIN: Duration = Duration::from_secs(60);

/// How long a token whose response gives no `expires_in` is kept.
const UNSTATED_LIFETIME: Duration = Duration::from_secs(300);

/// The tokens of one client: the current one, fetched again when stale.
struct Tokens {
    url: reqwest::Url,
    credentials: ClientCredentials,
    /// `Authorization: Bearer ...`, and when to fetch a new one. Callers
    /// wait on one lock, so one of them fetches and the others reuse it.
    cached: tokio::sync::Mutex<Option<(HeaderValue, Instant)>>,
}

#[derive(serde::Deserialize)]
struct TokenResponse {
    access_token: String,
    expires_in: Option<u64>,
}

impl Tokens {
    async fn authorization(&self, http: &reqwest::Client) -> Result<HeaderValue, String> {
        let mut cached = self.cached.lock().await;
        if let Some((value, _)) = cached.as_ref().filter(|(_, refresh_at)| Instant::now() < *refresh_at) {
            return Ok(value.clone());
        }
        let fetched = self.fetch(http).await?;
        let lifetime = fetched.expires_in.map_or(UNSTATED_LIFETIME, Duration::from_secs);
        let mut value = HeaderValue::from_str(&format!("Bearer {}", fetched.access_token))
            .map_err(|_| format!("the token from {} is not a valid header value", self.url))?;
        value.set_sensitive(true);
        let refresh_at = Instant::now() + lifetime - REFRESH_MARGIN.min(lifetime / 10);
        *cached = Some((value.clone(), refresh_at));
        Ok(value)
    }

    async fn fetch(&self, http: &reqwest::Client) -> Result<TokenResponse, String> {
        use tracing::Instrument as _;
        let span = tracing::info_span!("oauth.token", url.full = %self.url);
        self.fetch_untraced(http).instrument(span).await
    }

    /// The token request's form body. (Built apart: the serializer is not
    /// `Send`, and must not live in the future.)
    fn form(&self) -> String {
        let credentials = &self.credentials;
        let mut form = form_urlencoded::Serializer::new(String::new());
        form.append_pair("grant_type", "client_credentials");
        form.append_pair("client_id", &credentials.client_id);
        form.append_pair("client_secret", &credentials.client_secret);
        if !credentials.scopes.is_empty() {
            form.append_pair("scope", &credentials.scopes.join(" "));
        }
        for (name, value) in &credentials.params {
            form.append_pair(name, value);
        }
        form.finish()
    }

    async fn fetch_untraced(&self, http: &reqwest::Client) -> Result<TokenResponse, String> {
        let response = http
            .post(self.url.clone())
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(self.form())
            .send()
            .await
            .map_err(|err| format!("token request to {} failed: {err}", self.url))?;
        let status = response.status();
        if !status.is_success() {
            let body = response.text().await.unwrap_or_default();
            return Err(format!("token request to {} was refused ({status}): {body}", self.url));
        }
        let body = response
            .bytes()
            .await
            .map_err(|err| format!("token response from {} was cut: {err}", self.url))?;
        serde_json::from_slice(&body)
            .map_err(|err| format!("token response from {} is not understood: {err}", self.url))
    }
}

#[cfg(test)]
mod tests {
    use std::future::Future as _;

    use super::*;

    const SCHEMES: &[Scheme] = &[
        Scheme { name: "basicAuth", carrier: Carrier::Basic },
        Scheme { name: "bearerAuth", carrier: Carrier::Bearer },
        Scheme { name: "headerKey", carrier: Carrier::Header("X-API-Key") },
        Scheme { name: "queryKey", carrier: Carrier::Query("api_key") },
        Scheme { name: "cookieKey", carrier: Carrier::Cookie("session") },
        Scheme { name: "oauth", carrier: Carrier::ClientCredentials("/oauth/token") },
    ];

    const BASE: &str = "http://api.test/v2";

    fn sent(name: &str, credential: Credential) -> reqwest::Request {
        let url = "http://api.test/items?page=2".parse().unwrap();
        let mut request = reqwest::Request::new(reqwest::Method::GET, url);
        request.headers_mut().insert(COOKIE, HeaderValue::from_static("theme=dark"));
        let bound = Bound::new(SCHEMES, name, credential, "http://api.test/").unwrap();
        let http = reqwest::Client::new();
        // A fixed credential is ready at once: one poll applies it.
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        let applied = std::pin::pin!(bound.apply(&http, &mut request)).poll(&mut context);
        assert_eq!(applied, std::task::Poll::Ready(Ok(())));
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
        let unknown = Bound::new(SCHEMES, "basic", Credential::basic("a", "b"), BASE).unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "no operation requires a security scheme `basic`; the schemes are: \
             basicAuth, bearerAuth, headerKey, queryKey, cookieKey, oauth"
        );
        let wrong = Bound::new(SCHEMES, "basicAuth", Credential::token("t"), BASE).unwrap_err();
        assert!(matches!(wrong, CredentialError::WrongKind { .. }), "{wrong}");
        let wrong = Bound::new(SCHEMES, "headerKey", Credential::basic("a", "b"), BASE).unwrap_err();
        assert!(matches!(wrong, CredentialError::WrongKind { .. }), "{wrong}");
        let broken = Bound::new(SCHEMES, "headerKey", Credential::token("a\nb"), BASE).unwrap_err();
        assert!(matches!(broken, CredentialError::NotAHeaderValue { .. }), "{broken}");
        let flowless = Credential::client_credentials("id", "secret").into();
        let wrong = Bound::new(SCHEMES, "bearerAuth", flowless, BASE).unwrap_err();
        assert!(matches!(wrong, CredentialError::WrongKind { .. }), "{wrong}");
        let templated = Credential::client_credentials("id", "secret").token_url("https://{tenant}/token");
        let wrong = Bound::new(SCHEMES, "oauth", templated.into(), "not a base").unwrap_err();
        assert!(matches!(wrong, CredentialError::TokenUrl { .. }), "{wrong}");
    }

    /// A token endpoint answering each request with the next token of a
    /// short lifetime, and the form bodies it read.
    async fn token_endpoint() -> (String, Arc<std::sync::Mutex<Vec<String>>>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let bodies = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = Arc::clone(&bodies);
        tokio::spawn(async move {
            loop {
                let (mut socket, _) = listener.accept().await.unwrap();
                let mut request = Vec::new();
                let mut buffer = [0u8; 4096];
                let body = loop {
                    let read = socket.read(&mut buffer).await.unwrap();
                    assert!(read > 0, "the request ended early");
                    request.extend_from_slice(&buffer[..read]);
                    let text = String::from_utf8_lossy(&request).into_owned();
                    let Some((head, body)) = text.split_once("\r\n\r\n") else {
                        continue;
                    };
                    let length: usize = head
                        .lines()
                        .find_map(|line| line.to_ascii_lowercase().strip_prefix("content-length:").map(|n| n.trim().parse().unwrap()))
                        .unwrap_or(0);
                    if body.len() >= length {
                        break body.to_string();
                    }
                };
                let token = {
                    let mut seen = seen.lock().unwrap();
                    seen.push(body);
                    format!("t-{}", seen.len())
                };
                let json = format!(r#"{{"access_token":"{token}","token_type":"Bearer","expires_in":3600}}"#);
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{json}",
                    json.len()
                );
                socket.write_all(response.as_bytes()).await.unwrap();
            }
        });
        (format!("http://{address}/v2"), bodies)
    }

    #[tokio::test]
    async fn client_credentials_are_exchanged_once_for_a_cached_token() {
        let (base, bodies) = token_endpoint().await;
        let credential = Credential::client_credentials("app", "s&cret")
            .scope("read:notes")
            .param("audience", "https://api.test/");
        // The description's token URL, resolved against the base URL.
        let bound = Bound::new(SCHEMES, "oauth", credential.into(), &base).unwrap();
        let http = reqwest::Client::new();
        for _ in 0..3 {
            let mut request = reqwest::Request::new(reqwest::Method::GET, "http://api.test/".parse().unwrap());
            bound.apply(&http, &mut request).await.unwrap();
            assert_eq!(request.headers()[AUTHORIZATION], "Bearer t-1");
        }
        let bodies = bodies.lock().unwrap();
        assert_eq!(
            *bodies,
            ["grant_type=client_credentials&client_id=app&client_secret=s%26cret\
              &scope=read%3Anotes&audience=https%3A%2F%2Fapi.test%2F"]
        );
    }

    #[test]
    fn debug_output_keeps_secrets_out() {
        let shown = format!("{:?}", Credential::basic("ann", "hunter2"));
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(!format!("{:?}", Credential::token("t-secret")).contains("t-secret"));
    }
}
