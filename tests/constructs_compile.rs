//! The generated code of every one-construct fixture must build and pass
//! `clippy -D warnings` and its doctests, not only parse: rustc accepts code
//! that clippy rejects (a collapsible `if`, a comparison with zero), and a
//! description with an indented line becomes a failing doctest.
//!
//! All fixtures go into one scratch workspace (each fixture's crates renamed
//! after it, so their names do not clash) with its own target directory under
//! `target/`, so the dependencies are built once and reused between runs.

use std::path::{Path, PathBuf};

use workspace_tests::{fixture, workspace_root};

#[path = "scratch.rs"]
mod scratch;
use scratch::{
    cargo, generate_named, runtime_dependencies, write_crates, write_if_changed, write_workspace,
};

/// The construct fixtures, then the flawed descriptions (whose crates must
/// compile as cleanly, their flaws read as the warnings say), as (prefix of
/// the crates, spec).
fn construct_fixtures() -> Vec<(String, PathBuf)> {
    let mut fixtures = Vec::new();
    for (dir, prefix) in [("constructs", ""), ("flawed", "flawed-")] {
        let mut specs: Vec<PathBuf> = std::fs::read_dir(fixture(dir))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| {
                path.is_file()
                    && path
                        .extension()
                        .is_some_and(|ext| ext == "yaml" || ext == "json")
            })
            .collect();
        specs.sort();
        fixtures.extend(specs.into_iter().map(|spec| {
            let name = format!("{prefix}{}", spec.file_stem().unwrap().to_string_lossy());
            (name, spec)
        }));
    }
    fixtures
}

#[test]
fn generated_code_of_every_construct_passes_clippy_and_doctests() {
    let root = workspace_root();
    let scratch = root.join("target/construct-check/workspace");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch).unwrap();
    }
    let mut members = Vec::new();
    let mut dependencies = runtime_dependencies();
    for (prefix, spec) in construct_fixtures() {
        let relative = spec.strip_prefix(&root).unwrap();
        let tree = generate_named(&root, relative, &prefix);
        members.extend(write_crates(&scratch, &prefix, &tree, &mut dependencies));
    }
    let roundtrips = write_roundtrip_crate(&scratch, &members);
    members.push(roundtrips.clone());
    write_workspace(&root, &scratch, &members, &dependencies);

    // Every command selects the whole workspace, so that features unify
    // alike and each crate is built once: `-p` of the round trips alone
    // would build the generated crates again with its own features. The
    // generated crates have no tests of their own: their libraries and the
    // round trips' test files are what clippy reads.
    cargo(
        &scratch,
        &[
            "clippy",
            "--offline",
            "--workspace",
            "--lib",
            "--test",
            "*",
            "--quiet",
            "--",
            "-D",
            "warnings",
        ],
    );
    cargo(
        &scratch,
        &["test", "--offline", "--workspace", "--doc", "--quiet"],
    );
    // Rustdoc's own lints (an intra-doc link to nothing, an unclosed HTML
    // tag, a bare URL) run only when documenting: the crates of the fixture
    // whose descriptions hold every kind of text the spec's authors write
    // are documented with warnings denied (every fixture's would take as
    // long as the rest of this test; the spec's texts take one path to the
    // docs, whichever fixture they come from).
    let mut doc = vec![
        "doc",
        "--offline",
        "--no-deps",
        "--quiet",
        "--config",
        "build.rustdocflags=[\"-D\", \"warnings\"]",
    ];
    let documented: Vec<&str> = members
        .iter()
        .filter_map(|member| member.strip_prefix("doc-text/"))
        .collect();
    assert_eq!(documented.len(), 3, "the doc-text fixture's crates");
    for package in documented {
        doc.extend(["-p", package]);
    }
    cargo(&scratch, &doc);
    // The client-server round trips, over a socket.
    cargo(
        &scratch,
        &["test", "--offline", "--workspace", "--test", "*", "--quiet"],
    );
}

const ROUNDTRIPS: &str = "construct-roundtrips";

/// What every round trip needs: the generated router on a loopback socket.
const ROUNDTRIP_SUPPORT: &str = "//! Round trips live in `tests/`; this serves their routers.

/// Serves `router` on a free loopback port; returns its base URL.
pub async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind(\"127.0.0.1:0\").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!(\"http://{address}\")
}

/// The `errors[]` of a 400 answer as (pointer, code) pairs, in order (an
/// error about a parameter has no pointer: `\"\"`).
pub async fn rejected(response: reqwest::Response) -> Vec<(String, String)> {
    assert_eq!(response.status(), 400);
    let body: serde_json::Value = response.json().await.unwrap();
    let errors = body[\"errors\"].as_array().unwrap_or_else(|| panic!(\"no errors in {body}\"));
    errors
        .iter()
        .map(|error| {
            let pointer = error[\"pointer\"].as_str().unwrap_or_default();
            (pointer.to_string(), error[\"code\"].as_str().unwrap().to_string())
        })
        .collect()
}

/// The JSON body of a GET of `url`, as the wire carries it.
pub async fn get_json(url: String) -> serde_json::Value {
    reqwest::get(url).await.unwrap().json().await.unwrap()
}

/// `(pointer, code)` pairs as [`rejected`] returns them.
pub fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(pointer, code)| (pointer.to_string(), code.to_string()))
        .collect()
}
";

/// A crate whose tests are `tests/fixtures/roundtrips/*.rs`: per fixture (a
/// construct, or a flawed description: `flawed-{name}.rs`), its generated
/// client against its generated server. Each file uses the
/// fixture's crates by their renamed names (`parameters_tenant_api_client`).
fn write_roundtrip_crate(scratch: &Path, fixture_members: &[String]) -> String {
    let dir = scratch.join(ROUNDTRIPS);
    let mut sources: Vec<PathBuf> = std::fs::read_dir(fixture("roundtrips"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    sources.sort();
    let mut manifest = format!(
        "[package]\nname = \"{ROUNDTRIPS}\"\nversion = \"0.1.0\"\nedition.workspace = true\n\
         publish = false\n\n[dependencies]\naxum.workspace = true\nreqwest.workspace = true\n\
         serde_json.workspace = true\ntokio.workspace = true\n\n\
         [dev-dependencies]\n\
         axum.workspace = true\n\
         futures-util = {{ workspace = true, features = [\"sink\"] }}\n\
         progenitor-client.workspace = true\nreqwest.workspace = true\n\
         serde_json.workspace = true\ntokio.workspace = true\n"
    );
    for member in fixture_members {
        let (_, package) = member.split_once('/').unwrap();
        manifest.push_str(&format!("{package}.workspace = true\n"));
    }
    for source in &sources {
        let name = source.file_stem().unwrap().to_string_lossy();
        // A flawed description's crates are named `flawed-{its name}`.
        let spec = match name.strip_prefix("flawed-") {
            Some(flawed) => fixture("flawed").join(format!("{flawed}.yaml")),
            None => fixture("constructs").join(format!("{name}.yaml")),
        };
        assert!(
            spec.exists(),
            "round trip {name}.rs has no fixture {}",
            spec.display()
        );
        manifest.push_str(&format!(
            "\n[[test]]\nname = \"{name}\"\npath = \"tests/{name}.rs\"\n"
        ));
        write_if_changed(
            &dir.join(format!("tests/{name}.rs")),
            &std::fs::read_to_string(source).unwrap(),
        );
    }
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    write_if_changed(&dir.join("src/lib.rs"), ROUNDTRIP_SUPPORT);
    ROUNDTRIPS.to_string()
}
