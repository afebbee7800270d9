// The V8 stack of Node's main thread, where `spindle run` runs the C main
// (cli/main-thread-choice.js). V8 gives the main thread ~1 MiB and a worker ~3.8 MiB (Node's
// 4 MiB less a guard), and it reads --stack-size only when a thread starts, so bin/spindle starts
// Node with MAIN_STACK_FLAG. This module, bin/spindle's first import, then puts the flag back to
// V8's default: the main thread keeps the stack it started with, and a flag left unlike V8's
// default made every worker boot ~20 ms slower (Node's built-in code cache is checked against
// V8's flags; docs/HOST.md, "Third pass").
import { setFlagsFromString } from 'node:v8';

const MAIN_STACK_KB = 3904;
const V8_DEFAULT_STACK_KB = 984; // V8's default on 64-bit hosts
export const MAIN_STACK_FLAG = `--stack-size=${MAIN_STACK_KB}`;

/** Whether Node's main thread started with a worker's stack. */
export const mainStackAsWorkers = process.execArgv.some((a) => a.startsWith('--stack-size=') && Number(a.slice(13)) >= MAIN_STACK_KB);

if (process.execArgv.some((a) => a.startsWith('--stack-size='))) setFlagsFromString(`--stack-size=${V8_DEFAULT_STACK_KB}`);
