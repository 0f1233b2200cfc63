//! The validity of an output decided in one pass over its bytes, without building a value tree.
//!
//! Parsing into `serde_json::Value` costs most of a validation (allocation of every string, map
//! and array, hashing every key), and a valid output — the common case — needs none of it: only a
//! yes. A `Verdict` is the schema compiled into nodes that check the text as it is scanned.
//! Keywords whose semantics are simple and fixed (`type`, `properties`, `required`,
//! `patternProperties` (the names matched by the validator's patterns), `additionalProperties`,
//! `minProperties`/`maxProperties`, `items`, `prefixItems`,
//! `uniqueItems` (plain scalar items), `minItems`/`maxItems`, string `enum`/`const`, `minLength`/`maxLength`,
//! numeric bounds (from Draft 6, compared as the validator compares them), `allOf`/`anyOf`/`oneOf`/`not`, local `$ref`) are checked here;
//! `pattern` and `format` are the validator's (src/validator) compiled checks run on a string's content
//! (no value built); other scalar keywords (`multipleOf`, Draft 4's bounds, other `enum`s) are handed
//! the parsed scalar and the validator's check of them; any other keyword hands the
//! validator the whole subtree at that node. So every answer is the validator's answer.
//!
//! The verdict is one-sided: `true` means valid; anything else (a violation, a syntax error, a
//! limit reached) sends the caller to the full path, which builds the canonical error — unless
//! `units` finds the few subtrees that hold every violation, so that only they are parsed and
//! handed to the validator (tests/verdict.rs and the spec suite check that this report is the full
//! path's, violation for violation). Schemas
//! whose meaning depends on the dynamic scope (`$dynamicRef`, `$recursiveRef`) or on nested
//! base URIs (`$id`, `$anchor` below the root) get no verdict at all.
use crate::validator::leaf::{self, Bound};
use crate::validator::outline::Outline;
use crate::validator::{Kw, Validator};
use serde_json::Value;

use crate::json::path::{InstancePath, Segment};
use crate::json::lex;
use crate::json::names::NameHashes;

pub(crate) mod glide;

/// The validator's nodes planned for the text: `nodes[i]` is how node `i` of the validator is
/// checked while scanning, so a node the plan cannot check itself is the validator's to judge
/// (`VerdictNode::Delegate`), at that same node.
pub(crate) struct Verdict {
    nodes: Vec<VerdictNode>,
    root: usize,
    /// Every node a value can reach from the root is one the resumed scan reads (`glide`), so
    /// that a valid stream is read by it to its end.
    resumable: bool,
    /// For each node, where the resumed scan reads a value there (`glide::entries`).
    entries: Vec<[usize; glide::KINDS]>,
}

pub enum Judgement {
    Valid,
    /// Invalid, or not judged (the full path decides). `violated`: a value broke the schema
    /// (a text that parses is then invalid, and its validation need not ask first).
    Invalid { locate: bool, violated: bool },
}

/// A subtree of an invalid output whose violations the validator finds by validating it alone
/// against the subschema at `pointer` (see `Verdict::units`).
pub struct Unit {
    /// The validator's node of the subschema, and the evaluation path that reached it.
    pub node: usize,
    pub schema_path: String,
    pub span: std::ops::Range<usize>,
    /// Where the subtree is in the output, and its document-order key.
    pub path: InstancePath,
    pub order: Vec<usize>,
    /// Not empty: the unit is an object whose only failures of its own are these names its
    /// `required` lists and it lacks (its values' failures are in units of their own). They are
    /// reported from the text: a large object (a root without one of its properties) is then
    /// neither parsed nor validated whole.
    pub missing: Vec<String>,
}

enum VerdictNode {
    Any,
    Nothing,
    /// The validator checks the parsed subtree against this node.
    Delegate,
    Check(Box<Checks>),
}

/// The validator's type bits; `NUMBER` here also admits integers (see `Checks::types`).
use crate::validator::{ARRAY, BOOLEAN, INTEGER, NULL, NUMBER, OBJECT, STRING};

#[derive(Default)]
struct Checks {
    /// The validator's node these checks plan.
    node: usize,
    /// The resumed scan reads a value here on these checks alone (`glide::simple`), told once
    /// for each of the many times it asks.
    glides: bool,
    /// Allowed types (0: any). `NUMBER` implies integers.
    types: u8,
    /// `enum`/`const` whose values are all strings.
    strings: Option<Vec<String>>,
    /// The strings of an `enum` that has values of other types too (the resumed scan tells a
    /// string against them as it grows, as the stream's checks do).
    mixed_strings: Option<Vec<String>>,
    /// `enum`/`const` whose values are all scalars: an array or object never matches.
    scalar_only: bool,
    /// The types of those values (type bits).
    choice_kinds: u8,
    min_length: Option<u64>,
    max_length: Option<u64>,
    /// The node's keywords (by index) that the validator checks on a parsed scalar, and which
    /// scalars they concern.
    scalar: Vec<usize>,
    /// `pattern` and `format`: keywords (by index) the validator checks on a string's content.
    string_keywords: Vec<usize>,
    scalar_strings: bool,
    scalar_numbers: bool,
    scalar_literals: bool,
    /// `integer` without `number`: a number written with a fraction or exponent needs `scalar`.
    integer_only: bool,
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (Draft 6 on): checked here,
    /// so that a bounded number needs no validator (whose evaluation code a first validation
    /// would otherwise compile lazily, lengthening the cold start).
    bounds: Vec<(Bound, serde_json::Number)>,
    /// `properties` and `required`, sorted by `key_order`.
    keys: Vec<KeyRule>,
    /// `patternProperties`: the validator's pattern for the name, the node its values must
    /// match, and the pattern as a JSON Pointer token (for `locate`'s evaluation paths).
    patterns: Vec<(usize, usize, String)>,
    required: usize,
    additional: Option<usize>,
    min_properties: Option<u64>,
    max_properties: Option<u64>,
    objects: bool,
    prefix: Vec<usize>,
    items: Option<usize>,
    /// The keywords `prefix` and `items` stand for (`prefixItems`/`items`, or `items` as an
    /// array/`additionalItems` before 2020-12).
    prefix_keyword: &'static str,
    items_keyword: &'static str,
    /// `uniqueItems`: checked here when every item is a plain scalar, else by the validator
    /// (this keyword, by index) on the parsed array.
    unique: Option<usize>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    arrays: bool,
    all: Vec<usize>,
    any: Vec<usize>,
    one: Vec<usize>,
    not: Option<usize>,
    /// The node is a `$ref` and nothing else: `locate` follows it as if it were the target.
    via_ref: Option<usize>,
    /// The node is a union of objects told apart by one member (`glide::tag_unions`).
    tagged: Option<Box<glide::Tagged>>,
}

struct KeyRule {
    name: String,
    /// `name` as a JSON Pointer token, for `locate`'s evaluation paths.
    token: String,
    node: Option<usize>,
    required: Option<usize>,
}

/// A member of an object read up to its value (`Run::member`).
struct Member<'c> {
    /// The name's string token, quotes included.
    key: std::ops::Range<usize>,
    rule: Option<&'c KeyRule>,
    /// The `patternProperties` (bits, in order) whose pattern the name matches.
    patterns: u64,
    /// Where the value starts.
    value: usize,
}

impl Checks {
    /// Whether an object of `count` members meets `minProperties` and `maxProperties`.
    #[inline]
    fn count_fits(&self, count: u64) -> bool {
        !(self.min_properties.is_some_and(|m| count < m) || self.max_properties.is_some_and(|m| count > m))
    }

    /// Whether `seen` (bits of `KeyRule::required`) has every name `required` lists; never
    /// past 64 names, of which no bits are kept.
    #[inline]
    fn has_required(&self, seen: u64) -> bool {
        let all = if self.required >= 64 { u64::MAX } else { (1u64 << self.required) - 1 };
        seen & all == all
    }
}

/// Past this nesting the verdict gives up (the full path applies the configured limit); it keeps
/// the recursion of both the verdict and serde_json's parse of a delegated subtree bounded.
const MAX_NESTING: usize = 120;
/// Bounds evaluation that does not consume input (`{"allOf": [{"$ref": "#"}]}`).
const MAX_FRAMES: usize = 600;

impl Verdict {
    /// Plans the validator's nodes for the text, or `None` when the schema's meaning depends on
    /// the dynamic scope (`$dynamicRef`, `$recursiveRef`): a node judged on its own, as the
    /// plan judges them, could then be judged otherwise than in its scope.
    pub fn compile(validator: &Validator) -> Option<Verdict> {
        if validator.uses_dynamic_scope() {
            return None;
        }
        let mut nodes: Vec<Option<VerdictNode>> = Vec::new();
        crate::validator::keywords::for_each_node(validator.root(), |n| validator.keywords(n), |id| {
            if nodes.len() <= id {
                nodes.resize_with(id + 1, || None);
            }
            let node = plan(validator, id);
            // The nodes below a node judged on the text are judged there too; the validator
            // judges a delegated node whole.
            let follow = matches!(node, VerdictNode::Check(_));
            if let Some(slot) = nodes.get_mut(id) {
                *slot = Some(node);
            }
            follow
        });
        // A node below a delegated one is never reached by the scan from the root; judged on its
        // own (`judge_at`) it is the validator's.
        let mut verdict = Verdict { nodes: nodes.into_iter().map(|n| n.unwrap_or(VerdictNode::Delegate)).collect(), root: validator.root(), resumable: false, entries: Vec::new() };
        glide::mark_simple(&mut verdict);
        glide::tag_unions(&mut verdict);
        verdict.entries = glide::entries(&verdict);
        verdict.resumable = glide::covers(&verdict);
        Some(verdict)
    }

    /// Whether a stream is worth reading with the resumed scan (see `resumable`).
    pub(crate) fn resumable(&self) -> bool {
        self.resumable
    }

    /// Whether `text`, one JSON value with no repeated member name, is valid at node `node`
    /// judged alone (what `Validator::node_is_valid` says of its value); `None` when the verdict
    /// cannot tell.
    pub fn judge_at(&self, validator: &Validator, node: usize, text: &str) -> Option<bool> {
        let mut run = Run::new(self, validator, text, MAX_NESTING);
        match run.eval(node, 0, 0) {
            Ok(end) if end == text.len() => Some(true),
            Err(Stop::Fail) => Some(false),
            _ => None,
        }
    }

    /// Whether `text` is one JSON value with no repeated member name (nesting within the
    /// verdict's limit).
    pub fn well_formed(&self, validator: &Validator, text: &str) -> bool {
        let run = Run::new(self, validator, text, MAX_NESTING);
        matches!(run.skip(0, 0), Ok(end) if end == text.len())
    }

    /// True when `text` is one JSON value valid against the schema; false when it is not, or
    /// when the verdict cannot tell (the full path decides then).
    /// Nesting deeper than `max_depth` (containers) is left to the full path, which reports it.
    pub fn is_valid(&self, validator: &Validator, text: &str, max_depth: usize) -> bool {
        matches!(self.judge(validator, text, max_depth), Judgement::Valid)
    }

    /// `is_valid`, and for a refused output whether `locate` is worth a try.
    pub fn judge(&self, validator: &Validator, text: &str, max_depth: usize) -> Judgement {
        let mut run = Run::new(self, validator, text, max_depth);
        let start = run.ws(0);
        match run.eval(self.root, start, 0) {
            Ok(end) if run.ws(end) == text.len() => Judgement::Valid,
            // `locate` would give up: a syntax error or a limit, or a container failing on its
            // own keywords that spans most of the output (its second pass would be wasted).
            Ok(_) | Err(Stop::Bail) => Judgement::Invalid { locate: false, violated: false },
            Err(Stop::Fail) => Judgement::Invalid { locate: run.own_failure <= text.len() / 2, violated: true },
        }
    }

    /// For an output `is_valid` refused: the smallest subtrees that hold all its violations, so
    /// that only they are parsed and validated for the report. A failing node is split into its
    /// children when it is an object (array) whose failures all lie in values under `properties`
    /// (`items`, `prefixItems`): the validator reports those values' errors, and nothing else, for
    /// it then; a node that is only a `$ref` is followed. An object whose own failure is only
    /// names its `required` lists is split too, and is a unit of those names alone (`missing`).
    /// An array with `uniqueItems` is split only when its items are distinct plain scalars
    /// (told from their text). Anything else about a failing node (its other own keywords, a
    /// combinator, a reference beside other keywords, `additionalProperties`,
    /// `patternProperties`) makes the whole node one unit.
    /// `None` when the whole output is the unit, or when the verdict cannot tell (a syntax error,
    /// a limit, a repeated or escaped property name): the full path reports then.
    pub fn units(&self, validator: &Validator, text: &str, max_depth: usize) -> Option<Vec<Unit>> {
        let mut run = Run::new(self, validator, text, max_depth);
        let start = run.ws(0);
        // Room for a few levels at once, so that the walk does not grow them a step at a time
        // (it showed in the profile of invalid outputs).
        let mut at = Located { path: Vec::with_capacity(8), order: Vec::with_capacity(8), schema: String::with_capacity(128), units: Vec::new() };
        let end = run.locate(self.root, start, 0, &mut at).ok()?;
        if run.ws(end) != text.len() || at.units.is_empty() || at.units.iter().any(|u| u.path.is_empty() && u.missing.is_empty()) {
            return None;
        }
        Some(at.units)
    }
}

struct Located {
    /// Property names as their spans in the text (with quotes), copied only into a unit.
    path: Vec<PathStep>,
    order: Vec<usize>,
    /// The evaluation path (keywordLocation) that led here.
    schema: String,
    units: Vec<Unit>,
}

#[derive(Clone)]
enum PathStep {
    Key(std::ops::Range<usize>),
    Index(usize),
}

/// The keyword under which `locate` goes down to a child.
enum Keyword<'k> {
    /// A property's name as a JSON Pointer token.
    Property(&'k str),
    Items(&'static str),
    Prefix(&'static str, usize),
    /// A `patternProperties` pattern as a JSON Pointer token.
    Pattern(&'k str),
    Additional,
}

/// How `locate` left a container: its failures (if any) are in units below it, or it must be a
/// unit itself, or (an object) it lacks required names and nothing else of its own fails.
enum Split {
    Done(usize),
    Whole,
    Missing(usize, Vec<String>),
}

/// How node `id` of the validator is checked while scanning. Keywords with simple, fixed meanings are checked on the text; scalar
/// keywords are handed the string's content (`string_keyword_is_valid`: `pattern`, `format`) or
/// the parsed scalar (`keyword_is_valid`); a node with any other keyword is
/// the validator's to judge whole (`VerdictNode::Delegate`).
fn plan(validator: &Validator, id: usize) -> VerdictNode {
    let kws = validator.keywords(id);
    if kws.is_empty() {
        return VerdictNode::Any;
    }
    let o = Outline::of(kws);
    // No type name the validator knows: nothing passes.
    if o.always_false || matches!(o.types, Some((_, 0, _))) {
        return VerdictNode::Nothing;
    }
    let mut c = Checks { node: id, prefix_keyword: "prefixItems", items_keyword: "items", ..Checks::default() };
    if let Some((index, mask, _)) = o.types {
        c.types |= mask | if mask & NUMBER != 0 { INTEGER } else { 0 };
        if mask & INTEGER != 0 && mask & NUMBER == 0 {
            c.integer_only = true;
            c.scalar.push(index);
        }
    }
    if o.choices.len() > 1 {
        return VerdictNode::Delegate;
    }
    for &(index, keyword, values) in &o.choices {
        let values: Vec<&Value> = match (keyword, values) {
            ("enum", Value::Array(list)) => list.iter().collect(),
            ("const", one) => vec![one],
            _ => return VerdictNode::Delegate,
        };
        if values.iter().any(|v| v.is_array() || v.is_object()) {
            return VerdictNode::Delegate;
        }
        c.scalar_only = true;
        for v in &values {
            c.choice_kinds |= match v {
                Value::Null => NULL,
                Value::Bool(_) => BOOLEAN,
                Value::Number(_) => NUMBER | INTEGER,
                _ => STRING,
            };
        }
        if values.iter().all(|v| v.is_string()) {
            c.strings = Some(values.iter().filter_map(|v| v.as_str().map(str::to_string)).collect());
        } else {
            if c.choice_kinds & STRING != 0 {
                c.mixed_strings = Some(values.iter().filter_map(|v| v.as_str().map(str::to_string)).collect());
            }
            c.scalar.push(index);
            c.scalar_strings = true;
            c.scalar_numbers = true;
            c.scalar_literals = true;
        }
    }
    c.min_length = o.min_length;
    c.max_length = o.max_length;
    c.min_items = o.min_items;
    c.max_items = o.max_items;
    c.unique = o.unique;
    (c.prefix, c.prefix_keyword, c.items, c.items_keyword) = o.items_rule();
    c.arrays = c.min_items.is_some() || c.max_items.is_some() || c.unique.is_some() || o.items.is_some();
    // Matches are kept as bits of a u64.
    let required = match o.required {
        Some(names) if names.len() > 64 => return VerdictNode::Delegate,
        Some(names) => names,
        None => &[],
    };
    c.min_properties = o.min_properties;
    c.max_properties = o.max_properties;
    for (name, node) in o.properties.unwrap_or_default() {
        c.keys.push(KeyRule { name: name.clone(), token: crate::json::path::escape_pointer_token(name).into_owned(), node: Some(*node), required: None });
    }
    match o.patterns {
        Some(list) if list.len() > 64 => return VerdictNode::Delegate,
        Some(list) => c.patterns = list.iter().map(|(pattern, source, node)| (*pattern, *node, crate::json::path::escape_pointer_token(source).into_owned())).collect(),
        None => {}
    }
    c.additional = o.additional;
    c.objects = o.required.is_some() || c.min_properties.is_some() || c.max_properties.is_some() || o.properties.is_some() || o.patterns.is_some() || o.additional.is_some();
    c.all.extend(o.reference);
    c.all.extend_from_slice(o.all_of.unwrap_or_default());
    for &(kw, list) in &o.disjunctions {
        let branches = if matches!(kw, Kw::OneOf(_)) { &mut c.one } else { &mut c.any };
        *branches = list.to_vec();
    }
    c.not = o.not;
    for &(index, kw) in &o.others {
        match kw {
            Kw::Minimum(n) => c.bounds.push((Bound::Minimum, n.clone())),
            Kw::Maximum(n) => c.bounds.push((Bound::Maximum, n.clone())),
            Kw::ExclusiveMinimum(n) => c.bounds.push((Bound::ExclusiveMinimum, n.clone())),
            Kw::ExclusiveMaximum(n) => c.bounds.push((Bound::ExclusiveMaximum, n.clone())),
            Kw::MultipleOf(_) => {
                c.scalar.push(index);
                c.scalar_numbers = true;
            }
            Kw::Pattern(..) | Kw::Format(..) => c.string_keywords.push(index),
            // Every name is a string: a `propertyNames` that takes any string constrains nothing
            // (Zod writes `{"type": "string"}` for every record).
            Kw::PropertyNames(names) if takes_any_string(validator.keywords(*names)) => {}
            _ => return VerdictNode::Delegate,
        }
    }
    // `required` after `properties`, so that a name in both is one rule.
    for name in required {
        if c.keys.iter().any(|r| r.name == *name && r.required.is_some()) {
            continue;
        }
        let bit = c.required;
        c.required += 1;
        match c.keys.iter_mut().find(|r| r.name == *name) {
            Some(rule) => rule.required = Some(bit),
            None => c.keys.push(KeyRule { name: name.clone(), token: crate::json::path::escape_pointer_token(name).into_owned(), node: None, required: Some(bit) }),
        }
    }
    if let [Kw::Ref(target)] = kws {
        c.via_ref = Some(*target);
    }
    // By length first (`find_key`): most lookups then decide on the lengths, without
    // comparing bytes.
    crate::sort::sort_by(&mut c.keys, |a, b| key_order(&a.name, &b.name));
    VerdictNode::Check(Box::new(c))
}

/// Whether a node of these keywords takes every string: none, or a `type` that lets strings in.
fn takes_any_string(kws: &[Kw]) -> bool {
    kws.iter().all(|kw| matches!(kw, Kw::Type { mask, .. } if mask & STRING != 0))
}

/// The names of one object so far, to tell a repeated one (a violation of its own, which the
/// full path reports: see `check::output::repeated_name`). A name the schema lists is told by
/// its rule's bit, compared with no other; the others by the hash of their text as written
/// (`NameHashes`: a collision only sends the output to the full path, which decides).
#[derive(Default)]
struct Names {
    listed: u64,
    unlisted: NameHashes,
}

impl Names {
    /// Adds the name written without escapes at `token` (quotes included), whose rule is
    /// `rule`: true when the object has it already.
    #[inline]
    fn repeated(&mut self, bytes: &[u8], token: std::ops::Range<usize>, rule: Option<usize>) -> bool {
        match self.listed(rule) {
            Some(again) => again,
            None => !self.unlisted.insert(bytes.get(token).unwrap_or_default()),
        }
    }

    /// Adds a name written with escapes, `name` decoded: hashed as the same name written
    /// without escapes would be.
    fn repeated_decoded(&mut self, name: &[u8], rule: Option<usize>) -> bool {
        match self.listed(rule) {
            Some(again) => again,
            None => !self.unlisted.insert(&[b"\"", name, b"\""].concat()),
        }
    }

    /// As new, for another object.
    fn clear(&mut self) {
        self.listed = 0;
        self.unlisted.clear();
    }

    /// For a name the schema lists (by its rule's bit): whether it came before.
    fn listed(&mut self, rule: Option<usize>) -> Option<bool> {
        let bit = 1u64 << rule.filter(|&i| i < 64)?;
        let again = self.listed & bit != 0;
        self.listed |= bit;
        Some(again)
    }
}

fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| {
        a.bytes().zip(b.bytes()).find(|(x, y)| x != y).map_or(std::cmp::Ordering::Equal, |(x, y)| x.cmp(&y))
    })
}

/// The index of the rule for `key` in `keys` (sorted by `key_order`): the names of its length
/// found first, then compared: most lookups decide on the lengths alone, where a binary search
/// would compare whole names at each step and branch in a way the CPU cannot predict.
#[inline]
fn find_key(keys: &[KeyRule], key: &[u8]) -> Option<usize> {
    let len = key.len();
    let start = if keys.len() <= 8 { keys.iter().position(|r| r.name.len() >= len)? } else { keys.partition_point(|r| r.name.len() < len) };
    let same = keys.get(start..)?.iter().take_while(|r| r.name.len() == len);
    // Byte by byte, not by `memcmp`: names are short, and wasm's `memcmp` is a call to a byte loop.
    same.clone().position(|r| r.name.bytes().zip(key.iter()).all(|(a, &b)| a == b)).map(|i| start + i)
}

/// Why evaluation stopped: `Fail` is a violation (an `anyOf` branch may absorb it); `Bail` is
/// anything else — a syntax error, a limit — and ends the verdict.
enum Stop {
    Fail,
    Bail,
}

type Step = Result<usize, Stop>;

struct Run<'a> {
    text: &'a str,
    bytes: &'a [u8],
    verdict: &'a Verdict,
    validator: &'a Validator,
    frames: usize,
    /// A container at this depth (0 for the root) would nest one level too deep.
    max_depth: usize,
    /// The string handed to a scalar validator, its buffer reused from one string to the next.
    scratch: Value,
    /// A string with escapes, decoded; its buffer reused likewise.
    unescaped: String,
    /// The span of the last container that failed on its own keywords (`required`, counts,
    /// `uniqueItems`): `judge`'s hint that `locate` would find one unit of most of the output.
    own_failure: usize,
}

impl<'a> Run<'a> {
    fn new(verdict: &'a Verdict, validator: &'a Validator, text: &'a str, max_depth: usize) -> Self {
        Run {
            text,
            bytes: text.as_bytes(),
            verdict,
            validator,
            frames: 0,
            max_depth: max_depth.min(MAX_NESTING),
            scratch: Value::String(String::new()),
            unescaped: String::new(),
            own_failure: 0,
        }
    }

    fn at(&self, pos: usize) -> Option<u8> {
        self.bytes.get(pos).copied()
    }

    #[inline]
    fn ws(&self, pos: usize) -> usize {
        lex::skip_ws(self.bytes, pos)
    }

    fn eval(&mut self, node: usize, pos: usize, depth: usize) -> Step {
        if self.frames >= MAX_FRAMES {
            return Err(Stop::Bail);
        }
        self.frames += 1;
        let result = self.eval_node(node, pos, depth);
        self.frames -= 1;
        result
    }

    fn eval_node(&mut self, node: usize, pos: usize, depth: usize) -> Step {
        match self.verdict.nodes.get(node) {
            Some(VerdictNode::Any) => self.skip(pos, depth),
            Some(VerdictNode::Nothing) => Err(Stop::Fail),
            Some(VerdictNode::Delegate) => {
                let end = self.skip(pos, depth)?;
                let value: Value = self.text.get(pos..end).and_then(|t| serde_json::from_str(t).ok()).ok_or(Stop::Bail)?;
                if self.validator.node_is_valid(node, &value) {
                    Ok(end)
                } else {
                    Err(Stop::Fail)
                }
            }
            Some(VerdictNode::Check(c)) => self.check(c, pos, depth),
            None => Err(Stop::Bail),
        }
    }

    fn check(&mut self, c: &Checks, pos: usize, depth: usize) -> Step {
        // A container with no keyword of its own here (a `$ref`, an `anyOf` of objects) is read
        // by the subschemas below, which find its end: skipping it here would read it twice, and
        // once more for each such node above it (a chain of `$ref`s, a recursive schema).
        let end = match self.at(pos) {
            Some(open @ (b'{' | b'[')) => {
                let (kind, own) = if open == b'{' { (OBJECT, c.objects) } else { (ARRAY, c.arrays) };
                if (c.types != 0 && c.types & kind == 0) || c.scalar_only {
                    return Err(Stop::Fail);
                }
                match (own, open) {
                    (false, _) => None,
                    (true, b'{') => Some(self.object(c, pos, depth)?),
                    (true, _) => Some(self.array(c, pos, depth)?),
                }
            }
            Some(b'"') => {
                let (end, escaped) = self.string(pos)?;
                if c.types != 0 && c.types & STRING == 0 {
                    return Err(Stop::Fail);
                }
                let scalar = !c.scalar.is_empty() && c.scalar_strings;
                if c.strings.is_some() || c.min_length.is_some() || c.max_length.is_some() || scalar || !c.string_keywords.is_empty() {
                    let raw = self.text.get(pos + 1..end - 1).ok_or(Stop::Bail)?;
                    // The content as written when it has no escapes (most strings), else decoded
                    // into a buffer kept from one string to the next.
                    let mut unescaped = std::mem::take(&mut self.unescaped);
                    let content = if escaped {
                        lex::unescape(raw, &mut unescaped).ok_or(Stop::Bail)?;
                        unescaped.as_str()
                    } else {
                        raw
                    };
                    let valid = self.string_valid(c, content, scalar);
                    self.unescaped = unescaped;
                    if !valid {
                        return Err(Stop::Fail);
                    }
                }
                Some(end)
            }
            Some(b't' | b'f' | b'n') => {
                let (end, kind) = self.literal(pos)?;
                if (c.types != 0 && c.types & kind == 0) || c.strings.is_some() {
                    return Err(Stop::Fail);
                }
                if !c.scalar.is_empty() && c.scalar_literals {
                    let value = match kind {
                        NULL => Value::Null,
                        _ => Value::Bool(self.at(pos) == Some(b't')),
                    };
                    if !self.scalar_valid(c, &value) {
                        return Err(Stop::Fail);
                    }
                }
                Some(end)
            }
            Some(b'-' | b'0'..=b'9') => {
                let (end, integral) = self.number(pos)?;
                if c.strings.is_some() || (c.types != 0 && c.types & (INTEGER | NUMBER) == 0) {
                    return Err(Stop::Fail);
                }
                self.number_holds(c, pos, end, integral)?;
                Some(end)
            }
            _ => return Err(Stop::Bail),
        };
        let mut end = end;
        for &n in &c.all {
            let after = self.eval(n, pos, depth)?;
            end.get_or_insert(after);
        }
        if !c.any.is_empty() {
            let mut matched = false;
            for &n in &c.any {
                match self.eval(n, pos, depth) {
                    Ok(after) => {
                        end.get_or_insert(after);
                        matched = true;
                        break;
                    }
                    Err(Stop::Fail) => {}
                    Err(Stop::Bail) => return Err(Stop::Bail),
                }
            }
            if !matched {
                return Err(Stop::Fail);
            }
        }
        if !c.one.is_empty() {
            let mut matches = 0;
            for &n in &c.one {
                match self.eval(n, pos, depth) {
                    Ok(after) => {
                        end.get_or_insert(after);
                        matches += 1;
                    }
                    Err(Stop::Fail) => {}
                    Err(Stop::Bail) => return Err(Stop::Bail),
                }
            }
            if matches != 1 {
                return Err(Stop::Fail);
            }
        }
        if let Some(n) = c.not {
            match self.eval(n, pos, depth) {
                Ok(_) => return Err(Stop::Fail),
                Err(Stop::Fail) => {}
                Err(Stop::Bail) => return Err(Stop::Bail),
            }
        }
        match end {
            Some(end) => Ok(end),
            None => self.skip(pos, depth),
        }
    }

    /// The number at `pos..end` (`integral`: written without a fraction or exponent) against
    /// the node's number keywords, its type aside.
    fn number_holds(&mut self, c: &Checks, pos: usize, end: usize, integral: bool) -> Result<(), Stop> {
        // "integer" accepts 1.0 (Draft 6 on) and not 1.5: the validator decides those.
        let needs_scalar = c.scalar_numbers || (c.integer_only && !integral);
        let scalar = needs_scalar && !c.scalar.is_empty();
        if scalar || !c.bounds.is_empty() {
            // An integer of up to 18 digits is the number serde_json would read, without its
            // parser (bounded integers are most numbers in outputs).
            let small = if integral { self.bytes.get(pos..end).and_then(integer) } else { None };
            let value: Value = match small {
                Some(n) => Value::Number(n.into()),
                None => self.text.get(pos..end).and_then(|t| serde_json::from_str(t).ok()).ok_or(Stop::Bail)?,
            };
            if scalar && !self.scalar_valid(c, &value) {
                return Err(Stop::Fail);
            }
            if let Value::Number(n) = &value {
                if !c.bounds.iter().all(|(bound, limit)| leaf::bound_holds(*bound, n, limit)) {
                    return Err(Stop::Fail);
                }
            }
        } else if c.integer_only && !integral {
            return Err(Stop::Bail);
        }
        Ok(())
    }

    /// Whether the string whose content is `content` satisfies the node's string keywords
    /// (`scalar`: and its scalar keywords, a mixed `enum`, on the string as a value).
    fn string_valid(&mut self, c: &Checks, content: &str, scalar: bool) -> bool {
        if let Some(allowed) = &c.strings {
            if !leaf::string_choice_holds(allowed.iter().map(String::as_str), content) {
                return false;
            }
        }
        if c.min_length.is_some_and(|m| !leaf::min_length_holds(content, m)) || c.max_length.is_some_and(|m| !leaf::max_length_holds(content, m)) {
            return false;
        }
        if !c.string_keywords.iter().all(|&index| self.validator.string_keyword_is_valid(c.node, index, content) != Some(false)) {
            return false;
        }
        if scalar {
            if let Value::String(buffer) = &mut self.scratch {
                buffer.clear();
                buffer.push_str(content);
            }
            return self.scalar_valid(c, &self.scratch);
        }
        true
    }

    /// Whether a parsed scalar satisfies the node's scalar keywords (the validator's checks).
    fn scalar_valid(&self, c: &Checks, value: &Value) -> bool {
        c.scalar.iter().all(|&index| self.validator.keyword_is_valid(c.node, index, value))
    }

    /// The `patternProperties` (bits, in order) whose pattern the property name matches.
    #[inline]
    fn patterns_matched(&self, c: &Checks, name: &str) -> u64 {
        let mut matched = 0u64;
        for (i, (pattern, _, _)) in c.patterns.iter().enumerate() {
            if self.validator.name_matches(*pattern, name) {
                matched |= 1 << i;
            }
        }
        matched
    }

    /// Past the colon after a property name ending at `key_end`: where its value starts.
    #[inline]
    fn value_start(&self, key_end: usize) -> Step {
        let p = self.ws(key_end);
        if self.at(p) != Some(b':') {
            return Err(Stop::Bail);
        }
        Ok(self.ws(p + 1))
    }

    /// Where the container opening at `pos` closes, by brackets and strings alone (its syntax is
    /// checked by whoever reads it next): a few instructions per byte where `skip` takes twenty.
    fn container_end(&self, pos: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut p = pos;
        loop {
            match self.at(p)? {
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(p + 1);
                    }
                }
                // Past the string, less one: the loop steps over its closing quote.
                b'"' => p = lex::string_end(self.bytes, p)?.0 - 1,
                _ => {}
            }
            p += 1;
        }
    }

    /// Past the bracket opening a container at `pos`: where its first member or item starts, and
    /// whether there is one (false: already past the empty container's `close`).
    fn open(&self, pos: usize, close: u8) -> (usize, bool) {
        let p = self.ws(pos + 1);
        if self.at(p) == Some(close) {
            (p + 1, false)
        } else {
            (p, true)
        }
    }

    /// Past the comma after a member or item (true: another follows) or past `close` (false).
    fn next_member(&self, p: &mut usize, close: u8) -> Result<bool, Stop> {
        let at = self.ws(*p);
        match self.at(at) {
            Some(b',') => {
                *p = self.ws(at + 1);
                Ok(true)
            }
            Some(b) if b == close => {
                *p = at + 1;
                Ok(false)
            }
            _ => Err(Stop::Bail),
        }
    }

    /// `Verdict::units` for the value at `pos` under `node`: its end; units pushed to `at`.
    fn locate(&mut self, node: usize, pos: usize, depth: usize, at: &mut Located) -> Step {
        if let Some(VerdictNode::Check(c)) = self.verdict.nodes.get(node) {
            if let Some(target) = c.via_ref {
                // Bounded like `eval`: a reference may lead back here without consuming input.
                if self.frames >= MAX_FRAMES {
                    return Err(Stop::Bail);
                }
                self.frames += 1;
                let len = at.schema.len();
                at.schema.push_str("/$ref");
                let result = self.locate(target, pos, depth, at);
                at.schema.truncate(len);
                self.frames -= 1;
                return result;
            }
        }
        let split = match (self.verdict.nodes.get(node), self.at(pos)) {
            (Some(VerdictNode::Check(c)), Some(open @ (b'{' | b'['))) if c.all.is_empty() && c.any.is_empty() && c.one.is_empty() && c.not.is_none() => {
                let (kind, own) = if open == b'{' { (OBJECT, c.objects) } else { (ARRAY, c.arrays) };
                if (c.types != 0 && c.types & kind == 0) || c.scalar_only || !own {
                    None
                } else {
                    let mark = at.units.len();
                    let split = if open == b'{' { self.locate_object(c, pos, depth, at)? } else { self.locate_array(c, pos, depth, at)? };
                    match split {
                        Split::Done(end) => return Ok(end),
                        Split::Whole => {
                            at.units.truncate(mark);
                            Some(())
                        }
                        Split::Missing(end, missing) => {
                            let path = self.unit_path(at)?;
                            let unit = Unit { node, schema_path: at.schema.clone(), span: pos..end, path, order: at.order.clone(), missing };
                            // Before the units of its values: document order, as the full path sorts.
                            at.units.insert(mark, unit);
                            return Ok(end);
                        }
                    }
                }
            }
            _ => None,
        };
        // A unit of most of the output saves no parsing, and the full path then costs less than
        // finishing this walk and validating the unit through a reference. A container that
        // would be judged whole is measured (skipped, which is cheap) before it is judged.
        let most = self.text.len() / 2;
        let end = match split {
            Some(()) => self.skip(pos, depth)?,
            None => {
                if matches!(self.at(pos), Some(b'{' | b'[')) && self.container_end(pos).is_none_or(|end| end - pos > most) {
                    return Err(Stop::Bail);
                }
                match self.eval(node, pos, depth) {
                    Ok(end) => return Ok(end),
                    Err(Stop::Fail) => self.skip(pos, depth)?,
                    Err(Stop::Bail) => return Err(Stop::Bail),
                }
            }
        };
        if end - pos > most {
            return Err(Stop::Bail);
        }
        let path = self.unit_path(at)?;
        at.units.push(Unit { node, schema_path: at.schema.clone(), span: pos..end, path, order: at.order.clone(), missing: Vec::new() });
        Ok(end)
    }

    /// The instance path `locate` is at.
    fn unit_path(&self, at: &Located) -> Result<InstancePath, Stop> {
        let mut path = InstancePath::root();
        for step in &at.path {
            path.push(match step {
                PathStep::Index(i) => Segment::Index(*i),
                PathStep::Key(raw) => Segment::Key(self.key(raw.clone())?.to_string()),
            });
        }
        Ok(path)
    }

    /// The property name written at `raw` (a string token, quotes included). `locate` follows
    /// no name with an escape: names are compared as written (see `locate_object`).
    fn key(&self, raw: std::ops::Range<usize>) -> Result<&'a str, Stop> {
        let text: &'a str = self.text;
        let token = text.get(raw).ok_or(Stop::Bail)?;
        token.get(1..token.len().saturating_sub(1)).filter(|name| !name.contains('\\')).ok_or(Stop::Bail)
    }

    fn locate_object(&mut self, c: &Checks, pos: usize, depth: usize, at: &mut Located) -> Result<Split, Stop> {
        if depth >= self.max_depth {
            return Err(Stop::Bail);
        }
        let mut whole = false;
        let mut seen: u64 = 0;
        let mut count: usize = 0;
        let mut names = Names::default();
        let (mut p, mut more) = self.open(pos, b'}');
        while more {
            // Names are compared as written (see `key`): one with an escape is not followed.
            let Member { key, rule, patterns, value } = self.member(c, p, &mut names, &mut seen, false)?;
            count += 1;
            let own = rule.and_then(|r| r.node);
            p = value;
            // Once the object is known to be one unit, its other values need no look.
            let index = count - 1;
            if c.max_properties.is_some_and(|m| index as u64 >= m) {
                whole = true;
            }
            let mut end = if whole { Some(self.skip(p, depth + 1)?) } else { None };
            // A value that answers to one pattern alone fails where its own violations are;
            // one that answers to several schemas makes its object one unit.
            let alone = own.is_none() && patterns.count_ones() == 1;
            for (i, (_, node, token)) in c.patterns.iter().enumerate() {
                if patterns & (1 << i) != 0 && !whole {
                    end = Some(if alone {
                        self.locate_child(*node, p, depth + 1, PathStep::Key(key.clone()), index, Keyword::Pattern(token), at, &mut whole)?
                    } else {
                        self.judge(*node, p, depth + 1, &mut whole)?
                    });
                }
            }
            // A value under `additionalProperties` fails where its own violations are, as a
            // property's does (`false` there is the parent's failure: `locate_child` judges it).
            if end.is_none() && own.is_none() && !whole {
                if let Some(node) = c.additional {
                    end = Some(self.locate_child(node, p, depth + 1, PathStep::Key(key.clone()), index, Keyword::Additional, at, &mut whole)?);
                }
            }
            if let (Some(node), Some(rule), false) = (own, rule, whole) {
                let keyword = Keyword::Property(&rule.token);
                end = Some(self.locate_child(node, p, depth + 1, PathStep::Key(key.clone()), index, keyword, at, &mut whole)?);
            }
            p = match end {
                Some(end) => end,
                None => self.skip(p, depth + 1)?,
            };
            more = self.next_member(&mut p, b'}')?;
        }
        if !c.count_fits(count as u64) {
            whole = true;
        }
        Ok(if whole {
            Split::Whole
        } else if c.has_required(seen) {
            Split::Done(p)
        } else if c.required < 64 {
            let missing = c.keys.iter().filter(|r| r.required.is_some_and(|bit| seen & (1 << bit) == 0)).map(|r| r.name.clone()).collect();
            Split::Missing(p, missing)
        } else {
            Split::Whole
        })
    }

    fn locate_array(&mut self, c: &Checks, pos: usize, depth: usize, at: &mut Located) -> Result<Split, Stop> {
        if depth >= self.max_depth {
            return Err(Stop::Bail);
        }
        let mut whole = false;
        let mut count: usize = 0;
        // uniqueItems compares the items with each other: an array with repeated items, or
        // with items whose equality needs their parsed values, is one unit; one with distinct
        // plain items fails only where its items do.
        let mut seen: Option<Items> = c.unique.as_ref().map(|_| Items::default());
        let (mut p, mut more) = self.open(pos, b']');
        while more {
            let (sub, keyword) = match c.prefix.get(count) {
                Some(&node) => (Some(node), Keyword::Prefix(c.prefix_keyword, count)),
                None => (c.items, Keyword::Items(c.items_keyword)),
            };
            if c.max_items.is_some_and(|m| count as u64 >= m) {
                whole = true;
            }
            let start = p;
            // Once the array is known to be one unit, its other items need no look.
            p = match sub.filter(|_| !whole) {
                Some(node) => self.locate_child(node, p, depth + 1, PathStep::Index(count), count, keyword, at, &mut whole)?,
                None => self.skip(p, depth + 1)?,
            };
            if let Some(items) = seen.as_mut() {
                if !items.add(self.bytes.get(start..p).unwrap_or_default()) {
                    seen = None;
                    whole = true;
                }
            }
            count += 1;
            more = self.next_member(&mut p, b']')?;
        }
        let n = count as u64;
        if c.min_items.is_some_and(|m| n < m) || c.max_items.is_some_and(|m| n > m) || seen.as_mut().is_some_and(Items::has_duplicates) {
            whole = true;
        }
        Ok(if whole { Split::Whole } else { Split::Done(p) })
    }

    /// A child under `properties`/`patternProperties`/`additionalProperties`/`items`: located further, except that a `false` schema there
    /// is reported by the validator at the parent (its keyword's error), so the parent is whole.
    #[allow(clippy::too_many_arguments)]
    fn locate_child(&mut self, node: usize, pos: usize, depth: usize, step: PathStep, order: usize, keyword: Keyword<'_>, at: &mut Located, whole: &mut bool) -> Result<usize, Stop> {
        if matches!(self.verdict.nodes.get(node), Some(VerdictNode::Nothing)) {
            return self.judge(node, pos, depth, whole);
        }
        // A scalar that passes (most do) needs none of a unit's bookkeeping below, which would
        // make the locating pass much dearer than the verdict's. One that fails is evaluated
        // once more there, which for a scalar is cheap.
        if !matches!(self.at(pos), Some(b'{' | b'[')) {
            match self.eval(node, pos, depth) {
                Ok(end) => return Ok(end),
                Err(Stop::Bail) => return Err(Stop::Bail),
                Err(Stop::Fail) => {}
            }
        }
        let len = at.schema.len();
        match keyword {
            Keyword::Property(name) => {
                at.schema.push_str("/properties/");
                at.schema.push_str(name);
            }
            Keyword::Items(keyword) => {
                at.schema.push('/');
                at.schema.push_str(keyword);
            }
            Keyword::Prefix(keyword, i) => {
                use std::fmt::Write;
                let _ = write!(at.schema, "/{keyword}/{i}");
            }
            Keyword::Pattern(token) => {
                at.schema.push_str("/patternProperties/");
                at.schema.push_str(token);
            }
            Keyword::Additional => at.schema.push_str("/additionalProperties"),
        }
        at.path.push(step);
        at.order.push(order);
        let result = self.locate(node, pos, depth, at);
        at.path.pop();
        at.order.pop();
        at.schema.truncate(len);
        result
    }

    /// A value whose failure makes its parent one unit.
    fn judge(&mut self, node: usize, pos: usize, depth: usize, whole: &mut bool) -> Step {
        match self.eval(node, pos, depth) {
            Err(Stop::Fail) => {
                *whole = true;
                self.skip(pos, depth)
            }
            other => other,
        }
    }

    /// Reads the member of an object at `p` (its name's opening quote) up to where its value
    /// starts, as both walks of an object read it (`object`, `locate_object`): a repeated name
    /// bails (the parser keeps the last value at the first one's place, and the full path
    /// reports the repeat), and so does an escaped one unless `escapes`. Adds the name's bit to
    /// `seen` when `required` lists it. Inlined into both walks, as the code it stands for was:
    /// it runs for every member of every object checked.
    #[inline(always)]
    fn member<'c>(&mut self, c: &'c Checks, p: usize, names: &mut Names, seen: &mut u64, escapes: bool) -> Result<Member<'c>, Stop> {
        if self.at(p) != Some(b'"') {
            return Err(Stop::Bail);
        }
        let (key_end, escaped) = self.string(p)?;
        if escaped && !escapes {
            return Err(Stop::Bail);
        }
        let text: &'a str = self.text;
        let raw = text.get(p + 1..key_end - 1).ok_or(Stop::Bail)?;
        let (found, patterns, repeated) = if escaped {
            // Decoded into the buffer strings use, kept from one to the next.
            let mut decoded = std::mem::take(&mut self.unescaped);
            let facts = lex::unescape(raw, &mut decoded).map(|()| {
                let found = find_key(&c.keys, decoded.as_bytes());
                (found, self.patterns_matched(c, &decoded), names.repeated_decoded(decoded.as_bytes(), found))
            });
            self.unescaped = decoded;
            facts.ok_or(Stop::Bail)?
        } else {
            let found = find_key(&c.keys, raw.as_bytes());
            (found, self.patterns_matched(c, raw), names.repeated(self.bytes, p..key_end, found))
        };
        if repeated {
            return Err(Stop::Bail);
        }
        let rule = found.and_then(|i| c.keys.get(i));
        if let Some(bit) = rule.and_then(|r| r.required) {
            // Past 64 names no bit is kept: such an object is never seen complete here.
            *seen |= 1u64.checked_shl(bit as u32).unwrap_or(0);
        }
        Ok(Member { key: p..key_end, rule, patterns, value: self.value_start(key_end)? })
    }

    fn object(&mut self, c: &Checks, pos: usize, depth: usize) -> Step {
        if depth >= self.max_depth {
            return Err(Stop::Bail);
        }
        let mut seen: u64 = 0;
        let mut count: u64 = 0;
        let mut names = Names::default();
        let (mut p, mut more) = self.open(pos, b'}');
        while more {
            let Member { rule, patterns, value, .. } = self.member(c, p, &mut names, &mut seen, true)?;
            count += 1;
            let own = rule.and_then(|r| r.node);
            p = value;
            // The value answers to its property's schema and to every pattern its name
            // matches; to `additionalProperties` only when there is none of those.
            let mut end = None;
            if let Some(node) = own {
                end = Some(self.eval(node, p, depth + 1)?);
            }
            for (i, &(_, node, _)) in c.patterns.iter().enumerate() {
                if patterns & (1 << i) != 0 {
                    end = Some(self.eval(node, p, depth + 1)?);
                }
            }
            p = match (end, c.additional) {
                (Some(end), _) => end,
                (None, Some(node)) => self.eval(node, p, depth + 1)?,
                (None, None) => self.skip(p, depth + 1)?,
            };
            more = self.next_member(&mut p, b'}')?;
        }
        if !c.count_fits(count) {
            self.own_failure = p - pos;
            return Err(Stop::Fail);
        }
        if !c.has_required(seen) {
            // `locate` reports missing names without parsing the object (`Split::Missing`).
            self.own_failure = if c.required < 64 { 0 } else { p - pos };
            return Err(Stop::Fail);
        }
        Ok(p)
    }

    fn array(&mut self, c: &Checks, pos: usize, depth: usize) -> Step {
        if depth >= self.max_depth {
            return Err(Stop::Bail);
        }
        let mut count: u64 = 0;
        let mut seen: Option<Items> = c.unique.as_ref().map(|_| Items::default());
        let (mut p, mut more) = self.open(pos, b']');
        while more {
            let sub = match c.prefix.get(count as usize) {
                Some(&node) => Some(node),
                None => c.items,
            };
            let start = p;
            p = match sub {
                Some(node) => self.eval(node, p, depth + 1)?,
                None => self.skip(p, depth + 1)?,
            };
            if let Some(items) = seen.as_mut() {
                if !items.add(self.bytes.get(start..p).unwrap_or_default()) {
                    seen = None;
                }
            }
            count += 1;
            more = self.next_member(&mut p, b']')?;
        }
        if c.min_items.is_some_and(|m| count < m) || c.max_items.is_some_and(|m| count > m) {
            self.own_failure = p - pos;
            return Err(Stop::Fail);
        }
        if let Some(index) = c.unique {
            let unique = match seen {
                Some(mut items) => !items.has_duplicates(),
                None => {
                    let value: Value = self.text.get(pos..p).and_then(|t| serde_json::from_str(t).ok()).ok_or(Stop::Bail)?;
                    self.validator.keyword_is_valid(c.node, index, &value)
                }
            };
            if !unique {
                self.own_failure = p - pos;
                return Err(Stop::Fail);
            }
        }
        Ok(p)
    }

    /// Past any value, checking its syntax as strictly as serde_json does.
    fn skip(&self, pos: usize, depth: usize) -> Step {
        match self.at(pos) {
            Some(b'{') => {
                if depth >= self.max_depth {
                    return Err(Stop::Bail);
                }
                let mut p = self.ws(pos + 1);
                if self.at(p) == Some(b'}') {
                    return Ok(p + 1);
                }
                let mut names = NameHashes::default();
                loop {
                    if self.at(p) != Some(b'"') {
                        return Err(Stop::Bail);
                    }
                    let (key_end, escaped) = self.string(p)?;
                    if escaped || !names.insert(self.bytes.get(p..key_end).unwrap_or_default()) {
                        return Err(Stop::Bail);
                    }
                    p = self.ws(key_end);
                    if self.at(p) != Some(b':') {
                        return Err(Stop::Bail);
                    }
                    p = self.ws(self.skip(self.ws(p + 1), depth + 1)?);
                    match self.at(p) {
                        Some(b',') => p = self.ws(p + 1),
                        Some(b'}') => return Ok(p + 1),
                        _ => return Err(Stop::Bail),
                    }
                }
            }
            Some(b'[') => {
                if depth >= self.max_depth {
                    return Err(Stop::Bail);
                }
                let mut p = self.ws(pos + 1);
                if self.at(p) == Some(b']') {
                    return Ok(p + 1);
                }
                loop {
                    p = self.ws(self.skip(p, depth + 1)?);
                    match self.at(p) {
                        Some(b',') => p = self.ws(p + 1),
                        Some(b']') => return Ok(p + 1),
                        _ => return Err(Stop::Bail),
                    }
                }
            }
            Some(b'"') => Ok(self.string(pos)?.0),
            Some(b't' | b'f' | b'n') => Ok(self.literal(pos)?.0),
            Some(b'-' | b'0'..=b'9') => Ok(self.number(pos)?.0),
            _ => Err(Stop::Bail),
        }
    }

    /// The end of the string starting at `pos` (past its closing quote) and whether it has
    /// escapes; a string that is not JSON bails.
    #[inline]
    fn string(&self, pos: usize) -> Result<(usize, bool), Stop> {
        lex::string_end(self.bytes, pos).ok_or(Stop::Bail)
    }

    #[inline]
    fn literal(&self, pos: usize) -> Result<(usize, u8), Stop> {
        let len = lex::literal_len(self.bytes.get(pos..).unwrap_or_default()).ok_or(Stop::Bail)?;
        Ok((pos + len, if self.at(pos) == Some(b'n') { NULL } else { BOOLEAN }))
    }

    /// The end of the number at `pos` (JSON's grammar) and whether it is written as an integer.
    /// Numbers serde_json would refuse (out of f64's range) bail.
    #[inline]
    fn number(&self, pos: usize) -> Result<(usize, bool), Stop> {
        let (len, integral) = lex::number_len(self.bytes.get(pos..).unwrap_or_default()).ok_or(Stop::Bail)?;
        let p = pos + len;
        if !lex::fits_double(self.bytes.get(pos..p).unwrap_or_default(), integral) {
            return Err(Stop::Bail);
        }
        Ok((p, integral))
    }
}

/// The items of an array as `uniqueItems` compares them, for the scalars whose equality shows
/// in their text: strings without escapes, by the hash of their text (two of one hash only send
/// the output to the full path, which decides); integers written as such (not `-0`), sorted
/// only when they did not come in ascending order (many arrays are written in order); `true`,
/// `false`, `null`.
#[derive(Default)]
struct Items {
    literals: u8,
    repeated: bool,
    texts: NameHashes,
    integers: Vec<i64>,
    unsorted: bool,
}

impl Items {
    /// Adds `token` (one value, as scanned); false when its equality needs the parsed value.
    /// Inlined into both walks: it runs once per item of every array with `uniqueItems`, where
    /// a call would cost about as much as the item's own check.
    #[inline(always)]
    fn add(&mut self, token: &[u8]) -> bool {
        let bit = match token.first() {
            Some(b't') => 1,
            Some(b'f') => 2,
            Some(b'n') => 4,
            Some(b'"') if !token.contains(&b'\\') => {
                self.repeated |= !self.texts.insert(token);
                return true;
            }
            _ => match integer(token) {
                Some(n) => {
                    self.unsorted |= self.integers.last().is_some_and(|&last| last >= n);
                    self.integers.push(n);
                    return true;
                }
                None => return false,
            },
        };
        self.repeated |= self.literals & bit != 0;
        self.literals |= bit;
        true
    }

    fn has_duplicates(&mut self) -> bool {
        if self.unsorted {
            self.integers.sort_unstable();
            self.repeated |= self.integers.windows(2).any(|w| w.first() == w.get(1));
            self.unsorted = false;
        }
        self.repeated
    }
}

/// An integer token of at most 18 digits (so it fits an i64), not `-0`.
fn integer(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    if digits.is_empty() || digits.len() > 18 || (negative && digits.first() == Some(&b'0')) {
        return None;
    }
    let mut n: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n * 10 + i64::from(d - b'0');
    }
    Some(if negative { -n } else { n })
}
