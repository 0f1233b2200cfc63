// The schemas of generated-schemas.test.mjs, as the tools people use write them: Zod 4 run here
// (z.toJSONSchema), TypeBox, the shapes of the OpenAI and Anthropic structured-output
// documentation, and Pydantic v2's output committed in tests/fixtures/pydantic/ (regenerated
// by its generate.py). Then the instances: samples built from a schema, and seeded mutations of
// them and of hand-written examples.
import { readFileSync, readdirSync } from 'node:fs';
import { z } from 'zod';
import { Type } from '@sinclair/typebox';
import { rng } from './tier-cases.mjs';

const fixtures = new URL('../fixtures/pydantic/', import.meta.url);

// A real JWT (header {"alg":"HS256","typ":"JWT"}): Zod's jwt() decodes the header.
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

/**
 * Every Zod 4 string format (and the string checks written as patterns), with strings each side
 * of it. The valid ones are valid for Zod, for the JSON Schema format of that name, and for the
 * pattern Zod writes beside it; the invalid ones for all three.
 */
export const zodStrings = [
  ['email', z.email(), ['ada@example.com', 'a.b+c@mail.example.org'], ['ada', 'a@', '@example.com', 'a b@example.com']],
  ['uuid', z.uuid(), ['3f1c2b9e-8a4d-4c2e-9b1a-2d3e4f5a6b7c', '00000000-0000-0000-0000-000000000000'], ['3f1c2b9e8a4d4c2e9b1a2d3e4f5a6b7c', 'xyz', '3f1c2b9e-8a4d-4c2e-9b1a-2d3e4f5a6b7']],
  ['uuidv4', z.uuidv4(), ['3f1c2b9e-8a4d-4c2e-9b1a-2d3e4f5a6b7c'], ['01890a5d-ac96-774b-bcce-b302099a8057', 'xyz']],
  ['uuidv7', z.uuidv7(), ['01890a5d-ac96-774b-bcce-b302099a8057'], ['3f1c2b9e-8a4d-4c2e-9b1a-2d3e4f5a6b7c']],
  ['guid', z.guid(), ['3f1c2b9e-8a4d-0c2e-0b1a-2d3e4f5a6b7c'], ['3f1c2b9e-8a4d-0c2e-0b1a-2d3e4f5a6b7', 'g'.repeat(36)]],
  ['url', z.url(), ['https://example.com/a?b=1', 'mailto:ada@example.com'], ['not a url', 'example.com']],
  ['e164', z.e164(), ['+14155552671', '+442071838750'], ['14155552671', '+0123456', '+1']],
  ['base64', z.base64(), ['', 'SGVsbG8=', 'SGVsbG8h'], ['SGVsbG8', 'SGV$bG8=', '====']],
  ['base64url', z.base64url(), ['SGVsbG8', 'a-_b'], ['SGVsbG8=', 'a+b/']],
  ['cuid', z.cuid(), ['cjld2cjxh0000qzrmn831i7rn'], ['xjld2cjxh0000qzrmn831i7rn', 'c12']],
  ['cuid2', z.cuid2(), ['tz4a98xxat96iws9zmbrgj3a'], ['TZ4A98', 'tz4a-98']],
  ['ulid', z.ulid(), ['01ARZ3NDEKTSV4RRFFQ69G5FAV'], ['01ARZ3NDEKTSV4RRFFQ69G5FA', '81ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAU']],
  ['nanoid', z.nanoid(), ['V1StGXR8_Z5jdHi6B-myT'], ['V1StGXR8_Z5jdHi6B-my', 'V1StGXR8 Z5jdHi6B-myT']],
  ['jwt', z.jwt(), [JWT], ['abc', 'a.b', 'a.b.c.d', '']],
  ['emoji', z.emoji(), ['😀', '👍🏽', '🇺🇸'], ['a', ':)', '😀a']],
  ['cidrv4', z.cidrv4(), ['192.168.0.0/24', '10.0.0.1/32'], ['192.168.0.0', '192.168.0.0/33', '256.0.0.0/8']],
  ['cidrv6', z.cidrv6(), ['2001:db8::/32', '::1/128'], ['2001:db8::', '2001:db8::/129', 'gggg::/8']],
  ['ipv4', z.ipv4(), ['127.0.0.1', '192.168.1.255'], ['256.1.1.1', '1.2.3', '01.2.3.4']],
  ['ipv6', z.ipv6(), ['::1', '2001:db8::8a2e:370:7334'], ['1:2:3', 'gggg::1', '12345::']],
  ['mac', z.mac(), ['00:1A:2B:3C:4D:5E', '00:1a:2b:3c:4d:5e'], ['00:1A:2b:3C:4D:5E', '00-1A-2B-3C-4D-5E', '00:1A:2B:3C:4D']],
  ['hex', z.hex(), ['', 'deadBEEF', '0123'], ['0x12', 'xyz']],
  ['hostname', z.hostname(), ['example.com', 'a-b.example'], ['-a.com', 'a..b', 'a_b.com']],
  ['iso.date', z.iso.date(), ['2024-02-29', '2023-12-31'], ['2023-02-29', '2024-13-01', '24-01-01']],
  ['iso.time', z.iso.time(), ['12:30', '23:59:59', '00:00:00.123'], ['24:00', '12:60', '1230']],
  ['iso.datetime', z.iso.datetime(), ['2024-05-01T12:30:00Z', '2024-05-01T12:30:00.123Z'], ['2024-05-01T12:30:00', '2024-05-01 12:30:00Z', '2024-05-01T12:30:00+02:00']],
  ['iso.datetime offset', z.iso.datetime({ offset: true }), ['2024-05-01T12:30:00+02:00', '2024-05-01T12:30:00Z'], ['2024-05-01T12:30:00', '2024-05-01T12:30:00+2']],
  ['iso.duration', z.iso.duration(), ['P1D', 'PT1H30M', 'P1Y2M3DT4H5M6S'], ['P', '1D', 'PT']],
  ['includes', z.string().includes('ab'), ['xaby', 'ab'], ['a b', 'ba']],
  ['startsWith', z.string().startsWith('x'), ['x', 'xyz'], ['yx', '']],
  ['endsWith', z.string().endsWith('y'), ['y', 'xy'], ['yx', '']],
  ['regex', z.string().regex(/^[a-z]{2}-\d{3}$/), ['ab-123'], ['ab-12', 'AB-123']],
  ['lowercase', z.string().lowercase(), ['abc', '1-2'], ['aBc']],
  ['length', z.string().min(2).max(4), ['ab', 'abcd', 'é😀'], ['a', 'abcde']],
];

const Category = z.object({
  name: z.string(),
  get subcategories() {
    return z.array(Category);
  },
});
const Tree = z.lazy(() => z.object({ value: z.number(), children: z.array(Tree).optional() }));
const User = z.object({ id: z.uuid(), email: z.email(), name: z.string().min(1) }).meta({ id: 'User' });
const Money = z.object({ amount: z.int().nonnegative(), currency: z.enum(['EUR', 'USD']) });

/** Zod 4 schemas of every other kind, each with examples (valid and not) the mutations start from. */
export const zodSchemas = [
  ['object', z.object({ title: z.string().min(1).max(80), done: z.boolean(), priority: z.int().min(1).max(5), note: z.string().optional() }), [
    { title: 'Ship it', done: false, priority: 3 },
    { title: 'x', done: true, priority: 5, note: 'n' },
  ]],
  ['strictObject', z.strictObject({ a: z.string(), b: z.number().nullable() }), [{ a: 'x', b: null }, { a: '', b: 2.5 }]],
  ['looseObject', z.looseObject({ a: z.string() }), [{ a: 'x', other: [1] }]],
  ['numbers', z.object({ i: z.int().min(1).max(10), f: z.number().gt(0).lt(1), m: z.int().multipleOf(5), i32: z.int32(), pos: z.number().positive() }), [
    { i: 1, f: 0.5, m: 10, i32: -2147483648, pos: 1e-3 },
    { i: 10, f: 0.999, m: 0, i32: 2147483647, pos: 7 },
  ]],
  ['fractional multipleOf', z.object({ price: z.number().multipleOf(0.01), step: z.number().multipleOf(0.1) }), [
    { price: 19.99, step: 0.3 },
    { price: 0.07, step: 0.7 },
  ]],
  ['array', z.array(z.string()).min(1).max(3), [['a'], ['a', 'b', 'c']]],
  ['nested arrays', z.array(z.array(z.int()).length(2)), [[[1, 2], [3, 4]], []]],
  ['tuple', z.tuple([z.string(), z.int(), z.boolean()]), [['a', 1, true]]],
  ['tuple with rest', z.tuple([z.string()], z.number()), [['a'], ['a', 1, 2.5]]],
  ['union', z.union([z.string(), z.number(), z.null()]), ['x', 1, null]],
  ['object union', z.union([z.object({ a: z.string() }), z.object({ b: z.int() })]), [{ a: 'x' }, { b: 1 }]],
  ['discriminatedUnion', z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string() }),
    z.object({ type: z.literal('image'), url: z.url(), width: z.int().positive().optional() }),
    z.object({ type: z.literal('money'), value: Money }),
  ]), [
    { type: 'text', text: 'hi' },
    { type: 'image', url: 'https://example.com/a.png', width: 10 },
    { type: 'money', value: { amount: 5, currency: 'EUR' } },
  ]],
  ['enum', z.enum(['low', 'medium', 'high']), ['low', 'high']],
  ['native enum', z.enum({ Up: 'UP', Down: 'DOWN' }), ['UP']],
  ['literal', z.literal('yes'), ['yes']],
  ['literals', z.literal(['x', 1, true]), ['x', 1, true]],
  ['nullable and optional', z.object({ a: z.string().nullable(), b: z.number().optional(), c: z.boolean().nullish(), d: z.string().default('d') }), [
    { a: null },
    { a: 'x', b: 1, c: null, d: 'e' },
    { a: 'x', c: true },
  ]],
  ['record', z.record(z.string(), z.number()), [{ a: 1, b: 2.5 }, {}]],
  ['record with enum keys', z.record(z.enum(['a', 'b']), z.int()), [{ a: 1, b: 2 }]],
  ['record with pattern keys', z.record(z.string().regex(/^k\d+$/), z.string()), [{ k1: 'x', k22: 'y' }, {}]],
  ['recursive getter', Category, [
    { name: 'root', subcategories: [{ name: 'a', subcategories: [] }, { name: 'b', subcategories: [{ name: 'c', subcategories: [] }] }] },
  ]],
  ['recursive lazy', Tree, [{ value: 1, children: [{ value: 2 }, { value: 3, children: [] }] }, { value: 0 }]],
  ['recursive inside an object', z.object({ tree: Tree, label: z.string() }), [{ tree: { value: 1, children: [{ value: 2 }] }, label: 'x' }]],
  ['nested defs', z.object({ owner: User, members: z.array(User).max(3), budget: Money.optional() }), [
    { owner: { id: '3f1c2b9e-8a4d-4c2e-9b1a-2d3e4f5a6b7c', email: 'ada@example.com', name: 'Ada' }, members: [] },
    { owner: { id: '3f1c2b9e-8a4d-4c2e-9b1a-2d3e4f5a6b7c', email: 'ada@example.com', name: 'Ada' }, members: [{ id: '00000000-0000-0000-0000-000000000000', email: 'b@example.org', name: 'B' }], budget: { amount: 3, currency: 'USD' } },
  ]],
  ['profile (formats together)', z.object({
    id: z.uuid(), email: z.email(), phone: z.e164().optional(), site: z.url().nullable(), avatar: z.base64().optional(),
    born: z.iso.date(), seen: z.iso.datetime(), ip: z.ipv4().or(z.ipv6()), tags: z.array(z.string().regex(/^#[a-z]+$/)).max(4),
  }), [
    { id: '3f1c2b9e-8a4d-4c2e-9b1a-2d3e4f5a6b7c', email: 'ada@example.com', site: null, born: '1990-01-01', seen: '2024-05-01T12:30:00Z', ip: '::1', tags: ['#a'] },
    { id: '3f1c2b9e-8a4d-4c2e-9b1a-2d3e4f5a6b7c', email: 'ada@example.com', phone: '+14155552671', site: 'https://ada.example', avatar: 'SGVsbG8=', born: '2000-02-29', seen: '2024-05-01T12:30:00.5Z', ip: '10.0.0.1', tags: [] },
  ]],
  ['intersection', z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })), [{ a: 'x', b: 1 }]],
  ['unknown and any', z.object({ u: z.unknown(), a: z.any() }), [{ u: 1, a: [1] }, { u: null, a: {} }]],
];

/** The Zod schemas as z.toJSONSchema writes them: both targets, both sides (`io`). */
export function zodVariants() {
  const out = [];
  const all = [
    ...zodStrings.map(([name, schema, valid, invalid]) => ({ name: `z.${name}()`, zod: schema, examples: [...valid, ...invalid], valid, invalid })),
    ...zodSchemas.map(([name, schema, examples]) => ({ name, zod: schema, examples })),
  ];
  for (const entry of all) {
    for (const target of ['draft-2020-12', 'draft-7']) {
      for (const io of ['output', 'input']) {
        const json = z.toJSONSchema(entry.zod, { target, io });
        out.push({ ...entry, id: `${entry.name} [${target}, ${io}]`, target, io, schema: json, ajv: target === 'draft-7' ? '07' : '2020' });
      }
    }
  }
  return out;
}

const A = Type.Object({ x: Type.Number(), y: Type.Optional(Type.Number()) }, { $id: 'A' });
const Node = Type.Recursive((This) => Type.Object({ id: Type.String(), nodes: Type.Array(This) }), { $id: 'Node' });

/** TypeBox schemas (their `[Kind]` symbols dropped by JSON, as when they are sent anywhere). */
export function typeboxSchemas() {
  const list = [
    ['Object', Type.Object({
      id: Type.String({ format: 'uuid' }), n: Type.Integer({ minimum: 0, maximum: 100 }), ok: Type.Optional(Type.Boolean()),
      tags: Type.Array(Type.String({ maxLength: 5 }), { maxItems: 3, uniqueItems: true }),
    }, { additionalProperties: false }), [{ id: '3f1c2b9e-8a4d-4c2e-9b1a-2d3e4f5a6b7c', n: 1, tags: ['a', 'b'] }], '07'],
    ['Object with formats', Type.Object({ email: Type.String({ format: 'email' }), at: Type.String({ format: 'date-time' }), day: Type.String({ format: 'date' }), site: Type.String({ format: 'uri' }) }),
      [{ email: 'ada@example.com', at: '2024-05-01T12:30:00Z', day: '2024-05-01', site: 'https://example.com' }], '07'],
    ['Union', Type.Union([Type.Literal('a'), Type.Literal(1), Type.Null()]), ['a', 1, null], '07'],
    ['Union of objects', Type.Union([Type.Object({ kind: Type.Literal('circle'), r: Type.Number({ exclusiveMinimum: 0 }) }), Type.Object({ kind: Type.Literal('square'), side: Type.Number() })]),
      [{ kind: 'circle', r: 1 }, { kind: 'square', side: 2 }], '07'],
    ['Recursive', Node, [{ id: 'a', nodes: [{ id: 'b', nodes: [] }] }], '07'],
    ['Ref to a schema with $id (in definitions)', Type.Object({ a: Type.Ref(A), list: Type.Array(Type.Ref('A')) }, { definitions: { A } }), [{ a: { x: 1 }, list: [{ x: 2, y: 3 }] }], '07'],
    ['Ref to a schema with $id (in $defs)', Type.Object({ a: Type.Ref(A) }, { $defs: { A } }), [{ a: { x: 1 } }], '2020'],
    ['Module', Type.Module({ Order: Type.Object({ id: Type.String(), lines: Type.Array(Type.Ref('Line')) }), Line: Type.Object({ sku: Type.String(), qty: Type.Integer({ minimum: 1 }) }) }).Import('Order'),
      [{ id: 'o1', lines: [{ sku: 's', qty: 2 }] }], '2020'],
    ['Tuple', Type.Tuple([Type.String(), Type.Number()]), [['a', 1]], '07'],
    ['Record', Type.Record(Type.String(), Type.Number()), [{ a: 1 }, {}], '07'],
    ['Record of numeric keys', Type.Record(Type.Number(), Type.String()), [{ 1: 'a', 20: 'b' }], '07'],
    ['Enum', Type.Enum({ A: 'a', B: 'b' }), ['a'], '07'],
    ['KeyOf', Type.KeyOf(Type.Object({ a: Type.String(), b: Type.String() })), ['b'], '07'],
    ['Intersect', Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Number() })]), [{ a: 'x', b: 1 }], '07'],
    ['Composite', Type.Composite([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Number() })]), [{ a: 'x', b: 1 }], '07'],
    ['Nullable', Type.Union([Type.String({ minLength: 1 }), Type.Null()]), ['x', null], '07'],
    ['TemplateLiteral', Type.TemplateLiteral('id-${number}'), ['id-12'], '07'],
    ['Partial', Type.Partial(Type.Object({ a: Type.String(), b: Type.Integer() })), [{}, { a: 'x' }], '07'],
    ['Unsafe', Type.Unsafe({ type: 'string', enum: ['x', 'y'] }), ['x'], '07'],
  ];
  return list.map(([name, schema, examples, ajv]) => ({ name, id: `Type.${name}`, schema: JSON.parse(JSON.stringify(schema)), examples, ajv }));
}

/**
 * The structured-output shapes of the OpenAI and Anthropic documentation, as those pages write
 * them: `response_format` / `text.format` json_schema with `strict: true`, strict function
 * tools, `$defs` + `$ref`, recursion through `#`, `anyOf` with null for an optional value, and
 * Anthropic's tools with `input_schema` and its structured outputs. The contract compiles the
 * schema part (`schema`, `parameters`, `input_schema`).
 */
export function providerSchemas() {
  const step = { type: 'object', properties: { explanation: { type: 'string' }, output: { type: 'string' } }, required: ['explanation', 'output'], additionalProperties: false };
  const docs = [
    ['OpenAI response_format: math_reasoning', { type: 'json_schema', json_schema: { name: 'math_reasoning', strict: true, schema: {
      type: 'object',
      properties: { steps: { type: 'array', items: step }, final_answer: { type: 'string' } },
      required: ['steps', 'final_answer'],
      additionalProperties: false,
    } } }, (d) => d.json_schema.schema, [{ steps: [{ explanation: 'Start', output: '8x = -30' }], final_answer: 'x = -3.75' }]],
    ['OpenAI text.format: $defs and $ref', { type: 'json_schema', name: 'math_response', strict: true, schema: {
      type: 'object',
      properties: { steps: { type: 'array', items: { $ref: '#/$defs/step' } }, final_answer: { type: 'string' } },
      $defs: { step },
      required: ['steps', 'final_answer'],
      additionalProperties: false,
    } }, (d) => d.schema, [{ steps: [], final_answer: '1' }, { steps: [{ explanation: 'a', output: 'b' }], final_answer: '2' }]],
    ['OpenAI: recursive UI through #', { type: 'json_schema', name: 'ui', strict: true, schema: {
      type: 'object',
      properties: {
        type: { type: 'string', description: 'The type of the UI component', enum: ['div', 'button', 'header', 'section', 'field', 'form'] },
        label: { type: 'string', description: 'The label of the UI component, used for buttons or form fields' },
        children: { type: 'array', description: 'Nested UI components', items: { $ref: '#' } },
        attributes: {
          type: 'array',
          description: 'Arbitrary attributes for the UI component, suitable for any element',
          items: {
            type: 'object',
            properties: { name: { type: 'string', description: 'The name of the attribute, for example onClick or className' }, value: { type: 'string', description: 'The value of the attribute' } },
            required: ['name', 'value'],
            additionalProperties: false,
          },
        },
      },
      required: ['type', 'label', 'children', 'attributes'],
      additionalProperties: false,
    } }, (d) => d.schema, [{ type: 'form', label: 'Sign up', children: [{ type: 'field', label: 'Name', children: [], attributes: [{ name: 'className', value: 'x' }] }], attributes: [] }]],
    ['OpenAI: recursive linked list through $defs, anyOf with null', { type: 'json_schema', name: 'linked_list', strict: true, schema: {
      type: 'object',
      properties: { linked_list: { $ref: '#/$defs/linked_list_node' } },
      $defs: {
        linked_list_node: {
          type: 'object',
          properties: { value: { type: 'number' }, next: { anyOf: [{ $ref: '#/$defs/linked_list_node' }, { type: 'null' }] } },
          additionalProperties: false,
          required: ['next', 'value'],
        },
      },
      additionalProperties: false,
      required: ['linked_list'],
    } }, (d) => d.schema, [{ linked_list: { value: 1, next: { value: 2, next: null } } }]],
    ['OpenAI: anyOf of objects', { type: 'json_schema', name: 'item', strict: true, schema: {
      type: 'object',
      properties: {
        item: {
          anyOf: [
            { type: 'object', description: 'The user object to insert into the database', properties: { name: { type: 'string', description: 'The name of the user' }, age: { type: 'number', description: 'The age of the user' } }, additionalProperties: false, required: ['name', 'age'] },
            { type: 'object', description: 'The address object to insert into the database', properties: { number: { type: 'string', description: 'The number of the address. Eg. for 123 main st, this would be 123' }, street: { type: 'string', description: 'The street name. Eg. for 123 main st, this would be main st' }, city: { type: 'string', description: 'The city of the address' } }, additionalProperties: false, required: ['number', 'street', 'city'] },
          ],
        },
      },
      additionalProperties: false,
      required: ['item'],
    } }, (d) => d.schema, [{ item: { name: 'Ada', age: 36 } }, { item: { number: '123', street: 'main st', city: 'Springfield' } }]],
    ['OpenAI: string and number properties', { type: 'json_schema', name: 'user', strict: true, schema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The name of the user' },
        username: { type: 'string', description: 'The username of the user. Must start with @', pattern: '^@[a-zA-Z0-9_]+$' },
        email: { type: 'string', description: 'The email of the user', format: 'email' },
        temperature: { type: 'number', minimum: -130, maximum: 130 },
        visits: { type: ['integer', 'null'], minimum: 0 },
      },
      additionalProperties: false,
      required: ['name', 'username', 'email', 'temperature', 'visits'],
    } }, (d) => d.schema, [{ name: 'Ada', username: '@ada_l', email: 'ada@example.com', temperature: 21.5, visits: null }]],
    ['OpenAI function tool, strict', { type: 'function', name: 'get_weather', description: 'Retrieves current weather for the given location.', strict: true, parameters: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City and country e.g. Bogotá, Colombia' },
        units: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null], description: 'Units the temperature will be returned in.' },
      },
      required: ['location', 'units'],
      additionalProperties: false,
    } }, (d) => d.parameters, [{ location: 'Paris, France', units: 'celsius' }, { location: 'Oslo', units: null }]],
    ['Anthropic tool: get_weather', { name: 'get_weather', description: 'Get the current weather in a given location', input_schema: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: "The unit of temperature, either 'celsius' or 'fahrenheit'" },
      },
      required: ['location'],
    } }, (d) => d.input_schema, [{ location: 'San Francisco, CA' }, { location: 'Oslo', unit: 'celsius' }]],
    ['Anthropic tool: record_summary (JSON output through a tool)', { name: 'record_summary', description: 'Record summary of an image using well-structured JSON.', input_schema: {
      type: 'object',
      properties: {
        key_colors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              r: { type: 'number', description: 'red value [0.0, 1.0]' },
              g: { type: 'number', description: 'green value [0.0, 1.0]' },
              b: { type: 'number', description: 'blue value [0.0, 1.0]' },
              name: { type: 'string', description: 'Human-readable color name in snake_case, e.g. "olive_green" or "turquoise"' },
            },
            required: ['r', 'g', 'b', 'name'],
          },
          description: 'Key colors in the image. Limit to less than four.',
        },
        description: { type: 'string', description: 'Image description. One to two sentences max.' },
        estimated_year: { type: 'integer', description: "Estimated year that the image was taken, if it's a photo. Only set this if the image appears to be non-fictional. Rough estimates are okay!" },
      },
      required: ['key_colors', 'description'],
    } }, (d) => d.input_schema, [{ key_colors: [{ r: 0.5, g: 0.1, b: 0, name: 'olive_green' }], description: 'A field.', estimated_year: 1990 }]],
    ['Anthropic output_format: json_schema', { type: 'json_schema', schema: {
      type: 'object',
      properties: { name: { type: 'string' }, email: { type: 'string' }, plan_interest: { type: 'string' }, demo_requested: { type: 'boolean' } },
      required: ['name', 'email', 'plan_interest', 'demo_requested'],
      additionalProperties: false,
    } }, (d) => d.schema, [{ name: 'Ada', email: 'ada@example.com', plan_interest: 'Enterprise', demo_requested: true }]],
    ['Anthropic strict tool: $defs and anyOf with null', { name: 'create_ticket', description: 'Create a support ticket.', strict: true, input_schema: {
      type: 'object',
      properties: {
        title: { type: 'string' },
        customer: { $ref: '#/$defs/customer' },
        priority: { type: 'string', enum: ['low', 'medium', 'high'] },
        assignee: { anyOf: [{ $ref: '#/$defs/customer' }, { type: 'null' }] },
      },
      required: ['title', 'customer', 'priority', 'assignee'],
      additionalProperties: false,
      $defs: { customer: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } }, required: ['name', 'email'], additionalProperties: false } },
    } }, (d) => d.input_schema, [{ title: 'Login fails', customer: { name: 'Ada', email: 'ada@example.com' }, priority: 'high', assignee: null }]],
  ];
  return docs.map(([name, doc, part, examples]) => ({ name, id: name, doc, schema: part(doc), examples, ajv: '2020' }));
}

/** Pydantic's fixtures: validation and serialization schemas, and Pydantic's verdicts. */
export function pydanticSchemas() {
  const verdicts = JSON.parse(readFileSync(new URL('verdicts.json', fixtures), 'utf8'));
  const out = [];
  for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.json') && f !== 'verdicts.json').sort()) {
    const model = file.replace(/(\.serialization)?\.json$/, '');
    const cases = verdicts.models[model];
    out.push({
      name: file,
      id: `pydantic ${file}`,
      model,
      mode: file.includes('.serialization.') ? 'serialization' : 'validation',
      schema: JSON.parse(readFileSync(new URL(file, fixtures), 'utf8')),
      examples: cases.filter((c) => c.valid).map((c) => c.instance),
      pydantic: cases,
      looser: verdicts.looser[model],
      ajv: '2020',
    });
  }
  return { version: verdicts.pydantic, schemas: out };
}

// ---------------------------------------------------------------------------------------------
// Instances.

/** Strings valid for each format, and pattern-fitting candidates, that samples pick from. */
const FORMAT_SAMPLES = new Map();
for (const [name, schema, valid] of zodStrings) {
  const format = z.toJSONSchema(schema).format ?? name;
  if (!FORMAT_SAMPLES.has(format)) FORMAT_SAMPLES.set(format, []);
  FORMAT_SAMPLES.get(format).push(...valid);
}
FORMAT_SAMPLES.set('date-time', ['2024-05-01T12:30:00Z', '2024-05-01T12:30:00.123Z']);
FORMAT_SAMPLES.set('uri', ['https://example.com/a?b=1', 'urn:isbn:0451450523']);
const CANDIDATES = [...new Set([...FORMAT_SAMPLES.values()].flat())].concat(['abc', 'x', 'xy', 'ABC', 'ZZ', '12345', 'step-1', 'step-42', '#tag', 'id-7', 'k1', '@ada', 'ab-123', '']);

/** A value the schema probably accepts (the differential needs no certainty: Ajv is the judge). */
export function sampler(root, seed) {
  const r = rng(seed);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const ids = new Map();
  (function collect(s) {
    if (s === null || typeof s !== 'object') return;
    if (typeof s.$id === 'string') ids.set(s.$id, s);
    for (const v of Object.values(s)) collect(v);
  })(root);

  function resolve(ref) {
    if (ref === '#') return root;
    if (ref.startsWith('#/')) {
      return ref.slice(2).split('/').reduce((at, k) => at?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], root);
    }
    return ids.get(ref);
  }

  function string(s) {
    const fits = (c) => {
      const n = [...c].length;
      if (s.minLength !== undefined && n < s.minLength) return false;
      if (s.maxLength !== undefined && n > s.maxLength) return false;
      if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(c)) return false;
      return true;
    };
    const own = s.format !== undefined ? (FORMAT_SAMPLES.get(s.format) ?? []).filter(fits) : [];
    const any = CANDIDATES.filter(fits);
    if (own.length > 0) return pick(own);
    if (any.length > 0) return pick(any);
    return 'a'.repeat(s.minLength ?? 1);
  }

  function number(s, integer) {
    const lo = s.minimum ?? (typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + (integer ? 1 : 0.25) : -20);
    const hi = s.maximum ?? (typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - (integer ? 1 : 0.25) : lo + 40);
    const m = s.multipleOf;
    if (m !== undefined) {
      const k = Math.ceil(Math.max(lo, -1000) / m) + Math.floor(r() * 4);
      return Number((k * m).toFixed(6));
    }
    const span = Math.min(hi, lo + 1000) - lo;
    const v = lo + r() * span;
    return integer ? Math.round(v) : Math.round(v * 100) / 100;
  }

  function value(s, depth) {
    if (s === true || s === undefined) return pick([1, 'x', null, true, { k: 1 }, [2]]);
    if (s === false) return null;
    if (s.$ref !== undefined && depth < 12) {
      const target = resolve(s.$ref);
      if (target !== undefined) return value(target, depth + 1);
    }
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum)) return pick(s.enum);
    const branches = s.anyOf ?? s.oneOf;
    if (Array.isArray(branches)) {
      // Deep in a recursion, prefer a branch without a reference: the value ends.
      const flat = branches.filter((b) => b.$ref === undefined);
      return value(depth > 4 && flat.length > 0 ? pick(flat) : pick(branches), depth + 1);
    }
    if (Array.isArray(s.allOf)) {
      const parts = s.allOf.map((p) => value(p, depth + 1));
      if (parts.every((p) => p !== null && typeof p === 'object' && !Array.isArray(p))) return Object.assign({}, ...parts);
      return parts[0];
    }
    let type = s.type;
    if (Array.isArray(type)) type = r() < 0.25 && type.includes('null') ? 'null' : pick(type.filter((t) => t !== 'null').concat(type.length === 1 ? type : []));
    if (type === undefined) type = s.properties ? 'object' : s.items || s.prefixItems ? 'array' : undefined;
    switch (type) {
      case 'null': return null;
      case 'boolean': return r() < 0.5;
      case 'integer': return number(s, true);
      case 'number': return number(s, false);
      case 'string': return string(s);
      case 'array': {
        const prefix = s.prefixItems ?? (Array.isArray(s.items) ? s.items : []);
        const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
        const out = prefix.map((p) => value(p, depth + 1));
        const min = Math.max(s.minItems ?? 0, out.length);
        const max = Math.min(s.maxItems ?? min + 3, min + 3);
        let n = min + Math.floor(r() * (max - min + 1));
        if (depth > 4) n = min;
        if (rest === false || (rest === undefined && prefix.length > 0 && Array.isArray(s.items))) n = out.length;
        while (out.length < n) out.push(value(rest, depth + 1));
        return out;
      }
      case 'object': {
        const out = {};
        const required = new Set(s.required ?? []);
        for (const [k, p] of Object.entries(s.properties ?? {})) {
          if (required.has(k) || (depth < 4 && r() < 0.6)) out[k] = value(p, depth + 1);
        }
        for (const k of required) if (!(k in out)) out[k] = value(undefined, depth + 1);
        const names = s.propertyNames?.enum;
        if (names) for (const k of names) if (!(k in out) && r() < 0.7) out[k] = value(s.additionalProperties, depth + 1);
        if (!names && s.additionalProperties && typeof s.additionalProperties === 'object' && r() < 0.5) out[`k${Math.floor(r() * 9)}`] = value(s.additionalProperties, depth + 1);
        for (const [p, v] of Object.entries(s.patternProperties ?? {})) {
          const key = ['k1', '3', 'any'].find((c) => new RegExp(p, 'u').test(c));
          if (key !== undefined && r() < 0.6) out[key] = value(v, depth + 1);
        }
        return out;
      }
      default: return pick([1, 'x', null, true]);
    }
  }
  return (depth = 0) => value(root, depth);
}

/** Replacements a mutation puts in place of a member: every JSON type, edge numbers, broken strings. */
const BAD = [null, true, false, 0, -1, 1.5, 11, 1e300, -2147483649, 9007199254740993, '', ' ', 'x', 'not-valid', '2024-13-45', '00:1A', 'ab-12', '+1', [], [1, 'a'], {}, { extra: 1 }];

/** Every path into a value, the root ([]) first. */
function paths(value, at = [], out = []) {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}

const get = (value, path) => path.reduce((v, k) => v[k], value);

/** A seeded mutation of a JSON value: a member replaced, dropped, added; an array grown or cut; a number moved; a string broken. */
export function mutator(seed) {
  const r = rng(seed);
  const pick = (list) => list[Math.floor(r() * list.length)];
  return (value) => {
    const copy = structuredClone(value);
    const path = pick(paths(copy));
    const target = get(copy, path);
    const set = (v) => {
      if (path.length === 0) return v;
      get(copy, path.slice(0, -1))[path.at(-1)] = v;
      return copy;
    };
    switch (Math.floor(r() * 7)) {
      case 0:
        if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
          const keys = Object.keys(target);
          if (keys.length > 0) delete target[pick(keys)];
          else target.extra_member = 1;
          return copy;
        }
        return set(pick(BAD));
      case 1:
        if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
          target[pick(['extra_member', 'x', 'k9', 'type'])] = pick(BAD);
          return copy;
        }
        return set(pick(BAD));
      case 2:
        if (Array.isArray(target)) {
          if (target.length > 0 && r() < 0.5) target.pop();
          else target.push(target.length > 0 ? structuredClone(pick(target)) : pick(BAD));
          return copy;
        }
        return set(pick(BAD));
      case 3:
        if (typeof target === 'number') return set(pick([target + 1, target - 1, -target - 1, target * 1000, target + 0.5, 0]));
        return set(pick(BAD));
      case 4:
        if (typeof target === 'string') return set(pick([`${target} `, [...target].slice(1).join(''), target.toUpperCase(), `${target}x`, '', 'not-in-enum']));
        return set(pick(BAD));
      default:
        return set(pick(BAD));
    }
  };
}

/** The instances of one entry: its examples, samples from its schema, and mutations of both. */
export function instances(entry, seed, { samples = 8, mutations = 4 } = {}) {
  const sample = sampler(entry.schema, seed);
  const mutate = mutator(seed + 1);
  const bases = [...entry.examples];
  for (let i = 0; i < samples; i++) bases.push(sample());
  const out = [];
  const seen = new Set();
  const add = (v) => {
    const key = JSON.stringify(v);
    if (key === undefined || seen.has(key)) return;
    seen.add(key);
    out.push(v);
  };
  for (const b of bases) {
    add(b);
    for (let i = 0; i < mutations; i++) add(mutate(b));
  }
  return out;
}
