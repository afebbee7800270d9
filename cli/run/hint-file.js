// Where `spindle run` keeps what a module's last runs here taught it (cli/run/thread-hint.js: how
// many threads they had; cli/run/compile-hint.js: whether loading TurboFan's code paid off): small
// files in the compiled-code cache's directory, under its owner and mode checks, named by the
// SHA-256 of the module's path, size and mtime, so a rebuilt module starts over as a first run.
import { join } from 'node:path';
import { codeCacheAddon } from '../../host/code-cache/addon.js';
import { defaultCacheDir, unusableReason } from '../../host/code-cache/store.js';

const { realpathSync, renameSync, statSync, writeFileSync } = process.getBuiltinModule('node:fs');

/**
 * The path, less its extension, of module file `wasmPath`'s hints with `codeCache` as
 * `spindle run --code-cache` gave it (true, false or a directory); null where a run keeps none:
 * no cache, no addon, SPINDLE_CODE_CACHE=0, an unusable directory or no such file.
 */
export function hintPath(wasmPath, codeCache) {
  const { addon } = codeCacheAddon();
  if (!codeCache || !addon || process.env.SPINDLE_CODE_CACHE === '0') return null;
  const dir = typeof codeCache === 'string' ? codeCache : defaultCacheDir();
  try {
    const st = statSync(wasmPath);
    if (unusableReason(dir)) return null;
    return join(dir, addon.sha256(Buffer.from(`${realpathSync(wasmPath)}\0${st.size}\0${st.mtimeMs}`)).toString('hex'));
  } catch {
    return null;
  }
}

/** Puts `text` in hint file `file` whole (readers see the old or the new); a failure is ignored: a hint is only a hint. */
export function writeHint(file, text) {
  try {
    writeFileSync(`${file}.${process.pid}`, text, { mode: 0o600 });
    renameSync(`${file}.${process.pid}`, file);
  } catch { /* none kept */ }
}
