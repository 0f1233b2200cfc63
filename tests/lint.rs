//! checkSchema: diagnostics at the right text ranges, never an error thrown.

use output_contract::editor::lint::{check_schema, CheckOptions, Diagnostic, Severity};
use output_contract::agent::tool::Provider;

fn codes(d: &[Diagnostic]) -> Vec<&str> {
    d.iter().map(|d| d.code.as_str()).collect()
}

fn at<'d>(d: &'d [Diagnostic], code: &str) -> &'d Diagnostic {
    d.iter().find(|d| d.code == code).unwrap_or_else(|| panic!("no {code} in {:?}", codes(d)))
}

fn slice(text: &str, d: &Diagnostic) -> String {
    // Offsets are UTF-16 units: slice as JavaScript would.
    let units: Vec<u16> = text.encode_utf16().collect();
    String::from_utf16(&units[d.range.start.offset..d.range.end.offset]).unwrap()
}

const GOOD: &str = r#"{
  "$id": "https://example.com/schemas/pr-reviewer/1.0.0",
  "title": "PR review",
  "description": "What the reviewer returns.",
  "type": "object",
  "properties": {
    "summary": {"type": "string"},
    "approval": {"enum": ["approve", "request_changes", "comment"]}
  },
  "required": ["summary", "approval"],
  "additionalProperties": false
}"#;

#[test]
fn a_good_schema_has_no_diagnostics() {
    let r = check_schema(GOOD, &CheckOptions::default());
    assert!(r.valid);
    assert_eq!(r.draft, "draft7");
    assert!(r.diagnostics.is_empty(), "{:?}", codes(&r.diagnostics));
}

#[test]
fn syntax_errors_at_their_line_and_column() {
    let text = "{\n  \"type\": \"object\"\n  \"properties\": {}\n}";
    let r = check_schema(text, &CheckOptions::default());
    assert!(!r.valid);
    let d = at(&r.diagnostics, "json_syntax");
    assert_eq!((d.range.start.line, d.range.start.column), (3, 3));
    assert_eq!(d.fix, None, "a missing comma is not repaired");
    // A trailing comma is reported where it is, with its fix.
    let text = "{\n  \"type\": \"object\",\n  \"properties\": {},\n}";
    let d = at(&check_schema(text, &CheckOptions::default()).diagnostics, "json_syntax").clone();
    assert_eq!((d.range.start.line, d.range.start.column, slice(text, &d).as_str()), (3, 19, ","));
    let r = check_schema("", &CheckOptions::default());
    assert_eq!(codes(&r.diagnostics), vec!["json_syntax"]);
    let r = check_schema("{\"a\": \"😀\" x}", &CheckOptions::default());
    let d = at(&r.diagnostics, "json_syntax");
    assert_eq!(slice("{\"a\": \"😀\" x}", d), "x", "UTF-16 offsets past an astral character");
}

#[test]
fn meta_schema_and_compile_problems_at_their_nodes() {
    let text = GOOD.replace(r#""summary": {"type": "string"}"#, r#""summary": {"type": "strng"}"#);
    let r = check_schema(&text, &CheckOptions::default());
    assert!(!r.valid);
    let d = at(&r.diagnostics, "meta_schema");
    assert_eq!(d.pointer, "/properties/summary/type");
    assert_eq!(slice(&text, d), "\"strng\"");
    assert_eq!(d.range.start.line, 7);

    let text = GOOD.replace(r#""required": ["summary", "approval"]"#, r#""requried": ["summary", "approval"]"#);
    let r = check_schema(&text, &CheckOptions::default());
    let d = at(&r.diagnostics, "unknown_keyword");
    assert_eq!(slice(&text, d), "\"requried\"");
    assert_eq!(d.fix.as_ref().unwrap().replacement.as_deref(), Some("\"required\""));

    let text = r##"{"type": "object", "properties": {"a": {"type": "string", "pattern": "(unclosed"}, "b": {"$ref": "#/$defs/missing"}}}"##;
    let r = check_schema(text, &CheckOptions::default());
    let found = codes(&r.diagnostics);
    assert!(found.contains(&"invalid_regex") || found.contains(&"meta_schema"), "{found:?}");
}

#[test]
fn authoring_lints_with_stable_codes() {
    let text = r#"{
  "$id": "https://example.com/schemas/reviewer",
  "type": "object",
  "properties": {
    "severity": {"type": "string", "description": "One of: low, medium, high"},
    "kind": {"oneOf": [{"type": "string"}, {"type": "number"}]}
  },
  "required": ["severity", "sevrity"]
}"#;
    let r = check_schema(text, &CheckOptions::default());
    assert!(r.valid, "lints are not errors");
    let found = codes(&r.diagnostics);
    for code in ["id_not_versioned", "missing_title", "missing_description", "open_object", "enum_in_description", "prefer_any_of", "required_not_in_properties"] {
        assert!(found.contains(&code), "{code} missing from {found:?}");
    }
    let d = at(&r.diagnostics, "required_not_in_properties");
    assert_eq!(slice(text, d), "\"sevrity\"");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(slice(text, at(&r.diagnostics, "prefer_any_of")), "\"oneOf\"");

    let r = check_schema(r#"{"type": "array", "items": {}}"#, &CheckOptions::default());
    assert!(codes(&r.diagnostics).contains(&"root_not_object"));
    let r = check_schema(r#"{"type": "object", "properties": {"a": {}}}"#, &CheckOptions::default());
    assert!(codes(&r.diagnostics).contains(&"no_required"));
}

#[test]
fn provider_compatibility() {
    let text = r#"{"type": "object", "properties": {"s": {"type": "string", "maxLength": 10, "format": "uri"}}, "required": ["s"]}"#;
    let r = check_schema(text, &CheckOptions { provider: Some(Provider::OpenAi), ..CheckOptions::default() });
    assert_eq!(slice(text, at(&r.diagnostics, "openai_dropped_keyword")), "\"maxLength\"");
    assert_eq!(slice(text, at(&r.diagnostics, "openai_dropped_format")), "\"format\"");
    assert!(codes(&r.diagnostics).contains(&"openai_closed_object"));
    let r = check_schema(r#"{"type": "array"}"#, &CheckOptions { provider: Some(Provider::OpenAi), ..CheckOptions::default() });
    assert!(!r.valid);
    assert_eq!(at(&r.diagnostics, "openai_rejected").severity, Severity::Error);
    let r = check_schema(r#"{"type": "array"}"#, &CheckOptions { provider: Some(Provider::Anthropic), ..CheckOptions::default() });
    assert!(codes(&r.diagnostics).contains(&"anthropic_root_not_object"));
}

#[test]
fn never_panics_on_prefixes_of_a_schema() {
    for end in 0..=GOOD.len() {
        if GOOD.is_char_boundary(end) {
            let r = check_schema(&GOOD[..end], &CheckOptions::default());
            assert_eq!(r.valid, end == GOOD.len(), "prefix of {end} bytes");
        }
    }
    // Nor on prefixes and suffixes of text the repair fixes: every range within the text.
    let (decorated, _) = decorate(&GOOD.replace("PR review", "PR\n😀\treview"), true, "/* ü */");
    for end in (0..=decorated.len()).filter(|&i| decorated.is_char_boundary(i)) {
        for text in [&decorated[..end], &decorated[end..]] {
            let units = text.encode_utf16().count();
            for d in check_schema(text, &CheckOptions::default()).diagnostics {
                assert!(d.range.start.offset <= d.range.end.offset && d.range.end.offset <= units, "{d:?} in {text:?}");
            }
        }
    }
}

#[test]
fn compile_problems_listed() {
    let text = r##"{"type": "object", "properties": {"b": {"$ref": "#/$defs/missing"}}, "required": ["b"], "additionalProperties": false}"##;
    let r = check_schema(text, &CheckOptions::default());
    let d = at(&r.diagnostics, "unresolvable_ref");
    assert!(!r.valid);
    assert_eq!(slice(text, d), "\"#/$defs/missing\"", "{d:?}");
    assert_eq!(d.pointer, "/properties/b/$ref");
    let text = r##"{"type": "object", "properties": {"a": {"type": "string", "pattern": "(unclosed"}}}"##;
    let r = check_schema(text, &CheckOptions::default());
    let d = at(&r.diagnostics, "invalid_regex");
    assert_eq!(slice(text, d), "\"(unclosed\"");
}

#[test]
fn keywords_of_another_draft_are_errors_with_their_own_code() {
    use output_contract::{Contract, Draft, Options};
    use serde_json::json;
    // Each case: a schema, the draft in effect, the keyword, the draft that has it, and an
    // instance that keyword would reject but the draft in effect accepts: why strict mode (and
    // the editor) refuse it.
    let cases = [
        (json!({"type": "array", "prefixItems": [{"type": "string"}]}), Draft::Draft7, "prefixItems", Draft::Draft202012, json!([1])),
        (json!({"type": "object", "dependentRequired": {"a": ["b"]}}), Draft::Draft7, "dependentRequired", Draft::Draft202012, json!({"a": 1})),
        (json!({"type": "object", "dependencies": {"a": ["b"]}}), Draft::Draft202012, "dependencies", Draft::Draft7, json!({"a": 1})),
        (json!({"const": 1}), Draft::Draft4, "const", Draft::Draft202012, json!(2)),
        (json!({"if": {"const": 1}, "then": false}), Draft::Draft6, "if", Draft::Draft202012, json!(1)),
    ];
    for (schema, draft, keyword, home, instance) in cases {
        let text = serde_json::to_string_pretty(&schema).unwrap();
        let r = check_schema(&text, &CheckOptions { draft: Some(draft), provider: None, ..CheckOptions::default() });
        assert!(!r.valid);
        let d = at(&r.diagnostics, "keyword_from_other_draft");
        assert_eq!(d.severity, Severity::Error);
        assert_eq!(slice(&text, d), format!("\"{keyword}\""));
        assert_eq!(d.fix.as_ref().unwrap().message, format!("add \"$schema\": \"{}\" at the root", home.meta_schema_uri()));
        assert!(!codes(&r.diagnostics).contains(&"unknown_keyword"));
        let lax = Options { draft: Some(draft), strict: false, ..Options::default() };
        // The validator still applies the legacy "dependencies" under 2019-09 and later, though
        // the drafts dropped it (as the test suite's optional tests expect); the editor refuses it
        // all the same, as the draft's readers would not.
        if keyword != "dependencies" {
            assert!(Contract::compile(&schema, &lax).unwrap().validate(&instance).is_ok(), "{keyword} is not enforced under {draft:?}");
        }
        // Under the draft that has it: no diagnostic.
        let r = check_schema(&text, &CheckOptions { draft: Some(home), provider: None, ..CheckOptions::default() });
        assert!(!codes(&r.diagnostics).contains(&"keyword_from_other_draft"), "{keyword} under {home:?}");
    }
    // A typo stays unknown_keyword, with its rename.
    let r = check_schema(r#"{"type": "object", "requried": []}"#, &CheckOptions::default());
    assert_eq!(at(&r.diagnostics, "unknown_keyword").fix.as_ref().unwrap().replacement.as_deref(), Some("\"required\""));
}

/// The shared corpus's cases: each with its schema text and options.
fn corpus() -> Vec<(serde_json::Value, String, CheckOptions)> {
    let corpus: serde_json::Value = serde_json::from_str(include_str!("corpus/check-schema.json")).unwrap();
    corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let text = case["schema"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect::<Vec<_>>().join("\n");
            let options = CheckOptions {
                draft: case["draft"].as_str().map(|d| output_contract::Draft::from_name(d).unwrap()),
                provider: case["provider"].as_str().map(|p| Provider::from_name(p).unwrap()),
                ..CheckOptions::default()
            };
            (case.clone(), text, options)
        })
        .collect()
}

/// `text` with `d`'s fix applied as an editor applies it (UTF-16 offsets).
fn apply_fix(text: &str, d: &Diagnostic) -> String {
    let units: Vec<u16> = text.encode_utf16().collect();
    let replacement = d.fix.as_ref().and_then(|f| f.replacement.as_deref()).expect("a replacement");
    let mut out = units[..d.range.start.offset].to_vec();
    out.extend(replacement.encode_utf16());
    out.extend(&units[d.range.end.offset..]);
    String::from_utf16(&out).unwrap()
}

#[test]
fn every_code_at_its_range_in_the_shared_corpus() {
    let mut failures = Vec::new();
    for (case, text, options) in corpus() {
        let code = case["code"].as_str().unwrap();
        let r = check_schema(&text, &options);
        let Some(d) = r.diagnostics.iter().find(|d| d.code == code) else {
            failures.push(format!("{code}: not reported, got {:?}", codes(&r.diagnostics)));
            continue;
        };
        let got = (format!("{:?}", d.severity).to_lowercase(), slice(&text, d), d.range.start.line);
        let want = (case["severity"].as_str().unwrap().to_string(), case["at"].as_str().unwrap().to_string(), case["line"].as_u64().unwrap() as usize);
        if got != want {
            failures.push(format!("{code}: got {got:?}, want {want:?} ({})", d.message));
        }
        assert_eq!(r.valid, !r.diagnostics.iter().any(|d| d.severity == Severity::Error));
        // A fix's replacement, put in place of the range, removes the diagnostic.
        if let Some(want) = case.get("fix") {
            let replacement = d.fix.as_ref().and_then(|f| f.replacement.as_deref());
            if replacement != want.as_str() {
                failures.push(format!("{code} at {:?}: fix {replacement:?}, want {want}", d.pointer));
                continue;
            }
            let after = check_schema(&apply_fix(&text, d), &options);
            if after.diagnostics.iter().any(|x| x.code == code && x.pointer == d.pointer) || (code != "json_syntax" && codes(&after.diagnostics).contains(&"json_syntax")) {
                failures.push(format!("{code} at {:?}: still there after its fix: {:?}", d.pointer, codes(&after.diagnostics)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn keywords_beside_ref_in_drafts_4_to_7_are_errors_at_their_keys() {
    use output_contract::{Contract, Draft, Options, SchemaErrorKind};
    let text = r##"{
  "$id": "https://example.com/schemas/hooks/1.0.0",
  "title": "Hooks",
  "description": "Hooks to run.",
  "type": "object",
  "definitions": {"hook": {"type": "object", "properties": {"id": {"type": "string"}, "entry": {"type": "string"}}}},
  "properties": {
    "hook": {
      "$ref": "#/definitions/hook",
      "$id": "#hook",
      "description": "annotations beside $ref are fine",
      "required": ["id", "entry"]
    }
  },
  "required": ["hook"],
  "additionalProperties": false
}"##;
    for draft in [Draft::Draft6, Draft::Draft7] {
        let r = check_schema(text, &CheckOptions { draft: Some(draft), provider: None, ..CheckOptions::default() });
        assert!(!r.valid);
        let d = at(&r.diagnostics, "ref_sibling");
        assert_eq!(d.severity, Severity::Error);
        assert_eq!((slice(text, d).as_str(), d.pointer.as_str(), d.range.start.line), ("\"required\"", "/properties/hook/required", 12));
        assert!(d.message.contains("allOf") && d.message.contains(draft.title()), "{}", d.message);
        let fix = &d.fix.as_ref().unwrap().message;
        assert!(fix.contains("\"allOf\"") && fix.contains(Draft::Draft201909.meta_schema_uri()), "{fix}");
        // Only `required` is refused: the annotation and the identifier are not.
        assert_eq!(r.diagnostics.iter().filter(|d| d.severity == Severity::Error).count(), 1, "{:?}", codes(&r.diagnostics));
        let w = at(&r.diagnostics, "id_beside_ref");
        assert_eq!((w.severity, slice(text, w).as_str(), w.range.start.line), (Severity::Warning, "\"$id\"", 10));
        assert!(w.fix.is_some());
    }
    // Compiling refuses the same keyword with a typed issue; without strict mode it is ignored,
    // as the specification says, and the object without "entry" passes: the bug strict mode stops.
    let schema: serde_json::Value = serde_json::from_str(text).unwrap();
    let err = Contract::compile(&schema, &Options::default()).unwrap_err();
    assert_eq!(err.kind, SchemaErrorKind::RefSibling);
    assert_eq!((err.issues.len(), err.issues[0].keyword.as_deref()), (1, Some("required")));
    let lax = Contract::compile(&schema, &Options { strict: false, ..Options::default() }).unwrap();
    assert!(lax.validate(&serde_json::json!({"hook": {"id": "a"}})).is_ok());

    // The fix the message names: with the $ref in an allOf the keyword is checked.
    let wrapped = text.replace(
        r##""$ref": "#/definitions/hook",
      "$id": "#hook","##,
        r##""allOf": [{"$ref": "#/definitions/hook"}],"##,
    );
    let r = check_schema(&wrapped, &CheckOptions::default());
    assert!(r.valid, "{:?}", codes(&r.diagnostics));
    assert!(!codes(&r.diagnostics).iter().any(|c| c.contains("ref")), "{:?}", codes(&r.diagnostics));
    let contract = Contract::compile_text(&wrapped, &Options::default()).unwrap();
    assert!(contract.validate(&serde_json::json!({"hook": {"id": "a"}})).is_err());

    // Under 2019-09 and later the keyword is checked where it is: nothing to report (the "$id",
    // a fragment, is not an identifier there, and would be the $ref's base).
    let later = text.replace(r##""$id": "#hook","##, "");
    for draft in [Draft::Draft201909, Draft::Draft202012] {
        let r = check_schema(&later, &CheckOptions { draft: Some(draft), provider: None, ..CheckOptions::default() });
        assert!(r.valid, "{draft:?}: {:?}", codes(&r.diagnostics));
        assert!(!codes(&r.diagnostics).iter().any(|c| c.contains("ref")), "{draft:?}");
    }
}

#[test]
fn a_rename_comes_from_the_issue_suggestion() {
    use output_contract::{Contract, Options};
    let schema = serde_json::json!({"type": "object", "properties": {"a": {"type": "string", "maxLenght": 3}}});
    let err = Contract::compile(&schema, &Options::default()).unwrap_err();
    assert_eq!(err.issues[0].suggestion.as_deref(), Some("maxLength"));
    let text = serde_json::to_string(&schema).unwrap();
    let r = check_schema(&text, &CheckOptions::default());
    let d = at(&r.diagnostics, "unknown_keyword");
    assert_eq!(d.fix.as_ref().unwrap().replacement.as_deref(), Some("\"maxLength\""));
    // No suggestion, no rename: an unknown keyword far from every known one.
    let r = check_schema(r#"{"type": "object", "colour": "red"}"#, &CheckOptions::default());
    assert_eq!(at(&r.diagnostics, "unknown_keyword").fix, None);
}

/// Text users read speaks of the library and JSON Schema alone, never of the documents it was
/// designed from.
#[test]
fn diagnostics_and_schema_errors_name_no_design_document() {
    use output_contract::agent::config::check_output_schema_config;
    use output_contract::{Contract, Options};
    let mut texts: Vec<(String, CheckOptions)> = corpus().into_iter().map(|(_, text, options)| (text, options)).collect();
    for extra in [
        r##"{"type": "array", "items": {"$ref": "#/definitions/x", "$id": "x", "minItems": 1}, "definitions": {"x": {}}}"##,
        r#"{"properties": {"a": {"format": "no-such-format", "requried": [], "prefixItems": []}}}"#,
        r#"{"$schema": "https://example.com/unknown", "type": "object"}"#,
        r#"[1, 2]"#,
        "",
    ] {
        texts.push((extra.to_string(), CheckOptions::default()));
        texts.push((extra.to_string(), CheckOptions { provider: Some(Provider::OpenAi), ..CheckOptions::default() }));
        texts.push((extra.to_string(), CheckOptions { provider: Some(Provider::Anthropic), ..CheckOptions::default() }));
    }
    let mut read = Vec::new();
    for (text, options) in &texts {
        for d in check_schema(text, options).diagnostics {
            read.push(d.message);
            read.extend(d.fix.map(|f| f.message));
        }
        if let Ok(schema) = serde_json::from_str::<serde_json::Value>(text) {
            if let Err(e) = Contract::compile(&schema, &Options::default()) {
                read.push(e.message);
                read.extend(e.issues.into_iter().map(|i| i.message));
            }
            for d in check_output_schema_config(&schema, &Options::default()) {
                read.push(d.message);
            }
        }
    }
    assert!(read.len() > 100, "{} texts", read.len());
    let named: Vec<&String> = read.iter().filter(|m| m.to_lowercase().contains("seed")).collect();
    assert!(named.is_empty(), "{named:#?}");
}


/// `text` with a trailing comma after the last member or item of every non-empty object and
/// array, and `comment` after every `{` and `,` (outside strings); with the UTF-16 start and
/// length of each insertion, in text order.
fn decorate(text: &str, commas: bool, comment: &str) -> (String, Vec<(usize, usize)>) {
    let mut out = String::new();
    let mut inserted = Vec::new(); // byte start and length in `out`
    let (mut in_string, mut escaped) = (false, false);
    let mut last = (' ', 0); // the last character outside strings and whitespace, and its end in `out`
    for c in text.chars() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => (in_string, last) = (false, ('"', out.len())),
                _ => {}
            }
            continue;
        }
        if commas && matches!(c, '}' | ']') && !matches!(last.0, '{' | '[' | ',') {
            out.insert(last.1, ',');
            inserted.push((last.1, 1));
        }
        out.push(c);
        in_string = c == '"';
        if !c.is_whitespace() {
            last = (c, out.len());
        }
        if matches!(c, '{' | ',') && !comment.is_empty() {
            inserted.push((out.len(), comment.len()));
            out.push_str(comment);
        }
    }
    let units = |b: usize| out[..b].encode_utf16().count();
    let spans = inserted.iter().map(|&(start, len)| (units(start), units(start + len) - units(start))).collect();
    (out, spans)
}

/// Repaired text is checked as the text it stands for: every other diagnostic is the same, at the
/// same place of the text (its offsets less the bytes the repair removes).
#[test]
fn repaired_syntax_keeps_every_other_diagnostic_at_its_place() {
    let mut texts: Vec<(String, CheckOptions)> = corpus().into_iter().map(|(_, text, options)| (text, options)).collect();
    texts.push((GOOD.to_string(), CheckOptions::default()));
    let mut checked = 0;
    for (text, options) in texts {
        let want = check_schema(&text, &options);
        if codes(&want.diagnostics).contains(&"json_syntax") {
            continue;
        }
        let draft = want.draft;
        for (commas, comment) in [(true, ""), (false, "/* ü 😀 */"), (true, "// ü 😀\n")] {
            let (decorated, inserted) = decorate(&text, commas, comment);
            let got = check_schema(&decorated, &options);
            let (syntax, rest): (Vec<&Diagnostic>, Vec<&Diagnostic>) = got.diagnostics.iter().partition(|d| d.code == "json_syntax");
            assert_eq!(syntax.len(), inserted.len(), "{decorated}");
            for (d, (start, len)) in syntax.iter().zip(&inserted) {
                // The comma, or the comment without the line end that closes it.
                let what = if *len == 1 { "," } else { comment.trim_end() };
                assert_eq!((d.range.start.offset, slice(&decorated, d).as_str()), (*start, what), "{decorated}");
                assert_eq!(d.fix.as_ref().unwrap().replacement.as_deref(), Some(""));
                assert_eq!(d.severity, Severity::Error);
            }
            let back = |offset: usize| offset - inserted.iter().filter(|(s, _)| *s < offset).map(|(_, l)| l).sum::<usize>();
            let rest: Vec<_> = rest.iter().map(|d| (d.code.as_str(), d.pointer.as_str(), back(d.range.start.offset), back(d.range.end.offset), d.message.as_str())).collect();
            let want: Vec<_> = want.diagnostics.iter().map(|d| (d.code.as_str(), d.pointer.as_str(), d.range.start.offset, d.range.end.offset, d.message.as_str())).collect();
            assert_eq!(rest, want, "{decorated}");
            assert_eq!((got.valid, got.draft), (false, draft));
            checked += 1;
        }
    }
    assert!(checked > 60, "{checked}");
}

#[test]
fn raw_control_characters_in_strings_are_escaped_by_their_fixes() {
    let text = "{\n  \"title\": \"Résumé\treview\",\n  \"type\": \"object\",\n  \"properties\": {\"level\": {\"type\": \"string\", \"description\": \"😀 One of:\nlow, medium, high\"}},\n  \"required\": [\"level\", \"levle\"]\n}";
    let r = check_schema(text, &CheckOptions::default());
    assert!(!r.valid);
    let syntax: Vec<(String, Option<String>)> = r
        .diagnostics
        .iter()
        .filter(|d| d.code == "json_syntax")
        .map(|d| (slice(text, d), d.fix.as_ref().unwrap().replacement.clone()))
        .collect();
    assert_eq!(syntax, [("\t".to_string(), Some("\\t".to_string())), ("\n".to_string(), Some("\\n".to_string()))]);
    // The escapes are longer than the characters: the ranges after them are still the user's.
    let d = at(&r.diagnostics, "enum_in_description");
    assert_eq!(slice(text, d), "\"😀 One of:\nlow, medium, high\"");
    assert_eq!(d.range.start.line, 4);
    let d = at(&r.diagnostics, "required_not_in_properties");
    assert_eq!((slice(text, d).as_str(), d.range.start.line), ("\"levle\"", 6));
    // Each fix applied, one after the other: the text is JSON and keeps its lints.
    let mut fixed = text.to_string();
    while let Some(d) = check_schema(&fixed, &CheckOptions::default()).diagnostics.into_iter().find(|d| d.code == "json_syntax") {
        fixed = apply_fix(&fixed, &d);
    }
    let after = check_schema(&fixed, &CheckOptions::default());
    assert!(after.valid, "{:?}", codes(&after.diagnostics));
    assert_eq!(serde_json::from_str::<serde_json::Value>(&fixed).unwrap()["title"], "Résumé\treview");
    assert!(codes(&after.diagnostics).contains(&"required_not_in_properties"));
}

#[test]
fn syntax_the_repair_cannot_fix_is_reported_as_before() {
    for text in ["{\"type\": \"object\",, }", "{\"type\": \"object\", \"properties\" {},}", "{\"type\": \"object\", // open\n", "[1, 2,"] {
        let r = check_schema(text, &CheckOptions::default());
        assert!(!r.valid);
        assert_eq!(codes(&r.diagnostics), ["json_syntax"], "{text}");
        assert_eq!(r.diagnostics[0].fix, None, "{text}");
    }
}

#[test]
fn unknown_type_names_get_a_rename() {
    let schema = |types: &str| format!(r#"{{"type": "object", "properties": {{"a": {{"type": {types}}}}}, "required": ["a"], "additionalProperties": false}}"#);
    let cases = [
        (r#""integr""#, "\"integr\"", "/properties/a/type", Some("integer")),
        (r#""String""#, "\"String\"", "/properties/a/type", Some("string")),
        (r#""float""#, "\"float\"", "/properties/a/type", Some("number")),
        (r#""bool""#, "\"bool\"", "/properties/a/type", Some("boolean")),
        (r#""obj""#, "\"obj\"", "/properties/a/type", Some("object")),
        (r#"["string", "nul"]"#, "\"nul\"", "/properties/a/type/1", Some("null")),
        (r#""colour""#, "\"colour\"", "/properties/a/type", None),
    ];
    for (types, at_text, pointer, near) in cases {
        let text = schema(types);
        let r = check_schema(&text, &CheckOptions::default());
        let d = at(&r.diagnostics, "meta_schema");
        assert_eq!((slice(&text, d).as_str(), d.pointer.as_str()), (at_text, pointer), "{types}");
        match near {
            Some(near) => {
                assert!(d.message.contains(&format!("did you mean \"{near}\"")), "{}", d.message);
                assert_eq!(d.fix.as_ref().unwrap().replacement, Some(format!("\"{near}\"")));
                let after = check_schema(&apply_fix(&text, d), &CheckOptions::default());
                assert!(!codes(&after.diagnostics).contains(&"meta_schema"), "{types}: {:?}", after.diagnostics);
            }
            None => {
                assert_eq!(d.fix, None, "{types}");
                assert!(d.message.contains("\"integer\""), "the types are listed: {}", d.message);
            }
        }
    }
    // A property called "type" is a schema, not a type name: no rename.
    let text = r#"{"type": "object", "properties": {"type": "strng"}}"#;
    let d = at(&check_schema(text, &CheckOptions::default()).diagnostics, "meta_schema").clone();
    assert_eq!((d.pointer.as_str(), d.fix), ("/properties/type", None));
}

#[test]
fn unknown_formats_get_a_rename_the_draft_knows() {
    use output_contract::Draft;
    let text = |format: &str| format!(r#"{{"type": "object", "properties": {{"a": {{"type": "string", "format": "{format}"}}}}}}"#);
    let cases = [
        ("datetime", Draft::Draft7, Some("date-time")),
        ("Date_Time", Draft::Draft7, Some("date-time")),
        ("emial", Draft::Draft7, Some("email")),
        ("url", Draft::Draft7, Some("uri")),
        ("guid", Draft::Draft202012, Some("uuid")),
        // Every format is asserted in every draft: "uuid" under Draft 7 too.
        ("guid", Draft::Draft7, Some("uuid")),
        ("colour", Draft::Draft7, None),
    ];
    for (format, draft, near) in cases {
        let text = text(format);
        let options = CheckOptions { draft: Some(draft), provider: None, ..CheckOptions::default() };
        let r = check_schema(&text, &options);
        let d = at(&r.diagnostics, "unknown_format");
        assert_eq!(slice(&text, d), format!("\"{format}\""));
        assert_eq!(d.fix.as_ref().and_then(|f| f.replacement.clone()), near.map(|n| format!("\"{n}\"")), "{format} under {draft:?}");
        if near.is_some() {
            assert!(r.diagnostics.iter().all(|d| d.code != "unknown_format" || d.message.contains("did you mean")));
            let after = check_schema(&apply_fix(&text, d), &options);
            assert!(after.valid, "{format}: {:?}", codes(&after.diagnostics));
        }
    }
}

/// The codes `DiagnosticCode` in pkg/index.d.ts lists; a member `Exclude<T, 'a'>` stands for the
/// literals of the union `T` there but `a`.
fn documented_codes() -> std::collections::BTreeSet<String> {
    let dts = include_str!("../pkg/index.d.ts");
    let union = |name: &str| -> Vec<String> {
        let lines = dts.lines().skip_while(|l| !l.starts_with(&format!("export type {name} ="))).skip(1);
        let mut out = Vec::new();
        for line in lines.map(str::trim).filter(|l| !l.starts_with("//")) {
            out.push(line.to_string());
            if line.ends_with(';') {
                break;
            }
        }
        assert!(!out.is_empty(), "no type {name} in pkg/index.d.ts");
        out
    };
    let quoted = |s: &str| s.split('\'').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>();
    let mut codes = std::collections::BTreeSet::new();
    for member in union("DiagnosticCode") {
        match member.strip_prefix("| Exclude<") {
            Some(rest) => {
                let (name, except) = rest.split_once(',').unwrap();
                let except = quoted(except);
                codes.extend(union(name).iter().flat_map(|m| quoted(m)).filter(|c| !except.contains(c)));
            }
            None => codes.extend(quoted(&member)),
        }
    }
    codes
}

/// The string literals of Rust source, outside comments and attributes.
fn string_literals(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in source.lines().map(str::trim).filter(|l| !l.starts_with("//") && !l.starts_with("#[")) {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '\'' if chars.get(i + 1) == Some(&'\\') => i += 4,
                '\'' if chars.get(i + 2) == Some(&'\'') => i += 3,
                '"' => {
                    let mut literal = String::new();
                    i += 1;
                    while i < chars.len() && chars[i] != '"' {
                        if chars[i] == '\\' {
                            i += 1;
                        }
                        literal.extend(chars.get(i));
                        i += 1;
                    }
                    out.push(literal);
                    i += 1;
                }
                _ => i += 1,
            }
        }
    }
    out
}

/// Every code `checkSchema` gives is in the list pkg/index.d.ts documents (`DiagnosticCode`, and
/// API.md made from it), and the list has no code it never gives. The codes are literals of
/// src/editor/lint.rs (none assembled with `format!`), plus the `SchemaErrorKind`s it passes on.
#[test]
fn every_code_check_schema_gives_is_documented() {
    use output_contract::SchemaErrorKind as K;
    let documented = documented_codes();
    let kinds = [K::InvalidJson, K::MetaSchema, K::UnknownKeyword, K::RefSibling, K::UnknownDraft, K::UnresolvableRef, K::InvalidRegex, K::UnknownFormat, K::LimitExceeded, K::InvalidOption, K::Compile];
    // Fails to compile when a kind is added: list it above.
    let _every_kind_listed = |k: K| match k {
        K::InvalidJson | K::MetaSchema | K::UnknownKeyword | K::RefSibling | K::UnknownDraft | K::UnresolvableRef | K::InvalidRegex | K::UnknownFormat | K::LimitExceeded | K::InvalidOption | K::Compile => (),
    };
    // Schema errors become diagnostics of their kind's name, but for invalid JSON (json_syntax).
    let passed_on: Vec<&str> = kinds.iter().map(|k| k.as_str()).filter(|k| *k != "invalid_json").collect();
    for kind in &passed_on {
        assert!(documented.contains(*kind), "the schema error kind {kind} is not in DiagnosticCode (pkg/index.d.ts)");
    }

    let source = include_str!("../src/editor/lint.rs");
    let literals = string_literals(source);
    let code_like = |s: &str| {
        let mut parts = s.split('_');
        s.split('_').count() >= 2 && parts.all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()))
    };
    let given: std::collections::BTreeSet<&str> = literals.iter().map(String::as_str).filter(|s| code_like(s)).collect();
    assert!(given.len() >= 20 && given.contains("json_syntax") && given.contains("openai_rejected"), "{given:?}");
    let undocumented: Vec<&&str> = given.iter().filter(|c| !documented.contains(**c)).collect();
    assert!(undocumented.is_empty(), "codes in src/editor/lint.rs missing from DiagnosticCode in pkg/index.d.ts: {undocumented:?}");
    // A code made with format! ("openai_{}") would escape the check above.
    let assembled: Vec<&String> = literals
        .iter()
        .filter(|s| s.split_once('{').is_some_and(|(head, _)| head.ends_with('_') && head.chars().all(|c| c.is_ascii_lowercase() || c == '_')))
        .collect();
    assert!(assembled.is_empty(), "codes assembled at run time cannot be checked against the documented list: {assembled:?}");
    let stale: Vec<&String> = documented.iter().filter(|c| !given.contains(c.as_str()) && !passed_on.contains(&c.as_str())).collect();
    assert!(stale.is_empty(), "DiagnosticCode lists codes checkSchema never gives: {stale:?}");

    // What it gives when run: the shared corpus (which has a case for every code that schema text
    // can bring about), and a schema past the depth limit.
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let mut runs: Vec<(String, CheckOptions)> = corpus().into_iter().map(|(_, text, options)| (text, options)).collect();
    runs.push((deep, CheckOptions::default()));
    let mut seen = std::collections::BTreeSet::new();
    for (text, options) in &runs {
        for d in check_schema(text, options).diagnostics {
            assert!(documented.contains(&d.code), "{} is not documented ({text})", d.code);
            seen.insert(d.code);
        }
    }
    // Not from schema text: an invalid option is refused before checking, and `compile` is the
    // kind of an error without issues, never an issue's.
    let unseen: Vec<&String> = documented.iter().filter(|c| !seen.contains(*c) && !["invalid_option", "compile"].contains(&c.as_str())).collect();
    assert!(unseen.is_empty(), "no case in tests/corpus/check-schema.json gives {unseen:?}");
}

/// The lints read every subschema strict mode does: under `dependencies` and `contentSchema`,
/// and deeper than 64 levels.
#[test]
fn lints_reach_every_subschema() {
    let pointers = |text: &str| -> Vec<String> {
        let r = check_schema(text, &CheckOptions::default());
        r.diagnostics.iter().filter(|d| d.code == "required_not_in_properties").map(|d| d.pointer.clone()).collect()
    };
    let odd = r#"{"type": "object", "properties": {"a": {}}, "required": ["a", "b"]}"#;
    let text = format!(r#"{{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "title": "t", "description": "d", "dependencies": {{"x": {odd}, "y": ["x"]}}}}"#);
    assert_eq!(pointers(&text), vec!["/dependencies/x/required/1"]);
    let text = format!(r#"{{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string", "contentSchema": {odd}}}"#);
    assert_eq!(pointers(&text), vec!["/contentSchema/required/1"]);
    let mut deep = odd.to_string();
    for _ in 0..80 {
        deep = format!(r#"{{"type": "object", "properties": {{"n": {deep}}}, "required": ["n"], "additionalProperties": false}}"#);
    }
    let found = pointers(&deep);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with("/required/1") && found[0].matches("/properties/n").count() == 80);
}

#[test]
fn resources_resolve_references_among_a_set_of_schemas() {
    let text = r#"{"$id": "https://example.com/ticket/1.0.0", "type": "object", "properties": {"reporter": {"$ref": "https://example.com/person/1.0.0"}}}"#;
    assert!(check_schema(text, &CheckOptions::default()).diagnostics.iter().any(|d| d.code == "unresolvable_ref"));
    let person = serde_json::json!({"$id": "https://example.com/person/1.0.0", "type": "object"});
    let resources = [("https://example.com/person/1.0.0".to_string(), person)].into_iter().collect();
    let r = check_schema(text, &CheckOptions { resources, ..CheckOptions::default() });
    assert!(r.valid, "{:?}", r.diagnostics);
    assert!(r.diagnostics.iter().all(|d| d.code != "unresolvable_ref"), "{:?}", r.diagnostics);
}
