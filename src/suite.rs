//! Test-only: the test groups of the official JSON-Schema-Test-Suite (every draft, optional
//! tests included), for unit tests that check a module against every schema or instance in it.

use serde_json::Value;

/// Every test group (`{description, schema, tests}`) of every suite file.
pub fn groups() -> Vec<Value> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/json-schema-test-suite/tests");
    assert!(root.exists(), "the JSON-Schema-Test-Suite is expected at {}", root.display());
    let mut groups = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for path in std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()) {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                groups.extend(file.as_array().into_iter().flatten().cloned());
            }
        }
    }
    groups
}

/// A suite instance as texts that a reader of JSON must tell apart: compact, indented, cut
/// short by a byte, and with a byte that breaks the syntax or the schema (`x`, `,`, a backslash,
/// a quote, `}`, `1`, `-`, a character of two bytes) inserted every `step` characters.
pub fn texts(data: &Value, step: usize) -> Vec<String> {
    let compact = serde_json::to_string(data).unwrap();
    let mut texts = vec![compact.clone(), serde_json::to_string_pretty(data).unwrap(), compact[..compact.len() - 1].to_string()];
    for (i, _) in compact.char_indices().step_by(step) {
        for insert in ["x", ",", "\\", "\"", "}", "1", "-", "é"] {
            texts.push(format!("{}{insert}{}", &compact[..i], &compact[i..]));
        }
    }
    texts
}
