//! The one message type of the pipeline: what went wrong, in which file, where.
//!
//! Every stage reports problems as a [`Diagnostic`] so that the command line
//! prints them the same way whatever stage found them: the file, the line and
//! column when known, the JSON pointer into the document, and the cause.
//!
//! A problem is an error when the description cannot be read or expressed at
//! all, and a warning when it touches one annotation, schema or reference
//! that the generator can read another way (the warning says which): a team
//! cannot fix a flaw in someone else's published description, so one flaw
//! must not refuse the whole API. `--strict` makes every warning an error.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::readings::Reading;

/// A line and column in a source file, both 1-based as editors show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// Whether a problem stops generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Severity {
    /// Nothing is generated.
    #[default]
    Error,
    /// Generation goes on with the reading the message states.
    Warning,
}

/// A problem tied to a place in the spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The spec file, as the user named it.
    pub file: PathBuf,
    /// Where in the file, when the cause is tied to a place in it.
    pub position: Option<Position>,
    /// JSON pointer (RFC 6901) to the offending node, when the document parsed far enough.
    pub pointer: Option<String>,
    /// What is wrong, in one sentence.
    pub cause: String,
    /// The pointer into the document as read (bundled), where it differs
    /// from `pointer` (a node another file defined): what containment
    /// ([`crate::contain`]) edits.
    pub document_pointer: Option<Box<str>>,
    /// For a warning, the reading it states ([`crate::readings`]): its id
    /// is how a team allows or denies it.
    pub reading: Option<Reading>,
}

impl Diagnostic {
    pub fn new(file: &Path, cause: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            file: file.to_path_buf(),
            position: None,
            pointer: None,
            cause: cause.into(),
            document_pointer: None,
            reading: None,
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

    /// The same problem as a warning stating `reading`: generation goes on.
    pub fn read_as(mut self, reading: Reading) -> Self {
        self.reading = Some(reading);
        self.as_warning()
    }

    /// The same problem as a warning: generation goes on.
    pub fn as_warning(mut self) -> Self {
        self.severity = Severity::Warning;
        self
    }

    /// The same problem as an error (`--strict`).
    pub fn as_error(mut self) -> Self {
        self.severity = Severity::Error;
        self
    }

    pub fn is_warning(&self) -> bool {
        self.severity == Severity::Warning
    }
}

impl fmt::Display for Diagnostic {
    /// Renders like a compiler message so editors and terminals can jump to it:
    /// `spec/x.yaml:12:5: error: cause (at /json/pointer)`, or
    /// `warning[reading-id]:`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(Position { line, column }) = self.position {
            write!(f, ":{line}:{column}")?;
        }
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match self.reading {
            Some(reading) => write!(f, ": {severity}[{reading}]: {}", self.cause)?,
            None => write!(f, ": {severity}: {}", self.cause)?,
        }
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

/// The warnings of a run, recorded by whichever stage finds them (stages on
/// the second core too, hence the lock) and read once at the end, sorted by
/// place so that the same spec prints the same warnings in the same order.
/// Clones share the list: a stage that works on a copy of the spec records
/// into the run's.
#[derive(Debug, Default, Clone)]
pub struct Warnings(std::sync::Arc<std::sync::Mutex<Diagnostics>>);

impl Warnings {
    /// Records `warning` (made a warning if it is not one), once.
    pub fn push(&self, warning: Diagnostic) {
        self.lock().push(warning.as_warning());
    }

    /// Every warning recorded so far, sorted by file, line and column; the
    /// record is left empty.
    pub fn take(&self) -> Diagnostics {
        let mut warnings = std::mem::take(&mut *self.lock());
        warnings.0.sort_by(|a, b| {
            (&a.file, a.position, &a.pointer, &a.cause)
                .cmp(&(&b.file, b.position, &b.pointer, &b.cause))
        });
        warnings
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Diagnostics> {
        // A stage that panicked holding the lock left a list, not a broken
        // invariant: its warnings are still worth printing.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Diagnostics {
    /// One line per reading with its count and first place, for warnings
    /// many enough to drown what matters (`--verbose` lists each): the
    /// readings in the order of [`crate::readings::READINGS`], warnings
    /// without one after, each in full.
    pub fn summary(&self) -> String {
        use std::fmt::Write as _;
        let mut lines = String::new();
        for row in crate::readings::READINGS {
            let mut of_row = self
                .iter()
                .filter(|warning| warning.reading == Some(row.reading));
            let Some(first) = of_row.next() else {
                continue;
            };
            let count = 1 + of_row.count();
            let mut place = first.file.display().to_string();
            if let Some(Position { line, column }) = first.position {
                let _ = write!(place, ":{line}:{column}");
            }
            let _ = writeln!(
                lines,
                "warning[{}]: {count} × {}: {}; first at {place}",
                row.id, row.flaw, row.read_as
            );
            // What is left out of the crates is never only counted.
            if matches!(
                row.reading,
                Reading::OperationUnreadable | Reading::PathUnreadable
            ) {
                for warning in self.iter().filter(|w| w.reading == Some(row.reading)) {
                    let pointer = warning.pointer.as_deref().unwrap_or_default();
                    let _ = writeln!(lines, "  {}: {pointer}", warning.file.display());
                }
            }
        }
        for warning in self.iter().filter(|warning| warning.reading.is_none()) {
            let _ = writeln!(lines, "{warning}");
        }
        lines.trim_end().to_string()
    }
}
