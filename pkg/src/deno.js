// Deno: the wasm bytes are read from the package directory synchronously.
/* global Deno */
import { initSync } from '../wasm/output_contract.js';
import { setReady } from './state.js';

initSync({ module: Deno.readFileSync(new URL('../wasm/output_contract_bg.wasm', import.meta.url)) });
setReady();

export const ready = Promise.resolve();
export * from './api.js';
