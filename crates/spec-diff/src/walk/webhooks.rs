//! Webhooks: requests the API sends, so their payloads are compared as
//! responses and what callers answer as requests.

use super::*;

impl<'a> Walker<'a> {
    /// Webhooks are requests the API sends: their payloads are compared as
    /// responses (what callers receive) and what callers answer as requests.
    pub(super) fn webhooks(&mut self) {
        let old_hooks = webhooks(&self.base.document);
        let new_hooks = webhooks(&self.head.document);
        for (key, old) in &old_hooks {
            let label = format!("webhook `{}` ({})", key.0, key.1.to_uppercase());
            let Some(new) = new_hooks.get(key) else {
                self.report(
                    rules::WEBHOOK_REMOVED.usual(),
                    format!("{label} removed: the API no longer sends it"),
                    (Some(&old.pointer), Some("/webhooks")),
                );
                continue;
            };
            let body = |doc: &'a Value, op: &OperationView<'a>| {
                op.value
                    .get("requestBody")
                    .map(|b| resolve(doc, b, pointer_join(&op.pointer, "requestBody")))
            };
            if let (Some(old_body), Some(new_body)) = (
                body(&self.base.document, old),
                body(&self.head.document, new),
            ) {
                self.content(
                    old_body,
                    new_body,
                    Usage::RESPONSE,
                    &format!("payload of {label}"),
                );
            }
            let responses = |op: &OperationView<'a>| {
                op.value
                    .get("responses")
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default()
            };
            let (old_responses, new_responses) = (responses(old), responses(new));
            for (status, response) in &old_responses {
                let Some(new_response) = new_responses.get(status) else {
                    continue;
                };
                let old_node = resolve(
                    &self.base.document,
                    response,
                    pointer_join(&pointer_join(&old.pointer, "responses"), status),
                );
                let new_node = resolve(
                    &self.head.document,
                    new_response,
                    pointer_join(&pointer_join(&new.pointer, "responses"), status),
                );
                // Copies: the nodes borrow from maps cloned above.
                let (old_value, new_value) = (old_node.0.clone(), new_node.0.clone());
                self.content(
                    (&old_value, old_node.1),
                    (&new_value, new_node.1),
                    Usage::REQUEST,
                    &format!("answer {status} to {label}"),
                );
            }
        }
        for (key, new) in &new_hooks {
            if !old_hooks.contains_key(key) {
                self.report(
                    rules::WEBHOOK_ADDED.usual(),
                    format!(
                        "webhook `{}` ({}) added: the API may send it",
                        key.0,
                        key.1.to_uppercase()
                    ),
                    (Some("/webhooks"), Some(&new.pointer)),
                );
            }
        }
    }
}
