//! Stage 3: turn the model into Rust token streams and manifests, one module
//! per generated crate.
//!
//! The generated crates and what they are for:
//! - [`types`]: every component schema, once, as serde types with validating
//!   constructors. Client and server both use these, so a value one side
//!   serializes is exactly what the other deserializes.
//! - [`client`]: a `reqwest` client built by progenitor, with every schema
//!   replaced by the types crate's definition.
//! - [`server`]: a trait to implement and an `axum` router that authenticates,
//!   decodes and validates requests before calling it.

pub mod client;
pub mod manifest;
pub mod server;
pub mod types;

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::diagnostic::Diagnostic;
use crate::load::LoadedSpec;

/// The generated crates' package names.
pub const TYPES_CRATE: &str = "tenant-api-types";
pub const CLIENT_CRATE: &str = "tenant-api-client";
pub const SERVER_CRATE: &str = "tenant-api-server";

/// The Rust path of a crate given its package name.
pub fn crate_ident(package: &str) -> proc_macro2::Ident {
    quote::format_ident!("{}", package.replace('-', "_"))
}

/// Parses a template of hand-written Rust that a generated crate includes
/// verbatim. A failure is a bug of the generator, reported as such.
pub(crate) fn parse_template(
    spec: &LoadedSpec,
    name: &str,
    source: &str,
) -> Result<syn::File, Diagnostic> {
    syn::parse_str(source).map_err(|err| {
        Diagnostic::new(
            &spec.path,
            format!("internal error: the template {name} does not parse: {err}"),
        )
    })
}

/// Runs a third-party generator, turning both its errors and its panics into
/// diagnostics. The model stage rejects every construct known to make
/// progenitor or typify panic; this is the backstop for unknown ones, so a
/// surprise still ends in a message and exit status 1 rather than a crash.
pub(crate) fn run_generator<T>(
    spec: &LoadedSpec,
    what: &str,
    generate: impl FnOnce() -> Result<T, String>,
) -> Result<T, Diagnostic> {
    match catch_unwind(AssertUnwindSafe(generate)) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(cause)) => Err(Diagnostic::new(
            &spec.path,
            format!("{what} failed: {cause}"),
        )),
        Err(panic) => {
            let cause = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|text| text.to_string()))
                .unwrap_or_else(|| "unknown cause".to_string());
            Err(Diagnostic::new(
                &spec.path,
                format!("{what} could not handle this spec: {cause}"),
            ))
        }
    }
}
