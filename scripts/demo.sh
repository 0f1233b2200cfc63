#!/usr/bin/env bash
# The main job: build the npm package and validate the pr-reviewer example through it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
node examples/validate.mjs
