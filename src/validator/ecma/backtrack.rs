//! The matcher for patterns with lookaround or backreferences, which depend on what was matched
//! before: one path at a time, in ECMA-262's order, with a budget of steps so that a pattern that
//! would backtrack exponentially, or rescan the text at every position, gives up instead of hanging.

use super::pike::holds_at;
use super::program::{Inst, Program};
use super::Backtracked;

/// 12 bytes each: positions are stored as u32 (longer texts are not run here), NONE for a
/// capture that was unset.
enum Frame {
    /// A path still to try.
    Try { pc: u32, pos: u32 },
    /// Undo a capture or a mark when backtracking past where it was set.
    Slot { slot: u32, old: u32 },
    Mark { mark: u32, old: u32 },
}

const NONE: u32 = u32::MAX;
/// Paths and undo records waiting at once, at most (12 MB): the budget of steps alone would
/// allow 4,000,000, and linear memory, once grown, is never given back.
const MAX_FRAMES: usize = 1 << 20;

struct Machine<'a> {
    program: &'a Program,
    text: &'a str,
    steps: usize,
    limit: usize,
    slots: Vec<Option<usize>>,
    marks: Vec<usize>,
    stack: Vec<Frame>,
}

pub fn is_match(program: &Program, text: &str, limit: usize) -> Result<bool, Backtracked> {
    if text.len() >= NONE as usize {
        return Err(Backtracked);
    }
    let mut m = Machine {
        program,
        text,
        steps: 0,
        limit,
        slots: vec![None; program.slots],
        marks: vec![NONE as usize; program.marks],
        stack: Vec::new(),
    };
    let mut start = 0;
    loop {
        if m.run(0, start)?.is_some() {
            return Ok(true);
        }
        if program.anchored {
            return Ok(false);
        }
        match text.get(start..).and_then(|rest| rest.chars().next()) {
            Some(c) => start += c.len_utf8(),
            None => return Ok(false),
        }
    }
}

fn unpack(old: u32) -> Option<usize> {
    (old != NONE).then_some(old as usize)
}

impl Machine<'_> {
    fn char_after(&self, pos: usize) -> Option<char> {
        self.text.get(pos..).and_then(|rest| rest.chars().next())
    }

    fn char_before(&self, pos: usize) -> Option<char> {
        self.text.get(..pos).and_then(|rest| rest.chars().next_back())
    }

    /// Steps over one character matching `test`, forwards or (lookbehind) backwards.
    fn step(&self, pos: usize, back: bool, test: impl Fn(char) -> bool) -> Option<usize> {
        if back {
            self.char_before(pos).filter(|c| test(*c)).map(|c| pos - c.len_utf8())
        } else {
            self.char_after(pos).filter(|c| test(*c)).map(|c| pos + c.len_utf8())
        }
    }

    /// Pops frames down to `base`, undoing captures and marks.
    fn unwind(&mut self, base: usize) {
        while self.stack.len() > base {
            match self.stack.pop() {
                Some(Frame::Slot { slot, old }) => self.set_slot(slot as usize, unpack(old)),
                Some(Frame::Mark { mark, old }) => self.set_mark(mark as usize, old as usize),
                _ => {}
            }
        }
    }

    fn set_slot(&mut self, slot: usize, value: Option<usize>) {
        if let Some(s) = self.slots.get_mut(slot) {
            *s = value;
        }
    }

    fn set_mark(&mut self, mark: usize, value: usize) {
        if let Some(m) = self.marks.get_mut(mark) {
            *m = value;
        }
    }

    /// Runs from `pc` at `pos` until a `Match` or `LookMatch`; its position, or None if no path
    /// gets there. On success the captures made stay, with frames to undo them later: no path
    /// inside is tried again (a lookaround is atomic).
    fn run(&mut self, pc: u32, pos: usize) -> Result<Option<usize>, Backtracked> {
        let base = self.stack.len();
        self.stack.push(Frame::Try { pc, pos: pos as u32 });
        while self.stack.len() > base {
            let (mut pc, mut pos) = match self.stack.pop() {
                Some(Frame::Try { pc, pos }) => (pc, pos as usize),
                Some(Frame::Slot { slot, old }) => {
                    self.set_slot(slot as usize, unpack(old));
                    continue;
                }
                Some(Frame::Mark { mark, old }) => {
                    self.set_mark(mark as usize, old as usize);
                    continue;
                }
                None => break,
            };
            loop {
                // The budget counts every instruction run (and a backreference's bytes), so it
                // bounds the time whatever the pattern: a lookbehind rescanning the text at each
                // position is as bounded as an exponential backtrack.
                self.steps += 1;
                if self.steps > self.limit || self.stack.len() > MAX_FRAMES {
                    return Err(Backtracked);
                }
                let Some(&inst) = self.program.insts.get(pc as usize) else { break };
                match inst {
                    Inst::Match | Inst::LookMatch => {
                        // Only the captures' undo frames outlive the body: its paths and loop marks
                        // are not returned to.
                        let kept: Vec<Frame> =
                            self.stack.drain(base..).filter(|f| matches!(f, Frame::Slot { .. })).collect();
                        self.stack.extend(kept);
                        return Ok(Some(pos));
                    }
                    Inst::Char { c, back } => match self.step(pos, back, |x| x == c) {
                        Some(p) => pos = p,
                        None => break,
                    },
                    Inst::Class { class, back } => {
                        let Some(class) = self.program.classes.get(class as usize) else { break };
                        match self.step(pos, back, |x| class.matches(x)) {
                            Some(p) => pos = p,
                            None => break,
                        }
                    }
                    Inst::Split(first, second) => {
                        self.stack.push(Frame::Try { pc: second, pos: pos as u32 });
                        pc = first;
                        continue;
                    }
                    Inst::Jump(to) => {
                        pc = to;
                        continue;
                    }
                    Inst::Assert(a) => {
                        if !holds_at(a, self.text, pos) {
                            break;
                        }
                    }
                    Inst::Save(slot) => {
                        let old = self.slots.get(slot as usize).copied().flatten();
                        self.stack.push(Frame::Slot { slot, old: old.map_or(NONE, |p| p as u32) });
                        self.set_slot(slot as usize, Some(pos));
                    }
                    Inst::Mark(mark) => {
                        let old = self.marks.get(mark as usize).copied().unwrap_or(NONE as usize);
                        self.stack.push(Frame::Mark { mark, old: old as u32 });
                        self.set_mark(mark as usize, pos);
                    }
                    Inst::Progress(mark) => {
                        if self.marks.get(mark as usize) == Some(&pos) {
                            break;
                        }
                    }
                    Inst::Look { negated, next, .. } => {
                        let before = self.stack.len();
                        let found = self.run(pc + 1, pos)?.is_some();
                        if negated {
                            // Nothing a negative lookaround captured is kept.
                            self.unwind(before);
                        }
                        if found == negated {
                            break;
                        }
                        pc = next;
                        continue;
                    }
                    Inst::Backref { group, back } => match self.backref(group as usize, pos, back) {
                        Some(p) => pos = p,
                        None => break,
                    },
                }
                pc += 1;
            }
        }
        Ok(None)
    }


    /// The text group `group` captured, matched again here; a group that captured nothing
    /// matches the empty string.
    fn backref(&mut self, group: usize, pos: usize, back: bool) -> Option<usize> {
        let (Some(Some(start)), Some(Some(end))) = (self.slots.get(2 * group), self.slots.get(2 * group + 1)) else {
            return Some(pos);
        };
        let captured = self.text.get(*start..*end).unwrap_or("");
        self.steps += captured.len() / 16;
        if back {
            self.text.get(..pos).filter(|t| t.ends_with(captured)).map(|_| pos - captured.len())
        } else {
            self.text.get(pos..).filter(|t| t.starts_with(captured)).map(|_| pos + captured.len())
        }
    }
}
