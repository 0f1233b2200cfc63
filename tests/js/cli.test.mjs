// The package's CLI (pkg/bin/output-contract.mjs): the commands, JSON output and exit codes of the
// Rust one (tests/cli.rs), run with node on the pr-reviewer example; then the packed tarball,
// installed offline into a fresh project, as `npx output-contract`.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = `${root}pkg/bin/output-contract.mjs`;
const example = `${root}examples/pr-reviewer`;
const dir = mkdtempSync(join(tmpdir(), 'output-contract-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const file = (name, text) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const blueprint = JSON.parse(readFileSync(`${example}/blueprint.json`, 'utf8'));
const schema = file('schema.json', JSON.stringify(blueprint.output_schema, null, 2));
const validOutput = `${example}/valid-output.json`;
const invalidOutput = `${example}/invalid-output.txt`;
const expectedLines = readFileSync(`${example}/invalid-output.violations.txt`, 'utf8').trim().split('\n');

function run(args, input = '') {
  const r = spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, out: r.stdout, err: r.stderr, json: () => JSON.parse(r.stdout) };
}
const lines = (error) => error.violations.map((v) => `${v.path}: ${v.message}`);

test('validate: the data on 0, the canonical error on 1, from a file', () => {
  const ok = run(['validate', '--schema', schema, validOutput]);
  assert.equal(ok.code, 0, ok.err);
  assert.deepEqual(ok.json(), JSON.parse(readFileSync(validOutput, 'utf8')));
  // Pretty-printed with two spaces, as the Rust CLI prints it.
  assert.equal(ok.out, `${JSON.stringify(ok.json(), null, 2)}\n`);

  const bad = run(['validate', '--schema', schema, '--agent-id', 'pr-reviewer', invalidOutput]);
  assert.equal(bad.code, 1, bad.err);
  const e = bad.json();
  assert.equal(e.error, 'output_validation_failed');
  assert.match(e.schema_id, /^urn:output-contract:schema:[0-9a-f]{16}$/, 'no $id: a hash of the schema');
  assert.equal(e.agent_id, 'pr-reviewer');
  assert.equal(e.retryable, true);
  assert.deepEqual(lines(e), expectedLines);
});

test('validate: stdin is streamed, with the same reports as a file', () => {
  const ok = run(['validate', '--schema', schema], readFileSync(validOutput));
  assert.equal(ok.code, 0, ok.err);
  assert.deepEqual(ok.json(), JSON.parse(readFileSync(validOutput, 'utf8')));
  const bad = run(['validate', '--schema', schema, '-'], readFileSync(invalidOutput));
  assert.equal(bad.code, 1);
  // The stream's one attempt is its last: not retryable, as in the Rust CLI.
  assert.deepEqual(bad.json(), { ...run(['validate', '--schema', schema, invalidOutput]).json(), retryable: false });
  // Cut off: truncated, not a syntax error.
  const cut = run(['validate', '--schema', schema], '{"summary": "Adds');
  assert.equal(cut.code, 1);
  assert.equal(cut.json().violations[0].keyword, 'truncated');
  // Past the output limit: refused as it streams, the rest read and dropped.
  const big = run(['validate', '--schema', schema], `{"summary": "${'x'.repeat(4 << 20)}"}`);
  assert.equal(big.code, 1);
  assert.equal(big.json().violations[0].keyword, 'maxOutputBytes');
  assert.equal(big.json().retryable, false);
});

test('validate --extract and --repair: the JSON found in model text', () => {
  const answer = file('answer.txt', `Here is my review:\n\`\`\`json\n${readFileSync(validOutput, 'utf8')}\n\`\`\`\nDone.`);
  assert.equal(run(['validate', '--schema', schema, answer]).code, 1, 'not JSON without --extract');
  const r = run(['validate', '--schema', schema, '--extract', answer]);
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(r.json(), JSON.parse(readFileSync(validOutput, 'utf8')));
  const trailing = readFileSync(validOutput, 'utf8').replace(/\}\s*$/, ',}');
  assert.equal(run(['validate', '--schema', schema, '--extract'], trailing).code, 1);
  assert.equal(run(['validate', '--schema', schema, '--repair'], trailing).code, 0);
});

test('check: diagnostics as JSON, exit 1 on problems', () => {
  const ok = run(['check', schema]);
  assert.equal(ok.code, 0, ok.out);
  const { schema_id } = run(['validate', '--schema', schema, invalidOutput]).json();
  assert.deepEqual(ok.json(), { valid: true, schema_id, draft: 'draft7', issues: [], config: [] });
  const bad = run(['check', file('bad.json', '{\n  "type": "strng"\n}')]);
  assert.equal(bad.code, 1);
  assert.equal(bad.json().issues[0].pointer, '/type');
  const arr = run(['check', file('arr.json', '{"type": "array"}')]);
  assert.equal(arr.code, 1);
  assert.equal(arr.json().config[0].code, 'root_not_object');
  const syntax = run(['check', file('syntax.json', '{\n  "type": ,\n}')]);
  assert.equal(syntax.code, 1);
  assert.equal(syntax.json().issues[0].kind, 'invalid_json');
  assert.equal(syntax.json().issues[0].line, 2);
});

test('extract: the extraction with byte offsets, exit 1 when none', () => {
  const r = run(['extract', '-'], 'Answer: {"a": [1, 2]} done');
  assert.equal(r.code, 0);
  assert.deepEqual(r.json().value, { a: [1, 2] });
  assert.deepEqual([r.json().start, r.json().end], [8, 21]);
  // Offsets count UTF-8 bytes, as the Rust CLI's do: "é" is two.
  const wide = run(['extract'], 'é {"a": 1}');
  assert.deepEqual([wide.json().start, wide.json().end], [3, 11]);
  const none = run(['extract'], 'no json here');
  assert.equal(none.code, 1);
  assert.equal(none.json().error.kind, 'no_json');
  const repaired = run(['extract', '--repair'], '{"a": 1,}');
  assert.equal(repaired.code, 0);
  assert.equal(repaired.json().repairs[0].kind, 'trailing_comma');
});

test('a bad schema or command line exits 2; a schema error is told briefly', () => {
  const broken = run(['validate', '--schema', file('broken.json', '{"type": "strng"}')], '{}');
  assert.equal(broken.code, 2);
  assert.equal(broken.out, '');
  assert.match(broken.err, /strng/);
  assert.doesNotMatch(broken.err, /usage:/);
  assert.equal(broken.err.trim().split('\n').length, 1, broken.err);
  const missing = run(['validate', '--schema', join(dir, 'nonexistent.json')], '{}');
  assert.equal(missing.code, 2);
  assert.doesNotMatch(missing.err, /usage:/);
  for (const args of [['validate'], ['frobnicate'], ['validate', '--bogus'], [], ['check', schema, '--draft', 'draft99'], ['extract', '--max-depth', '-1']]) {
    const r = run(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /usage:/);
  }
  const help = run(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /output-contract validate --schema SCHEMA/);
});

test('--flag=VALUE, --version, and one line of usage on a wrong command line', () => {
  const ok = run(['validate', `--schema=${schema}`, validOutput]);
  assert.equal(ok.code, 0, ok.err);
  const version = run(['--version']);
  assert.equal(version.code, 0);
  assert.equal(version.out, `output-contract ${JSON.parse(readFileSync(`${root}pkg/package.json`, 'utf8')).version}\n`);
  const wrong = run(['validate', '--bogus']);
  assert.equal(wrong.code, 2);
  assert.deepEqual(wrong.err.trim().split('\n'), [
    'output-contract: unknown option --bogus',
    'usage: output-contract validate --schema SCHEMA [OPTIONS] [FILE|-] (output-contract --help for every option)',
  ]);
});

test('--no-strict, --resource URI=FILE, --max-output-bytes, --max-depth', () => {
  const ref = file('ref.json', '{"$ref": "https://example.com/item.json"}');
  const item = file('item.json', '{"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}}');
  const unresolved = run(['validate', '--schema', ref], '{"a": 1}');
  assert.equal(unresolved.code, 2);
  assert.match(unresolved.err, /cannot be resolved/);
  const resource = `https://example.com/item.json=${item}`;
  assert.equal(run(['validate', '--schema', ref, '--resource', resource], '{"a": 1}').code, 0);
  const wrong = run(['validate', '--schema', ref, '--resource', resource], '{"a": "x"}');
  assert.equal(wrong.code, 1);
  assert.equal(wrong.json().violations[0].schema_path, '/$ref/properties/a/type');
  assert.equal(run(['validate', '--schema', ref, '--resource', 'no-file'], '{}').code, 2);
  assert.equal(run(['validate', '--schema', ref, '--resource', `https://x=${ref}.missing`], '{}').code, 2);

  const loose = file('loose.json', '{"type": "object", "properties": {"a": {"type": "string"}}, "foo": 1}');
  assert.equal(run(['validate', '--schema', loose], '{}').code, 2);
  assert.equal(run(['validate', '--schema', loose, '--no-strict'], '{}').code, 0);
  assert.equal(run(['check', loose, '--no-strict']).code, 0);

  const object = file('object.json', '{"type": "object"}');
  const long = run(['validate', '--schema', object, '--max-output-bytes', '8'], '{"a": "long enough"}');
  assert.equal(long.code, 1);
  assert.equal(long.json().violations[0].keyword, 'maxOutputBytes');
  const deep = file('deep.json', '{"a": {"b": {"c": 1}}}');
  const tooDeep = run(['validate', '--schema', object, '--max-depth', '2', deep]);
  assert.equal(tooDeep.code, 1);
  assert.equal(tooDeep.json().violations[0].keyword, 'maxDepth');
  assert.equal(run(['validate', '--schema', object, '--max-depth', '3', deep]).code, 0);
  const shallow = run(['extract', '--max-depth', '1'], '{"a": [1]}');
  assert.equal(shallow.code, 1);
  assert.equal(shallow.json().found, false);
  assert.equal(run(['extract', '--no-strict'], '{}').code, 2, 'not an option of extract');
  assert.equal(run(['validate', '--schema', object, '--max-output-bytes', '0'], '{}').code, 2);
});

test('the packed tarball as `npx output-contract` in a fresh project (offline)', { timeout: 180_000 }, () => {
  const pack = join(dir, 'pack');
  const app = join(pack, 'app');
  mkdirSync(app, { recursive: true });
  const tarball = execFileSync('npm', ['pack', `${root}pkg`, '--pack-destination', pack, '--silent'], { cwd: root, encoding: 'utf8' }).trim().split('\n').at(-1);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'cli-app', private: true, dependencies: { 'output-contract': `file:../${tarball}` } }, null, 2));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app, stdio: 'inherit' });
  const npx = (args, input = '') => spawnSync('npx', ['--no-install', 'output-contract', ...args], { cwd: app, input, encoding: 'utf8' });

  const ok = npx(['validate', '--schema', schema, validOutput]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout), JSON.parse(readFileSync(validOutput, 'utf8')));
  const bad = npx(['validate', '--schema', schema], readFileSync(invalidOutput));
  assert.equal(bad.status, 1, bad.stderr);
  assert.deepEqual(lines(JSON.parse(bad.stdout)), expectedLines);
  const broken = npx(['check', file('broken-packed.json', '{"type": "strng"}')]);
  assert.equal(broken.status, 1);
  assert.equal(JSON.parse(broken.stdout).valid, false);
  assert.equal(npx(['validate']).status, 2);
  const help = npx(['--help']);
  assert.equal(help.status, 0);
  assert.equal(help.stdout, readFileSync(`${root}pkg/bin/usage.txt`, 'utf8'));
});

test('diff: the changes as JSON, exit by the version step; registry check: exit by the diagnostics', () => {
  const ticket = (v) => `${root}examples/schemas/ticket.v${v}.schema.json`;
  const person = `https://example.com/schemas/person/1.0.0=${root}examples/schemas/person.v1.0.0.schema.json`;
  const minor = run(['diff', ticket('1.0.0'), ticket('1.1.0'), '--resource', person]);
  assert.equal(minor.code, 0, minor.err);
  const report = minor.json();
  assert.equal(report.compatible, true);
  assert.deepEqual(report.step, { from: '1.0.0', to: '1.1.0', bump: 'minor', allowed: true });
  assert.equal(report.narrowed[0].pointer, '/properties/title/maxLength');
  const widened = file('ticket-1.2.0.json', readFileSync(ticket('1.0.0'), 'utf8').replace('ticket/1.0.0', 'ticket/1.2.0'));
  const bad = run(['diff', ticket('1.1.0'), widened, '--resource', person]);
  assert.equal(bad.code, 1, bad.err);
  assert.equal(bad.json().needed, 'major');
  const a = file('a.schema.json', '{"type": "string"}');
  const b = file('b.schema.json', '{"type": "string", "pattern": "^x"}');
  assert.equal(run(['diff', a, a]).code, 0);
  assert.equal(run(['diff', a, b]).code, 1);
  assert.equal(run(['diff', a]).code, 2);
  assert.equal(run(['diff', a, b, 'extra']).code, 2);
  const unresolved = run(['diff', ticket('1.0.0'), ticket('1.1.0')]);
  assert.equal(unresolved.code, 2);
  assert.match(unresolved.err, /ticket\.v1\.0\.0\.schema\.json: .*cannot be resolved/);

  const good = run(['registry', 'check', `${root}tests/fixtures/registry/good`]);
  assert.equal(good.code, 0, good.out + good.err);
  assert.equal(good.json().schemas, 4);
  const broken = run(['registry', 'check', `${root}tests/fixtures/registry/broken`]);
  assert.equal(broken.code, 1);
  const codes = new Set(broken.json().diagnostics.map((d) => d.code));
  for (const code of ['id_without_version', 'file_name_mismatch', 'duplicate_id', 'missing_title', 'unresolvable_ref', 'version_step', 'invalid_json']) assert.ok(codes.has(code), code);
  assert.equal(run(['registry', 'check', join(dir, 'nonexistent')]).code, 2);
  assert.equal(run(['registry', 'check']).code, 2);
  assert.equal(run(['registry', 'list', 'x']).code, 2);
  assert.equal(run(['registry', 'check', dir, '--draft', 'draft99']).code, 2);
});
