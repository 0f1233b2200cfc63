//! The matcher for patterns without lookaround or backreferences: every alternative is followed
//! at once, one character at a time (a Pike VM), so the time is linear in the text for a given
//! pattern, whatever the pattern.

use super::class::is_word;
use super::parse::Assert;
use super::program::{Inst, Program};

/// The instructions alive at one position, in a sparse set: inserting and clearing are O(1).
#[derive(Debug)]
pub(super) struct Threads {
    pub(super) dense: Vec<u32>,
    sparse: Vec<u32>,
}

impl Threads {
    pub(super) fn new(size: usize) -> Threads {
        Threads { dense: Vec::with_capacity(size), sparse: vec![0; size] }
    }

    /// Whether `pc` was new.
    fn insert(&mut self, pc: u32) -> bool {
        let Some(&i) = self.sparse.get(pc as usize) else { return false };
        if self.dense.get(i as usize) == Some(&pc) {
            return false;
        }
        if let Some(slot) = self.sparse.get_mut(pc as usize) {
            *slot = self.dense.len() as u32;
        }
        self.dense.push(pc);
        true
    }
}

/// Where the matcher stands: the characters on each side of the position.
#[derive(Clone, Copy)]
pub(super) struct At {
    pub(super) before: Option<char>,
    pub(super) after: Option<char>,
}

/// The Pike VM's sets and stack, kept between calls: a sparse set needs no clearing, so a call
/// costs nothing in proportion to the program until a thread is added.
#[derive(Debug, Default)]
pub struct Scratch {
    sets: Option<(Threads, Threads)>,
    stack: Vec<u32>,
}

/// Sets for programs larger than this are not kept between calls (8 bytes an instruction each):
/// linear memory, once grown, is never given back.
const KEPT_INSTS: usize = 4096;

pub fn is_match(program: &Program, text: &str, scratch: &mut Scratch) -> bool {
    let size = program.insts.len();
    if scratch.sets.as_ref().is_none_or(|(s, _)| s.sparse.len() != size) {
        scratch.sets = Some((Threads::new(size), Threads::new(size)));
    }
    let answer = match &mut scratch.sets {
        Some((current, next)) => run(program, text, current, next, &mut scratch.stack),
        None => false,
    };
    if size > KEPT_INSTS {
        *scratch = Scratch::default();
    }
    answer
}

fn run(program: &Program, text: &str, current: &mut Threads, next: &mut Threads, stack: &mut Vec<u32>) -> bool {
    current.dense.clear();
    next.dense.clear();
    let mut pos = 0;
    let mut before = None;
    loop {
        let after = text.get(pos..).and_then(|rest| rest.chars().next());
        let at = At { before, after };
        if (pos == 0 || !program.anchored) && follow(program, current, 0, at, stack) {
            return true;
        }
        let Some(c) = after else { return false };
        if current.dense.is_empty() && program.anchored {
            return false;
        }
        let pos_after = pos + c.len_utf8();
        let at_next = At { before: Some(c), after: text.get(pos_after..).and_then(|rest| rest.chars().next()) };
        for &pc in &current.dense {
            let step = match program.insts.get(pc as usize) {
                Some(Inst::Char { c: want, .. }) => *want == c,
                Some(Inst::Class { class, .. }) => program.classes.get(*class as usize).is_some_and(|k| k.matches(c)),
                _ => false,
            };
            if step && follow(program, next, pc + 1, at_next, stack) {
                return true;
            }
        }
        std::mem::swap(current, next);
        next.dense.clear();
        before = Some(c);
        pos = pos_after;
    }
}

/// Adds `pc` and everything reachable from it without reading a character; true if that
/// reaches the end of the pattern.
pub(super) fn follow(program: &Program, threads: &mut Threads, pc: u32, at: At, stack: &mut Vec<u32>) -> bool {
    stack.clear();
    stack.push(pc);
    while let Some(pc) = stack.pop() {
        if !threads.insert(pc) {
            continue;
        }
        match program.insts.get(pc as usize) {
            Some(Inst::Match) => return true,
            Some(Inst::Jump(to)) => stack.push(*to),
            Some(Inst::Split(first, second)) => {
                stack.push(*second);
                stack.push(*first);
            }
            Some(Inst::Assert(a)) if holds(*a, at) => stack.push(pc + 1),
            // Captures and the empty-iteration check change nothing here: every thread is kept
            // at most once per position anyway.
            Some(Inst::Save(_) | Inst::Mark(_) | Inst::Progress(_)) => stack.push(pc + 1),
            _ => {}
        }
    }
    false
}

fn holds(a: Assert, at: At) -> bool {
    match a {
        Assert::Start => at.before.is_none(),
        Assert::End => at.after.is_none(),
        Assert::WordBoundary => is_word(at.before) != is_word(at.after),
        Assert::NotWordBoundary => is_word(at.before) == is_word(at.after),
    }
}

/// Whether `a` holds at byte `pos` of `text` (for the matchers that jump between positions).
pub(super) fn holds_at(a: Assert, text: &str, pos: usize) -> bool {
    let before = text.get(..pos).and_then(|t| t.chars().next_back());
    let after = text.get(pos..).and_then(|t| t.chars().next());
    holds(a, At { before, after })
}
