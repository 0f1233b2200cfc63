//! Generates the Unicode sets that ECMA-262 patterns can name with `\p{…}`
//! (src/validator/ecma/unicode.rs reads them). regex-syntax, a build dependency only, knows each
//! set's code points; the library carries them delta-encoded, a few bytes per range, instead of
//! linking a regex crate's tables.
//! It also writes the drafts' meta-schema documents out as compact text (src/validator/metaschemas.rs
//! reads them), from the copies `referencing`, a build dependency only, carries.

use std::fmt::Write as _;
use std::path::PathBuf;

const NAMES: &str = "src/validator/ecma/unicode_names.txt";

fn main() {
    println!("cargo:rerun-if-changed={NAMES}");
    println!("cargo:rerun-if-changed=build.rs");
    let names = std::fs::read_to_string(NAMES).expect("the Unicode names file is part of the crate");
    let mut blob: Vec<u8> = Vec::new();
    let mut starts: Vec<usize> = Vec::new();
    // (alias, kind, first set): a script has two sets, Script then Script_Extensions.
    let mut aliases: Vec<(String, u8, usize)> = Vec::new();
    let lines: Vec<&str> = names.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).collect();
    // regex-syntax has no table for Script=Unknown: it is every code point no other script has
    // (and its Script_Extensions is the same set).
    let scripts: String = lines
        .iter()
        .filter_map(|l| l.strip_prefix("sc ")?.split(' ').next())
        .filter(|s| !matches!(*s, "Unknown" | "Katakana_Or_Hiragana"))
        .map(|s| format!(r"\p{{sc={s}}}"))
        .collect();
    let unknown = format!("[^{scripts}]");
    for line in lines {
        let mut words = line.split(' ');
        let (Some(kind), Some(canonical)) = (words.next(), words.next()) else { panic!("bad line: {line}") };
        let (code, queries) = match kind {
            "gc" => (0u8, vec![format!("gc={canonical}")]),
            "sc" => (1, vec![format!("sc={canonical}"), format!("scx={canonical}")]),
            "bin" => (2, vec![canonical.to_string()]),
            _ => panic!("unknown kind in: {line}"),
        };
        let first = starts.len();
        for query in queries {
            starts.push(blob.len());
            let pattern = if canonical == "Unknown" { unknown.clone() } else { format!(r"\p{{{query}}}") };
            encode(&ranges(&pattern), &mut blob);
        }
        for alias in words {
            aliases.push((alias.to_string(), code, first));
        }
    }
    starts.push(blob.len());
    aliases.sort();
    aliases.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);

    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("unicode_sets.bin"), &blob).expect("OUT_DIR is writable");
    let mut rs = String::from("/// (normalised alias, kind: 0 gc, 1 script, 2 binary; set index), sorted.\n");
    rs.push_str("static NAMES: &[(&str, u8, u16)] = &[\n");
    for (alias, kind, set) in &aliases {
        let _ = writeln!(rs, "    ({alias:?}, {kind}, {set}),");
    }
    rs.push_str("];\n/// Where each set starts in SETS; the last entry is SETS' length.\nstatic STARTS: &[u32] = &[");
    for s in &starts {
        let _ = write!(rs, "{s},");
    }
    rs.push_str("];\nstatic SETS: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/unicode_sets.bin\"));\n");
    std::fs::write(out.join("unicode_sets.rs"), rs).expect("OUT_DIR is writable");
    metaschemas(&out);
}

/// `DOCUMENTS`: each meta-schema document's URI and its text. The library parses them with the
/// reader it already has for text; linking `referencing` would bring in its own (a copy of
/// serde_json's parser for byte slices) only to read these.
fn metaschemas(out: &std::path::Path) {
    use referencing::meta as m;
    use serde_json::Value;
    // The order the compiler registers a draft's documents in.
    let documents: [(&str, &Value); 19] = [
        ("http://json-schema.org/draft-04/schema", &m::DRAFT4),
        ("http://json-schema.org/draft-06/schema", &m::DRAFT6),
        ("http://json-schema.org/draft-07/schema", &m::DRAFT7),
        ("https://json-schema.org/draft/2019-09/schema", &m::DRAFT201909),
        ("https://json-schema.org/draft/2019-09/meta/applicator", &m::DRAFT201909_APPLICATOR),
        ("https://json-schema.org/draft/2019-09/meta/content", &m::DRAFT201909_CONTENT),
        ("https://json-schema.org/draft/2019-09/meta/core", &m::DRAFT201909_CORE),
        ("https://json-schema.org/draft/2019-09/meta/format", &m::DRAFT201909_FORMAT),
        ("https://json-schema.org/draft/2019-09/meta/meta-data", &m::DRAFT201909_META_DATA),
        ("https://json-schema.org/draft/2019-09/meta/validation", &m::DRAFT201909_VALIDATION),
        ("https://json-schema.org/draft/2020-12/schema", &m::DRAFT202012),
        ("https://json-schema.org/draft/2020-12/meta/core", &m::DRAFT202012_CORE),
        ("https://json-schema.org/draft/2020-12/meta/applicator", &m::DRAFT202012_APPLICATOR),
        ("https://json-schema.org/draft/2020-12/meta/unevaluated", &m::DRAFT202012_UNEVALUATED),
        ("https://json-schema.org/draft/2020-12/meta/validation", &m::DRAFT202012_VALIDATION),
        ("https://json-schema.org/draft/2020-12/meta/meta-data", &m::DRAFT202012_META_DATA),
        ("https://json-schema.org/draft/2020-12/meta/format-annotation", &m::DRAFT202012_FORMAT_ANNOTATION),
        ("https://json-schema.org/draft/2020-12/meta/format-assertion", &m::DRAFT202012_FORMAT_ASSERTION),
        ("https://json-schema.org/draft/2020-12/meta/content", &m::DRAFT202012_CONTENT),
    ];
    let mut rs = String::from("/// (URI without its fragment, document text), a draft's vocabulary documents after its schema.\n");
    let _ = writeln!(rs, "static DOCUMENTS: [(&str, &str); {}] = [", documents.len());
    for (uri, document) in documents {
        let text = serde_json::to_string(document).expect("a meta-schema is JSON");
        let _ = writeln!(rs, "    ({uri:?}, {text:?}),");
    }
    rs.push_str("];\n");
    std::fs::write(out.join("metaschemas.rs"), rs).expect("OUT_DIR is writable");
}

/// The code points of a class (`\p{…}` or a bracketed class of them), from regex-syntax.
fn ranges(pattern: &str) -> Vec<(u32, u32)> {
    let hir = match regex_syntax::Parser::new().parse(pattern) {
        Ok(hir) => hir,
        // No table for a value without characters: Surrogate (which no Rust string holds) and
        // Katakana_Or_Hiragana (which no character has as its Script). Any other name it does
        // not know is a mistake in the names file.
        Err(_) if pattern.ends_with("=Surrogate}") || pattern.ends_with("=Katakana_Or_Hiragana}") => return Vec::new(),
        Err(e) => panic!("regex-syntax does not know {pattern}: {e}"),
    };
    match hir.kind() {
        regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(class)) => {
            class.ranges().iter().map(|r| (u32::from(r.start()), u32::from(r.end()))).collect()
        }
        // A set of one character comes back as that character.
        regex_syntax::hir::HirKind::Literal(literal) => std::str::from_utf8(&literal.0)
            .ok()
            .and_then(|s| s.chars().next())
            .map(|c| vec![(u32::from(c), u32::from(c))])
            .unwrap_or_else(|| panic!("{pattern}: a literal that is not one character")),
        other => panic!("{pattern} is not a Unicode class: {other:?}"),
    }
}

/// Each range as two LEB128 numbers: the gap since the previous range's end, and its length - 1.
fn encode(ranges: &[(u32, u32)], blob: &mut Vec<u8>) {
    let mut next = 0u32;
    for &(start, end) in ranges {
        leb(start - next, blob);
        leb(end - start, blob);
        next = end + 1;
    }
}

fn leb(mut n: u32, blob: &mut Vec<u8>) {
    loop {
        let byte = (n & 0x7F) as u8;
        n >>= 7;
        if n == 0 {
            blob.push(byte);
            return;
        }
        blob.push(byte | 0x80);
    }
}
