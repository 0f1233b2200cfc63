//! The library's pattern matcher natively, per character, against the regex crate on the same
//! common patterns and realistic strings (as bench/patterns.mjs measures against V8 in the
//! package). Prints a table of ns/char and ratios; fails nothing.
//!
//! `cargo bench --bench patterns`
use output_contract::internals::Pattern;
use std::hint::black_box;
use std::time::Instant;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn from(&mut self, n: usize, alphabet: &str) -> String {
        let chars: Vec<char> = alphabet.chars().collect();
        (0..n).map(|_| chars[self.below(chars.len())]).collect()
    }
}

const WORDS: &[&str] = &["src", "lib", "validator", "ecma", "parse", "node_modules", "v2", "index", "api", "docs"];
const NAMES: &[&str] = &["John", "Smith", "Émile", "Zola", "Ada", "Lovelace", "Grace", "Hopper", "Łukasz", "Nowak"];

fn strings(name: &str, rng: &mut Rng) -> Vec<String> {
    (0..500)
        .map(|_| match name {
            "path" => {
                let mut s = rng.pick(WORDS).to_string();
                while s.len() < 24 {
                    s.push_str(rng.pick(&["/", "_", "-", "."]));
                    s.push_str(rng.pick(WORDS));
                }
                s.chars().take(28).collect()
            }
            "empty" => rng.pick(WORDS).to_string(),
            "date" => format!("20{}-{}-{}", rng.from(2, "0123456789"), rng.from(2, "0123456789"), rng.from(2, "0123456789")),
            "ticket" => {
                let n = 2 + rng.below(5);
                format!("{}-{}", rng.from(3, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"), rng.from(n, "0123456789"))
            }
            "enum" => rng.pick(&["low", "medium", "high", "critical"]).to_string(),
            "names" => (0..2 + rng.below(2)).map(|_| rng.pick(NAMES)).collect::<Vec<_>>().join(" "),
            _ => {
                let alphabet = "abcdefghijklmnopqrstuvwxyz";
                let n = 4 + rng.below(6);
                let user = rng.from(n, alphabet);
                format!("contact {user}.{}@{}.{}", rng.from(5, alphabet), rng.from(6, alphabet), rng.pick(&["com", "org", "io"]))
            }
        })
        .collect()
}

/// Nanoseconds per character of matching every string, the best of five rounds.
fn time(strings: &[String], matches: impl Fn(&str) -> bool) -> f64 {
    let chars: usize = strings.iter().map(|s| s.chars().count()).sum();
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        let mut rounds = 0;
        while start.elapsed().as_millis() < 100 {
            for s in strings {
                assert!(matches(black_box(s)));
            }
            rounds += 1;
        }
        best = best.min(start.elapsed().as_nanos() as f64 / (rounds * chars) as f64);
    }
    best
}

fn main() {
    let cases = [
        // The floor: a pattern that matches at once, the cost of a call.
        ("empty", ""),
        ("path", "^[a-z0-9_./-]+$"),
        ("date", r"^\d{4}-\d{2}-\d{2}$"),
        ("ticket", "^[A-Z]{3}-[0-9]+$"),
        ("enum", "^(low|medium|high|critical)$"),
        ("names", r"^\p{Lu}\p{Ll}+( \p{Lu}\p{Ll}+)*$"),
        ("e-mail", r"[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}"),
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    println!("| case | pattern | ours ns/char | regex ns/char | ours / regex (time) |");
    println!("| --- | --- | --- | --- | --- |");
    for (name, source) in cases {
        let strings = strings(name, &mut rng);
        let ours = Pattern::new(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        let theirs = regex::Regex::new(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        let a = time(&strings, |s| matches!(ours.is_match(s), Ok(true)));
        let b = time(&strings, |s| theirs.is_match(s));
        println!("| {name} | `{source}` | {a:.2} | {b:.2} | {:.2}× |", a / b);
    }
}
