// The side-by-side benchmark: output-contract (the npm package) against Ajv (with ajv-formats),
// ata-validator (compiled, its default in Node; and its interpreter, under
// --disallow-code-generation-from-strings in a child process: bench/edge.mjs) and
// @cfworker/json-schema on the corpus of bench/corpus.mjs, plus the streaming anchors
// (bench/stream.mjs), memory (bench/memory.mjs) and the native criterion benchmark of the Rust
// core against jsonschema (benches/native.rs). Everything is measured in this run, on this
// machine; the report is a markdown table printed to stdout and written to bench/results/latest.md.
//
//   node bench/compare.mjs            full run (about half an hour)
//   node bench/compare.mjs --quick    shorter timings, smaller memory phases, no native run
//   node bench/compare.mjs --no-native  full timings without the native run (criterion's build
//                                       and samples take longer than the rest together)
//
// Not a test: nothing here fails the test command. It does check that the libraries agree on
// every output's verdict before timing anything.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import AjvModule from 'ajv';
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Validator as AtaValidator } from 'ata-validator';
import { Validator } from '@cfworker/json-schema';
import { Contract, formatViolation } from 'output-contract';
import { corpus } from './corpus.mjs';
import { geomean, interleaved as timeInTurns, median } from './timing.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const quick = process.argv.includes('--quick');
const interleaved = (fns) => timeInTurns(fns, quick);
const Ajv = AjvModule.default ?? AjvModule;
const Ajv2019 = Ajv2019Module.default ?? Ajv2019Module;
const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const addFormats = addFormatsModule.default ?? addFormatsModule;

// ---------------------------------------------------------------------------------------------
// The libraries, each set up as its documentation recommends for the task.

function ajvFor(draft, allErrors) {
  const A = draft === '2020-12' ? Ajv2020 : draft === '2019-09' ? Ajv2019 : Ajv;
  const ajv = new A({ allErrors, strict: false });
  addFormats(ajv);
  return ajv;
}

const LIBS = ['ours', 'ajv', 'ata', 'cfworker'];

/** Per schema: the validators, each `(text|value) → verdict` with messages when invalid. */
function setup(entry) {
  const contract = Contract.compile(entry.schema);
  const ajvFast = ajvFor(entry.draft, false).compile(entry.schema);
  const ajvAll = ajvFor(entry.draft, true);
  const ajvAllValidate = ajvAll.compile(entry.schema);
  const ata = new AtaValidator(entry.schema);
  const cfFast = new Validator(entry.schema, entry.draft, true);
  const cfAll = new Validator(entry.schema, entry.draft, false);
  return {
    ours: {
      text: (text) => contract.validateText(text).valid,
      value: (value) => contract.validate(value).valid,
      // The canonical error, every violation with its message, rendered as one-line texts.
      invalid: (text) => {
        const r = contract.validateText(text);
        return r.valid ? [] : r.error.violations.map(formatViolation);
      },
      invalidValue: (value) => {
        const r = contract.validate(value);
        return r.valid ? [] : r.error.violations.map(formatViolation);
      },
    },
    ajv: {
      text: (text) => ajvFast(JSON.parse(text)),
      value: (value) => ajvFast(value),
      invalid: (text) => (ajvAllValidate(JSON.parse(text)) ? [] : ajvAllValidate.errors.map((e) => `${e.instancePath || '/'}: ${e.message}`)),
      invalidValue: (value) => (ajvAllValidate(value) ? [] : ajvAllValidate.errors.map((e) => `${e.instancePath || '/'}: ${e.message}`)),
    },
    // Its fastest verdict on a parsed object; `validate` (every error) for the invalid ones.
    ata: {
      text: (text) => ata.isValidObject(JSON.parse(text)),
      value: (value) => ata.isValidObject(value),
      invalid: (text) => {
        const r = ata.validate(JSON.parse(text));
        return r.valid ? [] : r.errors.map((e) => `${e.instancePath || '/'}: ${e.message}`);
      },
      invalidValue: (value) => {
        const r = ata.validate(value);
        return r.valid ? [] : r.errors.map((e) => `${e.instancePath || '/'}: ${e.message}`);
      },
    },
    cfworker: {
      text: (text) => cfFast.validate(JSON.parse(text)).valid,
      value: (value) => cfFast.validate(value).valid,
      invalid: (text) => {
        const r = cfAll.validate(JSON.parse(text));
        return r.valid ? [] : r.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
      },
      invalidValue: (value) => {
        const r = cfAll.validate(value);
        return r.valid ? [] : r.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
      },
    },
  };
}

const fmtOps = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : x >= 1e4 ? `${(x / 1e3).toFixed(0)}k` : x >= 1e3 ? `${(x / 1e3).toFixed(1)}k` : x.toFixed(0));
const fmtRatio = (x) => `${x >= 10 ? x.toFixed(0) : x.toFixed(2)}×`;
const kb = (n) => `${(n / 1024).toFixed(n < 10240 ? 1 : 0)} KB`;
/** The group of an output in the summaries: its size and layout. */
const groupOf = (o) => `~${kb(o.target)} ${o.layout}`;

const out = [];
const say = (line = '') => {
  out.push(line);
  console.log(line);
};

// ---------------------------------------------------------------------------------------------

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
say('# output-contract benchmark');
say();
say(`${new Date().toISOString().slice(0, 10)} · ${cpu} · ${os.cpus().length} cores · ${os.platform()} ${os.release()} · Node ${process.version}${quick ? ' · --quick' : ''}`);
const versions = Object.fromEntries(
  ['ajv', 'ajv-formats', 'ata-validator', '@cfworker/json-schema', 'ai', 'partial-json', '@streamparser/json'].map((p) => [p, JSON.parse(readFileSync(`${root}node_modules/${p}/package.json`, 'utf8')).version]),
);
const wasm = readFileSync(`${root}pkg/wasm/output_contract_bg.wasm`);
const wasmGzip = gzipSync(wasm, { level: 9 }).length;
// The schema tools' module (checkSchema, compareSchemas, SchemaRegistry) is loaded only when one
// of them is first called; validation never loads it.
const toolsGzip = gzipSync(readFileSync(`${root}pkg/wasm/output_contract_tools_bg.wasm`), { level: 9 }).length;
say(`output-contract ${JSON.parse(readFileSync(`${root}pkg/package.json`, 'utf8')).version} (wasm ${wasm.length.toLocaleString('en')} bytes, ${wasmGzip.toLocaleString('en')} gzip; the schema tools' module, loaded on their first call, ${toolsGzip.toLocaleString('en')} gzip), ${Object.entries(versions).map(([k, v]) => `${k} ${v}`).join(', ')}`);
say();
say('Ratios are output-contract\'s speed over the other library\'s (above 1: output-contract is faster). "ata" is ata-validator as it runs by default in Node (its compiled engine); "ata interpreter" is the same library under `--disallow-code-generation-from-strings`, the edge setting.');

const entries = corpus();
const validators = entries.map(setup);

// Every library must agree on every verdict before anything is timed. A peer's wrong verdict is
// reported, and that peer is left out of the schema's rows (its speed would mean nothing).
const wrongVerdicts = [];
for (const [i, e] of entries.entries()) {
  for (const o of e.outputs) {
    for (const [lib, v] of Object.entries(validators[i])) {
      if (v === null) continue;
      const what = `${o.layout} ${e.name} ${kb(o.target)} output`;
      const wrong =
        v.text(o.valid) !== true || v.value(JSON.parse(o.valid)) !== true
          ? `rejects the valid ${what}`
          : v.text(o.invalid) !== false || v.value(JSON.parse(o.invalid)) !== false
            ? `accepts the invalid ${what}`
            : v.invalid(o.invalid).length === 0 || v.invalidValue(JSON.parse(o.invalid)).length === 0
              ? `reports no violation for the invalid ${what}`
              : null;
      if (wrong === null) continue;
      if (lib === 'ours' || lib === 'ajv') throw new Error(`${lib} ${wrong}`);
      wrongVerdicts.push(`${lib} ${wrong}`);
      validators[i][lib] = null;
    }
  }
}

say();
say('## Corpus');
say();
say('Outputs of about 1, 10 and 100 KB, indented (pretty) and without whitespace (compact).');
say();
say('| schema | draft | pretty outputs (valid / invalid bytes) | compact outputs | violations in the invalid ones, pretty then compact (ours / Ajv allErrors / ata / cfworker) |');
say('| --- | --- | --- | --- | --- |');
for (const [i, e] of entries.entries()) {
  const sizes = (layout) => e.outputs.filter((o) => o.layout === layout).map((o) => `${o.valid.length} / ${o.invalid.length}`).join(', ');
  const counts = e.outputs.map((o) => LIBS.map((lib) => validators[i][lib]?.invalid(o.invalid).length ?? '—').join('/')).join(', ');
  say(`| ${e.name} | ${e.draft} | ${sizes('pretty')} | ${sizes('compact')} | ${counts} |`);
}
// Warm-up before any timing: V8 optimises the libraries' code (the module's functions among it)
// on background threads, whose CPU time would otherwise count against the first rows.
for (const started = performance.now(); performance.now() - started < (quick ? 1000 : 3000); ) {
  for (const [i, e] of entries.entries()) {
    for (const o of e.outputs.filter((x) => x.target < 50000)) {
      for (const v of Object.values(validators[i])) {
        v?.text(o.valid);
        v?.invalid(o.invalid);
      }
    }
  }
}
if (wrongVerdicts.length) {
  say();
  say(`Wrong verdicts, whose library is left out of that schema's rows (—): ${[...new Set(wrongVerdicts.map((w) => w.replace(/ (pretty|compact) (.*) [\d.]+ KB output/, ' $2 outputs')))].join('; ')}.`);
}

/**
 * One table: rows per schema and output, ops/s per library, ratios, geometric means per size and
 * layout. `op(validator, output)` gives the operation to time for one library on one output;
 * `extra(output)`, when given, one more operation timed in the same turns, whose rate `onRow`
 * receives with the others'. Returns per group the geometric means and minimums of the ratios,
 * and every row's.
 */
function table(title, note, op, { extra, onRow } = {}) {
  say();
  say(`## ${title}`);
  say();
  if (note) {
    say(note);
    say();
  }
  say('| schema | output | output-contract ops/s | Ajv ops/s | ata ops/s | cfworker ops/s | vs Ajv | vs ata | vs cfworker |');
  say('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const groups = new Map();
  const rows = [];
  for (const [i, e] of entries.entries()) {
    for (const o of e.outputs) {
      // A library left out (a wrong verdict) takes no turn: a no-op keeps the columns in place.
      const skipped = LIBS.map((lib) => validators[i][lib] === null);
      const fns = LIBS.map((lib, k) => (skipped[k] ? () => {} : op(validators[i][lib], o)));
      if (extra) fns.push(extra(o));
      const m = interleaved(fns);
      const ratio = (k) => (skipped[k] ? null : m.ratio((x) => x[0] / x[k]));
      const r = { name: e.name, o, ajv: ratio(1), ata: ratio(2), cf: ratio(3) };
      rows.push(r);
      if (onRow) onRow(e, o, m);
      const ops = m.rates.slice(0, LIBS.length).map((x, k) => (skipped[k] ? '—' : fmtOps(x)));
      const cell = (x) => (x === null ? '—' : fmtRatio(x));
      say(`| ${e.name} | ${o.layout} ${kb(o.valid.length)} | ${ops.join(' | ')} | ${cell(r.ajv)} | ${cell(r.ata)} | ${cell(r.cf)} |`);
      const g = groups.get(groupOf(o)) ?? [];
      g.push(r);
      groups.set(groupOf(o), g);
    }
  }
  const summary = { rows, groups: {} };
  for (const [group, rs] of groups) {
    const s = Object.fromEntries(['ajv', 'ata', 'cf'].map((k) => [k, geomean(rs.map((r) => r[k]).filter((x) => x !== null))]));
    s.ajvMin = Math.min(...rs.map((r) => r.ajv));
    summary.groups[group] = s;
    say(`| **geometric mean** | ${group} | | | | | **${fmtRatio(s.ajv)}** (min ${fmtRatio(s.ajvMin)}) | **${fmtRatio(s.ata)}** | **${fmtRatio(s.cf)}** |`);
  }
  return summary;
}

// The floor under any text-in validator that returns the parsed data is JSON.parse alone, timed
// in the same turns; what validateText takes beyond it is the module's own scan (the text's
// crossing into the module and the one-pass check), given in bytes per second.
const parseShare = {};
const scanRates = {};
const textIn = table(
  'Text in, valid outputs',
  '`contract.validateText(text)` (its result carries the parsed `data`) against `JSON.parse(text)` + the compiled validator (ata: `isValidObject`, its fastest verdict).',
  (v, o) => () => v.text(o.valid),
  {
    extra: (o) => () => JSON.parse(o.valid),
    onRow: (e, o, m) => {
      (parseShare[groupOf(o)] ??= []).push(m.ratio((x) => x[1] / x[4]));
      const scan = m.ratio((x) => o.valid.length / Math.max(1e-9, 1 / x[0] - 1 / x[4]));
      (scanRates[groupOf(o)] ??= []).push({ name: e.name, scan, parse: o.valid.length * m.rates[4] });
    },
  },
);
say();
say(`JSON.parse alone takes ${Object.entries(parseShare).map(([g, xs]) => `${(geomean(xs) * 100).toFixed(0)}% (${g})`).join(', ')} of Ajv's text-in time (geometric means): the rest is all a validator returning the parsed \`data\` can gain over it.`);
say();
say('The module\'s own scan: `validateText`\'s time less `JSON.parse`\'s of the same text (timed in the same turns), as bytes of text per second; `JSON.parse`\'s own rate beside it.');
say();
say('| outputs | scan MB/s (geometric mean) | slowest schema | JSON.parse MB/s |');
say('| --- | ---: | --- | ---: |');
for (const [g, xs] of Object.entries(scanRates)) {
  const slowest = xs.reduce((a, b) => (b.scan < a.scan ? b : a));
  say(`| ${g} | ${(geomean(xs.map((x) => x.scan)) / 1e6).toFixed(0)} | ${slowest.name} ${(slowest.scan / 1e6).toFixed(0)} | ${(geomean(xs.map((x) => x.parse)) / 1e6).toFixed(0)} |`);
}

const valueIn = table('Value in, valid outputs', '`contract.validate(value)` against the compiled validator on the same object (ata: `isValidObject`).', (v, o) => {
  const value = JSON.parse(o.valid);
  return () => v.value(value);
});
const valueInvalid = table(
  'Value in, invalid outputs, every violation with its message',
  '`contract.validate(value)` builds the canonical error and its one-line texts; Ajv with `allErrors: true`, ata `validate`, cfworker with `shortCircuit: false`, each on the same object, their errors mapped to texts.',
  (v, o) => {
    const value = JSON.parse(o.invalid);
    return () => v.invalidValue(value);
  },
);
const invalid = table(
  'Invalid outputs, every violation with its message',
  'Text in; output-contract builds the canonical error and its one-line texts, Ajv runs with `allErrors: true` and maps `errors` to texts, ata runs `validate` (every error) and does the same, cfworker runs with `shortCircuit: false`.',
  (v, o) => () => v.invalid(o.invalid),
);
// The floor under the invalid path: the canonical error crosses from the module as JSON text,
// which JavaScript reads with JSON.parse (`raw_output` is left out: the text is there already).
// Under a design where one walk over the output found every violation, that walk (priced as the
// valid check of a valid output of the same size: validateText's time less JSON.parse's) and
// this parse would still be paid; the share of the target's allowance they take is what such a
// design would have left for building the violations.
const errorParseShare = {};
const floorShare = {};
for (const [i, e] of entries.entries()) {
  const contract = Contract.compile(e.schema);
  for (const o of e.outputs) {
    if (o.layout !== 'pretty') continue;
    const crossing = JSON.stringify({ ...contract.validateText(o.invalid).error, raw_output: '' });
    const m = interleaved([
      () => JSON.parse(crossing),
      () => validators[i].ajv.invalid(o.invalid),
      () => validators[i].ours.text(o.valid),
      () => JSON.parse(o.valid),
    ]);
    // From rates to times: the crossing's parse, Ajv's whole run, and the walk (our valid
    // check less its JSON.parse).
    (errorParseShare[o.target] ??= []).push(m.ratio(([parse, ajv]) => ajv / parse));
    (floorShare[o.target] ??= []).push(m.ratio(([parse, ajv, ours, dataParse]) => (Math.max(0, 1 / ours - 1 / dataParse) + 1 / parse) / (1.5 / ajv)));
  }
}
const shares = (by) => Object.entries(by).map(([t, xs]) => `${(geomean(xs) * 100).toFixed(0)}% (~${kb(Number(t))}, max ${(Math.max(...xs) * 100).toFixed(0)}%)`).join(', ');
say();
say(`On the pretty outputs, \`JSON.parse\` of the canonical error as it crosses from the module alone takes ${Object.entries(errorParseShare).map(([t, xs]) => `${(geomean(xs) * 100).toFixed(0)}% (~${kb(Number(t))})`).join(', ')} of Ajv \`allErrors\`' whole time (geometric means; the target allows 150% for everything).`);
say();
say(`One walk over the output (the valid check of a valid output of the same size: \`validateText\`'s time less \`JSON.parse\`'s) plus that \`JSON.parse\` take ${shares(floorShare)} of the target's allowance (geometric means): what a design finding every violation in that one walk would have left for building them.`);

// ---------------------------------------------------------------------------------------------
// The edge setting: a child process under --disallow-code-generation-from-strings.

mkdirSync(`${root}target/bench`, { recursive: true });
writeFileSync(`${root}target/bench/corpus.json`, JSON.stringify(entries.map((e) => ({ name: e.name, schema: e.schema, outputs: e.outputs }))));
const edgeRun = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', 'bench/edge.mjs', 'target/bench/corpus.json', ...(quick ? ['--quick'] : [])], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
if (edgeRun.status !== 0) throw new Error(`bench/edge.mjs failed: ${edgeRun.stderr}`);
const edge = JSON.parse(edgeRun.stdout);
say();
say('## The edge setting: no code generation from strings');
say();
say(`A child process under \`node --disallow-code-generation-from-strings\` (bench/edge.mjs), as on Cloudflare Workers, Deno Deploy or a page with a strict Content-Security-Policy. Ajv cannot run there: compiling a schema throws \`${edge.ajvRefusal ?? 'nothing (it compiled)'}\`. ata-validator answers with its ${[...new Set(Object.values(edge.engines))].join(', ')} engine. Text in for both; valid outputs as in "Text in, valid outputs", invalid ones with every violation as in "Invalid outputs".`);
say();
say('| schema | output | valid: output-contract ops/s | ata interpreter ops/s | vs ata interpreter | invalid: output-contract ops/s | ata interpreter ops/s | vs ata interpreter |');
say('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
const edgeGroups = {};
for (const r of edge.rows) {
  say(`| ${r.name} | ${r.layout} ${kb(r.target)} | ${fmtOps(r.valid.rates[0])} | ${fmtOps(r.valid.rates[1])} | ${fmtRatio(r.valid.ratio)} | ${fmtOps(r.invalid.rates[0])} | ${fmtOps(r.invalid.rates[1])} | ${fmtRatio(r.invalid.ratio)} |`);
  (edgeGroups[groupOf(r)] ??= []).push(r);
}
for (const [g, rs] of Object.entries(edgeGroups)) {
  const min = (k) => Math.min(...rs.map((r) => r[k].ratio));
  say(`| **geometric mean** | ${g} | | | **${fmtRatio(geomean(rs.map((r) => r.valid.ratio)))}** (min ${fmtRatio(min('valid'))}) | | | **${fmtRatio(geomean(rs.map((r) => r.invalid.ratio)))}** (min ${fmtRatio(min('invalid'))}) |`);
}
say();
say('Value in, the same setting: `contract.validate(value)` against ata\'s interpreter (`isValidObject`, and `validate` with every error) on the same parsed object.');
say();
say('| schema | output | valid: output-contract ops/s | ata interpreter ops/s | vs ata interpreter | invalid: output-contract ops/s | ata interpreter ops/s | vs ata interpreter |');
say('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of edge.rows) {
  say(`| ${r.name} | ${r.layout} ${kb(r.target)} | ${fmtOps(r.value.rates[0])} | ${fmtOps(r.value.rates[1])} | ${fmtRatio(r.value.ratio)} | ${fmtOps(r.invalidValue.rates[0])} | ${fmtOps(r.invalidValue.rates[1])} | ${fmtRatio(r.invalidValue.ratio)} |`);
}
for (const [g, rs] of Object.entries(edgeGroups)) {
  const min = (k) => Math.min(...rs.map((r) => r[k].ratio));
  say(`| **geometric mean** | ${g} | | | **${fmtRatio(geomean(rs.map((r) => r.value.ratio)))}** (min ${fmtRatio(min('value'))}) | | | **${fmtRatio(geomean(rs.map((r) => r.invalidValue.ratio)))}** (min ${fmtRatio(min('invalidValue'))}) |`);
}

// ---------------------------------------------------------------------------------------------
// Cold start: a fresh Node process per sample, timed inside it from before the import to after
// the first validation. The scripts are written under target/, which may be a link to a
// directory outside the repository: --preserve-symlinks-main resolves their imports from here.

const prReviewer = entries.find((e) => e.name === 'pr-reviewer');
writeFileSync(`${root}target/bench/cold-schema.json`, JSON.stringify(prReviewer.schema));
writeFileSync(`${root}target/bench/cold-output.json`, prReviewer.outputs[0].valid);
const coldScripts = {
  'output-contract': `
    const { Contract } = await import('output-contract');
    const c = Contract.compile(schema);
    if (!c.validateText(text).valid) throw new Error('invalid');`,
  Ajv: `
    const { default: Ajv } = await import('ajv');
    const { default: addFormats } = await import('ajv-formats');
    const ajv = new Ajv({ strict: false }); addFormats(ajv);
    const v = ajv.compile(schema);
    if (!v(JSON.parse(text))) throw new Error('invalid');`,
  'ata-validator': `
    const { Validator } = await import('ata-validator');
    const v = new Validator(schema);
    if (!v.isValidObject(JSON.parse(text))) throw new Error('invalid');`,
  '@cfworker/json-schema': `
    const { Validator } = await import('@cfworker/json-schema');
    const v = new Validator(schema, '7', true);
    if (!v.validate(JSON.parse(text)).valid) throw new Error('invalid');`,
};
const coldRuns = quick ? 5 : 11;
const coldFiles = {};
for (const [lib, body] of Object.entries(coldScripts)) {
  coldFiles[lib] = `${root}target/bench/cold-${lib.replace(/\W/g, '')}.mjs`;
  writeFileSync(coldFiles[lib], `
    import { readFileSync } from 'node:fs';
    const schema = JSON.parse(readFileSync('target/bench/cold-schema.json', 'utf8'));
    const text = readFileSync('target/bench/cold-output.json', 'utf8');
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    ${body}
    const cpu = process.cpuUsage(cpu0);
    console.log(JSON.stringify([performance.now() - t0, (cpu.user + cpu.system) / 1000]));`);
}
// The libraries take turns, a process each, so that their medians span the same stretch of time.
const coldSamples = Object.fromEntries(Object.keys(coldScripts).map((lib) => [lib, []]));
for (let i = 0; i < coldRuns; i++) {
  for (const [lib, file] of Object.entries(coldFiles)) {
    const started = performance.now();
    const [clock, ms] = JSON.parse(execFileSync(process.execPath, ['--preserve-symlinks-main', file], { cwd: root, encoding: 'utf8' }));
    coldSamples[lib].push({ ms, clock, wall: performance.now() - started });
  }
}
const cold = Object.fromEntries(Object.entries(coldSamples).map(([lib, samples]) => [lib, Object.fromEntries(['ms', 'clock', 'wall'].map((k) => [k, median(samples.map((s) => s[k]))]))]));
say();
say('## Cold start');
say();
say(`A fresh Node process per sample (median of ${coldRuns}): import + compile the pr-reviewer schema + validate a 1 KB output, timed inside the process in its CPU time (all its threads) and by the clock; and the whole process's wall time. The share is taken on CPU time: on a shared machine the clock counts the waits for a core.`);
say();
say('| library | import + compile + first validate, CPU | same, clock | process wall time | output-contract\'s share (CPU; clock) |');
say('| --- | ---: | ---: | ---: | ---: |');
for (const [lib, c] of Object.entries(cold)) say(`| ${lib} | ${c.ms.toFixed(1)} ms | ${c.clock.toFixed(1)} ms | ${c.wall.toFixed(0)} ms | ${(cold['output-contract'].ms / c.ms).toFixed(2)}; ${(cold['output-contract'].clock / c.clock).toFixed(2)} |`);

// Where output-contract's cold start goes: its phases in fresh processes, as shipped and with V8
// compiling every function of the module when it is loaded instead of on its first call.
const phaseScript = `${root}target/bench/cold-phases.mjs`;
writeFileSync(phaseScript, `
  import { readFileSync } from 'node:fs';
  const schema = JSON.parse(readFileSync('target/bench/cold-schema.json', 'utf8'));
  const text = readFileSync('target/bench/cold-output.json', 'utf8');
  const t0 = performance.now();
  const { Contract } = await import('output-contract');
  const t1 = performance.now();
  const c = Contract.compile(schema);
  const t2 = performance.now();
  if (!c.validateText(text).valid) throw new Error('invalid');
  console.log(JSON.stringify([t1 - t0, t2 - t1, performance.now() - t2]));`);
// Alone in its process: V8 would answer a second compile of the same bytes from its cache.
const moduleScript = `${root}target/bench/cold-module.mjs`;
writeFileSync(moduleScript, `
  import { readFileSync } from 'node:fs';
  const bytes = readFileSync('pkg/wasm/output_contract_bg.wasm');
  const t0 = performance.now();
  new WebAssembly.Module(bytes);
  console.log(JSON.stringify([performance.now() - t0]));`);
// The three take turns, like the libraries above: the difference of two of them is reported.
const phaseRuns = { lazy: [phaseScript], eager: ['--no-wasm-lazy-compilation', phaseScript], module: [moduleScript] };
const phaseSamples = { lazy: [], eager: [], module: [] };
for (let i = 0; i < coldRuns; i++) {
  for (const [k, args] of Object.entries(phaseRuns)) phaseSamples[k].push(JSON.parse(execFileSync(process.execPath, ['--preserve-symlinks-main', ...args], { cwd: root, encoding: 'utf8' })));
}
const medians = (samples) => samples[0].map((_, k) => median(samples.map((s) => s[k])));
const lazy = [...medians(phaseSamples.lazy), ...medians(phaseSamples.module)];
const eager = medians(phaseSamples.eager);
say();
say(`output-contract's phases (medians of ${coldRuns} fresh processes), as shipped and with \`--no-wasm-lazy-compilation\` (V8 compiles every function when the module is loaded, not on its first call):`);
say();
say('| phase | as shipped | all compiled at load |');
say('| --- | ---: | ---: |');
say(`| import (read, \`new WebAssembly.Module\`, instantiate, the JS entry) | ${lazy[0].toFixed(1)} ms | ${eager[0].toFixed(1)} ms |`);
say(`| first compile (pr-reviewer) | ${lazy[1].toFixed(1)} ms | ${eager[1].toFixed(1)} ms |`);
say(`| first validate (1 KB) | ${lazy[2].toFixed(1)} ms | ${eager[2].toFixed(1)} ms |`);
say();
say(`\`new WebAssembly.Module\` of the module alone (V8 validates all its code): ${lazy[3].toFixed(1)} ms. Compiling on first call the code the first compile and validation touch: ${(lazy[1] + lazy[2] - eager[1] - eager[2]).toFixed(1)} ms. A fifth of Ajv's cold start is ${(cold.Ajv.clock / 5).toFixed(1)} ms by the clock, ${(cold['output-contract'].clock - cold.Ajv.clock / 5).toFixed(1)} ms less than output-contract's.`);

// ---------------------------------------------------------------------------------------------
// Compiling 100 distinct schemas (cycling through the corpus, each made distinct).

const distinct = Array.from({ length: 100 }, (_, i) => {
  const e = entries[i % entries.length];
  const schema = structuredClone(e.schema);
  schema.title = `variant ${i}`;
  if (schema.$id) schema.$id = schema.$id.replace('.json', `-${i}.json`);
  return { schema, draft: e.draft };
});
const compileRuns = quick ? 3 : 7;
const timeCompile = (fn) => {
  const samples = [];
  for (let r = 0; r < compileRuns; r++) {
    const t = performance.now();
    fn(r);
    samples.push(performance.now() - t);
  }
  return samples.sort((a, b) => a - b)[samples.length >> 1];
};
const compileMs = {
  // Distinct per run too, so the compile cache never answers.
  'output-contract': timeCompile((r) => {
    for (const d of distinct) Contract.compile({ ...d.schema, $comment: `run ${r}` }).free();
  }),
  Ajv: timeCompile(() => {
    const ajv = { '7': ajvFor('7', false), '2020-12': ajvFor('2020-12', false), '2019-09': ajvFor('2019-09', false) };
    for (const d of distinct) ajv[d.draft].compile(d.schema);
  }),
  '@cfworker/json-schema (no compile step: construction + first validation)': timeCompile(() => {
    for (const d of distinct) new Validator(d.schema, d.draft, true).validate({});
  }),
};
say();
say('## Compiling 100 distinct schemas');
say();
say(`The ${entries.length} corpus schemas cycled, each with its own title (and \`$id\`); median of ${compileRuns} runs; Ajv's instances created inside the timing.`);
say();
say('| library | 100 compiles | output-contract\'s share |');
say('| --- | ---: | ---: |');
for (const [lib, ms] of Object.entries(compileMs)) say(`| ${lib} | ${ms.toFixed(1)} ms | ${(compileMs['output-contract'] / ms).toFixed(2)} |`);

// ---------------------------------------------------------------------------------------------
// Streaming and memory: their own scripts, quoted.

function quoteScript(title, args, env = {}) {
  say();
  say(`## ${title}`);
  say();
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  for (const line of (r.stdout + (r.status ? r.stderr : '')).trimEnd().split('\n')) say(line);
  return r.stdout;
}
const streamText = quoteScript('Streaming (bench/stream.mjs)', ['--expose-gc', 'bench/stream.mjs', ...(quick ? ['--quick'] : [])]);
const memoryText = quoteScript(
  'Memory (bench/memory.mjs)',
  ['--expose-gc', 'bench/memory.mjs'],
  quick ? { N_VALIDATIONS: '100000', N_STREAMS: '2000' } : {},
);

// ---------------------------------------------------------------------------------------------
// Native: criterion, the Rust core against jsonschema called directly.

let native = null;
let nativeSpeedup = null;
if (!quick && !process.argv.includes('--no-native')) {
  say();
  say('## Native (Rust, criterion: benches/native.rs)');
  say();
  // The pretty outputs only: criterion's samples of all of them would take most of an hour.
  writeFileSync(`${root}target/bench/corpus.json`, JSON.stringify(entries.map((e) => ({ name: e.name, schema: e.schema, outputs: e.outputs.filter((o) => o.layout === 'pretty') }))));
  const r = spawnSync('cargo', ['bench', '--quiet', '--bench', 'native', '--', '--noplot'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) {
    say(`cargo bench failed: ${r.stderr.split('\n').slice(-5).join(' ')}`);
  } else {
    native = nativeTable();
  }
}

function nativeTable() {
  const dir = `${root}target/criterion`;
  const estimate = (group, id) => {
    const f = `${dir}/${group}/${id}/new/estimates.json`;
    return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')).median.point_estimate / 1000 : NaN;
  };
  say('Median µs per output. "jsonschema" is `serde_json::from_str` + `jsonschema::Validator` (`is_valid`, or `iter_errors` collecting messages); "validate_text" is `Contract::validate_text` (limits, parse, validate, canonical error, the parsed value returned); "check_text" is `Contract::check_text`, what `validateText` runs in the module: for a valid output the one-pass verdict, for an invalid one also the locating walk, the units parsed and validated, and the canonical error\'s text (without `raw_output`, which JavaScript fills in); "locating walk" is that walk alone (`Contract::located_units`).');
  say();
  say('| case | jsonschema µs | validate_text µs | its overhead | check_text µs | jsonschema ÷ check_text | locating walk µs |');
  say('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const ratios = [];
  const speedups = [];
  const walkShare = {};
  const walkOverCheck = {};
  for (const group of ['valid', 'invalid']) {
    for (const e of entries) {
      for (const o of e.outputs.filter((x) => x.layout === 'pretty')) {
        const id = `${e.name}-${o.target}`;
        const base = estimate(`${group}-jsonschema`, id);
        const ours = estimate(`${group}-output-contract`, id);
        if (Number.isNaN(base) || Number.isNaN(ours)) continue;
        ratios.push(ours / base);
        const check = estimate(group === 'valid' ? 'valid-check' : 'invalid-check', id);
        const walk = group === 'valid' ? NaN : estimate('invalid-locate', id);
        if (group === 'valid' && !Number.isNaN(check)) speedups.push(base / check);
        if (!Number.isNaN(walk) && !Number.isNaN(check)) {
          (walkShare[o.target] ??= []).push(walk / check);
          const validCheck = estimate('valid-check', id);
          if (!Number.isNaN(validCheck)) (walkOverCheck[o.target] ??= []).push(walk / validCheck);
        }
        const checkCells = Number.isNaN(check) ? '| | ' : `| ${check.toFixed(1)} | ${fmtRatio(base / check)} `;
        say(`| ${group} ${e.name} ${kb(o.valid.length)} | ${base.toFixed(1)} | ${ours.toFixed(1)} | ${fmtRatio(ours / base)} ${checkCells}| ${Number.isNaN(walk) ? '' : walk.toFixed(1)} |`);
      }
    }
  }
  if (ratios.length) say(`| **geometric mean** | | | **${fmtRatio(geomean(ratios))}** | | ${speedups.length ? `**${fmtRatio(geomean(speedups))}** (valid)` : ''} | |`);
  if (Object.keys(walkShare).length) {
    const walkOverCheckBySize = Object.entries(walkOverCheck).map(([t, xs]) => `${fmtRatio(geomean(xs))} (~${kb(Number(t))})`).join(', ');
    say();
    say(`Invalid outputs: the locating walk takes ${shares(walkShare)} of \`check_text\`'s time, and ${walkOverCheckBySize} the one-pass check of the valid output of the same schema and size (geometric means). The rest of \`check_text\` is the first pass up to its first violation, the units parsed and validated, the violations built and the error's text written.`);
  }
  nativeSpeedup = speedups.length ? geomean(speedups) : null;
  return ratios.length ? geomean(ratios) : null;
}

// ---------------------------------------------------------------------------------------------
// The targets, from the numbers above.

const streamRatio = Number(/stream vs one-shot validateText: ([\d.]+)×/.exec(streamText)?.[1]);
const partialRatio = Number(/parsePartialJson loop vs stream: ([\d.]+)×/.exec(streamText)?.[1]);
const memoryFlat = /memory: flat/.test(memoryText);
const endOfStream = Number(/end of stream vs JSON.parse \+ Ajv: ([\d.]+)×/.exec(streamText)?.[1]);
// The JavaScript tier is the package's folder pkg/src/tier/, measured as one gzip of its files.
const tierDir = `${root}pkg/src/tier`;
const tierGzip = existsSync(tierDir)
  ? gzipSync(Buffer.concat(readdirSync(tierDir).filter((f) => f.endsWith('.js')).sort().map((f) => readFileSync(`${tierDir}/${f}`))), { level: 9 }).length
  : null;
const mark = (ok) => (ok ? 'met' : '**not met**');
/** The lowest of `rows`' ratios `key`, and where. */
const lowest = (rows, key) => {
  // A library left out of a row (a wrong verdict) has no ratio there.
  const r = rows.filter((x) => key(x) !== null).reduce((a, b) => (key(b) < key(a) ? b : a));
  return { value: key(r), where: `${r.name} ${r.layout ?? r.o.layout} ${kb(r.target ?? r.o.target)}` };
};
const perGroup = (summary, key) => Object.entries(summary.groups).map(([g, s]) => `${fmtRatio(s[key])} (${g})`).join(', ');
const allAtLeast = (summary, key, bound) => Object.values(summary.groups).every((s) => s[key] >= bound);
const edgeValidMin = lowest(edge.rows, (r) => r.valid.ratio);
const edgeInvalidMin = lowest(edge.rows, (r) => r.invalid.ratio);
const textAjvMin = lowest(textIn.rows, (r) => r.ajv);
const patternRows = textIn.rows.filter((r) => r.name === 'change-index');
const patternMin = lowest(patternRows, (r) => r.ajv);
const patternMean = geomean(patternRows.map((r) => r.ajv));
const coldShare = cold['output-contract'].ms / cold.Ajv.ms;
say();
say('## Targets');
say();
say('Every ratio is output-contract\'s speed over the other library\'s; "every row" targets give the lowest row.');
say();
say('| target | measured | |');
say('| --- | --- | --- |');
say(`| text in, valid: ≥ 1.0× ata interpreter on every schema and output | lowest ${fmtRatio(edgeValidMin.value)} (${edgeValidMin.where}) | ${mark(edgeValidMin.value >= 1)} |`);
say(`| text in, valid: ≥ 0.8× Ajv | ${perGroup(textIn, 'ajv')} (geometric means); lowest row ${fmtRatio(textAjvMin.value)} (${textAjvMin.where}) | ${mark(allAtLeast(textIn, 'ajv', 0.8))} |`);
say(`| text in, valid: ≥ 1.0× Ajv (moonshot) | as above | ${mark(allAtLeast(textIn, 'ajv', 1))} |`);
say(`| pattern-heavy (change-index), valid: ≥ 0.8× Ajv | ${fmtRatio(patternMean)} (geometric mean of its six outputs); lowest ${fmtRatio(patternMin.value)} (${patternMin.where}) | ${mark(patternMean >= 0.8)} |`);
say(`| invalid, every violation: ≥ 0.67× Ajv allErrors | ${perGroup(invalid, 'ajv')} (geometric means) | ${mark(allAtLeast(invalid, 'ajv', 0.67))} |`);
say(`| invalid, every violation: ≥ 1.0× ata interpreter | lowest ${fmtRatio(edgeInvalidMin.value)} (${edgeInvalidMin.where}); geometric mean ${fmtRatio(geomean(edge.rows.map((r) => r.invalid.ratio)))} | ${mark(edgeInvalidMin.value >= 1)} |`);
say(`| cold start (import + compile + first validate) ≤ 0.2× Ajv's | ${coldShare.toFixed(2)} of Ajv's (${cold['output-contract'].ms.toFixed(1)} against ${cold.Ajv.ms.toFixed(1)} ms of CPU time; by the clock ${(cold['output-contract'].clock / cold.Ajv.clock).toFixed(2)}) | ${mark(coldShare <= 0.2)} |`);
say(`| wasm ≤ 400 KB gzip | ${(wasmGzip / 1024).toFixed(0)} KB (gzip -9; the schema tools' module apart, ${(toolsGzip / 1024).toFixed(0)} KB, loaded on a tool's first call) | ${mark(wasmGzip <= 400 * 1024)} |`);
say(`| stream 100 KB / 20 B chunks ≤ 10× one-shot | ${streamRatio}× | ${mark(streamRatio <= 10)} |`);
say(`| stream ≥ 500× faster than the parsePartialJson loop | ${partialRatio}× | ${mark(partialRatio >= 500)} |`);
say(`| compile 100 schemas ≤ 1/5 of Ajv's | ${(compileMs['output-contract'] / compileMs.Ajv).toFixed(2)} of Ajv's | ${mark(compileMs['output-contract'] <= compileMs.Ajv / 5)} |`);
say(`| text in, valid: ≥ 10× @cfworker/json-schema | ${perGroup(textIn, 'cf')} | ${mark(allAtLeast(textIn, 'cf', 10))} |`);
say(`| memory flat | ${memoryFlat ? 'flat' : 'grew'} | ${mark(memoryFlat)} |`);
say(`| text in, valid, vs ata compiled (no target; for reference) | ${perGroup(textIn, 'ata')} | |`);
say(`| invalid, vs ata compiled (no target; for reference) | ${perGroup(invalid, 'ata')} | |`);
const valueAjvMin = lowest(valueIn.rows, (r) => r.ajv);
const valueAtaMin = lowest(valueIn.rows, (r) => r.ata);
const edgeValueMin = lowest(edge.rows, (r) => r.value.ratio);
say(`| value in, valid: ≥ 1.0× Ajv on every row | ${perGroup(valueIn, 'ajv')} (geometric means); lowest row ${fmtRatio(valueAjvMin.value)} (${valueAjvMin.where}) | ${mark(valueAjvMin.value >= 1)} |`);
say(`| value in, valid: ≥ 1.0× ata interpreter on every row (code generation refused) | lowest ${fmtRatio(edgeValueMin.value)} (${edgeValueMin.where}); geometric mean ${fmtRatio(geomean(edge.rows.map((r) => r.value.ratio)))} | ${mark(edgeValueMin.value >= 1)} |`);
say(`| value in, valid: ≥ 1.0× ata compiled (moonshot) | ${perGroup(valueIn, 'ata')}; lowest row ${fmtRatio(valueAtaMin.value)} (${valueAtaMin.where}) | ${mark(valueAtaMin.value >= 1)} |`);
say(`| value in, invalid, every violation: ≥ 0.67× Ajv allErrors | ${perGroup(valueInvalid, 'ajv')} (geometric means) | ${mark(allAtLeast(valueInvalid, 'ajv', 0.67))} |`);
say(`| end of stream (last push → data): ≥ 1.5× JSON.parse + Ajv of the whole text | ${Number.isNaN(endOfStream) ? 'not measured' : `${fmtRatio(endOfStream)}`} | ${mark(endOfStream >= 1.5)} |`);
say(`| the JavaScript tier ≤ 25 KB gzip | ${tierGzip === null ? 'no tier' : `${(tierGzip / 1024).toFixed(1)} KB (pkg/src/tier/, gzip -9)`} | ${mark(tierGzip !== null && tierGzip <= 25 * 1024)} |`);
if (native) say(`| native overhead over jsonschema (no target; for reference) | ${fmtRatio(native)} | |`);
if (nativeSpeedup) say(`| native one-pass check of valid outputs vs jsonschema (no target; for reference) | ${fmtRatio(nativeSpeedup)} as fast | |`);

mkdirSync(`${root}bench/results`, { recursive: true });
writeFileSync(`${root}bench/results/latest.md`, `${out.join('\n')}\n`);
console.log('\nwritten to bench/results/latest.md');
