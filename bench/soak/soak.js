// The soak run (bench/soak/soak.c): 4 threads churning malloc/free and files (a host mount and
// the module's own /tmp) for 10 minutes, with the process's resident memory sampled from
// /proc/PID/status every 5 s alongside the program's own samples (files checked, files lost, open
// fds, linear memory). What must hold: no file lost, the fd count flat, and resident memory flat
// after the first minute (at most `RSS_GROWTH` above its value then).
//
//   node bench/soak/soak.js [--seconds=600] [--threads=4]     prints SAMPLE lines and a verdict
//
// From code (tests/soak.test.js, behind SPINDLE_TEST_LONG=1): `await soak({ seconds, threads })`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeMadeFor } from '../spindle-command.js';

const root = join(import.meta.dirname, '..', '..');
const spindle = join(root, 'bin', 'spindle');
const WARM_UP_S = 60;
/** Resident memory may end at most this much above its value after the first minute. */
export const RSS_GROWTH = 0.1;

const rssMiB = (pid) => {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) / 1024 : null;
  } catch {
    return null; // (the process just ended)
  }
};

/** Builds soak.c for wasm into build/bench/soak/: its path. */
export function buildSoak() {
  const out = join(root, 'build', 'bench', 'soak');
  mkdirSync(out, { recursive: true });
  const wasm = join(out, 'soak.wasm');
  const r = spawnSync(spindle, ['cc', '-O2', join(root, 'bench', 'soak', 'soak.c'), '-o', wasm], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`spindle cc soak.c failed:\n${r.stderr}`);
  return wasm;
}

/**
 * Runs the soak; resolves { samples: [{ s, files, lost, fds, memory_mib, rss_mib }], result,
 * code, stderr, verdict: { lost, fdsFlat, rssAtWarm, rssMax, rssGrowth, rssFlat } }. onSample(s)
 * sees each sample as it comes.
 */
export async function soak({ seconds = 600, threads = 4, wasm = buildSoak(), onSample = () => {} } = {}) {
  await codeMadeFor(wasm); // (its TurboFan code, which spindle cc has made in the background)
  const dir = mkdtempSync(join(tmpdir(), 'spindle-soak-'));
  try {
    const child = spawn(spindle, ['run', `--mount=/d=${dir}`, wasm, '/d', String(seconds), String(threads)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const samples = [];
    let result = null;
    let stderr = '';
    let pending = '';
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (line.startsWith('SAMPLE ')) {
          const s = { ...JSON.parse(line.slice(7)), rss_mib: rssMiB(child.pid) };
          samples.push(s);
          onSample(s);
        } else if (line.startsWith('RESULT ')) {
          result = JSON.parse(line.slice(7));
        }
      }
    });
    child.stderr.on('data', (c) => { stderr += c; });
    const code = await new Promise((resolve) => child.on('close', (c, signal) => resolve(c ?? signal)));
    return { samples, result, code, stderr, verdict: verdictOf(samples, result, seconds, threads) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function verdictOf(samples, result, seconds, threads) {
  const afterWarm = samples.filter((s) => s.s >= Math.min(WARM_UP_S, seconds / 2) && s.rss_mib !== null);
  const rssAtWarm = afterWarm[0]?.rss_mib ?? null;
  const rssMax = afterWarm.length ? Math.max(...afterWarm.map((s) => s.rss_mib)) : null;
  const rssGrowth = rssAtWarm ? rssMax / rssAtWarm - 1 : null;
  // each thread holds at most one file open at a time
  const fdsMax = Math.max(...samples.map((s) => s.fds));
  return {
    lost: result?.lost ?? null,
    files: result?.files ?? null,
    fdsFlat: result !== null && samples.length > 0 && fdsMax <= result.fds_start + threads && result.fds_end === result.fds_start,
    rssAtWarm, rssMax, rssGrowth,
    rssFlat: rssGrowth !== null && rssGrowth <= RSS_GROWTH,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => Number(process.argv.find((x) => x.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
  const r = await soak({ seconds: arg('seconds', 600), threads: arg('threads', 4), onSample: (s) => console.log(`SAMPLE ${JSON.stringify(s)}`) });
  const v = r.verdict;
  console.log(`RESULT ${JSON.stringify(r.result)}`);
  console.log(`files ${v.files}, lost ${v.lost}; fds flat: ${v.fdsFlat}; resident ${v.rssAtWarm?.toFixed(0)} MiB after the warm-up, ` +
    `at most ${v.rssMax?.toFixed(0)} MiB after (${((v.rssGrowth ?? 0) * 100).toFixed(1)}%, flat within ${RSS_GROWTH * 100}%: ${v.rssFlat})`);
  process.exitCode = r.code === 0 && v.lost === 0 && v.fdsFlat && v.rssFlat ? 0 : 1;
}
