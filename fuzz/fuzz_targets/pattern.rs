//! ECMA-262 patterns from arbitrary bytes (the first line) matched against the rest and against
//! a few fixed texts: the library's own parser and matchers never panic and always answer,
//! a match, no match or a spent budget.
#![no_main]

use libfuzzer_sys::fuzz_target;
use output_contract::internals::Pattern;

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let (source, text) = input.split_once('\n').unwrap_or((&input, ""));
    let Ok(pattern) = Pattern::new(source) else { return };
    for t in [text, "", "a", "ab1 é🐲\u{2028}", source] {
        let _ = pattern.is_match(t);
    }
    // A long text takes the Pike VM instead of the bounded matcher.
    let _ = pattern.is_match(&text.repeat(64));
});
