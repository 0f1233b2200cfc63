// The executor loop of seed 000 as a library function: enrich the system prompt, call the
// model, extract and validate (while it streams, when it streams), re-prompt once in the same
// conversation, and end completed, failed (seed 000 §5 envelope) or refused.
import { enrichSystemPrompt, retryPrompt, failureEnvelope } from './api.js';

// A model reply in any of the accepted shapes, as { text } or { stream } plus how it ended.
function normalise(reply) {
  if (typeof reply === 'string') return { text: reply };
  if (reply == null || typeof reply !== 'object') throw new TypeError('the model must return a string, an async iterable of text deltas, or { text | stream, stopReason?, refusal? }');
  if (typeof reply[Symbol.asyncIterator] === 'function' && reply.stream === undefined) return { stream: reply };
  if (typeof reply.text === 'string' || reply.stream !== undefined || reply.refusal != null) return reply;
  throw new TypeError('the model reply has neither text nor stream');
}

async function endOf(reply) {
  // `end` may be a function, so a streaming reply can say how it stopped after its last delta.
  const end = typeof reply.end === 'function' ? await reply.end() : reply.end ?? reply;
  return { stopReason: end?.stopReason ?? undefined, refusal: end?.refusal ?? undefined };
}

// Streams one attempt through contract.stream(); stops reading (and cancels the upstream
// through the iterator's return()) at the first early violation.
async function streamAttempt(contract, reply, abortEarly, canRetry) {
  // With a retry left, a repairable failure ends soft-complete with `retry`; without, the stream
  // itself makes the final (hard-complete) error.
  const stream = contract.stream({ extract: true, maxRetries: canRetry ? 1 : 0, abortOnEarlyViolation: abortEarly });
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  let aborted = false;
  try {
    const iterator = reply.stream[Symbol.asyncIterator]();
    for (;;) {
      const { value, done } = await iterator.next();
      if (done) break;
      text += typeof value === 'string' ? value : decoder.decode(value, { stream: true });
      const status = stream.push(value);
      bytes = status.bytes;
      if (status.aborted) {
        aborted = true;
        await iterator.return?.();
        await reply.cancel?.();
        break;
      }
    }
    text += decoder.decode();
    const end = aborted ? {} : await endOf(reply);
    const done = stream.finish(end);
    const outcome = done.retry ? { valid: false, retry: true, violations: done.violations } : done;
    return { text, bytes, aborted, outcome };
  } finally {
    stream.free();
  }
}

function textAttempt(contract, reply, repair, canRetry) {
  const result = contract.validateText(reply.text, { extract: true, repair });
  const bytes = new TextEncoder().encode(reply.text).length;
  if (result.valid) return { text: reply.text, bytes, outcome: { valid: true, data: result.data } };
  const { error } = result;
  const retry = canRetry && error.retryable;
  return { text: reply.text, bytes, outcome: { valid: false, retry, violations: error.violations, error } };
}

/**
 * Runs `model` until its output satisfies `contract`, retrying `maxRetries` times (default 1).
 * `model(messages, { attempt })` returns the answer as a string, an async iterable of text
 * deltas (or UTF-8 bytes), or `{ text | stream, stopReason?, refusal?, end?() }`.
 */
export async function enforce(contract, model, options = {}) {
  const { systemPrompt = '', messages: conversation = [], task, maxRetries = 1, onAttempt, templates, repair = false, abortOnEarlyViolation = true, runId } = options;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new TypeError('maxRetries must be a non-negative integer');
  const schema = contract.schema;
  const messages = [{ role: 'system', content: enrichSystemPrompt(systemPrompt, schema, { templates }) }, ...conversation];
  if (task !== undefined) messages.push({ role: 'user', content: String(task) });
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    const reply = normalise(await model(messages.slice(), { attempt }));
    const canRetry = attempt <= maxRetries;
    let run;
    const end = reply.stream === undefined ? await endOf(reply) : undefined;
    if (end && (end.stopReason === 'refusal' || end.refusal != null)) {
      run = { text: reply.text ?? '', bytes: 0, outcome: { state: 'refused', refusal: end.refusal ?? '' } };
    } else if (reply.stream !== undefined) {
      run = await streamAttempt(contract, reply, abortOnEarlyViolation, canRetry);
      // While streaming, the JSON starts at the first bracket; prose braces before it (or an
      // example quoted before the answer) break that parse. The whole text then gets
      // extractJson's rule, the same as a text answer.
      const violations = run.outcome.violations ?? run.outcome.error?.violations ?? [];
      if (!run.aborted && violations.some((v) => v.keyword === 'json')) {
        run = { ...textAttempt(contract, { text: run.text }, repair, canRetry), bytes: run.bytes };
      }
    } else {
      run = textAttempt(contract, reply, repair, canRetry);
    }
    const { outcome } = run;
    const refused = outcome.state === 'refused';
    const violations = outcome.violations ?? outcome.error?.violations ?? [];
    onAttempt?.({
      attempt,
      outcome: refused ? 'refused' : outcome.valid ? 'valid' : run.aborted ? 'aborted' : 'invalid',
      keywords: violations.map((v) => v.keyword),
      bytes: run.bytes,
      streamed: reply.stream !== undefined,
      ms: Date.now() - started,
    });
    if (refused) return { status: 'refused', refusal: outcome.refusal, attempts: attempt };
    if (outcome.valid) return { status: 'completed', result_data: outcome.data, attempts: attempt };
    if (!outcome.retry) {
      // Retries are over: the canonical error says so, as the stream's hard-complete does.
      const error = { ...outcome.error, retryable: false };
      return { ...failureEnvelope(error, runId, attempt - 1), attempts: attempt, validation_error: error };
    }
    messages.push({ role: 'assistant', content: run.text }, { role: 'user', content: retryPrompt(violations, schema, { templates }) });
  }
}
