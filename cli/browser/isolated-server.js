// A static server on 127.0.0.1 with cross-origin isolation (COOP/COEP, so pages get
// SharedArrayBuffer) for the benchmarks and tests that drive pages with Playwright. 127.0.0.1 is
// a secure context, so OPFS is there. Serves the caller's routes ({ '/': page, '/x.wasm': path }),
// else `/` as an empty page and files under the repository's host/, bench/opfs/, bench/report/,
// tests/opfs/ and build/; all under the server's secret path, to its own pages only
// (cli/browser/local-server.js), so pages use relative URLs.
import { extname, join, normalize } from 'node:path';
import { startLocalServer } from './local-server.js';

const { createReadStream, existsSync, statSync } = process.getBuiltinModule('node:fs');

const root = join(import.meta.dirname, '..', '..');
export const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};
const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html',
  '.wasm': 'application/wasm', '.json': 'application/json' };
const served = ['host/', 'bench/opfs/', 'bench/report/', 'tests/opfs/', 'build/'];

/**
 * Answers with the file at `path`, cross-origin isolated; 404 when there is no such file.
 * `headers`: more, or others (a static host's Cache-Control for hashed assets).
 */
export function sendFile(res, path, headers = {}) {
  if (!path || !existsSync(path) || !statSync(path).isFile()) return res.writeHead(404, isolation).end();
  res.writeHead(200, { ...isolation, 'Content-Type': types[extname(path)] || 'application/octet-stream', ...headers });
  return createReadStream(path).on('error', () => res.end()).pipe(res);
}

/**
 * Starts the server; resolves { url (with the secret, no trailing /), close() }. `onPost(path,
 * bytes)`, when given, takes what a page posts (a test page's report, tests/lib/page-result.js)
 * and may answer a value (or a promise of one), sent back as JSON.
 */
export async function serveIsolated(routes = {}, { onPost } = {}) {
  const server = await startLocalServer(async (req, res, path) => {
    if (req.method === 'POST' && onPost) {
      const parts = [];
      for await (const part of req) parts.push(part);
      const answer = await onPost(path, Buffer.concat(parts)); // a value is sent back as JSON
      if (answer === undefined) return res.writeHead(204, isolation).end();
      return res.writeHead(200, { ...isolation, 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    }
    let file = routes[path];
    if (!file && path === '/') {
      return res.writeHead(200, { ...isolation, 'Content-Type': 'text/html' })
        .end('<!doctype html><meta charset="utf-8"><title>spindle</title>');
    }
    if (!file) {
      const rel = path.slice(1);
      file = served.some((p) => rel.startsWith(p)) ? normalize(join(root, rel)) : null;
      if (file && !file.startsWith(root)) file = null;
    }
    return sendFile(res, file);
  });
  return { url: server.url.slice(0, -1), close: server.close };
}
