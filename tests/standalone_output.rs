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

/// How much of a description's output is built and tested: all of it, or
/// the operations of some tags (their Cargo features, as a team that uses
/// a few of a large API's tags builds it), since building the whole of a
/// large one would cost CI many minutes and tell no more about whether its
/// manifests and runtime copy stand alone; `tests/public_descriptions.rs`
/// checks the whole of it.
#[derive(Clone, Copy)]
enum Build {
    Whole,
    Tags(&'static [&'static str]),
}

/// A small 3.0 description, a 3.1 one, and DigitalOcean's (659 operations
/// over about 2,900 files).
const DESCRIPTIONS: &[(&str, Build)] = &[
    ("oai-examples/petstore-expanded.yaml", Build::Whole),
    ("oai-examples/tictactoe.yaml", Build::Whole),
    (
        "digitalocean/specification/DigitalOcean-public.v2.yaml",
        Build::Tags(&["ssh-keys", "regions"]),
    ),
];

/// The arguments selecting `build`'s part of the workspace in `dir`: for
/// tags, each generated crate's features of those tags (every generated
/// crate has one per tag; the vendored runtime has none) and the client's
/// TLS.
fn selection(dir: &Path, build: Build) -> Vec<String> {
    let Build::Tags(tags) = build else {
        return Vec::new();
    };
    let mut features = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let manifest: toml::Table = text.parse().unwrap();
        let Some(declared) = manifest.get("features").and_then(toml::Value::as_table) else {
            continue;
        };
        let package = manifest["package"]["name"].as_str().unwrap();
        for feature in tags.iter().copied().chain(["native-tls"]) {
            if declared.contains_key(feature) {
                features.push(format!("{package}/{feature}"));
            }
        }
    }
    features.sort();
    assert!(features.len() > tags.len(), "{features:?}");
    vec![
        "--workspace".into(),
        "--no-default-features".into(),
        "--features".into(),
        features.join(","),
    ]
}

fn cargo(dir: &Path, args: &[&str], selection: &[String]) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(args)
        .args(selection)
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
        "`cargo {} {}` failed in {}:\n{}\n{}",
        args.join(" "),
        selection.join(" "),
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
    for &(description, build) in DESCRIPTIONS {
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
        let selection = selection(&dir, build);
        cargo(&dir, &["build", "--offline", "--quiet"], &selection);
        cargo(&dir, &["test", "--offline", "--quiet"], &selection);
    }
}
