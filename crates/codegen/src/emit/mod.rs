//! Stage 3: turn the model into Rust token streams and manifests, one module
//! per generated crate.
//!
//! The generated crates and what they are for:
//! - [`types`]: every type of the API, once, as serde types with validating
//!   constructors. Client and server both use these, so a value one side
//!   serializes is exactly what the other deserializes.
//! - [`client`]: a `reqwest` client built by progenitor, re-exporting the
//!   types crate as its `types`.
//! - [`server`]: a trait to implement and an `axum` router that authenticates,
//!   decodes and validates requests before calling it.
//!
//! [`progenitor`] runs progenitor once for both the types and the client;
//! [`manifest`] writes the crates' `Cargo.toml`s.

pub(crate) mod bake;
pub mod client;
pub mod deserialize;
pub mod discriminated;
pub mod features;
pub mod manifest;
pub mod open_enums;
pub mod placeholders;
pub mod progenitor;
pub mod runtime;
pub mod same_shape;
pub mod server;
pub mod types;
pub mod view;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use crate::diagnostic::Diagnostic;
use crate::load::LoadedSpec;

/// The project's own crates' prefix (`spec/tenant-management.yaml` names it
/// in `info.x-rust-crate-prefix`): `tenant-api-types`, `tenant-api-client`,
/// `tenant-api-server`.
pub const PROJECT_CRATE_PREFIX: &str = "tenant-api";
/// The project's own generated crates' package names.
pub const TYPES_CRATE: &str = "tenant-api-types";
pub const CLIENT_CRATE: &str = "tenant-api-client";
pub const SERVER_CRATE: &str = "tenant-api-server";
/// The hand-written runtime the server crate depends on, as `progenitor-client`
/// is for the client.
pub const RUNTIME_CRATE: &str = "openapi-crates-runtime";

pub use crate::naming::{CrateNames, crate_prefix_error};

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

/// How a third-party generator failed: an error it returned, or a panic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GeneratorFailure {
    pub panicked: bool,
    pub cause: String,
}

impl GeneratorFailure {
    /// The message for a failure of `what`, naming `subject` (`schema
    /// `Widget``, say) when it is known.
    pub(crate) fn message(&self, what: &str, subject: Option<&str>) -> String {
        let cause = &self.cause;
        match (self.panicked, subject) {
            (true, None) => format!("{what} could not handle this spec: {cause}"),
            (true, Some(subject)) => format!("{what} could not handle {subject}: {cause}"),
            (false, None) => format!("{what} failed: {cause}"),
            (false, Some(subject)) => format!("{what} failed on {subject}: {cause}"),
        }
    }
}

/// Runs a third-party generator, turning both its errors and its panics into
/// a [`GeneratorFailure`], without printing anything.
pub(crate) fn catch_generator<T>(
    generate: impl FnOnce() -> Result<T, String>,
) -> Result<T, GeneratorFailure> {
    // The default panic hook would print "panicked at ..." before the clean
    // message; silence it for the call. The hook is process-wide, so calls
    // (from parallel tests, say) take turns.
    static HOOK: Mutex<()> = Mutex::new(());
    let outcome = {
        let _turn = HOOK.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let outcome = catch_unwind(AssertUnwindSafe(generate));
        std::panic::set_hook(previous);
        outcome
    };
    match outcome {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(cause)) => Err(GeneratorFailure {
            panicked: false,
            cause,
        }),
        Err(panic) => {
            let cause = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|text| text.to_string()))
                .unwrap_or_else(|| "unknown cause".to_string());
            Err(GeneratorFailure {
                panicked: true,
                cause,
            })
        }
    }
}

/// Runs a third-party generator, turning both its errors and its panics into
/// diagnostics. The model stage rejects every construct known to make
/// progenitor or typify panic; this is the backstop for unknown ones, so a
/// surprise still ends in a message and exit status 1 rather than a crash
/// (`progenitor::locate_failure` then finds the schema or operation).
pub(crate) fn run_generator<T>(
    spec: &LoadedSpec,
    what: &str,
    generate: impl FnOnce() -> Result<T, String>,
) -> Result<T, Diagnostic> {
    catch_generator(generate)
        .map_err(|failure| Diagnostic::new(&spec.path, failure.message(what, None)))
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    fn spec() -> LoadedSpec {
        crate::load::parse_spec(
            std::path::Path::new("spec.yaml"),
            b"openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n",
        )
        .unwrap()
    }

    #[test]
    fn a_generator_panic_becomes_a_quiet_diagnostic() {
        let _serial = HOOK_FOR_TESTS.lock().unwrap();
        let printed = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&printed);
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
        }));

        let outcome: Result<(), Diagnostic> =
            run_generator(&spec(), "generating", || panic!("unexpected shape"));
        let silenced = printed.load(Ordering::SeqCst);
        let _ = std::panic::catch_unwind(|| panic!("after"));
        let restored = printed.load(Ordering::SeqCst);
        std::panic::set_hook(previous);

        assert_eq!(
            outcome.unwrap_err().cause,
            "generating could not handle this spec: unexpected shape"
        );
        assert_eq!(silenced, 0, "the panic was reported through the hook");
        assert_eq!(restored, 1, "the previous hook was not restored");
    }

    #[test]
    fn generator_errors_keep_their_cause() {
        let _serial = HOOK_FOR_TESTS.lock().unwrap();
        let outcome: Result<(), Diagnostic> =
            run_generator(&spec(), "generating", || Err("bad schema".into()));
        assert_eq!(outcome.unwrap_err().cause, "generating failed: bad schema");
    }

    #[test]
    fn the_spec_may_name_its_crates() {
        let model = |info: &str| {
            let text = format!(
                "openapi: 3.0.3\ninfo: {info}\npaths:\n  /a:\n    get:\n      operationId: a\n      \
                 responses: {{'204': {{description: none}}}}\n"
            );
            let spec = crate::load::parse_spec(std::path::Path::new("spec.yaml"), text.as_bytes())
                .unwrap();
            crate::model::build_model(&spec)
        };
        let named = model("{title: Pets, version: '1', x-rust-crate-prefix: zoo}").unwrap();
        assert_eq!(named.crates.server, "zoo-server");
        assert_eq!(
            model("{title: Pets, version: '1'}").unwrap().crates.client,
            "pets-client"
        );
        let errors = model("{title: Pets, version: '1', x-rust-crate-prefix: 'a b'}").unwrap_err();
        let error = errors.first().unwrap();
        assert_eq!(error.position.map(|position| position.line), Some(2));
        assert!(error.cause.contains("`a b`"), "{error}");
    }

    /// Tests that touch the process-wide panic hook take turns.
    pub(crate) static HOOK_FOR_TESTS: std::sync::Mutex<()> = std::sync::Mutex::new(());
}
