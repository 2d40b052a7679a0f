//! Generates the client and server of `openapi.yaml` into `OUT_DIR` at every
//! build where the description changed; `src/lib.rs` includes them.

fn main() {
    let generated = openapi_crates_codegen::build::Builder::new("openapi.yaml")
        .server(true)
        .strict(true)
        .generate()
        .unwrap_or_else(|problems| {
            eprintln!("{problems}");
            std::process::exit(1)
        });
    // The dependencies the generated code names must be in Cargo.toml.
    assert_eq!(
        generated.dependencies(),
        [
            "axum",
            "openapi-crates-runtime",
            "progenitor-client",
            "reqwest",
            "serde"
        ]
    );
    assert_eq!(
        generated.runtime_features(),
        ["client", "server", "types"],
        "the runtime's features in Cargo.toml"
    );
}
