//! Whatever a description holds, the command answers with exit status 0
//! (generated, perhaps with warnings) or 1 (a located message): never a
//! panic, an abort or an overflowed stack. Real descriptions (the
//! workspace's fixtures and spec, the OpenAPI Initiative's examples) are
//! mutated at random, structure first: keys deleted, values swapped for
//! others of any type, subtrees moved, nodes made to refer to themselves
//! or their ancestors, path templates broken. Each mutant runs through the
//! installed binary, so that a signal shows as one.
//!
//! `MUTANTS` sets how many (two thousand per CI run); the seed is
//! the commit's (`git rev-parse HEAD`) unless `MUTATION_SEED` names one, so
//! every run tries others. A failure prints the mutant's seed and writes it
//! under `target/mutants/` to replay.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use serde_json::{Value, json};

const MUTANTS: usize = 2000;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the crate is two levels below the workspace")
        .to_path_buf()
}

/// The descriptions mutated: JSON or YAML files of the workspace's
/// fixtures (flawed and constructs), its spec and the public examples.
fn originals(root: &Path) -> Vec<(PathBuf, Value)> {
    let mut files = vec![root.join("spec/tenant-management.yaml")];
    for dir in [
        "tests/fixtures/constructs",
        "tests/fixtures/flawed",
        "../shared/specs/public/oai-examples",
    ] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .map(|entry| entry.unwrap().path())
            .filter(|path| {
                path.extension()
                    .is_some_and(|extension| extension == "yaml" || extension == "json")
            })
            .collect();
        found.sort();
        files.extend(found);
    }
    files
        .into_iter()
        .filter_map(|file| {
            let loaded = openapi_crates_codegen::load::load_spec(root, &file).ok()?;
            Some((file, loaded.document))
        })
        .collect()
}

/// A small generator of its own: the mutants of a seed are the same on
/// every machine.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound.max(1) as u64) as usize
    }
}

/// Every node's pointer, document order.
fn pointers(value: &Value, at: &mut String, out: &mut Vec<String>) {
    out.push(at.clone());
    let length = at.len();
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                at.push('/');
                at.push_str(&key.replace('~', "~0").replace('/', "~1"));
                pointers(child, at, out);
                at.truncate(length);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                at.push('/');
                at.push_str(&index.to_string());
                pointers(child, at, out);
                at.truncate(length);
            }
        }
        _ => {}
    }
}

/// A value of any type, some of them the awkward kind.
fn any_value(random: &mut Random, pointer: &str) -> Value {
    match random.below(14) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(0),
        3 => json!(-1),
        4 => json!(1e308),
        5 => json!(""),
        6 => json!("x{"),
        7 => json!([]),
        8 => json!({}),
        9 => json!({"$ref": format!("#{pointer}")}),
        10 => json!({"$ref": "#/components/schemas/Nowhere"}),
        11 => json!({"type": "object", "allOf": [{"$ref": format!("#{pointer}")}]}),
        12 => json!({"$ref": "https://elsewhere.example.com/x.yaml#/A"}),
        _ => json!([[[[[[{"a": [{"b": null}]}]]]]]]),
    }
}

fn parent_and_key(pointer: &str) -> Option<(&str, String)> {
    let (parent, key) = pointer.rsplit_once('/')?;
    Some((parent, key.replace("~1", "/").replace("~0", "~")))
}

fn remove(document: &mut Value, pointer: &str) {
    let Some((parent, key)) = parent_and_key(pointer) else {
        return;
    };
    match document.pointer_mut(parent) {
        Some(Value::Object(object)) => {
            object.shift_remove(&key);
        }
        Some(Value::Array(items)) => {
            if let Ok(index) = key.parse::<usize>()
                && index < items.len()
            {
                items.remove(index);
            }
        }
        _ => {}
    }
}

/// One to four structural mutations of `document`.
fn mutate(document: &mut Value, random: &mut Random) {
    for _ in 0..1 + random.below(4) {
        let mut all = Vec::new();
        pointers(document, &mut String::new(), &mut all);
        let target = all[random.below(all.len())].clone();
        match random.below(6) {
            // Delete a key (the document itself is never deleted).
            0 if !target.is_empty() => remove(document, &target),
            // Swap the value for another of any type.
            1 if !target.is_empty() => {
                let value = any_value(random, &target);
                if let Some(node) = document.pointer_mut(&target) {
                    *node = value;
                }
            }
            // Refer to itself or an ancestor.
            2 => {
                let ancestor = {
                    let cut = random.below(target.matches('/').count() + 1);
                    target
                        .split('/')
                        .take(cut + 1)
                        .collect::<Vec<_>>()
                        .join("/")
                };
                if let Some(node) = document.pointer_mut(&target) {
                    *node = json!({"$ref": format!("#{ancestor}")});
                }
            }
            // Move another subtree here.
            3 => {
                let source = all[random.below(all.len())].clone();
                if let Some(copy) = document.pointer(&source).cloned()
                    && !target.is_empty()
                    && let Some(node) = document.pointer_mut(&target)
                {
                    *node = copy;
                }
            }
            // Break a key: a path template left open, a name emptied.
            4 => {
                if let Some((parent, key)) = parent_and_key(&target)
                    && let Some(Value::Object(object)) = document.pointer_mut(parent)
                    && let Some(value) = object.shift_remove(&key)
                {
                    let broken = match random.below(3) {
                        0 => key.replacen('}', "", 1),
                        1 => String::new(),
                        _ => format!("{key}/{{{key}}}"),
                    };
                    object.insert(broken, value);
                }
            }
            // Add a member to an object.
            _ => {
                let value = any_value(random, &target);
                if let Some(Value::Object(object)) = document.pointer_mut(&target) {
                    let keys = [
                        "$ref",
                        "allOf",
                        "oneOf",
                        "type",
                        "required",
                        "items",
                        "properties",
                        "parameters",
                        "responses",
                        "content",
                        "schema",
                        "in",
                        "name",
                    ];
                    object.insert(keys[random.below(keys.len())].to_string(), value);
                }
            }
        }
    }
}

/// How long one mutant may take: the largest description generates in a
/// fraction of it, so a mutant still running then never ends.
const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs `command` with its output captured, killed past [`TIMEOUT`]: its
/// exit status (`None` when it had to be killed) and what it printed on
/// standard error.
fn run_bounded(command: &mut Command) -> (Option<std::process::ExitStatus>, String) {
    let started = std::time::Instant::now();
    let mut child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Standard error is read on its own thread, so a full pipe never
    // stops the command.
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut pipe, &mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    (status, reader.join().unwrap_or_default())
}

fn seed(root: &Path) -> u64 {
    if let Some(seed) = std::env::var("MUTATION_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
    {
        return seed;
    }
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(root)
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string())
        .unwrap_or_default();
    u64::from_str_radix(head.get(..16).unwrap_or("1"), 16).unwrap_or(1)
}

#[test]
fn no_mutant_of_a_real_description_crashes_the_command() {
    let root = workspace_root();
    let originals = originals(&root);
    assert!(
        originals.len() >= 20,
        "{} descriptions to mutate",
        originals.len()
    );
    let count: usize = std::env::var("MUTANTS")
        .ok()
        .and_then(|count| count.parse().ok())
        .unwrap_or(MUTANTS);
    let seed = seed(&root);
    let work = tempfile::tempdir().unwrap();
    let binary = env!("CARGO_BIN_EXE_openapi-crates");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let crashes: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let counts = Mutex::new([0usize; 2]);
    std::thread::scope(|scope| {
        for worker in 0..2 {
            let (work, originals, next, crashes, counts) =
                (work.path(), &originals, &next, &crashes, &counts);
            scope.spawn(move || {
                let spec = work.join(format!("mutant-{worker}.json"));
                let out = work.join(format!("out-{worker}"));
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if index >= count {
                        break;
                    }
                    let mutant_seed = seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    let mut random = Random(mutant_seed | 1);
                    let (file, original) = &originals[random.below(originals.len())];
                    let mut document = original.clone();
                    mutate(&mut document, &mut random);
                    std::fs::write(&spec, serde_json::to_vec(&document).unwrap()).unwrap();
                    let (status, stderr) = run_bounded(
                        Command::new(binary)
                            .args(["codegen", "--spec"])
                            .arg(&spec)
                            .arg("--out")
                            .arg(&out),
                    );
                    let code = status.and_then(|status| status.code());
                    let located = stderr
                        .lines()
                        .any(|line| line.starts_with(&spec.display().to_string()));
                    let fine = match code {
                        Some(0) => true,
                        Some(1) => located,
                        _ => false,
                    };
                    if fine {
                        counts.lock().unwrap()[usize::from(code == Some(1))] += 1;
                        continue;
                    }
                    let kept = workspace_root().join(format!("target/mutants/{mutant_seed}.json"));
                    std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
                    std::fs::copy(&spec, &kept).unwrap();
                    let tail: String = stderr.lines().take(5).collect::<Vec<_>>().join("\n");
                    let status = match status {
                        Some(status) => format!("{status}"),
                        None => format!("still running after {} s", TIMEOUT.as_secs()),
                    };
                    crashes.lock().unwrap().push(format!(
                        "{} mutated (seed {mutant_seed}, kept at {}): {status}\n{tail}",
                        file.display(),
                        kept.display(),
                    ));
                }
            });
        }
    });
    let [generated, refused] = *counts.lock().unwrap();
    eprintln!(
        "mutants of seed {seed:016x}: {count} run, {generated} generated, {refused} refused \
         with a located message"
    );
    let crashes = crashes.into_inner().unwrap();
    assert!(
        crashes.is_empty(),
        "{} of {count} mutants crashed the command or said nothing located:\n{}",
        crashes.len(),
        crashes.join("\n\n")
    );
}
