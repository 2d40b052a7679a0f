//! `multipart/form-data` bodies, which progenitor cannot send.
//!
//! A generated client re-exports [`Form`] as its `multipart::Form` when an
//! operation's body is an upload: its builder's `body` takes one, and the
//! request carries the form's content type, boundary included.

use std::hash::{BuildHasher, Hasher};

use reqwest::header::HeaderValue;

/// A `multipart/form-data` body (RFC 7578): text fields and files, in order.
///
/// ```rust
/// use openapi_crates_runtime::multipart::Form;
///
/// let form = Form::new()
///     .text("comment", "first import")
///     .file("users", "users.csv", "text/csv", "id,name\n1,Ada\n");
/// assert!(form.content_type().to_str().unwrap().starts_with("multipart/form-data; boundary="));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form {
    boundary: String,
    /// The parts written so far, each opened by its delimiter.
    body: Vec<u8>,
}

impl Default for Form {
    fn default() -> Self {
        Self::new()
    }
}

impl Form {
    /// An empty form with a boundary of 128 random bits, which no part is
    /// expected to contain.
    pub fn new() -> Self {
        let random = || std::collections::hash_map::RandomState::new().build_hasher().finish();
        Self {
            boundary: format!("{:016x}{:016x}", random(), random()),
            body: Vec::new(),
        }
    }

    /// Adds the text field `name`.
    pub fn text(self, name: &str, value: impl AsRef<str>) -> Self {
        let disposition = format!("form-data; name=\"{}\"", quoted(name));
        self.part(&disposition, None, value.as_ref().as_bytes())
    }

    /// Adds the file field `name`: `content` under `file_name`, of media type
    /// `content_type`.
    pub fn file(
        self,
        name: &str,
        file_name: &str,
        content_type: &str,
        content: impl AsRef<[u8]>,
    ) -> Self {
        let disposition = format!(
            "form-data; name=\"{}\"; filename=\"{}\"",
            quoted(name),
            quoted(file_name)
        );
        self.part(&disposition, Some(content_type), content.as_ref())
    }

    /// The boundary between the parts.
    pub fn boundary(&self) -> &str {
        &self.boundary
    }

    /// `multipart/form-data; boundary=...`, the request's `Content-Type`.
    pub fn content_type(&self) -> HeaderValue {
        HeaderValue::from_str(&format!("multipart/form-data; boundary={}", self.boundary))
            .expect("a hexadecimal boundary is a valid header value")
    }

    fn part(mut self, disposition: &str, content_type: Option<&str>, content: &[u8]) -> Self {
        let mut head = format!("--{}\r\nContent-Disposition: {disposition}\r\n", self.boundary);
        if let Some(content_type) = content_type {
            head.push_str(&format!("Content-Type: {}\r\n", quoted(content_type)));
        }
        head.push_str("\r\n");
        self.body.extend_from_slice(head.as_bytes());
        self.body.extend_from_slice(content);
        self.body.extend_from_slice(b"\r\n");
        self
    }
}

/// The form's bytes, closed by the final delimiter. From bytes, so a
/// [`Transport`](crate::hooks::Transport) can clone the request to retry it.
impl From<Form> for reqwest::Body {
    fn from(form: Form) -> Self {
        let mut body = form.body;
        body.extend_from_slice(format!("--{}--\r\n", form.boundary).as_bytes());
        reqwest::Body::from(body)
    }
}

/// `text` as a quoted header parameter may hold it: quotes and line breaks
/// percent-encoded, as browsers send them (HTML's form submission).
fn quoted(text: &str) -> String {
    text.replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_delimited_and_names_quoted() {
        let form = Form::new()
            .text("say \"hi\"", "a\r\nb")
            .file("f", "x.csv", "text/csv", "1,2\n");
        let boundary = form.boundary().to_string();
        let body = reqwest::Body::from(form);
        let bytes = String::from_utf8(body.as_bytes().unwrap().to_vec()).unwrap();
        assert_eq!(
            bytes,
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"say %22hi%22\"\r\n\r\na\r\nb\r\n\
                 --{boundary}\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.csv\"\r\n\
                 Content-Type: text/csv\r\n\r\n1,2\n\r\n--{boundary}--\r\n"
            )
        );
    }
}
