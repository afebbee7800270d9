// Summaries of repeated runs.
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** { median, min, max, n } of one series at one thread count, for the metric `key`. */
export function summarize(runs, key) {
  const values = runs.map((r) => r[key]).filter((v) => typeof v === 'number');
  if (values.length === 0) return null;
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length };
}
