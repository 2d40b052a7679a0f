//! The hand-authored spec: it parses with the generator's own `openapiv3`,
//! and it states the facts of the seed document and a decision for each gap.

use std::path::Path;

use openapiv3::{OpenAPI, ReferenceOr, SecurityScheme};
use serde_json::{Value, json};
use tenant_codegen::load::{LoadedSpec, load_spec};
use workspace_tests::workspace_root;

fn spec() -> LoadedSpec {
    load_spec(&workspace_root(), Path::new(tenant_codegen::SPEC_FILE))
        .unwrap_or_else(|err| panic!("{err}"))
}

fn at<'a>(spec: &'a LoadedSpec, pointer: &str) -> &'a Value {
    spec.document
        .pointer(pointer)
        .unwrap_or_else(|| panic!("the spec has nothing at {pointer}"))
}

fn schema<'a>(spec: &'a LoadedSpec, name: &str) -> &'a Value {
    at(spec, &format!("/components/schemas/{name}"))
}

#[test]
fn parses_as_openapi_3_0_with_openapiv3() {
    let typed: OpenAPI =
        tenant_codegen::model::parse_openapi(&spec()).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(typed.openapi, "3.0.3");
    assert_eq!(typed.info.version, "2.0");
    assert_eq!(typed.servers[0].url, "https://{tenant_domain}/api/v2");
    assert_eq!(typed.paths.paths.len(), 5);
    tenant_codegen::model::build_model(&spec()).unwrap_or_else(|err| panic!("{err}"));
}

#[test]
fn describes_exactly_the_five_operations() {
    let model = tenant_codegen::model::build_model(&spec()).unwrap();
    let operations: Vec<(&str, &str, &str)> = model
        .operations
        .iter()
        .map(|operation| {
            (
                operation.method.as_str(),
                operation.path.as_str(),
                operation.id.as_str(),
            )
        })
        .collect();
    assert_eq!(
        operations,
        [
            (
                "POST",
                "/token-exchange-profiles",
                "create_token_exchange_profile"
            ),
            (
                "GET",
                "/user-attribute-profiles/templates/{id}",
                "get_user_attribute_profile_template"
            ),
            ("GET", "/actions/modules/{id}", "get_action_module"),
            ("POST", "/event-streams", "create_event_stream"),
            (
                "GET",
                "/guardian/factors/push-notification/providers/apns",
                "get_push_notification_apns_provider"
            ),
        ]
    );
    for operation in &model.operations {
        assert!(
            !operation.tags.is_empty()
                && operation.summary.is_some()
                && operation.description.is_some()
        );
    }
}

#[test]
fn token_exchange_profile_creation_states_the_seed() {
    let spec = spec();
    let operation = at(&spec, "/paths/~1token-exchange-profiles/post");
    assert_eq!(operation["x-release-lifecycle"], "Early Access");
    let content = operation["requestBody"]["content"].as_object().unwrap();
    let media_types: Vec<&String> = content.keys().collect();
    assert_eq!(
        media_types,
        ["application/json", "application/x-www-form-urlencoded"]
    );
    let statuses: Vec<&String> = operation["responses"].as_object().unwrap().keys().collect();
    assert_eq!(
        statuses,
        ["201", "400", "401", "403", "409", "413", "415", "429"]
    );
    for condition in [
        "the type field must be custom",
        "not deployed",
        "`custom-token-exchange` trigger",
        "not found",
    ] {
        assert!(
            operation["responses"]["400"]["description"]
                .as_str()
                .unwrap()
                .contains(condition),
            "{condition}"
        );
    }
    for condition in ["invalid", "signature", "not global"] {
        assert!(
            operation["responses"]["401"]["description"]
                .as_str()
                .unwrap()
                .contains(condition),
            "{condition}"
        );
    }
    for condition in [
        "limit",
        "insufficient scope, expected `create:token_exchange_profiles`",
    ] {
        assert!(
            operation["responses"]["403"]["description"]
                .as_str()
                .unwrap()
                .contains(condition),
            "{condition}"
        );
    }
    assert!(
        operation["responses"]["409"]["description"]
            .as_str()
            .unwrap()
            .contains("already exists")
    );
    assert_eq!(
        operation["security"],
        json!([{"bearerAuth": []}, {"oAuth2ClientCredentials": ["create:token_exchange_profiles"]}])
    );

    let request = schema(&spec, "CreateTokenExchangeProfileRequest");
    assert_eq!(request["additionalProperties"], false);
    assert_eq!(
        request["required"],
        json!(["name", "subject_token_type", "action_id", "type"])
    );
    let name = schema(&spec, "TokenExchangeProfileName");
    assert_eq!(
        (&name["minLength"], &name["maxLength"]),
        (&json!(3), &json!(50))
    );
    assert_eq!(name["default"], "Token Exchange Profile 1");
    let subject = schema(&spec, "SubjectTokenType");
    assert_eq!(
        (
            &subject["minLength"],
            &subject["maxLength"],
            &subject["format"]
        ),
        (&json!(8), &json!(100), &json!("url"))
    );
    let action = schema(&spec, "TokenExchangeActionId");
    assert_eq!(
        (&action["minLength"], &action["maxLength"]),
        (&json!(1), &json!(36))
    );
    let kind = schema(&spec, "TokenExchangeProfileType");
    assert_eq!(
        (&kind["minLength"], &kind["maxLength"], &kind["enum"]),
        (&json!(1), &json!(21), &json!(["custom_authentication"]))
    );

    let profile = schema(&spec, "TokenExchangeProfile");
    assert_eq!(
        profile["properties"]["id"]["format"],
        "token-exchange-profile-id"
    );
    for timestamp in ["created_at", "updated_at"] {
        assert_eq!(profile["properties"][timestamp]["format"], "date-time");
    }
}

#[test]
fn only_the_profile_request_rejects_unknown_properties() {
    fn find(value: &Value, pointer: String, out: &mut Vec<String>) {
        match value {
            Value::Object(object) => {
                for (key, child) in object {
                    if key == "additionalProperties" && *child == Value::Bool(false) {
                        out.push(pointer.clone());
                    }
                    find(child, format!("{pointer}/{key}"), out);
                }
            }
            Value::Array(items) => items
                .iter()
                .for_each(|item| find(item, pointer.clone(), out)),
            _ => {}
        }
    }
    let mut closed = Vec::new();
    find(&spec().document, String::new(), &mut closed);
    assert_eq!(
        closed,
        ["/components/schemas/CreateTokenExchangeProfileRequest"]
    );
}

#[test]
fn event_streams_state_the_seed() {
    let spec = spec();
    let content = at(&spec, "/paths/~1event-streams/post/requestBody/content")
        .as_object()
        .unwrap();
    assert!(
        content.contains_key("application/json")
            && content.contains_key("application/x-www-form-urlencoded")
    );
    let stream = schema(&spec, "EventStream");
    assert_eq!(
        (
            &stream["properties"]["id"]["minLength"],
            &stream["properties"]["id"]["maxLength"]
        ),
        (&json!(26), &json!(26))
    );
    let name = schema(&spec, "EventStreamName");
    assert_eq!(
        (&name["minLength"], &name["maxLength"]),
        (&json!(1), &json!(128))
    );
    assert_eq!(schema(&spec, "EventStreamSubscriptions")["minItems"], 1);
    let status = schema(&spec, "EventStreamStatus");
    assert_eq!(
        (&status["enum"], &status["maxLength"]),
        (&json!(["enabled", "disabled"]), &json!(8))
    );
    assert_eq!(
        schema(&spec, "WebhookAuthorizationMethod")["enum"],
        json!(["basic"])
    );
    assert_eq!(
        schema(&spec, "WebhookDestinationType")["enum"],
        json!(["webhook"])
    );
    assert!(
        schema(&spec, "WebhookAuthorization")["properties"]
            .get("password")
            .is_none(),
        "credentials are never returned"
    );
}

/// The platform's published definition (and its SDKs) require only
/// `destination` on creation and list 409; a spec that demanded more made the
/// platform's own clients fail with 400.
#[test]
fn event_stream_creation_follows_the_published_definition() {
    let spec = spec();
    assert_eq!(
        schema(&spec, "CreateEventStreamRequest")["required"],
        json!(["destination"])
    );
    let published: Value = serde_json::from_str(
        &std::fs::read_to_string(
            workspace_root().join("../shared/specs/platform-management-api.oas.json"),
        )
        .expect("the platform's published definition next to the workspace"),
    )
    .unwrap();
    let published_required =
        &published["components"]["schemas"]["CreateEventStreamWebHookRequestContent"]["required"];
    assert_eq!(published_required, &json!(["destination"]));
    let responses = at(&spec, "/paths/~1event-streams/post/responses")
        .as_object()
        .unwrap();
    assert!(responses.contains_key("409"), "{responses:?}");
}

/// Facts of the platform's published definition that the seed leaves open:
/// 400 on two GETs, Early Access on operations 2 and 3, a nullable APNs
/// bundle id, and the 413/415 every POST can answer.
#[test]
fn statuses_and_labels_follow_the_published_definition() {
    let spec = spec();
    let statuses = |pointer: &str| -> Vec<String> {
        at(&spec, pointer)["responses"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(
        statuses("/paths/~1actions~1modules~1{id}/get"),
        ["200", "400", "401", "403", "404", "429"]
    );
    assert_eq!(
        statuses("/paths/~1guardian~1factors~1push-notification~1providers~1apns/get"),
        ["200", "400", "401", "403", "429"]
    );
    for post in [
        "/paths/~1token-exchange-profiles/post",
        "/paths/~1event-streams/post",
    ] {
        let statuses = statuses(post);
        assert!(
            statuses.contains(&"413".to_string()) && statuses.contains(&"415".to_string()),
            "{post}: {statuses:?}"
        );
    }
    for get in [
        "/paths/~1user-attribute-profiles~1templates~1{id}/get",
        "/paths/~1actions~1modules~1{id}/get",
    ] {
        assert_eq!(
            at(&spec, get)["x-release-lifecycle"],
            "Early Access",
            "{get}"
        );
    }
    assert_eq!(
        schema(&spec, "PushNotificationApnsProvider")["properties"]["bundle_id"]["nullable"],
        true
    );
}

#[test]
fn action_modules_omit_only_the_unpublished_version_fields() {
    let spec = spec();
    let module = schema(&spec, "ActionModule");
    let required: Vec<&str> = module["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let properties: Vec<&String> = module["properties"].as_object().unwrap().keys().collect();
    for property in properties {
        let optional = property == "latest_version_number" || property == "latest_version";
        assert_eq!(
            required.contains(&property.as_str()),
            !optional,
            "{property}"
        );
    }
    assert!(
        schema(&spec, "ActionModuleSecret")["properties"]
            .get("value")
            .is_none()
    );
}

#[test]
fn strategy_overrides_name_the_seeds_and_the_platforms_keys_and_keep_others() {
    let spec = spec();
    let overrides = schema(&spec, "UserIdStrategyOverrides");
    let keys: Vec<&String> = overrides["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    // The seed's five, then the vendor spellings of the published definition.
    assert_eq!(
        keys,
        [
            "ad",
            "adfs",
            "waad",
            "oidc",
            "samlp",
            "pingfederate",
            "okta",
            "google-apps"
        ]
    );
    assert_eq!(
        overrides["additionalProperties"]["$ref"],
        "#/components/schemas/StrategyOverride"
    );
    assert_eq!(
        schema(&spec, "UserAttributes")["additionalProperties"],
        true
    );
}

#[test]
fn rate_limited_responses_carry_the_three_headers() {
    let spec = spec();
    let headers: Vec<&String> = at(&spec, "/components/responses/TooManyRequests/headers")
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(
        headers,
        [
            "X-RateLimit-Limit",
            "X-RateLimit-Remaining",
            "X-RateLimit-Reset"
        ]
    );
    let paths = at(&spec, "/paths").as_object().unwrap();
    for (path, item) in paths {
        for (method, operation) in item.as_object().unwrap() {
            assert_eq!(
                operation["responses"]["429"]["$ref"], "#/components/responses/TooManyRequests",
                "{method} {path}"
            );
        }
    }
}

#[test]
fn security_schemes_and_the_full_scope_catalog() {
    let loaded = spec();
    let typed = tenant_codegen::model::parse_openapi(&loaded).unwrap();
    let components = typed.components.as_ref().unwrap();
    let Some(ReferenceOr::Item(SecurityScheme::HTTP {
        scheme,
        bearer_format,
        ..
    })) = components.security_schemes.get("bearerAuth")
    else {
        panic!("bearerAuth must be an HTTP scheme");
    };
    assert_eq!(
        (scheme.as_str(), bearer_format.as_deref()),
        ("bearer", Some("JWT"))
    );
    let Some(ReferenceOr::Item(SecurityScheme::OAuth2 {
        flows, extensions, ..
    })) = components.security_schemes.get("oAuth2ClientCredentials")
    else {
        panic!("oAuth2ClientCredentials must be an OAuth 2.0 scheme");
    };
    assert_eq!(
        extensions["x-token-audience"],
        "https://{tenant_domain}/api/v2/"
    );
    let flow = flows
        .client_credentials
        .as_ref()
        .expect("client credentials flow");
    assert_eq!(flow.token_url, "/oauth/token/");

    // The seed's catalog: 35 CRUD, 3 CRU, 8 CRD, 4 RUD, 8 RU, 8 RD, 2 CD, 15 R, 2 C, 4 U resources.
    let expected = 35 * 4 + 3 * 3 + 8 * 3 + 4 * 3 + 8 * 2 + 8 * 2 + 2 * 2 + 15 + 2 + 4;
    assert_eq!(flow.scopes.len(), expected);
    for (scope, description) in &flow.scopes {
        let (verb, resource) = scope.split_once(':').unwrap();
        assert!(
            ["create", "read", "update", "delete"].contains(&verb),
            "{scope}"
        );
        assert!(!resource.is_empty() && !description.is_empty(), "{scope}");
    }
    for sample in [
        "create:token_exchange_profiles",
        "delete:vdcs_templates",
        "update:users_app_metadata",
        "read:user_role_source_groups",
        "create:sso_access_tickets",
    ] {
        assert!(flow.scopes.contains_key(sample), "{sample}");
    }
    assert!(
        !flow.scopes.contains_key("update:logs"),
        "logs are read-only"
    );

    let model = tenant_codegen::model::build_model(&loaded).unwrap();
    for operation in &model.operations {
        let scopes = operation.required_scopes();
        assert_eq!(scopes.len(), 1, "{}", operation.id);
        assert!(
            flow.scopes.contains_key(&scopes[0]),
            "{}: {scopes:?}",
            operation.id
        );
        let schemes: Vec<&str> = operation
            .security
            .iter()
            .map(|r| r.scheme.as_str())
            .collect();
        assert_eq!(
            schemes,
            ["bearerAuth", "oAuth2ClientCredentials"],
            "either scheme satisfies {}",
            operation.id
        );
    }
}

#[test]
fn every_gap_of_the_seed_has_a_recorded_decision() {
    let spec = spec();
    let decided = [
        "/info",
        "/paths/~1user-attribute-profiles~1templates~1{id}/get",
        "/paths/~1actions~1modules~1{id}/get",
        "/paths/~1event-streams/post",
        "/paths/~1guardian~1factors~1push-notification~1providers~1apns/get",
        "/paths/~1token-exchange-profiles/post/responses/403",
        "/components/securitySchemes/bearerAuth",
        "/components/headers/X-RateLimit-Limit",
        "/components/headers/X-RateLimit-Reset",
        "/components/schemas/Error",
        "/components/schemas/TokenExchangeProfile",
        "/components/schemas/UserAttributeProfileTemplate",
        "/components/schemas/UserIdMapping/properties/oidc_mapping",
        "/components/schemas/UserIdStrategyOverrides",
        "/components/schemas/UserAttributes",
        "/components/schemas/ActionModule",
        "/components/schemas/ActionModuleSecret",
        "/components/schemas/CreateEventStreamRequest",
        "/components/schemas/EventStream",
        "/components/schemas/EventStreamStatus",
        "/components/schemas/EventStreamSubscription/properties/event_type",
        "/components/schemas/EventStreamDestination",
        "/components/schemas/WebhookAuthorizationInput",
        "/components/schemas/PushNotificationApnsProvider",
    ];
    for pointer in decided {
        let decision = at(&spec, pointer)["x-gap-decision"]
            .as_str()
            .unwrap_or_else(|| panic!("no decision at {pointer}"));
        assert!(decision.contains("Decision:"), "{pointer}: {decision}");
    }
    let error = schema(&spec, "Error");
    assert_eq!(error["required"], json!(["statusCode", "error", "message"]));
    assert!(error["properties"].get("errorCode").is_some());
}
