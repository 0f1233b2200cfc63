// The conformance checks shared by every runtime test: compile the pr-reviewer contract,
// run a sample of the JSON-Schema-Test-Suite through validate(value) (written beside the examples
// by runtimes.test.mjs), validate a valid and an invalid output, stream a broken output in 20-byte chunks to
// hard-complete, compile a broken schema, and the schema tools' module (checkSchema,
// compareSchemas, validateMerged's patch engine), loaded on first use, or by `loadSchemaTools()` in a browser. `files` holds the example texts (bundled where there
// is no file system), or is a `read(name)` function for them.
export function runChecks(oc, files) {
  if (typeof files === 'function') files = exampleFiles(files);
  const blueprint = JSON.parse(files.blueprint);
  const contract = oc.Contract.compile(blueprint.output_schema, { agentId: 'pr-reviewer' });
  const bad = contract.validateText(files.invalid);
  const stream = contract.stream({ maxRetries: 0 });
  const broken = files.valid.replace('"line": 42', '"line": "42"');
  for (let i = 0; i < broken.length; i += 20) stream.push(broken.slice(i, i + 20));
  const streamed = stream.finish();
  let schemaError = null;
  try {
    oc.Contract.compile({ type: 'strng' });
  } catch (e) {
    schemaError = e instanceof oc.SchemaError ? e.kind : String(e);
  }
  // Typed errors are classes every entry exports: `instanceof` holds in every runtime.
  let formatError = null;
  try {
    const throwing = () => {
      throw new Error('no');
    };
    oc.Contract.compile({ format: 'even' }, { formats: { even: throwing } }).validate('x');
  } catch (e) {
    formatError = e instanceof oc.FormatFunctionError ? e.format : String(e);
  }
  const freed = oc.Contract.compile({ type: 'string' });
  freed.free();
  let freedError = null;
  try {
    freed.validate('x');
  } catch (e) {
    freedError = e instanceof oc.FreedError ? e.kind : String(e);
  }
  const lint = oc.checkSchema('{"type": "strng"}');
  const comparison = oc.compareSchemas({ type: 'string' }, { type: 'string', maxLength: 3 });
  // Post-merge: a JSON Patch to the valid output (its engine is in the schema tools' module).
  const merged = contract.validateMerged(files.valid, [{ op: 'replace', path: '/comments/0/line', value: '42' }]);
  // A sample of the JSON-Schema-Test-Suite through validate(value): the verdict tier where it runs.
  // Compiled as the suite asks: formats are annotations in its required files, unknown keywords
  // are ignored.
  const suite = { tests: 0, mismatches: [] };
  for (const { draft, schema, tests } of JSON.parse(files.suite)) {
    const c = oc.Contract.compile(schema, { draft, strict: false, formats: false });
    for (const [data, valid] of tests) {
      suite.tests++;
      if (c.validate(data).valid !== valid) suite.mismatches.push(`${draft} ${JSON.stringify(schema).slice(0, 80)} on ${JSON.stringify(data).slice(0, 40)}`);
    }
  }
  const result = {
    suite: { tests: suite.tests, mismatches: suite.mismatches.slice(0, 5) },
    tools: { lintValid: lint.valid, narrowed: comparison.narrowed.map((c) => c.kind) },
    valid: contract.validateText(files.valid).valid,
    violations: bad.valid ? [] : bad.error.violations.map(oc.formatViolation),
    streamed: streamed.state,
    streamedViolations: streamed.error?.violations.map(oc.formatViolation) ?? [],
    mergedViolations: merged.error?.violations.map(oc.formatViolation) ?? [],
    schemaError,
    typedErrors: { formatError, freedError },
  };
  const expected = files.violations.trimEnd().split('\n');
  const ok =
    suite.tests > 300 &&
    suite.mismatches.length === 0 &&
    result.valid === true &&
    JSON.stringify(result.violations) === JSON.stringify(expected) &&
    result.streamed === 'hard-complete' &&
    JSON.stringify(result.streamedViolations) === JSON.stringify(["$.comments[0].line: '42' is not of type 'integer'"]) &&
    JSON.stringify(result.mergedViolations) === JSON.stringify(["$.comments[0].line: '42' is not of type 'integer'"]) &&
    result.schemaError === 'meta_schema' &&
    result.typedErrors.formatError === 'even' &&
    result.typedErrors.freedError === 'freed' &&
    result.tools.lintValid === false &&
    JSON.stringify(result.tools.narrowed) === '["maxLength"]';
  return { ok, ...result };
}

/** The example texts the checks use, read by `read(name)` from examples/pr-reviewer/. */
export function exampleFiles(read) {
  return {
    blueprint: read('blueprint.json'),
    valid: read('valid-output.json'),
    invalid: read('invalid-output.txt'),
    violations: read('invalid-output.violations.txt'),
    suite: read('suite-sample.json'),
  };
}
