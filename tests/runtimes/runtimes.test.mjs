// The packed package (`npm pack pkg/`) installed from its tarball into a throwaway project,
// then the same conformance checks (tests/runtimes/checks.mjs) in each environment: Node ESM and
// CommonJS, Deno and Bun (npm binaries; Deno resolves the `deno` export, Bun the `node` one), and
// Cloudflare workerd — the worker bundled with the `workerd` condition, the package's .wasm a
// `wasm` module (workerd refuses to compile WebAssembly from bytes), a contract compiled at global
// scope where workerd forbids random values, served on 127.0.0.1 and checked over HTTP — and a
// page bundled by Vite from that project (the `browser` export), run in headless Chromium. Each
// also runs a sample of the JSON-Schema-Test-Suite through `validate(value)`.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { build as viteBuild, preview } from 'vite';
import { chromium } from 'playwright-core';
import { jsonFiles, suite } from '../js/suite-files.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pack = `${root}target/pack`;
const app = `${pack}/app`;
const dir = `${root}target/workerd`;
const bin = (name) => `${root}node_modules/.bin/${name}`;
const read = (p) => readFileSync(`${root}${p}`, 'utf8');
const skipIf = (name) => (existsSync(bin(name)) ? false : `${name} is not installed (npm ci installs it)`);

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

before(() => {
  rmSync(pack, { recursive: true, force: true });
  mkdirSync(app, { recursive: true });
  const tarball = execFileSync('npm', ['pack', `${root}pkg`, '--pack-destination', pack, '--silent'], { cwd: root, encoding: 'utf8' }).trim().split('\n').at(-1);
  writeFileSync(`${app}/package.json`, JSON.stringify({ name: 'conformance-app', private: true, type: 'module', dependencies: { 'output-contract': `file:../${tarball}` } }, null, 2));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app, stdio: 'inherit' });
  for (const f of ['checks.mjs', 'conformance.mjs', 'conformance.cjs', 'worker.mjs']) copyFileSync(`${root}tests/runtimes/${f}`, `${app}/${f}`);
  cpSync(`${root}tests/runtimes/page`, `${app}/page`, { recursive: true });
  cpSync(`${root}examples/pr-reviewer`, `${app}/examples/pr-reviewer`, { recursive: true });
  writeFileSync(`${app}/examples/pr-reviewer/suite-sample.json`, JSON.stringify(suiteSample()));
});

// A sample of the JSON-Schema-Test-Suite (Draft 2020-12 and Draft 7, the required files: every
// third case whose schema needs no remote document) that checks.mjs runs through
// `validate(value)` in each runtime, so the verdict tier (closures where code generation is
// refused or never offered, generated code where the entry allows it) is checked where it runs.
function suiteSample() {
  const cases = [];
  for (const draft of ['draft2020-12', 'draft7']) {
    for (const file of jsonFiles(`${suite}/tests/${draft}`).filter((f) => !f.includes('/optional/'))) {
      for (const c of JSON.parse(readFileSync(file, 'utf8'))) {
        if (!JSON.stringify(c.schema).includes('localhost:1234')) cases.push({ draft, schema: c.schema, tests: c.tests.map((t) => [t.data, t.valid]) });
      }
    }
  }
  return cases.filter((_, i) => i % 3 === 0);
}

const runtimes = [
  { name: 'Node (ESM)', command: () => process.execPath, args: ['conformance.mjs'] },
  { name: 'Node (CommonJS)', command: () => process.execPath, args: ['conformance.cjs'] },
  { name: 'Deno', bin: 'deno', args: ['run', '--allow-read', '--no-lock', 'conformance.mjs'] },
  { name: 'Bun', bin: 'bun', args: ['conformance.mjs'] },
];

for (const r of runtimes) {
  test(`conformance from the tarball in ${r.name}`, { skip: r.bin ? skipIf(r.bin) : false, timeout: 60_000 }, () => {
    const command = r.bin ? bin(r.bin) : r.command();
    const out = execFileSync(command, r.args, { cwd: app, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } });
    const result = JSON.parse(out.trim().split('\n').at(-1));
    assert.equal(result.ok, true, out);
  });
}

test('workerd: compile at global scope, validate, stream, schema error, patch retry', { skip: skipIf('workerd'), timeout: 60_000 }, async () => {
  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: [`${app}/worker.mjs`],
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
  assert.ok(!/WebAssembly\.(compile|Module)\(/.test(bundle.replace(/function initSync[\s\S]*?\n}\n/g, '')), 'no compiling from bytes on the workerd path');
  // The .wasm as the installed package ships it.
  for (const file of ['output_contract_bg.wasm', 'output_contract_tools_bg.wasm']) copyFileSync(`${app}/node_modules/output-contract/wasm/${file}`, `${dir}/${file}`);
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
    assert.deepEqual(result.patchRetry, { status: 'completed', modes: ['full:invalid', 'patch:aborted', 'patch:valid'], line: 42 }, 'enforce retries by patch');
    assert.equal(result.ok, true, body);
  } finally {
    server.kill();
  }
});

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

test('a Vite page in headless Chromium', { skip: existsSync(chromiumPath) ? false : `${chromiumPath} is missing (scripts/browser.sh installs it)`, timeout: 120_000 }, async () => {
  // Vite resolves `output-contract` from the throwaway project's node_modules, as an app would.
  const outDir = `${app}/page/dist`;
  await viteBuild({ root: `${app}/page`, configFile: false, logLevel: 'warn', build: { outDir, emptyOutDir: true, target: 'es2022' } });
  const assets = execFileSync('ls', [`${outDir}/assets`], { encoding: 'utf8' }).split('\n');
  assert.ok(assets.some((f) => f.endsWith('.wasm')), `the .wasm is emitted as an asset: ${assets}`);

  const server = await preview({ root: `${app}/page`, configFile: false, logLevel: 'silent', build: { outDir }, preview: { host: '127.0.0.1', port: 0 } });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(server.resolvedUrls.local[0]);
    await page.waitForSelector('body[data-done="true"]', { timeout: 30_000 });
    const result = JSON.parse(await page.textContent('#result'));
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
