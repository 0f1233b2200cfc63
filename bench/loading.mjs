// Loading costs per runtime, each in fresh processes (median of RUNS, default 5): import +
// instantiate, first compile (pr-reviewer), first validate — Node, Deno and Bun (npm binaries)
// running bench/load-probe.mjs, Chromium loading a bundled probe page from 127.0.0.1, and workerd
// measured from outside (process start → first answer, against an empty worker; its clock does
// not advance at global scope). Also the wasm size raw / gzip / brotli. Prints a table.
//   node bench/loading.mjs      (after scripts/build.sh)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as netServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const runs = Number(process.env.RUNS ?? 5);
const bin = (name) => `${root}node_modules/.bin/${name}`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];

function medians(samples) {
  return Object.fromEntries(Object.keys(samples[0]).map((k) => [k, median(samples.map((s) => s[k]))]));
}

function processProbe(name, command, args) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(command, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    samples.push(JSON.parse(out.trim().split('\n').at(-1)));
  }
  rows.push([name, medians(samples)]);
}

processProbe('Node', process.execPath, ['bench/load-probe.mjs']);
processProbe('Deno', bin('deno'), ['run', '--allow-read', '--no-lock', 'bench/load-probe.mjs']);
processProbe('Bun', bin('bun'), ['bench/load-probe.mjs']);

// Chromium: the probe bundled for browsers, served with the wasm from 127.0.0.1.
{
  const dir = `${root}target/load-page`;
  mkdirSync(dir, { recursive: true });
  const entry = `${dir}/entry.mjs`;
  writeFileSync(entry, `import { probe } from '${root}bench/load-probe.mjs';\nwindow.result = probe(() => import('output-contract'));\n`);
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', outfile: `${dir}/probe.js`, logLevel: 'error', nodePaths: [`${root}node_modules`] });
  // The browser entry fetches new URL('../wasm/output_contract_bg.wasm', import.meta.url).
  mkdirSync(`${dir}/wasm`, { recursive: true });
  copyFileSync(`${root}pkg/wasm/output_contract_bg.wasm`, `${dir}/wasm/output_contract_bg.wasm`);
  writeFileSync(`${dir}/index.html`, '<!doctype html><script type="module" src="probe.js"></script>');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer((req, res) => {
    const name = req.url === '/' ? 'index.html' : req.url.slice(1);
    try {
      const body = readFileSync(`${dir}/${name}`);
      res.writeHead(200, { 'content-type': types[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { chromium } = await import('playwright-core');
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    samples.push(await page.evaluate(() => window.result));
    await browser.close();
  }
  server.close();
  rows.push(['Chromium (fetch + compile + instantiate)', medians(samples)]);
}

// workerd, from outside: start → first answer, with the contract compiled at global scope, minus
// the same for an empty worker.
{
  const dir = `${root}target/load-workerd`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/probe.mjs`, `import { Contract } from 'output-contract';\nimport blueprint from '${root}examples/pr-reviewer/blueprint.json';\nimport valid from '${root}examples/pr-reviewer/valid-output.json';\nconst c = Contract.compile(blueprint.output_schema);\nexport default { fetch: () => Response.json(c.validate(valid).valid) };\n`);
  writeFileSync(`${dir}/empty.mjs`, 'export default { fetch: () => Response.json(true) };\n');
  await build({ entryPoints: [`${dir}/probe.mjs`], bundle: true, format: 'esm', platform: 'neutral', conditions: ['workerd', 'worker'], external: ['*.wasm'], outfile: `${dir}/src/probe.js`, logLevel: 'error', nodePaths: [`${root}node_modules`] });
  await build({ entryPoints: [`${dir}/empty.mjs`], bundle: true, format: 'esm', platform: 'neutral', outfile: `${dir}/src/empty.js`, logLevel: 'error' });
  for (const file of ['output_contract_bg.wasm', 'output_contract_tools_bg.wasm']) copyFileSync(`${root}pkg/wasm/${file}`, `${dir}/${file}`);
  const freePort = () => new Promise((resolve) => { const s = netServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });
  async function startToAnswer(worker) {
    const port = await freePort();
    const modules = worker === 'probe'
      ? '(name = "src/probe.js", esModule = embed "src/probe.js"), (name = "wasm/output_contract_bg.wasm", wasm = embed "output_contract_bg.wasm"), (name = "wasm/output_contract_tools_bg.wasm", wasm = embed "output_contract_tools_bg.wasm")'
      : '(name = "src/empty.js", esModule = embed "src/empty.js")';
    writeFileSync(`${dir}/${worker}.capnp`, `using Workerd = import "/workerd/workerd.capnp";\nconst config :Workerd.Config = (services = [(name = "main", worker = (modules = [${modules}], compatibilityDate = "2026-10-01"))], sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")]);\n`);
    const t0 = performance.now();
    const child = spawn(bin('workerd'), ['serve', `${worker}.capnp`], { cwd: dir, stdio: 'ignore' });
    try {
      for (;;) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/`);
          if ((await res.json()) !== true) throw new Error('workerd probe failed');
          return performance.now() - t0;
        } catch (e) {
          if (e.message === 'workerd probe failed') throw e;
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }
    } finally {
      child.kill();
    }
  }
  const probe = [];
  const empty = [];
  for (let i = 0; i < runs; i++) {
    probe.push(await startToAnswer('probe'));
    empty.push(await startToAnswer('empty'));
  }
  rows.push(['workerd (start → first answer, minus an empty worker)', { load: median(probe) - median(empty), compile: NaN, validate: NaN }]);
}

const wasm = readFileSync(`${root}pkg/wasm/output_contract_bg.wasm`);
const gz = gzipSync(wasm, { level: 9 }).length;
const br = brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const ms = (x) => (Number.isNaN(x) ? '—' : `${x.toFixed(1)} ms`);
console.log(`median of ${runs} fresh processes; ${new Date().toISOString().slice(0, 10)}\n`);
console.log('| runtime | import + instantiate | first compile | first validate |\n| --- | ---: | ---: | ---: |');
for (const [name, m] of rows) console.log(`| ${name} | ${ms(m.load)} | ${ms(m.compile)} | ${ms(m.validate)} |`);
console.log(`\nwasm: ${wasm.length.toLocaleString('en')} bytes raw, ${gz.toLocaleString('en')} gzip -9, ${br.toLocaleString('en')} brotli -11`);
