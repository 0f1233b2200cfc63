#!/usr/bin/env bash
# Builds the npm package in pkg/ from a clean checkout: release wasm, wasm-bindgen glue,
# wasm-opt, the CommonJS bundle and the .d.cts types. Generated files are not committed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

echo "build: cargo (release, wasm32)"
cargo build --release --lib --target wasm32-unknown-unknown --quiet

out=pkg/wasm
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" target/wasm32-unknown-unknown/release/output_contract.wasm

# The features are those rustc's wasm32 target emits by default.
node_modules/.bin/wasm-opt -Oz --strip-debug --strip-producers \
  --enable-bulk-memory --enable-reference-types --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals --enable-multivalue \
  "$out/output_contract_bg.wasm" -o "$out/output_contract_bg.wasm"

node_modules/.bin/esbuild pkg/src/cjs-entry.js --bundle --format=cjs --platform=node \
  --log-level=error --outfile="$out/api.cjs"
cp pkg/index.d.ts pkg/index.d.cts

raw=$(wc -c < "$out/output_contract_bg.wasm")
gz=$(gzip -9 -c "$out/output_contract_bg.wasm" | wc -c)
echo "build: pkg/ ready (wasm ${raw} bytes, ${gz} gzip)"
