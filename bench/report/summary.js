// The verdicts first: every target met or NOT met, and the state of the machine the numbers come
// from, for the start and end of the table and the top of the HTML report.
import { experimentTargets, verdictWord } from '../targets.js';

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const loads = (l) => (l ? l.map((v) => v.toFixed(2)).join(' ') : 'not recorded');

/** Every target of every experiment: [{ experiment, label, value, op, limit, met, perRun, context }]. */
export function verdicts(results) {
  return results.experiments.flatMap((e) => experimentTargets(e, results.machine.cores, results.machine).map((t) => ({ experiment: e.id, ...t })));
}

/**
 * The machine's state. A 1-minute load average of half the cores or more before the run means
 * other work shared the cores: the run's speed-ups and times are then not what the machine gives.
 */
export function machineState(results) {
  const m = results.machine;
  const before = m.loadBefore?.[0] ?? 0;
  const high = before >= m.cores / 2;
  const o = results.options ?? {};
  return {
    high,
    line: `machine: ${m.host}, ${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}; load average (1, 5, 15 min) before ` +
      `${loads(m.loadBefore)}, after ${loads(m.loadAfter)}; ${o.runs} run${o.runs === 1 ? '' : 's'} per point${o.quick ? '; quick sizes: a smoke test, not a measurement' : ''}`,
    warning: high ? `WARNING: the machine was busy before this run (load average ${before.toFixed(2)} on ${m.cores} cores). ` +
      'Other programs shared the cores, so times and speed-ups are lower than this machine gives and a target can fail ' +
      'for that alone. Ratios between the series of one experiment (run interleaved) hold best. Run again on an idle machine.' : null,
  };
}

/** The CSS class of a target's verdict: green met, red unmet, grey unjudged. */
export const verdictClass = (t) => (t.unjudged ? 'unjudged' : t.met ? 'met' : 'unmet');
const measured = (t) => `${t.value.toFixed(2)}x (target ${t.op} ${t.limit}x)`;

/** "N of M targets met", and how many were measured but not judged (they need more cores). */
function count(all) {
  const judged = all.filter((t) => !t.unjudged);
  const unjudged = all.length - judged.length;
  return `${judged.filter((t) => t.met).length} of ${judged.length} targets met${unjudged ? `; ${unjudged} not judged (need more cores)` : ''}`;
}

/** The summary as text lines: the verdict count, one line per target, the machine, the warning. */
export function summaryLines(results) {
  const all = verdicts(results);
  const state = machineState(results);
  const width = Math.max(0, ...all.map((t) => t.experiment.length));
  const wordWidth = Math.max(8, ...all.map((t) => verdictWord(t).length));
  return [
    `== Verdicts: ${count(all)} ==`,
    ...all.map((t) => `${verdictWord(t).padEnd(wordWidth)} ${t.experiment.padEnd(width)}  ${t.label}: ${measured(t)}`),
    state.line,
    ...(state.warning ? [state.warning] : []),
  ];
}

/** The summary as the top of the HTML report. */
export function summaryHtml(results) {
  const all = verdicts(results);
  const state = machineState(results);
  const row = (t) => `<tr class="${verdictClass(t)}"><td>${esc(verdictWord(t))}</td><td>${esc(t.experiment)}</td>` +
    `<td>${esc(t.label)}</td><td>${esc(measured(t))}</td><td>${esc(t.perRun.map((v) => v.toFixed(2)).join(' '))}` +
    `${t.context ? `; ${esc(t.context)}` : ''}</td></tr>`;
  return `<section id="summary"><h2>Verdicts: ${esc(count(all))}</h2>
${state.warning ? `<p class="warning">${esc(state.warning)}</p>` : ''}
<table class="verdicts"><thead><tr><th>verdict</th><th>experiment</th><th>target</th><th>measured (medians)</th><th>per run</th></tr></thead>
<tbody>${all.map(row).join('\n')}</tbody></table>
<p class="${state.high ? 'warning' : 'note'}">${esc(state.line)}</p></section>`;
}
