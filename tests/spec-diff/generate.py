"""Writes the spec-diff corpus: one NNN-name/ directory per pair, each with
before.yaml, after.yaml and expected.txt (one expected change per line:
`level direction rule [acknowledged]`). Every pair is base.yaml with a small
edit. Run from anywhere: python3 tests/spec-diff/generate.py. The corpus test
(crates/spec-diff/tests/corpus.rs) reads the directories, not this script."""
import os, re, shutil
out = os.path.dirname(os.path.abspath(__file__))
base = open(os.path.join(out, "base.yaml")).read()
for entry in os.listdir(out):
    if re.match(r"^[0-9]{3}-", entry):
        shutil.rmtree(os.path.join(out, entry))
cases = []
def case(name, edits, expected, reverse=False, note=""):
    cases.append((name, edits, expected, reverse, note))

def apply(text, edits):
    for old, new in edits:
        n = text.count(old)
        assert n == 1, (old, n)
        text = text.replace(old, new)
    return text

GET_RESP = '''      responses:
        "200":
          description: The widget.'''
EXPAND = '''        - name: expand
          in: query
          schema:
            type: string
            maxLength: 20
'''
DELETE = '''  /widgets/{id}:
    delete:
      operationId: delete_widget
      parameters:
        - name: id
          in: path
          required: true
          schema:
            type: string
      responses:
        "204":
          description: Deleted.
    get:
'''
case("no-change", [], [])
case("path-added", [("components:\n  securitySchemes:", '''  /gadgets:
    get:
      operationId: list_gadgets
      responses:
        "200":
          description: The gadgets.
components:
  securitySchemes:''')], ["compatible request api-path-added"])
case("path-removed", [("components:\n  securitySchemes:", '''  /gadgets:
    get:
      operationId: list_gadgets
      responses:
        "200":
          description: The gadgets.
components:
  securitySchemes:''')], ["breaking request api-path-removed"], reverse=True)
case("method-added", [("  /widgets/{id}:\n    get:\n", DELETE)], ["compatible request api-method-added"])
case("method-removed", [("  /widgets/{id}:\n    get:\n", DELETE)], ["breaking request api-method-removed"], reverse=True)
case("operation-moved", [("  /widgets/{id}:", "  /items/{id}:")], ["breaking request operation-moved"])
case("operation-id-changed", [("operationId: get_widget", "operationId: fetch_widget")], ["breaking n/a operation-id-changed"])
case("operation-deprecated", [("      x-release-lifecycle: Beta\n", "      x-release-lifecycle: Beta\n      deprecated: true\n")], ["compatible n/a operation-deprecated"])
case("operation-undeprecated", [("      x-release-lifecycle: Beta\n", "      x-release-lifecycle: Beta\n      deprecated: true\n")], ["compatible n/a operation-undeprecated"], reverse=True)
case("lifecycle-changed", [("x-release-lifecycle: Beta", "x-release-lifecycle: Deprecated")], ["compatible n/a operation-lifecycle-changed"])
case("lifecycle-removed", [("      x-release-lifecycle: Beta\n", "")], ["compatible n/a operation-lifecycle-changed"])
case("required-parameter-added", [(EXPAND, EXPAND + '''        - name: version
          in: query
          required: true
          schema:
            type: string
''')], ["breaking request request-required-parameter-added"])
case("optional-parameter-added", [(EXPAND, EXPAND + '''        - name: fields
          in: query
          schema:
            type: string
''')], ["compatible request request-optional-parameter-added"])
case("parameter-removed", [(EXPAND, "")], ["possibly-breaking request request-parameter-removed"])
case("parameter-became-required", [("        - name: expand\n          in: query\n", "        - name: expand\n          in: query\n          required: true\n")], ["breaking request request-parameter-became-required"])
case("parameter-became-optional", [("        - name: expand\n          in: query\n", "        - name: expand\n          in: query\n          required: true\n")], ["compatible request request-parameter-became-optional"], reverse=True)
case("parameter-type-changed", [("            type: string\n            maxLength: 20\n", "            type: integer\n")], ["breaking request request-type-changed"])
case("parameter-max-length-decreased", [("maxLength: 20", "maxLength: 10")], ["breaking request request-max-length-decreased"])
case("parameter-max-length-increased", [("maxLength: 20", "maxLength: 40")], ["compatible request request-max-length-increased"])
case("request-body-became-optional", [("      requestBody:\n        required: true\n", "      requestBody:\n        required: false\n")], ["compatible request request-body-became-optional"])
case("request-body-became-required", [("      requestBody:\n        required: true\n", "      requestBody:\n        required: false\n")], ["breaking request request-body-became-required"], reverse=True)
FORM = '''              $ref: "#/components/schemas/CreateWidget"
'''
case("request-media-type-added", [(FORM, FORM + '''          application/x-www-form-urlencoded:
            schema:
              $ref: "#/components/schemas/CreateWidget"
''')], ["compatible request request-media-type-added"])
case("request-media-type-removed", [(FORM, FORM + '''          application/x-www-form-urlencoded:
            schema:
              $ref: "#/components/schemas/CreateWidget"
''')], ["breaking request request-media-type-removed"], reverse=True)
BODY = '''      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/CreateWidget"
'''
case("request-body-removed", [(BODY, "")], ["breaking request request-body-removed"],
     note="CreateWidget stays in the components, now unused")
GET_BODY_OPT = '''      requestBody:
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/Error"
''' + GET_RESP
GET_BODY_REQ = '''      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/Error"
''' + GET_RESP
case("optional-request-body-added", [(GET_RESP, GET_BODY_OPT)], ["compatible request request-optional-body-added"])
case("required-request-body-added", [(GET_RESP, GET_BODY_REQ)], ["breaking request request-required-body-added"])

CW_REQ = "      required: [name, kind]\n"
SECRET = '''        secret:
          type: string
          writeOnly: true
'''
case("request-required-property-added", [(CW_REQ, "      required: [name, kind, color]\n"), (SECRET, SECRET + "        color:\n          type: string\n")], ["breaking request request-required-property-added"])
case("request-optional-property-added", [(SECRET, SECRET + "        color:\n          type: string\n")], ["compatible request request-optional-property-added"])
CW_TAGS = '''        tags:
          type: array
          maxItems: 5
          items:
            type: string
        shape:
          $ref: "#/components/schemas/Shape"
        metadata:'''
case("request-property-removed-closed-object", [(CW_TAGS, '''        shape:
          $ref: "#/components/schemas/Shape"
        metadata:''')], ["breaking request request-property-removed"])
NOTE = '''        note:
          type: string
    WidgetKind:'''
case("response-optional-property-removed", [(NOTE, "    WidgetKind:")], ["possibly-breaking response response-property-removed"])
W_REQ = "      required: [id, name, kind, created_at]\n"
CREATED = '''        created_at:
          type: string
          format: date-time
'''
case("response-required-property-removed", [(W_REQ, "      required: [id, name, kind]\n"), (CREATED, "")], ["breaking response response-property-removed"])
case("request-property-became-required", [(CW_REQ, "      required: [name, kind, size]\n")], ["breaking request request-property-became-required"])
case("response-property-became-optional", [(W_REQ, "      required: [id, kind, created_at]\n")], ["breaking response response-property-became-optional"])
case("request-property-became-optional", [(CW_REQ, "      required: [name]\n")], ["compatible request request-property-became-optional"])
case("response-property-became-required", [(W_REQ, "      required: [id, name, kind, created_at, note]\n")], ["compatible response response-property-became-required"])
case("response-optional-property-added", [(NOTE, "        note:\n          type: string\n        color:\n          type: string\n    WidgetKind:")], ["compatible response response-optional-property-added"])
W_SIZE = '''        size:
          type: integer
          maximum: 100
        tags:'''
case("response-property-type-changed", [(W_SIZE, "        size:\n          type: string\n        tags:")], ["breaking response response-type-changed"])
case("response-format-added", [(NOTE, "        note:\n          type: string\n          format: uri\n    WidgetKind:")], ["compatible response response-format-added"])
case("response-format-removed", [(CREATED, "        created_at:\n          type: string\n")], ["possibly-breaking response response-format-removed"])
case("request-format-added", [(SECRET, "        secret:\n          type: string\n          format: password\n          writeOnly: true\n")], ["breaking request request-format-added"])
case("request-format-changed", [(SECRET, "        secret:\n          type: string\n          format: password\n          writeOnly: true\n")], ["breaking request request-format-changed"],
     note="after: format byte instead of password")
CW_NAME = '''          minLength: 3
          maxLength: 64
          pattern: "^[a-z ]+$"'''
case("request-max-length-decreased", [(CW_NAME, CW_NAME.replace("64", "32"))], ["breaking request request-max-length-decreased"])
case("request-max-length-increased", [(CW_NAME, CW_NAME.replace("64", "128"))], ["compatible request request-max-length-increased"])
W_NAME = '''        name:
          type: string
          maxLength: 64
        kind:'''
case("response-max-length-increased", [(W_NAME, W_NAME.replace("64", "128"))], ["possibly-breaking response response-max-length-increased"])
case("response-max-length-decreased", [(W_NAME, W_NAME.replace("64", "32"))], ["compatible response response-max-length-decreased"])
case("request-min-length-increased", [(CW_NAME, CW_NAME.replace("minLength: 3", "minLength: 5"))], ["breaking request request-min-length-increased"])
case("request-min-length-decreased", [(CW_NAME, CW_NAME.replace("minLength: 3", "minLength: 1"))], ["compatible request request-min-length-decreased"])
case("request-min-length-removed", [(CW_NAME, CW_NAME.replace("          minLength: 3\n", ""))], ["compatible request request-min-length-removed"])
CW_SIZE = '''          minimum: 1
          maximum: 100
          default: 10'''
case("request-maximum-decreased", [(CW_SIZE, CW_SIZE.replace("100", "50"))], ["breaking request request-maximum-decreased"])
case("request-minimum-increased", [(CW_SIZE, CW_SIZE.replace("minimum: 1", "minimum: 5"))], ["breaking request request-minimum-increased"])
case("response-maximum-removed", [(W_SIZE, "        size:\n          type: integer\n        tags:")], ["possibly-breaking response response-maximum-removed"])
case("request-max-items-decreased", [(CW_TAGS, CW_TAGS.replace("maxItems: 5", "maxItems: 3"))], ["breaking request request-max-items-decreased"])
case("request-min-items-added", [(CW_TAGS, CW_TAGS.replace("maxItems: 5", "maxItems: 5\n          minItems: 1"))], ["breaking request request-min-items-added"])
case("request-unique-items-added", [(CW_TAGS, CW_TAGS.replace("maxItems: 5", "maxItems: 5\n          uniqueItems: true"))], ["breaking request request-unique-items-added"])
W_TAGS = '''        tags:
          type: array
          maxItems: 5
          items:
            type: string
        shape:
          $ref: "#/components/schemas/Shape"
        created_at:'''
case("response-max-items-increased", [(W_TAGS, W_TAGS.replace("maxItems: 5", "maxItems: 10"))], ["possibly-breaking response response-max-items-increased"])
case("request-pattern-changed", [(CW_NAME, CW_NAME.replace("a-z ", "a-z"))], ["breaking request request-pattern-changed"])
case("request-pattern-removed", [(CW_NAME, CW_NAME.replace('\n          pattern: "^[a-z ]+$"', ""))], ["compatible request request-pattern-removed"])
KIND = "      enum: [small, large]\n"
case("enum-value-added", [(KIND, "      enum: [small, large, huge]\n")], ["possibly-breaking response response-enum-value-added"],
     note="WidgetKind is used in requests and responses: the response side decides")
case("enum-value-removed", [(KIND, "      enum: [small]\n")], ["breaking request request-enum-value-removed"])
case("response-enum-added", [(NOTE, "        note:\n          type: string\n          enum: [a, b]\n    WidgetKind:")], ["compatible response response-enum-added"])
case("response-enum-removed", [(NOTE, "        note:\n          type: string\n          enum: [a, b]\n    WidgetKind:")], ["possibly-breaking response response-enum-removed"], reverse=True)
W_ID = '''        id:
          type: string
          readOnly: true
'''
case("response-nullable-added", [(W_ID, W_ID + "          nullable: true\n")], ["breaking response response-nullable-added"])
CW_SIZE_T = "        size:\n          type: integer\n          minimum: 1"
case("request-nullable-added", [(CW_SIZE_T, "        size:\n          type: integer\n          nullable: true\n          minimum: 1")], ["compatible request request-nullable-added"])
case("request-nullable-removed", [(CW_SIZE_T, "        size:\n          type: integer\n          nullable: true\n          minimum: 1")], ["breaking request request-nullable-removed"], reverse=True)
case("response-read-only-added", [(NOTE, "        note:\n          type: string\n          readOnly: true\n    WidgetKind:")], ["compatible response response-read-only-added"])
case("response-read-only-removed", [(W_ID, "        id:\n          type: string\n")], ["compatible response response-read-only-removed"])
case("request-write-only-removed", [(SECRET, "        secret:\n          type: string\n")], ["compatible request request-write-only-removed"])
case("response-write-only-added", [(NOTE, "        note:\n          type: string\n          writeOnly: true\n    WidgetKind:")], ["breaking response response-write-only-added"])
case("response-property-deprecated", [(NOTE, "        note:\n          type: string\n          deprecated: true\n    WidgetKind:")], ["compatible response response-deprecated-added"])
case("response-property-undeprecated", [(NOTE, "        note:\n          type: string\n          deprecated: true\n    WidgetKind:")], ["compatible response response-deprecated-removed"], reverse=True)
case("request-unique-items-removed", [(CW_TAGS, CW_TAGS.replace("maxItems: 5", "maxItems: 5\n          uniqueItems: true"))], ["compatible request request-unique-items-removed"], reverse=True)
case("request-pattern-added", [(CW_NAME, CW_NAME.replace('\n          pattern: "^[a-z ]+$"', ""))], ["breaking request request-pattern-added"], reverse=True)
case("request-default-changed", [(CW_SIZE, CW_SIZE.replace("default: 10", "default: 20"))], ["possibly-breaking request request-default-changed"])
case("request-additional-properties-loosened", [("    CreateWidget:\n      type: object\n      additionalProperties: false\n", "    CreateWidget:\n      type: object\n")], ["compatible request request-additional-properties-loosened"])
case("response-additional-properties-tightened", [("    Widget:\n      type: object\n", "    Widget:\n      type: object\n      additionalProperties: false\n")], ["compatible response response-additional-properties-tightened"])
META = '''      additionalProperties:
        type: string
    Error:'''
case("additional-properties-schema-changed", [(META, META.replace("string", "integer"))], ["breaking request request-type-changed"])
case("request-max-properties-added", [(META, "      maxProperties: 10\n" + META)], ["breaking request request-max-properties-added"])
SHAPE = '''        - $ref: "#/components/schemas/Square"
      discriminator:
        propertyName: type
        mapping:
          circle: "#/components/schemas/Circle"
          square: "#/components/schemas/Square"
'''
TRIANGLE = '''    Triangle:
      type: object
      required: [type, base]
      properties:
        type:
          type: string
        base:
          type: number
    Metadata:'''
case("one-of-member-added", [(SHAPE, '''        - $ref: "#/components/schemas/Square"
        - $ref: "#/components/schemas/Triangle"
      discriminator:
        propertyName: type
        mapping:
          circle: "#/components/schemas/Circle"
          square: "#/components/schemas/Square"
          triangle: "#/components/schemas/Triangle"
'''), ("    Metadata:", TRIANGLE)],
     ["breaking response response-one-of-member-added", "possibly-breaking response response-discriminator-mapping-added", "compatible n/a schema-component-added"],
     note="issue 21: breaking, not possibly: the generated client's union is an enum, which fails on the new member and breaks exhaustive matches")
case("one-of-member-removed", [(SHAPE, '''      discriminator:
        propertyName: type
        mapping:
          circle: "#/components/schemas/Circle"
''')], ["breaking request request-one-of-member-removed", "breaking request request-discriminator-mapping-removed"])
case("discriminator-property-changed", [(SHAPE, SHAPE.replace("propertyName: type", "propertyName: kind"))], ["breaking both schema-discriminator-property-changed"])
case("discriminator-removed", [(SHAPE, '        - $ref: "#/components/schemas/Square"\n')], ["possibly-breaking both schema-discriminator-removed"])
case("discriminator-added", [(SHAPE, '        - $ref: "#/components/schemas/Square"\n')], ["possibly-breaking both schema-discriminator-added"], reverse=True)
case("discriminator-mapping-changed", [(SHAPE, SHAPE.replace('circle: "#/components/schemas/Circle"', 'circle: "#/components/schemas/Square"'))], ["breaking both schema-discriminator-mapping-changed"])
CW_META = '''        metadata:
          $ref: "#/components/schemas/Metadata"
'''
case("all-of-members-added", [(CW_META, '''        metadata:
          allOf:
            - $ref: "#/components/schemas/Metadata"
            - maxProperties: 3
''')], ["breaking request request-all-of-member-added", "breaking request request-all-of-member-added", "compatible request request-additional-properties-loosened"],
     note="the inline allOf has no additionalProperties of its own, so the resolved comparison also sees it loosened")
case("any-of-member-added", [(CW_META, '''        metadata:
          anyOf:
            - $ref: "#/components/schemas/Metadata"
''')], ["compatible request request-any-of-member-added", "compatible request request-additional-properties-loosened"])
case("all-of-members-removed", [(CW_META, '''        metadata:
          allOf:
            - $ref: "#/components/schemas/Metadata"
            - maxProperties: 3
''')], ["compatible request request-all-of-member-removed", "compatible request request-all-of-member-removed", "breaking request request-additional-properties-tightened", "compatible n/a rust-api-changed"], reverse=True,
     note="the field's Rust type goes back from an inline type to `Metadata`: a Rust-only change")
case("any-of-member-removed", [(CW_META, '''        metadata:
          anyOf:
            - $ref: "#/components/schemas/Metadata"
''')], ["breaking request request-any-of-member-removed", "breaking request request-additional-properties-tightened"], reverse=True,
     note="typify makes a one-member anyOf the member's type: the field is `Option<Metadata>` in both versions, so the Rust API does not change (a model of typify's naming said it did)")
S201 = '''        "201":
          description: Created.'''
case("response-success-status-added", [(S201, '''        "202":
          description: Accepted.
''' + S201)], ["possibly-breaking response response-success-status-added"])
case("response-non-success-status-added", [('        "429":', '''        "409":
          description: Conflict.
        "429":''')], ["compatible response response-non-success-status-added"])
case("response-success-status-changed", [(S201, '''        "200":
          description: Created.''')], ["breaking response response-success-status-removed", "possibly-breaking response response-success-status-added"])
S400 = '''        "400":
          description: Invalid.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
'''
case("response-non-success-status-removed", [(S400, "")], ["compatible response response-non-success-status-removed"])
S200 = '''          description: The widget.
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Widget"
'''
case("response-media-type-added", [(S200, S200 + '''            application/xml:
              schema:
                $ref: "#/components/schemas/Widget"
''')], ["possibly-breaking response response-media-type-added"])
case("response-media-type-removed", [(S200, S200 + '''            application/xml:
              schema:
                $ref: "#/components/schemas/Widget"
''')], ["breaking response response-media-type-removed"], reverse=True)
HDRS = '''            Retry-After:
              schema:
                type: integer
'''
case("response-header-added", [(HDRS, HDRS + '''            X-Request-Id:
              schema:
                type: string
''')], ["compatible response response-header-added"])
RESET = '''            X-RateLimit-Reset:
              required: true
              schema:
                type: integer
'''
case("response-required-header-removed", [(RESET, "")], ["breaking response response-required-header-removed"])
case("response-optional-header-removed", [(HDRS, "")], ["possibly-breaking response response-optional-header-removed"])
case("response-header-became-optional", [(RESET, RESET.replace("required: true", "required: false"))], ["breaking response response-header-became-optional"])
case("response-header-became-required", [(RESET, RESET.replace("required: true", "required: false"))], ["compatible response response-header-became-required"], reverse=True)
case("response-header-type-changed", [(RESET, RESET.replace("integer", "string"))], ["breaking response response-type-changed"])
OPSEC = "        - oauth: [create:widgets]\n"
case("security-scope-added", [(OPSEC, "        - oauth: [create:widgets, read:widgets]\n")], ["breaking request security-scope-added"])
case("security-scope-removed", [(OPSEC, "        - oauth: [create:widgets, read:widgets]\n")], ["compatible request security-scope-removed"], reverse=True)
case("security-requirement-removed", [(OPSEC, "")], ["possibly-breaking request security-requirement-removed"],
     note="issue 21: not breaking: it asks less; only callers that used this alternative must switch to the one left")
case("security-requirement-added", [("      x-release-lifecycle: Beta\n", "      x-release-lifecycle: Beta\n      security:\n        - bearer: []\n        - oauth: [read:widgets]\n")], ["compatible request security-requirement-added"])
case("security-added-to-open-operation", [("      x-release-lifecycle: Beta\n", "      x-release-lifecycle: Beta\n      security: []\n")], ["breaking request security-requirement-added", "compatible n/a rust-api-changed"], reverse=True,
     note="the requirement is the document's, so the method's new caller type is a Rust change of its own")
case("security-scheme-added", [("  schemas:\n    CreateWidget:", "    apiKey:\n      type: apiKey\n      in: header\n      name: X-Api-Key\n  schemas:\n    CreateWidget:")], ["compatible request security-scheme-added"])
case("security-scheme-removed", [("  schemas:\n    CreateWidget:", "    apiKey:\n      type: apiKey\n      in: header\n      name: X-Api-Key\n  schemas:\n    CreateWidget:")], ["compatible request security-scheme-removed"], reverse=True,
     note="issue 21: defining a scheme asks nothing of callers; operations that stop accepting one are reported by the requirement rules")
case("security-scheme-type-changed", [("      scheme: bearer\n", "      scheme: basic\n")], ["breaking request security-scheme-type-changed"])
case("security-scheme-bearer-format-changed", [("bearerFormat: JWT", "bearerFormat: opaque")], ["possibly-breaking request security-scheme-bearer-format-changed"])
SCOPES = "            read:widgets: Read widgets\n"
case("security-scheme-scope-removed", [(SCOPES, "")], ["possibly-breaking request security-scheme-scope-removed"])
case("security-scheme-scope-added", [(SCOPES, SCOPES + "            delete:widgets: Delete widgets\n")], ["compatible request security-scheme-scope-added"])
case("security-scheme-url-changed", [("tokenUrl: /oauth/token", "tokenUrl: /oauth2/token")], ["possibly-breaking request security-scheme-url-changed"])
FLOW = '''        clientCredentials:
          tokenUrl: /oauth/token
'''
AUTHCODE = '''        authorizationCode:
          authorizationUrl: /authorize
          tokenUrl: /oauth/token
          scopes: {}
'''
case("security-scheme-flow-added", [(FLOW, AUTHCODE + FLOW)], ["compatible request security-scheme-flow-added"])
case("security-scheme-flow-removed", [(FLOW, AUTHCODE + FLOW)], ["breaking request security-scheme-flow-removed"], reverse=True)
SERVER = "  - url: https://{host}/api/v1\n"
case("server-url-added", [(SERVER, SERVER + "  - url: https://eu.example.com/api/v1\n")], ["compatible request server-url-added"])
case("server-host-changed", [(SERVER, "  - url: https://api.example.com/api/v1\n")], ["possibly-breaking request server-url-removed", "compatible request server-url-added"])
case("server-prefix-changed-acknowledges-all", [(SERVER, "  - url: https://{host}/api/v2\n"), (EXPAND, "")], ["breaking request server-url-prefix-changed acknowledged", "possibly-breaking request request-parameter-removed"])
case("server-prefix-changed-with-breaking-change", [(SERVER, "  - url: https://{host}/api/v2\n"), (CW_NAME, CW_NAME.replace("64", "32"))], ["breaking request server-url-prefix-changed acknowledged", "breaking request request-max-length-decreased acknowledged"])
UNUSED = '''    Legacy:
      type: object
      properties:
        code:
          type: string
    Metadata:'''
case("component-added", [("    Metadata:", UNUSED)], ["compatible n/a schema-component-added"])
case("component-removed", [("    Metadata:", UNUSED)], ["compatible n/a schema-component-removed"], reverse=True)
case("unused-component-changed", [("    Metadata:", UNUSED)], ["compatible n/a schema-type-changed"], note="after: Legacy.code becomes an integer: used nowhere, only the types change")
case("acknowledged-breaking-change", [(CW_NAME, CW_NAME.replace("64", "32")), ("servers:\n", '''x-breaking-changes:
  - rule: request-max-length-decreased
    pointer: /components/schemas/CreateWidget/properties/name/maxLength
    reason: Longer names were never stored in full.
servers:
''')], ["breaking request request-max-length-decreased acknowledged"])
case("stale-acknowledgement", [("servers:\n", '''x-breaking-changes:
  - rule: api-path-removed
    pointer: /paths/~1gadgets
    reason: Gadgets were retired.
servers:
''')], [])
case("wrong-acknowledgement-pointer", [(CW_NAME, CW_NAME.replace("64", "32")), ("servers:\n", '''x-breaking-changes:
  - rule: request-max-length-decreased
    pointer: /components/schemas/Widget/properties/name/maxLength
    reason: Wrong place.
servers:
''')], ["breaking request request-max-length-decreased"])
case("ref-retargeted", [('        kind:\n          $ref: "#/components/schemas/WidgetKind"\n        size:\n          type: integer\n          minimum: 1', '        kind:\n          $ref: "#/components/schemas/WidgetKindV2"\n        size:\n          type: integer\n          minimum: 1'),
                        ("    Shape:\n", "    WidgetKindV2:\n      type: string\n      enum: [small, large, huge]\n    Shape:\n")],
     ["compatible request request-enum-value-added", "compatible n/a schema-component-added", "compatible n/a rust-api-changed"],
     note="the request now names another enum: its values are compared; the field's Rust type changes")
case("self-referencing-schema", [(NOTE, NOTE.replace("    WidgetKind:", "        parent:\n          $ref: \"#/components/schemas/Widget\"\n    WidgetKind:"))],
     ["compatible response response-optional-property-added"], note="a reference cycle: the walk ends")

# Pairs added after the bound pairs keep the numbers of those: each gives the
# edits of its before and after version of base.yaml.
later = []
def case2(name, before_edits, after_edits, expected, note="", v31=False):
    later.append((name, before_edits, after_edits, expected, note, v31))
# The 3.1 pairs are base.yaml declared 3.1 (it is valid as both).
V31 = ("openapi: 3.0.3", "openapi: 3.1.0")

SERVERS = """servers:
  - url: https://{host}/api/v1
    variables:
      host:
        default: example.com
"""
GADGETS = ("components:\n  securitySchemes:", """  /gadgets:
    get:
      operationId: list_gadgets
      responses:
        "200":
          description: The gadgets.
components:
  securitySchemes:""")
case2("servers-removed-with-path", [GADGETS], [(SERVERS, "")],
      ["possibly-breaking request server-url-removed", "breaking request api-path-removed"],
      note="issue 21: a missing server URL is no new API version, so it acknowledges nothing (this used to pass CI)")
case2("servers-added-with-version-and-path-removed", [GADGETS, (SERVERS, "")], [(SERVER, "  - url: https://{host}/api/v2\n")],
      ["compatible request server-url-added", "breaking request api-path-removed"],
      note="issue 21: the base had no server URL, so no version changed: nothing is acknowledged")
case2("server-version-removed-with-breaking-change", [], [(SERVER, "  - url: https://{host}/api\n"), (CW_NAME, CW_NAME.replace("64", "32"))],
      ["possibly-breaking request server-url-removed", "compatible request server-url-added", "breaking request request-max-length-decreased"],
      note="issue 21: a path prefix without a version is no new version")
case2("server-path-changed-same-version", [], [(SERVER, "  - url: https://{host}/widgets/v1\n"), (CW_NAME, CW_NAME.replace("64", "32"))],
      ["possibly-breaking request server-url-removed", "compatible request server-url-added", "breaking request request-max-length-decreased"],
      note="issue 21: the prefix changed but the version did not")

# Issue 21: classifications corrected where the peer's verdict is right.
OP_SECURITY = "      security:\n        - bearer: []\n" + OPSEC
case2("security-requirements-removed-operation-open", [], [(OP_SECURITY, "      security: []\n")],
      ["compatible request security-requirement-removed", "compatible request security-requirement-removed"],
      note="issue 21: removing requirements asks less of callers; here the operation is open afterwards")
CW_SIZE_INT = "        size:\n          type: integer\n          minimum: 1"
CW_SIZE_NUM = "        size:\n          type: number\n          minimum: 1"
case2("request-type-widened", [], [(CW_SIZE_INT, CW_SIZE_NUM)], ["compatible request request-type-widened"],
      note="issue 21: every integer is a number, so every request valid before still is")
case2("request-type-narrowed", [(CW_SIZE_INT, CW_SIZE_NUM)], [], ["breaking request request-type-narrowed"])
W_SIZE_NUM = W_SIZE.replace("integer", "number")
case2("response-type-narrowed", [(W_SIZE, W_SIZE_NUM)], [], ["compatible response response-type-narrowed"],
      note="issue 21: every integer the server now sends is a number the old reader accepts")
case2("response-type-widened", [], [(W_SIZE, W_SIZE_NUM)], ["breaking response response-type-widened"],
      note="a reader of integers may now get 1.5")
EXPAND_NUM = EXPAND.replace("type: string\n            maxLength: 20", "type: number")
case2("parameter-number-to-string", [(EXPAND, EXPAND_NUM)], [(EXPAND, EXPAND.replace("            maxLength: 20\n", ""))],
      ["compatible request request-type-widened"],
      note="issue 21: a query parameter travels as text, so every number is still a valid string")
case2("parameter-string-to-number", [(EXPAND, EXPAND.replace("            maxLength: 20\n", ""))], [(EXPAND, EXPAND_NUM)],
      ["breaking request request-type-changed"], note="a string is no number: changed, not narrowed (as pair 017)")
CW_KIND = '        kind:\n          $ref: "#/components/schemas/WidgetKind"\n        size:\n          type: integer\n          minimum: 1'
CW_KIND_INLINE = '        kind:\n          type: string\n          enum: [small, large]\n        size:\n          type: integer\n          minimum: 1'
case2("inline-schema-replaced-by-ref", [(CW_KIND, CW_KIND_INLINE)], [], ["compatible n/a rust-api-changed", "compatible n/a rust-api-changed"],
      note="issue 21: the same schema, written once inline and once as a $ref, is no HTTP change; only the Rust field's type is renamed")
case2("ref-replaced-by-inline-schema", [], [(CW_KIND, CW_KIND_INLINE)], ["compatible n/a rust-api-changed"],
      note="issue 21: the reverse")
ANY_REF = "        note:\n          type: string\n        state:\n          anyOf:\n            - $ref: \"#/components/schemas/WidgetKind\"\n            - type: integer\n    WidgetKind:"
ANY_INLINE = "        note:\n          type: string\n        state:\n          anyOf:\n            - type: integer\n            - type: string\n              enum: [small, large]\n    WidgetKind:"
case2("any-of-enum-member-inlined", [(NOTE, ANY_REF)], [(NOTE, ANY_INLINE)], ["compatible n/a rust-api-changed"] * 3,
      note="issue 21: an anyOf member given by $ref replaced by the equal inline enum (and moved) is no member removed; the Rust union's variants change (as emitted: `WidgetKind(WidgetKind)` removed, `String(WidgetStateString)` added), and `WidgetKind`, no longer reached from a union, gains its catch-all `Unknown`")
case2("empty-pattern-added", [], [(SECRET, SECRET + "          pattern: \"\"\n")], ["compatible n/a rust-api-changed"],
      note="issue 21: an empty pattern matches every string: no HTTP constraint (typify still makes the field a pattern newtype)")
case2("pattern-set-from-empty", [(SECRET, SECRET + "          pattern: \"\"\n")], [(SECRET, SECRET + "          pattern: \"^[a-z]+$\"\n")],
      ["breaking request request-pattern-added"], note="an empty pattern was no constraint, so this one is new")
ESCAPED = [('$ref: "#/components/schemas/Metadata"', '$ref: "#/components/schemas/Meta~1da~0ta"'), ("    Metadata:\n", '    "Meta/da~ta":\n')]
case2("escaped-schema-name-changed", ESCAPED, ESCAPED + [(META, "      maxProperties: 10\n" + META)], ["breaking request request-max-properties-added"],
      note="a schema whose name needs escaping in a pointer (`/`, `~`) is still found used by requests (escaped once, unescaped once)")

# Issue 21: 3.1 documents compared as written, and the families not compared before.
BOUNDS31 = [("exclusiveMaximum", "exclusive-maximum", "type: integer"), ("exclusiveMinimum", "exclusive-minimum", "type: integer"),
            ("maxContains", "max-contains", "type: array\n            items:\n              type: string\n            contains:\n              const: a"),
            ("minContains", "min-contains", "type: array\n            items:\n              type: string\n            contains:\n              const: a")]
for keyword, kind, ty in BOUNDS31:
    upper = keyword.startswith("max") or keyword == "exclusiveMaximum"
    def block(value, ty=ty, keyword=keyword):
        text = "        - name: expand\n          in: query\n          schema:\n            " + ty + "\n"
        if value is not None:
            text += f"            {keyword}: {value}\n"
        return text
    for change, old, new in [("added", None, 5), ("removed", 5, None), ("increased", 5, 8), ("decreased", 8, 5)]:
        tightened = change == "added" or (change == "decreased" and upper) or (change == "increased" and not upper)
        level = "breaking" if tightened else "compatible"
        case2(f"parameter-{kind}-{change}-3-1", [(EXPAND, block(old))], [(EXPAND, block(new))], [f"{level} request request-{kind}-{change}"],
              note="3.1, compared as written: the pointer names the keyword in the file", v31=True)
case2("exclusive-maximum-flag-set-3-0", [], [(CW_SIZE, CW_SIZE.replace("maximum: 100", "maximum: 100\n          exclusiveMaximum: true"))],
      ["breaking request request-exclusive-maximum-added"], note="3.0 writes an exclusive bound as a flag beside `maximum`")
W_NOTE_CONST = "        note:\n          type: string\n          const: a\n    WidgetKind:"
case2("response-const-changed", [(NOTE, W_NOTE_CONST)], [(NOTE, W_NOTE_CONST.replace("const: a", "const: b"))],
      ["breaking response response-const-changed"], v31=True,
      note="issue 21: swapping the only value a response may carry breaks its readers (it was one value added, one removed)")
case2("response-const-removed", [(NOTE, W_NOTE_CONST)], [], ["possibly-breaking response response-const-removed"], v31=True)
case2("request-const-added", [], [(SECRET, SECRET + "          const: s3cret\n")], ["breaking request request-const-added"], v31=True)
CW_TAGS_CONTAINS = CW_TAGS.replace("            type: string\n", "            type: string\n          contains:\n            const: red\n")
case2("request-contains-added", [], [(CW_TAGS, CW_TAGS_CONTAINS)], ["breaking request request-contains-added"], v31=True)
case2("request-contains-removed", [(CW_TAGS, CW_TAGS_CONTAINS)], [], ["compatible request request-contains-removed"], v31=True)
case2("request-contains-changed", [(CW_TAGS, CW_TAGS_CONTAINS)], [(CW_TAGS, CW_TAGS_CONTAINS.replace("const: red", "const: blue"))],
      ["breaking request request-const-changed"], v31=True, note="the contains schema is compared as a schema")
CW_DEP = "      required: [name, kind]\n      dependentRequired:\n        size: [tags]\n"
case2("request-dependent-required-added", [], [(CW_REQ, CW_DEP)], ["breaking request request-dependent-required-added"], v31=True)
case2("request-dependent-required-removed", [(CW_REQ, CW_DEP)], [], ["compatible request request-dependent-required-removed"], v31=True)
W_NOTE_MEDIA = "        note:\n          type: string\n          contentMediaType: text/html\n          contentEncoding: base64\n    WidgetKind:"
case2("response-content-keywords-added", [], [(NOTE, W_NOTE_MEDIA)],
      ["compatible response response-content-media-type-added", "compatible response response-content-encoding-added"], v31=True)
case2("response-content-keywords-removed", [(NOTE, W_NOTE_MEDIA)], [],
      ["possibly-breaking response response-content-media-type-removed", "possibly-breaking response response-content-encoding-removed"], v31=True)
SECRET_MEDIA = SECRET + "          contentMediaType: text/plain\n          contentEncoding: base64\n"
case2("request-content-keywords-changed", [(SECRET, SECRET_MEDIA)], [(SECRET, SECRET_MEDIA.replace("text/plain", "text/html").replace("base64", "base32"))],
      ["breaking request request-content-media-type-changed", "breaking request request-content-encoding-changed"], v31=True)
case2("response-nullable-added-3-1", [], [(W_ID, "        id:\n          type: [string, \"null\"]\n          readOnly: true\n")],
      ["breaking response response-nullable-added"], v31=True, note="3.1 allows null by a type list: the pointer names `type`")
REFUSED = """    CreateWidget:
      type: object
      if:
        properties:
          kind:
            const: large
      then:
        required: [size]
      prefixItems: []
      patternProperties:
        "^x-":
          type: string
      propertyNames:
        maxLength: 20
      unevaluatedProperties: false
      dependentSchemas:
        size:
          required: [tags]
"""
CW_HEAD = "    CreateWidget:\n      type: object\n"
case2("constructs-the-generator-refused-are-compared", [(CW_HEAD, REFUSED)], [(CW_HEAD, REFUSED), (CW_NAME, CW_NAME.replace("64", "32"))],
      ["breaking request request-max-length-decreased"], v31=True,
      note="issue 21: a description with if, prefixItems, patternProperties, propertyNames, unevaluated*, dependentSchemas is compared")
case2("unclassified-keyword-changed", [(CW_HEAD, REFUSED)], [(CW_HEAD, REFUSED.replace("const: large", "const: small"))],
      ["possibly-breaking request request-keyword-changed"], v31=True,
      note="a change inside a keyword spec-diff does not classify is reported for review, not ignored")
HOOKS = """webhooks:
  widgetCreated:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [id]
              properties:
                id:
                  type: string
      responses:
        "200":
          description: Received.
          content:
            application/json:
              schema:
                type: object
                properties:
                  ok:
                    type: boolean
components:
  securitySchemes:"""
HOOKS_AT = ("components:\n  securitySchemes:", HOOKS)
case2("webhook-added", [], [HOOKS_AT], ["compatible response webhook-added"], v31=True)
case2("webhook-removed", [HOOKS_AT], [], ["possibly-breaking response webhook-removed"], v31=True)
case2("webhook-payload-required-property-removed", [HOOKS_AT], [(HOOKS_AT[0], HOOKS.replace("              required: [id]\n", "").replace("                id:\n                  type: string\n", "                name:\n                  type: string\n"))],
      ["breaking response response-property-removed", "compatible response response-optional-property-added"], v31=True,
      note="a webhook's payload is what callers receive: compared as a response")
case2("webhook-answer-property-became-required", [HOOKS_AT], [(HOOKS_AT[0], HOOKS.replace("                properties:\n                  ok:", "                required: [ok]\n                properties:\n                  ok:"))],
      ["breaking request request-property-became-required"], v31=True,
      note="what callers answer to a webhook is what they send: compared as a request")
BODY_SCHEMA = """          application/json:
            schema:
              $ref: "#/components/schemas/CreateWidget"
      responses:"""
case2("request-body-schema-added", [(BODY_SCHEMA, "          application/json: {}\n      responses:")], [],
      ["breaking request request-body-schema-added"], note="issue 21: a media type without a schema takes any body; one constrains requests")
case2("request-body-schema-removed", [], [(BODY_SCHEMA, "          application/json: {}\n      responses:")],
      ["compatible request request-body-schema-removed"])
CW_KIND = """        kind:
          $ref: "#/components/schemas/WidgetKind"
        size:
          type: integer
          minimum: 1
"""
CW_KIND_BOUNDED = CW_KIND.replace('WidgetKind"\n', 'WidgetKind"\n          maxLength: 8\n')
case2("request-max-length-added-beside-ref-3-1", [], [(CW_KIND, CW_KIND_BOUNDED)],
      ["breaking request request-max-length-added"], v31=True,
      note="issue 21: in 3.1 the keywords beside a $ref constrain the value too")
case2("max-length-beside-ref-ignored-3-0", [], [(CW_KIND, CW_KIND_BOUNDED)], [],
      note="3.0 ignores the siblings of a $ref, so adding one changes nothing")
INTERIM = (S201, '        "102":\n          description: Still processing.\n' + S201)
case2("rust-api-modelled-where-the-generator-refuses", [INTERIM], [INTERIM, (SECRET, SECRET + "        color:\n          type: string\n")],
      ["compatible request request-optional-property-added"],
      note="the generator refuses both versions (a 1xx response, valid OpenAPI): the Rust effects are modelled from the documents, and each says so")

# Issue 33: how a parameter is written on the wire, compared as the generator
# lowers it (defaults applied), a path parameter renamed in its template, a
# response's discriminator values, and a text body's type.
def query(name, ty, extra=""):
    return f"        - name: {name}\n          in: query\n{extra}          schema:\n{ty}"
LIST = "            type: array\n            items:\n              type: string\n"
OBJECT = "            type: object\n            properties:\n              color:\n                type: string\n"
TAGS = query("tags", LIST)
FILTER = query("filter", OBJECT)
case2("parameter-explode-cleared-on-list", [(EXPAND, EXPAND + TAGS)], [(EXPAND, EXPAND + query("tags", LIST, "          explode: false\n"))],
      ["breaking request request-parameter-explode-changed"],
      note="issue 33: `form` explodes by default, so `tags=a&tags=b` becomes `tags=a,b`")
PATH_ID = "        - name: id\n          in: path\n          required: true\n"
case2("parameter-serialization-defaults-written-out", [(EXPAND, EXPAND + TAGS)],
      [(EXPAND, EXPAND + query("tags", LIST, "          style: form\n          explode: true\n")), (PATH_ID, PATH_ID + "          style: simple\n          explode: false\n")], [],
      note="issue 33: the query's default is `form`, exploded; the path's `simple`, not exploded: written out, they are no change")
case2("parameter-explode-cleared-on-single-value", [], [(EXPAND, query("expand", "            type: string\n            maxLength: 20\n", "          explode: false\n"))], [],
      note="issue 33: one value is written alike exploded or not")
HEADER_OBJECT = "        - name: X-Trace\n          in: header\n          schema:\n" + OBJECT
case2("header-parameter-exploded", [(EXPAND, EXPAND + HEADER_OBJECT)], [(EXPAND, EXPAND + HEADER_OBJECT.replace("in: header\n", "in: header\n          explode: true\n"))],
      ["breaking request request-parameter-explode-changed"],
      note="issue 33: a header's default is `simple`, not exploded: exploded, `color,red` becomes `color=red`")
case2("parameter-style-form-to-deep-object", [(EXPAND, EXPAND + FILTER)], [(EXPAND, EXPAND + query("filter", OBJECT, "          style: deepObject\n          explode: true\n"))],
      ["breaking request request-parameter-style-changed"],
      note="issue 33: `color=red` becomes `filter[color]=red`")
FILTER_JSON = ("        - name: filter\n          in: query\n          content:\n            application/json:\n              schema:\n"
               + "".join("    " + line + "\n" for line in OBJECT.splitlines()))
case2("parameter-content-json-instead-of-style", [(EXPAND, EXPAND + FILTER)], [(EXPAND, EXPAND + FILTER_JSON)],
      ["breaking request request-parameter-encoding-changed"],
      note="issue 33: `color=red` becomes `filter={\"color\":\"red\"}`")
RESERVED = query("expand", "            type: string\n            maxLength: 20\n", "          allowReserved: true\n")
case2("parameter-allow-reserved-added", [], [(EXPAND, RESERVED)], ["compatible request request-parameter-allow-reserved-added"])
case2("parameter-allow-reserved-removed", [(EXPAND, RESERVED)], [], ["breaking request request-parameter-allow-reserved-removed"])
EMPTY = query("expand", "            type: string\n            maxLength: 20\n", "          allowEmptyValue: true\n")
case2("parameter-allow-empty-value-added", [], [(EXPAND, EMPTY)], ["compatible request request-parameter-allow-empty-value-added"])
case2("parameter-allow-empty-value-removed", [(EXPAND, EMPTY)], [], ["breaking request request-parameter-allow-empty-value-removed"])
case2("parameter-explode-cleared-where-the-generator-refuses", [INTERIM, (EXPAND, EXPAND + TAGS)],
      [INTERIM, (EXPAND, EXPAND + query("tags", LIST, "          explode: false\n"))],
      ["breaking request request-parameter-explode-changed"],
      note="issue 33: the generator refuses both versions (a 1xx response, as in pair 214), so it lowers the operation alone")
case2("path-parameter-renamed", [], [("  /widgets/{id}:", "  /widgets/{widgetId}:"), ("        - name: id\n          in: path", "        - name: widgetId\n          in: path")],
      ["compatible n/a path-parameter-renamed"],
      note="issue 33: the same template, so the same URLs (it was the operation moved, with `id` removed and `widgetId` added); the client's builder argument and the trait's argument are renamed")
CW_SHAPE = '        shape:\n          $ref: "#/components/schemas/Shape"\n        metadata:'
RESPONSE_SHAPE = [(CW_SHAPE, "        metadata:")]
CIRCLE = '          circle: "#/components/schemas/Circle"\n'
case2("response-discriminator-mapping-renamed", RESPONSE_SHAPE, RESPONSE_SHAPE + [(CIRCLE, CIRCLE.replace("circle:", "round:"))],
      ["breaking response response-discriminator-mapping-renamed"],
      note="issue 33: readers matching `circle` no longer match the circles they receive (it was one value removed, one added: possibly breaking)")
case2("response-discriminator-mapping-removed-member-kept", RESPONSE_SHAPE, RESPONSE_SHAPE + [(CIRCLE, "")],
      ["breaking response response-discriminator-mapping-removed"],
      note="issue 33: circles are still sent, now under the value `Circle`, which readers matching `circle` miss (it was compatible)")
XML = "          application/xml:\n            schema:\n"
XML_OBJECT = XML + "              type: object\n              properties:\n                name:\n                  type: string\n"
case2("request-xml-body-object-widened-to-string", [(FORM, FORM + XML_OBJECT)], [(FORM, FORM + XML + "              type: string\n")],
      ["compatible request request-type-widened"],
      note="issue 33: every XML document the old schema took is still a string (oasdiff judges it so; it was a breaking changed type); in JSON it stays changed")

pairs = []
TYPES = {"Length": "type: string", "imum": "type: integer", "Items": "type: array\n            items:\n              type: string", "Properties": "type: object"}
BOUNDS = [("maxLength", "max-length"), ("minLength", "min-length"), ("maximum", "maximum"), ("minimum", "minimum"),
          ("maxItems", "max-items"), ("minItems", "min-items"), ("maxProperties", "max-properties"), ("minProperties", "min-properties")]
def expand_schema(keyword, value):
    ty = next(t for k, t in TYPES.items() if keyword.endswith(k))
    block = "        - name: expand\n          in: query\n          schema:\n            " + ty + "\n"
    if value is not None:
        block += f"            {keyword}: {value}\n"
    return block
for keyword, kind in BOUNDS:
    upper = keyword.startswith("max")
    for change, old, new in [("added", None, 5), ("removed", 5, None), ("increased", 5, 8), ("decreased", 8, 5)]:
        tightened = change == "added" or (change == "decreased" and upper) or (change == "increased" and not upper)
        level = "breaking" if tightened else "compatible"
        pairs.append((f"parameter-{kind}-{change}", expand_schema(keyword, old), expand_schema(keyword, new),
                      [f"{level} request request-{kind}-{change}"]))
case2("security-opened-to-anonymous-callers", [], [(OP_SECURITY, "      security:\n        - {}\n        - bearer: []\n" + OPSEC)],
      ["compatible request security-requirement-added"],
      note="an empty requirement lets callers without credentials in; the server's method now gets an optional caller")
V32 = ("openapi: 3.0.3", "openapi: 3.2.0")
def gadget_lines(id_type):
    return ("components:\n  securitySchemes:", f"""  /gadgets:
    get:
      operationId: list_gadgets
      responses:
        "200":
          description: The gadgets, one per line.
          content:
            application/jsonl:
              itemSchema:
                type: object
                required: [id]
                properties:
                  id:
                    type: {id_type}
components:
  securitySchemes:""")
case2("stream-item-type-changed", [V32, gadget_lines("string")], [V32, gadget_lines("integer")],
      ["breaking response response-type-changed"],
      note="issue 34: OpenAPI 3.2's itemSchema (each line of a JSON Lines response) is compared by the rules of schema")
def console(status):
    return ("components:\n  securitySchemes:", f"""  /console:
    get:
      operationId: open_console
      responses:
        "{status}":
          description: The console.
components:
  securitySchemes:""")
case2("websocket-upgrade-removed", [console("101")], [console("204")],
      ["breaking response response-success-status-removed",
       "possibly-breaking response response-success-status-added"],
      note="issue 34: a 101 is the success of a WebSocket operation; without it the client gets no socket")
fixups = {
    "request-format-changed": lambda before, after: (after.replace("format: password", "format: byte"), after),
    "unused-component-changed": lambda before, after: (after, after.replace("        code:\n          type: string", "        code:\n          type: integer")),
}
for i, (name, edits, expected, reverse, note) in enumerate(cases, 1):
    modified = apply(base, edits)
    before, after = (modified, base) if reverse else (base, modified)
    if name in fixups:
        before, after = fixups[name](before, after)
    d = os.path.join(out, f"{i:03d}-{name}")
    os.makedirs(d)
    open(os.path.join(d, "before.yaml"), "w").write(before)
    open(os.path.join(d, "after.yaml"), "w").write(after)
    text = ""
    if note:
        text += "# " + note + "\n"
    text += "".join(e + "\n" for e in expected)
    open(os.path.join(d, "expected.txt"), "w").write(text)
n = len(cases)
for j, (name, before_block, after_block, expected) in enumerate(pairs, n + 1):
    d = os.path.join(out, f"{j:03d}-{name}")
    os.makedirs(d)
    open(os.path.join(d, "before.yaml"), "w").write(apply(base, [(EXPAND, before_block)]))
    open(os.path.join(d, "after.yaml"), "w").write(apply(base, [(EXPAND, after_block)]))
    open(os.path.join(d, "expected.txt"), "w").write("".join(e + "\n" for e in expected))
m = n + len(pairs)
for k, (name, before_edits, after_edits, expected, note, v31) in enumerate(later, m + 1):
    d = os.path.join(out, f"{k:03d}-{name}")
    os.makedirs(d)
    version = [V31] if v31 else []
    open(os.path.join(d, "before.yaml"), "w").write(apply(base, version + before_edits))
    open(os.path.join(d, "after.yaml"), "w").write(apply(base, version + after_edits))
    text = ("# " + note + "\n") if note else ""
    text += "".join(e + "\n" for e in expected)
    open(os.path.join(d, "expected.txt"), "w").write(text)
print(m + len(later), "cases")
