// A consumer of the package's public types, compiled with tsc --strict: every export is typed
// (no `any` leaks into user code) and the result union narrows on `valid`.
import {
  Contract,
  SchemaError,
  ready,
  formatViolation,
  failureEnvelope,
  formatChildResult,
  cacheStats,
  setCacheCapacity,
  type OutputValidationError,
  type ValidationResult,
  type Violation,
  type CompileOptions,
  type CustomFormat,
  type FormatFunctionError,
  checkSchema,
  type SchemaIssue,
  type JsonSchema,
  compareSchemas,
  SchemaRegistry,
  parseSchemaId,
  type SchemaChange,
  type RegistryDiagnostic,
} from 'output-contract';

interface Review {
  summary: string;
  approval: 'approve' | 'request_changes' | 'comment';
}

async function main(): Promise<void> {
  await ready;
  const options: CompileOptions = { draft: 'draft2020-12', agentId: 'pr-reviewer', resources: { 'https://x/y.json': { type: 'string' } } };
  const formats: Record<string, CustomFormat> = { phone: /^\+[0-9]+$/, code: '^[A-Z]{3}$', sku: (s: string) => s.startsWith('SKU-') };
  const custom: CompileOptions = { formats };
  const builtIn: CompileOptions = { formats: false };
  console.log(custom, builtIn, checkSchema('{}', { formats }).valid);
  try {
    Contract.compile({ format: 'sku' }, custom).validate('SKU-1');
  } catch (e) {
    const failure = e as FormatFunctionError;
    console.log(failure.format, failure.cause);
  }
  let contract: Contract;
  try {
    contract = Contract.compile({ type: 'object' }, options);
  } catch (e) {
    if (e instanceof SchemaError) {
      const issues: SchemaIssue[] = e.issues;
      console.log(e.kind, issues.map((i) => i.pointer));
    }
    throw e;
  }
  const id: string = contract.schemaId;
  // A JSON Type Definition contract, and the JSON Schema form of any contract.
  const typed: Contract = Contract.compile({ properties: { n: { type: 'uint8' } } }, { draft: 'jtd' });
  const asJsonSchema: JsonSchema = typed.jsonSchema;
  console.log(asJsonSchema);
  const agent: string | null = contract.agentId;
  const result: ValidationResult<Review> = contract.validateText<Review>('{}');
  if (result.valid) {
    const summary: string = result.data.summary;
    console.log(id, agent, summary);
  } else {
    const error: OutputValidationError = result.error;
    const first: Violation | undefined = error.violations[0];
    const retry: boolean = error.retryable;
    if (first) console.log(formatViolation(first), retry);
    const envelope = failureEnvelope(error, 'run_1');
    const lines: string[] = envelope.error.validation_errors;
    console.log(lines.length, envelope.status);
  }
  const text: string = formatChildResult({ result_data: { a: 1 } });
  setCacheCapacity(8);
  const hits: number = cacheStats().hits;
  console.log(text, hits, contract.validate(1).valid);
  contract.free();
}

/** Versions of a schema: the comparison's lists and step, the registry's diagnostics. */
function versions(oldText: string, newText: string): boolean {
  const result = compareSchemas(oldText, newText, { draft: 'draft7' });
  const changes: SchemaChange[] = [...result.narrowed, ...result.widened, ...result.unknown];
  const line: number | undefined = changes[0]?.range?.start.line;
  const registry = new SchemaRegistry({ strict: true });
  const id: string | null = registry.add(newText, { path: 'ticket.v1.0.0.schema.json' });
  const diagnostics: RegistryDiagnostic[] = registry.check();
  const versionList: string[] = registry.versions('ticket').map((v) => v.version);
  const parsed = id === null ? null : parseSchemaId(id);
  console.log(line, diagnostics.map((d) => `${d.path ?? ''}:${d.code}`), versionList, parsed?.version, result.needed);
  return result.step?.allowed ?? changes.length === 0;
}

void main();
void versions;
