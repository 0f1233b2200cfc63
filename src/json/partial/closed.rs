//! What the parser tells of a closed value without a value tree: its kind, its span in the kept
//! text, an object's distinct member names (kept to tell a repeated one), and its `Value` parsed
//! from the span only when an observer asks.

use super::{parse_text, Kind};
use crate::json::names::name_hash;
use std::collections::HashSet;
use serde_json::Value;
use std::cell::OnceCell;

/// The distinct member names of an object: a hash of each decoded name with where its token is
/// in the kept text. A name whose hash is new is new; one whose hash was seen is compared exactly
/// with the names of that hash, so a repeat is told exactly. The hashes are looked through while
/// few; past `FEW`, kept in a set too, so that an object of thousands of names stays linear. The
/// parser keeps one `Names` per depth and clears it for the next object there, so that an object
/// allocates nothing once the stream has read one as large.
#[derive(Default)]
pub(super) struct Names {
    /// Each name's hash, its token's span, and whether the token has no escape (then it is the
    /// name as written, compared without decoding).
    list: Vec<(u64, usize, usize, bool)>,
    many: Option<HashSet<u64, ahash::RandomState>>,
}

const FEW: usize = 16;

impl Names {
    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    /// Forgets every name (a new object at this depth).
    pub(super) fn clear(&mut self) {
        self.list.clear();
        self.many = None;
    }

    /// Whether the object has a member `name` (its names' tokens in `text`).
    pub(super) fn contains(&self, name: &str, text: &[u8]) -> bool {
        self.find(name_hash(name.as_bytes()), name, text)
    }

    /// Adds `name`, written at `token` in `text`: false when the object has it already.
    pub(super) fn insert(&mut self, name: &str, token: (usize, usize), text: &[u8]) -> bool {
        let hash = name_hash(name.as_bytes());
        let seen = match self.many.as_mut() {
            Some(set) => !set.insert(hash),
            None => self.list.iter().any(|&(h, ..)| h == hash),
        };
        if seen && self.find(hash, name, text) {
            return false;
        }
        // An escape is longer than what it stands for: a token as long as its name and quotes has
        // none.
        let plain = token.1.saturating_sub(token.0) == name.len() + 2;
        self.list.push((hash, token.0, token.1, plain));
        if self.many.is_none() && self.list.len() > FEW {
            // Sized for the next doublings at once: growing a set rehashes it.
            let mut set = HashSet::with_capacity_and_hasher(4 * FEW, ahash::RandomState::default());
            set.extend(self.list.iter().map(|&(h, ..)| h));
            self.many = Some(set);
        }
        true
    }

    fn find(&self, hash: u64, name: &str, text: &[u8]) -> bool {
        self.list.iter().any(|&(h, start, end, plain)| h == hash && is(text, start, end, plain, name))
    }

    /// Whether the object has every one of `names` (each with its `name_hash`). Each is looked
    /// for from the entry after the last one found, on around: an object's names mostly come in
    /// the order a schema lists them, so that each is then found at its first look.
    pub(super) fn contains_all(&self, names: &[(String, u64)], text: &[u8]) -> bool {
        let list = self.list.as_slice();
        let mut from = 0;
        names.iter().all(|(name, hash)| {
            let (before, after) = list.split_at(from);
            let found = |part: &[(u64, usize, usize, bool)]| part.iter().position(|&(h, start, end, plain)| h == *hash && is(text, start, end, plain, name));
            match found(after) {
                Some(i) => from += i + 1,
                None => match found(before) {
                    Some(i) => from = i + 1,
                    None => return false,
                },
            }
            true
        })
    }
}

/// Whether the name token at `start..end` of `text` (`plain`: without an escape) is `name`.
fn is(text: &[u8], start: usize, end: usize, plain: bool, name: &str) -> bool {
    let token = text.get(start..end).unwrap_or_default();
    if plain { token.get(1..token.len().saturating_sub(1)) == Some(name.as_bytes()) } else { token_is(token, name) }
}

/// Whether the string token `token` (quotes included) decodes to `name`.
fn token_is(token: &[u8], name: &str) -> bool {
    let inner = token.get(1..token.len().saturating_sub(1)).unwrap_or_default();
    if !inner.contains(&b'\\') {
        return inner == name.as_bytes();
    }
    let mut decoded = String::new();
    std::str::from_utf8(inner).ok().and_then(|raw| crate::json::lex::unescape(raw, &mut decoded)).is_some() && decoded == name
}

/// A value the parser closed: its kind and where it is in the kept text; a string decoded, a
/// number or literal as its value; a container's `Value` parsed from its text on the first
/// `value()` call, which every observer of the event shares.
#[derive(Clone, Copy)]
pub struct Closed<'a> {
    pub(super) kind: Kind,
    pub(super) start: usize,
    pub(super) end: usize,
    /// The whole kept text.
    pub(super) text: &'a [u8],
    pub(super) string: Option<&'a str>,
    pub(super) names: Option<&'a Names>,
    pub(super) count: usize,
    /// A member name is repeated somewhere inside (its value keeps one of them).
    pub(super) repeats: bool,
    pub(super) memo: &'a OnceCell<Value>,
}

impl<'a> Closed<'a> {
    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn is_container(&self) -> bool {
        matches!(self.kind, Kind::Object | Kind::Array)
    }

    /// The value's text as written.
    pub fn text(&self) -> &'a [u8] {
        self.text.get(self.start..self.end).unwrap_or_default()
    }

    /// A string's decoded text.
    pub fn as_str(&self) -> Option<&'a str> {
        self.string
    }

    /// A number's, boolean's or null's value.
    pub fn scalar(&self) -> Option<&'a Value> {
        if self.is_container() || self.kind == Kind::String {
            return None;
        }
        self.memo.get()
    }

    /// An object's distinct members, or an array's items.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether some object inside has a repeated member name: its value then differs from its
    /// text, which keeps both members.
    pub fn has_repeats(&self) -> bool {
        self.repeats
    }

    /// Whether an object has a member `name`.
    pub fn has_member(&self, name: &str) -> bool {
        self.names.is_some_and(|names| names.contains(name, self.text))
    }

    /// Whether an object has a member of each of `names`, each given with its `name_hash`.
    pub fn has_members(&self, names: &[(String, u64)]) -> bool {
        names.is_empty() || self.names.is_some_and(|set| set.contains_all(names, self.text))
    }

    /// The value (made or parsed on the first call; `None` only if its text does not parse,
    /// which the parser's reading of it rules out).
    pub fn value(&self) -> Option<&'a Value> {
        if let Some(value) = self.memo.get() {
            return Some(value);
        }
        let value = match self.string {
            Some(s) => Value::String(s.to_owned()),
            None => parse_text(self.text())?,
        };
        Some(self.memo.get_or_init(|| value))
    }
}
