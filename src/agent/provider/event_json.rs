//! An event's JSON as the wire reads it: a tree whose strings are borrowed from the event's data
//! where they hold no escape, whose numbers stay text until asked for, and whose objects keep
//! their members in a list. A provider sends one event per token delta, each a small object of a
//! few fields of which the wire reads a few: parsed into `serde_json::Value`, each cost a map with
//! a hashed name per member and a string per name and value, most of a provider stream's time.
//! The tokens are the crate's (`json::lex`); what is not JSON gets the error, and the nesting
//! limit, of a parse into a `Value`, as before.

use crate::json::lex;
use serde_json::{Map, Value};
use std::borrow::Cow;

pub(super) enum EventJson<'a> {
    Null,
    Bool(bool),
    /// The number's text.
    Number(&'a str),
    Str(Cow<'a, str>),
    Array(Vec<EventJson<'a>>),
    /// The members in the order written (a repeated name too).
    Object(Vec<(Cow<'a, str>, EventJson<'a>)>),
}

/// How deep containers nest in what a parse into a `Value` accepts (serde_json's limit): both
/// refuse the same texts.
const MAX_NESTING: usize = 127;

impl<'a> EventJson<'a> {
    /// `data` as one JSON value, or the error a parse of it into a `Value` gives.
    pub(super) fn parse(data: &'a str) -> serde_json::Result<Self> {
        let mut reader = Reader { text: data, pos: 0 };
        if let Some(value) = reader.value(0).filter(|_| lex::skip_ws(data.as_bytes(), reader.pos) == data.len()) {
            return Ok(value);
        }
        // (Never `Ok`: both read JSON's one grammar, tested against each other.)
        serde_json::from_str::<Value>(data).and_then(|_| Err(serde::de::Error::custom("an event the wire could not read")))
    }

    /// The member named `key`: of a repeated name the last one, as a parsed `Value` keeps it.
    /// (Called from one place per field the wire reads, each a copy if inlined.)
    #[inline(never)]
    pub(super) fn get(&self, key: &str) -> Option<&EventJson<'a>> {
        match self {
            EventJson::Object(members) => members.iter().rev().find(|(name, _)| name == key).map(|(_, value)| value),
            _ => None,
        }
    }

    pub(super) fn as_str(&self) -> Option<&str> {
        match self {
            EventJson::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A number written as an integer within `u64` (what `Value::as_u64` gives: the grammar
    /// leaves `parse` no sign but `-`, no leading zero).
    pub(super) fn as_u64(&self) -> Option<u64> {
        match self {
            EventJson::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    pub(super) fn as_array(&self) -> Option<&[EventJson<'a>]> {
        match self {
            EventJson::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The parsed `Value` of the same text (for the few parts kept: usage, errors).
    pub(super) fn to_value(&self) -> Value {
        match self {
            EventJson::Null => Value::Null,
            EventJson::Bool(b) => Value::Bool(*b),
            EventJson::Number(n) => serde_json::from_str(n).unwrap_or(Value::Null),
            EventJson::Str(s) => Value::String(s.to_string()),
            EventJson::Array(items) => Value::Array(items.iter().map(EventJson::to_value).collect()),
            EventJson::Object(members) => {
                let mut map = Map::new();
                for (name, value) in members {
                    map.insert(name.to_string(), value.to_value());
                }
                Value::Object(map)
            }
        }
    }
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Reader<'a> {
    /// The value at `pos` (after whitespace), inside `depth` containers.
    fn value(&mut self, depth: usize) -> Option<EventJson<'a>> {
        let bytes = self.text.as_bytes();
        self.pos = lex::skip_ws(bytes, self.pos);
        let start = self.pos;
        let first = *bytes.get(start)?;
        if matches!(first, b'{' | b'[') && depth >= MAX_NESTING {
            return None;
        }
        match first {
            b'{' => {
                self.pos += 1;
                // (Room for the few members an event's objects have, allocated once.)
                let mut members = Vec::with_capacity(8);
                if !self.closes(b'}') {
                    loop {
                        self.pos = lex::skip_ws(bytes, self.pos);
                        let name = self.string()?;
                        self.pos = lex::skip_ws(bytes, self.pos);
                        (bytes.get(self.pos) == Some(&b':')).then_some(())?;
                        self.pos += 1;
                        members.push((name, self.value(depth + 1)?));
                        if self.next(b'}')? {
                            break;
                        }
                    }
                }
                Some(EventJson::Object(members))
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                if !self.closes(b']') {
                    loop {
                        items.push(self.value(depth + 1)?);
                        if self.next(b']')? {
                            break;
                        }
                    }
                }
                Some(EventJson::Array(items))
            }
            b'"' => self.string().map(EventJson::Str),
            b't' | b'f' | b'n' => {
                self.pos += lex::literal_len(bytes.get(start..)?)?;
                Some(match first {
                    b'n' => EventJson::Null,
                    _ => EventJson::Bool(first == b't'),
                })
            }
            _ => {
                let (len, integral) = lex::number_len(bytes.get(start..)?)?;
                let token = self.text.get(start..start + len)?;
                lex::fits_double(token.as_bytes(), integral).then_some(())?;
                self.pos += len;
                Some(EventJson::Number(token))
            }
        }
    }

    /// The string at `pos`, its escapes decoded. (One copy of the string's reading, for names
    /// and values.)
    #[inline(never)]
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let (end, escaped) = lex::string_end(self.text.as_bytes(), self.pos)?;
        let raw = self.text.get(self.pos + 1..end - 1)?;
        self.pos = end;
        if !escaped {
            return Some(Cow::Borrowed(raw));
        }
        let mut decoded = String::new();
        lex::unescape(raw, &mut decoded)?;
        Some(Cow::Owned(decoded))
    }

    /// Whether the container closes right away (`close` after whitespace, read).
    fn closes(&mut self, close: u8) -> bool {
        self.pos = lex::skip_ws(self.text.as_bytes(), self.pos);
        let closes = self.text.as_bytes().get(self.pos) == Some(&close);
        self.pos += usize::from(closes);
        closes
    }

    /// After a member or an item: whether the container closes (`close`), or another one comes
    /// (a comma); `None` on anything else.
    fn next(&mut self, close: u8) -> Option<bool> {
        self.pos = lex::skip_ws(self.text.as_bytes(), self.pos);
        let b = *self.text.as_bytes().get(self.pos)?;
        self.pos += 1;
        match b {
            b',' => Some(false),
            _ if b == close => Some(true),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read as a parse into a `Value` reads it: the same tree (`to_value`), the same lookups, or
    /// the same error.
    fn reads_as_a_value(text: &str) {
        let (read, value) = (EventJson::parse(text), serde_json::from_str::<Value>(text));
        let (read, value) = match (read, value) {
            (Ok(read), Ok(value)) => (read, value),
            (Err(a), Err(b)) => return assert_eq!(a.to_string(), b.to_string(), "{text:?}"),
            (a, b) => panic!("{text:?}: read {:?}, parsed {b:?}", a.map(|r| r.to_value())),
        };
        assert_eq!(read.to_value(), value, "{text:?}");
        for key in ["id", "choices", "delta", "usage", "name", "nested", "error", "missing", "three", "foo", "a"] {
            assert_eq!(read.get(key).map(EventJson::to_value).as_ref(), value.get(key), "{text:?}: {key}");
        }
        assert_eq!(read.as_str(), value.as_str(), "{text:?}");
        assert_eq!(read.as_u64(), value.as_u64(), "{text:?}");
        assert_eq!(read.as_array().map(<[EventJson]>::len), value.as_array().map(Vec::len), "{text:?}");
    }

    #[test]
    fn an_event_reads_as_its_parsed_value() {
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let texts = [
            r#"{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"a \"quoted\"\n line é😀 \ud83d\ude00"},"finish_reason":null}]}"#,
            r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":15,"cost":-0.25,"big":18446744073709551615,"bigger":18446744073709551616,"neg":-9223372036854775808,"tiny":1e-400,"z":-0,"e":5.290e2}}"#,
            r#" {"n\u0061me":"escaped name","name":"second","name":"third","nested":[[{}],[],true,false,null]} "#,
            r#"{"error":{"type":"overloaded_error","code":529,"message":"Overloaded"}}"#,
            r#"[1, "two", {"three": 3}]"#,
            r#""a string""#,
            "12.5e3",
            "null",
            "",
            "{",
            r#"{"a": 1,}"#,
            "[1 2]",
            r#"{"a": "\x"}"#,
            r#"{"a": "\ud800"}"#,
            "{\"a\": \"\u{1}\"}",
            "nul",
            "1 2",
            "1e400",
            "-",
            "01",
            "[1,]",
            r#"{"a" 1}"#,
            r#"{1: 2}"#,
        ];
        for text in texts {
            reads_as_a_value(text);
        }
        for n in 125..=130 {
            reads_as_a_value(&nested(n));
            reads_as_a_value(&format!("{}1{}", r#"{"a":"#.repeat(n), "}".repeat(n)));
        }
    }

    /// Every suite instance, whole, cut short and with bytes that break it inserted.
    #[test]
    fn the_suite_instances_read_as_their_parsed_values() {
        for group in crate::suite::groups() {
            for test in group["tests"].as_array().into_iter().flatten() {
                for text in crate::suite::texts(&test["data"], 3) {
                    reads_as_a_value(&text);
                }
            }
        }
    }
}
