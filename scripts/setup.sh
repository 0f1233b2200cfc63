#!/usr/bin/env bash
# Installs what building and testing need on a fresh machine that has only the Rust toolchain,
# Node/npm and apt: the wasm32 target, wasm-bindgen-cli at the exact version Cargo.toml pins,
# and the npm packages (binaryen's wasm-opt, esbuild, typescript, the page's Vite and CodeMirror,
# playwright-core, and the deno, bun and workerd binaries the runtime tests use). Skips what is
# present.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "setup: adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The CLI must match the wasm-bindgen crate exactly.
want=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "setup: installing wasm-bindgen-cli $want (about 10 minutes on 2 cores)"
  # --locked fails for this version; the crate's own requirements are used.
  cargo install wasm-bindgen-cli --version "$want"
fi

# npm's binaryen, not Debian's: binaryen 108 writes modules that fail to load (externref table).
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -x node_modules/.bin/esbuild ] || [ ! -x node_modules/.bin/vite ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm build tools"
  npm ci --no-audit --no-fund --loglevel=error
fi
