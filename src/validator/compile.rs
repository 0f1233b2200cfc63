//! From schema documents to the node graph: a registry of every resource (`$id`) and anchor in
//! the documents, then nodes compiled on demand from the root — a `$ref` compiles its target
//! once, so cycles close on themselves.

use super::ecma::Pattern;
use super::format;
use super::keywords::{self, Compile};
use super::uri;
use super::{CompileError, Options, Validator};
use crate::validator::draft::Draft;
use serde_json::{Map, Number, Value};
use std::collections::{BTreeSet, HashMap};

mod discriminator;
pub(crate) use discriminator::Selector;

pub(crate) struct SchemaNode {
    pub kws: Vec<Kw>,
    /// The schema resource the node belongs to (its dynamic scope entry).
    pub resource: usize,
    /// It has `unevaluatedProperties`/`unevaluatedItems`: it gathers annotations of its own.
    pub gathers: bool,
    pub draft: Draft,
    /// Where the subschema is: a JSON Pointer into the root schema, or `URI#pointer` inside
    /// another document (a resource, or a root reached through its `$id`), so tools that read the
    /// compiled graph (schema comparison) can name the place they talk about.
    pub location: String,
    /// As a branch of a disjunction with a `discriminator`: the tag values that select it.
    pub selected_by: Option<Box<Selector>>,
}

pub(crate) struct Resource {
    pub dynamic_anchors: Vec<(String, usize)>,
    /// The resource's root node, when it says `"$recursiveAnchor": true`.
    pub recursive_root: Option<usize>,
}

pub(crate) enum Kw {
    False,
    Ref(usize),
    DynamicRef { target: usize, anchor: Option<String> },
    RecursiveRef(usize),
    Type { mask: u8, names: Vec<&'static str> },
    Enum(Value),
    Const(Value),
    Minimum(Number),
    Maximum(Number),
    ExclusiveMinimum(Number),
    ExclusiveMaximum(Number),
    MultipleOf(Number),
    MinLength(u64),
    MaxLength(u64),
    Pattern(usize, String),
    Format(format::Check, String),
    ContentEncoding(String),
    ContentMediaType(String, bool),
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    /// `prefixItems` (or `items` as an array), then `items` (or `additionalItems`) for the rest.
    Items { prefix: Vec<usize>, prefix_keyword: &'static str, rest: Option<usize>, rest_keyword: &'static str },
    Contains { node: usize, min: u64, max: Option<u64>, min_written: bool },
    Required(Vec<String>),
    MinProperties(u64),
    MaxProperties(u64),
    /// Sorted by name.
    Properties(Vec<(String, usize)>),
    PatternProperties(Vec<(usize, String, usize)>),
    AdditionalProperties { node: usize, names: Vec<String>, patterns: Vec<usize> },
    PropertyNames(usize),
    DependentRequired(&'static str, Vec<(String, Vec<String>)>),
    DependentSchemas(&'static str, Vec<(String, usize)>),
    AllOf(Vec<usize>),
    AnyOf(Vec<usize>),
    OneOf(Vec<usize>),
    Not(usize, Value),
    If { cond: usize, then: Option<usize>, otherwise: Option<usize> },
    UnevaluatedItems(usize),
    UnevaluatedProperties(usize),
    // JSON Type Definition (RFC 8927): forms whose errors JSON Schema's keywords would report
    // at other paths. Each ignores a value of another type, which its form's `JtdForm` reports.
    /// A `ref`: the definition is evaluated with the schema path restarted at
    /// `/definitions/<name>`, as RFC 8927 reports errors found through a reference.
    JtdRef { node: usize, name: String, nullable: bool },
    /// A `type` JSON Schema has no keyword for: an integer type with its range, or `timestamp`.
    /// Any failure is the one `type` error.
    JtdType { kind: JtdType, nullable: bool },
    /// The type a form needs (an array for `elements`, an object for the others): a value of
    /// another type is one error at the form's keyword (`mask` includes null when nullable).
    JtdForm { mask: u8, names: Vec<&'static str>, keyword: &'static str },
    /// `properties`' names that must be there: a missing one is reported at the object, with
    /// the schema path `/properties/<name>`.
    JtdRequired(Vec<String>),
    /// `optionalProperties`, sorted by name: each present member at `/optionalProperties/<name>`.
    OptionalProperties(Vec<(String, usize)>),
    /// A properties form without `additionalProperties: true`: the names it allows, sorted (a
    /// discriminator's tag among them); any other member is an error at the member, with the
    /// form's own schema path.
    JtdAdditional(Vec<String>),
    /// `values`: every member at `/values`.
    Values(usize),
    /// `discriminator`/`mapping` (sorted by tag value): the tag's absence is reported at
    /// `/discriminator`, a tag that is not a string at the tag with `/discriminator`, an unmapped
    /// value at the tag with `/mapping`; otherwise the mapped schema judges the object.
    Discriminator { tag: String, mapping: Vec<(String, usize)> },
}

/// RFC 8927 types that need more than a JSON type: integers in a range, RFC 3339 timestamps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JtdType {
    Int8,
    Uint8,
    Int16,
    Uint16,
    Int32,
    Uint32,
    Timestamp,
}

impl JtdType {
    pub(crate) fn from_name(name: &str) -> Option<JtdType> {
        Some(match name {
            "int8" => JtdType::Int8,
            "uint8" => JtdType::Uint8,
            "int16" => JtdType::Int16,
            "uint16" => JtdType::Uint16,
            "int32" => JtdType::Int32,
            "uint32" => JtdType::Uint32,
            "timestamp" => JtdType::Timestamp,
            _ => return None,
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            JtdType::Int8 => "int8",
            JtdType::Uint8 => "uint8",
            JtdType::Int16 => "int16",
            JtdType::Uint16 => "uint16",
            JtdType::Int32 => "int32",
            JtdType::Uint32 => "uint32",
            JtdType::Timestamp => "timestamp",
        }
    }

    /// The inclusive range of an integer type.
    pub(crate) fn range(self) -> Option<(i64, i64)> {
        Some(match self {
            JtdType::Int8 => (-128, 127),
            JtdType::Uint8 => (0, 255),
            JtdType::Int16 => (-32_768, 32_767),
            JtdType::Uint16 => (0, 65_535),
            JtdType::Int32 => (-2_147_483_648, 2_147_483_647),
            JtdType::Uint32 => (0, 4_294_967_295),
            JtdType::Timestamp => return None,
        })
    }

    /// The JSON type bits of the values that may be of this type.
    pub(crate) fn mask(self) -> u8 {
        match self {
            JtdType::Timestamp => STRING,
            _ => INTEGER,
        }
    }
}

pub(crate) const NULL: u8 = 1;
pub(crate) const BOOLEAN: u8 = 2;
pub(crate) const INTEGER: u8 = 4;
pub(crate) const NUMBER: u8 = 8;
pub(crate) const STRING: u8 = 16;
pub(crate) const ARRAY: u8 = 32;
pub(crate) const OBJECT: u8 = 64;

fn type_bit(name: &str) -> Option<(u8, &'static str)> {
    Some(match name {
        "null" => (NULL, "null"),
        "boolean" => (BOOLEAN, "boolean"),
        "integer" => (INTEGER, "integer"),
        "number" => (NUMBER, "number"),
        "string" => (STRING, "string"),
        "array" => (ARRAY, "array"),
        "object" => (OBJECT, "object"),
        _ => return None,
    })
}

/// Where a subschema is: its value, base URI, draft, and its location for error messages.
#[derive(Clone)]
pub(crate) struct Site<'s> {
    value: &'s Value,
    base: String,
    draft: Draft,
    location: String,
    /// `base` already includes the value's own `$id` (a resource found by its URI).
    based: bool,
}

struct Registry<'s> {
    /// Resource URI → its root, draft and base URI (the root's `$id` applied).
    resources: HashMap<String, (&'s Value, Draft, String)>,
    /// (resource URI, anchor) → the subschema, and whether the anchor is dynamic.
    anchors: HashMap<(String, String), (&'s Value, bool)>,
    /// Resources whose root says `"$recursiveAnchor": true`.
    recursive: BTreeSet<String>,
}

pub(crate) struct Compiler<'s, 'o> {
    options: &'o Options<'o>,
    registry: Registry<'s>,
    /// Documents given by URI, normalized, not yet walked.
    pending: HashMap<String, &'s Value>,
    nodes: Vec<SchemaNode>,
    /// Nodes allocated whose keywords are still to compile (see `drain`).
    queue: Vec<(usize, Site<'s>)>,
    memo: HashMap<usize, usize>,
    patterns: Vec<Pattern>,
    pattern_index: HashMap<String, usize>,
    resource_index: HashMap<String, usize>,
    resources: Vec<Resource>,
    dynamic_names: BTreeSet<String>,
    recursive_refs: bool,
    /// Vocabularies of the root's custom meta-schema: whether validation keywords apply, and
    /// whether formats are asserted whatever the options say.
    validation: bool,
    format_assertion: bool,
}

pub(super) fn compile(schema: &Value, options: &Options<'_>) -> Result<Validator, CompileError> {
    if options.draft == Draft::Jtd {
        return super::compile_jtd::compile(schema);
    }
    let draft = schema_draft(schema).unwrap_or(options.draft);
    let mut c = Compiler {
        options,
        registry: Registry { resources: HashMap::new(), anchors: HashMap::new(), recursive: BTreeSet::new() },
        // A relative key (TypeBox's `Customer`) names its document as a relative `$ref` does:
        // resolved against the default base.
        pending: options.resources.iter().map(|(k, v)| (uri::normalize(&uri::resolve(uri::DEFAULT_BASE, uri::normalize(k))).to_string(), v)).collect(),
        nodes: Vec::new(),
        queue: Vec::new(),
        memo: HashMap::new(),
        patterns: Vec::new(),
        pattern_index: HashMap::new(),
        resource_index: HashMap::new(),
        resources: Vec::new(),
        dynamic_names: BTreeSet::new(),
        recursive_refs: false,
        validation: vocabulary(schema, options.resources, "/vocab/validation").unwrap_or(true),
        format_assertion: vocabulary(schema, options.resources, "/vocab/format-assertion").unwrap_or(false),
    };
    c.register(uri::DEFAULT_BASE, schema, draft);
    // Every given document is registered under its own ids too, so a `$ref` may use either.
    let given: Vec<(String, &Value)> = c.pending.iter().map(|(k, v)| (k.clone(), *v)).collect();
    for (uri, doc) in given {
        c.load(&uri, doc);
    }
    let root = c.node(&Site { value: schema, base: uri::DEFAULT_BASE.to_string(), draft, location: String::new(), based: false })?;
    c.drain()?;
    c.close_dynamic()?;
    let dynamic = c.recursive_refs || !c.dynamic_names.is_empty() || c.nodes.iter().any(|n| n.kws.iter().any(|k| matches!(k, Kw::DynamicRef { .. })));
    Ok(Validator { nodes: c.nodes, patterns: c.patterns, resources: c.resources, root, dynamic })
}

fn schema_draft(schema: &Value) -> Option<Draft> {
    schema.get("$schema").and_then(Value::as_str).and_then(Draft::from_schema_uri)
}

/// The identifier a subschema declares, if it is one in its draft (before 2019-09, `$ref`
/// hides every sibling, `$id` included).
fn id_of(value: &Value, draft: Draft) -> Option<&str> {
    let obj = value.as_object()?;
    if draft.ref_hides_siblings() && obj.contains_key("$ref") {
        return None;
    }
    obj.get(draft.id_keyword()).and_then(Value::as_str)
}

/// Whether the root's custom meta-schema (among the resources) declares the vocabulary whose
/// URI ends with `suffix`; `None` when there is no such meta-schema or it lists no vocabularies.
fn vocabulary(schema: &Value, resources: &std::collections::BTreeMap<String, Value>, suffix: &str) -> Option<bool> {
    let meta_uri = schema.get("$schema").and_then(Value::as_str)?;
    if Draft::from_schema_uri(meta_uri).is_some() {
        return None;
    }
    let key = uri::normalize(meta_uri);
    let meta = resources.iter().find(|(k, _)| uri::normalize(k) == key).map(|(_, v)| v)?;
    let vocab = meta.get("$vocabulary").and_then(Value::as_object)?;
    Some(vocab.keys().any(|k| k.ends_with(suffix)))
}

/// Whether the validator reads `keyword` in `draft`: the draft's own keywords, and
/// `dependencies` in the drafts that split it into `dependentRequired`/`dependentSchemas`
/// (kept for compatibility, as the test suite's optional tests expect).
fn reads(draft: Draft, keyword: &str) -> bool {
    draft.knows(keyword) || (keyword == "dependencies" && draft >= Draft::Draft201909)
}

/// The subschemas below a schema object, with the pointer tokens that lead to each.
fn children<'s>(obj: &'s Map<String, Value>, draft: Draft, mut f: impl FnMut(&'s Value, &str, Option<String>)) {
    keywords::subschemas(obj, |k| reads(draft, k), |k, v, step| f(v, k, step.token()));
}

/// A non-negative integer, also when written as `2.0`.
fn count(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| v.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 1.8e19).map(|f| f as u64))
}

fn escape_token(token: &str) -> std::borrow::Cow<'_, str> {
    crate::json::path::escape_pointer_token(token)
}

impl<'s, 'o> Compiler<'s, 'o> {
    /// Registers the resources and anchors of a document (or of the subschema `value`).
    fn walk(&mut self, value: &'s Value, base: &str, draft: Draft) {
        let Some(obj) = value.as_object() else { return };
        let draft = schema_draft(value).unwrap_or(draft);
        let mut base = base.to_string();
        if let Some(id) = id_of(value, draft) {
            if !draft.knows("$anchor") && id.starts_with('#') {
                self.registry.anchors.insert((base.clone(), id.trim_start_matches('#').to_string()), (value, false));
            } else {
                let resolved = uri::resolve(&base, id);
                let (doc, fragment) = uri::split_fragment(&resolved);
                base = uri::normalize(doc).to_string();
                self.registry.resources.insert(base.clone(), (value, draft, base.clone()));
                if !draft.knows("$anchor") && !fragment.is_empty() && !fragment.starts_with('/') {
                    self.registry.anchors.insert((base.clone(), fragment.to_string()), (value, false));
                }
            }
        }
        if draft.knows("$anchor") {
            if let Some(anchor) = obj.get("$anchor").and_then(Value::as_str) {
                self.registry.anchors.insert((base.clone(), anchor.to_string()), (value, false));
            }
            if draft.knows("$dynamicAnchor") {
                if let Some(anchor) = obj.get("$dynamicAnchor").and_then(Value::as_str) {
                    self.registry.anchors.insert((base.clone(), anchor.to_string()), (value, true));
                }
            }
            if draft.knows("$recursiveAnchor") && obj.get("$recursiveAnchor") == Some(&Value::Bool(true)) {
                self.registry.recursive.insert(base.clone());
            }
        }
        let mut subs = Vec::new();
        children(obj, draft, |v, _, _| subs.push(v));
        for sub in subs {
            self.walk(sub, &base, draft);
        }
    }

    /// Registers a document under `uri` and walks it.
    fn load(&mut self, uri: &str, doc: &'s Value) {
        let draft = schema_draft(doc).unwrap_or(self.options.draft);
        self.register(uri, doc, draft);
    }

    fn register(&mut self, at: &str, doc: &'s Value, draft: Draft) {
        let base = match id_of(doc, draft).filter(|id| !id.starts_with('#')) {
            Some(id) => uri::normalize(uri::split_fragment(&uri::resolve(at, id)).0).to_string(),
            None => at.to_string(),
        };
        self.registry.resources.entry(at.to_string()).or_insert((doc, draft, base));
        self.walk(doc, at, draft);
    }

    /// The document at `uri`: registered, given as a resource, or a draft's meta-schema.
    fn document(&mut self, uri: &str) -> Option<(&'s Value, Draft, String)> {
        if let Some(found) = self.registry.resources.get(uri) {
            return Some(found.clone());
        }
        if let Some(doc) = self.pending.get(uri).copied() {
            self.load(uri, doc);
        } else {
            for (meta_uri, doc) in meta_documents(uri) {
                self.load(meta_uri, doc);
            }
        }
        self.registry.resources.get(uri).cloned()
    }

    /// The subschema at `pointer` below `value`, with the base URI in force there.
    fn subschema_at(&mut self, value: &'s Value, base: &str, based: bool, draft: Draft, pointer: &str, doc_location: &str) -> Option<Site<'s>> {
        let mut current = value;
        let mut base = base.to_string();
        let mut draft = draft;
        let mut location = doc_location.to_string();
        let mut based = based;
        for token in uri::pointer_tokens(pointer) {
            if current.is_object() && !std::mem::take(&mut based) {
                draft = schema_draft(current).unwrap_or(draft);
                if let Some(id) = id_of(current, draft).filter(|id| !id.starts_with('#')) {
                    base = uri::normalize(uri::split_fragment(&uri::resolve(&base, id)).0).to_string();
                }
            }
            current = match current {
                Value::Object(map) => map.get(token.as_ref())?,
                Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
            location.push('/');
            location.push_str(&escape_token(&token));
        }
        Some(Site { value: current, base, draft, location, based })
    }

    /// The target of a reference written at `site`, and whether it is a dynamic anchor. Out of
    /// line (module size): it is large, and its one caller is small.
    #[inline(never)]
    fn resolve(&mut self, site: &Site<'s>, reference: &str, keyword: &str) -> Result<(Site<'s>, Option<String>), CompileError> {
        let full = uri::resolve(&site.base, reference);
        let (doc_uri, fragment) = uri::split_fragment(&full);
        let doc_uri = uri::normalize(doc_uri).to_string();
        let pointer = format!("{}/{keyword}", site.location);
        let Some((doc, draft, doc_base)) = self.document(&doc_uri) else {
            return Err(CompileError::MissingDocument { pointer, reference: reference.to_string(), uri: doc_uri });
        };
        let unresolvable = || CompileError::MissingTarget { pointer: pointer.clone(), reference: reference.to_string(), uri: full.clone() };
        let fragment = uri::decode_fragment(fragment).ok_or_else(unresolvable)?;
        let location = if doc_uri == uri::DEFAULT_BASE { String::new() } else { format!("{doc_uri}#") };
        if fragment.is_empty() || fragment.starts_with('/') {
            let target = self.subschema_at(doc, &doc_base, true, draft, &fragment, &location).ok_or_else(unresolvable)?;
            return Ok((target, None));
        }
        let (value, dynamic) = *self.registry.anchors.get(&(doc_uri.clone(), fragment.to_string())).ok_or_else(unresolvable)?;
        let draft = schema_draft(value).unwrap_or(draft);
        let location = format!("{location}{}", if location.is_empty() { format!("#{fragment}") } else { fragment.to_string() });
        Ok((Site { value, base: doc_uri, draft, location, based: true }, dynamic.then(|| fragment.to_string())))
    }

    fn resource(&mut self, uri: &str) -> usize {
        if let Some(i) = self.resource_index.get(uri) {
            return *i;
        }
        self.resources.push(Resource { dynamic_anchors: Vec::new(), recursive_root: None });
        let i = self.resources.len() - 1;
        self.resource_index.insert(uri.to_string(), i);
        i
    }

    /// The node of a subschema, compiled on first use.
    fn node(&mut self, site: &Site<'s>) -> Result<usize, CompileError> {
        let key = std::ptr::from_ref(site.value) as usize;
        if let Some(n) = self.memo.get(&key) {
            return Ok(*n);
        }
        let draft = schema_draft(site.value).unwrap_or(site.draft);
        let base = match id_of(site.value, draft).filter(|id| !id.starts_with('#') && !site.based) {
            Some(id) => uri::normalize(uri::split_fragment(&uri::resolve(&site.base, id)).0).to_string(),
            None => site.base.clone(),
        };
        let resource = self.resource(&base);
        let index = self.nodes.len();
        self.nodes.push(SchemaNode { kws: Vec::new(), resource, gathers: false, draft, location: site.location.clone(), selected_by: None });
        self.memo.insert(key, index);
        self.queue.push((index, Site { value: site.value, base, draft, location: site.location.clone(), based: true }));
        Ok(index)
    }

    /// Compiles the keywords of every node allocated and not compiled yet. A worklist rather
    /// than recursion: a chain of thousands of `$ref`s must not exhaust the stack. A stack whose
    /// newly found children are reversed, so nodes compile in document order (the first error
    /// reported is the first in the schema).
    fn drain(&mut self) -> Result<(), CompileError> {
        while let Some((index, here)) = self.queue.pop() {
            let mark = self.queue.len();
            let kws = match here.value {
                Value::Bool(false) => vec![Kw::False],
                Value::Object(obj) => self.keywords(obj, &here)?,
                _ => Vec::new(),
            };
            if let Some(children) = self.queue.get_mut(mark..) {
                children.reverse();
            }
            let gathers = kws.iter().any(|k| matches!(k, Kw::UnevaluatedItems(_) | Kw::UnevaluatedProperties(_)));
            if let Some(node) = self.nodes.get_mut(index) {
                node.kws = kws;
                node.gathers = gathers;
            }
        }
        Ok(())
    }

    fn child(&mut self, site: &Site<'s>, value: &'s Value, tokens: &[&str]) -> Result<usize, CompileError> {
        let mut location = site.location.clone();
        for t in tokens {
            location.push('/');
            location.push_str(&escape_token(t));
        }
        self.node(&Site { value, base: site.base.clone(), draft: site.draft, location, based: false })
    }

    fn pattern(&mut self, site: &Site<'s>, source: &str, tokens: &[&str]) -> Result<usize, CompileError> {
        if let Some(i) = self.pattern_index.get(source) {
            return Ok(*i);
        }
        let pattern = Pattern::new(source).map_err(|reason| CompileError::InvalidRegex {
            pointer: tokens.iter().fold(site.location.clone(), |acc, t| format!("{acc}/{}", escape_token(t))),
            pattern: source.to_string(),
            reason,
        })?;
        self.patterns.push(pattern);
        self.pattern_index.insert(source.to_string(), self.patterns.len() - 1);
        Ok(self.patterns.len() - 1)
    }

    /// `format`: the user's format of that name, else (when formats are asserted) the draft's.
    fn format(&mut self, site: &Site<'s>, name: &str, draft: Draft, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
        let check = match self.options.custom_formats.get(name) {
            Some(format::CustomFormat::Pattern(source)) => format::Check::Pattern(self.pattern(site, source, &["format"])?, source.clone()),
            Some(format::CustomFormat::Function(f)) => format::Check::Function(std::sync::Arc::clone(f)),
            None if !(self.options.formats || self.format_assertion) => return Ok(()),
            None => match format::lookup(name, draft) {
                Some(check) => format::Check::Builtin(check),
                // Beside a `pattern` (as Zod writes `xid`, `includes` …), the pattern checks:
                // the format is an annotation.
                None if self.options.refuse_unknown_formats && !site.value.get("pattern").is_some_and(Value::is_string) => {
                    return Err(CompileError::UnknownFormat { pointer: format!("{}/format", site.location), format: name.to_string() });
                }
                None => return Ok(()),
            },
        };
        kws.push(Kw::Format(check, name.to_string()));
        Ok(())
    }

    /// A schema object's keywords, compiled by the keyword table's steps (`keywords::COMPILE_STEPS`)
    /// in their order, which is the order they are evaluated and report in.
    fn keywords(&mut self, obj: &'s Map<String, Value>, site: &Site<'s>) -> Result<Vec<Kw>, CompileError> {
        let mut kws = Vec::new();
        for step in keywords::COMPILE_STEPS {
            if (step.validation && !self.validation) || !step.reads.iter().any(|k| obj.contains_key(*k)) {
                continue;
            }
            let (draft, name) = (site.draft, step.reads.first().copied().unwrap_or_default());
            match step.compile {
                Compile::Count(kw) => kws.extend(count_of(obj, draft, name).map(kw)),
                Compile::Number(kw) => kws.extend(number_of(obj, draft, name).map(kw)),
                Compile::One(kw) => {
                    if let Some(sub) = get(obj, draft, name) {
                        kws.push(kw(self.child(site, sub, &[name])?));
                    }
                }
                Compile::List(kw) => {
                    if let Some(Value::Array(items)) = get(obj, draft, name) {
                        kws.push(kw(self.list(site, name, items)?));
                    }
                }
                Compile::With(f) => f(self, obj, site, &mut kws)?,
            }
            // Before 2019-09 a `$ref` is the whole schema.
            if site.draft.ref_hides_siblings() && matches!(kws.as_slice(), [Kw::Ref(_)]) {
                break;
            }
        }
        Ok(kws)
    }

    /// The subschemas of an array-valued keyword (`allOf`, `anyOf`, `oneOf`).
    fn list(&mut self, site: &Site<'s>, name: &str, items: &'s [Value]) -> Result<Vec<usize>, CompileError> {
        let mut nodes = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            nodes.push(self.child(site, item, &[name, &i.to_string()])?);
        }
        Ok(nodes)
    }

    /// Compiles every dynamic anchor a `$dynamicRef` may jump to, and every recursive anchor,
    /// until compiling them finds no new ones.
    fn close_dynamic(&mut self) -> Result<(), CompileError> {
        loop {
            let mut todo = Vec::new();
            for ((resource, name), (value, dynamic)) in &self.registry.anchors {
                if *dynamic && self.dynamic_names.contains(name) {
                    todo.push((resource.clone(), name.clone(), *value, true));
                }
            }
            if self.recursive_refs {
                for resource in &self.registry.recursive {
                    if let Some((value, _, _)) = self.registry.resources.get(resource) {
                        todo.push((resource.clone(), String::new(), *value, false));
                    }
                }
            }
            let before = self.nodes.len();
            for (resource, name, value, dynamic) in todo {
                let draft = self.registry.resources.get(&resource).map_or(self.options.draft, |(_, d, _)| *d);
                let location = format!("{resource}#{name}");
                let node = self.node(&Site { value, base: resource.clone(), draft, location, based: true })?;
                let index = self.resource(&resource);
                if let Some(r) = self.resources.get_mut(index) {
                    if dynamic {
                        if !r.dynamic_anchors.iter().any(|(n, _)| *n == name) {
                            r.dynamic_anchors.push((name, node));
                        }
                    } else {
                        r.recursive_root = Some(node);
                    }
                }
            }
            self.drain()?;
            if self.nodes.len() == before {
                return Ok(());
            }
        }
    }
}

/// How one step of the keyword table compiles (`keywords::CompileStep`): it reads its keywords
/// from the schema object, each only where the node's draft reads it, and pushes their `Kw`s.
pub(crate) type CompileFn = for<'s, 'o> fn(&mut Compiler<'s, 'o>, &'s Map<String, Value>, &Site<'s>, &mut Vec<Kw>) -> Result<(), CompileError>;

/// The member `k` of a schema object, where `draft` reads it. Out of line: every step reads
/// through it, and a copy of the table's lookup in each would grow the module.
#[inline(never)]
fn get<'s>(obj: &'s Map<String, Value>, draft: Draft, k: &str) -> Option<&'s Value> {
    obj.get(k).filter(|_| reads(draft, k))
}

fn number_of(obj: &Map<String, Value>, draft: Draft, k: &str) -> Option<Number> {
    match get(obj, draft, k) {
        Some(Value::Number(n)) => Some(n.clone()),
        _ => None,
    }
}

fn count_of(obj: &Map<String, Value>, draft: Draft, k: &str) -> Option<u64> {
    get(obj, draft, k).and_then(count)
}

/// `$ref`, and where the draft has them `$dynamicRef` and `$recursiveRef`.
pub(crate) fn references<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    for keyword in ["$ref", "$dynamicRef", "$recursiveRef"] {
        let Some(Value::String(r)) = obj.get(keyword).filter(|_| keyword == "$ref" || site.draft.knows(keyword)) else { continue };
        let (target, anchor) = c.resolve(site, r, keyword)?;
        let target = c.node(&target)?;
        kws.push(match keyword {
            "$ref" => Kw::Ref(target),
            "$dynamicRef" => {
                if let Some(name) = &anchor {
                    c.dynamic_names.insert(name.clone());
                }
                Kw::DynamicRef { target, anchor }
            }
            _ => {
                c.recursive_refs = true;
                Kw::RecursiveRef(target)
            }
        });
    }
    Ok(())
}

pub(crate) fn type_<'s>(_: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    let list = match get(obj, site.draft, "type") {
        // A name the validator does not know alone constrains nothing.
        Some(one @ Value::String(t)) if type_bit(t).is_some() => std::slice::from_ref(one),
        Some(Value::Array(list)) => list.as_slice(),
        _ => return Ok(()),
    };
    // As written, once each.
    let (mut mask, mut names) = (0u8, Vec::new());
    for (bit, name) in list.iter().filter_map(Value::as_str).filter_map(type_bit) {
        if mask & bit == 0 {
            mask |= bit;
            names.push(name);
        }
    }
    kws.push(Kw::Type { mask, names });
    Ok(())
}

pub(crate) fn enum_<'s>(_: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(e) = get(obj, site.draft, "enum") {
        kws.push(Kw::Enum(e.clone()));
    }
    Ok(())
}

pub(crate) fn const_<'s>(_: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(v) = get(obj, site.draft, "const") {
        kws.push(Kw::Const(v.clone()));
    }
    Ok(())
}

/// `minimum`; in Draft 4 `exclusiveMinimum: true` beside it makes it exclusive.
pub(crate) fn minimum<'s>(_: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(n) = number_of(obj, site.draft, "minimum") {
        let flag = site.draft == Draft::Draft4 && get(obj, site.draft, "exclusiveMinimum") == Some(&Value::Bool(true));
        kws.push(if flag { Kw::ExclusiveMinimum(n) } else { Kw::Minimum(n) });
    }
    Ok(())
}

/// `maximum`; in Draft 4 `exclusiveMaximum: true` beside it makes it exclusive.
pub(crate) fn maximum<'s>(_: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(n) = number_of(obj, site.draft, "maximum") {
        let flag = site.draft == Draft::Draft4 && get(obj, site.draft, "exclusiveMaximum") == Some(&Value::Bool(true));
        kws.push(if flag { Kw::ExclusiveMaximum(n) } else { Kw::Maximum(n) });
    }
    Ok(())
}

/// `exclusiveMinimum` as a bound of its own (Draft 6 on; Draft 4's flag is read by `minimum`).
pub(crate) fn exclusive_minimum<'s>(_: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let (false, Some(n)) = (site.draft == Draft::Draft4, number_of(obj, site.draft, "exclusiveMinimum")) {
        kws.push(Kw::ExclusiveMinimum(n));
    }
    Ok(())
}

/// `exclusiveMaximum` as a bound of its own (Draft 6 on; Draft 4's flag is read by `maximum`).
pub(crate) fn exclusive_maximum<'s>(_: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let (false, Some(n)) = (site.draft == Draft::Draft4, number_of(obj, site.draft, "exclusiveMaximum")) {
        kws.push(Kw::ExclusiveMaximum(n));
    }
    Ok(())
}

pub(crate) fn pattern<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(Value::String(p)) = get(obj, site.draft, "pattern") {
        let index = c.pattern(site, p, &["pattern"])?;
        kws.push(Kw::Pattern(index, p.clone()));
    }
    Ok(())
}

/// `contentEncoding` and `contentMediaType`: assertions up to Draft 7, annotations after.
pub(crate) fn content<'s>(_: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    let draft = site.draft;
    if draft <= Draft::Draft7 {
        let encoding = get(obj, draft, "contentEncoding").and_then(Value::as_str);
        if let Some(e) = encoding.filter(|e| e.eq_ignore_ascii_case("base64")) {
            kws.push(Kw::ContentEncoding(e.to_string()));
        }
        if let Some(m) = get(obj, draft, "contentMediaType").and_then(Value::as_str).filter(|m| m.eq_ignore_ascii_case("application/json")) {
            kws.push(Kw::ContentMediaType(m.to_string(), encoding.is_some_and(|e| e.eq_ignore_ascii_case("base64"))));
        }
    }
    Ok(())
}

pub(crate) fn unique_items<'s>(_: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if get(obj, site.draft, "uniqueItems") == Some(&Value::Bool(true)) {
        kws.push(Kw::UniqueItems);
    }
    Ok(())
}

pub(crate) fn required<'s>(_: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(Value::Array(list)) = get(obj, site.draft, "required") {
        let names: Vec<String> = list.iter().filter_map(Value::as_str).map(str::to_string).collect();
        if !names.is_empty() {
            kws.push(Kw::Required(names));
        }
    }
    Ok(())
}

/// `dependentRequired`, and the members of `dependencies` that list names.
pub(crate) fn dependent_required<'s>(_: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    for key in ["dependentRequired", "dependencies"] {
        if let Some(Value::Object(deps)) = get(obj, site.draft, key) {
            let list: Vec<(String, Vec<String>)> = deps
                .iter()
                .filter_map(|(name, v)| v.as_array().map(|a| (name.clone(), a.iter().filter_map(Value::as_str).map(str::to_string).collect())))
                .collect();
            if !list.is_empty() {
                kws.push(Kw::DependentRequired(if key == "dependencies" { "dependencies" } else { "dependentRequired" }, list));
            }
        }
    }
    Ok(())
}

pub(crate) fn format_<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(Value::String(name)) = get(obj, site.draft, "format") {
        c.format(site, name, site.draft, kws)?;
    }
    Ok(())
}

pub(crate) fn not<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(not) = get(obj, site.draft, "not") {
        kws.push(Kw::Not(c.child(site, not, &["not"])?, not.clone()));
    }
    Ok(())
}

/// `anyOf`, with the branches a `discriminator` beside it selects.
pub(crate) fn any_of<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    disjunction(c, obj, site, kws, "anyOf", Kw::AnyOf)
}

/// `oneOf`, with the branches a `discriminator` beside it selects.
pub(crate) fn one_of<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    disjunction(c, obj, site, kws, "oneOf", Kw::OneOf)
}

fn disjunction<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>, name: &str, kw: fn(Vec<usize>) -> Kw) -> Result<(), CompileError> {
    if let Some(Value::Array(items)) = get(obj, site.draft, name) {
        let nodes = c.list(site, name, items)?;
        c.discriminator(obj, site, items, &nodes)?;
        kws.push(kw(nodes));
    }
    Ok(())
}

/// `if`, with the `then` and `else` beside it.
pub(crate) fn if_<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(cond) = get(obj, site.draft, "if") {
        let cond = c.child(site, cond, &["if"])?;
        let then = match obj.get("then") {
            Some(t) => Some(c.child(site, t, &["then"])?),
            None => None,
        };
        let otherwise = match obj.get("else") {
            Some(e) => Some(c.child(site, e, &["else"])?),
            None => None,
        };
        kws.push(Kw::If { cond, then, otherwise });
    }
    Ok(())
}

/// `prefixItems` and `items`, or before 2020-12 `items` (one schema, or an array of them) and
/// `additionalItems`: one `Kw::Items`.
pub(crate) fn items<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    let draft = site.draft;
    let items = get(obj, draft, "items");
    let (prefix_value, rest_value, prefix_keyword, rest_keyword) = if draft.knows("prefixItems") {
        (get(obj, draft, "prefixItems"), items, "prefixItems", "items")
    } else {
        match items {
            Some(Value::Array(_)) => (items, get(obj, draft, "additionalItems"), "items", "additionalItems"),
            other => (None, other, "items", "items"),
        }
    };
    if prefix_value.is_some() || rest_value.is_some() {
        let mut prefix = Vec::new();
        if let Some(Value::Array(list)) = prefix_value {
            for (i, item) in list.iter().enumerate() {
                prefix.push(c.child(site, item, &[prefix_keyword, &i.to_string()])?);
            }
        }
        let rest = match rest_value {
            Some(v) => Some(c.child(site, v, &[rest_keyword])?),
            None => None,
        };
        kws.push(Kw::Items { prefix, prefix_keyword, rest, rest_keyword });
    }
    Ok(())
}

/// `contains`, with `minContains` and `maxContains` where the draft has them.
pub(crate) fn contains<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(contains) = get(obj, site.draft, "contains") {
        let node = c.child(site, contains, &["contains"])?;
        let later = site.draft.knows("minContains");
        let min_written = later && obj.get("minContains").and_then(count).is_some();
        let min = if later { obj.get("minContains").and_then(count).unwrap_or(1) } else { 1 };
        let max = if later { obj.get("maxContains").and_then(count) } else { None };
        kws.push(Kw::Contains { node, min, max, min_written });
    }
    Ok(())
}

pub(crate) fn properties<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(Value::Object(props)) = get(obj, site.draft, "properties") {
        let mut list = Vec::with_capacity(props.len());
        for (name, sub) in props {
            list.push((name.clone(), c.child(site, sub, &["properties", name])?));
        }
        crate::sort::sort_by(&mut list, |a, b| a.0.cmp(&b.0));
        kws.push(Kw::Properties(list));
    }
    Ok(())
}

pub(crate) fn pattern_properties<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(Value::Object(props)) = get(obj, site.draft, "patternProperties") {
        let mut list = Vec::with_capacity(props.len());
        for (source, sub) in props {
            let p = c.pattern(site, source, &["patternProperties", source])?;
            list.push((p, source.clone(), c.child(site, sub, &["patternProperties", source])?));
        }
        kws.push(Kw::PatternProperties(list));
    }
    Ok(())
}

/// `additionalProperties`, with the names and patterns of the `properties` and
/// `patternProperties` compiled before it (the members it does not apply to).
pub(crate) fn additional_properties<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    if let Some(additional) = get(obj, site.draft, "additionalProperties") {
        let node = c.child(site, additional, &["additionalProperties"])?;
        let mut names = Vec::new();
        let mut patterns = Vec::new();
        for kw in kws.iter() {
            match kw {
                Kw::Properties(list) => names.extend(list.iter().map(|(name, _)| name.clone())),
                Kw::PatternProperties(list) => patterns.extend(list.iter().map(|(p, _, _)| *p)),
                _ => {}
            }
        }
        kws.push(Kw::AdditionalProperties { node, names, patterns });
    }
    Ok(())
}

/// `dependentSchemas`, and the members of `dependencies` that are subschemas.
pub(crate) fn dependent_schemas<'s>(c: &mut Compiler<'s, '_>, obj: &'s Map<String, Value>, site: &Site<'s>, kws: &mut Vec<Kw>) -> Result<(), CompileError> {
    for key in ["dependentSchemas", "dependencies"] {
        if let Some(Value::Object(deps)) = get(obj, site.draft, key) {
            let keyword: &'static str = if key == "dependencies" { "dependencies" } else { "dependentSchemas" };
            let mut schemas = Vec::new();
            for (name, sub) in deps {
                if !sub.is_array() {
                    schemas.push((name.clone(), c.child(site, sub, &[key, name])?));
                }
            }
            if !schemas.is_empty() {
                kws.push(Kw::DependentSchemas(keyword, schemas));
            }
        }
    }
    Ok(())
}

/// The meta-schema documents of the draft whose URI is `uri` (for 2019-09 and 2020-12, with
/// their vocabulary documents), so that a schema may `$ref` its draft's meta-schema.
fn meta_documents(uri: &str) -> Vec<(&'static str, &'static Value)> {
    if !super::metaschemas::uris().any(|u| u == uri) {
        return Vec::new();
    }
    let family = ["/draft/2019-09/", "/draft/2020-12/"].into_iter().find(|f| uri.contains(f));
    super::metaschemas::uris()
        .filter(|u| match family {
            Some(family) => u.contains(family),
            None => *u == uri,
        })
        .filter_map(|u| Some((u, super::metaschemas::document(u)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_long_chain_of_references_compiles_and_is_cut_when_evaluated() {
        // Thousands of `$ref`s, each to the next: compiled by the worklist, not by recursion;
        // evaluated up to MAX_DEPTH, then reported rather than overflowing the stack.
        let n = 5000;
        let mut defs = serde_json::Map::new();
        for i in 0..n {
            defs.insert(format!("a{i}"), json!({"$ref": format!("#/$defs/a{}", i + 1)}));
        }
        defs.insert(format!("a{n}"), json!({"type": "string"}));
        let schema = json!({"$defs": defs, "$ref": "#/$defs/a0"});
        let none = std::collections::BTreeMap::new();
        let options = Options { draft: Draft::Draft202012, formats: false, refuse_unknown_formats: false, resources: &none, custom_formats: &std::collections::BTreeMap::new() };
        let v = Validator::new(&schema, &options).unwrap();
        // 512 nested evaluations need more than a test thread's 2 MB in a debug build, whose
        // frames are several times a release build's (the wasm is built for release).
        let recursion = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                let value = json!("x");
                let errors = v.errors(&value);
                matches!(errors.as_slice(), [e] if matches!(e.kind, super::super::ErrorKind::Recursion))
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(recursion);
    }
}
