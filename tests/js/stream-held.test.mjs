// Short text chunks inside a string's plain content are held by the package and handed to the
// module with the next chunk (OutputStream#send). Every push must still answer what the module
// answers when it reads each chunk itself: the same status (bytes, completeness, early
// violations, aborted), at the same push, and the same outcome. The reference is the same
// chunks with holding off (a stream that recorded `changes()` first) and, for text without
// surrogates, the same chunks as UTF-8 bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract, ready } from 'output-contract';
import { instances, providerSchemas, pydanticSchemas, typeboxSchemas, zodVariants } from './generated-corpus.mjs';

await ready;
const encoder = new TextEncoder();

function chunks(text, size) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

// Every push's status and the outcome, pushing `parts` (strings, or bytes) into a new stream.
function run(contract, parts, { options, holdOff = false, end } = {}) {
  const s = contract.stream(options);
  if (holdOff) s.changes();
  const statuses = [];
  for (const p of parts) {
    let status;
    try {
      status = s.push(p);
    } catch (e) {
      statuses.push(`throws ${e.kind ?? e.message}`);
      break;
    }
    statuses.push(status);
  }
  let outcome;
  try {
    outcome = s.finish(end);
  } catch (e) {
    outcome = `throws ${e.kind ?? e.message}`;
  }
  s.free();
  return { statuses, outcome };
}

function same(contract, text, label, options) {
  const surrogates = /[\ud800-\udfff]/.test(text);
  for (const size of [1, 2, 3, 5, 8, 13, 20, 40]) {
    const parts = chunks(text, size);
    const held = run(contract, parts, { options });
    const reference = run(contract, parts, { options, holdOff: true });
    assert.deepEqual(held, reference, `${label}, ${size}-unit chunks, against holding off`);
    if (!surrogates) {
      const bytes = run(contract, parts.map((p) => encoder.encode(p)), { options });
      assert.deepEqual(held.statuses, bytes.statuses, `${label}, ${size}-unit chunks, against bytes`);
      assert.deepEqual(held.outcome.valid, bytes.outcome.valid, `${label}, ${size}-unit chunks, against bytes`);
      if (held.outcome.valid) assert.deepEqual(held.outcome.data, bytes.outcome.data);
      else assert.deepEqual(held.outcome.error?.violations, bytes.outcome.error?.violations, `${label}, ${size}-unit chunks, against bytes`);
    }
  }
}

const long = 'the service returned errors after the deploy because a cache key changed '.repeat(6);

test('strings under maxLength, enum, const, pattern and format: every push answers as the module reads each chunk', () => {
  const schema = {
    type: 'object',
    required: ['free', 'short', 'kind'],
    additionalProperties: false,
    properties: {
      free: { type: 'string' },
      short: { type: 'string', maxLength: 300 },
      tiny: { type: 'string', maxLength: 12 },
      kind: { enum: ['incident-report', 'postmortem'] },
      fixed: { const: 'exactly this text, no more' },
      id: { type: 'string', pattern: '^[a-z]+-[0-9]+$' },
      at: { type: 'string', format: 'date-time' },
      list: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 40 } },
    },
  };
  const c = Contract.compile(schema);
  const texts = {
    valid: JSON.stringify({ free: long, short: long.slice(0, 290), tiny: 'twelve chars', kind: 'postmortem', fixed: 'exactly this text, no more', id: 'abc-12', at: '2026-11-26T09:00:00Z', list: ['a', long.slice(0, 40)] }, null, 2),
    'maxLength passed in a long string': JSON.stringify({ free: long, short: long, kind: 'postmortem' }),
    'maxLength passed by one': JSON.stringify({ free: 'x', short: 'y'.repeat(301), kind: 'postmortem' }),
    'enum broken mid-string': JSON.stringify({ free: long, short: 'ok', kind: 'incident-reports filed later' }),
    'const broken at its end': JSON.stringify({ free: 'a', short: 'b', kind: 'postmortem', fixed: 'exactly this text, no more!' }),
    'pattern and format broken': JSON.stringify({ free: long, short: 'b', kind: 'postmortem', id: 'ABC_12 with a long tail to read', at: 'yesterday at noon, roughly' }),
    'an unknown key after a long string': JSON.stringify({ free: long, short: 'b', kind: 'postmortem', unknownKeyWithALongName: long }),
    'escapes in long strings': JSON.stringify({ free: `line one\nline two "quoted" \\ back\tslash ${long}`, short: `\u0001${long.slice(0, 100)}`, kind: 'postmortem' }),
    'characters of every width': JSON.stringify({ free: `é€😀 ${long} 中文 ✓ 😀😀`, short: '😀'.repeat(150), tiny: 'ünïcödé 😀', kind: 'postmortem' }),
    'a string cut by the end': `{"free": "${long}`,
    'a syntax error inside the text': `{"free": "${long}", "short": ${long}`,
    'a root string': JSON.stringify(long),
  };
  for (const [label, text] of Object.entries(texts)) same(c, text, label);
  // A root string under maxLength, and a schema with no string check at all.
  same(Contract.compile({ type: 'string', maxLength: 200 }), JSON.stringify(long), 'a root string past maxLength');
  same(Contract.compile({}), JSON.stringify({ a: long, b: [long, long], c: { d: long } }), 'no checks');
});

test('the size limit and abortOnEarlyViolation are reached at the same push', () => {
  const c = Contract.compile({ type: 'object', properties: { free: { type: 'string' }, kind: { enum: ['a', 'b'] } } }, { maxOutputBytes: 700 });
  same(c, JSON.stringify({ free: long + long }), 'past the size limit inside a string');
  same(c, JSON.stringify({ free: long.slice(0, 200) }), 'under the size limit');
  same(c, `{${' '.repeat(300)}\n${'\t'.repeat(300)}"free": "x"${' \r\n'.repeat(40)}}`, 'past the size limit in whitespace between tokens');
  same(c, `  {"free": "x"}${' \n'.repeat(200)}`, 'whitespace before the value and after it, to past the size limit');
  const d = Contract.compile({ type: 'object', properties: { free: { type: 'string' }, kind: { enum: ['a', 'b'] } } });
  same(d, JSON.stringify({ free: long, kind: 'c', more: long }), 'an early violation then a long string', { abortOnEarlyViolation: true });
  same(d, JSON.stringify({ free: long, kind: 'c', more: long }), 'an early violation then a long string, retried', { maxRetries: 1 });
});

test('a high surrogate held at a chunk end, and finish() after held chunks', () => {
  const c = Contract.compile({ type: 'object', properties: { s: { type: 'string', maxLength: 400 } } });
  const text = JSON.stringify({ s: `${'😀'.repeat(40)}${long.slice(0, 100)}😀` });
  // Every split, a surrogate pair's halves in two chunks among them.
  for (let cut = 1; cut < text.length; cut++) {
    const parts = [text.slice(0, cut), ...chunks(text.slice(cut), 3)];
    assert.deepEqual(run(c, parts), run(c, parts, { holdOff: true }), `cut at ${cut}`);
  }
  // A stream left inside a string: finish() hands the held chunks over first.
  const open = `{"s": "${long.slice(0, 120)}`;
  const held = run(c, chunks(open, 4), { end: { stopReason: 'length' } });
  assert.deepEqual(held, run(c, chunks(open, 4), { end: { stopReason: 'length' }, holdOff: true }));
  assert.equal(held.statuses.at(-1).bytes, Buffer.byteLength(open));
});

test('partial(), skipped() and a chunk of bytes between held text chunks see every chunk pushed', () => {
  const c = Contract.compile({ type: 'object', properties: { s: { type: 'string' } } });
  const s = c.stream();
  s.push('{"s": "abc');
  s.push('def');
  s.push('ghi');
  assert.deepEqual(s.partial(), { s: 'abcdefghi' });
  s.push('jkl');
  s.push(encoder.encode('mno'));
  s.push('pqr');
  assert.deepEqual(s.partial(), { s: 'abcdefghijklmnopqr' });
  assert.deepEqual(s.push('"}'), { state: 'in-flight', attempt: 1, bytes: 27, complete: true, earlyViolations: [], aborted: false });
  assert.deepEqual(s.finish().data, { s: 'abcdefghijklmnopqr' });
});

test('generated schemas and instances (Zod, TypeBox, Pydantic): every push answers as the module reads each chunk', () => {
  const entries = [...zodVariants(), ...typeboxSchemas(), ...providerSchemas(), ...pydanticSchemas().schemas];
  let seed = 7;
  for (const entry of entries) {
    let c;
    try {
      c = Contract.compile(entry.schema);
    } catch {
      continue;
    }
    for (const value of instances(entry, seed++, { samples: 3, mutations: 2 })) {
      const text = JSON.stringify(value, null, 2);
      for (const size of [3, 7]) {
        const parts = chunks(text, size);
        assert.deepEqual(run(c, parts), run(c, parts, { holdOff: true }), `${entry.id ?? entry.name}: ${text.slice(0, 80)}`);
      }
    }
  }
});
