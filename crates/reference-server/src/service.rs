//! The reference implementation of the generated server trait.

use std::sync::Arc;

use axum::http::StatusCode;
use tenant_api_server::{
    AuthError, AuthorizationRequest, CreateEventStreamResponse, CreateTokenExchangeProfileResponse,
    GetActionModuleResponse, GetPushNotificationApnsProviderResponse,
    GetUserAttributeProfileTemplateResponse, RequestContext, TenantManagementApi, types,
};

use crate::AppState;
use crate::store::{CreateProfileError, CreateStreamError, LimitReached};

/// The trigger an action needs to validate subject tokens.
const TOKEN_EXCHANGE_TRIGGER: &str = "custom-token-exchange";
/// The only operation that requires a token of a global client.
const GLOBAL_CLIENT_OPERATION: &str = "create_token_exchange_profile";

/// The caller of an operation, from its verified token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub client_id: String,
    pub scopes: Vec<String>,
}

#[derive(Clone)]
pub struct ReferenceService {
    pub state: Arc<AppState>,
}

/// The API's error body, as the router's own errors write it, in the type
/// the operations' responses carry.
pub fn error_body(status: StatusCode, message: impl Into<String>, code: &str) -> types::Error {
    let body = openapi_crates_runtime::ErrorBody::new(status, message, code);
    types::Error {
        status_code: i64::from(body.status_code),
        error: body.error,
        message: body.message,
        error_code: Some(body.error_code),
        errors: Vec::new(),
    }
}

fn bad_request(message: &str, code: &str) -> CreateTokenExchangeProfileResponse {
    CreateTokenExchangeProfileResponse::BadRequest(error_body(
        StatusCode::BAD_REQUEST,
        message,
        code,
    ))
}

fn limit_reached(limit: usize, resource: &str) -> types::Error {
    error_body(
        StatusCode::FORBIDDEN,
        format!("The tenant has reached its limit of {limit} {resource}"),
        "too_many_entities",
    )
}

impl TenantManagementApi for ReferenceService {
    type Caller = Caller;

    async fn authorize(&self, request: AuthorizationRequest<'_>) -> Result<Caller, AuthError> {
        let claims = self
            .state
            .issuer
            .verify(request.token)
            .map_err(|err| AuthError::Unauthenticated(err.to_string()))?;
        // A token signed with the tenant's key but issued to no client of the
        // tenant (a client since removed, a hand-made token) is nobody's.
        let Some(client) = self.state.fixtures.client(&claims.azp) else {
            return Err(AuthError::Unauthenticated(
                "Invalid token: it was issued to a client this tenant does not know".to_string(),
            ));
        };
        if request.operation_id == GLOBAL_CLIENT_OPERATION && !client.global {
            return Err(AuthError::Unauthenticated(
                "Client is not global".to_string(),
            ));
        }
        let scopes: Vec<String> = claims.scopes().map(str::to_string).collect();
        let allowed = request.required_scopes.is_empty()
            || request
                .required_scopes
                .iter()
                .any(|required| scopes.iter().any(|scope| scope == required));
        if !allowed {
            return Err(AuthError::Forbidden(format!(
                "Insufficient scope; expected any of: {}",
                request.required_scopes.join(", ")
            )));
        }
        Ok(Caller {
            client_id: claims.azp,
            scopes,
        })
    }

    async fn create_token_exchange_profile(
        &self,
        context: RequestContext<Caller>,
        body: types::CreateTokenExchangeProfileRequest,
    ) -> CreateTokenExchangeProfileResponse {
        let Some(action) = self.state.fixtures.action(&body.action_id) else {
            return bad_request("The referenced action was not found", "action_not_found");
        };
        if !action.deployed {
            return bad_request(
                "The referenced action is not deployed",
                "action_not_deployed",
            );
        }
        if !action
            .supported_triggers
            .iter()
            .any(|trigger| trigger == TOKEN_EXCHANGE_TRIGGER)
        {
            return bad_request(
                "The referenced action does not support the custom-token-exchange trigger",
                "action_trigger_not_supported",
            );
        }
        match self.state.store.create_token_exchange_profile(body) {
            Ok(profile) => {
                tracing::debug!(client = %context.caller.client_id, id = %profile.id, "created token exchange profile");
                CreateTokenExchangeProfileResponse::Created(profile)
            }
            Err(CreateProfileError::LimitReached(LimitReached { limit })) => {
                CreateTokenExchangeProfileResponse::Forbidden(limit_reached(
                    limit,
                    "token exchange profiles",
                ))
            }
            Err(CreateProfileError::Duplicate) => {
                CreateTokenExchangeProfileResponse::Conflict(error_body(
                    StatusCode::CONFLICT,
                    "A token exchange profile with this subject_token_type already exists for the tenant",
                    "token_exchange_profile_conflict",
                ))
            }
        }
    }

    async fn get_user_attribute_profile_template(
        &self,
        _context: RequestContext<Caller>,
        id: String,
    ) -> GetUserAttributeProfileTemplateResponse {
        let templates = &self.state.fixtures.user_attribute_profile_templates;
        match templates.iter().find(|template| template.id == id) {
            Some(template) => GetUserAttributeProfileTemplateResponse::Ok(template.clone()),
            None => GetUserAttributeProfileTemplateResponse::NotFound(error_body(
                StatusCode::NOT_FOUND,
                format!("No user attribute profile template with id {id}"),
                "not_found",
            )),
        }
    }

    async fn get_action_module(
        &self,
        _context: RequestContext<Caller>,
        id: String,
    ) -> GetActionModuleResponse {
        match self
            .state
            .fixtures
            .action_modules
            .iter()
            .find(|module| module.id == id)
        {
            Some(module) => GetActionModuleResponse::Ok(module.clone()),
            None => GetActionModuleResponse::NotFound(error_body(
                StatusCode::NOT_FOUND,
                format!("No action module with id {id}"),
                "not_found",
            )),
        }
    }

    async fn create_event_stream(
        &self,
        context: RequestContext<Caller>,
        body: types::CreateEventStreamRequest,
    ) -> CreateEventStreamResponse {
        match self.state.store.create_event_stream(body) {
            Ok(stream) => {
                tracing::debug!(client = %context.caller.client_id, id = %*stream.id, "created event stream");
                CreateEventStreamResponse::Created(stream)
            }
            Err(CreateStreamError::LimitReached(LimitReached { limit })) => {
                CreateEventStreamResponse::Forbidden(limit_reached(limit, "event streams"))
            }
            Err(CreateStreamError::NameTaken) => CreateEventStreamResponse::Conflict(error_body(
                StatusCode::CONFLICT,
                "An event stream with this name already exists for the tenant",
                "event_stream_conflict",
            )),
        }
    }

    async fn get_push_notification_apns_provider(
        &self,
        _context: RequestContext<Caller>,
    ) -> GetPushNotificationApnsProviderResponse {
        GetPushNotificationApnsProviderResponse::Ok(self.state.fixtures.apns_provider.clone())
    }
}
