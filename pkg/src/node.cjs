'use strict';
// Node (CommonJS): the same API from a CommonJS bundle of the ESM sources (wasm/api.cjs, built
// by scripts/build.sh), loaded synchronously from disk; the schema tools' module likewise, on
// its first use.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { initSync, initToolsSync, setReady, setToolsLoader, setCodegen, compileCode, ...api } = require('../wasm/api.cjs');

initSync({ module: readFileSync(join(__dirname, '..', 'wasm', 'output_contract_bg.wasm')) });
setReady();
// validate(value)'s verdict tier may generate code here (README: where code generation happens).
setCodegen(compileCode);
setToolsLoader(() => initToolsSync({ module: readFileSync(join(__dirname, '..', 'wasm', 'output_contract_tools_bg.wasm')) }));

module.exports = { ...api, ready: Promise.resolve() };
