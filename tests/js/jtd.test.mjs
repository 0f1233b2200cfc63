// A JTD contract (`draft: 'jtd'`) through the npm package works as a JSON Schema one does:
// extraction, streamed early violations, enforce, tool definitions, checkSchema ranges, the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Contract, checkSchema, enforce, ready, submitResultTool } from 'output-contract';

await ready;

const schema = {
  definitions: { level: { enum: ['low', 'medium', 'high'] } },
  properties: {
    summary: { type: 'string' },
    severity: { ref: 'level' },
    line: { type: 'uint32' },
    at: { type: 'timestamp' },
    finding: { discriminator: 'kind', mapping: { bug: { properties: { file: { type: 'string' } } }, style: { properties: {} } } },
  },
  optionalProperties: { tags: { elements: { type: 'string' } } },
};
const contract = Contract.compile(schema, { draft: 'jtd' });
const good = { summary: 'ok', severity: 'low', line: 3, at: '2024-02-29T23:59:60Z', finding: { kind: 'bug', file: 'a.rs' } };

test('validateText with extraction', () => {
  const r = contract.validateText(`Here you go:\n\`\`\`json\n${JSON.stringify(good)}\n\`\`\``, { extract: true });
  assert.equal(r.valid, true, JSON.stringify(r.error));
  assert.deepEqual(r.data, good);
  const bad = contract.validateText(`Sure: ${JSON.stringify({ ...good, line: -1, extra: true })}`, { extract: true });
  assert.deepEqual(
    bad.error.violations.map((v) => [v.pointer, v.schema_path, v.keyword, v.message]),
    [
      ['/line', '/properties/line/type', 'type', "-1 is not of type 'uint32'"],
      ['/extra', '', 'additionalProperties', "Additional properties are not allowed ('extra' was unexpected)"],
    ],
  );
});

test('stream: early violations at the byte that decides them', () => {
  const early = (text) => {
    const s = contract.stream();
    let last = [];
    for (const ch of text) last = s.push(ch).earlyViolations;
    return last.map((v) => [v.pointer, v.schema_path, v.keyword]);
  };
  assert.deepEqual(early('{"severity": "cri'), [['/severity', '/definitions/level/enum', 'enum']]);
  assert.deepEqual(early('{"line": "'), [['/line', '/properties/line/type', 'type']]);
  assert.deepEqual(early('{"oops"'), [['/oops', '', 'additionalProperties']]);
  assert.deepEqual(early('{"finding": {"kind": "fe'), [['/finding/kind', '/properties/finding/mapping', 'mapping']]);
  assert.deepEqual(early('{"tags": [1'), [['/tags/0', '/optionalProperties/tags/elements/type', 'type']]);
  assert.deepEqual(early(JSON.stringify(good)), []);
});

test('enforce: the prompt carries the JSON Schema form, a retry repairs the answer', async () => {
  const answers = [JSON.stringify({ ...good, severity: 'critical' }), JSON.stringify(good)];
  const seen = [];
  const model = async (messages) => {
    seen.push(messages);
    return answers[seen.length - 1];
  };
  const result = await enforce(contract, model, { task: 'review', maxRetries: 1 });
  assert.equal(result.status, 'completed');
  assert.deepEqual(result.result_data, good);
  assert.match(seen[0][0].content, /"minimum": 0,\s*"maximum": 4294967295/);
  assert.match(seen[1].at(-1).content, /'critical' is not one of \['low', 'medium', 'high'\]/);
  assert.equal(contract.jsonSchema.properties.at.format, 'date-time');
  assert.deepEqual(contract.schema, schema);
});

test('submitResultTool converts the JTD schema and lists what it changed', () => {
  const def = submitResultTool(schema, { provider: 'openai', draft: 'jtd' });
  const parameters = def.tool.function.parameters;
  assert.deepEqual(parameters.properties.line, { type: 'integer', minimum: 0, maximum: 4294967295 });
  assert.deepEqual(parameters.$defs.level, { type: 'string', enum: ['low', 'medium', 'high'] });
  assert.deepEqual(
    def.changes.filter((c) => c.kind === 'from_jtd').map((c) => c.pointer),
    ['/properties/line/type', '/properties/at/type', '/properties/finding/discriminator'],
  );
  assert.equal(parameters.properties.finding.anyOf[0].properties.kind.const, 'bug');
  // Optional properties become required and nullable there: the null reads as absent.
  const args = JSON.stringify({ ...good, tags: null });
  assert.equal(contract.validateToolCall(args, def.validateOptions).valid, true);
  assert.throws(() => submitResultTool(schema, { draft: 'jtdx' }), /draft must be/);
});

test('checkSchema: RFC 8927 rules at their ranges', () => {
  const text = '{\n  "properties": {\n    "a": { "type": "strng" }\n  },\n  "optionalProperties": { "a": {} },\n  "minimum": 1\n}';
  const r = checkSchema(text, { draft: 'jtd' });
  assert.equal(r.valid, false);
  assert.equal(r.draft, 'jtd');
  const at = (d) => text.slice(d.range.start.offset, d.range.end.offset);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.pointer, at(d)]),
    [
      ['meta_schema', '/properties/a/type', '"strng"'],
      ['meta_schema', '/optionalProperties/a', '{}'],
      ['unknown_keyword', '/minimum', '"minimum"'],
    ],
  );
  assert.equal(r.diagnostics[0].fix.replacement, '"string"');
  assert.deepEqual(checkSchema(JSON.stringify(schema), { draft: 'jtd' }), { valid: true, draft: 'jtd', diagnostics: [] });
});

test('the CLI takes --draft jtd', () => {
  const dir = mkdtempSync(join(tmpdir(), 'output-contract-jtd-'));
  try {
    const bin = fileURLToPath(new URL('../../pkg/bin/output-contract.mjs', import.meta.url));
    const file = join(dir, 'schema.jtd.json');
    writeFileSync(file, JSON.stringify(schema));
    const run = (args, input = '') => spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8' });
    const check = run(['check', file, '--draft', 'jtd']);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    assert.equal(JSON.parse(check.stdout).draft, 'jtd');
    const ok = run(['validate', '--schema', file, '--draft', 'jtd'], JSON.stringify(good));
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    const bad = run(['validate', '--schema', file, '--draft', 'jtd'], JSON.stringify({ ...good, line: 1.5 }));
    assert.equal(bad.status, 1);
    assert.equal(JSON.parse(bad.stdout).violations[0].schema_path, '/properties/line/type');
    writeFileSync(file, JSON.stringify({ type: 'int64' }));
    const refused = run(['check', file, '--draft', 'jtd']);
    assert.equal(refused.status, 1);
    assert.equal(JSON.parse(refused.stdout).issues[0].pointer, '/type');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
