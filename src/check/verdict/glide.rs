//! The one-pass verdict resumed across pushes: a stream's bytes read once, at about the cost of
//! the one-shot scan, while every value so far is one the stream's checks would find nothing to
//! report on.
//!
//! The verdict's `Run` descends the text by recursion, so it needs the whole text. `Glide` keeps
//! that descent's state on a stack instead (each open container's node, state, names and
//! counts), and so resumes at any byte. It judges only what it can vouch for exactly as the
//! stream's checks would: a location of one node whose own keywords the verdict checks, reached
//! through plain `$ref`s, with no applicator (`allOf`, `anyOf`, `oneOf`, `not`) but the union of
//! a schema and `null` that optional fields are written as (see `nullable`), the union of
//! branches told apart by the type of value each takes (see `kind_union`) and the union of
//! objects told apart by their first member (see `Tagged`), and where a value
//! begins, a member is named, an item added, a string grows or a value closes, the answer those
//! checks would give early. Anything else — a node it does not model, something that may
//! be a violation, a syntax error, a repeated name, a limit near — makes it *lost*: the caller
//! then reads the text again with the parser and the checks, which report exactly.
use super::*;

/// A value with no node to answer to (a member or item no keyword constrains).
const ANY: usize = usize::MAX;
/// A value this reading does not vouch for at a node (see `entries`).
const NONE: usize = usize::MAX - 1;
/// The value of a union object's first member, its tag (see `Tagged`).
const TAG: usize = usize::MAX - 2;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Past the bracket: a member (item) or the close.
    First,
    /// Past a comma in an object: a name.
    Name,
    /// Past a name: the colon.
    Colon,
    /// Past a colon (a comma in an array): a value.
    Value,
    /// Past a member (item): a comma or the close.
    Next,
}

struct Frame {
    /// The node the container answers to (`ANY`: none of its own keywords).
    node: usize,
    array: bool,
    state: State,
    /// Members (items) so far.
    count: u64,
    /// The names `required` lists that came (bits of `KeyRule::required`).
    seen: u64,
    /// The node of the member whose name was read.
    child: usize,
    /// The items so far of an array with `uniqueItems`.
    items: Option<Box<Items>>,
}

enum Token {
    None,
    /// `escaped`: an escape was read; `shrink`: how many fewer characters the content has
    /// decoded than as written, for the escapes read whole; `escape`: where the one under way
    /// starts.
    Str { start: usize, name: bool, esc: Esc, escaped: bool, shrink: u64, escape: usize },
    Num { start: usize },
    Lit { start: usize, word: &'static [u8], matched: usize },
}

/// Where an escape in a string is, as the parser reads it (so that a malformed one or a lone
/// surrogate is found at the byte the parser finds it).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Esc {
    None,
    Backslash,
    /// `\u` and `digits` hex digits of `code`; `high`: the high surrogate before it.
    Unicode { digits: u8, code: u32, high: Option<u32> },
    /// After a high surrogate: its low one's backslash, then its `u`.
    LowBackslash { high: u32 },
    LowU { high: u32 },
}

/// Where a value of the top levels begins or ends (for the caller's marks): a container opening
/// below `MARKED`, or a value ending at `depth` (its enclosing containers) at most `MARKED`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Edge {
    Open { array: bool, at: usize },
    End { depth: usize, container: bool, end: usize },
}

/// The depth of the values whose ends are told (`Edge::End`).
const MARKED: usize = 2;

pub(crate) struct Glide {
    /// Every byte pushed.
    text: Vec<u8>,
    stack: Vec<Frame>,
    token: Token,
    /// The node of the value being read, or of the next one to begin.
    next: usize,
    /// The root value is complete.
    done: bool,
    /// Where the root value ends in `text`, once complete.
    end: usize,
    /// The text after the complete value is not read (extraction skips it): otherwise anything
    /// there but whitespace is not JSON.
    skip_after: bool,
    lost: bool,
    max_depth: usize,
    /// A name with escapes, decoded; its buffer reused.
    decoded: String,
    /// The names of the object open at each depth (`names[d]` for `stack[d]`), kept apart from
    /// the frames and reused: a frame that carried them was copied whole at each container.
    names: Vec<Names>,
    /// The edges since they were last taken, when tracked.
    edges: Option<Vec<Edge>>,
    /// Some push was not UTF-8 on its own (bytes cut inside a character, or not UTF-8 at all):
    /// each string's bytes are then checked as it ends. (Pushes that each are UTF-8 make a text
    /// that is, and a text from JavaScript strings always is.)
    mixed: bool,
}

impl Glide {
    pub(crate) fn new(verdict: &Verdict, max_depth: usize) -> Self {
        Glide { text: Vec::new(), stack: Vec::new(), token: Token::None, next: verdict.root, done: false, end: 0, skip_after: false, lost: false, max_depth: max_depth.min(MAX_NESTING), decoded: String::new(), names: Vec::new(), edges: None, mixed: false }
    }

    /// From now on, the text after the complete value is not read (see `value_text`).
    pub(crate) fn skip_after(&mut self) {
        self.skip_after = true;
    }

    /// Back to the state of `new`, the buffers grown kept (the text's up to `kept` bytes);
    /// edges tracked as they were.
    pub(crate) fn reset(&mut self, verdict: &Verdict, kept: usize) {
        self.text.clear();
        self.text.shrink_to(kept);
        self.stack.clear();
        self.token = Token::None;
        self.next = verdict.root;
        self.done = false;
        self.end = 0;
        self.lost = false;
        self.mixed = false;
        // (The names of each depth are cleared as an object there begins.)
        if let Some(edges) = self.edges.as_mut() {
            edges.clear();
        }
    }

    /// From now on, the top levels' edges are kept for `take_edges`.
    pub(crate) fn track_edges(&mut self) {
        self.edges.get_or_insert_with(Vec::new);
    }

    /// Reads `bytes`: false once lost (then the text holds every byte pushed, read or not).
    pub(crate) fn push(&mut self, bytes: &[u8], verdict: &Verdict, validator: &Validator) -> bool {
        let from = self.text.len();
        crate::json::partial::append(&mut self.text, bytes);
        self.mixed |= !bytes.is_ascii() && std::str::from_utf8(bytes).is_err();
        if !(self.lost || (self.done && self.skip_after)) {
            let text = std::mem::take(&mut self.text);
            self.read(&text, from, verdict, validator);
            self.text = text;
            if !self.lost {
                self.check_open(verdict);
            }
        }
        !self.lost
    }

    /// The input has ended: whether the text is one complete value, valid (a number at the root
    /// completes now).
    pub(crate) fn end(&mut self, verdict: &Verdict, validator: &Validator) -> bool {
        if let (false, true, Token::Num { start }) = (self.lost, self.stack.is_empty(), &self.token) {
            let (start, end) = (*start, self.text.len());
            self.token = Token::None;
            let text = std::mem::take(&mut self.text);
            self.number_end(&text, start, end, verdict, validator);
            self.text = text;
        }
        !self.lost && self.done
    }

    pub(crate) fn text(&self) -> &[u8] {
        &self.text
    }

    pub(crate) fn into_text(self) -> Vec<u8> {
        self.text
    }

    /// The complete value's text (up to its last byte), once complete.
    pub(crate) fn value_text(&self) -> &[u8] {
        self.text.get(..self.end).unwrap_or_default()
    }

    pub(crate) fn is_complete(&self) -> bool {
        self.done
    }

    /// Whether a value has begun (a container, a token, or one whole value).
    pub(crate) fn started(&self) -> bool {
        self.done || !self.stack.is_empty() || !matches!(self.token, Token::None)
    }

    /// The edges since the last call, taken; their list keeps its room for the next push's.
    pub(crate) fn take_edges(&mut self) -> impl Iterator<Item = Edge> + '_ {
        self.edges.iter_mut().flat_map(|edges| edges.drain(..))
    }

    /// Inside a string with no escape under way: how many more characters of plain content the
    /// stream's checks would take with nothing to report (`None`: not inside one).
    pub(crate) fn text_room(&self, verdict: &Verdict) -> Option<u64> {
        let Token::Str { name, esc: Esc::None, .. } = self.token else { return None };
        if name {
            return Some(u64::MAX);
        }
        if self.next == TAG {
            return Some(0);
        }
        match simple(verdict, self.next) {
            Some(c) if c.strings.is_some() || c.mixed_strings.is_some() => Some(0),
            Some(c) => Some(c.max_length.map_or(u64::MAX, |max| max.saturating_sub(self.chars()))),
            None => Some(u64::MAX),
        }
    }

    /// The characters of the string being read, decoded, up to the escape under way.
    fn chars(&self) -> u64 {
        let Token::Str { start, esc, shrink, escape, .. } = self.token else { return 0 };
        let end = if esc == Esc::None { self.text.len() } else { escape };
        leaf::code_points(self.text.get(start + 1..end).unwrap_or_default()).saturating_sub(shrink)
    }

    fn lose(&mut self) {
        self.lost = true;
    }

    fn read(&mut self, text: &[u8], from: usize, verdict: &Verdict, validator: &Validator) {
        let mut p = from;
        while !self.lost {
            let Some(&b) = text.get(p) else { break };
            match &mut self.token {
                Token::Str { esc: esc @ Esc::None, escaped, escape, .. } => {
                    // The plain run up to a quote, a backslash or a control byte at once.
                    p += lex::plain_run(text.get(p..).unwrap_or_default());
                    match text.get(p) {
                        Some(b'"') => {
                            p += 1;
                            self.string_end(text, p, verdict, validator);
                        }
                        Some(b'\\') => {
                            *esc = Esc::Backslash;
                            *escaped = true;
                            *escape = p;
                            p += 1;
                        }
                        Some(_) => self.lose(),
                        None => {}
                    }
                }
                Token::Str { esc, shrink, .. } => {
                    p += 1;
                    let next = match *esc {
                        Esc::Backslash if b == b'u' => Some(Esc::Unicode { digits: 0, code: 0, high: None }),
                        Esc::Backslash => lex::short_escape(b).map(|_| {
                            *shrink += 1;
                            Esc::None
                        }),
                        Esc::Unicode { digits, code, high } => lex::hex_digit(b).and_then(|d| {
                            let code = code * 16 + d;
                            if digits < 3 {
                                return Some(Esc::Unicode { digits: digits + 1, code, high });
                            }
                            match lex::code_unit(high, code) {
                                lex::Unit::High(high) => Some(Esc::LowBackslash { high }),
                                lex::Unit::Char(_) => {
                                    // `\uXXXX` is one character, a pair of them too.
                                    *shrink += if high.is_some() { 11 } else { 5 };
                                    Some(Esc::None)
                                }
                                lex::Unit::Lone => None,
                            }
                        }),
                        Esc::LowBackslash { high } => (b == b'\\').then_some(Esc::LowU { high }),
                        Esc::LowU { high } => (b == b'u').then_some(Esc::Unicode { digits: 0, code: 0, high: Some(high) }),
                        Esc::None => None,
                    };
                    match next {
                        Some(next) => *esc = next,
                        None => self.lose(),
                    }
                }
                Token::Num { start } => {
                    if matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                        p += 1;
                    } else {
                        let start = *start;
                        self.token = Token::None;
                        self.number_end(text, start, p, verdict, validator);
                    }
                }
                Token::Lit { word, matched, start } => {
                    if word.get(*matched) != Some(&b) {
                        self.lose();
                        break;
                    }
                    *matched += 1;
                    p += 1;
                    if *matched == word.len() {
                        let (start, kind) = (*start, if word.first() == Some(&b'n') { NULL } else { BOOLEAN });
                        self.token = Token::None;
                        self.scalar_end(text, start, p, kind, false, verdict, validator);
                    }
                }
                Token::None => {
                    // Whitespace and the byte after it at once: one comes before most tokens
                    // of an indented text.
                    let at = if lex::is_ws(b) { p + lex::ws_run(text.get(p..).unwrap_or_default()) } else { p };
                    let Some(&b) = text.get(at) else { break };
                    p = at + 1;
                    self.structural(b, at, verdict);
                }
            }
        }
    }

    /// Byte `b`, at `at`, between tokens.
    fn structural(&mut self, b: u8, at: usize, verdict: &Verdict) {
        if self.done {
            if !self.skip_after {
                self.lose();
            }
            return;
        }
        let Some(frame) = self.stack.last_mut() else { return self.begin(b, at, verdict) };
        match (frame.array, frame.state, b) {
            (false, State::First | State::Name, b'"') => self.token = Token::Str { start: at, name: true, esc: Esc::None, escaped: false, shrink: 0, escape: 0 },
            (false, State::Colon, b':') => frame.state = State::Value,
            (false, State::Value, _) => {
                self.next = frame.child;
                self.begin(b, at, verdict);
            }
            (_, State::Next, b',') => frame.state = if frame.array { State::Value } else { State::Name },
            (false, State::First | State::Next, b'}') | (true, State::First | State::Next, b']') => self.close(at + 1, verdict),
            (true, State::First | State::Value, _) => {
                // An item past `maxItems` is reported as it begins.
                let item = match simple(verdict, frame.node) {
                    Some(c) if c.max_items.is_some_and(|m| frame.count >= m) => return self.lose(),
                    Some(c) => c.prefix.get(usize::try_from(frame.count).unwrap_or(usize::MAX)).copied().or(c.items).unwrap_or(ANY),
                    None => ANY,
                };
                self.next = item;
                self.begin(b, at, verdict);
            }
            _ => self.lose(),
        }
    }

    /// The first byte of a value at node `self.next`: its kind must be one the node lets in, as
    /// the stream's checks report a value of another kind as it begins.
    fn begin(&mut self, b: u8, at: usize, verdict: &Verdict) {
        let kind = match b {
            b'{' => OBJECT,
            b'[' => ARRAY,
            b'"' => STRING,
            b'-' | b'0'..=b'9' => NUMBER,
            b't' | b'f' => BOOLEAN,
            b'n' => NULL,
            _ => return self.lose(),
        };
        let entry = if self.next == ANY { ANY } else { verdict.entries.get(self.next).and_then(|e| e.get(slot(kind))).copied().unwrap_or(NONE) };
        let node = match entry {
            ANY => ANY,
            node if simple(verdict, node).is_some_and(|c| kind_fits(c, kind)) => node,
            node if kind == OBJECT && tagged(verdict, node).is_some() => node,
            // A union's tag (which has no entry): a string, judged as it ends (`settle`).
            _ if self.next == TAG && kind == STRING => {
                self.token = Token::Str { start: at, name: false, esc: Esc::None, escaped: false, shrink: 0, escape: 0 };
                return;
            }
            _ => return self.lose(),
        };
        self.next = node;
        match b {
            b'{' | b'[' => {
                // (Items `uniqueItems` compares are scalars: see `completed`.)
                if self.stack.len() >= self.max_depth || self.stack.last().is_some_and(|f| f.items.is_some()) {
                    return self.lose();
                }
                let depth = self.stack.len();
                if let (true, Some(edges)) = (depth < MARKED, self.edges.as_mut()) {
                    edges.push(Edge::Open { array: b == b'[', at });
                }
                // A container none of whose own keywords are here answers to nothing inside.
                let c = simple(verdict, node);
                let own = c.is_some_and(|c| if b == b'{' { c.objects } else { c.arrays }) || (c.is_none() && tagged(verdict, node).is_some());
                let items = (b == b'[' && c.is_some_and(|c| c.unique.is_some())).then(Box::default);
                if b == b'{' {
                    if self.names.len() <= depth {
                        self.names.resize_with(depth + 1, Names::default);
                    }
                    if let Some(names) = self.names.get_mut(depth) {
                        names.clear();
                    }
                }
                self.stack.push(Frame { node: if own { node } else { ANY }, array: b == b'[', state: State::First, count: 0, seen: 0, child: ANY, items });
            }
            b'"' => self.token = Token::Str { start: at, name: false, esc: Esc::None, escaped: false, shrink: 0, escape: 0 },
            b't' | b'f' | b'n' => self.token = Token::Lit { start: at, word: lex::literal_word(b).unwrap_or_default(), matched: 1 },
            _ => self.token = Token::Num { start: at },
        }
    }

    fn string_end(&mut self, text: &[u8], end: usize, verdict: &Verdict, validator: &Validator) {
        let Token::Str { start, name, escaped, .. } = std::mem::replace(&mut self.token, Token::None) else { return };
        if name {
            self.name_end(text, start..end, escaped, verdict, validator);
        } else {
            self.scalar_end(text, start, end, STRING, escaped, verdict, validator);
        }
    }

    /// A member's name at `token` (quotes included) is read: its member's node, its count and
    /// its repeat told now, as the stream's checks report a name no keyword lets in, one past
    /// `maxProperties`, at the name.
    fn name_end(&mut self, text: &[u8], token: std::ops::Range<usize>, escaped: bool, verdict: &Verdict, validator: &Validator) {
        let raw = text.get(token.start + 1..token.end - 1).unwrap_or_default();
        // (Only a name with escapes is read as text; one cut by pushes is checked as UTF-8.)
        if self.mixed && std::str::from_utf8(raw).is_err() {
            return self.lose();
        }
        let mut decoded = std::mem::take(&mut self.decoded);
        let name = if escaped {
            decoded.clear();
            if std::str::from_utf8(raw).ok().and_then(|raw| lex::unescape(raw, &mut decoded)).is_none() {
                self.decoded = decoded;
                return self.lose();
            }
            decoded.as_bytes()
        } else {
            raw
        };
        let depth = self.stack.len().wrapping_sub(1);
        let lost = match (self.stack.last_mut(), self.names.get_mut(depth)) {
            (Some(frame), Some(names)) => member(frame, names, text, token, escaped, name, verdict, validator),
            _ => true,
        };
        self.decoded = decoded;
        if lost {
            self.lose();
        }
    }

    fn number_end(&mut self, text: &[u8], start: usize, end: usize, verdict: &Verdict, validator: &Validator) {
        let token = text.get(start..end).unwrap_or_default();
        match lex::number_len(token) {
            // A number serde_json would refuse (out of f64's range) is the parser's to report.
            Some((len, integral)) if len == token.len() && lex::fits_double(token, integral) => {
                match simple(verdict, self.next).filter(|c| needs_judging(c, NUMBER)) {
                    // Judged by the verdict's number checks on the token the scan has read.
                    Some(c) => {
                        let holds = std::str::from_utf8(token).is_ok_and(|token| Run::new(verdict, validator, token, 0).number_holds(c, 0, len, integral).is_ok());
                        if !holds {
                            return self.lose();
                        }
                        self.completed(end, false, token);
                    }
                    None => self.scalar_end(text, start, end, NUMBER, false, verdict, validator),
                }
            }
            _ => self.lose(),
        }
    }

    /// A scalar at `start..end` is complete (`escaped`: a string with escapes): judged at its
    /// node by the verdict.
    #[allow(clippy::too_many_arguments)]
    fn scalar_end(&mut self, text: &[u8], start: usize, end: usize, kind: u8, escaped: bool, verdict: &Verdict, validator: &Validator) {
        let token = text.get(start..end).unwrap_or_default();
        let node = self.next;
        let judged = if node == ANY || simple(verdict, node).is_some_and(|c| !needs_judging(c, kind)) {
            !self.mixed || kind != STRING || std::str::from_utf8(token).is_ok()
        } else if let (STRING, Some(c)) = (kind, simple(verdict, node)) {
            self.string_holds(c, token, escaped, verdict, validator)
        } else if node == TAG {
            return self.settle(text, start, end, escaped, verdict, validator);
        } else {
            std::str::from_utf8(token).ok().and_then(|token| verdict.judge_at(validator, node, token)) == Some(true)
        };
        if !judged {
            return self.lose();
        }
        self.completed(end, false, token);
    }

    /// A string (`token`, quotes included) judged on its content as the verdict judges one,
    /// without reading it again.
    fn string_holds(&mut self, c: &Checks, token: &[u8], escaped: bool, verdict: &Verdict, validator: &Validator) -> bool {
        let Some(raw) = token.get(1..token.len().saturating_sub(1)).and_then(|raw| std::str::from_utf8(raw).ok()) else { return false };
        let mut decoded = std::mem::take(&mut self.decoded);
        let content = if escaped {
            decoded.clear();
            lex::unescape(raw, &mut decoded).map(|()| decoded.as_str())
        } else {
            Some(raw)
        };
        let holds = content.is_some_and(|content| Run::new(verdict, validator, "", 0).string_valid(c, content, c.scalar_strings && !c.scalar.is_empty()));
        self.decoded = decoded;
        holds
    }

    /// The tag of the union object being read ended at `end` (its token from `start`): the
    /// object is read at the branch it names from here on, its tag that branch's member.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn settle(&mut self, text: &[u8], start: usize, end: usize, escaped: bool, verdict: &Verdict, validator: &Validator) {
        let token = text.get(start..end).unwrap_or_default();
        let value = token.get(1..token.len().saturating_sub(1)).unwrap_or_default();
        let union = self.stack.last().and_then(|f| tagged(verdict, f.node));
        // The one branch whose tag the value is.
        let (mut found, mut matches) = (None, 0);
        for &b in union.map(|t| t.branches.as_slice()).unwrap_or_default() {
            if let Some((i, tag, values)) = union.and_then(|t| tag_of(verdict, b, t.name.as_bytes())) {
                if values.iter().any(|v| v.as_bytes() == value) {
                    found = Some((b, i, tag));
                    matches += 1;
                }
            }
        }
        let Some((branch, i, tag)) = found.filter(|_| matches == 1 && !escaped) else { return self.lose() };
        let depth = self.stack.len().wrapping_sub(1);
        let (Some(c), Some(frame), Some(names)) = (simple(verdict, branch).filter(|c| kind_fits(c, OBJECT)), self.stack.last_mut(), self.names.get_mut(depth)) else { return self.lose() };
        frame.node = branch;
        names.listed(Some(i));
        if let Some(bit) = c.keys.get(i).and_then(|r| r.required) {
            frame.seen |= 1u64.checked_shl(u32::try_from(bit).unwrap_or(u32::MAX)).unwrap_or(0);
        }
        let over = c.max_properties.is_some_and(|m| frame.count > m);
        if over || (needs_judging(tag, STRING) && !self.string_holds(tag, token, false, verdict, validator)) {
            return self.lose();
        }
        self.completed(end, false, token);
    }

    fn close(&mut self, end: usize, verdict: &Verdict) {
        let Some(mut frame) = self.stack.pop() else { return };
        let holds = match simple(verdict, frame.node) {
            Some(c) if frame.array => !(c.min_items.is_some_and(|m| frame.count < m) || c.max_items.is_some_and(|m| frame.count > m) || frame.items.as_mut().is_some_and(|i| i.has_duplicates())),
            Some(c) => c.count_fits(frame.count) && c.has_required(frame.seen),
            // (A union object closed before its tag.)
            None => tagged(verdict, frame.node).is_none(),
        };
        if !holds {
            return self.lose();
        }
        self.completed(end, true, &[]);
    }

    /// The value being read (a `container` or a scalar, its `token`) ended at `end`. An item of
    /// an array with `uniqueItems` is added to its items: lost where its equality needs its
    /// parsed value (a repeat is told as the array closes, as the stream's checks tell it).
    fn completed(&mut self, end: usize, container: bool, token: &[u8]) {
        let depth = self.stack.len();
        if let (true, Some(edges)) = (depth <= MARKED, self.edges.as_mut()) {
            edges.push(Edge::End { depth, container, end });
        }
        match self.stack.last_mut() {
            None => {
                self.done = true;
                self.end = end;
            }
            Some(frame) => {
                frame.state = State::Next;
                frame.count += u64::from(frame.array);
                if let Some(items) = frame.items.as_deref_mut() {
                    if !add_item(items, token) {
                        self.lose();
                    }
                }
            }
        }
    }

    /// At the end of a push, what the stream's checks would say of the token left open: a
    /// number must still be a prefix of one (the parser reports `--` or `01` at once), and a
    /// string whose text a check reads (`enum`, `const`, `maxLength`) is told as it grows.
    fn check_open(&mut self, verdict: &Verdict) {
        let text = &self.text;
        let lost = match &self.token {
            Token::Num { start } => !lex::number_prefix(text.get(*start..).unwrap_or_default()),
            Token::Str { name: false, start, escaped, .. } if self.next == TAG => {
                let content = text.get(start + 1..).unwrap_or_default();
                *escaped || !self.stack.last().and_then(|f| tagged(verdict, f.node)).is_some_and(|t| t.branches.iter().any(|&b| tag_of(verdict, b, t.name.as_bytes()).is_some_and(|(_, _, values)| values.iter().any(|v| v.as_bytes().starts_with(content)))))
            }
            Token::Str { name: false, start, escaped, .. } => match simple(verdict, self.next) {
                Some(c) if c.strings.is_some() || c.mixed_strings.is_some() || c.max_length.is_some() => {
                    let content = text.get(start + 1..).unwrap_or_default();
                    c.max_length.is_some_and(|max| self.chars() > max) || c.strings.as_ref().or(c.mixed_strings.as_ref()).is_some_and(|allowed| *escaped || !allowed.iter().any(|s| s.as_bytes().starts_with(content)))
                }
                _ => false,
            },
            _ => false,
        };
        if lost {
            self.lose();
        }
    }
}

/// (Out of the scan's loop: few arrays have `uniqueItems`.)
#[inline(never)]
fn add_item(items: &mut Items, token: &[u8]) -> bool {
    items.add(token)
}

/// Node `n` through plain `$ref`s: `Some(ANY)` where nothing constrains the value, `None` where
/// the node is not one this reading vouches for (`false`, delegated, too long a chain).
fn resolve(verdict: &Verdict, mut n: usize) -> Option<usize> {
    for _ in 0..MAX_REFS {
        if n == ANY {
            return Some(ANY);
        }
        match verdict.nodes.get(n)? {
            VerdictNode::Any => return Some(ANY),
            VerdictNode::Check(c) => match c.via_ref {
                Some(target) => n = target,
                None => return Some(n),
            },
            VerdictNode::Nothing | VerdictNode::Delegate => return None,
        }
    }
    None
}

/// The value types a scan tells apart as a value begins, each at its own place in an entry
/// (`slot`): `null`, booleans, numbers, strings, arrays, objects.
pub(super) const KINDS: usize = 7;

/// A value type's place in an entry (its bit's; integers are read as numbers).
fn slot(kind: u8) -> usize {
    usize::try_from(kind.trailing_zeros()).unwrap_or(KINDS)
}

/// For each node, the node a value there is read at for each type it may begin as (`slot`),
/// through plain `$ref`s and, at a union of branches told apart by type (`nullable`,
/// `kind_union`), at the branch the value's type leaves. `ANY` where nothing constrains it,
/// `NONE` where this reading does not vouch for it (nor for a branch that constrains nothing:
/// the checks read both branches then). Told once, as every value begins at one.
pub(super) fn entries(verdict: &Verdict) -> Vec<[usize; KINDS]> {
    let at = |n: usize| match resolve(verdict, n) {
        None => [NONE; KINDS],
        Some(ANY) => [ANY; KINDS],
        Some(node) => match nullable(verdict, node) {
            Some((value, null)) => {
                let [value, null] = [value, null].map(|b| resolve(verdict, b).filter(|&b| b != ANY).unwrap_or(NONE));
                let mut entry = [value; KINDS];
                if let Some(at) = entry.get_mut(slot(NULL)) {
                    *at = null;
                }
                entry
            }
            None => kind_union(verdict, node).unwrap_or([node; KINDS]),
        },
    };
    (0..verdict.nodes.len()).map(at).collect()
}

/// Whether every node a value can reach from the root is one `Glide` reads, so that it reads a
/// valid value to its end: where it would be lost part way on a valid value (an applicator, a
/// delegated node, a member two keywords constrain), the reading it hands over reads again what
/// it read, which costs more than that reading alone.
pub(super) fn covers(verdict: &Verdict) -> bool {
    let mut seen = vec![false; verdict.nodes.len()];
    let mut todo = vec![verdict.root];
    while let Some(n) = todo.pop() {
        let Some(n) = resolve(verdict, n) else {
            // `false` only fails what reaches it (`additionalProperties: false`'s members).
            if matches!(verdict.nodes.get(n), Some(VerdictNode::Nothing)) {
                continue;
            }
            return false;
        };
        if n == ANY || std::mem::replace(seen.get_mut(n).unwrap_or(&mut true), true) {
            continue;
        }
        if let Some((value, null)) = nullable(verdict, n) {
            todo.extend([value, null]);
            continue;
        }
        if let Some(t) = tagged(verdict, n) {
            todo.extend(t.branches.iter().copied());
            continue;
        }
        if let Some(entry) = kind_union(verdict, n) {
            todo.extend(entry.into_iter().filter(|&b| b != NONE));
            continue;
        }
        let Some(c) = simple(verdict, n) else { return false };
        // Items `uniqueItems` compares are read when their equality shows in their text.
        let scalar = |i: usize| resolve(verdict, i).and_then(|i| simple(verdict, i)).is_some_and(|i| i.types != 0 && i.types & (OBJECT | ARRAY | NUMBER) == 0);
        if c.unique.is_some() && !(c.items.is_some_and(scalar) && c.prefix.iter().all(|&i| scalar(i))) {
            return false;
        }
        todo.extend(c.keys.iter().filter_map(|k| k.node).chain(c.patterns.iter().map(|&(_, node, _)| node)).chain(c.additional).chain(c.prefix.iter().copied()).chain(c.items));
    }
    true
}

/// A chain of plain `$ref`s longer than this is left to the parser's reading.
const MAX_REFS: usize = 16;

/// The checks of node `n` when they are the verdict's own and nothing else applies there (no
/// applicator).
fn simple(verdict: &Verdict, n: usize) -> Option<&Checks> {
    match verdict.nodes.get(n)? {
        VerdictNode::Check(c) if c.glides => Some(c),
        _ => None,
    }
}

/// Tells each node whether it is `simple`.
pub(super) fn mark_simple(verdict: &mut Verdict) {
    for node in &mut verdict.nodes {
        if let VerdictNode::Check(c) = node {
            c.glides = c.all.is_empty() && c.any.is_empty() && c.one.is_empty() && c.not.is_none();
        }
    }
}

/// A node that is only `anyOf` (or `oneOf`) of a schema and `{"type": "null"}` (an optional
/// field as Pydantic, Zod's `nullable` or TypeBox write it): its two branches, the schema's
/// first. A value is then valid at the schema's branch or, `null`, at the other, and the
/// stream's checks judge it so too, once its type rules one branch out as it begins. (For
/// `oneOf` the schema's branch must refuse `null` as it begins, or `null` would match both.)
fn nullable(verdict: &Verdict, n: usize) -> Option<(usize, usize)> {
    let VerdictNode::Check(c) = verdict.nodes.get(n)? else { return None };
    let (branches, one) = match (c.any.as_slice(), c.one.as_slice()) {
        (branches @ [_, _], []) => (branches, false),
        ([], branches @ [_, _]) => (branches, true),
        _ => return None,
    };
    let own = c.types != 0 || !bare(c);
    let null_only = |b: usize| resolve(verdict, b).and_then(|b| simple(verdict, b)).is_some_and(|b| b.types == NULL && !needs_judging(b, NULL));
    let (value, null) = match branches {
        [a, b] if null_only(*b) => (*a, *b),
        [a, b] if null_only(*a) => (*b, *a),
        _ => return None,
    };
    let refuses_null = || resolve(verdict, value).and_then(|v| simple(verdict, v)).is_some_and(|v| !kind_fits(v, NULL));
    (!own && (!one || refuses_null())).then_some((value, null))
}

/// A node that is only `anyOf` (or `oneOf`) of schemas each of which lets in types of value no
/// other lets in (a string or an object, as Zod's `z.union`, Pydantic's `Union[str, Model]` or
/// TypeBox's `Type.Union` write one): the branch each type of value is read at (`slot`), `NONE`
/// for a type no branch lets in. A value's type, told as it begins, rules out every branch but
/// its own, for the stream's checks too; valid at that branch, the value is valid at the union,
/// for `oneOf` at that branch alone. The branch's checks are narrower than the union's, so
/// wherever the stream's checks would report, this reading is lost first.
#[inline(never)]
fn kind_union(verdict: &Verdict, n: usize) -> Option<[usize; KINDS]> {
    let VerdictNode::Check(c) = verdict.nodes.get(n)? else { return None };
    let branches = match (c.any.as_slice(), c.one.as_slice()) {
        (branches, []) | ([], branches) if branches.len() >= 2 => branches,
        _ => return None,
    };
    if c.types != 0 || !bare(c) {
        return None;
    }
    let mut entry = [NONE; KINDS];
    for &b in branches {
        let b = resolve(verdict, b)?;
        let c = simple(verdict, b)?;
        for kind in [NULL, BOOLEAN, NUMBER, STRING, ARRAY, OBJECT] {
            if kind_fits(c, kind) {
                let at = entry.get_mut(slot(kind))?;
                if *at != NONE {
                    return None;
                }
                *at = b;
            }
        }
    }
    Some(entry)
}

/// Whether `c` has no keywords of its own but its applicators (and `type`).
fn bare(c: &Checks) -> bool {
    !c.scalar_only && c.scalar.is_empty() && c.min_length.is_none() && c.max_length.is_none() && c.string_keywords.is_empty() && c.bounds.is_empty() && !c.objects && !c.arrays && c.all.is_empty() && c.not.is_none()
}

/// A union (`anyOf` or `oneOf`, nothing else at its node but `"type": "object"`) of objects that
/// one member tells apart, each branch allowing it a string of its own, or a few (a
/// discriminated union, as Zod, Pydantic and TypeBox write one; Pydantic writes an `enum` for a
/// branch that several tags map to). An object at the union whose first member is that one is
/// read at the one branch its value names: valid there, it is valid at the union (and at no
/// other branch, whose own values the member lacks), and the branch's checks, narrower than the
/// union's, find anything the stream's checks would report first, where this reading is lost.
/// An object with its tag later is left to the parser's reading.
pub(crate) struct Tagged {
    /// The member's name.
    name: String,
    /// The branches' nodes (through plain `$ref`s).
    branches: Vec<usize>,
}

/// Tells each node whether it is a union `Tagged` reads.
pub(super) fn tag_unions(verdict: &mut Verdict) {
    for n in 0..verdict.nodes.len() {
        let union = tagged_union(verdict, n);
        if let (Some(VerdictNode::Check(c)), Some(union)) = (verdict.nodes.get_mut(n), union) {
            c.tagged = Some(Box::new(union));
        }
    }
}

/// The node's `Tagged`, if it is one: its branches' tags are told apart as an object's is read
/// (`settle`), where two branches with the same tag leave the object to the parser's reading.
fn tagged_union(verdict: &Verdict, n: usize) -> Option<Tagged> {
    let VerdictNode::Check(c) = verdict.nodes.get(n)? else { return None };
    let branches = match (c.any.as_slice(), c.one.as_slice()) {
        (branches, []) | ([], branches) if branches.len() >= 2 => branches,
        _ => return None,
    };
    if !(c.types == 0 || c.types == OBJECT) || !bare(c) || c.via_ref.is_some() {
        return None;
    }
    let mut nodes = Vec::new();
    for &b in branches {
        nodes.push(resolve(verdict, b)?);
    }
    let key = simple(verdict, *nodes.first()?)?.keys.iter().find(|key| nodes.iter().all(|&b| tag_of(verdict, b, key.name.as_bytes()).is_some()))?;
    Some(Tagged { name: key.name.clone(), branches: nodes })
}

/// The member `name` of the object node `branch` as a union's tag: its rule (by index), its
/// checks and the strings they allow (a `const`, or an `enum` of strings).
#[inline(never)]
fn tag_of<'v>(verdict: &'v Verdict, branch: usize, name: &[u8]) -> Option<(usize, &'v Checks, &'v [String])> {
    let c = simple(verdict, branch)?;
    let i = find_key(&c.keys, name)?;
    let tag = resolve(verdict, c.keys.get(i)?.node?).and_then(|t| simple(verdict, t))?;
    Some((i, tag, tag.strings.as_deref().filter(|values| !values.is_empty())?))
}

fn tagged(verdict: &Verdict, n: usize) -> Option<&Tagged> {
    match verdict.nodes.get(n)? {
        VerdictNode::Check(c) => c.tagged.as_deref(),
        _ => None,
    }
}

/// Whether a value of `kind` (a type bit) may be valid at `c`, as told when it begins (an
/// `enum` or `const` has a value of that type).
fn kind_fits(c: &Checks, kind: u8) -> bool {
    let types = if kind == NUMBER { INTEGER | NUMBER } else { kind };
    (c.types == 0 || c.types & types != 0) && (!c.scalar_only || c.choice_kinds & types != 0)
}

/// Whether a scalar of `kind` at `c` needs the verdict's judging beyond its kind (which `begin`
/// checked).
fn needs_judging(c: &Checks, kind: u8) -> bool {
    match kind {
        STRING => c.strings.is_some() || c.min_length.is_some() || c.max_length.is_some() || !c.string_keywords.is_empty() || (c.scalar_strings && !c.scalar.is_empty()),
        NUMBER => c.integer_only || !c.bounds.is_empty() || (c.scalar_numbers && !c.scalar.is_empty()),
        _ => c.scalar_literals && !c.scalar.is_empty(),
    }
}

/// The member named `name` (its token at `token`) in `frame`: its node set; true when the
/// stream's checks would report it now (a repeat, a name no keyword lets in, one past
/// `maxProperties`).
#[allow(clippy::too_many_arguments)]
fn member(frame: &mut Frame, names: &mut Names, text: &[u8], token: std::ops::Range<usize>, escaped: bool, name: &[u8], verdict: &Verdict, validator: &Validator) -> bool {
    frame.state = State::Colon;
    frame.count += 1;
    let Some(c) = simple(verdict, frame.node) else {
        if let Some(t) = tagged(verdict, frame.node) {
            // A union object is read with its tag first (`Tagged`).
            frame.child = TAG;
            return escaped || name != t.name.as_bytes();
        }
        frame.child = ANY;
        return if escaped { names.repeated_decoded(name, None) } else { names.repeated(text, token, None) };
    };
    let found = find_key(&c.keys, name);
    let repeated = if escaped { names.repeated_decoded(name, found) } else { names.repeated(text, token, found) };
    let rule = found.and_then(|i| c.keys.get(i));
    if let Some(bit) = rule.and_then(|r| r.required) {
        frame.seen |= 1u64.checked_shl(u32::try_from(bit).unwrap_or(u32::MAX)).unwrap_or(0);
    }
    let mut lost = repeated || c.max_properties.is_some_and(|m| frame.count > m);
    let mut own = rule.and_then(|r| r.node);
    if !c.patterns.is_empty() {
        // A name a pattern of `patternProperties` matches answers to that pattern's schema (to
        // two keywords at once, it is the parser's reading).
        let Ok(name) = std::str::from_utf8(name) else { return true };
        for &(pattern, node, _) in &c.patterns {
            if validator.name_matches(pattern, name) {
                lost |= own.is_some();
                own = Some(node);
            }
        }
    }
    let child = own.or(c.additional).unwrap_or(ANY);
    // A name `additionalProperties: false` keeps out is reported at the name.
    lost |= child != ANY && resolve(verdict, child).is_none();
    frame.child = child;
    lost
}

#[cfg(test)]
mod tests;
