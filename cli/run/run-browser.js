// `spindle run --browser[=NAME]`: one job in a BrowserSession, with the terminal's stdin, stdout and
// stderr; returns the program's exit code. runBrowserJob is that job in a session and with stdio
// of the caller's (tests/programs.test.js runs many in one browser).
import { availableParallelism } from 'node:os';
import { seekHostFile, writeAllSync } from '../../host/platform/node.js';
import { readHostFdAt, truncateHostFd, writeHostFdAt } from '../../host/platform/positioned-stdio.js';
import { describeHostFd } from '../../host/platform/stdio-info.js';
import { BrowserSession } from '../browser/browser-session.js';
import { openProfileCache } from '../browser/chromium-code-cache.js';
import { refuseInBrowser } from '../browser/browsers.js';
import { programOptions } from './run-options.js';
import { NO_THREAD_HINT, threadHint } from './thread-hint.js';

const { readSync } = process.getBuiltinModule('node:fs');

/**
 * Standard input of the CLI, handed out on request: up to `max` bytes, empty at end of input.
 * A request whose `signal` aborts while it waits gets nothing and takes nothing. A request with
 * a position reads a stdin that is a regular file there (the program may lseek it).
 */
function terminalStdin() {
  const chunks = [];
  let ended = false;
  let started = false;
  const waiting = [];
  const wake = () => { while (waiting.length) waiting.shift()(); };
  // requests take input in the order they came: one that gave up while its close was still on
  // its way cannot take a line that an earlier one waits for
  const queue = [];
  return async function read(max, signal, position) {
    if (position !== undefined) {
      const buf = Buffer.alloc(max);
      return buf.subarray(0, readSync(0, buf, 0, max, position));
    }
    if (!started) {
      started = true;
      // (handed out after the I/O events already in: a request whose client gave up just before
      // has its close seen first, and takes nothing)
      process.stdin.on('data', (c) => { chunks.push(c); setImmediate(wake); });
      process.stdin.on('end', () => { ended = true; wake(); });
      process.stdin.on('error', () => { ended = true; wake(); });
    }
    const turn = {};
    queue.push(turn);
    try {
      while (!(queue[0] === turn && (chunks.length > 0 || ended)) && !signal?.aborted) {
        await new Promise((r) => { waiting.push(r); signal?.addEventListener('abort', r, { once: true }); });
      }
    } finally {
      queue.splice(queue.indexOf(turn), 1);
      wake(); // the next in line may go on
    }
    if (chunks.length === 0 || signal?.aborted) return Buffer.alloc(0);
    const head = chunks.shift();
    if (head.length > max) chunks.unshift(head.subarray(max));
    return head.subarray(0, max);
  };
}

/**
 * What a BrowserSession for the run `opts` (parseRunArgs) opens with: { options } for
 * BrowserSession.open, and `cache`, the page code cache ({ dir } or { why } it is off). Refuses
 * what the browser cannot do before any browser starts.
 */
export function browserSessionOptions(opts) {
  // What this browser cannot do is refused before it starts: --compile outside Chromium, OPFS
  // mounts in WebKitGTK (cli/browser/browsers.js).
  refuseInBrowser(opts.browser, opts);
  // A page cannot set V8's flags, so --compile reaches Chromium as --js-flags; auto keeps its
  // defaults (lazy, with dynamic tiering, as a user's page gets).
  const jsFlags = opts.compilation === 'eager' ? ['--no-wasm-lazy-compilation'] : [];
  // Chromium keeps a module's optimized code in the profile's caches, which a per-user directory
  // keeps between runs (cli/browser/chromium-code-cache.js; --code-cache=off, SPINDLE_CODE_CACHE=0: not)
  const cache = opts.browser === 'chromium' ? openProfileCache(opts.codeCache) : { why: `off: ${opts.browser} is not Chromium` };
  // V8 hands a module's optimized code to the cache two seconds after its last optimizing compile
  // by default, which never happened in headless Chromium 156 (docs/HOST.md, "Cached code in
  // pages"); with the timer off it does, each time 1,000 more bytes of it are made.
  if (cache.dir) jsFlags.push('--wasm-caching-timeout-ms=0');
  // With that cache, and V8's own choice of when to compile (--compile=auto), every function is
  // optimized from the module's compile on, so that its next runs start with optimized code
  // (cli/browser/optimize-hints.js)
  const optimizeHints = Boolean(cache.dir) && (opts.compilation ?? 'auto') === 'auto';
  if (optimizeHints) jsFlags.push('--wasm-compilation-hints');
  return { options: { browser: opts.browser, jsFlags, codeCache: cache.dir ?? null, optimizeHints }, cache };
}

/**
 * Runs the program of `opts` (parseRunArgs) as one job of `session`, with the stdio of `io`:
 * BrowserSession.run's write(fd, bytes) and readStdin, and where the stdio are real fds its
 * describeStdio, seekOutput, readStdioAt, writeStdioAt and truncateStdio. A trap's message goes
 * to write(2) as `spindle: TRAP`. Resolves the exit code; rejects as session.run does (the
 * module could not run, the browser or its page failed). `hint` (cli/run/thread-hint.js): the
 * threads' workers the page starts while it compiles, as `spindle run` does in Node; none without.
 */
/** The threads' workers a run starts early: the hint's, within --max-threads. */
const earlyWorkerCount = (hint, opts) => Math.min(hint.workers, opts.maxThreads ?? Infinity);

export async function runBrowserJob(session, opts, io, hint = NO_THREAD_HINT) {
  const { write, readStdin, describeStdio, seekOutput, readStdioAt, writeStdioAt, truncateStdio } = io;
  const result = await session.run(opts.wasm, {
    ...programOptions(opts), write, readStdin, describeStdio, seekOutput, readStdioAt, writeStdioAt, truncateStdio,
    threadWorkers: earlyWorkerCount(hint, opts), waitForThreadWorkers: hint.last !== undefined,
  });
  hint.record(result.workersUsed);
  if (result.trap) write(2, Buffer.from(`spindle: ${result.trap}\n`)); // escaped by the session
  return result.exitCode;
}

export async function runInBrowser(opts) {
  const { options, cache } = browserSessionOptions(opts);
  if (process.env.SPINDLE_DEBUG) process.stderr.write(`[spindle] page code cache: ${cache.dir ?? cache.why}\n`);
  const session = await BrowserSession.open(options);
  // the module's runs here, with the same cache setting, used this many threads at once
  const hint = threadHint(opts.wasm, opts.codeCache, availableParallelism());
  if (process.env.SPINDLE_DEBUG) {
    process.stderr.write(`[spindle] threads' workers started early: ${earlyWorkerCount(hint, opts)} (${
      hint.last === undefined ? 'no runs of the module known here' : `its last runs here used ${hint.last.join(', ')}`})\n`);
  }
  try {
    const exitCode = await runBrowserJob(session, opts, {
      write: (fd, bytes) => writeAllSync(fd, bytes),
      seekOutput: seekHostFile, // lseek of a stdout or stderr that is a regular file
      readStdioAt: readHostFdAt, // pread, pwrite and ftruncate of fds 0-2 (the CLI's are the program's)
      writeStdioAt: writeHostFdAt,
      truncateStdio: truncateHostFd,
      readStdin: terminalStdin(),
      describeStdio: describeHostFd, // what the program's fstat and /proc/self/fd report
    }, hint);
    const kept = await session.awaitCodeCache(opts.wasm);
    if (kept && process.env.SPINDLE_DEBUG) {
      process.stderr.write(`[spindle] page code cache: ${kept.written ? 'V8 stored code' : 'nothing stored'} (waited ${Math.round(kept.waitedMs)} ms), origin ${session.origin}\n`);
    }
    return exitCode;
  } finally {
    await session.close();
    process.stdin.destroy();
  }
}
