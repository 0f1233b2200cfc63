//! The schema registry on fixture folders: the example schemas and a good folder check clean
//! (with `$ref`s across schemas, absolute and relative); a broken folder reports each problem
//! in its file, at its range.

use output_contract::schema::registry::{Diagnostic, Registry};
use output_contract::Options;
use std::path::Path;

fn load(dir: &str) -> Registry {
    let mut registry = Registry::new(Options::default());
    let added = registry.add_dir(Path::new(dir)).unwrap();
    assert!(added > 0);
    registry
}

fn show(diags: &[Diagnostic]) -> String {
    diags.iter().map(|d| format!("{} {} {}: {}", d.path.as_deref().unwrap_or("-"), d.code, d.pointer, d.message)).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_example_schemas_check_clean() {
    let registry = load("examples/schemas");
    // ticket 1.0.0 → 1.1.0 narrows (a minor step); 1.1.0 → 2.0.0 widens (a major step).
    assert_eq!(show(&registry.check()), "");
    let versions: Vec<String> = registry.versions("ticket").into_iter().map(|v| v.version).collect();
    assert_eq!(versions, ["1.0.0", "1.1.0", "2.0.0"]);
    let contract = registry.contract("https://example.com/schemas/ticket/1.1.0").unwrap();
    assert!(contract.is_valid(&serde_json::json!({"title": "Printer on fire", "priority": "high", "reporter": {"name": "Ada"}})));
    assert!(!contract.is_valid(&serde_json::json!({"title": "Printer on fire", "priority": "high", "reporter": {"name": ""}})));
    assert!(registry.contract("https://example.com/schemas/ticket/9.0.0").is_err());
}

#[test]
fn a_good_folder_with_sub_folders_and_relative_references_checks_clean() {
    let registry = load("tests/fixtures/registry/good");
    assert_eq!(show(&registry.check()), "");
    let versions: Vec<String> = registry.versions("address").into_iter().map(|v| v.version).collect();
    assert_eq!(versions, ["1.0.0", "1.1.0", "1.1.1"]);
    let customer = registry.contract("https://example.com/schemas/customer.v1.0.0.schema.json").unwrap();
    assert!(!customer.is_valid(&serde_json::json!({"name": "Ada", "billing": {"city": ""}})));
}

#[test]
fn a_broken_folder_reports_each_problem_in_its_file() {
    let registry = load("tests/fixtures/registry/broken");
    let diags = registry.check();
    let has = |file: &str, code: &str| diags.iter().any(|d| d.path.as_deref().is_some_and(|p| p.ends_with(file)) && d.code == code);
    let all = show(&diags);
    assert!(has("no-version.schema.json", "id_without_version"), "{all}");
    assert!(has("wrong-name.v1.0.0.schema.json", "file_name_mismatch"), "{all}");
    // The second file read (in path order) is the duplicate.
    assert!(has("report.v1.0.0.schema.json", "duplicate_id"), "{all}");
    assert!(!has("report/1.0.0.schema.json", "duplicate_id"), "{all}");
    assert!(has("untitled.v1.0.0.schema.json", "missing_title"), "{all}");
    assert!(has("untitled.v1.0.0.schema.json", "missing_description"), "{all}");
    assert!(has("dangling.v1.0.0.schema.json", "unresolvable_ref"), "{all}");
    assert!(has("not-json.v1.0.0.schema.json", "invalid_json"), "{all}");
    // order 1.0.0 → 1.1.0 is a minor step that widens; 1.1.0 → 1.1.1 a patch step that narrows.
    assert!(has("order.v1.1.0.schema.json", "version_step"), "{all}");
    assert!(has("order.v1.1.1.schema.json", "version_step"), "{all}");
    assert!(!has("order.v1.0.0.schema.json", "version_step"), "{all}");

    // Ranges point into the file: the unresolvable `$ref` is on line 7 of its file.
    let dangling = diags.iter().find(|d| d.code == "unresolvable_ref").unwrap();
    assert_eq!(dangling.pointer, "/properties/owner/$ref");
    assert_eq!(dangling.range.unwrap().start.line, 7);
    let step = diags.iter().find(|d| d.code == "version_step" && d.path.as_deref().is_some_and(|p| p.ends_with("order.v1.1.0.schema.json"))).unwrap();
    assert_eq!(step.pointer, "/properties/status/enum");
    assert!(step.message.contains("minor step"), "{}", step.message);
    assert!(step.message.contains("\"cancelled\""), "{}", step.message);
    assert_eq!(step.range.unwrap().start.line, 7);
    let untitled = diags.iter().find(|d| d.code == "missing_title").unwrap();
    assert_eq!(untitled.range.unwrap().start.line, 1);
}

#[test]
fn schemas_added_as_text_resolve_each_other() {
    let mut registry = Registry::new(Options::default());
    let a = r#"{"$id": "https://x.test/a/1.0.0", "title": "A", "description": "a", "type": "object", "properties": {"b": {"$ref": "https://x.test/b/1.0.0"}}}"#;
    let b = r#"{"$id": "https://x.test/b/1.0.0", "title": "B", "description": "b", "type": "integer"}"#;
    assert_eq!(registry.add(a, None).as_deref(), Some("https://x.test/a/1.0.0"));
    registry.add(b, None);
    assert_eq!(show(&registry.check()), "");
    let contract = registry.contract("https://x.test/a/1.0.0").unwrap();
    assert!(!contract.is_valid(&serde_json::json!({"b": "no"})));
}

#[test]
fn jtd_schemas_are_known_by_metadata_id() {
    let mut registry = Registry::new(Options { draft: Some(output_contract::Draft::Jtd), ..Options::default() });
    assert_eq!(registry.add_dir(Path::new("tests/fixtures/registry/jtd")).unwrap(), 4);
    let versions: Vec<String> = registry.versions("event").into_iter().map(|v| v.version).collect();
    assert_eq!(versions, ["1.0.0", "1.1.0", "1.2.0"]);
    let diags = registry.check();
    let all = show(&diags);
    // 1.0.0 → 1.1.0 narrows (`at` required, a timestamp): a minor step allows it. 1.1.0 → 1.2.0
    // adds a level inside a definition: a minor step does not allow widening.
    let steps: Vec<&Diagnostic> = diags.iter().filter(|d| d.code == "version_step").collect();
    assert_eq!(steps.len(), 1, "{all}");
    assert!(steps[0].path.as_deref().unwrap().ends_with("event.v1.2.0.schema.json"), "{all}");
    assert_eq!(steps[0].pointer, "/definitions/level/enum");
    assert!(steps[0].message.contains("\"debug\""), "{}", steps[0].message);
    assert_eq!(steps[0].range.unwrap().start.line, 8);
    // The note schema has no metadata.title or description, and its file name is its name.
    assert!(diags.iter().any(|d| d.code == "missing_title" && d.message.contains("metadata.title")), "{all}");
    assert!(!diags.iter().any(|d| d.code == "file_name_mismatch" || d.code == "missing_id" || d.code == "invalid_schema"), "{all}");
    let event = registry.contract("https://example.com/schemas/event/1.1.0").unwrap();
    assert!(event.is_valid(&serde_json::json!({"name": "deploy", "level": "info", "at": "2024-01-01T00:00:00Z"})));
    assert!(!event.is_valid(&serde_json::json!({"name": "deploy", "level": "info", "at": "yesterday"})));

    // A JTD schema without metadata.id: the diagnostic names the place.
    let mut bare = Registry::new(Options { draft: Some(output_contract::Draft::Jtd), ..Options::default() });
    bare.add(r#"{"metadata": {"id": "https://x.test/a"}, "type": "string"}"#, None);
    bare.add(r#"{"type": "string"}"#, None);
    let diags = bare.check();
    let all = show(&diags);
    assert!(diags.iter().any(|d| d.code == "id_without_version" && d.pointer == "/metadata/id" && d.message.starts_with("metadata.id ")), "{all}");
    assert!(diags.iter().any(|d| d.code == "missing_id" && d.message.contains("metadata.id")), "{all}");
}
