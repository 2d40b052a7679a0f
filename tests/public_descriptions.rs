//! Public API descriptions the generator has never been written for (Box,
//! Discord, DigitalOcean and the OpenAPI Initiative's examples, listed in
//! `SOURCES.md` beside them), read from `../shared/specs/public` and never
//! copied into the project, as data for its generality:
//!
//! - every description generates in full: the model the emitters work from
//!   holds as many operations as the raw document has, counted here without
//!   the generator (the methods of every path item and webhook, following a
//!   path item or an operation given by `$ref`, into other files too);
//! - the three crates of every description of up to
//!   [`CLIPPY_MAX_OPERATIONS`] operations (all of them today) pass `cargo
//!   clippy -D warnings`, in one scratch workspace, so the dependencies are
//!   checked once; a larger one would take more of CI's time than it has, and
//!   `crates/codegen/benches/generated_check.sh --public` checks it, with
//!   time and memory printed;
//! - a sample of the operations of some of them, generated on its own with
//!   the components it reaches, round-trips over a socket through its
//!   generated client and server (`tests/fixtures/public/<name>.rs`), errors
//!   in the API's own shape included.
//!
//! The scratch workspaces live under `target/construct-check/` and share its
//! target directory with the construct fixtures.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use saphyr::{LoadableYamlNode, Scalar, Yaml};
use serde_json::Value;
use workspace_tests::{fixture, workspace_root};

#[path = "scratch.rs"]
mod scratch;
use scratch::{
    METHODS, cargo, runtime_dependencies, sample_of, try_generate_named, write_crates,
    write_if_changed, write_workspace,
};

const PUBLIC: &str = "../shared/specs/public";

/// The size up to which CI checks a description's crates with clippy, in
/// operations. The check's cost grows with the generated code, which grows
/// with the operations and the schemas they reach: on two cores, Box (296
/// operations) takes under a minute and 2.2 GiB, DigitalOcean (659) about
/// 70 s and 2.8 GiB (`generated_check.sh --public` prints the figures), so
/// every public description fits CI's time. Up to this size a description stays within
/// the bench script's targets (4 minutes and 6 GiB for its check); a larger
/// one is left to `crates/codegen/benches/generated_check.sh --public`.
const CLIPPY_MAX_OPERATIONS: usize = 1000;

/// Every description under [`PUBLIC`] (relative to the workspace root,
/// sorted), or `None` (with a note) outside the team's machines; CI always
/// has them, so there their absence fails.
fn public_descriptions() -> Option<Vec<PathBuf>> {
    let root = workspace_root();
    if !root.join(PUBLIC).is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{PUBLIC} is missing; CI must provide it"
        );
        eprintln!("{PUBLIC} is not here: skipped");
        return None;
    }
    let mut descriptions = Vec::new();
    let mut pending = vec![PathBuf::from(PUBLIC)];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(root.join(&dir)).unwrap() {
            let entry = entry.unwrap();
            let path = dir.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                pending.push(path);
            } else if is_description(&root.join(&path)) {
                descriptions.push(path);
            }
        }
    }
    descriptions.sort();
    assert!(!descriptions.is_empty(), "no description under {PUBLIC}");
    Some(descriptions)
}

/// A JSON or YAML file whose top level has an `openapi` field (the files a
/// description refers to have none).
fn is_description(path: &Path) -> bool {
    let is_spec_file = path
        .extension()
        .and_then(|ext| ext.to_str())
        .is_some_and(|ext| ["json", "yaml", "yml"].contains(&ext));
    // Most of DigitalOcean's 2,900 files never name the field: skip parsing.
    is_spec_file
        && std::fs::read_to_string(path).is_ok_and(|text| text.contains("openapi"))
        && read_raw(path).is_ok_and(|document| document.get("openapi").is_some())
}

/// The file as JSON, read without the generator: JSON as it is, YAML through
/// the YAML parser alone (keys as their text; anchors are not followed).
fn read_raw(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|err| err.to_string())?;
    let json = path.extension().is_some_and(|ext| ext == "json")
        || text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('{');
    if json {
        return serde_json::from_str(&text).map_err(|err| err.to_string());
    }
    let documents = Yaml::load_from_str(&text).map_err(|err| err.to_string())?;
    match documents.as_slice() {
        [document] => Ok(yaml_to_json(document)),
        _ => Err(format!("{} YAML documents", documents.len())),
    }
}

fn yaml_to_json(node: &Yaml<'_>) -> Value {
    match node {
        Yaml::Value(scalar) => match scalar {
            Scalar::Null => Value::Null,
            Scalar::Boolean(value) => Value::Bool(*value),
            Scalar::Integer(value) => Value::from(*value),
            Scalar::FloatingPoint(value) => Value::from(value.into_inner()),
            Scalar::String(text) => Value::String(text.to_string()),
        },
        Yaml::Representation(text, ..) => Value::String(text.to_string()),
        Yaml::Sequence(items) => items.iter().map(yaml_to_json).collect(),
        Yaml::Mapping(entries) => entries
            .iter()
            .map(|(key, value)| (key_text(key), yaml_to_json(value)))
            .collect::<serde_json::Map<_, _>>()
            .into(),
        Yaml::Tagged(_, node) => yaml_to_json(node),
        Yaml::Alias(_) | Yaml::BadValue => Value::Null,
    }
}

/// A mapping key as JSON would hold it: `200:` is `"200"`.
fn key_text(key: &Yaml<'_>) -> String {
    match yaml_to_json(key) {
        Value::String(text) => text,
        other => other.to_string(),
    }
}

/// `path` with `.` and `..` resolved, so a file reached two ways is read once.
fn normalize(path: &Path) -> PathBuf {
    let mut parts: Vec<Component<'_>> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir if matches!(parts.last(), Some(Component::Normal(_))) => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.iter().collect()
}

/// The files of one description, each read once.
#[derive(Default)]
struct RawFiles {
    files: BTreeMap<PathBuf, Value>,
}

impl RawFiles {
    fn document(&mut self, path: &Path) -> Result<&Value, String> {
        if !self.files.contains_key(path) {
            let document = read_raw(path).map_err(|err| format!("{}: {err}", path.display()))?;
            self.files.insert(path.to_path_buf(), document);
        }
        Ok(&self.files[path])
    }

    /// `node` of `file`, or what its `$ref`s lead to, with the file that
    /// holds it.
    fn follow(&mut self, file: &Path, node: &Value) -> Result<(PathBuf, Value), String> {
        let (mut file, mut node) = (file.to_path_buf(), node.clone());
        for _ in 0..64 {
            let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
                return Ok((file, node));
            };
            let (target, pointer) = reference.split_once('#').unwrap_or((reference, ""));
            if !target.is_empty() {
                file = normalize(&file.parent().unwrap().join(target));
            }
            let document = self.document(&file)?;
            node = document
                .pointer(pointer)
                .ok_or_else(|| format!("{}: no `{reference}`", file.display()))?
                .clone();
        }
        Err(format!("{}: `$ref`s in a circle", file.display()))
    }
}

/// The operations of the description at `path`, counted in its raw files:
/// the methods of every path item and webhook, a path item or an operation
/// given by `$ref` followed (to another file, as DigitalOcean writes them).
fn raw_operation_count(path: &Path) -> Result<usize, String> {
    let mut files = RawFiles::default();
    let document = files.document(path)?.clone();
    let mut count = 0;
    for section in ["paths", "webhooks"] {
        let Some(items) = document.get(section).and_then(Value::as_object) else {
            continue;
        };
        for item in items.values() {
            let (file, item) = files.follow(path, item)?;
            for method in METHODS {
                if let Some(operation) = item.get(method) {
                    let (file, operation) = files.follow(&file, operation)?;
                    if !operation.is_object() {
                        return Err(format!(
                            "{}: an operation that is no object",
                            file.display()
                        ));
                    }
                    count += 1;
                }
            }
        }
    }
    Ok(count)
}

/// The operations the generator's model holds for `description`.
fn model_operation_count(root: &Path, description: &Path) -> Result<usize, String> {
    let mut loaded = openapi_crates_codegen::load::load_spec(root, description)
        .map_err(|err| err.to_string())?;
    openapi_crates_codegen::prepare_document(&mut loaded);
    let model =
        openapi_crates_codegen::model::build_model(&loaded).map_err(|err| err.to_string())?;
    Ok(model.operations.len() + model.webhooks.len())
}

/// A name for the description's crates, from its file name
/// (`DigitalOcean-public.v2.yaml` is `digitalocean-public-v2`).
fn crate_name(description: &Path) -> String {
    let stem = description.file_stem().unwrap().to_string_lossy();
    stem.chars()
        .map(|c| match c.is_ascii_alphanumeric() {
            true => c.to_ascii_lowercase(),
            false => '-',
        })
        .collect()
}

#[test]
fn every_public_description_generates_in_full_and_the_smaller_pass_clippy() {
    let Some(descriptions) = public_descriptions() else {
        return;
    };
    let root = workspace_root();
    let scratch = root.join("target/construct-check/public");
    let mut dependencies = runtime_dependencies();
    let mut members = Vec::new();
    let mut failures = Vec::new();
    for description in &descriptions {
        let shown = description.display();
        let counted = match raw_operation_count(&root.join(description)) {
            Ok(counted) => counted,
            Err(err) => panic!("{shown} cannot be read without the generator: {err}"),
        };
        match model_operation_count(&root, description) {
            Ok(held) if held == counted => {}
            Ok(held) => {
                failures.push(format!(
                    "{shown}: the model holds {held} of {counted} operations"
                ));
                continue;
            }
            Err(err) => {
                failures.push(format!("{shown} ({counted} operations): {err}"));
                continue;
            }
        }
        let name = crate_name(description);
        let tree = match try_generate_named(&root, description, &name) {
            Ok(tree) => tree,
            Err(err) => {
                failures.push(format!("{shown} ({counted} operations): {err}"));
                continue;
            }
        };
        if counted <= CLIPPY_MAX_OPERATIONS {
            members.extend(write_crates(&scratch, &name, &tree, &mut dependencies));
        } else {
            eprintln!(
                "{shown}: {counted} operations generate; its clippy check is \
                 crates/codegen/benches/generated_check.sh --public"
            );
        }
    }
    for failure in &failures {
        eprintln!("{failure}");
    }
    if !members.is_empty() {
        write_workspace(&root, &scratch, &members, &dependencies);
        // Not `--offline`: the descriptions' types may need crates (`uuid`)
        // the project's own lock file does not pin. The generated crates have
        // no targets beyond their libraries.
        cargo(
            &scratch,
            &["clippy", "--workspace", "--quiet", "--", "-D", "warnings"],
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {} public descriptions do not generate in full:\n{}",
        failures.len(),
        descriptions.len(),
        failures.join("\n")
    );
}

/// Operations of one public description that round-trip on their own.
struct Sample {
    /// The name of its crates and of its round trip
    /// (`tests/fixtures/public/{name}.rs`).
    name: &'static str,
    /// Under [`PUBLIC`].
    description: &'static str,
    /// Path key and method of each operation.
    operations: &'static [(&'static str, &'static str)],
}

const SAMPLES: &[Sample] = &[
    // A list with query parameters (a form list), a create, a get by id and
    // a delete, every error in the API's `Error {code, message}`.
    Sample {
        name: "petstore-expanded",
        description: "oai-examples/petstore-expanded.yaml",
        operations: &[
            ("/pets", "get"),
            ("/pets", "post"),
            ("/pets/{id}", "get"),
            ("/pets/{id}", "delete"),
        ],
    },
    // All three: a list, a get by two path parameters whose error is a JSON
    // string, and a search sent as a form.
    Sample {
        name: "uspto",
        description: "oai-examples/uspto.yaml",
        operations: &[
            ("/", "get"),
            ("/{dataset}/{version}/fields", "get"),
            ("/{dataset}/{version}/records", "post"),
        ],
    },
    // Groups (a list with an `explode: false` list of fields, a create, a
    // get, a delete), the OPTIONS of the events' long poll and a metadata
    // update in `application/json-patch+json`; errors are `ClientError`s.
    Sample {
        name: "box",
        description: "box.json",
        operations: &[
            ("/groups", "get"),
            ("/groups", "post"),
            ("/groups/{group_id}", "get"),
            ("/groups/{group_id}", "delete"),
            ("/events", "options"),
            ("/files/{file_id}/metadata/{scope}/{template_key}", "put"),
        ],
    },
    // A channel's messages: a list with query parameters, a create offered
    // as JSON, a form and multipart with files, a get and a delete, each
    // with a `4XX` range answered in Discord's `ErrorResponse`.
    Sample {
        name: "discord",
        description: "discord.json",
        operations: &[
            ("/channels/{channel_id}/messages", "get"),
            ("/channels/{channel_id}/messages", "post"),
            ("/channels/{channel_id}/messages/{message_id}", "get"),
            ("/channels/{channel_id}/messages/{message_id}", "delete"),
        ],
    },
];

const SAMPLE_ROUNDTRIPS: &str = "public-roundtrips";

/// What every round trip needs: the generated router on a loopback socket.
const SAMPLE_SUPPORT: &str = "//! Round trips live in `tests/`; this serves their routers.

/// Serves `router` on a free loopback port under `prefix` (the path of the
/// description's server URL, where its router serves); returns the base URL.
pub async fn serve(router: axum::Router, prefix: &str) -> String {
    let listener = tokio::net::TcpListener::bind(\"127.0.0.1:0\").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!(\"http://{address}{prefix}\")
}
";

#[test]
fn samples_of_public_descriptions_round_trip() {
    if public_descriptions().is_none() {
        return;
    }
    let root = workspace_root();
    let scratch = root.join("target/construct-check/public-samples");
    let mut dependencies = runtime_dependencies();
    let mut members = Vec::new();
    let mut manifest = format!(
        "[package]\nname = \"{SAMPLE_ROUNDTRIPS}\"\nversion = \"0.1.0\"\n\
         edition.workspace = true\npublish = false\n\n\
         [dependencies]\naxum.workspace = true\ntokio.workspace = true\n\n\
         [dev-dependencies]\n\
         axum.workspace = true\nprogenitor-client.workspace = true\n\
         reqwest = {{ workspace = true, features = [\"form\", \"json\"] }}\n\
         serde.workspace = true\nserde_json.workspace = true\ntokio.workspace = true\n"
    );
    let mut tests = String::new();
    for sample in SAMPLES {
        let path = root.join(PUBLIC).join(sample.description);
        let document = read_raw(&path).unwrap_or_else(|err| panic!("{err}"));
        let cut = sample_of(&document, sample.operations);
        let sampled = raw_operation_count_of(&cut);
        assert_eq!(sampled, sample.operations.len(), "{}", sample.name);
        let name = format!("{}-sample", sample.name);
        let spec = scratch.join(format!("{name}.json"));
        write_if_changed(&spec, &serde_json::to_string_pretty(&cut).unwrap());
        let tree = try_generate_named(&root, &spec, &name).unwrap_or_else(|err| panic!("{err}"));
        for member in write_crates(&scratch, &name, &tree, &mut dependencies) {
            let (_, package) = member.split_once('/').unwrap();
            manifest.push_str(&format!("{package}.workspace = true\n"));
            members.push(member);
        }
        let source = fixture(&format!("public/{}.rs", sample.name));
        let code = std::fs::read_to_string(&source)
            .unwrap_or_else(|err| panic!("{}: {err}", source.display()));
        let test = sample.name;
        write_if_changed(
            &scratch.join(format!("{SAMPLE_ROUNDTRIPS}/tests/{test}.rs")),
            &code,
        );
        tests.push_str(&format!(
            "\n[[test]]\nname = \"{test}\"\npath = \"tests/{test}.rs\"\n"
        ));
    }
    for entry in std::fs::read_dir(fixture("public")).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy();
        assert!(
            SAMPLES.iter().any(|sample| sample.name == stem),
            "{} round-trips no sample",
            path.display()
        );
    }
    manifest.push_str(&tests);
    let test_crate = scratch.join(SAMPLE_ROUNDTRIPS);
    write_if_changed(&test_crate.join("Cargo.toml"), &manifest);
    write_if_changed(&test_crate.join("src/lib.rs"), SAMPLE_SUPPORT);
    members.push(SAMPLE_ROUNDTRIPS.to_string());
    write_workspace(&root, &scratch, &members, &dependencies);
    cargo(
        &scratch,
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--quiet",
            "--",
            "-D",
            "warnings",
        ],
    );
    cargo(&scratch, &["test", "-p", SAMPLE_ROUNDTRIPS, "--quiet"]);
}

/// The methods of the path items of a document without `$ref`s to other
/// files (a sample).
fn raw_operation_count_of(document: &Value) -> usize {
    document["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().keys())
        .filter(|key| METHODS.contains(&key.as_str()))
        .count()
}
