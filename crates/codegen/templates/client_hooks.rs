//! The client's hooks: progenitor's `ClientHooks` for this crate's `Client`,
//! with the runtime's [`Hooks`]: the [`Credential`] of each security scheme,
//! a [`Transport`], a [`RetryPolicy`] and a `tracing` span per call, each
//! found by the operation's entry in the table below.

use progenitor_client::{ClientHooks, ClientInfo, Error, OperationInfo};

use crate::Client;

pub use openapi_crates_runtime::hooks::{BoxFuture, ClientBuilder, GeneratedClient, Hooks, Operation, Transport};
pub use openapi_crates_runtime::credentials::{ClientCredentials, Credential, CredentialError};
pub use openapi_crates_runtime::retry::RetryPolicy;

impl ClientHooks<Hooks> for Client {
    async fn pre<E>(&self, request: &mut reqwest::Request, info: &OperationInfo) -> Result<(), Error<E>> {
        self.inner().prepare(self.client(), request, operation(info.operation_id)).await.map_err(Error::Custom)
    }

    async fn exec(&self, request: reqwest::Request, info: &OperationInfo) -> reqwest::Result<reqwest::Response> {
        self.inner().execute(self.client(), request, operation(info.operation_id)).await
    }
}

fn operation(id: &'static str) -> Operation {
    Operation::find(OPERATIONS, id)
}
