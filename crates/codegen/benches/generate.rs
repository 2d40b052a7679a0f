//! `cargo bench -p tenant-codegen`: how long `generate()` takes on the real
//! spec and how much memory it peaks at, checked against the targets below.
//! A plain program rather than a timed test: it runs in release mode, repeats
//! the work, reports the median, and exits non-zero when a target is missed.

use std::path::Path;
use std::time::{Duration, Instant};

/// `cargo xtask codegen` should feel instant to a maintainer.
const TARGET_MEDIAN: Duration = Duration::from_millis(100);
/// Peak resident memory of the whole process.
const TARGET_PEAK_MEMORY_MIB: u64 = 64;
const RUNS: usize = 15;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let spec = Path::new(tenant_codegen::SPEC_FILE);
    let mut times = Vec::with_capacity(RUNS);
    let mut bytes = 0;
    for _ in 0..RUNS {
        let started = Instant::now();
        let tree = tenant_codegen::generate(&root, spec).unwrap_or_else(|err| panic!("{err}"));
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
    if !missed.is_empty() {
        eprintln!("target missed: {}", missed.join("; "));
        std::process::exit(1);
    }
    println!("targets met: median <= {TARGET_MEDIAN:?}, peak <= {TARGET_PEAK_MEMORY_MIB} MiB");
}

/// `VmHWM` from `/proc/self/status` (Linux).
fn peak_memory_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}
