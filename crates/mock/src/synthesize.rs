//! Values made up from a schema, for responses the spec gives no example
//! of: the type, `enum`/`const`, formats (`date-time`, `uuid`, `email`,
//! `uri`, ...), lengths, bounds, `multipleOf`, required properties, the
//! first `oneOf`/`anyOf` variant (with its discriminator value), `allOf`
//! parts merged, lists within `minItems`/`maxItems`, and strings for the
//! common `pattern`s. The same seed gives the same values.
//!
//! A value made here is only a candidate: the caller checks it against the
//! schema with the server's own checks and tries another variant when it
//! fails (see `respond`).

use std::collections::HashMap;
use std::sync::RwLock;

use openapi_crates_codegen::model::{discriminator, refs};
use serde_json::{Map, Number, Value, json};

use crate::checks::Checks;

/// Below this depth every optional property is filled and lists get an
/// item; beyond it only what the schema requires.
const RICH_DEPTH: usize = 4;
/// Beyond this depth a value is `null`: a schema whose required properties
/// lead back to itself has no finite value, and any stand-in is as good.
const MAX_DEPTH: usize = 32;

/// Schemas made from the document's (an `allOf` merged into one, the
/// properties beside a `oneOf`), each made once and kept as long as the
/// document: synthesis reads them as it reads the document's own nodes.
#[derive(Default)]
pub(crate) struct Derived {
    schemas: RwLock<HashMap<(usize, &'static str), &'static Value>>,
}

impl Derived {
    fn get_or_make(
        &self,
        node: &'static Map<String, Value>,
        what: &'static str,
        make: impl FnOnce() -> Value,
    ) -> &'static Value {
        let key = (std::ptr::from_ref(node) as usize, what);
        let cached = self
            .schemas
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&key)
            .copied();
        if let Some(cached) = cached {
            return cached;
        }
        let made: &'static Value = Box::leak(Box::new(make()));
        let mut schemas = self
            .schemas
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Another request may have made it meanwhile: the first one stays.
        schemas.entry(key).or_insert(made);
        schemas[&key]
    }
}

pub(crate) struct Synthesizer<'a> {
    document: &'static Value,
    checks: &'a Checks,
    derived: &'a Derived,
    rng: fastrand::Rng,
    /// Whether the schemas' own `example`s are taken.
    pub(crate) use_examples: bool,
    /// Which variant of each `oneOf`/`anyOf` is taken (modulo their count).
    pub(crate) variant: usize,
    /// The component schemas being made, innermost last.
    visiting: Vec<&'static str>,
}

impl<'a> Synthesizer<'a> {
    pub(crate) fn new(
        document: &'static Value,
        checks: &'a Checks,
        derived: &'a Derived,
        seed: u64,
    ) -> Self {
        Self {
            document,
            checks,
            derived,
            rng: fastrand::Rng::with_seed(seed),
            use_examples: true,
            variant: 0,
            visiting: Vec::new(),
        }
    }

    /// A value of `schema` (a node of the document).
    pub(crate) fn value(&mut self, schema: &'static Value, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return Value::Null;
        }
        let Value::Object(object) = schema else {
            return json!("mock");
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            let Some(pointer) = refs::target_pointer(reference) else {
                return Value::Null;
            };
            let Some(target) = self.document.pointer(pointer) else {
                return Value::Null;
            };
            self.visiting.push(pointer);
            let value = self.value(target, depth + 1);
            self.visiting.pop();
            return value;
        }
        let nullable = object.get("nullable") == Some(&Value::Bool(true));
        if nullable && depth > RICH_DEPTH && self.recursing() {
            return Value::Null;
        }
        if self.use_examples {
            if let Some(example) = object.get("example") {
                return example.clone();
            }
            if let Some(Value::Array(examples)) = object.get("examples")
                && let Some(first) = examples.first()
            {
                return first.clone();
            }
        }
        if let Some(value) = object.get("const") {
            return value.clone();
        }
        if let Some(Value::Array(values)) = object.get("enum") {
            let listed: Vec<&Value> = values.iter().filter(|value| !value.is_null()).collect();
            return match listed.len() {
                0 => Value::Null,
                count => listed[self.rng.usize(..count)].clone(),
            };
        }
        if object.contains_key("allOf") {
            let merged = self.derived.get_or_make(object, "allOf", || {
                Value::Object(merge_all_of(self.document, object, 0))
            });
            return self.value(merged, depth + 1);
        }
        for keyword in ["oneOf", "anyOf"] {
            if let Some(Value::Array(variants)) = object.get(keyword)
                && !variants.is_empty()
            {
                return self.variant_value(object, variants, depth);
            }
        }
        match kind(object) {
            Some("string") => self.string(object),
            Some("integer") => self.integer(object),
            Some("number") => self.number(object),
            Some("boolean") => Value::Bool(self.rng.bool()),
            Some("array") => self.array(object, depth),
            Some("object") => self.object(object, depth),
            Some("null") => Value::Null,
            _ => json!("mock"),
        }
    }

    /// Whether a component schema being made is being made again inside
    /// itself.
    fn recursing(&self) -> bool {
        let mut seen = self.visiting.clone();
        seen.sort_unstable();
        seen.windows(2).any(|pair| pair[0] == pair[1])
    }

    fn variant_value(
        &mut self,
        object: &'static Map<String, Value>,
        variants: &'static [Value],
        depth: usize,
    ) -> Value {
        let index = self.variant % variants.len();
        let chosen = &variants[index];
        let mut value = self.value(chosen, depth + 1);
        // Properties written beside the variants are the value's too.
        let rest = self.derived.get_or_make(object, "variants", || {
            let mut rest = object.clone();
            rest.remove("oneOf");
            rest.remove("anyOf");
            rest.remove("discriminator");
            Value::Object(rest)
        });
        if rest.get("properties").is_some()
            && let Value::Object(base) = self.value(rest, depth + 1)
            && let Value::Object(fields) = &mut value
        {
            for (name, field) in base {
                fields.entry(name).or_insert(field);
            }
        }
        if let Some(union) = discriminator::of(object, self.document)
            && let Some((key, _)) = union.values.iter().find(|(_, member)| *member == index)
            && let Value::Object(fields) = &mut value
        {
            fields.insert(union.property, Value::String(key.clone()));
        } else if let Some(property) = object
            .get("discriminator")
            .and_then(|discriminator| discriminator.get("propertyName"))
            .and_then(Value::as_str)
            && let Value::Object(fields) = &mut value
        {
            // A union the model has no reading of (a member written
            // inline): its mapping's key for the member, if any.
            let reference = chosen.get("$ref").and_then(Value::as_str);
            let mapped = object
                .get("discriminator")
                .and_then(|discriminator| discriminator.get("mapping"))
                .and_then(Value::as_object)
                .and_then(|mapping| {
                    mapping
                        .iter()
                        .find(|(_, target)| target.as_str() == reference)
                        .map(|(key, _)| key.clone())
                });
            if let Some(key) = mapped {
                fields.insert(property.to_string(), Value::String(key));
            }
        }
        value
    }

    fn string(&mut self, object: &'static Map<String, Value>) -> Value {
        let min = count(object, "minLength").unwrap_or(0);
        let max = count(object, "maxLength");
        let fits = |text: &str| {
            let length = text.chars().count();
            length >= min && max.is_none_or(|max| length <= max)
        };
        if let Some(pattern) = object.get("pattern").and_then(Value::as_str) {
            let compiled = self.checks.pattern(pattern);
            for longer in [false, true] {
                for text in from_pattern(pattern, longer, &mut self.rng) {
                    if compiled.compiled().matches(&text) && fits(&text) {
                        return Value::String(text);
                    }
                }
            }
        }
        let format = object.get("format").and_then(Value::as_str).unwrap_or("");
        let number = self.rng.u32(1..10_000);
        let text = match format {
            "date-time" => format!(
                "2024-{:02}-{:02}T{:02}:{:02}:{:02}Z",
                self.rng.u8(1..=12),
                self.rng.u8(1..=28),
                self.rng.u8(0..24),
                self.rng.u8(0..60),
                self.rng.u8(0..60)
            ),
            "date" => format!("2024-{:02}-{:02}", self.rng.u8(1..=12), self.rng.u8(1..=28)),
            "time" => format!("{:02}:{:02}:00Z", self.rng.u8(0..24), self.rng.u8(0..60)),
            "email" => format!("user{number}@example.com"),
            "uri" | "url" | "iri" => format!("https://example.com/resource/{number}"),
            "uri-reference" | "iri-reference" => format!("/resource/{number}"),
            "hostname" | "idn-hostname" => format!("host{number}.example.com"),
            "ipv4" => format!("192.0.2.{}", number % 255),
            "ipv6" => format!("2001:db8::{number:x}"),
            "uuid" => {
                let bits = self.rng.u128(..);
                let hex = format!("{bits:032x}");
                format!(
                    "{}-{}-4{}-a{}-{}",
                    &hex[..8],
                    &hex[8..12],
                    &hex[13..16],
                    &hex[17..20],
                    &hex[20..32]
                )
            }
            "byte" => "bW9jaw==".to_string(),
            "password" => format!("secret-{number}"),
            _ => format!("mock-{number}"),
        };
        let mut text = text;
        let length = text.chars().count();
        if length < min {
            text.extend(std::iter::repeat_n('x', min - length));
        }
        if let Some(max) = max
            && text.chars().count() > max
        {
            text = text.chars().take(max).collect();
        }
        Value::String(text)
    }

    fn integer(&mut self, object: &'static Map<String, Value>) -> Value {
        let bound = |keyword: &str, exclusive: &str| {
            object
                .get(keyword)
                .and_then(Value::as_f64)
                .map(|value| (value, object.get(exclusive) == Some(&Value::Bool(true))))
        };
        let low = bound("minimum", "exclusiveMinimum").map(|(value, exclusive)| {
            let low = value.ceil();
            if exclusive && low == value {
                low + 1.0
            } else {
                low
            }
        });
        let high = bound("maximum", "exclusiveMaximum").map(|(value, exclusive)| {
            let high = value.floor();
            if exclusive && high == value {
                high - 1.0
            } else {
                high
            }
        });
        let mut value = f64::from(self.rng.u8(1..=100));
        if let Some(low) = low {
            value = value.max(low);
        }
        if let Some(high) = high {
            value = value.min(high);
        }
        if let Some(divisor) = object.get("multipleOf").and_then(Value::as_f64)
            && divisor > 0.0
        {
            let up = (value / divisor).ceil() * divisor;
            value = if high.is_some_and(|high| up > high) {
                (value / divisor).floor() * divisor
            } else {
                up
            };
        }
        // Within the bounds of an `i64`, so the conversion is exact.
        let value = value.clamp(i64::MIN as f64, i64::MAX as f64) as i64;
        Value::Number(value.into())
    }

    fn number(&mut self, object: &'static Map<String, Value>) -> Value {
        let bound = |keyword: &str, exclusive: &str| {
            object
                .get(keyword)
                .and_then(Value::as_f64)
                .map(|value| (value, object.get(exclusive) == Some(&Value::Bool(true))))
        };
        let low = bound("minimum", "exclusiveMinimum");
        let high = bound("maximum", "exclusiveMaximum");
        let mut value = f64::from(self.rng.u8(1..=100)) + 0.5;
        if let Some((low, exclusive)) = low
            && (value < low || exclusive && value == low)
        {
            value = match high {
                Some((high, _)) if high > low => low + (high - low) / 2.0,
                _ => low + 1.0,
            };
        }
        if let Some((high, exclusive)) = high
            && (value > high || exclusive && value == high)
        {
            value = match low {
                Some((low, _)) if high > low => low + (high - low) / 2.0,
                _ => high - 1.0,
            };
        }
        if let Some(divisor) = object.get("multipleOf").and_then(Value::as_f64)
            && divisor > 0.0
        {
            value = (value / divisor).round() * divisor;
        }
        Number::from_f64(value).map_or(Value::Null, Value::Number)
    }

    fn array(&mut self, object: &'static Map<String, Value>, depth: usize) -> Value {
        let min = count(object, "minItems").unwrap_or(0);
        let max = count(object, "maxItems");
        let prefix = object
            .get("prefixItems")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let wanted = if depth > RICH_DEPTH { min } else { min.max(1) };
        let wanted = wanted.max(prefix.len().min(max.unwrap_or(usize::MAX)));
        let wanted = max.map_or(wanted, |max| wanted.min(max));
        let unique = object.get("uniqueItems") == Some(&Value::Bool(true));
        static ANYTHING: Value = Value::Bool(true);
        let items_schema: &'static Value = object.get("items").unwrap_or(&ANYTHING);
        let mut items: Vec<Value> = Vec::new();
        let mut attempts = 0;
        while items.len() < wanted && attempts < wanted * 4 + 4 {
            attempts += 1;
            let schema = prefix.get(items.len()).unwrap_or(items_schema);
            let item = self.value(schema, depth + 1);
            if unique && items.contains(&item) {
                continue;
            }
            items.push(item);
        }
        Value::Array(items)
    }

    fn object(&mut self, object: &'static Map<String, Value>, depth: usize) -> Value {
        let required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields = Map::new();
        let max = count(object, "maxProperties").unwrap_or(usize::MAX);
        if let Some(Value::Object(properties)) = object.get("properties") {
            // Optional properties fill what `maxProperties` leaves beside
            // the required ones.
            let mut room = max.saturating_sub(
                properties
                    .keys()
                    .filter(|name| required.contains(&name.as_str()))
                    .count(),
            );
            for (name, property) in properties {
                let is_required = required.contains(&name.as_str());
                let skipped = !is_required
                    && (room == 0
                        || depth > RICH_DEPTH
                        || self.flag(property, "writeOnly")
                        || self.leads_back(property));
                if skipped {
                    continue;
                }
                if !is_required {
                    room -= 1;
                }
                let value = self.value(property, depth + 1);
                fields.insert(name.clone(), value);
            }
        }
        let min = count(object, "minProperties").unwrap_or(0);
        let additional = object.get("additionalProperties");
        let open = additional != Some(&Value::Bool(false));
        // A required property the schema does not declare is one of the
        // others (when the schema allows others).
        for name in &required {
            if open && !fields.contains_key(*name) {
                let value = match additional {
                    Some(schema @ Value::Object(_)) => self.value(schema, depth + 1),
                    _ => json!("mock"),
                };
                fields.insert((*name).to_string(), value);
            }
        }
        let map_like = matches!(additional, Some(Value::Object(_)))
            && object.get("properties").is_none()
            && depth <= RICH_DEPTH;
        let mut index = 1;
        while open
            && fields.len() < max
            && (fields.len() < min || map_like && fields.is_empty())
            && index < 100
        {
            let name = format!("key{index}");
            index += 1;
            if fields.contains_key(&name) {
                continue;
            }
            let value = match additional {
                Some(schema @ Value::Object(_)) => self.value(schema, depth + 1),
                _ => json!("mock"),
            };
            fields.insert(name, value);
        }
        Value::Object(fields)
    }

    /// Whether `schema` (followed through `$ref`s) says `keyword: true`.
    fn flag(&self, schema: &'static Value, keyword: &str) -> bool {
        refs::follow(self.document, schema, "")
            .is_ok_and(|(schema, _)| schema.get(keyword) == Some(&Value::Bool(true)))
    }

    /// Whether an optional property refers (directly or through its items)
    /// to a schema being made: filling it would nest the schema in itself.
    fn leads_back(&self, schema: &'static Value) -> bool {
        let mut references = Vec::new();
        collect_references(schema, &mut references, 0);
        references
            .iter()
            .any(|pointer| self.visiting.contains(pointer))
    }
}

/// The parts of an `allOf` (followed through `$ref`s, their own `allOf`s
/// merged too) and the schema around them as one schema: properties and
/// `required` joined, any other keyword from the first that has it.
fn merge_all_of(document: &Value, object: &Map<String, Value>, depth: usize) -> Map<String, Value> {
    let mut merged = object.clone();
    merged.remove("allOf");
    let parts = object
        .get("allOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for part in parts {
        let Ok((Value::Object(part), _)) = refs::follow(document, part, "") else {
            continue;
        };
        let part = if part.contains_key("allOf") && depth < MAX_DEPTH {
            merge_all_of(document, part, depth + 1)
        } else {
            part.clone()
        };
        for (keyword, value) in part {
            match (keyword.as_str(), merged.get_mut(&keyword), value) {
                ("properties", Some(Value::Object(properties)), Value::Object(more)) => {
                    for (name, schema) in more {
                        properties.entry(name).or_insert(schema);
                    }
                }
                ("required", Some(Value::Array(required)), Value::Array(more)) => {
                    for name in more {
                        if !required.contains(&name) {
                            required.push(name);
                        }
                    }
                }
                (_, Some(_), _) => {}
                (_, None, value) => {
                    merged.insert(keyword, value);
                }
            }
        }
    }
    merged
}

/// The pointers of the `$ref`s directly in `schema` or in its items,
/// variants and parts (not in other schemas' properties).
fn collect_references(schema: &'static Value, out: &mut Vec<&'static str>, depth: usize) {
    if depth > 4 {
        return;
    }
    let Value::Object(object) = schema else {
        return;
    };
    if let Some(pointer) = object
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(refs::target_pointer)
    {
        out.push(pointer);
    }
    if let Some(items) = object.get("items") {
        collect_references(items, out, depth + 1);
    }
    for keyword in ["allOf", "oneOf", "anyOf"] {
        for part in object
            .get(keyword)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            collect_references(part, out, depth + 1);
        }
    }
}

/// The schema's `type`, or the one its keywords imply.
fn kind(object: &Map<String, Value>) -> Option<&str> {
    if let Some(kind) = object.get("type") {
        return match kind {
            Value::String(kind) => Some(kind),
            // A list of types (3.1, where lowering left one): the first not null.
            Value::Array(kinds) => kinds
                .iter()
                .filter_map(Value::as_str)
                .find(|kind| *kind != "null"),
            _ => None,
        };
    }
    let has = |keywords: &[&str]| keywords.iter().any(|keyword| object.contains_key(*keyword));
    if has(&[
        "properties",
        "additionalProperties",
        "required",
        "patternProperties",
    ]) {
        Some("object")
    } else if has(&["items", "prefixItems", "minItems", "maxItems"]) {
        Some("array")
    } else if has(&["minLength", "maxLength", "pattern", "format"]) {
        Some("string")
    } else if has(&[
        "minimum",
        "maximum",
        "multipleOf",
        "exclusiveMinimum",
        "exclusiveMaximum",
    ]) {
        Some("number")
    } else {
        None
    }
}

fn count(object: &Map<String, Value>, keyword: &str) -> Option<usize> {
    usize::try_from(object.get(keyword)?.as_u64()?).ok()
}

/// A string the regular expression `pattern` matches, for the common
/// grammar of spec patterns (literals, escapes, classes, groups with
/// alternation, quantifiers, anchors): each repetition as few times as it
/// allows (`longer`: one or a few more), the first alternative of each
/// group. `None` for what it does not read (lookaround, backreferences);
/// the caller checks the result against the pattern anyway.
pub(crate) fn from_pattern(pattern: &str, longer: bool, rng: &mut fastrand::Rng) -> Vec<String> {
    // Each alternative of the whole pattern on its own, so one this does
    // not read (`^$|^(?=.)...`) leaves the others.
    top_level_alternatives(pattern)
        .into_iter()
        .filter_map(|alternative| {
            let mut reader = PatternReader {
                chars: alternative.chars().collect(),
                position: 0,
                longer,
                rng: &mut *rng,
            };
            let text = reader.alternation()?;
            (reader.position == reader.chars.len()).then_some(text)
        })
        .collect()
}

/// `pattern` split at each `|` outside groups and classes.
fn top_level_alternatives(pattern: &str) -> Vec<&str> {
    let mut alternatives = Vec::new();
    let (mut depth, mut in_class, mut escaped, mut start) = (0usize, false, false, 0);
    for (index, c) in pattern.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => depth = depth.saturating_sub(1),
            '|' if !in_class && depth == 0 => {
                alternatives.push(&pattern[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    alternatives.push(&pattern[start..]);
    alternatives
}

struct PatternReader<'r> {
    chars: Vec<char>,
    position: usize,
    longer: bool,
    rng: &'r mut fastrand::Rng,
}

impl PatternReader<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.position).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let next = self.peek()?;
        self.position += 1;
        Some(next)
    }

    fn alternation(&mut self) -> Option<String> {
        let first = self.sequence()?;
        while self.peek() == Some('|') {
            self.position += 1;
            self.sequence()?;
        }
        Some(first)
    }

    fn sequence(&mut self) -> Option<String> {
        let mut text = String::new();
        while let Some(next) = self.peek() {
            if next == '|' || next == ')' {
                break;
            }
            let start = self.position;
            let atom = self.atom()?;
            let end = self.position;
            let (low, high) = self.quantifier()?;
            let times = if self.longer {
                low.max(1).max(low.saturating_add(2).min(high))
            } else {
                low
            };
            let times = times.min(high);
            for index in 0..times {
                if index == 0 {
                    text.push_str(&atom);
                } else {
                    // Each repetition read again, so classes vary.
                    let resume = self.position;
                    self.position = start;
                    let again = self.atom()?;
                    debug_assert_eq!(self.position, end);
                    self.position = resume;
                    text.push_str(&again);
                }
            }
        }
        Some(text)
    }

    /// `?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}` (lazy or not): the least and
    /// most repetitions; `(1, 1)` without one.
    fn quantifier(&mut self) -> Option<(usize, usize)> {
        let bounds = match self.peek() {
            Some('?') => (0, 1),
            Some('*') => (0, usize::MAX),
            Some('+') => (1, usize::MAX),
            Some('{') => {
                let close = self.chars[self.position..].iter().position(|c| *c == '}')?;
                let inside: String = self.chars[self.position + 1..self.position + close]
                    .iter()
                    .collect();
                let (low, high) = match inside.split_once(',') {
                    None => {
                        let exact = inside.trim().parse().ok()?;
                        (exact, exact)
                    }
                    Some((low, high)) => (
                        low.trim().parse().ok()?,
                        if high.trim().is_empty() {
                            usize::MAX
                        } else {
                            high.trim().parse().ok()?
                        },
                    ),
                };
                self.position += close;
                (low, high)
            }
            _ => return Some((1, 1)),
        };
        self.position += 1;
        if self.peek() == Some('?') {
            self.position += 1;
        }
        Some(bounds)
    }

    fn atom(&mut self) -> Option<String> {
        match self.bump()? {
            '^' | '$' => Some(String::new()),
            '.' => Some("a".to_string()),
            '(' => {
                if self.peek() == Some('?') {
                    self.position += 1;
                    if self.bump()? != ':' {
                        // Lookaround or a named group: not read here.
                        return None;
                    }
                }
                let inner = self.alternation()?;
                (self.bump()? == ')').then_some(inner)
            }
            '[' => self.class().map(String::from),
            '\\' => self.escape().map(String::from),
            literal => Some(literal.to_string()),
        }
    }

    /// The character an escape outside a class stands for.
    fn escape(&mut self) -> Option<char> {
        Some(match self.bump()? {
            'd' => char::from(b'0' + self.rng.u8(0..10)),
            'w' => 'a',
            's' => ' ',
            'D' | 'W' | 'S' => 'a',
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'b' | 'B' | '1'..='9' | 'k' | 'p' | 'P' | 'u' | 'x' | 'c' => return None,
            literal => literal,
        })
    }

    /// One character of a class `[..]` (the reader is past `[`).
    fn class(&mut self) -> Option<char> {
        let negated = self.peek() == Some('^');
        if negated {
            self.position += 1;
        }
        let mut ranges: Vec<(char, char)> = Vec::new();
        let mut first = true;
        loop {
            let next = self.bump()?;
            if next == ']' && !first {
                break;
            }
            first = false;
            let low = match next {
                '\\' => match self.bump()? {
                    'd' => {
                        ranges.push(('0', '9'));
                        continue;
                    }
                    'w' => {
                        ranges.extend([('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')]);
                        continue;
                    }
                    's' => {
                        ranges.push((' ', ' '));
                        continue;
                    }
                    'n' => '\n',
                    't' => '\t',
                    'D' | 'W' | 'S' | 'b' | 'B' | 'p' | 'P' | 'u' | 'x' | 'c' => return None,
                    literal => literal,
                },
                literal => literal,
            };
            if self.peek() == Some('-') && self.chars.get(self.position + 1) != Some(&']') {
                self.position += 1;
                let high = match self.bump()? {
                    '\\' => self.bump()?,
                    high => high,
                };
                ranges.push((low, high));
            } else {
                ranges.push((low, low));
            }
        }
        let inside = |c: char| ranges.iter().any(|(low, high)| (*low..=*high).contains(&c));
        if negated {
            return ['a', 'x', '0', 'Z', '_', '-', '.']
                .into_iter()
                .find(|c| !inside(*c));
        }
        let (low, high) = *ranges.get(self.rng.usize(..ranges.len().max(1)))?;
        let span = u32::from(high).checked_sub(u32::from(low))?;
        char::from_u32(u32::from(low) + self.rng.u32(0..=span.min(25)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_of_specs_give_matching_strings() {
        let mut rng = fastrand::Rng::with_seed(7);
        for (pattern, expected) in [
            ("^[a-z]{3}$", "abc"),
            ("^https://", "https://"),
            ("^[A-Z]{2}-\\d{4}$", "AB-1234"),
            ("^(?:con|mod)_[a-zA-Z0-9]{8}$", "con_abcdefgh"),
            ("^\\+?[0-9]{7,15}$", "1234567"),
            ("^[^@]+@x\\.io$", "a@x.io"),
        ] {
            let found = from_pattern(pattern, false, &mut rng);
            let [text] = found.as_slice() else {
                panic!("{pattern}: {found:?}")
            };
            let shape = |text: &str| {
                text.chars()
                    .map(|c| c.is_ascii_alphanumeric())
                    .collect::<Vec<_>>()
            };
            assert_eq!(shape(text), shape(expected), "{pattern}: {text}");
        }
        assert!(from_pattern("^(?=a)b$", false, &mut rng).is_empty());
        assert!(from_pattern("^(a)\\1$", false, &mut rng).is_empty());
        assert_eq!(from_pattern("^$|^(?=x)y", false, &mut rng), [""]);
        assert_eq!(from_pattern("^a|b[c|d]$", false, &mut rng).len(), 2);
        let longer = from_pattern("^a+$", true, &mut rng);
        assert!(longer[0].len() > 1, "{longer:?}");
    }
}
