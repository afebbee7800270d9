// How many threads a module had at once in its last runs here (the last RUNS_KEPT). The next run
// starts the most of those threads' workers before it loads the host, so they boot beside the
// host's loading and the compile instead of after main's pthread_creates (docs/HOST.md,
// "Start-up"), and a module whose runs used none starts none. A module never run here gets two
// (none on a single core): a first run with a second thread then finds it booted, which on-demand
// workers made slower than the same run with one thread (issue 35). The most of several
// runs, not the last alone: a program run with 1 thread and then with 2 (an argument) has its
// second worker ready too. Kept in the module's `.threads` hint file (cli/run/hint-file.js),
// the numbers latest first.
import { hintPath, writeHint } from './hint-file.js';

const { readFileSync } = process.getBuiltinModule('node:fs');

export const NO_THREAD_HINT = Object.freeze({ workers: 0, last: undefined, record: () => {} });
const FIRST_RUN_WORKERS = 2;
const RUNS_KEPT = 4;
// (a number too large to be a thread count is no hint)
const MOST_WORKERS = 1024;

/**
 * The hint for module file `wasmPath`, with `codeCache` as `spindle run --code-cache` gave it
 * (true, false or a directory), on a machine of `cpuCount` cores: { workers, record(used) },
 * `workers` the threads' workers to start early (at most cpuCount), `last` what the last runs
 * used, latest first (undefined: none known), `record(used)` keeps the
 * number of workers this run used for the next. A run without the cache, or without the addon,
 * has no hint and starts none.
 */
export function threadHint(wasmPath, codeCache, cpuCount) {
  const base = hintPath(wasmPath, codeCache);
  if (!base) return NO_THREAD_HINT;
  const file = `${base}.threads`;
  let last; // undefined: the module's first run here
  try {
    const text = readFileSync(file, 'latin1');
    // (an empty file: an older Spindle's hint that the module started threads)
    last = text === '' ? [1] : /^\d{1,4}( \d{1,4}){0,9}$/.test(text) ? text.split(' ').map((n) => Math.min(Number(n), MOST_WORKERS)) : [0];
  } catch { /* no hint yet */ }
  const wanted = last ? Math.max(...last) : cpuCount > 1 ? FIRST_RUN_WORKERS : 0;
  return {
    workers: Math.min(wanted, cpuCount),
    last,
    record(used) {
      if (!Number.isInteger(used) || used < 0) return; // (a page's count is checked here too)
      const runs = [Math.min(used, MOST_WORKERS), ...(last ?? [])].slice(0, RUNS_KEPT).join(' ');
      if (runs !== last?.join(' ')) writeHint(file, runs);
    },
  };
}
