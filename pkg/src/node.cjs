'use strict';
// Node (CommonJS): the same API from a CommonJS bundle of the ESM sources (wasm/api.cjs, built
// by scripts/build.sh), loaded synchronously from disk.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { initSync, setReady, ...api } = require('../wasm/api.cjs');

initSync({ module: readFileSync(join(__dirname, '..', 'wasm', 'output_contract_bg.wasm')) });
setReady();

module.exports = { ...api, ready: Promise.resolve() };
