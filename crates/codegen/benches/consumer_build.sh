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
# every-tag build time against it (target: at most half). The builds are
# timed in ROUNDS (default 3) interleaved rounds and judged on the medians.
# Exits non-zero when a step fails or a target is missed.
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
target/release/xtask codegen --spec "$spec" --crate-prefix api --out "$work/workspace/generated" \
    --layout crates --runtime-path "$PWD/crates/runtime" >/dev/null

python3 crates/codegen/benches/scratch_workspace.py "$work/workspace" --consumers "$tag"
cp Cargo.lock "$work/workspace/Cargo.lock"
manifest="$work/workspace/Cargo.toml"
cargo fetch --quiet --manifest-path "$manifest"
# Cargo's defaults for a debug build (incremental included), as a team's
# workspace builds its path dependencies.
export CARGO_TARGET_DIR="$work/target"

echo "== $spec: consumers of every tag and of \`$tag\`"
wc -l "$work"/workspace/generated/*/src/lib.rs | sed 's/^/  /'
# Dependencies (and the generated crates with no tag) first, untimed: every
# consumer compiles the same ones (`scratch_workspace.py` keeps the client's
# TLS in all three), so the timed builds compile the generated crates only.
cargo check --quiet --offline --manifest-path "$manifest" -p no-tag
case "${STEPS:-check build}" in *build*) cargo build --quiet --offline --manifest-path "$manifest" -p no-tag ;; esac

failed=0
# Cold for the generated crates only: the dependencies stay built.
clean_generated() {
    cargo clean --quiet --offline --manifest-path "$1" -p api-types -p api-client -p api-server
}
# timed LABEL STEP MANIFEST ARGS..: prints the figures, leaves the wall time
# in $wall and the largest process's peak in $peak_mib.
timed() {
    local label=$1 step=$2 manifest=$3
    shift 3
    clean_generated "$manifest"
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" \
        cargo "$step" --quiet --offline --manifest-path "$manifest" "$@"
    local user sys peak_kib
    read -r wall user sys peak_kib <"$work/time"
    peak_mib=$((peak_kib / 1024))
    echo "  cargo $step, $label: wall ${wall} s, CPU $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s, peak ${peak_mib} MiB"
}
# The memory target is this revision's (the baseline took 5.4 GiB).
check_peak() {
    if [ "$peak_mib" -gt "$target_mib" ]; then
        echo "  MISSED: peak ${peak_mib} MiB exceeds ${target_mib} MiB"
        failed=1
    fi
}
median() { tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

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
    echo "  $BASELINE's crates:"
    wc -l "$base_ws"/generated/*/src/lib.rs | sed 's/^/    /'
fi

case "${STEPS:-check build}" in *check*)
    timed every-tag check "$manifest" -p every-tag
    check_peak
    timed one-tag check "$manifest" -p one-tag
    check_peak
    ;;
esac
case "${STEPS:-check build}" in *build*) ;; *) exit "$failed" ;; esac
# Wall time on two cores moves by a tenth between runs of the same code, so
# the build is timed in ROUNDS rounds, each of this revision's crates for
# every tag, for one tag and (with BASELINE) the baseline's, and the
# verdicts are on the medians.
rounds=${ROUNDS:-3}
every=() one=() base=() ratios=()
for round in $(seq "$rounds"); do
    echo "  round $round of $rounds"
    timed every-tag build "$manifest" -p every-tag
    check_peak
    every+=("$wall")
    timed one-tag build "$manifest" -p one-tag
    check_peak
    one+=("$wall")
    if [ -n "${BASELINE:-}" ]; then
        timed "$BASELINE's crates" build "$base_manifest" --workspace
        base+=("$wall")
        ratios+=("$(awk -v a="${every[-1]}" -v b="$wall" 'BEGIN { printf "%.2f", a / b }')")
    fi
done
every_median=$(echo "${every[*]}" | median)
one_median=$(echo "${one[*]}" | median)
echo "  cargo build, medians: every tag ${every_median} s, \`$tag\` alone ${one_median} s"
if [ -n "${BASELINE:-}" ]; then
    base_median=$(echo "${base[*]}" | median)
    ratio=$(echo "${ratios[*]}" | median)
    echo "  build of every tag / $BASELINE's: ${ratios[*]} by round, median ${ratio} (target at most 0.50; $BASELINE's median ${base_median} s)"
    if awk -v r="$ratio" 'BEGIN { exit !(r > 0.5) }'; then
        echo "  MISSED: ratio ${ratio}"
        failed=1
    fi
fi
ratio=$(awk -v a="$one_median" -v b="$every_median" 'BEGIN { printf "%.2f", a / b }')
echo "  build of \`$tag\` alone / every tag: ${ratio} (target below ${target_ratio})"
if awk -v r="$ratio" -v t="$target_ratio" 'BEGIN { exit !(r >= t) }'; then
    echo "  MISSED: ratio ${ratio}"
    failed=1
fi
echo "  cores $(nproc), load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$work/target"
exit "$failed"
