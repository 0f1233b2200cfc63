// The CommonJS entry (require) of the package: same API, loaded synchronously.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const oc = require('output-contract');

test('require("output-contract") works synchronously and shares the API', async () => {
  await oc.ready;
  const contract = oc.Contract.compile({ type: 'object', required: ['summary'] }, { agentId: 'cjs' });
  const result = contract.validateText('{}');
  assert.equal(result.valid, false);
  assert.equal(result.error.agent_id, 'cjs');
  assert.equal(oc.formatViolation(result.error.violations[0]), "$: 'summary' is a required property");
  assert.throws(() => oc.Contract.compile({ type: 'strng' }), (e) => e instanceof oc.SchemaError && e.kind === 'meta_schema');
  // Typed errors are the ESM entry's classes.
  const freed = oc.Contract.compile({ type: 'string' });
  freed.free();
  assert.throws(() => freed.validate('x'), (e) => e instanceof oc.FreedError && e.kind === 'freed');
  const throwing = () => {
    throw new Error('no');
  };
  const formatted = oc.Contract.compile({ format: 'even' }, { formats: { even: throwing } });
  assert.throws(() => formatted.validate('x'), (e) => e instanceof oc.FormatFunctionError && e.format === 'even');
  // The schema tools' module loads on the first call of a tool.
  assert.equal(oc.checkSchema('{"type": "strng"}').valid, false);
  await oc.loadSchemaTools();
  assert.deepEqual(Object.keys(oc).sort(), [
    'Contract', 'FormatFunctionError', 'FreedError', 'McpJsonSchemaValidator', 'OptionError', 'OutputStream', 'ProviderError', 'SchemaError', 'SchemaRegistry', 'cacheStats',
    'checkOutputSchemaConfig', 'checkSchema', 'compareSchemas', 'enforce', 'enrichSystemPrompt', 'extractJson', 'failureEnvelope',
    'formatChildResult', 'formatViolation', 'loadSchemaTools', 'locateJson', 'parseSchemaId', 'providerEvents', 'ready', 'retryPrompt', 'setCacheCapacity',
    'submitResultTool', 'toolFeedback', 'validateProviderStream',
  ]);
});
