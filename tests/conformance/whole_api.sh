#!/usr/bin/env bash
# Schemathesis against the mock of a whole description (issue 23): every
# operation, positive and negative data, a bounded number of examples per
# operation, every check (`ignored_auth` replaced by its half that sends no
# credential: the mock accepts any well-formed credential by design). Each
# operation is sent a credential for each scheme of one of its security
# requirements (bearer, basic, API keys in a header, the query or a cookie;
# OAuth 2 and OpenID Connect as bearer tokens), read from the description
# by the hooks. Prints schemathesis's summary, the responses by status
# (how many reached 2xx, how many were refused with 401) and a count of
# failures by check and operation, and exits non-zero when any failure or
# error is found. `.ci/run` runs it on the platform's definition; every
# case it skips is skipped with its reason in whole_api_hooks.py.
#
#   bash tests/conformance/whole_api.sh [SPEC] [EXAMPLES] [SHARE]
#
# SPEC defaults to ../shared/specs/platform-management-api.oas.json,
# EXAMPLES (per operation and mode) to 5. SHARE, `K/N` (default `0/1`, all),
# tests the K-th of N shares of the paths (path keys of one resource, which
# differ by a `#fragment`, stay together), so that N runs side by side, one
# per core, test the whole description; the mock serves all of it. Its log
# is kept in target/conformance-whole-api/NAME/ (NAME-KofN for a share).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

spec=$(realpath "${1:-../shared/specs/platform-management-api.oas.json}")
examples=${2:-5}
share=${3:-0/1}
[[ "$share" =~ ^[0-9]+/[1-9][0-9]*$ ]] && [ "${share%/*}" -lt "${share#*/}" ] ||
    { echo "SHARE must be K/N with K < N, not $share" >&2; exit 2; }
root=$PWD
# One directory per description (and share), so that runs over several can
# go side by side.
name=$(basename "$spec")
work=target/conformance-whole-api/${name%.*}
[ "$share" = 0/1 ] || work="$work-${share%/*}of${share#*/}"
venv=target/conformance-venv
rm -rf "$work" && mkdir -p "$work"
if [ ! -x "$venv/bin/st" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==4.32.5"
fi
cargo build --quiet -p xtask
xtask="${CARGO_TARGET_DIR:-target}/debug/xtask"
# Schemathesis (and the hooks) read one file: a description split over
# several is bundled first, as the generator bundles it.
"$xtask" bundle --spec "$spec" >"$work/bundled.json"
# OpenAPI says header parameters named Accept, Content-Type or Authorization
# SHALL be ignored (the media types and security schemes say those), and
# the server does; schemathesis would send broken ones as negative cases.
python3 - "$work/bundled.json" "$work/tested.json" "$share" <<'PY'
import json, sys

path, tested, share = sys.argv[1:4]
spec = json.load(open(path, encoding="utf-8"))
shared = (spec.get("components") or {}).get("parameters") or {}


def ignored(parameter):
    if "$ref" in parameter:
        parameter = shared.get(parameter["$ref"].rsplit("/", 1)[-1], {})
    return parameter.get("in") == "header" and str(parameter.get("name", "")).lower() in (
        "accept", "content-type", "authorization")


for item in (spec.get("paths") or {}).values():
    for node in [item] + [value for value in item.values() if isinstance(value, dict)]:
        if isinstance(node.get("parameters"), list):
            node["parameters"] = [p for p in node["parameters"] if not ignored(p)]
json.dump(spec, open(path, "w", encoding="utf-8"))

# The share schemathesis tests; the hooks read the whole (other path keys of
# a resource, the methods at a path).
index, count = (int(part) for part in share.split("/"))
resources = list(dict.fromkeys(key.split("#", 1)[0] for key in spec.get("paths") or {}))
kept = set(resources[index::count])
spec["paths"] = {
    key: item for key, item in (spec.get("paths") or {}).items() if key.split("#", 1)[0] in kept
}
json.dump(spec, open(tested, "w", encoding="utf-8"))
PY
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$xtask" mock --spec "$spec" --listen "127.0.0.1:$port" \
    >"$work/mock.log" 2>&1 &
mock_pid=$!
trap 'kill "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true' EXIT
until python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$port" 2>/dev/null; do
    kill -0 "$mock_pid" 2>/dev/null || { cat "$work/mock.log"; exit 1; }
    sleep 0.1
done
# The mock prints the URL it serves, base path included.
base=$(grep -o 'http://[^ ]*' "$work/mock.log" | head -n 1)
status=0
# Schemathesis warns of operations answered 401 or 403 alone (`missing_auth`):
# with the credentials the hooks send, every operation must get past the
# mock's check of them, so that warning fails the run.
printf '[warnings]\nfail-on = ["missing_auth"]\n' >"$work/schemathesis.toml"
# The hooks state every skip with its reason; six checks are replaced by
# variants that tolerate a 400 or 413 refusal, the mock's own warnings, a
# request taken for another operation of the same path and method, and
# the methods of path keys that are one resource, and `ignored_auth` by
# its half without a credential; they supply each operation's credentials
# (schemathesis's auth provider hook, per case) and fail a 401 to a request
# carrying them (see tests/conformance/whole_api_hooks.py).
(cd "$work" && SCHEMATHESIS_HOOKS=tests.conformance.whole_api_hooks PYTHONPATH="$root" \
    WHOLE_API_SPEC="$root/$work/bundled.json" WHOLE_API_BASE="$base" \
    WHOLE_API_TALLY="$root/$work/statuses.json" \
    "$root/$venv/bin/st" --config-file "$root/$work/schemathesis.toml" run "$root/$work/tested.json" \
    --url "$base" \
    --checks all \
    --exclude-checks ignored_auth,status_code_conformance,response_schema_conformance,positive_data_acceptance,negative_data_rejection,allow_header_conformance,unsupported_method \
    --mode all \
    --phases examples,coverage,fuzzing \
    --max-examples "$examples" \
    --seed 20261124 \
    --generation-database none \
    --no-color) >"$work/run.log" 2>&1 || status=$?
# A description of webhooks alone has no operation to send requests to.
if [ "$status" -ne 0 ] && grep -q "defines no API operations" "$work/run.log"; then
    echo "$spec: no operations (webhooks only): nothing to test"
    exit 0
fi
sed -n '/= SUMMARY =/,$p' "$work/run.log"
# Responses by status, to see at a glance how many requests got past the
# mock's check of credentials.
python3 - "$work/statuses.json" <<'PY'
import json, os, sys

if not os.path.exists(sys.argv[1]):
    sys.exit(0)
operations = json.load(open(sys.argv[1], encoding="utf-8"))
statuses = [status for operation in operations.values() for status in operation["statuses"]]
reached = {label for label, operation in operations.items() if any(200 <= s < 300 for s in operation["statuses"])}
secured = {label for label, operation in operations.items() if operation["secured"]}
print(
    f"responses: {len(statuses)} to {len(operations)} operations; "
    f"2xx: {sum(200 <= s < 300 for s in statuses)} ({len(reached)} operations reached one; "
    f"{len(reached & secured)} of the {len(secured)} requiring credentials); "
    f"401: {statuses.count(401)}"
)
PY
# Failures by check, then by operation: the classes to work through.
python3 - "$work/run.log" <<'PY'
import collections, re, sys

log = open(sys.argv[1], encoding="utf-8").read()
sections = re.split(r"\n_{5,} (.+?) _{5,}\n", log)
by_check = collections.Counter()
for operation, body in zip(sections[1::2], sections[2::2]):
    for check in re.findall(r"^- (ST\d+ [^\n]+)$", body, re.M):
        by_check[check, operation] += 1
for (check, operation), count in sorted(by_check.items()):
    print(f"{check:45} {count:3}  {operation}")
PY
exit "$status"
