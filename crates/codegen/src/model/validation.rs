//! The request-body rules the server checks, compiled from the schemas.
//!
//! The types crate cannot express every constraint (`minItems`, formats,
//! `x-validation-message`, the JSON Schema keywords 3.0 cannot spell such
//! as `prefixItems` or `unevaluatedProperties`, and it stops at the first
//! error), so the server validates each body (and parameter) against its
//! schema before typing it: every validation keyword, exactly. This module turns
//! the schemas a request body reaches into a small tree of [`Check`]s; the
//! server emitter renders the tree as Rust. Keeping the compilation here,
//! where every other rule of the spec is read, lets the emitter work from the
//! model instead of the raw document.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::Operation;
use super::refs::{SCHEMA_REF_PREFIX, schema_name};
use crate::diagnostic::{Diagnostic, pointer_join};
use crate::load::LoadedSpec;

pub use openapi_crates_runtime::rules::{
    Additional, ArrayCheck, Bound, Check, Contains, Evaluated, IntegerFormat, NumberCheck,
    ObjectCheck, PatternRule, StringCheck, Validator, Values,
};

/// `parts` as one, `Everything` when one of them always is.
fn union(parts: Vec<Evaluated>) -> Evaluated {
    let mut flat = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut patterns: Vec<PatternRule> = Vec::new();
    let mut prefix = 0;
    let mut pending = parts;
    while let Some(part) = pending.pop() {
        match part {
            Evaluated::Everything => return Evaluated::Everything,
            Evaluated::Union(inner) => pending.extend(inner),
            Evaluated::Names(more) => names.extend(more),
            Evaluated::Patterns(more) => patterns.extend(more),
            Evaluated::Prefix(length) => prefix = prefix.max(length),
            part => flat.push(part),
        }
    }
    flat.reverse();
    names.sort_unstable();
    names.dedup();
    patterns.sort_unstable_by(|a, b| a.source().cmp(b.source()));
    patterns.dedup();
    // Cheapest tests first: names, positions, then patterns.
    let mut leading = Vec::new();
    if !names.is_empty() {
        leading.push(Evaluated::Names(names));
    }
    if prefix > 0 {
        leading.push(Evaluated::Prefix(prefix));
    }
    if !patterns.is_empty() {
        leading.push(Evaluated::Patterns(patterns));
    }
    leading.extend(flat);
    let mut flat = leading;
    if flat.len() == 1 {
        flat.pop().expect("one part")
    } else {
        Evaluated::Union(flat)
    }
}

/// A `pattern` the generator checked, with its spelling for the `regex`
/// crate where [`super::pattern::to_regex`] proves both mean the same.
pub fn pattern_rule(source: &str) -> PatternRule {
    PatternRule::new(source, super::pattern::to_regex(source))
}

/// Whether the value may be a `oneOf` or `anyOf` (with a discriminator or
/// without), here or in a schema `check` calls. Typify types one as an
/// untagged enum, which tries its variants in turn: a string may be read as
/// a newtype of a variant validation never checked it against, and that
/// newtype's own check is what turns the variant away. Elsewhere, each
/// string typed as a newtype was checked by validation against the rules of
/// the same schema.
pub fn has_variants(check: &Check, validators: &[Validator]) -> bool {
    let mut seen: Vec<String> = Vec::new();
    let mut pending = vec![check];
    while let Some(check) = pending.pop() {
        if has_variants_inline(check) {
            return true;
        }
        let mut called = Vec::new();
        check.schemas(&mut called);
        for name in called {
            if seen.contains(&name) {
                continue;
            }
            if let Some(validator) = validators.iter().find(|v| v.schema == name) {
                pending.push(&validator.check);
            }
            seen.push(name);
        }
    }
    false
}

/// [`has_variants`], not following the schemas this check calls.
/// Only the checks of what typify types count: the subschemas of `not`,
/// `if`/`then`/`else`, `prefixItems`, `dependentSchemas`,
/// `propertyNames` and `unevaluated*` are the server's alone (the types
/// are looser there), so no newtype stands in for them.
fn has_variants_inline(check: &Check) -> bool {
    match check {
        Check::Alternatives { .. } | Check::Discriminated { .. } => true,
        Check::Any
        | Check::Never
        | Check::Schema(_)
        | Check::Linked(_)
        | Check::String(_)
        | Check::Number(_)
        | Check::Boolean
        | Check::Values(_)
        | Check::Not(_)
        | Check::Conditional { .. }
        | Check::UnevaluatedProperties { .. }
        | Check::UnevaluatedItems { .. } => false,
        Check::All(checks) => checks.iter().any(has_variants_inline),
        // Typify types the properties a pattern matches as the extra
        // properties (`lower::loosen_for_types`).
        Check::Object(object) => {
            object
                .properties
                .iter()
                .map(|(_, check)| check)
                .chain(object.patterns.iter().map(|(_, check)| check))
                .any(has_variants_inline)
                || matches!(&object.additional, Additional::Checked(check) if has_variants_inline(check))
        }
        Check::Array(array) => {
            has_variants_inline(&array.items)
                || array
                    .contains
                    .as_ref()
                    .is_some_and(|contains| has_variants_inline(&contains.check))
        }
        Check::WithMessage { check, .. } | Check::Nullable(check) | Check::IfType(check) => {
            has_variants_inline(check)
        }
    }
}

/// Whether `schema` is a bare `{nullable: true}` (beside annotations only):
/// what lowering makes of 3.1's `{type: "null"}`, and how 3.0 descriptions
/// write the `null` branch of a `oneOf`/`anyOf`. It allows `null` alone:
/// read as "anything", it would let every value through the branch, so a
/// `oneOf: [X, {type: "null"}]` would skip X's rules and refuse X's valid
/// values as matching two branches.
pub(crate) fn is_bare_nullable(schema: &Map<String, Value>) -> bool {
    schema.get("nullable") == Some(&Value::Bool(true))
        && schema.keys().all(|key| {
            matches!(key.as_str(), "nullable" | "description" | "title") || key.starts_with("x-")
        })
}

/// The checks of a schema written in place (a parameter's, say), which may
/// call those of named schemas.
pub(crate) fn compile_inline(
    spec: &LoadedSpec,
    schema: &Value,
    pointer: &str,
) -> Result<Check, Diagnostic> {
    Compiler::new(spec).check(schema, pointer)
}

/// The validators of every schema reachable from a request body, by name.
pub(crate) fn compile(
    spec: &LoadedSpec,
    operations: &[&Operation],
) -> Result<Vec<Validator>, Diagnostic> {
    let mut pending: Vec<String> = operations
        .iter()
        .filter_map(|operation| operation.request_body.as_ref())
        .flat_map(|body| body.checked_schemas().map(str::to_string))
        .collect();
    for parameter in operations
        .iter()
        .flat_map(|operation| &operation.parameters)
    {
        parameter.check.schemas(&mut pending);
    }
    compile_schemas(spec, pending)
}

/// The validators of the component schemas `names` and of every schema they
/// reach, by name: the request bodies' rules applied to other values, such
/// as the responses `openapi-crates-mock` writes, which must pass the same checks.
pub fn compile_schemas(
    spec: &LoadedSpec,
    names: impl IntoIterator<Item = String>,
) -> Result<Vec<Validator>, Diagnostic> {
    let mut pending: Vec<String> = names.into_iter().collect();
    let mut reachable = BTreeSet::new();
    while let Some(name) = pending.pop() {
        if !reachable.insert(name.clone()) {
            continue;
        }
        collect_schema_refs(component_schema(spec, &name)?, &mut pending);
    }
    reachable
        .into_iter()
        .map(|name| {
            let pointer = pointer_join("/components/schemas", &name);
            let check = Compiler::new(spec).check(component_schema(spec, &name)?, &pointer)?;
            Ok(Validator {
                schema: name,
                check,
            })
        })
        .collect()
}

fn component_schema<'a>(spec: &'a LoadedSpec, name: &str) -> Result<&'a Value, Diagnostic> {
    spec.document
        .pointer(&super::refs::schema_pointer(name))
        .ok_or_else(|| {
            spec.error_at(
                "/components/schemas",
                format!("schema `{name}` is not defined"),
            )
        })
}

/// The names of the component schemas `value` refers to, at any depth.
pub(crate) fn collect_schema_refs(value: &Value, out: &mut Vec<String>) {
    collect_refs_in(value, false, out);
}

/// Keywords whose value maps names (of properties, or patterns) to
/// schemas: a name there may be `example`, `default` or `x-anything`.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
];

/// Keywords holding data, not schemas.
const DATA_KEYWORDS: &[&str] = &["example", "examples", "default", "enum", "const"];

/// In a map of [`SCHEMA_MAPS`] (`in_map`), every key names a schema;
/// elsewhere the [`DATA_KEYWORDS`] and extensions hold data.
fn collect_refs_in(value: &Value, in_map: bool, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                if key == "$ref" && !in_map {
                    if let Some(name) = child.as_str().and_then(schema_name) {
                        out.push(name.into_owned());
                    }
                } else if in_map || !key.starts_with("x-") && !DATA_KEYWORDS.contains(&key.as_str())
                {
                    collect_refs_in(child, !in_map && SCHEMA_MAPS.contains(&key.as_str()), out);
                }
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| collect_refs_in(item, false, out)),
        _ => {}
    }
}

/// The keywords that make a schema without `type` an object check that
/// requires an object, as they make typify's type a struct or a map.
const OBJECT_TYPING_KEYWORDS: &[&str] = &["properties", "additionalProperties"];

/// The keywords of each JSON type; in a schema without `type` they
/// constrain values of their type only.
const OBJECT_KEYWORDS: &[&str] = &[
    "properties",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "required",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "minProperties",
    "maxProperties",
];
const ARRAY_KEYWORDS: &[&str] = &[
    "items",
    "prefixItems",
    "contains",
    "minItems",
    "maxItems",
    "uniqueItems",
];
const STRING_KEYWORDS: &[&str] = &["minLength", "maxLength", "pattern", "format"];
const NUMBER_KEYWORDS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// Which members an `unevaluated*` keyword is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Members {
    Properties,
    Items,
}

#[derive(Clone, Copy)]
struct Compiler<'a> {
    spec: &'a LoadedSpec,
    /// Whether the schemas compiled are the server's alone (under `not`,
    /// `if`/`then`/`else`, `prefixItems`, ...), which no type is generated
    /// from: there an untyped schema with `properties` constrains objects
    /// only, as JSON Schema says, instead of requiring an object as the
    /// struct typify makes of it does.
    server_only: bool,
}

impl<'a> Compiler<'a> {
    fn new(spec: &'a LoadedSpec) -> Self {
        Self {
            spec,
            server_only: false,
        }
    }

    /// The compiler of the subschemas only the server reads.
    fn server_only(self) -> Self {
        Self {
            server_only: true,
            ..self
        }
    }

    fn check(&self, schema: &Value, pointer: &str) -> Result<Check, Diagnostic> {
        let object = match schema {
            Value::Object(object) => object,
            Value::Bool(false) => return Ok(Check::Never),
            _ => return Ok(Check::Any),
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            return Ok(Check::Schema(self.schema_ref(reference, pointer)?));
        }
        if is_bare_nullable(object) {
            return Ok(Check::Nullable(Box::new(Check::Never)));
        }
        let mut checks = Vec::new();
        if let Some(parts) = object.get("allOf").and_then(Value::as_array) {
            for (index, part) in parts.iter().enumerate() {
                checks.push(self.check(part, &format!("{pointer}/allOf/{index}"))?);
            }
        }
        if let Some(variants) = object.get("oneOf").and_then(Value::as_array) {
            checks.push(self.alternatives(object, variants, pointer, true)?);
        }
        if let Some(variants) = object.get("anyOf").and_then(Value::as_array) {
            checks.push(self.alternatives(object, variants, pointer, false)?);
        }
        let has_any = |keywords: &[&str]| keywords.iter().any(|key| object.contains_key(*key));
        // `const` is JSON Schema's one-value `enum` (a 3.1 document's is
        // already one; a 3.0 document may still use it).
        let listed: Option<Vec<Value>> = match (object.get("enum"), object.get("const")) {
            (Some(Value::Array(values)), _) => Some(values.clone()),
            (None, Some(value)) => Some(vec![value.clone()]),
            _ => None,
        };
        let values: Option<Vec<Value>> = listed
            .as_ref()
            .map(|values| values.iter().filter(|v| !v.is_null()).cloned().collect());
        let kind = object.get("type").and_then(Value::as_str).or_else(|| {
            if !self.server_only && has_any(OBJECT_TYPING_KEYWORDS) {
                Some("object")
            } else {
                // An untyped enum of strings (a lowered `const`, say) is a string.
                values
                    .as_ref()
                    .filter(|values| !values.is_empty() && values.iter().all(Value::is_string))
                    .map(|_| "string")
            }
        });
        match (kind, values) {
            (Some("string"), values) => checks.push(string_check(object, values)),
            (_, Some(values)) => checks.push(Check::Values(Values::new(
                values.iter().map(Value::to_string).collect(),
            ))),
            (Some("object"), None) => checks.push(self.object(object, pointer)?),
            (Some("array"), None) => checks.push(self.array(object, pointer)?),
            (Some(kind @ ("integer" | "number")), None) => {
                checks.push(number_check(object, kind, !self.server_only))
            }
            (Some("boolean"), None) => checks.push(Check::Boolean),
            (Some(_), None) => {}
            (None, None) => {
                let lenient = [
                    (has_any(OBJECT_KEYWORDS), "object"),
                    (has_any(ARRAY_KEYWORDS), "array"),
                    (has_any(STRING_KEYWORDS), "string"),
                    (has_any(NUMBER_KEYWORDS), "number"),
                ];
                for (_, kind) in lenient.into_iter().filter(|(present, _)| *present) {
                    let check = match kind {
                        "object" => self.object(object, pointer)?,
                        "array" => self.array(object, pointer)?,
                        "string" => string_check(object, None),
                        _ => number_check(object, kind, false),
                    };
                    if !check.is_type_only() {
                        checks.push(Check::IfType(Box::new(check)));
                    }
                }
            }
        }
        if let Some(excluded) = object.get("not") {
            checks.push(
                match self
                    .server_only()
                    .check(excluded, &pointer_join(pointer, "not"))?
                {
                    Check::Any => Check::Never,
                    Check::Never => Check::Any,
                    check => Check::Not(Box::new(check)),
                },
            );
        }
        if let Some(condition) = object.get("if") {
            checks.push(self.conditional(object, condition, pointer)?);
        }
        if let Some(rest) = object.get("unevaluatedProperties") {
            let rest = self
                .server_only()
                .additional(rest, &pointer_join(pointer, "unevaluatedProperties"))?;
            let evaluated =
                self.evaluated(schema, pointer, Members::Properties, &mut Vec::new())?;
            if rest != Additional::Allowed && evaluated != Evaluated::Everything {
                checks.push(Check::UnevaluatedProperties { evaluated, rest });
            }
        }
        if let Some(rest) = object.get("unevaluatedItems") {
            let rest = self
                .server_only()
                .additional(rest, &pointer_join(pointer, "unevaluatedItems"))?;
            let evaluated = self.evaluated(schema, pointer, Members::Items, &mut Vec::new())?;
            if rest != Additional::Allowed && evaluated != Evaluated::Everything {
                checks.push(Check::UnevaluatedItems { evaluated, rest });
            }
        }
        let mut check = all(checks);
        if check.is_any() {
            return Ok(check);
        }
        if let Some(message) = object.get("x-validation-message").and_then(Value::as_str) {
            check = Check::WithMessage {
                check: Box::new(check),
                message: message.to_string(),
            };
        }
        // An `enum` listing `null` allows it as `nullable` does: typify types
        // such a field as an `Option` whose `None` goes out as `null`.
        let null_in_enum = listed.is_some_and(|values| values.contains(&Value::Null));
        if object.get("nullable") == Some(&Value::Bool(true)) || null_in_enum {
            check = Check::Nullable(Box::new(check));
        }
        Ok(check)
    }

    fn schema_ref(&self, reference: &str, pointer: &str) -> Result<String, Diagnostic> {
        schema_name(reference)
            .map(|name| name.into_owned())
            .ok_or_else(|| {
                self.spec.error_at(
                    pointer,
                    format!("`{reference}` must point into {SCHEMA_REF_PREFIX}"),
                )
            })
    }

    fn alternatives(
        &self,
        schema: &Map<String, Value>,
        variants: &[Value],
        pointer: &str,
        exactly_one: bool,
    ) -> Result<Check, Diagnostic> {
        let keyword = if exactly_one { "oneOf" } else { "anyOf" };
        if variants.len() == 1 {
            return self.check(&variants[0], &format!("{pointer}/{keyword}/0"));
        }
        if let Some(union) = super::discriminator::of(schema, &self.spec.document) {
            let members = union.members;
            return Ok(Check::Discriminated {
                property: union.property,
                mapping: union
                    .values
                    .into_iter()
                    .map(|(value, member)| (value, Check::Schema(members[member].clone())))
                    .collect(),
            });
        }
        // A union the model has no reading of (a member written inline):
        // its mapping alone.
        let discriminator = schema.get("discriminator");
        let property = discriminator
            .and_then(|d| d.get("propertyName"))
            .and_then(Value::as_str);
        let mapping = discriminator
            .and_then(|d| d.get("mapping"))
            .and_then(Value::as_object);
        if let (Some(property), Some(mapping)) = (property, mapping) {
            let mut arms = Vec::new();
            for (key, target) in mapping {
                let target_pointer = pointer_join(&format!("{pointer}/discriminator/mapping"), key);
                let target = target.as_str().unwrap_or_default();
                arms.push((
                    key.clone(),
                    Check::Schema(self.schema_ref(target, &target_pointer)?),
                ));
            }
            return Ok(Check::Discriminated {
                property: property.to_string(),
                mapping: arms,
            });
        }
        let variants = variants
            .iter()
            .enumerate()
            .map(|(index, variant)| self.check(variant, &format!("{pointer}/{keyword}/{index}")))
            .collect::<Result<_, _>>()?;
        Ok(Check::Alternatives {
            exactly_one,
            variants,
        })
    }

    /// `if`/`then`/`else`; a missing branch accepts anything.
    fn conditional(
        &self,
        schema: &Map<String, Value>,
        condition: &Value,
        pointer: &str,
    ) -> Result<Check, Diagnostic> {
        let branch = |keyword: &str| match schema.get(keyword) {
            Some(branch) => self
                .server_only()
                .check(branch, &pointer_join(pointer, keyword)),
            None => Ok(Check::Any),
        };
        let (then, otherwise) = (branch("then")?, branch("else")?);
        Ok(
            match self
                .server_only()
                .check(condition, &pointer_join(pointer, "if"))?
            {
                _ if then.is_any() && otherwise.is_any() => Check::Any,
                Check::Any => then,
                Check::Never => otherwise,
                condition => Check::Conditional {
                    condition: Box::new(condition),
                    then: Box::new(then),
                    otherwise: Box::new(otherwise),
                },
            },
        )
    }

    /// What a schema that may be `false` says of the members it is about.
    fn additional(&self, schema: &Value, pointer: &str) -> Result<Additional, Diagnostic> {
        Ok(match self.check(schema, pointer)? {
            Check::Any => Additional::Allowed,
            Check::Never => Additional::Forbidden,
            check => Additional::Checked(Box::new(check)),
        })
    }

    /// The properties or items `schema` evaluates in place, for the
    /// `unevaluated*` keyword of `schema` itself. `visiting` holds the
    /// component schemas being followed, so a `$ref` cycle ends.
    fn evaluated(
        &self,
        schema: &Value,
        pointer: &str,
        members: Members,
        visiting: &mut Vec<String>,
    ) -> Result<Evaluated, Diagnostic> {
        self.evaluated_by(schema, pointer, members, visiting, true)
    }

    fn evaluated_by(
        &self,
        schema: &Value,
        pointer: &str,
        members: Members,
        visiting: &mut Vec<String>,
        top: bool,
    ) -> Result<Evaluated, Diagnostic> {
        let Value::Object(object) = schema else {
            return Ok(union(Vec::new()));
        };
        let mut parts = Vec::new();
        if let Some(name) = object
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(schema_name)
            && !visiting.iter().any(|seen| *seen == name)
            && let Ok(target) = component_schema(self.spec, &name)
        {
            visiting.push(name.to_string());
            let pointer = pointer_join("/components/schemas", &name);
            parts.push(self.evaluated_by(target, &pointer, members, visiting, false)?);
            visiting.pop();
        }
        match members {
            Members::Properties => {
                let keys = |keyword: &str| -> Vec<String> {
                    object
                        .get(keyword)
                        .and_then(Value::as_object)
                        .map(|map| map.keys().cloned().collect())
                        .unwrap_or_default()
                };
                parts.push(Evaluated::Names(keys("properties")));
                parts.push(Evaluated::Patterns(
                    keys("patternProperties")
                        .iter()
                        .map(|source| pattern_rule(source))
                        .collect(),
                ));
                if object.contains_key("additionalProperties")
                    || !top && object.contains_key("unevaluatedProperties")
                {
                    parts.push(Evaluated::Everything);
                }
                for (keyword, dependent) in ["dependentSchemas", "dependencies"]
                    .iter()
                    .filter_map(|keyword| Some((*keyword, object.get(*keyword)?.as_object()?)))
                    .flat_map(|(keyword, map)| map.iter().map(move |entry| (keyword, entry)))
                {
                    let (name, dependent) = dependent;
                    if !dependent.is_object() {
                        continue;
                    }
                    let at = pointer_join(&pointer_join(pointer, keyword), name);
                    let evaluated = self.evaluated_by(dependent, &at, members, visiting, false)?;
                    parts.push(when(
                        Check::Object(ObjectCheck {
                            required: vec![name.clone()],
                            ..ObjectCheck::default()
                        }),
                        evaluated,
                    ));
                }
            }
            Members::Items => {
                if let Some(prefix) = object.get("prefixItems").and_then(Value::as_array) {
                    parts.push(Evaluated::Prefix(prefix.len()));
                }
                if object.contains_key("items") || !top && object.contains_key("unevaluatedItems") {
                    parts.push(Evaluated::Everything);
                }
                if let Some(contains) = object.get("contains") {
                    let check = self
                        .server_only()
                        .check(contains, &pointer_join(pointer, "contains"))?;
                    parts.push(Evaluated::Matching(Box::new(check)));
                }
            }
        }
        if let Some(parts_of) = object.get("allOf").and_then(Value::as_array) {
            for (index, part) in parts_of.iter().enumerate() {
                let at = format!("{pointer}/allOf/{index}");
                parts.push(self.evaluated_by(part, &at, members, visiting, false)?);
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            for (index, variant) in object
                .get(keyword)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let at = format!("{pointer}/{keyword}/{index}");
                let evaluated = self.evaluated_by(variant, &at, members, visiting, false)?;
                parts.push(when(self.check(variant, &at)?, evaluated));
            }
        }
        if let Some(condition) = object.get("if") {
            let at = pointer_join(pointer, "if");
            let check = self.server_only().check(condition, &at)?;
            let mut taken = vec![self.evaluated_by(condition, &at, members, visiting, false)?];
            if let Some(then) = object.get("then") {
                let at = pointer_join(pointer, "then");
                taken.push(self.evaluated_by(then, &at, members, visiting, false)?);
            }
            parts.push(when(check.clone(), union(taken)));
            if let Some(otherwise) = object.get("else") {
                let at = pointer_join(pointer, "else");
                let evaluated = self.evaluated_by(otherwise, &at, members, visiting, false)?;
                parts.push(when(Check::Not(Box::new(check)), evaluated));
            }
        }
        Ok(union(parts))
    }

    fn object(&self, schema: &Map<String, Value>, pointer: &str) -> Result<Check, Diagnostic> {
        let properties = schema.get("properties").and_then(Value::as_object);
        let known: Vec<String> = properties
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        // A request never carries a read-only property, so it is never
        // required of one, whatever `required` says.
        let read_only = |name: &str| {
            properties
                .and_then(|properties| properties.get(name))
                .is_some_and(|property| property.get("readOnly") == Some(&Value::Bool(true)))
        };
        let required: Vec<String> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|names| {
                names
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|name| !read_only(name))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let mut checked = Vec::new();
        for (name, property) in properties.into_iter().flatten() {
            let check = self.check(property, &format!("{pointer}/properties/{name}"))?;
            if !check.is_any() {
                checked.push((name.clone(), check));
            }
        }
        let mut patterns = Vec::new();
        if let Some(map) = schema.get("patternProperties").and_then(Value::as_object) {
            for (pattern, property) in map {
                let at = pointer_join(&pointer_join(pointer, "patternProperties"), pattern);
                patterns.push((pattern_rule(pattern), self.check(property, &at)?));
            }
        }
        let additional = match schema.get("additionalProperties") {
            Some(Value::Bool(false)) => Additional::Forbidden,
            Some(extra @ Value::Object(_)) => {
                self.additional(extra, &format!("{pointer}/additionalProperties"))?
            }
            _ => Additional::Allowed,
        };
        let property_names = match schema.get("propertyNames") {
            Some(names) => Some(
                self.server_only()
                    .check(names, &pointer_join(pointer, "propertyNames"))?,
            )
            .filter(|check| !check.is_any())
            .map(Box::new),
            None => None,
        };
        let mut dependent_required = Vec::new();
        let mut dependent_schemas = Vec::new();
        for keyword in ["dependentRequired", "dependentSchemas", "dependencies"] {
            for (name, dependent) in schema
                .get(keyword)
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                match dependent {
                    Value::Array(names) => {
                        let names: Vec<String> = names
                            .iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect();
                        if !names.is_empty() {
                            dependent_required.push((name.clone(), names));
                        }
                    }
                    schema => {
                        let at = pointer_join(&pointer_join(pointer, keyword), name);
                        let check = self.server_only().check(schema, &at)?;
                        if !check.is_any() {
                            dependent_schemas.push((name.clone(), check));
                        }
                    }
                }
            }
        }
        Ok(Check::Object(ObjectCheck {
            required,
            properties: checked,
            known,
            patterns,
            additional,
            // `minProperties: 0` holds for every object.
            min_properties: count(schema, "minProperties").filter(|min| *min > 0),
            max_properties: count(schema, "maxProperties"),
            property_names,
            dependent_required,
            dependent_schemas,
        }))
    }

    fn array(&self, schema: &Map<String, Value>, pointer: &str) -> Result<Check, Diagnostic> {
        let mut prefix = Vec::new();
        if let Some(schemas) = schema.get("prefixItems").and_then(Value::as_array) {
            for (index, item) in schemas.iter().enumerate() {
                let at = format!("{pointer}/prefixItems/{index}");
                prefix.push(self.server_only().check(item, &at)?);
            }
        }
        let mut max_items = count(schema, "maxItems");
        let items = match schema.get("items") {
            Some(items) => self.check(items, &format!("{pointer}/items"))?,
            None => Check::Any,
        };
        // `items: false` after `prefixItems` closes the tuple: no item
        // beyond the prefix, which is what `maxItems` says.
        let items = match items {
            Check::Never => {
                max_items = Some(max_items.map_or(prefix.len(), |max| max.min(prefix.len())));
                Check::Any
            }
            items => items,
        };
        let contains = match schema.get("contains") {
            Some(contains) => {
                let check = self
                    .server_only()
                    .check(contains, &pointer_join(pointer, "contains"))?;
                let min = count(schema, "minContains").unwrap_or(1);
                let max = count(schema, "maxContains");
                // `minContains: 0` without a maximum holds for every list.
                (min > 0 || max.is_some()).then(|| Contains {
                    check: Box::new(check),
                    min,
                    max,
                })
            }
            None => None,
        };
        Ok(Check::Array(ArrayCheck {
            min_items: count(schema, "minItems").filter(|min| *min > 0),
            max_items,
            prefix,
            items: Box::new(items),
            unique: schema.get("uniqueItems") == Some(&Value::Bool(true)),
            contains,
        }))
    }
}

/// What `evaluated` names, when the value passes `condition`.
fn when(condition: Check, evaluated: Evaluated) -> Evaluated {
    if evaluated.is_nothing() {
        return evaluated;
    }
    match condition {
        Check::Any => evaluated,
        Check::Never => union(Vec::new()),
        condition => Evaluated::When {
            condition: Box::new(condition),
            evaluated: Box::new(evaluated),
        },
    }
}

fn all(mut checks: Vec<Check>) -> Check {
    checks.retain(|check| !check.is_any());
    match checks.len() {
        0 => Check::Any,
        1 => checks.pop().expect("one check"),
        _ => Check::All(checks),
    }
}

fn count(schema: &Map<String, Value>, keyword: &str) -> Option<usize> {
    usize::try_from(schema.get(keyword)?.as_u64()?).ok()
}

/// The checks of a string; `values`, the `enum` (or `const`) without `null`.
fn string_check(schema: &Map<String, Value>, values: Option<Vec<Value>>) -> Check {
    let allowed = values.map(|values| {
        values
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    });
    let (min_length, max_length) = if allowed.is_some() {
        (None, None)
    } else {
        // `minLength: 0` holds for every string; checking it would be noise.
        (
            count(schema, "minLength").filter(|min| *min > 0),
            count(schema, "maxLength"),
        )
    };
    Check::String(StringCheck {
        allowed,
        min_length,
        max_length,
        format: schema
            .get("format")
            .and_then(Value::as_str)
            .map(str::to_string),
        pattern: schema
            .get("pattern")
            .and_then(Value::as_str)
            .map(pattern_rule),
    })
}

/// The checks of a number; `typed` when the types crate reads the value
/// as a Rust number (not under a `not`, an `if` and the like).
fn number_check(schema: &Map<String, Value>, kind: &str, typed: bool) -> Check {
    let bound = |keyword: &str, exclusive: &str| {
        let written = schema.get(keyword)?;
        let exact = written
            .as_i64()
            .map(i128::from)
            .or_else(|| written.as_u64().map(i128::from))
            .filter(|exact| exact.unsigned_abs() > 1 << 53);
        written.as_f64().map(|value| Bound {
            value,
            exclusive: schema.get(exclusive) == Some(&Value::Bool(true)),
            exact,
        })
    };
    let multiple_of = schema
        .get("multipleOf")
        .and_then(Value::as_f64)
        .filter(|divisor| *divisor > 0.0);
    let (minimum, maximum) = (
        bound("minimum", "exclusiveMinimum"),
        bound("maximum", "exclusiveMaximum"),
    );
    let format = schema
        .get("format")
        .and_then(Value::as_str)
        .filter(|_| typed && kind == "integer")
        .and_then(IntegerFormat::of);
    Check::Number(NumberCheck {
        integer: kind == "integer",
        minimum,
        maximum,
        multiple_of,
        format,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn compile_schema(schema: Value) -> Check {
        let spec = crate::load::parse_spec(
            std::path::Path::new("test.yaml"),
            serde_json::to_string(&json!({
                "openapi": "3.0.3",
                "info": {"title": "t", "version": "1"},
                "paths": {},
                "components": {"schemas": {"S": schema, "A": {}, "B": {}, "T": {}}},
            }))
            .unwrap()
            .as_bytes(),
        )
        .unwrap();
        let schema = spec
            .document
            .pointer("/components/schemas/S")
            .unwrap()
            .clone();
        Compiler::new(&spec)
            .check(&schema, "/components/schemas/S")
            .unwrap()
    }

    #[test]
    fn objects_keep_required_known_and_checked_properties() {
        let check = compile_schema(json!({
            "type": "object",
            "required": ["a"],
            "additionalProperties": false,
            "properties": {"a": {"type": "string", "maxLength": 3}, "b": {}},
        }));
        let Check::Object(object) = check else {
            panic!("{check:?}")
        };
        assert_eq!(object.required, ["a"]);
        assert_eq!(object.known, ["a", "b"]);
        assert_eq!(object.additional, Additional::Forbidden);
        assert_eq!(object.properties.len(), 1, "`b` accepts anything");
        assert_eq!((object.min_properties, object.max_properties), (None, None));
    }

    #[test]
    fn properties_named_like_keywords_are_followed() {
        let mut found = Vec::new();
        collect_schema_refs(
            &json!({"properties": {
                "default": {"$ref": "#/components/schemas/A"},
                "example": {"items": {"$ref": "#/components/schemas/B"}},
                "x-name": {"$ref": "#/components/schemas/C"}
            }, "default": {"$ref": "#/components/schemas/NotASchema"}}),
            &mut found,
        );
        assert_eq!(found, ["A", "B", "C"]);
    }

    #[test]
    fn property_counts_are_kept_except_a_minimum_of_zero() {
        let bounded =
            compile_schema(json!({"type": "object", "minProperties": 1, "maxProperties": 64}));
        let Check::Object(bounded) = bounded else {
            panic!("{bounded:?}")
        };
        assert_eq!(
            (bounded.min_properties, bounded.max_properties),
            (Some(1), Some(64))
        );
        let zero = compile_schema(json!({"type": "object", "minProperties": 0}));
        let Check::Object(zero) = zero else {
            panic!("{zero:?}")
        };
        assert_eq!(zero.min_properties, None);
    }

    /// A body typed as an untagged enum somewhere, behind a schema or in
    /// place, is one whose variants typing tries in turn.
    #[test]
    fn variants_are_found_behind_schemas_and_in_place() {
        let string = compile_schema(json!({"type": "string", "pattern": "^a"}));
        let choice = compile_schema(json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}));
        let validators = vec![
            Validator {
                schema: "Leaf".into(),
                check: string.clone(),
            },
            Validator {
                schema: "Choice".into(),
                check: choice.clone(),
            },
            Validator {
                schema: "Loop".into(),
                check: Check::Array(ArrayCheck {
                    items: Box::new(Check::Schema("Loop".into())),
                    ..ArrayCheck::default()
                }),
            },
        ];
        let object = |check: Check| {
            Check::Object(ObjectCheck {
                properties: vec![("p".into(), check)],
                known: vec!["p".into()],
                ..ObjectCheck::default()
            })
        };
        assert!(!has_variants(&string, &validators));
        assert!(!has_variants(
            &object(Check::Schema("Leaf".into())),
            &validators
        ));
        assert!(!has_variants(&Check::Schema("Loop".into()), &validators));
        assert!(has_variants(&choice, &validators));
        assert!(has_variants(
            &object(Check::Schema("Choice".into())),
            &validators
        ));
        assert!(
            has_variants(
                &object(Check::Nullable(Box::new(choice.clone()))),
                &validators
            ),
            "in place"
        );
        let tagged = Check::Discriminated {
            property: "type".into(),
            mapping: vec![("a".into(), Check::Schema("Leaf".into()))],
        };
        assert!(has_variants(&object(tagged), &validators));
    }

    #[test]
    fn read_only_properties_are_never_required_of_requests() {
        let Check::Object(object) = compile_schema(json!({
            "type": "object",
            "required": ["id", "name"],
            "properties": {"id": {"type": "string", "readOnly": true}, "name": {"type": "string"}},
        })) else {
            panic!()
        };
        assert_eq!(object.required, ["name"]);
    }

    #[test]
    fn no_op_bounds_are_dropped() {
        let check = compile_schema(json!({"type": "string", "minLength": 0, "maxLength": 5}));
        assert_eq!(
            check,
            Check::String(StringCheck {
                allowed: None,
                min_length: None,
                max_length: Some(5),
                format: None,
                pattern: None,
            })
        );
    }

    #[test]
    fn patterns_are_kept_for_the_server_to_check() {
        let Check::String(string) =
            compile_schema(json!({"type": "string", "pattern": "^https://"}))
        else {
            panic!()
        };
        assert_eq!(
            string.pattern.as_ref().map(PatternRule::source),
            Some("^https://")
        );
    }

    #[test]
    fn enums_pin_the_text_so_lengths_are_not_checked() {
        let Check::String(string) =
            compile_schema(json!({"type": "string", "enum": ["x"], "minLength": 2}))
        else {
            panic!()
        };
        assert_eq!(string.allowed, Some(vec!["x".to_string()]));
        assert_eq!(string.min_length, None);
    }

    #[test]
    fn nullable_and_messages_wrap_the_checks() {
        let check = compile_schema(json!({
            "type": "integer", "minimum": 1, "exclusiveMaximum": true, "maximum": 9,
            "nullable": true, "x-validation-message": "pick 1 to 8",
        }));
        let Check::Nullable(inner) = check else {
            panic!("{check:?}")
        };
        let Check::WithMessage { check, message } = *inner else {
            panic!()
        };
        assert_eq!(message, "pick 1 to 8");
        assert_eq!(
            *check,
            Check::Number(NumberCheck {
                integer: true,
                minimum: Some(Bound {
                    value: 1.0,
                    exclusive: false,
                    exact: None
                }),
                maximum: Some(Bound {
                    value: 9.0,
                    exclusive: true,
                    exact: None
                }),
                multiple_of: None,
                format: None,
            })
        );
    }

    #[test]
    fn discriminators_map_values_to_schemas() {
        let check = compile_schema(json!({
            "oneOf": [{"$ref": "#/components/schemas/A"}, {"$ref": "#/components/schemas/B"}],
            "discriminator": {"propertyName": "kind", "mapping": {
                "a": "#/components/schemas/A", "b": "#/components/schemas/B"}},
        }));
        assert_eq!(
            check,
            Check::Discriminated {
                property: "kind".into(),
                mapping: vec![
                    ("a".into(), Check::Schema("A".into())),
                    ("b".into(), Check::Schema("B".into()))
                ],
            }
        );
    }

    #[test]
    fn an_enum_listing_null_allows_null() {
        let Check::Nullable(inner) =
            compile_schema(json!({"type": "string", "enum": ["red", null]}))
        else {
            panic!("null in the enum makes the check nullable");
        };
        assert!(matches!(*inner, Check::String(_)));
    }

    #[test]
    fn const_is_a_one_value_enum() {
        let Check::String(string) = compile_schema(json!({"type": "string", "const": "x"})) else {
            panic!()
        };
        assert_eq!(string.allowed, Some(vec!["x".to_string()]));
        assert_eq!(
            compile_schema(json!({"const": 3})),
            Check::Values(Values::new(vec!["3".into()]))
        );
        assert!(matches!(
            compile_schema(json!({"const": null})),
            Check::Nullable(inner) if *inner == Check::Values(Values::new(Vec::new()))
        ));
    }

    #[test]
    fn a_bare_nullable_branch_allows_null_alone() {
        // `oneOf: [{$ref: A}, {type: "null"}]` once lowered: the null branch
        // must not accept A's values (or anything else) too.
        let Check::Alternatives {
            exactly_one: true,
            variants,
        } = compile_schema(json!({
            "oneOf": [{"$ref": "#/components/schemas/A"}, {"nullable": true, "description": "none"}]
        }))
        else {
            panic!("a oneOf of two branches is an alternatives check");
        };
        assert_eq!(variants[0], Check::Schema("A".into()));
        assert_eq!(variants[1], Check::Nullable(Box::new(Check::Never)));
        // `nullable` beside a rule keeps its 3.0 meaning.
        assert!(matches!(
            compile_schema(json!({"nullable": true, "maxLength": 2})),
            Check::Nullable(inner) if !inner.is_any()
        ));
    }

    #[test]
    fn an_untyped_enum_listing_null_is_a_nullable_string_check() {
        let Check::Nullable(check) = compile_schema(json!({"enum": ["eu", null]})) else {
            panic!("null in the enum makes the check nullable");
        };
        let Check::String(string) = *check else {
            panic!("an untyped enum of strings is a string check");
        };
        assert_eq!(string.allowed, Some(vec!["eu".to_string()]));
    }

    #[test]
    fn an_untyped_enum_of_strings_is_a_string_check() {
        let Check::String(string) = compile_schema(json!({"enum": ["game"]})) else {
            panic!()
        };
        assert_eq!(string.allowed, Some(vec!["game".to_string()]));
    }

    #[test]
    fn an_untyped_schema_accepts_anything() {
        assert_eq!(compile_schema(json!({"description": "free"})), Check::Any);
        assert_eq!(
            compile_schema(json!({"allOf": [{"$ref": "#/components/schemas/A"}]})),
            Check::Schema("A".into())
        );
    }

    /// `compile_schema` with other component schemas beside `S`.
    fn compile_with(schema: Value, others: Value) -> Check {
        let mut schemas = others;
        schemas["S"] = schema;
        let spec = crate::load::parse_spec(
            std::path::Path::new("test.yaml"),
            serde_json::to_string(&json!({
                "openapi": "3.0.3",
                "info": {"title": "t", "version": "1"},
                "paths": {},
                "components": {"schemas": schemas},
            }))
            .unwrap()
            .as_bytes(),
        )
        .unwrap();
        let schema = spec.document["components"]["schemas"]["S"].clone();
        Compiler::new(&spec)
            .check(&schema, "/components/schemas/S")
            .unwrap()
    }

    #[test]
    fn tuples_close_with_a_count_and_lists_count_what_they_contain() {
        let Check::Array(array) = compile_schema(json!({
            "type": "array",
            "prefixItems": [{"type": "string"}, {"$ref": "#/components/schemas/T"}],
            "items": {"not": {}},
            "maxItems": 5,
            "uniqueItems": true,
            "contains": {"type": "integer"},
            "minContains": 0,
            "maxContains": 1,
        })) else {
            panic!()
        };
        assert_eq!(array.prefix[1], Check::Schema("T".into()));
        assert_eq!(array.max_items, Some(2), "`items: false` after two");
        assert!(array.items.is_any() && array.unique);
        let contains = array.contains.unwrap();
        assert_eq!((contains.min, contains.max), (0, Some(1)));
        let Check::Array(open) = compile_schema(json!({
            "type": "array", "contains": {}, "minContains": 0,
        })) else {
            panic!()
        };
        assert_eq!(
            open.contains, None,
            "`minContains: 0` alone holds for every list"
        );
    }

    #[test]
    fn object_keywords_of_2020_12() {
        let Check::Object(object) = compile_schema(json!({
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "patternProperties": {"^x-": {"type": "integer"}, "^y-": {}},
            "additionalProperties": false,
            "propertyNames": {"maxLength": 3},
            "dependentRequired": {"a": ["b", "c"]},
            "dependentSchemas": {"b": {"required": ["d"]}},
        })) else {
            panic!()
        };
        assert_eq!(
            object.patterns.len(),
            2,
            "a pattern accepting anything still shields its names"
        );
        assert_eq!(object.patterns[1].1, Check::Any);
        assert_eq!(object.additional, Additional::Forbidden);
        assert!(matches!(
            object.property_names.as_deref(),
            Some(Check::IfType(_))
        ));
        assert_eq!(
            object.dependent_required,
            [("a".to_string(), vec!["b".to_string(), "c".to_string()])]
        );
        assert_eq!(object.dependent_schemas.len(), 1);
    }

    /// Keywords without a `type` constrain the values of their type only;
    /// `not`, `if` and `enum`s of other values than strings compile too.
    #[test]
    fn untyped_keywords_not_if_and_values() {
        assert_eq!(
            compile_schema(json!({"maxLength": 3, "minimum": 1})),
            Check::All(vec![
                Check::IfType(Box::new(Check::String(StringCheck {
                    max_length: Some(3),
                    ..StringCheck::default()
                }))),
                Check::IfType(Box::new(Check::Number(NumberCheck {
                    minimum: Some(Bound {
                        value: 1.0,
                        exclusive: false,
                        exact: None
                    }),
                    ..NumberCheck::default()
                }))),
            ])
        );
        assert_eq!(
            compile_schema(json!({"format": "int32", "type": "integer"})),
            Check::Number(NumberCheck {
                integer: true,
                format: Some(IntegerFormat {
                    name: "int32".into(),
                    min: i32::MIN.into(),
                    max: i32::MAX.into()
                }),
                ..NumberCheck::default()
            })
        );
        let Check::Number(widened) =
            compile_schema(json!({"format": "uint8", "type": "integer", "maximum": 1000}))
        else {
            panic!("a number")
        };
        assert_eq!(
            widened.format.map(|format| format.max),
            Some(255),
            "the spec asks both, whatever type typify picks"
        );
        assert!(
            !compile_schema(json!({"format": "int32", "type": "integer"})).is_type_only(),
            "a parameter read as i64 checks the range"
        );
        let untyped = format!(
            "{:?}",
            compile_schema(json!({"format": "int32", "minimum": 1}))
        );
        assert!(
            untyped.contains("minimum") && !untyped.contains("IntegerFormat"),
            "an untyped value is not read as i32: {untyped}"
        );
        assert_eq!(compile_schema(json!({"not": {}})), Check::Never);
        assert_eq!(compile_schema(json!({"not": {"not": {}}})), Check::Any);
        assert!(matches!(
            compile_schema(json!({"type": "string", "not": {"enum": ["a"]}})),
            Check::All(checks) if matches!(checks[1], Check::Not(_))
        ));
        assert_eq!(
            compile_schema(json!({"type": "integer", "enum": [1, 2], "minimum": 5})),
            Check::Values(Values::new(vec!["1".into(), "2".into()])),
            "the values pin the number"
        );
        assert_eq!(
            compile_schema(json!({"enum": [{"a": 1}, null]})),
            Check::Nullable(Box::new(Check::Values(Values::new(vec![
                r#"{"a":1}"#.into()
            ]))))
        );
        assert_eq!(
            compile_schema(json!({"if": {"required": ["a"]}, "then": {}, "else": {}})),
            Check::Any
        );
        // Typify types an untyped schema with `properties` as a struct, so
        // it requires an object; under `not` no type is generated, and it
        // constrains objects only, as JSON Schema says: every other value
        // matches it, and `not` refuses them.
        assert!(matches!(
            compile_schema(json!({"properties": {"a": {"type": "string"}}})),
            Check::Object(_)
        ));
        assert!(matches!(
            compile_schema(json!({"not": {"properties": {"a": {"type": "string"}}}})),
            Check::Not(inner) if matches!(*inner, Check::IfType(_))
        ));
        let Check::Conditional {
            then, otherwise, ..
        } = compile_schema(json!({"if": {"required": ["a"]}, "then": {"required": ["b"]}}))
        else {
            panic!()
        };
        assert!(matches!(*then, Check::IfType(_)) && otherwise.is_any());
    }

    #[test]
    fn unevaluated_properties_see_through_all_of_refs_and_branches() {
        let others = json!({
            "Base": {"type": "object", "properties": {"id": {}}, "patternProperties": {"^x-": {}}},
            "Open": {"type": "object", "additionalProperties": {"type": "string"}},
            "Loop": {"allOf": [{"$ref": "#/components/schemas/Loop"}], "properties": {"l": {}}},
        });
        let Check::UnevaluatedProperties { evaluated, rest } = compile_with(
            json!({
                "allOf": [{"$ref": "#/components/schemas/Base"}, {"$ref": "#/components/schemas/Loop"}],
                "properties": {"own": {}},
                "anyOf": [{"properties": {"a": {}}}, {"$ref": "#/components/schemas/Open"}],
                "if": {"properties": {"kind": {"const": "k"}}},
                "then": {"properties": {"k": {}}},
                "else": {"properties": {"e": {}}},
                "dependentSchemas": {"p": {"properties": {"q": {}}}},
                "unevaluatedProperties": false,
            }),
            others.clone(),
        )
        .pipe_last() else {
            panic!()
        };
        assert_eq!(rest, Additional::Forbidden);
        let Evaluated::Union(parts) = evaluated else {
            panic!("{evaluated:?}")
        };
        assert_eq!(
            parts[0],
            Evaluated::Names(vec!["id".into(), "l".into(), "own".into()]),
            "own, `allOf` and `$ref` names, the cycle followed once"
        );
        assert_eq!(parts[1], Evaluated::Patterns(vec![pattern_rule("^x-")]));
        let conditional: Vec<&Evaluated> = parts[2..]
            .iter()
            .map(|part| match part {
                Evaluated::When { evaluated, .. } => &**evaluated,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            conditional,
            [
                &Evaluated::Names(vec!["q".into()]),
                &Evaluated::Names(vec!["a".into()]),
                &Evaluated::Everything,
                &Evaluated::Names(vec!["k".into(), "kind".into()]),
                &Evaluated::Names(vec!["e".into()]),
            ],
            "a dependent schema, an `anyOf` variant, `if` with `then`, `else`"
        );
        // `additionalProperties` beside it evaluates every property.
        assert_eq!(
            compile_with(
                json!({"type": "object", "additionalProperties": {}, "unevaluatedProperties": false}),
                others
            ),
            Check::Object(ObjectCheck::default())
        );
    }

    #[test]
    fn unevaluated_items_count_prefixes_and_contained_items() {
        let Check::UnevaluatedItems { evaluated, rest } = compile_schema(json!({
            "prefixItems": [{}, {}],
            "contains": {"type": "integer"},
            "allOf": [{"prefixItems": [{}, {}, {}]}],
            "unevaluatedItems": {"type": "string"},
        }))
        .pipe_last() else {
            panic!()
        };
        assert!(matches!(rest, Additional::Checked(check) if matches!(*check, Check::String(_))));
        assert_eq!(
            evaluated,
            Evaluated::Union(vec![
                Evaluated::Prefix(3),
                Evaluated::Matching(Box::new(Check::Number(NumberCheck {
                    integer: true,
                    ..NumberCheck::default()
                }))),
            ])
        );
    }

    trait PipeLast {
        /// The last of several checks, or the check itself.
        fn pipe_last(self) -> Check;
    }

    impl PipeLast for Check {
        fn pipe_last(self) -> Check {
            match self {
                Check::All(mut checks) => checks.pop().unwrap(),
                check => check,
            }
        }
    }

    #[test]
    fn refs_under_the_new_keywords_make_their_schemas_reachable() {
        let mut found = Vec::new();
        collect_schema_refs(
            &json!({
                "prefixItems": [{"$ref": "#/components/schemas/A"}],
                "patternProperties": {"default": {"$ref": "#/components/schemas/B"}},
                "dependentSchemas": {"x-key": {"$ref": "#/components/schemas/C"}},
                "if": {"$ref": "#/components/schemas/D"},
                "const": {"$ref": "#/components/schemas/NotASchema"},
            }),
            &mut found,
        );
        assert_eq!(found, ["A", "B", "C", "D"]);
    }
}
