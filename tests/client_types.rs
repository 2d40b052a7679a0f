//! The generated types enforce the spec's constraints, and the client refuses
//! to send a request that breaks them.

use serde_json::json;
use tenant_api_client::{Client, Error};
use tenant_api_types::{
    CreateTokenExchangeProfileRequest, EventStreamId, SubjectTokenType, TokenExchangeProfileName,
    TokenExchangeProfileType, UserIdStrategyOverrides, builder,
};

#[test]
fn constrained_strings_reject_out_of_range_lengths() {
    assert!(TokenExchangeProfileName::try_from("ab").is_err());
    assert!(TokenExchangeProfileName::try_from("abc").is_ok());
    assert!(TokenExchangeProfileName::try_from("x".repeat(51)).is_err());
    assert!(SubjectTokenType::try_from("urn:x").is_err());
    assert!(
        EventStreamId::try_from("01HZX3Y5Q7R9T1V3W5X7Y9Z1A").is_err(),
        "25 characters"
    );
    assert!(EventStreamId::try_from("01HZX3Y5Q7R9T1V3W5X7Y9Z1A2").is_ok());
}

#[test]
fn profile_requests_reject_unknown_fields_and_wrong_types() {
    let valid = json!({
        "name": "Profile",
        "subject_token_type": "urn:example:token",
        "action_id": "act_1",
        "type": "custom_authentication",
    });
    let parsed: CreateTokenExchangeProfileRequest = serde_json::from_value(valid.clone()).unwrap();
    assert_eq!(parsed.type_, TokenExchangeProfileType::CustomAuthentication);

    let mut unknown = valid.clone();
    unknown["extra"] = json!(1);
    let err = serde_json::from_value::<CreateTokenExchangeProfileRequest>(unknown).unwrap_err();
    assert!(err.to_string().contains("unknown field `extra`"), "{err}");

    let mut wrong_type = valid.clone();
    wrong_type["type"] = json!("passthrough");
    assert!(serde_json::from_value::<CreateTokenExchangeProfileRequest>(wrong_type).is_err());

    let mut short_name = valid;
    short_name["name"] = json!("ab");
    let err = serde_json::from_value::<CreateTokenExchangeProfileRequest>(short_name).unwrap_err();
    assert!(
        err.to_string().contains("shorter than 3 characters"),
        "{err}"
    );
}

#[test]
fn vendor_strategy_override_keys_round_trip() {
    let overrides = json!({
        "ad": {"scim_mapping": "externalId"},
        "samlp": {"saml_mapping": ["nameid"]},
        "vendor-federation": {"saml_mapping": ["upn"], "scim_mapping": "userName"},
    });
    let parsed: UserIdStrategyOverrides = serde_json::from_value(overrides.clone()).unwrap();
    assert!(parsed.ad.is_some() && parsed.samlp.is_some());
    assert!(parsed.extra.contains_key("vendor-federation"));
    assert_eq!(serde_json::to_value(&parsed).unwrap(), overrides);
}

#[tokio::test]
async fn the_client_refuses_an_invalid_body_before_any_http_call() {
    // Nothing listens on the discard port; a request that got that far would
    // fail with a communication error instead.
    let client = Client::new(
        "http://127.0.0.1:9/api/v2",
        tenant_api_client::Hooks::default(),
    );
    let body = builder::CreateTokenExchangeProfileRequest::default()
        .name("ab")
        .subject_token_type("urn:example:token")
        .action_id("act_1")
        .type_(TokenExchangeProfileType::CustomAuthentication);
    let result = client
        .create_token_exchange_profile()
        .body(body)
        .send()
        .await;
    match result {
        Err(Error::InvalidRequest(message)) => assert!(message.contains("body"), "{message}"),
        other => panic!("expected an invalid request, got {other:?}"),
    }
}

/// The generated server's switch (`__checked`) lasts only while it types a
/// body its validator has checked: before and after, even after a typing
/// that panicked, deserializing a constrained string checks every rule.
#[test]
fn deserializing_checks_constrained_strings_outside_the_servers_typing() {
    let invalid = json!("urn:x");
    assert!(serde_json::from_value::<SubjectTokenType>(invalid.clone()).is_err());
    let typed: SubjectTokenType = tenant_api_types::__checked::assume_checked(|| {
        serde_json::from_value(json!("urn:partner:token")).unwrap()
    });
    assert_eq!(typed.as_str(), "urn:partner:token");
    assert!(serde_json::from_value::<SubjectTokenType>(invalid.clone()).is_err());
    let panicked = std::panic::catch_unwind(|| {
        tenant_api_types::__checked::assume_checked(|| panic!("typing failed"))
    });
    assert!(panicked.is_err());
    assert!(serde_json::from_value::<SubjectTokenType>(invalid).is_err());
}

/// The types' `Deserialize` is written out rather than derived (for compile
/// time: `emit::deserialize`); it answers every input as serde's derive
/// does, but a struct's positional (array) form.
#[test]
fn written_out_deserialize_answers_as_the_derive_does() {
    mod derived {
        use tenant_api_types::{SubjectTokenType, TokenExchangeActionId, TokenExchangeProfileName};

        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        pub struct CreateTokenExchangeProfileRequest {
            action_id: TokenExchangeActionId,
            name: TokenExchangeProfileName,
            subject_token_type: SubjectTokenType,
            #[serde(rename = "type")]
            type_: TokenExchangeProfileType,
        }

        #[derive(serde::Deserialize, Debug)]
        pub enum TokenExchangeProfileType {
            #[serde(rename = "custom_authentication")]
            CustomAuthentication,
        }
    }
    let fields =
        r#""name": "Profile", "subject_token_type": "urn:example:token", "action_id": "act_1""#;
    let inputs = [
        format!(r#"{{{fields}, "type": "custom_authentication"}}"#),
        format!(r#"{{{fields}}}"#),
        format!(r#"{{{fields}, "type": "custom_authentication", "name": "Other"}}"#),
        format!(r#"{{{fields}, "type": "custom_authentication", "extra": 1}}"#),
        format!(r#"{{{fields}, "type": "passthrough"}}"#),
        format!(r#"{{{fields}, "type": 1}}"#),
        format!(r#"{{{fields}, "type": {{"custom_authentication": null}}}}"#),
        format!(r#"{{{fields}, "type": null}}"#),
        r#"{"name": 1}"#.to_owned(),
        "null".to_owned(),
        "\"text\"".to_owned(),
    ];
    for input in &inputs {
        let written = serde_json::from_str::<CreateTokenExchangeProfileRequest>(input)
            .map(drop)
            .map_err(|err| err.to_string());
        let derived = serde_json::from_str::<derived::CreateTokenExchangeProfileRequest>(input)
            .map(drop)
            .map_err(|err| err.to_string());
        assert_eq!(written, derived, "{input}");
    }
    let positional = r#"["act_1", "Profile", "urn:example:token", "custom_authentication"]"#;
    assert!(serde_json::from_str::<derived::CreateTokenExchangeProfileRequest>(positional).is_ok());
    let err = serde_json::from_str::<CreateTokenExchangeProfileRequest>(positional).unwrap_err();
    assert!(
        err.to_string()
            .contains("invalid type: sequence, expected struct CreateTokenExchangeProfileRequest"),
        "{err}"
    );
}

/// An optional property is an `Option` without a default: absent, it is
/// `None` (serde's derive reads it so, and so does the written-out impl),
/// while a required one is reported missing.
#[test]
fn an_absent_option_is_none_and_an_absent_required_field_is_named() {
    let body = json!({"error": "Bad Request", "message": "no", "statusCode": 400});
    let error: tenant_api_types::Error = serde_json::from_value(body.clone()).unwrap();
    assert_eq!(error.error_code, None);
    assert!(error.errors.is_empty());
    let mut without_message = body;
    without_message.as_object_mut().unwrap().remove("message");
    let err = serde_json::from_value::<tenant_api_types::Error>(without_message).unwrap_err();
    assert_eq!(err.to_string(), "missing field `message`");
}

/// The written-out reading of `Error`'s fields (an optional `Option`, read
/// without a call through `__checked::required`; a defaulted list; renamed
/// fields) answers as serde's derive: absent, `null`, present, duplicated
/// and wrongly typed alike.
#[test]
fn written_out_optional_and_defaulted_fields_answer_as_the_derive_does() {
    mod derived {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        pub struct Error {
            pub error: String,
            #[serde(rename = "errorCode")]
            pub error_code: Option<String>,
            #[serde(default)]
            pub errors: Vec<serde_json::Value>,
            pub message: String,
            #[serde(rename = "statusCode")]
            pub status_code: i64,
        }
    }
    let fields = r#""error": "Bad Request", "message": "no", "statusCode": 400"#;
    let inputs = [
        format!("{{{fields}}}"),
        format!(r#"{{{fields}, "errorCode": null}}"#),
        format!(r#"{{{fields}, "errorCode": "E1"}}"#),
        format!(r#"{{{fields}, "errorCode": null, "errorCode": "E1"}}"#),
        format!(r#"{{{fields}, "errorCode": 1}}"#),
        format!(r#"{{{fields}, "errors": null}}"#),
        format!(r#"{{{fields}, "errors": [], "errors": []}}"#),
        format!(r#"{{{fields}, "statusCode": 401}}"#),
        r#"{"error": "Bad Request", "statusCode": 400}"#.to_owned(),
        r#"{"error": "Bad Request", "message": null, "statusCode": 400}"#.to_owned(),
    ];
    for input in &inputs {
        let written = serde_json::from_str::<tenant_api_types::Error>(input)
            .map(|error| {
                (
                    error.error,
                    error.error_code,
                    error.errors.len(),
                    error.message,
                )
            })
            .map_err(|err| err.to_string());
        let derived = serde_json::from_str::<derived::Error>(input)
            .map(|error| {
                (
                    error.error,
                    error.error_code,
                    error.errors.len(),
                    error.message,
                )
            })
            .map_err(|err| err.to_string());
        assert_eq!(written, derived, "{input}");
    }
}

/// The written-out `Serialize` (for compile time: `emit::deserialize`)
/// writes what serde's derive writes: renamed fields in order, fields whose
/// `skip_serializing_if` holds left out, string enums as their wire names.
#[test]
fn written_out_serialize_writes_what_the_derive_writes() {
    mod derived {
        #[derive(serde::Serialize)]
        pub struct Error {
            pub error: String,
            #[serde(rename = "errorCode", skip_serializing_if = "Option::is_none")]
            pub error_code: Option<String>,
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub errors: Vec<ErrorItem>,
            pub message: String,
            #[serde(rename = "statusCode")]
            pub status_code: i64,
        }

        #[derive(serde::Serialize)]
        pub struct ErrorItem {
            pub code: String,
            pub detail: String,
            #[serde(rename = "in", skip_serializing_if = "Option::is_none")]
            pub in_: Option<ErrorItemIn>,
            #[serde(skip_serializing_if = "Option::is_none")]
            pub name: Option<String>,
            #[serde(skip_serializing_if = "Option::is_none")]
            pub pointer: Option<String>,
        }

        #[derive(serde::Serialize, Clone, Copy)]
        pub enum ErrorItemIn {
            #[serde(rename = "path")]
            Path,
            #[serde(rename = "query")]
            Query,
            #[serde(rename = "header")]
            Header,
        }
    }
    use tenant_api_types::{ErrorItem, ErrorItemIn};
    let item = |in_: Option<ErrorItemIn>, name: Option<&str>| ErrorItem {
        code: "min_length".into(),
        detail: "too short".into(),
        pointer: in_.is_none().then(|| "/name".into()),
        in_,
        name: name.map(Into::into),
    };
    let derived_item = |item: &ErrorItem| derived::ErrorItem {
        code: item.code.clone(),
        detail: item.detail.clone(),
        in_: item.in_.as_ref().map(|in_| match in_ {
            ErrorItemIn::Path => derived::ErrorItemIn::Path,
            ErrorItemIn::Query => derived::ErrorItemIn::Query,
            ErrorItemIn::Header => derived::ErrorItemIn::Header,
            ErrorItemIn::Unknown(value) => panic!("the cases list known values, not {value}"),
        }),
        name: item.name.clone(),
        pointer: item.pointer.clone(),
    };
    let cases = [
        (None, vec![]),
        (Some("E1"), vec![item(None, None)]),
        (
            None,
            vec![
                item(Some(ErrorItemIn::Path), Some("id")),
                item(Some(ErrorItemIn::Query), Some("q")),
                item(Some(ErrorItemIn::Header), Some("h")),
            ],
        ),
    ];
    for (error_code, errors) in cases {
        let written = tenant_api_types::Error {
            error: "Bad Request".into(),
            error_code: error_code.map(Into::into),
            errors,
            message: "no".into(),
            status_code: 400,
        };
        let derived = derived::Error {
            error: written.error.clone(),
            error_code: written.error_code.clone(),
            errors: written.errors.iter().map(derived_item).collect(),
            message: written.message.clone(),
            status_code: written.status_code,
        };
        assert_eq!(
            serde_json::to_string(&written).unwrap(),
            serde_json::to_string(&derived).unwrap()
        );
    }
}
