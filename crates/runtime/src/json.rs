//! The request body as a JSON tree that borrows from the bytes it was read
//! from: strings without escapes are not copied and objects are short lists
//! of entries, not hash maps. Validation walks it, then the typed body is
//! deserialized straight from it ([`Value::deserialize_into`]).
//!
//! It reads a body exactly as `serde_json::Value` (with `preserve_order`)
//! does: numbers are `serde_json::Number`s, entries stay in document order,
//! and a repeated key keeps its first place and its last value.

use std::borrow::Cow;
use std::fmt;

use serde::de::value::{Error as PlainError, MapDeserializer, SeqDeserializer};
use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, IntoDeserializer, Visitor};
use serde_json::Number;

/// The bound of a type read from the tree, named here so that generated
/// server crates need no `serde` dependency of their own.
pub use serde::de::DeserializeOwned as Typed;

/// A JSON value borrowing its strings from the body where it can.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    Object(Object<'a>),
}

/// A JSON object: its entries in document order, each key once.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Object<'a>(Vec<(Cow<'a, str>, Value<'a>)>);

impl<'a> Object<'a> {
    pub fn new() -> Self {
        Self::default()
    }

    /// The value of property `name`.
    pub fn get(&self, name: &str) -> Option<&Value<'a>> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value)
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(key, _)| key.as_ref())
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value<'a>)> {
        self.0.iter().map(|(key, value)| (key.as_ref(), value))
    }

    /// The entries, each value open to change.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&str, &mut Value<'a>)> {
        self.0
            .iter_mut()
            .map(|entry| (entry.0.as_ref(), &mut entry.1))
    }

    pub(crate) fn get_mut(&mut self, name: &str) -> Option<&mut Value<'a>> {
        self.0
            .iter_mut()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value)
    }

    /// Takes property `name` out, with its name.
    pub(crate) fn remove(&mut self, name: &str) -> Option<(Cow<'a, str>, Value<'a>)> {
        let index = self.0.iter().position(|(key, _)| key == name)?;
        Some(self.0.remove(index))
    }

    /// Adds property `name`, which the caller knows is not there yet.
    pub(crate) fn push(&mut self, name: Cow<'a, str>, value: Value<'a>) {
        self.0.push((name, value));
    }

    /// The value of property `name`, added by `fresh` when missing.
    pub fn get_or_insert_with(
        &mut self,
        name: Cow<'a, str>,
        fresh: impl FnOnce() -> Value<'a>,
    ) -> &mut Value<'a> {
        let index = match self.0.iter().position(|(key, _)| *key == name) {
            Some(index) => index,
            None => {
                self.0.push((name, fresh()));
                self.0.len() - 1
            }
        };
        &mut self.0[index].1
    }
}

impl<'o, 'a> IntoIterator for &'o Object<'a> {
    type Item = (&'o str, &'o Value<'a>);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'o, (Cow<'a, str>, Value<'a>)>,
        fn(&'o (Cow<'a, str>, Value<'a>)) -> (&'o str, &'o Value<'a>),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(key, value)| (key.as_ref(), value))
    }
}

impl<'a> Value<'a> {
    /// Parses a JSON document, borrowing every string without escapes.
    pub fn from_slice(bytes: &'a [u8]) -> Result<Self, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&Object<'a>> {
        match self {
            Value::Object(object) => Some(object),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value<'a>]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The value as `T`, in one pass over the tree and without tracking the
    /// path; `None` when it does not fit (the caller then asks
    /// `serde_path_to_error` where, on the slow path).
    pub fn deserialize_into<T: DeserializeOwned>(&self) -> Option<T> {
        T::deserialize(self).ok()
    }

    /// The same value as a `serde_json::Value`.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(flag) => serde_json::Value::Bool(*flag),
            Value::Number(number) => serde_json::Value::Number(number.clone()),
            Value::String(text) => serde_json::Value::String(text.to_string()),
            Value::Array(items) => {
                serde_json::Value::Array(items.iter().map(Value::to_json).collect())
            }
            Value::Object(object) => serde_json::Value::Object(
                object
                    .iter()
                    .map(|(key, value)| (key.to_string(), value.to_json()))
                    .collect(),
            ),
        }
    }
}

/// An owned tree, for values built in code (tests, mostly).
impl From<serde_json::Value> for Value<'static> {
    fn from(value: serde_json::Value) -> Self {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(flag) => Value::Bool(flag),
            serde_json::Value::Number(number) => Value::Number(number),
            serde_json::Value::String(text) => Value::String(Cow::Owned(text)),
            serde_json::Value::Array(items) => {
                Value::Array(items.into_iter().map(Value::from).collect())
            }
            serde_json::Value::Object(map) => Value::Object(Object(
                map.into_iter()
                    .map(|(key, value)| (Cow::Owned(key), Value::from(value)))
                    .collect(),
            )),
        }
    }
}

// Reading: the same visits `serde_json::Value`'s own visitor answers.

impl<'de> Deserialize<'de> for Value<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value<'de>, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value<'de>, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value<'de>, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value<'de>, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Borrowed(value)))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(value.to_string())))
    }

    fn visit_string<E>(self, value: String) -> Result<Value<'de>, E> {
        Ok(Value::String(Cow::Owned(value)))
    }

    fn visit_none<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value<'de>, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value<'de>, D::Error> {
        Deserialize::deserialize(deserializer)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Value<'de>, A::Error> {
        let mut entries: Vec<(Cow<'de, str>, Value<'de>)> = Vec::new();
        while let Some(Key(key)) = map.next_key()? {
            let value = map.next_value()?;
            entries.push((key, value));
        }
        Ok(Value::Object(Object::from_entries(entries)))
    }
}

impl<'a> Object<'a> {
    /// The object of `entries` in document order; a repeated key keeps its
    /// first place and its last value. Small objects are checked pairwise,
    /// larger ones through a sorted index, so a body of many keys stays
    /// linearithmic.
    fn from_entries(entries: Vec<(Cow<'a, str>, Value<'a>)>) -> Self {
        let repeated = if entries.len() <= 16 {
            entries
                .iter()
                .enumerate()
                .any(|(index, (key, _))| entries[..index].iter().any(|(seen, _)| seen == key))
        } else {
            let mut keys: Vec<&str> = entries.iter().map(|(key, _)| key.as_ref()).collect();
            keys.sort_unstable();
            keys.windows(2).any(|pair| pair[0] == pair[1])
        };
        if !repeated {
            return Self(entries);
        }
        let mut object = Self(Vec::with_capacity(entries.len()));
        let mut places: std::collections::HashMap<String, usize> = Default::default();
        for (key, value) in entries {
            match places.get(key.as_ref()) {
                Some(&place) => object.0[place].1 = value,
                None => {
                    places.insert(key.to_string(), object.0.len());
                    object.0.push((key, value));
                }
            }
        }
        object
    }
}

/// A key, borrowed from the body when it has no escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a string key")
            }
            fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(value)))
            }
            fn visit_str<E>(self, value: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(value.to_string())))
            }
            fn visit_string<E>(self, value: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(value)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

// Typing: the tree as a deserializer, visited as `serde_json::Value`'s
// deserializer visits. Its errors carry no position: a failure sends the
// caller to the slow path, which reports it.

impl<'a> IntoDeserializer<'a, PlainError> for &'a Value<'_> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// Deserializer methods for integer types, each reading as
/// `deserialize_i64` does (the visitor checks its own range).
macro_rules! integers_as_i64 {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PlainError> {
                self.deserialize_i64(visitor)
            }
        )*
    };
}

impl<'de> Deserializer<'de> for &'de Value<'_> {
    type Error = PlainError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PlainError> {
        match self {
            Value::Null => visitor.visit_unit(),
            Value::Bool(flag) => visitor.visit_bool(*flag),
            Value::Number(number) => {
                if let Some(value) = number.as_u64() {
                    visitor.visit_u64(value)
                } else if let Some(value) = number.as_i64() {
                    visitor.visit_i64(value)
                } else {
                    visitor.visit_f64(number.as_f64().unwrap_or(f64::NAN))
                }
            }
            Value::String(text) => visitor.visit_borrowed_str(text),
            Value::Array(items) => {
                let mut seq = SeqDeserializer::new(items.iter());
                let value = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            Value::Object(object) => {
                let mut map = MapDeserializer::new(object.iter());
                let value = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(value)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PlainError> {
        match self {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, PlainError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PlainError> {
        match self {
            // A unit variant; anything else is left to the slow path.
            Value::String(text) => visitor.visit_enum(text.as_ref().into_deserializer()),
            _ => Err(de::Error::custom("not a unit variant")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PlainError> {
        visitor.visit_unit()
    }

    // JSON Schema (OpenAPI 3.1's, and every draft since 6) counts a number
    // with a zero fraction, `6.0`, as an integer, and validation lets it
    // through as one: an integer type takes it too. Other types see the
    // number as it was written.
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PlainError> {
        match self.whole_number() {
            Some(value) if value < 0.0 => visitor.visit_i64(value as i64),
            Some(value) => visitor.visit_u64(value as u64),
            None => self.deserialize_any(visitor),
        }
    }

    integers_as_i64! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i128 deserialize_u8
        deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
    }

    serde::forward_to_deserialize_any! {
        bool f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier
    }
}

impl Value<'_> {
    /// A number written with a zero fraction (`6.0`) within 64 bits.
    fn whole_number(&self) -> Option<f64> {
        const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;
        match self {
            Value::Number(number) if !number.is_i64() && !number.is_u64() => {
                number.as_f64().filter(|value| {
                    value.fract() == 0.0 && (-TWO_POW_64 / 2.0..TWO_POW_64).contains(value)
                })
            }
            _ => None,
        }
    }

    /// Whether the value is an integer as JSON Schema counts them: a number
    /// without a fraction, however it is written (`6`, `6.0`, `6e0`).
    pub fn is_integer(&self) -> bool {
        match self {
            Value::Number(number) => {
                number.is_i64()
                    || number.is_u64()
                    || number.as_f64().is_some_and(|value| value.fract() == 0.0)
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_without_escapes_are_borrowed() {
        let body = br#"{"a":"plain","b\u0041":"esc\"aped"}"#;
        let value = Value::from_slice(body).unwrap();
        let object = value.as_object().unwrap();
        assert!(matches!(
            object.get("a"),
            Some(Value::String(Cow::Borrowed("plain")))
        ));
        assert!(
            matches!(object.get("bA"), Some(Value::String(Cow::Owned(text))) if text == "esc\"aped")
        );
    }

    #[test]
    fn reads_every_document_as_serde_json_does() {
        for body in [
            r#"{"z":1,"a":[true,null,-2,3.5,18446744073709551615],"m":{"k":"v"}}"#,
            r#"{"k":1,"x":2,"k":3}"#,
            r#"[1e400]"#,
            r#""text""#,
        ] {
            let ours = Value::from_slice(body.as_bytes()).map(|value| value.to_json());
            let theirs = serde_json::from_str::<serde_json::Value>(body);
            match (ours, theirs) {
                (Ok(ours), Ok(theirs)) => {
                    assert_eq!(ours, theirs, "{body}");
                    assert_eq!(ours.to_string(), theirs.to_string(), "key order of {body}");
                }
                (Err(ours), Err(theirs)) => assert_eq!(ours.to_string(), theirs.to_string()),
                (ours, theirs) => panic!("{body}: {ours:?} against {theirs:?}"),
            }
        }
    }

    #[test]
    fn numbers_with_a_zero_fraction_are_integers() {
        let value = Value::from_slice(b"[6.0, -2.0, 1e3, 1.5, 1e20]").unwrap();
        // Written as they came...
        assert_eq!(value.to_json().to_string(), "[6.0,-2.0,1000.0,1.5,1e+20]");
        let Value::Array(items) = &value else {
            panic!("{value:?}")
        };
        // ...integers to the rules and to integer types.
        let mut violations = crate::Violations::new();
        for item in &items[..3] {
            crate::checks::expect_integer(item, &crate::Location::Body, &mut violations);
        }
        assert!(violations.is_empty());
        assert_eq!(items[0].deserialize_into::<i64>(), Some(6));
        assert_eq!(items[1].deserialize_into::<i32>(), Some(-2));
        assert_eq!(items[1].deserialize_into::<u8>(), None);
        assert_eq!(items[1].deserialize_into::<i64>(), Some(-2));
        assert_eq!(items[2].deserialize_into::<u64>(), Some(1000));
        assert_eq!(items[3].deserialize_into::<i64>(), None);
        assert_eq!(items[0].deserialize_into::<f64>(), Some(6.0));
        assert!(items[4].is_integer());
        assert_eq!(items[4].deserialize_into::<i64>(), None);
    }

    #[test]
    fn repeated_keys_keep_their_first_place_and_last_value_in_large_objects_too() {
        let mut body: String = (0..40).map(|n| format!("\"k{n}\":{n},")).collect();
        body = format!("{{{body}\"k3\":\"last\"}}");
        let ours = Value::from_slice(body.as_bytes()).unwrap().to_json();
        let theirs: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(ours.to_string(), theirs.to_string());
        assert_eq!(ours["k3"], "last");
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Typed {
        name: String,
        count: Option<u8>,
        tags: Vec<String>,
        kind: Kind,
        #[serde(default)]
        nested: Option<Box<Typed>>,
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        First,
        Second,
    }

    /// Typing from the tree never disagrees with typing from
    /// `serde_json::Value`: when it succeeds the result is the same, and it
    /// succeeds on every ordinary body (the rest take the slow path).
    #[test]
    fn typing_agrees_with_serde_json() {
        let mut fast = 0;
        for body in [
            json!({"name": "a", "count": 3, "tags": ["x"], "kind": "first"}),
            json!({"name": "a", "count": null, "tags": [], "kind": "second",
                   "nested": {"name": "b", "tags": [], "kind": "first"}}),
            json!({"name": "a", "tags": [], "kind": "first"}),
            json!({"name": "a", "count": 300, "tags": [], "kind": "first"}),
            json!({"name": "a", "count": -1, "tags": [], "kind": "first"}),
            json!({"name": "a", "count": 1.5, "tags": [], "kind": "first"}),
            json!({"name": 1, "tags": [], "kind": "first"}),
            json!({"name": "a", "tags": [], "kind": "third"}),
            json!({"name": "a", "tags": [], "kind": {"first": null}}),
            json!({"name": "a", "tags": [], "kind": "first", "extra": 1}),
            json!({"tags": [], "kind": "first"}),
            json!(["a", 1, [], "first"]),
            json!("text"),
        ] {
            let ours: Option<Typed> = Value::from(body.clone()).deserialize_into();
            let theirs: Option<Typed> = serde_json::from_value(body.clone()).ok();
            if ours.is_some() {
                fast += 1;
                assert_eq!(ours, theirs, "{body}");
            }
        }
        assert_eq!(
            fast, 4,
            "the ordinary bodies and the array form of a struct"
        );
    }
}
