//! Enumerations and `const`.

use super::*;

impl<'a> Walker<'a> {
    pub(super) fn enum_change(&mut self, pair: &SchemaPair<'_>) {
        let SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        } = *pair;
        let values = |v: &Value| v.get("enum").and_then(Value::as_array).cloned();
        let (sp_enum, tp_enum) = (pointer_join(sp, "enum"), pointer_join(tp, "enum"));
        match (values(s), values(t)) {
            (None, Some(_)) => self.report(
                rules::ENUM_ADDED.used(usage),
                format!("`{name}` is now restricted to an enumeration"),
                (Some(sp), Some(&tp_enum)),
            ),
            (Some(_), None) => self.report(
                rules::ENUM_REMOVED.used(usage),
                format!("`{name}` is no longer restricted to an enumeration"),
                (Some(&sp_enum), Some(tp)),
            ),
            (Some(old), Some(new)) => {
                for (i, value) in old.iter().enumerate() {
                    if !new.contains(value) {
                        self.report(
                            rules::ENUM_VALUE_REMOVED.used(usage),
                            format!("value {value} removed from the enumeration of `{name}`"),
                            (Some(&format!("{sp_enum}/{i}")), Some(&tp_enum)),
                        );
                    }
                }
                for (i, value) in new.iter().enumerate() {
                    if !old.contains(value) {
                        self.report(
                            rules::ENUM_VALUE_ADDED.used(usage),
                            format!("value {value} added to the enumeration of `{name}`"),
                            (Some(&sp_enum), Some(&format!("{tp_enum}/{i}"))),
                        );
                    }
                }
            }
            (None, None) => {}
        }
    }

    /// `const`, the one value a schema allows: a new one breaks both sides,
    /// whatever the other keywords say.
    pub(super) fn const_change(&mut self, pair: &SchemaPair<'_>) {
        let (a, b) = (pair.old.get("const"), pair.new.get("const"));
        let (rule, suffix) = match (a, b) {
            (None, Some(_)) => (&rules::CONST_ADDED, "added"),
            (Some(_), None) => (&rules::CONST_REMOVED, "removed"),
            (Some(x), Some(y)) if x != y => (&rules::CONST_CHANGED, "changed"),
            _ => return,
        };
        self.report(
            rule.used(pair.usage),
            format!(
                "const of `{}` {suffix}: {} -> {}",
                pair.name,
                show_or(a, "none"),
                show_or(b, "none")
            ),
            (
                Some(&keyword_pointer(pair.old, pair.old_at, "const")),
                Some(&keyword_pointer(pair.new, pair.new_at, "const")),
            ),
        );
    }
}
