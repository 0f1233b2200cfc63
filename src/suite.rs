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
