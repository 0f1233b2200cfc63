//! Compiled contracts cached by schema id: compiling the same schema (with the same options)
//! again returns the compiled contract; a changed schema under the same id replaces it.

use crate::schema::contract::{Contract, Options};
use crate::schema::error::SchemaError;
use serde_json::Value;

pub const DEFAULT_CACHE_CAPACITY: usize = 64;

/// A bounded least-recently-used cache of compiled contracts.
pub struct ContractCache {
    capacity: usize,
    /// Most recently used last.
    entries: Vec<Contract>,
    hits: u64,
    misses: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheStats {
    pub entries: usize,
    pub capacity: usize,
    pub hits: u64,
    pub misses: u64,
}

impl Default for ContractCache {
    fn default() -> Self {
        ContractCache::new(DEFAULT_CACHE_CAPACITY)
    }
}

impl ContractCache {
    /// A capacity of 0 disables caching.
    pub fn new(capacity: usize) -> Self {
        ContractCache { capacity, entries: Vec::new(), hits: 0, misses: 0 }
    }

    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        self.evict();
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats { entries: self.entries.len(), capacity: self.capacity, hits: self.hits, misses: self.misses }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Compiles `schema`, or returns the cached contract compiled from the same schema and options.
    /// A contract with a function among its custom formats is compiled anew and not kept: no
    /// fingerprint tells one function from another.
    pub fn compile(&mut self, schema: &Value, options: &Options) -> Result<Contract, SchemaError> {
        if options.has_format_functions() {
            return Contract::compile(schema, options);
        }
        let fingerprint = options.fingerprint(schema);
        if let Some(pos) = self.entries.iter().position(|c| c.fingerprint() == fingerprint.contract && c.schema() == schema) {
            self.hits += 1;
            let contract = self.entries.remove(pos);
            self.entries.push(contract.clone());
            return Ok(contract);
        }
        self.misses += 1;
        let contract = Contract::compile_with_fingerprint(schema, options, fingerprint)?;
        // One entry per schema id: a new version of a schema replaces the old one.
        self.entries.retain(|c| c.schema_id() != contract.schema_id());
        if self.capacity > 0 {
            self.entries.push(contract.clone());
            self.evict();
        }
        Ok(contract)
    }

    /// The cached contract for `schema_id`, if any.
    pub fn get(&self, schema_id: &str) -> Option<Contract> {
        self.entries.iter().find(|c| c.schema_id() == schema_id).cloned()
    }

    fn evict(&mut self) {
        if self.entries.len() > self.capacity {
            let excess = self.entries.len() - self.capacity;
            self.entries.drain(..excess);
        }
    }
}
