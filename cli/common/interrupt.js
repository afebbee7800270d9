// SIGINT, SIGTERM and SIGHUP to the CLI: what a command started (a browser, a child run) is
// ended first, then the CLI dies of the same signal, so a shell sees it as interrupted. Commands
// register their cleanups; without any, Node's default (die at once) stays in place.
import { constants } from 'node:os';

const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const cleanups = new Set();
const CLEANUP_LIMIT_MS = 5000; // a cleanup that hangs must not keep the CLI alive
let interrupted = false;

async function onSignal(signal) {
  if (interrupted) return;
  interrupted = true;
  const limit = new Promise((resolve) => { setTimeout(resolve, CLEANUP_LIMIT_MS).unref(); });
  await Promise.race([Promise.allSettled([...cleanups].map(async (cleanup) => cleanup())), limit]);
  for (const s of signals) process.removeListener(s, onSignal);
  process.kill(process.pid, signal); // the default action again: die of it
  setTimeout(() => process.exit(128 + constants.signals[signal]), 1000).unref();
}

/** Runs `cleanup` (may be async) if the CLI is interrupted; returns a function that forgets it. */
export function onInterrupt(cleanup) {
  if (cleanups.size === 0) for (const s of signals) process.on(s, onSignal);
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
    if (cleanups.size === 0 && !interrupted) for (const s of signals) process.removeListener(s, onSignal);
  };
}
