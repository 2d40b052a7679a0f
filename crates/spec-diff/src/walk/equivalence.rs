//! Structural equivalence: two schemas that allow the same values once every
//! `$ref` is followed, so an inline schema replaced by an equal `$ref` (or
//! the reverse) is no change.

use super::*;

// Two schemas that differ in documentation alone accept the same values.
// The other annotations are changes spec-diff reports on their own
// (`deprecated`, direction) or that change the XML form on the wire.
use openapi_crates_codegen::vocabulary::DOCUMENTATION;

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
pub(super) const NAMED_SCHEMAS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];

/// Keywords whose value is data, compared as written.
pub(super) const DATA: &[&str] = &["enum", "const", "default", "example", "examples"];

pub(super) struct Equivalence<'d> {
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
                .filter(|k| !DOCUMENTATION.contains(&k.as_str()))
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
