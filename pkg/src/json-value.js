// A JavaScript value JSON cannot carry (a cycle, NaN or ±Infinity, a BigInt, undefined or a
// function where JSON.stringify would fail or write null) is a programming error, not an answer
// a model could repair: `jsonTextOf` throws a TypeError naming where it is. The walk that finds
// it runs only when JSON.stringify failed or wrote a `null`, so a value without one costs
// nothing more than the stringify. The walk keeps the path as keys and indices; the module
// writes it as violations write paths (`$.a['odd key'][0]`) once a problem is found.

/** Marks the TypeErrors `jsonTextOf` throws, for callers that answer them otherwise. */
export const notJson = Symbol('output-contract notJson');

import { jsonPath } from '../wasm/output_contract.js';
import { wellFormed } from './tier/json-data.js';

// A string with a lone surrogate (half of a UTF-16 pair) is no Unicode text, so no JSON text:
// JSON.stringify writes it as a `\udXXX` escape that every JSON parser, the module's too, refuses.
function loneSurrogate(s) {
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = s.charCodeAt(i + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i += 1;
    else return `U+${code.toString(16).toUpperCase()}`;
  }
  return '';
}

function what(value) {
  if (typeof value === 'bigint') return `a BigInt (${value}n)`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  return String(value);
}

// Why the value at `path` (its keys and indices) is not JSON, following JSON.stringify (toJSON,
// boxed primitives; in an object, undefined, functions and symbols are left out as it leaves
// them), or null. `ancestors` maps each object being walked to its path.
function problem(value, key, path, ancestors, inArray) {
  if (value !== null && (typeof value === 'object' || typeof value === 'bigint') && typeof value.toJSON === 'function') value = value.toJSON(key);
  if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? null : `${at(path)}: ${value} is not a JSON value`;
    case 'bigint':
      return `${at(path)}: ${what(value)} is not a JSON value`;
    case 'undefined':
    case 'function':
    case 'symbol':
      // Left out of an object; written as null in an array, and nothing at all at the root.
      return inArray || path.length === 0 ? `${at(path)}: ${what(value)} is not a JSON value` : null;
    case 'string':
      return wellFormed(value) ? null : `${at(path)}: a string with a lone surrogate (${loneSurrogate(value)}) is not a JSON value`;
    case 'object':
      break;
    default:
      return null;
  }
  if (value === null) return null;
  const seen = ancestors.get(value);
  if (seen !== undefined) return `${at(path)}: a cycle (the object at ${at(seen)} again) is not a JSON value`;
  ancestors.set(value, path.slice());
  let found = null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && found === null; i++) {
      path.push(i);
      found = problem(value[i], String(i), path, ancestors, true);
      path.pop();
    }
  } else {
    for (const k of Object.keys(value)) {
      if (!wellFormed(k)) {
        // Kept out of the path: the key cannot be written there either.
        found = `${at(path)}: a key with a lone surrogate (${loneSurrogate(k)}) is not a JSON value`;
        break;
      }
      path.push(k);
      found = problem(value[k], k, path, ancestors, false);
      path.pop();
      if (found !== null) break;
    }
  }
  ancestors.delete(value);
  return found;
}

/** A path of keys and indices as the violations' JSONPath (`$.name`, `['odd key']`, `[0]`). */
function at(path) {
  return jsonPath(JSON.stringify(path));
}

function notJsonError(message) {
  const error = new TypeError(message);
  error[notJson] = true;
  return error;
}

// A `null` JSON.stringify writes (compact) stands where a value does: after `:`, `[` or `,`,
// before `,`, `]` or `}` (or alone, the whole text). A regular expression of those six
// characters skips through the text faster than a search for `null` alone, which stops at
// every `n`; and the word inside a string ("nullable") sends fewer values to the walk.
const nullToken = /[:,[]null[,\]}]/;

/** The JSON text of `value`; throws a TypeError naming the path of what JSON cannot carry. */
export function jsonTextOf(value) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    const found = problem(value, '', [], new Map(), false);
    throw found === null ? e : notJsonError(found);
  }
  // JSON.stringify escapes a lone surrogate (`\udXXX`) and writes a pair as it is: no such
  // escape in the text, no lone surrogate in the value.
  if (text === undefined || text === 'null' || nullToken.test(text) || text.includes('\\ud')) {
    const found = problem(value, '', [], new Map(), false);
    if (found !== null) throw notJsonError(found);
    if (text === undefined) throw notJsonError(`${at([])}: ${what(value)} is not a JSON value`);
  }
  return text;
}
