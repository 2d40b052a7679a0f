//! What a generated types crate calls: the shared functions of the serde
//! impls the generator writes out instead of deriving, and the switch that
//! lets the generated server type a request body it has already checked.
//!
//! The types crate re-exports this module as its hidden `__checked`, so
//! its impls name `crate::__checked::field` and the server
//! `types::__checked::assume_checked`. Every function here is generic and
//! small: each field's read is one call, instantiated once per field type
//! in the crate that calls it, where serde's derive writes the same steps
//! out inline for every field of every struct (most of a large types
//! crate's compile time).
//!
//! The impls keep serde's behaviour: the same messages for a missing,
//! duplicate or unknown field, `Option`s absent as `None`, the same
//! `deserialize_enum` call and variant indices, the same fields written in
//! the same order with the same length.

use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, VariantAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

thread_local! {
    static CHECKED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `typing` with constrained-string newtypes taking their text
/// without checking it again. Only sound where every string `typing` reads
/// was checked against its newtype's rules: the generated server calls it
/// on a body its validator (compiled from the same schemas) found no fault
/// with, so a string's lengths and `pattern` are checked once, not twice.
/// Client code never calls it, so everything else deserializes with every
/// check.
pub fn assume_checked<R>(typing: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            CHECKED.with(|checked| checked.set(self.0));
        }
    }
    let _restore = Restore(CHECKED.with(|checked| checked.replace(true)));
    typing()
}

/// Whether the text being deserialized was checked already.
pub fn assumed() -> bool {
    CHECKED.with(Cell::get)
}

/// A constrained string's `Deserialize`, one function for every such
/// newtype: its text, checked by its `FromStr` unless [`assume_checked`]
/// runs, when `unchecked` wraps it as it is.
pub fn text<'de, T, D>(deserializer: D, unchecked: fn(String) -> T) -> Result<T, D::Error>
where
    T: FromStr<Err: fmt::Display>,
    D: Deserializer<'de>,
{
    let text = String::deserialize(deserializer)?;
    if assumed() {
        return Ok(unchecked(text));
    }
    text.parse().map_err(de::Error::custom)
}

/// Whether `value` matches the ECMA-262 pattern `source`, compiled once
/// into `cell`: one function for every constrained string's pattern, where
/// each would otherwise instantiate a `LazyLock` of its own.
///
/// # Panics
///
/// When `source` does not compile: the generator checks every pattern
/// before it writes one.
#[cfg(feature = "patterns")]
pub fn matches(
    cell: &'static std::sync::OnceLock<regress::Regex>,
    source: &str,
    value: &str,
) -> bool {
    cell.get_or_init(|| regress::Regex::new(source).expect("the generator checked the pattern"))
        .find(value)
        .is_some()
}

/// A struct's field name or an enum's variant name read as its index in
/// `names`, with serde's messages; a field the struct ignores is
/// `usize::MAX`.
pub struct Identifier {
    names: &'static [&'static str],
    kind: IdentifierKind,
}

#[derive(Clone, Copy, PartialEq)]
enum IdentifierKind {
    Field { deny: bool },
    Variant,
}

impl Identifier {
    /// A field of a struct whose `names` are its fields; `deny`: an unknown
    /// one is an error.
    pub fn field(names: &'static [&'static str], deny: bool) -> Self {
        Identifier {
            names,
            kind: IdentifierKind::Field { deny },
        }
    }

    fn what(&self) -> &'static str {
        match self.kind {
            IdentifierKind::Field { .. } => "field",
            IdentifierKind::Variant => "variant",
        }
    }

    fn unknown<E: de::Error>(&self, value: &str) -> Result<usize, E> {
        match self.kind {
            IdentifierKind::Field { deny: false } => Ok(usize::MAX),
            IdentifierKind::Field { deny: true } => Err(E::unknown_field(value, self.names)),
            IdentifierKind::Variant => Err(E::unknown_variant(value, self.names)),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Identifier {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for Identifier {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} identifier", self.what())
    }
    fn visit_u64<E: de::Error>(self, value: u64) -> Result<usize, E> {
        match usize::try_from(value) {
            Ok(index) if index < self.names.len() => Ok(index),
            _ if self.kind == (IdentifierKind::Field { deny: false }) => Ok(usize::MAX),
            _ => Err(E::invalid_value(
                de::Unexpected::Unsigned(value),
                &format!("{} index 0 <= i < {}", self.what(), self.names.len()).as_str(),
            )),
        }
    }
    fn visit_str<E: de::Error>(self, value: &str) -> Result<usize, E> {
        match self.names.iter().position(|name| *name == value) {
            Some(index) => Ok(index),
            None => self.unknown(value),
        }
    }
    fn visit_bytes<E: de::Error>(self, value: &[u8]) -> Result<usize, E> {
        match self.names.iter().position(|name| name.as_bytes() == value) {
            Some(index) => Ok(index),
            None => self.unknown(&String::from_utf8_lossy(value)),
        }
    }
}

/// A `DateTime<Utc>` field written as chrono's own `Serialize` writes it
/// (RFC 3339, `Z`, as many digits of the second as it needs), but formatted
/// into one string first: chrono hands the serializer a `Display`, whose
/// pieces serde_json escapes one by one, several times the work.
#[cfg(feature = "timestamps")]
pub struct Rfc3339<'a>(pub &'a chrono::DateTime<chrono::Utc>);

#[cfg(feature = "timestamps")]
impl Serialize for Rfc3339<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true))
    }
}

/// A struct being serialized: its fields written one call each, the first
/// error kept (nothing more is written after it) and returned by
/// [`Object::end`].
pub struct Object<S: SerializeStruct> {
    state: S,
    error: Option<S::Error>,
}

impl<S: SerializeStruct> Object<S> {
    /// Starts the struct `name` of `fields` fields, those `skipped` true
    /// left out of its length.
    pub fn new<Z>(
        serializer: Z,
        name: &'static str,
        fields: usize,
        skipped: &[bool],
    ) -> Result<Self, S::Error>
    where
        Z: Serializer<SerializeStruct = S, Ok = S::Ok, Error = S::Error>,
    {
        let len = fields - skipped.iter().filter(|skip| **skip).count();
        Ok(Object {
            state: serializer.serialize_struct(name, len)?,
            error: None,
        })
    }

    pub fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) {
        if self.error.is_none() {
            self.error = self.state.serialize_field(name, value).err();
        }
    }

    /// A field with `skip_serializing_if`, `skip` its answer.
    pub fn field_unless<T: Serialize + ?Sized>(
        &mut self,
        skip: bool,
        name: &'static str,
        value: &T,
    ) {
        if !skip {
            self.field(name, value);
        } else if self.error.is_none() {
            self.error = self.state.skip_field(name).err();
        }
    }

    pub fn end(self) -> Result<S::Ok, S::Error> {
        match self.error {
            Some(error) => Err(error),
            None => self.state.end(),
        }
    }
}

/// Reads a field's value into `slot`; a second one is an error.
pub fn field<'de, T: Deserialize<'de>, M: MapAccess<'de>>(
    slot: &mut Option<T>,
    name: &'static str,
    map: &mut M,
) -> Result<(), M::Error> {
    if slot.is_some() {
        return Err(<M::Error as de::Error>::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// Skips the value of a field the struct does not know.
pub fn ignore<'de, M: MapAccess<'de>>(map: &mut M) -> Result<(), M::Error> {
    map.next_value::<de::IgnoredAny>().map(drop)
}

/// A required field's value: absent, an error, except that an `Option` is
/// `None` (as serde's derive reads it).
pub fn required<'de, T: Deserialize<'de>, E: de::Error>(
    slot: Option<T>,
    name: &'static str,
) -> Result<T, E> {
    match slot {
        Some(value) => Ok(value),
        None => T::deserialize(Missing(name, PhantomData)),
    }
}

struct Missing<E>(&'static str, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for Missing<E> {
    type Error = E;
    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The index in `variants` of a unit variant of the enum `name`, read as
/// serde's derive reads it.
pub fn unit_variant<'de, D: Deserializer<'de>>(
    deserializer: D,
    name: &'static str,
    variants: &'static [&'static str],
) -> Result<usize, D::Error> {
    deserializer.deserialize_enum(name, variants, UnitVariant { name, variants })
}

struct UnitVariant {
    name: &'static str,
    variants: &'static [&'static str],
}

impl<'de> Visitor<'de> for UnitVariant {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "enum {}", self.name)
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<usize, A::Error> {
        let (index, variant) = data.variant_seed(Identifier {
            names: self.variants,
            kind: IdentifierKind::Variant,
        })?;
        variant.unit_variant()?;
        Ok(index)
    }
}

/// A value of a string enum that the description did not list when the
/// crate was generated, kept as it was received: the payload of an open
/// enum's catch-all variant, so that a server adding a value is not an
/// error for every client decoding it.
///
/// Only decoding makes one. A generated enum's `FromStr` and `TryFrom`
/// accept its listed values only, so a request can carry an unlisted value
/// only by sending back one it received; `Display` and `Serialize` write
/// it as received.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnknownValue(Box<str>);

impl UnknownValue {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for UnknownValue {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Serialize for UnknownValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// An open enum's `Deserialize`: the string read, as the enum's `FromStr`
/// (`listed`) reads it when it lists it, else kept whole in its catch-all
/// (`unknown`). Anything but a string is an error, with serde's message.
pub fn open_enum<'de, D, T, E>(
    deserializer: D,
    name: &'static str,
    listed: fn(&str) -> Result<T, E>,
    unknown: fn(UnknownValue) -> T,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    deserializer.deserialize_str(OpenEnum {
        name,
        listed,
        unknown,
    })
}

struct OpenEnum<T, E> {
    name: &'static str,
    listed: fn(&str) -> Result<T, E>,
    unknown: fn(UnknownValue) -> T,
}

impl<'de, T, E> Visitor<'de> for OpenEnum<T, E> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "enum {}", self.name)
    }
    fn visit_str<R: de::Error>(self, value: &str) -> Result<T, R> {
        Ok((self.listed)(value).unwrap_or_else(|_| (self.unknown)(UnknownValue(value.into()))))
    }
}

/// A discriminated union's value, read whole: [`discriminated`] chose the
/// variant, and [`Variant::read`] types it.
pub struct Variant(serde_json::Value);

impl Variant {
    /// The value as the chosen variant's type.
    pub fn read<T: serde::de::DeserializeOwned, E: de::Error>(self) -> Result<T, E> {
        T::deserialize(self.0).map_err(E::custom)
    }
}

/// A discriminated union's `Deserialize`: the object read whole, and the
/// index in `values` of its `property`'s value, which decides the variant
/// (an untagged union would take the first variant that decodes, which is
/// the wrong one where two share a shape). A value of no variant, or none,
/// is an error naming the property and the values allowed.
pub fn discriminated<'de, D: Deserializer<'de>>(
    deserializer: D,
    union: &'static str,
    property: &'static str,
    values: &'static [&'static str],
) -> Result<(usize, Variant), D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    let serde_json::Value::Object(object) = &value else {
        return Err(de::Error::invalid_type(
            unexpected(&value),
            &format!("an object of {union}").as_str(),
        ));
    };
    let Some(found) = object.get(property) else {
        return Err(de::Error::custom(format_args!(
            "missing field `{property}`, the discriminator of {union} (one of {})",
            values.join(", ")
        )));
    };
    match found
        .as_str()
        .and_then(|found| values.iter().position(|value| *value == found))
    {
        Some(index) => Ok((index, Variant(value))),
        None => Err(de::Error::custom(format_args!(
            "`{property}` is {found}, which names no variant of {union}: expected one of {}",
            values.join(", ")
        ))),
    }
}

fn unexpected(value: &serde_json::Value) -> de::Unexpected<'_> {
    match value {
        serde_json::Value::Null => de::Unexpected::Unit,
        serde_json::Value::Bool(value) => de::Unexpected::Bool(*value),
        serde_json::Value::Number(_) => de::Unexpected::Other("a number"),
        serde_json::Value::String(value) => de::Unexpected::Str(value),
        serde_json::Value::Array(_) => de::Unexpected::Seq,
        serde_json::Value::Object(_) => de::Unexpected::Map,
    }
}

/// A discriminated union's variant written: its fields, with `property`
/// set to the variant's first value unless it holds another of `values`
/// (the variant's type may leave the property a plain string).
pub fn with_discriminator<T: Serialize, S: Serializer>(
    variant: &T,
    property: &'static str,
    values: &'static [&'static str],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut value = serde_json::to_value(variant).map_err(serde::ser::Error::custom)?;
    if let serde_json::Value::Object(object) = &mut value {
        let holds_one = object
            .get(property)
            .and_then(serde_json::Value::as_str)
            .is_some_and(|held| values.contains(&held));
        if !holds_one && let Some(first) = values.first() {
            object.insert(property.to_string(), serde_json::Value::from(*first));
        }
    }
    value.serialize(serializer)
}

#[cfg(test)]
mod tests {
    //! A struct and an enum with impls written as the generator writes
    //! them, read and written beside serde's derive of the same types.

    use super::*;

    #[cfg(feature = "timestamps")]
    #[test]
    fn a_timestamp_is_written_as_chronos_serde_writes_it() {
        use chrono::{TimeZone, Utc};
        let second = Utc.with_ymd_and_hms(2024, 2, 29, 23, 59, 59).unwrap();
        let nanos = [0, 120_000_000, 123_456_000, 123_456_789, 1];
        let mut times: Vec<chrono::DateTime<Utc>> = nanos
            .iter()
            .map(|nano| second + chrono::Duration::nanoseconds(*nano))
            .collect();
        times.push(Utc.with_ymd_and_hms(1, 1, 1, 0, 0, 0).unwrap());
        times.push(Utc.with_ymd_and_hms(9999, 12, 31, 23, 59, 59).unwrap());
        times.push(Utc.with_ymd_and_hms(10000, 1, 1, 0, 0, 0).unwrap());
        times.push(Utc.with_ymd_and_hms(-1, 1, 1, 0, 0, 0).unwrap());
        // A leap second, which chrono keeps as a nanosecond past 10^9.
        times.push(
            chrono::NaiveDate::from_ymd_opt(2016, 12, 31)
                .unwrap()
                .and_hms_nano_opt(23, 59, 59, 1_500_000_000)
                .unwrap()
                .and_utc(),
        );
        for time in times {
            assert_eq!(
                serde_json::to_string(&Rfc3339(&time)).unwrap(),
                serde_json::to_string(&time).unwrap(),
            );
        }
    }

    #[derive(Debug, PartialEq, serde::Deserialize, serde::Serialize)]
    #[serde(deny_unknown_fields)]
    struct Derived {
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nick: Option<String>,
        count: Option<u32>,
    }

    #[derive(Debug, PartialEq)]
    struct Written {
        name: String,
        nick: Option<String>,
        count: Option<u32>,
    }

    impl<'de> Deserialize<'de> for Written {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            const FIELDS: &[&str] = &["name", "nick", "count"];
            struct WrittenVisitor;
            impl<'de> Visitor<'de> for WrittenVisitor {
                type Value = Written;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("struct Derived")
                }
                fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Written, M::Error> {
                    let (mut name, mut nick, mut count) = (None, None, None);
                    while let Some(key) = map.next_key_seed(Identifier::field(FIELDS, true))? {
                        match key {
                            0 => field(&mut name, "name", &mut map),
                            1 => field(&mut nick, "nick", &mut map),
                            2 => field(&mut count, "count", &mut map),
                            _ => ignore(&mut map),
                        }?;
                    }
                    Ok(Written {
                        name: required(name, "name")?,
                        nick: nick.unwrap_or_default(),
                        count: count.flatten(),
                    })
                }
            }
            deserializer.deserialize_struct("Derived", FIELDS, WrittenVisitor)
        }
    }

    impl Serialize for Written {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let skipped = [false, self.nick.is_none(), false];
            let mut object = Object::new(serializer, "Derived", 3, &skipped)?;
            object.field("name", &self.name);
            object.field_unless(skipped[1], "nick", &self.nick);
            object.field("count", &self.count);
            object.end()
        }
    }

    /// Both readings of `json`: the values (as text) or the messages.
    fn read_both(json: &str) -> (Result<String, String>, Result<String, String>) {
        let derived = serde_json::from_str::<Derived>(json)
            .map(|value| format!("{} {:?} {:?}", value.name, value.nick, value.count))
            .map_err(|error| error.to_string());
        let written = serde_json::from_str::<Written>(json)
            .map(|value| format!("{} {:?} {:?}", value.name, value.nick, value.count))
            .map_err(|error| error.to_string());
        (derived, written)
    }

    #[test]
    fn written_impls_read_as_serde_derives() {
        for json in [
            r#"{"name": "a"}"#,
            r#"{"name": "a", "nick": "b", "count": 3}"#,
            r#"{"name": "a", "count": null}"#,
            r#"{"nick": "b"}"#,
            r#"{"name": "a", "name": "b"}"#,
            r#"{"name": "a", "colour": "red"}"#,
            r#"{"name": 1}"#,
        ] {
            let (derived, written) = read_both(json);
            assert_eq!(derived, written, "{json}");
        }
        // The messages checked above are serde's own.
        let (_, missing) = read_both(r#"{"nick": "b"}"#);
        assert!(missing.unwrap_err().starts_with("missing field `name`"));
        let (_, unknown) = read_both(r#"{"name": "a", "colour": "red"}"#);
        assert!(
            unknown
                .unwrap_err()
                .starts_with("unknown field `colour`, expected one of")
        );
        // Unlike the derive, not from an array: no OpenAPI object is one.
        let (_, array) = read_both(r#"["a", null, null]"#);
        assert!(array.unwrap_err().starts_with("invalid type: sequence"));
    }

    #[test]
    fn written_impls_write_as_serde_derives() {
        for (name, nick, count) in [("a", None, None), ("a", Some("b"), Some(3))] {
            let derived = Derived {
                name: name.into(),
                nick: nick.map(Into::into),
                count,
            };
            let written = Written {
                name: name.into(),
                nick: nick.map(Into::into),
                count,
            };
            assert_eq!(
                serde_json::to_string(&derived).unwrap(),
                serde_json::to_string(&written).unwrap()
            );
        }
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    enum Colour {
        Red,
        Green,
    }

    #[test]
    fn unit_variants_read_as_serde_derives() {
        const VARIANTS: &[&str] = &["Red", "Green"];
        #[derive(Debug)]
        struct Index(usize);
        impl<'de> Deserialize<'de> for Index {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                unit_variant(deserializer, "Colour", VARIANTS).map(Index)
            }
        }
        for json in [r#""Green""#, r#""Blue""#, "3"] {
            let derived = serde_json::from_str::<Colour>(json).map_err(|e| e.to_string());
            let written = serde_json::from_str::<Index>(json).map_err(|e| e.to_string());
            match (derived, written) {
                (Ok(colour), Ok(Index(index))) => {
                    assert_eq!(VARIANTS[index], format!("{colour:?}"))
                }
                (Err(derived), Err(written)) => assert_eq!(derived, written, "{json}"),
                other => panic!("{json}: {other:?}"),
            }
        }
    }

    #[test]
    fn open_enums_keep_an_unlisted_string_and_refuse_other_types() {
        #[derive(Debug, PartialEq)]
        enum Open {
            Red,
            Other(UnknownValue),
        }
        impl<'de> Deserialize<'de> for Open {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let listed = |text: &str| match text {
                    "Red" => Ok(Open::Red),
                    _ => Err("not listed"),
                };
                open_enum(deserializer, "Colour", listed, Open::Other)
            }
        }
        let read = |json: &str| serde_json::from_str::<Open>(json);
        assert_eq!(read(r#""Red""#).unwrap(), Open::Red);
        let Open::Other(unknown) = read(r#""Blue""#).unwrap() else {
            panic!("Blue is not listed");
        };
        assert_eq!(unknown.as_str(), "Blue");
        assert_eq!(unknown.to_string(), "Blue");
        assert_eq!(serde_json::to_string(&unknown).unwrap(), r#""Blue""#);
        let refused = read("3").unwrap_err().to_string();
        assert!(refused.starts_with("invalid type: integer `3`, expected enum Colour"));
    }

    #[test]
    fn a_discriminated_union_reads_and_writes_by_its_property() {
        #[derive(Debug, PartialEq, serde::Deserialize, serde::Serialize)]
        struct Pet {
            #[serde(rename = "type")]
            kind: String,
            name: String,
        }
        #[derive(Debug, PartialEq)]
        enum Union {
            Cat(Pet),
            Dog(Pet),
        }
        const VALUES: &[&str] = &["cat", "dog"];
        impl<'de> Deserialize<'de> for Union {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let (index, variant) = discriminated(deserializer, "Union", "type", VALUES)?;
                Ok(match index {
                    0 => Union::Cat(variant.read()?),
                    _ => Union::Dog(variant.read()?),
                })
            }
        }
        let dog = serde_json::from_str::<Union>(r#"{"type":"dog","name":"Rex"}"#).unwrap();
        assert!(matches!(dog, Union::Dog(ref pet) if pet.name == "Rex"));
        let bird = serde_json::from_str::<Union>(r#"{"type":"bird","name":"Tweety"}"#);
        assert!(bird.unwrap_err().to_string().starts_with(
            "`type` is \"bird\", which names no variant of Union: expected one of cat, dog"
        ),);
        let missing = serde_json::from_str::<Union>(r#"{"name":"Rex"}"#).unwrap_err();
        assert!(
            missing.to_string().starts_with("missing field `type`"),
            "{missing}"
        );
        let list = serde_json::from_str::<Union>("[]").unwrap_err();
        assert!(
            list.to_string()
                .starts_with("invalid type: sequence, expected an object of Union"),
            "{list}"
        );

        // Written, the property holds the variant's value.
        let pet = Pet {
            kind: "parrot".into(),
            name: "Rex".into(),
        };
        let written =
            with_discriminator(&pet, "type", &["dog"], serde_json::value::Serializer).unwrap();
        assert_eq!(written, serde_json::json!({"type": "dog", "name": "Rex"}));
        let pet = Pet {
            kind: "hound".into(),
            name: "Rex".into(),
        };
        let written = with_discriminator(
            &pet,
            "type",
            &["dog", "hound"],
            serde_json::value::Serializer,
        )
        .unwrap();
        assert_eq!(written["type"], "hound");
    }

    /// A constrained string as typify writes it: its `FromStr` checks.
    #[derive(Debug)]
    struct Short(String);

    impl FromStr for Short {
        type Err = &'static str;
        fn from_str(text: &str) -> Result<Self, Self::Err> {
            if text.len() > 3 {
                return Err("longer than 3 characters");
            }
            Ok(Short(text.to_string()))
        }
    }

    impl<'de> Deserialize<'de> for Short {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            text(deserializer, Short)
        }
    }

    #[test]
    fn constrained_strings_are_checked_unless_the_server_checked_them() {
        let long = r#""abcdef""#;
        let error = serde_json::from_str::<Short>(long).unwrap_err();
        assert!(error.to_string().starts_with("longer than 3 characters"));
        let taken = assume_checked(|| serde_json::from_str::<Short>(long)).unwrap();
        assert_eq!(taken.0, "abcdef");
        // The switch is off again once the typing is done, even after a
        // panic inside it.
        assert!(!assumed());
        let _ = std::panic::catch_unwind(|| assume_checked(|| panic!("typing failed")));
        assert!(!assumed());
        assert!(serde_json::from_str::<Short>(long).is_err());
    }

    #[cfg(feature = "patterns")]
    #[test]
    fn patterns_match_as_ecma_262_does() {
        static CELL: std::sync::OnceLock<regress::Regex> = std::sync::OnceLock::new();
        // `\d` is ASCII in ECMA-262 (and in regress), not Unicode's digits.
        assert!(matches(&CELL, r"^\d+$", "123"));
        assert!(!matches(&CELL, r"^\d+$", "١٢٣"));
    }
}
