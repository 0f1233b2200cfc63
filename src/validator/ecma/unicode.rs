//! `\p{…}` and `\P{…}`: a property name, read loosely as UAX44-LM3 says (case, spaces, `_`, `-`
//! and an `is` prefix do not matter), to the sorted code point ranges build.rs generated.

include!(concat!(env!("OUT_DIR"), "/unicode_sets.rs"));

const GC: u8 = 0;
const SCRIPT: u8 = 1;
const BINARY: u8 = 2;

/// The ranges of `\p{body}`, `body` being what stands between the braces.
pub fn property(body: &str) -> Result<Vec<(u32, u32)>, String> {
    let unknown = || format!("\\p{{{body}}} names no Unicode property ECMA-262 patterns know");
    let set = match body.split_once('=') {
        Some((name, value)) => match normalise(name).as_str() {
            "gc" | "generalcategory" => lookup(value, GC),
            "sc" | "script" => lookup(value, SCRIPT),
            "scx" | "scriptextensions" => lookup(value, SCRIPT).map(|s| s + 1),
            _ => None,
        },
        // A lone name is a general category or a binary property; a script name alone is read
        // too, as the regex crate the library used before did.
        None => lookup(body, GC).or_else(|| lookup(body, BINARY)).or_else(|| lookup(body, SCRIPT)),
    };
    set.and_then(decode).ok_or_else(unknown)
}

fn normalise(name: &str) -> String {
    let mut out: String =
        name.chars().filter(|c| !matches!(c, ' ' | '_' | '-')).map(|c| c.to_ascii_lowercase()).collect();
    if out.starts_with("is") && out.len() > 2 {
        out.drain(..2);
    }
    out
}

fn lookup(name: &str, kind: u8) -> Option<usize> {
    let name = normalise(name);
    let index = NAMES.binary_search_by(|(a, k, _)| (*a, *k).cmp(&(name.as_str(), kind))).ok()?;
    NAMES.get(index).map(|&(_, _, set)| usize::from(set))
}

fn decode(set: usize) -> Option<Vec<(u32, u32)>> {
    // The sets made of others (a general category group, Assigned, Script=Unknown) are not
    // carried: worked out here, as regex-syntax built them for build.rs.
    if let Some((_, complemented, parts)) = DERIVED.iter().find(|(s, _, _)| usize::from(*s) == set) {
        let mut ranges = Vec::new();
        for part in *parts {
            ranges = union(&ranges, &ranges_at(SETS, STARTS, usize::from(*part))?);
        }
        return Some(if *complemented { negate(&ranges) } else { ranges });
    }
    ranges_at(SETS, STARTS, set)
}

/// Set `set` of `sets`, whose starts are `starts`.
fn ranges_at(sets: &[u8], starts: &[u32], set: usize) -> Option<Vec<(u32, u32)>> {
    let bytes = sets.get(*starts.get(set)? as usize..*starts.get(set + 1)? as usize)?;
    let mut ranges = Vec::new();
    let mut iter = bytes.iter();
    let mut next = 0u32;
    while let Some(gap) = leb(&mut iter) {
        let start = next.checked_add(gap)?;
        let end = start.checked_add(leb(&mut iter)?)?;
        ranges.push((start, end));
        next = end.checked_add(1)?;
    }
    Some(ranges)
}

/// The ranges of both (each sorted), sorted, with overlapping or adjacent ranges merged.
fn union(a: &[(u32, u32)], b: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.iter().peekable(), b.iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x <= y => a.next(),
            (Some(_), Some(_)) | (None, Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, None) => return out,
        };
        let Some(&(start, end)) = next else { return out };
        match out.last_mut() {
            Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
}

/// Every `char` that sorted, merged `ranges` leave out, as regex-syntax negates a class: the
/// surrogates, which no `char` is, are stepped over at a gap's ends.
fn negate(ranges: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let after = |c: u32| if c == 0xD7FF { 0xE000 } else { c.saturating_add(1) };
    let before = |c: u32| if c == 0xE000 { 0xD7FF } else { c.saturating_sub(1) };
    let (Some(first), Some(last)) = (ranges.first(), ranges.last()) else { return vec![(0, 0x10FFFF)] };
    let mut out = Vec::with_capacity(ranges.len() + 1);
    if first.0 > 0 {
        out.push((0, before(first.0)));
    }
    for pair in ranges.windows(2) {
        if let [x, y] = pair {
            let (from, to) = (after(x.1), before(y.0));
            out.push((from.min(to), from.max(to)));
        }
    }
    if last.1 < 0x10FFFF {
        out.push((after(last.1), 0x10FFFF));
    }
    out
}

fn leb(iter: &mut std::slice::Iter<'_, u8>) -> Option<u32> {
    let mut n = 0u32;
    for shift in (0..35).step_by(7) {
        let byte = *iter.next()?;
        n |= u32::from(byte & 0x7F) << shift;
        if byte & 0x80 == 0 {
            return Some(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(body: &str, c: char) -> bool {
        property(body).unwrap().iter().any(|&(s, e)| (s..=e).contains(&u32::from(c)))
    }

    /// Each set worked out from others is the set regex-syntax gave build.rs.
    #[test]
    fn derived_sets_are_the_generated_ones() {
        assert!(DERIVED.len() >= 9);
        for set in 0..STARTS.len() - 1 {
            assert_eq!(decode(set), ranges_at(FULL_SETS, FULL_STARTS, set), "set {set}");
        }
        assert!(SETS.len() < FULL_SETS.len());
    }

    #[test]
    fn names_are_read_loosely() {
        assert!(has("Letter", 'é') && has("L", 'é') && has("letter", 'é') && has("Is_Letter", 'é'));
        assert!(has("digit", '৪') && has("Nd", '৪') && has("gc=Decimal_Number", '৪'));
        assert!(has("Script=Greek", 'α') && has("sc=Grek", 'α') && !has("sc=Greek", 'a'));
        assert!(has("scx=Deva", '\u{0964}') && !has("sc=Deva", '\u{0964}'));
        assert!(has("Alphabetic", 'x') && has("White_Space", '\u{3000}') && has("Any", '\u{10FFFF}'));
        assert!(has("ASCII", '~') && !has("ASCII", '\u{80}'));
        // Script=Unknown is every code point no script has; a property without data is refused.
        assert!(has("sc=Unknown", '\u{378}') && has("scx=Zzzz", '\u{E0080}') && !has("sc=Unknown", 'a'));
        assert!(property("CWKCF").is_err());
        assert!(property("Bogus").is_err() && property("sc=Letter").is_err() && property("age=1.1").is_err());
    }
}
