// The executor toolkit through the npm package: extraction (the shared table, UTF-16 offsets),
// the default prompt texts, submit_result tools, tool-call validation, config checks, enforce()
// with scripted models, and the adapters with the real packages (ai, @modelcontextprotocol/sdk).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  Contract,
  ready,
  extractJson,
  enrichSystemPrompt,
  retryPrompt,
  toolFeedback,
  submitResultTool,
  checkOutputSchemaConfig,
  enforce,
  McpJsonSchemaValidator,
} from 'output-contract';
import { toAiSdkSchema } from 'output-contract/ai';
import { generateText, streamText, Output, NoObjectGeneratedError } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';

await ready;

const corpus = (name) => JSON.parse(readFileSync(new URL(`../corpus/${name}`, import.meta.url), 'utf8'));

const prReviewer = {
  type: 'object',
  properties: {
    summary: { type: 'string', minLength: 10 },
    approval: { type: 'string', enum: ['approve', 'request_changes', 'comment'] },
    comments: {
      type: 'array',
      items: { type: 'object', properties: { file: { type: 'string' }, line: { type: 'integer', minimum: 1 } }, required: ['file'] },
    },
  },
  required: ['summary', 'approval'],
};
const valid = { summary: 'Looks good to me overall.', approval: 'approve' };

test('extractJson: every case of the shared table, offsets as JS string indices', () => {
  const cases = corpus('extract.json');
  assert.ok(cases.length >= 40);
  for (const c of cases) {
    const got = extractJson(c.text, { repair: c.repair === true });
    assert.equal(got.found, c.expect.found, c.name);
    if (got.found) {
      assert.deepEqual(got.value, c.expect.value, c.name);
      if (got.repairs.length === 0) assert.equal(c.text.slice(got.start, got.end), got.json, `${c.name}: slice`);
      const skipped = got.skipped.reduce((n, s) => n + (s.end - s.start), 0);
      assert.equal(skipped + got.end - got.start, c.text.length, `${c.name}: skipped + value = text`);
      if (c.expect.fence !== undefined) assert.equal(got.fence, c.expect.fence, c.name);
      if (c.expect.repairs) assert.deepEqual(got.repairs.map((r) => r.kind), c.expect.repairs, c.name);
    } else {
      assert.equal(got.error.kind, c.expect.error, `${c.name}: ${got.error.message}`);
      assert.equal(got.value, null, c.name);
    }
  }
});

test('extractJson: UTF-16 offsets past astral characters, repairs listed', () => {
  const text = '😀 Résumé:\n```json\n{"a": "é", "b": [1,],}\n```';
  const got = extractJson(text, { repair: true });
  assert.deepEqual(got.value, { a: 'é', b: [1] });
  assert.equal(text.slice(got.start, got.end), '{"a": "é", "b": [1,],}');
  assert.deepEqual(got.repairs.map((r) => [r.kind, text.slice(r.start, r.end)]), [['trailing_comma', ','], ['trailing_comma', ',']]);
  assert.equal(got.fence, 'json');
  const none = extractJson('```json\n{"a": 1,}\n```');
  assert.equal(none.found, false);
  assert.equal(none.error.kind, 'invalid_json');
});

test('validateText with extract: data, extraction and the canonical error', () => {
  const contract = Contract.compile(prReviewer);
  const ok = contract.validateText(`Here you go:\n\`\`\`json\n${JSON.stringify(valid)}\n\`\`\`\nThanks!`, { extract: true });
  assert.equal(ok.valid, true);
  assert.deepEqual(ok.data, valid);
  assert.equal(ok.extraction.fence, 'json');
  const bad = contract.validateText('Sure! {"summary": "short", "approval": "maybe"}', { extract: true });
  assert.equal(bad.valid, false);
  assert.deepEqual(bad.error.violations.map((v) => `${v.path}: ${v.message}`), [
    "$.summary: a string of 5 characters is shorter than 10",
    "$.approval: 'maybe' is not one of ['approve', 'request_changes', 'comment']",
  ]);
  assert.equal(bad.error.raw_output, 'Sure! {"summary": "short", "approval": "maybe"}');
  const none = contract.validateText('I cannot help with that.', { extract: true });
  assert.deepEqual(none.error.violations.map((v) => [v.path, v.keyword, v.message]), [['$', 'json', 'No JSON output found but output_schema requires structured output']]);
});

test('prompts: the exact default texts, templates overridable', () => {
  const c = corpus('prompts.json');
  for (const e of c.enrich) assert.equal(enrichSystemPrompt(e.systemPrompt, e.schema), e.expected);
  for (const r of c.retry) assert.equal(retryPrompt(r.violations, r.schema), r.expected);
  // The default texts name `task_output` where they give no tool.
  for (const f of c.toolFeedback) assert.equal(toolFeedback(f.violations, { tool: f.tool ?? 'task_output' }), f.expected);
  // From a validation result and a canonical error, too.
  const contract = Contract.compile(prReviewer);
  const result = contract.validate({ summary: 'short', approval: 'approve' });
  assert.equal(toolFeedback(result), "## Validation Failed\n\nYour output does not match the expected schema:\n\n1. **$.summary**: a string of 5 characters is shorter than 10\n\nPlease fix these issues and call `submit_result` again.");
  // The tool the caller declared, by the name it gave it.
  const named = submitResultTool(prReviewer, { name: 'record_review' });
  assert.ok(toolFeedback(result, { tool: named.tool.name }).endsWith('call `record_review` again.'));
  assert.equal(toolFeedback(result, { tool: submitResultTool(prReviewer).tool.name }), toolFeedback(result));
  assert.equal(toolFeedback(contract.validate(valid)), 'Output validated successfully. You may now complete the task.');
  assert.ok(retryPrompt(result.error, prReviewer).includes("- $.summary: a string of 5 characters is shorter than 10\n"));
  assert.equal(retryPrompt(result, { type: 'object' }, { templates: { retry: 'Fix:\n{errors}', retryLine: '* {keyword} at {path}' } }), 'Fix:\n* minLength at $.summary');
  assert.throws(() => enrichSystemPrompt('s', {}, { templates: { nope: 'x' } }), /unknown option templates.nope/);
});

test('submitResultTool: OpenAI strict normalisation, Anthropic and generic shapes', () => {
  const openai = submitResultTool(prReviewer, { provider: 'openai' });
  assert.equal(openai.tool.type, 'function');
  assert.equal(openai.tool.function.strict, true);
  assert.equal(openai.tool.function.name, 'submit_result');
  const p = openai.tool.function.parameters;
  assert.deepEqual(p.required, ['summary', 'approval', 'comments']);
  assert.equal(p.additionalProperties, false);
  assert.deepEqual(p.properties.comments.type, ['array', 'null']);
  assert.equal(p.properties.comments.items.additionalProperties, false);
  assert.equal(p.properties.summary.minLength, undefined);
  assert.deepEqual(openai.changes.find((c) => c.pointer === '/properties/summary/minLength')?.kind, 'dropped_keyword');
  assert.deepEqual(openai.validateOptions, { nullAsAbsent: true });
  const anthropic = submitResultTool(prReviewer, { provider: 'anthropic', name: 'task_output', description: 'Submit the task output.' });
  assert.deepEqual(anthropic.tool, { name: 'task_output', description: 'Submit the task output.', input_schema: prReviewer });
  assert.deepEqual(submitResultTool(prReviewer).tool.parameters, prReviewer);
  assert.throws(() => submitResultTool(prReviewer, { provider: 'gemini' }), /provider must be "openai", "anthropic" or "generic", got "gemini"/);
});

test('validateToolCall: JSON text or object, strict-mode nulls read as absent', () => {
  const contract = Contract.compile(prReviewer);
  const args = '{"summary": "Looks good to me overall.", "approval": "approve", "comments": [{"file": "a.rs", "line": null}]}';
  const { validateOptions } = submitResultTool(prReviewer, { provider: 'openai' });
  const ok = contract.validateToolCall(args, validateOptions);
  assert.deepEqual(ok, { valid: true, data: { ...valid, comments: [{ file: 'a.rs' }] } });
  const strictNull = contract.validateToolCall({ ...valid, comments: null }, validateOptions);
  assert.deepEqual(strictNull.data, valid);
  const bad = contract.validateToolCall(args);
  assert.deepEqual(bad.error.violations.map((v) => v.path), ['$.comments[0].line']);
  assert.equal(contract.validateToolCall('{"summary": ').error.violations[0].keyword, 'truncated');
  // No arguments: a retryable failure, as empty text is; a value JSON cannot carry: a TypeError.
  const none = contract.validateToolCall(undefined);
  assert.deepEqual([none.valid, none.error.violations[0].keyword, none.error.retryable], [false, 'json', true]);
  assert.throws(() => contract.validateToolCall({ ...valid, risk: NaN }), (e) => e instanceof TypeError && e.message === '$.risk: NaN is not a JSON value');
  // Arguments arriving as deltas, through contract.stream().
  const stream = contract.stream({ maxRetries: 0, ...validateOptions });
  for (let i = 0; i < args.length; i += 5) assert.deepEqual(stream.push(args.slice(i, i + 5)).earlyViolations, []);
  assert.deepEqual(stream.finish({ stopReason: 'tool_use' }), { state: 'soft-complete', valid: true, data: { ...valid, comments: [{ file: 'a.rs' }] }, attempt: 1 });
});

test('checkOutputSchemaConfig: the configuration checks as diagnostics', () => {
  assert.deepEqual(checkOutputSchemaConfig(prReviewer), []);
  assert.deepEqual(checkOutputSchemaConfig({ type: 'array' }).map((d) => d.code), ['root_not_object', 'no_properties']);
  const broken = checkOutputSchemaConfig({ type: 'object', properties: { a: { type: 'strng' } } });
  assert.equal(broken[0].code, 'invalid_schema');
  assert.equal(broken[0].issues[0].pointer, '/properties/a/type');
  assert.equal(checkOutputSchemaConfig('{"type": ').at(-1).code, 'invalid_schema');
});

test('Standard Schema v1: ~standard validate with issues and paths', () => {
  const contract = Contract.compile(prReviewer);
  const std = contract['~standard'];
  assert.equal(std.version, 1);
  assert.equal(std.vendor, 'output-contract');
  assert.deepEqual(std.validate(valid), { value: valid });
  const { issues } = std.validate({ summary: 'Long enough summary.', approval: 'approve', comments: [{ file: 'a', line: 0 }] });
  assert.deepEqual(issues, [{ message: '0 is less than minimum 1', path: ['comments', 0, 'line'] }]);
  assert.deepEqual(std.jsonSchema.input(), prReviewer);
});

// A scripted model: answers in order; records the conversations it was given.
function scripted(answers) {
  const calls = [];
  const model = async (messages, { attempt }) => {
    calls.push({ attempt, messages });
    const a = answers[Math.min(attempt - 1, answers.length - 1)];
    return typeof a === 'function' ? a() : a;
  };
  return { model, calls };
}

async function* deltas(text, size = 7) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

test('enforce: enrich, validate, retry once in the same conversation, envelopes', async () => {
  const contract = Contract.compile(prReviewer);
  const events = [];
  const fixed = scripted(['Here it is: {"summary": "short", "approval": "approve"}', `\`\`\`json\n${JSON.stringify(valid)}\n\`\`\``]);
  const done = await enforce(contract, fixed.model, { systemPrompt: 'You review PRs.', task: 'Review #42', onAttempt: (e) => events.push(e) });
  assert.deepEqual(done, { status: 'completed', result_data: valid, attempts: 2 });
  assert.equal(fixed.calls[0].messages[0].content, enrichSystemPrompt('You review PRs.', prReviewer));
  assert.deepEqual(fixed.calls[0].messages[1], { role: 'user', content: 'Review #42' });
  const second = fixed.calls[1].messages;
  assert.equal(second.length, 4);
  assert.equal(second[2].role, 'assistant');
  assert.ok(second[3].content.startsWith("<output-validation-error>\nYour output did not match the required schema.\n\n## Validation Errors\n- $.summary: a string of 5 characters is shorter than 10\n"));
  assert.deepEqual(events.map((e) => [e.attempt, e.outcome, e.keywords]), [[1, 'invalid', ['minLength']], [2, 'valid', []]]);

  const twice = await enforce(contract, scripted(['{"summary": "short", "approval": "approve"}']).model);
  assert.equal(twice.status, 'failed');
  assert.deepEqual(twice.error, {
    type: 'output_schema_validation_failed',
    message: 'Output did not match schema after 1 retry',
    validation_errors: ["$.summary: a string of 5 characters is shorter than 10"],
  });
  assert.equal(twice.attempts, 2);
  assert.equal(twice.validation_error.retryable, false);

  const refused = await enforce(contract, scripted([{ text: '', stopReason: 'refusal', refusal: 'I cannot help with that.' }]).model);
  assert.deepEqual(refused, { status: 'refused', refusal: 'I cannot help with that.', attempts: 1 });

  const noRetry = await enforce(contract, scripted(['nope']).model, { maxRetries: 0 });
  assert.equal(noRetry.attempts, 1);
  assert.equal(noRetry.error.message, 'Output did not match schema after 0 retries');
});

test('enforce: streamed answers, early abort cancels the upstream, refusals', async () => {
  const contract = Contract.compile(prReviewer);
  let cancelled = false;
  let produced = 0;
  async function* wrong() {
    try {
      const text = '{"approval": "maybe", "summary": "' + 'x'.repeat(2000) + '"}';
      for (let i = 0; i < text.length; i += 10) {
        produced += 10;
        yield text.slice(i, i + 10);
      }
    } finally {
      cancelled = true;
    }
  }
  const events = [];
  const result = await enforce(contract, scripted([wrong, () => ({ stream: deltas(JSON.stringify(valid)), end: () => ({ stopReason: 'stop' }) })]).model, {
    abortOnEarlyViolation: true,
    onAttempt: (e) => events.push(e),
  });
  assert.deepEqual(result, { status: 'completed', result_data: valid, attempts: 2 });
  assert.ok(cancelled && produced < 100, `upstream stopped after ${produced} bytes`);
  assert.deepEqual(events.map((e) => [e.outcome, e.streamed]), [['aborted', true], ['valid', true]]);

  // Prose braces before the fenced answer: the stream's first-bracket parse breaks, the whole
  // text is extracted as a text answer would be.
  const prose = `Fill {name} in the template.\n\`\`\`json\n${JSON.stringify(valid)}\n\`\`\``;
  assert.deepEqual(await enforce(contract, scripted([() => deltas(prose)]).model), { status: 'completed', result_data: valid, attempts: 1 });

  const refusal = await enforce(contract, scripted([() => ({ stream: deltas(''), end: () => ({ stopReason: 'refusal', refusal: 'No.' }) })]).model);
  assert.deepEqual(refusal, { status: 'refused', refusal: 'No.', attempts: 1 });

  const truncated = await enforce(contract, scripted([() => deltas('{"summary": "Looks good to me')]).model, { maxRetries: 0 });
  assert.equal(truncated.status, 'failed');
  assert.equal(truncated.validation_error.violations[0].keyword, 'truncated');
});

test('success rate without vs with enforcement, as text and streamed (fixture script)', async () => {
  const { run } = await import('./enforce-fixture.mjs');
  const fiveMistakes = (rows) => rows.find(([name]) => name === 'five mistakes')[2];
  const text = await run({ quiet: true });
  assert.ok(text.without <= 0.6, `baseline ${text.without}`);
  assert.ok(text.withEnforce >= 0.95, `with enforcement ${text.withEnforce}`);
  // Streamed, the default reads a bad answer to its end: the retry names all five mistakes.
  const streamed = await run({ quiet: true, streamed: true });
  assert.equal(streamed.withEnforce, text.withEnforce);
  assert.equal(fiveMistakes(streamed.rows), 'completed');
  // Cut at the first early violation, the retry names one mistake of five.
  const cut = await run({ quiet: true, streamed: true, abortOnEarlyViolation: true });
  assert.equal(fiveMistakes(cut.rows), 'failed');
  assert.ok(cut.withEnforce < streamed.withEnforce);
});

test('AI SDK: generateText and streamText with Output.object validate through the contract', async () => {
  const contract = Contract.compile(prReviewer);
  const schema = toAiSdkSchema(contract);
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
  const generate = (text) =>
    new MockLanguageModelV3({
      doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }),
    });
  const ok = await generateText({ model: generate(JSON.stringify(valid)), prompt: 'review', output: Output.object({ schema }) });
  assert.deepEqual(ok.output, valid);
  await assert.rejects(
    generateText({ model: generate('{"summary": "short", "approval": "approve"}'), prompt: 'review', output: Output.object({ schema }) }),
    (e) => NoObjectGeneratedError.isInstance(e) && /a string of 5 characters is shorter than 10/.test(e.cause?.message ?? e.message),
  );
  // A Contract is itself a Standard Schema with JSON Schema: the SDK takes it as it is.
  const direct = await generateText({ model: generate(JSON.stringify(valid)), prompt: 'review', output: Output.object({ schema: contract }) });
  assert.deepEqual(direct.output, valid);

  const text = JSON.stringify(valid);
  const chunks = [{ type: 'text-start', id: '1' }];
  for (let i = 0; i < text.length; i += 8) chunks.push({ type: 'text-delta', id: '1', delta: text.slice(i, i + 8) });
  chunks.push({ type: 'text-end', id: '1' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
  const streaming = new MockLanguageModelV3({ doStream: async () => ({ stream: simulateReadableStream({ chunks }) }) });
  const result = streamText({ model: streaming, prompt: 'review', output: Output.object({ schema }) });
  const partials = [];
  for await (const p of result.partialOutputStream) partials.push(p);
  assert.ok(partials.length > 1);
  assert.deepEqual(await result.output, valid);
});

test('MCP: the SDK client validates structured tool output with McpJsonSchemaValidator', async () => {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const { ListToolsRequestSchema, CallToolRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  const validator = new McpJsonSchemaValidator();
  const outputSchema = { type: 'object', properties: { approval: { type: 'string', enum: ['approve', 'comment'] } }, required: ['approval'] };
  const server = new Server({ name: 'reviewer', version: '1.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: validator });
  let reply = { approval: 'approve' };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'review', description: 'Review', inputSchema: { type: 'object' }, outputSchema }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: JSON.stringify(reply) }], structuredContent: reply }));
  const client = new Client({ name: 'agent', version: '1.0.0' }, { jsonSchemaValidator: validator });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  await client.listTools();
  const ok = await client.callTool({ name: 'review', arguments: {} });
  assert.deepEqual(ok.structuredContent, { approval: 'approve' });
  reply = { approval: 'maybe' };
  await assert.rejects(client.callTool({ name: 'review', arguments: {} }), /\$\.approval: 'maybe' is not one of/);
  // The validator on its own, as the interface describes it.
  const check = validator.getValidator(outputSchema);
  assert.deepEqual(check({ approval: 'comment' }), { valid: true, data: { approval: 'comment' }, errorMessage: undefined });
  assert.equal(check({}).valid, false);
  await client.close();
});
