// The verdict tier's code-generating backend (pkg/src/tier/codegen.js) against the module and
// against the closures: every JSON-Schema-Test-Suite case, the JTD suite and generated schemas
// give the same verdict with generated code, with closures (`codegen: false`) and in the module;
// schema strings written to break out of the generated code run nothing; `codegen: false`, the
// MCP validator and a runtime refusing code generation keep to the closures; the browser and
// workerd entries never reach codegen.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Contract, McpJsonSchemaValidator, ready, setCacheCapacity } from 'output-contract';
import { jsonFiles, remoteResources, repo, suite } from './suite-files.mjs';

await ready;

const tierVerdict = Symbol.for('output-contract tierVerdict');

/**
 * Compares both backends with the module on one value (`generated` and `closures` are the same
 * schema compiled with and without code generation); returns a mismatch text or null.
 */
function compare(generated, closures, value, counts, id) {
  const expected = generated.validateText(JSON.stringify(value)).valid;
  const a = generated[tierVerdict](value);
  const b = closures[tierVerdict](value);
  if (a.backend !== null) {
    if (a.backend !== 'codegen') return `${id}: backend ${a.backend}, not codegen`;
    if (b.backend !== 'closures') return `${id}: codegen: false gave backend ${b.backend}`;
  }
  if (a.verdict === undefined) counts.unknown++;
  else counts.answered++;
  if (a.verdict !== undefined && a.verdict !== expected) return `${id}: codegen ${a.verdict}, module ${expected}`;
  if (b.verdict !== undefined && b.verdict !== expected) return `${id}: closures ${b.verdict}, module ${expected}`;
  // Both are exact, so where both answer they agree; where one is unknown the module decides.
  const got = generated.validate(value).valid;
  if (got !== expected) return `${id}: validate ${got}, validateText ${expected}`;
  return null;
}

const drafts = ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12'];

test('generated code agrees with the module and the closures on every JSON-Schema-Test-Suite case', { skip: !existsSync(suite) && 'the suite is not at ../shared' }, () => {
  setCacheCapacity(0);
  const resources = remoteResources();
  const mismatches = [];
  const counts = { answered: 0, unknown: 0 };
  for (const draft of drafts) {
    for (const file of jsonFiles(join(suite, 'tests', draft))) {
      const rel = relative(join(suite, 'tests'), file).split('\\').join('/');
      const formats = rel.includes('/optional/format/');
      for (const group of JSON.parse(readFileSync(file, 'utf8'))) {
        let generated;
        let closures;
        try {
          generated = Contract.compile(group.schema, { draft, strict: false, formats, resources });
          closures = Contract.compile(group.schema, { draft, strict: false, formats, resources, codegen: false });
        } catch {
          generated?.free();
          continue;
        }
        for (const t of group.tests) {
          const m = compare(generated, closures, t.data, counts, `${rel}::${group.description}::${t.description}`);
          if (m !== null) mismatches.push(m);
        }
        generated.free();
        closures.free();
      }
    }
  }
  setCacheCapacity(64);
  console.log(`JSON-Schema-Test-Suite: generated code answered ${counts.answered}, left ${counts.unknown} to the module`);
  assert.deepEqual(mismatches, []);
  assert.ok(counts.answered > (counts.answered + counts.unknown) * 0.8, JSON.stringify(counts));
});

test('generated code agrees with the module on the JTD suite', { skip: !existsSync(join(repo, '../shared/jtd-test-suite')) && 'the JTD suite is not at ../shared' }, () => {
  const cases = Object.entries(JSON.parse(readFileSync(join(repo, '../shared/jtd-test-suite/validation.json'), 'utf8')));
  const mismatches = [];
  const counts = { answered: 0, unknown: 0 };
  for (const [name, { schema, instance }] of cases) {
    const generated = Contract.compile(schema, { draft: 'jtd' });
    const closures = Contract.compile(schema, { draft: 'jtd', codegen: false });
    const m = compare(generated, closures, instance, counts, name);
    if (m !== null) mismatches.push(m);
    generated.free();
    closures.free();
  }
  console.log(`JTD suite: generated code answered ${counts.answered}, left ${counts.unknown} to the module`);
  assert.deepEqual(mismatches, []);
  assert.ok(counts.answered > cases.length * 0.8, JSON.stringify(counts));
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

const NAMES = ['a', 'b', 'c', '__proto__', 'toString', 'constructor', 'é', '😀'];
const STRINGS = ['', 'a', 'ab', 'abc', '😀', '😀😀', 'é', 'a😀b', 'xyz'];
const NUMBERS = [0, -0, 1, 2, 3, 1.5, -1, 0.1, 6, 10, 2 ** 53, 1e-7, 4.5, -2.5, 100];

function generator(seed) {
  const r = rng(seed);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const int = (n) => Math.floor(r() * n);
  const object = (entries) => {
    const o = {};
    for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, configurable: true, writable: true });
    return o;
  };

  function value(depth) {
    switch (int(depth > 2 ? 5 : 8)) {
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
      case 6:
        return object(Array.from({ length: int(4) }, () => [pick(NAMES), value(depth + 1)]));
      default:
        return Array.from({ length: int(4) }, () => value(depth + 1));
    }
  }

  const TYPES = ['string', 'integer', 'number', 'object', 'array', 'null', 'boolean'];
  function schema(depth) {
    if (depth > 3 || r() < 0.15) return pick([true, false, {}, { type: pick(TYPES) }]);
    const s = {};
    for (let i = 1 + int(3); i > 0; i--) {
      switch (int(20)) {
        case 0:
          s.type = r() < 0.5 ? pick(TYPES) : [...new Set([pick(TYPES), pick(TYPES)])];
          break;
        case 1:
          s.enum = Array.from({ length: 1 + int(r() < 0.2 ? 12 : 3) }, () => (r() < 0.7 ? pick([...STRINGS, ...NUMBERS, null, true]) : value(2)));
          break;
        case 2:
          s.const = value(2);
          break;
        case 3:
          s[pick(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'])] = pick(NUMBERS);
          break;
        case 4:
          s.multipleOf = pick([1, 2, 3, 0.5]);
          break;
        case 5:
          s[pick(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'])] = int(4);
          break;
        case 6:
          s.uniqueItems = true;
          break;
        case 7:
          s.items = schema(depth + 1);
          break;
        case 8:
          s.prefixItems = [schema(depth + 1), schema(depth + 1)];
          break;
        case 9:
          s.contains = schema(depth + 1);
          if (r() < 0.5) s.minContains = int(3);
          if (r() < 0.3) s.maxContains = 1 + int(2);
          break;
        case 10:
          s.required = [...new Set([pick(NAMES), pick(NAMES)])];
          break;
        case 11:
          s.properties = Object.fromEntries([pick(NAMES), pick(NAMES)].map((n) => [n, schema(depth + 1)]));
          break;
        case 12:
          s.additionalProperties = r() < 0.4 ? false : schema(depth + 1);
          break;
        case 13:
          s.propertyNames = r() < 0.5 ? { maxLength: 1 + int(2) } : { enum: NAMES.slice(0, 2 + int(8)) };
          break;
        case 14:
          s.dependentRequired = { [pick(NAMES)]: [pick(NAMES)] };
          break;
        case 15:
          s.dependentSchemas = { [pick(NAMES)]: schema(depth + 1) };
          break;
        case 16:
          s[pick(['allOf', 'anyOf', 'oneOf'])] = [schema(depth + 1), schema(depth + 1)];
          break;
        case 17:
          s.not = schema(depth + 1);
          break;
        case 18:
          s.if = schema(depth + 1);
          s[r() < 0.5 ? 'then' : 'else'] = schema(depth + 1);
          break;
        default:
          s[r() < 0.5 ? 'items' : 'additionalProperties'] = { $ref: '#' };
      }
    }
    return s;
  }
  return { value, schema };
}

test('generated code agrees with the module and the closures on generated schemas and values', () => {
  const { value, schema } = generator(4646);
  const mismatches = [];
  const counts = { answered: 0, unknown: 0 };
  for (let i = 0; i < 400; i++) {
    const s = schema(0);
    const generated = Contract.compile(s, { draft: '2020-12' });
    const closures = Contract.compile(s, { draft: '2020-12', codegen: false });
    for (let j = 0; j < 15; j++) {
      const v = value(0);
      const m = compare(generated, closures, v, counts, `${JSON.stringify(s)} × ${JSON.stringify(v)}`);
      if (m !== null) mismatches.push(m);
    }
    generated.free();
    closures.free();
  }
  console.log(`generated: generated code answered ${counts.answered}, left ${counts.unknown} to the module`);
  assert.deepEqual(mismatches.slice(0, 10), []);
  assert.ok(counts.unknown < (counts.answered + counts.unknown) * 0.05, JSON.stringify(counts));
});

// Strings that would end a string literal, a comment, a template or a script, or the generated
// code itself, if they were spliced in anywhere but a JSON string literal.
const HOSTILE = [
  '"',
  "'",
  '`',
  '${globalThis.pwned = 1}',
  '`+(globalThis.pwned = 1)+`',
  '*/ globalThis.pwned = 1; /*',
  '// \n globalThis.pwned = 1;',
  '</script><script>globalThis.pwned = 1</script>',
  '\u2028globalThis.pwned = 1;\u2029',
  '\u2028',
  '\u2029',
  '\\',
  '\\"',
  '\\u0022); globalThis.pwned = 1; //',
  '\n',
  '\r\n',
  '"}); globalThis.pwned = 1; ({"',
  "'}); globalThis.pwned = 1; ({'",
  '`}); globalThis.pwned = 1; ({`',
  '"; globalThis.pwned = 1; "',
  '") || (globalThis.pwned = 1) || ("',
  '}}}}); globalThis.pwned = 1; function f() {{{{',
  'n0',
  'v',
  'refs',
  'K[0]',
  '__proto__',
  'constructor',
  'toString',
  '\ud83d\ude00',
  '\0',
];

test('schema strings never run as code: hostile names, constants, patterns, formats, references', () => {
  delete globalThis.pwned;
  const schemas = [];
  for (const s of HOSTILE) {
    const other = `${s}x`;
    schemas.push([{ type: 'object', properties: { [s]: { const: s }, [other]: { enum: [s, other, 1] } }, required: [s], additionalProperties: false, description: s, title: s }, [{ [s]: s }, { [s]: s, [other]: other }, { [s]: 'x' }, {}, { [s]: s, y: 1 }]]);
    schemas.push([{ propertyNames: { enum: [s, other] }, dependentRequired: { [s]: [other] }, dependentSchemas: { [other]: { required: [s] } } }, [{ [s]: 1, [other]: 2 }, { [s]: 1 }, { [other]: 1 }, { z: 1 }]]);
    schemas.push([{ additionalProperties: { const: [s, { [s]: s }] }, properties: { a: { type: 'string' } } }, [{ [s]: [s, { [s]: s }] }, { [s]: [s, { [s]: other }] }]]);
    schemas.push([{ type: 'string', format: s, pattern: s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'), $comment: s }, [s, other, 'z']]);
    const pointer = encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'));
    schemas.push([{ $id: `https://example.com/${encodeURIComponent(s)}`, $defs: { [s]: { type: 'array', items: { const: s } } }, properties: { a: { $ref: `#/$defs/${pointer}` } } }, [{ a: [s, s] }, { a: [other] }]]);
    schemas.push([{ $defs: { x: { $anchor: 'hostile', enum: HOSTILE } }, items: { $ref: '#hostile' }, description: s }, [[s], HOSTILE, [other]]]);
  }
  let checked = 0;
  for (const [schema, values] of schemas) {
    let contract;
    try {
      contract = Contract.compile(schema, { draft: '2020-12', strict: false });
    } catch {
      continue;
    }
    for (const v of values) {
      const expected = contract.validateText(JSON.stringify(v)).valid;
      const { verdict, backend } = contract[tierVerdict](v);
      assert.equal(backend, 'codegen', JSON.stringify(schema));
      assert.ok(verdict === undefined || verdict === expected, `${JSON.stringify(schema)} × ${JSON.stringify(v)}`);
      assert.equal(contract.validate(v).valid, expected);
      checked++;
    }
    contract.free();
  }
  // JTD: hostile member names, discriminator tags and mapping values.
  for (const s of HOSTILE) {
    const other = `${s}x`;
    const third = `${s}y`;
    const contract = Contract.compile(
      { discriminator: s, mapping: { [s]: { properties: { [other]: { type: 'string' } } }, [other]: { optionalProperties: { [third]: { enum: [s, other] } } } } },
      { draft: 'jtd' },
    );
    for (const v of [{ [s]: s, [other]: 'a' }, { [s]: other, [third]: s }, { [s]: other, [third]: third }, { [s]: other }, { [s]: 'none' }, { [s]: s }]) {
      const expected = contract.validateText(JSON.stringify(v)).valid;
      const { verdict, backend } = contract[tierVerdict](v);
      assert.equal(backend, 'codegen');
      assert.ok(verdict === undefined || verdict === expected, `${s} × ${JSON.stringify(v)}`);
      checked++;
    }
    contract.free();
  }
  assert.equal(globalThis.pwned, undefined);
  assert.ok(checked > 500, `${checked}`);
});

test('a name added to Object.prototype is never taken for a member', () => {
  // A few names (read, behind a check of Object.prototype) and many (own-property tests).
  const many = Array.from({ length: 40 }, (_, i) => `n${i}`);
  for (const names of [['polluted'], ['polluted', ...many]]) {
    const c = Contract.compile({ required: names, properties: { polluted: { type: 'string' } } }, { draft: '2020-12' });
    const full = Object.fromEntries(names.map((n) => [n, 'x']));
    const { polluted, ...rest } = full;
    assert.equal(polluted, 'x');
    assert.equal(c[tierVerdict](rest).verdict, false);
    assert.equal(c[tierVerdict](full).verdict, true);
    Object.prototype.polluted = 'x';
    try {
      assert.notEqual(c[tierVerdict](rest).verdict, true);
      assert.equal(c.validate(rest).valid, false);
      assert.equal(c.validate(full).valid, true);
    } finally {
      delete Object.prototype.polluted;
    }
    assert.equal(c[tierVerdict](rest).backend, 'codegen');
  }
});

test('references around a cycle of in-place applicators agree with the module', () => {
  const schemas = [
    { $defs: { a: { anyOf: [{ $ref: '#/$defs/b' }, { type: 'string' }] }, b: { anyOf: [{ $ref: '#/$defs/a' }, { type: 'integer' }] } }, $ref: '#/$defs/a' },
    { $defs: { a: { allOf: [{ $ref: '#/$defs/b' }], properties: { x: { $ref: '#/$defs/a' } } }, b: { not: { not: { $ref: '#/$defs/a' } } } }, $ref: '#/$defs/a' },
    { oneOf: [{ $ref: '#' }, { type: 'null' }] },
    { if: { $ref: '#' }, then: { type: 'object' }, else: { items: { $ref: '#' } } },
  ];
  for (const schema of schemas) {
    const generated = Contract.compile(schema, { draft: '2020-12' });
    const closures = Contract.compile(schema, { draft: '2020-12', codegen: false });
    for (const v of [null, 1, 'x', { x: 1 }, { x: { x: 'y' } }, [1, [null]], []]) {
      assert.equal(compare(generated, closures, v, { answered: 0, unknown: 0 }, `${JSON.stringify(schema)} × ${JSON.stringify(v)}`), null);
    }
  }
});

test('codegen: false and the MCP validator keep to the closures', () => {
  const schema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] };
  assert.equal(Contract.compile(schema)[tierVerdict]({ a: 1 }).backend, 'codegen');
  const off = Contract.compile(schema, { codegen: false });
  assert.deepEqual(off[tierVerdict]({ a: 1 }), { verdict: true, judged: 0, backend: 'closures' });
  assert.equal(off.validate({ a: 1 }).valid, true);
  assert.equal(off.validate({ a: 'x' }).valid, false);
  assert.throws(() => Contract.compile(schema, { codegen: 'no' }), { name: 'OptionError', option: 'codegen' });

  // The MCP validator's contracts are out of reach: code generation is watched instead.
  const RealFunction = globalThis.Function;
  let generated = 0;
  globalThis.Function = new Proxy(RealFunction, {
    construct(target, args) {
      generated++;
      return Reflect.construct(target, args);
    },
  });
  try {
    const validator = new McpJsonSchemaValidator().getValidator({ type: 'object', properties: { b: { type: 'string', maxLength: 3 } }, required: ['b'] });
    assert.equal(validator({ b: 'abc' }).valid, true);
    assert.equal(validator({ b: 'abcd' }).valid, false);
    assert.equal(generated, 0);
    // The watch sees what a contract of its own generates.
    const own = Contract.compile({ type: 'object', properties: { c: { type: 'string', maxLength: 3 } } });
    assert.equal(own.validate({ c: 'abc' }).valid, true);
    assert.ok(generated > 0);
  } finally {
    globalThis.Function = RealFunction;
  }
});

test('where the runtime refuses code generation, validate(value) answers through the closures', () => {
  const script = `
    import { Contract, ready } from 'output-contract';
    await ready;
    const c = Contract.compile({ type: 'object', required: ['a'], properties: { a: { type: 'array', items: { $ref: '#' } } } });
    const hook = Symbol.for('output-contract tierVerdict');
    const v = { a: [{ a: [] }] };
    const t = c[hook](v);
    console.log(JSON.stringify([t.verdict, t.backend, c.validate(v).valid, c.validate({ a: 1 }).valid]));
  `;
  for (const type of ['module', 'commonjs']) {
    const source = type === 'module' ? script : `(async () => { ${script.replace("import { Contract, ready } from 'output-contract';", "const { Contract, ready } = require('output-contract');")} })()`;
    const run = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', `--input-type=${type}`, '-e', source], { cwd: repo, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), '[true,"closures",true,false]', type);
    // And where it allows it, the same verdicts from generated code (the CommonJS entry too).
    const allowed = spawnSync(process.execPath, [`--input-type=${type}`, '-e', source], { cwd: repo, encoding: 'utf8' });
    assert.equal(allowed.status, 0, allowed.stderr);
    assert.equal(allowed.stdout.trim(), '[true,"codegen",true,false]', type);
  }
});

/** The files the static imports of `entry` reach (relative specifiers only), `entry` included. */
function importGraph(entry) {
  const seen = new Set();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/\b(?:import|export)\s*(?:[\w*{}\s,$]*?\s*from\s*)?['"](\.{1,2}\/[^'"]+)['"]/g)) {
      if (m[1].endsWith('.js') || m[1].endsWith('.mjs')) stack.push(resolve(dirname(file), m[1]));
    }
    for (const m of source.matchAll(/\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) stack.push(resolve(dirname(file), m[1]));
  }
  return seen;
}

test('the browser and workerd entries never reach code generation', () => {
  const src = join(repo, 'pkg/src');
  const codegen = join(src, 'tier/codegen.js');
  for (const entry of ['browser.js', 'workerd.js']) {
    const graph = importGraph(join(src, entry));
    assert.ok(graph.has(join(src, 'api.js')) && graph.has(join(src, 'tier/closures.js')), `${entry}: the graph is read`);
    assert.ok(!graph.has(codegen), `${entry} reaches codegen.js`);
    for (const file of graph) {
      assert.doesNotMatch(readFileSync(file, 'utf8'), /new\s+Function|\beval\s*\(/, relative(repo, file));
    }
  }
  // The Node and Deno entries do reach it; no other source of the package generates code.
  for (const entry of ['node.js', 'deno.js', 'cjs-entry.js']) assert.ok(importGraph(join(src, entry)).has(codegen), entry);
  const generating = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, name.name);
      if (name.isDirectory()) walk(path);
      else if (/new\s+Function|\beval\s*\(/.test(readFileSync(path, 'utf8'))) generating.push(relative(src, path));
    }
  };
  walk(src);
  assert.deepEqual(generating, ['tier/codegen.js']);
});
