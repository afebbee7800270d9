// How a bench starts `spindle`: with the V8 flags bin/spindle's Node has (CLI_NODE_FLAGS,
// cli/common/v8-start.js: none), as a user's `spindle run` starts; code cached for other flags
// would never be a hit. And what a bench waits for before it measures runs of a module: its
// TurboFan code, which `spindle cc` has made in the background after the link (or not, for a
// module built earlier).
import { join } from 'node:path';
import { CLI_NODE_FLAGS } from '../cli/common/v8-start.js';
import { makersDone, prefillCodeCache } from '../cli/common/turbofan-maker.js';
import { defaultCacheDir } from '../host/code-cache/store.js';

export const SPINDLE = join(import.meta.dirname, '..', 'bin', 'spindle');

/** The arguments for process.execPath that run `spindle ...args` as bin/spindle does. */
export const spindleArgs = (...args) => [...CLI_NODE_FLAGS, SPINDLE, ...args];

/** Has the TurboFan code of `wasms` made where the default cache lacks it, and waits until it is. */
export async function codeMadeFor(...wasms) {
  for (const wasm of wasms) await prefillCodeCache(wasm);
  await makersDone(defaultCacheDir());
}
