//! `pattern`, `patternProperties` and `format: "regex"` speak ECMA-262 regular expressions in
//! Unicode mode. The library matches them itself: parse.rs reads the syntax, program.rs compiles
//! it; dfa.rs runs patterns without lookaround or backreferences from a lazily built DFA, with
//! bounded.rs (short texts) and pike.rs (any text) behind it when its cache of states is full,
//! all in time linear in the text; backtrack.rs runs those with lookaround or backreferences,
//! within a budget of steps.
//! unicode.rs holds the `\p{…}` sets. A regex crate would bring its own syntax (translated
//! before), engines and Unicode tables: they were most of the WebAssembly module's size.

mod backtrack;
mod bounded;
mod class;
mod dfa;
mod gate;
mod parse;
mod pike;
mod program;
mod unicode;

pub(crate) use gate::linear_in_js;

/// How many steps (instructions run) a lookaround or backreference pattern may take on one string.
/// About 30 ms natively and up to 160 ms in the package at worst (SECURITY.md).
const STEP_LIMIT: usize = 4_000_000;

#[derive(Debug)]
pub struct Pattern {
    program: program::Program,
    backtracking: bool,
    dfa: Option<dfa::Dfa>,
    /// The matchers' memory, kept between calls: a pattern is matched once per string value.
    scratch: std::sync::Mutex<Scratch>,
}

#[derive(Debug, Default)]
struct Scratch {
    dfa: dfa::Cache,
    bounded: bounded::Scratch,
    pike: pike::Scratch,
}

/// Why a string could not be matched: the pattern needed more backtracking than allowed.
#[derive(Debug)]
pub struct Backtracked;

impl Pattern {
    pub fn new(source: &str) -> Result<Pattern, String> {
        let parsed = parse::parse(source)?;
        let backtracking = parsed.needs_backtracking;
        let program = program::compile(&parsed.node, parsed.groups, backtracking)?;
        let dfa = if backtracking { None } else { dfa::Dfa::new(&program) };
        Ok(Pattern { program, backtracking, dfa, scratch: std::sync::Mutex::default() })
    }

    /// Whether the pattern matches somewhere in `text` (JSON Schema patterns are not anchored).
    pub fn is_match(&self, text: &str) -> Result<bool, Backtracked> {
        if self.backtracking {
            backtrack::is_match(&self.program, text, STEP_LIMIT)
        } else {
            // Another thread using the scratch (natively) gets its own.
            let mut own = None;
            let mut guard = self.scratch.try_lock();
            let scratch = match guard.as_deref_mut() {
                Ok(scratch) => scratch,
                Err(_) => own.insert(Scratch::default()),
            };
            let program = &self.program;
            let answer = self.dfa.as_ref().and_then(|dfa| dfa.is_match(program, &mut scratch.dfa, text));
            let answer = answer.or_else(|| bounded::is_match(program, text, &mut scratch.bounded));
            Ok(answer.unwrap_or_else(|| pike::is_match(program, text, &mut scratch.pike)))
        }
    }

    /// Each matcher's own answer on `text`, for differential testing (the fuzz target): the DFA
    /// (with the pattern's cache, then a fresh one), the bounded matcher, the Pike VM; None where
    /// a matcher does not run the pattern or the text. Patterns with lookaround or backreferences
    /// give the backtracking matcher's answer alone.
    #[doc(hidden)]
    pub fn each_matcher(&self, text: &str) -> Vec<(&'static str, Option<bool>)> {
        let program = &self.program;
        if self.backtracking {
            return vec![("backtrack", backtrack::is_match(program, text, STEP_LIMIT).ok())];
        }
        let mut fresh = Scratch::default();
        let kept = match (self.dfa.as_ref(), self.scratch.try_lock()) {
            (Some(dfa), Ok(mut scratch)) => dfa.is_match(program, &mut scratch.dfa, text),
            _ => None,
        };
        vec![
            ("dfa", kept),
            ("fresh dfa", self.dfa.as_ref().and_then(|dfa| dfa.is_match(program, &mut fresh.dfa, text))),
            ("bounded", bounded::is_match(program, text, &mut fresh.bounded)),
            ("pike", Some(pike::is_match(program, text, &mut fresh.pike))),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four matchers agree on every pattern they can all run: random patterns over a few
    /// characters and assertions, on random texts.
    #[test]
    fn the_matchers_agree() {
        let mut seed = 0x853C_49E6_748F_EA9Bu64;
        let mut below = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let atoms = ["a", "b", "é", ".", "[ab]", "[^a]", r"\w", r"\s", "^", "$", r"\b", r"\B", "(?:a|)", "(a*)", "()"];
        let quantifiers = ["", "", "*", "+", "?", "{1,2}", "*?", "{0,}", "{2}"];
        for _ in 0..3_000 {
            let mut source = String::new();
            for _ in 0..1 + below(6) {
                let atom = atoms[below(atoms.len())];
                source.push_str(atom);
                if !matches!(atom, "^" | "$" | r"\b" | r"\B") {
                    source.push_str(quantifiers[below(quantifiers.len())]);
                }
                if below(5) == 0 {
                    source.push('|');
                }
            }
            let Ok(parsed) = parse::parse(&source) else { continue };
            let Ok(plain) = program::compile(&parsed.node, parsed.groups, false) else { continue };
            let Ok(marked) = program::compile(&parsed.node, parsed.groups, true) else { continue };
            let dfa = dfa::Dfa::new(&plain);
            assert!(dfa.is_some(), "{source:?} has a DFA");
            let mut cache = dfa::Cache::default();
            for _ in 0..10 {
                let text: String = (0..below(7)).map(|_| ["a", "b", "é", " ", "\n"][below(5)]).collect();
                let pike = pike::is_match(&plain, &text, &mut pike::Scratch::default());
                let bounded = bounded::is_match(&plain, &text, &mut bounded::Scratch::default());
                let backtracked = backtrack::is_match(&marked, &text, STEP_LIMIT).ok();
                let dfa = dfa.as_ref().and_then(|d| d.is_match(&plain, &mut cache, &text));
                assert_eq!((bounded, backtracked, dfa), (Some(pike), Some(pike), Some(pike)), "{source:?} on {text:?}");
            }
        }
    }

    fn matches(p: &str, s: &str) -> bool {
        matches!(Pattern::new(p).ok().map(|p| p.is_match(s)), Some(Ok(true)))
    }

    #[test]
    fn ecma_meanings() {
        assert!(!matches(r"^\d$", "৪"));
        assert!(matches(r"^\s$", "\u{FEFF}"));
        assert!(!matches(r"^\w$", "é"));
        assert!(!matches("^.$", "\r"));
        assert!(matches("^[^]$", "\n"));
        assert!(!matches("[]", "a"));
        assert!(matches(r"^\cJ$", "\n"));
        assert!(matches(r"^\uD83D\uDC32$", "🐲"));
        assert!(matches(r"^\p{Letter}+$", "héllo"));
        assert!(matches(r"^(?!foo)\w+$", "bar"));
        assert!(!matches(r"^(?!foo)\w+$", "foobar"));
        assert!(matches(r"^(a)\1$", "aa"));
        assert!(matches(r"^[\w-]+$", "a-b"));
        assert!(matches(r"^[[a]+$", "[a"));
        assert!(Pattern::new(r"\a").is_err());
        assert!(Pattern::new("^(abc]").is_err());
    }
}
