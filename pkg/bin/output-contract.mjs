#!/usr/bin/env node
// `output-contract` from the npm package: the commands, output (JSON on stdout) and exit codes of
// the Rust CLI (src/bin/output-contract.rs), over the package's own public API.
// Exit codes: 0 valid, 1 invalid (the output, or the schema for `check`; a version step that
// does not allow its changes for `diff`; any diagnostic for `registry check`), 2 usage error or
// a schema that cannot be read or compiled.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, SchemaError, SchemaRegistry, checkOutputSchemaConfig, compareSchemas, extractJson } from 'output-contract';

// Shared with the Rust CLI (src/bin/output-contract.rs); ends with a newline.
const USAGE = readFileSync(new URL('./usage.txt', import.meta.url), 'utf8');

/** Ends the command with exit code 2: a wrong command line is told with the usage text, a file or schema that cannot be used alone. */
class Failure extends Error {
  constructor(message, usage) {
    super(message);
    this.usage = usage;
  }
}
const usage = (message) => new Failure(message, true);
const unusable = (message) => new Failure(message, false);

const SCHEMA_FLAGS = ['--draft', '--no-strict', '--resource', '--format'];
const LIMIT_FLAGS = ['--max-output-bytes', '--max-depth'];
const VALUED = new Set(['--schema', '--agent-id', '--draft', '--resource', '--format', '--max-output-bytes', '--max-depth']);

function count(flag, text) {
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) === 0) throw usage(`${flag} needs a positive integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** Flags and at most one positional argument. */
function parse(args, allowed) {
  const out = { resources: [], formats: [], strict: true, extract: false, repair: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('--') && !allowed.includes(arg)) throw usage(`unknown option ${arg}`);
    let value;
    if (VALUED.has(arg)) {
      if (i + 1 >= args.length) throw usage(`${arg} needs a value`);
      value = args[++i];
    }
    switch (arg) {
      case '--schema': out.schema = value; break;
      case '--agent-id': out.agentId = value; break;
      case '--draft': out.draft = value; break;
      case '--no-strict': out.strict = false; break;
      case '--resource': {
        const at = value.lastIndexOf('=');
        if (at <= 0 || at === value.length - 1) throw usage(`--resource needs URI=FILE, not ${JSON.stringify(value)}`);
        out.resources.push([value.slice(0, at), value.slice(at + 1)]);
        break;
      }
      case '--format': {
        // A pattern string, matched by the library's engine as the Rust CLI's is.
        const at = value.indexOf('=');
        if (at <= 0) throw usage(`--format needs NAME=REGEX, not ${JSON.stringify(value)}`);
        out.formats.push([value.slice(0, at), value.slice(at + 1)]);
        break;
      }
      case '--max-output-bytes': out.maxOutputBytes = count(arg, value); break;
      case '--max-depth': out.maxDepth = count(arg, value); break;
      case '--extract': out.extract = true; break;
      case '--repair': out.repair = true; break;
      default:
        if (out.input !== undefined) throw usage(`unexpected argument ${JSON.stringify(arg)}`);
        out.input = arg;
    }
  }
  return out;
}

// Text as the Rust CLI reads it: UTF-8, refused when invalid, a byte order mark kept.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
function decode(bytes, what) {
  try {
    return decoder.decode(bytes);
  } catch {
    throw unusable(`cannot read ${what}: stream did not contain valid UTF-8`);
  }
}

function readFile(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw unusable(`cannot read ${path}: ${e.message}`);
  }
  return decode(bytes, path);
}

async function readInput(input) {
  if (input !== undefined && input !== '-') return readFile(input);
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return decode(Buffer.concat(chunks), 'stdin');
}

function print(value) {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function options(args) {
  const resources = {};
  for (const [uri, path] of args.resources) {
    const text = readFile(path);
    try {
      resources[uri] = JSON.parse(text);
    } catch (e) {
      throw unusable(`${path}: not JSON: ${e.message}`);
    }
  }
  const out = { strict: args.strict, resources };
  if (args.formats.length > 0) out.formats = Object.fromEntries(args.formats);
  for (const key of ['draft', 'agentId', 'maxOutputBytes', 'maxDepth']) if (args[key] !== undefined) out[key] = args[key];
  return out;
}

// Contract.compile, with an option it refuses (an unknown --draft) told as the usage error it is.
function compile(text, opts) {
  try {
    return { contract: Contract.compile(text, opts) };
  } catch (e) {
    if (e?.kind === 'invalid_option') throw usage(e.message);
    if (!(e instanceof SchemaError)) throw e;
    return { error: e };
  }
}

function check(argv) {
  const args = parse(argv, SCHEMA_FLAGS);
  if (args.input === undefined) throw usage('check needs a SCHEMA file');
  const text = readFile(args.input);
  const opts = options(args);
  const { contract, error } = compile(text, opts);
  let report;
  if (contract) {
    // The root's shape alone: the schema compiles.
    const config = checkOutputSchemaConfig(text, opts).filter((d) => d.code !== 'invalid_schema');
    report = { valid: config.length === 0, schema_id: contract.schemaId, draft: contract.draft, issues: [], config };
  } else {
    report = { valid: false, issues: error.issues, message: error.message };
  }
  print(report);
  return report.valid;
}

async function validate(argv) {
  const args = parse(argv, ['--schema', '--agent-id', '--extract', '--repair', ...SCHEMA_FLAGS, ...LIMIT_FLAGS]);
  if (args.schema === undefined) throw usage('validate needs --schema SCHEMA');
  const { contract, error } = compile(readFile(args.schema), options(args));
  if (error) throw unusable(`${args.schema}: ${error.message}`);
  if (args.extract || args.repair) {
    const result = contract.validateText(await readInput(args.input), { extract: true, repair: args.repair });
    return report(result.valid ? { data: result.data } : { error: result.error });
  }
  if (args.input === undefined || args.input === '-') return streamStdin(contract);
  const result = contract.validateText(readFile(args.input));
  return report(result.valid ? { data: result.data } : { error: result.error });
}

// Standard input through the stream validator: parsed as it arrives, never held whole, and
// refused once past the contract's output limit (the rest is read and dropped). Early violations
// do not stop the reading, so the report is the same as for the whole text.
async function streamStdin(contract) {
  const stream = contract.stream({ maxRetries: 0 });
  let aborted = false;
  for await (const chunk of process.stdin) {
    if (!aborted && chunk.length > 0) aborted = stream.push(chunk).aborted;
  }
  const outcome = stream.finish({ stopReason: 'stop' });
  if (outcome.state === 'soft-complete' && outcome.valid) return report({ data: outcome.data });
  if (outcome.state === 'hard-complete') return report({ error: outcome.error });
  // With no retries and no refusal given, these do not occur; say so rather than guess.
  return report({ error: { error: 'unexpected stream outcome', outcome } });
}

function report({ data, error }) {
  print(error === undefined ? data : error);
  return error === undefined;
}

// extractJson counts UTF-16 code units; the CLI reports UTF-8 byte offsets, as the Rust one does.
function byteOffsets(got, text) {
  if (Buffer.byteLength(text) === text.length) return got;
  const at = (i) => (typeof i === 'number' ? Buffer.byteLength(text.slice(0, i)) : i);
  const span = (s) => ({ ...s, start: at(s.start), end: at(s.end) });
  return {
    ...got,
    start: at(got.start),
    end: at(got.end),
    skipped: got.skipped.map(span),
    repairs: got.repairs.map(span),
    error: got.error == null ? got.error : { ...span(got.error), offset: at(got.error.offset) },
  };
}

async function extract(argv) {
  const args = parse(argv, ['--repair', ...LIMIT_FLAGS]);
  const text = await readInput(args.input);
  const got = byteOffsets(extractJson(text, { repair: args.repair, maxOutputBytes: args.maxOutputBytes, maxDepth: args.maxDepth }), text);
  print(got);
  return got.found;
}

// `diff OLD NEW`: with versions in both `$id`s their step decides; without, any change is a problem.
function diff(argv) {
  const positional = (i) => (argv[i] !== undefined && !argv[i].startsWith('--') ? argv[i] : undefined);
  const [oldPath, newPath] = [positional(0), positional(1)];
  if (oldPath === undefined || newPath === undefined) throw usage('diff needs OLD and NEW schema files');
  const args = parse(argv.slice(2), SCHEMA_FLAGS);
  if (args.input !== undefined) throw usage(`unexpected argument ${JSON.stringify(args.input)}`);
  const opts = options(args);
  delete opts.agentId;
  const [oldText, newText] = [readFile(oldPath), readFile(newPath)];
  // Each schema compiled alone first, so an unusable one is named by its file.
  for (const [path, text] of [[oldPath, oldText], [newPath, newText]]) {
    const { error } = compile(text, opts);
    if (error) throw unusable(`${path}: ${error.message}`);
  }
  const result = compareSchemas(oldText, newText, opts);
  const empty = result.narrowed.length + result.widened.length + result.unknown.length === 0;
  const compatible = result.step ? result.step.allowed : empty;
  print({ ...result, compatible });
  return compatible;
}

// How deep `registry check` goes into sub-folders (a link cycle ends here), as the Rust CLI.
const MAX_DIR_DEPTH = 16;

function schemaFiles(dir, depth, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (depth < MAX_DIR_DEPTH) schemaFiles(path, depth + 1, out);
    } else if (name.endsWith('.schema.json')) {
      out.push(path);
    }
  }
  return out;
}

// Paths in the Rust CLI's order: folder by folder, names compared as bytes.
function byComponents(a, b) {
  const [x, y] = [a.split('/'), b.split('/')];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const c = Buffer.compare(Buffer.from(x[i]), Buffer.from(y[i]));
    if (c !== 0) return c;
  }
  return x.length - y.length;
}

// `registry check DIR`: every *.schema.json below DIR as one registry, and its diagnostics.
function registry(argv) {
  if (argv[0] === undefined) throw usage('registry needs a command: check DIR');
  if (argv[0] !== 'check') throw usage(`unknown registry command ${JSON.stringify(argv[0])}`);
  const args = parse(argv.slice(1), ['--draft', '--no-strict']);
  if (args.input === undefined) throw usage('registry check needs a DIR');
  let files;
  try {
    files = schemaFiles(args.input, 0, []).sort(byComponents);
  } catch (e) {
    throw unusable(`cannot read ${args.input}: ${e.message}`);
  }
  const opts = { strict: args.strict };
  if (args.draft !== undefined) opts.draft = args.draft;
  let schemas;
  try {
    schemas = new SchemaRegistry(opts);
  } catch (e) {
    if (e?.kind === 'invalid_option') throw usage(e.message);
    throw e;
  }
  for (const file of files) schemas.add(readFile(file), { path: file });
  const diagnostics = schemas.check();
  print({ ok: diagnostics.length === 0, schemas: files.length, diagnostics });
  return diagnostics.length === 0;
}

async function main(args) {
  switch (args[0]) {
    case 'check': return check(args.slice(1));
    case 'validate': return validate(args.slice(1));
    case 'extract': return extract(args.slice(1));
    case 'diff': return diff(args.slice(1));
    case 'registry': return registry(args.slice(1));
    case '-h': case '--help': case 'help':
      process.stdout.write(USAGE);
      return true;
    case undefined: throw usage('a command is required');
    default: throw usage(`unknown command ${JSON.stringify(args[0])}`);
  }
}

// A closed pipe (`| head`) is not an error worth a stack trace.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
});

try {
  process.exitCode = (await main(process.argv.slice(2))) ? 0 : 1;
} catch (e) {
  if (!(e instanceof Failure)) throw e;
  process.stderr.write(e.usage ? `output-contract: ${e.message}\n\n${USAGE}` : `output-contract: ${e.message}\n`);
  process.exitCode = 2;
}
