// `spindle run` in Node starts the workers it will need before anything else, so that their
// boots (~30-50 ms of a core each on the 2-core VM) run beside the rest of its start: the
// host's code, the module's compile (docs/HOST.md, "Start-up"): the C main's worker where
// main runs in one, and as many threads' workers as the module's last runs used (two on its
// first run, cli/run/thread-hint.js). Only the arguments are looked at here; cli/run/run.js parses them
// and adopts the workers. Arguments it cannot read mean no early start: cli/run/run.js then says
// what is wrong. What bin/spindle's first module started before the run bundle loaded, replaying
// this command line's last early start (cli/run/early-replay.js), is taken first.
import { startEarlyWorker } from '../../host/program/early-worker.js';
import { cpuCount } from '../../host/platform/node.js';
import { useThreadWorkerScript } from '../../host/program/node-workers.js';
import { mainRunsHere } from './main-thread-choice.js';
import { codeCacheOption, scanRunArgs } from './run-options.js';
import { threadHint } from './thread-hint.js';
import { recordReplay } from './early-replay.js';

/**
 * What was started early for a run: { mainWorker, threadWorkers, hint, scan, workerCode,
 * beforeBundle, compiled, keep } (hint:
 * cli/run/thread-hint.js, or null; scan: the arguments' scan, which cli/run/run.js reads again,
 * or null where they did not read; workerCode(): whether thread workers got their bundle's kept
 * code, 'hit' or 'miss', null where none started from the bundle; beforeBundle: how many of the
 * threads' workers bin/spindle's first module started, cli/run/early-replay.js).
 * compiled: the lazy compile bin/spindle's first module started ({ path, bytes, module },
 * early-replay.js's compileReplayed) or null; keep(lazy): keeps this start's choice for the
 * command line's next run, with `lazy` the absolute path of the module where this run compiled
 * it lazily (null: not).
 */
export const NOTHING_EARLY = Object.freeze({ mainWorker: null, threadWorkers: [], hint: null, scan: null, workerCode: () => null, beforeBundle: 0,
  compiled: null, keep: () => {} });

/** The module's path, --code-cache and --max-threads from a scan of a Node run's arguments, or null. */
function moduleWords(argv, scan) {
  if (scan.help || scan.index >= argv.length || scan.options.some((o) => o.flag === '--browser')) return null;
  const last = (flag) => scan.options.findLast((o) => o.flag === flag)?.value;
  const cache = last('--code-cache');
  const maxThreads = Number(last('--max-threads') ?? Infinity);
  return {
    wasm: argv[scan.index],
    codeCache: cache === undefined ? true : codeCacheOption(cache),
    maxThreads: Number.isInteger(maxThreads) && maxThreads > 0 ? maxThreads : Infinity,
  };
}

/**
 * Starts what a Node run of `spindle run argv` will need; nothing for a browser run, help or bad
 * arguments. `threadWorker`: how thread workers run the thread worker's bundle, where not from
 * the host's modules (cli/run/script-cache.js, workerScript). `replay`: { file, was, started },
 * what this command line's last run started early and what bin/spindle's first module started
 * from it (cli/run/early-replay.js): those workers are taken first, those not needed ended, and
 * this run's choice is kept in `file` for the next.
 */
export async function earlyStart(argv, { threadWorker, replay = null } = {}) {
  if (threadWorker) useThreadWorkerScript(threadWorker);
  const workerCode = threadWorker ? () => threadWorker.given() : NOTHING_EARLY.workerCode;
  const nothing = threadWorker ? { ...NOTHING_EARLY, workerCode } : NOTHING_EARLY;
  const { mainWorker: startedMain = null, threadWorkers: startedThreads = [] } = replay?.started ?? {};
  // (what is kept waits for the run's compile choice where it goes on to one: keep)
  const choose = (main, threads) => {
    if (!main) startedMain?.terminate();
    for (const worker of startedThreads.slice(threads)) worker.terminate();
    return (lazy = null) => recordReplay(replay?.file, replay?.was, { threads, main, lazy });
  };
  let scan;
  try {
    scan = scanRunArgs(argv);
  } catch {
    choose(false, 0)();
    return nothing; // (run.js scans again and says what is wrong)
  }
  const words = moduleWords(argv, scan);
  if (!words) {
    choose(false, 0)();
    return { ...nothing, scan };
  }
  // (main's worker first: it is the one main waits for)
  const main = !mainRunsHere(argv);
  const mainWorker = !main ? null : startedMain ?? startEarlyWorker();
  const hint = threadHint(words.wasm, words.codeCache, cpuCount());
  const count = Math.min(hint.workers, words.maxThreads);
  const keep = choose(main, count);
  const adopted = startedThreads.slice(0, count);
  const threadWorkers = [...adopted,
    ...await Promise.all(Array.from({ length: count - adopted.length }, () => startEarlyWorker({ lifeline: true })))];
  return { mainWorker: await mainWorker, threadWorkers, hint, scan, workerCode, beforeBundle: adopted.length,
    compiled: replay?.compiled ?? null, keep };
}

/** Ends every worker `early` holds (a run that does not take them). */
export function terminateEarly(early) {
  early.mainWorker?.terminate();
  for (const worker of early.threadWorkers) worker.terminate();
}
