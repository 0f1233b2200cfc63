// Cloudflare Workers (workerd): compiling WebAssembly from bytes is forbidden there, so the
// .wasm is imported as a module (wrangler's default CompiledWasm rule for *.wasm; in a workerd
// config, a `wasm` module) and instantiated synchronously.
import wasmModule from '../wasm/output_contract_bg.wasm';
import { initSync } from '../wasm/output_contract.js';
import { setReady } from './state.js';

initSync({ module: wasmModule });
setReady();

export const ready = Promise.resolve();
export * from './api.js';
