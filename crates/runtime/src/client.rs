//! Parameters in the styles progenitor's builders do not write: lists that
//! are not repeated pairs, objects, the `label` and `matrix` path styles,
//! cookies and values given as JSON text (`content`).
//!
//! A generated client's builder keeps a typed setter for each such
//! parameter; `send` serializes the value to JSON and writes it here, in the
//! [`Style`] the model lowered the parameter to (OpenAPI's "Style Values";
//! RFC 6570 for the path).
//!
//! Each piece of text is percent-encoded wherever it could be read as a
//! delimiter, so items may hold commas, pipes, dots or spaces. A list or an
//! object inside an item or an entry, which no style can write, travels as
//! its JSON text.

use reqwest::header::{COOKIE, HeaderName, HeaderValue};
use serde::Serialize;
use serde_json::Value;

use crate::wire::Style;

/// The query pairs, headers and cookies of one request, written in turn;
/// the first value that cannot be written is the error of them all.
#[derive(Debug, Default)]
pub struct Params {
    query: Vec<String>,
    headers: Vec<(&'static str, String)>,
    cookies: Vec<String>,
    error: Option<String>,
}

impl Params {
    /// Query parameter `name` in `style`, or as JSON text (`None`); nothing
    /// when the value is absent (`None`).
    pub fn query<T: Serialize>(mut self, name: &str, style: Option<Style>, value: &T) -> Self {
        let value = match self.value(value) {
            Some(value) => value,
            None => return self,
        };
        let name = encode_query(name);
        let pair = |value: String| format!("{name}={value}");
        let Some(style) = style else {
            self.query.push(pair(encode_query(&json_text(&value))));
            return self;
        };
        match (style, value) {
            (Style::Form { explode: true } | Style::DeepObject, Value::Array(items)) => {
                for item in &items {
                    self.query.push(pair(encode_query(&text(item))));
                }
            }
            (Style::Form { explode: true }, Value::Object(entries)) => {
                for (key, value) in present(&entries) {
                    self.query.push(format!("{}={}", encode_query(key), encode_query(&text(value))));
                }
            }
            (Style::DeepObject, Value::Object(entries)) => {
                for (key, value) in present(&entries) {
                    self.query.push(format!("{name}[{}]={}", encode_query(key), encode_query(&text(value))));
                }
            }
            (_, Value::Array(items)) => {
                let items: Vec<String> = items.iter().map(|item| encode_query(&text(item))).collect();
                self.query.push(pair(items.join(style.delimiter())));
            }
            (_, Value::Object(entries)) => {
                let pieces = alternating(&entries, encode_query);
                self.query.push(pair(pieces.join(style.delimiter())));
            }
            (_, value) => self.query.push(pair(encode_query(&text(&value)))),
        }
        self
    }

    /// Header `name` in `style`, or as JSON text (`None`); nothing when the
    /// value is absent.
    pub fn header<T: Serialize>(mut self, name: &'static str, style: Option<Style>, value: &T) -> Self {
        let value = match self.value(value) {
            Some(value) => value,
            None => return self,
        };
        let line = match (style, value) {
            (None, value) => json_text(&value),
            (_, Value::Array(items)) => {
                let items: Vec<String> = items.iter().map(|item| encode_header(&text(item))).collect();
                items.join(",")
            }
            (Some(Style::Simple { explode: true }), Value::Object(entries)) => {
                let pieces: Vec<String> = present(&entries)
                    .map(|(key, value)| format!("{}={}", encode_header(key), encode_header(&text(value))))
                    .collect();
                pieces.join(",")
            }
            (_, Value::Object(entries)) => alternating(&entries, encode_header).join(","),
            (_, value) => text(&value),
        };
        self.headers.push((name, line));
        self
    }

    /// Cookie `name` in `style`, or as JSON text (`None`); nothing when the
    /// value is absent.
    pub fn cookie<T: Serialize>(mut self, name: &str, style: Option<Style>, value: &T) -> Self {
        let value = match self.value(value) {
            Some(value) => value,
            None => return self,
        };
        let pair = |value: String| format!("{name}={value}");
        let Some(style) = style else {
            self.cookies.push(pair(encode_cookie(&json_text(&value))));
            return self;
        };
        match (style, value) {
            (Style::Form { explode: true }, Value::Array(items)) => {
                for item in &items {
                    self.cookies.push(pair(encode_cookie(&text(item))));
                }
            }
            (Style::Form { explode: true }, Value::Object(entries)) => {
                for (key, value) in present(&entries) {
                    self.cookies.push(format!("{key}={}", encode_cookie(&text(value))));
                }
            }
            (_, Value::Array(items)) => {
                let items: Vec<String> = items.iter().map(|item| encode_cookie(&text(item))).collect();
                self.cookies.push(pair(items.join(",")));
            }
            (_, Value::Object(entries)) => {
                self.cookies.push(pair(alternating(&entries, encode_cookie).join(",")));
            }
            (_, value) => self.cookies.push(pair(encode_cookie(&text(&value)))),
        }
        self
    }

    /// Adds what was written to `request`: the pairs after its query, the
    /// headers, and the cookies in its `Cookie` header.
    pub fn apply(self, request: &mut reqwest::Request) -> Result<(), String> {
        if let Some(error) = self.error {
            return Err(error);
        }
        if !self.query.is_empty() {
            let url = request.url_mut();
            let mut query = url.query().unwrap_or_default().to_string();
            for pair in self.query {
                if !query.is_empty() {
                    query.push('&');
                }
                query.push_str(&pair);
            }
            url.set_query(Some(&query));
        }
        for (name, line) in self.headers {
            let name = HeaderName::from_bytes(name.as_bytes()).map_err(|err| format!("header `{name}`: {err}"))?;
            let value = HeaderValue::from_str(&line).map_err(|err| format!("header `{name}`: {err}"))?;
            request.headers_mut().append(name, value);
        }
        if !self.cookies.is_empty() {
            let mut line = request
                .headers_mut()
                .remove(COOKIE)
                .and_then(|value| value.to_str().ok().map(str::to_string))
                .unwrap_or_default();
            for cookie in self.cookies {
                if !line.is_empty() {
                    line.push_str("; ");
                }
                line.push_str(&cookie);
            }
            let value = HeaderValue::from_str(&line).map_err(|err| format!("cookies: {err}"))?;
            request.headers_mut().insert(COOKIE, value);
        }
        Ok(())
    }

    /// The value as JSON; `None` for null (an absent parameter) or after an
    /// error, which is kept.
    fn value<T: Serialize>(&mut self, value: &T) -> Option<Value> {
        if self.error.is_some() {
            return None;
        }
        match serde_json::to_value(value) {
            Ok(Value::Null) => None,
            Ok(value) => Some(value),
            Err(err) => {
                self.error = Some(err.to_string());
                None
            }
        }
    }
}

/// The text of path parameter `name` in `style`, or as JSON text (`None`),
/// encoded for the path.
pub fn path<T: Serialize>(name: &str, style: Option<Style>, value: &T) -> Result<String, String> {
    let value = serde_json::to_value(value).map_err(|err| err.to_string())?;
    let Some(style) = style else {
        return Ok(encode_path(&json_text(&value), false));
    };
    let label = matches!(style, Style::Label { .. });
    let encode = |text: &str| encode_path(text, label);
    let joined = |pieces: Vec<String>, delimiter: &str| pieces.join(delimiter);
    let items = |items: &[Value]| items.iter().map(|item| encode(&text(item))).collect::<Vec<_>>();
    let assigned = |entries: &serde_json::Map<String, Value>| {
        present(entries)
            .map(|(key, value)| format!("{}={}", encode(key), encode(&text(value))))
            .collect::<Vec<_>>()
    };
    Ok(match (style, &value) {
        (Style::Label { explode }, Value::Array(list)) => {
            format!(".{}", joined(items(list), if explode { "." } else { "," }))
        }
        (Style::Label { explode: true }, Value::Object(entries)) => format!(".{}", joined(assigned(entries), ".")),
        (Style::Label { .. }, Value::Object(entries)) => format!(".{}", alternating(entries, encode).join(",")),
        (Style::Label { .. }, value) => format!(".{}", encode(&text(value))),
        (Style::Matrix { .. }, Value::Array(list)) if list.is_empty() => format!(";{name}"),
        (Style::Matrix { explode: true }, Value::Array(list)) => {
            let pieces: Vec<String> = items(list).into_iter().map(|item| format!(";{name}={item}")).collect();
            pieces.concat()
        }
        (Style::Matrix { .. }, Value::Array(list)) => format!(";{name}={}", joined(items(list), ",")),
        (Style::Matrix { explode: true }, Value::Object(entries)) => {
            let pieces: Vec<String> = assigned(entries).into_iter().map(|piece| format!(";{piece}")).collect();
            pieces.concat()
        }
        (Style::Matrix { .. }, Value::Object(entries)) => {
            format!(";{name}={}", alternating(entries, encode).join(","))
        }
        (Style::Matrix { .. }, value) => match text(value) {
            text if text.is_empty() => format!(";{name}"),
            text => format!(";{name}={}", encode(&text)),
        },
        (_, Value::Array(list)) => joined(items(list), ","),
        (Style::Simple { explode: true }, Value::Object(entries)) => joined(assigned(entries), ","),
        (_, Value::Object(entries)) => alternating(entries, encode).join(","),
        (_, value) => encode(&text(value)),
    })
}

/// The text of an item, an entry's value or a scalar: a string as it is,
/// a number or a boolean as JSON writes it, a list or an object as JSON.
fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        Value::Bool(_) | Value::Number(_) => value.to_string(),
        Value::Array(_) | Value::Object(_) => json_text(value),
    }
}

fn json_text(value: &Value) -> String {
    value.to_string()
}

/// An object's entries that have a value (null is an absent entry).
fn present(entries: &serde_json::Map<String, Value>) -> impl Iterator<Item = (&String, &Value)> {
    entries.iter().filter(|(_, value)| !value.is_null())
}

/// `k,v,k2,v2`'s pieces, each encoded.
fn alternating(entries: &serde_json::Map<String, Value>, encode: impl Fn(&str) -> String) -> Vec<String> {
    present(entries)
        .flat_map(|(key, value)| [encode(key), encode(&text(value))])
        .collect()
}

/// Percent-encodes every byte but the unreserved ones (RFC 3986) and those
/// of `keep`; a space is `space`.
fn encode(text: &str, keep: &[u8], space: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) || keep.contains(&byte) {
            out.push(char::from(byte));
        } else if byte == b' ' {
            out.push_str(space);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A query name or value: a space is `+`, as in a form.
fn encode_query(text: &str) -> String {
    encode(text, b"", "+")
}

/// A piece of a path segment; a `.` too in the `label` style, where it
/// separates items.
fn encode_path(text: &str, label: bool) -> String {
    let encoded = encode(text, b"", "%20");
    if label { encoded.replace('.', "%2E") } else { encoded }
}

/// A cookie's value, which may hold no space, comma or semicolon.
fn encode_cookie(text: &str) -> String {
    encode(text, b"", "%20")
}

/// An item of a header list or an object's key or value: only what would
/// split it, `%` itself, spaces (which a reader trims) and what a header
/// cannot hold are encoded.
fn encode_header(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if (0x21..0x7f).contains(&byte) && !b",=%".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn request(params: Params) -> reqwest::Request {
        let url = "http://api.test/items?fixed=1".parse().unwrap();
        let mut request = reqwest::Request::new(reqwest::Method::GET, url);
        params.apply(&mut request).unwrap();
        request
    }

    #[test]
    fn query_lists_and_objects_are_written_in_their_style() {
        let request = request(
            Params::default()
                .query("ids", Some(Style::Form { explode: false }), &json!(["a,b", "c"]))
                .query("tags", Some(Style::PipeDelimited), &json!(["x|y", "z w"]))
                .query("sizes", Some(Style::SpaceDelimited), &json!([1, 2]))
                .query("filter", Some(Style::DeepObject), &json!({"name": "Ada", "gone": null}))
                .query("point", Some(Style::Form { explode: true }), &json!({"x": 1}))
                .query("absent", Some(Style::Form { explode: true }), &Value::Null)
                .query("q", None, &json!({"a": [1]})),
        );
        assert_eq!(
            request.url().query(),
            Some(
                "fixed=1&ids=a%2Cb,c&tags=x%7Cy|z+w&sizes=1%202&filter[name]=Ada&x=1\
                 &q=%7B%22a%22%3A%5B1%5D%7D"
            )
        );
    }

    #[test]
    fn path_segments_follow_rfc_6570() {
        let path = |style, value: Value| super::path("id", Some(style), &value).unwrap();
        assert_eq!(path(Style::Simple { explode: false }, json!(["a", "b c"])), "a,b%20c");
        assert_eq!(path(Style::Label { explode: true }, json!(["a.b", "c"])), ".a%2Eb.c");
        assert_eq!(path(Style::Matrix { explode: true }, json!([1, 2])), ";id=1;id=2");
        assert_eq!(path(Style::Matrix { explode: false }, json!({"k": "v"})), ";id=k,v");
        assert_eq!(path(Style::Simple { explode: true }, json!({"k": "v"})), "k=v");
        assert_eq!(super::path("id", None, &json!([1])).unwrap(), "%5B1%5D");
    }

    #[test]
    fn headers_and_cookies_are_added_to_what_the_request_has() {
        let mut request = request(Params::default());
        request
            .headers_mut()
            .insert(COOKIE, HeaderValue::from_static("session=abc"));
        Params::default()
            .header("X-Ids", Some(Style::Simple { explode: false }), &json!(["a b", "c,d"]))
            .cookie("theme", Some(Style::Form { explode: true }), &json!("dark mode"))
            .apply(&mut request)
            .unwrap();
        assert_eq!(request.headers()["x-ids"], "a%20b,c%2Cd");
        assert_eq!(request.headers()[COOKIE], "session=abc; theme=dark%20mode");
    }

    #[test]
    fn the_first_value_that_cannot_be_written_is_the_error() {
        struct Unwritable;
        impl Serialize for Unwritable {
            fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom("no JSON for this"))
            }
        }
        let url = "http://api.test/".parse().unwrap();
        let mut request = reqwest::Request::new(reqwest::Method::GET, url);
        let outcome = Params::default()
            .query("a", Some(Style::Form { explode: true }), &Unwritable)
            .query("b", Some(Style::Form { explode: true }), &1)
            .apply(&mut request);
        assert_eq!(outcome, Err("no JSON for this".to_string()));
        assert_eq!(request.url().query(), None);
    }
}
