//! Every spec under `tests/fixtures/broken/` is not JSON, YAML or OpenAPI 3.x
//! at all, the only descriptions refused (any other flaw is read at the
//! smallest unit it touches, `flawed_specs.rs`): each must be rejected with
//! exit status 1 and a message naming the file, the place and the cause,
//! without a panic and without touching generated/. The messages are
//! snapshotted. Under `--strict`, a flawed description is refused as well,
//! with every problem of the run.

use std::path::{Path, PathBuf};

use openapi_crates_codegen::Options;
use openapi_crates_codegen::cli::{Mode, codegen};
use workspace_tests::{fixture, fixture_specs, scratch_workspace, snapshot_dir, workspace_root};

struct Outcome {
    status: u8,
    stdout: String,
    stderr: String,
}

/// Runs `cargo xtask codegen` (write mode, so a spec that slipped through
/// would visibly change the tree) in a scratch copy of the workspace.
fn run_codegen(spec: &Path) -> (Outcome, bool) {
    run_codegen_with(spec, &Options::default())
}

fn run_codegen_with(spec: &Path, options: &Options) -> (Outcome, bool) {
    let scratch = scratch_workspace();
    let before = snapshot_dir(scratch.path());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = codegen(
        scratch.path(),
        spec,
        Mode::Write,
        options,
        &mut out,
        &mut err,
    );
    let unchanged = snapshot_dir(scratch.path()) == before;
    let outcome = Outcome {
        status,
        stdout: String::from_utf8(out).unwrap(),
        stderr: String::from_utf8(err).unwrap(),
    };
    (outcome, unchanged)
}

fn broken_specs() -> Vec<PathBuf> {
    fixture_specs("broken")
}

/// The message as a reader sees it, with the machine-specific prefix removed.
fn shown(stderr: &str) -> String {
    let root = format!("{}/", workspace_root().display());
    stderr.replace(&root, "")
}

#[test]
fn the_refusals_cover_every_class_of_what_is_not_openapi() {
    // Not YAML, not JSON, not UTF-8, several documents, not a mapping, no
    // or another version.
    assert!(
        broken_specs().len() >= 8,
        "only {} broken specs",
        broken_specs().len()
    );
}

#[test]
fn every_broken_spec_is_rejected_cleanly() {
    let mut report = String::new();
    for spec in broken_specs() {
        let relative = spec.strip_prefix(workspace_root()).unwrap().to_path_buf();
        let (outcome, unchanged) = run_codegen(&spec);
        let message = shown(&outcome.stderr);
        let name = relative.display().to_string();
        assert_eq!(outcome.status, 1, "{name}: exit status; stderr:\n{message}");
        assert!(unchanged, "{name}: generated/ was modified");
        assert!(
            outcome.stdout.is_empty(),
            "{name}: printed {}",
            outcome.stdout
        );
        let first = message.lines().next().unwrap_or_default();
        // The fixture, or one of the files it refers to (beside it, in the
        // directory of its name) where the problem is written.
        let its_files = format!("{}/", name.trim_end_matches(".yaml"));
        assert!(
            first.starts_with(&name) || first.starts_with(&its_files),
            "{name}: message does not name the file: {first}"
        );
        assert!(first.contains(": error: "), "{name}: {first}");
        assert!(
            !message.contains("panicked") && !message.contains("could not handle this spec"),
            "{name}: {message}"
        );
        // Every problem of the run, each on its line.
        report.push_str(&format!("{name}\n"));
        for line in message.lines().filter(|line| line.contains(": error: ")) {
            report.push_str(&format!("    {line}\n"));
        }
    }
    insta::assert_snapshot!("broken_spec_messages", report);
}

#[test]
fn messages_point_at_the_line_when_the_file_is_yaml() {
    for spec in broken_specs() {
        let (outcome, _) = run_codegen(&spec);
        let message = shown(&outcome.stderr);
        let first = message.lines().next().unwrap_or_default().to_string();
        let after_name = first
            .split_once(".yaml:")
            .or_else(|| first.split_once(".json:"))
            .map(|(_, rest)| rest);
        let has_line =
            after_name.is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
        let whole_file_problem = first.contains("not valid UTF-8") || first.contains("is empty");
        assert!(has_line || whole_file_problem, "no line number: {first}");
    }
}

#[test]
fn a_missing_spec_file_is_reported() {
    let missing = fixture("broken/does-not-exist.yaml");
    let (outcome, unchanged) = run_codegen(&missing);
    assert_eq!(outcome.status, 1);
    assert!(unchanged);
    let message = shown(&outcome.stderr);
    assert!(
        message
            .starts_with("tests/fixtures/broken/does-not-exist.yaml: error: cannot read the spec:"),
        "{message}"
    );
}

#[test]
fn one_strict_run_reports_every_problem_and_counts_them() {
    let strict = Options {
        strict: true,
        ..Options::default()
    };
    let (outcome, unchanged) =
        run_codegen_with(&fixture("flawed/18-units-unreadable.yaml"), &strict);
    assert_eq!(outcome.status, 1);
    assert!(unchanged);
    let message = shown(&outcome.stderr);
    let errors = message
        .lines()
        .filter(|line| line.contains(": error["))
        .count();
    assert_eq!(errors, 9, "{message}");
    assert!(
        message.ends_with("9 errors; generated/ was left unchanged.\n"),
        "{message}"
    );
}
