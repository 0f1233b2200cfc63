//! The suite's required tests the library is known to fail, each with its reason
//! (tests/spec-known-failures.json), settled against what a run found.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

pub struct Known {
    /// `draft7/ref.json::case description::test description` → reason.
    listed: BTreeMap<String, String>,
    seen: BTreeSet<String>,
    unexpected: Vec<String>,
}

impl Known {
    pub fn load() -> Known {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spec-known-failures.json")).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        let listed = doc["failures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["id"].as_str().unwrap().to_string(), f["reason"].as_str().unwrap().to_string()))
            .collect();
        Known { listed, seen: BTreeSet::new(), unexpected: Vec::new() }
    }

    /// A test failed: true when the list has it.
    pub fn settle(&mut self, id: &str) -> bool {
        let listed = self.listed.contains_key(id);
        if listed {
            self.seen.insert(id.to_string());
        }
        listed
    }

    /// A required test failed that the list does not have.
    pub fn unexpected(&mut self, what: String) {
        self.unexpected.push(what);
    }

    /// Fails on a listed failure that no longer occurs, and on unlisted required failures.
    pub fn assert_settled(&self) {
        let stale: Vec<&String> = self.listed.keys().filter(|k| !self.seen.contains(*k)).collect();
        assert!(stale.is_empty(), "known failures that now pass (remove them from the list): {stale:#?}");
        assert!(self.unexpected.is_empty(), "{} required spec tests failed:\n{}", self.unexpected.len(), self.unexpected.join("\n"));
    }
}
