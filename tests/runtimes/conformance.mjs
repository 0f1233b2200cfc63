// tests/runtimes/checks.mjs in the runtime that runs this file (Node ESM, Deno, Bun), reading
// the examples from disk: beside this file when it was copied into a project that installed the
// packed tarball, else from the repository. Prints one JSON line; exits non-zero on a mismatch.
import { existsSync, readFileSync } from 'node:fs';
import * as oc from 'output-contract';
import { runChecks } from './checks.mjs';

await oc.ready;
const beside = new URL('./examples/pr-reviewer/', import.meta.url);
const examples = existsSync(beside) ? beside : new URL('../../examples/pr-reviewer/', import.meta.url);
const read = (p) => readFileSync(new URL(p, examples), 'utf8');
const result = runChecks(oc, read);
console.log(JSON.stringify(result));
if (!result.ok) throw new Error('conformance mismatch');
