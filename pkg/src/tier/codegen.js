// The plan (src/validator/plan.rs) compiled into JavaScript source: one function per node, all
// in one generated scope (so references, cycles included, are plain calls), instantiated with
// `new Function`. The only place in the package that generates code; only the Node, Bun and Deno
// entries register it (index.js's setCodegen), and closures.js stays the reference semantics:
// the same opcodes are carried, the same nodes delegated, the same true / false / UNKNOWN given.
//
// Safety: nothing from the plan is spliced into the source but through `str` (a string as its
// JSON.stringify literal), `num` (a finite number as String(n); anything else is a constant
// passed in by index) and node numbers checked to be indexes. Identifiers are generated (`n3`,
// `r3`), never taken from the schema. A plan this file cannot render raises, and the caller
// falls back to the closures.
import { CARRIED, UNKNOWN, codePoints, equal, unique } from './closures.js';
import { formatTester, planPatternTester } from './strings.js';

// The opcodes carried are closures.js's (CARRIED): any other is judged by the module at its node.

// Keywords that only look at one kind of value (and pass any other): emitted together under one
// test of the kind, or alone when the node's `type` already settles the kind.
const OBJECT_OPS = new Set(['o', 'O', 'q', 'r', 'P', 'pp', 'X', 'x', 'K', 'd', 'e', 'V', '=']);
const ARRAY_OPS = new Set(['i', 'I', 'U', 'A', 'c']);
const STRING_OPS = new Set(['s', 'S', '~', '%']);
const NUMBER_OPS = new Set(['g', 'l', 'G', 'L', 'M']);

// closures.js's DEPTH_CAP: node evaluations nested, counted alike.
const DEPTH_CAP = 500;

// Up to this many names, members are tested by reading them (see `has` below).
const MAX_READ_NAMES = 32;

// Up to this many names or scalar options, a chain of `===`; beyond, a Set.
const SMALL = 8;

const { hasOwnProperty } = Object.prototype;

const IS_OBJECT = 'typeof v === "object" && v !== null && !isArray(v)';

/** Whether this runtime lets code be generated from strings (asked once). */
let allowed;
export function codegenAllowed() {
  if (allowed === undefined) {
    try {
      allowed = new Function('return 1')() === 1;
    } catch {
      // EvalError: a content security policy, --disallow-code-generation-from-strings, workerd.
      allowed = false;
    }
  }
  return allowed;
}

class Unrenderable extends Error {}

/** A string as a JavaScript string literal (JSON's, with U+2028/U+2029 escaped too). */
function str(s) {
  if (typeof s !== 'string') throw new Unrenderable('not a string');
  return JSON.stringify(s).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/**
 * The verdict function of a plan, as generated code: `verdict(value)` is true, false, or throws
 * UNKNOWN; `judge(node, value)` asks the module about one node. Throws when the plan cannot be
 * rendered or the runtime refuses code generation (the caller then takes the closures).
 */
export function compileCode(plan, judge, readNames = true) {
  if (!codegenAllowed()) throw new Unrenderable('code generation refused');
  const nodes = plan.nodes;
  if (!Array.isArray(nodes)) throw new Unrenderable('no nodes');
  // Values referenced from the code by index: non-finite numbers, containers, Sets.
  const constants = [];
  const constant = (x) => `K[${constants.push(x) - 1}]`;
  const num = (x) => {
    if (typeof x !== 'number') throw new Unrenderable('not a number');
    return Number.isFinite(x) ? `(${String(x)})` : constant(x);
  };
  const nat = (x) => {
    if (!Number.isSafeInteger(x) || x < 0) throw new Unrenderable('not a count');
    return String(x);
  };
  const node = (n) => {
    if (!Number.isSafeInteger(n) || n < 0 || n >= nodes.length) throw new Unrenderable('not a node');
    if (!Array.isArray(nodes[n])) return null;
    return n;
  };
  // A call of node n on `x` (one level deeper), or "true" for an unreachable (empty) node.
  const call = (n, x) => {
    const m = node(n);
    return m === null ? 'true' : `n${m}(${x}, d + 1)`;
  };
  // Pattern testers (strings.js) by the plan's index, passed in as constants: a pattern's text
  // never enters the source. null: the module judges the pattern's node.
  const testers = new Map();
  const tester = (i) => {
    if (!testers.has(i)) {
      const test = planPatternTester(plan, i);
      testers.set(i, test === null ? null : constant(test));
    }
    return testers.get(i);
  };
  const follows = new Set();
  // A reference: node n through its cycle guard (a reference met again at the same value
  // passes), which only a node on a cycle of in-place applicators can meet: any other is a call.
  const follow = (n, x) => {
    const m = node(n);
    if (m === null) return 'true';
    if (!cyclic(m)) return `n${m}(${x}, d + 1)`;
    follows.add(m);
    return `r${m}(${x}, d)`;
  };
  // The nodes each node applies to the same value (a delegate's are the module's affair).
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
  // A literal for a scalar of the plan, or null for a container.
  const scalar = (x) => {
    if (x === null) return 'null';
    if (typeof x === 'boolean') return x ? 'true' : 'false';
    if (typeof x === 'string') return str(x);
    if (typeof x === 'number') return num(x);
    return null;
  };
  // `x` is one of `names` (strings).
  const oneOfNames = (x, names) => {
    if (!names.every((s) => typeof s === 'string')) throw new Unrenderable('not a name');
    if (names.length === 0) return 'false';
    if (names.length <= SMALL) return `(${names.map((s) => `${x} === ${str(s)}`).join(' || ')})`;
    return `${constant(new Set(names))}.has(${x})`;
  };
  // Whether an object has an own member by this name, as an expression of v. Plain data holds
  // no undefined, and its objects inherit from Object.prototype or nothing: a name found there
  // takes the own-property test; any other is read, and the verdict first makes sure that
  // Object.prototype still has none of those names (`guarded`, checked once a call).
  const guarded = new Set();
  const has = (name) => {
    const lit = str(name);
    if (!readNames || name in Object.prototype) return `hasOwn(v, ${lit})`;
    guarded.add(name);
    return `v[${lit}] !== undefined`;
  };

  // The kind test a `type` mask makes, as an expression of v.
  function typeTest(mask) {
    if (!Number.isSafeInteger(mask)) throw new Unrenderable('not a mask');
    switch (mask) {
      case 16:
        return 'typeof v === "string"';
      case 64:
        return IS_OBJECT;
      case 32:
        return 'isArray(v)';
      default: {
        const parts = [];
        if (mask & 1) parts.push('v === null');
        if (mask & 2) parts.push('typeof v === "boolean"');
        if (mask & 8) parts.push('typeof v === "number"');
        else if (mask & 4) parts.push('Number.isInteger(v)');
        if (mask & 16) parts.push('typeof v === "string"');
        if (mask & 32) parts.push('isArray(v)');
        if (mask & 64) parts.push(`(${IS_OBJECT})`);
        return parts.length === 0 ? 'false' : parts.join(' || ');
      }
    }
  }

  // One keyword as statements over v (at depth d), each returning false when it fails; the
  // kind guard, where one is needed, is the caller's.
  function keyword(k, n) {
    const a = k[1];
    switch (k[0]) {
      case 'F':
        return 'return false;';
      case 'R':
        return `if (!${follow(a, 'v')}) return false;`;
      case 'T':
      case 'f':
        return `if (!(${typeTest(a)})) return false;`;
      case 'E': {
        if (!Array.isArray(a)) throw new Unrenderable('not options');
        const lits = a.map(scalar);
        if (lits.every((l) => l !== null)) {
          if (a.length === 0) return 'return false;';
          if (a.length <= SMALL) return `if (!(${lits.map((l) => `v === ${l}`).join(' || ')})) return false;`;
          return `if (!${constant(new Set(a))}.has(v)) return false;`;
        }
        const set = constant(a);
        return `{ const o = ${set}; let found = false; for (let i = 0; i < o.length; i++) if (equal(o[i], v)) { found = true; break; } if (!found) return false; }`;
      }
      case 'C': {
        const l = scalar(a);
        return l !== null ? `if (v !== ${l}) return false;` : `if (!equal(${constant(a)}, v)) return false;`;
      }
      case 'g':
        return `if (v < ${num(a)}) return false;`;
      case 'l':
        return `if (v > ${num(a)}) return false;`;
      case 'G':
        return `if (!(v > ${num(a)})) return false;`;
      case 'L':
        return `if (!(v < ${num(a)})) return false;`;
      case 'M':
        // A fraction is never a multiple of an integer in the module's decimal rule; below 1e-5
        // its scaled form may overflow there and a float division decides: the module's.
        return `if (Number.isInteger(v)) { if (v % ${num(a)} !== 0) return false; } else if (Math.abs(v) >= 1e-5) return false; else throw UNKNOWN;`;
      case 's':
        return `if (!(v.length >= ${nat(2 * a)} || (v.length >= ${nat(a)} && codePoints(v) >= ${nat(a)}))) return false;`;
      case 'S':
        return `if (!(v.length <= ${nat(a)} || (v.length <= ${nat(2 * a)} && codePoints(v) <= ${nat(a)}))) return false;`;
      case '~': {
        const test = tester(a);
        return test === null ? null : `if (!${test}(v)) return false;`;
      }
      case '%': {
        // A built-in (two elements), a custom format's pattern (its index), a function (null).
        if (k.length !== 2) {
          const test = typeof k[2] === 'number' ? tester(k[2]) : null;
          return test === null ? null : `if (!${test}(v)) return false;`;
        }
        const test = formatTester(a);
        if (test === null) return null;
        // A string the tester leaves open (undefined) is judged by the module at this node.
        return `{ const ok = ${constant(test)}(v); if (ok === false) return false; if (ok === undefined) { const saved = refs; refs = []; const judged = judge(${node(n)}, v); refs = saved; if (!judged) return false; } }`;
      }
      case 'i':
        return `if (v.length < ${nat(a)}) return false;`;
      case 'I':
        return `if (v.length > ${nat(a)}) return false;`;
      // Own enumerable names counted as Object.keys counts them, without its array, and only
      // as far as the bound needs.
      case 'o':
        return a === 0 ? '' : `{ let count = 0; for (const k in v) if (hasOwn(v, k) && ++count >= ${nat(a)}) break; if (count < ${nat(a)}) return false; }`;
      case 'O':
        return `{ let count = 0; for (const k in v) if (hasOwn(v, k) && ++count > ${nat(a)}) return false; }`;
      case 'U':
        return 'if (!unique(v)) return false;';
      case 'A': {
        if (!Array.isArray(a)) throw new Unrenderable('not items');
        const out = ['{ const len = v.length;'];
        a.forEach((n, i) => {
          const c = call(n, `v[${i}]`);
          if (c !== 'true') out.push(`if (len > ${i} && !${c}) return false;`);
        });
        if (k[2] !== null) {
          const c = call(k[2], 'v[i]');
          if (c !== 'true') out.push(`for (let i = ${a.length}; i < len; i++) if (!${c}) return false;`);
        }
        out.push('}');
        return out.join(' ');
      }
      case 'c': {
        const c = call(a, 'v[i]');
        const min = nat(k[2]);
        if (k[3] === null) {
          return `{ let count = 0; let enough = ${min} === 0; for (let i = 0; i < v.length && !enough; i++) if (${c} && ++count >= ${min}) enough = true; if (!enough) return false; }`;
        }
        const max = nat(k[3]);
        return `{ let count = 0; for (let i = 0; i < v.length; i++) if (${c} && ++count > ${max}) return false; if (count < ${min}) return false; }`;
      }
      case 'q':
      case 'r': {
        if (!Array.isArray(a)) throw new Unrenderable('not names');
        return a.map((name) => `if (!(${has(name)})) return false;`).join(' ');
      }
      case 'P': {
        if (!Array.isArray(a)) throw new Unrenderable('not properties');
        return a
          .map((p, i) => {
            if (!Array.isArray(p)) throw new Unrenderable('not a property');
            const name = str(p[0]);
            const c = call(p[1], `m${i}`);
            if (c === 'true') return '';
            const own = !readNames || p[0] in Object.prototype ? ` && hasOwn(v, ${name})` : (guarded.add(p[0]), '');
            return `{ const m${i} = v[${name}]; if (m${i} !== undefined${own} && !${c}) return false; }`;
          })
          .join(' ');
      }
      case 'pp': {
        if (!Array.isArray(a)) throw new Unrenderable('not patterns');
        const checks = a.map((p) => {
          if (!Array.isArray(p)) throw new Unrenderable('not a pattern property');
          const test = tester(p[0]);
          return test === null ? null : `if (${test}(k) && !${call(p[1], 'v[k]')}) return false;`;
        });
        if (checks.includes(null)) return null;
        return `for (const k in v) if (hasOwn(v, k)) { ${checks.join(' ')} }`;
      }
      case 'X': {
        // A name is extra when it is neither listed nor matched by one of the patterns.
        if (!Array.isArray(k[3]) || !Array.isArray(k[2])) throw new Unrenderable('not names');
        const tests = k[3].map(tester);
        if (tests.includes(null)) return null;
        const target = node(a);
        const refused = target !== null && nodes[target].length === 1 && Array.isArray(nodes[target][0]) && nodes[target][0][0] === 'F';
        const c = call(a, 'v[k]');
        if (c === 'true') return '';
        const known = [oneOfNames('k', k[2]), ...tests.map((t) => `${t}(k)`)].join(' || ');
        return `for (const k in v) if (hasOwn(v, k) && !(${known})${refused ? '' : ` && !${c}`}) return false;`;
      }
      case 'x': {
        if (!Array.isArray(a)) throw new Unrenderable('not names');
        return `for (const k in v) if (hasOwn(v, k) && !${oneOfNames('k', a)}) return false;`;
      }
      case 'K': {
        // Each name is a value of its own, judged apart (a fresh evaluation in the module).
        const c = call(a, 'k');
        if (c === 'true') return '';
        return `{ const saved = refs; refs = []; for (const k in v) if (hasOwn(v, k) && !${c}) { refs = saved; return false; } refs = saved; }`;
      }
      case 'd': {
        if (!Array.isArray(a)) throw new Unrenderable('not dependencies');
        return a
          .map((dep) => {
            if (!Array.isArray(dep) || !Array.isArray(dep[1])) throw new Unrenderable('not a dependency');
            if (dep[1].length === 0) return '';
            return `if (${has(dep[0])} && !(${dep[1].map((r) => `(${has(r)})`).join(' && ')})) return false;`;
          })
          .join(' ');
      }
      case 'e': {
        if (!Array.isArray(a)) throw new Unrenderable('not dependencies');
        return a
          .map((dep) => {
            if (!Array.isArray(dep)) throw new Unrenderable('not a dependency');
            const c = call(dep[1], 'v');
            return c === 'true' ? '' : `if (${has(dep[0])} && !${c}) return false;`;
          })
          .join(' ');
      }
      case '&':
        if (!Array.isArray(a)) throw new Unrenderable('not subschemas');
        return a.map((n) => `if (!${call(n, 'v')}) return false;`).join(' ');
      case '|':
        if (!Array.isArray(a)) throw new Unrenderable('not subschemas');
        return a.length === 0 ? 'return false;' : `if (!(${a.map((n) => call(n, 'v')).join(' || ')})) return false;`;
      case '1': {
        if (!Array.isArray(a)) throw new Unrenderable('not subschemas');
        const out = ['{ let passed = 0;'];
        for (const n of a) out.push(`if (${call(n, 'v')} && ++passed > 1) return false;`);
        out.push('if (passed !== 1) return false; }');
        return out.join(' ');
      }
      case '!':
        return `if (${call(a, 'v')}) return false;`;
      case '?': {
        const then = k[2] === null ? 'true' : call(k[2], 'v');
        const otherwise = k[3] === null ? 'true' : call(k[3], 'v');
        return `if (!(${call(a, 'v')} ? ${then} : ${otherwise})) return false;`;
      }
      case 'j':
        return `if (!(${k[2] ? 'v === null || ' : ''}${follow(a, 'v')})) return false;`;
      case 't': {
        const test = `typeof v === "number" && Number.isInteger(v) && v >= ${num(k[1])} && v <= ${num(k[2])}`;
        return `if (!(${k[3] ? 'v === null || ' : ''}(${test}))) return false;`;
      }
      case 'V': {
        const c = call(a, 'v[k]');
        return c === 'true' ? '' : `for (const k in v) if (hasOwn(v, k) && !${c}) return false;`;
      }
      case '=': {
        if (!Array.isArray(k[2])) throw new Unrenderable('not a mapping');
        const tag = str(a);
        // The first of equal tag values, as a Map built from the list keeps the last: the plan's
        // list is sorted and has each value once.
        const branches = k[2].map((m) => {
          if (!Array.isArray(m)) throw new Unrenderable('not a mapping');
          return `if (t === ${str(m[0])}) { if (!${call(m[1], 'v')}) return false; }`;
        });
        branches.push('return false;');
        return `if (!(${has(a)})) return false; { const t = v[${tag}]; ${branches.join(' else ')} }`;
      }
      default:
        return null;
    }
  }

  // A node's function: its keywords, kind-guarded, or a delegate to the module.
  function nodeFunction(n, kws) {
    const delegate = `function n${n}(v) { const saved = refs; refs = []; const ok = judge(${n}, v); refs = saved; return ok; }`;
    if (!kws.every((k) => Array.isArray(k) && CARRIED.has(k[0]))) return delegate;
    const first = [];
    const groups = { object: [], array: [], string: [], number: [] };
    let kind = null;
    for (const k of kws) {
      const code = keyword(k, n);
      if (code === null) return delegate;
      if (code === '') continue;
      const op = k[0];
      if (op === 'T' || op === 'F') {
        first.unshift(code);
        if (op === 'T') kind = { 4: 'number', 8: 'number', 12: 'number', 16: 'string', 32: 'array', 64: 'object' }[k[1]] ?? kind;
      } else if (OBJECT_OPS.has(op)) groups.object.push(code);
      else if (ARRAY_OPS.has(op)) groups.array.push(code);
      else if (STRING_OPS.has(op)) groups.string.push(code);
      else if (NUMBER_OPS.has(op)) groups.number.push(code);
      else first.push(code);
    }
    const tests = { object: IS_OBJECT, array: 'isArray(v)', string: 'typeof v === "string"', number: 'typeof v === "number"' };
    const body = [...first];
    for (const [g, codes] of Object.entries(groups)) {
      if (codes.length === 0) continue;
      // Known by `type`: the others' keywords pass vacuously.
      if (kind !== null) {
        if (kind === g) body.push(...codes);
      } else {
        body.push(`if (${tests[g]}) { ${codes.join(' ')} }`);
      }
    }
    return `function n${n}(v, d) { if (d > ${DEPTH_CAP}) throw UNKNOWN; ${body.join(' ')} return true; }`;
  }

  const fns = [];
  nodes.forEach((kws, n) => {
    if (Array.isArray(kws)) fns.push(nodeFunction(n, kws));
  });
  for (const m of follows) {
    fns.push(`function r${m}(v, d) { const r = refs; for (let i = 0; i < r.length; i += 2) if (r[i] === ${m} && r[i + 1] === v) return true; r.push(${m}, v); const ok = n${m}(v, d + 1); r.length -= 2; return ok; }`);
  }
  // The check of Object.prototype costs one lookup per name on every call: past a few dozen
  // names, own-property tests cost less.
  if (guarded.size > MAX_READ_NAMES) return compileCode(plan, judge, false);
  const root = node(plan.root);
  const source = [
    '"use strict";',
    'let refs = [];',
    ...fns,
    guarded.size > 0 ? `const names = ${constant([...guarded])};` : '',
    'return function verdict(v) {',
    guarded.size > 0 ? 'for (let i = 0; i < names.length; i++) if (names[i] in objectProto) throw UNKNOWN;' : '',
    `refs.length = 0; return ${root === null ? 'true' : `n${root}(v, 1)`}; };`,
  ].join('\n');
  const make = new Function('judge', 'UNKNOWN', 'K', 'hasOwn', 'objectProto', 'isArray', 'equal', 'unique', 'codePoints', source);
  // hasOwnProperty.call, which V8 optimizes better than Object.hasOwn (in for-in loops above all).
  return make(judge, UNKNOWN, constants, (o, k) => hasOwnProperty.call(o, k), Object.prototype, Array.isArray, equal, unique, codePoints);
}
