// Types of `output-contract/ai` (needs the `ai` package, an optional peer dependency).
import type { Schema } from 'ai';
import type { Contract, OutputValidationError } from './index.js';

/**
 * The contract as an AI SDK schema: `jsonSchema(contract.schema, { validate })`. A failed
 * validation's error carries the canonical error as `outputValidationError`.
 */
export declare function toAiSdkSchema<T = unknown>(contract: Contract): Schema<T>;

export interface ContractValidationError extends Error {
  name: 'OutputValidationError';
  outputValidationError: OutputValidationError;
}
