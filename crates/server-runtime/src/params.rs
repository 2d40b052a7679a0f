//! Reading parameters: the path, the query and headers, each read as its
//! schema's type, checked against its rules and typed.
//!
//! A parameter's text is first read as JSON of the declared [`Shape`] (so
//! `take=10` is the number 10 and `ids=a&ids=b` the list `["a", "b"]`), then
//! checked by the same generated rule checks as bodies, with its place given
//! as `in` and `name`, and finally deserialized into the Rust type of the
//! handler's binding. Every broken parameter of a request is reported in one
//! 400, never only the first.

use std::borrow::Cow;

use axum::extract::RawPathParams;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::de::DeserializeOwned;

use crate::checks::{Location, Violations, describe};
use crate::errors::parameters_rejected;
use crate::json::Value;

/// The scalar types a parameter's text is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    String,
    Integer,
    Number,
    Boolean,
}

/// What a parameter's text is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Scalar(Scalar),
    /// A list: every `name=value` pair of the query (`style: form`,
    /// `explode: true`).
    List(Scalar),
}

/// Where a parameter travels (OpenAPI's `in`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum In {
    Path,
    Query,
    Header,
}

impl In {
    pub fn as_str(self) -> &'static str {
        match self {
            In::Path => "path",
            In::Query => "query",
            In::Header => "header",
        }
    }
}

/// The rule checks of a parameter's schema, as generated for bodies.
pub type Check = fn(&Value<'_>, &Location, &mut Violations);

/// The parameters of one request, read one by one; the rules they break are
/// collected and answered together by [`Parameters::finish`].
pub struct Parameters<'r> {
    path: Option<&'r RawPathParams>,
    query: Vec<(Cow<'r, str>, Cow<'r, str>)>,
    headers: &'r HeaderMap,
    violations: Violations,
}

impl Shape {
    pub const STRING: Shape = Shape::Scalar(Scalar::String);
    pub const INTEGER: Shape = Shape::Scalar(Scalar::Integer);
    pub const NUMBER: Shape = Shape::Scalar(Scalar::Number);
    pub const BOOLEAN: Shape = Shape::Scalar(Scalar::Boolean);
}

impl<'r> Parameters<'r> {
    /// The parameters of a request with these path parameters (percent-decoded
    /// by axum), query string and headers.
    pub fn new(
        path: Option<&'r RawPathParams>,
        query: Option<&'r str>,
        headers: &'r HeaderMap,
    ) -> Self {
        let query = query
            .map(|query| form_urlencoded::parse(query.as_bytes()).collect())
            .unwrap_or_default();
        Self {
            path,
            query,
            headers,
            violations: Violations::new(),
        }
    }

    /// Path parameter `name` (always required).
    pub fn path<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: Shape,
        check: Option<Check>,
    ) -> T {
        self.get(In::Path, name, shape, true, check)
    }

    /// Optional query parameter `name`: `Option<_>`, or a `Vec` for a list.
    pub fn query<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: Shape,
        check: Option<Check>,
    ) -> T {
        self.get(In::Query, name, shape, false, check)
    }

    /// Required query parameter `name`.
    pub fn required_query<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: Shape,
        check: Option<Check>,
    ) -> T {
        self.get(In::Query, name, shape, true, check)
    }

    /// Optional header `name` (in any case).
    pub fn header<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: Shape,
        check: Option<Check>,
    ) -> T {
        self.get(In::Header, name, shape, false, check)
    }

    /// Required header `name` (in any case).
    pub fn required_header<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: Shape,
        check: Option<Check>,
    ) -> T {
        self.get(In::Header, name, shape, true, check)
    }

    /// The 400 listing every broken parameter, if any was.
    pub fn finish(self) -> Result<(), Response> {
        if self.violations.is_empty() {
            Ok(())
        } else {
            Err(parameters_rejected(self.violations))
        }
    }

    /// Reads parameter `name` in `location` as `shape`, checks it and types
    /// it. A broken or missing required parameter is recorded and gives
    /// `T::default()`, never used: [`Parameters::finish`] answers 400. An
    /// optional parameter is typed `Option<_>` (a list, `Vec<_>`): absent, it
    /// is `None` (or empty).
    fn get<T: DeserializeOwned + Default>(
        &mut self,
        location: In,
        name: &'static str,
        shape: Shape,
        required: bool,
        check: Option<Check>,
    ) -> T {
        let out = &mut self.violations;
        let at = Location::Parameter(location.as_str(), name);
        let texts = Self::texts(self.path, &self.query, self.headers, location, name);
        if texts.is_empty() {
            if required {
                out.add(&at, "required", format!("{} is required", describe(&at)));
                return T::default();
            }
            let absent = match shape {
                Shape::List(_) => Value::Array(Vec::new()),
                Shape::Scalar(_) => Value::Null,
            };
            return absent.deserialize_into().unwrap_or_default();
        }
        let value = match shape {
            // A repeated scalar is read by its first occurrence, as axum's
            // `Query` and most servers do.
            Shape::Scalar(scalar) => match read_scalar(&texts[0], scalar) {
                Some(value) => value,
                None => {
                    wrong_kind(&at, scalar, out);
                    return T::default();
                }
            },
            Shape::List(scalar) => {
                let mut items = Vec::with_capacity(texts.len());
                let mut broken = false;
                for (position, text) in texts.iter().enumerate() {
                    match read_scalar(text, scalar) {
                        Some(value) => items.push(value),
                        None => {
                            wrong_kind(&at.item(position), scalar, out);
                            broken = true;
                        }
                    }
                }
                if broken {
                    return T::default();
                }
                Value::Array(items)
            }
        };
        if let Some(check) = check {
            let before = out.len();
            check(&value, &at, out);
            if out.len() > before {
                return T::default();
            }
        }
        value.deserialize_into().unwrap_or_else(|| {
            // The shape and the binding's type come from one schema; what
            // still fails (an integer beyond `i64`) is the client's to fix.
            out.add(
                &at,
                "type",
                format!("{} is out of range for its type", describe(&at)),
            );
            T::default()
        })
    }

    /// Every text given for the parameter, in order.
    fn texts(
        path: Option<&'r RawPathParams>,
        query: &[(Cow<'r, str>, Cow<'r, str>)],
        headers: &'r HeaderMap,
        location: In,
        name: &str,
    ) -> Vec<Cow<'r, str>> {
        match location {
            In::Path => path
                .and_then(|path| path.iter().find(|(key, _)| *key == name))
                .map(|(_, value)| vec![Cow::Owned(value.to_string())])
                .unwrap_or_default(),
            In::Query => query
                .iter()
                .filter(|(key, _)| key == name)
                .map(|(_, value)| value.clone())
                .collect(),
            In::Header => headers
                .get_all(name)
                .iter()
                .filter_map(|value| value.to_str().ok())
                .map(Cow::Borrowed)
                .collect(),
        }
    }
}

fn read_scalar<'r>(text: &Cow<'r, str>, scalar: Scalar) -> Option<Value<'r>> {
    match scalar {
        Scalar::String => Some(Value::String(text.clone())),
        Scalar::Integer => text
            .parse::<i64>()
            .ok()
            .map(|number| Value::Number(number.into()))
            .or_else(|| {
                text.parse::<u64>()
                    .ok()
                    .map(|number| Value::Number(number.into()))
            }),
        Scalar::Number => text
            .parse::<f64>()
            .ok()
            .filter(|number| number.is_finite())
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number),
        Scalar::Boolean => match text.as_ref() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
    }
}

fn wrong_kind(at: &Location, scalar: Scalar, out: &mut Violations) {
    let expected = match scalar {
        Scalar::String => "a string",
        Scalar::Integer => "an integer",
        Scalar::Number => "a number",
        Scalar::Boolean => "`true` or `false`",
    };
    out.add(at, "type", format!("{} must be {expected}", describe(at)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    /// Each violation as (parameter, code, detail).
    type Found<'a> = Vec<(Option<(&'static str, String)>, &'a str, String)>;

    fn details(violations: &Violations) -> Found<'_> {
        violations
            .iter()
            .map(|v| (v.parameter.clone(), v.code, v.detail.clone()))
            .collect()
    }

    #[test]
    fn query_values_are_read_as_their_type() {
        let headers = HeaderMap::new();
        let query = "take=10&flag=true&q=a+b%21&ids=1&ids=2";
        let mut params = Parameters::new(None, Some(query), &headers);
        let take: Option<i64> = params.query("take", Shape::INTEGER, None);
        let flag: bool = params.required_query("flag", Shape::BOOLEAN, None);
        let q: String = params.required_query("q", Shape::STRING, None);
        let ids: Vec<i64> = params.query("ids", Shape::List(Scalar::Integer), None);
        let weight: Option<f64> = params.query("weight", Shape::NUMBER, None);
        let fields: Vec<String> = params.query("fields", Shape::List(Scalar::String), None);
        assert!(params.finish().is_ok());
        assert_eq!(
            (take, flag, q.as_str(), ids),
            (Some(10), true, "a b!", vec![1, 2])
        );
        assert_eq!((weight, fields), (None, Vec::<String>::new()));
    }

    #[test]
    fn every_broken_parameter_is_reported_with_in_and_name() {
        let headers = headers(&[("x-page", "two")]);
        let mut params = Parameters::new(None, Some("take=ten&ids=1&ids=x"), &headers);
        let _: Option<i64> = params.query("take", Shape::INTEGER, None);
        let _: Vec<i64> = params.query("ids", Shape::List(Scalar::Integer), None);
        let _: i64 = params.required_header("X-Page", Shape::INTEGER, None);
        let _: String = params.required_query("q", Shape::STRING, None);
        let found = details(&params.violations);
        let expected: Found = vec![
            (
                Some(("query", "take".into())),
                "type",
                "query parameter 'take' must be an integer".into(),
            ),
            (
                Some(("query", "ids".into())),
                "type",
                "query parameter 'ids[1]' must be an integer".into(),
            ),
            (
                Some(("header", "X-Page".into())),
                "type",
                "header parameter 'X-Page' must be an integer".into(),
            ),
            (
                Some(("query", "q".into())),
                "required",
                "query parameter 'q' is required".into(),
            ),
        ];
        assert_eq!(found, expected);
        assert!(params.violations.iter().all(|v| v.pointer.is_empty()));
        let response = params.finish().unwrap_err();
        assert_eq!(response.status(), axum::http::StatusCode::BAD_REQUEST);
    }

    #[test]
    fn the_schema_rules_are_checked_on_the_typed_value() {
        fn take_rules(value: &Value<'_>, at: &Location, out: &mut Violations) {
            if let Some(number) = checks::expect_integer(value, at, out) {
                checks::minimum(number, 1.0, at, out);
            }
        }
        let headers = HeaderMap::new();
        let mut params = Parameters::new(None, Some("take=0"), &headers);
        let take: Option<i64> = params.query("take", Shape::INTEGER, Some(take_rules));
        assert_eq!(take, None);
        assert_eq!(
            details(&params.violations),
            vec![(
                Some(("query", "take".into())),
                "minimum",
                "query parameter 'take' must be at least 1".to_string()
            )]
        );
    }

    #[test]
    fn a_number_too_large_for_its_type_is_refused_not_wrapped() {
        let headers = HeaderMap::new();
        let mut params = Parameters::new(None, Some("take=99999999999999999999"), &headers);
        let take: Option<i64> = params.query("take", Shape::INTEGER, None);
        assert_eq!(take, None);
        assert_eq!(params.violations.len(), 1);
    }
}
