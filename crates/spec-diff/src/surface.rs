//! The generated Rust API of one version of the spec: what the server
//! trait, the client and the types crate expose, with the signature of each
//! item. Two versions are diffed item by item, and each difference is
//! attached to the HTTP change that causes it.
//!
//! Where the generator generates both versions, the API is the generator's
//! own ([`Surface::of_code`]): the operations' names and the trait methods'
//! arguments (path parameters, the `{Operation}Params` struct of the others,
//! the body as the trait takes it) come from its model ([`Generated`]); the
//! types, their fields and variants, the client's builder arguments and the
//! response variants' payloads from the code it emits
//! ([`crate::emitted::Emitted`]), each paired with the spec node it comes
//! from. Where it refuses a version, both are modelled from the documents
//! ([`Surface::of`]) after typify's and progenitor's naming, and the report
//! says so. `tests/generated.rs` checks the items and every name the report
//! prints against the code generated for the real spec and for construct
//! fixtures and changes to each.

use std::collections::BTreeMap;

use openapi_crates_codegen::diagnostic::pointer_join;
use openapi_crates_codegen::load::{LoadedSpec, SourceMap};
use serde_json::Value;

use crate::emitted::{Emitted, TypeDef, generic_arguments, show, type_name_of};
use crate::naming::{field_name, method_name, status_variant, type_name};
use crate::walk::{Usage, operations, parameters, resolve, schema_usage};
use crate::{Audience, Change, RustEffect, locate};

/// What kind of public item, which decides who is affected by its change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    /// A method of the server trait (implemented by server implementors).
    TraitMethod,
    /// A variant of an operation's response enum (built by server implementors).
    ResponseVariant,
    /// A method of the generated client.
    ClientMethod,
    /// A builder argument of a client method.
    ClientArgument { required: bool },
    /// A type of the types crate.
    Type,
    /// A field of a generated struct.
    Field { required: bool },
    /// A field of the server's `{Operation}Params` struct (query, header and
    /// cookie parameters), built by the router and read by implementors.
    ParamsField,
    /// A variant of a generated enum.
    Variant,
}

/// One public item of the generated crates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub kind: ItemKind,
    /// How the item reads in Rust, e.g. `EventStream::name` or `Client::get_action_module`.
    pub name: String,
    /// Its type or signature; a change of this is a change of the item.
    pub signature: String,
    /// The spec node that produces it.
    pub pointer: String,
    /// Where the owning type travels (for types, fields, variants).
    pub usage: Usage,
}

/// Every public item of one version, by a unique sortable key.
#[derive(Debug, Clone, Default)]
pub struct Surface {
    pub items: BTreeMap<String, Item>,
}

/// What the generator's own model says of each operation of one version,
/// where that model builds: the operation's name (the generator names
/// operations without an `operationId` and renames clashing ones) and the
/// type its trait method takes for the request body (bytes, a schema's type,
/// or the operation's body enum). The emitters read the same model, so these
/// cannot drift from the generated code.
#[derive(Debug, Clone, Default)]
pub struct Generated {
    /// By (path key, lowercase method).
    operations: BTreeMap<(String, String), GeneratedOperation>,
}

#[derive(Debug, Clone)]
struct GeneratedOperation {
    id: String,
    /// Whether the operation answers `101`: its trait method takes the
    /// WebSocket upgrade last.
    upgrades: bool,
    /// The trait method's body type, `Option<..>` when the body may be absent.
    body: Option<String>,
    /// What the client's `body` builder argument takes: the type of the kind
    /// it sends, a multipart form, or anything that becomes a request body.
    client_body: Option<String>,
    /// The trait method's arguments before the body, `name: Type`: the
    /// context (whose caller type says who may call), the path parameters,
    /// then `params` when the operation has others.
    arguments: Vec<String>,
    /// The fields of the `{Operation}Params` struct that carries the query,
    /// header and cookie parameters: (location, name as written, field, type).
    params: Vec<(String, String, String, String)>,
    /// Every parameter's name in code, by (location, name as written): the
    /// client's builder names its setter after it.
    code_names: BTreeMap<(String, String), String>,
}

/// The Rust type the server reads a parameter as (`emit::server::params`).
fn parameter_type(parameter: &openapi_crates_codegen::model::Parameter) -> String {
    use openapi_crates_codegen::model::{Scalar, ValueType};
    let scalar = |scalar: &Scalar| match scalar {
        Scalar::String => "String".to_string(),
        Scalar::Integer => "i64".to_string(),
        Scalar::Number => "f64".to_string(),
        Scalar::Boolean => "bool".to_string(),
        Scalar::Json => "runtime::params::Json".to_string(),
    };
    let value = match &parameter.value {
        // A list absent is empty, never `None`.
        ValueType::List(item) => return format!("Vec<{}>", scalar(item)),
        ValueType::NamedList(name) => return format!("Vec<{}>", type_name(name)),
        ValueType::Scalar(item) => scalar(item),
        ValueType::Named(name) => type_name(name),
    };
    optional(&value, parameter.required)
}

impl Generated {
    /// The generator's model of `spec`, read as the generator reads it (a
    /// 3.1 document lowered); empty where the generator refuses the document,
    /// whose Rust API is then modelled from the document alone.
    pub fn of(spec: &LoadedSpec) -> Generated {
        Generated::of_prepared(&prepared(spec))
    }

    /// [`Generated::of`] a spec already prepared ([`prepared`]).
    pub fn of_prepared(prepared: &LoadedSpec) -> Generated {
        let Ok(model) = openapi_crates_codegen::model::build_model(prepared) else {
            return Generated::default();
        };
        let operations = model
            .operations
            .iter()
            .filter(|op| op.webhook.is_none())
            .map(|op| {
                let body = op.request_body.as_ref().map(|body| {
                    let kind = match body.single() {
                        Some(kind) if kind.streamed() => "stream::BodyStream".to_string(),
                        Some(kind) if kind.is_multipart() => "stream::Multipart".to_string(),
                        Some(kind) => kind
                            .schema
                            .as_deref()
                            .map_or_else(|| "Bytes".to_string(), type_name),
                        None => openapi_crates_codegen::naming::operation_type_name(&op.id, "Body"),
                    };
                    optional(&kind, body.required)
                });
                let client_body = op.request_body.as_ref().map(|body| {
                    let sent = body
                        .kinds
                        .iter()
                        .find(|kind| kind.media_types.contains(&body.sent));
                    let kind = match sent.and_then(|kind| kind.schema.as_deref()) {
                        Some(schema) => type_name(schema),
                        None if body.sent == openapi_crates_codegen::model::MULTIPART => {
                            "multipart::Form".to_string()
                        }
                        None => "reqwest::Body".to_string(),
                    };
                    optional(&kind, body.required)
                });
                use openapi_crates_codegen::model::In;
                let (path, others): (Vec<_>, Vec<_>) = op
                    .parameters
                    .iter()
                    .partition(|parameter| parameter.location == In::Path);
                let caller = op.caller().rust_type("Self::Caller");
                let mut arguments = vec![format!("context: RequestContext<{caller}>")];
                arguments.extend(path.iter().map(|parameter| {
                    let name = field_name(&parameter.code_name);
                    format!("{name}: {}", parameter_type(parameter))
                }));
                if !others.is_empty() {
                    let params =
                        openapi_crates_codegen::naming::operation_type_name(&op.id, "params");
                    arguments.push(format!("params: {params}"));
                }
                let params = others
                    .iter()
                    .map(|parameter| {
                        (
                            parameter.location.as_str().to_string(),
                            parameter.name.clone(),
                            field_name(&parameter.code_name),
                            parameter_type(parameter),
                        )
                    })
                    .collect();
                let code_names = op
                    .parameters
                    .iter()
                    .map(|parameter| {
                        let key = (
                            parameter.location.as_str().to_string(),
                            parameter.name.clone(),
                        );
                        (key, parameter.code_name.clone())
                    })
                    .collect();
                let key = (op.path_key(), op.method.as_str().to_ascii_lowercase());
                let id = op.id.clone();
                let operation = GeneratedOperation {
                    id,
                    upgrades: op.upgrades(),
                    body,
                    client_body,
                    arguments,
                    params,
                    code_names,
                };
                (key, operation)
            })
            .collect();
        Generated { operations }
    }
}

/// `spec` as the generator reads it before its model: operations named,
/// inline body schemas moved under `components/schemas`, clashing names
/// made distinct ([`openapi_crates_codegen::prepare_document`]).
pub fn prepared(spec: &LoadedSpec) -> LoadedSpec {
    let mut prepared = spec.clone();
    openapi_crates_codegen::prepare_document(&mut prepared);
    // The flaws the model meets are contained in the document, as the
    // generator contains them, so both versions read as generated.
    let _ = openapi_crates_codegen::contain::build_model(&mut prepared);
    prepared
}

/// Where the names and types of the items come from.
#[derive(Clone, Copy)]
enum Source<'a> {
    /// The code the generator emits for this version.
    Code {
        emitted: &'a Emitted,
        /// The prepared document's, whose moved schemas point where written.
        source_map: &'a SourceMap,
    },
    /// The document alone, for a version the generator refuses.
    Document,
}

impl Surface {
    /// The Rust API the generator emits for a version: `prepared` is the
    /// version as [`prepared`] gives it, `generated` the generator's model of
    /// it and `emitted` the public items of its generated code, whence every
    /// type, field, variant, builder argument and response payload is read.
    pub fn of_code(prepared: &LoadedSpec, generated: &Generated, emitted: &Emitted) -> Surface {
        let source = Source::Code {
            emitted,
            source_map: &prepared.source_map,
        };
        Surface::build(&prepared.document, generated, source)
    }

    /// The Rust API of the document `doc` modelled from the document, for
    /// a version the generator refuses: the operations' names and body
    /// types where the generator's model builds (`generated`), the rest
    /// after typify's and progenitor's naming.
    pub fn of(doc: &Value, generated: &Generated) -> Surface {
        Surface::build(doc, generated, Source::Document)
    }

    fn build(doc: &Value, generated: &Generated, source: Source<'_>) -> Surface {
        let mut surface = Surface::default();
        let usage = schema_usage(doc);
        for op in operations(doc).values() {
            let modelled = generated
                .operations
                .get(&(op.path.clone(), op.method.clone()));
            let Some(id) = modelled.map(|g| g.id.as_str()).or(op.id.as_deref()) else {
                continue;
            };
            let method = method_name(id);
            let response_enum = format!("{}Response", type_name(id));
            let mut arguments = Vec::new();
            for ((location, name), (param, pointer)) in parameters(doc, op) {
                let required = param.get("required").and_then(Value::as_bool) == Some(true);
                let (setter, ty) = match source {
                    Source::Code { emitted, .. } => {
                        // The builder's setter is named after the
                        // parameter's name in code, and takes what the
                        // emitted client says; a parameter the client has
                        // no setter for has no item.
                        let code_name = modelled
                            .and_then(|g| g.code_names.get(&(location.clone(), name.clone())))
                            .unwrap_or(&name);
                        let setter = method_name(code_name);
                        let Some(argument) = emitted
                            .arguments
                            .get(&method)
                            .and_then(|arguments| arguments.get(&setter))
                        else {
                            continue;
                        };
                        (setter, argument.signature())
                    }
                    Source::Document => {
                        let context = format!("{}{}", type_name(id), type_name(&name));
                        let ty = param
                            .get("schema")
                            .map(|s| rust_type(doc, s, &context))
                            .unwrap_or_else(|| "String".into());
                        let ty = optional(&ty, required);
                        arguments.push(format!("{}: {ty}", method_name(&name)));
                        (method_name(&name), ty)
                    }
                };
                surface.add(
                    format!("client {method} {location} {name}"),
                    Item {
                        kind: ItemKind::ClientArgument { required },
                        name: format!("Client::{method}().{setter}"),
                        signature: ty,
                        pointer,
                        usage: Usage::REQUEST,
                    },
                );
            }
            if let Some(body) = op.value.get("requestBody") {
                let body_pointer = pointer_join(&op.pointer, "requestBody");
                let (body, _) = resolve(doc, body, body_pointer.clone());
                let required = body.get("required").and_then(Value::as_bool) == Some(true);
                let ty = match modelled.and_then(|g| g.body.clone()) {
                    Some(ty) => ty,
                    None => {
                        let ty = body
                            .get("content")
                            .and_then(Value::as_object)
                            .and_then(|content| content.values().find_map(|m| m.get("schema")))
                            .map(|s| rust_type(doc, s, &format!("{}Body", type_name(id))))
                            .unwrap_or_else(|| "Bytes".into());
                        optional(&ty, required)
                    }
                };
                arguments.push(format!("body: {ty}"));
                let client_ty = match source {
                    Source::Code { emitted, .. } => emitted
                        .arguments
                        .get(&method)
                        .and_then(|arguments| arguments.get("body"))
                        .map(|argument| argument.signature()),
                    Source::Document => {
                        Some(modelled.and_then(|g| g.client_body.clone()).unwrap_or(ty))
                    }
                };
                if let Some(client_ty) = client_ty {
                    surface.add(
                        format!("client {method} body"),
                        Item {
                            kind: ItemKind::ClientArgument { required },
                            name: format!("Client::{method}().body"),
                            signature: client_ty,
                            pointer: body_pointer,
                            usage: Usage::REQUEST,
                        },
                    );
                }
            }
            if let Some(modelled) = modelled {
                // The generator's arguments: path parameters, then one
                // struct for the others, then the body.
                let body = arguments.pop().filter(|a| a.starts_with("body: "));
                arguments = modelled.arguments.clone();
                arguments.extend(body);
                if modelled.upgrades {
                    arguments.push("upgrade: websocket::WebSocketUpgrade".to_string());
                }
                let params = openapi_crates_codegen::naming::operation_type_name(id, "params");
                let params_pointer = pointer_join(&op.pointer, "parameters");
                let written = parameters(doc, op);
                for (location, name, field, ty) in &modelled.params {
                    let pointer = written
                        .get(&(location.clone(), name.clone()))
                        .map_or_else(|| params_pointer.clone(), |(_, p)| p.clone());
                    surface.add(
                        format!("server {method} params {location} {name}"),
                        Item {
                            kind: ItemKind::ParamsField,
                            name: format!("{params}::{field}"),
                            signature: ty.clone(),
                            pointer,
                            usage: Usage::REQUEST,
                        },
                    );
                }
            }
            surface.add(
                format!("server {method}"),
                Item {
                    kind: ItemKind::TraitMethod,
                    name: method.to_string(),
                    signature: format!("fn {method}({}) -> {response_enum}", arguments.join(", ")),
                    pointer: op.pointer.clone(),
                    usage: Usage::default(),
                },
            );
            surface.add(
                format!("client {method}"),
                Item {
                    kind: ItemKind::ClientMethod,
                    name: format!("Client::{method}"),
                    signature: String::new(),
                    pointer: op.pointer.clone(),
                    usage: Usage::default(),
                },
            );
            let responses_pointer = pointer_join(&op.pointer, "responses");
            if let Some(responses) = op.value.get("responses").and_then(Value::as_object) {
                for (status, response) in responses {
                    let pointer = pointer_join(&responses_pointer, status);
                    let (response, _) = resolve(doc, response, pointer.clone());
                    let variant = status_variant(status);
                    let payload = match source {
                        Source::Code { emitted, .. } => {
                            let Some(payload) = emitted
                                .responses
                                .get(&response_enum)
                                .and_then(|variants| variants.get(&variant))
                            else {
                                continue;
                            };
                            payload.clone()
                        }
                        Source::Document => response_payload(doc, response, &response_enum),
                    };
                    surface.add(
                        format!("server {method} response {status}"),
                        Item {
                            kind: ItemKind::ResponseVariant,
                            name: format!("{response_enum}::{variant}"),
                            signature: payload,
                            pointer,
                            usage: Usage::default(),
                        },
                    );
                }
            }
        }
        if let Some(schemas) = doc
            .pointer("/components/schemas")
            .and_then(Value::as_object)
        {
            match source {
                Source::Code {
                    emitted,
                    source_map,
                } => {
                    // Each component schema is the type of its name; the
                    // types inside it are found from its generated code.
                    let roots: BTreeMap<String, &String> =
                        schemas.keys().map(|name| (type_name(name), name)).collect();
                    let code = CodeTypes {
                        doc,
                        emitted,
                        source_map,
                        roots: &roots,
                    };
                    for (rust_name, name) in &roots {
                        let used = usage.get(*name).copied().unwrap_or_default();
                        let pointer = pointer_join("/components/schemas", name);
                        code.add_type(&mut surface, rust_name, &pointer, used);
                    }
                }
                Source::Document => {
                    for (name, schema) in schemas {
                        let used = usage.get(name).copied().unwrap_or_default();
                        let pointer = pointer_join("/components/schemas", name);
                        surface.types(doc, &type_name(name), (schema, &pointer), used);
                    }
                }
            }
        }
        surface
    }

    fn add(&mut self, key: String, item: Item) {
        self.items.entry(key).or_insert(item);
    }

    /// The type named `name` generated for `schema`, and the inline types inside it.
    fn types(&mut self, doc: &Value, name: &str, node: (&Value, &str), usage: Usage) {
        let (schema, pointer) = node;
        // One type per name: a schema that names itself again (a nullable
        // inline type is `Option` of itself) is modelled once and ends.
        if self.items.contains_key(&format!("types {name}")) {
            return;
        }
        let add_type = |surface: &mut Surface, signature: String| {
            surface.add(
                format!("types {name}"),
                Item {
                    kind: ItemKind::Type,
                    name: format!("types::{name}"),
                    signature,
                    pointer: pointer.to_string(),
                    usage,
                },
            );
        };
        if schema.get("$ref").is_some() {
            add_type(
                self,
                format!("type alias of {}", rust_type(doc, schema, name)),
            );
            return;
        }
        if schema.get("allOf").is_some() {
            add_type(self, "struct merged from allOf".into());
            return;
        }
        for keyword in ["oneOf", "anyOf"] {
            if let Some(members) = schema.get(keyword).and_then(Value::as_array) {
                // typify turns a one-member union into a newtype of the member.
                if let [only] = members.as_slice() {
                    add_type(
                        self,
                        format!(
                            "newtype of {}",
                            rust_type(doc, only, &format!("{name}Variant0"))
                        ),
                    );
                    if only.get("$ref").is_none() {
                        let member_pointer = format!("{pointer}/{keyword}/0");
                        self.types(
                            doc,
                            &format!("{name}Variant0"),
                            (only, &member_pointer),
                            usage,
                        );
                    }
                    return;
                }
                add_type(self, "enum".into());
                for (i, member) in members.iter().enumerate() {
                    let variant = member
                        .get("$ref")
                        .and_then(Value::as_str)
                        .and_then(|r| r.rsplit('/').next())
                        .map(type_name)
                        .unwrap_or_else(|| format!("Variant{i}"));
                    let member_pointer = format!("{pointer}/{keyword}/{i}");
                    let context = format!("{name}{variant}");
                    self.add(
                        format!("types {name} variant {variant}"),
                        Item {
                            kind: ItemKind::Variant,
                            name: format!("{name}::{variant}"),
                            signature: rust_type(doc, member, &context),
                            pointer: member_pointer.clone(),
                            usage,
                        },
                    );
                    if member.get("$ref").is_none() {
                        self.types(doc, &context, (member, &member_pointer), usage);
                    }
                }
                return;
            }
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            add_type(self, "enum".into());
            for (i, value) in values.iter().enumerate() {
                let text = match value {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                let variant = type_name(&text);
                self.add(
                    format!("types {name} variant {variant}"),
                    Item {
                        kind: ItemKind::Variant,
                        name: format!("{name}::{variant}"),
                        signature: String::new(),
                        pointer: format!("{pointer}/enum/{i}"),
                        usage,
                    },
                );
            }
            return;
        }
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            add_type(self, "struct".into());
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let properties_pointer = pointer_join(pointer, "properties");
            for (property, property_schema) in properties {
                let is_required = required.contains(&property.as_str());
                let context = format!("{name}{}", type_name(property));
                let field_pointer = pointer_join(&properties_pointer, property);
                let ty = rust_type(doc, property_schema, &context);
                self.add(
                    format!("types {name} field {property}"),
                    Item {
                        kind: ItemKind::Field {
                            required: is_required,
                        },
                        name: format!("{name}::{}", field_name(property)),
                        signature: field_type(&ty, is_required),
                        pointer: field_pointer.clone(),
                        usage,
                    },
                );
                self.inline_types(doc, &context, (property_schema, &field_pointer), usage);
            }
            return;
        }
        let ty = rust_type(doc, schema, name);
        if ty == name {
            add_type(self, "newtype String (validated)".into());
        } else {
            add_type(self, format!("type alias of {ty}"));
            self.inline_types(doc, name, (schema, pointer), usage);
        }
    }

    /// Named types for inline objects, enums and constrained strings nested in a field.
    fn inline_types(&mut self, doc: &Value, context: &str, node: (&Value, &str), usage: Usage) {
        let (schema, pointer) = node;
        if schema.get("$ref").is_some() {
            return;
        }
        if let Some(items) = schema.get("items") {
            let item_context = format!("{context}Item");
            let items_pointer = pointer_join(pointer, "items");
            if rust_type(doc, items, &item_context) == item_context {
                self.types(doc, &item_context, (items, &items_pointer), usage);
            } else {
                self.inline_types(doc, &item_context, (items, &items_pointer), usage);
            }
            return;
        }
        if rust_type(doc, schema, context)
            .trim_start_matches("Option<")
            .trim_end_matches('>')
            == context
        {
            self.types(doc, context, (schema, pointer), usage);
        }
    }
}

/// The types of the generated code, walked from each component schema's
/// type through the types its fields, variants and wrappers name, each
/// paired with the spec node it comes from.
struct CodeTypes<'a> {
    /// The prepared document.
    doc: &'a Value,
    emitted: &'a Emitted,
    source_map: &'a SourceMap,
    /// The component schemas' types by Rust name: each is walked from its
    /// own schema, never from a field that names it.
    roots: &'a BTreeMap<String, &'a String>,
}

impl CodeTypes<'_> {
    /// `pointer` under `step` when the document has that node, else
    /// `pointer` itself (typify may name a type where the document has no
    /// node of its own, e.g. a merged `allOf`).
    fn step(&self, pointer: &str, step: &str) -> String {
        let stepped = pointer_join(pointer, step);
        if self.doc.pointer(&stepped).is_some() {
            stepped
        } else {
            pointer.to_string()
        }
    }

    /// The generated type `name`, from the schema at `pointer` of the
    /// prepared document, with its fields or variants and the types they name.
    fn add_type(&self, surface: &mut Surface, name: &str, pointer: &str, usage: Usage) {
        if surface.items.contains_key(&format!("types {name}")) {
            return;
        }
        let Some(def) = self.emitted.types.get(name) else {
            return;
        };
        let schema = self.doc.pointer(pointer);
        let item = |kind, name: String, signature: String, pointer: &str| Item {
            kind,
            name,
            signature,
            pointer: self.source_map.original(pointer),
            usage,
        };
        let signature = match def {
            TypeDef::Struct(_) => "struct".to_string(),
            TypeDef::Enum(_) => "enum".to_string(),
            TypeDef::Newtype(inner) => format!("newtype of {}", show(inner)),
            TypeDef::Alias(target) => format!("type alias of {}", show(target)),
        };
        surface.add(
            format!("types {name}"),
            item(ItemKind::Type, format!("types::{name}"), signature, pointer),
        );
        match def {
            TypeDef::Newtype(inner) | TypeDef::Alias(inner) => {
                self.nested(surface, inner, pointer, usage);
            }
            TypeDef::Struct(fields) => {
                let required = schema
                    .map(|schema| required_properties(self.doc, schema))
                    .unwrap_or_default();
                let properties = self.step(pointer, "properties");
                for field in fields {
                    let field_pointer = if properties == pointer {
                        pointer.to_string()
                    } else {
                        self.step(&properties, &field.wire)
                    };
                    let kind = ItemKind::Field {
                        required: required.contains(&field.wire),
                    };
                    surface.add(
                        format!("types {name} field {}", field.wire),
                        item(
                            kind,
                            format!("{name}::{}", field.name),
                            show(&field.ty),
                            &field_pointer,
                        ),
                    );
                    self.nested(surface, &field.ty, &field_pointer, usage);
                }
            }
            TypeDef::Enum(variants) => {
                let values = schema
                    .and_then(|schema| schema.get("enum"))
                    .and_then(Value::as_array);
                // Typify writes a union's variants in the order of its members.
                let members = ["oneOf", "anyOf"].into_iter().find(|keyword| {
                    schema
                        .and_then(|schema| schema.get(*keyword))
                        .and_then(Value::as_array)
                        .is_some_and(|members| members.len() == variants.len())
                });
                for (i, variant) in variants.iter().enumerate() {
                    let wire = variant.wire.as_deref().unwrap_or(&variant.name);
                    let value_index = values.and_then(|values| {
                        values.iter().position(|value| match value {
                            Value::String(text) => text == wire,
                            other => {
                                serde_json::from_str::<Value>(wire).is_ok_and(|read| read == *other)
                            }
                        })
                    });
                    let variant_pointer = match (value_index, members) {
                        (Some(index), _) => format!("{pointer}/enum/{index}"),
                        (None, Some(keyword)) => format!("{pointer}/{keyword}/{i}"),
                        (None, None) => pointer.to_string(),
                    };
                    surface.add(
                        format!("types {name} variant {}", variant.name),
                        item(
                            ItemKind::Variant,
                            format!("{name}::{}", variant.name),
                            variant.payload.shown(),
                            &variant_pointer,
                        ),
                    );
                    for ty in variant.payload.types() {
                        self.nested(surface, ty, &variant_pointer, usage);
                    }
                }
            }
        }
    }

    /// The generated types `ty` names, each from its node: an `Option`'s or
    /// a `Box`'s is the node itself, a `Vec`'s its `items`, a map's value
    /// its `additionalProperties`.
    fn nested(&self, surface: &mut Surface, ty: &syn::Type, pointer: &str, usage: Usage) {
        let Some(head) = type_name_of(ty) else {
            return;
        };
        let arguments = generic_arguments(ty);
        let (inner, step) = match head.as_str() {
            "Option" | "Box" => (arguments.first(), None),
            "Vec" => (arguments.first(), Some("items")),
            "HashMap" | "BTreeMap" | "Map" => (arguments.last(), Some("additionalProperties")),
            _ if self.roots.contains_key(&head) => return,
            _ => return self.add_type(surface, &head, pointer, usage),
        };
        let pointer = match step {
            Some(step) => self.step(pointer, step),
            None => pointer.to_string(),
        };
        if let Some(inner) = inner {
            self.nested(surface, inner, &pointer, usage);
        }
    }
}

/// The properties `schema` requires, its `allOf` members' included (to a
/// depth that ends a cycle of references).
fn required_properties(doc: &Value, schema: &Value) -> Vec<String> {
    required_within(doc, schema, 8)
}

fn required_within(doc: &Value, schema: &Value, depth: usize) -> Vec<String> {
    if depth == 0 {
        return Vec::new();
    }
    let (schema, _) = resolve(doc, schema, String::new());
    let own = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string);
    let merged = schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .flat_map(|member| required_within(doc, member, depth - 1));
    own.chain(merged).collect()
}

/// The Rust type generated for `schema`; `context` is the name an inline
/// object, enum or constrained string gets.
pub fn rust_type(doc: &Value, schema: &Value, context: &str) -> String {
    let ty = if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
        crate::walk::component_schema(target)
            .map(|name| type_name(&name))
            .unwrap_or_else(|| {
                let (resolved, _) = resolve(doc, schema, String::new());
                rust_type(doc, resolved, context)
            })
    } else if ["oneOf", "anyOf", "allOf", "enum"]
        .iter()
        .any(|k| schema.get(k).is_some())
        || schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty())
    {
        context.to_string()
    } else {
        match schema.get("type").and_then(Value::as_str) {
            Some("string") => match schema.get("format").and_then(Value::as_str) {
                Some("date-time") => "DateTime<Utc>".to_string(),
                _ if ["minLength", "maxLength", "pattern"]
                    .iter()
                    .any(|k| schema.get(k).is_some()) =>
                {
                    context.to_string()
                }
                _ => "String".to_string(),
            },
            Some("integer") => match schema.get("format").and_then(Value::as_str) {
                Some("int32") => "i32".to_string(),
                _ => "i64".to_string(),
            },
            Some("number") => "f64".to_string(),
            Some("boolean") => "bool".to_string(),
            Some("array") => {
                let items = schema
                    .get("items")
                    .map(|i| rust_type(doc, i, &format!("{context}Item")))
                    .unwrap_or_else(|| "Value".into());
                format!("Vec<{items}>")
            }
            Some("object") | None => match schema.get("additionalProperties") {
                Some(extra @ Value::Object(_)) => {
                    format!(
                        "Map<String, {}>",
                        rust_type(doc, extra, &format!("{context}Value"))
                    )
                }
                _ if schema.get("type").is_some() => "Map<String, Value>".to_string(),
                _ => "Value".to_string(),
            },
            Some(other) => other.to_string(),
        }
    };
    if schema.get("nullable").and_then(Value::as_bool) == Some(true) {
        format!("Option<{ty}>")
    } else {
        ty
    }
}

/// The type of a struct field: optional fields are `Option`s, except
/// collections, which typify keeps as they are and defaults when absent.
fn field_type(ty: &str, required: bool) -> String {
    if ty.starts_with("Vec<") || ty.starts_with("Map<") {
        ty.to_string()
    } else {
        optional(ty, required)
    }
}

fn optional(ty: &str, required: bool) -> String {
    if required || ty.starts_with("Option<") {
        ty.to_string()
    } else {
        format!("Option<{ty}>")
    }
}

/// The payload of a response variant: its body type and typed headers.
fn response_payload(doc: &Value, response: &Value, context: &str) -> String {
    let body = response
        .get("content")
        .and_then(Value::as_object)
        .and_then(|content| content.values().find_map(|m| m.get("schema")))
        .map(|s| rust_type(doc, s, &format!("{context}Body")));
    let mut headers: Vec<String> = response
        .get("headers")
        .and_then(Value::as_object)
        .map(|h| {
            h.iter()
                .map(|(name, header)| {
                    let (header, _) = resolve(doc, header, String::new());
                    let required = header.get("required").and_then(Value::as_bool) == Some(true);
                    let ty = header
                        .get("schema")
                        .map(|s| rust_type(doc, s, &type_name(name)))
                        .unwrap_or_else(|| "String".into());
                    format!("{}: {}", method_name(name), optional(&ty, required))
                })
                .collect()
        })
        .unwrap_or_default();
    headers.sort();
    match (body, headers.is_empty()) {
        (None, true) => String::new(),
        (Some(body), true) => format!("({body})"),
        (body, false) => {
            let mut fields = Vec::new();
            if let Some(body) = body {
                fields.push(format!("body: {body}"));
            }
            fields.extend(headers);
            format!("{{ {} }}", fields.join(", "))
        }
    }
}

/// One difference between two surfaces, located in the version it comes from.
#[derive(Debug, Clone)]
pub struct SurfaceChange {
    pub effect: RustEffect,
    /// The spec node that produced the item: in the new version, or in the
    /// base version for a removed item.
    pub pointer: String,
    pub in_base: bool,
}

/// Constructors and readers of a type: a request type is built by client
/// users and read by server implementors; a response type the other way round.
fn audience(usage: Usage, constructs: bool) -> Audience {
    match (usage.request, usage.response) {
        (true, false) if constructs => Audience::ClientUsers,
        (true, false) => Audience::ServerImplementors,
        (false, true) if constructs => Audience::ServerImplementors,
        (false, true) => Audience::ClientUsers,
        _ => Audience::Everyone,
    }
}

/// The key of the item that owns `key` (a method for its arguments and
/// variants, a type for its fields and variants), if any.
fn owner(key: &str) -> Option<String> {
    let tokens: Vec<&str> = key.split(' ').collect();
    (tokens.len() > 2).then(|| tokens[..2].join(" "))
}

/// Every item added, removed or changed, as Rust effects. The parts of an
/// item that is itself added or removed are not listed again.
pub fn diff_surfaces(base: &Surface, head: &Surface) -> Vec<SurfaceChange> {
    let mut changes = Vec::new();
    // Parts of an item that is added or removed, or of a type that changes
    // kind, are said by that item's own change.
    let owner_missing = |key: &str, other: &Surface| {
        owner(key).is_some_and(|o| match (base.items.get(&o), head.items.get(&o)) {
            (Some(old), Some(new)) => old.kind == ItemKind::Type && old.signature != new.signature,
            _ => !other.items.contains_key(&o),
        })
    };
    for (key, old) in &base.items {
        match head.items.get(key) {
            None if owner_missing(key, head) => {}
            None => changes.push(SurfaceChange {
                effect: removed(old),
                pointer: old.pointer.clone(),
                in_base: true,
            }),
            Some(_) if owner_missing(key, head) => {}
            Some(new) if new.signature != old.signature || new.kind != old.kind => {
                changes.push(SurfaceChange {
                    effect: changed(old, new),
                    pointer: new.pointer.clone(),
                    in_base: false,
                })
            }
            Some(_) => {}
        }
    }
    for (key, new) in &head.items {
        if !base.items.contains_key(key) && !owner_missing(key, base) {
            changes.push(SurfaceChange {
                effect: added(new),
                pointer: new.pointer.clone(),
                in_base: false,
            });
        }
    }
    changes
}

fn effect(breaking: bool, audience: Audience, text: String) -> RustEffect {
    RustEffect {
        breaking,
        audience,
        text,
    }
}

fn added(item: &Item) -> RustEffect {
    let name = &item.name;
    let sig = &item.signature;
    match item.kind {
        // Every generated trait method has a default body answering 501, so
        // an implementation written before the operation still compiles.
        ItemKind::TraitMethod => effect(
            false,
            Audience::ServerImplementors,
            format!(
                "new trait method `{name}` with a default body (501 Not Implemented): \
                 implementations still compile; override it to serve `{sig}`"
            ),
        ),
        ItemKind::ResponseVariant => effect(
            false,
            Audience::ServerImplementors,
            format!("new response variant `{name}` (exhaustive matches on the enum need an arm)"),
        ),
        ItemKind::ClientMethod => {
            effect(false, Audience::ClientUsers, format!("new method `{name}`"))
        }
        ItemKind::ClientArgument { required: true } => effect(
            true,
            Audience::ClientUsers,
            format!(
                "new required builder argument `{name}({sig})`: calls without it fail before sending"
            ),
        ),
        ItemKind::ClientArgument { required: false } => effect(
            false,
            Audience::ClientUsers,
            format!("new optional builder argument `{name}({sig})`"),
        ),
        ItemKind::Type => effect(
            false,
            Audience::Everyone,
            format!("new type `{name}` ({sig})"),
        ),
        ItemKind::ParamsField => effect(
            false,
            Audience::ServerImplementors,
            format!("new parameter field `{name}: {sig}`"),
        ),
        ItemKind::Field { required: true } => effect(
            true,
            audience(item.usage, true),
            format!("new required field `{name}: {sig}`: struct literals and builders must set it"),
        ),
        ItemKind::Field { required: false } => effect(
            true,
            audience(item.usage, true),
            format!(
                "new optional field `{name}: {sig}`: struct literals need it ({}), builders are unaffected",
                // Typify keeps an optional collection as it is, empty when absent.
                if sig.starts_with("Option<") {
                    "`None`"
                } else {
                    "its default"
                }
            ),
        ),
        ItemKind::Variant => effect(
            true,
            audience(item.usage, false),
            format!("new enum variant `{name}`: exhaustive matches need an arm"),
        ),
    }
}

fn removed(item: &Item) -> RustEffect {
    let name = &item.name;
    match item.kind {
        ItemKind::TraitMethod => effect(
            true,
            Audience::ServerImplementors,
            format!("trait method `{name}` removed: implementations no longer compile"),
        ),
        ItemKind::ResponseVariant => effect(
            true,
            Audience::ServerImplementors,
            format!("response variant `{name}` removed"),
        ),
        ItemKind::ClientMethod => effect(
            true,
            Audience::ClientUsers,
            format!("method `{name}` removed"),
        ),
        ItemKind::ClientArgument { .. } => effect(
            true,
            Audience::ClientUsers,
            format!("builder argument `{name}` removed"),
        ),
        ItemKind::Type => effect(true, Audience::Everyone, format!("type `{name}` removed")),
        ItemKind::Field { .. } => {
            effect(true, Audience::Everyone, format!("field `{name}` removed"))
        }
        ItemKind::ParamsField => effect(
            true,
            Audience::ServerImplementors,
            format!("parameter field `{name}` removed"),
        ),
        ItemKind::Variant => effect(
            true,
            Audience::Everyone,
            format!("enum variant `{name}` removed"),
        ),
    }
}

fn changed(old: &Item, new: &Item) -> RustEffect {
    let name = &new.name;
    let (before, after) = (&old.signature, &new.signature);
    let shown = |s: &str| {
        if s.is_empty() {
            "unit".to_string()
        } else {
            s.to_string()
        }
    };
    match new.kind {
        ItemKind::TraitMethod => effect(
            true,
            Audience::ServerImplementors,
            format!("trait method signature changed: `{before}` -> `{after}`"),
        ),
        ItemKind::ResponseVariant => effect(
            true,
            Audience::ServerImplementors,
            format!(
                "payload of `{name}` changed: `{}` -> `{}`",
                shown(before),
                shown(after)
            ),
        ),
        ItemKind::ClientMethod => effect(false, Audience::ClientUsers, format!("`{name}` changed")),
        ItemKind::ClientArgument { required } => {
            let text = if before == after {
                format!(
                    "builder argument `{name}` became {}",
                    if required { "required" } else { "optional" }
                )
            } else {
                format!("builder argument `{name}` type changed: `{before}` -> `{after}`")
            };
            effect(required || before != after, Audience::ClientUsers, text)
        }
        ItemKind::Type => effect(
            true,
            Audience::Everyone,
            format!("`{name}` changed: {before} -> {after}"),
        ),
        // Same type, other requiredness: typify's builders (and the
        // server's checks) change, struct literals do not.
        ItemKind::Field { required } if before == after => effect(
            required,
            audience(new.usage, true),
            if required {
                format!("field `{name}` became required: builders must set it")
            } else {
                format!("field `{name}` became optional")
            },
        ),
        ItemKind::Field { .. } => effect(
            true,
            Audience::Everyone,
            format!("field `{name}` type changed: `{before}` -> `{after}`"),
        ),
        ItemKind::ParamsField => effect(
            true,
            Audience::ServerImplementors,
            format!("parameter field `{name}` type changed: `{before}` -> `{after}`"),
        ),
        ItemKind::Variant => effect(
            true,
            Audience::Everyone,
            format!(
                "enum variant `{name}` payload changed: `{}` -> `{}`",
                shown(before),
                shown(after)
            ),
        ),
    }
}

/// Pointers that name a whole collection, not one construct: an effect is never attached through them.
const CONTAINERS: [&str; 5] = [
    "",
    "/paths",
    "/servers",
    "/components/schemas",
    "/components/securitySchemes",
];

fn is_ancestor_or_self(ancestor: &str, pointer: &str) -> bool {
    pointer == ancestor
        || (pointer.starts_with(ancestor) && pointer[ancestor.len()..].starts_with('/'))
}

/// Attaches each Rust effect to the HTTP change whose node is the nearest
/// ancestor of (or else the nearest node under) the item's spec node; an
/// effect with no such change becomes a change of its own.
pub fn attach(
    changes: &mut Vec<Change>,
    effects: Vec<SurfaceChange>,
    base: &LoadedSpec,
    head: &LoadedSpec,
) {
    for surface_change in effects {
        let side_pointer = |change: &Change| -> Option<String> {
            let location = if surface_change.in_base {
                change.base.as_ref()
            } else {
                change.head.as_ref()
            };
            location
                .map(|l| l.pointer.clone())
                .filter(|p| !CONTAINERS.contains(&p.as_str()))
        };
        let target = &surface_change.pointer;
        let ancestor = changes
            .iter()
            .enumerate()
            .filter_map(|(i, c)| side_pointer(c).map(|p| (i, p)))
            .filter(|(_, p)| is_ancestor_or_self(p, target))
            .max_by_key(|(i, p)| (p.len(), std::cmp::Reverse(*i)))
            .map(|(i, _)| i);
        let descendant = || {
            changes
                .iter()
                .enumerate()
                .filter_map(|(i, c)| side_pointer(c).map(|p| (i, p)))
                .filter(|(_, p)| is_ancestor_or_self(target, p))
                .min_by_key(|(i, p)| (p.len(), *i))
                .map(|(i, _)| i)
        };
        match ancestor.or_else(descendant) {
            Some(i) => changes[i].rust.push(surface_change.effect),
            None => {
                let location = if surface_change.in_base {
                    (Some(locate(base, target)), None)
                } else {
                    (None, Some(locate(head, target)))
                };
                let (level, direction, rule) = crate::rules::RUST_API_CHANGED.usual().classify();
                changes.push(Change {
                    rule,
                    level,
                    direction,
                    message: format!(
                        "the generated Rust API changed with no HTTP-level change here: {}",
                        surface_change.effect.text
                    ),
                    base: location.0,
                    head: location.1,
                    rust: vec![surface_change.effect],
                    acknowledged: None,
                });
            }
        }
    }
    for change in changes.iter_mut() {
        change.rust.sort();
        change.rust.dedup();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc_with(schema: Value) -> Value {
        json!({"openapi": "3.0.3", "components": {"schemas": {"Thing": schema}}})
    }

    #[test]
    fn optional_fields_are_options_and_constrained_strings_are_newtypes() {
        let doc = doc_with(json!({
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": {"type": "string", "maxLength": 5},
                "note": {"type": "string"},
                "when": {"type": "string", "format": "date-time", "nullable": true},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}
            }
        }));
        let surface = Surface::of(&doc, &Generated::default());
        let sig = |key: &str| surface.items[key].signature.clone();
        assert_eq!(sig("types Thing"), "struct");
        assert_eq!(sig("types Thing field id"), "ThingId");
        assert_eq!(sig("types Thing field note"), "Option<String>");
        assert_eq!(sig("types Thing field when"), "Option<DateTime<Utc>>");
        assert_eq!(sig("types Thing field tags"), "Vec<ThingTagsItem>");
        assert_eq!(sig("types ThingId"), "newtype String (validated)");
        assert!(surface.items.contains_key("types ThingTagsItem variant B"));
    }

    #[test]
    fn a_field_becoming_optional_changes_its_type() {
        let none = Generated::default();
        let before = Surface::of(
            &doc_with(json!({
                "type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}
            })),
            &none,
        );
        let after = Surface::of(
            &doc_with(json!({
                "type": "object", "properties": {"a": {"type": "integer"}}
            })),
            &none,
        );
        let diff = diff_surfaces(&before, &after);
        assert_eq!(diff.len(), 1);
        assert!(diff[0].effect.breaking);
        assert!(
            diff[0].effect.text.contains("`i64` -> `Option<i64>`"),
            "{:?}",
            diff[0]
        );
    }

    #[test]
    fn ancestry_is_by_whole_tokens() {
        assert!(is_ancestor_or_self("/a/b", "/a/b/c"));
        assert!(is_ancestor_or_self("/a/b", "/a/b"));
        assert!(!is_ancestor_or_self("/a/b", "/a/bc"));
    }
}
