// The README the npm package ships (pkg/README.md) cannot rot: every ```js block in it runs
// against the built package, and what a block prints is compared with the fenced block that
// follows it under a `<!-- prints -->` comment. Then: the packed tarball carries that README (not
// the repository's), it links only to files the package holds, and it speaks of the library alone.
//
// How the blocks run: a block that imports (or requires) the package starts a program; a block
// without imports continues the program before it (so the canonical-error block reads the
// contract of the first example). Each program runs in a fresh process: Node (ESM, or CommonJS
// for `require`), or Deno for an `npm:` import. Provider clients the examples call (`openai`,
// `anthropic`) are fakes that answer like the real APIs and check the requests' shape.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(`${root}pkg/README.md`, 'utf8');
const work = `${root}tests/js/artifacts/readme`;
const deno = `${root}node_modules/.bin/deno`;
const MARK = '@@readme-block-end@@';

/** The fenced blocks of a markdown text: info string, code, line, and whether `<!-- prints -->` precedes it. */
function fences(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]);
    if (!open) continue;
    const [, fence, lang] = open;
    const body = [];
    let j = i + 1;
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    while (j < lines.length && !close.test(lines[j])) body.push(lines[j++]);
    assert.ok(j < lines.length, `unclosed fence at line ${i + 1} of pkg/README.md`);
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === '') k--;
    blocks.push({ lang, code: body.join('\n'), line: i + 1, prints: k >= 0 && lines[k].trim() === '<!-- prints -->' });
    i = j;
  }
  return blocks;
}

/** The programs: runs of js blocks, each run opened by a block that imports the package. */
function programs(blocks) {
  const list = [];
  let lastJs = null;
  for (const block of blocks) {
    if (block.prints) {
      assert.ok(lastJs, `the output at line ${block.line} follows no js block`);
      assert.equal(lastJs.expected, undefined, `two outputs for the js block at line ${lastJs.line}`);
      lastJs.expected = block;
      continue;
    }
    if (block.lang !== 'js') continue;
    const opens = /^(import\s.*from\s|const\s.*=\s*require\()/m.test(block.code);
    if (opens) {
      const runtime = /from 'npm:output-contract'/.test(block.code) ? 'deno' : /require\('output-contract'\)/.test(block.code) ? 'cjs' : 'esm';
      list.push({ runtime, line: block.line, blocks: [] });
    }
    assert.ok(list.length > 0, `the js block at line ${block.line} neither imports the package nor follows a block that does`);
    list.at(-1).blocks.push(block);
    lastJs = block;
  }
  return list;
}

// Fake provider clients: the response shapes of the OpenAI Chat Completions and Anthropic
// Messages APIs, and an error for a request those APIs would refuse.
const FAKES = `
const need = (ok, what) => { if (!ok) throw new Error('fake provider: ' + what); };
const retried = (messages) => messages.some((m) => typeof m.content === 'string' && m.content.includes('<output-validation-error>'));
globalThis.openai = { chat: { completions: { async create(params) {
  need(typeof params.model === 'string' && Array.isArray(params.messages) && params.messages.length > 0, 'model and messages are required');
  for (const m of params.messages) need(['system', 'user', 'assistant', 'tool'].includes(m.role) && typeof m.content === 'string', 'a message is { role, content }');
  if (params.tools) {
    for (const t of params.tools) need(t.type === 'function' && typeof t.function?.name === 'string' && t.function.parameters?.type === 'object', 'a tool is { type: "function", function: { name, parameters } }');
    need(params.tool_choice?.type === 'function' && params.tools.some((t) => t.function.name === params.tool_choice.function?.name), 'tool_choice names a tool');
    const args = JSON.stringify({ approval: 'approve', summary: 'Adds retries.', notes: null });
    return { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: params.tool_choice.function.name, arguments: args } }] } }] };
  }
  const text = retried(params.messages)
    ? '{"approval": "approve", "summary": "Adds retries with backoff."}'
    : 'Looks good to me! {"approval": "LGTM", "summary": "Adds retries."}';
  if (!params.stream) return { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }] };
  return (async function* () {
    yield { choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] };
    for (let i = 0; i < text.length; i += 8) yield { choices: [{ index: 0, delta: { content: text.slice(i, i + 8) } }] };
    yield { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
  })();
} } } };
globalThis.anthropic = { messages: { async create(params) {
  need(typeof params.model === 'string' && Number.isInteger(params.max_tokens) && Array.isArray(params.messages), 'model, max_tokens and messages are required');
  for (const m of params.messages) need(['user', 'assistant'].includes(m.role), 'Anthropic messages are user or assistant (the system prompt is a parameter)');
  for (const t of params.tools ?? []) need(typeof t.name === 'string' && t.input_schema?.type === 'object', 'a tool is { name, input_schema }');
  need(params.tool_choice?.type === 'tool' && params.tools.some((t) => t.name === params.tool_choice.name), 'tool_choice names a tool');
  return { id: 'msg_1', type: 'message', role: 'assistant', stop_reason: 'tool_use', content: [
    { type: 'text', text: 'Submitting the review.' },
    { type: 'tool_use', id: 'toolu_1', name: params.tool_choice.name, input: { approval: 'LGTM', summary: 'Adds retries.' } },
  ] };
} } };
`;

const blocks = fences(readme);
const runs = programs(blocks);

before(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(`${work}/fakes.mjs`, FAKES);
  writeFileSync(`${work}/fakes.cjs`, FAKES);
});

function programFile(run, index) {
  const code = run.blocks.map((b) => b.code).join(`\nconsole.log(${JSON.stringify(MARK)});\n`);
  const ext = run.runtime === 'cjs' ? 'cjs' : 'mjs';
  const file = `${work}/program-${index}-line-${run.line}.${ext}`;
  const prelude = run.runtime === 'cjs' ? "require('./fakes.cjs');\n" : "import './fakes.mjs';\n";
  writeFileSync(file, prelude + code + '\n');
  return file;
}

function execute(run, file) {
  const env = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };
  delete env.FORCE_COLOR;
  if (run.runtime === 'deno') return execFileSync(deno, ['run', '--allow-read', '--no-lock', '--no-prompt', file], { cwd: root, encoding: 'utf8', env });
  return execFileSync(process.execPath, [file], { cwd: root, encoding: 'utf8', env });
}

test('pkg/README.md has examples, each with a known language', () => {
  const known = new Set(['js', 'text', 'json', 'sh', 'toml', 'capnp', 'python']);
  for (const b of blocks) assert.ok(known.has(b.lang), `the block at line ${b.line} is \`${b.lang}\`: js blocks are run, others are not`);
  assert.ok(runs.length >= 8, `only ${runs.length} programs`);
  // The first validation extracts the JSON from the answer: model answers have prose around it.
  const first = runs[0].blocks[0].code;
  assert.match(first, /\.validateText\(answer, \{ extract: true \}\)/);
  assert.match(readme, /```sh\nnpm install output-contract\n```/);
});

runs.forEach((run, index) => {
  const skip = run.runtime === 'deno' && !existsSync(deno) ? 'deno is not installed (npm ci installs it)' : false;
  test(`the README program at line ${run.line} runs (${run.runtime}) and prints what the README shows`, { skip, timeout: 60_000 }, async () => {
    const file = programFile(run, index);
    let stdout;
    try {
      stdout = execute(run, file);
    } catch (e) {
      assert.fail(`the program at line ${run.line} of pkg/README.md failed:\n${e.stderr || e.message}`);
    }
    const outputs = stdout.split(`${MARK}\n`);
    assert.equal(outputs.length, run.blocks.length);
    run.blocks.forEach((block, i) => {
      if (block.expected) {
        assert.equal(outputs[i].trimEnd(), block.expected.code.trimEnd(), `the output of the block at line ${block.line}`);
      } else {
        assert.equal(outputs[i], '', `the block at line ${block.line} prints, but the README shows no output for it`);
      }
    });
    // A worker: its fetch handler answers a valid and an invalid model answer.
    if (/^export default \{/m.test(run.blocks.at(-1).code)) {
      const worker = (await import(pathToFileURL(file).href)).default;
      const post = (body) => worker.fetch(new Request('http://localhost/', { method: 'POST', body }));
      const ok = await post('Here: {"approval": "approve"}');
      assert.equal(ok.status, 200);
      assert.deepEqual(await ok.json(), { approval: 'approve' });
      const bad = await post('{"approval": "LGTM"}');
      assert.equal(bad.status, 422);
      const error = await bad.json();
      assert.equal(error.error, 'output_validation_failed');
      assert.equal(error.agent_id, 'edge-agent');
    }
  });
});

// The Pydantic example: the schema its js block holds is what its python block prints, where
// Python has Pydantic (the block's model_json_schema() is run, not copied).
const python = blocks.findIndex((b) => b.lang === 'python');
const pydantic = python >= 0 && spawnSync('python3', ['-c', 'import pydantic'], { encoding: 'utf8' }).status === 0;
test("the Pydantic example's schema is what its Python prints", { skip: !pydantic && 'python3 with pydantic is not installed' }, () => {
  const code = blocks[python].code;
  const literal = /^const schema = (\{[\s\S]*?\n\});$/m.exec(blocks[python + 1].code);
  assert.ok(literal, `the js block after the python block at line ${blocks[python].line} holds const schema = {…};`);
  const printed = execFileSync('python3', ['-c', code], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(literal[1]), JSON.parse(printed));
});

test('the packed tarball carries pkg/README.md, and the README links only to files it carries', () => {
  const [report] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], { cwd: `${root}pkg`, encoding: 'utf8' }));
  const files = new Map(report.files.map((f) => [f.path, f.size]));
  assert.equal(files.get('README.md'), Buffer.byteLength(readme), 'README.md in the tarball is pkg/README.md');
  // The content itself, from a real pack.
  const dir = mkdtempSync(join(tmpdir(), 'readme-pack-'));
  try {
    const tarball = execFileSync('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: `${root}pkg`, encoding: 'utf8' }).trim().split('\n').at(-1);
    const packed = execFileSync('tar', ['-xzOf', join(dir, tarball), 'package/README.md'], { encoding: 'utf8' });
    assert.equal(packed, readme);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.notEqual(readme, readFileSync(`${root}README.md`, 'utf8'));
  for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|#)/.test(target)) continue;
    assert.ok(files.has(target.replace(/#.*$/, '')), `pkg/README.md links to ${target}, which the package does not carry`);
  }
});

test('the package README speaks of the library alone', () => {
  assert.doesNotMatch(readme, /\bseed\s+\d+|\bdesign doc|\bissue\s*#?\d+|(^|\s)#\d+\b/im);
  assert.doesNotMatch(readme, /scripts\/|tests\/|bench\/|examples\/|\bDEVELOPERS\.md|SECURITY\.md/, 'no paths of the repository');
});

test('the repository README stays for contributors: its two commands first, the package README and benchmarks linked', () => {
  const repo = readFileSync(`${root}README.md`, 'utf8');
  const first = fences(repo)[0];
  assert.equal(first.lang, 'sh');
  assert.deepEqual(first.code.split('\n').map((l) => l.split('#')[0].trim()), ['bash scripts/demo.sh', 'bash scripts/test.sh']);
  assert.match(repo, /\]\(pkg\/README\.md\)/);
  assert.match(repo, /\]\(bench\/README\.md\)/);
  assert.ok(existsSync(`${root}bench/README.md`));
});
