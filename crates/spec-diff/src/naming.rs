//! The Rust names the generators give to spec names: the generator's own
//! rule (`openapi_crates_codegen::naming`), so the Rust API this crate models is the
//! one `cargo xtask codegen` writes.

pub use openapi_crates_codegen::naming::{field_name, method_name, type_name};

/// The server's response variant for a status: its reason phrase
/// (`429` -> `TooManyRequests`), `Status420` when it has none, the class's
/// name for a range (`4XX` -> `ClientError`), and `Default` for a `default`
/// response (as the server emitter names it).
pub fn status_variant(status: &str) -> String {
    if let Some(class) = status
        .strip_suffix("XX")
        .and_then(|class| class.parse::<u16>().ok())
    {
        return openapi_crates_codegen::naming::range_variant(class);
    }
    match status.parse::<u16>() {
        Ok(code) => openapi_crates_codegen::naming::status_variant(code),
        Err(_) if status == "default" => "Default".to_string(),
        Err(_) => format!("Status{}", type_name(status)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_generators() {
        assert_eq!(method_name("createEventStream"), "create_event_stream");
        assert_eq!(method_name("match"), "match_");
        assert_eq!(type_name("event_stream"), "EventStream");
        assert_eq!(field_name("type"), "type_");
        assert_eq!(field_name("createdAt"), "created_at");
        assert_eq!(type_name("2fa"), "X2fa");
        assert_eq!(status_variant("429"), "TooManyRequests");
        assert_eq!(status_variant("420"), "Status420");
        assert_eq!(status_variant("4XX"), "ClientError");
        assert_eq!(status_variant("default"), "Default");
    }
}
