//! Security: the schemes defined, and the requirements of each operation.

use super::*;

impl<'a> Walker<'a> {
    pub(super) fn security_schemes(&mut self) {
        let base_doc = &self.base.document;
        let head_doc = &self.head.document;
        let root = "/components/securitySchemes";
        let empty = serde_json::Map::new();
        let old = object_at(base_doc, root).unwrap_or(&empty);
        let new = object_at(head_doc, root).unwrap_or(&empty);
        for (name, scheme) in old {
            let pointer = pointer_join(root, name);
            let Some(new_scheme) = new.get(name) else {
                // Defining a scheme asks nothing of callers; the operations
                // that stop accepting it are reported by the requirement rules.
                self.report(
                    rules::SECURITY_SCHEME_REMOVED.usual(),
                    format!("security scheme `{name}` removed"),
                    (Some(&pointer), Some(root)),
                );
                continue;
            };
            for field in ["type", "scheme", "in", "name", "bearerFormat"] {
                if scheme.get(field) != new_scheme.get(field) {
                    let field_pointer = pointer_join(&pointer, field);
                    let rule = if field == "bearerFormat" {
                        &rules::SECURITY_SCHEME_BEARER_FORMAT_CHANGED
                    } else {
                        &rules::SECURITY_SCHEME_TYPE_CHANGED
                    };
                    self.report(
                        rule.usual(),
                        format!(
                            "`{field}` of security scheme `{name}` changed from {} to {}",
                            show(scheme.get(field)),
                            show(new_scheme.get(field))
                        ),
                        (Some(&field_pointer), Some(&field_pointer)),
                    );
                }
            }
            fn flows(s: &Value) -> Option<&serde_json::Map<String, Value>> {
                s.get("flows").and_then(Value::as_object)
            }
            if let (Some(old_flows), Some(new_flows)) = (flows(scheme), flows(new_scheme)) {
                for (flow, old_flow) in old_flows {
                    let flow_pointer = pointer_join(&pointer_join(&pointer, "flows"), flow);
                    let Some(new_flow) = new_flows.get(flow) else {
                        self.report(
                            rules::SECURITY_SCHEME_FLOW_REMOVED.usual(),
                            format!("OAuth flow `{flow}` of security scheme `{name}` removed"),
                            (Some(&flow_pointer), Some(&pointer)),
                        );
                        continue;
                    };
                    for url in ["tokenUrl", "authorizationUrl", "refreshUrl"] {
                        if old_flow.get(url) != new_flow.get(url) {
                            let url_pointer = pointer_join(&flow_pointer, url);
                            self.report(rules::SECURITY_SCHEME_URL_CHANGED.usual(), format!(
                                    "`{url}` of OAuth flow `{flow}` of `{name}` changed from {} to {}",
                                    show(old_flow.get(url)),
                                    show(new_flow.get(url))
                                ), (Some(&url_pointer), Some(&url_pointer)));
                        }
                    }
                    let scopes_pointer = pointer_join(&flow_pointer, "scopes");
                    let scopes = |f: &Value| {
                        f.get("scopes")
                            .and_then(Value::as_object)
                            .map(|m| m.keys().cloned().collect::<BTreeSet<_>>())
                            .unwrap_or_default()
                    };
                    let (old_scopes, new_scopes) = (scopes(old_flow), scopes(new_flow));
                    for scope in old_scopes.difference(&new_scopes) {
                        self.report(
                            rules::SECURITY_SCHEME_SCOPE_REMOVED.usual(),
                            format!("scope `{scope}` removed from OAuth flow `{flow}` of `{name}`"),
                            (
                                Some(&pointer_join(&scopes_pointer, scope)),
                                Some(&scopes_pointer),
                            ),
                        );
                    }
                    for scope in new_scopes.difference(&old_scopes) {
                        self.report(
                            rules::SECURITY_SCHEME_SCOPE_ADDED.usual(),
                            format!("scope `{scope}` added to OAuth flow `{flow}` of `{name}`"),
                            (
                                Some(&scopes_pointer),
                                Some(&pointer_join(&scopes_pointer, scope)),
                            ),
                        );
                    }
                }
                for flow in new_flows.keys().filter(|f| !old_flows.contains_key(*f)) {
                    let flow_pointer = pointer_join(&pointer_join(&pointer, "flows"), flow);
                    self.report(
                        rules::SECURITY_SCHEME_FLOW_ADDED.usual(),
                        format!("OAuth flow `{flow}` added to security scheme `{name}`"),
                        (Some(&pointer), Some(&flow_pointer)),
                    );
                }
            }
        }
        for name in new.keys().filter(|n| !old.contains_key(*n)) {
            self.report(
                rules::SECURITY_SCHEME_ADDED.usual(),
                format!("security scheme `{name}` added"),
                (Some(root), Some(&pointer_join(root, name))),
            );
        }
    }

    pub(super) fn security(
        &mut self,
        old: &OperationView<'a>,
        new: &OperationView<'a>,
        label: &str,
    ) {
        let old_req = security_requirements(&self.base.document, old);
        let new_req = security_requirements(&self.head.document, new);
        if old_req == new_req {
            return;
        }
        let old_pointer = old.security_pointer.clone();
        let new_pointer = new.security_pointer.clone();
        let schemes =
            |r: &BTreeMap<String, BTreeSet<String>>| r.keys().cloned().collect::<Vec<_>>();
        // Fewer requirements ask less of callers. Only a caller that used a
        // removed alternative while others remain must switch to one of them.
        let open_after = new_req.is_empty() || new_req.iter().any(BTreeMap::is_empty);
        for requirement in &old_req {
            let key = schemes(requirement);
            match new_req.iter().find(|r| schemes(r) == key) {
                None => self.report(
                    rules::SECURITY_REQUIREMENT_REMOVED
                        .unless(open_after || requirement.is_empty()),
                    format!(
                        "security requirement `{}` of {label} removed{}",
                        show_requirement(requirement),
                        if open_after {
                            " (the operation no longer requires credentials)"
                        } else {
                            " (callers that used it must use another alternative)"
                        }
                    ),
                    (Some(&old_pointer), Some(&new_pointer)),
                ),
                Some(new_requirement) => {
                    for (scheme, scopes) in requirement {
                        let new_scopes = &new_requirement[scheme];
                        for scope in new_scopes.difference(scopes) {
                            self.report(
                                rules::SECURITY_SCOPE_ADDED.usual(),
                                format!("{label} now requires scope `{scope}` of `{scheme}`"),
                                (Some(&old_pointer), Some(&new_pointer)),
                            );
                        }
                        for scope in scopes.difference(new_scopes) {
                            self.report(
                                rules::SECURITY_SCOPE_REMOVED.usual(),
                                format!("{label} no longer requires scope `{scope}` of `{scheme}`"),
                                (Some(&old_pointer), Some(&new_pointer)),
                            );
                        }
                    }
                }
            }
        }
        for requirement in &new_req {
            let key = schemes(requirement);
            if !old_req.iter().any(|r| schemes(r) == key) {
                // A further alternative is harmless; the first requirement on
                // an open operation locks every caller out.
                let open_before = old_req.is_empty() || old_req.iter().any(BTreeMap::is_empty);
                let locks_out = open_before && !requirement.is_empty();
                self.report(
                    rules::SECURITY_REQUIREMENT_ADDED.unless(locks_out),
                    format!(
                        "security requirement `{}` added to {label}",
                        show_requirement(requirement)
                    ),
                    (Some(&old_pointer), Some(&new_pointer)),
                );
            }
        }
    }
}

/// The security requirements that apply to an operation: each alternative
/// as scheme -> scopes.
pub(super) fn security_requirements(
    doc: &Value,
    op: &OperationView<'_>,
) -> Vec<BTreeMap<String, BTreeSet<String>>> {
    let security = op.value.get("security").or_else(|| doc.get("security"));
    security
        .and_then(Value::as_array)
        .map(|alternatives| {
            alternatives
                .iter()
                .filter_map(Value::as_object)
                .map(|requirement| {
                    requirement
                        .iter()
                        .map(|(scheme, scopes)| {
                            let scopes = scopes
                                .as_array()
                                .map(|s| {
                                    s.iter()
                                        .filter_map(|x| x.as_str().map(str::to_string))
                                        .collect()
                                })
                                .unwrap_or_default();
                            (scheme.clone(), scopes)
                        })
                        .collect()
                })
                .collect()
        })
        .unwrap_or_default()
}

pub(super) fn show_requirement(requirement: &BTreeMap<String, BTreeSet<String>>) -> String {
    if requirement.is_empty() {
        return "{} (anonymous)".to_string();
    }
    requirement
        .iter()
        .map(|(scheme, scopes)| {
            let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
            format!("{scheme}[{}]", scopes.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" + ")
}
