// output-contract/ai's validateAiSdkStream with the AI SDK's own streamText over its mock
// language model: text deltas, the submit tool's input deltas (text before the call left out),
// a tool call sent whole, finish reasons (length: truncated; content-filter: refused), an error
// part, and the early abort through the caller's AbortController.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { jsonSchema, simulateReadableStream, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Contract } from 'output-contract';
import { validateAiSdkStream } from 'output-contract/ai';

const { schema, transcripts } = JSON.parse(readFileSync(new URL('../fixtures/providers/expected.json', import.meta.url), 'utf8'));
const contract = Contract.compile(schema);
const answer = transcripts['anthropic-tool.sse'].data;
const usage = { inputTokens: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 30, text: 30, reasoning: 0 } };
const finish = (unified, raw = unified) => ({ type: 'finish', finishReason: { unified, raw }, usage });
const pieces = (text, size) => text.match(new RegExp(`[^]{1,${size}}`, 'g')) ?? [];

const textParts = (text) => [{ type: 'text-start', id: 't' }, ...pieces(text, 7).map((delta) => ({ type: 'text-delta', id: 't', delta })), { type: 'text-end', id: 't' }];
const toolParts = (input, id = 'call_1', name = 'submit_result') => [
  { type: 'tool-input-start', id, toolName: name },
  ...pieces(input, 6).map((delta) => ({ type: 'tool-input-delta', id, delta })),
  { type: 'tool-input-end', id },
  { type: 'tool-call', toolCallId: id, toolName: name, input },
];

// streamText over a mock model that streams `chunks`, slowly when `delay` is set; `pulled`
// counts the chunks the model handed out. Like a provider whose fetch is given the call's abort
// signal, the model stops streaming once that signal is aborted (streamText itself keeps reading
// its model's stream, so without this the count would depend on timers).
function run(chunks, { delay, abortController } = {}) {
  const record = { pulled: 0 };
  const model = new MockLanguageModelV3({
    doStream: async ({ abortSignal }) => ({
      stream: simulateReadableStream({ chunks: [{ type: 'stream-start', warnings: [] }, ...chunks], chunkDelayInMs: delay ?? null }).pipeThrough(
        new TransformStream({
          transform(c, controller) {
            if (abortSignal?.aborted) {
              controller.terminate();
              return;
            }
            record.pulled++;
            controller.enqueue(c);
          },
        }),
      ),
    }),
  });
  const tools = { submit_result: tool({ inputSchema: jsonSchema(schema) }), get_weather: tool({ inputSchema: jsonSchema({ type: 'object' }) }) };
  const result = streamText({ model, prompt: 'Weather in Zürich?', tools, abortSignal: abortController?.signal, onError: () => {} });
  return { fullStream: result.fullStream, record };
}

test('text deltas: the JSON in the answer, with the finish reason and usage', async () => {
  const { fullStream } = run([...textParts('Here it is:\n```json\n' + JSON.stringify(answer) + '\n```'), finish('stop')]);
  const outcome = await validateAiSdkStream(contract, fullStream);
  assert.equal(outcome.valid, true);
  assert.deepEqual(outcome.data, answer);
  assert.equal(outcome.finishReason, 'stop');
  assert.equal(outcome.usage.outputTokens, 30);
});

test("the submit tool's input deltas are the output; text before the call and other calls are not", async () => {
  const chunks = [...textParts('Let me {check} first.'), ...toolParts('{"location": "Zürich"}', 'call_0', 'get_weather'), ...toolParts(JSON.stringify(answer)), finish('tool-calls', 'tool_use')];
  const outcome = await validateAiSdkStream(contract, run(chunks).fullStream, { tool: 'submit_result' });
  assert.deepEqual(outcome.data, answer);
  assert.deepEqual([outcome.finishReason, outcome.rawFinishReason], ['tool-calls', 'tool_use']);
  // Without the call, the text is the answer.
  const text = await validateAiSdkStream(contract, run([...textParts(JSON.stringify(answer)), finish('stop')]).fullStream, { tool: 'submit_result' });
  assert.deepEqual(text.data, answer);
});

test('without tool, a call to submit_result is the answer: the text before it is read, then left', async () => {
  const chunks = [...textParts('Let me {check} first.'), ...toolParts('{"location": "Zürich"}', 'call_0', 'get_weather'), ...toolParts(JSON.stringify(answer)), ...textParts('Done.'), finish('tool-calls', 'tool_use')];
  const outcome = await validateAiSdkStream(contract, run(chunks).fullStream);
  assert.equal(outcome.valid, true);
  assert.deepEqual(outcome.data, answer);
  // A call sent whole, without input deltas.
  const whole = await validateAiSdkStream(contract, run([{ type: 'tool-call', toolCallId: 'c', toolName: 'submit_result', input: JSON.stringify(answer) }, finish('tool-calls')]).fullStream);
  assert.deepEqual(whole.data, answer);
});

test('length is a truncated answer, content-filter a refusal, an error part rejects', async () => {
  const cut = await validateAiSdkStream(contract, run([...toolParts(JSON.stringify(answer).slice(0, 30)).slice(0, -1), finish('length', 'max_tokens')]).fullStream, { tool: 'submit_result', maxRetries: 0 });
  assert.equal(cut.state, 'hard-complete');
  assert.equal(cut.error.violations[0].keyword, 'truncated');
  const filtered = await validateAiSdkStream(contract, run([...textParts('{"city": "'), finish('content-filter')]).fullStream);
  assert.equal(filtered.state, 'refused');
  const failing = run([...textParts('{"ci'), { type: 'error', error: new Error('overloaded') }]).fullStream;
  await assert.rejects(validateAiSdkStream(contract, failing), /overloaded/);
});

test("an early violation aborts the request through the caller's AbortController", async () => {
  const bad = JSON.stringify({ city: 'Oslo', temperature_c: -3, conditions: 'hail', notes: Array.from({ length: 30 }, (_, i) => `note ${i}`) });
  const chunks = [...toolParts(bad), finish('tool-calls')];
  const abortController = new AbortController();
  const { fullStream, record } = run(chunks, { delay: 2, abortController });
  const statuses = [];
  const outcome = await validateAiSdkStream(contract, fullStream, { tool: 'submit_result', abortController, abortOnEarlyViolation: true, onStatus: (s) => statuses.push(s) });
  assert.equal(abortController.signal.aborted, true);
  assert.equal(statuses.at(-1).aborted, true);
  assert.equal(outcome.violations[0].keyword, 'enum');
  assert.equal(outcome.finishReason, null);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(record.pulled < chunks.length / 2, `the model streamed ${record.pulled} of ${chunks.length} parts`);
});
