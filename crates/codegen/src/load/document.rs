//! The document as read: JSON in document order, and the source map that
//! knows the file, line and column each node was written at. Bundling and
//! lowering work on it; [`load`](super) runs them in turn.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};
use serde_json::{Map, Number, Value};

use super::json;
use crate::diagnostic::{Diagnostic, Position, Warnings, pointer_join};
use crate::readings::Reading;

/// A spec that parsed and declares OpenAPI 3.0, 3.1 or 3.2, with every file it
/// refers to bundled in, and the positions of its nodes.
#[derive(Debug, Clone)]
pub struct LoadedSpec {
    /// The spec file as the user named it (used in messages and file headers).
    pub path: PathBuf,
    /// The document as plain JSON, in document order.
    pub document: Value,
    pub source_map: SourceMap,
    /// What the generator read another way than written (see
    /// [`LoadedSpec::warn_at`]).
    pub warnings: Warnings,
}

/// Where each node of the document was written: its file, and its line and
/// column there.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    /// The files read, the spec first, each with the position of every JSON
    /// pointer into it.
    files: Vec<SourceFile>,
    /// Nodes moved by the generator (an inline schema given a name): the
    /// pointer they have now, and the one they were written at.
    aliases: Vec<(String, String)>,
    /// Subtrees that bundling put somewhere else than where they were written
    /// (another file's schema under `components`, an operation given by
    /// `$ref`): their pointer in the document, and where they come from.
    /// Every other node is at the same pointer in the spec itself.
    origins: BTreeMap<String, Origin>,
}

#[derive(Debug, Clone, Default)]
struct SourceFile {
    /// As messages name it: the spec's path joined with the references'.
    path: PathBuf,
    positions: BTreeMap<String, Position>,
}

/// A node's place of writing: a file of [`SourceMap`] and a pointer into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Origin {
    pub(crate) file: usize,
    pub(crate) pointer: String,
}

impl SourceMap {
    /// The map of a document read from one file.
    pub(crate) fn of_file(path: &Path, positions: BTreeMap<String, Position>) -> Self {
        Self {
            files: vec![SourceFile {
                path: path.to_path_buf(),
                positions,
            }],
            ..Self::default()
        }
    }

    /// The positions in the spec itself.
    pub(crate) fn into_positions(self) -> BTreeMap<String, Position> {
        self.files
            .into_iter()
            .next()
            .map(|file| file.positions)
            .unwrap_or_default()
    }

    /// Adds a file read while bundling; its index is what [`Origin`]s name.
    pub(crate) fn add_file(&mut self, path: &Path, positions: BTreeMap<String, Position>) -> usize {
        self.files.push(SourceFile {
            path: path.to_path_buf(),
            positions,
        });
        self.files.len() - 1
    }

    /// Every file read, the spec first, as messages name them.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(|file| file.path.as_path())
    }

    /// The path of file `index`, as messages name it.
    pub(crate) fn file_path(&self, index: usize) -> Option<&Path> {
        self.files.get(index).map(|file| file.path.as_path())
    }

    /// Replaces the origins of the document's subtrees (bundling does, once).
    pub(crate) fn set_origins(&mut self, origins: BTreeMap<String, Origin>) {
        self.origins = origins;
    }

    /// Records that the node at `written` now lives at `moved`.
    pub fn alias(&mut self, moved: &str, written: &str) {
        self.aliases.push((moved.to_string(), written.to_string()));
    }

    /// The pointer a node was written at in the document, before the
    /// generator moved it.
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

    /// The file (an index) and the pointer into it where the node now at
    /// `pointer` of the document was written.
    pub(crate) fn written_at(&self, pointer: &str) -> Origin {
        let pointer = self.original(pointer);
        if !self.origins.is_empty() {
            let mut current = pointer.as_str();
            loop {
                if let Some(origin) = self.origins.get(current) {
                    return Origin {
                        file: origin.file,
                        pointer: format!("{}{}", origin.pointer, &pointer[current.len()..]),
                    };
                }
                match current.rfind('/') {
                    Some(cut) => current = &current[..cut],
                    None => break,
                }
            }
        }
        Origin { file: 0, pointer }
    }

    /// Position of the node at `pointer` in file `file`, or of its nearest
    /// ancestor that has one (a missing member is reported where its parent
    /// object is).
    pub(crate) fn position_in(&self, file: usize, pointer: &str) -> Option<Position> {
        let positions = &self.files.get(file)?.positions;
        let mut current = pointer;
        loop {
            if let Some(position) = positions.get(current) {
                return Some(*position);
            }
            let cut = current.rfind('/')?;
            current = &current[..cut];
        }
    }

    /// Position of the node at `pointer` of the document, in the file it
    /// was written in (see [`LoadedSpec::place`] for the file).
    pub fn locate(&self, pointer: &str) -> Option<Position> {
        let origin = self.written_at(pointer);
        self.position_in(origin.file, &origin.pointer)
    }
}

impl LoadedSpec {
    /// A diagnostic for the node at `pointer`, naming the file it was written
    /// in, with its line when known and its pointer in that file.
    pub fn error_at(&self, pointer: &str, cause: impl Into<String>) -> Diagnostic {
        let origin = self.source_map.written_at(pointer);
        let file = self.source_map.file_path(origin.file).unwrap_or(&self.path);
        let position = self.source_map.position_in(origin.file, &origin.pointer);
        let mut diagnostic = Diagnostic::new(file, cause).at_pointer(origin.pointer);
        diagnostic.document_pointer = Some(pointer.into());
        match position {
            Some(position) => diagnostic.at_position(position),
            None => diagnostic,
        }
    }

    /// Records a warning for the node at `pointer`, located as
    /// [`LoadedSpec::error_at`] locates an error: `cause` says what is wrong
    /// and how the generator reads it instead.
    pub fn warn_at(&self, reading: Reading, pointer: &str, cause: impl Into<String>) {
        self.warnings
            .push(self.error_at(pointer, cause).read_as(reading));
    }

    /// `file:line:column` of the node at `pointer`, as messages name a
    /// second place; `None` when its position is unknown.
    pub fn place(&self, pointer: &str) -> Option<String> {
        let origin = self.source_map.written_at(pointer);
        let position = self.source_map.position_in(origin.file, &origin.pointer)?;
        let file = self.source_map.file_path(origin.file).unwrap_or(&self.path);
        Some(format!(
            "{}:{}:{}",
            file.display(),
            position.line,
            position.column
        ))
    }
}

/// `path` with `.` and `..` resolved as far as the path itself tells, so
/// one file reached by two relative paths is one file.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut parts: Vec<Component<'_>> = Vec::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match parts.last() {
                Some(Component::Normal(_)) => {
                    parts.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => parts.push(component),
            },
            other => parts.push(other),
        }
    }
    parts.iter().collect()
}

/// Whether `text`, read from `path`, is JSON: by its name, or by its first
/// character (no YAML description starts with `{`, every JSON one does).
fn is_json(path: &Path, text: &str) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("json"))
        || text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('{')
}

/// Parses one file (the spec, or one it refers to, `what` in messages) into
/// JSON and the position of each of its pointers.
pub(crate) fn parse_file(
    path: &Path,
    bytes: &[u8],
    what: &str,
) -> Result<(Value, BTreeMap<String, Position>), Diagnostic> {
    let text = std::str::from_utf8(bytes).map_err(|err| {
        let valid = &bytes[..err.valid_up_to()];
        let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
        let column = valid.iter().rev().take_while(|b| **b != b'\n').count() + 1;
        Diagnostic::new(
            path,
            format!(
                "{what} is not valid UTF-8 (invalid byte at offset {})",
                err.valid_up_to()
            ),
        )
        .at_position(Position { line, column })
    })?;
    let mut positions = BTreeMap::new();
    if is_json(path, text) {
        let value = json::parse(text, &mut positions).map_err(|err| {
            Diagnostic::new(path, format!("invalid JSON: {}", err.cause)).at_position(err.position)
        })?;
        return Ok((value, positions));
    }

    let mut documents = MarkedYaml::load_from_str(text).map_err(|err| {
        let marker = err.marker();
        Diagnostic::new(path, format!("invalid YAML: {}", err.info())).at_position(Position {
            line: marker.line(),
            column: marker.col() + 1,
        })
    })?;
    let root = match documents.len() {
        0 => return Err(Diagnostic::new(path, format!("{what} is empty"))),
        1 => documents.remove(0),
        n => {
            return Err(Diagnostic::new(
                path,
                format!("{what} holds {n} YAML documents; expected exactly one"),
            )
            .at_position(position_of(&documents[1])));
        }
    };
    let value = to_json(path, &root, String::new(), &mut positions)?;
    Ok((value, positions))
}

fn position_of(node: &MarkedYaml<'_>) -> Position {
    Position {
        line: node.span.start.line(),
        column: node.span.start.col() + 1,
    }
}

/// Converts a YAML node to JSON, recording the position of it and every node
/// below. Aliases arrive expanded (the anchor's nodes keep their positions);
/// merge keys (`<<: *base`) add the members the mapping does not set itself.
fn to_json(
    path: &Path,
    node: &MarkedYaml<'_>,
    pointer: String,
    positions: &mut BTreeMap<String, Position>,
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
                array.push(to_json(path, item, item_pointer, positions)?);
            }
            Value::Array(array)
        }
        YamlData::Mapping(entries) => {
            let mut object = Map::with_capacity(entries.len());
            let mut merged = Vec::new();
            for (key, item) in entries {
                if matches!(&key.data, YamlData::Value(Scalar::String(text)) if text == "<<") {
                    merged.push(item);
                    continue;
                }
                let (key_text, value) = member(path, &pointer, key, item, positions)?;
                object.insert(key_text, value);
            }
            for source in merged {
                let sources: Vec<&MarkedYaml<'_>> = match &source.data {
                    YamlData::Sequence(items) => items.iter().collect(),
                    _ => vec![source],
                };
                for source in sources {
                    let YamlData::Mapping(entries) = &source.data else {
                        return Err(Diagnostic::new(
                            path,
                            "a merge key (`<<`) takes a mapping or a list of mappings",
                        )
                        .at_position(position_of(source))
                        .at_pointer(pointer.clone()));
                    };
                    for (key, item) in entries {
                        let key_text = key_text(path, &pointer, key)?;
                        if !object.contains_key(&key_text) {
                            let (key_text, value) = member(path, &pointer, key, item, positions)?;
                            object.insert(key_text, value);
                        }
                    }
                }
            }
            Value::Object(object)
        }
        YamlData::Tagged(_, inner) => return to_json(path, inner, pointer, positions),
        YamlData::Alias(_) => return Err(error("this YAML alias names no anchor".into())),
        YamlData::BadValue => return Err(error("this YAML value cannot be interpreted".into())),
    };
    positions.insert(pointer, position);
    Ok(value)
}

/// The text of a mapping key.
fn key_text(path: &Path, pointer: &str, key: &MarkedYaml<'_>) -> Result<String, Diagnostic> {
    match &key.data {
        YamlData::Value(Scalar::String(text)) => Ok(text.to_string()),
        // Unquoted status codes (`200:`) are integers in YAML but
        // strings in OpenAPI; accept them as people write them.
        YamlData::Value(Scalar::Integer(number)) => Ok(number.to_string()),
        YamlData::Value(Scalar::Boolean(flag)) => Ok(flag.to_string()),
        _ => Err(
            Diagnostic::new(path, "mapping keys must be strings, numbers or booleans")
                .at_position(position_of(key))
                .at_pointer(pointer),
        ),
    }
}

/// One member of a mapping under `pointer`: its key and its value.
fn member(
    path: &Path,
    pointer: &str,
    key: &MarkedYaml<'_>,
    item: &MarkedYaml<'_>,
    positions: &mut BTreeMap<String, Position>,
) -> Result<(String, Value), Diagnostic> {
    let key_text = key_text(path, pointer, key)?;
    let item_pointer = pointer_join(pointer, &key_text);
    let value = to_json(path, item, item_pointer.clone(), positions)?;
    if value.is_object() || value.is_array() {
        // A block's own span starts at its first child; people
        // look for the key that opens it.
        positions.insert(item_pointer, position_of(key));
    }
    Ok((key_text, value))
}

fn scalar_to_json(scalar: &Scalar<'_>) -> Result<Value, String> {
    Ok(match scalar {
        Scalar::Null => Value::Null,
        Scalar::Boolean(flag) => Value::Bool(*flag),
        Scalar::Integer(number) => Value::Number((*number).into()),
        // The YAML reader holds integers as `i64`: one past it (within
        // `u64`, as `9223372036854776000`) arrives as a float, and stays an
        // integer here, as the JSON reader keeps it.
        Scalar::FloatingPoint(number)
            if number.fract() == 0.0 && (2f64.powi(63)..2f64.powi(64)).contains(&**number) =>
        {
            Value::Number((number.into_inner() as u64).into())
        }
        Scalar::FloatingPoint(number) => {
            Number::from_f64(number.into_inner())
                .map(Value::Number)
                .ok_or_else(|| format!("the number {number} cannot be represented in JSON"))?
        }
        Scalar::String(text) => Value::String(text.to_string()),
    })
}
