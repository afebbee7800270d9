// Whether a module started threads the last time `spindle run` ran it here. Where it did, the
// next run starts the first thread's worker before it loads the host, so the worker boots
// beside the host's loading and the compile instead of after main's first pthread_create (docs/
// HOST.md, "Start-up"); a run without threads must not pay for that worker, so it is kept for
// modules that use it. One empty file per module in the compiled-code cache's directory (the
// same owner and mode checks), named by the SHA-256 of the module's path, size and mtime: a
// rebuilt module starts without a hint.
import { realpathSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeCacheAddon } from '../host/code-cache/addon.js';
import { defaultCacheDir, unusableReason } from '../host/code-cache/store.js';

const NO_HINT = { expected: false, record: () => {} };

/**
 * The hint for module file `wasmPath`, with `codeCache` as `spindle run --code-cache` gave it
 * (true, false or a directory): { expected, record(threadsStarted) }. `record` keeps or drops the
 * hint after the run. A run without the cache, or without the addon, has no hint.
 */
export function threadHint(wasmPath, codeCache) {
  const { addon } = codeCacheAddon();
  if (!codeCache || !addon || process.env.SPINDLE_CODE_CACHE === '0') return NO_HINT;
  const dir = typeof codeCache === 'string' ? codeCache : defaultCacheDir();
  let file;
  try {
    const st = statSync(wasmPath);
    if (unusableReason(dir)) return NO_HINT;
    const name = addon.sha256(Buffer.from(`${realpathSync(wasmPath)}\0${st.size}\0${st.mtimeMs}`)).toString('hex');
    file = join(dir, `${name}.threads`);
  } catch {
    return NO_HINT;
  }
  let expected = false;
  try { expected = statSync(file).isFile(); } catch { /* no hint yet */ }
  return {
    expected,
    record(threadsStarted) {
      try {
        if (threadsStarted && !expected) writeFileSync(file, '', { mode: 0o600 });
        else if (!threadsStarted && expected) unlinkSync(file);
      } catch { /* a hint is only a hint */ }
    },
  };
}
