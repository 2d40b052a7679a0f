//! Credentials (bearer tokens, other `Authorization` schemes, API keys) and
//! the types the generated `authorize` hook works with.

use std::borrow::Cow;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::errors::router_error_response;

/// Why a server's `authorize` hook refused a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthError {
    /// The token is not acceptable (invalid, expired, badly signed, wrong
    /// client): the caller gets 401 with this message.
    Unauthenticated(String),
    /// The token is valid but may not call the operation (for example a
    /// missing scope): the caller gets 403 with this message.
    Forbidden(String),
}

impl IntoResponse for AuthError {
    fn into_response(self) -> Response {
        match self {
            AuthError::Unauthenticated(message) => challenge(
                router_error_response(StatusCode::UNAUTHORIZED, message, "invalid_token"),
                Some("invalid_token"),
            ),
            AuthError::Forbidden(message) => challenge(
                router_error_response(StatusCode::FORBIDDEN, message, "insufficient_scope"),
                Some("insufficient_scope"),
            ),
        }
    }
}

/// Adds the `WWW-Authenticate: Bearer` challenge of RFC 6750 (section 3),
/// with its `error` code when the request carried a token.
fn challenge(mut response: Response, error: Option<&'static str>) -> Response {
    let value = match error {
        Some("invalid_request") => r#"Bearer error="invalid_request""#,
        Some("invalid_token") => r#"Bearer error="invalid_token""#,
        Some("insufficient_scope") => r#"Bearer error="insufficient_scope""#,
        _ => "Bearer",
    };
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        axum::http::HeaderValue::from_static(value),
    );
    response
}

/// What a server's `authorize` hook decides on.
#[derive(Debug, Clone, Copy)]
pub struct AuthorizationRequest<'a> {
    /// The credential: the bearer token of the `Authorization` header, what
    /// follows another scheme's name there (`Basic`: the base64 of
    /// `user:password`), or an API key as the request carries it.
    pub token: &'a str,
    /// The security scheme (its name under `components/securitySchemes`) the
    /// credential came by, for an API whose operations accept several kinds;
    /// empty where every scheme of the API takes a bearer token, the one
    /// kind its router reads.
    pub scheme: &'static str,
    /// The `operationId` of the operation being called.
    pub operation_id: &'static str,
    /// The OAuth 2.0 scopes the spec requires for the operation.
    pub required_scopes: &'static [&'static str],
    /// All request headers.
    pub headers: &'a HeaderMap,
}

impl<'a> AuthorizationRequest<'a> {
    /// The request to authorize a call of `operation_id`, or the 401 response
    /// when the headers carry no well-formed bearer token.
    pub fn from_headers(
        headers: &'a HeaderMap,
        operation_id: &'static str,
        required_scopes: &'static [&'static str],
    ) -> Result<Self, Response> {
        Ok(Self {
            token: bearer_token(headers)?,
            scheme: "",
            operation_id,
            required_scopes,
            headers,
        })
    }
}

/// Where a security scheme of the spec carries its credential.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CredentialIn {
    /// `Authorization: Bearer <token>`: an `http` scheme `bearer`, `oauth2`
    /// or `openIdConnect`.
    Bearer,
    /// `Authorization: <scheme> <credentials>` for another `http` scheme, by
    /// its name (`basic`, `digest`, ...).
    Http(&'static str),
    /// An `apiKey` in the named header: the whole value.
    Header(&'static str),
    /// An `apiKey` in the named query parameter, percent-decoded.
    Query(&'static str),
    /// An `apiKey` in the named cookie.
    Cookie(&'static str),
}

/// A security scheme an operation accepts: its name in the spec, where its
/// credential travels, and the scopes the operation requires with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecurityScheme {
    pub name: &'static str,
    pub credential: CredentialIn,
    pub scopes: &'static [&'static str],
}

/// The credential a request carries for one of the security schemes of an
/// operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credential<'a> {
    /// The scheme's name in the spec.
    pub scheme: &'static str,
    /// The credential's text.
    pub token: Cow<'a, str>,
    /// The scopes the operation requires with this scheme.
    pub scopes: &'static [&'static str],
}

impl<'a> Credential<'a> {
    /// The credential of the first of `schemes` (the operation's, in the
    /// spec's order) the request carries, or the 401 refusing a request that
    /// carries none. An `Authorization` header that names a scheme the
    /// operation accepts (`Bearer`, `Basic`) is that scheme's, before any API
    /// key read from the same header. `query` is the request's query string.
    pub fn find(
        headers: &'a HeaderMap,
        query: Option<&'a str>,
        schemes: &[SecurityScheme],
    ) -> Result<Self, Response> {
        let authorization = one_authorization(headers)?.and_then(|value| value.to_str().ok());
        let by_name = schemes
            .iter()
            .find_map(|scheme| Self::named_in_authorization(scheme, authorization));
        if let Some(found) = by_name {
            return Ok(found);
        }
        let api_key = schemes
            .iter()
            .find_map(|scheme| Self::api_key(headers, query, scheme).transpose());
        api_key.unwrap_or_else(|| {
            let wanted: Vec<String> = schemes.iter().map(|scheme| wanted(scheme.credential)).collect();
            Err(missing_credential(authorization.is_some(), schemes, &wanted.join(" or ")))
        })
    }

    /// The credentials of the first of an operation's security
    /// `requirements` (each the names of schemes needed together, in the
    /// spec's order) the request carries whole, read as [`Self::find`]
    /// reads each: the first, and the others. An `Authorization` header
    /// that names one of a requirement's schemes is that scheme's. The 401
    /// names what each requirement needs.
    pub fn find_together(
        headers: &'a HeaderMap,
        query: Option<&'a str>,
        schemes: &[SecurityScheme],
        requirements: &[&[&str]],
    ) -> Result<(Self, Vec<Self>), Response> {
        let authorization = one_authorization(headers)?.and_then(|value| value.to_str().ok());
        'requirements: for requirement in requirements {
            let mut found = Vec::with_capacity(requirement.len());
            for name in *requirement {
                let Some(scheme) = schemes.iter().find(|scheme| scheme.name == *name) else {
                    continue 'requirements;
                };
                let credential = match Self::named_in_authorization(scheme, authorization) {
                    Some(credential) => credential,
                    None => match Self::api_key(headers, query, scheme)? {
                        Some(credential) => credential,
                        None => continue 'requirements,
                    },
                };
                found.push(credential);
            }
            let mut found = found.into_iter();
            if let Some(first) = found.next() {
                return Ok((first, found.collect()));
            }
        }
        let wanted: Vec<String> = requirements
            .iter()
            .map(|requirement| {
                requirement
                    .iter()
                    .filter_map(|name| schemes.iter().find(|scheme| scheme.name == *name))
                    .map(|scheme| wanted(scheme.credential))
                    .collect::<Vec<_>>()
                    .join(" and ")
            })
            .collect();
        Err(missing_credential(authorization.is_some(), schemes, &wanted.join(", or ")))
    }

    /// The credential of `scheme` when it travels in `Authorization` and
    /// the request's header names it.
    fn named_in_authorization(
        scheme: &SecurityScheme,
        authorization: Option<&'a str>,
    ) -> Option<Self> {
        let token = match (scheme.credential, authorization) {
            (CredentialIn::Bearer, Some(value)) => parse_bearer(value),
            (CredentialIn::Http(name), Some(value)) => parse_http(value, name),
            _ => None,
        }?;
        Some(Self {
            scheme: scheme.name,
            token: Cow::Borrowed(token),
            scopes: scheme.scopes,
        })
    }

    /// The API key of `scheme` where it travels (a header, the query, a
    /// cookie), if the request carries one; the 400 for a header given
    /// twice.
    fn api_key(
        headers: &'a HeaderMap,
        query: Option<&'a str>,
        scheme: &SecurityScheme,
    ) -> Result<Option<Self>, Response> {
        let token = match scheme.credential {
            CredentialIn::Header(name) => {
                if headers.get_all(name).iter().nth(1).is_some() {
                    return Err(repeated_credential(name));
                }
                headers
                    .get(name)
                    .and_then(|value| value.to_str().ok())
                    .map(Cow::Borrowed)
            }
            CredentialIn::Query(name) => query.and_then(|query| {
                form_urlencoded::parse(query.as_bytes())
                    .find_map(|(key, value)| (key == name).then_some(value))
            }),
            CredentialIn::Cookie(name) => cookie(headers, name).map(Cow::Borrowed),
            CredentialIn::Bearer | CredentialIn::Http(_) => None,
        };
        Ok(token.filter(|token| !token.is_empty()).map(|token| Self {
            scheme: scheme.name,
            token,
            scopes: scheme.scopes,
        }))
    }

    /// The request `authorize` decides on, carrying this credential and the
    /// scopes required with it.
    pub fn authorization_request<'r>(
        &'r self,
        headers: &'r HeaderMap,
        operation_id: &'static str,
    ) -> AuthorizationRequest<'r> {
        AuthorizationRequest {
            token: &self.token,
            scheme: self.scheme,
            operation_id,
            required_scopes: self.scopes,
            headers,
        }
    }
}

/// Whether the request carries anything one of `schemes` reads as its
/// credential, well-formed or not: an operation that may also be called
/// without one (an empty security requirement) authenticates the request
/// when it does, and lets it through with no caller when it does not.
/// `query` is the request's query string.
pub fn carries_credential(
    headers: &HeaderMap,
    query: Option<&str>,
    schemes: &[SecurityScheme],
) -> bool {
    schemes.iter().any(|scheme| match scheme.credential {
        CredentialIn::Bearer | CredentialIn::Http(_) => {
            headers.contains_key(header::AUTHORIZATION)
        }
        CredentialIn::Header(name) => headers.contains_key(name),
        CredentialIn::Query(name) => query.is_some_and(|query| {
            form_urlencoded::parse(query.as_bytes()).any(|(key, _)| key == name)
        }),
        CredentialIn::Cookie(name) => cookie(headers, name).is_some(),
    })
}

/// The request's one `Authorization` header, if any. Two are refused rather
/// than one of them served: a proxy, a rate limiter or a log in front of the
/// server may have read the other, and the caller would be whoever the
/// server picked.
fn one_authorization(headers: &HeaderMap) -> Result<Option<&HeaderValue>, Response> {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let first = values.next();
    if values.next().is_some() {
        return Err(repeated_credential("Authorization"));
    }
    Ok(first)
}

/// The 400 for a request carrying the credential header `name` twice, with
/// RFC 6750's challenge when that header is `Authorization`.
fn repeated_credential(name: &str) -> Response {
    let refusal = router_error_response(
        StatusCode::BAD_REQUEST,
        format!("The request carries more than one {name} header; send exactly one"),
        "invalid_request",
    );
    if name.eq_ignore_ascii_case("authorization") {
        challenge(refusal, Some("invalid_request"))
    } else {
        refusal
    }
}

/// What follows `scheme` (case-insensitive) in an `Authorization` value.
fn parse_http<'v>(value: &'v str, scheme: &str) -> Option<&'v str> {
    let (name, credentials) = value.split_once(' ')?;
    let credentials = credentials.trim();
    (name.eq_ignore_ascii_case(scheme) && !credentials.is_empty()).then_some(credentials)
}

/// The value of cookie `name` among the request's `Cookie` headers.
fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .find_map(|pair| {
            let (key, value) = pair.trim().split_once('=')?;
            (key == name).then(|| value.trim_matches('"'))
        })
}

/// The 401 for a request carrying no credential `schemes` accept, naming
/// them; with the challenge of each HTTP scheme among them. An
/// `Authorization` header no scheme reads is malformed (bearer tokens
/// refused as RFC 6750 says).
fn missing_credential(
    has_authorization: bool,
    schemes: &[SecurityScheme],
    wanted: &str,
) -> Response {
    let reads_authorization = schemes.iter().any(|scheme| {
        matches!(scheme.credential, CredentialIn::Header(name) if name.eq_ignore_ascii_case("authorization"))
    });
    let malformed = has_authorization && !reads_authorization;
    let (message, code) = if malformed {
        (
            format!("Bad HTTP authentication header format: expected {wanted}"),
            "malformed_token",
        )
    } else {
        (format!("Missing authentication: send {wanted}"), "missing_token")
    };
    let mut response = router_error_response(StatusCode::UNAUTHORIZED, message, code);
    let challenges: Vec<String> = schemes
        .iter()
        .filter_map(|scheme| match scheme.credential {
            CredentialIn::Bearer if malformed => {
                Some(r#"Bearer error="invalid_request""#.to_string())
            }
            CredentialIn::Bearer => Some("Bearer".to_string()),
            CredentialIn::Http(name) if name.eq_ignore_ascii_case("basic") => {
                Some(r#"Basic realm="api""#.to_string())
            }
            CredentialIn::Http(name) => Some(title_case(name)),
            _ => None,
        })
        .collect();
    if let Ok(value) = axum::http::HeaderValue::from_str(&challenges.join(", "))
        && !challenges.is_empty()
    {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// What a request sends for a scheme whose credential travels `carried`.
fn wanted(carried: CredentialIn) -> String {
    match carried {
        CredentialIn::Bearer => "an Authorization: Bearer <token> header".to_string(),
        CredentialIn::Http(name) => format!(
            "an Authorization: {} <credentials> header",
            title_case(name)
        ),
        CredentialIn::Header(name) => format!("a {name} header"),
        CredentialIn::Query(name) => format!("a `{name}` query parameter"),
        CredentialIn::Cookie(name) => format!("a `{name}` cookie"),
    }
}

/// `basic` as `Basic`.
fn title_case(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + &chars.as_str().to_ascii_lowercase())
        .unwrap_or_default()
}

/// What every operation receives besides its parameters and body.
#[derive(Debug, Clone)]
pub struct RequestContext<C> {
    /// The caller, as verified by the server's `authorize` hook.
    pub caller: C,
    /// The request headers.
    pub headers: HeaderMap,
    /// The request extensions: what the layers in front of the router
    /// attached (a request id, a span, a tenant), and what axum keeps there
    /// (the matched path, the connection's address when served with it).
    pub extensions: axum::http::Extensions,
    /// The operation the request is for.
    pub operation: &'static crate::Served,
}

impl<C> RequestContext<C> {
    /// Whether the request's `Accept` names `media_type` itself (not by a
    /// range such as `*/*`), with a quality above zero: how an operation
    /// answering JSON or a stream for one status tells which the client
    /// asked for (the generated client's `send_stream` asks for the
    /// stream).
    pub fn accepts(&self, media_type: &str) -> bool {
        self.headers
            .get_all(axum::http::header::ACCEPT)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .any(|range| {
                let mut parts = range.split(';');
                let essence = parts.next().unwrap_or_default().trim();
                let refused = parts.any(|parameter| {
                    parameter
                        .trim()
                        .strip_prefix("q=")
                        .and_then(|quality| quality.trim().parse::<f32>().ok())
                        == Some(0.0)
                });
                essence.eq_ignore_ascii_case(media_type) && !refused
            })
    }

    /// The `Last-Event-ID` header: the id of the last event a client
    /// reconnecting to an event stream received, to resume after.
    pub fn last_event_id(&self) -> Option<&str> {
        self.headers
            .get("last-event-id")
            .and_then(|value| value.to_str().ok())
    }
}

/// The token of an `Authorization` header value `Bearer <token>`. The scheme
/// is case-insensitive (RFC 7235); `None` when the value is not of that form.
/// Anything that keys on the caller (a rate limiter, a log) must use this
/// same parser, or a differently spelled header would slip past it.
pub fn parse_bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() && !token.contains(' '))
        .then_some(token)
}

/// The token of the request's `Authorization: Bearer <token>` header, or the
/// 401 response naming what is wrong with it.
pub fn bearer_token(headers: &HeaderMap) -> Result<&str, Response> {
    let Some(value) = one_authorization(headers)? else {
        // No credentials at all: the challenge carries no error code.
        return Err(challenge(
            router_error_response(
                StatusCode::UNAUTHORIZED,
                "Missing authentication: send an Authorization: Bearer <token> header",
                "missing_token",
            ),
            None,
        ));
    };
    value.to_str().ok().and_then(parse_bearer).ok_or_else(|| {
        challenge(
            router_error_response(
                StatusCode::UNAUTHORIZED,
                "Bad HTTP authentication header format: expected Authorization: Bearer <token>",
                "malformed_token",
            ),
            Some("invalid_request"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(authorization: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(value) = authorization {
            headers.insert(header::AUTHORIZATION, HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    fn context(pairs: &[(&'static str, &'static str)]) -> RequestContext<()> {
        static SERVED: crate::Served = crate::Served {
            id: "follow",
            method: "GET",
            route: "/follow",
            body_limit: None,
        };
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, HeaderValue::from_static(value));
        }
        RequestContext {
            caller: (),
            headers,
            extensions: Default::default(),
            operation: &SERVED,
        }
    }

    #[test]
    fn accept_names_a_media_type_itself_with_a_quality_above_zero() {
        let asked = |accept: &'static str| context(&[("accept", accept)]).accepts("text/event-stream");
        assert!(asked("text/event-stream"));
        assert!(asked("application/json, Text/Event-Stream;q=0.5"));
        assert!(!asked("*/*"));
        assert!(!asked("text/*"));
        assert!(!asked("text/event-stream;q=0"));
        assert!(!asked("application/json"));
        assert!(!context(&[]).accepts("text/event-stream"));
        let two_headers = context(&[("accept", "application/json"), ("accept", "text/event-stream")]);
        assert!(two_headers.accepts("text/event-stream"));
    }

    #[test]
    fn the_last_event_id_is_the_reconnecting_clients() {
        assert_eq!(context(&[("last-event-id", "41")]).last_event_id(), Some("41"));
        assert_eq!(context(&[]).last_event_id(), None);
    }

    #[test]
    fn a_credential_is_carried_where_one_of_the_schemes_reads_it() {
        const SCHEMES: &[SecurityScheme] = &[
            SecurityScheme {
                name: "key",
                credential: CredentialIn::Query("api_key"),
                scopes: &[],
            },
            SecurityScheme {
                name: "session",
                credential: CredentialIn::Cookie("session"),
                scopes: &[],
            },
            SecurityScheme {
                name: "basic",
                credential: CredentialIn::Http("basic"),
                scopes: &[],
            },
        ];
        assert!(!carries_credential(&headers(None), None, SCHEMES));
        assert!(!carries_credential(&headers(None), Some("api_keys=1&x=2"), SCHEMES));
        assert!(carries_credential(&headers(None), Some("x=2&api_key="), SCHEMES));
        // Malformed still counts: the request tried, and is refused.
        assert!(carries_credential(&headers(Some("Basic")), None, SCHEMES));
        let mut cookies = headers(None);
        cookies.insert(header::COOKIE, HeaderValue::from_static("theme=dark"));
        assert!(!carries_credential(&cookies, None, SCHEMES));
        cookies.insert(header::COOKIE, HeaderValue::from_static("theme=dark; session=s"));
        assert!(carries_credential(&cookies, None, SCHEMES));
        assert!(!carries_credential(&headers(Some("Bearer t")), None, &SCHEMES[..2]));
    }

    #[test]
    fn a_requirement_of_several_schemes_takes_each_of_their_credentials() {
        const SCHEMES: &[SecurityScheme] = &[
            SecurityScheme {
                name: "key",
                credential: CredentialIn::Header("x-key"),
                scopes: &[],
            },
            SecurityScheme {
                name: "session",
                credential: CredentialIn::Cookie("session"),
                scopes: &[],
            },
            SecurityScheme {
                name: "bearer",
                credential: CredentialIn::Bearer,
                scopes: &["read"],
            },
        ];
        const REQUIREMENTS: &[&[&str]] = &[&["key", "session"], &["bearer"]];
        let mut keyed = headers(None);
        keyed.insert("x-key", HeaderValue::from_static("k"));
        let refused = Credential::find_together(&keyed, None, SCHEMES, REQUIREMENTS).unwrap_err();
        assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
        let message = json_body(refused)["message"].as_str().unwrap().to_string();
        assert!(
            message.contains(
                "a x-key header and a `session` cookie, or an Authorization: Bearer <token> header"
            ),
            "{message}"
        );
        keyed.insert(header::COOKIE, HeaderValue::from_static("session=s"));
        let (first, others) =
            Credential::find_together(&keyed, None, SCHEMES, REQUIREMENTS).unwrap();
        assert_eq!((first.scheme, &*first.token), ("key", "k"));
        let others: Vec<_> = others.iter().map(|found| (found.scheme, &*found.token)).collect();
        assert_eq!(others, [("session", "s")]);
        let bearer = headers(Some("Bearer t"));
        let (first, others) =
            Credential::find_together(&bearer, None, SCHEMES, REQUIREMENTS).unwrap();
        assert_eq!((first.scheme, &*first.token, first.scopes), ("bearer", "t", &["read"][..]));
        assert!(others.is_empty());
    }

    fn error_code(response: Response) -> (StatusCode, String) {
        let status = response.status();
        let body = json_body(response);
        (status, body["errorCode"].as_str().unwrap().to_string())
    }

    fn json_body(response: Response) -> serde_json::Value {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap();
            serde_json::from_slice(&bytes).unwrap()
        })
    }

    #[test]
    fn the_scheme_is_case_insensitive() {
        for value in ["Bearer abc", "bearer abc", "BEARER abc", "Bearer   abc  "] {
            assert_eq!(parse_bearer(value), Some("abc"), "{value:?}");
        }
    }

    #[test]
    fn other_schemes_and_malformed_values_are_refused() {
        for value in [
            "Basic abc",
            "Bearer",
            "Bearer ",
            "Bearer a b",
            "Bearerabc",
            "abc",
        ] {
            assert_eq!(parse_bearer(value), None, "{value:?}");
        }
    }

    #[test]
    fn a_missing_header_is_told_apart_from_a_malformed_one() {
        assert_eq!(bearer_token(&headers(Some("Bearer t"))).ok(), Some("t"));
        let missing = bearer_token(&headers(None)).unwrap_err();
        assert_eq!(
            error_code(missing),
            (StatusCode::UNAUTHORIZED, "missing_token".to_string())
        );
        let malformed = bearer_token(&headers(Some("Token t"))).unwrap_err();
        assert_eq!(
            error_code(malformed),
            (StatusCode::UNAUTHORIZED, "malformed_token".to_string())
        );
    }

    #[test]
    fn refusals_carry_the_bearer_challenge_of_rfc_6750() {
        let challenge_of = |response: Response| {
            response.headers()[header::WWW_AUTHENTICATE]
                .to_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(
            challenge_of(bearer_token(&headers(None)).unwrap_err()),
            "Bearer"
        );
        assert_eq!(
            challenge_of(bearer_token(&headers(Some("Basic x"))).unwrap_err()),
            r#"Bearer error="invalid_request""#
        );
        assert_eq!(
            challenge_of(AuthError::Unauthenticated("expired".into()).into_response()),
            r#"Bearer error="invalid_token""#
        );
        assert_eq!(
            challenge_of(AuthError::Forbidden("scope".into()).into_response()),
            r#"Bearer error="insufficient_scope""#
        );
    }

    #[test]
    fn auth_errors_become_401_and_403() {
        let unauthenticated = AuthError::Unauthenticated("expired".into()).into_response();
        assert_eq!(
            error_code(unauthenticated),
            (StatusCode::UNAUTHORIZED, "invalid_token".to_string())
        );
        let forbidden = AuthError::Forbidden("no scope".into()).into_response();
        assert_eq!(
            error_code(forbidden),
            (StatusCode::FORBIDDEN, "insufficient_scope".to_string())
        );
    }

    const DISCORD: &[SecurityScheme] = &[
        SecurityScheme {
            name: "BotToken",
            credential: CredentialIn::Header("Authorization"),
            scopes: &[],
        },
        SecurityScheme {
            name: "OAuth2",
            credential: CredentialIn::Bearer,
            scopes: &["identify"],
        },
    ];

    const KEYS: &[SecurityScheme] = &[
        SecurityScheme {
            name: "basic",
            credential: CredentialIn::Http("basic"),
            scopes: &[],
        },
        SecurityScheme {
            name: "header",
            credential: CredentialIn::Header("api-key"),
            scopes: &[],
        },
        SecurityScheme {
            name: "query",
            credential: CredentialIn::Query("key"),
            scopes: &[],
        },
        SecurityScheme {
            name: "cookie",
            credential: CredentialIn::Cookie("session"),
            scopes: &[],
        },
    ];

    fn found(
        headers: &HeaderMap,
        query: Option<&str>,
        schemes: &[SecurityScheme],
    ) -> (String, String) {
        let credential = Credential::find(headers, query, schemes).unwrap();
        (credential.scheme.to_string(), credential.token.into_owned())
    }

    fn pair(scheme: &str, token: &str) -> (String, String) {
        (scheme.to_string(), token.to_string())
    }

    #[test]
    fn an_authorization_header_goes_to_the_scheme_it_names_first() {
        let bot = headers(Some("Bot abc"));
        assert_eq!(found(&bot, None, DISCORD), pair("BotToken", "Bot abc"));
        let bearer = headers(Some("Bearer abc"));
        assert_eq!(found(&bearer, None, DISCORD), pair("OAuth2", "abc"));
        let basic = headers(Some("basic dXNlcjpwdw=="));
        assert_eq!(found(&basic, None, KEYS), pair("basic", "dXNlcjpwdw=="));
    }

    #[test]
    fn api_keys_come_from_a_header_the_query_or_a_cookie() {
        let mut keyed = HeaderMap::new();
        keyed.insert("api-key", HeaderValue::from_static("k1"));
        assert_eq!(found(&keyed, Some("key=k2"), KEYS), pair("header", "k1"));
        let none = HeaderMap::new();
        assert_eq!(
            found(&none, Some("a=1&key=k%202"), KEYS),
            pair("query", "k 2")
        );
        let mut cookies = HeaderMap::new();
        cookies.append(header::COOKIE, HeaderValue::from_static("theme=dark"));
        cookies.append(
            header::COOKIE,
            HeaderValue::from_static("a=b; session=\"s3\""),
        );
        assert_eq!(found(&cookies, Some("other=1"), KEYS), pair("cookie", "s3"));
    }

    #[test]
    fn a_credential_header_given_twice_is_refused_whichever_reads_it() {
        let mut twice = headers(Some("Bearer first"));
        twice.append(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer second"),
        );
        let refused = [
            bearer_token(&twice).unwrap_err(),
            Credential::find(&twice, None, DISCORD).unwrap_err(),
        ];
        let mut keys = HeaderMap::new();
        keys.append("api-key", HeaderValue::from_static("k1"));
        keys.append("api-key", HeaderValue::from_static("k2"));
        let refused_keys = Credential::find(&keys, None, KEYS).unwrap_err();
        for (response, name) in refused
            .into_iter()
            .map(|response| (response, "Authorization"))
            .chain([(refused_keys, "api-key")])
        {
            assert_eq!(response.status(), StatusCode::BAD_REQUEST);
            let challenge = response.headers().get(header::WWW_AUTHENTICATE);
            assert_eq!(
                challenge.is_some_and(|value| value == r#"Bearer error="invalid_request""#),
                name == "Authorization"
            );
            let body = json_body(response);
            assert_eq!(body["errorCode"], "invalid_request");
            assert_eq!(
                body["message"],
                format!("The request carries more than one {name} header; send exactly one")
            );
        }
    }

    #[test]
    fn a_request_without_an_accepted_credential_gets_401() {
        let none = HeaderMap::new();
        let refused = Credential::find(&none, Some("key="), KEYS).unwrap_err();
        assert_eq!(
            refused.headers()[header::WWW_AUTHENTICATE],
            r#"Basic realm="api""#
        );
        let body = json_body(refused);
        assert_eq!(body["errorCode"], "missing_token");
        let message = body["message"].as_str().unwrap();
        assert!(message.contains("a `key` query parameter"), "{message}");
        assert!(message.contains("a `session` cookie"), "{message}");

        // An `Authorization` header no scheme reads is malformed; one an API
        // key is read from is the key.
        let other = headers(Some("Token abc"));
        let malformed = Credential::find(&other, None, KEYS).unwrap_err();
        assert_eq!(
            error_code(malformed),
            (StatusCode::UNAUTHORIZED, "malformed_token".into())
        );
        assert_eq!(found(&other, None, DISCORD), pair("BotToken", "Token abc"));
        let bearer_only = &DISCORD[1..];
        let refused = Credential::find(&other, None, bearer_only).unwrap_err();
        assert_eq!(
            refused.headers()[header::WWW_AUTHENTICATE],
            r#"Bearer error="invalid_request""#
        );
    }

    #[test]
    fn authorization_requests_carry_the_token_and_the_operation() {
        let headers = headers(Some("Bearer tok"));
        let request =
            AuthorizationRequest::from_headers(&headers, "get_thing", &["read:things"]).unwrap();
        assert_eq!(request.token, "tok");
        assert_eq!(request.operation_id, "get_thing");
        assert_eq!(request.required_scopes, ["read:things"]);

        let bot = super::tests::headers(Some("Bot abc"));
        let credential = Credential::find(&bot, None, DISCORD).unwrap();
        let request = credential.authorization_request(&bot, "get_thing");
        assert_eq!((request.token, request.scheme), ("Bot abc", "BotToken"));
        assert!(
            request.required_scopes.is_empty(),
            "the scopes are OAuth2's"
        );
        let bearer = super::tests::headers(Some("Bearer xyz"));
        let credential = Credential::find(&bearer, None, DISCORD).unwrap();
        let request = credential.authorization_request(&bearer, "get_thing");
        assert_eq!(request.required_scopes, ["identify"]);
    }
}
