//! Generates the Unicode sets that ECMA-262 patterns can name with `\p{…}`
//! (src/validator/ecma/unicode.rs reads them). regex-syntax, a build dependency only, knows each
//! set's code points; the library carries them delta-encoded, a few bytes per range, instead of
//! linking a regex crate's tables, except those it works out from others (a general category
//! group is the union of its categories).
//! It also writes the drafts' meta-schema documents out as compact text (src/validator/metaschemas.rs
//! reads them), from the copies `referencing`, a build dependency only, carries.

use std::fmt::Write as _;
use std::path::PathBuf;

const NAMES: &str = "src/validator/ecma/unicode_names.txt";

fn main() {
    println!("cargo:rerun-if-changed={NAMES}");
    println!("cargo:rerun-if-changed=build.rs");
    let names = std::fs::read_to_string(NAMES).expect("the Unicode names file is part of the crate");
    let mut sets: Vec<Vec<(u32, u32)>> = Vec::new();
    // The first set of each (kind, canonical name).
    let mut first_of: std::collections::BTreeMap<(u8, &str), usize> = std::collections::BTreeMap::new();
    // (alias, kind, first set): a script has two sets, Script then Script_Extensions.
    let mut aliases: Vec<(String, u8, usize)> = Vec::new();
    let lines: Vec<&str> = names.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).collect();
    // regex-syntax has no table for Script=Unknown: it is every code point no other script has
    // (and its Script_Extensions is the same set).
    let other_scripts: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("sc ")?.split(' ').next())
        .filter(|s| !matches!(*s, "Unknown" | "Katakana_Or_Hiragana"))
        .collect();
    let unknown = format!("[^{}]", other_scripts.iter().map(|s| format!(r"\p{{sc={s}}}")).collect::<String>());
    for line in lines {
        let mut words = line.split(' ');
        let (Some(kind), Some(canonical)) = (words.next(), words.next()) else { panic!("bad line: {line}") };
        let (code, queries) = match kind {
            "gc" => (0u8, vec![format!("gc={canonical}")]),
            "sc" => (1, vec![format!("sc={canonical}"), format!("scx={canonical}")]),
            "bin" => (2, vec![canonical.to_string()]),
            _ => panic!("unknown kind in: {line}"),
        };
        let first = sets.len();
        first_of.insert((code, canonical), first);
        for query in queries {
            let pattern = if canonical == "Unknown" { unknown.clone() } else { format!(r"\p{{{query}}}") };
            sets.push(ranges(&pattern));
        }
        for alias in words {
            aliases.push((alias.to_string(), code, first));
        }
    }
    aliases.sort();
    aliases.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);

    // Sets the library works out from others instead of carrying (src/validator/ecma/unicode.rs):
    // (set, complemented, the sets whose union it is). A test holds each equal to its ranges here.
    // Not Other: regex-syntax's range for it runs through the surrogates, which its parts skip.
    let set = |code: u8, name: &str| *first_of.get(&(code, name)).unwrap_or_else(|| panic!("{name} is not in {NAMES}"));
    let gc = |names: &[&str]| names.iter().map(|n| set(0, n)).collect::<Vec<_>>();
    let mut derived: Vec<(usize, bool, Vec<usize>)> = vec![
        (set(0, "Letter"), false, gc(&["Uppercase_Letter", "Lowercase_Letter", "Titlecase_Letter", "Modifier_Letter", "Other_Letter"])),
        (set(0, "Cased_Letter"), false, gc(&["Uppercase_Letter", "Lowercase_Letter", "Titlecase_Letter"])),
        (set(0, "Mark"), false, gc(&["Nonspacing_Mark", "Spacing_Mark", "Enclosing_Mark"])),
        (set(0, "Number"), false, gc(&["Decimal_Number", "Letter_Number", "Other_Number"])),
        (
            set(0, "Punctuation"),
            false,
            gc(&[
                "Connector_Punctuation", "Dash_Punctuation", "Open_Punctuation", "Close_Punctuation", "Initial_Punctuation",
                "Final_Punctuation", "Other_Punctuation",
            ]),
        ),
        (set(0, "Symbol"), false, gc(&["Math_Symbol", "Currency_Symbol", "Modifier_Symbol", "Other_Symbol"])),
        (set(0, "Separator"), false, gc(&["Space_Separator", "Line_Separator", "Paragraph_Separator"])),
        (set(2, "Assigned"), true, gc(&["Unassigned"])),
        (set(2, "Cased"), false, vec![set(2, "Lowercase"), set(2, "Uppercase"), set(0, "Titlecase_Letter")]),
        (
            set(2, "Changes_When_Casemapped"),
            false,
            vec![set(2, "Changes_When_Lowercased"), set(2, "Changes_When_Uppercased"), set(2, "Changes_When_Titlecased")],
        ),
    ];
    let scripts: Vec<usize> = other_scripts.iter().map(|s| set(1, s)).collect();
    derived.push((set(1, "Unknown"), true, scripts.clone()));
    derived.push((set(1, "Unknown") + 1, true, scripts));
    derived.sort();

    let mut blob: Vec<u8> = Vec::new();
    let mut full: Vec<u8> = Vec::new();
    let (mut starts, mut full_starts) = (Vec::new(), Vec::new());
    for (i, ranges) in sets.iter().enumerate() {
        starts.push(blob.len());
        full_starts.push(full.len());
        if !derived.iter().any(|d| d.0 == i) {
            encode(ranges, &mut blob);
        }
        encode(ranges, &mut full);
    }
    starts.push(blob.len());
    full_starts.push(full.len());

    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("unicode_sets.bin"), &blob).expect("OUT_DIR is writable");
    std::fs::write(out.join("unicode_sets_full.bin"), &full).expect("OUT_DIR is writable");
    let mut rs = String::from("/// (normalised alias, kind: 0 gc, 1 script, 2 binary; set index), sorted.\n");
    rs.push_str("static NAMES: &[(&str, u8, u16)] = &[\n");
    for (alias, kind, set) in &aliases {
        let _ = writeln!(rs, "    ({alias:?}, {kind}, {set}),");
    }
    rs.push_str("];\n/// Where each set starts in SETS (a derived set has no bytes there); the last entry is SETS' length.\n");
    let _ = writeln!(rs, "static STARTS: &[u32] = &{starts:?};");
    rs.push_str("static SETS: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/unicode_sets.bin\"));\n");
    rs.push_str("/// (set, complemented, the sets whose union it is), by set.\nstatic DERIVED: &[(u16, bool, &[u16])] = &[\n");
    for (set, complemented, parts) in &derived {
        let _ = writeln!(rs, "    ({set}, {complemented}, &{parts:?}),");
    }
    rs.push_str("];\n/// Every set's ranges, derived ones too (for the test that holds them equal).\n");
    let _ = writeln!(rs, "#[cfg(test)]\nstatic FULL_STARTS: &[u32] = &{full_starts:?};");
    rs.push_str("#[cfg(test)]\nstatic FULL_SETS: &[u8] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/unicode_sets_full.bin\"));\n");
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
