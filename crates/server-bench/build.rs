//! Generates the client and server of `streams.yaml` into `OUT_DIR`, for
//! the streams benchmark (`src/streams.rs`): the generated side is code
//! the generator wrote, as a team's would be.

fn main() {
    let generated = openapi_crates_codegen::build::Builder::new("streams.yaml")
        .server(true)
        .strict(true)
        .generate()
        .unwrap_or_else(|problems| {
            eprintln!("{problems}");
            std::process::exit(1)
        });
    assert_eq!(
        generated.runtime_features(),
        ["client", "server", "types"],
        "the runtime's features in Cargo.toml"
    );
}
