// The package's own ECMA-262 pattern matcher against V8's RegExp in Unicode mode, which is what
// JSON Schema means by a pattern: random patterns (lookaround, backreferences, named groups,
// Unicode properties, some malformed on purpose) are accepted or refused alike, and match alike
// on random text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract, ready } from 'output-contract';

await ready;

let seed = 0x2f6b1d3;
const below = (n) => {
  // xorshift32: deterministic, so a failure names a reproducible case.
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed % n;
};
const pick = (items) => items[below(items.length)];

const ATOMS = ['a', 'b', 'é', '1', ' ', '.', '[ab]', '[^a]', '[a-c]', '[\\d_]', '\\d', '\\w', '\\s', '\\W', '\\S',
  '\\p{L}', '\\P{Ll}', '\\p{Script=Greek}', '\\p{Nd}', '[\\p{Lu}1]', '\\u{3b1}', '\\x61', '\\n', '[^]', '\\-', '\\.'];
const JUNK = ['{', '}', ']', '\\a', '(?', '\\c', '[z-a]', '\\k<q>', '\\p{Nope}', '(?<n>a)(?<n>b)', '\\8'];

function pattern(depth, groups) {
  let out = '';
  for (let i = 1 + below(4); i > 0; i--) {
    const r = below(depth > 2 ? 12 : 20);
    if (r < 12) out += pick(ATOMS);
    else if (r < 14) { groups.n++; out += '(' + (below(4) ? '' : '?<g' + groups.n + '>') + pattern(depth + 1, groups) + ')'; }
    else if (r === 14) out += '(?:' + pattern(depth + 1, groups) + '|' + pattern(depth + 1, groups) + ')';
    else if (r === 15) out += pick(['^', '$', '\\b', '\\B']);
    else if (r === 16) out += pick(['(?=', '(?!', '(?<=', '(?<!']) + pattern(depth + 1, groups) + ')';
    else if (r === 17 && groups.n > 0) out += '\\' + (1 + below(groups.n));
    else if (r === 18 && below(8) === 0) out += pick(JUNK);
    else out += pick(ATOMS);
    const q = below(14);
    out += ['*', '+', '?', '{1,3}', '*?', '{2}', '{0,}', '+?'][q] ?? '';
  }
  return out;
}

const PIECES = ['a', 'b', 'é', '1', ' ', '\n', 'ab', '_', 'α', 'A', '٣', '\u2028'];
const text = () => Array.from({ length: below(8) }, () => pick(PIECES)).join('');

test('patterns: accepted, refused and matched as V8 does in Unicode mode', () => {
  let compiled = 0, refused = 0, compared = 0;
  for (let i = 0; i < 3000; i++) {
    const source = pattern(0, { n: 0 });
    let theirs;
    try { theirs = new RegExp(source, 'u'); } catch { theirs = null; }
    let ours;
    try { ours = Contract.compile({ type: 'string', pattern: source }); } catch (e) { ours = null; }
    assert.equal(ours !== null, theirs !== null, `${source}: V8 ${theirs ? 'accepts' : 'refuses'} it`);
    if (!ours) { refused++; continue; }
    compiled++;
    for (let j = 0; j < 6; j++) {
      const t = text();
      const result = ours.validate(t);
      // Past its budget of backtracks a pattern gives up (SECURITY.md); V8 has no budget.
      if (!result.valid && /backtracking limit/.test(result.error.violations[0].message)) continue;
      assert.equal(result.valid, theirs.test(t), `${source} on ${JSON.stringify(t)}`);
      compared++;
    }
  }
  assert.ok(compiled > 1500 && refused > 20 && compared > 9000, `${compiled} compiled, ${refused} refused`);
});
