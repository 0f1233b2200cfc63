// A Cloudflare worker using the package, copied with the examples into the tarball project of
// runtimes.test.mjs: a contract is compiled at global scope (module load, where workerd forbids
// random values), and each request runs checks.mjs. The examples are bundled as text (esbuild's
// text loader for .json and .txt).
import * as oc from 'output-contract';
import { runChecks } from './checks.mjs';
import blueprint from './examples/pr-reviewer/blueprint.json';
import valid from './examples/pr-reviewer/valid-output.json';
import invalid from './examples/pr-reviewer/invalid-output.txt';
import violations from './examples/pr-reviewer/invalid-output.violations.txt';
import suite from './examples/pr-reviewer/suite-sample.json';

// Shows the constraint is real: workerd refuses random values here, at global scope.
let globalRandom = 'allowed';
try {
  crypto.getRandomValues(new Uint8Array(1));
} catch {
  globalRandom = 'forbidden';
}
const atGlobalScope = oc.Contract.compile(JSON.parse(blueprint).output_schema, { agentId: 'global' });

// enforce's patch retries: a wrong line number, then a streamed JSON Patch whose operation is
// malformed (cut there, checked against the JSON Patch shape as it arrives), then one that fixes it.
async function patchRetry() {
  const replies = [
    valid.replace('"line": 42', '"line": "42"'),
    ['[{"op": "swap", ', '"path": "/comments/0/line", "value": 42}]'],
    ['[{"op": "replace", "path": "/comments/0/line", "value": 42}]'],
  ];
  const modes = [];
  const model = async () => {
    const reply = replies.shift();
    return typeof reply === 'string' ? reply : { stream: (async function* () { yield* reply; })() };
  };
  const options = { retry: 'patch', maxRetries: 2, abortOnEarlyViolation: true, onAttempt: (e) => modes.push(`${e.mode}:${e.outcome}`) };
  const result = await oc.enforce(atGlobalScope, model, options);
  return { status: result.status, modes, line: result.result_data?.comments[0].line };
}

export default {
  async fetch() {
    const result = runChecks(oc, { blueprint, valid, invalid, violations, suite });
    return Response.json({ globalRandom, globalScopeCompile: atGlobalScope.validateText(valid).valid, patchRetry: await patchRetry(), ...result });
  },
};
