//! The house rules a test can see (rust-analyzer's `tidy.rs` is the
//! model): the docs stay a road and a map, not a notebook of runs, each
//! list of OpenAPI's vocabulary has one definition
//! (`crates/codegen/src/vocabulary.rs`), and the generator's modules import
//! each other in no circle of more than two files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use workspace_tests::workspace_root;

/// The README is the user's road, ARCHITECTURE the map: about 250 and 450
/// lines, with room for a paragraph.
const LINE_BUDGETS: &[(&str, usize)] = &[("README.md", 260), ("ARCHITECTURE.md", 470)];

/// Units of what benches measure; a figure in one of them is a reading
/// that goes stale, which belongs in what the benches print.
const MEASURED_UNITS: &[&str] = &["ms", "s", "seconds", "minutes", "KiB", "MiB", "GiB"];

/// The names a list of every method holds; a file that spells them all
/// out close together holds a second definition of the list.
const METHOD_NAMES: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// The generator's sources. A module may lean on one other that leans back
/// (a child and its parent), but in a circle of three files or more none of
/// them can be read, tested or moved without all the others.
const CODEGEN_SOURCES: &str = "crates/codegen/src";

/// Macros whose input is generated code: a `crate::` path inside them names
/// a module of the generated crate, not one of the generator's.
const EMITTING_MACROS: &[&str] = &["quote", "quote_spanned", "parse_quote"];

#[test]
fn docs_keep_to_their_size() {
    for &(doc, budget) in LINE_BUDGETS {
        let lines = read(&workspace_root().join(doc)).lines().count();
        assert!(lines <= budget, "{doc} has {lines} lines, over {budget}");
    }
}

#[test]
fn docs_hold_no_dated_runs() {
    for doc in ["README.md", "ARCHITECTURE.md"] {
        let text = read(&workspace_root().join(doc));
        for (number, line) in prose_lines(&text) {
            assert!(
                !has_date(&line),
                "{doc}:{number}: a date outside code: {line}"
            );
        }
    }
}

#[test]
fn architecture_quotes_no_measured_figures() {
    let text = read(&workspace_root().join("ARCHITECTURE.md"));
    for (number, line) in prose_lines(&text) {
        if let Some(figure) = measured_figure(&line) {
            panic!(
                "ARCHITECTURE.md:{number}: `{figure}` is a measured figure; \
                 point at the bench that prints it"
            );
        }
    }
}

#[test]
fn the_methods_are_listed_once() {
    let root = workspace_root();
    let definition = root.join("crates/codegen/src/vocabulary.rs");
    let this_test = root.join("tests/tidy.rs");
    let mut copies = Vec::new();
    for dir in ["crates", "xtask", "tests", "examples"] {
        for file in rust_files(&root.join(dir)) {
            if file != definition && file != this_test && lists_every_method(&read(&file)) {
                copies.push(file.strip_prefix(&root).unwrap().display().to_string());
            }
        }
    }
    assert!(
        lists_every_method(&read(&definition)),
        "the definition moved: update this test"
    );
    assert!(
        copies.is_empty(),
        "copies of vocabulary::METHODS: {copies:?}"
    );
}

#[test]
fn the_rules_catch_what_they_are_for() {
    assert!(has_date("measured on 2026-11-24, 3 s"));
    assert!(!has_date("version 1.2.3-rc.1"));
    assert_eq!(measured_figure("it takes 2.9 s here"), Some("2.9 s".into()));
    assert_eq!(measured_figure("peak 5.4 GiB"), Some("5.4 GiB".into()));
    assert_eq!(measured_figure("HTTP/1.1 and 3 examples"), None);
    assert!(lists_every_method(
        r#"["trace", "get", "put", "post", "delete", "patch", "head", "options"]"#
    ));
    assert!(!lists_every_method(
        r#"["get", "put", "post", "delete", "patch"]"#
    ));
    let lines = prose_lines("a `2026-01-01` b\n```\n2026-01-01 in code\n```\nc");
    assert!(lines.iter().all(|(_, line)| !has_date(line)), "{lines:?}");
}

#[test]
fn codegen_modules_import_in_no_circle_of_more_than_two() {
    let sources = workspace_root().join(CODEGEN_SOURCES);
    let files: BTreeMap<Vec<String>, String> = rust_files(&sources)
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(&sources).unwrap();
            (module_of(relative), relative.display().to_string())
        })
        .collect();
    let modules: BTreeSet<Vec<String>> = files.keys().cloned().collect();
    let mut imports = BTreeMap::new();
    let mut evidence = BTreeMap::new();
    for (module, file) in &files {
        let source = read(&sources.join(file));
        let targets = imports.entry(file.clone()).or_insert_with(BTreeSet::new);
        for (target, path) in imported_modules(module, &source, &modules) {
            targets.insert(files[&target].clone());
            evidence.insert((file.clone(), files[&target].clone()), path);
        }
    }
    let circles: Vec<String> = circles_of_more_than_two(&imports)
        .iter()
        .map(|circle| {
            let mut report = format!("{circle:?}:");
            for from in circle {
                for to in imports[from].intersection(circle) {
                    let path = &evidence[&(from.clone(), to.clone())];
                    report.push_str(&format!("\n    {from} -> {to} ({path})"));
                }
            }
            report
        })
        .collect();
    assert!(
        circles.is_empty(),
        "files of {CODEGEN_SOURCES} that import each other in a circle of more \
         than two (move what they share where each can import it):\n  {}",
        circles.join("\n  ")
    );
}

#[test]
fn the_circle_check_catches_what_it_is_for() {
    let graph = |edges: &[(&str, &str)]| {
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for &(from, to) in edges {
            graph.entry(from.into()).or_default().insert(to.into());
            graph.entry(to.into()).or_default();
        }
        graph
    };
    let names = |names: &[&str]| names.iter().map(|name| name.to_string()).collect();
    let circles = |edges| circles_of_more_than_two(&graph(edges));
    let ring_and_pair = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "e"), ("e", "d")];
    assert_eq!(circles(&ring_and_pair), vec![names(&["a", "b", "c"])]);
    let pair_beside_a_ring = [
        ("a", "b"),
        ("b", "c"),
        ("c", "a"),
        ("c", "d"),
        ("d", "e"),
        ("e", "d"),
    ];
    assert_eq!(circles(&pair_beside_a_ring), vec![names(&["a", "b", "c"])]);
    let through_one_file = [
        ("load", "bundle"),
        ("bundle", "load"),
        ("load", "lower"),
        ("lower", "load"),
    ];
    assert_eq!(
        circles(&through_one_file),
        vec![names(&["bundle", "load", "lower"])]
    );
    assert!(circles(&[("child", "parent"), ("parent", "child"), ("x", "child")]).is_empty());

    let modules: BTreeSet<Vec<String>> = [
        "",
        "emit",
        "emit::manifest",
        "emit::server",
        "emit::server::params",
        "model",
        "walk",
        "load",
        "naming",
        "vocabulary",
    ]
    .iter()
    .map(|module| {
        module
            .split("::")
            .filter(|segment| !segment.is_empty())
            .map(String::from)
            .collect()
    })
    .collect();
    let source = r##"
        //! Not [`crate::walk::Walk`].
        use std::fmt;
        use crate::{model::{ApiModel, Operation as Op}, emit::manifest::{self, Runtime}};
        use super::{Service, super::features};
        use crate::vocabulary::*;
        /* crate::walk::w */
        macro_rules! m { () => { $crate::walk::z() }; }
        pub(crate) fn f() -> crate::naming::Name<'_> {
            let text = "crate::walk::x";
            let raw = r#"crate::walk::y"#;
            let brace = '{';
            quote::quote!(crate::hooks::Hooks)
        }
        #[cfg(test)]
        mod tests {
            use crate::load::parse_spec;
        }
    "##;
    let imported: BTreeMap<String, String> = imported_modules(
        &["emit".into(), "server".into(), "params".into()],
        source,
        &modules,
    )
    .into_iter()
    .map(|(module, path)| (module.join("::"), path))
    .collect();
    assert_eq!(
        imported,
        BTreeMap::from([
            ("emit".into(), "super::super::features".into()),
            ("emit::manifest".into(), "crate::emit::manifest".into()),
            ("emit::server".into(), "super::Service".into()),
            ("model".into(), "crate::model::ApiModel".into()),
            ("naming".into(), "crate::naming::Name".into()),
            ("vocabulary".into(), "crate::vocabulary::*".into()),
        ])
    );
}

/// Whether `text` spells every method, quoted, within one short stretch
/// (a list of them, in whatever order).
fn lists_every_method(text: &str) -> bool {
    const STRETCH: usize = 160;
    text.match_indices('"').any(|(start, _)| {
        let end = (start + STRETCH).min(text.len());
        let Some(stretch) = text.get(start..end) else {
            return false;
        };
        METHOD_NAMES
            .iter()
            .all(|method| stretch.contains(&format!("\"{method}\"")))
    })
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The lines of a Markdown text outside fenced code, with inline code
/// spans taken out (code may show a date or a figure as data), numbered
/// from 1.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        lines.push((index + 1, prose));
    }
    lines
}

/// Whether `line` holds a date such as `2026-11-24`.
fn has_date(line: &str) -> bool {
    let bytes = line.as_bytes();
    bytes.windows(10).enumerate().any(|(start, window)| {
        let shape = window.iter().enumerate().all(|(index, byte)| match index {
            4 | 7 => *byte == b'-',
            _ => byte.is_ascii_digit(),
        });
        let alone = |at: Option<&u8>| at.is_none_or(|byte| !byte.is_ascii_alphanumeric());
        shape
            && window.starts_with(b"20")
            && alone(start.checked_sub(1).and_then(|before| bytes.get(before)))
            && alone(bytes.get(start + 10))
    })
}

/// The first number followed by a unit of [`MEASURED_UNITS`] in `line`.
fn measured_figure(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(2).find_map(|pair| {
        let number = pair[0].trim_start_matches(['(', '~', '≈']);
        let unit = pair[1].trim_end_matches([',', '.', ';', ':', ')']);
        let is_number = !number.is_empty()
            && number
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
            && number.starts_with(|c: char| c.is_ascii_digit());
        (is_number && MEASURED_UNITS.contains(&unit)).then(|| format!("{number} {unit}"))
    })
}

/// Every `.rs` file under `dir`, `target` directories aside.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|name| name != "target") {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The module a file of a crate's `src` is: `emit/server/params.rs` is
/// `emit::server::params`, `model/mod.rs` is `model`, `lib.rs` the root.
fn module_of(relative: &Path) -> Vec<String> {
    let mut module: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|segment| segment.to_string_lossy().into_owned())
        .collect();
    if module.last().is_some_and(|last| last == "mod") || module == ["lib"] {
        module.pop();
    }
    module
}

/// The modules of `modules` that the file of `importer` imports, each with
/// the first path that names it: its `use` trees and the paths it writes
/// from `crate`, `super` or `self`, its tests and generated code aside. A
/// parent's calls into a child it declares (`mod x;` and `x::f()`) are the
/// tree itself, not an import.
fn imported_modules(
    importer: &[String],
    source: &str,
    modules: &BTreeSet<Vec<String>>,
) -> BTreeMap<Vec<String>, String> {
    let mut code = without_test_items(&code_without_literals(source));
    for name in EMITTING_MACROS {
        code = without_macro_input(&code, name);
    }
    let mut imported = BTreeMap::new();
    for path in named_paths(&code) {
        if let Some(module) = module_named(importer, &path, modules)
            && module != importer
        {
            imported.entry(module).or_insert_with(|| path.join("::"));
        }
    }
    imported
}

/// `source` with its comments, string and character literals blanked: a
/// path in a doc comment or in expected output is not an import, and a
/// quoted brace does not unbalance the rest.
fn code_without_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut code = String::with_capacity(source.len());
    let mut at = 0;
    while at < chars.len() {
        let end = literal_end(&chars, at);
        if end == at {
            code.push(chars[at]);
            at += 1;
        } else {
            code.extend(
                chars[at..end]
                    .iter()
                    .map(|&c| if c == '\n' { c } else { ' ' }),
            );
            at = end;
        }
    }
    code
}

/// Where the comment or literal that starts at `at` ends; `at` when none
/// starts there.
fn literal_end(chars: &[char], at: usize) -> usize {
    let find = |from: usize, end: &dyn Fn(usize) -> bool| {
        (from..chars.len())
            .find(|&index| end(index))
            .unwrap_or(chars.len())
    };
    let is = |index: usize, c: char| chars.get(index) == Some(&c);
    let in_identifier = at > 0 && is_identifier_char(chars[at - 1]);
    match chars[at] {
        '/' if is(at + 1, '/') => find(at, &|index| chars[index] == '\n'),
        '/' if is(at + 1, '*') => {
            let mut depth = 0;
            let mut index = at;
            while index < chars.len() {
                if is(index, '/') && is(index + 1, '*') {
                    depth += 1;
                    index += 2;
                } else if is(index, '*') && is(index + 1, '/') {
                    depth -= 1;
                    index += 2;
                    if depth == 0 {
                        return index;
                    }
                } else {
                    index += 1;
                }
            }
            index
        }
        '"' => {
            let mut index = at + 1;
            while index < chars.len() && chars[index] != '"' {
                index += if chars[index] == '\\' { 2 } else { 1 };
            }
            index + 1
        }
        'r' | 'b' if !in_identifier => {
            let start = match (chars[at], chars.get(at + 1)) {
                ('r', _) => at + 1,
                (_, Some('r')) => at + 2,
                _ => return at,
            };
            let hashes = find(start, &|index| chars[index] != '#') - start;
            if !is(start + hashes, '"') {
                return at;
            }
            let closes = |index: usize| {
                chars[index] == '"' && (1..=hashes).all(|offset| is(index + offset, '#'))
            };
            find(start + hashes + 1, &closes) + 1 + hashes
        }
        '\'' if is(at + 1, '\\') => find(at + 3, &|index| chars[index] == '\'') + 1,
        '\'' if is(at + 2, '\'') => at + 3,
        _ => at,
    }
    .min(chars.len())
}

fn is_identifier_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `code` without its `#[cfg(test)]` items: what only tests import does not
/// tie the modules together.
fn without_test_items(code: &str) -> String {
    const TEST_ONLY: &str = "#[cfg(test)]";
    let mut code = code.to_string();
    while let Some(start) = code.find(TEST_ONLY) {
        let item = start + TEST_ONLY.len();
        let end = match code[item..].find([';', '{']) {
            Some(offset) if code[item + offset..].starts_with('{') => {
                matching_close(&code, item + offset)
            }
            Some(offset) => item + offset + 1,
            None => code.len(),
        };
        code.replace_range(start..end, "");
    }
    code
}

/// `code` without the input of each call of the macro `name`.
fn without_macro_input(code: &str, name: &str) -> String {
    let call = format!("{name}!");
    let mut kept = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(found) = rest.find(&call) {
        let after = found + call.len();
        let open = after + rest[after..].len() - rest[after..].trim_start().len();
        let starts_word = !rest[..found].ends_with(is_identifier_char);
        if starts_word && rest[open..].starts_with(['(', '[', '{']) {
            kept.push_str(&rest[..open]);
            rest = &rest[matching_close(rest, open)..];
        } else {
            kept.push_str(&rest[..after]);
            rest = &rest[after..];
        }
    }
    kept.push_str(rest);
    kept
}

/// The index just past the delimiter that closes the one at `open`.
fn matching_close(code: &str, open: usize) -> usize {
    let opening = code.as_bytes()[open];
    let closing = match opening {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    };
    let mut depth = 0;
    for (index, &byte) in code.as_bytes().iter().enumerate().skip(open) {
        if byte == opening {
            depth += 1;
        } else if byte == closing {
            depth -= 1;
            if depth == 0 {
                return index + 1;
            }
        }
    }
    code.len()
}

/// The paths `code` names: each leaf of its `use` trees, and each path
/// written from `crate`, `super` or `self` (not `$crate`, a macro's).
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let tokens = tokens(code);
    let mut paths = Vec::new();
    let mut at = 0;
    while let Some(&token) = tokens.get(at) {
        let before = at.checked_sub(1).map(|before| tokens[before]);
        at += 1;
        if token == "use" {
            read_use_tree(&tokens, &mut at, Vec::new(), &mut paths);
        } else if matches!(token, "crate" | "super" | "self")
            && tokens.get(at) == Some(&"::")
            && !matches!(before, Some("::" | "$"))
        {
            let mut path = vec![token.to_string()];
            while tokens.get(at) == Some(&"::")
                && let Some(&segment) = tokens.get(at + 1)
                && segment.starts_with(is_identifier_char)
            {
                path.push(segment.to_string());
                at += 2;
            }
            paths.push(path);
        }
    }
    paths
}

/// The tokens that paths are made of: identifiers, `::`, and each other
/// mark alone.
fn tokens(code: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut rest = code.trim_start();
    while let Some(first) = rest.chars().next() {
        let length = if is_identifier_char(first) {
            rest.find(|c| !is_identifier_char(c)).unwrap_or(rest.len())
        } else if rest.starts_with("::") {
            2
        } else {
            first.len_utf8()
        };
        tokens.push(&rest[..length]);
        rest = rest[length..].trim_start();
    }
    tokens
}

/// Reads the `use` tree at `tokens[*at]` under `prefix`, adding the path
/// of each of its leaves (`a::{b, c::{self, d}}` has `a::b`, `a::c`,
/// `a::c::d`) to `paths`.
fn read_use_tree(
    tokens: &[&str],
    at: &mut usize,
    prefix: Vec<String>,
    paths: &mut Vec<Vec<String>>,
) {
    let mut path = prefix;
    while let Some(&token) = tokens.get(*at) {
        match token {
            "::" => *at += 1,
            "{" => {
                *at += 1;
                while tokens.get(*at).is_some_and(|&token| token != "}") {
                    let start = *at;
                    read_use_tree(tokens, at, path.clone(), paths);
                    if tokens.get(*at) == Some(&",") {
                        *at += 1;
                    } else if *at == start {
                        break;
                    }
                }
                *at += 1;
                return;
            }
            "as" => {
                *at += 2;
                break;
            }
            "*" => {
                path.push(token.to_string());
                *at += 1;
                break;
            }
            "self" if !path.is_empty() => *at += 1,
            _ if token.starts_with(is_identifier_char) => {
                path.push(token.to_string());
                *at += 1;
                if !matches!(tokens.get(*at), Some(&"::" | &"as")) {
                    break;
                }
            }
            _ => break,
        }
    }
    paths.push(path);
}

/// The module of `modules` that `path`, named in the file of `importer`,
/// lands in: the longest start of the path that is a module (a name
/// defined in `foo/mod.rs` lands in `foo`). None for other crates' paths.
fn module_named(
    importer: &[String],
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    let absolute: Vec<String> = match first.as_str() {
        "crate" => rest.to_vec(),
        "self" => importer.iter().chain(rest).cloned().collect(),
        "super" => {
            let mut base = importer.to_vec();
            let mut rest = path;
            while let Some((first, tail)) = rest.split_first()
                && first == "super"
            {
                base.pop()?;
                rest = tail;
            }
            base.into_iter().chain(rest.iter().cloned()).collect()
        }
        child => {
            let module: Vec<String> = importer
                .iter()
                .chain([&child.to_string()])
                .cloned()
                .collect();
            if !modules.contains(&module) {
                return None;
            }
            importer.iter().chain(path).cloned().collect()
        }
    };
    (0..=absolute.len())
        .rev()
        .map(|length| absolute[..length].to_vec())
        .find(|start| modules.contains(start))
}

/// The sets of more than two nodes of `graph` that each reach every other
/// (its strongly connected components): a pair that leans on each other is
/// allowed, a third file joining them through either is not.
fn circles_of_more_than_two(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let mut circles = strongly_connected(graph);
    circles.retain(|component| component.len() > 2);
    circles.sort();
    circles
}

/// The strongly connected components of `graph` (Tarjan's algorithm): the
/// largest sets of nodes each of which reaches every other.
fn strongly_connected(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct Search<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        order: BTreeMap<&'a str, usize>,
        lowest: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        components: Vec<BTreeSet<String>>,
    }
    impl<'a> Search<'a> {
        fn visit(&mut self, node: &'a str) {
            let order = self.order.len();
            self.order.insert(node, order);
            self.lowest.insert(node, order);
            self.stack.push(node);
            let graph = self.graph;
            for next in graph.get(node).into_iter().flatten() {
                let next = next.as_str();
                let reached = if !self.order.contains_key(next) {
                    self.visit(next);
                    self.lowest[next]
                } else if self.stack.contains(&next) {
                    self.order[next]
                } else {
                    continue;
                };
                let lowest = self.lowest[node].min(reached);
                self.lowest.insert(node, lowest);
            }
            if self.lowest[node] == order {
                let mut component = BTreeSet::new();
                while let Some(member) = self.stack.pop() {
                    component.insert(member.to_string());
                    if member == node {
                        break;
                    }
                }
                self.components.push(component);
            }
        }
    }
    let mut search = Search {
        graph,
        order: BTreeMap::new(),
        lowest: BTreeMap::new(),
        stack: Vec::new(),
        components: Vec::new(),
    };
    for node in graph.keys() {
        if !search.order.contains_key(node.as_str()) {
            search.visit(node);
        }
    }
    search.components
}
