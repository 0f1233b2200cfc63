//! JSON extraction from model text: the ways models wrap their JSON — prose around it, a
//! markdown fence, several candidates, trailing commas and raw newlines — turned into one value
//! or a typed reason why there is none.
//!
//! The rule, in order:
//! 1. A text that is one JSON value (after a BOM and whitespace) is that value.
//! 2. Otherwise the text is split into markdown fences (```` ``` ```` or `~~~`, CommonMark rules,
//!    nested fences followed) and prose. Candidates are the outermost balanced `{…}`/`[…]` spans
//!    of each part, and the whole content of a fence.
//! 3. Candidates in a fence tagged `json` (or untagged) are preferred over the others.
//! 4. Among them the **last** wins: an answer that quotes an example or the user's input before
//!    its own JSON must not have the quote taken for the answer. Walking back from the last
//!    candidate, prose in braces (`{like this}`) is passed over, but a candidate that starts like
//!    JSON and does not parse, or JSON cut off at the end of the text, ends the search with that
//!    reason rather than falling back to an earlier value.
//!
//! With `repair`, trailing commas, comments and raw control characters in strings are fixed, and
//! each fix is listed; nothing is changed silently. The work is linear in the text.

use crate::check::output::{self, OutputLimits, StringScan};
use crate::json::partial::{NoObserver, Parser, Skipped, Status};
use crate::json::textpos::{utf16_offset, LineIndex};
use crate::report::violation::Violation;
use serde::Serialize;
use std::cell::Cell;
use serde_json::{json, Value};

#[derive(Clone, Copy, Debug, Default)]
pub struct ExtractOptions {
    /// Fix trailing commas, comments and raw control characters in strings (each listed).
    pub repair: bool,
    pub limits: OutputLimits,
}

/// One change `repair` made, at byte offsets of the input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Repair {
    pub kind: RepairKind,
    pub start: usize,
    pub end: usize,
    pub message: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RepairKind {
    TrailingComma,
    Comment,
    ControlCharacter,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExtractErrorKind {
    /// Nothing in the text looks like JSON.
    NoJson,
    /// The chosen candidate starts like JSON but is not valid JSON.
    InvalidJson,
    /// JSON that the end of the text cuts off.
    Truncated,
    /// The candidate (or the text) is larger than `maxOutputBytes`.
    TooLarge,
    /// The candidate nests deeper than `maxDepth`.
    TooDeep,
}

/// Why no value was extracted. Offsets are bytes of the input.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExtractError {
    pub kind: ExtractErrorKind,
    pub message: String,
    /// Where the problem is (for `invalid_json`, the offending byte).
    pub offset: usize,
    /// The candidate's span (empty for `no_json`).
    pub start: usize,
    pub end: usize,
    #[serde(skip)]
    violation: Violation,
}

impl ExtractError {
    /// The violation reported by `validate_text` with extraction (keyword `json`, `truncated`,
    /// `maxOutputBytes` or `maxDepth`).
    pub fn violation(&self) -> &Violation {
        &self.violation
    }
}

/// What `extract_json` found.
#[derive(Clone, Debug, PartialEq)]
pub struct Extraction {
    pub value: Option<Value>,
    /// The JSON text that was parsed: the input span, or its repaired form.
    pub json: Option<String>,
    /// Byte span of the value in the input, end exclusive.
    pub start: usize,
    pub end: usize,
    /// The language tag of the fence the value was in (`""` for an untagged fence).
    pub fence: Option<String>,
    /// The stretches of the input outside the value.
    pub skipped: Vec<Skipped>,
    pub repairs: Vec<Repair>,
    /// How many complete JSON values the text held (more than one: an earlier one was passed over).
    pub candidates: usize,
    pub error: Option<ExtractError>,
}

/// How offsets are counted when an extraction is written out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offsets {
    /// UTF-8 bytes (Rust, files).
    Bytes,
    /// UTF-16 code units (JavaScript strings: `text.slice(start, end)`).
    Utf16,
}

impl Extraction {
    pub fn found(&self) -> bool {
        self.value.is_some()
    }

    /// `{found, value, json, start, end, fence, skipped, repairs, candidates, error}`.
    pub fn to_json(&self, text: &str, offsets: Offsets) -> Value {
        let at = |b: usize| match offsets {
            Offsets::Bytes => b,
            Offsets::Utf16 => utf16_offset(text, b),
        };
        let (start, end) = if self.found() { (json!(at(self.start)), json!(at(self.end))) } else { (Value::Null, Value::Null) };
        json!({
            "found": self.found(),
            "value": self.value.clone().unwrap_or(Value::Null),
            "json": self.json,
            "start": start,
            "end": end,
            "fence": self.fence,
            "skipped": self.skipped.iter().map(|s| json!({"start": at(s.start), "end": at(s.end), "place": s.place})).collect::<Vec<_>>(),
            "repairs": self.repairs.iter().map(|r| json!({"kind": r.kind, "start": at(r.start), "end": at(r.end), "message": r.message})).collect::<Vec<_>>(),
            "candidates": self.candidates,
            "error": self.error.as_ref().map(|e| json!({
                "kind": e.kind, "message": e.message, "offset": at(e.offset), "start": at(e.start), "end": at(e.end),
            })),
        })
    }
}

const JSON_FENCE_LANGS: [&str; 4] = ["", "json", "jsonc", "json5"];
/// Fences inside fences are followed this deep (a markdown answer quoted in a fence).
const MAX_FENCE_NESTING: usize = 3;
/// Unclosed openers checked for being the start of truncated JSON, outermost first.
const MAX_TRUNCATION_PROBES: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CandidateKind {
    Complete,
    Truncated,
}

struct Candidate {
    start: usize,
    end: usize,
    kind: CandidateKind,
    /// The language tag of the enclosing fence.
    fence: Option<String>,
    /// The whole content of a fence (so it is JSON by the author's word).
    whole_fence: bool,
    /// The value, when finding the candidate already parsed it (taken by the first look).
    parsed: Cell<Option<Value>>,
}

impl Candidate {
    fn preferred(&self) -> bool {
        self.fence.as_deref().is_some_and(|l| JSON_FENCE_LANGS.contains(&l))
    }
}

/// Finds the JSON value in model text.
pub fn extract_json(text: &str, options: &ExtractOptions) -> Extraction {
    let body_start = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    if text.len() > options.limits.max_output_bytes {
        let v = output::too_large(text.len(), options.limits.max_output_bytes);
        return not_found(text, error(ExtractErrorKind::TooLarge, v, 0, 0, text.len()), 0);
    }
    // 1. The whole text is one value: the common case, one parse.
    let (s, e) = trim_span(text, body_start, text.len());
    if s < e {
        if let Ok(value) = parse_span(text, s, e, options.limits) {
            return found(text, value, None, s, e, None, Vec::new(), 1);
        }
    }
    // 2. Candidates from fences and prose.
    let mut candidates = Vec::new();
    collect(text, body_start, text.len(), 0, None, options.repair, options.limits.max_depth, &mut candidates);
    let complete = candidates.iter().filter(|c| c.kind == CandidateKind::Complete).count();
    let preferred: Vec<&Candidate> = candidates.iter().filter(|c| c.preferred()).collect();
    let all: Vec<&Candidate> = candidates.iter().collect();
    let decision = decide(text, &preferred, options).or_else(|| decide(text, &all, options));
    match decision {
        Some(Ok(chosen)) => {
            let Chosen { value, json, candidate, repairs } = chosen;
            found(text, value, Some(json), candidate.start, candidate.end, candidate.fence.clone(), repairs, complete)
        }
        Some(Err(e)) => not_found(text, e, complete),
        None => {
            let v = output::no_json(&crate::report::render::truncate_text(text, 80));
            not_found(text, error(ExtractErrorKind::NoJson, v, 0, 0, 0), complete)
        }
    }
}

struct Chosen<'c> {
    value: Value,
    json: String,
    candidate: &'c Candidate,
    repairs: Vec<Repair>,
}

/// Walks back from the last candidate; `None` when none of them decides.
fn decide<'c>(text: &str, candidates: &[&'c Candidate], options: &ExtractOptions) -> Option<Result<Chosen<'c>, ExtractError>> {
    for &c in candidates.iter().rev() {
        if c.kind == CandidateKind::Truncated {
            return Some(Err(truncated(text, c.start, c.end)));
        }
        // The error is built only for the candidate that decides: building it indexes the
        // whole text's lines, and prose braces can be many.
        match parse_candidate(text, c, options) {
            Ok((value, json, repairs)) => return Some(Ok(Chosen { value, json, candidate: c, repairs })),
            Err(f) if matches!(f, ParseFailure::TooLarge(_) | ParseFailure::TooDeep) => {
                return Some(Err(failure_error(text, c, f, options.limits)))
            }
            Err(f) if c.whole_fence && c.preferred() || looks_like_json(text, c.start) => {
                return Some(Err(failure_error(text, c, f, options.limits)))
            }
            Err(_) => {}
        }
    }
    None
}

// Every field of the extraction, as `extract_json` assembles it in one place.
#[allow(clippy::too_many_arguments)]
fn found(
    text: &str,
    value: Value,
    json: Option<String>,
    start: usize,
    end: usize,
    fence: Option<String>,
    repairs: Vec<Repair>,
    candidates: usize,
) -> Extraction {
    let json = json.or_else(|| text.get(start..end).map(str::to_string));
    Extraction {
        value: Some(value),
        json,
        start,
        end,
        fence,
        skipped: skipped_around(text, start, end),
        repairs,
        candidates,
        error: None,
    }
}

fn not_found(text: &str, e: ExtractError, candidates: usize) -> Extraction {
    Extraction {
        value: None,
        json: None,
        start: 0,
        end: 0,
        fence: None,
        skipped: skipped_around(text, text.len(), text.len()),
        repairs: Vec::new(),
        candidates,
        error: Some(e),
    }
}

fn skipped_around(text: &str, start: usize, end: usize) -> Vec<Skipped> {
    let mut out = Vec::new();
    if start > 0 {
        out.push(Skipped { start: 0, end: start, place: "before" });
    }
    if end < text.len() {
        out.push(Skipped { start: end, end: text.len(), place: "after" });
    }
    out
}

fn error(kind: ExtractErrorKind, violation: Violation, offset: usize, start: usize, end: usize) -> ExtractError {
    ExtractError { kind, message: violation.message.clone(), offset, start, end, violation }
}

fn truncated(text: &str, start: usize, end: usize) -> ExtractError {
    let pos = LineIndex::new(text).pos(end.saturating_sub(1));
    let tail = text.get(start..end).unwrap_or("");
    let v = Violation::of_output(
        "truncated",
        json!("a complete JSON value"),
        json!(tail_excerpt(tail, 40)),
        format!("output ends before the JSON value is complete (line {}, column {})", pos.line, pos.column),
    );
    error(ExtractErrorKind::Truncated, v, end, start, end)
}

fn tail_excerpt(s: &str, chars: usize) -> String {
    let start = s.char_indices().rev().nth(chars.saturating_sub(1)).map_or(0, |(i, _)| i);
    s.get(start..).unwrap_or("").to_string()
}

/// `[s, e)` without surrounding whitespace.
fn trim_span(text: &str, s: usize, e: usize) -> (usize, usize) {
    let part = text.get(s..e).unwrap_or("");
    let lead = part.len() - part.trim_start().len();
    let trail = part.len() - part.trim_end().len();
    if lead + trail >= part.len() {
        return (s, s);
    }
    (s + lead, e - trail)
}

/// Parses `text[s..e]` within the limits, with nothing else allowed around it.
fn parse_span(text: &str, s: usize, e: usize, limits: OutputLimits) -> Result<Value, ParseFailure> {
    let part = text.get(s..e).unwrap_or("");
    parse_str(part, limits)
}

enum ParseFailure {
    TooLarge(usize),
    TooDeep,
    Syntax { line: usize, column: usize, eof: bool, reason: String },
}

fn parse_str(part: &str, limits: OutputLimits) -> Result<Value, ParseFailure> {
    if part.len() > limits.max_output_bytes {
        return Err(ParseFailure::TooLarge(part.len()));
    }
    if output::nesting_depth(part.as_bytes(), limits.max_depth) > limits.max_depth {
        return Err(ParseFailure::TooDeep);
    }
    let mut de = serde_json::Deserializer::from_str(part);
    // Safe: the scan above bounds the nesting.
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de).and_then(|v: Value| de.end().map(|()| v)).map_err(|e| {
        if e.is_eof() {
            return ParseFailure::Syntax { line: e.line(), column: e.column(), eof: true, reason: String::new() };
        }
        let (line, column, reason) = output::syntax_error(part, &e);
        ParseFailure::Syntax { line, column, eof: false, reason }
    })
}

type Parsed = (Value, String, Vec<Repair>);

fn parse_candidate(text: &str, c: &Candidate, options: &ExtractOptions) -> Result<Parsed, ParseFailure> {
    let part = text.get(c.start..c.end).unwrap_or("");
    if let Some(v) = c.parsed.take() {
        if part.len() <= options.limits.max_output_bytes {
            return Ok((v, part.to_string(), Vec::new()));
        }
    }
    let first = match parse_str(part, options.limits) {
        Ok(v) => return Ok((v, part.to_string(), Vec::new())),
        Err(f) => f,
    };
    if options.repair {
        if let Some((fixed, mut repairs)) = repair(part) {
            if let Ok(v) = parse_str(&fixed, options.limits) {
                for r in &mut repairs {
                    r.start += c.start;
                    r.end += c.start;
                }
                return Ok((v, fixed, repairs));
            }
        }
    }
    Err(first)
}

fn failure_error(text: &str, c: &Candidate, failure: ParseFailure, limits: OutputLimits) -> ExtractError {
    match failure {
        ParseFailure::TooLarge(n) => {
            error(ExtractErrorKind::TooLarge, output::too_large(n, limits.max_output_bytes), c.start, c.start, c.end)
        }
        ParseFailure::TooDeep => error(ExtractErrorKind::TooDeep, output::too_deep(limits.max_depth), c.start, c.start, c.end),
        ParseFailure::Syntax { eof: true, .. } => truncated(text, c.start, c.end),
        ParseFailure::Syntax { line, column, reason, .. } => {
            let part = text.get(c.start..c.end).unwrap_or("");
            let offset = c.start + LineIndex::new(part).byte_of_byte_column(line, column);
            let pos = LineIndex::new(text).pos(offset);
            let head = text.get(c.start..(offset + 1).min(c.end)).or_else(|| text.get(c.start..offset)).unwrap_or("");
            let v = Violation::of_output(
                "json",
                json!("valid JSON"),
                json!(tail_excerpt(head, 40)),
                format!("invalid JSON at line {}, column {}: {reason}", pos.line, pos.column),
            );
            error(ExtractErrorKind::InvalidJson, v, offset, c.start, c.end)
        }
    }
}

/// Prose in braces is passed over; this tells it from JSON: what follows the opening bracket.
fn looks_like_json(text: &str, start: usize) -> bool {
    let bytes = text.as_bytes();
    let open = bytes.get(start).copied();
    let mut i = start + 1;
    loop {
        match bytes.get(i) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => i += 1,
            // A comment right after the bracket: JSON with comments, not prose.
            Some(b'/') if matches!(bytes.get(i + 1), Some(b'/' | b'*')) => return true,
            Some(&b) => {
                // A single quote after the bracket is JSON written with a language's own quotes
                // (`{'name': 'x'}`, a Python dict): meant as JSON, reported where it breaks.
                return match open {
                    Some(b'{') => matches!(b, b'"' | b'\'' | b'}'),
                    _ => matches!(b, b'{' | b'[' | b'"' | b'\'' | b']' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'),
                }
            }
            None => return false,
        }
    }
}

struct Fence {
    lang: String,
    /// The opening line's start.
    open: usize,
    content_start: usize,
    content_end: usize,
    /// Just past the closing line (or the end of the region when unclosed).
    after: usize,
}

/// The outermost fences in `text[from..to]`, by CommonMark's rules: up to three spaces of
/// indent, three or more backticks or tildes, closed by a line of at least as many of the same.
fn find_fences(text: &str, from: usize, to: usize) -> Vec<Fence> {
    let mut fences = Vec::new();
    let mut open: Option<(u8, usize, String, usize, usize)> = None; // char, length, lang, open, content start
    let mut line_start = from;
    while line_start < to {
        let line_end = text.get(line_start..to).and_then(|r| r.find('\n')).map_or(to, |i| line_start + i);
        let next = (line_end + 1).min(to);
        let line = text.get(line_start..line_end).unwrap_or("");
        let indent = line.len() - line.trim_start_matches(' ').len();
        let body = line.get(indent..).unwrap_or("");
        match &open {
            None if indent <= 3 => {
                if let Some((ch, len)) = fence_run(body) {
                    let info = body.get(len..).unwrap_or("").trim();
                    if !(ch == b'`' && info.contains('`')) {
                        let lang = info.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
                        open = Some((ch, len, lang, line_start, next));
                    }
                }
            }
            Some((ch, len, lang, start, content_start)) if indent <= 3 => {
                if let Some((c, l)) = fence_run(body) {
                    if c == *ch && l >= *len && body.get(l..).unwrap_or("").trim().is_empty() {
                        fences.push(Fence {
                            lang: lang.clone(),
                            open: *start,
                            content_start: *content_start,
                            content_end: line_start,
                            after: next,
                        });
                        open = None;
                    }
                }
            }
            _ => {}
        }
        if line_end >= to {
            break;
        }
        line_start = next;
    }
    if let Some((_, _, lang, start, content_start)) = open {
        fences.push(Fence { lang, open: start, content_start: content_start.min(to), content_end: to, after: to });
    }
    fences
}

/// A run of at least three backticks or tildes at the start of `line`.
fn fence_run(line: &str) -> Option<(u8, usize)> {
    let ch = *line.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = line.bytes().take_while(|&b| b == ch).count();
    (len >= 3).then_some((ch, len))
}

#[allow(clippy::too_many_arguments)]
fn collect(
    text: &str,
    from: usize,
    to: usize,
    nesting: usize,
    fence: Option<&str>,
    repair: bool,
    max_depth: usize,
    out: &mut Vec<Candidate>,
) {
    let fences = if nesting < MAX_FENCE_NESTING { find_fences(text, from, to) } else { Vec::new() };
    if fences.is_empty() {
        if let Some(lang) = fence {
            let (s, e) = trim_span(text, from, to);
            // A fence holding exactly one value (scalars included) is one candidate; the value
            // is kept, so the fence is not parsed again when the candidate is chosen.
            if s < e {
                let parsed = parse_span(text, s, e, OutputLimits { max_output_bytes: usize::MAX, max_depth }).ok();
                if parsed.is_some() || JSON_FENCE_LANGS.contains(&lang) && !looks_like_brackets(text, s) {
                    let fence = Some(lang.to_string());
                    out.push(Candidate { start: s, end: e, kind: CandidateKind::Complete, fence, whole_fence: true, parsed: Cell::new(parsed) });
                    return;
                }
            }
            // A bracketed span that is the fence's whole content is the author's JSON as well:
            // broken, it is reported where it breaks, not passed over as prose in braces.
            let before = out.len();
            scan_brackets(text, from, to, fence, repair, max_depth, out);
            for c in out.iter_mut().skip(before).filter(|c| (c.start, c.end) == (s, e)) {
                c.whole_fence = true;
            }
            return;
        }
        scan_brackets(text, from, to, fence, repair, max_depth, out);
        return;
    }
    let mut cursor = from;
    for f in fences {
        scan_brackets(text, cursor, f.open, fence, repair, max_depth, out);
        collect(text, f.content_start, f.content_end, nesting + 1, Some(&f.lang), repair, max_depth, out);
        cursor = f.after;
    }
    scan_brackets(text, cursor, to, fence, repair, max_depth, out);
}

fn looks_like_brackets(text: &str, s: usize) -> bool {
    matches!(text.as_bytes().get(s), Some(b'{' | b'['))
}

/// The outermost balanced `{…}`/`[…]` spans of `text[from..to]` (strings respected, and comments
/// with `repair`), then, if the region ends inside an opener that starts valid JSON, that
/// truncated span in place of the spans inside it.
fn scan_brackets(text: &str, from: usize, to: usize, fence: Option<&str>, repair: bool, max_depth: usize, out: &mut Vec<Candidate>) {
    let bytes = text.as_bytes();
    let mut stack: Vec<(usize, u8)> = Vec::new();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut strings = StringScan::default();
    let mut i = from;
    while i < to {
        let Some(&b) = bytes.get(i) else { break };
        if stack.is_empty() {
            if b == b'{' || b == b'[' {
                stack.push((i, b));
            }
            i += 1;
            continue;
        }
        if strings.inside(b) {
            i += 1;
            continue;
        }
        match b {
            b'/' if repair && bytes.get(i + 1) == Some(&b'/') => {
                i = text.get(i..to).and_then(|r| r.find('\n')).map_or(to, |n| i + n);
                continue;
            }
            b'/' if repair && bytes.get(i + 1) == Some(&b'*') => {
                i = text.get(i + 2..to).and_then(|r| r.find("*/")).map_or(to, |n| i + 2 + n + 2);
                continue;
            }
            b'{' | b'[' => stack.push((i, b)),
            b'}' | b']' => {
                let open = if b == b'}' { b'{' } else { b'[' };
                match stack.last() {
                    Some(&(s, o)) if o == open => {
                        stack.pop();
                        while spans.last().is_some_and(|&(ps, _)| ps > s) {
                            spans.pop();
                        }
                        spans.push((s, i + 1));
                    }
                    // A bracket that closes nothing open: prose, start over.
                    _ => stack.clear(),
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut truncated_at = None;
    for &(s, _) in stack.iter().take(MAX_TRUNCATION_PROBES) {
        let mut parser = Parser::new(usize::MAX, max_depth, false);
        parser.push(text.as_bytes().get(s..to).unwrap_or(&[]), &mut NoObserver);
        if matches!(parser.status(), Status::Incomplete) {
            truncated_at = Some(s);
            break;
        }
    }
    let lang = fence.map(str::to_string);
    for (s, e) in spans {
        if truncated_at.is_some_and(|t| s > t) {
            break;
        }
        out.push(Candidate { start: s, end: e, kind: CandidateKind::Complete, fence: lang.clone(), whole_fence: false, parsed: Cell::new(None) });
    }
    if let Some(s) = truncated_at {
        let (_, e) = trim_span(text, s, to);
        out.push(Candidate { start: s, end: e.max(s + 1), kind: CandidateKind::Truncated, fence: lang, whole_fence: false, parsed: Cell::new(None) });
    }
}

/// Fixes trailing commas, comments and raw control characters in strings; `None` when there was
/// nothing to fix. Offsets in the repairs are bytes of `part`; a comma or a comment is removed, a
/// control character replaced by its [`control_escape`]. (`checkSchema` repairs schema text with
/// it too.)
pub(crate) fn repair(part: &str) -> Option<(String, Vec<Repair>)> {
    let bytes = part.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut repairs = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if in_string {
            if escaped {
                escaped = false;
                out.push(b);
            } else if b == b'\\' {
                escaped = true;
                out.push(b);
            } else if b == b'"' {
                in_string = false;
                out.push(b);
            } else if b < 0x20 {
                out.extend_from_slice(control_escape(b).as_bytes());
                repairs.push(Repair {
                    kind: RepairKind::ControlCharacter,
                    start: i,
                    end: i + 1,
                    message: "escaped a raw control character (e.g. a newline) inside a string",
                });
            } else {
                out.push(b);
            }
            i += 1;
            continue;
        }
        if let Some(end) = comment_end(bytes, i) {
            repairs.push(Repair { kind: RepairKind::Comment, start: i, end, message: "removed a comment" });
            i = end;
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
                out.push(b);
            }
            b',' if closes_after(bytes, i + 1) => {
                repairs.push(Repair {
                    kind: RepairKind::TrailingComma,
                    start: i,
                    end: i + 1,
                    message: "removed a trailing comma",
                });
            }
            _ => out.push(b),
        }
        i += 1;
    }
    if repairs.is_empty() {
        return None;
    }
    String::from_utf8(out).ok().map(|s| (s, repairs))
}

/// The JSON escape of control character `b` inside a string: `\n`, `\r`, `\t`, else `\u00XX`.
pub(crate) fn control_escape(b: u8) -> String {
    match b {
        b'\n' => "\\n".to_string(),
        b'\r' => "\\r".to_string(),
        b'\t' => "\\t".to_string(),
        _ => format!("\\u{b:04x}"),
    }
}

/// The end of a `//` or `/* */` comment starting at `i`.
fn comment_end(bytes: &[u8], i: usize) -> Option<usize> {
    if bytes.get(i) != Some(&b'/') {
        return None;
    }
    match bytes.get(i + 1) {
        Some(b'/') => Some(bytes.get(i..)?.iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| i + n)),
        Some(b'*') => Some(bytes.get(i + 2..)?.windows(2).position(|w| w == b"*/").map_or(bytes.len(), |n| i + 2 + n + 2)),
        _ => None,
    }
}

/// Whether only whitespace and comments stand between `i` and a closing bracket.
fn closes_after(bytes: &[u8], mut i: usize) -> bool {
    loop {
        match bytes.get(i) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => i += 1,
            Some(b'}' | b']') => return true,
            Some(b'/') => match comment_end(bytes, i) {
                Some(end) => i = end,
                None => return false,
            },
            _ => return false,
        }
    }
}

