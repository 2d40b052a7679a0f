//! `cargo xtask codegen` as a function, so tests can run the whole command
//! in-process against any workspace directory and read what it printed.

use std::io::Write;
use std::path::Path;

use crate::write::{check_tree, write_tree};
use crate::{Options, generate_with};

/// Whether to write `generated/` or only compare it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Write,
    Check,
}

/// Prints `spec` (relative to `root` unless absolute) as one JSON document,
/// the files it refers to bundled in as the generator bundles them (each
/// `$ref` local, to a component), to `out`. Returns the exit status: 0, or
/// 1 on a broken spec, its message on `err`.
pub fn bundle(root: &Path, spec: &Path, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match crate::load_spec_as_written(root, spec) {
        Ok(loaded) => match serde_json::to_writer_pretty(&mut *out, &loaded.document) {
            Ok(()) => {
                let _ = writeln!(out);
                0
            }
            Err(problem) => {
                let _ = writeln!(err, "cannot write the bundled spec: {problem}");
                1
            }
        },
        Err(problem) => {
            let _ = writeln!(err, "{problem}");
            1
        }
    }
}

/// Runs codegen for `spec` (relative to `root` unless absolute) in `mode`,
/// printing progress to `out` and problems to `err`. Returns the exit status:
/// 0 on success (warnings printed), 1 on a broken spec, drift (in check
/// mode) or an I/O error.
pub fn codegen(
    root: &Path,
    spec: &Path,
    mode: Mode,
    options: &Options,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    // Output goes to a terminal or a test buffer; a failed print is not worth
    // failing the run for, so write errors are ignored.
    let dir = options.output.dir.display();
    let tree = match generate_with(root, spec, options) {
        Ok(tree) => tree,
        Err(problems) => {
            let _ = writeln!(err, "{problems}");
            let errors = problems
                .iter()
                .filter(|problem| !problem.is_warning())
                .count();
            let summary = match errors {
                1 => String::new(),
                count => format!("{count} errors; "),
            };
            let _ = writeln!(err, "{summary}{dir}/ was left unchanged.");
            return 1;
        }
    };
    if !tree.warnings.is_empty() {
        let listed = if options.verbose {
            tree.warnings.to_string()
        } else {
            tree.warnings.summary()
        };
        let _ = writeln!(err, "{listed}");
        let more = if options.verbose {
            ""
        } else {
            " `--verbose` lists each;"
        };
        let _ = writeln!(
            err,
            "{} warning(s): generated as each says;{more} `--allow ID` silences a reading, \
             `--deny ID` or `--strict` refuses it.",
            tree.warnings.len()
        );
    }
    match mode {
        Mode::Check => match check_tree(root, &tree) {
            Ok(drifts) if drifts.is_empty() => {
                let _ = writeln!(out, "{dir}/ is in sync with {}.", spec.display());
                0
            }
            Ok(drifts) => {
                for drift in &drifts {
                    let _ = writeln!(err, "{drift}");
                }
                let _ = writeln!(
                    err,
                    "{dir}/ is out of date with {}: generate again and commit the result.",
                    spec.display()
                );
                1
            }
            Err(io_error) => {
                let _ = writeln!(err, "error: {io_error}");
                1
            }
        },
        Mode::Write => match write_tree(root, &tree) {
            Ok(changes) if changes.is_empty() => {
                let _ = writeln!(out, "{dir}/ is up to date.");
                0
            }
            Ok(changes) => {
                for change in &changes {
                    let _ = writeln!(out, "{change}");
                }
                0
            }
            Err(io_error) => {
                let _ = writeln!(err, "error: {io_error}");
                1
            }
        },
    }
}
