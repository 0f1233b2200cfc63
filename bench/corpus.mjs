// The benchmark corpus, built deterministically on every run: the output schemas of the seeds
// (tests/corpus/seeds.json and examples/pr-reviewer) and the contracts of bench/schemas/, written
// to look like real ones: nested $refs with anyOf/oneOf unions (incident-report,
// api-change-plan), pattern-heavy (change-index: ids, dates, slugs, paths), format-heavy
// (audit-log: date-time, email, uri, uuid), a oneOf of objects told apart by a discriminator
// (agent-actions), $ref-heavy with $defs (service-catalog), additionalProperties maps
// (feature-flags) and deep nesting through a recursive $ref (doc-outline). Each has a valid and
// an invalid output of about 1 KB, 10 KB and 100 KB, both indented (as models mostly write
// JSON) and compact (as JSON mode and tool arguments often come).
//
// The generator walks the schema: every property is filled in, the outermost array (or open
// object) on each path grows with a scale factor chosen to reach the target size, inner arrays
// and maps hold two items, an array of a schema already being generated (recursion) holds one
// item, ten deep at most (fewer at the smallest scales), strings take a pattern's `examples` values in turn or a formatted
// value. Invalid
// outputs are the valid ones with one mutation per 37 candidate sites (at most 40): a number
// written as a string, a value outside its enum, a string breaking its pattern or format, a
// missing required property (a leaf's).
import { readFileSync } from 'node:fs';

const read = (p) => JSON.parse(readFileSync(new URL(p, import.meta.url), 'utf8'));

const NAMES = ['incident-report', 'api-change-plan', 'change-index', 'audit-log', 'agent-actions', 'service-catalog', 'feature-flags', 'doc-outline'];

export function schemas() {
  const seeds = read('../tests/corpus/seeds.json').contracts.map((c) => ({ name: c.name, schema: c.schema }));
  return [
    { name: 'pr-reviewer', schema: read('../examples/pr-reviewer/blueprint.json').output_schema },
    ...seeds,
    ...NAMES.map((name) => ({ name, schema: read(`./schemas/${name}.json`) })),
  ];
}

/** The draft of a schema, as each library names it. */
export function draftOf(schema) {
  const s = schema.$schema ?? '';
  if (s.includes('2020-12')) return '2020-12';
  if (s.includes('2019-09')) return '2019-09';
  if (s.includes('draft-04')) return '4';
  return '7';
}

function resolve(root, schema) {
  let s = schema;
  for (let i = 0; i < 20 && s && typeof s.$ref === 'string' && s.$ref.startsWith('#/'); i++) {
    s = s.$ref
      .slice(2)
      .split('/')
      .reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], root);
  }
  return s ?? {};
}

const FORMATS = {
  'date-time': (i) => `2026-11-${String((i % 28) + 1).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:15:30Z`,
  date: (i) => `2026-12-${String((i % 28) + 1).padStart(2, '0')}`,
  email: (i) => `person${i}@example.com`,
  uri: (i) => `https://dashboards.example.com/d/${i}?panel=${i % 7}`,
  uuid: (i) => `${(0x10000000 + i).toString(16)}-4b1d-4c2a-9e3f-${(0x100000000000 + i).toString(16)}`,
};

const WORDS = 'the service returned errors after the deploy because a cache key changed while traffic shifted to the new region'.split(' ');
const prose = (i, n) => Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k) % WORDS.length]).join(' ');

/** A valid instance of `schema`; `scale` is the length of the outermost growable container. */
export function generate(root, scale) {
  let counter = 0;
  // The $refs being generated, innermost last: an array of one of them is a recursion.
  const refs = [];
  const gen = (schemaIn, depth, grown) => {
    if (typeof schemaIn?.$ref === 'string') {
      refs.push(schemaIn.$ref);
      try {
        return genResolved(resolve(root, schemaIn), depth, grown);
      } finally {
        refs.pop();
      }
    }
    return genResolved(resolve(root, schemaIn), depth, grown);
  };
  const genResolved = (s, depth, grown) => {
    const i = counter++;
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum[i % s.enum.length];
    const union = s.anyOf ?? s.oneOf;
    if (union) return gen({ ...union[i % union.length], $defs: undefined }, depth, grown);
    const type = Array.isArray(s.type) ? s.type[0] : s.type ?? (s.properties || s.required ? 'object' : s.items ? 'array' : 'string');
    switch (type) {
      case 'object': {
        const out = {};
        for (const [key, sub] of Object.entries(s.properties ?? {})) out[key] = gen(sub, depth + 1, grown);
        for (const key of s.required ?? []) if (!(key in out)) out[key] = `value of ${key} ${i}`;
        const pattern = Object.entries(s.patternProperties ?? {})[0];
        const map = typeof s.additionalProperties === 'object' ? s.additionalProperties : null;
        const open = !s.properties && (s.minProperties || pattern || map);
        if (open) {
          const n = Math.max(s.minProperties ?? 1, grown ? 2 : scale);
          for (let k = 0; k < n; k++) {
            const key = pattern ? String(200 + ((k * 37) % 300)) : map ? `${WORDS[(i + k) % WORDS.length]}_${k}` : `/resource_${k}/{id}`;
            out[key] = gen(pattern ? pattern[1] : map ?? { type: 'object', properties: { description: { type: 'string' } } }, depth + 1, true);
          }
        }
        return out;
      }
      case 'array': {
        let n = grown ? 2 : scale;
        if (typeof s.items?.$ref === 'string' && refs.includes(s.items.$ref)) n = refs.length <= Math.min(10, scale + 1) ? 1 : 0;
        if (s.minItems) n = Math.max(n, s.minItems);
        if (s.maxItems !== undefined) n = Math.min(n, s.maxItems);
        const out = [];
        for (let k = 0; k < n; k++) {
          const sub = s.prefixItems?.[k] ?? s.items ?? {};
          const value = gen(sub, depth + 1, true);
          // Distinct items where uniqueItems asks for it.
          out.push(s.uniqueItems && typeof value === 'number' ? k : s.uniqueItems && typeof value === 'string' && !s.items?.pattern && !resolve(root, sub).pattern ? `${value}-${k}` : value);
        }
        if (s.uniqueItems) return [...new Map(out.map((v) => [JSON.stringify(v), v])).values()];
        return out;
      }
      case 'integer': {
        const min = s.minimum ?? 0;
        const max = s.maximum ?? min + 10000;
        return min + (i % (max - min + 1));
      }
      case 'number': {
        const min = s.minimum ?? s.exclusiveMinimum ?? 0;
        const max = s.maximum ?? min + 100;
        const step = s.multipleOf ?? 0.25;
        const v = Math.min(max, min + step * (1 + (i % Math.max(1, Math.floor((max - min) / step) - 1))));
        return s.exclusiveMinimum !== undefined && v <= s.exclusiveMinimum ? s.exclusiveMinimum + step : v;
      }
      case 'boolean':
        return i % 2 === 0;
      case 'null':
        return null;
      default: {
        if (s.format && FORMATS[s.format]) return FORMATS[s.format](i);
        if (s.pattern) return s.examples?.[i % s.examples.length] ?? PATTERN_EXAMPLES[s.pattern] ?? 'x';
        let text = prose(i, 6 + (i % 9));
        if (s.minLength) while (text.length < s.minLength) text += ` ${prose(i + text.length, 4)}`;
        if (s.maxLength !== undefined) text = text.slice(0, s.maxLength);
        return text;
      }
    }
  };
  return gen(root, 0, false);
}

// Patterns of the seed schemas that carry no `examples`.
const PATTERN_EXAMPLES = { '^3\\.': '3.1.0' };

/** `value` with every 37th mutation site broken (at most 40; more often when there are few), following the schema. */
export function mutate(root, value, period = null) {
  let site = 0;
  let done = 0;
  // A first pass counts the sites, so that small outputs get a shorter period (and at least one).
  if (period === null) {
    mutate(root, value, Infinity);
    return mutate(root, value, Math.max(1, Math.min(37, Math.floor(mutate.sites / 2))));
  }
  const offset = Math.min(5, period - 1);
  const hit = () => site++ % period === offset && done++ < 40;
  const walk = (schemaIn, v) => {
    const s = resolve(root, schemaIn);
    const union = s.anyOf ?? s.oneOf;
    if (union) {
      // The branch the generator used: the one whose consts match.
      const branch = union.map((b) => resolve(root, b)).find((b) => Object.entries(b.properties ?? {}).every(([k, p]) => p.const === undefined || v?.[k] === p.const));
      return branch ? walk(branch, v) : v;
    }
    if (Array.isArray(v)) return v.map((item, k) => walk(s.prefixItems?.[k] ?? s.items ?? {}, item));
    if (v && typeof v === 'object') {
      const out = {};
      const pattern = Object.values(s.patternProperties ?? {})[0];
      const map = typeof s.additionalProperties === 'object' ? s.additionalProperties : null;
      for (const [k, item] of Object.entries(v)) out[k] = walk(s.properties?.[k] ?? pattern ?? map ?? {}, item);
      // Only leaves go missing, so the invalid output keeps the valid one's size.
      for (const k of s.required ?? []) if (k in out && (out[k] === null || typeof out[k] !== 'object') && hit()) delete out[k];
      return out;
    }
    if (s.const !== undefined) return v;
    if (s.enum && hit()) return 'not-one-of-them';
    if ((s.type === 'integer' || s.type === 'number') && hit()) return String(v);
    if (s.type === 'boolean' && hit()) return v ? 'yes' : 'no';
    if (s.type === 'string' && (s.pattern || s.format) && hit()) return `not valid: ${v}!`;
    return v;
  };
  const out = walk(root, value);
  mutate.sites = site;
  return out;
}

/** How an output is written: indented by two spaces, or without any whitespace. */
export const LAYOUTS = { pretty: (v) => JSON.stringify(v, null, 2), compact: (v) => JSON.stringify(v) };

/**
 * The corpus: for each schema (`list`: these instead of the corpus schemas), valid and invalid
 * outputs of about 1, 10 and 100 KB in each layout.
 */
export function corpus(sizes = [1024, 10 * 1024, 100 * 1024], list = schemas()) {
  return list.map(({ name, schema }) => {
    const outputs = Object.entries(LAYOUTS).flatMap(([layout, write]) => sizes.map((target) => {
      // The smallest scale reaching the target (or the largest the schema allows).
      let lo = 1;
      let hi = 1;
      const text = (scale) => write(generate(schema, scale));
      while (text(hi).length < target && hi < 1 << 14) {
        lo = hi;
        hi *= 2;
      }
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (text(mid).length < target) lo = mid + 1;
        else hi = mid;
      }
      const value = generate(schema, lo);
      return { target, layout, valid: write(value), invalid: write(mutate(schema, value)) };
    }));
    return { name, schema, draft: draftOf(schema), outputs };
  });
}
