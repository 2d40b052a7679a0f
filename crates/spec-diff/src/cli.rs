//! `cargo xtask spec-diff` as a function: find the base version with git,
//! compare, print, and return the exit status.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use tenant_codegen::load::LoadedSpec;
use tenant_codegen::parse_spec_as_written as parse_spec;

use crate::{Report, ack, diff_specs, render};

/// How the report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
    Json,
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "text" => Ok(Format::Text),
            "markdown" => Ok(Format::Markdown),
            "json" => Ok(Format::Json),
            other => Err(format!(
                "unknown format `{other}` (expected text, markdown or json)"
            )),
        }
    }
}

/// The options of the command.
#[derive(Debug, Clone)]
pub struct Options {
    /// The git revision to compare against; `None`: the merge base with `main`, else `HEAD`.
    pub base: Option<String>,
    pub format: Format,
    /// The spec, relative to the workspace root.
    pub spec: PathBuf,
}

/// Compares two spec texts: the report, or a `file:line` error. The new
/// spec's acknowledgements are applied. Each text is read as written, with
/// none of the generator's refusals: a review compares any valid description.
pub fn compare(
    base: Option<(&Path, &[u8])>,
    head: (&Path, &[u8]),
    base_label: &str,
    head_label: &str,
) -> Result<Report, String> {
    let head_spec = parse_spec(head.0, head.1).map_err(|d| d.to_string())?;
    let mut report = Report {
        base_label: base_label.to_string(),
        head_label: head_label.to_string(),
        ..Report::default()
    };
    let acknowledgements = ack::read(&head_spec).map_err(|d| d.to_string())?;
    let Some((base_path, base_bytes)) = base else {
        report.no_base = true;
        return Ok(report);
    };
    let base_spec: LoadedSpec = parse_spec(base_path, base_bytes).map_err(|d| d.to_string())?;
    report.changes = diff_specs(&base_spec, &head_spec);
    report.stale_acknowledgements = ack::apply(&mut report.changes, &acknowledgements);
    Ok(report)
}

/// Renders `report` in `format`.
pub fn render(report: &Report, format: Format) -> String {
    match format {
        Format::Text => render::text(report),
        Format::Markdown => render::markdown(report),
        Format::Json => render::json(report),
    }
}

/// The whole command: exit status 0 when every breaking change is
/// acknowledged, 1 when one is not or on any error (printed to `err`).
pub fn spec_diff(root: &Path, options: &Options, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match run(root, options) {
        Ok(report) => {
            let _ = out.write_all(render(&report, options.format).as_bytes());
            let unacknowledged = report.unacknowledged().count();
            if unacknowledged > 0 {
                let _ = writeln!(
                    err,
                    "error: {unacknowledged} breaking change(s) not acknowledged: list each under `{}` in {} (rule, pointer, reason), or move the API to a new version in the server URL path (`/api/v2` -> `/api/v3`)",
                    ack::EXTENSION,
                    options.spec.display()
                );
                1
            } else {
                0
            }
        }
        Err(message) => {
            let _ = writeln!(err, "{message}");
            1
        }
    }
}

fn run(root: &Path, options: &Options) -> Result<Report, String> {
    let head_path = root.join(&options.spec);
    let head_bytes = std::fs::read(&head_path).map_err(|e| {
        format!(
            "{}: error: cannot read the spec: {e}",
            options.spec.display()
        )
    })?;
    let revision = match &options.base {
        Some(revision) => revision.clone(),
        None => default_base(root),
    };
    let base_bytes = show_at_revision(root, &revision, &options.spec)?;
    let base_name = PathBuf::from(format!("{revision}:{}", options.spec.display()));
    compare(
        base_bytes.as_deref().map(|b| (base_name.as_path(), b)),
        (&options.spec, &head_bytes),
        &format!("{revision}:{}", options.spec.display()),
        &format!("{} (working tree)", options.spec.display()),
    )
}

/// The merge base of `HEAD` and `main` when git can find one, else `HEAD`.
pub fn default_base(root: &Path) -> String {
    git(root, &["merge-base", "HEAD", "main"])
        .ok()
        .map(|out| out.trim().to_string())
        .filter(|rev| !rev.is_empty())
        .unwrap_or_else(|| "HEAD".to_string())
}

/// The spec's bytes at `revision`, or `None` when the file does not exist there.
fn show_at_revision(root: &Path, revision: &str, spec: &Path) -> Result<Option<Vec<u8>>, String> {
    git(
        root,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{revision}^{{commit}}"),
        ],
    )
    .map_err(|e| format!("error: base revision `{revision}` does not resolve: {e}"))?;
    let object = format!(
        "{revision}:{}",
        spec.display().to_string().replace('\\', "/")
    );
    if git(root, &["cat-file", "-e", &object]).is_err() {
        return Ok(None);
    }
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["show", &object])
        .output()
        .map_err(|e| format!("error: cannot run git: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "error: git show {object} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(Some(output.stdout))
}

fn git(root: &Path, args: &[&str]) -> Result<String, String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).trim().to_string())
    }
}
