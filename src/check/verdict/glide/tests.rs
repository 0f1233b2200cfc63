use super::*;
use crate::schema::contract::{Contract, Options};

fn glide(verdict: &Verdict, validator: &Validator, text: &str, chunk: usize) -> bool {
    let mut g = Glide::new(verdict, 128);
    for part in text.as_bytes().chunks(chunk.max(1)) {
        g.push(part, verdict, validator);
    }
    g.end(verdict, validator)
}

/// Every suite instance, compact and indented, cut short and with bytes inserted, pushed whole,
/// in 7-byte chunks and byte by byte: read to its end only where one-shot validation finds it
/// valid.
#[test]
fn reads_to_the_end_only_what_is_valid() {
    let (mut read, mut valid) = (0, 0);
    for group in crate::suite::groups() {
        let Ok(contract) = Contract::compile(&group["schema"], &Options::default()) else { continue };
        let validator = contract.validator();
        let Some(verdict) = Verdict::compile(validator) else { continue };
        for test in group["tests"].as_array().into_iter().flatten() {
            let texts = crate::suite::texts(&test["data"], 3);
            for text in texts {
                let ok = contract.validate_text(&text).is_ok();
                for chunk in [text.len(), 7, 1] {
                    let got = glide(&verdict, validator, &text, chunk);
                    assert!(!got || ok, "{}: {text}", group["description"]);
                    read += usize::from(got);
                    valid += usize::from(ok);
                }
            }
        }
    }
    // Most valid instances are read to their end (the others have applicators or delegated
    // keywords).
    assert!(read * 2 > valid, "{read} of {valid}");
}

/// A schema of the shapes the reading vouches for: a valid value is read to its end in any
/// chunking, and each kind of violation loses it at the push that reveals it.
#[test]
fn loses_the_reading_where_a_value_may_be_wrong() {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 8},
            "kind": {"enum": ["alpha", "beta"]},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
            "n": {"type": "integer", "minimum": 0},
            "item": {"$ref": "#/$defs/item"}
        },
        "required": ["name"],
        "additionalProperties": false,
        "$defs": {"item": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}
    });
    let contract = Contract::compile(&schema, &Options::default()).unwrap();
    let validator = contract.validator();
    let verdict = Verdict::compile(validator).unwrap();
    let valid = r#"{"name": "abé", "kind": "beta", "tags": ["x", "y"], "n": 3, "item": {"ok": true, "more": [1, {"a": null}]}}"#;
    for chunk in 1..valid.len() {
        assert!(glide(&verdict, validator, valid, chunk), "chunk {chunk}");
    }
    // Each prefix is lost at the push that ends with the last byte shown, not before.
    for wrong in [r#"{"name": "123456789"#, r#"{"name": "a", "kind": "g"#, r#"{"name": "a", "x""#, r#"{"name": "a", "tags": ["a", "b", ""#, r#"{"name": 1"#, r#"{"name": "a", "name""#, r#"{"name": "a", "n": 01"#] {
        let (head, last) = wrong.split_at(wrong.len() - 1);
        let mut g = Glide::new(&verdict, 128);
        assert!(g.push(head.as_bytes(), &verdict, validator), "{head}");
        assert!(!g.push(last.as_bytes(), &verdict, validator), "{wrong}");
    }
    // Found wrong only when they close.
    for wrong in [r#"{"name": "a", "n": -1}"#, r#"{"kind": "beta"}"#, r#"{"name": "a", "item": {"ok": 1}}"#] {
        let mut g = Glide::new(&verdict, 128);
        assert!(!(g.push(wrong.as_bytes(), &verdict, validator) && g.end(&verdict, validator)), "{wrong}");
    }
}

/// The edges of the top levels: containers opening below the second level, values ending at it.
#[test]
fn tells_the_edges_of_the_top_levels() {
    let contract = Contract::compile(&serde_json::json!({}), &Options::default()).unwrap();
    let validator = contract.validator();
    let verdict = Verdict::compile(validator).unwrap();
    let text = r#"{"a": [1, {"b": [2]}], "c": 10}"#;
    let mut g = Glide::new(&verdict, 128);
    g.track_edges();
    assert!(g.push(text.as_bytes(), &verdict, validator));
    assert!(g.end(&verdict, validator));
    let edges: Vec<Edge> = g.take_edges().collect();
    assert_eq!(
        edges,
        vec![
            Edge::Open { array: false, at: 0 },
            Edge::Open { array: true, at: 6 },
            Edge::End { depth: 2, container: false, end: 8 },
            Edge::End { depth: 2, container: true, end: 20 },
            Edge::End { depth: 1, container: true, end: 21 },
            Edge::End { depth: 1, container: false, end: 30 },
            Edge::End { depth: 0, container: true, end: 31 },
        ]
    );
}
