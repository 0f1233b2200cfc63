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
