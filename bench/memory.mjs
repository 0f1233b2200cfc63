// Memory stays flat: in one wasm instance, 1e6 validations, 1e4 streams and 1e4 compiles of
// distinct schemas, each with explicit free() and with handles simply dropped (the package's
// FinalizationRegistry frees those). Prints wasm linear memory and JS heap after a warm-up and
// at the end of each phase; exits 1 if either grew by more than the allowance.
//
//   node --expose-gc bench/memory.mjs            (N_VALIDATIONS=…, N_STREAMS=… to change the counts)
import { readFileSync } from 'node:fs';
// The package's sources rather than its Node entry (one bundled module with its own copy of the
// glue): the glue imported beside them is then the one whose instance they use.
import { Contract, cacheStats, ready } from '../pkg/src/node.js';
import { wasmMemory } from '../pkg/wasm/output_contract.js';

const memoryBytes = () => wasmMemory().buffer.byteLength;

await ready;
if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc');
  process.exit(2);
}
const settle = async () => {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const here = new URL('../examples/pr-reviewer/', import.meta.url);
const schema = JSON.parse(readFileSync(new URL('blueprint.json', here), 'utf8')).output_schema;
const valid = readFileSync(new URL('valid-output.json', here), 'utf8');
const invalid = readFileSync(new URL('invalid-output.txt', here), 'utf8');
const validations = Number(process.env.N_VALIDATIONS ?? 1_000_000);
const MiB = 1024 * 1024;
// Wasm memory never shrinks; growth past the warm-up would mean a leak. The JS heap moves with
// the collector, hence a wider allowance. Process RSS also counts V8's code and the allocator's
// free lists, which settle later: the widest allowance.
const allowance = { wasm: 2 * MiB, heap: 16 * MiB, rss: 48 * MiB };

const rows = [];
let failed = false;

// Dropped handles are freed only when the JS collector runs, and it cannot see wasm memory:
// `every` collects that often, as a running application's collector would.
async function phase(name, count, run, every = 50_000) {
  for (let i = 0; i < Math.min(count, 2000); i++) {
    run(i); // warm-up: caches, pools and the collection interval reach their steady size
    if (i % every === every - 1) await settle();
  }
  await settle();
  const before = { wasm: memoryBytes(), heap: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss };
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    run(i);
    if (i % every === every - 1) await settle();
  }
  const ms = performance.now() - started;
  await settle();
  const after = { wasm: memoryBytes(), heap: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss };
  const grew = { wasm: after.wasm - before.wasm, heap: after.heap - before.heap, rss: after.rss - before.rss };
  const flat = grew.wasm <= allowance.wasm && grew.heap <= allowance.heap && grew.rss <= allowance.rss;
  failed ||= !flat;
  rows.push([name, count, `${(ms / 1000).toFixed(1)} s`, mb(before.wasm), mb(after.wasm), mb(before.heap), mb(after.heap), mb(before.rss), mb(after.rss), flat ? 'flat' : 'GREW']);
}

const mb = (n) => `${(n / MiB).toFixed(1)} MiB`;

const contract = Contract.compile(schema, { agentId: 'pr-reviewer' });
await phase('validateText (valid, invalid alternating)', validations, (i) => contract.validateText(i % 2 ? invalid : valid));
await phase('validate (value in)', validations / 10, () => contract.validate(JSON.parse(valid)));

const chunks = valid.match(/[\s\S]{1,20}/g);
const streamOnce = (free) => {
  const s = contract.stream();
  for (const c of chunks) s.push(c);
  s.finish();
  if (free) s.free();
};
const streams = Number(process.env.N_STREAMS ?? 10_000);
await phase('streams, free()', streams, () => streamOnce(true));
await phase('streams, dropped (collected every 1,000)', streams, () => streamOnce(false), 1000);

const distinct = (i) => ({ ...schema, title: `schema ${i}`, $id: `https://example.com/schemas/bench/${i}/1.0.0` });
let n = 0;
await phase('compiles of distinct schemas, free()', streams, () => Contract.compile(distinct(n++)).free());
await phase('compiles of distinct schemas, dropped (collected every 1,000)', streams, () => Contract.compile(distinct(n++)), 1000);

const header = ['phase', 'count', 'time', 'wasm before', 'wasm after', 'JS heap before', 'JS heap after', 'RSS before', 'RSS after', 'verdict'];
console.log(`| ${header.join(' | ')} |\n| ${header.map(() => '---').join(' | ')} |`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
const stats = cacheStats();
console.log(`\ncompile cache: ${stats.entries}/${stats.capacity} entries (bounded), ${stats.hits} hits, ${stats.misses} misses`);
console.log(failed ? 'memory: GREW beyond the allowance' : `memory: flat (allowance ${mb(allowance.wasm)} wasm, ${mb(allowance.heap)} heap, ${mb(allowance.rss)} RSS per phase)`);
process.exitCode = failed ? 1 : 0;
