//! Which patterns a JavaScript tier may run on the runtime's own `RegExp(source, "u")`: those
//! whose syntax means the same there as here (a whitelist of escapes, no Unicode property
//! classes, whose tables differ between Unicode versions) and that a backtracking matcher runs
//! in time linear in the text. The library's matchers are linear for every pattern without
//! lookaround or backreferences; a backtracking engine is not, so the rest stay on ours.
//!
//! Linear here means deterministic: wherever the matcher chooses (between alternatives, or
//! between another iteration of a quantifier and what follows it), the characters each choice
//! can consume next are disjoint, and a quantified part cannot match the empty string. Then at
//! most one choice can go on consuming, and a failed one fails within a bounded number of steps,
//! so one attempt costs a constant per character. A search tries each start: the pattern must
//! either begin with `^` or match at most `MAX_WIDTH` characters.

use super::class::Class;
use super::parse::{parse, Assert, Ast};

/// Longer sources are refused, to bound the analysis (first sets are recomputed per level).
const MAX_SOURCE: usize = 512;
/// The widest match of a pattern not anchored at its start.
const MAX_WIDTH: u32 = 256;
/// The widest rest of the pattern a losing branch may try (at most 2^8 ways through it).
const MAX_TAIL: u32 = 8;

/// Whether `source` may run on the JavaScript engine's `RegExp` with the `u` flag (see above).
#[inline(never)]
pub fn linear_in_js(source: &str) -> bool {
    source.len() <= MAX_SOURCE
        && plain_syntax(source)
        && parse(source).is_ok_and(|p| !p.needs_backtracking && deterministic(&p.node, &Vec::new()) && (anchored(&p.node) || width(&p.node).is_some_and(|w| w <= MAX_WIDTH)))
}

/// Escapes outside the common subset (`\p{…}`, `\c`, `\k`, octal or surrogate escapes…) and named
/// groups are refused: only what both engines provably read the same is left.
#[inline(never)]
fn plain_syntax(source: &str) -> bool {
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('d' | 'D' | 'w' | 'W' | 's' | 'S' | 'b' | 'B' | 'n' | 'r' | 't' | 'f' | 'v' | 'x' | '{' | '}') => {}
                Some('^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '|' | '/' | '-') => {}
                // `\uXXXX` outside the surrogates (a pair written as two escapes is refused).
                Some('u') => {
                    if chars.peek().is_some_and(|h| matches!(h, 'd' | 'D')) {
                        return false;
                    }
                }
                _ => return false,
            },
            '(' if chars.peek() == Some(&'?') => {
                chars.next();
                if chars.next() != Some(':') {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

/// The characters `node` can consume first, and whether it can match without consuming.
#[inline(never)]
fn first(node: &Ast) -> (Class, bool) {
    match node {
        Ast::Class(c) => (c.clone(), false),
        Ast::Empty | Ast::Assert(_) | Ast::Look { .. } | Ast::Backref(_) => (Class::from_ranges(Vec::new()), true),
        Ast::Group { node, .. } => first(node),
        Ast::Repeat { node, min, .. } => {
            let (set, nullable) = first(node);
            (set, nullable || *min == 0)
        }
        Ast::Alt(list) => list.iter().fold((Class::from_ranges(Vec::new()), false), |(set, nullable), n| {
            let (s, e) = first(n);
            (union(&set, &s), nullable || e)
        }),
        Ast::Concat(list) => first_seq(list),
    }
}

#[inline(never)]
fn first_seq(list: &[Ast]) -> (Class, bool) {
    let mut set = Class::from_ranges(Vec::new());
    for n in list {
        let (s, e) = first(n);
        set = union(&set, &s);
        if !e {
            return (set, false);
        }
    }
    (set, true)
}

#[inline(never)]
fn union(a: &Class, b: &Class) -> Class {
    Class::from_ranges(a.ranges().chain(b.ranges()).collect())
}

#[inline(never)]
fn overlap(a: &Class, b: &Class) -> bool {
    a.ranges().any(|(s, e)| b.ranges().any(|(t, f)| s <= f && t <= e))
}

/// What may be consumed after a place: character sets, each with the widest rest of the pattern
/// once a character of it is taken there (None: no bound).
type Follow = Vec<(Class, Option<u32>)>;

/// Whether every choice in `node` is decided by the next character, or else its losing branch
/// ends within `MAX_TAIL` characters: a quantifier may stop where what follows begins alike
/// (`[\w.]+\.[a-z]{1,4}$`) when all that remains then is that short.
#[inline(never)]
fn deterministic(node: &Ast, follow: &Follow) -> bool {
    match node {
        Ast::Empty | Ast::Class(_) | Ast::Assert(_) => true,
        Ast::Look { .. } | Ast::Backref(_) => false,
        Ast::Group { node, .. } => deterministic(node, follow),
        Ast::Concat(list) => list.iter().enumerate().all(|(i, n)| deterministic(n, &after(list.get(i + 1..).unwrap_or_default(), follow))),
        // Words none of which begins another: at most one matches at any place.
        Ast::Alt(list) if prefix_free(list) => true,
        Ast::Alt(list) => {
            // What each alternative may consume next, through its end when it can be empty.
            let mut seen = Class::from_ranges(Vec::new());
            let all = follow.iter().fold(Class::from_ranges(Vec::new()), |a, (c, _)| union(&a, c));
            for n in list {
                let (s, e) = first(n);
                let next = if e { union(&s, &all) } else { s };
                if overlap(&seen, &next) || !deterministic(n, follow) {
                    return false;
                }
                seen = union(&seen, &next);
            }
            true
        }
        Ast::Repeat { node: body, min, max, .. } => {
            let (s, e) = first(body);
            let again = max.is_none_or(|m| m > 1);
            let choice = max.is_none_or(|m| m > *min);
            if e && (again || choice) {
                return false;
            }
            if choice && follow.iter().any(|(c, tail)| overlap(&s, c) && tail.is_none_or(|t| t > MAX_TAIL)) {
                return false;
            }
            let mut inner = follow.clone();
            if again {
                let tail = width(node).zip(longest(follow)).and_then(|(w, t)| w.checked_add(t));
                inner.push((s, tail));
            }
            deterministic(body, &inner)
        }
    }
}

/// The follow of what precedes `rest`, `follow` coming after `rest`.
#[inline(never)]
fn after(rest: &[Ast], follow: &Follow) -> Follow {
    let (s, e) = first_seq(rest);
    let tail = width_seq(rest).zip(longest(follow)).and_then(|(w, t)| w.checked_add(t));
    let mut out = vec![(s, tail)];
    if e {
        out.extend(follow.iter().cloned());
    }
    out
}

/// The widest of the rests in `follow` (0 at the pattern's end).
#[inline(never)]
fn longest(follow: &Follow) -> Option<u32> {
    follow.iter().try_fold(0, |a, (_, t)| t.map(|t| a.max(t)))
}

/// The characters of a literal word, or None.
#[inline(never)]
fn word(node: &Ast, out: &mut Vec<u32>) -> bool {
    match node {
        Ast::Class(c) => c.as_char().map(|c| out.push(u32::from(c))).is_some(),
        Ast::Concat(list) => list.iter().all(|n| word(n, out)),
        _ => false,
    }
}

#[inline(never)]
fn prefix_free(list: &[Ast]) -> bool {
    let mut words = Vec::new();
    for n in list {
        let mut w = Vec::new();
        if !word(n, &mut w) || w.is_empty() {
            return false;
        }
        words.push(w);
    }
    words.iter().enumerate().all(|(i, a)| words.iter().enumerate().all(|(j, b)| i == j || !b.starts_with(a)))
}

/// Whether every match must begin at the text's start.
#[inline(never)]
fn anchored(node: &Ast) -> bool {
    match node {
        Ast::Assert(Assert::Start) => true,
        Ast::Concat(list) => list.first().is_some_and(anchored),
        Ast::Group { node, .. } => anchored(node),
        Ast::Alt(list) => list.iter().all(anchored),
        _ => false,
    }
}

/// The most characters `node` can match (None: no bound, or past `MAX_WIDTH`).
#[inline(never)]
fn width(node: &Ast) -> Option<u32> {
    let w = match node {
        Ast::Empty | Ast::Assert(_) | Ast::Look { .. } | Ast::Backref(_) => 0,
        Ast::Class(_) => 1,
        Ast::Group { node, .. } => width(node)?,
        Ast::Repeat { node, max, .. } => width(node)?.checked_mul((*max)?)?,
        Ast::Alt(list) => list.iter().map(width).try_fold(0, |a, w| w.map(|w| a.max(w)))?,
        Ast::Concat(list) => width_seq(list)?,
    };
    (w <= MAX_WIDTH).then_some(w)
}

#[inline(never)]
fn width_seq(list: &[Ast]) -> Option<u32> {
    list.iter().map(width).try_fold(0u32, |a, w| a.checked_add(w?)).filter(|w| *w <= MAX_WIDTH)
}

#[cfg(test)]
mod tests {
    use super::linear_in_js;

    #[test]
    fn deterministic_patterns_pass() {
        for p in [
            "^[a-z]+$",
            r"^\d{4}-\d{2}-\d{2}$",
            "^[a-z0-9]+(?:-[a-z0-9]+)*$",
            r"^[A-Z]{2,4}-\d+$",
            "^(foo|bar|baz)$",
            "^(?:get|post|put|patch)-[a-z]+$",
            r"^https?://\S+$",
            r"^v\d+\.\d+\.\d+$",
            r"\d{1,3}",
            "^x-",
            "a|b",
            "",
            "^é+ü$",
            r"^[\w.-]+@[a-z]+$",
            r"^\$[a-z_]*$",
            r"^(?:[A-Z][a-z]*)?$",
            r"^[\w.]+\.com$",
            r"^(?:[\w.]+/)+\.x$",
            r"^(src|lib|tests|docs)(/[A-Za-z0-9_.-]+)+\.[a-z]{1,4}$",
        ] {
            assert!(linear_in_js(p), "{p:?} passes");
        }
    }

    #[test]
    fn what_may_backtrack_or_differ_is_refused() {
        for (p, why) in [
            ("^(a+)+$", "nested quantifiers over the same characters"),
            ("^(a|a)*$", "alternatives that start alike, repeated"),
            ("^(a|ab)*c$", "alternatives that start alike"),
            ("^(ab|abc)d$", "a word that begins another"),
            ("^(a|a)(a|a)(a|a)(a|a)b$", "alternatives that both match, in sequence"),
            (r"^\d+\d+$", "adjacent quantifiers over overlapping sets"),
            (r"^\d+\.?\d*$", "a quantifier that may be followed by what it repeats"),
            ("^(a?)*$", "a repeated part that can be empty"),
            (r"^[\w.]+\.[a-z]+$", "an iteration or its exit on the same character, then no bound"),
            (r"^(?:a+b?)+c$", "an exit into another iteration"),
            (r"^\p{L}+$", "Unicode property tables may differ"),
            (r"^\cJ$", "an escape outside the common subset"),
            (r"^\uD83D\uDC32$", "a surrogate escape"),
            ("^(?<n>a)$", "a named group"),
            (r"^(a)\1$", "a backreference"),
            ("^(?=a)a$", "a lookaround"),
            ("[a-z]+x", "unanchored with no bound: each start may scan far"),
            (r"\d+$", "unanchored with no bound"),
            ("(", "not a pattern"),
        ] {
            assert!(!linear_in_js(p), "{p:?} is refused: {why}");
        }
        assert!(!linear_in_js(&"a".repeat(600)), "too long to analyze");
    }
}
