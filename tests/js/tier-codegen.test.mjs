// The verdict tier's code-generating backend (pkg/src/tier/codegen.js; its verdicts over the
// suites and generated schemas are compared in tier-differential.test.mjs): schema strings written
// to break out of the generated code run nothing; a name added to Object.prototype is never taken
// for a member; `codegen: false`, the MCP validator and a runtime refusing code generation keep to
// the closures; the browser and workerd entries never reach codegen.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Contract, McpJsonSchemaValidator, ready } from 'output-contract';
import { repo } from './suite-files.mjs';

await ready;

import { bothBackends, compare, tally, tierVerdict } from './tier-cases.mjs';

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
    const pair = bothBackends(schema, { draft: '2020-12' });
    for (const v of [null, 1, 'x', { x: 1 }, { x: { x: 'y' } }, [1, [null]], []]) {
      assert.equal(compare(pair, v, tally(), `${JSON.stringify(schema)} × ${JSON.stringify(v)}`), null);
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
