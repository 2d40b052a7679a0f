//! Tags are cargo features of the generated crates (see
//! `openapi_crates_codegen::emit::features`): a consumer enabling some of them
//! compiles their operations and exactly what those reach. These tests pick
//! feature sets (no tag, each tag alone, and pairs drawn at random for each
//! seed of `FEATURE_SEEDS`, default `1,2,3`) and run `cargo clippy -D
//! warnings` on the client and server crates with only those features: a
//! type an enabled operation needs but the gates left out fails to compile.
//!
//! The specs: the `tags` construct fixture (every set), the project's own
//! spec, and the platform's published definition (one tag and one pair per
//! seed: each check of it takes tens of seconds).

use std::collections::BTreeSet;
use std::path::Path;

use workspace_tests::workspace_root;

#[path = "scratch.rs"]
mod scratch;
use scratch::{cargo, generate_named, runtime_dependencies, write_crates, write_workspace};

const PUBLISHED: &str = "../shared/specs/platform-management-api.oas.json";

/// The seeds the random picks are drawn with: `FEATURE_SEEDS` (`4,5`), else
/// 1, 2 and 3, so a failure is reproduced by its seed.
fn seeds() -> Vec<u64> {
    match std::env::var("FEATURE_SEEDS") {
        Ok(list) => list
            .split(',')
            .map(|seed| seed.trim().parse().expect("FEATURE_SEEDS: numbers"))
            .collect(),
        Err(_) => vec![1, 2, 3],
    }
}

/// SplitMix64: enough randomness to pick tags, with no dependency.
struct Picker(u64);

impl Picker {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % bound as u64) as usize
    }

    /// Two distinct tags of `tags`.
    fn pair(&mut self, tags: &[String]) -> Vec<String> {
        let first = self.below(tags.len());
        let mut second = self.below(tags.len() - 1);
        if second >= first {
            second += 1;
        }
        vec![tags[first].clone(), tags[second].clone()]
    }
}

/// The tag features of a generated crate's manifest, in its order.
fn tag_features(tree: &openapi_crates_codegen::GeneratedTree) -> Vec<String> {
    let manifest = tree
        .files
        .iter()
        .find(|file| {
            file.path.ends_with("Cargo.toml") && file.path.to_string_lossy().contains("-server")
        })
        .expect("a server manifest");
    let manifest: toml::Table = toml::from_str(&manifest.contents).unwrap();
    let features = manifest["features"].as_table().unwrap();
    let all: Vec<&str> = features["all"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(toml::Value::as_str)
        .filter(|feature| !feature.contains('/'))
        .collect();
    all.into_iter().map(str::to_string).collect()
}

/// Generates `spec` as `name` in a scratch workspace of its own, and runs
/// clippy on its client and server with each of `sets` of features.
fn check_feature_sets(spec: &Path, name: &str, sets: impl Fn(&[String]) -> Vec<Vec<String>>) {
    let root = workspace_root();
    let tree = generate_named(&root, spec, name);
    let tags = tag_features(&tree);
    assert!(tags.len() > 1, "{name}: its crates have tag features");
    let scratch = root.join(format!("target/construct-check/features-{name}"));
    let mut dependencies = runtime_dependencies();
    let members = write_crates(&scratch, name, &tree, &mut dependencies);
    drop(tree);
    write_workspace(&root, &scratch, &members, &dependencies);
    let packages: Vec<String> = ["client", "server"]
        .iter()
        .map(|crate_kind| format!("{name}-tenant-api-{crate_kind}"))
        .collect();
    let mut checked = BTreeSet::new();
    for set in sets(&tags) {
        let set: BTreeSet<String> = set.into_iter().collect();
        if !checked.insert(set.clone()) {
            continue;
        }
        eprintln!("{name}: checking with features {set:?}");
        let features: Vec<String> = packages
            .iter()
            .flat_map(|package| set.iter().map(move |tag| format!("{package}/{tag}")))
            .collect();
        let features = features.join(",");
        let mut args = vec!["clippy", "--quiet", "--no-default-features"];
        for package in &packages {
            args.extend(["-p", package]);
        }
        if !set.is_empty() {
            args.extend(["--features", &features]);
        }
        args.extend(["--", "-D", "warnings"]);
        cargo(&scratch, &args);
    }
}

/// No tag, each tag alone, and a pair per seed.
fn singles_and_pairs(tags: &[String]) -> Vec<Vec<String>> {
    let mut sets = vec![Vec::new()];
    sets.extend(tags.iter().map(|tag| vec![tag.clone()]));
    for seed in seeds() {
        sets.push(Picker(seed).pair(tags));
    }
    sets
}

#[test]
fn every_tag_of_the_tags_fixture_compiles_alone_and_in_pairs() {
    check_feature_sets(
        Path::new("tests/fixtures/constructs/tags.yaml"),
        "tagged",
        |tags| {
            let mut sets = singles_and_pairs(tags);
            // Every pair: there are three tags.
            for (index, first) in tags.iter().enumerate() {
                for second in &tags[index + 1..] {
                    sets.push(vec![first.clone(), second.clone()]);
                }
            }
            sets
        },
    );
}

#[test]
fn every_tag_of_the_project_spec_compiles_alone_and_random_pairs_do() {
    check_feature_sets(
        Path::new(openapi_crates_codegen::SPEC_FILE),
        "project",
        singles_and_pairs,
    );
}

#[test]
fn random_tags_of_the_published_definition_compile_alone_and_in_pairs() {
    let root = workspace_root();
    if !root.join(PUBLISHED).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{PUBLISHED} is missing; CI must provide it"
        );
        eprintln!("{PUBLISHED} is not here: skipped");
        return;
    }
    check_feature_sets(Path::new(PUBLISHED), "platform", |tags| {
        assert!(tags.len() > 40, "the definition has its tags: {tags:?}");
        seeds()
            .into_iter()
            .flat_map(|seed| {
                let mut picker = Picker(seed);
                let single = vec![tags[picker.below(tags.len())].clone()];
                [single, picker.pair(tags)]
            })
            .collect()
    });
}
