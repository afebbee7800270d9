// A web app as a developer writes it: the host from its npm package, the program as an asset
// URL that Vite emits, an OPFS mount. It leaves { output, exitCode } in window.spindleResult.
import { run } from 'spindle-host';
import wasmUrl from './app.wasm?url';

const out = document.getElementById('out');
try {
  const { exitCode, trap } = await run(wasmUrl, {
    args: ['app'],
    mounts: [{ path: '/data', opfs: 'webapp-test' }],
    onStdio: (fd, bytes) => { out.textContent += new TextDecoder().decode(bytes); },
  });
  window.spindleResult = { output: out.textContent, exitCode, trap: trap ?? null };
} catch (e) {
  window.spindleResult = { error: String(e?.stack ?? e) };
}
// the test's server takes the result too (a browser that Playwright cannot drive reports here)
await fetch('./result', { method: 'POST', body: JSON.stringify(window.spindleResult) });
