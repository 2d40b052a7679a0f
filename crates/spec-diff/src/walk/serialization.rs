//! How a parameter is written on the wire: `style` and `explode` as the
//! generator lowers them (its model's values, defaults applied, so writing
//! out a default is no change); whether `content` carries the value instead
//! of a style (as JSON, or as other text); and, in the query,
//! `allowReserved` and `allowEmptyValue`, which the generator does not read
//! (absent, each is false).

use openapi_crates_codegen::model::{self, ApiModel, Shape, Style};

use super::parameters::content_media_type;
use super::*;

/// How a parameter's value becomes text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding<'v> {
    /// In its `style`, as its `schema` says.
    Style,
    /// As JSON, the media type of its `content`.
    Json(&'v str),
    /// As the text of another media type of its `content`.
    Text(&'v str),
}

impl<'v> Encoding<'v> {
    fn of(param: &'v Value) -> Encoding<'v> {
        match content_media_type(param) {
            None => Encoding::Style,
            Some(media_type) if model::is_json(media_type) => Encoding::Json(media_type),
            Some(media_type) => Encoding::Text(media_type),
        }
    }

    /// Whether a value is written as the same text in both: JSON is JSON
    /// whatever its media type is called, and so is other text.
    fn writes_like(self, other: Encoding<'_>) -> bool {
        matches!(
            (self, other),
            (Encoding::Style, Encoding::Style)
                | (Encoding::Json(_), Encoding::Json(_))
                | (Encoding::Text(_), Encoding::Text(_))
        )
    }

    fn describe(self) -> String {
        match self {
            Encoding::Style => "in its style".to_string(),
            Encoding::Json(media_type) => format!("as JSON (`{media_type}`)"),
            Encoding::Text(media_type) => format!("as text (`{media_type}`)"),
        }
    }
}

/// What the generator's model says of how a parameter is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Lowered {
    style: Style,
    /// One value (not a list or an object), written alike exploded or not.
    single: bool,
}

/// One of the two versions compared.
#[derive(Debug, Clone, Copy)]
enum Version {
    Base,
    Head,
}

impl<'a> Walker<'a> {
    /// How a parameter present in both versions of an operation (`ops`) is
    /// written; `name` names it in messages.
    pub(super) fn serialization(
        &mut self,
        ops: (&OperationView<'a>, &OperationView<'a>),
        old: (&Value, &str),
        new: (&Value, &str),
        name: &str,
    ) {
        let ((old_param, old_at), (new_param, new_at)) = (old, new);
        let (old_encoding, new_encoding) = (Encoding::of(old_param), Encoding::of(new_param));
        if !old_encoding.writes_like(new_encoding) {
            let described_by = |param: &Value| {
                if param.get("content").is_some() {
                    "content"
                } else {
                    "schema"
                }
            };
            self.report(
                rules::REQUEST_PARAMETER_ENCODING_CHANGED.usual(),
                format!(
                    "{name} is written {} instead of {}",
                    new_encoding.describe(),
                    old_encoding.describe()
                ),
                (
                    Some(&keyword_pointer(old_param, old_at, described_by(old_param))),
                    Some(&keyword_pointer(new_param, new_at, described_by(new_param))),
                ),
            );
        } else if old_encoding == Encoding::Style
            && ["style", "explode"]
                .iter()
                .any(|keyword| old_param.get(keyword) != new_param.get(keyword))
        {
            // Written alike, they mean the same; written otherwise, the
            // generator's lowering says whether they still do.
            let lowered = (
                self.lowered(Version::Base, ops.0, old_param),
                self.lowered(Version::Head, ops.1, new_param),
            );
            if let (Some(a), Some(b)) = lowered {
                if a.style.name() != b.style.name() {
                    self.report(
                        rules::REQUEST_PARAMETER_STYLE_CHANGED.usual(),
                        format!(
                            "{name} is written in style `{}` instead of `{}`",
                            b.style.name(),
                            a.style.name()
                        ),
                        (
                            Some(&keyword_pointer(old_param, old_at, "style")),
                            Some(&keyword_pointer(new_param, new_at, "style")),
                        ),
                    );
                } else if a.style.explode() != b.style.explode() && !(a.single && b.single) {
                    self.report(
                        rules::REQUEST_PARAMETER_EXPLODE_CHANGED.usual(),
                        format!(
                            "`explode` of {name} (style `{}`) is {} instead of {}",
                            b.style.name(),
                            b.style.explode(),
                            a.style.explode()
                        ),
                        (
                            Some(&keyword_pointer(old_param, old_at, "explode")),
                            Some(&keyword_pointer(new_param, new_at, "explode")),
                        ),
                    );
                }
            }
        }
        if old_param.get("in").and_then(Value::as_str) != Some("query") {
            return;
        }
        for (keyword, set, cleared) in [
            (
                "allowReserved",
                &rules::REQUEST_PARAMETER_ALLOW_RESERVED_ADDED,
                &rules::REQUEST_PARAMETER_ALLOW_RESERVED_REMOVED,
            ),
            (
                "allowEmptyValue",
                &rules::REQUEST_PARAMETER_ALLOW_EMPTY_VALUE_ADDED,
                &rules::REQUEST_PARAMETER_ALLOW_EMPTY_VALUE_REMOVED,
            ),
        ] {
            let on = |param: &Value| param.get(keyword).and_then(Value::as_bool) == Some(true);
            let (rule, verb) = match (on(old_param), on(new_param)) {
                (false, true) => (set, "set"),
                (true, false) => (cleared, "cleared"),
                _ => continue,
            };
            self.report(
                rule.usual(),
                format!("`{keyword}` {verb} on {name}"),
                (
                    Some(&keyword_pointer(old_param, old_at, keyword)),
                    Some(&keyword_pointer(new_param, new_at, keyword)),
                ),
            );
        }
    }

    /// How the generator lowers `param` of `op` in one version: as its
    /// model of the version has it or, where it refuses the version, as it
    /// lowers the operation alone; `None` where it refuses the parameter.
    fn lowered(&self, version: Version, op: &OperationView<'_>, param: &Value) -> Option<Lowered> {
        let (spec, model) = match version {
            Version::Base => (self.base, &self.base_model),
            Version::Head => (self.head, &self.head_model),
        };
        let location = param.get("in").and_then(Value::as_str)?;
        let name = param.get("name").and_then(Value::as_str)?;
        let find = |model: &ApiModel| {
            let operation = model.operations.iter().find(|operation| {
                operation.path_key() == op.path
                    && operation.method.as_str().eq_ignore_ascii_case(&op.method)
            })?;
            let parameter = operation.parameters.iter().find(|parameter| {
                parameter.location.as_str() == location && parameter.name == name
            })?;
            Some(Lowered {
                style: parameter.style,
                single: matches!(parameter.shape, Shape::Scalar(_)),
            })
        };
        match model.get_or_init(|| crate::model_of(spec)) {
            Some(model) => find(model),
            None => crate::model_of(&operation_alone(spec, op))
                .as_ref()
                .and_then(find),
        }
    }
}

/// `op` of `spec` in a document of its own: its parameters, the component
/// schemas they use and one response without content, so that what the
/// generator refuses elsewhere in the version does not keep it from
/// lowering them.
fn operation_alone(spec: &LoadedSpec, op: &OperationView<'_>) -> LoadedSpec {
    let doc = &spec.document;
    let mut used = BTreeSet::new();
    let params: Vec<Value> = parameters(doc, op)
        .into_values()
        .map(|(param, _)| {
            collect_refs(doc, param, &mut used);
            param.clone()
        })
        .collect();
    let schemas: serde_json::Map<String, Value> = used
        .into_iter()
        .filter_map(|name| {
            let schema = doc.pointer(&refs::schema_pointer(&name))?;
            Some((name, schema.clone()))
        })
        .collect();
    let operation = serde_json::json!({
        "parameters": params,
        "responses": {"204": {"description": "No content."}},
    });
    let mut item = serde_json::Map::new();
    item.insert(op.method.clone(), operation);
    let mut paths = serde_json::Map::new();
    paths.insert(op.path.clone(), Value::Object(item));
    let document = serde_json::json!({
        "openapi": doc.get("openapi"),
        "info": doc.get("info"),
        "paths": paths,
        "components": {"schemas": schemas},
    });
    LoadedSpec {
        path: spec.path.clone(),
        document,
        source_map: Default::default(),
        warnings: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operation_is_lowered_alone_where_the_generator_refuses_its_version() {
        let yaml = r##"
openapi: 3.0.3
info: {title: Alone, version: "1"}
security: 5
paths:
  /widgets/{id}:
    get:
      operationId: get_widget
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: tags, in: query, explode: false, schema: {$ref: "#/components/schemas/Tags"}}
      responses:
        "200": {description: The widget.}
components:
  schemas:
    Tags: {type: array, items: {type: string}}
"##;
        let spec = openapi_crates_codegen::parse_spec_as_written(
            std::path::Path::new("alone.yaml"),
            yaml.as_bytes(),
        )
        .unwrap();
        assert!(
            crate::model_of(&spec).is_none(),
            "the generator refuses a `security` that is no list"
        );
        let ops = operations(&spec.document);
        let op = &ops[&("/widgets/{id}".to_string(), "get".to_string())];
        let model = crate::model_of(&operation_alone(&spec, op)).expect("lowered alone");
        let tags = model.operations[0]
            .parameters
            .iter()
            .find(|parameter| parameter.name == "tags")
            .unwrap();
        assert_eq!(tags.style, Style::Form { explode: false });
        assert!(matches!(tags.shape, Shape::List(_)));
    }

    #[test]
    fn json_is_json_whatever_its_media_type_and_text_differs_from_a_style() {
        let param =
            |content: Value| serde_json::json!({"in": "query", "name": "q", "content": content});
        let json = param(serde_json::json!({"application/json": {}}));
        let problem = param(serde_json::json!({"application/problem+json": {}}));
        let text = param(serde_json::json!({"text/plain": {}}));
        let styled = serde_json::json!({"in": "query", "name": "q", "schema": {}});
        assert!(Encoding::of(&json).writes_like(Encoding::of(&problem)));
        assert!(!Encoding::of(&json).writes_like(Encoding::of(&text)));
        assert!(!Encoding::of(&text).writes_like(Encoding::of(&styled)));
        assert!(Encoding::of(&styled).writes_like(Encoding::Style));
    }
}
