// The plan (src/validator/plan.rs) compiled into closures: one per node, built on first use so
// that references (cycles included) link lazily. Eval-free: this is the form for every runtime,
// and the one a code-generating backend must agree with. A node's closure returns true or false,
// or throws UNKNOWN when only the module can tell (what JSON cannot carry among it); a node with
// an opcode this tier does not carry asks the module (`judge`).
//
// A node that returns true has also established that its value is plain JSON data within the
// output limits (json-data.js), as part of the checks it makes anyway: a string's check looks for
// a lone surrogate, an object's at its prototype and members, and a member no keyword constrains
// is walked plainly; the text's bound is counted on the way (`state.units`).

import { IWF, MAX_EXACT, SLOT, UNIT_BYTES, UNKNOWN, isPlainJson, isRawJson, nameUnits, plainUnits, protoEnumerable, prototypesTouched, wellFormed } from './json-data.js';
import { formatTester, functionTester, planPatternTester } from './strings.js';

export { UNKNOWN };

// The opcodes answered here; a node with any other (content `$`, timestamps `ts`, unevaluated
// `u`/`w`, `D`) is judged by the module at that node, and so is one whose pattern the plan does
// not mark linear, whose format strings.js does not carry, or whose decimal multipleOf (`m`) is
// not a power of two (see `fractionBound`).
export const CARRIED = new Set(['F', 'R', 'T', 'E', 'C', 'g', 'l', 'G', 'L', 'M', 'm', 's', 'S', '~', '%', 'i', 'I', 'U', 'A', 'c', 'q', 'o', 'O', 'P', 'pp', 'X', 'K', 'd', 'e', '&', '|', '1', '!', '?', 'j', 't', 'f', 'r', 'x', 'V', '=']);

// Below the module's MAX_DEPTH (512 nested node evaluations, src/validator/mod.rs), so that a
// chain the module would cut as `Recursion` is unknown here first. Only references can make a
// chain long: the other links follow the schema's nesting, so between two references at most
// `height + 1` nodes nest (`height`: the longest chain of other links). References are counted,
// and the tier gives up once (references + 1) × (height + 1) could pass the cap.
const DEPTH_CAP = 500;

// The nodes a keyword links to other than by reference (`R`, `j`).
export function nested(k) {
  switch (k[0]) {
    case 'A':
      return k[2] === null ? k[1] : [...k[1], k[2]];
    case 'P':
    case 'pp':
    case 'e':
      return k[1].map((p) => p[1]);
    case '=':
      return k[2].map((p) => p[1]);
    case '&':
    case '|':
    case '1':
      return k[1];
    case '?':
      return k.slice(1).filter((n) => n !== null);
    case 'c':
    case 'X':
    case 'K':
    case '!':
    case 'u':
    case 'w':
    case 'V':
      return [k[1]];
    default:
      return [];
  }
}

/**
 * The longest chain of links (`linksOf(keyword)`, node numbers) from a node, as a function of
 * the node; Infinity when the chain is past DEPTH_CAP or the links loop. One memo serves every
 * node asked about. Shared by both backends (codegen.js asks with references too).
 */
export function chainHeights(nodes, linksOf) {
  const memo = new Map();
  const walk = (n, depth) => {
    if (depth > DEPTH_CAP) return Infinity;
    const known = memo.get(n);
    if (known !== undefined) return known;
    // Met again while its own chain is walked: a loop.
    memo.set(n, Infinity);
    let h = 0;
    const kws = nodes[n];
    if (isArray(kws)) {
      for (const k of kws) {
        if (!isArray(k)) continue;
        for (const c of linksOf(k)) {
          h = Math.max(h, 1 + walk(c, depth + 1));
          if (h === Infinity) return h;
        }
      }
    }
    memo.set(n, h);
    return h;
  };
  return (root) => walk(root, 0);
}

// The longest chain of nested links below the root or below any node a reference reaches
// (Infinity when that is past the cap, or when nested links would loop, which the compiler
// never makes).
function height(nodes, root) {
  const heightOf = chainHeights(nodes, nested);
  let h = heightOf(root);
  nodes.forEach((kws) => {
    if (isArray(kws)) for (const k of kws) if (k[0] === 'R' || k[0] === 'j') h = Math.max(h, heightOf(k[1]));
  });
  return h;
}

const hasOwn = Object.hasOwn ?? ((o, k) => Object.prototype.hasOwnProperty.call(o, k));
const isArray = Array.isArray;

// JSON Schema's type bits for a value (compile.rs): an integer is a number too.
function typeBits(v) {
  switch (typeof v) {
    case 'string':
      return 16;
    case 'number':
      return Number.isInteger(v) ? 12 : 8;
    case 'boolean':
      return 2;
    case 'object':
      return v === null ? 1 : isArray(v) ? 32 : 64;
    default:
      return 0;
  }
}

/** Equality as enum, const and uniqueItems mean it: 1 equals 1.0, members in any order. */
export function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const arr = isArray(a);
  if (arr !== isArray(b)) return false;
  if (arr) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (!hasOwn(b, k) || !equal(a[k], b[k])) return false;
  return true;
}

// A text equal values share (members sorted), for uniqueItems on long arrays.
function canonical(v) {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (isArray(v)) return `[${v.map(canonical).join(',')}]`;
  return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
}

export function uniqueItems(items) {
  const n = items.length;
  if (n <= 24) {
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (equal(items[i], items[j])) return false;
    return true;
  }
  const scalars = new Set();
  const texts = new Set();
  for (const item of items) {
    const set = typeof item === 'object' && item !== null ? texts : scalars;
    const key = set === texts ? canonical(item) : item;
    if (set.has(key)) return false;
    set.add(key);
  }
  return true;
}

// Length in code points (the strings are well formed).
export function codePoints(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      n--;
      i++;
    }
  }
  return n;
}

/**
 * For a multipleOf of 2^-k (0.5, 0.25, … 2^-10), the magnitude below which a number is a
 * multiple exactly when `v / divisor` is an integer, as the module's decimal rule says
 * (src/validator/value.rs, on the number's shortest form): the division by a power of two is
 * exact, and below both 2^(53-k) and 10^(15-k) a number's shortest form is its exact value
 * whenever that is a multiple (at most 15 digits), and names no multiple otherwise (a multiple
 * of that size is a double of its own). 0: another divisor, the module's.
 */
export function fractionBound(divisor) {
  for (let k = 1; k <= 10; k++) if (divisor === 2 ** -k) return Math.min(2 ** (53 - k), 10 ** (15 - k));
  return 0;
}

/**
 * Whether a node can reach itself through in-place applicators alone (then a reference to it
 * keeps the cycle guard: see `follow`), as `(node) => boolean` over a plan's nodes. A delegate's
 * links are the module's affair.
 */
export function inPlaceCycle(nodes) {
  const inPlace = (n) => {
    const kws = nodes[n];
    if (!Array.isArray(kws) || !kws.every((k) => Array.isArray(k) && CARRIED.has(k[0]))) return [];
    const out = [];
    for (const k of kws) {
      switch (k[0]) {
        case 'R':
        case '!':
        case 'j':
          out.push(k[1]);
          break;
        case '&':
        case '|':
        case '1':
          if (Array.isArray(k[1])) out.push(...k[1]);
          break;
        case '?':
          out.push(k[1], k[2], k[3]);
          break;
        case 'e':
          if (Array.isArray(k[1])) for (const dep of k[1]) if (Array.isArray(dep)) out.push(dep[1]);
          break;
        case '=':
          if (Array.isArray(k[2])) for (const m of k[2]) if (Array.isArray(m)) out.push(m[1]);
          break;
        default:
      }
    }
    return out.filter((t) => Number.isSafeInteger(t) && t >= 0 && t < nodes.length);
  };
  const cycles = new Map();
  // Whether node m can reach itself through in-place applicators alone.
  const cyclic = (m) => {
    let known = cycles.get(m);
    if (known === undefined) {
      known = false;
      const seen = new Set();
      const stack = inPlace(m);
      while (stack.length > 0 && !known) {
        const t = stack.pop();
        if (t === m) known = true;
        else if (!seen.has(t)) {
          seen.add(t);
          stack.push(...inPlace(t));
        }
      }
      cycles.set(m, known);
    }
    return known;
  };
  return cyclic;
}

// The keywords that look at one kind of value only (and pass any other).
const OBJECT_OPS = new Set(['o', 'O', 'q', 'r', 'P', 'pp', 'X', 'x', 'K', 'd', 'e', 'V', '=']);
const ARRAY_OPS = new Set(['i', 'I', 'U', 'A', 'c']);
const SCALAR_OPS = new Set(['s', 'S', '~', '%', 'g', 'l', 'G', 'L', 'M', 'm']);

// How many times an object node learns a new member order (see `learn`).
const RELEARN = 16;

const ObjectProto = Object.prototype;
const ArrayProto = Array.prototype;
const { getPrototypeOf } = Object;
const { hasOwnProperty } = ObjectProto;

function all(fns) {
  switch (fns.length) {
    case 0:
      return () => true;
    case 1:
      return fns[0];
    case 2: {
      const [a, b] = fns;
      return (v, e) => a(v, e) && b(v, e);
    }
    case 3: {
      const [a, b, c] = fns;
      return (v, e) => a(v, e) && b(v, e) && c(v, e);
    }
    default:
      return (v, e) => {
        for (let i = 0; i < fns.length; i++) if (!fns[i](v, e)) return false;
        return true;
      };
  }
}

/** The same string as a property key: V8 compares two such keys by identity, where a string
 * read from the plan would be compared character by character with each key. */
export function internal(s) {
  return Object.keys({ [s]: 0 })[0];
}

/** The member order an object node expects next: `v`'s names in its order, then the others. */
export function learn(v, names) {
  const order = Object.keys(v).filter((k) => v[k] !== undefined);
  for (const name of names) if (!order.includes(name)) order.push(name);
  return order;
}

/**
 * The verdict function of a plan: `verdict(value)` is true, false, or throws UNKNOWN.
 * `judge(node, value)` asks the module about one node (a boolean).
 */
export function compilePlan(plan, judge) {
  const nodes = plan.nodes;
  const [maxBytes, maxDepth] = plan.limits;
  const fns = new Array(nodes.length);
  // The evaluation's state: the references being followed as [node, value] pairs (a reference
  // reached again at the same value adds nothing and passes, as in eval.rs), and how many
  // (`depth`, see DEPTH_CAP); the units of the text's bound (json-data.js); whether a reference
  // passed that way (then the whole value is walked at the end).
  const state = { depth: 0, refs: [], units: 0, unsure: false };
  const maxRefs = Math.floor(DEPTH_CAP / (height(nodes, plan.root) + 1)) - 1;

  // Pattern testers by the plan's index, made once each (null: the module judges the pattern).
  const testers = new Map();
  const tester = (i) => {
    if (!testers.has(i)) {
      testers.set(i, planPatternTester(plan, i));
    }
    return testers.get(i);
  };

  // A link to a node: its closure, built now; while it is being built (a cycle back to it),
  // a closure that calls it once it is.
  const link = (n) => {
    let f = fns[n];
    if (f === undefined) {
      fns[n] = (v, e) => fns[n](v, e);
      f = fns[n] = build(n);
    }
    return f;
  };
  // `x` (at depth e) walked plainly: its units counted.
  const walk = (x, e) => {
    state.units += typeof x === 'string' && (IWF ? x.isWellFormed() : wellFormed(x)) ? x.length : plainUnits(x, maxDepth - e);
    return true;
  };

  function build(n) {
    const kws = nodes[n];
    if (!isArray(kws) || kws.length === 0) return walk;
    if (!kws.every((k) => CARRIED.has(k[0]))) return delegate(n);
    let mask = 127;
    let covered = false;
    const first = [];
    const scalars = [];
    const arrays = [];
    const objects = [];
    for (const k of kws) {
      const op = k[0];
      if (op === 'T' || op === 'f') {
        mask &= k[1];
      } else if (OBJECT_OPS.has(op)) {
        objects.push(k);
      } else if (ARRAY_OPS.has(op)) {
        arrays.push(k);
      } else {
        const check = keyword(k, n);
        if (check === null) return delegate(n);
        if (SCALAR_OPS.has(op)) scalars.push(check);
        else {
          first.push(check);
          covered ||= covers(k);
        }
      }
    }
    const typeOk = mask === 127 ? null : mask;
    const before = all(first);
    const scalar = all(scalars);
    // A node of one kind only (see below) with that kind's keywords: the block tests the kind
    // itself, one call less for each value.
    const alone = first.length === 0 && !covered;
    const array = arrays.length > 0 ? arrayBlock(arrays, alone && mask === 32) : covered ? null : walk;
    let object = covered ? null : walk;
    if (objects.length > 0) {
      object = objectBlock(objects, alone && mask === 64);
      if (object === null) return delegate(n);
      if (alone && mask === 64) return object;
    }
    if (arrays.length > 0 && alone && mask === 32) return array;
    // The common shapes (one `type` and its kind's keywords; an enum) as closures of their own:
    // the general one below costs an interpreter a call for each part.
    if (first.length === 0 && !covered) {
      const hasScalar = scalars.length > 0;
      switch (mask) {
        case 16:
          return (v, e) => {
            if (typeof v !== 'string') return false;
            if (!(IWF ? v.isWellFormed() : wellFormed(v))) throw UNKNOWN;
            state.units += v.length;
            return !hasScalar || scalar(v, e);
          };
        case 4:
        case 8:
        case 12:
          return (v, e) => {
            if (typeof v !== 'number' || (mask === 4 && !Number.isInteger(v))) return false;
            if (!(v >= -MAX_EXACT && v <= MAX_EXACT)) throw UNKNOWN;
            return !hasScalar || scalar(v, e);
          };
        case 2:
          return (v) => typeof v === 'boolean';
        case 32:
          return (v, e) => isArray(v) && array(v, e);
        case 64:
          return (v, e) => typeof v === 'object' && v !== null && !isArray(v) && object(v, e);
        default:
      }
    }
    if (first.length === 1 && covered && scalars.length === 0 && arrays.length === 0 && objects.length === 0) {
      const only = first[0];
      return typeOk === null ? only : (v, e) => (typeBits(v) & typeOk) !== 0 && only(v, e);
    }
    return (v, e) => {
      if (typeOk !== null && (typeBits(v) & typeOk) === 0) return false;
      if (!before(v, e)) return false;
      switch (typeof v) {
        case 'string':
          if (!covered) {
            if (!(IWF ? v.isWellFormed() : wellFormed(v))) throw UNKNOWN;
            state.units += v.length;
          }
          return scalar(v, e);
        case 'number':
          if (!covered && !(v >= -MAX_EXACT && v <= MAX_EXACT)) throw UNKNOWN;
          return scalar(v, e);
        case 'boolean':
          return true;
        case 'object':
          if (v === null) return true;
          if (isArray(v)) return array === null || array(v, e);
          return object === null || object(v, e);
        default:
          // Not plain data (undefined, a function, a symbol, a BigInt): unless `type` refused
          // it already, or an in-place keyword covers v.
          if (!covered) throw UNKNOWN;
          return true;
      }
    };
  }

  // Whether an in-place keyword that passes has established v as plain data and counted it:
  // it matched a plain constant, or a node accepted v.
  function covers(k) {
    switch (k[0]) {
      case 'F':
      case 'R':
      case 'E':
      case 'C':
      case '|':
      case '1':
      case 'j':
        return true;
      case '&':
        return k[1].length > 0;
      case '?':
        return k[3] !== null;
      case 't':
        return Math.abs(k[1]) <= MAX_EXACT && Math.abs(k[2]) <= MAX_EXACT;
      default:
        return false;
    }
  }

  // The module judges the node at this value (walked first: the module takes its JSON text);
  // the tier's own state is kept across the call.
  function delegate(n) {
    return (v, e) => {
      walk(v, e);
      return ask(n, v);
    };
  }
  function ask(n, v) {
    const { depth, refs, units } = state;
    state.refs = [];
    const ok = judge(n, v);
    state.depth = depth;
    state.refs = refs;
    state.units = units;
    return ok;
  }

  const cyclic = inPlaceCycle(nodes);
  function follow(n) {
    const target = link(n);
    // Only a node on a cycle of in-place applicators can be met again at the same value.
    if (!cyclic(n)) {
      return (v, e) => {
        if (++state.depth > maxRefs) throw UNKNOWN;
        const ok = target(v, e);
        state.depth--;
        return ok;
      };
    }
    return (v, e) => {
      const refs = state.refs;
      for (let i = 0; i < refs.length; i += 2) {
        if (refs[i] === n && refs[i + 1] === v) {
          state.unsure = true;
          return true;
        }
      }
      if (++state.depth > maxRefs) throw UNKNOWN;
      refs.push(n, v);
      const ok = target(v, e);
      refs.length -= 2;
      state.depth--;
      return ok;
    };
  }

  // An array v's checks: its own (toJSON, prototype, depth), the keywords, and every item looked
  // at (by the item's node, or walked). `kind`: v may be any value, the block tests that it is
  // an array (else false).
  function arrayBlock(ops, kind) {
    const checks = [];
    let covered = 0;
    let unique = false;
    for (const k of ops) {
      switch (k[0]) {
        case 'i': {
          const min = k[1];
          checks.push((v) => v.length >= min);
          break;
        }
        case 'I': {
          const max = k[1];
          checks.push((v) => v.length <= max);
          break;
        }
        case 'U':
          // Last, once every item is known to be plain data (see below).
          unique = true;
          break;
        case 'A': {
          const prefix = k[1].map(link);
          const rest = k[2] === null ? null : link(k[2]);
          const p = prefix.length;
          covered = rest === null ? Math.max(covered, p) : Infinity;
          checks.push((v, e) => {
            const n = v.length;
            for (let i = 0; i < p && i < n; i++) if (!prefix[i](v[i], e + 1)) return false;
            if (rest !== null) for (let i = p; i < n; i++) if (!rest(v[i], e + 1)) return false;
            return true;
          });
          break;
        }
        case 'c': {
          const f = link(k[1]);
          const min = k[2];
          const max = k[3] ?? Infinity;
          checks.push((v, e) => {
            let count = 0;
            for (let i = 0; i < v.length; i++) {
              if (f(v[i], e + 1) && ++count > max) return false;
              // Enough, and no maximum to keep counting for.
              if (count >= min && max === Infinity) return true;
            }
            return count >= min;
          });
          break;
        }
        default:
      }
    }
    const check = all(checks);
    return (v, e) => {
      if (kind && !isArray(v)) return false;
      if (v.toJSON !== undefined || getPrototypeOf(v) !== ArrayProto || e >= maxDepth) throw UNKNOWN;
      const n = v.length;
      state.units += SLOT * n;
      if (!check(v, e)) return false;
      for (let i = covered; i < n; i++) walk(v[i], e + 1);
      return !unique || uniqueItems(v);
    };
  }

  // An object v's checks. Each name a keyword knows is read and its member checked; one pass
  // over the keys makes sure they are all such names, in the order last seen (then nothing else
  // is there), or else looks at each other key. A member no keyword constrains is walked.
  // `kind`: v may be any value, the block tests that it is an object (else false).
  function objectBlock(ops, kind) {
    const names = [];
    const props = [];
    const required = new Set();
    const patterns = [];
    let extra = null;
    let closed = null;
    let values = null;
    const rest = [];
    const name = (s) => {
      if (!names.includes(s)) names.push(s);
    };
    for (const k of ops) {
      switch (k[0]) {
        case 'P':
          for (const [s, m] of k[1]) {
            name(s);
            props.push([s, link(m)]);
          }
          break;
        case 'q':
        case 'r':
          for (const s of k[1]) {
            name(s);
            required.add(s);
          }
          break;
        case 'pp':
          for (const [i, m] of k[1]) {
            const test = tester(i);
            if (test === null) return null;
            patterns.push([test, link(m)]);
          }
          break;
        case 'X': {
          const tests = k[3].map(tester);
          if (tests.includes(null)) return null;
          k[2].forEach(name);
          const target = nodes[k[1]];
          const refused = isArray(target) && target.length === 1 && target[0][0] === 'F';
          extra = { f: link(k[1]), listed: new Set(k[2]), tests, refused };
          break;
        }
        case 'x':
          k[1].forEach(name);
          closed = new Set(k[1]);
          break;
        case 'V':
          values = link(k[1]);
          break;
        case 'd':
          for (const [s, deps] of k[1]) {
            name(s);
            deps.forEach(name);
          }
          rest.push(k);
          break;
        case 'e':
          for (const [s] of k[1]) name(s);
          rest.push(k);
          break;
        case '=':
          name(k[1]);
          rest.push(k);
          break;
        default:
          rest.push(k);
      }
    }
    // The checks of a member by its name (and whether any keyword constrains it).
    const refuse = () => false;
    const unknown = () => {
      throw UNKNOWN;
    };
    const checksOf = (s) => {
      const out = props.filter(([p]) => p === s).map(([, f]) => f);
      let matched = false;
      for (const [test, f] of patterns) {
        if (test(s)) {
          matched = true;
          out.push(f);
        }
      }
      if (values !== null) out.push(values);
      if (extra !== null && !extra.listed.has(s) && !extra.tests.some((t) => t(s))) {
        if (extra.refused) return refuse;
        out.push(extra.f);
      }
      if (closed !== null && !closed.has(s)) return refuse;
      if (!wellFormed(s)) return unknown;
      if (out.length === 0 && !matched) return walk;
      return all(out);
    };
    const keys = names.map(internal);
    const inherited = names.map((s) => s in ObjectProto);
    const members = names.map(checksOf);
    const needed = names.map((s) => required.has(s));
    const known = new Set(names);
    const keyUnits = names.reduce((sum, s) => sum + s.length, 0);
    // A key that is none of the names: its member's checks, or refused. The common cases (a map
    // of one schema, a closed object, an open one) have closures of their own.
    const extraOnly = extra !== null && !extra.refused && extra.tests.length === 0 && patterns.length === 0 && values === null;
    const refusedOnly = (closed !== null || extra?.refused === true) && patterns.length === 0 && values === null && (extra === null || extra.tests.length === 0);
    const openOnly = extra === null && closed === null && patterns.length === 0 && values === null;
    const other = extraOnly
      ? (k, m, e) => extra.f(m, e + 1)
      : refusedOnly
        ? refuse
        : openOnly
          ? (k, m, e) => walk(m, e + 1)
          : (k, m, e) => {
      let matched = false;
      for (const [test, f] of patterns) {
        if (test(k)) {
          matched = true;
          if (!f(m, e + 1)) return false;
        }
      }
      if (values !== null && !values(m, e + 1)) return false;
      if (extra !== null && !matched && !extra.tests.some((t) => t(k))) {
        if (extra.refused || !extra.f(m, e + 1)) return false;
        return true;
      }
      if (closed !== null) return false;
      if (!matched && values === null) walk(m, e + 1);
      return true;
    };
    const anyNames = names.length > 0;
    // The pass over every key: the members the reads found are counted (`seen`), the others
    // checked; returns the count of members, or -1 when one fails.
    const learnt = patterns.length === 0 && values === null && (extra === null || extra.refused) && names.length > 0;
    let relearn = RELEARN;
    const pass = (v, e, f) => {
      let count = 0;
      let seen = 0;
      let units = 0;
      const inherits = protoEnumerable();
      for (const k in v) {
        if (inherits && !hasOwnProperty.call(v, k)) continue;
        const m = v[k];
        if (m === undefined) throw UNKNOWN;
        count++;
        if (anyNames && known.has(k)) {
          seen++;
          continue;
        }
        units += nameUnits(k) + SLOT;
        // An open object's other member (a map's, most often a string) walked without a call.
        if (openOnly) units += typeof m === 'string' && (IWF ? m.isWellFormed() : wellFormed(m)) ? m.length : plainUnits(m, maxDepth - e - 1);
        else if (!other(k, m, e)) return -1;
      }
      // A member the reads found that JSON leaves out (inherited, or not enumerable).
      if (seen !== f) throw UNKNOWN;
      state.units += units;
      return count;
    };
    const checks = rest.map((k) => objectKeyword(k));
    if (checks.includes(null)) return null;
    const more = (v, e, count) => {
      for (let i = 0; i < checks.length; i++) if (!checks[i](v, e, count)) return false;
      return true;
    };
    const size = names.length;
    const requiredCount = needed.filter(Boolean).length;
    // The members checked in one pass over the keys, while they come in the order last seen
    // (`order`, by name index); reading each by name would cost an interpreter's generic lookup.
    let order = names.map((_, i) => i);
    // The names in that order, as keys (one lookup a key less).
    let orderKeys = keys;
    const relearnFrom = (v) => {
      const seen = learn(v, names);
      order = seen.map((s) => names.indexOf(s));
      orderKeys = order.map((i) => keys[i]);
    };
    // The slow way: each name read, then the pass over every key.
    const slow = (v, e) => {
      let f = 0;
      for (let i = 0; i < size; i++) {
        const key = keys[i];
        // A name Object.prototype has is read as the object's own member only.
        const m = inherited[i] && !hasOwnProperty.call(v, key) ? undefined : v[key];
        if (m !== undefined) {
          f++;
          if (!members[i](m, e + 1)) return -1;
        } else if (needed[i]) return -1;
      }
      const count = pass(v, e, f);
      if (count >= 0) state.units += SLOT * f + keyUnits;
      return count;
    };
    return (v, e) => {
      if (kind && (typeof v !== 'object' || v === null || isArray(v))) return false;
      if (v.toJSON !== undefined) throw UNKNOWN;
      const proto = getPrototypeOf(v);
      if ((proto !== ObjectProto && (proto !== null || isRawJson(v))) || e >= maxDepth) throw UNKNOWN;
      let count = -1;
      if (learnt) {
        // Own keys only: an inherited one (a name made enumerable on Object.prototype) is not
        // the object's.
        count = 0;
        let required = 0;
        let units = 0;
        const o = order;
        const ok = orderKeys;
        let p = 0;
        const inherits = protoEnumerable();
        for (const k in v) {
          if (inherits && !hasOwnProperty.call(v, k)) {
            count = -1;
            break;
          }
          while (p < size && ok[p] !== k) p++;
          if (p === size) {
            count = -1;
            break;
          }
          const i = o[p++];
          const m = v[k];
          if (m === undefined) {
            count = -1;
            break;
          }
          // A member no keyword constrains, most often a string, walked here without a call.
          const check = members[i];
          if (check === walk) units += typeof m === 'string' && (IWF ? m.isWellFormed() : wellFormed(m)) ? m.length : plainUnits(m, maxDepth - e - 1);
          else if (!check(m, e + 1)) return false;
          if (needed[i]) required++;
          count++;
        }
        if (count >= 0) {
          if (required !== requiredCount) return false;
          state.units += SLOT * count + keyUnits + units;
        } else if (relearn > 0) {
          relearn--;
          if (Object.keys(v).every((k) => known.has(k))) relearnFrom(v);
        }
      }
      if (count < 0) count = slow(v, e);
      if (count < 0) return false;
      return more(v, e, count);
    };
  }

  // The other keywords of an object v, whose members are `count`.
  function objectKeyword(k) {
    switch (k[0]) {
      case 'o': {
        const min = k[1];
        return (v, e, count) => count >= min;
      }
      case 'O': {
        const max = k[1];
        return (v, e, count) => count <= max;
      }
      case 'K': {
        const f = link(k[1]);
        // Each name is a value of its own, judged apart (a fresh evaluation in the module).
        return (v, e) => {
          const refs = state.refs;
          state.refs = [];
          try {
            for (const name of Object.keys(v)) if (!f(name, e + 1)) return false;
            return true;
          } finally {
            state.refs = refs;
          }
        };
      }
      case 'd': {
        const deps = k[1];
        return (v) => {
          for (const [name, required] of deps) {
            if (!hasOwnProperty.call(v, name)) continue;
            for (const r of required) if (!hasOwnProperty.call(v, r)) return false;
          }
          return true;
        };
      }
      case 'e': {
        const names = k[1].map((p) => p[0]);
        const subs = k[1].map((p) => link(p[1]));
        return (v, e) => {
          for (let i = 0; i < names.length; i++) if (hasOwnProperty.call(v, names[i]) && !subs[i](v, e)) return false;
          return true;
        };
      }
      case '=': {
        const tag = k[1];
        const mapping = new Map(k[2].map(([value, n]) => [value, link(n)]));
        return (v, e) => {
          if (!hasOwnProperty.call(v, tag)) return false;
          const chosen = v[tag];
          const f = typeof chosen === 'string' ? mapping.get(chosen) : undefined;
          return f !== undefined && f(v, e);
        };
      }
      default:
        return null;
    }
  }

  // A keyword that looks at v as a whole, or at a string or number (guarded by its kind).
  function keyword(k, n) {
    switch (k[0]) {
      case 'F':
        return () => false;
      case 'R':
        return follow(k[1]);
      case 'E':
      case 'C': {
        const options = k[0] === 'E' ? k[1] : [k[1]];
        const plain = options.every((o) => o === null || typeof o === 'boolean' || (typeof o === 'string' && wellFormed(o)) || (typeof o === 'number' && o >= -MAX_EXACT && o <= MAX_EXACT));
        if (plain) {
          const set = new Set(options);
          const longest = Math.max(0, ...options.map((o) => (typeof o === 'string' ? o.length : 0)));
          return (v) => {
            if (!set.has(v)) return false;
            state.units += longest;
            return true;
          };
        }
        // A container (or a constant that is not plain itself): compared by value, then walked.
        return (v, e) => options.some((o) => equal(o, v)) && walk(v, e);
      }
      case 'g': {
        const x = k[1];
        return (v) => typeof v !== 'number' || v >= x;
      }
      case 'l': {
        const x = k[1];
        return (v) => typeof v !== 'number' || v <= x;
      }
      case 'G': {
        const x = k[1];
        return (v) => typeof v !== 'number' || v > x;
      }
      case 'L': {
        const x = k[1];
        return (v) => typeof v !== 'number' || v < x;
      }
      case 'M': {
        const m = k[1];
        return (v) => {
          if (typeof v !== 'number') return true;
          if (Number.isInteger(v)) return v % m === 0;
          // A fraction is never a multiple of an integer in the module's decimal rule; below
          // 1e-5 its scaled form may overflow there and a float division decides: the module's.
          if (Math.abs(v) >= 1e-5) return false;
          throw UNKNOWN;
        };
      }
      case 'm': {
        const d = k[1];
        const bound = fractionBound(d);
        if (bound === 0) return null;
        return (v) => {
          if (typeof v !== 'number') return true;
          if (!(Math.abs(v) < bound)) throw UNKNOWN;
          return Number.isInteger(v / d);
        };
      }
      case 's': {
        const min = k[1];
        return (v) => typeof v !== 'string' || v.length >= 2 * min || (v.length >= min && codePoints(v) >= min);
      }
      case 'S': {
        const max = k[1];
        return (v) => typeof v !== 'string' || v.length <= max || (v.length <= 2 * max && codePoints(v) <= max);
      }
      case '~': {
        const test = tester(k[1]);
        return test === null ? null : (v) => typeof v !== 'string' || test(v);
      }
      case '%': {
        // A built-in (two elements), a custom format's pattern (its index), a function (null).
        // A built-in may leave a string to the module (undefined): the node is judged there.
        if (k.length !== 2) {
          const test = typeof k[2] === 'number' ? tester(k[2]) : functionTester(plan, k[1]);
          return test === null ? null : (v) => typeof v !== 'string' || test(v);
        }
        const test = formatTester(k[1]);
        if (test === null) return null;
        return (v) => {
          if (typeof v !== 'string') return true;
          const ok = test(v);
          return ok === undefined ? ask(n, v) : ok;
        };
      }
      case '&':
        return all(k[1].map(link));
      case '|': {
        const subs = k[1].map(link);
        return (v, e) => {
          for (let i = 0; i < subs.length; i++) if (subs[i](v, e)) return true;
          return false;
        };
      }
      case '1': {
        const subs = k[1].map(link);
        return (v, e) => {
          let passed = 0;
          for (let i = 0; i < subs.length; i++) if (subs[i](v, e) && ++passed > 1) return false;
          return passed === 1;
        };
      }
      case '!': {
        const f = link(k[1]);
        return (v, e) => !f(v, e);
      }
      case '?': {
        const cond = link(k[1]);
        const then = k[2] === null ? null : link(k[2]);
        const otherwise = k[3] === null ? null : link(k[3]);
        return (v, e) => (cond(v, e) ? then === null || then(v, e) : otherwise === null || otherwise(v, e));
      }
      case 'j': {
        const f = follow(k[1]);
        const nullable = k[2];
        return (v, e) => (nullable && v === null) || f(v, e);
      }
      case 't': {
        const [, min, max, nullable] = k;
        return (v) => (nullable && v === null) || (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max);
      }
      default:
        return null;
    }
  }

  // A schema nested deeper than the cap without references: only the module can tell.
  if (maxRefs < 0) {
    return () => {
      throw UNKNOWN;
    };
  }
  const root = link(plan.root);
  return (value) => {
    // JSON.stringify would call a toJSON found on the prototypes plain data has.
    if (prototypesTouched()) throw UNKNOWN;
    state.depth = 0;
    state.refs = [];
    state.units = SLOT;
    state.unsure = false;
    if (!root(value, 0)) return false;
    // A reference passed without looking (see `follow`): the whole value is walked.
    if (state.unsure) {
      if (!isPlainJson(value, maxDepth, maxBytes)) throw UNKNOWN;
      return true;
    }
    if (state.units * UNIT_BYTES > maxBytes) throw UNKNOWN;
    return true;
  };
}
