#!/usr/bin/env bash
# Every test: Rust unit and integration tests (spec suite natively), then the npm package built
# from this checkout and tested in Node (API, spec suite through the package, TypeScript types).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh

echo "== cargo test"
cargo test --quiet
echo "== JSON-Schema-Test-Suite through the Rust API"
cargo test --quiet --test spec_suite -- --nocapture 2>&1 | grep -E '^draft'

echo "== TypeScript: a consumer compiles with tsc --strict"
node_modules/.bin/tsc -p tests/types/tsconfig.json
node_modules/.bin/tsc -p tests/types/tsconfig.ai.json

echo "== node --test (the npm package)"
node --test tests/js/
