//! Responses: statuses added or removed, their headers and their bodies.

use super::*;

/// Whether `status` (a key of `responses`) is what a call succeeds with: a
/// 2xx, or the `101` of an operation upgrading to WebSocket
/// (`Response::is_upgrade`), whose client returns the socket.
fn is_success(status: &str) -> bool {
    status.starts_with('2') || status == "101"
}

impl<'a> Walker<'a> {
    pub(super) fn responses(
        &mut self,
        old: &OperationView<'a>,
        new: &OperationView<'a>,
        label: &str,
    ) {
        let empty = serde_json::Map::new();
        let old_responses = old
            .value
            .get("responses")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let new_responses = new
            .value
            .get("responses")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let old_root = pointer_join(&old.pointer, "responses");
        let new_root = pointer_join(&new.pointer, "responses");
        for (status, response) in old_responses {
            let success = is_success(status);
            let use_pointer = pointer_join(&old_root, status);
            let Some(new_response) = new_responses.get(status) else {
                let rule = if success {
                    &rules::RESPONSE_SUCCESS_STATUS_REMOVED
                } else {
                    &rules::RESPONSE_NON_SUCCESS_STATUS_REMOVED
                };
                self.report(
                    rule.usual(),
                    format!("response {status} of {label} removed"),
                    (Some(&use_pointer), Some(&new_root)),
                );
                continue;
            };
            let old_node = resolve(&self.base.document, response, use_pointer);
            let new_node = resolve(
                &self.head.document,
                new_response,
                pointer_join(&new_root, status),
            );
            let what = format!("response {status} of {label}");
            self.headers(old_node.clone(), new_node.clone(), &what);
            self.content(old_node, new_node, Usage::RESPONSE, &what);
        }
        for status in new_responses
            .keys()
            .filter(|s| !old_responses.contains_key(*s))
        {
            let rule = if is_success(status) {
                &rules::RESPONSE_SUCCESS_STATUS_ADDED
            } else {
                &rules::RESPONSE_NON_SUCCESS_STATUS_ADDED
            };
            self.report(
                rule.usual(),
                format!("response {status} added to {label}"),
                (Some(&old_root), Some(&pointer_join(&new_root, status))),
            );
        }
    }

    pub(super) fn headers(&mut self, old: Node<'_>, new: Node<'_>, what: &str) {
        fn headers<'v>(doc: &'v Value, node: &Node<'v>) -> BTreeMap<String, Node<'v>> {
            let root = pointer_join(&node.1, "headers");
            node.0
                .get("headers")
                .and_then(Value::as_object)
                .map(|h| {
                    h.iter()
                        .map(|(name, header)| {
                            let key = name.to_ascii_lowercase();
                            (key, resolve(doc, header, pointer_join(&root, name)))
                        })
                        .collect()
                })
                .unwrap_or_default()
        }
        let old_headers = headers(&self.base.document, &old);
        let new_headers = headers(&self.head.document, &new);
        let required = |h: &Value| h.get("required").and_then(Value::as_bool) == Some(true);
        for (name, (header, pointer)) in &old_headers {
            let shown = last_token(pointer);
            let Some((new_header, new_pointer)) = new_headers.get(name) else {
                let rule = if required(header) {
                    &rules::RESPONSE_REQUIRED_HEADER_REMOVED
                } else {
                    &rules::RESPONSE_OPTIONAL_HEADER_REMOVED
                };
                self.report(
                    rule.usual(),
                    format!("header `{shown}` of the {what} removed"),
                    (Some(pointer), Some(&new.1)),
                );
                continue;
            };
            match (required(header), required(new_header)) {
                (true, false) => self.report(
                    rules::RESPONSE_HEADER_BECAME_OPTIONAL.usual(),
                    format!("header `{shown}` of the {what} became optional"),
                    (Some(pointer), Some(new_pointer)),
                ),
                (false, true) => self.report(
                    rules::RESPONSE_HEADER_BECAME_REQUIRED.usual(),
                    format!("header `{shown}` of the {what} became required"),
                    (Some(pointer), Some(new_pointer)),
                ),
                _ => {}
            }
            if let (Some(s), Some(t)) = (header.get("schema"), new_header.get("schema")) {
                self.schema(
                    (s, pointer_join(pointer, "schema")),
                    (t, pointer_join(new_pointer, "schema")),
                    Usage::RESPONSE,
                    &format!("header {shown}"),
                );
            }
        }
        for (name, (_, pointer)) in &new_headers {
            if !old_headers.contains_key(name) {
                let shown = last_token(pointer);
                self.report(
                    rules::RESPONSE_HEADER_ADDED.usual(),
                    format!("header `{shown}` added to the {what}"),
                    (Some(&old.1), Some(pointer)),
                );
            }
        }
    }
}
