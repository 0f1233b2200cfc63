// Post-merge validation through the package: contract.validateMerged (RFC 6902 JSON Patch and
// RFC 7396 merge patch, src/agent/patch.rs), retryPrompt's patch mode, and enforce's patch
// retries with a scripted model: the fix, the fallbacks (an unread answer, a reply that is not a
// patch), a patch that does not apply and a fix that breaks another rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract, OptionError, ready, enforce, retryPrompt, submitResultTool, toolFeedback } from 'output-contract';

await ready;

const schema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    line: { type: 'integer' },
    severity: { enum: ['low', 'medium', 'high'] },
    notes: { type: 'array', items: { type: 'string', maxLength: 20 } },
  },
  required: ['title', 'line', 'severity'],
  additionalProperties: false,
};
const contract = Contract.compile(schema);
const base = { title: 'Unchecked index', line: '12', severity: 'critical', notes: ['a'] };
const fix = [
  { op: 'replace', path: '/line', value: 12 },
  { op: 'replace', path: '/severity', value: 'high' },
];

test('validateMerged: a JSON Patch applied to a copy, the merged document validated and returned', () => {
  const before = structuredClone(base);
  const result = contract.validateMerged(base, fix);
  assert.deepEqual(result, { valid: true, data: { title: 'Unchecked index', line: 12, severity: 'high', notes: ['a'] }, applied: true });
  assert.deepEqual(base, before);
  // Text for either side; the format named.
  const text = contract.validateMerged(JSON.stringify(base), JSON.stringify(fix), { format: 'json-patch' });
  assert.deepEqual(text.data, result.data);
  // Model text with `extract`.
  const reply = `Here is the fix:\n\`\`\`json\n${JSON.stringify(fix)}\n\`\`\``;
  assert.equal(contract.validateMerged(base, reply, { extract: true }).valid, true);
  assert.equal(contract.validateMerged(base, reply).error.violations[0].keyword, 'json');
});

test('validateMerged: the merged document is validated as a whole', () => {
  // Each part is fine alone; merged, the line is still a string and a note too long.
  const result = contract.validateMerged(base, [
    { op: 'replace', path: '/severity', value: 'low' },
    { op: 'add', path: '/notes/-', value: 'x'.repeat(30) },
  ]);
  assert.equal(result.valid, false);
  assert.equal(result.applied, true);
  assert.deepEqual(result.error.violations.map((v) => [v.keyword, v.pointer]), [['type', '/line'], ['maxLength', '/notes/1']]);
  assert.equal(result.error.retryable, true);
});

test('validateMerged: a patch that cannot apply is a retryable patch violation naming the operation', () => {
  const result = contract.validateMerged(base, [fix[0], { op: 'replace', path: '/sev', value: 'high' }]);
  assert.equal(result.valid, false);
  assert.equal(result.applied, false);
  const [v] = result.error.violations;
  assert.deepEqual([v.keyword, v.pointer, v.path], ['patch', '/sev', '$.sev']);
  assert.equal(v.message, "patch operation 1 (replace '/sev'): the location does not exist");
  assert.equal(result.error.retryable, true);
  const failed = contract.validateMerged(base, [{ op: 'test', path: '/severity', value: 'high' }]);
  assert.equal(failed.error.violations[0].message, "patch operation 0 (test '/severity'): the value is not equal to the test's 'value'");
  assert.equal(contract.validateMerged(base, { op: 'add' }).error.violations[0].message, 'patch cannot be applied: a JSON Patch is an array of operations');
});

test('validateMerged: RFC 7396 merge patches, for partial objects', () => {
  const parts = contract.validateMerged({ title: 'Unchecked index', line: 3 }, { severity: 'low', notes: null }, { format: 'merge-patch' });
  assert.deepEqual(parts, { valid: true, data: { title: 'Unchecked index', line: 3, severity: 'low' }, applied: true });
  const missing = contract.validateMerged({ title: 'x' }, { line: 1 }, { format: 'merge-patch' });
  assert.deepEqual(missing.error.violations.map((v) => v.keyword), ['required']);
});

test('validateMerged: options are checked, limits held', () => {
  assert.throws(() => contract.validateMerged(base, fix, { format: 'diff' }), OptionError);
  assert.throws(() => contract.validateMerged(base, fix, { extrac: true }), OptionError);
  assert.throws(() => contract.validateMerged(1n, fix), TypeError);
  const small = Contract.compile({}, { maxOutputBytes: 100 });
  const doubling = Array.from({ length: 10 }, () => ({ op: 'copy', from: '/a', path: '/a/-' }));
  const result = small.validateMerged({ a: ['0123456789'] }, doubling);
  assert.equal(result.error.violations[0].keyword, 'maxOutputBytes');
  assert.equal(result.error.retryable, false);
});

test('retryPrompt: patch mode lists pointers and asks for a JSON Patch without the schema', () => {
  const { error } = contract.validate(base);
  const prompt = retryPrompt(error, schema, { mode: 'patch' });
  assert.match(prompt, /^- "\/line": '12' is not of type 'integer'$/m);
  assert.match(prompt, /^- "\/severity": 'critical' is not one of \['low', 'medium', 'high'\]$/m);
  assert.match(prompt, /JSON Patch \(RFC 6902\)/);
  assert.doesNotMatch(prompt, /additionalProperties/);
  assert.equal(retryPrompt(error, schema, { mode: 'full' }), retryPrompt(error, schema));
  const custom = retryPrompt(error, schema, { mode: 'patch', templates: { retryPatch: 'fix: {errors}', retryPatchLine: '{pointer}={keyword}' } });
  assert.equal(custom, 'fix: "/line"=type\n"/severity"=enum');
  assert.throws(() => retryPrompt(error, schema, { mode: 'diff' }), OptionError);
});

// A scripted model: answers in order (the last one repeated), keeping the messages it was given.
function scripted(answers) {
  const calls = [];
  const answer = (a) => (typeof a === 'function' ? a() : a);
  return { calls, model: async (messages, { attempt }) => answer(answers[Math.min(calls.push({ attempt, messages }), answers.length) - 1]) };
}

async function* deltas(text, size = 7) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

const first = JSON.stringify(base);
const merged = { title: 'Unchecked index', line: 12, severity: 'high', notes: ['a'] };

test('enforce retry: patch: the reply is applied to the previous answer and validated post-merge', async () => {
  for (const reply of [JSON.stringify(fix), () => ({ stream: deltas(`\`\`\`json\n${JSON.stringify(fix)}\n\`\`\``) })]) {
    const { model, calls } = scripted([first, reply]);
    const events = [];
    const result = await enforce(contract, model, { retry: 'patch', onAttempt: (e) => events.push(e) });
    assert.deepEqual(result, { status: 'completed', result_data: merged, attempts: 2 });
    const prompt = calls[1].messages.at(-1).content;
    assert.equal(prompt, retryPrompt(contract.validate(base), schema, { mode: 'patch' }));
    assert.deepEqual(calls[1].messages.at(-2), { role: 'assistant', content: first });
    assert.deepEqual(events.map((e) => [e.outcome, e.mode, e.fallback]), [['invalid', 'full', false], ['valid', 'patch', false]]);
    assert.equal(events[0].promptBytes, 0);
    assert.equal(events[1].promptBytes, new TextEncoder().encode(prompt).length);
  }
});

test('enforce retry: full (the default) resends the whole answer', async () => {
  const { model, calls } = scripted([first, JSON.stringify(merged)]);
  const events = [];
  const result = await enforce(contract, model, { onAttempt: (e) => events.push(e) });
  assert.equal(result.status, 'completed');
  assert.match(calls[1].messages.at(-1).content, /## Required Schema/);
  assert.deepEqual(events.map((e) => e.mode), ['full', 'full']);
  await assert.rejects(enforce(contract, model, { retry: 'diff' }), OptionError);
});

test('enforce retry: patch falls back to a full retry after an answer that was not read as JSON', async () => {
  const { model, calls } = scripted(['{"title": "cut', JSON.stringify(merged)]);
  const events = [];
  const result = await enforce(contract, model, { retry: 'patch', onAttempt: (e) => events.push(e) });
  assert.equal(result.status, 'completed');
  assert.match(calls[1].messages.at(-1).content, /## Required Schema/);
  assert.deepEqual(events.map((e) => [e.mode, e.fallback]), [['full', false], ['full', false]]);
});

test('enforce retry: patch reads a reply that is not a patch as a whole answer', async () => {
  const { model } = scripted([first, JSON.stringify(merged)]);
  const events = [];
  const result = await enforce(contract, model, { retry: 'patch', onAttempt: (e) => events.push(e) });
  assert.deepEqual(result, { status: 'completed', result_data: merged, attempts: 2 });
  assert.deepEqual(events.map((e) => [e.mode, e.fallback]), [['full', false], ['full', true]]);
});

test('enforce retry: patch: a wrong patch is named, then fixed against the same answer', async () => {
  const wrong = JSON.stringify([{ op: 'replace', path: '/sev', value: 'high' }]);
  const { model, calls } = scripted([first, wrong, JSON.stringify(fix)]);
  const events = [];
  const result = await enforce(contract, model, { retry: 'patch', maxRetries: 2, onAttempt: (e) => events.push(e) });
  assert.deepEqual(result, { status: 'completed', result_data: merged, attempts: 3 });
  assert.deepEqual(events.map((e) => [e.outcome, e.mode, e.keywords]), [
    ['invalid', 'full', ['type', 'enum']],
    ['invalid', 'patch', ['patch']],
    ['valid', 'patch', []],
  ]);
  const prompt = calls[2].messages.at(-1).content;
  const lines = prompt.split('\n').filter((l) => l.startsWith('- '));
  assert.deepEqual(lines, [
    `- "/sev": patch operation 0 (replace '/sev'): the location does not exist`,
    `- "/line": '12' is not of type 'integer'`,
    `- "/severity": 'critical' is not one of ['low', 'medium', 'high']`,
  ]);
});

test('enforce retry: patch: a fix that breaks another rule is a post-merge violation, patched in turn', async () => {
  const breaking = JSON.stringify([...fix, { op: 'add', path: '/notes/0', value: 'x'.repeat(30) }]);
  const repair = JSON.stringify([{ op: 'remove', path: '/notes/0' }]);
  const { model, calls } = scripted([first, breaking, repair]);
  const events = [];
  const result = await enforce(contract, model, { retry: 'patch', maxRetries: 2, onAttempt: (e) => events.push(e) });
  assert.deepEqual(result, { status: 'completed', result_data: merged, attempts: 3 });
  assert.deepEqual(events.map((e) => [e.mode, e.keywords]), [['full', ['type', 'enum']], ['patch', ['maxLength']], ['patch', []]]);
  assert.match(calls[2].messages.at(-1).content, /^- "\/notes\/0": a string of \d+ characters is longer than 20$/m);
  // Out of retries, the failure is the merged document's.
  const { model: stuck } = scripted([first, breaking]);
  const failed = await enforce(contract, stuck, { retry: 'patch' });
  assert.equal(failed.status, 'failed');
  assert.deepEqual(failed.validation_error.violations.map((v) => [v.keyword, v.pointer]), [['maxLength', '/notes/0']]);
});

test('the fixture: long answers with few violations, retried in full and by patch', async () => {
  const { runLong } = await import('./enforce-fixture.mjs');
  const { full, patch, path, breaks } = await runLong({ quiet: true });
  assert.ok(full.fixed >= 0.95, `full ${full.fixed}`);
  assert.ok(patch.fixed >= full.fixed, `patch ${patch.fixed}, full ${full.fixed}`);
  assert.ok(patch.maxShareFewViolations <= 0.1, `patch retries wrote ${patch.maxShareFewViolations} of the first answer`);
  assert.deepEqual([path.status, path.events], ['completed', ['full:invalid[type]', 'patch:invalid[patch]', 'patch:valid']]);
  assert.deepEqual([breaks.status, breaks.events], ['completed', ['full:invalid[type]', 'patch:invalid[enum]', 'patch:valid']]);
});

test('the submit_patch tool: a JSON Patch as tool input, applied with validateMerged', () => {
  const anthropic = submitResultTool(schema, { provider: 'anthropic', patch: true });
  assert.equal(anthropic.tool.name, 'submit_patch');
  const input = anthropic.tool.input_schema;
  assert.deepEqual(input.required, ['patch']);
  assert.deepEqual(input.properties.patch.items.properties.op.enum, ['add', 'remove', 'replace', 'move', 'copy', 'test']);
  // The tool's own schema accepts a patch, and the patch applies to the previous output.
  const tool = Contract.compile(input);
  const args = JSON.stringify({ patch: fix });
  assert.equal(tool.validateToolCall(args).valid, true);
  assert.equal(tool.validateToolCall(JSON.stringify({ patch: [{ op: 'mov', path: '/a' }] })).valid, false);
  assert.deepEqual(contract.validateMerged(base, JSON.parse(args).patch).data, { title: 'Unchecked index', line: 12, severity: 'high', notes: ['a'] });
  // OpenAI's strict mode: `from` and `value` required and nullable; a null where an operation
  // does not take it is ignored.
  const openai = submitResultTool(schema, { provider: 'openai', patch: true, name: 'fix' });
  assert.equal(openai.tool.function.name, 'fix');
  assert.equal(openai.tool.function.strict, true);
  assert.deepEqual(openai.changes.map((c) => c.kind), ['made_nullable', 'made_nullable']);
  const strictArgs = fix.map((op) => ({ ...op, from: null }));
  assert.equal(contract.validateMerged(base, [...strictArgs, { op: 'remove', path: '/notes', from: null, value: null }]).valid, true);
  // The feedback names the tool to call again.
  const wrong = contract.validateMerged(base, [{ op: 'remove', path: '/x' }]);
  assert.match(toolFeedback(wrong, { tool: 'submit_patch' }), /patch operation 0 \(remove '\/x'\): the location does not exist[\s\S]*call `submit_patch` again/);
  assert.throws(() => submitResultTool(schema, { patch: 'yes' }), OptionError);
});

// A streamed reply whose chunks are counted as they are read.
function counted(text, size = 8) {
  const read = { chunks: 0, of: Math.ceil(text.length / size) };
  async function* stream() {
    for (let i = 0; i < text.length; i += size) {
      read.chunks += 1;
      yield text.slice(i, i + size);
    }
  }
  return { read, reply: () => ({ stream: stream() }) };
}

test('enforce retry: patch: a streamed patch is checked against the JSON Patch shape as it arrives', async () => {
  // The second operation's `op` is no JSON Patch operation: with abortOnEarlyViolation the
  // reading stops there, long before the reply ends.
  const malformed = JSON.stringify([fix[0], { op: 'delete', path: '/severity' }, ...Array.from({ length: 20 }, () => fix[1])]);
  const { read, reply } = counted(malformed);
  const { model, calls } = scripted([first, reply, JSON.stringify(fix)]);
  const events = [];
  const result = await enforce(contract, model, { retry: 'patch', maxRetries: 2, abortOnEarlyViolation: true, onAttempt: (e) => events.push(e) });
  assert.deepEqual(result, { status: 'completed', result_data: merged, attempts: 3 });
  assert.deepEqual(events.map((e) => [e.outcome, e.mode, e.keywords]), [
    ['invalid', 'full', ['type', 'enum']],
    ['aborted', 'patch', ['enum']],
    ['valid', 'patch', []],
  ]);
  const cut = malformed.indexOf('"delete"') + '"delete"'.length;
  assert.ok(read.chunks <= Math.ceil(cut / 8) + 1 && read.chunks < read.of, `read ${read.chunks} of ${read.of} chunks`);
  assert.equal(events[1].bytes, read.chunks * 8);
  // The next prompt names the operation (its pointer in the patch), then what is still to fix.
  const lines = calls[2].messages.at(-1).content.split('\n').filter((l) => l.startsWith('- '));
  assert.equal(lines.length, 3, lines.join('\n'));
  // Told as soon as no operation's name can start so.
  assert.match(lines[0], /^- "\/1\/op": a string starting with 'del[a-z]*' is not one of \['add', 'remove'/);

  // Without abortOnEarlyViolation the reply is read whole and the patch engine's verdict decides.
  const whole = counted(malformed);
  const { model: reading } = scripted([first, whole.reply]);
  const seen = [];
  const failed = await enforce(contract, reading, { retry: 'patch', onAttempt: (e) => seen.push(e) });
  assert.equal(failed.status, 'failed');
  assert.equal(whole.read.chunks, whole.read.of);
  assert.deepEqual(seen.map((e) => [e.outcome, e.mode, e.keywords]), [['invalid', 'full', ['type', 'enum']], ['invalid', 'patch', ['patch']]]);
});

test('enforce retry: patch: a streamed whole answer is not cut as a malformed patch, but read as a full answer', async () => {
  const { read, reply } = counted(JSON.stringify(merged));
  const { model } = scripted([first, reply]);
  const events = [];
  const result = await enforce(contract, model, { retry: 'patch', abortOnEarlyViolation: true, onAttempt: (e) => events.push(e) });
  assert.deepEqual(result, { status: 'completed', result_data: merged, attempts: 2 });
  assert.equal(read.chunks, read.of);
  assert.deepEqual(events.map((e) => [e.outcome, e.mode, e.fallback]), [['invalid', 'full', false], ['valid', 'full', true]]);
});

test('enforce retry: patch: a provider response streams its patch through the same checks', async () => {
  const sse = (events) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n';
  const text = JSON.stringify([{ op: 'replace', path: '/line', value: 12 }, { op: 'frobnicate', path: '/severity', value: 'high' }, fix[1]]);
  const chunks = [];
  for (let i = 0; i < text.length; i += 10) chunks.push({ choices: [{ index: 0, delta: { content: text.slice(i, i + 10) } }] });
  chunks.push({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  const response = new Response(sse(chunks), { headers: { 'content-type': 'text/event-stream' } });
  const { model } = scripted([first, { response, provider: 'openai-chat' }]);
  const events = [];
  const result = await enforce(contract, model, { retry: 'patch', abortOnEarlyViolation: true, onAttempt: (e) => events.push(e) });
  assert.equal(result.status, 'failed');
  assert.deepEqual(events.map((e) => [e.outcome, e.mode, e.keywords]), [['invalid', 'full', ['type', 'enum']], ['aborted', 'patch', ['enum']]]);
  assert.deepEqual(result.validation_error.violations.map((v) => v.pointer), ['/1/op']);
});

test('enforce retry: patch: a streamed whole answer of a contract whose output is an array is not taken for a malformed patch', async () => {
  const list = Contract.compile({ type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false }, minItems: 2 });
  const answer = JSON.stringify([{ name: 'a' }, { name: 'b' }]);
  const { read, reply } = counted(answer, 4);
  const { model } = scripted([JSON.stringify([{ name: 'a' }]), reply]);
  const events = [];
  const result = await enforce(list, model, { retry: 'patch', abortOnEarlyViolation: true, onAttempt: (e) => events.push(e) });
  assert.deepEqual(result, { status: 'completed', result_data: JSON.parse(answer), attempts: 2 });
  assert.equal(read.chunks, read.of);
  assert.deepEqual(events.map((e) => [e.outcome, e.mode, e.fallback]), [['invalid', 'full', false], ['valid', 'full', true]]);
});
