// One fresh-process measurement for bench/loading.mjs (Node, Deno, Bun): import + instantiate,
// first compile, first validate. In browsers the same code runs from a bundle.
import blueprintText from '../examples/pr-reviewer/blueprint.json' with { type: 'json' };
import validOutput from '../examples/pr-reviewer/valid-output.json' with { type: 'json' };

const probeValid = JSON.stringify(validOutput, null, 2);

export async function probe(load) {
  const t0 = performance.now();
  const oc = await load();
  await oc.ready;
  const t1 = performance.now();
  const contract = oc.Contract.compile(blueprintText.output_schema);
  const t2 = performance.now();
  const r = contract.validateText(probeValid);
  const t3 = performance.now();
  if (!r.valid) throw new Error('probe output should be valid');
  return { load: t1 - t0, compile: t2 - t1, validate: t3 - t2 };
}

if (!globalThis.document) console.log(JSON.stringify(await probe(() => import('output-contract'))));
