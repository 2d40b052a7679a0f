//! The Rust API model of the real spec and of construct fixtures against
//! the generated crates it stands for: every trait method, response
//! variant, client method and builder argument, type, struct field (with
//! its type) and enum variant the model lists exists in the generated code,
//! found there by its text; and every Rust name a report on a change prints
//! exists in the code generated for the versions compared.

use std::path::{Path, PathBuf};

use openapi_crates_codegen::load::{LoadedSpec, parse_spec};
use openapi_crates_spec_diff::emitted::Emitted;
use openapi_crates_spec_diff::surface::{self, Generated, ItemKind, Surface};

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
    let surface = code_surface(&spec);
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

/// The model of `spec` from the code the generator emits for it.
fn code_surface(spec: &LoadedSpec) -> Surface {
    let emitted = Emitted::of(spec).unwrap_or_else(|e| panic!("{}: {e}", spec.path.display()));
    let prepared = surface::prepared(spec);
    Surface::of_code(&prepared, &Generated::of_prepared(&prepared), &emitted)
}

/// A type as the model writes it: module paths left out (`::std::option::`,
/// `types::`), no spaces.
fn without_paths(text: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let mut chars = text.chars().filter(|c| !c.is_whitespace()).peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        // A lowercase word followed by `::` is a module.
        if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            if word.starts_with(|c: char| c.is_ascii_uppercase()) {
                out.push_str(&word);
                out.push_str("::");
            }
            word.clear();
            continue;
        }
        out.push_str(&word);
        word.clear();
        out.push(c);
    }
    out.push_str(&word);
    out
}

/// The setters of the builder `Client::{method}` returns.
fn builder_setters(client: &str, method: &str) -> Option<String> {
    let start = client.find(&format!("pub fn {method}("))?;
    let rest = &client[start..];
    let builder = rest.split("builder::").nth(1)?.split('<').next()?.trim();
    // The builders are in a module: the impl ends at its indented brace.
    let header = format!("impl<'a> {builder}<'a> {{");
    let start = client.find(&header)?;
    let end = client[start..]
        .find("\n    }\n")
        .map_or(client.len(), |end| start + end);
    Some(client[start..end].to_string())
}

/// The text of the three generated crates.
struct Crates {
    types: String,
    client: String,
    server: String,
}

/// The trait method `name` of the generated server as the model writes a
/// signature: `fn name(context: RequestContext<Caller>, arg: Type, ..) ->
/// Response`, without the receiver and the crates' paths.
fn trait_signature(server: &str, name: &str) -> Option<String> {
    let start = server.find(&format!("\n    fn {name}(\n"))?;
    let rest = &server[start..];
    let end = rest.find(") -> impl Future<Output = ")?;
    let arguments: Vec<String> = rest[..end]
        .lines()
        .skip(2)
        .map(|line| line.trim().trim_end_matches(',').to_string())
        .filter(|line| !line.is_empty() && line != "&self")
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
                // `Client::method().argument`: a setter of that method's builder.
                let (method, argument) = item
                    .name
                    .trim_start_matches("Client::")
                    .split_once("().")
                    .unwrap();
                builder_setters(client, method).is_some_and(|setters| {
                    setters.contains(&format!("pub fn {argument}<"))
                        || setters.contains(&format!("pub fn {argument}(mut self, value: "))
                })
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
                let (owner, field) = item.name.split_once("::").unwrap();
                // A field of the types crate, with the model's type where
                // the declaration fits on one line (else its optionality).
                block(types, &format!("\npub struct {owner} {{")).is_some_and(|b| {
                    b.lines().any(|line| {
                        let Some(ty) = line.trim().strip_prefix(&format!("pub {field}: ")) else {
                            return false;
                        };
                        match ty.strip_suffix(',') {
                            Some(ty) => without_paths(ty) == without_paths(&item.signature),
                            None => ty.contains("Option<") == item.signature.starts_with("Option<"),
                        }
                    })
                })
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

/// Construct fixtures whose Rust API a model could get wrong: `default`
/// responses, bodies passed as bytes, parameters, several successes, status
/// ranges, bodies in several kinds, names that collide (properties, enum
/// values, parameters, schemas), unions, nullable and one-way fields,
/// WebSocket upgrades.
const FIXTURES: &[&str] = &[
    "default-responses.yaml",
    "raw-bodies.yaml",
    "parameters.yaml",
    "responses.yaml",
    "status-ranges.yaml",
    "body-alternatives.yaml",
    "colliding-names.yaml",
    "one-of.yaml",
    "one-way-and-nullable.yaml",
    "websockets.yaml",
];

/// The crates generated for the spec at `path` (absolute), in memory.
fn generate(path: &Path) -> Crates {
    let options = openapi_crates_codegen::Options {
        crate_prefix: Some("fixture".into()),
        strict: false,
        ..openapi_crates_codegen::Options::project()
    };
    let tree = openapi_crates_codegen::generate_with(&root(), path, &options)
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

/// An edit of a fixture's document.
type Change = fn(&mut serde_json::Value);

/// Operations moved: the first path removed (when there is another) and
/// every other operation renamed, so the report names trait methods,
/// response enums and client methods of both versions.
fn operations_moved(document: &mut serde_json::Value) {
    let paths = document["paths"].as_object_mut().expect("paths");
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
}

/// Types and arguments changed, operations kept: each component object's
/// first property renamed (one a discriminator names aside), each component
/// string enum's first value removed (when it has another) and a value
/// added, and each operation given an optional query parameter, so the
/// report names fields, variants and builder arguments.
fn types_changed(document: &mut serde_json::Value) {
    use serde_json::{Value, json};
    fn discriminators(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Object(object) => {
                if let Some(Value::String(name)) = object.get("propertyName") {
                    found.push(name.clone());
                }
                object.values().for_each(|v| discriminators(v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| discriminators(v, found)),
            _ => {}
        }
    }
    let mut kept = Vec::new();
    discriminators(document, &mut kept);
    if let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    {
        for schema in schemas.values_mut() {
            if let Some(Value::Array(values)) = schema.get_mut("enum")
                && values.iter().all(Value::is_string)
            {
                if values.len() > 1 {
                    values.remove(0);
                }
                values.push("added-value".into());
            }
            let Some(Value::Object(properties)) = schema.get_mut("properties") else {
                continue;
            };
            let Some(first) = properties.keys().find(|name| !kept.contains(name)).cloned() else {
                continue;
            };
            let renamed = format!("{first}Renamed");
            *properties = std::mem::take(properties)
                .into_iter()
                .map(|(name, property)| {
                    let name = if name == first { renamed.clone() } else { name };
                    (name, property)
                })
                .collect();
            if let Some(Value::Array(required)) = schema.get_mut("required") {
                for name in required.iter_mut().filter(|name| **name == *first) {
                    *name = renamed.clone().into();
                }
            }
        }
    }
    let paths = document["paths"].as_object_mut().expect("paths");
    for item in paths.values_mut().filter_map(|item| item.as_object_mut()) {
        for (method, operation) in item.iter_mut() {
            if !["get", "put", "post", "delete", "patch"].contains(&method.as_str()) {
                continue;
            }
            let parameter =
                json!({"name": "addedFilter", "in": "query", "schema": {"type": "integer"}});
            match operation.get_mut("parameters") {
                Some(Value::Array(parameters)) => parameters.push(parameter),
                _ => operation["parameters"] = json!([parameter]),
            }
        }
    }
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

/// Whether `owner::member` is a field or variant of the type `owner`, or a
/// builder argument `Client::method().member`, in `crates`.
fn member_exists(crates: &Crates, owner: &str, member: &str) -> bool {
    if let Some(method) = owner.strip_prefix("Client::") {
        return builder_setters(&crates.client, method.trim_end_matches("()")).is_some_and(
            |setters| {
                setters.contains(&format!("pub fn {member}<"))
                    || setters.contains(&format!("pub fn {member}(mut self"))
            },
        );
    }
    [&crates.types, &crates.server].iter().any(|text| {
        let declared = [
            format!("\npub struct {owner} {{"),
            format!("\npub enum {owner} {{"),
            format!("\n    pub struct {owner} {{"),
        ];
        declared.iter().any(|header| {
            block(text, header).is_some_and(|b| {
                b.lines().map(str::trim).any(|line| {
                    line.starts_with(&format!("pub {member}: "))
                        || line == format!("{member},")
                        || line.starts_with(&format!("{member}("))
                        || line.starts_with(&format!("{member} {{"))
                        || line == member
                })
            })
        })
    })
}

#[test]
fn the_model_of_construct_fixtures_and_changes_to_each_names_what_the_generators_produce() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let changes: [(&str, Change); 2] = [
        ("operations-moved", operations_moved),
        ("types-changed", types_changed),
    ];
    // What the reports spoke of, over every fixture: each kind must occur.
    let mut spoken = std::collections::BTreeSet::new();
    for fixture in FIXTURES {
        let before_path = root().join("tests/fixtures/constructs").join(fixture);
        let before_bytes = std::fs::read(&before_path).unwrap();
        let written =
            openapi_crates_codegen::parse_spec_as_written(&before_path, &before_bytes).unwrap();
        let before = {
            let spec = parse_spec(&before_path, &before_bytes).unwrap();
            check_model(fixture, &spec, generate(&before_path))
        };
        for (change, apply) in changes {
            let mut document = written.document.clone();
            apply(&mut document);
            let name = format!("{}-{change}.json", fixture.trim_end_matches(".yaml"));
            let after_path = scratch.path().join(&name);
            let after_bytes = serde_json::to_vec_pretty(&document).unwrap();
            std::fs::write(&after_path, &after_bytes).unwrap();
            let spec = parse_spec(&after_path, &after_bytes).unwrap();
            let after = check_model(&name, &spec, generate(&after_path));

            let report = openapi_crates_spec_diff::cli::compare(
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
            assert!(!effects.is_empty(), "{name}: the change has no Rust effect");
            for text in effects {
                assert!(
                    !text.contains("modelled from the document"),
                    "{name}: both versions generate, yet {text:?}"
                );
                for kind in [
                    "field `",
                    "enum variant `",
                    "builder argument `",
                    "trait method",
                ] {
                    if text.contains(kind) {
                        spoken.insert(kind);
                    }
                }
                check_report_names(&name, text, [&before, &after]);
            }
        }
    }
    assert_eq!(
        spoken.len(),
        4,
        "the reports spoke only of {spoken:?}: the changes no longer reach every kind of item"
    );
}

/// Every item of the model of `spec` is in `crates`, which it returns.
fn check_model(name: &str, spec: &LoadedSpec, crates: Crates) -> Crates {
    let surface = code_surface(spec);
    let (checked, missing) = missing_items(&surface, &crates);
    assert!(checked > 3, "{name}: the model lists only {checked} items");
    assert!(
        missing.is_empty(),
        "{name}: not generated:\n{}",
        missing.join("\n")
    );
    crates
}

/// Every identifier in the backquoted parts of `text` is in one of the
/// versions' code, and every `Owner::member` (a field, a variant, a
/// builder argument) is a member of that owner in one of them.
fn check_report_names(name: &str, text: &str, versions: [&Crates; 2]) {
    let everything: String = versions
        .iter()
        .flat_map(|c| [&c.types, &c.client, &c.server])
        .map(|text| text.as_str())
        .collect();
    for quoted in text.split('`').skip(1).step_by(2) {
        for word in quoted
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|word| word.starts_with(|c: char| c.is_ascii_alphabetic()))
            .filter(|word| !RUST_OWN.contains(word))
        {
            assert!(
                everything
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .any(|other| other == word),
                "{name}: the report names `{word}` (in {text:?}), which neither version's generated code has"
            );
        }
        // `Owner::member`, `Client::method().argument`: the first path of
        // the quoted text, up to its type or arguments.
        let path = quoted
            .split([' ', '<', ','])
            .next()
            .unwrap_or_default()
            .trim_end_matches(':');
        let (owner, member) = match path.split_once("().") {
            Some((method, argument)) => (method.to_string(), argument.to_string()),
            None => match path.rsplit_once("::") {
                Some((owner, member)) if !owner.is_empty() && !owner.contains("::") => {
                    (owner.to_string(), member.to_string())
                }
                _ => continue,
            },
        };
        if owner == "Client" || owner == "types" {
            continue;
        }
        let member = member.split('(').next().unwrap_or_default();
        assert!(
            versions
                .iter()
                .any(|crates| member_exists(crates, &owner, member)),
            "{name}: the report names `{owner}::{member}` (in {text:?}), which is no member of `{owner}` in either version"
        );
    }
}
