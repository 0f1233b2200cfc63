#!/usr/bin/env bash
# Every test: Rust unit and integration tests (spec suite natively), then the npm package built
# from this checkout and tested in Node (API, spec suite through the package, TypeScript types),
# then the dashboard page built and tested in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh

echo "== cargo clippy (library code may not panic: the lints src/lib.rs denies)"
if cargo clippy --version >/dev/null 2>&1; then
  cargo clippy --quiet --all-targets -- -D warnings
else
  echo "== SKIPPED: cargo clippy is not installed with this toolchain"
fi

echo "== cargo test"
cargo test --quiet
echo "== JSON-Schema-Test-Suite through the Rust API"
cargo test --quiet --test spec_suite -- --nocapture 2>&1 | grep -E '^draft'

echo "== TypeScript: a consumer compiles with tsc --strict"
node_modules/.bin/tsc -p tests/types/tsconfig.json
node_modules/.bin/tsc -p tests/types/tsconfig.ai.json

echo "== node --test (the npm package; trap recovery with the test-only build)"
bash scripts/build.sh --test-trap
node --test tests/js/

# Chromium (Debian's) for the runtime test's Vite page and the dashboard tests; when it cannot be
# installed those tests say so and are skipped.
browser=1
bash scripts/browser.sh || browser=0

echo "== runtimes, from the packed tarball: Node ESM/CJS, Deno, Bun (npm binaries), workerd, Vite + Chromium"
node --test tests/runtimes/

echo "== the bundled example (examples/validate.mjs)"
node examples/validate.mjs > /dev/null

echo "== the dashboard page (www/): tsc --strict, vite build, Chromium"
npm run --silent -w www build -- --logLevel warn
if [ "$browser" = 1 ]; then
  node --test tests/browser/
  echo "browser: screenshots in target/screenshots/"
else
  echo "== SKIPPED: browser tests (see the reason browser.sh printed above)"
fi
