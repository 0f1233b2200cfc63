// The package where clients plug a validator in, wired as the real libraries expect: the MCP
// TypeScript SDK (`Client` and `Server` over `InMemoryTransport`, with McpJsonSchemaValidator as
// their `jsonSchemaValidator`: listTools, callTool, elicitation, the `$schema` values servers
// write, a schema that does not compile beside good ones), the AI SDK (`Output.object`, a tool's
// `inputSchema`, validateAiSdkStream; through toAiSdkSchema and through Standard Schema), and
// Standard JSON Schema's targets, whose documents Ajv's draft-07 and 2020-12 meta-schemas accept
// and whose verdicts under Ajv are the contract's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { generateText, NoObjectGeneratedError, Output, simulateReadableStream, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolRequestSchema, ElicitRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Contract, McpJsonSchemaValidator, OptionError, ready } from 'output-contract';
import { toAiSdkSchema, validateAiSdkStream } from 'output-contract/ai';

await ready;

// ---- MCP -------------------------------------------------------------------------------------

/** A server listing `tools` (name → outputSchema) whose calls answer `replies[name]`, and a client, connected. */
async function mcp(tools, options) {
  const validator = new McpJsonSchemaValidator(options);
  const server = new Server({ name: 'tools', version: '1.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: validator });
  const replies = {};
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(tools).map(([name, outputSchema]) => ({ name, inputSchema: { type: 'object' }, outputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const reply = replies[request.params.name];
    return { content: [{ type: 'text', text: JSON.stringify(reply) }], structuredContent: reply };
  });
  const client = new Client({ name: 'agent', version: '1.0.0' }, { jsonSchemaValidator: validator });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  const call = async (name, reply) => {
    replies[name] = reply;
    return (await client.callTool({ name, arguments: {} })).structuredContent;
  };
  return { client, server, call };
}

// Draft 2020-12 and Draft 7 read this differently: [1, 'a'] is valid only in 2020-12, where
// `items` applies after the `prefixItems`.
const pair = { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'number' }], items: { type: 'string' } } }, required: ['pair'] };

test('MCP: a schema that does not compile fails its own tool only; listTools and the other tools work', async () => {
  const { client, call } = await mcp({
    plain: pair,
    draft7: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'number' }], additionalItems: { type: 'string' } } },
    },
    broken: { type: 'object', properties: { code: { type: 'string', pattern: '(' } } },
    draft3: { $schema: 'http://json-schema.org/draft-03/schema#', type: 'object', properties: { a: { type: 'string', required: true } } },
  });
  const listed = await client.listTools();
  assert.deepEqual(listed.tools.map((t) => t.name), ['plain', 'draft7', 'broken', 'draft3']);
  // No `$schema`: MCP's dialect, Draft 2020-12.
  assert.deepEqual(await call('plain', { pair: [1, 'a'] }), { pair: [1, 'a'] });
  await assert.rejects(call('plain', { pair: [1, 2] }), /\$\.pair\[1\]: 2 is not of type 'string'|\$\.pair\[1\]/);
  assert.deepEqual(await call('draft7', { pair: [1, 'a'] }), { pair: [1, 'a'] });
  await assert.rejects(call('draft7', { pair: [1, 2] }), /\$\.pair\[1\]/);
  // The broken tool's calls fail with its compile error, whatever they return.
  await assert.rejects(call('broken', { code: 'x' }), (e) => /does not match the tool's output schema: invalid schema: invalid regular expression "\(" at \/properties\/code\/pattern/.test(e.message));
  await assert.rejects(call('draft3', { a: 'x' }), /draft-03/);
  // And nothing else changed.
  assert.deepEqual(await call('plain', { pair: [2, 'b'] }), { pair: [2, 'b'] });
  await client.close();
});

test('MCP: every $schema servers write lists and validates (the latest alias, OpenAPI 3.1, their own meta-schema)', async () => {
  const tools = {
    latest: { $schema: 'http://json-schema.org/schema#', ...pair },
    openapi: {
      $schema: 'https://spec.openapis.org/oas/3.1/dialect/base',
      ...pair,
      discriminator: { propertyName: 'kind' },
      externalDocs: { url: 'https://example.com/docs' },
      example: { pair: [1, 'a'] },
      xml: { name: 'pair' },
    },
    own: { $schema: 'https://example.com/schemas/tool-output', ...pair },
  };
  const { client, call } = await mcp(tools);
  await client.listTools();
  for (const name of Object.keys(tools)) {
    // Read as Draft 2020-12: [1, 'a'] valid, [1, 2] not.
    assert.deepEqual(await call(name, { pair: [1, 'a'] }), { pair: [1, 'a'] }, name);
    await assert.rejects(call(name, { pair: [1, 2] }), /\$\.pair\[1\]/, name);
  }
  await client.close();
});

test("MCP: elicitation's form schema, titled enums as the specification writes them", async () => {
  const validator = new McpJsonSchemaValidator();
  const server = new Server({ name: 'shop', version: '1.0.0' }, { capabilities: {}, jsonSchemaValidator: validator });
  const client = new Client({ name: 'agent', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, jsonSchemaValidator: validator });
  let answer;
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: answer }));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  const requestedSchema = {
    type: 'object',
    properties: {
      size: { type: 'string', title: 'Size', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
      quantity: { type: 'integer', minimum: 1 },
    },
    required: ['size'],
  };
  const ask = (content) => {
    answer = content;
    return server.elicitInput({ message: 'Which size?', requestedSchema });
  };
  assert.deepEqual((await ask({ size: 's', quantity: 2 })).content, { size: 's', quantity: 2 });
  await assert.rejects(ask({ size: 'm' }), /does not match requested schema: \$\.size/);
  await assert.rejects(ask({ size: 'l', quantity: 0 }), /\$\.quantity: 0 is less than minimum 1/);
  await client.close();
});

test('MCP: the validator takes draft, strict and formats, and compiles a schema it cannot read into a validator that says why', () => {
  for (const options of [undefined, {}, { draft: undefined, strict: undefined }]) {
    const plain = new McpJsonSchemaValidator(options).getValidator({ ...pair, unknownKeyword: 1 });
    assert.equal(plain({ pair: [1, 'a'] }).valid, true);
  }
  // `draft` decides for a schema without `$schema`: Draft 7 reads `items` as every item's schema.
  const draft7 = new McpJsonSchemaValidator({ draft: 'draft7' }).getValidator(pair);
  assert.equal(draft7({ pair: [1, 'a'] }).valid, false);
  const email = { type: 'string', format: 'email' };
  assert.equal(new McpJsonSchemaValidator().getValidator(email)('nope').valid, false);
  assert.equal(new McpJsonSchemaValidator({ formats: false }).getValidator(email)('nope').valid, true);
  const custom = new McpJsonSchemaValidator({ formats: { sku: /^SKU-/ } }).getValidator({ type: 'string', format: 'sku' });
  assert.deepEqual([custom('SKU-1').valid, custom('1').valid], [true, false]);
  // strict: an unknown keyword is a compile error, given as every value's error.
  const strict = new McpJsonSchemaValidator({ strict: true }).getValidator({ type: 'object', requried: ['a'] });
  const rejected = strict({});
  assert.equal(rejected.valid, false);
  assert.equal(rejected.data, undefined);
  assert.match(rejected.errorMessage, /^invalid schema: unknown keyword 'requried'.*did you mean 'required'/);
  assert.deepEqual(strict({ a: 1 }), rejected);
  // Constructor options, checked when the validator is made: Contract.compile's others are not among them.
  assert.throws(() => new McpJsonSchemaValidator({ maxDepth: 3 }), OptionError);
  assert.throws(() => new McpJsonSchemaValidator({ draft: 'draft99' }), OptionError);
});

// ---- The AI SDK ------------------------------------------------------------------------------

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const city = { type: 'object', properties: { city: { type: 'string', minLength: 3 } }, required: ['city'] };

/** A model that answers with text once (`generateText`'s mock). */
const answering = (text) =>
  new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }) });
/** A model that calls `weather` with `input` once, then answers. */
const calling = (input) => {
  let turn = 0;
  return new MockLanguageModelV3({
    doGenerate: async () =>
      turn++ === 0
        ? { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input }], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] }
        : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
  });
};

test("AI SDK: a contract as a tool's inputSchema (toAiSdkSchema): the error says input, the canonical error at error.cause.cause", async () => {
  const contract = Contract.compile(city);
  const seen = [];
  const weather = tool({ inputSchema: toAiSdkSchema(contract), execute: async (input) => (seen.push(input), 'sunny') });
  await generateText({ model: calling('{"city": "Oslo"}'), prompt: 'weather?', tools: { weather } });
  assert.deepEqual(seen, [{ city: 'Oslo' }]);

  const result = await generateText({ model: calling('{"city": "X"}'), prompt: 'weather?', tools: { weather } });
  // The call the SDK refused: its part is marked invalid and holds the error; the tool-error
  // part the model is answered with carries the error's message.
  const call = result.steps[0].content.find((p) => p.type === 'tool-call');
  assert.equal(call.invalid, true);
  assert.equal(call.error.name, 'AI_InvalidToolInputError');
  const message = result.steps[0].content.find((p) => p.type === 'tool-error').error;
  assert.equal(message, call.error.message);
  assert.match(message, /^Invalid input for tool weather: /);
  assert.doesNotMatch(message, /output/);
  assert.match(message, /the value does not match the contract:\n\$\.city: a string of 1 character is shorter than 3/);
  const ours = call.error.cause.cause;
  assert.equal(ours.name, 'OutputValidationError');
  assert.equal(ours.outputValidationError.error, 'output_validation_failed');
  assert.deepEqual(ours.outputValidationError.violations.map((v) => v.pointer), ['/city']);
  assert.deepEqual(seen, [{ city: 'Oslo' }]);
});

test('AI SDK: Output.object with toAiSdkSchema: the canonical error at err.cause.cause, the contract\'s own schema sent', async () => {
  const contract = Contract.compile({ ...city, $schema: 'https://json-schema.org/draft/2020-12/schema' });
  const model = answering('{"city": "X"}');
  const err = await generateText({ model, prompt: 'city?', output: Output.object({ schema: toAiSdkSchema(contract) }) }).catch((e) => e);
  assert.ok(NoObjectGeneratedError.isInstance(err));
  assert.equal(err.cause.name, 'AI_TypeValidationError');
  assert.deepEqual(err.cause.cause.outputValidationError.violations[0].message, "a string of 1 character is shorter than 3");
  assert.match(err.cause.message, /the value does not match the contract/);
  assert.deepEqual(model.doGenerateCalls[0].responseFormat.schema, contract.jsonSchema);
});

test('AI SDK: a contract as a Standard Schema: draft-07 sent with additionalProperties: false added, extra members still accepted', async () => {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { city: { $ref: '#/$defs/name' }, at: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
    required: ['city'],
    $defs: { name: { type: 'string', minLength: 3 } },
  };
  const contract = Contract.compile(schema);
  const model = answering('{"city": "Oslo", "at": [59.9, 10.7], "country": "NO"}');
  const ok = await generateText({ model, prompt: 'city?', output: Output.object({ schema: contract }) });
  // The member the sent schema forbids: the contract accepts it, so the output keeps it.
  assert.deepEqual(ok.output, { city: 'Oslo', at: [59.9, 10.7], country: 'NO' });
  assert.deepEqual(model.doGenerateCalls[0].responseFormat.schema, {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { city: { $ref: '#/definitions/name' }, at: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false } },
    required: ['city'],
    definitions: { name: { type: 'string', minLength: 3 } },
    additionalProperties: false,
  });
  const err = await generateText({ model: answering('{"city": "X"}'), prompt: 'city?', output: Output.object({ schema: contract }) }).catch((e) => e);
  assert.ok(NoObjectGeneratedError.isInstance(err));
  assert.deepEqual(err.cause.cause, [{ message: "a string of 1 character is shorter than 3", path: ['city'] }]);

  // As a tool's inputSchema.
  const seen = [];
  const weather = tool({ inputSchema: contract, execute: async (input) => (seen.push(input), 'sunny') });
  const called = await generateText({ model: calling('{"city": "X"}'), prompt: 'weather?', tools: { weather } });
  const refused = called.steps[0].content.find((p) => p.type === 'tool-call');
  assert.match(refused.error.message, /^Invalid input for tool weather: .*a string of 1 character is shorter than 3/s);
  assert.deepEqual(refused.error.cause.cause, [{ message: "a string of 1 character is shorter than 3", path: ['city'] }]);
  assert.deepEqual(seen, []);
});

test('AI SDK: validateAiSdkStream over a tool whose inputSchema is toAiSdkSchema(contract)', async () => {
  const contract = Contract.compile(city);
  const chunks = [
    { type: 'tool-input-start', id: 'c', toolName: 'weather' },
    { type: 'tool-input-delta', id: 'c', delta: '{"city": ' },
    { type: 'tool-input-delta', id: 'c', delta: '"Oslo"}' },
    { type: 'tool-input-end', id: 'c' },
    { type: 'tool-call', toolCallId: 'c', toolName: 'weather', input: '{"city": "Oslo"}' },
    { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
  ];
  const model = new MockLanguageModelV3({ doStream: async () => ({ stream: simulateReadableStream({ chunks }) }) });
  const result = streamText({ model, prompt: 'weather?', tools: { weather: tool({ inputSchema: toAiSdkSchema(contract) }) } });
  const outcome = await validateAiSdkStream(contract, result.fullStream, { tool: 'weather' });
  assert.equal(outcome.state, 'soft-complete');
  assert.deepEqual(outcome.data, { city: 'Oslo' });
  assert.equal(outcome.finishReason, 'tool-calls');
});

// ---- Standard JSON Schema's targets ----------------------------------------------------------

const ajv07 = () => new Ajv({ strict: false, allErrors: true });
const ajv2020 = () => new Ajv2020({ strict: false, allErrors: true });

/** The target's document: Ajv's meta-schema for it accepts it, and Ajv's verdicts on `values` are the contract's. */
function checkTarget(contract, target, values) {
  const doc = contract['~standard'].jsonSchema.input({ target });
  assert.deepEqual(contract['~standard'].jsonSchema.output({ target }), doc);
  const ajv = target === 'draft-07' ? ajv07() : ajv2020();
  assert.equal(ajv.validateSchema(doc), true, `${target}: ${JSON.stringify(ajv.errors)}\n${JSON.stringify(doc)}`);
  const check = ajv.compile(doc);
  for (const value of values) {
    assert.equal(check(value), contract.validate(value).valid, `${target}, ${JSON.stringify(value)}: ${JSON.stringify(doc)}`);
  }
  return doc;
}

const modern = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
    tags: { type: 'array', items: { $ref: '#/$defs/tag' } },
    size: { $ref: '#size' },
    owner: { $ref: '#/$defs/person', required: ['email'] },
    total: { type: 'number' },
  },
  dependentRequired: { card: ['billing'] },
  dependentSchemas: { coupon: { properties: { total: { minimum: 10 } } } },
  $defs: {
    tag: { type: 'string', minLength: 2 },
    sized: { $anchor: 'size', enum: ['s', 'l'] },
    person: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } }, required: ['name'] },
  },
};
const modernValues = [
  { point: [1, 2], tags: ['ab'], size: 's', owner: { name: 'a', email: 'e' } },
  { point: [1, 2, 3] },
  { point: [1, 'x'] },
  { tags: ['a'] },
  { size: 'm' },
  { owner: { name: 'a' } },
  { card: 1 },
  { card: 1, billing: 2 },
  { coupon: 1, total: 5 },
  { coupon: 1, total: 15 },
  { total: 5 },
  [],
];

test('Standard Schema: draft-07 and draft-2020-12 from a Draft 2020-12 contract, checked by Ajv', () => {
  const contract = Contract.compile(modern);
  const doc07 = checkTarget(contract, 'draft-07', modernValues);
  assert.equal(doc07.$schema, 'http://json-schema.org/draft-07/schema#');
  assert.deepEqual(doc07.properties.point, { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false });
  assert.deepEqual(doc07.properties.owner, { required: ['email'], allOf: [{ $ref: '#/definitions/person' }] });
  assert.deepEqual(doc07.dependencies, { card: ['billing'], coupon: { properties: { total: { minimum: 10 } } } });
  assert.equal(doc07.definitions.sized.$id, '#size');
  assert.equal(doc07.$defs, undefined);
  // Its own dialect: the contract's schema as it is.
  assert.deepEqual(checkTarget(contract, 'draft-2020-12', modernValues), contract.jsonSchema);
});

test('Standard Schema: draft-2020-12 from Draft 7 and Draft 4 contracts, and draft-07 from a JTD contract, checked by Ajv', () => {
  const old = Contract.compile({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      pair: { type: 'array', items: [{ type: 'number' }], additionalItems: { $ref: '#/definitions/word' } },
      ref: { $ref: '#/properties/pair/items/0' },
    },
    dependencies: { a: ['b'], c: { required: ['d'] } },
    definitions: { word: { type: 'string' } },
  });
  const values = [{ pair: [1, 'a'] }, { pair: [1, 2] }, { pair: ['x'] }, { ref: 1 }, { ref: 'x' }, { a: 1 }, { a: 1, b: 1 }, { c: 1 }, { c: 1, d: 1 }];
  const doc = checkTarget(old, 'draft-2020-12', values);
  assert.deepEqual(doc.properties, {
    pair: { type: 'array', prefixItems: [{ type: 'number' }], items: { $ref: '#/definitions/word' } },
    ref: { $ref: '#/properties/pair/prefixItems/0' },
  });
  assert.deepEqual(checkTarget(old, 'draft-07', values), old.jsonSchema);

  const draft4 = Contract.compile({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'number', maximum: 10, exclusiveMaximum: true, minimum: 0 });
  for (const target of ['draft-07', 'draft-2020-12']) {
    const converted = checkTarget(draft4, target, [0, 5, 10, 11, -1, 'x']);
    assert.deepEqual({ ...converted, $schema: undefined }, { type: 'number', exclusiveMaximum: 10, minimum: 0, $schema: undefined });
  }

  const jtd = Contract.compile({ properties: { n: { type: 'uint8' }, tags: { elements: { ref: 'tag' } } }, definitions: { tag: { enum: ['a', 'b'] } } }, { draft: 'jtd' });
  const jtdValues = [{ n: 1, tags: ['a'] }, { n: 300, tags: [] }, { n: 1, tags: ['c'] }, { tags: [] }];
  const jtd07 = checkTarget(jtd, 'draft-07', jtdValues);
  assert.equal(jtd07.$defs, undefined);
  checkTarget(jtd, 'draft-2020-12', jtdValues);
});

test('Standard Schema: openapi-3.0 where it can, a throw naming the keyword where it cannot, and for any other target', () => {
  const contract = Contract.compile({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { name: { type: ['string', 'null'] }, kind: { const: 'a' }, n: { $ref: '#/$defs/n' } },
    $defs: { n: { type: 'number', exclusiveMinimum: 0 } },
  });
  assert.deepEqual(contract['~standard'].jsonSchema.input({ target: 'openapi-3.0' }), {
    type: 'object',
    properties: { name: { type: 'string', nullable: true }, kind: { enum: ['a'] }, n: { type: 'number', minimum: 0, exclusiveMinimum: true } },
  });
  const tuple = Contract.compile({ $schema: 'https://json-schema.org/draft/2020-12/schema', prefixItems: [{ type: 'string' }] });
  assert.throws(() => tuple['~standard'].jsonSchema.input({ target: 'openapi-3.0' }), /'prefixItems' at \/prefixItems has no OpenAPI 3\.0 form/);
  const unevaluated = Contract.compile({ $schema: 'https://json-schema.org/draft/2020-12/schema', properties: { a: { type: 'object', unevaluatedProperties: false } } });
  assert.throws(() => unevaluated['~standard'].jsonSchema.input({ target: 'draft-07' }), /cannot write the schema as draft-07: 'unevaluatedProperties' at \/properties\/a\/unevaluatedProperties/);
  assert.equal(unevaluated['~standard'].jsonSchema.input({ target: 'draft-2020-12' }).properties.a.unevaluatedProperties, false);
  for (const target of ['draft-99', 'draft-04', 'openapi-3.1']) {
    assert.throws(() => contract['~standard'].jsonSchema.input({ target }), new RegExp(`unknown JSON Schema target "${target}"`));
    assert.throws(() => contract['~standard'].jsonSchema.output({ target }), /unknown JSON Schema target/);
  }
  // No target: the schema as it is, as before.
  assert.deepEqual(contract['~standard'].jsonSchema.input(), contract.jsonSchema);
});

test('Standard Schema: contracts of the $schema values servers write, in draft-07 and draft-2020-12', () => {
  for (const $schema of ['http://json-schema.org/schema#', 'https://spec.openapis.org/oas/3.1/dialect/base']) {
    const contract = Contract.compile({ ...modern, $schema });
    const values = modernValues;
    const doc07 = checkTarget(contract, 'draft-07', values);
    assert.equal(doc07.$schema, 'http://json-schema.org/draft-07/schema#', $schema);
    // Its own dialect, named by the target's URI rather than the one it was written with.
    const doc2020 = checkTarget(contract, 'draft-2020-12', values);
    assert.deepEqual(doc2020, { ...contract.jsonSchema, $schema: 'https://json-schema.org/draft/2020-12/schema' });
  }
  const own = Contract.compile({ ...modern, $schema: 'https://example.com/schemas/tool-output' }, { draft: 'draft2020-12' });
  checkTarget(own, 'draft-07', modernValues);
});
