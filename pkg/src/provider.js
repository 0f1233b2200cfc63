// A model provider's streaming response, validated as it arrives. The body's bytes go into the
// module, which decodes the server-sent events, reads the provider's events (src/agent/provider)
// and feeds the output (the text, or the submit tool's arguments) to the stream state machine;
// a status comes back per chunk, and the outcome at the end. No event crosses the boundary.
import { providerBridge as bridge } from './internal.js';
// The submit tool's default name (src/agent/tool.rs), written into the glue by scripts/build.sh.
import { SUBMIT_TOOL } from '../wasm/output_contract.js';
import { OPTIONS, OptionError, checkOptions } from './options.js';

/** Why a provider stream gave no answer: the provider's error event, a cut connection, an HTTP error. */
export class ProviderError extends Error {
  constructor(data, provider) {
    super(data.message);
    this.name = 'ProviderError';
    this.kind = data.kind;
    this.provider = provider;
    if (data.code !== undefined) this.code = data.code;
    if (data.status !== undefined) this.status = data.status;
  }
}

const encoder = new TextEncoder();

// A Response is read as its body, after its status: an HTTP error is the provider's error, told
// with the message its JSON body gives.
async function bodyOf(body, provider) {
  if (typeof Response !== 'undefined' && body instanceof Response) {
    if (!body.ok) {
      const text = await body.text().catch(() => '');
      let error;
      try {
        error = JSON.parse(text)?.error;
      } catch {
        // not JSON: the text is the message
      }
      const message = typeof error?.message === 'string' ? error.message : text.slice(0, 500) || `HTTP ${body.status}`;
      const code = error?.code ?? error?.type ?? undefined;
      throw new ProviderError({ kind: 'http_error', status: body.status, code: code ?? undefined, message: `${provider} answered ${body.status}: ${message}` }, provider);
    }
    if (body.body === null) throw new ProviderError({ kind: 'incomplete_stream', message: `the ${provider} response has no body` }, provider);
    return body.body;
  }
  return body;
}

// The body's chunks as an iterator whose `cancel()` stops the upstream: a ReadableStream by its
// reader (cancel reaches the fetch), an async iterable by its `return()`.
function chunksOf(body, provider) {
  if (body !== null && typeof body === 'object' && typeof body.getReader === 'function') {
    const reader = body.getReader();
    return {
      next: () => reader.read().catch((e) => Promise.reject(lost(e, provider))),
      cancel: (reason) => reader.cancel(reason).catch(() => {}),
      release: () => reader.releaseLock(),
    };
  }
  if (body != null && typeof body[Symbol.asyncIterator] === 'function') {
    const iterator = body[Symbol.asyncIterator]();
    return {
      next: () => iterator.next().catch((e) => Promise.reject(lost(e, provider))),
      cancel: async () => {
        await iterator.return?.();
      },
      release: () => {},
    };
  }
  throw new TypeError('the body must be a Response, a ReadableStream or an async iterable of bytes or strings');
}

// A body whose reading fails (the connection reset under it) is a cut connection. An abort is
// left as it is: the caller's own.
function lost(error, provider) {
  if (error?.name === 'AbortError' || error instanceof ProviderError) return error;
  return new ProviderError({ kind: 'incomplete_stream', message: `the ${provider} stream broke off: ${error?.message ?? error}` }, provider);
}

function bytesOf(chunk) {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return encoder.encode(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  throw new TypeError('a body chunk must be bytes (Uint8Array) or a string');
}

// Reads the body into `push` until it ends or `stop()` says so; `signal` aborts the reading
// (and cancels the body) with its reason.
async function pump(body, provider, push, stop, signal) {
  const chunks = chunksOf(body, provider);
  let onAbort;
  const aborted = signal
    ? new Promise((_, reject) => {
        onAbort = () => reject(signal.reason ?? new Error('aborted'));
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      })
    : null;
  aborted?.catch(() => {});
  try {
    for (;;) {
      const { value, done } = await (aborted ? Promise.race([chunks.next(), aborted]) : chunks.next());
      if (done) return false;
      push(bytesOf(value));
      if (stop()) {
        await chunks.cancel(new Error('output-contract: the answer broke the contract'));
        return true;
      }
    }
  } catch (e) {
    if (signal?.aborted) await chunks.cancel(signal.reason);
    throw e;
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
    try {
      chunks.release();
    } catch {
      // a read still pending after an abort keeps the lock: the stream is cancelled anyway
    }
  }
}

// `provider`, the one option these functions cannot do without.
function missingProvider(fn) {
  const [allowed] = OPTIONS[fn].provider;
  return new OptionError('provider', allowed, `${fn} needs options.provider: ${allowed}`);
}

/**
 * Validates a provider's streaming response (`body`: a Response, a ReadableStream of bytes, or
 * an async iterable of bytes or strings) through `contract` as it arrives.
 */
export async function validateProviderStream(contract, body, options) {
  checkOptions('validateProviderStream', options);
  const { provider, tool, maxRetries, abortOnEarlyViolation, nullAsAbsent, onStatus, signal } = options ?? {};
  if (provider === undefined) throw missingProvider('validateProviderStream');
  signal?.throwIfAborted();
  const stream = await bodyOf(body, provider);
  const handle = bridge.open(contract, provider, JSON.stringify({ tool, maxRetries, abortOnEarlyViolation, nullAsAbsent }));
  try {
    const last = { revision: 0, early: [] };
    await pump(
      stream,
      provider,
      (bytes) => {
        const packed = handle.pushBytes(bytes);
        if (onStatus) onStatus(bridge.status(packed, handle, last));
      },
      () => handle.aborted,
      signal,
    );
    const end = JSON.parse(handle.finish());
    if (end.error !== undefined) throw new ProviderError(end.error, provider);
    return { ...end.outcome, stopReason: end.stopReason ?? null, usage: end.usage ?? null };
  } finally {
    bridge.free(handle);
  }
}

/**
 * The normalised events of a provider's streaming response: `{ type: 'text', text }`,
 * `{ type: 'tool-call', index, id?, name }`, `{ type: 'tool-arguments', index, text }`,
 * `{ type: 'refusal', text }`, then `{ type: 'end', stopReason, usage }`. A provider error or a
 * cut connection throws a ProviderError. Stopping the iteration cancels the body.
 */
export async function* providerEvents(body, options) {
  checkOptions('providerEvents', options);
  const provider = options?.provider;
  if (provider === undefined) throw missingProvider('providerEvents');
  const chunks = chunksOf(await bodyOf(body, provider), provider);
  const decoder = bridge.events(provider);
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await chunks.next();
      const events = JSON.parse(done ? decoder.end() : decoder.pushBytes(bytesOf(value)));
      for (const event of events) {
        if (event.type === 'error') {
          const { type: _, ...error } = event;
          throw new ProviderError(error, provider);
        }
        yield event;
        if (event.type === 'end') finished = true;
      }
      if (done || finished) {
        finished = true;
        return;
      }
    }
  } finally {
    if (!finished) await chunks.cancel();
    try {
      chunks.release();
    } catch {
      // see pump
    }
    bridge.free(decoder);
  }
}

/**
 * A model reply `{ response, provider, tool? }` as enforce() reads replies: the output's deltas
 * (the text, or the arguments of the call to `tool`, text around it left out), how it ended,
 * and the cancel of its body.
 */
export function providerReply(reply) {
  const { response, provider, tool } = reply;
  const expected = tool ?? SUBMIT_TOOL;
  let end = {};
  let iterator = null;
  // The first other tool the answer called, while it has not called the submit tool.
  let other = null;
  let call = null;
  let said = '';
  async function* output() {
    let text = '';
    let wrote = false;
    iterator = providerEvents(response, { provider })[Symbol.asyncIterator]();
    for (;;) {
      const { value: event, done } = await iterator.next();
      if (done) break;
      if (event.type === 'text') {
        said += event.text;
        if (tool === undefined && call === null) {
          wrote = true;
          yield event.text;
        } else text += event.text;
        // Without `tool`, a call of the default submit tool is the output when no text came first.
      } else if (event.type === 'tool-call' && call === null && event.name === expected && !wrote) call = event.index;
      else if (event.type === 'tool-call' && call === null && other === null) other = event.name;
      else if (event.type === 'tool-arguments' && event.index === call) {
        wrote = true;
        yield event.text;
      } else if (event.type === 'refusal') end.refusal = (end.refusal ?? '') + event.text;
      else if (event.type === 'end') end = { ...end, stopReason: event.stopReason ?? undefined };
    }
    // The tool was not called: the answer's text is the output (unless another tool was called).
    if (!wrote && text !== '' && other === null) yield text;
  }
  return {
    stream: output(),
    // A provider's own reason (`completed`, `max_output_tokens`, …) as the machine reads it.
    // An answer that called another tool, and gave no output (no text with a bracket in it,
    // without `tool`), ends with the `tool` violation naming both.
    end: () => ({
      stopReason: bridge.stopReason(end.stopReason),
      refusal: end.refusal,
      wrongTool: call === null && other !== null && (tool !== undefined || !/[[{]/.test(said)) ? bridge.wrongTool(other, expected) : undefined,
    }),
    // Stopping the events cancels the body; the reply's own cancel (an AbortController's) runs too.
    cancel: async () => {
      await iterator?.return();
      await reply.cancel?.();
    },
  };
}
