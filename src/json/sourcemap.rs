//! Where each node of a JSON document is in its text: JSON Pointer → byte spans of the member's
//! key and of its value. Diagnostics found on the parsed value (meta-schema violations, lints)
//! carry pointers; the editor needs ranges.

use crate::json::lex;
use crate::json::path::escape_pointer_token;
use crate::json::textpos::{LineIndex, Range};
use serde::Serialize;
use std::collections::HashMap;

/// Byte offsets, end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spans {
    /// The key of an object member (with its quotes); `None` for array items and the root.
    pub key: Option<Span>,
    pub value: Span,
}

pub struct SourceMap {
    nodes: HashMap<String, Spans>,
}

/// Nesting beyond this is not mapped (the schema depth limit refuses such documents first).
const MAX_DEPTH: usize = 256;

impl SourceMap {
    /// Maps `text`, which must be one JSON value (as checked by parsing it first); `None` if not.
    pub fn new(text: &str) -> Option<SourceMap> {
        let mut s = Scanner { b: text.as_bytes(), i: 0, nodes: HashMap::new(), name: String::new() };
        s.ws();
        s.value(String::new(), None, 0)?;
        Some(SourceMap { nodes: s.nodes })
    }

    pub fn get(&self, pointer: &str) -> Option<&Spans> {
        self.nodes.get(pointer)
    }

    /// The node at `pointer`, or its nearest ancestor that exists (a missing member is reported
    /// at the object that lacks it).
    pub fn nearest(&self, pointer: &str) -> Option<&Spans> {
        let mut p = pointer;
        loop {
            if let Some(n) = self.nodes.get(p) {
                return Some(n);
            }
            match p.rfind('/') {
                Some(i) => p = p.get(..i).unwrap_or(""),
                None => return self.nodes.get(""),
            }
        }
    }
}

/// Where a node is in the text, as editors count (see `textpos`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Located {
    /// The member's key with its quotes; `None` for array items and the root.
    pub key: Option<Range>,
    pub value: Range,
}

/// The ranges of the nodes at `pointers` in JSON `text` (each `None` when the document has no
/// such node), or `None` when `text` is not one JSON value. This is how a violation's pointer
/// becomes a highlighted spot in the output the model wrote.
pub fn locate(text: &str, pointers: &[String]) -> Option<Vec<Option<Located>>> {
    // The scanner trusts its input to be JSON; outside text is checked by a real parse first.
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let map = SourceMap::new(text)?;
    let lines = LineIndex::new(text);
    let at = |s: Span| lines.range(s.start, s.end);
    Some(pointers.iter().map(|p| map.get(p).map(|n| Located { key: n.key.map(at), value: at(n.value) })).collect())
}

struct Scanner<'t> {
    b: &'t [u8],
    i: usize,
    nodes: HashMap<String, Spans>,
    /// A member name with escapes, decoded; its buffer reused from one name to the next.
    name: String,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        self.i = lex::skip_ws(self.b, self.i);
    }

    fn value(&mut self, pointer: String, key: Option<Span>, depth: usize) -> Option<()> {
        let start = self.i;
        match self.peek()? {
            open @ (b'{' | b'[') if depth < MAX_DEPTH => {
                let close = if open == b'{' { b'}' } else { b']' };
                self.i += 1;
                self.ws();
                let mut index = 0usize;
                let mut more = self.peek() != Some(close);
                while more {
                    self.ws();
                    if open == b'{' {
                        let key_start = self.i;
                        let (end, escaped) = lex::string_end(self.b, key_start)?;
                        self.i = end;
                        let raw = std::str::from_utf8(self.b.get(key_start + 1..end - 1)?).ok()?;
                        let name = if escaped {
                            lex::unescape(raw, &mut self.name)?;
                            self.name.as_str()
                        } else {
                            raw
                        };
                        let child = format!("{pointer}/{}", escape_pointer_token(name));
                        self.ws();
                        (self.peek()? == b':').then_some(())?;
                        self.i += 1;
                        self.ws();
                        self.value(child, Some(Span { start: key_start, end }), depth + 1)?;
                    } else {
                        self.value(format!("{pointer}/{index}"), None, depth + 1)?;
                        index += 1;
                    }
                    self.ws();
                    match self.peek()? {
                        b',' => self.i += 1,
                        b if b == close => more = false,
                        _ => return None,
                    }
                }
                self.i += 1;
            }
            b'"' => self.i = lex::string_end(self.b, start)?.0,
            b'-' | b'0'..=b'9' => self.i += lex::number_len(self.b.get(start..)?)?.0,
            _ => self.i += lex::literal_len(self.b.get(start..)?)?,
        }
        self.nodes.insert(pointer, Spans { key, value: Span { start, end: self.i } });
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_pointers_to_key_and_value_spans() {
        let text = "{\n  \"a\": [1, {\"b/c\": true}],\n  \"é\": \"x\"\n}";
        let map = SourceMap::new(text).unwrap();
        let slice = |s: Span| &text[s.start..s.end];
        assert_eq!(slice(map.get("").unwrap().value), text);
        assert_eq!(slice(map.get("/a").unwrap().key.unwrap()), "\"a\"");
        assert_eq!(slice(map.get("/a/1/b~1c").unwrap().value), "true");
        assert_eq!(slice(map.get("/é").unwrap().value), "\"x\"");
        assert_eq!(slice(map.nearest("/a/1/missing").unwrap().value), "{\"b/c\": true}");
        assert!(SourceMap::new("{\"a\": }").is_none());
        let escaped = r#"{"a\u002fb": [-1.5e3, null], "\ud83d\ude00": {}}"#;
        let map = SourceMap::new(escaped).unwrap();
        assert_eq!(&escaped[map.get("/a~1b/0").unwrap().value.start..map.get("/a~1b/0").unwrap().value.end], "-1.5e3");
        assert_eq!(map.get("/😀").unwrap().key.map(|k| &escaped[k.start..k.end]), Some(r#""\ud83d\ude00""#));
        for broken in ["[1 2]", "{\"a\" 1}", "[tru]", "[01]", "{\"a\": 1,}", "[1,]"] {
            assert!(SourceMap::new(broken).is_none(), "{broken}");
        }
    }

    #[test]
    fn locate_counts_utf16_and_rejects_text_that_is_not_json() {
        let text = "{\"😀\": 1,\n \"b\": [true]}";
        let found = locate(text, &["/b/0".into(), "/😀".into(), "/nope".into()]).unwrap();
        let b0 = found[0].unwrap();
        assert_eq!((b0.value.start.line, b0.value.start.column, b0.value.start.offset), (2, 8, 17));
        assert_eq!(b0.value.end.offset, 21);
        assert!(b0.key.is_none());
        let smile = found[1].unwrap();
        // The emoji is two UTF-16 units: the key's quotes span offsets 1..5.
        assert_eq!((smile.key.unwrap().start.offset, smile.key.unwrap().end.offset), (1, 5));
        assert_eq!(found[2], None);
        assert_eq!(locate("{\"a\": 1,}", &["".into()]), None);
        assert_eq!(locate("[1] [2]", &["".into()]), None);
    }
}
