// The official JSON-Schema-Test-Suite's files as the JS tests read them: the suite at
// ../shared (outside the repository), its .json files in order, and its remotes as the
// resources a contract is given (never fetched). Shared by spec-suite and tier-differential.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../../', import.meta.url));
export const suite = join(repo, '../shared/json-schema-test-suite');

/** Every .json file under `dir`, sorted, depth first. */
export function jsonFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...jsonFiles(path));
    else if (name.endsWith('.json')) out.push(path);
  }
  return out;
}

/** The suite's remotes by their http://localhost:1234/ URI. */
export function remoteResources() {
  const resources = {};
  for (const file of jsonFiles(join(suite, 'remotes'))) {
    resources[`http://localhost:1234/${relative(join(suite, 'remotes'), file).split('\\').join('/')}`] = JSON.parse(readFileSync(file, 'utf8'));
  }
  return resources;
}
