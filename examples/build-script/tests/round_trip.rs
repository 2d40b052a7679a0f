//! The generated client calls the generated server over a socket.

use std::sync::Mutex;

use build_script_example::client::Client;
use build_script_example::server::{
    AuthError, AuthorizationRequest, CreateNoteResponse, GetNoteResponse, NotesApi, RequestContext,
    router,
};
use build_script_example::types;

#[derive(Default)]
struct Notes(Mutex<Vec<types::Note>>);

impl NotesApi for Notes {
    type Caller = ();

    async fn authorize(&self, _request: AuthorizationRequest<'_>) -> Result<(), AuthError> {
        Ok(())
    }

    async fn create_note(
        &self,
        _context: RequestContext<()>,
        body: types::NewNote,
    ) -> CreateNoteResponse {
        let mut notes = self.0.lock().unwrap();
        let note = types::Note {
            id: notes.len() as i64 + 1,
            title: body.title.to_string(),
            body: body.body.map(|text| text.to_string()),
        };
        notes.push(note.clone());
        CreateNoteResponse::Created(note)
    }

    async fn get_note(&self, _context: RequestContext<()>, note_id: i64) -> GetNoteResponse {
        let notes = self.0.lock().unwrap();
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

async fn serve() -> Client {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, router(Notes::default()))
            .await
            .unwrap()
    });
    Client::new(&format!("http://{address}/v1"), Default::default())
}

#[tokio::test]
async fn a_note_is_created_and_read_back() {
    let client = serve().await;
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
}

#[tokio::test]
async fn the_server_enforces_the_description() {
    let client = serve().await;
    // The client refuses a title the schema forbids before sending it...
    assert!("".parse::<types::NewNoteTitle>().is_err());
    // ...and the server answers 404 in the documented body for a missing note.
    let missing = client.get_note().note_id(7).send().await.unwrap_err();
    assert_eq!(missing.status().map(|status| status.as_u16()), Some(404));
}
