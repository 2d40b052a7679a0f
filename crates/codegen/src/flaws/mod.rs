//! Flaws of a description that touch one annotation, one schema or one
//! reference, read another way with a located warning, so that one flaw of
//! a published description does not refuse the whole API (`--strict`
//! refuses it instead). Every reading changes the document itself, before
//! anything else reads it ([`crate::prepare_document`]): the model, the
//! server's checks, progenitor's view and the mock all read the same
//! description, and each warning says what they read.
//!
//! - A `$ref` naming a component of another kind (a response's naming an
//!   entry of `components/requestBodies`) whose content fits the place is
//!   read as a component of the kind the place needs (a copy, under the
//!   same name in that section).
//! - A security requirement naming a scheme `components/securitySchemes`
//!   does not declare: a scheme declared under a name that differs only in
//!   case or punctuation is read; otherwise the name is dropped from the
//!   requirement (a requirement left empty goes), unless that would leave a
//!   list of requirements empty, which would make what it protects public:
//!   then the scheme is read as an HTTP bearer token of that name.
//! - A `pattern` (or a `patternProperties` name) that is not an ECMA-262
//!   regular expression is dropped: the string is not constrained by it.
//! - A `format` that misspells one of OpenAPI's or JSON Schema's formats
//!   (`datetime`, `UUID`) or names a type (`format: string`) is read as no
//!   format. Any other format the generator does not know is an
//!   annotation, as OpenAPI says, with no warning (a vendor's `snowflake`).
//! - `enum` members the schema's `type` excludes (`3` in a string enum)
//!   are dropped; where none is left, the `enum` goes (any value of the
//!   type passes). A `null` listed is no flaw: it makes the schema
//!   nullable, as the model reads it. A 3.1 `const` is an enum of one and
//!   is read the same way.
//! - `required` naming a property no `properties` of the schema (nor of
//!   the `allOf`/`anyOf`/`oneOf` around or inside it) declares, where
//!   undeclared properties are not typed by `additionalProperties`: where
//!   `additionalProperties: false` refuses it, no value could pass, and the
//!   name is not required; elsewhere it is read as written (an undeclared
//!   property that must be there, which the server requires, the mock
//!   sends and the generated types carry as a field of any JSON value,
//!   typify's reading), with the warning only:
//!   the description's own servers and clients follow what it says.
//! - A discriminator `mapping` entry naming a schema that does not exist
//!   goes (one that refers nowhere is dropped while bundling).
//! - A `default`, `example` (of a schema, a media type or a parameter, and
//!   each of `examples`) or 3.0 `const` its schema does not admit is
//!   dropped: the types have no default there, and the mock does not send
//!   the example.

mod cycles;
mod paths;
mod routes;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

use serde_json::{Map, Value};

use crate::diagnostic::{escape_pointer_token, pointer_join};
use crate::load::LoadedSpec;
use crate::model::refs;
use crate::readings::Reading;
use crate::vocabulary::METHODS;
use crate::walk;

/// Reads every flaw of `spec` as the module docs say, with a warning each.
pub fn read_flaws(spec: &mut LoadedSpec) {
    paths::read_path_parameters(spec);
    routes::read_routes_alike(spec);
    cycles::read_composition_cycles(spec);
    let combined = references_of_another_kind(spec);
    undeclared_security_schemes(spec);
    let edits = schema_keywords(spec, &combined);
    apply(&mut spec.document, edits);
    let edits = data_values(spec);
    apply(&mut spec.document, edits);
}

/// One change to the document: the member `key` of the object at
/// `pointer` set to a value, or removed.
struct Edit {
    pointer: String,
    key: String,
    value: Option<Value>,
}

impl Edit {
    fn remove(pointer: &str, key: &str) -> Self {
        Self {
            pointer: pointer.to_string(),
            key: key.to_string(),
            value: None,
        }
    }

    fn set(pointer: &str, key: &str, value: Value) -> Self {
        Self {
            pointer: pointer.to_string(),
            key: key.to_string(),
            value: Some(value),
        }
    }
}

fn apply(document: &mut Value, edits: Vec<Edit>) {
    for edit in edits {
        let Some(Value::Object(object)) = document.pointer_mut(&edit.pointer) else {
            continue;
        };
        match edit.value {
            Some(value) => {
                object.insert(edit.key, value);
            }
            None => {
                object.shift_remove(&edit.key);
            }
        }
    }
}

/// A value as messages quote it: compact JSON, cut short.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 40 {
        return text;
    }
    let cut: String = text.chars().take(37).collect();
    format!("{cut}...")
}

// ---------------------------------------------------------------------------
// References of another kind
// ---------------------------------------------------------------------------

/// The sections whose entries a reference may be read across.
const KINDS: &[(&str, &str)] = &[
    ("schemas", "a schema"),
    ("parameters", "a parameter"),
    ("headers", "a header"),
    ("requestBodies", "a request body"),
    ("responses", "a response"),
];

fn kind_name(section: &str) -> Option<&'static str> {
    KINDS
        .iter()
        .find(|(known, _)| *known == section)
        .map(|(_, name)| *name)
}

const PARAMETER_KEYS: &[&str] = &[
    "name",
    "in",
    "description",
    "required",
    "deprecated",
    "allowEmptyValue",
    "style",
    "explode",
    "allowReserved",
    "schema",
    "example",
    "examples",
    "content",
];

/// Every keyword a schema may hold (JSON Schema's and OpenAPI's).
const SCHEMA_KEYS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "default",
    "example",
    "examples",
    "enum",
    "const",
    "nullable",
    "readOnly",
    "writeOnly",
    "deprecated",
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "items",
    "prefixItems",
    "contains",
    "minContains",
    "maxContains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "discriminator",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "contentMediaType",
    "contentEncoding",
    "xml",
    "externalDocs",
    "$comment",
    "$defs",
    "$id",
    "$schema",
];

/// `node` read as an entry of `section`, when its content fits one: it
/// holds what such an entry must and nothing that means something else
/// there (a parameter's `name` and `in` are dropped for a header, a request
/// body's `required` for a response).
fn as_kind(section: &str, node: &Map<String, Value>) -> Option<Map<String, Value>> {
    let only = |allowed: &[&str]| {
        node.keys()
            .all(|key| key.starts_with("x-") || allowed.contains(&key.as_str()))
    };
    let typed = node.contains_key("schema") || node.get("content").is_some_and(Value::is_object);
    let mut copy = node.clone();
    let fits = match section {
        "parameters" => {
            let located = matches!(
                node.get("in").and_then(Value::as_str),
                Some("query" | "header" | "path" | "cookie")
            );
            node.get("name").is_some_and(Value::is_string)
                && located
                && typed
                && only(PARAMETER_KEYS)
        }
        "headers" => {
            copy.shift_remove("name");
            copy.shift_remove("in");
            typed
                && only(PARAMETER_KEYS)
                && node.get("in").is_none_or(|location| location == "header")
        }
        "requestBodies" => {
            node.get("content").is_some_and(Value::is_object)
                && only(&["description", "content", "required"])
        }
        "responses" => {
            copy.shift_remove("required");
            if !copy.contains_key("description") {
                copy.insert("description".into(), Value::String(String::new()));
            }
            (node.get("description").is_some_and(Value::is_string)
                || node.get("content").is_some_and(Value::is_object))
                && only(&["description", "headers", "content", "links", "required"])
        }
        "schemas" => only(SCHEMA_KEYS),
        _ => false,
    };
    fits.then_some(copy)
}

/// Reads a `$ref` naming a component of another kind than its place needs
/// as one of that kind, where the content fits (see [`as_kind`]): the
/// component is copied into the place's section (under its own name, or
/// with a suffix where another entry has it) and the `$ref` names the
/// copy. One that does not fit is left for the model to refuse. Returns
/// the pointers of the schemas an `allOf`, `anyOf` or `oneOf` names by
/// `$ref` (see [`required_names`]).
fn references_of_another_kind(spec: &mut LoadedSpec) -> BTreeSet<String> {
    let mut found: Vec<(String, &'static str, String)> = Vec::new();
    let mut combined: BTreeSet<String> = BTreeSet::new();
    walk::for_each_reference(&spec.document, |pointer, section, target| {
        if section == "schemas"
            && combined_in(pointer).is_some()
            && let Some(target) = refs::target_pointer(target)
        {
            combined.insert(target.to_string());
        }
        let Some(rest) = target.strip_prefix("#/components/") else {
            return;
        };
        let written = rest.split('/').next().unwrap_or_default();
        if written != section && kind_name(written).is_some() && kind_name(section).is_some() {
            found.push((pointer.to_string(), section, target.to_string()));
        }
    });
    // Each component is copied once per section it is read as.
    let mut copies: BTreeMap<(String, &'static str), String> = BTreeMap::new();
    for (holder, section, target) in found {
        let Some(target_pointer) = refs::target_pointer(&target) else {
            continue;
        };
        let Ok((Value::Object(node), followed)) =
            refs::follow_pointer(&spec.document, target_pointer)
        else {
            continue;
        };
        // A chain of references may end in the right section after all.
        if followed.starts_with(&format!("/components/{section}/")) {
            continue;
        }
        let Some(copy) = as_kind(section, node) else {
            continue;
        };
        let key = (followed.clone(), section);
        let name = match copies.get(&key) {
            Some(name) => name.clone(),
            None => {
                let name = place_copy(spec, section, &followed, copy);
                copies.insert(key, name.clone());
                name
            }
        };
        let written_kind = followed
            .strip_prefix("/components/")
            .and_then(|rest| rest.split('/').next())
            .and_then(kind_name)
            .unwrap_or("another kind of component");
        let needed = kind_name(section).unwrap_or_default();
        let reference = format!("#/components/{section}/{}", escape_pointer_token(&name));
        spec.warn_at(
            Reading::RefToAnotherKind,
            &pointer_join(&holder, "$ref"),
            format!(
                "`$ref: {target}` names {written_kind} where {needed} belongs; its content \
                 fits {needed}, so it is read as one (`{reference}`)"
            ),
        );
        if let Some(Value::Object(object)) = spec.document.pointer_mut(&holder) {
            object.insert("$ref".into(), Value::String(reference));
        }
    }
    combined
}

/// Puts `copy` of the node at `followed` into `components/{section}`
/// under the node's name (with the first free suffix where another entry
/// has it), so messages about the copy point where the node was written;
/// returns the name.
fn place_copy(
    spec: &mut LoadedSpec,
    section: &str,
    followed: &str,
    copy: Map<String, Value>,
) -> String {
    let base = followed
        .rsplit('/')
        .next()
        .map(refs::unescape_pointer_token)
        .unwrap_or_default();
    let copy = Value::Object(copy);
    let Some(root) = spec.document.as_object_mut() else {
        return base;
    };
    let components = root
        .entry("components")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(entries) = components.as_object_mut().and_then(|components| {
        components
            .entry(section)
            .or_insert_with(|| Value::Object(Map::new()))
            .as_object_mut()
    }) else {
        return base;
    };
    let mut name = base.clone();
    let mut suffix = 1;
    while entries.get(&name).is_some_and(|entry| *entry != copy) {
        suffix += 1;
        name = format!("{base}-{suffix}");
    }
    if !entries.contains_key(&name) {
        entries.insert(name.clone(), copy);
        let moved = pointer_join(&format!("/components/{section}"), &name);
        let written = spec.source_map.original(followed);
        spec.source_map.alias(&moved, &written);
    }
    name
}

// ---------------------------------------------------------------------------
// Security requirements
// ---------------------------------------------------------------------------

/// A scheme's name as names that differ only in case or punctuation share
/// it (`api_key`, `ApiKey`, `api-key`).
fn loose_name(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Reads the security requirements that name a scheme
/// `components/securitySchemes` does not declare (see the module docs).
/// Never makes an operation public: a list of requirements only some of
/// whose alternatives name undeclared schemes keeps the others; one that
/// would be left empty reads the undeclared schemes as bearer tokens.
fn undeclared_security_schemes(spec: &mut LoadedSpec) {
    let declared: Vec<String> = spec
        .document
        .pointer("/components/securitySchemes")
        .and_then(Value::as_object)
        .map(|schemes| schemes.keys().cloned().collect())
        .unwrap_or_default();
    let mut lists: Vec<String> = Vec::new();
    if spec.document.get("security").is_some_and(Value::is_array) {
        lists.push("/security".into());
    }
    for site in walk::path_items(&spec.document) {
        for method in &METHODS {
            if site
                .item
                .get(*method)
                .and_then(|operation| operation.get("security"))
                .is_some_and(Value::is_array)
            {
                lists.push(pointer_join(
                    &pointer_join(&site.pointer, method),
                    "security",
                ));
            }
        }
    }
    // Each list's requirements as (scheme, scopes) pairs.
    type Requirement = Vec<(String, Value)>;
    let read = |document: &Value, list: &str| -> Vec<Requirement> {
        document
            .pointer(list)
            .and_then(Value::as_array)
            .map(|requirements| {
                requirements
                    .iter()
                    .map(|requirement| {
                        requirement
                            .as_object()
                            .map(|schemes| {
                                schemes
                                    .iter()
                                    .map(|(name, scopes)| (name.clone(), scopes.clone()))
                                    .collect()
                            })
                            .unwrap_or_default()
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let is_declared = |name: &str| declared.iter().any(|known| known == name);
    // Names declared otherwise than written are read as the declared one.
    let renamed = |name: &str| -> Option<&String> {
        let mut matches = declared
            .iter()
            .filter(|known| loose_name(known) == loose_name(name));
        let found = matches.next()?;
        matches.next().is_none().then_some(found)
    };
    // The undeclared names without which some list would be empty.
    let mut as_bearer: Vec<String> = Vec::new();
    for list in &lists {
        let requirements = read(&spec.document, list);
        let emptied = !requirements.is_empty()
            && requirements.iter().all(|requirement| {
                !requirement.is_empty()
                    && requirement
                        .iter()
                        .all(|(name, _)| !is_declared(name) && renamed(name).is_none())
            });
        if emptied {
            for (name, _) in requirements.iter().flatten() {
                if !as_bearer.contains(name) {
                    as_bearer.push(name.clone());
                }
            }
        }
    }
    let mut bearer_declared_at: BTreeMap<String, String> = BTreeMap::new();
    for list in &lists {
        let requirements = read(&spec.document, list);
        let mut rewritten: Vec<Value> = Vec::new();
        let mut changed = false;
        for (index, requirement) in requirements.iter().enumerate() {
            let at = pointer_join(list, &index.to_string());
            let mut kept = Map::new();
            for (name, scopes) in requirement {
                let name_pointer = pointer_join(&at, name);
                let undeclared = format!(
                    "security scheme `{name}` is not declared under components/securitySchemes"
                );
                if is_declared(name) {
                    kept.insert(name.clone(), scopes.clone());
                } else if let Some(known) = renamed(name) {
                    spec.warn_at(
                        Reading::SchemeUndeclared,
                        &name_pointer,
                        format!(
                            "{undeclared}; read as `{known}`, declared under a name that \
                             differs only in case or punctuation"
                        ),
                    );
                    kept.insert(known.clone(), scopes.clone());
                    changed = true;
                } else if as_bearer.contains(name) {
                    spec.warn_at(
                        Reading::SchemeUndeclared,
                        &name_pointer,
                        format!(
                            "{undeclared}; read as an HTTP bearer token (`Authorization: \
                             Bearer`) named `{name}`, since without it no credential would \
                             be needed here"
                        ),
                    );
                    bearer_declared_at
                        .entry(name.clone())
                        .or_insert(name_pointer);
                    kept.insert(name.clone(), scopes.clone());
                } else {
                    spec.warn_at(
                        Reading::SchemeUndeclared,
                        &name_pointer,
                        format!(
                            "{undeclared}; read without it (the other schemes and \
                             requirements stand)"
                        ),
                    );
                    changed = true;
                }
            }
            // A requirement left empty would let anyone in: it goes.
            if requirement.is_empty() || !kept.is_empty() {
                rewritten.push(Value::Object(kept));
            }
        }
        if changed && let Some(list_value) = spec.document.pointer_mut(list) {
            *list_value = Value::Array(rewritten);
        }
    }
    for (name, first_use) in bearer_declared_at {
        let Some(root) = spec.document.as_object_mut() else {
            return;
        };
        let components = root
            .entry("components")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(schemes) = components.as_object_mut().and_then(|components| {
            components
                .entry("securitySchemes")
                .or_insert_with(|| Value::Object(Map::new()))
                .as_object_mut()
        }) {
            schemes.insert(
                name.clone(),
                serde_json::json!({"type": "http", "scheme": "bearer"}),
            );
            let written = spec.source_map.original(&first_use);
            spec.source_map.alias(
                &pointer_join("/components/securitySchemes", &name),
                &written,
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Keywords of schemas: patterns, formats, enums, const, required, mappings
// ---------------------------------------------------------------------------

/// The formats of OpenAPI's format registry and of JSON Schema, and the
/// spellings typify or the server read (`ip`, `url`).
const KNOWN_FORMATS: &[&str] = &[
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float",
    "double",
    "decimal",
    "decimal128",
    "byte",
    "binary",
    "base64url",
    "char",
    "password",
    "date",
    "date-time",
    "time",
    "duration",
    "http-date",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ip",
    "ipv4",
    "ipv6",
    "uri",
    "url",
    "uri-reference",
    "uri-template",
    "iri",
    "iri-reference",
    "uuid",
    "json-pointer",
    "relative-json-pointer",
    "regex",
    "media-range",
    "commonmark",
    "html",
    "sf-binary",
    "sf-boolean",
    "sf-decimal",
    "sf-integer",
    "sf-string",
    "sf-token",
];

const TYPE_NAMES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// Why `format` is a flaw, when it is one: a known format spelled another
/// way (`datetime`, `UUID`), or a type's name. Any other unknown format is
/// a vendor's annotation.
fn format_flaw(format: &str) -> Option<String> {
    if KNOWN_FORMATS.contains(&format) {
        return None;
    }
    if TYPE_NAMES.contains(&format.to_ascii_lowercase().as_str()) {
        return Some(format!("`format: {format}` names a type, not a format"));
    }
    let loose = loose_name(format);
    KNOWN_FORMATS
        .iter()
        .find(|known| loose_name(known) == loose)
        .map(|known| {
            format!("`format: {format}` is no format OpenAPI or JSON Schema defines; `{known}` is")
        })
}

/// Subschemas only the server reads (JSON Schema keywords 3.0 cannot
/// spell): their `required` means what JSON Schema says, whatever the
/// types hold.
fn server_only(pointer: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "not",
        "if",
        "then",
        "else",
        "dependentSchemas",
        "contains",
        "x-contains",
        "propertyNames",
        "prefixItems",
        "unevaluatedProperties",
        "unevaluatedItems",
    ];
    pointer.split('/').any(|token| KEYWORDS.contains(&token))
}

/// The JSON types `type: kind` admits `value` as.
fn of_type(kind: &str, value: &Value) -> bool {
    match kind {
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "number" => value.is_number(),
        "integer" => is_integer(value),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => true,
    }
}

fn is_integer(value: &Value) -> bool {
    match value {
        Value::Number(number) => {
            number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// Whether the 3.1 document wrote `const` where the lowered one has the
/// `enum` of one at `pointer`: its place is known, the `enum`'s is not.
fn written_as_const(spec: &LoadedSpec, pointer: &str) -> bool {
    let here = spec.source_map.locate(pointer);
    spec.source_map.locate(&pointer_join(pointer, "enum")) == here
        && spec.source_map.locate(&pointer_join(pointer, "const")) != here
}

/// The readings of the keywords of every schema: patterns, formats,
/// enums, 3.0 `const`, `required` and discriminator mappings by name.
fn schema_keywords(spec: &LoadedSpec, combined: &BTreeSet<String>) -> Vec<Edit> {
    let document = &spec.document;
    let schema_names: BTreeSet<&str> = document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|schemas| schemas.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let mut edits = Vec::new();
    // Flawed formats, each with every place it is written, in order.
    let mut formats: Vec<(String, String, Vec<String>)> = Vec::new();
    walk::for_each_schema(document, |site, schema| {
        let Value::Object(object) = schema else {
            return;
        };
        let pointer = site.pointer;
        if object.contains_key("$ref") {
            return;
        }
        pattern(spec, pointer, object, &mut edits);
        if let Some(Value::String(format)) = object.get("format")
            && let Some(cause) = format_flaw(format)
        {
            match formats.iter_mut().find(|(seen, _, _)| seen == format) {
                Some((_, _, places)) => places.push(pointer.to_string()),
                None => formats.push((format.clone(), cause, vec![pointer.to_string()])),
            }
        }
        enum_members(spec, pointer, object, &mut edits);
        if let Some(value) = object.get("const")
            && let Err(reason) = Admission::new(document).check(schema, value, 0)
        {
            spec.warn_at(
                Reading::ValueNotAdmitted,
                &pointer_join(pointer, "const"),
                format!(
                    "`const: {}` is not a value of its own schema ({reason}), so no value \
                     could pass; read without it",
                    shown(value)
                ),
            );
            edits.push(Edit::remove(pointer, "const"));
        }
        required_names(spec, pointer, object, combined, &mut edits);
        if let Some(Value::Object(mapping)) = object
            .get("discriminator")
            .and_then(|discriminator| discriminator.get("mapping"))
        {
            let mapping_pointer = pointer_join(&pointer_join(pointer, "discriminator"), "mapping");
            for (key, target) in mapping {
                if let Value::String(name) = target
                    && !crate::bundle::mapping_is_reference(name)
                    && !schema_names.contains(name.as_str())
                {
                    spec.warn_at(
                        Reading::MappingTargetMissing,
                        &pointer_join(&mapping_pointer, key),
                        format!(
                            "the discriminator's mapping of `{key}` names the schema `{name}`, \
                             which components/schemas does not define; read without it"
                        ),
                    );
                    edits.push(Edit::remove(&mapping_pointer, key));
                }
            }
        }
    });
    for (_, cause, places) in formats {
        let others = match places.len() - 1 {
            0 => String::new(),
            1 => " (here and in 1 other place)".to_string(),
            more => format!(" (here and in {more} other places)"),
        };
        spec.warn_at(
            Reading::FormatMisspelled,
            &pointer_join(&places[0], "format"),
            format!("{cause}; read as no format{others}"),
        );
        for place in places {
            edits.push(Edit::remove(&place, "format"));
        }
    }
    edits
}

/// A `pattern` no ECMA-262 engine reads, or a `patternProperties` name
/// that is none, goes.
fn pattern(spec: &LoadedSpec, pointer: &str, object: &Map<String, Value>, edits: &mut Vec<Edit>) {
    match object.get("pattern") {
        None => {}
        Some(Value::String(text)) => {
            // The generated types and the server compile it with regress.
            if let Err(err) = regress::Regex::new(text) {
                spec.warn_at(
                    Reading::PatternInvalid,
                    &pointer_join(pointer, "pattern"),
                    format!(
                        "`pattern` is not a valid ECMA-262 regular expression: {err}; read \
                         without it (the string is not constrained by a pattern)"
                    ),
                );
                edits.push(Edit::remove(pointer, "pattern"));
            }
        }
        Some(other) => {
            spec.warn_at(
                Reading::PatternInvalid,
                &pointer_join(pointer, "pattern"),
                format!(
                    "`pattern` must be a string, found {}; read without it",
                    shown(other)
                ),
            );
            edits.push(Edit::remove(pointer, "pattern"));
        }
    }
    if let Some(Value::Object(patterns)) = object.get("patternProperties") {
        let patterns_pointer = pointer_join(pointer, "patternProperties");
        for text in patterns.keys() {
            if let Err(err) = regress::Regex::new(text) {
                spec.warn_at(
                    Reading::PatternInvalid,
                    &pointer_join(&patterns_pointer, text),
                    format!(
                        "`{text}` is not a valid ECMA-262 regular expression: {err}; read \
                         without this entry of `patternProperties` (the names it was to \
                         match are additional properties)"
                    ),
                );
                edits.push(Edit::remove(&patterns_pointer, text));
            }
        }
    }
}

/// `enum` members the schema's `type` excludes go (a `null` listed makes
/// the schema nullable); an enum left without members goes.
fn enum_members(
    spec: &LoadedSpec,
    pointer: &str,
    object: &Map<String, Value>,
    edits: &mut Vec<Edit>,
) {
    let (Some(Value::Array(members)), Some(Value::String(kind))) =
        (object.get("enum"), object.get("type"))
    else {
        return;
    };
    // A `null` listed makes the schema nullable, as typify and the
    // server's checks read it (`model::validation`).
    let admitted = |member: &Value| of_type(kind, member) || member.is_null();
    let Some(first) = members.iter().position(|member| !admitted(member)) else {
        return;
    };
    let excluded: Vec<String> = members
        .iter()
        .filter(|member| !admitted(member))
        .map(shown)
        .collect();
    let kept: Vec<Value> = members.iter().filter(|m| admitted(m)).cloned().collect();
    let why = format!("`type: {kind}` excludes");
    if written_as_const(spec, pointer) {
        spec.warn_at(
            Reading::EnumMemberExcluded,
            &pointer_join(pointer, "const"),
            format!(
                "`const: {}` is a value {why}, so no value could pass; read without it \
                 (any {kind} passes)",
                excluded.join(", ")
            ),
        );
        edits.push(Edit::remove(pointer, "enum"));
        return;
    }
    let at = pointer_join(&pointer_join(pointer, "enum"), &first.to_string());
    if kept.is_empty() {
        spec.warn_at(
            Reading::EnumMemberExcluded,
            &at,
            format!(
                "`enum` lists only values {why} ({}); read without the `enum` (any {kind} \
                 passes)",
                excluded.join(", ")
            ),
        );
        edits.push(Edit::remove(pointer, "enum"));
    } else {
        spec.warn_at(
            Reading::EnumMemberExcluded,
            &at,
            format!(
                "`enum` lists {}, which {why}; read without {}",
                excluded.join(", "),
                if excluded.len() == 1 { "it" } else { "them" }
            ),
        );
        edits.push(Edit::set(pointer, "enum", Value::Array(kept)));
    }
}

/// Adds the properties `schema` (and the schemas it combines) declares to
/// `declared`; `false` when undeclared names may be typed
/// (`additionalProperties` with a schema, `patternProperties`), so no name
/// can be said to be undeclared.
fn declared_properties(
    document: &Value,
    schema: &Value,
    depth: usize,
    declared: &mut BTreeSet<String>,
) -> bool {
    if depth > 16 {
        return true;
    }
    let Value::Object(object) = schema else {
        return true;
    };
    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        return match refs::target_pointer(reference).and_then(|target| document.pointer(target)) {
            Some(target) => declared_properties(document, target, depth + 1, declared),
            None => false,
        };
    }
    if object.contains_key("patternProperties")
        || matches!(
            object.get("additionalProperties"),
            Some(Value::Object(_) | Value::Bool(true))
        )
    {
        return false;
    }
    if let Some(Value::Object(properties)) = object.get("properties") {
        declared.extend(properties.keys().cloned());
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = object.get(keyword) {
            for member in members {
                if !declared_properties(document, member, depth + 1, declared) {
                    return false;
                }
            }
        }
    }
    true
}

/// The schema `pointer` is a member of (`.../allOf/0` is one of `...`).
fn combined_in(pointer: &str) -> Option<&str> {
    let (rest, index) = pointer.rsplit_once('/')?;
    index.parse::<usize>().ok()?;
    let (parent, keyword) = rest.rsplit_once('/')?;
    matches!(keyword, "allOf" | "anyOf" | "oneOf").then_some(parent)
}

/// `required` names no declared property (see the module docs): the name
/// is not required. A schema that another combines by `$ref` is not
/// judged: what it requires may be declared beside it.
fn required_names(
    spec: &LoadedSpec,
    pointer: &str,
    object: &Map<String, Value>,
    combined: &BTreeSet<String>,
    edits: &mut Vec<Edit>,
) {
    let Some(Value::Array(required)) = object.get("required") else {
        return;
    };
    // A component another schema combines (`allOf: [$ref: Base, ..]`) may
    // require what the schemas combining it declare.
    if !object.contains_key("properties") || server_only(pointer) || combined.contains(pointer) {
        return;
    }
    let document = &spec.document;
    let mut declared = BTreeSet::new();
    let Some(schema) = document.pointer(pointer) else {
        return;
    };
    if !declared_properties(document, schema, 0, &mut declared) {
        return;
    }
    let mut current = pointer;
    while let Some(parent) = combined_in(current) {
        match document.pointer(parent) {
            Some(schema) if declared_properties(document, schema, 0, &mut declared) => {}
            _ => return,
        }
        current = parent;
    }
    let mut undeclared: Vec<(usize, &str)> = required
        .iter()
        .enumerate()
        .filter_map(|(index, name)| Some((index, name.as_str()?)))
        .filter(|(_, name)| !declared.contains(*name))
        .collect();
    // A name spelled like one declared property but for case or
    // punctuation (`Client` beside `client`) means that one: read as
    // written, it would be a second field of the same Rust name.
    let mut kept: Vec<Value> = required.clone();
    let mut respelled = false;
    undeclared.retain(|&(index, name)| {
        let alike: Vec<&String> = declared
            .iter()
            .filter(|known| crate::naming::field_name(known) == crate::naming::field_name(name))
            .collect();
        let [known] = alike[..] else {
            return true;
        };
        spec.warn_at(
            Reading::RequiredUndeclared,
            &pointer_join(&pointer_join(pointer, "required"), &index.to_string()),
            format!(
                "`required` names `{name}`, which no `properties` declares; read as `{known}`, \
                 declared under a name that differs only in case or punctuation"
            ),
        );
        kept[index] = Value::String(known.clone());
        respelled = true;
        false
    });
    if respelled {
        let mut seen = BTreeSet::new();
        kept.retain(|name| {
            name.as_str()
                .is_none_or(|name| seen.insert(name.to_string()))
        });
        edits.push(Edit::set(pointer, "required", Value::Array(kept.clone())));
    }
    let Some((first, _)) = undeclared.first() else {
        return;
    };
    let names: Vec<String> = undeclared
        .iter()
        .map(|(_, name)| format!("`{name}`"))
        .collect();
    let place = pointer_join(&pointer_join(pointer, "required"), &first.to_string());
    let closed = object.get("additionalProperties") == Some(&Value::Bool(false));
    if !closed {
        // JSON Schema gives it a meaning: an undeclared property that must
        // be there. The description's servers answer so and its clients
        // are judged so; only the generated types cannot carry it.
        spec.warn_at(
            Reading::RequiredUndeclared,
            &place,
            format!(
                "`required` names {}, which no `properties` declares; read as written (an \
                 undeclared property that must be there: the server requires it, and the \
                 generated types have a field of any JSON value for it)",
                names.join(", ")
            ),
        );
        return;
    }
    spec.warn_at(
        Reading::RequiredUndeclared,
        &place,
        format!(
            "`required` names {}, which no `properties` declares (`additionalProperties: false` \
             refuses it, so no value could pass); read as not required",
            names.join(", ")
        ),
    );
    let kept: Vec<Value> = kept
        .iter()
        .filter(|name| {
            name.as_str()
                .is_none_or(|name| !undeclared.iter().any(|(_, seen)| *seen == name))
        })
        .cloned()
        .collect();
    if kept.is_empty() {
        edits.push(Edit::remove(pointer, "required"));
    } else {
        edits.push(Edit::set(pointer, "required", Value::Array(kept)));
    }
}

// ---------------------------------------------------------------------------
// Data: defaults and examples
// ---------------------------------------------------------------------------

/// The `default`s and examples their schema does not admit go.
fn data_values(spec: &LoadedSpec) -> Vec<Edit> {
    let document = &spec.document;
    let admission = Admission::new(document);
    let mut edits = Vec::new();
    walk::for_each_schema(document, |site, schema| {
        let pointer = site.pointer;
        // The examples of the media type or parameter this schema is the
        // schema of.
        if site.top_level
            && let Some(holder) = pointer.strip_suffix("/schema")
            && !holder.starts_with("/components/schemas")
            && let Some(Value::Object(holder_object)) = document.pointer(holder)
        {
            if let Some(value) = holder_object.get("example")
                && let Err(reason) = admission.check(schema, value, 0)
            {
                spec.warn_at(
                    Reading::ValueNotAdmitted,
                    &pointer_join(holder, "example"),
                    format!(
                        "`example: {}` is not a value of its schema ({reason}); read without it",
                        shown(value)
                    ),
                );
                edits.push(Edit::remove(holder, "example"));
            }
            if let Some(Value::Object(examples)) = holder_object.get("examples") {
                let examples_pointer = pointer_join(holder, "examples");
                for (name, example) in examples {
                    let followed = refs::follow(document, example, "")
                        .map(|(example, _)| example)
                        .unwrap_or(example);
                    let Some(value) = followed.get("value") else {
                        continue;
                    };
                    if let Err(reason) = admission.check(schema, value, 0) {
                        spec.warn_at(
                            Reading::ValueNotAdmitted,
                            &pointer_join(&examples_pointer, name),
                            format!(
                                "the example `{name}` is not a value of its schema ({reason}); \
                                 read without it"
                            ),
                        );
                        edits.push(Edit::remove(&examples_pointer, name));
                    }
                }
            }
        }
        let Value::Object(object) = schema else {
            return;
        };
        // Beside a `$ref`, OpenAPI 3.0 reads no other keyword.
        if object.contains_key("$ref") {
            return;
        }
        for keyword in ["default", "example"] {
            if let Some(value) = object.get(keyword)
                && let Err(reason) = admission.check(schema, value, 0)
            {
                let reading = match keyword {
                    "default" => "read without a default",
                    _ => "read without it",
                };
                spec.warn_at(
                    Reading::ValueNotAdmitted,
                    &pointer_join(pointer, keyword),
                    format!(
                        "`{keyword}: {}` is not a value of its schema ({reason}); {reading}",
                        shown(value)
                    ),
                );
                edits.push(Edit::remove(pointer, keyword));
            }
        }
    });
    edits
}

/// Whether a value is one a schema admits, as JSON Schema (with OpenAPI
/// 3.0's `nullable`) says, and as far as a default or an example is
/// judged: every validation keyword, the formats the types read natively
/// (a UUID, a date, a date-time, an IP address), `oneOf` as `anyOf`, `not`
/// not at all.
struct Admission<'a> {
    document: &'a Value,
    /// Each pattern met, compiled once (`None`: it does not compile, and
    /// judges nothing).
    patterns: RefCell<HashMap<String, Option<Rc<regress::Regex>>>>,
}

impl<'a> Admission<'a> {
    fn new(document: &'a Value) -> Self {
        Self {
            document,
            patterns: RefCell::default(),
        }
    }

    fn regex(&self, pattern: &str) -> Option<Rc<regress::Regex>> {
        self.patterns
            .borrow_mut()
            .entry(pattern.to_string())
            .or_insert_with(|| regress::Regex::new(pattern).ok().map(Rc::new))
            .clone()
    }

    /// `Ok`, or why `schema` refuses `value`.
    fn check(&self, schema: &Value, value: &Value, depth: usize) -> Result<(), String> {
        let outcome = self.at(schema, value, depth, "");
        // A `$ref` in data is data: the writer meant a reference, which
        // only an entry of `examples` can be.
        match value {
            Value::Object(object) if outcome.is_err() && object.contains_key("$ref") => Err(
                "it holds a `$ref`, which is data here: only an entry of `examples` may be a \
                 reference"
                    .into(),
            ),
            _ => outcome,
        }
    }

    fn at(&self, schema: &Value, value: &Value, depth: usize, path: &str) -> Result<(), String> {
        // Past this depth (a recursive schema), nothing more is judged.
        if depth > 32 {
            return Ok(());
        }
        let object = match schema {
            Value::Object(object) => object,
            Value::Bool(false) => return Err(refusal(path, "the schema admits no value")),
            _ => return Ok(()),
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            return match refs::target_pointer(reference)
                .and_then(|target| self.document.pointer(target))
            {
                Some(target) => self.at(target, value, depth + 1, path),
                None => Ok(()),
            };
        }
        let fail = |why: String| Err(refusal(path, &why));
        let kind = object.get("type").and_then(Value::as_str);
        if value.is_null() {
            let listed = matches!(object.get("enum"), Some(Value::Array(members)) if members.contains(&Value::Null));
            if object.get("nullable") == Some(&Value::Bool(true)) || listed {
                return Ok(());
            }
            if kind.is_some_and(|kind| kind != "null") {
                return fail("`null` where the schema is not nullable".into());
            }
        }
        if let Some(Value::Array(members)) = object.get("enum")
            && !members.iter().any(|member| same(member, value))
        {
            return fail("`enum` does not list it".into());
        }
        if let Some(kind) = kind
            && !of_type(kind, value)
        {
            let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            return fail(format!("not {article} {kind}"));
        }
        match value {
            Value::String(text) => self.string(object, text).or_else(&fail)?,
            Value::Number(_) => number(object, value).or_else(&fail)?,
            Value::Array(items) => self.array(object, items, depth, path)?,
            Value::Object(entries) => self.object(object, entries, depth, path)?,
            _ => {}
        }
        if let Some(Value::Array(members)) = object.get("allOf") {
            for member in members {
                self.at(member, value, depth + 1, path)?;
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(Value::Array(members)) = object.get(keyword)
                && !members
                    .iter()
                    .any(|member| self.at(member, value, depth + 1, path).is_ok())
            {
                return fail(format!("no member of `{keyword}` admits it"));
            }
        }
        Ok(())
    }

    fn string(&self, object: &Map<String, Value>, text: &str) -> Result<(), String> {
        let length = text.chars().count();
        if let Some(min) = object.get("minLength").and_then(Value::as_u64)
            && (length as u64) < min
        {
            return Err(format!("shorter than `minLength: {min}`"));
        }
        if let Some(max) = object.get("maxLength").and_then(Value::as_u64)
            && (length as u64) > max
        {
            return Err(format!("longer than `maxLength: {max}`"));
        }
        if let Some(Value::String(pattern)) = object.get("pattern")
            && let Some(regex) = self.regex(pattern)
            && regex.find(text).is_none()
        {
            return Err(format!("`pattern: {pattern}` does not match it"));
        }
        let format = object.get("format").and_then(Value::as_str);
        if !crate::emit::view::native_text_parses(format, text) {
            return Err(format!("not a `{}`", format.unwrap_or_default()));
        }
        Ok(())
    }

    fn array(
        &self,
        object: &Map<String, Value>,
        items: &[Value],
        depth: usize,
        path: &str,
    ) -> Result<(), String> {
        let fail = |why: String| Err(refusal(path, &why));
        let count = items.len() as u64;
        if let Some(min) = object.get("minItems").and_then(Value::as_u64)
            && count < min
        {
            return fail(format!("fewer items than `minItems: {min}`"));
        }
        if let Some(max) = object.get("maxItems").and_then(Value::as_u64)
            && count > max
        {
            return fail(format!("more items than `maxItems: {max}`"));
        }
        if object.get("uniqueItems") == Some(&Value::Bool(true))
            && items
                .iter()
                .enumerate()
                .any(|(index, item)| items[..index].iter().any(|seen| same(seen, item)))
        {
            return fail("repeated items where `uniqueItems: true`".into());
        }
        if let Some(schema @ (Value::Object(_) | Value::Bool(_))) = object.get("items") {
            for (index, item) in items.iter().enumerate() {
                self.at(schema, item, depth + 1, &format!("{path}/{index}"))?;
            }
        }
        Ok(())
    }

    fn object(
        &self,
        object: &Map<String, Value>,
        entries: &Map<String, Value>,
        depth: usize,
        path: &str,
    ) -> Result<(), String> {
        let fail = |why: String| Err(refusal(path, &why));
        let properties = object.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(required)) = object.get("required")
            && let Some(missing) = required
                .iter()
                .filter_map(Value::as_str)
                .find(|name| !entries.contains_key(*name))
        {
            return fail(format!("the required property `{missing}` is missing"));
        }
        let count = entries.len() as u64;
        if let Some(min) = object.get("minProperties").and_then(Value::as_u64)
            && count < min
        {
            return fail(format!("fewer properties than `minProperties: {min}`"));
        }
        if let Some(max) = object.get("maxProperties").and_then(Value::as_u64)
            && count > max
        {
            return fail(format!("more properties than `maxProperties: {max}`"));
        }
        let patterns: Vec<(Rc<regress::Regex>, &Value)> = object
            .get("patternProperties")
            .and_then(Value::as_object)
            .map(|patterns| {
                patterns
                    .iter()
                    .filter_map(|(pattern, schema)| Some((self.regex(pattern)?, schema)))
                    .collect()
            })
            .unwrap_or_default();
        for (name, entry) in entries {
            let entry_path = format!("{path}/{}", escape_pointer_token(name));
            let mut known = false;
            if let Some(schema) = properties.and_then(|properties| properties.get(name)) {
                known = true;
                self.at(schema, entry, depth + 1, &entry_path)?;
            }
            for (regex, schema) in &patterns {
                if regex.find(name).is_some() {
                    known = true;
                    self.at(schema, entry, depth + 1, &entry_path)?;
                }
            }
            if !known {
                match object.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        return fail(format!(
                            "the property `{name}` is not declared and \
                             `additionalProperties: false`"
                        ));
                    }
                    Some(schema @ Value::Object(_)) => {
                        self.at(schema, entry, depth + 1, &entry_path)?;
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// Why a value is refused, naming the part (`/amount`) where it is not the
/// whole.
fn refusal(path: &str, why: &str) -> String {
    if path.is_empty() {
        why.to_string()
    } else {
        format!("at `{path}`: {why}")
    }
}

/// Whether two JSON values are equal, numbers by value (`1` is `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (integer(x), integer(y)) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, value)| y.get(key).is_some_and(|other| same(value, other)))
        }
        _ => a == b,
    }
}

/// A number's value when it is an integer, however written (`3`, `3.0`).
fn integer(number: &serde_json::Number) -> Option<i128> {
    if let Some(value) = number.as_i64() {
        return Some(value.into());
    }
    if let Some(value) = number.as_u64() {
        return Some(value.into());
    }
    let value = number.as_f64()?;
    (value.fract() == 0.0 && value.abs() < 1e38).then_some(value as i128)
}

/// The bounds of a number (OpenAPI 3.0's boolean `exclusiveMinimum`, which
/// lowering gives 3.1's numeric ones too), `multipleOf`, and the range of
/// an integer `format`.
fn number(object: &Map<String, Value>, value: &Value) -> Result<(), String> {
    let Some(number) = value.as_f64() else {
        return Ok(());
    };
    let exclusive = |keyword: &str| object.get(keyword) == Some(&Value::Bool(true));
    if let Some(min) = object.get("minimum").and_then(Value::as_f64) {
        if exclusive("exclusiveMinimum") && number <= min {
            return Err(format!("not above `minimum: {min}` (exclusive)"));
        }
        if number < min {
            return Err(format!("below `minimum: {min}`"));
        }
    }
    if let Some(max) = object.get("maximum").and_then(Value::as_f64) {
        if exclusive("exclusiveMaximum") && number >= max {
            return Err(format!("not below `maximum: {max}` (exclusive)"));
        }
        if number > max {
            return Err(format!("above `maximum: {max}`"));
        }
    }
    if let Some(step) = object.get("multipleOf").and_then(Value::as_f64)
        && step > 0.0
    {
        let quotient = number / step;
        if (quotient - quotient.round()).abs() > 1e-9 * quotient.abs().max(1.0) {
            return Err(format!("not a multiple of `multipleOf: {step}`"));
        }
    }
    let range: Option<(i128, i128)> = match object.get("format").and_then(Value::as_str) {
        Some("int8") => Some((i8::MIN.into(), i8::MAX.into())),
        Some("int16") => Some((i16::MIN.into(), i16::MAX.into())),
        Some("int32") => Some((i32::MIN.into(), i32::MAX.into())),
        Some("int64") => Some((i64::MIN.into(), i64::MAX.into())),
        Some("uint8") => Some((0, u8::MAX.into())),
        Some("uint16") => Some((0, u16::MAX.into())),
        Some("uint32") => Some((0, u32::MAX.into())),
        Some("uint64") => Some((0, u64::MAX.into())),
        _ => None,
    };
    if let (Some((low, high)), Value::Number(exact)) = (range, value)
        && let Some(exact) = integer(exact)
        && !(low..=high).contains(&exact)
    {
        let format = object
            .get("format")
            .and_then(Value::as_str)
            .unwrap_or_default();
        return Err(format!("out of the range of `format: {format}`"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn admits(schema: Value, value: Value) -> Result<(), String> {
        let document = json!({"components": {"schemas": {
            "Mode": {"type": "string", "enum": ["fast", "slow"]},
        }}});
        Admission::new(&document).check(&schema, &value, 0)
    }

    #[test]
    fn values_are_judged_by_every_validation_keyword() {
        assert_eq!(admits(json!({"type": "integer"}), json!(3)), Ok(()));
        assert_eq!(admits(json!({"type": "integer"}), json!(3.0)), Ok(()));
        assert_eq!(
            admits(json!({"type": "integer"}), json!(1.5)),
            Err("not an integer".into())
        );
        assert_eq!(
            admits(json!({"type": "string", "maxLength": 2}), json!("abc")),
            Err("longer than `maxLength: 2`".into())
        );
        assert_eq!(
            admits(
                json!({"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9]+$"}]}),
                json!(1.5)
            ),
            Err("no member of `anyOf` admits it".into())
        );
        assert_eq!(
            admits(
                json!({"type": "object", "properties": {"mode": {"$ref": "#/components/schemas/Mode"}}}),
                json!({"mode": "medium"})
            ),
            Err("at `/mode`: `enum` does not list it".into())
        );
        assert_eq!(
            admits(
                json!({"type": "string", "format": "date-time"}),
                json!("now")
            ),
            Err("not a `date-time`".into())
        );
        assert_eq!(
            admits(
                json!({"type": "integer", "format": "int32"}),
                json!(5_000_000_000_i64)
            ),
            Err("out of the range of `format: int32`".into())
        );
        assert_eq!(
            admits(
                json!({"type": "array", "uniqueItems": true}),
                json!([1, 1.0])
            ),
            Err("repeated items where `uniqueItems: true`".into())
        );
        assert_eq!(
            admits(json!({"type": "object", "nullable": true}), Value::Null),
            Ok(())
        );
        assert_eq!(
            admits(json!({"type": "object"}), Value::Null),
            Err("`null` where the schema is not nullable".into())
        );
        // An open object takes any other property; a closed one does not.
        let closed = json!({"properties": {"a": {}}, "additionalProperties": false});
        assert_eq!(
            admits(json!({"properties": {"a": {}}}), json!({"b": 1})),
            Ok(())
        );
        assert!(admits(closed, json!({"b": 1})).is_err());
        assert_eq!(
            admits(json!({"type": "number", "multipleOf": 0.1}), json!(0.3)),
            Ok(())
        );
    }

    /// The document `text` is read as, and the warnings, each as
    /// `line: cause`.
    fn read(text: &str) -> (Value, Vec<String>) {
        let mut spec =
            crate::load::parse_spec(std::path::Path::new("spec.yaml"), text.as_bytes()).unwrap();
        read_flaws(&mut spec);
        let warnings = spec
            .warnings
            .take()
            .iter()
            .map(|warning| {
                let line = warning.position.map_or(0, |position| position.line);
                format!("{line}: {}", warning.cause)
            })
            .collect();
        (spec.document, warnings)
    }

    const HEAD: &str = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n";

    #[test]
    fn no_undeclared_scheme_makes_an_operation_public() {
        let (document, warnings) = read(&format!(
            "{HEAD}security: [{{apikey: []}}]
paths:
  /a:
    get:
      security: [{{ApiKey: [], partner: []}}, {{legacy: []}}]
      responses: {{}}
    post:
      security: [{{legacy: []}}, {{}}]
      responses: {{}}
    put:
      security: [{{admin: [write]}}]
      responses: {{}}
components:
  securitySchemes:
    ApiKey: {{type: apiKey, in: header, name: X-Key}}
"
        ));
        // `apikey` is `ApiKey`, spelled otherwise.
        assert_eq!(document["security"], json!([{"ApiKey": []}]));
        // Undeclared alternatives go where others stand, and a
        // requirement left empty goes with them (an empty one written
        // as such stays: the spec lets anyone in there).
        assert_eq!(
            document["paths"]["/a"]["get"]["security"],
            json!([{"ApiKey": []}])
        );
        assert_eq!(document["paths"]["/a"]["post"]["security"], json!([{}]));
        // Alone, an undeclared scheme is a bearer token of its name.
        assert_eq!(
            document["paths"]["/a"]["put"]["security"],
            json!([{"admin": ["write"]}])
        );
        assert_eq!(
            document["components"]["securitySchemes"]["admin"],
            json!({"type": "http", "scheme": "bearer"})
        );
        assert_eq!(warnings.len(), 5, "{warnings:#?}");
        assert!(
            warnings[0].contains("security scheme `apikey`"),
            "{warnings:#?}"
        );
        assert!(warnings[4].contains("read as an HTTP bearer token"));
    }

    #[test]
    fn references_of_another_kind_are_read_as_the_place_needs_where_they_fit() {
        let (document, warnings) = read(&format!(
            "{HEAD}paths:
  /a:
    post:
      requestBody: {{$ref: '#/components/responses/Thing'}}
      responses:
        '200': {{$ref: '#/components/requestBodies/Made'}}
        '400': {{$ref: '#/components/schemas/Error'}}
components:
  schemas:
    Error: {{type: object}}
  responses:
    Thing: {{description: a thing, content: {{application/json: {{schema: {{}}}}}}}}
  requestBodies:
    Made: {{required: true, content: {{application/json: {{schema: {{}}}}}}}}
"
        ));
        let operation = &document["paths"]["/a"]["post"];
        assert_eq!(
            operation["requestBody"]["$ref"],
            "#/components/requestBodies/Thing"
        );
        assert_eq!(
            document["components"]["requestBodies"]["Thing"]["description"],
            "a thing"
        );
        assert_eq!(
            operation["responses"]["200"]["$ref"],
            "#/components/responses/Made"
        );
        assert_eq!(
            document["components"]["responses"]["Made"],
            json!({"description": "", "content": {"application/json": {"schema": {}}}})
        );
        // A schema is no response: the model refuses that one.
        assert_eq!(
            operation["responses"]["400"]["$ref"],
            "#/components/schemas/Error"
        );
        assert_eq!(warnings.len(), 2, "{warnings:#?}");
    }

    #[test]
    fn required_names_declared_around_or_inside_are_not_undeclared() {
        let (document, warnings) = read(&format!(
            "{HEAD}paths: {{}}
components:
  schemas:
    Base: {{properties: {{id: {{}}}}}}
    Child:
      allOf:
        - $ref: '#/components/schemas/Base'
        - {{properties: {{name: {{}}}}, required: [id, name, kind]}}
    Open:
      properties: {{a: {{}}}}
      additionalProperties: {{type: string}}
      required: [b]
    Bare: {{type: object, required: [anything]}}
    Closed:
      properties: {{a: {{}}}}
      additionalProperties: false
      required: [a, c]
"
        ));
        let schemas = &document["components"]["schemas"];
        // An open object may hold `kind`: required as written, with a warning.
        assert_eq!(
            schemas["Child"]["allOf"][1]["required"],
            json!(["id", "name", "kind"])
        );
        assert_eq!(schemas["Open"]["required"], json!(["b"]));
        assert_eq!(schemas["Bare"]["required"], json!(["anything"]));
        // A closed one cannot: no value could pass, so `c` is not required.
        assert_eq!(schemas["Closed"]["required"], json!(["a"]));
        assert_eq!(warnings.len(), 2, "{warnings:#?}");
        assert!(
            warnings[0].contains("`kind`") && warnings[0].contains("read as written"),
            "{warnings:#?}"
        );
        assert!(
            warnings[1].contains("`c`") && warnings[1].contains("not required"),
            "{warnings:#?}"
        );
    }

    #[test]
    fn enum_members_the_type_excludes_go_and_an_empty_enum_with_them() {
        let (document, warnings) = read(&format!(
            "{HEAD}paths: {{}}
components:
  schemas:
    A: {{type: string, enum: [a, 3, null]}}
    B: {{type: string, enum: [a, null]}}
    C: {{type: integer, enum: ['1', '2']}}
    D: {{enum: [a, 1]}}
"
        ));
        let schemas = &document["components"]["schemas"];
        assert_eq!(schemas["A"]["enum"], json!(["a", null]));
        assert_eq!(schemas["B"]["enum"], json!(["a", null]));
        assert_eq!(schemas["C"], json!({"type": "integer"}));
        assert_eq!(schemas["D"]["enum"], json!(["a", 1]));
        assert_eq!(warnings.len(), 2, "{warnings:#?}");
    }

    #[test]
    fn formats_warn_only_when_they_misspell_one_or_name_a_type() {
        assert_eq!(format_flaw("date-time"), None);
        assert_eq!(format_flaw("snowflake"), None, "a vendor's format");
        assert_eq!(format_flaw("client-id"), None);
        assert!(format_flaw("datetime").unwrap().contains("`date-time`"));
        assert!(format_flaw("UUID").unwrap().contains("`uuid`"));
        assert!(format_flaw("string").unwrap().contains("names a type"));
    }
}
