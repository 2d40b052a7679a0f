//! Every description under `tests/fixtures/flawed/` has a flaw that touches
//! one annotation, schema or reference, as published descriptions do: each
//! must generate, with located warnings that say how the flaw was read
//! (snapshotted), and be refused under `--strict` with the same messages as
//! errors. Their crates are compiled with the construct fixtures
//! (`constructs_compile.rs`).

use std::path::{Path, PathBuf};

use openapi_crates_codegen::cli::{Mode, codegen};
use openapi_crates_codegen::{Options, generate_with};
use workspace_tests::{fixture_specs, scratch_workspace, snapshot_dir, workspace_root};

fn flawed_specs() -> Vec<PathBuf> {
    fixture_specs("flawed")
}

fn options(strict: bool) -> Options {
    Options {
        strict,
        ..Options::default()
    }
}

fn relative(spec: &Path) -> PathBuf {
    spec.strip_prefix(workspace_root()).unwrap().to_path_buf()
}

#[test]
fn every_flawed_spec_generates_with_located_warnings() {
    insta::glob!("fixtures/flawed/*.{yaml,json}", |path| {
        let spec = relative(path);
        let tree = generate_with(&workspace_root(), &spec, &options(false))
            .unwrap_or_else(|err| panic!("{}: refused:\n{err}", spec.display()));
        assert!(
            !tree.warnings.is_empty(),
            "{}: no warning for its flaw",
            spec.display()
        );
        let shown = spec.display().to_string();
        for warning in &tree.warnings {
            let text = warning.to_string();
            assert!(warning.is_warning(), "{text}");
            assert!(
                warning.position.is_some() && text.contains(": warning["),
                "{}: not located: {text}",
                spec.display()
            );
            assert!(
                warning
                    .file
                    .display()
                    .to_string()
                    .starts_with(shown.trim_end_matches(".yaml").trim_end_matches(".json")),
                "{text}"
            );
        }
        insta::assert_snapshot!(tree.warnings.to_string());
    });
}

#[test]
fn strict_refuses_every_flawed_spec_and_writes_nothing() {
    for spec in flawed_specs() {
        let spec = relative(&spec);
        let scratch = scratch_workspace();
        let before = snapshot_dir(scratch.path());
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let status = codegen(
            &workspace_root(),
            &spec,
            Mode::Check,
            &options(true),
            &mut out,
            &mut err,
        );
        let err = String::from_utf8(err).unwrap();
        assert_eq!(status, 1, "{}: {err}", spec.display());
        assert!(
            err.contains(": error[") && !err.contains(": warning"),
            "{}: {err}",
            spec.display()
        );
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(snapshot_dir(scratch.path()), before);
        let lenient = generate_with(&workspace_root(), &spec, &options(false)).unwrap();
        for warning in &lenient.warnings {
            let as_error = warning.clone().as_error().to_string();
            assert!(
                err.contains(&as_error),
                "{}: --strict lost {as_error}",
                spec.display()
            );
        }
    }
}

#[test]
fn every_reading_has_a_fixture_that_shows_it() {
    use openapi_crates_codegen::readings::READINGS;
    for row in READINGS {
        let spec = Path::new("tests/fixtures/flawed").join(row.fixture);
        let tree = generate_with(&workspace_root(), &spec, &options(false))
            .unwrap_or_else(|err| panic!("{}: {}: refused:\n{err}", row.id, spec.display()));
        assert!(
            tree.warnings
                .iter()
                .any(|warning| warning.reading == Some(row.reading)),
            "{} does not show `{}`:\n{}",
            spec.display(),
            row.id,
            tree.warnings
        );
    }
}

#[test]
fn every_warning_states_a_reading_of_the_table() {
    for spec in flawed_specs() {
        let tree = generate_with(&workspace_root(), &relative(&spec), &options(false)).unwrap();
        for warning in &tree.warnings {
            assert!(warning.reading.is_some(), "no reading: {warning}");
        }
    }
}

/// `--allow` silences a reading, `--deny` refuses it, and the description
/// may choose the same under `x-openapi-crates`; the command line wins.
#[test]
fn a_team_allows_and_denies_readings_by_id() {
    use openapi_crates_codegen::readings::{Choices, Reading};
    let spec = Path::new("tests/fixtures/flawed/16-path-parameters.yaml");
    let with = |allow: &[&str], deny: &[&str]| Options {
        readings: Choices::parse(
            &allow.iter().map(|id| id.to_string()).collect::<Vec<_>>(),
            &deny.iter().map(|id| id.to_string()).collect::<Vec<_>>(),
        )
        .unwrap(),
        ..Options::default()
    };
    let readings = |tree: &openapi_crates_codegen::GeneratedTree| -> Vec<Reading> {
        tree.warnings.iter().filter_map(|w| w.reading).collect()
    };
    let all = generate_with(&workspace_root(), spec, &Options::default()).unwrap();
    assert_eq!(readings(&all).len(), 3);
    let allowed = generate_with(
        &workspace_root(),
        spec,
        &with(&["path-parameter-optional"], &[]),
    )
    .unwrap();
    assert!(!readings(&allowed).contains(&Reading::PathParameterOptional));
    assert_eq!(readings(&allowed).len(), 2);
    let denied = generate_with(
        &workspace_root(),
        spec,
        &with(&[], &["path-parameter-unplaced"]),
    )
    .unwrap_err();
    // The refused reading as an error, the others still as warnings.
    let errors = denied
        .iter()
        .filter(|problem| !problem.is_warning())
        .count();
    assert_eq!((errors, denied.len()), (1, 3), "{denied}");
    assert!(
        denied
            .to_string()
            .contains(": error[path-parameter-unplaced]: "),
        "{denied}"
    );

    // The description's own choice, under the command line's.
    let scratch = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(workspace_root().join(spec)).unwrap().replace(
        "openapi: 3.0.3\n",
        "openapi: 3.0.3\nx-openapi-crates:\n  deny: [path-parameter-undeclared]\n  allow: [path-parameter-optional, no-such-reading]\n",
    );
    let own = scratch.path().join("api.yaml");
    std::fs::write(&own, text).unwrap();
    let refused = generate_with(scratch.path(), &own, &Options::default()).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("error[path-parameter-undeclared]"),
        "{refused}"
    );
    assert!(
        refused
            .to_string()
            .contains("`\"no-such-reading\"` is not a reading's id"),
        "{refused}"
    );
    let chosen = generate_with(
        scratch.path(),
        &own,
        &with(&["path-parameter-undeclared"], &[]),
    )
    .unwrap();
    assert_eq!(readings(&chosen), [Reading::PathParameterUnplaced]);
}

/// The end of a run counts warnings by reading, one line each with its
/// first place; `--verbose` lists every one.
#[test]
fn the_run_ends_with_one_line_per_reading() {
    let spec = Path::new("tests/fixtures/flawed/15-reference-unresolved.yaml");
    let run = |verbose: bool| -> String {
        let scratch = scratch_workspace();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let options = Options {
            verbose,
            output: openapi_crates_codegen::Output {
                dir: scratch.path().join("out"),
                ..Default::default()
            },
            ..Options::default()
        };
        let status = codegen(
            &workspace_root(),
            spec,
            Mode::Write,
            &options,
            &mut out,
            &mut err,
        );
        assert_eq!(status, 0);
        String::from_utf8(err).unwrap()
    };
    let summary = run(false);
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines.len(), 2, "{summary}");
    assert!(
        lines[0].starts_with("warning[reference-unresolved]: 6 × ")
            && lines[0]
                .ends_with("first at tests/fixtures/flawed/15-reference-unresolved.yaml:16:17"),
        "{summary}"
    );
    assert!(lines[1].starts_with("6 warning(s): generated as each says; `--verbose` lists each"));
    let verbose = run(true);
    assert_eq!(verbose.lines().count(), 7, "{verbose}");
}
