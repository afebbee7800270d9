// Summarize RESULT lines (JSON, one per line): best time per workload, allocator and
// thread count, and the peak memory of that run.
import { readFileSync } from 'node:fs';

const rows = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const best = new Map();
for (const r of rows) {
  const key = `${r.workload}|${r.threads}|${r.allocator}`;
  if (!best.has(key) || r.ms < best.get(key).ms) best.set(key, r);
}
const lines = [['workload', 'threads', 'allocator', 'best ms', 'Mops/s', 'peak MiB']];
for (const r of [...best.values()].sort((a, b) =>
  a.workload.localeCompare(b.workload) || a.threads - b.threads || a.allocator.localeCompare(b.allocator))) {
  lines.push([r.workload, String(r.threads), r.allocator, r.ms.toFixed(1), r.mops_per_s.toFixed(2),
    (r.peak_memory / 1048576).toFixed(2)]);
}
const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
for (const l of lines) console.log(l.map((c, i) => c.padEnd(widths[i])).join('  '));
