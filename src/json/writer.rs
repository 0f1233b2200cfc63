//! Compact JSON text written byte for byte as `serde_json::to_string` writes it, for the one
//! text on a hot path: the canonical error crossing to JavaScript (`report`). serde_json looks
//! at a string's bytes one at a time; here runs that need no escape are found eight bytes at a
//! time and copied whole, since most of an error's text is strings that need none.

use crate::json::lex::plain_run;
use serde_json::Value;

/// Appends `s` as a JSON string.
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let mut rest = s;
    loop {
        let run = plain_run(rest.as_bytes());
        let (plain, tail) = rest.split_at_checked(run).unwrap_or((rest, ""));
        out.push_str(plain);
        let mut chars = tail.chars();
        match chars.next() {
            None => break,
            Some('"') => out.push_str("\\\""),
            Some('\\') => out.push_str("\\\\"),
            Some('\n') => out.push_str("\\n"),
            Some('\r') => out.push_str("\\r"),
            Some('\t') => out.push_str("\\t"),
            Some('\u{8}') => out.push_str("\\b"),
            Some('\u{c}') => out.push_str("\\f"),
            // The other control characters, as serde_json writes them (lowercase hex).
            Some(c) => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let b = c as usize;
                out.push_str("\\u00");
                out.push(char::from(HEX.get(b >> 4 & 0xf).copied().unwrap_or(b'0')));
                out.push(char::from(HEX.get(b & 0xf).copied().unwrap_or(b'0')));
            }
        }
        rest = chars.as_str();
    }
    out.push('"');
}

/// Appends `value` as compact JSON.
pub fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        // Numbers are rare here: serde_json's own formatting (itoa, ryu), so they match.
        Value::Number(n) => out.push_str(&serde_json::to_string(n).unwrap_or_default()),
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(out, key);
                out.push(':');
                write_value(out, item);
            }
            out.push('}');
        }
    }
}

/// Appends `"name":` after the object's `{` (the first field) or a comma. `name` is a field
/// name of ours, which needs no escape.
pub fn write_key(out: &mut String, first: bool, name: &str) {
    out.push(if first { '{' } else { ',' });
    out.push('"');
    out.push_str(name);
    out.push_str("\":");
}

#[cfg(test)]
mod tests {
    use super::{write_str, write_value};
    use serde_json::{json, Value};

    fn written(value: &Value) -> String {
        let mut out = String::new();
        write_value(&mut out, value);
        out
    }

    #[test]
    fn strings_are_written_as_serde_json_writes_them() {
        let mut every_char: String = (0u32..0x250).filter_map(char::from_u32).collect();
        every_char.push_str("😀 \u{2028}\u{7f}\u{fffd} é");
        for s in [String::new(), "plain".into(), "\"\\/\u{1}\u{1f}\n\r\t\u{8}\u{c}".into(), every_char.clone(), every_char.repeat(3)] {
            // Every start and end, so that runs of every length meet every escape.
            for start in (0..s.len()).filter(|&i| s.is_char_boundary(i)).take(40) {
                let piece = &s[start..];
                let mut out = String::new();
                write_str(&mut out, piece);
                assert_eq!(out, serde_json::to_string(piece).unwrap(), "{piece:?}");
            }
        }
    }

    #[test]
    fn values_are_written_as_serde_json_writes_them() {
        let cases = [
            json!(null),
            json!([true, false, null, 0, -1, 18446744073709551615u64, -9223372036854775808i64, 1.5, 1e300, -0.0, 0.1]),
            json!({"a": {"b": [{}, [], ""]}, "é\"\n": "x\u{0}y", "": 2.5e-8}),
            json!({"deep": [[[[{"k": [1, {"l": "m"}]}]]]]}),
        ];
        for value in cases {
            assert_eq!(written(&value), serde_json::to_string(&value).unwrap());
        }
    }
}
