//! The house rules a test can see (rust-analyzer's `tidy.rs` is the
//! model): the docs stay a road and a map, not a notebook of runs, and each
//! list of OpenAPI's vocabulary has one definition
//! (`crates/codegen/src/vocabulary.rs`).

use std::path::{Path, PathBuf};

use workspace_tests::workspace_root;

/// The README is the user's road, ARCHITECTURE the map: about 250 and 450
/// lines, with room for a paragraph.
const LINE_BUDGETS: &[(&str, usize)] = &[("README.md", 300), ("ARCHITECTURE.md", 500)];

/// Units of what benches measure; a figure in one of them is a reading
/// that goes stale, which belongs in what the benches print.
const MEASURED_UNITS: &[&str] = &["ms", "s", "seconds", "minutes", "KiB", "MiB", "GiB"];

/// The names a list of every method holds; a file that spells them all
/// out close together holds a second definition of the list.
const METHOD_NAMES: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

#[test]
fn docs_keep_to_their_size() {
    for &(doc, budget) in LINE_BUDGETS {
        let lines = read(&workspace_root().join(doc)).lines().count();
        assert!(lines <= budget, "{doc} has {lines} lines, over {budget}");
    }
}

#[test]
fn docs_hold_no_dated_runs() {
    for doc in ["README.md", "ARCHITECTURE.md"] {
        let text = read(&workspace_root().join(doc));
        for (number, line) in prose_lines(&text) {
            assert!(
                !has_date(&line),
                "{doc}:{number}: a date outside code: {line}"
            );
        }
    }
}

#[test]
fn architecture_quotes_no_measured_figures() {
    let text = read(&workspace_root().join("ARCHITECTURE.md"));
    for (number, line) in prose_lines(&text) {
        if let Some(figure) = measured_figure(&line) {
            panic!(
                "ARCHITECTURE.md:{number}: `{figure}` is a measured figure; \
                 point at the bench that prints it"
            );
        }
    }
}

#[test]
fn the_methods_are_listed_once() {
    let root = workspace_root();
    let definition = root.join("crates/codegen/src/vocabulary.rs");
    let this_test = root.join("tests/tidy.rs");
    let mut copies = Vec::new();
    for dir in ["crates", "xtask", "tests", "examples"] {
        for file in rust_files(&root.join(dir)) {
            if file != definition && file != this_test && lists_every_method(&read(&file)) {
                copies.push(file.strip_prefix(&root).unwrap().display().to_string());
            }
        }
    }
    assert!(
        lists_every_method(&read(&definition)),
        "the definition moved: update this test"
    );
    assert!(
        copies.is_empty(),
        "copies of vocabulary::METHODS: {copies:?}"
    );
}

#[test]
fn the_rules_catch_what_they_are_for() {
    assert!(has_date("measured on 2026-11-24, 3 s"));
    assert!(!has_date("version 1.2.3-rc.1"));
    assert_eq!(measured_figure("it takes 2.9 s here"), Some("2.9 s".into()));
    assert_eq!(measured_figure("peak 5.4 GiB"), Some("5.4 GiB".into()));
    assert_eq!(measured_figure("HTTP/1.1 and 3 examples"), None);
    assert!(lists_every_method(
        r#"["trace", "get", "put", "post", "delete", "patch", "head", "options"]"#
    ));
    assert!(!lists_every_method(
        r#"["get", "put", "post", "delete", "patch"]"#
    ));
    let lines = prose_lines("a `2026-01-01` b\n```\n2026-01-01 in code\n```\nc");
    assert!(lines.iter().all(|(_, line)| !has_date(line)), "{lines:?}");
}

/// Whether `text` spells every method, quoted, within one short stretch
/// (a list of them, in whatever order).
fn lists_every_method(text: &str) -> bool {
    const STRETCH: usize = 160;
    text.match_indices('"').any(|(start, _)| {
        let end = (start + STRETCH).min(text.len());
        let Some(stretch) = text.get(start..end) else {
            return false;
        };
        METHOD_NAMES
            .iter()
            .all(|method| stretch.contains(&format!("\"{method}\"")))
    })
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The lines of a Markdown text outside fenced code, with inline code
/// spans taken out (code may show a date or a figure as data), numbered
/// from 1.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        lines.push((index + 1, prose));
    }
    lines
}

/// Whether `line` holds a date such as `2026-11-24`.
fn has_date(line: &str) -> bool {
    let bytes = line.as_bytes();
    bytes.windows(10).enumerate().any(|(start, window)| {
        let shape = window.iter().enumerate().all(|(index, byte)| match index {
            4 | 7 => *byte == b'-',
            _ => byte.is_ascii_digit(),
        });
        let alone = |at: Option<&u8>| at.is_none_or(|byte| !byte.is_ascii_alphanumeric());
        shape
            && window.starts_with(b"20")
            && alone(start.checked_sub(1).and_then(|before| bytes.get(before)))
            && alone(bytes.get(start + 10))
    })
}

/// The first number followed by a unit of [`MEASURED_UNITS`] in `line`.
fn measured_figure(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(2).find_map(|pair| {
        let number = pair[0].trim_start_matches(['(', '~', '≈']);
        let unit = pair[1].trim_end_matches([',', '.', ';', ':', ')']);
        let is_number = !number.is_empty()
            && number
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
            && number.starts_with(|c: char| c.is_ascii_digit());
        (is_number && MEASURED_UNITS.contains(&unit)).then(|| format!("{number} {unit}"))
    })
}

/// Every `.rs` file under `dir`, `target` directories aside.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|name| name != "target") {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
