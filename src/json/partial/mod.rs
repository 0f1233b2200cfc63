//! An incremental JSON parser: bytes are pushed in chunks of any size, each byte is looked at
//! once (total work linear in the input whatever the chunking), and at every moment the parser
//! knows the path of the value being written and whether the document is complete, incomplete
//! or broken. No value tree is built: the parser keeps the value's text, and a closed value is
//! told by its kind and span there (a container's `Value` parsed from it only when asked), so a
//! stream pays for reading its bytes, and for a tree only where one is wanted.
//!
//! Incompleteness is a state, not an error message to match: `Status::Incomplete` means every
//! byte so far is a valid prefix of some JSON document.

mod closed;
mod skip;

pub use closed::Closed;
pub use skip::Skipped;

pub use crate::json::textpos::Position;

use crate::json::lex::{self, Unit};
use crate::json::path::{InstancePath, Segment};
use crate::json::textpos::LineCounter;
use closed::Names;
use skip::Skipper;
use serde_json::{Number, Value};
use std::cell::OnceCell;

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
    End(Closed<'a>),
}

/// Receives the parser's events. `path` is the location of the value concerned; `at` the bytes
/// of input read when it happens (skipped text included): an offset only, as a line and column
/// would cost a count of every byte read, and observers place what they find by offset.
pub trait Observer {
    fn event(&mut self, event: Event<'_>, path: &InstancePath, at: usize);

    /// Whether the bytes just added to the string being written are wanted (`StringBytes`):
    /// asked at the end of every push that adds some, so that a push into a string nobody reads
    /// costs no event.
    fn wants_text(&self) -> bool {
        true
    }

    /// Asked when a container below the root begins (its `Begin` sent): whether it may be read
    /// in one step (`judge_whole`) if it is whole in the input at hand, before looking for its
    /// end there.
    fn may_judge_whole(&self, _path: &InstancePath) -> bool {
        false
    }

    /// Asked when a container below the root begins (its `Begin` sent) and its whole text,
    /// `text`, is in the input at hand: true when the observer wants no event from inside it,
    /// only its `End` (whose `Closed` then tells neither names nor count). The parser then reads
    /// past it in one step: the observer answers true only for a span it found to be one JSON
    /// value with no repeated member name, so that reading it byte by byte would find nothing
    /// more (no syntax error, no repeated name, no limit).
    fn judge_whole(&mut self, _path: &InstancePath, _text: &[u8]) -> bool {
        false
    }
}

/// An observer that ignores everything.
pub struct NoObserver;

impl Observer for NoObserver {
    fn event(&mut self, _: Event<'_>, _: &InstancePath, _: usize) {}
}

/// The fewest bytes a push must have from a container's bracket on for the parser to look
/// for the container's end there (`Parser::whole`).
const WHOLE_MIN: usize = 24;

/// An open container: where it is in the kept text, and what reading it needs.
struct Frame {
    /// Its bracket's offset in the kept text.
    start: usize,
    /// The end of its last complete member (past its bracket while it has none): where `partial`
    /// cuts what is being written.
    committed: usize,
    /// How many repeated names the parser had found when it opened.
    repeats: usize,
    shape: Shape,
}

enum Shape {
    /// `keyed`: a member's name was read, its value not complete (the name is the path's segment
    /// at the frame's depth, its token at `key` in the kept text).
    Object { keyed: bool, key: (usize, usize), state: ObjState },
    Array { count: usize, state: ArrState },
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
    /// `start`: its opening quote's offset in the kept text. `plain`: while no escape has been
    /// read, the content is the bytes after the quote in the kept text, `Some` of their number
    /// (a string is read without a copy of its bytes); from its first escape on, `None`, the
    /// content decoded in the parser's `decoded`.
    Str { esc: Escape, key: bool, reported: usize, start: usize, plain: Option<usize> },
    /// A number, its bytes from `start` in the kept text on (read there, as a plain string is).
    Num { start: usize },
    Lit { word: &'static [u8], matched: usize, start: usize },
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
    /// The bytes of the value as read (whitespace included; extraction's skipped text not).
    /// Without extraction it is the input pushed, which may run past the bytes read (`kept`).
    text: Vec<u8>,
    /// The span of the complete value in `text`, and that value once someone asked for it.
    root: Option<(usize, usize)>,
    value: OnceCell<Value>,
    status: Status,
    /// Bytes of input read. Their lines are counted only when a position is asked for (from the
    /// kept text, or by the skipper, which sees every byte in extraction), so reading costs no
    /// count of them.
    offset: usize,
    max_bytes: usize,
    max_depth: usize,
    skipper: Option<Skipper>,
    /// Each member name repeated in its object, with the object's location.
    repeated: Vec<(InstancePath, String)>,
    /// The decoded content of the string being read once it has an escape (see `Token::Str`):
    /// kept from one string to the next, so that a string allocates nothing of its own.
    decoded: Vec<u8>,
    /// The path segments of member names no longer in the path, emptied, for the next ones: a
    /// name costs no allocation once one as long was read at its depth.
    spare_keys: Vec<String>,
    /// The distinct member names of the object open at each depth (`Frame` by its index in the
    /// stack), to tell a repeated one: kept from one object to the next at a depth, so that an
    /// object allocates no set of its own.
    names: Vec<Names>,
    /// Containers the input of this push holds cut short (their brackets' offsets in the kept
    /// text), found while looking for a whole one around them: not looked at again.
    cut_short: Vec<usize>,
    /// The end in the kept text of the last whole container the observer refused: the
    /// containers inside it are read byte by byte without asking (so a value is looked at
    /// whole at most once beside its reading).
    refused_until: usize,
}

impl Parser {
    /// A parser for one document within the given limits. With `extract`, a leading markdown
    /// fence and prose before the first `{`/`[` are skipped, and so is anything after the value.
    pub fn new(max_bytes: usize, max_depth: usize, extract: bool) -> Self {
        Parser {
            stack: Vec::new(),
            path: InstancePath::root(),
            token: Token::None,
            text: Vec::new(),
            root: None,
            value: OnceCell::new(),
            status: Status::Incomplete,
            offset: 0,
            max_bytes,
            max_depth,
            skipper: extract.then(Skipper::default),
            repeated: Vec::new(),
            decoded: Vec::new(),
            spare_keys: Vec::new(),
            names: Vec::new(),
            cut_short: Vec::new(),
            refused_until: 0,
        }
    }

    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Bytes pushed so far.
    pub fn bytes(&self) -> usize {
        self.offset
    }

    /// Whether the reading is inside a string (a name or a value) with no escape under way, so
    /// that bytes other than a quote, a backslash or a control byte only add to its content;
    /// never in extract mode, whose skipper reads every byte.
    pub fn in_plain_string(&self) -> bool {
        self.skipper.is_none() && self.status == Status::Incomplete && matches!(self.token, Token::Str { esc: Escape::None, .. })
    }

    /// How many more bytes the size limit lets in.
    pub fn room(&self) -> usize {
        self.max_bytes.saturating_sub(self.offset)
    }

    /// Where the reading is: after the last byte read (its lines counted at each call).
    pub fn position(&self) -> Position {
        self.lines().pos
    }

    /// Without extraction, the head of the input that the kept text holds: every push whole until
    /// the text broke or reached a limit (of the push that went past the size limit, the bytes
    /// within it), nothing pushed after. With extraction `None`: the kept text is not the input.
    pub fn input(&self) -> Option<&[u8]> {
        self.skipper.is_none().then_some(self.text.as_slice())
    }

    /// The length of the kept text read so far: the bytes read, less those extraction skipped.
    fn kept(&self) -> usize {
        if self.skipper.is_some() {
            self.text.len()
        } else {
            self.offset
        }
    }

    /// The lines of the bytes read. Without extraction the kept text is the input read, byte for
    /// byte; with it, the skipper has counted every byte.
    fn lines(&self) -> LineCounter {
        if let Some(ex) = &self.skipper {
            return ex.lines;
        }
        let mut lines = LineCounter::default();
        lines.read(self.text.get(..self.offset).unwrap_or(&self.text));
        lines
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

    /// The complete value, once `status()` is `Complete` (parsed from the text on the first
    /// call).
    pub fn value(&self) -> Option<&Value> {
        let (start, end) = self.root?;
        Closed { kind: Kind::Object, start, end, text: &self.text, string: None, names: None, count: 0, repeats: false, memo: &self.value }.value()
    }

    /// The complete value's text, once `status()` is `Complete`.
    pub fn value_text(&self) -> Option<&[u8]> {
        let (start, end) = self.root?;
        self.text.get(start..end)
    }

    /// The complete value, moved out (`value` parses it again if asked later).
    pub fn take_value(&mut self) -> Option<Value> {
        self.value()?;
        self.value.take()
    }

    /// Feeds `bytes`. Once broken or over a limit, further input is ignored.
    pub fn push(&mut self, bytes: &[u8], observer: &mut dyn Observer) {
        // The bytes within the size limit are read; the first one past it sets the limit (unless
        // the text broke before), so no byte in the loop needs to be checked against it.
        let room = self.max_bytes.saturating_sub(self.offset);
        let (bytes, over) = bytes.split_at(room.min(bytes.len()));
        self.cut_short.clear();
        // Without extraction the kept text is the input, taken here at once: the reading then
        // only advances `offset` over it (the text past a syntax error is kept, never read).
        // (Extraction is on or off for the whole document.)
        let extract = self.skipper.is_some();
        if !extract && matches!(self.status, Status::Incomplete | Status::Complete) {
            append(&mut self.text, bytes);
        }
        // Past a syntax error or a limit nothing more is read: the reading stops at the byte that
        // broke the text (below), and a push after it reads nothing.
        let live = |status: &Status| matches!(status, Status::Incomplete | Status::Complete);
        if !live(&self.status) && !bytes.is_empty() {
            return;
        }
        let mut i = 0;
        // A push that goes on with a string (most token deltas do) reads its plain run here: one
        // that holds nothing else then never enters the loop, whose setup costs more than that.
        if let (false, Status::Incomplete, Token::Str { esc: Escape::None, plain, .. }) = (extract, &self.status, &mut self.token) {
            let run = lex::plain_run(bytes);
            match plain {
                Some(n) => *n += run,
                None => append(&mut self.decoded, bytes.get(..run).unwrap_or_default()),
            }
            self.offset += run;
            i = run;
        }
        while let Some(&b) = bytes.get(i) {
            let rest = bytes.get(i..).unwrap_or_default();
            i += 1;
            // (The text is whole or incomplete here: the reading stops where it breaks.)
            if !extract {
                match &mut self.token {
                    // Inside a string with no escape pending, the run up to the next quote,
                    // backslash or control byte is copied at once: most of an output's bytes are
                    // string contents. (At a quote, which ends most runs, none is looked for.)
                    Token::Str { esc: Escape::None, plain, .. } if b != b'"' => {
                        let run = lex::plain_run(rest);
                        if run > 0 {
                            match plain {
                                Some(n) => *n += run,
                                None => append(&mut self.decoded, rest.get(..run).unwrap_or_default()),
                            }
                            self.offset += run;
                            i += run - 1;
                            continue;
                        }
                    }
                    // Between tokens, a run of whitespace (an indented output's line break and
                    // indentation) at once too.
                    Token::None if lex::is_ws(b) => {
                        let run = lex::ws_run(rest);
                        self.offset += run;
                        i += run - 1;
                        continue;
                    }
                    _ => {}
                }
            }
            self.offset += 1;
            if extract {
                if let Some(ex) = &mut self.skipper {
                    let before_root = self.root.is_none() && self.stack.is_empty() && matches!(self.token, Token::None);
                    if !ex.admit(b, before_root, self.status == Status::Complete) {
                        continue;
                    }
                    self.text.push(b);
                }
            }
            // A container shorter than `WHOLE_MIN` costs little read byte by byte; small chunks
            // (a few bytes each) then ask nothing.
            let mut taken = None;
            if matches!(b, b'{' | b'[') && rest.len() >= WHOLE_MIN && !extract {
                taken = self.whole(b, rest, observer);
            }
            match taken {
                Some(taken) => i += taken,
                None => self.byte(b, observer),
            }
            // A push that broke the text stops at the byte that broke it (a string being written
            // is told what it holds only when the push ends with that byte).
            if !live(&self.status) && i < bytes.len() {
                return;
            }
        }
        if !over.is_empty() {
            if matches!(self.status, Status::Incomplete | Status::Complete) {
                self.status = Status::Limit(LimitKind::Bytes(self.max_bytes));
            }
            return;
        }
        self.flush_string(observer);
    }

    /// The input has ended: a number still open at the root completes now.
    pub fn end(&mut self, observer: &mut dyn Observer) {
        if self.status == Status::Incomplete && self.stack.is_empty() {
            if let Token::Num { .. } = &self.token {
                // `1.`, `-`, `2e+` are cut short, not malformed: the document stays incomplete.
                if !matches!(self.text.get(..self.kept()).and_then(<[u8]>::last), Some(b'.' | b'e' | b'E' | b'+' | b'-')) {
                    self.finish_number(self.kept(), observer);
                }
            }
        }
    }

    fn fail(&mut self, message: impl Into<String>) {
        self.status = Status::Broken(SyntaxError { at: self.lines().last_byte(), message: message.into() });
    }

    fn byte(&mut self, b: u8, obs: &mut dyn Observer) {
        match &mut self.token {
            Token::Str { .. } => return self.string_byte(b, obs),
            Token::Num { start } => {
                if matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                    // Only a sign, point or exponent (a few per number), or a digit after a
                    // leading zero, can break the grammar: checking then reports `--` or `01`
                    // at once, and keeps a long run of digits linear.
                    let number = self.text.get(*start..self.kept()).unwrap_or_default();
                    let check = !b.is_ascii_digit() || matches!(number, [b'0', _] | [b'-', b'0', _]);
                    if check && !lex::number_prefix(number) {
                        let shown = String::from_utf8_lossy(number).into_owned();
                        self.fail(format!("invalid number '{shown}'"));
                    }
                    return;
                }
                // The byte after the number is in the text already.
                self.finish_number(self.kept().saturating_sub(1), obs);
                if !matches!(self.status, Status::Incomplete | Status::Complete) {
                    return;
                }
            }
            Token::Lit { word, matched, .. } => {
                if word.get(*matched) == Some(&b) {
                    *matched += 1;
                    if *matched == word.len() {
                        if let Token::Lit { word, start, .. } = std::mem::replace(&mut self.token, Token::None) {
                            let (kind, value) = match word.first() {
                                Some(b'n') => (Kind::Null, Value::Null),
                                first => (Kind::Bool, Value::Bool(first == Some(&b't'))),
                            };
                            self.complete_scalar(kind, (start, self.kept()), OnceCell::from(value), obs);
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
        if matches!(self.status, Status::Complete) {
            return self.fail("trailing characters after the JSON value");
        }
        let here = self.kept().saturating_sub(1);
        match self.stack.last_mut().map(|f| &mut f.shape) {
            None => self.begin_value(b, obs),
            Some(Shape::Object { state, .. }) => match *state {
                ObjState::KeyOrEnd | ObjState::Key => {
                    if b == b'"' {
                        self.token = Token::Str { esc: Escape::None, key: true, reported: 0, start: here, plain: Some(0) };
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
            Some(Shape::Array { state, count }) => match *state {
                ArrState::ValueOrEnd | ArrState::Value => {
                    if b == b']' && *state == ArrState::ValueOrEnd {
                        self.close(obs);
                    } else {
                        let index = *count;
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

    /// At a container's first byte `b` (the first of `rest`, in the kept text already), below
    /// the root: when the whole container is in `rest` and the observer needs nothing from
    /// inside it (`Observer::judge_whole`), it is read in one step (`Some` of the bytes taken
    /// past `b`). `None`: nothing was done, the byte is read as any other. A container the
    /// observer refuses is read byte by byte (`Some(0)`: its `Begin` was sent here).
    // Kept out of the byte loop, which stays as tight as without it.
    #[inline(never)]
    fn whole(&mut self, b: u8, rest: &[u8], obs: &mut dyn Observer) -> Option<usize> {
        let at = self.kept().saturating_sub(1);
        let value_next = match self.stack.last().map(|f| &f.shape) {
            Some(Shape::Object { state, .. }) => *state == ObjState::Value,
            Some(Shape::Array { state, .. }) => matches!(state, ArrState::ValueOrEnd | ArrState::Value),
            None => false,
        };
        if !value_next || !matches!(self.token, Token::None) || self.status != Status::Incomplete || at < self.refused_until || self.cut_short.contains(&at) {
            return None;
        }
        let room = self.max_depth.saturating_sub(self.stack.len());
        if let Some(Frame { shape: Shape::Array { count, .. }, .. }) = self.stack.last() {
            self.path.push(Segment::Index(*count));
        }
        self.begin_value(b, obs);
        if self.status != Status::Incomplete || !obs.may_judge_whole(&self.path) {
            return Some(0);
        }
        let mut open = std::mem::take(&mut self.cut_short);
        let len = skip::container_len(rest, room, &mut open);
        // Offsets in `rest` become offsets in the kept text, where `rest` starts at `at`.
        open.iter_mut().for_each(|o| *o += at);
        self.cut_short = open;
        let Some(span) = len.and_then(|len| rest.get(..len)) else { return Some(0) };
        let len = span.len();
        if !obs.judge_whole(&self.path, span) {
            self.refused_until = at + len;
            return Some(0);
        }
        self.offset += len - 1;
        self.close(obs);
        Some(len - 1)
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
        obs.event(Event::Begin(kind), &self.path, self.offset);
        let start = self.kept().saturating_sub(1);
        match b {
            b'{' => {
                let depth = self.stack.len();
                match self.names.get_mut(depth) {
                    Some(names) => names.clear(),
                    None => self.names.resize_with(depth + 1, Names::default),
                }
                self.stack.push(Frame { start, committed: start + 1, repeats: self.repeated.len(), shape: Shape::Object { keyed: false, key: (0, 0), state: ObjState::KeyOrEnd } });
            }
            b'[' => self.stack.push(Frame { start, committed: start + 1, repeats: self.repeated.len(), shape: Shape::Array { count: 0, state: ArrState::ValueOrEnd } }),
            b'"' => self.token = Token::Str { esc: Escape::None, key: false, reported: 0, start, plain: Some(0) },
            b't' | b'f' | b'n' => self.token = Token::Lit { word: lex::literal_word(b).unwrap_or_default(), matched: 1, start },
            _ => self.token = Token::Num { start },
        }
    }

    fn string_byte(&mut self, b: u8, obs: &mut dyn Observer) {
        let Token::Str { esc, plain, start, .. } = &mut self.token else { return };
        let buf = &mut self.decoded;
        match *esc {
            Escape::None => match b {
                b'"' => self.finish_string(obs),
                b'\\' => {
                    // The content so far is decoded from here on, the escapes' bytes added to it.
                    if let Some(n) = plain.take() {
                        buf.clear();
                        buf.extend_from_slice(content_in(&self.text, *start, n));
                    }
                    *esc = Escape::Backslash;
                }
                0x00..=0x1f => self.fail("control character in a string (escape it)"),
                _ => match plain {
                    Some(n) => *n += 1,
                    None => buf.push(b),
                },
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
    /// Inlined: the end of every push runs it, most often to find nothing to report.
    #[inline]
    fn flush_string(&mut self, obs: &mut dyn Observer) {
        if let Token::Str { key: false, reported, start, plain, .. } = &mut self.token {
            let content = plain.map_or(self.decoded.as_slice(), |n| content_in(&self.text, *start, n));
            if *reported < content.len() {
                let from = *reported;
                *reported = content.len();
                if let Some(new) = content.get(from..).filter(|_| obs.wants_text()) {
                    obs.event(Event::StringBytes(new), &self.path, self.offset);
                }
            }
        }
    }

    fn finish_string(&mut self, obs: &mut dyn Observer) {
        self.flush_string(obs);
        let Token::Str { key, start, plain, .. } = std::mem::replace(&mut self.token, Token::None) else { return };
        let content = plain.map_or(self.decoded.as_slice(), |n| content_in(&self.text, start, n));
        let Ok(text) = std::str::from_utf8(content) else {
            return self.fail("invalid UTF-8 in a string");
        };
        let end = self.kept();
        if key {
            obs.event(Event::Key(text), &self.path, self.offset);
            let mut name = self.spare_keys.pop().unwrap_or_default();
            name.push_str(text);
            if let Some(Frame { shape: Shape::Object { keyed, key, state, .. }, .. }) = self.stack.last_mut() {
                self.path.push(Segment::Key(name));
                *keyed = true;
                *key = (start, end);
                *state = ObjState::Colon;
            }
        } else {
            // The decoded string is the closed value's: a `Value` of it is made only if asked.
            let memo = OnceCell::new();
            let closed = Closed { kind: Kind::String, start, end, text: &self.text, string: Some(text), names: None, count: 0, repeats: false, memo: &memo };
            obs.event(Event::End(closed), &self.path, self.offset);
            self.completed(start, end, memo, obs);
        }
        if plain.is_none() {
            self.decoded.clear();
        }
    }

    /// A number ends before `end` in the kept text.
    fn finish_number(&mut self, end: usize, obs: &mut dyn Observer) {
        let Token::Num { start } = std::mem::replace(&mut self.token, Token::None) else { return };
        let buf = self.text.get(start..end).unwrap_or_default();
        // Most numbers are small non-negative integers: read at once, their digits looked at once
        // (what `from_str` makes of them too; a negative one may be `-0`, which it reads as a
        // float). Such digits are a JSON number unless they have a leading zero.
        let mut small = (buf.len() <= 19).then_some(0u64);
        for &d in buf {
            small = small.filter(|_| d.is_ascii_digit()).map(|n| n * 10 + u64::from(d.wrapping_sub(b'0')));
        }
        let small = small.filter(|_| matches!(buf, [_] | [b'1'..=b'9', ..]));
        if small.is_none() && !lex::is_number(buf) {
            return self.fail(format!("invalid number '{}'", String::from_utf8_lossy(buf)));
        }
        // A number is ASCII (is_number); `from_str` is the reader the crate instantiates elsewhere.
        let number = match small {
            Some(n) => Ok(Number::from(n)),
            None => std::str::from_utf8(buf).map_err(|_| ()).and_then(|text| serde_json::from_str::<Number>(text).map_err(|_| ())),
        };
        match number {
            Ok(n) => self.complete_scalar(Kind::Number, (start, end), OnceCell::from(Value::Number(n)), obs),
            Err(_) => self.fail(format!("number out of range '{}'", String::from_utf8_lossy(buf))),
        }
    }

    /// A number or a literal (its value in `memo`) is complete at the current path.
    fn complete_scalar(&mut self, kind: Kind, (start, end): (usize, usize), memo: OnceCell<Value>, obs: &mut dyn Observer) {
        let closed = Closed { kind, start, end, text: &self.text, string: None, names: None, count: 0, repeats: false, memo: &memo };
        obs.event(Event::End(closed), &self.path, self.offset);
        self.completed(start, end, memo, obs);
    }

    /// The value at `start..end` of the kept text is complete at the current path (its
    /// observers told): it is the root, or a member of the open container.
    fn completed(&mut self, start: usize, end: usize, memo: OnceCell<Value>, obs: &mut dyn Observer) {
        let depth = self.stack.len().saturating_sub(1);
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some((start, end));
            self.value = memo;
            self.status = Status::Complete;
            return;
        };
        // A number's or a literal's value holds no allocation: not handed to the general drop.
        // (A `Number` that holds its text, were serde_json's arbitrary precision ever enabled,
        // is dropped as any value.)
        if !std::mem::needs_drop::<Number>() && matches!(memo.get(), Some(Value::Number(_) | Value::Bool(_) | Value::Null)) {
            std::mem::forget(memo);
        }
        frame.committed = end;
        match &mut frame.shape {
            Shape::Object { keyed, key, state } => {
                *state = ObjState::CommaOrEnd;
                let mut name = match (std::mem::take(keyed), self.path.pop()) {
                    (true, Some(Segment::Key(k))) => k,
                    _ => return,
                };
                // A repeated name is told as its value ends (the last value keeps the first
                // one's place, as a parse of the text makes it).
                if self.names.get_mut(depth).is_none_or(|names| names.insert(&name, *key, &self.text)) {
                    name.clear();
                    self.spare_keys.push(name);
                    return;
                }
                obs.event(Event::Repeated(&name), &self.path, self.offset);
                self.repeated.push((self.path.clone(), name));
            }
            Shape::Array { count, state } => {
                *count += 1;
                *state = ArrState::CommaOrEnd;
                self.path.pop();
            }
        }
    }

    fn close(&mut self, obs: &mut dyn Observer) {
        let Some(frame) = self.stack.pop() else { return };
        let end = self.kept();
        let memo = OnceCell::new();
        let repeats = self.repeated.len() > frame.repeats;
        let closed = match &frame.shape {
            Shape::Object { .. } => {
                let names = self.names.get(self.stack.len());
                Closed { kind: Kind::Object, start: frame.start, end, text: &self.text, string: None, names, count: names.map_or(0, Names::len), repeats, memo: &memo }
            }
            Shape::Array { count, .. } => Closed { kind: Kind::Array, start: frame.start, end, text: &self.text, string: None, names: None, count: *count, repeats, memo: &memo },
        };
        obs.event(Event::End(closed), &self.path, self.offset);
        self.completed(frame.start, end, memo, obs);
    }

    /// Whether a JSON value has begun: a container opened, or a root token under way (`nul`,
    /// `-`), or one whole value read. Before that, an output that ends has no JSON in it.
    pub fn started(&self) -> bool {
        self.root.is_some() || !self.stack.is_empty() || !matches!(self.token, Token::None)
    }

    /// The value as written so far: open containers with what they hold, a string being written
    /// as its prefix; a number or literal being written, or a key without a value, is left out.
    /// Built from the kept text (the containers' text up to what is being written, closed), only
    /// when asked.
    pub fn partial(&self) -> Option<Value> {
        if self.root.is_some() {
            return self.value().cloned();
        }
        let string = match &self.token {
            Token::Str { key: false, start, plain, .. } => Some((utf8_prefix(plain.map_or(self.decoded.as_slice(), |n| content_in(&self.text, *start, n))), *start)),
            _ => None,
        };
        let Some(last) = self.stack.last() else {
            return string.map(|(s, _)| Value::String(s));
        };
        let mut out = Vec::with_capacity(self.text.len() + self.stack.len() + 2);
        // Each open container's text up to the one open in it (its member being written).
        for (outer, inner) in self.stack.iter().zip(self.stack.iter().skip(1)) {
            out.extend_from_slice(self.text.get(outer.start..inner.start).unwrap_or_default());
        }
        match string {
            Some((prefix, start)) => {
                out.extend_from_slice(self.text.get(last.start..start).unwrap_or_default());
                out.extend_from_slice(Value::String(prefix).to_string().as_bytes());
            }
            None => out.extend_from_slice(self.text.get(last.start..last.committed).unwrap_or_default()),
        }
        for frame in self.stack.iter().rev() {
            out.push(if matches!(frame.shape, Shape::Object { .. }) { b'}' } else { b']' });
        }
        parse_text(&out)
    }
}

/// A JSON value from text the parser read whole (its nesting bounded by the parser's limit).
pub(crate) fn parse_text(bytes: &[u8]) -> Option<Value> {
    // Read as `str`, as the crate's other parses are: one instance of serde_json's reader.
    let mut de = serde_json::Deserializer::from_str(std::str::from_utf8(bytes).ok()?);
    de.disable_recursion_limit();
    let value = serde::Deserialize::deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(value)
}

/// The `n` bytes after the opening quote at `start` of a string read without an escape so far.
fn content_in(text: &[u8], start: usize, n: usize) -> &[u8] {
    text.get(start + 1..start + 1 + n).unwrap_or_default()
}

fn utf8_prefix(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(e) => String::from_utf8_lossy(bytes.get(..e.valid_up_to()).unwrap_or_default()).into_owned(),
    }
}

/// `buf.extend_from_slice(bytes)`, in WebAssembly a short slice copied byte by byte: there a copy
/// of unknown length is a `memory.copy`, which engines run as a call out of the module that costs
/// more than the few bytes a token delta carries (and is made even for none). Natively the
/// library's copy is the cheaper one at every length.
#[inline]
pub(crate) fn append(buf: &mut Vec<u8>, bytes: &[u8]) {
    if !cfg!(target_arch = "wasm32") || bytes.len() > SHORT_COPY {
        buf.extend_from_slice(bytes);
    } else {
        buf.reserve(bytes.len());
        bytes.iter().for_each(|&b| buf.push(b));
    }
}

/// The longest slice `append` copies byte by byte.
const SHORT_COPY: usize = 8;

fn push_char(buf: &mut Vec<u8>, code: u32) {
    let c = char::from_u32(code).unwrap_or('\u{FFFD}');
    let mut tmp = [0u8; 4];
    buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
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
