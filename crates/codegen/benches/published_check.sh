#!/usr/bin/env bash
# What a team pays to compile the generated crates of the platform's whole
# published Management API: a cold `cargo check` of its three crates (the
# dependencies included, as on a fresh machine), with wall time, CPU time
# and peak memory, checked against the targets below. Codegen itself is
# measured by `cargo bench -p tenant-codegen`.
#
#   bash crates/codegen/benches/published_check.sh [SPEC]
#
# SPEC defaults to ../shared/specs/platform-management-api.oas.json. Exits
# non-zero when a target is missed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

target_seconds=240   # 4 minutes on a 2-core machine
target_mib=6144      # 6 GiB peak

spec=${1:-../shared/specs/platform-management-api.oas.json}
work=target/bench-published
rm -rf "$work"
mkdir -p "$work"

cargo build --release --quiet -p xtask
target/release/xtask codegen --spec "$spec" --out "$work/workspace" >/dev/null

# A workspace around the three crates, with the real workspace's versions of
# the runtime crates they name (path dependencies made absolute). The crates
# are renamed (`published-tenant-api-types`, ...): the real lock file, which
# pins those versions, already holds packages named as the project's own.
python3 - "$work/workspace" <<'PY'
import json, os, sys, tomllib

out = sys.argv[1]
root = tomllib.load(open("Cargo.toml", "rb"))["workspace"]["dependencies"]
generated = os.path.join(out, "generated")
crates = [name for name in os.listdir(generated) if os.path.isfile(os.path.join(generated, name, "Cargo.toml"))]
for name in crates:
    for relative in ("Cargo.toml", "src/lib.rs"):
        path = os.path.join(generated, name, relative)
        text = open(path).read()
        for crate in crates:
            text = text.replace(crate, "published-" + crate)
            text = text.replace(crate.replace("-", "_"), "published_" + crate.replace("-", "_"))
        open(path, "w").write(text)
members = sorted(
    os.path.join("generated", name)
    for name in os.listdir(os.path.join(out, "generated"))
    if os.path.isfile(os.path.join(out, "generated", name, "Cargo.toml"))
)
names = {}
for member in members:
    manifest = tomllib.load(open(os.path.join(out, member, "Cargo.toml"), "rb"))
    for name in manifest.get("dependencies", {}):
        names[name] = member


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value)


lines = [
    "[workspace]",
    'resolver = "3"',
    f"members = {toml_value(members)}",
    "",
    "[workspace.package]",
    'edition = "2024"',
    'rust-version = "1.88"',
    'license = "Apache-2.0"',
    "publish = false",
    "",
    "[workspace.dependencies]",
]
for name in sorted(names):
    if name in root:
        spec = root[name]
        if isinstance(spec, dict) and "path" in spec:
            spec = dict(spec, path=os.path.abspath(spec["path"]))
    else:
        # A generated crate, by its path inside this workspace.
        spec = {"path": os.path.join("generated", name.removeprefix("published-"))}
    lines.append(f"{name} = {toml_value(spec)}")
open(os.path.join(out, "Cargo.toml"), "w").write("\n".join(lines) + "\n")
PY
cp Cargo.lock "$work/workspace/Cargo.lock"
# Download first, so the network is not timed.
cargo fetch --quiet --manifest-path "$work/workspace/Cargo.toml"

CARGO_TARGET_DIR="$work/target" /usr/bin/time -f '%e %U %S %M' -o "$work/check.time" \
    cargo check --quiet --offline --workspace --manifest-path "$work/workspace/Cargo.toml"
read -r wall user sys peak_kib <"$work/check.time"
peak_mib=$((peak_kib / 1024))
load=$(cut -d' ' -f1-3 /proc/loadavg)

echo "cargo check, cold, of the published definition's generated crates:"
cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
echo "  wall ${wall} s (target ${target_seconds} s), CPU ${cpu} s, peak ${peak_mib} MiB of the largest process (target ${target_mib} MiB)"
echo "  cores $(nproc), load average after the run: ${load}"
wc -l "$work"/workspace/generated/*/src/lib.rs | sed 's/^/  /'
missed=0
if awk -v w="$wall" -v t="$target_seconds" 'BEGIN { exit !(w > t) }'; then
    echo "MISSED: wall time ${wall} s exceeds ${target_seconds} s"
    missed=1
fi
if [ "$peak_mib" -gt "$target_mib" ]; then
    echo "MISSED: peak memory ${peak_mib} MiB exceeds ${target_mib} MiB"
    missed=1
fi
exit "$missed"
