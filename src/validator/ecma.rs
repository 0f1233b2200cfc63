//! `pattern`, `patternProperties` and `format: "regex"` speak ECMA-262 regular expressions
//! (Unicode mode). They are translated to the `regex` crate's syntax where the meanings differ
//! (`\d`, `\w`, `\s`, `.`, `[^]`, `\cX`, `\uXXXX`); lookaround and backreferences, which `regex`
//! does not have, go to `fancy-regex` with a backtracking limit.

use std::fmt::Write;

/// ECMA-262 white space and line terminators, as `\s` means them.
const SPACE: &str = r"\t\n\x{0B}\x{0C}\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
const WORD: &str = "A-Za-z0-9_";
const DIGIT: &str = "0-9";

/// How many backtracking steps a lookaround pattern may take on one string.
const BACKTRACK_LIMIT: usize = 1_000_000;

pub enum Pattern {
    Plain(regex::Regex),
    Fancy(Box<fancy_regex::Regex>),
}

/// Why a string could not be matched: the pattern needed more backtracking than allowed.
pub struct Backtracked;

impl Pattern {
    pub fn new(source: &str) -> Result<Pattern, String> {
        let (translated, fancy) = translate(source)?;
        if fancy {
            fancy_regex::RegexBuilder::new(&translated)
                .backtrack_limit(BACKTRACK_LIMIT)
                .build()
                .map(|r| Pattern::Fancy(Box::new(r)))
                .map_err(|e| e.to_string())
        } else {
            regex::Regex::new(&translated).map(Pattern::Plain).map_err(|e| e.to_string())
        }
    }

    pub fn is_match(&self, text: &str) -> Result<bool, Backtracked> {
        match self {
            Pattern::Plain(r) => Ok(r.is_match(text)),
            Pattern::Fancy(r) => r.is_match(text).map_err(|_| Backtracked),
        }
    }
}

/// The pattern in `regex` syntax, and whether it needs `fancy-regex`.
fn translate(source: &str) -> Result<(String, bool), String> {
    let mut out = String::with_capacity(source.len() + 8);
    let mut fancy = false;
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let e = chars.next().ok_or("pattern ends with a lone backslash")?;
                match e {
                    'd' => push_class(&mut out, DIGIT, false),
                    'D' => push_class(&mut out, DIGIT, true),
                    'w' => push_class(&mut out, WORD, false),
                    'W' => push_class(&mut out, WORD, true),
                    's' => push_class(&mut out, SPACE, false),
                    'S' => push_class(&mut out, SPACE, true),
                    // ECMA-262's word boundary is an ASCII one.
                    'b' => out.push_str(r"(?-u:\b)"),
                    'B' => out.push_str(r"(?-u:\B)"),
                    '1'..='9' => {
                        fancy = true;
                        out.push('\\');
                        out.push(e);
                        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                            out.push(*d);
                            chars.next();
                        }
                    }
                    'k' => {
                        fancy = true;
                        out.push_str("\\k");
                    }
                    _ => escape(e, &mut chars, &mut out, false)?,
                }
            }
            '.' => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            '[' => class(&mut chars, &mut out)?,
            '(' => {
                if chars.peek() == Some(&'?') {
                    let mut look = chars.clone();
                    look.next();
                    match (look.next(), look.next()) {
                        (Some('=' | '!'), _) | (Some('<'), Some('=' | '!')) => fancy = true,
                        (Some(':'), _) => {}
                        (Some('<'), Some(c)) if c.is_alphabetic() || c == '_' || c == '$' => {}
                        // Inline flags and Python's `(?P<…>` are not ECMA-262.
                        _ => return Err("(? must start a group, a lookaround or a named group".into()),
                    }
                }
                out.push('(');
            }
            c => out.push(c),
        }
    }
    Ok((out, fancy))
}

fn push_class(out: &mut String, set: &str, negated: bool) {
    out.push('[');
    if negated {
        out.push('^');
    }
    out.push_str(set);
    out.push(']');
}

/// An escape other than a class shorthand: `e` follows the backslash.
fn escape(e: char, chars: &mut std::iter::Peekable<std::str::Chars<'_>>, out: &mut String, in_class: bool) -> Result<(), String> {
    match e {
        't' | 'n' | 'r' | 'f' | 'v' => {
            out.push('\\');
            out.push(e);
        }
        'b' if in_class => out.push_str(r"\x{08}"),
        '0' if !chars.peek().is_some_and(char::is_ascii_digit) => out.push_str(r"\x{00}"),
        'c' => {
            let letter = chars.next().filter(char::is_ascii_alphabetic).ok_or("\\c must be followed by a letter")?;
            let _ = write!(out, r"\x{{{:02X}}}", u32::from(letter) % 32);
        }
        'x' => {
            let hex: String = (0..2).filter_map(|_| chars.next()).collect();
            let code = u32::from_str_radix(&hex, 16).map_err(|_| "\\x needs two hex digits")?;
            let _ = write!(out, r"\x{{{code:X}}}");
        }
        'u' => {
            let code = if chars.peek() == Some(&'{') {
                chars.next();
                let hex: String = chars.by_ref().take_while(|c| *c != '}').collect();
                u32::from_str_radix(&hex, 16).map_err(|_| "bad \\u{…} escape")?
            } else {
                let hex: String = (0..4).filter_map(|_| chars.next()).collect();
                let high = u32::from_str_radix(&hex, 16).map_err(|_| "\\u needs four hex digits")?;
                // A surrogate pair written as two escapes is one character.
                if (0xD800..0xDC00).contains(&high) {
                    let mut look = chars.clone();
                    if look.next() == Some('\\') && look.next() == Some('u') {
                        let low_hex: String = (0..4).filter_map(|_| look.next()).collect();
                        if let Ok(low) = u32::from_str_radix(&low_hex, 16) {
                            if (0xDC00..0xE000).contains(&low) {
                                *chars = look;
                                let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                                let _ = write!(out, r"\x{{{code:X}}}");
                                return Ok(());
                            }
                        }
                    }
                }
                high
            };
            if char::from_u32(code).is_none() {
                return Err("escape names a lone surrogate".into());
            }
            let _ = write!(out, r"\x{{{code:X}}}");
        }
        'p' | 'P' => {
            out.push('\\');
            out.push(e);
        }
        // In Unicode mode only syntax characters (and `-` in a class) may be escaped.
        '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '-' => {
            out.push('\\');
            out.push(e);
        }
        '/' => out.push('/'),
        other => return Err(format!("\\{other} is not an escape of ECMA-262 regular expressions")),
    }
    Ok(())
}

/// A character class after its `[`: ECMA's `[` inside is a literal, `&&`/`~~` mean nothing.
fn class(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, out: &mut String) -> Result<(), String> {
    let negated = chars.peek() == Some(&'^');
    if negated {
        chars.next();
    }
    if chars.peek() == Some(&']') {
        chars.next();
        // `[]` matches nothing, `[^]` any character.
        out.push_str(if negated { r"[\x{0}-\x{10FFFF}]" } else { r"[^\x{0}-\x{10FFFF}]" });
        return Ok(());
    }
    out.push('[');
    if negated {
        out.push('^');
    }
    loop {
        let c = chars.next().ok_or("unterminated character class")?;
        match c {
            ']' => break,
            '\\' => {
                let e = chars.next().ok_or("pattern ends with a lone backslash")?;
                match e {
                    'd' => out.push_str(DIGIT),
                    'w' => out.push_str(WORD),
                    's' => out.push_str(SPACE),
                    'D' => push_class(out, DIGIT, true),
                    'W' => push_class(out, WORD, true),
                    'S' => push_class(out, SPACE, true),
                    _ => escape(e, chars, out, true)?,
                }
            }
            '[' | '&' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(']');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(p: &str, s: &str) -> bool {
        matches!(Pattern::new(p).ok().map(|p| p.is_match(s)), Some(Ok(true)))
    }

    #[test]
    fn ecma_meanings() {
        assert!(!matches(r"^\d$", "৪"));
        assert!(matches(r"^\s$", "\u{FEFF}"));
        assert!(!matches(r"^\w$", "é"));
        assert!(!matches("^.$", "\r"));
        assert!(matches("^[^]$", "\n"));
        assert!(!matches("[]", "a"));
        assert!(matches(r"^\cJ$", "\n"));
        assert!(matches(r"^\uD83D\uDC32$", "🐲"));
        assert!(matches(r"^\p{Letter}+$", "héllo"));
        assert!(matches(r"^(?!foo)\w+$", "bar"));
        assert!(!matches(r"^(?!foo)\w+$", "foobar"));
        assert!(matches(r"^(a)\1$", "aa"));
        assert!(matches(r"^[\w-]+$", "a-b"));
        assert!(matches(r"^[[a]+$", "[a"));
        assert!(Pattern::new(r"\a").is_err());
        assert!(Pattern::new("^(abc]").is_err());
    }
}
