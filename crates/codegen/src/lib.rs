//! Generates the tenant management API's crates from its OpenAPI spec.
//!
//! The pipeline has one module per stage:
//!
//! 1. [`load`]: read the YAML, keeping the line of every node; an OpenAPI 3.1
//!    document is [`lower`]ed to the 3.0 dialect the rest reads.
//! 2. [`model`]: check what the generators support and distil an [`model::ApiModel`],
//!    naming everything by the one rule of [`naming`].
//! 3. [`emit`]: produce token streams and manifests for each generated crate.
//! 4. [`format`](mod@format): render them with prettyplease under a generated-file header.
//! 5. [`write`](mod@write): write changed files atomically, or compare them for `--check`.
//!
//! Stages 1-4 happen in memory; nothing is written unless all of them succeed.
//! `cargo xtask codegen` is a thin shell over [`cli::codegen`].

pub mod cli;
pub mod diagnostic;
pub mod emit;
pub mod format;
pub mod inline;
pub mod load;
pub mod lower;
pub mod model;
pub mod naming;
pub mod write;

use std::path::{Path, PathBuf};

pub use diagnostic::Diagnostic;
pub use write::{GeneratedFile, GeneratedTree};

/// The spec, relative to the workspace root.
pub const SPEC_FILE: &str = "spec/tenant-management.yaml";
/// The directory the generator owns, relative to the workspace root.
pub const GENERATED_DIR: &str = "generated";

/// A crate's code as its emitter hands it over.
enum Code {
    Parsed(syn::File),
    Tokens(proc_macro2::TokenStream),
}

/// Runs stages 1-4 for the spec at `spec_file` (relative to `workspace_root`
/// unless absolute) and returns every file of `generated/`, in memory.
pub fn generate(workspace_root: &Path, spec_file: &Path) -> Result<GeneratedTree, Diagnostic> {
    let mut spec = load::load_spec(workspace_root, spec_file)?;
    inline::name_inline_schemas(&mut spec)?;
    let model = model::build_model(&spec)?;
    let progenitor = emit::progenitor::run(&spec)?;
    let dependencies = progenitor.dependencies;
    let types = emit::types::emit_types(&model, progenitor.types)
        .map_err(|err| format::unparsable(spec_file, &err))?;
    let client = emit::client::emit_client(&spec, &model, progenitor.client)?;
    let server = emit::server::emit_server(&model);

    let mut files = vec![GeneratedFile {
        path: Path::new(GENERATED_DIR).join("rustfmt.toml"),
        contents: format::format_toml(
            spec_file,
            "# prettyplease formats the generated code; rustfmt must leave it alone,\n\
             # or `cargo fmt` would make `cargo xtask codegen --check` report drift.\n\
             disable_all_formatting = true",
        ),
    }];
    let crates = [
        (
            emit::TYPES_CRATE,
            emit::manifest::types_manifest(dependencies),
            Code::Parsed(types),
        ),
        (
            emit::CLIENT_CRATE,
            emit::manifest::client_manifest(dependencies),
            Code::Parsed(client),
        ),
        (
            emit::SERVER_CRATE,
            emit::manifest::server_manifest(),
            Code::Tokens(server),
        ),
    ];
    for (package, manifest, code) in crates {
        let dir = Path::new(GENERATED_DIR).join(package);
        files.push(GeneratedFile {
            path: dir.join("Cargo.toml"),
            contents: format::format_toml(spec_file, &manifest),
        });
        files.push(GeneratedFile {
            path: dir.join("src/lib.rs"),
            contents: match code {
                Code::Parsed(file) => format::format_file(spec_file, file),
                Code::Tokens(tokens) => format::format_rust(spec_file, tokens)?,
            },
        });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(GeneratedTree {
        owned_dir: PathBuf::from(GENERATED_DIR),
        files,
    })
}
