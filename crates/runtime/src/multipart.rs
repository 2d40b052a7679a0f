//! `multipart/form-data` bodies, which progenitor cannot send.
//!
//! A generated client re-exports [`Form`] as its `multipart::Form` when an
//! operation's body is an upload: its builder's `body` takes one, and the
//! request carries the form's content type, boundary included.

use std::hash::{BuildHasher, Hasher};

use bytes::Bytes;
use futures_util::stream::{self, BoxStream, Stream, StreamExt, TryStreamExt};
use reqwest::header::HeaderValue;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

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
///
/// A file can also be a stream ([`Form::file_stream`]), sent as it is read,
/// never whole in memory.
pub struct Form {
    boundary: String,
    /// The parts written so far, each opened by its delimiter: bytes, and
    /// the contents of the files given as streams.
    segments: Vec<Segment>,
}

enum Segment {
    Bytes(Vec<u8>),
    Stream(BoxStream<'static, Result<Bytes, BoxError>>),
}

impl std::fmt::Debug for Form {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let streams = self
            .segments
            .iter()
            .filter(|segment| matches!(segment, Segment::Stream(_)))
            .count();
        f.debug_struct("Form")
            .field("boundary", &self.boundary)
            .field("streamed_files", &streams)
            .finish_non_exhaustive()
    }
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
            segments: Vec::new(),
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

    /// Adds the file field `name` whose content is `content`, a stream of
    /// chunks sent as they come (a file read as it is sent, say with
    /// `tokio_util::io::ReaderStream`). A request with such a part is sent
    /// once: it cannot be replayed for a retry.
    pub fn file_stream<S, B, E>(
        mut self,
        name: &str,
        file_name: &str,
        content_type: &str,
        content: S,
    ) -> Self
    where
        S: Stream<Item = Result<B, E>> + Send + 'static,
        B: Into<Bytes> + 'static,
        E: Into<BoxError> + 'static,
    {
        let disposition = format!(
            "form-data; name=\"{}\"; filename=\"{}\"",
            quoted(name),
            quoted(file_name)
        );
        self.push_bytes(&head(&self.boundary, &disposition, Some(content_type)));
        let content = content.map_ok(Into::into).map_err(Into::into);
        self.segments.push(Segment::Stream(content.boxed()));
        self.push_bytes(b"\r\n");
        self
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
        self.push_bytes(&head(&self.boundary, disposition, content_type));
        self.push_bytes(content);
        self.push_bytes(b"\r\n");
        self
    }

    fn push_bytes(&mut self, bytes: &[u8]) {
        match self.segments.last_mut() {
            Some(Segment::Bytes(last)) => last.extend_from_slice(bytes),
            _ => self.segments.push(Segment::Bytes(bytes.to_vec())),
        }
    }
}

/// A part's delimiter and headers, up to its content.
fn head(boundary: &str, disposition: &str, content_type: Option<&str>) -> Vec<u8> {
    let mut head = format!("--{boundary}\r\nContent-Disposition: {disposition}\r\n");
    if let Some(content_type) = content_type {
        head.push_str(&format!("Content-Type: {}\r\n", quoted(content_type)));
    }
    head.push_str("\r\n");
    head.into_bytes()
}

/// The form's bytes, closed by the final delimiter: bytes where no part is
/// a stream, so a [`Transport`](crate::hooks::Transport) can clone the
/// request to retry it; else a stream of the parts, read as they are sent.
impl From<Form> for reqwest::Body {
    fn from(mut form: Form) -> Self {
        let close = format!("--{}--\r\n", form.boundary);
        form.push_bytes(close.as_bytes());
        if let [Segment::Bytes(_)] = &form.segments[..] {
            let Some(Segment::Bytes(body)) = form.segments.pop() else {
                unreachable!("one segment of bytes");
            };
            return reqwest::Body::from(body);
        }
        let parts = stream::iter(form.segments).flat_map(|segment| match segment {
            Segment::Bytes(bytes) => stream::once(async { Ok(Bytes::from(bytes)) }).boxed(),
            Segment::Stream(content) => content,
        });
        reqwest::Body::wrap_stream(parts)
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

    #[tokio::test]
    async fn a_streamed_file_is_sent_as_its_chunks_come_between_the_same_delimiters() {
        let chunks = || {
            stream::iter(["1,", "2\n", "3,4\n"].map(|chunk| Ok::<_, std::io::Error>(chunk.as_bytes())))
        };
        let form = Form::new()
            .text("comment", "c")
            .file_stream("f", "x.csv", "text/csv", chunks())
            .text("after", "d");
        let boundary = form.boundary().to_string();
        let body = reqwest::Body::from(form);
        assert!(body.as_bytes().is_none(), "a stream, not bytes");
        let sent: Vec<u8> = http_body_util::BodyExt::collect(body)
            .await
            .unwrap()
            .to_bytes()
            .to_vec();
        let whole = Form::new()
            .text("comment", "c")
            .file("f", "x.csv", "text/csv", "1,2\n3,4\n")
            .text("after", "d");
        let expected = String::from_utf8(
            reqwest::Body::from(whole).as_bytes().unwrap().to_vec(),
        )
        .unwrap();
        let expected_boundary = expected.lines().next().unwrap().trim_start_matches("--").to_string();
        assert_eq!(
            String::from_utf8(sent).unwrap(),
            expected.replace(&expected_boundary, &boundary)
        );
    }
}
