// The verdict tier (pkg/src/tier/) against the module: for every JSON-Schema-Test-Suite case
// (every draft, optional/ and optional/format/ included, remotes as resources), every JTD suite
// case, and generated schemas × generated values, the tier's own answer — when it gives one —
// equals the module's verdict on the value's JSON text, and contract.validate(value) keeps
// validateText's verdict. Prints how many verdicts the tier gave alone, with node delegates, or
// left to the module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Contract, ready, setCacheCapacity } from 'output-contract';
import { jsonFiles, remoteResources, repo, suite } from './suite-files.mjs';

await ready;

// The tests' hook (pkg/src/api.js): the tier's answer and its count of module calls so far.
const tierVerdict = Symbol.for('output-contract tierVerdict');

function tally() {
  return { alone: 0, delegated: 0, unknown: 0 };
}

/** Compares the tier with the module on one value; returns a mismatch text or null. */
function compare(contract, value, counts, id) {
  const before = contract[tierVerdict](undefined).judged;
  const { verdict, judged } = contract[tierVerdict](value);
  const expected = contract.validateText(JSON.stringify(value)).valid;
  if (verdict === undefined) counts.unknown++;
  else if (judged > before) counts.delegated++;
  else counts.alone++;
  if (verdict !== undefined && verdict !== expected) return `${id}: tier ${verdict}, module ${expected}`;
  const got = contract.validate(value).valid;
  if (got !== expected) return `${id}: validate ${got}, validateText ${expected}`;
  return null;
}

const drafts = ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12'];

test('the tier agrees with the module on every JSON-Schema-Test-Suite case', { skip: !existsSync(suite) && 'the suite is not at ../shared' }, () => {
  setCacheCapacity(0);
  const resources = remoteResources();
  const mismatches = [];
  const counts = tally();
  for (const draft of drafts) {
    for (const file of jsonFiles(join(suite, 'tests', draft))) {
      const rel = relative(join(suite, 'tests'), file).split('\\').join('/');
      const formats = rel.includes('/optional/format/');
      for (const group of JSON.parse(readFileSync(file, 'utf8'))) {
        let contract;
        try {
          contract = Contract.compile(group.schema, { draft, strict: false, formats, resources });
        } catch {
          continue;
        }
        for (const t of group.tests) {
          const m = compare(contract, t.data, counts, `${rel}::${group.description}::${t.description}`);
          if (m !== null) mismatches.push(m);
        }
        contract.free();
      }
    }
  }
  setCacheCapacity(64);
  const total = counts.alone + counts.delegated + counts.unknown;
  console.log(`JSON-Schema-Test-Suite: ${total} verdicts; tier alone ${counts.alone}, with node delegates ${counts.delegated}, left to the module ${counts.unknown}`);
  assert.deepEqual(mismatches, []);
  // The tier answers most cases itself (the rest: dynamic scope, non-JSON numbers…).
  assert.ok(counts.alone + counts.delegated > total * 0.8, JSON.stringify(counts));
});

test('the tier agrees with the module on the JTD suite', { skip: !existsSync(join(repo, '../shared/jtd-test-suite')) && 'the JTD suite is not at ../shared' }, () => {
  const cases = Object.entries(JSON.parse(readFileSync(join(repo, '../shared/jtd-test-suite/validation.json'), 'utf8')));
  const mismatches = [];
  const counts = tally();
  for (const [name, { schema, instance }] of cases) {
    const contract = Contract.compile(schema, { draft: 'jtd' });
    const m = compare(contract, instance, counts, name);
    if (m !== null) mismatches.push(m);
    contract.free();
  }
  console.log(`JTD suite: ${cases.length} verdicts; tier alone ${counts.alone}, with node delegates ${counts.delegated}, left to the module ${counts.unknown}`);
  assert.deepEqual(mismatches, []);
  assert.ok(counts.alone > cases.length * 0.8, JSON.stringify(counts));
});

// A small seeded generator (mulberry32): the same schemas and values on every run.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['a', 'b', 'c', '__proto__', 'toString', 'é', '😀'];
const STRINGS = ['', 'a', 'ab', 'abc', '😀', '😀😀', 'é', 'a😀b', 'xyz'];
const NUMBERS = [0, -0, 1, 2, 3, 1.5, -1, 0.1, 0.3, 6, 10, 2 ** 53, 1e-7, 4.5, -2.5, 100];

function generator(seed) {
  const r = rng(seed);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const int = (n) => Math.floor(r() * n);

  function value(depth) {
    const k = int(depth > 2 ? 5 : 8);
    switch (k) {
      case 0:
        return null;
      case 1:
        return r() < 0.5;
      case 2:
        return pick(NUMBERS);
      case 3:
      case 4:
        return pick(STRINGS);
      case 5:
      case 6: {
        const o = {};
        for (let i = int(4); i > 0; i--) Object.defineProperty(o, pick(NAMES), { value: value(depth + 1), enumerable: true, configurable: true, writable: true });
        return o;
      }
      default:
        return Array.from({ length: int(4) }, () => value(depth + 1));
    }
  }

  function schema(depth) {
    if (depth > 3 || r() < 0.15) return pick([true, false, {}, { type: pick(['string', 'integer', 'number', 'object', 'array', 'null', 'boolean']) }]);
    const s = {};
    for (let i = 1 + int(3); i > 0; i--) {
      switch (int(24)) {
        case 0:
          s.type = r() < 0.5 ? pick(['string', 'integer', 'number', 'object', 'array']) : [pick(['string', 'null']), pick(['integer', 'object', 'array'])];
          break;
        case 1:
          s.enum = Array.from({ length: 1 + int(3) }, () => value(2));
          break;
        case 2:
          s.const = value(2);
          break;
        case 3:
          s[pick(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'])] = pick(NUMBERS);
          break;
        case 4:
          s.multipleOf = pick([1, 2, 3, 0.5, 0.1]);
          break;
        case 5:
          s[pick(['minLength', 'maxLength'])] = int(4);
          break;
        case 6:
          s[pick(['minItems', 'maxItems', 'minProperties', 'maxProperties'])] = int(3);
          break;
        case 7:
          s.uniqueItems = true;
          break;
        case 8:
          s.items = schema(depth + 1);
          break;
        case 9:
          s.prefixItems = [schema(depth + 1), schema(depth + 1)];
          break;
        case 10:
          s.contains = schema(depth + 1);
          if (r() < 0.5) s.minContains = int(3);
          if (r() < 0.3) s.maxContains = 1 + int(2);
          break;
        case 11:
          s.required = [pick(NAMES), pick(NAMES)].filter((n, i, a) => a.indexOf(n) === i);
          break;
        case 12:
          s.properties = Object.fromEntries([pick(NAMES), pick(NAMES)].map((n) => [n, schema(depth + 1)]));
          break;
        case 13:
          s.additionalProperties = schema(depth + 1);
          break;
        case 14:
          s.propertyNames = { maxLength: 1 + int(2) };
          break;
        case 15:
          s.dependentRequired = { [pick(NAMES)]: [pick(NAMES)] };
          break;
        case 16:
          s.dependentSchemas = { [pick(NAMES)]: schema(depth + 1) };
          break;
        case 17:
        case 18:
          s[pick(['allOf', 'anyOf', 'oneOf'])] = [schema(depth + 1), schema(depth + 1)];
          break;
        case 19:
          s.not = schema(depth + 1);
          break;
        case 20:
          s.if = schema(depth + 1);
          s[r() < 0.5 ? 'then' : 'else'] = schema(depth + 1);
          break;
        case 21:
          s.items = { $ref: '#' };
          break;
        case 22:
          s.pattern = pick(['^a', 'b$', '😀']);
          break;
        default:
          s.properties = { [pick(NAMES)]: { $ref: '#' } };
      }
    }
    return s;
  }
  return { value, schema };
}

test('the tier agrees with the module on generated schemas and values', () => {
  const { value, schema } = generator(46);
  const mismatches = [];
  const counts = tally();
  for (let i = 0; i < 400; i++) {
    const s = schema(0);
    const contract = Contract.compile(s, { draft: '2020-12' });
    for (let j = 0; j < 15; j++) {
      const v = value(0);
      const m = compare(contract, v, counts, `${JSON.stringify(s)} × ${JSON.stringify(v)}`);
      if (m !== null) mismatches.push(m);
    }
    contract.free();
  }
  const total = counts.alone + counts.delegated + counts.unknown;
  console.log(`generated: ${total} verdicts; tier alone ${counts.alone}, with node delegates ${counts.delegated}, left to the module ${counts.unknown}`);
  assert.deepEqual(mismatches.slice(0, 10), []);
  assert.ok(counts.unknown < total * 0.05, JSON.stringify(counts));
});

test('values JSON cannot carry, or carries otherwise, are left to the module', () => {
  const contract = Contract.compile({ type: 'object' });
  class Point {
    constructor() {
      this.x = 1;
    }
  }
  const cyclic = {};
  cyclic.self = cyclic;
  const deep = [];
  let at = deep;
  for (let i = 0; i < 200; i++) at = at[0] = [];
  for (const v of [{ a: undefined }, { d: new Date(0) }, new Point(), { n: NaN }, { b: 1n }, { s: '\ud800' }, { f() {} }, { big: 2 ** 60 }, { toJSON: () => 1 }, cyclic, { n: new Number(1) }, deep, { s: 'x'.repeat(200_000) }]) {
    assert.equal(contract[tierVerdict](v).verdict, undefined);
  }
  // The module's answers stay: a TypeError for what JSON cannot carry, the verdict otherwise.
  assert.throws(() => contract.validate(cyclic), TypeError);
  assert.equal(contract.validate(new Point()).valid, true);
  assert.equal(contract.validate({ a: undefined }).valid, true);
  assert.equal(contract.validate(deep).valid, false);
  assert.equal(contract[tierVerdict]({ p: { q: [1, 'x'] } }).verdict, true);
});

test('the output limits validate(value) enforces through the text stay enforced', () => {
  const values = [{}, { a: 'x' }, { a: 'x'.repeat(40) }, [[[]]], [[[[1]]]], { a: [{ b: ['é😀'] }] }, 'y'.repeat(30), 12345];
  for (const options of [{ maxOutputBytes: 16 }, { maxOutputBytes: 64 }, { maxDepth: 2 }, { maxDepth: 3, maxOutputBytes: 30 }]) {
    const contract = Contract.compile({}, options);
    for (const v of values) {
      const expected = contract.validateText(JSON.stringify(v)).valid;
      assert.equal(contract.validate(v).valid, expected, `${JSON.stringify(options)} ${JSON.stringify(v)}`);
      const { verdict } = contract[tierVerdict](v);
      assert.ok(verdict === undefined || verdict === expected, `${JSON.stringify(options)} ${JSON.stringify(v)}`);
    }
  }
});

test('the tier is eval-free: no code generation in its source, and it runs where code generation is refused', () => {
  const dir = join(repo, 'pkg/src/tier');
  for (const name of readdirSync(dir)) {
    // The code-generating backend, which only the Node and Deno entries load (tier-codegen.test.mjs).
    if (name === 'codegen.js') continue;
    const source = readFileSync(join(dir, name), 'utf8');
    assert.doesNotMatch(source, /new\s+Function|\beval\s*\(|\bFunction\s*\(/, name);
  }
  const script = `
    import { Contract, ready } from 'output-contract';
    await ready;
    const c = Contract.compile({ type: 'object', required: ['a'], properties: { a: { type: 'array', items: { $ref: '#' } } } });
    const hook = Symbol.for('output-contract tierVerdict');
    const v = { a: [{ a: [] }] };
    console.log(JSON.stringify([c[hook](v).verdict, c.validate(v).valid, c.validate({ a: 1 }).valid]));
  `;
  const run = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script], { cwd: repo, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), '[true,true,false]');
});
