//! `cargo bench -p tenant-codegen`: how long `generate()` takes on the real
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
    let spec = Path::new(tenant_codegen::SPEC_FILE);
    let mut times = Vec::with_capacity(RUNS);
    let mut bytes = 0;
    for _ in 0..RUNS {
        let started = Instant::now();
        let tree = tenant_codegen::generate(root, spec).unwrap_or_else(|err| panic!("{err}"));
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

/// Generates the full published definition in [`FULL_RUNS`] child processes
/// and reports the median time, the highest peak memory and the lines
/// generated per operation.
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
    let operations = count_operations(&spec);
    let mut times = Vec::with_capacity(FULL_RUNS);
    let mut peaks = Vec::with_capacity(FULL_RUNS);
    let mut lines = Vec::new();
    for _ in 0..FULL_RUNS {
        let output = Command::new(std::env::current_exe().expect("the bench's own path"))
            .env(CHILD, &spec)
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
    let median = times[times.len() / 2];
    let peak = peaks.iter().copied().max();
    let total: usize = lines.iter().map(|(_, count)| count).sum();
    println!(
        "full published definition ({operations} operations): median {median:?} over {FULL_RUNS} runs (fastest {:?}, slowest {:?})",
        times[0],
        times[times.len() - 1]
    );
    match peak {
        Some(mib) => println!("peak resident memory: {mib} MiB (highest of the runs)"),
        None => println!("peak resident memory: not available on this platform"),
    }
    let per_operation = |count: usize| count as f64 / operations.max(1) as f64;
    println!(
        "generated: {total} lines, {:.0} per operation",
        per_operation(total)
    );
    for (path, count) in &lines {
        println!(
            "  {}: {count} lines, {:.0} per operation",
            path.display(),
            per_operation(*count)
        );
    }
    let mut missed = Vec::new();
    if median > FULL_TARGET_MEDIAN {
        missed.push(format!(
            "full definition: median {median:?} exceeds {FULL_TARGET_MEDIAN:?}"
        ));
    }
    if peak.is_some_and(|mib| mib > FULL_TARGET_PEAK_MEMORY_MIB) {
        missed.push(format!(
            "full definition: peak memory exceeds {FULL_TARGET_PEAK_MEMORY_MIB} MiB"
        ));
    }
    if missed.is_empty() {
        println!(
            "targets met: median <= {FULL_TARGET_MEDIAN:?}, peak <= {FULL_TARGET_PEAK_MEMORY_MIB} MiB"
        );
    }
    missed
}

/// In a child process: generates `spec` once and reports the time, the
/// process's peak memory and the lines of each generated Rust file.
fn child(root: &Path, spec: &Path) {
    let started = Instant::now();
    let tree = tenant_codegen::generate(root, spec).unwrap_or_else(|err| panic!("{err}"));
    println!("micros {}", started.elapsed().as_micros());
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

/// The operations of an OpenAPI document: the methods of its path items.
fn count_operations(spec: &Path) -> usize {
    const METHODS: &[&str] = &[
        "get", "put", "post", "delete", "options", "head", "patch", "trace",
    ];
    let text = std::fs::read_to_string(spec).expect("the definition reads");
    let document: serde_json::Value = serde_json::from_str(&text).expect("the definition is JSON");
    document["paths"]
        .as_object()
        .map(|paths| {
            paths
                .values()
                .filter_map(serde_json::Value::as_object)
                .map(|item| {
                    item.keys()
                        .filter(|key| METHODS.contains(&key.as_str()))
                        .count()
                })
                .sum()
        })
        .unwrap_or(0)
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
