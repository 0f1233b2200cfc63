// The edge setting, run by bench/compare.mjs in a child process under
// `node --disallow-code-generation-from-strings`, as on Cloudflare Workers, Deno Deploy or a page
// with a strict Content-Security-Policy: no `new Function`, no `eval`. output-contract (wasm)
// runs as everywhere; ata-validator falls back to its interpreter; Ajv, which generates code,
// cannot compile a schema at all, and this script says so.
//
//   node --disallow-code-generation-from-strings bench/edge.mjs <corpus.json> [--quick]
//
// Prints one JSON object: Ajv's refusal, ata's engine per schema, and per output the rates of
// output-contract and of ata's interpreter on the valid text, on the invalid one with every
// violation, and on the same two as parsed objects (value in), timed in alternation.
import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import { Validator } from 'ata-validator';
import { Contract, formatViolation } from 'output-contract';
import { interleaved } from './timing.mjs';

const quick = process.argv.includes('--quick');
const entries = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const Ajv = AjvModule.default ?? AjvModule;
const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;

let ajvRefusal = null;
try {
  const schema = entries[0].schema;
  new ((schema.$schema ?? '').includes('2020-12') ? Ajv2020 : Ajv)({ strict: false, logger: false }).compile(schema);
} catch (e) {
  ajvRefusal = `${e.name}: ${e.message}`;
}

const engines = {};
const rows = [];
const setups = [];
for (const e of entries) {
  const contract = Contract.compile(e.schema);
  const ata = new Validator(e.schema);
  engines[e.name] = ata.engine();
  const oursErrors = (r) => (r.valid ? [] : r.error.violations.map(formatViolation));
  const ours = {
    text: (text) => contract.validateText(text).valid,
    invalid: (text) => oursErrors(contract.validateText(text)),
    value: (value) => contract.validate(value).valid,
    invalidValue: (value) => oursErrors(contract.validate(value)),
  };
  const interpErrors = (r) => (r.valid ? [] : r.errors.map((x) => `${x.instancePath || '/'}: ${x.message}`));
  const interp = {
    text: (text) => ata.isValidObject(JSON.parse(text)),
    invalid: (text) => interpErrors(ata.validate(JSON.parse(text))),
    value: (value) => ata.isValidObject(value),
    invalidValue: (value) => interpErrors(ata.validate(value)),
  };
  for (const o of e.outputs) {
    o.validValue = JSON.parse(o.valid);
    o.invalidValue = JSON.parse(o.invalid);
    for (const [name, v] of Object.entries({ ours, interp })) {
      if (v.text(o.valid) !== true || v.text(o.invalid) !== false || v.invalid(o.invalid).length === 0 || v.value(o.validValue) !== true || v.invalidValue(o.invalidValue).length === 0) {
        throw new Error(`${name} disagrees on ${e.name} ${o.layout} ${o.target}`);
      }
    }
  }
  setups.push({ e, ours, interp });
}
// Warm-up before any timing: V8 optimises both libraries' code (the module's functions among
// it) on background threads, whose CPU time would otherwise count against the first rows.
for (const started = performance.now(); performance.now() - started < (quick ? 1000 : 3000); ) {
  for (const { e, ours, interp } of setups) {
    for (const o of e.outputs.filter((x) => x.target < 50000)) {
      for (const v of [ours, interp]) {
        v.text(o.valid);
        v.invalid(o.invalid);
        v.value(o.validValue);
        v.invalidValue(o.invalidValue);
      }
    }
  }
}
for (const { e, ours, interp } of setups) {
  for (const o of e.outputs) {
    const valid = interleaved([() => ours.text(o.valid), () => interp.text(o.valid)], quick);
    const invalid = interleaved([() => ours.invalid(o.invalid), () => interp.invalid(o.invalid)], quick);
    const value = interleaved([() => ours.value(o.validValue), () => interp.value(o.validValue)], quick);
    const invalidValue = interleaved([() => ours.invalidValue(o.invalidValue), () => interp.invalidValue(o.invalidValue)], quick);
    const pair = (m) => ({ rates: m.rates, ratio: m.ratio(([a, b]) => a / b) });
    rows.push({ name: e.name, layout: o.layout, target: o.target, valid: pair(valid), invalid: pair(invalid), value: pair(value), invalidValue: pair(invalidValue) });
  }
}
console.log(JSON.stringify({ ajvRefusal, engines, rows }));
