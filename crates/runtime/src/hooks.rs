//! How a generated client sends its requests, as one extension point.
//!
//! A generated `Client::new` takes a [`Hooks`]; `Hooks::default()` sends
//! each request once, exactly as built, and `Client::builder` starts from
//! [`ClientBuilder`]'s production defaults (timeouts and retries). A
//! [`Transport`] can add credentials or change how requests are sent, for
//! every operation at once, without touching generated code. Every call
//! runs in a `tracing` span carrying OpenTelemetry's HTTP client fields, so
//! `tracing-opentelemetry` exports it as it is. (The client crate implements
//! progenitor's `ClientHooks` for its `Client` with these.)

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use tracing::Instrument;

use crate::credentials::{Bound, Credential, CredentialError, Scheme};
use crate::retry::{Outcome, RetryPolicy, is_idempotent};
use crate::timeouts::Timeouts;

/// A boxed future, as [`Transport`]'s methods return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Sends the client's requests. Both methods have defaults that do nothing
/// special, so an implementation overrides only what it needs.
pub trait Transport: Send + Sync + std::fmt::Debug + 'static {
    /// Runs before `request` is sent: add credentials here. An error stops
    /// the call (progenitor's `Error::Custom`).
    fn prepare<'a>(
        &'a self,
        request: &'a mut reqwest::Request,
        operation_id: &'static str,
    ) -> BoxFuture<'a, Result<(), String>> {
        let _ = (request, operation_id);
        Box::pin(async { Ok(()) })
    }

    /// Sends one attempt of `request` with `http` and returns the response
    /// the operation interprets (a mock, a recorder, a proxy). [`Hooks`]
    /// retries around it, after `prepare` again.
    fn execute<'a>(
        &'a self,
        http: &'a reqwest::Client,
        request: reqwest::Request,
        operation_id: &'static str,
    ) -> BoxFuture<'a, reqwest::Result<reqwest::Response>> {
        let _ = operation_id;
        Box::pin(http.execute(request))
    }
}

/// What a generated client knows of each operation besides the request:
/// its table of these is what [`Hooks`] names spans and judges retries by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operation {
    /// The client method's name (progenitor's `operation_id`).
    pub id: &'static str,
    /// The path template, relative to the base URL (`/pets/{id}`).
    pub route: &'static str,
    /// Whether the description marks the operation `x-idempotent`, so that
    /// it is retried like a `PUT` whatever its method.
    pub idempotent: bool,
    /// The security requirements that satisfy the operation, in the
    /// description's order, each the names of the schemes it needs
    /// together; empty when it is public.
    pub security: &'static [&'static [&'static str]],
}

impl Operation {
    /// The entry for `id` in `table`, sorted by id as generated clients
    /// write it; an unknown `id` gets an entry without a route.
    pub fn find(table: &'static [Operation], id: &'static str) -> Operation {
        match table.binary_search_by(|operation| operation.id.cmp(id)) {
            Ok(at) => table[at],
            Err(_) => Operation {
                id,
                route: "",
                idempotent: false,
                security: &[],
            },
        }
    }
}

/// The client's hooks: an optional [`Transport`] and a [`RetryPolicy`].
/// `Hooks::default()` has neither: each request is sent once, exactly as
/// built. Either way each call runs in a `tracing` span.
#[derive(Clone, Debug)]
pub struct Hooks {
    transport: Option<Arc<dyn Transport>>,
    retry: RetryPolicy,
    credentials: Arc<[Bound]>,
}

impl Default for Hooks {
    fn default() -> Self {
        Self {
            transport: None,
            retry: RetryPolicy::disabled(),
            credentials: Arc::new([]),
        }
    }
}

impl Hooks {
    /// Hooks that send every request through `transport`, once.
    pub fn with_transport(transport: impl Transport) -> Self {
        Self {
            transport: Some(Arc::new(transport)),
            ..Self::default()
        }
    }

    /// These hooks, retrying failed requests by `policy`.
    pub fn with_retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// The transport, if one was given.
    pub fn transport(&self) -> Option<&dyn Transport> {
        self.transport.as_deref()
    }

    /// The retry policy.
    pub fn retry_policy(&self) -> RetryPolicy {
        self.retry
    }

    /// Adds the credentials of the first of the operation's requirements
    /// the hooks hold every credential of, then runs the transport's
    /// `prepare` on `request`, if there is a transport.
    pub async fn prepare(
        &self,
        http: &reqwest::Client,
        request: &mut reqwest::Request,
        operation: Operation,
    ) -> Result<(), String> {
        for credential in self.credentials_for(operation) {
            credential.apply(http, request).await?;
        }
        match &self.transport {
            Some(transport) => transport.prepare(request, operation.id).await,
            None => Ok(()),
        }
    }

    /// Binds `credential` to the scheme named `scheme` among `schemes` (a
    /// generated client's `GeneratedClient::SCHEMES`), for a client of the
    /// API at `base_url`, against which a relative token URL resolves.
    pub fn with_credential(
        mut self,
        schemes: &[Scheme],
        scheme: &str,
        credential: impl Into<Credential>,
        base_url: &str,
    ) -> Result<Self, CredentialError> {
        let bound = Bound::new(schemes, scheme, credential.into(), base_url)?;
        let mut credentials: Vec<Bound> = self.credentials.iter().filter(|held| held.name() != bound.name()).cloned().collect();
        credentials.push(bound);
        self.credentials = credentials.into();
        Ok(self)
    }

    /// The credentials of the first of the operation's requirements these
    /// hooks hold every credential of; none when they hold no requirement
    /// whole (the server then says what is missing).
    fn credentials_for(&self, operation: Operation) -> Vec<&Bound> {
        let held = |scheme: &&str| self.credentials.iter().find(|bound| bound.name() == *scheme);
        operation
            .security
            .iter()
            .find_map(|requirement| requirement.iter().map(held).collect::<Option<Vec<_>>>())
            .unwrap_or_default()
    }

    /// Sends `request` with `http` (through the transport, if there is
    /// one), retrying it by the policy, in a span named for `operation`
    /// with OpenTelemetry's HTTP client fields.
    pub async fn execute(
        &self,
        http: &reqwest::Client,
        request: reqwest::Request,
        operation: Operation,
    ) -> reqwest::Result<reqwest::Response> {
        let span = tracing::info_span!(
            "http.client.request",
            otel.name = %format_args!("{} {}", request.method(), operation.route),
            otel.kind = "client",
            otel.status_code = tracing::field::Empty,
            operation.id = operation.id,
            http.request.method = %request.method(),
            http.route = operation.route,
            url.full = %request.url(),
            http.response.status_code = tracing::field::Empty,
            http.request.resend_count = tracing::field::Empty,
            error.type = tracing::field::Empty,
        );
        #[cfg(feature = "opentelemetry")]
        let request = {
            let mut request = request;
            crate::propagation::inject(&span, request.headers_mut());
            request
        };
        let sent = self.send(http, request, operation, &span).instrument(span.clone()).await;
        match &sent {
            Ok(response) => {
                span.record("http.response.status_code", response.status().as_u16());
                if response.status().is_client_error() || response.status().is_server_error() {
                    span.record("error.type", response.status().as_str());
                    span.record("otel.status_code", "ERROR");
                }
            }
            Err(error) => {
                span.record("error.type", error_kind(error));
                span.record("otel.status_code", "ERROR");
            }
        }
        sent
    }

    async fn send(
        &self,
        http: &reqwest::Client,
        mut request: reqwest::Request,
        operation: Operation,
        span: &tracing::Span,
    ) -> reqwest::Result<reqwest::Response> {
        let idempotent = operation.idempotent || is_idempotent(request.method(), request.headers());
        let mut backoff = self.retry.backoff();
        let mut resends = 0u32;
        loop {
            // A body that cannot be replayed (a stream) gets one attempt.
            let replay = if self.retry.max_attempts > 1 { request.try_clone() } else { None };
            let sent = match &self.transport {
                Some(transport) => transport.execute(http, request, operation.id).await,
                None => http.execute(request).await,
            };
            let outcome = match &sent {
                Ok(response) => Outcome::Status(response.status()),
                Err(error) => Outcome::of_error(error),
            };
            let Some(mut next) = replay.filter(|_| RetryPolicy::is_retryable(outcome, idempotent)) else {
                return sent;
            };
            let Some(backoff) = backoff.next() else {
                return sent;
            };
            let wait = self.retry.wait(sent.as_ref().ok().map(reqwest::Response::headers), backoff);
            tracing::debug!(?outcome, wait_ms = wait.as_millis() as u64, "retrying");
            // The connection goes back to the pool (or closes) before the wait.
            drop(sent);
            tokio::time::sleep(wait).await;
            // A token may have expired during the wait. (A credential in the
            // query or a cookie is still in the copy, and would be doubled.)
            for credential in self.credentials_for(operation) {
                if credential.in_header()
                    && let Err(error) = credential.apply(http, &mut next).await
                {
                    tracing::warn!(error = %error, "could not renew the credential before retrying");
                }
            }
            if let Some(transport) = &self.transport
                && let Err(error) = transport.prepare(&mut next, operation.id).await
            {
                tracing::warn!(error = %error, "could not prepare the request again before retrying");
            }
            resends += 1;
            span.record("http.request.resend_count", resends);
            request = next;
        }
    }
}

/// OpenTelemetry's `error.type` of a failed exchange.
fn error_kind(error: &reqwest::Error) -> &'static str {
    if error.is_timeout() {
        "timeout"
    } else if error.is_connect() {
        "connect"
    } else if error.is_body() || error.is_decode() {
        "body"
    } else if error.is_redirect() {
        "redirect"
    } else {
        "request"
    }
}

/// A generated `Client`, as [`ClientBuilder`] builds it.
pub trait GeneratedClient: Sized {
    /// The security schemes the description's operations require.
    const SCHEMES: &'static [Scheme];

    /// The client of the API at `baseurl`, with `hooks` and `timeouts`
    /// (the generated `Client::with_timeouts`).
    fn with_timeouts(baseurl: &str, hooks: Hooks, timeouts: Timeouts) -> Self;
}

/// Builds a generated client from production defaults: the default
/// [`Timeouts`] (15 s to connect, 60 s between reads, no total) and the
/// default [`RetryPolicy`] (four attempts of what cannot apply twice).
/// `Client::builder(baseurl)` starts one.
#[derive(Debug)]
pub struct ClientBuilder<C> {
    baseurl: String,
    hooks: Hooks,
    timeouts: Timeouts,
    credentials: Vec<(String, Credential)>,
    client: std::marker::PhantomData<fn() -> C>,
}

impl<C: GeneratedClient> ClientBuilder<C> {
    /// A builder of the client of the API at `baseurl`.
    pub fn new(baseurl: impl Into<String>) -> Self {
        Self {
            baseurl: baseurl.into(),
            hooks: Hooks::default().with_retry(RetryPolicy::default()),
            timeouts: Timeouts::default(),
            credentials: Vec::new(),
            client: std::marker::PhantomData,
        }
    }

    /// Sets the connections' timeouts.
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }

    /// Sets the retry policy; [`RetryPolicy::disabled`] sends each request once.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.hooks.retry = policy;
        self
    }

    /// Sends every request through `transport` (credentials, say).
    pub fn transport(mut self, transport: impl Transport) -> Self {
        self.hooks.transport = Some(Arc::new(transport));
        self
    }

    /// Sends `credential` on the operations that require the security
    /// scheme named `scheme` (its name under `components/securitySchemes`);
    /// given again for one scheme, the last one counts.
    pub fn credential(mut self, scheme: impl Into<String>, credential: impl Into<Credential>) -> Self {
        self.credentials.push((scheme.into(), credential.into()));
        self
    }

    /// The client, or why a credential does not fit its scheme.
    pub fn build(self) -> Result<C, CredentialError> {
        let mut hooks = self.hooks;
        for (scheme, credential) in self.credentials {
            hooks = hooks.with_credential(C::SCHEMES, &scheme, credential, &self.baseurl)?;
        }
        Ok(C::with_timeouts(&self.baseurl, hooks, self.timeouts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Tagging;

    impl Transport for Tagging {
        fn prepare<'a>(
            &'a self,
            request: &'a mut reqwest::Request,
            operation_id: &'static str,
        ) -> BoxFuture<'a, Result<(), String>> {
            let value = reqwest::header::HeaderValue::from_static(operation_id);
            request.headers_mut().insert("x-operation", value);
            Box::pin(async { Ok(()) })
        }
    }

    #[test]
    fn a_transport_overrides_only_what_it_needs() {
        assert!(Hooks::default().transport().is_none());
        let hooks = Hooks::with_transport(Tagging);
        let transport = hooks.transport().expect("given");
        let url = "http://api.test/".parse().unwrap();
        let mut request = reqwest::Request::new(reqwest::Method::GET, url);
        // The default and this `prepare` are ready at once: one poll runs them.
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        let prepared = transport.prepare(&mut request, "listItems").as_mut().poll(&mut context);
        assert_eq!(prepared, std::task::Poll::Ready(Ok(())));
        assert_eq!(request.headers()["x-operation"], "listItems");
    }

    /// A server answering every request `status`, and the count of the
    /// requests it read.
    async fn answering(status: u16) -> (String, Arc<std::sync::atomic::AtomicUsize>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let requests = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = Arc::clone(&requests);
        tokio::spawn(async move {
            loop {
                let (mut socket, _) = listener.accept().await.unwrap();
                let mut request = [0u8; 4096];
                let _ = socket.read(&mut request).await;
                counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let head = format!("HTTP/1.1 {status} X\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
                let _ = socket.write_all(head.as_bytes()).await;
            }
        });
        (format!("http://{address}/"), requests)
    }

    fn quick() -> Hooks {
        Hooks::default().with_retry(RetryPolicy {
            max_attempts: 3,
            max_wait: std::time::Duration::from_millis(10),
            base_delay: std::time::Duration::from_millis(1),
        })
    }

    async fn post(hooks: &Hooks, url: &str, key: Option<&str>, idempotent: bool) -> reqwest::Result<reqwest::Response> {
        let http = reqwest::Client::new();
        let mut request = http.post(url).body("{}");
        if let Some(key) = key {
            request = request.header(crate::retry::IDEMPOTENCY_KEY, key);
        }
        let operation = Operation {
            id: "createThing",
            route: "/",
            idempotent,
            security: &[],
        };
        hooks.execute(&http, request.build().unwrap(), operation).await
    }

    #[tokio::test]
    async fn a_post_is_retried_only_when_marked_or_keyed_idempotent() {
        let hooks = quick();
        for (key, idempotent, attempts) in [(None, false, 1), (None, true, 3), (Some("k-1"), false, 3)] {
            let (url, requests) = answering(503).await;
            let response = post(&hooks, &url, key, idempotent).await.unwrap();
            assert_eq!(response.status(), 503);
            let sent = requests.load(std::sync::atomic::Ordering::SeqCst);
            assert_eq!(sent, attempts, "key {key:?}, marked {idempotent}");
        }
    }

    /// Counts the attempts it sends.
    #[derive(Debug, Default)]
    struct Counting(Arc<std::sync::atomic::AtomicUsize>);

    impl Transport for Counting {
        fn execute<'a>(
            &'a self,
            http: &'a reqwest::Client,
            request: reqwest::Request,
            _operation_id: &'static str,
        ) -> BoxFuture<'a, reqwest::Result<reqwest::Response>> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Box::pin(http.execute(request))
        }
    }

    #[tokio::test]
    async fn a_refused_connection_is_retried_even_for_a_post() {
        // A port that was just free: nothing listens on it.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        drop(listener);
        let attempts = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut hooks = quick();
        hooks.transport = Some(Arc::new(Counting(Arc::clone(&attempts))));
        let error = post(&hooks, &url, None, false).await.unwrap_err();
        assert!(error.is_connect(), "{error:?}");
        assert_eq!(attempts.load(std::sync::atomic::Ordering::SeqCst), 3);
    }
}
