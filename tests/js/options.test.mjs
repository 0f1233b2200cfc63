// Bad options are one typed error everywhere: an OptionError (a TypeError, `kind:
// 'invalid_option'`) naming the option and what it allows, in JavaScript terms, thrown before
// anything reaches the module; a key a function does not take is refused, naming the ones it does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Contract,
  McpJsonSchemaValidator,
  OptionError,
  SchemaError,
  checkOutputSchemaConfig,
  checkSchema,
  enforce,
  enrichSystemPrompt,
  extractJson,
  retryPrompt,
  submitResultTool,
  toolFeedback,
} from 'output-contract';

const schema = { type: 'object', properties: { a: { type: 'string' } } };
const contract = Contract.compile(schema);

function optionError(option, message) {
  return (e) => {
    assert.ok(e instanceof OptionError, `not an OptionError: ${e}`);
    assert.ok(e instanceof TypeError && !(e instanceof SchemaError));
    assert.equal(e.name, 'OptionError');
    assert.equal(e.kind, 'invalid_option');
    assert.equal(e.option, option);
    if (message instanceof RegExp) assert.match(e.message, message);
    else assert.equal(e.message, message);
    assert.doesNotMatch(e.message, /usize|line \d+ column|invalid schema/);
    return true;
  };
}

test('a bad value names the option, what it allows and what it got', () => {
  assert.throws(() => Contract.compile({}, { maxOutputBytes: -1 }), optionError('maxOutputBytes', 'maxOutputBytes must be a positive integer, got -1'));
  assert.throws(() => Contract.compile({}, { maxDepth: 1.5 }), optionError('maxDepth', 'maxDepth must be a positive integer, got 1.5'));
  assert.throws(() => Contract.compile({}, { maxDepth: NaN }), optionError('maxDepth', 'maxDepth must be a positive integer, got NaN'));
  assert.throws(() => Contract.compile({}, { maxOutputBytes: 2 ** 40 }), optionError('maxOutputBytes', /positive integer/));
  assert.throws(() => Contract.compile({}, { rawOutputLimit: '4096' }), optionError('rawOutputLimit', 'rawOutputLimit must be a non-negative integer, got "4096"'));
  assert.throws(() => Contract.compile({}, { strict: 'no' }), optionError('strict', 'strict must be true or false, got "no"'));
  assert.throws(() => Contract.compile({}, { draft: 'draft8' }), optionError('draft', /^draft must be "draft4", "draft6", "draft7", "draft2019-09", "draft2020-12" or "jtd", got "draft8"$/));
  assert.throws(() => Contract.compile({}, { resources: [] }), optionError('resources', /got an array$/));
  assert.throws(() => Contract.compile({}, { schemaId: 7n }), optionError('schemaId', 'schemaId must be a string, got 7n'));
  assert.throws(() => Contract.compile({}, { agentId: null }), optionError('agentId', 'agentId must be a string, got null'));
  assert.throws(() => contract.stream({ maxRetries: -1 }), optionError('maxRetries', 'maxRetries must be a non-negative integer, got -1'));
  assert.throws(() => contract.stream({ extract: 'yes' }), optionError('extract', 'extract must be true or false, got "yes"'));
  assert.throws(() => checkSchema('{}', { draft: 'foo' }), optionError('draft', /got "foo"$/));
  assert.throws(() => checkSchema('{}', { provider: 'generic' }), optionError('provider', 'provider must be "openai" or "anthropic", got "generic"'));
  assert.throws(() => submitResultTool(schema, { provider: 'gemini' }), optionError('provider', 'provider must be "openai", "anthropic" or "generic", got "gemini"'));
  assert.throws(() => extractJson('{}', { maxDepth: 0 }), optionError('maxDepth', 'maxDepth must be a positive integer, got 0'));
  assert.throws(() => contract.validateText('{}', { extract: 1 }), optionError('extract', 'extract must be true or false, got 1'));
  assert.throws(() => contract.validateToolCall('{}', { nullAsAbsent: 'true' }), optionError('nullAsAbsent', /got "true"$/));
  assert.throws(() => toolFeedback([], { tool: 5 }), optionError('tool', 'tool must be a string, got 5'));
  assert.throws(() => toolFeedback([], { templates: { toolFailure: 1 } }), optionError('templates.toolFailure', 'templates.toolFailure must be a string, got 1'));
  assert.throws(() => retryPrompt([], schema, { templates: 'x' }), optionError('templates', 'templates must be an object of template strings, got "x"'));
  assert.throws(() => checkOutputSchemaConfig(schema, { formats: 0 }), optionError('formats', /got 0$/));
  assert.throws(() => new McpJsonSchemaValidator({ strict: 'false' }), optionError('strict', /got "false"$/));
});

test('an unknown key is refused, naming it and the keys the function takes', () => {
  assert.throws(() => checkSchema('{}', { drafts: '7' }), optionError('drafts', 'unknown option drafts: checkSchema takes draft, provider, formats, resources'));
  assert.throws(() => contract.stream({ maxRetry: 3 }), optionError('maxRetry', 'unknown option maxRetry: contract.stream takes maxRetries, extract, abortOnEarlyViolation, nullAsAbsent'));
  assert.throws(() => Contract.compile({}, { maxBytes: 10 }), optionError('maxBytes', /^unknown option maxBytes: Contract.compile takes draft, strict, formats, .*rawOutputLimit$/));
  assert.throws(() => contract.validateText('{}', { extract: true, repiar: true }), optionError('repiar', /contract.validateText takes extract, repair$/));
  assert.throws(() => contract.validateToolCall('{}', { nullIsAbsent: true }), optionError('nullIsAbsent', /takes nullAsAbsent$/));
  assert.throws(() => extractJson('{}', { extract: true }), optionError('extract', /extractJson takes repair, maxOutputBytes, maxDepth$/));
  assert.throws(() => enrichSystemPrompt('s', schema, { template: {} }), optionError('template', /enrichSystemPrompt takes templates$/));
  assert.throws(() => enrichSystemPrompt('s', schema, { templates: { nope: 'x' } }), optionError('templates.nope', /^unknown option templates.nope: enrichSystemPrompt takes templates outputFormat, retry, /));
  assert.throws(() => toolFeedback([], { name: 'x' }), optionError('name', /toolFeedback takes tool, templates$/));
  assert.throws(() => submitResultTool(schema, { tool: 'x' }), optionError('tool', /submitResultTool takes provider, name, description, draft, patch$/));
  assert.throws(() => checkOutputSchemaConfig(schema, { drafts: '7' }), optionError('drafts', /checkOutputSchemaConfig takes draft/));
  assert.throws(() => new McpJsonSchemaValidator({ Strict: false }), optionError('Strict', /McpJsonSchemaValidator takes draft/));
  // An inherited name is not an option.
  assert.throws(() => contract.stream(Object.assign(Object.create(null), { toString: 1 })), optionError('toString', /^unknown option toString/));
});

test('an options object that is not an object', () => {
  assert.throws(() => Contract.compile({}, 'draft7'), optionError('', 'Contract.compile: options must be an object, got "draft7"'));
  assert.throws(() => contract.stream([]), optionError('', /options must be an object, got an array$/));
  assert.throws(() => checkSchema('{}', 7), optionError('', /got 7$/));
});

test('enforce rejects bad options before the model is called', async () => {
  let calls = 0;
  const model = () => {
    calls++;
    return '{}';
  };
  await assert.rejects(enforce(contract, model, { retries: 2 }), optionError('retries', /^unknown option retries: enforce takes systemPrompt, /));
  await assert.rejects(enforce(contract, model, { onAttempt: 'log' }), optionError('onAttempt', 'onAttempt must be a function, got "log"'));
  await assert.rejects(enforce(contract, model, { templates: { retry: null } }), optionError('templates.retry', 'templates.retry must be a string, got null'));
  assert.equal(calls, 0);
  assert.equal((await enforce(contract, model, { maxRetries: 0, task: 't', repair: true })).status, 'completed');
});

test('good options, and absent ones, pass as before', () => {
  const c = Contract.compile(schema, { draft: 'draft2020-12', strict: false, maxOutputBytes: 10, maxDepth: 3, rawOutputLimit: 0, agentId: undefined });
  assert.equal(c.draft, 'draft2020-12');
  assert.equal(Contract.compile(schema, { draft: '7' }).draft, 'draft7');
  assert.equal(Contract.compile(schema, null).draft, 'draft7');
  assert.equal(c.validateText('{"a": "x"}', { extract: true, repair: false }).valid, true);
  assert.equal(c.stream({ maxRetries: 0, abortOnEarlyViolation: true }).finish().state, 'hard-complete');
  assert.equal(checkSchema('{}', { draft: 'draft2019-09', provider: 'openai' }).diagnostics !== undefined, true);
  assert.ok(toolFeedback([], { tool: 'x', templates: { toolSuccess: 'ok {tool}' } }) === 'ok x');
});
