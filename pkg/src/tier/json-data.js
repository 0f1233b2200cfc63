// Plain JSON data: what the tier can judge exactly as the module would judge its JSON.stringify
// text, within the contract's output limits. Anything else (toJSON, boxed primitives, class
// instances, raw JSON objects, undefined, functions, symbols, BigInt, NaN, a lone surrogate, an
// integer beyond 2^53 whose printed digits are not the double's value, a value deeper or
// possibly longer than the limits, a cycle) is left to the module's path, which gives today's
// answer or TypeError.
//
// Both backends establish plainness as part of their own checks (a `type: "string"` check also
// looks for a lone surrogate, an object's check also looks at its prototype); `plainUnits` walks
// only what the schema does not look into.

/** Thrown when the tier cannot answer exactly; the caller takes the module's path. */
export const UNKNOWN = Symbol('output-contract tier unknown');

/** 2^53: every finite double of greater magnitude is an integer whose digits may not be its value. */
export const MAX_EXACT = 2 ** 53;

// `isWellFormed` is recent (Node 20, 2023 browsers); the regular expression finds the same lone
// surrogates where it is missing.
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const hasIsWellFormed = typeof String.prototype.isWellFormed === 'function';
export const wellFormed = hasIsWellFormed ? (s) => s.isWellFormed() : (s) => !LONE.test(s);
// The hot paths call it themselves where it is there: V8 did not always inline the wrapper.
export const IWF = hasIsWellFormed;
const ObjectProto = Object.prototype;
const ArrayProto = Array.prototype;
const { getPrototypeOf } = Object;
const { isArray } = Array;
const { hasOwnProperty } = ObjectProto;

/**
 * Whether an object with a null prototype is JSON.rawJSON's (its text is written as it is):
 * only such objects can be, and only where the runtime has them.
 */
export const isRawJson = typeof JSON.isRawJSON === 'function' ? JSON.isRawJSON : () => false;

// The output limit is kept with a bound counted in units of 6 bytes (the longest a UTF-16 unit
// of a string can be written: `\u001f`): each UTF-16 unit of a string or a member name is one
// unit, and each value a slot of SLOT units (30 bytes: a separator, a member name's quotes and
// colon, and the value's own punctuation or the longest number JSON.stringify writes,
// -1.2345678901234567e-308).
export const SLOT = 5;
export const UNIT_BYTES = 6;

// Member names found well formed lately, by length: a value's objects mostly share their names,
// and a lookup here costs less than the check (a name equal to one found is as well formed).
const NAMES = new Array(64).fill('');

/** The units of a member name (its UTF-16 length), or throws UNKNOWN on a lone surrogate. */
export function nameUnits(k) {
  const n = k.length;
  if (NAMES[n & 63] !== k) {
    if (!(IWF ? k.isWellFormed() : wellFormed(k))) throw UNKNOWN;
    NAMES[n & 63] = k;
  }
  return n;
}

/**
 * The units (see SLOT) of plain data's text beyond its own slot, or throws UNKNOWN when `v` is
 * not plain data or holds containers more than `room` deep.
 */
export function plainUnits(v, room) {
  // The kinds by how often outputs hold them.
  if (typeof v === 'string') {
    if (IWF ? v.isWellFormed() : wellFormed(v)) return v.length;
    throw UNKNOWN;
  }
  if (typeof v === 'object') return v === null ? 0 : containerUnits(v, room);
  // Also false for NaN and ±Infinity.
  if (typeof v === 'number') {
    if (v >= -MAX_EXACT && v <= MAX_EXACT) return 0;
    throw UNKNOWN;
  }
  if (typeof v === 'boolean') return 0;
  throw UNKNOWN;
}

function containerUnits(v, room) {
  // Bounded depth also ends a walk around a cycle. An own toJSON (the prototypes' are checked
  // once a call) is looked up on its own: it may not be enumerable.
  if (room <= 0 || v.toJSON !== undefined) throw UNKNOWN;
  // Strings, the most common members, are looked at without a call.
  if (isArray(v)) {
    if (getPrototypeOf(v) !== ArrayProto) throw UNKNOWN;
    // A hole reads as undefined, which JSON.stringify writes as null: not plain.
    const n = v.length;
    let units = SLOT * n;
    for (let i = 0; i < n; i++) {
      const m = v[i];
      units += typeof m === 'string' && (IWF ? m.isWellFormed() : wellFormed(m)) ? m.length : plainUnits(m, room - 1);
    }
    return units;
  }
  const proto = getPrototypeOf(v);
  if (proto !== ObjectProto && (proto !== null || isRawJson(v))) throw UNKNOWN;
  let units = 0;
  // for-in walks V8's enum cache (no array per object, as Object.keys makes); it gives the own
  // keys Object.keys and JSON.stringify see, and the enumerable ones of the prototype, if any.
  const inherits = protoEnumerable();
  for (const k in v) {
    if (inherits && !hasOwnProperty.call(v, k)) continue;
    const m = v[k];
    units += (typeof m === 'string' && (IWF ? m.isWellFormed() : wellFormed(m)) ? m.length : plainUnits(m, room - 1)) + nameUnits(k) + SLOT;
  }
  return units;
}

/**
 * Whether Object.prototype has an enumerable key (for-in gives it after an object's own): only
 * then does a for-in over plain data test each key for ownership, a generic lookup in places.
 */
export function protoEnumerable() {
  for (const k in ObjectProto) return k !== undefined;
  return false;
}

/** Whether JSON.stringify would call a toJSON found on a prototype plain data has. */
export function prototypesTouched() {
  return ObjectProto.toJSON !== undefined || ArrayProto.toJSON !== undefined;
}

/**
 * True when `value` is plain JSON data whose text is at most `maxBytes` UTF-8 bytes long (by the
 * bound above) and at most `maxDepth` containers deep (as the module counts depth).
 */
export function isPlainJson(value, maxDepth, maxBytes) {
  if (prototypesTouched()) return false;
  try {
    return (plainUnits(value, maxDepth) + SLOT) * UNIT_BYTES <= maxBytes;
  } catch (e) {
    if (e === UNKNOWN || e instanceof RangeError) return false;
    throw e;
  }
}
