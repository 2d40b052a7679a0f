//! Stage 1: read the spec file into a typed OpenAPI document, keeping the
//! position of every node so later stages can report errors by line.
//!
//! The YAML is parsed with `saphyr`, which keeps spans, then converted to a
//! `serde_json::Value` while recording where each JSON pointer came from, and
//! the OpenAPI version is checked. The model stage then deserializes the value
//! into `openapiv3` types and reports problems through the source map.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};
use serde_json::{Map, Number, Value};

use crate::diagnostic::{Diagnostic, Position, pointer_join};

/// A spec that parsed as YAML and declares OpenAPI 3.0, with the positions
/// of its nodes.
#[derive(Debug, Clone)]
pub struct LoadedSpec {
    /// The spec file as the user named it (used in messages and file headers).
    pub path: PathBuf,
    /// The document as plain JSON, in document order.
    pub document: Value,
    pub source_map: SourceMap,
}

/// JSON pointer to source position of every node of the document.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    positions: BTreeMap<String, Position>,
    /// Nodes moved by the generator (an inline schema given a name): the
    /// pointer they have now, and the one they were written at.
    aliases: Vec<(String, String)>,
}

impl SourceMap {
    /// Records that the node at `written` now lives at `moved`.
    pub fn alias(&mut self, moved: &str, written: &str) {
        self.aliases.push((moved.to_string(), written.to_string()));
    }

    /// The pointer a node was written at in the file.
    pub fn original(&self, pointer: &str) -> String {
        for (moved, written) in &self.aliases {
            if let Some(rest) = pointer.strip_prefix(moved.as_str())
                && (rest.is_empty() || rest.starts_with('/'))
            {
                return format!("{written}{rest}");
            }
        }
        pointer.to_string()
    }

    /// Position of the node at `pointer`, or of its nearest ancestor that has
    /// one (a missing member is reported where its parent object is).
    pub fn locate(&self, pointer: &str) -> Option<Position> {
        let mut current = pointer;
        loop {
            if let Some(position) = self.positions.get(current) {
                return Some(*position);
            }
            let cut = current.rfind('/')?;
            current = &current[..cut];
        }
    }
}

impl LoadedSpec {
    /// A diagnostic for the node at `pointer`, with its line when known.
    pub fn error_at(&self, pointer: &str, cause: impl Into<String>) -> Diagnostic {
        let pointer = self.source_map.original(pointer);
        let diagnostic = Diagnostic::new(&self.path, cause).at_pointer(&pointer);
        match self.source_map.locate(&pointer) {
            Some(position) => diagnostic.at_position(position),
            None => diagnostic,
        }
    }
}

/// Reads and parses the spec at `path`, relative to `root` unless absolute.
/// Messages name `path` as given, so they read the same on every machine.
pub fn load_spec(root: &Path, path: &Path) -> Result<LoadedSpec, Diagnostic> {
    let bytes = std::fs::read(root.join(path))
        .map_err(|err| Diagnostic::new(path, format!("cannot read the spec: {err}")))?;
    parse_spec(path, &bytes)
}

/// Parses spec `bytes` that were read from `path`.
pub fn parse_spec(path: &Path, bytes: &[u8]) -> Result<LoadedSpec, Diagnostic> {
    let text = std::str::from_utf8(bytes).map_err(|err| {
        let valid = &bytes[..err.valid_up_to()];
        let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
        let column = valid.iter().rev().take_while(|b| **b != b'\n').count() + 1;
        Diagnostic::new(
            path,
            format!(
                "the spec is not valid UTF-8 (invalid byte at offset {})",
                err.valid_up_to()
            ),
        )
        .at_position(Position { line, column })
    })?;

    let mut documents = MarkedYaml::load_from_str(text).map_err(|err| {
        let marker = err.marker();
        Diagnostic::new(path, format!("invalid YAML: {}", err.info())).at_position(Position {
            line: marker.line(),
            column: marker.col() + 1,
        })
    })?;
    let root = match documents.len() {
        0 => return Err(Diagnostic::new(path, "the spec is empty")),
        1 => documents.remove(0),
        n => {
            return Err(Diagnostic::new(
                path,
                format!("the spec holds {n} YAML documents; expected exactly one"),
            )
            .at_position(position_of(&documents[1])));
        }
    };

    let mut source_map = SourceMap::default();
    let document = to_json(path, &root, String::new(), &mut source_map)?;
    let spec = LoadedSpec {
        path: path.to_path_buf(),
        document,
        source_map,
    };
    check_version(&spec)?;
    let mut spec = spec;
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

/// Rejects documents that are not OpenAPI 3.0 or 3.1 before deserializing
/// them, so that a Swagger 2.0 file gets a message about its version instead
/// of a confusing complaint about some field deep inside.
fn check_version(spec: &LoadedSpec) -> Result<(), Diagnostic> {
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
                "this is a Swagger/OpenAPI {} document; only OpenAPI 3.0.x and 3.1.x are supported",
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
            format!("OpenAPI version {version} is not supported; only 3.0.x and 3.1.x are"),
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

fn position_of(node: &MarkedYaml<'_>) -> Position {
    Position {
        line: node.span.start.line(),
        column: node.span.start.col() + 1,
    }
}

/// Converts a YAML node to JSON, recording the position of it and every node below.
fn to_json(
    path: &Path,
    node: &MarkedYaml<'_>,
    pointer: String,
    source_map: &mut SourceMap,
) -> Result<Value, Diagnostic> {
    let position = position_of(node);
    let error = |cause: String| {
        Diagnostic::new(path, cause)
            .at_position(position)
            .at_pointer(pointer.clone())
    };
    let value = match &node.data {
        YamlData::Value(scalar) => scalar_to_json(scalar).map_err(error)?,
        YamlData::Representation(text, ..) => Value::String(text.to_string()),
        YamlData::Sequence(items) => {
            let mut array = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                let item_pointer = pointer_join(&pointer, &index.to_string());
                array.push(to_json(path, item, item_pointer, source_map)?);
            }
            Value::Array(array)
        }
        YamlData::Mapping(entries) => {
            let mut object = Map::with_capacity(entries.len());
            for (key, item) in entries {
                let key_text = match &key.data {
                    YamlData::Value(Scalar::String(text)) => text.to_string(),
                    // Unquoted status codes (`200:`) are integers in YAML but
                    // strings in OpenAPI; accept them as people write them.
                    YamlData::Value(Scalar::Integer(number)) => number.to_string(),
                    YamlData::Value(Scalar::Boolean(flag)) => flag.to_string(),
                    _ => {
                        return Err(Diagnostic::new(
                            path,
                            "mapping keys must be strings, numbers or booleans",
                        )
                        .at_position(position_of(key))
                        .at_pointer(pointer.clone()));
                    }
                };
                let item_pointer = pointer_join(&pointer, &key_text);
                let value = to_json(path, item, item_pointer.clone(), source_map)?;
                if value.is_object() || value.is_array() {
                    // A block's own span starts at its first child; people
                    // look for the key that opens it.
                    source_map.positions.insert(item_pointer, position_of(key));
                }
                object.insert(key_text, value);
            }
            Value::Object(object)
        }
        YamlData::Tagged(_, inner) => return to_json(path, inner, pointer, source_map),
        YamlData::Alias(_) => return Err(error("YAML aliases are not supported".into())),
        YamlData::BadValue => return Err(error("this YAML value cannot be interpreted".into())),
    };
    source_map.positions.insert(pointer, position);
    Ok(value)
}

fn scalar_to_json(scalar: &Scalar<'_>) -> Result<Value, String> {
    Ok(match scalar {
        Scalar::Null => Value::Null,
        Scalar::Boolean(flag) => Value::Bool(*flag),
        Scalar::Integer(number) => Value::Number((*number).into()),
        Scalar::FloatingPoint(number) => {
            Number::from_f64(number.into_inner())
                .map(Value::Number)
                .ok_or_else(|| format!("the number {number} cannot be represented in JSON"))?
        }
        Scalar::String(text) => Value::String(text.to_string()),
    })
}
