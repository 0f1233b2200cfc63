// validate(value) of a value JSON cannot carry is a programming error: a TypeError naming the
// path, where it was a retryable `json` violation (or, for NaN, a silent null).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract } from 'output-contract';

const contract = Contract.compile({});
const typed = Contract.compile({ type: 'object', properties: { n: { type: 'number' } } });

function notJson(message) {
  return (e) => {
    assert.ok(e instanceof TypeError, `not a TypeError: ${e}`);
    assert.equal(e.message, message);
    return true;
  };
}

test('NaN, Infinity, BigInt and functions name their path', () => {
  assert.throws(() => contract.validate({ a: { b: NaN } }), notJson('$.a.b: NaN is not a JSON value'));
  assert.throws(() => typed.validate({ n: Infinity }), notJson('$.n: Infinity is not a JSON value'));
  assert.throws(() => contract.validate([1, -Infinity]), notJson('$[1]: -Infinity is not a JSON value'));
  assert.throws(() => contract.validate({ 'odd key': [0, 10n] }), notJson("$['odd key'][1]: a BigInt (10n) is not a JSON value"));
  assert.throws(() => contract.validate(5n), notJson('$: a BigInt (5n) is not a JSON value'));
  assert.throws(() => contract.validate({ list: [() => 1] }), notJson('$.list[0]: a function is not a JSON value'));
  assert.throws(() => contract.validate([undefined]), notJson('$[0]: undefined is not a JSON value'));
  assert.throws(() => contract.validate(NaN), notJson('$: NaN is not a JSON value'));
});

test('a null JSON.stringify writes is found wherever it stands', () => {
  assert.throws(() => contract.validate([NaN, 1]), notJson('$[0]: NaN is not a JSON value'));
  assert.throws(() => contract.validate([1, undefined, 2]), notJson('$[1]: undefined is not a JSON value'));
  assert.throws(() => contract.validate([[Infinity]]), notJson('$[0][0]: Infinity is not a JSON value'));
  assert.throws(() => contract.validate({ a: 1, b: NaN }), notJson('$.b: NaN is not a JSON value'));
  assert.throws(() => contract.validate({ a: NaN, b: 'nullable' }), notJson('$.a: NaN is not a JSON value'));
  assert.throws(() => contract.validate({ d: [{ e: -Infinity }] }), notJson('$.d[0].e: -Infinity is not a JSON value'));
});

test('undefined, a function or a symbol at the root', () => {
  assert.throws(() => contract.validate(undefined), notJson('$: undefined is not a JSON value'));
  assert.throws(() => contract.validate(() => {}), notJson('$: a function is not a JSON value'));
  assert.throws(() => contract.validate(Symbol('s')), notJson('$: a symbol is not a JSON value'));
});

test('a cycle names where it closes and the object it comes back to', () => {
  const a = { b: { c: [] } };
  a.b.c.push(a.b);
  assert.throws(() => contract.validate(a), notJson('$.b.c[0]: a cycle (the object at $.b again) is not a JSON value'));
  const self = {};
  self.self = self;
  assert.throws(() => contract.validateToolCall(self), notJson('$.self: a cycle (the object at $ again) is not a JSON value'));
});

test('what JSON.stringify writes faithfully is validated as before', () => {
  // The same object twice is no cycle; undefined and functions in an object are left out; toJSON
  // and boxed primitives are read as JSON.stringify reads them; a real null is a value.
  const shared = { x: 1 };
  assert.equal(contract.validate({ a: shared, b: [shared], c: undefined, f() {}, d: new Date(0), n: null, s: new String('null') }).valid, true);
  assert.deepEqual(typed.validate({ n: 'x' }).error.violations.map((v) => v.path), ['$.n']);
  assert.equal(typed.validateToolCall({ n: 1 }).valid, true);
  // A toJSON that gives a BigInt is caught too.
  assert.throws(() => contract.validate({ t: { toJSON: () => 1n } }), notJson('$.t: a BigInt (1n) is not a JSON value'));
});

test('Standard Schema answers such a value with an issue rather than a throw', () => {
  const out = contract['~standard'].validate({ a: NaN });
  assert.deepEqual(out, { issues: [{ message: '$.a: NaN is not a JSON value', path: [] }] });
});
