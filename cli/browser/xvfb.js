// A private X display for a browser that has no headless mode (WebKitGTK, cli/browser/webkit.js), used
// by cli/browser/browser-watchdog.js. Xvfb picks a free display number itself (-displayfd: it tries
// :0, :1, ... and takes the first whose lock file it can create, so two runs at once never
// share one) and admits only clients that hold the cookie in DIR/Xauthority (any local user
// can connect to an X socket, and the page's URL holds the server's secret, cli/browser/local-server.js).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

const { readFileSync, rmSync, writeFileSync } = process.getBuiltinModule('node:fs');

export const xvfbPath = process.env.SPINDLE_XVFB || '/usr/bin/Xvfb';
const START_LIMIT_MS = 15000;
const STOP_WAIT_MS = 2000;

/** An Xauthority entry any display of any host matches (FamilyWild, no number): one cookie. */
function xauthority(cookie) {
  const field = (bytes) => {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(bytes.length);
    return [length, bytes];
  };
  const family = Buffer.from([0xff, 0xff]);
  return Buffer.concat([family, ...field(Buffer.alloc(0)), ...field(Buffer.alloc(0)), ...field(Buffer.from('MIT-MAGIC-COOKIE-1')), ...field(cookie)]);
}

/**
 * Starts Xvfb with its cookie file in `dir` (the browser's profile, the user's alone). Resolves
 * { env, stop() }: `env` (DISPLAY, XAUTHORITY) for the browser; stop() ends the server (SIGTERM,
 * so that it removes its lock file and socket; SIGKILL and their removal if it hangs). Rejects
 * with a one-line message if the server did not start.
 */
export async function startXvfb(dir) {
  const auth = join(dir, 'Xauthority');
  writeFileSync(auth, xauthority(randomBytes(16)), { mode: 0o600 });
  // fd 3: where the server writes its display number once it listens
  const server = spawn(xvfbPath, ['-displayfd', '3', '-auth', auth, '-nolisten', 'tcp', '-screen', '0', '1280x1024x24'],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  const said = [];
  server.stderr.on('data', (c) => said.push(c));
  const exited = new Promise((resolve) => { server.once('exit', resolve); server.once('error', resolve); });
  let number = '';
  const display = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), START_LIMIT_MS);
    server.stdio[3].on('data', (c) => {
      number += c;
      if (number.includes('\n')) { clearTimeout(timer); resolve(number.trim()); }
    });
    exited.then(() => { clearTimeout(timer); resolve(null); });
  });
  let stopped = null;
  const stop = () => (stopped ??= (async () => {
    try { process.kill(server.pid, 'SIGTERM'); } catch { /* gone */ }
    const ended = await Promise.race([exited.then(() => true), new Promise((resolve) => { setTimeout(resolve, STOP_WAIT_MS, false); })]);
    if (!ended) {
      try { process.kill(server.pid, 'SIGKILL'); } catch { /* gone */ }
      await Promise.race([exited, new Promise((resolve) => { setTimeout(resolve, STOP_WAIT_MS); })]);
    }
    // a server that died unclean leaves its lock file (holding its pid) and socket
    if (!/^\d+$/.test(display ?? '')) return;
    let owner;
    try { owner = Number(readFileSync(`/tmp/.X${display}-lock`, 'utf8').trim()); } catch { return; }
    if (owner === server.pid) {
      rmSync(`/tmp/.X11-unix/X${display}`, { force: true });
      rmSync(`/tmp/.X${display}-lock`, { force: true });
    }
  })());
  if (!/^\d+$/.test(display ?? '')) {
    await stop();
    const why = Buffer.concat(said).toString().trim().split('\n').filter((l) => /error|fatal|cannot|no such/i.test(l))[0];
    throw new Error(`Xvfb (${xvfbPath}) did not start${why ? `: ${why.trim()}` : ''}`);
  }
  server.stderr.removeAllListeners('data').resume(); // its chatter from now on (keymap warnings) is nobody's
  return { env: { DISPLAY: `:${display}`, XAUTHORITY: auth }, stop, pid: server.pid };
}
