'use strict';
// Node (CommonJS): the same API from a CommonJS bundle of the ESM sources (wasm/api.cjs, built
// by scripts/build.sh), loaded synchronously from disk; the schema tools' module likewise, on
// its first use.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { initSync, initToolsSync, setReady, setToolsLoader, ...api } = require('../wasm/api.cjs');

initSync({ module: readFileSync(join(__dirname, '..', 'wasm', 'output_contract_bg.wasm')) });
setReady();
setToolsLoader(() => initToolsSync({ module: readFileSync(join(__dirname, '..', 'wasm', 'output_contract_tools_bg.wasm')) }));

module.exports = { ...api, ready: Promise.resolve() };
