//! What a team gets: the output of `openapi-crates codegen --out DIR` for
//! public descriptions (one split over thousands of files), written to a
//! directory outside this repository, must build and pass its tests there
//! with nothing of the repository: no path into it, nothing inherited from
//! its workspace, the server's runtime a copy in DIR.
//!
//! The builds share the target directory of the other scratch workspaces
//! (`tests/scratch.rs`), so dependencies are built once, and each output
//! gets this repository's lock file: the versions CI tests with (a team
//! without one resolves the newest compatible versions instead).

use std::path::{Path, PathBuf};
use std::process::Command;

use openapi_crates_codegen::write::write_tree;
use openapi_crates_codegen::{Layout, Options, Output, Runtime, generate_with};
use workspace_tests::{snapshot_dir, workspace_root};

const PUBLIC: &str = "../shared/specs/public";

/// What is done with a description's output: small ones are built and
/// tested; a large one is checked only (`cargo check`), as CI checks every
/// large output, since building its code would cost CI minutes and tell no
/// more about whether the manifests and the runtime copy stand alone.
#[derive(Clone, Copy, PartialEq)]
enum Proof {
    BuildAndTest,
    Check,
}

/// A small 3.0 description, a 3.1 one, and DigitalOcean's (659 operations
/// over about 2,900 files, so every feature of the manifests is used).
const DESCRIPTIONS: &[(&str, Proof)] = &[
    ("oai-examples/petstore-expanded.yaml", Proof::BuildAndTest),
    ("oai-examples/tictactoe.yaml", Proof::BuildAndTest),
    (
        "digitalocean/specification/DigitalOcean-public.v2.yaml",
        Proof::Check,
    ),
];

fn cargo(dir: &Path, args: &[&str]) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(args)
        .current_dir(dir)
        .env(
            "CARGO_TARGET_DIR",
            workspace_root().join("target/construct-check/target"),
        )
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTDOCFLAGS")
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "`cargo {}` failed in {}:\n{}\n{}",
        args.join(" "),
        dir.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn generated_workspaces_build_and_test_outside_the_repository() {
    let root = workspace_root();
    if !root.join(PUBLIC).is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{PUBLIC} is missing; CI must provide it"
        );
        eprintln!("{PUBLIC} is not here: skipped");
        return;
    }
    let outside = tempfile::tempdir().unwrap();
    let repository = root.canonicalize().unwrap();
    assert!(
        !outside
            .path()
            .canonicalize()
            .unwrap()
            .starts_with(&repository)
    );
    for &(description, proof) in DESCRIPTIONS {
        let spec = PathBuf::from(PUBLIC).join(description);
        let name = spec.file_stem().unwrap().to_string_lossy().to_lowercase();
        let dir = outside.path().join(&name);
        let options = Options {
            output: Output {
                dir: dir.clone(),
                layout: Layout::Workspace,
                runtime: Runtime::Vendored,
            },
            ..Options::default()
        };
        let tree = generate_with(&root, &spec, &options).unwrap_or_else(|err| panic!("{err}"));
        write_tree(Path::new(""), &tree).unwrap();
        for (path, contents) in snapshot_dir(&dir) {
            let text = String::from_utf8_lossy(&contents);
            for forbidden in [repository.to_string_lossy(), root.to_string_lossy()] {
                assert!(
                    !text.contains(&*forbidden),
                    "{description}: {} names the repository",
                    path.display()
                );
            }
            if path.ends_with("Cargo.toml") {
                assert!(!text.contains("workspace = true"), "{}", path.display());
            }
        }
        std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
        match proof {
            Proof::BuildAndTest => {
                cargo(&dir, &["build", "--offline", "--quiet"]);
                cargo(&dir, &["test", "--offline", "--quiet"]);
            }
            Proof::Check => cargo(&dir, &["check", "--offline", "--quiet", "--all-targets"]),
        }
    }
}
