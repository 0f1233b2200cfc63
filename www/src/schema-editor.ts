// A JSON Schema editor: CodeMirror 6 in JSON mode, linted by the package's `checkSchema`, so every
// diagnostic is underlined at its range, marked in the gutter, explained on hover and listed
// under the editor. Offsets from checkSchema are UTF-16 code units, which is what CodeMirror
// positions count, so they are used as they are.
import { basicSetup } from 'codemirror';
import { StateEffect, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { json } from '@codemirror/lang-json';
import { forceLinting, linter, lintGutter, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import { checkSchema, type CheckSchemaResult, type Diagnostic, type Draft, type JsonSchema } from 'output-contract';
import { el } from './dom';

export interface CheckSettings {
  draft?: Draft;
  provider?: 'openai' | 'anthropic';
  /** Schema documents by URI that the schema's `$ref`s may name (the example registry's). */
  resources?: Record<string, JsonSchema>;
}

export interface SchemaEditor {
  view: EditorView;
  text(): string;
  setText(text: string): void;
  /** Runs checkSchema now (the linter runs it after typing pauses). */
  check(): CheckSchemaResult;
  /** Re-lints after the settings changed. */
  refresh(): void;
}

/** Dispatched when the check settings (draft, provider) change: the text must be linted again. */
const settingsChanged = StateEffect.define<null>();

export function schemaEditor(options: {
  parent: HTMLElement;
  labelledBy: string;
  list: HTMLElement;
  settings: () => CheckSettings;
  onChange?: () => void;
  /** More CodeMirror extensions (the Output Schema's compare marks). */
  extensions?: Extension[];
}): SchemaEditor {
  const { parent, list, settings } = options;

  const lint = linter((view) => {
    const text = view.state.doc.toString();
    const report = checkSchema(text, settings());
    renderList(list, report.diagnostics, view);
    return report.diagnostics.map((d) => toCodeMirror(d, text.length));
  }, { delay: 200, needsRefresh: (u) => u.transactions.some((tr) => tr.effects.some((e) => e.is(settingsChanged))) });

  const view = new EditorView({
    parent,
    extensions: [
      basicSetup,
      json(),
      lint,
      lintGutter(),
      EditorView.contentAttributes.of({ 'aria-labelledby': options.labelledBy }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) options.onChange?.();
      }),
      ...(options.extensions ?? []),
    ],
  });

  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      forceLinting(view);
    },
    check() {
      const report = checkSchema(view.state.doc.toString(), settings());
      renderList(list, report.diagnostics, view);
      return report;
    },
    refresh() {
      // forceLinting alone runs only a lint already due (after an edit): the settings changed,
      // so one is made due first.
      view.dispatch({ effects: settingsChanged.of(null) });
      forceLinting(view);
    },
  };
}

function toCodeMirror(d: Diagnostic, length: number): CmDiagnostic {
  const from = Math.min(d.range.start.offset, length);
  const to = Math.min(Math.max(d.range.end.offset, from), length);
  const fix = d.fix;
  const replacement = fix?.replacement;
  return {
    from,
    to,
    severity: d.severity,
    source: d.code,
    message: fix ? `${d.message} (fix: ${fix.message})` : d.message,
    actions:
      fix && replacement !== undefined
        ? [{ name: fix.message, apply: (view: EditorView, f: number, t: number) => view.dispatch({ changes: { from: f, to: t, insert: replacement } }) }]
        : [],
  };
}

/** The diagnostics under the editor: `line:column`, severity, code, message; a click selects the range. */
export function renderList(list: HTMLElement, diagnostics: Diagnostic[], view?: EditorView): void {
  const order = { error: 0, warning: 1, info: 2 } as const;
  const sorted = [...diagnostics].sort((a, b) => order[a.severity] - order[b.severity] || a.range.start.offset - b.range.start.offset);
  list.replaceChildren(
    ...(sorted.length === 0
      ? [el('li', { class: 'diag none' }, 'No diagnostics.')]
      : sorted.map((d) => {
          const where = el('button', { class: 'where', type: 'button', title: `Go to line ${d.range.start.line}` }, `${d.range.start.line}:${d.range.start.column}`);
          if (view) {
            where.addEventListener('click', () => {
              const length = view.state.doc.length;
              const anchor = Math.min(d.range.start.offset, length);
              view.dispatch({ selection: { anchor, head: Math.min(Math.max(d.range.end.offset, anchor), length) }, scrollIntoView: true });
              view.focus();
            });
          }
          const item = el('li', { class: `diag ${d.severity}`, 'data-code': d.code, 'data-line': String(d.range.start.line) },
            where, ' ', el('span', { class: 'severity' }, d.severity), ' ', el('code', {}, d.code), ' ', el('span', { class: 'message' }, d.message));
          if (d.fix) item.append(' ', el('span', { class: 'fix' }, `Fix: ${d.fix.message}`));
          return item;
        })),
  );
}
