//! Parameters of an operation: where each travels, the style its value is
//! written in, what its text is read as and the Rust type it becomes.
//!
//! Every style of OpenAPI 3.0 and 3.1 is accepted. What a style cannot carry
//! (a list inside a list, an object inside an object) travels as JSON text,
//! the convention most tools follow where the specification is silent.

use openapiv3::{Components, Parameter as OaParameter, ParameterSchemaOrContent, ReferenceOr};
use serde_json::{Map, Value};

use super::operations::OperationSite;
use super::paths::path_template_names;
use super::refs::{self, schema_name};
use super::validation;
use super::*;
use crate::diagnostic::{Diagnostic, Diagnostics, pointer_join};
use crate::load::LoadedSpec;

pub(super) fn build_parameters(
    spec: &LoadedSpec,
    components: &Components,
    site: &OperationSite<'_>,
    parameters: &[(String, ReferenceOr<OaParameter>)],
) -> Result<Vec<Parameter>, Diagnostics> {
    let template_names = match path_template_names(site.path) {
        Ok(names) => names,
        Err(cause) => {
            return Err(spec
                .error_at(&pointer_join("/paths", site.path), cause)
                .into());
        }
    };

    // Each parameter is checked even when another is broken, so one run
    // reports every problem.
    let mut problems = Diagnostics::default();
    let mut result: Vec<Parameter> = Vec::new();
    for (parameter_pointer, parameter) in parameters {
        let built = build_parameter(
            spec,
            components,
            site,
            &template_names,
            (parameter_pointer, parameter),
            &result,
        );
        if let Some(Some(parameter)) = problems.keep(built) {
            result.push(parameter);
        }
    }
    for name in &template_names {
        if !result
            .iter()
            .any(|parameter| parameter.location == In::Path && &parameter.name == name)
            && !parameters.iter().any(|(pointer, _)| {
                // A broken declaration of it was reported already.
                problems
                    .iter()
                    .any(|problem| problem.pointer.as_deref() == Some(pointer))
            })
        {
            problems.push(spec.error_at(
                site.pointer,
                format!(
                    "the path `{}` has `{{{name}}}` but the operation declares no path parameter `{name}`",
                    site.path
                ),
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    spread_objects_leave_others_alone(&mut result);
    // Path parameters first, in path order (handlers receive them so), then
    // the others in document order.
    result.sort_by_key(|parameter| {
        template_names
            .iter()
            .position(|name| parameter.location == In::Path && *name == parameter.name)
            .unwrap_or(usize::MAX)
    });
    Ok(result)
}

/// One parameter of the operation at `site`, given `seen`, those before it;
/// `None` for a header parameter OpenAPI says to ignore.
fn build_parameter(
    spec: &LoadedSpec,
    components: &Components,
    site: &OperationSite<'_>,
    template_names: &[String],
    (parameter_pointer, parameter): (&String, &ReferenceOr<OaParameter>),
    seen: &[Parameter],
) -> Result<Option<Parameter>, Diagnostic> {
    let (parameter, raw_pointer) = match parameter {
        ReferenceOr::Item(parameter) => (parameter.clone(), parameter_pointer.clone()),
        ReferenceOr::Reference { reference } => refs::component(
            spec,
            parameter_pointer,
            reference,
            "parameters",
            &components.parameters,
        )?,
    };
    let refuse = |cause: String| Err(spec.error_at(parameter_pointer, cause));
    let (data, location, declared) = match &parameter {
        OaParameter::Path {
            parameter_data,
            style,
        } => (
            parameter_data,
            In::Path,
            match style {
                openapiv3::PathStyle::Simple => Declared::Simple,
                openapiv3::PathStyle::Label => Declared::Label,
                openapiv3::PathStyle::Matrix => Declared::Matrix,
            },
        ),
        OaParameter::Query {
            parameter_data,
            style,
            ..
        } => (
            parameter_data,
            In::Query,
            match style {
                openapiv3::QueryStyle::Form => Declared::Form,
                openapiv3::QueryStyle::SpaceDelimited => Declared::SpaceDelimited,
                openapiv3::QueryStyle::PipeDelimited => Declared::PipeDelimited,
                openapiv3::QueryStyle::DeepObject => Declared::DeepObject,
            },
        ),
        OaParameter::Header { parameter_data, .. } => {
            (parameter_data, In::Header, Declared::Simple)
        }
        OaParameter::Cookie { parameter_data, .. } => (parameter_data, In::Cookie, Declared::Form),
    };
    // "If `in` is "header" and the name field is "Accept", "Content-Type"
    // or "Authorization", the parameter definition SHALL be ignored"
    // (OpenAPI 3.0 and 3.1): the media types and the security schemes say
    // those.
    if location == In::Header
        && ["accept", "content-type", "authorization"]
            .iter()
            .any(|ignored| data.name.eq_ignore_ascii_case(ignored))
    {
        return Ok(None);
    }
    let explode = data.explode.unwrap_or(declared == Declared::Form);
    let (schema_pointer, encoding) = match &data.format {
        ParameterSchemaOrContent::Schema(_) => (pointer_join(&raw_pointer, "schema"), None),
        ParameterSchemaOrContent::Content(content) => {
            let mut media_types = content.keys();
            let (Some(media_type), None) = (media_types.next(), media_types.next()) else {
                return Err(spec.error_at(
                    &pointer_join(&raw_pointer, "content"),
                    format!(
                        "parameter `{}` must give exactly one media type under `content`",
                        data.name
                    ),
                ));
            };
            let content_pointer = pointer_join(&pointer_join(&raw_pointer, "content"), media_type);
            (
                pointer_join(&content_pointer, "schema"),
                Some(is_json_media_type(media_type)),
            )
        }
    };
    let schema = spec.document.pointer(&schema_pointer);
    let kind = schema.map_or(Kind::Scalar(Scalar::String), |schema| {
        value_kind(&spec.document, schema)
    });
    let (style, shape, value) = match encoding {
        // JSON text, whatever the value.
        Some(true) => (
            location.default_style(),
            Shape::JSON,
            value_type(&spec.document, &kind, schema),
        ),
        // Text as it is, in any other media type.
        Some(false) => (
            location.default_style(),
            Shape::STRING,
            ValueType::Scalar(Scalar::String),
        ),
        None => {
            let style = declared.lower(explode, kind == Kind::Object);
            (
                style,
                shape_of(&spec.document, schema, &kind, style),
                value_type(&spec.document, &kind, schema),
            )
        }
    };
    let check = match schema {
        // Text in another media type is checked only as the text it is.
        Some(schema) if encoding != Some(false) || kind == Kind::Scalar(Scalar::String) => {
            validation::compile_inline(spec, schema, &schema_pointer)?
        }
        _ => validation::Check::Any,
    };
    // Text read as its type needs no check of the type; JSON text can
    // be any value.
    let check = if check.is_type_only() && !reads_json(&shape) {
        validation::Check::Any
    } else {
        check
    };
    if location == In::Path {
        if !data.required {
            return refuse(format!(
                "path parameter `{}` must be `required: true`",
                data.name
            ));
        }
        if let Some(webhook) = site.webhook {
            return refuse(format!(
                "the webhook `{webhook}` has no path template, so its path parameter `{}` \
                 has nowhere to go: a webhook is sent to the URL a subscriber registers; \
                 send the value in the query, a header or the body",
                data.name
            ));
        }
        if !template_names.contains(&data.name) {
            return refuse(format!(
                "path parameter `{}` does not appear in the path `{}`",
                data.name, site.path
            ));
        }
    }
    if seen
        .iter()
        .any(|seen| seen.name == data.name && seen.location == location)
    {
        return refuse(format!("parameter `{}` is declared twice", data.name));
    }
    Ok(Some(Parameter {
        name: data.name.clone(),
        code_name: data.name.clone(),
        location,
        required: data.required,
        description: data.description.clone(),
        style,
        shape,
        value,
        check,
    }))
}

/// A `style` as a description declares it, before it is lowered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Declared {
    Form,
    SpaceDelimited,
    PipeDelimited,
    DeepObject,
    Simple,
    Label,
    Matrix,
}

impl Declared {
    /// The style that is written, given `explode` and whether the value is
    /// an object. Delimited styles exploded write what exploded `form`
    /// writes (repeated pairs), as does a `deepObject` that is not an object
    /// (a style for objects only); they are that.
    fn lower(self, explode: bool, object: bool) -> Style {
        match self {
            Declared::Form => Style::Form { explode },
            Declared::SpaceDelimited | Declared::PipeDelimited if explode => {
                Style::Form { explode: true }
            }
            Declared::DeepObject if !object => Style::Form { explode: true },
            Declared::SpaceDelimited => Style::SpaceDelimited,
            Declared::PipeDelimited => Style::PipeDelimited,
            Declared::DeepObject => Style::DeepObject,
            Declared::Simple => Style::Simple { explode },
            Declared::Label => Style::Label { explode },
            Declared::Matrix => Style::Matrix { explode },
        }
    }
}

/// Whether some text of the shape is JSON, whose value may be of any type.
fn reads_json(shape: &Shape) -> bool {
    match shape {
        Shape::Scalar(scalar) | Shape::List(scalar) => *scalar == Scalar::Json,
        Shape::Object(entries) => {
            entries.others == Some(Scalar::Json)
                || entries
                    .properties
                    .iter()
                    .any(|(_, scalar)| *scalar == Scalar::Json)
        }
    }
}

/// `application/json` and the `+json` media types.
pub(crate) fn is_json_media_type(media_type: &str) -> bool {
    let essence = media_type.split(';').next().unwrap_or_default().trim();
    essence == JSON || essence.ends_with("+json")
}

/// What a parameter's value is, by its schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Scalar(Scalar),
    /// A list of items read as this.
    List(Scalar),
    Object,
}

/// The kind of the value `schema` describes, following `$ref`s. A schema
/// that only adds `null` to another (`anyOf: [X, {nullable}]`, `nullable`)
/// is that other's kind: an absent parameter is how a parameter says null.
/// Alternatives of one kind are that kind; others, like a schema without a
/// type, are text.
pub(crate) fn value_kind(document: &Value, schema: &Value) -> Kind {
    kind_at_depth(document, schema, 0)
}

fn kind_at_depth(document: &Value, schema: &Value, depth: usize) -> Kind {
    const TEXT: Kind = Kind::Scalar(Scalar::String);
    let Some(schema) = resolve(document, schema) else {
        return TEXT;
    };
    if depth > 16 {
        return TEXT;
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("array") => {
            let items = schema
                .get("items")
                .map_or(TEXT, |items| kind_at_depth(document, items, depth + 1));
            return Kind::List(item_scalar(items));
        }
        Some("object") => return Kind::Object,
        Some(kind) => {
            if let Some(scalar) = scalar(kind) {
                return Kind::Scalar(scalar);
            }
        }
        None => {}
    }
    if schema.contains_key("properties") || schema.contains_key("additionalProperties") {
        return Kind::Object;
    }
    if let Some(Value::Array(parts)) = schema.get("allOf") {
        let kinds: Vec<Kind> = parts
            .iter()
            .map(|part| kind_at_depth(document, part, depth + 1))
            .collect();
        if kinds.contains(&Kind::Object) {
            return Kind::Object;
        }
        return kinds.first().copied().unwrap_or(TEXT);
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(keyword) {
            let mut kinds: Vec<Kind> = branches
                .iter()
                .filter(|branch| !only_null(document, branch))
                .map(|branch| kind_at_depth(document, branch, depth + 1))
                .collect();
            kinds.dedup();
            return match kinds[..] {
                [one] => one,
                _ => TEXT,
            };
        }
    }
    TEXT
}

/// How an item of a list (or an entry of an object) of this kind is read:
/// lists and objects inside are JSON text.
fn item_scalar(kind: Kind) -> Scalar {
    match kind {
        Kind::Scalar(scalar) => scalar,
        Kind::List(_) | Kind::Object => Scalar::Json,
    }
}

/// Whether `schema` allows only `null`: `{type: "null"}` (3.1, before
/// lowering), `{enum: [null]}`, or a bare `{nullable: true}`.
pub(crate) fn only_null(document: &Value, schema: &Value) -> bool {
    let Some(schema) = resolve(document, schema) else {
        return false;
    };
    schema.get("type").and_then(Value::as_str) == Some("null")
        || schema
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.iter().all(Value::is_null))
        || super::validation::is_bare_nullable(schema)
}

/// The schema a parameter's value is: `schema` itself or, where `schema`
/// only adds `null` to one other (`anyOf`/`oneOf` with one branch besides
/// null, or an `allOf` of one part), that other; with its pointer relative
/// to `schema` (`""`, `/anyOf/0`).
pub(crate) fn non_null<'a>(document: &Value, schema: &'a Value) -> (&'a Value, String) {
    let mut schema = schema;
    let mut pointer = String::new();
    for _ in 0..8 {
        let Some(object) = schema.as_object() else {
            break;
        };
        if object.contains_key("type") || object.contains_key("properties") {
            break;
        }
        let mut inner = None;
        for keyword in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = object.get(keyword) {
                let mut others = branches
                    .iter()
                    .enumerate()
                    .filter(|(_, branch)| keyword == "allOf" || !only_null(document, branch));
                if let (Some((index, branch)), None) = (others.next(), others.next()) {
                    inner = Some((keyword, index, branch));
                }
                break;
            }
        }
        let Some((keyword, index, branch)) = inner else {
            break;
        };
        pointer.push_str(&format!("/{keyword}/{index}"));
        schema = branch;
    }
    (schema, pointer)
}

/// Whether the value `schema` describes combines several schemas (`anyOf`,
/// `allOf`, beyond adding `null` to one): typify may type it as a struct
/// of the parts, which progenitor's builders cannot take, so it is given a
/// name and the client sets it itself, as an object.
pub(crate) fn combines_several(document: &Value, schema: &Value) -> bool {
    let mut schema = schema;
    for _ in 0..8 {
        schema = non_null(document, schema).0;
        if schema.get("$ref").is_none() {
            break;
        }
        match refs::follow(document, schema, "") {
            Ok((target, _)) => schema = target,
            Err(_) => return false,
        }
    }
    ["anyOf", "allOf"].iter().any(|keyword| {
        schema
            .get(*keyword)
            .and_then(Value::as_array)
            .is_some_and(|parts| parts.len() > 1)
    })
}

/// The schema `schema` is or refers to (a local `$ref`, followed).
pub(crate) fn resolve<'a>(
    document: &'a Value,
    schema: &'a Value,
) -> Option<&'a Map<String, Value>> {
    refs::followed_object(document, schema).ok()
}

/// The shape of a value of `kind`: for an object, its properties and how
/// each is read. An exploded `form` object spreads its entries among the
/// query's (or the cookies'), so it takes only its declared properties
/// unless it says otherwise (`additionalProperties`, or none declared).
fn shape_of(document: &Value, schema: Option<&Value>, kind: &Kind, style: Style) -> Shape {
    match kind {
        Kind::Scalar(scalar) => Shape::Scalar(*scalar),
        Kind::List(item) => Shape::List(*item),
        Kind::Object => {
            let mut properties = Vec::new();
            let mut additional = None;
            if let Some(schema) = schema {
                collect_properties(document, schema, &mut properties, &mut additional, 0);
            }
            let others = match additional {
                Some(Some(scalar)) => Some(scalar),
                Some(None) => None,
                None if style == (Style::Form { explode: true }) && !properties.is_empty() => None,
                None => Some(Scalar::String),
            };
            Shape::Object(Entries {
                properties: properties.into(),
                others,
                // Set once the operation's other parameters are known
                // ([`spread_objects_leave_others_alone`]).
                except: Default::default(),
            })
        }
    }
}

/// An exploded `form` object open to other entries takes every pair of its
/// location that no other parameter names (nor one of another exploded
/// object's properties): those names are its `except`.
fn spread_objects_leave_others_alone(parameters: &mut [Parameter]) {
    for index in 0..parameters.len() {
        let parameter = &parameters[index];
        let spread = parameter.style == (Style::Form { explode: true })
            && matches!(&parameter.shape, Shape::Object(entries) if entries.others.is_some());
        if !spread {
            continue;
        }
        let mut except: Vec<Name> = Vec::new();
        for other in parameters.iter() {
            if other.location != parameter.location || other.name == parameter.name {
                continue;
            }
            match &other.shape {
                Shape::Object(entries) if other.style == (Style::Form { explode: true }) => {
                    except.extend(entries.properties.iter().map(|(name, _)| name.clone()));
                }
                _ => except.push(Name::Owned(other.name.clone())),
            }
        }
        if let Shape::Object(entries) = &mut parameters[index].shape {
            entries.except = except.into();
        }
    }
}

/// The declared properties of an object schema and of the object schemas
/// it combines, and what `additionalProperties` says: `Some(None)` for
/// `false`, `Some(Some(kind))` for a schema or `true`, `None` when unsaid.
fn collect_properties(
    document: &Value,
    schema: &Value,
    properties: &mut Vec<(Name, Scalar)>,
    additional: &mut Option<Option<Scalar>>,
    depth: usize,
) {
    let Some(schema) = resolve(document, schema) else {
        return;
    };
    if depth > 16 {
        return;
    }
    if let Some(Value::Object(declared)) = schema.get("properties") {
        for (name, property) in declared {
            if !properties.iter().any(|(seen, _)| seen == name) {
                let kind = item_scalar(kind_at_depth(document, property, depth + 1));
                properties.push((Name::Owned(name.clone()), kind));
            }
        }
    }
    match schema.get("additionalProperties") {
        Some(Value::Bool(false)) => *additional = Some(None),
        Some(Value::Bool(true)) => *additional = Some(Some(Scalar::String)),
        Some(entry @ Value::Object(_)) => {
            *additional = Some(Some(item_scalar(kind_at_depth(document, entry, depth + 1))));
        }
        _ => {}
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(parts)) = schema.get(keyword) {
            for part in parts {
                collect_properties(document, part, properties, additional, depth + 1);
            }
        }
    }
}

/// The server's Rust type for a value of `kind` described by `schema`: the
/// types crate's type where the value (or a list's items) is an object,
/// named as the inline stage or the spec named it.
fn value_type(document: &Value, kind: &Kind, schema: Option<&Value>) -> ValueType {
    let named = |schema: Option<&Value>| {
        schema
            .map(|schema| non_null(document, schema).0)
            .and_then(|schema| schema.get("$ref"))
            .and_then(Value::as_str)
            .and_then(schema_name)
            .map(|name| name.into_owned())
    };
    let structured = schema.is_some_and(|schema| combines_several(document, schema));
    match kind {
        Kind::Scalar(_) | Kind::List(_) if structured => match named(schema) {
            Some(name) => ValueType::Named(name),
            None => ValueType::Scalar(Scalar::Json),
        },
        Kind::Scalar(scalar) => ValueType::Scalar(*scalar),
        Kind::List(Scalar::Json) => {
            let list = schema.map(|schema| non_null(document, schema).0);
            match named(list.and_then(|schema| resolve(document, schema)?.get("items"))) {
                Some(name) => ValueType::NamedList(name),
                None => ValueType::List(Scalar::Json),
            }
        }
        Kind::List(item) => ValueType::List(*item),
        Kind::Object => match named(schema) {
            Some(name) => ValueType::Named(name),
            None => ValueType::Scalar(Scalar::Json),
        },
    }
}

fn scalar(kind: &str) -> Option<Scalar> {
    match kind {
        "string" => Some(Scalar::String),
        "integer" => Some(Scalar::Integer),
        "number" => Some(Scalar::Number),
        "boolean" => Some(Scalar::Boolean),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind(schema: Value) -> Kind {
        let document = json!({"components": {"schemas": {
            "Map": {"type": "object", "additionalProperties": {"type": "integer"}},
            "Id": {"type": "integer"},
        }}});
        value_kind(&document, &schema)
    }

    #[test]
    fn kinds_follow_refs_and_see_through_null() {
        assert_eq!(
            kind(json!({"type": "integer"})),
            Kind::Scalar(Scalar::Integer)
        );
        assert_eq!(
            kind(json!({"$ref": "#/components/schemas/Id"})),
            Kind::Scalar(Scalar::Integer)
        );
        assert_eq!(
            kind(json!({"anyOf": [{"$ref": "#/components/schemas/Map"}, {"nullable": true}]})),
            Kind::Object
        );
        assert_eq!(
            kind(json!({"oneOf": [{"type": "null"}, {"type": "boolean"}]})),
            Kind::Scalar(Scalar::Boolean)
        );
        assert_eq!(
            kind(json!({"enum": ["a", "b"]})),
            Kind::Scalar(Scalar::String)
        );
        assert_eq!(kind(json!({})), Kind::Scalar(Scalar::String));
        assert_eq!(
            kind(json!({"oneOf": [{"type": "string"}, {"type": "array"}]})),
            Kind::Scalar(Scalar::String),
            "alternatives of several kinds are text"
        );
        assert_eq!(
            kind(json!({"allOf": [{"$ref": "#/components/schemas/Map"}]})),
            Kind::Object
        );
    }

    #[test]
    fn lists_of_lists_and_objects_carry_json_items() {
        assert_eq!(
            kind(json!({"type": "array", "items": {"type": "number"}})),
            Kind::List(Scalar::Number)
        );
        assert_eq!(
            kind(json!({"type": "array", "items": {"$ref": "#/components/schemas/Map"}})),
            Kind::List(Scalar::Json)
        );
        assert_eq!(kind(json!({"type": "array"})), Kind::List(Scalar::String));
    }

    #[test]
    fn object_shapes_list_properties_and_say_what_else_they_take() {
        let document = json!({});
        let schema = json!({
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "array"}},
        });
        let shape = |style| shape_of(&document, Some(&schema), &Kind::Object, style);
        let object = |properties: &[(&'static str, Scalar)], others| {
            Shape::Object(Entries {
                properties: properties
                    .iter()
                    .map(|(name, scalar)| (Name::Borrowed(name), *scalar))
                    .collect(),
                others,
                except: Default::default(),
            })
        };
        let properties = [("a", Scalar::Integer), ("b", Scalar::Json)];
        assert_eq!(
            shape(Style::Form { explode: true }),
            object(&properties, None),
            "an exploded form object takes only its properties from the query"
        );
        assert_eq!(
            shape(Style::DeepObject),
            object(&properties, Some(Scalar::String))
        );
        let map = json!({"additionalProperties": {"type": "boolean"}});
        assert_eq!(
            shape_of(
                &document,
                Some(&map),
                &Kind::Object,
                Style::Form { explode: true }
            ),
            object(&[], Some(Scalar::Boolean))
        );
    }

    #[test]
    fn declared_styles_lower_to_the_text_they_write() {
        assert_eq!(
            Declared::SpaceDelimited.lower(true, false),
            Style::Form { explode: true }
        );
        assert_eq!(
            Declared::PipeDelimited.lower(false, false),
            Style::PipeDelimited
        );
        assert_eq!(
            Declared::DeepObject.lower(false, false),
            Style::Form { explode: true },
            "deepObject is for objects; a list in it is written as exploded form"
        );
        assert_eq!(Declared::DeepObject.lower(false, true), Style::DeepObject);
        assert_eq!(
            Declared::Matrix.lower(true, false),
            Style::Matrix { explode: true }
        );
    }

    #[test]
    fn combinations_are_told_from_null_wrappers() {
        let document = json!({"components": {"schemas": {
            "Both": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
        }}});
        let combines = |schema: Value| combines_several(&document, &schema);
        assert!(combines(json!({"$ref": "#/components/schemas/Both"})));
        assert!(combines(
            json!({"allOf": [{"type": "object"}, {"required": ["a"]}]})
        ));
        assert!(!combines(
            json!({"anyOf": [{"type": "integer"}, {"type": "null"}]})
        ));
        assert!(
            !combines(json!({"oneOf": [{"type": "integer"}, {"type": "string"}]})),
            "typify types a `oneOf` as an enum, which progenitor takes"
        );
    }
}
