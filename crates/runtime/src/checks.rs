//! The rule checks [`crate::rules::Check::run`] calls, one function per
//! rule of JSON Schema the generator supports. Each takes the [`Location`] of the
//! value in the body and adds a message naming it and the rule to `out` when
//! the value breaks it.

use std::fmt;

use crate::json::{Object, Value};

/// One broken rule: where (a JSON Pointer into the body), which rule (a
/// stable code) and a sentence naming the field and the rule. The submitted
/// value is never repeated in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The JSON Pointer into the body; empty for a parameter.
    pub pointer: String,
    /// The broken parameter (`in` and `name`), when it is not the body.
    pub parameter: Option<(&'static str, String)>,
    pub code: &'static str,
    pub detail: String,
}

/// The rules a body broke, in the order they were found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Violations(Vec<Violation>);

impl Violations {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many rules were broken so far.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Records that the value at `at` broke rule `code`.
    pub fn add(&mut self, at: &Location, code: &'static str, detail: String) {
        let parameter = at.parameter();
        self.0.push(Violation {
            pointer: match parameter {
                Some(_) => String::new(),
                None => at.pointer(),
            },
            parameter,
            code,
            detail,
        });
    }

    /// Records `broken` as one violation with the spec's own `message`
    /// (`x-validation-message`), at the place and rule of the first.
    pub fn add_with_message(&mut self, broken: Violations, message: &str) {
        if let Some(first) = broken.0.into_iter().next() {
            self.0.push(Violation {
                detail: message.to_string(),
                ..first
            });
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Violation> {
        self.0.iter()
    }

    /// Keeps the violations `keep` says to.
    pub(crate) fn retain(&mut self, keep: impl FnMut(&Violation) -> bool) {
        self.0.retain(keep);
    }
}

impl IntoIterator for Violations {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// Where a value is in the body: a chain of property names and list
/// positions, kept on the stack as validation descends. It is spelled out
/// (`destination.configuration.url`, `list[2]`) only when a rule is broken,
/// so a valid body costs no allocation for it.
#[derive(Debug, Clone, Copy)]
pub enum Location<'a> {
    /// The body itself.
    Body,
    /// The parameter `name` in the path, the query or a header (`in`).
    Parameter(&'static str, &'a str),
    /// Property `name` of the value at the first location.
    Property(&'a Location<'a>, &'a str),
    /// Item `position` of the list at the first location.
    Item(&'a Location<'a>, usize),
}

impl<'a> Location<'a> {
    /// Property `name` of the value here.
    pub fn property(&'a self, name: &'a str) -> Location<'a> {
        Location::Property(self, name)
    }

    /// Item `position` of the list here.
    pub fn item(&'a self, position: usize) -> Location<'a> {
        Location::Item(self, position)
    }

    /// The JSON Pointer (RFC 6901) of the value: `/destination/url`, `/list/2`.
    pub fn pointer(&self) -> String {
        let mut pointer = String::new();
        self.write_pointer(&mut pointer);
        pointer
    }

    fn write_pointer(&self, out: &mut String) {
        match self {
            Location::Body | Location::Parameter(..) => {}
            Location::Property(parent, name) => {
                parent.write_pointer(out);
                out.push('/');
                for c in name.chars() {
                    match c {
                        '~' => out.push_str("~0"),
                        '/' => out.push_str("~1"),
                        c => out.push(c),
                    }
                }
            }
            Location::Item(parent, position) => {
                parent.write_pointer(out);
                out.push('/');
                out.push_str(&position.to_string());
            }
        }
    }

    /// Where the parameter the value is part of travels, if it is one.
    fn parameter_location(&self) -> Option<&'static str> {
        match self {
            Location::Body => None,
            Location::Parameter(location, _) => Some(location),
            Location::Property(parent, _) | Location::Item(parent, _) => {
                parent.parameter_location()
            }
        }
    }

    /// The parameter (`in` and `name`) the value is part of, if any.
    pub fn parameter(&self) -> Option<(&'static str, String)> {
        match self {
            Location::Body => None,
            Location::Parameter(location, name) => Some((location, name.to_string())),
            Location::Property(parent, _) | Location::Item(parent, _) => parent.parameter(),
        }
    }
}

/// `destination.configuration.url`, `list[2]`; empty for the body.
impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Body => Ok(()),
            Location::Parameter(_, name) => f.write_str(name),
            // A property may be named "": spelled as such, not as nothing.
            Location::Property(Location::Body, "") => f.write_str("\"\""),
            Location::Property(parent, "") => write!(f, "{parent}.\"\""),
            Location::Property(Location::Body, name) => f.write_str(name),
            Location::Property(parent, name) => write!(f, "{parent}.{name}"),
            Location::Item(parent, position) => write!(f, "{parent}[{position}]"),
        }
    }
}

/// `the body`, the quoted path, or for a parameter `query parameter 'take'`:
/// written straight into the message.
pub(crate) fn describe<'a>(at: &'a Location<'a>) -> impl fmt::Display + 'a {
    struct Described<'a>(&'a Location<'a>);
    impl fmt::Display for Described<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match (self.0, self.0.parameter_location()) {
                (Location::Body, _) => f.write_str("the body"),
                (at, Some(location)) => write!(f, "{location} parameter '{at}'"),
                (at, None) => write!(f, "'{at}'"),
            }
        }
    }
    Described(at)
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn wrong_kind(value: &Value, at: &Location, expected: &str, out: &mut Violations) {
    out.add(
        at,
        "type",
        format!(
            "{} must be {expected}, not {}",
            describe(at),
            kind_of(value)
        ),
    );
}

pub fn expect_object<'v, 'a>(
    value: &'v Value<'a>,
    at: &Location,
    out: &mut Violations,
) -> Option<&'v Object<'a>> {
    let object = value.as_object();
    if object.is_none() {
        wrong_kind(value, at, "an object", out);
    }
    object
}

pub fn expect_array<'v, 'a>(
    value: &'v Value<'a>,
    at: &Location,
    out: &mut Violations,
) -> Option<&'v [Value<'a>]> {
    let items = value.as_array();
    if items.is_none() {
        wrong_kind(value, at, "a list", out);
    }
    items
}

pub fn expect_string<'v>(value: &'v Value, at: &Location, out: &mut Violations) -> Option<&'v str> {
    let text = value.as_str();
    if text.is_none() {
        wrong_kind(value, at, "a string", out);
    }
    text
}

pub fn expect_integer(value: &Value, at: &Location, out: &mut Violations) -> Option<f64> {
    let number = match value {
        Value::Number(number) if value.is_integer() => number.as_f64(),
        _ => None,
    };
    if number.is_none() {
        wrong_kind(value, at, "an integer", out);
    }
    number
}

pub fn expect_number(value: &Value, at: &Location, out: &mut Violations) -> Option<f64> {
    let number = match value {
        Value::Number(number) => number.as_f64(),
        _ => None,
    };
    if number.is_none() {
        wrong_kind(value, at, "a number", out);
    }
    number
}

pub fn expect_boolean(value: &Value, at: &Location, out: &mut Violations) {
    if !matches!(value, Value::Bool(_)) {
        wrong_kind(value, at, "a boolean", out);
    }
}

pub fn required(object: &Object, at: &Location, names: &[impl AsRef<str>], out: &mut Violations) {
    for name in names.iter().map(AsRef::as_ref) {
        if !object.contains_key(name) {
            let at = at.property(name);
            out.add(&at, "required", format!("{} is required", describe(&at)));
        }
    }
}

pub fn no_other_properties(
    object: &Object,
    at: &Location,
    known: &[impl AsRef<str>],
    out: &mut Violations,
) {
    for name in object.keys() {
        if !known.iter().any(|known| known.as_ref() == name) {
            additional_property(&at.property(name), out);
        }
    }
}

/// The property at `at` is one `additionalProperties: false` forbids.
pub fn additional_property(at: &Location, out: &mut Violations) {
    out.add(
        at,
        "additional_property",
        format!("{} is not an allowed property", describe(at)),
    );
}

/// The property at `at` is one no keyword of the schema evaluated, which
/// `unevaluatedProperties: false` forbids.
pub fn unevaluated_property(at: &Location, out: &mut Violations) {
    out.add(
        at,
        "unevaluated_property",
        format!("{} is not an allowed property", describe(at)),
    );
}

/// The item at `at` is one no keyword of the schema evaluated, which
/// `unevaluatedItems: false` forbids.
pub fn unevaluated_item(at: &Location, out: &mut Violations) {
    out.add(
        at,
        "unevaluated_item",
        format!("{} is not an allowed item", describe(at)),
    );
}

/// The value at `at` is where the schema is `false` (or `not: {}`): no
/// value is allowed there.
pub fn not_allowed(at: &Location, out: &mut Violations) {
    out.add(
        at,
        "not_allowed",
        format!("{} is not allowed", describe(at)),
    );
}

/// The value matches the schema under `not`.
pub fn excluded_shape(at: &Location, out: &mut Violations) {
    out.add(
        at,
        "not",
        format!("{} must not match the excluded shape", describe(at)),
    );
}

/// The name of the property at `at` fails `propertyNames`.
pub fn property_name(at: &Location, out: &mut Violations) {
    out.add(
        at,
        "property_names",
        format!("{} is not an allowed property name", describe(at)),
    );
}

/// `dependentRequired`: when `object` has `name`, it must have each of
/// `required` too.
pub fn dependent_required(
    object: &Object,
    at: &Location,
    name: &str,
    required: &[impl AsRef<str>],
    out: &mut Violations,
) {
    if !object.contains_key(name) {
        return;
    }
    let required = required.iter().map(AsRef::as_ref);
    for missing in required.filter(|other| !object.contains_key(other)) {
        let at = at.property(missing);
        out.add(
            &at,
            "dependent_required",
            format!(
                "{} is required when '{}' is present",
                describe(&at),
                Location::Property(&Location::Body, name)
            ),
        );
    }
}

// Lengths count characters, stopping as soon as the answer is known: a
// string of `n` bytes has at most `n` characters.

pub fn min_length(text: &str, min: usize, at: &Location, out: &mut Violations) {
    let short = min > 0 && (text.len() < min || text.chars().nth(min - 1).is_none());
    if short {
        out.add(
            at,
            "min_length",
            format!("{} must be at least {min} characters long", describe(at)),
        );
    }
}

pub fn max_length(text: &str, max: usize, at: &Location, out: &mut Violations) {
    if text.len() > max && text.chars().nth(max).is_some() {
        out.add(
            at,
            "max_length",
            format!("{} must be at most {max} characters long", describe(at)),
        );
    }
}

pub fn one_of_values(
    text: &str,
    allowed: &[impl AsRef<str>],
    at: &Location,
    out: &mut Violations,
) {
    if !allowed.iter().any(|allowed| allowed.as_ref() == text) {
        let allowed: Vec<&str> = allowed.iter().map(AsRef::as_ref).collect();
        out.add(at, "enum", one_of(at, &allowed));
    }
}

pub fn min_properties(object: &Object, min: usize, at: &Location, out: &mut Violations) {
    if object.len() < min {
        let noun = if min == 1 { "property" } else { "properties" };
        out.add(
            at,
            "min_properties",
            format!("{} must have at least {min} {noun}", describe(at)),
        );
    }
}

pub fn max_properties(object: &Object, max: usize, at: &Location, out: &mut Violations) {
    if object.len() > max {
        let noun = if max == 1 { "property" } else { "properties" };
        out.add(
            at,
            "max_properties",
            format!("{} must have at most {max} {noun}", describe(at)),
        );
    }
}

pub fn min_items(items: &[Value], min: usize, at: &Location, out: &mut Violations) {
    if items.len() < min {
        let noun = if min == 1 { "item" } else { "items" };
        out.add(
            at,
            "min_items",
            format!("{} must contain at least {min} {noun}", describe(at)),
        );
    }
}

pub fn max_items(items: &[Value], max: usize, at: &Location, out: &mut Violations) {
    if items.len() > max {
        let noun = if max == 1 { "item" } else { "items" };
        out.add(
            at,
            "max_items",
            format!("{} must contain at most {max} {noun}", describe(at)),
        );
    }
}

/// `uniqueItems: true`: no item equals (as JSON) an earlier one. Each item
/// is written once in a canonical form, so the check is linear.
pub fn unique_items(items: &[Value], at: &Location, out: &mut Violations) {
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    let mut text = String::new();
    for item in items {
        text.clear();
        canonical(item, &mut text);
        if !seen.insert(text.clone()) {
            out.add(
                at,
                "unique_items",
                format!("{} must not contain the same item twice", describe(at)),
            );
            return;
        }
    }
}

/// `value` written so that two values equal as JSON are written alike:
/// object keys in order, numbers by their value (`1` and `1.0` alike).
fn canonical(value: &Value, out: &mut String) {
    use std::fmt::Write;
    match value {
        Value::Null => out.push('n'),
        Value::Bool(flag) => out.push(if *flag { 't' } else { 'f' }),
        Value::Number(number) => {
            out.push('#');
            match (number.as_i64(), number.as_u64(), number.as_f64()) {
                (Some(integer), _, _) => write!(out, "{integer}"),
                (_, Some(integer), _) => write!(out, "{integer}"),
                // `as` saturates, and the round trip only holds for
                // integers that fit.
                (_, _, Some(float)) if float.fract() == 0.0 && (float as i64) as f64 == float => {
                    write!(out, "{}", float as i64)
                }
                (_, _, float) => write!(out, "{:?}", float.unwrap_or(f64::NAN)),
            }
            .expect("writing to a String");
        }
        Value::String(text) => {
            out.push('"');
            for c in text.chars() {
                if c == '"' || c == '\\' {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push('"');
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(object) => {
            let mut entries: Vec<(&str, &Value)> = object.iter().collect();
            entries.sort_unstable_by_key(|(key, _)| *key);
            out.push('{');
            for (key, value) in entries {
                canonical(&Value::String(key.into()), out);
                out.push(':');
                canonical(value, out);
                out.push(',');
            }
            out.push('}');
        }
    }
}

/// Whether two values are equal as JSON Schema compares them: numbers by
/// value, objects whatever the order of their keys.
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a == b,
            _ => match (a.as_u64(), b.as_u64()) {
                (Some(a), Some(b)) => a == b,
                _ => a.as_f64() == b.as_f64(),
            },
        },
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_json(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, value)| b.get(key).is_some_and(|other| same_json(value, other)))
        }
        (a, b) => a == b,
    }
}

/// The values of an `enum` (or `const`) that are not all strings, read
/// once from their JSON text. Generated validators keep one in a static.
#[derive(Debug)]
pub struct AllowedValues {
    texts: Vec<Box<str>>,
    values: Vec<Value<'static>>,
}

impl AllowedValues {
    /// Reads each of `texts` as JSON. The generator writes them from the
    /// spec's values, so generated code never reaches the panic.
    pub fn new(texts: &[&str]) -> Self {
        let values = texts
            .iter()
            .map(|text| {
                let value: serde_json::Value = serde_json::from_str(text)
                    .unwrap_or_else(|err| panic!("invalid JSON value {text:?}: {err}"));
                Value::from(value)
            })
            .collect();
        Self {
            texts: texts.iter().map(|text| Box::from(*text)).collect(),
            values,
        }
    }
}

/// What an `enum` asks, in words.
fn one_of(at: &Location, allowed: &[&str]) -> String {
    match allowed {
        // JSON Schema lets an `enum` be empty: nothing is valid then.
        [] => format!("{} allows no value (its `enum` is empty)", describe(at)),
        [only] => format!("{} must be {only}", describe(at)),
        texts => format!("{} must be one of: {}", describe(at), texts.join(", ")),
    }
}

/// The value must equal one of the `allowed` values.
pub fn allowed_value(value: &Value, allowed: &AllowedValues, at: &Location, out: &mut Violations) {
    if !allowed.values.iter().any(|other| same_json(value, other)) {
        let texts: Vec<&str> = allowed.texts.iter().map(|text| &**text).collect();
        out.add(at, "enum", one_of(at, &texts));
    }
}

/// Any number, integer or not, for keywords written without a `type`.
pub fn as_number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(number) => number.as_f64(),
        _ => None,
    }
}

/// `multipleOf`: the number divided by `divisor` is an integer. Decimal
/// divisors such as `0.01` have no exact binary value, so the quotient may
/// miss an integer by a rounding error: within a few units in the last
/// place of the quotient, it counts as one.
pub fn multiple_of(number: f64, divisor: f64, at: &Location, out: &mut Violations) {
    let quotient = number / divisor;
    let tolerance = quotient.abs().max(1.0) * f64::EPSILON * 4.0;
    if !quotient.is_finite() || (quotient - quotient.round()).abs() > tolerance {
        out.add(
            at,
            "multiple_of",
            format!("{} must be a multiple of {divisor}", describe(at)),
        );
    }
}

pub fn minimum(number: f64, min: f64, at: &Location, out: &mut Violations) {
    if number < min {
        out.add(
            at,
            "minimum",
            format!("{} must be at least {min}", describe(at)),
        );
    }
}

pub fn maximum(number: f64, max: f64, at: &Location, out: &mut Violations) {
    if number > max {
        out.add(
            at,
            "maximum",
            format!("{} must be at most {max}", describe(at)),
        );
    }
}

/// The value's exact integer, where it is written as one.
fn exact_integer(value: &Value) -> Option<i128> {
    match value {
        Value::Number(number) => number
            .as_i64()
            .map(i128::from)
            .or_else(|| number.as_u64().map(i128::from)),
        _ => None,
    }
}

/// The bounds past 2^53, which an `f64` cannot hold: an integer is compared
/// with the bound's own digits, any other number (`number`, read from
/// `value`) as a float.
macro_rules! exact_bounds {
    ($($name:ident: $breaks:expr, $code:literal, $says:literal;)*) => {
        $(
            pub fn $name(value: &Value, number: f64, bound: i128, at: &Location, out: &mut Violations) {
                let breaks: fn(std::cmp::Ordering) -> bool = $breaks;
                let order = match exact_integer(value) {
                    Some(exact) => exact.cmp(&bound),
                    None => number.partial_cmp(&(bound as f64)).unwrap_or(std::cmp::Ordering::Equal),
                };
                if breaks(order) {
                    out.add(at, $code, format!(concat!("{} must be ", $says, " {}"), describe(at), bound));
                }
            }
        )*
    };
}

exact_bounds! {
    minimum_exact: |order| order.is_lt(), "minimum", "at least";
    maximum_exact: |order| order.is_gt(), "maximum", "at most";
    exclusive_minimum_exact: |order| order.is_le(), "exclusive_minimum", "greater than";
    exclusive_maximum_exact: |order| order.is_ge(), "exclusive_maximum", "less than";
}

/// An integer `format` (`int32`, `uint8`, ...): the value fits the Rust
/// integer type the types crate reads it into. A generated server learns
/// this from the type when it reads the body; the mock, which reads no
/// types, asks it here, with the same 400.
pub fn integer_format(
    value: &Value,
    number: f64,
    format: &str,
    (min, max): (i128, i128),
    at: &Location,
    out: &mut Violations,
) {
    let fits = match exact_integer(value) {
        Some(exact) => (min..=max).contains(&exact),
        // Past 2^63 an integer that neither `i64` nor `u64` holds is past
        // every integer format, though as a float it may equal a bound
        // (-9223372036854775809 reads as -2^63).
        None if number.abs() >= 2f64.powi(63) => false,
        None => number >= min as f64 && number <= max as f64,
    };
    if !fits {
        out.add(
            at,
            "format",
            format!(
                "{} must be a valid {format} (from {min} to {max})",
                describe(at)
            ),
        );
    }
}

pub fn exclusive_minimum(number: f64, min: f64, at: &Location, out: &mut Violations) {
    if number <= min {
        out.add(
            at,
            "exclusive_minimum",
            format!("{} must be greater than {min}", describe(at)),
        );
    }
}

pub fn exclusive_maximum(number: f64, max: f64, at: &Location, out: &mut Violations) {
    if number >= max {
        out.add(
            at,
            "exclusive_maximum",
            format!("{} must be less than {max}", describe(at)),
        );
    }
}

/// A compiled `pattern` (an ECMA-262 regular expression, as JSON Schema and
/// the generated types read it). Generated validators keep one in a static.
#[derive(Debug)]
pub struct Pattern {
    source: Box<str>,
    engine: Engine,
}

#[derive(Debug)]
enum Engine {
    /// ECMA-262 itself, by backtracking.
    Regress(regress::Regex),
    /// An automaton, several times cheaper per match, for the patterns the
    /// generator translated.
    Regex(regex::Regex),
}

impl Pattern {
    /// Compiles `source` with regress. The generator refuses a spec whose
    /// pattern does not compile, so generated code never reaches the panic.
    pub fn new(source: &str) -> Self {
        let regex = regress::Regex::new(source)
            .unwrap_or_else(|err| panic!("invalid pattern {source:?}: {err}"));
        Self {
            source: source.into(),
            engine: Engine::Regress(regex),
        }
    }

    /// The pattern `source`, matched by `translated`, its spelling in the
    /// syntax of the `regex` crate. The caller vouches that both accept
    /// exactly the same strings: the generator translates only a grammar
    /// whose meaning is the same in both (`model::pattern` in the generator).
    /// `source` is still what messages name.
    pub fn translated(source: &str, translated: &str) -> Self {
        let regex = regex::Regex::new(translated)
            .unwrap_or_else(|err| panic!("invalid pattern {translated:?}: {err}"));
        Self {
            source: source.into(),
            engine: Engine::Regex(regex),
        }
    }

    /// Whether the pattern matches somewhere in `text` (JSON Schema's
    /// `pattern` is not anchored; a spec anchors it with `^` and `$`).
    pub fn matches(&self, text: &str) -> bool {
        match &self.engine {
            Engine::Regress(regex) => regex.find(text).is_some(),
            Engine::Regex(regex) => regex.is_match(text),
        }
    }
}

/// The string must match the `pattern`. The detail names the pattern, which
/// comes from the spec, never the submitted text.
pub fn pattern(text: &str, pattern: &Pattern, at: &Location, out: &mut Violations) {
    if !pattern.matches(text) {
        out.add(
            at,
            "pattern",
            format!("{} must match the pattern {}", describe(at), pattern.source),
        );
    }
}

/// Checks the formats with a defined syntax: `date-time`, `date`, `time`
/// (RFC 3339), `email` (RFC 5321's mailbox, without quoted local parts or
/// comments), `hostname` (RFC 1123), `ipv4`, `ipv6`, `uuid` (RFC 4122's
/// hyphenated text) and `uri` (or `url`, RFC 3986's absolute URI). Every
/// other format (`uri-reference`, `byte`, `password`, a spec's own) is
/// documentation only, as JSON Schema makes formats by default.
pub fn format(text: &str, format: &str, at: &Location, out: &mut Violations) {
    let valid = match format {
        "url" | "uri" => is_uri(text),
        "date-time" => chrono::DateTime::parse_from_rfc3339(text).is_ok(),
        "date" => is_date(text),
        "time" => {
            is_ascii_time(text)
                && chrono::DateTime::parse_from_rfc3339(&format!("2000-01-01T{text}")).is_ok()
        }
        "email" => is_email(text),
        "hostname" => is_hostname(text),
        "ipv4" => text.parse::<std::net::Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<std::net::Ipv6Addr>().is_ok(),
        "uuid" => is_uuid(text),
        _ => true,
    };
    if !valid {
        out.add(
            at,
            "format",
            format!("{} must be a valid {format}", describe(at)),
        );
    }
}

/// RFC 3339's `full-date`: `YYYY-MM-DD`, a day of the calendar.
fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        bytes[range.clone()]
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| text[range].parse::<u32>().unwrap_or(0))
    };
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    match (digits(0..4), digits(5..7), digits(8..10)) {
        (Some(year), Some(month), Some(day)) => {
            chrono::NaiveDate::from_ymd_opt(year as i32, month, day).is_some()
        }
        _ => false,
    }
}

/// A `full-time` starts with `HH:MM:SS`; chrono reads the rest.
fn is_ascii_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 9
        && bytes[2] == b':'
        && bytes[5] == b':'
        && [0, 1, 3, 4, 6, 7]
            .iter()
            .all(|&i| bytes[i].is_ascii_digit())
}

/// RFC 4122's text: 32 hex digits in groups of 8, 4, 4, 4 and 12.
fn is_uuid(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(index, byte)| match index {
            8 | 13 | 18 | 23 => *byte == b'-',
            _ => byte.is_ascii_hexdigit(),
        })
}

/// RFC 1123: dot-separated labels of 1 to 63 letters, digits and hyphens,
/// neither starting nor ending with a hyphen; 253 characters at most.
fn is_hostname(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 253
        && text.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// RFC 5321's mailbox: a dot-atom local part of at most 64 characters, `@`,
/// and a hostname or an address literal (`[192.0.2.1]`, `[IPv6:..]`).
fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    let atom_char = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c);
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && local
            .split('.')
            .all(|atom| !atom.is_empty() && atom.chars().all(atom_char));
    let domain_ok = match domain
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    {
        Some(literal) => match literal.strip_prefix("IPv6:") {
            Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
            None => literal.parse::<std::net::Ipv4Addr>().is_ok(),
        },
        None => is_hostname(domain),
    };
    local_ok && domain_ok
}

/// An absolute URI (RFC 3986, section 4.3): a scheme (a letter, then
/// letters, digits, `+`, `-` or `.`), a colon, and a non-empty rest made only
/// of the characters a URI may hold (unreserved, reserved, and `%` with two
/// hex digits). Spaces, control characters, non-ASCII text and characters
/// such as `<`, `>`, `"`, `{`, `}`, `|`, `\` and `^`
/// are refused.
fn is_uri(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    let scheme_ok = chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    if !scheme_ok || rest.is_empty() {
        return false;
    }
    let bytes = rest.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        if byte == b'%' {
            let hex = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(index + 1) && hex(index + 2)) {
                return false;
            }
            index += 3;
            continue;
        }
        let allowed = byte.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&byte);
        if !allowed {
            return false;
        }
        index += 1;
    }
    true
}

/// A discriminator property that is missing or not a string.
pub fn required_string(object: &Object, at: &Location, name: &str, out: &mut Violations) {
    let at = at.property(name);
    match object.get(name) {
        None => out.add(&at, "required", format!("{} is required", describe(&at))),
        Some(value) => wrong_kind(value, &at, "a string", out),
    }
}

/// `contains` with `minContains`: at least `min` items (`matched` of them)
/// have the shape.
pub fn min_contains(matched: usize, min: usize, at: &Location, out: &mut Violations) {
    if matched >= min {
        return;
    }
    if min == 1 {
        no_item_matches(at, out);
    } else {
        out.add(
            at,
            "min_contains",
            format!(
                "{} must contain at least {min} items of the required shape",
                describe(at)
            ),
        );
    }
}

/// `contains` with `maxContains`: at most `max` items (`matched` of them)
/// have the shape.
pub fn max_contains(matched: usize, max: usize, at: &Location, out: &mut Violations) {
    if matched > max {
        let noun = if max == 1 { "item" } else { "items" };
        out.add(
            at,
            "max_contains",
            format!(
                "{} must contain at most {max} {noun} of the required shape",
                describe(at)
            ),
        );
    }
}

/// A list none of whose items has the shape `contains` asks for.
pub fn no_item_matches(at: &Location, out: &mut Violations) {
    out.add(
        at,
        "contains",
        format!(
            "{} must contain an item of the required shape",
            describe(at)
        ),
    );
}

/// A value that matches too few (or too many) of a `oneOf`/`anyOf`'s shapes.
pub fn shape_mismatch(at: &Location, expectation: &str, out: &mut Violations) {
    out.add(
        at,
        "shape",
        format!(
            "{} must match {expectation} of the allowed shapes",
            describe(at)
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The body tree of a `json!` literal.
    fn tree(value: serde_json::Value) -> Value<'static> {
        Value::from(value)
    }

    /// The details `check` reports.
    fn messages(check: impl FnOnce(&mut Violations)) -> Vec<String> {
        let mut out = Violations::new();
        check(&mut out);
        out.iter()
            .map(|violation| violation.detail.clone())
            .collect()
    }

    #[test]
    fn integer_formats_hold_their_type_range() {
        let check = |value: serde_json::Value, format: &str, range: (i128, i128)| {
            let value = tree(value);
            let number = as_number(&value).unwrap();
            messages(|out| integer_format(&value, number, format, range, &Location::Body, out))
        };
        let int32 = (i32::MIN.into(), i32::MAX.into());
        assert!(check(json!(2_147_483_647), "int32", int32).is_empty());
        assert!(check(json!(-2_147_483_648_i64), "int32", int32).is_empty());
        assert!(check(json!(6.0), "int32", int32).is_empty());
        assert_eq!(
            check(json!(2_147_483_648_u64), "int32", int32),
            ["the body must be a valid int32 (from -2147483648 to 2147483647)"]
        );
        let int64 = (i64::MIN.into(), i64::MAX.into());
        assert!(check(json!(i64::MIN), "int64", int64).is_empty());
        // One below i64::MIN is -2^63 as a float: refused all the same.
        let below: serde_json::Value = serde_json::from_str("-9223372036854775809").unwrap();
        assert_eq!(check(below, "int64", int64).len(), 1);
        assert_eq!(check(json!(u64::MAX), "int64", int64).len(), 1);
        assert!(check(json!(u64::MAX), "uint64", (0, u64::MAX.into())).is_empty());
    }

    #[test]
    fn bounds_past_two_to_the_53_are_compared_exactly() {
        let max: i128 = 18_014_398_509_481_983;
        let check = |value: serde_json::Value| {
            let value = tree(value);
            let number = as_number(&value).unwrap();
            messages(|out| maximum_exact(&value, number, max, &Location::Body, out))
        };
        // 2^54 and 2^54 - 1 are one f64: only the digits tell them apart.
        assert_eq!(
            check(json!(18_014_398_509_481_984_u64)),
            ["the body must be at most 18014398509481983"]
        );
        assert!(check(json!(18_014_398_509_481_983_u64)).is_empty());
        assert!(check(json!(-5)).is_empty());
        assert_eq!(check(json!(2e17)).len(), 1);
        let value = tree(json!(18_014_398_509_481_983_u64));
        let number = as_number(&value).unwrap();
        assert_eq!(
            messages(|out| exclusive_maximum_exact(&value, number, max, &Location::Body, out))
                .len(),
            1
        );
    }

    #[test]
    fn violations_carry_a_pointer_and_a_code() {
        let mut out = Violations::new();
        let parent = field("a");
        max_length("toolong", 3, &parent.property("b").item(1), &mut out);
        let object = tree(json!({}));
        required(object.as_object().unwrap(), &parent, &["c"], &mut out);
        let found: Vec<(&str, &str)> = out.iter().map(|v| (v.pointer.as_str(), v.code)).collect();
        assert_eq!(found, [("/a/b/1", "max_length"), ("/a/c", "required")]);

        let mut outer = Violations::new();
        outer.add_with_message(out, "custom message");
        let only: Vec<&Violation> = outer.iter().collect();
        assert_eq!(only.len(), 1);
        assert_eq!(
            (
                only[0].pointer.as_str(),
                only[0].code,
                only[0].detail.as_str()
            ),
            ("/a/b/1", "max_length", "custom message")
        );
    }

    /// Property `name` of the body.
    fn field(name: &'static str) -> Location<'static> {
        Location::Property(&Location::Body, name)
    }

    #[test]
    fn locations_read_like_paths_and_pointers() {
        let a = field("a");
        let b = a.property("b/c");
        let item = b.item(2);
        assert_eq!(a.to_string(), "a");
        assert_eq!(item.to_string(), "a.b/c[2]");
        assert_eq!(item.pointer(), "/a/b~1c/2");
        assert_eq!(Location::Body.pointer(), "");
        assert_eq!(field("").to_string(), "\"\"");
        assert_eq!(field("").pointer(), "/");
        assert_eq!(a.property("").to_string(), "a.\"\"");
        assert_eq!(
            messages(|out| {
                expect_string(&tree(json!(1)), &Location::Body, out);
            }),
            ["the body must be a string, not a number"]
        );
    }

    #[test]
    fn kinds_are_checked_and_named() {
        let at = &field("field");
        assert_eq!(
            messages(|out| {
                expect_object(&tree(json!([])), at, out);
            }),
            ["'field' must be an object, not a list"]
        );
        assert_eq!(
            messages(|out| {
                expect_array(&tree(json!({})), at, out);
            }),
            ["'field' must be a list, not an object"]
        );
        assert_eq!(
            messages(|out| {
                expect_integer(&tree(json!(1.5)), at, out);
            }),
            ["'field' must be an integer, not a number"]
        );
        assert_eq!(
            messages(|out| {
                expect_number(&tree(json!("1")), at, out);
            }),
            ["'field' must be a number, not a string"]
        );
        assert_eq!(
            messages(|out| expect_boolean(&tree(json!(null)), at, out)),
            ["'field' must be a boolean, not null"]
        );
        assert_eq!(
            expect_integer(&tree(json!(7)), at, &mut Violations::new()),
            Some(7.0)
        );
        assert!(
            messages(|out| {
                expect_object(&tree(json!({})), at, out);
            })
            .is_empty()
        );
    }

    #[test]
    fn required_and_unknown_properties() {
        let object = tree(json!({"a": 1, "z": 2}));
        let object = object.as_object().unwrap();
        assert_eq!(
            messages(|out| required(object, &field("p"), &["a", "b"], out)),
            ["'p.b' is required"]
        );
        assert_eq!(
            messages(|out| no_other_properties(object, &Location::Body, &["a"], out)),
            ["'z' is not an allowed property"]
        );
    }

    #[test]
    fn property_counts_name_the_object() {
        let object = tree(json!({"a": 1, "b": 2}));
        let object = object.as_object().unwrap();
        let at = Location::Body;
        let at = at.property("user_attributes");
        assert_eq!(
            messages(|out| {
                min_properties(object, 3, &at, out);
                max_properties(object, 1, &at, out);
                min_properties(object, 2, &at, out);
                max_properties(object, 2, &at, out);
            }),
            [
                "'user_attributes' must have at least 3 properties",
                "'user_attributes' must have at most 1 property"
            ]
        );
    }

    #[test]
    fn lengths_count_characters_not_bytes() {
        assert!(messages(|out| max_length("ééé", 3, &field("n"), out)).is_empty());
        assert_eq!(
            messages(|out| max_length("éééé", 3, &field("n"), out)),
            ["'n' must be at most 3 characters long"]
        );
        assert_eq!(
            messages(|out| min_length("ab", 3, &field("n"), out)),
            ["'n' must be at least 3 characters long"]
        );
        assert!(messages(|out| min_length("abc", 3, &field("n"), out)).is_empty());
        // Two bytes, one character.
        assert_eq!(
            messages(|out| min_length("é", 2, &field("n"), out)),
            ["'n' must be at least 2 characters long"]
        );
        assert!(messages(|out| min_length("éé", 2, &field("n"), out)).is_empty());
        assert!(messages(|out| min_length("", 0, &field("n"), out)).is_empty());
        assert!(messages(|out| max_length("", 0, &field("n"), out)).is_empty());
        assert_eq!(
            messages(|out| max_length("a", 0, &field("n"), out)),
            ["'n' must be at most 0 characters long"]
        );
    }

    #[test]
    fn enums_list_the_allowed_values() {
        assert_eq!(
            messages(|out| one_of_values("x", &["a", "b"], &field("t"), out)),
            ["'t' must be one of: a, b"]
        );
        assert!(messages(|out| one_of_values("a", &["a", "b"], &field("t"), out)).is_empty());
    }

    #[test]
    fn item_counts() {
        let items = [tree(json!(1)), tree(json!(2))];
        assert_eq!(
            messages(|out| min_items(&items, 3, &field("l"), out)),
            ["'l' must contain at least 3 items"]
        );
        assert_eq!(
            messages(|out| max_items(&items, 1, &field("l"), out)),
            ["'l' must contain at most 1 item"]
        );
        assert!(messages(|out| min_items(&items, 2, &field("l"), out)).is_empty());
    }

    #[test]
    fn number_bounds_inclusive_and_exclusive() {
        assert!(messages(|out| minimum(1.0, 1.0, &field("n"), out)).is_empty());
        assert_eq!(
            messages(|out| exclusive_minimum(1.0, 1.0, &field("n"), out)),
            ["'n' must be greater than 1"]
        );
        assert!(messages(|out| maximum(2.0, 2.0, &field("n"), out)).is_empty());
        assert_eq!(
            messages(|out| exclusive_maximum(2.0, 2.0, &field("n"), out)),
            ["'n' must be less than 2"]
        );
        assert_eq!(
            messages(|out| minimum(0.5, 1.0, &field("n"), out)),
            ["'n' must be at least 1"]
        );
        assert_eq!(
            messages(|out| maximum(3.0, 2.0, &field("n"), out)),
            ["'n' must be at most 2"]
        );
    }

    #[test]
    fn formats_with_a_syntax_are_checked() {
        for valid in [
            "https://example.com/a",
            "urn:partner:token",
            "mailto:a@b.c",
            "https://a/b?c=d&e=%2F#frag",
            "urn:ietf:params:oauth:token-type:jwt",
        ] {
            assert!(
                messages(|out| format(valid, "url", &field("u"), out)).is_empty(),
                "{valid}"
            );
        }
        for invalid in [
            "example.com",
            "1http://x",
            "https://a b",
            "https:",
            "https://a\u{7}b",
            "https://a\tb",
            "urn:a<b>",
            "https://a/{x}",
            "https://é.example",
            "https://a/%zz",
            "https://a/%4",
        ] {
            assert_eq!(
                messages(|out| format(invalid, "url", &field("u"), out)),
                ["'u' must be a valid url"],
                "{invalid}"
            );
        }
        assert!(
            messages(|out| format("2026-01-02T03:04:05Z", "date-time", &field("d"), out))
                .is_empty()
        );
        assert_eq!(
            messages(|out| format("2026-01-02", "date-time", &field("d"), out)),
            ["'d' must be a valid date-time"]
        );
        assert!(
            messages(|out| format("anything", "token-exchange-profile-id", &field("i"), out))
                .is_empty()
        );
    }

    #[test]
    fn patterns_search_the_text_and_name_the_rule_not_the_value() {
        let https = Pattern::new("^https://");
        assert!(
            messages(|out| pattern("https://hooks.example/x", &https, &field("e"), out)).is_empty()
        );
        assert_eq!(
            messages(|out| pattern("http://hooks.example/secret-path", &https, &field("e"), out)),
            ["'e' must match the pattern ^https://"]
        );
        // Not anchored unless the pattern says so, as in JSON Schema.
        let digits = Pattern::new("[0-9]{3}");
        assert!(digits.matches("ab123cd"));
        let exact = Pattern::new("^[0-9]{12}$");
        assert!(exact.matches("123456789012"));
        for wrong in [
            "12345678901",
            "1234567890123",
            "12345678901a",
            "123456789012\n",
        ] {
            assert!(!exact.matches(wrong), "{wrong:?}");
        }
        let mut out = Violations::new();
        pattern("x", &exact, &field("id"), &mut out);
        let found: Vec<(&str, &str)> = out.iter().map(|v| (v.pointer.as_str(), v.code)).collect();
        assert_eq!(found, [("/id", "pattern")]);
    }

    #[test]
    fn a_translated_pattern_is_named_by_its_source_and_matched_by_regex() {
        // `\d` is Unicode-aware in `regex`: the generator writes `[0-9]`.
        let exact = Pattern::translated(r"^\d{3}$", "^[0-9]{3}$");
        assert!(exact.matches("123"));
        for wrong in ["12", "1234", "١٢٣", "123\n"] {
            assert!(!exact.matches(wrong), "{wrong:?}");
        }
        assert!(Pattern::translated("[0-9]{3}", "[0-9]{3}").matches("ab123cd"));
        assert_eq!(
            messages(|out| pattern("12", &exact, &field("e"), out)),
            [r"'e' must match the pattern ^\d{3}$"]
        );
    }

    #[test]
    fn discriminators_and_shapes() {
        let object = tree(json!({"type": 1}));
        let object = object.as_object().unwrap();
        assert_eq!(
            messages(|out| required_string(object, &field("d"), "type", out)),
            ["'d.type' must be a string, not a number"]
        );
        assert_eq!(
            messages(|out| required_string(object, &field("d"), "kind", out)),
            ["'d.kind' is required"]
        );
        assert_eq!(
            messages(|out| no_item_matches(&field("l"), out)),
            ["'l' must contain an item of the required shape"]
        );
        assert_eq!(
            messages(|out| shape_mismatch(&field("d"), "exactly one", out)),
            ["'d' must match exactly one of the allowed shapes"]
        );
    }

    #[test]
    fn formats_of_dates_addresses_and_identifiers() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            (
                "date",
                &["2024-02-29", "1999-12-31"],
                &[
                    "2023-02-29",
                    "2024-13-01",
                    "2024-1-01",
                    "24-01-01",
                    "2024-01-01T00:00:00Z",
                    "２０２４-01-01",
                ],
            ),
            (
                "time",
                &["23:59:59Z", "08:30:00.5+02:00"],
                &["24:00:00Z", "08:30", "08:30:00", "8:30:00Z"],
            ),
            (
                "email",
                &[
                    "ada@example.com",
                    "a.b+c@sub.example.org",
                    "x@[192.0.2.1]",
                    "x@[IPv6:2001:db8::1]",
                ],
                &[
                    "ada@",
                    "@example.com",
                    "ada",
                    "a..b@example.com",
                    ".a@example.com",
                    "a b@example.com",
                    "a@-x.com",
                    "a@[300.1.1.1]",
                ],
            ),
            (
                "hostname",
                &["example.com", "a", "xn--bcher-kva.example", "a-b.c1"],
                &[
                    "",
                    "-a.com",
                    "a-.com",
                    "a..com",
                    "a_b.com",
                    "é.com",
                    &"a".repeat(64),
                ],
            ),
            (
                "ipv4",
                &["192.0.2.1", "0.0.0.0"],
                &["192.0.2", "256.0.0.1", "01.2.3.4", " 1.2.3.4"],
            ),
            (
                "ipv6",
                &["2001:db8::1", "::", "::ffff:192.0.2.1"],
                &["2001:db8::g", "1:2:3:4:5:6:7:8:9", "192.0.2.1"],
            ),
            (
                "uuid",
                &[
                    "0f8fad5b-d9cb-469f-a165-70867728950e",
                    "0F8FAD5B-D9CB-469F-A165-70867728950E",
                ],
                &[
                    "0f8fad5bd9cb469fa16570867728950e",
                    "{0f8fad5b-d9cb-469f-a165-70867728950e}",
                    "0f8fad5b-d9cb-469f-a165-70867728950",
                    "0f8fad5b-d9cb-469f-a165-70867728950g",
                ],
            ),
        ];
        for (name, valid, invalid) in cases {
            for text in *valid {
                assert!(
                    messages(|out| format(text, name, &field("f"), out)).is_empty(),
                    "{name}: {text}"
                );
            }
            for text in *invalid {
                assert_eq!(
                    messages(|out| format(text, name, &field("f"), out)),
                    [format!("'f' must be a valid {name}")],
                    "{name}: {text}"
                );
            }
        }
        // Formats without a syntax the server knows are annotations.
        for name in ["uri-reference", "byte", "password", "int32"] {
            assert!(messages(|out| format("%%% not anything", name, &field("f"), out)).is_empty());
        }
    }

    #[test]
    fn multiples_allow_for_decimal_rounding() {
        for (number, divisor) in [
            (0.75, 0.25),
            (0.3, 0.1),
            (1.1, 0.01),
            (20.0, 10.0),
            (-6.0, 3.0),
            (0.0, 7.0),
        ] {
            assert!(
                messages(|out| multiple_of(number, divisor, &field("n"), out)).is_empty(),
                "{number} / {divisor}"
            );
        }
        for (number, divisor) in [(0.3, 0.25), (15.0, 10.0), (1.005, 0.01), (1e308, 1e-308)] {
            assert_eq!(
                messages(|out| multiple_of(number, divisor, &field("n"), out)),
                [format!("'n' must be a multiple of {divisor}")],
                "{number} / {divisor}"
            );
        }
    }

    #[test]
    fn unique_items_compare_as_json() {
        let unique = |list: serde_json::Value| {
            let list = tree(list);
            messages(|out| unique_items(list.as_array().unwrap(), &field("l"), out)).is_empty()
        };
        assert!(unique(
            json!([1, "1", [1], {"a": 1}, {"a": 2}, null, true, 1.5])
        ));
        assert!(!unique(json!([1, 1.0])), "one number");
        assert!(
            !unique(json!([{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}])),
            "key order"
        );
        assert!(!unique(json!(["a\"b", "a\"b"])));
        assert!(
            unique(json!(["a\",\"b", "a", "b"])),
            "escaping keeps items apart"
        );
        assert!(unique(json!([[1, 2], [2, 1]])), "lists keep their order");
        let list = tree(json!([3, 3, 3]));
        assert_eq!(
            messages(|out| unique_items(list.as_array().unwrap(), &field("l"), out)),
            ["'l' must not contain the same item twice"],
            "reported once"
        );
    }

    #[test]
    fn allowed_values_compare_as_json_and_name_the_values() {
        let one = AllowedValues::new(&[r#"{"x":0,"y":[1]}"#]);
        assert!(
            messages(|out| allowed_value(
                &tree(json!({"y": [1.0], "x": 0})),
                &one,
                &field("o"),
                out
            ))
            .is_empty()
        );
        assert_eq!(
            messages(|out| allowed_value(&tree(json!({"x": 0})), &one, &field("o"), out)),
            [r#"'o' must be {"x":0,"y":[1]}"#]
        );
        let several = AllowedValues::new(&["1", "2", "true"]);
        assert!(
            messages(|out| allowed_value(&tree(json!(2)), &several, &field("n"), out)).is_empty()
        );
        assert!(
            messages(|out| allowed_value(&tree(json!(true)), &several, &field("n"), out))
                .is_empty()
        );
        let mut out = Violations::new();
        allowed_value(&tree(json!("1")), &several, &field("n"), &mut out);
        let found: Vec<(&str, &str, &str)> = out
            .iter()
            .map(|v| (v.pointer.as_str(), v.code, v.detail.as_str()))
            .collect();
        assert_eq!(found, [("/n", "enum", "'n' must be one of: 1, 2, true")]);
    }

    #[test]
    fn keywords_of_2020_12_name_their_rule() {
        let object = tree(json!({"card": 1, "coupon": 2}));
        let object = object.as_object().unwrap();
        let at = field("payment");
        let mut out = Violations::new();
        dependent_required(object, &at, "card", &["expiry", "coupon"], &mut out);
        dependent_required(object, &at, "missing", &["anything"], &mut out);
        min_contains(1, 2, &at, &mut out);
        min_contains(0, 1, &at, &mut out);
        min_contains(2, 2, &at, &mut out);
        max_contains(3, 2, &at, &mut out);
        max_contains(2, 2, &at, &mut out);
        unevaluated_property(&at.property("extra"), &mut out);
        unevaluated_item(&at.item(3), &mut out);
        property_name(&at.property("Bad"), &mut out);
        additional_property(&at.property("other"), &mut out);
        excluded_shape(&at, &mut out);
        not_allowed(&at.property("never"), &mut out);
        let found: Vec<(&str, &str, &str)> = out
            .iter()
            .map(|v| (v.pointer.as_str(), v.code, v.detail.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "/payment/expiry",
                    "dependent_required",
                    "'payment.expiry' is required when 'card' is present"
                ),
                (
                    "/payment",
                    "min_contains",
                    "'payment' must contain at least 2 items of the required shape"
                ),
                (
                    "/payment",
                    "contains",
                    "'payment' must contain an item of the required shape"
                ),
                (
                    "/payment",
                    "max_contains",
                    "'payment' must contain at most 2 items of the required shape"
                ),
                (
                    "/payment/extra",
                    "unevaluated_property",
                    "'payment.extra' is not an allowed property"
                ),
                (
                    "/payment/3",
                    "unevaluated_item",
                    "'payment[3]' is not an allowed item"
                ),
                (
                    "/payment/Bad",
                    "property_names",
                    "'payment.Bad' is not an allowed property name"
                ),
                (
                    "/payment/other",
                    "additional_property",
                    "'payment.other' is not an allowed property"
                ),
                (
                    "/payment",
                    "not",
                    "'payment' must not match the excluded shape"
                ),
                (
                    "/payment/never",
                    "not_allowed",
                    "'payment.never' is not allowed"
                ),
            ]
        );
        assert_eq!(as_number(&tree(json!(2.5))), Some(2.5));
        assert_eq!(as_number(&tree(json!(7))), Some(7.0));
        assert_eq!(as_number(&tree(json!("7"))), None);
    }
}
