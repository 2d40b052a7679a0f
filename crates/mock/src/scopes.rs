//! Scope checking, when asked for (`--check-scopes`): a mock has no key to
//! verify a token with, so it reads the scopes a bearer token claims from
//! its JWT claims, unverified (`scope`, space-separated as RFC 8693 and RFC
//! 9068 write it, or a `scp` or `permissions` list), and answers as the
//! generated server does when `authorize` refuses: 401 for a token it
//! cannot read, 403 `insufficient_scope` for one without the scopes.

use openapi_crates_runtime::AuthError;

/// Whether `token` holds one of the scopes the operation lists
/// (`model::Operation::required_scopes`, which the generated server hands
/// its `authorize`), as the reference server reads them: the platform's
/// rule, "expected any of". An operation listing none takes any token.
pub(crate) fn check(required: &[String], token: Option<&str>) -> Result<(), AuthError> {
    if required.is_empty() {
        return Ok(());
    }
    let unreadable = || {
        AuthError::Unauthenticated(
            "The mock checks scopes: send a bearer token that is a JWT listing them \
             (claim `scope`, `scp` or `permissions`)"
                .to_owned(),
        )
    };
    let token = token.ok_or_else(unreadable)?;
    let claims: serde_json::Value =
        jsonwebtoken::dangerous::insecure_decode_claims(token).map_err(|_| unreadable())?;
    let granted = granted(&claims);
    if required
        .iter()
        .any(|scope| granted.contains(&scope.as_str()))
    {
        return Ok(());
    }
    Err(AuthError::Forbidden(format!(
        "Insufficient scope; expected any of: {}",
        required.join(", ")
    )))
}

/// The scopes the claims grant.
fn granted(claims: &serde_json::Value) -> Vec<&str> {
    let mut granted: Vec<&str> = claims
        .get("scope")
        .and_then(serde_json::Value::as_str)
        .map(|scope| scope.split_whitespace().collect())
        .unwrap_or_default();
    for list in ["scp", "permissions"] {
        if let Some(items) = claims.get(list).and_then(serde_json::Value::as_array) {
            granted.extend(items.iter().filter_map(serde_json::Value::as_str));
        }
    }
    granted
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JWT with `claims`, signed with a key the mock never sees.
    fn token(claims: serde_json::Value) -> String {
        jsonwebtoken::encode(
            &jsonwebtoken::Header::default(),
            &claims,
            &jsonwebtoken::EncodingKey::from_secret(b"any key"),
        )
        .unwrap()
    }

    fn refusal(required: &[&str], token: Option<&str>) -> Option<String> {
        let required: Vec<String> = required.iter().map(|scope| scope.to_string()).collect();
        check(&required, token).err().map(|err| match err {
            AuthError::Unauthenticated(message) => format!("401 {message}"),
            AuthError::Forbidden(message) => format!("403 {message}"),
        })
    }

    #[test]
    fn a_token_must_claim_one_of_the_scopes() {
        let required = ["read:clients", "read:client_keys"];
        for claims in [
            serde_json::json!({"scope": "other read:client_keys"}),
            serde_json::json!({"scp": ["read:clients"]}),
            serde_json::json!({"permissions": ["read:clients"], "scope": "x"}),
        ] {
            assert_eq!(
                refusal(&required, Some(&token(claims.clone()))),
                None,
                "{claims}"
            );
        }
        assert_eq!(
            refusal(
                &required,
                Some(&token(serde_json::json!({"scope": "read:users"})))
            ),
            Some(
                "403 Insufficient scope; expected any of: read:clients, read:client_keys"
                    .to_owned()
            )
        );
        assert!(
            refusal(&required, Some("not-a-jwt"))
                .unwrap()
                .starts_with("401 ")
        );
        assert!(refusal(&required, None).unwrap().starts_with("401 "));
    }

    #[test]
    fn operations_without_scopes_take_any_token() {
        assert_eq!(refusal(&[], None), None);
        assert_eq!(refusal(&[], Some("opaque")), None);
    }
}
