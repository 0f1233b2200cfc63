//! `output-contract`, the contract checks for CI pipelines: its commands, the reading of their
//! arguments and every text they print. One implementation, run by the native binary
//! (src/bin/output-contract.rs) and by the npm package's (pkg/bin/output-contract.mjs, through the
//! schema tools' module: src/bindings/tools.rs, `runCli`). Nothing here reads or writes: what a
//! command reads comes through `Io`, what it prints goes into the `Outcome`.
//!
//! Exit codes: 0 valid, 1 invalid (the output, or the schema for `check`; a version step that
//! does not allow its changes for `diff`; any diagnostic for `registry check`), 2 usage error or
//! a schema that cannot be read or compiled.

use crate::agent::config::shape_diagnostics_in;
use crate::agent::stream::{OutputStream, StopReason, StreamOptions, StreamOutcome};
use crate::check::extract::{extract_json, ExtractOptions, Offsets};
use crate::check::output::OutputLimits;
use crate::schema::compare::compare_texts;
use crate::schema::contract::{Contract, Options};
use crate::schema::error::{SchemaError, SchemaErrorKind};
use crate::schema::registry::Registry;
use crate::validator::draft::Draft;
use crate::validator::format::CustomFormat;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The usage text (pkg/bin/usage.txt, which the package ships too); ends with a newline.
pub const USAGE: &str = include_str!("../../pkg/bin/usage.txt");

/// What a command reads. An error is told as `cannot read PATH: ERROR`.
pub trait Io {
    /// A file's text (UTF-8).
    fn read_file(&mut self, path: &str) -> Result<String, String>;
    /// Standard input, chunk by chunk as it arrives.
    fn read_stdin(&mut self, chunk: &mut dyn FnMut(&[u8])) -> Result<(), String>;
    /// A folder's entries: each one's path (the folder's path, `/`, its name) and whether it is a
    /// folder.
    fn list_dir(&mut self, dir: &str) -> Result<Vec<(String, bool)>, String>;
}

/// What a command printed and its exit code.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub code: u8,
}

/// A failure that ends the command with exit code 2: a wrong command line (`Usage`, told with
/// the usage text), or a file or schema that cannot be used (`Unusable`, told alone).
enum Failure {
    Usage(String),
    Unusable(String),
}
use Failure::{Unusable, Usage};

/// Runs the command `args` (without the program's name).
pub fn run(args: &[String], io: &mut dyn Io) -> Outcome {
    let mut cli = Cli { io, out: String::new() };
    let rest = args.get(1..).unwrap_or_default();
    let result = match args.first().map(String::as_str) {
        Some("check") => cli.check(rest),
        Some("validate") => cli.validate(rest),
        Some("extract") => cli.extract(rest),
        Some("diff") => cli.diff(rest),
        Some("registry") => cli.registry(rest),
        Some("-h" | "--help" | "help") => {
            cli.out.push_str(USAGE);
            Ok(true)
        }
        Some("-V" | "--version") => {
            cli.out.push_str(concat!("output-contract ", env!("CARGO_PKG_VERSION"), "\n"));
            Ok(true)
        }
        Some(other) => Err(Usage(format!("unknown command {other:?}"))),
        None => Err(Usage("a command is required".into())),
    };
    let stdout = cli.out;
    match result {
        Ok(valid) => Outcome { stdout, stderr: String::new(), code: if valid { 0 } else { 1 } },
        Err(Usage(message)) => {
            let synopsis = synopsis(args.first().map(String::as_str));
            Outcome { stdout, stderr: format!("output-contract: {message}\nusage: {synopsis} (output-contract --help for every option)\n"), code: 2 }
        }
        Err(Unusable(message)) => Outcome { stdout, stderr: format!("output-contract: {message}\n"), code: 2 },
    }
}

/// The one line of usage shown with a wrong command line: the command's own, else the commands'.
fn synopsis(command: Option<&str>) -> &'static str {
    match command {
        Some("check") => "output-contract check SCHEMA [OPTIONS]",
        Some("validate") => "output-contract validate --schema SCHEMA [OPTIONS] [FILE|-]",
        Some("extract") => "output-contract extract [OPTIONS] [FILE|-]",
        Some("diff") => "output-contract diff OLD NEW [OPTIONS]",
        Some("registry") => "output-contract registry check DIR [OPTIONS]",
        _ => "output-contract check|validate|extract|diff|registry ...",
    }
}

/// Flags and at most one positional argument.
#[derive(Default)]
struct Args {
    schema: Option<String>,
    agent_id: Option<String>,
    draft: Option<Draft>,
    no_strict: bool,
    /// `(URI, FILE)` pairs.
    resources: Vec<(String, String)>,
    /// `(NAME, REGEX)` pairs: custom formats.
    formats: Vec<(String, String)>,
    max_output_bytes: Option<usize>,
    max_depth: Option<usize>,
    extract: bool,
    repair: bool,
    input: Option<String>,
}

/// The options that compile a schema, and the limits shared by every command that reads output.
const SCHEMA_FLAGS: [&str; 4] = ["--draft", "--no-strict", "--resource", "--format"];
const LIMIT_FLAGS: [&str; 2] = ["--max-output-bytes", "--max-depth"];
/// The flags that take no value.
const NO_VALUE_FLAGS: [&str; 3] = ["--no-strict", "--extract", "--repair"];

fn count(flag: &str, text: &str) -> Result<usize, Failure> {
    text.parse().ok().filter(|&n| n > 0).ok_or_else(|| Usage(format!("{flag} needs a positive integer, not {text:?}")))
}

fn parse(args: &[String], allowed: &[&str]) -> Result<Args, Failure> {
    let mut out = Args::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        // `--flag=VALUE` as well as `--flag VALUE` (split at the first `=`: a flag's name has none).
        let (flag, mut inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_owned())),
            _ => (arg.as_str(), None),
        };
        if flag.starts_with("--") && !allowed.contains(&flag) {
            return Err(Usage(format!("unknown option {flag}")));
        }
        if inline.is_some() && NO_VALUE_FLAGS.contains(&flag) {
            return Err(Usage(format!("{flag} takes no value")));
        }
        let mut value = || inline.take().or_else(|| it.next().cloned()).ok_or_else(|| Usage(format!("{flag} needs a value")));
        match flag {
            "--schema" => out.schema = Some(value()?),
            "--agent-id" => out.agent_id = Some(value()?),
            "--draft" => {
                let name = value()?;
                out.draft = Some(Draft::from_name(&name).ok_or_else(|| Usage(format!("unknown draft {name:?}")))?);
            }
            "--no-strict" => out.no_strict = true,
            "--resource" => {
                let pair = value()?;
                let (uri, file) = pair.rsplit_once('=').filter(|(u, f)| !u.is_empty() && !f.is_empty()).ok_or_else(|| Usage(format!("--resource needs URI=FILE, not {pair:?}")))?;
                out.resources.push((uri.to_owned(), file.to_owned()));
            }
            "--format" => {
                let pair = value()?;
                let (name, regex) = pair.split_once('=').filter(|(n, _)| !n.is_empty()).ok_or_else(|| Usage(format!("--format needs NAME=REGEX, not {pair:?}")))?;
                out.formats.push((name.to_owned(), regex.to_owned()));
            }
            "--max-output-bytes" => out.max_output_bytes = Some(count(flag, &value()?)?),
            "--max-depth" => out.max_depth = Some(count(flag, &value()?)?),
            "--extract" => out.extract = true,
            "--repair" => out.repair = true,
            _ if out.input.is_none() => out.input = Some(arg.clone()),
            _ => return Err(Usage(format!("unexpected argument {arg:?}"))),
        }
    }
    Ok(out)
}

fn limits(args: &Args) -> OutputLimits {
    let defaults = OutputLimits::default();
    OutputLimits {
        max_output_bytes: args.max_output_bytes.unwrap_or(defaults.max_output_bytes),
        max_depth: args.max_depth.unwrap_or(defaults.max_depth),
    }
}

/// Compiles the schema; a bad `--format` regex is a wrong command line.
fn compile(text: &str, options: &Options) -> Result<Result<Contract, SchemaError>, Failure> {
    match Contract::compile_text(text, options) {
        Err(e) if e.kind == SchemaErrorKind::InvalidOption => Err(Usage(e.message)),
        other => Ok(other),
    }
}

/// How deep `registry check` goes into sub-folders (a link cycle ends here).
const MAX_DIR_DEPTH: usize = 16;

struct Cli<'a> {
    io: &'a mut dyn Io,
    out: String,
}

impl Cli<'_> {
    fn print(&mut self, value: &Value) {
        self.out.push_str(&serde_json::to_string_pretty(value).unwrap_or_default());
        self.out.push('\n');
    }

    fn read_file(&mut self, path: &str) -> Result<String, Failure> {
        self.io.read_file(path).map_err(|e| Unusable(format!("cannot read {path}: {e}")))
    }

    /// Standard input whole (`-` or no FILE), else the file.
    fn read_input(&mut self, input: Option<&str>) -> Result<String, Failure> {
        match input {
            None | Some("-") => {
                let mut bytes = Vec::new();
                self.io.read_stdin(&mut |chunk| bytes.extend_from_slice(chunk)).map_err(|e| Unusable(format!("cannot read stdin: {e}")))?;
                String::from_utf8(bytes).map_err(|_| Unusable("cannot read stdin: stream did not contain valid UTF-8".into()))
            }
            Some(path) => self.read_file(path),
        }
    }

    fn options(&mut self, args: &Args) -> Result<Options, Failure> {
        let mut resources = BTreeMap::new();
        for (uri, path) in &args.resources {
            let doc = serde_json::from_str(&self.read_file(path)?).map_err(|e| Unusable(format!("{path}: not JSON: {e}")))?;
            resources.insert(uri.clone(), doc);
        }
        Ok(Options {
            draft: args.draft,
            agent_id: args.agent_id.clone(),
            strict: !args.no_strict,
            resources,
            custom_formats: args.formats.iter().map(|(name, regex)| (name.clone(), CustomFormat::pattern(regex))).collect(),
            limits: limits(args),
            ..Options::default()
        })
    }

    fn check(&mut self, args: &[String]) -> Result<bool, Failure> {
        let args = parse(args, &SCHEMA_FLAGS)?;
        let path = args.input.as_deref().ok_or_else(|| Usage("check needs a SCHEMA file".into()))?;
        let text = self.read_file(path)?;
        let options = self.options(&args)?;
        let report = match compile(&text, &options)? {
            Ok(contract) => {
                let config = shape_diagnostics_in(contract.schema(), contract.draft());
                json!({"valid": config.is_empty(), "schema_id": contract.schema_id(), "draft": contract.draft().name(), "issues": [], "config": config})
            }
            Err(e) => json!({"valid": false, "issues": e.issues, "message": e.message}),
        };
        self.print(&report);
        Ok(report.get("valid") == Some(&json!(true)))
    }

    fn validate(&mut self, args: &[String]) -> Result<bool, Failure> {
        let allowed = [&["--schema", "--agent-id", "--extract", "--repair"][..], &SCHEMA_FLAGS, &LIMIT_FLAGS].concat();
        let args = parse(args, &allowed)?;
        let schema_path = args.schema.as_deref().ok_or_else(|| Usage("validate needs --schema SCHEMA".into()))?;
        let schema = self.read_file(schema_path)?;
        let options = self.options(&args)?;
        let contract = compile(&schema, &options)?.map_err(|e| Unusable(format!("{schema_path}: {}", e.message)))?;
        if args.extract || args.repair {
            let text = self.read_input(args.input.as_deref())?;
            let (_, result) = contract.extract_and_validate(&text, args.repair);
            return Ok(self.report(result.map_err(|e| e.to_json())));
        }
        match args.input.as_deref() {
            None | Some("-") => self.stream_stdin(&contract),
            Some(path) => {
                let text = self.read_file(path)?;
                Ok(self.report(contract.validate_text(&text).map_err(|e| e.to_json())))
            }
        }
    }

    /// Standard input through the stream validator: parsed as it arrives, never held whole, and
    /// refused once past the contract's output limit. Early violations do not stop the reading,
    /// so the report is the same as for the whole text.
    fn stream_stdin(&mut self, contract: &Contract) -> Result<bool, Failure> {
        let options = StreamOptions { max_retries: 0, ..StreamOptions::default() };
        let mut stream = OutputStream::new(contract, options);
        self.io
            .read_stdin(&mut |chunk| {
                if !chunk.is_empty() {
                    stream.push_quiet(chunk);
                }
            })
            .map_err(|e| Unusable(format!("cannot read stdin: {e}")))?;
        let outcome = stream.finish(StopReason::Stop, None);
        Ok(self.report(match outcome {
            StreamOutcome::Valid { data, .. } => Ok(data),
            StreamOutcome::Failed { error, .. } => Err(error.to_json()),
            // With no retries and no refusal given, these do not occur; say so rather than guess.
            other => Err(json!({"error": "unexpected stream outcome", "outcome": other})),
        }))
    }

    fn report(&mut self, result: Result<Value, Value>) -> bool {
        match result {
            Ok(data) => {
                self.print(&data);
                true
            }
            Err(error) => {
                self.print(&error);
                false
            }
        }
    }

    fn extract(&mut self, args: &[String]) -> Result<bool, Failure> {
        let args = parse(args, &[&["--repair"][..], &LIMIT_FLAGS].concat())?;
        let text = self.read_input(args.input.as_deref())?;
        let got = extract_json(&text, &ExtractOptions { repair: args.repair, limits: limits(&args) });
        self.print(&got.to_json(&text, Offsets::Bytes));
        Ok(got.found())
    }

    /// `diff OLD NEW`: how NEW differs from OLD (narrowed, widened, unknown), and whether the
    /// version step between their `$id`s allows it (two ids without versions count as a patch
    /// step: no change allowed).
    fn diff(&mut self, args: &[String]) -> Result<bool, Failure> {
        let positional = |i: usize| args.get(i).filter(|a| !a.starts_with("--")).cloned();
        let (Some(old_path), Some(new_path)) = (positional(0), positional(1)) else {
            return Err(Usage("diff needs OLD and NEW schema files".into()));
        };
        let rest = parse(args.get(2..).unwrap_or_default(), &SCHEMA_FLAGS)?;
        if let Some(extra) = rest.input {
            return Err(Usage(format!("unexpected argument {extra:?}")));
        }
        let options = self.options(&rest)?;
        let (old_text, new_text) = (self.read_file(&old_path)?, self.read_file(&new_path)?);
        let comparison = compare_texts(&old_text, &new_text, &options).map_err(|(which, e)| {
            let path = if which == "old" { &old_path } else { &new_path };
            Unusable(format!("{path}: {}", e.message))
        })?;
        // With versions in both `$id`s, their step decides; without, any change is a problem.
        let allowed = comparison.step.as_ref().map_or(comparison.is_empty(), |step| step.allowed);
        let mut report = serde_json::to_value(&comparison).unwrap_or_default();
        if let Some(map) = report.as_object_mut() {
            map.insert("compatible".into(), json!(allowed));
        }
        self.print(&report);
        Ok(allowed)
    }

    /// `registry check DIR [--draft jtd]`: every `*.schema.json` below DIR as a registry, and its
    /// diagnostics (`--draft jtd`: JSON Type Definitions, known by `metadata.id`).
    fn registry(&mut self, args: &[String]) -> Result<bool, Failure> {
        match args.first().map(String::as_str) {
            Some("check") => {}
            Some(other) => return Err(Usage(format!("unknown registry command {other:?}"))),
            None => return Err(Usage("registry needs a command: check DIR".into())),
        }
        let args = parse(args.get(1..).unwrap_or_default(), &["--draft", "--no-strict"])?;
        let dir = args.input.as_deref().ok_or_else(|| Usage("registry check needs a DIR".into()))?;
        let mut registry = Registry::new(self.options(&args)?);
        let unreadable = |e: String| Unusable(format!("cannot read {dir}: {e}"));
        let mut files = Vec::new();
        self.schema_files(dir, 0, &mut files).map_err(unreadable)?;
        // Folder by folder, names compared as bytes.
        files.sort_by(|a, b| a.split('/').cmp(b.split('/')));
        for file in &files {
            let text = self.io.read_file(file).map_err(unreadable)?;
            registry.add(&text, Some(file));
        }
        let diagnostics = registry.check();
        self.print(&json!({"ok": diagnostics.is_empty(), "schemas": files.len(), "diagnostics": diagnostics}));
        Ok(diagnostics.is_empty())
    }

    fn schema_files(&mut self, dir: &str, depth: usize, out: &mut Vec<String>) -> Result<(), String> {
        for (path, is_dir) in self.io.list_dir(dir)? {
            if is_dir {
                if depth < MAX_DIR_DEPTH {
                    self.schema_files(&path, depth + 1, out)?;
                }
            } else if path.rsplit('/').next().is_some_and(|name| name.ends_with(".schema.json")) {
                out.push(path);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files and standard input from memory.
    struct Memory {
        files: BTreeMap<String, String>,
        stdin: Vec<u8>,
    }

    impl Io for Memory {
        fn read_file(&mut self, path: &str) -> Result<String, String> {
            self.files.get(path).cloned().ok_or_else(|| "not found".into())
        }

        fn read_stdin(&mut self, chunk: &mut dyn FnMut(&[u8])) -> Result<(), String> {
            self.stdin.chunks(3).for_each(chunk);
            Ok(())
        }

        fn list_dir(&mut self, dir: &str) -> Result<Vec<(String, bool)>, String> {
            let prefix = format!("{dir}/");
            Ok(self.files.keys().filter(|p| p.starts_with(&prefix)).map(|p| (p.clone(), false)).collect())
        }
    }

    fn run_in(files: &[(&str, &str)], stdin: &str, args: &[&str]) -> Outcome {
        let mut io = Memory { files: files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect(), stdin: stdin.as_bytes().to_vec() };
        run(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>(), &mut io)
    }

    #[test]
    fn commands_read_through_io_and_print_into_the_outcome() {
        let schema = ("s.json", r#"{"type": "object", "required": ["a"]}"#);
        let ok = run_in(&[schema], r#"{"a": 1}"#, &["validate", "--schema", "s.json"]);
        assert_eq!((ok.code, ok.stdout.as_str(), ok.stderr.as_str()), (0, "{\n  \"a\": 1\n}\n", ""));
        let bad = run_in(&[schema], "{}", &["validate", "--schema", "s.json", "-"]);
        assert_eq!(bad.code, 1);
        assert!(bad.stdout.contains("output_validation_failed"));
        let missing = run_in(&[], "", &["check", "nope.json"]);
        assert_eq!((missing.code, missing.stderr.as_str()), (2, "output-contract: cannot read nope.json: not found\n"));
        let usage = run_in(&[], "", &["frobnicate"]);
        assert_eq!(usage.code, 2);
        assert_eq!(usage.stderr, "output-contract: unknown command \"frobnicate\"\nusage: output-contract check|validate|extract|diff|registry ... (output-contract --help for every option)\n");
        let registry = run_in(&[("d/a.schema.json", r#"{"type": "string"}"#), ("d/notes.txt", "")], "", &["registry", "check", "d"]);
        assert!(registry.stdout.contains("\"schemas\": 1"), "{}", registry.stdout);
    }
}
