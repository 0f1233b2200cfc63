// Cloudflare Workers (workerd): compiling WebAssembly from bytes is forbidden there, so the
// .wasm files are imported as modules (wrangler's default CompiledWasm rule for *.wasm; in a
// workerd config, `wasm` modules) and instantiated synchronously: the main one now, the schema
// tools' (tools.js) on its first use.
import wasmModule from '../wasm/output_contract_bg.wasm';
import toolsModule from '../wasm/output_contract_tools_bg.wasm';
import { initSync } from '../wasm/output_contract.js';
import { initSync as initToolsSync } from '../wasm/output_contract_tools.js';
import { setReady } from './state.js';
import { setToolsLoader } from './tools.js';

initSync({ module: wasmModule });
setReady();
setToolsLoader(() => initToolsSync({ module: toolsModule }));

export const ready = Promise.resolve();
export * from './api.js';
