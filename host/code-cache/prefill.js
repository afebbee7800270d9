// `node FLAGS host/code-cache/prefill.js MODULE.wasm`, FLAGS those of `spindle`'s runs
// (cli/common/v8-start.js, CLI_NODE_FLAGS): puts a module's compiled code in the cache before its first
// run. `spindle cc` starts it, detached and at the lowest priority, after it links a module for
// Spindle's host, so that the module's first `spindle run` on this machine and Node finds
// TurboFan's code (docs/HOST.md, "Compiled-code cache"). It compiles as a run does, through the
// same code, at every size.
import { setPriority } from 'node:os';
import { compileModule } from '../compile/compilation.js';

const { readFileSync } = process.getBuiltinModule('node:fs');

const [file] = process.argv.slice(2);
try { setPriority(19); } catch { /* the compile runs anyway */ }
await compileModule(readFileSync(file), 'auto', true);
