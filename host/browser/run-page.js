// The page that `spindle run --browser` and `spindle bench --browser` open. It asks the CLI's
// server for jobs (job), runs each module with its arguments, and reports each outcome (exit)
// until the server says there are no more. The page's main thread only coordinates: the C main
// and every pthread run on workers, and their stdio goes to the server over io/. The server's
// URLs are relative to this page (under the run's secret path); workers get them absolute.
import { run } from '../index.js';

const here = (path) => new URL(path, document.baseURI).href;

async function post(path, outcome) {
  await fetch(here(path), { method: 'POST', body: JSON.stringify({ ...outcome, crossOriginIsolated }) });
}

let claimToken = null; // from the first claim; the server refuses claims without it after that
for (;;) {
  const job = await (await fetch(here(claimToken ? `job?page=${claimToken}` : 'job'))).json();
  claimToken = job.page;
  if (job.done) break;
  try {
    const preload = job.preloadUrl ? new Uint8Array(await (await fetch(here(job.preloadUrl))).arrayBuffer()) : undefined;
    const { exitCode, trap } = await run(here(job.wasmUrl), { ...job.options, preload, stdioUrl: here(`io/${job.id}`) });
    await post(`exit/${job.id}`, { exitCode, trap });
  } catch (err) {
    // the message alone, one line, as `spindle run` prints it in Node
    await post(`exit/${job.id}`, { error: err instanceof Error ? err.message : String(err) });
  }
}
