//! Reading an output before validation: the size and depth limits, then JSON. Each failure is a
//! violation (`maxOutputBytes`, `maxDepth`, `json`, `truncated`, `duplicateKey`), so it reaches
//! the canonical error like any other.

use crate::json::partial::{NoObserver, Parser, Status};
use crate::json::path::{InstancePath, Segment};
use crate::report::render::{quote, truncate_text};
use crate::report::violation::Violation;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{json, Map, Number, Value};

/// Limits on outputs; exceeding one is a violation, never a crash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputLimits {
    pub max_output_bytes: usize,
    pub max_depth: usize,
}

pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 1024 * 1024;
pub const DEFAULT_MAX_DEPTH: usize = 128;

impl Default for OutputLimits {
    fn default() -> Self {
        OutputLimits { max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES, max_depth: DEFAULT_MAX_DEPTH }
    }
}

/// An output read from its text: the value, and a `duplicateKey` violation for each object
/// member whose name an earlier member of the same object already has.
#[derive(Debug)]
pub struct Parsed {
    pub value: Value,
    pub repeated: Vec<Violation>,
}

/// Parses `text` within `limits`.
pub fn parse(text: &str, limits: OutputLimits) -> Result<Parsed, Violation> {
    if text.len() > limits.max_output_bytes {
        return Err(too_large(text.len(), limits.max_output_bytes));
    }
    if text.trim().is_empty() {
        return Err(no_json(""));
    }
    // serde_json's own recursion guard bounds the parser's recursion (127 levels parse), so an
    // output within it needs no pre-scan: scanning every byte for brackets cost about a fifth of
    // a valid output's whole validation. Only an output the guard stops goes through the exact
    // scan, then an unguarded parse bounded by the scan.
    let mut de = serde_json::Deserializer::from_str(text);
    let mut repeated = Vec::new();
    match read_value(&mut de, &mut repeated) {
        Ok(value) => {
            if limits.max_depth < SERDE_DEPTH && value_depth(&value, limits.max_depth) > limits.max_depth {
                return Err(too_deep(limits.max_depth));
            }
            Ok(Parsed { value, repeated: repeated_names(repeated) })
        }
        Err(e) if !is_recursion_limit(&e) => Err(syntax_violation(text, &e)),
        Err(_) => parse_deep(text, limits),
    }
}

/// How deep serde_json parses before its recursion guard stops it.
const SERDE_DEPTH: usize = 127;

/// serde_json does not expose its error codes; the guard's error is known by its text.
fn is_recursion_limit(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("recursion limit exceeded")
}

/// An output deeper than serde_json's guard: the nesting is measured on the bytes first, so the
/// unguarded parser's recursion never exceeds the limit.
fn parse_deep(text: &str, limits: OutputLimits) -> Result<Parsed, Violation> {
    let depth = nesting_depth(text.as_bytes(), limits.max_depth);
    if depth > limits.max_depth {
        return Err(too_deep(limits.max_depth));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let mut repeated = Vec::new();
    let value = read_value(&mut de, &mut repeated).map_err(|e| syntax_violation(text, &e))?;
    Ok(Parsed { value, repeated: repeated_names(repeated) })
}

/// One whole JSON text as a value, noting repeated member names in `repeated`.
fn read_value(de: &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>, repeated: &mut Vec<Repeat>) -> Result<Value, serde_json::Error> {
    let value = Reader { repeated }.deserialize(&mut *de)?;
    de.end()?;
    Ok(value)
}

/// A repeated name: the object's location, innermost segment first (built on the way back up,
/// so an output without repeats pays nothing for paths), and the name.
struct Repeat {
    reversed: Vec<Segment>,
    name: String,
}

fn repeated_names(found: Vec<Repeat>) -> Vec<Violation> {
    found
        .into_iter()
        .map(|Repeat { mut reversed, name }| {
            reversed.reverse();
            let mut path = InstancePath::root();
            for segment in reversed {
                path.push(segment);
            }
            repeated_name(&path, &name)
        })
        .collect()
}

/// serde_json's own reading of a value (the same numbers, strings and member order: the last of
/// repeated members keeps the first one's place), which also notes each repeated name.
struct Reader<'r> {
    repeated: &'r mut Vec<Repeat>,
}

impl<'de> DeserializeSeed<'de> for Reader<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Reader<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        loop {
            let before = self.repeated.len();
            let Some(item) = seq.next_element_seed(Reader { repeated: &mut *self.repeated })? else { break };
            for r in self.repeated.iter_mut().skip(before) {
                r.reversed.push(Segment::Index(items.len()));
            }
            items.push(item);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            let before = self.repeated.len();
            let value = access.next_value_seed(Reader { repeated: &mut *self.repeated })?;
            for r in self.repeated.iter_mut().skip(before) {
                r.reversed.push(Segment::Key(key.clone()));
            }
            if let Some(old) = map.get_mut(&key) {
                *old = value;
                self.repeated.push(Repeat { reversed: Vec::new(), name: key });
            } else {
                map.insert(key, value);
            }
        }
        Ok(Value::Object(map))
    }
}

/// An object member whose name an earlier member of the same object has. JSON leaves the
/// meaning of such an object open (parsers keep the first value, the last, or refuse), and I-JSON
/// (RFC 7493) forbids it; so it is a violation of its own, reported where the object is. It also
/// keeps a stream's early checks sound: a member's value found wrong can never be replaced by a
/// later member of the same name.
pub fn repeated_name(object: &InstancePath, name: &str) -> Violation {
    let mut v = Violation::of_output(
        "duplicateKey",
        json!("unique property names"),
        json!(name),
        format!("property name {} appears more than once in the same object", quote(name)),
    );
    v.path = object.to_jsonpath();
    v.pointer = object.to_pointer();
    v.order = object_order(object);
    v
}

/// A document-order key for a location known by its path alone (positions unknown): member
/// names sort before the object's own items would, which is enough to keep one object's
/// violations together.
fn object_order(path: &InstancePath) -> Vec<usize> {
    path.segments().iter().map(|s| if let Segment::Index(i) = s { *i } else { 0 }).collect()
}

/// The violation of an answer without JSON; `received` is (the head of) that answer.
pub fn no_json(received: &str) -> Violation {
    Violation::of_output(
        "json",
        json!("a JSON value"),
        json!(received),
        "No JSON output found but output_schema requires structured output".into(),
    )
}

pub fn too_large(bytes: usize, limit: usize) -> Violation {
    Violation::of_output(
        "maxOutputBytes",
        json!(limit),
        json!(bytes),
        format!("output is {bytes} bytes, more than the limit of {limit} bytes"),
    )
}

pub fn too_deep(limit: usize) -> Violation {
    Violation::of_output(
        "maxDepth",
        json!(limit),
        json!(limit + 1),
        format!("output nests deeper than the limit of {limit} levels"),
    )
}

fn syntax_violation(text: &str, e: &serde_json::Error) -> Violation {
    if e.is_eof() {
        let (line, column) = (e.line(), e.column());
        let excerpt = excerpt_at(text, line, column);
        Violation::of_output(
            "truncated",
            json!("a complete JSON value"),
            json!(excerpt),
            format!("output ends before the JSON value is complete (line {line}, column {column})"),
        )
    } else {
        let (line, column, reason) = syntax_error(text, e);
        let excerpt = excerpt_at(text, line, column);
        Violation::of_output(
            "json",
            json!("valid JSON"),
            json!(excerpt),
            format!("invalid JSON at line {line}, column {column}: {reason}"),
        )
    }
}

/// Where and why `text` (which serde_json refused with `e`, not at its end) is not JSON, in the
/// words of the incremental parser: one vocabulary for syntax errors whether an output arrives
/// whole or streamed (stream.rs), and its words quote the offending token ("expected a JSON
/// value, found 'x'" where serde_json says "expected value"). serde_json's own when the parser
/// sees no error there.
pub fn syntax_error(text: &str, e: &serde_json::Error) -> (usize, usize, String) {
    let mut parser = Parser::new(usize::MAX, usize::MAX, false);
    parser.push(text.as_bytes(), &mut NoObserver);
    parser.end(&mut NoObserver);
    if let Status::Broken(broken) = parser.status() {
        return (broken.at.line, broken.at.column, broken.message.clone());
    }
    let reason = e.to_string();
    let reason = reason.split(" at line ").next().unwrap_or(&reason).to_string();
    (e.line(), e.column(), reason)
}

/// Up to 40 characters of the text before the error position, for `received`.
fn excerpt_at(text: &str, line: usize, column: usize) -> String {
    let Some(l) = text.lines().nth(line.saturating_sub(1)) else {
        return truncate_text(text, 40);
    };
    let end = l.char_indices().nth(column).map_or(l.len(), |(i, _)| i);
    let head = l.get(..end).unwrap_or(l);
    let start = head.char_indices().rev().nth(39).map_or(0, |(i, _)| i);
    head.get(start..).unwrap_or(head).to_string()
}

/// Tells, byte by byte, whether a JSON text is inside a string (the quotes included), so
/// bracket scans skip what strings hold.
#[derive(Clone, Copy, Debug, Default)]
pub struct StringScan {
    in_string: bool,
    escaped: bool,
}

impl StringScan {
    /// Feeds the next byte; true when it belongs to a string.
    pub fn inside(&mut self, b: u8) -> bool {
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
            }
            return true;
        }
        self.in_string = b == b'"';
        self.in_string
    }
}

/// The deepest nesting of arrays and objects in `bytes`, counting stops just past `limit`.
/// Strings are skipped, so brackets inside them do not count.
pub fn nesting_depth(bytes: &[u8], limit: usize) -> usize {
    let mut depth = 0usize;
    let mut max = 0usize;
    let mut strings = StringScan::default();
    for &b in bytes {
        if strings.inside(b) {
            continue;
        }
        match b {
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    max = depth;
                    if max > limit {
                        return max;
                    }
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// The nesting depth of a value tree, stopping just past `limit` (iterative: no recursion on
/// untrusted data).
pub fn value_depth(value: &Value, limit: usize) -> usize {
    let mut stack = vec![(value, 0usize)];
    let mut max = 0;
    while let Some((v, d)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        let d = d + 1;
        if d > max {
            max = d;
            if max > limit {
                return max;
            }
        }
        stack.extend(children.map(|c| (c, d)));
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_syntax_become_violations() {
        let limits = OutputLimits { max_output_bytes: 10, max_depth: 2 };
        assert_eq!(parse("[1,2,3,4,5,6,7]", limits).unwrap_err().keyword, "maxOutputBytes");
        assert_eq!(parse("[[[1]]]", limits).unwrap_err().keyword, "maxDepth");
        assert_eq!(parse("[\"[[[\"]", limits).unwrap().value, json!(["[[["]));
        assert_eq!(parse("{\"a\":", limits).unwrap_err().keyword, "truncated");
        let bad = parse("{\"a\",}", limits).unwrap_err();
        assert_eq!(bad.keyword, "json");
        assert!(bad.message.starts_with("invalid JSON at line 1, column 5"), "{}", bad.message);
        assert_eq!(parse("  ", limits).unwrap_err().keyword, "json");
        assert!(!parse("[[[1]]]", limits).unwrap_err().is_retryable());
    }

    #[test]
    fn depth_of_values() {
        assert_eq!(value_depth(&json!(1), 10), 0);
        assert_eq!(value_depth(&json!({"a": [1, {"b": []}]}), 10), 4);
    }

    #[test]
    fn deep_text_is_refused_without_recursion() {
        let deep = "[".repeat(100_000);
        let err = parse(&deep, OutputLimits { max_output_bytes: 1 << 20, max_depth: 128 }).unwrap_err();
        assert_eq!(err.keyword, "maxDepth");
    }

    /// The limit holds exactly on both sides of serde_json's own guard (127 levels): below it
    /// the parsed value is measured, at and above it the bytes are.
    #[test]
    fn depth_limit_is_exact_around_the_parser_guard() {
        let nested = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
        for max_depth in [1, 5, 126, 127, 128, 129, 300] {
            let limits = OutputLimits { max_output_bytes: 1 << 20, max_depth };
            for n in [max_depth.saturating_sub(1), max_depth, max_depth + 1] {
                let got = parse(&nested(n), limits);
                if n <= max_depth {
                    assert!(got.is_ok(), "depth {n} under limit {max_depth}: {got:?}");
                } else {
                    assert_eq!(got.unwrap_err().keyword, "maxDepth", "depth {n} over limit {max_depth}");
                }
            }
        }
        // Past the guard, a broken deep text is still measured before it is parsed.
        let limits = OutputLimits { max_output_bytes: 1 << 20, max_depth: 200 };
        assert_eq!(parse(&format!("{}1,]", "[".repeat(150)), limits).unwrap_err().keyword, "json");
        assert_eq!(parse(&format!("{}1", "[".repeat(250)), limits).unwrap_err().keyword, "maxDepth");
    }
}
