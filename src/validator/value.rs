//! JSON values as JSON Schema compares them: numbers by mathematical value (`1` equals `1.0`),
//! objects regardless of member order; numeric bounds compared exactly across integer and float
//! representations; `multipleOf` decided in decimal, as the numbers were written.

use serde_json::{Number, Value};
use std::cmp::Ordering;

/// Equality as `enum`, `const` and `uniqueItems` mean it.
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Some(Ordering::Equal),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

/// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`: the validator's rule, which the
/// one-pass verdict (src/check/verdict.rs) applies too.
#[derive(Clone, Copy, Debug)]
pub enum Bound {
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
}

impl Bound {
    /// Whether a number in `order` to the limit passes.
    pub fn holds(self, order: Ordering) -> bool {
        match self {
            Bound::Minimum => order != Ordering::Less,
            Bound::Maximum => order != Ordering::Greater,
            Bound::ExclusiveMinimum => order == Ordering::Greater,
            Bound::ExclusiveMaximum => order == Ordering::Less,
        }
    }
}

/// Exact order of two numbers, whatever their representations.
pub fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return Some(x.cmp(&y));
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return Some(x.cmp(&y));
    }
    match (int(a), int(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        (Some(x), None) => b.as_f64().and_then(|y| compare_int_float(x, y)),
        (None, Some(y)) => a.as_f64().and_then(|x| compare_int_float(y, x)).map(Ordering::reverse),
        (None, None) => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

fn int(n: &Number) -> Option<i128> {
    n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from))
}

fn compare_int_float(x: i128, y: f64) -> Option<Ordering> {
    if y.is_nan() {
        return None;
    }
    // Every i64/u64 is below 2^65 in magnitude, so outside that range the float decides alone.
    if y >= 3.7e19 {
        return Some(Ordering::Less);
    }
    if y <= -3.7e19 {
        return Some(Ordering::Greater);
    }
    let floor = y.floor();
    let fi = floor as i128;
    match x.cmp(&fi) {
        Ordering::Equal if y > floor => Some(Ordering::Less),
        other => Some(other),
    }
}

/// Whether a number is an integer: from Draft 6 on, any number without a fraction (`1.0` is).
pub fn is_integer(n: &Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// Draft 4's integer: written without a fraction. A float reads as one only beyond 2^53, where
/// the text's digits no longer fit a float exactly (`1.0` does not count).
pub fn is_draft4_integer(n: &Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.is_finite() && f.fract() == 0.0 && f.abs() >= 9_007_199_254_740_992.0)
}

/// Whether `x` is an integer multiple of `m` (`m` > 0).
pub fn is_multiple_of(x: &Number, m: &Number) -> bool {
    if let (Some(a), Some(b)) = (int(x), int(m)) {
        return b != 0 && a % b == 0;
    }
    // In decimal: both as written (shortest round-trip form), scaled to integers.
    if let (Some((xm, xe)), Some((mm, me))) = (decimal(x), decimal(m)) {
        let e = xe.min(me);
        if let (Some(a), Some(b)) = (scale(xm, xe - e), scale(mm, me - e)) {
            return b != 0 && a % b == 0;
        }
    }
    let (Some(a), Some(b)) = (x.as_f64(), m.as_f64()) else { return false };
    let q = a / b;
    if q.is_finite() {
        return q.fract() == 0.0;
    }
    // Too large to divide: an integer is still a multiple of 1/k.
    a.fract() == 0.0 && (1.0 / b).fract() == 0.0
}

/// `n` as mantissa × 10^exponent, both integers.
fn decimal(n: &Number) -> Option<(i128, i32)> {
    if let Some(i) = int(n) {
        return Some((i, 0));
    }
    let f = n.as_f64()?;
    if !f.is_finite() {
        return None;
    }
    if let Some(short) = short_decimal(f) {
        return Some(short);
    }
    shortest_written(f)
}

/// The float as the fewest fractional digits that read back as it, found by arithmetic where
/// that decimal is the only one of its length that does: formatting it (`shortest_written`) costs
/// a hundred times more, and a float such as `45.5` under `multipleOf` is judged at every close.
/// Below `2^52 / 10^k` the floats are closer together than `10^-k`, so at most one decimal with
/// `k` fractional digits reads back as `f`, and it is the shortest form's value. `m / 10^k` is
/// exact in both operands, so the division rounds as reading the decimal does; `m` is within
/// one of the rounded product.
fn short_decimal(f: f64) -> Option<(i128, i32)> {
    const LIMIT: f64 = 4_503_599_627_370_496.0; // 2^52
    let a = f.abs();
    let mut scale = 1.0f64;
    for k in 0..18i32 {
        let t = a * scale;
        if t >= LIMIT {
            return None;
        }
        let m = t.round();
        for c in [m, m - 1.0, m + 1.0] {
            if c >= 0.0 && c / scale == a {
                // `c` is a whole number below 2^52 + 1: exact as an integer.
                #[allow(clippy::cast_possible_truncation)]
                let c = c as i128;
                return Some((if f < 0.0 { -c } else { c }, -k));
            }
        }
        scale *= 10.0;
    }
    None
}

/// The float's shortest form that reads back as it, as mantissa × 10^exponent.
fn shortest_written(f: f64) -> Option<(i128, i32)> {
    // The shortest representation that reads back as the same float, by the formatter
    // serde_json writes floats with (one formatter in the module, not a second).
    let mut buffer = zmij::Buffer::new();
    let s = buffer.format_finite(f);
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    let exp: i32 = exp.parse().ok()?;
    let (sign, digits) = match mantissa.strip_prefix('-') {
        Some(d) => (-1i128, d),
        None => (1, mantissa),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all: String = format!("{whole}{frac}");
    if all.len() > 36 {
        return None;
    }
    let m: i128 = all.parse().ok()?;
    Some((sign * m, exp - i32::try_from(frac.len()).ok()?))
}

fn scale(m: i128, by: i32) -> Option<i128> {
    let mut out = m;
    for _ in 0..by {
        out = out.checked_mul(10)?;
    }
    Some(out)
}

/// A canonical text of a value such that equal values (by `equal`) have equal texts: numbers in
/// one form, object members sorted. For `uniqueItems` on long arrays.
pub fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Number(n) => match int(n) {
            Some(i) => out.push_str(&i.to_string()),
            None => match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 1.0e38 => out.push_str(&(f as i128).to_string()),
                Some(f) => out.push_str(zmij::Buffer::new().format(f)),
                None => out.push_str(&n.to_string()),
            },
        },
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            crate::sort::sort_by(&mut members, |a, b| a.0.cmp(b.0));
            out.push('{');
            for (k, v) in members {
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                canonical(v, out);
                out.push(',');
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Whether every item differs from every other.
pub fn all_unique(items: &[Value]) -> bool {
    if items.len() <= 16 {
        for (i, a) in items.iter().enumerate() {
            if items.iter().skip(i + 1).any(|b| equal(a, b)) {
                return false;
            }
        }
        return true;
    }
    // Scalars sorted by kind (no hashing: nothing to flood, and sorting strings or integers costs
    // less than hashing them); only containers are hashed, by their canonical text.
    let (mut strings, mut ints, mut floats) = (Vec::new(), Vec::new(), Vec::new());
    let mut rest = std::collections::HashSet::new();
    for item in items {
        match Key::of(item) {
            Key::Str(s) => strings.push(s),
            Key::Int(i) => ints.push(i),
            Key::Float(bits) => floats.push(bits),
            other => {
                if !rest.insert(other) {
                    return false;
                }
            }
        }
    }
    distinct(strings) && distinct(ints) && distinct(floats)
}

fn distinct<T: Ord>(mut list: Vec<T>) -> bool {
    crate::sort::sort(&mut list);
    list.windows(2).all(|pair| pair.first() != pair.get(1))
}

/// A value as a hash key such that equal values (by `equal`) have equal keys: scalars as they
/// are (numbers in one form, strings borrowed), containers by their canonical text.
#[derive(PartialEq, Eq, Hash)]
enum Key<'a> {
    Null,
    Bool(bool),
    Int(i128),
    Float(u64),
    Str(&'a str),
    Container(String),
}

impl<'a> Key<'a> {
    fn of(value: &'a Value) -> Key<'a> {
        match value {
            Value::Null => Key::Null,
            Value::Bool(b) => Key::Bool(*b),
            Value::Number(n) => match (int(n), n.as_f64()) {
                (Some(i), _) => Key::Int(i),
                (None, Some(f)) if f.fract() == 0.0 && f.abs() < 1.0e38 => Key::Int(f as i128),
                (None, Some(f)) => Key::Float(f.to_bits()),
                (None, None) => Key::Container(n.to_string()),
            },
            Value::String(s) => Key::Str(s),
            other => {
                let mut text = String::new();
                canonical(other, &mut text);
                Key::Container(text)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn n(v: Value) -> Number {
        match v {
            Value::Number(n) => n,
            _ => panic!(),
        }
    }

    #[test]
    fn numbers_compare_exactly() {
        assert_eq!(compare(&n(json!(1)), &n(json!(1.0))), Some(Ordering::Equal));
        assert_eq!(compare(&n(json!(u64::MAX)), &n(json!(-1))), Some(Ordering::Greater));
        assert_eq!(compare(&n(json!(9007199254740993u64)), &n(json!(9007199254740992.0))), Some(Ordering::Greater));
        assert_eq!(compare(&n(json!(2)), &n(json!(2.5))), Some(Ordering::Less));
        assert_eq!(compare(&n(json!(-3)), &n(json!(-2.5))), Some(Ordering::Less));
    }

    #[test]
    fn multiples_in_decimal() {
        assert!(is_multiple_of(&n(json!(0.0075)), &n(json!(0.0001))));
        assert!(!is_multiple_of(&n(json!(0.00751)), &n(json!(0.0001))));
        assert!(is_multiple_of(&n(json!(4.5)), &n(json!(1.5))));
        assert!(!is_multiple_of(&n(json!(1e308)), &n(json!(0.123456789))));
        assert!(is_multiple_of(&n(json!(10)), &n(json!(2))));
    }

    /// 200,000 pseudo-random 64-bit patterns (xorshift) from `seed`.
    fn bits(seed: u64) -> impl Iterator<Item = u64> {
        std::iter::successors(Some(seed), |&x| {
            let x = x ^ (x << 13);
            let x = x ^ (x >> 7);
            Some(x ^ (x << 17))
        })
        .skip(1)
        .take(200_000)
    }

    #[test]
    fn short_decimals_are_the_shortest_forms_values() {
        // Every float the arithmetic reads, against its shortest written form, by value.
        let read = std::cell::Cell::new(0);
        let same = |f: f64| {
            let (Some((m, e)), Some((wm, we))) = (short_decimal(f), shortest_written(f)) else { return };
            let k = e.min(we);
            assert_eq!(scale(m, e - k), scale(wm, we - k), "{f:e}");
            read.set(read.get() + 1);
        };
        for x in bits(0x9e37_79b9_7f4a_7c15) {
            // Short decimals (as models write them), then arbitrary bits.
            let digits = i32::try_from(x % 9).unwrap_or(0);
            let whole = (x >> 8) % 10_000_000;
            let short = whole as f64 / 10f64.powi(digits);
            same(short);
            same(-short);
            same(f64::from_bits(x));
            same(f64::from_bits(x >> 12 | 0x3ff0_0000_0000_0000) * 10f64.powi(digits - 4));
        }
        for f in [0.0, -0.0, 0.1, 0.3, 45.5, 1e-17, 123_456_789.123_456_7, 4_503_599_627_370_495.0, 9_007_199_254_740_991.0, 0.1 + 0.2, 5e-324] {
            same(f);
        }
        // Every short decimal is read by the arithmetic (the floats of full precision seldom are).
        assert!(read.get() >= 400_000, "{}", read.get());
        assert_eq!(short_decimal(45.5), Some((455, -1)));
        assert_eq!(short_decimal(-0.0075), Some((-75, -4)));
    }

    #[test]
    fn shortest_forms_are_the_standard_librarys() {
        // The formatter's shortest digits, as Rust's own `{:e}` writes them.
        let std_form = |f: f64| {
            let s = format!("{f:e}");
            let (mantissa, exp) = s.split_once('e')?;
            let (whole, frac) = mantissa.trim_start_matches('-').split_once('.').unwrap_or((mantissa.trim_start_matches('-'), ""));
            let m: i128 = format!("{whole}{frac}").parse().ok()?;
            Some((if f.is_sign_negative() { -m } else { m }, exp.parse::<i32>().ok()? - i32::try_from(frac.len()).ok()?))
        };
        for x in bits(0x2545_f491_4f6c_dd1d) {
            let digits = i32::try_from(x % 12).unwrap_or(0);
            for f in [f64::from_bits(x), ((x >> 8) % 100_000_000) as f64 / 10f64.powi(digits)] {
                if f.is_finite() && f != 0.0 {
                    // As short as the standard library's, and reading back as `f` (where two
                    // forms are as close, they may differ in the last digit, as JavaScript's
                    // and Rust's do).
                    let reduced = |d: Option<(i128, i32)>| d.map(|(mut m, mut e)| {
                        while m % 10 == 0 {
                            m /= 10;
                            e += 1;
                        }
                        (m, e)
                    });
                    let (Some((m, e)), Some((sm, _))) = (reduced(shortest_written(f)), reduced(std_form(f))) else { panic!("{f:e}") };
                    assert_eq!(m.unsigned_abs().to_string().len(), sm.unsigned_abs().to_string().len(), "{f:e}");
                    assert_eq!(format!("{m}e{e}").parse::<f64>().ok(), Some(f), "{f:e}");
                }
            }
        }
    }

    #[test]
    fn equality_is_mathematical() {
        assert!(equal(&json!([1, {"a": 2.0, "b": 1}]), &json!([1.0, {"b": 1, "a": 2}])));
        assert!(!all_unique(&[json!(1), json!(1.0)]));
        let many: Vec<Value> = (0..40).map(|i| json!({"k": i})).chain([json!({"k": 3.0})]).collect();
        assert!(!all_unique(&many));
        // Long mixed arrays: each kind of scalar apart, integers and integral floats as one.
        let mixed: Vec<Value> = (0..20).map(|i| json!(i)).chain([json!("a"), json!(0.5), json!(null), json!([1])]).collect();
        assert!(all_unique(&mixed));
        for dup in [json!(3.0), json!("a"), json!(0.5), json!(null), json!([1.0])] {
            let mut with = mixed.clone();
            with.push(dup.clone());
            assert!(!all_unique(&with), "{dup}");
        }
    }
}
