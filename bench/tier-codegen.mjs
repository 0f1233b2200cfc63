// validate(value) of valid outputs: the verdict tier's generated code against its closures
// (`codegen: false`), Ajv and ata-validator (compiled), on a few corpus schemas (compact outputs
// of ~1 KB and ~10 KB). A quick look, not the benchmark of record (bench/compare.mjs).
//   node bench/tier-codegen.mjs [schema names…]
import AjvModule from 'ajv';
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Validator as AtaValidator } from 'ata-validator';
import { Contract, ready } from 'output-contract';
import { corpus } from './corpus.mjs';
import { interleaved } from './timing.mjs';

await ready;
const names = process.argv.slice(2);
const pick = new Set(names.length ? names : ['incident-report', 'agent-actions', 'service-catalog', 'feature-flags', 'doc-outline']);
const A = { '2020-12': Ajv2020Module.default ?? Ajv2020Module, '2019-09': Ajv2019Module.default ?? Ajv2019Module };
const addFormats = addFormatsModule.default ?? addFormatsModule;
const hook = Symbol.for('output-contract tierVerdict');

console.log('| schema | bytes | codegen µs | closures µs | Ajv µs | ata µs | codegen / closures | codegen vs Ajv | codegen vs ata |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const entry of corpus([1024, 10 * 1024]).filter((e) => pick.has(e.name))) {
  const generated = Contract.compile(entry.schema);
  const closures = Contract.compile(entry.schema, { codegen: false });
  const ajv = new (A[entry.draft] ?? (AjvModule.default ?? AjvModule))({ strict: false });
  addFormats(ajv);
  const ajvValidate = ajv.compile(entry.schema);
  const ata = new AtaValidator(entry.schema);
  for (const output of entry.outputs.filter((o) => o.layout === 'compact')) {
    const value = JSON.parse(output.valid);
    if (!generated.validate(value).valid || !ajvValidate(value)) throw new Error(`${entry.name}: not valid`);
    // ata-validator's verdict is shown only where it agrees.
    const ataAgrees = ata.isValidObject(value) === true;
    const t = generated[hook](value);
    const c = closures[hook](value);
    if (t.backend !== 'codegen' || c.backend !== 'closures') throw new Error(`${entry.name}: backends ${t.backend} ${c.backend}`);
    const fns = [() => generated.validate(value), () => closures.validate(value), () => ajvValidate(value)];
    if (ataAgrees) fns.push(() => ata.isValidObject(value));
    const { rates, ratio } = interleaved(fns, true);
    const us = (r) => (1e6 / r).toFixed(2);
    const note = t.verdict === true ? (t.judged > 0 ? ' (delegates)' : '') : ' (module)';
    console.log(`| ${entry.name}${note} | ${output.valid.length} | ${us(rates[0])} | ${us(rates[1])} | ${us(rates[2])} | ${ataAgrees ? us(rates[3]) : '- (invalid to ata)'} | ${ratio((r) => r[0] / r[1]).toFixed(2)}× | ${ratio((r) => r[0] / r[2]).toFixed(2)}× | ${ataAgrees ? `${ratio((r) => r[0] / r[3]).toFixed(2)}×` : '-'} |`);
  }
}
