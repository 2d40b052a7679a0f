//! The Rust API model of the real spec against the generated crates it
//! stands for: every trait method, response variant, client method and
//! builder argument, type, struct field (with its optionality) and enum
//! variant the model lists exists in `generated/`. This keeps the model's
//! naming in step with the generators'.

use std::path::{Path, PathBuf};

use tenant_codegen::load::parse_spec;
use tenant_spec_diff::surface::{ItemKind, Surface};

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
    let surface = Surface::of(&spec.document);
    let types = read("generated/tenant-api-types/src/lib.rs");
    let client = read("generated/tenant-api-client/src/lib.rs");
    let server = read("generated/tenant-api-server/src/lib.rs");

    let mut missing = Vec::new();
    let mut checked = 0;
    for item in surface.items.values() {
        let found = match item.kind {
            ItemKind::TraitMethod => server.contains(&format!("async fn {}(", item.name)),
            ItemKind::ResponseVariant => {
                let (enumeration, variant) = item.name.split_once("::").unwrap();
                block(&server, &format!("pub enum {enumeration} {{")).is_some_and(|b| {
                    b.contains(&format!("    {variant}("))
                        || b.contains(&format!("    {variant} {{"))
                })
            }
            ItemKind::ClientMethod => {
                let method = item.name.trim_start_matches("Client::");
                client.contains(&format!("pub fn {method}("))
            }
            ItemKind::ClientArgument { .. } => {
                let argument = item.name.rsplit('.').next().unwrap();
                client.contains(&format!("pub fn {argument}<V>(mut self, value: V)"))
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
            ItemKind::Field { .. } => {
                let optional = item.signature.starts_with("Option<");
                let (owner, field) = item.name.split_once("::").unwrap();
                block(&types, &format!("\npub struct {owner} {{")).is_some_and(|b| {
                    b.lines().any(|line| {
                        let line = line.trim();
                        line.starts_with(&format!("pub {field}: "))
                            && line.contains("::std::option::Option<") == optional
                    })
                })
            }
            ItemKind::Variant => {
                let (owner, variant) = item.name.split_once("::").unwrap();
                block(&types, &format!("\npub enum {owner} {{")).is_some_and(|b| {
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
    assert!(checked > 80, "the model lists only {checked} items");
    assert!(
        missing.is_empty(),
        "not in generated/:\n{}",
        missing.join("\n")
    );
}
