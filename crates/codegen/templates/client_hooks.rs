//! How the client sends its requests, as one extension point.
//!
//! Not generated from the spec: copied verbatim into the client crate.
//! [`Client::new`] takes a [`Hooks`]; `Hooks::default()` sends each request
//! once, exactly as built. A [`Transport`] can add credentials, retry or
//! trace, for every operation at once, without touching generated code.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use progenitor_client::{ClientHooks, ClientInfo, Error, OperationInfo};

use crate::Client;

/// A boxed future, as [`Transport`]'s methods return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Sends the client's requests. Both methods have defaults that do nothing
/// special, so an implementation overrides only what it needs.
pub trait Transport: Send + Sync + std::fmt::Debug + 'static {
    /// Runs before `request` is sent: add credentials here. An error stops
    /// the call with [`Error::Custom`].
    fn prepare<'a>(
        &'a self,
        request: &'a mut reqwest::Request,
        operation_id: &'static str,
    ) -> BoxFuture<'a, Result<(), String>> {
        let _ = (request, operation_id);
        Box::pin(async { Ok(()) })
    }

    /// Sends `request` with `http` and returns the response the operation
    /// interprets: send it once, or several times to retry.
    fn execute<'a>(
        &'a self,
        http: &'a reqwest::Client,
        request: reqwest::Request,
        operation_id: &'static str,
    ) -> BoxFuture<'a, reqwest::Result<reqwest::Response>> {
        let _ = operation_id;
        Box::pin(http.execute(request))
    }
}

/// The client's hooks: no transport (send each request once) by default.
#[derive(Clone, Debug, Default)]
pub struct Hooks {
    transport: Option<Arc<dyn Transport>>,
}

impl Hooks {
    /// Hooks that send every request through `transport`.
    pub fn with_transport(transport: impl Transport) -> Self {
        Self {
            transport: Some(Arc::new(transport)),
        }
    }
}

impl ClientHooks<Hooks> for Client {
    async fn pre<E>(&self, request: &mut reqwest::Request, info: &OperationInfo) -> Result<(), Error<E>> {
        match &self.inner().transport {
            Some(transport) => transport.prepare(request, info.operation_id).await.map_err(Error::Custom),
            None => Ok(()),
        }
    }

    async fn exec(&self, request: reqwest::Request, info: &OperationInfo) -> reqwest::Result<reqwest::Response> {
        match &self.inner().transport {
            Some(transport) => transport.execute(self.client(), request, info.operation_id).await,
            None => self.client().execute(request).await,
        }
    }
}
