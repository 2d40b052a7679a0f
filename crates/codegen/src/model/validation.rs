//! The request-body rules the server checks, compiled from the schemas.
//!
//! The types crate cannot express every constraint (`minItems`, formats,
//! `x-validation-message`, and it stops at the first error), so the server
//! validates each body against its schema before typing it. This module turns
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

/// The checks of one named schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Validator {
    /// The component schema's name.
    pub schema: String,
    pub check: Check,
}

/// What a value must satisfy.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// Anything goes.
    Any,
    /// The checks of a named schema.
    Schema(String),
    /// Every one of these.
    All(Vec<Check>),
    Object(ObjectCheck),
    Array(ArrayCheck),
    String(StringCheck),
    Number(NumberCheck),
    Boolean,
    /// A `oneOf` with a discriminator: the property's value picks the schema.
    Discriminated {
        property: String,
        /// Discriminator value and the schema it selects, in spec order.
        mapping: Vec<(String, String)>,
    },
    /// A `oneOf` (`exactly_one`) or `anyOf` without a discriminator.
    Alternatives {
        exactly_one: bool,
        variants: Vec<Check>,
    },
    /// `check`, but any failure is reported as the spec's own `message`
    /// (`x-validation-message`).
    WithMessage {
        check: Box<Check>,
        message: String,
    },
    /// `null`, or a value passing `check`.
    Nullable(Box<Check>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct ObjectCheck {
    pub required: Vec<String>,
    /// Declared properties with checks, in spec order.
    pub properties: Vec<(String, Check)>,
    /// Every declared property name, for `additionalProperties`.
    pub known: Vec<String>,
    pub additional: Additional,
    pub min_properties: Option<usize>,
    pub max_properties: Option<usize>,
}

/// What `additionalProperties` says of undeclared properties.
#[derive(Debug, Clone, PartialEq)]
pub enum Additional {
    Allowed,
    Forbidden,
    Checked(Box<Check>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct ArrayCheck {
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    pub items: Box<Check>,
    /// At least one item must pass this (JSON Schema's `contains`, which an
    /// OpenAPI 3.1 document lowers to `x-contains`).
    pub contains: Option<Box<Check>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StringCheck {
    /// The `enum` values; lengths are not checked when set, since the values
    /// pin the exact text.
    pub allowed: Option<Vec<String>>,
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    pub format: Option<String>,
    /// The `pattern` (ECMA-262, not anchored); checked to compile when the
    /// schemas are read.
    pub pattern: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NumberCheck {
    pub integer: bool,
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    pub value: f64,
    pub exclusive: bool,
}

impl Check {
    /// Whether the check accepts every value.
    pub fn is_any(&self) -> bool {
        matches!(self, Check::Any)
    }

    /// Whether the check asks no more than the JSON type of the value (which
    /// reading a parameter's text as its type already guarantees).
    pub fn is_type_only(&self) -> bool {
        match self {
            Check::Any | Check::Boolean => true,
            Check::String(string) => {
                string.allowed.is_none()
                    && string.min_length.is_none()
                    && string.max_length.is_none()
                    && string.format.is_none()
            }
            Check::Number(number) => number.minimum.is_none() && number.maximum.is_none(),
            Check::Array(array) => {
                array.min_items.is_none()
                    && array.max_items.is_none()
                    && array.contains.is_none()
                    && array.items.is_type_only()
            }
            _ => false,
        }
    }

    /// Whether the value may be a `oneOf` or `anyOf` (with a discriminator
    /// or without), here or in a schema this check calls. Typify types one
    /// as an untagged enum, which tries its variants in turn: a string may
    /// be read as a newtype of a variant validation never checked it
    /// against, and that newtype's own check is what turns the variant away.
    /// Elsewhere, each string typed as a newtype was checked by validation
    /// against the rules of the same schema.
    pub fn has_variants(&self, validators: &[Validator]) -> bool {
        let mut seen: Vec<String> = Vec::new();
        let mut pending = vec![self];
        while let Some(check) = pending.pop() {
            if check.has_variants_inline() {
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

    /// [`Check::has_variants`], not following the schemas this check calls.
    fn has_variants_inline(&self) -> bool {
        match self {
            Check::Alternatives { .. } | Check::Discriminated { .. } => true,
            Check::Any
            | Check::Schema(_)
            | Check::String(_)
            | Check::Number(_)
            | Check::Boolean => false,
            Check::All(checks) => checks.iter().any(Check::has_variants_inline),
            Check::Object(object) => {
                object
                    .properties
                    .iter()
                    .any(|(_, check)| check.has_variants_inline())
                    || matches!(&object.additional, Additional::Checked(check) if check.has_variants_inline())
            }
            Check::Array(array) => {
                array.items.has_variants_inline()
                    || array
                        .contains
                        .as_ref()
                        .is_some_and(|check| check.has_variants_inline())
            }
            Check::WithMessage { check, .. } | Check::Nullable(check) => {
                check.has_variants_inline()
            }
        }
    }

    /// Adds the names of the schemas this check calls to `out`.
    fn schemas(&self, out: &mut Vec<String>) {
        match self {
            Check::Any | Check::String(_) | Check::Number(_) | Check::Boolean => {}
            Check::Schema(name) => out.push(name.clone()),
            Check::All(checks) => checks.iter().for_each(|check| check.schemas(out)),
            Check::Object(object) => {
                object
                    .properties
                    .iter()
                    .for_each(|(_, check)| check.schemas(out));
                if let Additional::Checked(check) = &object.additional {
                    check.schemas(out);
                }
            }
            Check::Array(array) => {
                array.items.schemas(out);
                if let Some(contains) = &array.contains {
                    contains.schemas(out);
                }
            }
            Check::Discriminated { mapping, .. } => {
                out.extend(mapping.iter().map(|(_, schema)| schema.clone()))
            }
            Check::Alternatives { variants, .. } => {
                variants.iter().for_each(|check| check.schemas(out))
            }
            Check::WithMessage { check, .. } | Check::Nullable(check) => check.schemas(out),
        }
    }
}

/// The checks of a schema written in place (a parameter's, say), which may
/// call those of named schemas.
pub(crate) fn compile_inline(
    spec: &LoadedSpec,
    schema: &Value,
    pointer: &str,
) -> Result<Check, Diagnostic> {
    Compiler { spec }.check(schema, pointer)
}

/// The validators of every schema reachable from a request body, by name.
pub(crate) fn compile(
    spec: &LoadedSpec,
    operations: &[Operation],
) -> Result<Vec<Validator>, Diagnostic> {
    let mut pending: Vec<String> = operations
        .iter()
        .filter_map(|operation| operation.request_body.as_ref())
        .filter_map(|body| body.schema.clone())
        .collect();
    for parameter in operations
        .iter()
        .flat_map(|operation| &operation.parameters)
    {
        parameter.check.schemas(&mut pending);
    }
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
            let check = Compiler { spec }.check(component_schema(spec, &name)?, &pointer)?;
            Ok(Validator {
                schema: name,
                check,
            })
        })
        .collect()
}

fn component_schema<'a>(spec: &'a LoadedSpec, name: &str) -> Result<&'a Value, Diagnostic> {
    spec.document
        .pointer(&pointer_join("/components/schemas", name))
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

/// `properties` names properties, any of which may be called `example` or
/// `default`; elsewhere those keywords hold data, not schemas.
fn collect_refs_in(value: &Value, in_properties: bool, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                if key == "$ref" && !in_properties {
                    if let Some(name) = child.as_str().and_then(schema_name) {
                        out.push(name.to_string());
                    }
                } else if in_properties
                    || !key.starts_with("x-") && key != "example" && key != "default"
                {
                    collect_refs_in(child, !in_properties && key == "properties", out);
                }
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| collect_refs_in(item, false, out)),
        _ => {}
    }
}

struct Compiler<'a> {
    spec: &'a LoadedSpec,
}

impl Compiler<'_> {
    fn check(&self, schema: &Value, pointer: &str) -> Result<Check, Diagnostic> {
        let Some(object) = schema.as_object() else {
            return Ok(Check::Any);
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            return Ok(Check::Schema(self.schema_ref(reference, pointer)?));
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
        let kind = object.get("type").and_then(Value::as_str).or_else(|| {
            if object.contains_key("properties") || object.contains_key("additionalProperties") {
                Some("object")
            } else {
                // An untyped enum of strings (a lowered `const`, say) is a
                // string; `null` among them makes it nullable (below).
                object
                    .get("enum")
                    .and_then(Value::as_array)
                    .filter(|values| {
                        values.iter().any(Value::is_string)
                            && values
                                .iter()
                                .all(|value| value.is_string() || value.is_null())
                    })
                    .map(|_| "string")
            }
        });
        match kind {
            Some("object") => checks.push(self.object(object, pointer)?),
            Some("array") => checks.push(self.array(object, pointer)?),
            Some("string") => checks.push(string_check(object)),
            Some(kind @ ("integer" | "number")) => checks.push(number_check(object, kind)),
            Some("boolean") => checks.push(Check::Boolean),
            _ => {}
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
        let null_in_enum = object
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.contains(&Value::Null));
        if object.get("nullable") == Some(&Value::Bool(true)) || null_in_enum {
            check = Check::Nullable(Box::new(check));
        }
        Ok(check)
    }

    fn schema_ref(&self, reference: &str, pointer: &str) -> Result<String, Diagnostic> {
        schema_name(reference).map(str::to_string).ok_or_else(|| {
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
                arms.push((key.clone(), self.schema_ref(target, &target_pointer)?));
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
        let additional = match schema.get("additionalProperties") {
            Some(Value::Bool(false)) => Additional::Forbidden,
            Some(extra @ Value::Object(_)) => {
                match self.check(extra, &format!("{pointer}/additionalProperties"))? {
                    Check::Any => Additional::Allowed,
                    check => Additional::Checked(Box::new(check)),
                }
            }
            _ => Additional::Allowed,
        };
        Ok(Check::Object(ObjectCheck {
            required,
            properties: checked,
            known,
            additional,
            // `minProperties: 0` holds for every object.
            min_properties: count(schema, "minProperties").filter(|min| *min > 0),
            max_properties: count(schema, "maxProperties"),
        }))
    }

    fn array(&self, schema: &Map<String, Value>, pointer: &str) -> Result<Check, Diagnostic> {
        let items = match schema.get("items") {
            Some(items) => self.check(items, &format!("{pointer}/items"))?,
            None => Check::Any,
        };
        let contains = match schema.get("x-contains") {
            Some(contains) => Some(Box::new(
                self.check(contains, &format!("{pointer}/x-contains"))?,
            )),
            None => None,
        };
        Ok(Check::Array(ArrayCheck {
            min_items: count(schema, "minItems").filter(|min| *min > 0),
            max_items: count(schema, "maxItems"),
            items: Box::new(items),
            contains,
        }))
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

fn string_check(schema: &Map<String, Value>) -> Check {
    let allowed = schema.get("enum").and_then(Value::as_array).map(|values| {
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
            .map(str::to_string),
    })
}

fn number_check(schema: &Map<String, Value>, kind: &str) -> Check {
    let bound = |keyword: &str, exclusive: &str| {
        schema
            .get(keyword)
            .and_then(Value::as_f64)
            .map(|value| Bound {
                value,
                exclusive: schema.get(exclusive) == Some(&Value::Bool(true)),
            })
    };
    Check::Number(NumberCheck {
        integer: kind == "integer",
        minimum: bound("minimum", "exclusiveMinimum"),
        maximum: bound("maximum", "exclusiveMaximum"),
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
                "components": {"schemas": {"S": schema}},
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
        Compiler { spec: &spec }
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
                    min_items: None,
                    max_items: None,
                    items: Box::new(Check::Schema("Loop".into())),
                    contains: None,
                }),
            },
        ];
        let object = |check: Check| {
            Check::Object(ObjectCheck {
                required: Vec::new(),
                properties: vec![("p".into(), check)],
                known: vec!["p".into()],
                additional: Additional::Allowed,
                min_properties: None,
                max_properties: None,
            })
        };
        assert!(!string.has_variants(&validators));
        assert!(!object(Check::Schema("Leaf".into())).has_variants(&validators));
        assert!(!Check::Schema("Loop".into()).has_variants(&validators));
        assert!(choice.has_variants(&validators));
        assert!(object(Check::Schema("Choice".into())).has_variants(&validators));
        assert!(
            object(Check::Nullable(Box::new(choice.clone()))).has_variants(&validators),
            "in place"
        );
        let tagged = Check::Discriminated {
            property: "type".into(),
            mapping: vec![("a".into(), "Leaf".into())],
        };
        assert!(object(tagged).has_variants(&validators));
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
        assert_eq!(string.pattern.as_deref(), Some("^https://"));
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
                    exclusive: false
                }),
                maximum: Some(Bound {
                    value: 9.0,
                    exclusive: true
                }),
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
                mapping: vec![("a".into(), "A".into()), ("b".into(), "B".into())],
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
}
