// Every stop reason index.d.ts types (StopReason) is one the module reads, and reads as its doc
// comment says: complete (validated), cut at the token limit, refused, or tool arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Contract } from 'output-contract';

const declared = (() => {
  const dts = readFileSync(new URL('../../pkg/index.d.ts', import.meta.url), 'utf8');
  const union = dts.match(/export type StopReason = ([^;]+);/)[1];
  return [...union.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
})();

const meaning = {
  stop: 'complete',
  end_turn: 'complete',
  stop_sequence: 'complete',
  length: 'cut',
  max_tokens: 'cut',
  refusal: 'refused',
  content_filter: 'refused',
  tool_use: 'complete',
  tool_calls: 'complete',
};

const contract = Contract.compile({ type: 'object', required: ['a'] });

function read(stopReason) {
  const s = contract.stream({ maxRetries: 0 });
  s.push('{"a": 1}');
  const out = s.finish({ stopReason });
  if (out.state === 'refused') return 'refused';
  if (out.valid) return 'complete';
  if (out.error.violations[0].keyword === 'truncated') return 'cut';
  return JSON.stringify(out);
}

test('the declared stop reasons are exactly the ones listed here', () => {
  assert.deepEqual(declared.sort(), Object.keys(meaning).sort());
});

test('each declared stop reason reads as documented', () => {
  for (const reason of declared) assert.equal(read(reason), meaning[reason], reason);
});

test('an undeclared one throws, naming it', () => {
  assert.throws(() => read('content-filter'), (e) => e.name === 'OptionError' && e.option === 'stopReason' && /got "content-filter"$/.test(e.message));
});
