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
