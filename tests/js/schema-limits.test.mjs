// What the package refuses in a schema, and how it says so: the schema-size limit (a schema of
// several megabytes compiles by default), validation keywords beside `$ref` in Drafts 4–7, the
// suggestion an issue carries, and texts that speak of the library alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  Contract,
  SchemaError,
  ready,
  checkSchema,
  checkOutputSchemaConfig,
  enforce,
  enrichSystemPrompt,
  failureEnvelope,
  formatViolation,
  retryPrompt,
  toolFeedback,
} from 'output-contract';

await ready;

const MiB = 1024 * 1024;

/** A configuration-file schema as published ones look: `count` object definitions, each referring to the previous. */
function configurationSchema(count) {
  const definitions = {};
  const properties = {};
  for (let i = 0; i < count; i++) {
    definitions[`Setting${i}`] = {
      type: 'object',
      description: `Setting ${i}: a block of options with typed fields.`,
      properties: {
        Name: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[A-Za-z][A-Za-z0-9_-]*$' },
        Mode: { enum: ['off', 'on', 'auto', 'manual'] },
        Retries: { type: 'integer', minimum: 0, maximum: 100 },
        Labels: { type: 'array', uniqueItems: true, items: { type: 'object', required: ['Key'], properties: { Key: { type: 'string' }, Value: { type: 'string' } } } },
        Endpoint: { type: 'string', format: 'uri' },
        Fallback: { $ref: `#/definitions/Setting${Math.max(0, i - 1)}` },
      },
      required: ['Name', 'Mode'],
      additionalProperties: false,
    };
    properties[`setting${i}`] = { $ref: `#/definitions/Setting${i}` };
  }
  return { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', definitions, properties, additionalProperties: false };
}

test('a schema of about 2 MB compiles by default, as text and as an object', () => {
  const schema = configurationSchema(3200);
  const text = JSON.stringify(schema);
  assert.ok(text.length > 2_000_000 && text.length < 3_000_000, `${text.length} bytes`);
  for (const input of [text, schema]) {
    const contract = Contract.compile(input);
    assert.equal(contract.validate({ setting9: { Name: 'db', Mode: 'auto', Fallback: { Name: 'x', Mode: 'off' } } }).valid, true);
    const r = contract.validate({ setting3199: { Name: '9db', Mode: 'sometimes' } });
    assert.deepEqual(r.error.violations.map((v) => v.keyword).sort(), ['enum', 'pattern']);
    contract.free();
  }
  assert.equal(checkSchema(text).valid, true);
});

test('the limit stays: schema text over 16 MiB is a limit_exceeded error, never parsed', () => {
  const text = `{"description": "${'x'.repeat(16 * MiB)}"}`;
  assert.throws(() => Contract.compile(text), (e) => {
    assert.ok(e instanceof SchemaError);
    assert.equal(e.kind, 'limit_exceeded');
    assert.match(e.message, new RegExp(`more than the limit of ${16 * MiB} bytes`));
    return true;
  });
  const r = checkSchema(text);
  assert.equal(r.valid, false);
  assert.deepEqual(r.diagnostics.map((d) => d.code), ['limit_exceeded']);
  // Just under the limit is accepted.
  assert.equal(Contract.compile(`{"description": "${'x'.repeat(16 * MiB - 100)}"}`).draft, 'draft7');
});

test('validation keywords beside $ref in Drafts 4-7 are refused, naming the fix; annotations and $id are not', () => {
  const schema = {
    definitions: { hook: { type: 'object', properties: { id: { type: 'string' }, entry: { type: 'string' } } } },
    type: 'object',
    properties: { hook: { $ref: '#/definitions/hook', $id: 'hook', description: 'a hook', required: ['id', 'entry'] } },
  };
  assert.throws(() => Contract.compile(schema), (e) => {
    assert.equal(e.kind, 'ref_sibling');
    assert.deepEqual(e.issues.map((i) => [i.kind, i.pointer, i.keyword]), [['ref_sibling', '/properties/hook/required', 'required']]);
    assert.match(e.issues[0].message, /allOf/);
    assert.match(e.issues[0].message, /2019-09/);
    return true;
  });
  // Wrapped in an allOf, the keyword is checked; under 2019-09 it is checked where it is.
  const { $ref, $id, ...rest } = schema.properties.hook;
  const wrapped = { ...schema, properties: { hook: { allOf: [{ $ref }], ...rest } } };
  assert.equal(Contract.compile(wrapped).validate({ hook: { id: 'a' } }).valid, false);
  const later = { ...schema, $schema: 'https://json-schema.org/draft/2019-09/schema', properties: { hook: { $ref, ...rest } } };
  assert.equal(Contract.compile(later).validate({ hook: { id: 'a' } }).valid, false);

  const text = JSON.stringify(schema, null, 2);
  const r = checkSchema(text);
  const at = (code) => r.diagnostics.find((d) => d.code === code);
  assert.equal(text.slice(at('ref_sibling').range.start.offset, at('ref_sibling').range.end.offset), '"required"');
  assert.match(at('ref_sibling').fix.message, /allOf/);
  assert.equal(at('id_beside_ref').severity, 'warning');
  assert.equal(text.slice(at('id_beside_ref').range.start.offset, at('id_beside_ref').range.end.offset), '"$id"');
});

test('an issue carries the keyword probably meant as data', () => {
  assert.throws(() => Contract.compile({ type: 'object', requried: ['a'] }), (e) => {
    assert.equal(e.issues[0].suggestion, 'required');
    return true;
  });
  assert.throws(() => Contract.compile({ type: 'object', colour: 'red' }), (e) => {
    assert.equal('suggestion' in e.issues[0], false);
    return true;
  });
});

test('texts users read speak of the library alone, never of its design documents', async () => {
  const read = [];
  const corpus = JSON.parse(readFileSync(new URL('../corpus/check-schema.json', import.meta.url), 'utf8'));
  const texts = corpus.cases.map((c) => [c.schema.join('\n'), { draft: c.draft, provider: c.provider }]);
  for (const extra of ['', '[1]', '{"type": "string"}', '{"properties": {"a": {"$ref": "#/definitions/x", "minimum": 1}}}', '{"$schema": "https://example.com/s"}']) {
    for (const provider of [undefined, 'openai', 'anthropic']) texts.push([extra, { provider }]);
  }
  for (const [text, options] of texts) {
    for (const d of checkSchema(text, options).diagnostics) read.push(d.message, d.fix?.message ?? '');
    try {
      Contract.compile(text, options.draft ? { draft: options.draft } : {});
    } catch (e) {
      read.push(e.message, ...(e.issues ?? []).map((i) => i.message));
    }
    try {
      for (const d of checkOutputSchemaConfig(text)) read.push(d.message, ...(d.issues ?? []).map((i) => i.message));
    } catch (e) {
      read.push(e.message);
    }
  }
  const blueprint = JSON.parse(readFileSync(new URL('../../examples/pr-reviewer/blueprint.json', import.meta.url), 'utf8'));
  const contract = Contract.compile(blueprint.output_schema);
  const failed = contract.validateText('{"summary": 1, "approval": "lgtm"}');
  read.push(...failed.error.violations.map(formatViolation), JSON.stringify(failureEnvelope(failed.error)));
  read.push(enrichSystemPrompt('You review code.', blueprint.output_schema), retryPrompt(failed, blueprint.output_schema), toolFeedback(failed));
  const result = await enforce(contract, async () => 'no JSON here', { systemPrompt: 'You review code.', task: 'Review.' });
  read.push(JSON.stringify(result));
  assert.ok(read.length > 100, `${read.length} texts`);
  const named = read.filter((t) => /seed/i.test(t));
  assert.deepEqual(named, []);
});
