// How a bench starts `spindle`: with the V8 flags of bin/spindle's first line (CLI_NODE_FLAGS,
// cli/common/v8-start.js), as a user's `spindle run` starts. `node bin/spindle` alone runs under V8's
// defaults (Liftoff, dynamic tiering, lazy compilation) and misses the compiled-code cache, so a
// bench that started it so measured code users never run.
import { join } from 'node:path';
import { CLI_NODE_FLAGS } from '../cli/common/v8-start.js';

export const SPINDLE = join(import.meta.dirname, '..', 'bin', 'spindle');

/** The arguments for process.execPath that run `spindle ...args` as bin/spindle does. */
export const spindleArgs = (...args) => [...CLI_NODE_FLAGS, SPINDLE, ...args];
