//! `cargo xtask`: project automation as a plain Rust program.
//!
//! Only argument parsing lives here; the work is done by the `tenant-codegen`
//! library, which the tests call in-process.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tenant_codegen::cli::{Mode, codegen};

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
    },
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Codegen { check, spec } => {
            let mode = if check { Mode::Check } else { Mode::Write };
            let status = codegen(
                &workspace_root(),
                &spec,
                mode,
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
