//! Path templates and the server URL's path, under which routes are mounted.

use openapiv3::OpenAPI;

use super::Operation;
use crate::diagnostic::Diagnostic;
use crate::load::LoadedSpec;

/// A path key's path and fixed query: `/responses?beta=true` is `/responses`
/// and `beta=true`, which tells apart operations sharing the path. A query
/// with a template (`?id={id}`) is a query parameter the spec should declare
/// as one; a fragment never reaches a server.
pub(crate) fn split_path_key(key: &str) -> Result<(String, String), String> {
    if key.contains('#') {
        return Err(format!(
            "the path `{key}` holds a fragment (`#`), which no request carries to the server"
        ));
    }
    let Some((path, query)) = key.split_once('?') else {
        return Ok((key.to_string(), String::new()));
    };
    if query.contains(['{', '}']) {
        return Err(format!(
            "the query of the path `{key}` holds a template; declare it as a query parameter \
             (a path key's query can only fix values, as in `?beta=true`)"
        ));
    }
    let query = query.trim_matches('&');
    if query
        .split('&')
        .any(|pair| pair.split('=').next().unwrap_or_default().is_empty())
    {
        return Err(format!(
            "the query of the path `{key}` has a pair without a name"
        ));
    }
    Ok((path.to_string(), query.to_string()))
}

/// Operations sharing a path and method must differ by their fixed query
/// (`/responses?beta=true` beside `/responses`): one with the same pairs as
/// another would never be called.
pub(crate) fn check_fixed_queries(
    spec: &LoadedSpec,
    operations: &[Operation],
) -> Result<(), Diagnostic> {
    fn pairs(operation: &Operation) -> Vec<&str> {
        let mut pairs: Vec<&str> = operation
            .fixed_query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }
    for (index, operation) in operations.iter().enumerate() {
        if let Some(first) = operations[..index].iter().find(|earlier| {
            earlier.method == operation.method
                && earlier.path == operation.path
                && pairs(earlier) == pairs(operation)
        }) {
            let first_place = match spec.source_map.locate(&first.pointer) {
                Some(position) => format!(
                    "{}:{}:{}",
                    spec.path.display(),
                    position.line,
                    position.column
                ),
                None => first.pointer.clone(),
            };
            return Err(spec.error_at(
                &operation.pointer,
                format!(
                    "`{} {}` answers the same requests as `{} {}` (at {first_place}): the \
                     queries of path keys sharing a path must tell their operations apart",
                    operation.method.as_str(),
                    operation.path_key(),
                    first.method.as_str(),
                    first.path_key(),
                ),
            ));
        }
    }
    Ok(())
}

/// The `{name}` segments of a path template, in order.
pub(crate) fn path_template_names(path: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find(['{', '}']) {
        if rest.as_bytes()[open] == b'}' {
            return Err(format!("unbalanced `}}` in path `{path}`"));
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("unclosed `{{` in path `{path}`"))?;
        let name = &after[..close];
        if name.is_empty() || name.contains('{') {
            return Err(format!("malformed parameter in path `{path}`"));
        }
        if names.iter().any(|seen| seen == name) {
            return Err(format!("parameter `{name}` appears twice in path `{path}`"));
        }
        names.push(name.to_string());
        rest = &after[close + 1..];
    }
    Ok(names)
}

/// The path part of the first server URL (`https://{host}/api/v2` gives
/// `/api/v2`), under which the server crate mounts its routes.
pub(crate) fn base_path(spec: &LoadedSpec, openapi: &OpenAPI) -> Result<String, Diagnostic> {
    let Some(server) = openapi.servers.first() else {
        return Ok(String::new());
    };
    let url = server.url.as_str();
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = if url.starts_with('/') {
        url
    } else {
        after_scheme
            .find('/')
            .map_or("", |slash| &after_scheme[slash..])
    };
    if path.contains(['{', '}', '?', '#']) {
        return Err(spec.error_at(
            "/servers/0/url",
            format!("the path of the server URL `{url}` must be fixed, without variables or query"),
        ));
    }
    Ok(path.trim_end_matches('/').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_names_in_order() {
        assert_eq!(
            path_template_names("/a/{id}/b/{type}").unwrap(),
            ["id", "type"]
        );
        assert!(path_template_names("/plain").unwrap().is_empty());
    }

    #[test]
    fn a_path_keys_query_is_split_off() {
        assert_eq!(
            split_path_key("/responses?beta=true").unwrap(),
            ("/responses".to_string(), "beta=true".to_string())
        );
        assert_eq!(
            split_path_key("/a/{id}").unwrap(),
            ("/a/{id}".to_string(), String::new())
        );
        for key in ["/a?id={id}", "/a#top", "/a?=1"] {
            assert!(split_path_key(key).is_err(), "{key}");
        }
    }

    #[test]
    fn malformed_templates_are_explained() {
        for (path, cause) in [
            ("/a/{id", "unclosed `{` in path `/a/{id`"),
            ("/a/id}", "unbalanced `}` in path `/a/id}`"),
            ("/a/{}", "malformed parameter in path `/a/{}`"),
            (
                "/a/{x}/{x}",
                "parameter `x` appears twice in path `/a/{x}/{x}`",
            ),
        ] {
            assert_eq!(path_template_names(path).unwrap_err(), cause);
        }
    }
}
