// Options objects, checked before anything crosses into the module: a bad option is a
// programming error, told in JavaScript terms (the option's name, what it allows, what it got)
// as one typed error, whichever function took it. A key a function does not know is refused too,
// so a misspelt option never passes unnoticed as its default.

/** Thrown for an option a function does not take, or a value the option does not allow. */
export class OptionError extends TypeError {
  constructor(option, allowed, message) {
    super(message);
    this.name = 'OptionError';
    this.kind = 'invalid_option';
    this.option = option;
    this.allowed = allowed;
  }
}

const isRegExp = (v) => Object.prototype.toString.call(v) === '[object RegExp]';

/** A value as a JavaScript reader would write it. */
function shown(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (isRegExp(value)) return 'a RegExp';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}

const invalid = (option, allowed, value) => new OptionError(option, allowed, `${option} must be ${allowed}, got ${shown(value)}`);

// Each kind of option: what it allows, in words, and whether a value is one of them.
const MAX_U32 = 0xffffffff;
const boolean = ['true or false', (v) => typeof v === 'boolean'];
const string = ['a string', (v) => typeof v === 'string'];
const positiveInteger = ['a positive integer', (v) => Number.isInteger(v) && v >= 1 && v <= MAX_U32];
const nonNegativeInteger = ['a non-negative integer', (v) => Number.isInteger(v) && v >= 0 && v <= MAX_U32];
const plainObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const oneOf = (names) => [
  names.length === 1 ? JSON.stringify(names[0]) : `${names.slice(0, -1).map((n) => JSON.stringify(n)).join(', ')} or ${JSON.stringify(names.at(-1))}`,
  (v) => names.includes(v),
];

// The drafts by the names the module reads (Draft::from_name): case, `-`, `_` and spaces aside,
// `draft7`, `draft07` or `7`; `jtd` for JSON Type Definition (RFC 8927).
const DRAFT_NAMES = new Set(['draft4', 'draft04', '4', 'draft6', 'draft06', '6', 'draft7', 'draft07', '7', 'draft201909', '201909', 'draft202012', '202012', 'jtd', 'rfc8927', 'jsontypedef']);
const draft = [
  '"draft4", "draft6", "draft7", "draft2019-09", "draft2020-12" or "jtd"',
  (v) => typeof v === 'string' && DRAFT_NAMES.has(v.trim().toLowerCase().replace(/[-_ ]/g, '')),
];
const resources = ['an object of schemas (objects or booleans) by URI', (v) => plainObject(v) && Object.values(v).every((s) => typeof s === 'boolean' || plainObject(s))];

/**
 * Throws an OptionError unless `value` is an object of formats by name (or, `withBoolean`, also
 * true or false); `option` is its name. The patterns' syntax is checked by `moduleOptions`.
 */
function checkFormats(option, value, withBoolean) {
  if (withBoolean && typeof value === 'boolean') return;
  const allowed = withBoolean ? 'true, false or an object of formats by name' : 'an object of formats by name';
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isRegExp(value)) {
    throw new OptionError(option, allowed, `${option} must be ${allowed}, got ${shown(value)}`);
  }
  for (const [name, format] of Object.entries(value)) {
    const at = `${option}.${name}`;
    if (isRegExp(format)) {
      const other = [...format.flags].filter((f) => f !== 'u');
      if (other.length > 0) {
        throw new OptionError(
          at,
          'a RegExp with no flag but u',
          `${at} must be a RegExp with no flag but u, got /${format.source}/${format.flags}: the library's own pattern engine matches it as JSON Schema reads a pattern (case-sensitive, Unicode mode, not anchored), so the flag${other.length > 1 ? 's' : ''} ${other.join('')} would be lost`,
        );
      }
    } else if (typeof format !== 'string' && typeof format !== 'function') {
      throw new OptionError(at, 'a RegExp, a pattern string or a function', `${at} must be a RegExp, a pattern string or a function, got ${shown(format)}`);
    }
  }
}

// `formats`: true or false (the built-in formats asserted or not), or custom formats by name;
// checkSchema takes the custom ones alone (formats.js has the module check each pattern's syntax).
const formats = { check: (option, value) => checkFormats(option, value, true) };
const customFormats = { check: (option, value) => checkFormats(option, value, false) };

const TEMPLATES = ['outputFormat', 'retry', 'retryLine', 'retryPatch', 'retryPatchLine', 'toolSuccess', 'toolFailure', 'toolFailureLine'];
// The prompt templates: an object of strings, checked key by key (`templates.retryLine`).
const templates = {
  nested: Object.fromEntries(TEMPLATES.map((name) => [name, string])),
  describe: 'an object of template strings',
};

/** What each function's options object takes, by the function's name. */
export const OPTIONS = {
  'Contract.compile': {
    draft,
    strict: boolean,
    formats,
    schemaId: string,
    agentId: string,
    resources,
    maxOutputBytes: positiveInteger,
    maxDepth: positiveInteger,
    rawOutputLimit: nonNegativeInteger,
  },
  'contract.validateText': { extract: boolean, repair: boolean },
  'contract.validateToolCall': { nullAsAbsent: boolean },
  'contract.validateMerged': { format: oneOf(['json-patch', 'merge-patch']), extract: boolean },
  'contract.stream': { maxRetries: nonNegativeInteger, extract: boolean, abortOnEarlyViolation: boolean, nullAsAbsent: boolean },
  extractJson: { repair: boolean, maxOutputBytes: positiveInteger, maxDepth: positiveInteger },
  enrichSystemPrompt: { templates },
  retryPrompt: { templates, mode: oneOf(['full', 'patch']) },
  toolFeedback: { tool: string, templates },
  submitResultTool: { provider: oneOf(['openai', 'anthropic', 'generic']), name: string, description: string, draft, patch: boolean },
  checkSchema: { draft, provider: oneOf(['openai', 'anthropic']), formats: customFormats },
  enforce: {
    systemPrompt: string,
    messages: ['an array of messages', Array.isArray],
    task: string,
    maxRetries: nonNegativeInteger,
    onAttempt: ['a function', (v) => typeof v === 'function'],
    templates,
    repair: boolean,
    abortOnEarlyViolation: boolean,
    runId: string,
    retry: oneOf(['full', 'patch']),
  },
};
// The wire formats a provider stream is read in.
const provider = oneOf(['openai-chat', 'openai-responses', 'anthropic']);
OPTIONS.validateProviderStream = {
  provider,
  tool: string,
  maxRetries: nonNegativeInteger,
  abortOnEarlyViolation: boolean,
  nullAsAbsent: boolean,
  onStatus: ['a function', (v) => typeof v === 'function'],
  signal: ['an AbortSignal', (v) => typeof AbortSignal !== 'undefined' && v instanceof AbortSignal],
};
OPTIONS.providerEvents = { provider };
OPTIONS.checkOutputSchemaConfig = OPTIONS['Contract.compile'];
OPTIONS.compareSchemas = { draft, strict: boolean, formats: boolean, resources };
OPTIONS.SchemaRegistry = { draft, strict: boolean, formats: boolean };
OPTIONS['SchemaRegistry.add'] = { path: string };
OPTIONS.McpJsonSchemaValidator = OPTIONS['Contract.compile'];

function checkObject(fn, options, spec, prefix) {
  const what = prefix === '' ? 'options' : prefix.slice(0, -1);
  if (!plainObject(options)) {
    throw new OptionError(prefix.slice(0, -1), 'an object', `${fn}: ${what} must be an object, got ${shown(options)}`);
  }
  for (const key of Object.keys(options)) {
    const value = options[key];
    const kind = Object.hasOwn(spec, key) ? spec[key] : undefined;
    if (kind === undefined) {
      const known = Object.keys(spec);
      throw new OptionError(
        prefix + key,
        known.join(', '),
        `unknown option ${prefix}${key}: ${fn} takes ${what === 'options' ? '' : `${what} `}${known.join(', ')}`,
      );
    }
    // Absent, as JSON.stringify leaves it.
    if (value === undefined) continue;
    if (kind.check !== undefined) {
      kind.check(prefix + key, value);
    } else if (kind.nested !== undefined) {
      if (!plainObject(value)) throw invalid(prefix + key, kind.describe, value);
      checkObject(fn, value, kind.nested, `${prefix}${key}.`);
    } else if (!kind[1](value)) {
      throw invalid(prefix + key, kind[0], value);
    }
  }
}

/** Throws an OptionError unless `options` (absent, or an object) holds only what `fn` takes. */
export function checkOptions(fn, options) {
  if (options === undefined || options === null) return;
  checkObject(fn, options, OPTIONS[fn], '');
}
