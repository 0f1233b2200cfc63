//! `output-contract`: the contract checks for CI pipelines.
//!
//! Exit codes: 0 valid, 1 invalid (the output, or the schema for `check`; a version step that
//! does not allow its changes for `diff`; any diagnostic for `registry check`), 2 usage error or
//! a schema that cannot be read or compiled.

use output_contract::agent::config::shape_diagnostics_in;

use output_contract::schema::compare::compare_texts;
use output_contract::schema::registry::Registry;
use output_contract::schema::contract::{Contract, Options};
use output_contract::{CustomFormat, Draft, SchemaError, SchemaErrorKind};
use output_contract::check::extract::{extract_json, ExtractOptions, Offsets};
use output_contract::check::output::OutputLimits;
use output_contract::agent::stream::{OutputStream, StopReason, StreamOptions, StreamOutcome};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::process::ExitCode;

/// Shared with the npm package's command (pkg/bin/output-contract.mjs); ends with a newline.
const USAGE: &str = include_str!("../../pkg/bin/usage.txt");

/// A failure that ends the command with exit code 2: a wrong command line (`Usage`, told with
/// the usage text), or a file or schema that cannot be used (`Unusable`, told alone).
enum Failure {
    Usage(String),
    Unusable(String),
}
use Failure::{Unusable, Usage};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("check") => check(args.get(1..).unwrap_or_default()),
        Some("validate") => validate(args.get(1..).unwrap_or_default()),
        Some("extract") => extract(args.get(1..).unwrap_or_default()),
        Some("diff") => diff(args.get(1..).unwrap_or_default()),
        Some("registry") => registry(args.get(1..).unwrap_or_default()),
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            Ok(true)
        }
        Some(other) => Err(Usage(format!("unknown command {other:?}"))),
        None => Err(Usage("a command is required".into())),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(Usage(message)) => {
            eprint!("output-contract: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Unusable(message)) => {
            eprintln!("output-contract: {message}");
            ExitCode::from(2)
        }
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

fn count(flag: &str, text: &str) -> Result<usize, Failure> {
    text.parse().ok().filter(|&n| n > 0).ok_or_else(|| Usage(format!("{flag} needs a positive integer, not {text:?}")))
}

fn parse(args: &[String], allowed: &[&str]) -> Result<Args, Failure> {
    let mut out = Args::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let flag = arg.as_str();
        if flag.starts_with("--") && !allowed.contains(&flag) {
            return Err(Usage(format!("unknown option {flag}")));
        }
        let mut value = || it.next().cloned().ok_or_else(|| Usage(format!("{flag} needs a value")));
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

fn read_file(path: &str) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| Unusable(format!("cannot read {path}: {e}")))
}

fn read_input(input: Option<&str>) -> Result<String, Failure> {
    match input {
        None | Some("-") => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).map_err(|e| Unusable(format!("cannot read stdin: {e}")))?;
            Ok(text)
        }
        Some(path) => read_file(path),
    }
}

fn print(value: &Value) {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = writeln!(std::io::stdout(), "{text}");
}

fn limits(args: &Args) -> OutputLimits {
    let defaults = OutputLimits::default();
    OutputLimits {
        max_output_bytes: args.max_output_bytes.unwrap_or(defaults.max_output_bytes),
        max_depth: args.max_depth.unwrap_or(defaults.max_depth),
    }
}

fn options(args: &Args) -> Result<Options, Failure> {
    let mut resources = BTreeMap::new();
    for (uri, path) in &args.resources {
        let doc = serde_json::from_str(&read_file(path)?).map_err(|e| Unusable(format!("{path}: not JSON: {e}")))?;
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

/// Compiles the schema; a bad `--format` regex is a wrong command line.
fn compile(text: &str, options: &Options) -> Result<Result<Contract, SchemaError>, Failure> {
    match Contract::compile_text(text, options) {
        Err(e) if e.kind == SchemaErrorKind::InvalidOption => Err(Usage(e.message)),
        other => Ok(other),
    }
}

fn check(args: &[String]) -> Result<bool, Failure> {
    let args = parse(args, &SCHEMA_FLAGS)?;
    let path = args.input.as_deref().ok_or_else(|| Usage("check needs a SCHEMA file".into()))?;
    let text = read_file(path)?;
    let options = options(&args)?;
    let report = match compile(&text, &options)? {
        Ok(contract) => {
            let config = shape_diagnostics_in(contract.schema(), contract.draft());
            json!({"valid": config.is_empty(), "schema_id": contract.schema_id(), "draft": contract.draft().name(), "issues": [], "config": config})
        }
        Err(e) => json!({"valid": false, "issues": e.issues, "message": e.message}),
    };
    print(&report);
    Ok(report["valid"] == json!(true))
}

fn validate(args: &[String]) -> Result<bool, Failure> {
    let allowed = [&["--schema", "--agent-id", "--extract", "--repair"][..], &SCHEMA_FLAGS, &LIMIT_FLAGS].concat();
    let args = parse(args, &allowed)?;
    let schema_path = args.schema.as_deref().ok_or_else(|| Usage("validate needs --schema SCHEMA".into()))?;
    let contract = compile(&read_file(schema_path)?, &options(&args)?)?.map_err(|e| Unusable(format!("{schema_path}: {}", e.message)))?;
    if args.extract || args.repair {
        let text = read_input(args.input.as_deref())?;
        let (_, result) = contract.extract_and_validate(&text, args.repair);
        return Ok(report(result.map_err(|e| e.to_json())));
    }
    match args.input.as_deref() {
        None | Some("-") => stream_stdin(&contract),
        Some(path) => {
            let text = read_file(path)?;
            Ok(report(contract.validate_text(&text).map_err(|e| e.to_json())))
        }
    }
}

/// Standard input through the stream validator: parsed as it arrives, never held whole, and
/// refused once past the contract's output limit. Early violations do not stop the reading, so
/// the report is the same as for the whole text.
fn stream_stdin(contract: &Contract) -> Result<bool, Failure> {
    let options = StreamOptions { max_retries: 0, ..StreamOptions::default() };
    let mut stream = OutputStream::new(contract, options);
    let mut stdin = std::io::stdin().lock();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = stdin.read(&mut buf).map_err(|e| Unusable(format!("cannot read stdin: {e}")))?;
        let Some(chunk) = buf.get(..n).filter(|c| !c.is_empty()) else { break };
        stream.push_quiet(chunk);
    }
    let outcome = stream.finish(StopReason::Stop, None);
    Ok(report(match outcome {
        StreamOutcome::Valid { data, .. } => Ok(data),
        StreamOutcome::Failed { error, .. } => Err(error.to_json()),
        // With no retries and no refusal given, these do not occur; say so rather than guess.
        other => Err(json!({"error": "unexpected stream outcome", "outcome": other})),
    }))
}

fn report(result: Result<Value, Value>) -> bool {
    match result {
        Ok(data) => {
            print(&data);
            true
        }
        Err(error) => {
            print(&error);
            false
        }
    }
}

fn extract(args: &[String]) -> Result<bool, Failure> {
    let args = parse(args, &[&["--repair"][..], &LIMIT_FLAGS].concat())?;
    let text = read_input(args.input.as_deref())?;
    let got = extract_json(&text, &ExtractOptions { repair: args.repair, limits: limits(&args) });
    print(&got.to_json(&text, Offsets::Bytes));
    Ok(got.found())
}

/// `diff OLD NEW`: how NEW differs from OLD (narrowed, widened, unknown), and whether the version
/// step between their `$id`s allows it (two ids without versions count as a patch step: no
/// change allowed).
fn diff(args: &[String]) -> Result<bool, Failure> {
    let positional = |i: usize| args.get(i).filter(|a| !a.starts_with("--")).cloned();
    let (Some(old_path), Some(new_path)) = (positional(0), positional(1)) else {
        return Err(Usage("diff needs OLD and NEW schema files".into()));
    };
    let rest = parse(args.get(2..).unwrap_or_default(), &SCHEMA_FLAGS)?;
    if let Some(extra) = rest.input {
        return Err(Usage(format!("unexpected argument {extra:?}")));
    }
    let options = options(&rest)?;
    let (old_text, new_text) = (read_file(&old_path)?, read_file(&new_path)?);
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
    print(&report);
    Ok(allowed)
}

/// `registry check DIR [--draft jtd]`: every `*.schema.json` below DIR as a registry, and its
/// diagnostics (`--draft jtd`: JSON Type Definitions, known by `metadata.id`).
fn registry(args: &[String]) -> Result<bool, Failure> {
    match args.first().map(String::as_str) {
        Some("check") => {}
        Some(other) => return Err(Usage(format!("unknown registry command {other:?}"))),
        None => return Err(Usage("registry needs a command: check DIR".into())),
    }
    let args = parse(args.get(1..).unwrap_or_default(), &["--draft", "--no-strict"])?;
    let dir = args.input.as_deref().ok_or_else(|| Usage("registry check needs a DIR".into()))?;
    let mut registry = Registry::new(options(&args)?);
    let count = registry.add_dir(std::path::Path::new(dir)).map_err(|e| Unusable(format!("cannot read {dir}: {e}")))?;
    let diagnostics = registry.check();
    print(&json!({"ok": diagnostics.is_empty(), "schemas": count, "diagnostics": diagnostics}));
    Ok(diagnostics.is_empty())
}
