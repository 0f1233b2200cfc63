//! A stable content hash of a schema: the same schema gives the same id whatever its key order,
//! on every platform and in every run (no random seeding, which workerd forbids at load time).

use serde_json::Value;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a, 64 bits, over the canonical form (keys sorted, no whitespace) of `value`.
pub fn hash(value: &Value) -> u64 {
    let mut h = Fnv(FNV_OFFSET);
    feed(&mut h, value);
    h.0
}

/// The two hashes a compile needs: of the schema alone (`hash`, its default id) and of
/// everything that shapes the contract (the cache key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    pub schema: u64,
    pub contract: u64,
}

/// Hashes the schema, then the other documents and the strings in sequence. The state after
/// the schema is `hash(schema)`, so one pass gives both (hashing is a fifth of a compile).
pub fn fingerprint(schema: &Value, others: &[&Value], strings: &[&str]) -> Fingerprint {
    let mut h = Fnv(FNV_OFFSET);
    feed(&mut h, schema);
    let schema_hash = h.0;
    h.write(&[0xff]);
    for v in others {
        feed(&mut h, v);
        h.write(&[0xff]);
    }
    for s in strings {
        h.write(s.as_bytes());
        h.write(&[0xfe]);
    }
    Fingerprint { schema: schema_hash, contract: h.0 }
}

struct Fnv(u64);

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }
}

fn feed(h: &mut Fnv, value: &Value) {
    match value {
        Value::Null => h.write(b"n"),
        Value::Bool(b) => h.write(if *b { b"t" } else { b"f" }),
        Value::Number(n) => {
            h.write(b"#");
            h.write(n.to_string().as_bytes());
        }
        Value::String(s) => {
            h.write(b"\"");
            h.write(&(s.len() as u64).to_le_bytes());
            h.write(s.as_bytes());
        }
        Value::Array(items) => {
            h.write(b"[");
            for item in items {
                feed(h, item);
            }
            h.write(b"]");
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            crate::sort::sort(&mut keys);
            h.write(b"{");
            for k in keys {
                h.write(&(k.len() as u64).to_le_bytes());
                h.write(k.as_bytes());
                if let Some(v) = map.get(k) {
                    feed(h, v);
                }
            }
            h.write(b"}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_does_not_matter_content_does() {
        let a = json!({"type": "object", "required": ["a"]});
        let b: Value = serde_json::from_str(r#"{"required":["a"],"type":"object"}"#).unwrap_or_default();
        assert_eq!(hash(&a), hash(&b));
        assert_ne!(hash(&a), hash(&json!({"type": "object", "required": ["b"]})));
        // Pinned, so a change of the algorithm (and of every default schema id) is noticed.
        assert_eq!(format!("{:016x}", hash(&json!({}))), "08f44b07b5901a25");
        let both = fingerprint(&a, &[&json!({"x": 1})], &["options"]);
        assert_eq!(both.schema, hash(&a));
        assert_ne!(both.contract, fingerprint(&a, &[], &["options"]).contract);
    }
}
