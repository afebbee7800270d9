// `spindle run --browser[=NAME] ...` as a job in a browser that stays open (cli/run/run-browser.js's
// runBrowserJob in a BrowserSession), with in-memory stdio: one launch of each browser serves a
// whole suite instead of one per program (tests/programs.test.js, tests/fs-programs.test.js,
// tests/rust.test.js; issue 38, CI's time). The session opens with what the CLI gives that run
// (browserSessionOptions) except for the page code cache, which it keeps none of
// (tests/page-code-cache.test.js tests that), and its page reloads after each job, so no job
// finds what an earlier one left (workers, module state; the host's modules come from the
// browser's cache then, cli/browser/browser-session.js); no job mounts OPFS, whose files would
// outlive the page.
import { BrowserSession } from '../../cli/browser/browser-session.js';
import { parseRunArgs } from '../../cli/run/run.js';
import { browserSessionOptions, runBrowserJob } from '../../cli/run/run-browser.js';

// A job that has not ended by then fails its test, as tests/lib/exec.js kills a CLI run then; its
// session is closed and the next job gets a new one.
const JOB_TIMEOUT_MS = 120000;

/** Sessions with the same options, at most `size` open; a failed one is closed, not reused. */
class SessionPool {
  #options; #size; #count = 0; #free = []; #waiting = []; #opening = new Set(); #open = new Set();

  constructor(options, size) { this.#options = options; this.#size = size; }

  #start() {
    this.#count++;
    const opening = BrowserSession.open(this.#options);
    this.#opening.add(opening);
    opening.then((session) => this.#open.add(session), () => {
      this.#count--;
      this.#startForWaiter(); // (which fails as this one did, or serves it)
    }).finally(() => this.#opening.delete(opening));
    return opening;
  }

  #startForWaiter() {
    const waiter = this.#waiting.shift();
    if (waiter) waiter(this.#start());
  }

  take() {
    while (this.#free.length) {
      const session = this.#free.pop();
      if (!session.failed) return session;
      this.drop(session); // its browser ended between jobs
    }
    if (this.#count < this.#size) return this.#start();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  give(session) {
    const waiter = this.#waiting.shift();
    if (waiter) waiter(session);
    else this.#free.push(session);
  }

  /** A session that failed or hangs: closed; a job waiting for one gets a new one. */
  drop(session) {
    this.#open.delete(session);
    this.#count--;
    session.close().catch(() => {});
    this.#startForWaiter();
  }

  async close() {
    await Promise.allSettled(this.#opening);
    await Promise.all([...this.#open].map((session) => session.close().catch(() => {})));
    this.#open.clear();
  }
}

/** A stdin that holds `input` (a closed pipe after it), as tests/lib/exec.js gives a CLI run. */
function stdinOf(input) {
  let rest = Buffer.from(input ?? '');
  return async (max, signal) => {
    if (signal?.aborted) return Buffer.alloc(0); // a request that gave up takes nothing
    const head = rest.subarray(0, max);
    rest = rest.subarray(head.length);
    return head;
  };
}

/**
 * Runs `spindle run` jobs (runArgs: what follows `run`, with --browser[=NAME]) in browsers kept
 * open, `sessionsPerBrowser` of each at most. close() ends them all.
 */
export class BrowserJobs {
  #pools = new Map(); #size;

  constructor({ sessionsPerBrowser = 1 } = {}) { this.#size = sessionsPerBrowser; }

  /**
   * { code, stdout, stderr } as tests/lib/exec.js gives them for `spindle run ...runArgs`;
   * timeoutMs as exec's, for a test that fails a hang sooner.
   */
  async run(runArgs, { input = '', timeoutMs = JOB_TIMEOUT_MS } = {}) {
    const opts = parseRunArgs(runArgs);
    // (--preload is packed by cli/run/run.js; OPFS is the origin's, so one job's files would
    // outlive its page: such runs go through the CLI)
    if (opts.preload.length || opts.mounts.length) throw new Error('BrowserJobs: --preload and --mount runs go through the CLI');
    // the CLI's launch for this run (browser, V8 flags), without the page code cache: a cache
    // would add --wasm-caching-timeout-ms=0 and a profile shared between runs, which
    // tests/page-code-cache.test.js covers
    const { options } = browserSessionOptions({ ...opts, codeCache: false });
    const key = JSON.stringify(options);
    if (!this.#pools.has(key)) this.#pools.set(key, new SessionPool({ ...options, freshPage: true }, this.#size));
    const pool = this.#pools.get(key);
    const session = await pool.take();
    const out = [];
    const err = [];
    const io = { write: (fd, bytes) => { (fd === 1 ? out : err).push(Buffer.from(bytes)); return true; }, readStdin: stdinOf(input) };
    const hung = new Error(`the job did not end within ${timeoutMs / 1000} s`);
    let timer;
    const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(hung), timeoutMs); });
    let code;
    try {
      code = await Promise.race([runBrowserJob(session, opts, io), timeout]);
      pool.give(session);
    } catch (error) {
      // the page's own report (the module could not run) ends the CLI as bin/spindle ends it;
      // the browser's or the page's failure, or a hang, fails the test
      if (session.failed || error === hung) {
        pool.drop(session);
        throw new Error(`${session.failed ?? error.message} (a new browser serves the next job)`);
      }
      pool.give(session);
      err.push(Buffer.from(`spindle: ${error.message}\n`));
      code = 1;
    } finally {
      clearTimeout(timer);
    }
    // (the CLI's process.exit(code): its parent sees the low 8 bits)
    return { code: code & 0xff, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
  }

  async close() {
    await Promise.all([...this.#pools.values()].map((pool) => pool.close()));
    this.#pools.clear();
  }
}
