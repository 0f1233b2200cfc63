// A stream ends at its final outcome (valid, hard-complete or refused): push and finish after
// that throw, where they answered with a stale status or the old outcome; a retry outcome is not
// an end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract, enforce } from 'output-contract';

const contract = Contract.compile({ type: 'object', required: ['a'], properties: { a: { type: 'string' } } });

function ended(state) {
  return (e) => {
    assert.ok(e instanceof Error);
    assert.equal(e.message, `the stream has ended (${state}): create a new one with contract.stream()`);
    return true;
  };
}

test('after a valid outcome, push and finish throw', () => {
  const s = contract.stream();
  s.push('{"a": "x"}');
  assert.equal(s.finish().valid, true);
  assert.throws(() => s.push('{"a": "y"}'), ended('soft-complete'));
  assert.throws(() => s.push(new TextEncoder().encode('{}')), ended('soft-complete'));
  assert.throws(() => s.finish(), ended('soft-complete'));
  // What it read stays readable.
  assert.deepEqual(s.partial(), { a: 'x' });
});

test('after hard-complete and after a refusal, too', () => {
  const hard = contract.stream({ maxRetries: 0 });
  hard.push('{}');
  assert.equal(hard.finish().state, 'hard-complete');
  assert.throws(() => hard.push('{"a": "x"}'), ended('hard-complete'));
  assert.throws(() => hard.finish(), ended('hard-complete'));

  const refused = contract.stream();
  assert.equal(refused.finish({ stopReason: 'refusal', refusal: 'no' }).state, 'refused');
  assert.throws(() => refused.push('{}'), ended('refused'));
  assert.throws(() => refused.finish(), ended('refused'));
});

test('a retry is not an end; a stream held back by a surrogate half ends too', async () => {
  const s = contract.stream({ maxRetries: 1 });
  s.push('{}');
  assert.equal(s.finish().retry, true);
  s.push('{"a": "\ud83d');
  s.push('\ude00"}');
  assert.deepEqual(s.finish().data, { a: '😀' });
  assert.throws(() => s.push('\ud83d'), ended('soft-complete'));
  // consume() of an ended stream rejects rather than answering again.
  await assert.rejects(s.consume((async function* () { yield '{}'; })()), ended('soft-complete'));
});

test('enforce() runs to its outcome as before', async () => {
  const result = await enforce(contract, () => '{"a": "x"}');
  assert.equal(result.status, 'completed');
});
