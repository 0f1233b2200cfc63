// The public JavaScript API over the wasm-bindgen exports. Values cross the boundary as JSON
// text: V8's JSON.stringify/JSON.parse are the fastest way in and out, results come back as
// plain objects and arrays, and JSON.parse defines `__proto__` as an own property, so an output
// cannot change any prototype.
import * as glue from '../wasm/output_contract.js';
// Values defined by the module (src/bindings/boundary.rs, boundary_constants), written into the glue
// as literals by scripts/build.sh.
import {
  ADAPTERS,
  INPUT_KEPT,
  SHORT_CHUNK,
  STATUS_ABORTED,
  STATUS_ATTEMPT_MAX,
  STATUS_ATTEMPT_SHIFT,
  STATUS_BYTES_MAX,
  STATUS_BYTES_UNIT,
  STATUS_COMPLETE,
  STATUS_IN_FLIGHT,
  STATUS_PLAIN_SHIFT,
  PLAIN_ROOMS,
  STATUS_REVISION_MASK,
  STATUS_REVISION_SHIFT,
  VIOLATION_SEPARATOR,
} from '../wasm/output_contract.js';
import { afterTrap, assertReady, detached, instanceGeneration } from './state.js';
import { PATCH_TOOL, currentAttempt, executorStream, finishFailed, finishText, mergePatch, providerBridge } from './internal.js';
import { OptionError, checkOptions } from './options.js';
import { jsonTextOf, notJson } from './json-value.js';
import { formatCallbacksReady, formatFailure, forgetFormats, moduleOptions, takeFormatFailure } from './formats.js';
import { schemaTools } from './tools.js';
import { modulePath, tierOf, tierVerdict } from './tier/index.js';

export { OptionError } from './options.js';
export { FormatFunctionError } from './formats.js';
export { loadSchemaTools } from './tools.js';

// Texts cross as UTF-8 bytes (see `utf8` in src/bindings/wasm.rs): TextEncoder encodes ~30× faster than
// the per-character copy wasm-bindgen generates for string arguments.
const encoder = new TextEncoder();
const utf8 = (text) => encoder.encode(text);
// Outputs, the texts of the hot paths, are encoded straight into the module's input area (see
// `input_area` in src/bindings/wasm.rs), without the array `encode` allocates and the copy of it into the
// module: a seventh of the time. Returns the number of bytes written there.
function toInput(text) {
  // Room for the worst case (3 bytes a UTF-16 unit) while that stays within what the module
  // keeps (INPUT_KEPT); a longer text gets room for ASCII first, then for the worst case of the
  // rest (one pass less for a short text with other characters, measured 130 → 86 µs at 118 KB).
  if (text.length <= INPUT_KEPT / 3) {
    return encoder.encodeInto(text, inputView(text.length * 3)).written;
  }
  // The area may move: the view is asked for again after this.
  input.bytes = EMPTY;
  let address = wasm.inputArea(text.length);
  let { read, written } = encoder.encodeInto(text, new Uint8Array(glue.wasmMemory().buffer, address, text.length));
  if (read < text.length) {
    const capacity = written + (text.length - read) * 3;
    address = wasm.inputArea(capacity);
    written += encoder.encodeInto(text.substring(read), new Uint8Array(glue.wasmMemory().buffer, address + written, capacity - written)).written;
  }
  return written;
}
// A view of the input area, kept while it is large enough: the area stays where it is until
// a call asks it to grow (only here) or the instance is re-created, and the view's buffer is
// detached (its length 0) when the memory grows. (Views of the memory are checked by `length`:
// see toChunkArea.) Asking the module and making a view for each
// call cost a twentieth of validating a 1 KB output.
const EMPTY = new Uint8Array(0);
const input = { generation: -1, bytes: EMPTY };
function inputView(capacity) {
  if (input.bytes.length < capacity || input.generation !== instanceGeneration()) {
    // Room for a few KB at once, so that slightly longer texts do not each ask again.
    const room = Math.min(INPUT_KEPT, Math.max(capacity, 1 << 14));
    // The address first: making room may grow the memory, which detaches its old buffer.
    const address = wasm.inputArea(room);
    input.bytes = new Uint8Array(glue.wasmMemory().buffer, address, room);
    input.generation = instanceGeneration();
  }
  return input.bytes;
}
// The canonical error of validateText, whose text is here already: the module sends an empty
// `raw_output` for the whole text, and for a cut one the marker alone with `raw_output_head`,
// the head's length in UTF-8 bytes (see check_text in src/bindings/wasm.rs). `len` is the text's.
function textFailure(json, text, len) {
  const error = JSON.parse(json);
  const head = error.raw_output_head;
  if (head !== undefined) {
    delete error.raw_output_head;
    error.raw_output = textHead(text, len, head) + error.raw_output;
  } else if (error.raw_output === '') {
    error.raw_output = text;
  }
  return error;
}
// The first `bytes` UTF-8 bytes of `text` (`len` in all), a character boundary: encodeInto
// stops at the last whole character that fits, as the module's cut does.
function textHead(text, len, bytes) {
  if (len === text.length) return text.slice(0, bytes);
  return text.slice(0, encoder.encodeInto(text, new Uint8Array(bytes)).read);
}
// Below SHORT_CHUNK characters a stream chunk is written into the module's chunk area (chunkArea
// in src/bindings/wasm.rs, a fixed buffer of 3 bytes a character), into a view of it that is kept:
// by TextEncoder.encodeInto from LOOP_BELOW characters on, by a loop below that: a call of
// encodeInto has a fixed cost that a short chunk does not repay. The loop writes what
// TextEncoder writes, a lone surrogate as U+FFFD; it encodes characters outside ASCII itself,
// where handing the rest to encodeInto would make a substring and a view of the memory for it.
// A view of the area alone is kept until the instance is re-created or the memory grows (which
// detaches its buffer: the view's length is then 0). Its `length` is read, not its
// `byteLength`, which V8 reads on a slow path for a view of the module's memory.
// The UTF-8 length of a chunk that holds nothing but a string's plain content (no quote,
// backslash or control character), as TextEncoder writes it (a lone surrogate as U+FFFD, three
// bytes); -1 for any other chunk.
function plainBytes(text) {
  const n = text.length;
  let bytes = n;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (code < 0x20 || code === 0x22 || code === 0x5c) return -1;
    } else if (code < 0x800) {
      bytes += 1;
    } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2;
      i += 1;
    } else {
      bytes += 2;
    }
  }
  return bytes;
}
let chunkView = EMPTY;
let chunkGeneration = -1;
const LOOP_BELOW = 32;
function toChunkArea(text) {
  let bytes = chunkView;
  if (bytes.length === 0 || chunkGeneration !== instanceGeneration()) {
    chunkGeneration = instanceGeneration();
    bytes = chunkView = new Uint8Array(glue.wasmMemory().buffer, wasm.chunkArea(), SHORT_CHUNK * 3);
  }
  const n = text.length;
  if (n < LOOP_BELOW) {
    for (let i = 0; i < n; i++) {
      const code = text.charCodeAt(i);
      if (code > 0x7f) return encodeFrom(text, i, bytes);
      bytes[i] = code;
    }
    return n;
  }
  return encoder.encodeInto(text, bytes).written;
}
// The rest of `text` from its unit `i` on, where the first character outside ASCII is (and `i`
// bytes before it), into `bytes`; the bytes written in all.
function encodeFrom(text, i, bytes) {
  const n = text.length;
  let at = i;
  for (; i < n; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes[at++] = code;
    } else if (code < 0x800) {
      bytes[at++] = 0xc0 | (code >> 6);
      bytes[at++] = 0x80 | (code & 0x3f);
    } else {
      if (code >= 0xd800 && code <= 0xdfff) {
        const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
        if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          // A pair: 4 bytes for its 2 units, within the 3 a unit the area has room for.
          code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
          i++;
          bytes[at++] = 0xf0 | (code >> 18);
          bytes[at++] = 0x80 | ((code >> 12) & 0x3f);
          bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
          bytes[at++] = 0x80 | (code & 0x3f);
          continue;
        }
        code = 0xfffd;
      }
      bytes[at++] = 0xe0 | (code >> 12);
      bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
      bytes[at++] = 0x80 | (code & 0x3f);
    }
  }
  return at;
}

// Every call into the module goes through `guarded`, so a trap (a Rust panic) becomes a clear
// Error and a fresh instance (state.js) instead of an instance that fails from then on, and what
// a format function threw during the call is thrown once the call is over (formats.js; a call
// that failed otherwise throws its own error, and the format's is dropped).
function guarded(f) {
  // Fixed parameters where they suffice: no arguments array per call on the hot paths (a
  // stream's push makes five calls per chunk).
  if (f.length <= 3) {
    return function (a, b, c) {
      let result;
      try {
        result = f.call(this, a, b, c);
      } catch (e) {
        takeFormatFailure();
        throw afterTrap(e);
      }
      if (formatFailure !== undefined) throw takeFormatFailure();
      return result;
    };
  }
  return function (...args) {
    let result;
    try {
      result = f.apply(this, args);
    } catch (e) {
      takeFormatFailure();
      throw afterTrap(e);
    }
    if (formatFailure !== undefined) throw takeFormatFailure();
    return result;
  };
}

const wasm = Object.fromEntries(Object.entries(glue).map(([name, value]) => [name, typeof value === 'function' && !/^[A-Z]/.test(name) ? guarded(value) : value]));
for (const type of [glue.WasmContract, glue.WasmStream, glue.WasmProviderStream, glue.WasmProviderEvents]) {
  for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(type.prototype))) {
    if (name === 'constructor' || name === 'free' || name === '__destroy_into_raw') continue;
    if (typeof d.value === 'function') d.value = guarded(d.value);
    if (d.get) d.get = guarded(d.get);
    Object.defineProperty(type.prototype, name, d);
  }
}

/** Thrown by Contract.compile: `kind` is the first issue's kind, `issues` lists them all. */
export class SchemaError extends Error {
  constructor(data) {
    super(data.message);
    this.name = 'SchemaError';
    this.kind = data.kind;
    this.issues = data.issues;
  }
}

/** Thrown by a call on a Contract or stream after its free() (`kind: 'freed'`). */
export class FreedError extends Error {
  constructor(type) {
    super(`output-contract: this ${type} was freed`);
    this.name = 'FreedError';
    this.kind = 'freed';
  }
}

function schemaErrorFrom(thrown) {
  if (typeof thrown === 'string') {
    try {
      const data = JSON.parse(thrown);
      // The module's own check of the options (after checkOptions, only what it alone can tell).
      if (data.kind === 'invalid_option') return new OptionError('', '', data.issues?.[0]?.message ?? data.message);
      return new SchemaError(data);
    } catch {
      // not one of ours: fall through
    }
  }
  return thrown;
}

function invalidJsonError(message) {
  return new SchemaError({
    kind: 'invalid_json',
    message: `invalid schema: ${message}`,
    issues: [{ kind: 'invalid_json', pointer: '', message }],
  });
}

const dispose = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('Symbol.dispose');

// What each Contract was compiled from, so it can recompile itself in a re-created instance.
// How many freed streams' wasm objects a contract keeps for its next streams of the same
// options (Contract#spare), and for how many different options besides the default ones.
const SPARE_STREAMS = 4;
const SPARE_OPTIONS = 4;
const keepStream = Symbol('keepStream');
const recipes = new WeakMap();
// Each Contract's verdict tier (pkg/src/tier/), or null where it has none; and the tier the
// tests' hook uses (tierVerdict).
const tiers = new WeakMap();
const testTiers = new WeakMap();
// The contracts compiled with `codegen: false`: their tier keeps to the closures.
const noCodegen = new WeakSet();
// The format functions of a contract compiled with some, by name (the tier calls them).
const functionsOf = new WeakMap();

function handleOf(owner) {
  const handle = Owned.handle(owner);
  if (handle === undefined) throw new FreedError(owner.constructor.name);
  if (!detached(handle)) return handle;
  const recipe = recipes.get(owner);
  if (recipe === undefined) {
    throw new Error(`output-contract: this ${owner.constructor.name} was lost when the WebAssembly instance was re-created after an internal error; start a new one`);
  }
  formatCallbacksReady();
  const fresh = wasm.compileContract(utf8(recipe[0]), recipe[1]);
  Owned.replace(owner, fresh);
  return fresh;
}

/** Owns one wasm object: free() (or `using`) releases it. */
class Owned {
  // The wasm object behind this Contract / OutputStream; undefined once freed.
  #handle;

  constructor(handle, type, hint) {
    if (!(handle instanceof type)) throw new TypeError(hint);
    this.#handle = handle;
  }

  // The wasm object of `owner` (undefined: freed, or not an object of this package).
  static handle(owner) {
    return typeof owner === 'object' && owner !== null && #handle in owner ? owner.#handle : undefined;
  }

  // A contract recompiled in a re-created instance (handleOf).
  static replace(owner, handle) {
    owner.#handle = handle;
  }

  // The wasm object handed on (a stream's kept by its contract): `owner` is freed without it.
  static release(owner) {
    owner.#handle = undefined;
  }

  /** Releases the wasm object now rather than when it is garbage-collected. */
  free() {
    const handle = this.#handle;
    this.#handle = undefined;
    tiers.delete(this);
    testTiers.delete(this);
    if (handle === undefined) return;
    if (!detached(handle)) handle.free();
  }

  [dispose]() {
    this.free();
  }
}

export class Contract extends Owned {
  // The verdict tier validate() asks, once built (null: none); `tiers` keeps what decides it.
  #verdictTier = undefined;
  // The wasm objects of freed streams of default options, started over (WasmStream.renew) for
  // this contract's next ones: a new one costs a wrapper object with a FinalizationRegistry
  // entry and an allocation in the module, about half of what a short stream costs besides its
  // bytes. (Left to the garbage collector, they go with the contract.)
  #spare = [];
  // The same for streams with options, by the options' text.
  #spareWith = new Map();

  constructor(handle) {
    super(handle, wasm.WasmContract, 'use Contract.compile(schema, options) to create a Contract');
  }

  free() {
    this.#verdictTier = undefined;
    for (const handle of this.#spare.splice(0)) if (!detached(handle)) handle.free();
    for (const handles of this.#spareWith.values()) for (const handle of handles) if (!detached(handle)) handle.free();
    this.#spareWith.clear();
    super.free();
  }

  // A freed stream's wasm object (not detached; `options`: the text of its options, null for
  // the default ones), kept as a spare: whether it was (not once the contract is freed, nor past
  // SPARE_STREAMS for its options or SPARE_OPTIONS different options).
  [keepStream](handle, options) {
    if (Owned.handle(this) === undefined) return false;
    let spares = this.#spare;
    if (options !== null) {
      spares = this.#spareWith.get(options);
      if (spares === undefined) {
        if (this.#spareWith.size >= SPARE_OPTIONS) return false;
        this.#spareWith.set(options, (spares = []));
      }
    }
    if (spares.length >= SPARE_STREAMS) return false;
    handle.renew();
    spares.push(handle);
    return true;
  }

  /** Compiles (or takes from the cache) the contract for `schema`, given as an object or JSON text. */
  static compile(schema, options) {
    assertReady();
    let text;
    if (typeof schema === 'string') {
      text = schema;
    } else {
      try {
        text = JSON.stringify(schema);
      } catch (e) {
        throw invalidJsonError(`schema cannot be serialized as JSON: ${e.message}`);
      }
      if (text === undefined) throw invalidJsonError('schema must be an object, a boolean or JSON text');
    }
    checkOptions('Contract.compile', options);
    const { text: optionsText, ids, functions } = moduleOptions(options);
    let contract;
    try {
      contract = new Contract(wasm.compileContract(utf8(text), optionsText));
    } catch (e) {
      forgetFormats(ids);
      throw schemaErrorFrom(e);
    }
    recipes.set(contract, [text, optionsText]);
    // The tier calls format functions itself (a value one throws on is then the module's).
    if (functions !== null) functionsOf.set(contract, functions);
    if (options?.codegen === false) noCodegen.add(contract);
    return contract;
  }

  get schemaId() {
    return handleOf(this).schemaId;
  }

  get agentId() {
    return handleOf(this).agentId ?? null;
  }

  get draft() {
    return handleOf(this).draft;
  }

  /** Why the schema is read in `draft`: `{ source, message, keyword?, pointer?, uri? }`. */
  get draftReason() {
    return JSON.parse(handleOf(this).draftReason);
  }

  /**
   * Validates a JavaScript value (as its JSON form: what would be sent or stored). A value JSON
   * cannot carry (a cycle, NaN, a BigInt, …) throws a TypeError naming where it is.
   */
  validate(value) {
    // The tier answers a valid value alone; anything else takes the module's path below.
    // A contract without a tier keeps null here: built once, not asked for again.
    let tier = this.#verdictTier;
    if (tier === undefined) tier = this.#verdictTier = tiers.has(this) ? tiers.get(this) : this.#tier();
    const verdict = tier === null ? undefined : tier(value);
    if (verdict === true) return { valid: true, data: value };
    return this.#moduleValidate(value, verdict === false);
  }

  // The module's verdict and error on a value. `plain`: the tier looked at the whole value (it
  // found it invalid), so its text is JSON.stringify's, with nothing for jsonTextOf to look for.
  #moduleValidate(value, plain) {
    const text = plain ? JSON.stringify(value) : jsonTextOf(value);
    const len = toInput(text);
    const failure = handleOf(this).validateText(len, plain);
    return failure === undefined ? { valid: true, data: value } : { valid: false, error: textFailure(failure, text, len) };
  }

  // For tests: validate(value) by the module's path alone, the tier left out.
  [modulePath](value) {
    return this.#moduleValidate(value, false);
  }

  // The contract's verdict tier (pkg/src/tier/), built from its plan on first use, or null. Its
  // node numbers hold in a re-created instance too (the same schema compiles to the same
  // nodes), so `judge` asks whatever handle the contract has then.
  #tier(adaptive = true) {
    const judge = (node, v) => handleOf(this).nodeIsValid(node, toInput(JSON.stringify(v)));
    const tier = tiers.get(this) === null ? null : tierOf(handleOf(this).plan, judge, { adaptive, codegen: !noCodegen.has(this), functions: functionsOf.get(this) });
    (adaptive ? tiers : testTiers).set(this, tier);
    return tier;
  }

  // For tests: the tier's own answer on a value (true, false, or undefined: unknown), never
  // giving up on a value that needs the module often, and how many times it asked the module
  // about a node in all.
  [tierVerdict](value) {
    const tier = testTiers.get(this) ?? this.#tier(false);
    return tier === null ? { verdict: undefined, judged: 0, backend: null } : { verdict: tier(value), judged: tier.judged, backend: tier.backend };
  }

  /**
   * Parses and validates model output text; `data` is the parsed value. With `extract`, the JSON
   * is first found in the text (see extractJson) and the result carries the `extraction`.
   */
  validateText(text, options) {
    if (typeof text !== 'string') throw new TypeError('validateText expects a string');
    checkOptions('contract.validateText', options);
    if (options?.extract) {
      const { extraction, error } = JSON.parse(handleOf(this).extractAndValidate(toInput(text), Boolean(options.repair)));
      return error === undefined ? { valid: true, data: extraction.value, extraction } : { valid: false, error, extraction };
    }
    const len = toInput(text);
    const failure = handleOf(this).validateText(len, false);
    return failure === undefined ? { valid: true, data: JSON.parse(text) } : { valid: false, error: textFailure(failure, text, len) };
  }

  /**
   * Validates tool-call arguments (JSON text as providers send them, or an object). With
   * `nullAsAbsent` (what submitResultTool's OpenAI definition asks for), a null for an optional
   * property that does not accept null is read as absent and left out of `data`.
   */
  validateToolCall(args, options) {
    checkOptions('contract.validateToolCall', options);
    // No arguments at all are the model's to repair, as empty text is; a value JSON cannot carry
    // is the caller's error (a TypeError, as validate's).
    const text = typeof args === 'string' ? args : args === undefined ? '' : jsonTextOf(args);
    return JSON.parse(handleOf(this).validateToolCall(toInput(text), Boolean(options?.nullAsAbsent)));
  }

  /**
   * Applies `patch` to a copy of `base` and validates the merged document (the post-merge hook):
   * `data` is the merged document. `format`: 'json-patch' (RFC 6902, the default) or
   * 'merge-patch' (RFC 7396). Each of `base` and `patch` is a value or JSON text; with `extract`,
   * a text's JSON is found in it as validateText finds it. A patch that cannot be applied is a
   * `patch` violation naming the operation's index and path; `applied` tells whether it was.
   * The patch engine is in the schema tools' module (see loadSchemaTools).
   */
  validateMerged(base, patch, options) {
    checkOptions('contract.validateMerged', options);
    const merged = this[mergePatch](base, patch, options?.format ?? 'json-patch', Boolean(options?.extract));
    if (merged.violations === undefined) return { ...this.validate(merged.merged), applied: true };
    return { valid: false, error: JSON.parse(handleOf(this).failure(JSON.stringify(merged.violations), merged.raw)), applied: false };
  }

  // `{ merged }`, or `{ violations, raw }` when there is no merged document (see applyPatch in
  // src/bindings/tools.rs). A string is text (model text with `extract`), anything else a value.
  [mergePatch](base, patch, format, extract) {
    const tools = schemaTools();
    const handle = handleOf(this);
    const [baseText, baseModel] = typeof base === 'string' ? [base, extract] : [jsonTextOf(base), false];
    const [patchText, patchModel] = typeof patch === 'string' ? [patch, extract] : [jsonTextOf(patch), false];
    return JSON.parse(tools.applyPatch(baseText, baseModel, patchText, patchModel, format, handle.maxOutputBytes, handle.maxDepth));
  }

  /** The schema as compiled (a fresh copy on each read). */
  get schema() {
    return JSON.parse(handleOf(this).schemaJson);
  }

  /**
   * The schema as JSON Schema, for what reads only JSON Schema (tool definitions, prompts, the AI
   * SDK): `schema` itself, or for a JTD contract its JSON Schema form (a fresh copy on each read).
   */
  get jsonSchema() {
    return JSON.parse(handleOf(this).jsonSchemaJson);
  }

  /**
   * Standard Schema v1 (https://standardschema.dev), with the Standard JSON Schema extension, so
   * any consumer of either (the AI SDK among them) takes a Contract as it is.
   */
  get ['~standard']() {
    const contract = this;
    return {
      version: 1,
      vendor: 'output-contract',
      validate(value) {
        let result;
        try {
          result = contract.validate(value);
        } catch (e) {
          // A Standard Schema answers any input with issues, that one too.
          if (e?.[notJson] === true) return { issues: [{ message: e.message, path: [] }] };
          throw e;
        }
        if (result.valid) return { value: result.data };
        return { issues: result.error.violations.map((v) => ({ message: v.message, path: pathSegments(v.pointer, value) })) };
      },
      jsonSchema: {
        input: (options) => standardJsonSchema(contract, options?.target),
        output: (options) => standardJsonSchema(contract, options?.target),
      },
    };
  }

  /** A stream validator: push chunks as they arrive, then finish() when the model stops. */
  stream(options) {
    checkOptions('contract.stream', options);
    if (options == null) {
      const contract = handleOf(this);
      // (A spare of an instance re-created since is gone with it.)
      let spare;
      while ((spare = this.#spare.pop()) !== undefined) if (!detached(spare)) return new OutputStream(spare, true, this);
      return new OutputStream(contract.stream('', ''), true, this);
    }
    const text = JSON.stringify(options);
    const contract = handleOf(this);
    // The data of a valid outcome is the text's JSON.parse, unless extraction or nullAsAbsent
    // changes it (see OutputStream#plain).
    const plain = !options.extract && !options.nullAsAbsent;
    const spares = this.#spareWith.get(text);
    let spare;
    if (spares !== undefined) while ((spare = spares.pop()) !== undefined) if (!detached(spare)) return new OutputStream(spare, plain, this, text);
    return new OutputStream(contract.stream(text, ''), plain, this, text);
  }

  // enforce()'s stream: its outcomes carry their data (see OutputStream#finishText).
  [executorStream](options, templates) {
    return new OutputStream(handleOf(this).stream(JSON.stringify(options), templatesText(templates)), false);
  }

}

// The marks' layout (src/bindings/boundary.rs), as the constants above.
import { MARKS_MORE, MARK_ARRAY, MARK_CLOSE, MARK_CUT } from '../wasm/output_contract.js';

// The data of a streamed text, built while it arrives, so that the end of a stream does not
// parse the whole text again: the module marks where the values of the top two levels begin and
// end (Mark in src/agent/stream.rs, written into the marks area at each push). Text is parsed
// with JSON.parse at the end of a push, and only once what is complete reaches a batch (see
// MEMBERS_BATCH): a container is parsed whole from its own text while that can wait (a root
// that closes in the push it began in is one JSON.parse, as a one-shot parse would be), and built
// here from batches of its members only once its text grows past a batch (the root and the
// containers among its members; anything deeper is always parsed whole). Adding members the way
// JSON.parse defines them (see `define`), the data is the JSON.parse of the whole text: the same
// values, keys in the same order.
class StreamData {
  // The text from UTF-16 offset `base` on, not parsed yet, up to the chunk being read (the whole
  // text's end between pushes); the text's length in UTF-16 units and in UTF-8 bytes (the marks'
  // unit). While a chunk's marks are read, the chunk stays apart from `pending`: a batch that
  // spans both is joined into the string JSON.parse reads, and `pending` (a rope of the short
  // chunks since the last batch) is not flattened on its own first.
  pending = '';
  base = 0;
  chars = 0;
  bytes = 0;
  // While a push is read: where the text not parsed yet starts (`base` once the push is read).
  cursor = 0;
  // Where the members of the innermost open container that are complete but not parsed yet end,
  // as an offset in the whole text (-1: none).
  cut = -1;
  // The last offset where complete members end, in whatever container (-1: none yet).
  last = -1;
  // Whether the comma before the next member of the innermost built container is still in the
  // text at the cursor (JSON.parse reads the members from after it).
  sep = false;
  // The containers being built, the innermost last: { value, array, key } (`value` stays
  // undefined until members come: the first parsed batch becomes the container itself).
  open = [];
  // The open containers inside those, none of whose text is parsed yet, the innermost last:
  // { at, array, cut } (`at`: its bracket; `cut`: its parent's `cut` when it began). Closed
  // before they reach a batch, they are members of their parent, parsed with its other members.
  lazy = [];
  // The root value once it closed.
  done = false;
  data = undefined;
  // In the chunk being read, the last mark's offset in bytes and in UTF-16 units (marks come in
  // text order: each is found from the last one, so a long chunk is encoded once).
  markBytes = 0;
  markUnits = 0;

  // After the push of `chunk` (`written` UTF-8 bytes); `marked`: the push wrote marks.
  take(handle, chunk, written, marked) {
    const charStart = this.chars;
    this.chars += chunk.length;
    const byteStart = this.bytes;
    this.bytes += written;
    // A separator still due starts the chunk: skipped, so that no batch has to look for it in
    // `pending` (a rope, which looking into would flatten on its own).
    const skip = this.sep && this.pending === '' ? this.skipSeparator(chunk, 0) : 0;
    this.base += skip;
    if (!marked) {
      this.pending += skip === 0 ? chunk : chunk.slice(skip);
      return;
    }
    this.markBytes = 0;
    this.markUnits = 0;
    this.cursor = this.base;
    for (;;) {
      const { index, words } = marksArea();
      const count = words[index];
      this.read(words, index, count & ~MARKS_MORE, chunk, written === chunk.length, charStart, byteStart);
      if ((count & MARKS_MORE) === 0) break;
      // More than the area holds (one long chunk): the next ones.
      handle.moreMarks();
    }
    // Complete text ends at the last cut at most (cuts come in text order): most pushes of short
    // chunks stop here.
    if (this.last - this.cursor >= membersBatch(this.chars) && !this.done) this.settle(chunk, charStart);
    let cursor = this.cursor;
    if (this.sep && cursor >= charStart) cursor = charStart + this.skipSeparator(chunk, cursor - charStart);
    // What is not parsed of `pending` and the chunk is the pending text.
    const rest = cursor - charStart;
    if (rest < 0) this.pending = (cursor === this.base ? this.pending : this.pending.slice(cursor - this.base)) + chunk;
    else this.pending = rest === 0 ? chunk : chunk.slice(rest);
    this.base = cursor;
  }

  // `count` marks from the area, all of them in `chunk` (which starts at UTF-16 offset
  // `charStart`, byte `byteStart`, and follows `pending`). Only a built container's close
  // parses here (its last members, before it is added to its parent); the rest waits for
  // `settle`, at the end of the push.
  read(words, index, count, chunk, ascii, charStart, byteStart) {
    const open = this.open;
    const lazy = this.lazy;
    for (let i = index + 1, end = index + 1 + 2 * count; i < end; i += 2) {
      const kind = words[i];
      // The mark's offset in UTF-16 units.
      const bytesIn = words[i + 1] - byteStart;
      const at = charStart + (ascii ? bytesIn : this.unitsTo(chunk, bytesIn));
      if (kind === MARK_CUT) this.cut = this.last = at;
      else if (kind !== MARK_CLOSE) {
        lazy.push({ at, array: kind === MARK_ARRAY, cut: this.cut });
        this.cut = -1;
      } else if (lazy.length !== 0) {
        lazy.pop();
        if (lazy.length !== 0 || open.length !== 0) this.cut = this.last = at;
        else {
          // A root none of which was parsed: its text whole.
          this.done = true;
          this.data = JSON.parse(this.between(chunk, charStart, this.cursor, at));
          this.cursor = at;
        }
      } else {
        this.flush(open.at(-1), chunk, charStart, this.cut);
        const frame = open.pop();
        const value = frame.value ?? (frame.array ? [] : {});
        const parent = open.at(-1);
        if (parent === undefined) {
          this.done = true;
          this.data = value;
        } else if (parent.array) (parent.value ??= []).push(value);
        else define((parent.value ??= {}), frame.key, value);
        this.cursor = at;
        this.sep = true;
        this.cut = -1;
      }
    }
  }

  // At the end of a push: what is complete is parsed once it reaches a batch. An open container
  // whose complete text reached one is built from here on (and those around it); then the
  // innermost built container's complete members, once a batch.
  settle(chunk, charStart) {
    const batch = membersBatch(this.chars);
    const lazy = this.lazy;
    for (let i = 0; i < lazy.length; i++) {
      const end = i + 1 < lazy.length ? lazy[i + 1].cut : this.cut;
      if (end - lazy[i].at < batch) continue;
      for (let n = 0; n <= i; n++) this.begin(lazy.shift(), chunk, charStart);
      this.flush(this.open.at(-1), chunk, charStart, end);
      i = -1;
    }
    const frame = this.open.at(-1);
    const end = lazy.length === 0 ? this.cut : lazy[0].cut;
    if (frame !== undefined && end - this.cursor >= batch) this.flush(frame, chunk, charStart, end);
  }

  // The open container `begun` (from `lazy`) is built from here on, as the innermost: its
  // parent's members before it parsed, its name read.
  begin(begun, chunk, charStart) {
    const parent = this.open.at(-1);
    let key;
    if (parent !== undefined) {
      this.flush(parent, chunk, charStart, begun.cut);
      // `"name": ` before its bracket (after a comma and whitespace).
      if (!parent.array) key = keyBefore(this.between(chunk, charStart, this.cursor, begun.at));
    }
    this.open.push({ value: undefined, array: begun.array, key });
    this.cursor = begun.at + 1;
    this.sep = false;
  }

  // The members of `frame` from the cursor to `to` (complete ones), parsed and added.
  flush(frame, chunk, charStart, to) {
    if (to <= this.cursor) return;
    addMembers(frame, this.between(chunk, charStart, this.sep ? this.afterComma(chunk, charStart, this.cursor) : this.cursor, to));
    this.cursor = to;
    this.sep = true;
  }

  // The text from offset `from` to `to` (`from` at or after `base`, `to` at most the chunk's end).
  between(chunk, charStart, from, to) {
    if (from >= charStart) return chunk.slice(from - charStart, to - charStart);
    const head = this.pending;
    const headStart = charStart - head.length;
    if (to <= charStart) return head.slice(from - headStart, to - headStart);
    return (from === headStart ? head : head.slice(from - headStart)) + chunk.slice(0, to - charStart);
  }

  // The offset after whitespace and a comma from `from` on (in `pending` or `chunk`).
  afterComma(chunk, charStart, from) {
    if (from >= charStart) return charStart + this.skipSeparator(chunk, from - charStart);
    const head = this.pending;
    return charStart - head.length + this.skipSeparator(head, from - charStart + head.length);
  }

  // The offset in `text` after whitespace from `from` on and, if it comes next, the separator
  // (then no longer due).
  skipSeparator(text, from) {
    for (;;) {
      const c = text.charCodeAt(from);
      if (c === 44) {
        this.sep = false;
        return from + 1;
      }
      // Past the end, `c` is NaN.
      if (!(c <= 32)) return from;
      from++;
    }
  }

  // The UTF-16 offset in `chunk` of its byte offset `bytes` (a character boundary, at or after
  // the last mark's).
  unitsTo(chunk, bytes) {
    if (bytes > this.markBytes) {
      const rest = this.markUnits === 0 ? chunk : chunk.substring(this.markUnits);
      this.markUnits += unitsIn(rest, bytes - this.markBytes);
      this.markBytes = bytes;
    }
    return this.markUnits;
  }

  // The data of a valid text: built, or for a scalar root (no marks), the whole text's.
  value() {
    return this.done ? this.data : JSON.parse(this.pending);
  }
}

// Complete text is parsed once it reaches a batch (or its container closes): what the last push
// has left to parse is at most about a batch for each open level (the root's members, those of
// the open container among them) plus the last member. A batch is MEMBERS_BATCH UTF-16
// units, where a whole short output would otherwise wait for the end, and grows with the text to
// a 2^MEMBERS_SHARE-th of what has arrived, up to MEMBERS_MAX: each JSON.parse call has a fixed
// cost, so a long text parsed in short batches pays it many times over, while what its end waits
// for stays a small share of it and a few KB at most.
const MEMBERS_BATCH = 256;
const MEMBERS_SHARE = 4;
const MEMBERS_MAX = 4096;
function membersBatch(chars) {
  return Math.max(MEMBERS_BATCH, Math.min(MEMBERS_MAX, chars >>> MEMBERS_SHARE));
}

// The marks area (marksArea in src/bindings/wasm.rs) as 32-bit words: a view of the memory and
// the area's index in it, kept as the chunk area's view is (see toChunkArea).
let marks = { generation: -1, index: 0, words: new Uint32Array(0) };
function marksArea() {
  if (marks.generation !== instanceGeneration() || marks.words.length === 0) {
    marks = { generation: instanceGeneration(), index: wasm.marksArea() >>> 2, words: new Uint32Array(glue.wasmMemory().buffer) };
  }
  return marks;
}

// UTF-16 units in the first `bytes` bytes of `text`'s UTF-8 (a character boundary).
let unitsBuffer = new Uint8Array(256);
function unitsIn(text, bytes) {
  if (unitsBuffer.length < bytes) unitsBuffer = new Uint8Array(Math.max(bytes, 2 * unitsBuffer.length));
  return encoder.encodeInto(text, unitsBuffer.subarray(0, bytes)).read;
}

// Members that closed (`text`: from the first one's start, or whitespace before it, to the end
// of the last), parsed together and added to `frame`'s container.
function addMembers(frame, text) {
  if (frame.array) {
    const items = JSON.parse(`[${text}]`);
    if (frame.value === undefined) frame.value = items;
    // As arguments, the items are appended faster than one call each; a long batch (one long
    // chunk) stays below what engines accept as arguments.
    else if (items.length <= 8192) frame.value.push(...items);
    else for (let i = 0; i < items.length; i++) frame.value.push(items[i]);
  } else {
    const object = JSON.parse(`{${text}}`);
    if (frame.value === undefined) frame.value = object;
    else for (const key of Object.keys(object)) define(frame.value, key, object[key]);
  }
}

// `"name": ` before a container that begins (after a comma and whitespace): the name.
function keyBefore(text) {
  return JSON.parse(text.slice(text.indexOf('"'), text.lastIndexOf(':')));
}

// A member added as JSON.parse adds it (CreateDataProperty): `__proto__` and the names of
// Object.prototype become own properties, whatever the prototype holds (frozen or with setters).
function define(object, key, value) {
  if (key in object) Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

// The status a push returns comes packed in one number (src/bindings/wasm.rs, packed_status); a
// saturated field is read from the handle's getter. The low fields are what is left below the
// bytes: a subtraction, where `%` of a double is a call out of optimised code. Violations cross
// the boundary only when they changed (new ones, one completed when its value closed, or a retry
// that reset them); `last` keeps them between pushes.
function statusOf(packed, handle, last) {
  const bytes = Math.floor(packed / STATUS_BYTES_UNIT);
  const low = packed - bytes * STATUS_BYTES_UNIT;
  const attempt = (low >> STATUS_ATTEMPT_SHIFT) & STATUS_ATTEMPT_MAX;
  const revision = (low >> STATUS_REVISION_SHIFT) & STATUS_REVISION_MASK;
  if (revision !== last.revision) {
    last.early = JSON.parse(handle.earlyViolations());
    last.revision = revision;
  }
  return {
    state: STATUS_IN_FLIGHT,
    attempt: attempt === STATUS_ATTEMPT_MAX ? handle.attempt : attempt,
    bytes: bytes === STATUS_BYTES_MAX ? handle.bytes : bytes,
    complete: (low & STATUS_COMPLETE) !== 0,
    earlyViolations: last.early.length === 0 ? [] : last.early.slice(),
    aborted: (low & STATUS_ABORTED) !== 0,
  };
}

// What push and finish throw once the stream has ended: typed by its `kind` (as FreedError is),
// with the final outcome's `state`. (The module's own check, not_ended in src/bindings/wasm.rs,
// is never reached from here: the stream knows it ended before calling.)
function endedError(state) {
  const error = new Error(`the stream has ended (${state}): create a new one with contract.stream()`);
  error.kind = 'stream_ended';
  error.state = state;
  return error;
}

/**
 * In-flight → soft-complete → (retry) → hard-complete, or refused. Each push parses only the new
 * bytes; early violations are those no continuation could repair.
 */
export class OutputStream extends Owned {
  // `contract`: the Contract whose stream this is, kept as a spare when freed (see
  // Contract#spare); `options`: the text of its options (null: the default ones).
  constructor(handle, plain = false, contract = null, options = null) {
    super(handle, wasm.WasmStream, 'use contract.stream() to create an OutputStream');
    this.#plain = plain;
    this.#data = plain ? new StreamData() : null;
    this.#contract = contract;
    this.#options = options;
    if (plain) handle.trackMarks();
  }

  #contract;
  #options;

  free() {
    const handle = Owned.handle(this);
    if (handle !== undefined && this.#contract !== null && !detached(handle) && this.#contract[keepStream](handle, this.#options)) Owned.release(this);
    else super.free();
  }

  // The early violations as last read, and their revision (see statusOf).
  #last = { revision: 0, early: [] };
  // Whether the data of a valid outcome is the JSON.parse of the attempt's text (`#plain`). While
  // every chunk is a string, it is built here as the text arrives (`#data`, a StreamData; null
  // otherwise): the module would send the value's text in the outcome, for this side to parse
  // whole after the last chunk, which was most of a long output's finish.
  #plain;
  #data;
  // A high surrogate that ended the last string chunk, held until the next chunk brings its low
  // half: encoded alone, each half of a pair would reach the module as U+FFFD, and a valid
  // output could fail (`maxLength`, `pattern`, `enum`) and be retried.
  #high = '';
  // The state of the final outcome once there is one (the module says when: `ended`); from then
  // on push and finish throw, where they would answer with a stale status or outcome.
  #ended = null;
  // Short text chunks held back (see #send): their text and its UTF-8 bytes, and the packed
  // status of the last push the module read. `#holds`: whether chunks may be held at all
  // (not once a chunk came as bytes, which may cut a character, nor once `changes()` records).
  #held = '';
  #heldBytes = 0;
  #packed = 0;
  #holds = true;

  #assertOpen() {
    if (this.#ended !== null) throw endedError(this.#ended);
  }

  // Called with each outcome: whether it is the final one.
  #settle(handle, outcome) {
    if (handle.ended) this.#ended = outcome.state;
  }

  /** Appends a chunk (text, or UTF-8 bytes), split anywhere: a text chunk may end inside a surrogate pair. */
  push(chunk) {
    this.#assertOpen();
    const handle = handleOf(this);
    return statusOf(this.#append(handle, chunk), handle, this.#last);
  }

  // `push` of an open stream, without the status (consume): the packed one. The early
  // violations' revision stays as `#last` saw it, so a later status reads them if they moved.
  #append(handle, chunk) {
    let packed;
    if (typeof chunk === 'string') {
      if (this.#high !== '') {
        chunk = this.#high + chunk;
        this.#high = '';
      }
      const last = chunk.charCodeAt(chunk.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        this.#high = chunk.slice(-1);
        chunk = chunk.slice(0, -1);
      }
      packed = this.#send(handle, chunk);
    } else if (chunk instanceof Uint8Array) {
      this.#flushHigh();
      this.#holds = false;
      packed = this.#packed = handle.pushBytes(chunk);
      this.#data = null;
    } else throw new TypeError('push expects a string or a Uint8Array');
    return packed;
  }

  // Pushes a string chunk; its marks go to the data being built. A short chunk that only adds
  // to a string's content, where the module said that this much more of it can report nothing
  // and reach no limit (PLAIN_ROOMS, OutputStream::plain_room in src/agent/stream.rs), is held
  // and handed over with the next chunk: its status is the last one with its bytes added, which
  // is what the module would have answered, and a token delta inside a long string costs no
  // crossing into the module.
  #send(handle, chunk) {
    // (A quote, which ends most chunks that cannot be held, is looked for natively first.)
    if (this.#holds && chunk.length < SHORT_CHUNK && this.#held.length + chunk.length <= PLAIN_ROOMS[(this.#packed >> STATUS_PLAIN_SHIFT) & 3] && !chunk.includes('"')) {
      const bytes = plainBytes(chunk);
      const total = Math.floor(this.#packed / STATUS_BYTES_UNIT) + this.#heldBytes + bytes;
      if (bytes >= 0 && total < STATUS_BYTES_MAX) {
        this.#held += chunk;
        this.#heldBytes += bytes;
        return this.#packed + (this.#heldBytes * STATUS_BYTES_UNIT);
      }
    }
    if (this.#held !== '') chunk = this.#takeHeld() + chunk;
    return (this.#packed = this.#read(handle, chunk));
  }

  // The chunks held back, handed to the module before anything reads its state.
  #release(handle) {
    if (this.#held !== '') this.#packed = this.#read(handle, this.#takeHeld());
  }

  // The text held back, no longer held.
  #takeHeld() {
    const held = this.#held;
    this.#held = '';
    this.#heldBytes = 0;
    return held;
  }

  // The module reads a string chunk.
  #read(handle, chunk) {
    const data = this.#data;
    const written = chunk.length < SHORT_CHUNK ? toChunkArea(chunk) : toInput(chunk);
    const packed = chunk.length < SHORT_CHUNK ? handle.pushChunk(written, data !== null) : handle.pushInput(written, data !== null);
    // A push that wrote marks says so by its sign (marks_out in src/bindings/wasm.rs).
    if (data !== null) {
      try {
        data.take(handle, chunk, written, packed < 0);
      } catch {
        // Never expected (the module marks only values it read whole): the module's data then.
        this.#data = null;
      }
    }
    return packed < 0 ? -1 - packed : packed;
  }

  // A held high surrogate that no low half followed is sent as it is (the module reads U+FFFD),
  // with the chunks held back.
  #flushHigh() {
    const handle = handleOf(this);
    if (this.#high !== '') {
      this.#send(handle, this.#high);
      this.#high = '';
    }
    this.#release(handle);
  }

  /** The value as written so far: strings as their prefix, numbers being written left out. */
  partial() {
    const handle = handleOf(this);
    this.#release(handle);
    const text = handle.partial();
    return text === undefined ? undefined : JSON.parse(text);
  }

  /**
   * Changes to the partial value since the last call: `{ path, value }` (set) or `{ path, append }`
   * (text added to a string). The first call returns the whole partial value at `$`.
   */
  changes() {
    const handle = handleOf(this);
    this.#release(handle);
    // Recording changes, the module answers each push with what it added.
    this.#holds = false;
    return JSON.parse(handle.changes());
  }

  /** With `extract`: the stretches of this attempt's input that were not JSON (byte offsets). */
  skipped() {
    const handle = handleOf(this);
    this.#release(handle);
    return JSON.parse(handle.skipped());
  }

  /** The model stopped: `{ stopReason?, refusal? }`, the stop reason as the provider said it (StopReason in index.d.ts). */
  finish(end) {
    this.#assertOpen();
    checkOptions('stream.finish', end);
    const stopReason = end?.stopReason ?? undefined;
    const refusal = end?.refusal ?? undefined;
    this.#flushHigh();
    this.#last.early = [];
    const data = this.#data;
    const handle = handleOf(this);
    // A valid outcome whose data is built here comes as its attempt alone (WasmStream::finish):
    // such an outcome ends the stream.
    const attempt = handle.finish(stopReason, refusal, data === null);
    if (attempt > 0) {
      this.#ended = 'soft-complete';
      this.#data = null;
      return { state: 'soft-complete', valid: true, data: data.value(), attempt };
    }
    const outcome = JSON.parse(handle.outcome());
    this.#settle(handle, outcome);
    this.#nextAttempt(outcome);
    return outcome;
  }

  // A retry starts the next attempt's data; past a final outcome the module answers alone.
  #nextAttempt(outcome) {
    this.#packed = 0;
    this.#data = this.#plain && outcome.retry === true ? new StreamData() : null;
  }

  // An attempt whose whole text the caller holds (`streamed`: pushed here as it arrived); the
  // module reads it (OutputStream::finish_text) and its outcome carries the data.
  [finishText](end, text, streamed, repair) {
    this.#assertOpen();
    // How a model reply said it ended (enforce): checked as finish's end is.
    checkOptions('stream.finish', end);
    const stopReason = end?.stopReason ?? undefined;
    const refusal = end?.refusal ?? undefined;
    this.#flushHigh();
    this.#last.early = [];
    const handle = handleOf(this);
    const outcome = JSON.parse(handle.finishText(stopReason, refusal, toInput(text), streamed, repair));
    this.#settle(handle, outcome);
    this.#nextAttempt(outcome);
    return outcome;
  }

  // An attempt that ends with violations the caller found (enforce: a patch that did not apply).
  [finishFailed](violations, raw) {
    this.#assertOpen();
    this.#flushHigh();
    this.#last.early = [];
    const handle = handleOf(this);
    const outcome = JSON.parse(handle.finishFailed(JSON.stringify(violations), raw));
    this.#settle(handle, outcome);
    this.#nextAttempt(outcome);
    return outcome;
  }

  [currentAttempt]() {
    return handleOf(this).attempt;
  }

  /**
   * A TransformStream for `response.body.pipeThrough(new TextDecoderStream()).pipeThrough(s.transform())`
   * (or bytes): each chunk in, its status out.
   */
  transform() {
    return new TransformStream({
      transform: (chunk, controller) => controller.enqueue(this.push(chunk)),
    });
  }

  /** Consumes an async iterable of chunks (text deltas or bytes), then finishes the attempt. */
  async consume(chunks, end) {
    if (chunks != null && typeof chunks[Symbol.asyncIterator] !== 'function' && typeof chunks[Symbol.iterator] === 'function') {
      await this.#consumeSync(chunks);
    } else {
      for await (const chunk of chunks) {
        this.#assertOpen();
        this.#append(handleOf(this), chunk);
      }
    }
    return this.finish(end);
  }

  // `consume` of a synchronous iterable (an array, a generator): its chunks are all there, so
  // they are pushed without awaiting each (an await costs more than a push of a few characters).
  // Each still goes in alone: joined, a chunk after the one where the attempt ends (an early
  // violation with abortOnEarlyViolation, a size or depth limit) would reach the failure's
  // `raw_output`. A value that is not a chunk (a promise) is awaited, as `for await` does.
  async #consumeSync(chunks) {
    for (let chunk of chunks) {
      if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) chunk = await chunk;
      this.#assertOpen();
      this.#append(handleOf(this), chunk);
    }
  }
}

/** `$.path: message`, the one-line form used in failure envelopes and retry prompts. */
export function formatViolation(violation) {
  // Violation::one_line's line, from its separator (written into the glue at build time): a call
  // into the module (stringify, parse, format) cost more than the rest of an invalid output's
  // report. tests/js/api.test.mjs checks that these lines equal the module's own
  // (failureEnvelope's validation_errors).
  if (typeof violation?.path !== 'string' || typeof violation.message !== 'string') {
    throw new TypeError('formatViolation expects a violation (an object with string `path` and `message`)');
  }
  return violation.path + VIOLATION_SEPARATOR + violation.message;
}

/**
 * The run failure envelope (`status: "failed"`, `error.type: "output_schema_validation_failed"`)
 * after `retries` retries (by default, as many as a stream allows by default).
 */
export function failureEnvelope(error, runId, retries) {
  assertReady();
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0)) throw new TypeError('retries must be a non-negative integer');
  return JSON.parse(wasm.failureEnvelope(JSON.stringify(error), runId ?? undefined, retries));
}

/** What a parent agent receives: result_data as indented JSON, else result_text, else a placeholder. */
export function formatChildResult(result) {
  assertReady();
  return wasm.formatChildResult(JSON.stringify(result ?? {}));
}

/** Sets how many compiled contracts this instance keeps (default 64; 0 disables the cache). */
export function setCacheCapacity(capacity) {
  assertReady();
  if (!Number.isInteger(capacity) || capacity < 0) throw new TypeError('capacity must be a non-negative integer');
  wasm.setCacheCapacity(capacity);
}

/** `{ entries, capacity, hits, misses }` of the compile cache. */
export function cacheStats() {
  assertReady();
  return JSON.parse(wasm.cacheStats());
}

// A violation's RFC 6901 pointer, as the module unescapes its tokens, as Standard Schema path
// segments: array indices as numbers (decided by walking the value, since a pointer alone cannot
// tell `/0` of an array from a key).
function pathSegments(pointer, value) {
  const tokens = JSON.parse(wasm.pointerTokens(pointer));
  const segments = [];
  let node = value;
  for (const key of tokens) {
    const segment = Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : key;
    segments.push(segment);
    node = node !== null && typeof node === 'object' && Object.hasOwn(node, segment) ? node[segment] : undefined;
  }
  return segments;
}

function jsonText(value, what) {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`${what} must be a JSON value`);
  return text;
}

function templatesText(templates) {
  return templates == null ? '' : JSON.stringify(templates);
}

/** Violations from an array, a canonical error or a validation result. */
function violationsOf(input) {
  if (Array.isArray(input)) return input;
  if (input?.violations) return input.violations;
  if (input?.error?.violations) return input.error.violations;
  if (input?.valid === true) return [];
  throw new TypeError('expected violations, an output_validation_failed error or a validation result');
}

/**
 * Finds the JSON value in model text: the whole text, else the last complete value among fenced
 * blocks and bracketed spans in prose (fences tagged json preferred). Offsets are UTF-16 code
 * units: `text.slice(start, end)` is the JSON as written.
 */
export function extractJson(text, options) {
  assertReady();
  if (typeof text !== 'string') throw new TypeError('extractJson expects a string');
  checkOptions('extractJson', options);
  return JSON.parse(wasm.extractJson(text, Boolean(options?.repair), options?.maxOutputBytes, options?.maxDepth));
}

/** The system prompt with a `## Required Output Format` section (the schema) appended last. */
export function enrichSystemPrompt(systemPrompt, schema, options) {
  assertReady();
  checkOptions('enrichSystemPrompt', options);
  const schemaText = schema == null ? '' : jsonText(schema, 'schema');
  return wasm.enrichSystemPrompt(String(systemPrompt ?? ''), schemaText, templatesText(options?.templates));
}

/**
 * The `<output-validation-error>` retry prompt: the violations, then the schema; with
 * `mode: 'patch'`, the violations by pointer and a request for a JSON Patch to the previous answer.
 */
export function retryPrompt(violations, schema, options) {
  assertReady();
  checkOptions('retryPrompt', options);
  if (options?.mode === 'patch') return wasm.retryPatchPrompt(JSON.stringify(violationsOf(violations)), jsonText(schema, 'schema'), templatesText(options?.templates));
  return wasm.retryPrompt(JSON.stringify(violationsOf(violations)), jsonText(schema, 'schema'), templatesText(options?.templates));
}

/** The reply to an output tool call: success text, or the numbered violations. */
export function toolFeedback(result, options) {
  assertReady();
  checkOptions('toolFeedback', options);
  return wasm.toolFeedback(JSON.stringify(violationsOf(result)), options?.tool ?? undefined, templatesText(options?.templates));
}

/**
 * A `submit_result` tool definition for a provider, with what normalisation changed; with
 * `patch: true`, the `submit_patch` tool, whose input is `{ patch }`, a JSON Patch to the previous
 * output (apply it with contract.validateMerged).
 */
export function submitResultTool(schema, options) {
  assertReady();
  checkOptions('submitResultTool', options);
  const provider = options?.provider ?? 'generic';
  if (options?.patch) {
    const description = options.description ?? 'Submit a JSON Patch (RFC 6902) that fixes the listed violations in your previous output. You MUST call this tool!';
    return JSON.parse(wasm.submitResultTool(JSON.stringify(PATCH_TOOL), provider, options.name ?? 'submit_patch', description, undefined));
  }
  return JSON.parse(wasm.submitResultTool(jsonText(schema, 'schema'), provider, options?.name ?? undefined, options?.description ?? undefined, options?.draft ?? undefined));
}

/** Load-time checks of an output schema, as diagnostics (empty: usable). */
export function checkOutputSchemaConfig(schema, options) {
  const tools = schemaTools();
  checkOptions('checkOutputSchemaConfig', options);
  const text = typeof schema === 'string' ? schema : JSON.stringify(schema) ?? 'null';
  const { text: optionsText, ids } = moduleOptions(options);
  try {
    return JSON.parse(tools.checkOutputSchemaConfig(text, optionsText));
  } finally {
    // Nothing compiled here outlives the call.
    forgetFormats(ids);
  }
}

/**
 * Everything the schema editor shows about schema text: syntax, meta-schema and compile
 * problems, authoring lints, provider compatibility — as diagnostics with ranges (1-based
 * lines/columns, offsets in UTF-16 code units). Broken text is a diagnostic, never an exception.
 */
export function checkSchema(text, options) {
  const tools = schemaTools();
  if (typeof text !== 'string') throw new TypeError('checkSchema expects the schema text');
  checkOptions('checkSchema', options);
  const resources = options?.resources == null ? '' : JSON.stringify(options.resources);
  return JSON.parse(tools.checkSchema(text, options?.draft ?? undefined, options?.provider ?? undefined, Object.keys(options?.formats ?? {}), resources));
}

/**
 * The text ranges of JSON Pointers in a JSON text (same positions as checkSchema's), null for
 * text that is not one JSON value; used to highlight where a violation is in the output.
 */
export function locateJson(text, pointers) {
  assertReady();
  if (typeof text !== 'string') throw new TypeError('locateJson expects the JSON text');
  if (!Array.isArray(pointers) || pointers.some((p) => typeof p !== 'string')) {
    throw new TypeError('locateJson expects an array of JSON Pointer strings');
  }
  return JSON.parse(wasm.locateJson(text, pointers));
}

// Standard JSON Schema's `input`/`output`: the contract's JSON Schema written for `target`
// (src/schema/target.rs, in the schema tools' module); without a target, as it is. A document
// already in the target's dialect, naming its meta-schema by the target's URI or not at all
// (ADAPTERS.ownTargets, from the module), is answered without the schema tools' module; one that
// names it by another URI (OpenAPI 3.1's dialect, the latest alias) is converted, which writes
// the target's URI.
function standardJsonSchema(contract, target) {
  const schema = contract.jsonSchema;
  if (target === undefined) return schema;
  const own = ADAPTERS.ownTargets[contract.draft];
  if (own !== undefined && own.target === target && (schema.$schema === undefined || schema.$schema === own.uri)) return schema;
  return JSON.parse(schemaTools().standardJsonSchema(handleOf(contract).jsonSchemaJson, contract.draft, String(target)));
}

/**
 * An implementation of the MCP TypeScript SDK's `jsonSchemaValidator` interface (pass it as the
 * `jsonSchemaValidator` option of a Client or Server). MCP schemas default to draft 2020-12 (the
 * MCP specification's dialect for a schema without a `$schema` the library knows) and may carry
 * keywords of their own, hence `strict: false` unless told otherwise.
 */
export class McpJsonSchemaValidator {
  #options;

  constructor(options) {
    checkOptions('McpJsonSchemaValidator', options);
    // An option given as undefined keeps its default, as Contract.compile's do.
    this.#options = { ...options, draft: options?.draft ?? 'draft2020-12', strict: options?.strict ?? false };
  }

  getValidator(schema) {
    let contract;
    try {
      // Schemas from third-party servers: their tier never generates code.
      contract = Contract.compile(schema, { ...this.#options, codegen: false });
    } catch (e) {
      if (!(e instanceof SchemaError)) throw e;
      // The SDK asks for every listed tool's validator at once (listTools): a schema that does
      // not compile fails that tool's calls, with the compile error, and no other.
      const errorMessage = e.message;
      return () => ({ valid: false, data: undefined, errorMessage });
    }
    return (input) => {
      const result = contract.validate(input);
      if (result.valid) return { valid: true, data: input, errorMessage: undefined };
      return { valid: false, data: undefined, errorMessage: result.error.violations.map(formatViolation).join('; ') };
    };
  }
}

export { enforce } from './enforce.js';

/** Schema text as given, or an object's JSON (throws the SchemaError a compile would). */
function schemaText(schema) {
  if (typeof schema === 'string') return schema;
  let text;
  try {
    text = JSON.stringify(schema);
  } catch (e) {
    throw invalidJsonError(`schema cannot be serialized as JSON: ${e.message}`);
  }
  if (text === undefined) throw invalidJsonError('schema must be an object, a boolean or JSON text');
  return text;
}

/**
 * How `newSchema` differs from `oldSchema` in the outputs it accepts: `narrowed` (it rejects
 * some output the old one accepted), `widened` (it accepts some output the old one rejected),
 * `unknown` (undecidable: never to be counted as compatible). Each change has the JSON Pointer
 * of its place in the new schema, the keyword concerned and a message; given the new schema as
 * text, also its range there.
 */
export function compareSchemas(oldSchema, newSchema, options) {
  const tools = schemaTools();
  checkOptions('compareSchemas', options);
  const asText = typeof newSchema === 'string';
  let result;
  try {
    result = JSON.parse(tools.compareSchemas(schemaText(oldSchema), schemaText(newSchema), options == null ? '' : JSON.stringify(options)));
  } catch (e) {
    throw schemaErrorFrom(e);
  }
  if (!asText) {
    // Ranges of the module's own serialization would point into text the caller never saw.
    for (const list of [result.narrowed, result.widened, result.unknown]) for (const change of list) delete change.range;
  }
  return result;
}

/**
 * The name and semantic version an `$id` carries (`…/ticket/1.2.0` or
 * `…/ticket.v1.2.0.schema.json`), as the registry reads it; null when it carries none.
 */
export function parseSchemaId(id) {
  assertReady();
  if (typeof id !== 'string') throw new TypeError('parseSchemaId expects an $id string');
  return JSON.parse(wasm.parseSchemaId(id));
}

/**
 * Versioned output schemas by `$id` (`…/NAME/X.Y.Z` or `…/NAME.vX.Y.Z.schema.json`), whose
 * `$ref`s name each other (resolved among them; nothing is fetched). `check()` reports what is
 * wrong with the set, including a version step that does not allow its changes.
 */
export class SchemaRegistry {
  #entries = [];
  #options;
  #optionsText;

  constructor(options) {
    checkOptions('SchemaRegistry', options);
    this.#options = options ?? {};
    this.#optionsText = options == null ? '' : JSON.stringify(options);
  }

  /** Adds a schema (object or text; `path`: the file it came from). Returns its `$id`, or null. */
  add(schema, options) {
    const tools = schemaTools();
    checkOptions('SchemaRegistry.add', options);
    const text = schemaText(schema);
    let id;
    try {
      id = tools.registryIdOf(text, this.#optionsText);
    } catch (e) {
      throw schemaErrorFrom(e);
    }
    this.#entries.push({ text, path: options?.path ?? null });
    return id ?? null;
  }

  /** The compiled contract of the schema with this `$id`; throws a SchemaError when there is none. */
  contract(id) {
    assertReady();
    if (typeof id !== 'string') throw new TypeError('SchemaRegistry.contract expects an $id string');
    const found = JSON.parse(this.#call('registrySchema', id));
    if (found === null) {
      const message = `no schema in the registry has $id ${JSON.stringify(id)}`;
      throw new SchemaError({ kind: 'unresolvable_ref', message, issues: [{ kind: 'unresolvable_ref', pointer: '', message, uri: id }] });
    }
    return Contract.compile(found.schema, { ...this.#options, resources: found.resources });
  }

  /** The registry's problems as diagnostics with file paths and ranges; empty when there are none. */
  check() {
    return JSON.parse(this.#call('registryCheck'));
  }

  /** The versions of a schema name, oldest first. */
  versions(name) {
    if (typeof name !== 'string') throw new TypeError('SchemaRegistry.versions expects a schema name');
    return JSON.parse(this.#call('registryVersions', name));
  }

  #call(fn, ...args) {
    try {
      return schemaTools()[fn](JSON.stringify(this.#entries), this.#optionsText, ...args);
    } catch (e) {
      throw schemaErrorFrom(e);
    }
  }
}

export { ProviderError, providerEvents, validateProviderStream } from './provider.js';

// Provider streams (pkg/src/provider.js) reach the module through these.
Object.assign(providerBridge, {
  open(contract, provider, optionsJson) {
    return handleOf(contract).providerStream(provider, optionsJson);
  },
  events(provider) {
    assertReady();
    return new wasm.WasmProviderEvents(provider);
  },
  free(handle) {
    if (!detached(handle)) handle.free();
  },
  stopReason(raw) {
    return wasm.providerStopReason(raw ?? undefined);
  },
  wrongTool(called, expected) {
    return JSON.parse(wasm.wrongToolViolation(called, expected));
  },
  // A provider stream's status, read as an OutputStream's.
  status: statusOf,
});
