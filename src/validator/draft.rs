//! JSON Schema drafts: how they are named, detected from `$schema`, and which keywords each knows.

use super::keywords::Step;
use std::fmt;

/// A JSON Schema draft the library compiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Draft {
    Draft4,
    Draft6,
    Draft7,
    Draft201909,
    Draft202012,
    /// JSON Type Definition (RFC 8927): not a JSON Schema draft, a schema language of its own
    /// that compiles into the same nodes.
    Jtd,
}

/// Draft-7 is the default when a schema has no `$schema` (ADR-016: output schemas are Draft-7).
pub const DEFAULT_DRAFT: Draft = Draft::Draft7;

pub const ALL_DRAFTS: [Draft; 5] = [
    Draft::Draft4,
    Draft::Draft6,
    Draft::Draft7,
    Draft::Draft201909,
    Draft::Draft202012,
];

impl Draft {
    /// The option name used by the JS API and the CLI (`"draft7"`, `"draft2020-12"`).
    pub fn name(self) -> &'static str {
        match self {
            Draft::Draft4 => "draft4",
            Draft::Draft6 => "draft6",
            Draft::Draft7 => "draft7",
            Draft::Draft201909 => "draft2019-09",
            Draft::Draft202012 => "draft2020-12",
            Draft::Jtd => "jtd",
        }
    }

    /// How people write it in prose ("Draft 2020-12").
    pub fn title(self) -> &'static str {
        match self {
            Draft::Draft4 => "Draft 4",
            Draft::Draft6 => "Draft 6",
            Draft::Draft7 => "Draft 7",
            Draft::Draft201909 => "Draft 2019-09",
            Draft::Draft202012 => "Draft 2020-12",
            Draft::Jtd => "JSON Type Definition",
        }
    }

    /// The canonical `$schema` URI of the draft's meta-schema.
    pub fn meta_schema_uri(self) -> &'static str {
        match self {
            Draft::Draft4 => "http://json-schema.org/draft-04/schema#",
            Draft::Draft6 => "http://json-schema.org/draft-06/schema#",
            Draft::Draft7 => "http://json-schema.org/draft-07/schema#",
            Draft::Draft201909 => "https://json-schema.org/draft/2019-09/schema",
            Draft::Draft202012 => "https://json-schema.org/draft/2020-12/schema",
            // JTD has no meta-schema URI: its schemas never carry `$schema`.
            Draft::Jtd => "",
        }
    }

    /// Parses an option name; the `draft-07` / `2020-12` spellings people also use are accepted.
    pub fn from_name(name: &str) -> Option<Draft> {
        let n = name.trim().to_ascii_lowercase().replace(['-', '_', ' '], "");
        match n.as_str() {
            "draft4" | "draft04" | "4" => Some(Draft::Draft4),
            "draft6" | "draft06" | "6" => Some(Draft::Draft6),
            "draft7" | "draft07" | "7" => Some(Draft::Draft7),
            "draft201909" | "201909" => Some(Draft::Draft201909),
            "draft202012" | "202012" => Some(Draft::Draft202012),
            "jtd" | "rfc8927" | "jsontypedef" => Some(Draft::Jtd),
            _ => None,
        }
    }

    /// The draft a `$schema` URI names; `None` for a URI that is not one of the five meta-schemas.
    /// Scheme (`http`/`https`), a trailing `#` and a trailing `/` are not significant.
    pub fn from_meta_schema_uri(uri: &str) -> Option<Draft> {
        match bare_uri(uri) {
            "json-schema.org/draft-04/schema" => Some(Draft::Draft4),
            "json-schema.org/draft-06/schema" => Some(Draft::Draft6),
            "json-schema.org/draft-07/schema" => Some(Draft::Draft7),
            "json-schema.org/draft/2019-09/schema" => Some(Draft::Draft201909),
            "json-schema.org/draft/2020-12/schema" => Some(Draft::Draft202012),
            _ => None,
        }
    }

    /// The draft a `$schema` names, by its meta-schema's URI or by a dialect's URI that stands
    /// for it (see [`Dialect`]).
    pub fn from_schema_uri(uri: &str) -> Option<Draft> {
        Draft::from_meta_schema_uri(uri).or_else(|| Dialect::from_uri(uri).map(|_| Draft::Draft202012))
    }

    /// The keyword that holds a schema's own identifier in this draft.
    pub fn id_keyword(self) -> &'static str {
        match self {
            Draft::Draft4 => "id",
            _ => "$id",
        }
    }

    /// Whether `keyword` means something in this draft (validation, applicator, core or
    /// annotation keyword). `x-` extensions are not keywords; callers allow them separately.
    pub fn knows(self, keyword: &str) -> bool {
        super::keywords::knows(self, keyword)
    }

    /// Whether a `$ref` stands for its whole schema object, every keyword beside it ignored
    /// (before 2019-09).
    pub fn ref_hides_siblings(self) -> bool {
        self <= Draft::Draft7
    }
}

/// A `$schema` URI that is not a draft's meta-schema but names a dialect of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `http://json-schema.org/schema#`: the "latest draft" alias, read as Draft 2020-12 (the
    /// newest draft the library knows; it is what validators that honour the alias resolve it to).
    Latest,
    /// OpenAPI 3.1's dialect (`https://spec.openapis.org/oas/3.1/dialect/base`, also with a
    /// date such as `/dialect/2024-10-25`) and its schema object's meta-schema
    /// (`…/oas/3.1/schema-base`, `…/oas/3.1/schema/2022-10-07`): Draft 2020-12 with OpenAPI's
    /// annotation keywords (`discriminator`, `xml`, `externalDocs`, `example`).
    OpenApi31,
}

/// The keywords OpenAPI 3.1's vocabulary adds to Draft 2020-12: annotations, never assertions.
pub const OPENAPI_KEYWORDS: &[&str] = &["discriminator", "xml", "externalDocs", "example"];

impl Dialect {
    /// The dialect a `$schema` URI names; scheme, a trailing `#` and `/` are not significant.
    pub fn from_uri(uri: &str) -> Option<Dialect> {
        let u = bare_uri(uri);
        if u == "json-schema.org/schema" {
            return Some(Dialect::Latest);
        }
        let rest = u.strip_prefix("spec.openapis.org/oas/3.1/")?;
        let dated = |s: &str| s.len() == 10 && s.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() });
        // `bare_uri` left no trailing `/`: an empty tail is a name without one.
        let (name, tail) = rest.split_once('/').unwrap_or((rest, ""));
        let known = match name {
            "dialect" => tail == "base" || dated(tail),
            "schema-base" | "schema" => tail.is_empty() || dated(tail),
            _ => false,
        };
        known.then_some(Dialect::OpenApi31)
    }

    /// How people write it in prose.
    pub fn title(self) -> &'static str {
        match self {
            Dialect::Latest => "the latest-draft alias",
            Dialect::OpenApi31 => "the OpenAPI 3.1 dialect",
        }
    }
}

/// Whether a `$schema` URI names Draft 3, which the library does not compile.
pub fn is_draft3_uri(uri: &str) -> bool {
    bare_uri(uri) == "json-schema.org/draft-03/schema"
}

/// A `$schema` URI without what does not tell meta-schemas apart: the scheme (`http`/`https`),
/// a trailing `#` and a trailing `/`.
fn bare_uri(uri: &str) -> &str {
    let u = uri.trim().trim_end_matches('#').trim_end_matches('/');
    u.strip_prefix("https://").or_else(|| u.strip_prefix("http://")).unwrap_or(u)
}

/// Keywords that exist in Draft 2020-12 but not in Draft 7: a schema using them is written for
/// the later drafts. `$defs` is apart: it holds reference targets in every draft (see
/// [`infer`]).
const LATER_ONLY: &[&str] = &[
    "prefixItems", "unevaluatedItems", "unevaluatedProperties", "dependentRequired", "dependentSchemas",
    "$anchor", "$dynamicRef", "$dynamicAnchor", "minContains", "maxContains", "contentSchema",
];

/// Keywords that Draft 2020-12 dropped: a schema using them is written for an earlier draft
/// (`items` counts when it is an array, the tuple form 2020-12 spells `prefixItems`).
const EARLIER_ONLY: &[&str] = &["dependencies", "additionalItems", "$recursiveRef", "$recursiveAnchor"];

/// A keyword found by [`infer`], with the JSON Pointer of the schema object it is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub keyword: &'static str,
    pub pointer: String,
}

/// What the keywords of a schema without `$schema` say about its draft.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inferred {
    /// Nothing marks a draft: the default applies.
    Nothing,
    /// Only keywords of Draft 2019-09/2020-12 (or `$defs` without any earlier-only keyword).
    Later(Found),
    /// Only keywords that Draft 2020-12 dropped.
    Earlier(Found),
    /// Both: a schema no one draft reads whole.
    Mixed { later: Found, earlier: Found },
}

/// Reads the draft a schema without `$schema` is written for from the keywords it uses: the
/// first later-only and the first earlier-only keyword in document order. Subschemas that
/// declare their own `$schema` are their own dialect and are not read.
pub fn infer(schema: &serde_json::Value) -> Inferred {
    // Each subschema's step from its parent (the keyword and the token below it), so a pointer
    // is written only for the keywords found, not for every subschema walked.
    let mut steps: Vec<(usize, &str, Step<'_>)> = Vec::new();
    // The first keyword of each kind, with the subschema it is in (an index into `steps`).
    let (mut later, mut defs, mut earlier): (Option<Seen>, Option<Seen>, Option<Seen>) = (None, None, None);
    let mut todo = vec![(usize::MAX, schema, 0usize)];
    // The subschemas of the object being read, gathered first so that one loop records them.
    let mut below = Vec::new();
    while let Some((at, value, depth)) = todo.pop() {
        let Some(obj) = value.as_object() else { continue };
        if depth > super::keywords::MAX_WALK_DEPTH || (depth > 0 && obj.contains_key("$schema")) {
            continue;
        }
        later = later.or_else(|| first_of(obj, LATER_ONLY, at));
        defs = defs.or_else(|| first_of(obj, &["$defs"], at));
        earlier = earlier.or_else(|| first_of(obj, EARLIER_ONLY, at)).or_else(|| obj.get("items").filter(|i| i.is_array()).map(|_| ("items", at)));
        super::keywords::subschemas(obj, |_| true, |key, sub, step| below.push((key, sub, step)));
        // Pushed last first, so the first subschema is read first (document order).
        while let Some((key, sub, step)) = below.pop() {
            steps.push((at, key, step));
            todo.push((steps.len() - 1, sub, depth + 1));
        }
    }
    let found = |(keyword, at): Seen| Found { keyword, pointer: pointer_of(&steps, at) };
    match (later.map(found), defs, earlier.map(found)) {
        (Some(later), _, Some(earlier)) => Inferred::Mixed { later, earlier },
        (Some(later), _, None) => Inferred::Later(later),
        (None, Some(defs), None) => Inferred::Later(found(defs)),
        (None, _, Some(earlier)) => Inferred::Earlier(earlier),
        (None, None, None) => Inferred::Nothing,
    }
}

/// A keyword found by `infer`, and the subschema it is in (an index into its steps).
type Seen = (&'static str, usize);

/// The first keyword of `list` that `obj` has, found in subschema `at`.
#[inline(never)]
fn first_of(obj: &serde_json::Map<String, serde_json::Value>, list: &[&'static str], at: usize) -> Option<Seen> {
    list.iter().find(|k| obj.contains_key(**k)).map(|k| (*k, at))
}

/// The JSON Pointer of subschema `at` from the steps that lead to it.
fn pointer_of(steps: &[(usize, &str, Step<'_>)], mut at: usize) -> String {
    let mut tokens: Vec<String> = Vec::new();
    while let Some((up, key, step)) = steps.get(at) {
        tokens.extend(step.token());
        tokens.push(key.to_string());
        at = *up;
    }
    let mut out = String::new();
    for t in tokens.iter().rev() {
        out.push('/');
        out.push_str(&crate::json::path::escape_pointer_token(t));
    }
    out
}

impl fmt::Display for Draft {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every keyword the draft knows (the keyword table's rows for it, or JTD's keywords).
pub fn keywords(draft: Draft) -> KeywordSet {
    KeywordSet { draft }
}

/// The keywords of one draft, in the keyword table's order.
#[derive(Clone, Copy)]
pub struct KeywordSet {
    draft: Draft,
}

impl KeywordSet {
    pub fn contains(&self, keyword: &&str) -> bool {
        super::keywords::knows(self.draft, keyword)
    }

    pub fn iter(&self) -> impl Iterator<Item = &'static str> + '_ {
        let draft = self.draft;
        let jtd: &'static [&'static str] = if draft == Draft::Jtd { super::keywords::JTD_KEYWORDS } else { &[] };
        super::keywords::KEYWORDS.iter().filter(move |k| k.in_draft(draft)).map(|k| k.name).chain(jtd.iter().copied())
    }
}

/// The drafts other than `draft` that know `keyword`, newest first, so a message can say where
/// the keyword comes from.
pub fn drafts_knowing(keyword: &str, except: Draft) -> Vec<Draft> {
    ALL_DRAFTS
        .iter()
        .rev()
        .copied()
        .filter(|d| *d != except && d.knows(keyword))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_meta_schema_uris_loosely() {
        assert_eq!(Draft::from_meta_schema_uri("http://json-schema.org/draft-07/schema#"), Some(Draft::Draft7));
        assert_eq!(Draft::from_meta_schema_uri("https://json-schema.org/draft-07/schema"), Some(Draft::Draft7));
        assert_eq!(Draft::from_meta_schema_uri("https://json-schema.org/draft/2020-12/schema"), Some(Draft::Draft202012));
        assert_eq!(Draft::from_meta_schema_uri("https://example.com/meta"), None);
        for d in ALL_DRAFTS {
            assert_eq!(Draft::from_meta_schema_uri(d.meta_schema_uri()), Some(d));
            assert_eq!(Draft::from_name(d.name()), Some(d));
        }
    }

    #[test]
    fn dialects_by_their_uris() {
        assert_eq!(Dialect::from_uri("http://json-schema.org/schema#"), Some(Dialect::Latest));
        assert_eq!(Dialect::from_uri("https://json-schema.org/schema"), Some(Dialect::Latest));
        for uri in [
            "https://spec.openapis.org/oas/3.1/dialect/base",
            "https://spec.openapis.org/oas/3.1/dialect/2024-11-10",
            "https://spec.openapis.org/oas/3.1/schema-base",
            "https://spec.openapis.org/oas/3.1/schema-base/2025-09-15",
            "https://spec.openapis.org/oas/3.1/schema/2022-10-07",
        ] {
            assert_eq!(Dialect::from_uri(uri), Some(Dialect::OpenApi31), "{uri}");
            assert_eq!(Draft::from_schema_uri(uri), Some(Draft::Draft202012), "{uri}");
        }
        for uri in ["https://spec.openapis.org/oas/3.0/schema/2021-09-28", "https://spec.openapis.org/oas/3.1/dialect/2024", "https://example.com/schema", "http://json-schema.org/draft-03/schema#"] {
            assert_eq!(Draft::from_schema_uri(uri), None, "{uri}");
        }
        assert!(is_draft3_uri("http://json-schema.org/draft-03/schema#") && !is_draft3_uri("http://json-schema.org/draft-04/schema#"));
    }

    #[test]
    fn infers_from_the_first_keyword_of_each_era() {
        use serde_json::json;
        let found = |keyword, pointer: &str| Found { keyword, pointer: pointer.to_string() };
        assert_eq!(infer(&json!({"type": "object"})), Inferred::Nothing);
        assert_eq!(infer(&json!({"properties": {"a~b": {"items": [{}]}}})), Inferred::Earlier(found("items", "/properties/a~0b")));
        assert_eq!(infer(&json!({"properties": {"a": {"$defs": {}}}, "allOf": [{"unevaluatedProperties": false}]})), Inferred::Later(found("unevaluatedProperties", "/allOf/0")));
        assert_eq!(
            infer(&json!({"$defs": {"x": {"prefixItems": [{}]}}, "dependencies": {}})),
            Inferred::Mixed { later: found("prefixItems", "/$defs/x"), earlier: found("dependencies", "") }
        );
        // Under `enum`, `const` or `default` nothing is a schema.
        assert_eq!(infer(&json!({"enum": [{"prefixItems": []}], "default": {"$defs": {}}})), Inferred::Nothing);
    }

    #[test]
    fn keywords_belong_to_their_drafts() {
        assert!(!Draft::Draft7.knows("prefixItems"));
        assert!(Draft::Draft202012.knows("prefixItems"));
        assert!(!Draft::Draft202012.knows("dependencies"));
        assert_eq!(drafts_knowing("prefixItems", Draft::Draft7), vec![Draft::Draft202012]);
        assert_eq!(drafts_knowing("dependencies", Draft::Draft202012), vec![Draft::Draft7, Draft::Draft6, Draft::Draft4]);
    }

    /// The keyword lists as they were written by hand before the keyword table: each draft's
    /// keywords, in the order suggestions search them, are still these.
    #[test]
    fn the_table_lists_each_drafts_keywords_in_order() {
        const COMMON: &[&str] = &[
            "$schema", "$ref", "title", "description", "default", "multipleOf", "maximum",
            "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
            "items", "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties",
            "required", "additionalProperties", "definitions", "$defs", "properties", "patternProperties",
            "enum", "type", "allOf", "anyOf", "oneOf", "not", "format",
        ];
        const DRAFT4: &[&str] = &["id", "additionalItems", "dependencies"];
        const DRAFT6: &[&str] = &["$id", "additionalItems", "dependencies", "const", "contains", "propertyNames", "examples"];
        const DRAFT7: &[&str] = &[
            "$id", "additionalItems", "dependencies", "const", "contains", "propertyNames", "examples",
            "$comment", "if", "then", "else", "readOnly", "writeOnly", "contentMediaType", "contentEncoding",
        ];
        const DRAFT201909: &[&str] = &[
            "$id", "additionalItems", "const", "contains", "propertyNames", "examples", "$comment", "if",
            "then", "else", "readOnly", "writeOnly", "contentMediaType", "contentEncoding",
            "contentSchema", "$anchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary",
            "dependentSchemas", "dependentRequired", "unevaluatedItems", "unevaluatedProperties",
            "maxContains", "minContains", "deprecated",
        ];
        const DRAFT202012: &[&str] = &[
            "$id", "const", "contains", "propertyNames", "examples", "$comment", "if", "then", "else",
            "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "contentSchema", "$anchor",
            "$dynamicRef", "$dynamicAnchor", "$vocabulary", "dependentSchemas",
            "dependentRequired", "unevaluatedItems", "unevaluatedProperties", "maxContains",
            "minContains", "deprecated", "prefixItems",
        ];
        
        /// The keywords of a JTD schema (RFC 8927 section 2); none of `COMMON` applies, see `knows`.
        const JTD: &[&str] = &[
            "metadata", "nullable", "definitions", "ref", "type", "enum", "elements", "properties",
            "optionalProperties", "additionalProperties", "values", "discriminator", "mapping",
        ];
        let own = |d: Draft| match d {
            Draft::Draft4 => DRAFT4,
            Draft::Draft6 => DRAFT6,
            Draft::Draft7 => DRAFT7,
            Draft::Draft201909 => DRAFT201909,
            Draft::Draft202012 => DRAFT202012,
            Draft::Jtd => JTD,
        };
        for d in ALL_DRAFTS {
            let expected: Vec<&str> = COMMON.iter().chain(own(d)).copied().collect();
            assert_eq!(keywords(d).iter().collect::<Vec<_>>(), expected, "{d}");
        }
        assert_eq!(keywords(Draft::Jtd).iter().collect::<Vec<_>>(), JTD.to_vec());
        assert!(Draft::Jtd.knows("mapping") && !Draft::Jtd.knows("$ref"));
    }
}
