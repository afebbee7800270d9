// The early start of a command line, replayed (docs/HOST.md, "Fifteenth pass"). A run's early
// start (cli/run/run-early.js) chooses the workers it starts only once the run bundle has loaded
// (~10 ms into Spindle's part of a start on the 2-core VM), and a thread worker's boot (~25 ms of
// a core) was what main waited for in a threaded program's later runs. So a run keeps what it
// started, and bin/spindle's first module (cli/boot.js) starts the same workers for the same
// command line before it loads the run bundle; the run adopts them, starts what is missing, ends
// what it does not need, and keeps its own choice for the next run.
// A run that compiled its module lazily (a short program, cli/run/compile-hint.js) has it
// compiled early too: bin/spindle's first module reads the module and starts WebAssembly.compile,
// whose validation then runs on V8's threads while the run bundle loads (HOST.md, "Seventeenth
// pass"); the run takes that module where it compiles the same bytes lazily again.
// One small file per working directory and arguments, in the run bundle's checked cache folder,
// named by a short hash of both: "THREADS MAIN" (MAIN 1 where the C main's worker starts early),
// then, on a line of its own, the absolute path of a module compiled lazily. No file where
// nothing starts early.
import { earlyWorkerOf } from '../../host/program/early-worker.js';
import * as nodeWorkers from '../../host/program/node-workers.js';
import { removeOlder } from '../../host/code-cache/store.js';
import { shortHash } from '../common/short-hash.js';
import { writeHint } from './hint-file.js';

const { readFileSync, unlinkSync } = process.getBuiltinModule('node:fs');
const { dirname, isAbsolute, join } = process.getBuiltinModule('node:path');

// (a file that asks for more is no replay: the run's own choice is capped by the cores)
const MOST_REPLAYED = 64;
const NOTHING = Object.freeze({ threads: 0, main: false, lazy: null });
// A file not written for this long is removed when another command line's is first written: a
// command line run once (a program's arguments change often) leaves no file for good.
const KEPT_MS = 30 * 24 * 60 * 60 * 1000;
const SUFFIX = '.early';

/** The replay file of `args` run here, in the checked folder `dir`; null without one. */
export function replayFile(dir, args) {
  return dir ? join(dir, `${shortHash(`${process.cwd()}\0${args.join('\0')}`)}${SUFFIX}`) : null;
}

/**
 * What `file` says to start: { threads, main, lazy }, `lazy` the module to compile early or null;
 * nothing where it is missing or not a replay.
 */
export function readReplay(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return NOTHING;
  }
  const m = /^(\d{1,4}) ([01])(?:\n([^\n\0]+))?$/.exec(text);
  if (!m || Number(m[1]) > MOST_REPLAYED || (m[3] !== undefined && !isAbsolute(m[3]))) return NOTHING;
  return { threads: Number(m[1]), main: m[2] === '1', lazy: m[3] ?? null };
}

/**
 * Starts the lazy compile `replay` says, now: { path, bytes, module }, `module` a promise of the
 * WebAssembly.Module (never an unhandled rejection: its taker awaits it and sees any error), or
 * null where there is none or the module cannot be read.
 */
export function compileReplayed(replay) {
  if (!replay.lazy) return null;
  let bytes;
  try {
    bytes = readFileSync(replay.lazy);
  } catch {
    return null; // (the run says what is wrong with it)
  }
  const module = WebAssembly.compile(bytes);
  module.catch(() => {});
  return { path: replay.lazy, bytes, module };
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

/**
 * Keeps `now` ({ threads, main, lazy }, this run's choice) in `file` where it differs from `was`
 * (what it held).
 */
export function recordReplay(file, was, now) {
  // (a path with a line break in it cannot be kept on its line)
  const lazy = now.lazy && !/[\n\0]/.test(now.lazy) ? now.lazy : null;
  if (!file || (was.threads === now.threads && was.main === now.main && was.lazy === lazy)) return;
  const empty = (r) => r.threads === 0 && !r.main && !r.lazy;
  try {
    if (empty(now)) {
      unlinkSync(file);
    } else {
      writeHint(file, `${now.threads} ${now.main ? 1 : 0}${lazy ? `\n${lazy}` : ''}`);
      if (empty(was)) removeOlder(dirname(file), SUFFIX, KEPT_MS);
    }
  } catch { /* only a hint */ }
}
