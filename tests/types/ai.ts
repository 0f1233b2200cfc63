// output-contract/ai under tsc --strict: the schema it makes is what the AI SDK's Output.object takes.
import { Output, type TextStreamPart, type ToolSet } from 'ai';
import { Contract } from 'output-contract';
import { toAiSdkSchema, validateAiSdkStream } from 'output-contract/ai';

interface Review {
  summary: string;
}

export function aiOutput(contract: Contract) {
  return Output.object({ schema: toAiSdkSchema<Review>(contract) });
}

export async function aiStream(contract: Contract, fullStream: AsyncIterable<TextStreamPart<ToolSet>>) {
  const abortController = new AbortController();
  const outcome = await validateAiSdkStream<Review>(contract, fullStream, { tool: 'submit_result', abortController, abortOnEarlyViolation: true });
  if (outcome.state === 'soft-complete' && outcome.valid) return outcome.data.summary;
  return outcome.finishReason;
}

// A contract compiled with a type is a Standard Schema of that type: `~standard.types` carries it,
// and the AI SDK takes the contract itself.
export function standardOutput() {
  const contract = Contract.compile<Review>({ type: 'object', required: ['summary'], properties: { summary: { type: 'string' } } });
  const typed: NonNullable<(typeof contract)['~standard']['types']>['output'] = { summary: 'ok' };
  const result = contract.validate({ summary: 'ok' });
  const summary: string | undefined = result.valid ? result.data.summary : undefined;
  const draft07 = contract['~standard'].jsonSchema.input({ target: 'draft-07' });
  return [Output.object({ schema: contract }), Output.object({ schema: toAiSdkSchema(contract) }), typed, summary, draft07];
}
