// Streaming benchmark (issue: stream validation): a ~100 KB pr-reviewer output in 20-byte
// chunks with the status read after every chunk, against one-shot validation of the same text
// and against what SDKs do today — re-parse the whole buffer on every chunk (the AI SDK's
// parsePartialJson, partial-json) — plus @streamparser/json as an incremental parse-only anchor.
// All measured in this run, on this machine, in CPU time of this process (see bench/timing.mjs);
// printed as ratios. Not a test.
import { readFileSync } from 'node:fs';
import { parsePartialJson } from 'ai';
import { parse as partialJsonParse } from 'partial-json';
import { JSONParser } from '@streamparser/json';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Contract } from 'output-contract';
import { cpuNow } from './timing.mjs';

const blueprint = JSON.parse(readFileSync(new URL('../examples/pr-reviewer/blueprint.json', import.meta.url), 'utf8'));
const contract = Contract.compile(blueprint.output_schema);

// The same deterministic document as tests/stream.rs's large_valid().
const severities = ['nitpick', 'suggestion', 'concern', 'blocker'];
const comments = Array.from({ length: 600 }, (_, i) => ({
  file: `src/module_${i}/file é😀.rs`,
  line: i * 7 + 1,
  severity: severities[i % 4],
  message: `Comment number ${i}: "quoted" text with escapes \\ and \n newlines.`,
}));
const text = JSON.stringify({ summary: 'Large review', approval: 'comment', comments, metrics: { files_reviewed: 600, lines_changed: 12000, complexity_score: 7.25 } }, null, 2);
const CHUNK = 20;
const chunks = [];
for (let i = 0; i < text.length; i += CHUNK) chunks.push(text.slice(i, i + CHUNK));

async function time(fn, { runs, minMs = 300 }) {
  await fn(); // warm-up
  const samples = [];
  const start = performance.now();
  while (samples.length < runs || (performance.now() - start < minMs && samples.length < 1000)) {
    const t = cpuNow();
    await fn();
    samples.push(cpuNow() - t);
    if (samples.length >= runs && performance.now() - start > minMs) break;
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const results = [];
const add = (name, ms) => results.push({ name, ms });

// One-shot validation and the stream are timed in alternation, and the goal's ratio is the
// median of each round's: timed one block after the other, the two met different machine
// conditions on a VM whose speed drifts by a fifth or more within a minute. (The ratio itself
// still moves with the machine: 8.0–8.5× in quiet runs here, 10–11× in slowed ones.)
const ROUNDS = 60;
async function paired(oneShot, stream, batch = 8) {
  await oneShot();
  await stream();
  const a = [];
  const b = [];
  const ratios = [];
  for (let r = 0; r < ROUNDS; r++) {
    const batchTimes = [];
    for (let i = 0; i < batch; i++) {
      const t = cpuNow();
      await oneShot();
      batchTimes.push(cpuNow() - t);
    }
    batchTimes.sort((x, y) => x - y);
    const t = cpuNow();
    await stream();
    const s = cpuNow() - t;
    const o = batchTimes[batch >> 1];
    a.push(o);
    b.push(s);
    ratios.push(s / o);
  }
  const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
  return { oneShot: median(a), stream: median(b), ratio: median(ratios) };
}

add('JSON.parse (one shot)', await time(() => JSON.parse(text), { runs: 50 }));
const pair = await paired(
  () => contract.validateText(text),
  () => {
    const s = contract.stream();
    for (const c of chunks) s.push(c);
    const out = s.finish();
    if (!out.valid) throw new Error('expected valid');
    s.free();
  },
);
add('output-contract validateText (one shot)', pair.oneShot);
add('output-contract stream, status after every chunk', pair.stream);
add('@streamparser/json (incremental, parse only)', await time(() => {
  const p = new JSONParser();
  p.onValue = () => {};
  for (const c of chunks) p.write(c);
}, { runs: 5 }));
add('partial-json: parse(buffer) after every chunk', await time(() => {
  let buf = '';
  for (const c of chunks) partialJsonParse((buf += c));
}, { runs: 1, minMs: 0 }));
add('ai parsePartialJson(buffer) after every chunk', await time(async () => {
  let buf = '';
  for (const c of chunks) await parsePartialJson((buf += c));
}, { runs: 1, minMs: 0 }));

// The end of a stream, what a streaming agent waits for once the model stops: the last push and
// finish() (the scan ran while the bytes arrived) against JSON.parse + Ajv of the whole text,
// which is what validating after the stream costs. Streams are fed all but their last chunk
// outside the timing, a batch at a time.
const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;
const ajv = new Ajv({ strict: false });
addFormats(ajv);
const ajvValidate = ajv.compile(blueprint.output_schema);
const last = chunks.at(-1);
const END_BATCH = 16;
const endRatios = [];
const endTimes = [];
const afterTimes = [];
for (let r = 0; r < 40; r++) {
  const streams = Array.from({ length: END_BATCH }, () => {
    const s = contract.stream();
    for (let i = 0; i < chunks.length - 1; i++) s.push(chunks[i]);
    return s;
  });
  let t = performance.now();
  for (const s of streams) {
    s.push(last);
    if (!s.finish().valid) throw new Error('expected valid');
  }
  const end = (performance.now() - t) / END_BATCH;
  for (const s of streams) s.free();
  t = performance.now();
  for (let i = 0; i < END_BATCH; i++) if (!ajvValidate(JSON.parse(text))) throw new Error('expected valid');
  const after = (performance.now() - t) / END_BATCH;
  if (r < 5) continue; // warm-up rounds
  endTimes.push(end);
  afterTimes.push(after);
  endRatios.push(after / end);
}
const med = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
add('output-contract stream: last push + finish()', med(endTimes));
add('JSON.parse + Ajv of the whole text, after the stream', med(afterTimes));

const base = results.find((r) => r.name.startsWith('output-contract stream')).ms;
const oneShot = results.find((r) => r.name.startsWith('output-contract validateText')).ms;
const parse = results[0].ms;
console.log(`${Buffer.byteLength(text)} bytes in ${chunks.length} chunks of ${CHUNK} characters; node ${process.version}\n`);
console.log('| run | median ms | × JSON.parse | × one-shot validateText | × our stream |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const r of results) {
  console.log(`| ${r.name} | ${r.ms.toFixed(2)} | ${(r.ms / parse).toFixed(1)} | ${(r.ms / oneShot).toFixed(2)} | ${(r.ms / base).toFixed(2)} |`);
}
console.log(`\nstream vs one-shot validateText: ${pair.ratio.toFixed(1)}× (goal ≤ 10×; the median of ${ROUNDS} rounds that time each in turn)`);
console.log(`parsePartialJson loop vs stream: ${(results.find((r) => r.name.startsWith('ai parsePartialJson')).ms / base).toFixed(0)}× slower (goal ≥ 500×)`);
console.log(`end of stream vs JSON.parse + Ajv: ${med(endRatios).toFixed(2)}× as fast (goal ≥ 1.5×; last push + finish() against JSON.parse + Ajv of the whole text, the median of ${endRatios.length} rounds of ${END_BATCH})`);
