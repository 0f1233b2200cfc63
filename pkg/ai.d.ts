// Types of `output-contract/ai` (needs the `ai` package, an optional peer dependency).
// Without `ai` installed, its types read as `any` here, so a project that does not use the AI SDK
// still compiles these types (with skipLibCheck: false too).
// @ts-ignore -- `ai` is an optional peer dependency (ts-expect-error would fail where it is installed)
import type { FinishReason, LanguageModelUsage, Schema, TextStreamPart, ToolSet } from 'ai';
import type { Contract, OutputValidationError, StreamOutcome, StreamStatus } from './index.js';

/**
 * The contract as an AI SDK schema: `jsonSchema(contract.jsonSchema, { validate })`, for
 * `Output.object({ schema })` and a tool's `inputSchema`. A failed validation's error is a
 * `ContractValidationError` carrying the canonical error; the SDK wraps it: for
 * `generateText`/`streamText` with `Output.object`, `NoObjectGeneratedError` → `cause`
 * (`TypeValidationError`) → `cause` (this error): `err.cause.cause.outputValidationError`; for a
 * tool's input, the refused `tool-call` part (`invalid: true`) holds an `InvalidToolInputError`
 * as its `error`: `part.error.cause.cause.outputValidationError`.
 */
export declare function toAiSdkSchema<T = unknown>(contract: Contract<T> | Contract): Schema<T>;

export interface ContractValidationError extends Error {
  name: 'OutputValidationError';
  outputValidationError: OutputValidationError;
}

export interface AiSdkStreamOptions {
  /**
   * The submit tool's name: the input deltas of the call to it are the output, text around it is
   * not. Default: `submit_result`, and without the option text is read as it arrives until a call
   * to `submit_result` starts (an answer without it is read as text).
   */
  tool?: string;
  /** The controller whose signal `streamText` was given: aborted at the first early violation with `abortOnEarlyViolation`. */
  abortController?: AbortController;
  /** Stop at the first early violation (and abort the request). Default: false. */
  abortOnEarlyViolation?: boolean;
  /** As for `contract.stream()`: an invalid answer's outcome is a `retry` (default: 1) or final. */
  maxRetries?: number;
  /** Called after every delta pushed. */
  onStatus?: (status: StreamStatus) => void;
}

/** The outcome of a validated AI SDK stream, with how the SDK said it finished (null when cut at an early violation). */
export type AiSdkStreamOutcome<T = unknown> = StreamOutcome<T> & {
  finishReason: FinishReason | null;
  rawFinishReason: string | null;
  usage: LanguageModelUsage | null;
};

/**
 * Validates `streamText(...).fullStream` through `contract` as its parts arrive (text deltas, or
 * the `tool` call's input deltas), the `finish` part's reason read as the stop reason (`length`:
 * truncated; `content-filter`: refused). An `error` part rejects with its error.
 */
export declare function validateAiSdkStream<T = unknown>(contract: Contract, fullStream: AsyncIterable<TextStreamPart<ToolSet>>, options?: AiSdkStreamOptions): Promise<AiSdkStreamOutcome<T>>;
