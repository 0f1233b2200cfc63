// Custom formats (`formats: { name: RegExp | pattern string | function }`), as Ajv's `formats`
// option: asserted on strings by every evaluator (validate, validateText, streams, tool calls,
// enforce), known to strict mode and checkSchema, never confused by the compile cache, and a
// function that throws makes the call throw while the library stays usable. Then both CLIs'
// `--format NAME=REGEX`.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Contract, McpJsonSchemaValidator, OptionError, SchemaError, cacheStats, checkOutputSchemaConfig, checkSchema, enforce } from 'output-contract';

const schema = {
  type: 'object',
  properties: { phone: { type: 'string', format: 'phone' }, sku: { type: 'string', format: 'sku' } },
  required: ['phone', 'sku'],
};
const shop = () => Contract.compile(schema, { formats: { phone: /^\+[0-9]+$/, sku: (s) => s.startsWith('SKU-') } });
const summary = (error) => error.violations.map((v) => [v.path, v.keyword, v.message, v.expected, v.schema_path]);
const BAD = [
  ['$.phone', 'format', "'0044' is not a valid 'phone'", 'phone', '/properties/phone/format'],
  ['$.sku', 'format', "'X-1' is not a valid 'sku'", 'sku', '/properties/sku/format'],
];

test('a RegExp and a function assert, with the message and params of the built-in formats', () => {
  const contract = shop();
  assert.deepEqual(contract.validate({ phone: '+44', sku: 'SKU-1' }), { valid: true, data: { phone: '+44', sku: 'SKU-1' } });
  const r = contract.validate({ phone: '0044', sku: 'X-1' });
  assert.equal(r.valid, false);
  assert.deepEqual(summary(r.error), BAD);
  // Strings only, as for the built-in formats.
  const loose = Contract.compile({ format: 'sku' }, { formats: { sku: () => false } });
  for (const value of [1, null, true, [], {}]) assert.equal(loose.validate(value).valid, true, JSON.stringify(value));
  assert.equal(loose.validate('SKU-1').valid, false);
});

test('a pattern string is a pattern; the u flag is allowed; patterns are not anchored', () => {
  const contract = Contract.compile({ format: 'code' }, { formats: { code: '[0-9]{3}' } });
  assert.equal(contract.validate('ab123cd').valid, true);
  assert.equal(contract.validate('ab12cd').valid, false);
  const unicode = Contract.compile({ format: 'greek' }, { formats: { greek: /^\p{Script=Greek}+$/u } });
  assert.equal(unicode.validate('αβγ').valid, true);
  assert.equal(unicode.validate('abc').valid, false);
});

test('custom formats assert whatever formats says of the built-in ones, and override a built-in name', () => {
  const both = { properties: { e: { format: 'email' }, d: { format: 'date' } } };
  const corporate = Contract.compile(both, { formats: { email: /@example\.org$/ } });
  assert.deepEqual(corporate.validate({ e: 'joe@example.com', d: 'x' }).error.violations.map((v) => v.path), ['$.e', '$.d']);
  assert.equal(corporate.validate({ e: 'joe@example.org', d: '2024-01-31' }).valid, true);
  // `formats: false` makes the built-in ones annotations; it cannot be said beside custom ones.
  assert.equal(Contract.compile(both, { formats: false }).validate({ e: 'x', d: 'x' }).valid, true);
});

test('strict mode knows the custom names and still refuses unknown ones; so does checkSchema', () => {
  const text = JSON.stringify({ properties: { a: { format: 'phone' }, b: { format: 'phnoe' } } });
  assert.throws(() => Contract.compile({ format: 'phone' }), (e) => e instanceof SchemaError && e.kind === 'unknown_format');
  assert.doesNotThrow(() => Contract.compile({ format: 'phone' }, { formats: { phone: /^\+/ } }));
  assert.throws(
    () => Contract.compile(text, { formats: { phone: /^\+/ } }),
    (e) => e instanceof SchemaError && e.kind === 'unknown_format' && e.issues[0].pointer === '/properties/b/format',
  );
  const unknown = (options) => checkSchema(text, options).diagnostics.filter((d) => d.code === 'unknown_format');
  assert.equal(unknown()[0].pointer, '/properties/a/format');
  // The same option as Contract.compile's: only the names matter to the editor.
  const known = unknown({ formats: { phone: (s) => s.startsWith('+') } });
  assert.equal(known.length, 1);
  assert.equal(known[0].pointer, '/properties/b/format');
  assert.match(known[0].message, /did you mean "phone"/);
  assert.equal(unknown({ formats: { phone: /^\+/, phnoe: '^x' } }).length, 0);
  assert.throws(() => checkSchema(text, { formats: true }), (e) => e instanceof OptionError && e.option === 'formats');
  // The other functions that take the compile options.
  const config = { type: 'object', properties: { phone: { type: 'string', format: 'phone' } } };
  assert.deepEqual(checkOutputSchemaConfig(config).map((d) => d.code), ['invalid_schema']);
  assert.deepEqual(checkOutputSchemaConfig(config, { formats: { phone: (s) => s.startsWith('+') } }), []);
  const mcp = new McpJsonSchemaValidator({ strict: true, formats: { phone: /^\+/ } }).getValidator(config);
  assert.deepEqual([mcp({ phone: '+1' }).valid, mcp({ phone: '1' }).errorMessage], [true, "$.phone: '1' is not a valid 'phone'"]);
  assert.throws(() => checkSchema(text, { formatz: {} }), (e) => e instanceof OptionError && e.option === 'formatz');
});

test('a flag the engine does not have, a pattern it cannot read, or anything else is an OptionError naming formats.<name>', () => {
  const refused = (formats, option, pattern) =>
    assert.throws(
      () => Contract.compile({}, { formats }),
      (e) => e instanceof OptionError && e.kind === 'invalid_option' && e.option === option && pattern.test(e.message),
    );
  refused({ a: /x/i }, 'formats.a', /no flag but u, got \/x\/i: .*the flag i would be lost/);
  refused({ a: /x/gy }, 'formats.a', /flags gy/);
  refused({ a: /x/s }, 'formats.a', /flag s/);
  refused({ broken: '(unclosed' }, 'formats.broken', /formats.broken must be a regular expression .* got "\(unclosed"/);
  refused({ a: 42 }, 'formats.a', /a RegExp, a pattern string or a function, got 42/);
  refused({ a: null }, 'formats.a', /got null/);
  refused({ a: { pattern: 'x' } }, 'formats.a', /got an object/);
  assert.throws(() => Contract.compile({}, { formats: 'date' }), (e) => e instanceof OptionError && e.option === 'formats' && /true, false or an object/.test(e.message));
  assert.throws(() => Contract.compile({}, { formats: /x/ }), (e) => e instanceof OptionError && e.option === 'formats');
  assert.throws(() => Contract.compile({}, { format: {} }), (e) => e instanceof OptionError && e.option === 'format');
});

test('validateText, its one-pass path and tool calls judge custom formats as validate does', () => {
  const contract = shop();
  const bad = '{"phone": "0044", "sku": "X-1"}';
  assert.deepEqual(summary(contract.validateText(bad).error), BAD);
  assert.deepEqual(summary(contract.validateText(`Here it is: ${bad}`, { extract: true }).error), BAD);
  assert.deepEqual(summary(contract.validateToolCall(bad).error), BAD);
  assert.equal(contract.validateText('{"phone": "+1", "sku": "SKU-9"}').valid, true);
  // Long outputs take the one-pass path; the answer is the same.
  const many = { type: 'array', items: schema };
  const list = Contract.compile(many, { formats: { phone: /^\+[0-9]+$/, sku: (s) => s.startsWith('SKU-') } });
  const items = Array.from({ length: 200 }, (_, i) => ({ phone: `+${i}`, sku: `SKU-${i}` }));
  assert.equal(list.validateText(JSON.stringify(items)).valid, true);
  items[150].sku = 'nope';
  assert.deepEqual(list.validateText(JSON.stringify(items)).error.violations.map((v) => v.path), ['$[150].sku']);
});

test('a streamed string under a custom format is judged when it closes, as the final error judges it', () => {
  for (const [name, format] of [['pattern', /^\+[0-9]+$/], ['function', (s) => /^\+[0-9]+$/.test(s)]]) {
    const contract = Contract.compile(schema, { formats: { phone: format, sku: /^SKU-/ } });
    const stream = contract.stream({ maxRetries: 0 });
    assert.deepEqual(stream.push('{"phone": "00').earlyViolations, [], `${name}: an open string may still match`);
    const closed = stream.push('44"');
    assert.equal(closed.earlyViolations.length, 1, name);
    const [early] = closed.earlyViolations;
    assert.deepEqual([early.path, early.keyword, early.message], ['$.phone', 'format', "'0044' is not a valid 'phone'"]);
    stream.push(', "sku": "SKU-1"}');
    const outcome = stream.finish({ stopReason: 'stop' });
    assert.equal(outcome.state, 'hard-complete');
    assert.deepEqual(outcome.error.violations, [early], name);
  }
});

test('enforce retries on a custom format violation, as text and streamed', async () => {
  async function* deltas(text) {
    for (let i = 0; i < text.length; i += 4) yield text.slice(i, i + 4);
  }
  for (const streamed of [false, true]) {
    const contract = shop();
    const answers = ['{"phone": "0044", "sku": "SKU-1"}', '{"phone": "+44", "sku": "SKU-1"}'];
    const prompts = [];
    const result = await enforce(contract, (messages, { attempt }) => {
      prompts.push(messages.at(-1).content);
      const text = answers[attempt - 1];
      return streamed ? { stream: deltas(text) } : { text };
    }, { task: 'order' });
    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.deepEqual(result.result_data, { phone: '+44', sku: 'SKU-1' });
    assert.match(prompts[1], /'0044' is not a valid 'phone'/);
  }
});

test('a format function that throws makes the call throw, naming the format; the library stays usable', () => {
  let calls = 0;
  const boom = new RangeError('no catalogue');
  const contract = Contract.compile(schema, {
    formats: {
      phone: /^\+/,
      sku: (s) => {
        calls += 1;
        if (s === 'explode') throw boom;
        return s.startsWith('SKU-');
      },
    },
  });
  const threw = (f) =>
    assert.throws(f, (e) => e.name === 'FormatFunctionError' && e.format === 'sku' && e.cause === boom && /format "sku" threw: no catalogue/.test(e.message));
  threw(() => contract.validate({ phone: '+1', sku: 'explode' }));
  threw(() => contract.validateText('{"phone": "+1", "sku": "explode"}'));
  threw(() => contract.validateToolCall({ phone: '+1', sku: 'explode' }));
  // The same contract, and others, go on working.
  assert.equal(contract.validate({ phone: '+1', sku: 'SKU-1' }).valid, true);
  assert.equal(contract.validate({ phone: '+1', sku: 'x' }).valid, false);
  assert.equal(Contract.compile({ type: 'string' }).validate('x').valid, true);
  // A stream: the push that closed the string throws.
  const stream = contract.stream();
  stream.push('{"phone": "+1", "sku": "expl');
  threw(() => stream.push('ode"}'));
  assert.equal(contract.stream().push('{"phone": "+1", "sku": "SKU-1"}').earlyViolations.length, 0);
  assert.ok(calls > 0);
  // Whatever is thrown, even a value without text.
  const odd = Contract.compile({ format: 'odd' }, { formats: { odd: () => { throw Object.create(null); } } });
  assert.throws(() => odd.validate('x'), (e) => e.name === 'FormatFunctionError' && /threw: a value that has no text/.test(e.message));
  assert.equal(odd.validate(1).valid, true);
  // A promise is no answer: format functions run synchronously.
  const lazy = Contract.compile({ format: 'later' }, { formats: { later: async () => true } });
  assert.throws(() => lazy.validate('x'), (e) => e.name === 'FormatFunctionError' && /returned a promise/.test(e.message));
  // Truthy and falsy answers count as true and false, as in Ajv.
  const truthy = Contract.compile({ format: 'digits' }, { formats: { digits: (s) => s.match(/^[0-9]+$/) } });
  assert.equal(truthy.validate('123').valid, true);
  assert.equal(truthy.validate('12a').valid, false);
});

test('the compile cache never hands back a contract compiled with other formats', () => {
  const text = JSON.stringify({ $id: 'https://example.com/code/1', format: 'code' });
  const digits = Contract.compile(text, { formats: { code: /^[0-9]+$/ } });
  const letters = Contract.compile(text, { formats: { code: /^[a-z]+$/ } });
  assert.equal(digits.validate('123').valid, true);
  assert.equal(letters.validate('123').valid, false);
  assert.equal(letters.validate('abc').valid, true);
  // The same pattern, as a RegExp or a string, is the same contract: a hit.
  const before = cacheStats();
  Contract.compile(text, { formats: { code: '^[a-z]+$' } });
  assert.equal(cacheStats().hits, before.hits + 1);
  // A function is never fingerprinted: compiled anew each time, not kept, never a hit.
  const one = Contract.compile(text, { formats: { code: (s) => s === 'one' } });
  const two = Contract.compile(text, { formats: { code: (s) => s === 'two' } });
  assert.deepEqual([one.validate('one').valid, one.validate('two').valid], [true, false]);
  assert.deepEqual([two.validate('one').valid, two.validate('two').valid], [false, true]);
  assert.equal(cacheStats().hits, before.hits + 1);
  // Nor does a later compile without formats find one compiled with them.
  assert.equal(Contract.compile(text, { strict: false }).validate('!').valid, true);
  // A stream keeps the contract's functions while it lives, the contract freed or not.
  const stream = one.stream({ maxRetries: 0 });
  one.free();
  stream.push('"two"');
  assert.deepEqual(stream.finish({ stopReason: 'stop' }).error.violations.map((v) => v.message), ["'two' is not a valid 'code'"]);
});

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'output-contract-formats-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name, text) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

// The npm CLI and, when built, the Rust one: the same codes and outputs.
const clis = [['npm', process.execPath, [`${root}pkg/bin/output-contract.mjs`]]];
const rust = join(process.env.CARGO_TARGET_DIR ?? `${root}target`, 'debug', 'output-contract');
if (spawnSync(rust, ['--help']).status === 0) clis.push(['rust', rust, []]);

test('both CLIs take --format NAME=REGEX for check and validate; a bad one is a usage error', () => {
  const phoneSchema = file('phone.json', JSON.stringify({ type: 'object', properties: { phone: { type: 'string', format: 'phone' } } }));
  const phone = 'phone=^\\+[0-9]+$';
  for (const [which, cmd, pre] of clis) {
    const run = (args, input = '') => spawnSync(cmd, [...pre, ...args], { input, encoding: 'utf8' });
    assert.equal(run(['check', phoneSchema]).status, 1, which);
    assert.equal(run(['check', phoneSchema, '--format', phone]).status, 0, which);
    assert.equal(run(['validate', '--schema', phoneSchema], '{"phone": "+1"}').status, 2, which);
    assert.equal(run(['validate', '--schema', phoneSchema, '--format', phone], '{"phone": "+1"}').status, 0, which);
    const bad = run(['validate', '--schema', phoneSchema, '--format', phone, '-'], '{"phone": "0044"}');
    assert.equal(bad.status, 1, which);
    assert.deepEqual(JSON.parse(bad.stdout).violations.map((v) => v.message), ["'0044' is not a valid 'phone'"], which);
    const output = file('out.json', '{"phone": "0044"}');
    assert.equal(run(['validate', '--schema', phoneSchema, '--format', phone, output]).status, 1, which);
    for (const wrong of ['phone=(', '=x', 'phone']) {
      for (const args of [['validate', '--schema', phoneSchema, '--format', wrong], ['check', phoneSchema, '--format', wrong]]) {
        const r = run(args, '{}');
        assert.equal(r.status, 2, `${which} ${args.join(' ')}`);
        assert.match(r.stderr, /usage:/, which);
      }
    }
    assert.match(run(['check', phoneSchema, '--format', 'phone=(']).stderr, /phone/, which);
    assert.equal(run(['extract', '--format', phone], '{}').status, 2, `${which}: extract compiles no schema`);
  }
});
