// The page that `spindle run --browser` and `spindle bench --browser` open. It asks the CLI's
// server for jobs (/job), runs each module with its arguments, and reports each outcome (/exit)
// until the server says there are no more. The page's main thread only coordinates: the C main
// and every pthread run on workers, and their stdio goes to the server over /io.
import { run } from '../index.js';

async function post(path, outcome) {
  await fetch(path, { method: 'POST', body: JSON.stringify({ ...outcome, crossOriginIsolated }) });
}

for (;;) {
  const job = await (await fetch('/job')).json();
  if (job.done) break;
  try {
    const preload = job.preloadUrl ? new Uint8Array(await (await fetch(job.preloadUrl)).arrayBuffer()) : undefined;
    const { exitCode, trap } = await run(job.wasmUrl, { ...job.options, preload, stdioUrl: `/io/${job.id}` });
    await post(`/exit/${job.id}`, { exitCode, trap });
  } catch (err) {
    await post(`/exit/${job.id}`, { error: String(err && err.stack ? err.stack : err) });
  }
}
