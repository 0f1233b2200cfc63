//! URI references as `$id` and `$ref` use them: resolution against a base (RFC 3986 §5.2) and
//! the fragment's reading as a JSON Pointer or an anchor name. Nothing is ever retrieved.

use std::borrow::Cow;

/// The base of a document that names none: hierarchical, so relative references resolve.
pub const DEFAULT_BASE: &str = "json-schema:///";

struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn parse(s: &str) -> Parts<'_> {
    let (rest, fragment) = match s.split_once('#') {
        Some((a, f)) => (a, Some(f)),
        None => (s, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((a, q)) => (a, Some(q)),
        None => (rest, None),
    };
    // A scheme is letters, digits, `+-.` before the first `:`, starting with a letter.
    let scheme_end = rest.find(':').filter(|&i| {
        let head = rest.get(..i).unwrap_or("");
        head.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && head.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    let (scheme, rest) = match scheme_end {
        Some(i) => (rest.get(..i), rest.get(i + 1..).unwrap_or("")),
        None => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (after.get(..end), after.get(end..).unwrap_or(""))
        }
        None => (None, rest),
    };
    Parts { scheme, authority, path, query, fragment }
}

/// `reference` resolved against the absolute `base`.
pub fn resolve(base: &str, reference: &str) -> String {
    let r = parse(reference);
    let b = parse(base);
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        scheme = r.scheme;
        authority = r.authority;
        path = remove_dot_segments(r.path);
        query = r.query;
    } else {
        scheme = b.scheme;
        if r.authority.is_some() {
            authority = r.authority;
            path = remove_dot_segments(r.path);
            query = r.query;
        } else {
            authority = b.authority;
            if r.path.is_empty() {
                path = b.path.to_string();
                query = r.query.or(b.query);
            } else {
                path = if r.path.starts_with('/') {
                    remove_dot_segments(r.path)
                } else {
                    remove_dot_segments(&merge(&b, r.path))
                };
                query = r.query;
            }
        }
    }
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = r.fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

fn merge(base: &Parts<'_>, path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{path}");
    }
    match base.path.rfind('/') {
        Some(i) => format!("{}{path}", base.path.get(..=i).unwrap_or("")),
        None => path.to_string(),
    }
}

fn remove_dot_segments(path: &str) -> String {
    if !path.contains("./") && !path.ends_with("/.") && !path.ends_with("/..") && path != "." && path != ".." {
        return path.to_string();
    }
    let mut out: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len().saturating_sub(1);
    for (i, seg) in segments.iter().enumerate() {
        match *seg {
            "." => {
                if i == last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > usize::from(absolute) {
                    out.pop();
                }
                if i == last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    let joined = out.join("/");
    if absolute && !joined.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    }
}

/// Splits a resolved URI into the document's URI (no fragment) and the fragment.
pub fn split_fragment(uri: &str) -> (&str, &str) {
    uri.split_once('#').unwrap_or((uri, ""))
}

/// A document's URI as a registry key: without an empty fragment.
pub fn normalize(uri: &str) -> &str {
    uri.trim().strip_suffix('#').unwrap_or(uri.trim())
}

/// The fragment percent-decoded (`%25` → `%`); `None` if it decodes to invalid UTF-8.
pub fn decode_fragment(fragment: &str) -> Option<Cow<'_, str>> {
    if !fragment.contains('%') {
        return Some(Cow::Borrowed(fragment));
    }
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = fragment.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(byte) = hex {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}

/// The JSON Pointer tokens of a fragment that starts with `/`, unescaped (`~1` → `/`, `~0` → `~`).
pub fn pointer_tokens(pointer: &str) -> impl Iterator<Item = Cow<'_, str>> {
    pointer.split('/').skip(1).map(crate::json::path::unescape_pointer_token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_like_rfc_3986() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            ("../g", "http://a/b/g"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("g;x=1/../y", "http://a/b/c/y"),
        ] {
            assert_eq!(resolve(base, r), want, "{r}");
        }
        assert_eq!(resolve("urn:example:foo", "#/a"), "urn:example:foo#/a");
        assert_eq!(resolve(DEFAULT_BASE, "other.json"), "json-schema:///other.json");
        assert_eq!(resolve("http://x/y/", "z.json#foo"), "http://x/y/z.json#foo");
    }

    #[test]
    fn decodes_fragments_and_pointers() {
        assert_eq!(decode_fragment("/a%25b").as_deref(), Some("/a%b"));
        let tokens: Vec<_> = pointer_tokens("/a~1b/c~0d/").collect();
        assert_eq!(tokens, vec!["a/b", "c~d", ""]);
    }
}
