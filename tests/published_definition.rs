//! The platform's whole published Management API definition (OpenAPI 3.1,
//! 452 operations, read from `../shared/specs`, never copied into the
//! project) as data for the generator's generality and scale:
//!
//! - all of it generates, and its three crates pass `cargo clippy -D
//!   warnings` (clippy runs the whole of `cargo check` first, so one run
//!   answers both; nothing is built, which keeps CI's cost to a check);
//! - a sample of its operations, generated on their own with the components
//!   they reach, is built and its client talks to its server over a socket
//!   (`tests/fixtures/published/sample.rs`).
//!
//! Both write into scratch workspaces under `target/construct-check/` and
//! share that target directory with the construct fixtures.

use std::path::{Path, PathBuf};

use serde_json::Value;
use workspace_tests::{fixture, workspace_root};

#[path = "scratch.rs"]
mod scratch;
use scratch::{
    METHODS, cargo, generate_named, runtime_dependencies, sample_of, write_crates,
    write_if_changed, write_workspace,
};

const PUBLISHED: &str = "../shared/specs/platform-management-api.oas.json";

/// The definition's path, or `None` (with a note) outside the team's
/// machines; CI always has it, so there its absence fails.
fn published_definition() -> Option<PathBuf> {
    let path = workspace_root().join(PUBLISHED);
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{PUBLISHED} is missing; CI must provide it"
    );
    eprintln!("{PUBLISHED} is not here: skipped");
    None
}

fn operation_count(document: &Value) -> usize {
    document["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().keys())
        .filter(|key| METHODS.contains(&key.as_str()))
        .count()
}

#[test]
fn the_whole_published_definition_generates_and_passes_clippy() {
    let Some(spec) = published_definition() else {
        return;
    };
    let root = workspace_root();
    let document: Value = serde_json::from_slice(&std::fs::read(&spec).unwrap()).unwrap();
    let operations = operation_count(&document);
    assert_eq!(operations, 452, "the published definition changed size");

    // Every operation reaches the model the emitters work from; none is
    // skipped.
    let mut loaded = openapi_crates_codegen::load::load_spec(&root, Path::new(PUBLISHED)).unwrap();
    openapi_crates_codegen::prepare_document(&mut loaded);
    let model =
        openapi_crates_codegen::model::build_model(&loaded).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(model.operations.len(), operations);
    drop((loaded, model));
    let tree = generate_named(&root, Path::new(PUBLISHED), "published");

    let scratch = root.join("target/construct-check/published");
    let mut dependencies = runtime_dependencies();
    let members = write_crates(&scratch, "published", &tree, &mut dependencies);
    drop(tree);
    write_workspace(&root, &scratch, &members, &dependencies);
    // Not `--offline`: the published definition's types need `uuid`, which
    // the project's own lock file does not pin. The library targets only:
    // the generated crates have no tests of their own, and `--all-targets`
    // would check the 400k-line types crate twice (about 5 GB each).
    cargo(
        &scratch,
        &["clippy", "--workspace", "--quiet", "--", "-D", "warnings"],
    );
}

/// The sample: a list with pagination (`page`/`per_page`, and `from`/`take`
/// checkpoints; not `/organizations`, whose `oneOf` of two all-optional
/// object shapes the client cannot tell apart: see ARCHITECTURE.md), a get,
/// a PATCH with `null` and a header parameter, a delete answering 204, and a
/// multipart upload.
const SAMPLE: &[(&str, &str)] = &[
    ("/users", "get"),
    ("/users/{id}", "get"),
    ("/users/{id}", "patch"),
    ("/users/{id}", "delete"),
    ("/organizations/{id}/discovery-domains", "get"),
    ("/jobs/users-imports", "post"),
];

#[test]
fn a_sample_of_the_published_definition_round_trips() {
    let Some(spec) = published_definition() else {
        return;
    };
    let root = workspace_root();
    let document: Value = serde_json::from_slice(&std::fs::read(&spec).unwrap()).unwrap();
    let sample = sample_of(&document, SAMPLE);
    assert_eq!(operation_count(&sample), SAMPLE.len());

    let scratch = root.join("target/construct-check/published-sample");
    let sample_spec = scratch.join("sample.oas.json");
    write_if_changed(
        &sample_spec,
        &serde_json::to_string_pretty(&sample).unwrap(),
    );
    let tree = generate_named(&root, &sample_spec, "sample");
    let mut dependencies = runtime_dependencies();
    let mut members = write_crates(&scratch, "sample", &tree, &mut dependencies);

    let test_crate = "sample-roundtrip";
    let mut manifest = format!(
        "[package]\nname = \"{test_crate}\"\nversion = \"0.1.0\"\nedition.workspace = true\n\
         publish = false\n\n[dev-dependencies]\n\
         axum.workspace = true\n\
         reqwest = {{ workspace = true, features = [\"json\"] }}\n\
         serde.workspace = true\nserde_json.workspace = true\ntokio.workspace = true\n"
    );
    for member in &members {
        let (_, package) = member.split_once('/').unwrap();
        manifest.push_str(&format!("{package}.workspace = true\n"));
    }
    write_if_changed(&scratch.join(test_crate).join("Cargo.toml"), &manifest);
    write_if_changed(&scratch.join(test_crate).join("src/lib.rs"), "");
    write_if_changed(
        &scratch.join(test_crate).join("tests/sample.rs"),
        &std::fs::read_to_string(fixture("published/sample.rs")).unwrap(),
    );
    members.push(test_crate.to_string());
    write_workspace(&root, &scratch, &members, &dependencies);
    cargo(&scratch, &["test", "-p", test_crate, "--quiet"]);
}
