//! Sets of characters: sorted, disjoint code point ranges, with a bitmap for ASCII, which most
//! checked text is.

/// ECMA-262 white space and line terminators, as `\s` means them.
const SPACE: &[(u32, u32)] = &[
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
];
/// `\w` and `\d` are ASCII in ECMA-262 (without the `i` flag).
const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
/// `.` matches anything but a line terminator.
const LINE_TERMINATORS: &[(u32, u32)] = &[(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)];
const MAX: u32 = 0x10FFFF;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    ranges: Vec<(u32, u32)>,
    ascii: u128,
}

impl Class {
    pub fn from_ranges(mut ranges: Vec<(u32, u32)>) -> Class {
        crate::sort::sort(&mut ranges);
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (start, end) in ranges {
            match merged.last_mut() {
                Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        let mut ascii = 0u128;
        for &(start, end) in &merged {
            for c in start..=end.min(127) {
                ascii |= 1 << c;
            }
        }
        Class { ranges: merged, ascii }
    }

    pub fn single(c: char) -> Class {
        Class::from_ranges(vec![(u32::from(c), u32::from(c))])
    }

    pub fn dot() -> Class {
        Class::from_ranges(LINE_TERMINATORS.to_vec()).negated()
    }

    /// `\d`, `\D`, `\w`, `\W`, `\s`, `\S`.
    pub fn shorthand(e: char) -> Class {
        let set = match e.to_ascii_lowercase() {
            'd' => DIGIT,
            'w' => WORD,
            _ => SPACE,
        };
        let class = Class::from_ranges(set.to_vec());
        if e.is_ascii_uppercase() {
            class.negated()
        } else {
            class
        }
    }

    pub fn negated(&self) -> Class {
        let mut out = Vec::with_capacity(self.ranges.len() + 1);
        let mut next = 0u32;
        for &(start, end) in &self.ranges {
            if start > next {
                out.push((next, start - 1));
            }
            next = end.saturating_add(1);
        }
        if next <= MAX {
            out.push((next, MAX));
        }
        Class::from_ranges(out)
    }

    pub fn ranges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.ranges.iter().copied()
    }

    /// The one character this class is, if it is one.
    pub fn as_char(&self) -> Option<char> {
        match self.ranges.as_slice() {
            [(start, end)] if start == end => char::from_u32(*start),
            _ => None,
        }
    }

    #[inline]
    pub fn matches(&self, c: char) -> bool {
        let code = u32::from(c);
        if code < 128 {
            return self.ascii & (1 << code) != 0;
        }
        self.ranges
            .binary_search_by(|&(start, end)| {
                if end < code {
                    std::cmp::Ordering::Less
                } else if start > code {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }
}

/// ECMA-262's word characters, for `\b` and `\B`.
#[inline]
pub fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}
