// The executor loop as a library function: enrich the system prompt, call the model, extract
// and validate (while it streams, when it streams), re-prompt in the same conversation, and end
// completed, failed (the run failure envelope) or refused.
//
// The rules are the stream state machine's (src/agent/stream.rs), one machine for the whole
// run: which attempt this is, what counts as a refusal, which failures are retried and how many
// times, the retry prompt, and the final error. This side calls the model, feeds the machine
// its answer, and acts on the outcome.
import { Contract, enrichSystemPrompt, extractJson, failureEnvelope, loadSchemaTools, retryPrompt } from './api.js';
import { PATCH_TOOL, currentAttempt, executorStream, finishFailed, finishText, mergePatch } from './internal.js';
import { checkOptions } from './options.js';
import { providerReply } from './provider.js';

const encoder = new TextEncoder();

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
  // A provider reply's `end()` also says when the answer called another tool than the submit tool.
  const wrongTool = typeof reply.end === 'function' ? end?.wrongTool : undefined;
  return [{ stopReason: end?.stopReason ?? undefined, refusal: end?.refusal ?? undefined }, wrongTool];
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
  const [end, wrongTool] = aborted ? [{}, undefined] : await endOf(reply);
  // The whole text goes along: when the streamed reading finds no JSON or broken JSON (prose
  // braces before the answer), the machine reads it by extractJson's rule instead.
  const refused = end.refusal != null || end.stopReason === 'refusal';
  const outcome = wrongTool !== undefined && !refused ? stream[finishFailed]([wrongTool], text) : stream[finishText](end, text, true, repair);
  return { text, bytes, aborted, outcome };
}

async function textAttempt(stream, reply, repair) {
  const [end] = await endOf(reply);
  const text = reply.text ?? '';
  const outcome = stream[finishText](end, text, false, repair);
  // A refusal is not read, so no bytes were.
  const bytes = outcome.state === 'refused' ? 0 : encoder.encode(text).length;
  return { text, bytes, aborted: false, outcome };
}

// The JSON Patch shape (the submit_patch tool's `patch`), compiled on the first streamed patch.
let patchShape;

// A streamed patch reply, validated as it arrives against the JSON Patch shape: an operation that
// is malformed (an unknown `op`, a member that is not one, `path` missing once it closes) is an
// early violation at its pointer in the patch (`/1/op`), found as the stream finds any. With
// `abortOnEarlyViolation` the reading stops there. A reply that is not a patch (isPatch: not an
// array, or an array without an operation, a whole answer of a contract whose output is an
// array) is not held to the shape, and is read whole (the full-answer fallback).
async function streamPatch(reply, abortEarly) {
  patchShape ??= Contract.compile(PATCH_TOOL.properties.patch);
  const shape = patchShape.stream({ extract: true, maxRetries: 0 });
  const decoder = new TextDecoder();
  let text = '';
  let early = [];
  // Checked until an early violation is found, or the reply is found to be no patch.
  let checking = true;
  try {
    const iterator = reply.stream[Symbol.asyncIterator]();
    for (;;) {
      const { value, done } = await iterator.next();
      if (done) break;
      text += typeof value === 'string' ? value : decoder.decode(value, { stream: true });
      if (!checking) continue;
      const violations = shape.push(value).earlyViolations;
      if (violations.length === 0) continue;
      checking = false;
      // The partial value (strings as their prefix) says whether an operation was begun.
      const patch = violations.some((v) => v.pointer !== '') && isPatch(shape.partial());
      if (!patch) continue;
      early = violations;
      if (abortEarly) {
        await iterator.return?.();
        await reply.cancel?.();
        return { text, early, aborted: true };
      }
    }
  } finally {
    shape.free();
  }
  return { text: text + decoder.decode(), early, aborted: false };
}

// A patch attempt (`retry: 'patch'`): the reply is not pushed into the machine, whose in-flight
// checks are the contract's and a patch has another shape (a streamed one is checked against
// that shape as it arrives: streamPatch). A reply whose JSON is a JSON Patch (isPatch) is applied
// to `base` and the merged document is the attempt's answer, validated post-merge; any other
// reply (a whole answer again, prose) is read as a full answer: the fallback.
async function patchAttempt(contract, stream, reply, base, repair, abortEarly) {
  let text = reply.text ?? '';
  if (reply.stream !== undefined) {
    const streamed = await streamPatch(reply, abortEarly);
    text = streamed.text;
    if (streamed.aborted) {
      // Cut at a malformed operation: its violations are the attempt's, the base stays.
      const outcome = stream[finishFailed](streamed.early, text);
      return { text, bytes: encoder.encode(text).length, aborted: true, mode: 'patch', fallback: false, applied: false, outcome };
    }
  }
  const [end] = await endOf(reply);
  const refused = end.refusal != null || end.stopReason === 'refusal';
  if (refused || !isPatch(extractJson(text).value)) {
    const outcome = stream[finishText](end, text, false, repair);
    return { text, bytes: outcome.state === 'refused' ? 0 : encoder.encode(text).length, aborted: false, mode: 'full', fallback: !refused, outcome };
  }
  const bytes = encoder.encode(text).length;
  const merged = contract[mergePatch](base, text, 'json-patch', true);
  if (merged.violations !== undefined) {
    return { text, bytes, aborted: false, mode: 'patch', fallback: false, applied: false, outcome: stream[finishFailed](merged.violations, merged.raw) };
  }
  // The merged document is validated (and retried, or failed) as the machine reads any answer.
  const outcome = stream[finishText](end, JSON.stringify(merged.merged), false, false);
  return { text, bytes, aborted: false, mode: 'patch', fallback: false, applied: true, merged: merged.merged, outcome };
}

// An array with an operation in it (or none at all): an answer of a contract whose output is an
// array is not taken for one.
const isPatch = (value) => Array.isArray(value) && (value.length === 0 || value.some((op) => typeof op?.op === 'string'));

// Violations that leave no document to patch: the answer was not read as JSON, or not within limits.
const UNREAD = new Set(['json', 'truncated', 'maxOutputBytes', 'maxDepth']);

// What the next attempt patches after a retryable failure, or undefined for a full retry: the
// merged document of a patch that applied, the same base after a patch that did not (its
// violation listed before the ones still to fix), else the answer's own JSON when it was read.
function nextBase(run, outcome, previous, repair) {
  if (run.mode === 'patch') {
    if (run.applied) return { base: run.merged, violations: outcome.violations };
    return { base: previous.base, violations: [...outcome.violations, ...previous.violations] };
  }
  if (run.aborted || outcome.violations.some((v) => UNREAD.has(v.keyword))) return undefined;
  const { value } = extractJson(run.text, { repair });
  return value === undefined ? undefined : { base: value, violations: outcome.violations };
}

/**
 * Runs `model` until its output satisfies `contract`, retrying `maxRetries` times (default 1).
 * `model(messages, { attempt })` returns the answer as a string, an async iterable of text
 * deltas (or UTF-8 bytes), `{ text | stream, stopReason?, refusal?, end?() }`, or a provider's
 * streaming response as `{ response, provider, tool? }` (see validateProviderStream). With
 * `retry: 'patch'`, a retry after an invalid but parseable answer asks for a JSON Patch to it,
 * and the merged document is what is validated (and returned).
 */
export async function enforce(contract, model, options = {}) {
  checkOptions('enforce', options);
  const { systemPrompt = '', messages: conversation = [], task, maxRetries, onAttempt, templates, repair = false, abortOnEarlyViolation = false, runId, retry = 'full' } = options;
  const messages = [{ role: 'system', content: enrichSystemPrompt(systemPrompt, contract.jsonSchema, { templates }) }, ...conversation];
  if (task !== undefined) messages.push({ role: 'user', content: String(task) });
  // The patch engine is in the schema tools' module: loaded before the first call, in a browser too.
  if (retry === 'patch') await loadSchemaTools();
  // Without maxRetries, the machine's default.
  const stream = contract[executorStream]({ extract: true, maxRetries, abortOnEarlyViolation }, templates);
  // With `retry: 'patch'`: the document the next attempt patches and the violations it was told.
  let patching;
  // The UTF-8 bytes of the retry prompt that asked for this attempt.
  let promptBytes = 0;
  try {
    for (;;) {
      const attempt = stream[currentAttempt]();
      const started = Date.now();
      const reply = normalise(await model(messages.slice(), { attempt }));
      const run =
        patching !== undefined
          ? await patchAttempt(contract, stream, reply, patching.base, repair, abortOnEarlyViolation)
          : reply.stream === undefined
            ? await textAttempt(stream, reply, repair)
            : await streamAttempt(stream, reply, repair);
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
        mode: run.mode ?? 'full',
        fallback: run.fallback ?? false,
        promptBytes,
      });
      if (refused) return { status: 'refused', refusal: outcome.refusal, attempts: outcome.attempt };
      if (outcome.valid) return { status: 'completed', result_data: outcome.data, attempts: outcome.attempt };
      if (outcome.state === 'hard-complete') {
        // The machine's final error (no longer retryable), after every retry it allowed.
        const { error, attempts } = outcome;
        return { ...failureEnvelope(error, runId, attempts - 1), attempts, validation_error: error };
      }
      // A retry: the machine is in the next attempt already.
      patching = retry === 'patch' ? nextBase(run, outcome, patching, repair) : undefined;
      const prompt = patching === undefined ? outcome.prompt : retryPrompt(patching.violations, contract.jsonSchema, { mode: 'patch', templates });
      promptBytes = encoder.encode(prompt).length;
      messages.push({ role: 'assistant', content: run.text }, { role: 'user', content: prompt });
    }
  } finally {
    stream.free();
  }
}
