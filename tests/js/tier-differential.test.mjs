// The verdict tier (pkg/src/tier/) against the module: for every JSON-Schema-Test-Suite case
// (every draft, optional/ and optional/format/ included, remotes as resources), every JTD suite
// case, and generated schemas × generated values, the tier's own answer with generated code and
// with the closures (`codegen: false`) — when it gives one — equals the module's verdict on the value's JSON text, and contract.validate(value) keeps
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
import { bothBackends, compare, drafts, generator, tally, tierVerdict } from './tier-cases.mjs';

const report = (what, counts) => {
  const total = counts.alone + counts.delegated + counts.unknown;
  console.log(`${what}: ${total} verdicts; the tier alone ${counts.alone}, with node delegates ${counts.delegated}, left to the module ${counts.unknown}`);
  return total;
};

test('both backends agree with the module on every JSON-Schema-Test-Suite case', { skip: !existsSync(suite) && 'the suite is not at ../shared' }, () => {
  setCacheCapacity(0);
  const resources = remoteResources();
  const mismatches = [];
  const counts = tally();
  for (const draft of drafts) {
    for (const file of jsonFiles(join(suite, 'tests', draft))) {
      const rel = relative(join(suite, 'tests'), file).split('\\').join('/');
      const formats = rel.includes('/optional/format/');
      for (const group of JSON.parse(readFileSync(file, 'utf8'))) {
        let pair;
        try {
          pair = bothBackends(group.schema, { draft, strict: false, formats, resources });
        } catch {
          continue;
        }
        for (const t of group.tests) {
          const m = compare(pair, t.data, counts, `${rel}::${group.description}::${t.description}`);
          if (m !== null) mismatches.push(m);
        }
        pair.forEach((c) => c.free());
      }
    }
  }
  setCacheCapacity(64);
  const total = report('JSON-Schema-Test-Suite', counts);
  assert.deepEqual(mismatches, []);
  // The tier answers most cases itself (the rest: dynamic scope, non-JSON numbers…).
  assert.ok(counts.alone + counts.delegated > total * 0.8, JSON.stringify(counts));
});

test('both backends agree with the module on the JTD suite', { skip: !existsSync(join(repo, '../shared/jtd-test-suite')) && 'the JTD suite is not at ../shared' }, () => {
  const cases = Object.entries(JSON.parse(readFileSync(join(repo, '../shared/jtd-test-suite/validation.json'), 'utf8')));
  const mismatches = [];
  const counts = tally();
  for (const [name, { schema, instance }] of cases) {
    const pair = bothBackends(schema, { draft: 'jtd' });
    const m = compare(pair, instance, counts, name);
    if (m !== null) mismatches.push(m);
    pair.forEach((c) => c.free());
  }
  report('JTD suite', counts);
  assert.deepEqual(mismatches, []);
  assert.ok(counts.alone > cases.length * 0.8, JSON.stringify(counts));
});

test('both backends agree with the module on generated schemas and values', () => {
  const { value, schema } = generator(46);
  const mismatches = [];
  const counts = tally();
  for (let i = 0; i < 400; i++) {
    const s = schema(0);
    const pair = bothBackends(s, { draft: '2020-12' });
    for (let j = 0; j < 15; j++) {
      const v = value(0);
      const m = compare(pair, v, counts, `${JSON.stringify(s)} × ${JSON.stringify(v)}`);
      if (m !== null) mismatches.push(m);
    }
    pair.forEach((c) => c.free());
  }
  const total = report('generated', counts);
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
