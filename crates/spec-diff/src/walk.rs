//! The HTTP contract: walks both documents side by side and classifies every
//! difference.
//!
//! Component schemas are compared once each, where they are defined, and
//! classified by where they are used (request, response or both), so a change
//! to a schema shared by many operations is one change, not one per use. At a
//! use site only what differs there is compared: inline schemas, or the
//! resolved targets when a `$ref` now points elsewhere (pairs of targets
//! already compared are skipped, so reference cycles end).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use tenant_codegen::diagnostic::pointer_join;
use tenant_codegen::load::LoadedSpec;
use tenant_codegen::model::refs;

pub use crate::rules::Usage;
use crate::rules::{self, BoundRules, CompositionRules, FlagRules, KeywordRules, Verdict};
use crate::{Change, locate};

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];
const SCHEMAS: &str = refs::SCHEMA_REF_PREFIX;

/// Every HTTP-level change from `base` to `head`, without Rust effects.
pub fn diff_documents(base: &LoadedSpec, head: &LoadedSpec) -> Vec<Change> {
    let mut usage = schema_usage(&base.document);
    for (name, used) in schema_usage(&head.document) {
        let entry = usage.entry(name).or_default();
        *entry = entry.union(used);
    }
    let mut walker = Walker {
        base,
        head,
        usage,
        changes: Vec::new(),
        seen: BTreeSet::new(),
        as_text: false,
    };
    walker.servers();
    walker.security_schemes();
    walker.paths();
    walker.webhooks();
    walker.components();
    walker.changes
}

struct Walker<'a> {
    base: &'a LoadedSpec,
    head: &'a LoadedSpec,
    usage: BTreeMap<String, Usage>,
    changes: Vec<Change>,
    /// Pairs of (base, head) schema pointers compared through differing `$ref`s.
    seen: BTreeSet<(String, String)>,
    /// Set while a parameter's schema is compared: its value travels as
    /// text, so any scalar that becomes a string is still accepted.
    as_text: bool,
}

/// Two versions of one schema, where each is, how the schema is used and
/// what messages call it: what every schema rule reads.
#[derive(Clone, Copy)]
struct SchemaPair<'v> {
    old: &'v Value,
    new: &'v Value,
    old_at: &'v str,
    new_at: &'v str,
    usage: Usage,
    name: &'v str,
}

/// Where a change is in the base version and in the new one.
type Places<'p> = (Option<&'p str>, Option<&'p str>);

/// One side of a comparison: a node and its pointer.
type Node<'a> = (&'a Value, String);

impl<'a> Walker<'a> {
    /// Records a change: its level, direction and id come from `verdict`.
    fn report(&mut self, verdict: Verdict, message: String, places: Places<'_>) {
        let (level, direction, rule) = verdict.classify();
        self.changes.push(Change {
            rule,
            level,
            direction,
            message,
            base: places.0.map(|p| locate(self.base, p)),
            head: places.1.map(|p| locate(self.head, p)),
            rust: Vec::new(),
            acknowledged: None,
        });
    }

    // --- servers ---------------------------------------------------------

    fn servers(&mut self) {
        let urls = |doc: &Value| -> Vec<String> {
            doc.get("servers")
                .and_then(Value::as_array)
                .map(|servers| {
                    servers
                        .iter()
                        .filter_map(|s| s.get("url").and_then(Value::as_str))
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        let (old, new) = (urls(&self.base.document), urls(&self.head.document));
        if old == new {
            return;
        }
        // Only an explicit new version in the path of a server URL present in
        // both versions is a new API version: a missing, removed or merely
        // different URL says nothing about the version, so it must never
        // acknowledge the changes beside it (that would let a revision pass CI
        // by deleting `servers`).
        if let (Some(old_url), Some(new_url)) = (old.first(), new.first())
            && let (old_path, new_path) = (path_prefix(old_url), path_prefix(new_url))
            && let Some(new_version) = version_segment(&new_path)
            && version_segment(&old_path) != Some(new_version)
        {
            let old_version = version_segment(&old_path);
            self.report(rules::SERVER_URL_PREFIX_CHANGED.usual(), format!(
                    "the API version in the server URL path changed from `{}` to `{new_version}` (`{}` -> `{}`): a new API version, which acknowledges every breaking change",
                    old_version.unwrap_or("none"),
                    old_path,
                    new_path,
                ), (Some("/servers/0/url"), Some("/servers/0/url")));
            return;
        }
        for (i, url) in old.iter().enumerate() {
            if !new.contains(url) {
                let pointer = format!("/servers/{i}/url");
                let head = if new.is_empty() { "" } else { "/servers" };
                self.report(
                    rules::SERVER_URL_REMOVED.usual(),
                    format!(
                        "server URL `{url}` removed (not a new API version: acknowledges nothing)"
                    ),
                    (Some(&pointer), Some(head)),
                );
            }
        }
        for (i, url) in new.iter().enumerate() {
            if !old.contains(url) {
                let pointer = format!("/servers/{i}/url");
                let base = if old.is_empty() { "" } else { "/servers" };
                self.report(
                    rules::SERVER_URL_ADDED.usual(),
                    format!("server URL `{url}` added"),
                    (Some(base), Some(&pointer)),
                );
            }
        }
    }

    // --- security schemes ------------------------------------------------

    fn security_schemes(&mut self) {
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

    // --- paths and operations -------------------------------------------

    fn paths(&mut self) {
        let old_ops = operations(&self.base.document);
        let new_ops = operations(&self.head.document);
        let old_ids: BTreeMap<&str, &OperationView> = old_ops
            .values()
            .filter_map(|op| op.id.as_deref().map(|id| (id, op)))
            .collect();
        let new_ids: BTreeMap<&str, &OperationView> = new_ops
            .values()
            .filter_map(|op| op.id.as_deref().map(|id| (id, op)))
            .collect();
        let old_paths: BTreeSet<&str> = old_ops.keys().map(|(p, _)| p.as_str()).collect();
        let new_paths: BTreeSet<&str> = new_ops.keys().map(|(p, _)| p.as_str()).collect();

        for path in old_paths.difference(&new_paths) {
            let moved_all = old_ops
                .iter()
                .filter(|((p, _), _)| p == path)
                .all(|(_, op)| op.id.as_deref().is_some_and(|id| new_ids.contains_key(id)));
            if !moved_all {
                self.report(
                    rules::API_PATH_REMOVED.usual(),
                    format!("path `{path}` removed"),
                    (Some(&pointer_join("/paths", path)), Some("/paths")),
                );
            }
        }
        for path in new_paths.difference(&old_paths) {
            let moved_all = new_ops
                .iter()
                .filter(|((p, _), _)| p == path)
                .all(|(_, op)| op.id.as_deref().is_some_and(|id| old_ids.contains_key(id)));
            if !moved_all {
                self.report(
                    rules::API_PATH_ADDED.usual(),
                    format!("path `{path}` added"),
                    (Some("/paths"), Some(&pointer_join("/paths", path))),
                );
            }
        }

        for (key, old) in &old_ops {
            if let Some(new) = new_ops.get(key) {
                self.operation(old, new);
                continue;
            }
            let label = format!("{} {}", key.1.to_uppercase(), key.0);
            if let Some(new) = old.id.as_deref().and_then(|id| new_ids.get(id))
                && !old_ops.contains_key(&(new.path.clone(), new.method.clone()))
            {
                self.report(
                    rules::OPERATION_MOVED.usual(),
                    format!(
                        "operation `{}` moved from {label} to {} {}",
                        old.id.as_deref().unwrap_or_default(),
                        new.method.to_uppercase(),
                        new.path
                    ),
                    (Some(&old.pointer), Some(&new.pointer)),
                );
                self.operation(old, new);
                continue;
            }
            if new_paths.contains(key.0.as_str()) {
                self.report(
                    rules::API_METHOD_REMOVED.usual(),
                    format!("operation {label} removed"),
                    (Some(&old.pointer), Some(&pointer_join("/paths", &key.0))),
                );
            }
        }
        for (key, new) in &new_ops {
            if old_ops.contains_key(key) {
                continue;
            }
            if let Some(old) = new.id.as_deref().and_then(|id| old_ids.get(id))
                && !new_ops.contains_key(&(old.path.clone(), old.method.clone()))
            {
                continue; // reported as moved
            }
            if old_paths.contains(key.0.as_str()) {
                self.report(
                    rules::API_METHOD_ADDED.usual(),
                    format!("operation {} {} added", key.1.to_uppercase(), key.0),
                    (Some(&pointer_join("/paths", &key.0)), Some(&new.pointer)),
                );
            }
        }
    }

    fn operation(&mut self, old: &OperationView<'a>, new: &OperationView<'a>) {
        let label = format!(
            "`{}`",
            new.id
                .clone()
                .unwrap_or_else(|| format!("{} {}", new.method.to_uppercase(), new.path))
        );
        if old.id != new.id {
            self.report(
                rules::OPERATION_ID_CHANGED.usual(),
                format!(
                    "operationId changed from {} to {} (renames the generated methods)",
                    show(old.value.get("operationId")),
                    show(new.value.get("operationId"))
                ),
                (
                    Some(&pointer_join(&old.pointer, "operationId")),
                    Some(&pointer_join(&new.pointer, "operationId")),
                ),
            );
        }
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
        self.parameters(old, new, &label);
        self.request_body(old, new, &label);
        self.responses(old, new, &label);
        self.security(old, new, &label);
    }

    fn parameters(&mut self, old: &OperationView<'a>, new: &OperationView<'a>, label: &str) {
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

    fn request_body(&mut self, old: &OperationView<'a>, new: &OperationView<'a>, label: &str) {
        let old_body = old.value.get("requestBody").map(|b| {
            resolve(
                &self.base.document,
                b,
                pointer_join(&old.pointer, "requestBody"),
            )
        });
        let new_body = new.value.get("requestBody").map(|b| {
            resolve(
                &self.head.document,
                b,
                pointer_join(&new.pointer, "requestBody"),
            )
        });
        let required = |b: &Value| b.get("required").and_then(Value::as_bool) == Some(true);
        let (old_body, new_body) = match (old_body, new_body) {
            (None, None) => return,
            (Some((_, pointer)), None) => {
                self.report(
                    rules::REQUEST_BODY_REMOVED.usual(),
                    format!("request body of {label} removed"),
                    (Some(&pointer), Some(&new.pointer)),
                );
                return;
            }
            (None, Some((body, pointer))) => {
                let (rule, what) = if required(body) {
                    (&rules::REQUEST_REQUIRED_BODY_ADDED, "required")
                } else {
                    (&rules::REQUEST_OPTIONAL_BODY_ADDED, "optional")
                };
                self.report(
                    rule.usual(),
                    format!("{what} request body added to {label}"),
                    (Some(&old.pointer), Some(&pointer)),
                );
                return;
            }
            (Some(old_body), Some(new_body)) => (old_body, new_body),
        };
        match (required(old_body.0), required(new_body.0)) {
            (false, true) => self.report(
                rules::REQUEST_BODY_BECAME_REQUIRED.usual(),
                format!("request body of {label} became required"),
                (Some(&old_body.1), Some(&new_body.1)),
            ),
            (true, false) => self.report(
                rules::REQUEST_BODY_BECAME_OPTIONAL.usual(),
                format!("request body of {label} became optional"),
                (Some(&old_body.1), Some(&new_body.1)),
            ),
            _ => {}
        }
        self.content(
            old_body,
            new_body,
            Usage::REQUEST,
            &format!("request body of {label}"),
        );
    }

    /// Media types of a request or response body, and their schemas.
    fn content(&mut self, old: Node<'_>, new: Node<'_>, usage: Usage, what: &str) {
        let media = |v: &Value| {
            v.get("content")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default()
        };
        let (old_media, new_media) = (media(old.0), media(new.0));
        let (removed, added) = if usage.request {
            (
                &rules::REQUEST_MEDIA_TYPE_REMOVED,
                &rules::REQUEST_MEDIA_TYPE_ADDED,
            )
        } else {
            (
                &rules::RESPONSE_MEDIA_TYPE_REMOVED,
                &rules::RESPONSE_MEDIA_TYPE_ADDED,
            )
        };
        let old_content = pointer_join(&old.1, "content");
        let new_content = pointer_join(&new.1, "content");
        for (media_type, old_entry) in &old_media {
            let old_pointer = pointer_join(&old_content, media_type);
            let Some(new_entry) = new_media.get(media_type) else {
                self.report(
                    removed.usual(),
                    format!("media type `{media_type}` of the {what} removed"),
                    (Some(&old_pointer), Some(&new.1)),
                );
                continue;
            };
            let new_pointer = pointer_join(&new_content, media_type);
            let (old_schema, new_schema) = match (
                schema_node(&old_pointer, old_entry),
                schema_node(&new_pointer, new_entry),
            ) {
                (Some(old_schema), Some(new_schema)) => (old_schema, new_schema),
                (None, None) => continue,
                // No schema allows any body: one constrains it, and the reverse.
                (old_schema, new_schema) => {
                    let added = old_schema.is_none();
                    let rule = if added {
                        &rules::BODY_SCHEMA_ADDED
                    } else {
                        &rules::BODY_SCHEMA_REMOVED
                    };
                    self.report(
                        rule.used(usage),
                        format!(
                            "the {what} ({media_type}) {} a schema",
                            if added { "now has" } else { "no longer has" }
                        ),
                        (
                            Some(&old_schema.map_or(old_pointer.clone(), |n| n.1)),
                            Some(&new_schema.map_or(new_pointer.clone(), |n| n.1)),
                        ),
                    );
                    continue;
                }
            };
            self.schema(
                old_schema,
                new_schema,
                usage,
                &format!("{what} ({media_type})"),
            );
        }
        for media_type in new_media.keys().filter(|m| !old_media.contains_key(*m)) {
            self.report(
                added.usual(),
                format!("media type `{media_type}` added to the {what}"),
                (Some(&old.1), Some(&pointer_join(&new_content, media_type))),
            );
        }
    }

    fn responses(&mut self, old: &OperationView<'a>, new: &OperationView<'a>, label: &str) {
        let empty = serde_json::Map::new();
        let old_responses = old
            .value
            .get("responses")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let new_responses = new
            .value
            .get("responses")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let old_root = pointer_join(&old.pointer, "responses");
        let new_root = pointer_join(&new.pointer, "responses");
        for (status, response) in old_responses {
            let success = status.starts_with('2');
            let use_pointer = pointer_join(&old_root, status);
            let Some(new_response) = new_responses.get(status) else {
                let rule = if success {
                    &rules::RESPONSE_SUCCESS_STATUS_REMOVED
                } else {
                    &rules::RESPONSE_NON_SUCCESS_STATUS_REMOVED
                };
                self.report(
                    rule.usual(),
                    format!("response {status} of {label} removed"),
                    (Some(&use_pointer), Some(&new_root)),
                );
                continue;
            };
            let old_node = resolve(&self.base.document, response, use_pointer);
            let new_node = resolve(
                &self.head.document,
                new_response,
                pointer_join(&new_root, status),
            );
            let what = format!("response {status} of {label}");
            self.headers(old_node.clone(), new_node.clone(), &what);
            self.content(old_node, new_node, Usage::RESPONSE, &what);
        }
        for status in new_responses
            .keys()
            .filter(|s| !old_responses.contains_key(*s))
        {
            let rule = if status.starts_with('2') {
                &rules::RESPONSE_SUCCESS_STATUS_ADDED
            } else {
                &rules::RESPONSE_NON_SUCCESS_STATUS_ADDED
            };
            self.report(
                rule.usual(),
                format!("response {status} added to {label}"),
                (Some(&old_root), Some(&pointer_join(&new_root, status))),
            );
        }
    }

    fn headers(&mut self, old: Node<'_>, new: Node<'_>, what: &str) {
        fn headers<'v>(doc: &'v Value, node: &Node<'v>) -> BTreeMap<String, Node<'v>> {
            let root = pointer_join(&node.1, "headers");
            node.0
                .get("headers")
                .and_then(Value::as_object)
                .map(|h| {
                    h.iter()
                        .map(|(name, header)| {
                            let key = name.to_ascii_lowercase();
                            (key, resolve(doc, header, pointer_join(&root, name)))
                        })
                        .collect()
                })
                .unwrap_or_default()
        }
        let old_headers = headers(&self.base.document, &old);
        let new_headers = headers(&self.head.document, &new);
        let required = |h: &Value| h.get("required").and_then(Value::as_bool) == Some(true);
        for (name, (header, pointer)) in &old_headers {
            let shown = last_token(pointer);
            let Some((new_header, new_pointer)) = new_headers.get(name) else {
                let rule = if required(header) {
                    &rules::RESPONSE_REQUIRED_HEADER_REMOVED
                } else {
                    &rules::RESPONSE_OPTIONAL_HEADER_REMOVED
                };
                self.report(
                    rule.usual(),
                    format!("header `{shown}` of the {what} removed"),
                    (Some(pointer), Some(&new.1)),
                );
                continue;
            };
            match (required(header), required(new_header)) {
                (true, false) => self.report(
                    rules::RESPONSE_HEADER_BECAME_OPTIONAL.usual(),
                    format!("header `{shown}` of the {what} became optional"),
                    (Some(pointer), Some(new_pointer)),
                ),
                (false, true) => self.report(
                    rules::RESPONSE_HEADER_BECAME_REQUIRED.usual(),
                    format!("header `{shown}` of the {what} became required"),
                    (Some(pointer), Some(new_pointer)),
                ),
                _ => {}
            }
            if let (Some(s), Some(t)) = (header.get("schema"), new_header.get("schema")) {
                self.schema(
                    (s, pointer_join(pointer, "schema")),
                    (t, pointer_join(new_pointer, "schema")),
                    Usage::RESPONSE,
                    &format!("header {shown}"),
                );
            }
        }
        for (name, (_, pointer)) in &new_headers {
            if !old_headers.contains_key(name) {
                let shown = last_token(pointer);
                self.report(
                    rules::RESPONSE_HEADER_ADDED.usual(),
                    format!("header `{shown}` added to the {what}"),
                    (Some(&old.1), Some(pointer)),
                );
            }
        }
    }

    fn security(&mut self, old: &OperationView<'a>, new: &OperationView<'a>, label: &str) {
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

    // --- webhooks -----------------------------------------------------------

    /// Webhooks are requests the API sends: their payloads are compared as
    /// responses (what callers receive) and what callers answer as requests.
    fn webhooks(&mut self) {
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

    // --- components -------------------------------------------------------

    fn components(&mut self) {
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

    // --- schemas -----------------------------------------------------------

    /// Compares two schemas used as `usage`; `name` names the schema in messages.
    fn schema(&mut self, old: Node<'_>, new: Node<'_>, usage: Usage, name: &str) {
        let old_ref = old.0.get("$ref").and_then(Value::as_str);
        let new_ref = new.0.get("$ref").and_then(Value::as_str);
        if let (Some(a), Some(b)) = (old_ref, new_ref)
            && a == b
            && a.starts_with(SCHEMAS)
        {
            return; // compared once, where the component is defined
        }
        if (old_ref.is_some() || new_ref.is_some())
            && equivalent(&self.base.document, old.0, &self.head.document, new.0)
        {
            return; // an inline schema replaced by an equal `$ref`, or the reverse
        }
        let old = resolve(&self.base.document, old.0, old.1);
        let new = resolve(&self.head.document, new.0, new.1);
        if (old_ref.is_some() || new_ref.is_some())
            && !self.seen.insert((old.1.clone(), new.1.clone()))
        {
            return;
        }
        let (s, t) = (old.0, new.0);
        let (sp, tp) = (old.1.as_str(), new.1.as_str());
        let pair = SchemaPair {
            old: s,
            new: t,
            old_at: sp,
            new_at: tp,
            usage,
            name,
        };
        let at = |p: &str, key: &str| pointer_join(p, key);

        if let (Some(old_types), Some(new_types)) = (types(s), types(t))
            && old_types != new_types
        {
            let (old_type, new_type) = (s.get("type"), t.get("type"));
            let widened = covers(&new_types, &old_types, self.as_text);
            let narrowed = covers(&old_types, &new_types, false);
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
                    if self.as_text && widened && !covers(&new_types, &old_types, false) {
                        " (the value travels as text, so every old value is still valid)"
                    } else {
                        ""
                    }
                ),
                (Some(&at(sp, "type")), Some(&at(tp, "type"))),
            );
            if !widened && !narrowed {
                return;
            }
        }

        self.nullable_change(&pair);
        for flag in &rules::FLAGS {
            self.flag_change(&pair, flag);
        }
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
        for bound in &rules::BOUNDS {
            self.bound_change(&pair, bound);
        }
        for keyword in &rules::KEYWORDS {
            self.keyword_change(&pair, keyword);
        }
        self.enum_change(&pair);
        self.const_change(&pair);
        self.dependent_required(&pair);
        self.unclassified(&pair);
        self.properties(&pair);
        self.additional_properties(&pair);
        if let (Some(a), Some(b)) = (s.get("items"), t.get("items")) {
            self.schema(
                (a, at(sp, "items")),
                (b, at(tp, "items")),
                usage,
                &format!("{name}[]"),
            );
        }
        if let (Some(a), Some(b)) = (s.get("contentSchema"), t.get("contentSchema")) {
            self.schema(
                (a, at(sp, "contentSchema")),
                (b, at(tp, "contentSchema")),
                usage,
                &format!("{name} (decoded content)"),
            );
        }
        self.contains(&pair);
        for composition in &rules::COMPOSITIONS {
            self.composition(&pair, composition);
        }
        self.discriminator(&pair);
    }

    /// A keyword whose presence constrains values (`format`, `pattern`).
    fn keyword_change(&mut self, pair: &SchemaPair<'_>, family: &KeywordRules) {
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

    /// A boolean keyword turned on or off.
    fn flag_change(&mut self, pair: &SchemaPair<'_>, family: &FlagRules) {
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

    /// A numeric bound; its rules say which way tightens.
    fn bound_change(&mut self, pair: &SchemaPair<'_>, family: &BoundRules) {
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

    fn enum_change(&mut self, pair: &SchemaPair<'_>) {
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

    fn properties(&mut self, pair: &SchemaPair<'_>) {
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

    fn additional_properties(&mut self, pair: &SchemaPair<'_>) {
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

    /// `oneOf`, `anyOf` or `allOf`: members paired, the rest added or removed.
    fn composition(&mut self, pair: &SchemaPair<'_>, family: &CompositionRules) {
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

    /// `null` allowed or not: 3.0's `nullable: true`, or `null` among the
    /// types of 3.1.
    fn nullable_change(&mut self, pair: &SchemaPair<'_>) {
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

    /// `const`, the one value a schema allows: a new one breaks both sides,
    /// whatever the other keywords say.
    fn const_change(&mut self, pair: &SchemaPair<'_>) {
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

    /// `contains`: an array must hold an item of this schema.
    fn contains(&mut self, pair: &SchemaPair<'_>) {
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
    fn dependent_required(&mut self, pair: &SchemaPair<'_>) {
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
    fn unclassified(&mut self, pair: &SchemaPair<'_>) {
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

    /// The new member each old member of a composition stands for: the one
    /// with the same `$ref`, else one equivalent to it (a `$ref` replaced by
    /// the schema it names, or the reverse), else the inline member at the
    /// same place.
    fn pair_members(
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

    fn discriminator(&mut self, pair: &SchemaPair<'_>) {
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
        for (value, target) in old_map {
            match new_map.get(value) {
                None => self.report(rules::DISCRIMINATOR_MAPPING_REMOVED.used(usage), format!("discriminator value `{value}` of `{name}` removed"), (Some(&pointer_join(&sm, value)), Some(&tk))),
                Some(new_target) if new_target != target => self.report(rules::DISCRIMINATOR_MAPPING_CHANGED.used(usage), format!(
                        "discriminator value `{value}` of `{name}` now maps to {new_target} instead of {target}"
                    ), (Some(&pointer_join(&sm, value)), Some(&pointer_join(&tm, value)))),
                _ => {}
            }
        }
        for value in new_map.keys().filter(|v| !old_map.contains_key(*v)) {
            self.report(
                rules::DISCRIMINATOR_MAPPING_ADDED.used(usage),
                format!("discriminator value `{value}` added to `{name}`"),
                (Some(&sk), Some(&pointer_join(&tm, value))),
            );
        }
    }
}

// --- document helpers -------------------------------------------------------

/// An operation of one version, found under `/paths`.
#[derive(Debug, Clone)]
pub struct OperationView<'a> {
    pub path: String,
    pub method: String,
    pub id: Option<String>,
    pub pointer: String,
    pub value: &'a Value,
    /// Path-level parameters, shared by every operation of the path.
    pub path_parameters: Option<(&'a Value, String)>,
    /// Where the security that applies is written (the operation's or the root's).
    pub security_pointer: String,
}

/// Every operation by (path, method).
pub fn operations(doc: &Value) -> BTreeMap<(String, String), OperationView<'_>> {
    operations_under(doc, "paths")
}

/// Every webhook (3.1) by (name, method): requests the API sends.
pub fn webhooks(doc: &Value) -> BTreeMap<(String, String), OperationView<'_>> {
    operations_under(doc, "webhooks")
}

fn operations_under<'d>(
    doc: &'d Value,
    section: &str,
) -> BTreeMap<(String, String), OperationView<'d>> {
    let mut found = BTreeMap::new();
    let Some(paths) = doc.get(section).and_then(Value::as_object) else {
        return found;
    };
    for (path, item) in paths {
        let item_pointer = pointer_join(&format!("/{section}"), path);
        // A path item given by `$ref` is the one it names.
        let (item, _) = resolve(doc, item, item_pointer.clone());
        let path_parameters = item
            .get("parameters")
            .map(|p| (p, pointer_join(&item_pointer, "parameters")));
        for method in METHODS {
            let Some(operation) = item.get(method) else {
                continue;
            };
            let pointer = pointer_join(&item_pointer, method);
            let security_pointer = if operation.get("security").is_some() {
                pointer_join(&pointer, "security")
            } else {
                "/security".to_string()
            };
            found.insert(
                (path.clone(), method.to_string()),
                OperationView {
                    path: path.clone(),
                    method: method.to_string(),
                    id: operation
                        .get("operationId")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    pointer,
                    value: operation,
                    path_parameters: path_parameters.clone(),
                    security_pointer,
                },
            );
        }
    }
    found
}

/// The parameters of an operation (path-level ones first, overridden by the
/// operation's), resolved, by (location, name), with their use-site pointers.
pub fn parameters<'a>(
    doc: &'a Value,
    op: &OperationView<'a>,
) -> BTreeMap<(String, String), Node<'a>> {
    let mut found = BTreeMap::new();
    let own = op
        .value
        .get("parameters")
        .map(|p| (p, pointer_join(&op.pointer, "parameters")));
    for (list, pointer) in op.path_parameters.iter().cloned().chain(own) {
        let Some(list) = list.as_array() else {
            continue;
        };
        for (i, param) in list.iter().enumerate() {
            let (param, _) = resolve(doc, param, String::new());
            let location = param.get("in").and_then(Value::as_str).unwrap_or_default();
            let name = param
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            found.insert(
                (location.to_string(), name.to_string()),
                (param, format!("{pointer}/{i}")),
            );
        }
    }
    found
}

/// The security requirements that apply to an operation: each alternative
/// as scheme -> scopes.
fn security_requirements(
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

fn show_requirement(requirement: &BTreeMap<String, BTreeSet<String>>) -> String {
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

/// Follows `$ref`s from `value` (found at `pointer`) to the node they name
/// (the generator's one resolver); a dangling or looping reference stops
/// where it is.
pub fn resolve<'a>(doc: &'a Value, value: &'a Value, pointer: String) -> Node<'a> {
    refs::follow_leniently(doc, value, &pointer)
}

/// The `schema` of a media-type entry found at `pointer`.
fn schema_node<'a>(pointer: &str, entry: &'a Value) -> Option<Node<'a>> {
    entry
        .get("schema")
        .map(|schema| (schema, pointer_join(pointer, "schema")))
}

fn object_at<'a>(doc: &'a Value, pointer: &str) -> Option<&'a serde_json::Map<String, Value>> {
    doc.pointer(pointer).and_then(Value::as_object)
}

/// The path part of a server URL: `https://{host}/api/v2` -> `/api/v2`.
pub fn path_prefix(url: &str) -> String {
    let without_scheme = url.split_once("://").map(|(_, rest)| rest).unwrap_or(url);
    let path = if url.contains("://") {
        without_scheme
            .find('/')
            .map(|i| &without_scheme[i..])
            .unwrap_or("")
    } else {
        without_scheme
    };
    path.trim_end_matches('/').to_string()
}

/// The version segment of a server URL path (`/api/v2` -> `v2`): the last
/// segment that is `v` followed by a number (`v2`, `v2.1`). `None` when the
/// path names no version, so a path that changes otherwise is no new version.
pub fn version_segment(path: &str) -> Option<&str> {
    path.rsplit('/').find(|segment| {
        segment.strip_prefix(['v', 'V']).is_some_and(|number| {
            !number.is_empty()
                && number.starts_with(|c: char| c.is_ascii_digit())
                && number.chars().all(|c| c.is_ascii_digit() || c == '.')
        })
    })
}

/// Keywords compared only for equality (see `Walker::unclassified`).
const UNCLASSIFIED: &[&str] = &[
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

/// Keywords that only document a schema: two schemas that differ in these
/// alone accept the same values.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "example",
    "examples",
    "$comment",
    "externalDocs",
];

/// Whether schema `a` of document `a_doc` and schema `b` of `b_doc` are the
/// same schema once every `$ref` is followed (through the generator's one
/// resolver) and annotations are set aside. A pair met again while it is
/// being compared is taken as equal, so recursive schemas compare too.
pub fn equivalent(a_doc: &Value, a: &Value, b_doc: &Value, b: &Value) -> bool {
    Equivalence {
        docs: (a_doc, b_doc),
        assumed: BTreeSet::new(),
    }
    .schemas((a, String::new()), (b, String::new()))
}

/// Keywords whose value maps names to schemas: their keys are names, not
/// keywords, so none of them is an annotation.
const NAMED_SCHEMAS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];

/// Keywords whose value is data, compared as written.
const DATA: &[&str] = &["enum", "const", "default", "example", "examples"];

struct Equivalence<'d> {
    docs: (&'d Value, &'d Value),
    /// Pairs of resolved pointers being compared (or found equal).
    assumed: BTreeSet<(String, String)>,
}

impl Equivalence<'_> {
    fn schemas(&mut self, a: (&Value, String), b: (&Value, String)) -> bool {
        let through_ref = a.0.get("$ref").is_some() || b.0.get("$ref").is_some();
        let a = resolve(self.docs.0, a.0, a.1);
        let b = resolve(self.docs.1, b.0, b.1);
        if through_ref && !self.assumed.insert((a.1.clone(), b.1.clone())) {
            return true;
        }
        let (Value::Object(x), Value::Object(y)) = (a.0, b.0) else {
            return self.values((a.0, a.1), (b.0, b.1));
        };
        let keys = |m: &serde_json::Map<String, Value>| -> BTreeSet<String> {
            m.keys()
                .filter(|k| !ANNOTATIONS.contains(&k.as_str()))
                .cloned()
                .collect()
        };
        keys(x) == keys(y)
            && keys(x).iter().all(|k| {
                let (u, v) = (
                    (&x[k], pointer_join(&a.1, k)),
                    (&y[k], pointer_join(&b.1, k)),
                );
                if DATA.contains(&k.as_str()) {
                    u.0 == v.0
                } else if NAMED_SCHEMAS.contains(&k.as_str()) {
                    self.named(u, v)
                } else {
                    self.values(u, v)
                }
            })
    }

    /// A map of names to schemas: the same names, each an equivalent schema.
    fn named(&mut self, a: (&Value, String), b: (&Value, String)) -> bool {
        let (Value::Object(x), Value::Object(y)) = (a.0, b.0) else {
            return a.0 == b.0;
        };
        x.len() == y.len()
            && x.iter().all(|(name, u)| {
                y.get(name).is_some_and(|v| {
                    self.schemas((u, pointer_join(&a.1, name)), (v, pointer_join(&b.1, name)))
                })
            })
    }

    /// A keyword's value: a schema, a list of schemas, or a plain value.
    fn values(&mut self, a: (&Value, String), b: (&Value, String)) -> bool {
        match (a.0, b.0) {
            (Value::Object(_), Value::Object(_)) => self.schemas(a, b),
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len()
                    && x.iter().zip(y).enumerate().all(|(i, (u, v))| {
                        self.values((u, format!("{}/{i}", a.1)), (v, format!("{}/{i}", b.1)))
                    })
            }
            (x, y) => x == y,
        }
    }
}

/// The types a schema allows besides `null` (nullability is its own rule):
/// `type: T` or, in 3.1, `type: [T, "null"]`. `None` when it names none.
fn types(schema: &Value) -> Option<BTreeSet<String>> {
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

/// Whether every value of the types `narrow` is a value of the types `wide`:
/// an integer is a number, and, for a value that travels as text (a
/// parameter or header), every scalar is a string.
fn covers(wide: &BTreeSet<String>, narrow: &BTreeSet<String>, as_text: bool) -> bool {
    narrow.iter().all(|ty| {
        wide.contains(ty)
            || (ty == "integer" && wide.contains("number"))
            || (as_text
                && wide.contains("string")
                && matches!(ty.as_str(), "integer" | "number" | "boolean"))
    })
}

/// The pointer of `keyword` in schema `v` at `p` when present, else of the schema itself.
fn keyword_pointer(v: &Value, p: &str, keyword: &str) -> String {
    if v.get(keyword).is_some() {
        pointer_join(p, keyword)
    } else {
        p.to_string()
    }
}

/// The last reference token of a JSON pointer, unescaped: the name of the node.
fn last_token(pointer: &str) -> String {
    let token = pointer.rsplit('/').next().unwrap_or_default();
    token.replace("~1", "/").replace("~0", "~")
}

fn show(value: Option<&Value>) -> String {
    show_or(value, "none")
}

fn show_or(value: Option<&Value>, absent: &str) -> String {
    match value {
        None => absent.to_string(),
        Some(Value::String(s)) => format!("`{s}`"),
        Some(other) => format!("`{other}`"),
    }
}

/// Component schemas reachable from requests and from responses.
pub fn schema_usage(doc: &Value) -> BTreeMap<String, Usage> {
    let mut request = BTreeSet::new();
    let mut response = BTreeSet::new();
    // What a webhook carries, callers receive; what they answer, they send.
    for hook in webhooks(doc).values() {
        if let Some(body) = hook.value.get("requestBody") {
            collect_refs(doc, body, &mut response);
        }
        if let Some(responses) = hook.value.get("responses") {
            collect_refs(doc, responses, &mut request);
        }
    }
    for op in operations(doc).values() {
        for (param, _) in parameters(doc, op).values() {
            collect_refs(doc, param, &mut request);
        }
        if let Some(body) = op.value.get("requestBody") {
            collect_refs(doc, body, &mut request);
        }
        if let Some(responses) = op.value.get("responses") {
            collect_refs(doc, responses, &mut response);
        }
    }
    let mut usage: BTreeMap<String, Usage> = BTreeMap::new();
    for name in request {
        usage.entry(name).or_default().request = true;
    }
    for name in response {
        usage.entry(name).or_default().response = true;
    }
    usage
}

/// The name of the component schema a `$ref` names, as the key is written
/// in `components/schemas` (its pointer token unescaped here, once, so the
/// name matches the key whatever `refs::schema_name` does with escapes).
pub fn component_schema(reference: &str) -> Option<String> {
    let token = refs::target_pointer(reference)?.strip_prefix("/components/schemas/")?;
    (!token.contains('/')).then(|| token.replace("~1", "/").replace("~0", "~"))
}

/// Adds to `found` every component schema `value` refers to, transitively.
/// Responses, parameters and headers named by `$ref` are followed too.
fn collect_refs(doc: &Value, value: &Value, found: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(target) = map.get("$ref").and_then(Value::as_str) {
                if let Some(name) = component_schema(target) {
                    if found.insert(name)
                        && let Some(schema) =
                            refs::target_pointer(target).and_then(|p| doc.pointer(p))
                    {
                        collect_refs(doc, schema, found);
                    }
                } else if let Ok((node, _)) = refs::follow(doc, value, "")
                    && !std::ptr::eq(node, value)
                {
                    collect_refs(doc, node, found);
                }
            }
            for (key, child) in map {
                if key != "$ref" {
                    collect_refs(doc, child, found);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_refs(doc, item, found)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_integer_is_a_number_and_a_text_value_any_scalar() {
        let set = |types: &[&str]| types.iter().map(|t| t.to_string()).collect::<BTreeSet<_>>();
        assert!(covers(&set(&["number"]), &set(&["integer"]), false));
        assert!(!covers(&set(&["integer"]), &set(&["number"]), false));
        assert!(!covers(&set(&["string"]), &set(&["number"]), false));
        assert!(covers(
            &set(&["string"]),
            &set(&["number", "boolean"]),
            true
        ));
        assert!(!covers(&set(&["string"]), &set(&["object"]), true));
        let schema = serde_json::json!({"type": ["integer", "null"]});
        assert_eq!(types(&schema), Some(set(&["integer"])));
    }

    #[test]
    fn equivalence_follows_references_and_ignores_annotations_only() {
        let a = serde_json::json!({"components": {"schemas": {
            "Kind": {"type": "string", "enum": ["a", "b"], "description": "Kinds."},
            "Tree": {"properties": {"kids": {"items": {"$ref": "#/components/schemas/Tree"}}}}
        }}});
        let b = serde_json::json!({"components": {"schemas": {
            "Tree": {"properties": {"kids": {"items": {"$ref": "#/components/schemas/Tree"}}}}
        }}});
        let inline = serde_json::json!({"type": "string", "enum": ["a", "b"]});
        let by_ref = serde_json::json!({"$ref": "#/components/schemas/Kind"});
        assert!(equivalent(&a, &by_ref, &b, &inline));
        assert!(!equivalent(
            &a,
            &by_ref,
            &b,
            &serde_json::json!({"type": "string", "enum": ["a"]})
        ));
        let tree = serde_json::json!({"$ref": "#/components/schemas/Tree"});
        assert!(equivalent(&a, &tree, &b, &tree));
        // A property named like an annotation is a property.
        let titled = serde_json::json!({"properties": {"title": {"type": "string"}}});
        assert!(!equivalent(
            &a,
            &titled,
            &b,
            &serde_json::json!({"properties": {}})
        ));
    }

    #[test]
    fn server_prefixes_ignore_scheme_and_host() {
        assert_eq!(path_prefix("https://{tenant}/api/v2"), "/api/v2");
        assert_eq!(path_prefix("https://example.com/api/v3/"), "/api/v3");
        assert_eq!(path_prefix("https://example.com"), "");
        assert_eq!(path_prefix("/api/v2"), "/api/v2");
    }

    #[test]
    fn only_a_version_segment_is_a_version() {
        assert_eq!(version_segment("/api/v2"), Some("v2"));
        assert_eq!(version_segment("/v2.1/things"), Some("v2.1"));
        assert_eq!(version_segment("/api"), None);
        assert_eq!(version_segment(""), None);
        assert_eq!(version_segment("/api/video"), None);
        assert_eq!(version_segment("/api/{version}"), None);
    }

    #[test]
    fn references_resolve_and_cycles_stop() {
        let doc = serde_json::json!({
            "components": {"schemas": {
                "A": {"$ref": "#/components/schemas/B"},
                "B": {"$ref": "#/components/schemas/A"},
                "C": {"type": "string"}
            }}
        });
        let c = serde_json::json!({"$ref": "#/components/schemas/C"});
        let (node, pointer) = resolve(&doc, &c, "/x".into());
        assert_eq!(node["type"], "string");
        assert_eq!(pointer, "/components/schemas/C");
        let a = serde_json::json!({"$ref": "#/components/schemas/A"});
        let (_, pointer) = resolve(&doc, &a, "/y".into());
        assert!(pointer.starts_with("/components/schemas/"));
    }

    #[test]
    fn usage_follows_references_through_responses() {
        let doc = serde_json::json!({
            "paths": {"/x": {"post": {
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/In"}}}},
                "responses": {"200": {"$ref": "#/components/responses/Ok"}}
            }}},
            "components": {
                "responses": {"Ok": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Out"}}}}},
                "schemas": {
                    "In": {"properties": {"s": {"$ref": "#/components/schemas/Shared"}}},
                    "Out": {"properties": {"s": {"$ref": "#/components/schemas/Shared"}, "me": {"$ref": "#/components/schemas/Out"}}},
                    "Shared": {"type": "string"}
                }
            }
        });
        let usage = schema_usage(&doc);
        assert_eq!(usage["In"], Usage::REQUEST);
        assert_eq!(usage["Out"], Usage::RESPONSE);
        assert_eq!(usage["Shared"], Usage::REQUEST.union(Usage::RESPONSE));
    }
}
