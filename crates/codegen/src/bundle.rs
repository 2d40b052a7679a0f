//! Stage 1a: bundling. The spec and every file it refers to become one
//! document in which each `$ref` names a component:
//! `#/components/{section}/{name}`, `{name}` an entry of that section.
//!
//! References may name another file (`models/droplet.yml`, relative to the
//! file that refers to it, YAML or JSON), a node inside one
//! (`../headers.yml#/ratelimit-limit`) or any node of the spec
//! (`#/components/schemas/Tag/allOf/0`, `#/paths/~1pets/get/parameters/0`).
//! What a reference names moves according to what it is:
//!
//! - a schema, response, parameter, request body, header, example, link,
//!   callback or security scheme is hoisted into its `components` section
//!   under a name of its own; a node of the spec that is hoisted becomes a
//!   `$ref` to its new place, so one place is one component (one type);
//! - a path item, an operation, or anything in a place where OpenAPI has no
//!   component (a tag's description) is copied where the reference was.
//!
//! Names are deterministic and readable. A component of the spec that is
//! only a `$ref` (`Droplet: {$ref: models/droplet.yml}`) gives its name to
//! what it refers to; otherwise the name comes from the pointer's last named
//! token or the file's name, and `2`, `3`, ... in order of discovery keep
//! names apart after conversion to Rust ([`naming::type_name`]). One target
//! gets one name however often it is referred to.
//!
//! The source map records where each moved subtree was written (file and
//! pointer), so every message names the file and line of the offending node.
//! Remote references are refused: the generator does not fetch, so a build
//! is reproducible. A chain of references that never reaches a definition
//! is refused; a schema that refers to itself through its properties is not
//! a chain and stays a recursive type.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Position, escape_pointer_token, pointer_join};
use crate::load::document::{LoadedSpec, Origin, SourceMap, normalize, parse_file};
use crate::naming;
use crate::readings::Reading;
use crate::structure::{Kind, Slot, slot};

/// A node of one of the files: the file's index and a JSON pointer into it.
type Loc = (usize, String);

/// Keywords that hold schemas, which a hoisted node's name does not start
/// with: `models/x.yml#/properties/a` is named after the file, then `a`.
const SCHEMA_KEYWORDS: &[&str] = &[
    "properties",
    "items",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "additionalProperties",
    "prefixItems",
];

/// Containers of named definitions, which names do not repeat
/// (`shared.yaml#/responses/error` is `error`).
const SECTIONS: &[&str] = &[
    "schemas",
    "responses",
    "parameters",
    "examples",
    "requestBodies",
    "headers",
    "securitySchemes",
    "links",
    "callbacks",
    "pathItems",
    "definitions",
    "$defs",
];

/// Pointer tokens that say nothing of what a node is.
const FILLER: &[&str] = &["content", "schema", "properties"];

/// Whether an object of `kind` holding `$ref` is a reference (rather than,
/// say, a property named `$ref` or the document's own root).
fn refers(kind: Kind) -> bool {
    !matches!(
        kind,
        Kind::Root | Kind::Components | Kind::Responses | Kind::Discriminator
    )
}

/// The target of `node` when it is an object that only refers elsewhere: an
/// alias of its target, which chains of references are followed through. A
/// reference with members beside it (a path item's `summary`, a schema's
/// `description`) is a node of its own.
fn plain_reference(node: &Value) -> Option<&str> {
    let object = node.as_object()?;
    let reference = object.get("$ref")?.as_str()?;
    object
        .keys()
        .all(|key| key == "$ref" || key.starts_with("x-"))
        .then_some(reference)
}

/// Whether `loc` is an entry of a `components` section of the spec itself:
/// where every reference ends after bundling.
fn is_component(loc: &Loc) -> bool {
    loc.0 == 0 && component_entry(&loc.1).is_some()
}

/// `(section, name)` of a pointer `/components/{section}/{name}`.
fn component_entry(pointer: &str) -> Option<(String, String)> {
    let tokens = tokens(pointer);
    match tokens.as_slice() {
        [components, section, name] if components == "components" => {
            Some((section.clone(), name.clone()))
        }
        _ => None,
    }
}

/// The unescaped reference tokens of a JSON pointer.
fn tokens(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .split('/')
        .skip(1)
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Where the local copy of the document at `url` (another host's) is
/// under `refs`: `https://host/a/b.yaml?v=1` is `refs/host/a/b.yaml`, the
/// layout a mirror of the host has.
fn local_copy(refs: &Path, url: &str) -> PathBuf {
    let after_scheme = url.split_once("//").map_or(url, |(_, rest)| rest);
    let without_query = after_scheme.split(['?', '#']).next().unwrap_or_default();
    let mut path = refs.to_path_buf();
    for segment in without_query.split('/') {
        let segment = percent_decode(segment);
        // A segment that would leave the directory is kept as text.
        match segment.as_str() {
            "" | "." => {}
            ".." => path.push("%2E%2E"),
            _ => path.push(segment),
        }
    }
    path
}

/// `%XX` escapes decoded (URI references may carry them); anything that is
/// not a valid escape stays as written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%'
            && let Some(byte) = text
                .get(index + 1..index + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            index += 3;
            continue;
        }
        out.push(bytes[index]);
        index += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// A `$ref` found in a file: where, in what kind of place, and what it says.
struct Found {
    /// The object holding `$ref` (or the discriminator mapping entry).
    site: Loc,
    kind: Kind,
    reference: String,
    /// A discriminator mapping entry rather than a `$ref` member.
    mapping: bool,
}

/// What becomes of one reference.
#[derive(Debug, Clone)]
struct Resolved {
    target: Loc,
    /// The reference as written, for messages.
    reference: String,
}

struct File {
    path: PathBuf,
    value: Value,
    positions: BTreeMap<String, Position>,
}

/// The bundled document, and where its moved subtrees were written.
type Bundled = (Value, BTreeMap<String, Origin>);

struct Bundler<'r> {
    read: &'r mut dyn FnMut(&Path) -> Result<Vec<u8>, String>,
    /// Where local copies of documents on other hosts are (`--refs`).
    refs: Option<&'r Path>,
    files: Vec<File>,
    by_path: HashMap<PathBuf, usize>,
    /// Every reference met, by its site and the kind of its place.
    sites: HashMap<(Loc, Kind), Resolved>,
    /// Targets walked already, and in which order they were found.
    walked: HashSet<(Loc, Kind)>,
    targets: Vec<(Loc, Kind)>,
    /// Names of hoisted targets, by target and kind.
    placements: HashMap<(Loc, Kind), String>,
    /// The hoisted targets in the order their names were given.
    placed: Vec<(Loc, Kind)>,
    /// Components of the spec that are only a `$ref` and lend their name to
    /// their target, which is written in their place.
    claimed: HashSet<String>,
    /// Discriminator mapping entries that lead nowhere, each dropped with a
    /// warning (the mapping is read without them).
    warnings: Vec<Diagnostic>,
}

/// Brings every file `spec` refers to into its document (see the module
/// docs). `read` gives the bytes of a file by its path as messages name it.
pub(crate) fn bundle(
    spec: &mut LoadedSpec,
    read: &mut dyn FnMut(&Path) -> Result<Vec<u8>, String>,
    refs: Option<&Path>,
) -> Result<(), Diagnostic> {
    let source_map = std::mem::take(&mut spec.source_map);
    let root_path = normalize(&spec.path);
    let mut bundler = Bundler {
        read,
        refs,
        files: vec![File {
            path: spec.path.clone(),
            value: std::mem::take(&mut spec.document),
            positions: source_map.into_positions(),
        }],
        by_path: HashMap::from([(root_path, 0)]),
        sites: HashMap::new(),
        walked: HashSet::new(),
        targets: Vec::new(),
        placements: HashMap::new(),
        placed: Vec::new(),
        claimed: HashSet::new(),
        warnings: Vec::new(),
    };
    let outcome = bundler.run();
    for warning in std::mem::take(&mut bundler.warnings) {
        spec.warnings.push(warning);
    }
    // The spec gets its document back whatever happened, so a caller that
    // reports the error can still point into it.
    let mut files = bundler.files.into_iter();
    let root = files.next().expect("the spec is file 0");
    let mut source_map = SourceMap::of_file(&root.path, root.positions);
    match outcome {
        Ok(Some((document, origins))) => {
            spec.document = document;
            for file in files {
                source_map.add_file(&file.path, file.positions);
            }
            source_map.set_origins(origins);
        }
        Ok(None) => spec.document = root.value,
        Err(err) => {
            spec.document = root.value;
            spec.source_map = source_map;
            return Err(err);
        }
    }
    spec.source_map = source_map;
    Ok(())
}

impl Bundler<'_> {
    /// Finds every reference, names what is hoisted and writes the bundled
    /// document; `None` when the document is already bundled as it is.
    fn run(&mut self) -> Result<Option<Bundled>, Diagnostic> {
        self.discover()?;
        self.name_targets();
        if !self.changes_anything() {
            return Ok(None);
        }
        let bundler: &Bundler<'_> = self;
        let mut writer = Writer {
            bundler,
            origins: BTreeMap::new(),
            inlining: Vec::new(),
        };
        let root = &bundler.files[0].value;
        let mut document = writer.write(0, "", root, Kind::Root, "", false)?;
        let mut hoisted: Vec<(&'static str, String, Value)> = Vec::new();
        for (target, kind) in &bundler.placed {
            let name = &bundler.placements[&(target.clone(), *kind)];
            let section = kind.section().expect("only sections are hoisted");
            let out = pointer_join(&pointer_join("/components", section), name);
            if bundler.claimed.contains(&out) {
                continue;
            }
            let value = bundler.value(target);
            writer.origins.insert(
                out.clone(),
                Origin {
                    file: target.0,
                    pointer: target.1.clone(),
                },
            );
            let written = writer.write(target.0, &target.1, value, *kind, &out, true)?;
            hoisted.push((section, name.clone(), written));
        }
        let origins = writer.origins;
        if let Value::Object(root) = &mut document {
            for (section, name, value) in hoisted {
                let components = root
                    .entry("components")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(components) = components
                    && let Value::Object(entries) = components
                        .entry(section)
                        .or_insert_with(|| Value::Object(Map::new()))
                {
                    entries.insert(name, value);
                }
            }
        }
        Ok(Some((document, origins)))
    }

    fn value(&self, loc: &Loc) -> &Value {
        self.files[loc.0]
            .value
            .pointer(&loc.1)
            .expect("targets are resolved nodes")
    }

    /// A diagnostic at `pointer` of file `file`.
    fn error_in(&self, file: usize, pointer: &str, cause: impl Into<String>) -> Diagnostic {
        let file = &self.files[file];
        let diagnostic = Diagnostic::new(&file.path, cause).at_pointer(pointer);
        let mut current = pointer;
        loop {
            if let Some(position) = file.positions.get(current) {
                return diagnostic.at_position(*position);
            }
            match current.rfind('/') {
                Some(cut) => current = &current[..cut],
                None => return diagnostic,
            }
        }
    }

    /// Walks the spec, then every target of a reference, recording where
    /// each reference leads.
    fn discover(&mut self) -> Result<(), Diagnostic> {
        // A reference left out shifts the entries after it in its list, so
        // discovery starts again after each round of them; each round leaves
        // out at least one, of finitely many.
        let mut left_out = HashSet::new();
        loop {
            let unresolved = self.discover_once()?;
            if unresolved.is_empty() {
                return Ok(());
            }
            if !unresolved.iter().any(|site| left_out.insert(site.clone())) {
                // Nothing there to remove (a file's own root): read as empty.
                for site in &unresolved {
                    if let Some(node) = self.files[site.0].value.pointer_mut(&site.1) {
                        *node = Value::Object(Map::new());
                    }
                }
            }
            self.sites.clear();
            self.walked.clear();
            self.targets.clear();
            for site in unresolved {
                crate::structure::remove_entry(&mut self.files[site.0].value, &site.1);
            }
        }
    }

    /// One discovery; the sites of references that lead nowhere and are
    /// left out with their unit, deepest and last first.
    fn discover_once(&mut self) -> Result<Vec<Loc>, Diagnostic> {
        let mut left_out = Vec::new();
        let mut queue: VecDeque<(Loc, Kind)> = VecDeque::from([((0, String::new()), Kind::Root)]);
        while let Some((loc, kind)) = queue.pop_front() {
            let mut found = Vec::new();
            collect(
                loc.0,
                self.value(&loc),
                &mut loc.1.clone(),
                kind,
                &mut found,
            );
            for entry in found {
                let key = (entry.site.clone(), entry.kind);
                if self.sites.contains_key(&key) {
                    continue;
                }
                let ref_pointer = if entry.mapping {
                    entry.site.1.clone()
                } else {
                    pointer_join(&entry.site.1, "$ref")
                };
                let target = match self.canonical(entry.site.0, &ref_pointer, &entry.reference) {
                    Ok(target) => target,
                    // A mapping entry is one value's shortcut to a schema:
                    // one that leads nowhere goes, the discriminator stays.
                    Err(problem) if entry.mapping => {
                        self.drop_mapping_entry(&entry.site, problem);
                        continue;
                    }
                    Err(problem) => {
                        if let Some(site) = self.unresolved(&entry, problem) {
                            left_out.push(site);
                        }
                        continue;
                    }
                };
                let copied = entry.kind.section().is_none();
                // A component of the spec is walked with the spec; other
                // targets once per kind they are referred to as.
                let walk = !is_component(&target) || (copied && entry.kind != Kind::Other);
                let next = (target.clone(), entry.kind);
                if walk && self.walked.insert(next.clone()) {
                    self.targets.push(next.clone());
                    queue.push_back(next);
                }
                self.sites.insert(
                    key,
                    Resolved {
                        target,
                        reference: entry.reference,
                    },
                );
            }
        }
        left_out.sort_by(|a, b| b.cmp(a));
        left_out.dedup();
        Ok(left_out)
    }

    /// Reads a reference that leads nowhere (another host without a local
    /// copy, a missing file or node, a cycle), as `problem` says, with a
    /// warning: a schema as any JSON value, in place; any other unit is
    /// left out (its site is returned, to remove once discovery is done).
    fn unresolved(&mut self, entry: &Found, problem: Diagnostic) -> Option<Loc> {
        let schema = matches!(entry.kind, Kind::Schema | Kind::SchemaMap | Kind::Other);
        let how = if schema {
            "read as any JSON value"
        } else {
            "left out"
        };
        let what = match entry.kind.section() {
            Some(section) if !schema => format!("this entry of {section} is "),
            _ => String::new(),
        };
        let cause = format!("{}; {what}{how}", problem.cause);
        self.warnings
            .push(Diagnostic { cause, ..problem }.read_as(Reading::ReferenceUnresolved));
        if !schema {
            return Some(entry.site.clone());
        }
        crate::structure::read_as_any(self.files[entry.site.0].value.pointer_mut(&entry.site.1)?);
        None
    }

    /// Drops the discriminator mapping entry at `site` (whose reference
    /// leads nowhere, as `problem` says) from its file, with a warning.
    fn drop_mapping_entry(&mut self, site: &Loc, problem: Diagnostic) {
        let (mapping, key) = site.1.rsplit_once('/').unwrap_or_default();
        let key = key.replace("~1", "/").replace("~0", "~");
        if let Some(Value::Object(entries)) = self.files[site.0].value.pointer_mut(mapping) {
            entries.shift_remove(&key);
        }
        let cause = problem.cause.replacen("`$ref: ", "`", 1);
        let cause = format!("the discriminator's mapping of `{key}`: {cause}; read without it");
        self.warnings
            .push(Diagnostic { cause, ..problem }.read_as(Reading::MappingTargetMissing));
    }

    /// Where `reference` (written at `ref_pointer` of file `file`) finally
    /// leads: the first component of the spec on its way, or the node where
    /// references stop.
    fn canonical(
        &mut self,
        file: usize,
        ref_pointer: &str,
        reference: &str,
    ) -> Result<Loc, Diagnostic> {
        let mut loc = self.resolve(file, ref_pointer, reference, 0)?;
        let mut seen = HashSet::new();
        let mut first_component = None;
        loop {
            if first_component.is_none() && is_component(&loc) {
                first_component = Some(loc.clone());
            }
            if !seen.insert(loc.clone()) {
                return Err(self.error_in(
                    file,
                    ref_pointer,
                    format!(
                        "`$ref: {reference}` is part of a reference cycle that never reaches a definition"
                    ),
                ));
            }
            let Some(next) = plain_reference(self.value(&loc)).map(str::to_string) else {
                break;
            };
            let next_pointer = pointer_join(&loc.1, "$ref");
            loc = self.resolve(loc.0, &next_pointer, &next, 0)?;
        }
        Ok(first_component.unwrap_or(loc))
    }

    /// The node `reference` (written at `ref_pointer` of file `file`) names,
    /// reading its file if need be. A pointer may pass through a reference
    /// on its way (`#/components/schemas/Droplet/properties/id` where
    /// `Droplet` is a `$ref` to a file).
    fn resolve(
        &mut self,
        file: usize,
        ref_pointer: &str,
        reference: &str,
        depth: usize,
    ) -> Result<Loc, Diagnostic> {
        if depth > 32 {
            return Err(self.error_in(
                file,
                ref_pointer,
                format!("`$ref: {reference}` is part of a reference cycle that never reaches a definition"),
            ));
        }
        let (file_part, fragment) = match reference.split_once('#') {
            Some((file_part, fragment)) => (file_part, Some(fragment)),
            None => (reference, None),
        };
        if file_part.contains("://") || file_part.starts_with("//") {
            if let Some(copy) = self.refs.map(|refs| local_copy(refs, file_part)) {
                let target_file = self.load_path(file, ref_pointer, reference, copy)?;
                return self.resolve_in(file, ref_pointer, reference, target_file, fragment, depth);
            }
            return Err(self.error_in(
                file,
                ref_pointer,
                format!(
                    "`$ref: {reference}` refers to another host; the generator does not fetch \
                     (a build must be reproducible): give a copy with `--refs DIR` (at \
                     DIR/{{host}}/{{path}}), or save it beside the spec and refer to it by a \
                     relative path"
                ),
            ));
        }
        let target_file = if file_part.is_empty() {
            file
        } else {
            self.load(file, ref_pointer, reference, &percent_decode(file_part))?
        };
        self.resolve_in(file, ref_pointer, reference, target_file, fragment, depth)
    }

    /// The node `fragment` names in file `target_file`, for `reference`
    /// written at `ref_pointer` of file `file`.
    fn resolve_in(
        &mut self,
        file: usize,
        ref_pointer: &str,
        reference: &str,
        target_file: usize,
        fragment: Option<&str>,
        depth: usize,
    ) -> Result<Loc, Diagnostic> {
        let pointer = match fragment {
            None | Some("") => String::new(),
            Some(fragment) if fragment.starts_with('/') => percent_decode(fragment),
            Some(fragment) => {
                return Err(self.error_in(
                    file,
                    ref_pointer,
                    format!(
                        "`$ref: {reference}` names `#{fragment}`, which is not a JSON pointer; write `#/...` with the path to the node"
                    ),
                ));
            }
        };
        let mut loc: Loc = (target_file, String::new());
        let tokens = tokens(&pointer);
        let mut index = 0;
        let mut passed: HashSet<Loc> = HashSet::new();
        while index < tokens.len() {
            let token = &tokens[index];
            let node = self.value(&loc);
            let child = match node {
                Value::Object(object) => object.get(token.as_str()),
                Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            };
            if child.is_some() {
                loc.1 = pointer_join(&loc.1, token);
                index += 1;
                continue;
            }
            if let Some(through) = plain_reference(node).map(str::to_string) {
                // References that lead to each other, none holding the
                // token, would be followed for ever.
                if !passed.insert(loc.clone()) {
                    return Err(self.error_in(
                        file,
                        ref_pointer,
                        format!(
                            "`$ref: {reference}` is part of a reference cycle that never \
                             reaches a definition"
                        ),
                    ));
                }
                let through_pointer = pointer_join(&loc.1, "$ref");
                loc = self.resolve(loc.0, &through_pointer, &through, depth + 1)?;
                continue;
            }
            let shown_file = if target_file == file {
                String::new()
            } else {
                format!(" of `{}`", self.files[target_file].path.display())
            };
            return Err(self.error_in(
                file,
                ref_pointer,
                format!("`$ref: {reference}` does not resolve: nothing is defined at {pointer}{shown_file}"),
            ));
        }
        Ok(loc)
    }

    /// The index of the file `relative` names, relative to file `from`,
    /// reading and parsing it the first time.
    fn load(
        &mut self,
        from: usize,
        ref_pointer: &str,
        reference: &str,
        relative: &str,
    ) -> Result<usize, Diagnostic> {
        let base = self.files[from].path.parent().unwrap_or(Path::new(""));
        let path = normalize(&base.join(relative));
        self.load_path(from, ref_pointer, reference, path)
    }

    /// The index of the file at `path`, reading and parsing it the first
    /// time.
    fn load_path(
        &mut self,
        from: usize,
        ref_pointer: &str,
        reference: &str,
        path: PathBuf,
    ) -> Result<usize, Diagnostic> {
        if let Some(index) = self.by_path.get(&path) {
            return Ok(*index);
        }
        let bytes = (self.read)(&path).map_err(|err| {
            self.error_in(
                from,
                ref_pointer,
                format!(
                    "`$ref: {reference}` names `{}`, which cannot be read: {err}",
                    path.display()
                ),
            )
        })?;
        let (value, positions) = parse_file(&path, &bytes, "the file")?;
        self.files.push(File {
            path: path.clone(),
            value,
            positions,
        });
        let index = self.files.len() - 1;
        self.by_path.insert(path, index);
        Ok(index)
    }

    /// Gives every hoisted target its component name.
    fn name_targets(&mut self) {
        let root = &self.files[0].value;
        let mut taken: HashMap<String, HashSet<String>> = HashMap::new();
        let mut claims = Vec::new();
        if let Some(Value::Object(components)) = root.get("components") {
            for (section, entries) in components {
                let Some(entries) = entries.as_object() else {
                    continue;
                };
                let names = taken.entry(section.clone()).or_default();
                names.extend(entries.keys().map(|name| naming::type_name(name)));
                let Slot::Map(kind) = slot(Kind::Components, section) else {
                    continue;
                };
                for name in entries.keys() {
                    let pointer = pointer_join(&pointer_join("/components", section), name);
                    if let Some(resolved) = self.sites.get(&((0, pointer.clone()), kind))
                        && !is_component(&resolved.target)
                        && kind.section().is_some()
                    {
                        claims.push((resolved.target.clone(), kind, name.clone(), pointer));
                    }
                }
            }
        }
        for (target, kind, name, pointer) in claims {
            if let std::collections::hash_map::Entry::Vacant(entry) =
                self.placements.entry((target.clone(), kind))
            {
                entry.insert(name);
                self.placed.push((target, kind));
                self.claimed.insert(pointer);
            }
        }
        for (target, kind) in self.targets.clone() {
            let Some(section) = kind.section() else {
                continue;
            };
            if is_component(&target) || self.placements.contains_key(&(target.clone(), kind)) {
                continue;
            }
            let base = self.derived_name(&target, kind);
            let names = taken.entry(section.to_string()).or_default();
            let mut name = base.clone();
            let mut suffix = 1;
            while names.contains(&naming::type_name(&name)) {
                suffix += 1;
                name = if base.ends_with(|c: char| c.is_ascii_digit()) {
                    format!("{base}_{suffix}")
                } else {
                    format!("{base}{suffix}")
                };
            }
            names.insert(naming::type_name(&name));
            self.placements.insert((target.clone(), kind), name);
            self.placed.push((target, kind));
        }
    }

    /// A readable name for a hoisted target, before disambiguation: the
    /// named part of its pointer (`Tag/allOf/0` of `#/components/schemas/Tag/allOf/0`,
    /// `ratelimit-limit` of `headers.yml#/ratelimit-limit`), the file's name
    /// for a whole file or a pointer into a schema, a parameter's `name` for
    /// one given by its place in a list.
    fn derived_name(&self, target: &Loc, kind: Kind) -> String {
        let value = self.value(target);
        let all = tokens(&target.1);
        let mut words: Vec<String> = match all.as_slice() {
            [components, _, rest @ ..] if components == "components" && !rest.is_empty() => {
                rest.to_vec()
            }
            [section, rest @ ..] if SECTIONS.contains(&section.as_str()) && !rest.is_empty() => {
                rest.to_vec()
            }
            [paths, path, method, rest @ ..] if paths == "paths" => {
                let operation_id = self.files[target.0]
                    .value
                    .pointer(&pointer_join(
                        &pointer_join(&pointer_join("/paths", path), method),
                        "operationId",
                    ))
                    .and_then(Value::as_str);
                match operation_id {
                    Some(id) => std::iter::once(id.to_string())
                        .chain(rest.iter().cloned())
                        .collect(),
                    None => path
                        .split(['/', '{', '}'])
                        .filter(|word| !word.is_empty())
                        .map(str::to_string)
                        .chain([method.clone()])
                        .chain(rest.iter().cloned())
                        .collect(),
                }
            }
            _ => all.clone(),
        };
        if kind == Kind::Parameter
            && words
                .last()
                .is_some_and(|last| last.parse::<usize>().is_ok())
            && let Some(name) = value.get("name").and_then(Value::as_str)
        {
            words = vec![name.to_string()];
        }
        let starts_with_keyword = words
            .first()
            .is_none_or(|first| SCHEMA_KEYWORDS.contains(&first.as_str()));
        words.retain(|word| !FILLER.contains(&word.as_str()) && !word.contains('/'));
        if target.0 != 0 && starts_with_keyword {
            let stem = self.files[target.0]
                .path
                .file_stem()
                .map(|stem| stem.to_string_lossy().to_string())
                .unwrap_or_default();
            words.insert(0, stem);
        }
        let name: String = words
            .join("_")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let name = name.trim_matches('_');
        if naming::type_name(name).is_empty() || name.is_empty() {
            kind.section().unwrap_or("component").to_string()
        } else {
            name.to_string()
        }
    }

    /// Whether bundling changes the document: anything hoisted or copied,
    /// or a reference not written as the component it names.
    fn changes_anything(&self) -> bool {
        !self.placed.is_empty()
            || self.sites.iter().any(|((_, kind), resolved)| {
                (kind.section().is_none() && *kind != Kind::Other)
                    || !is_component(&resolved.target)
                    || resolved.reference != format!("#{}", resolved.target.1)
            })
    }
}

/// Collects the references in `value` (at `pointer` of file `file`), an
/// object of `kind`, without following them.
fn collect(file: usize, value: &Value, pointer: &mut String, kind: Kind, found: &mut Vec<Found>) {
    match value {
        Value::Object(object) => {
            if refers(kind)
                && let Some(Value::String(reference)) = object.get("$ref")
            {
                found.push(Found {
                    site: (file, pointer.clone()),
                    kind,
                    reference: reference.clone(),
                    mapping: false,
                });
            }
            if kind == Kind::Discriminator
                && let Some(Value::Object(mapping)) = object.get("mapping")
            {
                for (key, target) in mapping {
                    if let Value::String(reference) = target
                        && mapping_is_reference(reference)
                    {
                        found.push(Found {
                            site: (file, pointer_join(&pointer_join(pointer, "mapping"), key)),
                            kind: Kind::Schema,
                            reference: reference.clone(),
                            mapping: true,
                        });
                    }
                }
            }
            for (key, child) in object {
                if key == "$ref" {
                    continue;
                }
                let length = pointer.len();
                pointer.push('/');
                pointer.push_str(&escape_pointer_token(key));
                match slot(kind, key) {
                    Slot::Data => {}
                    Slot::One(inner) => collect(file, child, pointer, inner, found),
                    Slot::OneOrList(inner) if !child.is_array() => {
                        collect(file, child, pointer, inner, found)
                    }
                    Slot::List(inner) | Slot::OneOrList(inner) => {
                        if let Value::Array(items) = child {
                            for (index, item) in items.iter().enumerate() {
                                let length = pointer.len();
                                pointer.push('/');
                                pointer.push_str(&index.to_string());
                                collect(file, item, pointer, inner, found);
                                pointer.truncate(length);
                            }
                        }
                    }
                    Slot::Map(inner) => {
                        if let Value::Object(entries) = child {
                            for (name, entry) in entries {
                                let length = pointer.len();
                                pointer.push('/');
                                pointer.push_str(&escape_pointer_token(name));
                                collect(file, entry, pointer, inner, found);
                                pointer.truncate(length);
                            }
                        }
                    }
                }
                pointer.truncate(length);
            }
        }
        Value::Array(items) if kind == Kind::Other => {
            for (index, item) in items.iter().enumerate() {
                let length = pointer.len();
                pointer.push('/');
                pointer.push_str(&index.to_string());
                collect(file, item, pointer, kind, found);
                pointer.truncate(length);
            }
        }
        _ => {}
    }
}

/// A discriminator mapping value is a schema's name or a reference; only
/// references are followed (a name stays a name).
pub(crate) fn mapping_is_reference(value: &str) -> bool {
    value.contains('#')
        || value.contains('/')
        || [".yaml", ".yml", ".json"]
            .iter()
            .any(|extension| value.ends_with(extension))
}

/// Writes the bundled document.
struct Writer<'b, 'r> {
    bundler: &'b Bundler<'r>,
    origins: BTreeMap<String, Origin>,
    /// Targets being copied in, outermost first: a reference among them
    /// would copy forever.
    inlining: Vec<(Loc, Kind)>,
}

impl<'b> Writer<'b, '_> {
    /// `value`, found at `src` of file `file` as an object of `kind`, as it
    /// is written at `out`. `hoisted_root`: `value` is a hoisted target being
    /// written in its component (elsewhere it becomes a `$ref` to it).
    fn write(
        &mut self,
        file: usize,
        src: &str,
        value: &'b Value,
        kind: Kind,
        out: &str,
        hoisted_root: bool,
    ) -> Result<Value, Diagnostic> {
        if !hoisted_root
            && let Some(section) = kind.section()
            && !self.bundler.placements.is_empty()
        {
            let loc = (file, src.to_string());
            if !is_component(&loc)
                && let Some(name) = self.bundler.placements.get(&(loc, kind))
            {
                return Ok(reference_to(section, name));
            }
        }
        match value {
            Value::Object(object) => {
                if refers(kind) && matches!(object.get("$ref"), Some(Value::String(_))) {
                    return self.write_reference(file, src, object, kind, out);
                }
                self.write_members(file, src, object, kind, out)
            }
            Value::Array(items) if kind == Kind::Other => {
                let mut array = Vec::with_capacity(items.len());
                for (index, item) in items.iter().enumerate() {
                    let token = index.to_string();
                    array.push(self.write(
                        file,
                        &pointer_join(src, &token),
                        item,
                        kind,
                        &pointer_join(out, &token),
                        false,
                    )?);
                }
                Ok(Value::Array(array))
            }
            other => Ok(other.clone()),
        }
    }

    fn write_members(
        &mut self,
        file: usize,
        src: &str,
        object: &'b Map<String, Value>,
        kind: Kind,
        out: &str,
    ) -> Result<Value, Diagnostic> {
        let mut written = Map::with_capacity(object.len());
        for (key, child) in object {
            let child_src = pointer_join(src, key);
            let child_out = pointer_join(out, key);
            let value = self.write_member(file, &child_src, child, slot(kind, key), &child_out)?;
            written.insert(key.clone(), value);
        }
        if kind == Kind::Discriminator
            && let Some(Value::Object(mapping)) = written.get_mut("mapping")
        {
            let mapping_src = pointer_join(src, "mapping");
            for (key, target) in mapping.iter_mut() {
                let site = (file, pointer_join(&mapping_src, key));
                if let Some(resolved) = self.bundler.sites.get(&(site, Kind::Schema))
                    && let Some(reference) =
                        self.component_reference(&resolved.target, Kind::Schema)
                {
                    *target = Value::String(reference);
                }
            }
        }
        Ok(Value::Object(written))
    }

    /// One member, held in `slot`.
    fn write_member(
        &mut self,
        file: usize,
        src: &str,
        child: &'b Value,
        slot: Slot,
        out: &str,
    ) -> Result<Value, Diagnostic> {
        let list = |writer: &mut Self, items: &'b [Value], inner: Kind| {
            let mut array = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                let token = index.to_string();
                array.push(writer.write(
                    file,
                    &pointer_join(src, &token),
                    item,
                    inner,
                    &pointer_join(out, &token),
                    false,
                )?);
            }
            Ok(Value::Array(array))
        };
        match (slot, child) {
            (Slot::Data, _) => Ok(child.clone()),
            (Slot::One(inner), _) => self.write(file, src, child, inner, out, false),
            (Slot::OneOrList(inner), Value::Array(items))
            | (Slot::List(inner), Value::Array(items)) => list(self, items, inner),
            (Slot::OneOrList(inner), _) => self.write(file, src, child, inner, out, false),
            (Slot::Map(inner), Value::Object(entries)) => {
                let mut written = Map::with_capacity(entries.len());
                for (name, entry) in entries {
                    let value = self.write(
                        file,
                        &pointer_join(src, name),
                        entry,
                        inner,
                        &pointer_join(out, name),
                        false,
                    )?;
                    written.insert(name.clone(), value);
                }
                Ok(Value::Object(written))
            }
            (Slot::List(_) | Slot::Map(_), _) => Ok(child.clone()),
        }
    }

    /// `#/components/{section}/{name}` for `target` referred to as `kind`,
    /// when it is a component or hoisted.
    fn component_reference(&self, target: &Loc, kind: Kind) -> Option<String> {
        if is_component(target) {
            return Some(format!("#{}", target.1));
        }
        let section = kind.section()?;
        let name = self.bundler.placements.get(&(target.clone(), kind))?;
        Some(format!(
            "#/components/{section}/{}",
            escape_pointer_token(name)
        ))
    }

    /// An object holding `$ref`: a reference to a component, or its target
    /// copied in with the object's other members over it.
    fn write_reference(
        &mut self,
        file: usize,
        src: &str,
        object: &'b Map<String, Value>,
        kind: Kind,
        out: &str,
    ) -> Result<Value, Diagnostic> {
        let resolved = self
            .bundler
            .sites
            .get(&((file, src.to_string()), kind))
            .expect("every reference was found while discovering")
            .clone();
        let claimed = file == 0 && self.bundler.claimed.contains(src);
        let keep = kind != Kind::Other || is_component(&resolved.target);
        if !claimed
            && (kind.section().is_some() || (keep && kind == Kind::Other))
            && let Some(reference) = self.component_reference(&resolved.target, kind)
        {
            let mut written = Map::with_capacity(object.len());
            for (key, child) in object {
                let value = if key == "$ref" {
                    Value::String(reference.clone())
                } else {
                    let child_src = pointer_join(src, key);
                    let child_out = pointer_join(out, key);
                    self.write_member(file, &child_src, child, slot(kind, key), &child_out)?
                };
                written.insert(key.clone(), value);
            }
            return Ok(Value::Object(written));
        }
        // Copied in: a path item or operation given by `$ref`, a component
        // of the spec that lends its name, or a value where no component
        // can stand.
        let entry = (resolved.target.clone(), kind);
        if self.inlining.contains(&entry) {
            return Err(self.bundler.error_in(
                file,
                &pointer_join(src, "$ref"),
                format!(
                    "`$ref: {}` is part of a reference cycle that never reaches a definition",
                    resolved.reference
                ),
            ));
        }
        self.inlining.push(entry);
        let target = self.bundler.value(&resolved.target);
        self.origins.insert(
            out.to_string(),
            Origin {
                file: resolved.target.0,
                pointer: resolved.target.1.clone(),
            },
        );
        let mut written = self.write(
            resolved.target.0,
            &resolved.target.1,
            target,
            kind,
            out,
            claimed,
        )?;
        self.inlining.pop();
        if let Value::Object(written) = &mut written {
            for (key, child) in object {
                if key == "$ref" {
                    continue;
                }
                let child_src = pointer_join(src, key);
                let child_out = pointer_join(out, key);
                self.origins.insert(
                    child_out.clone(),
                    Origin {
                        file,
                        pointer: child_src.clone(),
                    },
                );
                let value =
                    self.write_member(file, &child_src, child, slot(kind, key), &child_out)?;
                written.insert(key.clone(), value);
            }
        }
        Ok(written)
    }
}

/// `{"$ref": "#/components/{section}/{name}"}`.
fn reference_to(section: &str, name: &str) -> Value {
    Value::Object(Map::from_iter([(
        "$ref".to_string(),
        Value::String(format!(
            "#/components/{section}/{}",
            escape_pointer_token(name)
        )),
    )]))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use serde_json::{Value, json};

    use crate::load::{LoadedSpec, parse_spec_with};

    /// Loads `files["api.yaml"]`, reading the others from `files`.
    fn load(files: &[(&str, &str)]) -> Result<LoadedSpec, String> {
        let files: BTreeMap<&str, &str> = files.iter().copied().collect();
        let mut read = |path: &Path| {
            files
                .get(path.to_str().unwrap())
                .map(|text| text.as_bytes().to_vec())
                .ok_or_else(|| "there is no such file".to_string())
        };
        parse_spec_with(
            Path::new("api.yaml"),
            files["api.yaml"].as_bytes(),
            &mut read,
        )
        .map_err(|err| err.to_string())
    }

    fn loaded(files: &[(&str, &str)]) -> LoadedSpec {
        load(files).unwrap_or_else(|err| panic!("{err}"))
    }

    /// Every `$ref` of the document, in document order.
    fn references(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(object) => {
                for (key, child) in object {
                    match (key.as_str(), child) {
                        ("$ref", Value::String(reference)) => out.push(reference.clone()),
                        _ => references(child, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| references(item, out)),
            _ => {}
        }
    }

    fn names(spec: &LoadedSpec, section: &str) -> Vec<String> {
        spec.document["components"][section]
            .as_object()
            .map(|entries| entries.keys().cloned().collect())
            .unwrap_or_default()
    }

    const HEAD: &str = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\n";

    #[test]
    fn other_files_become_components_and_operations_are_copied_in() {
        let root = format!(
            "{HEAD}paths:
  /pets:
    get:
      $ref: ops/list.yaml
components:
  schemas:
    Pet:
      $ref: models/pet.yaml
"
        );
        let spec = loaded(&[
            ("api.yaml", &root),
            (
                "ops/list.yaml",
                "operationId: list_pets
parameters:
  - $ref: '../shared.yaml#/limit'
responses:
  '200':
    $ref: responses/pets.yaml
  '500':
    $ref: '../shared.yaml#/responses/error'
",
            ),
            (
                "ops/responses/pets.yaml",
                "description: the pets
headers:
  x-rate:
    $ref: '../../shared.yaml#/headers/x-rate'
content:
  application/json:
    schema:
      type: array
      items:
        $ref: ../../models/pet.yaml
",
            ),
            (
                "shared.yaml",
                "limit: {name: limit, in: query, schema: {type: integer}}
headers:
  x-rate: {schema: {type: integer}}
responses:
  error:
    description: failed
    content:
      application/json:
        schema: {$ref: 'models/error.yaml'}
",
            ),
            (
                "models/pet.yaml",
                "type: object
properties:
  name: {type: string}
  owner: {$ref: '#/properties/name'}
  friends: {type: array, items: {$ref: pet.yaml}}
",
            ),
            (
                "models/error.yaml",
                "type: object\nproperties: {message: {type: string}}\n",
            ),
        ]);
        let document = &spec.document;
        let operation = &document["paths"]["/pets"]["get"];
        assert_eq!(operation["operationId"], "list_pets");
        assert_eq!(
            operation["parameters"][0]["$ref"],
            "#/components/parameters/limit"
        );
        assert_eq!(
            operation["responses"]["200"]["$ref"],
            "#/components/responses/pets"
        );
        assert_eq!(
            operation["responses"]["500"]["$ref"],
            "#/components/responses/error"
        );
        // The spec's `Pet: {$ref: models/pet.yaml}` gives the file its name;
        // the other references to it (one from itself) share it.
        assert_eq!(names(&spec, "schemas"), ["Pet", "pet_name", "error"]);
        let pet = &document["components"]["schemas"]["Pet"];
        assert_eq!(pet["type"], "object");
        assert_eq!(
            pet["properties"]["friends"]["items"]["$ref"],
            "#/components/schemas/Pet"
        );
        // A pointer into a file names a node of it: hoisted, and the place it
        // was written refers to it, so it is one type.
        assert_eq!(
            pet["properties"]["name"]["$ref"],
            "#/components/schemas/pet_name"
        );
        assert_eq!(
            pet["properties"]["owner"]["$ref"],
            "#/components/schemas/pet_name"
        );
        assert_eq!(
            document["components"]["responses"]["pets"]["content"]["application/json"]["schema"]["items"]
                ["$ref"],
            "#/components/schemas/Pet"
        );
        assert_eq!(names(&spec, "headers"), ["x-rate"]);
        let mut all = Vec::new();
        references(document, &mut all);
        for reference in &all {
            let name = reference
                .strip_prefix("#/components/")
                .and_then(|rest| rest.split_once('/'))
                .filter(|(_, name)| !name.contains('/'));
            let (section, name) = name.unwrap_or_else(|| panic!("{reference}"));
            assert!(
                document["components"][section].get(name).is_some(),
                "{reference}"
            );
        }

        // Messages name the file and line where a node was written.
        let place = |pointer: &str| spec.error_at(pointer, "x").to_string();
        assert_eq!(
            place("/paths/~1pets/get/responses"),
            "ops/list.yaml:4:1: error: x (at /responses)"
        );
        assert_eq!(
            place("/components/schemas/Pet/properties/friends/items"),
            "models/pet.yaml:5:26: error: x (at /properties/friends/items)"
        );
        assert_eq!(
            place("/components/responses/pets/content/application~1json/schema/type"),
            "ops/responses/pets.yaml:8:13: error: x (at /content/application~1json/schema/type)"
        );
        assert_eq!(
            place("/components/parameters/limit/in"),
            "shared.yaml:1:26: error: x (at /limit/in)"
        );
        assert_eq!(
            place("/info/title"),
            "api.yaml:2:15: error: x (at /info/title)"
        );
    }

    #[test]
    fn any_pointer_into_the_spec_is_hoisted_once_under_a_readable_name() {
        let root = format!(
            "{HEAD}paths:
  /pets:
    get:
      operationId: list_pets
      parameters:
        - name: limit
          in: query
          schema: {{type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {{$ref: '#/components/schemas/Tag/allOf/0'}}
        '409':
          description: conflict
          content:
            application/json:
              schema: {{$ref: '#/components/responses/Conflict/content/application~1json/schema'}}
  /pets/{{id}}:
    get:
      parameters:
        - $ref: '#/paths/~1pets/get/parameters/0'
        - {{name: id, in: path, required: true, schema: {{type: string}}}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {{$ref: '#/components/schemas/Tag/allOf/0'}}
components:
  responses:
    Conflict:
      description: conflict
      content:
        application/json:
          schema: {{type: object, properties: {{code: {{type: string}}}}}}
  schemas:
    Tag:
      allOf:
        - {{type: object, properties: {{name: {{type: string}}}}}}
        - {{type: object}}
    Conflict: {{type: string}}
"
        );
        let spec = loaded(&[("api.yaml", &root)]);
        let document = &spec.document;
        let schemas = &document["components"]["schemas"];
        assert_eq!(
            names(&spec, "schemas"),
            ["Tag", "Conflict", "Tag_allOf_0", "Conflict2"]
        );
        assert_eq!(
            schemas["Tag"]["allOf"][0]["$ref"],
            "#/components/schemas/Tag_allOf_0"
        );
        assert_eq!(
            schemas["Tag_allOf_0"]["properties"]["name"]["type"],
            "string"
        );
        assert_eq!(
            document["components"]["responses"]["Conflict"]["content"]["application/json"]["schema"]
                ["$ref"],
            "#/components/schemas/Conflict2"
        );
        let pets = &document["paths"]["/pets"]["get"];
        assert_eq!(
            pets["parameters"][0]["$ref"],
            "#/components/parameters/limit"
        );
        assert_eq!(
            document["paths"]["/pets/{id}"]["get"]["parameters"][0]["$ref"],
            "#/components/parameters/limit"
        );
        assert_eq!(document["components"]["parameters"]["limit"]["in"], "query");
        // Moved nodes are reported where they were written.
        assert_eq!(
            spec.error_at("/components/schemas/Conflict2/properties/code", "x")
                .to_string(),
            "api.yaml:39:47: error: x (at /components/responses/Conflict/content/application~1json/schema/properties/code)"
        );
    }

    #[test]
    fn hoisted_names_keep_apart_after_conversion_in_order_of_discovery() {
        let root = format!(
            "{HEAD}paths:
  /a:
    get:
      operationId: a
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {{$ref: 'a/error.yaml'}}
        '400':
          description: bad
          content:
            application/json:
              schema: {{$ref: 'b/error.yaml'}}
        '500':
          description: worse
          content:
            application/json:
              schema: {{$ref: './a/../a/error.yaml'}}
components:
  schemas:
    Error: {{type: object}}
"
        );
        let spec = loaded(&[
            ("api.yaml", &root),
            ("a/error.yaml", "type: string"),
            ("b/error.yaml", "type: integer"),
        ]);
        assert_eq!(names(&spec, "schemas"), ["Error", "error2", "error3"]);
        let responses = &spec.document["paths"]["/a"]["get"]["responses"];
        let schema = |status: &str| {
            responses[status]["content"]["application/json"]["schema"]["$ref"].clone()
        };
        assert_eq!(schema("200"), "#/components/schemas/error2");
        assert_eq!(schema("400"), "#/components/schemas/error3");
        assert_eq!(
            schema("500"),
            "#/components/schemas/error2",
            "one file, one name"
        );
    }

    #[test]
    fn path_items_given_by_ref_are_copied_in_with_their_siblings() {
        let root = format!(
            "{HEAD}paths:
  /pets:
    $ref: 'paths/pets.yaml'
    summary: Pets
  /other:
    $ref: '#/paths/~1pets'
"
        );
        let spec = loaded(&[
            ("api.yaml", &root),
            (
                "paths/pets.yaml",
                "summary: from the file\nget:\n  operationId: list\n  responses:\n    '204': {description: none}\n",
            ),
        ]);
        let pets = &spec.document["paths"]["/pets"];
        assert_eq!(pets["summary"], "Pets");
        assert_eq!(pets["get"]["operationId"], "list");
        assert_eq!(spec.document["paths"]["/other"], *pets);
        assert_eq!(
            spec.error_at("/paths/~1pets/get/responses/204", "x")
                .to_string(),
            "paths/pets.yaml:5:5: error: x (at /get/responses/204)"
        );
        assert_eq!(
            spec.error_at("/paths/~1pets/summary", "x").to_string(),
            "api.yaml:6:14: error: x (at /paths/~1pets/summary)"
        );
    }

    #[test]
    fn a_spec_without_other_files_or_deep_pointers_is_left_as_it_is() {
        let root = format!(
            "{HEAD}paths:
  /a:
    get:
      operationId: a
      responses:
        '200': {{$ref: '#/components/responses/Ok'}}
components:
  responses:
    Ok: {{description: ok, content: {{application/json: {{schema: {{$ref: '#/components/schemas/A'}}}}}}}}
  schemas:
    A: {{$ref: '#/components/schemas/B'}}
    B: {{type: object, properties: {{me: {{$ref: '#/components/schemas/B'}}}}}}
"
        );
        let spec = loaded(&[("api.yaml", &root)]);
        let plain = crate::load::parse_spec(Path::new("api.yaml"), root.as_bytes()).unwrap();
        assert_eq!(spec.document, plain.document);
        assert_eq!(
            spec.document["components"]["schemas"]["A"],
            json!({"$ref": "#/components/schemas/B"})
        );
    }

    #[test]
    fn what_cannot_be_bundled_is_read_with_a_warning_where_the_reference_is_written() {
        let with_schema = |schema: &str| {
            format!(
                "{HEAD}paths:
  /a:
    get:
      operationId: a
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {schema}
"
            )
        };
        let warned = |files: &[(&str, &str)]| -> (Value, String) {
            let spec = load(files).unwrap_or_else(|err| panic!("{err}"));
            let warnings = spec.warnings.take().to_string();
            (spec.document, warnings)
        };
        let schema = |document: &Value| {
            document["paths"]["/a"]["get"]["responses"]["200"]["content"]["application/json"]
                ["schema"]
                .clone()
        };
        let (document, warnings) =
            warned(&[("api.yaml", &with_schema("{$ref: 'models/missing.yaml'}"))]);
        assert_eq!(schema(&document), json!({}));
        assert_eq!(
            warnings,
            "api.yaml:12:30: warning[reference-unresolved]: `$ref: models/missing.yaml` names `models/missing.yaml`, which cannot be read: there is no such file; read as any JSON value (at /paths/~1a/get/responses/200/content/application~1json/schema/$ref)"
        );
        let (_, warnings) = warned(&[
            ("api.yaml", &with_schema("{$ref: 'models/a.yaml'}")),
            (
                "models/a.yaml",
                "type: object\nproperties:\n  b: {$ref: 'b.yaml#/definitions/Nope'}\n",
            ),
            ("models/b.yaml", "definitions: {}\n"),
        ]);
        assert_eq!(
            warnings,
            "models/a.yaml:3:13: warning[reference-unresolved]: `$ref: b.yaml#/definitions/Nope` does not resolve: nothing is defined at /definitions/Nope of `models/b.yaml`; read as any JSON value (at /properties/b/$ref)"
        );
        let (_, warnings) = warned(&[(
            "api.yaml",
            &with_schema("{$ref: 'https://example.com/pet.yaml'}"),
        )]);
        assert!(
            warnings.starts_with("api.yaml:12:30: warning[reference-unresolved]: `$ref: https://example.com/pet.yaml` refers to another host; the generator does not fetch"),
            "{warnings}"
        );
        let (_, warnings) = warned(&[("api.yaml", &with_schema("{$ref: '#Pet'}"))]);
        assert!(
            warnings.contains("which is not a JSON pointer"),
            "{warnings}"
        );
        let (_, warnings) = warned(&[
            ("api.yaml", &with_schema("{$ref: 'a.yaml'}")),
            ("a.yaml", "$ref: b.yaml"),
            ("b.yaml", "$ref: a.yaml"),
        ]);
        assert_eq!(
            warnings,
            "api.yaml:12:30: warning[reference-unresolved]: `$ref: a.yaml` is part of a reference cycle that never reaches a definition; read as any JSON value (at /paths/~1a/get/responses/200/content/application~1json/schema/$ref)"
        );
        // A file referred to that is not JSON or YAML is located in it.
        let (_, warnings) = warned(&[
            ("api.yaml", &with_schema("{$ref: 'a.json'}")),
            ("a.json", "{\n  \"type\": \"object\",\n}"),
        ]);
        assert_eq!(
            warnings,
            "a.json:3:1: warning[reference-unresolved]: invalid JSON: expected a member name in double quotes, found `}`; read as any JSON value"
        );
        // Units other than schemas are left out.
        let path_loop = format!(
            "{HEAD}paths:\n  /a:\n    $ref: '#/paths/~1b'\n  /b:\n    $ref: '#/paths/~1a'\n  /c: {{}}\n"
        );
        let (document, warnings) = warned(&[("api.yaml", &path_loop)]);
        assert!(warnings.contains("reference cycle"), "{warnings}");
        assert_eq!(document["paths"], json!({"/c": {}}));
    }

    #[test]
    fn properties_given_by_ref_are_copied_in() {
        let root = format!(
            "{HEAD}paths: {{}}
components:
  schemas:
    Balancer:
      type: object
      properties:
        $ref: 'attributes.yaml#/droplets'
"
        );
        let spec = loaded(&[
            ("api.yaml", &root),
            (
                "attributes.yaml",
                "droplets:\n  droplet_ids: {type: array, items: {$ref: 'id.yaml'}}\n  x-tag: {type: string}\n",
            ),
            ("id.yaml", "type: integer"),
        ]);
        let properties = &spec.document["components"]["schemas"]["Balancer"]["properties"];
        assert_eq!(
            properties["droplet_ids"]["items"]["$ref"],
            "#/components/schemas/id"
        );
        assert_eq!(properties["x-tag"]["type"], "string");
        assert_eq!(
            spec.error_at("/components/schemas/Balancer/properties/droplet_ids", "x")
                .to_string(),
            "attributes.yaml:2:3: error: x (at /droplets/droplet_ids)"
        );
    }

    #[test]
    fn discriminator_mappings_to_files_name_the_hoisted_schema() {
        let root = format!(
            "{HEAD}paths: {{}}
components:
  schemas:
    Pet:
      oneOf: [{{$ref: 'cat.yaml'}}]
      discriminator:
        propertyName: kind
        mapping: {{cat: 'cat.yaml', dog: Dog}}
    Dog: {{type: object}}
"
        );
        let spec = loaded(&[("api.yaml", &root), ("cat.yaml", "type: object")]);
        let pet = &spec.document["components"]["schemas"]["Pet"];
        assert_eq!(pet["oneOf"][0]["$ref"], "#/components/schemas/cat");
        assert_eq!(
            pet["discriminator"]["mapping"],
            json!({"cat": "#/components/schemas/cat", "dog": "Dog"})
        );
    }
}
