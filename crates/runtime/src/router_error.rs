//! The errors the router answers by itself, and the one place an API shapes
//! them.
//!
//! A generated router refuses some requests before an implementation sees
//! them: a body or parameter the spec's rules refuse (400), a missing or
//! refused token (401, 403), an unknown path (404) or method (405), a body
//! too large (413) or of a media type the operation does not take (415), and
//! it answers 501 for an operation the implementation leaves out. Each of
//! those responses is written in the platform's error shape and marked with
//! what went wrong; [`RouterErrorLayer`], which the generated router always
//! installs, hands each marked response to the implementation's
//! `router_error` hook as a [`RouterError`], so an API answers them in its
//! own documented error body. Responses built elsewhere (an operation's own
//! error variants, middleware in front of the router) are not marked and
//! pass through untouched.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::http::{HeaderName, HeaderValue, Request, StatusCode, header};
use axum::response::Response;

use crate::checks::{Violation, Violations};

/// What the runtime records on a response it wrote for the router.
#[derive(Debug, Clone)]
pub(crate) struct Mark {
    pub(crate) code: &'static str,
    pub(crate) title: Cow<'static, str>,
    pub(crate) violations: Violations,
}

/// Marks `response` (already written in the platform's shape) as the router's
/// own error.
pub(crate) fn mark(
    mut response: Response,
    code: &'static str,
    title: impl Into<Cow<'static, str>>,
    violations: Violations,
) -> Response {
    response.extensions_mut().insert(Mark {
        code,
        title: title.into(),
        violations,
    });
    response
}

/// An error the router answers by itself (see the module docs), as the
/// implementation's `router_error` hook receives it.
///
/// It renders as the platform's body ([`Self::into_platform_response`]) or as
/// RFC 9457 problem details ([`Self::into_problem_response`]); an API with
/// another error body builds it from [`Self::status`], [`Self::code`],
/// [`Self::message`] and [`Self::violations`]. Headers the router set on the
/// error (a `WWW-Authenticate` challenge on 401 and 403) are added to
/// whatever response the hook returns, unless it sets them itself.
#[derive(Debug)]
pub struct RouterError {
    mark: Mark,
    /// The response as the runtime wrote it, in the platform's shape.
    written: Response,
}

impl RouterError {
    /// A router error answered with `status`, for tests of a `router_error`
    /// hook and for hand-written routes that want the same answers.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        let message = message.into();
        let written = crate::errors::error_response(status, message.clone(), code);
        Self {
            mark: Mark {
                code,
                title: Cow::Owned(message),
                violations: Violations::new(),
            },
            written,
        }
    }

    /// The status the router chose: 400, 401, 403, 404, 405, 413, 414, 415,
    /// 431 or 501.
    pub fn status(&self) -> StatusCode {
        self.written.status()
    }

    /// A stable code naming the error: `invalid_body`, `invalid_parameters`,
    /// `invalid_path`, `missing_token`, `malformed_token`, `invalid_token`,
    /// `insufficient_scope`, `invalid_request` (a credential header given
    /// twice), `not_found`, `method_not_allowed`, `unsupported_media_type`,
    /// `uri_too_long`, `headers_too_large`, `not_implemented`, ...
    pub fn code(&self) -> &'static str {
        self.mark.code
    }

    /// One sentence for a person: what is wrong, with every broken rule.
    pub fn message(&self) -> String {
        let mut message = self.mark.title.to_string();
        for (index, violation) in self.mark.violations.iter().enumerate() {
            message.push_str(if index == 0 { ": " } else { "; " });
            message.push_str(&violation.detail);
        }
        message
    }

    /// Every rule of the spec the request broke, each with its place (a JSON
    /// Pointer into the body, or a parameter's `in` and `name`); empty for
    /// errors other than 400.
    pub fn violations(&self) -> impl Iterator<Item = &Violation> {
        self.mark.violations.iter()
    }

    /// The platform's error body, `{statusCode, error, message, errorCode,
    /// errors}`, as `application/json`.
    pub fn into_platform_response(self) -> Response {
        self.written
    }

    /// RFC 9457 problem details as `application/problem+json`: `type`
    /// (`about:blank`), `title` (the reason phrase), `status`, `detail` (the
    /// message), and the members `code` and, for a refused request,
    /// `errors` (each with `pointer`, or `in` and `name`, then `code` and
    /// `detail`).
    pub fn into_problem_response(self) -> Response {
        let status = self.status();
        let mut problem = serde_json::Map::new();
        problem.insert("type".into(), "about:blank".into());
        problem.insert(
            "title".into(),
            status.canonical_reason().unwrap_or("Error").into(),
        );
        problem.insert("status".into(), status.as_u16().into());
        problem.insert("detail".into(), self.message().into());
        problem.insert("code".into(), self.mark.code.into());
        if !self.mark.violations.is_empty() {
            let errors = self
                .mark
                .violations
                .iter()
                .map(|violation| {
                    let mut item = serde_json::Map::new();
                    match &violation.parameter {
                        Some((location, name)) => {
                            item.insert("in".into(), (*location).into());
                            item.insert("name".into(), name.as_str().into());
                        }
                        None => {
                            item.insert("pointer".into(), violation.pointer.as_str().into());
                        }
                    }
                    item.insert("code".into(), violation.code.into());
                    item.insert("detail".into(), violation.detail.as_str().into());
                    serde_json::Value::Object(item)
                })
                .collect();
            problem.insert("errors".into(), serde_json::Value::Array(errors));
        }
        let mut response = crate::json_response(status, &problem);
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        response
    }
}

/// The layer a generated router installs outermost: every response the
/// runtime marked as the router's own error goes through `shape` (the
/// implementation's `router_error` hook); every other response passes as it
/// is, without allocating.
#[derive(Clone)]
pub struct RouterErrorLayer<F> {
    shape: F,
}

impl<F> RouterErrorLayer<F>
where
    F: Fn(RouterError) -> Response + Clone + Send + Sync + 'static,
{
    pub fn new(shape: F) -> Self {
        Self { shape }
    }
}

impl<S, F: Clone> tower_layer::Layer<S> for RouterErrorLayer<F> {
    type Service = RouterErrorService<S, F>;

    fn layer(&self, inner: S) -> Self::Service {
        RouterErrorService {
            inner,
            shape: self.shape.clone(),
        }
    }
}

/// The service of [`RouterErrorLayer`].
#[derive(Clone)]
pub struct RouterErrorService<S, F> {
    inner: S,
    shape: F,
}

impl<S, F, B> tower_service::Service<Request<B>> for RouterErrorService<S, F>
where
    S: tower_service::Service<Request<B>, Response = Response>,
    F: Fn(RouterError) -> Response + Clone,
{
    type Response = Response;
    type Error = S::Error;
    type Future = RouterErrorFuture<S::Future, F>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if let Some(refusal) = oversized_head(&request) {
            return RouterErrorFuture {
                inner: None,
                refused: Some(refusal),
                shape: Some(self.shape.clone()),
            };
        }
        RouterErrorFuture {
            inner: Some(self.inner.call(request)),
            refused: None,
            shape: Some(self.shape.clone()),
        }
    }
}

/// The longest request target (path and query) a generated router reads, in
/// bytes; a longer one gets 414.
pub const MAX_URI_LENGTH: usize = 8 * 1024;
/// The most request headers a generated router reads; more get 431. It is
/// hyper's own default, so a server on hyper's defaults refuses the same
/// requests (with an empty body: [`crate::serve`] raises hyper's limit so
/// that this one answers, in the API's error body).
pub const MAX_HEADERS: usize = 100;
/// The most bytes of request headers (names and values) a generated router
/// reads; more get 431.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

/// The 414 or 431 for a request whose target or headers are past the
/// router's limits, in the API's error body: the HTTP server in front
/// answers its own (larger) limits with an empty body.
fn oversized_head<B>(request: &Request<B>) -> Option<Response> {
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |target| target.as_str().len());
    if target > MAX_URI_LENGTH {
        return Some(crate::errors::router_error_response(
            StatusCode::URI_TOO_LONG,
            format!(
                "The request target is {target} bytes long; the server reads at most {MAX_URI_LENGTH}"
            ),
            "uri_too_long",
        ));
    }
    let headers = request.headers();
    if headers.len() > MAX_HEADERS {
        return Some(crate::errors::router_error_response(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!(
                "The request has {} headers; the server reads at most {MAX_HEADERS}",
                headers.len()
            ),
            "headers_too_large",
        ));
    }
    let bytes: usize = headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len())
        .sum();
    (bytes > MAX_HEADER_BYTES).then(|| {
        crate::errors::router_error_response(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            format!(
                "The request's headers are {bytes} bytes long; the server reads at most {MAX_HEADER_BYTES}"
            ),
            "headers_too_large",
        )
    })
}

pin_project_lite::pin_project! {
    /// The future of [`RouterErrorService`].
    pub struct RouterErrorFuture<Fut, F> {
        #[pin]
        inner: Option<Fut>,
        // The router's answer to a request it refused before routing it.
        refused: Option<Response>,
        shape: Option<F>,
    }
}

impl<Fut, F, E> Future for RouterErrorFuture<Fut, F>
where
    Fut: Future<Output = Result<Response, E>>,
    F: Fn(RouterError) -> Response,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut response = match (this.refused.take(), this.inner.as_pin_mut()) {
            (Some(refused), _) => refused,
            (None, Some(inner)) => std::task::ready!(inner.poll(cx))?,
            (None, None) => panic!("RouterErrorFuture polled after completion"),
        };
        let Some(mark) = response.extensions_mut().remove::<Mark>() else {
            return Poll::Ready(Ok(response));
        };
        let Some(shape) = this.shape.take() else {
            return Poll::Ready(Ok(response));
        };
        Poll::Ready(Ok(shape_error(&shape, mark, response)))
    }
}

/// The hook's answer to the marked `written` response, with the headers the
/// router set on it (other than the body's own) kept where the hook set none.
fn shape_error(
    shape: &impl Fn(RouterError) -> Response,
    mark: Mark,
    written: Response,
) -> Response {
    let kept: Vec<(HeaderName, HeaderValue)> = written
        .headers()
        .iter()
        .filter(|(name, _)| **name != header::CONTENT_TYPE && **name != header::CONTENT_LENGTH)
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    let mut response = shape(RouterError { mark, written });
    for (name, value) in kept {
        if !response.headers().contains_key(&name) {
            response.headers_mut().insert(name, value);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::Location;

    async fn body_of(response: Response) -> (StatusCode, String, serde_json::Value) {
        let status = response.status();
        let content_type = response.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_string();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (
            status,
            content_type,
            serde_json::from_slice(&bytes).unwrap(),
        )
    }

    fn marked_rejection() -> Response {
        let mut violations = Violations::new();
        violations.add(
            &Location::Body.property("name"),
            "required",
            "'name' is required".into(),
        );
        violations.add(
            &Location::Parameter("query", "limit"),
            "maximum",
            "'limit' must be at most 5".into(),
        );
        crate::validation_failed(violations)
    }

    #[tokio::test]
    async fn the_platform_rendering_is_the_response_as_written() {
        let shaped = shape_error(
            &RouterError::into_platform_response,
            Mark {
                code: "x",
                title: "t".into(),
                violations: Violations::new(),
            },
            crate::error_response(StatusCode::CONFLICT, "exists", "conflict"),
        );
        let (status, content_type, body) = body_of(shaped).await;
        assert_eq!(
            (status, content_type.as_str()),
            (StatusCode::CONFLICT, "application/json")
        );
        assert_eq!(body["errorCode"], "conflict");
    }

    #[tokio::test]
    async fn problem_details_carry_every_violation() {
        let mut written = marked_rejection();
        let mark = written
            .extensions_mut()
            .remove::<Mark>()
            .expect("the rejection is marked");
        let shaped = shape_error(&RouterError::into_problem_response, mark, written);
        let (status, content_type, body) = body_of(shaped).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(content_type, "application/problem+json");
        assert_eq!(
            body,
            serde_json::json!({
                "type": "about:blank",
                "title": "Bad Request",
                "status": 400,
                "detail": "Payload validation error: 'name' is required; 'limit' must be at most 5",
                "code": "invalid_body",
                "errors": [
                    {"pointer": "/name", "code": "required", "detail": "'name' is required"},
                    {"in": "query", "name": "limit", "code": "maximum", "detail": "'limit' must be at most 5"},
                ],
            })
        );
    }

    #[tokio::test]
    async fn a_challenge_survives_a_custom_body() {
        let mut written = axum::response::IntoResponse::into_response(
            crate::AuthError::Unauthenticated("expired".into()),
        );
        let mark = written
            .extensions_mut()
            .remove::<Mark>()
            .expect("a refused token is marked");
        assert_eq!(mark.code, "invalid_token");
        let shaped = shape_error(
            &|error: RouterError| {
                assert_eq!(error.status(), StatusCode::UNAUTHORIZED);
                crate::json_response(
                    error.status(),
                    &serde_json::json!({"code": 401, "message": error.message()}),
                )
            },
            mark,
            written,
        );
        assert_eq!(
            shaped.headers()[header::WWW_AUTHENTICATE],
            r#"Bearer error="invalid_token""#
        );
        let (_, _, body) = body_of(shaped).await;
        assert_eq!(body, serde_json::json!({"code": 401, "message": "expired"}));
    }

    #[tokio::test]
    async fn unmarked_responses_pass_untouched() {
        use tower_layer::Layer;
        use tower_service::Service;
        let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let seen = calls.clone();
        let layer = RouterErrorLayer::new(move |error: RouterError| {
            seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            error.into_problem_response()
        });
        let mut service = layer.layer(tower_service_fn(|marked: Request<bool>| {
            if *marked.body() {
                marked_rejection()
            } else {
                crate::error_response(StatusCode::CONFLICT, "exists", "conflict")
            }
        }));
        let plain = service.call(Request::new(false)).await.unwrap();
        assert_eq!(plain.headers()[header::CONTENT_TYPE], "application/json");
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 0);
        let shaped = service.call(Request::new(true)).await.unwrap();
        assert_eq!(
            shaped.headers()[header::CONTENT_TYPE],
            "application/problem+json"
        );
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn heads_past_the_limits_are_refused_through_the_hook() {
        use tower_layer::Layer;
        use tower_service::Service;
        let layer = RouterErrorLayer::new(RouterError::into_problem_response);
        let mut service = layer.layer(tower_service_fn(|_: Request<()>| {
            crate::error_response(StatusCode::OK, "served", "ok")
        }));
        let long = format!("/x?q={}", "a".repeat(MAX_URI_LENGTH));
        let mut many = Request::builder().uri("/x");
        for index in 0..=MAX_HEADERS {
            many = many.header(format!("x-{index}"), "1");
        }
        let large = Request::builder()
            .uri("/x")
            .header("x-big", "b".repeat(MAX_HEADER_BYTES))
            .body(())
            .unwrap();
        for (request, status, detail) in [
            (
                Request::builder().uri(long).body(()).unwrap(),
                StatusCode::URI_TOO_LONG,
                "The request target is 8197 bytes long; the server reads at most 8192",
            ),
            (
                many.body(()).unwrap(),
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "The request has 101 headers; the server reads at most 100",
            ),
            (
                large,
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "The request's headers are 32773 bytes long; the server reads at most 32768",
            ),
        ] {
            let (got, content_type, body) = body_of(service.call(request).await.unwrap()).await;
            assert_eq!(
                (got, content_type.as_str()),
                (status, "application/problem+json")
            );
            assert_eq!(body["detail"], detail);
        }
        let fine = Request::builder()
            .uri(format!("/x?q={}", "a".repeat(MAX_URI_LENGTH - 5)))
            .body(())
            .unwrap();
        assert_eq!(service.call(fine).await.unwrap().status(), StatusCode::OK);
    }

    /// A service answering each request with `answer(request)`.
    fn tower_service_fn<R>(
        answer: impl Fn(R) -> Response + Clone,
    ) -> impl tower_service::Service<
        R,
        Response = Response,
        Error = std::convert::Infallible,
        Future = std::future::Ready<Result<Response, std::convert::Infallible>>,
    > + Clone {
        #[derive(Clone)]
        struct Answer<A>(A);
        impl<R, A: Fn(R) -> Response> tower_service::Service<R> for Answer<A> {
            type Response = Response;
            type Error = std::convert::Infallible;
            type Future = std::future::Ready<Result<Response, std::convert::Infallible>>;
            fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
                Poll::Ready(Ok(()))
            }
            fn call(&mut self, request: R) -> Self::Future {
                std::future::ready(Ok((self.0)(request)))
            }
        }
        Answer(answer)
    }
}
