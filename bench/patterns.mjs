// The cost of `pattern`: for common patterns, an array of 500 realistic strings under
// `{ type: "array", items: { type: "string", pattern } }`, validated as text by output-contract
// and by Ajv (JSON.parse + its compiled function), and the same strings tested by V8's RegExp
// (Unicode mode) alone. The pattern's own share in output-contract is its time minus the same
// array under `{ type: "string" }` items; printed per character next to V8's.
//
//   node bench/patterns.mjs            (after scripts/build.sh)
//   node bench/patterns.mjs --quick
//
// Not a test: it prints a table of ratios and fails nothing.
import AjvModule from 'ajv';
import { Contract } from 'output-contract';

const Ajv = AjvModule.default ?? AjvModule;
const quick = process.argv.includes('--quick');

let seed = 0x1234567;
const below = (n) => {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed % n;
};
const pick = (items) => items[below(items.length)];
const digits = (n) => Array.from({ length: n }, () => below(10)).join('');
const letters = (n, from) => Array.from({ length: n }, () => from[below(from.length)]).join('');
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const WORDS = ['src', 'lib', 'validator', 'ecma', 'parse', 'node_modules', 'v2', 'index', 'api', 'docs', 'bench', 'tests'];
const NAMES = ['John', 'Smith', 'Émile', 'Zola', 'Ada', 'Lovelace', 'Grace', 'Hopper', 'Łukasz', 'Nowak', 'Mary', 'Ann'];

const CASES = [
  // The floor: a pattern that matches at once, so its row is the cost of checking a pattern at all.
  { name: 'empty', pattern: '', make: () => pick(WORDS) },
  {
    name: 'path',
    pattern: '^[a-z0-9_./-]+$',
    make: () => {
      let s = pick(WORDS);
      while (s.length < 24) s += pick(['/', '_', '-', '.']) + pick(WORDS);
      return s.slice(0, 28);
    },
  },
  { name: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', make: () => `20${digits(2)}-${digits(2)}-${digits(2)}` },
  { name: 'ticket', pattern: '^[A-Z]{3}-[0-9]+$', make: () => `${letters(3, UPPER)}-${digits(2 + below(5))}` },
  { name: 'enum', pattern: '^(low|medium|high|critical)$', make: () => pick(['low', 'medium', 'high', 'critical']) },
  {
    name: 'names',
    pattern: '^\\p{Lu}\\p{Ll}+( \\p{Lu}\\p{Ll}+)*$',
    make: () => Array.from({ length: 2 + below(2) }, () => pick(NAMES)).join(' '),
  },
  {
    name: 'e-mail',
    pattern: '[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}',
    make: () => `contact ${letters(4 + below(6), LOWER)}.${letters(5, LOWER)}@${letters(6, LOWER)}.${pick(['com', 'org', 'io'])}`,
  },
];

/** Nanoseconds per call of each of `fns`, the best of a few rounds of `time` ms each, the
 * functions taking turns so that a slower moment of the machine does not fall on one alone. */
function measure(...fns) {
  const time = quick ? 100 : 300;
  const best = fns.map(() => Infinity);
  for (const fn of fns) for (let i = 0; i < 200; i++) fn();
  for (let round = 0; round < (quick ? 5 : 10); round++) {
    fns.forEach((fn, f) => {
      let n = 0;
      const start = process.hrtime.bigint();
      let elapsed = 0;
      while (elapsed < time * 1e6) {
        for (let i = 0; i < 20; i++) fn();
        n += 20;
        elapsed = Number(process.hrtime.bigint() - start);
      }
      best[f] = Math.min(best[f], elapsed / n);
    });
  }
  return best;
}

const rows = [];
for (const c of CASES) {
  const strings = Array.from({ length: 500 }, c.make);
  const chars = strings.reduce((n, s) => n + s.length, 0);
  const text = JSON.stringify(strings);
  const schema = { type: 'array', items: { type: 'string', pattern: c.pattern } };
  const plain = Contract.compile({ type: 'array', items: { type: 'string' } });
  const contract = Contract.compile(schema);
  const ajv = new Ajv({ strict: false }).compile(schema);
  const re = new RegExp(c.pattern, 'u');
  if (!strings.every((s) => re.test(s)) || !contract.validateText(text).valid || !ajv(JSON.parse(text))) {
    throw new Error(`${c.name}: the strings should all match`);
  }
  const [v8, ours, base, theirs] = measure(
    () => strings.every((s) => re.test(s)),
    () => contract.validateText(text).valid,
    () => plain.validateText(text).valid,
    () => ajv(JSON.parse(text)),
  );
  rows.push({
    name: c.name,
    pattern: c.pattern,
    chars: (chars / strings.length).toFixed(1),
    v8: (v8 / chars).toFixed(2),
    share: (Math.max(0, ours - base) / chars).toFixed(2),
    ours: (ours / 1000).toFixed(1),
    ajv: (theirs / 1000).toFixed(1),
    ratio: theirs / ours,
  });
}

console.log('| case | pattern | chars/string | V8 test() ns/char | our pattern ns/char | ours µs | Ajv µs | speed vs Ajv |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  console.log(`| ${r.name} | \`${r.pattern}\` | ${r.chars} | ${r.v8} | ${r.share} | ${r.ours} | ${r.ajv} | ${r.ratio.toFixed(2)}× |`);
}
const mean = Math.exp(rows.reduce((s, r) => s + Math.log(r.ratio), 0) / rows.length);
console.log(`\ngeometric mean: ${mean.toFixed(2)}× Ajv's speed (text in: 500 strings, one array)`);
