//! What a parameter is on the wire: where it travels ([`In`]), how its
//! value is written as text ([`Style`]) and what that text is read as
//! ([`Shape`]).
//!
//! These are the one definition of a parameter's serialization. The
//! generator's model lowers each parameter of a description into these
//! values once; generated servers and clients hold them as constants, and
//! the mock and `spec-diff` read them from the model as they are. A new
//! style is taught here, in the model's lowering, and in the code that reads
//! and writes it (`params` for servers, `client` for clients).
//!
//! The values borrow their names with [`Cow`], so one type serves both a
//! constant in generated code (`Cow::Borrowed`) and the model of a
//! description read at run time (`Cow::Owned`).

use std::borrow::Cow;

/// Where a parameter travels (OpenAPI's `in`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum In {
    Path,
    Query,
    Header,
    Cookie,
}

impl In {
    /// The spelling of OpenAPI's `in`.
    pub fn as_str(self) -> &'static str {
        match self {
            In::Path => "path",
            In::Query => "query",
            In::Header => "header",
            In::Cookie => "cookie",
        }
    }

    /// The style of a parameter that names none.
    pub fn default_style(self) -> Style {
        match self {
            In::Path | In::Header => Style::Simple { explode: false },
            In::Query | In::Cookie => Style::Form { explode: true },
        }
    }
}

/// OpenAPI's `style`, with `explode` where it changes the text.
///
/// A description's `style` and `explode` are lowered to the style that is
/// written: `spaceDelimited` or `pipeDelimited` exploded, and `deepObject`
/// for a list, write what exploded `form` writes, and are that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Style {
    /// `name=value`; lists repeated (`explode`) or `name=a,b`; objects as
    /// their own pairs (`explode`) or `name=k,v,..` (query, cookie).
    Form { explode: bool },
    /// `name=a%20b`; objects `name=k%20v` (query).
    SpaceDelimited,
    /// `name=a|b`; objects `name=k|v` (query).
    PipeDelimited,
    /// `name[k]=v` (query).
    DeepObject,
    /// `a,b`; objects `k,v,..` or, exploded, `k=v,..` (path, header).
    Simple { explode: bool },
    /// `.a,b` or, exploded, `.a.b`; objects `.k,v` or `.k=v.k2=v2` (path).
    Label { explode: bool },
    /// `;name=a,b` or, exploded, `;name=a;name=b`; objects `;name=k,v` or
    /// `;k=v;k2=v2` (path).
    Matrix { explode: bool },
}

impl Style {
    /// OpenAPI's name of the style (`deepObject`).
    pub fn name(self) -> &'static str {
        match self {
            Style::Form { .. } => "form",
            Style::SpaceDelimited => "spaceDelimited",
            Style::PipeDelimited => "pipeDelimited",
            Style::DeepObject => "deepObject",
            Style::Simple { .. } => "simple",
            Style::Label { .. } => "label",
            Style::Matrix { .. } => "matrix",
        }
    }

    /// Whether the style writes a list's items, or an object's entries, as
    /// pairs or segments of their own.
    pub fn explode(self) -> bool {
        match self {
            Style::Form { explode }
            | Style::Simple { explode }
            | Style::Label { explode }
            | Style::Matrix { explode } => explode,
            Style::SpaceDelimited | Style::PipeDelimited | Style::DeepObject => false,
        }
    }

    /// The delimiter between a list's items, or an object's keys and
    /// values, when they share one pair or segment.
    pub fn delimiter(self) -> &'static str {
        match self {
            Style::SpaceDelimited => "%20",
            Style::PipeDelimited => "|",
            _ => ",",
        }
    }
}

/// How one piece of text (a value, an item, an entry's value) is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scalar {
    String,
    Integer,
    Number,
    Boolean,
    /// JSON text: a `content: application/json` parameter, or a list item or
    /// an entry whose schema is itself a list or an object, which no style
    /// can write (clients write them as JSON, a widespread convention).
    Json,
}

/// What a parameter's text is read as.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Shape {
    Scalar(Scalar),
    /// A list, its items written as the [`Style`] says.
    List(Scalar),
    /// An object, its entries written as the [`Style`] says.
    Object(Entries),
}

impl Shape {
    pub const STRING: Shape = Shape::Scalar(Scalar::String);
    pub const INTEGER: Shape = Shape::Scalar(Scalar::Integer);
    pub const NUMBER: Shape = Shape::Scalar(Scalar::Number);
    pub const BOOLEAN: Shape = Shape::Scalar(Scalar::Boolean);
    pub const JSON: Shape = Shape::Scalar(Scalar::Json);

    /// Whether the text is the whole value as JSON (a parameter described
    /// with `content`).
    pub fn is_json(&self) -> bool {
        *self == Shape::JSON
    }
}

/// A name in a [`Shape`]: borrowed in generated code, owned in a model.
pub type Name = Cow<'static, str>;

/// The entries an object-valued parameter takes, and how each is read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Entries {
    /// Declared properties, in the description's order, and how each is
    /// read.
    pub properties: Cow<'static, [(Name, Scalar)]>,
    /// How other entries are read; `None` when an exploded `form` object
    /// takes only its declared properties. Other styles give every entry to
    /// the object, and one it does not declare is read as text (for the
    /// checks to refuse, if the schema says so).
    pub others: Option<Scalar>,
    /// Query (or cookie) names of the operation's other parameters, which an
    /// exploded `form` object taking other entries leaves alone (with their
    /// `name[..]` keys).
    pub except: Cow<'static, [Name]>,
}

impl Entries {
    /// How the entry `key` is read; `None` when the object does not take it.
    pub fn scalar_of(&self, key: &str) -> Option<Scalar> {
        self.properties
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, scalar)| *scalar)
            .or(self.others)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shape_is_a_constant_or_a_value_built_at_run_time() {
        static SORT: Shape = Shape::Object(Entries {
            properties: Cow::Borrowed(&[(Cow::Borrowed("field"), Scalar::String)]),
            others: None,
            except: Cow::Borrowed(&[]),
        });
        let built = Shape::Object(Entries {
            properties: Cow::Owned(vec![(Cow::Owned("field".to_string()), Scalar::String)]),
            others: None,
            except: Cow::Owned(Vec::new()),
        });
        assert_eq!(SORT, built);
        let Shape::Object(entries) = &built else {
            unreachable!()
        };
        assert_eq!(entries.scalar_of("field"), Some(Scalar::String));
        assert_eq!(entries.scalar_of("other"), None);
    }

    #[test]
    fn each_location_has_its_default_style() {
        assert_eq!(In::Query.default_style(), Style::Form { explode: true });
        assert_eq!(In::Cookie.default_style(), Style::Form { explode: true });
        assert_eq!(In::Path.default_style(), Style::Simple { explode: false });
        assert_eq!(In::Header.default_style(), Style::Simple { explode: false });
        assert!(!Style::PipeDelimited.explode());
        assert_eq!(Style::DeepObject.name(), "deepObject");
        assert_eq!(Style::SpaceDelimited.delimiter(), "%20");
    }
}
