#!/usr/bin/env bash
# Side-by-side load benchmark of the generated router and a hand-written axum
# server (see src/main.rs). Installs wrk (Debian's package) when missing,
# builds in release mode and runs; extra arguments go to `run`, for example
# `--rounds 3 --seconds 2` for a quick look.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
if ! command -v wrk >/dev/null; then
    apt-get update -qq && apt-get install -y -qq wrk
fi
cargo build --release -q -p tenant-server-bench
exec target/release/tenant-server-bench run "$@"
