// Keeps a headless browser (Chromium, Firefox or WebKit) from outliving the CLI that wanted it. The CLI
// starts this script detached, with a pipe on its stdin, and it starts the browser in a process
// group of its own. When the pipe closes (the CLI asked, or died, even of SIGKILL) or this script
// is signalled, it kills the browser's whole tree and removes its profile directory. When the
// browser exits by itself, the profile is removed and this script exits with the browser's code.
// usage: node browser-watchdog.js [--keep-profile] [--xvfb] PROFILE_DIR BROWSER [ARGS...] (ARGS
// name PROFILE_DIR); --keep-profile: a profile that outlives the browser (the tests' OPFS
// durability checks), of which only the temporary files are removed; --xvfb: the browser gets a
// display of its own (cli/browser/xvfb.js), started before it and ended after it (WebKitGTK);
// --save-caches=DIR: the profile's HTTP and wasm code caches go back to DIR once the browser has
// ended, before the profile is removed (cli/browser/chromium-code-cache.js).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { saveProfileCache } from './chromium-code-cache.js';
import { startXvfb } from './xvfb.js';

const { mkdirSync, readdirSync, readFileSync, rmSync } = process.getBuiltinModule('node:fs');

const flags = [];
const isFlag = (arg) => ['--keep-profile', '--xvfb'].includes(arg) || arg?.startsWith('--save-caches=');
while (isFlag(process.argv[2 + flags.length])) flags.push(process.argv[2 + flags.length]);
const keepProfile = flags.includes('--keep-profile');
const saveCachesTo = flags.find((f) => f.startsWith('--save-caches='))?.slice('--save-caches='.length);
const [profile, browserPath, ...args] = process.argv.slice(2 + flags.length);
const KILL_WAIT_MS = 3000;

// Every process of Chromium's tree carries --user-data-dir=PROFILE, also one that left the
// group; Firefox's main process carries -profile PROFILE, and its crash helper, in a group of
// its own, a directory inside PROFILE (the content processes stay in the group). WebKit's
// processes stay in the group; its Xvfb names PROFILE/Xauthority.
function killStragglers() {
  const names = (arg) => arg === `--user-data-dir=${profile}` || arg === profile || arg.startsWith(`${profile}/`);
  // (this script's own command line names the profile too)
  // (so does the display's server, which display.stop() ends so that it leaves no lock file)
  const spared = [process.pid, display?.pid];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name) && !spared.includes(Number(name)))) {
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

function removeProfile() {
  if (saveCachesTo && browser) {
    try { saveProfileCache(profile, saveCachesTo); } catch { /* the next run compiles anew */ }
  }
  try { rmSync(keepProfile ? temp : profile, { recursive: true, force: true, maxRetries: 5 }); } catch { /* the CLI retries */ }
}

// Until the browser runs, an end only has the display (if any) to stop, once it has started.
let browser = null;
let exited = null;
let display = null;
let displayStarting = null;
let ending = false;
async function end() {
  if (ending) return;
  ending = true;
  const shown = await displayStarting?.catch(() => null);
  if (browser) {
    try { process.kill(-browser.pid, 'SIGKILL'); } catch { /* already gone */ }
    killStragglers();
    await Promise.race([exited, new Promise((resolve) => { setTimeout(resolve, KILL_WAIT_MS); })]);
    killStragglers(); // a process forked while the group was being killed
  }
  await shown?.stop(); // after the browser: its clients gone, the server ends at once
  removeProfile();
  process.exit(0);
}
process.stdin.on('end', end);
process.stdin.on('close', end);
process.stdin.on('error', end);
process.stdin.resume();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, end);

async function fail(message) {
  ending = true;
  process.stdout.write(`${message}\n`);
  await display?.stop();
  removeProfile();
  process.exit(1);
}

if (flags.includes('--xvfb')) {
  try {
    display = await (displayStarting = startXvfb(profile));
  } catch (err) {
    if (!ending) await fail(err.message);
  }
}
if (!ending) {
  browser = spawn(browserPath, args,
    { detached: true, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...display?.env, TMPDIR: temp } });
  exited = new Promise((resolve) => { browser.once('exit', (code) => resolve(code ?? 1)); });
  browser.on('error', (err) => fail(`cannot start ${browserPath}: ${err.message}`));
  exited.then(async (code) => {
    if (ending) return;
    ending = true;
    killStragglers();
    await display?.stop();
    removeProfile();
    process.exit(code);
  });
}
