// Patterns the module's gate (src/validator/ecma/gate.rs) lets the tier run on JavaScript's own
// RegExp: for every pattern of the JSON-Schema-Test-Suite, bench/'s schemas, tests/'s JSON files
// and a list of edge cases, the tier's verdict on many strings (ASCII, Unicode, astral, empty,
// line terminators, and strings built from the pattern's own characters) equals the module's
// (validateText), and a pattern the gate passes is answered by the tier alone. Also the formats
// the tier carries, on random and edge strings. Prints how many patterns the gate passed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, ready, setCacheCapacity } from 'output-contract';
import { jsonFiles, repo, suite } from './suite-files.mjs';
import { schemas as corpusSchemas } from '../../bench/corpus.mjs';

await ready;

import { rng, tierVerdict } from './tier-cases.mjs';


// Every `pattern` value and patternProperties name in a schema-like value.
function collect(v, out) {
  if (Array.isArray(v)) for (const x of v) collect(x, out);
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'pattern' && typeof x === 'string') out.add(x);
      if (k === 'patternProperties' && typeof x === 'object' && x !== null && !Array.isArray(x)) for (const p of Object.keys(x)) out.add(p);
      collect(x, out);
    }
  }
}

function jsonUnder(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) jsonUnder(path, out);
    else if (name.endsWith('.json')) out.push(path);
  }
  return out;
}

const EDGE = [
  '^[a-z]+$',
  '^[a-z0-9]+(?:-[a-z0-9]+)*$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '^\\w+$',
  '^\\s*$',
  '^\\S+$',
  '^.$',
  '^.+$',
  '^[^]$',
  'a$',
  '^$',
  '',
  '^\\bfoo\\b',
  '\\Bx',
  '^[^a-z]*$',
  '^é+$',
  '^🐲$',
  '^[🐲-🐳]$',
  '^\\u00e9$',
  '^\\u{1F432}$',
  '^[\\u0080-\\uffff]+$',
  '^\\x41',
  '^[\\d.]+$',
  '^(?:get|post|put)$',
  '^[A-Z][a-z]*(?: [A-Z][a-z]*)*$',
  '^https?://[^\\s/]+(?:/[^\\s/]*)*$',
  '^[+-]?\\d+$',
  '^\\$ref$',
  '[\\n\\r]',
  '^[\\t ]+$',
  '\\d{1,3}',
  '^(a|b)*c$',
];

const ALPHABET = ['a', 'b', 'c', 'x', 'z', 'A', 'Z', '0', '1', '9', '-', '_', '.', ' ', '\t', '\n', '\r', '\u2028', '\u00a0', '\ufeff', '\u180e', 'é', 'ß', 'İ', '৪', '٣', '🐲', '𝒜', '😀', '/', ':', '$', '@', '+'];

function strings(source, r) {
  // The pattern's own characters make matches likely.
  const own = [...source].filter((c) => !'^$\\()[]{}|*+?'.includes(c));
  const pool = own.length > 0 ? [...ALPHABET, ...own, ...own] : ALPHABET;
  const out = ['', ' ', '\n', 'a\n', '\na', '🐲', 'a'.repeat(40), '1'.repeat(40) + 'x'];
  for (let i = 0; i < 60; i++) {
    const n = Math.floor(r() * (i < 40 ? 6 : 24));
    let s = '';
    for (let j = 0; j < n; j++) s += pool[Math.floor(r() * pool.length)];
    out.push(s);
  }
  return out;
}

function patterns() {
  const found = new Set(EDGE);
  if (existsSync(suite)) for (const draft of ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12']) for (const f of jsonFiles(join(suite, 'tests', draft))) collect(JSON.parse(readFileSync(f, 'utf8')), found);
  for (const f of jsonUnder(join(repo, 'bench'), [])) {
    try {
      collect(JSON.parse(readFileSync(f, 'utf8')), found);
    } catch {}
  }
  for (const f of jsonUnder(join(repo, 'tests'), [])) {
    try {
      collect(JSON.parse(readFileSync(f, 'utf8')), found);
    } catch {}
  }
  for (const s of corpusSchemas()) collect(s.schema ?? s, found);
  return [...found];
}

test('patterns the gate passes run on RegExp with the module verdict', () => {
  setCacheCapacity(0);
  const r = rng(46);
  const mismatches = [];
  let passed = 0;
  let refused = 0;
  let checked = 0;
  const all = patterns();
  for (const pattern of all) {
    let contract;
    try {
      contract = Contract.compile({ type: 'string', pattern }, { draft: 'draft2020-12' });
    } catch {
      continue;
    }
    let alone = true;
    for (const s of strings(pattern, r)) {
      const before = contract[tierVerdict](undefined).judged;
      const { verdict, judged } = contract[tierVerdict](s);
      if (verdict === undefined || judged > before) alone = false;
      const expected = contract.validateText(JSON.stringify(s)).valid;
      checked++;
      if (verdict !== undefined && verdict !== expected) mismatches.push(`${JSON.stringify(pattern)} on ${JSON.stringify(s)}: tier ${verdict}, module ${expected}`);
    }
    if (alone) passed++;
    else refused++;
    contract.free();
  }
  setCacheCapacity(64);
  console.log(`patterns: ${passed + refused} compiled, ${passed} run on RegExp by the tier, ${refused} left to the module; ${checked} strings compared`);
  assert.deepEqual(mismatches, []);
  assert.ok(passed > (passed + refused) / 2, `${passed} of ${passed + refused}`);
});

const FORMAT_EDGE = {
  date: ['2020-02-29', '2019-02-29', '2000-02-29', '1900-02-29', '2020-13-01', '2020-00-10', '2020-01-00', '2020-01-32', '2020-04-31', '2020-1-01', '२०२०-01-01', '2020-01-01 ', '20200101', '0000-01-01'],
  time: ['12:00:00Z', '12:00:00z', '23:59:60Z', '23:59:60+00:00', '00:59:60+01:00', '22:59:60-01:00', '12:00:60Z', '24:00:00Z', '12:60:00Z', '12:00:00.5Z', '12:00:00.Z', '12:00:00', '12:00:00+24:00', '12:00:00+23:60', '12:00:00+0100', '1:00:00Z', '12:00:00.123456789+05:30', '12:00:00Z ', '12:00:00Ž'],
  'date-time': ['2020-01-01T12:00:00Z', '2020-01-01t12:00:00z', '2020-01-01 12:00:00Z', '2020-02-30T12:00:00Z', '2016-12-31T23:59:60Z', '2016-12-31T23:59:60+01:00', '2020-01-01T12:00:00', '2020-01-01TT12:00:00Z', 'é020-01-01T12:00:00Z'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000', '123E4567-E89B-12D3-A456-426614174000', '123e4567e89b12d3a456426614174000', '123e4567-e89b-12d3-a456-42661417400g', '123e4567-e89b-12d3-a456-4266141740000', '{123e4567-e89b-12d3-a456-426614174000}'],
  email: ['joe@example.com', 'a.b-c+d@sub.example.org', 'a..b@example.com', '.a@example.com', 'a@', '@example.com', 'a@b@example.com', '"joe bloggs"@example.com', 'joe@[127.0.0.1]', 'joe@[IPv6:::1]', 'joe@xn--bcher-kva.example', 'joe@ab--cd.example', 'joe@-example.com', 'joe@example-.com', 'joe@example..com', 'jöe@example.com', 'joe@exämple.com', `${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(64)}.com`, 'joe@example.com.', 'a b@example.com'],
  uri: ['https://example.com', 'https://user:pw@example.com:8080/a/b?q=1&r=%20#frag', 'urn:isbn:0451450523', 'mailto:joe@example.com', 'http://[::1]:80/', 'http://[v1.x]/', '//example.com', '/path', 'a:b', '1a:b', ':x', 'http://exa mple.com', 'http://example.com/%zz', 'http://example.com/%4', 'http://ex%41mple.com', 'http://example.com:80a/', 'http://a@b@c/', 'http://é.com', 'http://example.com/a#b#c', 'http://example.com/?a?b', 'a/b:c', 'http://h:/', 'HTTP://EXAMPLE.COM', 'http://example.com/\\'],
  ipv4: ['0.0.0.0', '255.255.255.255', '256.0.0.1', '01.2.3.4', '1.2.3', '1.2.3.4.5', '1..3.4', '1.2.3.4 ', '١.2.3.4', '100.200.250.249', '1.2.3.04', '000.1.1.1'],
};

test('formats the tier carries agree with the module', () => {
  const r = rng(7);
  const mismatches = [];
  let alone = 0;
  for (const [format, edge] of Object.entries(FORMAT_EDGE)) {
    for (const draft of ['draft7', 'draft2020-12']) {
      const contract = Contract.compile({ format }, { draft, formats: true, strict: false });
      const chars = [...new Set(edge.join(''))];
      const values = [...edge, 1, null, {}];
      for (let i = 0; i < 400; i++) {
        // Mutations of the edge cases: one character replaced, dropped or doubled.
        const base = edge[Math.floor(r() * edge.length)];
        const at = Math.floor(r() * base.length);
        const c = chars[Math.floor(r() * chars.length)];
        const k = Math.floor(r() * 3);
        values.push(k === 0 ? base.slice(0, at) + c + base.slice(at + 1) : k === 1 ? base.slice(0, at) + base.slice(at + 1) : base.slice(0, at) + base[at] + base.slice(at));
      }
      for (const v of values) {
        const before = contract[tierVerdict](undefined).judged;
        const { verdict, judged } = contract[tierVerdict](v);
        if (verdict !== undefined && judged === before) alone++;
        if (verdict === undefined) mismatches.push(`${format} (${draft}) on ${JSON.stringify(v)}: no verdict`);
        const expected = contract.validateText(JSON.stringify(v)).valid;
        if (verdict !== expected) mismatches.push(`${format} (${draft}) on ${JSON.stringify(v)}: tier ${verdict}, module ${expected}`);
      }
      contract.free();
    }
  }
  assert.deepEqual(mismatches, []);
  assert.ok(alone > 0);
});

test('a custom format given as a pattern follows the gate', () => {
  const contract = Contract.compile({ properties: { a: { format: 'code' }, b: { format: 'slow' } } }, { formats: { code: '^[A-Z]{3}$', slow: '^(a+)+$' } });
  for (const [v, valid] of [[{ a: 'ABC' }, true], [{ a: 'abc' }, false], [{ a: 1 }, true]]) {
    const before = contract[tierVerdict](undefined).judged;
    const { verdict, judged } = contract[tierVerdict](v);
    assert.equal(verdict, valid);
    assert.equal(judged, before, 'answered by the tier alone');
  }
  const before = contract[tierVerdict](undefined).judged;
  const { verdict, judged } = contract[tierVerdict]({ b: 'aaaa!' });
  assert.equal(verdict, false);
  assert.ok(judged > before, 'the module judges a pattern the gate refuses');
  contract.free();
});
