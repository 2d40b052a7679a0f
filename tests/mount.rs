//! Two generated APIs mounted in one axum application beside hand-written
//! routes and a fallback of the application's own, served over a socket:
//! the tenant API moved under `/tenants` by `RouterOptions::base_path`, the
//! build script example's Notes API at its description's `/v1`.

use axum::http::StatusCode;
use build_script_example::server::{CreateNoteResponse, NotesApi, router as notes_router};
use tenant_api_server::{AuthError, AuthorizationRequest, RouterOptions, TenantManagementApi};

/// Implements no operation: each answers the trait's 501.
struct Tenants;

impl TenantManagementApi for Tenants {
    type Caller = ();

    async fn authorize(&self, _request: AuthorizationRequest<'_>) -> Result<(), AuthError> {
        Ok(())
    }
}

/// Creates notes and keeps none: `get_note` answers the trait's 501.
struct Notes;

impl NotesApi for Notes {
    type Caller = ();

    async fn authorize(
        &self,
        _request: build_script_example::server::AuthorizationRequest<'_>,
    ) -> Result<(), build_script_example::server::AuthError> {
        Ok(())
    }

    async fn create_note(
        &self,
        _context: build_script_example::server::RequestContext<()>,
        body: build_script_example::types::NewNote,
    ) -> CreateNoteResponse {
        CreateNoteResponse::Created(build_script_example::types::Note {
            id: 1,
            title: body.title.to_string(),
            body: None,
        })
    }
}

/// The application: what a team writes to serve both APIs and its own
/// routes from one listener.
fn application() -> axum::Router {
    let tenants = tenant_api_server::router_with_options(
        Tenants,
        RouterOptions {
            base_path: Some(format!("/tenants{}", tenant_api_server::BASE_PATH)),
            ..RouterOptions::default()
        },
    );
    axum::Router::new()
        .route("/health", axum::routing::get(|| async { "ok" }))
        .merge(tenants)
        .merge(notes_router(Notes))
        .fallback(|| async { (StatusCode::IM_A_TEAPOT, "the application's fallback") })
}

async fn serve() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, application()).await.unwrap() });
    format!("http://{address}")
}

#[tokio::test]
async fn two_generated_apis_serve_beside_the_applications_routes() {
    let base = serve().await;
    let http = reqwest::Client::new();
    let get = |path: &str| http.get(format!("{base}{path}")).send();

    let health = get("/health").await.unwrap();
    assert_eq!(health.status(), 200);
    assert_eq!(health.text().await.unwrap(), "ok");

    // The Notes API through its generated client, at its own base path.
    use build_script_example::client::{Client, Credential};
    let notes = Client::builder(&format!("{base}/v1"))
        .credential("basicAuth", Credential::basic("ann", "s3cret"))
        .build()
        .unwrap();
    let created = notes
        .create_note()
        .body(build_script_example::types::NewNote {
            title: "Groceries".parse().unwrap(),
            body: None,
        })
        .send()
        .await
        .unwrap()
        .into_inner();
    assert_eq!(created.title, "Groceries");
    let read = notes.get_note().note_id(1).send().await.unwrap_err();
    assert_eq!(read.status().map(|status| status.as_u16()), Some(501));

    // The tenant API under the base path the options gave it: its
    // operations, its 404 and 405 in its own error body.
    let operation = http
        .get(format!("{base}/tenants/api/v2/actions/modules/x"))
        .bearer_auth("any-token")
        .send()
        .await
        .unwrap();
    assert_eq!(operation.status(), 501);
    let unknown = get("/tenants/api/v2/no-such-path").await.unwrap();
    assert_eq!(unknown.status(), 404);
    let body: serde_json::Value = unknown.json().await.unwrap();
    assert_eq!(body["statusCode"], 404, "{body}");
    let method = http
        .delete(format!("{base}/tenants/api/v2/event-streams"))
        .send()
        .await
        .unwrap();
    assert_eq!(method.status(), 405);

    // Every other path is the application's: the description's own base
    // path too, which the options moved.
    for path in ["/api/v2/actions/modules/x", "/elsewhere", "/v1-notes"] {
        let response = get(path).await.unwrap();
        assert_eq!(
            response.status(),
            StatusCode::IM_A_TEAPOT.as_u16(),
            "{path}"
        );
    }
}

#[test]
fn a_router_at_the_root_without_its_fallback_merges_beside_another() {
    let at_root = tenant_api_server::router_with_options(
        Tenants,
        RouterOptions {
            base_path: Some(String::new()),
            fallback: false,
            ..RouterOptions::default()
        },
    );
    // axum panics when both routers have a fallback.
    let _app: axum::Router = axum::Router::new()
        .fallback(|| async { "the application's fallback" })
        .merge(at_root);
}
