//! The CLI's exit codes and outputs (0 valid, 1 invalid, 2 usage or unusable schema).

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

fn dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("output-contract-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn file(name: &str, text: &str) -> String {
    let p = dir().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_output-contract"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The command may exit before reading (usage errors): a closed pipe is expected then.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

const SCHEMA: &str = r#"{"$id": "https://example.com/pr-reviewer/1.0.0", "type": "object",
  "properties": {"approval": {"enum": ["approve", "comment"]}, "summary": {"type": "string"}}, "required": ["approval"]}"#;

#[test]
fn validate_exit_codes_and_canonical_error() {
    let schema = file("s.json", SCHEMA);
    let (code, out, _) = run(&["validate", "--schema", &schema, "-"], r#"{"approval": "approve"}"#);
    assert_eq!(code, 0);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), json!({"approval": "approve"}));

    let (code, out, _) = run(&["validate", "--schema", &schema, "--agent-id", "pr-reviewer"], r#"{"approval": "maybe"}"#);
    assert_eq!(code, 1);
    let e: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(e["error"], "output_validation_failed");
    assert_eq!(e["schema_id"], "https://example.com/pr-reviewer/1.0.0");
    assert_eq!(e["agent_id"], "pr-reviewer");
    assert_eq!(e["violations"][0]["message"], "'maybe' is not one of ['approve', 'comment']");

    // From a file, and with extraction from model text.
    let output = file("o.txt", "Here you go:\n```json\n{\"approval\": \"comment\"}\n```\n");
    assert_eq!(run(&["validate", "--schema", &schema, &output], "").0, 1, "not JSON without --extract");
    let (code, out, _) = run(&["validate", "--schema", &schema, "--extract", &output], "");
    assert_eq!(code, 0);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), json!({"approval": "comment"}));
}

#[test]
fn validate_streams_stdin() {
    let schema = file("s2.json", SCHEMA);
    // Larger than the output limit: refused by the stream, not buffered whole.
    let big = format!(r#"{{"approval": "approve", "summary": "{}"}}"#, "x".repeat(4 << 20));
    let (code, out, _) = run(&["validate", "--schema", &schema], &big);
    assert_eq!(code, 1);
    let e: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(e["violations"][0]["keyword"], "maxOutputBytes");
    assert_eq!(e["retryable"], false);
    assert!(e["raw_output"].as_str().unwrap().len() < 8192);
    let (code, out, _) = run(&["validate", "--schema", &schema], r#"{"approval": "#);
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["violations"][0]["keyword"], "truncated");
}

#[test]
fn usage_and_schema_errors_exit_2() {
    let broken = file("broken.json", r#"{"type": "strng"}"#);
    let (code, _, err) = run(&["validate", "--schema", &broken], "{}");
    assert_eq!(code, 2);
    assert!(err.contains("strng"), "{err}");
    assert!(!err.contains("usage:"), "a schema error is told alone: {err}");
    let (code, _, err) = run(&["validate"], "{}");
    assert_eq!(code, 2);
    assert!(err.contains("usage:"), "a wrong command line is told with the usage: {err}");
    assert_eq!(run(&["validate", "--schema", "/nonexistent.json"], "{}").0, 2);
    assert_eq!(run(&["frobnicate"], "").0, 2);
    assert_eq!(run(&["validate", "--bogus"], "").0, 2);
    assert_eq!(run(&[], "").0, 2);
    assert_eq!(run(&["--help"], "").0, 0);
}

#[test]
fn flag_values_after_equals_version_and_a_one_line_usage_hint() {
    let schema = file("eq.json", SCHEMA);
    let (code, out, err) = run(&["validate", &format!("--schema={schema}"), "--max-depth=8"], r#"{"approval": "approve"}"#);
    assert_eq!(code, 0, "{err}");
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), json!({"approval": "approve"}));
    // A URI=FILE value keeps its own `=`.
    let (code, _, err) = run(&["check", &schema, &format!("--resource=https://example.com/x={schema}"), "--draft=draft7"], "");
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["validate", &format!("--schema={schema}"), "--extract=yes"], "{}");
    assert_eq!((code, err.lines().next()), (2, Some("output-contract: --extract takes no value")));

    let (code, out, _) = run(&["--version"], "");
    assert_eq!((code, out), (0, format!("output-contract {}\n", env!("CARGO_PKG_VERSION"))));

    // A wrong command line: the problem, then one line of usage, not the whole help.
    let (code, _, err) = run(&["validate", "--bogus"], "");
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "output-contract: unknown option --bogus\nusage: output-contract validate --schema SCHEMA [OPTIONS] [FILE|-] (output-contract --help for every option)\n"
    );
    let (_, _, err) = run(&["frobnicate"], "");
    assert_eq!(err.lines().count(), 2, "{err}");
}

#[test]
fn check_reports_issues_and_config_problems() {
    let (code, out, _) = run(&["check", &file("ok.json", SCHEMA)], "");
    assert_eq!(code, 0, "{out}");
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["draft"], "draft7");

    let (code, out, _) = run(&["check", &file("bad.json", "{\n  \"type\": \"strng\"\n}")], "");
    assert_eq!(code, 1);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["issues"][0]["pointer"], "/type");

    let (code, out, _) = run(&["check", &file("arr.json", r#"{"type": "array"}"#)], "");
    assert_eq!(code, 1);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["config"][0]["code"], "root_not_object");

    let (code, out, _) = run(&["check", &file("syntax.json", "{\n  \"type\": ,\n}")], "");
    assert_eq!(code, 1);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["issues"][0]["kind"], "invalid_json");
    assert_eq!(r["issues"][0]["line"], 2);
}

#[test]
fn extract_prints_the_extraction() {
    let (code, out, _) = run(&["extract", "-"], "Answer: {\"a\": [1, 2]} done");
    assert_eq!(code, 0);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["value"], json!({"a": [1, 2]}));
    assert_eq!((r["start"].as_u64(), r["end"].as_u64()), (Some(8), Some(21)));
    let (code, out, _) = run(&["extract"], "no json here");
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["error"]["kind"], "no_json");
    let (code, out, _) = run(&["extract", "--repair"], "{\"a\": 1,}");
    assert_eq!(code, 0);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["repairs"][0]["kind"], "trailing_comma");
}

#[test]
fn schema_options_and_limits() {
    let schema = file("ref.json", r#"{"$ref": "https://example.com/item.json"}"#);
    let item = file("item.json", r#"{"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}}"#);
    let (code, _, err) = run(&["validate", "--schema", &schema, "-"], r#"{"a": 1}"#);
    assert_eq!(code, 2, "not resolvable without the resource");
    assert!(err.contains("cannot be resolved"), "{err}");
    let resource = format!("https://example.com/item.json={item}");
    assert_eq!(run(&["validate", "--schema", &schema, "--resource", &resource], r#"{"a": 1}"#).0, 0);
    let (code, out, _) = run(&["validate", "--schema", &schema, "--resource", &resource], r#"{"a": "x"}"#);
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["violations"][0]["schema_path"], "/$ref/properties/a/type");
    // Compiles with the resource; the root's shape ($ref, no type) is what check reports.
    let (code, out, _) = run(&["check", &schema, "--resource", &resource], "");
    assert_eq!(code, 1);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((r["issues"].clone(), r["config"][0]["code"].clone()), (json!([]), json!("root_not_object")));
    assert_eq!(run(&["validate", "--schema", &schema, "--resource", "no-file"], "{}").0, 2);
    assert_eq!(run(&["validate", "--schema", &schema, "--resource", &format!("https://x={schema}.missing")], "{}").0, 2);

    let loose = file("loose.json", r#"{"type": "object", "properties": {"a": {"type": "string"}}, "foo": 1}"#);
    assert_eq!(run(&["validate", "--schema", &loose], "{}").0, 2);
    assert_eq!(run(&["validate", "--schema", &loose, "--no-strict"], "{}").0, 0);
    assert_eq!(run(&["check", &loose, "--no-strict"], "").0, 0);

    let object = file("object.json", r#"{"type": "object"}"#);
    let (code, out, _) = run(&["validate", "--schema", &object, "--max-output-bytes", "8"], r#"{"a": "long enough"}"#);
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["violations"][0]["keyword"], "maxOutputBytes");
    let deep = file("deep.json", r#"{"a": {"b": {"c": 1}}}"#);
    let (code, out, _) = run(&["validate", "--schema", &object, "--max-depth", "2", &deep], "");
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["violations"][0]["keyword"], "maxDepth");
    assert_eq!(run(&["validate", "--schema", &object, "--max-depth", "3", &deep], "").0, 0);
    let (code, out, _) = run(&["extract", "--max-depth", "1"], r#"{"a": [1]}"#);
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["found"], false);
    assert_eq!(run(&["validate", "--schema", &object, "--max-depth", "-1"], "{}").0, 2);
    assert_eq!(run(&["validate", "--schema", &object, "--max-output-bytes", "0"], "{}").0, 2);
    assert_eq!(run(&["extract", "--no-strict"], "{}").0, 2, "not an option of extract");
}

#[test]
fn draft_jtd_reads_a_json_type_definition() {
    let schema = file("s.jtd.json", r#"{"properties": {"n": {"type": "uint8"}}, "optionalProperties": {"tags": {"elements": {"type": "string"}}}}"#);
    let (code, out, _) = run(&["check", &schema, "--draft", "jtd"], "");
    assert_eq!(code, 0, "{out}");
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["draft"], "jtd");
    let (code, out, _) = run(&["validate", "--schema", &schema, "--draft", "jtd", "-"], r#"{"n": 256, "tags": ["a", 1]}"#);
    assert_eq!(code, 1);
    let e: Value = serde_json::from_str(&out).unwrap();
    let paths: Vec<(&str, &str)> = e["violations"].as_array().unwrap().iter().map(|v| (v["pointer"].as_str().unwrap(), v["schema_path"].as_str().unwrap())).collect();
    assert_eq!(paths, [("/n", "/properties/n/type"), ("/tags/1", "/optionalProperties/tags/elements/type")]);
    let bad = file("bad.jtd.json", r#"{"type": "int64"}"#);
    let (code, out, _) = run(&["check", &bad, "--draft", "jtd"], "");
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["issues"][0]["pointer"], "/type");
}

const PERSON: &str = "https://example.com/schemas/person/1.0.0=examples/schemas/person.v1.0.0.schema.json";

#[test]
fn diff_prints_the_changes_and_exits_by_the_version_step() {
    let ticket = |v: &str| format!("examples/schemas/ticket.v{v}.schema.json");
    // 1.0.0 → 1.1.0 only narrows: a minor step allows it.
    let (code, out, err) = run(&["diff", &ticket("1.0.0"), &ticket("1.1.0"), "--resource", PERSON], "");
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["step"]["bump"], "minor");
    assert_eq!(report["compatible"], true);
    assert_eq!(report["narrowed"].as_array().unwrap().len(), 3);
    assert_eq!(report["narrowed"][0]["pointer"], "/properties/title/maxLength");
    assert!(report["narrowed"][0]["range"]["start"]["line"].is_u64());
    // 1.0.0's schema published as 1.2.0 widens 1.1.0 again: a minor step does not allow that.
    let old_as_new = file("ticket-widened.json", &std::fs::read_to_string(ticket("1.0.0")).unwrap().replace("ticket/1.0.0", "ticket/1.2.0"));
    let (code, out, _) = run(&["diff", &ticket("1.1.0"), &old_as_new, "--resource", PERSON], "");
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["needed"], "major");
    assert_eq!(report["step"]["allowed"], false);
    assert_eq!(report["widened"].as_array().unwrap().len(), 3);
    // Without versions any change is a problem; no change is none.
    let a = file("a.json", r#"{"type": "string"}"#);
    let b = file("b.json", r#"{"type": "string", "pattern": "^x"}"#);
    assert_eq!(run(&["diff", &a, &a], "").0, 0);
    let (code, out, _) = run(&["diff", &a, &b], "");
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["narrowed"][0]["kind"], "pattern");
    // Usage and unusable schemas exit 2.
    assert_eq!(run(&["diff", &a], "").0, 2);
    assert_eq!(run(&["diff", &a, &b, "extra"], "").0, 2);
    let (code, _, err) = run(&["diff", &ticket("1.0.0"), &ticket("1.1.0")], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot be resolved"), "{err}");
}

#[test]
fn registry_check_exits_by_the_diagnostics() {
    let (code, out, err) = run(&["registry", "check", "tests/fixtures/registry/good"], "");
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["schemas"], 4);
    let (code, out, _) = run(&["registry", "check", "tests/fixtures/registry/broken"], "");
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    let codes: std::collections::BTreeSet<&str> = report["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
    for c in ["id_without_version", "file_name_mismatch", "duplicate_id", "missing_title", "unresolvable_ref", "version_step", "invalid_json"] {
        assert!(codes.contains(c), "{c} in {codes:?}");
    }
    assert_eq!(run(&["registry", "check", "/nonexistent-dir"], "").0, 2);
    assert_eq!(run(&["registry", "check"], "").0, 2);
    assert_eq!(run(&["registry", "list", "x"], "").0, 2);
    assert_eq!(run(&["registry"], "").0, 2);
}

#[test]
fn custom_formats_by_regex() {
    let schema = file("phone.json", r#"{"type": "object", "properties": {"phone": {"type": "string", "format": "phone"}}}"#);
    let phone = r"phone=^\+[0-9]+$";
    // Strict mode refuses a format it does not know; --format makes it known and asserted.
    assert_eq!(run(&["validate", "--schema", &schema], r#"{"phone": "+44"}"#).0, 2);
    assert_eq!(run(&["check", &schema], "").0, 1);
    assert_eq!(run(&["check", &schema, "--format", phone], "").0, 0);
    assert_eq!(run(&["validate", "--schema", &schema, "--format", phone], r#"{"phone": "+44"}"#).0, 0);
    // Streamed from stdin and read from a file alike.
    let (code, out, _) = run(&["validate", "--schema", &schema, "--format", phone, "-"], r#"{"phone": "0044"}"#);
    assert_eq!(code, 1);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((r["violations"][0]["keyword"].clone(), r["violations"][0]["message"].clone()), (json!("format"), json!("'0044' is not a valid 'phone'")));
    let output = file("phone-out.json", r#"{"phone": "0044"}"#);
    let (code, from_file, _) = run(&["validate", "--schema", &schema, "--format", phone, &output], "");
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&from_file).unwrap()["violations"], r["violations"]);
    // Repeatable; a later flag of the same name wins.
    assert_eq!(run(&["validate", "--schema", &schema, "--format", phone, "--format", "phone=^0"], r#"{"phone": "0044"}"#).0, 0);
    // A bad regex, or a flag without NAME=, is a wrong command line.
    for bad in ["phone=(", "=abc", "phone"] {
        let (code, _, err) = run(&["validate", "--schema", &schema, "--format", bad], "{}");
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("usage:"), "{err}");
        assert_eq!(run(&["check", &schema, "--format", bad], "").0, 2, "{bad}");
    }
    let (_, _, err) = run(&["check", &schema, "--format", "phone=("], "");
    assert!(err.contains(r#"format "phone""#), "{err}");
    assert_eq!(run(&["extract", "--format", phone], "{}").0, 2, "extract compiles no schema");
}
