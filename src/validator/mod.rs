//! The library's own JSON Schema validator (drafts 4, 6, 7, 2019-09, 2020-12): a schema compiled
//! once into a graph of nodes, then evaluated against values with every error collected, or
//! with a yes/no answer that stops at the first failure. A JSON Type Definition (RFC 8927) is
//! compiled into the same nodes (`compile_jtd`), so every evaluator reads it as it reads JSON Schema.
//!
//! What it decides is checked against the official test suite (tests/spec_suite.rs, through
//! `Contract`). It never retrieves anything: `$ref` resolves inside the schema, the documents
//! passed as resources and the drafts' own meta-schemas.

mod compile;
pub mod draft;
pub mod ecma;
mod eval;
mod compile_jtd;
pub(crate) mod keywords;
pub(crate) mod leaf;
pub(crate) mod outline;
pub(crate) mod metaschemas;
pub(crate) mod plan;
pub mod format;
pub mod uri;
pub mod value;

use crate::validator::draft::Draft;
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// How deeply evaluations may nest: a chain of references that never reaches a keyword that
/// moves into the value would otherwise exhaust the stack.
pub const MAX_DEPTH: usize = 512;

/// What decides the meaning of a schema besides its text.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// The draft of a schema without a (known) `$schema`.
    pub draft: Draft,
    /// Assert `format` rather than treat it as an annotation.
    pub formats: bool,
    /// Refuse, when compiling, a `format` the draft does not define (only when asserting).
    pub refuse_unknown_formats: bool,
    /// Documents `$ref` may name, by URI.
    pub resources: &'a BTreeMap<String, Value>,
    /// The user's formats by name: asserted whatever `formats` says, ahead of the built-in ones.
    pub custom_formats: &'a BTreeMap<String, format::CustomFormat>,
}

/// Why a schema does not compile; `pointer` locates the keyword in the root schema (or, inside
/// another document, is prefixed by that document's URI and `#`).
#[derive(Clone, Debug, PartialEq)]
pub enum CompileError {
    /// A `$ref` names a document that is neither the schema nor among the resources.
    MissingDocument { pointer: String, reference: String, uri: String },
    /// A `$ref` names a document that is there, but no subschema at its fragment.
    MissingTarget { pointer: String, reference: String, uri: String },
    InvalidRegex { pointer: String, pattern: String, reason: String },
    UnknownFormat { pointer: String, format: String },
}

impl CompileError {
    pub fn pointer(&self) -> &str {
        match self {
            CompileError::MissingDocument { pointer, .. }
            | CompileError::MissingTarget { pointer, .. }
            | CompileError::InvalidRegex { pointer, .. }
            | CompileError::UnknownFormat { pointer, .. } => pointer,
        }
    }
}

/// One way a value fails a keyword: which keyword, where in the value (`instance_path`, a JSON
/// Pointer), how the keyword was reached (`evaluation_path`, through `$ref`s), and the kind with
/// what the keyword wanted.
#[derive(Clone, Debug)]
pub struct Error<'v> {
    pub keyword: &'static str,
    pub kind: ErrorKind<'v>,
    /// The failing value: borrowed from the output, owned for a property name.
    pub instance: Cow<'v, Value>,
    pub instance_path: String,
    pub evaluation_path: String,
}

#[derive(Clone, Debug)]
pub enum ErrorKind<'v> {
    FalseSchema,
    Type { expected: Vec<&'static str> },
    Enum { options: Value },
    Const { expected: Value },
    Minimum { limit: Number },
    Maximum { limit: Number },
    ExclusiveMinimum { limit: Number },
    ExclusiveMaximum { limit: Number },
    MultipleOf { multiple_of: Number },
    MinLength { limit: u64 },
    MaxLength { limit: u64 },
    Pattern { pattern: String },
    /// The pattern needed more backtracking than allowed: not decided.
    Backtracked { pattern: String },
    Format { format: String },
    ContentEncoding { encoding: String },
    ContentMediaType { media_type: String },
    MinItems { limit: u64 },
    MaxItems { limit: u64 },
    UniqueItems,
    /// Items past `limit` where the schema allows none.
    AdditionalItems { limit: usize },
    /// `contains`, `minContains` or `maxContains` (the error's keyword says which): `matched`
    /// items matched the `contains` schema, where `min` (at most `max`) were to.
    Contains { matched: u64, min: u64, max: Option<u64> },
    Required { property: String },
    MinProperties { limit: u64 },
    MaxProperties { limit: u64 },
    AdditionalProperties { unexpected: Vec<String> },
    UnevaluatedProperties { unexpected: Vec<String> },
    UnevaluatedItems { unexpected: Vec<usize> },
    /// A property name failed `propertyNames`: the name's own error.
    PropertyNames { error: Box<Error<'v>> },
    Not { schema: Value },
    /// No branch matched: each branch's errors.
    AnyOf { context: Vec<Vec<Error<'v>>> },
    OneOfNotValid { context: Vec<Vec<Error<'v>>> },
    OneOfMultipleValid,
    /// Evaluation nested deeper than `MAX_DEPTH`.
    Recursion,
}

impl Error<'_> {
    /// The same error with nothing borrowed.
    pub fn into_owned(self) -> Error<'static> {
        Error {
            keyword: self.keyword,
            kind: self.kind.into_owned(),
            instance: Cow::Owned(self.instance.into_owned()),
            instance_path: self.instance_path,
            evaluation_path: self.evaluation_path,
        }
    }
}

impl ErrorKind<'_> {
    fn into_owned(self) -> ErrorKind<'static> {
        let all = |context: Vec<Vec<Error<'_>>>| context.into_iter().map(|b| b.into_iter().map(Error::into_owned).collect()).collect();
        match self {
            ErrorKind::FalseSchema => ErrorKind::FalseSchema,
            ErrorKind::Type { expected } => ErrorKind::Type { expected },
            ErrorKind::Enum { options } => ErrorKind::Enum { options },
            ErrorKind::Const { expected } => ErrorKind::Const { expected },
            ErrorKind::Minimum { limit } => ErrorKind::Minimum { limit },
            ErrorKind::Maximum { limit } => ErrorKind::Maximum { limit },
            ErrorKind::ExclusiveMinimum { limit } => ErrorKind::ExclusiveMinimum { limit },
            ErrorKind::ExclusiveMaximum { limit } => ErrorKind::ExclusiveMaximum { limit },
            ErrorKind::MultipleOf { multiple_of } => ErrorKind::MultipleOf { multiple_of },
            ErrorKind::MinLength { limit } => ErrorKind::MinLength { limit },
            ErrorKind::MaxLength { limit } => ErrorKind::MaxLength { limit },
            ErrorKind::Pattern { pattern } => ErrorKind::Pattern { pattern },
            ErrorKind::Backtracked { pattern } => ErrorKind::Backtracked { pattern },
            ErrorKind::Format { format } => ErrorKind::Format { format },
            ErrorKind::ContentEncoding { encoding } => ErrorKind::ContentEncoding { encoding },
            ErrorKind::ContentMediaType { media_type } => ErrorKind::ContentMediaType { media_type },
            ErrorKind::MinItems { limit } => ErrorKind::MinItems { limit },
            ErrorKind::MaxItems { limit } => ErrorKind::MaxItems { limit },
            ErrorKind::UniqueItems => ErrorKind::UniqueItems,
            ErrorKind::AdditionalItems { limit } => ErrorKind::AdditionalItems { limit },
            ErrorKind::Contains { matched, min, max } => ErrorKind::Contains { matched, min, max },
            ErrorKind::Required { property } => ErrorKind::Required { property },
            ErrorKind::MinProperties { limit } => ErrorKind::MinProperties { limit },
            ErrorKind::MaxProperties { limit } => ErrorKind::MaxProperties { limit },
            ErrorKind::AdditionalProperties { unexpected } => ErrorKind::AdditionalProperties { unexpected },
            ErrorKind::UnevaluatedProperties { unexpected } => ErrorKind::UnevaluatedProperties { unexpected },
            ErrorKind::UnevaluatedItems { unexpected } => ErrorKind::UnevaluatedItems { unexpected },
            ErrorKind::PropertyNames { error } => ErrorKind::PropertyNames { error: Box::new(error.into_owned()) },
            ErrorKind::Not { schema } => ErrorKind::Not { schema },
            ErrorKind::AnyOf { context } => ErrorKind::AnyOf { context: all(context) },
            ErrorKind::OneOfNotValid { context } => ErrorKind::OneOfNotValid { context: all(context) },
            ErrorKind::OneOfMultipleValid => ErrorKind::OneOfMultipleValid,
            ErrorKind::Recursion => ErrorKind::Recursion,
        }
    }
}

/// How near a failed branch of `anyOf`/`oneOf` at `at` (an instance path) came to matching,
/// lower is nearer: a branch whose very type is wrong there is farthest, then more errors are
/// farther. The report shows the nearest branch (the earlier of equals, `nearest_branch`); the
/// evaluator stops collecting a branch's errors once it can no longer be the nearest; the
/// stream, which sees violations rather than errors, ranks by `rank` on the errors it counted.
pub(crate) fn branch_rank(errors: &[Error<'_>], at: &str) -> (bool, usize) {
    rank(errors.iter().any(|e| e.instance_path == at && is_wrong_type(&e.kind)), errors.len())
}

/// The rank of a branch from its parts: whether an error says the value's very type is wrong
/// where the disjunction is, and how many errors it has (an error naming several properties is
/// one).
#[inline]
pub(crate) fn rank(wrong_type_here: bool, errors: usize) -> (bool, usize) {
    (wrong_type_here, errors)
}

/// An error saying the value is of the wrong type for the schema (or no value fits it).
#[inline]
pub(crate) fn is_wrong_type(kind: &ErrorKind<'_>) -> bool {
    matches!(kind, ErrorKind::Type { .. } | ErrorKind::FalseSchema)
}

/// The index of the nearest branch among ranked ones (`None`: a branch not in the running),
/// the earlier of equals.
pub(crate) fn nearest_branch(ranks: impl IntoIterator<Item = Option<(bool, usize)>>) -> Option<usize> {
    ranks.into_iter().enumerate().filter_map(|(i, r)| r.map(|r| (r, i))).min().map(|(_, i)| i)
}

/// A compiled schema: the one form of its meaning that every evaluator reads — the validator's
/// own evaluation, the one-pass text path and the stream's in-flight checks.
pub struct Validator {
    nodes: Vec<compile::SchemaNode>,
    patterns: Vec<ecma::Pattern>,
    resources: Vec<compile::Resource>,
    root: usize,
    /// Some node's meaning depends on the dynamic scope (`$dynamicRef`, `$recursiveRef`): a node
    /// evaluated on its own, outside the scope that reached it, may then be judged differently.
    dynamic: bool,
}

pub(crate) use compile::{JtdType, Kw, ARRAY, BOOLEAN, INTEGER, NULL, NUMBER, OBJECT, STRING};

impl Validator {
    /// Compiles `schema`; every `$ref` is resolved now (an unresolvable one is an error).
    pub fn new(schema: &Value, options: &Options<'_>) -> Result<Validator, CompileError> {
        compile::compile(schema, options)
    }

    pub fn is_valid(&self, value: &Value) -> bool {
        eval::is_valid(self, self.root, value, &[])
    }

    /// Every error of `value`, in evaluation order.
    pub fn errors<'v>(&self, value: &'v Value) -> Vec<Error<'v>> {
        eval::errors(self, self.root, value, &[])
    }

    /// The root schema's node.
    pub(crate) fn root(&self) -> usize {
        self.root
    }

    /// The keywords of a node, as compiled (references resolved to nodes).
    pub(crate) fn keywords(&self, node: usize) -> &[Kw] {
        self.nodes.get(node).map_or(&[], |n| n.kws.as_slice())
    }

    /// Where a node's subschema is (see `SchemaNode::location`); `""` for the root.
    pub(crate) fn location(&self, node: usize) -> &str {
        self.nodes.get(node).map_or("", |n| n.location.as_str())
    }

    /// Whether the schema uses the dynamic scope anywhere (see `dynamic`).
    pub(crate) fn uses_dynamic_scope(&self) -> bool {
        self.dynamic
    }

    /// Whether a property name matches pattern `index`; a name the pattern could not decide
    /// counts as matching (its subschema then judges the value), as in evaluation.
    pub(crate) fn name_matches(&self, index: usize, name: &str) -> bool {
        self.patterns.get(index).is_some_and(|p| p.is_match(name).unwrap_or(true))
    }

    /// `value` against one node, as if the node were the root.
    pub(crate) fn node_is_valid(&self, node: usize, value: &Value) -> bool {
        eval::is_valid(self, node, value, &[])
    }

    /// Errors of `value` against one node; evaluation paths start at the node.
    pub(crate) fn node_errors<'v>(&self, node: usize, value: &'v Value) -> Vec<Error<'v>> {
        eval::errors(self, node, value, &[])
    }

    /// `node_is_valid` within the dynamic scope that reached the node: `scope`, the resources
    /// entered on the way from the root, outermost first (`scope_entered`).
    pub(crate) fn node_is_valid_in(&self, node: usize, value: &Value, scope: &[usize]) -> bool {
        eval::is_valid(self, node, value, scope)
    }

    /// `node_errors` within the dynamic scope `scope` (see `node_is_valid_in`).
    pub(crate) fn node_errors_in<'v>(&self, node: usize, value: &'v Value, scope: &[usize]) -> Vec<Error<'v>> {
        eval::errors(self, node, value, scope)
    }

    /// How many nodes the schema compiled to (numbered from 0).
    pub(crate) fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// `scope` after evaluation enters `node`: its resource added unless it is the innermost one
    /// already, as evaluation adds it.
    pub(crate) fn scope_entered(&self, scope: &mut Vec<usize>, node: usize) {
        if let Some(n) = self.nodes.get(node) {
            if scope.last() != Some(&n.resource) {
                scope.push(n.resource);
            }
        }
    }

    /// Where a `$dynamicRef` (`Kw::DynamicRef`) or `$recursiveRef` (`Kw::RecursiveRef`) goes in
    /// the dynamic scope `scope`; `None` for any other keyword.
    pub(crate) fn dynamic_target(&self, kw: &Kw, scope: &[usize]) -> Option<usize> {
        match kw {
            Kw::DynamicRef { target, anchor } => Some(eval::dynamic_target(self, *target, anchor.as_deref(), scope)),
            Kw::RecursiveRef(target) => Some(eval::recursive_target(self, *target, scope)),
            _ => None,
        }
    }

    /// Whether `value` satisfies keyword `index` of `node` alone (for the keywords that look
    /// at a value without going into it: `type`, `enum`, `const`, bounds, `pattern`, `format`,
    /// `uniqueItems` …).
    pub(crate) fn keyword_is_valid(&self, node: usize, index: usize, value: &Value) -> bool {
        eval::keyword_is_valid(self, node, index, value)
    }

    /// Whether a string whose content is `s` satisfies keyword `index` of `node`, when that
    /// keyword looks at a string's content alone (`pattern`, `format`); None for other keywords.
    /// The same check as `keyword_is_valid` on the string, without building it as a value.
    pub(crate) fn string_keyword_is_valid(&self, node: usize, index: usize, s: &str) -> Option<bool> {
        eval::string_keyword_is_valid(self, node, index, s)
    }
}
