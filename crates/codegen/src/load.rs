//! Stage 1: read the spec file into a typed OpenAPI document, keeping the
//! position of every node so later stages can report errors by line.
//!
//! A `.json` file (or any file whose first non-blank character is `{`) is
//! read as JSON, by a reader of its own; anything else as YAML with
//! `saphyr`, which keeps spans and expands aliases (`*name`, within a node
//! budget) and merge keys (`<<`). Either way the result is a `serde_json::Value` in document order
//! and the position of every JSON pointer. The OpenAPI version is checked,
//! then [`bundle`](crate::bundle) brings in every file the spec refers to and
//! leaves one document whose `$ref`s all name a component. The model stage
//! then deserializes the value into `openapiv3` types and reports problems
//! through the source map, which knows the file each node was written in.

pub(crate) mod document;
mod json;

use std::path::Path;

use serde_json::Value;

use crate::diagnostic::Diagnostic;

pub(crate) use document::parse_file;
pub use document::{LoadedSpec, SourceMap};

/// Reads and parses the spec at `path`, relative to `root` unless absolute,
/// with every file it refers to (relative to the file that refers to it).
/// Messages name `path` as given, so they read the same on every machine.
pub fn load_spec(root: &Path, path: &Path) -> Result<LoadedSpec, Diagnostic> {
    load_spec_with_refs(root, path, None)
}

/// [`load_spec`], a `$ref` to another host read from its local copy under
/// `refs` (relative to `root` unless absolute): `https://host/path` from
/// `refs/host/path`.
pub fn load_spec_with_refs(
    root: &Path,
    path: &Path,
    refs: Option<&Path>,
) -> Result<LoadedSpec, Diagnostic> {
    parse_spec_with_refs(path, &read_spec(root, path)?, &mut read_beside(root), refs)
}

/// The bytes of the spec at `path`, relative to `root` unless absolute.
pub(crate) fn read_spec(root: &Path, path: &Path) -> Result<Vec<u8>, Diagnostic> {
    std::fs::read(root.join(path))
        .map_err(|err| Diagnostic::new(path, format!("cannot read the spec: {err}")))
}

/// How the files a spec refers to are read: relative to `root` unless
/// absolute (the bundler resolves them against the referring file).
pub(crate) fn read_beside(root: &Path) -> impl FnMut(&Path) -> Result<Vec<u8>, String> + '_ {
    |file: &Path| {
        std::fs::read(root.join(file)).map_err(|err| match err.kind() {
            std::io::ErrorKind::NotFound => "there is no such file".to_string(),
            _ => err.to_string(),
        })
    }
}

/// Parses spec `bytes` that were read from `path`. A reference to another
/// file is refused: nothing says where to read it from (see
/// [`parse_spec_with`]).
pub fn parse_spec(path: &Path, bytes: &[u8]) -> Result<LoadedSpec, Diagnostic> {
    parse_spec_with(path, bytes, &mut |_: &Path| {
        Err("the spec was given as text, so other files cannot be read".to_string())
    })
}

/// Parses spec `bytes` that were read from `path`; `read` gives the bytes of
/// another file the spec refers to, by its path as messages name it (the
/// spec's `path` joined with the reference, `..` resolved).
pub fn parse_spec_with(
    path: &Path,
    bytes: &[u8],
    read: &mut dyn FnMut(&Path) -> Result<Vec<u8>, String>,
) -> Result<LoadedSpec, Diagnostic> {
    parse_spec_with_refs(path, bytes, read, None)
}

/// [`parse_spec_with`], with the local copies of other hosts' documents
/// under `refs` ([`load_spec_with_refs`]).
pub fn parse_spec_with_refs(
    path: &Path,
    bytes: &[u8],
    read: &mut dyn FnMut(&Path) -> Result<Vec<u8>, String>,
    refs: Option<&Path>,
) -> Result<LoadedSpec, Diagnostic> {
    let (document, positions) = parse_file(path, bytes, "the spec")?;
    let mut spec = LoadedSpec {
        path: path.to_path_buf(),
        document,
        source_map: SourceMap::of_file(path, positions),
        warnings: Default::default(),
    };
    check_version(&spec)?;
    crate::bundle::bundle(&mut spec, read, refs)?;
    if spec
        .document
        .get("openapi")
        .and_then(Value::as_str)
        .is_some_and(crate::lower::is_openapi_31)
    {
        crate::lower::lower(&mut spec)?;
    }
    Ok(spec)
}

/// Rejects documents that are not OpenAPI 3.0, 3.1 or 3.2 before deserializing
/// them, so that a Swagger 2.0 file gets a message about its version instead
/// of a confusing complaint about some field deep inside.
pub(crate) fn check_version(spec: &LoadedSpec) -> Result<(), Diagnostic> {
    let Value::Object(root) = &spec.document else {
        return Err(spec.error_at(
            "",
            "the spec must be a YAML mapping with an `openapi` field at the top",
        ));
    };
    if let Some(swagger) = root.get("swagger") {
        return Err(spec.error_at(
            "/swagger",
            format!(
                "this is a Swagger/OpenAPI {} document; only OpenAPI 3.0.x, 3.1.x and 3.2.x are supported",
                scalar_text(swagger)
            ),
        ));
    }
    match root.get("openapi") {
        None => Err(spec.error_at(
            "",
            "not an OpenAPI document: the `openapi` field is missing",
        )),
        Some(Value::String(version))
            if is_openapi_30(version) || crate::lower::is_openapi_31(version) =>
        {
            Ok(())
        }
        Some(Value::String(version)) => Err(spec.error_at(
            "/openapi",
            format!("OpenAPI version {version} is not supported; only 3.0.x, 3.1.x and 3.2.x are"),
        )),
        Some(other) => Err(spec.error_at(
            "/openapi",
            format!(
                "`openapi` must be a version string such as \"3.0.3\", found {}",
                scalar_text(other)
            ),
        )),
    }
}

fn is_openapi_30(version: &str) -> bool {
    version
        .strip_prefix("3.0.")
        .is_some_and(|patch| !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()))
}

fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::json;

    use super::document::normalize;
    use super::*;

    fn parsed(path: &str, text: &str) -> Result<LoadedSpec, String> {
        parse_spec(Path::new(path), text.as_bytes()).map_err(|err| err.to_string())
    }

    const YAML_HEAD: &str = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n";

    #[test]
    fn yaml_integers_past_i64_stay_integers() {
        let text = format!(
            "{YAML_HEAD}components:\n  schemas:\n    Big: {{type: integer, \
             example: 9223372036854776000, maximum: 1.5, default: 1.0e300}}\n"
        );
        let spec = parsed("spec.yaml", &text).unwrap();
        let big = &spec.document["components"]["schemas"]["Big"];
        assert_eq!(big["example"], json!(9_223_372_036_854_775_808_u64));
        assert!(big["maximum"].is_f64() && big["default"].is_f64());
    }

    #[test]
    fn yaml_aliases_and_merge_keys_are_expanded() {
        let text = format!(
            "{YAML_HEAD}components:
  schemas:
    Base: &base
      type: object
      properties:
        id: &id {{type: string, minLength: 1}}
    Copy: *base
    Extended:
      <<: *base
      description: more
      type: object
    Ids:
      type: array
      items: *id
"
        );
        let spec = parsed("spec.yaml", &text).unwrap();
        let schemas = &spec.document["components"]["schemas"];
        assert_eq!(schemas["Copy"], schemas["Base"]);
        assert_eq!(
            schemas["Extended"],
            json!({"description": "more", "type": "object",
                   "properties": {"id": {"type": "string", "minLength": 1}}})
        );
        assert_eq!(schemas["Ids"]["items"]["minLength"], 1);
        // A node that came through an alias is reported where the anchor
        // defined it.
        assert_eq!(
            spec.error_at("/components/schemas/Ids/items/minLength", "x")
                .to_string(),
            "spec.yaml:9:43: error: x (at /components/schemas/Ids/items/minLength)"
        );
    }

    #[test]
    fn alias_bombs_are_refused_with_their_place() {
        let mut text = format!(
            "{YAML_HEAD}x-bomb:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        );
        for level in 1..10 {
            let previous = format!("*a{}", level - 1);
            let items = [previous.as_str(); 10].join(", ");
            text.push_str(&format!("  a{level}: &a{level} [{items}]\n"));
        }
        let error = parsed("spec.yaml", &text).unwrap_err();
        assert!(error.starts_with("spec.yaml:"), "{error}");
        assert!(error.contains("alias expansion exceeded"), "{error}");
    }

    #[test]
    fn json_is_read_as_json_with_positions() {
        let text = "{\n  \"openapi\": \"3.0.3\",\n  \"info\": {\"title\": \"\\ud83d\\udc4d API\", \"version\": \"1\"},\n  \"paths\": {}\n}\n";
        let spec = parsed("spec.json", text).unwrap();
        assert_eq!(spec.document["info"]["title"], "\u{1F44D} API");
        assert_eq!(
            spec.error_at("/info/version", "x").to_string(),
            "spec.json:3:52: error: x (at /info/version)"
        );
        // By its first character, whatever the name.
        assert_eq!(parsed("spec.yaml", text).unwrap().document, spec.document);
    }

    #[test]
    fn invalid_json_is_located_with_its_cause() {
        let text =
            "{\n  \"openapi\": \"3.0.3\",\n  \"info\": {\"title\": \"T\" \"version\": \"1\"}\n}\n";
        assert_eq!(
            parsed("spec.json", text).unwrap_err(),
            "spec.json:3:25: error: invalid JSON: expected `,` or `}` after an object member, found `\"`"
        );
        let duplicate = "{\"openapi\": \"3.0.3\",\n \"openapi\": \"3.0.3\"}";
        assert_eq!(
            parsed("spec.json", duplicate).unwrap_err(),
            "spec.json:2:2: error: invalid JSON: duplicate member name `openapi` in an object"
        );
    }

    #[test]
    fn relative_paths_are_normalized() {
        assert_eq!(
            normalize(Path::new("a/./b/../c.yaml")),
            Path::new("a/c.yaml")
        );
        assert_eq!(
            normalize(Path::new("../x/../y.yaml")),
            Path::new("../y.yaml")
        );
        assert_eq!(normalize(Path::new("/a/../../b")), Path::new("/b"));
    }
}
