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
// secret), which a browser marks cross-site when the CLI's start file (cli/browser-process.js)
// makes it. No CORS headers are ever sent.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const SECRET_BYTES = 24;

/** Whether `path` is /<secret>/..., compared in constant time. */
function carriesSecret(path, secret) {
  const given = Buffer.from(path.slice(1, 1 + secret.length));
  return path[0] === '/' && path[1 + secret.length] === '/' && given.length === secret.length &&
    timingSafeEqual(given, Buffer.from(secret));
}

/** 0 when `req` may reach the handler, else the status that refuses it; `path`: its URL's path, dot segments resolved. */
function refusal(req, path, port, secret) {
  const host = req.headers.host;
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return 403;
  if (req.headers.origin !== undefined && req.headers.origin !== `http://${host}`) return 403;
  if (!carriesSecret(path, secret)) return 404;
  const site = req.headers['sec-fetch-site'];
  const pageNavigation = req.method === 'GET' && req.headers['sec-fetch-mode'] === 'navigate' &&
    req.headers['sec-fetch-dest'] === 'document';
  if (site !== undefined && site !== 'same-origin' && site !== 'none' && !pageNavigation) return 403;
  return 0;
}

/**
 * Starts a server whose `handle(req, res, path)` sees only admitted requests, with `path` the
 * URL's path after the secret (starting with /). Resolves { url (the page's address, with the
 * secret and a trailing /), close() }.
 */
export async function startLocalServer(handle) {
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  const server = createServer((req, res) => {
    let pathname;
    try {
      ({ pathname } = new URL(req.url, 'http://127.0.0.1'));
    } catch {
      return res.writeHead(400).end();
    }
    const status = refusal(req, pathname, server.address().port, secret);
    if (status) return res.writeHead(status).end();
    return Promise.resolve(handle(req, res, pathname.slice(1 + secret.length))).catch((err) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/${secret}/`,
    close: () => { server.closeAllConnections(); server.close(); },
  };
}
