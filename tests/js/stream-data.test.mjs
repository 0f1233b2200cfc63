// A stream's data is its text's JSON.parse, however the text arrived: the stream builds it while
// the chunks come (the top levels' containers built, closed values parsed from their own text),
// and the result must be the same values with the same keys in the same order, `__proto__` and
// Object.prototype's names as own properties, numbers as JSON.parse reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract, ready } from 'output-contract';

await ready;
const any = Contract.compile({});

// Every key in order, recursively, and the prototypes: what deepStrictEqual does not compare.
function shape(value) {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object') {
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    return Object.keys(value).map((k) => [k, shape(value[k])]);
  }
  return Object.is(value, -0) ? '-0' : value;
}

function streamed(text, sizes, contract = any) {
  const s = contract.stream();
  let i = 0;
  for (let n = 0; i < text.length; n++) {
    const size = sizes[n % sizes.length];
    s.push(text.slice(i, i + size));
    i += size;
  }
  const out = s.finish();
  s.free();
  return out;
}

function same(text, sizes, contract) {
  const out = streamed(text, sizes, contract);
  assert.equal(out.valid, true, `${text.slice(0, 80)} in chunks of ${sizes}`);
  const expected = JSON.parse(text);
  assert.deepStrictEqual(out.data, expected);
  assert.deepStrictEqual(shape(out.data), shape(expected), `${text.slice(0, 80)} in chunks of ${sizes}`);
}

const SIZES = [[1], [2], [3], [5], [7, 1, 13], [20], [64], [1000], [100000]];

test('the data of texts with every kind of member, in every split', () => {
  const texts = [
    '{}',
    '[]',
    ' { } ',
    '[1, -0, 2.50, 1e21, -1.5E-7, 12345678901234567890123, 0.1]',
    '{"a": 1, "b": [true, false, null, {"c": []}], "d": {"e": {"f": "g"}, "h": -0}, "i": "j"}',
    '{"__proto__": {"polluted": 1}, "a": {"__proto__": [1], "constructor": 2, "toString": "x", "hasOwnProperty": null}}',
    '{"b": 1, "2": 2, "a": {"1": "x", "z": 0, "0": "y"}, "1": [], "10": {}, "c": 3}',
    '{"k\\"ey": {"\\u0041\\\\": [1]}, "é😀": {"\\ud83d\\ude00": "\\u00e9"}, "": {"": ""}, "tab\\t": ["\\n"]}',
    '["é😀x", {"ÿ": "ü"}, ["😀😀😀"], "\\"", {"a": "}]{[,:\\""}]',
    '\n\n  [\n    {\n      "a": 1\n    },\n    [\n      2\n    ]\n  ]\n',
    '"a string root"',
    '42',
    'null',
    '[[[[[[1]]]]], {"a": {"b": {"c": {"d": [1, 2, {"e": 3}]}}}}]',
  ];
  for (const text of texts) for (const sizes of SIZES) same(text, sizes);
});

// A deterministic generator of JSON texts: keys that repeat across objects, numbers of every
// form, strings with escapes and characters outside the BMP, nesting a few levels deep.
function generator(seed) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const keys = ['a', 'b', 'id', '0', '17', '__proto__', 'toString', 'é', 'k"q', 'x\\y', 'line\nbreak', '😀'];
  const strings = ['', 'plain', 'é', '😀 and é', 'quote " back \\ slash', 'tab\t', '\u2028', '\ud83d\ude00'];
  const numbers = ['0', '-0', '1', '-17', '3.25', '1e3', '-2.5E-3', '123456789012345678901234567890', '0.30000000000000004'];
  function value(depth) {
    const r = next();
    if (depth > 4 || r < 0.35) {
      const s = next();
      if (s < 0.3) return pick(numbers);
      if (s < 0.8) return JSON.stringify(pick(strings));
      return pick(['true', 'false', 'null']);
    }
    const n = Math.floor(next() * 6);
    const ws = pick(['', ' ', '\n  ', '\t']);
    if (r < 0.65) return `[${ws}${Array.from({ length: n }, () => value(depth + 1)).join(`,${ws}`)}${ws}]`;
    // Names are unique in each object (a repeated name is a violation: no data).
    const names = [...new Set(Array.from({ length: n }, () => pick(keys)))];
    return `{${ws}${names.map((k) => `${JSON.stringify(k)}${ws}:${ws}${value(depth + 1)}`).join(`,${ws}`)}${ws}}`;
  }
  return () => value(0);
}

test('generated texts, in random splits', () => {
  const text = generator(7);
  for (let i = 0; i < 300; i++) {
    const t = text();
    same(t, [1 + (i % 9)]);
    same(t, [3, 17, 1, 64, 2]);
    same(t, [t.length]);
  }
});

// The root's containers whole in a push are read in one step (Parser::whole): the marks then
// make them members of the root, parsed with its scalars, where others are built member by member.
test('a whole output in one push and in 1,000-character chunks: root objects and arrays', () => {
  const text = generator(11);
  const item = (i) => `{"id": ${i}, "__proto__": {"tags": [${i}, "é😀", null]}, "toString": [${text()}, ${text()}], "v": ${text()}}`;
  const members = Array.from({ length: 120 }, (_, i) => [`"m${i}"`, i % 4 === 0 ? `{"__proto__": ${item(i)}, "n": ${i}}` : i % 4 === 1 ? `[${item(i)}, ${text()}]` : text()]);
  members.push(['"__proto__"', item(-1)], ['"constructor"', `[${text()}]`], ['"tail"', '{}']);
  const object = `{${members.map(([k, v]) => `${k}: ${v}`).join(', ')}}`;
  const array = `[${members.map(([, v]) => v).join(',\n ')}]`;
  const typed = Contract.compile({ type: 'object', properties: { m0: { type: 'object', required: ['__proto__', 'n'] }, m1: { type: 'array', minItems: 2 } } });
  for (const t of [object, array, JSON.stringify(JSON.parse(object), null, 2), JSON.stringify(JSON.parse(array), null, 2)]) {
    assert.ok(t.length > 10000);
    same(t, [t.length]);
    same(t, [1000]);
    same(t, [997, 3]);
  }
  same(object, [object.length], typed);
  same(object, [1000], typed);
});

// Long containers are parsed in batches that grow with the text: members added to a container
// that earlier batches built (`__proto__` and Object.prototype's names among an object's later
// members), commas on either side of a chunk's end or after whitespace, and a batch of more
// items than a call takes as arguments (one long chunk after a first batch).
test('long containers, in batches of every size, build the data the same way', () => {
  const names = ['__proto__', 'toString', 'constructor', 'hasOwnProperty', '', '10', '2', 'valueOf'];
  const wide = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [i % 97 === 5 ? names[(i / 97) | 0] : `k${i}`, i % 3 === 0 ? { n: i, s: 'é😀'.repeat(i % 4) } : i % 3 === 1 ? [i, `v${i}`] : `s${i}`]));
  const numbers = Array.from({ length: 3000 }, (_, i) => (i % 5 === 0 ? -i / 4 : i));
  const records = Array.from({ length: 400 }, (_, i) => ({ id: i, tags: ['a', 'b'].slice(i % 3), note: i % 7 === 0 ? null : `n${i}` }));
  const texts = [
    JSON.stringify({ head: 'x', wide, numbers, records, tail: true }, null, 2),
    JSON.stringify({ wide, numbers }),
    JSON.stringify(records, null, 1),
    JSON.stringify([...numbers, ...records, wide]),
    // Whitespace before the commas.
    `{"a" : [${numbers.join(' ,\n ')}] , "b" : {${Object.keys(wide).map((k) => `${JSON.stringify(k)} : ${JSON.stringify(wide[k])}`).join('  ,  ')}} }`,
  ];
  for (const text of texts) for (const sizes of [[1], [7, 1, 13], [20], [333], [1000], [text.length], [5, 100000]]) same(text, sizes);
  const many = JSON.stringify({ a: Array.from({ length: 20000 }, (_, i) => i) });
  same(many, [1000, many.length]);
});

// A container of the root is parsed whole with the root's other members while its text is short,
// and built from its members once it grows past a batch: both kinds under names JSON.parse defines
// as own properties, short and long items in a root array, a root whole in one push with marks
// (containers the module could not judge whole), and every chunking.
test('containers of the root, short or past a batch, build the data the same way', () => {
  const long = (i) => `{"__proto__": {"n": ${i}}, ${Array.from({ length: 60 }, (_, k) => `"k${k}": [${k}, "é😀", {"d": ${i}}]`).join(', ')}, "toString": ${i}}`;
  const short = (i) => `{"__proto__": [${i}], "constructor": {"x": ${i}}}`;
  const numbers = Array.from({ length: 200 }, (_, k) => k).join(', ');
  const texts = [
    `{"__proto__": ${long(1)}, "a": ${short(2)}, "constructor": [${long(3)}, ${short(4)}], "b": ${short(5)}, "toString": ${short(6)}, "c": [${numbers}]}`,
    `{"a": ${short(1)}, "__proto__": [${numbers}], "b": 1, "constructor": ${long(2)}}`,
    `[${short(1)}, ${long(2)}, ${short(3)}, 7, ${long(4)}, [${long(5)}], "x", ${short(6)}]`,
    `{"__proto__": ${short(1)}, "constructor": ${short(2)}}`,
  ];
  // Containers that need their members (required, minItems) are not read whole in one push.
  const marked = Contract.compile(JSON.parse('{"properties": {"a": {"required": ["__proto__"]}, "__proto__": {"minItems": 1}, "constructor": {"minProperties": 1}}, "items": {"minProperties": 1}}'));
  for (const text of texts) {
    for (const sizes of [[1], [7, 1, 13], [20], [256], [333], [1000], [text.length], [5, 100000]]) same(text, sizes);
    same(text, [text.length], marked);
    same(text, [20], marked);
  }
});

test('a chunk that ends inside a surrogate pair, and a retry, build the data the same way', () => {
  const text = '{"a": ["😀😀", {"b": "😀"}], "c": "😀"}';
  // Split inside each pair.
  const s = any.stream();
  for (const part of text.split(/(?<=\ud83d)/)) s.push(part);
  assert.deepStrictEqual(s.finish().data, JSON.parse(text));

  const object = Contract.compile({ type: 'object', required: ['ok'] });
  const retried = object.stream({ maxRetries: 1 });
  retried.push('{"no": [1, 2');
  retried.push(']}');
  assert.equal(retried.finish().retry, true);
  for (const c of ['{"ok"', ': {"x": [', '1]}, "y": 2', '}']) retried.push(c);
  assert.deepStrictEqual(retried.finish().data, { ok: { x: [1] }, y: 2 });
});

test('a byte chunk, and many containers in one push: the data is still the text\'s', () => {
  const s = any.stream();
  s.push('{"a": [1, ');
  s.push(new TextEncoder().encode('2], "b": {}}'));
  assert.deepStrictEqual(s.finish().data, { a: [1, 2], b: {} });
  // More marks than one push can report.
  const wide = `[${Array.from({ length: 2000 }, (_, i) => `{"i": ${i}}`).join(',')}]`;
  same(wide, [wide.length]);
  same(wide, [5000]);
  // The same with characters outside ASCII in every item, split inside surrogate pairs too.
  const wider = `[${Array.from({ length: 2000 }, (_, i) => `{"é${i}": "😀", "n": [${i}]}`).join(',')}]`;
  same(wider, [wider.length]);
  same(wider, [4999]);
  same(wider, [7]);
});

test('an ended stream throws an error typed by its kind, with the final state', () => {
  const s = any.stream();
  s.push('[1]');
  assert.deepStrictEqual(s.finish().data, [1]);
  for (const call of [() => s.push('2'), () => s.finish()]) {
    assert.throws(call, (e) => e instanceof Error && e.kind === 'stream_ended' && e.state === 'soft-complete');
  }
});

test('short chunks reach the module as TextEncoder writes them: every UTF-8 length, lone surrogates as U+FFFD', () => {
  const word = 'aé\u07ff\u0800€\uffff😀\u0080\u007f';
  const contract = Contract.compile({ type: 'object', properties: { w: { enum: [word] }, lone: { enum: ['x\ufffdy\ufffd'] } } });
  // Written raw (JSON.stringify would escape the lone halves).
  const text = `{"w": "${word}", "lone": "x\ud800y\udfff"}`;
  const bytes = new TextEncoder().encode(text).length;
  for (const size of [1, 2, 3, 5, 20, 40]) {
    const s = contract.stream();
    let status;
    for (let i = 0; i < text.length; i += size) status = s.push(text.slice(i, i + size));
    assert.equal(status.bytes, bytes, `chunks of ${size}`);
    const out = s.finish();
    assert.equal(out.valid, true, `chunks of ${size}`);
    assert.deepStrictEqual(out.data, JSON.parse(text));
  }
});
