//! Parameters: added, removed, required or not, and their schemas (values
//! that travel as text).

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
        for (key, (param, pointer)) in &old_params {
            let name = format!("{} parameter `{}` of {label}", key.0, key.1);
            let Some((new_param, new_pointer)) = new_params.get(key) else {
                self.report(
                    rules::REQUEST_PARAMETER_REMOVED.usual(),
                    format!("{name} removed"),
                    (Some(pointer), Some(&new.pointer)),
                );
                continue;
            };
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
            if let (Some(s), Some(t)) = (param.get("schema"), new_param.get("schema")) {
                self.as_text = true;
                self.schema(
                    (s, pointer_join(pointer, "schema")),
                    (t, pointer_join(new_pointer, "schema")),
                    Usage::REQUEST,
                    &format!("{} parameter {}", key.0, key.1),
                );
                self.as_text = false;
            }
        }
        for (key, (param, pointer)) in &new_params {
            if old_params.contains_key(key) {
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
