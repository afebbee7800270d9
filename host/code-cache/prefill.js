// `node host/code-cache/prefill.js MODULE.wasm`: puts a module's compiled code in the cache
// before its first run. `spindle cc` starts it, detached and at the lowest priority, after it
// links a module for Spindle's host, so that the module's first `spindle run` on this machine
// and Node finds TurboFan's code (docs/HOST.md, "Compiled-code cache"). It compiles as a run
// does, through the same code: a small module eagerly with TurboFan, stored; a big one on Node
// 22 and 24 also with TurboFan only, as make-turbofan-code.js does after a first run.
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { compileModule } from '../compilation.js';
import { makeTurbofanCode } from './make-turbofan-code.js';

const [file] = process.argv.slice(2);
try { setPriority(19); } catch { /* the compile runs anyway */ }
const bytes = readFileSync(file);
const { turbofanCodeToMake } = await compileModule(bytes, 'auto', true);
if (turbofanCodeToMake) await makeTurbofanCode(bytes, '', turbofanCodeToMake);
