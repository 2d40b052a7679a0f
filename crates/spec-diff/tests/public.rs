//! The public descriptions under `../shared/specs/public` (one file each;
//! DigitalOcean's is split over files and read elsewhere), each compared with
//! itself: loading as written accepts them all, 3.0 and 3.1 alike, and an
//! unchanged description has no change, so no rule fires on noise.

use std::path::{Path, PathBuf};

use tenant_spec_diff::cli::compare;

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
