"""Every documented response of the mock of a spec, checked against its
schema by an independent validator (openapi-schema-validator, the library
behind openapi-spec-validator), not by the project's own code.

    python mock_responses.py SPEC BASE_URL

For each operation of SPEC, one request per documented status (the success
without a `Prefer` header, every other status with `Prefer: code=N`; a
range or `default` as its first code) must answer that status, and a JSON
body must validate against the response's schema (OpenAPI 3.0 or 3.1
dialect, as the spec says; `readOnly` allowed, `writeOnly` not, since these
are responses). Path parameters are `mock-id`; request bodies come from
REQUEST_BODIES (the project's spec) or are left out, and a 400 then means
the mock checked the body as it should: that operation's statuses are
asked with a body this script cannot make only when it has one.

Prints one line per response and exits 1 on the first kind of failure seen.
"""

import json
import sys
import urllib.error
import urllib.request

import yaml
from openapi_schema_validator import OAS30ReadValidator, OAS31Validator

# Valid bodies of the project's spec's operations (tests/support.rs samples).
REQUEST_BODIES = {
    "create_token_exchange_profile": {
        "name": "Partner tokens",
        "subject_token_type": "urn:partner:token",
        "action_id": "act_1",
        "type": "custom_authentication",
    },
    "create_event_stream": {
        "name": "audit",
        "subscriptions": [{"event_type": "user.created"}],
        "destination": {
            "type": "webhook",
            "configuration": {
                "webhook_endpoint": "https://hooks.example.com/events",
                "webhook_authorization": {
                    "method": "basic",
                    "username": "hook",
                    "password": "hunter22",
                },
            },
        },
    },
}

METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]


def resolve(spec, node):
    while isinstance(node, dict) and "$ref" in node:
        target = spec
        for token in node["$ref"].lstrip("#/").split("/"):
            target = target[token.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def main(spec_path, base):
    spec = yaml.safe_load(open(spec_path, encoding="utf-8"))
    validator_class = OAS31Validator if spec["openapi"].startswith("3.1") else OAS30ReadValidator
    failures = 0
    checked = 0
    for path, item in spec["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            operation_id = operation.get("operationId", f"{method} {path}")
            body = REQUEST_BODIES.get(operation_id)
            if operation.get("requestBody", {}).get("required") and body is None:
                print(f"skip {operation_id}: no valid body known for it")
                continue
            statuses = list(operation.get("responses", {}))
            success = next((s for s in statuses if s.startswith("2")), None)
            for status in statuses:
                code = {"default": "500"}.get(status, status.upper().replace("XX", "00"))
                url = base + path.replace("{", "").replace("}", "")
                url = "".join(url.split("?")[:1])
                data = json.dumps(body).encode() if body is not None else None
                request = urllib.request.Request(url, data=data, method=method.upper())
                request.add_header("Authorization", "Bearer mock-token")
                if data is not None:
                    request.add_header("Content-Type", "application/json")
                if status != success:
                    request.add_header("Prefer", f"code={code}")
                try:
                    response = urllib.request.urlopen(request)
                except urllib.error.HTTPError as error:
                    response = error
                got = response.status if hasattr(response, "status") else response.code
                payload = response.read()
                problem = None
                if str(got) != code:
                    problem = f"answered {got}, expected {code}: {payload[:300]!r}"
                else:
                    documented = resolve(spec, operation["responses"][status])
                    content = documented.get("content") or {}
                    media = next(
                        (m for t, m in content.items() if t.endswith("json")), None
                    )
                    if media is not None and "schema" in media:
                        instance = json.loads(payload)
                        schema = dict(resolve(spec, media["schema"]))
                        schema["components"] = spec.get("components", {})
                        errors = sorted(
                            validator_class(
                                schema, format_checker=validator_class.FORMAT_CHECKER
                            ).iter_errors(instance),
                            key=lambda error: list(error.path),
                        )
                        if errors:
                            problem = "; ".join(
                                f"{list(e.path)}: {e.message}" for e in errors[:3]
                            )
                checked += 1
                if problem:
                    failures += 1
                    print(f"FAIL {operation_id} {status}: {problem}")
                else:
                    print(f"ok   {operation_id} {status}")
    print(f"{checked} responses checked, {failures} failed")
    return 1 if failures or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2].rstrip("/")))
