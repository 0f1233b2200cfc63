// An edge agent (Cloudflare Workers / workerd): POST { blueprint, task, provider? } → the run's
// result. The model provider is called directly, as its API is: OpenAI Chat Completions,
// OpenAI Responses or Anthropic Messages, streamed, with the blueprint's system prompt enriched
// with the output schema and a submit_result tool the model must call. The provider's
// server-sent events go straight into the contract's provider stream: the tool call's arguments
// are validated as they arrive, and the upstream request is cancelled at the first violation no
// continuation could repair (the rest of a doomed answer is never paid for); one retry with the
// retry prompt; then `result_data`, the failure envelope, or the refusal. A provider error or a
// cut connection is answered 502 with what happened, never as a schema failure.
//
// Configuration (text bindings): MODEL_URL, the provider's base URL (`https://api.openai.com`,
// `https://api.anthropic.com`); PROVIDER, the default wire format (`openai-chat`,
// `openai-responses` or `anthropic`); API_KEY.
import { Contract, ProviderError, enforce, submitResultTool } from 'output-contract';

const TOOL = 'submit_result';

/** The provider's streaming request for `messages` (the system prompt first), forcing the submit tool. */
function request(provider, schema, messages, env) {
  const [system, ...conversation] = messages;
  if (provider === 'anthropic') {
    const { tool } = submitResultTool(schema, { provider: 'anthropic', name: TOOL });
    return {
      path: '/v1/messages',
      headers: { 'x-api-key': env.API_KEY ?? '', 'anthropic-version': '2023-06-01' },
      body: { model: 'claude-sonnet-4-5', max_tokens: 4096, system: system.content, messages: conversation, tools: [tool], tool_choice: { type: 'tool', name: TOOL }, stream: true },
    };
  }
  const { tool } = submitResultTool(schema, { provider: 'openai', name: TOOL });
  const headers = { authorization: `Bearer ${env.API_KEY ?? ''}` };
  if (provider === 'openai-responses') {
    return {
      path: '/v1/responses',
      headers,
      body: { model: 'gpt-4.1', instructions: system.content, input: conversation, tools: [{ type: 'function', ...tool.function }], tool_choice: { type: 'function', name: TOOL }, stream: true },
    };
  }
  return {
    path: '/v1/chat/completions',
    headers,
    body: { model: 'gpt-4.1', messages, tools: [tool], tool_choice: { type: 'function', function: { name: TOOL } }, stream: true, stream_options: { include_usage: true } },
  };
}

export default {
  async fetch(incoming, env) {
    if (incoming.method !== 'POST') return new Response('POST { blueprint, task, provider? }', { status: 405 });
    const { blueprint, task, provider = env.PROVIDER ?? 'openai-chat' } = await incoming.json();
    const contract = Contract.compile(blueprint.output_schema, { agentId: blueprint.name });
    const attempts = [];
    try {
      const result = await enforce(
        contract,
        async (messages) => {
          const { path, headers, body } = request(provider, blueprint.output_schema, messages, env);
          const abort = new AbortController();
          const response = await fetch(new URL(path, env.MODEL_URL), {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify(body),
            signal: abort.signal,
          });
          // An error status is a ProviderError (`http_error`) when the body is read.
          return { response, provider, tool: TOOL, cancel: () => abort.abort() };
        },
        {
          systemPrompt: blueprint.system_prompt ?? '',
          task,
          // At the edge every token is paid for: cut a bad answer at its first early violation
          // (the retry then names that one).
          abortOnEarlyViolation: true,
          onAttempt: (event) => attempts.push(event),
        },
      );
      return Response.json({ ...result, attempt_log: attempts });
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      return Response.json({ status: 'provider_error', kind: e.kind, code: e.code ?? null, message: e.message, attempt_log: attempts }, { status: 502 });
    }
  },
};
