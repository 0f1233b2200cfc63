// One compiled form of a schema behind every evaluator, through the npm package as a user
// imports it: references inside embedded resources resolve the same whole and streamed, a
// property named twice is a violation of its own (whole and streamed), and an early
// violation is the final error's violation once its value is complete.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract, enforce, ready } from 'output-contract';

await ready;

/** The early violations after every byte, and the final outcome. */
function streamed(contract, text) {
  const s = contract.stream({ maxRetries: 0 });
  let early = [];
  for (const ch of text) early = s.push(ch).earlyViolations;
  return { early, outcome: s.finish({ stopReason: 'stop' }) };
}

const embedded = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $defs: { s: { type: 'integer' } },
  properties: { a: { $id: 'https://example.com/a', $defs: { s: { type: 'string' } }, $ref: '#/$defs/s' } },
};

test('a reference inside an embedded resource resolves against that resource, whole and streamed', async () => {
  const contract = Contract.compile(embedded);
  assert.equal(contract.validateText('{"a":"x"}').valid, true);
  const { early, outcome } = streamed(contract, '{"a":"x"}');
  assert.deepEqual(early, []);
  assert.equal(outcome.valid, true);
  // enforce() aborts a streamed answer at its first early violation: a valid one goes through.
  async function* answer() {
    yield '{"a":';
    yield '"x"}';
  }
  const done = await enforce(contract, () => ({ stream: answer(), end: () => ({ stopReason: 'stop' }) }));
  assert.deepEqual(done, { status: 'completed', result_data: { a: 'x' }, attempts: 1 });
  // And a wrong one is reported with the path that reached the keyword.
  const wrong = streamed(contract, '{"a":7}');
  assert.deepEqual(wrong.early.map((v) => v.schema_path), ['/properties/a/$ref/type']);
});

test('a property named twice is a duplicateKey violation, whole and streamed', () => {
  const contract = Contract.compile({ properties: { a: { type: 'integer' } } });
  const text = '{"a": "first", "a": 7}';
  const whole = contract.validateText(text);
  assert.equal(whole.valid, false);
  assert.deepEqual(whole.error.violations.map((v) => [v.keyword, v.path, v.received]), [['duplicateKey', '$', 'a']]);
  assert.equal(whole.error.retryable, true);
  // Streamed: the value "first" is reported as soon as it starts (no later member may replace
  // it), and the repeat as the repeated member's value ends (the number at the next byte).
  const s = contract.stream({ maxRetries: 0 });
  const at = {};
  for (let i = 0; i < text.length; i++) {
    for (const v of s.push(text[i]).earlyViolations) at[v.keyword] ??= i;
  }
  assert.deepEqual(at, { type: text.indexOf('"first"'), duplicateKey: text.length - 1 });
  const outcome = s.finish({ stopReason: 'stop' });
  assert.deepEqual(outcome.error.violations.map((v) => v.keyword), ['duplicateKey']);
  // Also when every value would pass, and in an answer the JSON is extracted from.
  for (const answer of ['{"a": 1, "a": 7}', 'Sure:\n```json\n{"b": {"x": 1, "x": 1}}\n```']) {
    const r = contract.validateText(answer, { extract: true });
    assert.equal(r.valid, false, answer);
    assert.deepEqual(r.error.violations.map((v) => v.keyword), ['duplicateKey'], answer);
  }
});

test('an early violation is the object the final error reports, once its value is complete', () => {
  const contract = Contract.compile({
    properties: { n: { type: 'integer' }, s: { enum: ['low', 'high'] }, t: { maxLength: 3 }, o: { type: 'string' } },
  });
  for (const text of ['{"n": "a string"}', '{"s": "hx"}', '{"t": "abcdef"}', '{"o": {"deep": [1, 2]}}']) {
    const { early, outcome } = streamed(contract, text);
    assert.ok(early.length > 0, text);
    assert.deepEqual(early, outcome.error.violations, text);
    assert.deepEqual(contract.validateText(text).error.violations, outcome.error.violations, text);
  }
});

test('a value under way is reported by what is known of it, then completed', () => {
  const contract = Contract.compile({ properties: { n: { type: 'integer' } } });
  const s = contract.stream();
  let status;
  for (const ch of '{"n": "abc') status = s.push(ch);
  assert.deepEqual(status.earlyViolations.map((v) => [v.message, v.received]), [["a string is not of type 'integer'", 'string']]);
  status = s.push('"');
  assert.deepEqual(status.earlyViolations.map((v) => [v.message, v.received]), [["'abc' is not of type 'integer'", 'abc']]);
});
