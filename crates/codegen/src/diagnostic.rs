//! The one error type of the pipeline: what went wrong, in which file, where.
//!
//! Every stage reports problems as a [`Diagnostic`] so that the command line
//! prints them the same way whatever stage found them: the file, the line and
//! column when known, the JSON pointer into the document, and the cause.

use std::fmt;
use std::path::{Path, PathBuf};

/// A line and column in a source file, both 1-based as editors show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// An error tied to a place in the spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The spec file, as the user named it.
    pub file: PathBuf,
    /// Where in the file, when the cause is tied to a place in it.
    pub position: Option<Position>,
    /// JSON pointer (RFC 6901) to the offending node, when the document parsed far enough.
    pub pointer: Option<String>,
    /// What is wrong, in one sentence.
    pub cause: String,
}

impl Diagnostic {
    pub fn new(file: &Path, cause: impl Into<String>) -> Self {
        Self {
            file: file.to_path_buf(),
            position: None,
            pointer: None,
            cause: cause.into(),
        }
    }

    pub fn at_position(mut self, position: Position) -> Self {
        self.position = Some(position);
        self
    }

    pub fn at_pointer(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    /// Renders like a compiler message so editors and terminals can jump to it:
    /// `spec/x.yaml:12:5: error: cause (at /json/pointer)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(Position { line, column }) = self.position {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": error: {}", self.cause)?;
        if let Some(pointer) = &self.pointer {
            let shown = if pointer.is_empty() { "/" } else { pointer };
            write!(f, " (at {shown})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// Escapes one reference token of a JSON pointer (RFC 6901, section 3).
pub fn escape_pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Appends one token to a JSON pointer.
pub fn pointer_join(base: &str, token: &str) -> String {
    format!("{base}/{}", escape_pointer_token(token))
}

/// Every problem a run found, each once, in the order they were found: a
/// maintainer fixes them in one go instead of one run per problem.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(Vec<Diagnostic>);

impl Diagnostics {
    /// Records `diagnostic` unless the same message is already there (a
    /// broken shared component reached from many operations is one problem).
    pub fn push(&mut self, diagnostic: Diagnostic) {
        if !self.0.contains(&diagnostic) {
            self.0.push(diagnostic);
        }
    }

    /// Records every problem of `other`.
    pub fn extend(&mut self, other: Diagnostics) {
        for diagnostic in other.0 {
            self.push(diagnostic);
        }
    }

    /// The value of `result`, or `None` with its problems recorded.
    pub fn keep<T, E: Into<Diagnostics>>(&mut self, result: Result<T, E>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(problems) => {
                self.extend(problems.into());
                None
            }
        }
    }

    /// `value` when nothing was recorded, else every problem.
    pub fn or_value<T>(self, value: T) -> Result<T, Diagnostics> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self)
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The first problem found.
    pub fn first(&self) -> Option<&Diagnostic> {
        self.0.first()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(diagnostic: Diagnostic) -> Self {
        Self(vec![diagnostic])
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for Diagnostics {
    /// One problem per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, diagnostic) in self.0.iter().enumerate() {
            if index > 0 {
                writeln!(f)?;
            }
            write!(f, "{diagnostic}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
