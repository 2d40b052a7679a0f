//! Writes the crate progenitor alone generates for the spec: the same
//! JSON-only view our progenitor run gets (`emit::view::progenitor_view`),
//! progenitor's default settings, and the dependencies `cargo progenitor`
//! writes (reqwest without default features, so without TLS). It is the
//! yardstick for the build time of `tenant-api-client`:
//!
//! ```sh
//! cargo run -p openapi-crates-codegen --example progenitor_own -- /tmp/progenitor-own
//! CARGO_TARGET_DIR=/tmp/t cargo build --release --manifest-path /tmp/progenitor-own/Cargo.toml
//! ```

use std::path::{Path, PathBuf};

use openapi_crates_codegen::emit::view::progenitor_view;
use openapi_crates_codegen::load::{LoadedSpec, load_spec};
use openapi_crates_codegen::model::parse_openapi;

fn main() {
    let out: PathBuf = std::env::args()
        .nth(1)
        .expect("usage: progenitor_own OUT_DIR")
        .into();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let spec = load_spec(&root, Path::new("spec/tenant-management.yaml")).expect("the spec loads");
    let openapi = parse_openapi(&LoadedSpec {
        document: progenitor_view(&spec.document),
        ..spec
    })
    .expect("the view parses");
    let mut generator = progenitor::Generator::default();
    let tokens = generator
        .generate_tokens(&openapi)
        .expect("progenitor generates the client");
    let code = prettyplease::unparse(&syn::parse2(tokens).expect("the output parses"));
    std::fs::create_dir_all(out.join("src")).expect("the output directory");
    std::fs::write(out.join("src/lib.rs"), code).expect("lib.rs is written");
    // The workspace's versions, so both builds compile the same crates.
    std::fs::copy(root.join("Cargo.lock"), out.join("Cargo.lock")).expect("the lock file");
    std::fs::write(
        out.join("Cargo.toml"),
        r#"[package]
name = "progenitor-own"
version = "0.1.0"
edition = "2024"

[workspace]

[dependencies]
bytes = "1.9"
chrono = { version = "0.4", default-features = false, features = ["serde"] }
futures-core = "0.3"
progenitor-client = "0.15.1"
regress = "0.12"
reqwest = { version = "0.13", default-features = false, features = ["json", "query", "stream"] }
serde = { version = "1.0", features = ["derive"] }
serde_json = "1.0"
serde_urlencoded = "0.7"
"#,
    )
    .expect("Cargo.toml is written");
    println!("wrote {}", out.display());
}
