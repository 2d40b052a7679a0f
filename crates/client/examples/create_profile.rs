//! Creates a token exchange profile against a running reference server:
//!
//! ```sh
//! cargo run -p tenant-reference-server -- --listen 127.0.0.1:8080 &
//! cargo run -p tenant-client --example create_profile -- http://127.0.0.1:8080 urn:partner:token
//! ```
//!
//! The client credentials default to the reference server's `dev-global`
//! client; set `CLIENT_ID` and `CLIENT_SECRET` to use another.

use tenant_client::{TenantClient, types};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let domain = args
        .next()
        .unwrap_or_else(|| "http://127.0.0.1:8080".to_string());
    let subject_token_type = args
        .next()
        .unwrap_or_else(|| "urn:example:partner-token".to_string());
    let client_id = std::env::var("CLIENT_ID").unwrap_or_else(|_| "dev-global".to_string());
    let client_secret =
        std::env::var("CLIENT_SECRET").unwrap_or_else(|_| "dev-global-secret".to_string());

    // The reference server's tokens are for https://localhost:8080/api/v2/ by default.
    let host = domain
        .split_once("://")
        .map_or(domain.as_str(), |(_, host)| host);
    let audience = format!("https://{}/api/v2/", host.replace("127.0.0.1", "localhost"));
    let client = TenantClient::builder(&domain)
        .client_credentials(client_id, client_secret)
        .audience(audience)
        .build()?;

    let body = types::CreateTokenExchangeProfileRequest::builder()
        .name("Example partner tokens")
        .subject_token_type(subject_token_type)
        .action_id("act_token_exchange")
        .type_(types::TokenExchangeProfileType::CustomAuthentication);
    match client
        .create_token_exchange_profile()
        .body(body)
        .send()
        .await
    {
        Ok(profile) => println!("created {} for {}", profile.id, *profile.subject_token_type),
        Err(tenant_client::Error::ErrorResponse(error)) => {
            eprintln!("refused with {}: {}", error.status(), error.message);
            std::process::exit(1);
        }
        Err(other) => return Err(other.into()),
    }
    Ok(())
}
