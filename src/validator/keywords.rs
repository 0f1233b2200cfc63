//! The keyword table: for each JSON Schema keyword, the drafts that define it, its vocabulary and
//! where its value holds subschemas. Every walker of schema documents (the compiler's registry,
//! strict mode, the meta-schema shortcut, the editor's lints) reads the shapes here, and the
//! drafts' keyword lists (`Draft::knows`) are this table's rows. How a schema object compiles is
//! here as well (`COMPILE_STEPS`: each step's keywords and its compile function), so a new
//! keyword is a row, a step, and its own compile and evaluation functions.
//!
//! The compiled side is here too: `Kw::name` (the keyword an error names) and `Kw::children`
//! (the nodes a compiled keyword links to), each one exhaustive match, so a new `Kw` variant
//! cannot compile without saying both; `for_each_node` is the one walk over the compiled graph.

use super::compile;
use super::draft::Draft;
use super::Kw;
use serde_json::{Map, Value};

/// Where a keyword's value holds subschemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// No subschema (a number, a string, a list of names …).
    Leaf,
    /// The value is one subschema.
    One,
    /// An array of subschemas.
    List,
    /// An object of name → subschema.
    Map,
    /// `items`: one subschema, or (before 2020-12) an array of them.
    OneOrList,
    /// `dependencies`: an object whose members are subschemas or arrays of property names.
    MapOfSchemaOrNames,
}

/// The vocabulary of 2019-09/2020-12 a keyword belongs to (earlier drafts have none, the
/// keyword means the same there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Vocabulary {
    Core,
    Applicator,
    Unevaluated,
    Validation,
    MetaData,
    Format,
    Content,
}

/// One keyword: the drafts from `since` to `until` (inclusive) define it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keyword {
    pub name: &'static str,
    pub since: Draft,
    pub until: Draft,
    /// Not read by the validator yet (it applies every vocabulary of a draft): kept with the
    /// row so a dialect that leaves a vocabulary out is one filter away.
    #[allow(dead_code)]
    pub vocabulary: Vocabulary,
    pub shape: Shape,
}

impl Keyword {
    #[inline]
    pub(crate) fn in_draft(&self, draft: Draft) -> bool {
        draft != Draft::Jtd && self.since <= draft && draft <= self.until
    }
}

const fn kw(name: &'static str, since: Draft, until: Draft, vocabulary: Vocabulary, shape: Shape) -> Keyword {
    Keyword { name, since, until, vocabulary, shape }
}

use Draft::{Draft201909 as D19, Draft202012 as D20, Draft4 as D4, Draft6 as D6, Draft7 as D7};
use Shape::{Leaf, List, Map as Members, MapOfSchemaOrNames, One, OneOrList};
use Vocabulary::{Applicator as A, Content as C, Core, Format as F, MetaData as M, Unevaluated as U, Validation as V};

/// Every JSON Schema keyword, in the order `KeywordSet::iter` lists a draft's keywords (the
/// keywords of every draft first): the order the strict mode's suggestions are searched in.
/// `definitions` is kept in every draft: later ones retain it in their meta-schemas and
/// `$ref: "#/definitions/…"` works everywhere, so it is never a silent no-op. `$defs` likewise:
/// a `$ref` reaches what it holds by JSON Pointer in any draft, so earlier drafts read it as a
/// container of reference targets too (generators such as Pydantic write it without `$schema`).
pub(crate) const KEYWORDS: &[Keyword] = &[
    kw("$schema", D4, D20, Core, Leaf),
    kw("$ref", D4, D20, Core, Leaf),
    kw("title", D4, D20, M, Leaf),
    kw("description", D4, D20, M, Leaf),
    kw("default", D4, D20, M, Leaf),
    kw("multipleOf", D4, D20, V, Leaf),
    kw("maximum", D4, D20, V, Leaf),
    kw("exclusiveMaximum", D4, D20, V, Leaf),
    kw("minimum", D4, D20, V, Leaf),
    kw("exclusiveMinimum", D4, D20, V, Leaf),
    kw("maxLength", D4, D20, V, Leaf),
    kw("minLength", D4, D20, V, Leaf),
    kw("pattern", D4, D20, V, Leaf),
    kw("items", D4, D20, A, OneOrList),
    kw("maxItems", D4, D20, V, Leaf),
    kw("minItems", D4, D20, V, Leaf),
    kw("uniqueItems", D4, D20, V, Leaf),
    kw("maxProperties", D4, D20, V, Leaf),
    kw("minProperties", D4, D20, V, Leaf),
    kw("required", D4, D20, V, Leaf),
    kw("additionalProperties", D4, D20, A, One),
    kw("definitions", D4, D20, Core, Members),
    kw("$defs", D4, D20, Core, Members),
    kw("properties", D4, D20, A, Members),
    kw("patternProperties", D4, D20, A, Members),
    kw("enum", D4, D20, V, Leaf),
    kw("type", D4, D20, V, Leaf),
    kw("allOf", D4, D20, A, List),
    kw("anyOf", D4, D20, A, List),
    kw("oneOf", D4, D20, A, List),
    kw("not", D4, D20, A, One),
    kw("format", D4, D20, F, Leaf),
    // The keywords of some drafts.
    kw("id", D4, D4, Core, Leaf),
    kw("$id", D6, D20, Core, Leaf),
    kw("additionalItems", D4, D19, A, One),
    kw("dependencies", D4, D7, A, MapOfSchemaOrNames),
    kw("const", D6, D20, V, Leaf),
    kw("contains", D6, D20, A, One),
    kw("propertyNames", D6, D20, A, One),
    kw("examples", D6, D20, M, Leaf),
    kw("$comment", D7, D20, Core, Leaf),
    kw("if", D7, D20, A, One),
    kw("then", D7, D20, A, One),
    kw("else", D7, D20, A, One),
    kw("readOnly", D7, D20, M, Leaf),
    kw("writeOnly", D7, D20, M, Leaf),
    kw("contentMediaType", D7, D20, C, Leaf),
    kw("contentEncoding", D7, D20, C, Leaf),
    kw("contentSchema", D19, D20, C, One),
    kw("$anchor", D19, D20, Core, Leaf),
    kw("$recursiveRef", D19, D19, Core, Leaf),
    kw("$recursiveAnchor", D19, D19, Core, Leaf),
    kw("$dynamicRef", D20, D20, Core, Leaf),
    kw("$dynamicAnchor", D20, D20, Core, Leaf),
    kw("$vocabulary", D19, D20, Core, Leaf),
    kw("dependentSchemas", D19, D20, A, Members),
    kw("dependentRequired", D19, D20, V, Leaf),
    kw("unevaluatedItems", D19, D20, U, One),
    kw("unevaluatedProperties", D19, D20, U, One),
    kw("maxContains", D19, D20, V, Leaf),
    kw("minContains", D19, D20, V, Leaf),
    kw("deprecated", D19, D20, M, Leaf),
    kw("prefixItems", D20, D20, A, List),
];

/// One step of compiling a schema object: the keywords it reads (the first is the one it
/// compiles; the others compile with it) and how. A step runs when the object has one of them,
/// and reads each only where the node's draft has it (`Draft::knows`, from the rows above).
pub(crate) struct CompileStep {
    pub reads: &'static [&'static str],
    pub compile: Compile,
    /// Skipped when the root's meta-schema leaves out the validation vocabulary.
    pub validation: bool,
}

/// How a step's keyword compiles to `Kw`.
#[derive(Clone, Copy)]
pub(crate) enum Compile {
    /// A non-negative integer (also written as `2.0`).
    Count(fn(u64) -> Kw),
    /// A number.
    Number(fn(serde_json::Number) -> Kw),
    /// One subschema.
    One(fn(usize) -> Kw),
    /// An array of subschemas.
    List(fn(Vec<usize>) -> Kw),
    /// The compiler's function for the keyword.
    With(compile::CompileFn),
}

const fn step(reads: &'static [&'static str], compile: Compile) -> CompileStep {
    CompileStep { reads, compile, validation: false }
}

const fn assertion(reads: &'static [&'static str], compile: Compile) -> CompileStep {
    CompileStep { reads, compile, validation: true }
}

/// How a schema object compiles: the steps in the order a node evaluates its keywords (and so
/// reports their errors): references, the assertions on the value itself, then the applicators,
/// `unevaluated*` last as they need what every other keyword evaluated. A step reads the
/// keywords that compile together (`if` with `then`/`else`, `items` with its companions). Apart
/// from the rows above because that order is not the table's (which strict mode's suggestions
/// follow); `every_applying_row_compiles` checks the two agree.
pub(crate) const COMPILE_STEPS: &[CompileStep] = {
    use Compile::{Count, List, Number, One, With};
    &[
        step(&["$ref", "$dynamicRef", "$recursiveRef"], With(compile::references)),
        assertion(&["type"], With(compile::type_)),
        assertion(&["enum"], With(compile::enum_)),
        assertion(&["const"], With(compile::const_)),
        assertion(&["minimum"], With(compile::minimum)),
        assertion(&["maximum"], With(compile::maximum)),
        assertion(&["exclusiveMinimum"], With(compile::exclusive_minimum)),
        assertion(&["exclusiveMaximum"], With(compile::exclusive_maximum)),
        assertion(&["multipleOf"], Number(Kw::MultipleOf)),
        assertion(&["minLength"], Count(Kw::MinLength)),
        assertion(&["maxLength"], Count(Kw::MaxLength)),
        assertion(&["pattern"], With(compile::pattern)),
        assertion(&["contentEncoding", "contentMediaType"], With(compile::content)),
        assertion(&["minItems"], Count(Kw::MinItems)),
        assertion(&["maxItems"], Count(Kw::MaxItems)),
        assertion(&["uniqueItems"], With(compile::unique_items)),
        assertion(&["required"], With(compile::required)),
        assertion(&["minProperties"], Count(Kw::MinProperties)),
        assertion(&["maxProperties"], Count(Kw::MaxProperties)),
        assertion(&["dependentRequired", "dependencies"], With(compile::dependent_required)),
        step(&["format"], With(compile::format_)),
        step(&["allOf"], List(Kw::AllOf)),
        step(&["anyOf"], With(compile::any_of)),
        step(&["oneOf"], With(compile::one_of)),
        step(&["not"], With(compile::not)),
        step(&["if", "then", "else"], With(compile::if_)),
        step(&["prefixItems", "items", "additionalItems"], With(compile::items)),
        step(&["contains", "minContains", "maxContains"], With(compile::contains)),
        step(&["properties"], With(compile::properties)),
        step(&["patternProperties"], With(compile::pattern_properties)),
        step(&["additionalProperties"], With(compile::additional_properties)),
        step(&["propertyNames"], One(Kw::PropertyNames)),
        step(&["dependentSchemas", "dependencies"], With(compile::dependent_schemas)),
        step(&["unevaluatedItems"], One(Kw::UnevaluatedItems)),
        step(&["unevaluatedProperties"], One(Kw::UnevaluatedProperties)),
        ]
};

/// The keywords of a JTD schema (RFC 8927 section 2): a language of its own, none of the table's
/// rows apply to it.
pub(crate) const JTD_KEYWORDS: &[&str] = &[
    "metadata", "nullable", "definitions", "ref", "type", "enum", "elements", "properties",
    "optionalProperties", "additionalProperties", "values", "discriminator", "mapping",
];

/// The row of a keyword, whatever the draft.
pub(crate) fn lookup(name: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|k| k.name == name)
}

/// Whether `draft` defines `name`.
pub(crate) fn knows(draft: Draft, name: &str) -> bool {
    match draft {
        Draft::Jtd => JTD_KEYWORDS.contains(&name),
        _ => lookup(name).is_some_and(|k| k.in_draft(draft)),
    }
}

/// Where a subschema sits below the keyword that holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step<'s> {
    /// The keyword's value is the subschema.
    Whole,
    Index(usize),
    Name(&'s str),
}

impl Step<'_> {
    /// The pointer token below the keyword (`None` for `Whole`).
    pub(crate) fn token(self) -> Option<String> {
        match self {
            Step::Whole => None,
            Step::Index(i) => Some(i.to_string()),
            Step::Name(n) => Some(n.to_string()),
        }
    }
}

/// The subschemas a keyword's value holds, by its shape.
pub(crate) fn subschemas_of<'s>(shape: Shape, value: &'s Value, mut f: impl FnMut(&'s Value, Step<'s>)) {
    match (shape, value) {
        (Shape::Leaf, _) => {}
        (Shape::List | Shape::OneOrList, Value::Array(items)) => items.iter().enumerate().for_each(|(i, item)| f(item, Step::Index(i))),
        (Shape::One | Shape::OneOrList, v) => f(v, Step::Whole),
        (Shape::Map, Value::Object(map)) => map.iter().for_each(|(name, sub)| f(sub, Step::Name(name))),
        (Shape::MapOfSchemaOrNames, Value::Object(map)) => {
            // An array there lists property names, not a subschema.
            map.iter().filter(|(_, sub)| !sub.is_array()).for_each(|(name, sub)| f(sub, Step::Name(name)));
        }
        _ => {}
    }
}

/// The subschemas directly below a schema object, for the keywords `reads` accepts, with the
/// keyword and the step below it that lead to each. The one walk every reader of schema
/// documents uses (the compiler's registry, strict mode, the meta-schema check, the lints).
pub(crate) fn subschemas<'s>(obj: &'s Map<String, Value>, reads: impl Fn(&str) -> bool, mut f: impl FnMut(&'s str, &'s Value, Step<'s>)) {
    for (name, value) in obj {
        let Some(keyword) = lookup(name) else { continue };
        if keyword.shape == Shape::Leaf || !reads(name) {
            continue;
        }
        subschemas_of(keyword.shape, value, |sub, step| f(name, sub, step));
    }
}

/// How deep the walks of schema documents go: deep enough for any real schema; deeper documents
/// are refused by the schema depth limit first.
pub(crate) const MAX_WALK_DEPTH: usize = 512;

impl Kw {
    /// The keyword an error of this compiled keyword names (`falseSchema` for the `false` schema).
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Kw::False => "falseSchema",
            Kw::Ref(_) => "$ref",
            Kw::DynamicRef { .. } => "$dynamicRef",
            Kw::RecursiveRef(_) => "$recursiveRef",
            Kw::Type { .. } => "type",
            Kw::Enum(_) => "enum",
            Kw::Const(_) => "const",
            Kw::Minimum(_) => "minimum",
            Kw::Maximum(_) => "maximum",
            Kw::ExclusiveMinimum(_) => "exclusiveMinimum",
            Kw::ExclusiveMaximum(_) => "exclusiveMaximum",
            Kw::MultipleOf(_) => "multipleOf",
            Kw::MinLength(_) => "minLength",
            Kw::MaxLength(_) => "maxLength",
            Kw::Pattern(..) => "pattern",
            Kw::Format(..) => "format",
            Kw::ContentEncoding(_) => "contentEncoding",
            Kw::ContentMediaType(..) => "contentMediaType",
            Kw::MinItems(_) => "minItems",
            Kw::MaxItems(_) => "maxItems",
            Kw::UniqueItems => "uniqueItems",
            Kw::Items { prefix, prefix_keyword, rest, rest_keyword } => {
                if prefix.is_empty() && rest.is_some() {
                    rest_keyword
                } else {
                    prefix_keyword
                }
            }
            Kw::Contains { .. } => "contains",
            Kw::Required(_) => "required",
            Kw::MinProperties(_) => "minProperties",
            Kw::MaxProperties(_) => "maxProperties",
            Kw::Properties(_) => "properties",
            Kw::PatternProperties(_) => "patternProperties",
            Kw::AdditionalProperties { .. } => "additionalProperties",
            Kw::PropertyNames(_) => "propertyNames",
            Kw::DependentRequired(keyword, _) | Kw::DependentSchemas(keyword, _) => keyword,
            Kw::AllOf(_) => "allOf",
            Kw::AnyOf(_) => "anyOf",
            Kw::OneOf(_) => "oneOf",
            Kw::Not(..) => "not",
            Kw::If { .. } => "if",
            Kw::UnevaluatedItems(_) => "unevaluatedItems",
            Kw::UnevaluatedProperties(_) => "unevaluatedProperties",
            Kw::JtdRef { .. } => "ref",
            Kw::JtdType { .. } => "type",
            Kw::JtdForm { keyword, .. } => keyword,
            Kw::JtdRequired(_) => "properties",
            Kw::OptionalProperties(_) => "optionalProperties",
            Kw::JtdAdditional(_) => "additionalProperties",
            Kw::Values(_) => "values",
            Kw::Discriminator { .. } => "discriminator",
        }
    }

    /// The nodes this keyword links to, in the order the keyword evaluates them.
    pub(crate) fn children(&self) -> Children<'_> {
        let links = match self {
            Kw::Ref(n) | Kw::RecursiveRef(n) | Kw::DynamicRef { target: n, .. } | Kw::Contains { node: n, .. } | Kw::AdditionalProperties { node: n, .. } => Links::One(Some(*n)),
            Kw::PropertyNames(n) | Kw::Not(n, _) | Kw::UnevaluatedItems(n) | Kw::UnevaluatedProperties(n) | Kw::Values(n) => Links::One(Some(*n)),
            Kw::JtdRef { node, .. } => Links::One(Some(*node)),
            Kw::Items { prefix, rest, .. } => Links::Items(prefix.iter(), *rest),
            Kw::AllOf(list) | Kw::AnyOf(list) | Kw::OneOf(list) => Links::Items(list.iter(), None),
            Kw::Properties(list) | Kw::DependentSchemas(_, list) | Kw::OptionalProperties(list) | Kw::Discriminator { mapping: list, .. } => Links::Named(list.iter()),
            Kw::PatternProperties(list) => Links::Patterns(list.iter()),
            Kw::If { cond, then, otherwise } => Links::Three([Some(*cond), *then, *otherwise], 0),
            Kw::False
            | Kw::Type { .. }
            | Kw::Enum(_)
            | Kw::Const(_)
            | Kw::Minimum(_)
            | Kw::Maximum(_)
            | Kw::ExclusiveMinimum(_)
            | Kw::ExclusiveMaximum(_)
            | Kw::MultipleOf(_)
            | Kw::MinLength(_)
            | Kw::MaxLength(_)
            | Kw::Pattern(..)
            | Kw::Format(..)
            | Kw::ContentEncoding(_)
            | Kw::ContentMediaType(..)
            | Kw::MinItems(_)
            | Kw::MaxItems(_)
            | Kw::UniqueItems
            | Kw::Required(_)
            | Kw::MinProperties(_)
            | Kw::MaxProperties(_)
            | Kw::DependentRequired(..)
            | Kw::JtdType { .. }
            | Kw::JtdForm { .. }
            | Kw::JtdRequired(_)
            | Kw::JtdAdditional(_) => Links::One(None),
        };
        Children(links)
    }
}

/// The nodes a compiled keyword links to (`Kw::children`).
pub(crate) struct Children<'k>(Links<'k>);

enum Links<'k> {
    One(Option<usize>),
    Items(std::slice::Iter<'k, usize>, Option<usize>),
    Named(std::slice::Iter<'k, (String, usize)>),
    Patterns(std::slice::Iter<'k, (usize, String, usize)>),
    Three([Option<usize>; 3], usize),
}

impl Iterator for Children<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        match &mut self.0 {
            Links::One(n) => n.take(),
            Links::Items(list, rest) => list.next().copied().or_else(|| rest.take()),
            Links::Named(list) => list.next().map(|(_, n)| *n),
            Links::Patterns(list) => list.next().map(|(_, _, n)| *n),
            Links::Three(all, i) => {
                while let Some(slot) = all.get_mut(*i) {
                    *i += 1;
                    if let Some(n) = slot.take() {
                        return Some(n);
                    }
                }
                None
            }
        }
    }
}

/// Visits every node reachable from `root` once, depth first in keyword order; `visit` says
/// whether to go on into the node's children (`keywords(node)` gives a node's keywords). The
/// one traversal of the compiled graph for the readers that build their own form of it.
pub(crate) fn for_each_node<'k>(root: usize, keywords: impl Fn(usize) -> &'k [Kw], mut visit: impl FnMut(usize) -> bool) {
    let mut seen: Vec<bool> = Vec::new();
    let mut todo = vec![root];
    while let Some(id) = todo.pop() {
        if seen.len() <= id {
            seen.resize(id + 1, false);
        }
        match seen.get_mut(id) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        if visit(id) {
            let mark = todo.len();
            todo.extend(keywords(id).iter().flat_map(Kw::children));
            // Reversed, so the first child is visited first.
            if let Some(added) = todo.get_mut(mark..) {
                added.reverse();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validator::compile::JtdType;
    use crate::validator::format::Check;
    use serde_json::json;

    /// One of each `Kw` variant, with the nodes it links to. `variant` has no wildcard: a new
    /// variant does not compile until it is numbered there, and this test fails until it has a
    /// sample here (so its name and children are checked).
    fn samples() -> Vec<(Kw, Vec<usize>)> {
        let n = serde_json::Number::from(1);
        vec![
            (Kw::False, vec![]),
            (Kw::Ref(1), vec![1]),
            (Kw::DynamicRef { target: 2, anchor: None }, vec![2]),
            (Kw::RecursiveRef(3), vec![3]),
            (Kw::Type { mask: 0, names: vec![] }, vec![]),
            (Kw::Enum(json!([1])), vec![]),
            (Kw::Const(json!(1)), vec![]),
            (Kw::Minimum(n.clone()), vec![]),
            (Kw::Maximum(n.clone()), vec![]),
            (Kw::ExclusiveMinimum(n.clone()), vec![]),
            (Kw::ExclusiveMaximum(n.clone()), vec![]),
            (Kw::MultipleOf(n), vec![]),
            (Kw::MinLength(1), vec![]),
            (Kw::MaxLength(1), vec![]),
            (Kw::Pattern(0, "a".into()), vec![]),
            (Kw::Format(Check::Builtin(|_| true), "date".into()), vec![]),
            (Kw::ContentEncoding("base64".into()), vec![]),
            (Kw::ContentMediaType("application/json".into(), false), vec![]),
            (Kw::MinItems(1), vec![]),
            (Kw::MaxItems(1), vec![]),
            (Kw::UniqueItems, vec![]),
            (Kw::Items { prefix: vec![4, 5], prefix_keyword: "prefixItems", rest: Some(6), rest_keyword: "items" }, vec![4, 5, 6]),
            (Kw::Contains { node: 7, min: 1, max: None, min_written: false }, vec![7]),
            (Kw::Required(vec!["a".into()]), vec![]),
            (Kw::MinProperties(1), vec![]),
            (Kw::MaxProperties(1), vec![]),
            (Kw::Properties(vec![("a".into(), 8), ("b".into(), 9)]), vec![8, 9]),
            (Kw::PatternProperties(vec![(0, "^a".into(), 10)]), vec![10]),
            (Kw::AdditionalProperties { node: 11, names: vec![], patterns: vec![] }, vec![11]),
            (Kw::PropertyNames(12), vec![12]),
            (Kw::DependentRequired("dependentRequired", vec![]), vec![]),
            (Kw::DependentSchemas("dependentSchemas", vec![("a".into(), 13)]), vec![13]),
            (Kw::AllOf(vec![14, 15]), vec![14, 15]),
            (Kw::AnyOf(vec![16]), vec![16]),
            (Kw::OneOf(vec![17, 18]), vec![17, 18]),
            (Kw::Not(19, json!({})), vec![19]),
            (Kw::If { cond: 20, then: None, otherwise: Some(21) }, vec![20, 21]),
            (Kw::UnevaluatedItems(22), vec![22]),
            (Kw::UnevaluatedProperties(23), vec![23]),
            (Kw::JtdRef { node: 24, name: "d".into(), nullable: false }, vec![24]),
            (Kw::JtdType { kind: JtdType::Int8, nullable: false }, vec![]),
            (Kw::JtdForm { mask: 0, names: vec![], keyword: "elements" }, vec![]),
            (Kw::JtdRequired(vec![]), vec![]),
            (Kw::OptionalProperties(vec![("o".into(), 25)]), vec![25]),
            (Kw::JtdAdditional(vec![]), vec![]),
            (Kw::Values(26), vec![26]),
            (Kw::Discriminator { tag: "t".into(), mapping: vec![("x".into(), 27)] }, vec![27]),
        ]
    }

    const VARIANTS: usize = 47;

    fn variant(k: &Kw) -> usize {
        match k {
            Kw::False => 0,
            Kw::Ref(_) => 1,
            Kw::DynamicRef { .. } => 2,
            Kw::RecursiveRef(_) => 3,
            Kw::Type { .. } => 4,
            Kw::Enum(_) => 5,
            Kw::Const(_) => 6,
            Kw::Minimum(_) => 7,
            Kw::Maximum(_) => 8,
            Kw::ExclusiveMinimum(_) => 9,
            Kw::ExclusiveMaximum(_) => 10,
            Kw::MultipleOf(_) => 11,
            Kw::MinLength(_) => 12,
            Kw::MaxLength(_) => 13,
            Kw::Pattern(..) => 14,
            Kw::Format(..) => 15,
            Kw::ContentEncoding(_) => 16,
            Kw::ContentMediaType(..) => 17,
            Kw::MinItems(_) => 18,
            Kw::MaxItems(_) => 19,
            Kw::UniqueItems => 20,
            Kw::Items { .. } => 21,
            Kw::Contains { .. } => 22,
            Kw::Required(_) => 23,
            Kw::MinProperties(_) => 24,
            Kw::MaxProperties(_) => 25,
            Kw::Properties(_) => 26,
            Kw::PatternProperties(_) => 27,
            Kw::AdditionalProperties { .. } => 28,
            Kw::PropertyNames(_) => 29,
            Kw::DependentRequired(..) => 30,
            Kw::DependentSchemas(..) => 31,
            Kw::AllOf(_) => 32,
            Kw::AnyOf(_) => 33,
            Kw::OneOf(_) => 34,
            Kw::Not(..) => 35,
            Kw::If { .. } => 36,
            Kw::UnevaluatedItems(_) => 37,
            Kw::UnevaluatedProperties(_) => 38,
            Kw::JtdRef { .. } => 39,
            Kw::JtdType { .. } => 40,
            Kw::JtdForm { .. } => 41,
            Kw::JtdRequired(_) => 42,
            Kw::OptionalProperties(_) => 43,
            Kw::JtdAdditional(_) => 44,
            Kw::Values(_) => 45,
            Kw::Discriminator { .. } => 46,
        }
    }

    #[test]
    fn every_compiled_keyword_has_a_row_and_reports_its_children() {
        let samples = samples();
        let mut covered = [false; VARIANTS];
        for (kw, children) in &samples {
            if let Some(c) = covered.get_mut(variant(kw)) {
                *c = true;
            }
            let name = kw.name();
            let jtd = variant(kw) >= 39;
            assert!(
                name == "falseSchema" || if jtd { JTD_KEYWORDS.contains(&name) } else { lookup(name).is_some() },
                "{name} has no row in the keyword table"
            );
            // A keyword that links to nodes holds subschemas in its row.
            if !jtd && !children.is_empty() && !name.starts_with('$') {
                assert_ne!(lookup(name).map(|k| k.shape), Some(Shape::Leaf), "{name}");
            }
            assert_eq!(&kw.children().collect::<Vec<_>>(), children, "{name}");
        }
        assert!(covered.iter().all(|c| *c), "a Kw variant has no sample: {covered:?}");
    }

    #[test]
    fn walks_each_shape() {
        let schema = json!({
            "items": [{"a": 1}, true], "dependencies": {"x": ["y"], "z": {}}, "contentSchema": {},
            "properties": {"p": {}}, "enum": [{}], "not": false
        });
        let mut found = Vec::new();
        subschemas(schema.as_object().unwrap(), |_| true, |k, _, step| found.push((k, step.token())));
        found.sort();
        let expected = vec![
            ("contentSchema", None),
            ("dependencies", Some("z".to_string())),
            ("items", Some("0".to_string())),
            ("items", Some("1".to_string())),
            ("not", None),
            ("properties", Some("p".to_string())),
        ];
        assert_eq!(found, expected);
    }

    #[test]
    fn visits_each_reachable_node_once_in_keyword_order() {
        let kws: Vec<Vec<Kw>> = vec![
            vec![Kw::AllOf(vec![1, 2]), Kw::Not(0, json!({}))],
            vec![Kw::Ref(2)],
            vec![Kw::Properties(vec![("a".into(), 0)])],
            vec![Kw::Ref(0)],
        ];
        let mut order = Vec::new();
        for_each_node(0, |n| kws.get(n).map_or(&[][..], Vec::as_slice), |n| {
            order.push(n);
            true
        });
        assert_eq!(order, vec![0, 1, 2]);
    }

    #[test]
    fn every_applying_row_compiles() {
        // Each row that asserts or applies (not an identifier, annotation or comment) is read
        // by a compile step, and each step reads only rows of the table. `contentEncoding` and
        // `contentMediaType` assert up to Draft 7; `contentSchema` is only ever an annotation.
        let read = |name: &str| COMPILE_STEPS.iter().any(|s| s.reads.contains(&name));
        for row in KEYWORDS {
            let applies = matches!(row.vocabulary, Vocabulary::Applicator | Vocabulary::Unevaluated | Vocabulary::Validation | Vocabulary::Format)
                || (row.vocabulary == Vocabulary::Content && row.shape == Shape::Leaf);
            assert_eq!(applies || matches!(row.name, "$ref" | "$dynamicRef" | "$recursiveRef"), read(row.name), "{}", row.name);
        }
        for s in COMPILE_STEPS {
            assert!(s.reads.iter().all(|k| lookup(k).is_some()), "{:?}", s.reads);
        }
    }
}
