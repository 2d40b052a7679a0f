//! `cargo xtask`: project automation as a plain Rust program.
//!
//! Only argument handling and printing live here; the work is done by the
//! `tenant-codegen` library, which the tests call in-process.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(about = "Project automation for the tenant management API workspace")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Regenerate generated/ (types, client and server crates) from the spec.
    ///
    /// Everything is generated in memory first; on success only files whose
    /// content changed are rewritten (atomically), files no longer produced are
    /// removed, and each change is listed. A broken spec is reported with its
    /// file, line and cause, and generated/ is left as it was.
    Codegen {
        /// Write nothing; exit with status 1 if generated/ differs from what the
        /// spec produces, naming each stale, missing or extra file.
        #[arg(long)]
        check: bool,
        /// The spec to generate from, relative to the workspace root.
        #[arg(long, default_value = tenant_codegen::SPEC_FILE)]
        spec: PathBuf,
    },
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Codegen { check, spec } => codegen(&workspace_root(), &spec, check),
    }
}

fn codegen(root: &Path, spec: &Path, check: bool) -> ExitCode {
    let tree = match tenant_codegen::generate(root, spec) {
        Ok(tree) => tree,
        Err(diagnostic) => {
            eprintln!("{diagnostic}");
            eprintln!("{} was left unchanged.", tree_name());
            return ExitCode::FAILURE;
        }
    };
    if check {
        match tenant_codegen::write::check_tree(root, &tree) {
            Ok(drifts) if drifts.is_empty() => {
                println!("{} is in sync with {}.", tree_name(), spec.display());
                ExitCode::SUCCESS
            }
            Ok(drifts) => {
                for drift in &drifts {
                    eprintln!("{drift}");
                }
                eprintln!(
                    "{} is out of date with {}: run `cargo xtask codegen` and commit the result.",
                    tree_name(),
                    spec.display()
                );
                ExitCode::FAILURE
            }
            Err(err) => fail(&err),
        }
    } else {
        match tenant_codegen::write::write_tree(root, &tree) {
            Ok(changes) if changes.is_empty() => {
                println!("{} is up to date.", tree_name());
                ExitCode::SUCCESS
            }
            Ok(changes) => {
                for change in &changes {
                    println!("{change}");
                }
                ExitCode::SUCCESS
            }
            Err(err) => fail(&err),
        }
    }
}

fn tree_name() -> String {
    format!("{}/", tenant_codegen::GENERATED_DIR)
}

fn fail(err: &std::io::Error) -> ExitCode {
    eprintln!("error: {err}");
    ExitCode::FAILURE
}

/// The workspace root: xtask lives one level below it.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is inside the workspace")
        .to_path_buf()
}
