//! The command end to end on scratch git repositories holding the real spec:
//! the issue's example (a tightened request constraint and a new optional
//! response property), acknowledgements, and the cases without a base.

use std::path::Path;
use std::process::Command;

use openapi_crates_spec_diff::cli::{Comparison, Format, Options, spec_diff};
use serde_json::Value;

const SPEC: &str = "spec/tenant-management.yaml";

fn real_spec() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(SPEC);
    std::fs::read_to_string(path).expect("the real spec")
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=test", "-c", "user.email=test@localhost"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        status.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

/// A repository on `main` whose one commit holds `spec` (or nothing).
fn repository(spec: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    git(dir.path(), &["init", "-q", "-b", "main"]);
    std::fs::create_dir_all(dir.path().join("spec")).unwrap();
    match spec {
        Some(text) => {
            std::fs::write(dir.path().join(SPEC), text).unwrap();
            git(dir.path(), &["add", SPEC]);
        }
        None => {
            std::fs::write(dir.path().join("README"), "no spec yet\n").unwrap();
            git(dir.path(), &["add", "README"]);
        }
    }
    git(dir.path(), &["commit", "-q", "-m", "base"]);
    dir
}

fn run(root: &Path, base: Option<&str>, format: Format) -> (u8, String, String) {
    let options = Options {
        comparison: Comparison::Revision {
            spec: SPEC.into(),
            base: base.map(str::to_string),
        },
        format,
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = spec_diff(root, &options, &mut out, &mut err);
    (
        status,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// Replaces the first `old` after `anchor` (both must exist).
fn edit_after(text: &str, anchor: &str, old: &str, new: &str) -> String {
    let start = text.find(anchor).unwrap_or_else(|| panic!("no {anchor:?}"));
    let at = start
        + text[start..]
            .find(old)
            .unwrap_or_else(|| panic!("no {old:?}"));
    format!("{}{new}{}", &text[..at], &text[at + old.len()..])
}

/// The issue's pull request: the stream `name` goes from 128 to 64
/// characters and the stream gains an optional `description`.
fn issue_example(spec: &str) -> String {
    let tightened = edit_after(
        spec,
        "    EventStreamName:\n",
        "maxLength: 128",
        "maxLength: 64",
    );
    let status_ref =
        "        status:\n          $ref: \"#/components/schemas/EventStreamStatus\"\n";
    edit_after(
        &tightened,
        "    EventStream:\n",
        status_ref,
        &format!("{status_ref}        description:\n          type: string\n"),
    )
}

#[test]
fn the_issue_example_lists_exactly_the_two_changes() {
    let spec = real_spec();
    let repo = repository(Some(&spec));
    std::fs::write(repo.path().join(SPEC), issue_example(&spec)).unwrap();

    let (status, out, err) = run(repo.path(), None, Format::Json);
    assert_eq!(status, 1, "an unacknowledged breaking change fails: {err}");
    assert!(
        err.contains("1 breaking change(s) not acknowledged"),
        "{err}"
    );
    let report: Value = serde_json::from_str(&out).expect("JSON output");
    let changes = report["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{out}");

    let first = &changes[0];
    assert_eq!(first["rule"], "request-max-length-decreased");
    assert_eq!(first["level"], "breaking");
    assert_eq!(first["direction"], "request");
    assert_eq!(
        first["base"]["pointer"],
        "/components/schemas/EventStreamName/maxLength"
    );
    assert_eq!(
        first["head"]["pointer"],
        "/components/schemas/EventStreamName/maxLength"
    );
    assert!(first["base"]["line"].as_u64().unwrap() > 0);
    assert_eq!(
        first["rust"],
        serde_json::json!([]),
        "a tighter bound changes no Rust signature"
    );
    assert_eq!(first["acknowledged"], Value::Null);

    let second = &changes[1];
    assert_eq!(second["rule"], "response-optional-property-added");
    assert_eq!(second["level"], "compatible");
    assert_eq!(second["direction"], "response");
    assert_eq!(
        second["head"]["pointer"],
        "/components/schemas/EventStream/properties/description"
    );
    let effect = second["rust"][0]["effect"].as_str().unwrap();
    assert!(
        effect.contains("EventStream::description: Option<String>"),
        "{effect}"
    );
    assert_eq!(second["rust"][0]["audience"], "server implementors");

    let (_, markdown, _) = run(repo.path(), None, Format::Markdown);
    assert!(
        markdown.contains(
            "**2 changes: 1 breaking (1 unacknowledged), 0 possibly breaking, 1 compatible**"
        ),
        "{markdown}"
    );
    assert!(markdown.contains("#### Breaking (1)") && markdown.contains("#### Compatible (1)"));
}

/// `spec` with `entry` (YAML list item lines) added to its
/// `x-breaking-changes`, which it may already have.
fn with_acknowledgement(spec: &str, entry: &str) -> String {
    const KEY: &str = "\nx-breaking-changes:\n";
    if spec.contains(KEY) {
        spec.replacen(KEY, &format!("{KEY}{entry}"), 1)
    } else {
        spec.replacen(
            "servers:\n",
            &format!("x-breaking-changes:\n{entry}servers:\n"),
            1,
        )
    }
}

#[test]
fn an_acknowledgement_in_the_spec_lets_the_breaking_change_pass() {
    let spec = real_spec();
    let repo = repository(Some(&spec));
    let acknowledged = with_acknowledgement(
        &issue_example(&spec),
        "  - rule: request-max-length-decreased\n    pointer: /components/schemas/EventStreamName/maxLength\n    reason: Longer names were truncated by the store.\n",
    );
    std::fs::write(repo.path().join(SPEC), acknowledged).unwrap();
    let (status, out, err) = run(repo.path(), Some("main"), Format::Text);
    assert_eq!(status, 0, "{out}{err}");
    assert!(
        out.contains("acknowledged: Longer names were truncated by the store."),
        "{out}"
    );
}

/// The bypass the issue names: deleting `servers` beside a breaking change
/// (a removed path) used to read as a new API version and pass.
#[test]
fn removing_the_servers_beside_a_removed_path_still_fails() {
    let spec = real_spec();
    let repo = repository(Some(&spec));
    let servers_start = spec.find("servers:\n").expect("servers");
    let servers_end = servers_start + spec[servers_start..].find("tags:\n").expect("tags");
    let without_servers = format!("{}{}", &spec[..servers_start], &spec[servers_end..]);
    let path_start = without_servers
        .find("  /event-streams:\n")
        .expect("the event streams path");
    let path_end = path_start
        + 2
        + without_servers[path_start + 2..]
            .find("\n  /")
            .expect("a later path")
        + 1;
    let changed = format!(
        "{}{}",
        &without_servers[..path_start],
        &without_servers[path_end..]
    );
    std::fs::write(repo.path().join(SPEC), changed).unwrap();
    let (status, out, err) = run(repo.path(), Some("main"), Format::Text);
    assert_eq!(status, 1, "{out}{err}");
    assert!(out.contains("BREAKING [request] api-path-removed"), "{out}");
    assert!(out.contains("server-url-removed"), "{out}");
    assert!(!out.contains("acknowledged:"), "{out}");
    assert!(err.contains("not acknowledged"), "{err}");
}

#[test]
fn an_unchanged_spec_has_no_changes() {
    let repo = repository(Some(&real_spec()));
    let (status, out, _) = run(repo.path(), None, Format::Text);
    assert_eq!(status, 0);
    assert!(out.contains("0 changes"), "{out}");
}

#[test]
fn a_base_without_the_spec_means_nothing_to_compare() {
    let repo = repository(None);
    std::fs::write(repo.path().join(SPEC), real_spec()).unwrap();
    let (status, out, _) = run(repo.path(), Some("HEAD"), Format::Text);
    assert_eq!(status, 0);
    assert!(out.contains("nothing to compare"), "{out}");
}

#[test]
fn errors_exit_1_with_a_message_and_no_panic() {
    let repo = repository(Some(&real_spec()));
    let (status, _, err) = run(repo.path(), Some("no-such-revision"), Format::Text);
    assert_eq!(status, 1);
    assert!(
        err.contains("base revision `no-such-revision` does not resolve"),
        "{err}"
    );

    std::fs::write(repo.path().join(SPEC), "openapi: 3.0.3\npaths: [unclosed\n").unwrap();
    let (status, _, err) = run(repo.path(), None, Format::Text);
    assert_eq!(status, 1);
    assert!(
        err.starts_with("spec/tenant-management.yaml:"),
        "a file:line message: {err}"
    );

    let malformed = with_acknowledgement(&real_spec(), "  - rule: x\n");
    std::fs::write(repo.path().join(SPEC), malformed).unwrap();
    let (status, _, err) = run(repo.path(), None, Format::Text);
    assert_eq!(status, 1);
    assert!(err.contains("needs a non-empty string `pointer`"), "{err}");
}
