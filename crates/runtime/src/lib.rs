//! The spec-independent code every generated crate shares.
//!
//! [`wire`] is how parameters travel: the one definition of a parameter's
//! location, style and shape, which the generator's model lowers each
//! parameter into and every generated crate, the mock and `spec-diff` read.
//! It needs nothing but the standard library, so the generator itself
//! depends on this crate with `default-features = false`.
//!
//! The `server` feature (on by default) adds the request plumbing every
//! generated server crate shares; the `client` feature what every generated
//! client sends with: its hooks (`hooks::Transport`), the parameters
//! progenitor's builders do not write (`client`) and multipart bodies. The
//! `types` feature is what every generated types crate calls (`types`): the
//! shared functions of its serde impls (`patterns` adds the matching of
//! constrained strings' patterns).
//!
//! Generated server crates hold what depends on the spec (the trait, the
//! response enums, the routes and each schema's rules as [`rules`] values);
//! everything that does not depend on it lives here, as ordinary, tested Rust:
//! the API's error body, reading credentials (bearer tokens, API keys), body
//! decoding by content type
//! (JSON, or a form with bracket notation), and the one reading of the rules
//! ([`rules::Check::run`], with the rule checks it calls). It plays the part `progenitor-client` plays for
//! progenitor's clients.
//!
//! Hand-written code around a generated server (a reference implementation, a
//! rate limiter in front of it, tests) uses the same functions, so an error
//! body or a token is read and written the same way everywhere.
//!
//! Serve a generated router with [`serve`]: unlike `axum::serve`, it cuts off
//! clients that send slowly or not at all and bounds the number of open
//! connections ([`ServeOptions`]).

// The error of a request step is the response refusing it. It is built once
// and returned straight to axum, never stored: boxing it would buy nothing.
#![allow(clippy::result_large_err)]

pub mod rules;
pub mod wire;

/// Items of the `client` feature: what a generated client sends with.
macro_rules! client {
    ($($item:item)*) => {
        $(
            #[cfg(feature = "client")]
            $item
        )*
    };
}

/// What a generated types crate calls (the `types` feature).
#[cfg(feature = "types")]
pub mod types;

#[cfg(all(feature = "opentelemetry", any(feature = "client", feature = "server")))]
mod propagation;

/// Responses sent as a series of typed items: events, JSON Lines.
#[cfg(any(feature = "client", feature = "server"))]
pub mod stream;

/// WebSocket connections of operations answering `101 Switching Protocols`.
#[cfg(all(feature = "websocket", any(feature = "client", feature = "server")))]
pub mod websocket;

client! {
    pub mod client;
    pub mod credentials;
    pub mod hooks;
    pub mod retry;
    pub mod multipart;
    pub mod timeouts;
}

/// Items of the `server` feature: the request plumbing of axum servers.
macro_rules! server {
    ($($item:item)*) => {
        $(
            #[cfg(feature = "server")]
            $item
        )*
    };
}

server! {
    mod auth;
    mod body;
    pub mod checks;
    mod chosen;
    mod errors;
    pub mod form;
    pub mod json;
    pub mod params;
    mod parts;
    mod response;
    mod router_error;
    mod routing;
    mod serve;
    mod trace;

    pub use auth::{
        AuthError, AuthorizationRequest, Credential, CredentialIn, RequestContext, SecurityScheme,
        bearer_token, carries_credential, parse_bearer,
    };
    pub use body::{
        BodyError, BodyStream, FORM, Head, JSON, RouterOptions, STREAMED_BODY_LIMIT,
        StreamedBodyLimit, Typing, body_kind, decode_body, decode_shaped_body, form_to_value,
        has_content_type, has_no_body, into_typed, into_typed_by, read_body, read_bytes, read_optional_body, read_optional_raw_body, read_optional_streamed_body,
        read_raw_body, read_streamed_body,
    };
    pub use checks::{Location, Violation, Violations};
    pub use parts::{PartRules, Validate, WholeBodyLimit, read_multipart, read_optional_multipart};
    pub use chosen::{any_response, default_response, range_response, raw_response};
    pub use errors::{
        ErrorBody, ErrorItem, error_response, method_not_allowed, not_found, parameters_rejected,
        path_rejected, raw_path_rejected, status, validation_failed,
    };
    pub use response::{json_response, json_response_as};
    pub use router_error::{
        MAX_HEADER_BYTES, MAX_HEADERS, MAX_URI_LENGTH, RouterError, RouterErrorFuture,
        RouterErrorLayer, RouterErrorService,
    };
    pub use routing::{Middleware, mount, operation_route, query_has};
    pub use serve::{ServeOptions, serve, serve_with_shutdown};
    pub use trace::{Served, Traced, Tracing, traced};
}
