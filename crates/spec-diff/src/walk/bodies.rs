//! Bodies: a request body added, removed or made required, and the media
//! types of any body, with their schemas (a text document's values are
//! text, whatever type its schema gives them).

use openapi_crates_codegen::model;

use super::*;

impl<'a> Walker<'a> {
    pub(super) fn request_body(
        &mut self,
        old: &OperationView<'a>,
        new: &OperationView<'a>,
        label: &str,
    ) {
        let old_body = old.value.get("requestBody").map(|b| {
            resolve(
                &self.base.document,
                b,
                pointer_join(&old.pointer, "requestBody"),
            )
        });
        let new_body = new.value.get("requestBody").map(|b| {
            resolve(
                &self.head.document,
                b,
                pointer_join(&new.pointer, "requestBody"),
            )
        });
        let required = |b: &Value| b.get("required").and_then(Value::as_bool) == Some(true);
        let (old_body, new_body) = match (old_body, new_body) {
            (None, None) => return,
            (Some((_, pointer)), None) => {
                self.report(
                    rules::REQUEST_BODY_REMOVED.usual(),
                    format!("request body of {label} removed"),
                    (Some(&pointer), Some(&new.pointer)),
                );
                return;
            }
            (None, Some((body, pointer))) => {
                let (rule, what) = if required(body) {
                    (&rules::REQUEST_REQUIRED_BODY_ADDED, "required")
                } else {
                    (&rules::REQUEST_OPTIONAL_BODY_ADDED, "optional")
                };
                self.report(
                    rule.usual(),
                    format!("{what} request body added to {label}"),
                    (Some(&old.pointer), Some(&pointer)),
                );
                return;
            }
            (Some(old_body), Some(new_body)) => (old_body, new_body),
        };
        match (required(old_body.0), required(new_body.0)) {
            (false, true) => self.report(
                rules::REQUEST_BODY_BECAME_REQUIRED.usual(),
                format!("request body of {label} became required"),
                (Some(&old_body.1), Some(&new_body.1)),
            ),
            (true, false) => self.report(
                rules::REQUEST_BODY_BECAME_OPTIONAL.usual(),
                format!("request body of {label} became optional"),
                (Some(&old_body.1), Some(&new_body.1)),
            ),
            _ => {}
        }
        self.content(
            old_body,
            new_body,
            Usage::REQUEST,
            &format!("request body of {label}"),
        );
    }

    /// Media types of a request or response body, and their schemas.
    pub(super) fn content(&mut self, old: Node<'_>, new: Node<'_>, usage: Usage, what: &str) {
        let media = |v: &Value| {
            v.get("content")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let (old_media, new_media) = (media(old.0), media(new.0));
        let (removed, added) = if usage.request {
            (
                &rules::REQUEST_MEDIA_TYPE_REMOVED,
                &rules::REQUEST_MEDIA_TYPE_ADDED,
            )
        } else {
            (
                &rules::RESPONSE_MEDIA_TYPE_REMOVED,
                &rules::RESPONSE_MEDIA_TYPE_ADDED,
            )
        };
        let old_content = pointer_join(&old.1, "content");
        let new_content = pointer_join(&new.1, "content");
        for (media_type, old_entry) in &old_media {
            let old_pointer = pointer_join(&old_content, media_type);
            let Some(new_entry) = new_media.get(media_type) else {
                self.report(
                    removed.usual(),
                    format!("media type `{media_type}` of the {what} removed"),
                    (Some(&old_pointer), Some(&new.1)),
                );
                continue;
            };
            let new_pointer = pointer_join(&new_content, media_type);
            // OpenAPI 3.2's `itemSchema` (each item of a stream) is compared
            // by the rules of `schema`.
            for (keyword, named) in [("schema", "a schema"), ("itemSchema", "an item schema")] {
                let (old_schema, new_schema) = match (
                    schema_node(&old_pointer, old_entry, keyword),
                    schema_node(&new_pointer, new_entry, keyword),
                ) {
                    (Some(old_schema), Some(new_schema)) => (old_schema, new_schema),
                    (None, None) => continue,
                    // No schema allows any body: one constrains it, and the reverse.
                    (old_schema, new_schema) => {
                        let added = old_schema.is_none();
                        let rule = if added {
                            &rules::BODY_SCHEMA_ADDED
                        } else {
                            &rules::BODY_SCHEMA_REMOVED
                        };
                        self.report(
                            rule.used(usage),
                            format!(
                                "the {what} ({media_type}) {} {named}",
                                if added { "now has" } else { "no longer has" }
                            ),
                            (
                                Some(&old_schema.map_or(old_pointer.clone(), |n| n.1)),
                                Some(&new_schema.map_or(new_pointer.clone(), |n| n.1)),
                            ),
                        );
                        continue;
                    }
                };
                let travel = if is_text_document(media_type) {
                    Travel::TextDocument
                } else {
                    Travel::Json
                };
                let outer = std::mem::replace(&mut self.travel, travel);
                let items = if keyword == "itemSchema" {
                    ", each item"
                } else {
                    ""
                };
                self.schema(
                    old_schema,
                    new_schema,
                    usage,
                    &format!("{what} ({media_type}{items})"),
                );
                self.travel = outer;
            }
        }
        for media_type in new_media.keys().filter(|m| !old_media.contains_key(*m)) {
            self.report(
                added.usual(),
                format!("media type `{media_type}` added to the {what}"),
                (Some(&old.1), Some(&pointer_join(&new_content, media_type))),
            );
        }
    }
}

/// Whether bodies of `media_type` are text documents, whose every value is
/// text however the schema types it: `text/*` and XML, JSON aside, and
/// event streams aside, whose items are JSON (`model::streams`).
fn is_text_document(media_type: &str) -> bool {
    let essence = model::essence(media_type);
    !model::is_json(&essence)
        && model::streams::Framing::of(&essence).is_none()
        && (essence.starts_with("text/")
            || essence == "application/xml"
            || essence.ends_with("+xml"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_xml_are_text_documents_and_json_forms_and_files_are_not() {
        for text in [
            "text/plain",
            "Application/XML",
            "application/atom+xml",
            "text/csv; charset=utf-8",
        ] {
            assert!(is_text_document(text), "{text}");
        }
        for other in [
            "application/json",
            "application/problem+json",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "application/octet-stream",
            "text/event-stream",
        ] {
            assert!(!is_text_document(other), "{other}");
        }
    }
}
