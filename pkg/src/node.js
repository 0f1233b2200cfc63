// Node (ESM) and Bun: the wasm bytes are read from disk and instantiated synchronously, so the
// API is usable as soon as the import resolves; the schema tools' module (tools.js) likewise, on
// its first use.
import { readFileSync } from 'node:fs';
import { initSync } from '../wasm/output_contract.js';
import { initSync as initToolsSync } from '../wasm/output_contract_tools.js';
import { setReady } from './state.js';
import { setToolsLoader } from './tools.js';
import { setCodegen } from './tier/index.js';
import { compileCode } from './tier/codegen.js';

initSync({ module: readFileSync(new URL('../wasm/output_contract_bg.wasm', import.meta.url)) });
setReady();
// validate(value)'s verdict tier may generate code here (README: where code generation happens).
setCodegen(compileCode);
setToolsLoader(() => initToolsSync({ module: readFileSync(new URL('../wasm/output_contract_tools_bg.wasm', import.meta.url)) }));

export const ready = Promise.resolve();
export * from './api.js';
