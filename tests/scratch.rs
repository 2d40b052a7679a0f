//! A scratch cargo workspace for generated crates: tests generate crates from
//! a spec, put them in a workspace of their own under `target/` and run cargo
//! on it, as a team depending on them would. Shared by the construct fixtures,
//! the published definition and the public descriptions, which also share one
//! target directory so the dependencies are built once.
//!
//! Not every test uses every helper (the construct fixtures cut no samples).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use openapi_crates_codegen::emit::{PROJECT_CRATE_PREFIX, RUNTIME_CRATE};
use openapi_crates_codegen::{
    Diagnostics, GENERATED_DIR, GeneratedTree, Options, Output, RUNTIME_DIR, Runtime, generate_with,
};
use serde_json::Value;
use workspace_tests::workspace_root;

/// Where every scratch workspace builds.
pub fn target_dir() -> PathBuf {
    workspace_root().join("target/construct-check/target")
}

/// Generates the crates of `spec` as a scratch workspace member set named
/// after `name`: fixture `one-of` gets `one-of-tenant-api-types`, ... (in
/// manifests, kebab; in code, snake: `one_of_tenant_api_client`), so the
/// crates of many specs live side by side.
pub fn generate_named(root: &Path, spec: &Path, name: &str) -> GeneratedTree {
    try_generate_named(root, spec, name).unwrap_or_else(|err| panic!("{err}"))
}

/// [`generate_named`], with the generator's message where it fails.
pub fn try_generate_named(
    root: &Path,
    spec: &Path,
    name: &str,
) -> Result<GeneratedTree, Diagnostics> {
    // Every scratch workspace's servers share this workspace's runtime.
    let options = Options {
        crate_prefix: Some(format!("{name}-{PROJECT_CRATE_PREFIX}")),
        output: Output {
            runtime: Runtime::Path(workspace_root().join(RUNTIME_DIR)),
            ..Output::default()
        },
        strict: false,
        ..Options::default()
    };
    generate_with(root, spec, &options)
}

/// Writes `tree` under `scratch/name` and adds its three crates to
/// `dependencies` (as path dependencies); returns the members.
pub fn write_crates(
    scratch: &Path,
    name: &str,
    tree: &GeneratedTree,
    dependencies: &mut BTreeMap<String, toml::Value>,
) -> Vec<String> {
    let mut members = Vec::new();
    for file in &tree.files {
        let inside = file.path.strip_prefix(GENERATED_DIR).unwrap();
        write_if_changed(&scratch.join(name).join(inside), &file.contents);
        if inside.file_name().is_some_and(|file| file == "Cargo.toml") {
            let package = inside.parent().unwrap().display().to_string();
            let member = format!("{name}/{package}");
            let mut path = toml::Table::new();
            path.insert("path".into(), toml::Value::String(member.clone()));
            // The client and server enable the types' features their own
            // features name; the types' default would enable them all.
            if package.ends_with("-types") {
                path.insert("default-features".into(), toml::Value::Boolean(false));
            }
            dependencies.insert(package, toml::Value::Table(path));
            members.push(member);
        }
    }
    // A description of components only has its types crate alone.
    assert!(
        members.len() == 3 || members.len() == 1,
        "three crates (or the types alone) from {name}"
    );
    members
}

/// The real workspace's `[workspace.dependencies]` for the runtime crates the
/// generated manifests name, with path dependencies made absolute.
pub fn runtime_dependencies() -> BTreeMap<String, toml::Value> {
    let root = workspace_root();
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(root.join("Cargo.toml")).unwrap()).unwrap();
    let dependencies = manifest["workspace"]["dependencies"].as_table().unwrap();
    let mut out = BTreeMap::new();
    // The round trips also need an async runtime to serve and call with.
    let runtime_crates = openapi_crates_codegen::emit::manifest::RUNTIME_CRATES;
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

pub fn write_if_changed(path: &Path, contents: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(contents) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
}

/// Writes the workspace manifest naming `members`, with `dependencies` as its
/// `[workspace.dependencies]`, and the real lock file: it pins the same
/// versions, so only what the real workspace never uses is resolved anew.
pub fn write_workspace(
    root: &Path,
    scratch: &Path,
    members: &[String],
    dependencies: &BTreeMap<String, toml::Value>,
) {
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
    std::fs::copy(root.join("Cargo.lock"), scratch.join("Cargo.lock")).unwrap();
}

/// Runs `cargo args` in `scratch`; fails the test with cargo's output.
pub fn cargo(scratch: &Path, args: &[&str]) {
    if let Err(output) = try_cargo(scratch, args) {
        panic!("{output}");
    }
}

/// Runs `cargo args` in `scratch`: its output where it fails.
pub fn try_cargo(scratch: &Path, args: &[&str]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(args)
        .current_dir(scratch)
        .env("CARGO_TARGET_DIR", target_dir())
        // Generated code is checked once per change: incremental data (GBs
        // for the published definition's types) would only fill the disk.
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTDOCFLAGS")
        .output()
        .unwrap();
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "`cargo {}` failed on the generated code in {}:\n{}\n{}",
        args.join(" "),
        scratch.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    ))
}

/// The methods a path item holds operations under.
pub use openapi_crates_codegen::vocabulary::METHODS;

/// `document` cut down to `operations` (path key and method) and the
/// components they reach (security schemes stay whole: operations name them,
/// not `$ref` them). A `$ref` into a component (`.../Tag/allOf/0`) keeps the
/// whole component.
pub fn sample_of(document: &Value, operations: &[(&str, &str)]) -> Value {
    let mut sample = document.clone();
    let paths = sample["paths"].as_object_mut().unwrap();
    paths.retain(|path, _| operations.iter().any(|(kept, _)| kept == path));
    for (path, item) in paths.iter_mut() {
        item.as_object_mut().unwrap().retain(|key, _| {
            !METHODS.contains(&key.as_str()) || operations.contains(&(path.as_str(), key.as_str()))
        });
    }
    let mut reached = BTreeSet::new();
    let mut pending = Vec::new();
    collect_refs(&sample["paths"], &mut pending);
    while let Some(target) = pending.pop() {
        if reached.insert(target.clone())
            && let Some(component) = document.pointer(&target)
        {
            collect_refs(component, &mut pending);
        }
    }
    let Some(sections) = sample.get_mut("components").and_then(Value::as_object_mut) else {
        return sample;
    };
    for (kind, components) in sections {
        if kind == "securitySchemes" {
            continue;
        }
        if let Some(components) = components.as_object_mut() {
            components.retain(|name, _| {
                let pointer = format!("/components/{kind}/{}", escape(name));
                reached.iter().any(|target| {
                    target
                        .strip_prefix(&pointer)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                })
            });
        }
    }
    sample
}

/// `token` as a JSON pointer writes it.
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Every `$ref` under `value` within its document, as a JSON pointer.
pub fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                match (key.as_str(), child) {
                    ("$ref", Value::String(target)) => {
                        if let Some(pointer) = target.strip_prefix('#') {
                            out.push(pointer.to_string());
                        }
                    }
                    _ => collect_refs(child, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_refs(item, out)),
        _ => {}
    }
}
