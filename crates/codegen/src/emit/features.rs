//! Cargo features per tag, and the `#[cfg]` gates that make a consumer
//! compile only the operations it enables.
//!
//! Each tag is a feature of the three crates (an untagged operation's is
//! `untagged`), and `all`, the default, enables every one. A feature enables
//! its operations and exactly the items they reach, transitively, across
//! the three crates: a schema two tags use compiles when either is on.
//!
//! The emitters know which operation an entry point belongs to (a client
//! method, a trait method, a route), but not what typify, progenitor and the
//! server's shared helpers make of the schemas those reach. So they mark the
//! entry points with [`Features::marker`], and [`gate`] works out the rest
//! from the code itself: every item (a type, its impls, a function, a
//! builder) is a node named by its identifier, every identifier it mentions
//! an edge, and each item gets the features of the marked entry points that
//! reach it. Matching by name alone can only link too much, never too
//! little, so a gated item never misses what it uses. What no entry point
//! reaches stays: in the client and the server it is the crate's core (the
//! `Client`, the router), compiled always, with everything it mentions; in
//! the types crate it is a schema no operation uses, compiled under `all`.
//!
//! Operations one handler serves together (several on one path and method,
//! told apart by a fixed query, or one serving another's requests) share
//! their features, so the handler never calls a trait method that is off.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::quote;

use crate::format::{module_body, split_items};
use crate::model::{ApiModel, Operation};
use crate::naming;

/// The feature enabling every operation, the generated crates' default.
pub const ALL: &str = "all";
/// The feature of operations without a tag.
pub const UNTAGGED: &str = "untagged";
/// Features the crates have whatever the spec; a tag is never named so.
const RESERVED: &[&str] = &[ALL, "default", "native-tls", "rustls", "rustls-aws-lc"];
/// The attribute an emitter puts on an entry point, replaced by its `#[cfg]`.
const MARKER: &str = "__features";

/// The features of an API: one per tag, and those of each operation.
#[derive(Debug, Clone, Default)]
pub struct Features {
    /// Each feature with the tag it stands for, in document order.
    tags: Vec<(String, String)>,
    /// The features enabling each operation (by operationId).
    of_operation: BTreeMap<String, BTreeSet<String>>,
}

impl Features {
    /// The features of `model`'s operations and webhooks.
    pub fn of(model: &ApiModel) -> Self {
        let operations: Vec<&Operation> = model.operations.iter().chain(&model.webhooks).collect();
        let mut tags: Vec<&str> = Vec::new();
        for operation in &operations {
            let own: Vec<&str> = if operation.tags.is_empty() {
                vec![UNTAGGED]
            } else {
                operation.tags.iter().map(String::as_str).collect()
            };
            for tag in own {
                if !tags.contains(&tag) {
                    tags.push(tag);
                }
            }
        }
        // Reserved names go first, so a tag named `all` becomes `all-2`.
        let listed: Vec<&str> = RESERVED
            .iter()
            .copied()
            .chain(tags.iter().copied())
            .collect();
        let names = naming::distinct(&listed, &[naming::feature_name]);
        let tags: Vec<(String, String)> = names[RESERVED.len()..]
            .iter()
            .map(|name| naming::feature_name(name))
            .zip(tags.iter().map(|tag| tag.to_string()))
            .collect();
        let feature_of = |tag: &str| -> String {
            let (feature, _) = tags
                .iter()
                .find(|(_, named)| named == tag)
                .expect("every tag has a feature");
            feature.clone()
        };
        let own = |operation: &Operation| -> BTreeSet<String> {
            if operation.tags.is_empty() {
                [feature_of(UNTAGGED)].into()
            } else {
                operation.tags.iter().map(|tag| feature_of(tag)).collect()
            }
        };
        // Operations one handler serves share their features.
        let mut group: Vec<usize> = (0..operations.len()).collect();
        fn root(group: &mut [usize], mut index: usize) -> usize {
            while group[index] != index {
                group[index] = group[group[index]];
                index = group[index];
            }
            index
        }
        for (index, operation) in operations.iter().enumerate() {
            for (other, candidate) in operations.iter().enumerate().take(index) {
                let same_handler = operation.webhook.is_none()
                    && candidate.webhook.is_none()
                    && operation.path == candidate.path
                    && operation.method == candidate.method;
                let serves = operation.served_by.as_deref() == Some(candidate.id.as_str())
                    || candidate.served_by.as_deref() == Some(operation.id.as_str());
                if same_handler || serves {
                    let (a, b) = (root(&mut group, index), root(&mut group, other));
                    group[a] = b;
                }
            }
        }
        let mut shared: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
        for (index, operation) in operations.iter().enumerate() {
            let key = root(&mut group, index);
            shared.entry(key).or_default().extend(own(operation));
        }
        let of_operation = operations
            .iter()
            .enumerate()
            .map(|(index, operation)| {
                (
                    operation.id.clone(),
                    shared[&root(&mut group, index)].clone(),
                )
            })
            .collect();
        Self { tags, of_operation }
    }

    /// Each feature with the tag it stands for, in document order.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// Whether the crates gate anything: an API with one feature has
    /// nothing to leave out.
    pub fn gated(&self) -> bool {
        self.tags.len() > 1
    }

    /// The features enabling the operation `id`.
    pub fn of_operation(&self, id: &str) -> Option<&BTreeSet<String>> {
        self.of_operation.get(id)
    }

    /// The attribute marking an entry point of `operations` (a method, a
    /// route), which [`gate`] turns into its `#[cfg]`; nothing when the API
    /// is not [`gated`](Self::gated).
    pub fn marker<'a>(&self, operations: impl IntoIterator<Item = &'a Operation>) -> TokenStream {
        if !self.gated() {
            return TokenStream::new();
        }
        let features: BTreeSet<&String> = operations
            .into_iter()
            .filter_map(|operation| self.of_operation.get(&operation.id))
            .flatten()
            .collect();
        let marker = Ident::new(MARKER, Span::call_site());
        quote!(#[#marker(#(#features),*)])
    }
}

/// Which generated crate a token stream is: what nothing reaches is core in
/// the client and the server, a schema no operation uses in the types.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CrateKind {
    #[default]
    Types,
    Client,
    Server,
}

/// Gates the items of the crates given as tokens (see the module docs):
/// each item no marked entry point of every feature reaches gets the
/// `#[cfg]` of those that do, and each marker becomes its entry point's
/// `#[cfg]`.
pub fn gate(features: &Features, crates: Vec<(CrateKind, TokenStream)>) -> Vec<TokenStream> {
    if !features.gated() {
        return crates.into_iter().map(|(_, tokens)| tokens).collect();
    }
    let mut graph = Graph::default();
    for (kind, tokens) in &crates {
        graph.kind = *kind;
        scan_items(tokens.clone(), &mut graph);
    }
    let every: BTreeSet<String> = features.tags.iter().map(|(name, _)| name.clone()).collect();
    let mut holds_entries = std::mem::take(&mut graph.holds_entries).into_iter();
    let decisions = graph.decide(&every);
    let mut decisions = decisions.into_iter();
    crates
        .into_iter()
        .map(|(_, tokens)| {
            let gated: Vec<TokenTree> = apply_items(tokens, &mut decisions, &mut holds_entries)
                .into_iter()
                .collect();
            // With some features off, imports and helpers that only their
            // operations use go unused.
            let allow =
                quote!(#![cfg_attr(not(feature = "all"), allow(unused_imports, dead_code))]);
            let split = after_attributes(&gated, false);
            let mut out: TokenStream = gated[..split].iter().cloned().collect();
            out.extend(allow);
            out.extend(gated[split..].iter().cloned());
            out
        })
        .collect()
}

/// One item, or one marked entry point within an item.
struct Unit {
    kind: CrateKind,
    /// The identifier other items reach it by, if any.
    key: Option<u32>,
    /// The identifiers it mentions, less those of marked entry points in it.
    mentions: Vec<u32>,
    /// The features of a marked entry point.
    marked: Option<BTreeSet<String>>,
    /// Whether it is an `impl` block, known by its type.
    is_impl: bool,
}

#[derive(Default)]
struct Graph {
    names: HashMap<String, u32>,
    units: Vec<Unit>,
    kind: CrateKind,
    /// For each item, in order, whether it holds a marked entry point:
    /// [`apply_items`] rebuilds only those, and passes the others on.
    holds_entries: Vec<bool>,
}

/// What [`apply_items`] does with a unit.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Decision {
    Keep,
    Cfg(Vec<String>),
}

impl Graph {
    fn intern(&mut self, name: &str) -> u32 {
        if let Some(id) = self.names.get(name) {
            return *id;
        }
        let id = self.names.len() as u32;
        self.names.insert(name.to_string(), id);
        id
    }

    fn push(
        &mut self,
        key: Option<u32>,
        mentions: Vec<u32>,
        marked: Option<BTreeSet<String>>,
        is_impl: bool,
    ) {
        self.units.push(Unit {
            is_impl,
            kind: self.kind,
            key,
            mentions,
            marked,
        });
    }

    /// The decision for every unit, in scanning order.
    fn decide(mut self, every: &BTreeSet<String>) -> Vec<Decision> {
        // An impl for a type of another crate (`impl From<PetName> for
        // String`) goes with the first of ours it names: keyed `String`,
        // everything naming a `String` would reach it, and `PetName` through it.
        let defined: std::collections::HashSet<u32> = self
            .units
            .iter()
            .filter(|unit| !unit.is_impl)
            .filter_map(|unit| unit.key)
            .collect();
        for unit in &mut self.units {
            if unit.is_impl && unit.key.is_some_and(|key| !defined.contains(&key)) {
                unit.key = unit
                    .mentions
                    .iter()
                    .copied()
                    .find(|name| defined.contains(name));
            }
        }
        let mut by_key: HashMap<u32, Vec<usize>> = HashMap::new();
        for (index, unit) in self.units.iter().enumerate() {
            if let Some(key) = unit.key {
                by_key.entry(key).or_default().push(index);
            }
        }
        let reached_from = |starts: Vec<usize>, seen: &mut Vec<bool>| {
            let mut stack = starts;
            while let Some(index) = stack.pop() {
                if std::mem::replace(&mut seen[index], true) {
                    continue;
                }
                for mention in &self.units[index].mentions {
                    for &next in by_key.get(mention).into_iter().flatten() {
                        if !seen[next] {
                            stack.push(next);
                        }
                    }
                }
            }
        };
        let count = self.units.len();
        let mut features: Vec<BTreeSet<String>> = vec![BTreeSet::new(); count];
        let mut reached = vec![false; count];
        for feature in every {
            let roots: Vec<usize> = (0..count)
                .filter(|&index| {
                    self.units[index]
                        .marked
                        .as_ref()
                        .is_some_and(|marked| marked.contains(feature))
                })
                .collect();
            let mut seen = vec![false; count];
            reached_from(roots, &mut seen);
            for (index, seen) in seen.into_iter().enumerate() {
                if seen {
                    features[index].insert(feature.clone());
                    reached[index] = true;
                }
            }
        }
        // The core of the client and the server, and what it mentions.
        let core: Vec<usize> = (0..count)
            .filter(|&index| {
                let unit = &self.units[index];
                !reached[index] && unit.marked.is_none() && unit.kind != CrateKind::Types
            })
            .collect();
        let mut always = vec![false; count];
        reached_from(core, &mut always);
        (0..count)
            .map(|index| {
                let unit = &self.units[index];
                if unit.marked.is_none() && (always[index] || unit.key.is_none()) {
                    // The core, and `use` items, which gate nothing.
                    return Decision::Keep;
                }
                let features = &features[index];
                if features.is_empty() {
                    // A schema no operation reaches, and what only it uses.
                    Decision::Cfg(vec![ALL.to_string()])
                } else if features == every {
                    Decision::Keep
                } else {
                    Decision::Cfg(features.iter().cloned().collect())
                }
            })
            .collect()
    }
}

/// Scans a crate's (or a module's) items.
fn scan_items(tokens: TokenStream, graph: &mut Graph) {
    for item in split_items(tokens) {
        match module_body(item) {
            Ok((_, body)) => {
                for item in body {
                    scan_item(item, graph);
                }
            }
            Err(item) => scan_item(item, graph),
        }
    }
}

fn scan_item(item: Vec<TokenTree>, graph: &mut Graph) {
    let key = item_key(&item).map(|key| graph.intern(&key));
    let is_impl = is_impl(&item);
    let mut mentions = Vec::new();
    let units = graph.units.len();
    scan_tokens(item, graph, &mut mentions);
    graph.holds_entries.push(graph.units.len() > units);
    graph.push(key, mentions, None, is_impl);
}

/// Collects the identifiers of `tokens` into `mentions`, each marked entry
/// point among them becoming a unit of its own.
fn scan_tokens(
    tokens: impl IntoIterator<Item = TokenTree>,
    graph: &mut Graph,
    mentions: &mut Vec<u32>,
) {
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match token {
            TokenTree::Punct(punct) if punct.as_char() == '#' => {
                let Some(TokenTree::Group(attribute)) = tokens.peek() else {
                    continue;
                };
                if let Some(features) = marker_features(attribute) {
                    tokens.next();
                    let entry = take_entry(&mut tokens);
                    let key = item_key(&entry).map(|key| graph.intern(&key));
                    let mut own = Vec::new();
                    scan_tokens(entry, graph, &mut own);
                    graph.push(key, own, Some(features), false);
                } else if attribute.delimiter() == Delimiter::Bracket {
                    // Attributes name paths in strings too:
                    // `#[serde(default = "defaults::widget_size")]`; docs
                    // are prose.
                    let attribute: Vec<TokenTree> = attribute.stream().into_iter().collect();
                    tokens.next();
                    let is_doc = matches!(
                        attribute.first(),
                        Some(TokenTree::Ident(name)) if name == "doc"
                    );
                    if !is_doc {
                        scan_attribute(attribute, graph, mentions);
                    }
                }
            }
            TokenTree::Ident(ident) => {
                let id = graph.intern(&ident.to_string());
                mentions.push(id);
            }
            TokenTree::Group(group) => scan_tokens(group.stream(), graph, mentions),
            _ => {}
        }
    }
}

fn scan_attribute(
    tokens: impl IntoIterator<Item = TokenTree>,
    graph: &mut Graph,
    mentions: &mut Vec<u32>,
) {
    for token in tokens {
        match token {
            TokenTree::Ident(ident) => mentions.push(graph.intern(&ident.to_string())),
            TokenTree::Group(group) => scan_attribute(group.stream(), graph, mentions),
            TokenTree::Literal(literal) => {
                let text = literal.to_string();
                if text.starts_with('"') {
                    for word in text
                        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .filter(|word| !word.is_empty())
                    {
                        mentions.push(graph.intern(word));
                    }
                }
            }
            TokenTree::Punct(_) => {}
        }
    }
}

/// The features a `#[__features(..)]` attribute's group lists.
fn marker_features(attribute: &Group) -> Option<BTreeSet<String>> {
    if attribute.delimiter() != Delimiter::Bracket {
        return None;
    }
    let mut inner = attribute.stream().into_iter();
    match (inner.next(), inner.next()) {
        (Some(TokenTree::Ident(name)), Some(TokenTree::Group(list))) if name == MARKER => Some(
            list.stream()
                .into_iter()
                .filter_map(|token| match token {
                    TokenTree::Literal(literal) => {
                        Some(literal.to_string().trim_matches('"').to_string())
                    }
                    _ => None,
                })
                .collect(),
        ),
        _ => None,
    }
}

/// The tokens of the entry point after its marker: up to the first `;` or
/// `{ .. }` (a statement, a method, an item).
fn take_entry(tokens: &mut impl Iterator<Item = TokenTree>) -> Vec<TokenTree> {
    let mut entry = Vec::new();
    for token in tokens.by_ref() {
        let ends = match &token {
            TokenTree::Punct(punct) => punct.as_char() == ';',
            TokenTree::Group(group) => group.delimiter() == Delimiter::Brace,
            _ => false,
        };
        entry.push(token);
        if ends {
            break;
        }
    }
    entry
}

/// Whether an item is an `impl` block.
pub(crate) fn is_impl(item: &[TokenTree]) -> bool {
    item.iter()
        .any(|token| matches!(token, TokenTree::Ident(ident) if ident == "impl"))
        && item_key_keyword(item).as_deref() == Some("impl")
}

/// The keyword opening an item, after its attributes and visibility.
fn item_key_keyword(item: &[TokenTree]) -> Option<String> {
    item.iter().find_map(|token| match token {
        TokenTree::Ident(ident)
            if [
                "struct",
                "enum",
                "union",
                "type",
                "fn",
                "const",
                "static",
                "trait",
                "mod",
                "impl",
                "use",
                "let",
                "macro_rules",
            ]
            .iter()
            .any(|keyword| ident == keyword) =>
        {
            Some(ident.to_string())
        }
        _ => None,
    })
}

/// The identifier an item is known by: its name, or an impl's type.
pub(crate) fn item_key(item: &[TokenTree]) -> Option<String> {
    let mut index = 0;
    // Attributes, inner (`#![..]`) or outer.
    while let Some(TokenTree::Punct(pound)) = item.get(index)
        && pound.as_char() == '#'
    {
        index += 1;
        if matches!(item.get(index), Some(TokenTree::Punct(bang)) if bang.as_char() == '!') {
            index += 1;
        }
        index += 1;
    }
    let rest = &item[index.min(item.len())..];
    let position = rest.iter().position(|token| {
        matches!(token, TokenTree::Ident(ident) if [
            "struct", "enum", "union", "type", "fn", "const", "static", "trait", "mod", "impl",
            "use", "let", "macro_rules",
        ]
        .iter()
        .any(|keyword| ident == keyword))
    })?;
    let TokenTree::Ident(keyword) = &rest[position] else {
        return None;
    };
    match keyword.to_string().as_str() {
        "use" | "let" => None,
        "impl" => impl_self_type(&rest[position + 1..]),
        _ => match rest.get(position + 1) {
            Some(TokenTree::Ident(name)) => Some(name.to_string()),
            _ => None,
        },
    }
}

/// The last segment of an impl's self type: `X` in `impl<'a> X<'a>`,
/// `impl From<&Y> for super::X`, `impl Trait for X where ..`.
fn impl_self_type(tokens: &[TokenTree]) -> Option<String> {
    let tokens = &tokens[generics_end(tokens)..];
    let mut depth = 0i32;
    let mut previous = None::<char>;
    let mut start = 0;
    for (index, token) in tokens.iter().enumerate() {
        let mut punct_char = None;
        match token {
            TokenTree::Punct(punct) => {
                punct_char = Some(punct.as_char());
                match punct.as_char() {
                    '<' => depth += 1,
                    // `->` in `Fn() -> T` closes nothing.
                    '>' if previous != Some('-') => depth -= 1,
                    _ => {}
                }
            }
            TokenTree::Ident(ident) if depth == 0 && ident == "for" => start = index + 1,
            TokenTree::Ident(ident) if depth == 0 && ident == "where" => {
                return last_segment(&tokens[start..index]);
            }
            TokenTree::Group(group) if depth == 0 && group.delimiter() == Delimiter::Brace => {
                return last_segment(&tokens[start..index]);
            }
            _ => {}
        }
        previous = punct_char;
    }
    None
}

/// Where an impl's own generics (`impl<'a, T>`) end: after their `>`, or 0.
fn generics_end(tokens: &[TokenTree]) -> usize {
    if !matches!(tokens.first(), Some(TokenTree::Punct(open)) if open.as_char() == '<') {
        return 0;
    }
    let mut depth = 0;
    for (index, token) in tokens.iter().enumerate() {
        if let TokenTree::Punct(punct) = token {
            match punct.as_char() {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        return index + 1;
                    }
                }
                _ => {}
            }
        }
    }
    0
}

/// The last identifier of a path before its generic arguments.
fn last_segment(tokens: &[TokenTree]) -> Option<String> {
    let mut last = None;
    for token in tokens {
        match token {
            TokenTree::Ident(ident) => last = Some(ident.to_string()),
            TokenTree::Punct(punct) if punct.as_char() == '<' => break,
            _ => {}
        }
    }
    last
}

/// Rewrites a crate's (or a module's) items as [`Graph::decide`] decided, in
/// the order [`scan_items`] met them.
fn apply_items(
    tokens: TokenStream,
    decisions: &mut impl Iterator<Item = Decision>,
    holds_entries: &mut impl Iterator<Item = bool>,
) -> TokenStream {
    let mut out = TokenStream::new();
    for item in split_items(tokens) {
        match module_body(item) {
            Ok((header, body)) => {
                let mut inner = TokenStream::new();
                for item in body {
                    inner.extend(apply_item(item, decisions, holds_entries));
                }
                out.extend(header);
                out.extend([TokenTree::Group(Group::new(Delimiter::Brace, inner))]);
            }
            Err(item) => out.extend(apply_item(item, decisions, holds_entries)),
        }
    }
    out
}

fn apply_item(
    item: Vec<TokenTree>,
    decisions: &mut impl Iterator<Item = Decision>,
    holds_entries: &mut impl Iterator<Item = bool>,
) -> Vec<TokenTree> {
    // The item's own unit comes after those of its entry points, which most
    // items (every type) have none of: those are not rebuilt.
    let body = if holds_entries.next().expect("one flag per item") {
        apply_tokens(item, decisions)
    } else {
        item
    };
    let decision = decisions.next().expect("one decision per unit");
    match decision {
        Decision::Keep => body,
        Decision::Cfg(features) => {
            let split = after_attributes(&body, true);
            let mut out = body[..split].to_vec();
            out.extend(cfg_attribute(&features));
            out.extend_from_slice(&body[split..]);
            out
        }
    }
}

fn apply_tokens(
    tokens: Vec<TokenTree>,
    decisions: &mut impl Iterator<Item = Decision>,
) -> Vec<TokenTree> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match token {
            TokenTree::Punct(punct) if punct.as_char() == '#' => {
                let marked = matches!(
                    tokens.peek(),
                    Some(TokenTree::Group(attribute)) if marker_features(attribute).is_some()
                );
                if marked {
                    tokens.next();
                    let entry = take_entry(&mut tokens);
                    let entry = apply_tokens(entry, decisions);
                    match decisions.next().expect("one decision per unit") {
                        Decision::Keep => {}
                        Decision::Cfg(features) => out.extend(cfg_attribute(&features)),
                    }
                    out.extend(entry);
                } else {
                    out.push(TokenTree::Punct(punct));
                    // An attribute holds no entry point: copy it whole.
                    if let Some(TokenTree::Group(_)) = tokens.peek() {
                        out.extend(tokens.next());
                    }
                }
            }
            TokenTree::Group(group) => {
                let inner = apply_tokens(group.stream().into_iter().collect(), decisions);
                let mut rebuilt = Group::new(group.delimiter(), inner.into_iter().collect());
                rebuilt.set_span(group.span());
                out.push(TokenTree::Group(rebuilt));
            }
            other => out.push(other),
        }
    }
    out
}

/// Where an item's leading inner attributes end, and its docs too when
/// `docs`: a crate's attribute goes after the first, an item's `#[cfg]`
/// after both.
fn after_attributes(item: &[TokenTree], docs: bool) -> usize {
    let mut split = 0;
    loop {
        match &item[split..] {
            [
                TokenTree::Punct(pound),
                TokenTree::Punct(bang),
                TokenTree::Group(_),
                ..,
            ] if pound.as_char() == '#' && bang.as_char() == '!' => {
                split += 3;
            }
            [TokenTree::Punct(pound), TokenTree::Group(attribute), ..]
                if docs
                    && pound.as_char() == '#'
                    && matches!(
                        attribute.stream().into_iter().next(),
                        Some(TokenTree::Ident(name)) if name == "doc"
                    ) =>
            {
                split += 2;
            }
            _ => return split,
        }
    }
}

/// `#[cfg(feature = "a")]`, or `#[cfg(any(feature = "a", ..))]`.
fn cfg_attribute(features: &[String]) -> Vec<TokenTree> {
    let features: Vec<Literal> = features.iter().map(|name| Literal::string(name)).collect();
    let condition = match features.as_slice() {
        [one] => quote!(feature = #one),
        _ => quote!(any(#(feature = #features),*)),
    };
    let mut out = vec![TokenTree::Punct(Punct::new('#', Spacing::Alone))];
    out.push(TokenTree::Group(Group::new(
        Delimiter::Bracket,
        quote!(cfg(#condition)),
    )));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(item: TokenStream) -> Option<String> {
        item_key(&item.into_iter().collect::<Vec<_>>())
    }

    #[test]
    fn items_are_known_by_their_name_or_their_impls_type() {
        assert_eq!(
            key(quote!(
                #[derive(Debug)]
                pub struct Widget {
                    a: u8,
                }
            ))
            .as_deref(),
            Some("Widget")
        );
        assert_eq!(
            key(quote!(
                pub(crate) fn validate_widget() {}
            ))
            .as_deref(),
            Some("validate_widget")
        );
        assert_eq!(
            key(quote!(impl Widget { fn f() {} })).as_deref(),
            Some("Widget")
        );
        assert_eq!(
            key(quote!(
                impl<'a> Widget<'a> {}
            ))
            .as_deref(),
            Some("Widget")
        );
        assert_eq!(
            key(quote!(impl ::std::convert::From<&Gadget> for super::Widget {})).as_deref(),
            Some("Widget")
        );
        assert_eq!(
            key(quote!(
                impl<'de> ::serde::Deserialize<'de> for Widget where X: Y {}
            ))
            .as_deref(),
            Some("Widget")
        );
        assert_eq!(
            key(quote!(impl From<fn() -> Gadget> for Widget {})).as_deref(),
            Some("Widget")
        );
        assert_eq!(
            key(quote!(
                pub use super::Widget;
            )),
            None
        );
    }

    /// Gates `types` and `client` for features `a` and `b`, the client's
    /// methods marked as the emitters mark them.
    fn gated(types: TokenStream, client: TokenStream) -> (String, String) {
        let features = Features {
            tags: vec![("a".into(), "a".into()), ("b".into(), "b".into())],
            of_operation: BTreeMap::new(),
        };
        let out = gate(
            &features,
            vec![(CrateKind::Types, types), (CrateKind::Client, client)],
        );
        (out[0].to_string(), out[1].to_string())
    }

    #[test]
    fn each_item_gets_the_features_that_reach_it() {
        let (types, client) = gated(
            quote! {
                pub struct OnlyA { shared: Shared }
                impl From<Helper> for OnlyA {}
                pub struct OnlyB;
                pub struct Shared;
                pub struct Helper;
                pub struct Unused { b: OnlyB }
                pub mod builder {
                    pub struct OnlyA;
                }
            },
            quote! {
                pub struct Client;
                impl Client {
                    #[__features("a")]
                    pub fn get_a(&self) -> types::OnlyA { todo!() }
                    #[__features("b")]
                    pub fn get_b(&self) -> (types::OnlyB, types::Shared) { todo!() }
                    pub fn new() -> Self { Self }
                }
            },
        );
        let squeeze = |text: &str| text.replace(' ', "");
        let types = squeeze(&types);
        for expected in [
            r#"#[cfg(feature="a")]pubstructOnlyA{shared:Shared}"#,
            r#"#[cfg(feature="a")]implFrom<Helper>forOnlyA{}"#,
            r#"#[cfg(feature="b")]pubstructOnlyB;"#,
            // Reached by both: no gate.
            "OnlyB;pubstructShared;",
            r#"#[cfg(feature="a")]pubstructHelper;"#,
            r#"#[cfg(feature="all")]pubstructUnused"#,
            r#"pubmodbuilder{#[cfg(feature="a")]pubstructOnlyA;}"#,
        ] {
            assert!(types.contains(expected), "{expected} in {types}");
        }
        let client = squeeze(&client);
        for expected in [
            "pubstructClient;implClient{",
            r#"#[cfg(feature="a")]pubfnget_a"#,
            r#"#[cfg(feature="b")]pubfnget_b"#,
            "}pubfnnew()",
        ] {
            assert!(client.contains(expected), "{expected} in {client}");
        }
        assert!(!client.contains("__features"), "{client}");
    }

    #[test]
    fn what_the_core_mentions_is_always_compiled() {
        let (types, _) = gated(
            quote! {
                pub struct UsedByCore;
                pub struct OnlyA;
            },
            quote! {
                pub fn core() -> types::UsedByCore { todo!() }
                impl Client {
                    #[__features("a")]
                    pub fn get_a(&self) -> types::OnlyA { todo!() }
                }
            },
        );
        let types = types.replace(' ', "");
        assert!(types.contains("]pubstructUsedByCore;"), "{types}");
        assert!(
            !types.contains(r#"cfg(feature="a")]pubstructUsedByCore"#),
            "{types}"
        );
        assert!(
            types.contains(r#"#[cfg(feature="a")]pubstructOnlyA;"#),
            "{types}"
        );
    }

    #[test]
    fn feature_names_follow_the_tags_and_avoid_the_crates_own() {
        let spec = crate::load::parse_spec(
            std::path::Path::new("spec.yaml"),
            br#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a:
    get: {operationId: a, tags: [Token Exchange Profiles], responses: {'204': {description: none}}}
  /a?beta=true:
    get: {operationId: a_beta, tags: [all], responses: {'204': {description: none}}}
  /b:
    get: {operationId: b, responses: {'204': {description: none}}}
"#,
        )
        .unwrap();
        let model = crate::model::build_model(&spec).unwrap();
        let features = Features::of(&model);
        let names: Vec<&str> = features
            .tags()
            .iter()
            .map(|(name, _)| name.as_str())
            .collect();
        assert_eq!(names, ["token-exchange-profiles", "all-2", "untagged"]);
        // One handler serves `a` and `a_beta`: they share their features.
        let shared: Vec<&str> = features
            .of_operation("a")
            .unwrap()
            .iter()
            .map(String::as_str)
            .collect();
        assert_eq!(shared, ["all-2", "token-exchange-profiles"]);
        assert_eq!(features.of_operation("a_beta"), features.of_operation("a"));
        assert_eq!(
            features
                .of_operation("b")
                .unwrap()
                .iter()
                .collect::<Vec<_>>(),
            ["untagged"]
        );
    }
}
