// Browsers and bundlers: the wasm file is fetched and compiled asynchronously; `await ready`
// before the first call, and `await loadSchemaTools()` before the first call of a schema tool
// (tools.js). `new URL(…, import.meta.url)` lets Vite, webpack and esbuild ship both files.
import init from '../wasm/output_contract.js';
import initTools from '../wasm/output_contract_tools.js';
import { setReady } from './state.js';
import { setToolsLoader } from './tools.js';

export const ready = init({ module_or_path: new URL('../wasm/output_contract_bg.wasm', import.meta.url) }).then(() => {
  setReady();
});
setToolsLoader(null, () => ready.then(() => initTools({ module_or_path: new URL('../wasm/output_contract_tools_bg.wasm', import.meta.url) })));
export * from './api.js';
