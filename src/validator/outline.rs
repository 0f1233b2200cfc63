//! A compiled node's keywords gathered by what they constrain: the one reading of `Kw` that the
//! checkers building a node form of their own share (the verdict's plan, the stream's checks).
//! Each then takes what it can judge from here, and decides alone about `others`.

use super::Kw;
use serde_json::Value;

#[derive(Default)]
pub(crate) struct Outline<'k> {
    /// The `false` schema.
    pub always_false: bool,
    /// `type`: its index among the node's keywords, the validator's bits and the names as written.
    pub types: Option<(usize, u8, &'k [&'static str])>,
    /// `enum` and `const` in keyword order: the index, the keyword, and its value (the list for
    /// `enum`).
    pub choices: Vec<(usize, &'static str, &'k Value)>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    /// `uniqueItems`, by index.
    pub unique: Option<usize>,
    /// `prefixItems`/`items` (or `items` as an array/`additionalItems`): the prefix and its
    /// keyword, the rest and its keyword.
    pub items: Option<(&'k [usize], &'static str, Option<usize>, &'static str)>,
    pub required: Option<&'k [String]>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub properties: Option<&'k [(String, usize)]>,
    pub patterns: Option<&'k [(usize, String, usize)]>,
    pub additional: Option<usize>,
    pub reference: Option<usize>,
    pub all_of: Option<&'k [usize]>,
    /// `anyOf` and `oneOf` in keyword order: the keyword and its branches.
    pub disjunctions: Vec<(&'k Kw, &'k [usize])>,
    pub not: Option<usize>,
    /// Every other keyword, with its index.
    pub others: Vec<(usize, &'k Kw)>,
}

impl<'k> Outline<'k> {
    /// Out of line: both readers call it.
    #[inline(never)]
    pub(crate) fn of(kws: &'k [Kw]) -> Self {
        let mut o = Outline::default();
        for (index, kw) in kws.iter().enumerate() {
            match kw {
                Kw::False => o.always_false = true,
                Kw::Type { mask, names } => o.types = Some((index, *mask, names)),
                Kw::Enum(v) | Kw::Const(v) => o.choices.push((index, kw.name(), v)),
                Kw::MinLength(n) => o.min_length = Some(*n),
                Kw::MaxLength(n) => o.max_length = Some(*n),
                Kw::MinItems(n) => o.min_items = Some(*n),
                Kw::MaxItems(n) => o.max_items = Some(*n),
                Kw::UniqueItems => o.unique = Some(index),
                Kw::Items { prefix, prefix_keyword, rest, rest_keyword } => o.items = Some((prefix, prefix_keyword, *rest, rest_keyword)),
                Kw::Required(names) => o.required = Some(names),
                Kw::MinProperties(n) => o.min_properties = Some(*n),
                Kw::MaxProperties(n) => o.max_properties = Some(*n),
                Kw::Properties(list) => o.properties = Some(list),
                Kw::PatternProperties(list) => o.patterns = Some(list),
                Kw::AdditionalProperties { node, .. } => o.additional = Some(*node),
                Kw::Ref(node) => o.reference = Some(*node),
                Kw::AllOf(list) => o.all_of = Some(list),
                Kw::AnyOf(list) | Kw::OneOf(list) => o.disjunctions.push((kw, list)),
                Kw::Not(node, _) => o.not = Some(*node),
                _ => o.others.push((index, kw)),
            }
        }
        o
    }

    /// The items' rule owned: the prefix and its keyword, the rest and its keyword (as 2020-12
    /// names them where the node has none).
    pub(crate) fn items_rule(&self) -> (Vec<usize>, &'static str, Option<usize>, &'static str) {
        match self.items {
            Some((prefix, prefix_keyword, rest, rest_keyword)) => (prefix.to_vec(), prefix_keyword, rest, rest_keyword),
            None => (Vec::new(), "prefixItems", None, "items"),
        }
    }
}
