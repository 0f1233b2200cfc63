//! The fast matcher for patterns without lookaround or backreferences: a DFA built lazily from
//! the program, one state per set of instructions alive between two characters, each transition
//! computed the first time it is taken (the Pike VM's step, run once) and then read from a table.
//! A character costs one table read, so common patterns match at close to memory speed; the
//! time stays linear in the text, as each character takes one transition however it was built.
//!
//! Characters are read whole (UTF-8 decoded, as the other matchers read them) and mapped to the
//! classes of an alphabet in which every instruction of the program treats all members alike:
//! ASCII through a table, the rest by a binary search.
//!
//! The states cached are bounded (CACHE_BYTES); a text that needs more clears the cache and is
//! matched by the other matchers, and a pattern that fills it again and again stops using it.

use super::class::{is_word, Class};
use super::parse::Assert;
use super::pike::{follow, At, Threads};
use super::program::{Inst, Program};
use std::collections::BTreeMap;

/// Alphabets with more classes are not built (a class is a byte in the tables).
const MAX_CLASSES: usize = 255;
/// Programs whose sets of characters cut the code points into more pieces than this, counted
/// once per set, are left to the other matchers: building the alphabet would cost too much.
const MAX_ALPHABET_WORK: usize = 1 << 21;
/// Programs larger than this are left to the other matchers: each new state costs a pass over
/// the program, and the cache would hold few states.
const MAX_INSTS: usize = 10_000;
/// The memory a pattern's cache of states may take (transitions and the sets they stand for).
const CACHE_BYTES: usize = 64 * 1024;
/// After this many clears of a full cache the pattern stops using the DFA: its texts keep
/// needing new states, which the other matchers find as fast without the building.
const MAX_CLEARS: u32 = 8;

/// A transition not computed yet.
const UNKNOWN: u32 = u32::MAX;
/// The rows of the two states every DFA has: no match possible any more (row 0), and a match
/// found (row 1). Transitions are stored as row offsets (state × stride).
const DEAD: u32 = 0;

/// What is known of the character before the position, as far as assertions ask.
const AT_START: u8 = 0;
const AFTER_OTHER: u8 = 1;
const AFTER_WORD: u8 = 2;

/// The immutable part, built with the pattern.
#[derive(Debug)]
pub struct Dfa {
    /// The class of each ASCII character.
    ascii: [u8; 128],
    /// The other code points: the first of each run of one class, and that class.
    starts: Vec<u32>,
    classes: Vec<u8>,
    /// One character of each class, to run the program's instructions on.
    representatives: Vec<char>,
    /// Row width: one column per class, and the last for the end of the text.
    stride: usize,
    /// The program tests `\b` or `\B`, so states tell a word character before the position.
    words: bool,
    anchored: bool,
}

/// The states built so far, kept between calls.
#[derive(Debug, Default)]
pub struct Cache {
    table: Vec<u32>,
    /// Per state (row): the instructions alive after its last character, and the context.
    states: Vec<(Box<[u32]>, u8)>,
    index: BTreeMap<(u8, Box<[u32]>), u32>,
    bytes: usize,
    clears: u32,
    /// The closure's working sets, sized to the program once.
    threads: Option<(Threads, Vec<u32>)>,
    kernel: Vec<u32>,
}

impl Dfa {
    /// None for programs the DFA does not run (lookaround, backreferences) or whose alphabet
    /// would be too large.
    pub fn new(program: &Program) -> Option<Dfa> {
        if program.insts.len() > MAX_INSTS {
            return None;
        }
        let mut words = false;
        // The sets of characters the program tells apart: each class once, each character once.
        let mut sets: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut chars = Vec::new();
        let mut used = vec![false; program.classes.len()];
        for inst in &program.insts {
            match inst {
                Inst::Char { c, back: false } => chars.push(u32::from(*c)),
                Inst::Class { class, back: false } => {
                    let seen = used.get_mut(*class as usize)?;
                    if !*seen {
                        *seen = true;
                        sets.push(program.classes.get(*class as usize)?.ranges().collect());
                    }
                }
                Inst::Assert(Assert::WordBoundary | Assert::NotWordBoundary) => words = true,
                Inst::Assert(_) | Inst::Split(..) | Inst::Jump(_) | Inst::Save(_) | Inst::Mark(_) | Inst::Progress(_) | Inst::Match => {}
                _ => return None,
            }
        }
        crate::sort::sort(&mut chars);
        chars.dedup();
        sets.extend(chars.iter().map(|&c| vec![(c, c)]));
        if words {
            sets.push(Class::shorthand('w').ranges().collect());
        }
        let (ascii, starts, classes, representatives) = alphabet(&sets)?;
        Some(Dfa { ascii, starts, classes, stride: representatives.len() + 1, representatives, words, anchored: program.anchored })
    }

    /// Whether the program matches somewhere in `text`; None when the cache filled up (the
    /// caller asks another matcher).
    pub fn is_match(&self, program: &Program, cache: &mut Cache, text: &str) -> Option<bool> {
        if cache.clears > MAX_CLEARS {
            return None;
        }
        if cache.table.is_empty() {
            self.reset(cache);
        }
        let bytes = text.as_bytes();
        let eot = self.stride - 1;
        let matched = self.stride as u32;
        // Row 2 is the start.
        let mut state = 2 * self.stride;
        let mut i = 0;
        loop {
            let (class, width) = match bytes.get(i) {
                Some(&b) if b < 128 => (self.ascii.get(usize::from(b)).map_or(0, |&k| usize::from(k)), 1),
                Some(_) => {
                    let c = text.get(i..).and_then(|rest| rest.chars().next())?;
                    (self.class_of(c), c.len_utf8())
                }
                None => (eot, 0),
            };
            let mut next = cache.table.get(state + class).copied().unwrap_or(UNKNOWN);
            // One test for the three rare cases: not built yet (UNKNOWN wraps to 0), dead, matched.
            if next.wrapping_add(1) <= matched + 1 {
                if next == UNKNOWN {
                    let Some(built) = self.build(program, cache, state / self.stride, class) else {
                        cache.clears += 1;
                        self.reset(cache);
                        return None;
                    };
                    next = built;
                }
                if next <= matched {
                    return Some(next == matched);
                }
            }
            state = next as usize;
            i += width;
        }
    }

    #[inline(never)]
    fn class_of(&self, c: char) -> usize {
        let at = self.starts.partition_point(|&s| s <= u32::from(c));
        at.checked_sub(1).and_then(|at| self.classes.get(at)).map_or(0, |&k| usize::from(k))
    }

    /// Empties the cache down to the dead, match and start states.
    #[cold]
    #[inline(never)]
    fn reset(&self, cache: &mut Cache) {
        cache.table.clear();
        cache.table.resize(2 * self.stride, DEAD);
        if let Some(row) = cache.table.get_mut(self.stride..) {
            row.fill(self.stride as u32);
        }
        cache.table.resize(3 * self.stride, UNKNOWN);
        cache.states.clear();
        cache.states.extend([(Box::default(), AFTER_OTHER), (Box::default(), AFTER_OTHER), (Box::default(), AT_START)]);
        cache.index.clear();
        cache.bytes = cache.table.len() * 4;
    }

    /// Computes, stores and returns the transition of state `row` on `class`; None when the
    /// cache has no room for the state it leads to. Kept out of `is_match`, whose loop is the
    /// hot path: inlined, its frame would be set up on every call.
    #[cold]
    #[inline(never)]
    fn build(&self, program: &Program, cache: &mut Cache, row: usize, class: usize) -> Option<u32> {
        let (kernel, context) = cache.states.get(row)?;
        let before = match *context {
            AT_START => None,
            AFTER_WORD => Some('a'),
            _ => Some(' '),
        };
        let after = self.representatives.get(class).copied();
        let (threads, stack) = cache.threads.get_or_insert_with(|| (Threads::new(program.insts.len()), Vec::new()));
        threads.dense.clear();
        let at = At { before, after };
        let start = (*context == AT_START || !self.anchored).then_some(0);
        let mut found = false;
        for &pc in kernel.iter().chain(start.iter()) {
            if follow(program, threads, pc, at, stack) {
                found = true;
                break;
            }
        }
        let next = match after {
            _ if found => self.stride as u32,
            None => DEAD,
            Some(c) => {
                cache.kernel.clear();
                for &pc in &threads.dense {
                    let step = match program.insts.get(pc as usize) {
                        Some(Inst::Char { c: want, .. }) => *want == c,
                        Some(Inst::Class { class, .. }) => program.classes.get(*class as usize).is_some_and(|k| k.matches(c)),
                        _ => false,
                    };
                    if step {
                        cache.kernel.push(pc + 1);
                    }
                }
                crate::sort::sort(&mut cache.kernel);
                cache.kernel.dedup();
                let context = if self.words && is_word(Some(c)) { AFTER_WORD } else { AFTER_OTHER };
                if cache.kernel.is_empty() && self.anchored {
                    DEAD
                } else {
                    self.state(cache, context)?
                }
            }
        };
        *cache.table.get_mut(row * self.stride + class)? = next;
        Some(next)
    }

    /// The row of the state of `cache.kernel` in `context`, added if new.
    fn state(&self, cache: &mut Cache, context: u8) -> Option<u32> {
        if let Some(&row) = cache.index.get(&(context, cache.kernel.as_slice().into())) {
            return Some(row);
        }
        let cost = self.stride * 4 + cache.kernel.len() * 8 + 64;
        if cache.bytes + cost > CACHE_BYTES {
            return None;
        }
        cache.bytes += cost;
        let offset = cache.table.len() as u32;
        cache.table.resize(cache.table.len() + self.stride, UNKNOWN);
        let kernel: Box<[u32]> = cache.kernel.as_slice().into();
        cache.states.push((kernel.clone(), context));
        cache.index.insert((context, kernel), offset);
        Some(offset)
    }
}

type Alphabet = ([u8; 128], Vec<u32>, Vec<u8>, Vec<char>);

/// Cuts the code points into classes whose members belong to the same of `sets`: the ASCII
/// table, the runs of the other code points with their classes, and a character of each class.
fn alphabet(sets: &[Vec<(u32, u32)>]) -> Option<Alphabet> {
    const END: u32 = 0x11_0000;
    let mut points = vec![0, 128];
    for set in sets {
        for &(start, end) in set {
            points.push(start);
            points.push(end.saturating_add(1).min(END));
        }
    }
    crate::sort::sort(&mut points);
    points.dedup();
    points.retain(|&p| p < END);
    let pieces = points.len();
    if pieces.saturating_mul(sets.len().max(1)) > MAX_ALPHABET_WORK {
        return None;
    }
    // Which sets hold each piece, as bits.
    let words = sets.len().div_ceil(64).max(1);
    let mut members = vec![0u64; pieces * words];
    for (s, set) in sets.iter().enumerate() {
        for &(start, end) in set {
            let mut piece = points.partition_point(|&p| p < start);
            while points.get(piece).is_some_and(|&p| p <= end) {
                if let Some(word) = members.get_mut(piece * words + s / 64) {
                    *word |= 1 << (s % 64);
                }
                piece += 1;
            }
        }
    }
    let mut class_of: BTreeMap<&[u64], u8> = BTreeMap::new();
    let mut representatives = Vec::new();
    let mut piece_class = Vec::with_capacity(pieces);
    for (piece, &start) in points.iter().enumerate() {
        let end = points.get(piece + 1).copied().unwrap_or(END);
        // A piece of surrogates only holds no character; it joins class 0, which no text reaches.
        let Some(c) = (start..end).find_map(char::from_u32) else {
            piece_class.push(0);
            continue;
        };
        let signature = members.get(piece * words..(piece + 1) * words)?;
        let next = representatives.len();
        let class = *class_of.entry(signature).or_insert(next as u8);
        if usize::from(class) == next {
            if next >= MAX_CLASSES {
                return None;
            }
            representatives.push(c);
        }
        piece_class.push(class);
    }
    let mut ascii = [0u8; 128];
    for (c, slot) in ascii.iter_mut().enumerate() {
        let piece = points.partition_point(|&p| p <= c as u32).saturating_sub(1);
        *slot = piece_class.get(piece).copied().unwrap_or(0);
    }
    let mut starts = Vec::new();
    let mut classes: Vec<u8> = Vec::new();
    for (&start, &class) in points.iter().zip(&piece_class).filter(|(&p, _)| p >= 128) {
        if classes.last() != Some(&class) {
            starts.push(start);
            classes.push(class);
        }
    }
    Some((ascii, starts, classes, representatives))
}
