// The Test output panel: a model answer goes through `validateText(answer, { extract: true })`
// against the Output Schema being edited. Violations are listed as `$.path: message` and their
// spots highlighted in the answer (`locateJson` on the extracted JSON, shifted by where the JSON
// starts in the answer).
import { basicSetup } from 'codemirror';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';
import { StateEffect, StateField, type Range } from '@codemirror/state';
import {
  Contract,
  SchemaError,
  formatViolation,
  locateJson,
  type Draft,
  type Extraction,
  type JsonSchema,
  type OutputValidationError,
  type TextRange,
} from 'output-contract';
import { byId, el } from './dom';

interface Spot {
  from: number;
  to: number;
  kind: 'extracted' | 'violation';
  title: string;
}

const setSpots = StateEffect.define<Spot[]>();

// Marks are mapped through edits, and cleared by the next validation.
const spots = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(set, tr) {
    let next = set.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setSpots)) {
        const marks: Array<Range<Decoration>> = e.value
          .filter((s) => s.to > s.from)
          .map((s) => Decoration.mark({ class: s.kind === 'violation' ? 'cm-violation' : 'cm-extracted', attributes: { title: s.title } }).range(s.from, s.to));
        next = Decoration.set(marks, true);
      }
    }
    return next;
  },
  provide: (f) => EditorView.decorations.from(f),
});

export interface TestOutputPanel {
  validate(): void;
  setAnswer(text: string): void;
}

export function testOutputPanel(options: {
  schemaText: () => string;
  draft: () => Draft | undefined;
  agentId: () => string;
  /** Schema documents by URI that the Output Schema's `$ref`s may name. */
  resources: () => Record<string, JsonSchema>;
}): TestOutputPanel {
  const result = byId('output-result');
  const extracted = byId('extracted-json');
  const info = byId('extraction-info');
  const repair = byId<HTMLInputElement>('answer-repair');

  const view = new EditorView({
    parent: byId('answer-editor'),
    extensions: [basicSetup, EditorView.lineWrapping, spots, EditorView.contentAttributes.of({ 'aria-labelledby': 'answer-label' })],
  });

  function select(from: number, to: number): void {
    const length = view.state.doc.length;
    view.dispatch({ selection: { anchor: Math.min(from, length), head: Math.min(to, length) }, scrollIntoView: true });
    view.focus();
  }

  function validate(): void {
    const answer = view.state.doc.toString();
    let contract: Contract;
    try {
      contract = Contract.compile(options.schemaText(), { draft: options.draft(), agentId: options.agentId(), resources: options.resources() });
    } catch (e) {
      const message = e instanceof SchemaError ? `${e.kind}: ${e.message}` : String(e);
      result.className = 'result failed';
      result.replaceChildren(el('strong', {}, 'The Output Schema does not compile'), el('p', {}, message), el('p', { class: 'muted' }, 'Fix it in the Agent editor first.'));
      return;
    }
    const r = contract.validateText(answer, { extract: true, repair: repair.checked });
    const x = r.extraction;
    showExtraction(x);

    const marks: Spot[] = [];
    if (x.found && x.start !== null && x.end !== null) marks.push({ from: x.start, to: x.end, kind: 'extracted', title: 'extracted JSON' });

    if (r.valid) {
      result.className = 'result valid';
      result.replaceChildren(el('strong', {}, 'Output valid'), el('pre', { class: 'code', 'aria-label': 'Validated data' }, JSON.stringify(r.data, null, 2)));
      extracted.replaceChildren(x.json ?? '');
    } else {
      const located = x.json !== null ? locateJson(x.json, r.error.violations.map((v) => v.pointer)) : null;
      // The answer holds the JSON as written unless repairs changed it; then the spots are shown
      // in the extracted JSON only.
      const inAnswer = x.start !== null && x.repairs.length === 0;
      const ranges = r.error.violations.map((v, i) => {
        const at = located?.[i];
        return at ? (v.keyword === 'additionalProperties' || v.keyword === 'required' ? at.key ?? at.value : at.value) : null;
      });
      ranges.forEach((range, i) => {
        const v = r.error.violations[i];
        if (range && v && inAnswer && x.start !== null) marks.push({ from: x.start + range.start.offset, to: x.start + range.end.offset, kind: 'violation', title: formatViolation(v) });
      });
      showFailure(r.error, ranges, inAnswer ? (x.start ?? 0) : null);
      extracted.replaceChildren(...highlight(x.json ?? '', ranges));
    }
    view.dispatch({ effects: setSpots.of(marks) });
  }

  function showExtraction(x: Extraction): void {
    if (!x.found) {
      info.textContent = x.error ? `No JSON found: ${x.error.kind} — ${x.error.message}` : 'No JSON found.';
      return;
    }
    const parts = [`Characters ${x.start}–${x.end} of the answer`];
    if (x.fence !== null) parts.push(x.fence ? `from a \`\`\`${x.fence} fence` : 'from an untagged fence');
    if (x.candidates > 1) parts.push(`${x.candidates} JSON values found, the last one wins`);
    if (x.repairs.length) parts.push(`repaired: ${x.repairs.map((rp) => rp.message).join('; ')}`);
    info.textContent = parts.join(' · ');
  }

  function showFailure(error: OutputValidationError, ranges: Array<TextRange | null>, base: number | null): void {
    result.className = 'result failed';
    const list = el('ul', { class: 'violations', 'aria-label': 'Violations' });
    error.violations.forEach((v, i) => {
      const range = ranges[i];
      const text = formatViolation(v);
      const item = el('li', { 'data-keyword': v.keyword });
      if (range && base !== null) {
        const go = el('button', { type: 'button', class: 'link' }, text);
        go.addEventListener('click', () => select(base + range.start.offset, base + range.end.offset));
        item.append(go);
      } else {
        item.append(text);
      }
      list.append(item);
    });
    const canonical = el('details', {}, el('summary', {}, 'Canonical error (output_validation_failed)'), el('pre', { class: 'code' }, JSON.stringify(error, null, 2)));
    result.replaceChildren(el('strong', {}, 'Validation failed'), list, canonical);
  }

  return {
    validate,
    setAnswer(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, effects: setSpots.of([]) });
    },
  };
}

/** The JSON text with the violation ranges wrapped in `<mark>` (nested or overlapping ranges merged). */
function highlight(text: string, ranges: Array<TextRange | null>): Array<Node | string> {
  const spans = ranges
    .filter((r): r is TextRange => r !== null)
    .map((r) => [r.start.offset, r.end.offset] as const)
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [s, e] of spans) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  const out: Array<Node | string> = [];
  let at = 0;
  for (const [s, e] of merged) {
    out.push(text.slice(at, s), el('mark', {}, text.slice(s, e)));
    at = e;
  }
  out.push(text.slice(at));
  return out;
}
