#!/usr/bin/env bash
# What a team pays for the generated crates of a description: the time and
# peak memory of `cargo xtask codegen` on it, then of a cold
# `cargo clippy -D warnings` of its three crates (which runs `cargo check`
# first; the dependencies included, as on a fresh machine). Wall time, CPU
# time and peak memory of each step, and the lines of each crate, checked
# against the targets below. Codegen alone, repeated, is measured by
# `cargo bench -p openapi-crates-codegen`.
#
#   bash crates/codegen/benches/generated_check.sh [SPEC...]
#   bash crates/codegen/benches/generated_check.sh --public
#
# SPEC defaults to ../shared/specs/platform-management-api.oas.json;
# `--public` takes every description under ../shared/specs/public (a file
# with a top-level `openapi` field; the files they refer to are not).
# Exits non-zero when a description fails or a target is missed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

target_seconds=240   # 4 minutes on a 2-core machine, for the clippy step
target_mib=6144      # 6 GiB peak of the largest process

specs=("$@")
if [ "${#specs[@]}" -eq 0 ]; then
    specs=(../shared/specs/platform-management-api.oas.json)
elif [ "${specs[0]}" = "--public" ]; then
    mapfile -t specs < <(python3 - ../shared/specs/public <<'PY'
import os, re, sys

for folder, _, files in sorted(os.walk(sys.argv[1])):
    for name in sorted(files):
        if not name.endswith((".json", ".yaml", ".yml")):
            continue
        path = os.path.join(folder, name)
        head = open(path, encoding="utf-8", errors="replace").read(4096)
        if re.search(r'^openapi:|^\s*"openapi"\s*:', head, re.M):
            print(path)
PY
)
fi

cargo build --release --quiet -p xtask
failed=0
for spec in "${specs[@]}"; do
    name=$(basename "$spec")
    name=${name%.*}
    work=target/bench-check/$name
    rm -rf "$work"
    mkdir -p "$work"
    echo "== $spec"
    if ! /usr/bin/time -f '%e %U %S %M' -o "$work/codegen.time" \
        target/release/xtask codegen --spec "$spec" --out "$work/workspace/generated" --layout crates \
            --runtime-path "$PWD/crates/runtime" >/dev/null 2>"$work/codegen.err"; then
        sed 's/^/  /' "$work/codegen.err" | head -20
        echo "  FAILED: codegen"
        failed=1
        continue
    fi
    read -r wall user sys peak_kib <"$work/codegen.time"
    echo "  codegen: wall ${wall} s, CPU $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s, peak $((peak_kib / 1024)) MiB"

    # A workspace around the three crates, with the real workspace's
    # versions of the runtime crates they name (path dependencies made
    # absolute).
    python3 crates/codegen/benches/scratch_workspace.py "$work/workspace"
    cp Cargo.lock "$work/workspace/Cargo.lock"
    # Download first, so the network is not timed.
    cargo fetch --quiet --manifest-path "$work/workspace/Cargo.toml"

    if ! CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0 /usr/bin/time -f '%e %U %S %M' -o "$work/clippy.time" \
        cargo clippy --quiet --offline --workspace --manifest-path "$work/workspace/Cargo.toml" \
        -- -D warnings 2>"$work/clippy.err"; then
        head -40 "$work/clippy.err" | sed 's/^/  /'
        echo "  FAILED: clippy"
        failed=1
        continue
    fi
    read -r wall user sys peak_kib <"$work/clippy.time"
    peak_mib=$((peak_kib / 1024))
    echo "  clippy, cold: wall ${wall} s (target ${target_seconds} s), CPU $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s, peak ${peak_mib} MiB (target ${target_mib} MiB)"
    echo "  cores $(nproc), load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
    wc -l "$work"/workspace/generated/*/src/lib.rs | sed 's/^/  /'
    if awk -v w="$wall" -v t="$target_seconds" 'BEGIN { exit !(w > t) }'; then
        echo "  MISSED: wall time ${wall} s exceeds ${target_seconds} s"
        failed=1
    fi
    if [ "$peak_mib" -gt "$target_mib" ]; then
        echo "  MISSED: peak memory ${peak_mib} MiB exceeds ${target_mib} MiB"
        failed=1
    fi
    # The scratch target of a large description is gigabytes.
    rm -rf "$work/target"
done
exit "$failed"
