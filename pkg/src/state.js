// Whether this instance's WebAssembly module is loaded. Each entry (node, browser, deno,
// workerd) loads it its own way and then calls setReady(); the API refuses calls before that
// with a clear message instead of failing inside the glue code.
let ready = false;

export function setReady() {
  ready = true;
}

export function assertReady() {
  if (!ready) {
    throw new Error('output-contract: the WebAssembly module is not loaded yet; `await ready` before the first call');
  }
}
