use super::*;
use serde_json::json;

fn parse_chunks(chunks: &[&[u8]]) -> Parser {
    let mut p = Parser::new(usize::MAX, 10_000, false);
    for c in chunks {
        p.push(c, &mut NoObserver);
    }
    p.end(&mut NoObserver);
    p
}

const DOCS: &[&str] = &[
    r#"{"summary": "ok", "approval": "approve", "comments": [{"file": "a.rs", "line": 3, "severity": "nitpick", "message": "x"}], "metrics": {"complexity_score": 2.5}}"#,
    r#"[1, -0, 2.5e10, -3E-2, 0.0, true, false, null, "", "a\"b\\c\/d\b\f\n\r\t", "\u00e9\ud83d\ude00", {}, [], [[]], {"": {"k": [{}]}}]"#,
    r#"  "héllo wörld 😀"  "#,
    "12345",
    "-0.5e+3",
    "true",
    "null",
    "{\"a\" : [ 1 , 2 ] , \"b\" : { } }",
    "{\"dup\": 1, \"dup\": 2}",
];

const BAD: &[&str] = &[
    "{\"a\": 1,}", "[1 2]", "{\"a\" 1}", "01", "1.", "-", "1e", "tru ", "nul", "\"\\x\"", "\"a\nb\"", "{a: 1}",
    "[1]]", "{} x", "\"\\ud800\"", "\"\\udc00x\"", "1e400", "[,]", "{,}", "+1", ".5",
];

#[test]
fn complete_documents_agree_with_serde_json() {
    for doc in DOCS {
        let p = parse_chunks(&[doc.as_bytes()]);
        let expected: Value = serde_json::from_str(doc).unwrap();
        assert_eq!(p.status(), &Status::Complete, "{doc}");
        assert_eq!(p.value(), Some(&expected), "{doc}");
    }
}

#[test]
fn invalid_documents_are_broken_or_incomplete_as_serde_json_says() {
    for doc in BAD {
        let p = parse_chunks(&[doc.as_bytes()]);
        let serde = serde_json::from_str::<Value>(doc);
        assert!(serde.is_err(), "{doc} is valid JSON");
        let eof = serde.as_ref().err().is_some_and(|e| e.is_eof());
        match p.status() {
            Status::Broken(_) => assert!(!eof, "{doc}: serde says EOF, parser says broken"),
            Status::Incomplete => assert!(eof, "{doc}: serde says syntax error, parser says incomplete"),
            other => panic!("{doc}: {other:?}"),
        }
    }
}

#[test]
fn every_prefix_is_incomplete_and_every_split_gives_the_same_value() {
    for doc in DOCS {
        let bytes = doc.as_bytes();
        let expected: Value = serde_json::from_str(doc).unwrap();
        let trimmed_len = doc.trim_end().len();
        for cut in 0..bytes.len() {
            let mut p = Parser::new(usize::MAX, 10_000, false);
            p.push(&bytes[..cut], &mut NoObserver);
            // A prefix of a valid document is never broken; it is complete only once the whole
            // value is there (a bare number is complete only at the end of input).
            match p.status() {
                Status::Incomplete => {}
                Status::Complete => assert!(cut >= trimmed_len || !doc.trim_start().starts_with(['{', '[', '"']), "{doc} complete at {cut}"),
                other => panic!("{doc}: prefix {cut} is {other:?}"),
            }
            p.push(&bytes[cut..], &mut NoObserver);
            p.end(&mut NoObserver);
            assert_eq!(p.value(), Some(&expected), "{doc} split at {cut}");
        }
    }
}

#[test]
fn byte_by_byte_splits_utf8_and_escapes() {
    let doc = r#"{"é": "😀\u00e9\ud83d\ude00", "n": [1.5]}"#;
    let chunks: Vec<&[u8]> = doc.as_bytes().chunks(1).collect();
    let p = parse_chunks(&chunks);
    assert_eq!(p.value(), Some(&serde_json::from_str::<Value>(doc).unwrap()));
}

#[test]
fn partial_values_show_string_prefixes_and_leave_out_open_numbers() {
    let mut p = Parser::new(usize::MAX, 100, false);
    p.push(br#"{"a": "hel"#, &mut NoObserver);
    assert_eq!(p.partial(), Some(json!({"a": "hel"})));
    p.push(br#"lo", "n": 12"#, &mut NoObserver);
    assert_eq!(p.partial(), Some(json!({"a": "hello"})));
    p.push(br#"3, "list": [1, tr"#, &mut NoObserver);
    assert_eq!(p.partial(), Some(json!({"a": "hello", "n": 123, "list": [1]})));
    assert_eq!(p.path().to_jsonpath(), "$.list[1]");
    p.push(b"ue]}", &mut NoObserver);
    assert_eq!(p.status(), &Status::Complete);
}

#[test]
fn limits_are_states_not_crashes() {
    let mut p = Parser::new(usize::MAX, 3, false);
    p.push("[".repeat(100_000).as_bytes(), &mut NoObserver);
    assert_eq!(p.status(), &Status::Limit(LimitKind::Depth(3)));
    let mut p = Parser::new(4, 100, false);
    p.push(b"[1,2,3]", &mut NoObserver);
    assert_eq!(p.status(), &Status::Limit(LimitKind::Bytes(4)));
}

#[test]
fn broken_input_reports_where() {
    let p = parse_chunks(&[b"{\n  \"a\": tru,\n}"]);
    let Status::Broken(e) = p.status() else { panic!("{:?}", p.status()) };
    assert_eq!((e.at.line, e.at.column), (2, 11));
}

#[test]
fn extraction_skips_prose_and_fences() {
    let text = "Sure! Here is the review:\n```json\n{\"a\": [1, 2]}\n```\nLet me know.";
    let mut p = Parser::new(usize::MAX, 100, true);
    for chunk in text.as_bytes().chunks(3) {
        p.push(chunk, &mut NoObserver);
    }
    assert_eq!(p.status(), &Status::Complete);
    assert_eq!(p.value(), Some(&json!({"a": [1, 2]})));
    let places: Vec<&str> = p.skipped().iter().map(|s| s.place).collect();
    assert_eq!(places, vec!["before", "after"]);
    let before = &p.skipped()[0];
    assert_eq!(&text[before.start..before.end], "Sure! Here is the review:\n```json\n");
}
