//! The corpus: 1,027 descriptions that teams published on SwaggerHub, with
//! the flaws real descriptions carry (`../shared/corpus/`, read from there,
//! never copied in). Flaws are contained, so:
//!
//! - every description generates (a refusal is only for what is not
//!   JSON, YAML or OpenAPI 3.x, [`NOT_OPENAPI`]), and none panics;
//! - the mock starts on every one that generates (its router built, as
//!   `openapi-crates mock` builds it before serving);
//! - the crates of a sample of them pass `cargo clippy -D warnings`, the
//!   sample chosen by the commit (`git rev-parse HEAD`), so that every run
//!   checks others and all are checked over time.
//!
//! `CORPUS_CLIPPY_SAMPLE` sets the sample's size (`all` for every one:
//! `crates/codegen/benches/corpus.sh`, which prints the rates and times);
//! `CORPUS_SEED` the sample's seed. Each run prints what it measured.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use openapi_crates_codegen::{Diagnostics, GeneratedTree};
use openapi_crates_mock::{Mock, Options as MockOptions};
use workspace_tests::workspace_root;

#[path = "scratch.rs"]
mod scratch;
use scratch::{runtime_dependencies, try_cargo, try_generate_named, write_crates, write_workspace};

const CORPUS: &str = "../shared/corpus/swaggerhub-1027.tar.xz";

/// Descriptions of the corpus that are not OpenAPI 3.x documents at all,
/// by file and the class of the refusal: none today.
const NOT_OPENAPI: &[(&str, &str)] = &[];

/// The clippy sample of a CI run: at least 50 descriptions, whose crates
/// take a few minutes on two cores in one scratch workspace.
const CLIPPY_SAMPLE: usize = 50;

/// Descriptions whose generated crates do not pass clippy yet, by file and
/// class: CI's sample leaves them out, `crates/codegen/benches/corpus.sh`
/// (every description) still checks them. Issue 48 goes on until it is
/// empty.
const CLIPPY_PENDING: &[(&str, &str)] = &[];

/// The corpus unpacked under `target/` (once: the archive does not change),
/// its descriptions sorted; `None` (with a note) outside the team's machines.
fn corpus() -> Option<Vec<PathBuf>> {
    let root = workspace_root();
    let archive = root.join(CORPUS);
    if !archive.is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{CORPUS} is missing; CI must provide it"
        );
        eprintln!("{CORPUS} is not here: skipped");
        return None;
    }
    let dir = root.join("target/corpus");
    let done = dir.join(".unpacked");
    if !done.is_file() {
        std::fs::create_dir_all(&dir).unwrap();
        let status = Command::new("tar")
            .arg("-xJf")
            .arg(&archive)
            .arg("-C")
            .arg(&dir)
            .status()
            .expect("tar runs");
        assert!(status.success(), "tar could not unpack {CORPUS}");
        std::fs::write(&done, "").unwrap();
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "json")
        })
        .collect();
    files.sort();
    assert!(
        files.len() > 1000,
        "{} descriptions in the corpus",
        files.len()
    );
    Some(files)
}

fn crate_name(index: usize) -> String {
    format!("c{index:04}")
}

/// What one description gave.
enum Outcome {
    Generated {
        /// Kept for the clippy sample only.
        tree: Option<Box<GeneratedTree>>,
        took: Duration,
    },
    Refused(Diagnostics),
    Panicked(String),
}

/// `work` for each of `items`, on both cores, in order.
fn on_both_cores<T: Sync, R: Send>(items: &[T], work: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(index) else {
                        break;
                    };
                    let result = work(index, item);
                    results.lock().unwrap().push((index, result));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, result)| result).collect()
}

fn panic_text(panic: Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|text| text.to_string()))
        .unwrap_or_else(|| "a panic".into())
}

/// The indices of the clippy sample: `size` of `count`, drawn by a
/// generator seeded with `seed`.
fn sample(count: usize, size: usize, seed: u64) -> Vec<usize> {
    if size >= count {
        return (0..count).collect();
    }
    let mut state = seed | 1;
    let mut chosen = std::collections::BTreeSet::new();
    while chosen.len() < size {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let drawn = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        chosen.insert((drawn % count as u64) as usize);
    }
    chosen.into_iter().collect()
}

/// The commit's hash read as a seed (`CORPUS_SEED` overrides it).
fn seed(root: &Path) -> u64 {
    if let Some(seed) = std::env::var("CORPUS_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
    {
        return seed;
    }
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(root)
        .output()
        .ok()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string())
        .unwrap_or_default();
    u64::from_str_radix(head.get(..16).unwrap_or("0"), 16).unwrap_or(0)
}

#[test]
fn every_corpus_description_generates_and_its_mock_starts_and_a_sample_passes_clippy() {
    let Some(files) = corpus() else {
        return;
    };
    let root = workspace_root();
    // The sample is drawn first, so that only its trees are kept.
    let size = match std::env::var("CORPUS_CLIPPY_SAMPLE").as_deref() {
        Ok("all") => files.len(),
        Ok(size) => size
            .parse()
            .expect("CORPUS_CLIPPY_SAMPLE is a count or `all`"),
        Err(_) => CLIPPY_SAMPLE,
    };
    let seed = seed(&root);
    let every = size >= files.len();
    let candidates: Vec<usize> = (0..files.len())
        .filter(|&index| {
            let name = files[index].file_name().unwrap().to_string_lossy();
            every || !CLIPPY_PENDING.iter().any(|(pending, _)| *pending == name)
        })
        .collect();
    let chosen: Vec<usize> = sample(candidates.len(), size, seed)
        .into_iter()
        .map(|position| candidates[position])
        .collect();
    let started = Instant::now();
    let outcomes = on_both_cores(&files, |index, file| {
        let began = Instant::now();
        let generated =
            std::panic::catch_unwind(|| try_generate_named(&root, file, &crate_name(index)));
        match generated {
            Ok(Ok(tree)) => Outcome::Generated {
                tree: chosen.contains(&index).then(|| Box::new(tree)),
                took: began.elapsed(),
            },
            Ok(Err(problems)) => Outcome::Refused(problems),
            Err(panic) => Outcome::Panicked(panic_text(panic)),
        }
    });
    let generating = started.elapsed();

    let mut failures = Vec::new();
    let mut generated = Vec::new();
    let mut slowest = (Duration::ZERO, PathBuf::new());
    for (index, (file, outcome)) in files.iter().zip(&outcomes).enumerate() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        match outcome {
            Outcome::Generated { took, .. } => {
                if *took > slowest.0 {
                    slowest = (*took, file.clone());
                }
                generated.push(index);
            }
            Outcome::Refused(problems) => {
                let expected = NOT_OPENAPI.iter().any(|(known, _)| *known == name);
                if !expected {
                    let first = problems
                        .first()
                        .map(ToString::to_string)
                        .unwrap_or_default();
                    failures.push(format!("{name}: refused: {first}"));
                }
            }
            Outcome::Panicked(panic) => failures.push(format!("{name}: panicked: {panic}")),
        }
    }

    // The mock reads each as the generator does and builds its router.
    let mock_started = Instant::now();
    let mocked = on_both_cores(&generated, |_, &index| {
        let file = &files[index];
        let outcome = std::panic::catch_unwind(|| {
            let mock =
                Mock::load(&root, file, MockOptions::default()).map_err(|e| e.to_string())?;
            mock.router(mock.router_options())
                .map(drop)
                .map_err(|e| e.to_string())
        });
        match outcome {
            Ok(result) => result,
            Err(panic) => Err(format!("panicked: {}", panic_text(panic))),
        }
    });
    let mocking = mock_started.elapsed();
    let mut mock_failures = 0;
    for (&index, result) in generated.iter().zip(&mocked) {
        if let Err(problem) = result {
            mock_failures += 1;
            let name = files[index].file_name().unwrap().to_string_lossy();
            failures.push(format!("{name}: the mock does not start: {problem}"));
        }
    }

    // The sample's crates, in one scratch workspace, through clippy.
    let scratch = root.join("target/construct-check/corpus");
    let _ = std::fs::remove_dir_all(&scratch);
    let mut dependencies = runtime_dependencies();
    let mut members = Vec::new();
    let mut checked = Vec::new();
    for &index in &chosen {
        if let Outcome::Generated {
            tree: Some(tree), ..
        } = &outcomes[index]
        {
            members.extend(write_crates(
                &scratch,
                &crate_name(index),
                tree,
                &mut dependencies,
            ));
            checked.push(crate_name(index));
        }
    }
    let clippy_started = Instant::now();
    if !members.is_empty() {
        write_workspace(&root, &scratch, &members, &dependencies);
        // Every crate is checked, whichever fails first.
        let args = [
            "clippy",
            "--workspace",
            "--quiet",
            "--keep-going",
            "--",
            "-D",
            "warnings",
        ];
        if let Err(output) = try_cargo(&scratch, &args) {
            failures.push(output);
        }
    }
    let clippy = clippy_started.elapsed();

    eprintln!(
        "corpus: {} of {} generate ({:.1} s on two cores; slowest {:.2} s, {}); the mock \
         starts on {} ({:.1} s); clippy checked the {} of sample {seed:016x} ({:.1} s: {})",
        generated.len(),
        files.len(),
        generating.as_secs_f64(),
        slowest.0.as_secs_f64(),
        slowest.1.file_name().unwrap_or_default().to_string_lossy(),
        generated.len() - mock_failures,
        mocking.as_secs_f64(),
        checked.len(),
        clippy.as_secs_f64(),
        checked.join(" "),
    );
    assert!(
        failures.is_empty(),
        "{} of {} corpus descriptions fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
