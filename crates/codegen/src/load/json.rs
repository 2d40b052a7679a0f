//! A JSON reader that keeps the line and column of every node.
//!
//! JSON is YAML to a YAML reader, almost: escaped surrogate pairs
//! (`"\ud83d\udc4d"`, one emoji) are not, and reading megabytes of JSON as
//! YAML costs several times what it needs to. `serde_json` keeps no
//! positions, so this is a small recursive-descent reader of RFC 8259 that
//! records them as the YAML path does: a container member at its key, a
//! scalar at its first character, a list item at its first character.

use std::collections::BTreeMap;

use serde_json::{Map, Number, Value};

use crate::diagnostic::{Position, pointer_join};

/// Deeper nesting than any description has; it bounds the recursion, so a
/// crafted file cannot overflow the stack.
const MAX_DEPTH: usize = 512;

/// A syntax error: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    pub position: Position,
    pub cause: String,
}

/// Parses `text` as one JSON value, recording the position of every node by
/// JSON pointer into `positions`.
pub fn parse(text: &str, positions: &mut BTreeMap<String, Position>) -> Result<Value, JsonError> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        text,
        offset: 0,
        line: 1,
        line_start: 0,
        column_offset: 0,
        column: 1,
        positions,
    };
    if text.starts_with('\u{feff}') {
        reader.offset = 3;
        reader.line_start = 3;
        reader.column_offset = 3;
    }
    reader.skip_whitespace();
    let start = reader.position();
    let value = reader.value(String::new(), 0)?;
    reader.positions.insert(String::new(), start);
    reader.skip_whitespace();
    if reader.offset < reader.bytes.len() {
        return Err(reader.error("unexpected characters after the JSON value"));
    }
    Ok(value)
}

struct Reader<'a> {
    bytes: &'a [u8],
    text: &'a str,
    offset: usize,
    line: usize,
    line_start: usize,
    /// The column of `column_offset` on the current line: positions are asked
    /// for in increasing order, so counting characters from the last one
    /// keeps a minified file (one long line) linear.
    column_offset: usize,
    column: usize,
    positions: &'a mut BTreeMap<String, Position>,
}

impl Reader<'_> {
    fn position(&mut self) -> Position {
        if self.column_offset < self.line_start {
            self.column_offset = self.line_start;
            self.column = 1;
        }
        // Characters, not bytes: a UTF-8 continuation byte starts none.
        self.column += self.bytes[self.column_offset..self.offset]
            .iter()
            .filter(|byte| (**byte & 0xC0) != 0x80)
            .count();
        self.column_offset = self.offset;
        Position {
            line: self.line,
            column: self.column,
        }
    }

    fn error(&mut self, cause: impl Into<String>) -> JsonError {
        JsonError {
            position: self.position(),
            cause: cause.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.offset).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(byte) = self.peek() {
            match byte {
                b' ' | b'\t' | b'\r' => self.offset += 1,
                b'\n' => {
                    self.offset += 1;
                    self.line += 1;
                    self.line_start = self.offset;
                }
                _ => break,
            }
        }
    }

    fn found(&self) -> String {
        match self.text[self.offset..].chars().next() {
            None => "the end of the file".into(),
            Some(found) => format!("`{found}`"),
        }
    }

    /// The value at the current offset (whitespace skipped), at `pointer`.
    fn value(&mut self, pointer: String, depth: usize) -> Result<Value, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        match self.peek() {
            Some(b'{') => self.object(pointer, depth),
            Some(b'[') => self.array(pointer, depth),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            _ => Err(self.error(format!("expected a value, found {}", self.found()))),
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, JsonError> {
        if self.bytes[self.offset..].starts_with(word.as_bytes()) {
            self.offset += word.len();
            Ok(value)
        } else {
            Err(self.error(format!("expected a value, found {}", self.found())))
        }
    }

    fn object(&mut self, pointer: String, depth: usize) -> Result<Value, JsonError> {
        self.offset += 1;
        let mut object = Map::new();
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.offset += 1;
            return Ok(Value::Object(object));
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.error(format!(
                    "expected a member name in double quotes, found {}",
                    self.found()
                )));
            }
            let key_position = self.position();
            let key = self.string()?;
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                return Err(self.error(format!(
                    "expected `:` after the member name, found {}",
                    self.found()
                )));
            }
            self.offset += 1;
            self.skip_whitespace();
            let member_pointer = pointer_join(&pointer, &key);
            let value_position = self.position();
            let value = self.value(member_pointer.clone(), depth + 1)?;
            // A block is looked for at the key that opens it, as in YAML.
            let shown = if value.is_object() || value.is_array() {
                key_position
            } else {
                value_position
            };
            self.positions.insert(member_pointer, shown);
            if object.contains_key(&key) {
                return Err(JsonError {
                    position: key_position,
                    cause: format!("duplicate member name `{key}` in an object"),
                });
            }
            object.insert(key, value);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.offset += 1,
                Some(b'}') => {
                    self.offset += 1;
                    return Ok(Value::Object(object));
                }
                _ => {
                    return Err(self.error(format!(
                        "expected `,` or `}}` after an object member, found {}",
                        self.found()
                    )));
                }
            }
        }
    }

    fn array(&mut self, pointer: String, depth: usize) -> Result<Value, JsonError> {
        self.offset += 1;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.offset += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_whitespace();
            let item_pointer = pointer_join(&pointer, &items.len().to_string());
            let position = self.position();
            let item = self.value(item_pointer.clone(), depth + 1)?;
            self.positions.insert(item_pointer, position);
            items.push(item);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.offset += 1,
                Some(b']') => {
                    self.offset += 1;
                    return Ok(Value::Array(items));
                }
                _ => {
                    return Err(self.error(format!(
                        "expected `,` or `]` after a list item, found {}",
                        self.found()
                    )));
                }
            }
        }
    }

    /// A string starting at the current `"`.
    fn string(&mut self) -> Result<String, JsonError> {
        self.offset += 1;
        let mut text = String::new();
        let mut run_start = self.offset;
        loop {
            let Some(byte) = self.peek() else {
                return Err(self.error("the string is not closed"));
            };
            match byte {
                b'"' => {
                    text.push_str(&self.text[run_start..self.offset]);
                    self.offset += 1;
                    return Ok(text);
                }
                b'\\' => {
                    text.push_str(&self.text[run_start..self.offset]);
                    self.escape(&mut text)?;
                    run_start = self.offset;
                }
                0x00..=0x1F => {
                    return Err(self.error(
                        "a control character (such as a line break) inside a string must be escaped",
                    ));
                }
                _ => self.offset += 1,
            }
        }
    }

    /// One escape sequence at the current `\`, appended to `text`.
    fn escape(&mut self, text: &mut String) -> Result<(), JsonError> {
        let Some(&kind) = self.bytes.get(self.offset + 1) else {
            return Err(self.error("the string is not closed"));
        };
        let simple = match kind {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            b'u' => None,
            _ => return Err(self.error("invalid escape sequence in a string")),
        };
        if let Some(character) = simple {
            text.push(character);
            self.offset += 2;
            return Ok(());
        }
        let first = self.hex_unit(self.offset + 2)?;
        let character = match first {
            0xD800..=0xDBFF => {
                // A character outside the Basic Multilingual Plane is written
                // as two escapes, a high and a low surrogate.
                let second = if self.bytes[self.offset + 6..].starts_with(b"\\u") {
                    self.hex_unit(self.offset + 8)?
                } else {
                    0
                };
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error(
                        "a high surrogate escape (\\uD800-\\uDBFF) must be followed by a low one (\\uDC00-\\uDFFF)",
                    ));
                }
                self.offset += 6;
                let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                char::from_u32(code).expect("a surrogate pair encodes a character")
            }
            0xDC00..=0xDFFF => {
                return Err(self.error(
                    "a low surrogate escape (\\uDC00-\\uDFFF) without a high one before it",
                ));
            }
            code => char::from_u32(code).expect("not a surrogate, so a character"),
        };
        self.offset += 6;
        text.push(character);
        Ok(())
    }

    /// The four hex digits at `at`.
    fn hex_unit(&mut self, at: usize) -> Result<u32, JsonError> {
        let digits = self
            .bytes
            .get(at..at + 4)
            .and_then(|digits| std::str::from_utf8(digits).ok())
            .filter(|digits| digits.bytes().all(|byte| byte.is_ascii_hexdigit()))
            .and_then(|digits| u32::from_str_radix(digits, 16).ok());
        digits.ok_or_else(|| self.error("`\\u` must be followed by four hexadecimal digits"))
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.offset;
        let digits = |reader: &mut Self| {
            let from = reader.offset;
            while reader.peek().is_some_and(|byte| byte.is_ascii_digit()) {
                reader.offset += 1;
            }
            reader.offset > from
        };
        if self.peek() == Some(b'-') {
            self.offset += 1;
        }
        let integer_start = self.offset;
        if !digits(self) {
            return Err(self.error("expected a digit"));
        }
        if self.bytes[integer_start] == b'0' && self.offset - integer_start > 1 {
            self.offset = integer_start;
            return Err(self.error("a number must not start with a leading zero"));
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.offset += 1;
            if !digits(self) {
                return Err(self.error("expected a digit after the decimal point"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            integer = false;
            self.offset += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.offset += 1;
            }
            if !digits(self) {
                return Err(self.error("expected a digit in the exponent"));
            }
        }
        let text = &self.text[start..self.offset];
        if integer {
            if let Ok(number) = text.parse::<u64>() {
                return Ok(Value::Number(number.into()));
            }
            if let Ok(number) = text.parse::<i64>() {
                return Ok(Value::Number(number.into()));
            }
        }
        let number = text
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .ok_or_else(|| {
                self.offset = start;
                self.error(format!("the number {text} is out of range"))
            })?;
        Ok(Value::Number(number))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> (Value, BTreeMap<String, Position>) {
        let mut positions = BTreeMap::new();
        let value = parse(text, &mut positions).unwrap_or_else(|err| panic!("{err:?}"));
        (value, positions)
    }

    fn error(text: &str) -> (usize, usize, String) {
        let err = parse(text, &mut BTreeMap::new()).unwrap_err();
        (err.position.line, err.position.column, err.cause)
    }

    fn at(line: usize, column: usize) -> Position {
        Position { line, column }
    }

    #[test]
    fn values_read_as_serde_json_reads_them() {
        let text = r#"{"a": [1, -2, 3.5, 1e3, true, false, null], "b": {"c": "d\n\"é\u00e9\/"}, "e": 18446744073709551615, "f": -9223372036854775808}"#;
        let (value, _) = parsed(text);
        assert_eq!(value, serde_json::from_str::<Value>(text).unwrap());
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["a", "b", "e", "f"], "document order is kept");
    }

    #[test]
    fn escaped_surrogate_pairs_are_one_character() {
        let (value, _) = parsed(r#"{"emoji": "\ud83d\udc4d ok", "raw": "👍"}"#);
        assert_eq!(value["emoji"], "\u{1F44D} ok");
        assert_eq!(value["raw"], "\u{1F44D}");
    }

    #[test]
    fn members_are_placed_at_their_key_and_scalars_at_their_first_character() {
        let text = "{\n  \"info\": {\n    \"title\": \"T\"\n  },\n  \"tags\": [\n    {\"name\": \"a\"},\n    \"x\"\n  ]\n}";
        let (_, positions) = parsed(text);
        assert_eq!(positions[""], at(1, 1));
        assert_eq!(positions["/info"], at(2, 3));
        assert_eq!(positions["/info/title"], at(3, 14));
        assert_eq!(positions["/tags"], at(5, 3));
        assert_eq!(positions["/tags/0"], at(6, 5));
        assert_eq!(positions["/tags/0/name"], at(6, 14));
        assert_eq!(positions["/tags/1"], at(7, 5));
    }

    #[test]
    fn columns_count_characters_and_pointers_are_escaped() {
        let (_, positions) = parsed("{\"é👍\": 1, \"a/b~\": \"👍\", \"c\": 2}");
        assert_eq!(positions["/é👍"], at(1, 8));
        assert_eq!(positions["/a~1b~0"], at(1, 19));
        assert_eq!(positions["/c"], at(1, 29));
    }

    #[test]
    fn syntax_errors_are_located() {
        assert_eq!(
            error("{\n  \"a\": 1,\n  \"b\" 2\n}"),
            (3, 7, "expected `:` after the member name, found `2`".into())
        );
        assert_eq!(
            error("{\"a\": [1, 2,]}"),
            (1, 13, "expected a value, found `]`".into())
        );
        assert_eq!(
            error("{\n  \"a\": 1\n  \"b\": 2\n}"),
            (
                3,
                3,
                "expected `,` or `}` after an object member, found `\"`".into()
            )
        );
        assert_eq!(
            error("{\"a\": \"x"),
            (1, 9, "the string is not closed".into())
        );
        assert_eq!(error("{\"a\": 01}").0, 1);
        assert_eq!(
            error("{} x").2,
            "unexpected characters after the JSON value"
        );
        assert_eq!(
            error("{\"a\": \"\\ud83d\"}").2,
            "a high surrogate escape (\\uD800-\\uDBFF) must be followed by a low one (\\uDC00-\\uDFFF)"
        );
        assert_eq!(
            error("{\"a\": 1e999}").2,
            "the number 1e999 is out of range"
        );
    }

    #[test]
    fn a_duplicate_member_name_is_refused_at_the_second() {
        assert_eq!(
            error("{\n  \"a\": 1,\n  \"a\": {}\n}"),
            (3, 3, "duplicate member name `a` in an object".into())
        );
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "[".repeat(MAX_DEPTH + 2);
        assert!(error(&deep).2.starts_with("nesting deeper than"));
    }
}
