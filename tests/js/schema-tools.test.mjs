// The schema tools (checkSchema, checkOutputSchemaConfig, compareSchemas, SchemaRegistry) are a
// second WebAssembly module, read only when a tool is first called: validation never loads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { loadSchemaTools, compareSchemas } from 'output-contract';

test('validating never reads the schema tools module; the first tool call does, once', () => {
  // A fresh process that records every file the package reads.
  const script = `
    import fs from 'node:fs';
    import { syncBuiltinESMExports } from 'node:module';
    const read = [];
    const original = fs.readFileSync;
    fs.readFileSync = (path, ...rest) => (read.push(String(path)), original(path, ...rest));
    syncBuiltinESMExports();
    const oc = await import('output-contract');
    const tools = () => read.filter((p) => p.includes('output_contract_tools_bg.wasm')).length;
    const contract = oc.Contract.compile({ type: 'object', required: ['a'] });
    const steps = [contract.validateText('{}').valid, tools()];
    steps.push(oc.checkSchema('{"type": "strng"}').valid, tools());
    steps.push(oc.compareSchemas({}, { type: 'object' }).narrowed.length, tools());
    console.log(JSON.stringify(steps));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('.', import.meta.url), encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), [false, 0, false, 1, 1, 1]);
});

test('loadSchemaTools resolves where the module loads synchronously, and the tools answer', async () => {
  await loadSchemaTools();
  await loadSchemaTools();
  assert.equal(compareSchemas({ type: 'string' }, { type: 'string', maxLength: 3 }).narrowed[0].kind, 'maxLength');
});
