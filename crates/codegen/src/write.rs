//! Stage 5: put the generated files on disk, or compare them with what is there.
//!
//! Everything is generated in memory first, so a broken spec never reaches
//! this stage and `generated/` is left untouched. Writing touches only files
//! whose content changed, replaces each one atomically (temporary file in the
//! same directory, then rename) and removes files the generator no longer
//! produces from the directories it owns (one per crate). Checking does the
//! same comparison and writes nothing.
//!
//! The output may land in a team's own tree, so nothing the generator did
//! not write is replaced: a crate directory whose manifest, or a workspace
//! manifest, lacks the generated-file marker stops the run before any file
//! is touched.

use std::collections::BTreeSet;
use std::fmt;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostics;
use crate::format::GENERATED_MARKER;

/// One generated file, with its path relative to the output root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    pub path: PathBuf,
    pub contents: String,
}

/// Everything the generator writes: the directories it owns, the files, and
/// what it read otherwise than written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedTree {
    /// Directories, relative to the output root, whose every file is
    /// generated (one per crate). Files outside them (a workspace manifest)
    /// are written but never removed.
    pub owned_dirs: Vec<PathBuf>,
    /// The files, sorted by path.
    pub files: Vec<GeneratedFile>,
    /// The run's warnings, sorted by place.
    pub warnings: Diagnostics,
}

impl GeneratedTree {
    pub fn get(&self, path: impl AsRef<Path>) -> Option<&GeneratedFile> {
        self.files.iter().find(|file| file.path == path.as_ref())
    }
}

/// What `write_tree` did to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Created(PathBuf),
    Updated(PathBuf),
    Removed(PathBuf),
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Created(path) => write!(f, "created {}", path.display()),
            Change::Updated(path) => write!(f, "updated {}", path.display()),
            Change::Removed(path) => write!(f, "removed {}", path.display()),
        }
    }
}

/// How one file on disk differs from what the spec produces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Drift {
    /// The generator produces the file but it is not on disk.
    Missing(PathBuf),
    /// The file on disk differs; `diff` is a short unified diff from disk to expected.
    Stale { path: PathBuf, diff: String },
    /// The file is on disk in the owned directory but no longer generated.
    Extra(PathBuf),
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Drift::Missing(path) => write!(f, "missing: {}", path.display()),
            Drift::Stale { path, diff } => write!(f, "stale: {}\n{diff}", path.display()),
            Drift::Extra(path) => write!(f, "no longer generated: {}", path.display()),
        }
    }
}

/// Lines of diff shown per stale file; enough to see the kind of change.
const DIFF_LINES_SHOWN: usize = 40;

/// Brings the owned directories under `workspace_root` in line with `tree`.
/// Fails, having written nothing, when a file the tree would replace was
/// not written by the generator ([`not_generated`]).
pub fn write_tree(workspace_root: &Path, tree: &GeneratedTree) -> io::Result<Vec<Change>> {
    if let Some(foreign) = not_generated(workspace_root, tree)? {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "{} was not written by the generator (no `{GENERATED_MARKER}` manifest); \
                 nothing was written: choose another output directory, or remove it",
                foreign.display()
            ),
        ));
    }
    let mut changes = Vec::new();
    for file in &tree.files {
        let target = workspace_root.join(&file.path);
        let change = match std::fs::read(&target) {
            Ok(existing) if existing == file.contents.as_bytes() => continue,
            Ok(_) => Change::Updated(file.path.clone()),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Change::Created(file.path.clone()),
            Err(err) => return Err(with_path(err, &target)),
        };
        write_atomically(&target, file.contents.as_bytes())
            .map_err(|err| with_path(err, &target))?;
        changes.push(change);
    }
    for extra in files_not_generated(workspace_root, tree)? {
        let target = workspace_root.join(&extra);
        std::fs::remove_file(&target).map_err(|err| with_path(err, &target))?;
        changes.push(Change::Removed(extra));
    }
    for dir in &tree.owned_dirs {
        remove_empty_dirs(&workspace_root.join(dir))?;
    }
    Ok(changes)
}

/// The first manifest on disk that the tree would replace, or crate
/// directory it would take over, though the generator did not write it: a
/// team's own crate or workspace of the same name.
pub fn not_generated(workspace_root: &Path, tree: &GeneratedTree) -> io::Result<Option<PathBuf>> {
    // A crate directory holding files but no manifest is not one the
    // generator wrote either: its files would be removed as stale.
    for dir in &tree.owned_dirs {
        let mut on_disk = Vec::new();
        collect_files(workspace_root, dir, &mut on_disk)?;
        if !on_disk.is_empty() && !workspace_root.join(dir).join("Cargo.toml").exists() {
            return Ok(Some(workspace_root.join(dir)));
        }
    }
    let manifests = tree
        .files
        .iter()
        .map(|file| file.path.clone())
        .filter(|path| path.file_name().is_some_and(|name| name == "Cargo.toml"));
    for manifest in manifests {
        let target = workspace_root.join(&manifest);
        let first_line = match std::fs::read_to_string(&target) {
            Ok(text) => text.lines().next().unwrap_or_default().to_string(),
            Err(err) if err.kind() == io::ErrorKind::NotFound => continue,
            // Not text: not the generator's either.
            Err(err) if err.kind() == io::ErrorKind::InvalidData => String::new(),
            Err(err) => return Err(with_path(err, &target)),
        };
        if !first_line.contains(GENERATED_MARKER) {
            return Ok(Some(target));
        }
    }
    Ok(None)
}

/// Compares the owned directories under `workspace_root` with `tree`; writes nothing.
pub fn check_tree(workspace_root: &Path, tree: &GeneratedTree) -> io::Result<Vec<Drift>> {
    let mut drifts = Vec::new();
    for file in &tree.files {
        let target = workspace_root.join(&file.path);
        match std::fs::read(&target) {
            Ok(existing) if existing == file.contents.as_bytes() => {}
            Ok(existing) => drifts.push(Drift::Stale {
                path: file.path.clone(),
                diff: short_diff(
                    &String::from_utf8_lossy(&existing),
                    &file.contents,
                    &file.path,
                ),
            }),
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                drifts.push(Drift::Missing(file.path.clone()));
            }
            Err(err) => return Err(with_path(err, &target)),
        }
    }
    drifts.extend(
        files_not_generated(workspace_root, tree)?
            .into_iter()
            .map(Drift::Extra),
    );
    Ok(drifts)
}

fn short_diff(on_disk: &str, expected: &str, path: &Path) -> String {
    let shown = path.display().to_string();
    let diff = similar::TextDiff::from_lines(on_disk, expected)
        .unified_diff()
        .context_radius(2)
        .header(
            &format!("{shown} (on disk)"),
            &format!("{shown} (from spec)"),
        )
        .to_string();
    let total = diff.lines().count();
    let mut short: String = diff
        .lines()
        .take(DIFF_LINES_SHOWN)
        .map(|line| format!("    {line}\n"))
        .collect();
    if total > DIFF_LINES_SHOWN {
        short.push_str(&format!(
            "    ... {} more diff lines\n",
            total - DIFF_LINES_SHOWN
        ));
    }
    short
}

/// Writes through a temporary file in the same directory and renames it into
/// place, so an interrupted run leaves either the old or the new file.
fn write_atomically(target: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut temporary = tempfile::NamedTempFile::new_in(dir)?;
    temporary.write_all(contents)?;
    temporary.as_file().sync_all()?;
    temporary.persist(target).map_err(|err| err.error)?;
    Ok(())
}

/// Files under the owned directories that the tree does not contain, sorted.
fn files_not_generated(workspace_root: &Path, tree: &GeneratedTree) -> io::Result<Vec<PathBuf>> {
    let expected: BTreeSet<&Path> = tree.files.iter().map(|file| file.path.as_path()).collect();
    let mut on_disk = Vec::new();
    for dir in &tree.owned_dirs {
        collect_files(workspace_root, dir, &mut on_disk)?;
    }
    on_disk.retain(|path| !expected.contains(path.as_path()));
    on_disk.sort();
    Ok(on_disk)
}

fn collect_files(workspace_root: &Path, relative: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    let dir = workspace_root.join(relative);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(with_path(err, &dir)),
    };
    for entry in entries {
        let entry = entry.map_err(|err| with_path(err, &dir))?;
        let child = relative.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            collect_files(workspace_root, &child, out)?;
        } else {
            out.push(child);
        }
    }
    Ok(())
}

fn remove_empty_dirs(dir: &Path) -> io::Result<bool> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(false);
    };
    let mut empty = true;
    for entry in entries {
        let entry = entry?;
        if !(entry.file_type()?.is_dir() && remove_empty_dirs(&entry.path())?) {
            empty = false;
        }
    }
    if empty {
        std::fs::remove_dir(dir)?;
    }
    Ok(empty)
}

fn with_path(err: io::Error, path: &Path) -> io::Error {
    io::Error::new(err.kind(), format!("{}: {err}", path.display()))
}
