//! Schema keywords: types, nullability, flags, defaults, keywords whose
//! presence constrains, properties, `contains`, `dependentRequired`, and
//! the keywords spec-diff only reports for review.

use super::*;

impl<'a> Walker<'a> {
    /// The types allowed, `null` aside: widened, narrowed or changed. Whether
    /// the rest of the two schemas is still worth comparing (not after an
    /// unrelated type).
    pub(super) fn type_change(&mut self, pair: &SchemaPair<'_>) -> bool {
        let SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        } = *pair;
        let at = |p: &str, key: &str| pointer_join(p, key);
        if let (Some(old_types), Some(new_types)) = (types(s), types(t))
            && old_types != new_types
        {
            let (old_type, new_type) = (s.get("type"), t.get("type"));
            let widened = covers(&new_types, &old_types, self.travel);
            let narrowed = covers(&old_types, &new_types, Travel::Json);
            // A widening only the way the value travels allows says so.
            let by_travel = widened && !covers(&new_types, &old_types, Travel::Json);
            let why = match self.travel {
                Travel::ParameterText if by_travel => {
                    " (the value travels as text, so every old value is still valid)"
                }
                Travel::TextDocument if by_travel => {
                    " (the body is text, so everything the old schema took is still a string)"
                }
                _ => "",
            };
            let (rule, how) = match (widened, narrowed) {
                (true, _) => (&rules::TYPE_WIDENED, "widened"),
                (false, true) => (&rules::TYPE_NARROWED, "narrowed"),
                (false, false) => (&rules::TYPE_CHANGED, "changed"),
            };
            self.report(
                rule.used(usage),
                format!(
                    "type of `{name}` {how} from {} to {}{}",
                    show(old_type),
                    show(new_type),
                    why
                ),
                (Some(&at(sp, "type")), Some(&at(tp, "type"))),
            );
            return widened || narrowed;
        }
        true
    }

    /// `null` allowed or not: 3.0's `nullable: true`, or `null` among the
    /// types of 3.1.
    pub(super) fn nullable_change(&mut self, pair: &SchemaPair<'_>) {
        let nullable = |v: &Value| {
            v.get("nullable").and_then(Value::as_bool) == Some(true)
                || match v.get("type") {
                    Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
                    Some(Value::String(t)) => t == "null",
                    _ => false,
                }
        };
        let place = |v: &Value, at: &str| {
            if v.get("nullable").is_some() {
                pointer_join(at, "nullable")
            } else if v.get("type").is_some_and(Value::is_array) {
                pointer_join(at, "type")
            } else {
                at.to_string()
            }
        };
        let (rule, what) = match (nullable(pair.old), nullable(pair.new)) {
            (false, true) => (&rules::NULLABLE_ADDED, "now allows"),
            (true, false) => (&rules::NULLABLE_REMOVED, "no longer allows"),
            _ => return,
        };
        self.report(
            rule.used(pair.usage),
            format!("`{}` {what} `null`", pair.name),
            (
                Some(&place(pair.old, pair.old_at)),
                Some(&place(pair.new, pair.new_at)),
            ),
        );
    }

    /// A boolean keyword turned on or off.
    pub(super) fn flag_change(&mut self, pair: &SchemaPair<'_>, family: &FlagRules) {
        let keyword = family.keyword;
        let SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        } = *pair;
        let on = |v: &Value| v.get(keyword).and_then(Value::as_bool) == Some(true);
        let (rule, verb) = match (on(s), on(t)) {
            (false, true) => (family.set, "set"),
            (true, false) => (family.cleared, "cleared"),
            _ => return,
        };
        self.report(
            rule.used(usage),
            format!("`{keyword}` {verb} on `{name}`"),
            (
                Some(&keyword_pointer(s, sp, keyword)),
                Some(&keyword_pointer(t, tp, keyword)),
            ),
        );
    }

    /// The value used when the caller sends none.
    pub(super) fn default_change(&mut self, pair: &SchemaPair<'_>) {
        let SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        } = *pair;
        if s.get("default") != t.get("default") {
            self.report(
                rules::DEFAULT_CHANGED.used(usage),
                format!(
                    "default of `{name}` changed from {} to {}",
                    show(s.get("default")),
                    show(t.get("default"))
                ),
                (
                    Some(&keyword_pointer(s, sp, "default")),
                    Some(&keyword_pointer(t, tp, "default")),
                ),
            );
        }
    }

    /// A keyword whose presence constrains values (`format`, `pattern`).
    pub(super) fn keyword_change(&mut self, pair: &SchemaPair<'_>, family: &KeywordRules) {
        let keyword = family.keyword;
        let SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        } = *pair;
        // An empty pattern matches every string: it constrains nothing.
        let constrains = |x: &&Value| x.as_str() != Some("");
        let (a, b) = (
            s.get(keyword).filter(constrains),
            t.get(keyword).filter(constrains),
        );
        let (rule, suffix) = match (a, b) {
            (None, Some(_)) => (family.added, "added"),
            (Some(_), None) => (family.removed, "removed"),
            (Some(x), Some(y)) if x != y => (family.changed, "changed"),
            _ => return,
        };
        self.report(
            rule.used(usage),
            format!(
                "{keyword} of `{name}` {suffix}: {} -> {}",
                show_or(a, "none"),
                show_or(b, "none")
            ),
            (
                Some(&keyword_pointer(s, sp, keyword)),
                Some(&keyword_pointer(t, tp, keyword)),
            ),
        );
    }

    pub(super) fn properties(&mut self, pair: &SchemaPair<'_>) {
        let SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        } = *pair;
        let empty = serde_json::Map::new();
        let old = s
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let new = t
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required = |v: &Value| -> BTreeSet<String> {
            v.get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        let (old_required, new_required) = (required(s), required(t));
        let closed = t.get("additionalProperties") == Some(&Value::Bool(false));
        let (sprops, tprops) = (
            pointer_join(sp, "properties"),
            pointer_join(tp, "properties"),
        );
        for (property, old_schema) in old {
            let old_pointer = pointer_join(&sprops, property);
            let field = format!("{name}.{property}");
            let Some(new_schema) = new.get(property) else {
                let verdict = rules::PROPERTY_REMOVED
                    .used(usage)
                    .excepted(closed, old_required.contains(property));
                self.report(
                    verdict,
                    format!("property `{field}` removed"),
                    (Some(&old_pointer), Some(&tprops)),
                );
                continue;
            };
            let new_pointer = pointer_join(&tprops, property);
            match (
                old_required.contains(property),
                new_required.contains(property),
            ) {
                (false, true) => self.report(
                    rules::PROPERTY_BECAME_REQUIRED.used(usage),
                    format!("property `{field}` became required"),
                    (Some(&old_pointer), Some(&new_pointer)),
                ),
                (true, false) => self.report(
                    rules::PROPERTY_BECAME_OPTIONAL.used(usage),
                    format!("property `{field}` became optional"),
                    (Some(&old_pointer), Some(&new_pointer)),
                ),
                _ => {}
            }
            self.schema(
                (old_schema, old_pointer),
                (new_schema, new_pointer),
                usage,
                &field,
            );
        }
        for property in new.keys().filter(|p| !old.contains_key(*p)) {
            let new_pointer = pointer_join(&tprops, property);
            let (rule, what) = if new_required.contains(property) {
                (&rules::REQUIRED_PROPERTY_ADDED, "required")
            } else {
                (&rules::OPTIONAL_PROPERTY_ADDED, "optional")
            };
            self.report(
                rule.used(usage),
                format!("{what} property `{name}.{property}` added"),
                (Some(&sprops), Some(&new_pointer)),
            );
        }
    }

    pub(super) fn additional_properties(&mut self, pair: &SchemaPair<'_>) {
        let SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        } = *pair;
        // Absent means any member is allowed, as `true` does.
        let openness = |v: &Value| match v.get("additionalProperties") {
            None | Some(Value::Bool(true)) => 2,
            Some(Value::Bool(false)) => 0,
            Some(_) => 1,
        };
        let keyword = "additionalProperties";
        let (a, b) = (openness(s), openness(t));
        let (sk, tk) = (pointer_join(sp, keyword), pointer_join(tp, keyword));
        if a == 1 && b == 1 {
            self.schema(
                (&s[keyword], sk),
                (&t[keyword], tk),
                usage,
                &format!("{name}{{*}}"),
            );
            return;
        }
        let rule = match a.cmp(&b) {
            std::cmp::Ordering::Equal => return,
            std::cmp::Ordering::Less => &rules::ADDITIONAL_PROPERTIES_LOOSENED,
            std::cmp::Ordering::Greater => &rules::ADDITIONAL_PROPERTIES_TIGHTENED,
        };
        self.report(
            rule.used(usage),
            format!(
                "additionalProperties of `{name}` changed from {} to {}",
                show_or(s.get(keyword), "absent"),
                show_or(t.get(keyword), "absent")
            ),
            (
                Some(&keyword_pointer(s, sp, keyword)),
                Some(&keyword_pointer(t, tp, keyword)),
            ),
        );
    }

    /// `contains`: an array must hold an item of this schema.
    pub(super) fn contains(&mut self, pair: &SchemaPair<'_>) {
        let keyword = "contains";
        let (old_at, new_at) = (
            keyword_pointer(pair.old, pair.old_at, keyword),
            keyword_pointer(pair.new, pair.new_at, keyword),
        );
        let (rule, suffix) = match (pair.old.get(keyword), pair.new.get(keyword)) {
            (Some(a), Some(b)) => {
                return self.schema(
                    (a, old_at),
                    (b, new_at),
                    pair.usage,
                    &format!("{} (contains)", pair.name),
                );
            }
            (None, Some(_)) => (&rules::CONTAINS_ADDED, "added"),
            (Some(_), None) => (&rules::CONTAINS_REMOVED, "removed"),
            (None, None) => return,
        };
        self.report(
            rule.used(pair.usage),
            format!("`contains` {suffix} on `{}`", pair.name),
            (Some(&old_at), Some(&new_at)),
        );
    }

    /// `dependentRequired`: a property present requires others.
    pub(super) fn dependent_required(&mut self, pair: &SchemaPair<'_>) {
        let keyword = "dependentRequired";
        let entries = |v: &Value| -> BTreeSet<(String, String)> {
            v.get(keyword)
                .and_then(Value::as_object)
                .map(|map| {
                    map.iter()
                        .flat_map(|(present, required)| {
                            required
                                .as_array()
                                .into_iter()
                                .flatten()
                                .filter_map(Value::as_str)
                                .map(move |r| (present.clone(), r.to_string()))
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let (old, new) = (entries(pair.old), entries(pair.new));
        let (old_at, new_at) = (
            keyword_pointer(pair.old, pair.old_at, keyword),
            keyword_pointer(pair.new, pair.new_at, keyword),
        );
        for (rule, entries, verb) in [
            (
                &rules::DEPENDENT_REQUIRED_REMOVED,
                old.difference(&new),
                "no longer requires",
            ),
            (
                &rules::DEPENDENT_REQUIRED_ADDED,
                new.difference(&old),
                "now requires",
            ),
        ] {
            for (present, required) in entries {
                self.report(
                    rule.used(pair.usage),
                    format!("`{}`: property `{present}` {verb} `{required}`", pair.name),
                    (Some(&old_at), Some(&new_at)),
                );
            }
        }
    }

    /// Keywords whose effect on the values allowed spec-diff does not work
    /// out (conditionals, tuples, names by pattern, negation, what is left
    /// unevaluated): any change to one is reported for review.
    pub(super) fn unclassified(&mut self, pair: &SchemaPair<'_>) {
        for keyword in UNCLASSIFIED {
            let (a, b) = (pair.old.get(*keyword), pair.new.get(*keyword));
            let same = match (a, b) {
                (None, None) => true,
                (Some(a), Some(b)) => equivalent(&self.base.document, a, &self.head.document, b),
                _ => false,
            };
            if same {
                continue;
            }
            self.report(rules::KEYWORD_CHANGED.used(pair.usage), format!(
                    "`{keyword}` of `{}` changed (spec-diff does not classify it: review what it allows)",
                    pair.name
                ), (Some(&keyword_pointer(pair.old, pair.old_at, keyword)), Some(&keyword_pointer(pair.new, pair.new_at, keyword))));
        }
    }
}

/// Keywords compared only for equality (see `Walker::unclassified`).
pub(super) const UNCLASSIFIED: &[&str] = &[
    "if",
    "then",
    "else",
    "not",
    "prefixItems",
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "dependentSchemas",
];

/// The types a schema allows besides `null` (nullability is its own rule):
/// `type: T` or, in 3.1, `type: [T, "null"]`. `None` when it names none.
pub(super) fn types(schema: &Value) -> Option<BTreeSet<String>> {
    let named: BTreeSet<String> = match schema.get("type")? {
        Value::String(one) => BTreeSet::from([one.clone()]),
        Value::Array(many) => many
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => return None,
    };
    let named: BTreeSet<String> = named.into_iter().filter(|t| t != "null").collect();
    (!named.is_empty()).then_some(named)
}

/// Whether every value of the types `narrow` is a value of the types `wide`
/// when values travel as `travel` says: an integer is a number; as a
/// parameter's text, every scalar is a string; in a text document (XML,
/// `text/plain`), every document is.
pub(super) fn covers(wide: &BTreeSet<String>, narrow: &BTreeSet<String>, travel: Travel) -> bool {
    narrow.iter().all(|ty| {
        wide.contains(ty)
            || (ty == "integer" && wide.contains("number"))
            || (wide.contains("string")
                && match travel {
                    Travel::Json => false,
                    Travel::ParameterText => {
                        matches!(ty.as_str(), "integer" | "number" | "boolean")
                    }
                    Travel::TextDocument => true,
                })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_integer_is_a_number_a_text_value_any_scalar_and_a_text_document_anything() {
        let set = |types: &[&str]| types.iter().map(|t| t.to_string()).collect::<BTreeSet<_>>();
        assert!(covers(&set(&["number"]), &set(&["integer"]), Travel::Json));
        assert!(!covers(&set(&["integer"]), &set(&["number"]), Travel::Json));
        assert!(!covers(&set(&["string"]), &set(&["number"]), Travel::Json));
        assert!(covers(
            &set(&["string"]),
            &set(&["number", "boolean"]),
            Travel::ParameterText
        ));
        assert!(!covers(
            &set(&["string"]),
            &set(&["object"]),
            Travel::ParameterText
        ));
        assert!(covers(
            &set(&["string"]),
            &set(&["object", "array"]),
            Travel::TextDocument
        ));
        assert!(!covers(
            &set(&["integer"]),
            &set(&["object"]),
            Travel::TextDocument
        ));
        let schema = serde_json::json!({"type": ["integer", "null"]});
        assert_eq!(types(&schema), Some(set(&["integer"])));
    }
}
