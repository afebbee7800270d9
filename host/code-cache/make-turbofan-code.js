// `node TURBOFAN_FLAGS host/code-cache/make-turbofan-code.js MODULE.wasm DIR KEY RUN_PID CLAIMED [FLAGS...]`:
// compiles a module with TurboFan, every function, and stores its code in the compiled-code cache
// (DIR, under KEY) stamped for a Node started with FLAGS (those of the `spindle` that started it:
// V8's defaults; the stamp is the header such a Node writes, host/code-cache/defaults-stamp.js),
// so that its later runs load TurboFan's code instead of running Liftoff's (docs/HOST.md,
// "Compiled-code cache"). `spindle run` starts it, detached, when a module's run finds no code
// (it waits for that run, RUN_PID, to end), and `spindle cc` after a link (RUN_PID 0); no run
// waits for it. At the lowest priority: it must not slow the runs that go on meanwhile.
// DIR/KEY.making, a file it holds while it compiles, keeps runs from starting the compile twice;
// CLAIMED is `claimed` where the process that started it took that file for it already
// (claimMarker), else `free`.
import { spawnSync } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { codeCacheAddon } from './addon.js';
import { alive, claimMarker, noteUnmade } from './compile-cached.js';
import { restamp } from './defaults-stamp.js';
import { writeCode } from './store.js';

const { existsSync, readFileSync, rmSync, utimesSync } = process.getBuiltinModule('node:fs');

const PRINT_STAMP = fileURLToPath(new URL('./print-defaults-stamp.js', import.meta.url));

/** The stamp of a Node started with `flags` (host/code-cache/print-defaults-stamp.js), or the reason there is none, as { why }. */
function stampOfNode(flags) {
  const r = spawnSync(process.execPath, [...flags, PRINT_STAMP], { encoding: 'latin1', timeout: 30000 });
  const hex = /^([0-9a-f]{32})\n$/.exec(r.stdout ?? '')?.[1];
  return hex ? Buffer.from(hex, 'hex') : { why: (r.stderr || r.error?.message || `exit ${r.status}`).trim() };
}

/**
 * Compiles `bytes` under this process's flags (TURBOFAN_FLAGS) and stores the code stamped for
 * a Node started with `stampFlags` (stampOfNode) in `dir` under `key`, unless another process
 * holds the key's marker; first waits, holding the marker, until process
 * `runPid` (if given) has ended, so that the compile takes no CPU from the run it was started
 * for. Returns what it did, in words.
 */
export async function makeTurbofanCode(bytes, dir, key, stampFlags, runPid = 0, claimed = false) {
  const marker = join(dir, `${key}.making`);
  // (a marker taken for this maker is its own while it is there; one gone meanwhile, taken again)
  if (!(claimed && existsSync(marker)) && !claimMarker(marker, runPid)) return 'being made by another process';
  try { setPriority(19); } catch { /* the compile runs anyway */ }
  try {
    while (runPid && alive(runPid)) {
      await new Promise((done) => setTimeout(done, 100));
      utimesSync(marker, new Date(), new Date()); // still being made: others keep off
    }
    const { addon, why } = codeCacheAddon();
    if (!addon) return why;
    const stamp = stampOfNode(stampFlags);
    if (!Buffer.isBuffer(stamp)) return `no stamp: ${stamp.why}`;
    const holdEventLoop = setInterval(() => {}, 1 << 30); // (Node 24 exits under a compile otherwise)
    let code;
    try {
      code = addon.serialize(await addon.compile(bytes, null));
    } finally {
      clearInterval(holdEventLoop);
    }
    const stamped = code && restamp(code, stamp);
    if (!stamped) return code ? 'V8 here is not the V8 the stamp came from' : 'V8 serialized nothing';
    return writeCode(addon.sha256, dir, key, stamped) ?? 'stored';
  } finally {
    rmSync(marker, { force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, dir, key, runPid, claimed, ...flags] = process.argv.slice(2);
  const did = await makeTurbofanCode(readFileSync(file), dir, key, flags, Number(runPid), claimed === 'claimed')
    .catch((err) => `failed: ${err?.message ?? err}`);
  // (why no code was stored, for the next run's SPINDLE_DEBUG; another process's make says nothing)
  if (did !== 'being made by another process') noteUnmade(dir, key, did === 'stored' ? null : did);
  if (process.env.SPINDLE_DEBUG) process.stderr.write(`[spindle] TurboFan code for ${file}: ${did}\n`);
}
