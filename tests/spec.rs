//! The hand-authored spec: it parses with the generator's own `openapiv3`,
//! and it states the facts of the seed document and a decision for each gap.

use std::path::Path;

use openapi_crates_codegen::load::{LoadedSpec, load_spec};
use openapiv3::{OpenAPI, ReferenceOr, SecurityScheme};
use serde_json::{Value, json};
use workspace_tests::workspace_root;

fn spec() -> LoadedSpec {
    load_spec(
        &workspace_root(),
        Path::new(openapi_crates_codegen::SPEC_FILE),
    )
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
        openapi_crates_codegen::model::parse_openapi(&spec()).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(typed.openapi, "3.0.3");
    assert_eq!(typed.info.version, "2.0");
    assert_eq!(typed.servers[0].url, "https://{tenant_domain}/api/v2");
    assert_eq!(typed.paths.paths.len(), 5);
    openapi_crates_codegen::model::build_model(&spec()).unwrap_or_else(|err| panic!("{err}"));
}

#[test]
fn describes_exactly_the_five_operations() {
    let model = openapi_crates_codegen::model::build_model(&spec()).unwrap();
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
    // The seed's webhook variant with basic authorization, as it shows them.
    assert_eq!(
        schema(&spec, "BasicWebhookAuthorizationMethod")["enum"],
        json!(["basic"])
    );
    assert_eq!(
        schema(&spec, "WebhookDestinationType")["enum"],
        json!(["webhook"])
    );
    let basic = schema(&spec, "BasicWebhookAuthorization");
    assert_eq!(basic["required"], json!(["method", "username"]));
    assert_eq!(
        schema(&spec, "WebhookConfiguration")["required"],
        json!(["webhook_endpoint", "webhook_authorization"])
    );
}

/// The refs of a discriminated `oneOf`, and its mapping, by discriminator value.
fn variants(spec: &LoadedSpec, name: &str, property: &str) -> Vec<(String, String)> {
    let union = schema(spec, name);
    assert_eq!(union["discriminator"]["propertyName"], property, "{name}");
    let one_of: Vec<&str> = union["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|variant| variant["$ref"].as_str().unwrap())
        .collect();
    let mapping = union["discriminator"]["mapping"].as_object().unwrap();
    assert_eq!(
        mapping
            .values()
            .map(|v| v.as_str().unwrap())
            .collect::<Vec<_>>(),
        one_of,
        "{name}: every variant is mapped, in order"
    );
    mapping
        .iter()
        .map(|(value, target)| {
            let target = target.as_str().unwrap().rsplit('/').next().unwrap();
            // The variant's own discriminator property pins the same value.
            let tag = &schema(spec, target)["properties"][property]["$ref"];
            let tag = tag.as_str().unwrap().rsplit('/').next().unwrap();
            assert_eq!(schema(spec, tag)["enum"], json!([value]), "{target}");
            assert!(
                schema(spec, target)["required"]
                    .as_array()
                    .unwrap()
                    .contains(&json!(property)),
                "{target}"
            );
            (value.clone(), target.to_string())
        })
        .collect()
}

/// The properties a schema declares.
fn property_names(spec: &LoadedSpec, name: &str) -> Vec<String> {
    schema(spec, name)["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

/// Destinations and webhook authorization follow the platform's published
/// definition and SDKs: three destination types, three methods, credentials
/// sent but never returned.
#[test]
fn destinations_and_webhook_authorization_follow_the_published_definition() {
    let spec = spec();
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        variants(&spec, "EventStreamDestination", "type"),
        pairs(&[
            ("webhook", "WebhookDestination"),
            ("eventbridge", "EventBridgeDestination"),
            ("action", "ActionDestination"),
        ])
    );
    assert_eq!(
        variants(&spec, "EventStreamDestinationInput", "type"),
        pairs(&[
            ("webhook", "WebhookDestinationInput"),
            ("eventbridge", "EventBridgeDestination"),
            ("action", "ActionDestination"),
        ])
    );
    assert_eq!(
        variants(&spec, "WebhookAuthorization", "method"),
        pairs(&[
            ("basic", "BasicWebhookAuthorization"),
            ("bearer", "BearerWebhookAuthorization"),
            ("custom_header", "CustomHeaderWebhookAuthorization"),
        ])
    );
    assert_eq!(
        variants(&spec, "WebhookAuthorizationInput", "method"),
        pairs(&[
            ("basic", "BasicWebhookAuthorizationInput"),
            ("bearer", "BearerWebhookAuthorizationInput"),
            ("custom_header", "CustomHeaderWebhookAuthorizationInput"),
        ])
    );
    // Requests carry the credential, write-only; responses have no property
    // that could carry one.
    for (input, output, secret, echoed) in [
        (
            "BasicWebhookAuthorizationInput",
            "BasicWebhookAuthorization",
            "password",
            Some("username"),
        ),
        (
            "BearerWebhookAuthorizationInput",
            "BearerWebhookAuthorization",
            "token",
            None,
        ),
        (
            "CustomHeaderWebhookAuthorizationInput",
            "CustomHeaderWebhookAuthorization",
            "header_value",
            Some("header_key"),
        ),
    ] {
        let input_schema = schema(&spec, input);
        assert_eq!(
            input_schema["properties"][secret]["writeOnly"], true,
            "{input}"
        );
        assert!(
            input_schema["required"]
                .as_array()
                .unwrap()
                .contains(&json!(secret))
        );
        let mut expected = vec!["method".to_string()];
        expected.extend(echoed.map(str::to_string));
        assert_eq!(property_names(&spec, output), expected, "{output}");
    }
    assert_eq!(
        schema(&spec, "WebhookEndpoint")["pattern"],
        r"^https://([A-Za-z0-9._~%!$&()*+,;=-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?([/?#]\S*)?$"
    );
    let eventbridge = schema(&spec, "EventBridgeConfiguration");
    assert_eq!(
        eventbridge["properties"]["aws_account_id"]["pattern"],
        "^[0-9]{12}$"
    );
    assert_eq!(
        eventbridge["properties"]["aws_partner_event_source"]["readOnly"], true,
        "set by the service"
    );
    assert_eq!(
        schema(&spec, "ActionDestinationConfiguration")["required"],
        json!(["action_id"])
    );

    // The region list and the field names are the published definition's.
    let published = published();
    let published_schemas = &published["components"]["schemas"];
    assert_eq!(
        schema(&spec, "EventBridgeConfiguration")["required"],
        published_schemas["EventStreamEventBridgeConfiguration"]["required"]
    );
    assert_eq!(
        schema(&spec, "AwsRegion")["enum"],
        published_schemas["EventStreamEventBridgeAWSRegionEnum"]["enum"]
    );
    for (ours, theirs) in [
        (
            "EventBridgeConfiguration",
            "EventStreamEventBridgeConfiguration",
        ),
        (
            "ActionDestinationConfiguration",
            "EventStreamActionConfiguration",
        ),
        ("WebhookConfiguration", "EventStreamWebhookConfiguration"),
        ("BasicWebhookAuthorization", "EventStreamWebhookBasicAuth"),
        ("BearerWebhookAuthorization", "EventStreamWebhookBearerAuth"),
        (
            "CustomHeaderWebhookAuthorization",
            "EventStreamWebhookCustomHeaderAuth",
        ),
    ] {
        let theirs: Vec<String> = published_schemas[theirs]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(property_names(&spec, ours), theirs, "{ours}");
    }
}

fn published() -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(
            workspace_root().join("../shared/specs/platform-management-api.oas.json"),
        )
        .expect("the platform's published definition next to the workspace"),
    )
    .unwrap()
}

/// The seed's `format: url` stays; the `pattern` beside it states the same
/// rule, and it accepts exactly what the server's `url` check accepts.
#[test]
fn the_uri_pattern_agrees_with_the_servers_url_check() {
    use openapi_crates_runtime::checks::{self, Location, Pattern, Violations};
    let spec = spec();
    let subject = schema(&spec, "SubjectTokenType");
    assert_eq!(subject["format"], "url");
    assert!(
        subject["x-gap-decision"]
            .as_str()
            .unwrap()
            .contains("urn:partner:token")
    );
    let source: &'static str = subject["pattern"].as_str().unwrap().to_string().leak();
    let pattern = Pattern::new(source);
    let samples = [
        ("urn:partner:token", true),
        ("urn:ietf:params:oauth:token-type:jwt", true),
        ("https://partner.example/token?kind=a&b=%2F#frag", true),
        ("mailto:a@b.c", true),
        ("x+y.z-w:[::1]", true),
        ("partner-token", false),
        ("1urn:partner", false),
        ("urn:", false),
        (":nothing", false),
        ("urn:partner token", false),
        ("urn:partner\ttoken", false),
        ("urn:partner\u{7f}", false),
        ("urn:partner:token\n", false),
        ("urn:a<b>", false),
        ("https://a/{x}", false),
        ("https://a|b", false),
        ("urn:\\x", false),
        ("urn:é", false),
        ("https://a/%zz", false),
        ("https://a/%4", false),
    ];
    let at = Location::Property(&Location::Body, "subject_token_type");
    for (sample, valid) in samples {
        let mut out = Violations::new();
        checks::format(sample, "url", &at, &mut out);
        assert_eq!(out.is_empty(), valid, "the url check on {sample:?}");
        assert_eq!(pattern.matches(sample), valid, "the pattern on {sample:?}");
    }
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
    let published = published();
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
    // Each override may also name the OIDC claim, from the platform's list.
    assert_eq!(
        schema(&spec, "StrategyOverride")["properties"]["oidc_mapping"]["enum"],
        json!(["sub", "oid", "email"])
    );
    assert_eq!(
        schema(&spec, "UserIdMapping")["properties"]["oidc_mapping"]["enum"],
        json!(["sub"])
    );
    // Attribute overrides have the same keys, and keep others too.
    let attribute_overrides = schema(&spec, "UserAttributeStrategyOverrides");
    assert_eq!(
        attribute_overrides["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        keys
    );
    assert_eq!(
        attribute_overrides["additionalProperties"]["$ref"],
        "#/components/schemas/UserAttributeStrategyOverride"
    );
}

/// `user_attributes` in the platform's real shape: 1 to 64 named attribute
/// definitions, with the published definition's fields and constraints.
#[test]
fn user_attributes_take_the_published_shape() {
    let spec = spec();
    let map = schema(&spec, "UserAttributes");
    assert_eq!(
        (&map["minProperties"], &map["maxProperties"]),
        (&json!(1), &json!(64))
    );
    assert_eq!(
        map["additionalProperties"]["$ref"],
        "#/components/schemas/UserAttribute"
    );
    let published = published();
    let published_schemas = &published["components"]["schemas"];
    let theirs = &published_schemas["UserAttributeProfileUserAttributeAdditionalProperties"];
    let ours = schema(&spec, "UserAttribute");
    assert_eq!(
        ours["required"],
        json!(["description", "label", "profile_required", "auth0_mapping"])
    );
    assert_eq!(ours["required"], theirs["required"]);
    assert_eq!(
        property_names(&spec, "UserAttribute"),
        theirs["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect::<Vec<_>>()
    );
    for field in ["description", "label", "auth0_mapping", "scim_mapping"] {
        for keyword in ["type", "minLength", "maxLength"] {
            assert_eq!(
                ours["properties"][field][keyword], theirs["properties"][field][keyword],
                "{field}.{keyword}"
            );
        }
    }
    assert_eq!(ours["properties"]["profile_required"]["type"], "boolean");
    let oidc = schema(&spec, "UserAttributeOidcMapping");
    let their_oidc = &published_schemas["UserAttributeProfileOidcMapping"];
    assert_eq!(oidc["required"], their_oidc["required"]);
    assert_eq!(
        property_names(&spec, "UserAttributeOidcMapping"),
        ["mapping", "display_name"]
    );
    let saml = schema(&spec, "UserAttributeSamlMapping");
    let their_saml = &published_schemas["UserAttributeProfileSamlMapping"];
    assert_eq!(saml["type"], "array");
    assert_eq!(saml["minItems"], their_saml["minItems"]);
    assert_eq!(saml["items"]["maxLength"], their_saml["items"]["maxLength"]);
    assert_eq!(
        property_names(&spec, "UserAttributeStrategyOverride"),
        ["oidc_mapping", "saml_mapping", "scim_mapping"]
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
    let typed = openapi_crates_codegen::model::parse_openapi(&loaded).unwrap();
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

    let model = openapi_crates_codegen::model::build_model(&loaded).unwrap();
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
        "/components/schemas/EventStreamDestinationInput",
        "/components/schemas/WebhookEndpoint",
        "/components/schemas/WebhookAuthorization",
        "/components/schemas/WebhookAuthorizationInput",
        "/components/schemas/WebhookUsername",
        "/components/schemas/EventBridgeConfiguration",
        "/components/schemas/AwsRegion",
        "/components/schemas/ActionDestinationConfiguration",
        "/components/schemas/StrategyOverride/properties/oidc_mapping",
        "/components/schemas/UserAttributeStrategyOverrides",
        "/components/schemas/SubjectTokenType",
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
