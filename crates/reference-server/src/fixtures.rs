//! The data the server starts with: OAuth clients, actions, and the
//! read-only resources (action modules, templates, the APNs provider).
//!
//! A default set ships in `fixtures/default.json`; `--fixtures FILE` replaces it.

use std::path::Path;

use serde::Deserialize;
use tenant_api_server::types;

/// The fixtures shipped with the server.
pub const DEFAULT_FIXTURES: &str = include_str!("../fixtures/default.json");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fixtures {
    /// OAuth 2.0 clients that may obtain tokens from `/oauth/token`.
    pub clients: Vec<Client>,
    /// Actions a token exchange profile may reference.
    pub actions: Vec<Action>,
    pub action_modules: Vec<types::ActionModule>,
    pub user_attribute_profile_templates: Vec<types::UserAttributeProfileTemplate>,
    pub apns_provider: types::PushNotificationApnsProvider,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Client {
    pub client_id: String,
    pub client_secret: String,
    /// Only tokens of global clients may create token exchange profiles.
    pub global: bool,
    /// The scopes the client is granted.
    pub scopes: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    pub id: String,
    pub name: String,
    pub deployed: bool,
    pub supported_triggers: Vec<String>,
}

impl Fixtures {
    /// The fixtures shipped with the server.
    pub fn builtin() -> Self {
        Self::parse(DEFAULT_FIXTURES).expect("the shipped fixtures are valid")
    }

    /// Reads fixtures from a JSON file.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text =
            std::fs::read_to_string(path).map_err(|err| format!("{}: {err}", path.display()))?;
        Self::parse(&text).map_err(|err| format!("{}: {err}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    pub fn client(&self, client_id: &str) -> Option<&Client> {
        self.clients
            .iter()
            .find(|client| client.client_id == client_id)
    }

    pub fn action(&self, id: &str) -> Option<&Action> {
        self.actions.iter().find(|action| action.id == id)
    }
}
