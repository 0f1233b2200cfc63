// A runaway stream is cut at its size or depth limit: the limit is an early violation that ends
// the attempt (not retried) whatever `abortOnEarlyViolation` says, so enforce() stops reading and
// cancels the upstream instead of pulling every chunk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract, enforce, ready } from 'output-contract';

await ready;

test('past maxOutputBytes or maxDepth a stream reports the limit early and ends the attempt', () => {
  const contract = Contract.compile({ type: 'object' }, { maxOutputBytes: 4096, maxDepth: 8 });
  for (const [text, keyword] of [[`{"a": "${'x'.repeat(10000)}"}`, 'maxOutputBytes'], [`{"a": ${'['.repeat(20)}`, 'maxDepth']]) {
    const s = contract.stream({ abortOnEarlyViolation: false, maxRetries: 2 });
    let status;
    for (let i = 0; i < text.length; i += 100) {
      status = s.push(text.slice(i, i + 100));
      if (status.aborted) break;
    }
    assert.equal(status.aborted, true, keyword);
    assert.deepEqual(status.earlyViolations.map((v) => v.keyword), [keyword]);
    const outcome = s.finish({ stopReason: 'stop' });
    assert.equal(outcome.state, 'hard-complete', keyword);
    assert.equal(outcome.error.retryable, false);
    assert.equal(outcome.attempts, 1);
  }
});

test('enforce() cancels a runaway answer at the limit', async () => {
  const contract = Contract.compile({ type: 'object' }, { maxOutputBytes: 4096 });
  let pulled = 0;
  let cancelled = false;
  async function* endless() {
    yield '{"a": "';
    for (;;) {
      pulled++;
      yield 'x'.repeat(1000);
    }
  }
  const result = await enforce(contract, () => ({ stream: endless(), cancel: () => { cancelled = true; } }), { maxRetries: 1 });
  assert.equal(result.status, 'failed');
  assert.ok(pulled < 10, `pulled ${pulled} chunks`);
  assert.equal(cancelled, true);
  assert.equal(result.attempts, 1);
});
