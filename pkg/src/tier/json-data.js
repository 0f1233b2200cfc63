// Whether a JavaScript value is plain JSON data the tier can judge exactly as the module would
// judge its JSON.stringify text, within the contract's output limits. Anything else (toJSON,
// boxed primitives, class instances, undefined, functions, symbols, BigInt, NaN, a lone
// surrogate, an integer beyond 2^53 whose printed digits are not the double's value, a value
// deeper or possibly longer than the limits, a cycle) is left to the module's path, which gives
// today's answer or TypeError.

const MAX_EXACT = 2 ** 53;
// `isWellFormed` is recent (Node 20, 2023 browsers); the regular expression finds the same lone
// surrogates where it is missing.
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const wellFormed = typeof String.prototype.isWellFormed === 'function' ? (s) => s.isWellFormed() : (s) => !LONE.test(s);
const ObjectProto = Object.prototype;
const ArrayProto = Array.prototype;
const hasOwn = Object.hasOwn ?? ((o, k) => ObjectProto.hasOwnProperty.call(o, k));

/**
 * True when `value` is plain JSON data whose text is at most `maxBytes` UTF-8 bytes long (an
 * upper bound is counted: 6 bytes a UTF-16 unit of a string, the longest escape) and at most
 * `maxDepth` containers deep (as the module counts depth).
 */
export function isPlainJson(value, maxDepth, maxBytes) {
  // An own toJSON is a function, which the walk refuses; an inherited one can only come from
  // the two prototypes plain data has, looked at once here rather than at each object.
  if (ObjectProto.toJSON !== undefined || ArrayProto.toJSON !== undefined) return false;
  const bytes = walk(value, maxDepth, maxBytes);
  return bytes >= 0 && bytes <= maxBytes;
}

// The bound on the value's text length in bytes, or -1 when it is not plain data (or past the
// limits). `room` is how many more containers may nest; `budget` the bytes left.
function walk(v, room, budget) {
  switch (typeof v) {
    case 'string':
      return wellFormed(v) ? v.length * 6 + 2 : -1;
    case 'number':
      // 24 bytes: the longest number JSON.stringify writes (-1.2345678901234567e-308).
      return Number.isFinite(v) && !(Math.abs(v) > MAX_EXACT && Number.isInteger(v)) ? 24 : -1;
    case 'boolean':
      return 5;
    case 'object':
      break;
    default:
      return -1;
  }
  if (v === null) return 4;
  // Bounded depth also ends a walk around a cycle.
  if (room === 0) return -1;
  let bytes = 2;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== ArrayProto) return -1;
    // A hole reads as undefined, which JSON.stringify writes as null: not plain.
    for (let i = 0; i < v.length; i++) {
      const b = walk(v[i], room - 1, budget - bytes);
      if (b < 0) return -1;
      bytes += b + 1;
      if (bytes > budget) return -1;
    }
    return bytes;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== ObjectProto && proto !== null) return -1;
  // for-in walks V8's enum cache (no array per object, as Object.keys makes); hasOwn keeps the
  // own keys Object.keys and JSON.stringify see.
  for (const k in v) {
    if (!hasOwn(v, k)) continue;
    if (!wellFormed(k)) return -1;
    const b = walk(v[k], room - 1, budget - bytes);
    if (b < 0) return -1;
    bytes += b + k.length * 6 + 4;
    if (bytes > budget) return -1;
  }
  return bytes;
}
