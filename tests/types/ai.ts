// output-contract/ai under tsc --strict: the schema it makes is what the AI SDK's Output.object takes.
import { Output } from 'ai';
import { Contract } from 'output-contract';
import { toAiSdkSchema } from 'output-contract/ai';

interface Review {
  summary: string;
}

export function aiOutput(contract: Contract) {
  return Output.object({ schema: toAiSdkSchema<Review>(contract) });
}
