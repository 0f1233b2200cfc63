// The dashboard page: Agent editor (General / Input Schema / Output Schema), Test output and
// Sessions. Everything is validated in the page by the output-contract package.
import { enrichSystemPrompt, loadSchemaTools, ready, type Draft } from 'output-contract';
import { blueprints, type Blueprint } from './blueprints';
import { clearComparison, compareMarks, examples, otherVersions, resources, showComparison, versionOf } from './compare';
import { byId, el } from './dom';
import { renderList, schemaEditor, type CheckSettings } from './schema-editor';
import { sessionView } from './sessions';
import { tabs } from './tabs';
import { testOutputPanel } from './test-output';
import './style.css';

const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

async function main(): Promise<void> {
  const loadStatus = byId('load-status');
  // The editor lints with checkSchema from the start: the schema tools' module loads beside the main one.
  await Promise.all([ready, loadSchemaTools()]);
  loadStatus.textContent = '';
  loadStatus.hidden = true;

  const draftSelect = byId<HTMLSelectElement>('draft-select');
  const providerSelect = byId<HTMLSelectElement>('provider-select');
  const blueprintSelect = byId<HTMLSelectElement>('blueprint-select');
  const name = byId<HTMLInputElement>('agent-name-input');
  const description = byId<HTMLInputElement>('agent-description');
  const systemPrompt = byId<HTMLTextAreaElement>('agent-system-prompt');
  const enriched = byId('enriched-prompt');
  const schemaResult = byId('schema-result');

  const draft = (): Draft | undefined => (draftSelect.value || undefined) as Draft | undefined;
  // References among the example schemas resolve (ticket's `reporter` is a person/1.0.0).
  const settings = (): CheckSettings => ({ draft: draft(), provider: (providerSelect.value || undefined) as CheckSettings['provider'], resources: resources() });

  const output = schemaEditor({
    parent: byId('output-schema-editor'),
    labelledBy: 'output-schema-label',
    list: byId('output-diagnostics'),
    settings,
    onChange: () => {
      schemaResult.replaceChildren();
      schemaResult.className = 'result';
      clearComparison(output.view, compareChanges, compareResult);
      updateVersion();
    },
    extensions: [compareMarks],
  });

  // The contract's $id and version, and the versions "Compare with…" offers (the previous first).
  const contractVersion = byId('contract-version');
  const compareWith = byId<HTMLSelectElement>('compare-with');
  const compareButton = byId<HTMLButtonElement>('compare-schema');
  const compareResult = byId('compare-result');
  const compareChanges = byId('compare-changes');
  const exampleSelect = byId<HTMLSelectElement>('example-schema');
  exampleSelect.append(...examples.map((e) => el('option', { value: e.file }, e.file)));
  function updateVersion(): void {
    const text = output.text();
    const current = versionOf(text);
    let others: Array<{ id: string; version: string }> = [];
    let previous: string | undefined;
    if (!current) {
      contractVersion.replaceChildren('No $id: the contract has no version to compare.');
    } else if (!current.version) {
      contractVersion.replaceChildren(el('code', {}, current.id), ' — this $id carries no version (…/NAME/X.Y.Z).');
    } else {
      contractVersion.replaceChildren(el('code', { class: 'contract-id' }, current.id), ' — ', el('strong', {}, current.name), ' version ', el('strong', { class: 'contract-semver' }, current.version));
      ({ others, previous } = otherVersions(text, current, draft()));
    }
    compareWith.replaceChildren(...others.map((v) => el('option', { value: v.id }, v.version)));
    if (previous) compareWith.value = previous;
    compareWith.disabled = compareButton.disabled = others.length === 0;
  }
  const input = schemaEditor({ parent: byId('input-schema-editor'), labelledBy: 'input-schema-label', list: byId('input-diagnostics'), settings: () => ({ draft: draft(), resources: resources() }) });

  function validateSchema(): void {
    const report = output.check();
    const errors = report.diagnostics.filter((d) => d.severity === 'error');
    if (report.valid) {
      const warnings = report.diagnostics.filter((d) => d.severity === 'warning').length;
      const notes = report.diagnostics.length - warnings;
      schemaResult.className = 'result valid';
      schemaResult.replaceChildren(el('strong', {}, 'Schema valid'), ` — ${report.draft}; ${warnings} warning${warnings === 1 ? '' : 's'}, ${notes} note${notes === 1 ? '' : 's'} below.`);
    } else {
      const list = el('ul', { class: 'diagnostics', 'aria-label': 'Schema errors' });
      renderList(list, errors, output.view);
      schemaResult.className = 'result failed';
      schemaResult.replaceChildren(el('strong', {}, `Schema invalid: ${errors.length} error${errors.length === 1 ? '' : 's'}`), list);
    }
  }

  const test = testOutputPanel({ schemaText: () => output.text(), draft, agentId: () => name.value || 'agent', resources });
  const sampleSelect = byId<HTMLSelectElement>('answer-sample');

  function updateEnriched(): void {
    try {
      enriched.textContent = enrichSystemPrompt(systemPrompt.value, JSON.parse(output.text()));
    } catch {
      enriched.textContent = '(the Output Schema is not valid JSON yet)';
    }
  }

  function load(id: string): void {
    const entry = blueprints[id];
    if (!entry) return;
    const b: Blueprint = entry.blueprint;
    byId('agent-name').textContent = b.name;
    name.value = b.name;
    description.value = b.description;
    systemPrompt.value = b.system_prompt;
    output.setText(pretty(b.output_schema));
    input.setText(pretty(b.parameters_schema));
    schemaResult.replaceChildren();
    schemaResult.className = 'result';
    sampleSelect.replaceChildren(el('option', { value: '' }, 'choose…'), ...entry.samples.map((s, i) => el('option', { value: String(i) }, s.label)));
    test.setAnswer('');
    updateEnriched();
  }

  const views = tabs(byId('view-tab-editor').parentElement ?? document.body, (id) => {
    if (id === 'view-tab-editor') output.view.requestMeasure();
  });
  tabs(byId('tab-output').parentElement ?? document.body, (id) => {
    if (id === 'tab-general') updateEnriched();
  });
  sessionView();

  byId('validate-schema').addEventListener('click', validateSchema);
  compareButton.addEventListener('click', () => showComparison(output.view, compareChanges, compareResult, compareWith.value, draft()));
  exampleSelect.addEventListener('change', () => {
    const example = examples.find((e) => e.file === exampleSelect.value);
    if (example) output.setText(example.text);
  });
  byId('validate-output').addEventListener('click', () => test.validate());
  draftSelect.addEventListener('change', () => {
    output.refresh();
    input.refresh();
  });
  providerSelect.addEventListener('change', () => output.refresh());
  blueprintSelect.addEventListener('change', () => load(blueprintSelect.value));
  name.addEventListener('input', () => (byId('agent-name').textContent = name.value));
  systemPrompt.addEventListener('input', updateEnriched);
  sampleSelect.addEventListener('change', () => {
    const sample = blueprints[blueprintSelect.value]?.samples[Number(sampleSelect.value)];
    if (sample) test.setAnswer(sample.text);
  });

  // Ctrl/Cmd+Enter validates what the visible view holds. Capture phase: the editors bind
  // Mod-Enter themselves (insert a blank line).
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
    const view = views.selected();
    if (view === 'view-tab-editor') validateSchema();
    else if (view === 'view-tab-test') test.validate();
    else return;
    e.preventDefault();
    e.stopPropagation();
  }, true);

  load(blueprintSelect.value);
  document.body.dataset.ready = 'true';
}

main().catch((e: unknown) => {
  const status = document.getElementById('load-status');
  if (status) {
    status.hidden = false;
    status.textContent = `The validator failed to load: ${e instanceof Error ? e.message : String(e)}`;
  }
});
