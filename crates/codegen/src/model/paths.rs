//! Path templates and the server URL's path, under which routes are mounted.

use openapiv3::OpenAPI;

use crate::diagnostic::Diagnostic;
use crate::load::LoadedSpec;

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
