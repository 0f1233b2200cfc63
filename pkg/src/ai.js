// `output-contract/ai`: a Contract as a Vercel AI SDK schema. The SDK does not check JSON Schema
// outputs at runtime by itself; this schema carries the contract's validation, so
// generateText/streamText with `Output.object({ schema })` reject what the contract rejects.
import { jsonSchema } from 'ai';
import { ADAPTERS, SUBMIT_TOOL } from '../wasm/output_contract.js';
import { formatViolation } from './api.js';

/** `jsonSchema(contract.jsonSchema, { validate })` from the `ai` package, validating with `contract`. */
export function toAiSdkSchema(contract) {
  return jsonSchema(() => contract.jsonSchema, {
    validate(value) {
      const result = contract.validate(value);
      if (result.valid) return { success: true, value: result.data };
      const lines = result.error.violations.map(formatViolation);
      // The SDK validates a structured output and a tool's input alike and says which around
      // this error: its text (src/report/canonical.rs) names neither.
      const error = new Error(`${ADAPTERS.aiSdkMismatch}:\n${lines.join('\n')}`);
      error.name = 'OutputValidationError';
      error.outputValidationError = result.error;
      return { success: false, error };
    },
  });
}

// The AI SDK's finish reasons as the stream machine names stop reasons; `error` and `other`
// leave an answer that is read as it is.
const STOP_REASONS = { stop: 'stop', length: 'length', 'content-filter': 'content_filter', 'tool-calls': 'tool_calls' };

/**
 * Validates `streamText(...).fullStream` through `contract` as its parts arrive: the text deltas,
 * or the input deltas of the call to `tool` (text around the call is not the output; an answer
 * without the call is read as text). Without `tool`, the call looked for is `submit_result`'s
 * (the name `submitResultTool` gives) and text is read as it arrives until such a call starts. With `abortOnEarlyViolation`, the first
 * early violation aborts `abortController` (the one whose signal streamText was given) and stops
 * reading. Resolves to the stream outcome plus the SDK's `finishReason`, `rawFinishReason` and
 * `usage`; an `error` part rejects with its error.
 */
export async function validateAiSdkStream(contract, fullStream, options = {}) {
  const { tool, abortController, abortOnEarlyViolation = false, maxRetries, onStatus } = options;
  const expected = tool ?? SUBMIT_TOOL;
  const streamOptions = { abortOnEarlyViolation, ...(maxRetries === undefined ? {} : { maxRetries }) };
  let stream = null;
  let callId = null;
  let called = false;
  let text = '';
  let finish = null;
  const push = (delta) => {
    const status = stream.push(delta);
    onStatus?.(status);
    return status.aborted;
  };
  try {
    let aborted = false;
    for await (const part of fullStream) {
      if (part.type === 'text-delta') {
        if (tool !== undefined) text += part.text;
        else if (!called) {
          stream ??= contract.stream({ ...streamOptions, extract: true });
          aborted = push(part.text);
        }
      } else if (part.type === 'tool-input-start' && part.toolName === expected && !called) {
        // Without `tool`, what was read of the text so far was not the answer.
        called = true;
        callId = part.id;
        stream?.free();
        stream = contract.stream(streamOptions);
      } else if (part.type === 'tool-input-delta' && part.id === callId) {
        aborted = push(part.delta);
      } else if (part.type === 'tool-call' && part.toolName === expected && !called) {
        // A provider that sends the call whole, without input deltas.
        called = true;
        stream?.free();
        stream = contract.stream(streamOptions);
        aborted = push(typeof part.input === 'string' ? part.input : JSON.stringify(part.input));
      } else if (part.type === 'finish') {
        finish = part;
      } else if (part.type === 'error') {
        throw part.error;
      }
      if (aborted) {
        abortController?.abort(new Error('output-contract: the answer broke the contract'));
        break;
      }
    }
    if (aborted) return { ...stream.finish(), finishReason: null, rawFinishReason: null, usage: null };
    // No call to the tool: the answer's text is read as a text answer.
    if (stream === null) {
      stream = contract.stream({ ...streamOptions, extract: true });
      stream.push(text);
    }
    const stopReason = STOP_REASONS[finish?.finishReason] ?? 'stop';
    const outcome = stream.finish({ stopReason });
    return { ...outcome, finishReason: finish?.finishReason ?? null, rawFinishReason: finish?.rawFinishReason ?? null, usage: finish?.totalUsage ?? null };
  } finally {
    stream?.free();
  }
}
