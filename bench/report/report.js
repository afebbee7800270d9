// Turns a results object (see cli/bench.js) into the terminal table, SVG charts and one
// self-contained HTML report.
import { barChart, lineChart } from './svg.js';
import { summarize } from './stats.js';

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function baselineOf(experiment, series) {
  const byId = (id) => experiment.series.find((s) => s.id === id);
  return byId(`${experiment.baseline}@${series.host}`) ?? byId(`${experiment.baseline}@node`) ??
    byId(`${experiment.baseline}@native`);
}

/** One row per series and thread count, with the numbers every output shares. */
export function rows(experiment) {
  const out = [];
  for (const series of experiment.series) {
    const one = summarize(series.runs[experiment.threads[0]] ?? [], 'ms');
    const base = baselineOf(experiment, series);
    for (const t of experiment.threads) {
      const ms = summarize(series.runs[t] ?? [], 'ms');
      // speedupOf (cases as points): only the points it names have a speed-up, against the point named
      const ref = experiment.speedupOf ? (experiment.speedupOf[t] !== undefined
        ? summarize(series.runs[experiment.speedupOf[t]] ?? [], 'ms') : null) : one;
      const baseMs = base && summarize(base.runs[t] ?? [], 'ms');
      const peak = summarize(series.runs[t] ?? [], 'peak_memory');
      out.push({
        series, threads: t, ms,
        speedup: ms && ref ? ref.median / ms.median : null,
        vsBaseline: ms && baseMs && base !== series ? baseMs.median / ms.median : null,
        baseline: base?.label,
        mops: summarize(series.runs[t] ?? [], 'mops_per_s'),
        peakMiB: peak ? peak.median / 2 ** 20 : null,
        error: series.error,
        na: series.na?.[t], // why this host cannot run this point
      });
    }
  }
  return out;
}

const cell = {
  ms: (r) => (r.ms ? `${r.ms.median.toFixed(1)} ms` : r.na ? 'n/a' : r.error ? 'failed' : '-'),
  range: (r) => (r.ms ? `${r.ms.min.toFixed(0)}-${r.ms.max.toFixed(0)}` : ''),
  speedup: (r) => (r.speedup ? `x${r.speedup.toFixed(2)}` : ''),
  vs: (r) => (r.vsBaseline ? `${r.vsBaseline.toFixed(2)}x` : ''),
  peak: (r) => (r.peakMiB != null ? `${r.peakMiB.toFixed(1)}` : ''),
};
const columns = [['series', (r) => r.series.label], ['threads/where', (r) => String(r.threads)], ['median', cell.ms],
  ['min-max', cell.range], ['speed-up vs 1 thread (or main)', cell.speedup], ['speed vs baseline', cell.vs], ['peak MiB', cell.peak]];
// An experiment whose points are cases (bench/io/suites.js) names its columns for that.
const headers = (e) => columns.map(([h], i) => (e.pointLabel !== 'case' ? h
  : i === 1 ? 'case' : i === 4 ? 'speed-up (2 threads vs 1)' : h));

/** An experiment's targets as lines: "target: LABEL: 0.83x (>= 0.8x): met". */
export function targetLines(e) {
  return (e.targets ?? []).map((t) => `target: ${t.label}: ${t.value.toFixed(2)}x (target ${t.op} ${t.limit}x): ` +
    `${t.met ? 'met' : 'NOT met'}; per run ${t.perRun.map((v) => v.toFixed(2)).join(' ')}${t.context ? `; ${t.context}` : ''}`);
}

export function tableText(results) {
  const lines = [];
  for (const e of results.experiments) {
    const data = rows(e).map((r) => columns.map(([, f]) => f(r)));
    const heads = headers(e);
    const widths = heads.map((h, i) => Math.max(h.length, ...data.map((d) => d[i].length)));
    const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    lines.push('', `${e.title}  [${e.id}; baseline: ${e.baseline}]`, line(heads));
    for (const d of data) lines.push(line(d));
    lines.push(...targetLines(e));
  }
  return lines.join('\n');
}

function tableHtml(e) {
  const head = headers(e).map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows(e).map((r) => `<tr>${columns.map(([, f]) => `<td>${esc(f(r))}</td>`).join('')}</tr>`).join('\n');
  const na = rows(e).filter((r) => r.na).map((r) => `<li>${esc(r.series.label)}, ${esc(r.threads)}: n/a: ${esc(r.na)}</li>`);
  const targets = (e.targets ?? []).map((t, i) => `<li class="${t.met ? 'met' : 'unmet'}">${esc(targetLines(e)[i].slice('target: '.length))}</li>`);
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>${na.length ? `<ul class="note">${na.join('')}</ul>` : ''}` +
    `${targets.length ? `<h3>Targets</h3><ul class="targets">${targets.join('')}</ul>` : ''}`;
}

/** The charts of one experiment: [{ name, title, svg }]. */
export function charts(e) {
  const label = (s) => s.label;
  const point = (s, f) => e.threads.map((t) => [t, f(s, t)]).filter(([, v]) => v != null);
  const medianOf = (s, t, key) => summarize(s.runs[t] ?? [], key)?.median;
  if (e.chart === 'speedup') {
    const cores = e.cores;
    return [{
      name: `${e.id}.svg`, title: e.title,
      svg: lineChart({
        title: `${e.title}: speed-up`, yLabel: 'speed-up vs 1 thread', xs: e.threads,
        series: e.series.map((s) => ({ label: label(s), points: point(s, (s2, t) => {
          const one = medianOf(s2, e.threads[0], 'ms'); const m = medianOf(s2, t, 'ms');
          return one && m ? one / m : null;
        }) })),
        ideal: { label: `ideal (${cores} cores)`, points: e.threads.map((t) => [t, Math.min(t, cores)]) },
      }),
    }];
  }
  if (e.chart === 'throughput') {
    const series = e.series.map((s) => ({ label: label(s), points: point(s, (s2, t) => medianOf(s2, t, 'mops_per_s')) }));
    return [false, true].map((log) => ({
      name: `${e.id}${log ? '-log' : ''}.svg`, title: `${e.title}${log ? ' (log)' : ''}`,
      svg: lineChart({ title: e.title, yLabel: 'million operations / s', xs: e.threads, series, log }),
    }));
  }
  if (e.chart === 'cases') { // points are cases: one group per case, one bar per series
    const groups = e.threads.map((t) => ({ label: String(t), bars: e.series.map((s) => ({ label: s.label, value: medianOf(s, t, 'ms'), na: s.na?.[t] })) }));
    return [{ name: `${e.id}.svg`, title: e.title, svg: barChart({ title: e.title, yLabel: 'ms per fixed amount (lower is better)', groups, log: true }) }];
  }
  if (e.chart === 'bars') {
    const groups = e.series.map((s) => ({ label: s.label, bars: e.threads.map((t) => ({ label: typeof t === 'number' ? `${t} thread(s)` : String(t), value: medianOf(s, t, 'ms'), na: s.na?.[t] })) }));
    return [{ name: `${e.id}.svg`, title: e.title, svg: barChart({ title: e.title, yLabel: 'ms (lower is better)', groups, log: true }) }];
  }
  return [];
}

export function html(results) {
  const m = results.machine;
  const sections = results.experiments.map((e) => `<section><h2>${esc(e.title)}</h2>
<p class="note">baseline: ${esc(e.baseline)}; ${esc(e.note ?? '')}</p>
${charts(e).map((c) => `<figure>${c.svg}</figure>`).join('\n')}
${tableHtml(e)}</section>`).join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Spindle bench ${esc(results.started)}</title>
<style>
body { font-family: sans-serif; margin: 2em auto; max-width: 1000px; color: #222; }
table { border-collapse: collapse; margin: 1em 0 2em; font-size: 13px; }
td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
td:first-child, th:first-child { text-align: left; }
figure { margin: 1em 0; } .note { color: #666; font-size: 13px; }
.targets { font-size: 13px; } .targets .met { color: #161; } .targets .unmet { color: #a11; font-weight: bold; }
</style></head><body>
<h1>Spindle bench</h1>
<p>${esc(results.started)} on ${esc(m.host)}: ${m.cores} cores (${esc(m.cpu)}), ${m.memoryGiB} GiB;
Node ${esc(m.node)}${m.chromium ? `, ${esc(m.chromium)}` : ''}; load average before ${m.loadBefore.map((v) => v.toFixed(2)).join(' ')},
after ${m.loadAfter.map((v) => v.toFixed(2)).join(' ')}. ${results.options.runs} runs per point (median shown, min-max in the tables)${results.options.quick ? ', quick sizes' : ''}.</p>
${sections}
</body></html>
`;
}
