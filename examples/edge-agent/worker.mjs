// An edge agent (Cloudflare Workers / workerd): POST { blueprint, task } → the run's result.
// The model is called with the blueprint's system prompt enriched with the output
// schema; its streamed answer (server-sent events of text deltas) goes through the contract's
// stream validator; the upstream request is cancelled at the first violation no continuation
// could repair; one retry with the retry prompt; then `result_data`, the failure envelope, or
// the refusal. Validation is local: no eval, no server round-trip.
//
// Configuration: MODEL_URL (a text binding) — an endpoint taking { messages, stream: true } and
// answering `data: {"delta": "..."}` events, then `data: {"stop": "stop" | "length" | "refusal",
// "refusal"?: "..."}`.
import { Contract, enforce } from 'output-contract';

/** The model's SSE stream as text deltas; `end()` is its stop event, `cancel()` aborts the request. */
async function callModel(url, messages) {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages, stream: true }),
    signal: abort.signal,
  });
  if (!response.ok || !response.body) throw new Error(`model endpoint answered ${response.status}`);
  let stop = { stopReason: 'stop' };
  async function* deltas() {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
          if (!data || data === '[DONE]') continue;
          const message = JSON.parse(data);
          if (typeof message.delta === 'string') yield message.delta;
          if (message.stop) stop = { stopReason: message.stop, refusal: message.refusal };
        }
      }
    } finally {
      reader.releaseLock();
    }
  }
  return { stream: deltas(), end: () => stop, cancel: () => abort.abort() };
}

export default {
  async fetch(request, env) {
    if (request.method !== 'POST') return new Response('POST { blueprint, task }', { status: 405 });
    const { blueprint, task } = await request.json();
    const contract = Contract.compile(blueprint.output_schema, { agentId: blueprint.name });
    const attempts = [];
    const result = await enforce(contract, (messages) => callModel(env.MODEL_URL, messages), {
      systemPrompt: blueprint.system_prompt ?? '',
      task,
      // At the edge every token is paid for: cut a bad answer at its first early violation
      // (the retry then names that one).
      abortOnEarlyViolation: true,
      onAttempt: (event) => attempts.push(event),
    });
    return Response.json({ ...result, attempt_log: attempts });
  },
};
