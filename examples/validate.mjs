// The main job's example: compile the pr-reviewer blueprint's output contract, validate a valid
// and an invalid model output, print the canonical error and the run failure envelope.
import { readFileSync } from 'node:fs';
import { Contract, failureEnvelope, formatViolation } from 'output-contract';

const here = new URL('./pr-reviewer/', import.meta.url);
const blueprint = JSON.parse(readFileSync(new URL('blueprint.json', here), 'utf8'));
const contract = Contract.compile(blueprint.output_schema, { agentId: blueprint.name, schemaId: 'pr-reviewer/output.v1' });
console.log(`contract ${contract.schemaId} (${contract.draft}) for agent ${contract.agentId}`);

const valid = contract.validateText(readFileSync(new URL('valid-output.json', here), 'utf8'));
console.log(`\nvalid-output.json: ${valid.valid ? 'valid' : 'INVALID'}`);

const invalid = contract.validateText(readFileSync(new URL('invalid-output.txt', here), 'utf8'));
console.log(`\ninvalid-output.txt: ${invalid.valid ? 'valid' : 'invalid'}`);
if (!invalid.valid) {
  for (const v of invalid.error.violations) console.log(`  - ${formatViolation(v)}`);
  console.log('\ncanonical error:');
  console.log(JSON.stringify({ ...invalid.error, raw_output: invalid.error.raw_output.slice(0, 60) + '…' }, null, 2));
  console.log('\nrun failure envelope:');
  console.log(JSON.stringify(failureEnvelope(invalid.error, 'run_abc123'), null, 2));
}
process.exitCode = valid.valid && !invalid.valid ? 0 : 1;
