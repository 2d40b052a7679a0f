//! Routing that axum's router does not do by itself.

use std::convert::Infallible;
use std::fmt;

use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, Route};
use tower::util::BoxCloneSyncServiceLayer;
use tower_layer::Layer;
use tower_service::Service;

use crate::{RouterError, RouterErrorLayer, RouterOptions, Served};

/// A layer ([`RouterOptions::middleware`]) that a generated router runs in
/// front of each operation once routing has chosen it, with the operation
/// (its [`Served`]) in the request's extensions: a per-operation rate
/// limit, or metrics named by operation id, read it there.
///
/// A layer added with `Router::layer` runs outside the router's own, so it
/// sees the route (`axum::extract::MatchedPath`) but not the operation;
/// this one runs inside. Where one path and method serve several operations
/// told apart by their fixed query, the layer runs before that choice and
/// the extensions carry no operation.
#[derive(Clone)]
pub struct Middleware(BoxCloneSyncServiceLayer<Route, Request, Response, Infallible>);

impl Middleware {
    /// `layer` (`axum::middleware::from_fn(..)`, or any tower layer whose
    /// service answers what axum can turn into a response) as middleware.
    pub fn new<L>(layer: L) -> Self
    where
        L: Layer<Route> + Send + Sync + 'static,
        L::Service: Service<Request, Error = Infallible> + Clone + Send + Sync + 'static,
        <L::Service as Service<Request>>::Response: IntoResponse,
        <L::Service as Service<Request>>::Future: Send + 'static,
    {
        let responding = tower::util::MapResponseLayer::new(
            |response: <L::Service as Service<Request>>::Response| response.into_response(),
        );
        Self(BoxCloneSyncServiceLayer::new((responding, layer)))
    }
}

impl fmt::Debug for Middleware {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("Middleware(..)")
    }
}

/// `route`, one method's handler, as a generated router serves it: behind
/// the [`Middleware`] of `options`, with `operation` in the request's
/// extensions for it; as it is when there is none, which costs nothing.
pub fn operation_route<S>(
    route: MethodRouter<S>,
    operation: Option<&'static Served>,
    options: &RouterOptions,
) -> MethodRouter<S>
where
    S: Clone + Send + Sync + 'static,
{
    let route = match operation {
        Some(operation) => with_body_limits(route, operation, options),
        None => route,
    };
    let Some(Middleware(middleware)) = &options.middleware else {
        return route;
    };
    let route = route.route_layer(middleware.clone());
    match operation {
        Some(operation) => route.route_layer(axum::Extension(*operation)),
        None => route,
    }
}

/// `route` with `operation`'s body limits: one of
/// [`RouterOptions::operation_body_limits`] for a body read whole, and for
/// one that streams that or the spec's (`Served::body_limit`), which
/// `read_streamed_body` reads from the extensions (with the limit of a body
/// read whole, which a multipart body's text parts stay under). A route without either
/// is left as it is, at no cost.
fn with_body_limits<S>(
    mut route: MethodRouter<S>,
    operation: &'static Served,
    options: &RouterOptions,
) -> MethodRouter<S>
where
    S: Clone + Send + Sync + 'static,
{
    let chosen = options.operation_body_limits.get(operation.id).copied();
    if let Some(limit) = chosen {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        route = route.layer(axum::extract::DefaultBodyLimit::max(limit));
    }
    if let Some(limit) = operation.body_limit {
        let whole = chosen.map_or(options.body_limit, |limit| {
            usize::try_from(limit).unwrap_or(usize::MAX)
        });
        let limit = crate::StreamedBodyLimit(chosen.unwrap_or(limit));
        route = route.layer(axum::Extension(limit));
        route = route.layer(axum::Extension(crate::WholeBodyLimit(whole)));
    }
    route
}

/// A generated router made whole: `routes` (each a path relative to the
/// API's base path, with one method's handler) served under
/// `options.base_path`, else `base_path` (the description's), answering
/// paths and methods they do not serve with the API's 404 and 405 bodies
/// (see [`RouterOptions::fallback`]), taking bodies up to the limit,
/// holding `state`, and shaping every error the router answers by itself
/// with `shape`.
///
/// Each route is registered at its full path rather than nested with
/// `Router::nest`, which would rewrite every request's URI to strip the
/// prefix: a few thousand instructions per request for nothing, since the
/// handlers read their parameters from the matched route. Only the 404
/// fallback is nested, so the router has none of its own outside its base
/// path: `axum::Router::merge` puts it beside an application's routes and
/// fallback, and other APIs' routers under other paths.
pub fn mount<S, F, R, P>(
    routes: R,
    state: S,
    options: &RouterOptions,
    base_path: &str,
    shape: F,
) -> axum::Router
where
    S: Clone + Send + Sync + 'static,
    F: Fn(RouterError) -> Response + Clone + Send + Sync + 'static,
    R: IntoIterator<Item = (P, MethodRouter<S>)>,
    P: AsRef<str>,
{
    let prefix = options
        .base_path
        .as_deref()
        .unwrap_or(base_path)
        .trim_matches('/');
    // A segment starting with `:` or `*` (`/jobs/:run`) is a literal of the
    // description's, not axum 0.7's capture syntax.
    let mut api = axum::Router::new().without_v07_checks();
    for (path, route) in routes {
        api = api.route(&full_path(prefix, path.as_ref()), route);
    }
    let at_root = prefix.is_empty();
    if options.fallback && at_root {
        api = api.fallback(crate::not_found);
    }
    let api = api
        .method_not_allowed_fallback(crate::method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(options.body_limit))
        .with_state(state)
        .layer(RouterErrorLayer::new(shape.clone()));
    if options.fallback && !at_root {
        let not_found = axum::Router::new()
            .fallback(crate::not_found)
            .layer(RouterErrorLayer::new(shape));
        api.merge(axum::Router::new().nest(&format!("/{prefix}/"), not_found))
    } else {
        api
    }
}

/// `path` under `prefix` (a base path without its outer slashes) as
/// `Router::nest` would serve it: the route `/` under `api/v2` is
/// `/api/v2/`, as clients join them.
fn full_path(prefix: &str, path: &str) -> String {
    if prefix.is_empty() {
        path.to_string()
    } else {
        format!("/{prefix}/{}", path.trim_start_matches('/'))
    }
}

/// Whether a request's query (`query`, as the URI carries it) has every
/// name-value pair of `fixed`, the query of a path key such as
/// `/responses?beta=true`: operations sharing a path and method are told
/// apart that way. Both are decoded as forms (`%20` and `+` are a space), and
/// the query may hold other pairs besides.
pub fn query_has(query: Option<&str>, fixed: &str) -> bool {
    let query = query.unwrap_or_default();
    form_urlencoded::parse(fixed.as_bytes())
        .all(|wanted| form_urlencoded::parse(query.as_bytes()).any(|pair| pair == wanted))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_is_joined_to_the_base_path_as_nesting_would() {
        assert_eq!(full_path("api/v2", "/users/{id}"), "/api/v2/users/{id}");
        assert_eq!(full_path("api/v2", "/"), "/api/v2/");
        assert_eq!(full_path("", "/users"), "/users");
        assert_eq!(full_path("", "/"), "/");
    }

    #[test]
    fn a_fixed_query_is_found_among_other_pairs() {
        assert!(query_has(Some("beta=true"), "beta=true"));
        assert!(query_has(Some("limit=3&beta=true"), "beta=true"));
        assert!(query_has(Some("a=x%20y&b=2"), "b=2&a=x+y"));
        assert!(query_has(None, ""));
        assert!(!query_has(None, "beta=true"));
        assert!(!query_has(Some("beta=false"), "beta=true"));
        assert!(!query_has(Some("beta=true"), "beta=true&v=2"));
        assert!(!query_has(Some("betas=true"), "beta=true"));
    }
}
