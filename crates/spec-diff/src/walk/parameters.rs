//! Parameters: added, removed, renamed in the path, required or not, how
//! they are written (`serialization`), and their schemas (values that
//! travel as text, or as the JSON of their `content`).

use openapi_crates_codegen::model;

use super::*;

impl<'a> Walker<'a> {
    pub(super) fn parameters(
        &mut self,
        old: &OperationView<'a>,
        new: &OperationView<'a>,
        label: &str,
    ) {
        let base_doc = &self.base.document;
        let head_doc = &self.head.document;
        let old_params = parameters(base_doc, old);
        let new_params = parameters(head_doc, new);
        // A path parameter is its place in the template: where the template
        // is the same but for its names, the one at the same place is the
        // same parameter under another name.
        let renamed: BTreeMap<&str, &str> =
            if template_shape(&old.path) == template_shape(&new.path) {
                template_names(&old.path)
                    .into_iter()
                    .zip(template_names(&new.path))
                    .filter(|(old, new)| old != new)
                    .collect()
            } else {
                BTreeMap::new()
            };
        let counterpart = |(location, name): &(String, String)| match renamed.get(name.as_str()) {
            Some(new_name) if location == "path" => (location.clone(), new_name.to_string()),
            _ => (location.clone(), name.clone()),
        };
        for (key, (param, pointer)) in &old_params {
            let name = format!("{} parameter `{}` of {label}", key.0, key.1);
            let new_key = counterpart(key);
            let Some((new_param, new_pointer)) = new_params.get(&new_key) else {
                self.report(
                    rules::REQUEST_PARAMETER_REMOVED.usual(),
                    format!("{name} removed"),
                    (Some(pointer), Some(&new.pointer)),
                );
                continue;
            };
            if new_key != *key {
                self.report(
                    rules::PATH_PARAMETER_RENAMED.usual(),
                    format!(
                        "{name} renamed to `{}`: the same place in `{}`, so the URL is the same",
                        new_key.1, new.path
                    ),
                    (Some(pointer), Some(new_pointer)),
                );
            }
            let required = |p: &Value| p.get("required").and_then(Value::as_bool) == Some(true);
            match (required(param), required(new_param)) {
                (false, true) => self.report(
                    rules::REQUEST_PARAMETER_BECAME_REQUIRED.usual(),
                    format!("{name} became required"),
                    (Some(pointer), Some(new_pointer)),
                ),
                (true, false) => self.report(
                    rules::REQUEST_PARAMETER_BECAME_OPTIONAL.usual(),
                    format!("{name} became optional"),
                    (Some(pointer), Some(new_pointer)),
                ),
                _ => {}
            }
            self.serialization(
                (old, new),
                (param, pointer),
                (new_param, new_pointer),
                &name,
            );
            if let (Some((s, old_at)), Some((t, new_at))) = (
                value_schema(param, pointer),
                value_schema(new_param, new_pointer),
            ) {
                // JSON text keeps the value's type; any other text reads as
                // a string.
                let travel = if is_json_content(param) && is_json_content(new_param) {
                    Travel::Json
                } else {
                    Travel::ParameterText
                };
                let outer = std::mem::replace(&mut self.travel, travel);
                self.schema(
                    (s, old_at),
                    (t, new_at),
                    Usage::REQUEST,
                    &format!("{} parameter {}", key.0, key.1),
                );
                self.travel = outer;
            }
        }
        for (key, (param, pointer)) in &new_params {
            if old_params
                .keys()
                .any(|old_key| counterpart(old_key) == *key)
            {
                continue;
            }
            let required = param.get("required").and_then(Value::as_bool) == Some(true);
            let rule = if required {
                &rules::REQUEST_REQUIRED_PARAMETER_ADDED
            } else {
                &rules::REQUEST_OPTIONAL_PARAMETER_ADDED
            };
            self.report(
                rule.usual(),
                format!(
                    "{} {} parameter `{}` added to {label}",
                    if required { "required" } else { "optional" },
                    key.0,
                    key.1
                ),
                (Some(&old.pointer), Some(pointer)),
            );
        }
    }
}

/// The schema of a parameter's value, found at `pointer`: its `schema`, or
/// that of its one `content` media type.
fn value_schema<'v>(param: &'v Value, pointer: &str) -> Option<Node<'v>> {
    if let Some(schema) = param.get("schema") {
        return Some((schema, pointer_join(pointer, "schema")));
    }
    let (media_type, entry) = param.get("content")?.as_object()?.iter().next()?;
    let at = pointer_join(&pointer_join(pointer, "content"), media_type);
    schema_node(&at, entry, "schema")
}

/// The media type of a parameter described by `content`.
pub(super) fn content_media_type(param: &Value) -> Option<&str> {
    param
        .get("content")?
        .as_object()?
        .keys()
        .next()
        .map(String::as_str)
}

/// Whether a parameter's value is written as JSON text (`content` of a
/// JSON media type), as the generator reads it.
fn is_json_content(param: &Value) -> bool {
    content_media_type(param).is_some_and(model::is_json)
}
