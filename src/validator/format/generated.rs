//! The formats schema generators write that no JSON Schema draft defines: Zod 4's string formats
//! (`z.e164()`, `z.cuid()`, … write `"format": "e164"` and so on). Each is checked as Zod 4
//! defines it (its `regexes.ts`, written here as direct checks of the characters); a schema that
//! says one means the value Zod would accept.

use super::Builtin;

/// The check of a generator's format; `None` for a name the library does not know.
pub(super) fn lookup(name: &str) -> Option<Builtin> {
    Some(match name {
        "base64" => base64,
        "base64url" => base64url,
        "e164" => e164,
        "cuid" => cuid,
        "cuid2" => cuid2,
        "ulid" => ulid,
        "nanoid" => nanoid,
        "jwt" => jwt,
        "cidrv4" => cidrv4,
        "cidrv6" => cidrv6,
        "mac" => mac,
        "hex" => hex,
        "emoji" => emoji,
        _ => return None,
    })
}

/// Every format of this module, for the editor's lists and the tests.
pub(crate) const NAMES: [&str; 13] =
    ["base64", "base64url", "e164", "cuid", "cuid2", "ulid", "nanoid", "jwt", "cidrv4", "cidrv6", "mac", "hex", "emoji"];

fn is_base64_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/'
}

fn is_base64url_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// `base64`: RFC 4648 section 4 with its padding — groups of four of `A–Z a–z 0–9 + /`, the
/// last group possibly `xx==` or `xxx=`; the empty string too.
fn base64(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() % 4 != 0 {
        return false;
    }
    let pad = b.iter().rev().take_while(|c| **c == b'=').count();
    pad <= 2 && b.iter().take(b.len() - pad).all(|c| is_base64_char(*c))
}

/// `base64url`: RFC 4648 section 5 without padding — `A–Z a–z 0–9 - _`, in groups of four with a
/// last group of two or three (a length of 4n+1 encodes nothing); the empty string too.
fn base64url(s: &str) -> bool {
    s.len() % 4 != 1 && s.bytes().all(is_base64url_char)
}

/// `e164`: an E.164 telephone number — `+`, a digit 1–9, then 6 to 14 digits (7 to 15 in all).
fn e164(s: &str) -> bool {
    let Some(digits) = s.strip_prefix('+') else { return false };
    let b = digits.as_bytes();
    (7..=15).contains(&b.len()) && b.iter().all(u8::is_ascii_digit) && b.first() != Some(&b'0')
}

/// `cuid`: `c` or `C`, then at least six of `0–9 a–z`.
fn cuid(s: &str) -> bool {
    let b = s.as_bytes();
    matches!(b.first(), Some(b'c' | b'C')) && b.len() >= 7 && b.iter().skip(1).all(|c| c.is_ascii_digit() || c.is_ascii_lowercase())
}

/// `cuid2`: one or more of `0–9 a–z`.
fn cuid2(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit() || c.is_ascii_lowercase())
}

/// `ulid`: 26 characters of Crockford's base 32 (`0–9` and the letters but `I L O U`, either
/// case), the first `0–7` (a 48-bit time).
fn ulid(s: &str) -> bool {
    let b = s.as_bytes();
    let crockford = |c: &u8| c.is_ascii_digit() || (c.is_ascii_alphabetic() && !matches!(c.to_ascii_uppercase(), b'I' | b'L' | b'O' | b'U'));
    b.len() == 26 && matches!(b.first(), Some(b'0'..=b'7')) && b.iter().all(crockford)
}

/// `nanoid`: exactly 21 of `A–Z a–z 0–9 _ -` (nanoid's default alphabet and length).
fn nanoid(s: &str) -> bool {
    s.len() == 21 && s.bytes().all(is_base64url_char)
}

/// The bytes of unpadded base64url text (`None` when it is not that).
fn decode_base64url(s: &str) -> Option<Vec<u8>> {
    if !base64url(s) {
        return None;
    }
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'-' => 62,
            _ => 63,
        }
    };
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    for chunk in s.as_bytes().chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, c)| acc | value(*c) << (18 - 6 * i));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend(bytes.iter().take(chunk.len() - 1));
    }
    Some(out)
}

/// `jwt`: a JSON Web Token's shape (RFC 7519, compact JWS) — three base64url parts joined by
/// `.`, the first a JSON object with an `alg` member and, when it has a `typ`, `"typ": "JWT"`.
/// The signature is not verified: no key is known.
fn jwt(s: &str) -> bool {
    let mut parts = s.split('.');
    let (Some(header), Some(payload), Some(signature), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else { return false };
    if !base64url(payload) || !base64url(signature) {
        return false;
    }
    // Read as text (`from_str`), the parser the module already carries, not a second one for bytes.
    let Some(text) = decode_base64url(header).and_then(|b| String::from_utf8(b).ok()) else { return false };
    let Ok(serde_json::Value::Object(header)) = serde_json::from_str::<serde_json::Value>(&text) else { return false };
    let alg = header.get("alg").is_some_and(|a| a.as_str().is_some_and(|a| !a.is_empty()));
    alg && header.get("typ").is_none_or(|t| t == "JWT")
}

/// The prefix length after an address's `/`: decimal without leading zeros, at most `max`.
fn prefix(s: &str, max: u16) -> bool {
    !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit()) && (s.len() == 1 || !s.starts_with('0')) && s.parse::<u16>().is_ok_and(|n| n <= max)
}

/// `cidrv4`: an IPv4 address (as `ipv4` reads it), `/`, a prefix length 0–32.
fn cidrv4(s: &str) -> bool {
    s.split_once('/').is_some_and(|(ip, bits)| super::ipv4(ip) && prefix(bits, 32))
}

/// `cidrv6`: an IPv6 address (as `ipv6` reads it), `/`, a prefix length 0–128.
fn cidrv6(s: &str) -> bool {
    s.split_once('/').is_some_and(|(ip, bits)| super::ipv6(ip) && prefix(bits, 128))
}

/// `mac`: a 48-bit MAC address — six pairs of hex digits, all upper case or all lower case,
/// joined by `:` (Zod's default), or all by `-` (its other usual delimiter).
fn mac(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(&delimiter) = b.get(2).filter(|d| matches!(d, b':' | b'-')) else { return false };
    let digits: Vec<u8> = b.iter().enumerate().filter(|(i, _)| i % 3 != 2).map(|(_, c)| *c).collect();
    b.len() == 17
        && b.iter().enumerate().filter(|(i, _)| i % 3 == 2).all(|(_, c)| *c == delimiter)
        && (digits.iter().all(|c| c.is_ascii_digit() || (b'A'..=b'F').contains(c)) || digits.iter().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c)))
}

/// `hex`: any number (zero too) of hex digits, either case.
fn hex(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `emoji`: one or more characters, each `Extended_Pictographic` or `Emoji_Component` (Unicode's
/// emoji properties), at least one of them `Extended_Pictographic`, a regional indicator or
/// U+20E3 (the keycap), so digits and `#` alone (emoji components) are not emoji.
fn emoji(s: &str) -> bool {
    use std::sync::OnceLock;
    type Ranges = Vec<(u32, u32)>;
    static SETS: OnceLock<(Ranges, Ranges)> = OnceLock::new();
    let (pictographic, component) = SETS.get_or_init(|| {
        let get = |name: &str| crate::validator::ecma::unicode_property(name).unwrap_or_default();
        (get("Extended_Pictographic"), get("Emoji_Component"))
    });
    let within = |set: &Ranges, c: u32| set.binary_search_by(|(lo, hi)| if *hi < c { std::cmp::Ordering::Less } else if *lo > c { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Equal }).is_ok();
    let mut marked = false;
    for c in s.chars().map(u32::from) {
        let pict = within(pictographic, c);
        if !pict && !within(component, c) {
            return false;
        }
        marked |= pict || (0x1F1E6..=0x1F1FF).contains(&c) || c == 0x20E3;
    }
    marked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, valid: &[&str], invalid: &[&str]) {
        let f = lookup(name).unwrap();
        for s in valid {
            assert!(f(s), "{name}: {s:?} should be valid");
        }
        for s in invalid {
            assert!(!f(s), "{name}: {s:?} should be invalid");
        }
    }

    #[test]
    fn zod_formats() {
        check("base64", &["", "YQ==", "YWI=", "YWJj", "SGVsbG8gd29ybGQ="], &["YQ", "YQ=", "Y===", "YW!j", "YWJj\n", "YQ==YQ=="]);
        check("base64url", &["", "YQ", "YWI", "YWJj", "_-8A"], &["Y", "YQ==", "a+b/", "YWJjZ"]);
        check("e164", &["+14155552671", "+4930123456", "+1234567"], &["14155552671", "+0123456789", "+123456", "+1234567890123456", "+1 415 555"]);
        check("cuid", &["cjld2cjxh0000qzrmn831i7rn", "C123456"], &["cjld2", "xjld2cjxh0000qzrmn831i7rn", "cABCDEFG", "c-123456"]);
        check("cuid2", &["tz4a98xxat96iws9zmbrgj3a", "a"], &["", "Tz4a98", "tz4a-98"]);
        check("ulid", &["01ARZ3NDEKTSV4RRFFQ69G5FAV", "7zzzzzzzzzzzzzzzzzzzzzzzzz"], &["81ARZ3NDEKTSV4RRFFQ69G5FAV", "01ARZ3NDEKTSV4RRFFQ69G5FA", "01ARZ3NDEKTSV4RRFFQ69G5FAI"]);
        check("nanoid", &["V1StGXR8_Z5jdHi6B-myT"], &["V1StGXR8_Z5jdHi6B-my", "V1StGXR8_Z5jdHi6B-myT!", "V1StGXR8 Z5jdHi6B-myT"]);
        // {"alg":"HS256","typ":"JWT"} . {"sub":"1"} . signature
        let token = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.c2ln";
        // {"typ":"JWT"} without alg; {"alg":"HS256","typ":"JOSE"}
        let no_alg = "eyJ0eXAiOiJKV1QifQ.eyJzdWIiOiIxIn0.c2ln";
        let other_typ = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpPU0UifQ.eyJzdWIiOiIxIn0.c2ln";
        check("jwt", &[token, "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0."], &[no_alg, other_typ, "a.b", "eyJhbGciOiJIUzI1NiJ9.e30.c2ln.x", "e30.e30.c2ln", "eyJhbGciOiJIUzI1NiJ9.e3+0.c2ln"]);
        check("cidrv4", &["192.168.0.0/24", "0.0.0.0/0", "10.0.0.1/32"], &["192.168.0.0", "192.168.0.0/33", "192.168.0.0/024", "256.0.0.0/8", "1.2.3/8"]);
        check("cidrv6", &["2001:db8::/32", "::/0", "fe80::1/128"], &["2001:db8::", "2001:db8::/129", "2001:db8::/032", "2001:zb8::/32"]);
        check("mac", &["00:1A:2B:3C:4D:5E", "00:1a:2b:3c:4d:5e", "00-1a-2b-3c-4d-5e"], &["00:1a:2B:3c:4d:5e", "00:1a:2b:3c:4d", "00:1a-2b:3c:4d:5e", "001a2b3c4d5e", "00:1a:2b:3c:4d:5g"]);
        check("hex", &["", "deadBEEF", "0123456789abcdef"], &["0x12", "g", "12 34"]);
        check("emoji", &["👋", "👋👋", "🍺👩‍🚀🫡", "🇫🇷", "1️⃣"], &["", "a", "1", "#", "👋a", "hello 👋"]);
    }
}
