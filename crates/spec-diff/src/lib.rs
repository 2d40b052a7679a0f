//! Compares two versions of the OpenAPI spec and classifies every change.
//!
//! Two views of each change are reported side by side:
//!
//! - the HTTP contract ([`walk`]): every difference between the two documents,
//!   classified as breaking, possibly breaking or compatible, with the
//!   direction (request or response) that decides the level and a stable rule
//!   id;
//! - the generated Rust API ([`surface`]): what the types, client and server
//!   crates expose, read from the code the generator emits for each version
//!   ([`emitted`]), is diffed, and each Rust-level difference is attached to
//!   the HTTP change that causes it.
//!
//! A breaking change must be acknowledged in the new spec ([`ack`]), or the
//! command fails. [`cli::spec_diff`] is the whole command as a function; the
//! xtask binary only parses arguments.

pub mod ack;
pub mod cli;
pub mod emitted;
pub mod naming;
pub mod render;
pub mod rules;
pub mod surface;
pub mod walk;

use std::fmt;

use openapi_crates_codegen::load::LoadedSpec;

/// How much a change can hurt existing callers of the HTTP API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Breaking,
    PossiblyBreaking,
    Compatible,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Breaking => "breaking",
            Level::PossiblyBreaking => "possibly breaking",
            Level::Compatible => "compatible",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which side of the exchange decides the level of a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    Request,
    Response,
    Both,
    NotApplicable,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Request => "request",
            Direction::Response => "response",
            Direction::Both => "both",
            Direction::NotApplicable => "n/a",
        }
    }
}

/// A node of one version of the spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// JSON pointer (RFC 6901) into the document.
    pub pointer: String,
    /// 1-based line of the node, or of its nearest ancestor present in the file.
    pub line: Option<usize>,
}

/// Who has to change their Rust code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Audience {
    ClientUsers,
    ServerImplementors,
    Everyone,
}

impl Audience {
    pub fn as_str(self) -> &'static str {
        match self {
            Audience::ClientUsers => "client users",
            Audience::ServerImplementors => "server implementors",
            Audience::Everyone => "client users and server implementors",
        }
    }
}

/// One difference in the generated crates' public API.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct RustEffect {
    /// Whether code that compiled (or ran) against the old crates can stop doing so.
    pub breaking: bool,
    pub audience: Audience,
    pub text: String,
}

impl fmt::Display for RustEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.breaking { "break" } else { "addition" };
        write!(f, "{} ({kind}): {}", self.audience.as_str(), self.text)
    }
}

/// One classified change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Stable id of the rule that matched, e.g. `request-max-length-decreased`.
    pub rule: String,
    pub level: Level,
    pub direction: Direction,
    /// What changed, in one sentence.
    pub message: String,
    /// Where in the base version (absent for an addition).
    pub base: Option<Location>,
    /// Where in the new version (absent for a removal).
    pub head: Option<Location>,
    /// What the change does to the generated crates; empty means none.
    pub rust: Vec<RustEffect>,
    /// The reason given by the acknowledgement that covers this change.
    pub acknowledged: Option<String>,
}

impl Change {
    /// The pointer the change is best known by: the new one, else the old one.
    pub fn pointer(&self) -> &str {
        self.head
            .as_ref()
            .or(self.base.as_ref())
            .map(|location| location.pointer.as_str())
            .unwrap_or("")
    }

    fn sort_line(&self) -> usize {
        self.head
            .as_ref()
            .and_then(|l| l.line)
            .or_else(|| self.base.as_ref().and_then(|l| l.line))
            .unwrap_or(0)
    }
}

/// Everything the command reports.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The base version's name (a revision) and the new version's, for headings.
    pub base_label: String,
    pub head_label: String,
    /// Set when there was nothing to compare against (no spec at the base revision).
    pub no_base: bool,
    pub changes: Vec<Change>,
    /// Acknowledgements in the new spec that match no change.
    pub stale_acknowledgements: Vec<ack::Acknowledgement>,
}

impl Report {
    pub fn count(&self, level: Level) -> usize {
        self.changes.iter().filter(|c| c.level == level).count()
    }

    /// Breaking changes that no acknowledgement covers: each one fails the check.
    pub fn unacknowledged(&self) -> impl Iterator<Item = &Change> {
        self.changes
            .iter()
            .filter(|c| c.level == Level::Breaking && c.acknowledged.is_none())
    }
}

/// Compares two versions of the spec, each loaded as written (see
/// [`openapi_crates_codegen::parse_spec_as_written`]): every HTTP change, classified
/// on the documents as written (a 3.1 file is compared as 3.1), with its
/// Rust API effects from the crates the generator emits for each version
/// (modelled from the documents where it refuses one).
pub fn diff_specs(base: &LoadedSpec, head: &LoadedSpec) -> Vec<Change> {
    let mut changes = walk::diff_documents(base, head);
    // Two equal documents generate the same crates: nothing to generate.
    if base.document == head.document {
        sort_changes(&mut changes);
        return changes;
    }
    let ((base_lowered, base_lowers), (head_lowered, head_lowers)) =
        (as_generated(base), as_generated(head));
    let emitted_of = |lowered: &LoadedSpec, lowers: bool| {
        if lowers {
            emitted::Emitted::of(lowered)
        } else {
            Err("the generator does not lower this 3.1 document".to_string())
        }
    };
    let mut effects = match (
        emitted_of(&base_lowered, base_lowers),
        emitted_of(&head_lowered, head_lowers),
    ) {
        (Ok(base_code), Ok(head_code)) => {
            let surface_of = |lowered: &LoadedSpec, code: &emitted::Emitted| {
                let prepared = surface::prepared(lowered);
                let generated = surface::Generated::of_prepared(&prepared);
                surface::Surface::of_code(&prepared, &generated, code)
            };
            surface::diff_surfaces(
                &surface_of(&base_lowered, &base_code),
                &surface_of(&head_lowered, &head_code),
            )
        }
        (base_code, head_code) => {
            // Both versions are modelled alike, so that a difference is
            // one of the spec, never one between two models; each effect
            // says it is modelled.
            let refused = match (base_code.is_err(), head_code.is_err()) {
                (true, true) => "both versions",
                (true, false) => "the base version",
                _ => "the new version",
            };
            let surface_of = |lowered: &LoadedSpec| {
                surface::Surface::of(&lowered.document, &surface::Generated::of(lowered))
            };
            let mut effects =
                surface::diff_surfaces(&surface_of(&base_lowered), &surface_of(&head_lowered));
            for effect in &mut effects {
                effect.effect.text.push_str(&format!(
                    " (modelled from the document: the generator refuses {refused})"
                ));
            }
            effects
        }
    };
    // The Rust view reads the lowered document, whose pointers may name
    // nodes the file does not have (`const` lowered to `enum`): each names
    // the nearest node of the file instead.
    for effect in &mut effects {
        let written = if effect.in_base { base } else { head };
        while !effect.pointer.is_empty() && written.document.pointer(&effect.pointer).is_none() {
            let cut = effect.pointer.rfind('/').unwrap_or(0);
            effect.pointer.truncate(cut);
        }
    }
    surface::attach(&mut changes, effects, base, head);
    sort_changes(&mut changes);
    changes
}

/// `spec` as the generator reads it (a 3.1 document lowered to 3.0), and
/// whether lowering accepted it: where it does not, the document is as far
/// as it was lowered, and the generator never sees it.
fn as_generated(spec: &LoadedSpec) -> (LoadedSpec, bool) {
    let mut lowered = spec.clone();
    let is_31 = lowered
        .document
        .get("openapi")
        .and_then(serde_json::Value::as_str)
        .is_some_and(openapi_crates_codegen::lower::is_openapi_31);
    let lowers = !is_31 || openapi_crates_codegen::lower::lower(&mut lowered).is_ok();
    (lowered, lowers)
}

/// The generator's model of `spec`, read and prepared as the generator
/// reads it; `None` where the generator refuses the document.
pub(crate) fn model_of(spec: &LoadedSpec) -> Option<openapi_crates_codegen::model::ApiModel> {
    let (lowered, lowers) = as_generated(spec);
    if !lowers {
        return None;
    }
    openapi_crates_codegen::model::build_model(&surface::prepared(&lowered)).ok()
}

/// Most severe first, then in the order of the new file.
pub fn sort_changes(changes: &mut [Change]) {
    changes.sort_by(|a, b| {
        (a.level, a.sort_line(), a.pointer(), &a.rule, &a.message).cmp(&(
            b.level,
            b.sort_line(),
            b.pointer(),
            &b.rule,
            &b.message,
        ))
    });
}

/// The location of `pointer` in `spec`.
pub fn locate(spec: &LoadedSpec, pointer: &str) -> Location {
    Location {
        pointer: pointer.to_string(),
        line: spec.source_map.locate(pointer).map(|p| p.line),
    }
}
