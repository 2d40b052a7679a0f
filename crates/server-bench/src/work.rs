//! What both servers do once a request is accepted, so the benchmark
//! compares only the request path around it.

use std::sync::LazyLock;

use tenant_api_server::types;

/// The bearer token both servers accept.
pub const TOKEN: &str = "bench-token";

static CREATED_AT: LazyLock<chrono::DateTime<chrono::Utc>> = LazyLock::new(|| {
    chrono::DateTime::parse_from_rfc3339("2026-01-02T03:04:05Z")
        .expect("a valid timestamp")
        .to_utc()
});

/// The module `GET /actions/modules/{id}` returns.
pub fn action_module(id: String) -> types::ActionModule {
    types::ActionModule {
        actions_using_module_total: 2,
        all_changes_published: true,
        code: "module.exports = {};".into(),
        created_at: *CREATED_AT,
        dependencies: Vec::new(),
        id,
        latest_version: None,
        latest_version_number: Some(3),
        name: "bench-module".into(),
        secrets: Vec::new(),
        updated_at: *CREATED_AT,
    }
}

/// The profile a valid create request stores and returns.
pub fn created_profile(
    request: types::CreateTokenExchangeProfileRequest,
) -> types::TokenExchangeProfile {
    types::TokenExchangeProfile {
        action_id: request.action_id,
        created_at: *CREATED_AT,
        id: "tep_01jbench0000000000000000".into(),
        name: request.name,
        subject_token_type: request.subject_token_type,
        type_: request.type_,
        updated_at: *CREATED_AT,
    }
}
