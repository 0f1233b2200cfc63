//! Shared by the integration tests: the seeded random source (`rng`), and for
//! tests/differential.rs and tests/stream_suite.rs the JSON-Schema-Test-Suite's cases
//! (../shared/json-schema-test-suite), the options they compile with, and instances generated
//! from the suite's own by small deterministic edits.
// Each test crate uses a part of this module.
#![allow(dead_code)]

pub mod rng;

pub use rng::Rng;

use output_contract::{Contract, Draft, Options};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The suite's directories and the draft each one is about.
pub const DRAFTS: [(&str, Draft); 5] = [
    ("draft4", Draft::Draft4),
    ("draft6", Draft::Draft6),
    ("draft7", Draft::Draft7),
    ("draft2019-09", Draft::Draft201909),
    ("draft2020-12", Draft::Draft202012),
];

/// Where the suite's remote documents are served from, as the suite expects.
pub const REMOTE_BASE: &str = "http://localhost:1234/";

/// One schema of the suite and its instances.
pub struct Case {
    /// `draft7/ref.json`, `draft7/optional/format/date.json`.
    pub file: String,
    pub description: String,
    pub schema: Value,
    pub tests: Vec<Test>,
    /// Under `optional/format/`: the only place where `format` is asserted.
    pub formats: bool,
}

pub struct Test {
    pub description: String,
    pub data: Value,
    pub valid: bool,
}

impl Case {
    /// `draft7/ref.json::case description`, the prefix of every id of its instances.
    pub fn id(&self) -> String {
        format!("{}::{}", self.file, self.description)
    }

    /// The library's options for this case, as tests/spec_suite.rs compiles it: the
    /// specification's defaults (unknown keywords ignored, `format` an annotation outside
    /// `optional/format`). The remote documents are given only to the schemas that can reach
    /// them: the others compile as a user's schema alone does.
    pub fn options(&self, draft: Draft, suite: &Suite) -> Options {
        let resources = if self.uses_remotes() { suite.remotes.clone() } else { BTreeMap::new() };
        Options { draft: Some(draft), strict: false, formats: self.formats, resources, ..Options::default() }
    }

    /// Every remote document lives under `REMOTE_BASE`, so only a schema naming it reaches one.
    pub fn uses_remotes(&self) -> bool {
        self.schema.to_string().contains(REMOTE_BASE)
    }

    pub fn compile(&self, draft: Draft, suite: &Suite) -> Option<Contract> {
        Contract::compile(&self.schema, &self.options(draft, suite)).ok()
    }

    /// Each instance of the suite as compact JSON, followed by up to `count` generated from it;
    /// `salt` picks the generator (the same salt, the same instances).
    pub fn instances(&self, salt: u64, count: usize) -> Vec<Instance<'_>> {
        let mut rng = Rng::for_case(self, salt);
        let mut out = Vec::new();
        for test in &self.tests {
            out.push(Instance { text: test.data.to_string(), test, generated: false });
            for text in mutations(&self.schema, &test.data, &mut rng, count) {
                out.push(Instance { text, test, generated: true });
            }
        }
        out
    }
}

/// One text to check: an instance of the suite or one generated from it.
pub struct Instance<'c> {
    pub text: String,
    /// The suite's test it is or comes from.
    pub test: &'c Test,
    pub generated: bool,
}

impl Instance<'_> {
    /// The last part of its id: the suite test's description, or the generated text.
    pub fn name(&self) -> &str {
        if self.generated {
            &self.text
        } else {
            &self.test.description
        }
    }

    /// The suite's answer, for its own instances.
    pub fn expected(&self) -> Option<bool> {
        (!self.generated).then_some(self.test.valid)
    }
}

/// Runs a whole-suite test: `per_draft` over each draft's cases, printing the summary line it
/// returns, then its findings settled against `lists`. On a thread with room for a debug
/// build's large frames (the suite's schemas nest, and so do the recursions through them).
pub fn run_suite(per_draft: fn(&Suite, &str, Draft, &mut Findings) -> String, lists: &'static [&'static [(&'static str, &'static str)]]) {
    let run = move || {
        let suite = Suite::load();
        let mut findings = Findings::default();
        for (dir, draft) in DRAFTS {
            println!("{}", per_draft(&suite, dir, draft, &mut findings));
        }
        findings.assert_all_listed(lists);
    };
    std::thread::Builder::new().stack_size(64 << 20).spawn(run).unwrap().join().unwrap();
}

pub struct Suite {
    pub root: PathBuf,
    /// The documents under `remotes/`, by the URI the suite's schemas use for them.
    pub remotes: BTreeMap<String, Value>,
}

impl Suite {
    pub fn load() -> Suite {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/json-schema-test-suite");
        assert!(root.exists(), "the JSON-Schema-Test-Suite is expected at {}", root.display());
        let base = root.join("remotes");
        let remotes = walk_json(&base)
            .into_iter()
            .map(|(path, doc)| (format!("{REMOTE_BASE}{}", relative(&path, &base)), doc))
            .collect();
        Suite { root, remotes }
    }

    /// Every case of one draft's directory, `optional/` included, in file order.
    pub fn cases(&self, dir: &str) -> Vec<Case> {
        let tests = self.root.join("tests");
        let mut out = Vec::new();
        for (path, doc) in walk_json(&tests.join(dir)) {
            let file = relative(&path, &tests);
            for case in doc.as_array().unwrap() {
                let text = |v: &Value| v.as_str().unwrap().to_string();
                out.push(Case {
                    formats: file.contains("/optional/format/"),
                    file: file.clone(),
                    description: text(&case["description"]),
                    schema: case["schema"].clone(),
                    tests: case["tests"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|t| Test { description: text(&t["description"]), data: t["data"].clone(), valid: t["valid"].as_bool().unwrap() })
                        .collect(),
                });
            }
        }
        out
    }
}

fn relative(path: &Path, base: &Path) -> String {
    path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/")
}

/// Every `.json` file below `dir`, parsed, in path order.
fn walk_json(dir: &Path) -> Vec<(PathBuf, Value)> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    let read = |p: &PathBuf| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    entries
        .into_iter()
        .flat_map(|p| if p.is_dir() { walk_json(&p) } else { p.extension().is_some_and(|e| e == "json").then(|| (p.clone(), read(&p))).into_iter().collect() })
        .collect()
}

/// Whether the library refused an output for its size or depth limits rather than judging it.
pub fn over_limits(error: &output_contract::OutputValidationError) -> bool {
    error.violations.iter().any(|v| v.keyword == "maxOutputBytes" || v.keyword == "maxDepth")
}

impl Rng {
    /// A generator of its own for each case (and each use of it: `salt`), so that the
    /// instances made for a case stay the same when other cases come or go.
    pub fn for_case(case: &Case, salt: u64) -> Rng {
        // FNV-1a: stable across platforms and Rust releases.
        let hash = case.id().bytes().fold(0xcbf2_9ce4_8422_2325_u64 ^ salt, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
        Rng::new(hash)
    }
}

/// The property name that marks where a repeated name goes in the text; replaced once written.
const REPEAT: &str = "\u{1}repeat\u{1}";

/// Instances made from `instance` by one or two small edits each, as compact JSON texts: a
/// property dropped or added, a scalar of another type, an array item appended or removed, a
/// number moved by one, a value nested one level, a property name written twice (which only
/// text can say; the library refuses it, `duplicateKey`). The names and scalars put in
/// come from the schema too, so that the edits reach its keywords' edges. None is the original.
pub fn mutations(schema: &Value, instance: &Value, rng: &mut Rng, count: usize) -> Vec<String> {
    let pool = Pool::of(schema);
    let original = instance.to_string();
    let mut out = BTreeSet::new();
    for _ in 0..count {
        let mut value = instance.clone();
        let mut repeated = None;
        for _ in 0..1 + rng.below(2) {
            edit(&mut value, &pool, rng, &mut repeated);
        }
        let mut text = value.to_string();
        let marker = Value::from(REPEAT).to_string();
        if let Some(name) = repeated {
            text = text.replace(&marker, &Value::from(name).to_string());
        }
        if text != original {
            out.insert(text);
        }
    }
    out.into_iter().collect()
}

/// The names and scalars of a schema (object keys, strings, numbers), with a few of every kind.
struct Pool {
    names: Vec<String>,
    scalars: Vec<Value>,
}

impl Pool {
    fn of(schema: &Value) -> Pool {
        let (mut names, mut scalars) = (BTreeSet::new(), vec![Value::Null, Value::Bool(true), 0.into(), (-1).into(), 1.5.into(), 1.0.into(), "".into(), "é😀".into()]);
        names.extend(["foo", "", "a"].map(String::from));
        let mut pending = vec![schema];
        while let Some(v) = pending.pop() {
            match v {
                Value::Object(m) => {
                    names.extend(m.keys().filter(|k| !k.starts_with('$')).cloned());
                    pending.extend(m.values());
                }
                Value::Array(items) => pending.extend(items),
                Value::String(s) => {
                    names.insert(s.clone());
                    scalars.push(v.clone());
                }
                Value::Number(_) => scalars.push(v.clone()),
                _ => {}
            }
        }
        Pool { names: names.into_iter().collect(), scalars }
    }

    fn name(&self, rng: &mut Rng) -> String {
        self.names[rng.below(self.names.len())].clone()
    }

    fn scalar(&self, rng: &mut Rng) -> Value {
        self.scalars[rng.below(self.scalars.len())].clone()
    }
}

/// The JSON pointers of every value in `value`, itself first.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    let escape = |k: &str| k.replace('~', "~0").replace('/', "~1");
    match value {
        Value::Object(m) => m.iter().for_each(|(k, v)| pointers(v, format!("{at}/{}", escape(k)), out)),
        Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| pointers(v, format!("{at}/{i}"), out)),
        _ => {}
    }
    out.push(at);
}

/// One edit at a value of `root` picked at random; `repeated` is the name written twice, if any.
fn edit(root: &mut Value, pool: &Pool, rng: &mut Rng, repeated: &mut Option<String>) {
    let mut all = Vec::new();
    pointers(root, String::new(), &mut all);
    let at = all.swap_remove(rng.below(all.len()));
    let target = root.pointer_mut(&at).unwrap();
    let choice = rng.below(4);
    let replacement = match target {
        Value::Object(m) if choice == 0 && !m.is_empty() => {
            let k = m.keys().nth(rng.below(m.len())).unwrap().clone();
            m.shift_remove(&k);
            None
        }
        Value::Object(m) if choice == 1 => {
            m.insert(pool.name(rng), pool.scalar(rng));
            None
        }
        Value::Object(m) if choice == 2 && !m.is_empty() && repeated.is_none() => {
            // The name written twice: its other value before or after the one that stays.
            let k = m.keys().nth(rng.below(m.len())).unwrap().clone();
            *repeated = Some(k);
            let other = pool.scalar(rng);
            if rng.below(2) == 0 {
                m.insert(REPEAT.into(), other);
            } else {
                let rest = std::mem::take(m);
                m.insert(REPEAT.into(), other);
                m.extend(rest);
            }
            None
        }
        Value::Array(items) if choice == 0 && !items.is_empty() => {
            items.remove(rng.below(items.len()));
            None
        }
        Value::Array(items) if choice == 1 => {
            // A copy of an item (for uniqueItems and contains) or a new scalar.
            let item = if items.is_empty() || rng.below(2) == 0 { pool.scalar(rng) } else { items[rng.below(items.len())].clone() };
            items.push(item);
            None
        }
        Value::Number(n) if choice == 0 => {
            let f = n.as_f64().unwrap();
            let moved = [f + 1.0, f - 1.0, -f, f * 2.0, f / 2.0][rng.below(5)];
            Some(match n.as_i64() {
                Some(_) if moved.fract() == 0.0 && moved.abs() < 1e15 => (moved as i64).into(),
                // An integer written as a float (1.0): an integer in every draft but the fourth.
                Some(i) if rng.below(2) == 0 => (i as f64).into(),
                _ => moved.into(),
            })
        }
        Value::Number(n) if choice == 1 => Some(n.to_string().into()),
        Value::String(s) if choice == 0 => Some(s.parse::<f64>().ok().map_or_else(|| s.chars().count().into(), Value::from)),
        Value::String(s) if choice == 1 => {
            let mut longer = s.clone();
            longer.push(['a', 'é', '😀', '0'][rng.below(4)]);
            Some(longer.into())
        }
        Value::String(s) if choice == 2 && !s.is_empty() => Some(s.chars().take(s.chars().count() - 1).collect::<String>().into()),
        // A value nested one level, in an array or an object.
        _ if choice == 3 => {
            let inner = target.take();
            Some(if rng.below(2) == 0 { Value::Array(vec![inner]) } else { Value::Object(Map::from_iter([(pool.name(rng), inner)])) })
        }
        // Another type altogether.
        Value::Bool(b) => Some(if rng.below(2) == 0 { b.to_string().into() } else { Value::Bool(!*b) }),
        Value::Null => Some(if rng.below(2) == 0 { 0.into() } else { "null".into() }),
        Value::Object(m) => Some(Value::Array(m.values().cloned().collect())),
        Value::Array(items) => Some(Value::Object(items.iter().enumerate().map(|(i, v)| (i.to_string(), v.clone())).collect())),
        _ => Some(pool.scalar(rng)),
    };
    if let Some(v) = replacement {
        *target = v;
    }
}

/// What one test found wrong, settled against lists of known cases: `(id, reason)`, where an id
/// is `<file>::<case>::<instance>`, `<file>::<case>` alone for every instance of the case, or
/// the name of a class of findings (`Findings::add_to`).
#[derive(Default)]
pub struct Findings {
    /// (case id or class, full id, what happened)
    found: Vec<(String, String, String)>,
}

impl Findings {
    /// `what` says what happened; the schema and the instance are written before it.
    pub fn add(&mut self, case: &Case, instance: &Instance<'_>, what: String) {
        self.add_to(&case.id(), case, instance, what);
    }

    /// A finding of a kind that a list names as a whole (`class`), rather than case by case.
    pub fn add_to(&mut self, class: &str, case: &Case, instance: &Instance<'_>, what: String) {
        let what = format!("  schema {}\n  instance {}\n{what}", case.schema, instance.text);
        self.found.push((class.to_string(), format!("{}::{}", case.id(), instance.name()), what));
    }

    pub fn add_case(&mut self, case: &Case, what: String) {
        self.found.push((case.id(), case.id(), what));
    }

    /// Fails on a finding no list names, and on a listed id nothing was found for (the library
    /// or the reference changed: the entry goes).
    pub fn assert_all_listed(&self, lists: &[&[(&str, &str)]]) {
        let listed: BTreeSet<&str> = lists.iter().flat_map(|l| l.iter().map(|(id, _)| *id)).collect();
        let mut seen = BTreeSet::new();
        let mut unexpected = Vec::new();
        for (case, id, what) in &self.found {
            match [id, case].into_iter().find(|k| listed.contains(k.as_str())) {
                Some(k) => {
                    seen.insert(k.as_str());
                }
                None => unexpected.push(format!("{id}\n{what}")),
            }
        }
        let stale: Vec<&&str> = listed.iter().filter(|k| !seen.contains(**k)).collect();
        assert!(stale.is_empty(), "listed cases that no longer occur (remove them): {stale:#?}");
        assert!(unexpected.is_empty(), "{} unexpected findings:\n{}", unexpected.len(), unexpected.join("\n"));
    }
}
