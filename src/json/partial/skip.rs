//! Skipping what surrounds the value while streaming (the parser's `extract` mode): model
//! answers often wrap the JSON in a markdown fence or put prose around it. Before the first `{`
//! or `[`, bytes are skipped (prose, an opening ```json fence); after the value is complete,
//! everything is skipped (the closing fence, closing remarks). Each skipped stretch is reported
//! so nothing disappears silently.

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
}

impl Skipper {
    pub(super) fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Whether byte `b` at `offset` goes to the parser.
    pub(super) fn admit(&mut self, b: u8, before_root: bool, complete: bool, offset: usize) -> bool {
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
    while let Some(&b) = bytes.get(p) {
        match b {
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
            b'"' => loop {
                p += 1;
                p += crate::json::lex::plain_run(bytes.get(p..)?);
                match bytes.get(p)? {
                    b'"' => break,
                    // The escaped byte is never the closing quote.
                    b'\\' => p += 1,
                    // A control byte (not JSON: the judge refuses the span).
                    _ => {}
                }
            },
            _ => {}
        }
        p += 1;
    }
    None
}
