// Messages a model can act on, through the npm package: a disjunction of values reported as one
// violation listing them, a pattern as the schema writes it, sizes named by their count (the
// stream's early violation the same as the final one), broken JSON in a fence reported where it
// breaks, and a provider answer that calls the wrong tool told which one to call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract, enforce, toolFeedback, validateProviderStream } from 'output-contract';

const only = (result) => {
  assert.equal(result.valid, false);
  assert.equal(result.error.violations.length, 1, JSON.stringify(result.error.violations));
  return result.error.violations[0];
};

test('a disjunction of consts, enums and types is one violation listing every accepted value', () => {
  const v = only(Contract.compile({ anyOf: [{ const: 1 }, { const: 2 }, { type: 'null' }] }).validate(3));
  assert.deepEqual(v, {
    path: '$', keyword: 'anyOf', expected: { enum: [1, 2], type: ['null'] }, received: 3,
    message: "3 is not one of [1, 2] and not of type 'null'", pointer: '', schema_path: '/anyOf',
  });
  assert.equal(only(Contract.compile({ anyOf: [{ const: 1 }, { const: 2 }, { const: null }] }).validate(3)).message, '3 is not one of [1, 2, null]');
  assert.equal(only(Contract.compile({ enum: [1, 2, null] }).validate(3)).message, '3 is not one of [1, 2, null]');
  // The MCP elicitation's titled enum: the received value and both accepted ones.
  const sizes = Contract.compile({ type: 'string', oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] });
  const m = only(sizes.validate('m'));
  assert.deepEqual([m.keyword, m.expected, m.message, m.schema_path], ['oneOf', ['s', 'l'], "'m' is not one of ['s', 'l']", '/oneOf']);
});

test('a pattern is quoted as the schema writes it', () => {
  const v = only(Contract.compile({ pattern: '^\\d+\\.\\d+$' }).validate('v1'));
  assert.equal(v.message, "'v1' does not match /^\\d+\\.\\d+$/");
  assert.equal(v.expected, '^\\d+\\.\\d+$');
});

test('size keywords name the count, and the early violation is the final one', () => {
  const steps = [{ id: 'step-0', kind: 'http' }, { a: 1 }, { b: 2 }];
  assert.equal(only(Contract.compile({ maxItems: 2 }).validate(steps)).message, 'an array of 3 items has more than 2');
  assert.equal(only(Contract.compile({ maxLength: 3 }).validate('abcdef')).message, 'a string of 6 characters is longer than 3');
  assert.equal(only(Contract.compile({ maxProperties: 1 }).validate({ a: 1, b: 2 })).message, 'an object with 2 properties has more than 1');
  const contract = Contract.compile({
    type: 'object',
    properties: { steps: { maxItems: 2 }, size: { oneOf: [{ const: 's' }, { const: 'l' }] }, v: { anyOf: [{ const: 1 }, { type: 'null' }] } },
  });
  for (const [value, message] of [
    [{ steps }, 'an array of 3 items has more than 2'],
    [{ size: 'm' }, "'m' is not one of ['s', 'l']"],
    [{ v: 'x' }, "'x' is not one of [1] and not of type 'null'"],
  ]) {
    const text = JSON.stringify(value);
    const s = contract.stream({ maxRetries: 0 });
    let early = [];
    for (const ch of text) early = s.push(ch).earlyViolations;
    const end = s.finish({ stopReason: 'stop' });
    assert.equal(end.state, 'hard-complete');
    assert.deepEqual(early, end.error.violations, text);
    assert.equal(end.error.violations[0].message, message);
  }
});

test('broken JSON in a fence or after prose is a json violation at its line and column', () => {
  const contract = Contract.compile({ type: 'object', properties: { name: { type: 'string' } } });
  for (const [text, at] of [
    ["```json\n{'name':'x'}\n```", 'line 2, column 2'],
    ["Here it is: {'name':'x'}", 'line 1, column 14'],
  ]) {
    const v = only(contract.validateText(text, { extract: true }));
    assert.equal(v.keyword, 'json');
    assert.ok(v.message.startsWith(`invalid JSON at ${at}: `), v.message);
  }
});

// An Anthropic answer that only calls `name` (a forced tool choice).
const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const onlyACall = (name, args) => new Response([
  event('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name, input: {} } }),
  event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: args } }),
  event('message_delta', { delta: { stop_reason: 'tool_use' } }),
  event('message_stop', {}),
].join(''));

test('validateProviderStream: the tool defaults to submit_result, and another tool is a violation naming both', async () => {
  const contract = Contract.compile({ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] });
  const valid = await validateProviderStream(contract, onlyACall('submit_result', '{"a": 1}'), { provider: 'anthropic' });
  assert.deepEqual([valid.state, valid.data], ['soft-complete', { a: 1 }]);
  const invalid = await validateProviderStream(contract, onlyACall('submit_result', '{"a": "x"}'), { provider: 'anthropic' });
  assert.deepEqual(invalid.violations.map((v) => v.keyword), ['type']);
  for (const tool of [undefined, 'submit_result']) {
    const wrong = await validateProviderStream(contract, onlyACall('get_weather', '{"a": 1}'), { provider: 'anthropic', tool });
    assert.deepEqual([wrong.valid, wrong.retry], [false, true]);
    assert.deepEqual(wrong.violations.map((v) => [v.keyword, v.expected, v.received]), [['tool', 'submit_result', 'get_weather']]);
    const message = "the answer called the tool 'get_weather' instead of 'submit_result': call 'submit_result' with the output as its arguments";
    assert.equal(wrong.violations[0].message, message);
    assert.ok(wrong.prompt.includes(message), wrong.prompt);
    assert.ok(toolFeedback(wrong.violations).includes(`1. **$**: ${message}\n`));
  }
  const renamed = await validateProviderStream(contract, onlyACall('submit_result', '{"a": 1}'), { provider: 'anthropic', tool: 'answer' });
  assert.equal(renamed.violations[0].message, "the answer called the tool 'submit_result' instead of 'answer': call 'answer' with the output as its arguments");
});

test('enforce: a provider reply that calls another tool is retried with a prompt naming the submit tool', async () => {
  const contract = Contract.compile({ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] });
  for (const tool of [undefined, 'submit_result']) {
    const replies = [onlyACall('get_weather', '{"a": 1}'), onlyACall('submit_result', '{"a": 2}')];
    const seen = [];
    const result = await enforce(contract, (messages, { attempt }) => {
      seen.push(messages.at(-1).content);
      return { response: replies[attempt - 1], provider: 'anthropic', tool };
    }, { task: 't' });
    assert.deepEqual([result.status, result.result_data, result.attempts], ['completed', { a: 2 }, 2]);
    assert.ok(seen[1].includes("the answer called the tool 'get_weather' instead of 'submit_result': call 'submit_result'"), seen[1]);
  }
});
