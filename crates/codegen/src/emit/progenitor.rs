//! The one progenitor run behind the types and client crates.
//!
//! Progenitor converts the schemas with typify and builds the client in one
//! pass. Its client puts every type in a `types` module; the types crate is
//! exactly that module's contents (the run's type space), and the client
//! crate re-exports the types crate in its place. One run, so the two cannot
//! disagree, and no type is named twice: not the component schemas, nor the
//! types typify derives from parameters or inline schemas.

use openapiv3::OpenAPI;
use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use serde_json::Value;

use crate::diagnostic::{Diagnostic, pointer_join};
use crate::emit::placeholders::Placeholders;
use crate::emit::view::{View, view_document, webhook_view_keys};
use crate::emit::{GeneratorFailure, catch_generator, run_generator};
use crate::load::LoadedSpec;
use crate::vocabulary::METHODS;
use crate::walk;

/// What the types crate needs from its dependencies, as typify reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TypeDependencies {
    pub chrono: bool,
    pub regress: bool,
    pub serde_json: bool,
    pub uuid: bool,
}

pub struct ProgenitorOutput {
    /// The client, with an empty `types` module where the types were.
    pub client: TokenStream,
    /// The contents of that `types` module.
    pub types: TokenStream,
    pub dependencies: TypeDependencies,
}

/// Settings of the run: builder-style methods, derived `PartialEq`, ordered
/// maps (so open maps such as vendor keys serialize in a stable order), and
/// the client's inner value, where hooks keep their state.
fn settings() -> progenitor::GenerationSettings {
    let mut settings = progenitor::GenerationSettings::default();
    settings
        .with_interface(progenitor::InterfaceStyle::Builder)
        .with_tag(progenitor::TagStyle::Merged)
        .with_derive("PartialEq")
        .with_map_type("::std::collections::BTreeMap")
        .with_inner_type(quote::quote!(crate::hooks::Hooks))
        .with_hooks(progenitor::HooksMode::Expected);
    settings
}

/// Runs progenitor on the [`openapi_view`](super::view::openapi_view) of `spec`, which it consumes so
/// that the document is gone before progenitor's output peaks. The wire
/// names the view replaced are back in the output.
///
/// Where progenitor (typify) fails on one schema, that schema (the
/// smallest part of a component that fails alone: a property, an item, a
/// member) is read as any JSON value in the types and the client, with a
/// warning, and progenitor runs again: one schema never fails the whole
/// API. The server still checks it as the spec says. A failure no single
/// schema explains (an operation's) is returned.
pub fn run(spec: &LoadedSpec, view: View) -> Result<ProgenitorOutput, Diagnostic> {
    let View {
        mut openapi,
        placeholders,
        schema_places,
    } = view;
    // Each retry makes one more schema any value; past this many, the
    // failure is not one schema's.
    const RETRIES: usize = 32;
    let mut retries = 0;
    let mut output = loop {
        let failure = match generate(spec, &openapi) {
            Ok(output) => break output,
            Err(failure) => failure,
        };
        retries += 1;
        let Ok(mut document) = serde_json::to_value(&openapi) else {
            return Err(failure);
        };
        let Some((pointer, cause)) = failing_schema(&document).filter(|_| retries <= RETRIES)
        else {
            return Err(failure);
        };
        let Some(schema) = document.pointer_mut(&pointer) else {
            return Err(failure);
        };
        crate::structure::read_as_any(schema);
        let Ok(degraded) = serde_json::from_value(document) else {
            return Err(failure);
        };
        openapi = degraded;
        let mut warning = place_in_spec(&schema_places, placeholders.as_ref(), &pointer)
            .unwrap_or_else(|| Diagnostic::new(&spec.path, String::new()).at_pointer(&pointer));
        warning.cause = format!(
            "{}; the types and the client read it as any JSON value (the server checks it as \
             written)",
            cause.message(WHAT, Some("this schema"))
        );
        spec.warnings
            .push(warning.read_as(crate::readings::Reading::SchemaUnexpressible));
    };
    if let Some(placeholders) = placeholders {
        output.client = placeholders.restore_tokens(output.client);
        output.types = placeholders.restore_tokens(output.types);
    }
    Ok(output)
}

/// The message for the schema at `pointer` of the view, where the spec
/// wrote it: the place of its component (a composition the view moved to
/// `{name}-inner` is its component's), with the pointer of the schema
/// inside it and the wire names the view replaced.
fn place_in_spec(
    places: &[(String, Diagnostic)],
    placeholders: Option<&Placeholders>,
    pointer: &str,
) -> Option<Diagnostic> {
    let rest = pointer.strip_prefix("/components/schemas/")?;
    let (token, inside) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let name = crate::model::refs::unescape_pointer_token(token);
    let (place, inside) = match places.iter().find(|(known, _)| *known == name) {
        Some((_, place)) => (place, inside.to_string()),
        None => {
            let outer = places.iter().find(|(known, _)| {
                name.strip_prefix(known.as_str())
                    .is_some_and(|suffix| suffix.starts_with("-inner"))
            })?;
            (&outer.1, String::new())
        }
    };
    let inside: String = inside
        .split('/')
        .skip(1)
        .map(|token| {
            let decoded = crate::model::refs::unescape_pointer_token(token);
            let wire = placeholders
                .and_then(|placeholders| placeholders.wire_name(&decoded))
                .unwrap_or(decoded);
            format!("/{}", crate::diagnostic::escape_pointer_token(&wire))
        })
        .collect();
    let mut diagnostic = place.clone();
    diagnostic.pointer = Some(format!(
        "{}{inside}",
        diagnostic.pointer.as_deref().unwrap_or_default()
    ));
    Some(diagnostic)
}

/// What the one progenitor run does, for messages.
const WHAT: &str = "generating the types and the client";

fn generate(spec: &LoadedSpec, openapi: &OpenAPI) -> Result<ProgenitorOutput, Diagnostic> {
    run_generator(spec, WHAT, || {
        let mut generator = progenitor::Generator::new(&settings());
        let client = generator
            .generate_tokens(openapi)
            .map_err(|err| err.to_string())?;
        // The client already holds the type space's tokens: rendering them a
        // second time (`to_stream`) would cost as much again.
        let (client, types) = take_types_module(client)
            .ok_or_else(|| "progenitor output has no `types` module".to_string())?;
        let type_space = generator.get_type_space();
        Ok(ProgenitorOutput {
            client,
            types,
            dependencies: TypeDependencies {
                chrono: type_space.uses_chrono(),
                regress: type_space.uses_regress(),
                serde_json: type_space.uses_serde_json(),
                uuid: type_space.uses_uuid(),
            },
        })
    })
}

/// Whether progenitor fails on `document` (a view), and how.
fn probe(document: &Value) -> Option<GeneratorFailure> {
    let openapi: OpenAPI = serde_json::from_value(document.clone()).ok()?;
    catch_generator(|| {
        progenitor::Generator::new(&settings())
            .generate_tokens(&openapi)
            .map(|_| ())
            .map_err(|err| err.to_string())
    })
    .err()
}

/// `view` with its component schemas alone (no operations), those not
/// `kept` made empty (`{}`, so no reference dangles).
fn schemas_alone(view: &Value, kept: &dyn Fn(&str) -> bool) -> Value {
    let mut document = view.clone();
    document["paths"] = Value::Object(Default::default());
    if let Some(Value::Object(schemas)) = document.pointer_mut("/components/schemas") {
        for (name, schema) in schemas.iter_mut() {
            if !kept(name) {
                *schema = Value::Object(Default::default());
            }
        }
    }
    document
}

/// The component schema progenitor fails on alone, with its failure,
/// found by running progenitor on the component schemas with halves of
/// them made empty; `None` when the schemas pass without the operations,
/// or no single one fails alone.
fn failing_component(view: &Value) -> Option<(String, GeneratorFailure)> {
    probe(&schemas_alone(view, &|_| true))?;
    let names: Vec<String> = view
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|schemas| schemas.keys().cloned().collect())
        .unwrap_or_default();
    bisect(&names, |kept| {
        probe(&schemas_alone(view, &|name| kept.iter().any(|k| k == name)))
    })
}

/// The smallest schema progenitor fails on, by its pointer into `view`,
/// with the failure: in the [`failing_component`], the subschema whose
/// making empty lets the component pass, and in it the same, as deep as
/// that goes.
fn failing_schema(view: &Value) -> Option<(String, GeneratorFailure)> {
    let (name, failure) = failing_component(view)?;
    let alone = schemas_alone(view, &|known| known == name);
    let mut current = pointer_join("/components/schemas", &name);
    'descend: while let Some(node) = alone.pointer(&current) {
        for child in direct_subschemas(node, &current) {
            let mut trial = alone.clone();
            if let Some(schema) = trial.pointer_mut(&child) {
                *schema = Value::Object(Default::default());
            }
            if probe(&trial).is_none() {
                current = child;
                continue 'descend;
            }
        }
        break;
    }
    Some((current, failure))
}

/// The pointers of the subschemas directly inside `schema` (at `pointer`):
/// its properties, items, members, ... but not theirs.
fn direct_subschemas(schema: &Value, pointer: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    walk::for_each_subschema(schema, pointer, |site, _| {
        let inside = |outer: &str| {
            site.pointer
                .strip_prefix(outer)
                .is_some_and(|rest| rest.starts_with('/'))
        };
        if site.pointer != pointer && !found.iter().any(|seen| inside(seen)) {
            found.push(site.pointer.to_string());
        }
    });
    found
}

/// The schema or operation progenitor fails on, found again by running it on
/// parts of the view of `spec` (which must still hold its document): the
/// component schemas alone, with halves of them made empty (`{}`, so no
/// reference dangles), or all schemas with halves of the operations, until
/// one is left. `failure`, progenitor's message without a place, is kept when
/// no single schema or operation fails alone. Only run after a failure.
pub fn locate_failure(spec: &LoadedSpec, failure: Diagnostic) -> Diagnostic {
    let (view, _) = view_document(&spec.document);
    if probe(&schemas_alone(&view, &|_| true)).is_some() {
        return match failing_component(&view) {
            Some((name, cause)) => spec.error_at(
                &pointer_join("/components/schemas", &name),
                cause.message(WHAT, Some(&format!("schema `{name}`"))),
            ),
            None => failure,
        };
    }
    let mut operations: Vec<(String, String)> = Vec::new();
    if let Some(Value::Object(paths)) = view.get("paths") {
        for (path, item) in paths {
            if let Some(item) = item.as_object() {
                operations.extend(
                    item.keys()
                        .filter(|method| METHODS.contains(&method.as_str()))
                        .map(|method| (path.clone(), method.clone())),
                );
            }
        }
    }
    let culprit = bisect(&operations, |kept| {
        let mut document = view.clone();
        if let Some(Value::Object(paths)) = document.get_mut("paths") {
            for (path, item) in paths.iter_mut() {
                if let Value::Object(item) = item {
                    item.retain(|method, _| {
                        !METHODS.contains(&method.as_str())
                            || kept.iter().any(|(p, m)| p == path && m == method)
                    });
                }
            }
        }
        probe(&document)
    });
    match culprit {
        Some(((path, method), cause)) => {
            let item = match webhook_view_keys(&spec.document)
                .into_iter()
                .find(|(_, key)| *key == path)
            {
                Some((name, _)) => pointer_join("/webhooks", &name),
                None => pointer_join("/paths", &path),
            };
            let pointer = pointer_join(&item, &method);
            let id = spec
                .document
                .pointer(&pointer_join(&pointer, "operationId"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            spec.error_at(
                &pointer,
                cause.message(WHAT, Some(&format!("operation `{id}`"))),
            )
        }
        None => failure,
    }
}

/// The one item of `items` with which `fails` fails alone, halving the set
/// that still fails; `None` when no half fails on its own.
fn bisect<T: Clone>(
    items: &[T],
    fails: impl Fn(&[T]) -> Option<GeneratorFailure>,
) -> Option<(T, GeneratorFailure)> {
    let mut suspects = items.to_vec();
    let mut failure = None;
    while suspects.len() > 1 {
        let (first, second) = suspects.split_at(suspects.len() / 2);
        if let Some(found) = fails(first) {
            failure = Some(found);
            suspects = first.to_vec();
        } else if let Some(found) = fails(second) {
            failure = Some(found);
            suspects = second.to_vec();
        } else {
            return None;
        }
    }
    let culprit = suspects.pop()?;
    let failure = match failure {
        Some(failure) => failure,
        None => fails(std::slice::from_ref(&culprit))?,
    };
    Some((culprit, failure))
}

/// Splits progenitor's client into the client with an empty `pub mod types {}`
/// and that module's contents, at the token level, so the types (most of
/// the code) are never parsed as part of the client.
fn take_types_module(client: TokenStream) -> Option<(TokenStream, TokenStream)> {
    let mut tokens: Vec<TokenTree> = client.into_iter().collect();
    let position = tokens.windows(3).position(|window| {
        matches!(window, [TokenTree::Ident(keyword), TokenTree::Ident(name), TokenTree::Group(body)]
            if keyword == "mod" && name == "types" && body.delimiter() == Delimiter::Brace)
    })?;
    let TokenTree::Group(body) = &mut tokens[position + 2] else {
        return None;
    };
    let types = body.stream();
    let span = body.span();
    *body = Group::new(Delimiter::Brace, TokenStream::new());
    body.set_span(span);
    Some((tokens.into_iter().collect(), types))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::view::openapi_view;

    #[test]
    fn bisection_finds_the_one_item_that_fails() {
        let failure = |cause: &str| GeneratorFailure {
            panicked: true,
            cause: cause.to_string(),
        };
        let items: Vec<u32> = (0..37).collect();
        let found = bisect(&items, |kept| kept.contains(&23).then(|| failure("boom")));
        assert_eq!(found, Some((23, failure("boom"))));
        // A failure that needs two items together is not pinned on either.
        let found = bisect(&items, |kept| {
            (kept.contains(&3) && kept.contains(&30)).then(|| failure("both"))
        });
        assert_eq!(found, None);
    }

    #[test]
    fn a_generator_failure_is_pinned_on_its_schema_or_operation() {
        let _serial = crate::emit::tests::HOOK_FOR_TESTS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let text = |schema: &str, parameter: &str| {
            format!(
                r#"openapi: 3.0.3
info: {{title: T, version: "1"}}
paths:
  /a:
    get:
      operationId: get_a
      responses:
        "200": {{description: ok}}
  /b:
    get:
      operationId: get_b
      parameters:
        - {parameter}
      responses:
        "200": {{description: ok}}
components:
  schemas:
    Fine: {{type: string}}
    Broken: {schema}
"#
            )
        };
        let locate = |text: String| {
            let spec = crate::load::parse_spec(std::path::Path::new("spec.yaml"), text.as_bytes())
                .unwrap();
            locate_failure(&spec, Diagnostic::new(&spec.path, "unplaced")).to_string()
        };
        let query = "{name: q, in: query, schema: {type: string}}";
        assert_eq!(
            locate(text("{type: string, enum: [1]}", query)),
            "spec.yaml:19:5: error: generating the types and the client failed on schema \
             `Broken`: type error unexpected value type (at /components/schemas/Broken)"
        );
        let cookie = "{name: c, in: cookie, schema: {type: string}}";
        let message = locate(text("{type: string}", cookie));
        assert!(
            message.starts_with("spec.yaml:10:5: error: generating the types and the client failed on operation `get_b`: ")
                && message.ends_with("(at /paths/~1b/get)"),
            "{message}"
        );
        assert_eq!(
            locate(text("{type: string}", query)),
            "spec.yaml: error: unplaced",
            "no failure to find"
        );
    }

    #[test]
    fn a_schema_progenitor_fails_on_is_read_as_any_value_and_the_run_goes_on() {
        let _serial = crate::emit::tests::HOOK_FOR_TESTS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let text = r##"openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      operationId: get_a
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Holder"}
components:
  schemas:
    Holder:
      type: object
      properties:
        kept: {type: string}
        mixed:
          description: Any of three kinds.
          enum: [{a: 1}, [1], x]
"##;
        let mut spec =
            crate::load::parse_spec(std::path::Path::new("spec.yaml"), text.as_bytes()).unwrap();
        crate::prepare_document(&mut spec);
        let model = crate::model::build_model(&spec).unwrap();
        let view = openapi_view(&spec, &model).unwrap();
        let output = run(&spec, view).unwrap_or_else(|err| panic!("{err}"));
        let types = output.types.to_string();
        assert!(types.contains("pub kept"), "{types}");
        assert!(
            types.contains("pub mixed : :: std :: option :: Option < :: serde_json :: Value >"),
            "{types}"
        );
        let warnings = spec.warnings.take();
        let warning = warnings.first().unwrap().to_string();
        assert!(
            warning.starts_with("spec.yaml:15:5: warning[schema-unexpressible]: generating the types and the client could not handle this schema: ")
                && warning.ends_with("(at /components/schemas/Holder/properties/mixed)"),
            "{warning}"
        );
    }
}
