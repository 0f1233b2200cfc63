//! An incremental JSON parser: bytes are pushed in chunks of any size, each byte is looked at
//! once (total work linear in the input whatever the chunking), and at every moment the parser
//! knows the path of the value being written and whether the document is complete, incomplete
//! or broken. The value tree is built as values complete, so the final value needs no re-parse.
//!
//! Incompleteness is a state, not an error message to match: `Status::Incomplete` means every
//! byte so far is a valid prefix of some JSON document.

mod skip;

pub use skip::Skipped;

pub use crate::json::textpos::Position;

use crate::json::lex::{self, Unit};
use crate::json::path::{InstancePath, Segment};
use crate::json::textpos::LineCounter;
use skip::Skipper;
use serde_json::{Map, Number, Value};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub at: Position,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// A valid prefix: more input may complete it.
    Incomplete,
    /// One whole JSON value (and only whitespace, or skipped trailing text, after it).
    Complete,
    /// No continuation can make this JSON.
    Broken(SyntaxError),
    /// A limit was exceeded (depth or size): a resource error, not a syntax error.
    Limit(LimitKind),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    Bytes(usize),
    Depth(usize),
}

/// The JSON type of a value, known from its first byte (numbers: `Number`, refined when complete).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Object,
    Array,
    String,
    Number,
    Bool,
    Null,
}

/// What the parser tells an observer, in input order.
pub enum Event<'a> {
    /// A value starts; its path is the parser's current path.
    Begin(Kind),
    /// An object key is complete; the value that follows is at `path + key`.
    Key(&'a str),
    /// The member just completed has a name the object already has (sent right after the
    /// member's value ends; `path` is the object's).
    Repeated(&'a str),
    /// Decoded bytes appended to the string value being written (never for keys).
    StringBytes(&'a [u8]),
    /// A value is complete (for containers, with everything inside).
    End(&'a Value),
}

/// Receives the parser's events. `path` is the location of the value concerned.
pub trait Observer {
    fn event(&mut self, event: Event<'_>, path: &InstancePath, at: Position);
}

/// An observer that ignores everything.
pub struct NoObserver;

impl Observer for NoObserver {
    fn event(&mut self, _: Event<'_>, _: &InstancePath, _: Position) {}
}

enum Frame {
    /// `keyed`: a member's name was read, its value not complete (the name is the path's segment
    /// at the frame's depth: kept once).
    Object { map: Map<String, Value>, keyed: bool, state: ObjState },
    Array { items: Vec<Value>, state: ArrState },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ObjState {
    KeyOrEnd,
    Key,
    Colon,
    Value,
    CommaOrEnd,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ArrState {
    ValueOrEnd,
    Value,
    CommaOrEnd,
}

enum Token {
    None,
    Str { buf: Vec<u8>, esc: Escape, key: bool, reported: usize },
    Num(Vec<u8>),
    Lit { word: &'static [u8], matched: usize, value: Value },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Escape {
    None,
    Backslash,
    /// `\u` with `digits` hex digits read so far into `code`; `high` is a pending high surrogate.
    Unicode { digits: u8, code: u32, high: Option<u32> },
    /// After a high surrogate: expecting `\` then `u` of the low surrogate.
    LowBackslash { high: u32 },
    LowU { high: u32 },
}

pub struct Parser {
    stack: Vec<Frame>,
    path: InstancePath,
    token: Token,
    root: Option<Value>,
    status: Status,
    /// Where the last byte read is.
    lines: LineCounter,
    max_bytes: usize,
    max_depth: usize,
    skipper: Option<Skipper>,
    /// Each member name repeated in its object, with the object's location.
    repeated: Vec<(InstancePath, String)>,
    /// The buffer of the last string or number read, empty, for the next one: a token grows in
    /// it without reallocating at every chunk, and its value gets a string of its exact size.
    spare: Vec<u8>,
}

impl Parser {
    /// A parser for one document within the given limits. With `extract`, a leading markdown
    /// fence and prose before the first `{`/`[` are skipped, and so is anything after the value.
    pub fn new(max_bytes: usize, max_depth: usize, extract: bool) -> Self {
        Parser {
            stack: Vec::new(),
            path: InstancePath::root(),
            token: Token::None,
            root: None,
            status: Status::Incomplete,
            lines: LineCounter::default(),
            max_bytes,
            max_depth,
            skipper: extract.then(Skipper::default),
            repeated: Vec::new(),
            spare: Vec::new(),
        }
    }

    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Bytes pushed so far.
    pub fn bytes(&self) -> usize {
        self.lines.pos.offset
    }

    pub fn position(&self) -> Position {
        self.lines.pos
    }

    /// The path of the value being written (the innermost open location).
    pub fn path(&self) -> &InstancePath {
        &self.path
    }

    /// Text skipped by extraction (prose, fences), in order.
    pub fn skipped(&self) -> &[Skipped] {
        self.skipper.as_ref().map_or(&[], Skipper::skipped)
    }

    /// The member names repeated in their object so far, with the object's location (the value
    /// keeps the last one's value at the first one's place).
    pub fn repeated(&self) -> &[(InstancePath, String)] {
        &self.repeated
    }

    /// The complete value, once `status()` is `Complete`.
    pub fn value(&self) -> Option<&Value> {
        self.root.as_ref()
    }

    /// Feeds `bytes`. Once broken or over a limit, further input is ignored.
    pub fn push(&mut self, bytes: &[u8], observer: &mut dyn Observer) {
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            let rest = bytes.get(i..).unwrap_or_default();
            i += 1;
            // Inside a string with no escape pending, the run up to the next quote, backslash or
            // control byte is copied at once: most of an output's bytes are string contents.
            if let (None, Token::Str { buf, esc: Escape::None, .. }) = (&self.skipper, &mut self.token) {
                let room = self.max_bytes.saturating_sub(self.lines.pos.offset);
                let run = lex::plain_run(rest).min(room);
                if self.status == Status::Incomplete && run > 0 {
                    buf.extend_from_slice(rest.get(..run).unwrap_or_default());
                    // No line break can be among them.
                    self.lines.plain(run);
                    i += run - 1;
                    continue;
                }
            }
            // Between tokens, a run of whitespace (an indented output's indentation) at once too.
            if self.skipper.is_none() && matches!(self.token, Token::None) && lex::is_ws(b) && matches!(self.status, Status::Incomplete | Status::Complete) {
                let room = self.max_bytes.saturating_sub(self.lines.pos.offset);
                let run = rest.iter().take(room).take_while(|&&c| lex::is_ws(c)).count();
                for &c in rest.get(..run).unwrap_or_default() {
                    self.lines.byte(c);
                }
                if run > 0 {
                    i += run - 1;
                    continue;
                }
            }
            if !matches!(self.status, Status::Incomplete | Status::Complete) {
                return;
            }
            if self.lines.pos.offset >= self.max_bytes {
                self.status = Status::Limit(LimitKind::Bytes(self.max_bytes));
                return;
            }
            self.lines.byte(b);
            if let Some(ex) = &mut self.skipper {
                let before_root = self.root.is_none() && self.stack.is_empty() && matches!(self.token, Token::None);
                if !ex.admit(b, before_root, self.status == Status::Complete, self.lines.pos.offset - 1) {
                    continue;
                }
            }
            self.byte(b, observer);
        }
        self.flush_string(observer);
    }

    /// The input has ended: a number still open at the root completes now.
    pub fn end(&mut self, observer: &mut dyn Observer) {
        if self.status == Status::Incomplete && self.stack.is_empty() {
            if let Token::Num(buf) = &self.token {
                // `1.`, `-`, `2e+` are cut short, not malformed: the document stays incomplete.
                if !matches!(buf.last(), Some(b'.' | b'e' | b'E' | b'+' | b'-')) {
                    self.finish_number(observer);
                }
            }
        }
    }

    fn fail(&mut self, message: impl Into<String>) {
        self.status = Status::Broken(SyntaxError { at: self.lines.last_byte(), message: message.into() });
    }

    fn byte(&mut self, b: u8, obs: &mut dyn Observer) {
        match &mut self.token {
            Token::Str { .. } => return self.string_byte(b, obs),
            Token::Num(buf) => {
                if matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                    // Only a sign, point or exponent (a few per number), or a digit after a
                    // leading zero, can break the grammar: checking then reports `--` or `01`
                    // at once, and keeps a long run of digits linear.
                    let check = !b.is_ascii_digit() || buf.as_slice() == b"0" || buf.as_slice() == b"-0";
                    buf.push(b);
                    if check && !number_prefix(buf) {
                        let shown = String::from_utf8_lossy(buf).into_owned();
                        self.fail(format!("invalid number '{shown}'"));
                    }
                    return;
                }
                self.finish_number(obs);
                if !matches!(self.status, Status::Incomplete | Status::Complete) {
                    return;
                }
            }
            Token::Lit { word, matched, .. } => {
                if word.get(*matched) == Some(&b) {
                    *matched += 1;
                    if *matched == word.len() {
                        if let Token::Lit { value, .. } = std::mem::replace(&mut self.token, Token::None) {
                            self.complete_value(value, obs);
                        }
                    }
                } else {
                    let message = format!("invalid literal: expected '{}'", String::from_utf8_lossy(word));
                    self.fail(message);
                }
                return;
            }
            Token::None => {}
        }
        if lex::is_ws(b) {
            return;
        }
        if self.status == Status::Complete {
            return self.fail("trailing characters after the JSON value");
        }
        match self.stack.last_mut() {
            None => self.begin_value(b, obs),
            Some(Frame::Object { state, .. }) => match *state {
                ObjState::KeyOrEnd | ObjState::Key => {
                    if b == b'"' {
                        self.token = Token::Str { buf: std::mem::take(&mut self.spare), esc: Escape::None, key: true, reported: 0 };
                    } else if b == b'}' && *state == ObjState::KeyOrEnd {
                        self.close(obs);
                    } else {
                        self.fail("expected a string key");
                    }
                }
                ObjState::Colon => {
                    if b == b':' {
                        *state = ObjState::Value;
                    } else {
                        self.fail("expected ':' after the key");
                    }
                }
                ObjState::Value => self.begin_value(b, obs),
                ObjState::CommaOrEnd => match b {
                    b',' => *state = ObjState::Key,
                    b'}' => self.close(obs),
                    _ => self.fail("expected ',' or '}'"),
                },
            },
            Some(Frame::Array { state, items }) => match *state {
                ArrState::ValueOrEnd | ArrState::Value => {
                    if b == b']' && *state == ArrState::ValueOrEnd {
                        self.close(obs);
                    } else {
                        let index = items.len();
                        self.path.push(Segment::Index(index));
                        self.begin_value(b, obs);
                    }
                }
                ArrState::CommaOrEnd => match b {
                    b',' => *state = ArrState::Value,
                    b']' => self.close(obs),
                    _ => self.fail("expected ',' or ']'"),
                },
            },
        }
    }

    /// The first byte of a value at the current path.
    fn begin_value(&mut self, b: u8, obs: &mut dyn Observer) {
        let kind = match b {
            b'{' | b'[' => {
                if self.stack.len() >= self.max_depth {
                    self.status = Status::Limit(LimitKind::Depth(self.max_depth));
                    return;
                }
                if b == b'{' {
                    Kind::Object
                } else {
                    Kind::Array
                }
            }
            b'"' => Kind::String,
            b'-' | b'0'..=b'9' => Kind::Number,
            b't' | b'f' => Kind::Bool,
            b'n' => Kind::Null,
            _ => return self.fail(format!("expected a JSON value, found {}", describe(b))),
        };
        obs.event(Event::Begin(kind), &self.path, self.lines.pos);
        match b {
            b'{' => self.stack.push(Frame::Object { map: Map::new(), keyed: false, state: ObjState::KeyOrEnd }),
            b'[' => self.stack.push(Frame::Array { items: Vec::new(), state: ArrState::ValueOrEnd }),
            b'"' => self.token = Token::Str { buf: std::mem::take(&mut self.spare), esc: Escape::None, key: false, reported: 0 },
            b't' | b'f' | b'n' => {
                let value = match b {
                    b'n' => Value::Null,
                    _ => Value::Bool(b == b't'),
                };
                self.token = Token::Lit { word: lex::literal_word(b).unwrap_or_default(), matched: 1, value };
            }
            _ => {
                let mut buf = std::mem::take(&mut self.spare);
                buf.push(b);
                self.token = Token::Num(buf);
            }
        }
    }

    fn string_byte(&mut self, b: u8, obs: &mut dyn Observer) {
        let Token::Str { buf, esc, .. } = &mut self.token else { return };
        match *esc {
            Escape::None => match b {
                b'"' => self.finish_string(obs),
                b'\\' => *esc = Escape::Backslash,
                0x00..=0x1f => self.fail("control character in a string (escape it)"),
                _ => buf.push(b),
            },
            Escape::Backslash => {
                if b == b'u' {
                    *esc = Escape::Unicode { digits: 0, code: 0, high: None };
                    return;
                }
                let Some(c) = lex::short_escape(b) else {
                    return self.fail("invalid escape in a string");
                };
                buf.push(c);
                *esc = Escape::None;
            }
            Escape::Unicode { digits, code, high } => {
                let Some(d) = lex::hex_digit(b) else {
                    return self.fail("invalid \\u escape");
                };
                let code = code * 16 + d;
                if digits < 3 {
                    *esc = Escape::Unicode { digits: digits + 1, code, high };
                    return;
                }
                match lex::code_unit(high, code) {
                    Unit::High(high) => *esc = Escape::LowBackslash { high },
                    Unit::Char(c) => {
                        push_char(buf, c);
                        *esc = Escape::None;
                    }
                    Unit::Lone if high.is_none() => self.fail("lone low surrogate in \\u escape"),
                    Unit::Lone => self.fail("lone high surrogate in \\u escape"),
                }
            }
            Escape::LowBackslash { high } => {
                if b == b'\\' {
                    *esc = Escape::LowU { high };
                } else {
                    self.fail("lone high surrogate in \\u escape");
                }
            }
            Escape::LowU { high } => {
                if b == b'u' {
                    *esc = Escape::Unicode { digits: 0, code: 0, high: Some(high) };
                } else {
                    self.fail("lone high surrogate in \\u escape");
                }
            }
        }
    }

    /// Reports decoded string bytes not yet reported (once per push, so work stays linear).
    fn flush_string(&mut self, obs: &mut dyn Observer) {
        if let Token::Str { buf, key: false, reported, .. } = &mut self.token {
            if *reported < buf.len() {
                let start = *reported;
                *reported = buf.len();
                if let Some(new) = buf.get(start..) {
                    obs.event(Event::StringBytes(new), &self.path, self.lines.pos);
                }
            }
        }
    }

    fn finish_string(&mut self, obs: &mut dyn Observer) {
        self.flush_string(obs);
        let Token::Str { mut buf, key, .. } = std::mem::replace(&mut self.token, Token::None) else { return };
        let text = match std::str::from_utf8(&buf) {
            Ok(text) => text.to_owned(),
            Err(_) => return self.fail("invalid UTF-8 in a string"),
        };
        buf.clear();
        self.spare = buf;
        if key {
            obs.event(Event::Key(&text), &self.path, self.lines.pos);
            if let Some(Frame::Object { keyed, state, .. }) = self.stack.last_mut() {
                self.path.push(Segment::Key(text));
                *keyed = true;
                *state = ObjState::Colon;
            }
        } else {
            self.complete_value(Value::String(text), obs);
        }
    }

    fn finish_number(&mut self, obs: &mut dyn Observer) {
        let Token::Num(mut buf) = std::mem::replace(&mut self.token, Token::None) else { return };
        if !lex::is_number(&buf) {
            return self.fail(format!("invalid number '{}'", String::from_utf8_lossy(&buf)));
        }
        // A number is ASCII (is_number); `from_str` is the reader the crate instantiates elsewhere.
        // Most numbers are small non-negative integers: read at once (what `from_str` makes of
        // them too; a negative one may be `-0`, which it reads as a float).
        let small = (buf.len() <= 19 && buf.iter().all(u8::is_ascii_digit)).then(|| buf.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0')));
        let number = match small {
            Some(n) => Ok(Number::from(n)),
            None => std::str::from_utf8(&buf).map_err(|_| ()).and_then(|text| serde_json::from_str::<Number>(text).map_err(|_| ())),
        };
        match number {
            Ok(n) => {
                buf.clear();
                self.spare = buf;
                self.complete_value(Value::Number(n), obs);
            }
            Err(_) => self.fail(format!("number out of range '{}'", String::from_utf8_lossy(&buf))),
        }
    }

    /// A value is complete at the current path: report it and put it in its parent.
    fn complete_value(&mut self, value: Value, obs: &mut dyn Observer) {
        obs.event(Event::End(&value), &self.path, self.lines.pos);
        match self.stack.last_mut() {
            None => {
                self.root = Some(value);
                self.status = Status::Complete;
            }
            Some(Frame::Object { map, keyed, state }) => {
                *state = ObjState::CommaOrEnd;
                let key = match (std::mem::take(keyed), self.path.pop()) {
                    (true, Some(Segment::Key(k))) => Some(k),
                    _ => None,
                };
                // A repeated name is told as its value goes in (the last value keeps the first
                // one's place): no lookup of its own per name.
                let repeated = match key.map(|k| map.entry(k)) {
                    Some(serde_json::map::Entry::Occupied(mut slot)) => {
                        slot.insert(value);
                        Some(slot.key().clone())
                    }
                    Some(serde_json::map::Entry::Vacant(slot)) => {
                        slot.insert(value);
                        None
                    }
                    None => None,
                };
                if let Some(name) = repeated {
                    obs.event(Event::Repeated(&name), &self.path, self.lines.pos);
                    self.repeated.push((self.path.clone(), name));
                }
            }
            Some(Frame::Array { items, state }) => {
                items.push(value);
                *state = ArrState::CommaOrEnd;
                self.path_pop();
            }
        }
    }

    fn path_pop(&mut self) {
        self.path.pop();
    }

    fn close(&mut self, obs: &mut dyn Observer) {
        let value = match self.stack.pop() {
            Some(Frame::Object { map, .. }) => Value::Object(map),
            Some(Frame::Array { items, .. }) => Value::Array(items),
            None => return,
        };
        self.complete_value(value, obs);
    }

    /// Whether a JSON value has begun: a container opened, or a root token under way (`nul`,
    /// `-`), or one whole value read. Before that, an output that ends has no JSON in it.
    pub fn started(&self) -> bool {
        self.root.is_some() || !self.stack.is_empty() || !matches!(self.token, Token::None)
    }

    /// The value as written so far: open containers with what they hold, a string being written
    /// as its prefix; a number or literal being written, or a key without a value, is left out.
    pub fn partial(&self) -> Option<Value> {
        if let Some(root) = &self.root {
            return Some(root.clone());
        }
        let mut current: Option<Value> = match &self.token {
            Token::Str { buf, key: false, .. } => Some(Value::String(utf8_prefix(buf))),
            _ => None,
        };
        let segments = self.path.segments();
        for (depth, frame) in self.stack.iter().enumerate().rev() {
            current = Some(match frame {
                Frame::Object { map, keyed, .. } => {
                    let mut map = map.clone();
                    if let (true, Some(Segment::Key(k)), Some(v)) = (keyed, segments.get(depth), current) {
                        map.insert(k.clone(), v);
                    }
                    Value::Object(map)
                }
                Frame::Array { items, .. } => {
                    let mut items = items.clone();
                    if let Some(v) = current {
                        items.push(v);
                    }
                    Value::Array(items)
                }
            });
        }
        current
    }
}

fn utf8_prefix(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(e) => String::from_utf8_lossy(bytes.get(..e.valid_up_to()).unwrap_or_default()).into_owned(),
    }
}

fn push_char(buf: &mut Vec<u8>, code: u32) {
    let c = char::from_u32(code).unwrap_or('\u{FFFD}');
    let mut tmp = [0u8; 4];
    buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
}

/// Whether `s` begins some valid JSON number: it is one, or a digit would complete it.
fn number_prefix(s: &[u8]) -> bool {
    lex::is_number(s) || lex::is_number(&[s, b"0"].concat())
}

fn describe(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

#[cfg(test)]
mod tests;
