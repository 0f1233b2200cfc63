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
  console.log(JSON.stringify(result));
  if (!result.ok) process.exitCode = 1;
});
