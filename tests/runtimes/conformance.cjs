// The conformance checks through require('output-contract') (the CommonJS entry).
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');
const oc = require('output-contract');

const beside = path.join(__dirname, 'examples/pr-reviewer');
const examples = existsSync(beside) ? beside : path.join(__dirname, '../../examples/pr-reviewer');
const read = (p) => readFileSync(path.join(examples, p), 'utf8');

import('./checks.mjs').then(({ runChecks }) => {
  const result = runChecks(oc, read);
  // The CommonJS bundle (wasm/api.cjs) keeps the classes' names, which messages and users see.
  result.names = [oc.Contract.name, oc.OutputStream.name, oc.SchemaError.name];
  console.log(JSON.stringify(result));
  if (!result.ok || result.names.join() !== 'Contract,OutputStream,SchemaError') process.exitCode = 1;
});
