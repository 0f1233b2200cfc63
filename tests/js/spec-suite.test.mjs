// The official JSON-Schema-Test-Suite through the npm package in Node, as tests/spec_suite.rs
// runs it through the Rust API: the specification's defaults (unknown keywords ignored, `format`
// an annotation except in optional/format), remotes supplied as resources (never fetched),
// required tests all green except tests/spec-known-failures.json, optional/ reported apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Contract, ready, setCacheCapacity } from 'output-contract';
import { jsonFiles, remoteResources, repo, suite } from './suite-files.mjs';

await ready;
const resources = existsSync(suite) ? remoteResources() : {};
const known = new Map(
  JSON.parse(readFileSync(join(repo, 'tests/spec-known-failures.json'), 'utf8')).failures.map((f) => [f.id, f.reason]),
);

const drafts = { draft4: 'draft4', draft6: 'draft6', draft7: 'draft7', 'draft2019-09': 'draft2019-09', 'draft2020-12': 'draft2020-12' };

test('JSON-Schema-Test-Suite through the npm package', { skip: !existsSync(suite) && 'the suite is not at ../shared' }, () => {
  setCacheCapacity(0); // every case compiles afresh; nothing is shared between cases
  const unexpected = [];
  const seenKnown = new Set();
  for (const [dir, draft] of Object.entries(drafts)) {
    const tally = { required: { pass: 0, fail: 0, known: 0 }, optional: { pass: 0, fail: 0, known: 0 } };
    for (const file of jsonFiles(join(suite, 'tests', dir))) {
      const rel = relative(join(suite, 'tests'), file).split('\\').join('/');
      const optional = rel.includes('/optional/');
      const formats = rel.includes('/optional/format/');
      for (const group of JSON.parse(readFileSync(file, 'utf8'))) {
        let contract;
        let compileError;
        try {
          contract = Contract.compile(group.schema, { draft, strict: false, formats, resources });
        } catch (e) {
          compileError = e;
        }
        for (const t of group.tests) {
          const id = `${rel}::${group.description}::${t.description}`;
          const ok = contract !== undefined && contract.validate(t.data).valid === t.valid;
          const bucket = optional ? tally.optional : tally.required;
          if (ok) bucket.pass++;
          else if (known.has(id)) {
            bucket.known++;
            seenKnown.add(id);
          } else {
            bucket.fail++;
            if (!optional) unexpected.push(`${id}: ${compileError ? compileError.message : `expected valid=${t.valid}`}`);
          }
        }
        contract?.free();
      }
    }
    const { required: r, optional: o } = tally;
    console.log(`${dir}: required ${r.pass} passed, ${r.fail} failed, ${r.known} known | optional ${o.pass} passed, ${o.fail} failed, ${o.known} known`);
  }
  setCacheCapacity(64);
  const stale = [...known.keys()].filter((id) => !seenKnown.has(id));
  assert.deepEqual(stale, [], 'known failures that now pass: remove them from tests/spec-known-failures.json');
  assert.deepEqual(unexpected, []);
});
