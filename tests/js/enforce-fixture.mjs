// The structured-output success metric, reproduced with scripted models: the share of tasks
// whose output reaches the executor valid, for a naive executor (JSON.parse the answer,
// validate, no retry) and with enforce() (extraction, validation, one retry with the retry
// prompt). Naive executors see about 50% valid; enforcement targets 95% or more.
//
// Each scripted model has one habit of real models (prose around the JSON, fences, trailing
// commas, wrong types…), one makes five mistakes at once. On a retry a model fixes its answer
// only if the retry prompt names its mistakes, as a model reading it would.
// Each task runs with the answers as text and streamed; streamed, once with enforce()'s default
// (the answer read to its end, so the retry prompt names every violation) and once with
// `abortOnEarlyViolation: true` (cut at the first early violation: fewer tokens, but the prompt
// names only that one).
//   node tests/js/enforce-fixture.mjs
import { readFileSync } from 'node:fs';
import { Contract, ready, enforce } from 'output-contract';

// The pr-reviewer blueprint of the examples: its output schema and system prompt.
const blueprint = JSON.parse(readFileSync(new URL('../../examples/pr-reviewer/blueprint.json', import.meta.url), 'utf8'));
const schema = blueprint.output_schema;

const answer = (i) => ({
  summary: `Review ${i}: the change is sound.`,
  approval: 'approve',
  comments: [{ file: `src/m${i}.rs`, line: i + 1, severity: 'nitpick', message: 'Name the constant.' }],
});
const json = (v) => JSON.stringify(v, null, 2);

// [name, first answer, what the retry prompt must say for the model to fix it]
const habits = [
  ['json fenced', (i) => '```json\n' + json(answer(i)) + '\n```', null],
  ['prose around', (i) => `Here is my review:\n${json(answer(i))}\nLet me know if you need more.`, null],
  ['tilde fence and prose', (i) => `Done.\n~~~\n${json(answer(i))}\n~~~`, null],
  ['missing field', (i) => json({ summary: answer(i).summary, comments: [] }), "'approval' is a required property"],
  ['wrong enum', (i) => json({ ...answer(i), approval: 'lgtm' }), '$.approval'],
  ['trailing comma', (i) => json(answer(i)).replace(/\n}$/, ',\n}'), 'invalid JSON'],
  ['cut off', (i) => json(answer(i)).slice(0, 40), 'output ends before'],
  ['raw newline in string', (i) => json(answer(i)).replace('the change', 'the\nchange'), 'invalid JSON'],
  ['wrong type', (i) => json({ ...answer(i), comments: [{ ...answer(i).comments[0], line: '12' }] }), '$.comments[0].line'],
  ['never learns', (i) => json({ summary: 'Fine.', approval: 'lgtm', comments: [] }), 'no hint fixes this model'],
];

// Five mistakes at once: fixed only when the retry prompt names all five.
const comment = (i, line, severity) => ({ file: `src/m${i}.rs`, line, severity, message: 'Name the constant.' });
const fiveMistakes = [
  'five mistakes',
  (i) => json({ ...answer(i), approval: 'lgtm', comments: [comment(i, '12', 'minor'), comment(i, '7', 'major')] }),
  ['$.approval', '$.comments[0].line', '$.comments[0].severity', '$.comments[1].line', '$.comments[1].severity'],
];

function model(i, habit) {
  const [, first, hint] = habit;
  return async (messages) => {
    const last = messages.at(-1);
    const retried = last.role === 'user' && last.content.startsWith('<output-validation-error>');
    const named = hint === null ? false : [hint].flat().every((h) => last.content.includes(h));
    if (retried && named) return json(answer(i));
    return first(i);
  };
}

// 40 tasks: half answered cleanly, half with one habit each (the last never fixes its output).
function tasks() {
  const out = [];
  for (let i = 0; i < 20; i++) out.push({ name: 'clean', model: async () => json(answer(i)) });
  for (let i = 0; i < 20; i++) {
    const habit = i === 9 ? habits[9] : habits[i % 9];
    out.push({ name: habit[0], model: model(i, habit) });
  }
  out.push({ name: fiveMistakes[0], model: model(20, fiveMistakes) });
  return out;
}

async function* chunks(text, size = 16) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** The same scripted model, answering as a stream. */
const streaming = (m) => async (messages) => ({ stream: chunks(await m(messages)), end: () => ({ stopReason: 'stop' }) });

export async function run({ quiet = false, streamed = false, abortOnEarlyViolation } = {}) {
  await ready;
  const contract = Contract.compile(schema);
  let naive = 0;
  let enforced = 0;
  const rows = [];
  for (const t of tasks()) {
    const text = await t.model([{ role: 'user', content: 'review' }]);
    let ok = false;
    try {
      ok = contract.validate(JSON.parse(text)).valid;
    } catch {
      ok = false;
    }
    const options = { systemPrompt: blueprint.system_prompt, task: 'review' };
    if (abortOnEarlyViolation !== undefined) options.abortOnEarlyViolation = abortOnEarlyViolation;
    const result = await enforce(contract, streamed ? streaming(t.model) : t.model, options);
    naive += ok ? 1 : 0;
    enforced += result.status === 'completed' ? 1 : 0;
    rows.push([t.name, ok, result.status, result.attempts]);
  }
  const n = rows.length;
  const summary = { tasks: n, without: naive / n, withEnforce: enforced / n, rows };
  if (!quiet) {
    for (const [name, ok, status, attempts] of rows) console.log(`${name.padEnd(24)} naive: ${ok ? 'valid  ' : 'invalid'}  enforce: ${status} (${attempts} attempt${attempts > 1 ? 's' : ''})`);
    const how = streamed ? `streamed${abortOnEarlyViolation ? ', abortOnEarlyViolation' : ''}` : 'as text';
    console.log(`\nsuccess rate over ${n} tasks (${how}): without enforcement ${(summary.without * 100).toFixed(1)}%, with enforce() ${(summary.withEnforce * 100).toFixed(1)}% (target: about 50% -> 95% or more)`);
  }
  return summary;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  await run({ streamed: true });
  await run({ streamed: true, abortOnEarlyViolation: true });
}
