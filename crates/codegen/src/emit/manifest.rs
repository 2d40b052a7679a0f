//! The `Cargo.toml` files of the output: the three generated crates', the
//! vendored runtime's, and the workspace root's when the output is a
//! workspace of its own.
//!
//! Generated crates depend on runtime crates only, never on the generators.
//! Every manifest states its dependencies in full (version, features), so
//! the crates build wherever they are put: in a workspace of their own, in a
//! team's workspace, or in this one. The versions are this workspace's own
//! (its `[workspace.dependencies]`, read at compile time): one list, which
//! this workspace's builds and tests exercise, and the generated crates ask
//! for the same.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::LazyLock;

use crate::emit::features::{ALL, Features};
use crate::emit::progenitor::TypeDependencies;
use crate::emit::{CrateNames, RUNTIME_CRATE};

/// Every runtime crate a generated manifest may name, beside the generated
/// crates themselves.
pub const RUNTIME_CRATES: &[&str] = &[
    "axum",
    "chrono",
    "progenitor-client",
    "regress",
    "reqwest",
    "rustls",
    "serde",
    "serde_json",
    RUNTIME_CRATE,
    "uuid",
];

/// The edition and oldest toolchain of every crate written.
const EDITION: &str = "2024";
const RUST_VERSION: &str = "1.88";

/// This workspace's manifest: its `[workspace.dependencies]` are the
/// versions every written manifest asks for, and its `[workspace.package]`
/// what the vendored runtime inherits in this workspace.
static WORKSPACE: LazyLock<toml::Table> = LazyLock::new(|| {
    include_str!("../../../../Cargo.toml")
        .parse()
        .expect("the workspace manifest parses (it builds this crate)")
});

/// How a generated crate reaches the server runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runtime {
    /// A copy of its source is written beside the generated crates, so they
    /// build where this repository is absent.
    Vendored,
    /// The runtime crate at this path, relative to the output root (or
    /// absolute): this workspace's own `crates/runtime`, or a copy
    /// another API's generation vendored.
    Path(PathBuf),
}

/// The `[dependencies]` entry of `name`: this workspace's declaration,
/// written out in full.
fn registry_dependency(name: &str, optional: bool) -> String {
    let declared = WORKSPACE["workspace"]["dependencies"]
        .get(name)
        .unwrap_or_else(|| panic!("{name} is declared in [workspace.dependencies]"));
    let mut fields = Vec::new();
    match declared {
        toml::Value::String(version) => fields.push(format!("version = {}", quoted(version))),
        toml::Value::Table(table) => {
            let version = table["version"].as_str().expect("a registry version");
            fields.push(format!("version = {}", quoted(version)));
            if table.get("default-features") == Some(&toml::Value::Boolean(false)) {
                fields.push("default-features = false".to_string());
            }
            if let Some(features) = table.get("features").and_then(toml::Value::as_array) {
                let features: Vec<String> = features
                    .iter()
                    .filter_map(toml::Value::as_str)
                    .map(quoted)
                    .collect();
                fields.push(format!("features = [{}]", features.join(", ")));
            }
        }
        other => panic!("{name}: unexpected declaration {other}"),
    }
    if optional {
        fields.push("optional = true".to_string());
    }
    match fields.as_slice() {
        [version] if version.starts_with("version = ") => {
            format!("{name} = {}\n", &version["version = ".len()..])
        }
        _ => format!("{name} = {{ {} }}\n", fields.join(", ")),
    }
}

/// A path dependency on `name`, at `path` from the crate's directory.
fn path_dependency(name: &str, path: &Path, default_features: bool) -> String {
    let path = path.display().to_string().replace('\\', "/");
    let defaults = if default_features {
        ""
    } else {
        ", default-features = false"
    };
    format!("{name} = {{ path = {}{defaults} }}\n", quoted(&path))
}

fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// Where the written crates live relative to each other, for their path
/// dependencies: the generated crates are siblings in `crates_dir` (relative
/// to the output root), the runtime wherever [`Runtime`] says.
#[derive(Debug, Clone)]
pub struct Placement<'a> {
    pub crates_dir: &'a Path,
    pub runtime: &'a Runtime,
}

impl Placement<'_> {
    /// The runtime's directory relative to a generated crate's.
    fn runtime_from_crate(&self) -> PathBuf {
        match self.runtime {
            Runtime::Vendored => Path::new("..").join(RUNTIME_CRATE),
            Runtime::Path(path) => relative_to(path, &self.crates_dir.join("crate")),
        }
    }
}

/// `target` (relative to the output root, or absolute) as seen from `dir`
/// (relative to the output root): `../` for each component of `dir`, then
/// `target`. An absolute `target`, or a `dir` that climbs out of the root,
/// stays as given.
fn relative_to(target: &Path, dir: &Path) -> PathBuf {
    if target.is_absolute()
        || dir.is_absolute()
        || dir
            .components()
            .any(|component| matches!(component, Component::ParentDir))
    {
        return target.to_path_buf();
    }
    let mut path = PathBuf::new();
    for component in dir.components() {
        if matches!(component, Component::Normal(_)) {
            path.push("..");
        }
    }
    path.join(target)
}

/// What the spec says of the crates beyond their code.
#[derive(Debug, Clone, Copy)]
pub struct Package<'a> {
    pub title: &'a str,
    /// The crates' version ([`crate_version`]).
    pub version: &'a str,
    /// An SPDX expression from the spec's `info.license`, if it gives one.
    pub license: Option<&'a str>,
}

/// The crates' version from `info.version`: a semantic version as it is (a
/// leading `v` dropped), `MAJOR` or `MAJOR.MINOR` completed with zeros, and
/// anything else (a date, a name) `0.1.0` with the text kept as build
/// metadata (`2024-10-01` gives `0.1.0+2024-10-01`), so the manifest still
/// says which description the crates came from.
pub fn crate_version(info_version: &str) -> String {
    let text = info_version.trim();
    let text = text
        .strip_prefix(['v', 'V'])
        .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        .unwrap_or(text);
    if is_semver(text) {
        return text.to_string();
    }
    let numbers: Vec<&str> = text.split('.').collect();
    if (1..=2).contains(&numbers.len()) && numbers.iter().all(|part| is_number(part)) {
        let mut padded = numbers.join(".");
        for _ in numbers.len()..3 {
            padded.push_str(".0");
        }
        return padded;
    }
    let metadata: Vec<String> = text
        .split('.')
        .map(|part| {
            part.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect::<String>()
        })
        .filter(|part| !part.is_empty())
        .collect();
    if metadata.is_empty() {
        "0.1.0".to_string()
    } else {
        format!("0.1.0+{}", metadata.join("."))
    }
}

/// A number without a leading zero, as semantic versions write them.
fn is_number(text: &str) -> bool {
    !text.is_empty()
        && text.chars().all(|c| c.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'))
}

/// `MAJOR.MINOR.PATCH`, optionally `-pre` and `+build` (semver 2.0.0).
fn is_semver(text: &str) -> bool {
    let (rest, build) = match text.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (text, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (rest, None),
    };
    let identifiers = |text: &str, numeric_rule: bool| {
        text.split('.').all(|part| {
            !part.is_empty()
                && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && (!numeric_rule || !part.chars().all(|c| c.is_ascii_digit()) || is_number(part))
        })
    };
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|part| is_number(part))
        && pre.is_none_or(|pre| identifiers(pre, true))
        && build.is_none_or(|build| identifiers(build, false))
}

/// Every types crate calls the runtime's `types` helpers (its `__checked`),
/// and its `patterns` matching when a constrained string has a `pattern`.
pub fn types_manifest(
    crates: &CrateNames,
    package: Package<'_>,
    features: &Features,
    uses: TypeDependencies,
    placement: &Placement<'_>,
) -> String {
    let mut dependencies = vec!["serde"];
    for (used, name) in [
        (uses.chrono, "chrono"),
        (uses.regress, "regress"),
        (uses.serde_json, "serde_json"),
        (uses.uuid, "uuid"),
    ] {
        if used {
            dependencies.push(name);
        }
    }
    let mut manifest = package_table(
        &crates.types,
        package,
        &format!(
            "Types of the {}, shared by its generated client and server.",
            package.title
        ),
    );
    manifest.push_str(&registry_dependencies(&dependencies, ""));
    let mut runtime_features = vec!["types"];
    if uses.regress {
        runtime_features.push("patterns");
    }
    if uses.chrono {
        // The written-out impls write UTC timestamps through the runtime.
        runtime_features.push("timestamps");
    }
    manifest.push_str(&runtime_dependency(placement, &runtime_features));
    manifest.push_str(&feature_table(features, None, &["all"]));
    manifest
}

/// The runtime as a generated crate depends on it: without the server's
/// plumbing unless `features` asks for it.
fn runtime_dependency(placement: &Placement<'_>, features: &[&str]) -> String {
    let runtime = placement.runtime_from_crate().display().to_string();
    let features: Vec<String> = features.iter().map(|feature| quoted(feature)).collect();
    format!(
        "{RUNTIME_CRATE} = {{ path = {}, default-features = false, features = [{}] }}\n",
        quoted(&runtime.replace('\\', "/")),
        features.join(", ")
    )
}

/// The `[features]` table: `default` (`defaults`), `all`, and one feature
/// per tag, each enabling the same feature of `types` (the types crate's
/// package name), when given.
fn feature_table(features: &Features, types: Option<&str>, defaults: &[&str]) -> String {
    let quoted = |names: &mut dyn Iterator<Item = String>| -> String {
        names
            .map(|name| format!("\"{name}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = format!(
        "\n[features]\ndefault = [{}]\n",
        quoted(&mut defaults.iter().map(|name| name.to_string()))
    );
    let tags: &[(String, String)] = if features.gated() {
        features.tags()
    } else {
        &[]
    };
    let of_types = |feature: &str| types.map(|types| format!("{types}/{feature}"));
    out.push_str("## Every operation of the API.\n");
    out.push_str(&format!(
        "{ALL} = [{}]\n",
        quoted(
            &mut tags
                .iter()
                .map(|(feature, _)| feature.clone())
                .chain(of_types(ALL))
        )
    ));
    for (feature, tag) in tags {
        let tag = tag.replace(['\n', '\r'], " ");
        if tag == crate::emit::features::UNTAGGED {
            out.push_str("## The operations without a tag.\n");
        } else {
            out.push_str(&format!("## The operations tagged `{tag}`.\n"));
        }
        out.push_str(&format!(
            "{feature} = [{}]\n",
            quoted(&mut of_types(feature).into_iter())
        ));
    }
    out
}

/// `writes_parameters`: the client writes some parameters itself, through
/// JSON. Every client sends through the runtime's hooks (its `client`
/// feature, without the server's plumbing); `websocket`: an operation
/// upgrades, and the runtime's `websocket` feature opens the connection.
pub fn client_manifest(
    crates: &CrateNames,
    package: Package<'_>,
    features: &Features,
    uses: TypeDependencies,
    writes_parameters: bool,
    websocket: bool,
    placement: &Placement<'_>,
) -> String {
    let mut dependencies = vec!["progenitor-client", "reqwest", "serde"];
    // Progenitor's client code names these directly when the types do (a
    // builder's field for a `date-time` or `uuid` parameter).
    if uses.serde_json || writes_parameters {
        dependencies.push("serde_json");
    }
    if uses.chrono {
        dependencies.push("chrono");
    }
    if uses.uuid {
        dependencies.push("uuid");
    }
    let mut manifest = package_table(
        &crates.client,
        package,
        &format!("Client of the {}, generated by progenitor.", package.title),
    );
    // The service is reached over HTTPS; TLS is on unless a user opts out.
    // The default is the platform's TLS library, the lightest to build
    // (rustls with `ring` builds ring's C and assembly, reqwest's own rustls
    // default aws-lc-rs a larger C library).
    manifest.push_str(&registry_dependencies(
        &dependencies,
        &registry_dependency("rustls", true),
    ));
    let runtime_features: &[&str] = if websocket {
        &["client", "websocket"]
    } else {
        &["client"]
    };
    manifest.push_str(&runtime_dependency(placement, runtime_features));
    manifest.push_str(&path_dependency(
        &crates.types,
        &Path::new("..").join(&crates.types),
        false,
    ));
    manifest.push_str(&feature_table(
        features,
        Some(&crates.types),
        &["all", "native-tls"],
    ));
    manifest.push_str(
        "## HTTPS through the platform's TLS library (OpenSSL on Linux, which needs its
## development files to build; Secure Transport on macOS, SChannel on Windows).
native-tls = [\"reqwest/native-tls\"]
## HTTPS through rustls with the `ring` provider and the platform's certificate
## verifier, without a C TLS library. `Client::new` installs `ring` as the
## process's rustls provider when none is installed; see
## `install_crypto_provider`.
rustls = [\"reqwest/rustls-no-provider\", \"dep:rustls\"]
## HTTPS through rustls with aws-lc-rs, reqwest's own default (a longer build).
rustls-aws-lc = [\"reqwest/rustls\"]
",
    );
    manifest.push_str(&opentelemetry_feature());
    manifest
}

/// The feature that sends (client) or continues (server) each call's trace
/// as W3C `traceparent`, through the runtime.
fn opentelemetry_feature() -> String {
    format!(
        "## W3C `traceparent`: each call's span is sent with the request (client) and
## continued by the operation's span (server), through the OpenTelemetry
## propagator the application installs and `tracing-opentelemetry`.
opentelemetry = [\"{RUNTIME_CRATE}/opentelemetry\"]
"
    )
}
/// `websocket`: an operation upgrades, served through axum's `ws`
/// (the runtime's `websocket` feature).
pub fn server_manifest(
    crates: &CrateNames,
    package: Package<'_>,
    features: &Features,
    websocket: bool,
    placement: &Placement<'_>,
) -> String {
    let mut manifest = package_table(
        &crates.server,
        package,
        &format!(
            "Server of the {}: a trait to implement and an axum router.",
            package.title
        ),
    );
    manifest.push_str(&registry_dependencies(&["axum"], ""));
    manifest.push_str(&if websocket {
        runtime_dependency(placement, &["server", "websocket"])
    } else {
        path_dependency(RUNTIME_CRATE, &placement.runtime_from_crate(), true)
    });
    manifest.push_str(&path_dependency(
        &crates.types,
        &Path::new("..").join(&crates.types),
        false,
    ));
    manifest.push_str(&feature_table(features, Some(&crates.types), &["all"]));
    manifest.push_str(&opentelemetry_feature());
    manifest
}

/// `[dependencies]` with `names` from the registry, sorted, then `extra`.
fn registry_dependencies(names: &[&str], extra: &str) -> String {
    let mut sorted = names.to_vec();
    sorted.sort_unstable();
    let mut out = String::from("\n[dependencies]\n");
    for name in sorted {
        out.push_str(&registry_dependency(name, false));
    }
    out.push_str(extra);
    out
}

/// The `[package]` table. Generated crates are not published: the server
/// reaches its runtime by a path, and the crates are the API's owner's to
/// publish under names of their choosing.
fn package_table(name: &str, package: Package<'_>, description: &str) -> String {
    let mut out = format!(
        "[package]\nname = {}\nversion = {}\ndescription = {}\nedition = {}\nrust-version = {}\n",
        quoted(name),
        quoted(package.version),
        quoted(&one_line(description)),
        quoted(EDITION),
        quoted(RUST_VERSION),
    );
    if let Some(license) = package.license {
        out.push_str(&format!("license = {}\n", quoted(license)));
    }
    out.push_str("publish = false\n");
    // The generated code has doctests but no unit tests: without this,
    // `cargo test` would compile each crate a second time as an empty test
    // harness, which for a large API costs as much as its build.
    out.push_str(
        "\n[lib]\n# Doctests but no unit tests: `cargo test` skips an empty harness.\ntest = false\n",
    );
    out
}

/// `text` on one line (a TOML basic string may hold no newline).
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The root manifest of an output that is a workspace of its own.
pub fn workspace_manifest(members: &[&str]) -> String {
    let members: Vec<String> = members.iter().map(|member| quoted(member)).collect();
    format!(
        "[workspace]\nresolver = \"3\"\nmembers = [{}]\n",
        members.join(", ")
    )
}

/// The vendored runtime's manifest: the runtime's own, every field it
/// inherits from this workspace written out.
pub fn runtime_manifest(own: &str) -> String {
    let own: toml::Table = own.parse().expect("the runtime's manifest parses");
    let inherited = &WORKSPACE["workspace"]["package"];
    let field = |name: &str| -> String {
        let value = &own["package"][name];
        let value = if value.get("workspace").is_some() {
            &inherited[name]
        } else {
            value
        };
        value.as_str().expect("a string field").to_string()
    };
    let mut out = format!(
        "[package]\nname = {}\nversion = {}\ndescription = {}\nedition = {}\nrust-version = {}\nlicense = {}\npublish = false\n",
        quoted(&field("name")),
        quoted(&field("version")),
        quoted(&field("description")),
        quoted(&field("edition")),
        quoted(&field("rust-version")),
        quoted(&field("license")),
    );
    let dependencies: BTreeMap<&String, &toml::Value> = own["dependencies"]
        .as_table()
        .expect("dependencies")
        .iter()
        .collect();
    if let Some(features) = own.get("features").and_then(toml::Value::as_table) {
        out.push_str("\n[features]\n");
        for (name, enables) in features {
            out.push_str(&format!("{name} = {enables}\n"));
        }
    }
    out.push_str("\n[dependencies]\n");
    for (name, declared) in dependencies {
        let table = declared.as_table();
        let optional = declared.get("optional") == Some(&toml::Value::Boolean(true));
        assert!(
            declared.get("workspace").is_some()
                && table.is_some_and(|t| t.len() == 1 + usize::from(optional)),
            "the runtime's dependency {name} is inherited from the workspace as it is"
        );
        out.push_str(&registry_dependency(name, optional));
    }
    out
}

/// The rustfmt configuration of each written crate: prettyplease formats
/// the generated code and the runtime is copied as it is, so `cargo fmt` in
/// the team's workspace must leave both alone, or a check would report drift.
pub const RUSTFMT_TOML: &str = "# prettyplease formats the generated code; rustfmt must leave it alone,\n\
     # or `cargo fmt` would make the generator's check report drift.\n\
     disable_all_formatting = true";

#[cfg(test)]
mod tests {
    use super::*;

    fn dependencies(manifest: &str) -> Vec<String> {
        let manifest: toml::Table = manifest.parse().unwrap();
        manifest["dependencies"]
            .as_table()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    }

    const PACKAGE: Package<'static> = Package {
        title: "Pets",
        version: "1.0.0",
        license: None,
    };

    #[test]
    fn the_client_depends_on_what_its_builders_name() {
        let crates = CrateNames::with_prefix("pets");
        let placement = Placement {
            crates_dir: Path::new("out"),
            runtime: &Runtime::Vendored,
        };
        let uses = TypeDependencies {
            chrono: true,
            regress: true,
            serde_json: false,
            uuid: true,
        };
        assert_eq!(
            dependencies(&client_manifest(
                &crates,
                PACKAGE,
                &Features::default(),
                uses,
                false,
                false,
                &placement,
            )),
            [
                "chrono",
                "openapi-crates-runtime",
                "pets-types",
                "progenitor-client",
                "reqwest",
                "rustls",
                "serde",
                "uuid"
            ]
        );
        assert_eq!(
            dependencies(&client_manifest(
                &crates,
                PACKAGE,
                &Features::default(),
                TypeDependencies::default(),
                true,
                false,
                &placement,
            )),
            [
                "openapi-crates-runtime",
                "pets-types",
                "progenitor-client",
                "reqwest",
                "rustls",
                "serde",
                "serde_json"
            ]
        );
    }

    fn vendored() -> Placement<'static> {
        Placement {
            crates_dir: Path::new("out"),
            runtime: &Runtime::Vendored,
        }
    }

    #[test]
    fn dependencies_are_written_in_full() {
        let manifest: toml::Table = types_manifest(
            &CrateNames::with_prefix("pets"),
            PACKAGE,
            &Features::default(),
            TypeDependencies::default(),
            &vendored(),
        )
        .parse()
        .unwrap();
        let serde = &manifest["dependencies"]["serde"];
        assert_eq!(
            serde, &WORKSPACE["workspace"]["dependencies"]["serde"],
            "the workspace's own declaration"
        );
        assert!(manifest["package"].get("edition").is_some());
    }

    #[test]
    fn the_types_take_the_runtime_without_its_server() {
        let runtime_features = |regress: bool, chrono: bool| {
            let uses = TypeDependencies {
                regress,
                chrono,
                ..TypeDependencies::default()
            };
            let manifest: toml::Table = types_manifest(
                &CrateNames::with_prefix("pets"),
                PACKAGE,
                &Features::default(),
                uses,
                &vendored(),
            )
            .parse()
            .unwrap();
            let runtime = &manifest["dependencies"][RUNTIME_CRATE];
            assert_eq!(runtime["default-features"].as_bool(), Some(false));
            runtime["features"].as_array().unwrap().clone()
        };
        assert_eq!(runtime_features(false, false), ["types".into()]);
        assert_eq!(
            runtime_features(true, false),
            ["types".into(), "patterns".into()]
        );
        assert_eq!(
            runtime_features(false, true),
            ["types".into(), "timestamps".into()]
        );
    }

    #[test]
    fn only_an_api_that_upgrades_takes_the_runtime_with_websocket() {
        let crates = CrateNames::with_prefix("pets");
        let runtime = |manifest: String| -> toml::Value {
            let manifest: toml::Table = manifest.parse().unwrap();
            manifest["dependencies"][RUNTIME_CRATE].clone()
        };
        let features = |runtime: toml::Value| -> Vec<String> {
            runtime["features"]
                .as_array()
                .unwrap()
                .iter()
                .map(|feature| feature.as_str().unwrap().to_string())
                .collect()
        };
        let client = |websocket: bool| {
            runtime(client_manifest(
                &crates,
                PACKAGE,
                &Features::default(),
                TypeDependencies::default(),
                false,
                websocket,
                &vendored(),
            ))
        };
        let server = |websocket: bool| {
            runtime(server_manifest(
                &crates,
                PACKAGE,
                &Features::default(),
                websocket,
                &vendored(),
            ))
        };
        assert_eq!(features(client(true)), ["client", "websocket"]);
        assert_eq!(features(client(false)), ["client"]);
        assert_eq!(features(server(true)), ["server", "websocket"]);
        assert_eq!(server(false).get("features"), None);
    }

    #[test]
    fn the_runtime_is_reached_where_it_is_placed() {
        let crates = CrateNames::with_prefix("pets");
        let runtime_path = |crates_dir: &str, runtime: Runtime| {
            let manifest: toml::Table = server_manifest(
                &crates,
                PACKAGE,
                &Features::default(),
                false,
                &Placement {
                    crates_dir: Path::new(crates_dir),
                    runtime: &runtime,
                },
            )
            .parse()
            .unwrap();
            manifest["dependencies"][RUNTIME_CRATE]["path"]
                .as_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(
            runtime_path("out", Runtime::Vendored),
            format!("../{RUNTIME_CRATE}")
        );
        assert_eq!(
            runtime_path("generated", Runtime::Path(PathBuf::from("crates/runtime"))),
            "../../crates/runtime"
        );
        assert_eq!(
            runtime_path("../out", Runtime::Path(PathBuf::from("/opt/runtime"))),
            "/opt/runtime"
        );
    }

    #[test]
    fn versions_follow_info_version() {
        for (given, expected) in [
            ("1.2.3", "1.2.3"),
            ("v1.2.3", "1.2.3"),
            ("1.0.0-beta.1+build.5", "1.0.0-beta.1+build.5"),
            ("2.0", "2.0.0"),
            ("3", "3.0.0"),
            ("2024-10-01", "0.1.0+2024-10-01"),
            ("1.0.0.1", "0.1.0+1.0.0.1"),
            ("01.2.3", "0.1.0+01.2.3"),
            ("v2 (beta)", "0.1.0+2--beta-"),
            ("", "0.1.0"),
        ] {
            assert_eq!(crate_version(given), expected, "{given}");
        }
    }

    #[test]
    fn the_vendored_runtime_inherits_nothing() {
        let manifest = runtime_manifest(include_str!("../../../runtime/Cargo.toml"));
        assert!(!manifest.contains("workspace"), "{manifest}");
        let manifest: toml::Table = manifest.parse().unwrap();
        assert_eq!(manifest["package"]["name"].as_str(), Some(RUNTIME_CRATE));
    }
}
