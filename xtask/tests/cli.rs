//! The real `xtask` binary: exit statuses and help, as a maintainer sees them.

use std::path::Path;
use std::process::Command;

fn xtask(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("xtask runs")
}

#[test]
fn check_passes_on_the_checkout() {
    let output = xtask(&["codegen", "--check"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_broken_spec_exits_with_status_1_and_a_located_message() {
    let spec = "tests/fixtures/broken/18-duplicate-mapping-key.yaml";
    // --check keeps the test from writing even if the spec were accepted.
    let output = xtask(&["codegen", "--check", "--spec", spec]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "{spec}:17:3: error: invalid YAML: duplicated key in mapping"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(spec)
            .exists()
    );
}

#[test]
fn help_explains_the_codegen_command() {
    let output = xtask(&["codegen", "--help"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(
        stdout.contains("--check") && stdout.contains("--spec"),
        "{stdout}"
    );
    assert!(stdout.contains("nothing is written"), "{stdout}");
}

#[test]
fn help_explains_the_spec_diff_command() {
    let output = xtask(&["spec-diff", "--help"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    for option in ["--base", "--format", "[SPEC]", "x-breaking-changes"] {
        assert!(stdout.contains(option), "{option} missing from:\n{stdout}");
    }
}

#[test]
fn spec_diff_rejects_an_unknown_revision_with_status_1() {
    let output = xtask(&["spec-diff", "--base", "no-such-revision-anywhere"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("base revision `no-such-revision-anywhere` does not resolve"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
