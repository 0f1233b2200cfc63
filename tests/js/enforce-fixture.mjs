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
// names only that one). Then long answers with few mistakes, retried in full and by patch
// (runLong).
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

// Long answers with few mistakes, retried in full or by patch (`retry: 'patch'`): reviews of
// 4-40 KB (20-190 comments) with 1-5 wrong values each. The scripted model fixes what the retry
// prompt names, in the form it is asked: the whole answer again, or a JSON Patch with one
// operation per named pointer (an `add` for a named missing property).
const longAnswer = (i, n) => ({
  summary: `Review ${i}: ${n} comments on the change.`,
  approval: 'request_changes',
  comments: Array.from({ length: n }, (_, k) => ({
    file: `src/module_${i}/file_${k}.rs`,
    line: 10 + k,
    severity: ['nitpick', 'suggestion', 'concern', 'blocker'][k % 4],
    message: `Comment ${k}: this branch does not handle the empty input; return early and add a test for it.`,
  })),
});

// Mistake m of a long answer (a fixed place each, far apart): a wrong value the schema rejects.
const mistakes = [
  (a) => ((a.approval = 'lgtm'), '/approval'),
  (a) => ((a.comments[1].line = '12'), '/comments/1/line'),
  (a) => ((a.comments[5].severity = 'minor'), '/comments/5/severity'),
  (a) => (delete a.comments[9].message, '/comments/9'),
  (a) => ((a.comments.at(-1).line = 3.5), `/comments/${a.comments.length - 1}/line`),
];

const at = (value, pointer) => pointer.split('/').slice(1).reduce((v, t) => v?.[t.replace(/~1/g, '/').replace(/~0/g, '~')], value);

// The patch a model writes for a patch retry prompt: one operation per `- "pointer": message` line.
function patchFor(prompt, good) {
  const ops = [];
  for (const [, pointer, message] of prompt.matchAll(/^- ("(?:[^"\\]|\\.)*"): (.*)$/gm)) {
    // A line about the model's own patch names no value to fix: the lines after it do.
    if (message.startsWith('patch operation')) continue;
    const path = JSON.parse(pointer);
    const missing = /^'(.+)' is a required property$/.exec(message);
    if (missing) ops.push({ op: 'add', path: `${path}/${missing[1]}`, value: at(good, `${path}/${missing[1]}`) });
    else ops.push({ op: 'replace', path, value: at(good, path) });
  }
  return JSON.stringify(ops);
}

// `wrong`: 'path' sends a patch with a bad path first, 'breaks' one whose fix breaks another rule.
function longModel(good, first, wrong) {
  let retries = 0;
  return async (messages) => {
    const last = messages.at(-1).content;
    if (!last.startsWith('<output-validation-error>')) return first;
    retries += 1;
    if (!last.includes('JSON Patch')) return json(good);
    const patch = JSON.parse(patchFor(last, good));
    if (wrong === 'path' && retries === 1) return JSON.stringify([...patch, { op: 'replace', path: '/comments/9999/line', value: 1 }]);
    if (wrong === 'breaks' && retries === 1) return JSON.stringify([...patch, { op: 'replace', path: '/comments/2/severity', value: 'critical' }]);
    return JSON.stringify(patch);
  };
}

export async function runLong({ quiet = false } = {}) {
  await ready;
  const contract = Contract.compile(schema);
  const summary = {};
  for (const retry of ['full', 'patch']) {
    const rows = [];
    let i = 0;
    for (const n of [20, 50, 100, 190]) {
      for (let count = 1; count <= 5; count++) {
        const good = longAnswer(i++, n);
        const bad = structuredClone(good);
        for (const m of mistakes.slice(0, count)) m(bad);
        const first = json(bad);
        const events = [];
        const result = await enforce(contract, longModel(good, first, null), { systemPrompt: blueprint.system_prompt, task: 'review', retry, onAttempt: (e) => events.push(e) });
        const fixed = result.status === 'completed' && result.attempts === 2 && JSON.stringify(result.result_data) === JSON.stringify(good);
        rows.push({ kb: first.length / 1024, violations: count, fixed, share: (events[1]?.bytes ?? 0) / first.length });
      }
    }
    const fixed = rows.filter((r) => r.fixed).length / rows.length;
    const small = rows.filter((r) => r.kb >= 4 && r.violations <= 3);
    const share = Math.max(...small.map((r) => r.share));
    const mean = rows.reduce((s, r) => s + r.share, 0) / rows.length;
    summary[retry] = { tasks: rows.length, fixed, maxShareFewViolations: share, meanShare: mean, rows };
    if (!quiet) {
      console.log(`\nretry: '${retry}' on ${rows.length} answers of ${Math.min(...rows.map((r) => r.kb)).toFixed(1)}-${Math.max(...rows.map((r) => r.kb)).toFixed(1)} KB with 1-5 violations:`);
      console.log(`  success after one retry ${(fixed * 100).toFixed(1)}%; retry output / first answer: mean ${(mean * 100).toFixed(1)}%, at most ${(share * 100).toFixed(1)}% for answers >= 4 KB with <= 3 violations`);
    }
  }
  // Wrong patches: a bad path (the patch violation, then a patch to the same answer), and a fix
  // that breaks another rule (a post-merge violation, patched in turn).
  const good = longAnswer(99, 50);
  const bad = structuredClone(good);
  mistakes[1](bad);
  for (const wrong of ['path', 'breaks']) {
    const events = [];
    const result = await enforce(contract, longModel(good, json(bad), wrong), { task: 'review', retry: 'patch', maxRetries: 2, onAttempt: (e) => events.push(e) });
    summary[wrong] = { status: result.status, attempts: result.attempts, events: events.map((e) => `${e.mode}:${e.outcome}${e.keywords.length ? `[${e.keywords.join(',')}]` : ''}`) };
    if (!quiet) console.log(`wrong patch (${wrong === 'path' ? 'bad path' : 'a fix that breaks another rule'}): ${result.status} after ${result.attempts} attempts: ${summary[wrong].events.join(' -> ')}`);
  }
  return summary;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  await run({ streamed: true });
  await run({ streamed: true, abortOnEarlyViolation: true });
  await runLong();
}
