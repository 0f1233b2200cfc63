/// <reference lib="esnext.disposable" />
// Type declarations of the output-contract package. Every entry (node, browser, deno, workerd)
// exports the same API; only how the WebAssembly module is loaded differs.

/**
 * The schema languages the library compiles: the JSON Schema drafts (a schema's `$schema` always
 * wins over the option), and `'jtd'`, JSON Type Definition (RFC 8927), whose schemas have no
 * `$schema` and are compiled as JTD only when the option says so.
 */
export type Draft = 'draft4' | 'draft6' | 'draft7' | 'draft2019-09' | 'draft2020-12' | 'jtd';

/** A JSON value, as parsed from model output. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface CompileOptions {
  /**
   * Draft used when the schema has no `$schema`, or a `$schema` the library does not know (a
   * known draft's or dialect's `$schema` always wins). Without it, a schema without `$schema`
   * is read as Draft 2020-12 when it uses a keyword of 2019-09/2020-12 (`$defs`, `prefixItems`,
   * `unevaluatedProperties`, `dependentRequired` …), else as Draft 7 (see
   * `Contract.draftReason`). `"jtd"` reads the schema as
   * JSON Type Definition (RFC 8927): its rules refuse an invalid schema (a `SchemaError` with the
   * reason), and violations report the RFC's instance and schema paths.
   */
  draft?: Draft;
  /**
   * Refuse keywords that would never be checked: those the draft does not know, and in Drafts 4,
   * 6 and 7 validation keywords beside `$ref` (those drafts ignore them); a schema without
   * `$schema` that mixes keywords of Draft 2020-12 with ones it dropped; and unknown formats
   * (but for one beside a `pattern`, which checks the value: the format is an annotation).
   * Default: `true`.
   */
  strict?: boolean;
  /**
   * `true` (the default) asserts the built-in formats in every draft (a format of a later draft,
   * such as `uuid` under Draft 7, too, as Ajv with ajv-formats does), Zod 4's string formats
   * included (`base64`, `base64url`, `e164`, `cuid`, `cuid2`, `ulid`, `nanoid`, `jwt`, `cidrv4`,
   * `cidrv6`, `mac`, `hex`, `emoji`, checked as Zod defines them); `false` makes `format` an
   * annotation. An object adds custom formats by name, as Ajv's `formats` option (or
   * `addFormat`) does: they are asserted whatever the default for the built-in ones, on strings
   * only (other values pass), and strict mode knows their names. A custom name overrides a
   * built-in format of that name. The built-in ones stay asserted beside custom ones.
   */
  formats?: boolean | Record<string, CustomFormat>;
  /** Default: the schema's `$id`, else a stable content hash (`urn:output-contract:schema:…`). */
  schemaId?: string;
  agentId?: string;
  /** Extra schema documents by URI for `$ref` across documents. Nothing is ever fetched. */
  resources?: Record<string, object | boolean>;
  /** Outputs larger than this are refused (not retryable). Default: 1 MiB. */
  maxOutputBytes?: number;
  /** Outputs nested deeper than this are refused (not retryable). Default: 128. */
  maxDepth?: number;
  /** How many bytes of the output `raw_output` keeps. Default: 4096. */
  rawOutputLimit?: number;
  /**
   * Whether `validate(value)` may answer valid values with JavaScript generated from the
   * schema (`new Function`; schema strings are embedded only as JSON string literals). Only the
   * Node, Bun and Deno entries generate code, and only where the runtime allows it; browsers,
   * workerd and `McpJsonSchemaValidator` always use the eval-free form. `false` keeps this
   * contract to the eval-free form. Verdicts are the same either way. Default: `true`.
   */
  codegen?: boolean;
}

/**
 * A custom format (`formats` of `CompileOptions`):
 * - a `RegExp` or a pattern string: judged as `pattern` is — by the library's own ECMA-262
 *   engine, the same way in every runtime (`validate(value)` runs it on the engine's `RegExp`
 *   only where the module has proven both agree and `RegExp` cannot backtrack). Like `pattern` it is not
 *   anchored (write `^…$` to match whole strings), case-sensitive and in Unicode mode: a RegExp
 *   may carry the `u` flag and no other (an `OptionError` names `formats.<name>` otherwise, or
 *   for a pattern the engine cannot read).
 * - a function: called in JavaScript, synchronously, for each string the format applies to (and
 *   maybe more than once for one string: keep it pure and fast); a truthy answer is a match. If
 *   it throws (or returns a promise), the call that ran it (`validate`, `validateText`, a
 *   stream's `push` or `finish`, …) throws a `FormatFunctionError` naming the format, with what
 *   was thrown as its `cause`; the contract stays usable, a stream whose `push` threw should be
 *   abandoned. A contract compiled with a function is never taken from or kept in the compile
 *   cache (no fingerprint tells two functions apart).
 */
export type CustomFormat = RegExp | string | ((value: string) => boolean);

/** Thrown by a call whose custom format function threw (see `CustomFormat`). */
export declare class FormatFunctionError extends Error {
  private constructor();
  readonly name: 'FormatFunctionError';
  /** The format's name. */
  readonly format: string;
  /** What the function threw. */
  readonly cause: unknown;
}

/** The `anyOf`/`oneOf` branch a violation was reported from: the closest of `count`. */
export interface Branch {
  keyword: 'anyOf' | 'oneOf';
  index: number;
  count: number;
}

/** One violation of the contract. */
export interface Violation {
  /** JSONPath-style: `$`, `$.comments[0].severity`, `$['odd key']`. */
  path: string;
  /** The failing keyword, or `json` / `truncated` / `maxOutputBytes` / `maxDepth` / `duplicateKey` (a property named twice in one object) for problems before schema validation. */
  keyword: string;
  expected: JsonValue;
  /** The offending value; beyond the cap a string ending in `…[truncated N bytes]`. */
  received: JsonValue;
  message: string;
  /** RFC 6901 JSON Pointer to the same location. */
  pointer: string;
  /** JSON Pointer to the failing keyword in the schema. */
  schema_path: string;
  branch?: Branch;
}

/** The canonical error of a failed validation: snake_case keys, exactly these fields, so consumers in any language read one shape. */
export interface OutputValidationError {
  error: 'output_validation_failed';
  schema_id: string;
  agent_id: string | null;
  violations: Violation[];
  /** The output as received, cut to `rawOutputLimit` with a visible marker. */
  raw_output: string;
  /** True when the model can repair it with another turn. */
  retryable: boolean;
}

export type ValidationResult<T = unknown> = { valid: true; data: T } | { valid: false; error: OutputValidationError };

export type SchemaErrorKind =
  | 'invalid_json'
  | 'meta_schema'
  | 'unknown_keyword'
  | 'ref_sibling'
  | 'unknown_draft'
  | 'unresolvable_ref'
  | 'invalid_regex'
  | 'unknown_format'
  | 'limit_exceeded'
  | 'invalid_option'
  | 'compile';

/** One problem found in a schema. */
export interface SchemaIssue {
  kind: SchemaErrorKind;
  /** JSON Pointer into the schema (`""` for the root). */
  pointer: string;
  message: string;
  keyword?: string;
  /** For an `unknown_keyword` that looks misspelt: the keyword probably meant (`required` for `requried`). */
  suggestion?: string;
  /** 1-based, for `invalid_json`. */
  line?: number;
  column?: number;
  /** The reference that could not be resolved, for `unresolvable_ref`. */
  uri?: string;
}

/** Thrown by `Contract.compile`. */
export declare class SchemaError extends Error {
  readonly name: 'SchemaError';
  readonly kind: SchemaErrorKind;
  readonly issues: SchemaIssue[];
}

/**
 * Thrown by every function that takes an options object, for a key it does not take (`option` is
 * the key, `allowed` the names it takes) or a value the option does not allow (`allowed` says
 * what it does, in words). A programming error, never a model's: nothing is retried.
 */
export declare class OptionError extends TypeError {
  readonly name: 'OptionError';
  readonly kind: 'invalid_option';
  /** The option's name (`templates.retryLine` inside `templates`; `""` for the options object itself). */
  readonly option: string;
  /** What the option allows (`a positive integer`), or for an unknown key the names the function takes. */
  readonly allowed: string;
}

/** Thrown by a call on a `Contract` or `OutputStream` after its `free()` (or its `using` block ended). */
export declare class FreedError extends Error {
  private constructor();
  readonly name: 'FreedError';
  readonly kind: 'freed';
}

/**
 * Why a contract reads its schema in the draft it does. `source`: `"schema"` (its `$schema` names
 * the draft), `"dialect"` (a URI that stands for a draft: `http://json-schema.org/schema#`,
 * OpenAPI 3.1's dialect), `"meta_schema"` (a custom meta-schema among the resources),
 * `"option"` (no `$schema`: the `draft` option), `"option_for_unknown_schema"` (a `$schema` the
 * library does not know: the `draft` option decides), `"inferred"` (no `$schema`, no option: a
 * Draft 2019-09/2020-12 keyword such as `$defs` or `prefixItems`, at `pointer`), `"default"`.
 */
export interface DraftReason {
  source: 'schema' | 'dialect' | 'meta_schema' | 'option' | 'option_for_unknown_schema' | 'inferred' | 'default';
  message: string;
  keyword?: string;
  pointer?: string;
  uri?: string;
}

/**
 * A compiled output contract. `T`, given to `Contract.compile<T>`, is the type of the values it
 * accepts as far as TypeScript is told (nothing checks that it matches the schema): the default
 * of `validate`'s and `validateText`'s type parameter, and `~standard.types`.
 */
export declare class Contract<T = unknown> {
  private constructor();
  /** Compiles `schema` (an object or JSON text), or returns the cached compilation. Throws `SchemaError`, or `OptionError` for bad options. */
  static compile<T = unknown>(schema: object | boolean | string, options?: CompileOptions): Contract<T>;
  readonly schemaId: string;
  readonly agentId: string | null;
  readonly draft: Draft;
  /** Why the schema is read in `draft` (its `$schema`, the `draft` option, the keywords it uses …). */
  readonly draftReason: DraftReason;
  /**
   * Validates a value (as its JSON form); every violation is collected. A value JSON cannot carry
   * — a cycle, `NaN` or `±Infinity`, a `BigInt`, `undefined` or a function at the root or in an
   * array — is a programming error, not a model's: it throws a `TypeError` naming where it is
   * (`$.a.b: NaN is not a JSON value`).
   */
  validate<U = T>(value: unknown): ValidationResult<U>;
  /** Parses and validates model output text; `data` is the parsed value. */
  validateText<U = T>(text: string): ValidationResult<U>;
  /** Finds the JSON in model text first (see `extractJson`); the result carries the extraction. */
  validateText<U = T>(text: string, options: ValidateTextOptions): ValidationResult<U> & { extraction: Extraction };
  /**
   * Validates tool-call arguments (JSON text or a value; none at all fail as empty text does, a
   * value JSON cannot carry throws a `TypeError` as `validate`'s does). With `nullAsAbsent`, a null for an optional property that
   * does not accept null is read as absent and left out of `data`.
   */
  validateToolCall<T = unknown>(args: string | unknown, options?: ToolCallOptions): ValidationResult<T>;
  /**
   * Applies `patch` to a copy of `base` and validates the merged document (the post-merge hook):
   * `data` is the merged document, and `base` is never changed. Each of `base` and `patch` is a
   * value or JSON text (with `extract`, model text whose JSON is found as `validateText` finds
   * it). A patch that cannot be applied (a malformed operation, a location that does not exist, a
   * failing `test`) is a retryable violation with keyword `patch` whose message names the
   * operation's index and path; `applied` is false then. Base and patch are held to the
   * contract's `maxOutputBytes` and `maxDepth`, and so is the merged document.
   */
  validateMerged<T = unknown>(base: unknown, patch: unknown, options?: MergeOptions): ValidationResult<T> & { applied: boolean };
  /** The schema as compiled (a fresh copy on each read). */
  readonly schema: JsonSchema;
  /**
   * The schema as JSON Schema (a fresh copy on each read), for what reads only JSON Schema (tool
   * definitions, prompts, the AI SDK, Standard JSON Schema): `schema` itself, or for a JTD
   * contract its JSON Schema form.
   */
  readonly jsonSchema: JsonSchema;
  /** Standard Schema v1 with the Standard JSON Schema extension (see `StandardSchemaProps`). */
  readonly '~standard': StandardSchemaProps<T>;
  /**
   * A stream validator for this contract: in flight while chunks arrive, then soft-complete
   * (validated, retried once on failure), hard-complete (failed again: the canonical error) or
   * refused.
   */
  stream(options?: StreamOptions): OutputStream;
  /** Releases this handle. */
  free(): void;
  [Symbol.dispose](): void;
}

export interface StreamOptions {
  /** Retries after the first attempt. Default: 1. */
  maxRetries?: number;
  /** Skip prose and a markdown fence around the JSON while streaming. Default: false. */
  extract?: boolean;
  /** End the attempt at the first early violation (cancel the generation). Default: false. */
  abortOnEarlyViolation?: boolean;
  /**
   * Tool-call arguments streamed as deltas from a strict-mode tool (`submitResultTool`'s
   * `validateOptions.nullAsAbsent`): a null for an optional property is read as absent.
   */
  nullAsAbsent?: boolean;
}

export interface StreamStatus {
  state: 'in-flight';
  attempt: number;
  bytes: number;
  /** The JSON value is complete. */
  complete: boolean;
  /** Violations no continuation can repair, found so far in this attempt. */
  earlyViolations: Violation[];
  /** The attempt was ended by an early violation (`abortOnEarlyViolation`). */
  aborted: boolean;
}

export type StreamOutcome<T = unknown> =
  | { state: 'soft-complete'; valid: true; data: T; attempt: number }
  | { state: 'soft-complete'; valid: false; retry: true; prompt: string; violations: Violation[]; attempt: number }
  | { state: 'hard-complete'; valid: false; error: OutputValidationError; attempts: number }
  | { state: 'refused'; refusal: string; attempt: number };

/**
 * Why the model stopped, as the providers say it (OpenAI's `finish_reason`, Anthropic's
 * `stop_reason`). Each reads as one of four.
 *
 * `'stop'`, `'end_turn'`, `'stop_sequence'`: the answer is complete, and validated (the default).
 *
 * `'length'`, `'max_tokens'`: cut at the token limit; a `truncated` violation whatever the text
 * parses as (retried like any repairable failure).
 *
 * `'refusal'`, `'content_filter'`: refused; the outcome is `refused`, never validated or retried.
 *
 * `'tool_use'`, `'tool_calls'`: the answer is a tool call's arguments, validated as for `'stop'`.
 *
 * Any other name is an `OptionError` (`option: 'stopReason'`).
 */
export type StopReason = 'stop' | 'end_turn' | 'stop_sequence' | 'length' | 'max_tokens' | 'refusal' | 'content_filter' | 'tool_use' | 'tool_calls';

export interface StreamEnd {
  stopReason?: StopReason;
  refusal?: string;
}

/**
 * What `push`, `finish` and `consume` of an `OutputStream` throw once the stream has ended (its
 * final outcome was given): an `Error` typed by its `kind`, with that outcome's `state`.
 */
export interface StreamEndedError extends Error {
  readonly kind: 'stream_ended';
  readonly state: 'soft-complete' | 'hard-complete' | 'refused';
}

/**
 * Validates an output as it streams in; after a `retry` outcome the next push starts the next
 * attempt. The final outcome (valid, `hard-complete` or `refused`) ends the stream: `push` and
 * `finish` then throw a `StreamEndedError` (create a new stream with `contract.stream()`).
 */
export declare class OutputStream {
  private constructor();
  /** Text or UTF-8 bytes, split anywhere (a text chunk may end inside a surrogate pair). Throws a `StreamEndedError` once the stream has ended. */
  push(chunk: string | Uint8Array): StreamStatus;
  partial(): unknown;
  /** Changes since the last call (the first call: the whole partial value at `$`). */
  changes(): Array<{ path: string; value?: JsonValue; append?: string }>;
  /** With `extract`: what was skipped before and after the JSON value (UTF-8 byte offsets, end exclusive). */
  skipped(): Array<{ start: number; end: number; place: 'before' | 'after' }>;
  /** Ends the attempt: the outcome, which for anything but a `retry` ends the stream (a second `finish` throws a `StreamEndedError`). An unknown key or stop reason in `end` is an `OptionError`. */
  finish<T = unknown>(end?: StreamEnd): StreamOutcome<T>;
  /** Chunks in, a status per chunk out. */
  transform(): TransformStream<string | Uint8Array, StreamStatus>;
  /** Pushes every chunk of an async iterable, then finishes. */
  consume<T = unknown>(chunks: AsyncIterable<string | Uint8Array>, end?: StreamEnd): Promise<StreamOutcome<T>>;
  free(): void;
  [Symbol.dispose](): void;
}

/**
 * Resolves once the WebAssembly module is loaded (already resolved where loading is synchronous).
 *
 * If the module ever traps (an internal bug), the call throws an `Error` named
 * `OutputContractInternalError` and the instance is re-created: later calls work, contracts
 * recompile themselves, streams that were open report that they were lost.
 */
export declare const ready: Promise<void>;

/**
 * Loads the schema tools: `checkSchema`, `checkOutputSchemaConfig`, `compareSchemas`,
 * `SchemaRegistry`, the patch engine of `contract.validateMerged` and of `enforce`'s patch
 * retries (`enforce` loads it itself), and the conversions of `contract['~standard'].jsonSchema`
 * to a target other than the contract's own dialect. They are a second WebAssembly module, as large again as the main one, so that
 * code that only validates never downloads or compiles them.
 *
 * In Node, Bun, Deno and Cloudflare Workers the module loads synchronously on the first call of
 * a tool, and this promise only does it sooner. In browsers (and bundles for them) it is fetched:
 * `await loadSchemaTools()` before the first call, which otherwise throws an `Error` saying so.
 */
export declare function loadSchemaTools(): Promise<void>;

/** `$.path: message`. */
export declare function formatViolation(violation: Pick<Violation, 'path' | 'message'> & Partial<Violation>): string;

/** The run failure envelope of a failed run after retries. */
export interface FailureEnvelope {
  run_id?: string;
  status: 'failed';
  error: {
    type: 'output_schema_validation_failed';
    message: string;
    validation_errors: string[];
  };
}

/** The failure envelope after `retries` retries (default 1). */
export declare function failureEnvelope(error: OutputValidationError, runId?: string, retries?: number): FailureEnvelope;

/** A result event's fields: `result_data` with an output schema, `result_text` without — never both. */
export interface ChildResult {
  result_text?: string | null;
  result_data?: unknown;
}

/** `result_data` as indented JSON if present, else `result_text`, else `(No result available)`. */
export declare function formatChildResult(result: ChildResult): string;

/** Sets how many compiled contracts the instance keeps (default 64; 0 disables caching). */
export declare function setCacheCapacity(capacity: number): void;

export interface CacheStats {
  entries: number;
  capacity: number;
  hits: number;
  misses: number;
}

export declare function cacheStats(): CacheStats;

/** A JSON Schema document (an object; boolean schemas are accepted where noted). */
export type JsonSchema = { [keyword: string]: JsonValue };

export interface ValidateTextOptions {
  /** Find the JSON in prose and markdown fences before validating. */
  extract: true;
  /** Fix trailing commas, comments and raw control characters in strings (each listed). */
  repair?: boolean;
}

export interface ExtractOptions {
  repair?: boolean;
  /** Default: 1 MiB. */
  maxOutputBytes?: number;
  /** Default: 128. */
  maxDepth?: number;
}

export type ExtractErrorKind = 'no_json' | 'invalid_json' | 'truncated' | 'too_large' | 'too_deep';

/**
 * What `extractJson` found. Offsets are UTF-16 code units (JavaScript string indices), end
 * exclusive: `text.slice(start, end)` is the JSON as written.
 */
export interface Extraction {
  found: boolean;
  value: JsonValue;
  /** The JSON text that was parsed: the span of the input, or its repaired form. */
  json: string | null;
  start: number | null;
  end: number | null;
  /** The language tag of the fence the value came from (`""` untagged), or null outside fences. */
  fence: string | null;
  skipped: Array<{ start: number; end: number; place: 'before' | 'after' }>;
  repairs: Array<{ kind: 'trailing_comma' | 'comment' | 'control_character'; start: number; end: number; message: string }>;
  /** How many complete JSON values the text held (the last one wins). */
  candidates: number;
  error: { kind: ExtractErrorKind; message: string; offset: number; start: number; end: number } | null;
}

/**
 * Finds the JSON value in model text: the whole text if it is one value, else the last complete
 * value among fenced blocks (```json preferred) and bracketed spans in prose. An earlier value
 * never wins over a later one, so an example quoted before the answer cannot replace it.
 */
export declare function extractJson(text: string, options?: ExtractOptions): Extraction;

/** Texts with `{name}` placeholders that replace the built-in wording; each defaults to it. */
export interface PromptTemplates {
  /** `{schema}` */
  outputFormat?: string;
  /** `{errors}`, `{schema}` */
  retry?: string;
  /** `{path}`, `{message}`, `{keyword}`, `{pointer}` (the JSON Pointer as a JSON string) */
  retryLine?: string;
  /** The retry prompt that asks for a JSON Patch (`retryPrompt` with `mode: 'patch'`, `enforce` with `retry: 'patch'`): `{errors}`, `{schema}` (the built-in text leaves the schema out: the system prompt holds it). */
  retryPatch?: string;
  /** `{pointer}` (the JSON Pointer as a JSON string), `{path}`, `{message}`, `{keyword}` */
  retryPatchLine?: string;
  toolSuccess?: string;
  /** `{errors}`, `{tool}` */
  toolFailure?: string;
  /** `{index}`, `{path}`, `{message}`, `{keyword}`, `{pointer}` */
  toolFailureLine?: string;
}

/** Violations given directly, as a canonical error, or as a validation result. */
export type ViolationSource = Violation[] | OutputValidationError | ValidationResult;

/** The system prompt with the `## Required Output Format` section appended last (unchanged without a schema). */
export declare function enrichSystemPrompt(systemPrompt: string, schema: object | boolean | null | undefined, options?: { templates?: PromptTemplates }): string;

/**
 * The retry prompt: an `<output-validation-error>` block with one `- {path}: {message}` line per
 * violation, then the schema. With `mode: 'patch'`, one `- "{pointer}": {message}` line per
 * violation and a request for a JSON Patch (RFC 6902) that fixes exactly those in the previous
 * answer, for an executor that applies it with `contract.validateMerged`.
 */
export declare function retryPrompt(violations: ViolationSource, schema: object | boolean, options?: { templates?: PromptTemplates; mode?: 'full' | 'patch' }): string;

/** The reply to an output tool call: a success text when valid, else the numbered violations and a request to call `tool` again: the name the output tool was declared with (default `submit_result`, the name submitResultTool gives it). */
export declare function toolFeedback(result: ViolationSource, options?: { tool?: string; templates?: PromptTemplates }): string;

export type Provider = 'openai' | 'anthropic' | 'generic';

export interface ToolChange {
  /**
   * JSON Pointer into the original schema; for a JTD schema (`draft: 'jtd'`), `from_jtd` changes
   * point into the JTD schema and the others into its JSON Schema form.
   */
  pointer: string;
  /** `from_jtd`: where the JSON Schema form of a JTD schema says it differently (an integer type's range as minimum/maximum, a timestamp as format date-time, a discriminator as an anyOf of objects whose tag is a const). */
  kind: 'closed_object' | 'made_nullable' | 'one_of_to_any_of' | 'merged_all_of' | 'dropped_keyword' | 'dropped_format' | 'rejected' | 'from_jtd';
  message: string;
}

export interface ToolCallOptions {
  nullAsAbsent?: boolean;
}

export interface MergeOptions {
  /**
   * `'json-patch'` (RFC 6902: an array of `add`, `remove`, `replace`, `move`, `copy`, `test`
   * operations, at most 10,000) or `'merge-patch'` (RFC 7396: an object whose members replace
   * the base's, `null` removing one; for merging partial objects). Default: `'json-patch'`.
   */
  format?: 'json-patch' | 'merge-patch';
  /** Find the JSON in a text given for `base` or `patch` (prose, a markdown fence). Default: false. */
  extract?: boolean;
}

export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict: true };
}
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}
export interface GenericTool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ToolDefinition<T> {
  tool: T;
  /** What normalisation changed (a weaker schema is sent) or what the provider will reject. */
  changes: ToolChange[];
  /** Pass to `contract.validateToolCall` for this definition's arguments. */
  validateOptions: Required<ToolCallOptions>;
}

export interface SubmitResultToolOptions<P extends Provider> {
  provider?: P;
  /** `'jtd'`: `schema` is a JSON Type Definition, sent as its JSON Schema form (see `Contract.jsonSchema`). */
  draft?: Draft;
  /** Default: `submit_result` (`submit_patch` with `patch`). */
  name?: string;
  description?: string;
  /**
   * The `submit_patch` tool instead, for patch retries in an executor's own loop: its input is
   * `{ patch }`, a JSON Patch (RFC 6902) to the previous output, to apply with
   * `contract.validateMerged(previous, args.patch)` (`schema` is not used). Under OpenAI's strict
   * mode `from` and `value` are sent as null where an operation does not take them, and
   * ignored there.
   */
  patch?: boolean;
}

/** A `submit_result` tool definition. Validation always uses the original schema. */
export declare function submitResultTool(schema: object, options: SubmitResultToolOptions<'openai'> & { provider: 'openai' }): ToolDefinition<OpenAiTool>;
export declare function submitResultTool(schema: object, options: SubmitResultToolOptions<'anthropic'> & { provider: 'anthropic' }): ToolDefinition<AnthropicTool>;
export declare function submitResultTool(schema: object, options?: SubmitResultToolOptions<'generic'>): ToolDefinition<GenericTool>;

export interface ConfigDiagnostic {
  code: 'root_not_object' | 'no_properties' | 'invalid_schema';
  pointer: string;
  message: string;
  /** For `invalid_schema`: why it does not compile. */
  issues?: SchemaIssue[];
}

/** The checks an agent's output schema must pass when its config is loaded: the root is `type: "object"`, it has `properties`, and it compiles; empty when usable. A schema tool: see `loadSchemaTools`. */
export declare function checkOutputSchemaConfig(schema: object | boolean | string, options?: CompileOptions): ConfigDiagnostic[];

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** How a model reply ended. */
export interface ModelEnd {
  stopReason?: StopReason;
  refusal?: string;
}

export type ModelReply =
  | string
  | AsyncIterable<string | Uint8Array>
  | ({ text: string } & ModelEnd)
  | ({ stream: AsyncIterable<string | Uint8Array>; end?: () => ModelEnd | Promise<ModelEnd>; cancel?: () => unknown } & ModelEnd)
  | ProviderReply;

export type ModelFunction = (messages: ChatMessage[], context: { attempt: number }) => ModelReply | Promise<ModelReply>;

export interface AttemptEvent {
  attempt: number;
  outcome: 'valid' | 'invalid' | 'aborted' | 'refused';
  /** The keywords of the attempt's violations. */
  keywords: string[];
  bytes: number;
  streamed: boolean;
  ms: number;
  /** How the reply was read: a whole answer, or a JSON Patch to the previous one (`retry: 'patch'`). */
  mode: 'full' | 'patch';
  /** A patch was asked for but the reply was not one (a JSON array), so it was read as a whole answer. */
  fallback: boolean;
  /** The UTF-8 bytes of the retry prompt that asked for this attempt (0 for the first). */
  promptBytes: number;
}

export interface EnforceOptions {
  systemPrompt?: string;
  /** Messages after the system prompt (the conversation so far). */
  messages?: ChatMessage[];
  /** Appended as a user message. */
  task?: string;
  /** Default: 1. One retry repairs most format errors; a model that fails twice rarely succeeds later. */
  maxRetries?: number;
  /** Called after every attempt (for success-rate monitoring). */
  onAttempt?: (event: AttemptEvent) => void;
  templates?: PromptTemplates;
  /** Repair text answers (trailing commas, comments, raw newlines) before validating. */
  repair?: boolean;
  /**
   * Stop reading a streamed answer at its first early violation (and cancel it). Default: false:
   * the answer is read to its end, so the retry prompt names every violation; a model told all
   * its mistakes fixes them in one retry, where one told the first fixes only that. True saves
   * the tokens of a bad answer's rest at the cost of more retries.
   */
  abortOnEarlyViolation?: boolean;
  runId?: string;
  /**
   * How a retry asks for the repair. `'full'` (default): the whole answer again. `'patch'`: after
   * an invalid answer that was read as JSON, a JSON Patch (RFC 6902) that fixes the violations
   * listed by pointer; it is applied to that answer and the merged document validated (and
   * returned as `result_data`). An answer that was not read (`json`, `truncated`) is retried in
   * full; a reply that is not a patch is read as a whole answer; a patch that does not apply is
   * asked for again, its `patch` violation listed first. Patches pay off for long answers with
   * few violations.
   */
  retry?: 'full' | 'patch';
}

export type EnforceResult<T> =
  | { status: 'completed'; result_data: T; attempts: number }
  | (FailureEnvelope & { attempts: number; validation_error: OutputValidationError })
  | { status: 'refused'; refusal: string; attempts: number };

/** The executor loop: enrich the system prompt, call, extract, validate (streaming when streamed), retry, report. */
export declare function enforce<T = unknown>(contract: Contract, model: ModelFunction, options?: EnforceOptions): Promise<EnforceResult<T>>;

/**
 * Standard Schema v1 props (https://standardschema.dev), with the Standard JSON Schema extension.
 * `types` is there for TypeScript alone (undefined at run time): the `T` of `Contract.compile<T>`.
 */
export interface StandardSchemaProps<T = unknown> {
  readonly version: 1;
  readonly vendor: 'output-contract';
  validate(value: unknown): { value: T } | { issues: ReadonlyArray<{ message: string; path: ReadonlyArray<string | number> }> };
  readonly types?: { readonly input: T; readonly output: T };
  readonly jsonSchema: { input(options?: StandardJsonSchemaOptions): JsonSchema; output(options?: StandardJsonSchemaOptions): JsonSchema };
}

/**
 * What Standard JSON Schema's `input`/`output` are asked for. `target`: the dialect of the
 * document returned (a fresh copy on each call).
 * - The contract's own dialect (`draft-07` for a Draft 7 contract, `draft-2020-12` for a Draft
 *   2020-12 or JTD one) whose `$schema` is that target's URI or absent, or no target:
 *   `contract.jsonSchema` as it is. A `$schema` naming the dialect by another URI (OpenAPI
 *   3.1's dialect, `http://json-schema.org/schema#`) is rewritten, as a conversion (below).
 * - Another target is converted by the schema tools' module (loaded on first use in Node, Bun,
 *   Deno and workerd; in browsers, `await loadSchemaTools()` first, or the call throws saying
 *   so). `draft-07`: `prefixItems` → array `items` (and `items` → `additionalItems`), `$defs` →
 *   `definitions` with every `$ref` into them rewritten, `dependentRequired`/`dependentSchemas`
 *   → `dependencies`, `$anchor` → `$id: "#name"`, keywords beside a `$ref` kept applying (the
 *   `$ref` moved into an `allOf`). `draft-2020-12`: the reverse, and Draft 4's boolean
 *   `exclusiveMaximum`/`exclusiveMinimum` as numbers. `openapi-3.0`: a `null` in `type` →
 *   `nullable: true`, `const` → `enum`, numeric exclusive bounds → Draft 4's booleans,
 *   `examples` → `example`, local `$ref`s inlined.
 * - What the target cannot express (`unevaluatedProperties`, `$dynamicRef`, `minContains` in
 *   Draft 7; tuples, `if`, `patternProperties`, a recursive `$ref` … in OpenAPI 3.0) throws an
 *   `Error` naming the keyword and where it is; so does any other target.
 */
export interface StandardJsonSchemaOptions {
  readonly target: 'draft-07' | 'draft-2020-12' | 'openapi-3.0' | (string & {});
  readonly libraryOptions?: Record<string, unknown>;
}

/** The options of `McpJsonSchemaValidator`, passed to each schema's compile (`CompileOptions`). */
export interface McpJsonSchemaValidatorOptions {
  /** The draft of a schema without a `$schema` the library knows. Default: `"draft2020-12"`, MCP's. */
  draft?: Draft;
  /** As `CompileOptions.strict`. Default: `false` (MCP schemas may carry keywords of their own). */
  strict?: boolean;
  /** As `CompileOptions.formats`. */
  formats?: boolean | Record<string, CustomFormat>;
}

/**
 * The MCP TypeScript SDK's `jsonSchemaValidator`: pass as a Client's or Server's
 * `jsonSchemaValidator`. A schema that does not compile gives a validator that rejects every
 * value, its `errorMessage` the compile error: the SDK compiles every listed tool's
 * `outputSchema` in `listTools()`, and one such schema then fails that tool's calls only. Never
 * generates code.
 */
export declare class McpJsonSchemaValidator {
  constructor(options?: McpJsonSchemaValidatorOptions);
  getValidator<T>(schema: object): (input: unknown) => { valid: true; data: T; errorMessage: undefined } | { valid: false; data: undefined; errorMessage: string };
}

/** A place in a text: 1-based line and column, 0-based offset; columns and offsets in UTF-16 code units. */
export interface TextPosition {
  line: number;
  column: number;
  offset: number;
}

/**
 * What a `checkSchema` diagnostic is about: every code it can give, stable (editors and tests
 * match on them). A fix comes with `json_syntax` when the text is JSON but for trailing commas,
 * comments or raw control characters in strings (the rest of the schema is then checked as if
 * they were fixed), with a misspelt `unknown_keyword`, type name (`meta_schema` at the name) or
 * `unknown_format`, and with `keyword_from_other_draft`, `ref_sibling`, `id_beside_ref`,
 * `open_object` and `prefer_any_of`.
 */
export type DiagnosticCode =
  // The text is not JSON.
  | 'json_syntax'
  // Why the schema does not compile (`SchemaIssue.kind`; `invalid_json` is `json_syntax` here).
  | Exclude<SchemaErrorKind, 'invalid_json'>
  // A keyword that the draft in effect does not have, but another draft does.
  | 'keyword_from_other_draft'
  // A warning: an `$id` beside `$ref` in Drafts 4–7, where it is ignored.
  | 'id_beside_ref'
  // Notes on the draft: read from the keywords used (no `$schema`: `Contract.draftReason`), or
  // from a dialect's URI; a warning when the `draft` option decides for an unknown `$schema`.
  | 'draft_inferred'
  | 'dialect_alias'
  | 'unknown_schema_uri'
  // Notes on formats: one a later draft defines (asserted all the same), one that schema
  // generators write (Zod's), and an unknown one beside a `pattern` (an annotation).
  | 'format_from_later_draft'
  | 'format_extension'
  | 'format_annotation'
  // Authoring lints.
  | 'root_not_object'
  | 'no_properties'
  | 'open_object'
  | 'no_required'
  | 'required_not_in_properties'
  | 'enum_in_description'
  | 'prefer_any_of'
  | 'missing_id'
  | 'id_not_versioned'
  | 'missing_title'
  | 'missing_description'
  // With `provider: 'openai'`: what OpenAI's strict mode does to the schema (`ToolChange.kind`).
  | 'openai_closed_object'
  | 'openai_made_nullable'
  | 'openai_one_of_to_any_of'
  | 'openai_merged_all_of'
  | 'openai_dropped_keyword'
  | 'openai_dropped_format'
  | 'openai_rejected'
  // With `provider: 'anthropic'`.
  | 'anthropic_root_not_object'
  | 'anthropic_external_ref';

export interface Diagnostic {
  severity: 'error' | 'warning' | 'info';
  code: DiagnosticCode;
  message: string;
  /** JSON Pointer of the node concerned. */
  pointer: string;
  range: TextRange;
  /** A suggested change; `replacement`, when present, replaces the text at `range`. */
  fix?: { message: string; replacement?: string };
}

export interface CheckSchemaResult {
  /** No diagnostic of severity `error`. */
  valid: boolean;
  draft: Draft;
  diagnostics: Diagnostic[];
}

/**
 * Diagnostics for schema text as an editor shows them; never throws for bad text. `formats`:
 * the custom formats the schema will be compiled with (as `CompileOptions.formats`; only their
 * names matter here), so strict mode does not flag them. `resources`: schema documents by URI
 * that `$ref`s resolve against (as `CompileOptions.resources`; nothing is fetched), so a schema
 * that refers to others of a set is checked with them. A schema tool: see `loadSchemaTools`.
 */
export declare function checkSchema(
  text: string,
  options?: { draft?: Draft; provider?: 'openai' | 'anthropic'; formats?: Record<string, CustomFormat>; resources?: Record<string, JsonSchema> },
): CheckSchemaResult;

export interface TextRange {
  start: TextPosition;
  end: TextPosition;
}

/**
 * Where the nodes at `pointers` (RFC 6901, as in `Violation.pointer`) are in the JSON `text`:
 * the value's range and, for an object member, its key's. An entry is null when the document has
 * no such node; the whole result is null when `text` is not one JSON value. With
 * `extraction.json` this turns violations into highlighted spots of the model's answer.
 */
export declare function locateJson(text: string, pointers: string[]): Array<{ key: TextRange | null; value: TextRange } | null> | null;

/** One change between two versions of a schema (see `compareSchemas`). */
export interface SchemaChange {
  /** JSON Pointer to the change's place in the new schema (for a dropped keyword, the subschema that no longer has it). */
  pointer: string;
  /**
   * The keyword concerned (`required`, `maxLength`, `enum`, `type`, `additionalProperties`, `pattern`, `$ref`, `if` …;
   * for JSON Type Definitions also `properties`, `optionalProperties`, `nullable`, `elements`, `values`,
   * `discriminator`, `mapping`). `keyword`: a keyword the comparison does not read is there (always unknown).
   */
  kind: string;
  message: string;
  /** The pointer's place in the new schema's text, when it was given as text. */
  range?: TextRange;
}

/**
 * How two versions of a schema differ in the outputs they accept. `narrowed`: the new schema
 * rejects some output the old one accepted (stored outputs may fail; producers must change).
 * `widened`: it accepts some output the old one rejected (consumers written for the old one may
 * break). `unknown`: what cannot be decided soundly (two different patterns, another `$ref`
 * target, a changed `if`, `oneOf` exclusivity); never to be counted as compatible.
 */
export interface SchemaComparison {
  narrowed: SchemaChange[];
  widened: SchemaChange[];
  unknown: SchemaChange[];
  /** The smallest version step that allows these changes: a patch step changes no accepted output, a minor step may only narrow, a major step anything. */
  needed: 'patch' | 'minor' | 'major';
  /** When both schemas' ids (`$id`; `metadata.id` in JSON Type Definition) carry a version: the step between them and whether it allows the changes. */
  step?: { from: string; to: string; bump: 'patch' | 'minor' | 'major'; allowed: boolean };
}

/**
 * Compares two versions of a schema, each compiled as `Contract.compile` would (`resources`
 * for `$ref`s to other documents). Each keyword is judged on its own, so a change other keywords
 * happen to cancel is still reported; a keyword the comparison does not read makes its place unknown.
 * Throws a `SchemaError` (its message naming the old or the new schema) when one does not compile.
 *
 * With `draft: 'jtd'` both are JSON Type Definitions (RFC 8927), compared form by form with JTD
 * schema paths as pointers (`/properties/name`, `/optionalProperties/x/type`): a new `properties`
 * member narrows (and widens a closed object), `properties` → `optionalProperties` widens,
 * `nullable` added widens, integer types compare by range (`uint8` → `int8` narrows and widens),
 * `string` → `timestamp` narrows, `mapping` values added widen, a renamed `discriminator` tag
 * narrows and widens, and definitions reached through `ref` compare where they are defined.
 *
 * A schema tool: see `loadSchemaTools`.
 */
export declare function compareSchemas(
  oldSchema: JsonSchema | string,
  newSchema: JsonSchema | string,
  options?: { draft?: Draft; strict?: boolean; formats?: boolean; resources?: Record<string, JsonSchema> },
): SchemaComparison;

/**
 * The name and semantic version an `$id` carries, as `SchemaRegistry` reads it:
 * `https://example.com/schemas/ticket/1.2.0` or `https://example.com/schemas/ticket.v1.2.0.schema.json`
 * give `{ name: 'ticket', version: '1.2.0' }`; null for an `$id` without a version.
 */
export declare function parseSchemaId(id: string): { name: string; version: string } | null;

/** What a `SchemaRegistry.check()` diagnostic is about (stable codes). */
export type RegistryDiagnosticCode =
  | 'invalid_json'
  | 'missing_id'
  | 'id_without_version'
  | 'file_name_mismatch'
  | 'duplicate_id'
  | 'missing_title'
  | 'missing_description'
  | 'unresolvable_ref'
  | 'invalid_schema'
  /** Between consecutive versions of one name: the version step does not allow the change. */
  | 'version_step';

export interface RegistryDiagnostic {
  severity: 'error' | 'warning';
  code: RegistryDiagnosticCode;
  message: string;
  /** The file, as given to `add`. */
  path?: string;
  /** The schema's `$id`, when it has one. */
  id?: string;
  /** JSON Pointer into the schema. */
  pointer: string;
  range?: TextRange;
}

/**
 * Versioned output schemas by `$id`. An `$id` carries a name and a semantic version:
 * `https://example.com/schemas/ticket/1.2.0` or `https://example.com/schemas/ticket.v1.2.0.schema.json`;
 * files are named `NAME.vX.Y.Z.schema.json`, `NAME/X.Y.Z.schema.json` or `NAME.schema.json`.
 * `$ref`s between the registry's schemas resolve among them; nothing is ever fetched.
 *
 * The version rule `check()` applies to consecutive versions of one name: a patch step changes
 * no accepted output; a minor step may only narrow (every output of the new version still fits
 * consumers of the old one); a major step may change anything. Unknown changes need a major step.
 *
 * With `draft: 'jtd'` the schemas are JSON Type Definitions: each is known by `metadata.id` (JTD
 * has no `$id`; RFC 8927 leaves `metadata` to its users), with `metadata.title` and
 * `metadata.description`. A JTD `ref` names the schema's own `definitions`, never another file.
 *
 * A schema tool: see `loadSchemaTools`.
 */
export declare class SchemaRegistry {
  constructor(options?: { draft?: Draft; strict?: boolean; formats?: boolean });
  /** Adds a schema; never throws for a broken one (`check()` reports it). Returns its `$id` (`metadata.id` for JTD), or null. */
  add(schema: JsonSchema | string, options?: { path?: string }): string | null;
  /** The schema with this `$id` compiled, the registry's other schemas as its resources. */
  contract(id: string): Contract;
  /** Everything wrong with the registry; empty when nothing is. */
  check(): RegistryDiagnostic[];
  /** The versions of a schema name, oldest first. */
  versions(name: string): Array<{ version: string; id: string; path?: string }>;
}

/**
 * The wire format of a provider's streaming response: `'openai-chat'` (Chat Completions chunks,
 * ended by `data: [DONE]`), `'openai-responses'` (Responses API events, ended by
 * `response.completed`, `response.incomplete` or `response.failed`), `'anthropic'` (Messages
 * events, ended by `message_stop`). APIs that copy one of these formats are read by its name.
 */
export type StreamProvider = 'openai-chat' | 'openai-responses' | 'anthropic';

/** A provider's streaming response body: a `fetch` Response, its body, or the body's chunks. */
export type ProviderBody = Response | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

export interface ProviderStreamOptions {
  provider: StreamProvider;
  /**
   * The submit tool's name (default `submit_result`, the name `submitResultTool` gives). When the
   * answer calls it, the call's arguments are the output and the text around the call is not
   * (text may arrive before it); when the answer does not call it, its text is read as a text
   * answer is. An answer that calls another tool and gives no output is a retryable `tool`
   * violation naming both tools. Without `tool`, the text is read as it arrives until a call of
   * `submit_result` comes.
   */
  tool?: string;
  /** As for `contract.stream()`: whether an invalid answer's outcome is a `retry` (default: 1) or final. */
  maxRetries?: number;
  /** Cancel the body at the first early violation: the request stops costing tokens. Default: false. */
  abortOnEarlyViolation?: boolean;
  /** Tool arguments of a strict-mode OpenAI tool: a null for an optional property reads as absent. */
  nullAsAbsent?: boolean;
  /** Called after every chunk of the body with the stream's status. */
  onStatus?: (status: StreamStatus) => void;
  /** Aborts the reading (the body is cancelled; the promise rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** How the provider said the answer ended, beside the outcome. */
export interface ProviderEnd {
  /**
   * The stop reason as the provider said it: `finish_reason` (OpenAI Chat), `stop_reason`
   * (Anthropic), or for the Responses API `completed` or the incomplete reason
   * (`max_output_tokens`, `content_filter`). Null when the answer was cut at an early violation.
   */
  stopReason: string | null;
  /** The token usage the provider reported, as it reported it (null if it did not). */
  usage: Record<string, JsonValue> | null;
}

/**
 * Validates a provider's streaming response through `contract` as it arrives: the server-sent
 * events are decoded and read inside the module, the output (text, or the `tool` call's
 * arguments) goes through the stream validator. A refusal is a `refused` outcome with the
 * provider's text; a token limit is a `truncated` violation; the provider's stop reason and usage
 * are given beside the outcome. A provider error event, an HTTP error or a connection cut before
 * the end rejects with a `ProviderError`, never a violation. Bad options (`provider` missing
 * included) reject with an `OptionError`.
 */
export declare function validateProviderStream<T = unknown>(contract: Contract, body: ProviderBody, options: ProviderStreamOptions): Promise<StreamOutcome<T> & ProviderEnd>;

/** One normalised event of a provider stream. */
export type ProviderEvent =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; index: number; id?: string; name: string }
  | { type: 'tool-arguments'; index: number; text: string }
  | { type: 'refusal'; text: string }
  | { type: 'end'; stopReason: string | null; usage: Record<string, JsonValue> | null };

/**
 * The normalised events of a provider's streaming response, for callers that route events
 * themselves. `index` ties a tool call's argument deltas to it. Ends with the `end` event; a
 * provider error or a cut connection throws a `ProviderError`; leaving the loop early cancels
 * the body.
 */
export declare function providerEvents(body: ProviderBody, options: { provider: StreamProvider }): AsyncGenerator<ProviderEvent, void, undefined>;

/**
 * Why a provider stream gave no answer. `kind`: `provider_error` (the provider's error event:
 * overloaded, rate limited, server error), `incomplete_stream` (the body ended before the answer
 * did: a cut connection), `invalid_event` (an event that is not the provider's format),
 * `http_error` (a Response with an error status; `status` is set).
 */
export declare class ProviderError extends Error {
  readonly name: 'ProviderError';
  readonly kind: 'provider_error' | 'incomplete_stream' | 'invalid_event' | 'http_error';
  readonly provider: StreamProvider;
  /** The provider's error code or type (`overloaded_error`, `rate_limit_exceeded`, …), when it gave one. */
  readonly code?: string;
  /** The HTTP status of an `http_error`. */
  readonly status?: number;
}

/** A model reply for `enforce` that is a provider's streaming response (see `validateProviderStream`). */
export interface ProviderReply {
  response: ProviderBody;
  provider: StreamProvider;
  /** The submit tool's name (default `submit_result`): its call's arguments are the answer (without `tool`, when no text came before the call); an answer that calls another tool instead is a retryable `tool` violation naming both. */
  tool?: string;
  /** Called after the body is cancelled at an early violation (to abort the request itself). */
  cancel?: () => unknown;
}
