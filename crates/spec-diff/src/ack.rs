//! Acknowledgements: a breaking change passes only when the new spec says it
//! is meant.
//!
//! The spec lists them in a root extension:
//!
//! ```yaml
//! x-breaking-changes:
//!   - rule: request-max-length-decreased
//!     pointer: /components/schemas/EventStreamName/maxLength
//!     reason: Names longer than 64 characters were never stored in full.
//! ```
//!
//! An entry covers the changes with that rule id whose pointer, in either
//! version, is the one given. A new version segment in the path of the first
//! server URL, present in both versions (`/api/v2` -> `/api/v3`), is a new API
//! version and acknowledges every change (`server-url-prefix-changed`); a
//! missing, removed or otherwise changed server URL acknowledges nothing.

use openapi_crates_codegen::Diagnostic;
use openapi_crates_codegen::load::LoadedSpec;
use serde_json::Value;

use crate::{Change, Level};

/// The root extension that lists acknowledged breaking changes.
pub const EXTENSION: &str = "x-breaking-changes";

/// One entry of [`EXTENSION`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Acknowledgement {
    pub rule: String,
    pub pointer: String,
    pub reason: String,
    /// Where the entry is written in the new spec.
    pub line: Option<usize>,
}

/// The acknowledgements of `spec`; a malformed entry is an error at its line.
pub fn read(spec: &LoadedSpec) -> Result<Vec<Acknowledgement>, Diagnostic> {
    let Some(entries) = spec.document.get(EXTENSION) else {
        return Ok(Vec::new());
    };
    let root = format!("/{EXTENSION}");
    let Some(entries) = entries.as_array() else {
        return Err(spec.error_at(
            &root,
            format!("`{EXTENSION}` must be a list of {{rule, pointer, reason}}"),
        ));
    };
    let mut found = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let pointer = format!("{root}/{i}");
        let field = |name: &str| -> Result<String, Diagnostic> {
            entry
                .get(name)
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .map(str::to_string)
                .ok_or_else(|| {
                    spec.error_at(
                        &pointer,
                        format!("an acknowledgement needs a non-empty string `{name}`"),
                    )
                })
        };
        found.push(Acknowledgement {
            rule: field("rule")?,
            pointer: field("pointer")?,
            reason: field("reason")?,
            line: spec.source_map.locate(&pointer).map(|p| p.line),
        });
    }
    Ok(found)
}

/// Marks the breaking changes that `acknowledgements` cover and returns the
/// entries that cover nothing (stale, reported as information).
pub fn apply(changes: &mut [Change], acknowledgements: &[Acknowledgement]) -> Vec<Acknowledgement> {
    let new_version = changes
        .iter()
        .find(|c| c.rule == "server-url-prefix-changed")
        .map(|c| {
            let prefix = c.head.as_ref().map_or("", |l| l.pointer.as_str());
            format!(
                "a new API version (the version in the server URL path changed, at {prefix}; see `server-url-prefix-changed`)"
            )
        });
    let mut used = vec![false; acknowledgements.len()];
    for change in changes.iter_mut().filter(|c| c.level == Level::Breaking) {
        let pointers = [change.base.as_ref(), change.head.as_ref()];
        let matching = acknowledgements.iter().position(|ack| {
            ack.rule == change.rule
                && pointers
                    .iter()
                    .flatten()
                    .any(|location| location.pointer == ack.pointer)
        });
        if let Some(i) = matching {
            used[i] = true;
            change.acknowledged = Some(acknowledgements[i].reason.clone());
        } else if let Some(reason) = &new_version {
            change.acknowledged = Some(reason.clone());
        }
    }
    acknowledgements
        .iter()
        .zip(used)
        .filter(|(_, used)| !used)
        .map(|(ack, _)| ack.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Direction, Location};

    fn change(rule: &str, pointer: &str, level: Level) -> Change {
        Change {
            rule: rule.into(),
            level,
            direction: Direction::Request,
            message: String::new(),
            base: Some(Location {
                pointer: pointer.into(),
                line: Some(1),
            }),
            head: Some(Location {
                pointer: pointer.into(),
                line: Some(1),
            }),
            rust: Vec::new(),
            acknowledged: None,
        }
    }

    fn ack(rule: &str, pointer: &str) -> Acknowledgement {
        Acknowledgement {
            rule: rule.into(),
            pointer: pointer.into(),
            reason: "meant".into(),
            line: None,
        }
    }

    #[test]
    fn an_entry_matches_by_rule_and_pointer() {
        let mut changes = vec![
            change("request-max-length-decreased", "/a", Level::Breaking),
            change("request-max-length-decreased", "/b", Level::Breaking),
        ];
        let stale = apply(
            &mut changes,
            &[
                ack("request-max-length-decreased", "/a"),
                ack("api-path-removed", "/a"),
            ],
        );
        assert_eq!(changes[0].acknowledged.as_deref(), Some("meant"));
        assert_eq!(changes[1].acknowledged, None);
        assert_eq!(stale, vec![ack("api-path-removed", "/a")]);
    }

    #[test]
    fn a_new_prefix_acknowledges_everything() {
        let mut changes = vec![
            change(
                "server-url-prefix-changed",
                "/servers/0/url",
                Level::Breaking,
            ),
            change("api-path-removed", "/paths/~1x", Level::Breaking),
        ];
        assert!(apply(&mut changes, &[]).is_empty());
        assert!(changes.iter().all(|c| c.acknowledged.is_some()));
    }
}
