//! Routing that axum's router does not do by itself.

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
