//! Numeric bounds: lengths, values (exclusive or not), items, `contains`
//! counts and properties.

use super::*;

impl<'a> Walker<'a> {
    /// A numeric bound; its rules say which way tightens.
    pub(super) fn bound_change(&mut self, pair: &SchemaPair<'_>, family: &BoundRules) {
        let keyword = family.keyword;
        let SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        } = *pair;
        // 3.0 writes an exclusive bound as `true` beside `maximum`; 3.1 as
        // the bound itself. Setting the flag makes the bound exclusive.
        let bound = |v: &Value| match v.get(keyword) {
            Some(Value::Bool(true)) => Some(f64::NAN),
            other => other.and_then(Value::as_f64),
        };
        let (a, b) = (bound(s), bound(t));
        let (rule, suffix) = match (a, b) {
            (Some(x), Some(y)) if x.is_nan() || y.is_nan() => return,
            (None, Some(_)) => (family.added, "added"),
            (Some(_), None) => (family.removed, "removed"),
            (Some(x), Some(y)) if y < x => (family.decreased, "decreased"),
            (Some(x), Some(y)) if y > x => (family.increased, "increased"),
            _ => return,
        };
        let what = if rule.effect == rules::TIGHTENED {
            "tightened"
        } else {
            "loosened"
        };
        self.report(
            rule.used(usage),
            format!(
                "{keyword} of `{name}` {suffix} from {} to {} ({what})",
                show_or(s.get(keyword), "none"),
                show_or(t.get(keyword), "none")
            ),
            (
                Some(&keyword_pointer(s, sp, keyword)),
                Some(&keyword_pointer(t, tp, keyword)),
            ),
        );
    }
}
