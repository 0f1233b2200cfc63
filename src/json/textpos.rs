//! Positions in text as editors and JavaScript count them. The core works in UTF-8 byte offsets;
//! JavaScript strings and editors (CodeMirror, Monaco) count UTF-16 code units, and people read
//! 1-based lines and columns. This module converts between them, without panicking on offsets
//! that fall outside the text or inside a character; and it counts lines as a reader goes
//! (`LineCounter`) in the byte columns that serde_json's errors use, which `LineIndex` reads back.

/// Where a byte is: 0-based byte offset, 1-based line and column (columns count bytes, as
/// serde_json's errors do).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Position {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

/// The position after the bytes read so far, for a reader that reads a text from its start in
/// pieces (the incremental parser): `pos` is where the last byte read is.
#[derive(Clone, Copy, Debug)]
pub struct LineCounter {
    pub pos: Position,
    /// The column of the last line break read (its line's length plus one).
    break_column: usize,
}

impl Default for LineCounter {
    fn default() -> Self {
        LineCounter { pos: Position { offset: 0, line: 1, column: 0 }, break_column: 0 }
    }
}

impl LineCounter {
    /// One byte read.
    #[inline]
    pub fn byte(&mut self, b: u8) {
        self.pos.offset += 1;
        if b == b'\n' {
            self.break_column = self.pos.column + 1;
            self.pos.line += 1;
            self.pos.column = 0;
        } else {
            self.pos.column += 1;
        }
    }

    /// `bytes` read, their lines counted a line at a time.
    pub fn read(&mut self, bytes: &[u8]) {
        let mut line = bytes;
        while let Some(k) = line.iter().position(|&c| c == b'\n') {
            self.pos.offset += k;
            self.pos.column += k;
            self.byte(b'\n');
            line = line.get(k + 1..).unwrap_or_default();
        }
        self.pos.offset += line.len();
        self.pos.column += line.len();
    }

    /// Where the byte just read is, to report a fault at it: a line break ends its line, where
    /// serde_json's convention would name column 0 of the next.
    pub fn last_byte(&self) -> Position {
        let mut at = self.pos;
        if at.column == 0 && at.line > 1 {
            at.line -= 1;
            at.column = self.break_column;
        }
        at
    }
}

/// A place in a text: byte offset (UTF-8), and the same place as JavaScript counts it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TextPos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in UTF-16 code units from the start of the line.
    pub column: usize,
    /// 0-based offset in UTF-16 code units from the start of the text.
    pub offset: usize,
}

/// A span of text as `TextPos`es, end exclusive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Range {
    pub start: TextPos,
    pub end: TextPos,
}

/// Line starts of a text, so many offsets can be converted cheaply.
pub struct LineIndex<'t> {
    text: &'t str,
    /// Byte offset where each line starts.
    starts: Vec<usize>,
    /// UTF-16 offset where each line starts.
    starts16: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    pub fn new(text: &'t str) -> Self {
        let mut starts = vec![0];
        let mut starts16 = vec![0];
        let mut units = 0usize;
        for (i, c) in text.char_indices() {
            units += c.len_utf16();
            if c == '\n' {
                starts.push(i + 1);
                starts16.push(units);
            }
        }
        LineIndex { text, starts, starts16 }
    }

    /// The position of byte offset `byte` (clamped to the text, moved back to a character start).
    pub fn pos(&self, byte: usize) -> TextPos {
        let mut byte = byte.min(self.text.len());
        while byte > 0 && !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= byte).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let start16 = self.starts16.get(line - 1).copied().unwrap_or(0);
        let column16: usize = self.text.get(start..byte).map_or(0, |s| s.chars().map(char::len_utf16).sum());
        TextPos { line, column: column16 + 1, offset: start16 + column16 }
    }

    /// The range of byte offsets `start..end`.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range { start: self.pos(start), end: self.pos(end) }
    }

    /// The byte offset of a 1-based line and a 1-based column counted in bytes (as serde_json
    /// reports errors), clamped to the text.
    pub fn byte_of_byte_column(&self, line: usize, column: usize) -> usize {
        let start = self.starts.get(line.saturating_sub(1)).copied().unwrap_or(self.text.len());
        (start + column.saturating_sub(1)).min(self.text.len())
    }
}

/// The UTF-16 offset of byte offset `byte` in `text`.
pub fn utf16_offset(text: &str, byte: usize) -> usize {
    let mut byte = byte.min(text.len());
    while byte > 0 && !text.is_char_boundary(byte) {
        byte -= 1;
    }
    text.get(..byte).map_or(0, |s| s.chars().map(char::len_utf16).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_one_based_lines() {
        let text = "ab\n€😀x\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.pos(0), TextPos { line: 1, column: 1, offset: 0 });
        assert_eq!(idx.pos(3), TextPos { line: 2, column: 1, offset: 3 });
        // '€' is 3 bytes and 1 unit, '😀' 4 bytes and 2 units.
        assert_eq!(idx.pos(10), TextPos { line: 2, column: 4, offset: 6 });
        assert_eq!(idx.pos(9), idx.pos(6), "inside a character: moved back to its start");
        assert_eq!(idx.pos(999).line, 3);
        assert_eq!(utf16_offset(text, 10), 6);
        assert_eq!(idx.byte_of_byte_column(2, 4), 6);
        assert_eq!(idx.byte_of_byte_column(9, 1), text.len());
    }

    #[test]
    fn counted_lines_read_back_to_their_bytes() {
        let text = "ab\n€x\n\ny";
        let (mut lines, idx) = (LineCounter::default(), LineIndex::new(text));
        for (i, b) in text.bytes().enumerate() {
            lines.byte(b);
            let at = lines.last_byte();
            assert_eq!(idx.byte_of_byte_column(at.line, at.column), i, "byte {i}");
            // Read at once, the same bytes end at the same place.
            let mut at_once = LineCounter::default();
            at_once.read(text.as_bytes().get(..=i).unwrap_or_default());
            assert_eq!((at_once.pos, at_once.last_byte()), (lines.pos, at), "byte {i}");
        }
    }
}
