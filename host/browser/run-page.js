// The page that `spindle run --browser` and `spindle bench --browser` open. It asks the CLI's
// server for jobs (job), runs each module with its arguments, and reports each outcome (exit)
// until the server says there are no more; where a job says `reload`, the page reloads after it
// and the new page claims the next job (with the token it kept in sessionStorage). The page's main thread only coordinates: the C main
// and every pthread run on workers, and their stdio goes to the server over io/. The server's
// URLs are relative to this page (under the run's secret path); workers get them absolute. A
// module whose code Chromium may keep comes from a stable URL outside the secret path, which the
// server serves to a request that carries the page's token in a header (cli/browser/browser-session.js);
// it is compiled streaming (host/compile/compile-streaming.js; docs/HOST.md, "Cached code in pages").
import { compile, runProgram, startEarlyWorker } from '../index.js';

const here = (path) => new URL(path, document.baseURI).href;

async function post(path, outcome) {
  await fetch(here(path), { method: 'POST', body: JSON.stringify({ ...outcome, crossOriginIsolated }) });
}

// from the first claim; the server refuses claims without it after that (kept across a reload)
const TOKEN_KEY = 'spindle-page';
let claimToken = sessionStorage.getItem(TOKEN_KEY);
// The last module stays referenced until the next job: V8 hands its optimized code to the
// browser's cache only while the module lives, and the CLI waits for that after the program's
// end (cli/browser/chromium-code-cache.js, awaitCodeCacheWrite).
const kept = { compiled: null };
for (;;) {
  const job = await (await fetch(here(claimToken ? `job?page=${claimToken}` : 'job'))).json();
  claimToken = job.page;
  if (job.done) break;
  kept.compiled = null;
  const early = [];
  try {
    // main's worker, and as many threads' workers as the module's last runs used (the CLI's
    // hint, cli/run/thread-hint.js), boot while the module is fetched and compiled
    const { threadWorkers = 0, ...options } = job.options;
    const earlyMain = startEarlyWorker();
    const earlyThreads = Array.from({ length: threadWorkers }, () => startEarlyWorker());
    early.push(earlyMain, ...earlyThreads);
    const preload = job.preloadUrl ? new Uint8Array(await (await fetch(here(job.preloadUrl))).arrayBuffer()) : undefined;
    const started = performance.now();
    const compiled = await compile(fetch(here(job.wasmUrl), { headers: { 'Spindle-Page': claimToken } }));
    const compileInfo = { ms: performance.now() - started, codeCache: compiled.codeCache };
    kept.compiled = compiled;
    const { exitCode, trap, workersUsed } = await runProgram(compiled, {
      ...options, preload, stdioUrl: here(`io/${job.id}`), earlyWorker: await earlyMain, earlyThreadWorkers: await Promise.all(earlyThreads),
    });
    await post(`exit/${job.id}`, { exitCode, trap, workersUsed, compile: compileInfo });
  } catch (err) {
    for (const worker of early) worker.then((w) => w.terminate(), () => {}); // (no program serves them now)
    // the message alone, one line, as `spindle run` prints it in Node
    await post(`exit/${job.id}`, { error: err instanceof Error ? err.message : String(err) });
  }
  if (job.reload) {
    sessionStorage.setItem(TOKEN_KEY, claimToken);
    location.reload();
    break;
  }
}
