#!/usr/bin/env node
// `output-contract` from the npm package: the Rust CLI's commands (src/cli, run here by the schema
// tools' WebAssembly module's runCli), with the reading done here: the command answers with the
// files, folders or standard input it needs until it has them all, then with its output and exit
// code.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { initSync, runCli } from '../wasm/output_contract_tools.js';

initSync({ module: readFileSync(new URL('../wasm/output_contract_tools_bg.wasm', import.meta.url)) });

// Text as the Rust CLI reads it: UTF-8, refused when invalid, a byte order mark kept.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function readFile(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    return { error: e.message };
  }
  try {
    return { text: decoder.decode(bytes) };
  } catch {
    return { error: 'stream did not contain valid UTF-8' };
  }
}

function listDir(dir) {
  try {
    return { entries: readdirSync(dir).map((name) => [join(dir, name), statSync(join(dir, name)).isDirectory()]) };
  } catch (e) {
    return { error: e.message };
  }
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks);
}

// A closed pipe (`| head`) is not an error worth a stack trace.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
});

const args = JSON.stringify(process.argv.slice(2));
const inputs = { files: {}, dirs: {} };
let stdin;
for (;;) {
  const answer = JSON.parse(runCli(args, JSON.stringify(inputs), stdin));
  if (answer.need === undefined) {
    process.stdout.write(answer.stdout);
    process.stderr.write(answer.stderr);
    process.exitCode = answer.code;
    break;
  }
  for (const path of answer.need.files) inputs.files[path] = readFile(path);
  for (const dir of answer.need.dirs) inputs.dirs[dir] = listDir(dir);
  if (answer.need.stdin) stdin = await readStdin();
}
