// The plan (src/validator/plan.rs) compiled into JavaScript source: one function per node, all
// in one generated scope (so references, cycles included, are plain calls), instantiated with
// `new Function`. The only place in the package that generates code; only the Node, Bun and Deno
// entries register it (index.js's setCodegen), and closures.js stays the reference semantics:
// the same opcodes are carried, the same nodes delegated, the same true / false / UNKNOWN given.
//
// Each node's function also establishes that what it accepts is plain JSON data within the
// output limits (json-data.js), as part of the checks it makes anyway: a string's check looks
// for a lone surrogate, an object's at its prototype and members, and a member no keyword
// constrains is walked plainly (`W`). So a node that returns true has looked at every part of
// its value, and the value's text bound is counted in `B` on the way.
//
// Safety: nothing from the plan is spliced into the source but through `str` (a string as its
// JSON.stringify literal), `num` (a finite number as String(n); anything else is a constant
// passed in by index) and node numbers checked to be indexes. Identifiers are generated (`n3`,
// `r3`), never taken from the schema. A plan this file cannot render raises, and the caller
// falls back to the closures.
import { CARRIED, chainHeights, codePoints, equal, fractionBound, inPlaceCycle, internal, learn, nested, uniqueItems } from './closures.js';
import { MAX_EXACT, SLOT, UNIT_BYTES, UNKNOWN, hasIsWellFormed, isPlainJson, isRawJson, plainUnits, wellFormed } from './json-data.js';
import { formatTester, functionTester, planPatternTester } from './strings.js';

// The opcodes carried are closures.js's (CARRIED): any other is judged by the module at its node.

// Keywords that only look at one kind of value (and pass any other): emitted together under one
// test of the kind, or alone when the node's `type` already settles the kind.
const OBJECT_OPS = new Set(['o', 'O', 'q', 'r', 'P', 'pp', 'X', 'x', 'K', 'd', 'e', 'V', '=']);
const ARRAY_OPS = new Set(['i', 'I', 'U', 'A', 'c']);
const STRING_OPS = new Set(['s', 'S', '~', '%']);
const NUMBER_OPS = new Set(['g', 'l', 'G', 'L', 'M', 'm']);

// closures.js's DEPTH_CAP: node evaluations nested, counted alike.
const DEPTH_CAP = 500;

// Up to this many names, members are tested by reading them (see `has` below).
const MAX_READ_NAMES = 32;

// Up to this many names or scalar options, a chain of `===`; beyond, a Set.
const SMALL = 8;

// How many times an object node learns a new member order (see `learn`).
const RELEARN = 16;

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

/** An object node's learnt order (closures.js's `learn`), then each name's place in it. */
function places(v, names) {
  const order = learn(v, names).map(internal);
  return [...order, ...names.map((s) => order.indexOf(s))];
}

/** A string as a JavaScript string literal (JSON's, with U+2028/U+2029 escaped too). */
function str(s) {
  if (typeof s !== 'string') throw new Unrenderable('not a string');
  return JSON.stringify(s).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

// Every node a keyword links to, by reference or nesting.
function links(k) {
  const out = k[0] === 'R' || k[0] === 'j' ? [k[1]] : nested(k);
  for (const c of out) if (!Number.isSafeInteger(c)) throw new Unrenderable('not a node');
  return out;
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
  const [maxBytes, maxDepth] = Array.isArray(plan.limits) ? plan.limits : [];
  if (!Number.isSafeInteger(maxBytes) || !Number.isSafeInteger(maxDepth) || maxBytes < 0 || maxDepth < 0) throw new Unrenderable('no limits');
  // Without loops, the checks nest no deeper than the plan's chain of links, below the module's
  // cap: no count is kept. With them (recursion), each function counts its nesting (`d`), and
  // references around a loop of in-place applicators keep a guard (`r…`).
  const looped = chainHeights(nodes, links)(plan.root) === Infinity;
  const params = looped ? 'v, e, d' : 'v, e';
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
    if (!Number.isSafeInteger(n) || n < 0 || n >= nodes.length || !Array.isArray(nodes[n])) throw new Unrenderable('not a node');
    return n;
  };
  // A call of node n on `x`: a member of v (`deeper`) or v itself.
  const call = (n, x, deeper) => `n${node(n)}(${x}, ${deeper ? 'e + 1' : 'e'}${looped ? ', d + 1' : ''})`;
  // `x` walked plainly, at v's depth or as a member of v (`deeper`): its units counted.
  // A string, the most common such member, is looked at here.
  const walk = (x, deeper) => `B += typeof ${x} === "string" && ${wf(x)} ? ${x}.length : W(${x}, ${maxDepth} - e${deeper ? ' - 1' : ''});`;
  const wf = (x) => (hasIsWellFormed ? `${x}.isWellFormed()` : `WF(${x})`);
  // Pattern testers (strings.js) by the plan's index, passed in as constants: a pattern's text
  // never enters the source. null: the module judges the pattern's node.
  const testers = new Map();
  const tester = (i) => {
    if (!testers.has(i)) {
      const test = planPatternTester(plan, i);
      testers.set(i, test === null ? null : { fn: test, ref: constant(test) });
    }
    return testers.get(i);
  };
  const follows = new Set();
  // A reference: node n through its cycle guard (a reference met again at the same value
  // passes), which only a node on a cycle of in-place applicators can meet: any other is a call.
  const follow = (n, x) => {
    const m = node(n);
    if (!looped || !cyclic(m)) return call(m, x, false);
    follows.add(m);
    return `r${m}(${x}, e, d)`;
  };
  // Whether node m can reach itself through in-place applicators alone.
  const cyclic = inPlaceCycle(nodes);
  // A literal for a scalar of the plan, or null for a container.
  const scalar = (x) => {
    if (x === null) return 'null';
    if (typeof x === 'boolean') return x ? 'true' : 'false';
    if (typeof x === 'string') return str(x);
    if (typeof x === 'number') return num(x);
    return null;
  };
  // Whether a scalar of the plan is plain data itself (a value equal to it is).
  const plainScalar = (x) => x === null || typeof x === 'boolean' || (typeof x === 'string' && wellFormed(x)) || (typeof x === 'number' && x >= -MAX_EXACT && x <= MAX_EXACT);
  // `x` is one of `names` (strings).
  const oneOfNames = (x, names) => {
    if (!names.every((s) => typeof s === 'string')) throw new Unrenderable('not a name');
    if (names.length === 0) return 'false';
    if (names.length <= SMALL) return `(${names.map((s) => `${x} === ${str(s)}`).join(' || ')})`;
    return `${constant(new Set(names))}.has(${x})`;
  };
  // An object's member by this name, as an expression of v (undefined when it has none). Plain
  // data holds no undefined, and its objects inherit from Object.prototype or nothing: a name
  // found there takes the own-property test; any other is read, and the verdict first makes
  // sure that Object.prototype still has none of those names (`guarded`, checked once a call).
  const guarded = new Set();
  const member = (name) => {
    const lit = str(name);
    if (!readNames || name in Object.prototype) return `(hasOwn.call(v, ${lit}) ? v[${lit}] : undefined)`;
    guarded.add(name);
    return `v[${lit}]`;
  };
  const has = (name) => `${member(name)} !== undefined`;

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

  // One keyword that looks at v as a whole (not at one kind of value) as statements over v,
  // each returning false when it fails; `covers`: when it passes, v is plain data and counted
  // (it matched a plain constant, or a node's function accepted v).
  function inPlaceKeyword(k) {
    const a = k[1];
    switch (k[0]) {
      case 'F':
        return { code: 'return false;', covers: true };
      case 'R':
        return { code: `if (!${follow(a, 'v')}) return false;`, covers: true };
      case 'E':
      case 'C': {
        const options = k[0] === 'E' ? a : [a];
        if (!Array.isArray(options)) throw new Unrenderable('not options');
        if (options.length === 0) return { code: 'return false;', covers: true };
        const lits = options.map(scalar);
        if (lits.every((l) => l !== null) && options.every(plainScalar)) {
          const longest = Math.max(0, ...options.map((o) => (typeof o === 'string' ? o.length : 0)));
          const test = options.length <= SMALL ? lits.map((l) => `v === ${l}`).join(' || ') : `${constant(new Set(options))}.has(v)`;
          return { code: `if (!(${test})) return false;${longest > 0 ? ` B += ${nat(longest)};` : ''}`, covers: true };
        }
        // A container (or a constant that is not plain itself): compared by value, then walked.
        const test = k[0] === 'C' ? `equal(${constant(a)}, v)` : `${constant(a)}.some((o) => equal(o, v))`;
        return { code: `if (!${test}) return false; ${walk('v', false)}`, covers: true };
      }
      case '&':
        if (!Array.isArray(a)) throw new Unrenderable('not subschemas');
        return { code: a.length === 0 ? '' : a.map((n) => `if (!${call(n, 'v', false)}) return false;`).join(' '), covers: a.length > 0 };
      case '|':
        if (!Array.isArray(a)) throw new Unrenderable('not subschemas');
        return { code: a.length === 0 ? 'return false;' : `if (!(${a.map((n) => call(n, 'v', false)).join(' || ')})) return false;`, covers: true };
      case '1': {
        if (!Array.isArray(a)) throw new Unrenderable('not subschemas');
        const out = ['{ let passed = 0;'];
        for (const n of a) out.push(`if (${call(n, 'v', false)} && ++passed > 1) return false;`);
        out.push('if (passed !== 1) return false; }');
        return { code: out.join(' '), covers: true };
      }
      case '!':
        return { code: `if (${call(a, 'v', false)}) return false;`, covers: false };
      case '?': {
        // A passing condition covers v; a failing one leaves it to `else`, if any.
        const then = k[2] === null ? 'true' : call(k[2], 'v', false);
        const otherwise = k[3] === null ? 'true' : call(k[3], 'v', false);
        return { code: `if (!(${call(a, 'v', false)} ? ${then} : ${otherwise})) return false;`, covers: k[3] !== null };
      }
      case 'j':
        return { code: `if (!(${k[2] ? 'v === null || ' : ''}${follow(a, 'v')})) return false;`, covers: true };
      case 't': {
        const test = `typeof v === "number" && Number.isInteger(v) && v >= ${num(k[1])} && v <= ${num(k[2])}`;
        const exact = Math.abs(k[1]) <= MAX_EXACT && Math.abs(k[2]) <= MAX_EXACT;
        return { code: `if (!(${k[3] ? 'v === null || ' : ''}(${test}))) return false;`, covers: exact };
      }
      default:
        return null;
    }
  }

  // A keyword on strings or numbers as statements over v, which is of that kind.
  function scalarKeyword(k, n) {
    const a = k[1];
    switch (k[0]) {
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
      case 'm': {
        // closures.js's fractionBound: a power-of-two divisor, below the bound.
        const bound = fractionBound(a);
        if (bound === 0) return null;
        return `if (!(Math.abs(v) < ${num(bound)})) throw UNKNOWN; if (!Number.isInteger(v / ${num(a)})) return false;`;
      }
      case 's':
        return `if (!(v.length >= ${nat(2 * a)} || (v.length >= ${nat(a)} && codePoints(v) >= ${nat(a)}))) return false;`;
      case 'S':
        return `if (!(v.length <= ${nat(a)} || (v.length <= ${nat(2 * a)} && codePoints(v) <= ${nat(a)}))) return false;`;
      case '~': {
        const test = tester(a);
        return test === null ? null : `if (!${test.ref}(v)) return false;`;
      }
      case '%': {
        // A built-in (two elements), a custom format's pattern (its index), a function (null).
        if (k.length !== 2) {
          if (typeof k[2] !== 'number') {
            const test = functionTester(plan, a);
            return test === null ? null : `if (!${constant(test)}(v)) return false;`;
          }
          const test = tester(k[2]);
          return test === null ? null : `if (!${test.ref}(v)) return false;`;
        }
        const test = formatTester(a);
        if (test === null) return null;
        // A string the tester leaves open (undefined) is judged by the module at this node.
        return `{ const ok = ${constant(test)}(v); if (ok === false) return false; if (ok === undefined && !${judged(n, 'v')}) return false; }`;
      }
      default:
        return null;
    }
  }

  // The module's verdict on node n at x, the tier's own state kept across the call.
  const judged = (n, x) => (looped ? `judgeKept(${node(n)}, ${x})` : `judge(${node(n)}, ${x})`);

  // The checks of an array v (known to be one): its own (toJSON, prototype, depth), the
  // keywords, and every item looked at (by the item's node, or walked).
  function arrayBlock(ops) {
    const out = [`if (v.toJSON !== undefined || getPrototypeOf(v) !== arrayProto || e >= ${nat(maxDepth)}) throw UNKNOWN;`, 'const len = v.length;', `B += ${SLOT} * len;`];
    let covered = 0;
    let unique = false;
    for (const k of ops) {
      const a = k[1];
      switch (k[0]) {
        case 'i':
          out.push(`if (len < ${nat(a)}) return false;`);
          break;
        case 'I':
          out.push(`if (len > ${nat(a)}) return false;`);
          break;
        case 'U':
          // Last, once every item is known to be plain data.
          unique = true;
          break;
        case 'A': {
          if (!Array.isArray(a)) throw new Unrenderable('not items');
          a.forEach((n, i) => out.push(`if (len > ${i} && !${call(n, `v[${i}]`, true)}) return false;`));
          if (k[2] !== null) {
            out.push(`for (let i = ${a.length}; i < len; i++) if (!${call(k[2], 'v[i]', true)}) return false;`);
            covered = Infinity;
          } else covered = Math.max(covered, a.length);
          break;
        }
        case 'c': {
          const c = call(a, 'v[i]', true);
          const min = nat(k[2]);
          if (k[3] === null) {
            out.push(`{ let count = 0; let enough = ${min} === 0; for (let i = 0; i < len && !enough; i++) if (${c} && ++count >= ${min}) enough = true; if (!enough) return false; }`);
          } else {
            out.push(`{ let count = 0; for (let i = 0; i < len; i++) if (${c} && ++count > ${nat(k[3])}) return false; if (count < ${min}) return false; }`);
          }
          break;
        }
        default:
          throw new Unrenderable('not an array keyword');
      }
    }
    if (covered !== Infinity) out.push(`for (let i = ${covered}; i < len; i++) ${walk('v[i]', true)}`);
    if (unique) out.push('if (!unique(v)) return false;');
    return out.join(' ');
  }

  // The checks of an object v (known to be one), in one of two shapes. With named members (and
  // no patterns or maps), each is read by name and checked, and one pass over the keys makes
  // sure they are all such names, in the order last seen (`O…`): then nothing else is there.
  // Any other object, or one with other keys, takes the pass of `s…` over every key. A member
  // no keyword constrains is walked plainly.
  const aux = [];
  let objects = 0;
  function objectBlock(n, ops) {
    const props = [];
    const required = [];
    const pattern = [];
    let extra = null;
    let closed = null;
    let values = null;
    const rest = [];
    const names = [];
    const name = (s) => {
      if (typeof s !== 'string') throw new Unrenderable('not a name');
      if (!names.includes(s)) names.push(s);
    };
    for (const k of ops) {
      const a = k[1];
      switch (k[0]) {
        case 'P':
          if (!Array.isArray(a)) throw new Unrenderable('not properties');
          for (const p of a) {
            if (!Array.isArray(p)) throw new Unrenderable('not a property');
            name(p[0]);
            props.push([p[0], node(p[1])]);
          }
          break;
        case 'q':
        case 'r':
          if (!Array.isArray(a)) throw new Unrenderable('not names');
          for (const s of a) {
            name(s);
            required.push(s);
          }
          break;
        case 'pp':
          if (!Array.isArray(a)) throw new Unrenderable('not patterns');
          for (const p of a) {
            if (!Array.isArray(p)) throw new Unrenderable('not a pattern property');
            const test = tester(p[0]);
            if (test === null) return null;
            pattern.push([test, node(p[1])]);
          }
          break;
        case 'X': {
          if (!Array.isArray(k[3]) || !Array.isArray(k[2])) throw new Unrenderable('not names');
          const tests = k[3].map(tester);
          if (tests.includes(null)) return null;
          k[2].forEach(name);
          const target = node(a);
          const refused = nodes[target].length === 1 && Array.isArray(nodes[target][0]) && nodes[target][0][0] === 'F';
          extra = { node: target, listed: k[2], tests, refused };
          break;
        }
        case 'x':
          if (!Array.isArray(a)) throw new Unrenderable('not names');
          a.forEach(name);
          closed = a;
          break;
        case 'V':
          values = node(a);
          break;
        case 'd':
          if (!Array.isArray(a)) throw new Unrenderable('not dependencies');
          for (const dep of a) {
            if (!Array.isArray(dep) || !Array.isArray(dep[1])) throw new Unrenderable('not a dependency');
            name(dep[0]);
            dep[1].forEach(name);
          }
          rest.push(k);
          break;
        case 'e':
          if (!Array.isArray(a)) throw new Unrenderable('not dependencies');
          for (const dep of a) {
            if (!Array.isArray(dep)) throw new Unrenderable('not a dependency');
            name(dep[0]);
          }
          rest.push(k);
          break;
        case '=':
          name(a);
          rest.push(k);
          break;
        default:
          rest.push(k);
      }
    }
    // What checks a member by this name (a known one at compile time, or `k` in the pass).
    const checksOf = (s, x) => {
      const out = [];
      for (const [p, m] of props) if (p === s) out.push(`if (!${call(m, x, true)}) return false;`);
      let matched = false;
      for (const [test, m] of pattern) {
        if (test.fn(s)) {
          matched = true;
          out.push(`if (!${call(m, x, true)}) return false;`);
        }
      }
      if (values !== null) out.push(`if (!${call(values, x, true)}) return false;`);
      if (extra !== null && !extra.listed.includes(s) && !extra.tests.some((t) => t.fn(s))) {
        if (extra.refused) return ['return false;'];
        out.push(`if (!${call(extra.node, x, true)}) return false;`);
      }
      if (closed !== null && !closed.includes(s)) return ['return false;'];
      // A name JSON cannot carry.
      if (!wellFormed(s)) return ['throw UNKNOWN;'];
      if (out.length === 0 && !matched) out.push(walk(x, true));
      return out;
    };
    const out = [`if (v.toJSON !== undefined) throw UNKNOWN; { const p = getPrototypeOf(v); if (p !== objectProto && (p !== null || isRawJson(v))) throw UNKNOWN; } if (e >= ${nat(maxDepth)}) throw UNKNOWN;`];
    const requiredSet = new Set(required);
    const id = objects++;
    const learnt = pattern.length === 0 && values === null && (extra === null || extra.refused) && names.length > 0;
    // Where a name is read with the own-property test, an inherited key (from an
    // Object.prototype whose names were made enumerable) is not one of the object's.
    const owned = !readNames || names.some((s) => s in Object.prototype);
    const size = names.length;
    out.push('let f = 0;');
    names.forEach((s, i) => {
      const checks = checksOf(s, `m${i}`);
      const absent = requiredSet.has(s) ? ' else return false;' : '';
      out.push(`const m${i} = ${member(s)}; if (m${i} !== undefined) { f++; ${checks.join(' ')} }${absent}`);
    });
    if (learnt) {
      // The keys, exactly the first `count` names of the order last seen (`O…`, the names in
      // that order, then each name's place in it): then every key is a name read above. The
      // pass costs one comparison a key; a name the reads found absent is then not among them
      // (else its member is undefined: `count = -1`), so that count === f proves the keys are
      // the members found, and nothing else is there.
      out.push(`const o = O${id}; let count = 0; for (const k in v) { if (${owned ? '!hasOwn.call(v, k) || ' : ''}o[count] !== k) { count = -1; break; } count++; }`);
      names.forEach((s, i) => {
        if (!requiredSet.has(s)) out.push(`if (m${i} === undefined && o[${nat(size + i)}] < count) count = -1;`);
      });
    }
    // The pass over every key: the members the reads found are counted (`seen`), the others
    // checked; returns the count of members, or -1 when one fails. Of a learnt object, it first
    // takes the keys as the names in the order last seen, some left out, each member defined.
    const other = [];
    if (values !== null) other.push(`if (!${call(values, 'm', true)}) return -1;`);
    if (pattern.length > 0) other.push(`{ let matched = false; ${pattern.map(([test, m]) => `if (${test.ref}(k)) { matched = true; if (!${call(m, 'm', true)}) return -1; }`).join(' ')}`);
    let covered = values !== null;
    if (extra !== null) {
      other.push(extra.refused ? 'return -1;' : `if (!${call(extra.node, 'm', true)}) return -1;`);
      if (pattern.length > 0) {
        // The patterns tested above: a name no pattern matched is extra.
        other[other.length - 1] = `if (!matched) ${other[other.length - 1]}`;
      }
      covered = true;
    }
    if (closed !== null) {
      other.push('return -1;');
      covered = true;
    }
    if (!covered) other.push(pattern.length > 0 ? `if (!matched) ${walk('m', true)}` : walk('m', true));
    if (pattern.length > 0) other.push('}');
    const relearn = learnt ? `if (relearn${id} > 0) { relearn${id}--; O${id} = places(v, ${constant(names)}); }` : '';
    const learning = learnt ? ` if (seen === count) ${relearn}` : '';
    // A learnt object whose keys are the names in the order last seen, some left out: it learns
    // its own order, which the fast pass then meets.
    const skipping = learnt
      ? `{ const o = O${id}; let p = 0, count = 0; for (const k in v) { if (${owned ? '!hasOwn.call(v, k) || ' : ''}v[k] === undefined) { count = -1; break; } while (p < ${size} && o[p] !== k) p++; if (p === ${size}) { count = -1; break; } p++; count++; } if (count === f) { ${relearn} return count; } } `
      : '';
    aux.push(
      `function s${id}(v, e${looped ? ', d' : ''}, f) { ${skipping}let count = 0, seen = 0; for (const k in v) { if (!hasOwn.call(v, k)) continue; const m = v[k]; if (m === undefined) throw UNKNOWN; count++; if (${oneOfNames('k', names)}) { seen++; continue; } if (!${wf('k')}) throw UNKNOWN; B += k.length + ${SLOT}; ${other.join(' ')} } if (seen !== f) throw UNKNOWN;${learning} return count; }`,
    );
    const pass = `s${id}(v, e${looped ? ', d' : ''}, f)`;
    if (learnt) {
      aux.push(`let O${id} = ${constant([...names.map(internal), ...names.map((_, i) => i)])}; let relearn${id} = ${RELEARN};`);
      out.push(`if (count !== f) count = ${pass};`);
    } else {
      out.push(`let count = ${pass};`);
    }
    const keyUnits = names.reduce((sum, s) => sum + s.length, 0);
    out.push(`if (count < 0) return false; B += ${SLOT} * f${keyUnits > 0 ? ` + ${nat(keyUnits)}` : ''};`);
    for (const k of rest) {
      const code = objectKeyword(k);
      if (code === null) return null;
      out.push(code);
    }
    return out.join(' ');
  }

  // The other keywords of an object v (whose members are counted in `count`).
  function objectKeyword(k) {
    const a = k[1];
    switch (k[0]) {
      case 'o':
        return a === 0 ? '' : `if (count < ${nat(a)}) return false;`;
      case 'O':
        return `if (count > ${nat(a)}) return false;`;
      case 'K':
        // Each name is a value of its own, judged apart (a fresh evaluation in the module).
        return looped
          ? `{ const saved = refs; refs = []; for (const k in v) if (hasOwn.call(v, k) && !${call(a, 'k', true)}) { refs = saved; return false; } refs = saved; }`
          : `for (const k in v) if (hasOwn.call(v, k) && !${call(a, 'k', true)}) return false;`;
      case 'd':
        return a
          .map((dep) => {
            if (dep[1].length === 0) return '';
            return `if (${has(dep[0])} && !(${dep[1].map((r) => `(${has(r)})`).join(' && ')})) return false;`;
          })
          .join(' ');
      case 'e':
        return a.map((dep) => `if (${has(dep[0])} && !${call(dep[1], 'v', false)}) return false;`).join(' ');
      case '=': {
        if (!Array.isArray(k[2])) throw new Unrenderable('not a mapping');
        // The first of equal tag values, as a Map built from the list keeps the last: the plan's
        // list is sorted and has each value once.
        const branches = k[2].map((m) => {
          if (!Array.isArray(m)) throw new Unrenderable('not a mapping');
          return `if (t === ${str(m[0])}) { if (!${call(m[1], 'v', false)}) return false; }`;
        });
        branches.push('return false;');
        return `{ const t = ${member(a)}; if (t === undefined) return false; ${branches.join(' else ')} }`;
      }
      default:
        return null;
    }
  }

  // A node's function: its keywords, kind-guarded, each kind's plainness looked at as the
  // keywords look at it; or a delegate to the module.
  function nodeFunction(n, kws) {
    const head = looped ? `if (d > ${DEPTH_CAP}) throw UNKNOWN;` : '';
    const delegate = `function n${n}(${params}) { ${head} ${walk('v', false)} return ${judged(n, 'v')}; }`;
    if (!kws.every((k) => Array.isArray(k) && CARRIED.has(k[0]))) return delegate;
    const first = [];
    const groups = { object: [], array: [], string: [], number: [] };
    let mask = 127;
    let covered = false;
    for (const k of kws) {
      const op = k[0];
      if (op === 'T' || op === 'f') {
        if (!Number.isSafeInteger(k[1])) throw new Unrenderable('not a mask');
        mask &= k[1];
        continue;
      }
      if (OBJECT_OPS.has(op)) groups.object.push(k);
      else if (ARRAY_OPS.has(op)) groups.array.push(k);
      else if (STRING_OPS.has(op) || NUMBER_OPS.has(op)) {
        const code = scalarKeyword(k, n);
        if (code === null) return delegate;
        (STRING_OPS.has(op) ? groups.string : groups.number).push(code);
      } else {
        const kw = inPlaceKeyword(k);
        if (kw === null) return delegate;
        if (kw.code !== '') first.push(kw.code);
        covered ||= kw.covers;
      }
    }
    // No keyword at all (`{}`, true): the value is only walked.
    if (mask === 127 && first.length === 0 && !covered && Object.values(groups).every((g) => g.length === 0)) {
      return `function n${n}(${params}) { ${head} ${walk('v', false)} return true; }`;
    }
    const body = [head];
    const typed = mask !== 127;
    if (typed) body.push(`if (!(${typeTest(mask)})) return false;`);
    body.push(...first);
    // Each kind's block: its keywords, and its plainness unless an in-place keyword covers v.
    const blocks = [];
    if (mask & 16 && (groups.string.length > 0 || !covered)) {
      blocks.push(['typeof v === "string"', [...(covered ? [] : [`if (!${wf('v')}) throw UNKNOWN; B += v.length;`]), ...groups.string].join(' ')]);
    }
    if (mask & 12 && (groups.number.length > 0 || !covered)) {
      blocks.push(['typeof v === "number"', [...(covered ? [] : [`if (!(v >= ${-MAX_EXACT} && v <= ${MAX_EXACT})) throw UNKNOWN;`]), ...groups.number].join(' ')]);
    }
    // A container no keyword looks into is walked whole.
    if (mask & 32 && (groups.array.length > 0 || !covered)) blocks.push(['isArray(v)', groups.array.length > 0 ? arrayBlock(groups.array) : walk('v', false)]);
    if (mask & 64 && (groups.object.length > 0 || !covered)) {
      const code = groups.object.length > 0 ? objectBlock(n, groups.object) : walk('v', false);
      if (code === null) return delegate;
      blocks.push([blocks.some(([test]) => test === 'isArray(v)') ? 'typeof v === "object" && v !== null' : IS_OBJECT, code]);
    }
    const kinds = [16, 12, 32, 64, 1, 2].filter((m) => mask & m).length;
    if (typed && kinds === 1 && blocks.length === 1) {
      body.push(blocks[0][1]);
    } else {
      const chain = blocks.map(([test, code]) => `if (${test}) { ${code} }`);
      // Whatever else is not plain data (undefined, functions, symbols, BigInt): unless `type`
      // refused it already, or an in-place keyword covers v.
      if (!typed && !covered) chain.push('if (!(v === null || typeof v === "boolean")) throw UNKNOWN;');
      body.push(chain.join(' else '));
    }
    return `function n${n}(${params}) { ${body.join(' ')} return true; }`;
  }

  const fns = [];
  nodes.forEach((kws, n) => {
    if (Array.isArray(kws)) fns.push(nodeFunction(n, kws));
  });
  for (const m of follows) {
    // The guard passes without looking at v: the whole value is then walked at the end.
    fns.push(`function r${m}(v, e, d) { const r = refs; for (let i = 0; i < r.length; i += 2) if (r[i] === ${m} && r[i + 1] === v) { unsure = true; return true; } r.push(${m}, v); const ok = n${m}(v, e, d + 1); r.length -= 2; return ok; }`);
  }
  // The check of Object.prototype costs one lookup per name on every call: past a few dozen
  // names, own-property tests cost less.
  if (guarded.size > MAX_READ_NAMES) return compileCode(plan, judge, false);
  const root = node(plan.root);
  const source = [
    '"use strict";',
    'let B = 0;',
    looped ? 'let refs = []; let unsure = false;' : '',
    // A delegate keeps the tier's state across the module's call, which may validate again.
    looped ? 'function judgeKept(n, v) { const saved = refs; refs = []; const b = B; const ok = judge(n, v); refs = saved; B = b; return ok; }' : '',
    ...fns,
    ...aux,
    'return function verdict(v) {',
    // JSON.stringify would call a toJSON found on the prototypes plain data has.
    'if (objectProto.toJSON !== undefined || arrayProto.toJSON !== undefined) throw UNKNOWN;',
    // One lookup of each name, written out: each keeps its own inline cache.
    guarded.size > 0 ? `if (${[...guarded].map((name) => `${str(name)} in objectProto`).join(' || ')}) throw UNKNOWN;` : '',
    `B = ${SLOT};`,
    looped ? `refs.length = 0; unsure = false; if (!n${root}(v, 0, 1)) return false; if (unsure) { if (!plain(v, ${maxDepth}, ${maxBytes})) throw UNKNOWN; return true; }` : `if (!n${root}(v, 0)) return false;`,
    `if (B * ${UNIT_BYTES} > ${maxBytes}) throw UNKNOWN;`,
    'return true; };',
  ].join('\n');
  const make = new Function(
    'judge',
    'UNKNOWN',
    'K',
    'hasOwn',
    'objectProto',
    'arrayProto',
    'getPrototypeOf',
    'isArray',
    'isRawJson',
    'equal',
    'unique',
    'codePoints',
    'W',
    'WF',
    'plain',
    'places',
    source,
  );
  // hasOwnProperty, called as `hasOwn.call(v, k)`: V8 reduces that on a for-in key to a check of
  // the object's shape, which it did not through a wrapper (a generic lookup a key).
  return make(
    judge,
    UNKNOWN,
    constants,
    hasOwnProperty,
    Object.prototype,
    Array.prototype,
    Object.getPrototypeOf,
    Array.isArray,
    isRawJson,
    equal,
    uniqueItems,
    codePoints,
    plainUnits,
    wellFormed,
    isPlainJson,
    places,
  );
}
