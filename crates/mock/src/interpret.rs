//! The model's validation [`Check`]s, applied at run time.
//!
//! The generated server renders each check tree as Rust
//! (`openapi_crates_codegen::emit::server::validate`) that calls the rule checks of
//! `openapi_crates_runtime::checks`; this walks the same tree and calls the
//! same functions in the same order, so a request gets the same 400 with the
//! same `errors[]` from the mock as from the generated server. Keep the two
//! in step: each arm here mirrors one arm of `validate::render`.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use openapi_crates_codegen::model::validation::{
    Additional, ArrayCheck, Check, Contains, Evaluated, NumberCheck, ObjectCheck, StringCheck,
    Validator,
};
use openapi_crates_runtime::checks::{self, AllowedValues, Location, Pattern, Violations};
use openapi_crates_runtime::json::Value;

/// Whether a value not of the check's JSON type is refused (`type` says it)
/// or let through (keywords without a `type`, [`Check::IfType`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    Strict,
    Lenient,
}

/// Which members an `unevaluated*` check is about.
#[derive(Clone, Copy)]
enum Member<'v, 'a> {
    Property(&'v str, &'v Value<'a>),
    Item(usize, &'v Value<'a>),
}

/// The checks of every schema the mock validates against, and the compiled
/// patterns and `enum` values they use, each built once on first use (the
/// generated server keeps them in statics).
pub(crate) struct Checks {
    validators: HashMap<&'static str, &'static Check>,
    patterns: RwLock<HashMap<&'static str, Arc<Pattern>>>,
    values: RwLock<HashMap<usize, Arc<AllowedValues>>>,
}

impl Checks {
    pub(crate) fn new(validators: impl IntoIterator<Item = &'static Validator>) -> Self {
        let mut by_name = HashMap::new();
        for validator in validators {
            by_name
                .entry(validator.schema.as_str())
                .or_insert(&validator.check);
        }
        Self {
            validators: by_name,
            patterns: RwLock::default(),
            values: RwLock::default(),
        }
    }

    /// The checks of component schema `name`, when it has a validator.
    pub(crate) fn validator(&self, name: &str) -> Option<&'static Check> {
        self.validators.get(name).copied()
    }

    /// `pattern` compiled as the generated server compiles it: translated to
    /// the `regex` crate where the generator proves the meaning is the same,
    /// else matched by regress.
    pub(crate) fn pattern(&self, pattern: &'static str) -> Arc<Pattern> {
        if let Some(found) = read(&self.patterns).get(pattern) {
            return Arc::clone(found);
        }
        let compiled = Arc::new(
            match openapi_crates_codegen::model::pattern::to_regex(pattern) {
                Some(translated) => Pattern::translated(pattern, &translated),
                None => Pattern::new(pattern),
            },
        );
        write(&self.patterns)
            .entry(pattern)
            .or_insert(compiled)
            .clone()
    }

    /// The `enum` values of a check, read once (by the address of the
    /// model's list, which lives as long as the mock).
    fn allowed(&self, values: &'static [serde_json::Value]) -> Arc<AllowedValues> {
        let key = values.as_ptr() as usize;
        if let Some(found) = read(&self.values).get(&key) {
            return Arc::clone(found);
        }
        // The runtime's table takes `'static` texts, as generated statics
        // give it; these are made once per list.
        let texts: Vec<&'static str> = values
            .iter()
            .map(|value| &*Box::leak(value.to_string().into_boxed_str()))
            .collect();
        let allowed = Arc::new(AllowedValues::new(&texts));
        write(&self.values).entry(key).or_insert(allowed).clone()
    }

    /// Adds every rule `value` (at `at`) breaks under `check` to `out`.
    pub(crate) fn run(
        &self,
        check: &'static Check,
        value: &Value<'_>,
        at: &Location,
        out: &mut Violations,
    ) {
        match check {
            Check::Any => {}
            Check::Never => checks::not_allowed(at, out),
            Check::Schema(name) => {
                if let Some(check) = self.validator(name) {
                    self.run(check, value, at, out);
                }
            }
            Check::All(parts) => {
                for part in parts {
                    self.run(part, value, at, out);
                }
            }
            Check::Object(object) => self.object(object, Entry::Strict, value, at, out),
            Check::Array(array) => self.array(array, Entry::Strict, value, at, out),
            Check::String(string) => self.string(string, Entry::Strict, value, at, out),
            Check::Number(number) => self.number(number, Entry::Strict, value, at, out),
            Check::Boolean => checks::expect_boolean(value, at, out),
            Check::IfType(inner) => match &**inner {
                Check::Object(object) => self.object(object, Entry::Lenient, value, at, out),
                Check::Array(array) => self.array(array, Entry::Lenient, value, at, out),
                Check::String(string) => self.string(string, Entry::Lenient, value, at, out),
                Check::Number(number) => self.number(number, Entry::Lenient, value, at, out),
                other => self.run(other, value, at, out),
            },
            Check::Values(values) => {
                checks::allowed_value(value, &self.allowed(values), at, out);
            }
            Check::Not(excluded) => {
                if self.passes(excluded, value, at) {
                    checks::excluded_shape(at, out);
                }
            }
            Check::Conditional {
                condition,
                then,
                otherwise,
            } => {
                if self.passes(condition, value, at) {
                    self.run(then, value, at, out);
                } else {
                    self.run(otherwise, value, at, out);
                }
            }
            Check::UnevaluatedProperties { evaluated, rest } => {
                if let Some(object) = value.as_object() {
                    for (name, member) in object {
                        let at = &at.property(name);
                        if !self.evaluated(evaluated, value, Member::Property(name, member), at) {
                            self.rest(rest, member, at, true, out);
                        }
                    }
                }
            }
            Check::UnevaluatedItems { evaluated, rest } => {
                if let Some(items) = value.as_array() {
                    for (position, member) in items.iter().enumerate() {
                        let at = &at.item(position);
                        if !self.evaluated(evaluated, value, Member::Item(position, member), at) {
                            self.rest(rest, member, at, false, out);
                        }
                    }
                }
            }
            Check::Discriminated { property, mapping } => {
                if let Some(object) = checks::expect_object(value, at, out) {
                    match object.get(property) {
                        Some(Value::String(kind)) => {
                            match mapping
                                .iter()
                                .find(|(key, _)| key.as_str() == kind.as_ref())
                            {
                                Some((_, schema)) => {
                                    if let Some(check) = self.validator(schema) {
                                        self.run(check, value, at, out);
                                    }
                                }
                                None => {
                                    let keys: Vec<&str> =
                                        mapping.iter().map(|(key, _)| key.as_str()).collect();
                                    checks::one_of_values(kind, &keys, &at.property(property), out);
                                }
                            }
                        }
                        _ => checks::required_string(object, at, property, out),
                    }
                }
            }
            Check::Alternatives {
                exactly_one,
                variants,
            } => {
                let matched = variants
                    .iter()
                    .filter(|variant| self.passes(variant, value, at))
                    .count();
                if *exactly_one && matched != 1 {
                    checks::shape_mismatch(at, "exactly one", out);
                } else if !*exactly_one && matched == 0 {
                    checks::shape_mismatch(at, "at least one", out);
                }
            }
            Check::WithMessage { check, message } => {
                let mut broken = Violations::new();
                self.run(check, value, at, &mut broken);
                out.add_with_message(broken, message);
            }
            Check::Nullable(check) => {
                if !value.is_null() {
                    self.run(check, value, at, out);
                }
            }
        }
    }

    /// Whether `value` passes `check` (its violations dropped).
    pub(crate) fn passes(&self, check: &'static Check, value: &Value<'_>, at: &Location) -> bool {
        let mut out = Violations::new();
        self.run(check, value, at, &mut out);
        out.is_empty()
    }

    fn rest(
        &self,
        rest: &'static Additional,
        member: &Value<'_>,
        at: &Location,
        properties: bool,
        out: &mut Violations,
    ) {
        match rest {
            Additional::Allowed => {}
            Additional::Forbidden if properties => checks::unevaluated_property(at, out),
            Additional::Forbidden => checks::unevaluated_item(at, out),
            Additional::Checked(check) => self.run(check, member, at, out),
        }
    }

    /// Whether a member of `container` was evaluated by the keywords beside
    /// an `unevaluated*` keyword.
    fn evaluated(
        &self,
        evaluated: &'static Evaluated,
        container: &Value<'_>,
        member: Member<'_, '_>,
        at: &Location,
    ) -> bool {
        match evaluated {
            Evaluated::Everything => true,
            Evaluated::Names(names) => {
                matches!(member, Member::Property(name, _) if names.iter().any(|known| known == name))
            }
            Evaluated::Patterns(patterns) => match member {
                Member::Property(name, _) => patterns
                    .iter()
                    .any(|pattern| self.pattern(pattern).matches(name)),
                Member::Item(..) => false,
            },
            Evaluated::Prefix(length) => {
                matches!(member, Member::Item(position, _) if position < *length)
            }
            Evaluated::Matching(check) => {
                let (Member::Property(_, value) | Member::Item(_, value)) = member;
                self.passes(check, value, at)
            }
            Evaluated::When {
                condition,
                evaluated,
            } => {
                self.passes(condition, container, at)
                    && self.evaluated(evaluated, container, member, at)
            }
            Evaluated::Union(parts) => parts
                .iter()
                .any(|part| self.evaluated(part, container, member, at)),
        }
    }

    fn object(
        &self,
        check: &'static ObjectCheck,
        entry: Entry,
        value: &Value<'_>,
        at: &Location,
        out: &mut Violations,
    ) {
        let object = match entry {
            Entry::Strict => checks::expect_object(value, at, out),
            Entry::Lenient => value.as_object(),
        };
        let Some(object) = object else {
            return;
        };
        if let Some(min) = check.min_properties {
            checks::min_properties(object, min, at, out);
        }
        if let Some(max) = check.max_properties {
            checks::max_properties(object, max, at, out);
        }
        if !check.required.is_empty() {
            checks::required(object, at, &strs(&check.required), out);
        }
        for (name, required) in &check.dependent_required {
            checks::dependent_required(object, at, name, &strs(required), out);
        }
        for (name, property) in &check.properties {
            if let Some(value) = object.get(name) {
                self.run(property, value, &at.property(name), out);
            }
        }
        let known = strs(&check.known);
        if check.patterns.is_empty() {
            match &check.additional {
                Additional::Allowed => {}
                Additional::Forbidden => checks::no_other_properties(object, at, &known, out),
                Additional::Checked(extra) => {
                    for (name, value) in object {
                        if !known.contains(&name) {
                            self.run(extra, value, &at.property(name), out);
                        }
                    }
                }
            }
        } else {
            let additional_checked = !matches!(check.additional, Additional::Allowed);
            for (name, value) in object {
                let mut matched = false;
                for (pattern, property) in &check.patterns {
                    if property.is_any() && !additional_checked {
                        continue;
                    }
                    let matches = self.pattern(pattern).matches(name);
                    if matches && !property.is_any() {
                        self.run(property, value, &at.property(name), out);
                    }
                    matched |= matches;
                }
                let unmatched = !known.contains(&name) && !matched;
                match &check.additional {
                    Additional::Allowed => {}
                    Additional::Forbidden if unmatched => {
                        checks::additional_property(&at.property(name), out);
                    }
                    Additional::Checked(extra) if unmatched => {
                        self.run(extra, value, &at.property(name), out);
                    }
                    _ => {}
                }
            }
        }
        if let Some(names) = &check.property_names {
            for name in object.keys() {
                let text = Value::String(name.into());
                if !self.passes(names, &text, at) {
                    checks::property_name(&at.property(name), out);
                }
            }
        }
        for (name, dependent) in &check.dependent_schemas {
            if object.contains_key(name) {
                self.run(dependent, value, at, out);
            }
        }
    }

    fn array(
        &self,
        check: &'static ArrayCheck,
        entry: Entry,
        value: &Value<'_>,
        at: &Location,
        out: &mut Violations,
    ) {
        let items = match entry {
            Entry::Strict => checks::expect_array(value, at, out),
            Entry::Lenient => value.as_array(),
        };
        let Some(items) = items else {
            return;
        };
        if let Some(min) = check.min_items {
            checks::min_items(items, min, at, out);
        }
        if let Some(max) = check.max_items {
            checks::max_items(items, max, at, out);
        }
        if check.unique {
            checks::unique_items(items, at, out);
        }
        match &check.contains {
            None => {}
            Some(Contains {
                check: contains,
                min: 1,
                max: None,
            }) => {
                let matched = items.iter().any(|item| self.passes(contains, item, at));
                if !matched {
                    checks::no_item_matches(at, out);
                }
            }
            Some(Contains {
                check: contains,
                min,
                max,
            }) => {
                let matched = items
                    .iter()
                    .filter(|item| self.passes(contains, item, at))
                    .count();
                if *min > 0 {
                    checks::min_contains(matched, *min, at, out);
                }
                if let Some(max) = max {
                    checks::max_contains(matched, *max, at, out);
                }
            }
        }
        for (position, prefix) in check.prefix.iter().enumerate() {
            if let Some(item) = items.get(position) {
                self.run(prefix, item, &at.item(position), out);
            }
        }
        if !check.items.is_any() {
            for (position, item) in items.iter().enumerate().skip(check.prefix.len()) {
                self.run(&check.items, item, &at.item(position), out);
            }
        }
    }

    fn string(
        &self,
        check: &'static StringCheck,
        entry: Entry,
        value: &Value<'_>,
        at: &Location,
        out: &mut Violations,
    ) {
        let text = match entry {
            Entry::Strict => checks::expect_string(value, at, out),
            Entry::Lenient => value.as_str(),
        };
        let Some(text) = text else {
            return;
        };
        if let Some(allowed) = &check.allowed {
            checks::one_of_values(text, &strs(allowed), at, out);
        }
        if let Some(min) = check.min_length {
            checks::min_length(text, min, at, out);
        }
        if let Some(max) = check.max_length {
            checks::max_length(text, max, at, out);
        }
        if let Some(format) = &check.format {
            checks::format(text, format, at, out);
        }
        if let Some(pattern) = &check.pattern {
            checks::pattern(text, &self.pattern(pattern), at, out);
        }
    }

    fn number(
        &self,
        check: &'static NumberCheck,
        entry: Entry,
        value: &Value<'_>,
        at: &Location,
        out: &mut Violations,
    ) {
        let number = match (entry, check.integer) {
            (Entry::Strict, true) => checks::expect_integer(value, at, out),
            (Entry::Strict, false) => checks::expect_number(value, at, out),
            (Entry::Lenient, _) => checks::as_number(value),
        };
        let Some(number) = number else {
            return;
        };
        if let Some(bound) = check.minimum {
            match (bound.exclusive, bound.exact) {
                (true, Some(exact)) => {
                    checks::exclusive_minimum_exact(value, number, exact, at, out)
                }
                (false, Some(exact)) => checks::minimum_exact(value, number, exact, at, out),
                (true, None) => checks::exclusive_minimum(number, bound.value, at, out),
                (false, None) => checks::minimum(number, bound.value, at, out),
            }
        }
        if let Some(bound) = check.maximum {
            match (bound.exclusive, bound.exact) {
                (true, Some(exact)) => {
                    checks::exclusive_maximum_exact(value, number, exact, at, out)
                }
                (false, Some(exact)) => checks::maximum_exact(value, number, exact, at, out),
                (true, None) => checks::exclusive_maximum(number, bound.value, at, out),
                (false, None) => checks::maximum(number, bound.value, at, out),
            }
        }
        if let Some(divisor) = check.multiple_of {
            checks::multiple_of(number, divisor, at, out);
        }
        // The generated server's integer type refuses this when it reads the
        // body; the mock reads no types.
        if let Some(format) = &check.format {
            checks::integer_format(
                value,
                number,
                &format.name,
                (format.min, format.max),
                at,
                out,
            );
        }
    }
}

fn strs(names: &[String]) -> Vec<&str> {
    names.iter().map(String::as_str).collect()
}

/// A lock's contents; a panic elsewhere while it was held leaves a cache
/// that is still consistent (entries are only ever added whole).
fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
