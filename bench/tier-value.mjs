// validate(value) of valid outputs, the verdict tier (this checkout's package) against the
// module's path alone (a package built without the tier, given as the first argument: its
// wasm/node.mjs), Ajv and ata-validator, on a few corpus schemas (compact outputs of ~1 KB and
// ~10 KB). A quick look, not the benchmark of record (bench/compare.mjs). Under
// --disallow-code-generation-from-strings Ajv cannot compile (its column is left out) and ata
// runs its interpreter.
//   node [--disallow-code-generation-from-strings] bench/tier-value.mjs /path/to/other/pkg [schema names…]
import { pathToFileURL } from 'node:url';
import AjvModule from 'ajv';
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Validator as AtaValidator } from 'ata-validator';
import { Contract, ready } from 'output-contract';
import { corpus } from './corpus.mjs';
import { interleaved } from './timing.mjs';

const [before = '', ...names] = process.argv.slice(2);
const old = before ? await import(pathToFileURL(`${before}/wasm/node.mjs`).href) : null;
await ready;
await old?.ready;
const pick = new Set(names.length ? names : ['incident-report', 'agent-actions', 'service-catalog']);
const A = { '2020-12': Ajv2020Module.default ?? Ajv2020Module, '2019-09': Ajv2019Module.default ?? Ajv2019Module };
const addFormats = addFormatsModule.default ?? addFormatsModule;

console.log('| schema | bytes | tier µs | module-only µs | tier / module-only | tier vs Ajv | tier vs ata |');
console.log('|---|---|---|---|---|---|---|');
for (const entry of corpus([1024, 10 * 1024]).filter((e) => pick.has(e.name))) {
  const contract = Contract.compile(entry.schema);
  const oldContract = old?.Contract.compile(entry.schema);
  const ajv = new (A[entry.draft] ?? (AjvModule.default ?? AjvModule))({ strict: false, logger: false });
  addFormats(ajv);
  let ajvValidate = null;
  try {
    ajvValidate = ajv.compile(entry.schema);
  } catch {
    // code generation refused
  }
  const ata = new AtaValidator(entry.schema);
  for (const output of entry.outputs.filter((o) => o.layout === 'compact')) {
    const value = JSON.parse(output.valid);
    if (!contract.validate(value).valid || (ajvValidate && !ajvValidate(value))) throw new Error(`${entry.name}: not valid`);
    const fns = [() => contract.validate(value), ajvValidate ? () => ajvValidate(value) : () => contract.validate(value), () => ata.isValidObject(value)];
    if (oldContract) fns.push(() => oldContract.validate(value));
    const { rates, ratio } = interleaved(fns, false);
    const us = (r) => (1e6 / r).toFixed(2);
    const vsOld = oldContract ? ratio((r) => r[0] / r[3]).toFixed(2) : '-';
    console.log(`| ${entry.name} | ${output.valid.length} | ${us(rates[0])} | ${oldContract ? us(rates[3]) : '-'} | ${vsOld}× | ${ajvValidate ? `${ratio((r) => r[0] / r[1]).toFixed(2)}×` : '-'} | ${ratio((r) => r[0] / r[2]).toFixed(2)}× |`);
  }
}
