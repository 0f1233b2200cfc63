// examples/edge-agent under workerd, end to end against a fake model provider on 127.0.0.1 that
// answers the real OpenAI Chat Completions, OpenAI Responses and Anthropic Messages endpoints by
// replaying the recorded transcripts of tests/fixtures/providers: a tool call; a bad call cut at
// its first early violation (the upstream request must be cancelled before it finishes), then a
// good one; a refusal; a token limit then a retry; a provider error event; a cut connection.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = `${root}target/edge-agent`;
const workerd = `${root}node_modules/.bin/workerd`;
const fixtures = `${root}tests/fixtures/providers/`;
const { schema, transcripts } = JSON.parse(readFileSync(`${fixtures}expected.json`, 'utf8'));
const blueprint = { name: 'weather', system_prompt: 'You report the weather.', output_schema: schema };

// Per scenario (the task), the transcript replayed on each attempt; `slow` sends it in small
// pieces with pauses, so that an upstream cut shows.
const scenarios = {
  'anthropic-valid': ['anthropic-multi-block.sse'],
  'openai-valid': ['openai-chat-tool.sse'],
  'responses-valid': ['openai-responses-tool.sse'],
  'anthropic-fixed': [{ file: 'anthropic-invalid.sse', slow: true }, 'anthropic-tool.sse'],
  'openai-fixed': [{ file: 'openai-chat-tool-invalid.sse', slow: true }, 'openai-chat-tool.sse'],
  'openai-refusal': ['openai-chat-refusal.sse'],
  'anthropic-max-tokens': ['anthropic-max-tokens.sse', 'anthropic-tool.sse'],
  'anthropic-error': ['anthropic-error.sse'],
  'openai-cut': ['openai-chat-cut.sse'],
};
const paths = { 'openai-chat': '/v1/chat/completions', 'openai-responses': '/v1/responses', anthropic: '/v1/messages' };
const requests = [];

let model;
let agent;
let agentUrl;

// The task and attempt of a provider request, from the conversation as each API carries it.
function taskOf(path, body) {
  if (path === paths.anthropic) {
    assert.equal(typeof body.system, 'string');
    assert.equal(body.tool_choice.name, 'submit_result');
    assert.ok(Number.isInteger(body.max_tokens));
    return { task: body.messages[0].content, attempt: body.messages.filter((m) => m.role === 'assistant').length + 1 };
  }
  if (path === paths['openai-responses']) {
    assert.equal(body.tool_choice.name, 'submit_result');
    return { task: body.input[0].content, attempt: body.input.filter((m) => m.role === 'assistant').length + 1 };
  }
  assert.equal(body.messages[0].role, 'system');
  assert.equal(body.tool_choice.function.name, 'submit_result');
  return { task: body.messages[1].content, attempt: body.messages.filter((m) => m.role === 'assistant').length + 1 };
}

before(async () => {
  model = createServer(async (req, res) => {
    let text = '';
    for await (const part of req) text += part;
    const body = JSON.parse(text);
    assert.equal(body.stream, true);
    const { task, attempt } = taskOf(req.url, body);
    const step = scenarios[task][attempt - 1];
    const { file, slow } = typeof step === 'string' ? { file: step, slow: false } : step;
    const bytes = readFileSync(fixtures + file);
    const size = slow ? 48 : 512;
    const record = { task, attempt, file, sent: 0, total: Math.ceil(bytes.length / size), finished: false, closedEarly: false };
    requests.push(record);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.on('close', () => {
      if (!record.finished) record.closedEarly = true;
    });
    for (let i = 0; i < bytes.length; i += size) {
      if (res.destroyed) return;
      res.write(bytes.subarray(i, i + size));
      record.sent += 1;
      if (slow) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    record.finished = true;
    // A cut transcript ends mid-event: the body ends before the provider said the answer did.
    res.end();
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => model.once('listening', resolve));

  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: [`${root}examples/edge-agent/worker.mjs`],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker'],
    external: ['*.wasm'],
    outfile: `${dir}/worker.js`,
    logLevel: 'warning',
  });
  for (const file of ['output_contract_bg.wasm', 'output_contract_tools_bg.wasm']) copyFileSync(`${root}pkg/wasm/${file}`, `${dir}/${file}`);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const config = readFileSync(`${root}examples/edge-agent/workerd.capnp`, 'utf8')
    .replace('127.0.0.1:PORT', `127.0.0.1:${port}`)
    .replace('MODEL_URL_VALUE', `http://127.0.0.1:${model.address().port}`)
    .replace('PROVIDER_VALUE', 'openai-chat');
  writeFileSync(`${dir}/workerd.capnp`, config);
  agent = spawn(workerd, ['serve', 'workerd.capnp'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  agentUrl = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(agentUrl);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('workerd did not start');
});

after(() => {
  agent?.kill();
  model?.close();
});

async function run(task, provider) {
  const res = await fetch(agentUrl, { method: 'POST', body: JSON.stringify({ blueprint, task, ...(provider ? { provider } : {}) }) });
  return { httpStatus: res.status, ...(await res.json()) };
}

test('a tool call in each format: result_data (text before the call is not the answer)', { timeout: 30_000 }, async () => {
  for (const [task, provider, file] of [
    ['anthropic-valid', 'anthropic', 'anthropic-multi-block.sse'],
    ['openai-valid', undefined, 'openai-chat-tool.sse'],
    ['responses-valid', 'openai-responses', 'openai-responses-tool.sse'],
  ]) {
    const r = await run(task, provider);
    assert.equal(r.status, 'completed', `${task}: ${JSON.stringify(r)}`);
    assert.deepEqual(r.result_data, transcripts[file].data);
    assert.equal(r.attempts, 1);
  }
});

test('a bad answer is cut upstream at its first early violation, then the retry succeeds', { timeout: 30_000 }, async () => {
  for (const [task, provider] of [['anthropic-fixed', 'anthropic'], ['openai-fixed', 'openai-chat']]) {
    const r = await run(task, provider);
    assert.equal(r.status, 'completed', `${task}: ${JSON.stringify(r)}`);
    assert.deepEqual(r.attempt_log.map((a) => [a.outcome, a.keywords]), [['aborted', ['enum']], ['valid', []]]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const first = requests.find((q) => q.task === task && q.attempt === 1);
    assert.equal(first.finished, false, `${task}: the provider never finished the first stream`);
    assert.ok(first.closedEarly, `${task}: the agent closed the upstream request`);
    assert.ok(first.sent < first.total / 2, `${task}: cancelled after ${first.sent} of ${first.total} pieces`);
  }
});

test('a refusal is an outcome, not a failure', { timeout: 30_000 }, async () => {
  const r = await run('openai-refusal', 'openai-chat');
  assert.equal(r.status, 'refused');
  assert.equal(r.refusal, transcripts['openai-chat-refusal.sse'].refusal);
});

test('a token limit is a truncated answer, retried', { timeout: 30_000 }, async () => {
  const r = await run('anthropic-max-tokens', 'anthropic');
  assert.equal(r.status, 'completed');
  assert.deepEqual(r.attempt_log.map((a) => [a.outcome, a.keywords]), [['invalid', ['truncated']], ['valid', []]]);
});

test('a provider error event and a cut connection are provider errors, never schema failures', { timeout: 30_000 }, async () => {
  const error = await run('anthropic-error', 'anthropic');
  assert.equal(error.httpStatus, 502);
  assert.deepEqual([error.status, error.kind, error.code], ['provider_error', 'provider_error', 'overloaded_error']);
  const cut = await run('openai-cut', 'openai-chat');
  assert.equal(cut.httpStatus, 502);
  assert.deepEqual([cut.status, cut.kind], ['provider_error', 'incomplete_stream']);
});
