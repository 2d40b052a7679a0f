//! How a generated client sends its requests, as one extension point.
//!
//! A generated `Client::new` takes a [`Hooks`]; `Hooks::default()` sends
//! each request once, exactly as built. A [`Transport`] can add
//! credentials, retry or trace, for every operation at once, without
//! touching generated code. (The client crate implements progenitor's
//! `ClientHooks` for its `Client` with these.)

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A boxed future, as [`Transport`]'s methods return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Sends the client's requests. Both methods have defaults that do nothing
/// special, so an implementation overrides only what it needs.
pub trait Transport: Send + Sync + std::fmt::Debug + 'static {
    /// Runs before `request` is sent: add credentials here. An error stops
    /// the call (progenitor's `Error::Custom`).
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

    /// The transport, if one was given.
    pub fn transport(&self) -> Option<&dyn Transport> {
        self.transport.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Tagging;

    impl Transport for Tagging {
        fn prepare<'a>(
            &'a self,
            request: &'a mut reqwest::Request,
            operation_id: &'static str,
        ) -> BoxFuture<'a, Result<(), String>> {
            let value = reqwest::header::HeaderValue::from_static(operation_id);
            request.headers_mut().insert("x-operation", value);
            Box::pin(async { Ok(()) })
        }
    }

    #[test]
    fn a_transport_overrides_only_what_it_needs() {
        assert!(Hooks::default().transport().is_none());
        let hooks = Hooks::with_transport(Tagging);
        let transport = hooks.transport().expect("given");
        let url = "http://api.test/".parse().unwrap();
        let mut request = reqwest::Request::new(reqwest::Method::GET, url);
        // The default and this `prepare` are ready at once: one poll runs them.
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        let prepared = transport.prepare(&mut request, "listItems").as_mut().poll(&mut context);
        assert_eq!(prepared, std::task::Poll::Ready(Ok(())));
        assert_eq!(request.headers()["x-operation"], "listItems");
    }
}
