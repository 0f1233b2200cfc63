// The executor loop as a library function: enrich the system prompt, call the model, extract
// and validate (while it streams, when it streams), re-prompt in the same conversation, and end
// completed, failed (the run failure envelope) or refused.
//
// The rules are the stream state machine's (src/agent/stream.rs), one machine for the whole
// run: which attempt this is, what counts as a refusal, which failures are retried and how many
// times, the retry prompt, and the final error. This side calls the model, feeds the machine
// its answer, and acts on the outcome.
import { enrichSystemPrompt, failureEnvelope } from './api.js';
import { currentAttempt, executorStream, finishText } from './internal.js';
import { checkOptions } from './options.js';
import { providerReply } from './provider.js';

// A model reply in any of the accepted shapes, as { text } or { stream } plus how it ended.
function normalise(reply) {
  if (typeof reply === 'string') return { text: reply };
  if (reply == null || typeof reply !== 'object') throw new TypeError('the model must return a string, an async iterable of text deltas, { text | stream, stopReason?, refusal? } or { response, provider, tool? }');
  if (typeof reply[Symbol.asyncIterator] === 'function' && reply.stream === undefined) return { stream: reply };
  // A provider's streaming response (`{ response, provider, tool? }`): its output deltas.
  if (reply.response !== undefined && reply.provider !== undefined) return providerReply(reply);
  if (typeof reply.text === 'string' || reply.stream !== undefined || reply.refusal != null) return reply;
  throw new TypeError('the model reply has neither text nor stream');
}

async function endOf(reply) {
  // `end` may be a function, so a streaming reply can say how it stopped after its last delta.
  const end = typeof reply.end === 'function' ? await reply.end() : reply.end ?? reply;
  return { stopReason: end?.stopReason ?? undefined, refusal: end?.refusal ?? undefined };
}

// Streams one attempt into the machine; stops reading (and cancels the upstream through the
// iterator's return()) when the machine ends the attempt at an early violation.
async function streamAttempt(stream, reply, repair) {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  let aborted = false;
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
  // An attempt the machine ended is not asked how the model would have ended it.
  const end = aborted ? {} : await endOf(reply);
  // The whole text goes along: when the streamed reading finds no JSON or broken JSON (prose
  // braces before the answer), the machine reads it by extractJson's rule instead.
  return { text, bytes, aborted, outcome: stream[finishText](end, text, true, repair) };
}

async function textAttempt(stream, reply, repair) {
  const end = await endOf(reply);
  const text = reply.text ?? '';
  const outcome = stream[finishText](end, text, false, repair);
  // A refusal is not read, so no bytes were.
  const bytes = outcome.state === 'refused' ? 0 : new TextEncoder().encode(text).length;
  return { text, bytes, aborted: false, outcome };
}

/**
 * Runs `model` until its output satisfies `contract`, retrying `maxRetries` times (default 1).
 * `model(messages, { attempt })` returns the answer as a string, an async iterable of text
 * deltas (or UTF-8 bytes), `{ text | stream, stopReason?, refusal?, end?() }`, or a provider's
 * streaming response as `{ response, provider, tool? }` (see validateProviderStream).
 */
export async function enforce(contract, model, options = {}) {
  checkOptions('enforce', options);
  const { systemPrompt = '', messages: conversation = [], task, maxRetries, onAttempt, templates, repair = false, abortOnEarlyViolation = false, runId } = options;
  const messages = [{ role: 'system', content: enrichSystemPrompt(systemPrompt, contract.jsonSchema, { templates }) }, ...conversation];
  if (task !== undefined) messages.push({ role: 'user', content: String(task) });
  // Without maxRetries, the machine's default.
  const stream = contract[executorStream]({ extract: true, maxRetries, abortOnEarlyViolation }, templates);
  try {
    for (;;) {
      const attempt = stream[currentAttempt]();
      const started = Date.now();
      const reply = normalise(await model(messages.slice(), { attempt }));
      const run = reply.stream === undefined ? await textAttempt(stream, reply, repair) : await streamAttempt(stream, reply, repair);
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
      if (refused) return { status: 'refused', refusal: outcome.refusal, attempts: outcome.attempt };
      if (outcome.valid) return { status: 'completed', result_data: outcome.data, attempts: outcome.attempt };
      if (outcome.state === 'hard-complete') {
        // The machine's final error (no longer retryable), after every retry it allowed.
        const { error, attempts } = outcome;
        return { ...failureEnvelope(error, runId, attempts - 1), attempts, validation_error: error };
      }
      // A retry: the machine is in the next attempt already.
      messages.push({ role: 'assistant', content: run.text }, { role: 'user', content: outcome.prompt });
    }
  } finally {
    stream.free();
  }
}
