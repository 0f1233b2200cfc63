//! OpenAPI's `discriminator` beside `oneOf`/`anyOf` (`{"propertyName": "kind", "mapping": {…}}`,
//! as Pydantic, OpenAPI documents and generators write it): an annotation that names the member
//! whose value says which branch an object is meant for. The validator's verdict does not change;
//! the report does: a value whose tag selects a branch is reported against that branch, and the
//! stream's early checks keep to the same branch (src/check/early.rs).

use super::{Compiler, CompileError, Site};
use crate::validator::Validator;
use serde_json::{Map, Value};

/// The tag values that select a branch of a disjunction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Selector {
    /// The member that holds the tag (`propertyName`).
    pub tag: String,
    pub values: Vec<String>,
}

impl<'s> Compiler<'s, '_> {
    /// Gives each branch of the disjunction at `site` the tag values that select it: the keys of
    /// `mapping` whose value is the branch's `$ref`, and the `const` (or `enum`) the branch (or
    /// the schema its `$ref` names) gives the tag under `properties`.
    pub(super) fn discriminator(&mut self, obj: &'s Map<String, Value>, site: &Site<'s>, branches: &'s [Value], nodes: &[usize]) -> Result<(), CompileError> {
        let discriminator = obj.get("discriminator");
        let Some(Value::String(tag)) = discriminator.and_then(|d| d.get("propertyName")) else { return Ok(()) };
        let mapping = discriminator.and_then(|d| d.get("mapping")).and_then(Value::as_object);
        for (branch, node) in branches.iter().zip(nodes) {
            let reference = branch.get("$ref").and_then(Value::as_str);
            let mut values: Vec<String> = Vec::new();
            // Loops that push, not `extend` over adapters: one instance of the growth code.
            if let (Some(mapping), Some(r)) = (mapping, reference) {
                for (value, to) in mapping {
                    if to.as_str() == Some(r) {
                        values.push(value.clone());
                    }
                }
            }
            // A reference that does not resolve is the branch's own compile error, reported there.
            let target = match reference {
                Some(r) => self.resolve(site, r, "$ref").ok().map(|(t, _)| t.value),
                None => Some(branch),
            };
            let member = target.and_then(|t| t.get("properties")).and_then(|p| p.get(tag.as_str()));
            match (member.and_then(|m| m.get("const")), member.and_then(|m| m.get("enum"))) {
                (Some(Value::String(value)), _) => values.push(value.clone()),
                (None, Some(Value::Array(list))) => {
                    for value in list.iter().filter_map(Value::as_str) {
                        values.push(value.to_string());
                    }
                }
                _ => {}
            }
            crate::sort::sort(&mut values);
            values.dedup();
            if let (false, Some(n)) = (values.is_empty(), self.nodes.get_mut(*node)) {
                n.selected_by = Some(Box::new(Selector { tag: tag.clone(), values }));
            }
        }
        Ok(())
    }
}

impl Validator {
    /// The member whose value selects among these branches, when they are a discriminated
    /// disjunction's.
    pub(crate) fn branch_tag(&self, branches: &[usize]) -> Option<&str> {
        branches.iter().find_map(|b| self.nodes.get(*b)?.selected_by.as_ref()).map(|s| s.tag.as_str())
    }

    /// The branch a tag value selects (the first that lists it).
    pub(crate) fn branch_for(&self, branches: &[usize], value: &str) -> Option<usize> {
        branches.iter().position(|b| self.nodes.get(*b).and_then(|n| n.selected_by.as_ref()).is_some_and(|s| s.values.iter().any(|v| v == value)))
    }

    /// The branch an object's tag selects, for the report of a failed disjunction.
    pub(crate) fn selected_branch(&self, branches: &[usize], value: &Value) -> Option<usize> {
        let tag = self.branch_tag(branches)?;
        self.branch_for(branches, value.as_object()?.get(tag)?.as_str()?)
    }
}
