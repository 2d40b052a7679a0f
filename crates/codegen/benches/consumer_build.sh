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
#
# SPEC defaults to ../shared/specs/platform-management-api.oas.json, TAG to
# `users`; `STEPS=check` measures `cargo check` only. Exits non-zero when a step fails or a target is missed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

spec=${1:-../shared/specs/platform-management-api.oas.json}
tag=${2:-users}
target_ratio=0.20
target_mib=4096

work=target/bench-consumer
rm -rf "$work"
mkdir -p "$work"
cargo build --release --quiet -p xtask
target/release/xtask codegen --spec "$spec" --crate-prefix api --out "$work/workspace" >/dev/null

python3 - "$work/workspace" "$tag" <<'PY'
import os, sys, tomllib

out, tag = sys.argv[1], sys.argv[2]
root = tomllib.load(open("Cargo.toml", "rb"))["workspace"]["dependencies"]
generated = ["api-types", "api-client", "api-server"]
names = set()
for crate in generated:
    manifest = tomllib.load(open(os.path.join(out, "generated", crate, "Cargo.toml"), "rb"))
    names.update(manifest.get("dependencies", {}))
    features = manifest.get("features", {})
    if tag not in features:
        sys.exit(f"{crate} has no feature `{tag}`")


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


consumers = {
    "every-tag": {},
    "one-tag": {"default-features": False, "features": [tag]},
    # Builds the dependencies, untimed.
    "no-tag": {"default-features": False},
}
lines = [
    "[workspace]",
    'resolver = "3"',
    "members = " + toml_value([f"generated/{c}" for c in generated] + [f"consumers/{c}" for c in consumers]),
    "",
    "[workspace.package]",
    'edition = "2024"',
    'rust-version = "1.88"',
    'license = "Apache-2.0"',
    "publish = false",
    "",
    "[workspace.dependencies]",
]
for name in sorted(names - set(generated)):
    spec = root[name]
    if isinstance(spec, dict) and "path" in spec:
        spec = dict(spec, path=os.path.abspath(spec["path"]))
    lines.append(f"{name} = {toml_value(spec)}")
lines.append('api-types = { path = "generated/api-types", default-features = false }')
open(os.path.join(out, "Cargo.toml"), "w").write("\n".join(lines) + "\n")
for consumer, options in consumers.items():
    folder = os.path.join(out, "consumers", consumer)
    os.makedirs(os.path.join(folder, "src"), exist_ok=True)
    deps = "\n".join(
        f"{crate} = " + toml_value(dict({"path": f"../../generated/{crate}"}, **options))
        for crate in ["api-client", "api-server"]
    )
    open(os.path.join(folder, "Cargo.toml"), "w").write(
        f'[package]\nname = "{consumer}"\nversion = "0.1.0"\nedition.workspace = true\n'
        f"publish = false\n\n[dependencies]\n{deps}\n"
    )
    open(os.path.join(folder, "src", "lib.rs"), "w").write(
        "//! A consumer of the generated crates.\n"
        "pub use api_client as client;\npub use api_server as server;\n"
    )
PY
cp Cargo.lock "$work/workspace/Cargo.lock"
manifest="$work/workspace/Cargo.toml"
cargo fetch --quiet --manifest-path "$manifest"
export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0

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
ratio=$(awk -v a="${build_wall[one-tag]}" -v b="${build_wall[every-tag]}" 'BEGIN { printf "%.2f", a / b }')
echo "  build of \`$tag\` alone / every tag: ${ratio} (target below ${target_ratio})"
if awk -v r="$ratio" -v t="$target_ratio" 'BEGIN { exit !(r >= t) }'; then
    echo "  MISSED: ratio ${ratio}"
    failed=1
fi
echo "  cores $(nproc), load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$work/target"
exit "$failed"
