//! `compareSchemas`: what changed between two versions of an output schema, sorted by who it can
//! break. It reads the two compiled validators (the one form of a schema every evaluator reads),
//! keyword by keyword, walking both graphs side by side from their roots.
//!
//! - **narrowed**: the new schema rejects some output the old one accepted. Stored outputs may
//!   fail it, and producers must change.
//! - **widened**: the new schema accepts some output the old one rejected. Consumers written for
//!   the old schema may meet values they never expected.
//! - **unknown**: a change whose effect cannot be decided soundly from the schemas (two different
//!   patterns, a `$ref` to another target, a changed `if`, `oneOf` exclusivity …). It is never
//!   counted as compatible.
//!
//! Each keyword is judged on its own: a change that other keywords happen to cancel is still
//! reported (the report may say too much, never too little). A keyword the comparer of the
//! schema's language does not read makes the subschema that has it unknown: nothing is
//! skipped silently.
//!
//! JSON Type Definition (RFC 8927) contracts are compared form by form, with JTD schema paths
//! as pointers (`/properties/name`, `/optionalProperties/x/type`): a definition reached through
//! `ref` is compared at its target.

use crate::json::path::escape_pointer_token;
use crate::json::sourcemap::SourceMap;
use crate::json::textpos::{LineIndex, Range};
use crate::schema::contract::{Contract, Options};
use crate::schema::error::SchemaError;
use crate::schema::version::{self, Bump};
use crate::validator::value::{self, is_multiple_of};
use crate::validator::draft::Draft;
use crate::validator::keywords;
use crate::validator::{JtdType, Kw, Validator, ARRAY, BOOLEAN, INTEGER, NULL, NUMBER, OBJECT, STRING};
use serde::Serialize;
use serde_json::{Number, Value};
use std::cmp::Ordering;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;

/// One change: where it is in the new schema (a JSON Pointer; for a keyword the new schema
/// dropped, the subschema that no longer has it), the keyword concerned, and what it means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    pub pointer: String,
    pub kind: String,
    pub message: String,
    /// The pointer's place in the new schema's text, when the comparison was given the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Comparison {
    pub narrowed: Vec<Change>,
    pub widened: Vec<Change>,
    pub unknown: Vec<Change>,
    /// The smallest version step that allows these changes (`version`'s rule): `patch`,
    /// `minor` or `major`.
    pub needed: &'static str,
    /// When both schemas' `$id`s carry a version: the step between them, and whether it allows
    /// the changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<Step>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    pub from: String,
    pub to: String,
    pub bump: &'static str,
    pub allowed: bool,
}

impl Comparison {
    /// No change at all: the two schemas accept the same outputs.
    pub fn is_empty(&self) -> bool {
        self.narrowed.is_empty() && self.widened.is_empty() && self.unknown.is_empty()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dir {
    Narrowed,
    Widened,
    Unknown,
}

/// Compares two compiled contracts: how `new` differs from `old` in the outputs it accepts.
pub fn compare(old: &Contract, new: &Contract) -> Comparison {
    let (o, n) = (old.validator(), new.validator());
    let jtd = old.draft() == Draft::Jtd;
    let mut walker = Walker::new(o, n, jtd);
    if jtd == (new.draft() == Draft::Jtd) {
        walker.pair(Side::Node(o.root()), Side::Node(n.root()), "");
    } else {
        let message = format!("the schema language changed ({} to {}): the two cannot be compared keyword by keyword", old.draft().title(), new.draft().title());
        walker.emit(Dir::Unknown, String::new(), "draft", message);
    }
    let mut comparison = walker.finish();
    comparison.needed = Bump::needed(&comparison).name();
    let version = |c: &Contract| version::schema_id(c.schema(), c.draft()).and_then(version::name_and_version).map(|(_, v)| v);
    if let (Some(from), Some(to)) = (version(old), version(new)) {
        let bump = Bump::between(&from, &to);
        comparison.step = Some(Step { from: from.to_string(), to: to.to_string(), bump: bump.name(), allowed: bump.allows(&comparison) });
    }
    comparison
}

/// Compiles both schema texts with `options` and compares them; each change carries its range
/// in `new_text`. A schema that does not compile is the error (`Err((which, error))`, `which`
/// being `"old"` or `"new"`).
pub fn compare_texts(old_text: &str, new_text: &str, options: &Options) -> Result<Comparison, (&'static str, SchemaError)> {
    let old = Contract::compile_text(old_text, options).map_err(|e| ("old", e))?;
    let new = Contract::compile_text(new_text, options).map_err(|e| ("new", e))?;
    let mut comparison = compare(&old, &new);
    add_ranges(&mut comparison, new_text);
    Ok(comparison)
}

/// Gives each change the range of its pointer (or of the nearest enclosing member) in `text`;
/// a change inside another document (`URI#pointer`, reached through a `$ref`) has none there.
pub fn add_ranges(comparison: &mut Comparison, text: &str) {
    let Some(map) = SourceMap::new(text) else { return };
    let lines = LineIndex::new(text);
    for change in comparison.narrowed.iter_mut().chain(comparison.widened.iter_mut()).chain(comparison.unknown.iter_mut()) {
        if change.pointer.contains('#') {
            continue;
        }
        change.range = map.nearest(&change.pointer).map(|node| {
            let span = node.key.map_or(node.value, |k| crate::json::sourcemap::Span { start: k.start, end: node.value.end });
            lines.range(span.start, span.end)
        });
    }
    // In the order of the text, as an editor lists them.
    for list in [&mut comparison.narrowed, &mut comparison.widened, &mut comparison.unknown] {
        crate::sort::sort_by(list, |a, b| a.range.map(|r| r.start.offset).cmp(&b.range.map(|r| r.start.offset)));
    }
}

/// A subschema on one side: a compiled node, or none at all (an absent keyword accepts anything,
/// as the empty schema does).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    Node(usize),
    Empty,
}

/// How deep the side-by-side walk goes (a chain of references is walked one node at a time).
const MAX_DEPTH: usize = 256;

struct Walker<'v> {
    old: &'v Validator,
    new: &'v Validator,
    seen: HashSet<(Side, Side, bool)>,
    out: Comparison,
    /// Inside an odd number of `not`s: what narrows the subschema widens the schema.
    flip: bool,
    /// Both schemas are JSON Type Definitions, compared form by form.
    jtd: bool,
    depth: usize,
    /// Keys of changes already recorded (a node reached twice reports once).
    keys: BTreeSet<(u8, String, String, String)>,
    /// `same`'s answers, shared by every walker of one comparison: without it, `anyOf`
    /// branches nested in a recursive schema would be matched again at every level.
    memo: Rc<RefCell<HashMap<(Side, Side), bool>>>,
}

fn join(at: &str, tokens: &[&str]) -> String {
    let mut out = at.to_string();
    for t in tokens {
        out.push('/');
        out.push_str(&escape_pointer_token(t));
    }
    out
}

fn type_names(mask: u8) -> String {
    let names: Vec<&str> = [(NULL, "null"), (BOOLEAN, "boolean"), (INTEGER, "integer"), (NUMBER, "number"), (STRING, "string"), (ARRAY, "array"), (OBJECT, "object")]
        .iter()
        .filter(|(bit, _)| mask & bit != 0 && !(*bit == INTEGER && mask & NUMBER != 0))
        .map(|(_, n)| *n)
        .collect();
    names.join(", ")
}

fn value_type(v: &Value) -> u8 {
    match v {
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Number(n) if value::is_integer(n) => INTEGER | NUMBER,
        Value::Number(_) => NUMBER,
        Value::String(_) => STRING,
        Value::Array(_) => ARRAY,
        Value::Object(_) => OBJECT,
    }
}

const ALL_TYPES: u8 = NULL | BOOLEAN | INTEGER | NUMBER | STRING | ARRAY | OBJECT;

/// The values `enum` and `const` allow together (`None`: no such keyword).
fn allowed(kws: &[Kw]) -> Option<Vec<&Value>> {
    let mut out: Option<Vec<&Value>> = None;
    for kw in kws {
        let list: Vec<&Value> = match kw {
            Kw::Enum(Value::Array(items)) => items.iter().collect(),
            Kw::Enum(_) => continue,
            Kw::Const(v) => vec![v],
            _ => continue,
        };
        out = Some(match out {
            None => list,
            Some(prev) => prev.into_iter().filter(|a| list.iter().any(|b| value::equal(a, b))).collect(),
        });
    }
    out
}

/// The types a subschema accepts, from `type` and from the values `enum`/`const` allow; a
/// `number` includes the integers.
fn types(kws: &[Kw]) -> u8 {
    let mut mask = ALL_TYPES;
    for kw in kws {
        if let Kw::Type { mask: m, .. } = kw {
            let m = if m & NUMBER != 0 { m | INTEGER } else { *m };
            mask &= m;
        }
    }
    if let Some(values) = allowed(kws) {
        let from_values = values.iter().fold(0, |m, v| {
            let t = value_type(v);
            // An integer value satisfies both `integer` and `number`; what it needs is `integer`.
            m | if t & INTEGER != 0 { INTEGER } else { t }
        });
        mask &= from_values;
    }
    mask
}

fn is_false(kws: &[Kw]) -> bool {
    kws.iter().any(|k| matches!(k, Kw::False))
}

/// A bound of a range of numbers: its limit and whether it is exclusive.
type Bound<'k> = (&'k Number, bool, &'static str);

/// The tightest lower (`lower`) or upper bound among the keywords.
fn number_bound(kws: &[Kw], lower: bool) -> Option<Bound<'_>> {
    let mut best: Option<Bound<'_>> = None;
    for kw in kws {
        let b: Bound<'_> = match (kw, lower) {
            (Kw::Minimum(n), true) => (n, false, "minimum"),
            (Kw::ExclusiveMinimum(n), true) => (n, true, "exclusiveMinimum"),
            (Kw::Maximum(n), false) => (n, false, "maximum"),
            (Kw::ExclusiveMaximum(n), false) => (n, true, "exclusiveMaximum"),
            _ => continue,
        };
        best = Some(match best {
            None => b,
            Some(prev) => {
                let order = tighter(b, prev, lower);
                if order == Ordering::Greater { b } else { prev }
            }
        });
    }
    best
}

/// Whether bound `a` is tighter (Greater), looser (Less) or the same as `b`.
fn tighter(a: Bound<'_>, b: Bound<'_>, lower: bool) -> Ordering {
    let order = value::compare(a.0, b.0).unwrap_or(Ordering::Equal);
    let order = if lower { order } else { order.reverse() };
    order.then(a.1.cmp(&b.1))
}

fn number_text(n: &Number) -> String {
    n.to_string()
}

impl<'v> Walker<'v> {
    fn new(old: &'v Validator, new: &'v Validator, jtd: bool) -> Self {
        Walker { old, new, seen: HashSet::new(), out: Comparison::default(), flip: false, jtd, depth: 0, keys: BTreeSet::new(), memo: Rc::default() }
    }

    fn finish(self) -> Comparison {
        self.out
    }

    fn kws_old(&self, s: Side) -> &'v [Kw] {
        match s {
            Side::Node(n) => self.old.keywords(n),
            Side::Empty => &[],
        }
    }

    fn kws_new(&self, s: Side) -> &'v [Kw] {
        match s {
            Side::Node(n) => self.new.keywords(n),
            Side::Empty => &[],
        }
    }

    fn emit(&mut self, dir: Dir, pointer: String, kind: &str, message: String) {
        let dir = match (dir, self.flip) {
            (Dir::Narrowed, true) => Dir::Widened,
            (Dir::Widened, true) => Dir::Narrowed,
            (d, _) => d,
        };
        let tag = match dir {
            Dir::Narrowed => 0,
            Dir::Widened => 1,
            Dir::Unknown => 2,
        };
        if !self.keys.insert((tag, pointer.clone(), kind.to_string(), message.clone())) {
            return;
        }
        let change = Change { pointer, kind: kind.to_string(), message, range: None };
        match dir {
            Dir::Narrowed => self.out.narrowed.push(change),
            Dir::Widened => self.out.widened.push(change),
            Dir::Unknown => self.out.unknown.push(change),
        }
    }

    /// Whether two subschemas accept the same outputs as far as the comparison can tell. The
    /// pairs this walk is already comparing count as the same inside (they are judged where the
    /// walk meets them), so a recursive schema is not walked around again.
    fn same(&self, o: Side, n: Side) -> bool {
        if let Some(known) = self.memo.borrow().get(&(o, n)) {
            return *known;
        }
        let mut sub = Walker::new(self.old, self.new, self.jtd);
        sub.depth = self.depth;
        sub.seen = self.seen.clone();
        sub.memo = Rc::clone(&self.memo);
        sub.pair(o, n, "");
        let same = sub.out.is_empty();
        self.memo.borrow_mut().insert((o, n), same);
        same
    }

    /// The location of a node of the new schema, or `at` for no node.
    fn at_new(&self, n: Side, at: &str) -> String {
        match n {
            Side::Node(i) => self.new.location(i).to_string(),
            Side::Empty => at.to_string(),
        }
    }

    fn pair(&mut self, o: Side, n: Side, at: &str) {
        if !self.seen.insert((o, n, self.flip)) {
            return;
        }
        if self.depth >= MAX_DEPTH {
            self.emit(Dir::Unknown, at.to_string(), "$ref", "the schemas nest too deeply to compare here".into());
            return;
        }
        self.depth += 1;
        self.pair_keywords(o, n, at);
        self.depth -= 1;
    }

    fn pair_keywords(&mut self, o: Side, n: Side, at: &str) {
        let (ok, nk) = (self.kws_old(o), self.kws_new(n));
        let unread = |kws: &[Kw]| kws.iter().any(|k| !reads(k, self.jtd));
        if unread(ok) || unread(nk) {
            self.emit(Dir::Unknown, at.to_string(), "keyword", "a keyword here is one this comparison does not read: whether it changed cannot be told".into());
        }
        if self.jtd {
            self.jtd_pair(ok, nk, o, n, at);
            return;
        }
        match (is_false(ok), is_false(nk)) {
            (true, true) => return,
            (true, false) => {
                self.emit(Dir::Widened, at.to_string(), "false", "accepts values here, where the old schema accepted none".into());
                return;
            }
            (false, true) => {
                self.emit(Dir::Narrowed, at.to_string(), "false", "accepts no value here any more".into());
                return;
            }
            _ => {}
        }
        if !self.references(ok, nk, o, n, at) {
            return;
        }
        self.type_and_values(ok, nk, at);
        self.numbers(ok, nk, at);
        self.counts(ok, nk, at);
        self.strings(ok, nk, at);
        self.flags(ok, nk, at);
        self.required(ok, nk, at);
        self.objects(ok, nk, at);
        self.arrays(ok, nk, at);
        self.combinators(ok, nk, at);
        self.conditionals(ok, nk, at);
    }

    /// `$ref` (and the dynamic references): the same target on both sides is compared there;
    /// another target is unknown unless it accepts the same outputs. A subschema that is only a
    /// reference on one side is compared with the other side's subschema. Returns whether the
    /// sibling keywords remain to compare.
    fn references(&mut self, ok: &'v [Kw], nk: &'v [Kw], o: Side, n: Side, at: &str) -> bool {
        let target = |kws: &[Kw]| kws.iter().find_map(|k| match k {
            Kw::Ref(t) | Kw::RecursiveRef(t) | Kw::DynamicRef { target: t, .. } => Some(*t),
            _ => None,
        });
        match (target(ok), target(nk)) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                let (la, lb) = (self.old.location(a).to_string(), self.new.location(b).to_string());
                if la == lb {
                    let here = self.at_new(Side::Node(b), at);
                    self.pair(Side::Node(a), Side::Node(b), &here);
                } else if !self.same(Side::Node(a), Side::Node(b)) {
                    // Another target that accepts the same outputs (a renamed definition, a
                    // dependency's patch version) changes nothing; any other is for a person to
                    // judge: the reference now names another type.
                    let pointer = join(at, &["$ref"]);
                    let message = format!("the reference now leads to {} (it led to {}): compare the two targets on their own", shown(&lb), shown(&la));
                    self.emit(Dir::Unknown, pointer, "$ref", message);
                }
                true
            }
            (Some(a), None) if ok.len() == 1 => {
                self.pair(Side::Node(a), n, at);
                false
            }
            (None, Some(b)) if nk.len() == 1 => {
                let here = self.at_new(Side::Node(b), at);
                self.pair(o, Side::Node(b), &here);
                false
            }
            (Some(_), None) => {
                self.emit(Dir::Unknown, at.to_string(), "$ref", "the reference was removed and keywords stand beside it".into());
                true
            }
            (None, Some(_)) => {
                self.emit(Dir::Unknown, join(at, &["$ref"]), "$ref", "a reference was added beside other keywords".into());
                true
            }
        }
    }

    fn type_and_values(&mut self, ok: &[Kw], nk: &[Kw], at: &str) {
        let has = |kws: &[Kw], f: fn(&Kw) -> bool| kws.iter().any(f);
        let is_type = |k: &Kw| matches!(k, Kw::Type { .. });
        let type_pointer = if has(nk, is_type) { join(at, &["type"]) } else { at.to_string() };
        // With no `type` on either side, `enum`/`const` below say all there is.
        let typed = has(ok, is_type) || has(nk, is_type);
        let (to, tn) = if typed { (types(ok), types(nk)) } else { (0, 0) };
        let added = tn & !to;
        let removed = to & !tn;
        if added != 0 {
            let message = if added == NULL {
                "null is allowed now".to_string()
            } else {
                format!("accepts {} now", type_names(added))
            };
            self.emit(Dir::Widened, type_pointer.clone(), "type", message);
        }
        if removed != 0 {
            // `integer` from `number`: the numbers with a fraction are no longer accepted.
            let message = if removed == NUMBER && tn & INTEGER != 0 {
                "accepts only integers now, no numbers with a fraction".to_string()
            } else if removed == NULL {
                "null is no longer allowed".to_string()
            } else if to == ALL_TYPES && tn != 0 {
                format!("accepts only {} now, not any type", type_names(tn))
            } else {
                format!("no longer accepts {}", type_names(removed))
            };
            self.emit(Dir::Narrowed, type_pointer, "type", message);
        }
        let kind_of = |kws: &[Kw]| if kws.iter().any(|k| matches!(k, Kw::Const(_))) { "const" } else { "enum" };
        match (allowed(ok), allowed(nk)) {
            (None, None) => {}
            (None, Some(values)) => {
                let kind = kind_of(nk);
                self.emit(Dir::Narrowed, join(at, &[kind]), kind, format!("only {} allowed now", list_values(&values)));
            }
            (Some(values), None) => {
                let kind = kind_of(ok);
                self.emit(Dir::Widened, at.to_string(), kind, format!("any value is allowed now, not only {}", list_values(&values)));
            }
            (Some(old_values), Some(new_values)) => {
                let kind = kind_of(nk);
                let pointer = join(at, &[kind]);
                let added: Vec<&Value> = new_values.iter().copied().filter(|v| !old_values.iter().any(|w| value::equal(v, w))).collect();
                let removed: Vec<&Value> = old_values.iter().copied().filter(|v| !new_values.iter().any(|w| value::equal(v, w))).collect();
                // A value the type no longer accepts is reported once, as the type.
                if !added.is_empty() {
                    self.emit(Dir::Widened, pointer.clone(), kind, format!("{} allowed now", list_values(&added)));
                }
                if !removed.is_empty() {
                    self.emit(Dir::Narrowed, pointer, kind, format!("{} no longer allowed", list_values(&removed)));
                }
            }
        }
    }

    fn numbers(&mut self, ok: &'v [Kw], nk: &'v [Kw], at: &str) {
        for lower in [true, false] {
            let (bo, bn) = (number_bound(ok, lower), number_bound(nk, lower));
            let what = if lower { "lower" } else { "upper" };
            match (bo, bn) {
                (None, None) => {}
                (None, Some(b)) => self.emit(Dir::Narrowed, join(at, &[b.2]), b.2, format!("numbers now have a {what} bound, {} {}", b.2, number_text(b.0))),
                (Some(b), None) => self.emit(Dir::Widened, at.to_string(), b.2, format!("numbers no longer have a {what} bound (was {} {})", b.2, number_text(b.0))),
                (Some(a), Some(b)) => {
                    let message = format!("{} {} (was {} {})", b.2, number_text(b.0), a.2, number_text(a.0));
                    match tighter(b, a, lower) {
                        Ordering::Greater => self.emit(Dir::Narrowed, join(at, &[b.2]), b.2, message),
                        Ordering::Less => self.emit(Dir::Widened, join(at, &[b.2]), b.2, message),
                        Ordering::Equal => {}
                    }
                }
            }
        }
        let multiple = |kws: &'v [Kw]| -> Vec<&'v Number> { kws.iter().filter_map(|k| if let Kw::MultipleOf(m) = k { Some(m) } else { None }).collect() };
        let (mo, mn) = (multiple(ok), multiple(nk));
        match (mo.first(), mn.first()) {
            (None, None) => {}
            (None, Some(m)) => self.emit(Dir::Narrowed, join(at, &["multipleOf"]), "multipleOf", format!("numbers must now be multiples of {m}")),
            (Some(m), None) => self.emit(Dir::Widened, at.to_string(), "multipleOf", format!("numbers no longer need to be multiples of {m}")),
            (Some(a), Some(b)) => {
                let pointer = join(at, &["multipleOf"]);
                let message = format!("multipleOf {b} (was {a})");
                if value::compare(a, b) == Some(Ordering::Equal) {
                    return;
                }
                // A multiple of b is a multiple of a when b is a multiple of a.
                if !is_multiple_of(b, a) {
                    self.emit(Dir::Widened, pointer.clone(), "multipleOf", message.clone());
                }
                if !is_multiple_of(a, b) {
                    self.emit(Dir::Narrowed, pointer, "multipleOf", message);
                }
            }
        }
    }

    /// The count bounds: lengths, numbers of items and of properties, `contains` counts.
    fn counts(&mut self, ok: &[Kw], nk: &[Kw], at: &str) {
        type Get = fn(&Kw) -> Option<u64>;
        // What each counts and whether it is a lower bound; the keyword is the compiled one's name.
        let table: [(&str, bool, Get); 6] = [
            ("characters", true, |k| if let Kw::MinLength(n) = k { Some(*n) } else { None }),
            ("characters", false, |k| if let Kw::MaxLength(n) = k { Some(*n) } else { None }),
            ("items", true, |k| if let Kw::MinItems(n) = k { Some(*n) } else { None }),
            ("items", false, |k| if let Kw::MaxItems(n) = k { Some(*n) } else { None }),
            ("properties", true, |k| if let Kw::MinProperties(n) = k { Some(*n) } else { None }),
            ("properties", false, |k| if let Kw::MaxProperties(n) = k { Some(*n) } else { None }),
        ];
        for (unit, lower, get) in table {
            let named = |kws: &[Kw]| kws.iter().find(|k| get(k).is_some()).map(Kw::name);
            // Neither side has the bound: nothing changed.
            let Some(keyword) = named(nk).or_else(|| named(ok)) else { continue };
            let pick = |kws: &[Kw]| {
                let found = kws.iter().filter_map(get);
                if lower { found.max() } else { found.min() }
            };
            // An absent lower bound is 0; an absent upper bound is none.
            let (a, b) = (pick(ok), pick(nk));
            let (a0, b0) = if lower { (a.or(Some(0)), b.or(Some(0))) } else { (a, b) };
            let pointer = if b.is_some() { join(at, &[keyword]) } else { at.to_string() };
            let bound = if lower { "at least" } else { "at most" };
            let show = |v: Option<u64>| v.map_or("no limit".to_string(), |n| format!("{bound} {n}"));
            let message = format!("{keyword}: {} {unit} (was {})", show(b.or(if lower { Some(0) } else { None })), show(a0));
            let narrower = match (a0, b0) {
                (x, y) if x == y => continue,
                (None, Some(_)) => !lower,
                (Some(_), None) => lower,
                (Some(x), Some(y)) => if lower { y > x } else { y < x },
                (None, None) => continue,
            };
            self.emit(if narrower { Dir::Narrowed } else { Dir::Widened }, pointer, keyword, message);
        }
    }

    fn strings(&mut self, ok: &[Kw], nk: &[Kw], at: &str) {
        type Get = for<'k> fn(&'k Kw) -> Option<&'k str>;
        let table: [Get; 2] = [|k| if let Kw::Pattern(_, s) = k { Some(s.as_str()) } else { None }, |k| if let Kw::Format(_, s) = k { Some(s.as_str()) } else { None }];
        for get in table {
            let (a, b): (BTreeSet<&str>, BTreeSet<&str>) = (ok.iter().filter_map(get).collect(), nk.iter().filter_map(get).collect());
            // The keyword is the compiled one's name; a side without it has an empty set.
            let Some(keyword) = ok.iter().chain(nk).find(|k| get(k).is_some()).map(Kw::name) else { continue };
            if a == b {
                continue;
            }
            let quote = |set: &BTreeSet<&str>| set.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", ");
            if a.is_empty() {
                self.emit(Dir::Narrowed, join(at, &[keyword]), keyword, format!("strings must now match {keyword} {}", quote(&b)));
            } else if b.is_empty() {
                self.emit(Dir::Widened, at.to_string(), keyword, format!("strings no longer need to match {keyword} {}", quote(&a)));
            } else {
                let message = format!("{keyword} {} replaced {}: which strings each accepts cannot be compared", quote(&b), quote(&a));
                self.emit(Dir::Unknown, join(at, &[keyword]), keyword, message);
            }
        }
    }

    /// Keywords that are there or not: `uniqueItems`, `contentEncoding`, `contentMediaType`.
    fn flags(&mut self, ok: &[Kw], nk: &[Kw], at: &str) {
        type Is = fn(&Kw) -> bool;
        let table: [(&str, &str, Is); 3] = [
            ("uniqueItems", "array items must be unique", |k| matches!(k, Kw::UniqueItems)),
            ("contentEncoding", "strings must be base64", |k| matches!(k, Kw::ContentEncoding(_))),
            ("contentMediaType", "strings must hold JSON", |k| matches!(k, Kw::ContentMediaType(..))),
        ];
        for (keyword, rule, is) in table {
            match (ok.iter().any(is), nk.iter().any(is)) {
                (false, true) => self.emit(Dir::Narrowed, join(at, &[keyword]), keyword, format!("{rule} now")),
                (true, false) => self.emit(Dir::Widened, at.to_string(), keyword, format!("no longer: {rule}")),
                _ => {}
            }
        }
    }

    fn required(&mut self, ok: &'v [Kw], nk: &'v [Kw], at: &str) {
        let names = |kws: &'v [Kw]| -> BTreeSet<&'v str> {
            kws.iter().filter_map(|k| if let Kw::Required(n) = k { Some(n) } else { None }).flatten().map(String::as_str).collect()
        };
        let (a, b) = (names(ok), names(nk));
        for name in b.difference(&a) {
            self.emit(Dir::Narrowed, join(at, &["required"]), "required", format!("property {name:?} is required now"));
        }
        let pointer = if b.is_empty() { at.to_string() } else { join(at, &["required"]) };
        for name in a.difference(&b) {
            self.emit(Dir::Widened, pointer.clone(), "required", format!("property {name:?} is no longer required"));
        }
        let deps = |kws: &'v [Kw]| -> BTreeMap<&'v str, BTreeSet<&'v str>> {
            let mut out: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
            for k in kws {
                if let Kw::DependentRequired(_, list) = k {
                    for (name, needs) in list {
                        out.entry(name.as_str()).or_default().extend(needs.iter().map(String::as_str));
                    }
                }
            }
            out
        };
        let (da, db) = (deps(ok), deps(nk));
        let keyword = nk.iter().chain(ok).find_map(|k| if let Kw::DependentRequired(kw, _) = k { Some(*kw) } else { None }).unwrap_or("dependentRequired");
        let empty = BTreeSet::new();
        for name in da.keys().chain(db.keys()).collect::<BTreeSet<_>>() {
            let (x, y) = (da.get(name).unwrap_or(&empty), db.get(name).unwrap_or(&empty));
            let pointer = if db.contains_key(name) { join(at, &[keyword, name]) } else { at.to_string() };
            for needed in y.difference(x) {
                self.emit(Dir::Narrowed, pointer.clone(), keyword, format!("property {needed:?} is required now when {name:?} is present"));
            }
            for needed in x.difference(y) {
                self.emit(Dir::Widened, pointer.clone(), keyword, format!("property {needed:?} is no longer required when {name:?} is present"));
            }
        }
    }

    fn objects(&mut self, ok: &'v [Kw], nk: &'v [Kw], at: &str) {
        let props = |kws: &'v [Kw]| -> BTreeMap<&'v str, usize> {
            kws.iter().filter_map(|k| if let Kw::Properties(p) = k { Some(p) } else { None }).flatten().map(|(name, node)| (name.as_str(), *node)).collect()
        };
        let patterns = |kws: &'v [Kw]| -> Vec<(usize, &'v str, usize)> {
            kws.iter().filter_map(|k| if let Kw::PatternProperties(p) = k { Some(p) } else { None }).flatten().map(|(i, s, n)| (*i, s.as_str(), *n)).collect()
        };
        let additional = |kws: &[Kw]| kws.iter().find_map(|k| if let Kw::AdditionalProperties { node, .. } = k { Some(Side::Node(*node)) } else { None }).unwrap_or(Side::Empty);
        let (po, pn) = (props(ok), props(nk));
        let (pp_old, pp_new) = (patterns(ok), patterns(nk));
        let (ao, an) = (additional(ok), additional(nk));
        let names: BTreeSet<&str> = po.keys().chain(pn.keys()).copied().collect();
        for name in names {
            match (po.get(name), pn.get(name)) {
                (Some(&a), Some(&b)) => {
                    let here = self.new.location(b).to_string();
                    self.pair(Side::Node(a), Side::Node(b), &here);
                }
                (None, Some(&b)) => {
                    let here = self.new.location(b).to_string();
                    match fallback(self.old, &pp_old, ao, name) {
                        Some(side) if is_false(self.kws_old(side)) => {
                            self.emit(Dir::Widened, here, "properties", format!("new property {name:?} is accepted, where the old schema's closed object refused it"));
                        }
                        Some(side) => self.pair(side, Side::Node(b), &here),
                        None => self.emit(Dir::Unknown, here, "patternProperties", format!("property {name:?} matched several patternProperties in the old schema")),
                    }
                }
                (Some(&a), None) => {
                    let pointer = if pn.is_empty() { at.to_string() } else { join(at, &["properties"]) };
                    match fallback(self.new, &pp_new, an, name) {
                        Some(side) if is_false(self.kws_new(side)) => {
                            self.emit(Dir::Narrowed, pointer, "properties", format!("property {name:?} was removed and the object is closed: it is refused now"));
                        }
                        // Dropped from an open object: whatever the old subschema asked of the
                        // property, the new schema asks nothing.
                        Some(Side::Empty) if !self.kws_old(Side::Node(a)).is_empty() => {
                            self.emit(Dir::Widened, pointer, "properties", format!("property {name:?} is no longer described: any value is accepted for it"));
                        }
                        Some(side) => {
                            let here = self.at_new(side, &pointer);
                            self.pair(Side::Node(a), side, &here);
                        }
                        None => self.emit(Dir::Unknown, pointer, "patternProperties", format!("property {name:?} matches several patternProperties in the new schema")),
                    }
                }
                (None, None) => {}
            }
        }
        let sources = |list: &[(usize, &'v str, usize)]| -> BTreeMap<&'v str, usize> { list.iter().map(|(_, s, n)| (*s, *n)).collect() };
        let (so, sn) = (sources(&pp_old), sources(&pp_new));
        if so.keys().eq(sn.keys()) {
            for (source, a) in &so {
                if let Some(b) = sn.get(source) {
                    let here = self.new.location(*b).to_string();
                    self.pair(Side::Node(*a), Side::Node(*b), &here);
                }
            }
        } else {
            let pointer = if sn.is_empty() { at.to_string() } else { join(at, &["patternProperties"]) };
            self.emit(Dir::Unknown, pointer, "patternProperties", "patternProperties changed: which names each pattern covers cannot be compared".into());
        }
        let pointer = self.at_new(an, at);
        match (is_false(self.kws_old(ao)), is_false(self.kws_new(an))) {
            (false, true) => self.emit(Dir::Narrowed, pointer, "additionalProperties", "the object is closed now: properties it does not list are refused".into()),
            (true, false) => self.emit(Dir::Widened, pointer, "additionalProperties", "the object is open now: properties it does not list are accepted".into()),
            _ => self.pair(ao, an, &pointer),
        }
        let names_schema = |kws: &[Kw]| kws.iter().find_map(|k| if let Kw::PropertyNames(n) = k { Some(Side::Node(*n)) } else { None }).unwrap_or(Side::Empty);
        let (no, nn) = (names_schema(ok), names_schema(nk));
        let here = self.at_new(nn, at);
        self.pair(no, nn, &here);
        let dependent = |kws: &'v [Kw]| -> BTreeMap<&'v str, usize> {
            kws.iter().filter_map(|k| if let Kw::DependentSchemas(_, l) = k { Some(l) } else { None }).flatten().map(|(name, n)| (name.as_str(), *n)).collect()
        };
        let (dop, dnp) = (dependent(ok), dependent(nk));
        for name in dop.keys().chain(dnp.keys()).collect::<BTreeSet<_>>() {
            let (a, b) = (dop.get(name).map_or(Side::Empty, |n| Side::Node(*n)), dnp.get(name).map_or(Side::Empty, |n| Side::Node(*n)));
            let here = self.at_new(b, at);
            self.pair(a, b, &here);
        }
    }

    fn arrays(&mut self, ok: &'v [Kw], nk: &'v [Kw], at: &str) {
        let items = |kws: &'v [Kw]| -> (&'v [usize], Side) {
            kws.iter()
                .find_map(|k| if let Kw::Items { prefix, rest, .. } = k { Some((prefix.as_slice(), rest.map_or(Side::Empty, Side::Node))) } else { None })
                .unwrap_or((&[], Side::Empty))
        };
        let ((prefix_old, rest_old), (prefix_new, rest_new)) = (items(ok), items(nk));
        for i in 0..prefix_old.len().max(prefix_new.len()) {
            let a = prefix_old.get(i).map_or(rest_old, |n| Side::Node(*n));
            let b = prefix_new.get(i).map_or(rest_new, |n| Side::Node(*n));
            let here = self.at_new(b, at);
            self.pair(a, b, &here);
        }
        let here = self.at_new(rest_new, at);
        match (is_false(self.kws_old(rest_old)), is_false(self.kws_new(rest_new))) {
            (false, true) => self.emit(Dir::Narrowed, here, "items", format!("arrays may hold no items beyond the first {}", prefix_new.len())),
            (true, false) => self.emit(Dir::Widened, here, "items", format!("arrays may hold items beyond the first {} now", prefix_old.len())),
            _ => self.pair(rest_old, rest_new, &here),
        }
        let contains = |kws: &[Kw]| kws.iter().find_map(|k| if let Kw::Contains { node, min, max, .. } = k { Some((*node, *min, *max)) } else { None });
        match (contains(ok), contains(nk)) {
            (None, None) => {}
            (None, Some(_)) => self.emit(Dir::Narrowed, join(at, &["contains"]), "contains", "arrays must now contain a matching item".into()),
            (Some(_), None) => self.emit(Dir::Widened, at.to_string(), "contains", "arrays no longer need to contain a matching item".into()),
            (Some((a, min_a, max_a)), Some((b, min_b, max_b))) => {
                let here = self.new.location(b).to_string();
                self.pair(Side::Node(a), Side::Node(b), &here);
                if min_b != min_a {
                    let dir = if min_b > min_a { Dir::Narrowed } else { Dir::Widened };
                    self.emit(dir, join(at, &["minContains"]), "minContains", format!("minContains {min_b} (was {min_a})"));
                }
                let narrower = match (max_a, max_b) {
                    (x, y) if x == y => None,
                    (None, Some(_)) => Some(true),
                    (Some(_), None) => Some(false),
                    (Some(x), Some(y)) => Some(y < x),
                    (None, None) => None,
                };
                if let Some(narrower) = narrower {
                    let show = |v: Option<u64>| v.map_or("none".to_string(), |n| n.to_string());
                    let dir = if narrower { Dir::Narrowed } else { Dir::Widened };
                    self.emit(dir, at.to_string(), "maxContains", format!("maxContains {} (was {})", show(max_b), show(max_a)));
                }
            }
        }
    }

    fn combinators(&mut self, ok: &'v [Kw], nk: &'v [Kw], at: &str) {
        let list = |kws: &'v [Kw], which: u8| -> Option<&'v [usize]> {
            kws.iter().find_map(|k| match (k, which) {
                (Kw::AllOf(l), 0) | (Kw::AnyOf(l), 1) | (Kw::OneOf(l), 2) => Some(l.as_slice()),
                _ => None,
            })
        };
        // allOf: every member holds, so each member compares like the schema itself.
        let (ao, an) = (list(ok, 0).unwrap_or(&[]), list(nk, 0).unwrap_or(&[]));
        for i in 0..ao.len().max(an.len()) {
            let (a, b) = (ao.get(i).map_or(Side::Empty, |n| Side::Node(*n)), an.get(i).map_or(Side::Empty, |n| Side::Node(*n)));
            let here = self.at_new(b, &join(at, &["allOf"]));
            self.pair(a, b, &here);
        }
        for (which, keyword) in [(1u8, "anyOf"), (2, "oneOf")] {
            let (a, b) = (list(ok, which), list(nk, which));
            let pointer = join(at, &[keyword]);
            match (a, b) {
                (None, None) => {}
                (None, Some(_)) => self.emit(Dir::Narrowed, pointer, keyword, format!("values must now match {keyword}")),
                (Some(_), None) => self.emit(Dir::Widened, at.to_string(), keyword, format!("values no longer need to match {keyword}")),
                (Some(a), Some(b)) => self.branches(a, b, &pointer, keyword),
            }
        }
        let not = |kws: &[Kw]| kws.iter().find_map(|k| if let Kw::Not(n, _) = k { Some(Side::Node(*n)) } else { None });
        match (not(ok), not(nk)) {
            (None, None) => {}
            (None, Some(_)) => self.emit(Dir::Narrowed, join(at, &["not"]), "not", "values matching the new not are refused now".into()),
            (Some(_), None) => self.emit(Dir::Widened, at.to_string(), "not", "values the old not refused are accepted now".into()),
            (Some(a), Some(b)) => {
                // What widens the subschema of `not` narrows the schema.
                let here = self.at_new(b, at);
                self.flip = !self.flip;
                self.pair(a, b, &here);
                self.flip = !self.flip;
            }
        }
    }

    /// The branches of `anyOf`/`oneOf`: a branch unchanged on both sides is matched first,
    /// wherever it moved; the rest pair by position when as many changed on each side, else an
    /// added branch widens and a removed one narrows. In `oneOf` any change may also make a
    /// value match two branches, and be refused: that part is unknown.
    fn branches(&mut self, a: &[usize], b: &[usize], pointer: &str, keyword: &str) {
        let mut free_old: Vec<usize> = a.to_vec();
        let mut changed_new = Vec::new();
        for &nb in b {
            match free_old.iter().position(|&oa| self.same(Side::Node(oa), Side::Node(nb))) {
                Some(i) => {
                    free_old.remove(i);
                }
                None => changed_new.push(nb),
            }
        }
        if free_old.is_empty() && changed_new.is_empty() {
            return;
        }
        if free_old.len() == changed_new.len() {
            for (oa, nb) in free_old.iter().zip(&changed_new) {
                let here = self.new.location(*nb).to_string();
                self.pair(Side::Node(*oa), Side::Node(*nb), &here);
            }
        } else {
            for nb in &changed_new {
                let here = self.new.location(*nb).to_string();
                self.emit(Dir::Widened, here, keyword, format!("a new {keyword} branch accepts more values"));
            }
            for _ in &free_old {
                self.emit(Dir::Narrowed, pointer.to_string(), keyword, format!("a {keyword} branch was removed: values only it accepted are refused"));
            }
        }
        if keyword == "oneOf" {
            self.emit(Dir::Unknown, pointer.to_string(), keyword, "oneOf branches changed: a value may now match two branches, which oneOf refuses".into());
        }
    }

    /// `if`/`then`/`else` with the same condition compare branch by branch; any other change
    /// to a condition is unknown. `unevaluated*` depends on every other keyword: changed, unknown.
    fn conditionals(&mut self, ok: &'v [Kw], nk: &'v [Kw], at: &str) {
        let cond = |kws: &[Kw]| kws.iter().find_map(|k| if let Kw::If { cond, then, otherwise } = k { Some((*cond, *then, *otherwise)) } else { None });
        match (cond(ok), cond(nk)) {
            (None, None) => {}
            (Some((ca, ta, ea)), Some((cb, tb, eb))) if self.same(Side::Node(ca), Side::Node(cb)) => {
                for (x, y) in [(ta, tb), (ea, eb)] {
                    let (x, y) = (x.map_or(Side::Empty, Side::Node), y.map_or(Side::Empty, Side::Node));
                    let here = self.at_new(y, at);
                    self.pair(x, y, &here);
                }
            }
            (_, b) => {
                let pointer = if b.is_some() { join(at, &["if"]) } else { at.to_string() };
                self.emit(Dir::Unknown, pointer, "if", "the if condition changed: which values each branch applies to cannot be compared".into());
            }
        }
        type Get = fn(&Kw) -> Option<usize>;
        let table: [(&str, Get); 2] = [
            ("unevaluatedProperties", |k| if let Kw::UnevaluatedProperties(n) = k { Some(*n) } else { None }),
            ("unevaluatedItems", |k| if let Kw::UnevaluatedItems(n) = k { Some(*n) } else { None }),
        ];
        for (keyword, get) in table {
            let (a, b) = (ok.iter().find_map(get), nk.iter().find_map(get));
            let differs = match (a, b) {
                (None, None) => false,
                (Some(x), Some(y)) => !self.same(Side::Node(x), Side::Node(y)),
                _ => true,
            };
            if differs {
                let pointer = if b.is_some() { join(at, &[keyword]) } else { at.to_string() };
                self.emit(Dir::Unknown, pointer, keyword, format!("{keyword} changed: what it covers depends on every other keyword"));
            }
        }
    }
}

/// The subschema a property name not listed in `properties` gets: the one pattern property it
/// matches, else `additionalProperties`; `None` when it matches several.
fn fallback(v: &Validator, patterns: &[(usize, &str, usize)], additional: Side, name: &str) -> Option<Side> {
    let hits: Vec<usize> = patterns.iter().filter(|(i, _, _)| v.name_matches(*i, name)).map(|(_, _, n)| *n).collect();
    match hits.as_slice() {
        [] => Some(additional),
        [one] => Some(Side::Node(*one)),
        _ => None,
    }
}

fn list_values(values: &[&Value]) -> String {
    values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
}

/// A node location as people read it: `#` for the root, else the pointer as it is.
fn shown(location: &str) -> String {
    if location.is_empty() { "#".to_string() } else if location.contains('#') { location.to_string() } else { format!("#{location}") }
}

/// Whether the comparer of a schema language (JTD or JSON Schema) reads a compiled keyword: the
/// keyword tables say which language its name belongs to (the `false` schema is JSON Schema's).
/// Where one it does not read appears, the subschema is unknown rather than compared without it.
fn reads(kw: &Kw, jtd: bool) -> bool {
    let name = kw.name();
    if jtd {
        keywords::JTD_KEYWORDS.contains(&name)
    } else {
        name == "falseSchema" || keywords::lookup(name).is_some()
    }
}

/// A JTD type or enum: the values of one JSON type it accepts.
#[derive(Clone, PartialEq, Eq)]
enum Scalar<'k> {
    Boolean,
    String,
    /// `float32`/`float64`: RFC 8927 accepts any number for both.
    Float(&'static str),
    /// An integer type and its inclusive range.
    Int(&'static str, i64, i64),
    Timestamp,
    Enum(Vec<&'k str>),
}

impl Scalar<'_> {
    fn name(&self) -> String {
        match self {
            Scalar::Boolean => "boolean".into(),
            Scalar::String => "string".into(),
            Scalar::Float(n) | Scalar::Int(n, ..) => (*n).into(),
            Scalar::Timestamp => "timestamp".into(),
            Scalar::Enum(values) => format!("enum [{}]", values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", ")),
        }
    }

    /// Whether going from `self` to `new` refuses some value (narrows) and accepts a new one
    /// (widens). Between an enum and `timestamp` both are assumed.
    fn change_to(&self, new: &Scalar<'_>) -> (bool, bool) {
        use Scalar::*;
        match (self, new) {
            (Boolean, Boolean) | (String, String) | (Float(_), Float(_)) | (Timestamp, Timestamp) => (false, false),
            (Int(_, l1, h1), Int(_, l2, h2)) => (l1 < l2 || h1 > h2, l2 < l1 || h2 > h1),
            (Float(_), Int(..)) | (String, Timestamp) | (String, Enum(_)) => (true, false),
            (Int(..), Float(_)) | (Timestamp, String) | (Enum(_), String) => (false, true),
            _ => (true, true),
        }
    }
}

/// One JTD form, as the compiled keywords of a node hold it.
enum Form<'k> {
    /// The empty form (or no schema at all): any value.
    Any,
    Ref(usize),
    Scalar(Scalar<'k>),
    Elements(usize),
    Properties { required: BTreeMap<&'k str, usize>, optional: BTreeMap<&'k str, usize>, open: bool },
    Values(usize),
    Discriminator { tag: &'k str, mapping: BTreeMap<&'k str, usize> },
}

impl Form<'_> {
    /// The keyword that makes the form, for a change's kind.
    fn keyword(&self) -> &'static str {
        match self {
            Form::Any => "{}",
            Form::Ref(_) => "ref",
            Form::Scalar(Scalar::Enum(_)) => "enum",
            Form::Scalar(_) => "type",
            Form::Elements(_) => "elements",
            Form::Properties { .. } => "properties",
            Form::Values(_) => "values",
            Form::Discriminator { .. } => "discriminator",
        }
    }

    fn describe(&self) -> String {
        match self {
            Form::Scalar(s) => s.name(),
            Form::Any => "any value".into(),
            other => format!("the {} form", other.keyword()),
        }
    }

    fn is_object(&self) -> bool {
        matches!(self, Form::Properties { .. } | Form::Values(_) | Form::Discriminator { .. })
    }
}

/// A node's JTD form and whether it accepts null (the empty form does).
fn jtd_form(kws: &[Kw]) -> (Form<'_>, bool) {
    let mut form = Form::Any;
    let mut nullable = kws.is_empty();
    let (mut required, mut optional, mut open) = (BTreeMap::new(), BTreeMap::new(), true);
    let mut is_properties = false;
    for kw in kws {
        match kw {
            Kw::JtdRef { node, nullable: n, .. } => {
                form = Form::Ref(*node);
                nullable = *n;
            }
            Kw::Type { mask, names } => {
                nullable = mask & NULL != 0;
                form = Form::Scalar(if mask & BOOLEAN != 0 {
                    Scalar::Boolean
                } else if mask & STRING != 0 {
                    Scalar::String
                } else {
                    Scalar::Float(names.first().copied().unwrap_or("float64"))
                });
            }
            Kw::JtdType { kind, nullable: n } => {
                nullable = *n;
                form = Form::Scalar(match (kind, kind.range()) {
                    (JtdType::Timestamp, _) | (_, None) => Scalar::Timestamp,
                    (_, Some((lo, hi))) => Scalar::Int(kind.name(), lo, hi),
                });
            }
            Kw::Enum(Value::Array(values)) => {
                nullable = values.iter().any(Value::is_null);
                form = Form::Scalar(Scalar::Enum(values.iter().filter_map(Value::as_str).collect()));
            }
            Kw::JtdForm { mask, keyword, .. } => {
                nullable = mask & NULL != 0;
                is_properties = matches!(*keyword, "properties" | "optionalProperties");
            }
            Kw::Items { rest: Some(rest), .. } => form = Form::Elements(*rest),
            Kw::Properties(list) => required.extend(list.iter().map(|(k, n)| (k.as_str(), *n))),
            Kw::OptionalProperties(list) => optional.extend(list.iter().map(|(k, n)| (k.as_str(), *n))),
            Kw::JtdAdditional(_) => open = false,
            Kw::Values(node) => form = Form::Values(*node),
            Kw::Discriminator { tag, mapping } => form = Form::Discriminator { tag, mapping: mapping.iter().map(|(k, n)| (k.as_str(), *n)).collect() },
            // Read by no form here: `pair_keywords` has reported it.
            _ => {}
        }
    }
    if is_properties {
        form = Form::Properties { required, optional, open };
    }
    (form, nullable)
}

impl<'v> Walker<'v> {
    /// Two JTD schemas: whether null is accepted, then the forms. A `ref` is compared through
    /// its definition (a definition reached from both sides under one name is compared where it
    /// is defined, `/definitions/NAME`).
    fn jtd_pair(&mut self, ok: &'v [Kw], nk: &'v [Kw], o: Side, n: Side, at: &str) {
        let ((fo, null_o), (fn_, null_n)) = (jtd_form(ok), jtd_form(nk));
        match (&fo, &fn_) {
            (Form::Any, Form::Any) => return,
            (Form::Any, _) => {
                let pointer = join(at, &[fn_.keyword()]);
                self.emit(Dir::Narrowed, pointer, fn_.keyword(), format!("accepts only {} now, where any value was accepted", fn_.describe()));
                return;
            }
            (_, Form::Any) => {
                self.emit(Dir::Widened, at.to_string(), fo.keyword(), format!("accepts any value now (was {})", fo.describe()));
                return;
            }
            _ => {}
        }
        // A `ref`'s own `nullable` is compared here; the definition's, where it is paired. (The
        // report may then say too much, never too little.)
        if null_o != null_n {
            if null_n {
                self.emit(Dir::Widened, join(at, &["nullable"]), "nullable", "null is allowed now".into());
            } else {
                self.emit(Dir::Narrowed, at.to_string(), "nullable", "null is no longer allowed".into());
            }
        }
        match (fo, fn_) {
            (Form::Ref(a), Form::Ref(b)) => {
                let here = self.new.location(b).to_string();
                self.pair(Side::Node(a), Side::Node(b), &here);
            }
            (Form::Ref(a), _) => self.pair(Side::Node(a), n, at),
            (_, Form::Ref(b)) => {
                let here = self.new.location(b).to_string();
                self.pair(o, Side::Node(b), &here);
            }
            (Form::Scalar(a), Form::Scalar(b)) => self.jtd_scalars(&a, &b, at),
            (Form::Elements(a), Form::Elements(b)) | (Form::Values(a), Form::Values(b)) => {
                let here = self.new.location(b).to_string();
                self.pair(Side::Node(a), Side::Node(b), &here);
            }
            (Form::Properties { required: ro, optional: oo, open: open_o }, Form::Properties { required: rn, optional: on, open: open_n }) => {
                self.jtd_properties((&ro, &oo, open_o), (&rn, &on, open_n), at);
            }
            (Form::Discriminator { tag: to, mapping: mo }, Form::Discriminator { tag: tn, mapping: mn }) => self.jtd_discriminator((to, &mo), (tn, &mn), at),
            (a, b) if a.is_object() && b.is_object() => {
                let message = format!("{} replaced {}: which objects each accepts cannot be compared", b.describe(), a.describe());
                self.emit(Dir::Unknown, join(at, &[b.keyword()]), b.keyword(), message);
            }
            (a, b) => {
                // Different JSON types: no value but null is accepted by both.
                let pointer = join(at, &[b.keyword()]);
                self.emit(Dir::Narrowed, pointer.clone(), b.keyword(), format!("accepts {} now: {} is refused", b.describe(), a.describe()));
                self.emit(Dir::Widened, pointer, b.keyword(), format!("accepts {} now (was {})", b.describe(), a.describe()));
            }
        }
    }

    fn jtd_scalars(&mut self, a: &Scalar<'_>, b: &Scalar<'_>, at: &str) {
        if let (Scalar::Enum(x), Scalar::Enum(y)) = (a, b) {
            let pointer = join(at, &["enum"]);
            let added: Vec<String> = y.iter().filter(|v| !x.contains(v)).map(|v| format!("{v:?}")).collect();
            let removed: Vec<String> = x.iter().filter(|v| !y.contains(v)).map(|v| format!("{v:?}")).collect();
            if !added.is_empty() {
                self.emit(Dir::Widened, pointer.clone(), "enum", format!("{} allowed now", added.join(", ")));
            }
            if !removed.is_empty() {
                self.emit(Dir::Narrowed, pointer, "enum", format!("{} no longer allowed", removed.join(", ")));
            }
            return;
        }
        let (narrows, widens) = a.change_to(b);
        let keyword = if matches!(b, Scalar::Enum(_)) { "enum" } else { "type" };
        let pointer = join(at, &[keyword]);
        let what = format!("{} replaced {}", b.name(), a.name());
        if narrows {
            self.emit(Dir::Narrowed, pointer.clone(), keyword, format!("{what}: some values it accepted are refused now"));
        }
        if widens {
            self.emit(Dir::Widened, pointer, keyword, format!("{what}: some values it refused are accepted now"));
        }
    }

    /// The properties form: each property by where it is (required, optional, absent) on each
    /// side, then whether the object is open to other properties.
    fn jtd_properties(&mut self, old: (&BTreeMap<&str, usize>, &BTreeMap<&str, usize>, bool), new: (&BTreeMap<&str, usize>, &BTreeMap<&str, usize>, bool), at: &str) {
        let (ro, oo, open_o) = old;
        let (rn, on, open_n) = new;
        let find = |req: &BTreeMap<&str, usize>, opt: &BTreeMap<&str, usize>, name: &str| req.get(name).map(|n| (true, *n)).or_else(|| opt.get(name).map(|n| (false, *n)));
        let names: BTreeSet<&str> = ro.keys().chain(oo.keys()).chain(rn.keys()).chain(on.keys()).copied().collect();
        for name in names {
            match (find(ro, oo, name), find(rn, on, name)) {
                (Some((was_required, a)), Some((is_required, b))) => {
                    let here = self.new.location(b).to_string();
                    if was_required && !is_required {
                        self.emit(Dir::Widened, here.clone(), "optionalProperties", format!("property {name:?} is optional now"));
                    } else if !was_required && is_required {
                        self.emit(Dir::Narrowed, here.clone(), "properties", format!("property {name:?} is required now"));
                    }
                    self.pair(Side::Node(a), Side::Node(b), &here);
                }
                (None, Some((is_required, b))) => {
                    let here = self.new.location(b).to_string();
                    let keyword = if is_required { "properties" } else { "optionalProperties" };
                    if is_required {
                        self.emit(Dir::Narrowed, here.clone(), keyword, format!("new required property {name:?}: outputs without it are refused"));
                    }
                    if open_o {
                        // The old open object accepted any value for it.
                        self.pair(Side::Empty, Side::Node(b), &here);
                    } else {
                        self.emit(Dir::Widened, here, keyword, format!("property {name:?} is accepted now, where the old closed object refused it"));
                    }
                }
                (Some((was_required, a)), None) => {
                    if was_required {
                        self.emit(Dir::Widened, at.to_string(), "properties", format!("property {name:?} is no longer required"));
                    }
                    if open_n {
                        self.pair(Side::Node(a), Side::Empty, at);
                    } else {
                        self.emit(Dir::Narrowed, at.to_string(), "properties", format!("property {name:?} was removed and the object is closed: it is refused now"));
                    }
                }
                (None, None) => {}
            }
        }
        match (open_o, open_n) {
            (true, false) => self.emit(Dir::Narrowed, at.to_string(), "additionalProperties", "the object is closed now: properties it does not list are refused".into()),
            (false, true) => self.emit(Dir::Widened, join(at, &["additionalProperties"]), "additionalProperties", "the object is open now: properties it does not list are accepted".into()),
            _ => {}
        }
    }

    /// The discriminator form: another tag changes every object it accepts; with the same tag,
    /// each tag value's schema compares with its own.
    fn jtd_discriminator(&mut self, old: (&str, &BTreeMap<&str, usize>), new: (&str, &BTreeMap<&str, usize>), at: &str) {
        let ((to, mo), (tn, mn)) = (old, new);
        if to != tn {
            let pointer = join(at, &["discriminator"]);
            self.emit(Dir::Narrowed, pointer.clone(), "discriminator", format!("the tag is {tn:?} now (was {to:?}): objects tagged by {to:?} are refused"));
            self.emit(Dir::Widened, pointer, "discriminator", format!("the tag is {tn:?} now (was {to:?}): objects tagged by {tn:?} are accepted"));
            return;
        }
        for value in mo.keys().chain(mn.keys()).copied().collect::<BTreeSet<&str>>() {
            match (mo.get(value), mn.get(value)) {
                (Some(&a), Some(&b)) => {
                    let here = self.new.location(b).to_string();
                    self.pair(Side::Node(a), Side::Node(b), &here);
                }
                (None, Some(&b)) => {
                    let here = self.new.location(b).to_string();
                    self.emit(Dir::Widened, here, "mapping", format!("tag value {value:?} is accepted now"));
                }
                (Some(_), None) => self.emit(Dir::Narrowed, join(at, &["mapping"]), "mapping", format!("tag value {value:?} is refused now")),
                (None, None) => {}
            }
        }
    }
}
