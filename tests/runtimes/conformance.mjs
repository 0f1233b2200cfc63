// tests/runtimes/checks.mjs in the runtime that runs this file (Node ESM, Deno, Bun), reading
// the examples from disk. Prints one JSON line; exits non-zero on a mismatch.
import { readFileSync } from 'node:fs';
import * as oc from 'output-contract';
import { runChecks } from './checks.mjs';

await oc.ready;
const read = (p) => readFileSync(new URL(`../../examples/pr-reviewer/${p}`, import.meta.url), 'utf8');
const result = runChecks(oc, {
  blueprint: read('blueprint.json'),
  valid: read('valid-output.json'),
  invalid: read('invalid-output.txt'),
  violations: read('invalid-output.violations.txt'),
});
console.log(JSON.stringify(result));
if (!result.ok) throw new Error('conformance mismatch');
