//! `cargo xtask`: project automation as a plain Rust program.
//!
//! Only argument parsing lives here; the work is done by the `tenant-codegen`,
//! `tenant-spec-diff` and `tenant-mock` libraries, which the tests call
//! in-process.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

// Codegen allocates and frees millions of small tokens: mimalloc halves its
// time next to the system allocator, and its memory stays lower too.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use tenant_codegen::cli::{Mode, codegen};
use tenant_spec_diff::cli::{Format, Options, spec_diff};

#[derive(Parser)]
#[command(about = "Project automation for the tenant management API workspace")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate generated/ (the types, client and server crates) from the spec.
    ///
    /// Everything is generated in memory first; on success only files whose
    /// content changed are rewritten (atomically), files no longer produced are
    /// removed, and each change is listed. A broken spec is reported with its
    /// file, line and cause, exit status 1, and generated/ is left as it was.
    Codegen {
        /// Write nothing; exit with status 1 if generated/ differs from what the
        /// spec produces, naming each stale, missing or extra file with a short diff.
        #[arg(long)]
        check: bool,
        /// The spec to generate from, relative to the workspace root.
        #[arg(long, default_value = tenant_codegen::SPEC_FILE)]
        spec: PathBuf,
        /// Write `generated/` under this directory instead of the workspace
        /// (for trying the generator on another spec without touching the
        /// project's crates).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Name the crates `PREFIX-types`, `PREFIX-client` and `PREFIX-server`
        /// [default: the spec's `info.x-rust-crate-prefix`, else its title in
        /// kebab case].
        #[arg(long, value_name = "PREFIX")]
        crate_prefix: Option<String>,
    },
    /// Compare the spec at a git revision with the working spec: every change,
    /// classified breaking / possibly breaking / compatible, with its direction,
    /// its place in both versions and its effect on the generated Rust crates.
    ///
    /// Exits with status 1 when a breaking change is not acknowledged under
    /// `x-breaking-changes` in the spec (or by a new API path prefix), or on error.
    SpecDiff {
        /// The revision to compare against [default: the merge base of HEAD and
        /// main, else HEAD]. A revision without the spec means nothing to compare.
        #[arg(long)]
        base: Option<String>,
        /// Output: text (terminals), markdown (a pull-request comment) or json.
        #[arg(long, default_value = "text")]
        format: Format,
        /// The spec to compare, relative to the workspace root.
        #[arg(long, default_value = tenant_codegen::SPEC_FILE)]
        spec: PathBuf,
    },
    /// Print a spec split over several files as one JSON document, bundled as
    /// `codegen` bundles it: every `$ref` to another file becomes a local one
    /// to a component (for tools that read one file only).
    Bundle {
        /// The spec to bundle, relative to the workspace root (or absolute).
        #[arg(long, default_value = tenant_codegen::SPEC_FILE)]
        spec: PathBuf,
    },
    /// Serve a mock of a spec: every operation, requests checked as the
    /// generated server checks them (400 naming each broken rule, 401
    /// without a credential; any well-formed credential is accepted unless
    /// `--check-scopes`), and
    /// answered with the first documented 2xx (`Prefer: code=404` picks
    /// another documented status, `Prefer: example=NAME` a named example),
    /// its body the spec's example or one made from the schema.
    ///
    /// The spec is read as `cargo xtask codegen` reads it, so a spec the
    /// generator refuses is refused with the same messages.
    Mock {
        /// The spec to serve, relative to the workspace root (or absolute).
        #[arg(long, default_value = tenant_codegen::SPEC_FILE)]
        spec: PathBuf,
        /// The address to listen on (port 0: any free port, printed).
        #[arg(long, default_value = "127.0.0.1:4010")]
        listen: String,
        /// The seed of the values made up for responses: the same seed
        /// gives the same responses.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Require of a bearer token one of the scopes each operation lists,
        /// read (unverified) from its JWT claims `scope`, `scp` or
        /// `permissions`: 403 without one, 401 for a token that is not a JWT.
        #[arg(long)]
        check_scopes: bool,
    },
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Codegen {
            check,
            spec,
            out,
            crate_prefix,
        } => {
            let mode = if check { Mode::Check } else { Mode::Write };
            let (root, spec) = match out {
                // The spec stays relative to the workspace, the output goes
                // to `out`.
                Some(out) => (out, workspace_root().join(spec)),
                None => (workspace_root(), spec),
            };
            let status = codegen(
                &root,
                &spec,
                mode,
                &tenant_codegen::Options { crate_prefix },
                &mut std::io::stdout(),
                &mut std::io::stderr(),
            );
            ExitCode::from(status)
        }
        Command::Bundle { spec } => ExitCode::from(tenant_codegen::cli::bundle(
            &workspace_root(),
            &spec,
            &mut std::io::stdout().lock(),
            &mut std::io::stderr(),
        )),
        Command::Mock {
            spec,
            listen,
            seed,
            check_scopes,
        } => {
            let status = tenant_mock::cli::mock(
                &workspace_root(),
                &spec,
                &listen,
                tenant_mock::Options { seed, check_scopes },
                &mut std::io::stdout(),
                &mut std::io::stderr(),
            );
            ExitCode::from(status)
        }
        Command::SpecDiff { base, format, spec } => {
            let options = Options { base, format, spec };
            let status = spec_diff(
                &workspace_root(),
                &options,
                &mut std::io::stdout(),
                &mut std::io::stderr(),
            );
            ExitCode::from(status)
        }
    }
}

/// The workspace root: xtask lives one level below it.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is inside the workspace")
        .to_path_buf()
}
