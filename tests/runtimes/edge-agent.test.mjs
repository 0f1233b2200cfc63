// examples/edge-agent under workerd, end to end against a fake model server on 127.0.0.1 that
// replays scripted SSE streams: valid; invalid then valid; invalid twice; refusal; a stream that
// goes wrong early (the agent must cancel the upstream request before it finishes).
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
const blueprint = JSON.parse(readFileSync(`${root}examples/code-analyzer/blueprint.json`, 'utf8'));

const valid = JSON.stringify({ files_analyzed: 12, issues: [{ file: 'src/a.rs', severity: 'high', message: 'unchecked index' }] }, null, 2);
const invalid = valid.replace('"high"', '"critical"');
const early = `{"files_analyzed": "twelve", "issues": [${Array.from({ length: 40 }, (_, i) => `{"file": "f${i}.rs", "severity": "low", "message": "m"}`).join(', ')}]}`;
// Per scenario, what the model answers on each attempt.
const scripts = {
  valid: [{ text: valid }],
  fixed: [{ text: invalid }, { text: valid }],
  twice: [{ text: invalid }, { text: invalid }],
  refusal: [{ refusal: 'I cannot analyze this repository.' }],
  early: [{ text: early, slow: true }, { text: valid }],
};
const requests = [];

let model;
let agent;
let agentUrl;

function chunks(text, size) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

before(async () => {
  model = createServer(async (req, res) => {
    let body = '';
    for await (const part of req) body += part;
    const { messages } = JSON.parse(body);
    const task = messages.at(messages.length > 2 ? 1 : -1).content;
    const attempt = messages.filter((m) => m.role === 'assistant').length;
    const step = scripts[task][attempt];
    const record = { task, attempt: attempt + 1, sent: 0, total: 0, finished: false, closedEarly: false };
    requests.push(record);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.on('close', () => {
      if (!record.finished) record.closedEarly = true;
    });
    const send = (data) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    if (step.refusal) {
      for (const piece of chunks(step.refusal, 8)) send({ refusal_delta: piece });
      send({ stop: 'refusal', refusal: step.refusal });
    } else {
      const pieces = chunks(step.text, 12);
      record.total = pieces.length;
      for (const piece of pieces) {
        if (res.destroyed) return;
        send({ delta: piece });
        record.sent += 1;
        if (step.slow) await new Promise((resolve) => setTimeout(resolve, 15));
      }
      send({ stop: 'stop' });
    }
    record.finished = true;
    res.end('data: [DONE]\n\n');
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
  copyFileSync(`${root}pkg/wasm/output_contract_bg.wasm`, `${dir}/output_contract_bg.wasm`);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const config = readFileSync(`${root}examples/edge-agent/workerd.capnp`, 'utf8')
    .replace('127.0.0.1:PORT', `127.0.0.1:${port}`)
    .replace('MODEL_URL_VALUE', `http://127.0.0.1:${model.address().port}/v1/stream`);
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

async function run(task) {
  const res = await fetch(agentUrl, { method: 'POST', body: JSON.stringify({ blueprint, task }) });
  return res.json();
}

test('valid on the first attempt: result_data', { timeout: 30_000 }, async () => {
  const r = await run('valid');
  assert.equal(r.status, 'completed');
  assert.deepEqual(r.result_data, JSON.parse(valid));
  assert.equal(r.attempts, 1);
});

test('invalid, then fixed after the retry prompt', { timeout: 30_000 }, async () => {
  const r = await run('fixed');
  assert.equal(r.status, 'completed');
  assert.equal(r.attempts, 2);
  // 'critical' cannot become an allowed severity once its string is closed: cut off early.
  assert.deepEqual(r.attempt_log.map((a) => a.outcome), ['aborted', 'valid']);
});

test('invalid twice: the seed 000 failure envelope', { timeout: 30_000 }, async () => {
  const r = await run('twice');
  assert.equal(r.status, 'failed');
  assert.equal(r.error.type, 'output_schema_validation_failed');
  assert.equal(r.validation_error.violations[0].path, '$.issues[0].severity');
  assert.equal(r.validation_error.retryable, false);
  assert.equal(r.attempts, 2);
});

test('refusal: an outcome, not a failure', { timeout: 30_000 }, async () => {
  const r = await run('refusal');
  assert.equal(r.status, 'refused');
  assert.equal(r.refusal, 'I cannot analyze this repository.');
});

test('a stream that goes wrong early: upstream cancelled, retried, completed', { timeout: 30_000 }, async () => {
  const r = await run('early');
  assert.equal(r.status, 'completed');
  assert.deepEqual(r.attempt_log.map((a) => a.outcome), ['aborted', 'valid']);
  const first = requests.find((q) => q.task === 'early' && q.attempt === 1);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(first.finished, false, 'the model server never finished the first stream');
  assert.ok(first.closedEarly, 'the agent closed the upstream request');
  assert.ok(first.sent < first.total / 2, `cancelled after ${first.sent} of ${first.total} chunks`);
});
