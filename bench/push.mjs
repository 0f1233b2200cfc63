// The fixed cost of a stream push (issue: stream validation, "cheap pushes"): 1- and 5-character
// chunks inside one long string value of a simple schema, so that the parser has almost nothing
// to do and what is left is what every push pays whatever it carries (held by the package, and
// read by the module one by one). Printed in ns and against
// references measured in the same run, in turns (bench/timing.mjs): one `TextEncoder.encodeInto`
// of the same chunk, and one `JSON.parse` of a 5-byte text. Then the parts of a 5-byte push (the
// module's entry as the package calls it, as a bare export, and for an empty chunk) and what one
// 5-character delta costs by each way it can arrive: `push`, `consume` of an array and of an
// async generator, `transform()`, and a provider stream's server-sent events. The package's
// sources (pkg/src/), which share the module with its glue here. Not a test.
//   node bench/push.mjs [--quick]
import { interleaved, cpuNow, median } from './timing.mjs';
import { Contract, validateProviderStream } from '../pkg/src/node.js';
import * as glue from '../pkg/wasm/output_contract.js';

const quick = process.argv.includes('--quick');
const schema = { type: 'object', properties: { text: { type: 'string' } } };
const contract = Contract.compile(schema);
const OPEN = '{"text": "';
// A stream is fed this many chunks, then freed and replaced (its opening and free are in the
// batch, a few ns a push).
const PER_STREAM = 4000;
const encoder = new TextEncoder();
const target = new Uint8Array(64);
const ns = (x) => `${x.toFixed(1)} ns`;

// Warm-up: the module's functions start in V8's baseline compiler and are optimised as they run.
{
  const t = cpuNow();
  while (cpuNow() - t < 200) {
    const s = contract.stream();
    s.push(OPEN);
    for (let i = 0; i < PER_STREAM; i++) s.push('abcde');
    s.free();
  }
}

// Such chunks only add to a string's plain text, which the package holds and hands to the module
// a few hundred characters at a time (OutputStream#send); the `read` rows are pushes the module
// reads one by one: their stream began with its opening as bytes, after which nothing is held.
const rows = [];
for (const [size, read] of [[1, false], [5, false], [5, true]]) {
  const chunk = 'abcdefgh'.slice(0, size);
  let s = null;
  let n = 0;
  const push = () => {
    if (s === null || n === PER_STREAM) {
      s?.free();
      s = contract.stream();
      s.push(read ? encoder.encode(OPEN) : OPEN);
      n = 0;
    }
    n++;
    s.push(chunk);
  };
  const run = interleaved([push, () => encoder.encodeInto(chunk, target), () => JSON.parse('"abc"')], quick);
  s.free();
  const [p, e, j] = run.rates.map((r) => 1e9 / r);
  rows.push({ size, read, push: p, encode: e, parse: j, perEncode: run.ratio((r) => r[1] / r[0]), perParse: run.ratio((r) => r[2] / r[0]) });
}

// The parts: the module's entry as the package calls it (the glue's method, guarded) and as a
// bare export, the same 5 bytes each time; the bare export of nothing; a bare getter (the call
// alone). What a push costs beyond the glue's call is the package's JavaScript.
const exports = glue.initSync();
const handleOf = () => {
  const h = glue.compileContract(encoder.encode(JSON.stringify(schema)), '').stream('', '');
  const area = new Uint8Array(glue.wasmMemory().buffer, glue.chunkArea(), 16);
  area.set(encoder.encode(OPEN));
  h.pushChunk(OPEN.length, false);
  area.set(encoder.encode('abcde'));
  return h;
};
let h = handleOf();
let m = 0;
const fresh = () => {
  if (++m === PER_STREAM) {
    h.free();
    h = handleOf();
    m = 0;
  }
};
const parts = interleaved([
  () => {
    fresh();
    h.pushChunk(5, false);
  },
  () => {
    fresh();
    exports.wasmstream_pushChunk(h.__wbg_ptr, 5, 0);
  },
  () => {
    fresh();
    exports.wasmstream_pushChunk(h.__wbg_ptr, 0, 0);
  },
  () => exports.wasmstream_attempt(h.__wbg_ptr),
], quick);
h.free();
const [glued, bare, empty, getter] = parts.rates.map((r) => 1e9 / r);

// By way of arrival: 2,000 deltas of 5 characters (a 10 KB string value), whole streams timed in
// CPU time and divided by the deltas. The provider stream gets OpenAI Chat Completions events, one
// delta each, all in one network chunk: they cross into the module once, and the module pushes
// each event's text into the stream.
const DELTAS = 2000;
const deltas = [OPEN.slice(0, 5), OPEN.slice(5), ...Array.from({ length: DELTAS }, (_, i) => `ab${String(i % 1000).padStart(3, '0')}`), '"}'];
const event = (delta) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
const body = encoder.encode(
  event({ role: 'assistant', content: '' }) +
    deltas.map((d) => event({ content: d })).join('') +
    `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
);
const valid = (outcome) => {
  if (!outcome.valid) throw new Error('expected valid');
};
const ways = {
  'push each': async () => {
    const s = contract.stream();
    for (const d of deltas) s.push(d);
    valid(s.finish());
    s.free();
  },
  'consume(array)': async () => {
    const s = contract.stream();
    valid(await s.consume(deltas));
    s.free();
  },
  'consume(async generator)': async () => {
    const s = contract.stream();
    valid(
      await s.consume(
        (async function* () {
          yield* deltas;
        })(),
      ),
    );
    s.free();
  },
  'transform() (a ReadableStream piped through)': async () => {
    const s = contract.stream();
    let i = 0;
    const source = new ReadableStream({
      pull(controller) {
        if (i === deltas.length) controller.close();
        else controller.enqueue(deltas[i++]);
      },
    });
    const reader = source.pipeThrough(s.transform()).getReader();
    while (!(await reader.read()).done);
    valid(s.finish());
    s.free();
  },
  'provider stream (SSE events, one network chunk)': async () => {
    valid(
      await validateProviderStream(
        contract,
        (async function* () {
          yield body;
        })(),
        { provider: 'openai-chat' },
      ),
    );
  },
};
const perDelta = {};
for (const [name, run] of Object.entries(ways)) perDelta[name] = [];
for (const run of Object.values(ways)) await run();
for (let round = 0; round < (quick ? 15 : 40); round++) {
  for (const [name, run] of Object.entries(ways)) {
    const t = cpuNow();
    await run();
    perDelta[name].push(((cpuNow() - t) * 1e6) / deltas.length);
  }
}

console.log(`node ${process.version}; ns per call (medians of rounds taken in turns)\n`);
console.log('| push of | ns | encodeInto of it | push ÷ encodeInto | JSON.parse of 5 bytes | push ÷ JSON.parse |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(`| ${r.size} char${r.size > 1 ? 's' : ''}${r.read ? ', read by the module' : ''} | ${ns(r.push)} | ${ns(r.encode)} | ${r.perEncode.toFixed(2)}× | ${ns(r.parse)} | ${r.perParse.toFixed(2)}× |`);
}
const five = rows.find((r) => r.read).push;
console.log(`\nparts of a 5-byte push the module reads: the module's entry through the glue ${ns(glued)} (a bare export: ${ns(bare)}; of 0 bytes ${ns(empty)}; a bare getter ${ns(getter)}), the package's JavaScript around it ${ns(five - glued)}`);
console.log(`\n| a 5-character delta by way of | ns a delta |\n| --- | ---: |`);
for (const [name, xs] of Object.entries(perDelta)) console.log(`| ${name} | ${ns(median(xs))} |`);
