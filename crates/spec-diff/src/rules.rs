//! Every rule spec-diff reports, as data: one constant per rule binding its
//! id to its area, the side that decides its level, and its effect on each
//! side (with the one exception some rules make, and when). The walker
//! (`crate::walk`) pairs nodes and its family modules pick a rule; this
//! table decides what the rule means, and [`RULES`] lists them all (the
//! corpus test checks each is produced by a pair and nothing else is).
//!
//! Schema rules (those decided by how the schema is used) are reported with
//! the prefix of the side that decides their level: `request-`,
//! `response-`, or `schema-` (both alike, or unused).

use crate::{Direction, Level};

/// The family a rule belongs to: the module of `walk` that applies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    Servers,
    Security,
    Operations,
    Lifecycle,
    Parameters,
    Bodies,
    Responses,
    Webhooks,
    Components,
    Schemas,
    Bounds,
    Enums,
    Composition,
    RustApi,
}

/// The side whose callers a rule's level is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sides {
    /// What callers send.
    Request,
    /// What callers receive.
    Response,
    /// Neither: the change is to names or documentation.
    Neither,
    /// Where the schema is used: requests, responses, both or nowhere.
    ByUsage,
}

/// The level of a change on each side: when the node describes what callers
/// send, and what they receive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Effect {
    pub request: Level,
    pub response: Level,
}

/// A constraint made stricter: breaks senders (requests), safe for receivers.
pub const TIGHTENED: Effect = Effect {
    request: Level::Breaking,
    response: Level::Compatible,
};
/// A constraint relaxed: safe for senders, receivers may get values they did not expect.
pub const LOOSENED: Effect = Effect {
    request: Level::Compatible,
    response: Level::PossiblyBreaking,
};

/// The other effect a rule has under a stated condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exception {
    pub when: &'static str,
    pub effect: Effect,
}

/// One rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The stable id (for a schema rule, without its side prefix).
    pub id: &'static str,
    pub area: Area,
    pub sides: Sides,
    pub effect: Effect,
    pub exception: Option<Exception>,
}

const fn rule(id: &'static str, area: Area, sides: Sides, effect: Effect) -> Rule {
    Rule {
        id,
        area,
        sides,
        effect,
        exception: None,
    }
}

const fn level(level: Level) -> Effect {
    Effect {
        request: level,
        response: level,
    }
}

const fn effect(request: Level, response: Level) -> Effect {
    Effect { request, response }
}

/// A new version segment in the path of a server URL present in both versions: a new API version, which acknowledges every breaking change.
pub const SERVER_URL_PREFIX_CHANGED: Rule = rule(
    "server-url-prefix-changed",
    Area::Servers,
    Sides::Request,
    level(Level::Breaking),
);
/// Callers configured with the URL must move; it acknowledges nothing.
pub const SERVER_URL_REMOVED: Rule = rule(
    "server-url-removed",
    Area::Servers,
    Sides::Request,
    level(Level::PossiblyBreaking),
);
pub const SERVER_URL_ADDED: Rule = rule(
    "server-url-added",
    Area::Servers,
    Sides::Request,
    level(Level::Compatible),
);
/// Defining a scheme asks nothing of callers; operations that stop accepting it are reported by the requirement rules.
pub const SECURITY_SCHEME_REMOVED: Rule = rule(
    "security-scheme-removed",
    Area::Security,
    Sides::Request,
    level(Level::Compatible),
);
pub const SECURITY_SCHEME_ADDED: Rule = rule(
    "security-scheme-added",
    Area::Security,
    Sides::Request,
    level(Level::Compatible),
);
/// `type`, `scheme`, `in` or `name`: credentials sent as before are refused.
pub const SECURITY_SCHEME_TYPE_CHANGED: Rule = rule(
    "security-scheme-type-changed",
    Area::Security,
    Sides::Request,
    level(Level::Breaking),
);
pub const SECURITY_SCHEME_BEARER_FORMAT_CHANGED: Rule = rule(
    "security-scheme-bearer-format-changed",
    Area::Security,
    Sides::Request,
    level(Level::PossiblyBreaking),
);
pub const SECURITY_SCHEME_FLOW_REMOVED: Rule = rule(
    "security-scheme-flow-removed",
    Area::Security,
    Sides::Request,
    level(Level::Breaking),
);
pub const SECURITY_SCHEME_FLOW_ADDED: Rule = rule(
    "security-scheme-flow-added",
    Area::Security,
    Sides::Request,
    level(Level::Compatible),
);
pub const SECURITY_SCHEME_URL_CHANGED: Rule = rule(
    "security-scheme-url-changed",
    Area::Security,
    Sides::Request,
    level(Level::PossiblyBreaking),
);
pub const SECURITY_SCHEME_SCOPE_REMOVED: Rule = rule(
    "security-scheme-scope-removed",
    Area::Security,
    Sides::Request,
    level(Level::PossiblyBreaking),
);
pub const SECURITY_SCHEME_SCOPE_ADDED: Rule = rule(
    "security-scheme-scope-added",
    Area::Security,
    Sides::Request,
    level(Level::Compatible),
);
/// Fewer requirements ask less; a caller that used the removed alternative must switch to one left.
pub const SECURITY_REQUIREMENT_REMOVED: Rule = Rule {
    exception: Some(Exception {
        when: "the operation is open afterwards, or the removed alternative was anonymous",
        effect: level(Level::Compatible),
    }),
    ..rule(
        "security-requirement-removed",
        Area::Security,
        Sides::Request,
        level(Level::PossiblyBreaking),
    )
};
/// Another alternative is harmless.
pub const SECURITY_REQUIREMENT_ADDED: Rule = Rule {
    exception: Some(Exception {
        when: "the operation was open: the first requirement locks every caller out",
        effect: level(Level::Breaking),
    }),
    ..rule(
        "security-requirement-added",
        Area::Security,
        Sides::Request,
        level(Level::Compatible),
    )
};
pub const SECURITY_SCOPE_ADDED: Rule = rule(
    "security-scope-added",
    Area::Security,
    Sides::Request,
    level(Level::Breaking),
);
pub const SECURITY_SCOPE_REMOVED: Rule = rule(
    "security-scope-removed",
    Area::Security,
    Sides::Request,
    level(Level::Compatible),
);
pub const API_PATH_REMOVED: Rule = rule(
    "api-path-removed",
    Area::Operations,
    Sides::Request,
    level(Level::Breaking),
);
pub const API_PATH_ADDED: Rule = rule(
    "api-path-added",
    Area::Operations,
    Sides::Request,
    level(Level::Compatible),
);
pub const API_METHOD_REMOVED: Rule = rule(
    "api-method-removed",
    Area::Operations,
    Sides::Request,
    level(Level::Breaking),
);
pub const API_METHOD_ADDED: Rule = rule(
    "api-method-added",
    Area::Operations,
    Sides::Request,
    level(Level::Compatible),
);
/// The same `operationId` under another path or method.
pub const OPERATION_MOVED: Rule = rule(
    "operation-moved",
    Area::Operations,
    Sides::Request,
    level(Level::Breaking),
);
/// Renames the generated methods.
pub const OPERATION_ID_CHANGED: Rule = rule(
    "operation-id-changed",
    Area::Operations,
    Sides::Neither,
    level(Level::Breaking),
);
pub const OPERATION_DEPRECATED: Rule = rule(
    "operation-deprecated",
    Area::Lifecycle,
    Sides::Neither,
    level(Level::Compatible),
);
pub const OPERATION_UNDEPRECATED: Rule = rule(
    "operation-undeprecated",
    Area::Lifecycle,
    Sides::Neither,
    level(Level::Compatible),
);
/// `x-release-lifecycle`.
pub const OPERATION_LIFECYCLE_CHANGED: Rule = rule(
    "operation-lifecycle-changed",
    Area::Lifecycle,
    Sides::Neither,
    level(Level::Compatible),
);
/// Servers may refuse what they no longer know.
pub const REQUEST_PARAMETER_REMOVED: Rule = rule(
    "request-parameter-removed",
    Area::Parameters,
    Sides::Request,
    level(Level::PossiblyBreaking),
);
pub const REQUEST_PARAMETER_BECAME_REQUIRED: Rule = rule(
    "request-parameter-became-required",
    Area::Parameters,
    Sides::Request,
    level(Level::Breaking),
);
pub const REQUEST_PARAMETER_BECAME_OPTIONAL: Rule = rule(
    "request-parameter-became-optional",
    Area::Parameters,
    Sides::Request,
    level(Level::Compatible),
);
pub const REQUEST_REQUIRED_PARAMETER_ADDED: Rule = rule(
    "request-required-parameter-added",
    Area::Parameters,
    Sides::Request,
    level(Level::Breaking),
);
pub const REQUEST_OPTIONAL_PARAMETER_ADDED: Rule = rule(
    "request-optional-parameter-added",
    Area::Parameters,
    Sides::Request,
    level(Level::Compatible),
);
/// The same place of the same path template under another name (`/items/{id}` to `/items/{itemId}`): the URL sent is the same; the generated client's builder argument and the server's path argument are renamed (its Rust effects say so).
pub const PATH_PARAMETER_RENAMED: Rule = rule(
    "path-parameter-renamed",
    Area::Parameters,
    Sides::Neither,
    level(Level::Compatible),
);
/// `style`, defaults applied (`form` in the query and cookies, `simple` in the path and headers): the same value is written as other text (`form` to `deepObject`, `simple` to `label`), which servers read as another value or refuse.
pub const REQUEST_PARAMETER_STYLE_CHANGED: Rule = rule(
    "request-parameter-style-changed",
    Area::Parameters,
    Sides::Request,
    level(Level::Breaking),
);
/// `explode`, defaults applied (true for `form`, false otherwise), of a list or an object: `ids=1&ids=2` becomes `ids=1,2`, or the reverse. A single value is written alike either way, and is not reported.
pub const REQUEST_PARAMETER_EXPLODE_CHANGED: Rule = rule(
    "request-parameter-explode-changed",
    Area::Parameters,
    Sides::Request,
    level(Level::Breaking),
);
/// The value described by `schema` (written in its style) now by `content` (written as its media type's text), or the reverse, or its content changed between JSON and other text: the same value becomes other text.
pub const REQUEST_PARAMETER_ENCODING_CHANGED: Rule = rule(
    "request-parameter-encoding-changed",
    Area::Parameters,
    Sides::Request,
    level(Level::Breaking),
);
/// `allowReserved` set on a query parameter: reserved characters may now arrive as they are, and percent-encoded ones still decode alike.
pub const REQUEST_PARAMETER_ALLOW_RESERVED_ADDED: Rule = rule(
    "request-parameter-allow-reserved-added",
    Area::Parameters,
    Sides::Request,
    level(Level::Compatible),
);
/// `allowReserved` cleared: reserved characters callers send as they are (`+`, `,`, `/`) the server now decodes as other characters or reads as separators.
pub const REQUEST_PARAMETER_ALLOW_RESERVED_REMOVED: Rule = rule(
    "request-parameter-allow-reserved-removed",
    Area::Parameters,
    Sides::Request,
    level(Level::Breaking),
);
/// `allowEmptyValue` set on a query parameter: `?name=` is now accepted.
pub const REQUEST_PARAMETER_ALLOW_EMPTY_VALUE_ADDED: Rule = rule(
    "request-parameter-allow-empty-value-added",
    Area::Parameters,
    Sides::Request,
    level(Level::Compatible),
);
/// `allowEmptyValue` cleared: callers that send `?name=` may be refused.
pub const REQUEST_PARAMETER_ALLOW_EMPTY_VALUE_REMOVED: Rule = rule(
    "request-parameter-allow-empty-value-removed",
    Area::Parameters,
    Sides::Request,
    level(Level::Breaking),
);
pub const REQUEST_BODY_REMOVED: Rule = rule(
    "request-body-removed",
    Area::Bodies,
    Sides::Request,
    level(Level::Breaking),
);
pub const REQUEST_REQUIRED_BODY_ADDED: Rule = rule(
    "request-required-body-added",
    Area::Bodies,
    Sides::Request,
    level(Level::Breaking),
);
pub const REQUEST_OPTIONAL_BODY_ADDED: Rule = rule(
    "request-optional-body-added",
    Area::Bodies,
    Sides::Request,
    level(Level::Compatible),
);
pub const REQUEST_BODY_BECAME_REQUIRED: Rule = rule(
    "request-body-became-required",
    Area::Bodies,
    Sides::Request,
    level(Level::Breaking),
);
pub const REQUEST_BODY_BECAME_OPTIONAL: Rule = rule(
    "request-body-became-optional",
    Area::Bodies,
    Sides::Request,
    level(Level::Compatible),
);
pub const REQUEST_MEDIA_TYPE_REMOVED: Rule = rule(
    "request-media-type-removed",
    Area::Bodies,
    Sides::Request,
    level(Level::Breaking),
);
pub const REQUEST_MEDIA_TYPE_ADDED: Rule = rule(
    "request-media-type-added",
    Area::Bodies,
    Sides::Request,
    level(Level::Compatible),
);
/// Callers that accept only it get no body they read.
pub const RESPONSE_MEDIA_TYPE_REMOVED: Rule = rule(
    "response-media-type-removed",
    Area::Bodies,
    Sides::Response,
    level(Level::Breaking),
);
pub const RESPONSE_MEDIA_TYPE_ADDED: Rule = rule(
    "response-media-type-added",
    Area::Bodies,
    Sides::Response,
    level(Level::PossiblyBreaking),
);
pub const RESPONSE_SUCCESS_STATUS_REMOVED: Rule = rule(
    "response-success-status-removed",
    Area::Responses,
    Sides::Response,
    level(Level::Breaking),
);
pub const RESPONSE_NON_SUCCESS_STATUS_REMOVED: Rule = rule(
    "response-non-success-status-removed",
    Area::Responses,
    Sides::Response,
    level(Level::Compatible),
);
pub const RESPONSE_SUCCESS_STATUS_ADDED: Rule = rule(
    "response-success-status-added",
    Area::Responses,
    Sides::Response,
    level(Level::PossiblyBreaking),
);
pub const RESPONSE_NON_SUCCESS_STATUS_ADDED: Rule = rule(
    "response-non-success-status-added",
    Area::Responses,
    Sides::Response,
    level(Level::Compatible),
);
pub const RESPONSE_REQUIRED_HEADER_REMOVED: Rule = rule(
    "response-required-header-removed",
    Area::Responses,
    Sides::Response,
    level(Level::Breaking),
);
pub const RESPONSE_OPTIONAL_HEADER_REMOVED: Rule = rule(
    "response-optional-header-removed",
    Area::Responses,
    Sides::Response,
    level(Level::PossiblyBreaking),
);
pub const RESPONSE_HEADER_BECAME_OPTIONAL: Rule = rule(
    "response-header-became-optional",
    Area::Responses,
    Sides::Response,
    level(Level::Breaking),
);
pub const RESPONSE_HEADER_BECAME_REQUIRED: Rule = rule(
    "response-header-became-required",
    Area::Responses,
    Sides::Response,
    level(Level::Compatible),
);
pub const RESPONSE_HEADER_ADDED: Rule = rule(
    "response-header-added",
    Area::Responses,
    Sides::Response,
    level(Level::Compatible),
);
/// The API no longer sends it.
pub const WEBHOOK_REMOVED: Rule = rule(
    "webhook-removed",
    Area::Webhooks,
    Sides::Response,
    level(Level::PossiblyBreaking),
);
pub const WEBHOOK_ADDED: Rule = rule(
    "webhook-added",
    Area::Webhooks,
    Sides::Response,
    level(Level::Compatible),
);
/// Uses of it are compared where they are.
pub const SCHEMA_COMPONENT_REMOVED: Rule = rule(
    "schema-component-removed",
    Area::Components,
    Sides::Neither,
    level(Level::Compatible),
);
pub const SCHEMA_COMPONENT_ADDED: Rule = rule(
    "schema-component-added",
    Area::Components,
    Sides::Neither,
    level(Level::Compatible),
);
/// The generated crates change with no HTTP change at that place.
pub const RUST_API_CHANGED: Rule = rule(
    "rust-api-changed",
    Area::RustApi,
    Sides::Neither,
    level(Level::Compatible),
);
pub const TYPE_CHANGED: Rule = rule(
    "type-changed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Breaking),
);
/// Every value valid before still is (an integer is a number; a parameter travels as text, so any scalar is a string); a reader of the old type may get a value it cannot hold.
pub const TYPE_WIDENED: Rule = rule(
    "type-widened",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::Breaking),
);
pub const TYPE_NARROWED: Rule = rule(
    "type-narrowed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const NULLABLE_ADDED: Rule = rule(
    "nullable-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::Breaking),
);
pub const NULLABLE_REMOVED: Rule = rule(
    "nullable-removed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const READ_ONLY_ADDED: Rule = rule(
    "read-only-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::PossiblyBreaking, Level::Compatible),
);
pub const READ_ONLY_REMOVED: Rule = rule(
    "read-only-removed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::Compatible),
);
pub const WRITE_ONLY_ADDED: Rule = rule(
    "write-only-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::Breaking),
);
pub const WRITE_ONLY_REMOVED: Rule = rule(
    "write-only-removed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::Compatible),
);
pub const DEPRECATED_ADDED: Rule = rule(
    "deprecated-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::Compatible),
);
pub const DEPRECATED_REMOVED: Rule = rule(
    "deprecated-removed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::Compatible),
);
pub const UNIQUE_ITEMS_ADDED: Rule = rule(
    "unique-items-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const UNIQUE_ITEMS_REMOVED: Rule = rule(
    "unique-items-removed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
/// Callers that leave the value out get another one.
pub const DEFAULT_CHANGED: Rule = rule(
    "default-changed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::PossiblyBreaking, Level::Compatible),
);
pub const FORMAT_ADDED: Rule = rule(
    "format-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const FORMAT_REMOVED: Rule = rule(
    "format-removed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const FORMAT_CHANGED: Rule = rule(
    "format-changed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::PossiblyBreaking),
);
/// An empty pattern constrains nothing and counts as none.
pub const PATTERN_ADDED: Rule = rule(
    "pattern-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const PATTERN_REMOVED: Rule = rule(
    "pattern-removed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const PATTERN_CHANGED: Rule = rule(
    "pattern-changed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::PossiblyBreaking),
);
pub const CONTENT_MEDIA_TYPE_ADDED: Rule = rule(
    "content-media-type-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const CONTENT_MEDIA_TYPE_REMOVED: Rule = rule(
    "content-media-type-removed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const CONTENT_MEDIA_TYPE_CHANGED: Rule = rule(
    "content-media-type-changed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::PossiblyBreaking),
);
pub const CONTENT_ENCODING_ADDED: Rule = rule(
    "content-encoding-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const CONTENT_ENCODING_REMOVED: Rule = rule(
    "content-encoding-removed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const CONTENT_ENCODING_CHANGED: Rule = rule(
    "content-encoding-changed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::PossiblyBreaking),
);
pub const PROPERTY_REMOVED: Rule = Rule {
    exception: Some(Exception {
        when: "the object is closed (requests); the property was required (responses)",
        effect: effect(Level::Breaking, Level::Breaking),
    }),
    ..rule(
        "property-removed",
        Area::Schemas,
        Sides::ByUsage,
        effect(Level::PossiblyBreaking, Level::PossiblyBreaking),
    )
};
pub const PROPERTY_BECAME_REQUIRED: Rule = rule(
    "property-became-required",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const PROPERTY_BECAME_OPTIONAL: Rule = rule(
    "property-became-optional",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::Breaking),
);
pub const REQUIRED_PROPERTY_ADDED: Rule = rule(
    "required-property-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const OPTIONAL_PROPERTY_ADDED: Rule = rule(
    "optional-property-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::Compatible),
);
pub const ADDITIONAL_PROPERTIES_LOOSENED: Rule = rule(
    "additional-properties-loosened",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const ADDITIONAL_PROPERTIES_TIGHTENED: Rule = rule(
    "additional-properties-tightened",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const CONTAINS_ADDED: Rule = rule(
    "contains-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const CONTAINS_REMOVED: Rule = rule(
    "contains-removed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const DEPENDENT_REQUIRED_ADDED: Rule = rule(
    "dependent-required-added",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const DEPENDENT_REQUIRED_REMOVED: Rule = rule(
    "dependent-required-removed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
/// A keyword spec-diff does not classify (`if`, `prefixItems`, `not`, ...) changed: review it.
pub const KEYWORD_CHANGED: Rule = rule(
    "keyword-changed",
    Area::Schemas,
    Sides::ByUsage,
    effect(Level::PossiblyBreaking, Level::PossiblyBreaking),
);
/// A media type without a schema takes any body.
pub const BODY_SCHEMA_ADDED: Rule = rule(
    "body-schema-added",
    Area::Bodies,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const BODY_SCHEMA_REMOVED: Rule = rule(
    "body-schema-removed",
    Area::Bodies,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const ENUM_ADDED: Rule = rule(
    "enum-added",
    Area::Enums,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const ENUM_REMOVED: Rule = rule(
    "enum-removed",
    Area::Enums,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const ENUM_VALUE_ADDED: Rule = rule(
    "enum-value-added",
    Area::Enums,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const ENUM_VALUE_REMOVED: Rule = rule(
    "enum-value-removed",
    Area::Enums,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const CONST_ADDED: Rule = rule(
    "const-added",
    Area::Enums,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const CONST_REMOVED: Rule = rule(
    "const-removed",
    Area::Enums,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
/// The one value allowed is another: both sides break.
pub const CONST_CHANGED: Rule = rule(
    "const-changed",
    Area::Enums,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Breaking),
);
/// The generated client's union is a Rust enum: the old client fails to decode the new member, and code matching the enum exhaustively stops compiling once regenerated.
pub const ONE_OF_MEMBER_ADDED: Rule = rule(
    "one-of-member-added",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::Compatible, Level::Breaking),
);
pub const ONE_OF_MEMBER_REMOVED: Rule = rule(
    "one-of-member-removed",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const ANY_OF_MEMBER_ADDED: Rule = rule(
    "any-of-member-added",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const ANY_OF_MEMBER_REMOVED: Rule = rule(
    "any-of-member-removed",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
/// allOf members add constraints.
pub const ALL_OF_MEMBER_ADDED: Rule = rule(
    "all-of-member-added",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const ALL_OF_MEMBER_REMOVED: Rule = rule(
    "all-of-member-removed",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const DISCRIMINATOR_ADDED: Rule = rule(
    "discriminator-added",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::PossiblyBreaking, Level::PossiblyBreaking),
);
pub const DISCRIMINATOR_REMOVED: Rule = rule(
    "discriminator-removed",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::PossiblyBreaking, Level::PossiblyBreaking),
);
pub const DISCRIMINATOR_PROPERTY_CHANGED: Rule = rule(
    "discriminator-property-changed",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Breaking),
);
pub const DISCRIMINATOR_MAPPING_ADDED: Rule = rule(
    "discriminator-mapping-added",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
/// Senders of the value are refused; in a response, a value no longer sent harms no reader.
pub const DISCRIMINATOR_MAPPING_REMOVED: Rule = Rule {
    exception: Some(Exception {
        when: "the schema it named is still a member of the union (responses): its objects are now sent under another value, which readers matching the old one miss",
        effect: effect(Level::Breaking, Level::Breaking),
    }),
    ..rule(
        "discriminator-mapping-removed",
        Area::Composition,
        Sides::ByUsage,
        effect(Level::Breaking, Level::Compatible),
    )
};
pub const DISCRIMINATOR_MAPPING_CHANGED: Rule = rule(
    "discriminator-mapping-changed",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Breaking),
);
/// Another value for the same schema: senders of the old value are refused, and readers matching it stop matching what they receive.
pub const DISCRIMINATOR_MAPPING_RENAMED: Rule = rule(
    "discriminator-mapping-renamed",
    Area::Composition,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Breaking),
);
pub const MAX_LENGTH_ADDED: Rule = rule(
    "max-length-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MAX_LENGTH_REMOVED: Rule = rule(
    "max-length-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAX_LENGTH_INCREASED: Rule = rule(
    "max-length-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAX_LENGTH_DECREASED: Rule = rule(
    "max-length-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_LENGTH_ADDED: Rule = rule(
    "min-length-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_LENGTH_REMOVED: Rule = rule(
    "min-length-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MIN_LENGTH_INCREASED: Rule = rule(
    "min-length-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_LENGTH_DECREASED: Rule = rule(
    "min-length-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAXIMUM_ADDED: Rule = rule(
    "maximum-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MAXIMUM_REMOVED: Rule = rule(
    "maximum-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAXIMUM_INCREASED: Rule = rule(
    "maximum-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAXIMUM_DECREASED: Rule = rule(
    "maximum-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MINIMUM_ADDED: Rule = rule(
    "minimum-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MINIMUM_REMOVED: Rule = rule(
    "minimum-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MINIMUM_INCREASED: Rule = rule(
    "minimum-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MINIMUM_DECREASED: Rule = rule(
    "minimum-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const EXCLUSIVE_MAXIMUM_ADDED: Rule = rule(
    "exclusive-maximum-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const EXCLUSIVE_MAXIMUM_REMOVED: Rule = rule(
    "exclusive-maximum-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const EXCLUSIVE_MAXIMUM_INCREASED: Rule = rule(
    "exclusive-maximum-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const EXCLUSIVE_MAXIMUM_DECREASED: Rule = rule(
    "exclusive-maximum-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const EXCLUSIVE_MINIMUM_ADDED: Rule = rule(
    "exclusive-minimum-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const EXCLUSIVE_MINIMUM_REMOVED: Rule = rule(
    "exclusive-minimum-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const EXCLUSIVE_MINIMUM_INCREASED: Rule = rule(
    "exclusive-minimum-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const EXCLUSIVE_MINIMUM_DECREASED: Rule = rule(
    "exclusive-minimum-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAX_ITEMS_ADDED: Rule = rule(
    "max-items-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MAX_ITEMS_REMOVED: Rule = rule(
    "max-items-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAX_ITEMS_INCREASED: Rule = rule(
    "max-items-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAX_ITEMS_DECREASED: Rule = rule(
    "max-items-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_ITEMS_ADDED: Rule = rule(
    "min-items-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_ITEMS_REMOVED: Rule = rule(
    "min-items-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MIN_ITEMS_INCREASED: Rule = rule(
    "min-items-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_ITEMS_DECREASED: Rule = rule(
    "min-items-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAX_CONTAINS_ADDED: Rule = rule(
    "max-contains-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MAX_CONTAINS_REMOVED: Rule = rule(
    "max-contains-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAX_CONTAINS_INCREASED: Rule = rule(
    "max-contains-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAX_CONTAINS_DECREASED: Rule = rule(
    "max-contains-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_CONTAINS_ADDED: Rule = rule(
    "min-contains-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_CONTAINS_REMOVED: Rule = rule(
    "min-contains-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MIN_CONTAINS_INCREASED: Rule = rule(
    "min-contains-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_CONTAINS_DECREASED: Rule = rule(
    "min-contains-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAX_PROPERTIES_ADDED: Rule = rule(
    "max-properties-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MAX_PROPERTIES_REMOVED: Rule = rule(
    "max-properties-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAX_PROPERTIES_INCREASED: Rule = rule(
    "max-properties-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MAX_PROPERTIES_DECREASED: Rule = rule(
    "max-properties-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_PROPERTIES_ADDED: Rule = rule(
    "min-properties-added",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_PROPERTIES_REMOVED: Rule = rule(
    "min-properties-removed",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);
pub const MIN_PROPERTIES_INCREASED: Rule = rule(
    "min-properties-increased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Breaking, Level::Compatible),
);
pub const MIN_PROPERTIES_DECREASED: Rule = rule(
    "min-properties-decreased",
    Area::Bounds,
    Sides::ByUsage,
    effect(Level::Compatible, Level::PossiblyBreaking),
);

/// Every rule.
pub const RULES: &[&Rule] = &[
    &SERVER_URL_PREFIX_CHANGED,
    &SERVER_URL_REMOVED,
    &SERVER_URL_ADDED,
    &SECURITY_SCHEME_REMOVED,
    &SECURITY_SCHEME_ADDED,
    &SECURITY_SCHEME_TYPE_CHANGED,
    &SECURITY_SCHEME_BEARER_FORMAT_CHANGED,
    &SECURITY_SCHEME_FLOW_REMOVED,
    &SECURITY_SCHEME_FLOW_ADDED,
    &SECURITY_SCHEME_URL_CHANGED,
    &SECURITY_SCHEME_SCOPE_REMOVED,
    &SECURITY_SCHEME_SCOPE_ADDED,
    &SECURITY_REQUIREMENT_REMOVED,
    &SECURITY_REQUIREMENT_ADDED,
    &SECURITY_SCOPE_ADDED,
    &SECURITY_SCOPE_REMOVED,
    &API_PATH_REMOVED,
    &API_PATH_ADDED,
    &API_METHOD_REMOVED,
    &API_METHOD_ADDED,
    &OPERATION_MOVED,
    &OPERATION_ID_CHANGED,
    &OPERATION_DEPRECATED,
    &OPERATION_UNDEPRECATED,
    &OPERATION_LIFECYCLE_CHANGED,
    &REQUEST_PARAMETER_REMOVED,
    &REQUEST_PARAMETER_BECAME_REQUIRED,
    &REQUEST_PARAMETER_BECAME_OPTIONAL,
    &REQUEST_REQUIRED_PARAMETER_ADDED,
    &REQUEST_OPTIONAL_PARAMETER_ADDED,
    &PATH_PARAMETER_RENAMED,
    &REQUEST_PARAMETER_STYLE_CHANGED,
    &REQUEST_PARAMETER_EXPLODE_CHANGED,
    &REQUEST_PARAMETER_ENCODING_CHANGED,
    &REQUEST_PARAMETER_ALLOW_RESERVED_ADDED,
    &REQUEST_PARAMETER_ALLOW_RESERVED_REMOVED,
    &REQUEST_PARAMETER_ALLOW_EMPTY_VALUE_ADDED,
    &REQUEST_PARAMETER_ALLOW_EMPTY_VALUE_REMOVED,
    &REQUEST_BODY_REMOVED,
    &REQUEST_REQUIRED_BODY_ADDED,
    &REQUEST_OPTIONAL_BODY_ADDED,
    &REQUEST_BODY_BECAME_REQUIRED,
    &REQUEST_BODY_BECAME_OPTIONAL,
    &REQUEST_MEDIA_TYPE_REMOVED,
    &REQUEST_MEDIA_TYPE_ADDED,
    &RESPONSE_MEDIA_TYPE_REMOVED,
    &RESPONSE_MEDIA_TYPE_ADDED,
    &RESPONSE_SUCCESS_STATUS_REMOVED,
    &RESPONSE_NON_SUCCESS_STATUS_REMOVED,
    &RESPONSE_SUCCESS_STATUS_ADDED,
    &RESPONSE_NON_SUCCESS_STATUS_ADDED,
    &RESPONSE_REQUIRED_HEADER_REMOVED,
    &RESPONSE_OPTIONAL_HEADER_REMOVED,
    &RESPONSE_HEADER_BECAME_OPTIONAL,
    &RESPONSE_HEADER_BECAME_REQUIRED,
    &RESPONSE_HEADER_ADDED,
    &WEBHOOK_REMOVED,
    &WEBHOOK_ADDED,
    &SCHEMA_COMPONENT_REMOVED,
    &SCHEMA_COMPONENT_ADDED,
    &RUST_API_CHANGED,
    &TYPE_CHANGED,
    &TYPE_WIDENED,
    &TYPE_NARROWED,
    &NULLABLE_ADDED,
    &NULLABLE_REMOVED,
    &READ_ONLY_ADDED,
    &READ_ONLY_REMOVED,
    &WRITE_ONLY_ADDED,
    &WRITE_ONLY_REMOVED,
    &DEPRECATED_ADDED,
    &DEPRECATED_REMOVED,
    &UNIQUE_ITEMS_ADDED,
    &UNIQUE_ITEMS_REMOVED,
    &DEFAULT_CHANGED,
    &FORMAT_ADDED,
    &FORMAT_REMOVED,
    &FORMAT_CHANGED,
    &PATTERN_ADDED,
    &PATTERN_REMOVED,
    &PATTERN_CHANGED,
    &CONTENT_MEDIA_TYPE_ADDED,
    &CONTENT_MEDIA_TYPE_REMOVED,
    &CONTENT_MEDIA_TYPE_CHANGED,
    &CONTENT_ENCODING_ADDED,
    &CONTENT_ENCODING_REMOVED,
    &CONTENT_ENCODING_CHANGED,
    &PROPERTY_REMOVED,
    &PROPERTY_BECAME_REQUIRED,
    &PROPERTY_BECAME_OPTIONAL,
    &REQUIRED_PROPERTY_ADDED,
    &OPTIONAL_PROPERTY_ADDED,
    &ADDITIONAL_PROPERTIES_LOOSENED,
    &ADDITIONAL_PROPERTIES_TIGHTENED,
    &CONTAINS_ADDED,
    &CONTAINS_REMOVED,
    &DEPENDENT_REQUIRED_ADDED,
    &DEPENDENT_REQUIRED_REMOVED,
    &KEYWORD_CHANGED,
    &BODY_SCHEMA_ADDED,
    &BODY_SCHEMA_REMOVED,
    &ENUM_ADDED,
    &ENUM_REMOVED,
    &ENUM_VALUE_ADDED,
    &ENUM_VALUE_REMOVED,
    &CONST_ADDED,
    &CONST_REMOVED,
    &CONST_CHANGED,
    &ONE_OF_MEMBER_ADDED,
    &ONE_OF_MEMBER_REMOVED,
    &ANY_OF_MEMBER_ADDED,
    &ANY_OF_MEMBER_REMOVED,
    &ALL_OF_MEMBER_ADDED,
    &ALL_OF_MEMBER_REMOVED,
    &DISCRIMINATOR_ADDED,
    &DISCRIMINATOR_REMOVED,
    &DISCRIMINATOR_PROPERTY_CHANGED,
    &DISCRIMINATOR_MAPPING_ADDED,
    &DISCRIMINATOR_MAPPING_REMOVED,
    &DISCRIMINATOR_MAPPING_CHANGED,
    &DISCRIMINATOR_MAPPING_RENAMED,
    &MAX_LENGTH_ADDED,
    &MAX_LENGTH_REMOVED,
    &MAX_LENGTH_INCREASED,
    &MAX_LENGTH_DECREASED,
    &MIN_LENGTH_ADDED,
    &MIN_LENGTH_REMOVED,
    &MIN_LENGTH_INCREASED,
    &MIN_LENGTH_DECREASED,
    &MAXIMUM_ADDED,
    &MAXIMUM_REMOVED,
    &MAXIMUM_INCREASED,
    &MAXIMUM_DECREASED,
    &MINIMUM_ADDED,
    &MINIMUM_REMOVED,
    &MINIMUM_INCREASED,
    &MINIMUM_DECREASED,
    &EXCLUSIVE_MAXIMUM_ADDED,
    &EXCLUSIVE_MAXIMUM_REMOVED,
    &EXCLUSIVE_MAXIMUM_INCREASED,
    &EXCLUSIVE_MAXIMUM_DECREASED,
    &EXCLUSIVE_MINIMUM_ADDED,
    &EXCLUSIVE_MINIMUM_REMOVED,
    &EXCLUSIVE_MINIMUM_INCREASED,
    &EXCLUSIVE_MINIMUM_DECREASED,
    &MAX_ITEMS_ADDED,
    &MAX_ITEMS_REMOVED,
    &MAX_ITEMS_INCREASED,
    &MAX_ITEMS_DECREASED,
    &MIN_ITEMS_ADDED,
    &MIN_ITEMS_REMOVED,
    &MIN_ITEMS_INCREASED,
    &MIN_ITEMS_DECREASED,
    &MAX_CONTAINS_ADDED,
    &MAX_CONTAINS_REMOVED,
    &MAX_CONTAINS_INCREASED,
    &MAX_CONTAINS_DECREASED,
    &MIN_CONTAINS_ADDED,
    &MIN_CONTAINS_REMOVED,
    &MIN_CONTAINS_INCREASED,
    &MIN_CONTAINS_DECREASED,
    &MAX_PROPERTIES_ADDED,
    &MAX_PROPERTIES_REMOVED,
    &MAX_PROPERTIES_INCREASED,
    &MAX_PROPERTIES_DECREASED,
    &MIN_PROPERTIES_ADDED,
    &MIN_PROPERTIES_REMOVED,
    &MIN_PROPERTIES_INCREASED,
    &MIN_PROPERTIES_DECREASED,
];

/// The rules of a keyword whose presence constrains values.
#[derive(Debug, Clone, Copy)]
pub struct KeywordRules {
    pub keyword: &'static str,
    pub added: &'static Rule,
    pub removed: &'static Rule,
    pub changed: &'static Rule,
}

/// Keywords whose presence constrains values.
pub const KEYWORDS: [KeywordRules; 4] = [
    KeywordRules {
        keyword: "format",
        added: &FORMAT_ADDED,
        removed: &FORMAT_REMOVED,
        changed: &FORMAT_CHANGED,
    },
    KeywordRules {
        keyword: "pattern",
        added: &PATTERN_ADDED,
        removed: &PATTERN_REMOVED,
        changed: &PATTERN_CHANGED,
    },
    KeywordRules {
        keyword: "contentMediaType",
        added: &CONTENT_MEDIA_TYPE_ADDED,
        removed: &CONTENT_MEDIA_TYPE_REMOVED,
        changed: &CONTENT_MEDIA_TYPE_CHANGED,
    },
    KeywordRules {
        keyword: "contentEncoding",
        added: &CONTENT_ENCODING_ADDED,
        removed: &CONTENT_ENCODING_REMOVED,
        changed: &CONTENT_ENCODING_CHANGED,
    },
];

/// The rules of a boolean keyword.
#[derive(Debug, Clone, Copy)]
pub struct FlagRules {
    pub keyword: &'static str,
    pub set: &'static Rule,
    pub cleared: &'static Rule,
}

/// Boolean keywords (nullability has its own rule: 3.1 writes it as a type).
pub const FLAGS: [FlagRules; 4] = [
    FlagRules {
        keyword: "readOnly",
        set: &READ_ONLY_ADDED,
        cleared: &READ_ONLY_REMOVED,
    },
    FlagRules {
        keyword: "writeOnly",
        set: &WRITE_ONLY_ADDED,
        cleared: &WRITE_ONLY_REMOVED,
    },
    FlagRules {
        keyword: "deprecated",
        set: &DEPRECATED_ADDED,
        cleared: &DEPRECATED_REMOVED,
    },
    FlagRules {
        keyword: "uniqueItems",
        set: &UNIQUE_ITEMS_ADDED,
        cleared: &UNIQUE_ITEMS_REMOVED,
    },
];

/// The rules of a numeric bound.
#[derive(Debug, Clone, Copy)]
pub struct BoundRules {
    pub keyword: &'static str,
    pub added: &'static Rule,
    pub removed: &'static Rule,
    pub increased: &'static Rule,
    pub decreased: &'static Rule,
}

/// Numeric bounds (an upper bound tightens as it decreases, a lower one as it increases).
pub const BOUNDS: [BoundRules; 12] = [
    BoundRules {
        keyword: "maxLength",
        added: &MAX_LENGTH_ADDED,
        removed: &MAX_LENGTH_REMOVED,
        increased: &MAX_LENGTH_INCREASED,
        decreased: &MAX_LENGTH_DECREASED,
    },
    BoundRules {
        keyword: "minLength",
        added: &MIN_LENGTH_ADDED,
        removed: &MIN_LENGTH_REMOVED,
        increased: &MIN_LENGTH_INCREASED,
        decreased: &MIN_LENGTH_DECREASED,
    },
    BoundRules {
        keyword: "maximum",
        added: &MAXIMUM_ADDED,
        removed: &MAXIMUM_REMOVED,
        increased: &MAXIMUM_INCREASED,
        decreased: &MAXIMUM_DECREASED,
    },
    BoundRules {
        keyword: "minimum",
        added: &MINIMUM_ADDED,
        removed: &MINIMUM_REMOVED,
        increased: &MINIMUM_INCREASED,
        decreased: &MINIMUM_DECREASED,
    },
    BoundRules {
        keyword: "exclusiveMaximum",
        added: &EXCLUSIVE_MAXIMUM_ADDED,
        removed: &EXCLUSIVE_MAXIMUM_REMOVED,
        increased: &EXCLUSIVE_MAXIMUM_INCREASED,
        decreased: &EXCLUSIVE_MAXIMUM_DECREASED,
    },
    BoundRules {
        keyword: "exclusiveMinimum",
        added: &EXCLUSIVE_MINIMUM_ADDED,
        removed: &EXCLUSIVE_MINIMUM_REMOVED,
        increased: &EXCLUSIVE_MINIMUM_INCREASED,
        decreased: &EXCLUSIVE_MINIMUM_DECREASED,
    },
    BoundRules {
        keyword: "maxItems",
        added: &MAX_ITEMS_ADDED,
        removed: &MAX_ITEMS_REMOVED,
        increased: &MAX_ITEMS_INCREASED,
        decreased: &MAX_ITEMS_DECREASED,
    },
    BoundRules {
        keyword: "minItems",
        added: &MIN_ITEMS_ADDED,
        removed: &MIN_ITEMS_REMOVED,
        increased: &MIN_ITEMS_INCREASED,
        decreased: &MIN_ITEMS_DECREASED,
    },
    BoundRules {
        keyword: "maxContains",
        added: &MAX_CONTAINS_ADDED,
        removed: &MAX_CONTAINS_REMOVED,
        increased: &MAX_CONTAINS_INCREASED,
        decreased: &MAX_CONTAINS_DECREASED,
    },
    BoundRules {
        keyword: "minContains",
        added: &MIN_CONTAINS_ADDED,
        removed: &MIN_CONTAINS_REMOVED,
        increased: &MIN_CONTAINS_INCREASED,
        decreased: &MIN_CONTAINS_DECREASED,
    },
    BoundRules {
        keyword: "maxProperties",
        added: &MAX_PROPERTIES_ADDED,
        removed: &MAX_PROPERTIES_REMOVED,
        increased: &MAX_PROPERTIES_INCREASED,
        decreased: &MAX_PROPERTIES_DECREASED,
    },
    BoundRules {
        keyword: "minProperties",
        added: &MIN_PROPERTIES_ADDED,
        removed: &MIN_PROPERTIES_REMOVED,
        increased: &MIN_PROPERTIES_INCREASED,
        decreased: &MIN_PROPERTIES_DECREASED,
    },
];

/// The rules of a composition keyword.
#[derive(Debug, Clone, Copy)]
pub struct CompositionRules {
    pub keyword: &'static str,
    pub member_added: &'static Rule,
    pub member_removed: &'static Rule,
}

/// `oneOf`, `anyOf` and `allOf`.
pub const COMPOSITIONS: [CompositionRules; 3] = [
    CompositionRules {
        keyword: "oneOf",
        member_added: &ONE_OF_MEMBER_ADDED,
        member_removed: &ONE_OF_MEMBER_REMOVED,
    },
    CompositionRules {
        keyword: "anyOf",
        member_added: &ANY_OF_MEMBER_ADDED,
        member_removed: &ANY_OF_MEMBER_REMOVED,
    },
    CompositionRules {
        keyword: "allOf",
        member_added: &ALL_OF_MEMBER_ADDED,
        member_removed: &ALL_OF_MEMBER_REMOVED,
    },
];

/// The rule a reported id names (a schema rule's id with its side prefix).
pub fn find(reported: &str) -> Option<&'static Rule> {
    RULES.iter().copied().find(|rule| match rule.sides {
        Sides::ByUsage => ["request-", "response-", "schema-"]
            .iter()
            .any(|prefix| reported.strip_prefix(prefix) == Some(rule.id)),
        _ => reported == rule.id,
    })
}

/// Where a schema is used: in what clients send, in what they receive, or both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub request: bool,
    pub response: bool,
}

impl Usage {
    pub const REQUEST: Usage = Usage {
        request: true,
        response: false,
    };
    pub const RESPONSE: Usage = Usage {
        request: false,
        response: true,
    };

    pub fn union(self, other: Usage) -> Usage {
        Usage {
            request: self.request || other.request,
            response: self.response || other.response,
        }
    }
}

/// A rule applied at one place: its effect there (the usual one, or its
/// exception where the exception's condition holds) and how the node is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    pub rule: &'static Rule,
    pub effect: Effect,
    pub usage: Usage,
}

impl Rule {
    /// The rule with its usual effect.
    pub fn usual(&'static self) -> Verdict {
        Verdict {
            rule: self,
            effect: self.effect,
            usage: Usage::default(),
        }
    }

    /// The rule with its exception's effect when `holds`.
    pub fn unless(&'static self, holds: bool) -> Verdict {
        self.usual().excepted(holds, holds)
    }

    /// A schema rule for a schema used as `usage`.
    pub fn used(&'static self, usage: Usage) -> Verdict {
        Verdict {
            usage,
            ..self.usual()
        }
    }
}

impl Verdict {
    /// The exception's effect on the request side when `request` holds, and
    /// on the response side when `response` does.
    pub fn excepted(mut self, request: bool, response: bool) -> Verdict {
        if let Some(exception) = self.rule.exception {
            if request {
                self.effect.request = exception.effect.request;
            }
            if response {
                self.effect.response = exception.effect.response;
            }
        }
        self
    }

    /// The level, the direction that decides it and the id reported. A
    /// schema used nowhere only changes the generated types.
    pub fn classify(&self) -> (Level, Direction, String) {
        let Effect { request, response } = self.effect;
        let id = self.rule.id;
        match self.rule.sides {
            Sides::Request => (request, Direction::Request, id.to_string()),
            Sides::Response => (response, Direction::Response, id.to_string()),
            Sides::Neither => (request, Direction::NotApplicable, id.to_string()),
            Sides::ByUsage => {
                let (level, direction, prefix) = match (self.usage.request, self.usage.response) {
                    (false, false) => (Level::Compatible, Direction::NotApplicable, "schema"),
                    (true, false) => (request, Direction::Request, "request"),
                    (false, true) => (response, Direction::Response, "response"),
                    (true, true) => match request.cmp(&response) {
                        std::cmp::Ordering::Less => (request, Direction::Request, "request"),
                        std::cmp::Ordering::Greater => (response, Direction::Response, "response"),
                        std::cmp::Ordering::Equal => (request, Direction::Both, "schema"),
                    },
                };
                (level, direction, format!("{prefix}-{id}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tightened_constraint_breaks_requests_and_not_responses() {
        let both = Usage::REQUEST.union(Usage::RESPONSE);
        let verdict = |rule: &'static Rule, usage| rule.used(usage).classify();
        assert_eq!(
            verdict(&MAX_LENGTH_DECREASED, Usage::REQUEST),
            (
                Level::Breaking,
                Direction::Request,
                "request-max-length-decreased".into()
            )
        );
        assert_eq!(
            verdict(&MAX_LENGTH_DECREASED, Usage::RESPONSE),
            (
                Level::Compatible,
                Direction::Response,
                "response-max-length-decreased".into()
            )
        );
        assert_eq!(verdict(&MAX_LENGTH_DECREASED, both).0, Level::Breaking);
        assert_eq!(
            verdict(&MAX_LENGTH_INCREASED, both),
            (
                Level::PossiblyBreaking,
                Direction::Response,
                "response-max-length-increased".into()
            )
        );
        assert_eq!(
            verdict(&DEPRECATED_ADDED, both),
            (
                Level::Compatible,
                Direction::Both,
                "schema-deprecated-added".into()
            )
        );
        assert_eq!(
            verdict(&TYPE_CHANGED, Usage::default()),
            (
                Level::Compatible,
                Direction::NotApplicable,
                "schema-type-changed".into()
            )
        );
    }

    #[test]
    fn an_exception_applies_to_the_side_whose_condition_holds() {
        let removed = PROPERTY_REMOVED.used(Usage::REQUEST.union(Usage::RESPONSE));
        assert_eq!(removed.classify().0, Level::PossiblyBreaking);
        assert_eq!(
            removed.excepted(false, true).effect.response,
            Level::Breaking
        );
        assert_eq!(
            removed.excepted(false, true).effect.request,
            Level::PossiblyBreaking
        );
        assert_eq!(
            SECURITY_REQUIREMENT_ADDED.unless(true).classify().0,
            Level::Breaking
        );
        assert_eq!(
            SECURITY_REQUIREMENT_ADDED.unless(false).classify().0,
            Level::Compatible
        );
    }

    #[test]
    fn ids_are_unique_and_found_by_what_is_reported() {
        let mut ids: Vec<&str> = RULES.iter().map(|rule| rule.id).collect();
        ids.sort_unstable();
        let count = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), count, "a rule id is listed twice");
        assert_eq!(
            find("request-max-length-decreased"),
            Some(&MAX_LENGTH_DECREASED)
        );
        assert_eq!(find("api-path-removed"), Some(&API_PATH_REMOVED));
        assert_eq!(find("request-api-path-removed"), None);
        assert_eq!(find("max-length-decreased"), None);
    }
}
