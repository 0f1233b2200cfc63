// The package in Cloudflare's workerd (npm `workerd`): the worker (tests/runtimes/worker.mjs) is
// bundled with the `workerd` export condition, the package's .wasm is a `wasm` module of the
// config (workerd refuses to compile WebAssembly from bytes), and the contract is compiled at
// global scope, where workerd forbids random values. Served on 127.0.0.1, checked over HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = `${root}target/workerd`;
const read = (p) => readFileSync(`${root}${p}`, 'utf8');

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

test('workerd: compile at global scope, validate, stream, schema error', { timeout: 60_000 }, async () => {
  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: [`${root}tests/runtimes/worker.mjs`],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker'],
    external: ['*.wasm'],
    loader: { '.txt': 'text', '.json': 'text' },
    outfile: `${dir}/worker.js`,
    logLevel: 'warning',
  });
  const bundle = readFileSync(`${dir}/worker.js`, 'utf8');
  assert.ok(!/\bnew Function\b|\beval\(/.test(bundle), 'no code generation in the bundle');
  assert.ok(!/WebAssembly\.(compile|Module)\(/.test(bundle.replace(/function initSync[\s\S]*?\n}\n/, '')), 'no compiling from bytes on the workerd path');
  copyFileSync(`${root}pkg/wasm/output_contract_bg.wasm`, `${dir}/output_contract_bg.wasm`);
  const port = await freePort();
  writeFileSync(`${dir}/config.capnp`, read('tests/runtimes/workerd.capnp.in').replace('127.0.0.1:PORT', `127.0.0.1:${port}`));

  const server = spawn(`${root}node_modules/.bin/workerd`, ['serve', 'config.capnp'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  server.stdout.on('data', (d) => (log += d));
  server.stderr.on('data', (d) => (log += d));
  try {
    let body;
    for (let i = 0; i < 100 && body === undefined; i++) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`);
        body = await res.text();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    assert.ok(body !== undefined, `workerd did not answer: ${log}`);
    let result;
    try {
      result = JSON.parse(body);
    } catch {
      assert.fail(`not JSON: ${body}\n${log}`);
    }
    assert.equal(result.globalRandom, 'forbidden', 'workerd refuses random values at global scope');
    assert.equal(result.globalScopeCompile, true, 'a contract compiled there works');
    assert.equal(result.ok, true, body);
  } finally {
    server.kill();
  }
});
