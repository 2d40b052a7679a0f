//! Form fields are text: `count=3` arrives as the string `"3"`. Where a body
//! offered as a form has numbers or booleans, the generated server gives the
//! runtime a [`Shape`] of the body (from the same schemas as its checks), and
//! [`coerce`] reads each such field as its type before validation, so
//! `count=3` is checked and typed as the number 3. Text that is not of the
//! type stays text, and validation then names the field and its type.

use crate::json::Value;

/// Where the non-text fields of a form body are.
#[derive(Debug)]
pub enum Shape {
    /// Text, or anything not read from text (it is left as it is).
    Text,
    Integer,
    Number,
    Boolean,
    /// Declared properties, and the shape of any other property.
    Object(
        &'static [(&'static str, &'static Shape)],
        Option<&'static Shape>,
    ),
    /// Every item has this shape.
    List(&'static Shape),
}

/// Reads the text fields of `value` that `shape` says are numbers or
/// booleans as such.
pub fn coerce(value: &mut Value<'_>, shape: &Shape) {
    match (shape, value) {
        (Shape::Integer, value @ Value::String(_)) => {
            let text = value.as_str().unwrap_or_default();
            if let Some(number) = text
                .parse::<i64>()
                .ok()
                .map(serde_json::Number::from)
                .or_else(|| text.parse::<u64>().ok().map(serde_json::Number::from))
            {
                *value = Value::Number(number);
            }
        }
        (Shape::Number, value @ Value::String(_)) => {
            let text = value.as_str().unwrap_or_default();
            let number = text
                .parse::<i64>()
                .ok()
                .map(serde_json::Number::from)
                .or_else(|| {
                    text.parse::<f64>()
                        .ok()
                        .and_then(serde_json::Number::from_f64)
                });
            if let Some(number) = number {
                *value = Value::Number(number);
            }
        }
        (Shape::Boolean, value @ Value::String(_)) => match value.as_str() {
            Some("true") => *value = Value::Bool(true),
            Some("false") => *value = Value::Bool(false),
            _ => {}
        },
        (Shape::Object(properties, other), Value::Object(object)) => {
            for (name, child) in object.iter_mut() {
                match properties.iter().find(|(known, _)| *known == name) {
                    Some((_, shape)) => coerce(child, shape),
                    None => {
                        if let Some(shape) = other {
                            coerce(child, shape);
                        }
                    }
                }
            }
        }
        (Shape::List(item), Value::Array(items)) => {
            for child in items {
                coerce(child, item);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::form_to_value;

    static LIMITS: Shape =
        Shape::Object(&[("max", &Shape::Integer), ("ratio", &Shape::Number)], None);
    static NODE: Shape = Shape::Object(
        &[
            ("count", &Shape::Integer),
            ("enabled", &Shape::Boolean),
            ("name", &Shape::Text),
            ("limits", &LIMITS),
            ("scores", &Shape::List(&Shape::Number)),
            // A schema that refers to itself.
            ("children", &Shape::List(&NODE)),
        ],
        Some(&Shape::Boolean),
    );

    #[test]
    fn form_fields_are_read_as_their_type() {
        let body = "count=3&enabled=true&name=7&limits[max]=10&limits[ratio]=0.5\
                    &scores[]=1&scores[]=2.5&children[0][count]=4&extra=false";
        let mut value = form_to_value(body.as_bytes()).unwrap();
        coerce(&mut value, &NODE);
        assert_eq!(
            value.to_json(),
            serde_json::json!({
                "count": 3, "enabled": true, "name": "7",
                "limits": {"max": 10, "ratio": 0.5},
                "scores": [1, 2.5], "children": [{"count": 4}], "extra": false
            })
        );
    }

    #[test]
    fn text_not_of_the_type_stays_text_for_validation_to_name() {
        let mut value = form_to_value(b"count=three&enabled=yes").unwrap();
        coerce(&mut value, &NODE);
        assert_eq!(
            value.to_json(),
            serde_json::json!({"count": "three", "enabled": "yes"})
        );
    }
}
