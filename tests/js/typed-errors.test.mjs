// Every error the package throws for a caller's mistake is typed: an OptionError for options
// (a stream's finish included, and validateProviderStream without its provider), a FreedError
// after free(), a FormatFunctionError class, and the TypeError of a value JSON cannot carry for a
// string with a lone surrogate. And the editor's checks resolve references among a set's schemas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import {
  Contract,
  FormatFunctionError,
  FreedError,
  OptionError,
  checkSchema,
  providerEvents,
  ready,
  validateProviderStream,
} from 'output-contract';

await ready;

const contract = Contract.compile({ type: 'object', properties: { a: { type: 'string' } } });

test('stream.finish: an unknown key or stop reason is an OptionError', () => {
  for (const [end, option] of [
    [{ stopreason: 'stop' }, 'stopreason'],
    [{ stopReason: 'halted' }, 'stopReason'],
    [{ stopReason: 1 }, 'stopReason'],
    [{ refusal: 2 }, 'refusal'],
  ]) {
    const stream = contract.stream();
    stream.push('{"a": "x"}');
    assert.throws(() => stream.finish(end), (e) => e instanceof OptionError && e.kind === 'invalid_option' && e.option === option, JSON.stringify(end));
    // The stream is still open: a good end finishes it.
    assert.equal(stream.finish({ stopReason: 'end_turn' }).valid, true);
    stream.free();
  }
  const stream = contract.stream();
  assert.throws(() => stream.finish('stop'), OptionError);
  assert.equal(stream.finish({ stopReason: 'max_tokens' }).valid, false);
});

test('validateProviderStream and providerEvents: bad options are OptionErrors', async () => {
  for (const options of [undefined, {}, { provider: 'openai' }, { provider: 'anthropic', tool: 1 }, { provider: 'anthropic', tools: 'x' }]) {
    await assert.rejects(validateProviderStream(contract, [], options), (e) => e instanceof OptionError && e.kind === 'invalid_option', JSON.stringify(options));
  }
  await assert.rejects(validateProviderStream(contract, []), (e) => e.option === 'provider' && /"openai-chat", "openai-responses" or "anthropic"/.test(e.message));
  await assert.rejects(providerEvents([], {}).next(), (e) => e instanceof OptionError && e.option === 'provider');
});

test('a call after free() throws a FreedError (kind "freed")', () => {
  const freed = Contract.compile({ type: 'integer' });
  const stream = freed.stream();
  freed.free();
  for (const call of [() => freed.validate(1), () => freed.validateText('1'), () => freed.schema, () => freed.stream()]) {
    assert.throws(call, (e) => e instanceof FreedError && e.kind === 'freed' && e.name === 'FreedError' && /Contract was freed/.test(e.message));
  }
  // A stream outlives its contract; once freed itself, it throws the same.
  assert.equal(stream.push('1').state, 'in-flight');
  stream.free();
  assert.throws(() => stream.push('2'), (e) => e instanceof FreedError && /OutputStream was freed/.test(e.message));
  freed.free();
});

test('FormatFunctionError is a class: instanceof works', () => {
  const cause = new Error('nope');
  const even = Contract.compile({ format: 'even' }, { formats: { even: () => { throw cause; } } });
  assert.throws(() => even.validate('x'), (e) => e instanceof FormatFunctionError && e instanceof Error && e.name === 'FormatFunctionError' && e.format === 'even' && e.cause === cause);
});

test('validate: a string with a lone surrogate is a TypeError naming its path, as other non-JSON values', () => {
  const any = Contract.compile({});
  for (const [value, message] of [
    ['\ud800', '$: a string with a lone surrogate (U+D800) is not a JSON value'],
    [{ a: ['ok', 'x\udc00y'] }, "$.a[1]: a string with a lone surrogate (U+DC00) is not a JSON value"],
    [{ a: { '\udbff': 1 } }, '$.a: a key with a lone surrogate (U+DBFF) is not a JSON value'],
    [[NaN], '$[0]: NaN is not a JSON value'],
  ]) {
    assert.throws(() => any.validate(value), (e) => e instanceof TypeError && e.message === message, message);
    assert.throws(() => contract.validate(value), TypeError);
  }
  // A pair is one character; a string that spells an escape is text.
  assert.equal(any.validate('😀 \\ud800').valid, true);
  // Standard Schema answers it with an issue, as any value JSON cannot carry.
  assert.deepEqual(any['~standard'].validate('\ud800'), { issues: [{ message: '$: a string with a lone surrogate (U+D800) is not a JSON value', path: [] }] });
});

test("checkSchema: resources resolve references among a set's schemas (the dashboard's ticket example)", () => {
  const dir = new URL('../../examples/schemas/', import.meta.url);
  const texts = readdirSync(dir).map((f) => readFileSync(new URL(f, dir), 'utf8'));
  const resources = Object.fromEntries(texts.map((t) => [JSON.parse(t).$id, JSON.parse(t)]));
  const ticket = readFileSync(new URL('ticket.v1.1.0.schema.json', dir), 'utf8');
  assert.ok(checkSchema(ticket).diagnostics.some((d) => d.code === 'unresolvable_ref'));
  const report = checkSchema(ticket, { resources });
  assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error'), []);
  assert.equal(report.valid, true);
  assert.throws(() => checkSchema(ticket, { resources: [] }), OptionError);
});
