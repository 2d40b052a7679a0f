"""Schemathesis hooks for the conformance run of `.ci/run` against the
reference server (loaded through SCHEMATHESIS_HOOKS).

- The seed's `format: url` is not a format JSON Schema knows; schemathesis
  would otherwise generate no value for it (or read it as http(s) only).
  Values here are absolute URIs of RFC 3986, `urn:` ones included, which is
  what the spec's `pattern` and the server's check accept.
- The GET operations take the ID of a fixture resource; random IDs would only
  ever reach the 404. Most generated cases use an ID from the reference
  server's fixtures (crates/reference-server/fixtures/default.json); the
  rest keep the generated value, so the 404 stays exercised.
- Schema-valid token exchange profiles reference the fixtures' deployed
  action, so they are created rather than refused for a missing action.
- Form-encoded cases whose encoding cannot carry the JSON value they stand
  for are skipped (see `_form_loses`); the same values are sent as JSON.
- A crash of schemathesis itself on URL-like response strings is avoided.

Every exclusion is explained where it is made.
"""

import schemathesis
import schemathesis.engine.observations as _observations
from hypothesis import strategies as st

# Schemathesis (4.32.5) scans 2xx bodies for same-origin URLs and crashes
# the whole run (a ValueError from urllib's urlsplit) on a string it cannot
# parse, such as `https://[1]` - a bracketed host the webhook endpoint's
# pattern allows and the server echoes. Such a string is no same-origin link.
_same_origin_path = _observations._same_origin_path


def _tolerant_same_origin_path(value, origin):
    try:
        return _same_origin_path(value, origin)
    except ValueError:
        return None


_observations._same_origin_path = _tolerant_same_origin_path

# The characters a URI may hold after the scheme (unreserved and reserved),
# or a percent-encoded byte: the rule of SubjectTokenType's pattern.
_URI_CHAR = r"(?:[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})"

schemathesis.openapi.format(
    "url",
    st.one_of(
        st.sampled_from(
            [
                "urn:partner:token",
                "urn:ietf:params:oauth:token-type:jwt",
                "https://partner.example/token-type",
                "https://partner.example/a?b=c&d=%2F#e",
            ]
        ),
        st.from_regex(rf"\A[A-Za-z][A-Za-z0-9+.-]{{0,12}}:{_URI_CHAR}{{6,60}}\Z"),
    ),
)

# Fixture IDs of the reference server, by path template.
FIXTURE_IDS = {
    "/user-attribute-profiles/templates/{id}": ["uapt_workforce", "uapt_customer"],
    "/actions/modules/{id}": ["mod_published", "mod_draft"],
}


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    operation = context.operation
    ids = FIXTURE_IDS.get(operation.path) if operation is not None else None
    if not ids or path_parameters is None or "id" not in path_parameters:
        return st.just(path_parameters)
    return st.one_of(
        st.sampled_from(ids).map(lambda fixture: {**path_parameters, "id": fixture}),
        st.just(path_parameters),
    )


# A token exchange profile must reference a deployed action with the
# custom-token-exchange trigger (the seed's 400s); the reference server's
# fixtures have one. Positive cases use it, so schema-valid profiles are
# created; the 400s for other actions are tested in tests/reference_server.rs.
TOKEN_EXCHANGE_ACTION = "act_token_exchange"

FORM = "application/x-www-form-urlencoded"


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    if (
        meta is not None
        and meta.generation.mode.is_positive
        and case.operation.path == "/token-exchange-profiles"
        and isinstance(case.body, dict)
        and "action_id" in case.body
    ):
        case.body = {**case.body, "action_id": TOKEN_EXCHANGE_ACTION}
    return case


def _form_loses(value, negative):
    """Whether schemathesis's form encoding of `value` loses what it means.

    - An empty object or list encodes as nothing at all, so the server sees
      the field absent (a required nested property "missing" is not sent).
    - A list of lists or objects has no form encoding of its own (a list of
      text encodes as its key once per item, `a=1&a=2`, which the server
      reads as a list: those are tested).
    - In negative cases, a number, boolean or null becomes text, and text is
      what the schema asks for, so the "invalid" value arrives valid.
    - A property named "" encodes as `=value` (or `a[]=value`), which the
      runtime's form decoder refuses ("field name missing"; reported with
      the list case above). JSON bodies with such a property are tested.
    - A property named with digits only (`a[0]=x`) reads as a list position
      in bracket notation, so the runtime sees a list (or refuses the mix of
      list and field syntax); JSON bodies with such a property are tested.
    - A list at the top of the body is handed to the HTTP library as is,
      which sends the keys of each object instead of the bracket notation
      the spec's `deepObject` encoding asks for (`subscriptions=event_type`
      instead of `subscriptions[0][event_type]=...`); see filter_case.
    """
    if isinstance(value, dict):
        return (
            not value
            or any(key == "" or key.isdigit() for key in value)
            or any(_form_loses(child, negative) for child in value.values())
        )
    if isinstance(value, list):
        if not value or any(isinstance(child, (dict, list)) for child in value):
            return True
        return any(_form_loses(child, negative) for child in value)
    return negative and not isinstance(value, str)


@schemathesis.hook
def filter_case(context, case):
    # Form bodies the encoding cannot carry faithfully are skipped: their
    # verdict would be about the encoder, not the server. JSON bodies carry
    # the same values and are always tested.
    if case.media_type != FORM or not isinstance(case.body, dict):
        return True
    meta = case.meta
    negative = meta is not None and not meta.generation.mode.is_positive
    return not any(key == "" or key.isdigit() for key in case.body) and not any(
        _form_loses(child, negative) for child in case.body.values()
    )
