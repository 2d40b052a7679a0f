//! Doc text made into markdown that rustdoc renders as written and that
//! neither clippy nor rustdoc warns about, whatever the spec's texts hold.
//!
//! The spec's texts (descriptions, summaries, titles) reach doc attributes
//! through every generator: typify and progenitor write them from their view
//! of the spec, the emitters from the model, each beside prose of its own
//! (`Sends a GET request`, a list of arguments, an example that runs as a
//! doctest, intra-doc links). Where a text enters, it is marked
//! ([`spec_text`]; [`mark_spec_texts`] for the view) with two Unicode
//! noncharacters, which no spec holds (they are taken out of its texts) and
//! no output keeps. [`normalize_doc_text`], run by the formatter on every run
//! of doc attributes, then knows which part of a doc is the spec's:
//!
//! - the spec's markdown is read block by block and written back at the
//!   depth it lands at (the continuation of a list item the generator wrote,
//!   `- `id`: ..`, goes under the item's text), its lists and quotes without
//!   lazy or over-indented lines, its code blocks fenced (indented code
//!   becomes a fence, an unterminated fence is closed where the text ends)
//!   with a language rustdoc does not test (`text` for none, or for any word
//!   that reads as Rust or as a doctest attribute), its link reference
//!   definitions moved into the links (clippy refuses them inside a list
//!   item), and its inline text escaped where rustdoc would read something
//!   the author did not write: brackets that are no link to a URL (an
//!   intra-doc link to a name that does not exist), HTML tags left unclosed
//!   (`<p>`, `Vec<T>`), bare URLs (made autolinks), footnotes without
//!   definitions, unmatched backticks;
//! - the generators' own text keeps its links and examples; a fence without
//!   a language becomes `text`, indentation outside fences goes, and a list
//!   item's continuation lines go under its text;
//! - everywhere: line ends are `\n`, tabs are spaces, characters rustc
//!   refuses in a comment go, runs of blank lines are one, and a doc left
//!   with no text is no doc at all (clippy's `empty_docs`).

use std::collections::HashMap;

use serde_json::Value;

/// Starts a text from the spec inside doc text.
const OPEN: char = '\u{FDD0}';
/// Ends a text from the spec inside doc text.
const CLOSE: char = '\u{FDD1}';

fn is_marker(c: char) -> bool {
    c == OPEN || c == CLOSE
}

/// Whether `c` opens (`Some(true)`) or closes (`Some(false)`) a text of the
/// spec.
pub(super) fn marks(c: char) -> Option<bool> {
    match c {
        OPEN => Some(true),
        CLOSE => Some(false),
        _ => None,
    }
}

/// `text`, from the spec, marked for [`normalize_doc_text`]: to be put in
/// doc text wherever an emitter writes a spec's description, summary or
/// title.
pub fn spec_text(text: &str) -> String {
    let mut marked = String::with_capacity(text.len() + 2 * OPEN.len_utf8());
    marked.push(OPEN);
    marked.extend(text.chars().filter(|c| !is_marker(*c)));
    marked.push(CLOSE);
    marked
}

/// `text` without the marks [`spec_text`] puts in: for output that is no doc
/// attribute.
pub fn without_marks(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains(is_marker) {
        std::borrow::Cow::Owned(text.replace(is_marker, ""))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Marks every text of the document a generator may write into docs: the
/// `description`, `summary` and `title` of every object of its structure
/// (never of data, such as examples and defaults), the API's title, terms of
/// service and tag descriptions. For progenitor's view only: a title keeps
/// naming the same type (a mark is no identifier character), and an
/// operation's summary loses its closing `.` or `,` as progenitor would take
/// it off.
pub fn mark_spec_texts(document: &mut Value) {
    if let Some(Value::Object(info)) = document.get_mut("info") {
        mark_members(info, &["title", "description", "termsOfService"]);
    }
    if let Some(Value::Array(tags)) = document.get_mut("tags") {
        for tag in tags.iter_mut().filter_map(Value::as_object_mut) {
            mark_members(tag, &["description"]);
        }
    }
    crate::walk::for_each_node_mut(document, |node| {
        if let Value::Object(object) = node {
            if let Some(Value::String(summary)) = object.get_mut("summary") {
                let trimmed = summary.trim_end_matches(['.', ',']).len();
                summary.truncate(trimmed);
            }
            mark_members(object, &["title", "summary", "description"]);
        }
    });
}

fn mark_members(object: &mut serde_json::Map<String, Value>, keys: &[&str]) {
    for key in keys {
        if let Some(Value::String(text)) = object.get_mut(*key)
            && !text.is_empty()
            && !text.starts_with(OPEN)
        {
            *text = spec_text(text);
        }
    }
}

/// Rewrites doc text (the lines of one run of doc attributes, joined) as the
/// lines of doc attributes (`" line"`, `""` for a blank one): the spec's
/// texts in it, marked by [`spec_text`], as safe markdown at the depth they
/// land at, the rest as the generators wrote it, tidied (see the module's
/// documentation). No lines for text that says nothing.
pub fn normalize_doc_text(text: &str) -> Vec<String> {
    let text = clean(text);
    let mut doc = Doc::default();
    let mut rest = text.as_ref();
    while let Some(start) = rest.find(OPEN) {
        doc.generated(&rest[..start]);
        let after = &rest[start + OPEN.len_utf8()..];
        let end = after.find(CLOSE).unwrap_or(after.len());
        doc.spec(&after[..end]);
        rest = after.get(end + CLOSE.len_utf8()..).unwrap_or("");
    }
    doc.generated(rest);
    doc.finish()
}

/// `\r\n` and `\r` as `\n`, and without the characters rustc refuses in a
/// comment: other control characters, and those that change the direction
/// of text (`text_direction_codepoint_in_comment`).
fn clean(text: &str) -> std::borrow::Cow<'_, str> {
    let refused = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || ('\u{202A}'..='\u{202E}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
    };
    if !text.contains(refused) {
        return std::borrow::Cow::Borrowed(text);
    }
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    std::borrow::Cow::Owned(text.chars().filter(|c| !refused(*c)).collect())
}

/// Tabs as spaces, to the next multiple of four columns (as markdown reads
/// indentation; clippy refuses tabs in docs).
fn untab(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\t') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    let mut column = 0;
    for c in line.chars() {
        if c == '\t' {
            let width = 4 - column % 4;
            out.extend(std::iter::repeat_n(' ', width));
            column += width;
        } else {
            out.push(c);
            column += 1;
        }
    }
    std::borrow::Cow::Owned(out)
}

fn indented(depth: usize, line: &str) -> String {
    if line.is_empty() {
        String::new()
    } else {
        format!("{:depth$}{line}", "")
    }
}

/// A doc being written, line by line.
#[derive(Default)]
struct Doc {
    /// Finished lines, without the space after `///`.
    lines: Vec<String>,
    /// The generators' text of the current line so far.
    pending: String,
    /// The start of the current line, already written: the last line of a
    /// text from the spec, which the generators' text may go on after.
    placed: Option<Placed>,
    /// The generators' code block the current line is in.
    fence: Option<Fence>,
    /// Where a line of text goes on the list item it continues (its text's
    /// column), or 0.
    item_indent: usize,
}

struct Placed {
    text: String,
    /// The line ends a block (a fence, a rule, an underline): text after it
    /// goes on a line of its own.
    closes_block: bool,
}

impl Doc {
    /// The generators' text.
    fn generated(&mut self, text: &str) {
        let mut parts = text.split('\n');
        if let Some(first) = parts.next() {
            self.pending
                .extend(first.chars().filter(|c| !is_marker(*c)));
        }
        for part in parts {
            self.end_line();
            self.pending.extend(part.chars().filter(|c| !is_marker(*c)));
        }
    }

    fn end_line(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        match self.placed.take() {
            Some(placed) => {
                let rest = untab(&pending);
                let rest = rest.trim_end();
                if placed.closes_block && !rest.trim().is_empty() {
                    self.push_verbatim(placed.text);
                    let line = self.generated_line(rest);
                    self.push(line);
                } else {
                    self.push_verbatim(format!("{}{rest}", placed.text).trim_end().to_string());
                }
            }
            None => {
                let line = self.generated_line(&pending);
                self.push(line);
            }
        }
    }

    /// A line of the generators' text as written: indentation goes outside
    /// code blocks (it would start one), a list item's continuation goes
    /// under its text, a code block without a language is `text`.
    fn generated_line(&mut self, line: &str) -> String {
        let line = untab(line);
        let line = line.trim_end();
        let trimmed = line.trim_start();
        if let Some(fence) = self.fence {
            if fence.closed_by(trimmed) {
                self.fence = None;
                return trimmed.to_string();
            }
            // Rustdoc strips the indentation all lines share; the space
            // after `///` keeps the block's own indentation intact.
            return line.to_string();
        }
        if let Some((fence, info)) = Fence::opening(trimmed) {
            self.fence = Some(fence);
            return if info.trim().is_empty() {
                format!("{trimmed}text")
            } else {
                trimmed.to_string()
            };
        }
        if trimmed.is_empty() {
            self.item_indent = 0;
            return String::new();
        }
        if let Some(width) = list_marker_width(trimmed) {
            self.item_indent = width;
            return trimmed.to_string();
        }
        indented(self.item_indent, trimmed)
    }

    /// A text from the spec, at the place it was marked.
    fn spec(&mut self, text: &str) {
        if self.fence.is_some() {
            // Inside the generators' code block, text is code.
            self.generated(text);
            return;
        }
        let text: String = text.chars().filter(|c| !is_marker(*c)).collect();
        let rendered = SpecText::render(&text);
        if rendered.lines.is_empty() {
            return;
        }
        // The start of the line, written.
        let prefix = match self.placed.take() {
            Some(placed) => {
                let rest = std::mem::take(&mut self.pending);
                Some(format!("{}{}", placed.text, untab(&rest)))
            }
            None if !self.pending.trim().is_empty() => {
                let pending = std::mem::take(&mut self.pending);
                let mut line = self.generated_line(&pending);
                if pending.ends_with(char::is_whitespace) {
                    line.push(' ');
                }
                Some(line)
            }
            None => {
                self.pending.clear();
                None
            }
        };
        // A text that starts a line continues the list item before it; one
        // that starts after an item's marker is the item's text.
        let depth = self.item_indent;
        let mut lines = rendered.lines.into_iter();
        let first = lines.next().unwrap_or_default();
        let mut out = Vec::new();
        match prefix {
            Some(prefix) if rendered.starts_inline => out.push(format!("{prefix}{first}")),
            Some(prefix) => {
                out.push(prefix.trim_end().to_string());
                out.push(indented(depth, &first));
            }
            None => out.push(indented(depth, &first)),
        }
        out.extend(lines.map(|line| indented(depth, &line)));
        let last = out.pop().unwrap_or_default();
        for line in out {
            self.push_verbatim(line);
        }
        self.placed = Some(Placed {
            text: last,
            closes_block: rendered.closes_block,
        });
        self.item_indent = depth + rendered.continuation;
    }

    /// A line of the generators' text: a blank line after another goes.
    fn push(&mut self, line: String) {
        if line.is_empty() && self.fence.is_none() && self.lines.last().is_none_or(String::is_empty)
        {
            return;
        }
        self.lines.push(line);
    }

    fn push_verbatim(&mut self, line: String) {
        self.lines.push(line);
    }

    fn finish(mut self) -> Vec<String> {
        if !self.pending.is_empty() || self.placed.is_some() {
            self.end_line();
        }
        let mut lines = self.lines;
        while lines.last().is_some_and(|line| line.trim().is_empty()) {
            lines.pop();
        }
        let start = lines
            .iter()
            .position(|line| !line.trim().is_empty())
            .unwrap_or(lines.len());
        lines
            .drain(start..)
            .map(|line| {
                if line.is_empty() {
                    line
                } else {
                    format!(" {line}")
                }
            })
            .collect()
    }
}

/// The width of a markdown list item's marker with the space after it (`- `,
/// `* `, `+ `, `1. `, `1) `), or `None` when `line` does not start a list
/// item.
fn list_marker_width(line: &str) -> Option<usize> {
    let marker = marker_len(line)?;
    (line.as_bytes().get(marker) == Some(&b' ')).then_some(marker + 1)
}

/// The length of the list marker `line` starts with (`-`, `10.`), followed
/// by a space or the end of the line.
fn marker_len(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let digits = bytes
        .iter()
        .take_while(|byte| byte.is_ascii_digit())
        .count();
    let marker = if digits == 0 {
        bytes
            .first()
            .filter(|byte| b"-*+".contains(byte))
            .map(|_| 1)
    } else if digits <= 9 {
        bytes
            .get(digits)
            .filter(|byte| b".)".contains(byte))
            .map(|_| digits + 1)
    } else {
        None
    }?;
    matches!(bytes.get(marker), None | Some(b' ')).then_some(marker)
}

/// A code fence: its character and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fence {
    marker: u8,
    len: usize,
}

impl Fence {
    /// The fence `line` (without its indentation) opens, and its info string.
    fn opening(line: &str) -> Option<(Fence, &str)> {
        let marker = *line.as_bytes().first()?;
        if marker != b'`' && marker != b'~' {
            return None;
        }
        let len = line.bytes().take_while(|byte| *byte == marker).count();
        let info = &line[len..];
        (len >= 3 && !(marker == b'`' && info.contains('`')))
            .then_some((Fence { marker, len }, info))
    }

    fn closed_by(self, line: &str) -> bool {
        let len = line.bytes().take_while(|byte| *byte == self.marker).count();
        len >= self.len && line[len..].trim().is_empty()
    }

    fn text(self) -> String {
        String::from_utf8(vec![self.marker; self.len]).unwrap_or_default()
    }
}

/// The language a code block of the spec is shown in: the first word of its
/// info string when that is a language's name, `text` for none, or for any
/// word rustdoc would read as Rust, as a doctest attribute (`ignore`,
/// `no_run`, `edition2021`), as a near miss it warns about (`no-run`), or as
/// attributes (`{.python}`): no code of the spec becomes a doctest.
fn code_language(info: &str) -> &str {
    let word = info
        .split(|c: char| c.is_whitespace() || c == ',')
        .find(|word| !word.is_empty())
        .unwrap_or("");
    let lower = word.to_ascii_lowercase();
    let named = word
        .chars()
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+#-.".contains(c));
    const RUSTDOC_WORDS: &[&str] = &[
        "rust",
        "edition",
        "ignore",
        "run",
        "fail",
        "panic",
        "harness",
        "standalone",
        "test",
        "doctest",
    ];
    if named && !RUSTDOC_WORDS.iter().any(|part| lower.contains(part)) {
        word
    } else {
        "text"
    }
}

/// The spec's text as markdown blocks.
#[derive(Debug)]
enum Block {
    Blank,
    Paragraph(Vec<String>),
    /// A paragraph underlined with `===` or `---`.
    Setext(Vec<String>, String),
    Heading(String),
    Rule(String),
    Code {
        fence: Fence,
        language: String,
        lines: Vec<String>,
    },
    Quote(Vec<Block>),
    Item {
        marker: String,
        blocks: Vec<Block>,
    },
}

/// Link reference definitions, by normalized label: the destination and
/// title (with its quotes) of each.
type Definitions = HashMap<String, (String, String)>;

fn label_key(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A text of the spec, rendered.
struct SpecText {
    lines: Vec<String>,
    /// It starts with a paragraph, which can go on the line it was put on.
    starts_inline: bool,
    /// Its last line ends a block.
    closes_block: bool,
    /// Where a line of text after it goes to continue its last list item.
    continuation: usize,
}

impl SpecText {
    fn render(text: &str) -> SpecText {
        let mut lines: Vec<String> = text
            .split('\n')
            .map(|line| untab(line).trim_end().to_string())
            .collect();
        // Text indented as a whole (a block of YAML, a string of JSON
        // written indented) is read without that indentation.
        let common = lines
            .iter()
            .filter(|line| !line.is_empty())
            .map(|line| leading(line))
            .min()
            .unwrap_or(0);
        if common > 0 {
            for line in &mut lines {
                if !line.is_empty() {
                    line.drain(..common);
                }
            }
        }
        let mut definitions = Definitions::new();
        let blocks = parse_blocks(&lines, &mut definitions, true);
        let mut out = Vec::new();
        render_blocks(&blocks, &definitions, &mut out);
        let first = blocks.iter().find(|block| !matches!(block, Block::Blank));
        let last = blocks
            .iter()
            .rev()
            .find(|block| !matches!(block, Block::Blank));
        SpecText {
            lines: out,
            starts_inline: matches!(first, Some(Block::Paragraph(_))),
            closes_block: last.is_some_and(closes_block),
            continuation: last.map_or(0, continuation),
        }
    }
}

fn closes_block(block: &Block) -> bool {
    match block {
        Block::Code { .. } | Block::Rule(_) | Block::Setext(..) => true,
        Block::Quote(blocks) | Block::Item { blocks, .. } => blocks
            .iter()
            .rev()
            .find(|block| !matches!(block, Block::Blank))
            .is_some_and(closes_block),
        _ => false,
    }
}

fn continuation(block: &Block) -> usize {
    match block {
        Block::Item { marker, blocks } => {
            marker.len()
                + 1
                + blocks
                    .iter()
                    .rev()
                    .find(|block| !matches!(block, Block::Blank))
                    .map_or(0, continuation)
        }
        _ => 0,
    }
}

fn leading(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_heading(line: &str) -> bool {
    let hashes = line.bytes().take_while(|byte| *byte == b'#').count();
    (1..=6).contains(&hashes) && matches!(line.as_bytes().get(hashes), None | Some(b' '))
}

fn is_rule(line: &str) -> bool {
    let Some(first) = line.chars().next().filter(|c| "-*_".contains(*c)) else {
        return false;
    };
    line.chars().all(|c| c == first || c == ' ')
        && line.chars().filter(|c| *c == first).count() >= 3
}

fn is_underline(line: &str) -> bool {
    let line = line.trim_end();
    let Some(first) = line.chars().next().filter(|c| *c == '=' || *c == '-') else {
        return false;
    };
    line.chars().all(|c| c == first)
}

/// A paragraph's continuation line, its indentation gone, as text of the
/// paragraph still: indented, `- item` continued the paragraph (it cannot
/// interrupt one), but at the start of a line it would start a list (and
/// make the next line a lazy one), so its marker is escaped. The same for
/// a heading, a quote, a fence or a rule.
fn as_paragraph_text(rest: &str) -> String {
    if !starts_block(rest) && !is_rule(rest) && marker_len(rest).is_none() {
        return rest.to_string();
    }
    match marker_len(rest) {
        Some(len) if rest.as_bytes()[0].is_ascii_digit() => {
            format!("{}\\{}", &rest[..len - 1], &rest[len - 1..])
        }
        _ => format!("\\{rest}"),
    }
}

/// Whether `line` ends a paragraph above it (and is no text of it): a
/// fence, a heading, a rule, a quote, or a list item that may interrupt a
/// paragraph (one with text, numbered 1 if numbered).
fn interrupts(line: &str) -> bool {
    if leading(line) >= 4 {
        return false;
    }
    let rest = line.trim_start();
    if Fence::opening(rest).is_some() || is_heading(rest) || is_rule(rest) || rest.starts_with('>')
    {
        return true;
    }
    match marker_len(rest) {
        Some(len) => {
            let has_text = !rest[len..].trim().is_empty();
            let numbered = rest.as_bytes()[0].is_ascii_digit();
            has_text && (!numbered || rest[..len - 1].trim_start_matches('0') == "1")
        }
        None => false,
    }
}

/// Whether `line`, less indented than the list item or outside the quote
/// before it, starts a block rather than continue the container's paragraph
/// lazily: as [`interrupts`], and any list item (it belongs to the list, or
/// starts another).
fn starts_block(line: &str) -> bool {
    interrupts(line) || (leading(line) < 4 && marker_len(line.trim_start()).is_some())
}

/// Whether `lines` (a container's so far) end in a paragraph, which a lazy
/// line would continue.
fn ends_in_paragraph(lines: &[String]) -> bool {
    let mut fence: Option<Fence> = None;
    let mut paragraph = false;
    for line in lines {
        let rest = line.trim_start();
        if let Some(open) = fence {
            if open.closed_by(rest) {
                fence = None;
            }
            paragraph = false;
        } else if rest.is_empty() {
            paragraph = false;
        } else if leading(line) < 4
            && let Some((open, _)) = Fence::opening(rest)
        {
            fence = Some(open);
            paragraph = false;
        } else {
            let indented_code = !paragraph && leading(line) >= 4;
            paragraph = !indented_code && !is_heading(rest) && !is_rule(rest);
        }
    }
    paragraph && fence.is_none()
}

/// A link reference definition on one line: `[label]: destination "title"`.
fn definition(line: &str) -> Option<(String, String, String)> {
    let rest = line.strip_prefix('[')?;
    let close = rest.find(']')?;
    let label = &rest[..close];
    if label.trim().is_empty() || label.starts_with('^') || label.contains('[') {
        return None;
    }
    let rest = rest[close + 1..].strip_prefix(':')?.trim_start();
    let (destination, rest) = if let Some(inner) = rest.strip_prefix('<') {
        let end = inner.find('>')?;
        (&inner[..end], &inner[end + 1..])
    } else {
        let end = rest.find(' ').unwrap_or(rest.len());
        (&rest[..end], &rest[end..])
    };
    let title = rest.trim();
    let titled = title.is_empty()
        || [('"', '"'), ('\'', '\''), ('(', ')')]
            .iter()
            .any(|(open, close)| {
                title.len() >= 2 && title.starts_with(*open) && title.ends_with(*close)
            });
    (!destination.is_empty() && titled)
        .then(|| (label_key(label), destination.to_string(), title.to_string()))
}

/// The blocks of `lines`; `top` for the text's own level, the only one
/// whose link reference definitions are read as such (inside a list item or
/// a quote, clippy refuses them: there they are text).
fn parse_blocks(lines: &[String], definitions: &mut Definitions, top: bool) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let line = &lines[index];
        let indent = leading(line);
        let rest = line.trim_start();
        if rest.is_empty() {
            if !matches!(blocks.last(), None | Some(Block::Blank)) {
                blocks.push(Block::Blank);
            }
            index += 1;
        } else if indent >= 4 {
            // Indented code: a code block of its own, fenced.
            let mut end = index;
            let mut code = Vec::new();
            while end < lines.len() && (lines[end].is_empty() || leading(&lines[end]) >= 4) {
                code.push(lines[end].get(4..).unwrap_or("").to_string());
                end += 1;
            }
            while code.last().is_some_and(String::is_empty) {
                code.pop();
                end -= 1;
            }
            blocks.push(Block::Code {
                fence: Fence {
                    marker: b'`',
                    len: 3,
                },
                language: "text".into(),
                lines: code,
            });
            index = end;
        } else if let Some((fence, info)) = Fence::opening(rest) {
            let mut end = index + 1;
            let mut code = Vec::new();
            let mut closed = false;
            while end < lines.len() {
                let line = &lines[end];
                end += 1;
                if leading(line) < 4 && fence.closed_by(line.trim_start()) {
                    closed = true;
                    break;
                }
                code.push(line[leading(line).min(indent)..].to_string());
            }
            // An unterminated block ends with the text's last line.
            while !closed && code.last().is_some_and(String::is_empty) {
                code.pop();
            }
            blocks.push(Block::Code {
                fence,
                language: code_language(info).to_string(),
                lines: code,
            });
            index = end;
        } else if rest.starts_with('>') {
            let mut inner: Vec<String> = Vec::new();
            let mut end = index;
            while end < lines.len() {
                let line = &lines[end];
                let rest = line.trim_start();
                if leading(line) < 4 && rest.starts_with('>') {
                    let quoted = &rest[1..];
                    inner.push(quoted.strip_prefix(' ').unwrap_or(quoted).to_string());
                } else if !rest.is_empty()
                    && inner.last().is_some_and(|last| !last.trim().is_empty())
                    && ends_in_paragraph(&inner)
                    && !starts_block(line)
                {
                    inner.push(rest.to_string());
                } else {
                    break;
                }
                end += 1;
            }
            blocks.push(Block::Quote(parse_blocks(&inner, definitions, false)));
            index = end;
        } else if is_rule(rest) {
            blocks.push(Block::Rule(rest.to_string()));
            index += 1;
        } else if let Some(marker) = marker_len(rest) {
            let spaces = leading(&rest[marker..]);
            let offset = if spaces == 0 || spaces > 4 {
                marker + 1
            } else {
                marker + spaces
            };
            let content = indent + offset;
            let mut item = vec![rest.get(offset..).unwrap_or("").to_string()];
            let mut end = index + 1;
            while end < lines.len() {
                let line = &lines[end];
                if line.is_empty() {
                    item.push(String::new());
                } else if leading(line) >= content {
                    item.push(line[content..].to_string());
                } else if item.last().is_some_and(|last| !last.is_empty())
                    && ends_in_paragraph(&item)
                    && !starts_block(line)
                {
                    // A lazy line: the paragraph's.
                    item.push(line.trim_start().to_string());
                } else {
                    break;
                }
                end += 1;
            }
            while item.len() > 1 && item.last().is_some_and(String::is_empty) {
                item.pop();
                end -= 1;
            }
            blocks.push(Block::Item {
                marker: rest[..marker].to_string(),
                blocks: parse_blocks(&item, definitions, false),
            });
            index = end;
        } else if is_heading(rest) {
            blocks.push(Block::Heading(rest.to_string()));
            index += 1;
        } else if let Some((label, destination, title)) = definition(rest).filter(|_| top) {
            definitions.entry(label).or_insert((destination, title));
            index += 1;
        } else {
            let mut paragraph = vec![rest.to_string()];
            let mut end = index + 1;
            let mut underline = None;
            while end < lines.len() {
                let line = &lines[end];
                if line.is_empty() {
                    break;
                }
                if leading(line) < 4 && is_underline(line.trim_start()) {
                    underline = Some(line.trim().to_string());
                    end += 1;
                    break;
                }
                if interrupts(line) {
                    break;
                }
                paragraph.push(as_paragraph_text(line.trim_start()));
                end += 1;
            }
            blocks.push(match underline {
                Some(underline) => Block::Setext(paragraph, underline),
                None => Block::Paragraph(paragraph),
            });
            index = end;
        }
    }
    blocks
}

fn render_blocks(blocks: &[Block], definitions: &Definitions, out: &mut Vec<String>) {
    let start = out.len();
    for block in blocks {
        match block {
            Block::Blank => {
                if out.len() > start && out.last().is_some_and(|line| !line.is_empty()) {
                    out.push(String::new());
                }
            }
            Block::Paragraph(lines) => {
                out.extend(
                    inline(&lines.join("\n"), definitions)
                        .split('\n')
                        .map(String::from),
                );
            }
            Block::Setext(lines, underline) => {
                out.extend(
                    inline(&lines.join("\n"), definitions)
                        .split('\n')
                        .map(String::from),
                );
                out.push(underline.clone());
            }
            Block::Heading(line) => {
                let hashes = line.bytes().take_while(|byte| *byte == b'#').count();
                let title = line[hashes..].trim();
                if title.is_empty() {
                    out.push(line[..hashes].to_string());
                } else {
                    out.push(format!(
                        "{} {}",
                        &line[..hashes],
                        inline(title, definitions)
                    ));
                }
            }
            Block::Rule(line) => out.push(line.clone()),
            Block::Code {
                fence,
                language,
                lines,
            } => {
                out.push(format!("{}{language}", fence.text()));
                out.extend(lines.iter().cloned());
                out.push(fence.text());
            }
            Block::Quote(blocks) => {
                let mut inner = Vec::new();
                render_blocks(blocks, definitions, &mut inner);
                out.extend(inner.into_iter().map(|line| {
                    if line.is_empty() {
                        ">".to_string()
                    } else {
                        format!("> {line}")
                    }
                }));
            }
            Block::Item { marker, blocks } => {
                let mut inner = Vec::new();
                render_blocks(blocks, definitions, &mut inner);
                let mut inner = inner.into_iter();
                match inner.next() {
                    Some(first) => out.push(format!("{marker} {first}")),
                    None => out.push(marker.clone()),
                }
                out.extend(inner.map(|line| indented(marker.len() + 1, &line)));
            }
        }
    }
    while out.len() > start && out.last().is_some_and(String::is_empty) {
        out.pop();
    }
}

/// Elements whose content the browser reads as raw text, not markdown's
/// HTML: never kept.
const RAW_TEXT_ELEMENTS: &[&str] = &[
    "script",
    "style",
    "textarea",
    "title",
    "xmp",
    "iframe",
    "noembed",
    "noframes",
    "noscript",
    "plaintext",
];

/// Elements that need no closing tag (rustdoc's list).
const VOID_ELEMENTS: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param",
    "source", "track", "wbr",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TagKind {
    Open,
    Close,
    SelfClosing,
}

#[derive(Debug)]
enum Piece {
    Text(String),
    Tag {
        text: String,
        name: String,
        kind: TagKind,
    },
}

/// A paragraph's (or a heading's) text, escaped where rustdoc would read
/// what its author did not write (see the module's documentation).
fn inline(text: &str, definitions: &Definitions) -> String {
    let mut pieces = Vec::new();
    Inline {
        definitions,
        pieces: &mut pieces,
        buffer: String::new(),
    }
    .scan(text, false);
    let escaped = unbalanced_tags(&pieces);
    let mut out = String::with_capacity(text.len() + 8);
    for (index, piece) in pieces.into_iter().enumerate() {
        match piece {
            Piece::Text(text) => out.push_str(&text),
            Piece::Tag { text, .. } => {
                if escaped.contains(&index) {
                    out.push('\\');
                }
                out.push_str(&text);
            }
        }
    }
    // A backslash ending the text would escape the line after it, which
    // may be the generators'.
    let backslashes = out.len() - out.trim_end_matches('\\').len();
    if backslashes % 2 == 1 {
        out.push('\\');
    }
    out
}

/// The indices of the tags that are not closed, or close nothing, as
/// rustdoc pairs them (`invalid_html_tags`), and of those that are never
/// kept.
fn unbalanced_tags(pieces: &[Piece]) -> Vec<usize> {
    let mut escaped = Vec::new();
    let mut open: Vec<(String, usize)> = Vec::new();
    for (index, piece) in pieces.iter().enumerate() {
        let Piece::Tag { name, kind, .. } = piece else {
            continue;
        };
        let name = name.to_ascii_lowercase();
        let void = VOID_ELEMENTS.contains(&name.as_str());
        if RAW_TEXT_ELEMENTS.contains(&name.as_str()) {
            escaped.push(index);
            continue;
        }
        match kind {
            TagKind::SelfClosing if !void => escaped.push(index),
            TagKind::SelfClosing => {}
            TagKind::Open if !void => open.push((name, index)),
            TagKind::Open => {}
            TagKind::Close => match open.iter().rposition(|(open, _)| *open == name) {
                Some(position) => {
                    escaped.extend(open.drain(position..).skip(1).map(|(_, index)| index));
                }
                None => escaped.push(index),
            },
        }
    }
    escaped.extend(open.into_iter().map(|(_, index)| index));
    escaped
}

struct Inline<'a> {
    definitions: &'a Definitions,
    pieces: &'a mut Vec<Piece>,
    buffer: String,
}

impl Inline<'_> {
    fn flush(&mut self) {
        if !self.buffer.is_empty() {
            self.pieces
                .push(Piece::Text(std::mem::take(&mut self.buffer)));
        }
    }

    /// Scans `text` into pieces; `in_link` for a link's text, which holds no
    /// link (its brackets are text) and no autolink.
    fn scan(mut self, text: &str, in_link: bool) {
        self.scan_into(text, in_link);
        self.flush();
    }

    fn scan_into(&mut self, text: &str, in_link: bool) {
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            match bytes[at] {
                b'\\' => {
                    if bytes.get(at + 1).is_some_and(u8::is_ascii_punctuation) {
                        self.buffer.push_str(&text[at..at + 2]);
                        at += 2;
                    } else {
                        self.buffer.push('\\');
                        at += 1;
                    }
                }
                b'`' => {
                    let run = backtick_run(text, at);
                    match code_span_end(text, at) {
                        Some(end) => {
                            self.buffer.push_str(&text[at..end]);
                            at = end;
                        }
                        None => {
                            for _ in 0..run {
                                self.buffer.push_str("\\`");
                            }
                            at += run;
                        }
                    }
                }
                b'<' => {
                    if let Some(end) = autolink_end(text, at).or_else(|| comment_end(text, at)) {
                        self.buffer.push_str(&text[at..end]);
                        at = end;
                    } else if let Some((end, name, kind)) = html_tag(text, at) {
                        self.flush();
                        self.pieces.push(Piece::Tag {
                            text: text[at..end].to_string(),
                            name,
                            kind,
                        });
                        at = end;
                    } else if matches!(bytes.get(at + 1), Some(b'!' | b'?')) {
                        // A declaration or processing instruction.
                        self.buffer.push_str("\\<");
                        at += 1;
                    } else {
                        self.buffer.push('<');
                        at += 1;
                    }
                }
                b'!' if !in_link && bytes.get(at + 1) == Some(&b'[') => {
                    // An image, or a `!` before a bracket to escape.
                    match self.link(text, at + 1, "!") {
                        Some(end) => at = end,
                        None => {
                            self.buffer.push('!');
                            at += 1;
                        }
                    }
                }
                b'[' => match (!in_link).then(|| self.link(text, at, "")).flatten() {
                    Some(end) => at = end,
                    None => {
                        self.buffer.push_str("\\[");
                        at += 1;
                    }
                },
                b']' => {
                    self.buffer.push_str("\\]");
                    at += 1;
                }
                b'h' | b'H'
                    if !in_link
                        && (at == 0 || !bytes[at - 1].is_ascii_alphanumeric())
                        && url_end(text, at).is_some() =>
                {
                    let end = url_end(text, at).unwrap_or(at);
                    self.buffer.push('<');
                    self.buffer.push_str(&text[at..end]);
                    self.buffer.push('>');
                    at = end;
                }
                _ => {
                    let next = text[at..]
                        .chars()
                        .next()
                        .map_or(at + 1, |c| at + c.len_utf8());
                    self.buffer.push_str(&text[at..next]);
                    at = next;
                }
            }
        }
    }

    /// Writes the link that starts with the `[` at `open` (after `prefix`,
    /// `!` for an image), if it is one to keep: an inline link to a URL or a path,
    /// or a reference to a definition of one (written inline). Returns
    /// where it ends; `None` leaves the bracket to be escaped.
    fn link(&mut self, text: &str, open: usize, prefix: &str) -> Option<usize> {
        if text[open + 1..].starts_with('^') {
            return None;
        }
        let close = matching_bracket(text, open)?;
        let label = &text[open + 1..close];
        let after = close + 1;
        let (target, end) = if text[after..].starts_with('(') {
            let end = inline_destination_end(text, after)?;
            let destination = destination_of(&text[after + 1..end - 1]);
            if !keeps_link(destination) {
                return None;
            }
            (text[after..end].to_string(), end)
        } else {
            let (reference, end) = if text[after..].starts_with('[') {
                let close = after + 1 + text[after + 1..].find(']')?;
                let reference = &text[after + 1..close];
                let reference = if reference.trim().is_empty() {
                    label
                } else {
                    reference
                };
                (reference, close + 1)
            } else {
                (label, after)
            };
            let (destination, title) = self.definitions.get(&label_key(reference))?;
            if !keeps_link(destination) || destination.contains(['<', '>', '\n']) {
                return None;
            }
            let destination = if destination.contains([' ', '(', ')']) {
                format!("<{destination}>")
            } else {
                destination.clone()
            };
            let title = if title.is_empty() {
                String::new()
            } else {
                format!(" {title}")
            };
            (format!("({destination}{title})"), end)
        };
        self.buffer.push_str(prefix);
        self.buffer.push('[');
        self.scan_into(label, true);
        self.buffer.push(']');
        self.buffer.push_str(&target);
        Some(end)
    }
}

/// The destination of an inline link's `(..)` contents.
fn destination_of(inside: &str) -> &str {
    let inside = inside.trim_start();
    if let Some(inner) = inside.strip_prefix('<') {
        return inner.split('>').next().unwrap_or("");
    }
    inside.split_whitespace().next().unwrap_or("")
}

/// Whether rustdoc leaves a link to `destination` alone: a URL, a path, an
/// anchor (anything but what could name an item, which it would resolve).
fn keeps_link(destination: &str) -> bool {
    let destination = destination.replace('`', "");
    !destination.is_empty()
        && (destination.contains('/')
            || destination.starts_with('#')
            || destination
                .chars()
                .any(|c| !(c.is_alphanumeric() || ":_<>, !*&;@()".contains(c))))
}

fn backtick_run(text: &str, at: usize) -> usize {
    text[at..].bytes().take_while(|byte| *byte == b'`').count()
}

/// The end of the code span opening at `at`: after the next run of as many
/// backticks.
fn code_span_end(text: &str, at: usize) -> Option<usize> {
    let run = backtick_run(text, at);
    let mut search = at + run;
    while let Some(found) = text[search..].find('`') {
        let start = search + found;
        let len = backtick_run(text, start);
        if len == run {
            return Some(start + len);
        }
        search = start + len;
    }
    None
}

/// The `]` closing the `[` at `open`, brackets nested; escapes, code spans,
/// autolinks and tags in between are skipped.
fn matching_bracket(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0;
    let mut at = open;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 1,
            b'`' => {
                at = code_span_end(text, at).unwrap_or(at + backtick_run(text, at)) - 1;
            }
            b'<' => {
                if let Some(end) =
                    autolink_end(text, at).or_else(|| html_tag(text, at).map(|(end, ..)| end))
                {
                    at = end - 1;
                }
            }
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// The end of an inline link's `(destination "title")` opening at `open`.
fn inline_destination_end(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = open + 1;
    let skip_space = |at: &mut usize| {
        while bytes
            .get(*at)
            .is_some_and(|byte| byte.is_ascii_whitespace())
        {
            *at += 1;
        }
    };
    skip_space(&mut at);
    if bytes.get(at) == Some(&b'<') {
        at += text[at..].find(['>', '\n'])?;
        if bytes[at] != b'>' {
            return None;
        }
        at += 1;
    } else {
        let mut depth = 0usize;
        while let Some(&byte) = bytes.get(at) {
            match byte {
                b'\\' => at += 1,
                b'(' => depth += 1,
                b')' if depth == 0 => break,
                b')' => depth -= 1,
                byte if byte.is_ascii_whitespace() || byte.is_ascii_control() => break,
                _ => {}
            }
            at += 1;
        }
    }
    skip_space(&mut at);
    if let Some(&quote) = bytes.get(at).filter(|byte| b"\"'(".contains(byte)) {
        let closing = if quote == b'(' { b')' } else { quote };
        at += 1;
        while bytes.get(at).is_some_and(|byte| *byte != closing) {
            if bytes[at] == b'\\' {
                at += 1;
            }
            at += 1;
        }
        at += 1;
        skip_space(&mut at);
    }
    (bytes.get(at) == Some(&b')')).then_some(at + 1)
}

/// The end of the autolink (`<https://..>`, `<name@example.com>`) at `at`.
fn autolink_end(text: &str, at: usize) -> Option<usize> {
    let rest = &text[at + 1..];
    let end = rest.find('>')?;
    let inside = &rest[..end];
    if inside.is_empty()
        || inside.contains(|c: char| c.is_whitespace() || c.is_control() || c == '<')
    {
        return None;
    }
    let uri = inside.split_once(':').is_some_and(|(scheme, _)| {
        (2..=32).contains(&scheme.len())
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    });
    let email = inside.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty()
            && local
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || ".!#$%&'*+/=?^_`{|}~-".contains(c))
            && !domain.is_empty()
            && domain.split('.').all(|part| {
                !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            })
    });
    (uri || email).then_some(at + 1 + end + 1)
}

/// The end of the HTML comment at `at`.
fn comment_end(text: &str, at: usize) -> Option<usize> {
    if !text[at..].starts_with("<!--") {
        return None;
    }
    text[at + 2..].find("-->").map(|end| at + 2 + end + 3)
}

/// The HTML tag at `at` as markdown reads one (an opening tag with its
/// attributes, a closing one), with its end, name and kind.
fn html_tag(text: &str, at: usize) -> Option<(usize, String, TagKind)> {
    let bytes = text.as_bytes();
    let mut index = at + 1;
    let closing = bytes.get(index) == Some(&b'/');
    if closing {
        index += 1;
    }
    let name_start = index;
    if !bytes.get(index)?.is_ascii_alphabetic() {
        return None;
    }
    while bytes
        .get(index)
        .is_some_and(|byte| byte.is_ascii_alphanumeric() || *byte == b'-')
    {
        index += 1;
    }
    let name = text[name_start..index].to_string();
    let space = |index: &mut usize| -> bool {
        let start = *index;
        while bytes.get(*index).is_some_and(u8::is_ascii_whitespace) {
            *index += 1;
        }
        *index > start
    };
    if closing {
        space(&mut index);
        return (bytes.get(index) == Some(&b'>')).then(|| (index + 1, name, TagKind::Close));
    }
    loop {
        let spaced = space(&mut index);
        match bytes.get(index)? {
            b'>' => return Some((index + 1, name, TagKind::Open)),
            b'/' => {
                return (bytes.get(index + 1) == Some(&b'>'))
                    .then(|| (index + 2, name, TagKind::SelfClosing));
            }
            byte if spaced && (byte.is_ascii_alphabetic() || *byte == b'_' || *byte == b':') => {
                while bytes
                    .get(index)
                    .is_some_and(|byte| byte.is_ascii_alphanumeric() || b"_.:-".contains(byte))
                {
                    index += 1;
                }
                let mut value = index;
                space(&mut value);
                if bytes.get(value) == Some(&b'=') {
                    value += 1;
                    space(&mut value);
                    match bytes.get(value)? {
                        quote @ (b'"' | b'\'') => {
                            let end = text[value + 1..].find(*quote as char)?;
                            index = value + 1 + end + 1;
                        }
                        _ => {
                            let start = value;
                            while bytes.get(value).is_some_and(|byte| {
                                !byte.is_ascii_whitespace() && !b"\"'=<>`".contains(byte)
                            }) {
                                value += 1;
                            }
                            if value == start {
                                return None;
                            }
                            index = value;
                        }
                    }
                }
            }
            _ => return None,
        }
    }
}

/// The end of the bare URL (`http://`, `https://`) at `at`, which rustdoc
/// would warn about: up to a space or a character no URL holds, less the
/// punctuation that ends a sentence after it and a closing parenthesis it
/// did not open.
fn url_end(text: &str, at: usize) -> Option<usize> {
    let rest = &text[at..];
    let scheme = ["http://", "https://"].iter().find(|scheme| {
        rest.get(..scheme.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(scheme))
    })?;
    let length = rest
        .find(|c: char| c.is_whitespace() || c.is_control() || "<>\"`\\[]{}|^".contains(c))
        .unwrap_or(rest.len());
    let mut url = &rest[..length];
    loop {
        let trimmed = url.trim_end_matches(['.', ',', ';', ':', '!', '?', '*', '_', '~', '\'']);
        let trimmed = if trimmed.ends_with(')')
            && trimmed.matches('(').count() < trimmed.matches(')').count()
        {
            &trimmed[..trimmed.len() - 1]
        } else {
            trimmed
        };
        if trimmed.len() == url.len() {
            break;
        }
        url = trimmed;
    }
    (url.len() > scheme.len()).then_some(at + url.len())
}
