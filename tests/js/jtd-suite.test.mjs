// The official JSON Type Definition (RFC 8927) test suite through the npm package: every
// validation case reports exactly the expected errors, compared as sets of (instance path,
// schema path) — the violations' `pointer` and `schema_path` — by value, as text and streamed;
// every invalid schema is refused with a SchemaError that says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Contract, SchemaError, ready } from 'output-contract';

await ready;

const suite = (name) => JSON.parse(readFileSync(new URL(`../../../shared/jtd-test-suite/${name}`, import.meta.url), 'utf8'));
const pointer = (tokens) => tokens.map((t) => `/${t.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
const pairs = (list) => new Set(list.map(([p, s]) => `${p} ${s}`));
const ofViolations = (result) => pairs(result.valid ? [] : result.error.violations.map((v) => [v.pointer, v.schema_path]));

test('validation.json: 316 cases, 0 failures', () => {
  const cases = Object.entries(suite('validation.json'));
  assert.equal(cases.length, 316);
  const failures = [];
  for (const [name, { schema, instance, errors }] of cases) {
    const contract = Contract.compile(schema, { draft: 'jtd' });
    assert.equal(contract.draft, 'jtd');
    const expected = pairs(errors.map((e) => [pointer(e.instancePath), pointer(e.schemaPath)]));
    const text = JSON.stringify(instance);
    const stream = contract.stream({ maxRetries: 0 });
    stream.push(text);
    const streamed = stream.finish({ stopReason: 'stop' });
    const results = {
      value: ofViolations(contract.validate(instance)),
      text: ofViolations(contract.validateText(text)),
      stream: pairs(streamed.valid ? [] : streamed.error.violations.map((v) => [v.pointer, v.schema_path])),
    };
    for (const [how, got] of Object.entries(results)) {
      if (got.size !== expected.size || [...got].some((x) => !expected.has(x))) failures.push(`${name} (${how}): expected ${[...expected]}, got ${[...got]}`);
    }
  }
  assert.deepEqual(failures, []);
});

test('invalid_schemas.json: 49 schemas, all refused with a reason', () => {
  const cases = Object.entries(suite('invalid_schemas.json'));
  assert.equal(cases.length, 49);
  for (const [name, schema] of cases) {
    assert.throws(
      () => Contract.compile(schema, { draft: 'jtd' }),
      (e) => e instanceof SchemaError && e.issues.length > 0 && e.message.startsWith('invalid schema'),
      name,
    );
  }
});
