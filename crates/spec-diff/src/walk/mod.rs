//! The HTTP contract: the differ walks both documents side by side, pairs
//! their nodes, and hands each pair to the module of its family, which picks
//! a rule of [`crate::rules`] (the rule decides the level and direction).
//!
//! This module pairs: operations by path and method (moves by
//! `operationId`; a path whose template only renames its parameters is the
//! same path), webhooks by name, schemas through `$ref`s, with cycles ended
//! and equal schemas (`equivalence`) skipped. Component schemas are
//! compared once each, where they are defined, and classified by where they
//! are used (request, response or both), so a change to a schema shared by
//! many operations is one change, not one per use. At a use site only what
//! differs there is compared: inline schemas, or the resolved targets when a
//! `$ref` now points elsewhere. The families: `servers`, `security`,
//! `operations`, `lifecycle`, `parameters`, `serialization`, `bodies`,
//! `responses`, `webhooks`, `components`, `schemas`, `bounds`, `enums`,
//! `composition`.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

use openapi_crates_codegen::diagnostic::pointer_join;
use openapi_crates_codegen::load::LoadedSpec;
use openapi_crates_codegen::model::{ApiModel, refs};
use serde_json::Value;

pub use crate::rules::Usage;
use crate::rules::{self, BoundRules, CompositionRules, FlagRules, KeywordRules, Verdict};
use crate::{Change, locate};

mod bodies;
mod bounds;
mod components;
mod composition;
mod document;
mod enums;
mod equivalence;
mod lifecycle;
mod operations;
mod parameters;
mod responses;
mod schemas;
mod security;
mod serialization;
mod servers;
mod webhooks;

use document::*;
pub use document::{
    OperationView, component_schema, operations, parameters, resolve, schema_usage, webhooks,
};
pub use equivalence::equivalent;
pub use servers::{path_prefix, version_segment};

use openapi_crates_codegen::vocabulary::METHODS;
const SCHEMAS: &str = refs::SCHEMA_REF_PREFIX;

/// Every HTTP-level change from `base` to `head`, without Rust effects.
pub fn diff_documents(base: &LoadedSpec, head: &LoadedSpec) -> Vec<Change> {
    let mut usage = schema_usage(&base.document);
    for (name, used) in schema_usage(&head.document) {
        let entry = usage.entry(name).or_default();
        *entry = entry.union(used);
    }
    let mut walker = Walker {
        base,
        head,
        usage,
        changes: Vec::new(),
        seen: BTreeSet::new(),
        travel: Travel::Json,
        base_model: OnceCell::new(),
        head_model: OnceCell::new(),
    };
    walker.servers();
    walker.security_schemes();
    walker.paths();
    walker.webhooks();
    walker.components();
    walker.changes
}

struct Walker<'a> {
    base: &'a LoadedSpec,
    head: &'a LoadedSpec,
    usage: BTreeMap<String, Usage>,
    changes: Vec<Change>,
    /// Pairs of (base, head) schema pointers compared through differing `$ref`s.
    seen: BTreeSet<(String, String)>,
    /// How the values of the schema being compared travel.
    travel: Travel,
    /// The generator's model of each version, built the first time a
    /// parameter's serialization is written differently (`serialization`);
    /// `None` where the generator refuses the version.
    base_model: OnceCell<Option<ApiModel>>,
    head_model: OnceCell<Option<ApiModel>>,
}

/// How the values a schema describes travel, which decides what a type
/// widened to `string` still takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Travel {
    /// As JSON, where `1` and `"1"` are different values.
    Json,
    /// As the text of a parameter: every scalar reads as a string.
    ParameterText,
    /// As a text document (`text/plain`, XML): every document is a string.
    TextDocument,
}

/// Two versions of one schema, where each is, how the schema is used and
/// what messages call it: what every schema rule reads.
#[derive(Clone, Copy)]
struct SchemaPair<'v> {
    old: &'v Value,
    new: &'v Value,
    old_at: &'v str,
    new_at: &'v str,
    usage: Usage,
    name: &'v str,
}

/// Where a change is in the base version and in the new one.
type Places<'p> = (Option<&'p str>, Option<&'p str>);

/// One side of a comparison: a node and its pointer.
type Node<'a> = (&'a Value, String);

impl<'a> Walker<'a> {
    /// Records a change: its level, direction and id come from `verdict`.
    fn report(&mut self, verdict: Verdict, message: String, places: Places<'_>) {
        let (level, direction, rule) = verdict.classify();
        self.changes.push(Change {
            rule,
            level,
            direction,
            message,
            base: places.0.map(|p| locate(self.base, p)),
            head: places.1.map(|p| locate(self.head, p)),
            rust: Vec::new(),
            acknowledged: None,
        });
    }

    /// Compares two schemas used as `usage`; `name` names the schema in messages.
    fn schema(&mut self, old: Node<'_>, new: Node<'_>, usage: Usage, name: &str) {
        // In 3.1 a `$ref` is one keyword among others: those beside it
        // constrain the value too, and are compared as a schema of their
        // own, where they are written (3.0 ignores them, as it says).
        let old_beside = beside_ref(&self.base.document, old.0);
        let new_beside = beside_ref(&self.head.document, new.0);
        if old_beside.is_some() || new_beside.is_some() {
            let none = Value::Object(serde_json::Map::new());
            self.schema(
                (old_beside.as_ref().unwrap_or(&none), old.1.clone()),
                (new_beside.as_ref().unwrap_or(&none), new.1.clone()),
                usage,
                name,
            );
        }
        let old_ref = old.0.get("$ref").and_then(Value::as_str);
        let new_ref = new.0.get("$ref").and_then(Value::as_str);
        if let (Some(a), Some(b)) = (old_ref, new_ref)
            && a == b
            && a.starts_with(SCHEMAS)
        {
            return; // compared once, where the component is defined
        }
        if (old_ref.is_some() || new_ref.is_some())
            && equivalent(&self.base.document, old.0, &self.head.document, new.0)
        {
            return; // an inline schema replaced by an equal `$ref`, or the reverse
        }
        let old = resolve(&self.base.document, old.0, old.1);
        let new = resolve(&self.head.document, new.0, new.1);
        if (old_ref.is_some() || new_ref.is_some())
            && !self.seen.insert((old.1.clone(), new.1.clone()))
        {
            return;
        }
        let (s, t) = (old.0, new.0);
        let (sp, tp) = (old.1.as_str(), new.1.as_str());
        let pair = SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        };
        let at = |p: &str, key: &str| pointer_join(p, key);

        if !self.type_change(&pair) {
            return;
        }
        self.nullable_change(&pair);
        for flag in &rules::FLAGS {
            self.flag_change(&pair, flag);
        }
        self.default_change(&pair);
        for bound in &rules::BOUNDS {
            self.bound_change(&pair, bound);
        }
        for keyword in &rules::KEYWORDS {
            self.keyword_change(&pair, keyword);
        }
        self.enum_change(&pair);
        self.const_change(&pair);
        self.dependent_required(&pair);
        self.unclassified(&pair);
        // Properties constrain only objects: where the new schema takes
        // none (a text body widened to any string), the old one's
        // properties constrain nothing it takes.
        if schemas::types(t).is_none_or(|types| types.contains("object")) {
            self.properties(&pair);
            self.additional_properties(&pair);
        }
        if let (Some(a), Some(b)) = (s.get("items"), t.get("items")) {
            self.schema(
                (a, at(sp, "items")),
                (b, at(tp, "items")),
                usage,
                &format!("{name}[]"),
            );
        }
        if let (Some(a), Some(b)) = (s.get("contentSchema"), t.get("contentSchema")) {
            self.schema(
                (a, at(sp, "contentSchema")),
                (b, at(tp, "contentSchema")),
                usage,
                &format!("{name} (decoded content)"),
            );
        }
        self.contains(&pair);
        for composition in &rules::COMPOSITIONS {
            self.composition(&pair, composition);
        }
        self.discriminator(&pair);
    }
}

/// The keywords written beside the `$ref` of `schema` in a 3.1 `document`,
/// as a schema without the `$ref`; `None` where there are none, or where
/// the document is 3.0, whose `$ref` replaces its siblings.
fn beside_ref(document: &Value, schema: &Value) -> Option<Value> {
    let object = schema.as_object()?;
    if !object.contains_key("$ref") || object.len() == 1 {
        return None;
    }
    let is_31 = document
        .get("openapi")
        .and_then(Value::as_str)
        .is_some_and(openapi_crates_codegen::lower::is_openapi_31);
    if !is_31 {
        return None;
    }
    let mut beside = object.clone();
    beside.shift_remove("$ref");
    Some(Value::Object(beside))
}
