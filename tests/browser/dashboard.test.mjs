// The dashboard page (www/) in real Chromium: the built page served on 127.0.0.1 by Vite's
// preview server, driven by playwright-core. Requests leaving 127.0.0.1 are refused, so the
// page is shown to work offline. Screenshots of each view go to target/screenshots/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { preview } from 'vite';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../../', import.meta.url));
const shots = `${root}target/screenshots`;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const read = (p) => readFileSync(`${root}${p}`, 'utf8');
const prReviewer = JSON.parse(read('examples/pr-reviewer/blueprint.json'));
const prSchemaText = JSON.stringify(prReviewer.output_schema, null, 2);
const lineOf = (text, needle) => text.slice(0, text.indexOf(needle)).split('\n').length;

let server;
let browser;
let page;
const problems = [];

before(async () => {
  assert.ok(existsSync(`${root}www/dist/index.html`), 'build the page first: scripts/test.sh builds it');
  mkdirSync(shots, { recursive: true });
  server = await preview({ root: `${root}www`, configFile: `${root}www/vite.config.js`, logLevel: 'silent', preview: { host: '127.0.0.1', port: 0 } });
  const url = server.resolvedUrls.local[0];
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  await page.route('**/*', (route) => {
    const host = new URL(route.request().url()).hostname;
    if (host === '127.0.0.1') return route.continue();
    problems.push(`network request outside 127.0.0.1: ${route.request().url()}`);
    return route.abort();
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Replaces the text of the CodeMirror editor inside `#id` as a user would (select all, type). */
async function setEditor(id, text) {
  await page.click(`#${id} .cm-content`);
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

async function diagnostics(listId) {
  return page.$$eval(`#${listId} li.diag:not(.none)`, (items) =>
    items.map((li) => ({ severity: li.classList[1], code: li.dataset.code, line: Number(li.dataset.line), text: li.textContent })));
}

/** Waits until the diagnostics list holds an entry matching `match` (the linter runs after a pause). */
async function waitForDiagnostic(listId, match) {
  for (let i = 0; i < 100; i++) {
    const found = (await diagnostics(listId)).find(match);
    if (found) return found;
    await page.waitForTimeout(50);
  }
  assert.fail(`no diagnostic matched in #${listId}: ${JSON.stringify(await diagnostics(listId))}`);
}

test('the page loads offline and every control has a label', async () => {
  assert.equal(await page.textContent('#agent-name'), 'code-analyzer');
  assert.match(await page.textContent('#enforcement-info'), /Output schema is enforced on every run \(start and resume\)\.\s+Validation happens in the executor with 1 retry on failure\./);
  const unlabelled = await page.$$eval('select, input, textarea', (els) => els.filter((e) => e.labels.length === 0).map((e) => e.id));
  assert.deepEqual(unlabelled, []);
  const editors = await page.$$eval('.cm-content', (els) => els.map((e) => e.getAttribute('aria-labelledby')));
  assert.deepEqual(editors, ['input-schema-label', 'output-schema-label', 'answer-label']);
  assert.equal(await page.getAttribute('#view-tab-editor', 'aria-selected'), 'true');
});

test('General and Input Schema tabs; arrow keys move between tabs', async () => {
  await page.click('#tab-general');
  assert.equal(await page.inputValue('#agent-name-input'), 'code-analyzer');
  assert.match(await page.inputValue('#agent-system-prompt'), /static analysis/);
  assert.match(await page.textContent('#enriched-prompt'), /files_analyzed/);
  await page.screenshot({ path: `${shots}/editor-general.png`, fullPage: true });
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#tab-input', 'aria-selected'), 'true');
  assert.equal(await page.isVisible('#panel-input'), true);
  assert.equal(await page.isVisible('#panel-general'), false);
  await waitForDiagnostic('input-diagnostics', (d) => d.code === 'open_object');
  assert.deepEqual((await diagnostics('input-diagnostics')).filter((d) => d.severity === 'error'), []);
  await page.screenshot({ path: `${shots}/editor-input-schema.png`, fullPage: true });
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#tab-output', 'aria-selected'), 'true');
});

test('the pr-reviewer schema has no errors', async () => {
  await page.selectOption('#blueprint-select', 'pr-reviewer');
  await waitForDiagnostic('output-diagnostics', (d) => d.code === 'open_object');
  assert.equal(await page.textContent('#agent-name'), 'pr-reviewer');
  const ds = await diagnostics('output-diagnostics');
  assert.deepEqual(ds.filter((d) => d.severity === 'error'), []);
  assert.equal(await page.locator('#output-schema-editor .cm-lintRange-error').count(), 0);
  await page.click('#validate-schema');
  assert.match(await page.textContent('#schema-result'), /^Schema valid — draft7/);
  await page.screenshot({ path: `${shots}/editor-output-schema.png`, fullPage: true });
});

test('a type typo: an error at its line, underlined, in the gutter, explained on hover', async () => {
  const typo = prSchemaText.replace('"type": "string"', '"type": "strng"');
  await setEditor('output-schema-editor', typo);
  const d = await waitForDiagnostic('output-diagnostics', (x) => x.severity === 'error');
  assert.equal(d.code, 'meta_schema');
  assert.equal(d.line, lineOf(typo, '"strng"'));
  const underline = page.locator('#output-schema-editor .cm-lintRange-error').first();
  assert.equal(await underline.textContent(), '"strng"');
  assert.equal(await page.locator('#output-schema-editor .cm-lint-marker-error').count(), 1);
  await underline.hover();
  const tooltip = page.locator('.cm-tooltip-lint');
  await tooltip.waitFor();
  assert.match(await tooltip.textContent(), /strng/);
  await page.screenshot({ path: `${shots}/editor-diagnostics.png`, fullPage: true });

  await page.click('#validate-schema');
  const result = await page.textContent('#schema-result');
  assert.match(result, /^Schema invalid: 1 error/);
  assert.match(result, new RegExp(`${d.line}:\\d+\\s*error\\s*meta_schema`));
});

test('a trailing comma: a JSON syntax error at the comma, with the rest still checked', async () => {
  const comma = prSchemaText.replace(/\n}$/, ',\n}');
  await setEditor('output-schema-editor', comma);
  const d = await waitForDiagnostic('output-diagnostics', (x) => x.code === 'json_syntax');
  assert.equal(d.line, comma.split('\n').length - 1);
  await page.keyboard.press('Control+Enter');
  assert.match(await page.textContent('#schema-result'), /^Schema invalid: 1 error.*json_syntax/s);
});

test('required naming a missing property: a warning at that entry; fixed → Schema valid', async () => {
  const missing = prSchemaText.replace('"comments"\n  ]', '"comments",\n    "verdict"\n  ]');
  assert.notEqual(missing, prSchemaText);
  await setEditor('output-schema-editor', missing);
  const d = await waitForDiagnostic('output-diagnostics', (x) => x.code === 'required_not_in_properties');
  assert.equal(d.severity, 'warning');
  assert.equal(d.line, lineOf(missing, '"verdict"'));

  await setEditor('output-schema-editor', prSchemaText);
  await page.keyboard.press('Control+Enter');
  assert.match(await page.textContent('#schema-result'), /^Schema valid/);
  assert.deepEqual((await diagnostics('output-diagnostics')).filter((x) => x.severity !== 'info'), []);
});

test('provider selector: OpenAI strict-mode rules appear, applying a fix edits the schema', async () => {
  // Past the lint delay, so no lint is due: changing the provider must lint again by itself.
  await page.waitForTimeout(400);
  await page.selectOption('#provider-select', 'openai');
  const d = await waitForDiagnostic('output-diagnostics', (x) => x.code.startsWith('openai_'));
  assert.ok(d);
  await page.selectOption('#provider-select', '');
  // The quick fix of an open object, applied from the lint tooltip.
  const key = page.locator('#output-schema-editor .cm-lintRange-info', { hasText: '"properties"' }).first();
  await key.hover();
  const action = page.locator('.cm-tooltip-lint .cm-diagnosticAction', { hasText: 'close the object' }).first();
  await action.click();
  const text = await page.evaluate(() => document.querySelector('#output-schema-editor .cm-content').innerText);
  assert.match(text, /"additionalProperties": false, "properties"/);
  await setEditor('output-schema-editor', prSchemaText);
});

test('test output: an invalid answer lists the canonical violations and highlights them', async () => {
  await page.click('#view-tab-test');
  await page.selectOption('#answer-sample', { label: 'Invalid answer' });
  await page.click('#validate-output');
  await page.waitForSelector('#output-result.failed');
  const lines = await page.$$eval('#output-result .violations li', (items) => items.map((li) => li.textContent));
  assert.deepEqual(lines, read('examples/pr-reviewer/invalid-output.violations.txt').trimEnd().split('\n'));
  const marked = await page.$$eval('#answer-editor .cm-violation', (els) => els.map((e) => e.textContent));
  assert.ok(marked.includes('"approved"') && marked.includes('"42"') && marked.includes('11'), JSON.stringify(marked));
  const canonical = JSON.parse(await page.textContent('#output-result details pre'));
  assert.equal(canonical.error, 'output_validation_failed');
  assert.equal(canonical.agent_id, 'pr-reviewer');
  assert.equal(canonical.retryable, true);
  await page.screenshot({ path: `${shots}/test-output-invalid.png`, fullPage: true });

  // Clicking a violation selects its spot in the answer.
  await page.click('#output-result .violations li button >> nth=1');
  await page.waitForFunction(() => window.getSelection()?.toString() === '"42"', null, { timeout: 5000 });
});

test('test output: a fenced valid answer gives the validated data', async () => {
  await page.selectOption('#answer-sample', { label: 'Fenced valid answer' });
  await page.keyboard.press('Control+Enter');
  await page.waitForSelector('#output-result.valid');
  assert.match(await page.textContent('#output-result'), /^Output valid/);
  assert.deepEqual(JSON.parse(await page.textContent('#output-result pre')), JSON.parse(read('examples/pr-reviewer/valid-output.json')));
  assert.match(await page.textContent('#extraction-info'), /from a ```json fence/);
  await page.screenshot({ path: `${shots}/test-output-valid.png`, fullPage: true });
});

const sessions = [
  { id: 'ses_a1f4c2', badge: 'soft-complete', status: 'completed', texts: ['Output Schema: Valid', 'Retry attempts: 0/1 used'], attempts: 1 },
  { id: 'ses_b7e019', badge: 'soft-complete', status: 'completed', texts: ['Output Schema: Valid', 'Retry attempts: 1/1 used'], attempts: 2 },
  {
    id: 'ses_abc123', badge: 'hard-complete', status: 'failed', attempts: 2,
    texts: ['Output Schema: Validation Failed', "- $.issues[0].severity: 'critical' is not one of ['low', 'medium', 'high']", 'Retry attempts: 1/1 exhausted'],
  },
  { id: 'ses_c90d55', badge: 'refused', status: 'refused', texts: ['Refused', "I can't analyze this repository"], attempts: 1 },
  { id: 'ses_d3b871', badge: 'soft-complete', status: 'completed', texts: ['Output Schema: Valid', 'Retry attempts: 1/1 used'], attempts: 2, early: "$.files_analyzed: a string is not of type 'integer'" },
];

for (const s of sessions) {
  test(`session ${s.id} replays to ${s.badge}`, async () => {
    await page.click('#view-tab-sessions');
    await page.selectOption('#replay-speed', '0');
    await page.click(`[data-session="${s.id}"]`);
    await page.waitForFunction((status) => document.querySelector('[data-testid="session-status"]')?.textContent === status, s.status);
    assert.equal(await page.getAttribute('#session-detail .badge', 'data-state'), s.badge);
    assert.equal(await page.locator('#session-detail .attempt').count(), s.attempts);
    const summary = await page.textContent('#session-detail .summary');
    for (const t of s.texts) assert.ok(summary.includes(t), `${t} in ${summary}`);
    if (s.early) {
      const early = await page.textContent('#session-detail .attempt[data-attempt="1"] .early');
      assert.ok(early.includes(s.early), early);
      assert.match(await page.textContent('#session-detail .attempt[data-attempt="1"] .attempt-note'), /Generation cancelled at the first early violation/);
    }
    await page.screenshot({ path: `${shots}/session-${s.id}.png`, fullPage: true });
  });
}

test('a replay shows the in-flight state and the output growing', async () => {
  await page.selectOption('#replay-speed', '40');
  await page.click('[data-session="ses_abc123"]');
  await page.waitForFunction(() => (document.querySelector('#session-detail .raw')?.textContent ?? '').length > 20);
  assert.equal(await page.getAttribute('#session-detail .badge', 'data-state'), 'in-flight');
  const a = (await page.textContent('#session-detail .raw')).length;
  await page.waitForTimeout(300);
  const b = (await page.textContent('#session-detail .raw')).length;
  assert.ok(b > a, `the output grows (${a} → ${b})`);
  await page.screenshot({ path: `${shots}/session-in-flight.png`, fullPage: true });
  await page.selectOption('#replay-speed', '0');
  await page.click('[data-session="ses_a1f4c2"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="session-status"]')?.textContent === 'completed');
});

test('Output Schema: the contract\'s $id and version; Compare with… marks the changes from the previous version', async () => {
  await page.click('#view-tab-editor');
  await page.click('#tab-output');
  // A blueprint schema without $id has no version to compare.
  await page.selectOption('#blueprint-select', 'pr-reviewer');
  assert.match(await page.textContent('#contract-version'), /No \$id/);
  assert.equal(await page.isDisabled('#compare-schema'), true);

  const v11 = read('examples/schemas/ticket.v1.1.0.schema.json');
  await page.selectOption('#example-schema', 'ticket.v1.1.0.schema.json');
  await page.waitForFunction(() => document.querySelector('#contract-version .contract-semver')?.textContent === '1.1.0');
  assert.equal(await page.textContent('#contract-version .contract-id'), 'https://example.com/schemas/ticket/1.1.0');
  // The other versions of "ticket" among the examples; the previous one is chosen.
  assert.deepEqual(await page.$$eval('#compare-with option', (os) => os.map((o) => o.textContent)), ['1.0.0', '2.0.0']);
  assert.equal(await page.inputValue('#compare-with'), 'https://example.com/schemas/ticket/1.0.0');
  // Its reporter is a $ref to the person/1.0.0 example: the editor's checks resolve it among the examples.
  await page.click('#validate-schema');
  assert.match(await page.textContent('#schema-result'), /^Schema valid/);
  assert.deepEqual((await diagnostics('output-diagnostics')).filter((d) => d.severity === 'error' || d.code === 'unresolvable_ref'), []);

  await page.click('#compare-schema');
  await page.waitForSelector('#compare-changes li.change');
  const changes = () => page.$$eval('#compare-changes li.change', (items) => items.map((li) => ({ dir: li.classList[2], kind: li.dataset.kind, pointer: li.dataset.pointer, line: Number(li.dataset.line) })));
  assert.deepEqual(await changes(), [
    { dir: 'narrowed', kind: 'maxLength', pointer: '/properties/title/maxLength', line: lineOf(v11, '"maxLength": 80') },
    { dir: 'narrowed', kind: 'uniqueItems', pointer: '/properties/tags/uniqueItems', line: lineOf(v11, '"uniqueItems"') },
    { dir: 'narrowed', kind: 'required', pointer: '/required', line: lineOf(v11, '"required"') },
  ]);
  assert.match(await page.textContent('#compare-result'), /3 narrowed, 0 widened, 0 unknown\. 1\.0\.0 → 1\.1\.0 is a minor step; these changes need a minor step\./);
  // Marked in the editor at their ranges.
  // (CodeMirror may split a mark around other decorations: the marked text, joined, is what counts.)
  const marked = (dir) => page.$$eval(`#output-schema-editor .cm-compare-${dir}`, (ms) => ms.map((m) => m.textContent).join(''));
  assert.equal(await marked('narrowed'), '"maxLength": 80"uniqueItems": true"required": ["title", "priority", "reporter"]');
  await page.screenshot({ path: `${shots}/editor-compare.png`, fullPage: true });

  // Editing clears the comparison; a widening change under a minor version is flagged.
  await setEditor('output-schema-editor', v11.replace('"enum": ["low", "medium", "high"]', '"enum": ["low", "medium", "high", "urgent"]'));
  assert.equal(await page.locator('#output-schema-editor .cm-compare-narrowed').count(), 0);
  await page.click('#compare-schema');
  await page.waitForSelector('#compare-changes li.change.widened');
  assert.deepEqual((await changes()).filter((c) => c.dir === 'widened').map((c) => c.kind), ['enum']);
  assert.match(await page.textContent('#compare-result'), /need a major step — the version does not match the change/);
  assert.equal(await page.getAttribute('#compare-result', 'class'), 'result failed');
  assert.equal(await marked('widened'), '"enum": ["low", "medium", "high", "urgent"]');

  // A change that cannot be decided is shown as unknown, against whichever version is chosen.
  await setEditor('output-schema-editor', v11.replace('"additionalProperties": false', '"additionalProperties": false, "if": { "required": ["tags"] }, "then": { "required": ["title"] }'));
  await page.selectOption('#compare-with', 'https://example.com/schemas/ticket/2.0.0');
  await page.click('#compare-schema');
  await page.waitForSelector('#compare-changes li.change.unknown');
  assert.deepEqual((await changes()).filter((c) => c.dir === 'unknown').map((c) => c.kind), ['if']);
  assert.match(await page.textContent('#compare-result'), /Compared with https:\/\/example\.com\/schemas\/ticket\/2\.0\.0/);
  assert.match(await marked('unknown'), /^"if": \{ "required": \["tags"\] \}/);
});

test('no page errors and no network access', () => {
  assert.deepEqual(problems, []);
});
