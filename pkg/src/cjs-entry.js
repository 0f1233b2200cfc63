// Entry of the CommonJS bundle (wasm/api.cjs): the API plus what src/node.cjs needs to load it.
export * from './api.js';
export { initSync } from '../wasm/output_contract.js';
export { initSync as initToolsSync } from '../wasm/output_contract_tools.js';
export { setReady } from './state.js';
export { setToolsLoader } from './tools.js';
export { setCodegen } from './tier/index.js';
export { compileCode } from './tier/codegen.js';
