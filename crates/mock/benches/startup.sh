#!/usr/bin/env bash
# Start-up time and memory of the mock (`cargo xtask mock`) of a
# description, by default the platform's whole definition (452 operations):
# the time from launching the release binary until the port answers, the
# start-up time the mock prints itself (reading the spec, building the
# model, compiling the response schemas' checks), and the peak resident
# memory after a few requests. Checked against the targets below.
#
#   bash crates/mock/benches/startup.sh [SPEC] [RUNS]
#
# SPEC defaults to ../shared/specs/platform-management-api.oas.json, RUNS
# to 3. Exits non-zero when the mock fails to start or a target is missed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

target_ms=10000   # a team's CI waits seconds, not minutes
target_mib=1024   # fits beside their tests on a small runner

spec=${1:-../shared/specs/platform-management-api.oas.json}
runs=${2:-3}
target_dir=${CARGO_TARGET_DIR:-target}
cargo build --release --quiet -p xtask
bin="$target_dir/release/xtask"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

status=0
for run in $(seq 1 "$runs"); do
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    launched=$(date +%s%N)
    "$bin" mock --spec "$spec" --listen "127.0.0.1:$port" >"$work/out" 2>"$work/err" &
    pid=$!
    until curl -s -o /dev/null "http://127.0.0.1:$port/"; do
        if ! kill -0 "$pid" 2>/dev/null; then
            cat "$work/err"
            exit 1
        fi
        sleep 0.02
    done
    ready_ms=$((($(date +%s%N) - launched) / 1000000))
    base=$(sed -n 's/.*: \(http:.*\)$/\1/p' "$work/out")
    # A few operations, so the memory includes what serving them builds.
    for path in /clients /users /roles /actions/actions /clients/abc; do
        curl -s -o /dev/null -H 'Authorization: Bearer bench' "$base$path"
    done
    peak_kib=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    peak_mib=$((peak_kib / 1024))
    printf 'run %d: ready in %d ms, peak RSS %d MiB; %s\n' "$run" "$ready_ms" "$peak_mib" "$(cat "$work/out")"
    if [ "$ready_ms" -gt "$target_ms" ] || [ "$peak_mib" -gt "$target_mib" ]; then
        echo "  target missed: ${target_ms} ms, ${target_mib} MiB"
        status=1
    fi
done
exit "$status"
