// The early start of a command line, replayed (docs/HOST.md, "Fifteenth pass"). A run's early
// start (cli/run/run-early.js) chooses the workers it starts only once the run bundle has loaded
// (~10 ms into Spindle's part of a start on the 2-core VM), and a thread worker's boot (~25 ms of
// a core) was what main waited for in a threaded program's later runs. So a run keeps what it
// started, and bin/spindle's first module (cli/boot.js) starts the same workers for the same
// command line before it loads the run bundle; the run adopts them, starts what is missing, ends
// what it does not need, and keeps its own choice for the next run.
// One small file per working directory and arguments, in the run bundle's checked cache folder,
// named by a short hash of both: "THREADS MAIN" (MAIN 1 where the C main's worker starts early).
// No file where nothing starts early, so a hello world reads one missing file.
import { earlyWorkerOf } from '../../host/program/early-worker.js';
import * as nodeWorkers from '../../host/program/node-workers.js';
import { removeOlder } from '../../host/code-cache/store.js';
import { shortHash } from '../common/short-hash.js';
import { writeHint } from './hint-file.js';

const { readFileSync, unlinkSync } = process.getBuiltinModule('node:fs');
const { dirname, join } = process.getBuiltinModule('node:path');

// (a file that asks for more is no replay: the run's own choice is capped by the cores)
const MOST_REPLAYED = 64;
const NOTHING = Object.freeze({ threads: 0, main: false });
// A file not written for this long is removed when another command line's is first written: a
// command line run once (a program's arguments change often) leaves no file for good.
const KEPT_MS = 30 * 24 * 60 * 60 * 1000;
const SUFFIX = '.early';

/** The replay file of `args` run here, in the checked folder `dir`; null without one. */
export function replayFile(dir, args) {
  return dir ? join(dir, `${shortHash(`${process.cwd()}\0${args.join('\0')}`)}${SUFFIX}`) : null;
}

/** What `file` says to start: { threads, main }; nothing where it is missing or not a replay. */
export function readReplay(file) {
  let text;
  try {
    text = readFileSync(file, 'latin1');
  } catch {
    return NOTHING;
  }
  const m = /^(\d{1,4}) ([01])$/.exec(text);
  return m && Number(m[1]) <= MOST_REPLAYED ? { threads: Number(m[1]), main: m[2] === '1' } : NOTHING;
}

/**
 * Starts what `replay` says with the thread workers' `loader` (cli/run/script-cache.js,
 * workerScript), now (not in a later turn: the run bundle's load comes next): { mainWorker,
 * threadWorkers }, host/program/early-worker.js's workers (mainWorker null where none).
 */
export function startReplayed(replay, loader) {
  nodeWorkers.useThreadWorkerScript(loader);
  return {
    mainWorker: replay.main ? earlyWorkerOf(nodeWorkers) : null,
    threadWorkers: Array.from({ length: replay.threads }, () => earlyWorkerOf(nodeWorkers, { lifeline: true })),
  };
}

/** Ends what startReplayed started (a run that did not take it). */
export function endReplayed(started) {
  for (const worker of [started.mainWorker, ...started.threadWorkers]) worker?.terminate();
}

/** Keeps `now` ({ threads, main }, this run's choice) in `file` where it differs from `was` (what it held). */
export function recordReplay(file, was, now) {
  if (!file || (was.threads === now.threads && was.main === now.main)) return;
  try {
    if (now.threads === 0 && !now.main) {
      unlinkSync(file);
    } else {
      writeHint(file, `${now.threads} ${now.main ? 1 : 0}`);
      if (was.threads === 0 && !was.main) removeOlder(dirname(file), SUFFIX, KEPT_MS);
    }
  } catch { /* only a hint */ }
}
