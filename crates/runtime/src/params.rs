//! Reading parameters: the path, the query, headers and cookies, each read
//! as its schema's type in the style the spec gives it, checked against its
//! rules and typed.
//!
//! A parameter's text is first read as JSON of the declared [`Shape`] (so
//! `take=10` is the number 10, `ids=a&ids=b` or `ids=a,b` the list
//! `["a", "b"]`, `filter[name]=x` the object `{"name": "x"}`), then checked
//! by the same generated rule checks as bodies, with its place given as `in`
//! and `name`, and finally deserialized into the Rust type of the handler's
//! binding. Every broken parameter of a request is reported in one 400,
//! never only the first.
//!
//! Lists and objects are split on their delimiters before their pieces are
//! percent-decoded, so an item may hold an encoded delimiter (`a%2Cb,c` is
//! `["a,b", "c"]`). For the path that needs the path as it came
//! ([`Parameters::with_raw_path`]): axum's path parameters are decoded.

use std::borrow::Cow;

use axum::extract::RawPathParams;
use axum::http::HeaderMap;
use axum::response::Response;
use serde::de::DeserializeOwned;

use crate::checks::{Location, Violations, describe};
use crate::errors::parameters_rejected;
use crate::json::{Object, Value};

/// Any JSON value: the type of a parameter whose schema names no type of the
/// types crate.
pub type Json = serde_json::Value;

pub use crate::wire::{Entries, In, Name, Scalar, Shape, Style};

/// The rule checks of a parameter's schema, as generated for bodies.
pub type Check = fn(&Value<'_>, &Location, &mut Violations);

/// The rule checks of a parameter's schema as any function: a generated
/// [`Check`], or the checks a server interpreting the spec at run time
/// (`openapi-crates-mock`) walks.
pub type RuleCheck<'c> = &'c (dyn Fn(&Value<'_>, &Location, &mut Violations) + Sync);

fn rule(check: &Option<Check>) -> Option<RuleCheck<'_>> {
    check.as_ref().map(|check| check as RuleCheck<'_>)
}

/// The parameters of one request, read one by one; the rules they break are
/// collected and answered together by [`Parameters::finish`].
pub struct Parameters<'r> {
    path: Option<&'r RawPathParams>,
    /// The request's path as it came and the route's template.
    raw_path: Option<(&'r str, &'static str)>,
    /// The query's pairs as they came, not yet decoded.
    query: Vec<(&'r str, &'r str)>,
    headers: &'r HeaderMap,
    /// The cookies' pairs as they came, once a cookie is read.
    cookies: Option<Vec<(&'r str, &'r str)>>,
    violations: Violations,
}

/// What a parameter gave: nothing, or its value as JSON (`Err` once its
/// faults are recorded).
type Read<'r> = Result<Option<Value<'r>>, ()>;

/// An object's entries as found, each a name and the text of its value.
type Pairs<'r> = Vec<(Cow<'r, str>, Cow<'r, str>)>;

impl<'r> Parameters<'r> {
    /// The parameters of a request with these path parameters (percent-decoded
    /// by axum), query string and headers.
    pub fn new(
        path: Option<&'r RawPathParams>,
        query: Option<&'r str>,
        headers: &'r HeaderMap,
    ) -> Self {
        let query = query
            .map(|query| {
                query
                    .split('&')
                    .filter(|pair| !pair.is_empty())
                    .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
                    .collect()
            })
            .unwrap_or_default();
        Self {
            path,
            raw_path: None,
            query,
            headers,
            cookies: None,
            violations: Violations::new(),
        }
    }

    /// Gives the request's path as it came (`request.uri().path()`) and the
    /// template of the route it matched (`/items/{id}`), from which the path
    /// parameters that are lists, objects, or in the `label` or `matrix`
    /// style are read: their text must be split before it is decoded.
    pub fn with_raw_path(mut self, path: &'r str, template: &'static str) -> Self {
        self.raw_path = Some((path, template));
        self
    }

    /// Path parameter `name` (always required), in the `simple` style.
    pub fn path<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: &Shape,
        check: Option<Check>,
    ) -> T {
        self.get(
            In::Path,
            name,
            In::Path.default_style(),
            shape,
            true,
            rule(&check),
        )
    }

    /// Optional query parameter `name` (`form`, exploded): `Option<_>`, or a
    /// `Vec` for a list.
    pub fn query<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: &Shape,
        check: Option<Check>,
    ) -> T {
        self.get(
            In::Query,
            name,
            In::Query.default_style(),
            shape,
            false,
            rule(&check),
        )
    }

    /// Required query parameter `name` (`form`, exploded).
    pub fn required_query<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: &Shape,
        check: Option<Check>,
    ) -> T {
        self.get(
            In::Query,
            name,
            In::Query.default_style(),
            shape,
            true,
            rule(&check),
        )
    }

    /// Optional header `name` (in any case), in the `simple` style.
    pub fn header<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: &Shape,
        check: Option<Check>,
    ) -> T {
        self.get(
            In::Header,
            name,
            In::Header.default_style(),
            shape,
            false,
            rule(&check),
        )
    }

    /// Required header `name` (in any case), in the `simple` style.
    pub fn required_header<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: &Shape,
        check: Option<Check>,
    ) -> T {
        self.get(
            In::Header,
            name,
            In::Header.default_style(),
            shape,
            true,
            rule(&check),
        )
    }

    /// Optional cookie `name` (`form`, exploded).
    pub fn cookie<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: &Shape,
        check: Option<Check>,
    ) -> T {
        self.get(
            In::Cookie,
            name,
            In::Cookie.default_style(),
            shape,
            false,
            rule(&check),
        )
    }

    /// Required cookie `name` (`form`, exploded).
    pub fn required_cookie<T: DeserializeOwned + Default>(
        &mut self,
        name: &'static str,
        shape: &Shape,
        check: Option<Check>,
    ) -> T {
        self.get(
            In::Cookie,
            name,
            In::Cookie.default_style(),
            shape,
            true,
            rule(&check),
        )
    }

    /// Optional parameter `name` in `location`, written in `style`.
    pub fn styled<T: DeserializeOwned + Default>(
        &mut self,
        location: In,
        name: &'static str,
        style: Style,
        shape: &Shape,
        check: Option<Check>,
    ) -> T {
        self.get(location, name, style, shape, false, rule(&check))
    }

    /// Required parameter `name` in `location`, written in `style`.
    pub fn required_styled<T: DeserializeOwned + Default>(
        &mut self,
        location: In,
        name: &'static str,
        style: Style,
        shape: &Shape,
        check: Option<Check>,
    ) -> T {
        self.get(location, name, style, shape, true, rule(&check))
    }

    /// Parameter `name` in `location`, written in `style`, read as `shape`
    /// and checked by `check` as the typed readers above do, given as JSON:
    /// for a server that interprets the spec at run time (`openapi-crates-mock`)
    /// and has no Rust type to give it. `None` when the parameter is absent
    /// or broken (recorded for [`Parameters::finish`]); an absent list is
    /// empty. An integer is typed `i64` first, as a generated server types
    /// one, so a larger one is refused the same way.
    pub fn json(
        &mut self,
        location: In,
        name: &'static str,
        style: Style,
        shape: &Shape,
        required: bool,
        check: Option<RuleCheck<'_>>,
    ) -> Option<Json> {
        match shape {
            Shape::Scalar(Scalar::Integer) => self
                .get::<Option<i64>>(location, name, style, shape, required, check)
                .map(Json::from),
            Shape::List(Scalar::Integer) => Some(Json::from(
                self.get::<Vec<i64>>(location, name, style, shape, required, check),
            )),
            _ => self.get(location, name, style, shape, required, check),
        }
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
        style: Style,
        shape: &Shape,
        required: bool,
        check: Option<RuleCheck<'_>>,
    ) -> T {
        if location == In::Cookie && self.cookies.is_none() {
            self.cookies = Some(cookie_pairs(self.headers));
        }
        let at = Location::Parameter(location.as_str(), name);
        let path_text = match location {
            In::Path => self.path_text(name, style, shape),
            _ => None,
        };
        let violations = &mut self.violations;
        let read = match location {
            In::Query => read_pairs(&self.query, true, name, style, shape, &at, violations),
            In::Cookie => read_pairs(
                self.cookies.as_deref().unwrap_or_default(),
                false,
                name,
                style,
                shape,
                &at,
                violations,
            ),
            In::Header => read_header(self.headers, name, shape, style, &at, violations),
            In::Path => match path_text {
                None => Ok(None),
                Some(text) => read_path(text, name, style, shape, &at, violations),
            },
        };
        let value = match read {
            Err(()) => return T::default(),
            Ok(Some(value)) => value,
            Ok(None) if required => {
                violations.add(&at, "required", format!("{} is required", describe(&at)));
                return T::default();
            }
            Ok(None) => {
                let absent = match shape {
                    Shape::List(_) => Value::Array(Vec::new()),
                    Shape::Scalar(_) | Shape::Object(_) => Value::Null,
                };
                return absent.deserialize_into().unwrap_or_default();
            }
        };
        if let Some(check) = check {
            let before = violations.len();
            check(&value, &at, violations);
            if violations.len() > before {
                return T::default();
            }
        }
        value.deserialize_into().unwrap_or_else(|| {
            // The shape and the binding's type come from one schema; what
            // still fails (an integer beyond `i64`) is the client's to fix.
            violations.add(
                &at,
                "type",
                format!("{} is out of range for its type", describe(&at)),
            );
            T::default()
        })
    }

    /// The text of path parameter `name`: as it came when the style splits
    /// it and the route's template is known, else as axum decoded it.
    fn path_text(&self, name: &str, style: Style, shape: &Shape) -> Option<PathText<'r>> {
        let splits = !matches!((style, shape), (Style::Simple { .. }, Shape::Scalar(_)));
        if splits && let Some((path, template)) = self.raw_path {
            return raw_segment(path, template, name).map(PathText::Raw);
        }
        self.path
            .and_then(|path| path.iter().find(|(key, _)| *key == name))
            .map(|(_, value)| PathText::Decoded(Cow::Owned(value.to_string())))
    }
}

/// The 400 for required parameter `name`, for a handler that found it
/// unread after [`Parameters::finish`] (which answers that first).
pub fn unread(location: In, name: &'static str) -> Response {
    let at = Location::Parameter(location.as_str(), name);
    let mut violations = Violations::new();
    violations.add(&at, "required", format!("{} is required", describe(&at)));
    parameters_rejected(violations)
}

/// A path parameter's text, as it came or decoded by axum.
enum PathText<'r> {
    Raw(&'r str),
    Decoded(Cow<'r, str>),
}

/// The segment of `path` where `template` has `{name}` (with any literal
/// text around it in that segment), counted from the end, so a prefix the
/// router is mounted under does not matter.
fn raw_segment<'r>(path: &'r str, template: &str, name: &str) -> Option<&'r str> {
    let placeholder = format!("{{{name}}}");
    let from_end = template
        .split('/')
        .rev()
        .position(|segment| segment.contains(&placeholder))?;
    let template_segment = template.split('/').rev().nth(from_end)?;
    let segment = path.split('/').rev().nth(from_end)?;
    let (before, after) = template_segment.split_once(&placeholder)?;
    segment.strip_prefix(before)?.strip_suffix(after)
}

/// Every cookie of the request's `Cookie` headers, as `(name, value)`.
fn cookie_pairs(headers: &HeaderMap) -> Vec<(&str, &str)> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|line| line.split(';'))
        .filter_map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let name = name.trim();
            (!name.is_empty()).then_some((name, value.trim()))
        })
        .collect()
}

/// Percent-decodes `text`; `+` is a space where `plus_is_space` (a query).
fn decode(text: &str, plus_is_space: bool) -> Cow<'_, str> {
    if !(text.contains('%') || plus_is_space && text.contains('+')) {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        let escaped = (byte == b'%')
            .then(|| bytes.get(index + 1..index + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(value) => {
                decoded.push(value);
                index += 3;
            }
            None => {
                decoded.push(if plus_is_space && byte == b'+' {
                    b' '
                } else {
                    byte
                });
                index += 1;
            }
        }
    }
    Cow::Owned(String::from_utf8_lossy(&decoded).into_owned())
}

/// Reads a parameter from name-value pairs: the query (`form_encoded`:
/// `+` is a space) or the cookies.
fn read_pairs<'r>(
    pairs: &[(&'r str, &'r str)],
    form_encoded: bool,
    name: &str,
    style: Style,
    shape: &Shape,
    at: &Location,
    out: &mut Violations,
) -> Read<'r> {
    let decode = |text: &'r str| decode(text, form_encoded);
    let named = || {
        pairs
            .iter()
            .filter(move |(key, _)| decode(key) == name)
            .map(|(_, value)| *value)
    };
    let delimiter = match style {
        Style::Form { explode: false } => Some(","),
        Style::SpaceDelimited => Some("%20"),
        Style::PipeDelimited => Some("|"),
        _ => None,
    };
    match shape {
        // A repeated scalar is read by its first occurrence, as axum's
        // `Query` and most servers do.
        Shape::Scalar(scalar) => match named().next() {
            None => Ok(None),
            Some(text) => read_scalar(decode(text), *scalar, at, out).map(Some),
        },
        Shape::List(scalar) => {
            let texts: Vec<Cow<'r, str>> = match delimiter {
                None => named().map(decode).collect(),
                Some(delimiter) => match named().next() {
                    None => return Ok(None),
                    Some(text) => split(text, delimiter).map(decode).collect(),
                },
            };
            if texts.is_empty() {
                return Ok(None);
            }
            read_items(texts, *scalar, at, out).map(Some)
        }
        Shape::Object(entries) => {
            let found: Pairs<'r> = match (style, delimiter) {
                (_, Some(delimiter)) => match named().next() {
                    None => return Ok(None),
                    Some(text) => alternating(split(text, delimiter).map(decode), at, out)?,
                },
                (Style::DeepObject, None) => pairs
                    .iter()
                    .filter_map(|(key, value)| {
                        let key = decode(key);
                        let inner = key
                            .strip_prefix(name)?
                            .strip_prefix('[')?
                            .strip_suffix(']')?;
                        Some((Cow::Owned(inner.to_string()), decode(value)))
                    })
                    .collect(),
                _ => pairs
                    .iter()
                    .map(|(key, value)| (decode(key), *value))
                    .filter(|(key, _)| {
                        entries
                            .properties
                            .iter()
                            .any(|(property, _)| property == key)
                            || (entries.others.is_some() && !excepted(&entries.except, key))
                    })
                    .map(|(key, value)| (key, decode(value)))
                    .collect(),
            };
            if found.is_empty() && delimiter.is_none() {
                return Ok(None);
            }
            read_entries(found, entries, at, out).map(Some)
        }
    }
}

/// Whether `key` is one of `names`, or a `name[..]` key of one.
fn excepted(names: &[Name], key: &str) -> bool {
    names.iter().any(|name| {
        key.strip_prefix(name.as_ref())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('['))
    })
}

/// Reads a header: every line of it, joined with commas as HTTP joins a
/// repeated header. A scalar is the text of the first line as it is; the
/// items of a list or an object are percent-decoded.
fn read_header<'r>(
    headers: &'r HeaderMap,
    name: &str,
    shape: &Shape,
    style: Style,
    at: &Location,
    out: &mut Violations,
) -> Read<'r> {
    let mut lines = headers
        .get_all(name)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .peekable();
    if lines.peek().is_none() {
        return Ok(None);
    }
    if let Shape::Scalar(scalar) = shape {
        let first = lines.next().unwrap_or_default();
        return read_scalar(Cow::Borrowed(first), *scalar, at, out).map(Some);
    }
    let pieces = lines
        .flat_map(|line| line.split(','))
        .map(str::trim)
        .filter(|piece| !piece.is_empty())
        .map(|piece| decode(piece, false));
    let explode = matches!(style, Style::Simple { explode: true });
    read_simple(pieces, explode, shape, at, out).map(Some)
}

/// Reads a path parameter in the `simple`, `label` or `matrix` style.
fn read_path<'r>(
    text: PathText<'r>,
    name: &str,
    style: Style,
    shape: &Shape,
    at: &Location,
    out: &mut Violations,
) -> Read<'r> {
    let text = match text {
        PathText::Decoded(text) => {
            // Axum decoded it: a scalar in the `simple` style, or a route
            // whose template the caller did not give.
            return match shape {
                Shape::Scalar(scalar) => read_scalar(text, *scalar, at, out).map(Some),
                _ => {
                    let pieces: Vec<Cow<'r, str>> = text
                        .split(',')
                        .map(|piece| Cow::Owned(piece.to_string()))
                        .collect();
                    read_simple(pieces.into_iter(), false, shape, at, out).map(Some)
                }
            };
        }
        PathText::Raw(text) => text,
    };
    let decode = |piece: &'r str| decode(piece, false);
    match style {
        Style::Label { explode } => {
            let Some(rest) = text.strip_prefix('.') else {
                return malformed(at, "must start with `.` (label style)", out);
            };
            match shape {
                Shape::Scalar(scalar) => read_scalar(decode(rest), *scalar, at, out).map(Some),
                _ if rest.is_empty() => {
                    read_simple(std::iter::empty(), explode, shape, at, out).map(Some)
                }
                _ => {
                    let delimiter = if explode { "." } else { "," };
                    read_simple(split(rest, delimiter).map(decode), explode, shape, at, out)
                        .map(Some)
                }
            }
        }
        Style::Matrix { explode } => {
            let Some(rest) = text.strip_prefix(';') else {
                return malformed(at, "must start with `;` (matrix style)", out);
            };
            if let (Shape::Object(_), true) = (shape, explode) {
                let pieces = split(rest, ";")
                    .filter(|piece| !piece.is_empty())
                    .map(decode);
                return read_simple(pieces, true, shape, at, out).map(Some);
            }
            let mut values = Vec::new();
            for piece in split(rest, ";") {
                let (key, value) = piece.split_once('=').unwrap_or((piece, ""));
                if decode(key) != name {
                    return malformed(at, "must be `;name=value` (matrix style)", out);
                }
                values.push(value);
            }
            match shape {
                Shape::Scalar(scalar) => {
                    let text = values.first().copied().unwrap_or_default();
                    read_scalar(decode(text), *scalar, at, out).map(Some)
                }
                // `;name` alone is the empty list.
                Shape::List(_) if explode && values != [""] => {
                    read_simple(values.into_iter().map(decode), false, shape, at, out).map(Some)
                }
                _ => {
                    let text = values.first().copied().unwrap_or_default();
                    let pieces = split(text, ",").map(decode);
                    read_simple(pieces, false, shape, at, out).map(Some)
                }
            }
        }
        _ => match shape {
            Shape::Scalar(scalar) => read_scalar(decode(text), *scalar, at, out).map(Some),
            _ => {
                let explode = matches!(style, Style::Simple { explode: true });
                read_simple(split(text, ",").map(decode), explode, shape, at, out).map(Some)
            }
        },
    }
}

/// `text` split on `delimiter`; nothing for the empty text (an empty list).
fn split<'r>(text: &'r str, delimiter: &'r str) -> impl Iterator<Item = &'r str> + 'r {
    (!text.is_empty())
        .then(|| text.split(delimiter))
        .into_iter()
        .flatten()
}

/// A list or an object from decoded pieces: list items, or an object's
/// entries as `k=v` pieces (`explode`) or alternating keys and values.
fn read_simple<'r>(
    pieces: impl Iterator<Item = Cow<'r, str>>,
    explode: bool,
    shape: &Shape,
    at: &Location,
    out: &mut Violations,
) -> Result<Value<'r>, ()> {
    match shape {
        Shape::Scalar(scalar) => {
            let text: Vec<Cow<'r, str>> = pieces.collect();
            read_scalar(Cow::Owned(text.join(",")), *scalar, at, out)
        }
        Shape::List(scalar) => read_items(pieces.collect(), *scalar, at, out),
        Shape::Object(entries) => {
            let found = if explode {
                let mut found = Vec::new();
                for piece in pieces {
                    match piece.split_once('=') {
                        Some((key, value)) => {
                            found.push((Cow::Owned(key.to_string()), Cow::Owned(value.to_string())))
                        }
                        None => return malformed_entry(at, out),
                    }
                }
                found
            } else {
                alternating(pieces, at, out)?
            };
            read_entries(found, entries, at, out)
        }
    }
}

/// Alternating keys and values (`k,v,k2,v2`) as pairs.
fn alternating<'r>(
    pieces: impl Iterator<Item = Cow<'r, str>>,
    at: &Location,
    out: &mut Violations,
) -> Result<Pairs<'r>, ()> {
    let pieces: Vec<Cow<'r, str>> = pieces.collect();
    if !pieces.len().is_multiple_of(2) {
        return malformed_entry(at, out);
    }
    let mut pieces = pieces.into_iter();
    let mut pairs = Vec::new();
    while let (Some(key), Some(value)) = (pieces.next(), pieces.next()) {
        pairs.push((key, value));
    }
    Ok(pairs)
}

fn malformed_entry<T>(at: &Location, out: &mut Violations) -> Result<T, ()> {
    out.add(
        at,
        "type",
        format!(
            "{} must be an object's entries, each a name and a value",
            describe(at)
        ),
    );
    Err(())
}

fn malformed<T>(at: &Location, what: &str, out: &mut Violations) -> Result<T, ()> {
    out.add(at, "type", format!("{} {what}", describe(at)));
    Err(())
}

fn read_items<'r>(
    texts: Vec<Cow<'r, str>>,
    scalar: Scalar,
    at: &Location,
    out: &mut Violations,
) -> Result<Value<'r>, ()> {
    let mut items = Vec::with_capacity(texts.len());
    let mut broken = false;
    for (position, text) in texts.into_iter().enumerate() {
        match read_scalar(text, scalar, &at.item(position), out) {
            Ok(value) => items.push(value),
            Err(()) => broken = true,
        }
    }
    if broken {
        Err(())
    } else {
        Ok(Value::Array(items))
    }
}

/// An object of the entries found, each read as its property says; the
/// first of a repeated key counts.
fn read_entries<'r>(
    found: Pairs<'r>,
    entries: &Entries,
    at: &Location,
    out: &mut Violations,
) -> Result<Value<'r>, ()> {
    let mut object = Object::new();
    let mut broken = false;
    for (key, text) in found {
        if object.contains_key(&key) {
            continue;
        }
        let scalar = entries
            .scalar_of(key.as_ref())
            .unwrap_or(Scalar::String);
        match read_scalar(text, scalar, &at.property(key.as_ref()), out) {
            Ok(value) => object.push(key, value),
            Err(()) => broken = true,
        }
    }
    if broken {
        Err(())
    } else {
        Ok(Value::Object(object))
    }
}

fn read_scalar<'r>(
    text: Cow<'r, str>,
    scalar: Scalar,
    at: &Location,
    out: &mut Violations,
) -> Result<Value<'r>, ()> {
    let value = match scalar {
        Scalar::String => Some(Value::String(text)),
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
        Scalar::Json => serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .map(Value::from),
    };
    value.ok_or_else(|| wrong_kind(at, scalar, out))
}

fn wrong_kind(at: &Location, scalar: Scalar, out: &mut Violations) {
    let expected = match scalar {
        Scalar::String => "a string",
        Scalar::Integer => "an integer",
        Scalar::Number => "a number",
        Scalar::Boolean => "`true` or `false`",
        Scalar::Json => "JSON text",
    };
    out.add(at, "type", format!("{} must be {expected}", describe(at)));
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow::Borrowed;

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
        let take: Option<i64> = params.query("take", &Shape::INTEGER, None);
        let flag: bool = params.required_query("flag", &Shape::BOOLEAN, None);
        let q: String = params.required_query("q", &Shape::STRING, None);
        let ids: Vec<i64> = params.query("ids", &Shape::List(Scalar::Integer), None);
        let weight: Option<f64> = params.query("weight", &Shape::NUMBER, None);
        let fields: Vec<String> = params.query("fields", &Shape::List(Scalar::String), None);
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
        let _: Option<i64> = params.query("take", &Shape::INTEGER, None);
        let _: Vec<i64> = params.query("ids", &Shape::List(Scalar::Integer), None);
        let _: i64 = params.required_header("X-Page", &Shape::INTEGER, None);
        let _: String = params.required_query("q", &Shape::STRING, None);
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
        let take: Option<i64> = params.query("take", &Shape::INTEGER, Some(take_rules));
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
        let take: Option<i64> = params.query("take", &Shape::INTEGER, None);
        assert_eq!(take, None);
        assert_eq!(params.violations.len(), 1);
    }
    const POINT: Entries = Entries {
        properties: Borrowed(&[(Borrowed("x"), Scalar::Integer), (Borrowed("y"), Scalar::Integer)]),
        others: None,
        except: Borrowed(&[]),
    };

    fn read<T: DeserializeOwned + Default>(
        params: &mut Parameters<'_>,
        location: In,
        name: &'static str,
        style: Style,
        shape: &Shape,
    ) -> T {
        params.styled(location, name, style, shape, None)
    }

    #[test]
    fn delimited_query_lists_split_before_they_decode() {
        let headers = HeaderMap::new();
        let query = "a=x%2Cy,z&b=1%202&c=p%7Cq|r+s&d=&e=one";
        let mut params = Parameters::new(None, Some(query), &headers);
        let strings = Shape::List(Scalar::String);
        let a: Vec<String> = read(
            &mut params,
            In::Query,
            "a",
            Style::Form { explode: false },
            &strings,
        );
        let b: Vec<i64> = read(
            &mut params,
            In::Query,
            "b",
            Style::SpaceDelimited,
            &Shape::List(Scalar::Integer),
        );
        let c: Vec<String> = read(&mut params, In::Query, "c", Style::PipeDelimited, &strings);
        let d: Vec<String> = read(
            &mut params,
            In::Query,
            "d",
            Style::Form { explode: false },
            &strings,
        );
        let e: Vec<String> = read(&mut params, In::Query, "e", Style::PipeDelimited, &strings);
        let f: Vec<String> = read(&mut params, In::Query, "f", Style::PipeDelimited, &strings);
        assert!(params.finish().is_ok());
        assert_eq!((a, b), (vec!["x,y".to_string(), "z".into()], vec![1, 2]));
        assert_eq!(c, ["p|q", "r s"]);
        assert_eq!((d, e, f), (vec![], vec!["one".to_string()], vec![]));
    }

    #[test]
    fn query_objects_in_every_style() {
        let headers = HeaderMap::new();
        let query = "p%5Bx%5D=1&p[y]=2&q=x,3,y,4&x=5&y=6&team+a=b&r=x|7|y|8";
        let mut params = Parameters::new(None, Some(query), &headers);
        let point = Shape::Object(POINT);
        let deep: Option<Json> = read(&mut params, In::Query, "p", Style::DeepObject, &point);
        let flat: Option<Json> = read(
            &mut params,
            In::Query,
            "q",
            Style::Form { explode: false },
            &point,
        );
        let spread: Option<Json> = read(
            &mut params,
            In::Query,
            "s",
            Style::Form { explode: true },
            &point,
        );
        let piped: Option<Json> = read(&mut params, In::Query, "r", Style::PipeDelimited, &point);
        const MAP: Entries = Entries {
            properties: Borrowed(&[]),
            others: Some(Scalar::String),
            except: Borrowed(&[
                Borrowed("p"),
                Borrowed("q"),
                Borrowed("r"),
                Borrowed("x"),
                Borrowed("y"),
            ]),
        };
        let map: Option<Json> = read(
            &mut params,
            In::Query,
            "m",
            Style::Form { explode: true },
            &Shape::Object(MAP),
        );
        let absent: Option<Json> = read(&mut params, In::Query, "t", Style::DeepObject, &point);
        assert!(params.finish().is_ok());
        assert_eq!(deep, Some(serde_json::json!({"x": 1, "y": 2})));
        assert_eq!(flat, Some(serde_json::json!({"x": 3, "y": 4})));
        assert_eq!(spread, Some(serde_json::json!({"x": 5, "y": 6})));
        assert_eq!(piped, Some(serde_json::json!({"x": 7, "y": 8})));
        assert_eq!(map, Some(serde_json::json!({"team a": "b"})));
        assert_eq!(absent, None);
    }

    #[test]
    fn headers_and_cookies_read_lists_and_objects() {
        let headers = headers(&[
            ("x-tags", "a%2C1, b"),
            ("x-tags", "c%25"),
            ("x-point", "x=1,y=2"),
            ("cookie", "session=a%20b; seen=1; seen=2"),
            ("cookie", "theme=x,3,y,4; data=%7B%22k%22%3A%5B1%5D%7D"),
        ]);
        let mut params = Parameters::new(None, None, &headers);
        let tags: Vec<String> = params.header("X-Tags", &Shape::List(Scalar::String), None);
        let point: Option<Json> = read(
            &mut params,
            In::Header,
            "X-Point",
            Style::Simple { explode: true },
            &Shape::Object(POINT),
        );
        let session: String = params.required_cookie("session", &Shape::STRING, None);
        let seen: Vec<i64> = params.cookie("seen", &Shape::List(Scalar::Integer), None);
        let theme: Option<Json> = read(
            &mut params,
            In::Cookie,
            "theme",
            Style::Form { explode: false },
            &Shape::Object(POINT),
        );
        let data: Option<Json> = params.cookie("data", &Shape::JSON, None);
        assert!(params.finish().is_ok());
        assert_eq!(tags, ["a,1", "b", "c%"]);
        assert_eq!(point, Some(serde_json::json!({"x": 1, "y": 2})));
        assert_eq!((session.as_str(), seen), ("a b", vec![1, 2]));
        assert_eq!(theme, Some(serde_json::json!({"x": 3, "y": 4})));
        assert_eq!(data, Some(serde_json::json!({"k": [1]})));
    }

    #[test]
    fn path_styles_read_the_segment_as_it_came() {
        assert_eq!(
            raw_segment("/api/items/.a/x", "/items/{id}/x", "id"),
            Some(".a")
        );
        assert_eq!(
            raw_segment("/v/f.json", "/v/{name}.json", "name"),
            Some("f")
        );
        let headers = HeaderMap::new();
        let path = "/t/.a%2Eb/.1.2/;m=x%2Cy;m=z/;e/;p=x,1,y,2/;x=3;y=4/a%2Cb,c/x=5,y=6";
        let template = "/t/{l}/{ls}/{m}/{e}/{p}/{q}/{s}/{o}";
        let mut params = Parameters::new(None, None, &headers).with_raw_path(path, template);
        let strings = Shape::List(Scalar::String);
        let point = Shape::Object(POINT);
        let l: String = read(
            &mut params,
            In::Path,
            "l",
            Style::Label { explode: false },
            &Shape::STRING,
        );
        let ls: Vec<i64> = read(
            &mut params,
            In::Path,
            "ls",
            Style::Label { explode: true },
            &Shape::List(Scalar::Integer),
        );
        let m: Vec<String> = read(
            &mut params,
            In::Path,
            "m",
            Style::Matrix { explode: true },
            &strings,
        );
        let e: Vec<String> = read(
            &mut params,
            In::Path,
            "e",
            Style::Matrix { explode: true },
            &strings,
        );
        let p: Json = read(
            &mut params,
            In::Path,
            "p",
            Style::Matrix { explode: false },
            &point,
        );
        let q: Json = read(
            &mut params,
            In::Path,
            "q",
            Style::Matrix { explode: true },
            &point,
        );
        let s: Vec<String> = read(
            &mut params,
            In::Path,
            "s",
            Style::Simple { explode: false },
            &strings,
        );
        let o: Json = read(
            &mut params,
            In::Path,
            "o",
            Style::Simple { explode: true },
            &point,
        );
        assert!(params.finish().is_ok());
        assert_eq!((l.as_str(), ls), ("a.b", vec![1, 2]));
        assert_eq!((m, e), (vec!["x,y".to_string(), "z".into()], vec![]));
        assert_eq!(
            (p, q),
            (
                serde_json::json!({"x": 1, "y": 2}),
                serde_json::json!({"x": 3, "y": 4})
            )
        );
        assert_eq!(
            (s, o),
            (
                vec!["a,b".to_string(), "c".into()],
                serde_json::json!({"x": 5, "y": 6})
            )
        );
    }

    #[test]
    fn malformed_styles_name_the_parameter() {
        let headers = headers(&[("x-point", "x,1,y")]);
        let path = "/t/a/;other=1/.x=1.y=z";
        let mut params =
            Parameters::new(None, Some("q=x,1,y"), &headers).with_raw_path(path, "/t/{l}/{m}/{o}");
        let point = Shape::Object(POINT);
        let _: String = read(
            &mut params,
            In::Path,
            "l",
            Style::Label { explode: false },
            &Shape::STRING,
        );
        let _: i64 = read(
            &mut params,
            In::Path,
            "m",
            Style::Matrix { explode: false },
            &Shape::INTEGER,
        );
        let _: Json = read(
            &mut params,
            In::Path,
            "o",
            Style::Label { explode: true },
            &point,
        );
        let _: Option<Json> = read(
            &mut params,
            In::Query,
            "q",
            Style::Form { explode: false },
            &point,
        );
        let _: Option<Json> = read(
            &mut params,
            In::Header,
            "x-point",
            Style::Simple { explode: false },
            &point,
        );
        let found: Vec<String> = params
            .violations
            .iter()
            .map(|violation| violation.detail.clone())
            .collect();
        assert_eq!(
            found,
            [
                "path parameter 'l' must start with `.` (label style)",
                "path parameter 'm' must be `;name=value` (matrix style)",
                "path parameter 'o.y' must be an integer",
                "query parameter 'q' must be an object's entries, each a name and a value",
                "header parameter 'x-point' must be an object's entries, each a name and a value",
            ]
        );
    }
}
