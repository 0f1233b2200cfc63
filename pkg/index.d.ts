// Type declarations of the output-contract package. Every entry (node, browser, deno, workerd)
// exports the same API; only how the WebAssembly module is loaded differs.

/** JSON Schema drafts the library compiles. A schema's `$schema` always wins over the option. */
export type Draft = 'draft4' | 'draft6' | 'draft7' | 'draft2019-09' | 'draft2020-12';

/** A JSON value, as parsed from model output. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface CompileOptions {
  /** Draft used when the schema has no `$schema`. Default: `"draft7"`. */
  draft?: Draft;
  /** Refuse keywords the draft does not know and unknown formats. Default: `true`. */
  strict?: boolean;
  /** Assert `format` in every draft. Default: `true`. */
  formats?: boolean;
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
  /** The failing keyword, or `json` / `truncated` / `maxOutputBytes` / `maxDepth` for problems before schema validation. */
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

/** The canonical error of a failed validation (seed 003): snake_case keys, exactly these fields. */
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

/** A compiled output contract. */
export declare class Contract {
  private constructor();
  /** Compiles `schema` (an object or JSON text), or returns the cached compilation. Throws `SchemaError`. */
  static compile(schema: object | boolean | string, options?: CompileOptions): Contract;
  readonly schemaId: string;
  readonly agentId: string | null;
  readonly draft: Draft;
  /** Validates a value; every violation is collected. */
  validate<T = unknown>(value: unknown): ValidationResult<T>;
  /** Parses and validates model output text; `data` is the parsed value. */
  validateText<T = unknown>(text: string): ValidationResult<T>;
  /** A stream validator for this contract (seed 003 §4 states). */
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

export interface StreamEnd {
  stopReason?: 'stop' | 'length' | 'refusal' | 'tool_use';
  refusal?: string;
}

/** Validates an output as it streams in; after a `retry` outcome the next push starts the next attempt. */
export declare class OutputStream {
  private constructor();
  push(chunk: string | Uint8Array): StreamStatus;
  partial(): unknown;
  /** Changes since the last call (the first call: the whole partial value at `$`). */
  changes(): Array<{ path: string; value?: JsonValue; append?: string }>;
  /** With `extract`: what was skipped before and after the JSON value (UTF-8 byte offsets, end exclusive). */
  skipped(): Array<{ start: number; end: number; place: 'before' | 'after' }>;
  finish<T = unknown>(end?: StreamEnd): StreamOutcome<T>;
  /** Chunks in, a status per chunk out. */
  transform(): TransformStream<string | Uint8Array, StreamStatus>;
  /** Pushes every chunk of an async iterable, then finishes. */
  consume<T = unknown>(chunks: AsyncIterable<string | Uint8Array>, end?: StreamEnd): Promise<StreamOutcome<T>>;
  free(): void;
  [Symbol.dispose](): void;
}

/** Resolves once the WebAssembly module is loaded (already resolved where loading is synchronous). */
export declare const ready: Promise<void>;

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

export declare function failureEnvelope(error: OutputValidationError, runId?: string): FailureEnvelope;

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
