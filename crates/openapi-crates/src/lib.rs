//! The `openapi-crates` command line: generate crates from an OpenAPI
//! description (`codegen`), review a change to one (`spec-diff`), serve a
//! mock of one (`mock`), print one split over files as one document
//! (`bundle`).
//!
//! Only argument parsing lives here; the work is done by the generator,
//! spec-diff and mock libraries, which tests call in-process. The installed
//! binary and this workspace's `cargo xtask` parse the same [`Cli`] and
//! differ only in their [`Defaults`]: paths relative to the current
//! directory and nothing assumed for the binary; for `cargo xtask`, paths
//! relative to the workspace and its own spec and `generated/` when none
//! are named.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};
use openapi_crates_codegen::cli::Mode;
use openapi_crates_codegen::{Layout, Options, Output, Runtime};
use openapi_crates_spec_diff::cli::{Comparison, Format};

#[derive(Debug, Parser)]
#[command(
    name = "openapi-crates",
    version,
    about = "Types, client and server crates from an OpenAPI description; reviews of its changes; a mock of it"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Codegen(CodegenArgs),
    SpecDiff(SpecDiffArgs),
    Mock(MockArgs),
    Bundle(BundleArgs),
}

/// Generate the types, client and server crates of a description.
///
/// Everything is generated in memory first; on success only files whose
/// content changed are rewritten (atomically), files no longer produced are
/// removed from the crates' directories, and each change is listed. A
/// description that cannot be read is reported with its file, line and
/// cause, exit status 1, and nothing is written. A flaw that touches one
/// annotation, schema or reference is a warning saying how it was read, and
/// generation goes on (`--strict` refuses instead).
#[derive(Debug, Args)]
pub struct CodegenArgs {
    /// The description (OpenAPI 3.0, 3.1 or 3.2, YAML or JSON, whole or split
    /// over files).
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// The directory to write: a cargo workspace holding the crates (see
    /// `--layout`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// `workspace`: DIR becomes a cargo workspace of its own (a root
    /// `Cargo.toml` naming the crates), ready for `cargo build`. `crates`:
    /// the crates only, one directory each under DIR, for a workspace that
    /// already exists (list them as its members).
    #[arg(long, value_enum, default_value_t = LayoutArg::Workspace)]
    pub layout: LayoutArg,
    /// Use the server runtime crate at PATH instead of writing a copy of it
    /// beside the crates (say, the copy another API's generation wrote into
    /// the same workspace).
    #[arg(long, value_name = "PATH")]
    pub runtime_path: Option<PathBuf>,
    /// Name the crates `PREFIX-types`, `PREFIX-client` and `PREFIX-server`
    /// [default: the spec's `info.x-rust-crate-prefix`, else its title].
    #[arg(long, value_name = "PREFIX")]
    pub crate_prefix: Option<String>,
    /// Refuse the description on any warning.
    #[arg(long)]
    pub strict: bool,
    /// Read the flaws of this reading without a warning (an id that
    /// warnings print, `warning[ID]`); repeatable. The description may
    /// choose too, under `x-openapi-crates: {allow: [ID], deny: [ID]}`.
    #[arg(long, value_name = "ID")]
    pub allow: Vec<String>,
    /// Refuse the description on a warning of this reading; repeatable.
    #[arg(long, value_name = "ID")]
    pub deny: Vec<String>,
    /// List every warning with its place, not one line per reading.
    #[arg(long, short)]
    pub verbose: bool,
    /// Read a `$ref` to another host from a local copy under DIR:
    /// `https://host/a/b.yaml` from `DIR/host/a/b.yaml`. The generator never
    /// fetches; without a copy, the reference is read as any value (a
    /// schema) or left out, with a warning.
    #[arg(long, value_name = "DIR")]
    pub refs: Option<PathBuf>,
    /// Make each string enum refuse a value it does not list, as a
    /// decoding error, and be `Copy`. By default it keeps the value in a
    /// catch-all variant (`Unknown`), so that a server adding a value
    /// breaks no client.
    #[arg(long)]
    pub closed_enums: bool,
    /// Write nothing; exit with status 1 if the output differs from what the
    /// description produces, naming each stale, missing or extra file.
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LayoutArg {
    Workspace,
    Crates,
}

/// Compare two versions of a description: every change, classified
/// breaking / possibly breaking / compatible, with its direction, its place
/// in both versions and its effect on the generated Rust crates.
///
/// With one file, the file in the working tree is compared with itself at
/// `--base` in the git repository that holds it; with two, the first (the
/// old version) with the second. Exits with status 1 when a breaking change
/// is not acknowledged under `x-breaking-changes` in the new version (or by
/// a new API path prefix), or on error.
#[derive(Debug, Args)]
pub struct SpecDiffArgs {
    /// SPEC, or OLD and NEW.
    #[arg(value_name = "SPEC", num_args = 0..=2)]
    pub specs: Vec<PathBuf>,
    /// The revision to compare SPEC against [default: the merge base of HEAD
    /// and main, else HEAD]. A revision without the file means nothing to
    /// compare.
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// Output: text (terminals), markdown (a pull-request comment) or json.
    #[arg(long, default_value = "text")]
    pub format: Format,
}

/// Serve a mock of a description: every operation, requests checked as the
/// generated server checks them (400 naming each broken rule, 401 without a
/// credential; any well-formed credential is accepted unless
/// `--check-scopes`), answered with the first documented 2xx
/// (`Prefer: code=404` picks another documented status, `Prefer:
/// example=NAME` a named example), its body the description's example or
/// one made from the schema; a stream sends such items (`Prefer: items=5,
/// interval=100`: five, 100 ms apart); a WebSocket (a `101`) echoes each
/// message.
#[derive(Debug, Args)]
pub struct MockArgs {
    /// The description to serve, read as `codegen` reads it.
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// The address to listen on (port 0: any free port, printed).
    #[arg(long, default_value = "127.0.0.1:4010")]
    pub listen: String,
    /// The seed of the values made up for responses: the same seed gives
    /// the same responses.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Require of a bearer token one of the scopes each operation lists,
    /// read (unverified) from its JWT claims `scope`, `scp` or
    /// `permissions`: 403 without one, 401 for a token that is not a JWT.
    #[arg(long)]
    pub check_scopes: bool,
}

/// Print a description split over several files as one JSON document,
/// bundled as `codegen` bundles it: every `$ref` to another file becomes a
/// local one to a component (for tools that read one file only).
#[derive(Debug, Args)]
pub struct BundleArgs {
    /// The description to bundle.
    #[arg(long)]
    pub spec: Option<PathBuf>,
}

/// What a command assumes where its arguments say nothing.
#[derive(Debug, Clone, Default)]
pub struct Defaults {
    /// The directory relative paths are read from (empty: the current
    /// directory).
    pub root: PathBuf,
    /// The description when none is named, relative to `root`.
    pub spec: Option<PathBuf>,
    /// How `codegen` writes when no `--out` is named (relative to `root`).
    pub codegen: Option<Options>,
}

/// Runs `cli`; returns the exit status.
pub fn run(cli: Cli, defaults: &Defaults) -> u8 {
    let mut stdout = std::io::stdout();
    let mut stderr = std::io::stderr();
    match cli.command {
        Command::Codegen(args) => codegen(args, defaults, &mut stdout, &mut stderr),
        Command::SpecDiff(args) => spec_diff(args, defaults, &mut stdout, &mut stderr),
        Command::Mock(args) => {
            let Some(spec) = spec_or_default(args.spec, defaults, &mut stderr) else {
                return 2;
            };
            openapi_crates_mock::cli::mock(
                &defaults.root,
                &spec,
                &args.listen,
                openapi_crates_mock::Options {
                    seed: args.seed,
                    check_scopes: args.check_scopes,
                },
                &mut stdout,
                &mut stderr,
            )
        }
        Command::Bundle(args) => {
            let Some(spec) = spec_or_default(args.spec, defaults, &mut stderr) else {
                return 2;
            };
            openapi_crates_codegen::cli::bundle(
                &defaults.root,
                &spec,
                &mut stdout.lock(),
                &mut stderr,
            )
        }
    }
}

/// `codegen` with its arguments read against `defaults`.
pub fn codegen(
    args: CodegenArgs,
    defaults: &Defaults,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let Some(spec) = spec_or_default(args.spec, defaults, err) else {
        return 2;
    };
    let mut options = match (args.out, &defaults.codegen) {
        (Some(dir), _) => Options {
            output: Output {
                dir,
                layout: match args.layout {
                    LayoutArg::Workspace => Layout::Workspace,
                    LayoutArg::Crates => Layout::Crates,
                },
                runtime: Runtime::Vendored,
            },
            ..Options::default()
        },
        (None, Some(project)) => project.clone(),
        (None, None) => {
            let _ = writeln!(
                err,
                "error: name the directory to write with `--out DIR` (a new cargo workspace; \
                 `--layout crates` adds the crates to an existing one)"
            );
            return 2;
        }
    };
    if let Some(path) = args.runtime_path {
        // A relative path is the current directory's; the manifests can
        // only say it relative to the crates when both are.
        let climbs = |path: &Path| {
            path.components()
                .any(|component| component == std::path::Component::ParentDir)
        };
        let path = if path.is_relative()
            && (options.output.dir.is_absolute() || climbs(&options.output.dir))
        {
            std::path::absolute(defaults.root.join(&path)).unwrap_or(path)
        } else {
            path
        };
        options.output.runtime = Runtime::Path(path);
    }
    options.crate_prefix = args.crate_prefix.or(options.crate_prefix);
    options.strict |= args.strict;
    options.verbose |= args.verbose;
    options.refs = args.refs.or(options.refs);
    match openapi_crates_codegen::readings::Choices::parse(&args.allow, &args.deny) {
        Ok(choices) => options.readings = choices.over(options.readings),
        Err(problem) => {
            let _ = writeln!(err, "error: {problem}");
            return 2;
        }
    }
    if args.closed_enums {
        options.string_enums = openapi_crates_codegen::StringEnums::Closed;
    }
    let mode = if args.check { Mode::Check } else { Mode::Write };
    openapi_crates_codegen::cli::codegen(&defaults.root, &spec, mode, &options, out, err)
}

/// `spec-diff` with its arguments read against `defaults`.
pub fn spec_diff(
    args: SpecDiffArgs,
    defaults: &Defaults,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let comparison = match <[PathBuf; 2]>::try_from(args.specs) {
        Ok([old, new]) => {
            if args.base.is_some() {
                let _ = writeln!(
                    err,
                    "error: `--base` compares one file with itself at a revision; with two files, \
                     the first is the base"
                );
                return 2;
            }
            Comparison::Files { old, new }
        }
        Err(specs) => {
            let Some(spec) = spec_or_default(specs.into_iter().next(), defaults, err) else {
                return 2;
            };
            Comparison::Revision {
                spec,
                base: args.base,
            }
        }
    };
    let options = openapi_crates_spec_diff::cli::Options {
        comparison,
        format: args.format,
    };
    openapi_crates_spec_diff::cli::spec_diff(&defaults.root, &options, out, err)
}

fn spec_or_default(
    spec: Option<PathBuf>,
    defaults: &Defaults,
    err: &mut dyn Write,
) -> Option<PathBuf> {
    let spec = spec.or_else(|| defaults.spec.clone());
    if spec.is_none() {
        let _ = writeln!(err, "error: name the description with `--spec FILE`");
    }
    spec
}

/// This workspace's defaults for `cargo xtask`: paths relative to `root`,
/// its spec, and its own `generated/` on its own runtime, strictly.
pub fn workspace_defaults(root: &Path) -> Defaults {
    Defaults {
        root: root.to_path_buf(),
        spec: Some(PathBuf::from(openapi_crates_codegen::SPEC_FILE)),
        codegen: Some(Options::project()),
    }
}
