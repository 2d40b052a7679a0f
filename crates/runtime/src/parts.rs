//! A `multipart/form-data` request body as its parts arrive.
//!
//! A generated server hands the method of a multipart-only body a
//! [`Multipart`] instead of the body's bytes, so an upload of any size
//! passes through in bounded memory:
//!
//! - A file part (one the schema types as a file, `format: binary`; with no
//!   schema, any part with a file name) streams: [`Part::chunk`] gives its
//!   content as it arrives, counted against the file's `maxLength` in bytes.
//! - Any other part is read whole, checked and kept for the form's rules:
//!   the text parts together stay under the router's limit of a body read
//!   whole ([`RouterOptions::body_limit`](crate::RouterOptions)).
//! - The whole body stays under the operation's streamed limit, as a binary
//!   body does ([`STREAMED_BODY_LIMIT`](crate::STREAMED_BODY_LIMIT)).
//!
//! The schema's rules about the whole form (required parts, a part's type
//! and bounds, the relations between parts) can only be judged once every
//! part has come: when the body ends, [`Multipart::next_part`] checks the
//! fields it kept with the body's validator and answers a [`BodyError`]
//! naming every broken rule instead of the end. A method that acts on parts
//! as they come (storing a file, say) undoes that work on such an error; one
//! that needs the form judged first reads the parts it needs and acts once
//! `next_part` has answered `None` (or [`Multipart::finish`] has answered).
//! A method that never reads its body to the end leaves the form unjudged,
//! as it leaves a binary body unread.

use axum::body::Bytes;
use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use std::borrow::Cow;

use crate::body::{BodyError, Head, JSON, add_field, has_no_body};
use crate::checks::{Location, Violations};
use crate::errors::router_error_response;
use crate::form::{self, Shape};
use crate::json::{Object, Value};

/// Media type of multipart bodies.
const MULTIPART: &str = "multipart/form-data";

/// The rules of a multipart body whose schema the spec names: the body's
/// validator (a generated server's function, the mock's reading of the
/// model's checks), and its form shape (which parts are files, and how text
/// parts are read, see [`crate::form::read_parts`]).
#[derive(Clone, Copy)]
pub struct PartRules {
    pub validate: &'static Validate,
    pub shape: Option<&'static Shape>,
}

/// A validator of a body: adds each rule the value at the location breaks.
pub type Validate = dyn Fn(&Value, &Location, &mut Violations) + Send + Sync;

impl std::fmt::Debug for PartRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PartRules")
            .field("shape", &self.shape)
            .finish_non_exhaustive()
    }
}

/// The router's limit of a body read whole, where a route streams its
/// body: what [`Multipart`]'s text parts stay under. `operation_route`
/// puts it in the request's extensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WholeBodyLimit(pub usize);

/// Reads a `multipart/form-data` body as its parts arrive (see the module
/// documentation). A body of another media type gets 415, one without a
/// boundary 400, and a `Content-Length` past the operation's limit 413,
/// before the method is called.
pub async fn read_multipart(
    request: Request,
    rules: Option<PartRules>,
) -> Result<(Head, Multipart), Response> {
    let (head, body, _) = crate::body::streamed_request(request, &[MULTIPART])?;
    let content_type = head
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let boundary = multer::parse_boundary(content_type).map_err(|error| {
        router_error_response(
            StatusCode::BAD_REQUEST,
            format!("Invalid multipart body: {error}"),
            "invalid_body",
        )
    })?;
    let text_limit = head
        .extensions
        .get::<WholeBodyLimit>()
        .map_or_else(|| crate::RouterOptions::default().body_limit, |limit| limit.0);
    let multipart = Multipart {
        parts: multer::Multipart::new(body, boundary),
        current: None,
        rules,
        fields: Object::new(),
        files: Vec::new(),
        text_left: text_limit,
        text_limit,
        ended: false,
    };
    Ok((head, multipart))
}

/// [`read_multipart`] for an optional body: none (no `Content-Type` and
/// no content) gives `None`.
pub async fn read_optional_multipart(
    request: Request,
    rules: Option<PartRules>,
) -> Result<(Head, Option<Multipart>), Response> {
    if has_no_body(request.headers()) {
        return Ok((Head::from(request.into_parts().0), None));
    }
    let (head, body) = read_multipart(request, rules).await?;
    Ok((head, Some(body)))
}

/// A `multipart/form-data` request body whose parts the method reads in
/// order with [`Multipart::next_part`] (see the module documentation).
pub struct Multipart {
    parts: multer::Multipart<'static>,
    /// The part last handed out.
    current: Option<Current>,
    rules: Option<PartRules>,
    /// The fields the form's rules are checked on: each text part's value,
    /// and an empty text standing for each file.
    fields: Object<'static>,
    /// The names of the files that came, whose content the method reads
    /// (their size is checked as they stream).
    files: Vec<String>,
    /// How many more bytes of text parts the body may hold.
    text_left: usize,
    text_limit: usize,
    ended: bool,
}

struct Current {
    name: String,
    file_name: Option<String>,
    content_type: Option<String>,
    headers: HeaderMap,
    content: Content,
}

enum Content {
    /// A part read whole: its content until the method takes it.
    Whole(Option<Bytes>),
    /// A file as it arrives: its bytes so far, and its most.
    Streaming {
        field: Box<multer::Field<'static>>,
        read: u64,
        max: Option<u64>,
    },
}

impl Multipart {
    /// The next part, in the order the client sent them; `None` once the
    /// body has ended and the form passed the schema's rules. A part the
    /// method did not read to its end is skipped (a file's size is still
    /// checked). An error ends the body: it is not well-formed, it ran past
    /// a limit, or the form broke the schema's rules (see
    /// [`BodyError::violations`]); answer it as it is, as the router would.
    pub async fn next_part(&mut self) -> Result<Option<Part<'_>>, BodyError> {
        if let Some(mut current) = self.current.take() {
            while current.chunk().await?.is_some() {}
        }
        if self.ended {
            return Ok(None);
        }
        let Some(mut field) = self.parts.next_field().await.map_err(multipart_error)? else {
            self.ended = true;
            self.judge()?;
            return Ok(None);
        };
        let name = field
            .name()
            .map(str::to_owned)
            .ok_or_else(|| BodyError::malformed("a part has no name"))?;
        let file_name = field.file_name().map(str::to_owned);
        let content_type = field
            .content_type()
            .map(|media_type| media_type.essence_str().to_owned());
        let headers = field.headers().clone();
        let content = match self.file(&name, file_name.is_some()) {
            Some(max) => {
                add_field(&mut self.fields, Cow::Owned(name.clone()), Value::String("".into()))
                    .map_err(BodyError::malformed)?;
                self.files.push(name.clone());
                Content::Streaming {
                    field: Box::new(field),
                    read: 0,
                    max,
                }
            }
            None => {
                let mut content = Vec::new();
                while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
                    self.text_left = self
                        .text_left
                        .checked_sub(chunk.len())
                        .ok_or(BodyError::text_too_large(self.text_limit))?;
                    content.extend_from_slice(&chunk);
                }
                let value = part_value(
                    &name,
                    file_name.is_some(),
                    content_type.as_deref(),
                    &content,
                )
                .map_err(BodyError::malformed)?;
                add_field(&mut self.fields, Cow::Owned(name.clone()), value)
                    .map_err(BodyError::malformed)?;
                Content::Whole(Some(Bytes::from(content)))
            }
        };
        let current = self.current.insert(Current {
            name,
            file_name,
            content_type,
            headers,
            content,
        });
        Ok(Some(Part(current)))
    }

    /// Skips the parts left and judges the form: for a method that has read
    /// the parts it needs, or needs none, and answers only for a form that
    /// passed the schema's rules.
    pub async fn finish(mut self) -> Result<(), BodyError> {
        while self.next_part().await?.is_some() {}
        Ok(())
    }

    /// Whether a part named `name` streams, and its most bytes: a file of
    /// the schema's shape, or with no schema, a part with a file name.
    fn file(&self, name: &str, has_file_name: bool) -> Option<Option<u64>> {
        match self.rules {
            None => has_file_name.then_some(None),
            Some(PartRules { shape, .. }) => shape.and_then(|shape| form::file_part(shape, name)),
        }
    }

    /// The form's rules, judged on the fields kept: a file's content is the
    /// method's to read, so the rules on it other than its size (checked
    /// as it streamed) are not judged on the empty text standing for it.
    fn judge(&mut self) -> Result<(), BodyError> {
        let Some(rules) = self.rules else {
            return Ok(());
        };
        let mut value = Value::Object(std::mem::take(&mut self.fields));
        if let Some(shape) = rules.shape {
            form::read_parts(&mut value, shape);
        }
        let mut violations = Violations::new();
        (rules.validate)(&value, &Location::Body, &mut violations);
        violations.retain(|violation| {
            !self.files.iter().any(|file| {
                let pointer = Location::Body.property(file).pointer();
                violation.pointer == pointer
                    || violation
                        .pointer
                        .strip_prefix(&pointer)
                        .is_some_and(|rest| rest.starts_with('/'))
            })
        });
        if violations.is_empty() {
            Ok(())
        } else {
            Err(BodyError::rejected(violations))
        }
    }
}

impl std::fmt::Debug for Multipart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Multipart")
            .field("ended", &self.ended)
            .finish_non_exhaustive()
    }
}

/// One part of a [`Multipart`] body: its name and headers, and its content
/// (read whole by the router for a text part, streaming for a file).
pub struct Part<'a>(&'a mut Current);

impl Part<'_> {
    /// The part's name (its `Content-Disposition`'s `name`).
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// The file name the client gave, if any.
    pub fn file_name(&self) -> Option<&str> {
        self.0.file_name.as_deref()
    }

    /// The part's media type, without parameters, if it says one.
    pub fn content_type(&self) -> Option<&str> {
        self.0.content_type.as_deref()
    }

    /// The part's own headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.0.headers
    }

    /// Whether the part streams (a file), rather than was read whole.
    pub fn is_streaming(&self) -> bool {
        matches!(self.0.content, Content::Streaming { .. })
    }

    /// The next chunk of the part's content; `None` at its end.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, BodyError> {
        self.0.chunk().await
    }

    /// The part's whole content, for a method that needs it at once.
    pub async fn bytes(mut self) -> Result<Bytes, BodyError> {
        let mut whole = Vec::new();
        while let Some(chunk) = self.chunk().await? {
            if whole.is_empty() && !self.is_streaming() {
                return Ok(chunk);
            }
            whole.extend_from_slice(&chunk);
        }
        Ok(Bytes::from(whole))
    }

    /// The part's whole content as text; not UTF-8 is an error.
    pub async fn text(self) -> Result<String, BodyError> {
        let name = self.0.name.clone();
        String::from_utf8(self.bytes().await?.to_vec())
            .map_err(|_| BodyError::malformed(format!("`{name}` is not valid UTF-8")))
    }
}

impl std::fmt::Debug for Part<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Part")
            .field("name", &self.0.name)
            .field("file_name", &self.0.file_name)
            .field("content_type", &self.0.content_type)
            .finish_non_exhaustive()
    }
}

impl Current {
    async fn chunk(&mut self) -> Result<Option<Bytes>, BodyError> {
        match &mut self.content {
            Content::Whole(content) => Ok(content.take()),
            Content::Streaming { field, read, max } => {
                let Some(chunk) = field.chunk().await.map_err(multipart_error)? else {
                    return Ok(None);
                };
                *read += chunk.len() as u64;
                if let Some(max) = *max
                    && *read > max
                {
                    let mut violations = Violations::new();
                    let at = Location::Body;
                    let at = at.property(&self.name);
                    violations.add(
                        &at,
                        "max_length",
                        format!("'{}' must be at most {max} bytes long", self.name),
                    );
                    return Err(BodyError::rejected(violations));
                }
                Ok(Some(chunk))
            }
        }
    }
}

/// The value of a multipart part named `name` among the fields checked
/// against the schema: its content as text, or as JSON where the part says
/// `application/json` (or `+json`). A file's content that is not UTF-8
/// stands as text with replacement characters; any other part must be
/// UTF-8.
fn part_value(
    name: &str,
    is_file: bool,
    media_type: Option<&str>,
    content: &[u8],
) -> Result<Value<'static>, String> {
    // The part's media type without parameters: `application/json`, or
    // any `+json` type.
    let is_json = media_type.is_some_and(|media_type| media_type == JSON || media_type.ends_with("+json"));
    if is_json && !is_file {
        // OpenAPI's default for an object or list part: JSON, as its
        // `Content-Type` says.
        let json: serde_json::Value = serde_json::from_slice(content)
            .map_err(|err| format!("`{name}` is not JSON: {err}"))?;
        return Ok(Value::from(json));
    }
    let text = match std::str::from_utf8(content) {
        Ok(text) => text.to_owned(),
        Err(_) if is_file => String::from_utf8_lossy(content).into_owned(),
        Err(_) => return Err(format!("`{name}` is not valid UTF-8")),
    };
    Ok(Value::String(Cow::Owned(text)))
}

/// A multipart body that could not be read: its transport's error (past
/// the limit, say) where that is the cause, else the body is malformed.
fn multipart_error(error: multer::Error) -> BodyError {
    match error {
        multer::Error::StreamReadFailed(cause) => match cause.downcast::<axum::Error>() {
            Ok(error) => BodyError::transport(*error),
            Err(cause) => BodyError::transport(axum::Error::new(cause)),
        },
        error => BodyError::malformed(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks;

    const BOUNDARY: &str = "b";

    fn request(body: &'static str) -> Request {
        Request::builder()
            .header("content-type", "multipart/form-data; boundary=b")
            .body(axum::body::Body::from(body.replace('\n', "\r\n")))
            .unwrap()
    }

    fn part(name: &str, file_name: Option<&str>, content: &str) -> String {
        let file_name = file_name.map_or(String::new(), |file| format!("; filename=\"{file}\""));
        format!(
            "--{BOUNDARY}\nContent-Disposition: form-data; name=\"{name}\"{file_name}\n\n{content}\n"
        )
    }

    fn body(parts: &[String]) -> &'static str {
        Box::leak(format!("{}--{BOUNDARY}--\n", parts.concat()).into_boxed_str())
    }

    /// A form of a required `count` (an integer of at most 9) and a
    /// required `file` of at most 8 bytes.
    static FILE: Shape = Shape::File(Some(8));
    static SHAPE: Shape = Shape::Object(&[("count", &Shape::Integer), ("file", &FILE)], None);

    fn validate(value: &Value, at: &Location, out: &mut Violations) {
        let Some(object) = checks::expect_object(value, at, out) else {
            return;
        };
        checks::required(object, at, &["count", "file"], out);
        if let Some(count) = object.get("count") {
            let at = at.property("count");
            if let Some(number) = checks::expect_integer(count, &at, out) {
                checks::maximum(number, 9.0, &at, out);
            }
        }
        if let Some(file) = object.get("file") {
            let at = at.property("file");
            if let Some(text) = checks::expect_string(file, &at, out) {
                checks::min_length(text, 1, &at, out);
            }
        }
    }

    const RULES: PartRules = PartRules {
        validate: &validate,
        shape: Some(&SHAPE),
    };

    /// Every part's name, whether it streamed, and its content; or the
    /// error that ended the body.
    async fn read_all(
        body: &'static str,
        rules: Option<PartRules>,
    ) -> Result<Vec<(String, bool, String)>, BodyError> {
        let (_, mut multipart) = read_multipart(request(body), rules).await.unwrap();
        let mut parts = Vec::new();
        while let Some(part) = multipart.next_part().await? {
            let name = part.name().to_owned();
            let streaming = part.is_streaming();
            parts.push((name, streaming, part.text().await?));
        }
        Ok(parts)
    }

    #[tokio::test]
    async fn files_stream_and_text_parts_are_read_whole_and_judged_at_the_end() {
        let form = body(&[part("file", Some("a.csv"), "1,2"), part("count", None, "3")]);
        let parts = read_all(form, Some(RULES)).await.unwrap();
        assert_eq!(
            parts,
            [
                ("file".into(), true, "1,2".into()),
                ("count".into(), false, "3".into())
            ]
        );
        // A file part the schema does not type as a file is text, file name
        // or not.
        let named = body(&[part("count", Some("n.txt"), "3"), part("file", None, "x")]);
        let parts = read_all(named, Some(RULES)).await.unwrap();
        assert_eq!(parts[0], ("count".into(), false, "3".into()));
        assert_eq!(parts[1], ("file".into(), true, "x".into()));
        // With no schema, parts with a file name stream.
        let parts = read_all(form, None).await.unwrap();
        assert!(parts[0].1);
        assert!(!parts[1].1);
    }

    #[tokio::test]
    async fn the_fields_judged_are_the_text_parts_and_a_stand_in_for_each_file() {
        static JUDGED: std::sync::Mutex<Option<serde_json::Value>> = std::sync::Mutex::new(None);
        fn record(value: &Value, _: &Location, _: &mut Violations) {
            *JUDGED.lock().unwrap() = Some(value.to_json());
        }
        // A text part given twice is a list; a JSON part is JSON; a file
        // stands as empty text, its content not UTF-8.
        static USERS: Shape = Shape::File(None);
        static FORM: Shape = Shape::Object(&[("users", &USERS)], Some(&Shape::Text));
        let form = b"--b\r\nContent-Disposition: form-data; name=\"id\"\r\n\r\ncon_1\r\n\
              --b\r\nContent-Disposition: form-data; name=\"tag\"\r\n\r\na\r\n\
              --b\r\nContent-Disposition: form-data; name=\"tag\"\r\n\r\nb\r\n\
              --b\r\nContent-Disposition: form-data; name=\"meta\"\r\n\
              Content-Type: application/json\r\n\r\n{\"n\": 1}\r\n\
              --b\r\nContent-Disposition: form-data; name=\"users\"; filename=\"u.json\"\r\n\
              Content-Type: application/json\r\n\r\n[\xff]\r\n--b--\r\n";
        let request = Request::builder()
            .header("content-type", "multipart/form-data; boundary=b")
            .body(axum::body::Body::from(&form[..]))
            .unwrap();
        let rules = PartRules {
            validate: &record,
            shape: Some(&FORM),
        };
        let (_, mut multipart) = read_multipart(request, Some(rules)).await.unwrap();
        let mut users = None;
        while let Some(part) = multipart.next_part().await.unwrap() {
            if part.name() == "users" {
                assert!(part.is_streaming());
                users = Some(part.bytes().await.unwrap());
            }
        }
        assert_eq!(users.unwrap(), &b"[\xff]"[..]);
        assert_eq!(
            JUDGED.lock().unwrap().take().unwrap(),
            serde_json::json!({"id": "con_1", "tag": ["a", "b"], "meta": {"n": 1}, "users": ""})
        );
    }

    #[tokio::test]
    async fn the_forms_rules_end_the_body_naming_each_broken_one() {
        let broken = body(&[part("count", None, "12"), part("file", Some("a"), "")]);
        let error = read_all(broken, Some(RULES)).await.unwrap_err();
        let found: Vec<(&str, &str)> = error
            .violations()
            .unwrap()
            .iter()
            .map(|violation| (violation.pointer.as_str(), violation.code))
            .collect();
        // An empty file breaks no rule judged here: its content is the
        // method's (its `minLength` stands for the text it replaced).
        assert_eq!(found, [("/count", "maximum")]);
        let response = axum::response::IntoResponse::into_response(error);
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);

        let missing = body(&[part("count", None, "1")]);
        let error = read_all(missing, Some(RULES)).await.unwrap_err();
        let found: Vec<&str> = error.violations().unwrap().iter().map(|v| v.pointer.as_str()).collect();
        assert_eq!(found, ["/file"]);
    }

    #[tokio::test]
    async fn a_file_past_its_max_length_and_text_past_the_limit_end_the_body() {
        let long = body(&[part("file", Some("a"), "123456789")]);
        let error = read_all(long, Some(RULES)).await.unwrap_err();
        let violation = error.violations().unwrap().iter().next().unwrap().clone();
        assert_eq!((violation.pointer.as_str(), violation.code), ("/file", "max_length"));

        // A file the method skips is still measured.
        let (_, multipart) = read_multipart(request(long), Some(RULES)).await.unwrap();
        assert!(multipart.finish().await.unwrap_err().violations().is_some());

        let mut request = request(body(&[part("note", None, "twelve bytes")]));
        request.extensions_mut().insert(WholeBodyLimit(10));
        let (_, mut multipart) = read_multipart(request, None).await.unwrap();
        let error = multipart.next_part().await.unwrap_err();
        assert!(error.is_too_large(), "{error}");
    }

    #[tokio::test]
    async fn a_malformed_body_is_an_error_and_another_media_type_is_refused() {
        let error = read_all("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx", None)
            .await
            .unwrap_err();
        assert!(error.to_string().contains("multipart"), "{error}");
        assert_eq!(
            axum::response::IntoResponse::into_response(error).status(),
            StatusCode::BAD_REQUEST
        );
        let json = Request::builder()
            .header("content-type", "application/json")
            .body(axum::body::Body::from("{}"))
            .unwrap();
        let refused = read_multipart(json, None).await.unwrap_err();
        assert_eq!(refused.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let no_boundary = Request::builder()
            .header("content-type", "multipart/form-data")
            .body(axum::body::Body::from("x"))
            .unwrap();
        let refused = read_multipart(no_boundary, None).await.unwrap_err();
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    }

    #[tokio::test]
    async fn the_body_stops_at_the_operations_limit() {
        let form = body(&[part("file", Some("a"), &"x".repeat(64))]);
        let mut whole = request(form);
        whole.extensions_mut().insert(crate::StreamedBodyLimit(32));
        let refused = read_multipart(whole, None).await.unwrap_err();
        assert_eq!(refused.status(), StatusCode::PAYLOAD_TOO_LARGE);

        // Without a `Content-Length`, the body ends where it passes the limit.
        let chunks = futures_util::stream::iter(
            form.replace('\n', "\r\n")
                .into_bytes()
                .chunks(16)
                .map(|chunk| Ok::<_, std::io::Error>(Bytes::copy_from_slice(chunk)))
                .collect::<Vec<_>>(),
        );
        let mut request = Request::builder()
            .header("content-type", "multipart/form-data; boundary=b")
            .body(axum::body::Body::from_stream(chunks))
            .unwrap();
        request.extensions_mut().insert(crate::StreamedBodyLimit(32));
        let (_, mut multipart) = read_multipart(request, None).await.unwrap();
        let error = async {
            let mut part = multipart.next_part().await?.unwrap();
            while part.chunk().await?.is_some() {}
            Ok::<_, BodyError>(())
        }
        .await
        .unwrap_err();
        assert!(error.is_too_large(), "{error}");
    }
}
