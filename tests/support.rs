//! Helpers shared by the workspace's tests.

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the workspace")
        .to_path_buf()
}

/// A fixture file under `tests/fixtures/`.
pub fn fixture(relative: &str) -> PathBuf {
    workspace_root().join("tests/fixtures").join(relative)
}

/// The descriptions of a corpus under `tests/fixtures/` (`broken`,
/// `flawed`), sorted; a directory holds the other files of the description
/// named like it.
pub fn fixture_specs(corpus: &str) -> Vec<PathBuf> {
    let mut specs: Vec<PathBuf> = std::fs::read_dir(fixture(corpus))
        .expect("the corpus exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    specs.sort();
    specs
}

/// Every file under `dir`, as (path relative to `dir`, bytes), sorted.
pub fn snapshot_dir(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.expect("readable directory entry").path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let bytes = std::fs::read(&path).expect("readable file");
                out.push((path.strip_prefix(base).unwrap().to_path_buf(), bytes));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// A scratch workspace holding a copy of the real `generated/`, so tests can
/// run codegen in write mode without touching the checkout.
pub fn scratch_workspace() -> tempfile::TempDir {
    let scratch = tempfile::tempdir().expect("temporary directory");
    let source = workspace_root().join(openapi_crates_codegen::GENERATED_DIR);
    for (relative, bytes) in snapshot_dir(&source) {
        let target = scratch
            .path()
            .join(openapi_crates_codegen::GENERATED_DIR)
            .join(relative);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
    scratch
}

/// Valid request bodies, as JSON, for tests to send or to vary.
pub mod samples {
    use serde_json::{Value, json};

    /// A token exchange profile request.
    pub fn profile_request(subject_token_type: &str, action_id: &str) -> Value {
        json!({
            "name": "Partner tokens",
            "subject_token_type": subject_token_type,
            "action_id": action_id,
            "type": "custom_authentication",
        })
    }

    /// An event stream request to a webhook with basic authorization.
    pub fn stream_request(password: &str) -> Value {
        json!({
            "name": "audit",
            "subscriptions": [{"event_type": "user.created"}],
            "destination": {
                "type": "webhook",
                "configuration": {
                    "webhook_endpoint": "https://hooks.example.com/events",
                    "webhook_authorization": {"method": "basic", "username": "hook", "password": password}
                }
            }
        })
    }
}

/// Sends an authenticated `POST` of `body` as `content_type`; returns the
/// status and the JSON body (`null` when the body is not JSON).
pub async fn post_raw(
    http: &reqwest::Client,
    url: &str,
    token: &str,
    content_type: &str,
    body: impl Into<reqwest::Body>,
) -> (u16, serde_json::Value) {
    let response = http
        .post(url)
        .bearer_auth(token)
        .header(reqwest::header::CONTENT_TYPE, content_type)
        .body(body)
        .send()
        .await
        .expect("the test server answers");
    let status = response.status().as_u16();
    (
        status,
        response.json().await.unwrap_or(serde_json::Value::Null),
    )
}

/// A `reqwest::Client` builder for raw HTTP in tests.
pub fn http_builder() -> reqwest::ClientBuilder {
    reqwest::Client::builder()
}

/// A plain `reqwest::Client` for raw HTTP in tests (see [`http_builder`]).
pub fn http() -> reqwest::Client {
    http_builder().build().expect("a reqwest client")
}
