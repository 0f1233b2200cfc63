//! The tokens of JSON text, read the one way every reader of the crate reads them: the
//! incremental parser (`partial`, a byte at a time), the one-pass verdict (`check::verdict`,
//! over the whole text) and the source map (`sourcemap`). Whitespace, string escapes (with
//! `\u` surrogate pairs), numbers and literals are defined here once, so that the readers cannot
//! disagree on what a token is or what a string holds.
//!
//! The small functions are `#[inline]`: the verdict calls them for every token of a valid
//! output, and a call per token costs as much as the token's own work.

/// Whether `b` is JSON whitespace.
#[inline]
pub fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The length of the run of whitespace at the start of `bytes`: an indented output's line break
/// and indentation, its spaces eight at a time.
#[inline]
pub fn ws_run(bytes: &[u8]) -> usize {
    const SPACES: u64 = 0x2020_2020_2020_2020;
    let mut n = 0;
    loop {
        while bytes.get(n).is_some_and(|&b| matches!(b, b'\n' | b'\r' | b'\t')) {
            n += 1;
        }
        let Some(word) = bytes.get(n..n + 8) else {
            return n + bytes.get(n..).unwrap_or_default().iter().take_while(|&&b| is_ws(b)).count();
        };
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        // The lowest byte that is not a space is the lowest nonzero byte of the difference.
        let others = u64::from_le_bytes(w) ^ SPACES;
        if others == 0 {
            n += 8;
            continue;
        }
        n += (others.trailing_zeros() / 8) as usize;
        if !bytes.get(n).is_some_and(|&b| matches!(b, b'\n' | b'\r' | b'\t')) {
            return n;
        }
    }
}

/// The first position at or after `pos` that is not whitespace.
#[inline]
pub fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(|&b| is_ws(b)) {
        pos += 1;
    }
    pos
}

/// The length of the run of bytes at the start of `bytes` that a JSON string holds as they are
/// (no quote, backslash or control character), eight bytes per step: the string scan is most of
/// the verdict's time, a byte-at-a-time loop costing several instructions per byte.
#[inline]
pub fn plain_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The lowest flagged byte is exact (borrows only flag bytes above a true hit).
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGHS;
    let mut n = 0;
    for chunk in bytes.chunks_exact(8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let hits = below(x ^ (ONES * u64::from(b'"')), 1) | below(x ^ (ONES * u64::from(b'\\')), 1) | below(x, 0x20);
        if hits != 0 {
            return n + (hits.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    // The last bytes, fewer than a word (all of a short chunk's), one table look-up each.
    let tail = bytes.get(n..).unwrap_or_default();
    n + tail.iter().position(|&b| STOPS_RUN.get(usize::from(b)).copied().unwrap_or(true)).unwrap_or(tail.len())
}

/// Whether a byte ends a plain run (quote, backslash, control character), by its value.
static STOPS_RUN: [bool; 256] = {
    let mut table = [false; 256];
    let mut rest: &mut [bool] = &mut table;
    let mut b = 0;
    while let Some((stops, others)) = rest.split_first_mut() {
        *stops = b < 0x20 || b == b'"' as u32 || b == b'\\' as u32;
        rest = others;
        b += 1;
    }
    table
};

/// The byte a one-character escape stands for, given the character after the backslash
/// (`n` → line feed); `None` for `u` (see `hex_digit`) and for what is no escape.
#[inline]
pub fn short_escape(c: u8) -> Option<u8> {
    Some(match c {
        b'"' => b'"',
        b'\\' => b'\\',
        b'/' => b'/',
        b'b' => 0x08,
        b'f' => 0x0c,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        _ => return None,
    })
}

/// The value of one hex digit of a `\u` escape.
#[inline]
pub fn hex_digit(b: u8) -> Option<u32> {
    (b as char).to_digit(16)
}

/// The code unit of the four hex digits at the start of `bytes` (a `\u` escape's, no sign).
#[inline]
fn hex4(bytes: &[u8]) -> Option<u32> {
    let digits = bytes.get(..4)?;
    digits.iter().try_fold(0u32, |code, &b| Some(code * 16 + hex_digit(b)?))
}

/// What a complete `\u` code unit means next to the one before it, if that was a high surrogate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A character of its own, or the pair's character: the code point.
    Char(u32),
    /// A high surrogate: a `\u` low surrogate must follow.
    High(u32),
    /// A low surrogate without its high one, or a high one followed by no low one.
    Lone,
}

/// The meaning of code unit `code` after `high` (the pending high surrogate, if any).
#[inline]
pub fn code_unit(high: Option<u32>, code: u32) -> Unit {
    match (high, code) {
        (None, 0xD800..=0xDBFF) => Unit::High(code),
        (None, 0xDC00..=0xDFFF) => Unit::Lone,
        (None, c) => Unit::Char(c),
        (Some(h), 0xDC00..=0xDFFF) => Unit::Char(0x10000 + ((h - 0xD800) << 10) + (code - 0xDC00)),
        (Some(_), _) => Unit::Lone,
    }
}

/// Reads the `\u` escape whose backslash is at `p`, with its low surrogate when it is a high
/// one: the code point and the position past the escape(s). `None` on a malformed escape or a
/// lone surrogate (not JSON text serde_json or the parser accepts).
#[inline]
fn unicode_escape(bytes: &[u8], p: usize) -> Option<(u32, usize)> {
    let code = hex4(bytes.get(p + 2..)?)?;
    match code_unit(None, code) {
        Unit::Char(c) => Some((c, p + 6)),
        Unit::High(high) => {
            if bytes.get(p + 6..p + 8)? != b"\\u" {
                return None;
            }
            match code_unit(Some(high), hex4(bytes.get(p + 8..)?)?) {
                Unit::Char(c) => Some((c, p + 12)),
                _ => None,
            }
        }
        Unit::Lone => None,
    }
}

/// The end of the string token at `pos` (past its closing quote), and whether it holds an
/// escape. `None` when no whole, valid JSON string starts there: none at all, one unclosed, with
/// a raw control character, an unknown escape, a malformed `\u` or a lone surrogate.
#[inline]
pub fn string_end(bytes: &[u8], pos: usize) -> Option<(usize, bool)> {
    if bytes.get(pos) != Some(&b'"') {
        return None;
    }
    let mut p = pos + 1;
    let mut escaped = false;
    loop {
        p += plain_run(bytes.get(p..)?);
        match *bytes.get(p)? {
            b'"' => return Some((p + 1, escaped)),
            b'\\' => {
                escaped = true;
                let c = *bytes.get(p + 1)?;
                if short_escape(c).is_some() {
                    p += 2;
                } else if c == b'u' {
                    p = unicode_escape(bytes, p)?.1;
                } else {
                    return None;
                }
            }
            // A control character: anything else stops no plain run.
            _ => return None,
        }
    }
}

/// The content of a string token (between its quotes) that `string_end` accepted, its escapes
/// decoded into `out` (cleared first). `None` on what `string_end` refuses.
pub fn unescape(raw: &str, out: &mut String) -> Option<()> {
    out.clear();
    let bytes = raw.as_bytes();
    let mut start = 0;
    let mut p = 0;
    while let Some(at) = bytes.get(p..)?.iter().position(|&b| b == b'\\') {
        let at = p + at;
        out.push_str(raw.get(start..at)?);
        let c = *bytes.get(at + 1)?;
        if let Some(b) = short_escape(c) {
            out.push(char::from(b));
            p = at + 2;
        } else if c == b'u' {
            let (code, next) = unicode_escape(bytes, at)?;
            out.push(char::from_u32(code)?);
            p = next;
        } else {
            return None;
        }
        start = p;
    }
    out.push_str(raw.get(start..)?);
    Some(())
}

/// The length of the JSON number at the start of `bytes` (`-? (0 | [1-9][0-9]*) (. [0-9]+)?
/// ([eE] [+-]? [0-9]+)?`) and whether it is written as an integer (no fraction, no exponent).
/// `None` when no number starts there, or one starts that no byte can end well: `-`, `01`,
/// `1.`, `1e+`.
#[inline]
pub fn number_len(bytes: &[u8]) -> Option<(usize, bool)> {
    let at = |i: usize| bytes.get(i).copied();
    let digits = |mut p: usize| {
        let start = p;
        while matches!(at(p), Some(b'0'..=b'9')) {
            p += 1;
        }
        (p, p - start)
    };
    let mut p = usize::from(at(0) == Some(b'-'));
    let (after, n) = digits(p);
    if n == 0 || (n > 1 && at(p) == Some(b'0')) {
        return None;
    }
    p = after;
    let mut integral = true;
    if at(p) == Some(b'.') {
        let (after, n) = digits(p + 1);
        if n == 0 {
            return None;
        }
        p = after;
        integral = false;
    }
    if matches!(at(p), Some(b'e' | b'E')) {
        let q = p + 1 + usize::from(matches!(at(p + 1), Some(b'+' | b'-')));
        let (after, n) = digits(q);
        if n == 0 {
            return None;
        }
        p = after;
        integral = false;
    }
    Some((p, integral))
}

/// Whether the number `token` (one `number_len` read whole, `integral` as it said) is one a
/// parse into a `Value` holds: serde_json refuses a number out of a double's range. (An integer
/// of up to 18 digits always fits, and is not parsed here.)
#[inline]
pub fn fits_double(token: &[u8], integral: bool) -> bool {
    (integral && token.len() <= 18) || std::str::from_utf8(token).ok().and_then(|t| t.parse::<f64>().ok()).is_some_and(f64::is_finite)
}

/// Whether `bytes` is one JSON number, whole.
#[inline]
pub fn is_number(bytes: &[u8]) -> bool {
    number_len(bytes).is_some_and(|(n, _)| n == bytes.len())
}

/// Whether `bytes` begins some JSON number: it is one, or a digit after it would make one
/// (`-`, `1.`, `2e`, `2e+`).
#[inline]
pub fn number_prefix(bytes: &[u8]) -> bool {
    let whole = |t: &[u8]| number_len(t).is_some_and(|(n, _)| n == t.len());
    let no_exponent = |t: &[u8]| whole(t) && !t.iter().any(|&c| matches!(c, b'e' | b'E'));
    match bytes.split_last() {
        None | Some((b'-', [])) => true,
        Some((b'.', head)) => number_len(head) == Some((head.len(), true)),
        Some((b'e' | b'E', head)) => no_exponent(head),
        Some((b'+' | b'-', head)) => matches!(head.split_last(), Some((b'e' | b'E', mantissa)) if no_exponent(mantissa)),
        _ => whole(bytes),
    }
}

/// The literal (`true`, `false`, `null`) that starts with `first`.
#[inline]
pub fn literal_word(first: u8) -> Option<&'static [u8]> {
    match first {
        b't' => Some(b"true"),
        b'f' => Some(b"false"),
        b'n' => Some(b"null"),
        _ => None,
    }
}

/// The length of the literal at the start of `bytes`.
#[inline]
pub fn literal_len(bytes: &[u8]) -> Option<usize> {
    let word = literal_word(*bytes.first()?)?;
    bytes.starts_with(word).then_some(word.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_runs_end_at_the_first_other_byte() {
        for text in ["", " ", "\n    x", "\r\n\t  \t        \n                 }", "                ", "  \n  \n  ,", "a  "] {
            let expected = text.bytes().take_while(|&b| is_ws(b)).count();
            assert_eq!(ws_run(text.as_bytes()), expected, "{text:?}");
        }
    }

    #[test]
    fn number_prefixes_are_the_texts_a_digit_makes_numbers() {
        // Every text of up to five bytes over the bytes a number is written with.
        let alphabet = b"019-+.eE";
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=5 {
            let mut next = Vec::new();
            for t in texts.iter().filter(|t| t.len() == len - 1) {
                for &b in alphabet {
                    next.push([t.as_slice(), &[b]].concat());
                }
            }
            texts.extend(next);
        }
        for t in texts {
            let expected = is_number(&t) || is_number(&[t.as_slice(), b"0"].concat());
            assert_eq!(number_prefix(&t), expected, "{}", String::from_utf8_lossy(&t));
        }
    }

    #[test]
    fn plain_run_stops_at_the_first_quote_backslash_or_control_character() {
        for stop in [b'"', b'\\', b'\n', 0x00, 0x1f] {
            for at in 0..20 {
                let mut bytes = vec![b'a'; 24];
                bytes[at] = stop;
                bytes[at + 2] = b'"';
                assert_eq!(plain_run(&bytes), at, "stop {stop:#x} at {at}");
            }
        }
        assert_eq!(plain_run("é ok \u{7f} 😀".as_bytes()), "é ok \u{7f} 😀".len());
        assert_eq!(plain_run(b""), 0);
    }

    /// Strings and numbers as serde_json reads them: the same tokens accepted, the same
    /// content decoded, the same extent.
    #[test]
    fn strings_and_numbers_are_read_as_serde_json_reads_them() {
        let strings = [
            r#""""#, r#""plain""#, r#""a\"b\\c\/d\b\f\n\r\t""#, r#""\u00e9\ud83d\ude00x""#, r#""é😀""#, r#""\u0000""#,
            r#""\x""#, r#""\u12""#, r#""\u+123""#, r#""\ud800""#, r#""\ud800\u0041""#, r#""\udc00""#, r#""\ud83d\ude00"#,
            "\"a\nb\"", "\"open", r#""\"#,
        ];
        for token in strings {
            let serde = serde_json::from_str::<String>(token).ok();
            let ours = string_end(token.as_bytes(), 0).filter(|&(end, _)| end == token.len()).and_then(|(_, escaped)| {
                let mut out = String::new();
                unescape(&token[1..token.len() - 1], &mut out)?;
                assert_eq!(escaped, token.contains('\\'), "{token}");
                Some(out)
            });
            assert_eq!(ours, serde, "{token}");
        }
        let numbers = ["0", "-0", "12", "-1.5", "2.5e10", "1E+2", "3e-0", "01", "-", "1.", ".5", "1e", "1e+", "+1", "-01", "00"];
        for token in numbers {
            let serde = serde_json::from_str::<serde_json::Number>(token).is_ok();
            assert_eq!(is_number(token.as_bytes()), serde, "{token}");
            if serde {
                let integral = !token.contains(['.', 'e', 'E']);
                assert_eq!(number_len(format!("{token},").as_bytes()), Some((token.len(), integral)), "{token}");
            }
        }
        assert_eq!(literal_len(b"true,"), Some(4));
        assert_eq!(literal_len(b"fals"), None);
        assert_eq!(literal_len(b"null"), Some(4));
        assert_eq!(skip_ws(b" \t\r\n x", 0), 5);
    }
}
