//! Skipping what surrounds the value while streaming (the parser's `extract` mode): model
//! answers often wrap the JSON in a markdown fence or put prose around it. Before the first `{`
//! or `[`, bytes are skipped (prose, an opening ```json fence); after the value is complete,
//! everything is skipped (the closing fence, closing remarks). Each skipped stretch is reported
//! so nothing disappears silently.

use crate::json::textpos::LineCounter;

/// A stretch of the input that was not part of the JSON value.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    /// Byte offsets in the input, end exclusive.
    pub start: usize,
    pub end: usize,
    /// `"before"` the value or `"after"` it.
    pub place: &'static str,
}

#[derive(Default)]
pub(super) struct Skipper {
    skipped: Vec<Skipped>,
    /// The lines of every byte read, skipped or not (the parser keeps only the others).
    pub(super) lines: LineCounter,
}

impl Skipper {
    pub(super) fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Whether byte `b`, the next byte read, goes to the parser.
    pub(super) fn admit(&mut self, b: u8, before_root: bool, complete: bool) -> bool {
        let offset = self.lines.pos.offset;
        self.lines.byte(b);
        let place = if complete {
            "after"
        } else if before_root && b != b'{' && b != b'[' {
            "before"
        } else {
            return true;
        };
        match self.skipped.last_mut() {
            Some(last) if last.end == offset && last.place == place => last.end = offset + 1,
            _ => self.skipped.push(Skipped { start: offset, end: offset + 1, place }),
        }
        false
    }
}

/// The length of the container that `bytes` begins with (its first byte a bracket), when it is
/// whole there: found by its brackets and strings alone, nothing checked (whoever is handed the
/// span says whether it is JSON). `None` when it nests deeper than `max_nesting`, or is cut
/// short: then `open` holds the offsets of the brackets left open, the containers known to be
/// cut short too (asking again at each of them would read the rest of the input once per level).
pub(super) fn container_len(bytes: &[u8], max_nesting: usize, open: &mut Vec<usize>) -> Option<usize> {
    open.clear();
    let mut p = 0;
    loop {
        // Only quotes and brackets matter between strings: what lies between them (an indented
        // output's indentation, names' colons, numbers) is stepped over eight bytes at a time.
        p += unmarked_run(bytes.get(p..)?);
        match bytes.get(p)? {
            b'{' | b'[' => {
                open.push(p);
                if open.len() > max_nesting {
                    open.clear();
                    return None;
                }
            }
            b'}' | b']' => {
                open.pop();
                if open.is_empty() {
                    return Some(p + 1);
                }
            }
            // A string: only its quotes and backslashes matter (a control byte in it is not
            // JSON, which the judge of the span tells).
            _ => loop {
                p += 1;
                p += unquoted_run(bytes.get(p..)?);
                match bytes.get(p)? {
                    b'"' => break,
                    // The escaped byte is never the closing quote.
                    _ => p += 1,
                }
            },
        }
        p += 1;
    }
}

/// The length of the run at the start of `bytes` with no quote or backslash, eight bytes per
/// step.
#[inline]
fn unquoted_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The lowest flagged byte is exact (borrows only flag bytes above a true hit).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let mut n = 0;
    for chunk in bytes.chunks_exact(8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let hits = zero(x ^ (ONES * u64::from(b'"'))) | zero(x ^ (ONES * u64::from(b'\\')));
        if hits != 0 {
            return n + (hits.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + bytes.get(n..).unwrap_or_default().iter().take_while(|&&b| b != b'"' && b != b'\\').count()
}

/// The length of the run at the start of `bytes` with no quote or bracket, eight bytes per step
/// (as `unquoted_run`).
#[inline]
fn unmarked_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The lowest flagged byte is exact (borrows only flag bytes above a true hit).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let marked = |b: u8| matches!(b, b'"' | b'{' | b'[' | b'}' | b']');
    let mut n = 0;
    for chunk in bytes.chunks_exact(8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // `[` and `{` differ only in their 0x20 bit, and so do `]` and `}`.
        let folded = x | (ONES * 0x20);
        let hits = zero(x ^ (ONES * u64::from(b'"'))) | zero(folded ^ (ONES * u64::from(b'{'))) | zero(folded ^ (ONES * u64::from(b'}')));
        if hits != 0 {
            return n + (hits.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + bytes.get(n..).unwrap_or_default().iter().take_while(|&&b| !marked(b)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquoted_runs_stop_at_the_first_quote_or_backslash() {
        for stop in *b"\"\\" {
            for at in 0..20 {
                let mut bytes = vec![b'a'; 24];
                bytes[at] = stop;
                bytes[at + 2] = b'"';
                assert_eq!(unquoted_run(&bytes), at, "stop {stop:#x} at {at}");
            }
        }
        // Control bytes, brackets and non-ASCII text are run over.
        let plain = "a\x00\x1f\n{[]} é😀\x7f";
        assert_eq!(unquoted_run(plain.as_bytes()), plain.len());
        assert_eq!(unquoted_run(b""), 0);
    }

    /// `container_len` byte by byte, as the grammar of its brackets and strings says.
    fn reference(bytes: &[u8], max_nesting: usize, open: &mut Vec<usize>) -> Option<usize> {
        open.clear();
        let (mut in_string, mut escaped) = (false, false);
        for (p, &b) in bytes.iter().enumerate() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    in_string = false;
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => {
                    open.push(p);
                    if open.len() > max_nesting {
                        open.clear();
                        return None;
                    }
                }
                b'}' | b']' => {
                    open.pop();
                    if open.is_empty() {
                        return Some(p + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }

    #[test]
    fn container_lengths_agree_with_a_byte_by_byte_reading() {
        // Texts of the bytes that matter, their neighbours by one bit, and others.
        let alphabet = b"{}[]\"\\ a\n:,\x1b\x7f\xc3\xa9;]";
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut got, mut expected) = (Vec::new(), Vec::new());
        for round in 0..20_000 {
            let len = 1 + (next() % 48) as usize;
            let mut bytes: Vec<u8> = (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
            bytes[0] = if round % 2 == 0 { b'{' } else { b'[' };
            let nesting = 1 + (next() % 6) as usize;
            assert_eq!(container_len(&bytes, nesting, &mut got), reference(&bytes, nesting, &mut expected), "{:?}", String::from_utf8_lossy(&bytes));
            assert_eq!(got, expected, "{:?}", String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn unmarked_runs_stop_at_the_first_quote_or_bracket() {
        for stop in *b"\"{[}]" {
            for at in 0..20 {
                let mut bytes = vec![b' '; 24];
                bytes[at] = stop;
                bytes[at + 2] = b'"';
                assert_eq!(unmarked_run(&bytes), at, "stop {stop:#x} at {at}");
            }
        }
        // Bytes one bit from a bracket's, a backslash, and non-ASCII text are run over.
        let plain = "a;=KMkmz|_\\SU\x7f\x1b\x1d: 1.5e3, true, null é😀\n\t";
        assert_eq!(unmarked_run(plain.as_bytes()), plain.len());
        assert_eq!(unmarked_run(b""), 0);
    }
}
