// Self-contained SVG charts (no libraries): lines over thread counts, and grouped bars.
const palette = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
const W = 720; const H = 420; const M = { left: 70, right: 230, top: 40, bottom: 50 };
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function niceTicks(lo, hi, log) {
  if (log) {
    const ticks = [];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) ticks.push(10 ** e);
    return ticks;
  }
  const step = 10 ** Math.floor(Math.log10(hi / 5 || 1));
  const mult = [1, 2, 5, 10].find((m) => hi / (m * step) <= 6) ?? 10;
  const ticks = [];
  for (let v = 0; v <= hi * 1.0001; v += mult * step) ticks.push(v);
  if (ticks[ticks.length - 1] < hi) ticks.push(ticks[ticks.length - 1] + mult * step);
  return ticks;
}

const fmt = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toPrecision(2));

// A long title is squeezed to the chart's width (about 8.5 px per character at 15 px bold)
// rather than cut off at the SVG's edge.
function titleText(title) {
  const room = W - M.left - 10;
  const fit = title.length * 8.5 > room ? ` textLength="${room}" lengthAdjust="spacingAndGlyphs"` : '';
  return `<text x="${M.left}" y="22" font-size="15" font-weight="bold"${fit}>${esc(title)}</text>`;
}

function frame(title, yLabel, ticks, y, xLabel) {
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    titleText(title),
    `<text transform="translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
    `<text x="${(M.left + W - M.right) / 2}" y="${H - 10}" text-anchor="middle">${esc(xLabel)}</text>`];
  for (const t of ticks) {
    parts.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(t)}" y2="${y(t)}" stroke="#ddd"/>`,
      `<text x="${M.left - 6}" y="${y(t) + 4}" text-anchor="end">${fmt(t)}</text>`);
  }
  return parts;
}

// Line styles: one hue per allocator or build, the host in the dash (Node solid, Chromium
// dashed, Firefox dash-dotted, WebKit long-dashed, native dotted), so the series of one allocator read as a family.
const dashes = { solid: '', dashed: ' stroke-dasharray="9 5"', dashdot: ' stroke-dasharray="9 4 2 4"', longdash: ' stroke-dasharray="16 5"', dotted: ' stroke-dasharray="2 4"' };
export const paletteColour = (i) => palette[i % palette.length];

/** entries: [{ label, color, dash }] */
function legend(parts, entries) {
  entries.forEach(({ label, color, dash }, i) => {
    const ly = M.top + 10 + i * 20;
    parts.push(`<line x1="${W - M.right + 15}" x2="${W - M.right + 40}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="3"${dashes[dash ?? 'solid']}/>`,
      `<text x="${W - M.right + 46}" y="${ly + 4}">${esc(label)}</text>`);
  });
}

const spreadNote = `<text x="${W - M.right + 15}" y="${H - 14}" font-size="10" fill="#666">bars: min-max of the runs</text>`;

// A min-max bar: the spread of the runs behind one median.
function spreadBar(parts, x, yLo, yHi, color) {
  parts.push(`<path d="M${x - 4} ${yLo}h8M${x} ${yLo}V${yHi}M${x - 4} ${yHi}h8" stroke="${color}" stroke-width="1.5" fill="none" opacity="0.75"/>`);
}

/**
 * series: [{ label, color, dash: 'solid'|'dashed'|'dashdot'|'dotted', points: [[threads, median, min, max], ...] }]:
 * the medians joined by a line, each with a min-max bar; an optional `ideal` series ({ label,
 * points: [[threads, value]] }) is drawn thin, dashed and black. log: logarithmic y axis.
 */
export function lineChart({ title, yLabel, xs, series, ideal, log = false }) {
  const all = [...series, ...(ideal ? [ideal] : [])].flatMap((s) => s.points.flatMap(([, ...v]) => v)).filter((v) => v > 0);
  const hi = Math.max(...all, 1e-9);
  const lo = log ? Math.min(...all) : 0;
  const ticks = niceTicks(lo, hi, log);
  const [t0, t1] = [ticks[0], ticks[ticks.length - 1]];
  const y = (v) => {
    const f = log ? (Math.log10(v) - Math.log10(t0)) / (Math.log10(t1) - Math.log10(t0)) : (v - t0) / (t1 - t0);
    return (H - M.bottom - f * (H - M.top - M.bottom)).toFixed(1);
  };
  const x = (t) => M.left + 30 + (xs.indexOf(t) / Math.max(1, xs.length - 1)) * (W - M.left - M.right - 60);
  const parts = frame(title, yLabel + (log ? ' (log scale)' : ''), ticks, y, 'threads');
  for (const t of xs) parts.push(`<text x="${x(t).toFixed(1)}" y="${H - M.bottom + 18}" text-anchor="middle">${t}</text>`);
  series.forEach((s, i) => {
    const pts = s.points.filter(([, v]) => v > 0);
    if (pts.length === 0) return;
    const shift = (i - (series.length - 1) / 2) * 3; // spread bars side by side, not on top of each other
    parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="3"${dashes[s.dash ?? 'solid']} points="${pts.map(([t, v]) => `${x(t).toFixed(1)},${y(v)}`).join(' ')}"/>`);
    for (const [t, v, min, max] of pts) {
      if (max > min) spreadBar(parts, (x(t) + shift).toFixed(1), y(min), y(max), s.color);
      parts.push(`<circle cx="${x(t).toFixed(1)}" cy="${y(v)}" r="4" fill="${s.color}"><title>${esc(`${s.label}, ${t}: ${fmt(v)}` +
        (max > min ? ` (runs ${fmt(min)}-${fmt(max)})` : ''))}</title></circle>`);
    }
  });
  if (ideal) {
    parts.push(`<polyline fill="none" stroke="#000" stroke-width="2"${dashes.dashed} points="${ideal.points.map(([t, v]) => `${x(t).toFixed(1)},${y(v)}`).join(' ')}"/>`);
  }
  legend(parts, [...series, ...(ideal ? [{ label: ideal.label, color: '#000', dash: 'dashed' }] : [])]);
  if (series.some((s) => s.points.some(([, , min, max]) => max > min))) parts.push(spreadNote);
  parts.push('</svg>');
  return parts.join('\n');
}

function wrap(text, width) {
  const lines = [];
  for (const word of text.split(' ')) {
    if (lines.length && lines[lines.length - 1].length + 1 + word.length <= width) lines[lines.length - 1] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** groups: [{ label, bars: [{ label, value, min, max, na }] }], one colour per bar label, each bar
 * with a min-max bar of its runs; a bar with `na` (the host cannot run that point) is marked "n/a"
 * instead of drawn. */
export function barChart({ title, yLabel, groups, log = false }) {
  const barLabels = [...new Set(groups.flatMap((g) => g.bars.map((b) => b.label)))];
  const values = groups.flatMap((g) => g.bars.flatMap((b) => [b.value, b.min, b.max])).filter((v) => v > 0);
  const ticks = niceTicks(log ? Math.min(...values) : 0, Math.max(...values, 1e-9), log);
  const [t0, t1] = [ticks[0], ticks[ticks.length - 1]];
  const y = (v) => {
    const f = log ? (Math.log10(v) - Math.log10(t0)) / (Math.log10(t1) - Math.log10(t0)) : (v - t0) / (t1 - t0);
    return H - M.bottom - f * (H - M.top - M.bottom);
  };
  const parts = frame(title, yLabel + (log ? ' (log scale)' : ''), ticks, (v) => y(v).toFixed(1), '');
  const groupW = (W - M.left - M.right) / groups.length;
  const barW = Math.min(40, (groupW - 20) / barLabels.length);
  groups.forEach((g, gi) => {
    const gx = M.left + gi * groupW + (groupW - barW * barLabels.length) / 2;
    // Two short lines ("Spindle FS" / "(node)") so neighbouring labels do not overlap.
    const cx = (M.left + gi * groupW + groupW / 2).toFixed(1);
    // Many groups: smaller type, the name wrapped at about 10 characters a line.
    const [name, ...rest] = g.label.split(' (');
    const size = groups.length > 6 ? 8 : 11;
    const lines = [...wrap(name, groups.length > 6 ? 10 : 24), ...(rest.length ? [`(${rest.join(' (')}`] : [])];
    parts.push(`<text x="${cx}" y="${H - M.bottom + 16}" text-anchor="middle" font-size="${size}">${lines
      .map((l, i) => `<tspan x="${cx}" dy="${i ? size + 2 : 0}">${esc(l)}</tspan>`).join('')}</text>`);
    for (const b of g.bars) {
      const i = barLabels.indexOf(b.label);
      if (!(b.value > 0)) {
        const x = (gx + i * barW + (barW - 2) / 2).toFixed(1);
        if (b.na) parts.push(`<text x="${x}" y="${H - M.bottom - 4}" text-anchor="middle" font-size="9" fill="${paletteColour(i)}"><title>${esc(`${g.label} ${b.label}: n/a: ${b.na}`)}</title>n/a</text>`);
        continue;
      }
      const top = y(b.value);
      const spread = b.max > b.min ? ` (runs ${fmt(b.min)}-${fmt(b.max)})` : '';
      parts.push(`<rect x="${(gx + i * barW).toFixed(1)}" y="${top.toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${(H - M.bottom - top).toFixed(1)}" fill="${paletteColour(i)}"><title>${esc(`${g.label} ${b.label}: ${fmt(b.value)}${spread}`)}</title></rect>`);
      if (spread) spreadBar(parts, (gx + i * barW + (barW - 2) / 2).toFixed(1), y(b.min).toFixed(1), y(b.max).toFixed(1), '#222');
    }
  });
  legend(parts, barLabels.map((label, i) => ({ label, color: paletteColour(i) })));
  if (groups.some((g) => g.bars.some((b) => b.max > b.min))) parts.push(spreadNote);
  parts.push('</svg>');
  return parts.join('\n');
}
