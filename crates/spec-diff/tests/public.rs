//! The public descriptions under `../shared/specs/public` (one file each;
//! DigitalOcean's is split over files and read elsewhere), each compared with
//! itself: loading as written accepts them all, 3.0 and 3.1 alike, and an
//! unchanged description has no change, so no rule fires on noise; and the
//! small ones with a property added to each object report the new fields
//! from the code generated for them.

use std::path::{Path, PathBuf};

use openapi_crates_spec_diff::cli::compare;

fn public() -> Option<Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/specs/public");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&root)
        .ok()?
        .chain(std::fs::read_dir(root.join("oai-examples")).ok()?)
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == "json" || ext == "yaml")
        })
        .collect();
    found.sort();
    Some(found)
}

#[test]
fn every_public_description_compared_with_itself_has_no_change() {
    let Some(descriptions) = public() else {
        eprintln!("no public descriptions beside the workspace: nothing to compare");
        return;
    };
    assert!(descriptions.len() >= 5, "{descriptions:?}");
    for path in descriptions {
        let bytes = std::fs::read(&path).unwrap();
        let report = compare(Some((&path, &bytes)), (&path, &bytes), "before", "after")
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            report.changes.is_empty(),
            "{}: {:?}",
            path.display(),
            report.changes
        );
    }
}

/// The small public descriptions with an optional property added to every
/// component object: each generates, so the report's Rust lines come from
/// the generated code (none says it is modelled), and each object's new
/// field is reported under the type the generator gives the schema.
#[test]
fn a_property_added_to_public_descriptions_is_a_field_of_the_generated_types() {
    let Some(descriptions) = public() else {
        eprintln!("no public descriptions beside the workspace: nothing to compare");
        return;
    };
    // The large ones take seconds each to generate twice in a debug build.
    let small = descriptions.iter().filter(|path| {
        path.parent()
            .is_some_and(|dir| dir.ends_with("oai-examples"))
    });
    let mut objects = 0;
    for path in small {
        let bytes = std::fs::read(path).unwrap();
        let written = openapi_crates_codegen::parse_spec_as_written(path, &bytes).unwrap();
        let mut document = written.document.clone();
        let mut expected = Vec::new();
        if let Some(schemas) = document
            .pointer_mut("/components/schemas")
            .and_then(serde_json::Value::as_object_mut)
        {
            for (name, schema) in schemas.iter_mut() {
                if let Some(properties) = schema
                    .get_mut("properties")
                    .and_then(serde_json::Value::as_object_mut)
                {
                    properties.insert("probeAdded".into(), serde_json::json!({"type": "integer"}));
                    let owner = openapi_crates_codegen::naming::type_name(name);
                    expected.push(format!(
                        "new optional field `{owner}::probe_added: Option<i64>`"
                    ));
                }
            }
        }
        let after = serde_json::to_vec(&document).unwrap();
        let report = compare(
            Some((path, &bytes)),
            (Path::new("after.json"), &after),
            "before",
            "after",
        )
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let effects: Vec<&str> = report
            .changes
            .iter()
            .flat_map(|change| &change.rust)
            .map(|effect| effect.text.as_str())
            .collect();
        for effect in &effects {
            assert!(
                !effect.contains("modelled from the document"),
                "{}: {effect}",
                path.display()
            );
        }
        for field in &expected {
            assert!(
                effects
                    .iter()
                    .any(|effect| effect.starts_with(field.as_str())),
                "{}: no `{field}` in {effects:#?}",
                path.display()
            );
        }
        objects += expected.len();
    }
    assert!(
        objects >= 5,
        "only {objects} component objects were changed"
    );
}
