// What the verdict tier's tests share: the tests' hook, one seeded random source, generated
// schemas and values, and the comparison of both backends (generated code and closures) with the
// module on one value.
import { Contract } from 'output-contract';

/** `contract[tierVerdict](value)`: the tier's own answer, how often it asked the module, its backend. */
export const tierVerdict = Symbol.for('output-contract tierVerdict');
/** `contract[modulePath](value)`: validate(value) by the module's path alone, the tier left out. */
export const modulePath = Symbol.for('output-contract modulePath');

export const drafts = ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12'];

export function tally() {
  return { alone: 0, delegated: 0, unknown: 0 };
}

/** The schema compiled with code generation (where the runtime allows it) and without. */
export function bothBackends(schema, options) {
  const generated = Contract.compile(schema, options);
  try {
    return [generated, Contract.compile(schema, { ...options, codegen: false })];
  } catch (e) {
    generated.free();
    throw e;
  }
}

/**
 * Compares both backends with the module on one value; counts the generated code's answers
 * (alone, with node delegates, unknown) and returns a mismatch text or null.
 */
export function compare([generated, closures], value, counts, id) {
  const expected = generated.validateText(JSON.stringify(value)).valid;
  const before = generated[tierVerdict](undefined).judged;
  const a = generated[tierVerdict](value);
  const b = closures[tierVerdict](value);
  if (a.backend !== null) {
    if (a.backend !== 'codegen') return `${id}: backend ${a.backend}, not codegen`;
    if (b.backend !== 'closures') return `${id}: codegen: false gave backend ${b.backend}`;
  }
  if (a.verdict === undefined) counts.unknown++;
  else if (a.judged > before) counts.delegated++;
  else counts.alone++;
  if (a.verdict !== undefined && a.verdict !== expected) return `${id}: codegen ${a.verdict}, module ${expected}`;
  if (b.verdict !== undefined && b.verdict !== expected) return `${id}: closures ${b.verdict}, module ${expected}`;
  // Both are exact, so where both answer they agree; where one is unknown the module decides.
  for (const [name, contract] of [['generated', generated], ['closures', closures]]) {
    const got = contract.validate(value).valid;
    if (got !== expected) return `${id}: validate (${name}) ${got}, validateText ${expected}`;
  }
  return null;
}

// A small seeded generator (mulberry32): the same schemas and values on every run.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['a', 'b', 'c', '__proto__', 'toString', 'constructor', 'é', '😀'];
const STRINGS = ['', 'a', 'ab', 'abc', '😀', '😀😀', 'é', 'a😀b', 'xyz'];
const NUMBERS = [0, -0, 1, 2, 3, 1.5, -1, 0.1, 0.3, 6, 10, 2 ** 53, 1e-7, 4.5, -2.5, 100];

export function generator(seed) {
  const r = rng(seed);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const int = (n) => Math.floor(r() * n);
  const object = (entries) => {
    const o = {};
    for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, configurable: true, writable: true });
    return o;
  };

  function value(depth) {
    switch (int(depth > 2 ? 5 : 8)) {
      case 0:
        return null;
      case 1:
        return r() < 0.5;
      case 2:
        return pick(NUMBERS);
      case 3:
      case 4:
        return pick(STRINGS);
      case 5:
      case 6:
        return object(Array.from({ length: int(4) }, () => [pick(NAMES), value(depth + 1)]));
      default:
        return Array.from({ length: int(4) }, () => value(depth + 1));
    }
  }

  const TYPES = ['string', 'integer', 'number', 'object', 'array', 'null', 'boolean'];
  function schema(depth) {
    if (depth > 3 || r() < 0.15) return pick([true, false, {}, { type: pick(TYPES) }]);
    const s = {};
    for (let i = 1 + int(3); i > 0; i--) {
      switch (int(21)) {
        case 0:
          s.type = r() < 0.5 ? pick(TYPES) : [...new Set([pick(TYPES), pick(TYPES)])];
          break;
        case 1:
          s.enum = Array.from({ length: 1 + int(r() < 0.2 ? 12 : 3) }, () => (r() < 0.7 ? pick([...STRINGS, ...NUMBERS, null, true]) : value(2)));
          break;
        case 2:
          s.const = value(2);
          break;
        case 3:
          s[pick(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'])] = pick(NUMBERS);
          break;
        case 4:
          s.multipleOf = pick([1, 2, 3, 0.5]);
          break;
        case 5:
          s[pick(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'])] = int(4);
          break;
        case 6:
          s.uniqueItems = true;
          break;
        case 7:
          s.items = schema(depth + 1);
          break;
        case 8:
          s.prefixItems = [schema(depth + 1), schema(depth + 1)];
          break;
        case 9:
          s.contains = schema(depth + 1);
          if (r() < 0.5) s.minContains = int(3);
          if (r() < 0.3) s.maxContains = 1 + int(2);
          break;
        case 10:
          s.required = [...new Set([pick(NAMES), pick(NAMES)])];
          break;
        case 11:
          s.properties = Object.fromEntries([pick(NAMES), pick(NAMES)].map((n) => [n, schema(depth + 1)]));
          break;
        case 12:
          s.additionalProperties = r() < 0.4 ? false : schema(depth + 1);
          break;
        case 13:
          s.propertyNames = r() < 0.5 ? { maxLength: 1 + int(2) } : { enum: NAMES.slice(0, 2 + int(8)) };
          break;
        case 14:
          s.dependentRequired = { [pick(NAMES)]: [pick(NAMES)] };
          break;
        case 15:
          s.dependentSchemas = { [pick(NAMES)]: schema(depth + 1) };
          break;
        case 16:
          s[pick(['allOf', 'anyOf', 'oneOf'])] = [schema(depth + 1), schema(depth + 1)];
          break;
        case 17:
          s.not = schema(depth + 1);
          break;
        case 18:
          s.if = schema(depth + 1);
          s[r() < 0.5 ? 'then' : 'else'] = schema(depth + 1);
          break;
        case 19:
          s.pattern = pick(['^a', 'b$', '😀']);
          break;
        default:
          s[r() < 0.5 ? 'items' : 'additionalProperties'] = { $ref: '#' };
      }
    }
    return s;
  }
  return { value, schema };
}
