// validate(value) on every corpus schema (compact outputs of ~1 KB and ~10 KB): valid values
// against Ajv (its default, compiled) and ata-validator's isValidObject, and invalid values with
// every violation against Ajv `allErrors` and ata's `validate`. A quick look at the value-in
// rows of bench/compare.mjs, not the benchmark of record. Under
// --disallow-code-generation-from-strings the tier runs its closures, Ajv cannot compile (its
// column is left out) and ata runs its interpreter.
// With --before=DIR (another build of the package: its wasm/node.mjs), that build's validate is
// timed in the same turns, its ratios printed beside. With --text, the same outputs as text:
// validateText(text) against JSON.parse + Ajv and JSON.parse + ata.
//   node [--disallow-code-generation-from-strings] bench/value-in.mjs [--invalid] [--text] [--sizes=1,10,100] [--before=DIR] [schema names…]
import { pathToFileURL } from 'node:url';
import AjvModule from 'ajv';
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Validator as AtaValidator } from 'ata-validator';
import { Contract, formatViolation, ready } from 'output-contract';
import { corpus } from './corpus.mjs';
import { geomean, interleaved } from './timing.mjs';

await ready;
const args = process.argv.slice(2);
const invalid = args.includes('--invalid');
const textIn = args.includes('--text');
const sizesArg = args.find((a) => a.startsWith('--sizes='));
const sizes = (sizesArg ? sizesArg.slice(8).split(',') : ['1', '10']).map((s) => Number(s) * 1024);
const names = new Set(args.filter((a) => !a.startsWith('--')));
const beforeArg = args.find((a) => a.startsWith('--before='));
const old = beforeArg ? await import(pathToFileURL(`${beforeArg.slice(9)}/wasm/node.mjs`).href) : null;
await old?.ready;
const A = { '2020-12': Ajv2020Module.default ?? Ajv2020Module, '2019-09': Ajv2019Module.default ?? Ajv2019Module };
const addFormats = addFormatsModule.default ?? addFormatsModule;
const errorsOf = (errors) => errors.map((e) => `${e.instancePath || '/'}: ${e.message}`);

console.log(`| schema | bytes | ours µs | Ajv µs | ata µs | vs Ajv | vs ata |${old ? ' before µs | before vs Ajv | before vs ata |' : ''}`);
console.log(`|---|---|---|---|---|---|---|${old ? '---|---|---|' : ''}`);
const vsAjv = [];
const vsAta = [];
const beforeAjv = [];
const beforeAta = [];
for (const entry of corpus(sizes).filter((e) => names.size === 0 || names.has(e.name))) {
  const contract = Contract.compile(entry.schema);
  const oldContract = old?.Contract.compile(entry.schema);
  const ajv = new (A[entry.draft] ?? (AjvModule.default ?? AjvModule))({ strict: false, logger: false, allErrors: invalid });
  addFormats(ajv);
  let ajvValidate = null;
  try {
    ajvValidate = ajv.compile(entry.schema);
  } catch {
    // code generation refused
  }
  const ata = new AtaValidator(entry.schema);
  for (const output of entry.outputs.filter((o) => o.layout === 'compact')) {
    const raw = invalid ? output.invalid : output.valid;
    const value = JSON.parse(raw);
    // Ours takes the value (validate) or the text (validateText); Ajv and ata take the value, parsed from the text for --text.
    const check = (c) => (textIn ? c.validateText(raw) : c.validate(value));
    const input = textIn ? () => JSON.parse(raw) : () => value;
    const ours = invalid ? () => check(contract).error.violations.map(formatViolation) : () => check(contract).valid;
    const theirs = invalid ? () => (ajvValidate(input()) ? [] : errorsOf(ajvValidate.errors)) : () => ajvValidate(input());
    const atas = invalid ? () => errorsOf(ata.validate(input()).errors) : () => ata.isValidObject(input());
    if (check(contract).valid === invalid) throw new Error(`${entry.name}: verdict`);
    const ataAgrees = ata.isValidObject(value) !== invalid;
    const fns = [ours, ajvValidate ? theirs : ours, ataAgrees ? atas : ours];
    if (oldContract) fns.push(invalid ? () => check(oldContract).error.violations.map(old.formatViolation) : () => check(oldContract).valid);
    // Warm-up: the first calls build the tier and let V8 optimise, which the batch sizes
    // (timing.mjs) must not be measured on.
    for (const started = performance.now(); performance.now() - started < 100; ) fns.forEach((fn) => fn());
    const { rates, ratio } = interleaved(fns, true);
    const us = (r) => (1e6 / r).toFixed(2);
    const a = ajvValidate ? ratio((r) => r[0] / r[1]) : null;
    const t = ataAgrees ? ratio((r) => r[0] / r[2]) : null;
    if (a !== null) vsAjv.push(a);
    if (t !== null) vsAta.push(t);
    let was = '';
    if (oldContract) {
      const ba = ajvValidate ? ratio((r) => r[3] / r[1]) : null;
      const bt = ataAgrees ? ratio((r) => r[3] / r[2]) : null;
      if (ba !== null) beforeAjv.push(ba);
      if (bt !== null) beforeAta.push(bt);
      was = ` ${us(rates[3])} | ${ba === null ? '-' : `${ba.toFixed(2)}×`} | ${bt === null ? '-' : `${bt.toFixed(2)}×`} |`;
    }
    console.log(`| ${entry.name} | ${output.valid.length} | ${us(rates[0])} | ${ajvValidate ? us(rates[1]) : '-'} | ${ataAgrees ? us(rates[2]) : '-'} | ${a === null ? '-' : `${a.toFixed(2)}×`} | ${t === null ? '-' : `${t.toFixed(2)}×`} |${was}`);
  }
}
const g = (xs) => (xs.length ? `${geomean(xs).toFixed(2)}× (min ${Math.min(...xs).toFixed(2)}×)` : '-');
console.log(`| **geometric mean** | | | | | ${g(vsAjv)} | ${g(vsAta)} |${old ? ` | ${g(beforeAjv)} | ${g(beforeAta)} |` : ''}`);
