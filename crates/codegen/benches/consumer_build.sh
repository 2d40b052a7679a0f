#!/usr/bin/env bash
# What a team that depends on the generated crates pays to build them: the
# platform's whole definition is generated into a scratch workspace beside
# two consumer crates, one using every tag (the crates' default features),
# one using the `users` tag alone (`default-features = false`,
# `features = ["users"]`). For each consumer: wall time, CPU time and peak
# memory of a cold `cargo check` and of a cold `cargo build` (debug) of the
# generated crates, the dependencies already built (they are built first,
# untimed, through a consumer enabling no tag); and the lines of each
# generated crate. Targets (issue 20): the `users` consumer builds in under
# 20% of the every-tag consumer's time; the largest rustc process peaks at
# 4 GiB at most.
#
#   bash crates/codegen/benches/consumer_build.sh [SPEC] [TAG]
#   BASELINE=5f5ad95 bash crates/codegen/benches/consumer_build.sh
#
# SPEC defaults to ../shared/specs/platform-management-api.oas.json, TAG to
# `users`; `STEPS=check` measures `cargo check` only. BASELINE, a git
# revision, also builds the crates that revision generates (with its own
# runtime crate), cold in the same way, and prints this revision's
# every-tag build time against it (target: at most half). Exits non-zero
# when a step fails or a target is missed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

spec=$(realpath "${1:-../shared/specs/platform-management-api.oas.json}")
tag=${2:-users}
target_ratio=0.20
target_mib=4096

work=target/bench-consumer
rm -rf "$work"
mkdir -p "$work"
cargo build --release --quiet -p xtask
target/release/xtask codegen --spec "$spec" --crate-prefix api --out "$work/workspace" >/dev/null

python3 crates/codegen/benches/scratch_workspace.py "$work/workspace" --consumers "$tag"
cp Cargo.lock "$work/workspace/Cargo.lock"
manifest="$work/workspace/Cargo.toml"
cargo fetch --quiet --manifest-path "$manifest"
# Cargo's defaults for a debug build (incremental included), as a team's
# workspace builds its path dependencies.
export CARGO_TARGET_DIR="$work/target"

echo "== $spec: consumers of every tag and of \`$tag\`"
wc -l "$work"/workspace/generated/*/src/lib.rs | sed 's/^/  /'
# Dependencies (and the generated crates with no tag) first, untimed.
cargo check --quiet --offline --manifest-path "$manifest" -p no-tag
case "${STEPS:-check build}" in *build*) cargo build --quiet --offline --manifest-path "$manifest" -p no-tag ;; esac

failed=0
declare -A build_wall
for step in ${STEPS:-check build}; do
    for consumer in every-tag one-tag; do
        # Cold for the generated crates only: the dependencies stay built.
        cargo clean --quiet --offline --manifest-path "$manifest" -p api-types -p api-client -p api-server
        /usr/bin/time -f '%e %U %S %M' -o "$work/$step-$consumer.time" \
            cargo "$step" --quiet --offline --manifest-path "$manifest" -p "$consumer"
        read -r wall user sys peak_kib <"$work/$step-$consumer.time"
        peak_mib=$((peak_kib / 1024))
        echo "  cargo $step, $consumer: wall ${wall} s, CPU $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s, peak ${peak_mib} MiB"
        if [ "$peak_mib" -gt "$target_mib" ]; then
            echo "  MISSED: peak ${peak_mib} MiB exceeds ${target_mib} MiB"
            failed=1
        fi
        [ "$step" = build ] && build_wall[$consumer]=$wall
    done
done
if [ -z "${build_wall[one-tag]:-}" ]; then
    exit "$failed"
fi
if [ -n "${BASELINE:-}" ]; then
    base_src="$work/baseline-src"
    git worktree add --quiet --detach "$base_src" "$BASELINE"
    trap 'git worktree remove --force "$base_src"' EXIT
    # Kept between runs: the baseline's generator does not change.
    base_xtask=target/bench-consumer-baseline-xtask/$BASELINE
    CARGO_TARGET_DIR="$base_xtask" cargo build --release --quiet \
        --manifest-path "$base_src/Cargo.toml" -p xtask
    base_ws="$work/baseline"
    "$base_xtask/release/xtask" codegen --spec "$spec" --crate-prefix api --out "$base_ws" >/dev/null
    python3 crates/codegen/benches/scratch_workspace.py "$base_ws" --source "$base_src"
    cp "$base_src/Cargo.lock" "$base_ws/Cargo.lock"
    base_manifest="$base_ws/Cargo.toml"
    cargo fetch --quiet --manifest-path "$base_manifest"
    # Its dependencies first, untimed: those the generated crates name.
    deps=()
    while read -r name; do deps+=(-p "$name"); done <"$base_ws/dependencies.txt"
    cargo build --quiet --offline --manifest-path "$base_manifest" "${deps[@]}"
    /usr/bin/time -f '%e %U %S %M' -o "$work/build-baseline.time" \
        cargo build --quiet --offline --manifest-path "$base_manifest" --workspace
    read -r wall user sys peak_kib <"$work/build-baseline.time"
    echo "  cargo build, $BASELINE's crates: wall ${wall} s, CPU $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s, peak $((peak_kib / 1024)) MiB"
    wc -l "$base_ws"/generated/*/src/lib.rs | sed 's/^/    /'
    half=$(awk -v a="${build_wall[every-tag]}" -v b="$wall" 'BEGIN { printf "%.2f", a / b }')
    echo "  build of every tag / $BASELINE's: ${half} (target at most 0.50)"
    if awk -v r="$half" 'BEGIN { exit !(r > 0.5) }'; then
        echo "  MISSED: ratio ${half}"
        failed=1
    fi
fi
ratio=$(awk -v a="${build_wall[one-tag]}" -v b="${build_wall[every-tag]}" 'BEGIN { printf "%.2f", a / b }')
echo "  build of \`$tag\` alone / every tag: ${ratio} (target below ${target_ratio})"
if awk -v r="$ratio" -v t="$target_ratio" 'BEGIN { exit !(r >= t) }'; then
    echo "  MISSED: ratio ${ratio}"
    failed=1
fi
echo "  cores $(nproc), load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$work/target"
exit "$failed"
