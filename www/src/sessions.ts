// The Session view: a recorded model stream is replayed chunk by chunk through
// `contract.stream()`, as the executor would see it: the state badge, the output growing, early
// violations when they appear, the retry prompt after a failed attempt, and the final status.
import { Contract, failureEnvelope, formatViolation, type OutputStream, type StreamEnd, type StreamOptions, type Violation } from 'output-contract';
import recorded from './sessions/samples.json';
import { blueprints } from './blueprints';
import { byId, el } from './dom';

export interface RecordedAttempt {
  chunks: string[];
  end: StreamEnd;
  /** Providers stream a refusal apart from the content; it is shown, not validated. */
  channel?: 'refusal';
}

export interface RecordedSession {
  id: string;
  title: string;
  agent: string;
  options: StreamOptions;
  attempts: RecordedAttempt[];
}

const sessions = recorded as RecordedSession[];

type Badge = 'in-flight' | 'soft-complete' | 'hard-complete' | 'refused';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function sessionView(): void {
  const list = byId('session-list');
  const detail = byId('session-detail');
  const speed = byId<HTMLSelectElement>('replay-speed');
  let current = 0;

  for (const s of sessions) {
    const button = el('button', { type: 'button', 'data-session': s.id }, el('span', { class: 'session-id' }, s.id), el('span', { class: 'session-title' }, s.title));
    button.addEventListener('click', () => {
      for (const b of list.querySelectorAll('button')) b.removeAttribute('aria-current');
      button.setAttribute('aria-current', 'true');
      void replay(s, ++current);
    });
    list.append(el('li', {}, button));
  }

  async function replay(session: RecordedSession, token: number): Promise<void> {
    const entry = blueprints[session.agent];
    if (!entry) return;
    const options: StreamOptions = { maxRetries: 1, ...session.options };
    const retries = options.maxRetries ?? 1;
    const contract = Contract.compile(entry.blueprint.output_schema, { agentId: session.agent });
    const stream: OutputStream = contract.stream(options);

    const badge = el('span', { class: 'badge', 'data-state': 'in-flight', 'aria-label': 'Stream state' }, 'in-flight');
    const status = el('span', { 'data-testid': 'session-status' }, 'running');
    const attempts = el('div', { class: 'attempts' });
    const summary = el('div', { class: 'summary', role: 'status', 'aria-live': 'polite' });
    detail.replaceChildren(
      el('h3', {}, `Session: ${session.id}`, ' ', badge),
      el('p', { class: 'meta' }, `Agent: ${session.agent}`, el('br'), 'Status: ', status),
      attempts,
      summary,
    );
    const setBadge = (state: Badge): void => {
      badge.textContent = state;
      badge.dataset.state = state;
    };

    try {
      for (const [index, attempt] of session.attempts.entries()) {
        setBadge('in-flight');
        const raw = el('pre', { class: 'code raw', 'aria-label': `Attempt ${index + 1} output` });
        const partial = el('pre', { class: 'code partial', 'aria-label': `Attempt ${index + 1} partial value` });
        const early = el('ul', { class: 'violations early', 'aria-label': `Attempt ${index + 1} early violations` });
        const note = el('p', { class: 'attempt-note' });
        const section = el('section', { class: 'attempt', 'data-attempt': String(index + 1) },
          el('h4', {}, `Attempt ${index + 1}`),
          el('div', { class: 'columns' }, el('div', {}, el('h5', {}, attempt.channel === 'refusal' ? 'Refusal (streamed)' : 'Output (streamed)'), raw), el('div', {}, el('h5', {}, 'Partial value'), partial)),
          el('h5', {}, 'Early violations'), early, note);
        attempts.append(section);

        let text = '';
        let seen = 0;
        for (const [n, chunk] of attempt.chunks.entries()) {
          if (token !== current) return;
          text += chunk;
          raw.textContent = text;
          if (attempt.channel !== 'refusal') {
            const s = stream.push(chunk);
            partial.textContent = JSON.stringify(stream.partial(), null, 2) ?? '';
            for (const v of s.earlyViolations.slice(seen)) early.append(el('li', { 'data-keyword': v.keyword }, `${formatViolation(v)} (at byte ${s.bytes})`));
            seen = s.earlyViolations.length;
            if (s.aborted) {
              note.textContent = `Generation cancelled at the first early violation, after ${s.bytes} bytes (chunk ${n + 1} of ${attempt.chunks.length}).`;
              break;
            }
          }
          await pace(Number(speed.value), n);
        }
        if (seen === 0) early.append(el('li', { class: 'none' }, 'none'));

        const outcome = stream.finish(attempt.end);
        if (outcome.state === 'soft-complete' && !outcome.valid) {
          setBadge('soft-complete');
          note.append(' Validation failed: ', violationList(outcome.violations), el('details', {}, el('summary', {}, 'Retry prompt sent to the model'), el('pre', { class: 'code' }, outcome.prompt)));
          if (index + 1 < session.attempts.length) continue;
          status.textContent = 'running';
          summary.replaceChildren(el('p', {}, 'The recording ends before the retry.'));
          return;
        }
        if (outcome.state === 'soft-complete') {
          setBadge('soft-complete');
          status.textContent = 'completed';
          summary.replaceChildren(
            el('p', { class: 'verdict valid' }, 'Output Schema: Valid'),
            el('h5', {}, 'Result:'),
            el('pre', { class: 'code', 'aria-label': 'Result' }, JSON.stringify(outcome.data)),
            el('p', { class: 'retries' }, `Retry attempts: ${outcome.attempt - 1}/${retries} used`),
          );
        } else if (outcome.state === 'hard-complete') {
          setBadge('hard-complete');
          status.textContent = 'failed';
          summary.replaceChildren(
            el('p', { class: 'verdict failed' }, 'Output Schema: Validation Failed'),
            el('h5', {}, 'Errors:'),
            violationList(outcome.error.violations),
            el('p', { class: 'retries' }, `Retry attempts: ${outcome.attempts - 1}/${retries} exhausted`),
            el('details', {}, el('summary', {}, 'Run result (failure envelope)'), el('pre', { class: 'code' }, JSON.stringify(failureEnvelope(outcome.error, session.id, outcome.attempts - 1), null, 2))),
          );
        } else {
          setBadge('refused');
          status.textContent = 'refused';
          summary.replaceChildren(
            el('p', { class: 'verdict refused' }, 'Refused: the model declined the task (an outcome, not a validation failure).'),
            el('blockquote', {}, outcome.refusal),
            el('p', { class: 'retries' }, `Retry attempts: 0/${retries} used`),
          );
        }
        return;
      }
    } finally {
      stream.free();
    }
  }
}

function violationList(violations: Violation[]): HTMLUListElement {
  return el('ul', { class: 'violations' }, ...violations.map((v) => el('li', { 'data-keyword': v.keyword }, `- ${formatViolation(v)}`)));
}

/** Waits between chunks; at speed 0 only lets the page paint now and then. */
async function pace(ms: number, n: number): Promise<void> {
  if (ms > 0) await sleep(ms);
  else if (n % 64 === 63) await sleep(0);
}
