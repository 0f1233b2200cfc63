// Stream validation through the npm package: chunks of text or bytes, early violations, the
// stream states, the retry prompt, refusals, extraction, and the WHATWG stream helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Contract, ready } from 'output-contract';

await ready;
const blueprint = JSON.parse(readFileSync(new URL('../../examples/pr-reviewer/blueprint.json', import.meta.url), 'utf8'));
const valid = readFileSync(new URL('../../examples/pr-reviewer/valid-output.json', import.meta.url), 'utf8');
const invalid = readFileSync(new URL('../../examples/pr-reviewer/invalid-output.txt', import.meta.url), 'utf8');
const contract = Contract.compile(blueprint.output_schema, { agentId: 'pr-reviewer' });

function chunks(text, size) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

test('a valid output streamed in chunks: soft-complete with the data, no early violation', () => {
  const s = contract.stream();
  let last;
  for (const c of chunks(valid, 20)) {
    last = s.push(c);
    assert.equal(last.state, 'in-flight');
    assert.deepEqual(last.earlyViolations, []);
  }
  assert.equal(last.complete, true);
  assert.equal(last.bytes, Buffer.byteLength(valid));
  assert.deepEqual(s.finish({ stopReason: 'stop' }), { state: 'soft-complete', valid: true, data: JSON.parse(valid), attempt: 1 });
});

test('bytes split inside UTF-8 sequences', () => {
  const bytes = new TextEncoder().encode(valid.replace('Adds retry', 'Ajoute é😀 retry'));
  const s = contract.stream();
  for (let i = 0; i < bytes.length; i += 3) s.push(bytes.subarray(i, i + 3));
  const out = s.finish();
  assert.equal(out.valid, true);
  assert.match(out.data.summary, /^Ajoute é😀 retry/);
});

test('short string chunks of every character width reach the module as their UTF-8, across memory growth', () => {
  // Short chunks are copied into a fixed area of the module's memory through a view kept
  // between calls: the view must follow the memory when it grows (here by a long text validated
  // between two pushes), and every width must arrive as TextEncoder writes it. `partial()` is
  // the module's own value, read back from what it received.
  const any = Contract.compile({ type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } } });
  const items = Array.from({ length: 40 }, (_, i) => `${i} a é € 😀 ${'x'.repeat(i)} "q" \\ \u0001`);
  const text = JSON.stringify({ items });
  const roomy = Contract.compile({ type: 'object' }, { maxOutputBytes: 8 << 20 });
  const s = any.stream();
  let at = 0;
  for (let size = 1; at < text.length; size = (size % 63) + 1) {
    s.push(text.slice(at, at + size));
    at += size;
    if (size === 31) assert.equal(roomy.validateText(JSON.stringify({ items: ['y'.repeat(3 << 20)] })).valid, true);
  }
  assert.deepEqual(s.partial(), { items });
  assert.equal(s.push('').bytes, Buffer.byteLength(text));
  assert.deepEqual(s.finish({ stopReason: 'stop' }), { state: 'soft-complete', valid: true, data: { items }, attempt: 1 });
});

test('a surrogate pair split between string chunks reaches the module as one character', () => {
  const one = Contract.compile({ type: 'object', properties: { a: { type: 'string', maxLength: 1 } }, required: ['a'] });
  const long = 'x'.repeat(80);
  const wide = Contract.compile({ type: 'object', properties: { a: { type: 'string', maxLength: 81 } } });
  // Split after the high half: in a short chunk, in a chunk of its own, in a long chunk.
  for (const [contract, parts, a] of [
    [one, ['{"a":"\uD83D', '\uDE00"}'], '😀'],
    [one, ['{"a":"', '\uD83D', '\uDE00', '"}'], '😀'],
    [wide, [`{"a":"${long}\uD83D`, '\uDE00"}'], `${long}😀`],
  ]) {
    const s = contract.stream();
    for (const part of parts) assert.deepEqual(s.push(part).earlyViolations, [], parts.join(' | '));
    assert.deepEqual(s.finish({ stopReason: 'stop' }), { state: 'soft-complete', valid: true, data: { a }, attempt: 1 });
  }
  // A high half that nothing completes is still sent (the module reads U+FFFD, 3 bytes): at
  // the end, before a bytes chunk, before a string chunk that does not start with a low half.
  const s = one.stream();
  assert.equal(s.push('{"a":"\uD83D').bytes, 6);
  const out = s.finish({ stopReason: 'stop' });
  assert.equal(out.valid, false);
  assert.match(out.violations[0].message, /after 9 bytes/);
  const u = one.stream();
  u.push('{"a":"\uD83D');
  assert.deepEqual(u.push('"}').earlyViolations, []);
  assert.deepEqual(u.finish({ stopReason: 'stop' }), { state: 'soft-complete', valid: true, data: { a: '\uD83D' }, attempt: 1 });
  const t = one.stream();
  t.push('{"a":"\uD83D');
  t.push(new TextEncoder().encode('"}'));
  assert.deepEqual(t.finish({ stopReason: 'stop' }), { state: 'soft-complete', valid: true, data: { a: '\uFFFD' }, attempt: 1 });
});

test('early violation at the byte it becomes certain, then retry, then hard-complete', () => {
  const s = contract.stream();
  let firstEarly;
  let offset = 0;
  for (const ch of invalid) {
    const st = s.push(ch);
    offset += Buffer.byteLength(ch);
    if (!firstEarly && st.earlyViolations.length) firstEarly = { bytes: offset, violation: st.earlyViolations[0] };
  }
  assert.equal(firstEarly.bytes, Buffer.byteLength(invalid.slice(0, invalid.indexOf('approved') + 'approved'.length)));
  assert.equal(firstEarly.violation.path, '$.approval');
  assert.equal(firstEarly.violation.keyword, 'enum');

  const retry = s.finish({ stopReason: 'stop' });
  assert.equal(retry.state, 'soft-complete');
  assert.equal(retry.retry, true);
  assert.equal(retry.attempt, 1);
  const lines = retry.violations.map((v) => `- ${v.path}: ${v.message}`).join('\n');
  assert.equal(
    retry.prompt,
    `<output-validation-error>\nYour output did not match the required schema.\n\n## Validation Errors\n${lines}\n\n## Required Schema\n\`\`\`json\n${JSON.stringify(blueprint.output_schema, null, 2)}\n\`\`\`\n\nPlease provide output matching the schema exactly.\n</output-validation-error>`,
  );
  assert.equal(s.push(invalid).attempt, 2);
  const hard = s.finish({ stopReason: 'stop' });
  assert.equal(hard.state, 'hard-complete');
  assert.equal(hard.attempts, 2);
  assert.equal(hard.error.error, 'output_validation_failed');
  assert.equal(hard.error.retryable, false);
  assert.equal(hard.error.agent_id, 'pr-reviewer');
});

test('invalid then valid on the retry', () => {
  const s = contract.stream();
  s.push(invalid);
  assert.equal(s.finish().retry, true);
  s.push(valid);
  const out = s.finish();
  assert.equal(out.valid, true);
  assert.equal(out.attempt, 2);
  // The data is the second attempt's text alone, whichever side parsed it (string chunks: the
  // JS side; a byte chunk among them: the module); the stream has ended then.
  assert.deepEqual(out, { state: 'soft-complete', valid: true, data: JSON.parse(valid), attempt: 2 });
  assert.throws(() => s.finish(), /^Error: the stream has ended \(soft-complete\)/);
  const mixed = contract.stream();
  mixed.push(valid.slice(0, 30));
  mixed.push(new TextEncoder().encode(valid.slice(30, 60)));
  mixed.push(valid.slice(60));
  assert.deepEqual(mixed.finish().data, JSON.parse(valid));
  const nulls = Contract.compile({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } }).stream({ nullAsAbsent: true });
  nulls.push('{"a": "x", "b": null}');
  assert.deepEqual(nulls.finish().data, { a: 'x' });
});

test('truncation at the token limit and refusals', () => {
  const s = contract.stream({ maxRetries: 0 });
  s.push(valid.slice(0, 50));
  const cut = s.finish({ stopReason: 'length' });
  assert.equal(cut.state, 'hard-complete');
  assert.equal(cut.error.violations[0].keyword, 'truncated');

  const r = contract.stream();
  r.push('I cannot help with that request.');
  assert.deepEqual(r.finish({ stopReason: 'refusal', refusal: 'I cannot help with that request.' }), {
    state: 'refused',
    refusal: 'I cannot help with that request.',
    attempt: 1,
  });
});

test('partial values while streaming', () => {
  const s = contract.stream();
  s.push('{"summary": "Adds ret');
  assert.deepEqual(s.partial(), { summary: 'Adds ret' });
  s.push('ry", "comments": [{"line": 4');
  assert.deepEqual(s.partial(), { summary: 'Adds retry', comments: [{}] });
});

test('fenced output with prose, extracted while streaming; abort on early violation', () => {
  const s = contract.stream({ extract: true });
  const answer = `Here is the review:\n\`\`\`json\n${valid}\n\`\`\`\nDone.`;
  for (const c of chunks(answer, 7)) s.push(c);
  const bytes = Buffer.from(answer);
  assert.deepEqual(
    s.skipped().map((k) => [k.place, bytes.subarray(k.start, k.end).toString()]),
    [['before', 'Here is the review:\n```json\n'], ['after', `${valid.slice(valid.trimEnd().length)}\n\`\`\`\nDone.`]],
  );
  assert.equal(s.finish().valid, true);

  const a = contract.stream({ abortOnEarlyViolation: true });
  let status;
  for (const c of chunks(invalid, 10)) {
    status = a.push(c);
    if (status.aborted) break;
  }
  assert.equal(status.aborted, true);
  assert.ok(status.bytes < Buffer.byteLength(invalid));
  const out = a.finish();
  assert.equal(out.retry, true);
  assert.equal(out.violations[0].path, '$.approval');
});

test('TransformStream and async-iterable helpers', async () => {
  const s = contract.stream();
  const source = ReadableStream.from(chunks(valid, 16));
  const statuses = [];
  for await (const st of source.pipeThrough(s.transform())) statuses.push(st);
  assert.equal(statuses.at(-1).complete, true);
  assert.equal(s.finish().valid, true);

  async function* deltas() {
    for (const c of chunks(invalid, 9)) yield c;
  }
  const out = await contract.stream({ maxRetries: 0 }).consume(deltas());
  assert.equal(out.state, 'hard-complete');
});

test('consume() of an array or a generator ends as pushing its chunks one by one does', async () => {
  // What each chunk pushed alone, then finish(), gives.
  const pushed = (c, options, list) => {
    const s = c.stream(options);
    for (const chunk of list) s.push(chunk);
    return s.finish();
  };
  const emoji = valid.replace('Adds retry', 'Ajoute é😀 retry');
  const cases = [
    [valid, 7],
    [emoji, 1],
    [emoji, 5],
    [invalid, 9],
    [invalid, 3],
  ];
  // Limits end the attempt too: the failure's raw_output is what was read up to there.
  const limited = [Contract.compile(blueprint.output_schema, { maxOutputBytes: 200 }), Contract.compile(blueprint.output_schema, { maxDepth: 2 })];
  const runs = [
    [contract, undefined],
    [contract, { maxRetries: 0 }],
    [contract, { abortOnEarlyViolation: true }],
    [contract, { extract: true }],
    ...limited.map((c) => [c, undefined]),
  ];
  for (const [c, options] of runs) {
    for (const [text, size] of cases) {
      const list = chunks(text, size);
      const expected = pushed(c, options, list);
      for (const source of [list, (function* () { yield* list; })()]) {
        const s = c.stream(options);
        const outcome = await s.consume(source);
        assert.deepEqual(outcome, expected, `size ${size}, ${JSON.stringify(options)}`);
      }
    }
  }
  // Bytes and promises among the chunks: bytes go in alone, a promise is awaited.
  const list = chunks(valid, 11);
  const mixed = list.map((c, i) => (i % 3 === 1 ? new TextEncoder().encode(c) : i % 3 === 2 ? Promise.resolve(c) : c));
  assert.deepEqual(await contract.stream().consume(mixed), { state: 'soft-complete', valid: true, data: JSON.parse(valid), attempt: 1 });
  // A chunk the iterable fails to give: what came before it is in.
  const s = contract.stream();
  await assert.rejects(
    s.consume(
      (function* () {
        yield '{"summary": ';
        throw new Error('cut');
      })(),
    ),
    /cut/,
  );
  assert.equal(s.push('').bytes, 12);
  s.free();
  // A non-chunk is refused as push refuses it.
  await assert.rejects(contract.stream().consume(['{', 1]), TypeError);
});

test('changes(): what each push added, enough to rebuild the partial value', () => {
  const s = contract.stream();
  s.push('{"summary": "Add');
  assert.deepEqual(s.changes(), [{ path: '$', value: { summary: 'Add' } }]);
  s.push('s retry é');
  s.push('😀", "comments": [{"line": 4');
  assert.deepEqual(s.changes(), [
    { path: '$.summary', append: 's retry é😀' },
    { path: '$.comments', value: [] },
    { path: '$.comments[0]', value: {} },
  ]);
  s.push('2, "file": "a"}]}');
  assert.deepEqual(s.changes(), [
    { path: '$.comments[0].line', value: 42 },
    { path: '$.comments[0].file', value: '' },
    { path: '$.comments[0].file', append: 'a' },
  ]);
  assert.deepEqual(s.changes(), []);
});

test('bad stream options and stop reasons throw real Errors', () => {
  assert.throws(() => contract.stream({ maxRetires: 2 }), (e) => e.name === 'OptionError' && e.option === 'maxRetires' && /unknown option maxRetires/.test(e.message));
  const s = contract.stream();
  s.push(valid);
  assert.throws(() => s.finish({ stopReason: 'exploded' }), (e) => e instanceof Error && e.name === 'OptionError' && /^stopReason must be "stop", "end_turn", .* got "exploded"$/.test(e.message));
  assert.equal(s.finish({ stopReason: 'stop' }).valid, true);
});

test('a root number completed at the end of input reaches changes()', () => {
  const c = Contract.compile({ type: 'number' });
  const s = c.stream();
  s.changes();
  s.push('12');
  assert.deepEqual(s.changes(), []);
  assert.equal(s.finish().valid, true);
  assert.deepEqual(s.changes(), [{ path: '$', value: 12 }]);
});

test('the status of every push decodes as the module packs it, past a field’s maximum too', () => {
  // The packed attempt field saturates at STATUS_ATTEMPT_MAX; from there the getter answers.
  const c = Contract.compile({ type: 'object', required: ['a'] });
  const s = c.stream({ maxRetries: 300 });
  for (let attempt = 1; attempt <= 260; attempt++) {
    const status = s.push('{}');
    assert.deepEqual(status, { state: 'in-flight', attempt, bytes: 2, complete: true, earlyViolations: [], aborted: false });
    assert.equal(s.finish().attempt, attempt);
  }
  const a = c.stream({ abortOnEarlyViolation: true });
  const status = a.push('[');
  assert.equal(status.aborted, true);
  assert.equal(status.complete, false);
  assert.equal(status.earlyViolations[0].keyword, 'type');
});

test('the constants JavaScript shares with the module are the module’s own', async () => {
  // scripts/build.sh writes them into the main module's glue from boundaryConstants(), which the
  // schema tools' module (built from the same definitions) reports.
  const glue = await import('../../pkg/wasm/output_contract.js');
  const tools = await import('../../pkg/wasm/output_contract_tools.js');
  tools.initSync({ module: readFileSync(new URL('../../pkg/wasm/output_contract_tools_bg.wasm', import.meta.url)) });
  const constants = JSON.parse(tools.boundaryConstants());
  assert.ok(Object.keys(constants).length >= 10);
  for (const [name, value] of Object.entries(constants)) assert.deepEqual(glue[name], value, name);
});
