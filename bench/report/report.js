// Turns a results object (see cli/bench/bench.js) into the terminal table, SVG charts and one
// self-contained HTML report.
import { hostTitle } from '../hosts.js';
import { experimentTargets, verdictWord } from '../targets.js';
import { summarize } from './stats.js';
import { summaryHtml, summaryLines, verdictClass } from './summary.js';
import { barChart, lineChart, paletteColour } from './svg.js';

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
        wall: summarize(series.runs[t] ?? [], 'wall_ms'), // the whole run, spawn to exit (cli/bench/bench.js)
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
  wall: (r) => (r.wall ? `${r.wall.median.toFixed(0)} ms` : ''),
  peak: (r) => (r.peakMiB != null ? `${r.peakMiB.toFixed(1)}` : ''),
};
const columns = [['series', (r) => r.series.label], ['threads/where', (r) => String(r.threads)], ['median', cell.ms],
  ['min-max', cell.range], ['wall, spawn to exit', cell.wall], ['speed-up vs 1 thread (or main)', cell.speedup], ['speed vs baseline', cell.vs], ['peak MiB', cell.peak]];
// An experiment whose points are cases (bench/io/suites.js) names its columns for that.
const headers = (e) => columns.map(([h], i) => (e.pointLabel !== 'case' ? h
  : i === 1 ? 'case' : i === 5 ? 'speed-up (2 threads vs 1)' : h));

/** How each host of the experiment ran its series (results.options.runModes, cli/bench/bench-run-mode.js). */
export function runModeLines(e, options) {
  const modes = options?.runModes ?? {};
  return [...new Set(e.series.map((s) => s.host))].filter((h) => modes[h]).map((h) => `ran as: ${h}: ${modes[h]}`);
}

/** An experiment's targets as lines: "target: LABEL: 0.83x (target >= 0.8x): met; per run ...". */
const targetLine = (t) => `target: ${t.label}: ${t.value.toFixed(2)}x (target ${t.op} ${t.limit}x): ` +
    `${verdictWord(t)}; per run ${t.perRun.map((v) => v.toFixed(2)).join(' ')}${t.context ? `; ${t.context}` : ''}`;
export const targetLines = (e, cores, machine) => experimentTargets(e, cores, machine).map(targetLine);

/** The terminal table: the verdicts, every experiment's table and targets, the verdicts again. */
export function tableText(results) {
  const lines = summaryLines(results);
  for (const e of results.experiments) {
    const data = rows(e).map((r) => columns.map(([, f]) => f(r)));
    const heads = headers(e);
    const widths = heads.map((h, i) => Math.max(h.length, ...data.map((d) => d[i].length)));
    const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    lines.push('', `${e.title}  [${e.id}; baseline: ${e.baseline}]`, line(heads));
    for (const d of data) lines.push(line(d));
    if (e.pointLabel !== 'case') lines.push(...runModeLines(e, results.options));
    lines.push(...targetLines(e, results.machine.cores, results.machine));
  }
  lines.push('', ...summaryLines(results));
  return lines.join('\n');
}

function tableHtml(e, cores, machine, options) {
  const head = headers(e).map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows(e).map((r) => `<tr>${columns.map(([, f]) => `<td>${esc(f(r))}</td>`).join('')}</tr>`).join('\n');
  const notes = rows(e).filter((r) => r.na).map((r) => `<li>${esc(r.series.label)}, ${esc(r.threads)}: n/a: ${esc(r.na)}</li>`);
  if (e.pointLabel !== 'case') notes.push(...runModeLines(e, options).map((l) => `<li>${esc(l)}</li>`));
  const targets = experimentTargets(e, cores, machine).map((t) => `<li class="${verdictClass(t)}">${esc(targetLine(t).slice('target: '.length))}</li>`);
  // The table folded (the charts tell the story; table.txt has it too), the targets in view.
  return `<details><summary>Table: median, min-max, speed-ups, peak memory (${rows(e).length} rows)</summary>` +
    `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></details>${notes.length ? `<ul class="note">${notes.join('')}</ul>` : ''}` +
    `${targets.length ? `<h3>Targets</h3><ul class="targets">${targets.join('')}</ul>` : ''}`;
}

// Series styles: one colour per allocator or build (a native build of the same allocator shares
// its colour), the host in the line: Node solid, Chromium dashed, Firefox dash-dotted, WebKit
// long-dashed, native dotted.
const dashOf = { node: 'solid', browser: 'dashed', firefox: 'dashdot', webkit: 'longdash', native: 'dotted' };
function styles(e) {
  const keys = [...new Set(e.series.map((s) => s.variant.replace(/^native-/, '')))];
  return new Map(e.series.map((s) => [s, { color: paletteColour(keys.indexOf(s.variant.replace(/^native-/, ''))), dash: dashOf[s.host] ?? 'solid' }]));
}

// More lines than this in one chart overlap: the chart is split into one per wasm host, each
// with the native series as the reference.
const maxLines = 6;
function lineGroups(e, machine) {
  const wasmHosts = [...new Set(e.series.map((s) => s.host))].filter((h) => h !== 'native');
  if (e.series.length <= maxLines || wasmHosts.length < 2) return [{ suffix: '', title: '', series: e.series }];
  return wasmHosts.map((h, i) => ({ suffix: i === 0 ? '' : `-${h}`, title: `, ${hostTitle(h, machine)} and native`,
    series: e.series.filter((s) => s.host === h || s.host === 'native') }));
}

/** The charts of one experiment: [{ name, title, svg }], every median with the min-max of its runs. */
export function charts(e, machine) {
  const style = styles(e);
  const spreadOf = (s, t, key) => summarize(s.runs[t] ?? [], key);
  // [t, median, min, max] of `key` at each point, or of f(summary) when the value is derived
  const points = (s, key, f = (v) => v) => e.threads.map((t) => [t, spreadOf(s, t, key)]).filter(([, v]) => v)
    .map(([t, v]) => [t, f(v.median), ...[f(v.min), f(v.max)].sort((a, b) => a - b)]);
  const line = (s, pts) => ({ label: s.label, ...style.get(s), points: pts });
  if (e.chart === 'speedup') {
    return lineGroups(e, machine).map((g) => ({
      name: `${e.id}${g.suffix}.svg`, title: `${e.title}${g.title}`,
      svg: lineChart({
        title: `${e.title}${g.title}: speed-up`, yLabel: 'speed-up vs 1 thread', xs: e.threads,
        series: g.series.map((s) => {
          const one = spreadOf(s, e.threads[0], 'ms')?.median;
          return line(s, one ? points(s, 'ms', (ms) => one / ms) : []);
        }),
        ideal: { label: `ideal (${e.cores} cores)`, points: e.threads.map((t) => [t, Math.min(t, e.cores)]) },
      }),
    }));
  }
  if (e.chart === 'throughput') {
    return lineGroups(e, machine).flatMap((g) => [false, true].map((log) => ({
      name: `${e.id}${g.suffix}${log ? '-log' : ''}.svg`, title: `${e.title}${g.title}${log ? ' (log)' : ''}`,
      svg: lineChart({ title: `${e.title}${g.title}`, yLabel: 'million operations / s', xs: e.threads, log,
        series: g.series.map((s) => line(s, points(s, 'mops_per_s'))) }),
    })));
  }
  const bar = (s, t, label) => ({ label, value: spreadOf(s, t, 'ms')?.median, min: spreadOf(s, t, 'ms')?.min, max: spreadOf(s, t, 'ms')?.max, na: s.na?.[t] });
  if (e.chart === 'cases') { // points are cases: one group per case, one bar per series
    const groups = e.threads.map((t) => ({ label: String(t), bars: e.series.map((s) => bar(s, t, s.label)) }));
    return [{ name: `${e.id}.svg`, title: e.title, svg: barChart({ title: e.title, yLabel: 'ms per fixed amount (lower is better)', groups, log: true }) }];
  }
  if (e.chart === 'bars') {
    const groups = e.series.map((s) => ({ label: s.label, bars: e.threads.map((t) => bar(s, t, typeof t === 'number' ? `${t} thread(s)` : String(t))) }));
    return [{ name: `${e.id}.svg`, title: e.title, svg: barChart({ title: e.title, yLabel: 'ms (lower is better)', groups, log: true }) }];
  }
  return [];
}

/**
 * The versions of the browsers whose series are in `results`, as their `--version` lines say
 * (machine.chromium, machine.firefox, machine.webkit); a run without browser series names none.
 */
export function browserVersions(results) {
  const m = results.machine;
  const hosts = new Set(results.experiments.flatMap((e) => e.series.map((s) => s.host)));
  const titles = [...hosts].map((h) => hostTitle(h, m));
  return [titles.includes('Chromium') && m.chromium, titles.includes('Firefox') && m.firefox, titles.includes('WebKit') && m.webkit].filter(Boolean);
}

export function html(results) {
  const m = results.machine;
  const cores = m.cores;
  const nav = results.experiments.map((e) => `<a href="#${esc(e.id)}">${esc(e.id)}</a>`).join(' ');
  const sections = results.experiments.map((e) => `<section id="${esc(e.id)}"><h2>${esc(e.title)}</h2>
<p class="note">baseline: ${esc(e.baseline)}; ${esc(e.note ?? '')}</p>
<div class="charts">${charts(e, m).map((c) => `<figure>${c.svg}</figure>`).join('\n')}</div>
${tableHtml(e, cores, m, results.options)}</section>`).join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Spindle bench ${esc(results.started)}</title>
<style>
body { font-family: sans-serif; margin: 2em auto; max-width: 1480px; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0 2em; font-size: 13px; }
td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
td:first-child, th:first-child { text-align: left; }
.charts { display: flex; flex-wrap: wrap; gap: 0 1em; } figure { margin: 0.5em 0; } svg { max-width: 100%; height: auto; }
.note { color: #666; font-size: 13px; } summary { cursor: pointer; font-size: 13px; margin: 0.5em 0; } nav { font-size: 13px; line-height: 1.8; } nav a { margin-right: 0.8em; }
.warning { background: #fde2e2; border: 2px solid #a11; color: #700; padding: 0.6em 1em; font-weight: bold; }
.verdicts td, .verdicts th { text-align: left; } .verdicts tr.met td:first-child { color: #161; font-weight: bold; }
.verdicts tr.unmet td:first-child, .verdicts tr.unmet td:nth-child(4) { color: #a11; font-weight: bold; }
.targets { font-size: 13px; } .targets .met { color: #161; } .targets .unmet { color: #a11; font-weight: bold; }
.targets .unjudged, .verdicts tr.unjudged td:first-child { color: #777; }
</style></head><body>
<h1>Spindle bench</h1>
<p>${esc(results.started)} to ${esc(results.finished ?? '?')}; Node ${esc(m.node)}${browserVersions(results).map((v) => `, ${esc(v)}`).join('')}.
Charts show the median of the runs with a bar from the fastest to the slowest run; each chart's table (click to open) gives the numbers.</p>
${summaryHtml(results)}
<nav>Experiments: ${nav}</nav>
${sections}
</body></html>
`;
}
