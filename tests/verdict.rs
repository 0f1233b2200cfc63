//! The byte-level verdict (src/check/verdict.rs) never accepts what the full path refuses: malformed
//! JSON of every kind, duplicate keys, numbers serde_json refuses; and it does recognise the
//! valid texts it should, so the fast path is really taken.
mod common;

use common::Rng;
use output_contract::{Contract, Options};
use serde_json::json;

fn contract(schema: serde_json::Value) -> Contract {
    Contract::compile(&schema, &Options::default()).unwrap()
}

#[test]
fn malformed_text_is_never_accepted() {
    let open = contract(json!({}));
    let typed = contract(json!({"type": "object", "properties": {"a": {"type": "integer"}, "s": {"type": "string", "maxLength": 3}}}));
    for text in [
        "", " ", "01", "1.", "-", "+1", ".5", "1e", "1e+", "[1,]", "[,1]", "{\"a\":1,}", "{,}", "{\"a\" 1}", "{\"a\":}", "{a:1}",
        "\"\\x\"", "\"\u{1}\"", "\"\\u12\"", "\"\\u+123\"", "\"\\ud800\"", "tru", "nul", "falsey", "1e400", "-1e400",
        "[1] x", "[1]]", "[", "{", "\"abc", "{\"a\":1}}", "NaN", "Infinity", "[1 2]", "{\"a\":1 \"b\":2}", "\u{feff}{}",
    ] {
        for c in [&open, &typed] {
            assert_ne!(c.quick_verdict(text), Some(true), "accepted {text:?}");
            assert!(c.check_text(text).is_err(), "check_text accepted {text:?}");
        }
    }
}

#[test]
fn valid_text_is_recognised() {
    let c = contract(json!({
        "type": "object",
        "required": ["n", "s", "list"],
        "additionalProperties": false,
        "properties": {
            "n": {"type": "integer", "minimum": 0},
            "s": {"type": "string", "enum": ["é", "a\"b"]},
            "list": {"type": "array", "maxItems": 4, "items": {"anyOf": [{"type": "null"}, {"type": "number"}]}},
            "x": {"type": ["boolean", "null"]}
        }
    }));
    for text in [
        r#"{"n": 0, "s": "é", "list": []}"#,
        r#" {"n":12,"s":"a\"b","list":[null,-0,1E+2,0.5],"x":true} "#,
        "{\"n\": 3, \"s\": \"\\u00e9\", \"list\": [1e-400]}",
    ] {
        assert_eq!(c.quick_verdict(text), Some(true), "{text}");
        assert!(c.check_text(text).is_ok());
    }
    for text in [
        r#"{"n": -1, "s": "é", "list": []}"#,
        r#"{"n": 1, "s": "e", "list": []}"#,
        r#"{"n": 1, "s": "é", "list": [1, 2, 3, 4, 5]}"#,
        r#"{"n": 1, "s": "é", "list": ["x"]}"#,
        r#"{"n": 1, "s": "é"}"#,
        r#"{"n": 1.5, "s": "é", "list": []}"#,
        r#"{"n": 1, "s": "é", "list": [], "y": 1}"#,
    ] {
        assert_ne!(c.quick_verdict(text), Some(true), "{text}");
        assert!(c.check_text(text).is_err(), "{text}");
    }
    // 1.0 is an integer in Draft 7: the verdict asks the validator rather than guessing.
    assert!(c.check_text(r#"{"n": 1.0, "s": "é", "list": []}"#).is_ok());
}

#[test]
fn whitespace_of_any_length_between_tokens() {
    // Indentation after a line break is skipped eight spaces at a time: every run length, with
    // tabs and carriage returns among the spaces, and text past the run still seen.
    let c = contract(json!({"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}, "s": {"type": "string"}}}));
    for k in 0..20 {
        let pad = " ".repeat(k);
        for layout in [format!("\n{pad}"), format!("\r\n{pad}\t"), format!("\n{pad}\n{pad} "), format!("\n\t{pad}")] {
            let text = format!("{{{layout}\"n\"{layout}:{layout}1{layout},{layout}\"s\":{layout}\"x\"{layout}}}{layout}");
            assert_eq!(c.quick_verdict(&text), Some(true), "{text:?}");
            for bad in [format!("{text}x"), text.replace(&format!("1{layout}"), &format!("1{layout}x")), text.replace('1', "\"1\"")] {
                assert_ne!(c.quick_verdict(&bad), Some(true), "{bad:?}");
                assert!(c.check_text(&bad).is_err(), "{bad:?}");
            }
        }
    }
}

#[test]
fn a_repeated_member_name_is_a_violation_of_its_own() {
    let c = contract(json!({"properties": {"a": {"type": "integer"}}}));
    // Readers disagree on which of two values counts: whichever the schema would accept, the
    // repeat itself is reported, where the object is; the value checked is the last one.
    let err = c.check_text(r#"{"a": "x", "a": 1}"#).unwrap_err();
    let found: Vec<_> = err.violations.iter().map(|v| (v.keyword.as_str(), v.path.as_str(), v.received.clone())).collect();
    assert_eq!(found, vec![("duplicateKey", "$", json!("a"))]);
    let err = c.check_text(r#"{"a": 1, "a": "x"}"#).unwrap_err();
    let found: Vec<_> = err.violations.iter().map(|v| v.keyword.as_str()).collect();
    assert_eq!(found, vec!["duplicateKey", "type"]);
    // validate_text and nested objects alike; each repeated name once per repeat.
    let nested = c.validate_text(r#"{"b": [{"k": 1, "k": 2, "j": 0, "j": 0}]}"#).unwrap_err();
    let found: Vec<_> = nested.violations.iter().map(|v| (v.path.as_str(), v.pointer.as_str(), v.received.clone())).collect();
    assert_eq!(found, vec![("$.b[0]", "/b/0", json!("j")), ("$.b[0]", "/b/0", json!("k"))]);
    assert!(nested.retryable);
    // Wherever the object is, whatever the schema says of it, and however the name is written.
    for (schema, text) in [
        (json!({}), r#"{"a": 1, "a": 2}"#),
        (json!({"properties": {"x": {}}}), r#"{"x": {"b": [], "c": 0, "b": null}}"#),
        (json!({"not": {"properties": {"a": {"type": "string"}}}}), r#"{"a": 1, "a": "x"}"#),
        (json!({"properties": {"a": {}}}), r#"{"a": 1, "a": 2}"#),
        (json!({"patternProperties": {"^2": {}}}), r#"{"200": 1, "200": 2}"#),
        (json!({}), r#"{"b": 1, "b": 2}"#),
    ] {
        let c = contract(schema);
        assert_ne!(c.quick_verdict(text), Some(true), "{text}");
        let err = c.check_text(text).unwrap_err();
        assert!(err.violations.iter().any(|v| v.keyword == "duplicateKey"), "{text}");
        assert_eq!(Some(err.clone()), c.validate_text(text).err(), "{text}");
        // Extracted from prose too: the value alone no longer shows the repeat.
        let answer = format!("Here it is:\n```json\n{text}\n```");
        let (_, extracted) = c.extract_and_validate(&answer, false);
        assert_eq!(extracted.unwrap_err().violations, err.violations, "{answer}");
    }
}

#[test]
fn only_schemas_that_depend_on_the_dynamic_scope_have_no_verdict() {
    let dynamic = contract(json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$dynamicAnchor": "node", "items": {"$dynamicRef": "#node"}}));
    assert_eq!(dynamic.quick_verdict("[]"), None);
    // Embedded resources are the validator's business: the verdict reads its resolved nodes.
    let nested_id = contract(json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"s": {"type": "integer"}}, "properties": {"a": {"$id": "https://example.com/a", "$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s"}}}));
    assert_eq!(nested_id.quick_verdict(r#"{"a": "x"}"#), Some(true));
    assert_eq!(nested_id.quick_verdict(r#"{"a": 1}"#), Some(false));
    // Keywords it does not check itself hand the subtree to the validator: still a verdict.
    let unique = contract(json!({"type": "array", "uniqueItems": true, "contains": {"const": 2}}));
    assert_eq!(unique.quick_verdict("[1, 2]"), Some(true));
    assert_eq!(unique.quick_verdict("[2, 2]"), Some(false));
}

#[test]
fn property_counts_see_repeated_keys_as_the_parser_does() {
    let c = contract(json!({"minProperties": 2, "maxProperties": 2}));
    assert_eq!(c.quick_verdict(r#"{"a": 1, "b": 2}"#), Some(true));
    // One property for the parser: too few, and a repeated name besides.
    assert!(c.check_text(r#"{"a": 1, "a": 2}"#).is_err());
    let err = c.check_text(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap_err();
    assert_eq!(err.violations.iter().map(|v| v.keyword.as_str()).collect::<Vec<_>>(), vec!["duplicateKey"]);
}

#[test]
fn the_depth_limit_holds() {
    let options = Options { limits: output_contract::OutputLimits { max_depth: 3, ..Default::default() }, ..Options::default() };
    let c = Contract::compile(&json!({"type": "object"}), &options).unwrap();
    assert_eq!(c.quick_verdict(r#"{"a": {"b": {"c": 1}}}"#), Some(true));
    for deeper in [r#"{"a": {"b": {"c": {"d": 1}}}}"#, r#"{"a": [[[1]]]}"#] {
        assert_ne!(c.quick_verdict(deeper), Some(true));
        assert_eq!(c.check_text(deeper).unwrap_err().violations[0].keyword, "maxDepth");
    }
}

/// Asserts the verdict and the full path on each text: `true` texts are recognised in one pass,
/// `false` ones refused by both.
fn agree(c: &Contract, cases: &[(&str, bool)]) {
    for &(text, valid) in cases {
        assert_eq!(c.check_text(text).is_ok(), valid, "full path on {text}");
        if valid {
            assert_eq!(c.quick_verdict(text), Some(true), "verdict on {text}");
        } else {
            assert_ne!(c.quick_verdict(text), Some(true), "verdict accepted {text}");
        }
    }
}

#[test]
fn unique_items_are_compared_as_values() {
    let c = contract(json!({"type": "array", "uniqueItems": true}));
    agree(
        &c,
        &[
            ("[]", true),
            (r#"[1, "1", true, 1.5, null, false, {"a": 1}, [1], -1, 10]"#, true),
            (r#"["a", "b", "a"]"#, false),
            (r#"["a", "\u0061"]"#, false),
            ("[1, 1.0]", false),
            ("[0, -0]", false),
            ("[1e2, 100]", false),
            ("[true, true]", false),
            ("[null, null]", false),
            (r#"[{"a": 1, "b": 2}, {"b": 2, "a": 1}]"#, false),
            ("[[1], [1.0]]", false),
            ("[123456789012345678, 123456789012345679]", true),
            ("[1234567890123456789, 1234567890123456789]", false),
        ],
    );
}

#[test]
fn pattern_properties_follow_the_names_the_validator_matches() {
    let c = contract(json!({
        "type": "object",
        "additionalProperties": false,
        "properties": {"id": {"type": "string"}},
        "patternProperties": {
            "^[1-5][0-9]{2}$": {"type": "object", "required": ["description"]},
            "^2": {"maxProperties": 1},
            "^i": {"minLength": 2}
        }
    }));
    agree(
        &c,
        &[
            (r#"{"200": {"description": "ok"}, "404": {"description": "gone", "x": 1}}"#, true),
            (r#"{"id": "ab"}"#, true),
            (r#"{"id": "a"}"#, false),
            (r#"{"404": {}}"#, false),
            (r#"{"200": {"description": "ok", "x": 1}}"#, false),
            (r#"{"600": {"description": "ok"}}"#, false),
            (r#"{"\u0032\u0030\u0030": {"description": "ok"}}"#, true),
            (r#"{"2": 1}"#, true),
        ],
    );
}

/// Every location in `value` as a JSON Pointer.
fn pointers(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                pointers(v, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// One to three random changes: a value replaced (by a scalar, an object, an array), a
/// property removed or added, an array item repeated.
fn mutate(valid: &serde_json::Value, rng: &mut Rng) -> serde_json::Value {
    let replacements = [json!(null), json!(true), json!(7), json!(-2.5), json!("x"), json!(""), json!("not-a-date"), json!({}), json!([]), json!({"zz": 1}), json!([1, 1])];
    let mut value = valid.clone();
    for _ in 0..=rng.below(3) {
        let mut all = Vec::new();
        pointers(&value, String::new(), &mut all);
        let target = all[rng.below(all.len())].clone();
        let action = rng.below(4);
        let Some(node) = value.pointer_mut(&target) else { continue };
        match (action, node) {
            (1, serde_json::Value::Object(map)) if !map.is_empty() => {
                let key = map.keys().nth(rng.below(map.len())).cloned().unwrap_or_default();
                map.shift_remove(&key);
            }
            (2, serde_json::Value::Object(map)) => {
                map.insert(["extra", "a/b", "t~1", "quote\"d", "severity"][rng.below(5)].to_string(), replacements[rng.below(replacements.len())].clone());
            }
            (2, serde_json::Value::Array(items)) if !items.is_empty() => {
                let item = items[rng.below(items.len())].clone();
                items.push(item);
            }
            (_, node) => *node = replacements[rng.below(replacements.len())].clone(),
        }
    }
    value
}

/// An invalid output's canonical error built from the subtrees the verdict located is the full
/// path's, violation for violation (paths, document order, schema paths, messages), on
/// thousands of mutations of valid outputs under schemas with nesting, references, unions,
/// closed objects, pattern properties, tuples, unique items and odd property names.
#[test]
fn reports_from_located_subtrees_are_the_full_reports() {
    let cases = [
        (
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "required": ["summary", "comments"],
                "properties": {
                    "summary": {"type": "string", "minLength": 3},
                    "comments": {"type": "array", "maxItems": 6, "items": {"$ref": "#/definitions/comment"}},
                    "a/b": {"type": "integer"},
                    "t~1": {"enum": ["x", 7]}
                },
                "definitions": {
                    "comment": {
                        "type": "object",
                        "additionalProperties": false,
                        "required": ["file", "severity"],
                        "properties": {
                            "file": {"type": "string", "pattern": "^[a-z/]+\\.rs$"},
                            "line": {"type": "integer", "minimum": 1},
                            "severity": {"enum": ["low", "high"]},
                            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
                        }
                    }
                }
            }),
            json!({"summary": "fine", "comments": [{"file": "src/a.rs", "line": 3, "severity": "low", "tags": ["x", "y"]}, {"file": "b.rs", "severity": "high"}], "a/b": 2, "t~1": "x"}),
        ),
        (
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {
                    "steps": {
                        "type": "array",
                        "minItems": 1,
                        "items": {
                            "anyOf": [
                                {"type": "object", "required": ["run"], "properties": {"run": {"type": "string"}, "at": {"format": "date-time"}}},
                                {"type": "object", "required": ["call"], "properties": {"call": {"type": "object", "properties": {"name": {"const": "go"}}}}}
                            ]
                        }
                    },
                    "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "items": false},
                    "meta": {
                        "type": "object",
                        "patternProperties": {"^x-": {"type": "string"}},
                        "properties": {"owner": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 5}}, "required": ["name"]}},
                        "additionalProperties": {"type": "integer"}
                    },
                    "with space": {"type": "boolean"}
                },
                "required": ["steps"]
            }),
            json!({"steps": [{"run": "make", "at": "2026-01-01T00:00:00Z"}, {"call": {"name": "go"}}], "pair": ["a", 1], "meta": {"x-a": "s", "owner": {"name": "ann"}, "n": 3}, "with space": true}),
        ),
        (
            // Maps: objects under `additionalProperties`, themselves holding maps, beside names
            // matched by one pattern or by two.
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "additionalProperties": false,
                "required": ["flags"],
                "properties": {
                    "flags": {"type": "object", "minProperties": 1, "additionalProperties": {"$ref": "#/$defs/flag"}},
                    "labels": {
                        "type": "object",
                        "patternProperties": {
                            "^x-": {"type": "string", "maxLength": 4},
                            "^x-d": {"maxLength": 3},
                            "^o/~": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 5}}}
                        },
                        "additionalProperties": {"type": "object", "required": ["v"], "properties": {"v": {"type": "integer", "maximum": 9}}}
                    }
                },
                "$defs": {
                    "flag": {
                        "type": "object",
                        "additionalProperties": false,
                        "required": ["on", "split"],
                        "properties": {
                            "on": {"type": "boolean"},
                            "split": {"type": "object", "additionalProperties": {"type": "number", "minimum": 0, "maximum": 100}}
                        }
                    }
                }
            }),
            json!({"flags": {"a": {"on": true, "split": {"x": 10, "y": 90}}, "b/c": {"on": false, "split": {"z~": 100}}}, "labels": {"x-1": "ab", "x-d1": "abc", "o/~1": {"n": 2}, "k": {"v": 3}}}),
        ),
    ];
    let mut rng = Rng::new(7);
    let (mut checked, mut located) = (0, 0);
    for (schema, valid) in &cases {
        let c = contract(schema.clone());
        assert!(c.check_text(&valid.to_string()).is_ok(), "{valid}");
        for _ in 0..1500 {
            let output = mutate(valid, &mut rng);
            for text in [output.to_string(), serde_json::to_string_pretty(&output).unwrap()] {
                let full = c.validate_text(&text).map(drop);
                assert_eq!(c.check_text(&text), full, "{text}");
                // Told the output is invalid (the JS tier's answer), the module locates its
                // violations without its own verdict first: the same answer, valid ones too.
                assert_eq!(c.check_refused_text(&text), full, "refused {text}");
                if full.is_err() {
                    checked += 1;
                    located += usize::from(c.located_units(&text).is_some());
                }
            }
        }
    }
    println!("{located} of {checked} invalid outputs reported from located subtrees");
    // The comparison means something only if most reports do come from located subtrees.
    assert!(checked > 2000 && located * 2 > checked, "{located} of {checked} invalid outputs located");
}

#[test]
fn numeric_bounds_are_decided_as_the_validator_decides_them() {
    let bounded = |schema: serde_json::Value, cases: &[(&str, bool)]| {
        let c = contract(schema);
        for &(text, valid) in cases {
            assert_eq!(c.validate_text(text).is_ok(), valid, "full path on {text}");
            assert_eq!(c.quick_verdict(text), Some(valid), "verdict on {text}");
        }
    };
    bounded(
        json!({"minimum": 0, "maximum": 10}),
        &[("0", true), ("10", true), ("10.0", true), ("1e1", true), ("-0", true), ("-0.0", true), ("5.5", true), ("-1", false), ("10.000000001", false), ("1e2", false), ("-1e-300", false), (r#""11""#, true)],
    );
    bounded(
        json!({"exclusiveMinimum": 0, "exclusiveMaximum": 1.5}),
        &[("0", false), ("0.0", false), ("1e-300", true), ("1", true), ("1.5", false), ("1.4999999", true), ("2", false)],
    );
    // Limits and values beyond f64's exact integers compare exactly, as in the validator.
    bounded(
        json!({"type": "integer", "maximum": 9007199254740993u64}),
        &[("9007199254740993", true), ("9007199254740994", false), ("18446744073709551615", false), ("-9223372036854775808", true), ("9007199254740992.0", true)],
    );
    bounded(json!({"minimum": -1.5, "multipleOf": 0.5}), &[("-1.5", true), ("-1", true), ("-2", false), ("-1.25", false)]);
    // Draft 4's boolean exclusivity still goes to the validator, with the same answers.
    let draft4 = Contract::compile(&json!({"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 1, "exclusiveMinimum": true}), &Options::default()).unwrap();
    for (text, valid) in [("1", false), ("1.5", true), ("0", false)] {
        assert_eq!(draft4.validate_text(text).is_ok(), valid, "{text}");
        assert_ne!(draft4.quick_verdict(text), Some(!valid).filter(|v| *v), "{text}");
    }
}

#[test]
fn missing_names_of_large_objects_are_reported_without_parsing_them() {
    let c = contract(json!({
        "type": "object",
        "required": ["title", "info", "items"],
        "properties": {
            "info": {"type": "object", "required": ["version"], "properties": {"version": {"type": "string"}}},
            "items": {"type": "array", "items": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "note": {"type": "string"}}}}
        }
    }));
    let items: Vec<serde_json::Value> = (0..300)
        .map(|i| json!({"id": i, "note": format!("é\"q\\ {i}"), "w": [1e2, 1.50, -0.0, 12345678901234567890u64, null, true]}))
        .collect();
    let mut big = json!({"items": items, "info": {"notes": "x".repeat(400)}});
    let texts = |value: &serde_json::Value| [value.to_string(), serde_json::to_string_pretty(value).unwrap()];
    for text in texts(&big) {
        // The root lacks "title", "info" lacks "version": both located, neither parsed whole.
        assert_eq!(c.located_units(&text), Some(2), "{}", &text[..80]);
        let error = c.check_text(&text).expect_err("invalid");
        assert_eq!(Err(error.clone()), c.validate_text(&text).map(drop));
        let found: Vec<(&str, &str)> = error.violations.iter().map(|v| (v.path.as_str(), v.message.as_str())).collect();
        assert_eq!(found, [("$", "'title' is a required property"), ("$.info", "'version' is a required property")]);
        assert!(error.violations.iter().all(|v| v.received.as_str().is_some_and(|r| r.contains("…[truncated"))));
    }
    // With violations below as well, and names written with escapes (which are parsed instead).
    big["items"][7]["id"] = json!("seven");
    big["items"].as_array_mut().unwrap().push(json!({"note": "no id"}));
    big["info"]["a\"b"] = json!(1);
    for text in texts(&big) {
        assert_eq!(c.check_text(&text), c.validate_text(&text).map(drop));
    }
    // A repeated name anywhere: the full path decides.
    let repeated = r#"{"items": [{"id": 1, "id": 2}], "info": {"version": "1"}, "info": {}}"#;
    assert_eq!(c.check_text(repeated), c.validate_text(repeated).map(drop));
}

#[test]
fn arrays_of_distinct_items_are_split_despite_unique_items() {
    let c = contract(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"tags": {"type": "array", "uniqueItems": true, "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}}
    }));
    let mut tags: Vec<serde_json::Value> = vec![json!("first")];
    tags.extend((1..400).map(|i| json!(i)));
    tags[31] = json!("31");
    tags[77] = json!(true);
    let with = |item: serde_json::Value| [tags.clone(), vec![item]].concat();
    for (value, units) in [
        // Distinct items: only the two failing items are units.
        (json!({"tags": tags.clone()}), Some(2)),
        // A repeated item fails the array itself, which is most of the output: the full path.
        (json!({"tags": with(json!(5))}), None),
        // Items whose equality needs their values (1.0 is 1): the full path too.
        (json!({"tags": with(json!(1.0))}), None),
    ] {
        for text in [value.to_string(), serde_json::to_string_pretty(&value).unwrap()] {
            assert_eq!(c.located_units(&text), units);
            assert_eq!(c.check_text(&text).map(drop), c.validate_text(&text).map(drop));
        }
    }
    // A small array with a repeated item is one unit, reported with the item's failures.
    let text = r#"{"tags": ["a", 1, "2", 1], "other": "x"}"#;
    assert_eq!(c.check_text(text).map(drop), c.validate_text(text).map(drop));
    let error = c.check_text(text).unwrap_err();
    let keywords: Vec<&str> = error.violations.iter().map(|v| v.keyword.as_str()).collect();
    assert_eq!(keywords, ["uniqueItems", "type"]);
}

#[test]
fn every_listed_name_is_found_among_many_of_one_length() {
    // Names of one length and of several, more than the few looked through one by one: each
    // must reach its own rule (a wrong rule or none accepts the wrong type or misses `required`).
    let names: Vec<String> = (0..40).map(|i| if i % 3 == 0 { format!("k{i:02}") } else { format!("name_{}", "x".repeat(i % 7)) + &i.to_string() }).collect();
    let properties: serde_json::Map<String, serde_json::Value> = names.iter().map(|n| (n.clone(), json!({"type": "integer"}))).collect();
    let c = contract(json!({"type": "object", "properties": properties, "required": names}));
    let all: serde_json::Map<String, serde_json::Value> = names.iter().map(|n| (n.clone(), json!(1))).collect();
    assert_eq!(c.quick_verdict(&serde_json::Value::Object(all.clone()).to_string()), Some(true));
    for name in &names {
        let mut wrong = all.clone();
        wrong.insert(name.clone(), json!("1"));
        let mut missing = all.clone();
        missing.remove(name);
        for value in [wrong, missing] {
            let text = serde_json::Value::Object(value).to_string();
            assert_eq!(c.quick_verdict(&text), Some(false), "{name}");
            let error = c.check_text(&text).unwrap_err();
            assert_eq!(Err(error.clone()), c.validate_text(&text).map(drop));
            assert_eq!(error.violations.len(), 1);
        }
    }
}

/// `pattern`, `format`, lengths and `enum`s (of strings, or mixed) see a string's content: its escapes decoded
/// (the verdict decodes them itself), so the one-pass answer is the full path's.
#[test]
fn string_keywords_see_escaped_strings_decoded() {
    let c = contract(json!({
        "type": "array",
        "items": {"type": "string", "pattern": "^a\"b\\\\c/é\n$", "maxLength": 8}
    }));
    agree(
        &c,
        &[
            (r#"["a\"b\\c/é\n"]"#, true),
            (r#"["a\"b\\c\/\u00e9\u000a", "a\u0022b\u005cc/é\n"]"#, true),
            (r#"["a\"b\\c/é\t"]"#, false),
            (r#"["a\"b\\c/e\n"]"#, false),
            (r#"["a\\\"b\\c/é\n"]"#, false),
        ],
    );
    let c = contract(json!({"items": {"format": "date", "minLength": 10, "enum": ["2024-01-02", "2024-13-02", "é\t", 1]}}));
    agree(&c, &[(r#"["2024-01-02", "2024-01-\u0030\u0032", 1]"#, true), (r#"["2024-13-02"]"#, false), (r#"["\u00e9\t"]"#, false)]);
    // Each escape form decodes to its character (a tab, a form feed, a backspace, a slash).
    let c = contract(json!({"items": {"pattern": "^\t\u{c}\u{8}/$"}}));
    agree(&c, &[(r#"["\t\f\b\/", "\u0009\u000C\u0008/"]"#, true), (r#"["\t\f\b\\"]"#, false), (r#"["tfb/"]"#, false)]);
}
