// `spindle run --browser`: one job in a BrowserSession, with the terminal's stdin, stdout and
// stderr; returns the program's exit code.
import { writeAllSync } from '../host/platform/node.js';
import { BrowserSession } from './browser-session.js';

/** Standard input of the CLI, handed out on request: up to `max` bytes, empty at end of input. */
function terminalStdin() {
  const chunks = [];
  let ended = false;
  let started = false;
  const waiting = [];
  const wake = () => { while (waiting.length) waiting.shift()(); };
  return async function read(max) {
    if (!started) {
      started = true;
      process.stdin.on('data', (c) => { chunks.push(c); wake(); });
      process.stdin.on('end', () => { ended = true; wake(); });
      process.stdin.on('error', () => { ended = true; wake(); });
    }
    while (chunks.length === 0 && !ended) await new Promise((r) => waiting.push(r));
    if (chunks.length === 0) return Buffer.alloc(0);
    const head = chunks.shift();
    if (head.length > max) chunks.unshift(head.subarray(max));
    return head.subarray(0, max);
  };
}

export async function runInBrowser(opts) {
  // A page cannot set V8's flags, so --compile reaches Chromium as --js-flags; auto keeps its
  // defaults (lazy, with dynamic tiering, as a user's page gets).
  const jsFlags = opts.compilation === 'eager' ? ['--no-wasm-lazy-compilation'] : [];
  const session = await BrowserSession.open({ jsFlags });
  try {
    const result = await session.run(opts.wasm, {
      args: opts.args, env: opts.env, poolSize: opts.poolSize, waitForPool: opts.waitForPool, preload: opts.preloadBytes, mounts: opts.mounts,
      write: (fd, bytes) => writeAllSync(fd, bytes),
      readStdin: terminalStdin(),
    });
    if (result.trap) process.stderr.write(`spindle: ${result.trap}\n`);
    return result.exitCode;
  } finally {
    await session.close();
    process.stdin.destroy();
  }
}
