//! The Rust API model of the real spec against the generated crates it
//! stands for: every trait method, response variant, client method and
//! builder argument, type, struct field (with its optionality) and enum
//! variant the model lists exists in `generated/`. This keeps the model's
//! naming in step with the generators'.

use std::path::{Path, PathBuf};

use tenant_codegen::load::parse_spec;
use tenant_spec_diff::surface::{Generated, ItemKind, Surface};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The text of the item that starts with `header`, up to its closing brace at column 0.
fn block<'a>(text: &'a str, header: &str) -> Option<&'a str> {
    let start = text.find(header)?;
    let end = text[start..].find("\n}").map_or(text.len(), |e| start + e);
    Some(&text[start..end])
}

#[test]
fn the_model_of_the_real_spec_names_what_the_generators_produce() {
    let spec_text = read("spec/tenant-management.yaml");
    let spec = parse_spec(
        Path::new("spec/tenant-management.yaml"),
        spec_text.as_bytes(),
    )
    .unwrap();
    let surface = Surface::of(&spec.document, &Generated::of(&spec));
    let generated = Crates {
        types: read("generated/tenant-api-types/src/lib.rs"),
        client: read("generated/tenant-api-client/src/lib.rs"),
        server: read("generated/tenant-api-server/src/lib.rs"),
    };
    let (checked, missing) = missing_items(&surface, &generated);
    assert!(checked > 80, "the model lists only {checked} items");
    assert!(
        missing.is_empty(),
        "not in generated/:\n{}",
        missing.join("\n")
    );
}

/// The text of the three generated crates.
struct Crates {
    types: String,
    client: String,
    server: String,
}

/// The trait method `name` of the generated server as the model writes a
/// signature: `fn name(arg: Type, ..) -> Response`, without the receiver,
/// the request context and the crates' paths.
fn trait_signature(server: &str, name: &str) -> Option<String> {
    let start = server.find(&format!("\n    fn {name}(\n"))?;
    let rest = &server[start..];
    let end = rest.find(") -> impl Future<Output = ")?;
    let arguments: Vec<String> = rest[..end]
        .lines()
        .skip(2)
        .map(|line| line.trim().trim_end_matches(',').to_string())
        .filter(|line| !line.is_empty() && line != "&self" && !line.starts_with("context: "))
        .map(|line| line.replace("types::", "").replace("axum::body::", ""))
        .collect();
    let output = &rest[end + ") -> impl Future<Output = ".len()..];
    let response = output.split('>').next()?.trim();
    Some(format!("fn {name}({}) -> {response}", arguments.join(", ")))
}

/// How many items of `surface` were looked for, and those not found.
fn missing_items(surface: &Surface, generated: &Crates) -> (usize, Vec<String>) {
    let Crates {
        types,
        client,
        server,
    } = generated;
    let mut missing = Vec::new();
    let mut checked = 0;
    for item in surface.items.values() {
        let found = match item.kind {
            ItemKind::TraitMethod => {
                trait_signature(server, &item.name).as_deref() == Some(item.signature.as_str())
            }
            ItemKind::ResponseVariant => {
                let (enumeration, variant) = item.name.split_once("::").unwrap();
                block(server, &format!("pub enum {enumeration} {{")).is_some_and(|b| {
                    b.contains(&format!("    {variant}("))
                        || b.contains(&format!("    {variant} {{"))
                        || b.contains(&format!("    {variant},"))
                })
            }
            ItemKind::ClientMethod => {
                let method = item.name.trim_start_matches("Client::");
                client.contains(&format!("pub fn {method}("))
            }
            ItemKind::ClientArgument { .. } => {
                let argument = item.name.rsplit('.').next().unwrap();
                // A typed argument is generic over what converts into it; a
                // raw body over what becomes a request body; a multipart one
                // takes the form.
                client.contains(&format!("pub fn {argument}<V>(mut self, value: V)"))
                    || (item.signature.contains("reqwest::Body")
                        && client.contains(&format!("pub fn {argument}<B>(mut self, value: B)")))
                    || (item.signature.contains("multipart::Form")
                        && client.contains(&format!(
                            "pub fn {argument}(mut self, value: crate::multipart::Form)"
                        )))
            }
            ItemKind::Type => {
                let name = item.name.trim_start_matches("types::");
                [
                    format!("pub struct {name} {{"),
                    format!("pub struct {name}("),
                    format!("pub enum {name} {{"),
                    format!("pub type {name} ="),
                ]
                .iter()
                .any(|header| types.contains(header.as_str()))
            }
            ItemKind::ParamsField => {
                let (owner, field) = item.name.split_once("::").unwrap();
                block(server, &format!("\npub struct {owner} {{")).is_some_and(|b| {
                    b.lines().any(|line| {
                        line.trim().replace("types::", "")
                            == format!("pub {field}: {},", item.signature)
                    })
                })
            }
            ItemKind::Field { .. } => {
                let optional = item.signature.starts_with("Option<");
                let (owner, field) = item.name.split_once("::").unwrap();
                // A struct of the types crate, or a server's parameters struct.
                let has_field = |text: &str, option: &str| {
                    block(text, &format!("\npub struct {owner} {{")).is_some_and(|b| {
                        b.lines().any(|line| {
                            let line = line.trim();
                            line.starts_with(&format!("pub {field}: "))
                                && line.contains(option) == optional
                        })
                    })
                };
                has_field(types, "::std::option::Option<") || has_field(server, "Option<")
            }
            ItemKind::Variant => {
                let (owner, variant) = item.name.split_once("::").unwrap();
                block(types, &format!("\npub enum {owner} {{")).is_some_and(|b| {
                    b.lines().any(|line| {
                        let line = line.trim();
                        line == format!("{variant},") || line.starts_with(&format!("{variant}("))
                    })
                })
            }
        };
        checked += 1;
        if !found {
            missing.push(format!(
                "{:?} {} ({})",
                item.kind, item.name, item.signature
            ));
        }
    }
    (checked, missing)
}

/// Construct fixtures whose Rust API the hand-written parts of the model
/// could get wrong: `default` responses, bodies passed as bytes, parameters,
/// several successes, status ranges, bodies in several kinds.
const FIXTURES: &[&str] = &[
    "default-responses.yaml",
    "raw-bodies.yaml",
    "parameters.yaml",
    "responses.yaml",
    "status-ranges.yaml",
    "body-alternatives.yaml",
];

/// The crates generated for the spec at `path` (absolute), in memory.
fn generate(path: &Path) -> Crates {
    let options = tenant_codegen::Options {
        crate_prefix: Some("fixture".into()),
    };
    let tree = tenant_codegen::generate_with(&root(), path, &options)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = |suffix: &str| {
        tree.files
            .iter()
            .find(|file| file.path.ends_with(suffix))
            .unwrap_or_else(|| panic!("{}: no {suffix}", path.display()))
            .contents
            .clone()
    };
    Crates {
        types: file("fixture-types/src/lib.rs"),
        client: file("fixture-client/src/lib.rs"),
        server: file("fixture-server/src/lib.rs"),
    }
}

/// The fixture changed: its first path removed (when it has another) and
/// every other operation renamed, so the report names Rust items of both
/// versions.
fn changed(document: &serde_json::Value) -> serde_json::Value {
    let mut changed = document.clone();
    let paths = changed["paths"].as_object_mut().expect("paths");
    if paths.len() > 1
        && let Some(first) = paths.keys().next().cloned()
    {
        paths.shift_remove(&first);
    }
    for item in paths.values_mut().filter_map(|item| item.as_object_mut()) {
        for operation in item.values_mut() {
            if let Some(id) = operation.get("operationId").and_then(|id| id.as_str()) {
                operation["operationId"] = format!("{id}_v2").into();
            }
        }
    }
    changed
}

/// Identifiers the report writes that are Rust's own, not generated.
const RUST_OWN: &[&str] = &[
    "fn",
    "Option",
    "Vec",
    "String",
    "bool",
    "i64",
    "f64",
    "u8",
    "u64",
    "i32",
    "f32",
    "Client",
    "types",
    "serde_json",
    "Value",
    "Map",
    "HashMap",
    "BTreeMap",
];

#[test]
fn the_model_of_construct_fixtures_and_a_change_to_each_names_what_the_generators_produce() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    for fixture in FIXTURES {
        let before_path = root().join("tests/fixtures/constructs").join(fixture);
        let before_bytes = std::fs::read(&before_path).unwrap();
        let written = tenant_codegen::parse_spec_as_written(&before_path, &before_bytes).unwrap();
        let after_path = scratch.path().join(fixture.replace(".yaml", ".json"));
        let after_bytes = serde_json::to_vec_pretty(&changed(&written.document)).unwrap();
        std::fs::write(&after_path, &after_bytes).unwrap();

        let mut generated = Vec::new();
        for (path, bytes) in [(&before_path, &before_bytes), (&after_path, &after_bytes)] {
            let spec = parse_spec(path, bytes).unwrap();
            let surface = Surface::of(&spec.document, &Generated::of(&spec));
            let crates = generate(path);
            let (checked, missing) = missing_items(&surface, &crates);
            assert!(
                checked > 3,
                "{fixture}: the model lists only {checked} items"
            );
            assert!(
                missing.is_empty(),
                "{fixture} ({}): not generated:\n{}",
                path.display(),
                missing.join("\n")
            );
            generated.push(crates);
        }

        let report = tenant_spec_diff::cli::compare(
            Some((&before_path, &before_bytes)),
            (&after_path, &after_bytes),
            "before",
            "after",
        )
        .unwrap();
        let effects: Vec<&str> = report
            .changes
            .iter()
            .flat_map(|change| &change.rust)
            .map(|effect| effect.text.as_str())
            .collect();
        assert!(
            !effects.is_empty(),
            "{fixture}: the change has no Rust effect"
        );
        let everything: String = generated
            .iter()
            .flat_map(|c| [&c.types, &c.client, &c.server])
            .map(String::as_str)
            .collect();
        for text in effects {
            for quoted in text.split('`').skip(1).step_by(2) {
                for name in quoted
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .filter(|name| name.starts_with(|c: char| c.is_ascii_alphabetic()))
                    .filter(|name| !RUST_OWN.contains(name))
                {
                    assert!(
                        everything
                            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                            .any(|word| word == name),
                        "{fixture}: the report names `{name}` (in {text:?}), which neither version's generated code has"
                    );
                }
            }
        }
    }
}
