// A freed stream's wasm object is kept by its contract and started over for the contract's next
// stream: whatever the freed stream had read, aborted or ended with, the next one answers as a
// new one, and the freed one stays freed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract, FreedError } from 'output-contract';

const schema = { type: 'object', required: ['a'], properties: { a: { type: 'string', maxLength: 3 } }, additionalProperties: false };

// A new stream's answers to `text` pushed in `chunk`-character pieces.
function answers(contract, text, chunk, options) {
  const s = contract.stream(options);
  const statuses = [];
  for (let i = 0; i < text.length; i += chunk) statuses.push(s.push(text.slice(i, i + chunk)));
  const partial = s.partial();
  const outcome = s.finish();
  s.free();
  return { statuses, partial, outcome };
}

test('the next stream after a freed one answers as a new one', () => {
  const fresh = Contract.compile(schema);
  const texts = ['{"a": "xy"}', '{"a": "toolong"}', '{"b": 1}', '{"a": "x"', '  [1, 2]', '{"a": "é"} tail'];
  const expected = texts.map((text) => answers(fresh, text, 3));
  const contract = Contract.compile(schema);
  // Streams freed in every state: unfinished, after a retry, aborted, ended; then the same texts.
  for (const leave of [
    (s) => s.push('{"a": "abc'),
    (s) => {
      s.push('{"b"');
      s.finish();
    },
    (s) => {
      s.push('{"a": "abcd", "z": 1}');
      s.changes();
    },
    (s) => {
      s.push('{"a": "ok"}');
      s.finish();
    },
  ]) {
    for (let i = 0; i < 6; i++) {
      const s = contract.stream({ abortOnEarlyViolation: i % 2 === 0 });
      leave(s);
      s.free();
      const t = contract.stream();
      leave(t);
      t.free();
    }
    assert.deepEqual(texts.map((text) => answers(contract, text, 3)), expected);
  }
  // With options, a stream is a new one too.
  assert.deepEqual(answers(contract, '{"a": "toolong"}', 2, { maxRetries: 0 }), answers(fresh, '{"a": "toolong"}', 2, { maxRetries: 0 }));
});

test('the next stream with the same options after a freed one answers as a new one', () => {
  const texts = ['{"a": "xy"}', '{"a": "toolong"}', 'Here: {"a": "x"} done', '{"a": null}', '{"b": 1}', '{"a": "x"'];
  const kinds = [{ maxRetries: 0 }, { extract: true, maxRetries: 1 }, { abortOnEarlyViolation: true }, { nullAsAbsent: true }, { extract: true, abortOnEarlyViolation: true }, { maxRetries: 2 }];
  const fresh = Contract.compile(schema);
  const expected = kinds.map((options) => texts.map((text) => answers(fresh, text, 4, options)));
  const contract = Contract.compile(schema);
  for (let round = 0; round < 3; round++) {
    // Streams of every kind (more kinds than are kept) freed in several states, then the texts.
    kinds.forEach((options, k) => {
      for (const leave of [(s) => s.push('{"a": "abc'), (s) => { s.push('{"a": "abcdef"}'); s.finish(); }, (s) => s.changes()]) {
        const s = contract.stream(options);
        leave(s);
        s.free();
      }
      assert.deepEqual(texts.map((text) => answers(contract, text, 4, options)), expected[k], JSON.stringify(options));
    });
  }
  // A default stream never gets a spare of other options, nor one with options a default spare.
  const s = contract.stream({ extract: true });
  s.free();
  assert.deepEqual(answers(contract, 'Here: {"a": "x"}', 4), answers(fresh, 'Here: {"a": "x"}', 4));
  contract.stream().free();
  assert.deepEqual(answers(contract, 'Here: {"a": "x"}', 4, { extract: true }), answers(fresh, 'Here: {"a": "x"}', 4, { extract: true }));
});

test('a freed stream stays freed; a freed contract makes no stream', () => {
  const contract = Contract.compile(schema);
  const s = contract.stream();
  s.push('{"a": "x"}');
  s.free();
  s.free();
  assert.throws(() => s.push('1'), FreedError);
  assert.throws(() => s.finish(), FreedError);
  assert.throws(() => s.partial(), FreedError);
  // The next stream has the freed one's wasm object, the freed one still none.
  const t = contract.stream();
  assert.deepEqual(t.push('{"a": "y"}').earlyViolations, []);
  assert.throws(() => s.partial(), FreedError);
  assert.deepEqual(t.finish().data, { a: 'y' });
  t.free();
  contract.free();
  assert.throws(() => contract.stream(), FreedError);
  // A stream that outlives its contract is freed whole.
  const other = Contract.compile(schema);
  const u = other.stream();
  other.free();
  u.push('{"a": "z"}');
  assert.deepEqual(u.finish().data, { a: 'z' });
  u.free();
});
