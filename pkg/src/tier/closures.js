// The plan (src/validator/plan.rs) compiled into closures: one per node, built on first use so
// that references (cycles included) link lazily. Eval-free: this is the form for every runtime,
// and the one a code-generating backend must agree with. A closure returns true or false for a
// value that is plain JSON data (json-data.js checked it) or throws UNKNOWN when only the
// module can tell; a node with an opcode this tier does not carry asks the module (`judge`).

import { UNKNOWN } from './json-data.js';
import { formatTester, planPatternTester } from './strings.js';

export { UNKNOWN };

// The opcodes answered here; a node with any other (content `$`, the decimal multipleOf `m`,
// timestamps `ts`, unevaluated `u`/`w`, `D`) is judged by the module at that node, and so is one
// whose pattern the plan does not mark linear or whose format strings.js does not carry.
export const CARRIED = new Set(['F', 'R', 'T', 'E', 'C', 'g', 'l', 'G', 'L', 'M', 's', 'S', '~', '%', 'i', 'I', 'U', 'A', 'c', 'q', 'o', 'O', 'P', 'pp', 'X', 'K', 'd', 'e', '&', '|', '1', '!', '?', 'j', 't', 'f', 'r', 'x', 'V', '=']);

// Below the module's MAX_DEPTH (512 nested node evaluations, src/validator/mod.rs), so that a
// chain the module would cut as `Recursion` is unknown here first. Only references can make a
// chain long: the other links follow the schema's nesting, so between two references at most
// `height + 1` nodes nest (`height`: the longest chain of other links). References are counted,
// and the tier gives up once (references + 1) × (height + 1) could pass the cap.
const DEPTH_CAP = 500;

// The nodes a keyword links to other than by reference (`R`, `j`).
function nested(k) {
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

// The longest chain of nested links below the root (Infinity when that is past the cap, or when
// nested links would loop, which the compiler never makes).
function height(nodes, root) {
  const memo = new Map();
  const walk = (n, depth) => {
    if (depth > DEPTH_CAP) return Infinity;
    const known = memo.get(n);
    if (known !== undefined) return known;
    memo.set(n, Infinity);
    let h = 0;
    const kws = nodes[n];
    if (Array.isArray(kws)) for (const k of kws) for (const c of nested(k)) h = Math.max(h, 1 + walk(c, depth + 1));
    memo.set(n, h);
    return h;
  };
  // Every node a reference reaches starts a chain too.
  let h = walk(root, 0);
  nodes.forEach((kws, n) => {
    if (Array.isArray(kws)) for (const k of kws) if (k[0] === 'R' || k[0] === 'j') h = Math.max(h, walk(k[1], 0));
  });
  return h;
}

const hasOwn = Object.hasOwn ?? ((o, k) => Object.prototype.hasOwnProperty.call(o, k));
const isArray = Array.isArray;
const isObject = (v) => typeof v === 'object' && v !== null && !isArray(v);

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

export function unique(items) {
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

function all(fns) {
  switch (fns.length) {
    case 0:
      return () => true;
    case 1:
      return fns[0];
    case 2: {
      const [a, b] = fns;
      return (v) => a(v) && b(v);
    }
    case 3: {
      const [a, b, c] = fns;
      return (v) => a(v) && b(v) && c(v);
    }
    default:
      return (v) => {
        for (let i = 0; i < fns.length; i++) if (!fns[i](v)) return false;
        return true;
      };
  }
}

/**
 * The verdict function of a plan: `verdict(value)` is true, false, or throws UNKNOWN.
 * `judge(node, value)` asks the module about one node (a boolean).
 */
export function compilePlan(plan, judge) {
  const nodes = plan.nodes;
  const fns = new Array(nodes.length);
  // The evaluation's state: node nesting, and the references being followed as [node, value]
  // pairs (a reference reached again at the same value adds nothing and passes, as in eval.rs).
  // `depth` counts the references being followed (see DEPTH_CAP).
  const state = { depth: 0, refs: [] };
  const maxRefs = Math.floor(DEPTH_CAP / (height(nodes, plan.root) + 1)) - 1;

  // Pattern testers by the plan's index, made once each (null: the module judges the pattern).
  const testers = new Map();
  const tester = (i) => {
    if (!testers.has(i)) {
      testers.set(i, planPatternTester(plan, i));
    }
    return testers.get(i);
  };

  const get = (n) => fns[n] ?? (fns[n] = build(n));
  // A link to a node, resolved when first called (the node may not be built yet: cycles).
  const link = (n) => (v) => (fns[n] ?? get(n))(v);

  function build(n) {
    const kws = nodes[n];
    if (!isArray(kws)) return () => true;
    if (!kws.every((k) => CARRIED.has(k[0]))) return delegate(n);
    const checks = kws.map((k) => keyword(k, n));
    if (checks.includes(null)) return delegate(n);
    return all(checks);
  }

  // The module judges the node at this value; the tier's own state is kept across the call,
  // which may run a custom format that validates again.
  function delegate(n) {
    return (v) => {
      const { depth, refs } = state;
      state.refs = [];
      const ok = judge(n, v);
      state.depth = depth;
      state.refs = refs;
      return ok;
    };
  }

  function follow(n) {
    const target = link(n);
    return (v) => {
      const refs = state.refs;
      for (let i = 0; i < refs.length; i += 2) if (refs[i] === n && refs[i + 1] === v) return true;
      if (++state.depth > maxRefs) throw UNKNOWN;
      refs.push(n, v);
      const ok = target(v);
      refs.length -= 2;
      state.depth--;
      return ok;
    };
  }

  function keyword(k, n) {
    switch (k[0]) {
      case 'F':
        return () => false;
      case 'R':
        return follow(k[1]);
      case 'T': {
        const mask = k[1];
        switch (mask) {
          case 16:
            return (v) => typeof v === 'string';
          case 64:
            return isObject;
          case 32:
            return isArray;
          default:
            return (v) => (typeBits(v) & mask) !== 0;
        }
      }
      case 'f': {
        const mask = k[1];
        return (v) => (typeBits(v) & mask) !== 0;
      }
      case 'E': {
        const options = k[1];
        if (options.every((o) => typeof o !== 'object' || o === null)) {
          const set = new Set(options);
          return (v) => set.has(v);
        }
        return (v) => options.some((o) => equal(o, v));
      }
      case 'C': {
        const c = k[1];
        return typeof c === 'object' && c !== null ? (v) => equal(c, v) : (v) => v === c;
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
      case 's': {
        const min = k[1];
        return (v) => typeof v !== 'string' || v.length >= 2 * min || (v.length >= min && codePoints(v) >= min);
      }
      case 'S': {
        const max = k[1];
        return (v) => typeof v !== 'string' || v.length <= max || (v.length <= 2 * max && codePoints(v) <= max);
      }
      case 'i': {
        const min = k[1];
        return (v) => !isArray(v) || v.length >= min;
      }
      case 'I': {
        const max = k[1];
        return (v) => !isArray(v) || v.length <= max;
      }
      case 'o': {
        const min = k[1];
        return (v) => !isObject(v) || Object.keys(v).length >= min;
      }
      case 'O': {
        const max = k[1];
        return (v) => !isObject(v) || Object.keys(v).length <= max;
      }
      case 'U':
        return (v) => !isArray(v) || unique(v);
      case 'A': {
        const prefix = k[1].map(link);
        const rest = k[2] === null ? null : link(k[2]);
        const p = prefix.length;
        return (v) => {
          if (!isArray(v)) return true;
          const n = v.length;
          for (let i = 0; i < p && i < n; i++) if (!prefix[i](v[i])) return false;
          if (rest !== null) for (let i = p; i < n; i++) if (!rest(v[i])) return false;
          return true;
        };
      }
      case 'c': {
        const f = link(k[1]);
        const min = k[2];
        const max = k[3] ?? Infinity;
        return (v) => {
          if (!isArray(v)) return true;
          let count = 0;
          for (let i = 0; i < v.length; i++) {
            if (f(v[i]) && ++count > max) return false;
            // Enough, and no maximum to keep counting for.
            if (count >= min && max === Infinity) return true;
          }
          return count >= min;
        };
      }
      case 'q':
      case 'r': {
        const names = k[1];
        return (v) => {
          if (!isObject(v)) return true;
          for (let i = 0; i < names.length; i++) if (!hasOwn(v, names[i])) return false;
          return true;
        };
      }
      case 'P': {
        const names = k[1].map((p) => p[0]);
        const subs = k[1].map((p) => link(p[1]));
        return (v) => {
          if (!isObject(v)) return true;
          for (let i = 0; i < names.length; i++) {
            // Plain data holds no undefined: a member read as undefined is absent, and only a
            // found one is checked for being own (`toString` is found on every object).
            const member = v[names[i]];
            if (member !== undefined && hasOwn(v, names[i]) && !subs[i](member)) return false;
          }
          return true;
        };
      }
      case '~': {
        const test = tester(k[1]);
        return test === null ? null : (v) => typeof v !== 'string' || test(v);
      }
      case '%': {
        // A built-in (two elements), a custom format's pattern (its index), a function (null).
        // A built-in may leave a string to the module (undefined): the node is judged there.
        if (k.length !== 2) {
          const test = typeof k[2] === 'number' ? tester(k[2]) : null;
          return test === null ? null : (v) => typeof v !== 'string' || test(v);
        }
        const test = formatTester(k[1]);
        if (test === null) return null;
        const ask = delegate(n);
        return (v) => {
          if (typeof v !== 'string') return true;
          const ok = test(v);
          return ok === undefined ? ask(v) : ok;
        };
      }
      case 'pp': {
        const tests = k[1].map((p) => tester(p[0]));
        if (tests.includes(null)) return null;
        const subs = k[1].map((p) => link(p[1]));
        return (v) => {
          if (!isObject(v)) return true;
          for (const name in v) {
            if (!hasOwn(v, name)) continue;
            for (let i = 0; i < tests.length; i++) if (tests[i](name) && !subs[i](v[name])) return false;
          }
          return true;
        };
      }
      case 'X': {
        const tests = k[3].map(tester);
        if (tests.includes(null)) return null;
        const f = link(k[1]);
        const names = new Set(k[2]);
        const extra = tests.length === 0 ? (name) => !names.has(name) : (name) => !names.has(name) && !tests.some((t) => t(name));
        return (v) => {
          if (!isObject(v)) return true;
          for (const name in v) if (hasOwn(v, name) && extra(name) && !f(v[name])) return false;
          return true;
        };
      }
      case 'x': {
        const allowed = new Set(k[1]);
        return (v) => {
          if (!isObject(v)) return true;
          for (const name in v) if (hasOwn(v, name) && !allowed.has(name)) return false;
          return true;
        };
      }
      case 'K': {
        const f = link(k[1]);
        // Each name is a value of its own, judged apart (a fresh evaluation in the module).
        return (v) => {
          if (!isObject(v)) return true;
          const refs = state.refs;
          state.refs = [];
          try {
            for (const name of Object.keys(v)) if (!f(name)) return false;
            return true;
          } finally {
            state.refs = refs;
          }
        };
      }
      case 'd': {
        const deps = k[1];
        return (v) => {
          if (!isObject(v)) return true;
          for (const [name, required] of deps) {
            if (!hasOwn(v, name)) continue;
            for (const r of required) if (!hasOwn(v, r)) return false;
          }
          return true;
        };
      }
      case 'e': {
        const names = k[1].map((p) => p[0]);
        const subs = k[1].map((p) => link(p[1]));
        return (v) => {
          if (!isObject(v)) return true;
          for (let i = 0; i < names.length; i++) if (hasOwn(v, names[i]) && !subs[i](v)) return false;
          return true;
        };
      }
      case '&':
        return all(k[1].map(link));
      case '|': {
        const subs = k[1].map(link);
        return (v) => {
          for (let i = 0; i < subs.length; i++) if (subs[i](v)) return true;
          return false;
        };
      }
      case '1': {
        const subs = k[1].map(link);
        return (v) => {
          let passed = 0;
          for (let i = 0; i < subs.length; i++) if (subs[i](v) && ++passed > 1) return false;
          return passed === 1;
        };
      }
      case '!': {
        const f = link(k[1]);
        return (v) => !f(v);
      }
      case '?': {
        const cond = link(k[1]);
        const then = k[2] === null ? null : link(k[2]);
        const otherwise = k[3] === null ? null : link(k[3]);
        return (v) => (cond(v) ? then === null || then(v) : otherwise === null || otherwise(v));
      }
      case 'j': {
        const f = follow(k[1]);
        const nullable = k[2];
        return (v) => (nullable && v === null) || f(v);
      }
      case 't': {
        const [, min, max, nullable] = k;
        return (v) => (nullable && v === null) || (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max);
      }
      case 'V': {
        const f = link(k[1]);
        return (v) => {
          if (!isObject(v)) return true;
          for (const name in v) if (hasOwn(v, name) && !f(v[name])) return false;
          return true;
        };
      }
      case '=': {
        const tag = k[1];
        const mapping = new Map(k[2].map(([value, n]) => [value, link(n)]));
        return (v) => {
          if (!isObject(v)) return true;
          if (!hasOwn(v, tag)) return false;
          const chosen = v[tag];
          const f = typeof chosen === 'string' ? mapping.get(chosen) : undefined;
          return f !== undefined && f(v);
        };
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
  const root = get(plan.root);
  return (value) => {
    state.depth = 0;
    state.refs = [];
    return root(value);
  };
}
