#!/usr/bin/env bash
# A short run of every fuzz target (SECONDS_PER_TARGET, default 60), each from its committed
# seed corpus; new inputs go to target/fuzz-corpus/, so the committed seeds stay as they are.
# Prints the executions per target; a crash stops the run with the input saved under fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
seconds="${SECONDS_PER_TARGET:-60}"
export RUSTC_BOOTSTRAP=1 # cargo-fuzz needs nightly flags; the stable toolchain accepts them so
for t in parser stream extract schema validate pattern sse; do
  work="../target/fuzz-corpus/$t"
  mkdir -p "$work"
  runs=$(cargo fuzz run "$t" "$work" "corpus/$t" -- -max_total_time="$seconds" 2>&1 | tee "../target/fuzz-$t.log" | sed -n 's/^Done \([0-9]*\) runs.*/\1/p')
  echo "fuzz: $t ${runs:-?} runs in ${seconds} s, no crash"
done
