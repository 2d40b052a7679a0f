//! Form fields are text: where a body offered as a form has numbers or
//! booleans, the generated server gives the runtime a static
//! `tenant_server_runtime::form::Shape` built from the schema's checks
//! (`tenant_codegen::emit::server::form`), and the runtime reads those text
//! fields as their type before validation. Shapes are static trees (a
//! schema that refers to itself is a cycle of statics), which a mock cannot
//! build at run time; this reads the fields from the same checks by the
//! same rules instead, walking the value, which is finite.

use std::borrow::Cow;

use tenant_codegen::model::validation::{self, Additional, Check, FormScalar as Scalar};
use tenant_server_runtime::json::Value;

use crate::interpret::Checks;

/// The rules of `emit::server::form::Shapes`, on the checks themselves.
pub(crate) struct Form<'c> {
    checks: &'c Checks,
}

/// How deep `$ref`s are followed without reaching a value: a schema that is
/// only an `allOf` of itself has no shape.
const MAX_DEPTH: usize = 64;

impl<'c> Form<'c> {
    pub(crate) fn new(checks: &'c Checks) -> Self {
        Self { checks }
    }

    /// Whether a value passing `check` may hold a number or a boolean.
    pub(crate) fn typed(&self, check: &'static Check) -> bool {
        let validator = |name: &str| self.checks.validator(name);
        validation::has_typed_fields(check, &validator, &mut Vec::new())
    }

    /// Reads the text fields of `value` that `check` says are numbers or
    /// booleans as such, as `form::coerce` does with the shape of `check`.
    pub(crate) fn coerce(&self, check: &'static Check, value: &mut Value<'_>, depth: usize) {
        if depth > MAX_DEPTH || !self.typed(check) {
            return;
        }
        match check {
            Check::Number(number) if number.integer => read_scalar(value, Scalar::Integer),
            Check::Number(_) => read_scalar(value, Scalar::Number),
            Check::Boolean => read_scalar(value, Scalar::Boolean),
            Check::Values(values) => {
                if let Some(scalar) = validation::values_scalar(values) {
                    read_scalar(value, scalar);
                }
            }
            Check::Schema(name) => {
                if let Some(check) = self.checks.validator(name) {
                    self.coerce(check, value, depth + 1);
                }
            }
            Check::Object(object) => {
                let Value::Object(fields) = value else {
                    return;
                };
                // A declared property without numbers or booleans is not in
                // the shape's list, so other properties' shape reads it.
                let other = match &object.additional {
                    Additional::Checked(check) if self.typed(check) => Some(&**check),
                    _ => None,
                };
                for (name, child) in fields.iter_mut() {
                    let declared = object
                        .properties
                        .iter()
                        .find(|(known, check)| known == name && self.typed(check));
                    match declared {
                        Some((_, check)) => self.coerce(check, child, depth + 1),
                        None => {
                            if let Some(other) = other {
                                self.coerce(other, child, depth + 1);
                            }
                        }
                    }
                }
            }
            Check::Array(array) => {
                if let Value::Array(items) = value {
                    for item in items {
                        self.coerce(&array.items, item, depth + 1);
                    }
                }
            }
            // `allOf`: the parts are read as one object.
            Check::All(parts) => {
                let typed: Vec<&'static Check> =
                    parts.iter().filter(|part| self.typed(part)).collect();
                match typed[..] {
                    [one] => self.coerce(one, value, depth + 1),
                    _ => {
                        let mut properties = Vec::new();
                        for part in parts {
                            self.object_properties(part, &mut properties, depth + 1);
                        }
                        if let Value::Object(fields) = value {
                            for (name, child) in fields.iter_mut() {
                                if let Some((_, check)) =
                                    properties.iter().find(|(known, _)| *known == name)
                                {
                                    self.coerce(check, child, depth + 1);
                                }
                            }
                        }
                    }
                }
            }
            Check::WithMessage { check, .. } | Check::Nullable(check) | Check::IfType(check) => {
                self.coerce(check, value, depth + 1);
            }
            _ => {}
        }
    }

    /// The typed properties of an object check (through `$ref`s), for
    /// merging the parts of an `allOf`.
    fn object_properties(
        &self,
        check: &'static Check,
        out: &mut Vec<(&'static str, &'static Check)>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        match check {
            Check::Object(object) => out.extend(
                object
                    .properties
                    .iter()
                    .filter(|(_, check)| self.typed(check))
                    .map(|(name, check)| (name.as_str(), check)),
            ),
            Check::Schema(name) => {
                if let Some(check) = self.checks.validator(name) {
                    self.object_properties(check, out, depth + 1);
                }
            }
            Check::All(parts) => {
                for part in parts {
                    self.object_properties(part, out, depth + 1);
                }
            }
            Check::WithMessage { check, .. } | Check::Nullable(check) | Check::IfType(check) => {
                self.object_properties(check, out, depth + 1);
            }
            _ => {}
        }
    }
}

/// How a form's text is read for an `enum` of numbers or booleans.
/// `form::coerce` of one text field.
fn read_scalar(value: &mut Value<'_>, scalar: Scalar) {
    let Value::String(text) = value else {
        return;
    };
    let text: &Cow<'_, str> = text;
    let read = match scalar {
        Scalar::Integer => text
            .parse::<i64>()
            .ok()
            .map(serde_json::Number::from)
            .or_else(|| text.parse::<u64>().ok().map(serde_json::Number::from))
            .map(Value::Number),
        Scalar::Number => text
            .parse::<i64>()
            .ok()
            .map(serde_json::Number::from)
            .or_else(|| {
                text.parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
            })
            .map(Value::Number),
        Scalar::Boolean => match text.as_ref() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
    };
    if let Some(read) = read {
        *value = read;
    }
}
