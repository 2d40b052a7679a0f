//! Composition: `oneOf`, `anyOf` and `allOf` members (paired by `$ref`,
//! then by equivalence, then by place) and discriminators (a value that
//! names the same schema under another name is renamed).

use super::*;

impl<'a> Walker<'a> {
    /// `oneOf`, `anyOf` or `allOf`: members paired, the rest added or removed.
    pub(super) fn composition(&mut self, pair: &SchemaPair<'_>, family: &CompositionRules) {
        let keyword = family.keyword;
        let SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        } = *pair;
        let members = |v: &Value| v.get(keyword).and_then(Value::as_array).cloned();
        let (old, new) = match (members(s), members(t)) {
            (None, None) => return,
            (old, new) => (old.unwrap_or_default(), new.unwrap_or_default()),
        };
        let key = |i: usize, m: &Value| -> String {
            m.get("$ref")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| format!("#{i}"))
        };
        let old_keys: Vec<String> = old.iter().enumerate().map(|(i, m)| key(i, m)).collect();
        let new_keys: Vec<String> = new.iter().enumerate().map(|(i, m)| key(i, m)).collect();
        let (sk, tk) = (pointer_join(sp, keyword), pointer_join(tp, keyword));
        let short = |k: &str| k.trim_start_matches(SCHEMAS).to_string();
        let partners = self.pair_members(&old, &new, &old_keys, &new_keys);
        for (i, k) in old_keys.iter().enumerate() {
            match partners[i] {
                None => self.report(
                    family.member_removed.used(usage),
                    format!("{keyword} member `{}` removed from `{name}`", short(k)),
                    (
                        Some(&format!("{sk}/{i}")),
                        Some(if t.get(keyword).is_some() { &tk } else { tp }),
                    ),
                ),
                Some(j) => self.schema(
                    (&s[keyword][i], format!("{sk}/{i}")),
                    (&t[keyword][j], format!("{tk}/{j}")),
                    usage,
                    &format!("{name}|{}", short(k)),
                ),
            }
        }
        for (j, k) in new_keys.iter().enumerate() {
            if !partners.contains(&Some(j)) {
                self.report(
                    family.member_added.used(usage),
                    format!("{keyword} member `{}` added to `{name}`", short(k)),
                    (
                        Some(if s.get(keyword).is_some() { &sk } else { sp }),
                        Some(&format!("{tk}/{j}")),
                    ),
                );
            }
        }
    }

    /// The new member each old member of a composition stands for: the one
    /// with the same `$ref`, else one equivalent to it (a `$ref` replaced by
    /// the schema it names, or the reverse), else the inline member at the
    /// same place.
    pub(super) fn pair_members(
        &self,
        old: &[Value],
        new: &[Value],
        old_keys: &[String],
        new_keys: &[String],
    ) -> Vec<Option<usize>> {
        let mut partners: Vec<Option<usize>> = vec![None; old.len()];
        let mut taken = vec![false; new.len()];
        let rules: [&dyn Fn(usize, usize) -> bool; 3] = [
            &|i, j| !old_keys[i].starts_with('#') && old_keys[i] == new_keys[j],
            &|i, j| equivalent(&self.base.document, &old[i], &self.head.document, &new[j]),
            &|i, j| old_keys[i].starts_with('#') && old_keys[i] == new_keys[j],
        ];
        for rule in rules {
            for (i, partner) in partners.iter_mut().enumerate() {
                if partner.is_some() {
                    continue;
                }
                if let Some(j) = (0..new.len()).find(|&j| !taken[j] && rule(i, j)) {
                    taken[j] = true;
                    *partner = Some(j);
                }
            }
        }
        partners
    }

    pub(super) fn discriminator(&mut self, pair: &SchemaPair<'_>) {
        let SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        } = *pair;
        let keyword = "discriminator";
        let (sk, tk) = (pointer_join(sp, keyword), pointer_join(tp, keyword));
        let (old, new) = match (s.get(keyword), t.get(keyword)) {
            (None, None) => return,
            (None, Some(_)) | (Some(_), None) => {
                let added = s.get(keyword).is_none();
                let rule = if added {
                    &rules::DISCRIMINATOR_ADDED
                } else {
                    &rules::DISCRIMINATOR_REMOVED
                };
                self.report(
                    rule.used(usage),
                    format!(
                        "discriminator {} `{name}`",
                        if added { "added to" } else { "removed from" }
                    ),
                    (
                        Some(if added { sp } else { &sk }),
                        Some(if added { &tk } else { tp }),
                    ),
                );
                return;
            }
            (Some(a), Some(b)) => (a, b),
        };
        if old.get("propertyName") != new.get("propertyName") {
            self.report(
                rules::DISCRIMINATOR_PROPERTY_CHANGED.used(usage),
                format!(
                    "discriminator property of `{name}` changed from {} to {}",
                    show(old.get("propertyName")),
                    show(new.get("propertyName"))
                ),
                (
                    Some(&pointer_join(&sk, "propertyName")),
                    Some(&pointer_join(&tk, "propertyName")),
                ),
            );
        }
        let empty = serde_json::Map::new();
        let old_map = old
            .get("mapping")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let new_map = new
            .get("mapping")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let (sm, tm) = (pointer_join(&sk, "mapping"), pointer_join(&tk, "mapping"));
        // A mapping names a schema by `$ref` or by its name alone.
        let schema_of = |target: &Value| {
            target
                .as_str()
                .map(|t| component_schema(t).unwrap_or_else(|| t.to_string()))
        };
        let added: Vec<&String> = new_map
            .keys()
            .filter(|value| !old_map.contains_key(*value))
            .collect();
        let mut renamed_to = BTreeSet::new();
        for (value, target) in old_map {
            match new_map.get(value) {
                None => {
                    let schema = schema_of(target);
                    let renamed = added.iter().find(|new_value| {
                        !renamed_to.contains(*new_value) && schema_of(&new_map[**new_value]) == schema
                    });
                    if let Some(new_value) = renamed {
                        renamed_to.insert(*new_value);
                        self.report(
                            rules::DISCRIMINATOR_MAPPING_RENAMED.used(usage),
                            format!(
                                "discriminator value `{value}` of `{name}` renamed to `{new_value}` (both name {})",
                                show(Some(target))
                            ),
                            (
                                Some(&pointer_join(&sm, value)),
                                Some(&pointer_join(&tm, new_value)),
                            ),
                        );
                        continue;
                    }
                    // Still a member, the schema's objects are sent under
                    // another value (its name, where no mapping gives one).
                    let still_member = ["oneOf", "anyOf"].iter().any(|keyword| {
                        t.get(*keyword)
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                            .filter_map(|member| member.get("$ref"))
                            .any(|member| schema_of(member) == schema)
                    });
                    self.report(
                        rules::DISCRIMINATOR_MAPPING_REMOVED
                            .used(usage)
                            .excepted(false, still_member),
                        format!(
                            "discriminator value `{value}` of `{name}` removed{}",
                            if still_member {
                                format!(
                                    " while {} is still a member: its objects are sent under another value",
                                    show(Some(target))
                                )
                            } else {
                                String::new()
                            }
                        ),
                        (Some(&pointer_join(&sm, value)), Some(&tk)),
                    );
                }
                Some(new_target) if new_target != target => self.report(
                    rules::DISCRIMINATOR_MAPPING_CHANGED.used(usage),
                    format!(
                        "discriminator value `{value}` of `{name}` now maps to {new_target} instead of {target}"
                    ),
                    (
                        Some(&pointer_join(&sm, value)),
                        Some(&pointer_join(&tm, value)),
                    ),
                ),
                _ => {}
            }
        }
        for value in added.into_iter().filter(|v| !renamed_to.contains(v)) {
            self.report(
                rules::DISCRIMINATOR_MAPPING_ADDED.used(usage),
                format!("discriminator value `{value}` added to `{name}`"),
                (Some(&sk), Some(&pointer_join(&tm, value))),
            );
        }
    }
}
