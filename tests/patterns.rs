//! The library's ECMA-262 pattern matcher (src/validator/ecma) against the regex crates it
//! replaced, on random patterns of the syntax both read the same way, and on ECMA-262's own
//! meanings where they differ.

mod common;

use common::Rng;
use output_contract::internals::Pattern;

/// A random pattern over a few characters, in syntax ECMA-262 and the regex crate share
/// (ASCII text keeps `\d`, `\w`, `\s` and `\b` the same in both). `fancy` adds lookaround.
/// Backreferences are left to tests/js/patterns.test.mjs, which compares with V8 itself:
/// fancy-regex fails a reference to a group that captured nothing, ECMA-262 matches it empty.
fn pattern(rng: &mut Rng, depth: usize, fancy: bool) -> String {
    let atoms = ["a", "b", "c", ".", "[ab]", "[^a]", "[a-c]", "\\d", "\\w", "\\s", "\\W", "x", "1", " "];
    let mut out = String::new();
    for _ in 0..1 + rng.below(4) {
        let r = rng.below(if depth > 2 { 10 } else { 16 });
        match r {
            0..=9 => out.push_str(rng.pick::<&str>(&atoms)),
            10 | 11 => {
                out.push('(');
                out.push_str(&pattern(rng, depth + 1, fancy));
                out.push(')');
            }
            12 => {
                out.push_str("(?:");
                out.push_str(&pattern(rng, depth + 1, fancy));
                out.push('|');
                out.push_str(&pattern(rng, depth + 1, fancy));
                out.push(')');
            }
            13 => out.push_str(rng.pick::<&str>(&["^", "$", "\\b", "\\B"])),
            14 if fancy => {
                out.push_str(rng.pick::<&str>(&["(?=", "(?!", "(?<=", "(?<!"]));
                out.push_str(&pattern(rng, depth + 1, false));
                out.push(')');
            }
            _ => out.push_str(rng.pick::<&str>(&atoms)),
        }
        let ends_with_assertion = ["^", "$", "\\b", "\\B", ")"].iter().any(|a| out.ends_with(a)) && !out.ends_with("\\)");
        if !ends_with_assertion || out.ends_with(')') && !out.contains("(?") {
            match rng.below(12) {
                0 => out.push('*'),
                1 => out.push('+'),
                2 => out.push('?'),
                3 => out.push_str("{1,3}"),
                4 => out.push_str("*?"),
                5 => out.push_str("{2}"),
                6 => out.push_str("{0,}"),
                _ => {}
            }
        }
    }
    out
}

fn text(rng: &mut Rng) -> String {
    let pieces = ["a", "b", "c", "x", "1", " ", "\n", "é", "ab", "_"];
    (0..rng.below(9)).map(|_| *rng.pick(&pieces)).collect()
}

#[test]
fn regular_patterns_match_as_the_regex_crate_matches() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut compared = 0;
    for _ in 0..4_000 {
        let source = pattern(&mut rng, 0, false);
        // The regex crate's `.` and classes are Unicode too; only its `\d\w\s\b` differ, on
        // non-ASCII text, so those are compared on ASCII only.
        let Ok(theirs) = regex::Regex::new(&source) else { continue };
        let ours = Pattern::new(&source).unwrap_or_else(|e| panic!("{source}: {e}"));
        for _ in 0..8 {
            let mut t = text(&mut rng);
            if !t.is_ascii() && ["\\d", "\\w", "\\s", "\\W", "\\b", "\\B", "."].iter().any(|s| source.contains(s)) {
                t.retain(|c| c.is_ascii() && c != '\n');
            }
            if source.contains('.') {
                t.retain(|c| c != '\n');
            }
            assert_eq!(ours.is_match(&t).ok(), Some(theirs.is_match(&t)), "{source:?} on {t:?}");
            compared += 1;
        }
    }
    assert!(compared > 20_000, "only {compared} comparisons");
}

/// Long texts, where the DFA runs for many characters and the bounded matcher would not apply;
/// and patterns whose DFA needs more states than its cache holds, so that the cache is cleared,
/// the text matched by the Pike VM, and at last the DFA given up.
#[test]
fn long_texts_and_full_caches_match_as_the_regex_crate_matches() {
    let mut rng = Rng::new(0xD1B5_4A32_D192_ED03);
    for _ in 0..400 {
        let source = pattern(&mut rng, 0, false);
        let Ok(theirs) = regex::Regex::new(&source) else { continue };
        let ours = Pattern::new(&source).unwrap_or_else(|e| panic!("{source}: {e}"));
        for _ in 0..4 {
            let mut t: String = (0..40).map(|_| text(&mut rng)).collect();
            if ["\\d", "\\w", "\\s", "\\W", "\\b", "\\B", "."].iter().any(|s| source.contains(s)) {
                t.retain(|c| c.is_ascii() && c != '\n');
            }
            assert_eq!(ours.is_match(&t).ok(), Some(theirs.is_match(&t)), "{source:?} on {t:?}");
        }
    }
    for source in ["(?:a|b)*a(?:a|b){11}c", "a[ab]{9}b[ab]{5}$", "^(?:[ab]*a[ab]{12})+$", r"\ba[ab]{10}b\b"] {
        let theirs = regex::Regex::new(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        let ours = Pattern::new(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        for n in 0..60 {
            let mut t: String = (0..2_000 + n).map(|_| if rng.below(2) == 0 { 'a' } else { 'b' }).collect();
            if n % 3 == 0 {
                t.push('c');
            }
            if n % 5 == 0 {
                t.insert(rng.below(t.len()), ' ');
            }
            assert_eq!(ours.is_match(&t).ok(), Some(theirs.is_match(&t)), "{source:?} on text {n}");
        }
    }
}

#[test]
fn lookaround_matches_as_fancy_regex_matches() {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let mut compared = 0;
    for _ in 0..4_000 {
        let source = pattern(&mut rng, 0, true);
        let Ok(theirs) = fancy_regex::Regex::new(&source) else { continue };
        let Ok(ours) = Pattern::new(&source) else { continue };
        for _ in 0..8 {
            let mut t = text(&mut rng);
            t.retain(|c| c.is_ascii() && c != '\n');
            let Ok(want) = theirs.is_match(&t) else { continue };
            assert_eq!(ours.is_match(&t).ok(), Some(want), "{source:?} on {t:?}");
            compared += 1;
        }
    }
    assert!(compared > 10_000, "only {compared} comparisons");
}

fn matches(p: &str, s: &str) -> bool {
    matches!(Pattern::new(p).map(|p| p.is_match(s)), Ok(Ok(true)))
}

#[test]
fn ecma_meanings() {
    // Unicode properties, loosely named.
    assert!(matches(r"^\p{Letter}+$", "héllo") && !matches(r"^\p{L}+$", "h1"));
    assert!(matches(r"^\p{digit}+$", "৪২") && matches(r"^\P{Lu}$", "a") && !matches(r"^[\P{Lu}]$", "A"));
    assert!(matches(r"^\p{Script=Greek}+$", "αβγ") && matches(r"^\p{scx=Grek}$", "α"));
    assert!(matches(r"^[\p{Lu}\d]+$", "A1B") && !matches(r"^[^\p{Lu}\d]$", "A"));
    // ASCII \d, \w, \b; ECMA's \s; `.` and line terminators; `$` only at the very end.
    assert!(!matches(r"^\d$", "৪") && !matches(r"^\w$", "é") && matches(r"\bfoo", "éfoo"));
    assert!(matches(r"^\s$", "\u{FEFF}") && !matches(r"^\S$", "\u{2028}"));
    assert!(!matches("^.$", "\u{2028}") && matches("^.$", "🐲") && !matches("^a$", "a\n"));
    assert!(matches("^[^]$", "\n") && !matches("[]", "a") && matches("^[]?$", ""));
    // Escapes.
    assert!(matches(r"^\cJ\x41\u0042\u{43}\0$", "\nABC\0") && matches(r"^\uD83D\uDC32$", "🐲"));
    assert!(matches(r"^[\b]$", "\u{8}") && matches(r"^[\-a]+$", "-a-") && matches(r"^\/$", "/"));
    assert!(!matches(r"\uD800", "a"), "a lone surrogate matches no character of a Rust string");
    // Groups, lazy and counted repetitions, empty iterations.
    assert!(matches("^(?:ab){2,3}$", "ababab") && !matches("^(?:ab){2,3}$", "abababab"));
    assert!(matches("^a{0}$", "") && matches("^(a*)*$", "aaa") && matches("^(a|)+b$", "aab"));
    assert!(matches("^a{2,}?$", "aaaa") && matches("x{1,2}?y", "xxy"));
    // Lookaround (lookbehind of any length), backreferences, named groups.
    assert!(matches(r"^(?!foo)\w+$", "bar") && !matches(r"^(?!foo)\w+$", "foobar"));
    assert!(matches(r"(?<=a+)b", "aab") && !matches(r"(?<=^a+)b", "cb") && matches(r"(?<!x)y", "ay"));
    assert!(matches(r"^(a)\1$", "aa") && !matches(r"^(a)\1$", "ab") && matches(r"^(?<n>.)\k<n>$", "zz"));
    assert!(matches(r"^\1(a)$", "a"), "a reference before its group matches the empty string");
    assert!(matches(r"(?<=(\d+)x)\1", "12x12"), "captures inside a lookbehind");
    assert!(!matches(r"^(?=(a+))a*b\1$", "aaaba"), "a lookahead is atomic");
    assert!(matches(r"^(?=(a+?))\1b$", "ab"));
}

#[test]
fn syntax_errors_of_unicode_mode() {
    for bad in [
        r"\a", "^(abc]", "(", ")", "a{", "a}", "]", "*", "a**", "a{2,1}", r"\1", r"(a)\2", r"\k<x>", r"(?<n>a)(?<n>b)",
        r"(?i)a", "(?P<n>a)", r"[z-a]", r"[\d-z]", r"\p{Bogus}", r"\p{Greek", r"\u{110000}", r"\x4", r"\c1", "(?=a)*",
        r"^*", r"\b+", r"[\1]", r"\00", "a\\",
    ] {
        assert!(Pattern::new(bad).is_err(), "{bad:?} should be refused");
    }
    for good in [r"[\]]", r"\{\}", "a{2}", "a{2,}", "[-a]", "[a-]", r"\p{Lu}", r"\P{sc=Latn}", "(?<név>a)", "$^"] {
        assert!(Pattern::new(good).is_ok(), "{good:?} should be accepted");
    }
}

#[test]
fn pathological_patterns_stay_linear_or_give_up() {
    let long = format!("{}b", "a".repeat(20_000));
    // The Pike VM: no lookaround, so no backtracking at all.
    assert!(!matches("^(a+)+$", &long) && !matches("^(a|aa)*c$", &long) && matches("(a*)*b", &long));
    // Backreferences backtrack within a budget: past it the string is reported, not hung on.
    let p = Pattern::new(r"^(a+)+\1$").unwrap_or_else(|e| panic!("{e}"));
    assert!(p.is_match(&long).is_err());
    // Unrolled repetitions are bounded.
    assert!(Pattern::new("a{1000}{1000}").is_err() && Pattern::new("(?:){4000000000}").is_ok());
    let deep = format!("{}a{}", "(".repeat(300), ")".repeat(300));
    assert!(Pattern::new(&deep).is_err());
}

#[test]
fn a_pattern_that_gives_up_makes_the_failure_not_retryable() {
    use output_contract::{Contract, Options};
    let long = format!("{}b", "a".repeat(20_000));
    let pattern = r"^(a+)+\1$";
    // The value itself, and a property name (whose message wraps the pattern's).
    for (schema, output) in [
        (serde_json::json!({ "pattern": pattern }), serde_json::json!(long)),
        (serde_json::json!({ "propertyNames": { "pattern": pattern } }), serde_json::json!({ long.clone(): 1 })),
    ] {
        let contract = Contract::compile(&schema, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
        let error = contract.validate_text(&output.to_string()).expect_err("the pattern gives up");
        let messages: Vec<&str> = error.violations.iter().map(|v| v.message.as_str()).collect();
        assert!(messages.iter().all(|m| m.ends_with("backtracking limit exceeded")), "{messages:?}");
        assert!(!error.retryable, "{messages:?}");
    }
    // A value that merely quotes the words is an ordinary, retryable violation.
    let contract = Contract::compile(&serde_json::json!({ "type": "number" }), &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let error = contract.validate_text(r#""backtracking limit exceeded""#).expect_err("a string");
    assert!(error.retryable);
}
