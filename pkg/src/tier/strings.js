// The string checks the tier runs itself: patterns the module's gate proved safe for the
// runtime's RegExp (src/validator/ecma/gate.rs: same verdict, time linear in the text), and the
// built-in formats whose rules are written here exactly as src/validator/format.rs writes them.
// Every other pattern and format is the module's to judge. Shared by the closures and the
// code-generating backend, so both judge strings alike.

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

const DATE = /^(\d{4})-(\d\d)-(\d\d)$/;
const TIME = /^(\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:[zZ]|([+-])(\d\d):(\d\d))$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const OCTET = /^(?:0|[1-9]\d{0,2})$/;

function date(s) {
  const m = DATE.exec(s);
  if (m === null) return false;
  const y = +m[1];
  const month = +m[2];
  const d = +m[3];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  let days;
  if (month === 2) days = leap ? 29 : 28;
  else if (month === 4 || month === 6 || month === 9 || month === 11) days = 30;
  else if (month >= 1 && month <= 12) days = 31;
  else return false;
  return d >= 1 && d <= days;
}

// RFC 3339 full-time; a leap second (60) only where the UTC time is 23:59.
function time(s) {
  const m = TIME.exec(s);
  if (m === null) return false;
  const h = +m[1];
  const min = +m[2];
  const sec = +m[3];
  if (h > 23 || min > 59 || sec > 60) return false;
  let utc = h * 60 + min;
  if (m[4] !== undefined) {
    const oh = +m[5];
    const om = +m[6];
    if (oh > 23 || om > 59) return false;
    const t = utc + (m[4] === '+' ? -1 : 1) * (oh * 60 + om);
    utc = ((t % 1440) + 1440) % 1440;
  }
  return sec < 60 || utc === 23 * 60 + 59;
}

function dateTime(s) {
  const t = s.charCodeAt(10);
  return (t === 0x54 || t === 0x74) && date(s.slice(0, 10)) && time(s.slice(11));
}

function ipv4(s) {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => OCTET.test(p) && +p <= 255);
}

const FORMATS = { date, time, 'date-time': dateTime, uuid: (s) => UUID.test(s), ipv4 };

/**
 * `(s) => boolean` for a built-in format the tier carries, or null (the module judges it).
 * Only for a plan's `["%", name]` (a built-in); a custom format's pattern goes through
 * `patternTester`, a custom function never to the tier.
 */
export function formatTester(name) {
  return Object.prototype.hasOwnProperty.call(FORMATS, name) ? FORMATS[name] : null;
}
