//! In-flight checks: while an output streams in, report each violation at the byte where it
//! becomes certain — one that no continuation of the stream could repair.
//!
//! Soundness is the invariant: for a document that is valid when complete, no prefix reports.
//! So only constraints that surely apply at a location are checked: those reached through
//! `properties`, `patternProperties`, `additionalProperties`, `items`/`prefixItems`, `allOf` and
//! `$ref`. `anyOf`/`oneOf` are disjunctions: a violation is reported only once no branch remains
//! viable. Anything conditional (`not`, `if`/`then`/`else`, `dependentSchemas`, `unevaluated*`
//! of a parent) is left to the final validation, which is sound by doing nothing early, except
//! `unevaluatedProperties: false` where the names it lets in are known from the schema alone
//! (`Covered`): a name outside them is certain at its key. A dynamic
//! reference (`$dynamicRef`, `$recursiveRef`) is followed to where the dynamic scope of its
//! evaluation path sends it, as the validator follows it: each location knows the path that
//! reached each of its nodes.

use crate::json::partial::{Closed, Event, Kind, Observer};
use crate::json::path::{InstancePath, Segment};
use crate::report::violation::{self, Branch, Partial, Violation};
use crate::check::verdict::Verdict;
use crate::validator::outline::Outline;
use crate::validator::{leaf, Error, ErrorKind, Kw, Validator, INTEGER, NULL, NUMBER, STRING};
use serde_json::{json, Value};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::Arc;

type NodeId = usize;

/// How deep `allOf`/`anyOf`/`$ref` are expanded at one location; a deeper (or cyclic) chain is
/// treated as satisfiable, which is sound.
const MAX_EXPANSION: usize = 24;

/// How long a received value may be in an early violation (as in the canonical error).
const RECEIVED_CAP: usize = 256;

/// One validator node as the in-flight checks read it (`EarlySchema::nodes` is indexed like the
/// validator's nodes).
#[derive(Default)]
struct EarlyNode {
    always_false: bool,
    /// Every keyword here is decided when the value begins (`type` without `integer`): its
    /// closed value needs no validation (half the leaves of a typical output, whose validation
    /// was a quarter of a stream's cost).
    decided_at_begin: bool,
    /// Beside what `decided_at_begin` allows, only `properties`, `patternProperties`,
    /// `additionalProperties`, `items`, `required`, sizes and `unevaluatedProperties: false`
    /// whose names are known (`Covered`): a closed value is then valid here when its required
    /// names are there and its sizes fit, its children having been checked as they closed and
    /// its keys as they came.
    /// Validating each closed container in full again was most of a long stream's in-flight cost.
    shallow: bool,
    /// `shallow`, where `$ref` and `allOf` count as allowed too: their subschemas are parts of
    /// the location's constraints of their own (`Checker::expand`), judged there. (A disjunction
    /// is not: its failure is one error of the node, which only the node's validation writes.)
    shallow_parts: bool,
    /// `shallow` and `shallow_parts` when the array's items are known to be distinct
    /// (`Distinct`): `uniqueItems` then holds, and counts as decided by the children too.
    shallow_if_distinct: bool,
    parts_if_distinct: bool,
    /// `uniqueItems`, where the distinct items decide the node (see `shallow_if_distinct`):
    /// the array's items are then collected as they close.
    unique: bool,
    /// Every keyword looks at the value itself, none at a subschema: a closed value is judged
    /// keyword by keyword, without an evaluation context (most closed values are scalars).
    flat: bool,
    /// `type` is the node's one keyword (its bits): a closed scalar is valid here when its kind
    /// is of one of them, a number as an integer too (`Checker::holds_at_close`).
    type_only: Option<u8>,
    /// `required`: each name with its `name_hash`, hashed once here rather than at every close.
    required: Vec<(String, u64)>,
    /// `type`: the validator's bits and the names as written.
    types: Option<(u8, Vec<&'static str>)>,
    /// `enum` values, or the `const` value (keyword says which).
    choices: Option<(&'static str, Value)>,
    max_length: Option<u64>,
    max_items: Option<u64>,
    max_properties: Option<u64>,
    min_items: Option<u64>,
    min_properties: Option<u64>,
    properties: Vec<(String, NodeId)>,
    /// `patternProperties`: the validator's pattern, as written, and its node.
    patterns: Vec<(usize, String, NodeId)>,
    additional: Option<NodeId>,
    prefix: Vec<NodeId>,
    prefix_keyword: &'static str,
    rest: Option<NodeId>,
    rest_keyword: &'static str,
    /// `$ref` and `allOf` targets, with the evaluation path's step to each.
    all: Vec<(Token, NodeId)>,
    /// `$dynamicRef` and `$recursiveRef`, by their index among the node's keywords: where each
    /// goes depends on the dynamic scope, told where the node is reached (`Checker::expand`).
    dynamic: Vec<usize>,
    any: Vec<(&'static str, Vec<NodeId>)>,
    // JSON Type Definition.
    /// A form's own type (`JtdForm`): bits, names, and the keyword that reports it.
    form: Option<(u8, Vec<&'static str>, &'static str)>,
    /// A JTD `ref`'s definition name (its target is in `all`, with `Token::Definition`).
    definition: Option<String>,
    /// `optionalProperties`.
    optional: Vec<(String, NodeId)>,
    /// `values`.
    values: Option<NodeId>,
    /// A properties form that allows only these names (sorted): another is reported at its key.
    allowed: Option<Vec<String>>,
    /// A discriminator's tag, and the node standing for the tag's value (see `tag_node`).
    tag: Option<(String, NodeId)>,
    /// A child's subschemas here have no `$ref`, `allOf` or disjunction: expanded
    /// (`Checker::expand`), each is its own leaf, so a disjunction's branch that is this node
    /// cannot keep the disjunction alive at a child (`Checker::child`).
    plain_children: bool,
    /// What a value beginning at this node alone asks (`Facts`), told once here rather than
    /// walked for every value.
    facts: Facts,
    /// The node of the items past the prefix (`rest`) when it is neither `false` nor has
    /// applicators: an item's constraints are its leaf (`Checker::item`), without `expand`.
    rest_leaf: Option<NodeId>,
    /// Its keywords are `$ref`, `allOf` and dynamic references alone: it holds exactly when the
    /// subschemas they point to hold, which `Checker::expand` puts beside it.
    parts_only: bool,
    /// Its keywords are `anyOf`s alone: it holds exactly when each has a branch that holds, which
    /// the disjunctions `Checker::expand` puts beside it judge.
    any_only: bool,
    /// `unevaluatedProperties: false`, where the names it lets in are known from the schema
    /// alone (`Covered`): told at each key, as `additionalProperties: false` is.
    unevaluated: Option<Box<Covered>>,
}

/// The member names that a node's `properties`, `patternProperties` and `additionalProperties`
/// evaluate, with those of the subschemas its `$ref`s and `allOf`s reach, where none of those
/// subschemas evaluates a member otherwise (no `anyOf`/`oneOf`, `if`, `dependentSchemas`,
/// dynamic reference or `unevaluatedProperties` of its own but `false`). In a valid value each
/// member is then evaluated exactly when one of them names it, so a name none of them covers
/// fails `unevaluatedProperties: false` whatever follows, and a value whose names are all covered
/// passes it once its members pass their subschemas (each judged where it closes).
#[derive(Default)]
struct Covered {
    names: Vec<String>,
    /// Patterns, by the validator's index.
    patterns: Vec<usize>,
    /// An `additionalProperties` evaluates every other name.
    all: bool,
}

impl Covered {
    /// The names node `id` lets in under `unevaluatedProperties: false`, if it has that keyword
    /// and they are known from the schema alone (see `Covered`).
    fn of(validator: &Validator, id: NodeId) -> Option<Covered> {
        let is_false = |n: &NodeId| matches!(validator.keywords(*n), [Kw::False]);
        if !validator.keywords(id).iter().any(|k| matches!(k, Kw::UnevaluatedProperties(n) if is_false(n))) {
            return None;
        }
        let mut covered = Covered::default();
        let (mut todo, mut seen) = (vec![id], vec![id]);
        while let Some(n) = todo.pop() {
            for kw in validator.keywords(n) {
                let next: &[NodeId] = match kw {
                    Kw::Properties(list) => {
                        covered.names.extend(list.iter().map(|(name, _)| name.clone()));
                        &[]
                    }
                    Kw::PatternProperties(list) => {
                        covered.patterns.extend(list.iter().map(|(pattern, _, _)| *pattern));
                        &[]
                    }
                    Kw::AdditionalProperties { .. } => {
                        covered.all = true;
                        &[]
                    }
                    Kw::UnevaluatedProperties(u) if is_false(u) => &[],
                    Kw::AnyOf(_) | Kw::OneOf(_) | Kw::If { .. } | Kw::DependentSchemas(..) | Kw::DynamicRef { .. } | Kw::RecursiveRef(_) | Kw::UnevaluatedProperties(_) => return None,
                    Kw::Ref(target) => std::slice::from_ref(target),
                    Kw::AllOf(list) => list,
                    _ => &[],
                };
                for &t in next {
                    if !seen.contains(&t) {
                        seen.push(t);
                        todo.push(t);
                    }
                }
            }
        }
        Some(covered)
    }

    fn covers(&self, validator: &Validator, key: &str) -> bool {
        self.all || self.names.iter().any(|n| n == key) || self.patterns.iter().any(|p| validator.name_matches(*p, key))
    }
}

/// What a location that is one node asks of a value as it begins (`Checker::begin_facts`).
#[derive(Default, Clone, Copy)]
struct Facts {
    /// The kinds (bit `kind_index`) whose checks as a value begins all hold here (`judge`'s:
    /// not a `false` schema, no JTD form, no `enum` or `const`, a `type` allowing the kind).
    quiet_kinds: u8,
    /// A string's text is looked at (`enum`, `const`, `maxLength`), and the most characters it
    /// may have with none of them able to fail (`Frame::quiet_up_to`).
    needs_text: bool,
    quiet_up_to: Option<u64>,
    /// `maxProperties`: an object's distinct keys are counted.
    keys: bool,
    /// `uniqueItems` decided by the items (`EarlyNode::unique`).
    unique: bool,
    /// A check at each key (an object's) or each item (an array's) can fail here.
    object_members: bool,
    array_members: bool,
    /// No keyword here constrains a member or an item (`Checker::child` finds nothing).
    no_children: bool,
    /// The one check at a key here is `additionalProperties: false`'s (no `maxProperties`, no
    /// JTD names): a key that `properties` names holds (`Checker::judge`).
    names_only: bool,
}

impl Facts {
    /// Whether `judge` surely finds nothing for this check at the node (told without its setup).
    #[inline]
    fn hold(&self, check: &Check<'_>) -> bool {
        match check {
            Check::Begin(kind) => self.quiet_kinds & (1 << kind_index(*kind)) != 0,
            Check::Text(..) => !self.needs_text,
            Check::Key(..) => !self.object_members,
            Check::Item(_) => !self.array_members,
            Check::End(_) => false,
        }
    }
}

/// The validator's compiled schema read for in-flight checks (built once per contract, on the
/// first stream).
pub struct EarlySchema {
    nodes: Vec<EarlyNode>,
    root: NodeId,
    validator: Arc<Validator>,
    /// JTD `ref`s: the schema path of an error found through one starts at `/definitions/<name>`
    /// whatever reached it, so a subtree's errors with such a path are not moved below the
    /// subtree's path.
    absolute_definitions: bool,
    /// The one-pass verdict, to judge a closed container from its text (numbered as the
    /// validator's nodes): `None` where the schema has none.
    verdict: Option<Arc<Verdict>>,
}

impl EarlySchema {
    pub fn new(validator: Arc<Validator>) -> Self {
        let verdict = Verdict::compile(&validator).map(Arc::new);
        Self::with_verdict(validator, verdict)
    }

    /// `new`, with the contract's verdict (compiled once for both).
    pub(crate) fn with_verdict(validator: Arc<Validator>, verdict: Option<Arc<Verdict>>) -> Self {
        // Every node, not only those reached from the root through keywords: a dynamic
        // reference may go to a node that only the dynamic scope reaches.
        let mut nodes: Vec<EarlyNode> = (0..validator.node_count()).map(|id| read(&validator, id)).collect();
        tag_nodes(&validator, &mut nodes);
        let absolute_definitions = (0..nodes.len()).any(|id| validator.keywords(id).iter().any(|k| matches!(k, Kw::JtdRef { .. })));
        let facts: Vec<Facts> = nodes.iter().map(|n| facts(&nodes, n)).collect();
        let leaf = |id: &NodeId| nodes.get(*id).is_some_and(|t| !t.always_false && t.all.is_empty() && t.any.is_empty() && t.dynamic.is_empty());
        let rest_leaves: Vec<Option<NodeId>> = nodes.iter().map(|n| n.rest.filter(leaf)).collect();
        for ((node, facts), rest_leaf) in nodes.iter_mut().zip(facts).zip(rest_leaves) {
            node.facts = facts;
            node.rest_leaf = rest_leaf;
        }
        EarlySchema { nodes, root: validator.root(), validator, absolute_definitions, verdict }
    }

    fn get(&self, id: NodeId) -> Option<&EarlyNode> {
        self.nodes.get(id)
    }
}

/// What a value beginning at `n` alone asks (`Facts`); `nodes` tells which nodes are `false`.
fn facts(nodes: &[EarlyNode], n: &EarlyNode) -> Facts {
    let is_false = |id: &NodeId| nodes.get(*id).is_some_and(|n| n.always_false);
    let mut quiet_kinds = 0;
    for kind in [Kind::Object, Kind::Array, Kind::String, Kind::Number, Kind::Bool, Kind::Null] {
        if !n.always_false && n.form.is_none() && n.choices.is_none() && n.types.as_ref().is_none_or(|(mask, _)| leaf::type_allows(*mask, kind_bits(kind))) {
            quiet_kinds |= 1 << kind_index(kind);
        }
    }
    let (needs_text, quiet_up_to) = match n.max_length {
        _ if n.choices.is_some() => (true, None),
        Some(max) => (true, Some(max)),
        None => (false, Some(u64::MAX)),
    };
    Facts {
        quiet_kinds,
        needs_text,
        quiet_up_to,
        keys: n.max_properties.is_some(),
        unique: n.unique,
        object_members: n.max_properties.is_some() || n.allowed.is_some() || n.additional.as_ref().is_some_and(is_false) || n.unevaluated.as_ref().is_some_and(|c| !c.all),
        array_members: n.max_items.is_some() || n.rest.as_ref().is_some_and(is_false),
        names_only: n.max_properties.is_none() && n.allowed.is_none(),
        no_children: n.properties.is_empty() && n.patterns.is_empty() && n.optional.is_empty() && n.values.is_none() && n.tag.is_none() && n.additional.is_none() && n.prefix.is_empty() && n.rest.is_none(),
    }
}

/// EarlyNode `id` of the validator as the in-flight checks read it.
fn read(validator: &Validator, id: NodeId) -> EarlyNode {
    let kws = validator.keywords(id);
    let mut node = EarlyNode { prefix_keyword: "prefixItems", rest_keyword: "items", ..EarlyNode::default() };
    node.unevaluated = Covered::of(validator, id).map(Box::new);
    let (mut decided, mut structural, mut parts) = (true, true, true);
    let (mut structural_if_distinct, mut parts_if_distinct) = (true, true);
    for kw in kws {
        let (own_decided, own_structural) = match kw {
            // Told at each key (`Covered`).
            Kw::UnevaluatedProperties(_) if node.unevaluated.is_some() => (false, true),
            _ => shallow(kw),
        };
        decided &= own_decided;
        structural &= own_structural || own_decided;
        let part = matches!(kw, Kw::Ref(_) | Kw::AllOf(_) | Kw::DynamicRef { .. } | Kw::RecursiveRef(_));
        parts &= own_structural || own_decided || part;
        let unique = matches!(kw, Kw::UniqueItems);
        structural_if_distinct &= own_structural || own_decided || unique;
        parts_if_distinct &= own_structural || own_decided || unique || part;
    }
    node.decided_at_begin = decided;
    node.parts_only = !kws.is_empty() && kws.iter().all(|kw| matches!(kw, Kw::Ref(_) | Kw::AllOf(_) | Kw::DynamicRef { .. } | Kw::RecursiveRef(_)));
    node.any_only = !kws.is_empty() && kws.iter().all(|kw| matches!(kw, Kw::AnyOf(_)));
    node.dynamic = kws.iter().enumerate().filter(|(_, kw)| matches!(kw, Kw::DynamicRef { .. } | Kw::RecursiveRef(_))).map(|(i, _)| i).collect();
    node.flat = kws.iter().all(|kw| kw.children().next().is_none());
    if let [Kw::Type { mask, .. }] = kws {
        node.type_only = Some(*mask);
    }
    node.shallow = structural;
    node.shallow_parts = parts;
    node.shallow_if_distinct = structural_if_distinct;
    node.parts_if_distinct = parts_if_distinct;
    node.unique = parts_if_distinct && kws.iter().any(|kw| matches!(kw, Kw::UniqueItems));
    let o = Outline::of(kws);
    node.always_false = o.always_false;
    node.types = o.types.map(|(_, mask, names)| (mask, names.to_vec()));
    node.choices = o.choices.last().map(|&(_, keyword, value)| (keyword, value.clone()));
    node.max_length = o.max_length;
    node.max_items = o.max_items;
    node.max_properties = o.max_properties;
    node.min_items = o.min_items;
    node.min_properties = o.min_properties;
    node.required = o.required.unwrap_or_default().iter().map(|name| (name.clone(), crate::json::names::name_hash(name.as_bytes()))).collect();
    node.properties = o.properties.unwrap_or_default().to_vec();
    node.patterns = o.patterns.unwrap_or_default().to_vec();
    node.additional = o.additional;
    (node.prefix, node.prefix_keyword, node.rest, node.rest_keyword) = o.items_rule();
    node.all.extend(o.reference.map(|n| (Token::Key("$ref"), n)));
    node.all.extend(o.all_of.unwrap_or_default().iter().enumerate().map(|(i, n)| (Token::Index("allOf", i), *n)));
    node.any.extend(o.disjunctions.iter().map(|(kw, list)| (kw.name(), list.to_vec())));
    for &(_, kw) in &o.others {
        match kw {
            Kw::JtdType { kind, nullable } => {
                // The JSON type is told when the value begins; the range or the timestamp when it
                // is complete (the node's closed value is validated then).
                let mut names = vec![kind.name()];
                if *nullable {
                    names.push("null");
                }
                node.types = Some((kind.mask() | if *nullable { NULL } else { 0 }, names));
            }
            Kw::JtdForm { mask, names, keyword } => node.form = Some((*mask, names.clone(), keyword)),
            // A null for a nullable `ref` satisfies it whatever the definition says: only a
            // `ref` that is not nullable applies its definition everywhere.
            Kw::JtdRef { node: n, name, nullable: false } => {
                node.definition = Some(name.clone());
                node.all.push((Token::Definition(id), *n));
            }
            Kw::OptionalProperties(list) => node.optional.clone_from(list),
            Kw::JtdAdditional(names) => node.allowed = Some(names.clone()),
            Kw::Values(n) => node.values = Some(*n),
            _ => {}
        }
    }
    let leafy = |t: &NodeId| !validator.keywords(*t).iter().any(|k| matches!(k, Kw::Ref(_) | Kw::AllOf(_) | Kw::AnyOf(_) | Kw::OneOf(_) | Kw::JtdRef { .. } | Kw::DynamicRef { .. } | Kw::RecursiveRef(_)));
    node.plain_children = node.patterns.is_empty() && node.optional.is_empty() && node.prefix.is_empty() && node.values.is_none() && node.properties.iter().all(|(_, t)| leafy(t)) && node.additional.iter().chain(&node.rest).all(leafy);
    node
}

/// Whether a keyword is decided when its value begins (`type` without `integer`), and whether it
/// lets a closed value be judged by its children alone (see `EarlyNode::shallow`).
fn shallow(kw: &Kw) -> (bool, bool) {
    match kw {
        Kw::Type { mask, .. } => {
            let decided = mask & INTEGER == 0;
            (decided, decided)
        }
        // Sizes are counted at the close (`own_parts_hold`).
        Kw::Required(_) | Kw::Properties(_) | Kw::MinProperties(_) | Kw::MinItems(_) => (false, true),
        // Told as each item or distinct key arrives (`Check::Item`, `Check::Key`).
        Kw::MaxItems(_) | Kw::MaxProperties(_) => (false, true),
        // A member that no pattern may name is judged under `additionalProperties` as it closes,
        // one that a pattern names under that pattern.
        Kw::AdditionalProperties { .. } | Kw::PatternProperties(_) => (false, true),
        // Each item is judged as it closes at its own node, a prefix's or the rest's (an item
        // where none may be is reported as it begins).
        Kw::Items { .. } => (false, true),
        _ => (false, false),
    }
}

/// For each JTD discriminator, a node of its own that judges the tag's value where it is, with
/// the discriminator's errors: not a string (`discriminator`), not a value of `mapping` (told from
/// the string's first bytes, like `enum`). The validator has no such node: it is appended.
fn tag_nodes(validator: &Validator, nodes: &mut Vec<EarlyNode>) {
    for id in 0..nodes.len() {
        let Some(Kw::Discriminator { tag, mapping }) = validator.keywords(id).iter().find(|k| matches!(k, Kw::Discriminator { .. })) else { continue };
        let values = Value::Array(mapping.iter().map(|(m, _)| Value::String(m.clone())).collect());
        nodes.push(EarlyNode {
            form: Some((STRING, vec!["string"], "discriminator")),
            choices: Some(("mapping", values)),
            decided_at_begin: true,
            prefix_keyword: "prefixItems",
            rest_keyword: "items",
            ..EarlyNode::default()
        });
        let tag_node = nodes.len() - 1;
        if let Some(node) = nodes.get_mut(id) {
            node.tag = Some((tag.clone(), tag_node));
        }
    }
}

/// One step of an evaluation path (the canonical error's `schema_path`), kept in the checker's
/// arena (`Checker::routes`) so that a path is written out only for a violation.
#[derive(Clone, Copy)]
enum Token {
    Key(&'static str),
    Index(&'static str, usize),
    /// `properties/<name>` of a node, by the property's index there.
    Property(NodeId, usize),
    /// `patternProperties/<pattern>` of a node, by the pattern's index there.
    Pattern(NodeId, usize),
    /// `optionalProperties/<name>` of a node, by the property's index there.
    Optional(NodeId, usize),
    /// `/definitions/<name>` of a JTD `ref` in a node: a path of its own, not a step (RFC 8927
    /// reports errors found through a reference at the definition's path).
    Definition(NodeId),
}

/// A step, the step before it (`NO_ROUTE` at the root) and the node it reaches.
#[derive(Clone, Copy)]
struct Route {
    up: u32,
    token: Token,
    node: NodeId,
}

const NO_ROUTE: u32 = u32::MAX;

/// A discriminated disjunction whose tag selects no branch (`Checker::chosen`).
const UNMAPPED: usize = usize::MAX;

/// The constraints that apply at one location: a conjunction of nodes (each with the evaluation
/// path that reached it) and of disjunctions.
#[derive(Clone)]
enum Expr {
    Leaf(NodeId, u32),
    All(Vec<Expr>),
    /// A disjunction, boxed: most locations are one node, and every open location keeps its
    /// constraints.
    Any(Box<Disjunction>),
}

/// A disjunction (`anyOf`/`oneOf`), with an id that its children's disjunctions keep: the
/// branch reported for it once is the one reported at every location below it; the route of
/// its schema when it is at this location (`None` for its branches' constraints on a child);
/// `Tagged` when a `discriminator` names its branches. `origin`: when branches the value's kind
/// rules out were left out (`Checker::viable`), the index in the schema of each one kept, of
/// `count` in all (branches are numbered as the schema numbers them, in reports and `chosen`).
#[derive(Clone)]
struct Disjunction {
    kw: &'static str,
    id: u32,
    here: Option<u32>,
    xs: Vec<Expr>,
    tagged: Option<Tagged>,
    count: usize,
    origin: Option<Box<[usize]>>,
}

impl Disjunction {
    /// The schema's index of the branch at `i` in `xs`.
    fn index(&self, i: usize) -> usize {
        self.origin.as_ref().and_then(|o| o.get(i).copied()).unwrap_or(i)
    }

    /// Where the schema's branch `index` is in `xs`, if it is there.
    fn position(&self, index: usize) -> Option<usize> {
        match &self.origin {
            Some(o) => o.iter().position(|&x| x == index),
            None => Some(index),
        }
    }
}

impl Expr {
    fn any(kw: &'static str, id: u32, here: Option<u32>, xs: Vec<Expr>, tagged: Option<Tagged>) -> Self {
        let count = xs.len();
        Expr::Any(Box::new(Disjunction { kw, id, here, xs, tagged, count, origin: None }))
    }

    /// A conjunction's parts or a disjunction's branches.
    fn parts(&self) -> &[Expr] {
        match self {
            Expr::Leaf(..) => &[],
            Expr::All(xs) => xs,
            Expr::Any(d) => &d.xs,
        }
    }

    /// A disjunction of a node at this location (`Disjunction::here`).
    fn is_here(&self) -> bool {
        matches!(self, Expr::Any(d) if d.here.is_some())
    }
}

/// A discriminated disjunction (`validator::Selector`): its branches' nodes, and how far below
/// the disjunction's own location this copy of it is (1: a member of its object, where the tag
/// is read).
#[derive(Clone)]
struct Tagged {
    depth: u8,
    branches: std::sync::Arc<[NodeId]>,
}

/// Per open location: its constraints and what has been seen of its value.
struct Frame {
    expr: Expr,
    /// Some constraint here looks at string contents (`enum`, `const`, `maxLength`).
    needs_text: bool,
    /// While the string has at most this many characters its text check cannot fail (only
    /// `maxLength` looks at it, none of them this low): a push that adds to a short string asks
    /// nothing. `None`: asked at every push (an `enum` or `const` judges every prefix).
    quiet_up_to: Option<u64>,
    /// The distinct keys so far, kept only where `maxProperties` needs their number.
    keys: Option<Box<Keys>>,
    reported: bool,
    /// The arena's length before this location's routes.
    routes: usize,
    /// Judged valid whole as it began (`Checker::judge_whole`): nothing is left to judge at its close.
    whole: bool,
    /// An array's items as they closed, where `uniqueItems` would otherwise have the array
    /// validated again as it closes (`EarlyNode::unique`).
    distinct: Option<Box<Distinct>>,
    /// A check asked at each key or item can fail here (`Check::Key`, `Check::Item`).
    members_checked: bool,
}

/// An object's distinct keys so far (boxed in its frame: few objects count them).
#[derive(Default)]
struct Keys(HashSet<String>);

/// The items of an open array as `uniqueItems` compares them, for the scalars whose equality
/// is that of what the parser read: integers, decoded strings, `true`, `false`, `null`. Any
/// other item leaves the question to the array's validation.
#[derive(Default)]
struct Distinct {
    count: usize,
    unknown: bool,
    literals: u8,
    /// Some literal, or a string of the same hash as one before (which, not being sure, leaves
    /// the question to the array's validation too), came again.
    repeated: bool,
    texts: crate::json::names::NameHashes,
    integers: Vec<i64>,
    /// Some integer came after one not below it: while none did, they are strictly ascending,
    /// distinct without a sort (many arrays are written in order).
    unsorted: bool,
}

impl Distinct {
    fn add(&mut self, item: &Closed<'_>) {
        self.count += 1;
        if self.unknown {
            return;
        }
        let bit = match item.kind() {
            Kind::Null => 1,
            Kind::Bool if item.scalar() == Some(&Value::Bool(true)) => 2,
            Kind::Bool => 4,
            Kind::Number => {
                match item.scalar() {
                    // A float may equal an integer written otherwise (`1.0`, `1`); past i64,
                    // the array's validation compares.
                    Some(Value::Number(n)) => match n.as_i64() {
                        Some(n) => {
                            self.unsorted |= self.integers.last().is_some_and(|&last| last >= n);
                            self.integers.push(n);
                        }
                        None => self.unknown = true,
                    },
                    _ => self.unknown = true,
                }
                return;
            }
            Kind::String => {
                match item.as_str() {
                    Some(s) => self.repeated |= !self.texts.insert(s.as_bytes()),
                    None => self.unknown = true,
                }
                return;
            }
            Kind::Object | Kind::Array => {
                self.unknown = true;
                return;
            }
        };
        self.repeated |= self.literals & bit != 0;
        self.literals |= bit;
    }

    /// Whether the array of `len` items has them all here, each different from the others.
    fn hold(&mut self, len: usize) -> bool {
        if self.unknown || self.count != len || self.repeated {
            return false;
        }
        // Sorted as the one-pass verdict sorts its integers: the same instance of the
        // standard sort, no new code.
        if self.unsorted {
            self.integers.sort_unstable();
            return !self.integers.windows(2).any(|w| w.first() == w.get(1));
        }
        true
    }
}

/// A failure found by a check, written as violations only once reported (`Checker::written`):
/// most failures are a disjunction's branches failing while another one holds, and nobody reads
/// those.
struct Found<'a> {
    what: What<'a>,
    /// The validator's errors it stands for and whether one says the value's very type is wrong
    /// at the checked location, to rank a disjunction's branches as the final error does
    /// (`validator::rank`); `None`: as `what` counts them (`Checker::weight`).
    weight: Option<(usize, bool)>,
    /// The branch of the innermost disjunction that reported it, for its violations that name
    /// none of their own.
    branch: Option<Branch>,
    /// Its violation is not written again when its value closes (a disjunction took its error).
    final_now: bool,
}

enum What<'a> {
    /// The validator's error for the value at the checked location (its evaluation path the
    /// route's, then its keyword), or at its member `member` (the route's path alone). It speaks
    /// of what is known of the value until the value closes (`partial_of`).
    Error { error: Error<'static>, route: u32, member: Option<&'a str> },
    /// A closed value that node `id` rejects: its errors, below the route's path (its value
    /// parsed from its text only if they are written or counted).
    Subtree { id: NodeId, route: u32, value: Closed<'a> },
    /// Written already, with the error to write it again from once its value is complete.
    Written { violation: Box<Violation>, incomplete: Option<Error<'static>> },
}

impl<'a> Found<'a> {
    fn new(what: What<'a>) -> Self {
        Found { what, weight: None, branch: None, final_now: false }
    }

    /// The validator's error `keyword` for the value at the checked location (written once it
    /// is reported).
    #[inline(never)]
    fn error(keyword: &'static str, kind: ErrorKind<'static>, route: u32) -> Self {
        let error = Error { keyword, kind, instance: Cow::Owned(Value::Null), instance_path: String::new(), evaluation_path: String::new() };
        Found::new(What::Error { error, route, member: None })
    }
}

/// A violation and the error to write it again from once its value is complete (`None`: it is
/// complete already).
type Written = (Violation, Option<Error<'static>>);

/// Watches the parser's events and collects certain violations.
pub struct Checker {
    schema: Arc<EarlySchema>,
    frames: Vec<Frame>,
    found: Vec<Violation>,
    seen: HashSet<(String, String, String)>,
    /// Byte offset at which each found violation became certain.
    offsets: Vec<usize>,
    /// Strict tool calls send `null` for an optional property, read as absent when validated.
    nulls_absent: bool,
    /// A violation was left out because removing nulls might repair it: the checks no longer
    /// say whether the value as written is valid.
    skipped_for_nulls: bool,
    /// The evaluation paths of the open locations' leaves, a stack cut back as locations close
    /// (so a long stream keeps only the open locations' steps).
    routes: RefCell<Vec<Route>>,
    /// Counts every change to `found` (a violation added, or completed when its value closed).
    revision: usize,
    /// The next disjunction's id, and the branch reported for each disjunction that failed.
    disjunctions: std::cell::Cell<u32>,
    chosen: RefCell<std::collections::HashMap<u32, usize>>,
    /// Some location's constraints were left out (a node missing, or nested past
    /// `MAX_EXPANSION`): its value was not checked as it closed.
    unchecked: std::cell::Cell<bool>,
    /// The root closed under one shallow node with its required names, nothing reported on it.
    root_by_children: bool,
    /// The open string's text so far and its number of characters, where a check looks at it
    /// (`Frame::needs_text`): a string has no children, so one string at most is open.
    text: Vec<u8>,
    chars: u64,
    /// Violations reported while their value was incomplete: the value's frame (an index into
    /// `frames`), the violation's index in `found`, and the error to write it again from;
    /// completed when the value closes. A frame's entries are the last ones while it is the top
    /// one (an entry is always the top frame's, and a frame's are taken as it closes).
    incomplete: Vec<(usize, usize, Error<'static>)>,
    /// The scalar being written below the root, kept here instead of in a `Frame` when nothing
    /// was reported as it began and no text check looks at it: its constraints and the routes'
    /// length before them. Nothing but its `End` can come before it closes (a scalar has no
    /// members, and its `StringBytes` find no check to ask), and a frame holding it would say
    /// only that (no text, no keys, nothing reported, not judged whole).
    scalar: Option<(Expr, usize)>,
}

enum Check<'a> {
    Begin(Kind),
    Text(&'a [u8], u64),
    Key(&'a str, usize),
    Item(usize),
    End(Closed<'a>),
}

impl Checker {
    pub fn new(schema: Arc<EarlySchema>) -> Self {
        Checker { schema, frames: Vec::new(), found: Vec::new(), seen: HashSet::new(), offsets: Vec::new(), nulls_absent: false, skipped_for_nulls: false, routes: RefCell::new(Vec::new()), revision: 0, disjunctions: std::cell::Cell::new(0), chosen: RefCell::new(std::collections::HashMap::new()), unchecked: std::cell::Cell::new(false), root_by_children: false, text: Vec::new(), chars: 0, incomplete: Vec::new(), scalar: None }
    }

    /// Reports only what removing the `null` of optional properties cannot repair: a violation
    /// about a non-null value itself (its type, its text, its number), or an unknown key.
    pub fn with_nulls_as_absent(mut self) -> Self {
        self.nulls_absent = true;
        self
    }

    fn survives_null_removal(v: &Violation) -> bool {
        const OWN_VALUE: [&str; 12] = [
            "type", "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "multipleOf", "additionalProperties", "duplicateKey",
        ];
        let scalar = !(v.received.is_null() || v.received.is_array() || v.received.is_object());
        !v.received.is_null() && (OWN_VALUE.contains(&v.keyword.as_str()) || scalar && matches!(v.keyword.as_str(), "enum" | "const"))
    }

    pub fn violations(&self) -> &[Violation] {
        &self.found
    }

    /// How many times the violations changed: a reader that keeps a copy reads them again when
    /// this moves (a completed violation changes without changing their number).
    pub fn revision(&self) -> usize {
        self.revision
    }

    /// The byte offsets where the violations became certain (same order).
    #[cfg(test)]
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    #[cfg(test)]
    pub fn into_violations(self) -> Vec<Violation> {
        self.found
    }

    /// Whether a node is the `false` schema.
    fn is_false(&self, id: NodeId) -> bool {
        self.schema.get(id).is_some_and(|n| n.always_false)
    }

    /// A violation of the output as a whole (a size or depth limit), certain at byte `offset`.
    pub fn report_output(&mut self, v: Violation, offset: usize) {
        self.found.push(v);
        self.offsets.push(offset);
        self.revision += 1;
    }

    /// A closed value that node `id` holds by its children, its required names and the other
    /// parts of its location's constraints (`EarlyNode::shallow_parts`): those parts were all
    /// expanded (no chain cut short), and are judged on their own.
    /// `distinct`: the value is an array whose items are known to be distinct (`Distinct`).
    fn node_by_its_parts(&self, id: NodeId, value: &Closed<'_>, distinct: bool) -> bool {
        self.schema.get(id).is_some_and(|n| {
            let (shallow, parts) = if distinct { (n.shallow_if_distinct, n.parts_if_distinct) } else { (n.shallow, n.shallow_parts) };
            (shallow || parts && !self.unchecked.get()) && own_parts_hold(n, value)
        })
    }

    /// The root's complete value needs no validation for its nodes (`node_by_its_parts`): every
    /// part of its constraints is such a node (a disjunction is not: the end of the stream judges it).
    fn root_by_its_parts(&self, expr: &Expr, value: &Closed<'_>, distinct: bool) -> bool {
        match expr {
            Expr::Leaf(id, _) => self.node_by_its_parts(*id, value, distinct),
            Expr::All(xs) => xs.iter().all(|x| self.root_by_its_parts(x, value, distinct)),
            Expr::Any(..) => false,
        }
    }

    /// Judges a closed value (not the root) against its location's constraints. Outside the
    /// disjunctions, whose branches must each be judged whole, each closed child was judged
    /// already: a node its parts decide (`node_by_its_parts`) is not validated again, and a node
    /// validated in full needs its own disjunctions (those `expand` put beside it: the same
    /// `All`, written for this location) judged no more: its validation judged them, and its
    /// errors are theirs as the final error writes them.
    fn closed<'a>(&self, expr: &Expr, value: Closed<'a>, path: &InstancePath, distinct: bool) -> Result<(), Vec<Found<'a>>> {
        let check = Check::End(value);
        match expr {
            Expr::Leaf(id, _) if self.node_by_its_parts(*id, &value, distinct) => Ok(()),
            Expr::Leaf(id, route) => self.leaf(*id, *route, &check),
            Expr::All(xs) => {
                let mut all = Vec::new();
                // The location's own node judged in full (its disjunctions with it): whether it
                // held or not, they need no judging apart, which would write a failure of theirs
                // a second time, and otherwise than the node's errors write it.
                let mut owner_judged = false;
                for (i, x) in xs.iter().enumerate() {
                    let r = match x {
                        // A node its parts decide, asked once.
                        Expr::Leaf(id, _) if self.node_by_its_parts(*id, &value, distinct) => Ok(()),
                        // A node of `anyOf`s alone (a nullable field or object, as generators write
                        // one) holds when each of its disjunctions (beside it) surely holds
                        // (`disjunction_holds`); otherwise it is judged in full, so that its
                        // violations are written as the final error writes them.
                        Expr::Leaf(id, _) if i == 0 && self.schema.get(*id).is_some_and(|n| n.any_only) && xs.iter().filter(|x| x.is_here()).all(|x| self.disjunction_holds(x, value, path, distinct)) => {
                            owner_judged = true;
                            Ok(())
                        }
                        Expr::Leaf(id, route) if i == 0 => {
                            let r = self.leaf(*id, *route, &check);
                            owner_judged = self.schema.get(*id).is_some_and(|n| !n.decided_at_begin);
                            r
                        }
                        Expr::Leaf(id, route) => self.leaf(*id, *route, &check),
                        x if owner_judged && x.is_here() => Ok(()),
                        _ => self.closed(x, value, path, distinct),
                    };
                    if let Err(v) = r {
                        all.extend(v);
                    }
                }
                if all.is_empty() { Ok(()) } else { Err(all) }
            }
            _ => self.eval(expr, &check, path),
        }
    }

    /// Whether a disjunction at a closed value's own location surely holds, told without
    /// judging its node in full. A scalar: one of its branches, plain nodes, holds, each asked as
    /// the value began and as it closed (a node decided as the value began finds nothing at its
    /// close). A container: the one branch its type left (`viable`) holds as any location's
    /// constraints do at a close (`closed`), its members having been judged under that branch
    /// alone as they came. False when it cannot be told so.
    fn disjunction_holds(&self, expr: &Expr, value: Closed<'_>, path: &InstancePath, distinct: bool) -> bool {
        let Expr::Any(d) = expr else { return false };
        if value.is_container() {
            return d.origin.is_some() && d.xs.len() == 1 && d.xs.iter().all(|x| self.closed(x, value, path, distinct).is_ok());
        }
        let leaves: Option<Vec<(NodeId, u32)>> = d.xs.iter().map(|x| if let Expr::Leaf(id, route) = x { Some((*id, *route)) } else { None }).collect();
        leaves.is_some_and(|leaves| leaves.iter().any(|&(id, route)| self.judge(id, route, &Check::Begin(value.kind()), true).is_ok() && self.judge(id, route, &Check::End(value), true).is_ok()))
    }

    /// A container of `kind` beginning at `expr`: the branches of the disjunctions at its location
    /// that fail on its type left out, while one is left. They fail every check here and below,
    /// and the final error shows a branch failing on the value's type only when every branch
    /// does (`validator::rank`): left in, a member they do not constrain would keep the
    /// disjunction holding there, and the branches that can hold would go unchecked until the
    /// container closes. (Branches holding a disjunction of their own are kept: asking them
    /// would choose for it.)
    fn viable(&self, expr: Expr, kind: Kind, path: &InstancePath) -> Expr {
        match expr {
            Expr::All(xs) => Expr::All(xs.into_iter().map(|x| self.viable(x, kind, path)).collect()),
            Expr::Any(mut d) if d.here.is_some() && d.origin.is_none() => {
                let check = Check::Begin(kind);
                let dead: Vec<bool> = d.xs.iter().map(|x| !has_disjunction(x) && self.eval(x, &check, path).is_err_and(|found| found.iter().any(|f| self.weight(f).1))).collect();
                if dead.iter().all(|dead| !dead) || dead.iter().all(|dead| *dead) {
                    return Expr::Any(d);
                }
                d.origin = Some(dead.iter().enumerate().filter(|(_, dead)| !**dead).map(|(i, _)| i).collect());
                d.xs = std::mem::take(&mut d.xs).into_iter().zip(dead).filter(|(_, dead)| !dead).map(|(x, _)| x).collect();
                Expr::Any(d)
            }
            other => other,
        }
    }

    /// What a value of `kind` beginning at `expr` asks, and whether its location is one node
    /// whose checks as the value begins (`judge`'s) all hold for its kind (told without `eval`'s
    /// setup). One node's answers were told once (`Facts`); other constraints are walked.
    #[inline]
    fn begin_facts(&self, expr: &Expr, kind: Kind) -> (bool, Facts) {
        // A node missing asks nothing (`judge`), nor does a location without constraints.
        let nothing = Facts { quiet_kinds: u8::MAX, quiet_up_to: Some(u64::MAX), ..Facts::default() };
        match expr {
            Expr::Leaf(id, _) => {
                let facts = self.schema.get(*id).map_or(nothing, |n| n.facts);
                return (facts.quiet_kinds & (1 << kind_index(kind)) != 0, facts);
            }
            Expr::All(xs) if xs.is_empty() => return (true, nothing),
            _ => {}
        }
        let (needs_text, quiet_up_to) = if kind == Kind::String { self.text_checks(expr) } else { (false, None) };
        let facts = match kind {
            Kind::Object => Facts {
                keys: self.any_node(expr, &|n| n.facts.keys),
                object_members: self.any_node(expr, &|n| n.facts.object_members),
                ..Facts::default()
            },
            Kind::Array => Facts {
                unique: self.any_node(expr, &|n| n.facts.unique),
                array_members: self.any_node(expr, &|n| n.facts.array_members),
                ..Facts::default()
            },
            _ => Facts { needs_text, quiet_up_to, ..Facts::default() },
        };
        (false, facts)
    }

    /// Whether a closed value's location is one node that `closed` would find it valid at
    /// from its kind alone: every keyword decided as the value began, or only `type` (a scalar
    /// of its types, a number read as an integer); or constrains nothing. Told first, without
    /// `closed`'s setup: most values are scalars under such a node.
    #[inline]
    fn holds_at_close(&self, expr: &Expr, value: &Closed<'_>) -> bool {
        let Expr::Leaf(id, _) = expr else { return is_empty(expr) };
        let Some(n) = self.schema.get(*id) else { return false };
        match (n.type_only, value.kind()) {
            _ if n.decided_at_begin => true,
            (None, _) | (_, Kind::Object | Kind::Array) => false,
            (Some(mask), Kind::Number) => matches!(value.scalar(), Some(Value::Number(x)) if x.is_i64() || x.is_u64()) && leaf::type_allows(mask, INTEGER | NUMBER),
            (Some(mask), kind) => leaf::type_allows(mask, kind_bits(kind)),
        }
    }

    /// The complete value needs no validation at the end of the stream: every closed value was
    /// judged as it closed (no location's constraints were left out), nothing was reported, and
    /// the root's node is one that its children and its required names decide
    /// (`root_by_its_parts`). With nulls read as absent, this is about the value as written, and
    /// holds only if no violation was left out for them (with none left out, the checks ran as
    /// they do without the option).
    pub fn settled_valid(&self) -> bool {
        !self.unchecked.get() && self.root_by_children && self.found.is_empty() && !self.skipped_for_nulls
    }

    /// Whether some node in `expr` looks at a string's text, and the most characters the string
    /// can have with no `maxLength` there failing if no `enum` or `const` there looks at it (see
    /// `Frame::quiet_up_to`), walked where a location is more than one node (one node's are its
    /// `Facts`).
    fn text_checks(&self, expr: &Expr) -> (bool, Option<u64>) {
        match expr {
            Expr::Leaf(id, _) => self.schema.get(*id).map_or((false, Some(u64::MAX)), |n| (n.facts.needs_text, n.facts.quiet_up_to)),
            Expr::All(_) | Expr::Any(_) => expr.parts().iter().fold((false, Some(u64::MAX)), |(needs, low), x| {
                let (n, l) = self.text_checks(x);
                (needs || n, low.zip(l).map(|(a, b)| a.min(b)))
            }),
        }
    }

    fn any_node(&self, expr: &Expr, test: &dyn Fn(&EarlyNode) -> bool) -> bool {
        match expr {
            Expr::Leaf(id, _) => self.schema.get(*id).is_some_and(test),
            Expr::All(_) | Expr::Any(_) => expr.parts().iter().any(|x| self.any_node(x, test)),
        }
    }

    /// The route one `token` past `up`, to `node`.
    fn step(&self, up: u32, token: Token, node: NodeId) -> u32 {
        let mut routes = self.routes.borrow_mut();
        routes.push(Route { up, token, node });
        u32::try_from(routes.len() - 1).unwrap_or(NO_ROUTE)
    }

    /// The evaluation path of a route, as the validator writes it.
    fn path_of(&self, mut route: u32) -> String {
        let routes = self.routes.borrow();
        let mut tokens = Vec::new();
        while let Some(r) = routes.get(route as usize) {
            tokens.push(r.token);
            route = r.up;
        }
        let mut out = String::new();
        for token in tokens.iter().rev() {
            let (keyword, rest): (&str, Option<Cow<'_, str>>) = match *token {
                Token::Key(k) => (k, None),
                Token::Index(k, i) => (k, Some(Cow::Owned(i.to_string()))),
                Token::Property(node, i) => ("properties", self.schema.get(node).and_then(|n| n.properties.get(i)).map(|(name, _)| crate::json::path::escape_pointer_token(name))),
                Token::Pattern(node, i) => ("patternProperties", self.schema.get(node).and_then(|n| n.patterns.get(i)).map(|(_, source, _)| crate::json::path::escape_pointer_token(source))),
                Token::Optional(node, i) => ("optionalProperties", self.schema.get(node).and_then(|n| n.optional.get(i)).map(|(name, _)| crate::json::path::escape_pointer_token(name))),
                Token::Definition(node) => ("definitions", self.schema.get(node).and_then(|n| n.definition.as_deref()).map(crate::json::path::escape_pointer_token)),
            };
            out.push('/');
            out.push_str(keyword);
            if let Some(rest) = rest {
                out.push('/');
                out.push_str(&rest);
            }
        }
        out
    }

    /// The dynamic scope in which node `id`, reached by `route`, is evaluated: the resources the
    /// evaluation path enters from the root on, as the validator enters them. Empty where the
    /// schema does not use the dynamic scope: no evaluation reads it then.
    fn scope_of(&self, id: NodeId, route: u32) -> Vec<usize> {
        let validator = &self.schema.validator;
        if !validator.uses_dynamic_scope() {
            return Vec::new();
        }
        let routes = self.routes.borrow();
        let mut path = vec![id];
        let mut at = route;
        while let Some(step) = routes.get(at as usize) {
            path.push(step.node);
            at = step.up;
        }
        path.push(self.schema.root);
        let mut scope = Vec::new();
        for &node in path.iter().rev() {
            validator.scope_entered(&mut scope, node);
        }
        scope
    }

    fn expand(&self, id: NodeId, route: u32, depth: usize) -> Expr {
        let Some(node) = self.schema.get(id).filter(|_| depth <= MAX_EXPANSION) else {
            self.unchecked.set(true);
            return Expr::All(Vec::new());
        };
        // A node without applicators is its own leaf: no vector to build and drop per value,
        // which was most of a stream's cost.
        if node.all.is_empty() && node.any.is_empty() && node.dynamic.is_empty() {
            return Expr::Leaf(id, route);
        }
        let mut parts = Vec::with_capacity(1 + node.all.len() + node.any.len() + node.dynamic.len());
        parts.push(Expr::Leaf(id, route));
        parts.extend(node.all.iter().map(|(token, n)| {
            let from = if matches!(token, Token::Definition(_)) { NO_ROUTE } else { route };
            self.expand(*n, self.step(from, *token, *n), depth + 1)
        }));
        if !node.dynamic.is_empty() {
            let validator = &self.schema.validator;
            let scope = self.scope_of(id, route);
            for &index in &node.dynamic {
                let Some(kw) = validator.keywords(id).get(index) else { continue };
                if let Some(n) = validator.dynamic_target(kw, &scope) {
                    parts.push(self.expand(n, self.step(route, Token::Key(kw.name()), n), depth + 1));
                }
            }
        }
        for (kw, branches) in &node.any {
            let id = self.disjunctions.get();
            self.disjunctions.set(id.wrapping_add(1));
            let tagged = self.schema.validator.branch_tag(branches).map(|_| Tagged { depth: 0, branches: branches.as_slice().into() });
            parts.push(Expr::any(kw, id, Some(route), branches.iter().enumerate().map(|(i, n)| self.expand(*n, self.step(route, Token::Index(kw, i), *n), depth + 1)).collect(), tagged));
        }
        Expr::All(parts)
    }

    /// The constraints at item `i` of an array under `node` (at `route`).
    fn item(&self, node: &EarlyNode, route: u32, i: usize) -> Expr {
        if let (Some(n), true) = (node.rest_leaf, i >= node.prefix.len()) {
            return Expr::Leaf(n, self.step(route, Token::Key(node.rest_keyword), n));
        }
        let (token, n) = match node.prefix.get(i) {
            Some(n) => (Token::Index(node.prefix_keyword, i), *n),
            // Items where none may be were reported at the array (`Check::Item`).
            None => match node.rest.filter(|r| !self.is_false(*r)) {
                Some(n) => (Token::Key(node.rest_keyword), n),
                None => return Expr::All(Vec::new()),
            },
        };
        self.expand(n, self.step(route, token, n), 0)
    }

    /// The constraints at `parent`'s child `segment`.
    fn child(&self, expr: &Expr, segment: &Segment) -> Expr {
        match expr {
            Expr::All(xs) if xs.len() == 1 => xs.first().map_or(Expr::All(Vec::new()), |x| self.child(x, segment)),
            Expr::All(xs) => {
                // A part that constrains nothing there is left out: kept, such parts would nest
                // one level deeper at every level of a recursive output. One part left is the
                // child's constraints as it is, without a vector.
                let (mut first, mut parts) = (None, Vec::new());
                for x in xs {
                    let part = match x {
                        // A node with nothing for a child (as `node_child` would find), not asked.
                        Expr::Leaf(id, _) if self.schema.get(*id).is_none_or(|n| n.facts.no_children) => continue,
                        Expr::Leaf(id, route) => self.node_child(*id, *route, segment),
                        _ => self.child(x, segment),
                    };
                    if is_empty(&part) {
                        continue;
                    }
                    match first.take() {
                        None if parts.is_empty() => first = Some(part),
                        one => parts.extend(one.into_iter().chain([part])),
                    }
                }
                first.unwrap_or(Expr::All(parts))
            }
            Expr::Any(d) => {
                let Disjunction { kw, id, xs, tagged, count, origin, .. } = &**d;
                // A branch that constrains nothing here holds at every check here and below: the
                // disjunction can report nothing there, nor choose a branch (none of its branches
                // holds one), unless its tag is read there.
                let reads_tag = tagged.as_ref().is_some_and(|t| t.depth == 0 && matches!(segment, Segment::Key(k) if self.schema.validator.branch_tag(&t.branches) == Some(k.as_str())));
                // When every branch is such a node (`EarlyNode::plain_children`), the first
                // branch that constrains nothing decides it: the branches after it are not built
                // (each member of a tagged union belongs to few branches).
                let settled = !reads_tag && xs.iter().all(|x| matches!(x, Expr::Leaf(id, _) if self.schema.get(*id).is_some_and(|n| n.plain_children)));
                let mut children = Vec::new();
                for x in xs {
                    let child = self.child(x, segment);
                    if settled && is_empty(&child) {
                        return Expr::All(Vec::new());
                    }
                    children.push(child);
                }
                if !reads_tag && children.iter().any(is_empty) && !children.iter().any(has_disjunction) {
                    return Expr::All(Vec::new());
                }
                let tagged = tagged.as_ref().map(|t| Tagged { depth: t.depth.saturating_add(1), branches: std::sync::Arc::clone(&t.branches) });
                Expr::Any(Box::new(Disjunction { kw, id: *id, here: None, xs: children, tagged, count: *count, origin: origin.clone() }))
            }
            Expr::Leaf(id, route) => self.node_child(*id, *route, segment),
        }
    }

    /// The constraints at the child `segment` of a location that is node `id` (reached by `route`).
    fn node_child(&self, id: NodeId, route: u32, segment: &Segment) -> Expr {
        let Some(node) = self.schema.get(id).filter(|n| !n.facts.no_children) else { return Expr::All(Vec::new()) };
        let validator = &self.schema.validator;
        // The subschemas that apply there: most locations have one, kept apart so that
        // finding it allocates nothing (this runs for every value of a stream).
        let mut first: Option<(Token, NodeId)> = None;
        let mut more: Vec<(Token, NodeId)> = Vec::new();
        let mut add = |found: (Token, NodeId)| match first {
            None => first = Some(found),
            Some(_) => more.push(found),
        };
        match segment {
            Segment::Key(k) => {
                let mut matched = false;
                for (i, (name, n)) in node.properties.iter().enumerate() {
                    if name == k {
                        add((Token::Property(id, i), *n));
                        matched = true;
                    }
                }
                for (i, (pattern, _, n)) in node.patterns.iter().enumerate() {
                    // A name the pattern could not decide may match.
                    if validator.name_matches(*pattern, k) {
                        add((Token::Pattern(id, i), *n));
                        matched = true;
                    }
                }
                for (i, (name, n)) in node.optional.iter().enumerate() {
                    if name == k {
                        add((Token::Optional(id, i), *n));
                        matched = true;
                    }
                }
                if let Some(n) = node.values {
                    add((Token::Key("values"), n));
                    matched = true;
                }
                if let Some((_, n)) = node.tag.as_ref().filter(|(tag, _)| tag == k) {
                    // The tag's value is judged at the discriminator's own path.
                    return Expr::Leaf(*n, route);
                }
                if !matched {
                    // `additionalProperties: false` was reported at the key already.
                    if let Some(n) = node.additional.filter(|a| !self.is_false(*a)) {
                        add((Token::Key("additionalProperties"), n));
                    }
                }
            }
            Segment::Index(i) => return self.item(node, route, *i),
        }
        match (first, more.is_empty()) {
            (None, _) => Expr::All(Vec::new()),
            (Some((token, one)), true) => self.expand(one, self.step(route, token, one), 0),
            (Some(one), false) => Expr::All(std::iter::once(one).chain(more).map(|(token, n)| self.expand(n, self.step(route, token, n), 0)).collect()),
        }
    }

    /// Evaluates `expr` for a check; `Err` with the violations when it can no longer hold.
    fn eval<'a>(&self, expr: &Expr, check: &Check<'a>, path: &InstancePath) -> Result<(), Vec<Found<'a>>> {
        match expr {
            Expr::Leaf(id, route) => self.leaf(*id, *route, check),
            Expr::All(xs) => {
                let mut all = Vec::new();
                // At a close, as in `closed`: the location's own node judged in full judges its
                // disjunctions with it.
                let mut owner_judged = false;
                for (i, x) in xs.iter().enumerate() {
                    // A part that is one node is judged here, without a call.
                    let r = match x {
                        Expr::Leaf(id, route) => {
                            owner_judged = i == 0 && matches!(check, Check::End(_)) && self.schema.get(*id).is_some_and(|n| !n.decided_at_begin);
                            self.leaf(*id, *route, check)
                        }
                        x if owner_judged && x.is_here() => Ok(()),
                        _ => self.eval(x, check, path),
                    };
                    if let Err(v) = r {
                        all.extend(v);
                    }
                }
                if all.is_empty() { Ok(()) } else { Err(all) }
            }
            Expr::Any(d) => self.eval_any(d, check, path),
        }
    }

    /// `eval` of a disjunction (apart: its setup is not paid by every conjunction).
    #[inline(never)]
    fn eval_any<'a>(&self, d: &Disjunction, check: &Check<'a>, path: &InstancePath) -> Result<(), Vec<Found<'a>>> {
        let Disjunction { kw, id, here, xs, tagged, .. } = d;
        if let Some(t) = tagged {
            self.read_tag(*id, t, check, path);
        }
        // A branch without a disjunction has no effect beside its verdict: it is asked
        // without writing its failures, written only once no branch holds (most checks
        // of a union fail branches before the one that holds). Not at a close, where
        // asking twice would validate the value twice.
        let mut failed = Vec::new();
        for x in xs {
            let verdict = if !matches!(check, Check::End(_)) && !has_disjunction(x) {
                if self.holds(x, check) { Ok(()) } else { Err(Vec::new()) }
            } else {
                self.eval(x, check, path)
            };
            match verdict {
                Ok(()) => return Ok(()),
                Err(v) => failed.push(v),
            }
        }
        // A branch evaluated in full failed with its violations: an empty list is one
        // asked quietly, whose violations are written now.
        for (f, x) in failed.iter_mut().zip(xs) {
            if f.is_empty() {
                *f = self.eval(x, check, path).err().unwrap_or_default();
            }
        }
        // No branch holds. Branches that each failed on a const, an enum or a type alone
        // are one violation of the disjunction, as the final error says it.
        if let Some(found) = here.and_then(|route| self.accepted_choices(kw, &format!("{}/{kw}", self.path_of(route)), &mut failed, check, path)) {
            return Err(vec![found]);
        }
        // Report the branch the final error will most likely show, by
        // the rule it chooses by (`validator::rank`, on the errors, not the violations,
        // each branch gave here); and keep to it, so that later checks below this
        // disjunction do not mix in another branch's violations.
        let chosen = self.chosen.borrow().get(id).copied();
        // A discriminated disjunction reports the branch its tag names, as the final
        // error does: until the tag is read, nothing (but a value that is no object, or
        // the whole object once complete, whose errors the final error ranks alike).
        let whole = tagged.as_ref().is_some_and(|t| t.depth == 0) && matches!(check, Check::Begin(_) | Check::End(_));
        if tagged.is_some() && chosen.is_none() && !whole {
            return Ok(());
        }
        let chosen = chosen.filter(|c| *c != UNMAPPED);
        let ranks = failed.iter().map(|v| {
            let (errors, wrong_type) = v.iter().map(|f| self.weight(f)).fold((0, false), |(n, w), (e, t)| (n + e, w || t));
            Some(crate::validator::rank(wrong_type, errors))
        });
        // (`chosen` by the schema's numbering, `at` in `xs`.)
        let at = match chosen {
            Some(index) => d.position(index),
            None => crate::validator::nearest_branch(ranks),
        };
        let Some(at) = at else {
            return Ok(());
        };
        let index = d.index(at);
        self.chosen.borrow_mut().insert(*id, index);
        if at >= failed.len() {
            return Ok(());
        }
        let mut found = failed.swap_remove(at);
        for (i, f) in found.iter_mut().enumerate() {
            if f.branch.is_none() {
                f.branch = Some(Branch { keyword: kw.to_string(), index, count: d.count });
            }
            // To a disjunction around this one, the failure is one error (`anyOf`'s),
            // never of the wrong type.
            f.weight = Some((usize::from(i == 0), false));
        }
        Err(found)
    }

    /// At a discriminated disjunction's tag (a member of its object, complete): the branch its
    /// value selects is the one reported from then on (`UNMAPPED` when it selects none: the
    /// branches are ranked as any disjunction's).
    fn read_tag(&self, id: u32, tagged: &Tagged, check: &Check<'_>, path: &InstancePath) {
        let (1, Check::End(closed), Some(Segment::Key(key))) = (tagged.depth, check, path.segments().last()) else { return };
        let Some(value) = closed.as_str() else { return };
        let validator = &self.schema.validator;
        if validator.branch_tag(&tagged.branches) == Some(key.as_str()) {
            let index = validator.branch_for(&tagged.branches, value).unwrap_or(UNMAPPED);
            // `insert` when absent (not `entry`): the map's one insertion code.
            let mut chosen = self.chosen.borrow_mut();
            if chosen.get(&id).is_none() {
                chosen.insert(id, index);
            }
        }
    }

    /// Whether constraints without a disjunction hold for a check (`judge`'s verdict, nothing
    /// written).
    fn holds(&self, expr: &Expr, check: &Check<'_>) -> bool {
        match expr {
            Expr::Leaf(id, route) => self.judge(*id, *route, check, true).is_ok(),
            Expr::All(xs) => xs.iter().all(|x| self.holds(x, check)),
            // Never asked (see `eval`): the disjunction is then evaluated in full.
            Expr::Any(..) => false,
        }
    }

    fn leaf<'a>(&self, id: NodeId, route: u32, check: &Check<'a>) -> Result<(), Vec<Found<'a>>> {
        self.judge(id, route, check, false)
    }

    /// Evaluates node `id` for a check; `quiet`: only whether it fails (`Err` with nothing).
    /// Most checks at most nodes can find nothing (`Facts::hold`): told first.
    #[inline]
    fn judge<'a>(&self, id: NodeId, route: u32, check: &Check<'a>, quiet: bool) -> Result<(), Vec<Found<'a>>> {
        match self.schema.get(id) {
            Some(node) if !node.facts.hold(check) && !known_name(node, check) => self.judge_node(node, id, route, check, quiet),
            _ => Ok(()),
        }
    }

    fn judge_node<'a>(&self, node: &EarlyNode, id: NodeId, route: u32, check: &Check<'a>, quiet: bool) -> Result<(), Vec<Found<'a>>> {
        if let Check::End(closed) = check {
            return self.judge_closed(node, id, route, closed);
        }
        let mut out = Vec::new();
        // Violations at another location than the value's (a JTD additional member's).
        let mut elsewhere = Vec::new();
        // The validator's error for the value here (its evaluation path and message written once
        // it is reported); asked quietly, the first failure is the answer.
        macro_rules! report {
            ($keyword:expr, $kind:expr) => {{
                if quiet {
                    return Err(Vec::new());
                }
                out.push(Found::error($keyword, $kind, route))
            }};
        }
        match check {
            Check::Begin(kind) => {
                if node.always_false {
                    report!("falseSchema", ErrorKind::FalseSchema);
                }
                if let Some((mask, names)) = &node.types {
                    if !leaf::type_allows(*mask, kind_bits(*kind)) {
                        report!("type", ErrorKind::Type { expected: names.clone() });
                    }
                }
                // A JTD form's type failing is its one error (a discriminator's tag that is no
                // string is not also an unmapped value).
                let form_failed = node.form.as_ref().is_some_and(|(mask, _, _)| !leaf::type_allows(*mask, kind_bits(*kind)));
                if let (true, Some((_, names, keyword))) = (form_failed, &node.form) {
                    report!(keyword, ErrorKind::Type { expected: names.clone() });
                }
                if let (false, Some((kw, values))) = (form_failed, &node.choices) {
                    let fits = match values {
                        Value::Array(list) if *kw != "const" => list.iter().any(|v| value_kind_matches(v, *kind)),
                        v if *kw == "const" => value_kind_matches(v, *kind),
                        _ => true,
                    };
                    if !fits {
                        report!(kw, choice(kw, values));
                    }
                }
            }
            Check::Text(prefix, chars) => {
                if let Some(max) = node.max_length {
                    if !leaf::length_at_most(*chars, max) {
                        report!("maxLength", ErrorKind::MaxLength { limit: max });
                    }
                }
                if let Some((kw, values)) = &node.choices {
                    let fits = match values {
                        Value::Array(list) if *kw != "const" => list.iter().filter_map(Value::as_str).any(|s| s.as_bytes().starts_with(prefix)),
                        Value::String(s) if *kw == "const" => s.as_bytes().starts_with(prefix),
                        _ => *kw != "const" && !values.is_array(),
                    };
                    if !fits {
                        report!(kw, choice(kw, values));
                    }
                }
            }
            Check::Key(key, distinct) => {
                if let Some(max) = node.max_properties {
                    if *distinct as u64 > max {
                        report!("maxProperties", ErrorKind::MaxProperties { limit: max });
                    }
                }
                if let Some(allowed) = &node.allowed {
                    if allowed.binary_search_by(|a| a.as_str().cmp(key)).is_err() {
                        // At the member, with the form's own schema path (as the validator says it).
                        let error = Error {
                            keyword: "additionalProperties",
                            kind: ErrorKind::AdditionalProperties { unexpected: vec![key.to_string()] },
                            instance: Cow::Owned(Value::Null),
                            instance_path: String::new(),
                            evaluation_path: String::new(),
                        };
                        elsewhere.push(Found { what: What::Error { error, route, member: Some(*key) }, weight: Some((1, false)), branch: None, final_now: false });
                    }
                }
                let closed = node.additional.is_some_and(|a| self.is_false(a));
                if closed {
                    let validator = &self.schema.validator;
                    let known = node.properties.iter().any(|(n, _)| n == key) || node.patterns.iter().any(|(p, _, _)| validator.name_matches(*p, key));
                    if !known {
                        report!("additionalProperties", ErrorKind::AdditionalProperties { unexpected: vec![key.to_string()] });
                    }
                }
                if node.unevaluated.as_ref().is_some_and(|c| !c.covers(&self.schema.validator, key)) {
                    report!("unevaluatedProperties", ErrorKind::UnevaluatedProperties { unexpected: vec![key.to_string()] });
                }
            }
            Check::Item(index) => {
                if *index >= node.prefix.len() && node.rest.is_some_and(|r| self.is_false(r)) {
                    let limit = node.prefix.len();
                    report!(node.rest_keyword, ErrorKind::AdditionalItems { limit });
                }
                if let Some(max) = node.max_items {
                    if *index as u64 >= max {
                        report!("maxItems", ErrorKind::MaxItems { limit: max });
                    }
                }
            }
            // Judged above (`judge_closed`).
            Check::End(_) => {}
        }
        out.append(&mut elsewhere);
        if out.is_empty() { Ok(()) } else { Err(out) }
    }

    /// `judge_node` of a closed value (apart: the checks of a value still open are not paid for
    /// by each closing value, nor these by them).
    #[inline(never)]
    fn judge_closed<'a>(&self, node: &EarlyNode, id: NodeId, route: u32, closed: &Closed<'a>) -> Result<(), Vec<Found<'a>>> {
        if node.decided_at_begin {
            return Ok(());
        }
        let validator = &self.schema.validator;
        // A container is judged from its text in one pass when the schema allows (its
        // verdict is the validator's, unless a repeated name inside makes the value
        // differ from the text); parsed into a value only when that cannot tell.
        let by_text = match &self.schema.verdict {
            Some(verdict) if closed.is_container() && !closed.has_repeats() => std::str::from_utf8(closed.text()).ok().and_then(|text| verdict.judge_at(validator, id, text)),
            _ => None,
        };
        let valid = match by_text {
            Some(valid) => valid,
            // A scalar is judged keyword by keyword, each from what the parser read where
            // it can be (its kind, its integer, its decoded text): a closed string's
            // value would be a copy of its text made for this alone.
            None if node.flat && !closed.is_container() => {
                let kws = validator.keywords(id);
                let mut valid = true;
                for (i, kw) in kws.iter().enumerate() {
                    let holds = match scalar_keyword_holds(validator, id, i, kw, closed) {
                        Some(holds) => holds,
                        None => match closed.value() {
                            Some(value) => validator.keyword_is_valid(id, i, value),
                            // Not judged (a text that would not parse): the end of the stream judges it all.
                            None => {
                                self.unchecked.set(true);
                                break;
                            }
                        },
                    };
                    if !holds {
                        valid = false;
                        break;
                    }
                }
                valid
            }
            None => match closed.value() {
                Some(value) if node.flat => (0..validator.keywords(id).len()).all(|i| validator.keyword_is_valid(id, i, value)),
                Some(value) => validator.node_is_valid_in(id, value, &self.scope_of(id, route)),
                // Not judged (a text that would not parse): the end of the stream judges it all.
                None => {
                    self.unchecked.set(true);
                    true
                }
            },
        };
        if valid { Ok(()) } else { Err(vec![Found::new(What::Subtree { id, route, value: *closed })]) }
    }

    /// What a found failure counts for in a disjunction's ranking (see `Found::weight`).
    #[inline(never)]
    fn weight(&self, f: &Found<'_>) -> (usize, bool) {
        if let Some(weight) = f.weight {
            return weight;
        }
        match &f.what {
            // One error, one violation.
            What::Error { error, member, .. } => (1, member.is_none() && crate::validator::is_wrong_type(&error.kind)),
            What::Subtree { id, route, value } => {
                let Some(value) = value.value() else { return (0, false) };
                let errors = self.schema.validator.node_errors_in(*id, value, &self.scope_of(*id, *route));
                (errors.len(), errors.iter().any(|e| e.instance_path.is_empty() && crate::validator::is_wrong_type(&e.kind)))
            }
            What::Written { .. } => (1, false),
        }
    }

    /// An error found at a location with its evaluation path written (its route still open).
    fn located(&self, mut error: Error<'static>, route: u32, member: bool) -> Error<'static> {
        error.evaluation_path = self.path_of(route);
        // A member's error is at the route's path; so is the `false` schema's, which is the
        // schema itself rather than one of its keywords (as the validator writes it).
        if !member && !matches!(error.kind, ErrorKind::FalseSchema) {
            error.evaluation_path.push('/');
            error.evaluation_path.push_str(error.keyword);
        }
        error
    }

    /// The violations of what a check found at `path`, written by the one message writer:
    /// complete, or speaking of what `check` knows until the value closes.
    fn written(&self, result: Result<(), Vec<Found<'_>>>, check: &Check<'_>, path: &InstancePath) -> Vec<Written> {
        let Err(found) = result else { return Vec::new() };
        let mut out: Vec<Written> = Vec::new();
        for f in found {
            let start = out.len();
            match f.what {
                What::Error { error, route, member } => {
                    let error = self.located(error, route, member.is_some());
                    let partial = if member.is_some() { None } else { partial_of(&error.kind, check) };
                    let keep = partial.is_some() && !f.final_now;
                    let at = member.map(|key| {
                        let mut at = path.clone();
                        at.push(Segment::Key(key.to_string()));
                        at
                    });
                    let written = violation::in_flight(&error, at.as_ref().unwrap_or(path), partial.as_ref(), RECEIVED_CAP);
                    // One violation (an early error names one value, one key): the error is its own.
                    let mut incomplete = keep.then_some(error);
                    out.extend(written.into_iter().map(|v| (v, incomplete.take())));
                }
                What::Subtree { id, route, value } => {
                    let base = self.path_of(route);
                    let Some(value) = value.value() else { continue };
                    for mut v in violation::from_errors(self.schema.validator.node_errors_in(id, value, &self.scope_of(id, route)), value, RECEIVED_CAP) {
                        let absolute = self.schema.absolute_definitions && v.schema_path.starts_with("/definitions/");
                        relocate(&mut v, path, if absolute { "" } else { &base });
                        out.push((v, None));
                    }
                }
                What::Written { violation, incomplete } => out.push((*violation, incomplete.filter(|_| !f.final_now))),
            }
            if let Some(branch) = &f.branch {
                for (v, _) in out.iter_mut().skip(start) {
                    if v.branch.is_none() {
                        v.branch = Some(branch.clone());
                    }
                }
            }
        }
        out
    }

    /// The one violation of the disjunction `kw` at `evaluation_path`, at this location, whose
    /// branches each failed with one violation still incomplete (a const, an enum or a type, on
    /// what is known of the value), when the report's writer makes one of them
    /// (`report::violation`'s rule for a disjunction of accepted values).
    fn accepted_choices<'a>(&self, kw: &'static str, evaluation_path: &str, failed: &mut [Vec<Found<'a>>], check: &Check<'_>, path: &InstancePath) -> Option<Found<'a>> {
        let partial = known(check)?;
        let simple = |branch: &Vec<Found<'_>>| match branch.as_slice() {
            [Found { what: What::Error { error, member: None, .. }, final_now: false, .. }] => {
                matches!(error.kind, ErrorKind::Const { .. } | ErrorKind::Enum { .. } | ErrorKind::Type { .. }) && partial_of(&error.kind, check).is_some()
            }
            [Found { what: What::Written { incomplete: Some(error), .. }, final_now: false, .. }] => matches!(error.kind, ErrorKind::Const { .. } | ErrorKind::Enum { .. } | ErrorKind::Type { .. }),
            _ => false,
        };
        if failed.is_empty() || !failed.iter().all(simple) {
            return None;
        }
        // Each branch is one violation with its error (`simple`): that error is the branch's context.
        let mut context = Vec::with_capacity(failed.len());
        for branch in failed.iter_mut() {
            // Taken: the branch's violation is final as it is, whatever becomes of it.
            context.push(match branch.first_mut() {
                Some(f) if !f.final_now => {
                    f.final_now = true;
                    match &f.what {
                        What::Error { error, route, .. } => vec![self.located(error.clone(), *route, false)],
                        What::Written { incomplete: Some(error), .. } => vec![error.clone()],
                        _ => Vec::new(),
                    }
                }
                _ => Vec::new(),
            });
        }
        let kind = if kw == "oneOf" { ErrorKind::OneOfNotValid { context } } else { ErrorKind::AnyOf { context } };
        let error = Error { keyword: kw, kind, instance: Cow::Owned(Value::Null), instance_path: String::new(), evaluation_path: evaluation_path.to_string() };
        let violation = violation::in_flight(&error, path, Some(&partial), RECEIVED_CAP).into_iter().next()?;
        (violation.keyword == kw).then(|| Found { what: What::Written { violation: Box::new(violation), incomplete: Some(error) }, weight: Some((1, false)), branch: None, final_now: false })
    }

    /// Records what a check found; a violation written before its value was complete is noted
    /// on the frame of that value (`frame`: an index into `frames`), to be written again when
    /// it closes.
    fn report(&mut self, found: Vec<Written>, at: usize, frame: Option<usize>) {
        for (v, incomplete) in found {
            if self.nulls_absent && !Self::survives_null_removal(&v) {
                self.skipped_for_nulls = true;
                continue;
            }
            // The same failure found early and again when its subtree closes counts once.
            let which = if matches!(v.keyword.as_str(), "additionalProperties" | "unevaluatedProperties" | "duplicateKey") { v.received.to_string() } else { String::new() };
            let key = (format!("{}|{}", v.pointer, v.schema_path), v.keyword.clone(), format!("{}|{which}", v.expected));
            if self.seen.insert(key) {
                if let (Some(error), Some(i)) = (incomplete, frame.filter(|i| *i < self.frames.len())) {
                    self.incomplete.push((i, self.found.len(), error));
                }
                self.found.push(v);
                self.revision += 1;
                // The index of the byte that made it certain.
                self.offsets.push(at.saturating_sub(1));
            }
        }
    }

    /// Writes the violations reported while the value of frame `depth` (just closed) was
    /// incomplete again, now that it is `value`: they become the objects the final validation
    /// reports.
    fn complete(&mut self, depth: usize, closed: &Closed<'_>, path: &InstancePath) {
        let start = self.incomplete.iter().rposition(|(d, _, _)| *d < depth).map_or(0, |i| i + 1);
        if start == self.incomplete.len() {
            return;
        }
        let incomplete = self.incomplete.split_off(start);
        let Some(value) = closed.value() else { return };
        for (_, index, error) in &incomplete {
            let error = Error { instance: Cow::Borrowed(value), ..error.clone() };
            let Some(slot) = self.found.get_mut(*index) else { continue };
            if let Some(mut v) = violation::in_flight(&error, path, None, RECEIVED_CAP).into_iter().next() {
                v.branch = slot.branch.take();
                *slot = v;
                self.revision += 1;
            }
        }
    }
}

/// Whether a key check at `n` surely holds: its one check is that of `additionalProperties:
/// false` (`Facts::names_only`), and `properties` names the key (told without `judge_node`'s
/// setup: most keys of an output are known names).
#[inline]
fn known_name(n: &EarlyNode, check: &Check<'_>) -> bool {
    matches!(check, Check::Key(key, _) if n.facts.names_only && n.properties.iter().any(|(name, _)| name == key))
}

/// What a shallow node asks of a closed value beside its children: its required names and sizes.
fn own_parts_hold(n: &EarlyNode, value: &Closed<'_>) -> bool {
    match value.kind() {
        Kind::Object => value.has_members(&n.required) && n.min_properties.is_none_or(|m| leaf::count_at_least(value.len() as u64, m)),
        Kind::Array => n.min_items.is_none_or(|m| leaf::count_at_least(value.len() as u64, m)),
        _ => true,
    }
}

/// Whether keyword `index` of node `id` holds for a closed scalar, told without its value where
/// the parser's reading tells it as the validator would (`None`: ask the validator on the value).
/// A number the parser read as an integer is one in every draft; other kinds have one type each.
#[inline]
fn scalar_keyword_holds(validator: &Validator, id: NodeId, index: usize, kw: &Kw, closed: &Closed<'_>) -> Option<bool> {
    match (kw, closed.kind()) {
        (Kw::Type { mask, .. }, Kind::Number) => match closed.scalar() {
            Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Some(leaf::type_allows(*mask, INTEGER | NUMBER)),
            _ => None,
        },
        (Kw::Type { mask, .. }, kind) => Some(leaf::type_allows(*mask, kind_bits(kind))),
        _ => value_keyword_holds(validator, id, index, kw, closed),
    }
}

/// `scalar_keyword_holds` for the keywords other than `type` (apart: `type`, the most common,
/// is told inline).
#[inline(never)]
fn value_keyword_holds(validator: &Validator, id: NodeId, index: usize, kw: &Kw, closed: &Closed<'_>) -> Option<bool> {
    use crate::validator::leaf::Bound;
    let bound = |bound: Bound, limit: &serde_json::Number| match closed.scalar() {
        Some(Value::Number(n)) => Some(leaf::bound_holds(bound, n, limit)),
        _ => None,
    };
    match (kw, closed.kind()) {
        (Kw::Minimum(limit), Kind::Number) => bound(Bound::Minimum, limit),
        (Kw::Maximum(limit), Kind::Number) => bound(Bound::Maximum, limit),
        (Kw::ExclusiveMinimum(limit), Kind::Number) => bound(Bound::ExclusiveMinimum, limit),
        (Kw::ExclusiveMaximum(limit), Kind::Number) => bound(Bound::ExclusiveMaximum, limit),
        // A string equals only a string with the same content.
        (Kw::Enum(options), Kind::String) => closed.as_str().map(|s| options.as_array().is_some_and(|list| list.iter().any(|o| o.as_str() == Some(s)))),
        (Kw::Const(expected), Kind::String) => closed.as_str().map(|s| expected.as_str() == Some(s)),
        (Kw::MinLength(limit), Kind::String) => closed.as_str().map(|s| leaf::min_length_holds(s, *limit)),
        (Kw::MaxLength(limit), Kind::String) => closed.as_str().map(|s| leaf::max_length_holds(s, *limit)),
        (_, Kind::String) => closed.as_str().and_then(|s| validator.string_keyword_is_valid(id, index, s)),
        _ => None,
    }
}

/// Whether constraints constrain nothing.
fn is_empty(expr: &Expr) -> bool {
    matches!(expr, Expr::All(parts) if parts.is_empty())
}

/// Whether constraints hold a disjunction (whose branch, once reported, is kept: judging it has
/// an effect beside its verdict).
fn has_disjunction(expr: &Expr) -> bool {
    match expr {
        Expr::Leaf(..) => false,
        Expr::All(xs) => xs.iter().any(has_disjunction),
        Expr::Any(..) => true,
    }
}

/// A violation found by validating a subtree, moved to where the subtree is.
fn relocate(v: &mut Violation, base: &InstancePath, schema_base: &str) {
    v.path = join_jsonpath(&base.to_jsonpath(), &v.path);
    v.pointer = format!("{}{}", base.to_pointer(), v.pointer);
    v.schema_path = format!("{schema_base}{}", v.schema_path);
}

/// `$.a` + `$.b[0]` → `$.a.b[0]`.
fn join_jsonpath(base: &str, rel: &str) -> String {
    format!("{base}{}", rel.strip_prefix('$').unwrap_or(rel))
}

/// `received` when only the kind of a value is known yet: its name, except for `null`, which is
/// already the whole value.
fn kind_received(kind: Kind) -> Value {
    // The name picked first, so that one string is made.
    Value::from(match kind {
        Kind::Null => return Value::Null,
        Kind::Object => "object",
        Kind::Array => "array",
        Kind::String => "string",
        Kind::Number => "number",
        Kind::Bool => "boolean",
    })
}

/// What a kind or value check knows of a value not complete yet, as its messages say it: its
/// kind (`a string`), or the start of a string (`a string starting with 'ab'`).
#[inline(never)]
fn known(check: &Check<'_>) -> Option<Partial> {
    match check {
        Check::Begin(kind) => Some(Partial { subject: article(*kind).to_string(), received: kind_received(*kind) }),
        Check::Text(prefix, _) => {
            let text = String::from_utf8_lossy(prefix).into_owned();
            Some(Partial { subject: ["a string starting with ", &crate::report::render::quote(&text)].concat(), received: Value::String(text) })
        }
        _ => None,
    }
}

/// What a message knows of the value an error of `kind` found by `check` is about, while the
/// value is not complete (`None`: the error is about something complete, a key or the value).
fn partial_of(kind: &ErrorKind<'_>, check: &Check<'_>) -> Option<Partial> {
    match (check, kind) {
        (Check::Text(prefix, chars), ErrorKind::MaxLength { .. }) => {
            let text = String::from_utf8_lossy(prefix);
            Some(Partial { subject: at_least("a string of", *chars, "character", "characters"), received: json!(crate::report::render::truncate_text(&text, RECEIVED_CAP)) })
        }
        (Check::Key(_, distinct), ErrorKind::MaxProperties { .. }) => Some(Partial { subject: at_least("an object with", *distinct as u64, "property", "properties"), received: json!(distinct) }),
        (Check::Item(index), _) => Some(Partial { subject: at_least("an array of", *index as u64 + 1, "item", "items"), received: json!(index + 1) }),
        (Check::Key(..) | Check::End(_), _) => None,
        _ => known(check),
    }
}

/// How a size message names a value not complete yet: `an array of at least 3 items` (complete,
/// the message names its size: `an array of 4 items`).
#[inline(never)]
fn at_least(what: &str, n: u64, one: &str, many: &str) -> String {
    [what, " at least ", &n.to_string(), " ", if n == 1 { one } else { many }].concat()
}

fn article(kind: Kind) -> &'static str {
    match kind {
        Kind::Object => "an object",
        Kind::Array => "an array",
        Kind::String => "a string",
        Kind::Number => "a number",
        Kind::Bool => "a boolean",
        Kind::Null => "null",
    }
}

/// The validator's type bits a value of `kind` may have (a number may be an integer: that is
/// told when it is complete).
fn kind_bits(kind: Kind) -> u8 {
    use crate::validator::{ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING};
    match kind {
        Kind::Object => OBJECT,
        Kind::Array => ARRAY,
        Kind::String => STRING,
        Kind::Number => NUMBER | INTEGER,
        Kind::Bool => BOOLEAN,
        Kind::Null => NULL,
    }
}

/// A kind's bit in `Facts::quiet_kinds`.
fn kind_index(kind: Kind) -> u8 {
    match kind {
        Kind::Object => 0,
        Kind::Array => 1,
        Kind::String => 2,
        Kind::Number => 3,
        Kind::Bool => 4,
        Kind::Null => 5,
    }
}

fn value_kind_matches(v: &Value, kind: Kind) -> bool {
    matches!(
        (v, kind),
        (Value::Object(_), Kind::Object)
            | (Value::Array(_), Kind::Array)
            | (Value::String(_), Kind::String)
            | (Value::Number(_), Kind::Number)
            | (Value::Bool(_), Kind::Bool)
            | (Value::Null, Kind::Null)
    )
}

/// The validator's error kind of `enum`/`const`.
fn choice(keyword: &str, values: &Value) -> ErrorKind<'static> {
    if keyword == "const" {
        ErrorKind::Const { expected: values.clone() }
    } else {
        ErrorKind::Enum { options: values.clone() }
    }
}

impl Checker {
    /// Whether the string being written has a text check still to ask (see `Event::StringBytes`).
    pub fn wants_text(&self) -> bool {
        self.frames.last().is_some_and(|f| f.needs_text && !f.reported)
    }

    /// How many more characters the string being written (if any) can take with no text check
    /// able to fail on it: only `maxLength` looks at a prefix, and not below its length.
    pub fn text_room(&self) -> u64 {
        match self.frames.last() {
            Some(f) if f.needs_text && !f.reported => f.quiet_up_to.map_or(0, |n| n.saturating_sub(self.chars)),
            _ => u64::MAX,
        }
    }
}

impl Checker {
    /// Whether the container just begun, whose whole text is `text`, needs no event from inside
    /// it: its location's constraints are a plain conjunction of nodes (no disjunction of a
    /// parent's, whose branch choice and tag reading are state kept for the checks below,
    /// nothing cut short),
    /// nothing was reported on it, and the one-pass verdict judges it valid at every one of
    /// them. Sound: the checks inside the value are those of constraints that surely apply there,
    /// all derived from these nodes, and a value valid under every node that applies at its
    /// location violates none of them; the verdict's yes also says the span is one JSON value
    /// with no repeated member name, so the parser would find nothing in it either. Its close
    /// then needs nothing (`Frame::whole`): it is valid there.
    pub fn judge_whole(&mut self, text: &[u8]) -> bool {
        let Some(verdict) = self.schema.verdict.as_deref().filter(|_| self.may_judge_whole()) else { return false };
        let Some(frame) = self.frames.last() else { return false };
        let Ok(text) = std::str::from_utf8(text) else { return false };
        let validator = &self.schema.validator;
        let mut leaves = 0;
        let valid = conjunction_holds(&frame.expr, &mut |id| {
            leaves += 1;
            // A node of `$ref`s and `allOf`s holds when its targets do, each a leaf here too
            // (nothing was cut short: `may_judge_whole`): judged there, not twice.
            if self.schema.get(id).is_some_and(|n| n.parts_only) {
                return true;
            }
            // A node the verdict does not number (a discriminator's tag node) cannot tell.
            verdict.judge_at(validator, id, text) == Some(true)
        });
        // With no constraint at all, the span must still be one JSON value without a repeat.
        let valid = valid && (leaves > 0 || verdict.well_formed(validator, text));
        if let (true, Some(frame)) = (valid, self.frames.last_mut()) {
            frame.whole = true;
        }
        valid
    }

    /// Whether the container just begun may be judged whole (`judge_whole`), asked before its
    /// end is looked for: a location with a disjunction, or where a violation was reported,
    /// never is.
    pub fn may_judge_whole(&self) -> bool {
        // The root's close decides whether the stream needs a final validation: it is read as always.
        let frame = self.frames.last().filter(|f| !f.reported && self.frames.len() >= 2);
        self.schema.verdict.is_some() && !self.unchecked.get() && frame.is_some_and(|f| conjunction(&f.expr))
    }
}

/// Whether constraints are a conjunction of nodes: a disjunction of a node at this location
/// counts as part of that node (`expand` puts it beside the node's leaf, and the node valid
/// says one of its branches holds), one reaching here from a parent's does not (its branches'
/// viability is the parent's to track).
fn conjunction(expr: &Expr) -> bool {
    match expr {
        Expr::Leaf(..) => true,
        Expr::All(xs) => xs.iter().all(conjunction),
        Expr::Any(d) => d.here.is_some(),
    }
}

/// Whether a conjunction's nodes hold (`conjunction`), each asked by `holds`.
fn conjunction_holds(expr: &Expr, holds: &mut dyn FnMut(NodeId) -> bool) -> bool {
    match expr {
        Expr::Leaf(id, _) => holds(*id),
        Expr::All(xs) => xs.iter().all(|x| conjunction_holds(x, holds)),
        // Judged with its node, its leaf's sibling.
        Expr::Any(d) => d.here.is_some(),
    }
}

impl Checker {
    /// The `End` of a scalar kept without a frame (`Checker::scalar`): what the end of a frame
    /// holding it would do.
    fn scalar_closed(&mut self, expr: Expr, routes: usize, value: Closed<'_>, path: &InstancePath, at: usize) {
        if let Some(items) = self.frames.last_mut().and_then(|f| f.distinct.as_deref_mut()) {
            items.add(&value);
        }
        self.judge_at_close(expr, routes, value, path, at, false);
    }

    /// A value below the root closed at `expr` with nothing reported on it: judged, unless it
    /// holds as it is; then its location's routes are dropped. (Inlined into both ends, a
    /// scalar's and a frame's: every value below the root closes through it.)
    #[inline(always)]
    fn judge_at_close(&mut self, expr: Expr, routes: usize, value: Closed<'_>, path: &InstancePath, at: usize, distinct: bool) {
        if !self.holds_at_close(&expr, &value) {
            let r = self.closed(&expr, value, path, distinct);
            if r.is_err() {
                let r = self.written(r, &Check::End(value), path);
                self.report(r, at, None);
            }
        }
        self.release(expr, routes);
    }

    /// A closed location's constraints and the routes added for them, dropped.
    #[inline]
    fn release(&mut self, expr: Expr, routes: usize) {
        self.routes.borrow_mut().truncate(routes);
        // One node (most locations) has nothing to free: not handed to the general drop.
        if let Expr::Leaf(..) = expr {
            std::mem::forget(expr);
        }
    }
}

impl Observer for Checker {
    fn event(&mut self, event: Event<'_>, path: &InstancePath, at: usize) {
        match event {
            Event::Begin(kind) => {
                let routes = self.routes.borrow().len();
                let expr = match (self.frames.last(), path.segments().last()) {
                    (None, _) => self.expand(self.schema.root, NO_ROUTE, 0),
                    // An item under one node (most arrays), without `child`'s setup.
                    (Some(Frame { expr: Expr::Leaf(id, route), .. }), Some(Segment::Index(i))) => match self.schema.get(*id) {
                        Some(node) => self.item(node, *route, *i),
                        None => Expr::All(Vec::new()),
                    },
                    (Some(Frame { expr: Expr::Leaf(id, route), .. }), Some(seg)) => self.node_child(*id, *route, seg),
                    (Some(parent), Some(seg)) => self.child(&parent.expr, seg),
                    (Some(_), None) => Expr::All(Vec::new()),
                };
                if let (Some(parent @ Frame { members_checked: true, .. }), Some(Segment::Index(i))) = (self.frames.last(), path.segments().last()) {
                    let check = Check::Item(*i);
                    // The array's path is written only for a violation (judging an item's
                    // arrival reads no path: no tag, nothing known of a value).
                    let r = self.eval(&parent.expr, &check, path);
                    if r.is_err() {
                        let mut parent_path = path.clone();
                        parent_path.pop();
                        let r = self.written(r, &check, &parent_path);
                        self.report(r, at, self.frames.len().checked_sub(1));
                    }
                }
                let check = Check::Begin(kind);
                let (quiet, facts) = self.begin_facts(&expr, kind);
                let r = if quiet { Ok(()) } else { self.eval(&expr, &check, path) };
                let reported = r.is_err();
                let (needs_text, quiet_up_to) = if kind == Kind::String { (facts.needs_text, facts.quiet_up_to) } else { (false, None) };
                // A quiet scalar below the root that no text check reads needs no frame.
                if !reported && !needs_text && !matches!(kind, Kind::Object | Kind::Array) && !self.frames.is_empty() {
                    self.scalar = Some((expr, routes));
                    return;
                }
                let r = if reported { self.written(r, &check, path) } else { Vec::new() };
                let keys = (kind == Kind::Object && facts.keys).then(Box::default);
                let distinct = (kind == Kind::Array && facts.unique).then(Box::default);
                // Whether a member's key or an item's arrival can fail a check here: where none
                // can, those checks are not asked (no side effect: a disjunction whose branches
                // all hold neither reports nor chooses a branch).
                let members_checked = match kind {
                    Kind::Object => facts.object_members,
                    Kind::Array => facts.array_members,
                    _ => false,
                };
                if needs_text {
                    self.text.clear();
                    self.chars = 0;
                }
                // (Most containers' constraints hold no disjunction: nothing to rebuild.)
                let expr = if reported || !matches!(kind, Kind::Object | Kind::Array) || !has_disjunction(&expr) { expr } else { self.viable(expr, kind, path) };
                self.frames.push(Frame { expr, needs_text, quiet_up_to, keys, reported, routes, whole: false, distinct, members_checked });
                if !r.is_empty() {
                    self.report(r, at, self.frames.len().checked_sub(1));
                }
            }
            Event::Key(key) => {
                let r = match self.frames.last_mut() {
                    Some(frame) if frame.members_checked => {
                        let distinct = frame.keys.as_mut().map_or(0, |keys| {
                            keys.0.insert(key.to_string());
                            keys.0.len()
                        });
                        let check = Check::Key(key, distinct);
                        self.frames.last().map(|f| self.written(self.eval(&f.expr, &check, path), &check, path))
                    }
                    _ => None,
                };
                if let Some(r) = r.filter(|r| !r.is_empty()) {
                    self.report(r, at, self.frames.len().checked_sub(1));
                }
            }
            // Certain at once: no later byte removes the repeat (see `output::repeated_name`).
            Event::Repeated(name) => {
                self.report(vec![(crate::check::output::repeated_name(path, name), None)], at, None);
            }
            Event::StringBytes(bytes) => {
                let Some(frame) = self.frames.last_mut() else { return };
                if !frame.needs_text || frame.reported {
                    return;
                }
                self.chars += leaf::code_points(bytes);
                self.text.extend_from_slice(bytes);
                if frame.quiet_up_to.is_some_and(|n| self.chars <= n) {
                    return;
                }
                let r = self.frames.last().map(|f| {
                    let check = Check::Text(&self.text, self.chars);
                    let r = self.eval(&f.expr, &check, path);
                    (r.is_err(), self.written(r, &check, path))
                });
                if let Some((failed, r)) = r {
                    self.report(r, at, self.frames.len().checked_sub(1));
                    if let Some(frame) = self.frames.last_mut() {
                        frame.reported = failed;
                    }
                }
            }
            Event::End(value) => {
                if let Some((expr, routes)) = self.scalar.take() {
                    return self.scalar_closed(expr, routes, value, path, at);
                }
                if let Some(mut frame) = self.frames.pop() {
                    if let Some(items) = self.frames.last_mut().and_then(|f| f.distinct.as_deref_mut()) {
                        items.add(&value);
                    }
                    let distinct = frame.distinct.as_deref_mut().is_some_and(|d| d.hold(value.len()));
                    if frame.whole {
                        // Nothing was reported on it (`may_judge_whole`): nothing to complete.
                        self.routes.borrow_mut().truncate(frame.routes);
                        return;
                    }
                    self.complete(self.frames.len(), &value, path);
                    // The root's complete value is validated in full at the end of the stream,
                    // unless its children decide it (`settled_valid`).
                    if self.frames.is_empty() {
                        self.root_by_children = !frame.reported && self.root_by_its_parts(&frame.expr, &value, distinct);
                        self.release(frame.expr, frame.routes);
                    } else if frame.reported {
                        self.release(frame.expr, frame.routes);
                    } else {
                        self.judge_at_close(frame.expr, frame.routes, value, path, at, distinct);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
