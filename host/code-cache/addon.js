// The code cache's addon (addon/wasm_code_cache.cpp), built per Node ABI by
// scripts/build-code-cache-addon.sh, because it uses V8's own API, which changes between Node
// majors. Optional: where it is not built for this Node or cannot load, modules compile as before.

import { loadAddon } from '../platform/load-addon.js';

// (Node's built-ins by getBuiltinModule: bin/spindle's start loads this before any cache is on)
const { fileURLToPath } = process.getBuiltinModule('node:url');

const addonFile = () => fileURLToPath(new URL(
  `../../.toolchain/code-cache-addon/abi-${process.versions.modules}/wasm_code_cache.node`, import.meta.url));

let loaded;
/** { addon: { compile, serialize } } or { addon: null, why } where this Node has none. */
export function codeCacheAddon() {
  if (loaded === undefined) {
    try {
      loaded = { addon: loadAddon(addonFile()) };
    } catch (err) {
      loaded = { addon: null, why: `no addon for this Node (ABI ${process.versions.modules}): ${err.code ?? err.message}` };
    }
  }
  return loaded;
}
