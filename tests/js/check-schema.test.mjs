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

  const comma = prReviewer.replace(/\n}$/, ',\n}');
  const syntax = errors(checkSchema(comma));
  assert.equal(syntax[0].code, 'json_syntax');
  assert.equal(syntax[0].range.start.line, comma.split('\n').length);

  const missing = prReviewer.replace('"approval",', '"approval", "verdict",');
  const w = checkSchema(missing).diagnostics.find((x) => x.code === 'required_not_in_properties');
  assert.equal(missing.slice(w.range.start.offset, w.range.end.offset), '"verdict"');

  assert.deepEqual(checkSchema('').diagnostics.map((x) => x.code), ['json_syntax']);
  assert.ok(checkSchema('{"type": "object"}', { provider: 'openai' }).diagnostics.length > 0);
  assert.throws(() => checkSchema('{}', { provider: 'gemini' }), /unknown provider/);
});
