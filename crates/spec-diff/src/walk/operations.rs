//! Operations: paths and methods added, removed or moved (by
//! `operationId`), a path template whose parameters are renamed paired with
//! its new spelling, and each pair of operations compared part by part.

use super::*;

impl<'a> Walker<'a> {
    pub(super) fn paths(&mut self) {
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
        let renamed = renamed_templates(&old_paths, &new_paths);
        let new_path = |old: &str| renamed.get(old).copied().unwrap_or(old).to_string();
        let old_path = |new: &str| {
            renamed
                .iter()
                .find(|(_, renamed)| **renamed == new)
                .map_or(new, |(old, _)| *old)
                .to_string()
        };

        for path in old_paths
            .difference(&new_paths)
            .filter(|path| !renamed.contains_key(*path))
        {
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
        for path in new_paths
            .difference(&old_paths)
            .filter(|path| !renamed.values().any(|renamed| renamed == *path))
        {
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
            if let Some(new) = new_ops.get(&(new_path(&key.0), key.1.clone())) {
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
            let path = new_path(&key.0);
            if new_paths.contains(path.as_str()) {
                self.report(
                    rules::API_METHOD_REMOVED.usual(),
                    format!("operation {label} removed"),
                    (Some(&old.pointer), Some(&pointer_join("/paths", &path))),
                );
            }
        }
        for (key, new) in &new_ops {
            let path = old_path(&key.0);
            if old_ops.contains_key(&(path.clone(), key.1.clone())) {
                continue;
            }
            if let Some(old) = new.id.as_deref().and_then(|id| old_ids.get(id))
                && !new_ops.contains_key(&(old.path.clone(), old.method.clone()))
            {
                continue; // reported as moved
            }
            if old_paths.contains(path.as_str()) {
                self.report(
                    rules::API_METHOD_ADDED.usual(),
                    format!("operation {} {} added", key.1.to_uppercase(), key.0),
                    (Some(&pointer_join("/paths", &path)), Some(&new.pointer)),
                );
            }
        }
    }

    pub(super) fn operation(&mut self, old: &OperationView<'a>, new: &OperationView<'a>) {
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
        self.lifecycle(old, new, &label);
        self.parameters(old, new, &label);
        self.request_body(old, new, &label);
        self.responses(old, new, &label);
        self.security(old, new, &label);
    }
}

/// The paths of the base whose template the new version writes with other
/// parameter names only (`/items/{id}` as `/items/{itemId}`), each with its
/// new spelling: the same requests reach it. A template several paths of
/// one version share pairs none of them.
fn renamed_templates<'p>(
    old_paths: &BTreeSet<&'p str>,
    new_paths: &BTreeSet<&'p str>,
) -> BTreeMap<&'p str, &'p str> {
    let by_shape = |paths: &BTreeSet<&'p str>, others: &BTreeSet<&'p str>| {
        let mut shapes: BTreeMap<String, Vec<&'p str>> = BTreeMap::new();
        for path in paths {
            shapes.entry(template_shape(path)).or_default().push(path);
        }
        let mut only: BTreeMap<String, &'p str> = BTreeMap::new();
        for (shape, paths) in shapes {
            if let [path] = paths[..]
                && !others.contains(path)
            {
                only.insert(shape, path);
            }
        }
        only
    };
    let (old_shapes, new_shapes) = (
        by_shape(old_paths, new_paths),
        by_shape(new_paths, old_paths),
    );
    old_shapes
        .iter()
        .filter_map(|(shape, old)| new_shapes.get(shape).map(|new| (*old, *new)))
        .collect()
}
