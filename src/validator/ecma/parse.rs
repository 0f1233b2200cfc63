//! ECMA-262 pattern syntax in Unicode mode (the `u` flag, as JSON Schema reads patterns) to a
//! tree. Unicode mode is the strict one: a lone `]`, `{` or `}`, an unknown escape, a quantified
//! assertion or a backreference to no group is a syntax error, as it is for `new RegExp(p, "u")`.

use super::class::Class;
use super::unicode;

/// Deeper group nesting is refused: parsing and compiling recurse once per level.
const MAX_NESTING: usize = 200;

#[derive(Debug)]
pub enum Ast {
    Empty,
    Class(Class),
    Assert(Assert),
    Concat(Vec<Ast>),
    Alt(Vec<Ast>),
    Repeat { node: Box<Ast>, min: u32, max: Option<u32>, greedy: bool },
    /// A capturing group's index counts from 1, in the order of the opening parentheses.
    Group { node: Box<Ast>, index: Option<usize> },
    Look { node: Box<Ast>, behind: bool, negated: bool },
    Backref(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assert {
    Start,
    End,
    WordBoundary,
    NotWordBoundary,
}

pub struct Parsed {
    pub node: Ast,
    pub groups: usize,
    /// Lookaround or backreferences: only the backtracking matcher runs these.
    pub needs_backtracking: bool,
}

pub fn parse(source: &str) -> Result<Parsed, String> {
    let chars: Vec<char> = source.chars().collect();
    let names = group_names(&chars)?;
    let mut parser = Parser { chars: &chars, at: 0, groups: 0, names, depth: 0, needs_backtracking: false };
    let node = parser.disjunction()?;
    if parser.at < chars.len() {
        return Err("unmatched ')'".into());
    }
    Ok(Parsed { node, groups: parser.groups, needs_backtracking: parser.needs_backtracking })
}

/// The names of the named groups in order of their opening parentheses (None for unnamed groups):
/// `\k<name>` and `\N` may refer to a group that opens later in the pattern.
fn group_names(chars: &[char]) -> Result<Vec<Option<String>>, String> {
    let mut names: Vec<Option<String>> = Vec::new();
    let mut i = 0;
    let mut in_class = false;
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' => i += 1,
            '[' => in_class = true,
            ']' => in_class = false,
            '(' if !in_class => {
                if chars.get(i + 1) != Some(&'?') {
                    names.push(None);
                } else if chars.get(i + 2) == Some(&'<') && !matches!(chars.get(i + 3), Some('=' | '!')) {
                    let name: String = chars.iter().skip(i + 3).take_while(|c| **c != '>').collect();
                    if names.iter().any(|n| n.as_deref() == Some(name.as_str())) {
                        return Err(format!("the group name '{name}' is used twice"));
                    }
                    names.push(Some(name));
                }
            }
            _ => {}
        }
        i += 1;
    }
    Ok(names)
}

struct Parser<'a> {
    chars: &'a [char],
    at: usize,
    groups: usize,
    names: Vec<Option<String>>,
    depth: usize,
    needs_backtracking: bool,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.at += 1;
        }
        c
    }

    fn eat(&mut self, c: char) -> bool {
        let yes = self.peek() == Some(c);
        if yes {
            self.at += 1;
        }
        yes
    }

    fn disjunction(&mut self) -> Result<Ast, String> {
        let mut alternatives = vec![self.alternative()?];
        while self.eat('|') {
            alternatives.push(self.alternative()?);
        }
        Ok(if alternatives.len() == 1 { alternatives.pop().unwrap_or(Ast::Empty) } else { Ast::Alt(alternatives) })
    }

    fn alternative(&mut self) -> Result<Ast, String> {
        let mut terms = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let (atom, quantifiable) = self.term()?;
            let atom = self.quantifier(atom, quantifiable)?;
            terms.push(atom);
        }
        Ok(match terms.len() {
            0 => Ast::Empty,
            1 => terms.pop().unwrap_or(Ast::Empty),
            _ => Ast::Concat(terms),
        })
    }

    /// One atom or assertion, and whether a quantifier may follow it.
    fn term(&mut self) -> Result<(Ast, bool), String> {
        let c = self.next().ok_or("pattern ends early")?;
        Ok(match c {
            '^' => (Ast::Assert(Assert::Start), false),
            '$' => (Ast::Assert(Assert::End), false),
            '.' => (Ast::Class(Class::dot()), true),
            '[' => (Ast::Class(self.class()?), true),
            '(' => self.group()?,
            '\\' => self.atom_escape()?,
            '*' | '+' | '?' => return Err(format!("nothing to repeat before '{c}'")),
            '{' => return Err("a lone '{' must be escaped".into()),
            '}' | ']' => return Err(format!("a lone '{c}' must be escaped")),
            c => (Ast::Class(Class::single(c)), true),
        })
    }

    fn group(&mut self) -> Result<(Ast, bool), String> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(format!("groups nest deeper than {MAX_NESTING} levels"));
        }
        let mut index = None;
        let mut look = None;
        if self.eat('?') {
            match (self.next(), self.peek()) {
                (Some(':'), _) => {}
                (Some('='), _) => look = Some((false, false)),
                (Some('!'), _) => look = Some((false, true)),
                (Some('<'), Some('=')) => {
                    self.at += 1;
                    look = Some((true, false));
                }
                (Some('<'), Some('!')) => {
                    self.at += 1;
                    look = Some((true, true));
                }
                (Some('<'), _) => {
                    let name = self.group_name()?;
                    if name.is_empty() {
                        return Err("a group name cannot be empty".into());
                    }
                    self.groups += 1;
                    index = Some(self.groups);
                }
                // Inline flags and Python's `(?P<…>` are not ECMA-262.
                _ => return Err("(? must start a group, a lookaround or a named group".into()),
            }
        } else {
            self.groups += 1;
            index = Some(self.groups);
        }
        let node = self.disjunction()?;
        if !self.eat(')') {
            return Err("unterminated group".into());
        }
        self.depth -= 1;
        Ok(match look {
            Some((behind, negated)) => {
                self.needs_backtracking = true;
                // Unicode mode does not allow quantifying a lookaround.
                (Ast::Look { node: Box::new(node), behind, negated }, false)
            }
            None => (Ast::Group { node: Box::new(node), index }, true),
        })
    }

    /// A group name after `<`, through its `>`: an identifier (letters, digits, `$`, `_`).
    fn group_name(&mut self) -> Result<String, String> {
        let mut name = String::new();
        loop {
            match self.next() {
                Some('>') => return Ok(name),
                Some(c) if c == '$' || c == '_' || c.is_alphabetic() || (!name.is_empty() && c.is_alphanumeric()) => {
                    name.push(c)
                }
                _ => return Err("a group name must be an identifier closed by '>'".into()),
            }
        }
    }

    fn quantifier(&mut self, atom: Ast, quantifiable: bool) -> Result<Ast, String> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => match self.braces() {
                Some(bounds) => bounds,
                None => return Err("a lone '{' must be escaped".into()),
            },
            _ => return Ok(atom),
        };
        if !quantifiable {
            return Err("an assertion cannot be repeated".into());
        }
        if self.peek() != Some('{') {
            self.at += 1;
        } else {
            while !matches!(self.next(), Some('}') | None) {}
        }
        if max.is_some_and(|max| max < min) {
            return Err("numbers out of order in {} quantifier".into());
        }
        let greedy = !self.eat('?');
        if matches!(self.peek(), Some('*' | '+' | '?')) || (self.peek() == Some('{') && self.braces().is_some()) {
            return Err("nothing to repeat".into());
        }
        Ok(Ast::Repeat { node: Box::new(atom), min, max, greedy })
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor, without moving it; None when it is not one.
    fn braces(&self) -> Option<(u32, Option<u32>)> {
        let mut i = self.at + 1;
        let number = |i: &mut usize| -> Option<u32> {
            let start = *i;
            let mut n: u32 = 0;
            while let Some(d) = self.chars.get(*i).and_then(|c| c.to_digit(10)) {
                // Counts beyond any text's length mean the same as the largest one.
                n = n.saturating_mul(10).saturating_add(d);
                *i += 1;
            }
            (*i > start).then_some(n)
        };
        let min = number(&mut i)?;
        let max = match self.chars.get(i)? {
            '}' => Some(min),
            ',' => {
                i += 1;
                if self.chars.get(i) == Some(&'}') {
                    None
                } else {
                    let max = number(&mut i)?;
                    if self.chars.get(i) != Some(&'}') {
                        return None;
                    }
                    Some(max)
                }
            }
            _ => return None,
        };
        Some((min, max))
    }

    fn atom_escape(&mut self) -> Result<(Ast, bool), String> {
        let e = self.next().ok_or("pattern ends with a lone backslash")?;
        Ok(match e {
            'b' => (Ast::Assert(Assert::WordBoundary), false),
            'B' => (Ast::Assert(Assert::NotWordBoundary), false),
            '1'..='9' => {
                let mut n = e.to_digit(10).map_or(0, |d| d as usize);
                while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
                    n = n.saturating_mul(10).saturating_add(d as usize);
                    self.at += 1;
                }
                if n > self.names.len() {
                    return Err(format!("\\{n} refers to no group"));
                }
                self.needs_backtracking = true;
                (Ast::Backref(n), true)
            }
            'k' => {
                if !self.eat('<') {
                    return Err("\\k must be followed by <name>".into());
                }
                let name = self.group_name()?;
                let index = self.names.iter().position(|n| n.as_deref() == Some(name.as_str()));
                let index = index.ok_or_else(|| format!("\\k<{name}> refers to no group"))?;
                self.needs_backtracking = true;
                (Ast::Backref(index + 1), true)
            }
            _ => (Ast::Class(self.class_escape(e, false)?.into_class()), true),
        })
    }

    /// An escape that stands for characters, in or out of a class (`e` follows the backslash).
    fn class_escape(&mut self, e: char, in_class: bool) -> Result<Item, String> {
        Ok(match e {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' => Item::Set(Class::shorthand(e)),
            'p' | 'P' => {
                if !self.eat('{') {
                    return Err(format!("\\{e} must be followed by {{"));
                }
                let mut body = String::new();
                loop {
                    match self.next() {
                        Some('}') => break,
                        Some(c) => body.push(c),
                        None => return Err(format!("unterminated \\{e}{{")),
                    }
                }
                let ranges = unicode::property(&body)?;
                let set = Class::from_ranges(ranges);
                Item::Set(if e == 'P' { set.negated() } else { set })
            }
            't' => Item::Char('\t'),
            'n' => Item::Char('\n'),
            'r' => Item::Char('\r'),
            'f' => Item::Char('\u{0C}'),
            'v' => Item::Char('\u{0B}'),
            'b' if in_class => Item::Char('\u{08}'),
            '-' if in_class => Item::Char('-'),
            '0' if !self.peek().is_some_and(|c| c.is_ascii_digit()) => Item::Char('\0'),
            'c' => {
                let letter = self.next().filter(char::is_ascii_alphabetic).ok_or("\\c must be followed by a letter")?;
                Item::Char(char::from((letter as u8) % 32))
            }
            'x' => {
                let code = self.hex(2).ok_or("\\x needs two hex digits")?;
                Item::Char(char::from_u32(code).ok_or("\\x needs two hex digits")?)
            }
            'u' => self.unicode_escape()?,
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '/' => Item::Char(e),
            other => return Err(format!("\\{other} is not an escape of ECMA-262 regular expressions")),
        })
    }

    fn hex(&mut self, digits: usize) -> Option<u32> {
        let mut code = 0;
        for _ in 0..digits {
            code = code * 16 + self.peek()?.to_digit(16)?;
            self.at += 1;
        }
        Some(code)
    }

    /// After `\u`: `{…}`, or four hex digits (two escapes for a surrogate pair are one character).
    fn unicode_escape(&mut self) -> Result<Item, String> {
        let code = if self.eat('{') {
            let mut code: u32 = 0;
            let mut digits = 0;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(16)) {
                code = code.saturating_mul(16).saturating_add(d);
                digits += 1;
                self.at += 1;
            }
            if digits == 0 || !self.eat('}') || code > 0x10FFFF {
                return Err("bad \\u{…} escape".into());
            }
            code
        } else {
            let high = self.hex(4).ok_or("\\u needs four hex digits")?;
            if (0xD800..0xDC00).contains(&high) && self.peek() == Some('\\') && self.peek_at(1) == Some('u') {
                let back = self.at;
                self.at += 2;
                match self.hex(4) {
                    Some(low) if (0xDC00..0xE000).contains(&low) => {
                        return Ok(Item::Char(char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)).unwrap_or('\0')));
                    }
                    _ => self.at = back,
                }
            }
            high
        };
        // A lone surrogate is a valid escape, but no string here can hold one: it matches nothing.
        Ok(char::from_u32(code).map_or(Item::Set(Class::from_ranges(Vec::new())), Item::Char))
    }

    /// A character class after its `[`.
    fn class(&mut self) -> Result<Class, String> {
        let negated = self.eat('^');
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        loop {
            let c = self.next().ok_or("unterminated character class")?;
            if c == ']' {
                break;
            }
            let first = self.class_atom(c)?;
            // `-` between two atoms makes a range; first or last, it is itself.
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                self.at += 1;
                let c = self.next().ok_or("unterminated character class")?;
                let last = self.class_atom(c)?;
                match (first, last) {
                    (Item::Char(a), Item::Char(b)) if a <= b => ranges.push((u32::from(a), u32::from(b))),
                    (Item::Char(_), Item::Char(_)) => return Err("range out of order in character class".into()),
                    _ => return Err("a class escape cannot bound a range".into()),
                }
            } else {
                match first {
                    Item::Char(a) => ranges.push((u32::from(a), u32::from(a))),
                    Item::Set(set) => ranges.extend(set.ranges()),
                }
            }
        }
        let class = Class::from_ranges(ranges);
        Ok(if negated { class.negated() } else { class })
    }

    fn class_atom(&mut self, c: char) -> Result<Item, String> {
        if c == '\\' {
            let e = self.next().ok_or("pattern ends with a lone backslash")?;
            self.class_escape(e, true)
        } else {
            Ok(Item::Char(c))
        }
    }
}

/// What an escape stands for: one character (which may bound a range) or a set.
enum Item {
    Char(char),
    Set(Class),
}

impl Item {
    fn into_class(self) -> Class {
        match self {
            Item::Char(c) => Class::single(c),
            Item::Set(set) => set,
        }
    }
}
