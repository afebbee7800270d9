// Starts headless Chromium for the CLI so that it never outlives it: through
// cli/browser-watchdog.js, which kills Chromium's whole tree and removes its profile when the
// CLI stops it, is interrupted (cli/interrupt.js) or dies in any other way.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { onInterrupt } from './interrupt.js';

const watchdog = join(import.meta.dirname, 'browser-watchdog.js');
const STOP_WAIT_MS = 5000;

/**
 * Starts `chromium args...` with a fresh profile (`--user-data-dir`), opening `url`. Returns
 * { profile, exited, stop() }: `exited` resolves with a message when the browser ended by itself
 * (or could not start); `stop()` ends it and resolves when its processes and profile are gone.
 */
export function launchBrowser(chromium, args, { url, showStderr = false, profilePrefix = 'spindle-chromium-' } = {}) {
  const profile = mkdtempSync(join(tmpdir(), profilePrefix));
  // Any local user can read a process's command line, so `url` and the server's secret in it
  // (cli/local-server.js) stay out of it: Chromium opens a file in the profile (mkdtemp makes it
  // the user's alone) that sends it on.
  const start = join(profile, 'start.html');
  const attribute = url.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  writeFileSync(start, `<!doctype html><meta http-equiv="refresh" content="0;url=${attribute}">`);
  const child = spawn(process.execPath, [watchdog, profile, chromium, ...args, pathToFileURL(start).href],
    { detached: true, stdio: ['pipe', 'pipe', showStderr ? 'inherit' : 'ignore'] });
  const said = [];
  child.stdout.on('data', (c) => said.push(c));
  child.stdin.on('error', () => {}); // the watchdog may be gone already
  let stopping = false;
  let stopped = null;
  const gone = new Promise((resolve) => { child.once('close', resolve); child.once('error', resolve); });
  const exited = gone.then((code) => {
    const why = Buffer.concat(said).toString().trim();
    if (stopping) return null;
    return why || (typeof code === 'number' ? `chromium exited (code ${code}) before the program ended` : `cannot start the browser watchdog: ${code?.message}`);
  });

  function stop() {
    stopping = true;
    stopped ??= (async () => {
      child.stdin.end(); // the watchdog's signal to end the browser
      await Promise.race([gone, new Promise((resolve) => { setTimeout(resolve, STOP_WAIT_MS).unref(); })]);
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 5 }); // normally gone already
      } catch (err) {
        process.stderr.write(`spindle: warning: could not remove ${profile}: ${err.message}\n`);
      }
    })();
    return stopped;
  }
  const forget = onInterrupt(stop);
  return { profile, exited, stop: () => { forget(); return stop(); } };
}
