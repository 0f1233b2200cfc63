//! The formats schema generators write that no JSON Schema draft defines: Zod 4's string formats
//! (`z.e164()`, `z.cuid()`, … write `"format": "e164"` and so on). Each is checked as Zod 4
//! defines it (its `regexes.ts`, written here as direct checks of the characters); a schema that
//! says one means the value Zod would accept.

use super::Builtin;

/// The check of a generator's format; `None` for a name the library does not know.
pub(super) fn lookup(name: &str) -> Option<Builtin> {
    Some(match name {
        "base64" => |s| matches(0, s),
        "base64url" => base64url,
        "e164" => |s| matches(2, s),
        "cuid" => |s| matches(3, s),
        "cuid2" => |s| matches(4, s),
        "ulid" => |s| matches(5, s),
        "nanoid" => |s| matches(6, s),
        "jwt" => jwt,
        "cidrv4" => |s| s.split_once('/').is_some_and(|(ip, bits)| super::ipv4(ip) && matches(8, bits)),
        "cidrv6" => |s| s.split_once('/').is_some_and(|(ip, bits)| super::ipv6(ip) && matches(9, bits)),
        "mac" => |s| matches(10, s),
        "hex" => |s| matches(11, s),
        "emoji" => |s| matches(12, s),
        _ => return None,
    })
}

/// Every format of this module, for the editor's lists and the tests.
pub(crate) const NAMES: [&str; 13] =
    ["base64", "base64url", "e164", "cuid", "cuid2", "ulid", "nanoid", "jwt", "cidrv4", "cidrv6", "mac", "hex", "emoji"];

/// The formats that are regular languages, as patterns run by the library's own matcher, in
/// the order of `NAMES` (`cidrv4`/`cidrv6`: the prefix length after the address's `/`, decimal
/// without leading zeros, at most 32 or 128). Each is compiled on its first use.
///
/// - `base64`: RFC 4648 section 4 with its padding — groups of four of `A–Z a–z 0–9 + /`, the
///   last group possibly `xx==` or `xxx=`; the empty string too.
/// - `base64url`: RFC 4648 section 5 without padding — `A–Z a–z 0–9 - _`, in groups of four with
///   a last group of two or three (a length of 4n+1 encodes nothing); the empty string too.
/// - `e164`: an E.164 telephone number — `+`, a digit 1–9, then 6 to 14 digits (7 to 15 in all).
/// - `cuid`: `c` or `C`, then at least six of `0–9 a–z`. `cuid2`: one or more of `0–9 a–z`.
/// - `ulid`: 26 characters of Crockford's base 32 (`0–9` and the letters but `I L O U`, either
///   case), the first `0–7` (a 48-bit time).
/// - `nanoid`: exactly 21 of `A–Z a–z 0–9 _ -` (nanoid's default alphabet and length).
/// - `mac`: a 48-bit MAC address — six pairs of hex digits, all upper case or all lower case,
///   joined by `:` (Zod's default), or all by `-` (its other usual delimiter).
/// - `hex`: any number (zero too) of hex digits, either case.
/// - `emoji`: one or more characters, each `Extended_Pictographic` or `Emoji_Component`
///   (Unicode's emoji properties), at least one of them `Extended_Pictographic`, a regional
///   indicator or U+20E3 (the keycap), so digits and `#` alone (emoji components) are not emoji.
const PATTERNS: [&str; 13] = [
    "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
    "^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$",
    "^\\+[1-9]\\d{6,14}$",
    "^[cC][0-9a-z]{6,}$",
    "^[0-9a-z]+$",
    "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$",
    "^[A-Za-z0-9_-]{21}$",
    "",
    "^(?:\\d|[12]\\d|3[0-2])$",
    "^(?:\\d|[1-9]\\d|1[01]\\d|12[0-8])$",
    "^(?:[\\dA-F]{2}(?::[\\dA-F]{2}){5}|[\\da-f]{2}(?::[\\da-f]{2}){5}|[\\dA-F]{2}(?:-[\\dA-F]{2}){5}|[\\da-f]{2}(?:-[\\da-f]{2}){5})$",
    "^[\\dA-Fa-f]*$",
    "^\\p{Emoji_Component}*[\\p{Extended_Pictographic}\\u{1F1E6}-\\u{1F1FF}\\u{20E3}][\\p{Extended_Pictographic}\\p{Emoji_Component}]*$",
];

/// Whether `s` is in the language of `PATTERNS[index]`. Not inlined: each format's check is
/// then one call.
#[inline(never)]
fn matches(index: usize, s: &str) -> bool {
    use std::sync::OnceLock;
    static COMPILED: [OnceLock<Option<crate::validator::ecma::Pattern>>; 13] = [const { OnceLock::new() }; 13];
    let (Some(cell), Some(source)) = (COMPILED.get(index), PATTERNS.get(index)) else { return false };
    cell.get_or_init(|| crate::validator::ecma::Pattern::new(source).ok()).as_ref().is_some_and(|p| matches!(p.is_match(s), Ok(true)))
}

fn base64url(s: &str) -> bool {
    matches(1, s)
}

/// The bytes of unpadded base64url text (`None` when it is not that): six bits a character,
/// a byte out whenever eight are in (the bits left over at the end encode nothing).
fn decode_base64url(s: &str) -> Option<Vec<u8>> {
    if !base64url(s) {
        return None;
    }
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes() {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' => 62,
            _ => 63,
        };
        acc = acc << 6 | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// `jwt`: a JSON Web Token's shape (RFC 7519, compact JWS) — three base64url parts joined by
/// `.`, the first a JSON object with an `alg` member and, when it has a `typ`, `"typ": "JWT"`.
/// The signature is not verified: no key is known.
fn jwt(s: &str) -> bool {
    // A fourth part leaves a `.` in the signature, which base64url refuses.
    let Some((header, rest)) = s.split_once('.') else { return false };
    let Some((payload, signature)) = rest.split_once('.') else { return false };
    if !base64url(payload) || !base64url(signature) {
        return false;
    }
    // Read as text (`from_str`), the parser the module already carries, not a second one for bytes.
    let Some(text) = decode_base64url(header).and_then(|b| String::from_utf8(b).ok()) else { return false };
    let Ok(serde_json::Value::Object(header)) = serde_json::from_str::<serde_json::Value>(&text) else { return false };
    let alg = header.get("alg").is_some_and(|a| a.as_str().is_some_and(|a| !a.is_empty()));
    alg && header.get("typ").is_none_or(|t| t == "JWT")
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
