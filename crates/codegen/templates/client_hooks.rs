//! The client's hooks: progenitor's `ClientHooks` for this crate's `Client`,
//! with the runtime's [`Hooks`] and [`Transport`].

use progenitor_client::{ClientHooks, ClientInfo, Error, OperationInfo};

use crate::Client;

pub use openapi_crates_runtime::hooks::{BoxFuture, Hooks, Transport};

impl ClientHooks<Hooks> for Client {
    async fn pre<E>(&self, request: &mut reqwest::Request, info: &OperationInfo) -> Result<(), Error<E>> {
        match self.inner().transport() {
            Some(transport) => transport.prepare(request, info.operation_id).await.map_err(Error::Custom),
            None => Ok(()),
        }
    }

    async fn exec(&self, request: reqwest::Request, info: &OperationInfo) -> reqwest::Result<reqwest::Response> {
        match self.inner().transport() {
            Some(transport) => transport.execute(self.client(), request, info.operation_id).await,
            None => self.client().execute(request).await,
        }
    }
}
