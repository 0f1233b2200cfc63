// The public JS API through the npm package as a user imports it: exact canonical errors for
// each keyword, compile errors, the cache, prototypes, envelopes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  Contract,
  SchemaError,
  ready,
  formatViolation,
  failureEnvelope,
  formatChildResult,
  cacheStats,
  setCacheCapacity,
} from 'output-contract';

await ready;

/** The violations of `value` against `schema`, without the fields every case shares. */
function violations(schema, value, options) {
  const result = Contract.compile(schema, options).validate(value);
  assert.equal(result.valid, false, 'expected a failure');
  return result.error.violations;
}

test('type', () => {
  assert.deepEqual(violations({ properties: { n: { type: 'integer' } } }, { n: 'x' }), [
    { path: '$.n', keyword: 'type', expected: 'integer', received: 'x', message: "'x' is not of type 'integer'", pointer: '/n', schema_path: '/properties/n/type' },
  ]);
  // Several types are listed as the schema writes them.
  assert.deepEqual(violations({ type: ['string', 'null'] }, 3), [
    { path: '$', keyword: 'type', expected: ['string', 'null'], received: 3, message: "3 is not of type 'string', 'null'", pointer: '', schema_path: '/type' },
  ]);
});

test('enum', () => {
  assert.deepEqual(violations({ properties: { severity: { enum: ['low', 'medium', 'high'] } } }, { severity: 'critical' }), [
    {
      path: '$.severity', keyword: 'enum', expected: ['low', 'medium', 'high'], received: 'critical',
      message: "'critical' is not one of ['low', 'medium', 'high']", pointer: '/severity', schema_path: '/properties/severity/enum',
    },
  ]);
});

test('const', () => {
  assert.deepEqual(violations({ const: 'v1' }, 'v2'), [
    { path: '$', keyword: 'const', expected: 'v1', received: 'v2', message: "'v1' was expected", pointer: '', schema_path: '/const' },
  ]);
});

test('required', () => {
  assert.deepEqual(violations({ required: ['summary'] }, { other: 1 }), [
    { path: '$', keyword: 'required', expected: 'summary', received: { other: 1 }, message: "'summary' is a required property", pointer: '', schema_path: '/required' },
  ]);
});

test('additionalProperties', () => {
  assert.deepEqual(violations({ properties: { a: {} }, additionalProperties: false }, { a: 1, b: 2, c: 3 }), [
    { path: '$', keyword: 'additionalProperties', expected: 'no additional properties', received: 'b', message: "Additional properties are not allowed ('b' was unexpected)", pointer: '', schema_path: '/additionalProperties' },
    { path: '$', keyword: 'additionalProperties', expected: 'no additional properties', received: 'c', message: "Additional properties are not allowed ('c' was unexpected)", pointer: '', schema_path: '/additionalProperties' },
  ]);
});

test('format (asserted by default)', () => {
  const schema = { properties: { citations: { type: 'array', items: { properties: { url: { format: 'uri' } } } } } };
  const result = Contract.compile(schema, { schemaId: 'https://geodocs.dev/schemas/answer.v1.json', agentId: 'answer-agent' }).validateText(
    '{"citations": [{"url": "not-a-url"}]}',
  );
  assert.deepEqual(result, {
    valid: false,
    error: {
      error: 'output_validation_failed',
      schema_id: 'https://geodocs.dev/schemas/answer.v1.json',
      agent_id: 'answer-agent',
      violations: [
        {
          path: '$.citations[0].url', keyword: 'format', expected: 'uri', received: 'not-a-url',
          message: "'not-a-url' is not a valid 'uri'", pointer: '/citations/0/url', schema_path: '/properties/citations/items/properties/url/format',
        },
      ],
      raw_output: '{"citations": [{"url": "not-a-url"}]}',
      retryable: true,
    },
  });
  assert.equal(Contract.compile({ format: 'uri' }, { formats: false }).validate('not-a-url').valid, true);
});

test('minimum and maximum', () => {
  assert.deepEqual(violations({ properties: { count: { minimum: 0 }, score: { maximum: 10 } } }, { count: -5, score: 11 }), [
    { path: '$.count', keyword: 'minimum', expected: 0, received: -5, message: '-5 is less than minimum 0', pointer: '/count', schema_path: '/properties/count/minimum' },
    { path: '$.score', keyword: 'maximum', expected: 10, received: 11, message: '11 is greater than maximum 10', pointer: '/score', schema_path: '/properties/score/maximum' },
  ]);
});

test('pattern', () => {
  assert.deepEqual(violations({ pattern: '^3\\.' }, '2.0'), [
    { path: '$', keyword: 'pattern', expected: '^3\\.', received: '2.0', message: "'2.0' does not match /^3\\./", pointer: '', schema_path: '/pattern' },
  ]);
});

test('minLength', () => {
  assert.deepEqual(violations({ properties: { summary: { minLength: 50 } } }, { summary: 'short' }), [
    { path: '$.summary', keyword: 'minLength', expected: 50, received: 'short', message: 'a string of 5 characters is shorter than 50', pointer: '/summary', schema_path: '/properties/summary/minLength' },
  ]);
});

test('minItems', () => {
  assert.deepEqual(violations({ minItems: 2 }, [1]), [
    { path: '$', keyword: 'minItems', expected: 2, received: [1], message: 'an array of 1 item has fewer than 2', pointer: '', schema_path: '/minItems' },
  ]);
});

test('uniqueItems', () => {
  assert.deepEqual(violations({ uniqueItems: true }, ['a', 'b', 'a']), [
    { path: '$', keyword: 'uniqueItems', expected: 'unique items', received: ['a', 'b', 'a'], message: 'an array of 3 items has non-unique elements', pointer: '', schema_path: '/uniqueItems' },
  ]);
});

test('oneOf reports the closest branch, not the whole instance', () => {
  const schema = {
    oneOf: [
      { type: 'object', required: ['kind', 'url'], properties: { kind: { const: 'link' }, url: { type: 'string' } } },
      { type: 'object', required: ['kind', 'text'], properties: { kind: { const: 'note' }, text: { type: 'string' } } },
      { type: 'string' },
    ],
  };
  assert.deepEqual(violations(schema, { kind: 'note', text: 5 }), [
    {
      path: '$.text', keyword: 'type', expected: 'string', received: 5, message: "5 is not of type 'string'",
      pointer: '/text', schema_path: '/oneOf/1/properties/text/type', branch: { keyword: 'oneOf', index: 1, count: 3 },
    },
  ]);
});

test('$ref across resources', () => {
  const resources = { 'https://schemas.example/severity.json': { type: 'string', enum: ['low', 'high'] } };
  const schema = { properties: { severity: { $ref: 'https://schemas.example/severity.json' } } };
  assert.deepEqual(violations(schema, { severity: 'mid' }, { resources }), [
    { path: '$.severity', keyword: 'enum', expected: ['low', 'high'], received: 'mid', message: "'mid' is not one of ['low', 'high']", pointer: '/severity', schema_path: '/properties/severity/$ref/enum' },
  ]);
  assert.throws(
    () => Contract.compile(schema),
    (e) => e instanceof SchemaError && e.kind === 'unresolvable_ref' && e.issues[0].uri === 'https://schemas.example/severity.json',
  );
});

test('the pr-reviewer example: the canonical error with $.-paths', () => {
  const blueprint = JSON.parse(readFileSync(new URL('../../examples/pr-reviewer/blueprint.json', import.meta.url), 'utf8'));
  const contract = Contract.compile(blueprint.output_schema, { agentId: 'pr-reviewer', schemaId: 'pr-reviewer/output.v1' });
  assert.equal(contract.draft, 'draft7');
  const text = readFileSync(new URL('../../examples/pr-reviewer/invalid-output.txt', import.meta.url), 'utf8');
  const { valid, error } = contract.validateText(text);
  assert.equal(valid, false);
  assert.deepEqual(Object.keys(error), ['error', 'schema_id', 'agent_id', 'violations', 'raw_output', 'retryable']);
  assert.equal(error.error, 'output_validation_failed');
  assert.equal(error.raw_output, text);
  assert.equal(error.retryable, true);
  for (const v of error.violations) {
    assert.deepEqual(Object.keys(v).slice(0, 5), ['path', 'keyword', 'expected', 'received', 'message']);
  }
  // The same lines the dashboard lists (tests/browser/).
  const expected = readFileSync(new URL('../../examples/pr-reviewer/invalid-output.violations.txt', import.meta.url), 'utf8');
  assert.deepEqual(error.violations.map(formatViolation), expected.trimEnd().split('\n'));
  assert.deepEqual(failureEnvelope(error, 'run_abc123'), {
    run_id: 'run_abc123',
    status: 'failed',
    error: {
      type: 'output_schema_validation_failed',
      message: 'Output did not match schema after 1 retry',
      validation_errors: error.violations.map(formatViolation),
    },
  });
  const ok = contract.validateText(readFileSync(new URL('../../examples/pr-reviewer/valid-output.json', import.meta.url), 'utf8'));
  assert.equal(ok.valid, true);
  assert.equal(ok.data.approval, 'request_changes');
});

test('one-line renderings of violations', () => {
  const contract = Contract.compile({ properties: { severity: { enum: ['low', 'medium', 'high'] }, count: { minimum: 0 } } });
  const { error } = contract.validate({ severity: 'critical', count: -5 });
  assert.deepEqual(failureEnvelope(error).error.validation_errors, [
    "$.severity: 'critical' is not one of ['low', 'medium', 'high']",
    '$.count: -5 is less than minimum 0',
  ]);
});

test('violations come in document order, then keyword', () => {
  const contract = Contract.compile({
    properties: { z: { type: 'string' }, a: { type: 'string', minLength: 3 } },
    required: ['missing'],
  });
  const { error } = contract.validateText('{"z": 1, "a": 2}');
  assert.deepEqual(error.violations.map((v) => `${v.path} ${v.keyword}`), ['$ required', '$.z type', '$.a type']);
});

test('unparseable, truncated and oversized outputs', () => {
  const contract = Contract.compile({ type: 'object' }, { maxOutputBytes: 64, maxDepth: 3 });
  const bad = contract.validateText('{"a": 1,}');
  assert.equal(bad.error.violations[0].keyword, 'json');
  assert.match(bad.error.violations[0].message, /^invalid JSON at line 1, column 9/);
  assert.equal(bad.error.retryable, true);
  const cut = contract.validateText('{"a": [1, 2');
  assert.equal(cut.error.violations[0].keyword, 'truncated');
  assert.equal(cut.error.retryable, true);
  const big = contract.validateText(JSON.stringify({ a: 'x'.repeat(100) }));
  assert.equal(big.error.violations[0].keyword, 'maxOutputBytes');
  assert.equal(big.error.retryable, false);
  const deep = contract.validate({ a: { b: { c: { d: 1 } } } });
  assert.equal(deep.error.violations[0].keyword, 'maxDepth');
  assert.equal(deep.error.retryable, false);
  const empty = contract.validateText('  ');
  assert.equal(empty.error.violations[0].message, 'No JSON output found but output_schema requires structured output');
  // A value JSON cannot carry is the caller's error, not an output's (tests/js/json-value.test.mjs).
  assert.throws(() => contract.validate({ a: 1n }), (e) => e instanceof TypeError && e.message === '$.a: a BigInt (1n) is not a JSON value');
});

test('raw_output is truncated with a visible marker', () => {
  const contract = Contract.compile({ type: 'string' }, { rawOutputLimit: 10 });
  const { error } = contract.validateText(JSON.stringify([1, 2, 3, 4, 5, 6, 7, 8, 9]));
  assert.equal(error.raw_output, '[1,2,3,4,5…[truncated 9 bytes]');
  // Within the limit, raw_output is the text itself (put back on the JS side), byte for byte.
  const whole = ' ["é", "😀"] ';
  assert.equal(Contract.compile({ type: 'string' }).validateText(whole).error.raw_output, whole);
  assert.equal(contract.validateText(whole).error.raw_output, ' ["é", "…[truncated 7 bytes]');
  assert.equal(contract.validate([1]).error.raw_output, '[1]');
  assert.equal(contract.validateText('').error.raw_output, '');
  // A cut text's head is taken from the text on the JS side: a lone surrogate stays as written,
  // and a cut text as long as the text itself (a marker of 23 bytes for 23 bytes left out) is
  // still cut.
  const lone = '["\ud800", "\ud83d\ude00 abc"]';
  assert.equal(contract.validateText(lone).error.raw_output, '["\ud800", "…[truncated 10 bytes]');
  const sameLength = '[1,2,3,4,5,6,7,8,9,10,11,12,13,1]';
  assert.equal(contract.validateText(sameLength).error.raw_output, '[1,2,3,4,5…[truncated 23 bytes]');
  // Past the default limit (4,096 bytes), the same.
  const long = JSON.stringify(['é'.repeat(3000), '😀'.repeat(3000)]);
  const cut = Contract.compile({ type: 'string' }).validateText(long).error.raw_output;
  const head = new TextDecoder().decode(new TextEncoder().encode(long).subarray(0, 4096)).replace(/\uFFFD+$/, '');
  assert.equal(cut, `${head}…[truncated ${new TextEncoder().encode(long).length - new TextEncoder().encode(head).length} bytes]`);
});

test('texts reach the module whole: non-ASCII, lone surrogates, very long texts, in turn', () => {
  // Outputs are encoded into the module's input area, room for ASCII first, then room for the
  // rest (pkg/src/api.js, toInput): each text must arrive whole, whatever came before it.
  const contract = Contract.compile({ type: 'array', items: { type: 'string', maxLength: 3 } }, { maxOutputBytes: 1 << 22 });
  const long = '"ab",'.repeat(300000);
  const cases = [
    ['["abc", "é€😀"]', true],
    ['["' + 'a'.repeat(40) + '", "😀😀😀😀"]', false],
    ['["日本語", "\\ud83d\\ude00", "x"]', true],
    // A lone surrogate becomes U+FFFD, one character, as TextEncoder writes it.
    ['["A", "\ud800"]', true],
    ['[' + long + '"é😀x"]', true],
    ['[' + long + '"é😀xy"]', false],
    ['["é😀", "' + 'é'.repeat(10) + '"]', false],
    ['[]', true],
  ];
  for (const [text, valid] of cases) {
    const result = contract.validateText(text);
    assert.equal(result.valid, valid, text.slice(0, 40));
    if (valid) assert.deepEqual(result.data, JSON.parse(text));
  }
  const failure = contract.validateText('["é😀", "ééé😀"]').error;
  assert.equal(failure.violations[0].path, '$[1]');
  assert.equal(failure.violations[0].received, 'ééé😀');
  assert.equal(failure.raw_output, '["é😀", "ééé😀"]');
  // The same through extraction, tool calls and a stream fed long non-ASCII chunks.
  assert.deepEqual(contract.validateText('Here: ["é€😀"]', { extract: true }).data, ['é€😀']);
  assert.deepEqual(contract.validateToolCall('["😀😀"]').data, ['😀😀']);
  const stream = contract.stream();
  const text = JSON.stringify(Array.from({ length: 50 }, (_, i) => ['é€😀', '日本'][i % 2]));
  for (let i = 0; i < text.length; i += 70) stream.push(text.slice(i, i + 70));
  const out = stream.finish();
  assert.equal(out.valid, true);
  assert.deepEqual(out.data, JSON.parse(text));
});

test('a string ends, escapes and control characters are found at every offset of strings up to 48 bytes', () => {
  // The module scans a string's text eight bytes a step (src/json/scan.rs, plain_run): what stops the
  // scan must be found wherever it falls in a word, in a checked string and in one the schema
  // leaves unconstrained (skipped).
  const contract = Contract.compile({ type: 'object', properties: { s: { type: 'string', maxLength: 20 } } });
  const keyword = (text) => contract.validateText(text).error?.violations[0].keyword;
  for (let k = 0; k < 48; k++) {
    const a = 'a'.repeat(k);
    for (const key of ['s', 'other']) {
      const checked = key === 's';
      // The closing quote after k plain bytes.
      assert.equal(contract.validateText(JSON.stringify({ [key]: a })).valid, !checked || k <= 20, `${key} ${k}`);
      // An escape after k plain bytes: one character more.
      for (const escape of ['\\"', '\\\\', '\\n', '\\u00e9']) {
        const text = `{"${key}": "${a}${escape}"}`;
        const result = contract.validateText(text);
        assert.equal(result.valid, !checked || k + 1 <= 20, text);
        if (result.valid) assert.deepEqual(result.data, JSON.parse(text));
      }
      // A raw control character is invalid JSON; a non-ASCII character (bytes above 0x7f) is not.
      assert.equal(keyword(`{"${key}": "${a}\u0001x"}`), 'json', `${key} control at ${k}`);
      assert.equal(keyword(`{"${key}": "${a}\u001fx"}`), 'json', `${key} 0x1f at ${k}`);
      assert.equal(contract.validateText(`{"${key}": "${'é'.repeat(k)}"}`).valid, !checked || k <= 20, `${key} é×${k}`);
    }
  }
});

test('formatViolation renders what the module renders, from path and message alone', () => {
  assert.equal(formatViolation({ path: '$.a', message: "'b' is a required property" }), "$.a: 'b' is a required property");
  assert.throws(() => formatViolation({ path: '$' }), TypeError);
  assert.throws(() => formatViolation(null), TypeError);
});

test('compile errors are SchemaErrors with typed issues', () => {
  const cases = [
    ['{"type": "object",\n  "properties": {,}}', 'invalid_json', (i) => i.line === 2 && i.column === 18],
    [{ type: 'strng' }, 'meta_schema', (i) => i.pointer === '/type'],
    // Under Draft 7 by its `$schema` (without one, `prefixItems` makes the schema Draft 2020-12).
    [{ $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', prefixItems: [] }, 'unknown_keyword', (i) => i.pointer === '/prefixItems' && /Draft 2020-12/.test(i.message)],
    [{ $schema: 'https://json-schema.org/draft/2020-12/schema', dependencies: {} }, 'unknown_keyword', (i) => /Draft 7/.test(i.message)],
    [{ $schema: 'https://example.com/my-draft' }, 'unknown_draft', (i) => i.pointer === '/$schema'],
    [{ pattern: '(unclosed' }, 'invalid_regex', (i) => i.pointer === '/pattern'],
    [{ format: 'not-a-format' }, 'unknown_format', (i) => i.pointer === '/format'],
    [{ $ref: 'file:///etc/passwd' }, 'unresolvable_ref', (i) => i.uri === 'file:///etc/passwd'],
  ];
  for (const [schema, kind, check] of cases) {
    assert.throws(
      () => Contract.compile(schema),
      (e) => {
        assert.ok(e instanceof SchemaError && e instanceof Error, `${kind}: not a SchemaError`);
        assert.equal(e.name, 'SchemaError');
        assert.equal(e.kind, kind, e.message);
        assert.ok(check(e.issues[0]), `${kind}: ${JSON.stringify(e.issues)}`);
        return true;
      },
    );
  }
  // Every meta-schema problem is listed, not only the first.
  assert.throws(() => Contract.compile({ type: 'strng', minLength: -1 }), (e) => e.issues.length === 2);
  assert.throws(() => Contract.compile({}, { draft: 'draft8' }), (e) => e.kind === 'invalid_option');
  // Non-strict: unknown keywords are ignored, as the specification says.
  assert.equal(Contract.compile({ prefixItems: [{ type: 'string' }] }, { strict: false, draft: 'draft7' }).validate([1]).valid, true);
  assert.equal(Contract.compile({ title: 'T', 'x-ui': { widget: 'text' }, $comment: 'c' }).validate(1).valid, true);
});

test('$schema wins over the draft option; Draft-7 is the default', () => {
  assert.equal(Contract.compile({}).draft, 'draft7');
  assert.equal(Contract.compile({}, { draft: 'draft2019-09' }).draft, 'draft2019-09');
  const c = Contract.compile({ $schema: 'https://json-schema.org/draft/2020-12/schema', prefixItems: [{ type: 'string' }] }, { draft: 'draft4' });
  assert.equal(c.draft, 'draft2020-12');
  assert.equal(c.validate([1]).valid, false);
  for (const draft of ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12']) {
    assert.equal(Contract.compile({ type: 'integer' }, { draft }).validate(1.5).valid, false, draft);
  }
});

test('schema ids: $id, option, or a stable content hash', () => {
  assert.equal(Contract.compile({ $id: 'https://x.example/out.v1.json' }).schemaId, 'https://x.example/out.v1.json');
  assert.equal(Contract.compile({ $id: 'https://x.example/out.v1.json' }, { schemaId: 'mine' }).schemaId, 'mine');
  const a = Contract.compile({ type: 'object', required: ['a'] }).schemaId;
  const b = Contract.compile('{"required": ["a"], "type": "object"}').schemaId;
  assert.match(a, /^urn:output-contract:schema:[0-9a-f]{16}$/);
  assert.equal(a, b);
  assert.equal(Contract.compile({}).agentId, null);
});

test('compiling the same schema again is a cache hit; the cache is bounded', () => {
  setCacheCapacity(64);
  const schema = { type: 'object', properties: { cached: { type: 'boolean' } } };
  Contract.compile(schema);
  const before = cacheStats();
  Contract.compile(structuredClone(schema));
  const after = cacheStats();
  assert.equal(after.hits, before.hits + 1);
  assert.equal(after.misses, before.misses);
  setCacheCapacity(4);
  for (let i = 0; i < 10; i++) Contract.compile({ minimum: i });
  assert.equal(cacheStats().entries, 4);
  setCacheCapacity(64);
});

test('outputs with __proto__ keys change no prototype', () => {
  const contract = Contract.compile({ type: 'object', properties: { __proto__: { type: 'object' } } });
  const result = contract.validateText('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
  assert.equal(result.valid, true);
  assert.equal(Object.getPrototypeOf(result.data), Object.prototype);
  assert.deepEqual(Object.keys(result.data), ['__proto__', 'constructor']);
  assert.equal({}.polluted, undefined);
  assert.equal(Object.prototype.polluted, undefined);
});

test('formatChildResult (the callback formatting)', () => {
  assert.equal(formatChildResult({ result_data: { files_analyzed: 42 } }), '{\n  "files_analyzed": 42\n}');
  assert.equal(formatChildResult({ result_text: 'done', result_data: null }), 'done');
  assert.equal(formatChildResult({}), '(No result available)');
});

test('free and Symbol.dispose release the handle', () => {
  const contract = Contract.compile({ type: 'string' });
  contract[Symbol.dispose]();
  assert.throws(() => contract.validate('x'), /this Contract was freed/);
  contract.free(); // a second free is harmless
  assert.throws(() => new Contract({}), TypeError);
});

test('the declarations type nothing as any', () => {
  const dts = readFileSync(new URL('../../pkg/index.d.ts', import.meta.url), 'utf8');
  assert.doesNotMatch(dts.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, ''), /\bany\b/);
});

// The package's own pattern engine with its generated Unicode sets (categories, scripts, script
// extensions, binary properties): patterns read the same in the package as natively.
test('patterns: ECMA-262 semantics in the package', () => {
  const cases = [
    ['^\\p{Letter}+$', 'héllo', true], ['^\\p{Script=Greek}+$', 'αβγ', true], ['^\\p{scx=Grek}$', 'α', true],
    ['^\\p{Lu}', 'a', false], ['^\\p{Alphabetic}$', 'x', true], ['\\bfoo\\b', 'a foo b', true], ['\\bfoo', 'éfoo', true],
    ['^\\w+$', 'é', false], ['^\\d$', '٣', false], ['^\\s$', '\uFEFF', true], ['^[\\d\\s]+$', '1 2', true],
    ['^.$', '🐲', true], ['^.$', '\r', false], ['^(?=a)a$', 'a', true], ['^(a)\\1$', 'aa', true], ['^[^]$', '\n', true],
  ];
  for (const [pattern, text, valid] of cases) {
    assert.equal(Contract.compile({ type: 'string', pattern }).validate(text).valid, valid, `${pattern} on ${JSON.stringify(text)}`);
  }
});
