// The option set is declared once, in the module (option_table in src/bindings/options.rs,
// written into the glue as OPTION_TABLE): the package checks options from it, index.d.ts must
// type the same names for each function, and the main module must read Contract.compile's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ready } from '../../pkg/src/node.js';
import * as glue from '../../pkg/wasm/output_contract.js';

const { OPTION_TABLE } = glue;
const dts = readFileSync(new URL('../../pkg/index.d.ts', import.meta.url), 'utf8');

// The text between the brace at `open` and its match.
function braced(text, open) {
  assert.equal(text[open], '{');
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}' && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error('unbalanced braces');
}

// The property names of an object type's body: those at its own depth, comments aside.
function propertyNames(body) {
  const text = body.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const names = [];
  let depth = 0;
  let start = 0;
  const member = (part) => {
    const m = /^\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)\??\s*:/.exec(part);
    if (m) names.push(m[1]);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ('{(<['.includes(c)) depth += 1;
    else if ('})>]'.includes(c) && text[i - 1] !== '=') depth -= 1;
    else if ((c === ';' || c === '\n') && depth === 0) {
      member(text.slice(start, i));
      start = i + 1;
    }
  }
  member(text.slice(start));
  return names;
}

function interfaceNames(name) {
  const at = new RegExp(`export interface ${name}\\b[^{]*\\{`).exec(dts);
  assert.ok(at, `index.d.ts has no interface ${name}`);
  return propertyNames(braced(dts, at.index + at[0].length - 1));
}

// The inline options type of the declaration that `signature` starts.
function inlineNames(signature) {
  const at = dts.indexOf(signature);
  assert.ok(at >= 0, `index.d.ts has no ${signature}`);
  const options = /options\??:\s*\{/.exec(dts.slice(at));
  return propertyNames(braced(dts, at + options.index + options[0].length - 1));
}

const TYPES = {
  'Contract.compile': () => interfaceNames('CompileOptions'),
  'contract.validateText': () => interfaceNames('ValidateTextOptions'),
  'contract.validateToolCall': () => interfaceNames('ToolCallOptions'),
  'contract.validateMerged': () => interfaceNames('MergeOptions'),
  'contract.stream': () => interfaceNames('StreamOptions'),
  'stream.finish': () => interfaceNames('StreamEnd'),
  extractJson: () => interfaceNames('ExtractOptions'),
  enrichSystemPrompt: () => inlineNames('export declare function enrichSystemPrompt('),
  retryPrompt: () => inlineNames('export declare function retryPrompt('),
  toolFeedback: () => inlineNames('export declare function toolFeedback('),
  submitResultTool: () => interfaceNames('SubmitResultToolOptions'),
  checkSchema: () => inlineNames('export declare function checkSchema('),
  enforce: () => interfaceNames('EnforceOptions'),
  validateProviderStream: () => interfaceNames('ProviderStreamOptions'),
  providerEvents: () => inlineNames('export declare function providerEvents('),
  checkOutputSchemaConfig: () => interfaceNames('CompileOptions'),
  compareSchemas: () => inlineNames('export declare function compareSchemas('),
  SchemaRegistry: () => inlineNames('export declare class SchemaRegistry'),
  'SchemaRegistry.add': () => inlineNames('  add(schema: JsonSchema | string, options'),
  McpJsonSchemaValidator: () => interfaceNames('McpJsonSchemaValidatorOptions'),
};

test("index.d.ts types each function's options as the module declares them", () => {
  assert.deepEqual(Object.keys(OPTION_TABLE).sort(), Object.keys(TYPES).sort());
  for (const [fn, declared] of Object.entries(OPTION_TABLE)) {
    assert.deepEqual(TYPES[fn]().sort(), Object.keys(declared).sort(), `the options of ${fn}`);
    for (const [option, kind] of Object.entries(declared)) {
      if (typeof kind === 'object') assert.deepEqual(interfaceNames('PromptTemplates').sort(), Object.keys(kind).sort(), `${fn}: ${option}`);
    }
  }
});

test("the main module reads each of Contract.compile's options, and no other", async () => {
  await ready;
  const schema = new TextEncoder().encode('{}');
  for (const option of Object.keys(OPTION_TABLE['Contract.compile'])) {
    glue.compileContract(schema, JSON.stringify({ [option]: null })).free();
  }
  assert.throws(() => glue.compileContract(schema, JSON.stringify({ notAnOption: null })), /notAnOption/);
});
