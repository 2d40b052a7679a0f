//! [`Check::run`]: the rules applied to a value, calling the rule checks of
//! [`crate::checks`] in the order the spec's keywords are read, so a broken
//! request gets the same `errors[]` from the generated server and the mock,
//! which both hold a tree of these rules and nothing else.

use super::{
    Additional, ArrayCheck, Check, Contains, Evaluated, NumberCheck, ObjectCheck, PatternRule,
    StringCheck, Validator, Values,
};
use crate::checks::{self, AllowedValues, Location, Pattern, Violations};
use crate::json::Value;

/// Where the checks of a named schema are found.
pub trait Schemas {
    fn check(&self, schema: &str) -> Option<&Check>;
}

/// No schemas by name: the rules of generated code link theirs
/// ([`Check::Linked`]).
impl Schemas for () {
    fn check(&self, _: &str) -> Option<&Check> {
        None
    }
}

/// The validators of an API, sorted by name as the generator lists them.
impl Schemas for &[Validator] {
    fn check(&self, schema: &str) -> Option<&Check> {
        Validator::find(self, schema)
    }
}

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

impl PatternRule {
    /// The automaton, compiled on first use: the `regex` crate's where the
    /// generator translated the pattern, else regress.
    pub fn compiled(&self) -> &Pattern {
        self.compiled.get_or_init(|| match &self.translated {
            Some(translated) => Pattern::translated(&self.source, translated),
            None => Pattern::new(&self.source),
        })
    }
}

impl Values {
    /// The values read as JSON, on first use.
    pub fn table(&self) -> &AllowedValues {
        self.table.get_or_init(|| {
            let texts: Vec<&str> = self.texts.iter().map(String::as_str).collect();
            AllowedValues::new(&texts)
        })
    }
}

impl Check {
    /// Adds every rule `value` (at `at`) breaks to `out`.
    pub fn run(
        &self,
        schemas: &dyn Schemas,
        value: &Value<'_>,
        at: &Location,
        out: &mut Violations,
    ) {
        match self {
            Check::Any => {}
            Check::Never => checks::not_allowed(at, out),
            Check::Schema(schema) => {
                if let Some(check) = schemas.check(schema) {
                    check.run(schemas, value, at, out);
                }
            }
            Check::Linked(link) => link.get().run(schemas, value, at, out),
            Check::All(parts) => {
                for part in parts {
                    part.run(schemas, value, at, out);
                }
            }
            Check::Object(object) => object.run(schemas, Entry::Strict, value, at, out),
            Check::Array(array) => array.run(schemas, Entry::Strict, value, at, out),
            Check::String(string) => string.run(Entry::Strict, value, at, out),
            Check::Number(number) => number.run(Entry::Strict, value, at, out),
            Check::Boolean => checks::expect_boolean(value, at, out),
            Check::IfType(inner) => match &**inner {
                Check::Object(object) => object.run(schemas, Entry::Lenient, value, at, out),
                Check::Array(array) => array.run(schemas, Entry::Lenient, value, at, out),
                Check::String(string) => string.run(Entry::Lenient, value, at, out),
                Check::Number(number) => number.run(Entry::Lenient, value, at, out),
                other => other.run(schemas, value, at, out),
            },
            Check::Values(values) => checks::allowed_value(value, values.table(), at, out),
            Check::Not(excluded) => {
                if excluded.passes(schemas, value, at) {
                    checks::excluded_shape(at, out);
                }
            }
            Check::Conditional {
                condition,
                then,
                otherwise,
            } => {
                if condition.passes(schemas, value, at) {
                    then.run(schemas, value, at, out);
                } else {
                    otherwise.run(schemas, value, at, out);
                }
            }
            Check::UnevaluatedProperties { evaluated, rest } => {
                if let Some(object) = value.as_object() {
                    for (name, member) in object {
                        let at = &at.property(name);
                        if !evaluated.covers(schemas, value, Member::Property(name, member), at) {
                            rest.run(schemas, member, at, true, out);
                        }
                    }
                }
            }
            Check::UnevaluatedItems { evaluated, rest } => {
                if let Some(items) = value.as_array() {
                    for (position, member) in items.iter().enumerate() {
                        let at = &at.item(position);
                        if !evaluated.covers(schemas, value, Member::Item(position, member), at) {
                            rest.run(schemas, member, at, false, out);
                        }
                    }
                }
            }
            Check::Discriminated { property, mapping } => {
                let Some(object) = checks::expect_object(value, at, out) else {
                    return;
                };
                match object.get(property.as_str()) {
                    Some(Value::String(kind)) => {
                        match mapping
                            .iter()
                            .find(|(key, _)| key.as_str() == kind.as_ref())
                        {
                            Some((_, check)) => check.run(schemas, value, at, out),
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
            Check::Alternatives {
                exactly_one,
                variants,
            } => {
                let matched = variants
                    .iter()
                    .filter(|variant| variant.passes(schemas, value, at))
                    .count();
                if *exactly_one && matched != 1 {
                    checks::shape_mismatch(at, "exactly one", out);
                } else if !*exactly_one && matched == 0 {
                    checks::shape_mismatch(at, "at least one", out);
                }
            }
            Check::WithMessage { check, message } => {
                let mut broken = Violations::new();
                check.run(schemas, value, at, &mut broken);
                out.add_with_message(broken, message);
            }
            Check::Nullable(check) => {
                if !value.is_null() {
                    check.run(schemas, value, at, out);
                }
            }
        }
    }

    /// Whether `value` passes (its violations dropped).
    pub fn passes(&self, schemas: &dyn Schemas, value: &Value<'_>, at: &Location) -> bool {
        let mut out = Violations::new();
        self.run(schemas, value, at, &mut out);
        out.is_empty()
    }
}

impl Additional {
    fn run(
        &self,
        schemas: &dyn Schemas,
        member: &Value<'_>,
        at: &Location,
        properties: bool,
        out: &mut Violations,
    ) {
        match self {
            Additional::Allowed => {}
            Additional::Forbidden if properties => checks::unevaluated_property(at, out),
            Additional::Forbidden => checks::unevaluated_item(at, out),
            Additional::Checked(check) => check.run(schemas, member, at, out),
        }
    }
}

impl Evaluated {
    /// Whether a member of `container` was evaluated by the keywords beside
    /// an `unevaluated*` keyword.
    fn covers(
        &self,
        schemas: &dyn Schemas,
        container: &Value<'_>,
        member: Member<'_, '_>,
        at: &Location,
    ) -> bool {
        match self {
            Evaluated::Everything => true,
            Evaluated::Names(names) => {
                matches!(member, Member::Property(name, _) if names.iter().any(|known| known == name))
            }
            Evaluated::Patterns(patterns) => match member {
                Member::Property(name, _) => patterns
                    .iter()
                    .any(|pattern| pattern.compiled().matches(name)),
                Member::Item(..) => false,
            },
            Evaluated::Prefix(length) => {
                matches!(member, Member::Item(position, _) if position < *length)
            }
            Evaluated::Matching(check) => {
                let (Member::Property(_, value) | Member::Item(_, value)) = member;
                check.passes(schemas, value, at)
            }
            Evaluated::When {
                condition,
                evaluated,
            } => {
                condition.passes(schemas, container, at)
                    && evaluated.covers(schemas, container, member, at)
            }
            Evaluated::Union(parts) => parts
                .iter()
                .any(|part| part.covers(schemas, container, member, at)),
        }
    }
}

impl ObjectCheck {
    fn run(
        &self,
        schemas: &dyn Schemas,
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
        if let Some(min) = self.min_properties {
            checks::min_properties(object, min, at, out);
        }
        if let Some(max) = self.max_properties {
            checks::max_properties(object, max, at, out);
        }
        if !self.required.is_empty() {
            checks::required(object, at, &self.required, out);
        }
        for (name, required) in &self.dependent_required {
            checks::dependent_required(object, at, name, required, out);
        }
        for (name, property) in &self.properties {
            if let Some(value) = object.get(name.as_str()) {
                property.run(schemas, value, &at.property(name), out);
            }
        }
        let known = &self.known;
        if self.patterns.is_empty() {
            match &self.additional {
                Additional::Allowed => {}
                Additional::Forbidden => checks::no_other_properties(object, at, known, out),
                Additional::Checked(extra) => {
                    for (name, value) in object {
                        if !known.iter().any(|known| known == name) {
                            extra.run(schemas, value, &at.property(name), out);
                        }
                    }
                }
            }
        } else {
            let additional_checked = !matches!(self.additional, Additional::Allowed);
            for (name, value) in object {
                let mut matched = false;
                for (pattern, property) in &self.patterns {
                    if property.is_any() && !additional_checked {
                        continue;
                    }
                    let matches = pattern.compiled().matches(name);
                    if matches && !property.is_any() {
                        property.run(schemas, value, &at.property(name), out);
                    }
                    matched |= matches;
                }
                let unmatched = !matched && !known.iter().any(|known| known == name);
                match &self.additional {
                    Additional::Allowed => {}
                    Additional::Forbidden if unmatched => {
                        checks::additional_property(&at.property(name), out);
                    }
                    Additional::Checked(extra) if unmatched => {
                        extra.run(schemas, value, &at.property(name), out);
                    }
                    _ => {}
                }
            }
        }
        if let Some(names) = &self.property_names {
            for name in object.keys() {
                let text = Value::String((*name).into());
                if !names.passes(schemas, &text, at) {
                    checks::property_name(&at.property(name), out);
                }
            }
        }
        for (name, dependent) in &self.dependent_schemas {
            if object.contains_key(name.as_str()) {
                dependent.run(schemas, value, at, out);
            }
        }
    }
}

impl ArrayCheck {
    fn run(
        &self,
        schemas: &dyn Schemas,
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
        if let Some(min) = self.min_items {
            checks::min_items(items, min, at, out);
        }
        if let Some(max) = self.max_items {
            checks::max_items(items, max, at, out);
        }
        if self.unique {
            checks::unique_items(items, at, out);
        }
        if let Some(Contains {
            check: contains,
            min,
            max,
        }) = &self.contains
        {
            if (*min, *max) == (1, None) {
                // Plain `contains`: the first matching item settles it.
                if !items.iter().any(|item| contains.passes(schemas, item, at)) {
                    checks::no_item_matches(at, out);
                }
            } else {
                let matched = items
                    .iter()
                    .filter(|item| contains.passes(schemas, item, at))
                    .count();
                if *min > 0 {
                    checks::min_contains(matched, *min, at, out);
                }
                if let Some(max) = max {
                    checks::max_contains(matched, *max, at, out);
                }
            }
        }
        for (position, prefix) in self.prefix.iter().enumerate() {
            if let Some(item) = items.get(position) {
                prefix.run(schemas, item, &at.item(position), out);
            }
        }
        if !self.items.is_any() {
            for (position, item) in items.iter().enumerate().skip(self.prefix.len()) {
                self.items.run(schemas, item, &at.item(position), out);
            }
        }
    }
}

impl StringCheck {
    fn run(&self, entry: Entry, value: &Value<'_>, at: &Location, out: &mut Violations) {
        let text = match entry {
            Entry::Strict => checks::expect_string(value, at, out),
            Entry::Lenient => value.as_str(),
        };
        let Some(text) = text else {
            return;
        };
        if let Some(allowed) = &self.allowed {
            checks::one_of_values(text, allowed, at, out);
        }
        if let Some(min) = self.min_length {
            checks::min_length(text, min, at, out);
        }
        if let Some(max) = self.max_length {
            checks::max_length(text, max, at, out);
        }
        if let Some(format) = &self.format {
            checks::format(text, format, at, out);
        }
        if let Some(pattern) = &self.pattern {
            checks::pattern(text, pattern.compiled(), at, out);
        }
    }
}

impl NumberCheck {
    fn run(&self, entry: Entry, value: &Value<'_>, at: &Location, out: &mut Violations) {
        let number = match (entry, self.integer) {
            (Entry::Strict, true) => checks::expect_integer(value, at, out),
            (Entry::Strict, false) => checks::expect_number(value, at, out),
            (Entry::Lenient, _) => checks::as_number(value),
        };
        let Some(number) = number else {
            return;
        };
        if let Some(bound) = self.minimum {
            match (bound.exclusive, bound.exact) {
                (true, Some(exact)) => {
                    checks::exclusive_minimum_exact(value, number, exact, at, out)
                }
                (false, Some(exact)) => checks::minimum_exact(value, number, exact, at, out),
                (true, None) => checks::exclusive_minimum(number, bound.value, at, out),
                (false, None) => checks::minimum(number, bound.value, at, out),
            }
        }
        if let Some(bound) = self.maximum {
            match (bound.exclusive, bound.exact) {
                (true, Some(exact)) => {
                    checks::exclusive_maximum_exact(value, number, exact, at, out)
                }
                (false, Some(exact)) => checks::maximum_exact(value, number, exact, at, out),
                (true, None) => checks::exclusive_maximum(number, bound.value, at, out),
                (false, None) => checks::maximum(number, bound.value, at, out),
            }
        }
        if let Some(divisor) = self.multiple_of {
            checks::multiple_of(number, divisor, at, out);
        }
        // A typed reading refuses this too; the mock and a multipart part
        // have none.
        if let Some(format) = &self.format {
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

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use super::*;
    use crate::rules::{Link, names};

    fn pointers(check: &Check, schemas: &dyn Schemas, body: &str) -> Vec<String> {
        let value = Value::from_slice(body.as_bytes()).unwrap();
        let mut out = Violations::new();
        check.run(schemas, &value, &Location::Body, &mut out);
        out.into_iter().map(|broken| broken.pointer).collect()
    }

    /// `Node: {type: object, required: [name], properties: {child: Node}}`,
    /// as generated code links it to itself.
    static NODE: LazyLock<Check> = LazyLock::new(|| {
        Check::Object(ObjectCheck {
            required: names(&["name"]),
            properties: Vec::from([("child".into(), Check::Linked(Link(|| &NODE)))]),
            known: names(&["name", "child"]),
            ..Default::default()
        })
    });

    #[test]
    fn a_linked_schema_is_checked_as_deep_as_the_value_goes() {
        let body = r#"{"name": "a", "child": {"name": "b", "child": {}}}"#;
        assert_eq!(pointers(&NODE, &(), body), ["/child/child/name"]);
    }

    #[test]
    fn a_named_schema_is_found_among_the_sorted_validators() {
        let validators = vec![
            Validator {
                schema: "Leaf".into(),
                check: Check::String(StringCheck::default()),
            },
            Validator {
                schema: "Pet".into(),
                check: Check::Discriminated {
                    property: "kind".into(),
                    mapping: Vec::from([("leaf".into(), Check::Schema("Leaf".into()))]),
                },
            },
        ];
        let pet = Validator::find(&validators, "Pet").unwrap();
        let schemas: &[Validator] = &validators;
        // The mapped schema's own rules run: a leaf must be a string.
        assert_eq!(pointers(pet, &schemas, r#"{"kind": "leaf"}"#), [""]);
        assert_eq!(pointers(pet, &schemas, r#"{"kind": "tree"}"#), ["/kind"]);
        assert!(Validator::find(&validators, "Missing").is_none());
    }
}
