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
                warning.position.is_some() && text.contains(": warning: "),
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
            err.contains(": error: ") && !err.contains(": warning: "),
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
fn the_corpus_covers_every_class_of_flaw() {
    assert!(
        flawed_specs().len() >= 10,
        "only {} flawed specs",
        flawed_specs().len()
    );
}
