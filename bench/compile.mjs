// Loading and compiling costs of the npm package in Node, in a fresh process: module load and
// instantiation, the first compile (which builds the draft's meta-schema validator once per
// instance), later compiles of distinct schemas (cache off), and the wasm size raw/gzip/brotli.
// Prints a table; not a test. Run: node bench/compile.mjs (after scripts/build.sh).
import { readFileSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const t0 = performance.now();
const { Contract, setCacheCapacity } = await import('output-contract');
const load = performance.now() - t0;
setCacheCapacity(0);

const pr = JSON.parse(readFileSync(new URL('../examples/pr-reviewer/blueprint.json', import.meta.url), 'utf8')).output_schema;
let t = performance.now();
const contract = Contract.compile(pr);
const first = performance.now() - t;
t = performance.now();
contract.validateText(readFileSync(new URL('../examples/pr-reviewer/valid-output.json', import.meta.url), 'utf8'));
const firstValidate = performance.now() - t;

const rows = [];
for (const draft of ['draft4', 'draft7', 'draft2020-12']) {
  t = performance.now();
  Contract.compile({ ...pr, title: `warm ${draft}` }, { draft });
  const warm = performance.now() - t;
  const n = 200;
  t = performance.now();
  for (let i = 0; i < n; i++) Contract.compile({ ...pr, title: `schema ${i}` }, { draft }).free();
  rows.push([draft, warm, (performance.now() - t) / n]);
}

const wasm = readFileSync(new URL('../pkg/wasm/output_contract_bg.wasm', import.meta.url));
const gz = gzipSync(wasm, { level: 9 }).length;
const br = brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

const ms = (x) => `${x.toFixed(2)} ms`;
console.log('| measure | value |\n| --- | --- |');
console.log(`| import + instantiate (node) | ${ms(load)} |`);
console.log(`| first compile (pr-reviewer, draft7) | ${ms(first)} |`);
console.log(`| first validate | ${ms(firstValidate)} |`);
for (const [draft, warm, avg] of rows) console.log(`| ${draft}: first compile of the draft / next compiles (avg of 200) | ${ms(warm)} / ${ms(avg)} |`);
console.log(`| wasm raw / gzip -9 / brotli 11 | ${wasm.length} / ${gz} / ${br} bytes |`);
