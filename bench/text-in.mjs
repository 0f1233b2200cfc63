// Text in: whether `JSON.parse` + the verdict tier could answer `validateText(text)` on a valid
// text faster than the module's scan. `JSON.parse` alone is not the same verdict: it accepts a
// duplicate key (the later value wins) and a lone surrogate written as an escape (`"\ud800"`),
// which the scan reports. So the exact candidate is `JSON.parse` + the tier + a second pass over
// the text that finds those two; the pass here (`textOnlyJsonParseAccepts`) is a plain
// JavaScript reading of strings and keys, the least such a pass does. Every corpus schema,
// valid outputs, compact and pretty; ratios from one run, interleaved.
//   node bench/text-in.mjs [--sizes=1,10] [schema names…]
import AjvModule from 'ajv';
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Contract, ready } from 'output-contract';
import { corpus } from './corpus.mjs';
import { geomean, interleaved } from './timing.mjs';

await ready;
const args = process.argv.slice(2);
const sizesArg = args.find((a) => a.startsWith('--sizes='));
const sizes = (sizesArg ? sizesArg.slice(8).split(',') : ['1', '10']).map((s) => Number(s) * 1024);
const names = new Set(args.filter((a) => !a.startsWith('--')));
const A = { '2020-12': Ajv2020Module.default ?? Ajv2020Module, '2019-09': Ajv2019Module.default ?? Ajv2019Module };
const addFormats = addFormatsModule.default ?? addFormatsModule;

// True when the text holds a duplicate key in some object or an escaped lone surrogate: what
// JSON.parse takes silently. Assumes the text is JSON (JSON.parse read it).
function textOnlyJsonParseAccepts(text) {
  const keys = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b) {
      keys.push(new Set());
      expectKey = true;
    } else if (c === 0x7d) keys.pop();
    else if (c === 0x5b) keys.push(null);
    else if (c === 0x5d) keys.pop();
    else if (c === 0x2c) expectKey = keys.at(-1) != null;
    else if (c === 0x22) {
      const start = i + 1;
      let escaped = false;
      for (i = start; text.charCodeAt(i) !== 0x22; i++) {
        if (text.charCodeAt(i) === 0x5c) {
          escaped = true;
          i++;
        }
      }
      const raw = text.slice(start, i);
      if (escaped) {
        const s = JSON.parse(`"${raw}"`);
        if (!s.isWellFormed()) return true;
        if (expectKey) {
          if (keys.at(-1).has(s)) return true;
          keys.at(-1).add(s);
        }
      } else if (expectKey) {
        if (keys.at(-1).has(raw)) return true;
        keys.at(-1).add(raw);
      }
      expectKey = false;
    }
  }
  return false;
}

const rows = { tier: [], exact: [], scanVsAjv: [], exactVsAjv: [] };
console.log('| schema | layout | bytes | validateText µs | JSON.parse + tier µs | + the second pass µs | JSON.parse + Ajv µs | tier / scan | exact / scan |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const entry of corpus(sizes).filter((e) => names.size === 0 || names.has(e.name))) {
  const contract = Contract.compile(entry.schema);
  const ajv = new (A[entry.draft] ?? (AjvModule.default ?? AjvModule))({ strict: false, logger: false });
  addFormats(ajv);
  const ajvValidate = ajv.compile(entry.schema);
  for (const output of entry.outputs) {
    const text = output.valid;
    const scan = () => contract.validateText(text).valid;
    const tier = () => contract.validate(JSON.parse(text)).valid;
    const exact = () => !textOnlyJsonParseAccepts(text) && contract.validate(JSON.parse(text)).valid;
    const viaAjv = () => ajvValidate(JSON.parse(text));
    if (!scan() || !tier() || !exact() || !viaAjv()) throw new Error(`${entry.name}: verdict`);
    for (const started = performance.now(); performance.now() - started < 100; ) [scan, tier, exact, viaAjv].forEach((fn) => fn());
    const { rates, ratio } = interleaved([scan, tier, exact, viaAjv], true);
    const us = (r) => (1e6 / r).toFixed(2);
    const t = ratio((r) => r[1] / r[0]);
    const e = ratio((r) => r[2] / r[0]);
    rows.tier.push(t);
    rows.exact.push(e);
    rows.scanVsAjv.push(ratio((r) => r[0] / r[3]));
    rows.exactVsAjv.push(ratio((r) => r[2] / r[3]));
    console.log(`| ${entry.name} | ${output.layout} | ${text.length} | ${us(rates[0])} | ${us(rates[1])} | ${us(rates[2])} | ${us(rates[3])} | ${t.toFixed(2)}× | ${e.toFixed(2)}× |`);
  }
}
const g = (xs) => `${geomean(xs).toFixed(2)}× (min ${Math.min(...xs).toFixed(2)}×, max ${Math.max(...xs).toFixed(2)}×)`;
console.log(`\nspeed against validateText's scan: JSON.parse + tier ${g(rows.tier)}; with the second pass (exact) ${g(rows.exact)}`);
console.log(`against JSON.parse + Ajv: the scan ${g(rows.scanVsAjv)}; JSON.parse + tier + the second pass ${g(rows.exactVsAjv)}`);
