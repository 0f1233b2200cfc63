//! Evaluation of a value against the node graph. Two modes share one walk: with `errors` set,
//! every failing keyword records an error and evaluation goes on; without, the first failure
//! ends it. Annotations (which properties and items were evaluated) are gathered only below a
//! node that has `unevaluatedProperties`/`unevaluatedItems`, and only from subschemas that pass.

use super::compile::{JtdType, Kw};
use super::leaf::{self, Bound};
use super::value::all_unique;
use super::{branch_rank, Error, ErrorKind, Validator, MAX_DEPTH};
use super::format::Check;
use crate::validator::draft::Draft;
use serde_json::{Number, Value};
use std::borrow::Cow;


/// Which properties (by position in their object) and items were evaluated here.
#[derive(Default)]
struct Seen {
    props: Vec<bool>,
    items: Vec<bool>,
}

impl Seen {
    fn mark(list: &mut Vec<bool>, i: usize, len: usize) {
        if list.len() < len {
            list.resize(len, false);
        }
        if let Some(slot) = list.get_mut(i) {
            *slot = true;
        }
    }

    fn merge(&mut self, other: Seen) {
        for (list, from) in [(&mut self.props, other.props), (&mut self.items, other.items)] {
            if list.len() < from.len() {
                list.resize(from.len(), false);
            }
            for (a, b) in list.iter_mut().zip(from) {
                *a |= b;
            }
        }
    }
}

enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

struct Ctx<'s, 'v> {
    v: &'s Validator,
    errors: Option<Vec<Error<'v>>>,
    /// While a branch's errors are collected for `contexts`: how many can still matter. Once
    /// reached, the errors move to `capped` and the branch finishes quietly.
    limit: Option<usize>,
    capped: Option<Vec<Error<'v>>>,
    instance_path: Vec<Seg<'v>>,
    schema_path: Vec<Seg<'s>>,
    scope: Vec<usize>,
    /// The references being followed, each with the value it was followed at.
    refs: Vec<(usize, usize)>,
    depth: usize,
}

/// `value` against `node`, evaluated within the dynamic scope `scope` (the resources entered on
/// the way to it, outermost first; empty for the root).
pub(super) fn is_valid(v: &Validator, node: usize, value: &Value, scope: &[usize]) -> bool {
    let mut c = Ctx::new(v, None);
    c.scope.extend_from_slice(scope);
    c.node(node, value, None)
}

pub(super) fn errors<'v>(v: &Validator, node: usize, value: &'v Value, scope: &[usize]) -> Vec<Error<'v>> {
    let mut c = Ctx::new(v, Some(Vec::new()));
    c.scope.extend_from_slice(scope);
    c.node(node, value, None);
    c.errors.unwrap_or_default()
}

pub(super) fn keyword_is_valid(v: &Validator, node: usize, index: usize, value: &Value) -> bool {
    let Some(n) = v.nodes.get(node) else { return true };
    let Some(kw) = n.kws.get(index) else { return true };
    // No scope: the keywords asked about alone look at the value itself, never through a
    // dynamic reference (and an empty Vec allocates nothing, on a path taken per scalar).
    let mut c = Ctx::new(v, None);
    c.keyword(kw, n.draft, value, None)
}

/// Whether keyword `index` of `node` holds for a string value whose content is `s`, for the
/// keywords that look at a string's content alone (`pattern`, `format`): the text path asks
/// this for every such string, so it builds no value and no evaluation context. None: the
/// keyword is of another kind (ask `keyword_is_valid`).
pub(super) fn string_keyword_is_valid(v: &Validator, node: usize, index: usize, s: &str) -> Option<bool> {
    let kw = v.nodes.get(node).and_then(|n| n.kws.get(index))?;
    match kw {
        Kw::Pattern(..) | Kw::Format(..) => Some(string_miss(v, kw, s).is_none()),
        _ => None,
    }
}

/// Why a string fails `pattern` or `format` (None: it does not, or `kw` is neither).
enum Miss {
    Unmatched,
    /// The pattern's matcher gave up (its step limit): a failure, reported as such.
    Backtracked,
}

fn string_miss(v: &Validator, kw: &Kw, s: &str) -> Option<Miss> {
    let pattern = |index: &usize| match v.patterns.get(*index).map(|p| p.is_match(s)) {
        Some(Ok(false)) => Some(Miss::Unmatched),
        Some(Err(_)) => Some(Miss::Backtracked),
        _ => None,
    };
    match kw {
        Kw::Pattern(index, _) => pattern(index),
        Kw::Format(Check::Pattern(index, _), _) => pattern(index),
        Kw::Format(Check::Builtin(f), _) => (!f(s)).then_some(Miss::Unmatched),
        Kw::Format(Check::Function(f), _) => (!f(s)).then_some(Miss::Unmatched),
        _ => None,
    }
}

/// The node a `$dynamicRef` to `target` (its dynamic anchor `anchor`, if it names one) goes to
/// in the dynamic scope `scope` (resources, outermost first): the outermost resource's node
/// with that dynamic anchor, else `target`.
pub(super) fn dynamic_target(v: &Validator, target: usize, anchor: Option<&str>, scope: &[usize]) -> usize {
    let Some(name) = anchor else { return target };
    let found = scope.iter().find_map(|r| v.resources.get(*r).and_then(|res| res.dynamic_anchors.iter().find(|(n, _)| n == name).map(|(_, node)| *node)));
    found.unwrap_or(target)
}

/// The node a `$recursiveRef` to `target` goes to in the dynamic scope `scope`: when `target` is
/// its resource's recursive anchor, the root of the outermost resource reached from the innermost
/// through resources that are all anchored.
pub(super) fn recursive_target(v: &Validator, target: usize, scope: &[usize]) -> usize {
    let anchored = |r: usize| v.resources.get(r).and_then(|res| res.recursive_root);
    let mut node = target;
    if v.nodes.get(target).and_then(|t| anchored(t.resource)) == Some(target) {
        // Innermost to outermost, as long as each resource is anchored too.
        for r in scope.iter().rev() {
            match anchored(*r) {
                Some(root) => node = root,
                None => break,
            }
        }
    }
    node
}

fn write_token(out: &mut String, seg: &Seg<'_>) {
    out.push('/');
    match seg {
        Seg::Key(k) => out.push_str(&crate::json::path::escape_pointer_token(k)),
        Seg::Index(i) => crate::json::path::push_index(out, *i),
    }
}

impl<'s, 'v> Ctx<'s, 'v> {
    fn new(v: &'s Validator, errors: Option<Vec<Error<'v>>>) -> Self {
        Ctx { v, errors, limit: None, capped: None, instance_path: Vec::new(), schema_path: Vec::new(), scope: Vec::new(), refs: Vec::new(), depth: 0 }
    }

    fn collecting(&self) -> bool {
        self.errors.is_some()
    }

    /// Records an error of `keyword` (`segment`: the keyword's own path segment, if any).
    fn fail(&mut self, keyword: &'static str, segment: Option<&'static str>, instance: &'v Value, kind: ErrorKind<'v>) -> bool {
        if self.errors.is_some() {
            let instance_path = self.instance_path_text();
            let mut evaluation_path = String::with_capacity(16 * (self.schema_path.len() + 1));
            for seg in &self.schema_path {
                write_token(&mut evaluation_path, seg);
            }
            if let Some(s) = segment {
                write_token(&mut evaluation_path, &Seg::Key(s));
            }
            let mut full = false;
            if let Some(errors) = self.errors.as_mut() {
                errors.push(Error { keyword, kind, instance: Cow::Borrowed(instance), instance_path, evaluation_path });
                full = self.limit.is_some_and(|limit| errors.len() >= limit);
            }
            if full {
                self.capped = self.errors.take();
            }
        }
        false
    }

    /// Where the evaluation is in the value, as a JSON Pointer.
    fn instance_path_text(&self) -> String {
        // Sized up front: grown a token at a time, each path was reallocated several times.
        let mut text = String::with_capacity(8 * self.instance_path.len());
        for seg in &self.instance_path {
            write_token(&mut text, seg);
        }
        text
    }

    /// Evaluates a subschema without recording its errors.
    fn quietly(&mut self, node: usize, value: &'v Value, seen: Option<&mut Seen>) -> bool {
        let saved = self.errors.take();
        let ok = self.node(node, value, seen);
        self.errors = saved;
        ok
    }

    /// A branch of `anyOf`/`oneOf`, its errors collected apart: the first `limit` of them.
    fn branch(&mut self, node: usize, value: &'v Value, limit: Option<usize>) -> Vec<Error<'v>> {
        let saved = self.errors.replace(Vec::new());
        let (saved_limit, saved_capped) = (std::mem::replace(&mut self.limit, limit), self.capped.take());
        self.node(node, value, None);
        let errors = std::mem::replace(&mut self.errors, saved).or_else(|| self.capped.take()).unwrap_or_default();
        (self.limit, self.capped) = (saved_limit, saved_capped);
        errors
    }

    fn node(&mut self, n: usize, value: &'v Value, seen: Option<&mut Seen>) -> bool {
        let v = self.v;
        let Some(node) = v.nodes.get(n) else { return true };
        if self.depth >= MAX_DEPTH {
            return self.fail("$ref", None, value, ErrorKind::Recursion);
        }
        self.depth += 1;
        let entered = self.scope.last() != Some(&node.resource);
        if entered {
            self.scope.push(node.resource);
        }
        let ok = if node.gathers {
            let mut own = Seen::default();
            let ok = self.keywords(&node.kws, node.draft, value, Some(&mut own));
            if let (true, Some(outer)) = (ok, seen) {
                outer.merge(own);
            }
            ok
        } else {
            self.keywords(&node.kws, node.draft, value, seen)
        };
        if entered {
            self.scope.pop();
        }
        self.depth -= 1;
        ok
    }

    fn keywords(&mut self, kws: &'s [Kw], draft: Draft, value: &'v Value, mut seen: Option<&mut Seen>) -> bool {
        let mut valid = true;
        for kw in kws {
            if !self.keyword(kw, draft, value, seen.as_deref_mut()) {
                valid = false;
                if !self.collecting() {
                    return false;
                }
            }
        }
        valid
    }

    /// Evaluates the child `node` at the same value, under the schema path `keyword[/index]`.
    fn at(&mut self, keyword: &'static str, index: Option<usize>, node: usize, value: &'v Value, seen: Option<&mut Seen>) -> bool {
        self.schema_path.push(Seg::Key(keyword));
        if let Some(i) = index {
            self.schema_path.push(Seg::Index(i));
        }
        let ok = self.node(node, value, seen);
        if index.is_some() {
            self.schema_path.pop();
        }
        self.schema_path.pop();
        ok
    }

    /// One keyword on a value: each keyword's evaluation is a function of its own below, the
    /// leaf ones calling the rule they share with the verdict and the stream (`leaf`).
    fn keyword(&mut self, kw: &'s Kw, draft: Draft, value: &'v Value, seen: Option<&mut Seen>) -> bool {
        match kw {
            Kw::False => self.fail("falseSchema", None, value, ErrorKind::FalseSchema),
            Kw::Ref(target) => self.follow("$ref", *target, value, seen),
            Kw::DynamicRef { target, anchor } => self.dynamic_ref(*target, anchor.as_deref(), value, seen),
            Kw::RecursiveRef(target) => self.recursive_ref(*target, value, seen),
            Kw::Type { mask, names } => self.type_(*mask, names, draft, value),
            Kw::Enum(options) => self.enum_(options, value),
            Kw::Const(expected) => self.const_(expected, value),
            Kw::Minimum(limit) => self.bound(Bound::Minimum, limit, value),
            Kw::Maximum(limit) => self.bound(Bound::Maximum, limit, value),
            Kw::ExclusiveMinimum(limit) => self.bound(Bound::ExclusiveMinimum, limit, value),
            Kw::ExclusiveMaximum(limit) => self.bound(Bound::ExclusiveMaximum, limit, value),
            Kw::MultipleOf(m) => self.multiple_of(m, value),
            Kw::MinLength(limit) => self.min_length(kw, *limit, value),
            Kw::MaxLength(limit) => self.max_length(kw, *limit, value),
            Kw::Pattern(_, source) => self.pattern(kw, source, value),
            Kw::Format(check, name) => self.format(kw, check, name, value),
            Kw::ContentEncoding(encoding) => self.content_encoding(encoding, value),
            Kw::ContentMediaType(media_type, base64) => self.content_media_type(media_type, *base64, value),
            Kw::MinItems(limit) | Kw::MaxItems(limit) | Kw::MinProperties(limit) | Kw::MaxProperties(limit) => self.count(kw, *limit, value),
            Kw::UniqueItems => self.unique_items(value),
            Kw::Items { prefix, prefix_keyword, rest, rest_keyword } => self.items(prefix, prefix_keyword, *rest, rest_keyword, value, seen),
            Kw::Contains { node, min, max, min_written } => self.contains(*node, *min, *max, *min_written, draft, value, seen),
            Kw::Required(names) => self.required(names, value),
            Kw::Properties(props) => self.listed_members("properties", props, value, seen),
            Kw::PatternProperties(list) => self.pattern_properties(list, value, seen),
            Kw::AdditionalProperties { node, names, patterns } => self.additional_properties(kw.name(), *node, names, patterns, value, seen),
            Kw::PropertyNames(node) => self.property_names(*node, value),
            Kw::DependentRequired(keyword, deps) => self.dependent_required(keyword, deps, value),
            Kw::DependentSchemas(keyword, deps) => self.dependent_schemas(keyword, deps, value, seen),
            Kw::AllOf(nodes) => self.all_of(nodes, value, seen),
            Kw::AnyOf(nodes) => self.any_of(nodes, value, seen),
            Kw::OneOf(nodes) => self.one_of(kw.name(), nodes, value, seen),
            Kw::Not(node, schema) => !self.quietly(*node, value, None) || self.fail("not", Some("not"), value, ErrorKind::Not { schema: schema.clone() }),
            Kw::If { cond, then, otherwise } => self.if_(*cond, *then, *otherwise, value, seen),
            Kw::UnevaluatedItems(node) => self.unevaluated_items(*node, value, seen),
            Kw::UnevaluatedProperties(node) => self.unevaluated_properties(*node, value, seen),
            // Apart, so that this function's frame (one per nesting level of a value) stays
            // small: a debug build's frame holds every arm's locals.
            Kw::JtdRef { .. }
            | Kw::JtdType { .. }
            | Kw::JtdForm { .. }
            | Kw::JtdRequired(_)
            | Kw::OptionalProperties(_)
            | Kw::JtdAdditional(_)
            | Kw::Values(_)
            | Kw::Discriminator { .. } => self.jtd_keyword(kw, value, seen),
        }
    }

    /// `$dynamicRef`.
    #[inline(never)]
    fn dynamic_ref(&mut self, target: usize, anchor: Option<&str>, value: &'v Value, seen: Option<&mut Seen>) -> bool {
        let node = dynamic_target(self.v, target, anchor, &self.scope);
        self.follow("$dynamicRef", node, value, seen)
    }

    /// `$recursiveRef`.
    #[inline(never)]
    fn recursive_ref(&mut self, target: usize, value: &'v Value, seen: Option<&mut Seen>) -> bool {
        let node = recursive_target(self.v, target, &self.scope);
        self.follow("$recursiveRef", node, value, seen)
    }

    #[inline]
    fn type_(&mut self, mask: u8, names: &[&'static str], draft: Draft, value: &'v Value) -> bool {
        leaf::type_holds(mask, value, draft) || self.fail("type", Some("type"), value, ErrorKind::Type { expected: names.to_vec() })
    }

    #[inline]
    fn enum_(&mut self, options: &Value, value: &'v Value) -> bool {
        leaf::enum_holds(options, value) || self.fail("enum", Some("enum"), value, ErrorKind::Enum { options: options.clone() })
    }

    #[inline]
    fn const_(&mut self, expected: &Value, value: &'v Value) -> bool {
        leaf::const_holds(expected, value) || self.fail("const", Some("const"), value, ErrorKind::Const { expected: expected.clone() })
    }

    #[inline]
    fn bound(&mut self, bound: Bound, limit: &Number, value: &'v Value) -> bool {
        let Value::Number(n) = value else { return true };
        if leaf::bound_holds(bound, n, limit) {
            return true;
        }
        let (keyword, kind) = match bound {
            Bound::Minimum => ("minimum", ErrorKind::Minimum { limit: limit.clone() }),
            Bound::Maximum => ("maximum", ErrorKind::Maximum { limit: limit.clone() }),
            Bound::ExclusiveMinimum => ("exclusiveMinimum", ErrorKind::ExclusiveMinimum { limit: limit.clone() }),
            Bound::ExclusiveMaximum => ("exclusiveMaximum", ErrorKind::ExclusiveMaximum { limit: limit.clone() }),
        };
        self.fail(keyword, Some(keyword), value, kind)
    }

    #[inline]
    fn multiple_of(&mut self, m: &Number, value: &'v Value) -> bool {
        let Value::Number(n) = value else { return true };
        leaf::multiple_holds(n, m) || self.fail("multipleOf", Some("multipleOf"), value, ErrorKind::MultipleOf { multiple_of: m.clone() })
    }

    #[inline]
    fn min_length(&mut self, kw: &'s Kw, limit: u64, value: &'v Value) -> bool {
        let Value::String(s) = value else { return true };
        leaf::min_length_holds(s, limit) || self.fail(kw.name(), Some(kw.name()), value, ErrorKind::MinLength { limit })
    }

    #[inline]
    fn max_length(&mut self, kw: &'s Kw, limit: u64, value: &'v Value) -> bool {
        let Value::String(s) = value else { return true };
        leaf::max_length_holds(s, limit) || self.fail(kw.name(), Some(kw.name()), value, ErrorKind::MaxLength { limit })
    }

    fn pattern(&mut self, kw: &'s Kw, source: &str, value: &'v Value) -> bool {
        let Value::String(s) = value else { return true };
        match string_miss(self.v, kw, s) {
            None => true,
            Some(Miss::Backtracked) => self.fail("pattern", Some("pattern"), value, ErrorKind::Backtracked { pattern: source.to_string() }),
            Some(Miss::Unmatched) => self.fail("pattern", Some("pattern"), value, ErrorKind::Pattern { pattern: source.to_string() }),
        }
    }

    fn format(&mut self, kw: &'s Kw, check: &Check, name: &str, value: &'v Value) -> bool {
        let Value::String(s) = value else { return true };
        match (string_miss(self.v, kw, s), check) {
            (None, _) => true,
            (Some(Miss::Backtracked), Check::Pattern(_, source)) => self.fail("format", Some("format"), value, ErrorKind::Backtracked { pattern: source.clone() }),
            (Some(_), _) => self.fail("format", Some("format"), value, ErrorKind::Format { format: name.to_string() }),
        }
    }

    #[inline(never)]
    fn content_encoding(&mut self, encoding: &str, value: &'v Value) -> bool {
        let Value::String(s) = value else { return true };
        super::format::base64(s).is_some() || self.fail("contentEncoding", Some("contentEncoding"), value, ErrorKind::ContentEncoding { encoding: encoding.to_string() })
    }

    #[inline(never)]
    fn content_media_type(&mut self, media_type: &str, base64: bool, value: &'v Value) -> bool {
        let Value::String(s) = value else { return true };
        let decoded = if base64 { super::format::base64(s) } else { Some(s.as_bytes().to_vec()) };
        // Undecodable text is contentEncoding's error, not this one's.
        let Some(bytes) = decoded else { return true };
        // Through `from_str`, the one reader instantiated elsewhere (a second reader type would
        // double the parser's code in the module). The lossy text decides alike: the slice reader
        // does not check UTF-8 inside strings, and a byte outside the ASCII range is a syntax
        // error outside them, whichever character stands for it.
        serde_json::from_str::<serde::de::IgnoredAny>(&String::from_utf8_lossy(&bytes)).is_ok()
            || self.fail("contentMediaType", Some("contentMediaType"), value, ErrorKind::ContentMediaType { media_type: media_type.to_string() })
    }

    /// `minItems`, `maxItems`, `minProperties`, `maxProperties`.
    #[inline]
    fn count(&mut self, kw: &'s Kw, limit: u64, value: &'v Value) -> bool {
        let (holds, kind) = match (kw, value) {
            (Kw::MinItems(_), Value::Array(a)) => (leaf::count_at_least(a.len() as u64, limit), ErrorKind::MinItems { limit }),
            (Kw::MaxItems(_), Value::Array(a)) => (leaf::count_at_most(a.len() as u64, limit), ErrorKind::MaxItems { limit }),
            (Kw::MinProperties(_), Value::Object(m)) => (leaf::count_at_least(m.len() as u64, limit), ErrorKind::MinProperties { limit }),
            (Kw::MaxProperties(_), Value::Object(m)) => (leaf::count_at_most(m.len() as u64, limit), ErrorKind::MaxProperties { limit }),
            _ => return true,
        };
        let keyword = kw.name();
        holds || self.fail(keyword, Some(keyword), value, kind)
    }

    fn unique_items(&mut self, value: &'v Value) -> bool {
        let Value::Array(items) = value else { return true };
        all_unique(items) || self.fail("uniqueItems", Some("uniqueItems"), value, ErrorKind::UniqueItems)
    }

    fn items(&mut self, prefix: &'s [usize], prefix_keyword: &'static str, rest: Option<usize>, rest_keyword: &'static str, value: &'v Value, mut seen: Option<&mut Seen>) -> bool {
        let Value::Array(items) = value else { return true };
        let len = items.len();
        let jobs = items.iter().zip(prefix).enumerate().map(|(i, (item, node))| Job::item(prefix_keyword, Some(i), i, *node, item));
        let ok = self.each(jobs, seen.as_deref_mut().map(|s| &mut s.items), len);
        let Some(rest) = rest else { return ok };
        if !ok && !self.collecting() {
            return false;
        }
        let start = prefix.len().min(len);
        if self.v.is_false(rest) && len > start {
            let limit = prefix.len();
            return self.fail(rest_keyword, Some(rest_keyword), value, ErrorKind::AdditionalItems { limit }) && ok;
        }
        let jobs = items.iter().enumerate().skip(start).map(|(i, item)| Job::item(rest_keyword, None, i, rest, item));
        self.each(jobs, seen.map(|s| &mut s.items), len) && ok
    }

    #[allow(clippy::too_many_arguments)]
    fn contains(&mut self, node: usize, min: u64, max: Option<u64>, min_written: bool, draft: Draft, value: &'v Value, mut seen: Option<&mut Seen>) -> bool {
        let Value::Array(items) = value else { return true };
        let mut count = 0u64;
        let track = draft >= Draft::Draft202012;
        for (i, item) in items.iter().enumerate() {
            if self.quietly(node, item, None) {
                count += 1;
                if let (true, Some(s)) = (track, seen.as_deref_mut()) {
                    Seen::mark(&mut s.items, i, items.len());
                }
            }
        }
        if count < min {
            let keyword = if min_written { "minContains" } else { "contains" };
            return self.fail(keyword, Some(keyword), value, ErrorKind::Contains { matched: count, min, max });
        }
        match max {
            Some(max) if count > max => self.fail("maxContains", Some("maxContains"), value, ErrorKind::Contains { matched: count, min, max: Some(max) }),
            _ => true,
        }
    }

    fn required(&mut self, names: &'s [String], value: &'v Value) -> bool {
        let Value::Object(map) = value else { return true };
        let mut ok = true;
        for name in names {
            if !has(map, name) {
                ok = self.fail("required", Some("required"), value, ErrorKind::Required { property: name.clone() });
                if !self.collecting() {
                    return false;
                }
            }
        }
        ok
    }

    fn pattern_properties(&mut self, list: &'s [(usize, String, usize)], value: &'v Value, seen: Option<&mut Seen>) -> bool {
        let Value::Object(map) = value else { return true };
        let v = self.v;
        let jobs = map.iter().enumerate().flat_map(|(i, (name, member))| {
            list.iter()
                .filter(move |(pattern, _, _)| v.name_matches(*pattern, name))
                .map(move |(_, source, node)| Job::member("patternProperties", Some(source), name, i, *node, member))
        });
        self.each(jobs, seen.map(|s| &mut s.props), map.len())
    }

    fn additional_properties(&mut self, keyword: &'static str, node: usize, names: &'s [String], patterns: &'s [usize], value: &'v Value, seen: Option<&mut Seen>) -> bool {
        let Value::Object(map) = value else { return true };
        let v = self.v;
        let extra = |name: &str| names.binary_search_by(|n| n.as_str().cmp(name)).is_err() && !patterns.iter().any(|p| v.name_matches(*p, name));
        if v.is_false(node) {
            let unexpected: Vec<String> = map.keys().filter(|k| extra(k)).cloned().collect();
            if unexpected.is_empty() {
                return true;
            }
            return self.fail(keyword, Some(keyword), value, ErrorKind::AdditionalProperties { unexpected });
        }
        let jobs = map.iter().enumerate().filter(|(_, (name, _))| extra(name)).map(|(i, (name, member))| Job::member(keyword, None, name, i, node, member));
        self.each(jobs, seen.map(|s| &mut s.props), map.len())
    }

    fn property_names(&mut self, node: usize, value: &'v Value) -> bool {
        let Value::Object(map) = value else { return true };
        let mut ok = true;
        for name in map.keys() {
            // The name is a string value of its own, checked apart from the output.
            let name = Value::String(name.clone());
            if is_valid(self.v, node, &name, &[]) {
                continue;
            }
            ok = false;
            if !self.collecting() {
                return false;
            }
            let first = errors(self.v, node, &name, &[]).into_iter().next().map(Error::into_owned);
            if let Some(error) = first {
                self.fail("propertyNames", Some("propertyNames"), value, ErrorKind::PropertyNames { error: Box::new(error) });
            }
        }
        ok
    }

    fn dependent_required(&mut self, keyword: &'static str, deps: &'s [(String, Vec<String>)], value: &'v Value) -> bool {
        let Value::Object(map) = value else { return true };
        let mut ok = true;
        for (name, required) in deps {
            if !has(map, name) {
                continue;
            }
            for r in required {
                if !has(map, r) {
                    ok = self.fail(keyword, Some(keyword), value, ErrorKind::Required { property: r.clone() });
                    if !self.collecting() {
                        return false;
                    }
                }
            }
        }
        ok
    }

    fn dependent_schemas(&mut self, keyword: &'static str, deps: &'s [(String, usize)], value: &'v Value, mut seen: Option<&mut Seen>) -> bool {
        let Value::Object(map) = value else { return true };
        let mut ok = true;
        for (name, node) in deps {
            if !has(map, name) {
                continue;
            }
            self.schema_path.push(Seg::Key(keyword));
            self.schema_path.push(Seg::Key(name));
            let good = self.node(*node, value, seen.as_deref_mut());
            self.schema_path.truncate(self.schema_path.len() - 2);
            if !good {
                ok = false;
                if !self.collecting() {
                    return false;
                }
            }
        }
        ok
    }

    fn all_of(&mut self, nodes: &'s [usize], value: &'v Value, mut seen: Option<&mut Seen>) -> bool {
        let mut ok = true;
        for (i, node) in nodes.iter().enumerate() {
            if !self.at("allOf", Some(i), *node, value, seen.as_deref_mut()) {
                ok = false;
                if !self.collecting() {
                    return false;
                }
            }
        }
        ok
    }

    fn if_(&mut self, cond: usize, then: Option<usize>, otherwise: Option<usize>, value: &'v Value, mut seen: Option<&mut Seen>) -> bool {
        let mut own = Seen::default();
        let track = seen.is_some();
        self.schema_path.push(Seg::Key("if"));
        let holds = self.quietly(cond, value, track.then_some(&mut own));
        self.schema_path.pop();
        if holds {
            if let Some(s) = seen.as_deref_mut() {
                s.merge(own);
            }
            match then {
                Some(t) => self.at("then", None, t, value, seen),
                None => true,
            }
        } else {
            match otherwise {
                Some(e) => self.at("else", None, e, value, seen),
                None => true,
            }
        }
    }

    fn unevaluated_items(&mut self, node: usize, value: &'v Value, seen: Option<&mut Seen>) -> bool {
        let Value::Array(items) = value else { return true };
        let done = |i: usize| seen.as_deref().and_then(|s| s.items.get(i)).copied().unwrap_or(false);
        let left: Vec<usize> = (0..items.len()).filter(|i| !done(*i)).collect();
        if !left.is_empty() && self.v.is_false(node) {
            return self.fail("unevaluatedItems", Some("unevaluatedItems"), value, ErrorKind::UnevaluatedItems { unexpected: left });
        }
        let jobs = left.into_iter().filter_map(|i| Some(Job::item("unevaluatedItems", None, i, node, items.get(i)?)));
        self.each(jobs, seen.map(|s| &mut s.items), items.len())
    }

    fn unevaluated_properties(&mut self, node: usize, value: &'v Value, seen: Option<&mut Seen>) -> bool {
        let Value::Object(map) = value else { return true };
        let done = |i: usize| seen.as_deref().and_then(|s| s.props.get(i)).copied().unwrap_or(false);
        let left: Vec<(usize, &'v String, &'v Value)> = map.iter().enumerate().filter(|(i, _)| !done(*i)).map(|(i, (k, v))| (i, k, v)).collect();
        if !left.is_empty() && self.v.is_false(node) {
            let unexpected = left.iter().map(|(_, k, _)| (*k).clone()).collect();
            return self.fail("unevaluatedProperties", Some("unevaluatedProperties"), value, ErrorKind::UnevaluatedProperties { unexpected });
        }
        let jobs = left.into_iter().map(|(i, name, member)| Job::member("unevaluatedProperties", None, name, i, node, member));
        self.each(jobs, seen.map(|s| &mut s.props), map.len())
    }

    /// `properties` (and JTD's `optionalProperties`): each member the sorted list names, against
    /// its subschema. Members are looked up in the sorted list: no hashing of names.
    #[inline]
    fn listed_members(&mut self, keyword: &'static str, props: &'s [(String, usize)], value: &'v Value, seen: Option<&mut Seen>) -> bool {
        let Value::Object(map) = value else { return true };
        let jobs = map.iter().enumerate().filter_map(|(i, (name, member))| {
            let (pname, node) = props.get(props.binary_search_by(|(p, _)| p.as_str().cmp(name)).ok()?)?;
            Some(Job::member(keyword, Some(pname), name, i, *node, member))
        });
        self.each(jobs, seen.map(|s| &mut s.props), map.len())
    }

    /// The keywords of JSON Type Definition forms (see `Kw`).
    #[inline(never)]
    fn jtd_keyword(&mut self, kw: &'s Kw, value: &'v Value, seen: Option<&mut Seen>) -> bool {
        match kw {
            Kw::JtdRef { node, name, nullable } => {
                if *nullable && value.is_null() {
                    return true;
                }
                self.jtd_ref(*node, name, value)
            }
            Kw::JtdType { kind, nullable } => {
                if (*nullable && value.is_null()) || jtd_type_holds(*kind, value) {
                    return true;
                }
                let mut expected = vec![kind.name()];
                if *nullable {
                    expected.push("null");
                }
                self.fail("type", Some("type"), value, ErrorKind::Type { expected })
            }
            Kw::JtdForm { mask, names, keyword } => {
                leaf::type_holds(*mask, value, Draft::Jtd) || self.fail(keyword, Some(keyword), value, ErrorKind::Type { expected: names.clone() })
            }
            Kw::JtdRequired(names) => {
                let Value::Object(map) = value else { return true };
                let mut ok = true;
                for name in names {
                    if has(map, name) {
                        continue;
                    }
                    self.schema_path.push(Seg::Key("properties"));
                    self.schema_path.push(Seg::Key(name));
                    ok = self.fail("properties", None, value, ErrorKind::Required { property: name.clone() });
                    self.schema_path.truncate(self.schema_path.len() - 2);
                    if !self.collecting() {
                        return false;
                    }
                }
                ok
            }
            Kw::OptionalProperties(props) => self.listed_members("optionalProperties", props, value, seen),
            Kw::JtdAdditional(allowed) => {
                let Value::Object(map) = value else { return true };
                let mut ok = true;
                for (name, member) in map {
                    if allowed.binary_search_by(|a| a.as_str().cmp(name)).is_ok() {
                        continue;
                    }
                    // At the member, with the form's own schema path (RFC 8927 section 3.3.6).
                    self.instance_path.push(Seg::Key(name));
                    ok = self.fail(kw.name(), None, member, ErrorKind::AdditionalProperties { unexpected: vec![name.clone()] });
                    self.instance_path.pop();
                    if !self.collecting() {
                        return false;
                    }
                }
                ok
            }
            Kw::Values(node) => {
                let Value::Object(map) = value else { return true };
                let jobs = map.iter().enumerate().map(|(i, (name, member))| Job::member("values", None, name, i, *node, member));
                self.each(jobs, seen.map(|s| &mut s.props), map.len())
            }
            Kw::Discriminator { tag, mapping } => {
                let Value::Object(map) = value else { return true };
                let Some((key, tag_value)) = map.get_key_value(tag.as_str()) else {
                    return self.fail("discriminator", Some("discriminator"), value, ErrorKind::Required { property: tag.clone() });
                };
                let Value::String(chosen) = tag_value else {
                    self.instance_path.push(Seg::Key(key));
                    self.fail("discriminator", Some("discriminator"), tag_value, ErrorKind::Type { expected: vec!["string"] });
                    self.instance_path.pop();
                    return false;
                };
                let Ok(at) = mapping.binary_search_by(|(m, _)| m.as_str().cmp(chosen)) else {
                    self.instance_path.push(Seg::Key(key));
                    let options = Value::Array(mapping.iter().map(|(m, _)| Value::String(m.clone())).collect());
                    self.fail("mapping", Some("mapping"), tag_value, ErrorKind::Enum { options });
                    self.instance_path.pop();
                    return false;
                };
                let Some((name, node)) = mapping.get(at) else { return true };
                self.schema_path.push(Seg::Key("mapping"));
                self.schema_path.push(Seg::Key(name));
                let ok = self.node(*node, value, seen);
                self.schema_path.truncate(self.schema_path.len() - 2);
                ok
            }
            _ => true,
        }
    }

    /// A JTD `ref`: the definition's errors have schema paths from `/definitions/<name>`, not
    /// from the `ref` (RFC 8927 section 3.3.2). A definition reached again at the same value
    /// without moving into it adds nothing, as with `$ref`.
    fn jtd_ref(&mut self, node: usize, name: &'s str, value: &'v Value) -> bool {
        let key = (node, std::ptr::from_ref(value) as usize);
        if self.refs.contains(&key) {
            return true;
        }
        self.refs.push(key);
        let outer = std::mem::replace(&mut self.schema_path, vec![Seg::Key("definitions"), Seg::Key(name)]);
        let ok = self.node(node, value, None);
        self.schema_path = outer;
        self.refs.pop();
        ok
    }

    /// Applies each job's subschema at its member or item; those that pass are marked evaluated
    /// in `slots` (of `len` members or items). Stops at the first failure unless collecting.
    fn each(&mut self, jobs: impl Iterator<Item = Job<'s, 'v>>, mut slots: Option<&mut Vec<bool>>, len: usize) -> bool {
        let mut ok = true;
        for job in jobs {
            let depth = self.schema_path.len();
            self.schema_path.push(Seg::Key(job.keyword));
            if let Some(name) = job.name {
                self.schema_path.push(name);
            }
            self.instance_path.push(job.at);
            let good = self.node(job.node, job.value, None);
            self.instance_path.pop();
            self.schema_path.truncate(depth);
            if good {
                if let Some(s) = slots.as_deref_mut() {
                    Seen::mark(s, job.index, len);
                }
            } else {
                ok = false;
                if !self.collecting() {
                    return false;
                }
            }
        }
        ok
    }

    /// Follows a reference. Reaching the same subschema again at the same value, without moving
    /// into the value (`{"$ref": "#"}`), would never end and adds no constraint: it passes.
    fn follow(&mut self, keyword: &'static str, node: usize, value: &'v Value, seen: Option<&mut Seen>) -> bool {
        let key = (node, std::ptr::from_ref(value) as usize);
        if self.refs.contains(&key) {
            return true;
        }
        self.refs.push(key);
        let ok = self.at(keyword, None, node, value, seen);
        self.refs.pop();
        ok
    }

    fn any_of(&mut self, nodes: &'s [usize], value: &'v Value, mut seen: Option<&mut Seen>) -> bool {
        let track = seen.is_some();
        let mut any = false;
        // A plain answer from each branch first: errors are gathered only when none passes, so a
        // union whose later branch matches costs no errors of the earlier ones.
        for (i, node) in nodes.iter().enumerate() {
            let mut own = Seen::default();
            if self.quiet_branch("anyOf", i, *node, value, track.then_some(&mut own)) {
                any = true;
                if let Some(s) = seen.as_deref_mut() {
                    s.merge(own);
                }
                // Annotations need every passing branch; a plain answer needs one.
                if !track {
                    return true;
                }
            }
        }
        if any {
            return true;
        }
        let context = self.contexts("anyOf", nodes, value);
        self.fail("anyOf", Some("anyOf"), value, ErrorKind::AnyOf { context })
    }

    fn one_of(&mut self, keyword: &'static str, nodes: &'s [usize], value: &'v Value, seen: Option<&mut Seen>) -> bool {
        let track = seen.is_some();
        let mut first = None;
        for (i, node) in nodes.iter().enumerate() {
            let mut own = Seen::default();
            if self.quiet_branch(keyword, i, *node, value, track.then_some(&mut own)) {
                if first.is_some() {
                    return self.fail(keyword, Some(keyword), value, ErrorKind::OneOfMultipleValid);
                }
                first = Some(own);
            }
        }
        match first {
            Some(own) => {
                if let Some(s) = seen {
                    s.merge(own);
                }
                true
            }
            None => {
                let context = self.contexts(keyword, nodes, value);
                self.fail(keyword, Some(keyword), value, ErrorKind::OneOfNotValid { context })
            }
        }
    }

    /// Whether branch `i` of `keyword` passes, without its errors.
    fn quiet_branch(&mut self, keyword: &'static str, i: usize, node: usize, value: &'v Value, seen: Option<&mut Seen>) -> bool {
        self.schema_path.push(Seg::Key(keyword));
        self.schema_path.push(Seg::Index(i));
        let ok = self.quietly(node, value, seen);
        self.schema_path.truncate(self.schema_path.len() - 2);
        ok
    }

    /// Each branch's errors, when collecting (all of them failed).
    fn contexts(&mut self, keyword: &'static str, nodes: &'s [usize], value: &'v Value) -> Vec<Vec<Error<'v>>> {
        if !self.collecting() {
            return Vec::new();
        }
        let at = self.instance_path_text();
        let mut context = Vec::with_capacity(nodes.len());
        // The fewest errors of an earlier branch of the right type here: a later branch is
        // nearer only with fewer (`branch_rank`), so its errors past that many change nothing.
        let mut fewest: Option<usize> = None;
        // A discriminator's tag names the branch the value is meant for: only its errors count.
        let selected = self.v.selected_branch(nodes, value);
        for (i, node) in nodes.iter().enumerate() {
            if selected.is_some_and(|s| s != i) {
                context.push(Vec::new());
                continue;
            }
            self.schema_path.push(Seg::Key(keyword));
            self.schema_path.push(Seg::Index(i));
            let errors = self.branch(*node, value, fewest);
            self.schema_path.truncate(self.schema_path.len() - 2);
            let (wrong_type_here, n) = branch_rank(&errors, &at);
            if !wrong_type_here && n > 0 && fewest.is_none_or(|f| n < f) {
                fewest = Some(n);
            }
            context.push(errors);
        }
        context
    }
}

/// A subschema to apply at a member or item: `keyword[/name]` in the schema, `at` (position
/// `index`) in the value.
struct Job<'s, 'v> {
    keyword: &'static str,
    name: Option<Seg<'s>>,
    at: Seg<'v>,
    index: usize,
    node: usize,
    value: &'v Value,
}

impl<'s, 'v> Job<'s, 'v> {
    fn item(keyword: &'static str, name: Option<usize>, index: usize, node: usize, value: &'v Value) -> Self {
        Job { keyword, name: name.map(Seg::Index), at: Seg::Index(index), index, node, value }
    }

    fn member(keyword: &'static str, name: Option<&'s str>, key: &'v str, index: usize, node: usize, value: &'v Value) -> Self {
        Job { keyword, name: name.map(Seg::Key), at: Seg::Key(key), index, node, value }
    }
}

/// Whether `value` is of an RFC 8927 integer type (a number without a fractional part, in the
/// type's range) or a timestamp (RFC 3339 `date-time`, leap seconds included).
fn jtd_type_holds(kind: JtdType, value: &Value) -> bool {
    match (kind.range(), value) {
        (None, Value::String(s)) => super::format::lookup("date-time", Draft::Draft202012).is_some_and(|check| check(s)),
        (Some((min, max)), Value::Number(n)) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i >= min && i <= max,
            // 1.0 and 1e2 are integers too; u64 beyond i64 is out of every range.
            (None, Some(f)) => f.fract() == 0.0 && f >= min as f64 && f <= max as f64,
            _ => false,
        },
        _ => false,
    }
}

/// Whether an object has a member: small objects are scanned, which costs less than hashing.
fn has(map: &serde_json::Map<String, Value>, name: &str) -> bool {
    if map.len() <= 8 {
        map.keys().any(|k| k == name)
    } else {
        map.contains_key(name)
    }
}

impl Validator {
    pub(super) fn is_false(&self, node: usize) -> bool {
        self.nodes.get(node).is_some_and(|n| matches!(n.kws.as_slice(), [Kw::False]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validator::Options;
    use serde_json::json;
    use std::collections::BTreeMap;

    /// The branch the report shows (`branch_rank`, the earlier of equals) and its errors.
    fn nearest(context: &[Vec<Error<'_>>]) -> Option<(usize, Vec<(String, &'static str)>)> {
        context
            .iter()
            .enumerate()
            .filter(|(_, errors)| !errors.is_empty())
            .min_by_key(|(i, errors)| (branch_rank(errors, ""), *i))
            .map(|(i, errors)| (i, errors.iter().map(|e| (e.instance_path.clone(), e.keyword)).collect()))
    }

    #[test]
    fn branches_stop_collecting_without_changing_the_nearest() {
        let kinds = ["write", "run", "search", "other"];
        let branch = |kind: &str, field: &str, extra: serde_json::Value| {
            json!({
                "type": "object",
                "additionalProperties": false,
                "required": ["type", field],
                "properties": {"type": {"const": kind}, (field): {"type": "string", "minLength": 2}, "n": extra}
            })
        };
        let schemas = [
            json!({"oneOf": [branch("write", "path", json!({"type": "integer"})), branch("run", "command", json!({"maximum": 3})), branch("search", "query", json!({"anyOf": [{"type": "string"}, {"type": "object", "required": ["q"]}]})), {"type": "string"}]}),
            json!({"anyOf": [{"type": "array"}, branch("write", "path", json!({"type": "integer"})), branch("run", "path", json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]})), {"type": "object", "required": ["type", "path", "n"]}]}),
        ];
        let pool = [json!("write"), json!("run"), json!("search"), json!("other"), json!(4), json!("x"), json!("long enough"), json!(null), json!({"q": 1}), json!([1])];
        let fields = ["type", "path", "command", "query", "n", "extra"];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) % n as u64) as usize
        };
        let (mut compared, mut shortened) = (0, 0);
        for schema in &schemas {
            let v = Validator::new(schema, &Options { draft: Draft::Draft202012, formats: true, refuse_unknown_formats: false, resources: &BTreeMap::new(), custom_formats: &BTreeMap::new() }).unwrap();
            let branches: Vec<usize> = match v.keywords(v.root()).first() {
                Some(Kw::OneOf(nodes) | Kw::AnyOf(nodes)) => nodes.clone(),
                _ => panic!("the root is a oneOf or anyOf"),
            };
            for _ in 0..3000 {
                let value = if next(8) == 0 {
                    pool[next(pool.len())].clone()
                } else {
                    let mut object = serde_json::Map::new();
                    object.insert("type".into(), json!(kinds[next(kinds.len())]));
                    for _ in 0..next(5) {
                        object.insert(fields[next(fields.len())].into(), pool[next(pool.len())].clone());
                    }
                    serde_json::Value::Object(object)
                };
                let all = errors(&v, v.root(), &value, &[]);
                let Some(context) = all.iter().find_map(|e| match &e.kind {
                    ErrorKind::OneOfNotValid { context } | ErrorKind::AnyOf { context } if e.instance_path.is_empty() => Some(context),
                    _ => None,
                }) else {
                    continue;
                };
                let full: Vec<Vec<Error<'_>>> = branches.iter().map(|&node| errors(&v, node, &value, &[])).collect();
                assert_eq!(nearest(context), nearest(&full), "{value}");
                compared += 1;
                shortened += usize::from(context.iter().map(Vec::len).sum::<usize>() < full.iter().map(Vec::len).sum::<usize>());
            }
        }
        // The comparison means something only if many contexts were cut short.
        assert!(compared > 3000 && shortened * 4 > compared, "{shortened} of {compared} contexts shortened");
    }
}
