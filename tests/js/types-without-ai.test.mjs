// `output-contract/ai`'s types where the optional peer dependency `ai` is not installed: a
// project that imports them compiles under tsc --strict with skipLibCheck false (the package's
// own .d.ts files are checked too), in a temporary project that holds the package's types alone.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'output-contract-types-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test("output-contract/ai's types compile without `ai` installed (skipLibCheck: false)", () => {
  const pkg = join(dir, 'node_modules', 'output-contract');
  mkdirSync(pkg, { recursive: true });
  // Copies, not a link: tsc would resolve `ai` from where a link points, beside the repository's own.
  for (const file of ['package.json', 'index.d.ts', 'ai.d.ts']) copyFileSync(join(root, 'pkg', file), join(pkg, file));
  copyFileSync(join(root, 'pkg', 'index.d.ts'), join(pkg, 'index.d.cts'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'consumer.ts'),
    `import { Contract } from 'output-contract';
import { toAiSdkSchema, validateAiSdkStream } from 'output-contract/ai';

export function schemaOf(contract: Contract) {
  return toAiSdkSchema<{ summary: string }>(contract);
}

export async function outcomeOf(contract: Contract, parts: AsyncIterable<never>) {
  const outcome = await validateAiSdkStream<{ summary: string }>(contract, parts, { tool: 'submit_result' });
  return outcome.state === 'soft-complete' && outcome.valid ? outcome.data.summary : outcome.finishReason;
}
`,
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'ESNext.Disposable', 'DOM'],
        types: [],
        skipLibCheck: false,
      },
      files: ['consumer.ts'],
    }),
  );
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', cwd: dir });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});
