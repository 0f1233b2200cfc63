// The browser side of the conformance checks: the package as a bundler resolves it (the
// `browser` export: the .wasm shipped as an asset and compiled asynchronously by `ready`), the
// example texts imported with Vite's `?raw`. The schema tools' module is fetched only when asked
// for: before `loadSchemaTools()` a tool's call says so. The result lands in the page for the test to read.
import * as oc from 'output-contract';
import { runChecks } from '../checks.mjs';
import blueprint from '../examples/pr-reviewer/blueprint.json?raw';
import valid from '../examples/pr-reviewer/valid-output.json?raw';
import invalid from '../examples/pr-reviewer/invalid-output.txt?raw';
import violations from '../examples/pr-reviewer/invalid-output.violations.txt?raw';
import suite from '../examples/pr-reviewer/suite-sample.json?raw';

const out = document.getElementById('result');
try {
  await oc.ready;
  let before = 'no error';
  try {
    oc.checkSchema('{}');
  } catch (e) {
    before = /await loadSchemaTools\(\)/.test(e.message) ? 'asks for loadSchemaTools' : String(e);
  }
  await oc.loadSchemaTools();
  const result = runChecks(oc, { blueprint, valid, invalid, violations, suite });
  out.textContent = JSON.stringify({ ...result, ok: result.ok && before === 'asks for loadSchemaTools', toolsBeforeLoading: before });
} catch (e) {
  out.textContent = JSON.stringify({ ok: false, error: String(e?.stack ?? e) });
}
document.body.dataset.done = 'true';
