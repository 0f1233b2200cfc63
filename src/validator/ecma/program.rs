//! A parsed pattern compiled to instructions both matchers run: counted repetitions unrolled,
//! alternatives as splits, and lookbehind bodies compiled to read right to left.

use super::class::Class;
use super::parse::{Assert, Ast};
use std::collections::BTreeMap;

/// A larger program is refused: `x{1000}{1000}` would unroll to a million copies.
const MAX_INSTS: usize = 100_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inst {
    /// One character; `back` reads the one before the position (lookbehind).
    Char { c: char, back: bool },
    Class { class: u32, back: bool },
    /// Both ways on; the first is preferred.
    Split(u32, u32),
    Jump(u32),
    Assert(Assert),
    /// A capture slot takes the position (group g has slots 2g and 2g + 1).
    Save(u32),
    /// An unbounded repetition's iteration starts here; `Progress` of the same mark fails the
    /// iteration if it consumed nothing, as ECMA-262 stops empty iterations.
    Mark(u32),
    Progress(u32),
    /// A lookaround whose body follows up to its `LookMatch`; matching goes on at `next`.
    Look { behind: bool, negated: bool, next: u32 },
    LookMatch,
    Backref { group: u32, back: bool },
    Match,
}

#[derive(Debug)]
pub struct Program {
    pub insts: Vec<Inst>,
    pub classes: Vec<Class>,
    pub slots: usize,
    pub marks: usize,
    /// The pattern can only match at the start of the text (it begins with `^`).
    pub anchored: bool,
}

/// `backtracking`: the program is for backtrack.rs, which needs the captures and the
/// empty-iteration marks; the other matchers keep each (instruction, position) once anyway.
pub fn compile(node: &Ast, groups: usize, backtracking: bool) -> Result<Program, String> {
    let mut c = Emitter { insts: Vec::new(), classes: Vec::new(), class_of: BTreeMap::new(), marks: 0, back: false, backtracking };
    c.node(node)?;
    c.push(Inst::Match)?;
    Ok(Program {
        insts: c.insts,
        classes: c.classes,
        slots: 2 * (groups + 1),
        marks: c.marks as usize,
        anchored: anchored(node),
    })
}

fn anchored(node: &Ast) -> bool {
    match node {
        Ast::Assert(Assert::Start) => true,
        Ast::Concat(nodes) => nodes.first().is_some_and(anchored),
        Ast::Group { node, .. } => anchored(node),
        Ast::Alt(nodes) => nodes.iter().all(anchored),
        _ => false,
    }
}

struct Emitter {
    insts: Vec<Inst>,
    classes: Vec<Class>,
    class_of: BTreeMap<usize, u32>,
    marks: u32,
    back: bool,
    backtracking: bool,
}

impl Emitter {
    fn pc(&self) -> u32 {
        self.insts.len() as u32
    }

    fn push(&mut self, inst: Inst) -> Result<u32, String> {
        if self.insts.len() >= MAX_INSTS {
            return Err(format!("pattern is too large (over {MAX_INSTS} instructions once repetitions are unrolled)"));
        }
        self.insts.push(inst);
        Ok(self.pc() - 1)
    }

    fn patch(&mut self, at: u32, inst: Inst) {
        if let Some(slot) = self.insts.get_mut(at as usize) {
            *slot = inst;
        }
    }

    fn node(&mut self, node: &Ast) -> Result<(), String> {
        match node {
            Ast::Empty => {}
            Ast::Class(class) => {
                let back = self.back;
                if let Some(c) = class.as_char() {
                    self.push(Inst::Char { c, back })?;
                } else {
                    // Unrolled copies of a class share one entry, found by the parsed node's
                    // address (a BTreeMap: std's HashMap would seed itself from random values,
                    // which workerd forbids at global scope).
                    let key = class as *const Class as usize;
                    let next = self.classes.len() as u32;
                    let index = *self.class_of.entry(key).or_insert(next);
                    if index == next {
                        self.classes.push(class.clone());
                    }
                    self.push(Inst::Class { class: index, back })?;
                }
            }
            Ast::Assert(a) => {
                self.push(Inst::Assert(*a))?;
            }
            Ast::Concat(nodes) => {
                if self.back {
                    for n in nodes.iter().rev() {
                        self.node(n)?;
                    }
                } else {
                    for n in nodes {
                        self.node(n)?;
                    }
                }
            }
            Ast::Alt(nodes) => {
                let mut jumps = Vec::new();
                let last = nodes.len().saturating_sub(1);
                for (i, n) in nodes.iter().enumerate() {
                    if i == last {
                        self.node(n)?;
                    } else {
                        let split = self.push(Inst::Split(0, 0))?;
                        self.node(n)?;
                        jumps.push(self.push(Inst::Jump(0))?);
                        let pc = self.pc();
                        self.patch(split, Inst::Split(split + 1, pc));
                    }
                }
                let end = self.pc();
                for j in jumps {
                    self.patch(j, Inst::Jump(end));
                }
            }
            Ast::Repeat { node, min, max, greedy } => self.repeat(node, *min, *max, *greedy)?,
            Ast::Group { node, index } => match index {
                Some(g) if self.backtracking => {
                    let (open, close) = (2 * *g as u32, 2 * *g as u32 + 1);
                    // Right to left, a group's end is reached first.
                    let (first, second) = if self.back { (close, open) } else { (open, close) };
                    self.push(Inst::Save(first))?;
                    self.node(node)?;
                    self.push(Inst::Save(second))?;
                }
                _ => self.node(node)?,
            },
            Ast::Look { node, behind, negated } => {
                let look = self.push(Inst::Look { behind: *behind, negated: *negated, next: 0 })?;
                let outer = std::mem::replace(&mut self.back, *behind);
                self.node(node)?;
                self.back = outer;
                self.push(Inst::LookMatch)?;
                let next = self.pc();
                self.patch(look, Inst::Look { behind: *behind, negated: *negated, next });
            }
            Ast::Backref(g) => {
                self.push(Inst::Backref { group: *g as u32, back: self.back })?;
            }
        }
        Ok(())
    }

    fn repeat(&mut self, node: &Ast, min: u32, max: Option<u32>, greedy: bool) -> Result<(), String> {
        for _ in 0..min {
            let before = self.pc();
            self.node(node)?;
            // An empty body (`(?:){4000000000}`) adds nothing however often it is repeated.
            if self.pc() == before {
                return Ok(());
            }
        }
        let split = |body: u32, exit: u32| if greedy { Inst::Split(body, exit) } else { Inst::Split(exit, body) };
        match max {
            None if !self.backtracking => {
                let top = self.push(Inst::Split(0, 0))?;
                self.node(node)?;
                self.push(Inst::Jump(top))?;
                let exit = self.pc();
                self.patch(top, split(top + 1, exit));
            }
            None => {
                let mark = self.marks;
                self.marks += 1;
                let top = self.push(Inst::Split(0, 0))?;
                self.push(Inst::Mark(mark))?;
                self.node(node)?;
                self.push(Inst::Progress(mark))?;
                self.push(Inst::Jump(top))?;
                let exit = self.pc();
                self.patch(top, split(top + 1, exit));
            }
            Some(max) => {
                // x{0,3} is (x(x(x)?)?)?: each optional copy may skip to the common end.
                let mut splits = Vec::new();
                for _ in min..max {
                    splits.push(self.push(Inst::Split(0, 0))?);
                    self.node(node)?;
                }
                let exit = self.pc();
                for s in splits {
                    self.patch(s, split(s + 1, exit));
                }
            }
        }
        Ok(())
    }
}
