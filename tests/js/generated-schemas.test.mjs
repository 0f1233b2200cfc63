// Schemas as people get them: from Zod 4 (z.toJSONSchema, both targets, both sides), TypeBox,
// the OpenAI and Anthropic structured-output documentation, and Pydantic v2
// (tests/fixtures/pydantic/, written by its generate.py). Each compiles with the default
// options, and on generated instances (examples, samples from the schema, seeded mutations) the
// contract's verdict equals Ajv's (draft-07 or 2020-12, with ajv-formats), Zod's safeParse and
// Pydantic's own model_validate_json where those mean what the JSON Schema means.
//
// Left out of a comparison, and why:
// - Ajv, on a schema with a fractional multipleOf: Ajv divides in binary floating point
//   (0.3 / 0.1 is not an integer there), so it refuses multiples such as 19.99 of 0.01; the
//   contract and Zod accept them. Zod's verdict still applies to those schemas.
// - Ajv, on format "jwt": ajv-formats has no jwt format and Zod writes no pattern beside it,
//   so Ajv would take any string; Zod's safeParse is the reference there.
// - Zod, on the `output` side of z.toJSONSchema: it describes what parse returns (a default is
//   then present, an object's unknown members were stripped), not what parse accepts; the
//   `input` side is compared.
// - Zod, on a string with a space at either end where a schema has format "uri": z.url() reads
//   it with the WHATWG URL parser, which trims it first; RFC 3986 has no spaces.
// - Zod, on a string of three dot-separated parts where a schema has format "jwt": z.jwt()
//   decodes the header and wants JSON naming an algorithm, and lets through what its base64
//   decoder skips (a space after the signature); the format checks the shape alone.
// - Zod, on a number with ten decimals or more under a fractional multipleOf: Zod takes a
//   quotient within 4 ε of an integer, so 0.5700000000000001 (a sum's rounding, one unit in the
//   last place from 0.57) passes as a multiple of 0.01; the contract checks the decimal exactly.
// - Zod, on a string outside the Basic Multilingual Plane under minLength/maxLength: Zod counts
//   UTF-16 code units, JSON Schema counts characters.
// - Pydantic: its verdicts are model_validate_json's in strict mode (the lax mode takes "1" for
//   1, which no JSON Schema says), on validation schemas only (a serialization schema describes
//   model_dump's output); generate.py writes no integral number with an exponent (strict mode
//   refuses 1e300 for an int, JSON Schema's integer takes it). For a model whose schema Pydantic
//   writes looser than it validates (a Decimal: generate.py's LOOSER), only Pydantic's "valid"
//   verdicts are compared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Contract, ready } from 'output-contract';
import { instances, providerSchemas, pydanticSchemas, typeboxSchemas, zodVariants } from './generated-corpus.mjs';

await ready;

const ajvs = {
  '07': addFormats(new Ajv({ strict: false, logger: false })),
  2020: addFormats(new Ajv2020({ strict: false, logger: false })),
};

const pydantic = pydanticSchemas();
const sources = [
  ['Zod 4', zodVariants()],
  ['TypeBox', typeboxSchemas()],
  ['OpenAI and Anthropic documentation', providerSchemas()],
  [`Pydantic ${pydantic.version}`, pydantic.schemas],
];

/** Contract.compile(schema) with no options, for every entry: the contracts and the failures. */
function compileAll(entries) {
  const contracts = new Map();
  const failures = [];
  for (const entry of entries) {
    try {
      contracts.set(entry, Contract.compile(entry.schema));
    } catch (e) {
      failures.push(`${entry.id}: ${e.kind ?? e.name}: ${e.message}`);
    }
  }
  return { contracts, failures };
}

const compiled = new Map(sources.map(([name, entries]) => [name, compileAll(entries)]));

const fractionalMultipleOf = (schema) => JSON.stringify(schema).match(/"multipleOf":(-?[\d.e+-]+)/g)?.some((m) => !Number.isInteger(Number(m.split(':')[1]))) ?? false;
const uncheckedByAjv = (schema) => /"format":"jwt"/.test(JSON.stringify(schema));

// A string of three parts split by dots, as a JWT is.
const JWT_SHAPE = /"[^".]*\.[^".]*\.[^".]*"/;

// The seed of an entry's instances: a hash of its id, so a test run alone makes the same ones.
const seedOf = (id) => [...id].reduce((h, c) => Math.imul(h ^ c.codePointAt(0), 16777619) >>> 0, 2166136261);
const generated = new Map();
function instancesOf(entry) {
  if (!generated.has(entry)) generated.set(entry, instances(entry, seedOf(entry.id)));
  return generated.get(entry);
}

for (const [name, entries] of sources) {
  test(`${name}: every schema compiles with the default options`, () => {
    const { failures } = compiled.get(name);
    console.log(`${name}: ${entries.length} schemas, ${entries.length - failures.length} compile`);
    assert.deepEqual(failures, []);
  });

  test(`${name}: the contract's verdicts equal Ajv's`, () => {
    const { contracts } = compiled.get(name);
    const mismatches = [];
    const counts = { schemas: 0, instances: 0, valid: 0, excluded: 0 };
    for (const [entry, contract] of contracts) {
      const exclude = fractionalMultipleOf(entry.schema) || uncheckedByAjv(entry.schema);
      const check = ajvs[entry.ajv].compile(entry.schema);
      counts.schemas++;
      for (const instance of instancesOf(entry)) {
        if (exclude) {
          counts.excluded++;
          continue;
        }
        const expected = check(instance);
        const got = contract.validate(instance);
        counts.instances++;
        if (expected) counts.valid++;
        if (got.valid !== expected) {
          mismatches.push(`${entry.id} × ${JSON.stringify(instance)}: contract ${got.valid}, Ajv ${expected}${got.valid ? '' : ` (${got.error.violations.map((v) => `${v.path}: ${v.message}`).join('; ')})`}`);
        }
      }
    }
    console.log(`${name} × Ajv: ${counts.schemas} schemas, ${counts.instances} instances (${counts.valid} valid), ${counts.instances - mismatches.length} agree; ${counts.excluded} left out`);
    assert.deepEqual(mismatches.slice(0, 20), []);
    assert.ok(counts.valid > counts.instances * 0.1 && counts.valid < counts.instances * 0.9, JSON.stringify(counts));
  });
}

test('each schema is read as the draft it was written for', () => {
  // Zod names its target in $schema. Pydantic, TypeBox and the documentation shapes name none:
  // where they use a 2020-12 keyword ($defs, prefixItems) that is their draft, else Draft 7.
  const wrong = [];
  for (const [, { contracts }] of compiled) {
    for (const [entry, contract] of contracts) {
      const text = JSON.stringify(entry.schema);
      const expected = entry.schema.$schema !== undefined
        ? (entry.schema.$schema.includes('2020-12') ? 'draft2020-12' : 'draft7')
        : /"(\$defs|prefixItems)":/.test(text) ? 'draft2020-12' : 'draft7';
      if (contract.draft !== expected) wrong.push(`${entry.id}: ${contract.draft}, not ${expected}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test("Zod 4: the contract's verdicts equal safeParse on the input side", () => {
  const { contracts } = compiled.get('Zod 4');
  const mismatches = [];
  const counts = { schemas: 0, instances: 0, valid: 0, excluded: 0 };
  for (const [entry, contract] of contracts) {
    if (entry.io !== 'input') continue;
    counts.schemas++;
    const text = JSON.stringify(entry.schema);
    const lengths = /"(minLength|maxLength)"/.test(text);
    const urls = /"format":"uri"/.test(text);
    const jwts = /"format":"jwt"/.test(text);
    const fractional = fractionalMultipleOf(entry.schema);
    const list = instancesOf(entry).concat(entry.valid ?? [], entry.invalid ?? []);
    for (const instance of list) {
      const json = JSON.stringify(instance);
      if ((lengths && /[\u{10000}-\u{10FFFF}]/u.test(json)) || (urls && /"\s|\s"/.test(json)) || (jwts && JWT_SHAPE.test(json)) || (fractional && /\.\d{10}/.test(json))) {
        counts.excluded++;
        continue;
      }
      const expected = entry.zod.safeParse(instance).success;
      const got = contract.validate(instance).valid;
      counts.instances++;
      if (expected) counts.valid++;
      if (got !== expected) mismatches.push(`${entry.id} × ${JSON.stringify(instance)}: contract ${got}, Zod ${expected}`);
    }
  }
  console.log(`Zod 4 × safeParse: ${counts.schemas} schemas, ${counts.instances} instances (${counts.valid} valid), ${counts.instances - mismatches.length} agree; ${counts.excluded} left out`);
  assert.deepEqual(mismatches.slice(0, 20), []);
});

test('Zod 4: every string format answers its valid and invalid strings', () => {
  const { contracts } = compiled.get('Zod 4');
  const wrong = [];
  for (const [entry, contract] of contracts) {
    if (entry.valid === undefined) continue;
    for (const s of entry.valid) if (!contract.validate(s).valid) wrong.push(`${entry.id}: ${JSON.stringify(s)} refused`);
    for (const s of entry.invalid) if (contract.validate(s).valid) wrong.push(`${entry.id}: ${JSON.stringify(s)} accepted`);
  }
  assert.deepEqual(wrong, []);
});

test(`Pydantic ${pydantic.version}: the contract's verdicts equal model_validate_json (strict) on its own instances`, () => {
  const { contracts } = compiled.get(`Pydantic ${pydantic.version}`);
  const mismatches = [];
  let total = 0;
  let valid = 0;
  for (const [entry, contract] of contracts) {
    for (const { instance, valid: expected } of entry.pydantic) {
      // Serialization schemas describe model_dump_json's output: Pydantic's verdicts are on input.
      if (entry.mode !== 'validation') continue;
      // A model whose schema says less than its validator (generate.py's LOOSER says why): what
      // Pydantic accepts, the contract accepts.
      if (entry.looser !== undefined && !expected) continue;
      total++;
      if (expected) valid++;
      const got = contract.validate(instance).valid;
      if (got !== expected) mismatches.push(`${entry.id} × ${JSON.stringify(instance)}: contract ${got}, Pydantic ${expected}`);
    }
  }
  console.log(`Pydantic × model_validate_json: ${total} instances (${valid} valid), ${total - mismatches.length} agree`);
  assert.deepEqual(mismatches.slice(0, 20), []);
  const cases = pydantic.schemas.filter((e) => e.mode === 'validation').reduce((n, e) => n + e.pydantic.length, 0);
  assert.ok(cases > 300, `${cases} instances in verdicts.json`);
});

test('every compiled schema validates a streamed answer as it validates the whole text', () => {
  for (const [, { contracts }] of compiled) {
    for (const [entry, contract] of contracts) {
      for (const instance of instancesOf(entry).slice(0, 6)) {
        const text = JSON.stringify(instance, null, 1);
        const whole = contract.validateText(text).valid;
        const stream = contract.stream();
        for (let i = 0; i < text.length; i += 7) {
          const status = stream.push(text.slice(i, i + 7));
          // An early violation is certain: a valid answer never has one on a prefix.
          if (whole) assert.deepEqual(status.earlyViolations, [], `${entry.id} × ${text}`);
        }
        assert.equal(stream.finish({ stopReason: 'stop' }).valid, whole, `${entry.id} × ${text}`);
      }
    }
  }
});
