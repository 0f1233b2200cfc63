// `output-contract/ai`: a Contract as a Vercel AI SDK schema. The SDK does not check JSON Schema
// outputs at runtime by itself; this schema carries the contract's validation, so
// generateText/streamText with `Output.object({ schema })` reject what the contract rejects.
import { jsonSchema } from 'ai';

/** `jsonSchema(contract.jsonSchema, { validate })` from the `ai` package, validating with `contract`. */
export function toAiSdkSchema(contract) {
  return jsonSchema(() => contract.jsonSchema, {
    validate(value) {
      const result = contract.validate(value);
      if (result.valid) return { success: true, value: result.data };
      const lines = result.error.violations.map((v) => `${v.path}: ${v.message}`);
      const error = new Error(`output does not match the contract:\n${lines.join('\n')}`);
      error.name = 'OutputValidationError';
      error.outputValidationError = result.error;
      return { success: false, error };
    },
  });
}
