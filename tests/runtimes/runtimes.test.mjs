// tests/runtimes/conformance.mjs in each runtime installed from npm: Node (this process's
// binary), Deno (`deno`, resolving the package's `deno` export) and Bun (`bun`, its `node`
// export). Each prints one JSON line with `ok`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const script = `${root}tests/runtimes/conformance.mjs`;
const bin = (name) => `${root}node_modules/.bin/${name}`;

const runtimes = [
  { name: 'node', command: process.execPath, args: [script] },
  { name: 'deno', command: bin('deno'), args: ['run', '--allow-read', '--no-lock', script] },
  { name: 'bun', command: bin('bun'), args: [script] },
];

for (const r of runtimes) {
  const missing = r.command !== process.execPath && !existsSync(r.command);
  test(`conformance in ${r.name}`, { skip: missing ? `${r.name} is not installed (npm ci installs it)` : false, timeout: 60_000 }, () => {
    const out = execFileSync(r.command, r.args, { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } });
    const result = JSON.parse(out.trim().split('\n').at(-1));
    assert.equal(result.ok, true, out);
  });
}
