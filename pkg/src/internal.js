// Names of the methods through which enforce() drives a stream state machine. Symbols, and this
// module is not re-exported by the package's entries, so they stay out of the public API.

/** `contract[executorStream](options, templates)`: an OutputStream whose retry prompt uses `templates`. */
export const executorStream = Symbol('output-contract executorStream');

/** `stream[finishText](end, text, streamed, repair)`: ends an attempt whose whole text is `text`. */
export const finishText = Symbol('output-contract finishText');

/** `stream[finishFailed](violations, raw)`: ends an attempt with violations found in `raw` by the caller. */
export const finishFailed = Symbol('output-contract finishFailed');

/** `contract[mergePatch](base, patch, format, extract)`: the schema tools' `applyPatch` for this contract's limits. */
export const mergePatch = Symbol('output-contract mergePatch');

/** `stream[currentAttempt]()`: the attempt the stream is in (from 1). */
export const currentAttempt = Symbol('output-contract currentAttempt');

// The `submit_patch` tool's input (submitResultTool): `{ patch }`, an RFC 6902 JSON Patch (a
// tool's input is an object). A null `from` or `value` (OpenAI's strict mode makes them required
// and nullable) is ignored by the operations that do not take it, so the patch applies as it
// comes. Its `patch` is also the shape a streamed patch reply is validated against as it arrives
// (enforce).
export const PATCH_TOOL = {
  type: 'object',
  properties: {
    patch: {
      type: 'array',
      description: 'JSON Patch (RFC 6902) operations, applied in order to your previous output',
      items: {
        type: 'object',
        properties: {
          op: { type: 'string', enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
          path: { type: 'string', description: 'JSON Pointer (RFC 6901) into your previous output' },
          from: { type: 'string', description: 'move and copy: the JSON Pointer of the value taken' },
          value: { description: 'add, replace and test: the value' },
        },
        required: ['op', 'path'],
        additionalProperties: false,
      },
    },
  },
  required: ['patch'],
  additionalProperties: false,
};

/**
 * What pkg/src/provider.js needs of the module, filled in by api.js (which holds the guarded
 * calls and each Contract's handle): `open(contract, provider, optionsJson)`, `events(provider)`,
 * `free(handle)`, `stopReason(raw)`, `wrongTool(called, expected)` (the `tool` violation),
 * `status(packed, handle, last)`.
 */
export const providerBridge = {};
