//! The binary's command line: help, and development tokens that the server accepts.

use std::process::Command;
use std::time::Duration;

use tenant_reference_server::{DEVELOPMENT_KEY, TokenIssuer};

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tenant-reference-server"))
        .args(args)
        .env_remove("REFERENCE_SERVER_SIGNING_KEY")
        .output()
        .expect("the binary runs")
}

#[test]
fn help_lists_the_serving_options_and_the_token_command() {
    let output = run(&["--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    for expected in [
        "--listen",
        "--fixtures",
        "--entity-limit",
        "--rate-limit",
        "mint-token",
    ] {
        assert!(help.contains(expected), "{expected} missing from:\n{help}");
    }
}

#[test]
fn minted_tokens_carry_the_chosen_client_and_scopes() {
    let output = run(&[
        "mint-token",
        "--tenant",
        "tenant.test",
        "--client-id",
        "dev-reader",
        "--scope",
        "read:actions",
        "--scope",
        "read:guardian_factors",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let token = String::from_utf8(output.stdout).unwrap();
    let claims = TokenIssuer::new("tenant.test", DEVELOPMENT_KEY)
        .verify(token.trim())
        .expect("the server's issuer accepts the token");
    assert_eq!(claims.azp, "dev-reader");
    assert_eq!(claims.scope, "read:actions read:guardian_factors");
    assert_eq!(claims.aud, "https://tenant.test/api/v2/");
    let lifetime = claims.exp - claims.iat;
    assert_eq!(
        Duration::from_secs(lifetime as u64),
        Duration::from_secs(3600)
    );
}

#[test]
fn a_missing_fixture_file_is_reported() {
    let output = run(&[
        "--listen",
        "127.0.0.1:0",
        "--fixtures",
        "/nonexistent/fixtures.json",
    ]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("/nonexistent/fixtures.json"), "{stderr}");
}
