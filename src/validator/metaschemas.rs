//! The drafts' meta-schema documents, and 2019-09's and 2020-12's vocabulary documents: what a
//! schema's meta-schema check validates against, and what a `$ref` to a draft's meta-schema
//! reaches. build.rs writes them out as text; each is parsed on first use.

use serde_json::Value;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/metaschemas.rs"));

static PARSED: [OnceLock<Value>; DOCUMENTS.len()] = [const { OnceLock::new() }; DOCUMENTS.len()];

/// Every document's URI (without a fragment), each draft's vocabularies after its schema.
pub(crate) fn uris() -> impl Iterator<Item = &'static str> {
    DOCUMENTS.iter().map(|(uri, _)| *uri)
}

/// The document whose URI is `uri` (without a fragment).
pub(crate) fn document(uri: &str) -> Option<&'static Value> {
    let at = DOCUMENTS.iter().position(|(u, _)| *u == uri)?;
    let (_, text) = DOCUMENTS.get(at)?;
    // build.rs wrote the text from a parsed document: it always reads back.
    Some(PARSED.get(at)?.get_or_init(|| serde_json::from_str(text).unwrap_or_default()))
}
