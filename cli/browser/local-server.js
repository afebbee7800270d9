// Every HTTP server Spindle starts for a page (the browser run's, the static one of the tests'
// and benchmarks' Playwright pages, the npm WASI baseline's) starts here, and answers only the
// page it was started for. It listens on 127.0.0.1 on a port the kernel picks, and a request
// reaches the caller's handler only when
// - its path starts with the server's secret (/<secret>/...: 192 random bits, given only to the
//   browser the caller starts), else 404: another local process or page cannot guess a URL;
// - its Host is 127.0.0.1 or localhost with the server's port, else 403: a DNS-rebinding page
//   (a name of the attacker's that now resolves to 127.0.0.1) sends its own name;
// - its Origin, when sent, is the server's own and its Sec-Fetch-Site, when sent, is
//   same-origin or none, else 403: a page of another origin cannot even send a no-cors POST.
// The one exception is a top-level navigation to a page (a GET that loads a document, with the
// secret), which a browser marks cross-site when the CLI's start file (cli/browser/browser-process.js)
// makes it. No CORS headers are ever sent.
// A caller may name paths that are served without the secret (`openPath`), because the browser
// keys what it caches by URL and the secret changes with every run (a module's stable URL,
// docs/HOST.md, "Cached code in pages"); the Host, Origin and Sec-Fetch-Site checks still hold
// for them, and the caller's handler checks the run's own credential (a request header). It may
// also ask for a port of its own choice (`ports`: tried in order, then one the kernel picks),
// for the same reason: the origin is part of that URL.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const SECRET_BYTES = 24;

/** Whether `path` is /<secret>/..., compared in constant time. */
function carriesSecret(path, secret) {
  const given = Buffer.from(path.slice(1, 1 + secret.length));
  return path[0] === '/' && path[1 + secret.length] === '/' && given.length === secret.length &&
    timingSafeEqual(given, Buffer.from(secret));
}

/**
 * 0 when `req` may reach the handler, else the status that refuses it; `path`: its URL's path,
 * dot segments resolved; `open`: a path the caller serves without the secret.
 */
function refusal(req, path, port, secret, open) {
  const host = req.headers.host;
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return 403;
  if (req.headers.origin !== undefined && req.headers.origin !== `http://${host}`) return 403;
  if (!open && !carriesSecret(path, secret)) return 404;
  const site = req.headers['sec-fetch-site'];
  const pageNavigation = req.method === 'GET' && req.headers['sec-fetch-mode'] === 'navigate' &&
    req.headers['sec-fetch-dest'] === 'document';
  if (site !== undefined && site !== 'same-origin' && site !== 'none' && !pageNavigation) return 403;
  return 0;
}

/**
 * Starts a server whose `handle(req, res, path, open)` sees only admitted requests, with `path`
 * the URL's path after the secret (starting with /), or, with `open` true, a whole path that
 * `openPath(path)` admits without the secret. `ports`: the ports to try first, in order (one
 * in use is skipped); then one the kernel picks. Resolves { url (the page's address, with the
 * secret and a trailing /), origin, port, close() }.
 */
export async function startLocalServer(handle, { openPath = () => false, ports = [] } = {}) {
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  const server = createServer((req, res) => {
    let pathname;
    try {
      ({ pathname } = new URL(req.url, 'http://127.0.0.1'));
    } catch {
      return res.writeHead(400).end();
    }
    const open = !carriesSecret(pathname, secret) && openPath(pathname);
    const status = refusal(req, pathname, server.address().port, secret, open);
    if (status) return res.writeHead(status).end();
    return Promise.resolve(handle(req, res, open ? pathname : pathname.slice(1 + secret.length), open)).catch((err) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  for (const port of [...ports, 0]) {
    if (await listen(server, port)) break;
  }
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/${secret}/`,
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () => { server.closeAllConnections(); server.close(); },
  };
}

/** Listens on 127.0.0.1:`port`: true, or false where the port is taken (or not ours to take). */
function listen(server, port) {
  return new Promise((resolve, reject) => {
    const failed = (err) => {
      server.off('listening', listening);
      if (port !== 0 && ['EADDRINUSE', 'EACCES'].includes(err.code)) resolve(false);
      else reject(err);
    };
    const listening = () => { server.off('error', failed); resolve(true); };
    server.once('error', failed);
    server.once('listening', listening);
    server.listen(port, '127.0.0.1');
  });
}
