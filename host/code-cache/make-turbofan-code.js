// `node host/code-cache/make-turbofan-code.js MODULE.wasm [CACHE_DIR]`: compiles a module with
// TurboFan only and stores its code in the compiled-code cache (docs/HOST.md, "Compiled-code
// cache"). `spindle run` starts it, detached, after a run of a module big enough for Liftoff +
// tiering, so that later runs load TurboFan's code instead of running Liftoff's, and no run waits
// for the compile. At the lowest priority: it must not slow the runs that go on meanwhile.
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { compileModule } from '../compilation.js';
import { turbofanTiers } from '../wasm-tiers.js';

const [file, dir] = process.argv.slice(2);
try { setPriority(19); } catch { /* the compile runs anyway */ }
process.env.SPINDLE_WASM_TIERS = turbofanTiers();
await compileModule(readFileSync(file), 'eager', dir || true);
