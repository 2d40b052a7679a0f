//! Lifecycle: deprecation and the release lifecycle of an operation.

use super::*;

impl<'a> Walker<'a> {
    /// Deprecation and the release lifecycle (`x-release-lifecycle`).
    pub(super) fn lifecycle(
        &mut self,
        old: &OperationView<'a>,
        new: &OperationView<'a>,
        label: &str,
    ) {
        let deprecated = |v: &Value| v.get("deprecated").and_then(Value::as_bool) == Some(true);
        match (deprecated(old.value), deprecated(new.value)) {
            (false, true) => self.report(
                rules::OPERATION_DEPRECATED.usual(),
                format!("operation {label} deprecated"),
                (
                    Some(&old.pointer),
                    Some(&pointer_join(&new.pointer, "deprecated")),
                ),
            ),
            (true, false) => self.report(
                rules::OPERATION_UNDEPRECATED.usual(),
                format!("operation {label} no longer deprecated"),
                (
                    Some(&pointer_join(&old.pointer, "deprecated")),
                    Some(&new.pointer),
                ),
            ),
            _ => {}
        }
        let lifecycle = "x-release-lifecycle";
        if old.value.get(lifecycle) != new.value.get(lifecycle) {
            self.report(
                rules::OPERATION_LIFECYCLE_CHANGED.usual(),
                format!(
                    "release lifecycle of {label} changed from {} to {}",
                    show_or(old.value.get(lifecycle), "Generally Available"),
                    show_or(new.value.get(lifecycle), "Generally Available")
                ),
                (
                    Some(&pointer_join(&old.pointer, lifecycle)),
                    Some(&pointer_join(&new.pointer, lifecycle)),
                ),
            );
        }
    }
}
