//! Generates the tenant management API's crates from its OpenAPI spec.
//!
//! The pipeline has one module per stage:
//!
//! 1. [`load`]: read the YAML or JSON, keeping the line of every node;
//!    [`bundle`] brings in the files it refers to; an OpenAPI 3.1 document is
//!    [`lower`]ed to the 3.0 dialect the rest reads.
//! 2. [`model`]: check what the generators support and distil an [`model::ApiModel`],
//!    naming everything by the one rule of [`naming`].
//! 3. [`emit`]: produce token streams and manifests for each generated crate.
//! 4. [`format`](mod@format): render them with prettyplease under a generated-file header.
//! 5. [`write`](mod@write): write changed files atomically, or compare them for `--check`.
//!
//! Stages 1-4 happen in memory; nothing is written unless all of them succeed.
//! `cargo xtask codegen` is a thin shell over [`cli::codegen`].

pub mod bundle;
pub mod cli;
pub mod diagnostic;
pub mod emit;
pub mod format;
pub mod inline;
pub mod load;
pub mod lower;
pub mod model;
pub mod naming;
pub mod walk;
pub mod write;

use std::path::{Path, PathBuf};

pub use diagnostic::{Diagnostic, Diagnostics};
pub use write::{GeneratedFile, GeneratedTree};

/// The spec, relative to the workspace root.
pub const SPEC_FILE: &str = "spec/tenant-management.yaml";
/// The directory the generator owns, relative to the workspace root.
pub const GENERATED_DIR: &str = "generated";

/// Names what the spec leaves unnamed or names alike, in the document itself
/// before the model reads it: operations without an `operationId`, inline
/// body schemas, and operations, schemas and shared responses whose Rust
/// names would be one (see [`model::names`]).
pub fn prepare_document(spec: &mut load::LoadedSpec) {
    inline::name_operations(spec);
    model::names::distinct_operation_ids(spec);
    inline::name_inline_schemas(spec);
    model::names::distinct_component_names(spec);
}

/// The spec as written, for tools that read the description rather than
/// generate from it (`tenant-spec-diff`): parsed and bundled as
/// [`load::parse_spec`] does, but a 3.1 document is not [`lower`]ed, so its
/// pointers name what the file says (`exclusiveMaximum` stays itself) and
/// nothing beyond parsing and bundling is refused.
pub fn parse_spec_as_written(path: &Path, bytes: &[u8]) -> Result<load::LoadedSpec, Diagnostic> {
    parse_spec_as_written_with(path, bytes, &mut |_: &Path| {
        Err("the spec was given as text, so other files cannot be read".to_string())
    })
}

/// [`parse_spec_as_written`] for the spec at `path` (relative to `root`
/// unless absolute), the files it refers to read beside it: the
/// description as one document whose every `$ref` is local (`cargo xtask
/// bundle`), for tools that read one file only.
pub fn load_spec_as_written(root: &Path, path: &Path) -> Result<load::LoadedSpec, Diagnostic> {
    let bytes = load::read_spec(root, path)?;
    parse_spec_as_written_with(path, &bytes, &mut load::read_beside(root))
}

fn parse_spec_as_written_with(
    path: &Path,
    bytes: &[u8],
    read: &mut dyn FnMut(&Path) -> Result<Vec<u8>, String>,
) -> Result<load::LoadedSpec, Diagnostic> {
    let (document, positions) = load::parse_file(path, bytes, "the spec")?;
    let mut spec = load::LoadedSpec {
        path: path.to_path_buf(),
        document,
        source_map: load::SourceMap::of_file(path, positions),
    };
    load::check_version(&spec)?;
    bundle::bundle(&mut spec, read)?;
    Ok(spec)
}

/// Progenitor's failure (which has no place) with the schema or operation it
/// failed on, found on a fresh copy of the document: the run dropped its own
/// to keep the peak low.
fn locate_generator_failure(
    workspace_root: &Path,
    spec_file: &Path,
    failure: Diagnostic,
) -> Diagnostic {
    let Ok(mut spec) = load::load_spec(workspace_root, spec_file) else {
        return failure;
    };
    prepare_document(&mut spec);
    emit::progenitor::locate_failure(&spec, failure)
}

/// What the command line may say beyond the spec.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The generated crates are `{prefix}-types`, `{prefix}-client` and
    /// `{prefix}-server`; without it, the spec's `info.x-rust-crate-prefix`,
    /// else its title, decides.
    pub crate_prefix: Option<String>,
}

/// Runs stages 1-4 for the spec at `spec_file` (relative to `workspace_root`
/// unless absolute) and returns every file of `generated/`, in memory.
pub fn generate(workspace_root: &Path, spec_file: &Path) -> Result<GeneratedTree, Diagnostics> {
    generate_with(workspace_root, spec_file, &Options::default())
}

/// [`generate`] with the command line's [`Options`].
pub fn generate_with(
    workspace_root: &Path,
    spec_file: &Path,
    options: &Options,
) -> Result<GeneratedTree, Diagnostics> {
    if let Some(cause) = options
        .crate_prefix
        .as_deref()
        .and_then(emit::crate_prefix_error)
    {
        return Err(Diagnostic::new(spec_file, cause).into());
    }
    let spec = load::load_spec(workspace_root, spec_file)?;
    generate_loaded(spec, options, &|failure| {
        locate_generator_failure(workspace_root, spec_file, failure)
    })
}

/// [`generate_with`] for a spec already loaded as [`load::load_spec`] loads
/// one (bundled, a 3.1 document lowered), such as a version read from git
/// (`tenant-spec-diff` reads the public API of each version it compares
/// from what this returns). A failure of progenitor's is not located.
pub fn generate_spec(
    spec: load::LoadedSpec,
    options: &Options,
) -> Result<GeneratedTree, Diagnostics> {
    if let Some(cause) = options
        .crate_prefix
        .as_deref()
        .and_then(emit::crate_prefix_error)
    {
        return Err(Diagnostic::new(&spec.path, cause).into());
    }
    generate_loaded(spec, options, &|failure| failure)
}

fn generate_loaded(
    mut spec: load::LoadedSpec,
    options: &Options,
    locate_failure: &dyn Fn(Diagnostic) -> Diagnostic,
) -> Result<GeneratedTree, Diagnostics> {
    let spec_path = spec.path.clone();
    let spec_file = spec_path.as_path();
    prepare_document(&mut spec);
    let mut model = model::build_model(&spec)?;
    if let Some(prefix) = &options.crate_prefix {
        model.crates = emit::CrateNames::with_prefix(prefix);
    }
    let mut types_rewrite = emit::types::TypesRewrite::of(&model);
    let writes_parameters = emit::client::writes_parameters(&model);
    let openapi = emit::progenitor::openapi_view(&spec, &model)?;
    // From here on, the spec serves for its path only, and the model's
    // typed document is no longer read: neither should add to the peak,
    // which comes with progenitor's output.
    spec.document = serde_json::Value::Null;
    spec.source_map = Default::default();
    model.openapi = Default::default();
    let model = model;
    let features = emit::features::Features::of(&model);
    let gated = features.gated();
    // The server needs the model only: it is emitted and cut into text on the
    // second core while progenitor runs on this one.
    let (progenitor, server) = std::thread::scope(|scope| {
        // Gating needs the server's tokens beside the others, so a gated
        // server crosses back as text to parse.
        let server = scope.spawn(|| {
            let tokens = emit::server::emit_server(&model);
            if gated {
                Err(tokens.to_string())
            } else {
                Ok(format::cut(tokens))
            }
        });
        let progenitor = emit::progenitor::run(&spec, openapi);
        let server = server
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (progenitor, server)
    });
    let progenitor = match progenitor {
        Ok(output) => output,
        Err(failure) => {
            return Err(locate_failure(failure).into());
        }
    };
    let dependencies = progenitor.dependencies;
    // Tokens cannot cross threads, and typify's take ten times the memory
    // of their text: the types and the server are cut into pieces of text
    // printed on both cores, while the client is printed on this one.
    let client = emit::client::emit_client(&spec, &model, progenitor.client)?;
    let builders = emit::types::builders_used(quote::ToTokens::to_token_stream(&client));
    let types = emit::types::without_unused_builders(progenitor.types, &builders);
    let types = emit::deserialize::written_out(types, &types_rewrite.rewritten_structs());
    let types = emit::same_shape::one_type_per_shape(types);
    let types = emit::types::emit_types(
        &model,
        types,
        &types_rewrite,
        !builders.is_empty(),
        progenitor.dependencies.regress,
    );
    let (types, client, server) = match server {
        Ok(server) => (format::cut(types), client, server),
        Err(server) => {
            use emit::features::CrateKind;
            let gated = emit::features::gate(
                &features,
                vec![
                    (CrateKind::Types, types),
                    (
                        CrateKind::Client,
                        quote::ToTokens::into_token_stream(client),
                    ),
                    (
                        CrateKind::Server,
                        server.parse().map_err(|err| {
                            Diagnostic::new(
                                spec_file,
                                format!("internal error: the server does not parse: {err}"),
                            )
                        })?,
                    ),
                ],
                emit::types::ALWAYS_COMPILED,
            );
            let [types, client, server]: [proc_macro2::TokenStream; 3] = gated
                .try_into()
                .unwrap_or_else(|_| unreachable!("one stream per crate"));
            let client = syn::parse2(client).map_err(|err| format::unparsable(spec_file, &err))?;
            (format::cut(types), client, format::cut(server))
        }
    };
    types_rewrite.find_unused_default_helpers(&types);
    let rewrite_types =
        |module: Option<&syn::Ident>, item: &mut syn::Item| types_rewrite.rewrite(module, item);
    let crates = [
        format::CrateCode {
            code: types,
            rewrite: &rewrite_types,
        },
        format::CrateCode {
            code: server,
            rewrite: &|_, _| true,
        },
    ];
    let (printed, client) = format::format_crates(spec_file, &crates, || {
        format::format_file(spec_file, client)
    });
    let [types, server]: [String; 2] = printed?
        .try_into()
        .unwrap_or_else(|_| unreachable!("one text per crate"));

    let mut files = vec![GeneratedFile {
        path: Path::new(GENERATED_DIR).join("rustfmt.toml"),
        contents: format::format_toml(
            spec_file,
            "# prettyplease formats the generated code; rustfmt must leave it alone,\n\
             # or `cargo fmt` would make `cargo xtask codegen --check` report drift.\n\
             disable_all_formatting = true",
        ),
    }];
    let names = &model.crates;
    let crates = [
        (
            &names.types,
            emit::manifest::types_manifest(names, &model.title, &features, dependencies),
            types,
        ),
        (
            &names.client,
            emit::manifest::client_manifest(
                names,
                &model.title,
                &features,
                dependencies,
                writes_parameters,
            ),
            client,
        ),
        (
            &names.server,
            emit::manifest::server_manifest(names, &model.title, &features),
            server,
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
            contents: code,
        });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(GeneratedTree {
        owned_dir: PathBuf::from(GENERATED_DIR),
        files,
    })
}
