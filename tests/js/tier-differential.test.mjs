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
import { bothBackends, compare, drafts, generator, modulePath, tally, tierVerdict } from './tier-cases.mjs';

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

// What validate(value) answers, or the module's path alone (the tests' hook leaves the tier
// out): the verdict and error, or the TypeError's message.
function answer(run) {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return { typeError: e.message };
  }
}
const moduleAnswer = (contract, value) => answer(() => contract[modulePath](value));
const validateAnswer = (contract, value) => answer(() => contract.validate(value));

test('plain data is established where the checks look and walked where they do not, as the module would read it', () => {
  class Point {
    constructor() {
      this.x = 1;
    }
  }
  const cyclic = { a: 'x' };
  cyclic.b = { c: cyclic };
  const nullProto = Object.assign(Object.create(null), { a: 'x', b: 1 });
  const hiddenToJSON = { a: 'x', b: {} };
  Object.defineProperty(hiddenToJSON.b, 'toJSON', { value: () => 1, enumerable: false });
  const arrayToJSON = { a: 'x', b: [1] };
  Object.defineProperty(arrayToJSON.b, 'toJSON', { value: () => 2, enumerable: false });
  const extraArrayMember = { a: 'x', b: Object.assign([1, 2], { note: 'not JSON' }) };
  const schemas = [
    { type: 'object', properties: { a: { type: 'string' } } },
    { type: 'object', properties: { a: { type: 'string' }, b: { type: 'object' } } },
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: ['object', 'array', 'number', 'string', 'null'] } },
    { type: 'object', required: ['a'] },
    { properties: { a: {}, b: { items: { properties: { c: true } } } } },
    { anyOf: [{ type: 'string' }, { type: 'object', properties: { a: { const: 'x' } } }] },
    { not: { type: 'number' } },
    { type: 'object', patternProperties: { '^b': {} }, properties: { a: { enum: ['x', 'y'] } } },
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    { type: 'array', items: { type: 'object' } },
    { type: 'object', properties: { a: { type: 'string' }, b: { type: 'object', properties: { c: { type: 'string' } } } } },
    { type: 'object', properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'number' } } } },
    {},
  ];
  const values = [
    { a: 'x' },
    { a: 'x', b: NaN },
    { a: 'x', b: Infinity },
    { a: 'x', b: -Infinity },
    { a: 'x', b: -0 },
    { a: 'x', b: 1n },
    { a: 'x', b: undefined },
    { a: undefined },
    { a: 'x', b: [1, , 2] }, // eslint-disable-line no-sparse-arrays
    { a: 'x', b: { c: { d: [undefined] } } },
    { a: 'x', b: { c: { d: [1n] } } },
    { a: 'x', b: () => 1 },
    { a: 'x', b: Symbol('s') },
    { a: 'x', [Symbol('key')]: 1 },
    { a: 'x', b: new Date(0) },
    { a: 'x', b: new Point() },
    new Point(),
    { a: 'x', b: new Number(1) },
    { a: 'x', b: { toJSON: () => 1 } },
    { a: 'x', b: { c: { toJSON: () => 1 } } },
    hiddenToJSON,
    arrayToJSON,
    extraArrayMember,
    { a: 'x', '\ud800': 1 },
    { a: 'x\udc00' },
    { a: 'x', b: 'y\ud800z' },
    { a: 'x', b: ['\udfff'] },
    { a: 'x', b: 2 ** 60 },
    { a: 'x', b: 2 ** 53 },
    nullProto,
    cyclic,
    [{ a: 'x' }, { b: NaN }],
    [{ a: 'x' }, [1n]],
    'x\ud800',
    NaN,
    undefined,
  ];
  const mismatches = [];
  for (const schema of schemas) {
    const pair = bothBackends(schema, { draft: '2020-12' });
    const reference = Contract.compile(schema, { draft: '2020-12' });
    for (const [i, v] of values.entries()) {
      const id = `${JSON.stringify(schema)} × value ${i}`;
      const expected = moduleAnswer(reference, v);
      for (const contract of pair) {
        const { verdict, backend } = contract[tierVerdict](v);
        // The tier answers true only where the module's path finds the value valid, and false
        // only where it finds it invalid: a value the module refuses with a TypeError is unknown.
        if (verdict !== undefined && (expected.typeError !== undefined || verdict !== expected.valid)) mismatches.push(`${id}: ${backend} ${verdict}, module ${JSON.stringify(expected)}`);
        const got = validateAnswer(contract, v);
        try {
          assert.deepEqual(got, expected);
        } catch {
          mismatches.push(`${id}: validate (${backend}) ${JSON.stringify(got)}, module ${JSON.stringify(expected)}`);
        }
      }
    }
    [...pair, reference].forEach((c) => c.free());
  }
  assert.deepEqual(mismatches, []);
});

test('an object of a learnt member order is judged as JSON would write it: hidden, undefined, extra and inherited members', () => {
  // Each backend learns the member order of the first objects it sees, then takes an object
  // whose keys are the names in that order by a short pass over its keys: these values look
  // like the learnt ones to a pass that only counts.
  const hidden = (o, k, value) => Object.defineProperty(o, k, { value, enumerable: false, configurable: true, writable: true });
  const schemas = [
    { type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'number' } } },
    { type: 'object', required: ['a'], properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'number' } }, additionalProperties: false },
    { type: 'array', items: { type: 'object', required: ['a', 'c'], properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'number', maximum: 3 } } } },
    { type: 'object', properties: { a: { type: 'string' }, d: { type: 'object' } } },
  ];
  const learning = [{ a: 'x', b: 'y', c: 1 }, { a: 'x', b: 'y', c: 2 }, { a: 'x', c: 1 }, { a: 'x', d: { ab: 1, cd: 'e' } }];
  const tricky = () => [
    // A named member JSON leaves out (not enumerable) and an extra key: as many keys as names found.
    hidden({ a: 'x', x: 1 }, 'c', 5),
    hidden({ a: 'x', b: 'y', x: 'z' }, 'c', 1),
    // An enumerable named member that is undefined, and a hidden one: as many keys as names found.
    hidden({ a: 'x', b: undefined }, 'c', 1),
    hidden({ a: 'x', c: undefined }, 'b', 'y'),
    hidden({ a: 'x', b: 'y', c: undefined }, 'x', 1),
    // A hidden named member alone; a required one hidden.
    hidden({ a: 'x', b: 'y' }, 'c', 9),
    hidden({ b: 'y', c: 1 }, 'a', 'x'),
    // The learnt names in another order, fewer, or with one more.
    { c: 1, b: 'y', a: 'x' },
    { a: 'x' },
    { a: 'x', b: 'y', c: 1, x: 1 },
    { a: 'x', b: 'y', c: 1, x: 1n },
    { a: 'x', b: 'y', c: 4 },
    // A member name of a length met before, with a lone surrogate.
    { a: 'x', d: { '\ud800b': 1 } },
    { a: 'x', d: { ab: 1, 'c\udc00': 'e' } },
    { a: 'x', d: { ab: 1, cd: 'e' } },
  ];
  const mismatches = [];
  for (const schema of schemas) {
    const pair = bothBackends(schema, { draft: '2020-12' });
    const reference = Contract.compile(schema, { draft: '2020-12' });
    const wrap = (v) => (schema.type === 'array' ? [v, v] : v);
    const check = (v, what) => {
      const expected = moduleAnswer(reference, v);
      for (const contract of pair) {
        const { verdict, backend } = contract[tierVerdict](v);
        if (verdict !== undefined && (expected.typeError !== undefined || verdict !== expected.valid)) mismatches.push(`${JSON.stringify(schema)} × ${what}: ${backend} ${verdict}, module ${JSON.stringify(expected)}`);
        try {
          assert.deepEqual(validateAnswer(contract, v), expected);
        } catch {
          mismatches.push(`${JSON.stringify(schema)} × ${what}: validate (${backend})`);
        }
      }
    };
    for (const [i, v] of tricky().entries()) {
      for (let round = 0; round < 3; round++) for (const l of learning) check(wrap(l), 'learning');
      check(wrap(v), `value ${i}`);
      // An enumerable key inherited from Object.prototype, which JSON leaves out: another name,
      // or one of the schema's.
      for (const name of ['x', 'b']) {
        Object.prototype[name] = 'y'; // eslint-disable-line no-extend-native
        try {
          check(wrap(v), `value ${i} with Object.prototype.${name}`);
          for (const l of learning) check(wrap(l), `learning with Object.prototype.${name}`);
        } finally {
          delete Object.prototype[name];
        }
      }
    }
    [...pair, reference].forEach((c) => c.free());
  }
  assert.deepEqual(mismatches, []);
});

test('a toJSON put on Object.prototype or Array.prototype leaves every value to the module', () => {
  const schema = { type: 'object', properties: { a: { type: 'array' } } };
  const pair = bothBackends(schema, { draft: '2020-12' });
  const reference = Contract.compile(schema, { draft: '2020-12' });
  for (const proto of [Object.prototype, Array.prototype]) {
    proto.toJSON = function () {
      return 1;
    };
    try {
      for (const contract of pair) {
        assert.equal(contract[tierVerdict]({ a: [1] }).verdict, undefined);
        assert.deepEqual(contract.validate({ a: [1] }), reference[modulePath]({ a: [1] }));
      }
    } finally {
      delete proto.toJSON;
    }
  }
  for (const contract of pair) assert.equal(contract[tierVerdict]({ a: [1] }).verdict, true);
});

test('values at and just past the output limits, where the checks look and where they walk', () => {
  const schemas = [{}, { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'array' } } } }, { properties: { a: { type: 'string' } } }, { type: 'object', additionalProperties: { type: 'string' } }];
  const nest = (n) => (n === 0 ? 1 : [nest(n - 1)]);
  const mismatches = [];
  for (const schema of schemas) {
    for (const options of [{ maxDepth: 3 }, { maxDepth: 4 }, { maxOutputBytes: 20 }, { maxOutputBytes: 200 }]) {
      const pair = bothBackends(schema, { draft: '2020-12', ...options });
      const reference = Contract.compile(schema, { draft: '2020-12', ...options });
      const values = [nest(2), nest(3), nest(4), nest(5), { a: 'x'.repeat(9) }, { a: 'x'.repeat(10) }, { a: 'x'.repeat(12) }, { a: 'é'.repeat(6) }, { a: 'x'.repeat(180) }, { a: 'x'.repeat(195) }, { a: '😀'.repeat(47) }, { a: { b: { c: { d: 'x' } } } }];
      for (const v of values) {
        const text = JSON.stringify(v);
        const expected = reference[modulePath](v).valid;
        const id = `${JSON.stringify(schema)} ${JSON.stringify(options)} × ${text.slice(0, 40)} (${Buffer.byteLength(text)} bytes)`;
        for (const contract of pair) {
          const { verdict, backend } = contract[tierVerdict](v);
          if (verdict !== undefined && verdict !== expected) mismatches.push(`${id}: ${backend} ${verdict}, module ${expected}`);
          if (contract.validate(v).valid !== expected) mismatches.push(`${id}: validate (${backend})`);
        }
      }
      [...pair, reference].forEach((c) => c.free());
    }
  }
  assert.deepEqual(mismatches, []);
});

test('a multipleOf of a power of two below 1 agrees with the module\'s decimal rule', () => {
  const numbers = [0, -0, 0.5, 1.5, -2.5, 0.25, 0.75, 0.125, 0.1, 0.3, 1e-7, 1e-30, 5e-324, 7, 3.0000000000000004, 0.30000000000000004, 123456789012.5, 99999999999999.5, 1e14 + 0.5, 2 ** 52 + 0.5, 1125899906842624.2, 2 ** 53, 1e20, 1.7976931348623157e308, 0.0009765625, 1.0009765625];
  const mismatches = [];
  const counts = tally();
  for (const multipleOf of [0.5, 0.25, 0.125, 2 ** -10, 0.1, 0.3, 1.5]) {
    const pair = bothBackends({ multipleOf }, { draft: '2020-12' });
    for (const n of numbers) {
      const m = compare(pair, n, counts, `multipleOf ${multipleOf} × ${n}`);
      if (m !== null) mismatches.push(m);
    }
    pair.forEach((c) => c.free());
  }
  assert.deepEqual(mismatches, []);
  assert.ok(counts.alone > 70, JSON.stringify(counts));
});

test('the tier calls a contract\'s format functions itself; one that throws leaves the value to the module', () => {
  let calls = 0;
  const boom = new RangeError('no catalogue');
  const sku = (s) => {
    calls += 1;
    if (s === 'explode') throw boom;
    if (s === 'later') return Promise.resolve(true);
    // Truthy and falsy answers, as the module reads them.
    return s.startsWith('SKU-') ? 1 : '';
  };
  const schema = { type: 'object', properties: { sku: { type: 'string', format: 'sku' }, tags: { type: 'array', items: { format: 'sku' } } } };
  const pair = bothBackends(schema, { draft: '2020-12', formats: { sku } });
  for (const contract of pair) {
    const { backend } = contract[tierVerdict]({});
    const before = contract[tierVerdict](undefined).judged;
    for (const [value, valid] of [[{ sku: 'SKU-1', tags: ['SKU-2', 3] }, true], [{ sku: 'x' }, false], [{ tags: ['SKU-1', 'y'] }, false]]) {
      calls = 0;
      assert.equal(contract[tierVerdict](value).verdict, valid, backend);
      assert.ok(calls > 0, backend);
      assert.equal(contract.validate(value).valid, valid, backend);
      assert.deepEqual(contract.validate(value), contract[modulePath](value), backend);
    }
    assert.equal(contract[tierVerdict](undefined).judged, before, `${backend}: the module was not asked`);
    for (const odd of ['explode', 'later']) {
      assert.equal(contract[tierVerdict]({ sku: odd }).verdict, undefined, backend);
      assert.throws(() => contract.validate({ sku: odd }), (e) => e.name === 'FormatFunctionError' && e.format === 'sku' && (odd === 'later' || e.cause === boom), backend);
    }
    // The contract goes on working.
    assert.equal(contract.validate({ sku: 'SKU-9' }).valid, true, backend);
  }
  assert.deepEqual(pair.map((c) => c[tierVerdict]({}).backend), ['codegen', 'closures']);
});
