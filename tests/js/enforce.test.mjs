// enforce() runs on the stream state machine of the module (src/agent/stream.rs): the attempt
// count, refusals, which failures are retried and how often, the retry prompt and the final
// error are the machine's. These tests pin that: enforce ends as the public stream does for the
// same answers, and text answers follow the rules streamed answers follow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract, ready, enforce, failureEnvelope } from 'output-contract';

await ready;

const schema = {
  type: 'object',
  properties: { summary: { type: 'string', minLength: 10 }, approval: { enum: ['approve', 'comment'] } },
  required: ['summary', 'approval'],
};
const contract = Contract.compile(schema);
const good = '{"summary": "Looks good to me overall.", "approval": "approve"}';
const short = '{"summary": "short", "approval": "approve"}';

// A scripted model: answers in order (the last one repeated); records what it was given.
function scripted(answers) {
  const calls = [];
  const model = async (messages, { attempt }) => {
    calls.push({ attempt, messages });
    const a = answers[Math.min(calls.length - 1, answers.length - 1)];
    return typeof a === 'function' ? a() : a;
  };
  return { model, calls };
}

async function* deltas(text, size = 5) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

// The same answer as text, and streamed with the same end.
const asText = (text, end = {}) => ({ text, ...end });
const asStream = (text, end = {}) => () => ({ stream: deltas(text), end: () => end });

test('enforce: the attempts, retries and final failure are those of the public stream machine', async () => {
  for (const maxRetries of [0, 2, 3]) {
    const { model, calls } = scripted([short]);
    const result = await enforce(contract, model, { maxRetries });
    // The same answers through contract.stream(): the outcomes enforce must have acted on.
    const stream = contract.stream({ extract: true, maxRetries });
    const outcomes = [];
    for (;;) {
      stream.push(short);
      outcomes.push(stream.finish({ stopReason: 'stop' }));
      if (!outcomes.at(-1).retry) break;
    }
    const hard = outcomes.at(-1);
    assert.equal(hard.state, 'hard-complete');
    assert.deepEqual(calls.map((c) => c.attempt), outcomes.map((_, i) => i + 1));
    assert.equal(result.attempts, hard.attempts);
    assert.deepEqual(result.validation_error, hard.error);
    assert.deepEqual(result.error, failureEnvelope(hard.error, undefined, maxRetries).error);
    // Each retry prompt is the machine's, after the model's answer, in one conversation.
    for (const [i, outcome] of outcomes.slice(0, -1).entries()) {
      assert.deepEqual(calls[i + 1].messages.slice(-2), [{ role: 'assistant', content: short }, { role: 'user', content: outcome.prompt }]);
    }
  }
});

test('enforce: one machine counts streamed and text attempts alike', async () => {
  const events = [];
  const { model, calls } = scripted([asStream(short, { stopReason: 'stop' }), asText(short), asStream(good)]);
  const result = await enforce(contract, model, { maxRetries: 2, abortOnEarlyViolation: true, onAttempt: (e) => events.push(e) });
  assert.deepEqual(result, { status: 'completed', result_data: JSON.parse(good), attempts: 3 });
  assert.deepEqual(calls.map((c) => c.attempt), [1, 2, 3]);
  // Told to abort, the streamed answer ends at the early violation (the summary's closing quote, byte 20).
  assert.deepEqual(events.map((e) => [e.attempt, e.outcome, e.streamed, e.bytes]), [[1, 'aborted', true, 20], [2, 'invalid', false, 43], [3, 'valid', true, 63]]);
});

test('enforce: without maxRetries, the machine allows its default of one retry', async () => {
  const { model, calls } = scripted([short]);
  const result = await enforce(contract, model);
  assert.equal(calls.length, 2);
  assert.equal(result.error.message, failureEnvelope(result.validation_error).error.message);
  assert.equal(result.error.message, 'Output did not match schema after 1 retry');
});

test('enforce: the retry prompt is written by the machine with the given templates', async () => {
  const { model, calls } = scripted([short, good]);
  const templates = { retry: 'Fix this:\n{errors}', retryLine: '* {path} — {message}' };
  assert.equal((await enforce(contract, model, { templates })).status, 'completed');
  assert.equal(calls[1].messages.at(-1).content, "Fix this:\n* $.summary — a string of 5 characters is shorter than 10");
});

test('enforce: a text answer ends as the same answer streamed (stop reasons are the machine’s)', async () => {
  // Before enforce used the machine for text answers, they were validated whatever the stop
  // reason except "refusal": a complete answer cut at the token limit passed, a content filter
  // was validated as an answer.
  const ends = [
    [{ stopReason: 'length' }, 'failed', 'truncated'],
    [{ stopReason: 'max_tokens' }, 'failed', 'truncated'],
    [{ stopReason: 'content_filter' }, 'refused', ''],
    [{ stopReason: 'refusal', refusal: 'No.' }, 'refused', 'No.'],
    [{ refusal: '' }, 'refused', ''],
    [{ stopReason: 'end_turn' }, 'completed', undefined],
    [{ stopReason: 'tool_use' }, 'completed', undefined],
    [{}, 'completed', undefined],
  ];
  for (const [end, status, detail] of ends) {
    const text = await enforce(contract, scripted([asText(good, end)]).model, { maxRetries: 0 });
    const streamed = await enforce(contract, scripted([asStream(good, end)]).model, { maxRetries: 0 });
    assert.equal(text.status, status, JSON.stringify(end));
    assert.deepEqual(text, streamed, JSON.stringify(end));
    if (status === 'failed') assert.equal(text.validation_error.violations[0].keyword, detail);
    if (status === 'refused') assert.equal(text.refusal, detail);
  }
});

test('enforce: an unknown stop reason is an error for text answers as for streamed ones', async () => {
  for (const answer of [asText(good, { stopReason: 'exploded' }), asStream(good, { stopReason: 'exploded' })]) {
    await assert.rejects(enforce(contract, scripted([answer]).model), (e) => e instanceof Error && e.name === 'OptionError' && /^stopReason must be .* got "exploded"$/.test(e.message));
  }
});

test('enforce: a failure the model cannot repair is final with retries left', async () => {
  const small = Contract.compile(schema, { maxOutputBytes: 100 });
  const big = JSON.stringify({ summary: 'x'.repeat(200), approval: 'approve' });
  for (const answer of [asText(big), asStream(big)]) {
    const { model, calls } = scripted([answer]);
    const result = await enforce(small, model, { maxRetries: 3 });
    assert.equal(calls.length, 1);
    assert.equal(result.status, 'failed');
    assert.equal(result.attempts, 1);
    assert.equal(result.error.message, 'Output did not match schema after 0 retries');
    assert.equal(result.validation_error.violations[0].keyword, 'maxOutputBytes');
    assert.equal(result.validation_error.retryable, false);
  }
});

test('enforce: maxRetries is checked before the model is called', async () => {
  for (const maxRetries of [-1, 1.5, '1', null]) {
    const { model, calls } = scripted([good]);
    await assert.rejects(enforce(contract, model, { maxRetries }), TypeError);
    assert.equal(calls.length, 0);
  }
});
