//! `cargo bench -p openapi-crates-codegen`: how long `generate()` takes on the real
//! spec and how much memory it peaks at, then the same for the platform's
//! full published definition (with the lines generated per operation), each
//! checked against the targets below. A plain program rather than a timed
//! test: it runs in release mode, repeats the work, reports the median, and
//! exits non-zero when a target is missed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

// The allocator of `cargo xtask codegen`, so the figures are the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `cargo xtask codegen` should feel instant to a maintainer.
const TARGET_MEDIAN: Duration = Duration::from_millis(100);
/// Peak resident memory of the whole process.
const TARGET_PEAK_MEMORY_MIB: u64 = 64;
const RUNS: usize = 15;

/// The full published definition, relative to the workspace root: test data
/// that lives beside the project, never in it.
const FULL_DEFINITION: &str = "../shared/specs/platform-management-api.oas.json";
/// Issue 10's targets for the full definition on a 2-core machine.
const FULL_TARGET_MEDIAN: Duration = Duration::from_secs(2);
const FULL_TARGET_PEAK_MEMORY_MIB: u64 = 400;
/// The public descriptions, relative to the workspace root.
const PUBLIC_DESCRIPTIONS: &str = "../shared/specs/public";
/// Issue 19: codegen stays linear, per operation within this factor of the
/// published definition's on the largest public description.
const LINEAR_FACTOR: f64 = 1.5;
/// Each run of the full definition is a child process of its own, so its
/// peak memory is its own.
const FULL_RUNS: usize = 3;
/// Set in a child process: the spec to generate once, reporting on stdout.
const CHILD: &str = "TENANT_CODEGEN_BENCH_SPEC";

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if let Some(spec) = std::env::var_os(CHILD) {
        return child(&root, Path::new(&spec));
    }
    let mut missed = own_spec(&root);
    missed.extend(full_definition(&root));
    if !missed.is_empty() {
        eprintln!("target missed: {}", missed.join("; "));
        std::process::exit(1);
    }
}

/// Times `generate()` on the project's own spec, in this process.
fn own_spec(root: &Path) -> Vec<String> {
    let spec = Path::new(openapi_crates_codegen::SPEC_FILE);
    let mut times = Vec::with_capacity(RUNS);
    let mut bytes = 0;
    for _ in 0..RUNS {
        let started = Instant::now();
        let tree =
            openapi_crates_codegen::generate(root, spec).unwrap_or_else(|err| panic!("{err}"));
        times.push(started.elapsed());
        bytes = tree.files.iter().map(|file| file.contents.len()).sum();
    }
    times.sort();
    let median = times[RUNS / 2];
    let peak = peak_memory_mib();
    println!(
        "generate(): median {median:?} over {RUNS} runs (fastest {:?}, slowest {:?}), {bytes} bytes of output",
        times[0],
        times[RUNS - 1]
    );
    match peak {
        Some(mib) => println!("peak resident memory: {mib} MiB"),
        None => println!("peak resident memory: not available on this platform"),
    }
    let mut missed = Vec::new();
    if median > TARGET_MEDIAN {
        missed.push(format!("median {median:?} exceeds {TARGET_MEDIAN:?}"));
    }
    if peak.is_some_and(|mib| mib > TARGET_PEAK_MEMORY_MIB) {
        missed.push(format!("peak memory exceeds {TARGET_PEAK_MEMORY_MIB} MiB"));
    }
    if missed.is_empty() {
        println!("targets met: median <= {TARGET_MEDIAN:?}, peak <= {TARGET_PEAK_MEMORY_MIB} MiB");
    }
    missed
}

/// What generating one description cost, from child processes of its own.
struct Measurement {
    /// Operations (and webhooks) in the generator's model.
    operations: usize,
    /// Median wall time over the runs.
    median: Duration,
    fastest: Duration,
    slowest: Duration,
    /// Highest peak resident memory of the runs, in MiB.
    peak_mib: Option<u64>,
    /// Lines of each generated Rust file.
    lines: Vec<(PathBuf, usize)>,
}

impl Measurement {
    fn per_operation(&self, amount: f64) -> f64 {
        amount / self.operations.max(1) as f64
    }
}

/// Generates `spec` in `runs` child processes, one run each.
fn measure(spec: &Path, runs: usize) -> Measurement {
    let mut times = Vec::with_capacity(runs);
    let mut peaks = Vec::with_capacity(runs);
    let mut lines = Vec::new();
    let mut operations = 0;
    for _ in 0..runs {
        let output = Command::new(std::env::current_exe().expect("the bench's own path"))
            .env(CHILD, spec)
            .output()
            .expect("the bench runs itself");
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            panic!(
                "generating {} failed: {stdout}{}",
                spec.display(),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        lines.clear();
        for line in stdout.lines() {
            let mut words = line.split_whitespace();
            match (words.next(), words.next(), words.next()) {
                (Some("micros"), Some(micros), None) => {
                    times.push(Duration::from_micros(micros.parse().expect("a number")));
                }
                (Some("peak_kib"), Some(kib), None) => {
                    peaks.push(kib.parse::<u64>().expect("a number") / 1024);
                }
                (Some("operations"), Some(count), None) => {
                    operations = count.parse().expect("a number");
                }
                (Some("lines"), Some(path), Some(count)) => {
                    lines.push((
                        PathBuf::from(path),
                        count.parse::<usize>().expect("a number"),
                    ));
                }
                _ => {}
            }
        }
    }
    times.sort();
    Measurement {
        operations,
        median: times[times.len() / 2],
        fastest: times[0],
        slowest: times[times.len() - 1],
        peak_mib: peaks.iter().copied().max(),
        lines,
    }
}

/// Generates the full published definition in [`FULL_RUNS`] child processes
/// and reports the median time, the highest peak memory and the lines
/// generated per operation; then compares the largest public description
/// with it, per operation.
fn full_definition(root: &Path) -> Vec<String> {
    let spec = root.join(FULL_DEFINITION);
    println!();
    if !spec.is_file() {
        println!(
            "full published definition: skipped, {} is absent",
            spec.display()
        );
        return Vec::new();
    }
    let full = measure(&spec, FULL_RUNS);
    let total: usize = full.lines.iter().map(|(_, count)| count).sum();
    println!(
        "full published definition ({} operations): median {:?} over {FULL_RUNS} runs (fastest {:?}, slowest {:?})",
        full.operations, full.median, full.fastest, full.slowest
    );
    match full.peak_mib {
        Some(mib) => println!("peak resident memory: {mib} MiB (highest of the runs)"),
        None => println!("peak resident memory: not available on this platform"),
    }
    println!(
        "generated: {total} lines, {:.0} per operation",
        full.per_operation(total as f64)
    );
    for (path, count) in &full.lines {
        println!(
            "  {}: {count} lines, {:.0} per operation",
            path.display(),
            full.per_operation(*count as f64)
        );
    }
    let mut missed = Vec::new();
    if full.median > FULL_TARGET_MEDIAN {
        missed.push(format!(
            "full definition: median {:?} exceeds {FULL_TARGET_MEDIAN:?}",
            full.median
        ));
    }
    if full
        .peak_mib
        .is_some_and(|mib| mib > FULL_TARGET_PEAK_MEMORY_MIB)
    {
        missed.push(format!(
            "full definition: peak memory exceeds {FULL_TARGET_PEAK_MEMORY_MIB} MiB"
        ));
    }
    if missed.is_empty() {
        println!(
            "targets met: median <= {FULL_TARGET_MEDIAN:?}, peak <= {FULL_TARGET_PEAK_MEMORY_MIB} MiB"
        );
    }
    missed.extend(public_descriptions(root, &full));
    missed
}

/// Codegen must stay linear: on the public description with the most
/// operations, time and peak memory per operation within
/// [`LINEAR_FACTOR`] of the published definition's. Every public
/// description is generated once and listed.
fn public_descriptions(root: &Path, full: &Measurement) -> Vec<String> {
    let folder = root.join(PUBLIC_DESCRIPTIONS);
    println!();
    let specs = descriptions_under(&folder);
    if specs.is_empty() {
        println!(
            "public descriptions: skipped, none under {}",
            folder.display()
        );
        return Vec::new();
    }
    println!("public descriptions, one run each (time and peak memory per operation):");
    let mut largest: Option<(PathBuf, Measurement)> = None;
    for spec in specs {
        let measured = measure(&spec, 1);
        println!(
            "  {}: {} operations, {:?}, {} MiB; {:.2} ms and {:.2} MiB per operation",
            spec.strip_prefix(&folder).unwrap_or(&spec).display(),
            measured.operations,
            measured.median,
            measured.peak_mib.unwrap_or_default(),
            measured.per_operation(measured.median.as_secs_f64() * 1000.0),
            measured.per_operation(measured.peak_mib.unwrap_or_default() as f64),
        );
        if largest
            .as_ref()
            .is_none_or(|(_, seen)| measured.operations > seen.operations)
        {
            largest = Some((spec, measured));
        }
    }
    let Some((spec, _)) = largest else {
        return Vec::new();
    };
    // The largest again, as many runs as the published definition had.
    let largest = measure(&spec, FULL_RUNS);
    let time_ratio = largest.per_operation(largest.median.as_secs_f64())
        / full.per_operation(full.median.as_secs_f64());
    let memory_ratio = match (largest.peak_mib, full.peak_mib) {
        (Some(largest_mib), Some(full_mib)) => {
            largest.per_operation(largest_mib as f64) / full.per_operation(full_mib as f64)
        }
        _ => 0.0,
    };
    println!(
        "largest, {} ({} operations): median {:?} over {FULL_RUNS} runs; per operation {time_ratio:.2}x the \
         published definition's time and {memory_ratio:.2}x its peak memory (target {LINEAR_FACTOR}x)",
        spec.display(),
        largest.operations,
        largest.median,
    );
    let mut missed = Vec::new();
    if time_ratio > LINEAR_FACTOR {
        missed.push(format!(
            "{}: time per operation {time_ratio:.2}x the published definition's",
            spec.display()
        ));
    }
    if memory_ratio > LINEAR_FACTOR {
        missed.push(format!(
            "{}: peak memory per operation {memory_ratio:.2}x the published definition's",
            spec.display()
        ));
    }
    missed
}

/// The descriptions under `folder`: files whose top level has an `openapi`
/// field (the files they refer to have none), sorted.
fn descriptions_under(folder: &Path) -> Vec<PathBuf> {
    fn walk(folder: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|extension| {
                ["json", "yaml", "yml"].contains(&extension.to_str().unwrap_or_default())
            }) && std::fs::read_to_string(&path).is_ok_and(|text| {
                text.lines().take(200).any(|line| {
                    line.starts_with("openapi:") || line.trim_start().starts_with("\"openapi\"")
                })
            }) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(folder, &mut out);
    out.sort();
    out
}

/// In a child process: generates `spec` once and reports the time, the
/// process's peak memory and the lines of each generated Rust file.
fn child(root: &Path, spec: &Path) {
    let started = Instant::now();
    let tree = openapi_crates_codegen::generate(root, spec).unwrap_or_else(|err| panic!("{err}"));
    println!("micros {}", started.elapsed().as_micros());
    // Counted after the timing, from the generator's own model.
    let mut loaded =
        openapi_crates_codegen::load::load_spec(root, spec).unwrap_or_else(|err| panic!("{err}"));
    openapi_crates_codegen::prepare_document(&mut loaded);
    let model =
        openapi_crates_codegen::model::build_model(&loaded).unwrap_or_else(|err| panic!("{err}"));
    println!(
        "operations {}",
        model.operations.len() + model.webhooks.len()
    );
    if let Some(mib) = peak_memory_kib() {
        println!("peak_kib {mib}");
    }
    for file in &tree.files {
        if file
            .path
            .extension()
            .is_some_and(|extension| extension == "rs")
        {
            println!(
                "lines {} {}",
                file.path.display(),
                file.contents.lines().count()
            );
        }
    }
}

/// `VmHWM` from `/proc/self/status` (Linux).
fn peak_memory_mib() -> Option<u64> {
    peak_memory_kib().map(|kib| kib / 1024)
}

fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
