use super::*;
use crate::test_rng::Rng;
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
fn whitespace_runs_keep_positions_and_limits() {
    // Runs of whitespace are consumed at once (Parser::push): positions after them, in one
    // piece or byte by byte, and the byte limit inside a run, are as byte-at-a-time reading.
    let text = b"{\r\n\t\"a\" :  [ 1 ,\n\n   2 ] ,\n   \"b\": x}";
    for pieces in [vec![&text[..]], text.chunks(1).collect::<Vec<_>>(), text.chunks(5).collect()] {
        let p = parse_chunks(&pieces);
        let Status::Broken(e) = p.status() else { panic!("{:?}", p.status()) };
        assert_eq!((e.at.line, e.at.column, e.at.offset), (5, 9, 36));
    }
    let mut p = Parser::new(6, 100, false);
    p.push(b"[1,          2]", &mut NoObserver);
    assert_eq!(p.status(), &Status::Limit(LimitKind::Bytes(6)));
    assert_eq!(p.bytes(), 6);
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

fn random_string(rng: &mut Rng) -> String {
    const PIECES: &[&str] = &["a", "Z", " ", "é", "😀", "\"", "\\", "\n", "\u{7}", "/", "中", "\u{2028}", "x", "0"];
    (0..rng.below(8)).map(|_| *rng.pick(PIECES)).collect()
}

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 3 { 5 } else { 7 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => json!(rng.next_u64() as i64 >> rng.below(60)),
        3 => json!((rng.below(100_000) as f64) / 7.0 - 5000.0),
        4 => Value::String(random_string(rng)),
        5 => Value::Array((0..rng.below(4)).map(|_| random_value(rng, depth + 1)).collect()),
        _ => Value::Object((0..rng.below(4)).map(|_| (random_string(rng), random_value(rng, depth + 1))).collect()),
    }
}

/// JSON text for `v` with random whitespace and random `\u` escapes of string characters.
fn write_random(rng: &mut Rng, v: &Value, out: &mut String) {
    let ws = |rng: &mut Rng, out: &mut String| {
        for _ in 0..rng.below(3) {
            out.push([' ', '\n', '\t', '\r'][rng.below(4)]);
        }
    };
    ws(rng, out);
    match v {
        Value::String(s) => {
            out.push('"');
            for c in s.chars() {
                let escaped = serde_json::to_string(&c.to_string()).unwrap_or_default();
                let inner = &escaped[1..escaped.len() - 1];
                if rng.below(3) == 0 {
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{:04x}", u));
                    }
                } else {
                    out.push_str(inner);
                }
            }
            out.push('"');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_random(rng, item, out);
            }
            ws(rng, out);
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_random(rng, &Value::String(k.clone()), out);
                ws(rng, out);
                out.push(':');
                write_random(rng, item, out);
            }
            ws(rng, out);
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
    ws(rng, out);
}

fn parse_random_chunks(rng: &mut Rng, bytes: &[u8]) -> Parser {
    let mut p = Parser::new(usize::MAX, 10_000, false);
    let mut i = 0;
    while i < bytes.len() {
        let n = rng.chunk(9);
        let end = (i + n).min(bytes.len());
        p.push(&bytes[i..end], &mut NoObserver);
        i = end;
    }
    p.end(&mut NoObserver);
    p
}

#[test]
fn property_random_documents_and_mutations_agree_with_serde_json() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let value = random_value(&mut rng, 0);
        let mut text = String::new();
        write_random(&mut rng, &value, &mut text);
        let mut bytes = text.into_bytes();
        if rng.below(2) == 0 && !bytes.is_empty() {
            // Mutate: delete, duplicate or replace a byte (may split UTF-8 or escapes).
            let at = rng.below(bytes.len());
            match rng.below(3) {
                0 => {
                    bytes.remove(at);
                }
                1 => {
                    let b = bytes[at];
                    bytes.insert(at, b);
                }
                _ => bytes[at] = b"{}[],:\"\\a1 -.e"[rng.below(14)],
            }
        }
        let p = parse_random_chunks(&mut rng, &bytes);
        let reference = serde_json::from_slice::<Value>(&bytes);
        match (&reference, p.status()) {
            (Ok(v), Status::Complete) => assert_eq!(p.value(), Some(v), "{}", String::from_utf8_lossy(&bytes)),
            (Err(e), Status::Incomplete) if e.is_eof() => {}
            (Err(e), Status::Broken(_)) if !e.is_eof() => {}
            (r, s) => panic!("{:?}: serde {r:?}, parser {s:?}", String::from_utf8_lossy(&bytes)),
        }
    }
}

#[test]
fn a_broken_number_is_reported_at_once() {
    for (text, broken) in [("--", true), ("01", true), ("-01", true), ("1..", true), ("1ee", true), ("1e+-", true), ("0.5e", false), ("-", false), ("1.", false), ("-0.25", false)] {
        let mut p = Parser::new(usize::MAX, 64, false);
        p.push(text.as_bytes(), &mut NoObserver);
        assert_eq!(matches!(p.status(), Status::Broken(_)), broken, "{text}: {:?}", p.status());
    }
}

/// Every prefix of the tokens the shared lexer reads (escapes with surrogate pairs, numbers,
/// literals), well and badly formed, alone and inside containers, pushed whole and byte by byte:
/// the parser is incomplete where serde_json runs out of input, broken where serde_json finds an
/// error, and a complete value is serde_json's value. One difference is allowed: in a document
/// serde_json refuses, the parser may tell the fault sooner (at a `\u` escape's bad digit,
/// where serde_json first reads four bytes).
#[test]
fn every_prefix_of_every_token_agrees_with_serde_json() {
    let strings = [
        r#""""#, r#""a\"b\\c\/d\b\f\n\r\t""#, r#""\u00e9\ud83d\ude00x""#, r#""é😀中""#, r#""\u0000\u001F""#, r#""\x""#, r#""\u12g4""#,
        r#""\ud800""#, r#""\ud800\u0041""#, r#""\ud800\ud800""#, r#""\udc00""#, r#""\ud83dx""#, "\"a\u{1}\"",
    ];
    let others = ["0", "-0", "12", "-1.5", "2.5e10", "1E+2", "3e-07", "01", "-01", "1.e3", "1e+-2", "--1", ".5", "+1", "true", "false", "null", "tru", "nulL", "fals3"];
    let mut docs = Vec::new();
    for token in strings.iter().chain(&others) {
        docs.push(token.to_string());
        docs.push(format!("[{token}, {token}]"));
        docs.push(format!("{{\"k\": {token}}}"));
    }
    for token in strings {
        docs.push(format!("{{{token}: 1}}"));
    }
    for doc in &docs {
        let bytes = doc.as_bytes();
        let refused = serde_json::from_slice::<Value>(bytes).is_err();
        for cut in 0..=bytes.len() {
            let prefix = &bytes[..cut];
            let whole = parse_chunks(&[prefix]);
            let chunks: Vec<&[u8]> = prefix.chunks(1).collect();
            let byte_by_byte = parse_chunks(&chunks);
            assert_eq!(whole.status(), byte_by_byte.status(), "{doc} cut at {cut}");
            let reference = serde_json::from_slice::<Value>(prefix);
            match (&reference, whole.status()) {
                (Ok(v), Status::Complete) => assert_eq!(whole.value(), Some(v), "{doc} cut at {cut}"),
                (Err(e), Status::Incomplete) if e.is_eof() => {}
                (Err(e), Status::Broken(_)) if !e.is_eof() || refused => {}
                (r, s) => panic!("{doc} cut at {cut}: serde {r:?}, parser {s:?}"),
            }
        }
    }
}

/// Records events as text; with `whole`, says yes to every container offered whole (what an
/// observer that judged it valid answers).
struct Recorder {
    whole: bool,
    log: Vec<String>,
}

impl Observer for Recorder {
    fn event(&mut self, event: Event<'_>, path: &InstancePath, at: usize) {
        let what = match event {
            Event::Begin(kind) => format!("begin {kind:?}"),
            Event::Key(k) => format!("key {k}"),
            Event::Repeated(k) => format!("repeated {k}"),
            Event::StringBytes(_) => return,
            Event::End(closed) => format!("end {:?} {}", closed.kind(), String::from_utf8_lossy(closed.text())),
        };
        self.log.push(format!("{} {what} {at}", path.to_pointer()));
    }

    fn may_judge_whole(&self, _: &InstancePath) -> bool {
        self.whole
    }

    fn judge_whole(&mut self, path: &InstancePath, _: &[u8]) -> bool {
        self.log.push(format!("whole {}", path.to_pointer()));
        self.whole
    }
}

#[test]
fn a_container_read_whole_ends_where_its_bytes_read_one_by_one_end() {
    let doc = "{\"a\": [1, {\"b\":\n [true, \"x\\\"]\"]}],\n \"c\": {\"d\": null}, \"e\": [[], {}], \"f\": \"long enough to look for the end\"}";
    let mut one = Recorder { whole: false, log: Vec::new() };
    let mut bytewise = Parser::new(usize::MAX, 100, false);
    for b in doc.as_bytes() {
        bytewise.push(std::slice::from_ref(b), &mut one);
    }
    let mut all = Recorder { whole: true, log: Vec::new() };
    let mut whole = Parser::new(usize::MAX, 100, false);
    whole.push(doc.as_bytes(), &mut all);
    assert_eq!(whole.status(), &Status::Complete);
    assert_eq!(whole.value(), bytewise.value());
    assert_eq!(whole.position(), bytewise.position());
    // Each value below the root is read whole: its `Begin` and `End` are the ones read byte by
    // byte, with nothing between them, at the same positions.
    let outside: Vec<&String> = one.log.iter().filter(|l| !l.contains("/a/") && !l.contains("/c key") && !l.contains("/c/") && !l.contains("/e/")).collect();
    let read: Vec<&String> = all.log.iter().filter(|l| !l.starts_with("whole")).collect();
    assert_eq!(read, outside);
    assert_eq!(all.log.iter().filter(|l| l.starts_with("whole")).count(), 3, "{:?}", all.log);
    // Cut short, it is read byte by byte; so is a container nested too deep to be read whole.
    let mut cut = Recorder { whole: true, log: Vec::new() };
    let mut p = Parser::new(usize::MAX, 100, false);
    p.push(&doc.as_bytes()[..20], &mut cut);
    assert!(cut.log.iter().all(|l| !l.starts_with("whole")), "{:?}", cut.log);
    let mut deep = Recorder { whole: true, log: Vec::new() };
    let mut p = Parser::new(usize::MAX, 2, false);
    p.push(b"{\"a\": [[1]], \"b\": \"long enough to look for the end\"}", &mut deep);
    assert_eq!(p.status(), &Status::Limit(LimitKind::Depth(2)));
    assert!(deep.log.iter().all(|l| !l.starts_with("whole")), "{:?}", deep.log);
}

#[test]
fn names_are_told_apart_by_what_they_decode_to() {
    struct Members(Vec<String>);
    impl Observer for Members {
        fn event(&mut self, event: Event<'_>, path: &InstancePath, _: usize) {
            match event {
                Event::Repeated(k) => self.0.push(format!("{} repeats {k}", path.to_pointer())),
                Event::End(closed) if closed.kind() == Kind::Object => {
                    for name in ["a", "b\"", "\\", "\\\\", "z", "é", "\\u0061"] {
                        if closed.has_member(name) {
                            self.0.push(format!("{} has {name}", path.to_pointer()));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let doc = r#"{"a": 1, "\u0061": 2, "b\"": 3, "b\u0022": 4, "c": {"\\": 1, "\\\\": 2, "\u00e9": 3, "é": 4}}"#;
    let expected = [" repeats a", " repeats b\"", "/c repeats é", "/c has \\", "/c has \\\\", "/c has é", " has a", " has b\""];
    for chunk in [1, 5, doc.len()] {
        let mut seen = Members(Vec::new());
        let mut p = Parser::new(usize::MAX, 100, false);
        for piece in doc.as_bytes().chunks(chunk) {
            p.push(piece, &mut seen);
        }
        assert_eq!(p.status(), &Status::Complete);
        assert_eq!(seen.0, expected, "chunks of {chunk}");
    }
}
