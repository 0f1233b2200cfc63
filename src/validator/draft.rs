//! JSON Schema drafts: how they are named, detected from `$schema`, and which keywords each knows.

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
        let u = uri.trim().trim_end_matches('#').trim_end_matches('/');
        let u = u
            .strip_prefix("https://")
            .or_else(|| u.strip_prefix("http://"))
            .unwrap_or(u);
        match u {
            "json-schema.org/draft-04/schema" => Some(Draft::Draft4),
            "json-schema.org/draft-06/schema" => Some(Draft::Draft6),
            "json-schema.org/draft-07/schema" => Some(Draft::Draft7),
            "json-schema.org/draft/2019-09/schema" => Some(Draft::Draft201909),
            "json-schema.org/draft/2020-12/schema" => Some(Draft::Draft202012),
            _ => None,
        }
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
            "required", "additionalProperties", "definitions", "properties", "patternProperties",
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
            "contentSchema", "$anchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$defs",
            "dependentSchemas", "dependentRequired", "unevaluatedItems", "unevaluatedProperties",
            "maxContains", "minContains", "deprecated",
        ];
        const DRAFT202012: &[&str] = &[
            "$id", "const", "contains", "propertyNames", "examples", "$comment", "if", "then", "else",
            "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "contentSchema", "$anchor",
            "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$defs", "dependentSchemas",
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
