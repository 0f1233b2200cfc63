// The verdict tier: contract.validate(value) answers "valid" here, in JavaScript, without
// crossing into the module, when the value is plain JSON data and the contract's plan says so.
// Every other answer (invalid, or unknown) goes the module's way, which builds the canonical
// error or the TypeError exactly as before; the tier never answers "invalid" itself.
import { compilePlan, UNKNOWN } from './closures.js';
import { isPlainJson } from './json-data.js';

// `contract[tierVerdict](value)`: the tier's own answer (true, false, undefined), for tests. A
// registered symbol: the tests reach it through the bundled entries, which hold their own copy
// of this file. Not public API.
export const tierVerdict = Symbol.for('output-contract tierVerdict');
// `contract[modulePath](value)`: validate(value) with the tier left out, the reference the
// tests compare the tier with. Not public API.
export const modulePath = Symbol.for('output-contract modulePath');

/** The plan format this tier reads (src/validator/plan.rs, PLAN_VERSION). */
export const PLAN_VERSION = 1;

// Past this many module calls for one value, the whole value costs less in one call (today's
// path): the tier gives up on it, and skips the next SKIPPED values of the same contract, whose
// outputs are likely alike. An invalid value pays for the tier and then the module's path (which
// builds the error): after MISSES invalid values in a row, the tier is skipped as well.
const MAX_JUDGED = 2;
const SKIPPED = 31;
const MISSES = 4;

// The code-generating backend (codegen.js), registered by the entries whose runtimes may
// generate code (Node, Bun, Deno); absent elsewhere, so the browser and workerd bundles never
// hold it. `compile(plan, judge)` returns the verdict function or throws (then: closures).
let codegen = null;

/** Registers codegen.js's compiler (the Node and Deno entries). */
export function setCodegen(compile) {
  codegen = compile;
}

/**
 * The tier of a contract from its plan's JSON text: a function of a value that returns true
 * (valid), false (invalid) or undefined (unknown: ask the module), or null when the plan gives
 * the tier nothing to do (the dynamic scope, another version). `judge(node, value)` asks the
 * module about one node. `options.adaptive` (on unless false) gives up on values that need the
 * module often and rests after a run of invalid ones (see MAX_JUDGED, MISSES); the tests turn it
 * off to compare every verdict. `options.functions`: the contract's format functions by name
 * (a Map), which the tier calls itself. `options.codegen: false` keeps to the closures (eval-free) even
 * where code generation is registered and allowed.
 */
export function tierOf(planText, judge, options) {
  const adaptive = options?.adaptive !== false;
  const plan = JSON.parse(planText);
  if (plan.v !== PLAN_VERSION || plan.dynamic !== false) return null;
  // The contract's format functions by name, which the plan names but cannot carry.
  plan.functions = options?.functions ?? null;
  const [maxBytes, maxDepth] = plan.limits;
  const limit = adaptive ? MAX_JUDGED : Infinity;
  let calls = 0;
  let skip = 0;
  let misses = 0;
  const tier = (value) => {
    if (skip > 0) {
      skip--;
      return undefined;
    }
    calls = 0;
    try {
      if (verdict(value)) {
        misses = 0;
        return true;
      }
      // The checks stop at the first failure, which may come before a part that is not plain
      // data: such a value is the module's (its TypeError), as one that fails is.
      if (!isPlainJson(value, maxDepth, maxBytes)) return undefined;
      if (adaptive && ++misses >= MISSES) {
        misses = 0;
        skip = SKIPPED;
      }
      return false;
    } catch (e) {
      if (e === UNKNOWN) {
        if (calls > limit) skip = SKIPPED;
        return undefined;
      }
      // A stack overflow (a very deep value with a very high maxDepth) is the module's to judge.
      if (e instanceof RangeError) return undefined;
      throw e;
    }
  };
  // How many times the module was asked about a node in all (the tests count what the tier
  // answered alone).
  tier.judged = 0;
  const counted = (node, value) => {
    if (++calls > limit) throw UNKNOWN;
    tier.judged++;
    return judge(node, value);
  };
  // Which backend answers: `tier.backend`, for tests.
  let verdict = null;
  tier.backend = 'closures';
  if (codegen !== null && options?.codegen !== false) {
    try {
      verdict = codegen(plan, counted);
      tier.backend = 'codegen';
    } catch {
      // Refused by the runtime, or a plan the generator cannot render: the closures answer.
    }
  }
  verdict ??= compilePlan(plan, counted);
  return tier;
}
