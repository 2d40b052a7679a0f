//! The generated router, implemented with [`crate::work`].

use tenant_api_server::{
    AuthError, AuthorizationRequest, CreateEventStreamResponse, CreateTokenExchangeProfileResponse,
    GetActionModuleResponse, GetPushNotificationApnsProviderResponse,
    GetUserAttributeProfileTemplateResponse, RequestContext, TenantManagementApi, types,
};

use crate::work;

pub struct Generated;

fn not_benchmarked() -> types::Error {
    types::Error {
        status_code: 403,
        error: "Forbidden".into(),
        message: "not part of the benchmark".into(),
        error_code: None,
        errors: Vec::new(),
    }
}

impl TenantManagementApi for Generated {
    type Caller = ();

    async fn authorize(&self, request: AuthorizationRequest<'_>) -> Result<(), AuthError> {
        if request.token == work::TOKEN {
            Ok(())
        } else {
            Err(AuthError::Unauthenticated("Invalid token".into()))
        }
    }

    async fn create_token_exchange_profile(
        &self,
        _context: RequestContext<()>,
        body: types::CreateTokenExchangeProfileRequest,
    ) -> CreateTokenExchangeProfileResponse {
        CreateTokenExchangeProfileResponse::Created(work::created_profile(body))
    }

    async fn get_action_module(
        &self,
        _context: RequestContext<()>,
        id: String,
    ) -> GetActionModuleResponse {
        GetActionModuleResponse::Ok(work::action_module(id))
    }

    async fn get_user_attribute_profile_template(
        &self,
        _context: RequestContext<()>,
        _id: String,
    ) -> GetUserAttributeProfileTemplateResponse {
        GetUserAttributeProfileTemplateResponse::Forbidden(not_benchmarked())
    }

    async fn create_event_stream(
        &self,
        _context: RequestContext<()>,
        _body: types::CreateEventStreamRequest,
    ) -> CreateEventStreamResponse {
        CreateEventStreamResponse::Forbidden(not_benchmarked())
    }

    async fn get_push_notification_apns_provider(
        &self,
        _context: RequestContext<()>,
    ) -> GetPushNotificationApnsProviderResponse {
        GetPushNotificationApnsProviderResponse::Forbidden(not_benchmarked())
    }
}

pub fn router() -> axum::Router {
    tenant_api_server::router(Generated)
}
