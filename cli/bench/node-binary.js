// `spindle bench --node-bin=PATH`: the whole command again under another Node binary, so that
// everything it starts with Node (each `spindle run`, the suites' runners, the npm WASI host)
// runs on that version, e.g. the LTS setup puts in .toolchain/node-VERSION (docs/PERFORMANCE.md).
import { execFileSync, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { join } from 'node:path';
import { onInterrupt } from '../common/interrupt.js';
import { CLI_NODE_FLAGS } from '../common/v8-start.js';
import { root } from '../common/toolchain.js';

const { realpathSync } = process.getBuiltinModule('node:fs');

/** True when `nodeBin` is the Node running now; throws a clear error if it is no Node at all. */
export function isCurrentNode(nodeBin) {
  let version;
  try {
    version = execFileSync(nodeBin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch (err) {
    throw new Error(`--node-bin=${nodeBin}: cannot run it (${err.code ?? err.message})`);
  }
  if (!/^v\d+\./.test(version)) throw new Error(`--node-bin=${nodeBin}: not a Node binary (it printed '${version.split('\n')[0].slice(0, 40)}')`);
  return realpathSync(nodeBin) === realpathSync(process.execPath);
}

/** Runs `spindle ...argv` with `nodeBin`, output passed through; resolves with its exit status. */
export function rerunWithNode(nodeBin, argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBin, [...CLI_NODE_FLAGS, join(root, 'bin', 'spindle'), ...argv], { stdio: 'inherit' });
    const forget = onInterrupt(() => child.kill('SIGTERM'));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      forget();
      resolve(code ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}
