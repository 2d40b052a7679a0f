//! The corpus under `tests/spec-diff/`: each directory holds a `before.yaml`,
//! an `after.yaml` and `expected.txt`, one expected change per line
//! (`level direction rule [acknowledged]`; `#` starts a comment). The test
//! checks the classification against `expected.txt` (so a wrongly accepted
//! snapshot still fails) and snapshots the whole text report.

use std::path::{Path, PathBuf};

use tenant_spec_diff::cli::compare;
use tenant_spec_diff::walk::{RULES, SCHEMA_RULES, is_known_rule};
use tenant_spec_diff::{Level, Report, render};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/spec-diff")
}

fn classification(report: &Report) -> Vec<String> {
    let mut lines: Vec<String> = report
        .changes
        .iter()
        .map(|change| {
            let level = match change.level {
                Level::Breaking => "breaking",
                Level::PossiblyBreaking => "possibly-breaking",
                Level::Compatible => "compatible",
            };
            let mut line = format!("{level} {} {}", change.direction.as_str(), change.rule);
            if change.acknowledged.is_some() {
                line.push_str(" acknowledged");
            }
            line
        })
        .collect();
    lines.sort();
    lines
}

fn expected(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("expected.txt")).expect("expected.txt");
    let mut lines: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

#[test]
fn every_pair_is_classified_as_expected() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/spec-diff exists")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    assert!(
        dirs.len() >= 60,
        "the corpus has {} pairs, expected at least 60",
        dirs.len()
    );

    let mut failures = Vec::new();
    let mut rules = std::collections::BTreeSet::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let before = std::fs::read(dir.join("before.yaml")).expect("before.yaml");
        let after = std::fs::read(dir.join("after.yaml")).expect("after.yaml");
        let report = compare(
            Some((Path::new("before.yaml"), &before)),
            (Path::new("after.yaml"), &after),
            "before.yaml",
            "after.yaml",
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let actual = classification(&report);
        if actual != expected(dir) {
            failures.push(format!(
                "{name}:\n  expected {:?}\n  actual   {:?}",
                expected(dir),
                actual
            ));
        }
        rules.extend(report.changes.iter().map(|c| c.rule.clone()));
        insta::with_settings!({snapshot_suffix => name.clone(), prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!("spec_diff", render::text(&report));
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every rule the walker has is exercised, and it reports no other.
    for rule in &rules {
        assert!(
            is_known_rule(rule),
            "rule `{rule}` is not listed in walk::RULES"
        );
    }
    for rule in RULES {
        assert!(
            rules.contains(*rule),
            "no corpus pair exercises rule `{rule}`"
        );
    }
    let missing: Vec<&str> = SCHEMA_RULES
        .iter()
        .copied()
        .filter(|kind| {
            !rules
                .iter()
                .any(|r| r.split_once('-').is_some_and(|(_, k)| k == *kind))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "no corpus pair exercises schema rules {missing:?}"
    );
}
