#!/usr/bin/env bash
# The main job: build the npm package and the dashboard page (www/), then serve the page on
# 127.0.0.1 (PORT, default 5173). Validation runs in the page; the server only hands out files.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
npm run --silent -w www build -- --logLevel warn
port="${PORT:-5173}"
echo "demo: dashboard at http://127.0.0.1:${port}/ (Ctrl+C stops)"
exec node_modules/.bin/vite preview www --config www/vite.config.js --host 127.0.0.1 --port "$port" --strictPort
