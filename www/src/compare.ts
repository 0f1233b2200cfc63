// The Output Schema's version: the contract's $id and the version it carries, and "Compare
// with…": compareSchemas against another version of the same schema among the examples
// (examples/schemas), the previous one by default. Narrowed, widened and unknown changes are
// listed under the editor and marked at their ranges in it.
import { StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';
import { SchemaRegistry, compareSchemas, parseSchemaId, type Draft, type JsonSchema, type SchemaChange } from 'output-contract';
import { el } from './dom';

/** The versioned example schemas, by file name. */
const files = import.meta.glob('../../examples/schemas/*.schema.json', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
export const examples: Array<{ file: string; text: string; id: string }> = Object.entries(files)
  .map(([path, text]) => ({ file: path.slice(path.lastIndexOf('/') + 1), text, id: String((JSON.parse(text) as { $id?: string }).$id ?? '') }))
  .sort((a, b) => a.file.localeCompare(b.file));

type Direction = 'narrowed' | 'widened' | 'unknown';

const setMarks = StateEffect.define<DecorationSet>();
/** The editor's compare marks, kept in place while the text changes around them. */
export const compareMarks: Extension = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects) if (e.is(setMarks)) return e.value;
    return marks.map(tr.changes);
  },
  provide: (field) => EditorView.decorations.from(field),
});

/** The `$id` of schema text and the name and version it carries (null when not JSON or no $id). */
export function versionOf(text: string): { id: string; name: string; version: string } | null {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    return null;
  }
  const id = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>).$id : undefined;
  if (typeof id !== 'string') return null;
  const parsed = parseSchemaId(id);
  return { id, name: parsed?.name ?? '', version: parsed?.version ?? '' };
}

/** The other versions of `name` among the examples, oldest first, and the one just before `id`'s. */
export function otherVersions(text: string, current: { id: string; name: string }, draft?: Draft): { others: Array<{ id: string; version: string }>; previous?: string } {
  const registry = new SchemaRegistry(draft ? { draft } : undefined);
  for (const e of examples) if (e.id !== current.id) registry.add(e.text, { path: e.file });
  registry.add(text);
  const all = registry.versions(current.name);
  const at = all.findIndex((v) => v.id === current.id);
  const others = all.filter((v) => v.id !== current.id);
  return { others, previous: at > 0 ? all[at - 1]?.id : undefined };
}

/** The example schemas as `$ref` targets, by `$id`: what the editor's checks and the comparison resolve references against. */
export function resources(): Record<string, JsonSchema> {
  return Object.fromEntries(examples.map((e) => [e.id, JSON.parse(e.text) as JsonSchema]));
}

/** Compares `text` with the example whose `$id` is `againstId`; lists and marks the changes. */
export function showComparison(view: EditorView, list: HTMLElement, summary: HTMLElement, againstId: string, draft?: Draft): void {
  const against = examples.find((e) => e.id === againstId);
  if (!against) return;
  const text = view.state.doc.toString();
  let result;
  try {
    result = compareSchemas(against.text, text, { ...(draft ? { draft } : {}), resources: resources() });
  } catch (e) {
    summary.className = 'result failed';
    summary.replaceChildren(el('strong', {}, 'Cannot compare'), ` — ${e instanceof Error ? e.message : String(e)}`);
    list.replaceChildren();
    view.dispatch({ effects: setMarks.of(Decoration.none) });
    return;
  }
  const entries: Array<[Direction, SchemaChange]> = [
    ...result.narrowed.map((c): [Direction, SchemaChange] => ['narrowed', c]),
    ...result.widened.map((c): [Direction, SchemaChange] => ['widened', c]),
    ...result.unknown.map((c): [Direction, SchemaChange] => ['unknown', c]),
  ];
  const length = view.state.doc.length;
  const marks = entries
    .filter(([, c]) => c.range)
    .map(([dir, c]) => {
      const from = Math.min(c.range!.start.offset, length);
      const to = Math.min(Math.max(c.range!.end.offset, from + 1), length);
      return Decoration.mark({ class: `cm-compare-${dir}`, attributes: { title: `${dir}: ${c.message}` } }).range(from, to);
    })
    .sort((a, b) => a.from - b.from);
  view.dispatch({ effects: setMarks.of(Decoration.set(marks, true)) });

  const step = result.step;
  const verdict = step
    ? `${step.from} → ${step.to} is a ${step.bump} step; these changes need a ${result.needed} step${step.allowed ? '' : ' — the version does not match the change'}.`
    : `These changes need a ${result.needed} step.`;
  summary.className = `result ${step && !step.allowed ? 'failed' : 'valid'}`;
  summary.replaceChildren(
    el('strong', {}, `Compared with ${againstId}`),
    ` — ${result.narrowed.length} narrowed, ${result.widened.length} widened, ${result.unknown.length} unknown. ${verdict}`,
  );
  list.replaceChildren(
    ...(entries.length === 0
      ? [el('li', { class: 'diag none' }, 'No change in the outputs either version accepts.')]
      : entries.map(([dir, c]) => {
          const line = c.range ? String(c.range.start.line) : '';
          const where = el('button', { class: 'where', type: 'button', title: `Go to line ${line}` }, c.range ? `${c.range.start.line}:${c.range.start.column}` : c.pointer);
          where.addEventListener('click', () => {
            if (!c.range) return;
            const anchor = Math.min(c.range.start.offset, view.state.doc.length);
            view.dispatch({ selection: { anchor, head: Math.min(c.range.end.offset, view.state.doc.length) }, scrollIntoView: true });
            view.focus();
          });
          return el('li', { class: `diag change ${dir}`, 'data-kind': c.kind, 'data-pointer': c.pointer, 'data-line': line },
            where, ' ', el('span', { class: 'severity' }, dir), ' ', el('code', {}, c.kind), ' ', el('span', { class: 'message' }, c.message));
        })),
  );
}

/** Removes the marks and the list (the text changed since, or another schema was loaded). */
export function clearComparison(view: EditorView, list: HTMLElement, summary: HTMLElement): void {
  view.dispatch({ effects: setMarks.of(Decoration.none) });
  list.replaceChildren();
  summary.replaceChildren();
  summary.className = 'result';
}
