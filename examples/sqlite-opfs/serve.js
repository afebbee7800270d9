// Serves the example page with the headers it needs (cross-origin isolation, or the page gets
// no SharedArrayBuffer) on 127.0.0.1, a secure context, so OPFS is available. Any static server
// that sends COOP: same-origin and COEP: require-corp, and serves host/ and catalog.wasm, will do.
// usage: node examples/sqlite-opfs/serve.js   (build first: node examples/sqlite-opfs/build.js)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveIsolated } from '../../cli/browser/isolated-server.js';

export const wasm = join(import.meta.dirname, '..', '..', 'build', 'real', 'bin', 'catalog-wasm.wasm');

/** Starts the server for the page and catalog.wasm; resolves { url, close() }. */
export function serveExample() {
  if (!existsSync(wasm)) throw new Error(`${wasm} is missing: run node examples/sqlite-opfs/build.js first`);
  return serveIsolated({ '/': join(import.meta.dirname, 'index.html'), '/catalog.wasm': wasm });
}

if (process.argv[1] === import.meta.filename) {
  const server = await serveExample();
  process.stdout.write(`open ${server.url}/ (Ctrl-C stops)\n`);
}
