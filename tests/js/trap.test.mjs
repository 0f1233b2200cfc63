// A trap inside WebAssembly (a Rust panic, or `unreachable`) must not leave the library broken:
// the call fails with a clear Error, the instance is re-created, contracts made before keep
// working, and objects of the dead instance are never freed into the new one. Uses the
// test-only build of the package (`scripts/build.sh --test-trap` → target/trap-pkg/), whose
// compile traps on a marker `$comment`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const entry = new URL('../../target/trap-pkg/src/node.js', import.meta.url);
const built = existsSync(entry);
const oc = built ? await import(entry.href) : null;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

const blueprint = JSON.parse(readFileSync(new URL('../../examples/pr-reviewer/blueprint.json', import.meta.url), 'utf8'));
const valid = readFileSync(new URL('../../examples/pr-reviewer/valid-output.json', import.meta.url), 'utf8');
const invalid = readFileSync(new URL('../../examples/pr-reviewer/invalid-output.txt', import.meta.url), 'utf8');
const expected = readFileSync(new URL('../../examples/pr-reviewer/invalid-output.violations.txt', import.meta.url), 'utf8').trimEnd().split('\n');

function works(contract) {
  assert.equal(contract.validateText(valid).valid, true);
  const r = contract.validateText(invalid);
  assert.deepEqual(r.error.violations.map(oc.formatViolation), expected);
}

for (const kind of ['panic', 'unreachable']) {
  test(`a ${kind} inside WebAssembly: a clear Error, then the library works again`, { skip: built ? false : 'run scripts/build.sh --test-trap first (scripts/test.sh does)' }, async () => {
    const contract = oc.Contract.compile(blueprint.output_schema, { agentId: 'before' });
    works(contract);
    const stream = contract.stream();
    stream.push('{"summary": "half');
    // Objects of the old instance that are only garbage later: their finalizers must not free
    // anything in the new instance.
    for (let i = 0; i < 50; i++) oc.Contract.compile({ type: 'object', title: `forgotten ${kind} ${i}` }).stream().push('{');

    let thrown;
    try {
      oc.Contract.compile({ $comment: `output-contract test trap: ${kind}` });
    } catch (e) {
      thrown = e;
    }
    assert.ok(thrown instanceof Error, 'the trap surfaces as an Error');
    assert.equal(thrown.name, 'OutputContractInternalError');
    assert.match(thrown.message, /^output-contract: internal error \(/);
    assert.match(thrown.message, kind === 'panic' ? /deliberate test panic/ : /WebAssembly trap: unreachable/);
    assert.match(thrown.message, /instance was re-created/);

    // The contract made before recompiles itself; the stream is gone, and says so.
    works(contract);
    assert.equal(contract.agentId, 'before');
    assert.throws(() => stream.push('x'), /OutputStream was lost when the WebAssembly instance was re-created/);
    stream.free();

    gc();
    await tick();
    gc();
    await tick();

    // The new instance is sound: compile, validate, stream many times.
    for (let i = 0; i < 200; i++) {
      const c = oc.Contract.compile({ type: 'object', required: ['n'], properties: { n: { const: i } }, title: `after ${kind} ${i}` });
      assert.equal(c.validate({ n: i }).valid, true);
      assert.equal(c.validate({ n: -1 }).valid, false);
      const s = c.stream();
      s.push(`{"n": ${i}}`);
      assert.equal(s.finish().valid, true);
      s.free();
      c.free();
    }
    works(oc.Contract.compile(blueprint.output_schema));
    assert.ok(oc.cacheStats().entries >= 1);
  });
}

test('schema errors and bad arguments are not mistaken for traps', { skip: built ? false : 'needs target/trap-pkg' }, () => {
  assert.throws(() => oc.Contract.compile({ type: 'strng' }), (e) => e instanceof oc.SchemaError && e.kind === 'meta_schema');
  const contract = oc.Contract.compile(blueprint.output_schema);
  assert.throws(() => contract.stream({ maxRetries: 'x' }), (e) => e instanceof Error && e.name !== 'OutputContractInternalError');
  works(contract);
});

test('a contract with a format function recompiles itself after a trap, its function still called', { skip: built ? false : 'needs target/trap-pkg' }, () => {
  const seen = [];
  const contract = oc.Contract.compile({ format: 'sku' }, { formats: { sku: (s) => seen.push(s) && s.startsWith('SKU-') } });
  assert.equal(contract.validate('SKU-1').valid, true);
  assert.throws(() => oc.Contract.compile({ $comment: 'output-contract test trap: panic' }), (e) => e.name === 'OutputContractInternalError');
  // The new instance has no callbacks until the recompile gives them.
  assert.equal(contract.validate('SKU-2').valid, true);
  assert.equal(contract.validate('X-3').valid, false);
  // (Called again for a string that fails, as the report is written.)
  assert.deepEqual([...new Set(seen)], ['SKU-1', 'SKU-2', 'X-3']);
  // A new contract with functions in the new instance works too.
  assert.equal(oc.Contract.compile({ format: 'x' }, { formats: { x: (s) => s === 'x' } }).validate('y').valid, false);
});
