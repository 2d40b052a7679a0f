//! `openapi-crates spec-diff` as a function: read both versions (two files,
//! or one file and the same file at a revision of the git repository that
//! holds it), compare, print, and return the exit status.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use openapi_crates_codegen::load::LoadedSpec;
use openapi_crates_codegen::{
    load_spec_as_written, parse_spec_as_written as parse_spec, parse_spec_as_written_with,
};

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
    pub comparison: Comparison,
    pub format: Format,
}

/// Which two versions are compared. Paths are relative to the root the
/// command is given, unless absolute.
#[derive(Debug, Clone)]
pub enum Comparison {
    /// The spec in the working tree against the spec at a revision of the
    /// git repository that holds it (`None`: the merge base of `HEAD` and
    /// `main`, else `HEAD`). The files it refers to are read at the same
    /// revision.
    Revision { spec: PathBuf, base: Option<String> },
    /// Two files, the old version first.
    Files { old: PathBuf, new: PathBuf },
}

impl Comparison {
    /// The file whose acknowledgements count: the new version's.
    fn new_spec(&self) -> &Path {
        match self {
            Comparison::Revision { spec, .. } => spec,
            Comparison::Files { new, .. } => new,
        }
    }
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
    let base_spec = match base {
        Some((path, bytes)) => Some(parse_spec(path, bytes).map_err(|d| d.to_string())?),
        None => None,
    };
    compare_loaded(base_spec.as_ref(), &head_spec, base_label, head_label)
}

/// [`compare`] for versions already loaded as written.
pub fn compare_loaded(
    base: Option<&LoadedSpec>,
    head: &LoadedSpec,
    base_label: &str,
    head_label: &str,
) -> Result<Report, String> {
    let mut report = Report {
        base_label: base_label.to_string(),
        head_label: head_label.to_string(),
        ..Report::default()
    };
    let acknowledgements = ack::read(head).map_err(|d| d.to_string())?;
    let Some(base) = base else {
        report.no_base = true;
        return Ok(report);
    };
    report.changes = diff_specs(base, head);
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
    match openapi_crates_codegen::on_deep_stack(|| run(root, options)) {
        Ok(report) => {
            let _ = out.write_all(render(&report, options.format).as_bytes());
            let unacknowledged = report.unacknowledged().count();
            if unacknowledged > 0 {
                let _ = writeln!(
                    err,
                    "error: {unacknowledged} breaking change(s) not acknowledged: list each under `{}` in {} (rule, pointer, reason), or move the API to a new version in the server URL path (`/api/v2` -> `/api/v3`)",
                    ack::EXTENSION,
                    options.comparison.new_spec().display()
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
    match &options.comparison {
        Comparison::Files { old, new } => {
            let old_spec = load_spec_as_written(root, old).map_err(|d| d.to_string())?;
            let new_spec = load_spec_as_written(root, new).map_err(|d| d.to_string())?;
            compare_loaded(
                Some(&old_spec),
                &new_spec,
                &old.display().to_string(),
                &new.display().to_string(),
            )
        }
        Comparison::Revision { spec, base } => {
            let head = load_spec_as_written(root, spec).map_err(|d| d.to_string())?;
            let repository = Repository::of(root, spec)?;
            let revision = match base {
                Some(revision) => revision.clone(),
                None => repository.default_base(),
            };
            let label = format!("{revision}:{}", spec.display());
            let base_spec = match repository.show(&revision, spec)? {
                Some(bytes) => {
                    // The base is named `REV:spec`, and so are the files
                    // the bundler resolves against it: each is read at REV.
                    let prefix = format!("{revision}:");
                    let mut read = |file: &Path| -> Result<Vec<u8>, String> {
                        let text = file.display().to_string();
                        let file = Path::new(text.strip_prefix(&prefix).unwrap_or(&text));
                        repository
                            .show(&revision, file)
                            .map_err(|err| err.trim_start_matches("error: ").to_string())?
                            .ok_or_else(|| format!("there is no such file at {revision}"))
                    };
                    Some(
                        parse_spec_as_written_with(Path::new(&label), &bytes, &mut read)
                            .map_err(|d| d.to_string())?,
                    )
                }
                None => None,
            };
            compare_loaded(
                base_spec.as_ref(),
                &head,
                &label,
                &format!("{} (working tree)", spec.display()),
            )
        }
    }
}

/// The git repository that holds a spec, and the directory git is run in
/// to reach the spec's files by `REV:./path` (relative to the directory).
struct Repository {
    dir: PathBuf,
    root: PathBuf,
}

impl Repository {
    /// The repository holding `spec` (relative to `root` unless absolute).
    fn of(root: &Path, spec: &Path) -> Result<Self, String> {
        let dir = root
            .join(spec)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        git(&dir, &["rev-parse", "--git-dir"]).map_err(|e| {
            format!(
                "{}: error: the spec is not in a git repository, so there is no revision to compare with \
                 (name two files to compare them): {e}",
                spec.display()
            )
        })?;
        Ok(Self {
            dir,
            root: root.to_path_buf(),
        })
    }

    /// The merge base of `HEAD` and `main` when git can find one, else `HEAD`.
    fn default_base(&self) -> String {
        default_base(&self.dir)
    }

    /// The bytes of `file` (relative to the command's root unless absolute)
    /// at `revision`, or `None` when the file does not exist there.
    fn show(&self, revision: &str, file: &Path) -> Result<Option<Vec<u8>>, String> {
        let path = self.root.join(file);
        let (dir, name) = match (path.parent(), path.file_name()) {
            (Some(dir), Some(name)) if !dir.as_os_str().is_empty() => (dir.to_path_buf(), name),
            (_, Some(name)) => (PathBuf::from("."), name),
            _ => return Ok(None),
        };
        show_at_revision(&dir, revision, Path::new(name))
    }
}

/// The merge base of `HEAD` and `main` when git can find one, else `HEAD`.
pub fn default_base(root: &Path) -> String {
    git(root, &["merge-base", "HEAD", "main"])
        .ok()
        .map(|out| out.trim().to_string())
        .filter(|rev| !rev.is_empty())
        .unwrap_or_else(|| "HEAD".to_string())
}

/// The bytes of `file` (in `dir`, where git runs) at `revision`, or `None`
/// when the file does not exist there.
fn show_at_revision(dir: &Path, revision: &str, file: &Path) -> Result<Option<Vec<u8>>, String> {
    git(
        dir,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{revision}^{{commit}}"),
        ],
    )
    .map_err(|e| format!("error: base revision `{revision}` does not resolve: {e}"))?;
    // `./` makes the path relative to the directory git runs in, wherever
    // the repository's top is.
    let object = format!(
        "{revision}:./{}",
        file.display().to_string().replace('\\', "/")
    );
    if git(dir, &["cat-file", "-e", &object]).is_err() {
        return Ok(None);
    }
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
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

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).trim().to_string())
    }
}
