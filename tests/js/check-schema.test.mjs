// checkSchema through the npm package: ranges as the editor uses them (text.slice on offsets).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkSchema, ready } from 'output-contract';

await ready;

const blueprint = JSON.parse(readFileSync(new URL('../../examples/pr-reviewer/blueprint.json', import.meta.url), 'utf8'));
const prReviewer = JSON.stringify(blueprint.output_schema, null, 2);
const errors = (r) => r.diagnostics.filter((d) => d.severity === 'error');

test('the pr-reviewer schema has no errors', () => {
  const r = checkSchema(prReviewer);
  assert.equal(r.valid, true);
  assert.deepEqual(errors(r), []);
  assert.equal(r.draft, 'draft7');
});

test('broken schema text: diagnostics at the right lines, never thrown', () => {
  const typo = prReviewer.replace('"type": "string"', '"type": "strng"');
  const r = checkSchema(typo);
  const [d] = errors(r);
  assert.equal(d.code, 'meta_schema');
  assert.equal(typo.slice(d.range.start.offset, d.range.end.offset), '"strng"');
  assert.equal(d.range.start.line, typo.slice(0, d.range.start.offset).split('\n').length);

  // A trailing comma: an error at the comma with its fix, and the rest checked as without it.
  const comma = prReviewer.replace(/\n}$/, ',\n}');
  const report = checkSchema(comma);
  const syntax = errors(report);
  assert.equal(report.valid, false);
  assert.deepEqual(syntax.map((x) => [x.code, comma.slice(x.range.start.offset, x.range.end.offset), x.fix.replacement]), [['json_syntax', ',', '']]);
  assert.equal(syntax[0].range.start.line, comma.split('\n').length - 1);
  const others = (r) => r.diagnostics.filter((x) => x.code !== 'json_syntax').map((x) => [x.code, x.pointer, x.range]);
  assert.deepEqual(others(report), others(checkSchema(prReviewer)));
  assert.ok(others(report).length > 0);

  const missing = prReviewer.replace('"approval",', '"approval", "verdict",');
  const w = checkSchema(missing).diagnostics.find((x) => x.code === 'required_not_in_properties');
  assert.equal(missing.slice(w.range.start.offset, w.range.end.offset), '"verdict"');

  assert.deepEqual(checkSchema('').diagnostics.map((x) => x.code), ['json_syntax']);
  assert.ok(checkSchema('{"type": "object"}', { provider: 'openai' }).diagnostics.length > 0);
  assert.throws(() => checkSchema('{}', { provider: 'gemini' }), /provider must be "openai" or "anthropic", got "gemini"/);
});

test('locateJson: violation pointers become spots in the answer text', async () => {
  const { Contract, locateJson } = await import('output-contract');
  const contract = Contract.compile(blueprint.output_schema);
  const answer = 'Here is the review — ✅\n```json\n{"summary": "Fix 🐛", "approval": "approved",\n "comments": [{"file": "a.rs", "line": "42", "severity": "nitpick", "message": "x"}]}\n```';
  const r = contract.validateText(answer, { extract: true });
  assert.equal(r.valid, false);
  const spots = locateJson(r.extraction.json, r.error.violations.map((v) => v.pointer));
  const texts = spots.map((s) => answer.slice(r.extraction.start + s.value.start.offset, r.extraction.start + s.value.end.offset));
  assert.deepEqual(texts.sort(), ['"42"', '"approved"']);
  const approval = spots[r.error.violations.findIndex((v) => v.pointer === '/approval')];
  assert.equal(r.extraction.json.slice(approval.key.start.offset, approval.key.end.offset), '"approval"');
  assert.equal(approval.value.start.line, 1);
  assert.deepEqual(locateJson('{"a": 1}', ['/b']), [null]);
  assert.equal(locateJson('{"a": 1,}', ['']), null);
  assert.throws(() => locateJson('{}', [1]), TypeError);
});

const corpus = JSON.parse(readFileSync(new URL('../corpus/check-schema.json', import.meta.url), 'utf8'));

test('every diagnostic code at its range (shared corpus, non-ASCII text on every line)', () => {
  const seen = new Set();
  for (const c of corpus.cases) {
    const text = c.schema.join('\n');
    const r = checkSchema(text, { draft: c.draft, provider: c.provider });
    const d = r.diagnostics.find((x) => x.code === c.code);
    assert.ok(d, `${c.code}: got ${r.diagnostics.map((x) => x.code)}`);
    assert.equal(d.severity, c.severity, c.code);
    assert.equal(text.slice(d.range.start.offset, d.range.end.offset), c.at, c.code);
    assert.equal(d.range.start.line, c.line, c.code);
    // Lines and columns agree with the offsets, as an editor computes them.
    const before = text.slice(0, d.range.start.offset).split('\n');
    assert.deepEqual([d.range.start.line, d.range.start.column], [before.length, before.at(-1).length + 1], c.code);
    seen.add(c.code);
  }
  assert.ok(seen.size >= 25);
});

test('a fix with a replacement, applied at its range, removes its diagnostic', () => {
  const withFix = corpus.cases.filter((c) => 'fix' in c);
  assert.deepEqual(
    [...new Set(withFix.map((c) => c.code))].sort(),
    ['json_syntax', 'meta_schema', 'open_object', 'prefer_any_of', 'unknown_format', 'unknown_keyword'],
  );
  for (const c of withFix) {
    const text = c.schema.join('\n');
    const d = checkSchema(text, { draft: c.draft, provider: c.provider }).diagnostics.find((x) => x.code === c.code);
    assert.equal(d.fix.replacement, c.fix, c.code);
    const fixed = text.slice(0, d.range.start.offset) + d.fix.replacement + text.slice(d.range.end.offset);
    const after = checkSchema(fixed, { draft: c.draft, provider: c.provider });
    assert.ok(!after.diagnostics.some((x) => x.code === c.code && x.pointer === d.pointer), `${c.code} after the fix: ${fixed}`);
    assert.ok(!after.diagnostics.some((x) => x.code === 'json_syntax'), c.code);
  }
});

test('misspelt type and format names: did you mean, with the rename as the fix', () => {
  const schema = (type, format) =>
    JSON.stringify({ type: 'object', properties: { a: { type, format } }, required: ['a'], additionalProperties: false });
  const type = schema('integr');
  const t = checkSchema(type).diagnostics.find((x) => x.code === 'meta_schema');
  assert.equal(type.slice(t.range.start.offset, t.range.end.offset), '"integr"');
  assert.match(t.message, /did you mean "integer"/);
  assert.equal(t.fix.replacement, '"integer"');
  const format = schema('string', 'datetime');
  const f = checkSchema(format).diagnostics.find((x) => x.code === 'unknown_format');
  assert.equal(format.slice(f.range.start.offset, f.range.end.offset), '"datetime"');
  assert.equal(f.fix.replacement, '"date-time"');
});
