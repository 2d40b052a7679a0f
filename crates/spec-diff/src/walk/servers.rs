//! Servers: a URL removed or added, and the one change that acknowledges
//! every other (a new version in the path of a present server URL).

use super::*;

impl<'a> Walker<'a> {
    pub(super) fn servers(&mut self) {
        let servers = |doc: &Value| -> Vec<Value> {
            doc.get("servers")
                .and_then(Value::as_array)
                .map(|servers| {
                    servers
                        .iter()
                        .filter(|server| server.get("url").is_some_and(Value::is_string))
                        .cloned()
                        .collect()
                })
                .unwrap_or_default()
        };
        let written = |servers: &[Value]| -> Vec<String> {
            servers
                .iter()
                .filter_map(|server| server.get("url").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        };
        // The version is read as requests are sent: each variable at its
        // default, as the generated client and server read it.
        let sent = |servers: &[Value]| -> Vec<String> {
            servers
                .iter()
                .map(|server| {
                    openapi_crates_codegen::model::paths::server_url_with_defaults(server).0
                })
                .collect()
        };
        let (old_servers, new_servers) =
            (servers(&self.base.document), servers(&self.head.document));
        let (old, new) = (written(&old_servers), written(&new_servers));
        let (old_sent, new_sent) = (sent(&old_servers), sent(&new_servers));
        if old == new && old_sent == new_sent {
            return;
        }
        // Only an explicit new version in the path of a server URL present in
        // both versions is a new API version: a missing, removed or merely
        // different URL says nothing about the version, so it must never
        // acknowledge the changes beside it (that would let a revision pass CI
        // by deleting `servers`).
        if let (Some(old_url), Some(new_url)) = (old_sent.first(), new_sent.first())
            && let (old_path, new_path) = (path_prefix(old_url), path_prefix(new_url))
            && let Some(new_version) = version_segment(&new_path)
            && version_segment(&old_path) != Some(new_version)
        {
            let old_version = version_segment(&old_path);
            self.report(rules::SERVER_URL_PREFIX_CHANGED.usual(), format!(
                    "the API version in the server URL path changed from `{}` to `{new_version}` (`{}` -> `{}`): a new API version, which acknowledges every breaking change",
                    old_version.unwrap_or("none"),
                    old_path,
                    new_path,
                ), (Some("/servers/0/url"), Some("/servers/0/url")));
            return;
        }
        for (i, url) in old.iter().enumerate() {
            if !new.contains(url) {
                let pointer = format!("/servers/{i}/url");
                let head = if new.is_empty() { "" } else { "/servers" };
                self.report(
                    rules::SERVER_URL_REMOVED.usual(),
                    format!(
                        "server URL `{url}` removed (not a new API version: acknowledges nothing)"
                    ),
                    (Some(&pointer), Some(head)),
                );
            }
        }
        for (i, url) in new.iter().enumerate() {
            if !old.contains(url) {
                let pointer = format!("/servers/{i}/url");
                let base = if old.is_empty() { "" } else { "/servers" };
                self.report(
                    rules::SERVER_URL_ADDED.usual(),
                    format!("server URL `{url}` added"),
                    (Some(base), Some(&pointer)),
                );
            }
        }
    }
}

/// The path part of a server URL: `https://{host}/api/v2` -> `/api/v2`.
pub fn path_prefix(url: &str) -> String {
    let without_scheme = url.split_once("://").map(|(_, rest)| rest).unwrap_or(url);
    let path = if url.contains("://") {
        without_scheme
            .find('/')
            .map(|i| &without_scheme[i..])
            .unwrap_or("")
    } else {
        without_scheme
    };
    path.trim_end_matches('/').to_string()
}

/// The version segment of a server URL path (`/api/v2` -> `v2`): the last
/// segment that is `v` followed by a number (`v2`, `v2.1`). `None` when the
/// path names no version, so a path that changes otherwise is no new version.
pub fn version_segment(path: &str) -> Option<&str> {
    path.rsplit('/').find(|segment| {
        segment.strip_prefix(['v', 'V']).is_some_and(|number| {
            !number.is_empty()
                && number.starts_with(|c: char| c.is_ascii_digit())
                && number.chars().all(|c| c.is_ascii_digit() || c == '.')
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_prefixes_ignore_scheme_and_host() {
        assert_eq!(path_prefix("https://{tenant}/api/v2"), "/api/v2");
        assert_eq!(path_prefix("https://example.com/api/v3/"), "/api/v3");
        assert_eq!(path_prefix("https://example.com"), "");
        assert_eq!(path_prefix("/api/v2"), "/api/v2");
    }

    #[test]
    fn only_a_version_segment_is_a_version() {
        assert_eq!(version_segment("/api/v2"), Some("v2"));
        assert_eq!(version_segment("/v2.1/things"), Some("v2.1"));
        assert_eq!(version_segment("/api"), None);
        assert_eq!(version_segment(""), None);
        assert_eq!(version_segment("/api/video"), None);
        assert_eq!(version_segment("/api/{version}"), None);
    }
}
