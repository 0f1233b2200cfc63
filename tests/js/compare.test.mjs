// compareSchemas and SchemaRegistry through the npm package: the classification of changes,
// ranges as editors use them (text.slice on offsets), typed errors, and the registry on the
// example schemas and the fixture folders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OptionError, SchemaError, SchemaRegistry, compareSchemas, ready } from 'output-contract';

await ready;

const root = fileURLToPath(new URL('../../', import.meta.url));
const examples = join(root, 'examples/schemas');
const read = (path) => readFileSync(path, 'utf8');
const kinds = (list) => list.map((c) => c.kind);

// A table of changes: [name, old, new, narrowed kinds, widened kinds, unknown kinds].
const table = [
  ['nothing', { type: 'string' }, { type: 'string', title: 'x' }, [], [], []],
  ['new required name', { type: 'object' }, { type: 'object', required: ['a'] }, ['required'], [], []],
  ['dropped required name', { type: 'object', required: ['a'] }, { type: 'object' }, [], ['required'], []],
  ['lower maxLength', { type: 'string', maxLength: 9 }, { type: 'string', maxLength: 3 }, ['maxLength'], [], []],
  ['removed enum value', { enum: ['a', 'b'] }, { enum: ['a'] }, ['enum'], [], []],
  ['added enum value', { enum: ['a'] }, { enum: ['a', 'b'] }, [], ['enum'], []],
  ['closed object', { type: 'object' }, { type: 'object', additionalProperties: false }, ['additionalProperties'], [], []],
  ['new optional property on a closed object', { type: 'object', additionalProperties: false }, { type: 'object', properties: { a: {} }, additionalProperties: false }, [], ['properties'], []],
  ['null allowed', { type: 'string' }, { type: ['string', 'null'] }, [], ['type'], []],
  ['a pattern where there was none', { type: 'string' }, { type: 'string', pattern: '^a' }, ['pattern'], [], []],
  ['two different patterns', { type: 'string', pattern: '^a' }, { type: 'string', pattern: '^b' }, [], [], ['pattern']],
  ['if/then added', {}, { if: { required: ['a'] }, then: { required: ['b'] } }, [], [], ['if']],
  ['changed $ref target', { definitions: { a: {}, b: { maxLength: 2 } }, properties: { x: { $ref: '#/definitions/a' } } }, { definitions: { a: {}, b: { maxLength: 2 } }, properties: { x: { $ref: '#/definitions/b' } } }, [], [], ['$ref']],
  ['$ref to a renamed definition with the same content', { definitions: { a: { type: 'string' } }, properties: { x: { $ref: '#/definitions/a' } } }, { definitions: { b: { type: 'string' } }, properties: { x: { $ref: '#/definitions/b' } } }, [], [], []],
];

for (const [name, before, after, narrowed, widened, unknown] of table) {
  test(`compareSchemas: ${name}`, () => {
    const result = compareSchemas(before, after);
    assert.deepEqual([kinds(result.narrowed), kinds(result.widened), kinds(result.unknown)], [narrowed, widened, unknown]);
    // Given objects, no change has a range (there is no text of the caller's to point into).
    for (const c of [...result.narrowed, ...result.widened, ...result.unknown]) assert.equal(c.range, undefined);
  });
}

// JSON Type Definitions: [name, old, new, narrowed kinds, widened kinds, unknown kinds].
const jtdTable = [
  ['jtd new required property (open object)', { properties: { a: { type: 'string' } }, additionalProperties: true }, { properties: { a: { type: 'string' }, b: { type: 'string' } }, additionalProperties: true }, ['properties', 'type'], [], []],
  ['jtd properties to optionalProperties', { properties: { a: { type: 'string' } } }, { optionalProperties: { a: { type: 'string' } } }, [], ['optionalProperties'], []],
  ['jtd object closed', { properties: { a: { type: 'string' } }, additionalProperties: true }, { properties: { a: { type: 'string' } } }, ['additionalProperties'], [], []],
  ['jtd nullable removed', { type: 'string', nullable: true }, { type: 'string' }, ['nullable'], [], []],
  ['jtd uint8 to int8', { type: 'uint8' }, { type: 'int8' }, ['type'], ['type'], []],
  ['jtd mapping value added', { discriminator: 't', mapping: { a: { properties: {} } } }, { discriminator: 't', mapping: { a: { properties: {} }, b: { properties: {} } } }, [], ['mapping'], []],
  ['jtd values to properties', { values: {} }, { properties: {} }, [], [], ['properties']],
];

for (const [name, before, after, narrowed, widened, unknown] of jtdTable) {
  test(`compareSchemas: ${name}`, () => {
    const result = compareSchemas(before, after, { draft: 'jtd' });
    assert.deepEqual([kinds(result.narrowed), kinds(result.widened), kinds(result.unknown)], [narrowed, widened, unknown]);
  });
}

test('compareSchemas: JTD pointers are schema paths, through ref to the definition', () => {
  const before = { definitions: { level: { enum: ['info', 'warn'] } }, properties: { level: { ref: 'level' } }, optionalProperties: { x: { type: 'int8' } } };
  const after = { definitions: { level: { enum: ['info'] } }, properties: { level: { ref: 'level' } }, optionalProperties: { x: { type: 'int16' } } };
  const result = compareSchemas(before, after, { draft: 'jtd' });
  assert.deepEqual(result.narrowed.map((c) => c.pointer), ['/definitions/level/enum']);
  assert.deepEqual(result.widened.map((c) => c.pointer), ['/optionalProperties/x/type']);
  assert.equal(result.needed, 'major');
});

test('SchemaRegistry: JSON Type Definitions are known by metadata.id', () => {
  const registry = load('tests/fixtures/registry/jtd', { draft: 'jtd' });
  assert.deepEqual(registry.versions('event').map((v) => v.version), ['1.0.0', '1.1.0', '1.2.0']);
  const codes = registry.check().map((d) => `${d.path.split('/').pop()} ${d.code} ${d.pointer}`);
  assert.deepEqual([...codes].sort(), [
    'event.v1.2.0.schema.json version_step /definitions/level/enum',
    'note.schema.json missing_description ',
    'note.schema.json missing_title ',
  ]);
  assert.equal(registry.add({ metadata: { id: 'https://x.test/other/1.0.0' }, type: 'string' }), 'https://x.test/other/1.0.0');
});

test('compareSchemas: ranges in the new text, the needed step and the step between versioned $ids', () => {
  const person = JSON.parse(read(join(examples, 'person.v1.0.0.schema.json')));
  const resources = { [person.$id]: person };
  const [v1, v11, v2] = ['1.0.0', '1.1.0', '2.0.0'].map((v) => read(join(examples, `ticket.v${v}.schema.json`)));
  const minor = compareSchemas(v1, v11, { resources });
  assert.deepEqual(minor.narrowed.map((c) => c.pointer), ['/properties/title/maxLength', '/properties/tags/uniqueItems', '/required']);
  assert.equal(v11.slice(minor.narrowed[0].range.start.offset, minor.narrowed[0].range.end.offset), '"maxLength": 80');
  assert.equal(minor.needed, 'minor');
  assert.deepEqual(minor.step, { from: '1.0.0', to: '1.1.0', bump: 'minor', allowed: true });
  const major = compareSchemas(v11, v2, { resources });
  assert.deepEqual(kinds(major.widened), ['enum', 'properties', 'type']);
  assert.deepEqual(major.step, { from: '1.1.0', to: '2.0.0', bump: 'major', allowed: true });
  const backwards = compareSchemas(v2, v11.replace('ticket/1.1.0', 'ticket/2.0.1'), { resources });
  assert.equal(backwards.step.allowed, false);
});

test('compareSchemas: a schema that does not compile is a SchemaError naming which; a bad option an OptionError', () => {
  assert.throws(() => compareSchemas({ type: 'string' }, '{"type": "strng"}'), (e) => e instanceof SchemaError && /^new schema: /.test(e.message));
  assert.throws(() => compareSchemas('{', { type: 'string' }), (e) => e instanceof SchemaError && e.kind === 'invalid_json' && /^old schema: /.test(e.message));
  assert.throws(() => compareSchemas({}, {}, { drafts: 'draft7' }), OptionError);
});

function schemaFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? schemaFiles(path) : name.endsWith('.schema.json') ? [path] : [];
  });
}

function load(dir, options) {
  const registry = new SchemaRegistry(options);
  for (const file of schemaFiles(join(root, dir)).sort()) registry.add(read(file), { path: file.slice(root.length) });
  return registry;
}

test('SchemaRegistry: the example schemas check clean; versions, contracts by $id', () => {
  const registry = load('examples/schemas');
  assert.deepEqual(registry.check(), []);
  assert.deepEqual(registry.versions('ticket').map((v) => v.version), ['1.0.0', '1.1.0', '2.0.0']);
  assert.equal(registry.versions('ticket')[0].path, 'examples/schemas/ticket.v1.0.0.schema.json');
  const contract = registry.contract('https://example.com/schemas/ticket/1.1.0');
  assert.equal(contract.schemaId, 'https://example.com/schemas/ticket/1.1.0');
  assert.equal(contract.validate({ title: 'Printer on fire', priority: 'high', reporter: { name: 'Ada' } }).valid, true);
  assert.equal(contract.validate({ title: 'Printer on fire', priority: 'high', reporter: {} }).valid, false);
  assert.throws(() => registry.contract('https://example.com/schemas/ticket/9.9.9'), (e) => e instanceof SchemaError && e.kind === 'unresolvable_ref');
});

test('SchemaRegistry: a broken folder reports each problem in its file, at its range', () => {
  const registry = load('tests/fixtures/registry/broken');
  const diagnostics = registry.check();
  const at = (file, code) => diagnostics.find((d) => d.path.endsWith(file) && d.code === code);
  for (const [file, code] of [
    ['no-version.schema.json', 'id_without_version'],
    ['wrong-name.v1.0.0.schema.json', 'file_name_mismatch'],
    ['untitled.v1.0.0.schema.json', 'missing_title'],
    ['untitled.v1.0.0.schema.json', 'missing_description'],
    ['dangling.v1.0.0.schema.json', 'unresolvable_ref'],
    ['not-json.v1.0.0.schema.json', 'invalid_json'],
    ['order.v1.1.0.schema.json', 'version_step'],
    ['order.v1.1.1.schema.json', 'version_step'],
  ]) {
    assert.ok(at(file, code), `${code} in ${file}: ${JSON.stringify(diagnostics, null, 1)}`);
  }
  assert.equal(diagnostics.filter((d) => d.code === 'duplicate_id').length, 1);
  const dangling = at('dangling.v1.0.0.schema.json', 'unresolvable_ref');
  const text = read(join(root, dangling.path));
  assert.equal(text.slice(dangling.range.start.offset, dangling.range.end.offset), '"$ref": "https://example.com/schemas/missing/1.0.0"');
  assert.equal(at('untitled.v1.0.0.schema.json', 'missing_title').severity, 'warning');
});

test('SchemaRegistry: add returns the $id and never throws for a broken schema; bad options are OptionErrors', () => {
  const registry = new SchemaRegistry({ draft: 'draft2020-12' });
  assert.equal(registry.add({ $id: 'https://x.test/a/1.0.0', title: 'A', description: 'a' }), 'https://x.test/a/1.0.0');
  assert.equal(registry.add('{ not json'), null);
  assert.deepEqual(registry.check().map((d) => d.code), ['invalid_json']);
  assert.throws(() => new SchemaRegistry({ draft: 'draft99' }), OptionError);
  assert.throws(() => registry.add({}, { file: 'x' }), OptionError);
});

test('parseSchemaId reads both $id conventions', async () => {
  const { parseSchemaId } = await import('output-contract');
  assert.deepEqual(parseSchemaId('https://example.com/schemas/ticket/1.2.0'), { name: 'ticket', version: '1.2.0' });
  assert.deepEqual(parseSchemaId('https://example.com/schemas/ticket.v2.0.0-rc.1.schema.json'), { name: 'ticket', version: '2.0.0-rc.1' });
  assert.equal(parseSchemaId('https://example.com/schemas/ticket'), null);
});
