//! ECMA-262 patterns from arbitrary bytes (the first line) matched against the rest and against
//! a few fixed texts: the library's own parser and matchers never panic and always answer,
//! a match, no match or a spent budget; and every matcher that runs a pattern (the lazy DFA,
//! warm and fresh, the bounded matcher, the Pike VM) gives the same answer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use output_contract::internals::Pattern;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let (source, text) = input.split_once('\n').unwrap_or((&input, ""));
    let Ok(pattern) = Pattern::new(source) else { return };
    // A long text takes the Pike VM instead of the bounded matcher, and many DFA states.
    for t in [text, "", "a", "ab1 é🐲\u{2028}", source, &text.repeat(64)] {
        let answer = pattern.is_match(t).ok();
        for (matcher, other) in pattern.each_matcher(t) {
            if let (Some(a), Some(b)) = (answer, other) {
                assert_eq!(a, b, "{matcher} on {source:?} / {t:?}");
            }
        }
    }
});
