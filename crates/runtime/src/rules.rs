//! The rules a request body (or a parameter) must satisfy, as the
//! generator's model lowers them from the spec's schemas: one tree of
//! [`Check`]s per schema. The model builds these values, the generated
//! server holds them (written out as expressions, in statics), and the mock
//! holds the model's own; with the `server` feature, [`Check::run`] applies
//! them, the one reading of the tree both share.
//!
//! Like [`crate::wire`], this needs nothing but the standard library: the
//! generator depends on it without features. What a rule compiles on first
//! use (a pattern's automaton, an `enum`'s values read as JSON) is kept in
//! the rule, behind the `server` feature.

#[cfg(feature = "server")]
mod run;

#[cfg(feature = "server")]
pub use run::Schemas;

/// The checks of one named schema. An API's validators are listed by
/// name, in order, so that [`Check::Schema`] finds its own by a binary
/// search.
#[derive(Debug, Clone, PartialEq)]
pub struct Validator {
    /// The component schema's name.
    pub schema: String,
    pub check: Check,
}

impl Validator {
    /// The checks of `schema` among `validators`, sorted by name as the
    /// generator lists them.
    pub fn find<'a>(validators: &'a [Validator], schema: &str) -> Option<&'a Check> {
        validators
            .binary_search_by(|validator| validator.schema.as_str().cmp(schema))
            .ok()
            .map(|index| &validators[index].check)
    }
}

/// What a value must satisfy.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Check {
    /// Anything goes.
    #[default]
    Any,
    /// Nothing goes: a `false` schema (`not: {}` once lowered).
    Never,
    /// The checks of a named schema, found by name (the model's, the
    /// mock's).
    Schema(String),
    /// The checks of a named schema, linked (the generated server's): its
    /// static, so a crate compiles only the schemas its operations reach.
    Linked(Link),
    /// Every one of these.
    All(Vec<Check>),
    Object(ObjectCheck),
    Array(ArrayCheck),
    String(StringCheck),
    Number(NumberCheck),
    Boolean,
    /// The inner object, array, string or number check, applied only to a
    /// value of that JSON type: keywords written without a `type` (an
    /// `allOf` part `{maxLength: 255}`, an `anyOf` of `{required: [..]}`)
    /// constrain the values they are about and let the others through.
    IfType(Box<Check>),
    /// `enum` (or a lowered `const`) with values other than strings: equal,
    /// as JSON, to one of these (`1` and `1.0` are one number). The values
    /// pin the value, so no other rule of its type is checked.
    Values(Values),
    /// `not`: the value must fail `check`.
    Not(Box<Check>),
    /// `if`/`then`/`else`: `then` when the value passes `condition`, else
    /// `otherwise`.
    Conditional {
        condition: Box<Check>,
        then: Box<Check>,
        otherwise: Box<Check>,
    },
    /// `unevaluatedProperties`: the properties of an object that none of
    /// the schema's keywords (its own and those of the subschemas it
    /// applies and the value passes) evaluated must pass `rest`.
    UnevaluatedProperties {
        evaluated: Evaluated,
        rest: Additional,
    },
    /// `unevaluatedItems`, as [`Check::UnevaluatedProperties`] for the items
    /// of a list.
    UnevaluatedItems {
        evaluated: Evaluated,
        rest: Additional,
    },
    /// A `oneOf` with a discriminator: the property's value picks the schema.
    Discriminated {
        property: String,
        /// Discriminator value and the checks of the schema it selects
        /// ([`Check::Schema`] or [`Check::Linked`]), in spec order.
        mapping: Vec<(String, Check)>,
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

/// A named schema's checks as generated code holds them: a function
/// returning its static.
#[derive(Clone, Copy)]
pub struct Link(pub fn() -> &'static Check);

impl Link {
    pub fn get(self) -> &'static Check {
        (self.0)()
    }
}

impl PartialEq for Link {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.get(), other.get())
    }
}

impl std::fmt::Debug for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the checks: a schema may link to itself.
        f.write_str("Link(..)")
    }
}

/// A list of names, as generated code writes one.
pub fn names(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| name.to_string()).collect()
}

/// Which properties of an object (or items of a list) the keywords beside
/// an `unevaluated*` keyword evaluated, as JSON Schema 2020-12 collects
/// them: from the schema itself, its `allOf` parts and `$ref`s always, from
/// an `anyOf`/`oneOf` variant, an `if`/`then`/`else` branch or a
/// `dependentSchemas` entry only when it applies to the value.
#[derive(Debug, Clone, PartialEq)]
pub enum Evaluated {
    /// Every property or item (`additionalProperties`, `items`, a nested
    /// `unevaluated*`).
    Everything,
    /// Properties by name (`properties`).
    Names(Vec<String>),
    /// Properties whose name matches one of these patterns
    /// (`patternProperties`).
    Patterns(Vec<PatternRule>),
    /// The first items (`prefixItems`).
    Prefix(usize),
    /// The items passing this check (`contains`).
    Matching(Box<Check>),
    /// What `evaluated` names, when the value (the object or list itself)
    /// passes `condition`.
    When {
        condition: Box<Check>,
        evaluated: Box<Evaluated>,
    },
    /// Everything any of these names.
    Union(Vec<Evaluated>),
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObjectCheck {
    pub required: Vec<String>,
    /// Declared properties with checks, in spec order.
    pub properties: Vec<(String, Check)>,
    /// Every declared property name, for `additionalProperties`.
    pub known: Vec<String>,
    /// `patternProperties`: each pattern with the check of the properties
    /// whose name it matches; every pattern is listed, since
    /// `additionalProperties` skips the names they match.
    pub patterns: Vec<(PatternRule, Check)>,
    pub additional: Additional,
    pub min_properties: Option<usize>,
    pub max_properties: Option<usize>,
    /// `propertyNames`: the check every property name (as a string) passes.
    pub property_names: Option<Box<Check>>,
    /// `dependentRequired`: when the first property is present, the others
    /// must be too.
    pub dependent_required: Vec<(String, Vec<String>)>,
    /// `dependentSchemas`: when the property is present, the object passes
    /// the check.
    pub dependent_schemas: Vec<(String, Check)>,
}

/// What `additionalProperties` (or an `unevaluated*` keyword) says of the
/// properties or items it is about.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Additional {
    #[default]
    Allowed,
    Forbidden,
    Checked(Box<Check>),
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArrayCheck {
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    /// `prefixItems`: the checks of the first items, by position.
    pub prefix: Vec<Check>,
    /// The check of every item after the `prefix`.
    pub items: Box<Check>,
    /// `uniqueItems: true`: no two items are equal (as JSON).
    pub unique: bool,
    /// JSON Schema's `contains` (with `minContains`/`maxContains`).
    pub contains: Option<Contains>,
}

/// How many items must pass `check`: at least `min` (1 unless
/// `minContains` says otherwise), at most `max`.
#[derive(Debug, Clone, PartialEq)]
pub struct Contains {
    pub check: Box<Check>,
    pub min: usize,
    pub max: Option<usize>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct StringCheck {
    /// The `enum` values; lengths are not checked when set, since the values
    /// pin the exact text.
    pub allowed: Option<Vec<String>>,
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    pub format: Option<String>,
    pub pattern: Option<PatternRule>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct NumberCheck {
    pub integer: bool,
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
    /// `multipleOf`: a positive number the value divided by is an integer.
    pub multiple_of: Option<f64>,
    /// An integer `format` (`int32`, ...) with its range, checked like a
    /// bound before typing: the types crate's type need not hold it, a
    /// parameter is read as `i64` whatever its format, multipart parts are
    /// never typed, and the mock reads no types.
    pub format: Option<IntegerFormat>,
}

/// An integer `format` and the range of the Rust type it is read as.
#[derive(Debug, Clone, PartialEq)]
pub struct IntegerFormat {
    pub name: String,
    pub min: i128,
    pub max: i128,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    pub value: f64,
    pub exclusive: bool,
    /// The bound as the spec writes it where it is an integer past 2^53,
    /// which `value` cannot hold exactly (`maximum: 18014398509481983`):
    /// integers are then compared with it exactly.
    pub exact: Option<i128>,
}

/// A `pattern` (ECMA-262, not anchored; the generator checked that it
/// compiles), with its spelling in the syntax of the `regex` crate where the
/// generator proved both mean the same, and, with the `server` feature, the
/// automaton compiled on first use.
pub struct PatternRule {
    source: String,
    translated: Option<String>,
    #[cfg(feature = "server")]
    compiled: std::sync::OnceLock<crate::checks::Pattern>,
}

impl PatternRule {
    pub fn new(source: impl Into<String>, translated: Option<String>) -> Self {
        PatternRule {
            source: source.into(),
            translated,
            #[cfg(feature = "server")]
            compiled: std::sync::OnceLock::new(),
        }
    }

    /// The pattern as the spec writes it.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Its spelling for the `regex` crate, when it has one.
    pub fn translated(&self) -> Option<&str> {
        self.translated.as_deref()
    }
}

impl Clone for PatternRule {
    fn clone(&self) -> Self {
        PatternRule::new(self.source.clone(), self.translated.clone())
    }
}

impl PartialEq for PatternRule {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source && self.translated == other.translated
    }
}

impl std::fmt::Debug for PatternRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternRule")
            .field("source", &self.source)
            .field("translated", &self.translated)
            .finish()
    }
}

/// The values of an `enum` (or `const`) that are not all strings, as JSON
/// texts, and, with the `server` feature, read as JSON on first use.
pub struct Values {
    texts: Vec<String>,
    #[cfg(feature = "server")]
    table: std::sync::OnceLock<crate::checks::AllowedValues>,
}

impl Values {
    /// `texts`: each value's JSON text (the generator writes them from the
    /// spec's values).
    pub fn new(texts: Vec<String>) -> Self {
        Values {
            texts,
            #[cfg(feature = "server")]
            table: std::sync::OnceLock::new(),
        }
    }

    /// Each value's JSON text, in spec order.
    pub fn texts(&self) -> &[String] {
        &self.texts
    }
}

impl Clone for Values {
    fn clone(&self) -> Self {
        Values::new(self.texts.clone())
    }
}

impl PartialEq for Values {
    fn eq(&self, other: &Self) -> bool {
        self.texts == other.texts
    }
}

impl std::fmt::Debug for Values {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Values").field(&self.texts).finish()
    }
}

impl Check {
    /// Whether the check accepts every value.
    pub fn is_any(&self) -> bool {
        matches!(self, Check::Any)
    }

    /// Whether the check accepts `null` alone (a bare `nullable`, 3.1's
    /// `{type: "null"}` once lowered).
    pub fn is_only_null(&self) -> bool {
        matches!(self, Check::Nullable(inner) if **inner == Check::Never)
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
                    && string.pattern.is_none()
            }
            Check::Number(number) => {
                number.minimum.is_none()
                    && number.maximum.is_none()
                    && number.multiple_of.is_none()
                    && number.format.is_none()
            }
            Check::Array(array) => {
                array.min_items.is_none()
                    && array.max_items.is_none()
                    && array.contains.is_none()
                    && !array.unique
                    && array.prefix.iter().all(Check::is_type_only)
                    && array.items.is_type_only()
            }
            Check::Object(object) => *object == ObjectCheck::default(),
            _ => false,
        }
    }

    /// The checks directly inside this one.
    pub fn children(&self) -> Vec<&Check> {
        let mut children = Vec::new();
        match self {
            Check::Any
            | Check::Never
            | Check::Schema(_)
            | Check::Linked(_)
            | Check::String(_)
            | Check::Number(_)
            | Check::Boolean
            | Check::Values(_) => {}
            Check::Discriminated { mapping, .. } => {
                children.extend(mapping.iter().map(|(_, check)| check))
            }
            Check::All(checks)
            | Check::Alternatives {
                variants: checks, ..
            } => children.extend(checks),
            Check::Object(object) => {
                children.extend(object.properties.iter().map(|(_, check)| check));
                children.extend(object.patterns.iter().map(|(_, check)| check));
                children.extend(object.dependent_schemas.iter().map(|(_, check)| check));
                children.extend(object.property_names.as_deref());
                if let Additional::Checked(check) = &object.additional {
                    children.push(check);
                }
            }
            Check::Array(array) => {
                children.extend(&array.prefix);
                children.push(&array.items);
                if let Some(contains) = &array.contains {
                    children.push(&contains.check);
                }
            }
            Check::Conditional {
                condition,
                then,
                otherwise,
            } => children.extend([&**condition, then, otherwise]),
            Check::UnevaluatedProperties { evaluated, rest }
            | Check::UnevaluatedItems { evaluated, rest } => {
                evaluated.checks(&mut children);
                if let Additional::Checked(check) = rest {
                    children.push(check);
                }
            }
            Check::WithMessage { check, .. }
            | Check::Nullable(check)
            | Check::IfType(check)
            | Check::Not(check) => children.push(check),
        }
        children
    }

    /// The largest `maxLength` of the strings this check allows, named
    /// schemas it calls not included.
    pub fn largest_max_length(&self) -> Option<usize> {
        let own = match self {
            Check::String(string) if string.allowed.is_none() => string.max_length,
            _ => None,
        };
        self.children()
            .into_iter()
            .filter_map(Check::largest_max_length)
            .chain(own)
            .max()
    }

    /// Adds the names of the schemas this check calls to `out`.
    pub fn schemas(&self, out: &mut Vec<String>) {
        match self {
            Check::Schema(name) => out.push(name.clone()),
            check => check
                .children()
                .into_iter()
                .for_each(|child| child.schemas(out)),
        }
    }
}

impl Evaluated {
    /// Whether nothing is evaluated, whatever the value.
    pub fn is_nothing(&self) -> bool {
        matches!(self, Evaluated::Union(parts) if parts.is_empty())
    }

    /// Adds the checks this reads to `out`.
    pub fn checks<'a>(&'a self, out: &mut Vec<&'a Check>) {
        match self {
            Evaluated::Everything
            | Evaluated::Names(_)
            | Evaluated::Patterns(_)
            | Evaluated::Prefix(_) => {}
            Evaluated::Matching(check) => out.push(check),
            Evaluated::When {
                condition,
                evaluated,
            } => {
                out.push(condition);
                evaluated.checks(out);
            }
            Evaluated::Union(parts) => parts.iter().for_each(|part| part.checks(out)),
        }
    }
}

impl IntegerFormat {
    /// The range of an integer `format` (`int8` to `uint64`, typify's
    /// names): checked whatever type typify picks, which follows the bounds
    /// over the format where they disagree (`{format: uint8, maximum:
    /// 1000}` is an `i64`), since the spec asks both.
    pub fn of(name: &str) -> Option<Self> {
        let (min, max): (i128, i128) = match name {
            "int8" => (i8::MIN.into(), i8::MAX.into()),
            "uint8" => (0, u8::MAX.into()),
            "int16" => (i16::MIN.into(), i16::MAX.into()),
            "uint16" => (0, u16::MAX.into()),
            "int" | "int32" => (i32::MIN.into(), i32::MAX.into()),
            "uint" | "uint32" => (0, u32::MAX.into()),
            "int64" => (i64::MIN.into(), i64::MAX.into()),
            "uint64" => (0, u64::MAX.into()),
            _ => return None,
        };
        Some(IntegerFormat {
            name: name.to_string(),
            min,
            max,
        })
    }
}
