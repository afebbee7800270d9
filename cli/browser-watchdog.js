// Keeps a headless browser (Chromium or Firefox) from outliving the CLI that wanted it. The CLI
// starts this script detached, with a pipe on its stdin, and it starts the browser in a process
// group of its own. When the pipe closes (the CLI asked, or died, even of SIGKILL) or this script
// is signalled, it kills the browser's whole tree and removes its profile directory. When the
// browser exits by itself, the profile is removed and this script exits with the browser's code.
// usage: node browser-watchdog.js [--keep-profile] PROFILE_DIR BROWSER [ARGS...] (ARGS name
// PROFILE_DIR); --keep-profile: a profile that outlives the browser (the tests' OPFS durability
// checks), of which only the temporary files are removed.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const keepProfile = process.argv[2] === '--keep-profile';
const [profile, browserPath, ...args] = process.argv.slice(keepProfile ? 3 : 2);
const KILL_WAIT_MS = 3000;

// Every process of Chromium's tree carries --user-data-dir=PROFILE, also one that left the
// group; Firefox's main process carries -profile PROFILE, and its crash helper, in a group of
// its own, a directory inside PROFILE (the content processes stay in the group).
function killStragglers() {
  const names = (arg) => arg === `--user-data-dir=${profile}` || arg === profile || arg.startsWith(`${profile}/`);
  // (this script's own command line names the profile too)
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)) {
    let cmdline;
    try { cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; } // gone
    if (cmdline.split('\0').some(names)) {
      try { process.kill(Number(pid), 'SIGKILL'); } catch { /* gone */ }
    }
  }
}

// The browser's own temporary files (Chromium's org.chromium.Chromium.*) go into the profile, so
// they are removed with it even when the browser is killed.
const temp = join(profile, 'tmp');
mkdirSync(temp, { recursive: true });
const browser = spawn(browserPath, args,
  { detached: true, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, TMPDIR: temp } });
const exited = new Promise((resolve) => { browser.once('exit', (code) => resolve(code ?? 1)); });

function removeProfile() {
  try { rmSync(keepProfile ? temp : profile, { recursive: true, force: true, maxRetries: 5 }); } catch { /* the CLI retries */ }
}

let ending = false;
async function end() {
  if (ending) return;
  ending = true;
  try { process.kill(-browser.pid, 'SIGKILL'); } catch { /* already gone */ }
  killStragglers();
  await Promise.race([exited, new Promise((resolve) => { setTimeout(resolve, KILL_WAIT_MS); })]);
  killStragglers(); // a process forked while the group was being killed
  removeProfile();
  process.exit(0);
}

browser.on('error', (err) => {
  process.stdout.write(`cannot start ${browserPath}: ${err.message}\n`);
  removeProfile();
  process.exit(1);
});
exited.then((code) => {
  if (ending) return;
  killStragglers();
  removeProfile();
  process.exit(code);
});
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.on('error', end);
process.stdin.resume();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, end);
