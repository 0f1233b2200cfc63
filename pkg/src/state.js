// Whether this instance's WebAssembly module is loaded, and what happens when it traps.
//
// Each entry (node, browser, deno, workerd) loads the module its own way and then calls
// setReady(); the API refuses calls before that with a clear message instead of failing inside
// the glue code.
//
// A Rust panic inside WebAssembly is a trap: the instance is left mid-call and every later call
// would fail. The panic hook (src/bindings/runtime.rs) throws the panic's message first; `afterTrap` turns
// that (or any WebAssembly.RuntimeError) into a clear Error and re-creates the instance from the
// already compiled module (the glue's `__wbg_reset_state`, scripts/build.sh), so the library stays usable. Objects of the old instance are detached
// (their memory is gone); a Contract recompiles itself on its next call, a stream cannot resume.
// PANIC_PREFIX: how the hook's message starts (src/bindings/runtime.rs, written into the glue by
// scripts/build.sh).
import { __wbg_reset_state, instanceId, PANIC_PREFIX } from '../wasm/output_contract.js';

let ready = false;
let generation = 0;

export function setReady() {
  ready = true;
}

export function assertReady() {
  if (!ready) {
    throw new Error('output-contract: the WebAssembly module is not loaded yet; `await ready` before the first call');
  }
}

/** Increases each time the instance is re-created after a trap. */
export function instanceGeneration() {
  return generation;
}

function isTrap(e) {
  return e instanceof WebAssembly.RuntimeError || (e instanceof Error && e.message.startsWith(PANIC_PREFIX));
}

/**
 * Whether a glue object (WasmContract, WasmStream, …) is gone: freed, or made by an instance that
 * trapped. The glue stamps each object with the instance that made it, and its finalizers free
 * only the current instance's (scripts/build.sh checks both), so nothing of a dead instance is
 * ever freed into the new one; no object needs to be tracked to be detached after a trap.
 */
export function detached(handle) {
  return handle.__wbg_ptr === 0 || handle.__wbg_inst !== instanceId();
}

/**
 * Called with whatever a call into the module threw: a trap re-creates the instance and becomes
 * an `Error` saying so; anything else is returned as it is.
 */
export function afterTrap(e) {
  if (!isTrap(e)) return e;
  generation += 1;
  return recreated(e, __wbg_reset_state, 'The WebAssembly instance was re-created: later calls work; contracts recompile themselves, open streams are lost.');
}

/**
 * The same for the schema tools' module (pkg/src/tools.js), whose calls leave nothing behind in
 * the instance.
 */
export function afterToolsTrap(e, reinstantiate) {
  if (!isTrap(e)) return e;
  return recreated(e, reinstantiate, "The schema tools' WebAssembly instance was re-created: later calls work.");
}

function recreated(e, reinstantiate, after) {
  let ok = true;
  try {
    reinstantiate();
  } catch {
    ok = false;
  }
  const what = e.message.startsWith(PANIC_PREFIX) ? e.message.slice(PANIC_PREFIX.length) : `WebAssembly trap: ${e.message}`;
  const error = new Error(
    ok
      ? `output-contract: internal error (${what}). ${after} Please report the input that caused it.`
      : `output-contract: internal error (${what}), and the WebAssembly instance could not be re-created.`,
    { cause: e },
  );
  error.name = 'OutputContractInternalError';
  return error;
}
