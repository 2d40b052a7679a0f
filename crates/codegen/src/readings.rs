//! Every way the generator reads a flaw of a description, as data: one row
//! per reading, binding its stable id to what is read instead and the
//! fixture that shows it. A warning carries its reading ([`Reading`]), so a
//! team can allow or deny it by id (`--allow`, `--deny`, or the document's
//! `x-openapi-crates` key) and the end of a run counts warnings by id.
//!
//! Ids never change meaning: a reading that changes gets a new id. The
//! fixtures are under `tests/fixtures/flawed/`, where `flawed_specs.rs`
//! generates each and checks that it warns with its row's id.

use std::collections::BTreeSet;
use std::fmt;

use serde_json::Value;

/// One kind of flaw and how it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reading {
    ValueNotAdmitted,
    EnumMemberExcluded,
    RefToAnotherKind,
    OperationIdRepeated,
    OperationIdUnusable,
    RequiredUndeclared,
    MappingTargetMissing,
    SchemeUndeclared,
    PatternInvalid,
    FormatMisspelled,
    SchemaUnexpressible,
    UpgradeNotGet,
    ExtensionInvalid,
    MethodUnsupported,
    ReferenceUnresolved,
    PathParameterUnplaced,
    PathParameterUndeclared,
    PathParameterOptional,
    ServerVariableUndefined,
    SchemaUnreadable,
    ParameterUnreadable,
    BodyUnreadable,
    ResponseUnreadable,
    SchemeUnreadable,
    OperationUnreadable,
    PathUnreadable,
    ComponentUnreadable,
    RouteShadowed,
    CompositionCycle,
}

/// A row of [`READINGS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub reading: Reading,
    /// The stable id messages, options and the summary name it by.
    pub id: &'static str,
    /// The flaw.
    pub flaw: &'static str,
    /// What the generator, the server, the client and the mock read instead.
    pub read_as: &'static str,
    /// The description under `tests/fixtures/flawed/` that shows it.
    pub fixture: &'static str,
}

/// Every reading, in the order of [`Reading`].
pub const READINGS: &[Row] = &[
    Row {
        reading: Reading::ValueNotAdmitted,
        id: "value-not-admitted",
        flaw: "a `default`, `example`, `examples` entry or 3.0 `const` its schema refuses",
        read_as: "dropped: no default in the types, the mock does not send the example",
        fixture: "01-values-not-admitted.yaml",
    },
    Row {
        reading: Reading::EnumMemberExcluded,
        id: "enum-member-excluded",
        flaw: "`enum` members (or a `const`) the schema's `type` excludes",
        read_as: "dropped; an `enum` left empty goes (any value of the type passes)",
        fixture: "02-enum-members-of-another-type.yaml",
    },
    Row {
        reading: Reading::RefToAnotherKind,
        id: "ref-to-another-kind",
        flaw: "a `$ref` to a component of another kind whose content fits the place",
        read_as: "a copy of it in the section the place needs",
        fixture: "04-ref-to-another-kind.yaml",
    },
    Row {
        reading: Reading::OperationIdRepeated,
        id: "operation-id-repeated",
        flaw: "an `operationId` used twice",
        read_as: "the later one gets a suffix (`list-2`)",
        fixture: "05-duplicate-operation-ids.yaml",
    },
    Row {
        reading: Reading::OperationIdUnusable,
        id: "operation-id-unusable",
        flaw: "an `operationId` that names nothing in Rust (empty, `-`, not text)",
        read_as: "none: the operation is named from its method and path",
        fixture: "05-duplicate-operation-ids.yaml",
    },
    Row {
        reading: Reading::RequiredUndeclared,
        id: "required-undeclared",
        flaw: "`required` naming a property no `properties` declares",
        read_as: "not required where `additionalProperties: false` refuses it, else as written",
        fixture: "06-required-undeclared.yaml",
    },
    Row {
        reading: Reading::MappingTargetMissing,
        id: "mapping-target-missing",
        flaw: "a discriminator `mapping` entry naming no schema",
        read_as: "the mapping without that entry",
        fixture: "07-discriminator-mapping-missing.yaml",
    },
    Row {
        reading: Reading::SchemeUndeclared,
        id: "scheme-undeclared",
        flaw: "a security requirement naming a scheme nobody declares",
        read_as: "the scheme spelled alike, else dropped, else a bearer token (never public)",
        fixture: "08-undeclared-security-scheme.yaml",
    },
    Row {
        reading: Reading::PatternInvalid,
        id: "pattern-invalid",
        flaw: "a `pattern` or `patternProperties` name that is not ECMA-262",
        read_as: "dropped: the string is not constrained by it",
        fixture: "09-invalid-pattern.yaml",
    },
    Row {
        reading: Reading::FormatMisspelled,
        id: "format-misspelled",
        flaw: "a `format` misspelling a known one (`datetime`) or naming a type",
        read_as: "no format",
        fixture: "10-misspelled-format.yaml",
    },
    Row {
        reading: Reading::SchemaUnexpressible,
        id: "schema-unexpressible",
        flaw: "a schema typify cannot turn into a Rust type",
        read_as: "any JSON value in the types and the client (climbing to the schema around it \
                  while typify still refuses); the server checks it as written",
        fixture: "11-schema-typify-rejects.yaml",
    },
    Row {
        reading: Reading::UpgradeNotGet,
        id: "upgrade-not-get",
        flaw: "a `101` on a method other than `GET`",
        read_as: "the 101 is left out",
        fixture: "12-upgrade-on-post.yaml",
    },
    Row {
        reading: Reading::ExtensionInvalid,
        id: "extension-invalid",
        flaw: "an `x-` key the generator reads (`x-idempotent`) with a value of the wrong type",
        read_as: "absent",
        fixture: "13-extension-of-another-type.yaml",
    },
    Row {
        reading: Reading::MethodUnsupported,
        id: "method-unsupported",
        flaw: "an OpenAPI 3.2 `query` operation, `additionalOperations` or `in: querystring`",
        read_as: "left out",
        fixture: "14-method-3-2.yaml",
    },
    Row {
        reading: Reading::ReferenceUnresolved,
        id: "reference-unresolved",
        flaw: "a `$ref` to another host (no `--refs` copy), a missing file or node, a cycle",
        read_as: "a schema: any JSON value; a parameter, response or body: left out",
        fixture: "15-reference-unresolved.yaml",
    },
    Row {
        reading: Reading::PathParameterUnplaced,
        id: "path-parameter-unplaced",
        flaw: "a path parameter the path template does not name",
        read_as: "left out of the operation",
        fixture: "16-path-parameters.yaml",
    },
    Row {
        reading: Reading::PathParameterUndeclared,
        id: "path-parameter-undeclared",
        flaw: "a `{name}` of the path template no parameter declares",
        read_as: "a required string path parameter of that name",
        fixture: "16-path-parameters.yaml",
    },
    Row {
        reading: Reading::PathParameterOptional,
        id: "path-parameter-optional",
        flaw: "a path parameter without `required: true`",
        read_as: "required: a path always carries it",
        fixture: "16-path-parameters.yaml",
    },
    Row {
        reading: Reading::ServerVariableUndefined,
        id: "server-variable-undefined",
        flaw: "a server URL `{variable}` that `variables` does not define, or without `default`",
        read_as: "its `enum`'s first value, else the empty string",
        fixture: "17-server-variables.yaml",
    },
    Row {
        reading: Reading::SchemaUnreadable,
        id: "schema-unreadable",
        flaw: "a schema that is not one (`type: null` in 3.0, a list, a wrong keyword type)",
        read_as: "any JSON value, everywhere: types, client, server and mock",
        fixture: "18-units-unreadable.yaml",
    },
    Row {
        reading: Reading::ParameterUnreadable,
        id: "parameter-unreadable",
        flaw: "a parameter that cannot be read or placed",
        read_as: "left out of the operation",
        fixture: "18-units-unreadable.yaml",
    },
    Row {
        reading: Reading::BodyUnreadable,
        id: "body-unreadable",
        flaw: "a request body (or one of its media types) that cannot be read",
        read_as: "left out of the operation",
        fixture: "18-units-unreadable.yaml",
    },
    Row {
        reading: Reading::ResponseUnreadable,
        id: "response-unreadable",
        flaw: "a response (or one of its media types or headers) that cannot be read",
        read_as: "left out of the operation",
        fixture: "18-units-unreadable.yaml",
    },
    Row {
        reading: Reading::SchemeUnreadable,
        id: "scheme-unreadable",
        flaw: "a security scheme that cannot be read (an OAuth flow without `scopes`, ...)",
        read_as: "what it lacks filled in (no scopes), else an HTTP bearer token of that name: \
                  its operations accept any credential of that name",
        fixture: "18-units-unreadable.yaml",
    },
    Row {
        reading: Reading::OperationUnreadable,
        id: "operation-unreadable",
        flaw: "an operation that cannot be read or expressed (no `responses`, a body the client \
               generator refuses, ...)",
        read_as: "what it lacks filled in (no `responses`: none documented), else left out of \
                  the crates and the mock, each listed in the summary",
        fixture: "18-units-unreadable.yaml",
    },
    Row {
        reading: Reading::PathUnreadable,
        id: "path-unreadable",
        flaw: "a path key that is no template (`/a/{id`, a parameter twice) or no route \
               beside the ones before it (`/a/{id}.json` beside `/a/{id}`)",
        read_as: "its operations are left out",
        fixture: "18-units-unreadable.yaml",
    },
    Row {
        reading: Reading::ComponentUnreadable,
        id: "component-unreadable",
        flaw: "a component or document part that cannot be read (an `info` without `title`, a \
               link, an example)",
        read_as: "what it lacks filled in, else left out with every reference to it",
        fixture: "18-units-unreadable.yaml",
    },
    Row {
        reading: Reading::RouteShadowed,
        id: "route-shadowed",
        flaw: "two path templates that differ only in their parameters' names",
        read_as: "the later read as the earlier, its path parameters renamed by position: one \
                  route serves both, by method; a method both have is left out of the later",
        fixture: "19-routes-alike.yaml",
    },
    Row {
        reading: Reading::CompositionCycle,
        id: "composition-cycle",
        flaw: "a schema whose `allOf`, `anyOf`, `oneOf` or `not` leads back to itself through \
               compositions alone",
        read_as: "without the member that closes the loop (it says nothing the rest does not)",
        fixture: "20-composition-cycle.yaml",
    },
];

impl Reading {
    pub fn row(self) -> &'static Row {
        READINGS
            .iter()
            .find(|row| row.reading == self)
            .expect("every reading has a row")
    }

    pub fn id(self) -> &'static str {
        self.row().id
    }

    /// The reading whose id is `id`.
    pub fn by_id(id: &str) -> Option<Reading> {
        READINGS
            .iter()
            .find(|row| row.id == id)
            .map(|row| row.reading)
    }
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// What a team chose for some readings: printed as warnings (the default),
/// not printed (`allow`), or refused (`deny`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Choices {
    pub allow: BTreeSet<Reading>,
    pub deny: BTreeSet<Reading>,
}

impl Choices {
    /// Reads `--allow`/`--deny` ids; an unknown id is an error naming the
    /// known ones.
    pub fn parse(allow: &[String], deny: &[String]) -> Result<Choices, String> {
        let read = |ids: &[String]| -> Result<BTreeSet<Reading>, String> {
            ids.iter()
                .map(|id| Reading::by_id(id).ok_or_else(|| unknown_id(id)))
                .collect()
        };
        Ok(Choices {
            allow: read(allow)?,
            deny: read(deny)?,
        })
    }

    /// These choices, then `other`'s where these say nothing of a reading
    /// (the command line over the document's `x-openapi-crates`).
    pub fn over(mut self, other: Choices) -> Choices {
        for reading in other.allow {
            if !self.deny.contains(&reading) {
                self.allow.insert(reading);
            }
        }
        for reading in other.deny {
            if !self.allow.contains(&reading) {
                self.deny.insert(reading);
            }
        }
        self
    }
}

impl Choices {
    /// The choices a description makes for itself, under its top-level
    /// `x-openapi-crates` key (`{allow: [ids], deny: [ids]}`); an id no row
    /// has is given to `unknown` (with its pointer and the message), and
    /// ignored.
    pub fn of_document(document: &Value, unknown: &mut dyn FnMut(&str, String)) -> Choices {
        let mut choices = Choices::default();
        let Some(Value::Object(config)) = document.get(DOCUMENT_KEY) else {
            return choices;
        };
        for (key, chosen) in [("allow", &mut choices.allow), ("deny", &mut choices.deny)] {
            let Some(Value::Array(ids)) = config.get(key) else {
                continue;
            };
            for (index, id) in ids.iter().enumerate() {
                match id.as_str().and_then(Reading::by_id) {
                    Some(reading) => {
                        chosen.insert(reading);
                    }
                    None => unknown(
                        &format!("/{DOCUMENT_KEY}/{key}/{index}"),
                        unknown_id(&id.to_string()),
                    ),
                }
            }
        }
        choices
    }

    /// `warnings` less those of allowed readings.
    pub fn kept(&self, warnings: crate::diagnostic::Diagnostics) -> crate::diagnostic::Diagnostics {
        let mut kept = crate::diagnostic::Diagnostics::default();
        for warning in &warnings {
            if !warning
                .reading
                .is_some_and(|reading| self.allow.contains(&reading))
            {
                kept.push(warning.clone());
            }
        }
        kept
    }
}

/// The document's own key for its choices.
pub const DOCUMENT_KEY: &str = "x-openapi-crates";

/// The message for an id no row has.
pub fn unknown_id(id: &str) -> String {
    let known: Vec<&str> = READINGS.iter().map(|row| row.id).collect();
    format!(
        "`{id}` is not a reading's id; the ids are: {}",
        known.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reading_has_one_row_and_ids_are_distinct() {
        let mut ids = BTreeSet::new();
        for (index, row) in READINGS.iter().enumerate() {
            assert_eq!(row.reading.row(), row, "{}", row.id);
            assert!(ids.insert(row.id), "{} twice", row.id);
            assert!(
                row.id.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{}",
                row.id
            );
            assert_eq!(Reading::by_id(row.id), Some(row.reading));
            if let Some(previous) = index.checked_sub(1) {
                assert!(
                    READINGS[previous].reading < row.reading,
                    "{} out of order",
                    row.id
                );
            }
        }
    }

    #[test]
    fn choices_on_the_command_line_win_over_the_document() {
        let line = Choices::parse(&["pattern-invalid".into()], &[]).unwrap();
        let document =
            Choices::parse(&[], &["pattern-invalid".into(), "format-misspelled".into()]).unwrap();
        let chosen = line.over(document);
        assert!(chosen.allow.contains(&Reading::PatternInvalid));
        assert!(!chosen.deny.contains(&Reading::PatternInvalid));
        assert!(chosen.deny.contains(&Reading::FormatMisspelled));
        assert!(
            Choices::parse(&["nope".into()], &[])
                .unwrap_err()
                .contains("pattern-invalid")
        );
    }
}
