// `node FLAGS host/code-cache/make-turbofan-code.js MODULE.wasm CACHE_DIR|'' MARKER [RUN_PID]`, FLAGS
// those of `spindle`'s runs (cli/common/v8-start.js, CLI_NODE_FLAGS): compiles a module with TurboFan
// only and stores its code in the compiled-code cache (docs/HOST.md, "Compiled-code cache"). `spindle run` starts it, detached, after a run of a module big enough
// for Liftoff + tiering, so that later runs load TurboFan's code instead of running Liftoff's,
// and no run waits for the compile. At the lowest priority: it must not slow the runs that go on
// meanwhile. MARKER, a file it holds while it compiles, keeps runs from starting the compile twice.
import { setPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import { compileModule } from '../compile/compilation.js';
import { beingMade } from './compile-cached.js';

const { closeSync, openSync, readFileSync, rmSync, utimesSync } = process.getBuiltinModule('node:fs');

/** Takes `marker` for this process; false where another process holds it. */
function claim(marker) {
  try {
    closeSync(openSync(marker, 'wx', 0o600));
    return true;
  } catch (err) {
    if (err.code !== 'EEXIST' || beingMade(marker)) return false;
    utimesSync(marker, new Date(), new Date()); // a dead maker's
    return true;
  }
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/** Compiles `bytes` under this process's flags (TurboFan only, eagerly) and stores the code in
 * `dir` ('' for the default), unless another process holds `marker`; first waits, holding the
 * marker, until process `runPid` (if given) has ended, so that the compile takes no CPU from
 * the run it was started for. */
export async function makeTurbofanCode(bytes, dir, marker, runPid = 0) {
  if (!claim(marker)) return;
  try { setPriority(19); } catch { /* the compile runs anyway */ }
  try {
    while (runPid && alive(runPid)) {
      await new Promise((done) => setTimeout(done, 100));
      utimesSync(marker, new Date(), new Date()); // still being made: others keep off
    }
    await compileModule(bytes, 'eager', dir || true);
  } finally {
    rmSync(marker, { force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, dir, marker, runPid] = process.argv.slice(2);
  await makeTurbofanCode(readFileSync(file), dir, marker, Number(runPid ?? 0));
}
