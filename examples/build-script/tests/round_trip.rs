//! The generated client calls the generated server over a socket, sending
//! the credential each operation requires.

use std::sync::{Arc, Mutex};

use build_script_example::client::{Client, Credential};
use build_script_example::server::{
    AuthError, AuthorizationRequest, CreateNoteResponse, GetNoteResponse, NotesApi, RequestContext,
    router,
};
use build_script_example::types;

/// Each call's operation, security scheme and credential, as the server
/// read them.
type Calls = Arc<Mutex<Vec<(&'static str, &'static str, String)>>>;

/// The notes, and the calls authorized.
#[derive(Default)]
struct Notes {
    notes: Mutex<Vec<types::Note>>,
    calls: Calls,
}

impl NotesApi for Notes {
    type Caller = ();

    async fn authorize(&self, request: AuthorizationRequest<'_>) -> Result<(), AuthError> {
        let call = (
            request.operation_id,
            request.scheme,
            request.token.to_string(),
        );
        self.calls.lock().unwrap().push(call);
        Ok(())
    }

    async fn create_note(
        &self,
        _context: RequestContext<()>,
        body: types::NewNote,
    ) -> CreateNoteResponse {
        let mut notes = self.notes.lock().unwrap();
        let note = types::Note {
            id: notes.len() as i64 + 1,
            title: body.title.to_string(),
            body: body.body.map(|text| text.to_string()),
        };
        notes.push(note.clone());
        CreateNoteResponse::Created(note)
    }

    async fn get_note(&self, _context: RequestContext<()>, note_id: i64) -> GetNoteResponse {
        let notes = self.notes.lock().unwrap();
        match notes.iter().find(|note| note.id == note_id) {
            Some(note) => GetNoteResponse::Ok(note.clone()),
            None => GetNoteResponse::NotFound(types::Problem {
                title: "Not found".into(),
                status: 404,
                detail: None,
            }),
        }
    }
}

/// Serves the Notes API; its base URL, and the calls it authorized.
async fn serve() -> (String, Calls) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let notes = Notes::default();
    let calls = Arc::clone(&notes.calls);
    tokio::spawn(async move { axum::serve(listener, router(notes)).await.unwrap() });
    (format!("http://{address}/v1"), calls)
}

/// A client holding the account's password and an API key.
fn client(base: &str) -> Client {
    Client::builder(base)
        .credential("basicAuth", Credential::basic("ann", "s3cret"))
        .credential("apiKey", Credential::token("key-1"))
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_note_is_created_and_read_back() {
    let (base, calls) = serve().await;
    let client = client(&base);
    let title: types::NewNoteTitle = "Groceries".parse().unwrap();
    let created = client
        .create_note()
        .body(types::NewNote {
            title,
            body: Some("Milk".parse().unwrap()),
        })
        .send()
        .await
        .unwrap()
        .into_inner();
    assert_eq!(created.id, 1);
    let read = client
        .get_note()
        .note_id(1)
        .send()
        .await
        .unwrap()
        .into_inner();
    assert_eq!(read, created);
    // Each call carried the first credential its operation accepts.
    let calls = calls.lock().unwrap();
    assert_eq!(
        *calls,
        [
            ("createNote", "basicAuth", "YW5uOnMzY3JldA==".to_string()),
            ("getNote", "apiKey", "key-1".to_string()),
        ]
    );
}

#[tokio::test]
async fn a_client_sends_what_it_holds_and_nothing_else() {
    let (base, calls) = serve().await;
    let password_only = Client::builder(&base)
        .credential("basicAuth", Credential::basic("ann", "s3cret"))
        .build()
        .unwrap();
    let missing = password_only
        .get_note()
        .note_id(7)
        .send()
        .await
        .unwrap_err();
    assert_eq!(missing.status().map(|status| status.as_u16()), Some(404));
    assert_eq!(
        calls.lock().unwrap()[0].1,
        "basicAuth",
        "the other scheme getNote accepts"
    );

    let anonymous = Client::builder(&base).build().unwrap();
    let refused = anonymous.get_note().note_id(7).send().await.unwrap_err();
    assert_eq!(refused.status().map(|status| status.as_u16()), Some(401));
    assert_eq!(
        calls.lock().unwrap().len(),
        1,
        "the router refused it before `authorize`"
    );

    let wrong = Client::builder(&base)
        .credential("apiKey", Credential::basic("ann", "x"))
        .build();
    assert!(wrong.is_err(), "an API key scheme takes a token");
}

#[tokio::test]
async fn the_server_enforces_the_description() {
    let (base, _) = serve().await;
    let client = client(&base);
    // The client refuses a title the schema forbids before sending it...
    assert!("".parse::<types::NewNoteTitle>().is_err());
    // ...and the server answers 404 in the documented body for a missing note.
    let missing = client.get_note().note_id(7).send().await.unwrap_err();
    assert_eq!(missing.status().map(|status| status.as_u16()), Some(404));
}
