//! Instance locations: JSONPath-style paths (`$.comments[0].severity`) for people and models,
//! JSON Pointers (`/comments/0/severity`) for programs, and the document-order key that sorts
//! violations the way the output reads.

use std::borrow::Cow;
use serde_json::Value;
use std::fmt::Write;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Key(String),
    Index(usize),
}

/// A location inside an instance document.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstancePath {
    segments: Vec<Segment>,
}

impl InstancePath {
    pub fn root() -> Self {
        Self::default()
    }

    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    pub fn push(&mut self, segment: Segment) {
        self.segments.push(segment);
    }

    pub fn pop(&mut self) -> Option<Segment> {
        self.segments.pop()
    }

    pub fn len(&self) -> usize {
        self.segments.len()
    }

    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    pub fn child(&self, segment: Segment) -> Self {
        let mut next = self.clone();
        next.push(segment);
        next
    }

    /// Resolves a JSON Pointer against `root` so that `"0"` becomes an array index only where the
    /// value really is an array (a pointer alone cannot tell `{"0": …}` from `[…]`). Also returns
    /// each segment's position in its parent, the document order used to sort violations.
    pub fn resolve(pointer: &str, root: &Value) -> (InstancePath, Vec<usize>) {
        let mut path = InstancePath::root();
        let mut order = Vec::new();
        let mut current = Some(root);
        for raw in pointer.split('/').skip(1) {
            let token = unescape_pointer_token(raw);
            match current {
                Some(Value::Array(items)) => {
                    if let Ok(index) = token.parse::<usize>() {
                        order.push(index);
                        current = items.get(index);
                        path.push(Segment::Index(index));
                        continue;
                    }
                    order.push(usize::MAX);
                    current = None;
                    path.push(Segment::Key(token.into_owned()));
                }
                Some(Value::Object(map)) => {
                    order.push(map.keys().position(|k| *k == token).unwrap_or(usize::MAX));
                    current = map.get(&*token);
                    path.push(Segment::Key(token.into_owned()));
                }
                _ => {
                    order.push(usize::MAX);
                    current = None;
                    path.push(Segment::Key(token.into_owned()));
                }
            }
        }
        (path, order)
    }

    /// `$`, `$.a.b`, `$.items[0]`, `$['key with spaces']`.
    pub fn to_jsonpath(&self) -> String {
        let mut out = String::from("$");
        for segment in &self.segments {
            match segment {
                Segment::Index(i) => {
                    out.push('[');
                    push_index(&mut out, *i);
                    out.push(']');
                }
                Segment::Key(key) if is_identifier(key) => {
                    out.push('.');
                    out.push_str(key);
                }
                Segment::Key(key) => {
                    out.push('[');
                    push_single_quoted(&mut out, key);
                    out.push(']');
                }
            }
        }
        out
    }

    /// RFC 6901 JSON Pointer; the root is the empty string.
    pub fn to_pointer(&self) -> String {
        let mut out = String::new();
        for segment in &self.segments {
            out.push('/');
            match segment {
                Segment::Index(i) => push_index(&mut out, *i),
                Segment::Key(key) => out.push_str(&escape_pointer_token(key)),
            }
        }
        out
    }
}

/// Appends `i` in decimal, without `write!`'s formatting machinery: paths are written for every
/// violation, and that machinery is heavier than the rest of an index segment.
pub fn push_index(out: &mut String, mut i: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            *d = b'0' + (i % 10) as u8;
        }
        i /= 10;
        if i == 0 || at == 0 {
            break;
        }
    }
    for &d in digits.get(at..).unwrap_or_default() {
        out.push(char::from(d));
    }
}

/// A key that can follow a dot in JSONPath without quoting.
fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

// Borrowed when there is nothing to escape (nearly always): a violation resolves and renders
// its path token by token, and two `replace` copies per token showed in the invalid-path profile.
pub fn escape_pointer_token(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

pub fn unescape_pointer_token(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// `s` in single quotes, with quotes, backslashes and control characters escaped: how paths
/// (`$['odd key']`) and messages (`'summary'`) show a string.
pub(crate) fn push_single_quoted(out: &mut String, s: &str) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn renders_jsonpath_and_pointer() {
        let doc = json!({"comments": [{"severity": "x"}], "a b": {"0": 1}, "it's": 2});
        let (p, order) = InstancePath::resolve("/comments/0/severity", &doc);
        assert_eq!(p.to_jsonpath(), "$.comments[0].severity");
        assert_eq!(p.to_pointer(), "/comments/0/severity");
        assert_eq!(order, vec![0, 0, 0]);
        let (p, _) = InstancePath::resolve("/a b/0", &doc);
        assert_eq!(p.to_jsonpath(), "$['a b']['0']");
        let (p, _) = InstancePath::resolve("/it's", &doc);
        assert_eq!(p.to_jsonpath(), "$['it\\'s']");
        assert_eq!(InstancePath::root().to_jsonpath(), "$");
        assert_eq!(InstancePath::root().to_pointer(), "");
        let (p, _) = InstancePath::resolve("/a~1b~0c", &json!({"a/b~c": 1}));
        assert_eq!(p.to_pointer(), "/a~1b~0c");
        assert_eq!(p.to_jsonpath(), "$['a/b~c']");
    }

    #[test]
    fn pushes_indexes_in_decimal() {
        for i in [0, 7, 10, 99, 100, 4_096, usize::MAX] {
            let mut out = String::from("x");
            push_index(&mut out, i);
            assert_eq!(out, format!("x{i}"));
        }
    }
}
