//! The `format` values the library asserts, each checked by hand against its RFC: dates and times
//! (RFC 3339), durations (ISO 8601 as RFC 3339 appendix A writes it), e-mail addresses (RFC 5321),
//! host names (RFC 1123), IPv4/IPv6 addresses, URIs and IRIs (RFC 3986/3987), JSON Pointers
//! (RFC 6901 and the relative draft), URI templates (RFC 6570), UUIDs, ECMA-262 regexes.

use crate::validator::draft::Draft;
use std::sync::Arc;

mod generated;

/// The formats schema generators write that no draft defines (see `generated`).
pub(crate) use generated::NAMES as GENERATED;

/// A built-in format's check.
pub type Builtin = fn(&str) -> bool;

/// A user's function of a string: whether it is of the format.
pub type FormatFn = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// A format the user defines by name, as Ajv's `formats` option and `addFormat` do: asserted
/// whatever `formats` says of the built-in ones, on strings only (other values pass). A name of
/// the library's own formats is overridden.
#[derive(Clone)]
pub enum CustomFormat {
    /// An ECMA-262 regular expression, matched by the library's own engine as `pattern` is
    /// (Unicode mode, not anchored: write `^…$` to match whole strings).
    Pattern(String),
    /// A function; it is not fingerprinted, so a contract with one is never taken from or kept
    /// in a `ContractCache`.
    Function(FormatFn),
}

impl CustomFormat {
    pub fn pattern(source: impl Into<String>) -> CustomFormat {
        CustomFormat::Pattern(source.into())
    }

    pub fn function(f: impl Fn(&str) -> bool + Send + Sync + 'static) -> CustomFormat {
        CustomFormat::Function(Arc::new(f))
    }
}

impl std::fmt::Debug for CustomFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CustomFormat::Pattern(source) => f.debug_tuple("Pattern").field(source).finish(),
            CustomFormat::Function(_) => f.write_str("Function(..)"),
        }
    }
}

/// Patterns by their source; functions by identity (the same `Arc`).
impl PartialEq for CustomFormat {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (CustomFormat::Pattern(a), CustomFormat::Pattern(b)) => a == b,
            (CustomFormat::Function(a), CustomFormat::Function(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// How a compiled `format` keyword checks a string.
#[derive(Clone)]
pub enum Check {
    Builtin(Builtin),
    /// A custom format's pattern: its index among the validator's patterns, and its source.
    Pattern(usize, String),
    Function(FormatFn),
}

/// The check of `name` in `draft`; `None` for a format the library does not know. Every format
/// is asserted in every draft, as Ajv with ajv-formats does (a Draft 7 schema that says
/// `"format": "uuid"` means it); only `hostname` keeps Draft 4's own rule (RFC 1034).
/// [`since`] tells which draft defined each.
pub fn lookup(name: &str, draft: Draft) -> Option<Builtin> {
    Some(match name {
        "date" => date,
        "date-time" => date_time,
        "time" => time,
        "duration" => duration,
        "email" => email,
        "hostname" if draft >= Draft::Draft7 => hostname,
        "hostname" => hostname_rfc1034,
        "ipv4" => ipv4,
        "ipv6" => ipv6,
        "uri" => uri,
        "uri-reference" => uri_reference,
        "iri" => iri,
        "iri-reference" => iri_reference,
        "json-pointer" => json_pointer,
        "relative-json-pointer" => relative_json_pointer,
        "uri-template" => uri_template,
        "uuid" => uuid,
        "regex" => regex,
        _ => return generated::lookup(name),
    })
}

/// Where a format comes from: the first draft that defines it, or `None` for the formats schema
/// generators write (Zod's `e164`, `cuid`, …), which no draft defines.
pub fn since(name: &str) -> Option<Draft> {
    Some(match name {
        "date-time" | "email" | "hostname" | "ipv4" | "ipv6" | "uri" | "regex" => Draft::Draft4,
        "uri-reference" | "json-pointer" | "uri-template" => Draft::Draft6,
        "date" | "time" | "iri" | "iri-reference" | "relative-json-pointer" => Draft::Draft7,
        "duration" | "uuid" => Draft::Draft201909,
        _ => return None,
    })
}

/// `s[range]`, or `""` where the range does not fall on character boundaries.
fn at<R: std::slice::SliceIndex<str, Output = str>>(s: &str, range: R) -> &str {
    s.get(range).unwrap_or("")
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

fn date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return false;
    }
    let (Some(y), Some(m), Some(d)) = (digits(at(s, ..4), 4), digits(at(s, 5..7), 2), digits(at(s, 8..), 2)) else { return false };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

fn time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || !s.is_ascii() || b.get(2) != Some(&b':') || b.get(5) != Some(&b':') {
        return false;
    }
    let (Some(h), Some(m), Some(sec)) = (digits(at(s, ..2), 2), digits(at(s, 3..5), 2), digits(at(s, 6..8), 2)) else { return false };
    let mut rest = at(s, 8..);
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = at(frac, n..);
    }
    if h > 23 || m > 59 || sec > 60 {
        return false;
    }
    // The offset, and the UTC time a leap second must fall on (23:59:60).
    let utc_minutes = if rest.eq_ignore_ascii_case("z") {
        h * 60 + m
    } else {
        let sign = match rest.as_bytes().first() {
            Some(b'+') => -1i64,
            Some(b'-') => 1,
            _ => return false,
        };
        let off = at(rest, 1..);
        if off.len() != 5 || off.as_bytes().get(2) != Some(&b':') {
            return false;
        }
        let (Some(oh), Some(om)) = (digits(at(off, ..2), 2), digits(at(off, 3..), 2)) else { return false };
        if oh > 23 || om > 59 {
            return false;
        }
        let t = i64::from(h * 60 + m) + sign * i64::from(oh * 60 + om);
        t.rem_euclid(24 * 60) as u32
    };
    sec < 60 || utc_minutes == 23 * 60 + 59
}

fn date_time(s: &str) -> bool {
    match (s.get(..10), s.get(10..11), s.get(11..)) {
        (Some(d), Some("T" | "t"), Some(t)) => date(d) && time(t),
        _ => false,
    }
}

fn duration(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('P') else { return false };
    if let Some(weeks) = rest.strip_suffix('W') {
        return !weeks.is_empty() && weeks.bytes().all(|b| b.is_ascii_digit());
    }
    let (date_part, time_part) = match rest.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (rest, None),
    };
    let units = |part: &str, order: &[u8]| -> Option<usize> {
        let mut count = 0;
        let mut next = 0;
        let mut num = 0;
        for b in part.bytes() {
            if b.is_ascii_digit() {
                num += 1;
                continue;
            }
            let at = order.iter().skip(next).position(|u| *u == b)? + next;
            // Units follow each other without a gap (P1Y2D lacks its months).
            if num == 0 || (count > 0 && at != next) {
                return None;
            }
            next = at + 1;
            num = 0;
            count += 1;
        }
        (num == 0).then_some(count)
    };
    let Some(d) = units(date_part, b"YMD") else { return false };
    match time_part {
        Some(t) => matches!(units(t, b"HMS"), Some(n) if n > 0),
        None => d > 0,
    }
}

fn email(s: &str) -> bool {
    let Some(sign) = s.rfind('@') else { return false };
    let (local, domain) = (at(s, ..sign), at(s, sign + 1..));
    let local_ok = if let Some(quoted) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        let mut escaped = false;
        quoted.chars().all(|c| {
            if escaped {
                escaped = false;
                return true;
            }
            escaped = c == '\\';
            c != '"' && (c == ' ' || c.is_ascii_graphic())
        }) && !escaped
    } else {
        !local.is_empty()
            && local.len() <= 64
            && local.split('.').all(|atom| {
                !atom.is_empty() && atom.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c))
            })
    };
    if !local_ok {
        return false;
    }
    if let Some(literal) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        return match literal.strip_prefix("IPv6:") {
            Some(v6) => ipv6(v6),
            None => ipv4(literal),
        };
    }
    hostname(domain)
}

fn hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            if b.is_empty() || b.len() > 63 || !b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-') || b.first() == Some(&b'-') || b.last() == Some(&b'-') {
                return false;
            }
            // `--` in the third and fourth places is reserved for IDNA's A-labels (`xn--`),
            // which must decode to a valid U-label.
            if b.get(2..4) != Some(b"--") {
                return true;
            }
            label.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("xn")) && label.get(4..).and_then(punycode).is_some_and(|u| u_label(&u))
        })
}

/// RFC 3492 decoding of an A-label's tail.
fn punycode(input: &str) -> Option<Vec<char>> {
    let (basic, encoded) = match input.rfind('-') {
        Some(i) => (input.get(..i)?, input.get(i + 1..)?),
        None => ("", input),
    };
    let mut out: Vec<char> = basic.chars().collect();
    if !basic.is_ascii() {
        return None;
    }
    let (base, tmin, tmax, skew, damp) = (36u32, 1u32, 26u32, 38u32, 700u32);
    let (mut n, mut i, mut bias) = (128u32, 0u32, 72u32);
    let mut digits = encoded.bytes().peekable();
    while digits.peek().is_some() {
        let old = i;
        let mut w = 1u32;
        let mut k = base;
        loop {
            let d = match digits.next()? {
                c @ b'a'..=b'z' => u32::from(c - b'a'),
                c @ b'A'..=b'Z' => u32::from(c - b'A'),
                c @ b'0'..=b'9' => u32::from(c - b'0') + 26,
                _ => return None,
            };
            i = i.checked_add(d.checked_mul(w)?)?;
            let t = if k <= bias { tmin } else if k >= bias + tmax { tmax } else { k - bias };
            if d < t {
                break;
            }
            w = w.checked_mul(base - t)?;
            k += base;
        }
        let len = u32::try_from(out.len()).ok()? + 1;
        let mut delta = if old == 0 { (i - old) / damp } else { (i - old) / 2 };
        delta += delta / len;
        let mut k = 0;
        while delta > ((base - tmin) * tmax) / 2 {
            delta /= base - tmin;
            k += base;
        }
        bias = k + (base * delta) / (delta + skew);
        n = n.checked_add(i / len)?;
        i %= len;
        out.insert(usize::try_from(i).ok()?, char::from_u32(n)?);
        i += 1;
    }
    Some(out)
}

/// The contextual rules of RFC 5892 a U-label must keep (those that need no Unicode tables).
fn u_label(label: &[char]) -> bool {
    let at = |i: usize| label.get(i).copied();
    if label.get(2..4) == Some(&['-', '-']) || label.first() == Some(&'-') || label.last() == Some(&'-') {
        return false;
    }
    let japanese = |c: char| matches!(c, '\u{3040}'..='\u{309F}' | '\u{30A0}'..='\u{30FF}' | '\u{4E00}'..='\u{9FFF}') && c != '\u{30FB}';
    let arabic = label.iter().any(|c| ('\u{0660}'..='\u{0669}').contains(c));
    let extended = label.iter().any(|c| ('\u{06F0}'..='\u{06F9}').contains(c));
    if arabic && extended {
        return false;
    }
    label.iter().enumerate().all(|(i, &c)| match c {
        '\u{0640}' | '\u{07FA}' | '\u{302E}' | '\u{302F}' | '\u{3031}'..='\u{3035}' | '\u{303B}' => false,
        '\u{00B7}' => i > 0 && at(i - 1) == Some('l') && at(i + 1) == Some('l'),
        '\u{0375}' => at(i + 1).is_some_and(|n| ('\u{0370}'..='\u{03FF}').contains(&n)),
        '\u{05F3}' | '\u{05F4}' => i > 0 && at(i - 1).is_some_and(|p| ('\u{0590}'..='\u{05FF}').contains(&p)),
        '\u{30FB}' => label.iter().any(|c| japanese(*c)),
        // ZERO WIDTH JOINER only after a virama.
        '\u{200D}' => i > 0 && at(i - 1).is_some_and(|p| matches!(p, '\u{094D}' | '\u{09CD}' | '\u{0A4D}' | '\u{0ACD}' | '\u{0B4D}' | '\u{0BCD}' | '\u{0C4D}' | '\u{0CCD}' | '\u{0D4D}' | '\u{0DCA}' | '\u{0E3A}' | '\u{1039}' | '\u{17D2}')),
        // A label may not start with a combining mark.
        c if i == 0 => !matches!(c, '\u{0300}'..='\u{036F}' | '\u{0483}'..='\u{0489}' | '\u{0591}'..='\u{05BD}' | '\u{0900}'..='\u{0903}' | '\u{093A}'..='\u{094F}' | '\u{0951}'..='\u{0957}' | '\u{0962}'..='\u{0963}' | '\u{0981}'..='\u{0983}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}'),
        _ => true,
    })
}

/// Draft 4 and 6 name RFC 1034: no trailing dot, and no reservation of `--`.
fn hostname_rfc1034(s: &str) -> bool {
    !s.ends_with('.')
        && !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            !b.is_empty() && b.len() <= 63 && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-') && b.first() != Some(&b'-') && b.last() != Some(&b'-')
        })
}

fn ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

fn ipv6(s: &str) -> bool {
    s.is_ascii() && !s.contains('%') && s.parse::<std::net::Ipv6Addr>().is_ok()
}

fn uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

fn json_pointer(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    s.starts_with('/') && escapes_ok(s)
}

fn escapes_ok(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter().enumerate().all(|(i, c)| *c != b'~' || matches!(b.get(i + 1), Some(b'0' | b'1')))
}

fn relative_json_pointer(s: &str) -> bool {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 || (n > 1 && s.starts_with('0')) {
        return false;
    }
    let rest = at(s, n..);
    rest == "#" || json_pointer(rest)
}

/// RFC 6570 level 4: literals, and expressions of an optional operator and comma-separated
/// variables, each with a prefix (`:3`) or explode (`*`) modifier.
fn uri_template(s: &str) -> bool {
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            let Some(end) = rest.find('}') else { return false };
            if !expression(rest.get(1..end).unwrap_or("")) {
                return false;
            }
            rest = rest.get(end + 1..).unwrap_or("");
            continue;
        }
        if c == '%' {
            if !rest.as_bytes().get(1..3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                return false;
            }
        } else if c.is_control() || " \"<>\\^`|}".contains(c) {
            return false;
        }
        rest = rest.get(c.len_utf8()..).unwrap_or("");
    }
    true
}

fn expression(e: &str) -> bool {
    let e = e.strip_prefix(['+', '#', '.', '/', ';', '?', '&']).unwrap_or(e);
    e.split(',').all(|spec| {
        let (name, modifier) = match spec.find([':', '*']) {
            Some(i) => (spec.get(..i).unwrap_or(""), spec.get(i..).unwrap_or("")),
            None => (spec, ""),
        };
        let modifier_ok = match modifier.strip_prefix(':') {
            Some(n) => !n.is_empty() && n.len() <= 4 && !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit()),
            None => modifier.is_empty() || modifier == "*",
        };
        let b = name.as_bytes();
        let name_ok = !name.is_empty()
            && !name.starts_with('.')
            && !name.ends_with('.')
            && !name.contains("..")
            && b.iter().enumerate().all(|(i, c)| {
                c.is_ascii_alphanumeric()
                    || *c == b'_'
                    || *c == b'.'
                    || (*c == b'%' && b.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)))
                    || (i >= 1 && b.get(i - 1) == Some(&b'%'))
                    || (i >= 2 && b.get(i - 2) == Some(&b'%'))
            });
        modifier_ok && name_ok
    })
}

/// The bytes of standard base64 text (RFC 4648, padded), or `None` if it is not.
pub fn base64(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if b.len() % 4 != 0 {
        return None;
    }
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    let chunks = b.len() / 4;
    for (i, chunk) in b.chunks(4).enumerate() {
        let pad = chunk.iter().rev().take_while(|c| **c == b'=').count();
        if pad > 2 || (pad > 0 && i + 1 != chunks) {
            return None;
        }
        let mut n = 0u32;
        for c in chunk.iter().take(4 - pad) {
            n = (n << 6) | u32::from(value(*c)?);
        }
        n <<= 6 * pad as u32;
        let bytes = n.to_be_bytes();
        out.extend(bytes.iter().skip(1).take(3 - pad));
    }
    Some(out)
}

fn regex(s: &str) -> bool {
    super::ecma::Pattern::new(s).is_ok()
}

fn uri(s: &str) -> bool {
    reference(s, true, false)
}

fn uri_reference(s: &str) -> bool {
    reference(s, false, false)
}

fn iri(s: &str) -> bool {
    reference(s, true, true)
}

fn iri_reference(s: &str) -> bool {
    reference(s, false, true)
}

/// RFC 3986 (with `international`, RFC 3987's non-ASCII characters) URI or relative reference.
fn reference(s: &str, absolute: bool, international: bool) -> bool {
    let (rest, fragment) = s.split_once('#').unwrap_or((s, ""));
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let scheme_end = rest.find(':').filter(|&i| !at(rest, ..i).contains('/'));
    let (scheme, hier) = match scheme_end {
        Some(i) => (Some(at(rest, ..i)), at(rest, i + 1..)),
        None => (None, rest),
    };
    match scheme {
        Some(sc) => {
            let mut b = sc.bytes();
            if !b.next().is_some_and(|c| c.is_ascii_alphabetic()) || !b.all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(&c)) {
                return false;
            }
        }
        None if absolute => return false,
        None => {}
    }
    let path = match hier.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            let authority = at(after, ..end);
            let (userinfo, hostport) = authority.rsplit_once('@').unwrap_or(("", authority));
            if !chars_ok(userinfo, USERINFO, international) {
                return false;
            }
            let port_ok = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
            if let Some(v6) = hostport.strip_prefix('[') {
                let Some((host, port)) = v6.split_once(']') else { return false };
                if !(ipv6(host) || host.starts_with(['v', 'V'])) || !(port.is_empty() || port.strip_prefix(':').is_some_and(port_ok)) {
                    return false;
                }
            } else {
                let (host, port) = hostport.rsplit_once(':').unwrap_or((hostport, ""));
                if !chars_ok(host, HOST, international) || !port_ok(port) {
                    return false;
                }
            }
            at(after, end..)
        }
        None => hier,
    };
    // A relative path's first segment may not look like a scheme.
    if scheme.is_none() && path.split('/').next().is_some_and(|seg| seg.contains(':')) {
        return false;
    }
    chars_ok(path, PATH, international) && chars_ok(query, QUERY, international) && chars_ok(fragment, QUERY, international)
}

/// The ASCII characters each URI component may hold besides letters, digits and
/// percent-encoded bytes: the unreserved marks and sub-delimiters, and the component's own.
const HOST: [u64; 2] = ascii_mask(b"-._~!$&'()*+,;=");
const USERINFO: [u64; 2] = ascii_mask(b"-._~!$&'()*+,;=:");
const PATH: [u64; 2] = ascii_mask(b"-._~!$&'()*+,;=:@/");
const QUERY: [u64; 2] = ascii_mask(b"-._~!$&'()*+,;=:@/?");

/// Whether every character of `s` may stand in a URI component whose ASCII marks are `allowed`
/// (beside letters, digits and percent-encoded bytes), or (`international`, IRIs) is any other
/// visible non-ASCII character. ASCII is told from a bit mask: a search of the sets' text for
/// each character was most of the time of checking a URI.
fn chars_ok(s: &str, allowed: [u64; 2], international: bool) -> bool {
    let [low, high] = allowed;
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(&byte) = b.get(i) {
        if byte.is_ascii() {
            let mask = if byte < 64 { low } else { high };
            let ok = byte.is_ascii_alphanumeric()
                || (mask >> (byte & 63)) & 1 == 1
                || (byte == b'%' && b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit));
            if !ok {
                return false;
            }
            i += 1;
        } else {
            let Some(c) = s.get(i..).and_then(|rest| rest.chars().next()) else { return false };
            if !international || c.is_control() || c.is_whitespace() {
                return false;
            }
            i += c.len_utf8();
        }
    }
    true
}

/// The ASCII bytes of `bytes` as two 64-bit masks (bytes 0–63, 64–127); others are left out.
const fn ascii_mask(bytes: &[u8]) -> [u64; 2] {
    match bytes {
        [] => [0, 0],
        [byte, rest @ ..] => {
            let [low, high] = ascii_mask(rest);
            match *byte {
                b @ 0..=63 => [low | 1 << b, high],
                b @ 64..=127 => [low, high | 1 << (b - 64)],
                _ => [low, high],
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_their_rfcs() {
        assert!(date("2020-02-29") && !date("2021-02-29") && !date("2020-1-01"));
        assert!(date_time("1963-06-19T08:30:06.283185Z") && !date_time("1963-06-19 08:30:06Z"));
        assert!(time("23:59:60Z") && !time("22:59:60Z") && time("15:59:60-08:00"));
        assert!(duration("P4DT12H30M5S") && duration("P2W") && !duration("PT") && !duration("P1D2H") && !duration("P2S"));
        assert!(email("joe.bloggs@example.com") && email("\"joe bloggs\"@example.com") && !email("2962") && !email(".a@b.c"));
        assert!(hostname("www.example.com") && !hostname("-a.com") && !hostname("a..b"));
        assert!(ipv4("192.168.0.1") && !ipv4("087.10.0.1") && !ipv4("256.0.0.1"));
        assert!(ipv6("::1") && !ipv6("12345::"));
        assert!(uri("http://foo.bar/?baz=qux#quux") && !uri("//foo.bar") && !uri("http:// a") && !uri("\\\\WINDOWS"));
        assert!(uri_reference("//foo.bar/?baz=qux#quux") && uri_reference("#frag") && !uri_reference("#frag\\ment"));
        assert!(iri("http://ƒøø.ßår/?∂éœ=πîx#πîüx") && !uri("http://ƒøø.com"));
        assert!(json_pointer("/foo/0/~0~1") && !json_pointer("/~2") && !json_pointer("a"));
        assert!(relative_json_pointer("0#") && relative_json_pointer("1/a") && !relative_json_pointer("01") && !relative_json_pointer("#"));
        assert!(uri_template("http://example.com/dictionary/{term:1}/{term}") && !uri_template("http://x/{term"));
        assert!(uuid("2EB8AA08-AA98-11EA-B4AA-73B441D16380") && !uuid("2eb8aa08-aa98-11ea-b4aa73b441d16380"));
        assert!(regex("^[a-z]+$") && !regex("^(abc]"));
    }
}
