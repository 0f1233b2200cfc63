//! The checks of keywords that judge a value without going into it — `type`, `enum`/`const`,
//! numeric bounds, `multipleOf`, lengths — written once: the evaluator, the one-pass verdict
//! on the text and the stream's in-flight checks all call these, so they cannot disagree.

use super::draft::Draft;
use super::value::{compare, equal, is_draft4_integer, is_integer, is_multiple_of};
use super::{ARRAY, BOOLEAN, INTEGER, NULL, NUMBER, OBJECT, STRING};
use serde_json::{Number, Value};

pub(crate) use super::value::Bound;

/// The type bits a value has (an integral number is both `integer` and `number`; in Draft 4
/// only one written without a fraction is an integer).
#[inline]
pub(crate) fn type_bits(value: &Value, draft: Draft) -> u8 {
    match value {
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Number(n) if draft == Draft::Draft4 && !is_draft4_integer(n) => NUMBER,
        Value::Number(n) if is_integer(n) => INTEGER | NUMBER,
        Value::Number(_) => NUMBER,
        Value::String(_) => STRING,
        Value::Array(_) => ARRAY,
        Value::Object(_) => OBJECT,
    }
}

/// `type`: whether a value with type bits `have` is one of the types in `mask`.
#[inline]
pub(crate) fn type_allows(mask: u8, have: u8) -> bool {
    mask & have != 0
}

/// `type` on a value.
#[inline]
pub(crate) fn type_holds(mask: u8, value: &Value, draft: Draft) -> bool {
    type_allows(mask, type_bits(value, draft))
}

/// `enum`: the value equals one of the options (an `enum` that is not an array allows nothing).
#[inline]
pub(crate) fn enum_holds(options: &Value, value: &Value) -> bool {
    match options {
        Value::Array(list) => list.iter().any(|o| equal(o, value)),
        _ => false,
    }
}

/// `const`.
#[inline]
pub(crate) fn const_holds(expected: &Value, value: &Value) -> bool {
    equal(expected, value)
}

/// `enum`/`const` of strings only, on a string's content: one of them is that string.
#[inline]
pub(crate) fn string_choice_holds<'a>(mut allowed: impl Iterator<Item = &'a str>, s: &str) -> bool {
    allowed.any(|a| a == s)
}

/// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` on a number; numbers that
/// cannot be ordered (none in JSON) pass.
#[inline]
pub(crate) fn bound_holds(bound: Bound, n: &Number, limit: &Number) -> bool {
    compare(n, limit).is_none_or(|order| bound.holds(order))
}

/// `multipleOf`.
#[inline]
pub(crate) fn multiple_holds(n: &Number, multiple_of: &Number) -> bool {
    is_multiple_of(n, multiple_of)
}

/// A string's length as `minLength`/`maxLength` count it: in code points, not bytes.
#[inline]
pub(crate) fn length(s: &str) -> u64 {
    s.chars().count() as u64
}

/// The code points in a piece of UTF-8 (a string streaming in, read a chunk at a time): the
/// bytes that do not continue a code point.
#[inline]
pub(crate) fn code_points(utf8: &[u8]) -> u64 {
    utf8.iter().filter(|b| (**b & 0xC0) != 0x80).count() as u64
}

/// `minLength`. A code point is at most 4 bytes: the count only matters near the limit.
#[inline]
pub(crate) fn min_length_holds(s: &str, limit: u64) -> bool {
    (s.len() as u64) >= limit.saturating_mul(4) || length(s) >= limit
}

/// `maxLength`. A code point is at least a byte: the count only matters past the limit.
#[inline]
pub(crate) fn max_length_holds(s: &str, limit: u64) -> bool {
    (s.len() as u64) <= limit || length(s) <= limit
}

/// `maxLength` on a length already counted (a string still streaming in).
#[inline]
pub(crate) fn length_at_most(length: u64, limit: u64) -> bool {
    length <= limit
}

/// `minItems`, `maxItems`, `minProperties`, `maxProperties` on a count.
#[inline]
pub(crate) fn count_at_least(count: u64, limit: u64) -> bool {
    count >= limit
}

#[inline]
pub(crate) fn count_at_most(count: u64, limit: u64) -> bool {
    count <= limit
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn leaf_rules() {
        assert!(type_holds(INTEGER, &json!(1.0), Draft::Draft7));
        assert!(!type_holds(INTEGER, &json!(1.0), Draft::Draft4));
        assert!(type_holds(NUMBER, &json!(1), Draft::Draft4));
        assert!(min_length_holds("é", 1) && !min_length_holds("é", 2) && max_length_holds("éé", 2) && !max_length_holds("ééé", 2));
        assert!(enum_holds(&json!([1, "a"]), &json!(1.0)) && !enum_holds(&json!({"a": 1}), &json!(1)));
        assert_eq!(code_points("aé€😀".as_bytes()), length("aé€😀"));
        assert!(string_choice_holds(["a", "b"].into_iter(), "b"));
        let (n, limit) = (Number::from(3), Number::from(3));
        assert!(bound_holds(Bound::Maximum, &n, &limit) && !bound_holds(Bound::ExclusiveMaximum, &n, &limit));
    }
}
