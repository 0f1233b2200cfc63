// Browsers and bundlers: the wasm file is fetched and compiled asynchronously; `await ready`
// before the first call. `new URL(…, import.meta.url)` lets Vite, webpack and esbuild ship it.
import init from '../wasm/output_contract.js';
import { setReady } from './state.js';

export const ready = init({ module_or_path: new URL('../wasm/output_contract_bg.wasm', import.meta.url) }).then(() => {
  setReady();
});
export * from './api.js';
