// Provider streams through the npm package: the recorded transcripts of tests/fixtures/providers
// (OpenAI Chat Completions, OpenAI Responses, Anthropic Messages) as a Response, a ReadableStream
// and an async iterable, whole, a byte at a time and cut at seeded random bytes; refusals, token
// limits, provider errors and cut connections; the early cut and its cancel; providerEvents;
// enforce() with a provider reply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Contract, OptionError, ProviderError, enforce, providerEvents, ready, validateProviderStream } from 'output-contract';

await ready;
const dir = new URL('../fixtures/providers/', import.meta.url);
const { schema, transcripts } = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8'));
const contract = Contract.compile(schema);
const bytesOf = (name) => new Uint8Array(readFileSync(new URL(name, dir)));

// xorshift32: the same cuts on every run.
function cuts(length, seed, count) {
  let x = seed >>> 0 || 1;
  const out = [];
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push((x >>> 0) % (length + 1));
  }
  return out.sort((a, b) => a - b);
}

function pieces(bytes, at) {
  const out = [];
  let start = 0;
  for (const end of [...at, bytes.length]) {
    out.push(bytes.subarray(start, end));
    start = end;
  }
  return out;
}

// A ReadableStream of the pieces that records how far it was read and whether it was cancelled.
function readable(chunks) {
  const record = { pulled: 0, cancelled: false };
  const stream = new ReadableStream({
    pull(controller) {
      if (record.pulled === chunks.length) return controller.close();
      controller.enqueue(chunks[record.pulled++]);
    },
    cancel() {
      record.cancelled = true;
    },
  });
  return { stream, record };
}

async function* iterable(chunks) {
  for (const c of chunks) yield c;
}

const optionsOf = (expect) => ({ provider: expect.provider, ...(expect.tool ? { tool: expect.tool } : {}) });

async function check(name, expect, body, how) {
  const at = `${name} (${how})`;
  if (expect.error) {
    await assert.rejects(validateProviderStream(contract, body, optionsOf(expect)), (e) => {
      assert.ok(e instanceof ProviderError, at);
      assert.equal(e.kind, expect.error.kind, at);
      if (expect.error.code) assert.equal(e.code, expect.error.code, at);
      assert.equal(e.provider, expect.provider);
      return true;
    });
    return;
  }
  const outcome = await validateProviderStream(contract, body, optionsOf(expect));
  assert.equal(outcome.state, expect.state, `${at}: ${JSON.stringify(outcome)}`);
  assert.equal(outcome.stopReason, expect.stopReason, at);
  assert.deepEqual(outcome.usage, expect.usage, at);
  if (expect.state === 'refused') assert.equal(outcome.refusal, expect.refusal, at);
  else if (expect.valid) assert.deepEqual(outcome.data, expect.data, at);
  else assert.deepEqual(outcome.violations.map((v) => v.keyword), expect.keywords, at);
}

test('every transcript ends as expected: whole Response, bytes one at a time, random cuts, text chunks', async () => {
  assert.ok(Object.keys(transcripts).length >= 20);
  for (const [name, expect] of Object.entries(transcripts)) {
    const bytes = bytesOf(name);
    await check(name, expect, new Response(bytes, { headers: { 'content-type': 'text/event-stream' } }), 'Response');
    await check(name, expect, readable(pieces(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1))).stream, 'a byte at a time');
    for (let seed = 1; seed <= 4; seed++) {
      await check(name, expect, iterable(pieces(bytes, cuts(bytes.length, seed * 977 + name.length, 1 + seed * 5))), `seed ${seed}`);
    }
    // Strings as chunks (a body decoded by the caller): cut on characters.
    const text = new TextDecoder().decode(bytes);
    await check(name, expect, iterable(text.match(/[^]{1,13}/g)), 'text chunks');
  }
});

test('an early violation cancels the body where it appears, and says so in the status', async () => {
  for (const name of ['openai-chat-invalid.sse', 'openai-chat-tool-invalid.sse', 'anthropic-invalid.sse']) {
    const expect = transcripts[name];
    const bytes = bytesOf(name);
    const chunks = pieces(bytes, Array.from({ length: Math.ceil(bytes.length / 16) - 1 }, (_, i) => (i + 1) * 16));
    const { stream, record } = readable(chunks);
    const statuses = [];
    const outcome = await validateProviderStream(contract, stream, { ...optionsOf(expect), abortOnEarlyViolation: true, onStatus: (s) => statuses.push(s) });
    assert.equal(record.cancelled, true, name);
    assert.ok(record.pulled < chunks.length / 2, `${name}: read ${record.pulled} of ${chunks.length} chunks`);
    // A ReadableStream pulls one chunk ahead of the reader.
    assert.ok(statuses.length <= record.pulled);
    assert.equal(statuses.at(-1).aborted, true);
    assert.equal(statuses.at(-1).earlyViolations[0].keyword, expect.early);
    assert.equal(outcome.violations[0].keyword, expect.early);
    assert.equal(outcome.stopReason, null);
    // Without the option the answer is read to its end, every violation named.
    const full = readable(chunks);
    const read = await validateProviderStream(contract, full.stream, optionsOf(expect));
    assert.equal(full.record.cancelled, false);
    assert.equal(full.record.pulled, chunks.length);
    assert.equal(read.stopReason, expect.stopReason);
  }
});

test('maxRetries: 0 makes an invalid answer final; nullAsAbsent reads strict tool arguments', async () => {
  const body = bytesOf('openai-chat-invalid.sse');
  const outcome = await validateProviderStream(contract, iterable([body]), { provider: 'openai-chat', maxRetries: 0 });
  assert.equal(outcome.state, 'hard-complete');
  assert.equal(outcome.error.retryable, false);
  const strict = Contract.compile({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false });
  const call = (args) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'submit_result', arguments: args } }] }, finish_reason: null }] })}\n\n` +
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}\n\ndata: [DONE]\n\n`;
  const read = await validateProviderStream(strict, iterable([call('{"a": null}')]), { provider: 'openai-chat', tool: 'submit_result', nullAsAbsent: true });
  assert.deepEqual(read.data, {});
});

test("a valid answer's data is its output's JSON.parse, as validateText gives it, however it streamed", async () => {
  const any = Contract.compile({ type: 'object' });
  // Numbers a parse and a rewrite could change, a `__proto__` member, escapes, indentation.
  const output = '{\n  "n": [1.50e1, -0, 12345678901234567890, 1e-400, -1e-400, 0.1000000000000000055511151231257827, 123456789012345678901234567890, 5e-324, 1.7976931348623157e308],\n  "__proto__": {"x": "\u00e9\\u00e9\\ud83d\\ude00 \\u0000"},\n  "b": {"1": true, "a": null}, "1": []\n}';
  const expected = any.validateText(output).data;
  const same = (data, how) => {
    assert.deepStrictEqual(data, expected, how);
    assert.equal(JSON.stringify(data), JSON.stringify(expected), `${how}: key order`);
  };
  const deltas = output.match(/[^]{1,7}/g);
  const sse = (o) => `data: ${JSON.stringify(o)}\n\n`;
  const chat =
    sse({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'submit_result', arguments: '' } }] }, finish_reason: null }] }) +
    deltas.map((d) => sse({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: d } }] }, finish_reason: null }] })).join('') +
    sse({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
  same((await validateProviderStream(any, iterable([chat]), { provider: 'openai-chat', tool: 'submit_result' })).data, 'openai-chat tool call');
  // A text answer, read by extraction from its first bracket.
  const answer = `Here it is:\n\`\`\`json\n${output}\n\`\`\`\nDone.`;
  const anthropic = (text) =>
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
    text.match(/[^]{1,5}/g).map((d) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: d } })).join('') +
    sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' } }) +
    sse({ type: 'message_stop' });
  same((await validateProviderStream(any, iterable([anthropic(answer)]), { provider: 'anthropic' })).data, 'anthropic text');
  // enforce() with a provider reply, and streams whose data the module sends: bytes, extraction.
  const enforced = await enforce(any, () => ({ response: new Response(anthropic(answer)), provider: 'anthropic' }), { task: 't' });
  same(enforced.result_data, 'enforce');
  const bytes = any.stream();
  for (const d of deltas) bytes.push(new TextEncoder().encode(d));
  same(bytes.finish().data, 'stream of bytes');
  const extracted = any.stream({ extract: true });
  for (const d of answer.match(/[^]{1,5}/g)) extracted.push(d);
  same(extracted.finish().data, 'stream with extract');
});

test('an HTTP error, a bad option and an aborted signal are told as what they are', async () => {
  const denied = new Response(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }), { status: 401 });
  await assert.rejects(validateProviderStream(contract, denied, { provider: 'anthropic' }), (e) => e instanceof ProviderError && e.kind === 'http_error' && e.status === 401 && e.code === 'authentication_error' && /invalid x-api-key/.test(e.message));
  await assert.rejects(validateProviderStream(contract, iterable([]), { provider: 'gemini' }), OptionError);
  await assert.rejects(validateProviderStream(contract, iterable([]), {}), TypeError);
  const abort = new AbortController();
  let cancelled = false;
  const never = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('data: {"choices":[{"index":0,"delta":{"content":"{"}}]}\n\n'));
    },
    cancel() {
      cancelled = true;
    },
  });
  const pending = validateProviderStream(contract, never, { provider: 'openai-chat', signal: abort.signal });
  setTimeout(() => abort.abort(new Error('user stopped')), 20);
  await assert.rejects(pending, /user stopped/);
  assert.equal(cancelled, true);
});

test('providerEvents: the normalised events, identical however the bytes are cut', async () => {
  const collect = async (body, provider) => {
    const out = [];
    for await (const e of providerEvents(body, { provider })) out.push(e);
    return out;
  };
  const bytes = bytesOf('anthropic-multi-block.sse');
  const whole = await collect(iterable([bytes]), 'anthropic');
  assert.deepEqual(whole.filter((e) => e.type === 'tool-call').map((e) => [e.index, e.name]), [[1, 'get_weather'], [3, 'submit_result']]);
  assert.equal(whole.filter((e) => e.type === 'text').map((e) => e.text).join(''), 'Checking first.Now the answer.');
  assert.deepEqual(whole.at(-1), { type: 'end', stopReason: 'tool_use', usage: transcripts['anthropic-multi-block.sse'].usage });
  const args = whole.filter((e) => e.type === 'tool-arguments' && e.index === 3).map((e) => e.text).join('');
  assert.deepEqual(JSON.parse(args), transcripts['anthropic-multi-block.sse'].data);
  const split = await collect(iterable(pieces(bytes, cuts(bytes.length, 7, 300))), 'anthropic');
  // Deltas may be cut differently only if events were: they are not, events are whole.
  assert.deepEqual(split, whole);
  const refusal = await collect(iterable([bytesOf('openai-responses-refusal.sse')]), 'openai-responses');
  assert.equal(refusal.filter((e) => e.type === 'refusal').map((e) => e.text).join(''), transcripts['openai-responses-refusal.sse'].refusal);
  await assert.rejects(collect(iterable([bytesOf('anthropic-error.sse')]), 'anthropic'), (e) => e instanceof ProviderError && e.kind === 'provider_error' && e.code === 'overloaded_error');
  // Leaving the loop early cancels the body.
  const { stream, record } = readable(pieces(bytes, cuts(bytes.length, 3, 40)));
  for await (const e of providerEvents(stream, { provider: 'anthropic' })) if (e.type === 'tool-call') break;
  assert.equal(record.cancelled, true);
});

test('enforce() takes { response, provider, tool }: retried in the conversation, refused, or a ProviderError', async () => {
  const replies = ['anthropic-invalid.sse', 'anthropic-multi-block.sse'];
  const seen = [];
  const result = await enforce(
    contract,
    (messages, { attempt }) => {
      seen.push(messages.at(-1).content);
      return { response: new Response(bytesOf(replies[attempt - 1])), provider: 'anthropic', tool: 'submit_result' };
    },
    { task: 'Weather in Zürich?', abortOnEarlyViolation: true },
  );
  assert.equal(result.status, 'completed');
  assert.deepEqual(result.result_data, transcripts['anthropic-multi-block.sse'].data);
  assert.equal(result.attempts, 2);
  assert.match(seen[1], /conditions/);
  const refused = await enforce(contract, () => ({ response: new Response(bytesOf('openai-responses-refusal.sse')), provider: 'openai-responses' }), { task: 't' });
  assert.deepEqual(refused, { status: 'refused', refusal: transcripts['openai-responses-refusal.sse'].refusal, attempts: 1 });
  const cut = await enforce(contract, () => ({ response: new Response(bytesOf('openai-responses-incomplete.sse')), provider: 'openai-responses' }), { task: 't', maxRetries: 0 });
  assert.equal(cut.validation_error.violations[0].keyword, 'truncated');
  await assert.rejects(enforce(contract, () => ({ response: new Response(bytesOf('openai-chat-cut.sse')), provider: 'openai-chat' }), { task: 't' }), (e) => e instanceof ProviderError && e.kind === 'incomplete_stream');
});
