//! Discriminated unions: which value of which property picks which member
//! of a `oneOf` (or `anyOf`) with a `discriminator`.
//!
//! A member's values are, in order of trust:
//! - the `mapping` keys naming it (by reference or by schema name);
//! - else the values its own schema pins the property to (a `const`, or an
//!   `enum`, directly or behind one `$ref`): published descriptions often
//!   leave out the mapping and spell the tag otherwise than the schema's
//!   name (`webhook` for `WebhookTarget`), and the data says what it is;
//! - else the schema's name (the specification's implicit mapping).
//!
//! A union whose members are not all `$ref`s to component schemas, or where
//! one value would pick two members, has no reading here: it stays a union
//! decoded by trying its members in turn.

use serde_json::{Map, Value};

use super::refs::schema_name;
use crate::walk;

/// One discriminated union of the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Union {
    /// The component schema it is, if it is one (else it is written inline).
    pub component: Option<String>,
    /// `propertyName`.
    pub property: String,
    /// The component schema of each member, in order.
    pub members: Vec<String>,
    /// Each value of the property with the index of the member it picks,
    /// each member's values together, in member order.
    pub values: Vec<(String, usize)>,
}

/// Every discriminated union of `document` that has a reading.
pub fn unions(document: &Value) -> Vec<Union> {
    let schemas = document
        .pointer("/components/schemas")
        .and_then(Value::as_object);
    let mut found = Vec::new();
    walk::for_each_schema(document, |site, schema| {
        let Some(object) = schema.as_object() else {
            return;
        };
        let component = site
            .pointer
            .strip_prefix("/components/schemas/")
            .filter(|name| !name.contains('/'))
            .map(|name| name.replace("~1", "/").replace("~0", "~"));
        if let Some(union) = read(object, component, schemas) {
            found.push(union);
        }
    });
    found
}

/// The reading of the union `schema` of `document`, if it has one (its
/// `component` left `None`).
pub fn of(schema: &Map<String, Value>, document: &Value) -> Option<Union> {
    let schemas = document
        .pointer("/components/schemas")
        .and_then(Value::as_object);
    read(schema, None, schemas)
}

fn read(
    schema: &Map<String, Value>,
    component: Option<String>,
    schemas: Option<&Map<String, Value>>,
) -> Option<Union> {
    let discriminator = schema.get("discriminator")?;
    let property = discriminator.get("propertyName")?.as_str()?.to_string();
    let listed = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))?
        .as_array()?;
    let members: Vec<String> = listed
        .iter()
        .map(|member| {
            let reference = member.get("$ref")?.as_str()?;
            (member.as_object()?.len() == 1)
                .then(|| schema_name(reference).map(|name| name.into_owned()))?
        })
        .collect::<Option<_>>()?;
    if members.len() < 2 {
        return None;
    }
    let mapping: Vec<(String, usize)> = discriminator
        .get("mapping")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(key, target)| {
            let target = target.as_str()?;
            let name = schema_name(target).map_or(target.to_string(), |name| name.into_owned());
            let index = members.iter().position(|member| *member == name)?;
            Some((key.clone(), index))
        })
        .collect();
    let mut values = Vec::new();
    for (index, member) in members.iter().enumerate() {
        let mapped: Vec<&String> = mapping
            .iter()
            .filter(|(_, target)| *target == index)
            .map(|(key, _)| key)
            .collect();
        let own: Vec<String> = if !mapped.is_empty() {
            mapped.into_iter().cloned().collect()
        } else {
            pinned(schemas?.get(member)?, &property, schemas?)
                .unwrap_or_else(|| vec![member.clone()])
        };
        values.extend(own.into_iter().map(|value| (value, index)));
    }
    let mut seen = std::collections::BTreeSet::new();
    if !values.iter().all(|(value, _)| seen.insert(value.clone())) {
        return None;
    }
    Some(Union {
        component,
        property,
        members,
        values,
    })
}

/// The string values `member` pins `property` to, if it does.
fn pinned(member: &Value, property: &str, schemas: &Map<String, Value>) -> Option<Vec<String>> {
    let mut schema = member.get("properties")?.get(property)?;
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        schema = schemas.get(schema_name(reference)?.as_ref())?;
    }
    let values = match (schema.get("const"), schema.get("enum")) {
        (Some(value), _) => vec![value.as_str()?.to_string()],
        (None, Some(Value::Array(values))) => values
            .iter()
            .map(|value| value.as_str().map(str::to_string))
            .collect::<Option<_>>()?,
        _ => return None,
    };
    (!values.is_empty()).then_some(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn document(pet: Value) -> Value {
        json!({"components": {"schemas": {
            "Pet": pet,
            "Cat": {"type": "object", "properties": {"type": {"type": "string"}}},
            "Dog": {"type": "object", "properties": {"type": {"type": "string"}}},
            "Bird": {"type": "object", "properties": {"type": {"enum": ["bird", "parrot"]}}},
        }}})
    }

    #[test]
    fn values_come_from_the_mapping_then_the_pinned_values_then_the_name() {
        let pet = json!({
            "oneOf": [
                {"$ref": "#/components/schemas/Cat"},
                {"$ref": "#/components/schemas/Dog"},
                {"$ref": "#/components/schemas/Bird"},
            ],
            "discriminator": {"propertyName": "type", "mapping": {"kitty": "Cat"}},
        });
        let unions = unions(&document(pet));
        assert_eq!(unions.len(), 1);
        assert_eq!(unions[0].component.as_deref(), Some("Pet"));
        assert_eq!(
            unions[0].values,
            [
                ("kitty".to_string(), 0),
                ("Dog".to_string(), 1),
                ("bird".to_string(), 2),
                ("parrot".to_string(), 2),
            ]
        );
    }

    #[test]
    fn a_value_picking_two_members_or_an_inline_member_leaves_no_reading() {
        let twice = json!({
            "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
            "discriminator": {"propertyName": "type", "mapping": {"Dog": "Cat"}},
        });
        assert_eq!(unions(&document(twice)), []);
        let inline = json!({
            "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"type": "object"}],
            "discriminator": {"propertyName": "type"},
        });
        assert_eq!(unions(&document(inline)), []);
    }
}
