//! The in-memory store of created resources. Each create checks the
//! tenant's limit and uniqueness and inserts under one lock, so concurrent
//! identical requests create exactly one resource. Uniqueness is checked in
//! an index of the unique field, so a create costs the same however many
//! resources the tenant has.

use std::collections::HashSet;
use std::sync::Mutex;

use tenant_api_server::types;

/// The tenant already has `limit` resources of the type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitReached {
    pub limit: usize,
}

/// Why a token exchange profile was not created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreateProfileError {
    LimitReached(LimitReached),
    /// A profile with this `subject_token_type` exists.
    Duplicate,
}

/// Why an event stream was not created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreateStreamError {
    LimitReached(LimitReached),
    /// Another stream has this name.
    NameTaken,
}

pub struct Store {
    entity_limit: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    token_exchange_profiles: Vec<types::TokenExchangeProfile>,
    /// The `subject_token_type` of every profile.
    subject_token_types: HashSet<String>,
    event_streams: Vec<types::EventStream>,
    /// The name of every named stream.
    stream_names: HashSet<String>,
}

impl Store {
    /// A store allowing `entity_limit` resources of each type.
    pub fn new(entity_limit: usize) -> Self {
        Self {
            entity_limit,
            inner: Mutex::default(),
        }
    }

    /// How many token exchange profiles the tenant has.
    pub fn token_exchange_profiles(&self) -> usize {
        self.inner
            .lock()
            .expect("store lock")
            .token_exchange_profiles
            .len()
    }

    pub fn create_token_exchange_profile(
        &self,
        request: types::CreateTokenExchangeProfileRequest,
    ) -> Result<types::TokenExchangeProfile, CreateProfileError> {
        let mut inner = self.inner.lock().expect("store lock");
        if inner.token_exchange_profiles.len() >= self.entity_limit {
            return Err(CreateProfileError::LimitReached(LimitReached {
                limit: self.entity_limit,
            }));
        }
        if !inner
            .subject_token_types
            .insert(request.subject_token_type.to_string())
        {
            return Err(CreateProfileError::Duplicate);
        }
        let now = chrono::Utc::now();
        let profile = types::TokenExchangeProfile {
            id: format!("tep_{}", ulid::Ulid::generate().to_string().to_lowercase()),
            name: request.name,
            subject_token_type: request.subject_token_type,
            action_id: request.action_id,
            type_: request.type_,
            created_at: now,
            updated_at: now,
        };
        inner.token_exchange_profiles.push(profile.clone());
        Ok(profile)
    }

    pub fn create_event_stream(
        &self,
        request: types::CreateEventStreamRequest,
    ) -> Result<types::EventStream, CreateStreamError> {
        let mut inner = self.inner.lock().expect("store lock");
        // The seed answers a reached entity limit with 403, so that check
        // comes first and keeps its status; 409 is only for a taken name.
        if inner.event_streams.len() >= self.entity_limit {
            return Err(CreateStreamError::LimitReached(LimitReached {
                limit: self.entity_limit,
            }));
        }
        if let Some(name) = &request.name
            && !inner.stream_names.insert(name.to_string())
        {
            return Err(CreateStreamError::NameTaken);
        }
        let now = chrono::Utc::now();
        let id = ulid::Ulid::generate().to_string();
        let stream = types::EventStream {
            destination: without_credentials(request.destination, &id),
            id: id.parse().expect("a ULID has 26 characters"),
            name: request.name,
            subscriptions: request.subscriptions,
            status: request.status.unwrap_or(types::EventStreamStatus::Enabled),
            created_at: now,
            updated_at: now,
        };
        inner.event_streams.push(stream.clone());
        Ok(stream)
    }
}

/// The partner event source the service creates for an EventBridge
/// destination: AWS's `aws.partner/{partner}/{name}` form, named after the
/// stream so each stream has its own.
pub fn partner_event_source(stream_id: &str) -> String {
    format!(
        "aws.partner/tenant-management/{}",
        stream_id.to_ascii_lowercase()
    )
}

/// The destination as stored and returned. Credentials (the basic password,
/// the bearer token, the custom header's value) are dropped here, and the
/// response types have no field that could carry them; an EventBridge
/// destination gets the partner event source the service sets, whatever the
/// request said.
fn without_credentials(
    destination: types::EventStreamDestinationInput,
    stream_id: &str,
) -> types::EventStreamDestination {
    use types::{EventStreamDestinationInput as Input, WebhookAuthorizationInput as AuthInput};
    match destination {
        Input::WebhookDestinationInput(webhook) => {
            let authorization = match webhook.configuration.webhook_authorization {
                AuthInput::BasicWebhookAuthorizationInput(basic) => {
                    types::WebhookAuthorization::BasicWebhookAuthorization(
                        types::BasicWebhookAuthorization {
                            method: basic.method,
                            username: basic.username,
                        },
                    )
                }
                AuthInput::BearerWebhookAuthorizationInput(bearer) => {
                    types::WebhookAuthorization::BearerWebhookAuthorization(
                        types::BearerWebhookAuthorization {
                            method: bearer.method,
                        },
                    )
                }
                AuthInput::CustomHeaderWebhookAuthorizationInput(header) => {
                    types::WebhookAuthorization::CustomHeaderWebhookAuthorization(
                        types::CustomHeaderWebhookAuthorization {
                            method: header.method,
                            header_key: header.header_key,
                        },
                    )
                }
            };
            types::EventStreamDestination::WebhookDestination(types::WebhookDestination {
                type_: webhook.type_,
                configuration: types::WebhookConfiguration {
                    webhook_endpoint: webhook.configuration.webhook_endpoint,
                    webhook_authorization: authorization,
                },
            })
        }
        Input::EventBridgeDestination(mut eventbridge) => {
            eventbridge.configuration.aws_partner_event_source =
                Some(partner_event_source(stream_id));
            types::EventStreamDestination::EventBridgeDestination(eventbridge)
        }
        Input::ActionDestination(action) => {
            types::EventStreamDestination::ActionDestination(action)
        }
    }
}
