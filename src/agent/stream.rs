//! Stream validation. Chunks are appended while the output is in flight (parsed incrementally,
//! early violations reported as they become certain); when the model stops, the output is
//! soft-complete and validated in full; an invalid output the model can repair is retried
//! (`max_retries` times, once by default) with the retry prompt; the failure after the last
//! retry, or one no retry can repair, is hard-complete: the canonical error with
//! `retryable: false`, never a silently truncated result. A refusal is an outcome of its own,
//! never a validation failure and never retried. The npm package's `enforce` loop runs on this
//! machine too, its answers whole or streamed (`finish_text`).

use crate::schema::contract::Contract;
use crate::check::early::Checker;
use crate::check::verdict::glide::{Edge, Glide};
use crate::check::output;
use crate::json::partial::{Event, Kind, LimitKind, Observer, Parser, Skipped, Status};
use crate::json::path::InstancePath;
use crate::agent::prompt::{retry_prompt, retry_prompt_with, Templates};
use crate::agent::tool::strip_absent_nulls;
use crate::report::render::with_marker;
use crate::report::canonical::OutputValidationError;
use crate::report::violation::Violation;
use serde::Serialize;
use serde_json::{json, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamOptions {
    /// Retries after the first attempt (default: one).
    pub max_retries: usize,
    /// Skip prose and markdown fences around the JSON.
    pub extract: bool,
    /// End the attempt at the first early violation (the caller cancels generation).
    pub abort_on_early_violation: bool,
    /// Tool-call arguments of a strict-mode tool: `null` for an optional property that does not
    /// accept it means absent (see `tool::strip_absent_nulls`).
    pub null_as_absent: bool,
}

impl Default for StreamOptions {
    fn default() -> Self {
        StreamOptions { max_retries: 1, extract: false, abort_on_early_violation: false, null_as_absent: false }
    }
}

/// Why the model stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    Stop,
    /// The model hit its token limit: the output is truncated.
    Length,
    Refusal,
    ToolUse,
}

/// The names the providers use for why a model stopped, each with how it reads: written once,
/// for `parse` (a `match`, the main module's size as before) and `NAMES` (the package's option
/// check lists them).
macro_rules! stop_reasons {
    ($($name:literal => $reason:ident),* $(,)?) => {
        impl StopReason {
            pub const NAMES: &'static [(&'static str, StopReason)] = &[$(($name, StopReason::$reason)),*];

            pub fn parse(s: &str) -> Option<StopReason> {
                match s {
                    $($name => Some(StopReason::$reason),)*
                    _ => None,
                }
            }
        }
    };
}

stop_reasons! {
    "stop" => Stop,
    "end_turn" => Stop,
    "stop_sequence" => Stop,
    "length" => Length,
    "max_tokens" => Length,
    "refusal" => Refusal,
    "content_filter" => Refusal,
    "tool_use" => ToolUse,
    "tool_calls" => ToolUse,
}

/// The state of a stream between pushes.
pub const IN_FLIGHT: &str = "in-flight";

/// After each push.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamStatus {
    pub state: &'static str,
    pub attempt: usize,
    pub bytes: usize,
    /// The JSON value is complete.
    pub complete: bool,
    /// Every early violation of this attempt so far.
    pub early_violations: Vec<Violation>,
    /// The attempt was ended by an early violation (`abortOnEarlyViolation`, or a size or depth
    /// limit, which ends it always).
    pub aborted: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "state")]
pub enum StreamOutcome {
    #[serde(rename = "soft-complete")]
    Valid { valid: bool, data: Value, attempt: usize },
    #[serde(rename = "soft-complete")]
    Retry { valid: bool, retry: bool, prompt: String, violations: Vec<Violation>, attempt: usize },
    #[serde(rename = "hard-complete")]
    Failed { valid: bool, error: OutputValidationError, attempts: usize },
    #[serde(rename = "refused")]
    Refused { refusal: String, attempt: usize },
}

/// One change to the partial value: a value set at `path`, or text appended to the string there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub append: Option<String>,
}

/// Turns parser events into changes (only once someone asked for changes).
#[derive(Default)]
struct Changes {
    enabled: bool,
    pending: Vec<Change>,
    /// Bytes of a UTF-8 character cut by a chunk boundary, held until it is whole.
    carry: Vec<u8>,
}

impl Changes {
    fn record(&mut self, event: &Event<'_>, path: &InstancePath) {
        if !self.enabled {
            return;
        }
        let set = |value: Value| Change { path: path.to_jsonpath(), value: Some(value), append: None };
        match event {
            Event::Begin(Kind::Object) => self.pending.push(set(json!({}))),
            Event::Begin(Kind::Array) => self.pending.push(set(json!([]))),
            Event::Begin(Kind::String) => {
                self.carry.clear();
                self.pending.push(set(json!("")));
            }
            Event::StringBytes(bytes) => {
                self.carry.extend_from_slice(bytes);
                let whole = match std::str::from_utf8(&self.carry) {
                    Ok(_) => self.carry.len(),
                    Err(e) => e.valid_up_to(),
                };
                let text: Vec<u8> = self.carry.drain(..whole).collect();
                let text = String::from_utf8_lossy(&text).into_owned();
                let here = path.to_jsonpath();
                match self.pending.last_mut() {
                    Some(Change { path: p, append: Some(a), .. }) if *p == here => a.push_str(&text),
                    _ => self.pending.push(Change { path: here, value: None, append: Some(text) }),
                }
            }
            Event::End(closed) => {
                if let Some(value) = closed.scalar() {
                    self.pending.push(set(value.clone()));
                }
            }
            _ => {}
        }
    }
}

/// Where the values of the top levels begin and end in the text (byte offsets from the attempt's
/// start), for a caller that builds the data from the text as it arrives (pkg/src/api.js): the
/// root and the containers in it can be built there from their members, every other value parsed
/// from its text once it closes, so that after the last byte little is left to parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A container at a depth below `MARKED_DEPTH` begins (`at`: its bracket), unless it is read
    /// whole (`Parser::whole`): then it is marked as a member of its parent, as a scalar is.
    Open { array: bool, at: usize },
    /// That container ends (`at`: after its bracket).
    Close(usize),
    /// The members of the innermost open marked container are complete up to `at` (after the
    /// last one's last byte): the values below `MARKED_DEPTH`, and above it the scalars and the
    /// containers read whole.
    Cut(usize),
}

/// The most text capacity a renewed stream keeps (see `OutputStream::renew`): the package keeps a
/// few spare streams for each contract, and what they hold between outputs stays small.
const KEPT_TEXT: usize = 16 * 1024;

/// The depth of the values a `Cut` ends: the root's containers are built from their members
/// (unless read whole), anything deeper is parsed whole.
pub const MARKED_DEPTH: usize = 2;

/// The marks since they were last taken, once a caller asked for them.
#[derive(Default)]
struct Marks {
    enabled: bool,
    list: Vec<Mark>,
    /// The container whose `Open` was just withdrawn is read whole: its `End`, the next event,
    /// is a member's (see `read_whole`).
    whole: bool,
}

impl Marks {
    fn record(&mut self, event: &Event<'_>, depth: usize, at: usize) {
        match event {
            // The position is after the value's first byte.
            Event::Begin(kind @ (Kind::Object | Kind::Array)) if depth < MARKED_DEPTH => self.list.push(Mark::Open { array: *kind == Kind::Array, at: at.saturating_sub(1) }),
            // A number ends at the byte after it, which the position includes.
            Event::End(closed) if depth <= MARKED_DEPTH => self.ended(depth, closed.is_container(), if closed.kind() == Kind::Number { at.saturating_sub(1) } else { at }),
            _ => {}
        }
    }

    /// A value at `depth` (at most `MARKED_DEPTH`; a `container` or not) ended at `end`.
    #[inline]
    fn ended(&mut self, depth: usize, container: bool, end: usize) {
        if container && depth < MARKED_DEPTH && !std::mem::take(&mut self.whole) {
            self.list.push(Mark::Close(end));
        } else if depth > 0 {
            // Members that close one after the other are taken together.
            match self.list.last_mut() {
                Some(Mark::Cut(last)) => *last = end,
                _ => self.list.push(Mark::Cut(end)),
            }
        }
    }

    /// The edges the resumed scan found (see `Glide`): the marks of a reading byte by byte.
    fn record_edges(&mut self, edges: impl Iterator<Item = Edge>) {
        for edge in edges {
            match edge {
                Edge::Open { array, at } => self.list.push(Mark::Open { array, at }),
                Edge::End { depth, container, end } if depth <= MARKED_DEPTH => self.ended(depth, container, end),
                Edge::End { .. } => {}
            }
        }
    }

    /// The marked container just begun (its `Open` the last mark, as `Begin` is sent before it
    /// is judged) is read whole: no event comes from inside it, so it cannot be built from its
    /// members. Its text is parsed with its parent's other members instead: `Open` withdrawn, its
    /// close a `Cut` (also what a root array's container items need, parsed whole as they are).
    fn read_whole(&mut self) {
        if let Some(Mark::Open { .. }) = self.list.last() {
            self.list.pop();
            self.whole = true;
        }
    }
}

/// The checker, the change list and the marks, all watching the parser.
struct Watchers<'a> {
    checker: &'a mut Checker,
    changes: &'a mut Changes,
    marks: &'a mut Marks,
    /// Reading again what the resumed scan read (`OutputStream::leave_glide`): byte by byte, as
    /// the scan's marks were made.
    again: bool,
}

impl Observer for Watchers<'_> {
    fn event(&mut self, event: Event<'_>, path: &InstancePath, at: usize) {
        if self.changes.enabled {
            self.changes.record(&event, path);
        }
        if self.marks.enabled {
            self.marks.record(&event, path.len(), at);
        }
        self.checker.event(event, path, at);
    }

    // The marks take no string bytes.
    fn wants_text(&self) -> bool {
        self.changes.enabled || self.checker.wants_text()
    }

    // Changes are made of the events inside a value: a value they watch is read byte by byte.
    // Marks need none from inside a container read whole (see `Marks::read_whole`).
    fn may_judge_whole(&self, _: &InstancePath) -> bool {
        !self.again && !self.changes.enabled && self.checker.may_judge_whole()
    }

    fn judge_whole(&mut self, path: &InstancePath, text: &[u8]) -> bool {
        let whole = self.checker.judge_whole(text);
        if whole && self.marks.enabled && path.len() < MARKED_DEPTH {
            self.marks.read_whole();
        }
        whole
    }
}

fn new_checker(contract: &Contract, options: StreamOptions) -> Checker {
    let checker = Checker::new(contract.early_schema());
    if options.null_as_absent { checker.with_nulls_as_absent() } else { checker }
}

pub struct OutputStream {
    pub(crate) contract: Contract,
    options: StreamOptions,
    attempt: usize,
    parser: Parser,
    checker: Checker,
    /// What the parser's kept text lacks of the first `raw_output_limit` bytes of the attempt's
    /// input, for `raw_output` (see `Parser::input`): the input pushed after the text broke or
    /// reached a limit; with extraction, the input itself.
    raw: Vec<u8>,
    aborted: bool,
    /// Set once the stream reached hard-complete, valid or refused.
    done: bool,
    changes: Changes,
    marks: Marks,
    /// The early violations' revisions of the attempts before this one (see `early_revision`).
    revisions_before: usize,
    /// The retry prompt's templates (`None`: the default texts).
    templates: Option<Templates>,
    /// The valid outcome's data was left out, being the parse of the value's kept text
    /// (`data_text`).
    data_in_text: bool,
    /// While every value read could be vouched for by the one-pass verdict resumed across
    /// pushes, the attempt is read by it alone (`Glide`): each byte once, at about the one-shot
    /// scan's cost, nothing to report. The first byte it cannot vouch for, or anything that
    /// needs the parser's state, hands the attempt to the parser and the checks, which read
    /// again what it read (`leave_glide`) and go on from there. With extraction the scan begins
    /// at the first bracket (the parser skips the text before it) and skips the text after the
    /// value as the parser would: its text is the input from that bracket on.
    glide: Option<Glide>,
}

impl OutputStream {
    pub fn new(contract: &Contract, options: StreamOptions) -> Self {
        let limits = contract.limits();
        OutputStream {
            contract: contract.clone(),
            options,
            attempt: 1,
            parser: Parser::new(limits.max_output_bytes, limits.max_depth, options.extract),
            checker: new_checker(contract, options),
            raw: Vec::new(),
            aborted: false,
            done: false,
            revisions_before: 0,
            changes: Changes::default(),
            marks: Marks::default(),
            templates: None,
            data_in_text: false,
            glide: new_glide(contract, options),
        }
    }

    /// Starts over as a new stream of the same contract and options, with the default retry
    /// prompt, its marks tracked as they were. The buffers the resumed scan and the marks grew
    /// are kept for the next text (up to `KEPT_TEXT` bytes of it): a stream reused for many short
    /// outputs would otherwise allocate them again, a few times as each one grows, for each
    /// output.
    pub fn renew(&mut self) {
        let glide = self.glide.take();
        let mut list = std::mem::take(&mut self.marks.list);
        let enabled = self.marks.enabled;
        let fresh = OutputStream::new(&self.contract, self.options);
        *self = fresh;
        list.clear();
        self.marks = Marks { enabled, list, whole: false };
        if let (Some(mut glide), Some(_), Some((verdict, _))) = (glide, self.glide.as_ref(), self.contract.verdict_parts()) {
            glide.reset(verdict, KEPT_TEXT);
            self.glide = Some(glide);
        }
        if enabled {
            self.track_marks();
        }
    }

    /// The retry prompt written with `templates` (an executor's own wording).
    pub fn with_templates(mut self, templates: Templates) -> Self {
        self.templates = Some(templates);
        self
    }

    /// Starts the attempt's reading over, the same attempt: what was pushed is not the output
    /// (a provider answer's text before the call of the submit tool).
    pub(crate) fn restart_attempt(&mut self) {
        self.restart();
    }

    fn restart(&mut self) {
        let limits = self.contract.limits();
        self.parser = Parser::new(limits.max_output_bytes, limits.max_depth, self.options.extract);
        self.revisions_before += self.checker.revision() + 1;
        self.checker = new_checker(&self.contract, self.options);
        self.raw.clear();
        self.aborted = false;
        self.changes.pending.clear();
        self.changes.carry.clear();
        self.marks.list.clear();
        self.marks.whole = false;
        self.data_in_text = false;
        self.glide = if self.changes.enabled || (self.options.extract && self.marks.enabled) { None } else { new_glide(&self.contract, self.options) };
        if let (true, Some(glide)) = (self.marks.enabled, self.glide.as_mut()) {
            glide.track_edges();
        }
    }

    /// From now on, pushes record where the top levels' values begin and end (see `Mark`).
    pub fn track_marks(&mut self) {
        // (The scan's edges are offsets in its own text, which extraction does not begin at the
        // input's start: the parser reads such an attempt.)
        if self.options.extract {
            self.leave_glide(0);
        }
        self.marks.enabled = true;
        if let Some(glide) = self.glide.as_mut() {
            glide.track_edges();
        }
    }

    /// Hands the attempt from the resumed scan to the parser and the checks: they read again
    /// every byte it read but the last `current` (the push under way, which the caller reads
    /// next, returned). Its marks were recorded already: this reading records none and reads
    /// every container byte by byte, as the scan marked them, so that the marks that follow
    /// go on from where they stand.
    fn leave_glide(&mut self, current: usize) -> Vec<u8> {
        let Some(glide) = self.glide.take() else { return Vec::new() };
        let mut text = glide.into_text();
        let now = text.split_off(text.len().saturating_sub(current));
        if self.options.extract {
            // With extraction `raw` keeps the input itself (see `read`).
            let keep = self.contract.raw_output_limit().saturating_sub(self.raw.len());
            crate::json::partial::append(&mut self.raw, text.get(..keep.min(text.len())).unwrap_or_default());
        }
        let marks = std::mem::take(&mut self.marks.enabled);
        self.parser.push(&text, &mut Watchers { checker: &mut self.checker, changes: &mut self.changes, marks: &mut self.marks, again: true });
        self.marks.enabled = marks;
        now
    }

    /// Bytes pushed in this attempt (read, unless the text broke or reached a limit).
    pub fn bytes(&self) -> usize {
        match &self.glide {
            // (With extraction the parser read the text before the scan's.)
            Some(glide) if self.options.extract => self.parser.bytes() + glide.text().len(),
            Some(glide) => glide.text().len(),
            None => self.parser.bytes(),
        }
    }

    /// What extraction skipped in this attempt: the parser's, and the text the resumed scan
    /// pushed on past the value.
    pub fn skipped(&self) -> Vec<Skipped> {
        let mut skipped = self.parser.skipped().to_vec();
        if let Some(glide) = self.glide.as_ref().filter(|glide| glide.is_complete() && glide.value_text().len() < glide.text().len()) {
            let lead = self.parser.bytes();
            skipped.push(Skipped { start: lead + glide.value_text().len(), end: lead + glide.text().len(), place: "after" });
        }
        skipped
    }

    /// Whether a JSON value has begun (see `Parser::started`).
    pub fn started(&self) -> bool {
        self.glide.as_ref().map_or(self.parser.started(), Glide::started)
    }

    /// The marks recorded and not yet taken, in text order.
    pub fn marks(&self) -> &[Mark] {
        &self.marks.list
    }

    /// Forgets the first `n` marks (taken by the caller).
    pub fn take_marks(&mut self, n: usize) {
        self.marks.list.drain(..n.min(self.marks.list.len()));
    }

    /// The changes to the partial value since the last call. The first call returns the whole
    /// partial value as one change at `$`; from then on, what each push added.
    pub fn changes(&mut self) -> Vec<Change> {
        self.leave_glide(0);
        if !self.changes.enabled {
            self.changes.enabled = true;
            return self.parser.partial().map(|v| vec![Change { path: "$".into(), value: Some(v), append: None }]).unwrap_or_default();
        }
        std::mem::take(&mut self.changes.pending)
    }

    pub fn attempt(&self) -> usize {
        self.attempt
    }

    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Appends a chunk (any split, UTF-8 sequences may be cut anywhere).
    pub fn push(&mut self, chunk: &[u8]) -> StreamStatus {
        self.push_quiet(chunk);
        self.status()
    }

    /// Appends a chunk without building a status; returns the number of early violations.
    pub fn push_quiet(&mut self, chunk: &[u8]) -> usize {
        if self.glide.is_some() {
            return self.push_glided(chunk);
        }
        self.read(chunk)
    }

    /// `push_quiet` while the resumed scan reads the attempt.
    #[inline(never)]
    fn push_glided(&mut self, chunk: &[u8]) -> usize {
        // Past the size limit the parser reports it.
        if self.bytes() + chunk.len() > self.contract.limits().max_output_bytes {
            self.leave_glide(0);
            return self.read(chunk);
        }
        let mut chunk = chunk;
        if self.options.extract && self.glide.as_ref().is_some_and(|glide| glide.text().is_empty()) {
            // The text before the first bracket is the parser's to skip.
            let at = chunk.iter().position(|&b| b == b'{' || b == b'[').unwrap_or(chunk.len());
            let (before, rest) = chunk.split_at(at);
            self.read(before);
            if rest.is_empty() {
                return 0;
            }
            chunk = rest;
        }
        if let (Some(glide), Some((verdict, validator))) = (self.glide.as_mut(), self.contract.verdict_parts()) {
            if glide.push(chunk, verdict, validator) {
                if self.marks.enabled {
                    self.marks.record_edges(glide.take_edges());
                }
                return 0;
            }
        }
        let rest = self.leave_glide(chunk.len());
        self.read(&rest)
    }

    /// `push_quiet` by the parser and the checks.
    fn read(&mut self, chunk: &[u8]) -> usize {
        if !self.aborted && !self.done {
            let kept = self.parser.input().map_or(0, <[u8]>::len);
            let mut watchers = Watchers { checker: &mut self.checker, changes: &mut self.changes, marks: &mut self.marks, again: false };
            self.parser.push(chunk, &mut watchers);
            // The attempt's input begins with the kept text, and once the text takes less than a
            // whole chunk it takes nothing more: what it left out goes to `raw`, up to
            // `raw_output_limit` bytes of input in all.
            let now = self.parser.input().map_or(0, <[u8]>::len);
            if let Some(rest) = chunk.get(now.saturating_sub(kept)..).filter(|rest| !rest.is_empty()) {
                let keep = self.contract.raw_output_limit().saturating_sub(now + self.raw.len());
                crate::json::partial::append(&mut self.raw, rest.get(..keep.min(rest.len())).unwrap_or_default());
            }
            // The attempt ends at the chunk where the first early violation appears.
            self.aborted = self.options.abort_on_early_violation && !self.checker.violations().is_empty();
            if matches!(self.parser.status(), Status::Limit(_)) {
                self.past_limit();
            }
        }
        self.checker.violations().len()
    }

    /// Past a size or depth limit nothing more is read, and no answer can repair that: an early
    /// violation that ends the attempt whatever the options say, so a runaway stream is cut (its
    /// upstream cancelled) instead of read to its end. (Out of `push_quiet`, which every push
    /// runs.)
    #[inline(never)]
    fn past_limit(&mut self) {
        let limit = match self.parser.status() {
            Status::Limit(LimitKind::Bytes(limit)) => Some(output::too_large(self.parser.bytes() + 1, *limit)),
            Status::Limit(LimitKind::Depth(limit)) => Some(output::too_deep(*limit)),
            _ => None,
        };
        if let Some(v) = limit {
            self.checker.report_output(v, self.parser.bytes());
            self.aborted = true;
        }
    }

    pub fn is_complete(&self) -> bool {
        match &self.glide {
            Some(glide) => glide.is_complete(),
            None => self.parser.status() == &Status::Complete,
        }
    }

    pub fn is_aborted(&self) -> bool {
        self.aborted
    }

    /// How many more UTF-16 units of a string's plain content (no quote, backslash or control
    /// character) can come with nothing to answer but their number: inside a string, as many as
    /// no check looks at its text before (a unit is at most one character), and a third of the
    /// size limit's room (a unit takes up to three bytes); none while changes are recorded.
    /// Such text can then be handed over with the next chunk instead (the package does it for
    /// short text chunks): no push in between would have answered otherwise.
    #[inline]
    pub fn plain_room(&self) -> usize {
        if self.glide.is_some() {
            return self.glided_room();
        }
        if self.aborted || self.done || self.changes.enabled || !self.parser.in_plain_string() {
            return 0;
        }
        let text = usize::try_from(self.checker.text_room()).unwrap_or(usize::MAX);
        text.min(self.parser.room() / 3)
    }

    /// `plain_room` while the resumed scan reads the attempt (nothing aborted it, nothing
    /// records changes). With extraction none, as the parser answers: an attempt answers the
    /// same whichever reads it.
    #[inline(never)]
    fn glided_room(&self) -> usize {
        let (Some(glide), Some((verdict, _))) = (self.glide.as_ref().filter(|_| !self.options.extract), self.contract.verdict_parts()) else { return 0 };
        let Some(text) = glide.text_room(verdict).filter(|_| !self.done) else { return 0 };
        let room = self.contract.limits().max_output_bytes.saturating_sub(glide.text().len());
        usize::try_from(text).unwrap_or(usize::MAX).min(room / 3)
    }

    pub fn early_violations(&self) -> &[Violation] {
        self.checker.violations()
    }

    /// Moves whenever the early violations change, across attempts too: one reported while its
    /// value was incomplete is written again when the value closes, their number unchanged.
    pub fn early_revision(&self) -> usize {
        self.revisions_before + self.checker.revision()
    }

    pub fn status(&self) -> StreamStatus {
        StreamStatus {
            state: IN_FLIGHT,
            attempt: self.attempt,
            bytes: self.bytes(),
            complete: self.is_complete(),
            early_violations: self.checker.violations().to_vec(),
            aborted: self.aborted,
        }
    }

    /// The value as written so far (strings as their prefix; numbers being written left out).
    pub fn partial(&mut self) -> Option<Value> {
        self.leave_glide(0);
        self.parser.partial()
    }

    /// The parser of the attempt, with every byte pushed read.
    pub fn parser(&mut self) -> &Parser {
        self.leave_glide(0);
        &self.parser
    }

    /// The kept head of the attempt's input, with a marker counting every byte left out.
    fn raw_output(&self) -> String {
        let kept = self.parser.input().unwrap_or_default();
        let kept = kept.get(..self.contract.raw_output_limit().min(kept.len())).unwrap_or_default();
        let head = if self.raw.is_empty() { std::borrow::Cow::Borrowed(kept) } else { std::borrow::Cow::Owned([kept, &self.raw].concat()) };
        let total = self.parser.bytes();
        if total <= head.len() {
            return String::from_utf8_lossy(&head).into_owned();
        }
        // The head ends on a character boundary (a chunk may have cut one); the marker counts
        // every byte not shown.
        let valid = match std::str::from_utf8(&head) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(head.get(..e.valid_up_to()).unwrap_or_default()).unwrap_or_default(),
        };
        with_marker(valid, total - valid.len())
    }

    /// Why the attempt ends refused, if it does: a refusal is an outcome of its own, never
    /// validated and never retried.
    fn refused(&mut self, reason: StopReason, refusal: Option<&str>) -> Option<StreamOutcome> {
        if reason != StopReason::Refusal && refusal.is_none() {
            return None;
        }
        self.done = true;
        Some(StreamOutcome::Refused { refusal: refusal.unwrap_or("").to_string(), attempt: self.attempt })
    }

    /// The model signalled the end of this attempt.
    pub fn finish(&mut self, reason: StopReason, refusal: Option<&str>) -> StreamOutcome {
        self.finish_with(reason, refusal, true)
    }

    /// `finish`; without `with_data` (for a caller that parses the data from a text itself: the
    /// one it holds, or `data_text`) a valid outcome's `data` is `null` where it is the parse of
    /// the value's kept text, the value not built out of the parser.
    pub(crate) fn finish_with(&mut self, reason: StopReason, refusal: Option<&str>, with_data: bool) -> StreamOutcome {
        if let Some(refused) = self.refused(reason, refusal) {
            return refused;
        }
        let verdict = self.streamed_verdict(reason, with_data);
        self.conclude(verdict)
    }

    /// Ends an attempt whose whole text the caller holds too (an executor loop keeps it for the
    /// conversation). The refusal, retry and final-failure rules are `finish`'s; what differs is
    /// how the text is read:
    /// - an attempt that arrived whole (`streamed` false: nothing was pushed) is read by
    ///   extraction's rule (`Contract::extract_and_validate`: the last complete value among
    ///   fenced blocks and bracketed spans, `repair` if asked);
    /// - a streamed attempt is read as `finish` reads it, where the JSON starts at the first
    ///   bracket; when that found no JSON or broken JSON (prose braces or an example quoted
    ///   before the answer), the whole text is read by extraction's rule instead, so that both
    ///   kinds of answer end the same way. An attempt ended by an early violation keeps it.
    ///
    /// `null_as_absent` applies to the streamed reading only.
    pub fn finish_text(&mut self, reason: StopReason, refusal: Option<&str>, text: &str, streamed: bool, repair: bool) -> StreamOutcome {
        self.finish_text_with(reason, refusal, text, streamed, repair, true)
    }

    /// `finish_text`, the data of a valid streamed reading left out without `with_data` as
    /// `finish_with` leaves it (extraction's reading of the whole text always gives its data).
    pub(crate) fn finish_text_with(&mut self, reason: StopReason, refusal: Option<&str>, text: &str, streamed: bool, repair: bool, with_data: bool) -> StreamOutcome {
        if let Some(refused) = self.refused(reason, refusal) {
            return refused;
        }
        let verdict = if !streamed && reason == StopReason::Length {
            Err(self.contract.failure(vec![cut_at_token_limit(text.len())], text))
        } else if !streamed {
            self.contract.extract_and_validate(text, repair).1
        } else {
            match self.streamed_verdict(reason, with_data) {
                Err(e) if !self.aborted && e.violations.iter().any(|v| v.keyword == "json") => self.contract.extract_and_validate(text, repair).1,
                verdict => verdict,
            }
        };
        self.conclude(verdict)
    }

    /// The attempt's value, or its canonical error, as the stream read it.
    fn streamed_verdict(&mut self, reason: StopReason, with_data: bool) -> Result<Value, OutputValidationError> {
        // A text the resumed scan read to its end, valid: what the parser and the checks would
        // find too.
        if let (Some(glide), Some((verdict, validator))) = (self.glide.as_mut(), self.contract.verdict_parts()) {
            if reason != StopReason::Length && glide.end(verdict, validator) {
                let data = if with_data { crate::json::partial::parse_text(glide.value_text()) } else { None };
                self.data_in_text = !with_data;
                return Ok(data.unwrap_or(Value::Null));
            }
        }
        self.leave_glide(0);
        self.parser.end(&mut Watchers { checker: &mut self.checker, changes: &mut self.changes, marks: &mut self.marks, again: false });
        // Strict tool-call arguments: the value as validated and returned, nulls read as absent,
        // and whether reading them so removed any. The value is parsed from the kept text only
        // where it is needed: not for a root the stream settled valid as it closed, unless the
        // caller wants the data.
        let stripped = match (self.options.null_as_absent, self.parser.status()) {
            (true, Status::Complete) => self.parser.take_value().map(|mut value| {
                let removed = strip_absent_nulls(&self.contract, &mut value);
                (value, removed)
            }),
            _ => None,
        };
        let violations = if self.aborted {
            self.checker.violations().to_vec()
        } else if reason == StopReason::Length {
            vec![cut_at_token_limit(self.parser.bytes())]
        } else {
            match self.parser.status() {
                // Every closed value was judged as it closed and the root's children decide it
                // (its depth too: the parser stops at the depth limit, `Status::Limit`).
                // With nulls read as absent: the value as written settled valid and the removal
                // found nothing to remove, so the value validated is the one that settled.
                Status::Complete if stripped.as_ref().is_none_or(|(_, removed)| !removed) && self.checker.settled_valid() && self.parser.repeated().is_empty() => Vec::new(),
                // What its children do not decide (a disjunction at the root, a keyword the
                // stream's checks leave to the end) is judged from the text in one pass when
                // that finds it valid, as one-shot validation does, before any parse of it.
                Status::Complete if stripped.is_none() && self.checker.violations().is_empty() && self.parser.repeated().is_empty() && self.text_is_valid() => Vec::new(),
                Status::Complete => match stripped.as_ref().map(|(value, _)| value).or_else(|| self.parser.value()) {
                    // Post-merge: whatever arrived in parts is validated again as one value.
                    Some(value) => {
                        let mut violations = self.contract.violations(value);
                        if !self.parser.repeated().is_empty() {
                            violations.extend(self.parser.repeated().iter().map(|(path, name)| output::repeated_name(path, name)));
                            crate::report::violation::sort(&mut violations);
                        }
                        violations
                    }
                    None => Vec::new(),
                },
                // A literal or a number cut short at the root ("nul") has no partial value, but it
                // is truncated JSON, as one-shot validation says too.
                Status::Incomplete if !self.parser.started() => vec![output::no_json("")],
                Status::Incomplete => vec![Violation::of_output(
                    "truncated",
                    json!("a complete JSON value"),
                    json!(self.parser.bytes()),
                    format!("output ends before the JSON value is complete (after {} bytes)", self.parser.bytes()),
                )],
                Status::Broken(e) => vec![Violation::of_output(
                    "json",
                    json!("valid JSON"),
                    Value::Null,
                    format!("invalid JSON at line {}, column {}: {}", e.at.line, e.at.column, e.message),
                )],
                Status::Limit(LimitKind::Bytes(limit)) => vec![output::too_large(self.parser.bytes() + 1, *limit)],
                Status::Limit(LimitKind::Depth(limit)) => vec![output::too_deep(*limit)],
            }
        };
        if violations.is_empty() {
            let data = match stripped {
                Some((value, _)) => Some(value),
                None if with_data => self.parser.take_value(),
                None => {
                    self.data_in_text = true;
                    None
                }
            };
            return Ok(data.unwrap_or(Value::Null));
        }
        Err(self.contract.failure_with_raw_output(violations, self.raw_output()))
    }

    /// The text whose parse is the data a valid outcome left out (`finish_with` without
    /// `with_data`): the value's kept text, which the parser read as one JSON value with no
    /// repeated member name, so that a parse of it gives what a parse here would have. `None`
    /// when the outcome carries its data (nulls read as absent taken out of it, or extraction's
    /// reading of the whole text).
    pub fn data_text(&self) -> Option<&[u8]> {
        if !self.data_in_text {
            return None;
        }
        match &self.glide {
            // The value's text, after whitespace (or, with extraction, its first byte).
            Some(glide) => glide.value_text().trim_ascii_start().into(),
            None => self.parser.value_text(),
        }
    }

    /// Whether the complete value's text is valid by the contract's one-pass verdict (false when
    /// the schema has none).
    fn text_is_valid(&self) -> bool {
        let text = self.parser.value_text().and_then(|bytes| std::str::from_utf8(bytes).ok());
        text.and_then(|text| self.contract.quick_verdict(text)) == Some(true)
    }

    /// The state an attempt's verdict leads to: valid ends the stream; a failure the model can
    /// repair (`retryable`) starts the next attempt while retries remain, with the retry prompt;
    /// any other failure is hard-complete, its error no longer retryable.
    pub(crate) fn conclude(&mut self, verdict: Result<Value, OutputValidationError>) -> StreamOutcome {
        let attempt = self.attempt;
        let mut error = match verdict {
            Ok(data) => {
                self.done = true;
                return StreamOutcome::Valid { valid: true, data, attempt };
            }
            Err(error) => error,
        };
        if error.retryable && attempt <= self.options.max_retries {
            self.attempt += 1;
            self.restart();
            let prompt = match &self.templates {
                Some(templates) => retry_prompt_with(&error.violations, &self.contract.json_schema(), templates),
                None => retry_prompt(&error.violations, &self.contract.json_schema()),
            };
            return StreamOutcome::Retry { valid: false, retry: true, prompt, violations: error.violations, attempt };
        }
        self.done = true;
        error.retryable = false;
        StreamOutcome::Failed { valid: false, error, attempts: attempt }
    }
}

/// The resumed scan for an attempt, where it reads every value the schema lets in (see
/// `Verdict::resumable`) as the stream would judge it (`null_as_absent` changes what is valid).
fn new_glide(contract: &Contract, options: StreamOptions) -> Option<Glide> {
    let (verdict, _) = contract.verdict_parts().filter(|(v, _)| v.resumable() && !options.null_as_absent)?;
    let mut glide = Glide::new(verdict, contract.limits().max_depth);
    if options.extract {
        glide.skip_after();
    }
    Some(glide)
}

/// The violation of an output the model's token limit cut (`StopReason::Length`), whatever it
/// parses as.
fn cut_at_token_limit(bytes: usize) -> Violation {
    Violation::of_output(
        "truncated",
        json!("a complete output"),
        json!(bytes),
        format!("output was cut off at the model's token limit after {bytes} bytes"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::contract::Options;

    fn contract() -> Contract {
        let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]});
        let limits = crate::check::output::OutputLimits { max_output_bytes: 64, ..crate::check::output::OutputLimits::default() };
        Contract::compile(&schema, &Options { limits, ..Options::default() }).unwrap()
    }

    fn stream(max_retries: usize) -> OutputStream {
        OutputStream::new(&contract(), StreamOptions { max_retries, extract: true, ..StreamOptions::default() })
    }

    fn streamed(s: &mut OutputStream, text: &str, reason: StopReason) -> StreamOutcome {
        for chunk in text.as_bytes().chunks(3) {
            s.push_quiet(chunk);
        }
        s.finish_text(reason, None, text, true, false)
    }

    fn keywords(outcome: &StreamOutcome) -> Vec<&str> {
        match outcome {
            StreamOutcome::Retry { violations, .. } => violations.iter().map(|v| v.keyword.as_str()).collect(),
            StreamOutcome::Failed { error, .. } => error.violations.iter().map(|v| v.keyword.as_str()).collect(),
            other => panic!("not a failure: {other:?}"),
        }
    }

    #[test]
    fn a_whole_text_is_read_by_extraction_the_last_value_winning() {
        let mut s = stream(1);
        let text = "For example {\"a\": \"x\"}; the answer:\n```json\n{\"a\": 1}\n```";
        assert_eq!(s.finish_text(StopReason::Stop, None, text, false, false), StreamOutcome::Valid { valid: true, data: json!({"a": 1}), attempt: 1 });
        let mut repaired = stream(0);
        assert_eq!(repaired.finish_text(StopReason::Stop, None, "{\"a\": 1,}", false, true), StreamOutcome::Valid { valid: true, data: json!({"a": 1}), attempt: 1 });
    }

    #[test]
    fn a_streamed_text_broken_at_its_first_bracket_is_read_again_by_extraction() {
        let text = "Fill {name} in.\n```json\n{\"a\": 2}\n```";
        assert_eq!(streamed(&mut stream(0), text, StopReason::Stop), StreamOutcome::Valid { valid: true, data: json!({"a": 2}), attempt: 1 });
        // What the stream reads as a JSON value stays its verdict.
        let first = "{\"a\": \"x\"} then {\"a\": 3}";
        assert_eq!(keywords(&streamed(&mut stream(0), first, StopReason::Stop)), ["type"]);
    }

    #[test]
    fn an_attempt_ended_by_an_early_violation_is_not_read_again() {
        let options = StreamOptions { max_retries: 0, extract: true, abort_on_early_violation: true, null_as_absent: false };
        let mut s = OutputStream::new(&contract(), options);
        s.push_quiet(b"{\"a\": \"x");
        assert!(s.is_aborted());
        let outcome = s.finish_text(StopReason::Stop, None, "{\"a\": \"x", true, false);
        assert_eq!(keywords(&outcome), ["type"]);
    }

    #[test]
    fn the_token_limit_truncates_whole_and_streamed_texts_alike() {
        for streamed_text in [false, true] {
            let mut s = stream(1);
            if streamed_text {
                s.push_quiet(b"{\"a\": 1}");
            }
            let retry = s.finish_text(StopReason::Length, None, "{\"a\": 1}", streamed_text, false);
            let StreamOutcome::Retry { violations, attempt: 1, .. } = retry else { panic!("{retry:?}") };
            assert_eq!(violations[0].message, "output was cut off at the model's token limit after 8 bytes");
        }
    }

    #[test]
    fn refusals_retries_and_the_final_failure_are_the_machines_for_text_attempts() {
        let mut refused = stream(1);
        assert_eq!(
            refused.finish_text(StopReason::parse("content_filter").unwrap(), None, "{\"a\": 1}", false, false),
            StreamOutcome::Refused { refusal: String::new(), attempt: 1 }
        );
        assert!(refused.is_done());
        // Two retries: attempts 1 and 2 retry, the third is hard-complete and not retryable.
        let mut s = stream(2);
        for attempt in 1..=2 {
            let outcome = s.finish_text(StopReason::Stop, None, "{}", false, false);
            assert!(matches!(outcome, StreamOutcome::Retry { attempt: a, .. } if a == attempt), "{outcome:?}");
            assert_eq!(s.attempt(), attempt + 1);
        }
        let StreamOutcome::Failed { error, attempts: 3, .. } = streamed(&mut s, "{}", StopReason::Stop) else { panic!() };
        assert!(!error.retryable);
        assert!(s.is_done());
        // A failure the model cannot repair (the size limit) is final with retries left.
        let big = format!("{{\"a\": 1, \"b\": \"{}\"}}", "x".repeat(100));
        let outcome = stream(3).finish_text(StopReason::Stop, None, &big, false, false);
        assert!(matches!(&outcome, StreamOutcome::Failed { attempts: 1, error, .. } if !error.retryable), "{outcome:?}");
    }

    /// The marks of `text` pushed in chunks of `chunk` bytes, read by the parser (`{}`: every
    /// container may be read whole).
    fn marks_of(text: &str, chunk: usize) -> Vec<Mark> {
        let mut s = OutputStream::new(&Contract::compile(&json!({}), &Options::default()).unwrap(), StreamOptions::default());
        s.glide = None;
        pushed_marks(&mut s, text, chunk)
    }

    fn pushed_marks(s: &mut OutputStream, text: &str, chunk: usize) -> Vec<Mark> {
        s.track_marks();
        let mut marks = Vec::new();
        for piece in text.as_bytes().chunks(chunk) {
            s.push_quiet(piece);
            marks.extend_from_slice(s.marks());
            s.take_marks(usize::MAX);
        }
        marks
    }

    /// The resumed scan marks as the parser reading byte by byte does; and where it hands the
    /// attempt to the parser part way (a value it cannot vouch for), the marks of both build
    /// the text's data.
    #[test]
    fn the_resumed_scan_marks_as_a_reading_byte_by_byte() {
        let text = r#" {"a": 1, "b": [10, {"x": [1]}, -2.5e3], "c": {"d": "\u00e9}", "e": [null, {"f": 2}]} , "g": true}"#;
        let parsed: Value = serde_json::from_str(text).unwrap();
        let any = Contract::compile(&json!({}), &Options::default()).unwrap();
        // An escape in a string an `enum` reads, cut by a push: the scan leaves it to the parser.
        let lost_at_d = Contract::compile(&json!({"properties": {"c": {"properties": {"d": {"enum": ["é}"]}}}}}), &Options::default()).unwrap();
        for chunk in [1, 2, 5, 24, 40, text.len()] {
            let mut s = OutputStream::new(&any, StreamOptions::default());
            let marks = pushed_marks(&mut s, text, chunk);
            assert!(s.glide.is_some());
            // Pushes too short for the parser to look for a container whole (`WHOLE_MIN`).
            if chunk < 24 {
                assert_eq!(marks, marks_of(text, chunk), "chunks of {chunk}");
            }
            assert_eq!(rebuilt(text, &marks), parsed, "chunks of {chunk}");
            let mut s = OutputStream::new(&lost_at_d, StreamOptions::default());
            let marks = pushed_marks(&mut s, text, chunk);
            assert_eq!(s.glide.is_none(), chunk < 24, "chunks of {chunk}");
            assert_eq!(rebuilt(text, &marks), parsed, "chunks of {chunk}");
        }
    }

    /// `text` pushed in chunks of `chunk` bytes with the resumed scan and without: every push
    /// answers the same (early violations, their revision, bytes, completeness, abort, the room
    /// for plain text) and so does the end; the marks of a valid container build its data.
    /// Whether the scan read it to its end, valid.
    fn answers_alike(contract: &Contract, text: &[u8], chunk: usize, abort: bool) -> bool {
        let options = StreamOptions { max_retries: 0, abort_on_early_violation: abort, ..StreamOptions::default() };
        let (mut a, mut b) = (OutputStream::new(contract, options), OutputStream::new(contract, options));
        b.glide = None;
        a.track_marks();
        let shown = String::from_utf8_lossy(text);
        let mut marks = Vec::new();
        for piece in text.chunks(chunk.max(1)) {
            let (x, y) = (a.push_quiet(piece), b.push_quiet(piece));
            let at = || format!("{shown} in chunks of {chunk}, abort {abort}, at byte {}", b.bytes());
            assert_eq!(x, y, "{}", at());
            assert_eq!(a.status(), b.status(), "{}", at());
            assert_eq!((a.plain_room(), a.early_revision(), a.is_aborted()), (b.plain_room(), b.early_revision(), b.is_aborted()), "{}", at());
            marks.extend_from_slice(a.marks());
            a.take_marks(usize::MAX);
        }
        let glide = a.glide.is_some();
        let outcome = a.finish(StopReason::Stop, None);
        assert_eq!(outcome, b.finish(StopReason::Stop, None), "{shown} in chunks of {chunk}");
        if let (StreamOutcome::Valid { data, .. }, Some(b'{' | b'[')) = (&outcome, text.trim_ascii_start().first()) {
            assert_eq!(&rebuilt(&shown, &marks), data, "{shown} in chunks of {chunk}");
        }
        glide && matches!(outcome, StreamOutcome::Valid { .. })
    }

    /// The resumed scan answers as the parser and the checks: over every suite instance, cut
    /// short and with bytes inserted, in several chunkings, with and without
    /// `abortOnEarlyViolation`.
    #[test]
    fn the_resumed_scan_answers_as_the_parser_and_the_checks() {
        let (mut streams, mut glided) = (0, 0);
        for group in crate::suite::groups() {
            let Ok(contract) = Contract::compile(&group["schema"], &Options::default()) else { continue };
            for test in group["tests"].as_array().into_iter().flatten() {
                let texts = crate::suite::texts(&test["data"], 4);
                for text in &texts {
                    let valid = contract.validate_text(text).is_ok();
                    for abort in [false, true] {
                        for chunk in [1, 3, 7, 24, text.len()] {
                            glided += usize::from(answers_alike(&contract, text.as_bytes(), chunk, abort));
                            streams += usize::from(valid);
                        }
                    }
                }
            }
        }
        // Most valid streams are read by the scan to their end.
        assert!(glided * 2 > streams, "{glided} of {streams}");
    }

    /// `input` pushed in chunks of `chunk` bytes with extraction, with the resumed scan and
    /// without: every push answers the same (what was skipped too), and so does the end, by
    /// `finish` and by `finish_text` with the data's text. Whether the scan read it to its end,
    /// valid.
    fn extracts_alike(contract: &Contract, input: &str, chunk: usize) -> bool {
        let options = StreamOptions { max_retries: 0, extract: true, ..StreamOptions::default() };
        let pushed = |glide: bool| {
            let mut s = OutputStream::new(contract, options);
            if !glide {
                s.glide = None;
            }
            let answers: Vec<_> = input.as_bytes().chunks(chunk.max(1)).map(|piece| (s.push_quiet(piece), s.status(), s.skipped(), s.plain_room(), s.early_revision(), s.started())).collect();
            (s, answers)
        };
        let ((mut a, x), (mut b, y)) = (pushed(true), pushed(false));
        assert_eq!(x, y, "{input:?} in chunks of {chunk}");
        let glide = a.glide.as_ref().is_some_and(|g| !g.text().is_empty());
        let outcome = a.finish(StopReason::Stop, None);
        assert_eq!(outcome, b.finish(StopReason::Stop, None), "{input:?} in chunks of {chunk}");
        let ((mut a, _), (mut b, _)) = (pushed(true), pushed(false));
        let (ended, expected) = (a.finish_text_with(StopReason::Stop, None, input, true, false, false), b.finish_text_with(StopReason::Stop, None, input, true, false, false));
        assert_eq!((ended, a.data_text(), a.skipped()), (expected, b.data_text(), b.skipped()), "{input:?} in chunks of {chunk}");
        glide && matches!(outcome, StreamOutcome::Valid { .. })
    }

    /// With extraction, the resumed scan reads from the first bracket on and skips the text after
    /// the value as the parser does: over every suite instance in a fence with prose around it,
    /// with trailing text, and with prose whose bracket is not the answer's, in several
    /// chunkings.
    #[test]
    fn the_resumed_scan_extracts_as_the_parser_does() {
        let (mut streams, mut glided) = (0, 0);
        for group in crate::suite::groups() {
            let Ok(contract) = Contract::compile(&group["schema"], &Options::default()) else { continue };
            for test in group["tests"].as_array().into_iter().flatten() {
                for text in crate::suite::texts(&test["data"], 6) {
                    let valid = contract.validate_text(&text).is_ok() && text.trim_start().starts_with(['{', '[']);
                    for input in [format!("Here it is:\n```json\n{text}\n```\nDone."), format!("{text} {{\"next\": 1}}"), format!("See [1]: {text}")] {
                        for chunk in [1, 7, input.len()] {
                            glided += usize::from(extracts_alike(&contract, &input, chunk));
                            streams += usize::from(valid && !input.starts_with("See"));
                        }
                    }
                }
            }
        }
        assert!(glided * 2 > streams, "{glided} of {streams}");
    }

    /// A renewed stream (the package's spare streams) answers as a new one, whatever the text
    /// the stream read before and wherever it stopped: every push, the marks and the outcome,
    /// over every suite instance.
    #[test]
    fn a_renewed_stream_answers_as_a_new_one() {
        let options = StreamOptions { max_retries: 0, ..StreamOptions::default() };
        for group in crate::suite::groups() {
            let Ok(contract) = Contract::compile(&group["schema"], &Options::default()) else { continue };
            let mut renewed = OutputStream::new(&contract, options);
            renewed.track_marks();
            let mut before = String::new();
            for test in group["tests"].as_array().into_iter().flatten() {
                for text in crate::suite::texts(&test["data"], 2) {
                    for (chunk, cut) in [(1, 2), (7, 1), (text.len(), 0)] {
                        // The text before, read in part (or whole), then the stream renewed.
                        for piece in before.as_bytes().chunks(chunk.max(1)).take(before.len().div_ceil(chunk.max(1)) >> cut) {
                            renewed.push_quiet(piece);
                        }
                        renewed.renew();
                        let mut fresh = OutputStream::new(&contract, options);
                        fresh.track_marks();
                        for piece in text.as_bytes().chunks(chunk.max(1)) {
                            assert_eq!(renewed.push_quiet(piece), fresh.push_quiet(piece), "{text} after {before}");
                            assert_eq!((renewed.status(), renewed.plain_room(), renewed.marks()), (fresh.status(), fresh.plain_room(), fresh.marks()), "{text} after {before}");
                            renewed.take_marks(usize::MAX);
                            fresh.take_marks(usize::MAX);
                        }
                        assert_eq!(renewed.finish(StopReason::Stop, None), fresh.finish(StopReason::Stop, None), "{text} after {before}");
                        renewed.renew();
                    }
                    before = text;
                }
            }
        }
    }

    /// Optional fields as Pydantic, Zod and TypeBox write them (`anyOf`/`oneOf` of a schema and
    /// `null`), read by the scan: every push answers as the parser's, whatever the value, in every
    /// chunking.
    #[test]
    fn the_resumed_scan_reads_optional_fields_as_the_parser_does() {
        let schema = json!({
            "type": "object",
            "properties": {
                "s": {"anyOf": [{"type": "string", "maxLength": 4}, {"type": "null"}]},
                "e": {"anyOf": [{"type": "null"}, {"enum": ["red", "green"]}]},
                "n": {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
                "m": {"anyOf": [{"$ref": "#/$defs/m"}, {"type": "null"}]},
                "l": {"anyOf": [{"type": "array", "items": {"type": "string"}, "maxItems": 2}, {"type": "null"}]}
            },
            "required": ["s"],
            "additionalProperties": false,
            "$defs": {"m": {"type": "object", "properties": {"k": {"type": "boolean"}}, "required": ["k"]}}
        });
        let contract = Contract::compile(&schema, &Options::default()).unwrap();
        let texts = [
            r#"{"s": "abcd", "e": "green", "n": 3, "m": {"k": true}, "l": ["x", "y"]}"#,
            r#"{"s": null, "e": null, "n": null, "m": null, "l": null}"#,
            r#"{"s": "abcde", "e": "gray", "n": -1, "m": {"k": 1}, "l": ["x", "y", "z"]}"#,
            r#"{"s": 1, "e": 2, "n": "x", "m": [], "l": {}}"#,
            r#"{"s": "a\u00e9\n", "m": {}, "any": 1}"#,
            r#"{"s": "ab", "any": null}"#,
            r#"{"e": "re"}"#,
        ];
        let mut read = 0;
        for text in texts {
            for chunk in 1..=text.len() {
                for abort in [false, true] {
                    read += usize::from(answers_alike(&contract, text.as_bytes(), chunk, abort));
                }
            }
        }
        assert!(read > 0);
    }

    /// Unions whose branches take values of types no other branch takes (a string or an object,
    /// a number or a list, and `null` beside them), as Zod, Pydantic and TypeBox write them, read
    /// by the scan at the branch a value's type leaves: every push answers as the parser's,
    /// whatever the value, in every chunking.
    #[test]
    fn the_resumed_scan_reads_unions_told_apart_by_type_as_the_parser_does() {
        let schema = json!({
            "type": "object",
            "properties": {
                "fix": {"anyOf": [{"$ref": "#/$defs/patch"}, {"type": "string", "maxLength": 6}]},
                "n": {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "array", "items": {"type": "number"}, "maxItems": 2}, {"type": "null"}]},
                "e": {"anyOf": [{"enum": ["red", "green"]}, {"type": "boolean"}, {"$ref": "#/$defs/patch"}]},
                "l": {"type": "array", "items": {"oneOf": [{"type": "string", "pattern": "^[a-z]+$"}, {"type": "number", "multipleOf": 0.5}]}}
            },
            "required": ["fix"],
            "additionalProperties": false,
            "$defs": {"patch": {"type": "object", "properties": {"diff": {"type": "string"}}, "required": ["diff"], "additionalProperties": false}}
        });
        let contract = Contract::compile(&schema, &Options::default()).unwrap();
        let valid = [
            r#"{"fix": {"diff": "- a\n+ b"}, "n": 3, "e": "red", "l": ["ab", 1.5, 2]}"#,
            r#"{"fix": "later", "n": [1.5, -2], "e": true, "l": []}"#,
            r#"{"fix": "", "n": null, "e": {"diff": ""}}"#,
        ];
        let texts = [
            r#"{"fix": "too long by far", "n": -1, "e": "blue", "l": ["AB", 0.3]}"#,
            r#"{"fix": 1, "n": "x", "e": null, "l": [true, null, {}]}"#,
            r#"{"fix": {"diff": 1}, "n": [1, 2, 3], "e": {"other": ""}}"#,
            r#"{"fix": {}, "n": 1.5, "e": [], "l": ["a", "a"]}"#,
            r#"{"fix": "a\u00e9\n", "n": [{}]}"#,
            r#"{"n": 0}"#,
        ];
        assert_eq!(read_alike(&contract, &valid, &texts), 0);
    }

    /// An `enum` of strings and other values (an optional choice in OpenAI's strict mode, Zod's
    /// mixed literals) and a record whose names any string may be (Zod's `propertyNames`), read
    /// by the scan: every push answers as the parser's, whatever the value, in every chunking.
    #[test]
    fn the_resumed_scan_reads_mixed_enums_and_records_as_the_parser_does() {
        let schema = json!({
            "type": "object",
            "properties": {
                "units": {"type": ["string", "null"], "enum": ["celsius", "fahrenheit", null]},
                "lit": {"enum": ["x", 1, true, "xy"]},
                "counts": {"type": "object", "propertyNames": {"type": "string"}, "additionalProperties": {"type": "integer", "minimum": 0}, "maxProperties": 2}
            },
            "required": ["units"],
            "additionalProperties": false
        });
        let contract = Contract::compile(&schema, &Options::default()).unwrap();
        let valid = [
            r#"{"units": "celsius", "lit": "xy", "counts": {"a": 1, "": 0}}"#,
            r#"{"units": null, "lit": 1, "counts": {}}"#,
            r#"{"units": "fahrenheit", "lit": true}"#,
            r#"{"units": "celsius", "lit": "x"}"#,
        ];
        let texts = [
            r#"{"units": "kelvin", "lit": "y", "counts": {"a": -1}}"#,
            r#"{"units": "celsiu", "lit": 2, "counts": {"a": 1, "b": 2, "c": 3}}"#,
            r#"{"units": 1, "lit": false, "counts": {"a": "1"}}"#,
            r#"{"units": "cels\u0069us", "lit": null, "counts": []}"#,
            r#"{"units": "celsius", "lit": 1.0, "counts": {"a": 1, "a": 1}}"#,
            r#"{"lit": "xyz"}"#,
        ];
        assert_eq!(read_alike(&contract, &valid, &texts), 0);
    }

    /// Unions of objects told apart by one member, as Zod, Pydantic and TypeBox write them, read
    /// by the scan where the member comes first: every push answers as the parser's, whatever
    /// the value, in every chunking.
    #[test]
    fn the_resumed_scan_reads_discriminated_unions_as_the_parser_does() {
        let schema = json!({
            "type": "object",
            "properties": {
                "any": {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/link"}, {"$ref": "#/$defs/note"}]}},
                "one": {"oneOf": [{"$ref": "#/$defs/link"}, {"$ref": "#/$defs/note"}, {"type": "object", "properties": {"kind": {"const": "empty"}}, "maxProperties": 1}]},
                "maybe": {"anyOf": [{"anyOf": [{"$ref": "#/$defs/link"}, {"$ref": "#/$defs/note"}]}, {"type": "null"}]},
                "pet": {"oneOf": [{"$ref": "#/$defs/link"}, {"type": "object", "properties": {"kind": {"type": "string", "enum": ["lizard", "reptile"]}, "scales": {"type": "boolean"}}, "required": ["kind", "scales"]}]}
            },
            "additionalProperties": false,
            "$defs": {
                "link": {"type": "object", "properties": {"kind": {"const": "link"}, "url": {"type": "string", "maxLength": 6}}, "required": ["kind", "url"], "additionalProperties": false},
                "note": {"type": "object", "properties": {"kind": {"type": "string", "enum": ["note"], "maxLength": 4}, "text": {"type": "string"}, "url": {"type": "integer"}}, "required": ["text"]}
            }
        });
        let contract = Contract::compile(&schema, &Options::default()).unwrap();
        let valid = [
            r#"{"any": [{"kind": "link", "url": "a.b"}, {"kind": "note", "text": "hi", "url": 3, "more": [1]}], "one": {"kind": "empty"}, "maybe": null}"#,
            r#"{"one": {"kind": "note", "text": ""}, "maybe": {"kind": "link", "url": "x"}}"#,
            r#"{"one": {"kind": "note", "text": "t", "extra": {"kind": "link"}}}"#,
            r#"{"pet": {"kind": "reptile", "scales": true}, "any": [{"kind": "link", "url": ""}]}"#,
            r#"{"pet": {"kind": "lizard", "scales": false}}"#,
        ];
        let texts = [
            // The member later than first: the parser's reading.
            r#"{"any": [{"url": "a.b", "kind": "link"}], "one": {"text": "t", "kind": "note"}}"#,
            r#"{"any": [{"kind": "lint", "url": "a"}]}"#,
            r#"{"any": [{"kind": "link", "url": "abcdefg"}]}"#,
            r#"{"any": [{"kind": "link", "url": 1}, {"kind": "note", "url": "x"}]}"#,
            r#"{"any": [{"kind": "link", "kind": "link", "url": "a"}]}"#,
            r#"{"any": [{"kind": "li\u006ek", "url": "a"}, {}, {"kind": 1}, [], "link"]}"#,
            r#"{"one": {"kind": "empty", "x": 1}, "maybe": {"kind": "note"}}"#,
            r#"{"maybe": {"kind": "nope"}}"#,
            r#"{"any": [{"kind": "link"}]}"#,
            r#"{"pet": {"kind": "lizards", "scales": true}}"#,
            r#"{"pet": {"kind": "rep", "scales": 1}}"#,
            r#"{"pet": {"kind": "lizard"}}"#,
        ];
        assert_eq!(read_alike(&contract, &valid, &texts), 0);
    }

    /// Each text pushed in every chunking answers alike with the scan and without
    /// (`answers_alike`), the `valid` ones read by the scan to their end: how many of the other
    /// streams it read to their end.
    fn read_alike(contract: &Contract, valid: &[&str], texts: &[&str]) -> usize {
        for text in valid {
            for chunk in 1..=text.len() {
                assert!(answers_alike(contract, text.as_bytes(), chunk, false), "{text} in chunks of {chunk}");
            }
        }
        let mut read = 0;
        for text in texts {
            for chunk in 1..=text.len() {
                for abort in [false, true] {
                    read += usize::from(answers_alike(contract, text.as_bytes(), chunk, abort));
                }
            }
        }
        read
    }

    /// Arrays with `uniqueItems` of scalars, read by the scan: every push answers as the
    /// parser's, whatever the items, in every chunking.
    #[test]
    fn the_resumed_scan_reads_unique_items_as_the_parser_does() {
        let schema = json!({
            "type": "object",
            "properties": {
                "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "uniqueItems": true},
                "ns": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}, "uniqueItems": true, "maxItems": 4},
                "flags": {"type": "array", "items": {"type": ["boolean", "null"]}, "uniqueItems": true}
            },
            "additionalProperties": false
        });
        let contract = Contract::compile(&schema, &Options::default()).unwrap();
        let valid = [r#"{"tags": ["a", "b", "ab", "ba", ""], "ns": ["1", 1, -1, 10], "flags": [true, false, null]}"#, r#"{"tags": [], "ns": [], "flags": [null]}"#];
        let texts = [
            r#"{"tags": ["a", "b", "a"]}"#,
            r#"{"tags": ["\u0061", "a"]}"#,
            r#"{"tags": ["abcd", "a"]}"#,
            r#"{"ns": ["x", 1, 2, 1]}"#,
            r#"{"ns": ["x", 1, 1.0]}"#,
            r#"{"ns": ["x", 0, -0]}"#,
            r#"{"ns": ["x", 1, 2, 3, 4]}"#,
            r#"{"flags": [true, null, true]}"#,
            r#"{"flags": [false, [], {}]}"#,
        ];
        assert_eq!(read_alike(&contract, &valid, &texts), 0);
    }

    /// `patternProperties`, read by the scan where a name answers to one keyword: every push
    /// answers as the parser's, whatever the names, in every chunking.
    #[test]
    fn the_resumed_scan_reads_pattern_properties_as_the_parser_does() {
        let schema = json!({
            "type": "object",
            "properties": {
                "responses": {"type": "object", "minProperties": 1, "additionalProperties": false, "patternProperties": {"^[1-5][0-9]{2}$": {"$ref": "#/$defs/r"}}},
                "x": {"patternProperties": {"^a": {"type": "integer"}, "b$": {"type": "string"}}, "properties": {"ab2": {"type": "boolean"}}}
            },
            "$defs": {"r": {"type": "object", "properties": {"d": {"type": "string", "maxLength": 3}}, "required": ["d"]}}
        });
        let contract = Contract::compile(&schema, &Options::default()).unwrap();
        let valid = [r#"{"responses": {"200": {"d": "ok"}, "404": {"d": ""}}, "x": {"a1": 1, "zb": "s", "q": null, "a\u0032": 2}}"#];
        let texts = [
            r#"{"responses": {"600": {"d": "x"}}}"#,
            r#"{"responses": {}}"#,
            r#"{"responses": {"200": {"d": "long"}}}"#,
            r#"{"responses": {"200": {}, "201": {"d": "a"}}}"#,
            r#"{"x": {"ab2": true}}"#,
            r#"{"x": {"ab": 1}}"#,
            r#"{"x": {"a1": "s", "zb": 2}}"#,
        ];
        assert_eq!(read_alike(&contract, &valid, &texts), 0);
    }

    /// Bytes that are not UTF-8, in a string or out of one, whole or cut by pushes.
    #[test]
    fn the_resumed_scan_answers_as_the_parser_on_bytes_that_are_not_utf8() {
        let contract = Contract::compile(&json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string", "maxLength": 3}}}), &Options::default()).unwrap();
        let texts: [&[u8]; 7] = [b"{\"a\": \"x\xffy\"}", b"{\"a\": \"\xc3\"}", b"{\"a\": \"\xc3\xa9\", \"b\": \"\xc3\xa9\xc3\xa9\"}", b"{\"b\": \"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\"}", b"{\"a\xff\": 1}", b"{\xff}", b"{\"a\": \"\xe2\x82\"}"];
        for text in texts {
            for chunk in 1..=text.len() {
                answers_alike(&contract, text, chunk, false);
            }
        }
    }

    /// Data rebuilt from the marks alone, as pkg/src/api.js's StreamData may build it: a root
    /// array's container items parsed whole (`in_item`), every other member parsed at each cut,
    /// the finest batches it may take. Equal to the text's parse, it shows the marks suffice.
    fn rebuilt(text: &str, marks: &[Mark]) -> Value {
        struct Open {
            value: Option<Value>,
            array: bool,
            key: String,
        }
        let members = |open: &mut Open, members: &str| {
            let members = members.trim_start().strip_prefix(',').unwrap_or(members);
            let (l, r) = if open.array { ('[', ']') } else { ('{', '}') };
            let parsed: Value = serde_json::from_str(&format!("{l}{members}{r}")).unwrap();
            match (open.value.get_or_insert(if open.array { json!([]) } else { json!({}) }), parsed) {
                (Value::Array(items), Value::Array(more)) => items.extend(more),
                (Value::Object(map), Value::Object(more)) => map.extend(more),
                _ => unreachable!(),
            }
        };
        let (mut open, mut cursor, mut in_item) = (Vec::<Open>::new(), 0, false);
        for &mark in marks {
            let mark = match mark {
                Mark::Close(at) if in_item => {
                    in_item = false;
                    Mark::Cut(at)
                }
                _ if in_item => continue,
                Mark::Open { .. } if open.len() == 1 && open[0].array => {
                    in_item = true;
                    continue;
                }
                mark => mark,
            };
            match mark {
                Mark::Cut(at) => {
                    members(open.last_mut().unwrap(), &text[cursor..at]);
                    cursor = at;
                }
                Mark::Open { array, at } => {
                    let before = &text[cursor..at];
                    let key = match (before.find('"'), before.rfind(':')) {
                        (Some(l), Some(r)) => serde_json::from_str(&before[l..r]).unwrap(),
                        _ => String::new(),
                    };
                    open.push(Open { value: None, array, key });
                    cursor = at + 1;
                }
                Mark::Close(at) => {
                    let frame = open.pop().unwrap();
                    let value = frame.value.unwrap_or(if frame.array { json!([]) } else { json!({}) });
                    let Some(parent) = open.last_mut() else { return value };
                    match parent.value.get_or_insert(if parent.array { json!([]) } else { json!({}) }) {
                        Value::Array(items) => items.push(value),
                        Value::Object(map) => _ = map.insert(frame.key, value),
                        _ => unreachable!(),
                    }
                    cursor = at;
                }
            }
        }
        panic!("the root never closed: {marks:?}")
    }

    /// Each mark with what it marks in the text; the members of cuts that follow one another
    /// (one cut, or several over several pushes) taken together.
    fn marked(text: &str, chunk: usize) -> Vec<String> {
        let marks = marks_of(text, chunk);
        let (mut out, mut last, mut cut) = (Vec::new(), 0, String::new());
        for mark in marks {
            if let Mark::Cut(at) = mark {
                cut.push_str(&text[last..at]);
                last = at;
                continue;
            }
            if !cut.is_empty() {
                out.push(format!("cut {}", std::mem::take(&mut cut).trim()));
            }
            out.push(match mark {
                Mark::Open { array, at } => {
                    last = at + 1;
                    format!("open {} {}", if array { "array" } else { "object" }, &text[at..=at])
                }
                Mark::Close(at) => {
                    last = at;
                    format!("close {}", &text[at - 1..at])
                }
                Mark::Cut(_) => unreachable!(),
            });
        }
        out
    }

    #[test]
    fn marks_cut_the_text_at_the_top_levels_values() {
        let text = r#" {"a": 1, "b": [10, {"x": [1]}, -2.5e3], "c": {"d": "é}", "e": null} , "f": true}"#;
        let expected = [
            "open object {",
            "cut \"a\": 1",
            "open array [",
            "cut 10, {\"x\": [1]}, -2.5e3",
            "close ]",
            "open object {",
            "cut \"d\": \"é}\", \"e\": null",
            "close }",
            "cut , \"f\": true",
            "close }",
        ];
        // Pushes too short for a container to be looked for whole (`WHOLE_MIN`).
        for chunk in [1, 2, 3, 7] {
            assert_eq!(marked(text, chunk), expected, "chunks of {chunk}");
        }
        // In one push, the root's containers are read whole: members of the root as its scalars.
        assert_eq!(marked(text, 100), ["open object {", &format!("cut {}", text[2..text.len() - 1].trim()), "close }"]);
        // Below the top levels nothing is marked; a scalar root has no marks.
        assert_eq!(marked("[[[1]], 2]", 3), ["open array [", "open array [", "cut [1]", "close ]", "cut , 2", "close ]"]);
        assert!(marked(r#""text""#, 2).is_empty());
    }

    #[test]
    fn a_top_level_container_read_whole_is_marked_as_a_member() {
        // Whole in one push: the root's containers are its members, parsed with the others.
        let object = r#"{"a": 1, "b": [10, {"x": [1]}, -2.5e3, "more"], "__proto__": {"d": "é}", "e": null, "f": [true]}, "g": [], "h": {"i": {"j": [1, 2, 3, 4, 5, 6, 7]}}}"#;
        assert_eq!(marked(object, object.len()), ["open object {", &format!("cut {}", &object[1..object.len() - 1]), "close }"]);
        let array = r#"[{"a": [1, 2, 3], "b": "long enough"}, 2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], {}, [[]]]"#;
        // Containers too short to be looked for whole are marked as they are read.
        let expected = ["open array [", r#"cut {"a": [1, 2, 3], "b": "long enough"}, 2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"#, "open object {", "close }", "open array [", "cut []", "close ]", "close ]"];
        assert_eq!(marked(array, array.len()), expected);
        // Whole in some pushes and not others, read whole or not, the marks build the text's data.
        let pretty = serde_json::to_string_pretty(&serde_json::from_str::<Value>(object).unwrap()).unwrap();
        for text in [object, array, &pretty, r#"[[{"deep": [[1, 2, 3, 4, 5, 6]]}, "x"], {"y": [1, 2, 3, 4, 5, 6, 7, 8, 9]}]"#] {
            let parsed: Value = serde_json::from_str(text).unwrap();
            for chunk in [1, 7, 24, 30, 40, 64, 100, text.len()] {
                let data = rebuilt(text, &marks_of(text, chunk));
                assert_eq!(data.to_string(), parsed.to_string(), "{text} in chunks of {chunk}");
            }
        }
    }

    #[test]
    fn a_valid_streamed_values_data_is_left_in_its_text_only_where_it_is_that_texts_parse() {
        // Streamed and valid: the data is the kept value text's parse, left there.
        let text = "Here: {\"a\": 1.50e1, \"b\": [-0, 12345678901234567890]}\n";
        let mut s = stream(0);
        s.push_quiet(text.as_bytes());
        assert_eq!(s.finish_text_with(StopReason::Stop, None, text, true, false, false), StreamOutcome::Valid { valid: true, data: Value::Null, attempt: 1 });
        assert_eq!(s.data_text(), Some(&b"{\"a\": 1.50e1, \"b\": [-0, 12345678901234567890]}"[..]));
        let mut s = stream(0);
        s.push_quiet(b" 7 ");
        s.finish_with(StopReason::Stop, None, false);
        assert_eq!(s.data_text(), None, "invalid: no data");
        // Read again by extraction from the whole text: its data, not the stream's text.
        let broken = "Fill {name} in.\n```json\n{\"a\": 2}\n```";
        let mut s = stream(0);
        s.push_quiet(broken.as_bytes());
        assert_eq!(s.finish_text_with(StopReason::Stop, None, broken, true, false, false), StreamOutcome::Valid { valid: true, data: json!({"a": 2}), attempt: 1 });
        assert_eq!(s.data_text(), None);
        // Nulls read as absent: the data is the value without them, not the text's parse.
        let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}});
        let options = StreamOptions { max_retries: 0, null_as_absent: true, ..StreamOptions::default() };
        let mut s = OutputStream::new(&Contract::compile(&schema, &Options::default()).unwrap(), options);
        s.push_quiet(b"{\"a\": 1, \"b\": null}");
        assert_eq!(s.finish_with(StopReason::Stop, None, false), StreamOutcome::Valid { valid: true, data: json!({"a": 1}), attempt: 1 });
        assert_eq!(s.data_text(), None);
    }

    #[test]
    fn the_retry_prompt_uses_the_streams_templates() {
        let templates = Templates { retry: "Fix: {errors}".into(), ..Templates::default() };
        let mut s = stream(1).with_templates(templates);
        let StreamOutcome::Retry { prompt, .. } = s.finish_text(StopReason::Stop, None, "{}", false, false) else { panic!() };
        assert_eq!(prompt, "Fix: - $: 'a' is a required property");
    }
}
