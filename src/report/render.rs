//! Values as they appear inside one-line messages: strings in single quotes, lists as
//! `['low', 'medium', 'high']` (as the messages quote them), long values cut short.

use serde_json::Value;
use crate::json::lex::{self, plain_run};
use crate::json::names::NameSet;
use std::fmt::Write;

/// How many characters of a value a message quotes before it is cut with `…`.
pub const MESSAGE_VALUE_CHARS: usize = 80;

/// Renders `value` for a message, cut to about `MESSAGE_VALUE_CHARS` characters.
pub fn repr(value: &Value) -> String {
    let mut out = String::new();
    write_repr(&mut out, value, MESSAGE_VALUE_CHARS * 4);
    cut(out, MESSAGE_VALUE_CHARS)
}

/// A string quoted for a message: `'summary'`.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_str_repr(&mut out, s);
    cut(out, MESSAGE_VALUE_CHARS)
}

/// A schema's regular expression as its author wrote it, between slashes as a JavaScript
/// literal shows one: `/^\d+\.\d+$/`. Nothing in it is escaped, so the model reads the schema's
/// own regex, not a string-escaped copy of it.
pub fn pattern(source: &str) -> String {
    let mut out = cut(["/", source].concat(), MESSAGE_VALUE_CHARS);
    out.push('/');
    out
}

/// A string, array or object named by its size: `a string of 12 characters`, `an array of 3
/// items`, `an object with 1 property` (what size keywords' messages say instead of pasting the
/// value); any other value as `repr` writes it.
pub fn sized(value: &Value) -> String {
    let (what, n, one, many) = match value {
        Value::String(s) => ("a string of ", s.chars().count(), " character", " characters"),
        Value::Array(items) => ("an array of ", items.len(), " item", " items"),
        Value::Object(map) => ("an object with ", map.len(), " property", " properties"),
        other => return repr(other),
    };
    [what, &n.to_string(), if n == 1 { one } else { many }].concat()
}

/// A value as a message names it: `repr`'s rendering, except an array or object too long to
/// quote whole, which is named by its size (`sized`) rather than pasted in part.
pub fn describe(value: &Value) -> String {
    match value {
        Value::Array(_) | Value::Object(_) if json_len(value, MESSAGE_VALUE_CHARS).is_none() => sized(value),
        other => repr(other),
    }
}

fn cut(s: String, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        None => s,
        Some((at, _)) => {
            let mut head = s.get(..at).unwrap_or(&s).to_string();
            head.push('…');
            head
        }
    }
}

fn write_str_repr(out: &mut String, s: &str) {
    crate::json::path::push_single_quoted(out, s);
}

/// Writes at most about `budget` bytes; deeper or longer content is elided.
fn write_repr(out: &mut String, value: &Value, budget: usize) {
    if out.len() > budget {
        out.push('…');
        return;
    }
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => {
            if s.len() > budget {
                let end = s.char_indices().nth(MESSAGE_VALUE_CHARS).map_or(s.len(), |(i, _)| i);
                write_str_repr(out, s.get(..end).unwrap_or(s));
            } else {
                write_str_repr(out, s);
            }
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if out.len() > budget {
                    out.push('…');
                    break;
                }
                write_repr(out, item, budget);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if out.len() > budget {
                    out.push('…');
                    break;
                }
                write_str_repr(out, k);
                out.push_str(": ");
                write_repr(out, v, budget);
            }
            out.push('}');
        }
    }
}

/// A value for the `received` field: kept as is when its JSON is at most `cap` bytes, otherwise
/// replaced by a string of its first bytes and a visible marker (so nothing is silently cut).
pub fn truncate_value(value: &Value, cap: usize) -> Value {
    match value {
        Value::String(s) if s.len() > cap => Value::String(truncate_text(s, cap)),
        Value::Array(_) | Value::Object(_) => {
            // Most fit: measured without writing them (serializing into the writer below was
            // half of a violation's conversion).
            if json_len(value, cap).is_some() {
                return value.clone();
            }
            // A violation on a large subtree (a missing property of the root) must not copy
            // the whole output: its length is measured, and only its head is written (the
            // writer refuses the rest, which ends the serialization; writing it all to count
            // it was a sixth of reporting a 100 KB output).
            let Some(total) = json_len(value, usize::MAX).filter(|&total| total > cap) else {
                return value.clone();
            };
            // Through `Display`, which writes the same compact JSON: its serializer instance is
            // linked anyway, where a writer of its own would add one.
            let mut head = Head { text: String::with_capacity(cap + 4), cap };
            let _ = std::fmt::Write::write_fmt(&mut head, format_args!("{value}"));
            Value::String(cut_bytes(&head.text, cap, total))
        }
        other => other.clone(),
    }
}

/// `truncate_value` of the object or array written as `text` (JSON the verdict has scanned).
/// A text no longer than `cap` is parsed; a longer one is worked out from the text, neither
/// parsed nor written whole (its compact form is measured token by token, and only its head is
/// written). `None` where the text alone cannot tell: a repeated or escaped property name (the
/// parser keeps one of the values), nesting past `MAX_TEXT_DEPTH`, a number serde_json does
/// not read.
pub fn truncate_text_value(text: &str, cap: usize) -> Option<Value> {
    if text.len() <= cap {
        // Small: parsed (measuring it first would only add a pass), and kept when it fits (its
        // compact form can still be longer than its text: 1e2 is written 100.0).
        let value: Value = serde_json::from_str(text).ok()?;
        if !matches!(value, Value::Object(_) | Value::Array(_)) {
            return None;
        }
        return Some(if json_len(&value, cap).is_some() { value } else { truncate_value(&value, cap) });
    }
    let mut compact = Compact { text, pos: 0, head: String::new(), total: 0, cap };
    compact.ws();
    if !matches!(compact.peek(), Some(b'{' | b'[')) {
        return None;
    }
    compact.value(0)?;
    compact.ws();
    if compact.pos != text.len() {
        return None;
    }
    if compact.total <= cap {
        // Small enough to be kept whole: the value itself.
        return serde_json::from_str(text).ok();
    }
    Some(Value::String(cut_bytes(&compact.head, cap, compact.total)))
}

/// Deeper than this, `truncate_text_value` leaves the value to the parser.
const MAX_TEXT_DEPTH: usize = 128;

/// A JSON text rewritten compactly as serde_json would write its value: `total` bytes, of which
/// `head` keeps the first `cap` (and up to a token more).
struct Compact<'t> {
    text: &'t str,
    pos: usize,
    head: String,
    total: usize,
    cap: usize,
}

impl<'t> Compact<'t> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn ws(&mut self) {
        self.pos = lex::skip_ws(self.text.as_bytes(), self.pos);
    }

    fn emit(&mut self, s: &str) {
        self.total += s.len();
        if self.head.len() <= self.cap + 4 {
            self.head.push_str(s);
        }
    }

    /// Copies `token` if it comes next.
    fn copy(&mut self, token: &str) -> Option<()> {
        (self.text.as_bytes().get(self.pos..self.pos + token.len())? == token.as_bytes()).then_some(())?;
        self.pos += token.len();
        self.emit(token);
        Some(())
    }

    /// Copies `open`: whether `close` follows at once (an empty container, then copied too).
    fn open(&mut self, open: &str, close: &str) -> Option<bool> {
        self.copy(open)?;
        self.ws();
        Some(self.copy(close).is_some())
    }

    /// After a member or an item: a comma (true: another follows) or `close` (false).
    fn next(&mut self, close: &str) -> Option<bool> {
        self.ws();
        if self.copy(",").is_some() {
            return Some(true);
        }
        self.copy(close).map(|()| false)
    }

    fn value(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_TEXT_DEPTH {
            return None;
        }
        self.ws();
        match self.peek()? {
            b'{' => {
                if self.open("{", "}")? {
                    return Some(());
                }
                let mut names = NameSet::default();
                loop {
                    self.ws();
                    let (name, escaped) = self.string_token()?;
                    if escaped || !names.insert(name.as_bytes()) {
                        return None;
                    }
                    self.emit(name);
                    self.ws();
                    self.copy(":")?;
                    self.value(depth + 1)?;
                    if !self.next("}")? {
                        return Some(());
                    }
                }
            }
            b'[' => {
                if self.open("[", "]")? {
                    return Some(());
                }
                loop {
                    self.value(depth + 1)?;
                    if !self.next("]")? {
                        return Some(());
                    }
                }
            }
            b'"' => {
                let (token, escaped) = self.string_token()?;
                if escaped {
                    // Escapes are written as serde_json writes the string they spell.
                    let mut decoded = String::new();
                    lex::unescape(token.get(1..token.len() - 1)?, &mut decoded)?;
                    let written = serde_json::to_string(&decoded).ok()?;
                    self.emit(&written);
                } else {
                    // Nothing in it needs an escape (a raw control character is not JSON).
                    self.emit(token);
                }
                Some(())
            }
            b't' => self.copy("true"),
            b'f' => self.copy("false"),
            b'n' => self.copy("null"),
            b'-' | b'0'..=b'9' => {
                let start = self.pos;
                self.pos += lex::number_len(self.text.as_bytes().get(start..)?)?.0;
                let token = self.text.get(start..self.pos)?;
                if plain_integer(token) {
                    // Written back as it is: no float, no sign to normalise.
                    self.emit(token);
                } else {
                    // As the parser reads it (1e2 is 100.0, big integers become floats), and as
                    // serde_json writes that.
                    let number: serde_json::Number = serde_json::from_str(token).ok()?;
                    self.emit(&number.to_string());
                }
                Some(())
            }
            _ => None,
        }
    }

    /// A string token, quotes included, and whether it holds an escape; the position moved
    /// past it. `None` when it is not JSON (the parser's to report).
    fn string_token(&mut self) -> Option<(&'t str, bool)> {
        let start = self.pos;
        let (end, escaped) = lex::string_end(self.text.as_bytes(), start)?;
        self.pos = end;
        Some((self.text.get(start..end)?, escaped))
    }
}

/// Whether serde_json writes the number `token` back unchanged: an integer of at most 18
/// digits (an i64 or u64 either way), not `-0` (read as the float -0.0).
fn plain_integer(token: &str) -> bool {
    let digits = token.strip_prefix('-').unwrap_or(token);
    (1..=18).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" && !token.starts_with('-') || !digits.starts_with('0'))
}

/// The length of `value`'s compact JSON as serde_json writes it, or `None` once that passes
/// `budget`.
fn json_len(value: &Value, budget: usize) -> Option<usize> {
    let len = match value {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        // Integers by their digits; the formatting machinery cost more than the rest of a number.
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => decimal_digits(u),
            (None, Some(i)) => 1 + decimal_digits(i.unsigned_abs()),
            _ => {
                let mut count = Count(0);
                let _ = write!(count, "{n}");
                count.0
            }
        },
        Value::String(s) => string_json_len(s),
        Value::Array(items) => {
            // Brackets and commas.
            let mut total = 2 + items.len().saturating_sub(1);
            for item in items {
                total += json_len(item, budget.checked_sub(total)?)?;
            }
            total
        }
        Value::Object(map) => {
            // Braces, commas and colons.
            let mut total = 2 + map.len().saturating_sub(1) + map.len();
            for (key, item) in map {
                total += string_json_len(key);
                total += json_len(item, budget.checked_sub(total)?)?;
            }
            total
        }
    };
    (len <= budget).then_some(len)
}

fn decimal_digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

/// A string's JSON length: its quotes, and serde_json's escapes (`\n` and the like for some
/// control characters, `\u00XX` for the others).
fn string_json_len(s: &str) -> usize {
    // Runs that need no escape are skipped eight bytes at a time: measuring a large `received`
    // byte by byte cost more than serializing it.
    let bytes = s.as_bytes();
    let (mut n, mut extra) = (0, 0);
    loop {
        n += plain_run(bytes.get(n..).unwrap_or_default());
        match bytes.get(n) {
            Some(b'"' | b'\\' | 0x08 | 0x0c | b'\n' | b'\r' | b'\t') => extra += 1,
            Some(_) => extra += 5,
            None => return 2 + s.len() + extra,
        }
        n += 1;
    }
}

/// Counts what is written to it (a number's digits).
struct Count(usize);

impl Write for Count {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// The first `cap` bytes written to it and up to 4 more, ending on a character boundary (so the
/// cut at `cap` above finds its boundary whatever character straddles `cap`).
struct Head {
    text: String,
    cap: usize,
}

impl std::fmt::Write for Head {
    /// Takes what fits; once full it fails, which stops the serialization.
    fn write_str(&mut self, piece: &str) -> std::fmt::Result {
        let room = (self.cap + 4).saturating_sub(self.text.len());
        if piece.len() <= room {
            self.text.push_str(piece);
            return Ok(());
        }
        self.text.push_str(piece.get(..cut_end(piece, room)).unwrap_or_default());
        Err(std::fmt::Error)
    }
}

/// The first `cap` bytes of `text` (on a character boundary) and a marker saying how much was
/// left out: `…[truncated 1234 bytes]`.
pub fn truncate_text(text: &str, cap: usize) -> String {
    if text.len() <= cap {
        return text.to_string();
    }
    cut_bytes(text, cap, text.len())
}

/// `head` (the start of a text of `total` bytes) cut to at most `cap` bytes on a character
/// boundary, with the marker for the rest.
fn cut_bytes(head: &str, cap: usize, total: usize) -> String {
    let end = cut_end(head, cap);
    with_marker(head.get(..end).unwrap_or(""), total - end)
}

/// Where a cut of `text` to at most `cap` bytes ends: the last character boundary there.
pub fn cut_end(text: &str, cap: usize) -> usize {
    let mut end = cap.min(text.len());
    while end > 0 && !text.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// `head` followed by the marker saying `left_out` bytes were cut.
pub fn with_marker(head: &str, left_out: usize) -> String {
    format!("{head}…[truncated {left_out} bytes]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `json_len` is serde_json's length, and `None` exactly past the budget: escapes, control
    /// characters, non-ASCII, integers at their limits, floats, nesting, empty containers.
    #[test]
    fn json_len_is_the_serialized_length() {
        let values = [
            json!(null), json!(true), json!(false), json!(0), json!(-7), json!(u64::MAX), json!(i64::MIN), json!(1.0), json!(-0.0),
            json!(0.1), json!(1e300), json!(2.5e-308), json!(""), json!("plain"), json!("q\"b\\s/"), json!("\u{8}\u{c}\n\r\t"),
            json!("\u{0}\u{1f}\u{7f}"), json!("é😀"), json!([]), json!({}), json!([1, [2, [3, {}]], "x"]),
            json!({"a": 1, "b\n": [null, {"c": "d\u{1}"}], "": ""}),
        ];
        for value in &values {
            let len = serde_json::to_string(value).unwrap().len();
            assert_eq!(json_len(value, usize::MAX), Some(len), "{value}");
            assert_eq!(json_len(value, len), Some(len), "{value}");
            assert_eq!(json_len(value, len - 1), None, "{value}");
            // As `truncate_value` answers either side of the cap.
            assert_eq!(&truncate_value(value, len), value);
        }
        // Each escaped byte at each place of strings around the eight bytes measured at once.
        for len in 0..20 {
            for at in 0..len {
                for special in ['"', '\\', '\n', '\u{1}', '\u{1f}', ' ', '~', '\u{7f}', 'é'] {
                    let mut text: String = "a".repeat(len);
                    text.replace_range(at..=at, &special.to_string());
                    let value = json!(text);
                    assert_eq!(json_len(&value, usize::MAX), Some(serde_json::to_string(&value).unwrap().len()), "{text:?}");
                }
            }
        }
        // And every instance of the JSON-Schema-Test-Suite.
        let mut seen = 0;
        for group in crate::suite::groups() {
            for test in group.get("tests").and_then(Value::as_array).into_iter().flatten() {
                let data = &test["data"];
                assert_eq!(json_len(data, usize::MAX), Some(serde_json::to_string(data).unwrap().len()), "{data}");
                seen += 1;
            }
        }
        assert!(seen > 5000, "{seen}");
    }

    /// A container past the cap becomes the head of its compact JSON, cut on the last character
    /// boundary at or before the cap, whatever the width of the character there.
    #[test]
    fn truncates_a_value_on_a_character_boundary() {
        let values = [json!(["é😀ab", {"k": "€€€€", "x": [1, "😀😀"]}, "q\"\n"]), json!({"😀": "é".repeat(40)})];
        for value in &values {
            let full = serde_json::to_string(value).unwrap();
            for cap in 0..full.len() {
                let expected = Value::String(with_marker(&full[..cut_end(&full, cap)], full.len() - cut_end(&full, cap)));
                assert_eq!(truncate_value(value, cap), expected, "cap {cap}: {full}");
            }
        }
    }

    /// From the text, as from the parsed value: every container of the JSON-Schema-Test-Suite,
    /// compact and indented, at several caps; and values made to differ in writing.
    #[test]
    fn truncates_a_text_as_its_value() {
        let check = |text: &str| {
            let parsed: Value = serde_json::from_str(text).unwrap();
            for cap in [0, 3, 16, 256, 4096] {
                assert_eq!(truncate_text_value(text, cap), Some(truncate_value(&parsed, cap)), "cap {cap}: {text}");
            }
        };
        let mut seen = 0;
        for group in crate::suite::groups() {
            for test in group.get("tests").and_then(Value::as_array).into_iter().flatten() {
                let data = &test["data"];
                // Escapes in names are left to the parser (below).
                if !(data.is_object() || data.is_array()) || serde_json::to_string(data).unwrap().contains('\\') {
                    continue;
                }
                check(&serde_json::to_string(data).unwrap());
                check(&serde_json::to_string_pretty(data).unwrap());
                seen += 1;
            }
        }
        assert!(seen > 1000, "{seen}");
        let written = r#" { "a" : [ 1e2, 1.50, -0, -0.0, 0, -7, 123456789012345678, -123456789012345678, 9999999999999999999, 12345678901234567890, 123456789012345678901234, 0.1e-2 ] ,
            "s" : "tab\there \u00e9\/\"q\" \ud83d\ude00 \u0001" , "é😀" : { "" : [ ] , "n" : null , "t" : true , "f" : false } } "#;
        check(written);
        assert_eq!(truncate_text_value(r#"{"a": 1, "a": 2}"#, 0), None, "a repeated name");
        assert_eq!(truncate_text_value(r#"{"\u0061": 1}"#, 0), None, "an escaped name");
        assert_eq!(truncate_text_value("\"text\"", 0), None, "not a container");
        for bad in ["{", "[1,]", "{\"a\" 1}", "[01]", "[1e999]", "[\"\u{1}\"]", "[nul]", "[1] x"] {
            assert_eq!(truncate_text_value(bad, 0), None, "{bad:?}");
        }
    }

    #[test]
    fn renders_values_as_messages_quote_them() {
        assert_eq!(repr(&json!("critical")), "'critical'");
        assert_eq!(repr(&json!(["low", "medium", "high"])), "['low', 'medium', 'high']");
        assert_eq!(repr(&json!(-5)), "-5");
        assert_eq!(repr(&json!({"a": [1, null, true]})), "{'a': [1, null, true]}");
        assert_eq!(repr(&json!("it's")), "'it\\'s'");
        let long = "x".repeat(500);
        assert!(repr(&json!(long)).chars().count() <= MESSAGE_VALUE_CHARS + 1);
    }

    #[test]
    fn truncates_with_a_visible_marker() {
        assert_eq!(truncate_text("héllo world", 2), "h…[truncated 11 bytes]");
        assert_eq!(truncate_value(&json!("short"), 10), json!("short"));
        assert_eq!(truncate_value(&json!([1, 2, 3]), 3), json!("[1,…[truncated 4 bytes]"));
        // A cut inside a character moves back to its start; the marker counts what was left out.
        assert_eq!(truncate_value(&json!(["ééé"]), 4), json!("[\"é…[truncated 6 bytes]"));
        assert_eq!(truncate_value(&json!(["ééé"]), 3), json!("[\"…[truncated 8 bytes]"));
        // Only the head of a large value is written: the same text as cutting all of it.
        let big = json!({"a": ["é\n".repeat(300), {"b": [1.5, -0.0, null, "x\u{1}"]}], "c": "😀".repeat(500)});
        let whole = serde_json::to_string(&big).unwrap();
        for cap in [0, 1, 5, 6, 7, 256, 1000, whole.len() - 1] {
            assert_eq!(truncate_value(&big, cap), json!(truncate_text(&whole, cap)), "cap {cap}");
        }
        assert_eq!(truncate_value(&big, whole.len()), big);
    }
}
