//! Routing that axum's router does not do by itself.

use axum::response::Response;

use crate::{RouterError, RouterErrorLayer, RouterOptions};

/// A generated router made whole: `routes` (paths relative to the API's
/// base path) answer paths and methods they do not serve with the API's
/// 404 and 405 bodies (see [`RouterOptions::fallback`]), take bodies up to
/// the limit, hold `state`, and shape every error the router answers by
/// itself with `shape`; then they are nested under `options.base_path`,
/// else `base_path` (the description's), when that is not the root.
///
/// Nested, the router has no fallback of its own outside its base path, so
/// `axum::Router::merge` puts it beside an application's routes and
/// fallback, and other APIs' routers under other paths.
pub fn mount<S, F>(
    routes: axum::Router<S>,
    state: S,
    options: &RouterOptions,
    base_path: &str,
    shape: F,
) -> axum::Router
where
    S: Clone + Send + Sync + 'static,
    F: Fn(RouterError) -> Response + Clone + Send + Sync + 'static,
{
    let routes = if options.fallback {
        routes.fallback(crate::not_found)
    } else {
        routes
    };
    let api = routes
        .method_not_allowed_fallback(crate::method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(options.body_limit))
        .with_state(state)
        .layer(RouterErrorLayer::new(shape));
    match nesting_path(options.base_path.as_deref().unwrap_or(base_path)) {
        Some(path) => axum::Router::new().nest(&path, api),
        None => api,
    }
}

/// `base_path` as `Router::nest` takes it, or `None` for the root. The
/// trailing slash makes axum serve a route at the base path followed by the
/// route (`/` under `/api/v2` is `/api/v2/`), as clients join them.
fn nesting_path(base_path: &str) -> Option<String> {
    let path = base_path.trim_matches('/');
    (!path.is_empty()).then(|| format!("/{path}/"))
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
    fn a_base_path_is_nested_between_slashes() {
        assert_eq!(nesting_path("/api/v2"), Some("/api/v2/".to_string()));
        assert_eq!(nesting_path("api/v2/"), Some("/api/v2/".to_string()));
        assert_eq!(nesting_path("/"), None);
        assert_eq!(nesting_path(""), None);
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
