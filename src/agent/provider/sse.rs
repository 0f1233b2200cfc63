//! A server-sent events decoder by the WHATWG event-stream rules (HTML, "Server-sent events",
//! parsing an event stream), fed bytes as they arrive: lines end in CRLF, LF or CR; a line
//! starting with `:` is a comment; `data:` lines of one event join with LF; a blank line
//! dispatches the event (an event without data is not dispatched); one leading byte order mark
//! is skipped; an event the stream ends inside is never dispatched.
//!
//! Chunks may split anything: a CRLF, a field name, a UTF-8 sequence. Each byte is looked at
//! once by the line scanner (`scanned` counts them), so a long stream in small chunks costs what
//! it costs in one chunk; an unfinished line is held until its terminator arrives.

/// One dispatched event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, or `message` when there was none.
    pub event: String,
    pub data: String,
    /// The last event ID seen so far in the stream (the `id:` field, kept across events).
    pub id: String,
}

const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

#[derive(Default)]
pub struct SseDecoder {
    /// The bytes of the line not yet ended.
    line: Vec<u8>,
    /// The last byte seen was a CR: an LF right after it ends nothing more.
    after_cr: bool,
    /// How many bytes of a leading byte order mark have been matched (3: past the stream's start).
    bom: usize,
    data: String,
    event: String,
    /// Whether a `data` field was seen since the last dispatch (the data buffer is not empty).
    has_data: bool,
    id: String,
    scanned: usize,
}

impl SseDecoder {
    pub fn new() -> Self {
        SseDecoder::default()
    }

    /// How many bytes the line scanner has looked at: the input's length, whatever the split.
    pub fn scanned(&self) -> usize {
        self.scanned
    }

    /// Whether an event was begun and not ended by a blank line (a stream cut inside it).
    pub fn pending(&self) -> bool {
        self.has_data || !self.line.is_empty()
    }

    /// Decodes `chunk`, appending every event it completes to `out`.
    pub fn push(&mut self, mut chunk: &[u8], out: &mut Vec<SseEvent>) {
        while self.bom < BOM.len() {
            let Some((&byte, rest)) = chunk.split_first() else { return };
            if BOM.get(self.bom) == Some(&byte) {
                self.bom += 1;
                self.scanned += 1;
                chunk = rest;
                continue;
            }
            // Not a byte order mark: what matched of one is text of the first line.
            let matched = BOM.get(..self.bom).unwrap_or_default();
            self.line.extend_from_slice(matched);
            self.bom = BOM.len();
        }
        while !chunk.is_empty() {
            if self.after_cr {
                self.after_cr = false;
                if let Some(rest) = chunk.strip_prefix(b"\n") {
                    self.scanned += 1;
                    chunk = rest;
                    continue;
                }
            }
            match chunk.iter().position(|&b| b == b'\n' || b == b'\r') {
                None => {
                    self.scanned += chunk.len();
                    self.line.extend_from_slice(chunk);
                    return;
                }
                Some(end) => {
                    self.scanned += end + 1;
                    let (text, rest) = chunk.split_at(end);
                    self.after_cr = rest.first() == Some(&b'\r');
                    chunk = rest.get(1..).unwrap_or_default();
                    if self.line.is_empty() {
                        self.line_ended(text, out);
                    } else {
                        let mut line = std::mem::take(&mut self.line);
                        line.extend_from_slice(text);
                        self.line_ended(&line, out);
                        line.clear();
                        self.line = line;
                    }
                }
            }
        }
    }

    fn line_ended(&mut self, line: &[u8], out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            return self.dispatch(out);
        }
        if line.first() == Some(&b':') {
            return;
        }
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let (name, rest) = line.split_at(colon);
                let value = rest.get(1..).unwrap_or_default();
                (name, value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        // Lines end on ASCII bytes, so a whole line holds whole characters: a sequence a chunk
        // cut was joined before this, and only bytes that are not UTF-8 become U+FFFD. (Checked
        // as UTF-8 first: the lossy reading goes a byte at a time, most of a line's cost.)
        let value = match std::str::from_utf8(value) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(value),
        };
        match name {
            b"data" => {
                // (With its line feed: one allocation for a line's data, not two.)
                self.data.reserve(value.len() + 1);
                self.data.push_str(&value);
                self.data.push('\n');
                self.has_data = true;
            }
            b"event" => self.event = value.into_owned(),
            // An ID with NUL is ignored, as the rules say.
            b"id" if !value.contains('\0') => self.id = value.into_owned(),
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        let event = std::mem::take(&mut self.event);
        if !self.has_data {
            return;
        }
        self.has_data = false;
        let mut data = std::mem::take(&mut self.data);
        data.pop();
        out.push(SseEvent { event: if event.is_empty() { "message".into() } else { event }, data, id: self.id.clone() });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[&[u8]]) -> Vec<(String, String)> {
        let mut d = SseDecoder::new();
        let mut out = Vec::new();
        for c in chunks {
            d.push(c, &mut out);
        }
        out.into_iter().map(|e| (e.event, e.data)).collect()
    }

    fn one(s: &str) -> Vec<(String, String)> {
        events(&[s.as_bytes()])
    }

    fn ev(event: &str, data: &str) -> (String, String) {
        (event.into(), data.into())
    }

    #[test]
    fn line_endings_comments_and_multi_line_data() {
        let text = ": comment\r\nevent: a\rdata: 1\ndata:2\r\n\r\ndata\n\ndata: x\n";
        assert_eq!(one(text), [ev("a", "1\n2"), ev("message", "")]);
    }

    #[test]
    fn an_event_without_data_is_not_dispatched_and_its_type_does_not_carry_over() {
        assert_eq!(one("event: ping\n\ndata: y\n\n"), [ev("message", "y")]);
    }

    #[test]
    fn a_leading_bom_is_skipped_once_even_split() {
        let bytes = b"\xEF\xBB\xBFdata: a\n\n";
        assert_eq!(events(&[&bytes[..1], &bytes[1..2], &bytes[2..]]), [ev("message", "a")]);
        // A broken mark is text of the first line: its field name is not `data`.
        assert_eq!(events(&[b"\xEF", b"\xBBdata: a\n\ndata: b\n\n"]), [ev("message", "b")]);
    }

    #[test]
    fn any_split_decodes_the_same_and_each_byte_is_scanned_once() {
        let text = "data: caf\u{e9} \u{1F600}\r\n\r\n: c\revent: e\rdata: b\r\r".as_bytes();
        let whole = events(&[text]);
        assert_eq!(whole, [ev("message", "caf\u{e9} \u{1F600}"), ev("e", "b")]);
        for i in 0..text.len() {
            for j in i..text.len() {
                let mut d = SseDecoder::new();
                let mut out = Vec::new();
                for part in [&text[..i], &text[i..j], &text[j..]] {
                    d.push(part, &mut out);
                }
                assert_eq!(out.into_iter().map(|e| (e.event, e.data)).collect::<Vec<_>>(), whole, "split at {i}, {j}");
                assert_eq!(d.scanned(), text.len());
            }
        }
    }

    #[test]
    fn an_unfinished_event_is_pending() {
        let mut d = SseDecoder::new();
        let mut out = Vec::new();
        d.push(b"data: a\n", &mut out);
        assert!(d.pending() && out.is_empty());
        d.push(b"\n", &mut out);
        assert!(!d.pending());
    }
}
