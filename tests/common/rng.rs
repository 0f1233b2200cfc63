//! The one seeded random source of the tests: xorshift64, small and deterministic, so that every
//! run makes the same values and a failure reproduces from its seed. The integration tests reach
//! it through tests/common; the library's unit tests include this same file (src/lib.rs,
//! `test_rng`).

/// A deterministic generator; the same seed gives the same sequence on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (any value: xorshift needs a state that is not zero, so
    /// the lowest bit is set).
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// One of `items`, which must not be empty.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        let i = self.below(items.len());
        &items[i]
    }

    /// Lengths from 1 to `most`, the small ones more often.
    pub fn chunk(&mut self, most: usize) -> usize {
        let bound = 1 + self.below(most);
        1 + self.below(bound)
    }
}
