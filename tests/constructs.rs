//! Small specs under `tests/fixtures/constructs/`, one construct each, with
//! their generated code snapshotted: a reviewer sees exactly how a change to
//! the generator alters the output for dual content types, constrained
//! strings, `oneOf`, open maps and response headers.

use openapi_crates_codegen::emit::PROJECT_CRATE_PREFIX;
use openapi_crates_codegen::{Options, generate_with};
use workspace_tests::workspace_root;

#[test]
fn snapshot_of_each_construct() {
    insta::glob!("fixtures/constructs/*.yaml", |path| {
        let relative = path.strip_prefix(workspace_root()).unwrap();
        // One crate name for every fixture: the snapshots show constructs.
        let options = Options {
            crate_prefix: Some(PROJECT_CRATE_PREFIX.into()),
            strict: false,
            ..Options::project()
        };
        let tree = generate_with(&workspace_root(), relative, &options)
            .unwrap_or_else(|err| panic!("{err}"));
        let mut rendered = String::new();
        for file in tree
            .files
            .iter()
            .filter(|file| file.path.extension().is_some_and(|ext| ext == "rs"))
        {
            rendered.push_str(&format!(
                "==> {} <==\n{}\n",
                file.path.display(),
                file.contents
            ));
        }
        insta::assert_snapshot!(rendered);
    });
}
