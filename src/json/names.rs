//! Sets of the property names of one object as written in JSON text, to tell a repeated name
//! without decoding it: used by the one-pass check (`verdict`) and the renderings of values from
//! their text (`render`).

/// The property names of one object as written (string tokens), to tell a repeated one: the
/// parser keeps one value of a repeated name, so what was read from the text no longer matches.
/// The first is kept apart, so that an object of one name (common) allocates nothing: a set is
/// made for every object rendered from its text. The next are compared one by one while few;
/// past `FEW`, hashed, so that a map of thousands stays linear (ahash,
/// keyed: a built flood of names stays linear too).
#[derive(Default)]
pub struct NameSet<'t> {
    first: Option<&'t [u8]>,
    few: Vec<&'t [u8]>,
    many: Option<std::collections::HashSet<&'t [u8], ahash::RandomState>>,
}

const FEW: usize = 16;

impl<'t> NameSet<'t> {
    /// Adds `name`: false when it was there already.
    pub fn insert(&mut self, name: &'t [u8]) -> bool {
        if let Some(set) = self.many.as_mut() {
            return set.insert(name);
        }
        let Some(first) = self.first else {
            self.first = Some(name);
            return true;
        };
        if first == name || self.few.contains(&name) {
            return false;
        }
        self.few.push(name);
        if self.few.len() >= FEW {
            // Sized for the next doublings at once: growing a set rehashes it.
            let mut set = std::collections::HashSet::with_capacity_and_hasher(4 * FEW, ahash::RandomState::default());
            set.insert(first);
            set.extend(self.few.drain(..));
            self.many = Some(set);
        }
        true
    }
}

/// The property names of one object as hashes of their text as written: tells a repeated name
/// where a repeat only sends the text to a path that decides exactly (the one-pass verdict leaves
/// it to the full parse). It never misses a repeat, and may report one that is not (two names of
/// one 64-bit hash): costing a slower path, never a wrong answer. Cheaper than `NameSet` on the
/// valid path, where every name of every object is added: no slice compared, no allocation
/// below `FEW_HASHES` names; past it a keyed set, so that a built flood stays linear.
#[derive(Default)]
pub struct NameHashes {
    few: [u64; FEW_HASHES],
    len: usize,
    many: Option<std::collections::HashSet<u64, ahash::RandomState>>,
}

const FEW_HASHES: usize = 16;

impl NameHashes {
    /// Adds the name written as `token`: false when it (or a name of the same hash) was there.
    pub fn insert(&mut self, token: &[u8]) -> bool {
        self.insert_hash(name_hash(token))
    }

    /// As new.
    pub fn clear(&mut self) {
        self.len = 0;
        self.many = None;
    }

    fn insert_hash(&mut self, hash: u64) -> bool {
        if let Some(set) = self.many.as_mut() {
            return set.insert(hash);
        }
        let seen = self.few.get(..self.len).unwrap_or_default();
        if seen.contains(&hash) {
            return false;
        }
        match self.few.get_mut(self.len) {
            Some(slot) => {
                *slot = hash;
                self.len += 1;
            }
            None => {
                let mut set = std::collections::HashSet::with_capacity_and_hasher(4 * FEW_HASHES, ahash::RandomState::default());
                set.extend(self.few.iter().copied());
                set.insert(hash);
                self.many = Some(set);
            }
        }
        true
    }
}

/// A 64-bit hash of a name's text, eight bytes a step (multiply and rotate, as FxHash does).
pub(crate) fn name_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mut h = bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for word in words.by_ref() {
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(word).unwrap_or_default());
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    let mut rest = [0u8; 8];
    for (slot, b) in rest.iter_mut().zip(words.remainder()) {
        *slot = *b;
    }
    (h.rotate_left(5) ^ u64::from_le_bytes(rest)).wrapping_mul(K)
}

#[cfg(test)]
mod tests {
    use super::{NameHashes, NameSet};

    #[test]
    fn name_hashes_tell_every_repeat_before_and_after_they_spill() {
        let names: Vec<String> = (0..40).map(|i| format!("\"name number {i}\"")).collect();
        let mut set = NameHashes::default();
        for (i, name) in names.iter().enumerate() {
            assert!(set.insert(name.as_bytes()), "{name}");
            assert!(!set.insert(names[i / 2].as_bytes()), "{i}");
        }
    }

    #[test]
    fn name_sets_tell_repeats_before_and_after_they_hash() {
        let names: Vec<String> = (0..40).map(|i| format!("\"n{i}\"")).collect();
        let mut set = NameSet::default();
        for (i, name) in names.iter().enumerate() {
            assert!(set.insert(name.as_bytes()), "{name}");
            assert!(!set.insert(names[i / 2].as_bytes()), "{i}");
        }
    }
}
