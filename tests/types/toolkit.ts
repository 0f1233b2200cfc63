// A consumer of the executor toolkit's types, compiled with tsc --strict.
import {
  Contract,
  extractJson,
  enrichSystemPrompt,
  retryPrompt,
  toolFeedback,
  submitResultTool,
  checkOutputSchemaConfig,
  enforce,
  McpJsonSchemaValidator,
  type Extraction,
  type EnforceResult,
  type ModelFunction,
  type StopReason,
  type ToolChange,
} from 'output-contract';

interface Review {
  summary: string;
}

export async function toolkit(contract: Contract): Promise<string> {
  const found: Extraction = extractJson('```json\n{}\n```', { repair: true });
  const start: number | null = found.start;
  const checked = contract.validateText<Review>('text', { extract: true });
  const fence: string | null = checked.extraction.fence;
  const system: string = enrichSystemPrompt('You review.', contract.schema, { templates: { outputFormat: '\n{schema}' } });
  const result = contract.validate(1);
  const retry: string = retryPrompt(result, contract.schema);
  const feedback: string = toolFeedback(result, { tool: 'submit_result' });
  const openai = submitResultTool(contract.schema, { provider: 'openai' });
  const strict: true = openai.tool.function.strict;
  const changes: ToolChange[] = openai.changes;
  const anthropic = submitResultTool(contract.schema, { provider: 'anthropic' });
  const inputSchema: object = anthropic.tool.input_schema;
  const call = contract.validateToolCall<Review>('{}', openai.validateOptions);
  const codes: string[] = checkOutputSchemaConfig(contract.schema).map((d) => d.code);
  const model: ModelFunction = async (messages, { attempt }) => (attempt > 1 ? `${messages.length}` : { text: '{}', stopReason: 'stop' });
  // Every stop reason the providers send is typed; a misspelt one is not.
  const anthropicCut: StopReason = 'max_tokens';
  contract.stream().finish({ stopReason: anthropicCut });
  contract.stream().finish({ stopReason: 'content_filter' });
  // @ts-expect-error not a stop reason
  contract.stream().finish({ stopReason: 'max-tokens' });
  const done: EnforceResult<Review> = await enforce<Review>(contract, model, { task: 'x', onAttempt: (e) => console.log(e.keywords) });
  const summary = done.status === 'completed' ? done.result_data.summary : done.status === 'refused' ? done.refusal : done.error.message;
  // Post-merge: a JSON Patch or a merge patch, and retries by patch.
  const merged = contract.validateMerged<Review>({ summary: 'x' }, [{ op: 'replace', path: '/summary', value: 'y' }], { format: 'json-patch' });
  const applied: boolean = merged.applied;
  const mergedSummary = merged.valid ? merged.data.summary : merged.error.violations[0].keyword;
  contract.validateMerged('{}', '{"a": 1}', { format: 'merge-patch', extract: true });
  // @ts-expect-error not a patch format
  contract.validateMerged({}, [], { format: 'diff' });
  const patchPrompt: string = retryPrompt(result, contract.schema, { mode: 'patch', templates: { retryPatch: '{errors}', retryPatchLine: '{pointer}' } });
  await enforce<Review>(contract, model, { retry: 'patch', onAttempt: (e) => console.log(e.mode === 'patch' ? e.promptBytes : e.fallback) });
  const std = contract['~standard'].validate({});
  const issues = 'issues' in std ? std.issues.length : 0;
  const mcp = new McpJsonSchemaValidator({ strict: true }).getValidator<Review>({ type: 'object' })({});
  return [start, fence, system, retry, feedback, strict, changes.length, inputSchema, call.valid, codes, summary, issues, mcp.valid, applied, mergedSummary, patchPrompt].join();
}
