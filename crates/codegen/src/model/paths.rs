//! Path templates and the server URL's path, under which routes are mounted.

use openapiv3::OpenAPI;
use serde_json::Value;

use super::Operation;
use crate::diagnostic::Diagnostic;
use crate::load::LoadedSpec;
use crate::readings::Reading;

/// A path key as it reaches a server: its path and fixed query, and the
/// fragment, which no request carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathKey {
    pub(crate) path: String,
    pub(crate) query: String,
    pub(crate) fragment: String,
}

/// A path key's path, fixed query and fragment: `/responses?beta=true` is
/// `/responses` and `beta=true`, which tells apart operations sharing the
/// path; `/oauth2/token#refresh` is `/oauth2/token` and a fragment, which
/// names another view of the same requests (Box's convention). A query with
/// a template (`?id={id}`) is a query parameter the spec should declare as
/// one.
pub(crate) fn split_path_key(key: &str) -> Result<PathKey, String> {
    let (rest, fragment) = key.split_once('#').unwrap_or((key, ""));
    let Some((path, query)) = rest.split_once('?') else {
        return Ok(PathKey {
            path: rest.to_string(),
            query: String::new(),
            fragment: fragment.to_string(),
        });
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
    Ok(PathKey {
        path: path.to_string(),
        query: query.to_string(),
        fragment: fragment.to_string(),
    })
}

/// Operations sharing a path and method must differ by their fixed query
/// (`/responses?beta=true` beside `/responses`) or by the media types of
/// their bodies (the router dispatches by `Content-Type`), or be views of
/// one operation told apart by a fragment only (`/oauth2/token#refresh`
/// beside `/oauth2/token`): such a request is served by the operation
/// without a fragment (or the first written), which
/// [`Operation::served_by`] names for the others. Two operations without a
/// fragment answering the same requests could not both be called.
pub(crate) fn resolve_shared_keys(
    spec: &LoadedSpec,
    operations: &mut [Operation],
) -> Result<(), Diagnostic> {
    // Without a fragment first, each kind in document order.
    let mut order: Vec<usize> = (0..operations.len()).collect();
    order.sort_by_key(|&index| !operations[index].fragment.is_empty());
    let mut served: Vec<usize> = Vec::new();
    for index in order {
        let operation = &operations[index];
        let Some(&server) = served.iter().find(|&&other| {
            let other = &operations[other];
            other.method == operation.method
                && other.path == operation.path
                && other.fixed_query_pairs() == operation.fixed_query_pairs()
                && bodies_overlap(other, operation)
        }) else {
            served.push(index);
            continue;
        };
        let server = &operations[server];
        if operation.fragment.is_empty() {
            let first_place = match spec.source_map.locate(&server.pointer) {
                Some(position) => format!(
                    "{}:{}:{}",
                    spec.path.display(),
                    position.line,
                    position.column
                ),
                None => server.pointer.clone(),
            };
            return Err(spec.error_at(
                &operation.pointer,
                format!(
                    "`{} {}` answers the same requests as `{} {}` (at {first_place}): the \
                     queries of path keys sharing a path must tell their operations apart",
                    operation.method.as_str(),
                    operation.path_key(),
                    server.method.as_str(),
                    server.path_key(),
                ),
            ));
        }
        operations[index].served_by = Some(server.id.clone());
    }
    Ok(())
}

/// Whether a request's body cannot tell the operations apart: neither takes
/// one, or they share a media type. (Where bodies are optional, a request
/// without one goes to the first the router tries.)
fn bodies_overlap(first: &Operation, second: &Operation) -> bool {
    let media_types = |operation: &Operation| -> Vec<String> {
        match &operation.request_body {
            None => vec![String::new()],
            Some(body) => body
                .kinds
                .iter()
                .flat_map(|kind| kind.media_types.iter().cloned())
                .collect(),
        }
    };
    let covers = |range: &str, media_type: &str| {
        range == media_type
            || (range == "*/*" && !media_type.is_empty())
            || range
                .strip_suffix("/*")
                .is_some_and(|kind| media_type.split('/').next() == Some(kind))
    };
    let second = media_types(second);
    media_types(first).iter().any(|one| {
        second
            .iter()
            .any(|other| covers(one, other) || covers(other, one))
    })
}

/// The path items whose routes the router cannot hold beside those before
/// them, as axum's router (`matchit`) finds them: a template it cannot
/// read (`{a}.{b}` in one segment) or one that matches what an earlier one
/// matches otherwise (`/users/{id}.json` beside `/users/{id}`). Each is an
/// error at its path item, where containment leaves it out; the generated
/// router and the mock register the same routes in the same order.
pub(crate) fn unroutable(
    spec: &LoadedSpec,
    operations: &[Operation],
) -> crate::diagnostic::Diagnostics {
    let mut problems = crate::diagnostic::Diagnostics::default();
    let mut router = matchit::Router::new();
    let mut seen: Vec<&str> = Vec::new();
    for operation in operations
        .iter()
        .filter(|operation| operation.served_by.is_none())
    {
        if seen.contains(&operation.path.as_str()) {
            continue;
        }
        seen.push(&operation.path);
        if let Err(error) = router.insert(super::route_path(&operation.path), ()) {
            let item = operation
                .pointer
                .rsplit_once('/')
                .map_or(operation.pointer.as_str(), |(item, _)| item);
            problems.push(spec.error_at(
                item,
                format!(
                    "the router cannot serve `{}` beside the paths before it: {error}",
                    operation.path
                ),
            ));
        }
    }
    problems
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

/// The URL of `server` (a Server Object as written) with each `{variable}`
/// replaced by its `default` (OpenAPI requires one): the URL the client is
/// built with unless told otherwise, whose path the server is mounted at,
/// and which spec-diff compares. A variable the server does not define, or
/// defines without a default, is read as its `enum`'s first value, else as
/// empty; those names come second, for the caller to warn of.
pub fn server_url_with_defaults(server: &Value) -> (String, Vec<String>) {
    let written = server
        .get("url")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let variables = server.get("variables");
    let mut url = String::new();
    let mut guessed = Vec::new();
    let mut rest = written;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|close| open + close) else {
            break;
        };
        url.push_str(&rest[..open]);
        let name = &rest[open + 1..close];
        let variable = variables.and_then(|variables| variables.get(name));
        let default = variable
            .and_then(|variable| variable.get("default"))
            .and_then(Value::as_str)
            .filter(|default| !default.is_empty());
        match default {
            Some(default) => url.push_str(default),
            None => {
                let first = variable
                    .and_then(|variable| variable.get("enum"))
                    .and_then(|values| values.get(0))
                    .and_then(Value::as_str);
                url.push_str(first.unwrap_or_default());
                guessed.push(name.to_string());
            }
        }
        rest = &rest[close + 1..];
    }
    url.push_str(rest);
    (url, guessed)
}

/// [`server_url_with_defaults`] of the spec's first server, warning of each
/// variable read without a default.
fn first_server_url(spec: &LoadedSpec) -> Option<String> {
    let server = spec.document.pointer("/servers/0")?;
    let (url, guessed) = server_url_with_defaults(server);
    for name in guessed {
        spec.warn_at(
            Reading::ServerVariableUndefined,
            "/servers/0/url",
            format!(
                "the server URL `{}` names `{{{name}}}`, which its `variables` do not give a \
                 default; read as its `enum`'s first value, else as empty",
                server
                    .get("url")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
            ),
        );
    }
    Some(url)
}

/// The path part of the first server URL (`https://{host}/api/v2` gives
/// `/api/v2`), under which the server crate mounts its routes.
pub(crate) fn base_path(spec: &LoadedSpec, openapi: &OpenAPI) -> Result<String, Diagnostic> {
    if openapi.servers.is_empty() {
        return Ok(String::new());
    }
    let Some(url) = first_server_url(spec) else {
        return Ok(String::new());
    };
    let url = url.as_str();
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
            format!("the path of the server URL `{url}` must be fixed, without a query"),
        ));
    }
    Ok(path.trim_end_matches('/').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_urls_read_variables_at_their_defaults() {
        let server = serde_json::json!({
            "url": "https://{tenant}.example.com/{version}/{region}/{stage}",
            "variables": {
                "version": {"default": "v2"},
                "region": {"default": "", "enum": ["eu", "us"]},
                "stage": {"enum": []}
            }
        });
        assert_eq!(
            server_url_with_defaults(&server),
            (
                "https://.example.com/v2/eu/".to_string(),
                vec![
                    "tenant".to_string(),
                    "region".to_string(),
                    "stage".to_string()
                ]
            )
        );
        let plain = serde_json::json!({"url": "/api/v2"});
        assert_eq!(
            server_url_with_defaults(&plain),
            ("/api/v2".to_string(), vec![])
        );
    }

    #[test]
    fn template_names_in_order() {
        assert_eq!(
            path_template_names("/a/{id}/b/{type}").unwrap(),
            ["id", "type"]
        );
        assert!(path_template_names("/plain").unwrap().is_empty());
    }

    #[test]
    fn a_path_keys_query_and_fragment_are_split_off() {
        let key = |path: &str, query: &str, fragment: &str| PathKey {
            path: path.into(),
            query: query.into(),
            fragment: fragment.into(),
        };
        assert_eq!(
            split_path_key("/responses?beta=true").unwrap(),
            key("/responses", "beta=true", "")
        );
        assert_eq!(
            split_path_key("/oauth2/token#refresh").unwrap(),
            key("/oauth2/token", "", "refresh")
        );
        assert_eq!(
            split_path_key("/a/{id}?x=1#view").unwrap(),
            key("/a/{id}", "x=1", "view")
        );
        for key in ["/a?id={id}", "/a?=1"] {
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
