//! The generated code of every one-construct fixture must build and pass
//! `clippy -D warnings` and its doctests, not only parse: rustc accepts code
//! that clippy rejects (a collapsible `if`, a comparison with zero), and a
//! description with an indented line becomes a failing doctest.
//!
//! All fixtures go into one scratch workspace (each fixture's crates renamed
//! after it, so their names do not clash) with its own target directory under
//! `target/`, so the dependencies are built once and reused between runs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use tenant_codegen::emit::{CLIENT_CRATE, RUNTIME_CRATE, SERVER_CRATE, TYPES_CRATE};
use tenant_codegen::{GENERATED_DIR, generate};
use workspace_tests::{fixture, workspace_root};

fn construct_fixtures() -> Vec<PathBuf> {
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(fixture("constructs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    fixtures.sort();
    fixtures
}

/// `tenant-api-types` of fixture `one-of` becomes `one-of-tenant-api-types`,
/// in manifests (kebab) and code (snake) alike.
fn rename_crates(text: &str, prefix: &str) -> String {
    let mut text = text.to_string();
    for package in [TYPES_CRATE, CLIENT_CRATE, SERVER_CRATE] {
        text = text.replace(package, &format!("{prefix}-{package}"));
        text = text.replace(
            &package.replace('-', "_"),
            &format!("{}_{}", prefix.replace('-', "_"), package.replace('-', "_")),
        );
    }
    text
}

/// The real workspace's `[workspace.dependencies]` for the runtime crates the
/// generated manifests name, with path dependencies made absolute.
fn runtime_dependencies() -> BTreeMap<String, toml::Value> {
    let root = workspace_root();
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(root.join("Cargo.toml")).unwrap()).unwrap();
    let dependencies = manifest["workspace"]["dependencies"].as_table().unwrap();
    let mut out = BTreeMap::new();
    // The round trips also need an async runtime to serve and call with.
    let runtime_crates = tenant_codegen::emit::manifest::RUNTIME_CRATES;
    for name in runtime_crates.iter().chain(&["tokio", "futures-util"]) {
        let mut spec = dependencies[*name].clone();
        if let Some(path) = spec.get("path").and_then(toml::Value::as_str) {
            let absolute = root.join(path).display().to_string();
            spec.as_table_mut()
                .unwrap()
                .insert("path".into(), toml::Value::String(absolute));
        }
        out.insert(name.to_string(), spec);
    }
    assert!(out.contains_key(RUNTIME_CRATE));
    out
}

fn write_if_changed(path: &Path, contents: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(contents) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
}

fn cargo(scratch: &Path, target: &Path, args: &[&str]) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(args)
        .current_dir(scratch)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTDOCFLAGS")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "`cargo {}` failed on the generated code of the construct fixtures:\n{}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn generated_code_of_every_construct_passes_clippy_and_doctests() {
    let root = workspace_root();
    let scratch = root.join("target/construct-check/workspace");
    let target = root.join("target/construct-check/target");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch).unwrap();
    }
    let mut members = Vec::new();
    let mut dependencies = runtime_dependencies();
    for spec in construct_fixtures() {
        let prefix = spec.file_stem().unwrap().to_string_lossy().to_string();
        let relative = spec.strip_prefix(&root).unwrap();
        let tree = generate(&root, relative).unwrap_or_else(|err| panic!("{err}"));
        for file in &tree.files {
            let inside = file.path.strip_prefix(GENERATED_DIR).unwrap();
            let path = scratch.join(&prefix).join(inside);
            write_if_changed(&path, &rename_crates(&file.contents, &prefix));
        }
        for package in [TYPES_CRATE, CLIENT_CRATE, SERVER_CRATE] {
            let member = format!("{prefix}/{package}");
            let mut path = toml::Table::new();
            path.insert("path".into(), toml::Value::String(member.clone()));
            dependencies.insert(format!("{prefix}-{package}"), toml::Value::Table(path));
            members.push(member);
        }
    }
    let roundtrips = write_roundtrip_crate(&scratch, &members);
    members.push(roundtrips.clone());
    let manifest = format!(
        "[workspace]\nresolver = \"3\"\nmembers = {members:?}\n\n\
         [workspace.package]\nedition = \"2024\"\nrust-version = \"1.88\"\n\
         license = \"Apache-2.0\"\npublish = false\n\n\
         [workspace.dependencies]\n{}",
        dependencies
            .iter()
            .map(|(name, spec)| format!("{name} = {spec}\n"))
            .collect::<String>()
    );
    write_if_changed(&scratch.join("Cargo.toml"), &manifest);
    // The real lock file pins the same versions, so nothing is resolved anew.
    std::fs::copy(root.join("Cargo.lock"), scratch.join("Cargo.lock")).unwrap();

    cargo(
        &scratch,
        &target,
        &[
            "clippy",
            "--offline",
            "--workspace",
            "--all-targets",
            "--quiet",
            "--",
            "-D",
            "warnings",
        ],
    );
    cargo(
        &scratch,
        &target,
        &["test", "--offline", "--workspace", "--doc", "--quiet"],
    );
    // The client-server round trips, over a socket.
    cargo(
        &scratch,
        &target,
        &["test", "--offline", "-p", ROUNDTRIPS, "--quiet"],
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
";

/// A crate whose tests are `tests/fixtures/roundtrips/*.rs`: per fixture, its
/// generated client against its generated server. Each file uses the
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
         publish = false\n\n[dependencies]\naxum.workspace = true\ntokio.workspace = true\n\n\
         [dev-dependencies]\n\
         axum.workspace = true\nfutures-util.workspace = true\n\
         progenitor-client.workspace = true\nreqwest.workspace = true\n\
         serde_json.workspace = true\ntokio.workspace = true\n"
    );
    for member in fixture_members {
        let package = member.replace('/', "-");
        manifest.push_str(&format!("{package}.workspace = true\n"));
    }
    for source in &sources {
        let name = source.file_stem().unwrap().to_string_lossy();
        assert!(
            fixture("constructs").join(format!("{name}.yaml")).exists(),
            "round trip {name}.rs has no construct fixture {name}.yaml"
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
