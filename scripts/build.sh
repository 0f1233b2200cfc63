#!/usr/bin/env bash
# Builds the npm package in pkg/ from a clean checkout: release wasm, wasm-bindgen glue,
# wasm-opt, the CommonJS bundle and the .d.cts types. Generated files are not committed.
# `--test-trap` builds instead a test-only copy of the package in target/trap-pkg/ whose wasm can
# be made to trap on purpose (feature test-trap; tests/js/trap.test.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
features=
out=pkg/wasm
if [ "${1:-}" = "--test-trap" ]; then
  features=test-trap
  out=target/trap-pkg/wasm
fi
bash scripts/setup.sh

echo "build: cargo (release, wasm32)"
# Two modules from the crate: the main one, and the schema tools' (feature tools-module,
# src/bindings/tools.rs), which pkg/src/tools.js loads on first use. Cargo keeps both builds.
release=target/wasm32-unknown-unknown/release
cargo_wasm() {
  # getrandom's custom backend (src/bindings/runtime.rs): random values may be forbidden where a
  # contract is compiled (workerd's global scope).
  # -inline-threshold=120 instead of the 250 LLVM uses at opt-level 3: LLVM copies fewer callees into their
  # callers, about 18 KB less gzip for the main module, with validation and streams as fast
  # (A/Bs of bench/README.md's size paragraph). Only the wasm builds take it.
  RUSTFLAGS='--cfg getrandom_backend="custom" -Cllvm-args=-inline-threshold=120' \
  cargo build --release --lib --target wasm32-unknown-unknown --quiet --locked --features "$1"
}

rm -rf "$out"
mkdir -p "$out"
# The package's type (ES modules) for the glue, which is loaded below.
[ "$out" = pkg/wasm ] || cp pkg/package.json "$out/.."
# --experimental-reset-state-function: the glue exports `__wbg_reset_state`, which re-creates the
# instance from the same compiled module; after a trap the instance is unusable and
# pkg/src/state.js (pkg/src/tools.js for the schema tools') calls it.
bindgen=(--target web --no-typescript --experimental-reset-state-function --out-dir "$out")
cargo_wasm tools-module
cp "$release/output_contract.wasm" "$release/output_contract_tools.wasm"
wasm-bindgen "${bindgen[@]}" "$release/output_contract_tools.wasm"
cargo_wasm "$features"
wasm-bindgen "${bindgen[@]}" "$release/output_contract.wasm"

# The values both sides of the boundary must agree on (the layout of the stream status a push
# returns, the input and chunk areas' sizes, the panic message's prefix) are defined once, in
# src/bindings/boundary.rs; the schema tools' module reports them (boundaryConstants, so the main
# module carries no code for it) and they are appended to the main module's glue as literal
# constants, which pkg/src/ imports: the per-push decoding reads no table that would have to be
# filled after the module loads. The option set is declared once too (src/bindings/options.rs)
# and written beside them.
node --input-type=module - "$out" <<'NODE'
import { appendFileSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
const out = resolve(process.argv[2]);
const glue = await import(pathToFileURL(`${out}/output_contract.js`).href);
glue.initSync({ module: readFileSync(`${out}/output_contract_bg.wasm`) });
const tools = await import(pathToFileURL(`${out}/output_contract_tools.js`).href);
tools.initSync({ module: readFileSync(`${out}/output_contract_tools_bg.wasm`) });
// pkg/src/state.js tells the objects of an instance that trapped by the instance the glue stamps
// on each (`__wbg_inst`), and relies on the glue's finalizers skipping them: a wasm-bindgen that
// did otherwise would free objects of the dead instance into the new one, so the build stops.
const glueText = readFileSync(`${out}/output_contract.js`, 'utf8');
if (!glueText.includes("Object.defineProperty(obj, '__wbg_inst', { value: __wbg_instance_id") || !glueText.includes('if (instance === __wbg_instance_id) wasm.__wbg_wasmstream_free(')) {
  throw new Error('build: the glue no longer stamps its objects with their instance (pkg/src/state.js depends on it)');
}
const constants = Object.entries(JSON.parse(tools.boundaryConstants()));
const lines = constants.map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`);
appendFileSync(
  `${out}/output_contract.js`,
  `\n// Added by scripts/build.sh: boundaryConstants() (src/bindings/boundary.rs), as literals.\n${lines.join('\n')}\n` +
    `\n// Added by scripts/build.sh: the instance objects are stamped with (pkg/src/state.js).\nexport function instanceId() {\n    return __wbg_instance_id;\n}\n` +
    `\n// Added by scripts/build.sh: the option table (option_table in src/bindings/options.rs), which\n` +
    `// pkg/src/options.js checks options from; the schema tools' module reports it.\nexport const OPTION_TABLE = ${tools.optionTable()};\n` +
    `\n// Added by scripts/build.sh: what the adapters need (adapter_constants in src/bindings/tools.rs).\nexport const ADAPTERS = ${tools.adapterConstants()};\n`,
);
NODE

if [ "$out" != pkg/wasm ]; then
  # The test-only package: the same loaders and API over the trap-capable wasm (not optimised).
  rm -rf target/trap-pkg/src
  cp -r pkg/src target/trap-pkg/
  echo "build: target/trap-pkg/ ready (test-only, traps on demand)"
  exit 0
fi

# -O3, not -Oz: validation runs ~4% faster (bench A/B on the corpus) for 150 more gzip bytes.
# -ocimfs 0: a function with one caller is not inlined into it. V8 compiles a function whole on
# its first call, so a large function made of many such (the validateText export with its error
# path) cost the cold start code it never ran: the first validation takes 2.5 ms instead of
# 3.7 (Node, fresh processes), with no measurable change to validation speed.
# The features are those rustc's wasm32 target emits by default.
for module in output_contract_bg output_contract_tools_bg; do
  node_modules/.bin/wasm-opt -O3 -ocimfs 0 --strip-debug --strip-producers \
    --enable-bulk-memory --enable-reference-types --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-multivalue \
    "$out/$module.wasm" -o "$out/$module.wasm"
done

# --keep-names: without it a class that names itself inside is renamed (`_Contract`), and that
# name shows in messages ("this Contract was freed") and to users.
node_modules/.bin/esbuild pkg/src/cjs-entry.js --bundle --format=cjs --platform=node --keep-names \
  --log-level=error --outfile="$out/api.cjs"
# Node's ESM entry as one module: Node loads each module of a graph apart, and the four of
# src/node.js cost 2.7 ms more of the cold start than this one file (import, fresh processes).
node_modules/.bin/esbuild pkg/src/node.js --bundle --format=esm --platform=node --keep-names \
  --log-level=error --outfile="$out/node.mjs"
cp pkg/index.d.ts pkg/index.d.cts
# The package's API reference, generated from the types. Its README is pkg/README.md, written for
# package users (the repository README is for contributors).
cp API.md pkg/

size() { echo "$(wc -c < "$out/$1") bytes, $(gzip -9 -c "$out/$1" | wc -c) gzip"; }
echo "build: pkg/ ready (wasm $(size output_contract_bg.wasm); schema tools' wasm $(size output_contract_tools_bg.wasm))"
