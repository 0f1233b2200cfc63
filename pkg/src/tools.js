// The schema tools — checkSchema, checkOutputSchemaConfig, compareSchemas, SchemaRegistry, the
// conversions of Standard JSON Schema's targets — are a second WebAssembly module
// (src/bindings/tools.rs), as large again as the main one, so that an
// agent that only validates never downloads or compiles them. Each entry says how to load it:
// Node, Bun, Deno and workerd synchronously on the first call; browsers asynchronously, through
// `loadSchemaTools()`, which must have settled before the first call.
import * as glue from '../wasm/output_contract_tools.js';
import { afterToolsTrap, assertReady } from './state.js';

let load = { sync: null, async: null };
let loaded = false;
let loading = null;

/** Set by each entry: `sync()` loads the module at once where that is possible, else `async()`. */
export function setToolsLoader(sync, async) {
  load = { sync, async: async ?? (() => Promise.resolve().then(sync)) };
}

/** Loads the schema tools' module; resolves at once where it loads on first use anyway. */
export function loadSchemaTools() {
  if (loaded) return Promise.resolve();
  loading ??= load.async().then(
    () => {
      loaded = true;
    },
    (e) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

/** The module's functions, loaded first if need be; each call recovers from a trap. */
export function schemaTools() {
  assertReady();
  if (!loaded) {
    if (!load.sync) {
      throw new Error(
        "output-contract: checkSchema, checkOutputSchemaConfig, compareSchemas, SchemaRegistry, validateMerged and ~standard.jsonSchema's conversions to another target are a second WebAssembly module, not loaded yet; `await loadSchemaTools()` before their first call",
      );
    }
    load.sync();
    loaded = true;
  }
  return tools;
}

const tools = Object.fromEntries(
  Object.entries(glue)
    .filter(([name, value]) => typeof value === 'function' && !name.startsWith('__') && name !== 'initSync' && name !== 'default')
    .map(([name, f]) => [
      name,
      (...args) => {
        try {
          return f(...args);
        } catch (e) {
          throw afterToolsTrap(e, glue.__wbg_reset_state);
        }
      },
    ]),
);
