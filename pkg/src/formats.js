// Custom formats (the `formats` option of Contract.compile and checkSchema), as they cross into
// the module. A RegExp or a string is a pattern, sent as its source: the module matches it with
// its own ECMA-262 engine, as it matches `pattern`, so a format judges a string the same way in
// every runtime and in the Rust library. A function stays here: the module knows it by an id and
// calls `callFormat` for each string the format applies to, for as long as a contract compiled
// with it lives (the module then calls `releaseFormat`).
import * as glue from '../wasm/output_contract.js';
import { OptionError } from './options.js';
import { instanceGeneration } from './state.js';

const functions = new Map();
let nextId = 1;
// The instance the callbacks were given to (each new instance needs them again).
let calledFrom = -1;

/**
 * What a format function threw (or did wrong) during the current call into the module, until
 * that call returns and api.js throws it (`takeFormatFailure`): the module itself only sees a
 * string that does not match, and stays consistent and usable.
 */
export let formatFailure;

/** Thrown by a call into the module whose custom format function threw (or returned a promise). */
export class FormatFunctionError extends Error {
  constructor(name, cause, message) {
    super(`output-contract: format "${name}" ${message}`, { cause });
    this.name = 'FormatFunctionError';
    this.format = name;
  }
}

function fail(name, cause, message) {
  formatFailure = new FormatFunctionError(name, cause, message);
  return false;
}

function shownThrown(e) {
  if (e instanceof Error) return e.message;
  try {
    return String(e);
  } catch {
    return 'a value that has no text';
  }
}

function callFormat(id, value) {
  // The first failure ends this call's use of the functions.
  if (formatFailure !== undefined) return false;
  const entry = functions.get(id);
  if (entry === undefined) return fail('?', undefined, 'has no function any more');
  let result;
  try {
    result = entry.fn(value);
  } catch (e) {
    return fail(entry.name, e, `threw: ${shownThrown(e)}`);
  }
  if (typeof result?.then === 'function') {
    return fail(entry.name, undefined, 'returned a promise: a format function runs synchronously and returns whether the string is of the format');
  }
  return Boolean(result);
}

function releaseFormat(id) {
  functions.delete(id);
}

/** The failure of the call into the module that just returned, cleared. */
export function takeFormatFailure() {
  const error = formatFailure;
  formatFailure = undefined;
  return error;
}

/** Gives the module the callbacks, once per instance (before a compile that needs them). */
export function formatCallbacksReady() {
  if (calledFrom === instanceGeneration()) return;
  glue.setFormatCallbacks(callFormat, releaseFormat);
  calledFrom = instanceGeneration();
}

const isRegExp = (v) => Object.prototype.toString.call(v) === '[object RegExp]';

/**
 * The options (checked already) as JSON for the module: each pattern's source, after the
 * module's engine read it (a pattern it cannot read is an OptionError naming the format), and
 * each function by a new id. `ids`: those ids, for `forgetFormats` should the module not take them;
 * `functions`: the functions by name (a Map, which the verdict tier calls), or null.
 */
export function moduleOptions(options) {
  if (options == null) return { text: '', ids: [], functions: null };
  const formats = options.formats;
  if (typeof formats !== 'object' || formats === null) return { text: JSON.stringify(options), ids: [], functions: null };
  // Entries, then an object: a format named __proto__ stays a format.
  const sent = [];
  const ids = [];
  for (const [name, format] of Object.entries(formats)) {
    if (typeof format === 'function') continue;
    const source = isRegExp(format) ? format.source : format;
    const reason = glue.patternError(source);
    if (reason !== undefined) {
      const allowed = 'a regular expression the library can match (ECMA-262, Unicode mode)';
      throw new OptionError(`formats.${name}`, allowed, `formats.${name} must be ${allowed}, got ${JSON.stringify(source)} (${reason})`);
    }
    sent.push([name, source]);
  }
  const byName = new Map();
  for (const [name, format] of Object.entries(formats)) {
    if (typeof format !== 'function') continue;
    byName.set(name, format);
    const id = nextId;
    // Ids are the module's u32s; by the time they wrap, the first are long released.
    nextId = nextId === 0xffffffff ? 1 : nextId + 1;
    functions.set(id, { name, fn: format });
    ids.push(id);
    sent.push([name, id]);
  }
  if (ids.length > 0) formatCallbacksReady();
  return { text: JSON.stringify({ ...options, formats: Object.fromEntries(sent) }), ids, functions: byName.size > 0 ? byName : null };
}

/** Forgets functions the module did not take (its compile failed) or no longer holds. */
export function forgetFormats(ids) {
  for (const id of ids) functions.delete(id);
}
