// Drafts and dialects as generated schemas write them, through the npm package with default
// options: Pydantic's `$defs` without `$schema`, the OpenAI documentation's shape, Zod 4's
// formats under its draft-7 target, a discriminated union, the dialect URIs MCP servers write,
// and what checkSchema says about each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Contract, SchemaError, checkSchema, ready } from 'output-contract';

await ready;

const codes = (r) => r.diagnostics.map((d) => d.code);

const pydantic = {
  $defs: {
    Address: {
      properties: { street: { title: 'Street', type: 'string' }, zip: { title: 'Zip', type: 'string' } },
      required: ['street', 'zip'],
      title: 'Address',
      type: 'object',
    },
  },
  properties: {
    name: { title: 'Name', type: 'string' },
    age: { default: 0, title: 'Age', type: 'integer', examples: [30] },
    address: { $ref: '#/$defs/Address' },
  },
  required: ['name', 'address'],
  title: 'Person',
  type: 'object',
  'x-generator': 'pydantic',
};

test('a Pydantic schema ($defs, no $schema) compiles as Draft 2020-12, and says why', () => {
  const c = Contract.compile(pydantic);
  assert.equal(c.draft, 'draft2020-12');
  assert.deepEqual({ ...c.draftReason, message: undefined }, { source: 'inferred', keyword: '$defs', pointer: '', message: undefined });
  assert.match(c.draftReason.message, /"\$defs"/);
  assert.equal(c.validate({ name: 'a', address: { street: 's', zip: '1' } }).valid, true);
  const r = c.validate({ name: 'a', address: { street: 's' } });
  assert.equal(r.valid, false);
  assert.equal(r.error.violations[0].keyword, 'required');
  const report = checkSchema(JSON.stringify(pydantic, null, 2));
  assert.equal(report.valid, true);
  assert.equal(report.draft, 'draft2020-12');
  const note = report.diagnostics.find((d) => d.code === 'draft_inferred');
  assert.equal(note.severity, 'info');
  assert.equal(note.pointer, '/$defs');
});

test('the OpenAI documentation shape compiles; plain schemas stay Draft 7', () => {
  const openai = {
    type: 'object',
    properties: { steps: { type: 'array', items: { $ref: '#/$defs/step' } }, final_answer: { type: 'string' } },
    $defs: { step: { type: 'object', properties: { explanation: { type: 'string' }, output: { type: 'string' } }, required: ['explanation', 'output'], additionalProperties: false } },
    required: ['steps', 'final_answer'],
    additionalProperties: false,
  };
  assert.equal(Contract.compile(openai).draft, 'draft2020-12');
  const plain = Contract.compile({ type: 'object', properties: { a: { type: 'string' } } });
  assert.equal(plain.draft, 'draft7');
  assert.equal(plain.draftReason.source, 'default');
  assert.equal(Contract.compile(pydantic, { draft: 'draft7' }).draftReason.source, 'option');
});

test('a schema mixing drafts is refused naming both keywords', () => {
  assert.throws(
    () => Contract.compile({ type: 'array', prefixItems: [{ type: 'string' }], items: [{ type: 'number' }] }),
    (e) => e instanceof SchemaError && e.issues[0].pointer === '/items' && /"prefixItems"/.test(e.issues[0].message) && /"items" as an array/.test(e.issues[0].message),
  );
});

test("Zod 4's formats compile under both targets and are asserted", () => {
  const schema = z.object({
    id: z.uuid(), phone: z.e164(), data: z.base64(), url64: z.base64url(), c1: z.cuid(), c2: z.cuid2(), u: z.ulid(), n: z.nanoid(),
    token: z.jwt(), e: z.emoji(), net4: z.cidrv4(), net6: z.cidrv6(), mac: z.mac(), hex: z.hex(), x: z.xid(), s: z.string().includes('x'),
  });
  const valid = {
    id: '123e4567-e89b-12d3-a456-426614174000', phone: '+14155552671', data: 'aGk=', url64: 'aGk', c1: 'cjld2cjxh0000qzrmn831i7rn', c2: 'tz4a98xxat96iws9zmbrgj3a',
    u: '01ARZ3NDEKTSV4RRFFQ69G5FAV', n: 'V1StGXR8_Z5jdHi6B-myT', token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.c2ln', e: '👋',
    net4: '10.0.0.0/8', net6: '2001:db8::/32', mac: '00:1a:2b:3c:4d:5e', hex: 'c0ffee', x: '9m4e2mr0ui3e8a215n4g', s: 'axb',
  };
  for (const target of ['draft-7', 'draft-2020-12']) {
    const c = Contract.compile(z.toJSONSchema(schema, { target }));
    assert.equal(c.validate(valid).valid, true, target);
    assert.equal(z.safeParse(schema, valid).success, true);
    for (const [key, bad] of [['phone', '4155552671'], ['token', 'a.b.c'], ['mac', '00:1a'], ['e', 'hi'], ['x', '!'], ['s', 'y'], ['id', 'nope']]) {
      const r = c.validate({ ...valid, [key]: bad });
      assert.equal(r.valid, false, `${target} ${key}`);
      assert.equal(r.error.violations[0].path, `$.${key}`);
      assert.equal(z.safeParse(schema, { ...valid, [key]: bad }).success, false, key);
    }
  }
  const report = checkSchema(JSON.stringify(z.toJSONSchema(schema, { target: 'draft-7' })));
  assert.equal(report.valid, true, JSON.stringify(report.diagnostics));
  assert.ok(codes(report).includes('format_from_later_draft'));
  assert.ok(codes(report).includes('format_extension'));
  assert.ok(codes(report).includes('format_annotation'));
});

test('an unknown format without a pattern is refused, offering the formats option first', () => {
  assert.throws(
    () => Contract.compile({ type: 'string', format: 'colour' }),
    (e) => {
      const m = e.issues[0].message;
      return e.issues[0].kind === 'unknown_format' && m.indexOf('formats: { colour: … }') >= 0 && m.indexOf('formats: {') < m.indexOf('strict: false');
    },
  );
  assert.equal(Contract.compile({ type: 'string', format: 'colour' }, { formats: { colour: /^#/ } }).validate('#fff').valid, true);
});

test('a discriminated union reports the branch its tag names', () => {
  const Cat = z.object({ kind: z.literal('cat'), lives: z.number().int().max(9) });
  const Dog = z.object({ kind: z.literal('dog'), good: z.boolean() });
  const schema = z.toJSONSchema(z.object({ pet: z.discriminatedUnion('kind', [Cat, Dog]) }));
  schema.properties.pet.discriminator = { propertyName: 'kind' };
  const pydanticShape = {
    $defs: {
      Cat: { type: 'object', properties: { kind: { const: 'cat' }, lives: { type: 'integer', maximum: 9 } }, required: ['kind', 'lives'] },
      Dog: { type: 'object', properties: { kind: { const: 'dog' }, good: { type: 'boolean' } }, required: ['kind', 'good'] },
    },
    type: 'object',
    properties: { pet: { oneOf: [{ $ref: '#/$defs/Cat' }, { $ref: '#/$defs/Dog' }], discriminator: { propertyName: 'kind', mapping: { cat: '#/$defs/Cat', dog: '#/$defs/Dog' } } } },
    required: ['pet'],
  };
  for (const s of [schema, pydanticShape]) {
    const c = Contract.compile(s);
    const r = c.validate({ pet: { kind: 'dog', lives: 3 } });
    assert.equal(r.valid, false);
    assert.ok(r.error.violations.every((v) => v.branch?.index === 1), JSON.stringify(r.error.violations));
    assert.ok(r.error.violations.some((v) => v.keyword === 'required' && v.expected === 'good'));
  }
});

test('dialect URIs resolve; an unknown $schema takes the draft option; Draft 3 is refused', () => {
  // OpenAPI's annotations (`example`, `externalDocs`) are allowed in its dialect.
  const body = { type: 'object', properties: { a: { type: 'string', example: 'x' } } };
  for (const uri of [
    'http://json-schema.org/schema#',
    'https://spec.openapis.org/oas/3.1/dialect/base',
    'https://spec.openapis.org/oas/3.1/dialect/2024-10-25',
    'https://spec.openapis.org/oas/3.1/schema-base',
  ]) {
    const openapi = uri.includes('openapis');
    const schema = openapi ? { $schema: uri, ...body, externalDocs: { url: 'https://example.com' } } : { $schema: uri, type: 'object', properties: { a: { type: 'string' } } };
    const c = Contract.compile(schema);
    assert.equal(c.draft, 'draft2020-12', uri);
    assert.equal(c.draftReason.source, 'dialect', uri);
    assert.equal(c.validate({ a: 1 }).valid, false, uri);
    assert.ok(codes(checkSchema(JSON.stringify(schema))).includes('dialect_alias'), uri);
  }
  const own = { $schema: 'https://example.com/my-meta', type: 'object', properties: { a: { type: 'string' } } };
  assert.throws(() => Contract.compile(own), (e) => e.issues[0].kind === 'unknown_draft' && /draft option/.test(e.issues[0].message));
  const c = Contract.compile(own, { draft: 'draft2020-12' });
  assert.deepEqual([c.draft, c.draftReason.source, c.draftReason.uri], ['draft2020-12', 'option_for_unknown_schema', own.$schema]);
  const warned = checkSchema(JSON.stringify(own), { draft: 'draft2020-12' }).diagnostics.find((d) => d.code === 'unknown_schema_uri');
  assert.equal(warned.severity, 'warning');
  for (const options of [{}, { draft: 'draft2020-12' }]) {
    assert.throws(() => Contract.compile({ $schema: 'http://json-schema.org/draft-03/schema#', type: 'object' }, options), (e) => /Draft 3, which the library does not support/.test(e.issues[0].message));
  }
});

test('TypeBox-shaped $ids and $refs resolve', () => {
  const schema = {
    $id: 'https://example.com/schemas/order/1.0.0',
    type: 'object',
    properties: { customer: { $ref: 'Customer' }, items: { type: 'array', items: { $ref: 'https://example.com/schemas/Item' } } },
    required: ['customer', 'items'],
    $defs: {
      customer: { $id: 'Customer', type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      item: { $id: 'https://example.com/schemas/Item', type: 'object', properties: { sku: { type: 'string', pattern: '^[A-Z]+$' } }, required: ['sku'] },
    },
  };
  const c = Contract.compile(schema);
  assert.equal(c.validate({ customer: { name: 'a' }, items: [{ sku: 'AB' }] }).valid, true);
  assert.equal(c.validate({ customer: { name: 'a' }, items: [{ sku: 'ab' }] }).valid, false);
  // `Type.Ref(Customer)` with `Customer` given beside it, under its relative `$id`.
  const customer = { $id: 'Customer', type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
  const order = Contract.compile({ type: 'object', properties: { customer: { $ref: 'Customer' } }, required: ['customer'] }, { resources: { Customer: customer } });
  assert.equal(order.validate({ customer: { name: 'a' } }).valid, true);
  assert.equal(order.validate({ customer: {} }).valid, false);
});
