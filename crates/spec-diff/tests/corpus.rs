//! The corpus under `tests/spec-diff/`: each directory holds a `before.yaml`,
//! an `after.yaml` and `expected.txt`, one expected change per line
//! (`level direction rule [acknowledged]`; `#` starts a comment). The test
//! checks the classification against `expected.txt` (so a wrongly accepted
//! snapshot still fails) and snapshots the whole text report.

use std::path::{Path, PathBuf};

use openapi_crates_spec_diff::cli::compare;
use openapi_crates_spec_diff::rules::{self, RULES};
use openapi_crates_spec_diff::{Direction, Level, Report, render};

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
    let mut produced = std::collections::BTreeSet::new();
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
        produced.extend(report.changes.iter().map(|c| c.rule.clone()));
        // The level reported is one the table gives the rule (its usual
        // effect or its exception's), on the side reported.
        for change in &report.changes {
            let Some(rule) = rules::find(&change.rule) else {
                continue;
            };
            let effects = [Some(rule.effect), rule.exception.map(|e| e.effect)];
            let allowed = effects
                .iter()
                .flatten()
                .any(|effect| match change.direction {
                    Direction::Request => effect.request == change.level,
                    Direction::Response => effect.response == change.level,
                    Direction::Both => {
                        effect.request == change.level && effect.response == change.level
                    }
                    Direction::NotApplicable => {
                        change.level == Level::Compatible || effect.request == change.level
                    }
                });
            if !allowed {
                failures.push(format!(
                    "{name}: `{}` reported {:?} on {:?}, which rules::RULES does not give it",
                    change.rule, change.level, change.direction
                ));
            }
        }
        insta::with_settings!({snapshot_suffix => name.clone(), prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!("spec_diff", render::text(&report));
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every rule of the table is exercised, and no other is reported.
    for rule in &produced {
        assert!(
            rules::find(rule).is_some(),
            "rule `{rule}` is not in rules::RULES"
        );
    }
    let missing: Vec<&str> = RULES
        .iter()
        .filter(|rule| !produced.iter().any(|r| rules::find(r) == Some(**rule)))
        .map(|rule| rule.id)
        .collect();
    assert!(
        missing.is_empty(),
        "no corpus pair exercises the rules {missing:?}"
    );
}
