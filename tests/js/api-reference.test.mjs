// API.md is generated from the declarations (scripts/api-reference.mjs); these tests keep the
// three in step: the committed reference is what the declarations give, and the values the
// package exports at run time are exactly the ones declared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { declaredValues, render } from '../../scripts/api-reference.mjs';
import * as oc from 'output-contract';

test('API.md is generated from the current index.d.ts and ai.d.ts', () => {
  const committed = readFileSync(new URL('../../API.md', import.meta.url), 'utf8');
  assert.equal(committed, render(), 'API.md is out of date: run node scripts/api-reference.mjs');
});

test('the package exports at run time exactly the values index.d.ts declares', () => {
  assert.deepEqual(Object.keys(oc).sort(), declaredValues().sort());
});

test('every name in the README API table is declared', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('### API'), readme.indexOf('Options of `Contract.compile`'));
  // Rows naming a method of a compiled contract (`contract.validate`) are checked through Contract.
  const names = [...table.matchAll(/^\| `([A-Za-z]+)[.(`]/gm)].map((m) => (m[1] === 'contract' ? 'Contract' : m[1]));
  assert.ok(names.length >= 5, `names found: ${names}`);
  for (const name of names) assert.ok(declaredValues().includes(name), `${name} is in the README but not in index.d.ts`);
});
