//! The model's validation [`Check`]s, applied at run time by the runtime's
//! one reading of them (`openapi_crates_runtime::rules::Check::run`), the
//! one the generated server's validators call: a request gets the same 400
//! with the same `errors[]` from the mock as from the generated server.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use openapi_crates_codegen::model::validation::{Check, PatternRule, Validator, pattern_rule};
use openapi_crates_runtime::checks::{Location, Violations};
use openapi_crates_runtime::json::Value;

/// The checks of every schema the mock validates against, and the patterns
/// its made-up strings must match, each compiled once on first use (the
/// generated server keeps them in statics).
pub(crate) struct Checks {
    /// Sorted by name, as [`Schemas`] finds them.
    validators: &'static [Validator],
    patterns: RwLock<HashMap<&'static str, Arc<PatternRule>>>,
}

impl Checks {
    pub(crate) fn new(validators: &'static [Validator]) -> Self {
        debug_assert!(validators.is_sorted_by(|a, b| a.schema < b.schema));
        Self {
            validators,
            patterns: RwLock::default(),
        }
    }

    /// The checks of component schema `name`, when it has a validator.
    pub(crate) fn validator(&self, name: &str) -> Option<&'static Check> {
        Validator::find(self.validators, name)
    }

    /// Adds every rule `value` (at `at`) breaks under `check` to `out`.
    pub(crate) fn run(
        &self,
        check: &Check,
        value: &Value<'_>,
        at: &Location,
        out: &mut Violations,
    ) {
        check.run(&self.validators, value, at, out);
    }

    /// `pattern` as the generated server holds it, compiled on first use.
    pub(crate) fn pattern(&self, pattern: &'static str) -> Arc<PatternRule> {
        let found = self
            .patterns
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(pattern)
            .cloned();
        found.unwrap_or_else(|| {
            self.patterns
                .write()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .entry(pattern)
                .or_insert_with(|| Arc::new(pattern_rule(pattern)))
                .clone()
        })
    }
}
