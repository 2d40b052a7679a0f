"""Schemathesis hooks of the conformance run over a whole description
against the mock (tests/conformance/whole_api.sh, loaded through
SCHEMATHESIS_HOOKS): the reference server's hooks (hooks.py), and what a
whole description brought from outside adds. The description is read from
WHOLE_API_SPEC, to tell what a form encoding of a case loses.

Each skip below stands for a limit of schemathesis's encoding or of its
regex dialect, or for a stated decision of the generated server; none hides
a behaviour of the server that the run could judge:

- Python's `re` and ECMA-262 (the dialect of JSON Schema's `pattern`, which
  the server follows) disagree on a few characters: in Python `.` matches
  \\r, U+2028 and U+2029 and `\\s` matches U+001C-U+001F and U+0085; in
  ECMA-262 they do not. Cases carrying them are skipped, since schemathesis
  would judge the server's verdict on a pattern by Python's reading.
- Requests whose target passes 8 KiB: the server refuses them with 414
  before any operation is known (RFC 9110 lets it), so not in an
  operation's documented error body.
- Path values schemathesis means as valid whose length, once their percent
  escapes are read, is outside the schema's bounds: its coverage phase
  can measure a value by its escaped text.
- Form bodies the encoding cannot carry as fields: a body that is not an
  object (schemathesis sends Python's text of it), a property name with
  brackets (bracket notation cannot tell it from nesting), a body schema
  without `properties` holding objects or lists (schemathesis hands them to
  the HTTP library, which sends an object's keys as values), and objects
  spread by OpenAPI's default encoding whose field names collide with the
  body's or each other's (one value is dropped), or that the server's
  documented rule for spread fields (crates/runtime/src/form.rs)
  would place in another object declaring the same names.
- Multipart bodies with a part named with a control character: the name
  travels in a header, which cannot hold one, so the body is malformed.
- Negative form (and multipart) cases where text (or, in a multipart
  part, one JSON object) stands in for a list: a list's key given once is
  the list of one item (how OpenAPI's default encoding sends it), so the
  "wrong type" arrives as a valid list.
- Cases schemathesis labels valid although a part of them was generated
  invalid (its coverage phase pairs, say, a near-boundary path value with
  an invalid body such as `0`): their verdict would be about the label.
- Cases schemathesis means as valid that send a parameter whose schema
  has an empty `enum`: no value satisfies one (JSON Schema lets an `enum`
  be empty), and the server says so.
- Text in a syntax its `format` does not have (`""` as a `date-time`) in
  cases schemathesis means as valid: under 2020-12 formats are
  annotations, but the generated types read a `date-time` as a time, so
  the server checks the formats with a syntax (`date-time`, `date`,
  `time`, `uuid`, `email`, `uri`, ...) in every dialect, a decision.
- Integers beyond 64 bits in cases schemathesis means as valid: the
  generated server types an integer without a `format` as i64 (typify's
  choice, and every Rust client's); larger values are refused with 400
  naming the field.
- Negative cases whose only fault may be a null where a `nullable: true`
  schema's `enum` leaves null out: OpenAPI 3.0.3 reads that as refusing
  null; the generator, as authors mean it (and typify's `Option` reads
  it), allows null, a decision.
- Cases schemathesis means as valid that send something other than an
  object (`null`) where a schema without `type` has object keywords
  (`properties`, `required`): JSON Schema lets it through, the generator
  reads such a schema as an object (typify's struct), a decision.
- Cases schemathesis means as valid with a query parameter holding
  objects in a list: OpenAPI defines no serialization for one, and
  schemathesis sends Python's text of each object where the server reads
  JSON text.
- Checks: a case the mock took for another operation sharing the path and
  method (a fixed query, or a path key's `#fragment` that no request
  carries; the mock names the operation that answered in
  `x-mock-operation`) is not judged as the operation schemathesis meant
  (nor is such a method "undeclared");
  a resource's methods in `Allow` are those of the path keys matching
  its path (keys differing by a fragment; a concrete key before
  templated ones, OpenAPI's rule); a 413 is a rejection (a body past the server's limit is refused
  before its rules are judged), no status is "undocumented" for an
  operation that documents no response (3.1 lets `responses` be left out),
  a 400 is not "undocumented" (every operation refuses a request
  breaking its rules with 400, documented or not: the spec's error model),
  a 400 on patterns alone that Python's `re` cannot compile is not a valid
  case refused (schemathesis drops such patterns, its "unsupported regex
  patterns" warning, so its values need not match them),
  and a response the mock marks with `x-mock-warning` (a schema no value
  satisfies, or one the generator reads otherwise than written, such as a
  closed object's `required` name it does not declare: both reported at
  start-up) is not judged against that schema;
  a 401 to a request carrying none of the credentials its operation
  accepts (a negative case breaking one) is not "undocumented" either;
  an event stream typed by its media type's `schema` (no `itemSchema`) is
  not judged event by event: schemathesis reads that schema as each event
  object (`data`, `event`, `id`), the generator as each event's `data`
  (crates/codegen/src/model/streams.rs; the descriptions say so, the
  platform's "the JSON payload delivered in each SSE data line"), a
  decision; the mock checks each item it streams against the schema as
  the generator reads it, and tests/mock.rs asserts it does for every
  public description.
- Credentials: each case is sent well-formed credentials for one of its
  operation's security requirements, the alternatives in turn (see
  `Credentials` below); `ignored_auth` is replaced by its half the mock
  can pass (no credential: 401), and a 401 to a request carrying them
  fails (`credential_accepted`).
"""

import base64
import json
import os
import re
import threading
from collections.abc import MutableMapping
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs, quote, unquote, urlparse

import schemathesis
import yaml
from requests.structures import CaseInsensitiveDict
from schemathesis.core import NOT_SET
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi import checks as _checks
from schemathesis.specs.openapi._auth_retry import remove_auth_from_cookie_header, send_probe
from schemathesis.specs.openapi.adapter.security import (
    ORIGINAL_SECURITY_TYPE_KEY,
    effective_security_requirements,
)

from tests.conformance import hooks  # noqa: F401 (registers the shared hooks)

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"

with open(os.environ["WHOLE_API_SPEC"], encoding="utf-8") as _file:
    _SPEC = yaml.safe_load(_file) if not _file.name.endswith(".json") else json.load(_file)

# Characters a header value cannot hold.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")

# Characters whose meaning in a pattern differs between Python and ECMA-262.
_DIALECT_CHARACTERS = set("\r\u2028\u2029\x1c\x1d\x1e\x1f\x85")


def _resolve(schema, depth=0):
    """`schema` with its local `$ref` followed."""
    while isinstance(schema, dict) and "$ref" in schema and depth < 64:
        ref = schema["$ref"]
        if not ref.startswith("#/"):
            return {}
        node = _SPEC
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            node = node.get(part, {}) if isinstance(node, dict) else {}
        schema = node
        depth += 1
    return schema if isinstance(schema, dict) else {}


def _branches(schema):
    """`schema` and the subschemas that may describe the same value."""
    schema = _resolve(schema)
    yield schema
    for keyword in ("allOf", "oneOf", "anyOf"):
        for branch in schema.get(keyword) or []:
            yield from _branches(branch)


def _property_schemas(schema, name):
    for branch in _branches(schema):
        properties = branch.get("properties")
        if isinstance(properties, dict) and name in properties:
            yield properties[name]
        extra = branch.get("additionalProperties")
        if isinstance(extra, dict):
            yield extra


def _is_list(schema):
    for branch in _branches(schema):
        kind = branch.get("type")
        if kind == "array" or (isinstance(kind, list) and "array" in kind):
            return True
    return False


def _text_for_list(value, schema, parts=False):
    """Whether text stands where `schema` wants a list, in `value` (or, in
    multipart `parts`, one object, which is a list of one there too)."""
    if not isinstance(value, dict):
        return False
    for key, child in value.items():
        for property_schema in _property_schemas(schema, key):
            # A form field or a part is text whatever its JSON type was.
            scalar = isinstance(child, (str, int, float, bool))
            if (scalar or (parts and isinstance(child, dict))) and _is_list(property_schema):
                return True
            if isinstance(child, dict) and _text_for_list(child, property_schema):
                return True
    return False


# Requests whose target passes this are refused with 414 before any
# operation is known (`openapi_crates_runtime::MAX_URI_LENGTH`, 8 KiB, and
# the HTTP library's own 64 KiB), as RFC 9110 lets a server: their answer
# cannot be in an operation's documented shape. A margin for the base path.
_TARGET_LIMIT = 8 * 1024 - 256


def _target_length(case):
    """The length of the request target schemathesis will send, about."""
    length = len(case.formatted_path)
    for name, value in (case.query or {}).items():
        values = value if isinstance(value, list) else [value]
        length += sum(len(quote(str(name))) + len(quote(str(item))) + 2 for item in values)
    return length


def _path_length_misjudged(case):
    """Whether a path value schemathesis means as valid is, once its
    percent escapes are read, outside its schema's length bounds: its
    coverage phase can measure a near-boundary value by its escaped text
    (`%F2%B0%AB%82As%2A%C3%87%19`, 26 characters for 6)."""
    for parameter in _parameters(case):
        value = (case.path_parameters or {}).get(parameter.get("name"))
        if parameter.get("in") != "path" or not isinstance(value, str):
            continue
        schema = _resolve(parameter.get("schema", {}))
        length = len(unquote(value))
        if length < schema.get("minLength", 0) or length > schema.get("maxLength", length):
            return True
    return False


def _parameters(case):
    """The operation's parameters, path-level ones included, resolved."""
    path_item = _SPEC.get("paths", {}).get(case.operation.path, {})
    operation = path_item.get(case.method.lower(), {})
    return [
        _resolve(parameter)
        for parameter in (path_item.get("parameters") or []) + (operation.get("parameters") or [])
    ]


_LOCATIONS = {"path": "path_parameters", "query": "query", "header": "headers", "cookie": "cookies"}


def _parameter_values(case):
    """Each parameter sent, with its schema."""
    for parameter in _parameters(case):
        sent = getattr(case, _LOCATIONS.get(parameter.get("in"), ""), None) or {}
        if parameter.get("name") in sent:
            yield sent[parameter["name"]], parameter.get("schema", {})


def _no_value_allowed(case):
    """Whether a parameter sent has a schema with an empty `enum`, which no
    value satisfies (JSON Schema lets one be empty): schemathesis sends one
    as valid all the same."""
    return any(
        any(branch.get("enum") == [] for branch in _branches(schema))
        for _, schema in _parameter_values(case)
    )


_RFC3339_DATE = r"\d{4}-\d{2}-\d{2}"
_RFC3339_TIME = r"\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})"
_FORMATS = {
    "date-time": re.compile(rf"{_RFC3339_DATE}[Tt]{_RFC3339_TIME}"),
    "date": re.compile(_RFC3339_DATE),
    "time": re.compile(_RFC3339_TIME),
    "uuid": re.compile(r"[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}"),
    "email": re.compile(r"[^@\s]+@[^@\s]+"),
    "uri": re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S*"),
    "url": re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S*"),
}


def _format_broken(value, schema, depth=0):
    """Whether `value` holds text its schema gives a format the server
    checks (see `openapi_crates_runtime::checks::format`), in a syntax that
    format does not have. Under 2020-12 formats are annotations, and
    schemathesis's coverage phase sends such text (`""` as a `date-time`)
    as valid; the generated types read a `date-time` as a time, so the
    server checks these formats in every dialect (a decision, see
    ARCHITECTURE.md)."""
    if depth > 32:
        return False
    for branch in _branches(schema):
        pattern = _FORMATS.get(branch.get("format"))
        if isinstance(value, str) and pattern is not None and not pattern.fullmatch(value):
            return True
        if isinstance(value, list) and isinstance(branch.get("items"), dict):
            if any(_format_broken(item, branch["items"], depth + 1) for item in value):
                return True
    if isinstance(value, dict):
        for key, child in value.items():
            for property_schema in _property_schemas(schema, key):
                if _format_broken(child, property_schema, depth + 1):
                    return True
    return False


def _body_schema(case, media_type):
    operation = _SPEC.get("paths", {}).get(case.operation.path, {})
    body = _resolve(operation.get(case.method.lower(), {}).get("requestBody", {}))
    return (body.get("content") or {}).get(media_type, {}).get("schema", {})


def _form_schema(case):
    return _body_schema(case, FORM)


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, child in value.items():
            yield str(key)
            yield from _strings(child)
    elif isinstance(value, (list, tuple)):
        for child in value:
            yield from _strings(child)


def _integers(value):
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for child in value.values():
            yield from _integers(child)
    elif isinstance(value, (list, tuple)):
        for child in value:
            yield from _integers(child)


def _keys(value):
    if isinstance(value, dict):
        for key, child in value.items():
            yield str(key)
            yield from _keys(child)
    elif isinstance(value, list):
        for child in value:
            yield from _keys(child)


def _spread_collides(body, declared):
    """Whether an object spread at the top level shares a field name with
    the body (sent or declared) or with another spread object."""
    seen = set(declared) | {key for key, child in body.items() if not isinstance(child, dict)}
    for child in body.values():
        if isinstance(child, dict):
            if seen & set(child):
                return True
            seen |= set(child)
    return False


def _declared(schema):
    """The property names `schema` declares, through `$ref`s and choices."""
    names = []
    for branch in _branches(schema):
        for name in branch.get("properties") or {}:
            if name not in names:
                names.append(name)
    return names


def _spread_is_ambiguous(body, properties):
    """Whether the server's rule for fields spread at the top level (each
    goes to the object property declaring it that declares most of the
    spread fields, the first of those in declaration order, that can take
    it: crates/runtime/src/form.rs) would place a field elsewhere
    than where the case had it."""
    declared = {name: _declared(schema) for name, schema in properties.items()}
    spread = {name: child for name, child in body.items() if isinstance(child, dict)}
    keys = {key for child in spread.values() for key in child}
    claims = {name: len(keys & set(names)) for name, names in declared.items()}
    for owner, child in spread.items():
        for key in child:
            candidates = [name for name, names in declared.items() if key in names]
            candidates.sort(key=lambda name: -claims[name])
            free = [
                name
                for name in candidates
                if name not in body or isinstance(body[name], dict)
            ]
            if not free or free[0] != owner:
                return True
    return False


def _form_loses(case, negative):
    body = case.body
    if not isinstance(body, dict):
        return True
    if any("[" in key or "]" in key for key in _keys(body)):
        return True
    # Schemathesis encodes each property as the schema's own `properties`
    # say (not those of a `oneOf` branch); without them, an object or list
    # value is handed to the HTTP library as it is.
    properties = _resolve(_form_schema(case)).get("properties")
    if not isinstance(properties, dict) and any(
        isinstance(child, (dict, list)) for child in body.values()
    ):
        return True
    if _spread_collides(body, properties or {}) or _spread_is_ambiguous(body, properties or {}):
        return True
    schema = _form_schema(case)
    return negative and _text_for_list(body, schema)


def _query_holds_objects(case):
    """Whether a query parameter holds objects (in a list): OpenAPI defines
    no serialization for one; schemathesis sends Python's text of each
    object, and the server reads each item as JSON text (a decision)."""
    return any(
        isinstance(value, dict)
        or (isinstance(value, list) and any(isinstance(item, dict) for item in value))
        for value in (case.query or {}).values()
    )


def _operation_pointer(case):
    """The JSON pointer of the case's operation in the spec, as the mock's
    `x-mock-operation` header gives the one that answered."""
    escaped = case.operation.path.replace("~", "~0").replace("/", "~1")
    return f"/paths/{escaped}/{case.method.lower()}"


def _answered_as_another(response, case):
    """Whether the mock took the request for another operation: several
    share a path and method where the spec tells them apart by a fixed
    query or a path key's `#fragment` (which no request carries), so a
    request schemathesis means for one may be, by the dispatch rule, a
    valid request of another; its verdict would be about the label."""
    answered = response.headers.get("x-mock-operation")
    if isinstance(answered, list):
        answered = answered[0] if answered else None
    return answered is not None and answered != _operation_pointer(case)


def _null_where_nullable(value, schema, depth=0):
    """Whether `value` holds a null where a `nullable: true` schema's
    `enum` leaves null out: OpenAPI 3.0.3 reads such a schema as refusing
    null, the generator (as authors mean it, and as typify's `Option`
    reads it) as allowing null, a decision."""
    if depth > 32:
        return False
    if value is None:
        return any(branch.get("nullable") is True for branch in _branches(schema))
    if isinstance(value, dict):
        return any(
            _null_where_nullable(child, property_schema, depth + 1)
            for key, child in value.items()
            for property_schema in _property_schemas(schema, key)
        )
    if isinstance(value, list):
        return any(
            _null_where_nullable(item, branch["items"], depth + 1)
            for branch in _branches(schema)
            if isinstance(branch.get("items"), dict)
            for item in value
        )
    return False


_OBJECT_KEYWORDS = ("properties", "required", "additionalProperties")


def _untyped_object_given_other(value, schema, depth=0):
    """Whether `value` holds something other than an object where a schema
    without `type` has object keywords (`properties`, `required`): JSON
    Schema lets any other value through, the generator reads such a schema
    as an object (typify types it as a struct), a decision."""
    if depth > 32:
        return False
    branches = list(_branches(schema))
    if not isinstance(value, dict):
        if any("type" not in b and any(k in b for k in _OBJECT_KEYWORDS) for b in branches):
            return True
        if isinstance(value, list):
            return any(
                _untyped_object_given_other(item, branch["items"], depth + 1)
                for branch in branches
                if isinstance(branch.get("items"), dict)
                for item in value
            )
        return False
    return any(
        _untyped_object_given_other(child, property_schema, depth + 1)
        for key, child in value.items()
        for property_schema in _property_schemas(schema, key)
    )


_BASE_PATH = urlparse(os.environ.get("WHOLE_API_BASE", "")).path.rstrip("/")
_HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def _methods_at(path):
    """The methods the spec declares for the concrete `path`: those of the
    path keys that match it, keys differing by a `#fragment` being one
    resource, and a concrete key matched before templated ones (OpenAPI's
    rule: `/a/b` is its own resource beside `/a/{id}`)."""
    matched = {}
    for key, item in (_SPEC.get("paths") or {}).items():
        template = key.split("#", 1)[0]
        pattern = "".join(
            "[^/]+" if part.startswith("{") else re.escape(part)
            for part in re.split(r"(\{[^}]*\})", template)
        )
        if re.fullmatch(pattern, path):
            methods = {method for method in _resolve(item) if method in _HTTP_METHODS}
            matched.setdefault(template, set()).update(methods)
    concrete = [methods for template, methods in matched.items() if "{" not in template]
    chosen = concrete or list(matched.values())
    return set().union(*chosen) if chosen else set()


@schemathesis.hook
def filter_case(context, case):
    parts = (case.path_parameters, case.query, case.headers, case.cookies, case.body)
    if any(_DIALECT_CHARACTERS & set(text) for part in parts for text in _strings(part)):
        return False
    meta = case.meta
    negative = meta is not None and not meta.generation.mode.is_positive
    if not negative and meta is not None and any(
        not component.mode.is_positive for component in (meta.components or {}).values()
    ):
        return False
    if not negative and _path_length_misjudged(case):
        return False
    if not negative and _no_value_allowed(case):
        return False
    if negative and _null_where_nullable(case.body, _body_schema(case, case.media_type or "")):
        return False
    if not negative and _query_holds_objects(case):
        return False
    if (
        not negative
        and case.body is not NOT_SET
        and _untyped_object_given_other(case.body, _body_schema(case, case.media_type or ""))
    ):
        return False
    if not negative and (
        any(_format_broken(value, schema) for value, schema in _parameter_values(case))
        or _format_broken(case.body, _body_schema(case, case.media_type or ""))
    ):
        return False
    if _target_length(case) > _TARGET_LIMIT:
        return False
    if not negative and any(
        not -(2**63) <= number < 2**63 for part in parts for number in _integers(part)
    ):
        return False
    if case.media_type == FORM and _form_loses(case, negative):
        return False
    # A part's name travels in its `Content-Disposition` header, where a
    # control character cannot stand (RFC 9110 field values): the body is
    # malformed whatever the schema says.
    if (case.media_type or "").startswith(MULTIPART) and isinstance(case.body, dict):
        if any(_CONTROL.search(str(name)) for name in case.body):
            return False
    # Multipart parts are text too: text standing for a list is a list of
    # one there as well.
    if (
        negative
        and (case.media_type or "").startswith(MULTIPART)
        and _text_for_list(case.body, _body_schema(case, MULTIPART), parts=True)
    ):
        return False
    return True


@schemathesis.check
def status_code_conformance_or_refusal(ctx, response, case):
    """`status_code_conformance`, a 400 refusal aside, a 401 to a request
    that carries no credential the operation accepts aside (its security
    requirement says so, documented or not), and but for an operation that
    documents no response (OpenAPI 3.1 lets `responses` be left out): no
    status of its is documented."""
    if response.status_code == 400:
        return None
    if response.status_code == 401 and _refused_without_credential(response, case):
        return None
    path_item = _SPEC.get("paths", {}).get(case.operation.path, {})
    if not _resolve(path_item).get(case.method.lower(), {}).get("responses"):
        return None
    return _checks.status_code_conformance(ctx, response, case)


@schemathesis.check
def negative_data_rejection_or_too_large(ctx, response, case):
    """`negative_data_rejection`, with 413 as a rejection: a body past the
    server's limit is refused before any of its rules is judged (RFC 9110's
    413), as schemathesis's own list of rejections leaves out."""
    if response.status_code == 413 or _answered_as_another(response, case):
        return None
    return _checks.negative_data_rejection(ctx, response, case)


@schemathesis.check
def positive_data_acceptance_unless_pattern_unreadable(ctx, response, case):
    """`positive_data_acceptance`, but for a refusal on patterns alone that
    Python's `re` cannot compile: schemathesis drops such a pattern (its
    "unsupported regex patterns" warning), so its values need not match
    it."""
    if response.status_code == 400:
        try:
            errors = json.loads(response.content).get("errors")
        except (ValueError, AttributeError):
            errors = None
        if not isinstance(errors, list) or not all(isinstance(item, dict) for item in errors):
            errors = []
        marker = "must match the pattern "
        patterns = [
            item.get("detail", "").split(marker, 1)[1]
            for item in errors
            if item.get("code") == "pattern" and marker in item.get("detail", "")
        ]
        if errors and len(patterns) == len(errors) and all(map(_unreadable, patterns)):
            return None
    if _answered_as_another(response, case) or _query_holds_objects(case):
        return None
    return _checks.positive_data_acceptance(ctx, response, case)


def _unreadable(pattern):
    try:
        re.compile(pattern)
    except re.error:
        return True
    return False


@schemathesis.check
def response_schema_conformance_unless_warned(ctx, response, case):
    """`response_schema_conformance`, but for the responses the mock says
    no value of their schema exists for, or whose schema the generator
    reads otherwise than written."""
    if "x-mock-warning" in {name.lower() for name in response.headers}:
        return None
    if _answered_as_another(response, case) or _events_typed_by_data(response, case):
        return None
    return _checks.response_schema_conformance(ctx, response, case)


def _events_typed_by_data(response, case):
    """Whether `response` is an event stream whose description types it by
    its media type's `schema`, with no `itemSchema`: the generator reads
    that schema as each event's `data`, schemathesis as each event object
    (see the module's docs)."""
    content_type = response.headers.get("content-type")
    if isinstance(content_type, list):
        content_type = content_type[0] if content_type else ""
    if str(content_type or "").split(";")[0].strip().lower() != "text/event-stream":
        return False
    operation = _resolve(_resolve(_SPEC.get("paths", {}).get(case.operation.path, {})).get(case.method.lower(), {}))
    responses = operation.get("responses") or {}
    status = str(response.status_code)
    documented = responses.get(status) or responses.get(status[0] + "XX") or responses.get("default")
    media = (_resolve(documented or {}).get("content") or {}).get("text/event-stream") or {}
    return "itemSchema" not in media


@schemathesis.check
def unsupported_method_unless_another_operation(ctx, response, case):
    """`unsupported_method`, but for a method another path key of the same
    resource declares (keys differing by a `#fragment`): the operation that
    answered is that key's."""
    if _answered_as_another(response, case):
        return None
    return _checks.unsupported_method(ctx, response, case)


@schemathesis.check
def allow_header_conformance_across_keys(ctx, response, case):
    """`allow_header_conformance`, the resource's methods being those of
    every path key matching its path (see `_methods_at`), not of the one
    key the case came from."""
    if response.request.method != "OPTIONS":
        return None
    values = response.headers.get("allow")
    if not values:
        return None
    allow = ", ".join(values) if isinstance(values, list) else values
    advertised = {method.strip().lower() for method in allow.split(",") if method.strip()}
    path = unquote(urlparse(response.request.url).path)
    if _BASE_PATH and path.startswith(_BASE_PATH):
        path = path[len(_BASE_PATH):]
    declared = _methods_at(path)
    implicit = {"head", "options"}
    if advertised - implicit == declared - implicit:
        return None
    return _checks.allow_header_conformance(ctx, response, case)


# Credentials. Each case of an operation is sent the credentials of one of
# its security requirements (its own `security`, else the description's;
# none where that is `[]`), the requirements a request can carry taken in
# turn from case to case, so that each alternative is tested; one
# well-formed credential per scheme of the requirement, through
# schemathesis's auth provider hook:
# it sets them per case, after generation, and leaves them out of the
# negative cases that break a credential on purpose (`negated_parameters`),
# which the mock must refuse. The mock, having no key to verify one with,
# accepts any well-formed credential of a scheme the operation lists
# (`Credential::find` in crates/runtime/src/auth.rs): a token after
# `Bearer` (`http` `bearer`, `oauth2`, `openIdConnect`), any text after
# another `http` scheme's name (`Basic` and the base64 of `user:password`
# here), an API key of any non-empty text in its header, query parameter
# or cookie.

_BEARER = "Bearer any-token"
_BASIC = "Basic " + base64.b64encode(b"user:password").decode()
_API_KEY = "any-key"
_CONTAINERS = {"header": "headers", "query": "query", "cookie": "cookies"}


def _credential(definition):
    """Where a security scheme's credential travels and a well-formed one,
    as `(location, name, value)`; None for a scheme no request carries
    (`mutualTLS`)."""
    kind = definition.get("type")
    if kind in ("oauth2", "openIdConnect"):
        return ("header", "Authorization", _BEARER)
    if kind == "basic":  # Swagger 2.0's spelling
        return ("header", "Authorization", _BASIC)
    if kind == "http":
        scheme = str(definition.get("scheme") or "").strip()
        if scheme.lower() == "bearer":
            return ("header", "Authorization", _BEARER)
        if scheme.lower() == "basic":
            return ("header", "Authorization", _BASIC)
        return ("header", "Authorization", f"{scheme} any-credentials") if scheme else None
    if kind == "apiKey" and definition.get("in") in _CONTAINERS and definition.get("name"):
        return (definition["in"], str(definition["name"]), _API_KEY)
    return None


def _requirements(operation):
    """The operation's security requirements, as schemathesis reads them."""
    requirements = effective_security_requirements(operation, operation.schema.raw_schema)
    return [requirement for requirement in requirements or [] if isinstance(requirement, dict)]


def _slot(location, name):
    return (location, name.lower() if location == "header" else name)


def _alternatives(operation):
    """The credentials `operation`'s requests may be sent with: for each of
    its security requirements that a request can carry, a credential of
    each of its schemes (two schemes wanting the same header cannot be
    carried at once). An empty requirement (`{}`, security optional) is
    passed over: the authenticated path is the one tested. Empty when the
    operation needs no credential."""
    definitions = operation.schema.security.security_definitions
    alternatives = []
    for requirement in _requirements(operation):
        chosen = {}
        for scheme in requirement:
            credential = _credential(_resolve(definitions.get(scheme) or {}))
            if credential is None:
                break
            slot = _slot(*credential[:2])
            if chosen.get(slot, credential) != credential:
                break
            chosen[slot] = credential
        else:
            if chosen and list(chosen.values()) not in alternatives:
                alternatives.append(list(chosen.values()))
    return alternatives


# How many cases of each operation were given credentials.
_TURNS = {}
_TURNS_LOCK = threading.Lock()


def _declared_parameters(operation):
    """The (location, name) of the operation's own parameters, the ones
    schemathesis adds for its security schemes aside."""
    return {
        _slot(str(parameter.location.value), parameter.name)
        for parameter in operation.iter_parameters()
        if ORIGINAL_SECURITY_TYPE_KEY not in parameter.definition
    }


@schemathesis.auth(refresh_interval=None)
class Credentials:
    """The credentials of one of the operation's requirements, in turn
    (see `_alternatives`); None (no credential) where it needs none."""

    def get(self, case, context):
        alternatives = _alternatives(context.operation)
        if not alternatives:
            return None
        with _TURNS_LOCK:
            turn = _TURNS.get(context.operation.label, 0)
            _TURNS[context.operation.label] = turn + 1
        return alternatives[turn % len(alternatives)]

    def set(self, case, data, context):
        declared = _declared_parameters(case.operation)
        for location, name, value in data:
            attribute = _CONTAINERS[location]
            container = getattr(case, attribute)
            if container is None:
                container = {}
                setattr(case, attribute, container)
            # A negative case may have replaced the container with another
            # value; it is sent as generated.
            if not isinstance(container, MutableMapping):
                continue
            # A parameter the operation declares itself under the key's name
            # keeps its generated value where it has one: the mock reads the
            # key from it all the same.
            existing = container.get(name)
            if _slot(location, name) in declared and isinstance(existing, str) and existing:
                continue
            container[name] = value


def _carried(request, credentials):
    """Whether the request sent holds each of `credentials` (a negative
    case may hold a generated value in a credential's place instead)."""
    query = parse_qs(urlparse(request.url).query, keep_blank_values=True)
    cookies = SimpleCookie()
    try:
        cookies.load(request.headers.get("Cookie") or "")
    except CookieError:
        return False
    for location, name, value in credentials:
        if location == "header":
            held = [request.headers.get(name)]
        elif location == "query":
            held = query.get(name) or []
        else:
            held = [cookies[name].value] if name in cookies else []
        if held != [value]:
            return False
    return True


def _refused_without_credential(response, case):
    """Whether the request was one of an operation requiring credentials
    that carried none of them (a negative case breaking one on purpose)."""
    alternatives = _alternatives(case.operation)
    return bool(alternatives) and not any(
        _carried(response.request, credentials) for credentials in alternatives
    )


@schemathesis.check
def credential_accepted(ctx, response, case):
    """A request carrying a credential of each scheme of one of its
    operation's security requirements is not refused with 401: the mock
    accepts any well-formed credential, so a 401 says the credential went
    where the operation does not read it."""
    if response.status_code != 401 or _answered_as_another(response, case):
        return None
    carried = [
        credentials
        for credentials in _alternatives(case.operation)
        if _carried(response.request, credentials)
    ]
    if not carried:
        return None
    credentials = carried[0]
    raise AssertionError(
        "401 to a request carrying "
        + ", ".join(f"{location} `{name}`" for location, name, _ in credentials)
        + ": the mock accepts any well-formed credential of the operation's schemes"
    )


# Operations shown to refuse a request without credentials, once each.
_REFUSES_ANONYMOUS = set()
_REFUSES_ANONYMOUS_LOCK = threading.Lock()


def _without_credentials(case):
    """`case` with every credential any of its operation's schemes reads
    taken out (the `Authorization` header, each API key)."""
    definitions = case.operation.schema.security.security_definitions
    headers = CaseInsensitiveDict(case.headers or {})
    query = dict(case.query or {})
    cookies = dict(case.cookies or {})
    for requirement in _requirements(case.operation):
        for scheme in requirement:
            credential = _credential(_resolve(definitions.get(scheme) or {}))
            if credential is None:
                continue
            location, name, _ = credential
            if location == "header":
                headers.pop(name, None)
            elif location == "query":
                query.pop(name, None)
            else:
                cookies.pop(name, None)
                remove_auth_from_cookie_header(headers, name)
    return case.derive(headers=headers, query=query, cookies=cookies)


@schemathesis.check
def ignored_auth_without_credential(ctx, response, case):
    """`ignored_auth`, the half of it the mock is judged by: an operation
    whose every security requirement names a scheme, answering a request
    with credentials, refuses the same request without any with 401 (once
    per operation). Its other half sends credentials of the right form but
    wrong value, which the mock, with no key to tell them apart, accepts by
    design."""
    if not 200 <= response.status_code < 300 or not case._has_explicit_auth:
        return None
    requirements = _requirements(case.operation)
    if not requirements or any(not requirement for requirement in requirements):
        return None
    # A negative path value may reach another route, whose security is its own.
    if case.meta is not None and case.meta.is_negative_at(ParameterLocation.PATH):
        return None
    if _answered_as_another(response, case):
        return None
    label = case.operation.label
    with _REFUSES_ANONYMOUS_LOCK:
        if label in _REFUSES_ANONYMOUS:
            return None
    probe = _without_credentials(case)
    refusal = send_probe(ctx, case, probe)
    if refusal.status_code != 401:
        raise AssertionError(
            f"Expected 401 to the same request without credentials, got {refusal.status_code}"
        )
    with _REFUSES_ANONYMOUS_LOCK:
        _REFUSES_ANONYMOUS.add(label)
    return None


@schemathesis.check
class ResponsesByStatus:
    """Not a check: counts the responses by status (2xx, 401, others), by
    operation, and writes the counts to WHOLE_API_TALLY after the run, so
    that a run answered 401 throughout shows as one."""

    def __init__(self):
        self.statuses = {}
        self.lock = threading.Lock()

    def after_response(self, ctx, response, case):
        # Shrinking and replays call this again for a case: kept by its id.
        label = case.operation.label
        with self.lock:
            if label not in self.statuses:
                self.statuses[label] = (bool(_alternatives(case.operation)), {})
            self.statuses[label][1][case.id] = response.status_code

    def after_run(self, ctx):
        path = os.environ.get("WHOLE_API_TALLY")
        if not path:
            return
        with self.lock:
            operations = {
                label: {"secured": secured, "statuses": sorted(statuses.values())}
                for label, (secured, statuses) in self.statuses.items()
            }
        with open(path, "w", encoding="utf-8") as file:
            json.dump(operations, file)
