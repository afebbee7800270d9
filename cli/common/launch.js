// What every start of a command does around it: the version's check, Node's module cache, an exit
// status for every ending (what a start reads of its command line before: command-line.js).
// `spindle run` in Node gets here from the run bundle's kept code (cli/boot.js,
// cli/run/run-entry.js); every other command, and a run without current bundles, from the
// modules (cli/launch.js).
import { nodeTooOld } from './node-version.js';
import { enableJsCompileCache } from './js-compile-cache.js';
import { exitWith } from './exit-status.js';
import { readableStack } from './readable-stack.js';

/**
 * Runs `command()` (a promise of an exit code) and exits with its status (exit-status.js).
 * `jsCache`: jsCacheFor's folder; `fromBundle`: whether the run bundle runs it, which loads no
 * module on this thread, so Node's module cache is only handed to its workers.
 */
export function launch(command, jsCache, { fromBundle = false } = {}) {
  const tooOld = nodeTooOld();
  if (tooOld) {
    process.stderr.write(`spindle: ${tooOld}\n`);
    process.exit(1);
  }
  // Node's module cache is on in this thread where Node found NODE_COMPILE_CACHE at its start,
  // or where it is turned on here (before the CLI's modules load: they are what it keeps)
  const moduleCacheHere = process.env.NODE_COMPILE_CACHE !== undefined || (!fromBundle && jsCache !== null);
  enableJsCompileCache(process.env, jsCache, { thisThread: !fromBundle });
  const exit = (code) => exitWith(code, { moduleCacheHere });

  // Node exits 0 once nothing is left to wait on, even while a command's promise is pending
  // (Node 24 did so during a compile, docs/HOST.md). A command that never finished must not pass
  // for one that succeeded.
  process.on('beforeExit', () => {
    process.stderr.write('spindle: internal error: Node had nothing left to wait on before the command finished\n');
    exit(1);
  });
  command().then(
    (code) => exit(code ?? 0),
    (err) => {
      process.stderr.write(`spindle: ${err && err.message ? err.message : err}\n`);
      if (process.env.SPINDLE_DEBUG) process.stderr.write(`${readableStack(err.stack)}\n`);
      exit(1);
    },
  );
}
