//! One sort for the whole crate. The standard library's sort is generic over the element type
//! and the comparison, and each of its instances is 3–9 KB of WebAssembly: the crate's fifteen
//! made 91 KB, a ninth of the module's code, which every runtime validates before the first
//! call. Here only the positions are sorted, through one comparison type, so there is one
//! instance; each use adds a small wrapper that compares its elements and moves them in place.
//! The cost is a dynamic call per comparison, on sorts that are short or off the hot paths
//! (schema compilation, the few violations of a failure, the full validator's `uniqueItems` past
//! 16 items). The one-pass check's `uniqueItems` keeps the standard sort: it runs on every valid
//! output.
use std::cmp::Ordering;

/// Sorts `items` by `cmp`, stably (equal elements keep their order).
pub fn sort_by<T>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    {
        let items: &[T] = items;
        let by = |a: &usize, b: &usize| match (items.get(*a), items.get(*b)) {
            (Some(x), Some(y)) => cmp(x, y),
            _ => Ordering::Equal,
        };
        positions(&mut order, &by);
    }
    permute(items, &order);
}

/// Sorts `items` in their natural order.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The one instance of the standard sort: positions, compared through `cmp`.
#[inline(never)]
fn positions(order: &mut [usize], cmp: &dyn Fn(&usize, &usize) -> Ordering) {
    order.sort_by(cmp);
}

/// Rearranges `items` so that position `i` holds what was at `order[i]` (a permutation), one
/// cycle at a time: each element moves once.
fn permute<T>(items: &mut [T], order: &[usize]) {
    let mut done = vec![false; items.len()];
    for start in 0..items.len() {
        if done.get(start) != Some(&false) {
            continue;
        }
        let mut i = start;
        loop {
            if let Some(d) = done.get_mut(i) {
                *d = true;
            }
            let Some(&j) = order.get(i) else { return };
            if j == start || j >= items.len() {
                break;
            }
            items.swap(i, j);
            i = j;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_sort_and_keeps_equal_elements_in_order() {
        // Pseudo-random pairs (key, original position), with many equal keys.
        let mut rng = crate::test_rng::Rng::new(0x2545_f491_4f6c_dd1d);
        for len in [0usize, 1, 2, 3, 7, 16, 17, 100, 1000] {
            let items: Vec<(u64, usize)> = (0..len).map(|i| (rng.next_u64() % 10, i)).collect();
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = items.clone();
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std, "length {len}");
        }
        let mut words = vec!["pear", "apple", "fig", "apple", "banana"];
        sort(&mut words);
        assert_eq!(words, ["apple", "apple", "banana", "fig", "pear"]);
    }
}
