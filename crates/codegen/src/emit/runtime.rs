//! The runtime's source, carried by the generator so that it can
//! write a copy beside the crates it generates ([`Runtime::Vendored`]): a
//! generated server (or a client that writes parameters in the runtime's
//! styles) then builds on a machine where only the package
//! registry is reachable and this repository is absent.
//!
//! The copy is the crate as this workspace builds and tests it, its manifest
//! written out in full ([`manifest::runtime_manifest`]).
//!
//! [`Runtime::Vendored`]: crate::emit::manifest::Runtime::Vendored
//! [`manifest::runtime_manifest`]: crate::emit::manifest::runtime_manifest

use std::path::PathBuf;

use crate::emit::RUNTIME_CRATE;
use crate::emit::manifest::{RUSTFMT_TOML, runtime_manifest};
use crate::format::GENERATED_MARKER;

macro_rules! source {
    ($file:literal) => {
        ($file, include_str!(concat!("../../../runtime/src/", $file)))
    };
}

/// Every file of the runtime's `src/` (a test keeps the list whole).
const SOURCES: &[(&str, &str)] = &[
    source!("auth.rs"),
    source!("body.rs"),
    source!("checks.rs"),
    source!("chosen.rs"),
    source!("client.rs"),
    source!("credentials.rs"),
    source!("errors.rs"),
    source!("form.rs"),
    source!("hooks.rs"),
    source!("json.rs"),
    source!("lib.rs"),
    source!("multipart.rs"),
    source!("params.rs"),
    source!("parts.rs"),
    source!("propagation.rs"),
    source!("response.rs"),
    source!("retry.rs"),
    source!("router_error.rs"),
    source!("routing.rs"),
    source!("rules.rs"),
    source!("rules/run.rs"),
    source!("serve.rs"),
    source!("stream.rs"),
    source!("timeouts.rs"),
    source!("trace.rs"),
    source!("types.rs"),
    source!("websocket.rs"),
    source!("wire.rs"),
];

const MANIFEST: &str = include_str!("../../../runtime/Cargo.toml");

/// The files of the vendored runtime, relative to its directory, each
/// under a header that says where it comes from.
pub fn vendored_files() -> Vec<(PathBuf, String)> {
    let header = |comment: &str| {
        format!(
            "{comment} {GENERATED_MARKER} by openapi-crates: a copy of the {RUNTIME_CRATE} crate, which the\n\
             {comment} generated server beside it depends on. Do not edit it: generate again.\n\n"
        )
    };
    let mut files = vec![
        (
            PathBuf::from("Cargo.toml"),
            header("#") + &runtime_manifest(MANIFEST),
        ),
        (
            PathBuf::from("rustfmt.toml"),
            header("#") + RUSTFMT_TOML + "\n",
        ),
    ];
    for (name, source) in SOURCES {
        files.push((PathBuf::from("src").join(name), header("//") + source));
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_file_of_the_runtime_is_carried() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/src");
        let mut on_disk = Vec::new();
        let mut pending = vec![root.clone()];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                } else {
                    let relative = path.strip_prefix(&root).unwrap();
                    on_disk.push(relative.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        on_disk.sort();
        let carried: Vec<&str> = SOURCES.iter().map(|(name, _)| *name).collect();
        assert_eq!(
            carried, on_disk,
            "list every file of crates/runtime/src in SOURCES"
        );
    }
}
