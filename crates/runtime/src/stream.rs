//! Responses sent as a series of typed items: server-sent events
//! (`text/event-stream`), JSON Lines (`application/jsonl`,
//! `application/x-ndjson`) and JSON text sequences (`application/json-seq`,
//! RFC 7464).
//!
//! A server method returns an `EventStream` or a `LineStream` of its items
//! (the `server` feature), which the router sends as they come (events with
//! axum's `Sse`, keep-alive comments included); a client call returns
//! `ReceivedEvents` or `ReceivedLines` (the `client` feature), a `Stream` of
//! the items decoded one by one. Events are parsed by `eventsource-stream`
//! and lines split by `tokio-util`'s codec: no framing is parsed here.
//!
//! An item that does not decode as its type is an error item
//! (`StreamError::Data`), and the stream goes on: a caller that wants the
//! first such error to end it stops reading there.

use std::time::Duration;

/// One server-sent event: its `data` (the item) and the fields beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event<T> {
    /// The item the event carries.
    pub data: T,
    /// The event's type; `None` for the default type, `message`.
    pub event: Option<String>,
    /// The event's id, which a reconnecting client sends back as
    /// `Last-Event-ID`. On a received event, the last id the stream set:
    /// server-sent events keep it until an event sets another.
    pub id: Option<String>,
    /// How long a client waits before reconnecting.
    pub retry: Option<Duration>,
}

impl<T> Event<T> {
    /// An event of the default type carrying `data`.
    pub fn new(data: T) -> Self {
        Event {
            data,
            event: None,
            id: None,
            retry: None,
        }
    }

    /// The event with type `event`.
    pub fn event(mut self, event: impl Into<String>) -> Self {
        self.event = Some(event.into());
        self
    }

    /// The event with id `id`.
    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// The event with reconnection delay `retry`.
    pub fn retry(mut self, retry: Duration) -> Self {
        self.retry = Some(retry);
        self
    }
}

/// An item the spec leaves untyped: any JSON value.
pub type AnyValue = serde_json::Value;

/// How an event's `data` is the item: JSON text ([`Json`], the default) or
/// the text itself ([`Text`], for a stream whose spec describes `data` as a
/// plain string).
pub trait DataEncoding: Send + Sync + 'static {}

/// The item is the JSON value its data holds.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json;

/// The item is its data's text.
#[derive(Debug, Clone, Copy, Default)]
pub struct Text;

impl DataEncoding for Json {}
impl DataEncoding for Text {}

/// Reads an item from an event's data.
pub trait DecodeData<T>: DataEncoding {
    fn decode(data: &str) -> Result<T, serde_json::Error>;
}

impl<T: serde::de::DeserializeOwned> DecodeData<T> for Json {
    fn decode(data: &str) -> Result<T, serde_json::Error> {
        serde_json::from_str(data)
    }
}

impl DecodeData<String> for Text {
    fn decode(data: &str) -> Result<String, serde_json::Error> {
        Ok(data.to_string())
    }
}

/// The record separator of a JSON text sequence.
const RECORD_SEPARATOR: u8 = 0x1e;

#[cfg(feature = "server")]
pub use self::server::{EncodeData, EventStream, JsonOrStream, LineStream};
/// A binary request body as it arrives, which a server method reads as a
/// stream.
#[cfg(feature = "server")]
pub use crate::body::{BodyError, BodyStream};
/// A `multipart/form-data` request body as its parts arrive.
#[cfg(feature = "server")]
pub use crate::parts::{Multipart, Part};

#[cfg(feature = "server")]
mod server {
    use std::fmt;
    use std::marker::PhantomData;
    use std::time::Duration;

    use axum::http::StatusCode;
    use axum::response::sse::{self, KeepAlive, Sse};
    use axum::response::{IntoResponse, Response};
    use futures_util::stream::{BoxStream, Stream, StreamExt};

    use super::{DataEncoding, Event, Json, RECORD_SEPARATOR, Text};

    /// Writes an item as an event's data.
    pub trait EncodeData<T>: DataEncoding {
        fn data(event: sse::Event, item: &T) -> Result<sse::Event, axum::Error>;
    }

    impl<T: serde::Serialize> EncodeData<T> for Json {
        /// Serialized straight into the event, as axum's `json_data` does.
        fn data(event: sse::Event, item: &T) -> Result<sse::Event, axum::Error> {
            event.json_data(item)
        }
    }

    impl EncodeData<String> for Text {
        fn data(event: sse::Event, item: &String) -> Result<sse::Event, axum::Error> {
            Ok(event.data(item))
        }
    }

    /// Whether a JSON Lines media type is framed as a JSON text sequence
    /// (RFC 7464: each value after a record separator) rather than one
    /// value per line.
    fn is_json_seq(media_type: &str) -> bool {
        media_type
            .split(';')
            .next()
            .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json-seq"))
    }

    /// The events a server method answers with, sent as `text/event-stream`
    /// as they come. A comment is sent after every 15 s without an event
    /// (axum's [`KeepAlive`] default), so proxies keep the connection open;
    /// [`EventStream::keep_alive`] changes the interval.
    pub struct EventStream<T, E = Json> {
        events: BoxStream<'static, Event<T>>,
        keep_alive: Option<Duration>,
        encoding: PhantomData<fn() -> E>,
    }

    impl<T, E> EventStream<T, E> {
        /// The stream sending `events`, in their order, then ending.
        pub fn new(events: impl Stream<Item = Event<T>> + Send + 'static) -> Self {
            EventStream {
                events: events.boxed(),
                keep_alive: Some(Duration::from_secs(15)),
                encoding: PhantomData,
            }
        }

        /// Sends a keep-alive comment after every `interval` without an
        /// event; `None` sends none.
        pub fn keep_alive(mut self, interval: Option<Duration>) -> Self {
            self.keep_alive = interval;
            self
        }
    }

    impl<T, E: EncodeData<T>> EventStream<T, E> {
        /// The response with `status` sending the events. An item that
        /// does not serialize ends the stream (the connection is closed
        /// mid-body, so the client sees it break).
        pub fn into_response_with(self, status: StatusCode) -> Response
        where
            T: Send + 'static,
        {
            let events = self.events.map(|event| {
                let mut sent = E::data(sse::Event::default(), &event.data)?;
                if let Some(name) = event.event {
                    sent = sent.event(name);
                }
                if let Some(id) = event.id {
                    sent = sent.id(id);
                }
                if let Some(retry) = event.retry {
                    sent = sent.retry(retry);
                }
                Ok::<_, axum::Error>(sent)
            });
            let mut response = match self.keep_alive {
                Some(interval) => Sse::new(events)
                    .keep_alive(KeepAlive::new().interval(interval))
                    .into_response(),
                None => Sse::new(events).into_response(),
            };
            *response.status_mut() = status;
            response
        }
    }

    impl<T, E> fmt::Debug for EventStream<T, E> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_struct("EventStream")
                .field("keep_alive", &self.keep_alive)
                .finish_non_exhaustive()
        }
    }

    /// The items a server method answers with as JSON Lines (or a JSON text
    /// sequence, when that is the operation's media type), each sent as it
    /// comes.
    pub struct LineStream<T> {
        items: BoxStream<'static, T>,
    }

    impl<T> LineStream<T> {
        /// The stream sending `items`, in their order, then ending.
        pub fn new(items: impl Stream<Item = T> + Send + 'static) -> Self {
            LineStream {
                items: items.boxed(),
            }
        }
    }

    impl<T: serde::Serialize + Send + 'static> LineStream<T> {
        /// The response with `status` sending the items in `media_type`
        /// (`application/jsonl`, `application/x-ndjson`, or
        /// `application/json-seq`, which puts a record separator before
        /// each). An item that does not serialize ends the stream.
        pub fn into_response_with(self, status: StatusCode, media_type: &'static str) -> Response {
            let separated = is_json_seq(media_type);
            let lines = self.items.map(move |item| {
                let mut line = Vec::with_capacity(128);
                if separated {
                    line.push(RECORD_SEPARATOR);
                }
                serde_json::to_writer(&mut line, &item)?;
                line.push(b'\n');
                Ok::<_, serde_json::Error>(line)
            });
            (
                status,
                [(axum::http::header::CONTENT_TYPE, media_type)],
                axum::body::Body::from_stream(lines),
            )
                .into_response()
        }
    }

    impl<T> fmt::Debug for LineStream<T> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_struct("LineStream").finish_non_exhaustive()
        }
    }

    /// The body of a response that is one JSON value or a stream of items,
    /// as the spec offers both for one status (the implementation picks,
    /// usually by the request's `Accept` or a field of its body).
    #[derive(Debug)]
    pub enum JsonOrStream<T, S> {
        /// The JSON body.
        Json(T),
        /// The stream of items.
        Stream(S),
    }
}

#[cfg(feature = "client")]
pub use self::client::{
    MAX_EVENT_BYTES, MAX_LINE_BYTES, ReceivedEvents, ReceivedLines, StreamError,
};

#[cfg(feature = "client")]
mod client {
    use std::fmt;
    use std::marker::PhantomData;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use bytes::Bytes;
    use eventsource_stream::Eventsource;
    use futures_util::stream::{BoxStream, Stream, StreamExt};
    use tokio_util::codec::{AnyDelimiterCodec, FramedRead};
    use tokio_util::io::StreamReader;

    use super::{DecodeData, Event, Json, RECORD_SEPARATOR};

    type BoxError = Box<dyn std::error::Error + Send + Sync>;

    /// What went wrong with one item of a received stream.
    #[derive(Debug)]
    pub enum StreamError {
        /// The item's data does not decode as its type. The stream goes on
        /// with the next item.
        Data {
            /// The data as received.
            data: String,
            source: serde_json::Error,
        },
        /// The stream broke: the connection failed, or what arrived is not
        /// the stream's framing (text that is not UTF-8, say). Nothing
        /// follows.
        Transport(BoxError),
    }

    impl fmt::Display for StreamError {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self {
                StreamError::Data { source, .. } => {
                    write!(f, "an item of the stream does not decode: {source}")
                }
                StreamError::Transport(source) => write!(f, "the stream broke: {source}"),
            }
        }
    }

    impl std::error::Error for StreamError {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            match self {
                StreamError::Data { source, .. } => Some(source),
                StreamError::Transport(source) => Some(source.as_ref()),
            }
        }
    }

    /// A response body's bytes as they arrive, whatever its source.
    type BodyChunks = BoxStream<'static, Result<Bytes, BoxError>>;

    /// The events of a `text/event-stream` response, each `data` decoded
    /// as `T` ([`Json`] unless the spec describes it as plain text).
    pub struct ReceivedEvents<T, E = Json> {
        // The parser's own stream, polled directly: each event is decoded
        // in `poll_next`, with no stream adapter or boxed call per event.
        events: eventsource_stream::EventStream<BodyChunks>,
        item: PhantomData<fn() -> (T, E)>,
    }

    impl<T, E: DecodeData<T>> ReceivedEvents<T, E> {
        /// The events of `body`, a response body's bytes as they arrive,
        /// each at most [`MAX_EVENT_BYTES`].
        pub fn new<S, X>(body: S) -> Self
        where
            S: Stream<Item = Result<Bytes, X>> + Send + 'static,
            X: std::error::Error + Send + Sync + 'static,
        {
            Self::bounded(body, MAX_EVENT_BYTES)
        }

        /// [`ReceivedEvents::new`] with events of at most `max` bytes.
        pub(super) fn bounded<S, X>(body: S, max: usize) -> Self
        where
            S: Stream<Item = Result<Bytes, X>> + Send + 'static,
            X: std::error::Error + Send + Sync + 'static,
        {
            let mut bound = EventBound::new(max);
            let body = body
                .map(|chunk| chunk.map_err(|error| Box::new(error) as BoxError))
                .scan(false, move |ended, chunk| {
                    let chunk = match chunk {
                        Ok(chunk) if !*ended => bound.pass(chunk),
                        error => error,
                    };
                    let next = (!*ended).then_some(chunk);
                    *ended = *ended || next.as_ref().is_some_and(Result::is_err);
                    std::future::ready(next)
                });
            ReceivedEvents {
                events: body.boxed().eventsource(),
                item: PhantomData,
            }
        }
    }

    /// The most bytes of one received event (its lines up to the blank line
    /// ending it): a server sending one endless event would otherwise grow
    /// the parser's buffers without bound; past it, the stream ends with a
    /// [`StreamError::Transport`].
    pub const MAX_EVENT_BYTES: usize = 64 * 1024 * 1024;

    /// Where the events of a body end, as far as their size needs: the
    /// bytes since the last blank line (two line ends: `\n`, `\r` or
    /// `\r\n`). The event's fields are `eventsource-stream`'s to read.
    struct EventBound {
        max: usize,
        /// Bytes of the event under way.
        pending: usize,
        /// Whether the line under way is empty so far.
        line_empty: bool,
        /// Whether the last byte was a `\r`, whose `\n` ends no other line.
        after_cr: bool,
    }

    impl EventBound {
        fn new(max: usize) -> Self {
            Self {
                max,
                pending: 0,
                line_empty: true,
                after_cr: false,
            }
        }

        /// `chunk`, or an error where an event runs past the most bytes.
        /// Only line ends are looked at (`memchr`), a few per event.
        fn pass(&mut self, chunk: Bytes) -> Result<Bytes, BoxError> {
            let mut line_start = 0;
            let mut event_start = None;
            for at in memchr::memchr2_iter(b'\r', b'\n', &chunk) {
                if at > line_start {
                    self.line_empty = false;
                    self.after_cr = false;
                }
                let byte = chunk[at];
                let after_cr = std::mem::replace(&mut self.after_cr, byte == b'\r');
                if byte == b'\n' && after_cr {
                    // The `\n` of a `\r\n`: the line ended at its `\r`.
                } else if self.line_empty {
                    event_start = Some(at + 1);
                } else {
                    self.line_empty = true;
                }
                line_start = at + 1;
            }
            if chunk.len() > line_start {
                self.line_empty = false;
                self.after_cr = false;
            }
            self.pending = match event_start {
                Some(start) => chunk.len() - start,
                None => self.pending + chunk.len(),
            };
            if self.pending > self.max {
                return Err(format!("an event is longer than {} bytes", self.max).into());
            }
            Ok(chunk)
        }
    }

    impl<T, E: DecodeData<T>> Stream for ReceivedEvents<T, E> {
        type Item = Result<Event<T>, StreamError>;

        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            let received = match self.events.poll_next_unpin(cx) {
                Poll::Ready(Some(Ok(received))) => received,
                Poll::Ready(Some(Err(error))) => {
                    let error = StreamError::Transport(error.to_string().into());
                    return Poll::Ready(Some(Err(error)));
                }
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            };
            let data = match E::decode(&received.data) {
                Ok(data) => data,
                Err(source) => {
                    let error = StreamError::Data {
                        data: received.data,
                        source,
                    };
                    return Poll::Ready(Some(Err(error)));
                }
            };
            Poll::Ready(Some(Ok(Event {
                data,
                event: Some(received.event).filter(|name| !name.is_empty() && name != "message"),
                id: Some(received.id).filter(|id| !id.is_empty()),
                retry: received.retry,
            })))
        }
    }

    impl<T, E> fmt::Debug for ReceivedEvents<T, E> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_struct("ReceivedEvents").finish_non_exhaustive()
        }
    }

    /// The longest item [`ReceivedLines`] waits for: 64 MiB. A server
    /// sending one endless line would otherwise grow the client's buffer
    /// without bound; past it, the stream ends with a
    /// [`StreamError::Transport`].
    pub const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

    /// The items of a JSON Lines response (or a JSON text sequence), each
    /// decoded as `T` as its line arrives, each at most [`MAX_LINE_BYTES`].
    pub struct ReceivedLines<T> {
        items: BoxStream<'static, Result<T, StreamError>>,
    }

    impl<T: serde::de::DeserializeOwned + Send + 'static> ReceivedLines<T> {
        /// The items of `body`, one JSON value per line.
        pub fn json_lines<S, X>(body: S) -> Self
        where
            S: Stream<Item = Result<Bytes, X>> + Send + 'static,
            X: std::error::Error + Send + Sync + 'static,
        {
            Self::split(body, b'\n', MAX_LINE_BYTES)
        }

        /// The items of `body`, a JSON text sequence (RFC 7464).
        pub fn json_seq<S, X>(body: S) -> Self
        where
            S: Stream<Item = Result<Bytes, X>> + Send + 'static,
            X: std::error::Error + Send + Sync + 'static,
        {
            Self::split(body, RECORD_SEPARATOR, MAX_LINE_BYTES)
        }

        /// The items of `body` between `delimiter`s, blank ones skipped
        /// (the one before a sequence's first separator, a last newline).
        /// An item longer than `max` bytes ends the stream with an error
        /// rather than growing the buffer that waits for its end.
        pub(super) fn split<S, X>(body: S, delimiter: u8, max: usize) -> Self
        where
            S: Stream<Item = Result<Bytes, X>> + Send + 'static,
            X: std::error::Error + Send + Sync + 'static,
        {
            let reader = StreamReader::new(body.map(|chunk| chunk.map_err(std::io::Error::other)));
            let codec =
                AnyDelimiterCodec::new_with_max_length(vec![delimiter], vec![delimiter], max);
            let items = FramedRead::new(reader, codec).filter_map(|record| async move {
                let record = match record {
                    Ok(record) => record,
                    Err(error) => return Some(Err(StreamError::Transport(Box::new(error)))),
                };
                let text = record.trim_ascii();
                if text.is_empty() {
                    return None;
                }
                Some(
                    serde_json::from_slice(text).map_err(|source| StreamError::Data {
                        data: String::from_utf8_lossy(text).into_owned(),
                        source,
                    }),
                )
            });
            ReceivedLines {
                items: items.boxed(),
            }
        }
    }

    impl<T> Stream for ReceivedLines<T> {
        type Item = Result<T, StreamError>;

        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            self.items.poll_next_unpin(cx)
        }
    }

    impl<T> fmt::Debug for ReceivedLines<T> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.debug_struct("ReceivedLines").finish_non_exhaustive()
        }
    }
}

#[cfg(all(test, feature = "client", feature = "server"))]
mod tests {
    use std::time::Duration;

    use axum::http::StatusCode;
    use futures_util::stream::{self, StreamExt};
    use http_body_util::BodyExt;
    use serde::{Deserialize, Serialize};

    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Chunk {
        index: u32,
        text: String,
    }

    fn chunk(index: u32) -> Chunk {
        Chunk {
            index,
            text: format!("part\n{index}"),
        }
    }

    /// The body of `response` as the client reads it: its bytes as they
    /// come.
    fn body_of(
        response: axum::response::Response,
    ) -> impl futures_util::Stream<Item = Result<bytes::Bytes, axum::Error>> + Send + 'static {
        response.into_body().into_data_stream()
    }

    #[tokio::test]
    async fn events_sent_by_the_server_are_received_typed_in_order() {
        let sent = vec![
            Event::new(chunk(1)),
            Event::new(chunk(2)).event("delta").id("2"),
            Event::new(chunk(3)).retry(Duration::from_millis(1500)),
        ];
        let response = EventStream::<Chunk>::new(stream::iter(sent.clone()))
            .keep_alive(None)
            .into_response_with(StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        let received: Vec<Event<Chunk>> = ReceivedEvents::<Chunk>::new(body_of(response))
            .map(|event| event.expect("decodes"))
            .collect()
            .await;
        let mut expected = sent;
        // The last event id stays the stream's until an event sets another.
        expected[2].id = Some("2".into());
        assert_eq!(received, expected);
    }

    #[tokio::test]
    async fn text_events_carry_their_data_as_it_is() {
        let sent = vec![
            Event::new("[DONE]".to_string()),
            Event::new("a\nb".to_string()),
        ];
        let response = EventStream::<String, Text>::new(stream::iter(sent.clone()))
            .into_response_with(StatusCode::OK);
        let received: Vec<Event<String>> = ReceivedEvents::<String, Text>::new(body_of(response))
            .map(|event| event.expect("text always decodes"))
            .collect()
            .await;
        assert_eq!(received, sent);
    }

    #[tokio::test]
    async fn an_event_that_does_not_decode_is_an_error_item_and_the_stream_goes_on() {
        let wire = "data: {\"index\": 1, \"text\": \"a\"}\n\n\
                    data: {\"index\": \"two\"}\n\n\
                    : a keep-alive comment\n\n\
                    data: {\"index\": 3, \"text\": \"c\"}\n\n";
        let body = stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from(wire))]);
        let received: Vec<_> = ReceivedEvents::<Chunk>::new(body).collect().await;
        assert_eq!(received.len(), 3, "{received:?}");
        assert_eq!(received[0].as_ref().unwrap().data.index, 1);
        match &received[1] {
            Err(StreamError::Data { data, .. }) => assert_eq!(data, "{\"index\": \"two\"}"),
            other => panic!("expected a data error, got {other:?}"),
        }
        assert_eq!(received[2].as_ref().unwrap().data.index, 3);
    }

    #[tokio::test]
    async fn lines_and_sequences_round_trip_whatever_the_chunking() {
        for media_type in ["application/x-ndjson", "application/json-seq"] {
            let sent: Vec<Chunk> = (1..=3).map(chunk).collect();
            let response = LineStream::new(stream::iter(sent.clone()))
                .into_response_with(StatusCode::OK, media_type);
            assert_eq!(response.headers()["content-type"], media_type);
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            // One byte at a time: no item may depend on arriving whole.
            let pieces: Vec<Result<bytes::Bytes, std::io::Error>> = bytes
                .iter()
                .map(|byte| Ok(bytes::Bytes::copy_from_slice(&[*byte])))
                .collect();
            let body = stream::iter(pieces);
            let received = if media_type == "application/json-seq" {
                ReceivedLines::<Chunk>::json_seq(body)
            } else {
                ReceivedLines::<Chunk>::json_lines(body)
            };
            let received: Vec<Chunk> = received.map(|item| item.expect("decodes")).collect().await;
            assert_eq!(received, sent, "{media_type}");
        }
    }

    #[tokio::test]
    async fn a_line_that_does_not_decode_is_an_error_item() {
        let body = stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from(
            "{\"index\": 1, \"text\": \"a\"}\nnot json\n\n{\"index\": 2, \"text\": \"b\"}",
        ))]);
        let received: Vec<_> = ReceivedLines::<Chunk>::json_lines(body).collect().await;
        assert_eq!(received.len(), 3, "blank lines are skipped: {received:?}");
        assert!(matches!(&received[1], Err(StreamError::Data { data, .. }) if data == "not json"));
        assert_eq!(received[2].as_ref().unwrap().index, 2);
    }

    #[tokio::test]
    async fn a_line_longer_than_the_cap_ends_the_stream_without_growing_it() {
        let short = "{\"index\": 1, \"text\": \"a\"}\n";
        // An endless line: more chunks than the cap, never a newline.
        let endless = stream::iter(std::iter::repeat_n(
            bytes::Bytes::from_static(&[b'x'; 64]),
            64,
        ));
        let body = stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from(short))])
            .chain(endless.map(Ok));
        let lines = ReceivedLines::<Chunk>::split(body, b'\n', 1024);
        let received: Vec<_> = lines.collect().await;
        assert_eq!(received[0].as_ref().unwrap().index, 1);
        assert!(
            matches!(received.last(), Some(Err(StreamError::Transport(_)))),
            "{received:?}"
        );
        assert!(received.len() <= 3, "{received:?}");
    }

    #[tokio::test]
    async fn an_event_longer_than_the_cap_ends_the_stream() {
        // Events ending in each kind of blank line pass however many there
        // are, each under the cap of 64 bytes.
        let event = |end: &str| format!("data: {{\"index\": 1, \"text\": \"a\"}}{end}{end}");
        let ends = ["\r", "\n", "\r\n"].map(|end| event(end).repeat(8));
        let body =
            stream::iter(ends.map(|events| Ok::<_, std::io::Error>(bytes::Bytes::from(events))));
        let received: Vec<_> = ReceivedEvents::<Chunk>::bounded(body, 64).collect().await;
        assert_eq!(received.len(), 24, "{received:?}");
        assert!(received.iter().all(Result::is_ok), "{received:?}");

        // An endless event, its data lines never followed by a blank one.
        let first = bytes::Bytes::from(event("\n"));
        let endless = stream::iter(std::iter::repeat_n(
            bytes::Bytes::from_static(b"data: xxxxxxxxxxxxxxxxxxxxxxxxxx\r\n"),
            64,
        ));
        let body = stream::iter([Ok::<_, std::io::Error>(first)]).chain(endless.map(Ok));
        let received: Vec<_> = ReceivedEvents::<Chunk>::bounded(body, 1024).collect().await;
        assert_eq!(received[0].as_ref().unwrap().data.index, 1);
        assert!(
            matches!(received.last(), Some(Err(StreamError::Transport(_)))),
            "{received:?}"
        );
        assert_eq!(received.len(), 2, "{received:?}");
    }
}
