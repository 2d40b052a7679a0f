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

pub mod build;
pub mod bundle;
pub mod cli;
pub mod contain;
pub mod diagnostic;
pub mod emit;
pub mod flaws;
pub mod format;
pub mod inline;
pub mod load;
pub mod lower;
pub mod model;
pub mod naming;
pub mod readings;
pub mod structure;
pub mod threads;
pub mod vocabulary;
pub mod walk;
pub mod write;

use std::path::{Path, PathBuf};

pub use diagnostic::{Diagnostic, Diagnostics, Severity};
pub use emit::manifest::Runtime;
pub use threads::{STACK_SIZE, on_deep_stack};
pub use write::{GeneratedFile, GeneratedTree};

/// The spec, relative to the workspace root.
pub const SPEC_FILE: &str = "spec/tenant-management.yaml";
/// The directory of this workspace's generated crates, relative to its root.
pub const GENERATED_DIR: &str = "generated";
/// This workspace's server runtime, relative to its root.
pub const RUNTIME_DIR: &str = "crates/runtime";

/// Reads the flaws of the spec another way, with a warning each
/// ([`flaws`]), then names what the spec leaves unnamed or names alike, in
/// the document itself before the model reads it: operations without an
/// `operationId`, inline body schemas, and operations, schemas and shared
/// responses whose Rust names would be one (see [`model::names`]).
pub fn prepare_document(spec: &mut load::LoadedSpec) {
    flaws::read_flaws(spec);
    inline::name_operations(spec);
    model::names::distinct_operation_ids(spec);
    inline::name_inline_schemas(spec);
    model::names::distinct_component_names(spec);
}

/// The spec as written, for tools that read the description rather than
/// generate from it (`openapi-crates-spec-diff`): parsed and bundled as
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

/// [`parse_spec_as_written`] for spec `bytes` read from `path`, the files
/// it refers to read by `read` (given their path as the bundler resolves
/// it against `path`): from disk, or from a git revision (`spec-diff`).
pub fn parse_spec_as_written_with(
    path: &Path,
    bytes: &[u8],
    read: &mut dyn FnMut(&Path) -> Result<Vec<u8>, String>,
) -> Result<load::LoadedSpec, Diagnostic> {
    let (document, positions) = load::parse_file(path, bytes, "the spec")?;
    let mut spec = load::LoadedSpec {
        path: path.to_path_buf(),
        document,
        source_map: load::SourceMap::of_file(path, positions),
        warnings: Default::default(),
    };
    load::check_version(&spec)?;
    bundle::bundle(&mut spec, read, None)?;
    Ok(spec)
}

/// Progenitor's failure (which has no place) with the schema or operation it
/// failed on, found on a fresh copy of the document: the run dropped its own
/// to keep the peak low.
fn locate_generator_failure(
    workspace_root: &Path,
    spec_file: &Path,
    options: &Options,
    left_out: &[Diagnostic],
    failure: Diagnostic,
) -> Diagnostic {
    let Ok(mut spec) =
        load::load_spec_with_refs(workspace_root, spec_file, options.refs.as_deref())
    else {
        return failure;
    };
    prepare_document(&mut spec);
    let mut contained = Default::default();
    for operation in left_out {
        contain::contain(&mut spec, operation, &mut contained);
    }
    let _ = contain::build_model(&mut spec);
    emit::progenitor::locate_failure(&spec, failure)
}

/// What the command line may say beyond the spec.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// The generated crates are `{prefix}-types`, `{prefix}-client` and
    /// `{prefix}-server`; without it, the spec's `info.x-rust-crate-prefix`,
    /// else its title, decides.
    pub crate_prefix: Option<String>,
    /// Where the crates go and how they reach the runtime.
    pub output: Output,
    /// Every warning is an error: nothing is generated from a description
    /// the generator would read otherwise than written.
    pub strict: bool,
    /// Whether each tag is a cargo feature of the crates.
    pub tag_features: TagFeatures,
    /// Whether a string enum decodes a value it does not list.
    pub string_enums: StringEnums,
    /// Readings a team allows (not printed) or denies (refused), over the
    /// document's own `x-openapi-crates` choices.
    pub readings: readings::Choices,
    /// Where local copies of documents on other hosts are: a `$ref` to
    /// `https://host/path` reads `DIR/host/path`.
    pub refs: Option<PathBuf>,
    /// Every warning printed with its place, not one line per reading.
    pub verbose: bool,
}

/// What a generated string enum makes of a value its schema does not list
/// ([`emit::open_enums`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StringEnums {
    /// Kept in a catch-all variant, so that a server adding a value breaks
    /// no client; the enums are not `Copy`.
    #[default]
    Open,
    /// A decoding error, as typify writes them; the enums are `Copy`.
    Closed,
}

/// Whether the crates compile only the operations of the tags a user
/// enables ([`emit::features`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TagFeatures {
    /// One feature per tag, `all` by default.
    #[default]
    PerTag,
    /// Every operation, always: for code that lands in a crate whose
    /// features the generator does not write (a build script's output).
    None,
}

impl Options {
    /// This workspace's own generation: its spec's crates in `generated/`,
    /// on the runtime of `crates/runtime`, strictly.
    pub fn project() -> Self {
        Self {
            crate_prefix: None,
            output: Output {
                dir: PathBuf::from(GENERATED_DIR),
                layout: Layout::Crates,
                runtime: Runtime::Path(PathBuf::from(RUNTIME_DIR)),
            },
            strict: true,
            tag_features: TagFeatures::PerTag,
            string_enums: StringEnums::Open,
            readings: readings::Choices::default(),
            refs: None,
            verbose: false,
        }
    }
}

/// Where the generated crates go, relative to the root the tree is written
/// under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The directory that holds the crates.
    pub dir: PathBuf,
    pub layout: Layout,
    /// How the server crate reaches its runtime.
    pub runtime: Runtime,
}

impl Default for Output {
    /// The crates in `generated/`, with a copy of the runtime beside them.
    fn default() -> Self {
        Self {
            dir: PathBuf::from(GENERATED_DIR),
            layout: Layout::Crates,
            runtime: Runtime::Vendored,
        }
    }
}

/// What the output directory is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// One directory per crate, for a workspace that already exists (a
    /// team's, or this one): the team lists them as members.
    #[default]
    Crates,
    /// A cargo workspace of its own: the crates and a root manifest naming
    /// them, ready for `cargo build`.
    Workspace,
}

/// Runs stages 1-4 for the spec at `spec_file` (relative to `workspace_root`
/// unless absolute) as this workspace generates its own crates
/// ([`Options::project`]), and returns every file of `generated/`, in memory.
pub fn generate(workspace_root: &Path, spec_file: &Path) -> Result<GeneratedTree, Diagnostics> {
    generate_with(workspace_root, spec_file, &Options::project())
}

/// [`generate`] with the command line's [`Options`].
pub fn generate_with(
    workspace_root: &Path,
    spec_file: &Path,
    options: &Options,
) -> Result<GeneratedTree, Diagnostics> {
    on_deep_stack(|| generate_from_file(workspace_root, spec_file, options))
}

fn generate_from_file(
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
    // An operation progenitor refuses is left out and the run starts
    // again (progenitor's failure is found on a copy, so the document is
    // read anew): one operation never fails the whole API.
    const LEFT_OUT_AT_MOST: usize = 32;
    let mut left_out: Vec<Diagnostic> = Vec::new();
    loop {
        let spec = load::load_spec_with_refs(workspace_root, spec_file, options.refs.as_deref())?;
        let result = generate_loaded_without(spec, options, &left_out, &|failure| {
            locate_generator_failure(workspace_root, spec_file, options, &left_out, failure)
        });
        match result {
            Err(errors) if left_out.len() < LEFT_OUT_AT_MOST => {
                match errors.iter().find_map(contain::refused_operation) {
                    Some(operation) if !left_out.contains(&operation) => left_out.push(operation),
                    _ => return Err(errors),
                }
            }
            result => return result,
        }
    }
}

/// [`generate_with`] for a spec already loaded as [`load::load_spec`] loads
/// one (bundled, a 3.1 document lowered), such as a version read from git
/// (`openapi-crates-spec-diff` reads the public API of each version it compares
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
    on_deep_stack(|| generate_loaded(spec, options, &|failure| failure))
}

/// Stages 2-4, with the warnings of the run: on success in the tree, on
/// failure after the errors (what else the user should know), and under
/// `--strict` as errors.
pub(crate) fn generate_loaded(
    spec: load::LoadedSpec,
    options: &Options,
    locate_failure: &dyn Fn(Diagnostic) -> Diagnostic,
) -> Result<GeneratedTree, Diagnostics> {
    generate_loaded_without(spec, options, &[], locate_failure)
}

/// [`generate_loaded`], leaving out the operations progenitor refused in
/// an earlier run (each a located failure, left out with it as a warning).
fn generate_loaded_without(
    spec: load::LoadedSpec,
    options: &Options,
    left_out: &[Diagnostic],
    locate_failure: &dyn Fn(Diagnostic) -> Diagnostic,
) -> Result<GeneratedTree, Diagnostics> {
    let warnings = spec.warnings.clone();
    let document_choices = readings::Choices::of_document(&spec.document, &mut |at, cause| {
        spec.warnings.push(spec.error_at(at, cause));
    });
    let choices = options.readings.clone().over(document_choices);
    let result = generate_crates(spec, options, left_out, locate_failure);
    let found = warnings.take();
    let found = choices.kept(found);
    let refused = |warning: &Diagnostic| {
        options.strict
            || warning
                .reading
                .is_some_and(|reading| choices.deny.contains(&reading))
    };
    match result {
        Ok(_) if found.iter().any(refused) => {
            // The refused readings, then what else the user should know.
            let mut errors = Diagnostics::default();
            for warning in found.iter().filter(|warning| refused(warning)) {
                errors.push(warning.clone().as_error());
            }
            for warning in found.iter().filter(|warning| !refused(warning)) {
                errors.push(warning.clone());
            }
            Err(errors)
        }
        Ok(mut tree) => {
            tree.warnings = found;
            Ok(tree)
        }
        Err(mut errors) => {
            errors.extend(found);
            Err(errors)
        }
    }
}

/// The stages of one generation, each a function below: the model and
/// progenitor's view of the document; both generators, on two threads; the
/// edits of their output; the text of each crate; the files.
///
/// Memory and threads are decided here once. The peak comes with
/// progenitor's output, so what is no longer read is dropped before it
/// runs ([`Modelled::release`]). Two cores serve: the server is emitted
/// while progenitor runs, and the crates are printed in pieces on both
/// (tokens cannot cross threads, and typify's take ten times the memory of
/// their text, so no crate is ever one syntax tree).
fn generate_crates(
    spec: load::LoadedSpec,
    options: &Options,
    left_out: &[Diagnostic],
    locate_failure: &dyn Fn(Diagnostic) -> Diagnostic,
) -> Result<GeneratedTree, Diagnostics> {
    let mut modelled = Modelled::of(spec, options, left_out)?;
    let view = modelled.view.take().expect("the view is taken once");
    modelled.release();
    let features = match options.tag_features {
        TagFeatures::PerTag => emit::features::Features::of(&modelled.model),
        TagFeatures::None => emit::features::Features::default(),
    };
    let (progenitor, server) = generated(&modelled, view, features.gated());
    let progenitor = progenitor.map_err(locate_failure)?;
    let dependencies = progenitor.dependencies;
    let code = edited(&mut modelled, options, &features, progenitor, server)?;
    let texts = printed(&modelled, code)?;
    Ok(crate_files(
        &modelled,
        options,
        &features,
        dependencies,
        texts,
    ))
}

/// What the generators start from: the prepared document, its model, and
/// progenitor's view of it.
struct Modelled {
    spec: load::LoadedSpec,
    model: model::ApiModel,
    view: Option<emit::view::View>,
    types_rewrite: emit::types::TypesRewrite,
    writes_parameters: bool,
}

impl Modelled {
    fn of(
        mut spec: load::LoadedSpec,
        options: &Options,
        left_out: &[Diagnostic],
    ) -> Result<Self, Diagnostics> {
        prepare_document(&mut spec);
        let mut contained = Default::default();
        for failure in left_out {
            contain::contain(&mut spec, failure, &mut contained);
        }
        let mut model = contain::build_model(&mut spec)?;
        if let Some(prefix) = &options.crate_prefix {
            model.crates = emit::CrateNames::with_prefix(prefix);
        }
        let types_rewrite = emit::types::TypesRewrite::of(&model);
        let writes_parameters = emit::client::writes_parameters(&model);
        let view = emit::view::openapi_view(&spec, &model)?;
        Ok(Self {
            spec,
            model,
            view: Some(view),
            types_rewrite,
            writes_parameters,
        })
    }

    /// From here on, the spec serves for its path only, and the model's
    /// typed document is no longer read: neither should add to the peak,
    /// which comes with progenitor's output.
    fn release(&mut self) {
        self.spec.document = serde_json::Value::Null;
        self.spec.source_map = Default::default();
        self.model.openapi = Default::default();
    }
}

/// Progenitor's output, and the server: emitted and cut into text on the
/// second core while progenitor runs on this one. Gating needs the server's
/// tokens beside the others, so a gated server crosses back as text to
/// parse (`Err`).
fn generated(
    modelled: &Modelled,
    view: emit::view::View,
    gated: bool,
) -> (
    Result<emit::progenitor::ProgenitorOutput, Diagnostic>,
    Result<format::Cut, String>,
) {
    std::thread::scope(|scope| {
        let server = std::thread::Builder::new()
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, || {
                let tokens = emit::server::emit_server(&modelled.model);
                if gated {
                    Err(tokens.to_string())
                } else {
                    Ok(format::cut(tokens))
                }
            });
        let progenitor = emit::progenitor::run(&modelled.spec, view);
        let server = server
            .expect("a thread can be started")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (progenitor, server)
    })
}

/// The code of the three crates, cut into pieces of text to print, but the
/// client, printed whole on this thread.
struct Code {
    types: format::Cut,
    client: syn::File,
    server: format::Cut,
}

/// Progenitor's output edited (the client's syntax tree, the types' unused
/// builders, serde's derives written out, one type per shape) and, with
/// features per tag, every item gated.
fn edited(
    modelled: &mut Modelled,
    options: &Options,
    features: &emit::features::Features,
    progenitor: emit::progenitor::ProgenitorOutput,
    server: Result<format::Cut, String>,
) -> Result<Code, Diagnostics> {
    let Modelled {
        spec,
        model,
        types_rewrite,
        ..
    } = modelled;
    let spec_file = spec.path.as_path();
    let client = emit::client::emit_client(spec, model, progenitor.client)?;
    let builders = emit::types::builders_used(quote::ToTokens::to_token_stream(&client));
    let types = emit::types::without_unused_builders(progenitor.types, &builders);
    let types = emit::discriminated::decided(types, &model.unions);
    let types = match options.string_enums {
        StringEnums::Open => emit::open_enums::opened(types),
        StringEnums::Closed => types,
    };
    let types = emit::deserialize::written_out(types, &types_rewrite.rewritten_structs());
    let types = emit::same_shape::one_type_per_shape(types);
    let types = emit::types::emit_types(model, types, types_rewrite, !builders.is_empty());
    let code = match server {
        Ok(server) => Code {
            types: format::cut(types),
            client,
            server,
        },
        Err(server) => {
            use emit::features::CrateKind;
            let gated = emit::features::gate(
                features,
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
            );
            let [types, client, server]: [proc_macro2::TokenStream; 3] = gated
                .try_into()
                .unwrap_or_else(|_| unreachable!("one stream per crate"));
            let client = syn::parse2(client).map_err(|err| format::unparsable(spec_file, &err))?;
            Code {
                types: format::cut(types),
                client,
                server: format::cut(server),
            }
        }
    };
    types_rewrite.find_unused_default_helpers(&code.types);
    Ok(code)
}

/// The text of each crate: types, client, server.
fn printed(modelled: &Modelled, code: Code) -> Result<[String; 3], Diagnostic> {
    let spec_file = modelled.spec.path.as_path();
    let rewrite_types = |module: Option<&syn::Ident>, item: &mut syn::Item| {
        modelled.types_rewrite.rewrite(module, item)
    };
    let crates = [
        format::CrateCode {
            code: code.types,
            rewrite: &rewrite_types,
        },
        format::CrateCode {
            code: code.server,
            rewrite: &|_, _| true,
        },
    ];
    let client = code.client;
    let (printed, client) = format::format_crates(spec_file, &crates, || {
        format::format_file(spec_file, client)
    });
    let [types, server]: [String; 2] = printed?
        .try_into()
        .unwrap_or_else(|_| unreachable!("one text per crate"));
    Ok([types, client, server])
}

/// The files of the output: each crate's manifest, `rustfmt.toml` and code,
/// the vendored runtime and the workspace root as the output asks.
fn crate_files(
    modelled: &Modelled,
    options: &Options,
    features: &emit::features::Features,
    dependencies: emit::progenitor::TypeDependencies,
    [types, client, server]: [String; 3],
) -> GeneratedTree {
    let Modelled {
        spec,
        model,
        writes_parameters,
        ..
    } = modelled;
    let (spec_file, writes_parameters) = (spec.path.as_path(), *writes_parameters);
    let names = &model.crates;
    let version = emit::manifest::crate_version(&model.version);
    let package = emit::manifest::Package {
        title: &model.title,
        version: &version,
        license: model.license.as_deref(),
    };
    let output = &options.output;
    let upgrades = model.operations.iter().any(model::Operation::upgrades);
    let placement = emit::manifest::Placement {
        crates_dir: &output.dir,
        runtime: &output.runtime,
    };
    let crates = [
        (
            &names.types,
            emit::manifest::types_manifest(names, package, features, dependencies, &placement),
            types,
        ),
        (
            &names.client,
            emit::manifest::client_manifest(
                names,
                package,
                features,
                dependencies,
                writes_parameters,
                upgrades,
                &placement,
            ),
            client,
        ),
        (
            &names.server,
            emit::manifest::server_manifest(names, package, features, upgrades, &placement),
            server,
        ),
    ];
    // A description of shared components only (no operation, no webhook)
    // has types and nothing to call or serve.
    let components_only = model.operations.is_empty() && model.webhooks.is_empty();
    let kept = if components_only { 1 } else { crates.len() };
    let mut files = Vec::new();
    let mut owned_dirs = Vec::new();
    let mut members = Vec::new();
    for (package, manifest, code) in crates.into_iter().take(kept) {
        members.push(package.as_str());
        let dir = output.dir.join(package);
        files.push(GeneratedFile {
            path: dir.join("Cargo.toml"),
            contents: format::format_toml(spec_file, &manifest),
        });
        files.push(GeneratedFile {
            path: dir.join("rustfmt.toml"),
            contents: format::format_toml(spec_file, emit::manifest::RUSTFMT_TOML),
        });
        files.push(GeneratedFile {
            path: dir.join("src/lib.rs"),
            contents: code,
        });
        owned_dirs.push(dir);
    }
    if output.runtime == Runtime::Vendored {
        let dir = output.dir.join(emit::RUNTIME_CRATE);
        for (path, contents) in emit::runtime::vendored_files() {
            files.push(GeneratedFile {
                path: dir.join(path),
                contents,
            });
        }
        owned_dirs.push(dir);
        members.push(emit::RUNTIME_CRATE);
    }
    if output.layout == Layout::Workspace {
        files.push(GeneratedFile {
            path: output.dir.join("Cargo.toml"),
            contents: format::format_toml(spec_file, &emit::manifest::workspace_manifest(&members)),
        });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    GeneratedTree {
        owned_dirs,
        files,
        warnings: Diagnostics::default(),
    }
}
