// The adversarial catalogue (tests/corpus/adversarial.json) through the npm package, plus what
// only JavaScript can show: no prototype is touched, invalid UTF-8 bytes are a typed error, and
// the WebAssembly module cannot reach a network or file API at all (its imports are listed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Contract, SchemaError, extractJson, ready } from 'output-contract';

await ready;

const corpus = JSON.parse(readFileSync(new URL('../corpus/adversarial.json', import.meta.url), 'utf8'));

/** The text a case's source describes (same recipes as tests/adversarial.rs). */
function sourceText(source) {
  if (typeof source?.text === 'string') return source.text;
  if (typeof source?.raw === 'string') return source.raw;
  if (source?.nest) {
    const { open, close, depth, inner = '' } = source.nest;
    return open.repeat(depth) + inner + close.repeat(depth);
  }
  if (source?.repeat) {
    const { prefix, unit, sep = '', count, suffix } = source.repeat;
    const items = Array.from({ length: count }, (_, i) => unit.replaceAll('#', String(i)));
    return prefix + items.join(sep) + suffix;
  }
  if (typeof source?.gen_enum === 'number') return JSON.stringify({ enum: Array.from({ length: source.gen_enum }, (_, i) => `v${i}`) });
  return JSON.stringify(source);
}

const normal = Contract.compile({ type: 'object', required: ['ok'] });

for (const c of corpus.cases) {
  test(c.name, { timeout: 60_000 }, () => {
    const schema = sourceText(c.schema);
    const output = sourceText(c.output);
    let contract;
    try {
      contract = Contract.compile(schema, c.options);
    } catch (e) {
      assert.ok(e instanceof SchemaError, `${c.name}: ${e}`);
      assert.equal(e.kind, c.expect.schema_error, e.message);
    }
    if (contract) {
      assert.equal(c.expect.schema_error, undefined, 'compiled');
      const r = contract.validateText(output);
      assert.equal(r.valid, c.expect.valid, JSON.stringify(r.error?.violations?.slice(0, 2)));
      if (!r.valid) {
        const [first] = r.error.violations;
        assert.equal(first.keyword, c.expect.keyword, first.message);
        if (c.expect.message_contains) assert.ok(first.message.includes(c.expect.message_contains), first.message);
        if (c.expect.retryable !== undefined) assert.equal(r.error.retryable, c.expect.retryable);
      }
      contract.free();
    }
    assert.equal(normal.validateText('{"ok": 1}').valid, true);
    assert.equal(normal.validateText('{}').valid, false);
  });
}

test('__proto__ in an output: an own property of the data, no prototype changed', () => {
  // As JSON text: in an object literal, `__proto__:` would set a prototype, not a property.
  const contract = Contract.compile('{"type": "object", "properties": {"__proto__": {"type": "object"}}}');
  const r = contract.validateText('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
  assert.equal(r.valid, true);
  assert.ok(Object.hasOwn(r.data, '__proto__'));
  assert.equal(Object.getPrototypeOf(r.data), Object.prototype);
  assert.equal({}.polluted, undefined);
  assert.equal(Object.prototype.polluted, undefined);
  const x = extractJson('text {"__proto__": {"polluted": 1}} more');
  assert.ok(Object.hasOwn(x.value, '__proto__'));
  assert.equal({}.polluted, undefined);
  // Validating a value whose own __proto__ key (from JSON.parse) breaks the schema.
  const value = JSON.parse('{"__proto__": 5}');
  assert.equal(contract.validate(value).valid, false);
});

test('invalid UTF-8 bytes pushed into a stream: a typed json violation', () => {
  const contract = Contract.compile({ type: 'object' });
  const stream = contract.stream({ maxRetries: 0 });
  stream.push(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
  const outcome = stream.finish();
  assert.equal(outcome.state, 'hard-complete');
  assert.equal(outcome.error.violations[0].keyword, 'json');
  stream.free();
});

test('the WebAssembly module imports no network or file API: its whole import list', () => {
  const module = new WebAssembly.Module(readFileSync(new URL('../../pkg/wasm/output_contract_bg.wasm', import.meta.url)));
  const names = WebAssembly.Module.imports(module).map((i) => i.name.replace(/_[0-9a-f]{16}$/, '')).sort();
  // Random bytes (hash seeding), string and error plumbing of wasm-bindgen, and the calls of the
  // package's own callbacks for custom format functions (pkg/src/formats.js), and the instance's
  // own memory handed back to the package (wasmMemory): nothing else.
  assert.deepEqual(names, [
    '__wbg_Error',
    '__wbg___wbindgen_boolean_get',
    '__wbg___wbindgen_memory',
    '__wbg___wbindgen_string_get',
    '__wbg___wbindgen_throw',
    '__wbg_call',
    '__wbg_call',
    '__wbg_getRandomValues',
    '__wbindgen_generic',
    '__wbindgen_generic',
    '__wbindgen_init_externref_table',
  ]);
});
