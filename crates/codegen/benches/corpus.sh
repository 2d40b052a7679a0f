#!/usr/bin/env bash
# The whole corpus (../shared/corpus: 1,027 descriptions teams published),
# as `tests/corpus.rs` runs a sample of it in CI: how many generate, start
# their mock and pass `cargo clippy -D warnings` (every one of them here,
# in one scratch workspace), with the time each step took, on the release
# build. Prints the rates and fails when one is below its target.
#
#   bash crates/codegen/benches/corpus.sh [SAMPLE]
#
# SAMPLE is how many descriptions' crates go through clippy (default: all;
# a number draws that many, as CI draws its sample).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

sample=${1:-all}
log=target/bench-corpus.log
mkdir -p target
status=0
CORPUS_CLIPPY_SAMPLE=$sample cargo test --release -p workspace-tests --test corpus \
    -- --nocapture >"$log" 2>&1 || status=$?
summary=$(grep '^corpus:' "$log" || true)
if [ -z "$summary" ]; then
    tail -40 "$log"
    echo "the corpus test printed no figures (status $status)"
    exit 1
fi
echo "$summary"
python3 - "$summary" "$log" <<'PY'
import re, sys

line = sys.argv[1]
log = open(sys.argv[2], encoding="utf-8", errors="replace").read()
generated, total = map(int, re.search(r"(\d+) of (\d+) generate", line).groups())
mocked = int(re.search(r"the mock starts on (\d+)", line).group(1))
checked = int(re.search(r"clippy checked the (\d+)", line).group(1))
# A description fails to compile where rustc reports an error code in
# one of its crates, and fails clippy where a lint is reported there.
located = re.findall(r"^(error(?:\[(E\d+)\])?): .*\n\s+--> (c\d{4})/", log, re.M)
uncompiled = {crate for _, code, crate in located if code}
linted = {crate for _, code, crate in located if not code} - uncompiled
ok_compile = checked - len(uncompiled)
ok_clippy = ok_compile - len(linted)
seconds = re.search(r"\((\d+\.\d) s on two cores", line).group(1)
print(f"generate:   {generated}/{total} = {100 * generated / total:.1f}% in {seconds} s  (target: all)")
print(f"mock start: {mocked}/{generated} = {100 * mocked / max(generated, 1):.1f}%  (target: all)")
print(f"compile:    {ok_compile}/{checked} = {100 * ok_compile / max(checked, 1):.1f}%  (target: all)")
print(f"clippy:     {ok_clippy}/{checked} = {100 * ok_clippy / max(checked, 1):.1f}%  (target: all)")
if uncompiled or linted:
    print("failing:", " ".join(sorted(uncompiled | linted)))
PY
if [ "$status" -ne 0 ]; then
    grep -E '^(error|warning)(\[[A-Z0-9]+\])?: ' "$log" | sed -E 's/`[^`]*`/X/g' | sort | uniq -c | sort -rn | head -20
    echo "FAILED: see $log"
    exit 1
fi
