// Node (ESM) and Bun: the wasm bytes are read from disk and instantiated synchronously, so the
// API is usable as soon as the import resolves.
import { readFileSync } from 'node:fs';
import { initSync } from '../wasm/output_contract.js';
import { setReady } from './state.js';

initSync({ module: readFileSync(new URL('../wasm/output_contract_bg.wasm', import.meta.url)) });
setReady();

export const ready = Promise.resolve();
export * from './api.js';
