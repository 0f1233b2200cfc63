//! The matcher for patterns without lookaround or backreferences on texts short enough: one path
//! at a time, like a backtracker, but each (instruction, position) is tried at most once — a
//! second arrival can only fail as the first did — so the time is linear in the text. Faster
//! than the Pike VM, which follows every path at once, on the short strings schemas constrain.

use super::pike::holds_at;
use super::program::{Inst, Program};

/// Instructions × positions beyond this go to the Pike VM instead: 32 KB of visited bits, and
/// at most as many paths waiting on the stack (2 MB).
const MAX_VISITED: usize = 256 * 1024;

#[derive(Debug, Default)]
pub struct Scratch {
    visited: Vec<u64>,
    stack: Vec<(u32, u32)>,
}

/// Visited sets or stacks larger than this are not kept between calls: a contract has a pattern per
/// string keyword, and linear memory, once grown, is never given back.
const KEPT_WORDS: usize = 512;

/// None when the text is too long for the visited set.
pub fn is_match(program: &Program, text: &str, scratch: &mut Scratch) -> Option<bool> {
    let answer = run(program, text, scratch);
    if scratch.visited.capacity() > KEPT_WORDS || scratch.stack.capacity() > KEPT_WORDS {
        *scratch = Scratch::default();
    }
    answer
}

fn run(program: &Program, text: &str, scratch: &mut Scratch) -> Option<bool> {
    let positions = text.len() + 1;
    let states = program.insts.len().checked_mul(positions).filter(|n| *n <= MAX_VISITED)?;
    let Scratch { visited, stack } = scratch;
    visited.clear();
    visited.resize(states.div_ceil(64), 0);
    stack.clear();
    let mut start = 0;
    loop {
        stack.push((0, start as u32));
        while let Some((mut pc, pos)) = stack.pop() {
            // Positions fit: the text is shorter than MAX_VISITED.
            let mut pos = pos as usize;
            loop {
                let state = pc as usize * positions + pos;
                let Some(word) = visited.get_mut(state / 64) else { break };
                let bit = 1u64 << (state % 64);
                if *word & bit != 0 {
                    break;
                }
                *word |= bit;
                match program.insts.get(pc as usize) {
                    Some(Inst::Match) => return Some(true),
                    Some(Inst::Char { c, .. }) => match text.get(pos..).and_then(|rest| rest.chars().next()) {
                        Some(x) if x == *c => pos += x.len_utf8(),
                        _ => break,
                    },
                    Some(Inst::Class { class, .. }) => {
                        let class = program.classes.get(*class as usize);
                        match text.get(pos..).and_then(|rest| rest.chars().next()) {
                            Some(x) if class.is_some_and(|k| k.matches(x)) => pos += x.len_utf8(),
                            _ => break,
                        }
                    }
                    Some(Inst::Split(first, second)) => {
                        stack.push((*second, pos as u32));
                        pc = *first;
                        continue;
                    }
                    Some(Inst::Jump(to)) => {
                        pc = *to;
                        continue;
                    }
                    Some(Inst::Assert(a)) => {
                        if !holds_at(*a, text, pos) {
                            break;
                        }
                    }
                    Some(Inst::Save(_) | Inst::Mark(_) | Inst::Progress(_)) => {}
                    _ => break,
                }
                pc += 1;
            }
        }
        if program.anchored {
            return Some(false);
        }
        match text.get(start..).and_then(|rest| rest.chars().next()) {
            Some(c) => start += c.len_utf8(),
            None => return Some(false),
        }
    }
}
