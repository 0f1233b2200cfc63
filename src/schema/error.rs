//! Why a schema does not compile: typed data (a kind, a JSON Pointer into the schema, the facts),
//! with the message rendered from them.

use serde::Serialize;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SchemaErrorKind {
    /// The schema text is not JSON.
    InvalidJson,
    /// The schema is JSON but breaks its draft's meta-schema.
    MetaSchema,
    /// Strict mode: a keyword the draft does not know (it would never be checked).
    UnknownKeyword,
    /// Strict mode: a validation or applicator keyword beside `$ref` in Drafts 4, 6 and 7, where a
    /// `$ref` stands for its whole schema object, so the keyword would never be checked.
    RefSibling,
    /// `$schema` names a meta-schema that is none of the supported drafts.
    UnknownDraft,
    /// A `$ref` that neither the schema nor `resources` provides (nothing is fetched).
    UnresolvableRef,
    /// A `pattern` / `patternProperties` regular expression that does not compile.
    InvalidRegex,
    /// Strict mode: a `format` the library does not know (it would never be asserted).
    UnknownFormat,
    /// The schema is larger or deeper than the configured limits.
    LimitExceeded,
    /// An option has a value the library cannot use.
    InvalidOption,
    /// Anything else the validator builder refused.
    Compile,
}

impl SchemaErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SchemaErrorKind::InvalidJson => "invalid_json",
            SchemaErrorKind::MetaSchema => "meta_schema",
            SchemaErrorKind::UnknownKeyword => "unknown_keyword",
            SchemaErrorKind::RefSibling => "ref_sibling",
            SchemaErrorKind::UnknownDraft => "unknown_draft",
            SchemaErrorKind::UnresolvableRef => "unresolvable_ref",
            SchemaErrorKind::InvalidRegex => "invalid_regex",
            SchemaErrorKind::UnknownFormat => "unknown_format",
            SchemaErrorKind::LimitExceeded => "limit_exceeded",
            SchemaErrorKind::InvalidOption => "invalid_option",
            SchemaErrorKind::Compile => "compile",
        }
    }
}

/// One problem found in a schema.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SchemaIssue {
    pub kind: SchemaErrorKind,
    /// JSON Pointer to the offending node of the schema (`""` for the root).
    pub pointer: String,
    pub message: String,
    /// The keyword concerned, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// For an unknown keyword that looks like a misspelling: the keyword probably meant
    /// (`required` for `requried`), so an editor can offer the rename.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// For invalid JSON: 1-based line and column of the error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// For an unresolvable reference: the URI that could not be resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
}

impl SchemaIssue {
    pub fn new(kind: SchemaErrorKind, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        SchemaIssue {
            kind,
            pointer: pointer.into(),
            message: message.into(),
            keyword: None,
            suggestion: None,
            line: None,
            column: None,
            uri: None,
        }
    }

    pub fn with_keyword(mut self, keyword: impl Into<String>) -> Self {
        self.keyword = Some(keyword.into());
        self
    }

    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestion = Some(suggestion.into());
        self
    }

    pub fn with_uri(mut self, uri: impl Into<String>) -> Self {
        self.uri = Some(uri.into());
        self
    }

    pub fn at_line_column(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }
}

/// A schema that cannot become a contract. `kind` is the kind of the first issue; `issues` holds
/// every problem found (all meta-schema violations, all unknown keywords), in schema order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SchemaError {
    pub kind: SchemaErrorKind,
    pub message: String,
    pub issues: Vec<SchemaIssue>,
}

impl SchemaError {
    pub fn from_issues(issues: Vec<SchemaIssue>) -> Self {
        let kind = issues.first().map_or(SchemaErrorKind::Compile, |i| i.kind);
        let message = match issues.as_slice() {
            [] => "invalid schema".to_string(),
            [one] => format!("invalid schema: {}", located(one)),
            [first, rest @ ..] => format!(
                "invalid schema: {} (and {} more issue{})",
                located(first),
                rest.len(),
                if rest.len() == 1 { "" } else { "s" }
            ),
        };
        SchemaError { kind, message, issues }
    }

    pub fn single(issue: SchemaIssue) -> Self {
        Self::from_issues(vec![issue])
    }
}

fn located(issue: &SchemaIssue) -> String {
    match (issue.line, issue.column) {
        (Some(l), Some(c)) => format!("{} (line {l}, column {c})", issue.message),
        _ if issue.pointer.is_empty() => issue.message.clone(),
        _ => format!("{} at {}", issue.message, issue.pointer),
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SchemaError {}
