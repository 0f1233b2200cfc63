// The string checks the tier runs itself: patterns the module's gate proved safe for the
// runtime's RegExp (src/validator/ecma/gate.rs: same verdict, time linear in the text), and the
// built-in formats whose rules are written here exactly as src/validator/format.rs writes them.
// Every other pattern and format is the module's to judge. Shared by the closures and the
// code-generating backend, so both judge strings alike; and a contract's format functions.
import { UNKNOWN } from './json-data.js';

/**
 * `(s) => boolean` for a pattern the plan marks linear (`plan.linear[i] === 1`), or null when
 * this runtime refuses the source (the module then judges it). Not anchored, as JSON Schema's
 * `pattern` is; no `g` or `y` flag, so `test` keeps no state between strings.
 */
export function patternTester(source) {
  let re;
  try {
    re = new RegExp(source, 'u');
  } catch {
    return null;
  }
  return (s) => re.test(s);
}

/** The tester of the plan's pattern `i`, or null (not marked linear, or refused: the module judges). */
export function planPatternTester(plan, i) {
  const source = plan.patterns?.[i];
  return Number.isSafeInteger(i) && typeof source === 'string' && plan.linear?.[i] === 1 ? patternTester(source) : null;
}

const OCTET = /^(?:0|[1-9]\d{0,2})$/;

// Dates and times are read a character at a time: no match arrays or slices per string.

// The ASCII digit at i, or -1 (also past the end).
function digit(s, i) {
  const d = s.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
}

// The two digits at i as a number, or -1.
function two(s, i) {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

// RFC 3339 full-date (`YYYY-MM-DD`) at s[start, start + 10), the whole of s up to `end`.
function dateAt(s, start, end) {
  if (end - start !== 10 || s.charCodeAt(start + 4) !== 0x2d || s.charCodeAt(start + 7) !== 0x2d) return false;
  const century = two(s, start);
  const rest = two(s, start + 2);
  const month = two(s, start + 5);
  const d = two(s, start + 8);
  if (century < 0 || rest < 0 || month < 0 || d < 0) return false;
  const y = century * 100 + rest;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  let days;
  if (month === 2) days = leap ? 29 : 28;
  else if (month === 4 || month === 6 || month === 9 || month === 11) days = 30;
  else if (month >= 1 && month <= 12) days = 31;
  else return false;
  return d >= 1 && d <= days;
}

function date(s) {
  return dateAt(s, 0, s.length);
}

// RFC 3339 full-time (`hh:mm:ss[.frac](Z|±hh:mm)`) from i to the end of s; a leap second (60)
// only where the UTC time is 23:59.
function timeAt(s, i) {
  const h = two(s, i);
  const min = two(s, i + 3);
  const sec = two(s, i + 6);
  if (h < 0 || min < 0 || sec < 0 || s.charCodeAt(i + 2) !== 0x3a || s.charCodeAt(i + 5) !== 0x3a) return false;
  let j = i + 8;
  if (s.charCodeAt(j) === 0x2e) {
    const from = ++j;
    while (digit(s, j) >= 0) j++;
    if (j === from) return false;
  }
  const sign = s.charCodeAt(j);
  let utc = h * 60 + min;
  if (sign === 0x5a || sign === 0x7a) {
    if (j + 1 !== s.length) return false;
  } else if (sign === 0x2b || sign === 0x2d) {
    const oh = two(s, j + 1);
    const om = two(s, j + 4);
    if (oh < 0 || om < 0 || s.charCodeAt(j + 3) !== 0x3a || j + 6 !== s.length) return false;
    if (oh > 23 || om > 59) return false;
    const t = utc + (sign === 0x2b ? -1 : 1) * (oh * 60 + om);
    utc = ((t % 1440) + 1440) % 1440;
  } else return false;
  if (h > 23 || min > 59 || sec > 60) return false;
  return sec < 60 || utc === 23 * 60 + 59;
}

function time(s) {
  return timeAt(s, 0);
}

// 8-4-4-4-12 hexadecimal digits.
function uuid(s) {
  if (s.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = s.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return false;
    } else if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

function dateTime(s) {
  const t = s.charCodeAt(10);
  return (t === 0x54 || t === 0x74) && dateAt(s, 0, 10) && timeAt(s, 11);
}

function ipv4(s) {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => OCTET.test(p) && +p <= 255);
}

// email and uri answer only what they are sure of and leave the rest (undefined) to the module:
// quoted local parts, address literals, IDNA labels (`xn--`), IPv6 hosts, non-ASCII text.
// A dot-atom local part and a host name of letters, digits and inner hyphens (a single regex:
// the label lengths and IDNA's `--` are checked after).
const EMAIL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:-*[A-Za-z0-9])*(?:\.[A-Za-z0-9](?:-*[A-Za-z0-9])*)*$/;

function email(s) {
  if (!EMAIL.test(s)) return undefined;
  const at = s.indexOf('@');
  if (at > 64 || s.length - at - 1 > 253) return undefined;
  let start = at + 1;
  for (let i = start; i <= s.length; i++) {
    if (i === s.length || s.charCodeAt(i) === 0x2e) {
      if (i - start > 63 || (i - start >= 4 && s.charCodeAt(start + 2) === 0x2d && s.charCodeAt(start + 3) === 0x2d)) return undefined;
      start = i + 1;
    }
  }
  return true;
}

const NON_ASCII = /[^\x00-\x7f]/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const PORT = /^[0-9]*$/;
// Letters, digits, percent-encoded bytes and each component's marks (format.rs: HOST…).
const HOST = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const USERINFO = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|%[0-9A-Fa-f]{2})*$/;
const PATH = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;
const QUERY = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$/;

// The common shape, `scheme://host[:port][/path][?query][#fragment]` without user information
// or percent-encoding, in one regex; the rest is taken apart as format.rs does.
const SIMPLE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[A-Za-z0-9.-]+(?::[0-9]*)?(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*)?(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)?(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)?$/;

// RFC 3986 absolute URI, as format.rs's `reference(s, true, false)`.
function uri(s) {
  if (SIMPLE_URI.test(s)) return true;
  if (NON_ASCII.test(s)) return undefined;
  const hash = s.indexOf('#');
  const fragment = hash < 0 ? '' : s.slice(hash + 1);
  let rest = hash < 0 ? s : s.slice(0, hash);
  const question = rest.indexOf('?');
  const query = question < 0 ? '' : rest.slice(question + 1);
  rest = question < 0 ? rest : rest.slice(0, question);
  const colon = rest.indexOf(':');
  if (colon < 0 || rest.slice(0, colon).includes('/') || !SCHEME.test(rest.slice(0, colon))) return false;
  let path = rest.slice(colon + 1);
  if (path.startsWith('//')) {
    const after = path.slice(2);
    const slash = after.indexOf('/');
    const end = slash < 0 ? after.length : slash;
    const authority = after.slice(0, end);
    const sign = authority.lastIndexOf('@');
    const hostport = sign < 0 ? authority : authority.slice(sign + 1);
    if (sign >= 0 && !USERINFO.test(authority.slice(0, sign))) return false;
    if (hostport.startsWith('[')) return undefined;
    const c = hostport.lastIndexOf(':');
    if (!HOST.test(c < 0 ? hostport : hostport.slice(0, c)) || (c >= 0 && !PORT.test(hostport.slice(c + 1)))) return false;
    path = after.slice(end);
  }
  return PATH.test(path) && QUERY.test(query) && QUERY.test(fragment);
}

const FORMATS = { date, time, 'date-time': dateTime, uuid, ipv4, email, uri };

/**
 * `(s) => true | false | undefined` for a built-in format the tier carries, or null (the module
 * judges it). Undefined: this string is the module's to judge (ask it about the node). Only for
 * a plan's `["%", name]` (a built-in); a custom format's pattern goes through `patternTester`,
 * a custom function through `functionTester`.
 */
export function formatTester(name) {
  return Object.prototype.hasOwnProperty.call(FORMATS, name) ? FORMATS[name] : null;
}

/**
 * A custom format function of the contract (`["%", name, null]` in the plan; the functions by
 * name are `plan.functions`, given by the contract, not in the plan's text) as a tester:
 * `(s) => boolean`, a truthy answer meaning the format holds, as the module reads it. A function
 * that throws or answers with a promise makes the value unknown: the module's path calls it
 * again and throws its FormatFunctionError. Null when the contract has no such function.
 */
export function functionTester(plan, name) {
  const fn = plan.functions?.get(name);
  if (typeof fn !== 'function') return null;
  return (s) => {
    let answer;
    try {
      answer = fn(s);
      if (typeof answer?.then === 'function') throw UNKNOWN;
    } catch {
      throw UNKNOWN;
    }
    return Boolean(answer);
  };
}
