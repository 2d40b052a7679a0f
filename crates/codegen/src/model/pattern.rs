//! Translating a spec's `pattern` (ECMA-262) into the syntax of the `regex`
//! crate, for the patterns where both engines provably accept the same
//! strings.
//!
//! regress, the ECMA-262 engine the types use, backtracks; `regex` runs
//! automata and costs a fraction of it per match. The translation accepts
//! only a small grammar whose meaning is the same in both: ASCII literals,
//! classes of ASCII characters and ranges, `.`, `\d` and `\w` (and their
//! negations), groups, alternation, the quantifiers and the `^`/`$` anchors
//! (without the `m` flag, both mean the ends of the text in either engine).
//! It writes every construct out in a form that means one thing in `regex`:
//! `\d` becomes `[0-9]` and `\w` becomes `[0-9A-Z_a-z]` (Unicode-aware in
//! `regex`, ASCII in ECMA-262), `.` excludes ECMA-262's four line
//! terminators, literals are escaped where `regex` gives them a meaning.
//! Anything else (lookaround, backreferences, `\b`, `\s`, escapes of code
//! units, non-ASCII text, Annex B's lenient forms such as a lone `{` or `]`)
//! yields `None`, and the server keeps regress for that pattern. Matching
//! either way is over code points: regress reads a Rust `&str` by code point,
//! and `regex` in Unicode mode does too.

use std::fmt::Write;

/// The largest repetition bound translated; `regex` compiles counted
/// repetitions by copying, so larger bounds stay with regress.
const MAX_BOUND: u32 = 1000;

/// The `regex` crate's spelling of `pattern`, when it accepts exactly the
/// strings regress accepts; `None` keeps the pattern with regress.
pub fn to_regex(pattern: &str) -> Option<String> {
    let mut parser = Parser {
        chars: pattern.chars().collect(),
        at: 0,
        out: String::new(),
    };
    parser.disjunction()?;
    if parser.at != parser.chars.len() {
        return None;
    }
    // Size limits and anything the grammar above let through by mistake.
    regex::Regex::new(&parser.out).ok()?;
    Some(parser.out)
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    out: String,
}

/// A character ECMA-262 reads as syntax outside a class.
fn is_syntax(c: char) -> bool {
    "^$\\.*+?()[]{}|/".contains(c)
}

/// Writes `c` so that `regex` reads it as itself, inside or outside a class.
fn literal(c: char, out: &mut String) {
    match c {
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\u{b}' => out.push_str("\\x0B"),
        '\u{c}' => out.push_str("\\x0C"),
        // Every ASCII punctuation character `regex` may treat as syntax
        // (`-`, `&` and `~` are operators in classes, `#` in verbose mode).
        _ if "\\.+*?()|[]{}^$#&-~".contains(c) => {
            out.push('\\');
            out.push(c);
        }
        _ => out.push(c),
    }
}

/// The class body (no brackets) `\d`, `\w` and their negations stand for,
/// or `None` for any other letter.
fn class_escape(c: char) -> Option<(bool, &'static str)> {
    match c {
        'd' => Some((false, "0-9")),
        'D' => Some((true, "0-9")),
        'w' => Some((false, "0-9A-Z_a-z")),
        'W' => Some((true, "0-9A-Z_a-z")),
        _ => None,
    }
}

/// The character an identity or control escape stands for, when the escape
/// means the same character in every ECMA-262 mode.
fn character_escape(c: char) -> Option<char> {
    match c {
        't' => Some('\t'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        'v' => Some('\u{b}'),
        'f' => Some('\u{c}'),
        '-' => Some('-'),
        _ if is_syntax(c) => Some(c),
        _ => None,
    }
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn disjunction(&mut self) -> Option<()> {
        self.alternative()?;
        while self.eat('|') {
            self.out.push('|');
            self.alternative()?;
        }
        Some(())
    }

    fn alternative(&mut self) -> Option<()> {
        while let Some(c) = self.peek() {
            match c {
                '|' | ')' => break,
                '^' | '$' => {
                    self.at += 1;
                    self.out.push(c);
                }
                _ => {
                    self.atom()?;
                    self.quantifier()?;
                }
            }
        }
        Some(())
    }

    fn atom(&mut self) -> Option<()> {
        let c = self.peek()?;
        self.at += 1;
        match c {
            '(' => {
                // A plain group captures in both; `(?:` does not; every other
                // `(?` is lookaround or a named group.
                if self.eat('?') {
                    if !self.eat(':') {
                        return None;
                    }
                    self.out.push_str("(?:");
                } else {
                    self.out.push('(');
                }
                self.disjunction()?;
                if !self.eat(')') {
                    return None;
                }
                self.out.push(')');
            }
            '[' => self.class()?,
            '.' => self.out.push_str("[^\\n\\r\\x{2028}\\x{2029}]"),
            '\\' => {
                let escaped = self.peek()?;
                self.at += 1;
                if let Some((negated, body)) = class_escape(escaped) {
                    let caret = if negated { "^" } else { "" };
                    write!(self.out, "[{caret}{body}]").ok()?;
                } else {
                    literal(character_escape(escaped)?, &mut self.out);
                }
            }
            _ if c.is_ascii_graphic() || c == ' ' => {
                if is_syntax(c) && c != '/' {
                    return None;
                }
                literal(c, &mut self.out);
            }
            _ => return None,
        }
        Some(())
    }

    fn quantifier(&mut self) -> Option<()> {
        match self.peek() {
            Some(c @ ('*' | '+' | '?')) => {
                self.at += 1;
                self.out.push(c);
            }
            Some('{') => {
                self.at += 1;
                let min = self.number()?;
                let max = if self.eat(',') {
                    if self.peek() == Some('}') {
                        None
                    } else {
                        Some(self.number()?)
                    }
                } else {
                    Some(min)
                };
                if !self.eat('}') || max.is_some_and(|max| max < min) {
                    return None;
                }
                match max {
                    Some(max) if max == min => write!(self.out, "{{{min}}}").ok()?,
                    Some(max) => write!(self.out, "{{{min},{max}}}").ok()?,
                    None => write!(self.out, "{{{min},}}").ok()?,
                }
            }
            _ => return Some(()),
        }
        // Laziness changes which match is found, never whether one is.
        self.eat('?');
        Some(())
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits: String = self.chars[start..self.at].iter().collect();
        digits.parse().ok().filter(|&n| n <= MAX_BOUND)
    }

    fn class(&mut self) -> Option<()> {
        self.out.push('[');
        if self.eat('^') {
            self.out.push('^');
        }
        let mut empty = true;
        while !self.eat(']') {
            empty = false;
            match self.class_atom()? {
                ClassAtom::Set(negated, body) => {
                    let caret = if negated { "^" } else { "" };
                    write!(self.out, "[{caret}{body}]").ok()?;
                }
                ClassAtom::Char(low) => {
                    // `-` between two characters is a range; first, last or
                    // next to `\d` it is itself.
                    if self.peek() == Some('-') && self.chars.get(self.at + 1) != Some(&']') {
                        self.at += 1;
                        let ClassAtom::Char(high) = self.class_atom()? else {
                            return None;
                        };
                        if high < low {
                            return None;
                        }
                        literal(low, &mut self.out);
                        self.out.push('-');
                        literal(high, &mut self.out);
                    } else {
                        literal(low, &mut self.out);
                    }
                }
            }
        }
        // `[]` matches nothing and `[^]` anything in ECMA-262; `regex` reads
        // both differently.
        if empty {
            return None;
        }
        self.out.push(']');
        Some(())
    }

    fn class_atom(&mut self) -> Option<ClassAtom> {
        let c = self.peek()?;
        self.at += 1;
        match c {
            '\\' => {
                let escaped = self.peek()?;
                self.at += 1;
                match class_escape(escaped) {
                    Some((negated, body)) => Some(ClassAtom::Set(negated, body)),
                    // `\b` is a backspace in a class; kept with regress.
                    None => character_escape(escaped).map(ClassAtom::Char),
                }
            }
            // A `-` next to a `\d` is Annex B's; an opening bracket is
            // a literal in ECMA-262 and a nested class in `regex`, escaped by
            // `literal`.
            _ if c.is_ascii_graphic() || c == ' ' => Some(ClassAtom::Char(c)),
            _ => None,
        }
    }
}

enum ClassAtom {
    Char(char),
    Set(bool, &'static str),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_patterns_translate() {
        assert_eq!(to_regex("^[0-9]{12}$").as_deref(), Some("^[0-9]{12}$"));
        assert_eq!(to_regex("^https://").as_deref(), Some("^https://"));
        assert_eq!(
            to_regex(r"^\d+(?:\.\d{1,2})?$").as_deref(),
            Some(r"^[0-9]+(?:\.[0-9]{1,2})?$")
        );
        assert_eq!(
            to_regex(
                r"^[A-Za-z][A-Za-z0-9+.-]*:([A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+$"
            )
            .as_deref(),
            Some(
                r"^[A-Za-z][A-Za-z0-9\+\.\-]*:([A-Za-z0-9\._\~:/\?\#\[\]@!\$\&'\(\)\*\+,;=\-]|%[0-9A-Fa-f]{2})+$"
            )
        );
        assert_eq!(
            to_regex("a.b").as_deref(),
            Some(r"a[^\n\r\x{2028}\x{2029}]b")
        );
        assert_eq!(to_regex(r"[\w-]").as_deref(), Some(r"[[0-9A-Z_a-z]\-]"));
    }

    #[test]
    fn constructs_whose_meaning_differs_stay_with_regress() {
        for pattern in [
            r"(?=a)b",
            r"(?!a)b",
            r"(?<=a)b",
            r"(?<name>a)",
            r"(a)\1",
            r"\bword\b",
            r"\s+",
            r"\x41",
            r"\u0041",
            r"[\b]",
            "a{",
            "a{2,1}",
            "a]",
            "[]",
            "[^]",
            r"[a-\d]",
            "é",
            "a{1001}",
            "(a",
            "a)",
            "*a",
        ] {
            assert_eq!(to_regex(pattern), None, "{pattern}");
        }
    }

    /// Both engines, on texts chosen to hit every construct's edges: the
    /// translation must accept exactly what regress accepts.
    #[test]
    fn translations_match_what_regress_matches() {
        let patterns = [
            "^[0-9]{12}$",
            "^https://",
            "[0-9]{3}",
            r"^\d+(\.\d{1,2})?$",
            r"^\w+$",
            r"^\W",
            r"\D",
            "^a.c$",
            "^.*$",
            "^[^a-c]+$",
            "^(ab|cd)*?e{2,}$",
            r"^[\w.-]+@[\w-]+\.[a-z]{2,}$",
            r"^[A-Za-z][A-Za-z0-9+.-]*:([A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})+$",
            "^[-a]$",
            "^[a-]$",
            r"^[\-\]\\]+$",
            "^a b$",
            "^#&~$",
            "x{0}y",
        ];
        let texts = [
            "",
            "a",
            "abc",
            "a\nc",
            "a\rc",
            "a\u{2028}c",
            "a\u{85}c",
            "aéc",
            "a😀c",
            "123456789012",
            "1234567890123",
            "12.5",
            "12.",
            "١٢٣",
            "ab_9",
            "é",
            "-",
            "]",
            "\\",
            "d",
            "ababcdee",
            "eee",
            "name.x@host-1.io",
            "https://example.com",
            "urn:partner:token",
            "urn:partner token",
            "a:%2",
            "a:%2F",
            "1a:b",
            "a b",
            "#&~",
            "y",
            "\n",
        ];
        for pattern in patterns {
            let translated = to_regex(pattern).unwrap_or_else(|| panic!("{pattern}"));
            let ecma = regress::Regex::new(pattern).unwrap();
            let rust = regex::Regex::new(&translated).unwrap();
            for text in texts {
                assert_eq!(
                    rust.is_match(text),
                    ecma.find(text).is_some(),
                    "{pattern} ({translated}) on {text:?}"
                );
            }
        }
    }
}
