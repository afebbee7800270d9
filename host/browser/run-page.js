// Runs the module the CLI serves (/app.wasm) with the configuration it serves (/config) and
// reports the outcome to /exit.
import { run } from '../index.js';

async function report(outcome) {
  await fetch('/exit', { method: 'POST', body: JSON.stringify(outcome) });
}

try {
  const config = await (await fetch('/config')).json();
  const { exitCode, trap } = await run('/app.wasm', { ...config, stdioUrl: '/io' });
  await report({ exitCode, trap, crossOriginIsolated });
} catch (err) {
  await report({ error: String(err && err.stack ? err.stack : err), crossOriginIsolated });
}
