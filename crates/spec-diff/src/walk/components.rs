//! Component schemas: each compared once, where it is defined, as it is used.

use super::*;

impl<'a> Walker<'a> {
    pub(super) fn components(&mut self) {
        let root = "/components/schemas";
        let empty = serde_json::Map::new();
        let base_doc = &self.base.document;
        let head_doc = &self.head.document;
        let old = object_at(base_doc, root).unwrap_or(&empty);
        let new = object_at(head_doc, root).unwrap_or(&empty);
        for (name, schema) in old {
            let pointer = pointer_join(root, name);
            let usage = self.usage.get(name).copied().unwrap_or_default();
            match new.get(name) {
                Some(new_schema) => self.schema(
                    (schema, pointer.clone()),
                    (new_schema, pointer),
                    usage,
                    name,
                ),
                None => self.report(
                    rules::SCHEMA_COMPONENT_REMOVED.usual(),
                    format!("schema `{name}` removed from the components"),
                    (Some(&pointer), Some(root)),
                ),
            }
        }
        for name in new.keys().filter(|n| !old.contains_key(*n)) {
            self.report(
                rules::SCHEMA_COMPONENT_ADDED.usual(),
                format!("schema `{name}` added to the components"),
                (Some(root), Some(&pointer_join(root, name))),
            );
        }
    }
}
