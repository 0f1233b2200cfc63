//! Values as they appear inside one-line messages: strings in single quotes, lists as
//! `['low', 'medium', 'high']` (the style of seed 000's examples), long values cut short.

use serde_json::Value;
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
    out.push('\'');
    for c in s.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('\'');
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
            // Serialized once into a writer that keeps only the head: a violation on a large
            // subtree (a missing property of the root) must not copy the whole output.
            let mut head = Head { bytes: Vec::new(), cap, total: 0 };
            if serde_json::to_writer(&mut head, value).is_err() || head.total <= cap {
                return value.clone();
            }
            Value::String(cut_bytes(&String::from_utf8_lossy(&head.bytes), cap, head.total))
        }
        other => other.clone(),
    }
}

/// The length of `value`'s compact JSON as serde_json writes it, or `None` once that passes
/// `budget`.
fn json_len(value: &Value, budget: usize) -> Option<usize> {
    let len = match value {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => {
            let mut count = Count(0);
            let _ = write!(count, "{n}");
            count.0
        }
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

/// A string's JSON length: its quotes, and serde_json's escapes (`\n` and the like for some
/// control characters, `\u00XX` for the others).
fn string_json_len(s: &str) -> usize {
    2 + s.len()
        + s.bytes()
            .map(|b| match b {
                b'"' | b'\\' | 0x08 | 0x0c | b'\n' | b'\r' | b'\t' => 1,
                0..=0x1f => 5,
                _ => 0,
            })
            .sum::<usize>()
}

/// Counts what is written to it (a number's digits).
struct Count(usize);

impl Write for Count {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// The first `cap` bytes written to it (and up to 4 more: a character cut at `cap` stays whole,
/// so the lossy read above changes nothing before `cap`) and how many bytes were written.
struct Head {
    bytes: Vec<u8>,
    cap: usize,
    total: usize,
}

impl std::io::Write for Head {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = (self.cap + 4).saturating_sub(self.bytes.len());
        self.bytes.extend_from_slice(buf.get(..room.min(buf.len())).unwrap_or_default());
        self.total += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
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

    #[test]
    fn renders_like_the_seed_examples() {
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
    }
}
