//! Versions of a schema: the semantic version its `$id` carries, and the rule that says which
//! changes each kind of version step may make.
//!
//! An `$id` names a schema and its version in one of two ways:
//! `https://example.com/schemas/ticket/1.2.0` (the version is the last path segment, the name
//! the one before it) or `https://example.com/schemas/ticket.v1.2.0.schema.json` (the last
//! segment is the name, `.v`, the version, and optionally `.schema.json` or `.json`).
//!
//! The rule, from what each side of an output contract can rely on:
//! - a **patch** step changes no accepted output at all (descriptions, titles, examples …);
//! - a **minor** step may only narrow: every output valid under the new version is valid under
//!   the old one, so consumers written for the old version keep working;
//! - a **major** step may change anything.
//!
//! A change whose effect is unknown needs a major step: it cannot be shown to be compatible.

use crate::schema::compare::Comparison;
use crate::validator::draft::Draft;
use serde_json::Value;
use std::cmp::Ordering;
use std::fmt;

/// `MAJOR.MINOR.PATCH` with an optional pre-release (`-rc.1`); build metadata (`+…`) is kept
/// for display but, as semantic versioning says, does not order versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Option<String>,
    text: String,
}

impl Version {
    /// Parses `1.2.3`, `1.2.3-rc.1`, `1.2.3+build` (and the same with a leading `v`).
    pub fn parse(text: &str) -> Option<Version> {
        let body = text.strip_prefix('v').unwrap_or(text);
        let core_and_pre = body.split_once('+').map_or(body, |(c, _)| c);
        let (core, pre) = match core_and_pre.split_once('-') {
            Some((c, p)) if !p.is_empty() => (c, Some(p.to_string())),
            Some(_) => return None,
            None => (core_and_pre, None),
        };
        let mut parts = core.split('.');
        let mut number = || -> Option<u64> {
            let p = parts.next()?;
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || (p.len() > 1 && p.starts_with('0')) {
                return None;
            }
            p.parse().ok()
        };
        let (major, minor, patch) = (number()?, number()?, number()?);
        if parts.next().is_some() {
            return None;
        }
        Some(Version { major, minor, patch, pre, text: body.to_string() })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch)).then_with(|| match (&self.pre, &other.pre) {
            (None, None) => Ordering::Equal,
            // A pre-release comes before its release.
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some(a), Some(b)) => a.cmp(b),
        })
    }
}

/// Where a schema keeps the id the registry and `compareSchemas` read its name and version
/// from: `$id` (`id` in draft 4) in JSON Schema. JSON Type Definition (RFC 8927) has no id
/// keyword, but allows any data under `metadata`: a JTD schema's id is `metadata.id`.
pub fn id_path(draft: Draft) -> &'static [&'static str] {
    match draft {
        Draft::Jtd => &["metadata", "id"],
        Draft::Draft4 => &["id"],
        _ => &["$id"],
    }
}

/// The schema's id as `id_path` places it (`None`: absent or not a string).
pub fn schema_id(schema: &Value, draft: Draft) -> Option<&str> {
    id_path(draft).iter().try_fold(schema, |v, key| v.get(key))?.as_str()
}

/// The id's place as a JSON Pointer (`/$id`, `/metadata/id`) and as people name it (`$id`,
/// `metadata.id`).
pub fn id_pointer_and_name(draft: Draft) -> (String, String) {
    let path = id_path(draft);
    (path.iter().map(|k| format!("/{k}")).collect(), path.join("."))
}

/// The name and version an `$id` carries (see the module's conventions), `None` when it has no
/// semantic version.
pub fn name_and_version(id: &str) -> Option<(String, Version)> {
    let id = id.split('#').next().unwrap_or(id).trim_end_matches('/');
    let mut segments = id.rsplit('/');
    let last = segments.next()?;
    let last = last.strip_suffix(".schema.json").or_else(|| last.strip_suffix(".json")).unwrap_or(last);
    if let Some(version) = Version::parse(last) {
        let name = segments.next().filter(|n| !n.is_empty() && !n.contains(':'))?;
        return Some((name.to_string(), version));
    }
    let (name, version) = last.split_once(".v")?;
    let version = Version::parse(version)?;
    (!name.is_empty()).then(|| (name.to_string(), version))
}

/// The kind of step from one version to a later one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bump {
    Patch,
    Minor,
    Major,
}

impl Bump {
    pub fn between(old: &Version, new: &Version) -> Bump {
        if new.major != old.major {
            Bump::Major
        } else if new.minor != old.minor {
            Bump::Minor
        } else {
            Bump::Patch
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }

    /// The smallest step that allows the changes of `comparison`.
    pub fn needed(comparison: &Comparison) -> Bump {
        if !comparison.widened.is_empty() || !comparison.unknown.is_empty() {
            Bump::Major
        } else if !comparison.narrowed.is_empty() {
            Bump::Minor
        } else {
            Bump::Patch
        }
    }

    /// Whether this step allows the changes of `comparison` (the rule above).
    pub fn allows(self, comparison: &Comparison) -> bool {
        Bump::needed(comparison).rank() <= self.rank()
    }

    fn rank(self) -> u8 {
        match self {
            Bump::Patch => 0,
            Bump::Minor => 1,
            Bump::Major => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_carry_a_name_and_a_version() {
        let (name, v) = name_and_version("https://example.com/schemas/ticket/1.2.0").unwrap();
        assert_eq!((name.as_str(), v.to_string().as_str()), ("ticket", "1.2.0"));
        let (name, v) = name_and_version("https://example.com/schemas/ticket.v2.0.0-rc.1.schema.json").unwrap();
        assert_eq!((name.as_str(), v.to_string().as_str()), ("ticket", "2.0.0-rc.1"));
        assert!(name_and_version("https://example.com/schemas/ticket").is_none());
        assert!(name_and_version("https://example.com/schemas/ticket/1.2").is_none());
        assert!(name_and_version("https://example.com/schemas/ticket/01.2.0").is_none());
    }

    #[test]
    fn versions_order_as_semver_says() {
        let v = |s: &str| Version::parse(s).unwrap();
        assert!(v("1.10.0") > v("1.9.0"));
        assert!(v("2.0.0-rc.1") < v("2.0.0"));
        assert_eq!(Bump::between(&v("1.0.0"), &v("1.0.1")), Bump::Patch);
        assert_eq!(Bump::between(&v("1.0.0"), &v("1.1.0")), Bump::Minor);
        assert_eq!(Bump::between(&v("1.4.0"), &v("2.0.0")), Bump::Major);
    }
}
