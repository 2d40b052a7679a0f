//! Where the client's access token comes from. The generated client's
//! hooks send it: a fixed token as it is, client credentials exchanged at
//! the tenant's token endpoint for tokens they cache and renew.

/// Where the client's access token comes from.
#[derive(Clone)]
pub enum Credentials {
    /// A token obtained elsewhere, sent as it is.
    AccessToken(String),
    /// An OAuth 2.0 client of the tenant; tokens are fetched as needed.
    ClientCredentials {
        client_id: String,
        client_secret: String,
    },
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::AccessToken(_) => f.write_str("AccessToken(..)"),
            Credentials::ClientCredentials { client_id, .. } => {
                write!(f, "ClientCredentials {{ client_id: {client_id:?}, .. }}")
            }
        }
    }
}
